"""Issue 25 item 3: option defaults held in configuration files a program loads (YAML or
JSON from a literal path or an option's default, Hydra's composed configuration)."""

from __future__ import annotations

from pathlib import Path

import pytest

from project_files import write
from reprolint.api import check_paths
from reprolint.config import Settings

TRAIN = (
    "import yaml\nimport numpy as np\n\n"
    "{load}\n"
    "np.random.seed(cfg[\"seed\"])\nx = np.random.rand(3)\nnp.save(\"x.npy\", x)\n"
)


def findings(folder: Path) -> list[tuple[str, int, str, str]]:
    return [
        (Path(d.path).name, d.span.start_line, d.code, d.message)
        for d in check_paths([str(folder)], Settings()).diagnostics
    ]


@pytest.mark.parametrize(
    "load",
    [
        "cfg = yaml.safe_load(open(\"configs/run.yaml\"))",
        "with open(\"configs/run.yaml\") as f:\n    cfg = yaml.safe_load(f)",
        "import argparse\np = argparse.ArgumentParser()\np.add_argument(\"--config\", default=\"configs/run.yaml\")\n"
        "args = p.parse_args()\nwith open(args.config) as f:\n    cfg = yaml.load(f, Loader=yaml.SafeLoader)",
    ],
)
def test_a_null_seed_in_the_loaded_yaml_is_a_seed_from_entropy(tmp_path: Path, load: str) -> None:
    write(tmp_path, {"train.py": TRAIN.format(load=load), "configs/run.yaml": "seed: null\nlr: 0.1\n"})
    ((name, _, code, message),) = findings(tmp_path)
    assert (name, code) == ("train.py", "RPL103")
    assert message.endswith("its seed `seed` in `configs/run.yaml` defaults to None")


def test_a_seed_set_in_the_yaml_is_no_finding(tmp_path: Path) -> None:
    load = "cfg = yaml.safe_load(open(\"configs/run.yaml\"))"
    write(tmp_path, {"train.py": TRAIN.format(load=load), "configs/run.yaml": "train:\n  seed: 3\n"})
    assert findings(tmp_path) == []


def test_a_missing_or_broken_config_file_decides_nothing(tmp_path: Path) -> None:
    load = "cfg = yaml.safe_load(open(\"configs/run.yaml\"))"
    write(tmp_path, {"train.py": TRAIN.format(load=load), "configs/other.yaml": "seed: null\n"})
    assert findings(tmp_path) == []
    write(tmp_path, {"configs/run.yaml": "seed: [unclosed\n"})
    assert findings(tmp_path) == []


def test_an_option_of_the_program_keeps_its_own_default_over_a_config_key(tmp_path: Path) -> None:
    load = (
        "import argparse\np = argparse.ArgumentParser()\np.add_argument(\"--seed\", type=int, default=5)\n"
        "args = p.parse_args()\ncfg = yaml.safe_load(open(\"run.yaml\"))\ncfg[\"seed\"] = args.seed"
    )
    write(tmp_path, {"train.py": TRAIN.format(load=load), "run.yaml": "seed: null\n"})
    assert findings(tmp_path) == []


HYDRA_TRAIN = """import hydra
import random


def run(cfg):
    if cfg.get("seed"):
        random.seed(cfg.seed)
    print(random.random())


@hydra.main(version_base="1.3", config_path="../configs", config_name="train")
def main(cfg):
    run(cfg)


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize(
    "files, reported",
    [
        ({"configs/train.yaml": "seed: null\n"}, True),
        ({"configs/train.yaml": "seed: 12345\n"}, False),
        # composed from the defaults list: the group's file holds the seed
        ({"configs/train.yaml": "defaults:\n  - _self_\n  - extras: default\n", "configs/extras/default.yaml": "seed: null\n"}, True),
        ({"configs/train.yaml": "defaults:\n  - extras: default\n", "configs/extras/default.yaml": "seed: 7\n"}, False),
    ],
)
def test_hydra_configuration_gives_the_defaults(tmp_path: Path, files: dict, reported: bool) -> None:
    write(tmp_path, {"src/train.py": HYDRA_TRAIN, **files})
    codes = [(code, line) for _, line, code, _ in findings(tmp_path)]
    assert codes == ([("RPL104", 7)] if reported else [])


def test_an_edited_config_file_is_read_again(tmp_path: Path) -> None:
    """The parse of a configuration file is kept between checks (a server re-checks on
    every edit): an edit of the file must be seen."""
    load = "cfg = yaml.safe_load(open(\"configs/run.yaml\"))"
    write(tmp_path, {"train.py": TRAIN.format(load=load), "configs/run.yaml": "seed: null\n"})
    assert [code for _, _, code, _ in findings(tmp_path)] == ["RPL103"]
    write(tmp_path, {"configs/run.yaml": "seed: 1\n"})
    assert findings(tmp_path) == []
