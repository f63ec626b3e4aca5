"""Source snapshot and corpus building: a helper that collects (absolute, relative) path
pairs with `+=` and returns them for copying, next to loops that concatenate every
file's text, or grow a list of names, in listing order for training."""
import fnmatch
import os
import sys


def list_dir_recursively(dir_path, ignores=()):
    result = []
    for root, dirs, files in os.walk(dir_path, topdown=True):
        for ignore in ignores:
            for d in [d for d in dirs if fnmatch.fnmatch(d, ignore)]:
                dirs.remove(d)
            files = [f for f in files if not fnmatch.fnmatch(f, ignore)]
        absolute = [os.path.join(root, f) for f in files]
        relative = [os.path.relpath(p, dir_path) for p in absolute]
        result += zip(absolute, relative)
    return result


def read_corpus(text_dir):
    text = ""
    for name in os.listdir(text_dir):  # expect: RPL402
        with open(os.path.join(text_dir, name)) as f:
            text += f.read()
    return text[: len(text) // 2], text[len(text) // 2 :]


def class_names(root):
    names = []
    for name in os.listdir(root):  # expect: RPL402
        if os.path.isdir(os.path.join(root, name)):
            names = names + [name]
    return {name: index for index, name in enumerate(names)}


def total_size(root):
    total = 0
    for name in os.listdir(root):
        total += os.path.getsize(os.path.join(root, name))
    return total


if __name__ == "__main__":
    print(sorted(list_dir_recursively(sys.argv[1])), read_corpus(sys.argv[2]), class_names(sys.argv[3]))
    print(total_size(sys.argv[3]))
