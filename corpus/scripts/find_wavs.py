"""Lists the generated and reference wavs and compares them pairwise."""
import fnmatch
import os
import sys


def find_files(root_dir, query=("*.wav",), include_root_dir=True):
    files = []
    for root, dirnames, filenames in os.walk(root_dir, followlinks=True):
        for q in query:
            for filename in fnmatch.filter(filenames, q):
                files.append(os.path.join(root, filename))
    if not include_root_dir:
        files = [f.replace(root_dir + "/", "") for f in files]
    return files


if __name__ == "__main__":
    generated = sorted(find_files(sys.argv[1]))
    reference = sorted(find_files(sys.argv[2]))
    for g, r in zip(generated, reference):
        print(g, r, os.path.getsize(g) - os.path.getsize(r))
