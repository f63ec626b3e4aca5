"""Per-site op findings (RPL201, RPL202, RPL204) and RPL301's evidence list the project
calls through which the program reaches the op, outermost first: the line a reader of
the entry point sees (`y = blur(x)`) whose body runs it elsewhere."""
from __future__ import annotations

from pathlib import Path

from reprolint.api import check_paths

AUG = '''import torch.nn.functional as F


def blur(x):
    return F.pad(x, (1, 1, 1, 1), mode="reflect").mean(-1)
'''
TRAIN = '''import torch
from aug import blur

torch.manual_seed(0)
model = torch.nn.Conv2d(3, 3, 3).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def step(x):
    loss = blur(model(x)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()


for _ in range(3):
    step(torch.randn(2, 3, 8, 8).cuda())
'''


def _by_code(root: Path, code: str) -> list:
    return [d for d in check_paths([str(root)], jobs=1).diagnostics if d.code == code]


def test_a_site_finding_lists_the_calls_that_reach_it(tmp_path: Path) -> None:
    (tmp_path / "aug.py").write_text(AUG)
    (tmp_path / "train.py").write_text(TRAIN)
    [finding] = _by_code(tmp_path, "RPL202")
    assert (Path(finding.path).name, finding.span.start_line) == ("aug.py", 5)
    assert [(Path(r.path).name, r.span.start_line, r.message.split("`")[1]) for r in finding.related] == [
        ("train.py", 17, "step"), ("train.py", 10, "blur"),
    ]
    assert finding.related[1].message.endswith("at " + finding.path + ":5")


def test_an_op_in_the_entry_points_own_code_has_no_chain(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN.replace("from aug import blur\n", "").replace(
        "loss = blur(model(x)).sum()", "loss = torch.nn.functional.pad(model(x), (1, 1, 1, 1), mode='reflect').sum()"))
    [finding] = _by_code(tmp_path, "RPL202")
    assert finding.span.start_line == 9 and [r.message.split("`")[1] for r in finding.related] == ["step"]


PIPELINE = '''import tensorflow as tf


def get_data(files):
    ds = tf.data.Dataset.from_tensor_slices(files)
    return ds.interleave(tf.data.TFRecordDataset, num_parallel_calls=4, deterministic=False)
'''
FIT = '''import tensorflow as tf
from pipeline import get_data

tf.keras.utils.set_random_seed(0)
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile("sgd", "mse")
model.fit(get_data(["a.tfrecord"]), epochs=1)
'''


def test_a_tf_setting_lists_the_call_that_reaches_it(tmp_path: Path) -> None:
    (tmp_path / "pipeline.py").write_text(PIPELINE)
    (tmp_path / "train.py").write_text(FIT)
    [finding] = _by_code(tmp_path, "RPL204")
    assert (Path(finding.path).name, finding.span.start_line) == ("pipeline.py", 6)
    assert [(Path(r.path).name, r.span.start_line) for r in finding.related] == [("train.py", 7)]
