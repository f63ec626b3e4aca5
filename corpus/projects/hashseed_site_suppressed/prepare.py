"""Writes the label list for a later run, in the order of a set of strings."""
import json
import sys

names = open(sys.argv[1]).read().split()
with open("labels.json", "w") as out:
    json.dump(list(set(names)), out)  # expect: RPL401
