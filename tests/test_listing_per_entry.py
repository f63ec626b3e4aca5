"""A loop over a directory listing whose body handles each entry on its own (converts
it to files named after it, with a command line or a helper) does not use the listing's
order (RPL402): what reaches the command only as text (`str(args.rate)`), a method of a
literal (`" ".join(...)`) or of what a library function returned, `filter` with a
helper of the module, and a progress bar around the listing change nothing of that. A
command line that appends (`>>`) or a list filled in order still does."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

SOURCE = '''import argparse
import io
import os
import subprocess
import unicodedata

from tqdm import tqdm

parser = argparse.ArgumentParser()
parser.add_argument("--rate", type=int, default=16000)
args = parser.parse_args()


def read_lines(path):
    out = []
    with io.open(path, "r", encoding="utf-8") as f:
        for line in f:
            text = unicodedata.normalize("NFKD", " ".join(line.split())).encode("utf-8").decode("utf-8")
            out.append(text)
    return out


def long_enough(line):
    return len(line) > 3


def convert(src, dst, rate):
    subprocess.call(["sox {} -r {} {}".format(src, str(rate), dst)], shell=True)


entries = os.listdir("sph")
for name in LOOP:
    lines = filter(long_enough, read_lines(os.path.join("stm", name)))
    for i, line in enumerate(lines):
        BODY
'''

def source(loop: str, body: str) -> str:
    return SOURCE.replace("LOOP", loop).replace("BODY", body)


PER_ENTRY = [
    'convert(os.path.join("sph", name), "{}_{}.wav".format(name, i), args.rate)',
    'subprocess.call("sox {} -r {} {}_{}.wav".format(name, str(args.rate), name, i), shell=True)',
    'subprocess.call(f"sox {name} -r {args.rate} {name}_{i}.wav", shell=True)',
]


@pytest.mark.parametrize("loop", ["entries", "tqdm(entries, total=len(entries))"])
@pytest.mark.parametrize("body", PER_ENTRY)
def test_each_entry_converted_on_its_own_uses_no_order(loop: str, body: str) -> None:
    found = [d for d in check_source(source(loop, body), "prep.py") if d.code == "RPL402"]
    assert found == []


@pytest.mark.parametrize("loop", ["entries", "tqdm(entries, total=len(entries))"])
def test_a_command_that_appends_writes_in_the_listings_order(loop: str) -> None:
    body = 'subprocess.call("cat {} >> all.txt".format(name), shell=True)'
    found = [d.span.start_line for d in check_source(source(loop, body), "prep.py")
             if d.code == "RPL402"]
    assert found == [31]


def test_a_value_carried_between_entries_keeps_the_finding() -> None:
    # the helper is given an object made outside the loop, not text
    body = 'convert(os.path.join("sph", name), "{}_{}.wav".format(name, i), parser)'
    text = source("entries", body).replace(
        'subprocess.call(["sox {} -r {} {}".format(src, str(rate), dst)], shell=True)',
        'rate.seen.append(src)',
    )
    found = [d.span.start_line for d in check_source(text, "prep.py") if d.code == "RPL402"]
    assert found == [31]


SET_AGAIN = '''import glob
import os

gt_files = glob.glob("gt/*.txt")
pred_files = glob.glob("pred/*.txt")
gt_files = MADE
pred_files = set(pred_files)
unmatched = gt_files - pred_files


def backup(files):
    for f in files:
        os.rename(f, "backup/" + f)


backup(unmatched)
'''


@pytest.mark.parametrize("made", ["set(gt_files)", "frozenset(gt_files)", "{f for f in gt_files}"])
def test_a_listing_bound_again_to_a_set_of_itself_has_no_order(made: str) -> None:
    found = [d for d in check_source(SET_AGAIN.replace("MADE", made), "intersect.py") if d.code == "RPL402"]
    assert found == []


def test_a_listing_bound_again_to_a_list_of_itself_keeps_its_order() -> None:
    # printed whole (`backup` renames each file on its own: no order, see test_listing_helpers_and_views)
    source = SET_AGAIN.replace("MADE", "[f for f in gt_files]").replace("gt_files - pred_files", "gt_files").replace(
        "backup(unmatched)", "print(unmatched)")
    found = [d.span.start_line for d in check_source(source, "intersect.py") if d.code == "RPL402"]
    assert found == [4]


def test_a_listing_held_by_with_is_judged_where_it_is_used() -> None:
    from reprolint.api import check_source

    fill_then_sort = (
        "import os\n\n\ndef class_ids(path):\n    ids = []\n    with os.scandir(path) as entries:\n"
        "        for entry in entries:\n            ids.append(entry.name)\n    return sorted(ids)\n\n\n"
        "print(class_ids('.'))\n"
    )
    first_entry = "import os\n\nwith os.scandir('data') as entries:\n    names = [e.name for e in entries]\nprint(names[0])\n"
    assert [d for d in check_source(fill_then_sort, "ids.py") if d.code == "RPL402"] == []
    assert [d.span.start_line for d in check_source(first_entry, "first.py") if d.code == "RPL402"] == [3]
