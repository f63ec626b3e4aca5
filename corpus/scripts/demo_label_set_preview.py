"""Preview of a dataset's label names in a notebook-style demo: prints a few labels.

A demo (named demo_*) has no training result of its own: what it prints in the set's
order is no result (RPL401 is not reported, as RPL101 is not for a demo's draws), nor is
it a program without PYTHONHASHSEED (RPL307). scripts/set_order_script_preview.py is the
same code in a program of its own: reported."""
import csv
import sys

with open(sys.argv[1]) as f:
    labels = set(row["label"].strip() for row in csv.DictReader(f))
for name in labels:
    print(name)
