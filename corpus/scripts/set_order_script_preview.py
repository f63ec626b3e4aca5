"""The look-alike of projects/set_order_package_demo and scripts/demo_label_set_preview.py:
the same character list taken from a set, in a script of its own that is no demo (a
program users run for its output): reported."""
import sys

text = open(sys.argv[1]).read()
chars = list(set(text))  # expect: RPL401
print(len(chars), chars[:10])
