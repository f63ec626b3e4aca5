"""Expands the include lines of each folder's notes template into the folder's own
notes file, through a helper of the same module that opens only the files its
arguments name and writes only its own output (order-free: each folder's output is
its own). The look-alike helper also appends a line per folder to one shared index
file opened before the loop, whose lines follow the listing's order."""
import os


def expand(template_path, out_path):
    if not os.path.isfile(template_path):
        return
    base = os.path.split(template_path)[0]
    with open(template_path, "r") as src, open(out_path, "w") as dst:
        for line in src:
            if line.startswith("#include "):
                included = os.path.join(base, line.split(" ", 1)[1].strip())
                with open(included) as part:
                    dst.write(part.read())
            else:
                dst.write(line)


def expand_and_index(template_path, out_path, index_file):
    expand(template_path, out_path)
    index_file.write(out_path + "\n")


def main():
    for folder in os.listdir("."):
        if os.path.isdir(folder) and not folder.startswith("."):
            expand(os.path.join(folder, "notes.in"), os.path.join(folder, "NOTES.md"))
    with open("INDEX.txt", "w") as index_file:
        for folder in os.listdir("."):  # expect: RPL402
            if os.path.isdir(folder):
                expand_and_index(os.path.join(folder, "notes.in"), os.path.join(folder, "NOTES.md"), index_file)


if __name__ == "__main__":
    main()
