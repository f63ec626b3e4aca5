"""Undo tokenisation in a corpus of sentences, then write the vocabulary."""
import sys


def detokenize(s):
    both_sides = set([" - "])
    unknown = {"<unk>", "unk"}  # "<unk>" first leaves "", "unk" first leaves "<>"
    for p in both_sides:
        s = s.replace(p, p.strip())
    for p in unknown:  # expect: RPL401
        s = s.replace(p, "")
    return s


if __name__ == "__main__":
    lines = [detokenize(line) for line in open(sys.argv[1])]
    words = {w for line in lines for w in line.split()}
    with open("vocab.txt", "w") as f:
        f.write("\n".join(sorted(words)))
