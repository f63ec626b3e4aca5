"""A loop or a pool that turns each listed file into its own output file takes no order
from the listing: the mode `open` is given may be a module name bound only to literals
(``writemode = 'wb'`` on Python 3, ``'w'`` on 2), a worker may write the entry's values
with ``torch.save`` (a serialiser, no generator or device state), and a loop over a
pool's results that reads none of them only waits for the workers. Look-alikes stay
reported: a mode that appends, a worker that draws, a loop that keeps the results."""
from __future__ import annotations

from pathlib import Path

from project_files import found, write

UNZIP = (
    "import gzip\nimport os\nimport sys\n\n"
    "if sys.version_info > (3, 0):\n    writemode = 'wb'\nelse:\n    writemode = {other}\n\n"
    "zipped = [f for f in os.listdir('.') if f.endswith('ubyte.gz')]\n"
    "for z in zipped:\n"
    "    with gzip.GzipFile(z, mode='rb') as packed, open(z[:-3], writemode) as out:\n"
    "        out.write(packed.read())\n"
)


def test_a_file_opened_with_a_mode_a_module_name_holds_as_a_literal_is_the_entrys_own(tmp_path: Path) -> None:
    write(tmp_path, {"unzip.py": UNZIP.format(other="'w'")})
    assert found(tmp_path, "RPL402") == []


def test_a_mode_that_may_append_or_is_not_a_literal_writes_in_the_listings_order(tmp_path: Path) -> None:
    # one binding appends, to the one file of the entries' folder: the files are written
    # one after the other into the same output (appending to each entry's own file, as
    # `open(z[:-3], ...)` does, is no order: stop 64)
    shared = UNZIP.replace("open(z[:-3], writemode)", "open(os.path.join(os.path.dirname(z), 'all.bin'), writemode)")
    write(tmp_path, {"unzip.py": shared.format(other="'a'")})
    assert found(tmp_path, "RPL402") == [("unzip.py", 10)]
    # a mode computed elsewhere is not known: it may append
    write(tmp_path, {"unzip.py": shared.format(other="choose_mode()")})
    assert found(tmp_path, "RPL402") == [("unzip.py", 10)]
    write(tmp_path, {"unzip.py": UNZIP.format(other="'a'")})
    assert found(tmp_path, "RPL402") == []


CONVERT = (
    "import glob\nimport json\nfrom multiprocessing import Pool\nfrom os.path import join\n\n"
    "import torch\n\n\n"
    "def convert(params):\n"
    "    json_file, save_file = params\n"
    "    records = json.load(open(json_file))\n"
    "    examples = []\n"
    "    for r in records:\n"
    "        examples.append({worker_value})\n"
    "    torch.save(examples, save_file)\n\n\n"
    "def convert_all(raw, out):\n"
    "    jobs = []\n"
    "    for name in glob.glob(join(raw, '*.json')):\n"
    "        jobs.append((name, join(out, name.replace('json', 'pt'))))\n"
    "    pool = Pool(4)\n"
    "{wait}"
    "    pool.close()\n\n\n"
    "convert_all('raw', 'out')\n"
)
DISCARDED = "    for _ in pool.imap(convert, jobs):\n        pass\n"


def test_a_pool_whose_worker_saves_each_entry_to_its_own_file_takes_no_order(tmp_path: Path) -> None:
    write(tmp_path, {
        "mapped.py": CONVERT.format(worker_value="r['src']", wait="    pool.map(convert, jobs)\n"),
        "waited.py": CONVERT.format(worker_value="r['src']", wait=DISCARDED),
    })
    assert found(tmp_path, "RPL402") == []


def test_a_worker_that_draws_or_a_loop_that_keeps_the_results_takes_the_order(tmp_path: Path) -> None:
    drawing = CONVERT.format(worker_value="torch.rand(1)", wait=DISCARDED)
    kept = CONVERT.format(worker_value="r['src']", wait=DISCARDED.replace(
        "for _ in", "for done in").replace("pass", "print(done)"))
    write(tmp_path, {"drawing.py": drawing, "kept.py": kept})
    assert found(tmp_path, "RPL402") == [("drawing.py", 20), ("kept.py", 20)]
