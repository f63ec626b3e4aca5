"""Preview of a dataset's label names in a notebook-style demo: prints a few labels.

A demo (named demo_*) has no training result of its own, so the set's order is reported
where it is taken (RPL401) but not as a program without PYTHONHASHSEED (RPL307)."""
import csv
import sys

with open(sys.argv[1]) as f:
    labels = set(row["label"].strip() for row in csv.DictReader(f))
for name in labels:  # expect: RPL401
    print(name)
