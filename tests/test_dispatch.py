"""Dispatch by name (issue 25 item 6): a program reaches the candidate its key's default
names; with a key no default decides, it may reach any of them."""

from __future__ import annotations

from pathlib import Path

from reprolint.api import check_paths

MODELS = {
    "models/__init__.py": "from .small import *\nfrom .noisy import *\n",
    "models/small.py": "from torch import nn\n\n__all__ = ['small']\n\n"
                       "def small():\n    return nn.Linear(4, 2)\n",
    "models/noisy.py": "import torch\n\n__all__ = ['noisy']\n\n"
                       "def noisy():\n    return torch.randn(4, 2)\n",
}


def findings(root: Path) -> list[tuple[str, int, str]]:
    return sorted(
        (Path(d.path).relative_to(root).as_posix(), d.span.start_line, d.code)
        for d in check_paths([str(root)]).diagnostics
    )


def _train(key: str) -> str:
    return (
        "import argparse\nimport models\n\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--arch', default='small')\n"
        "args = parser.parse_args()\n"
        f"net = models.__dict__[{key}]()\n"
    )


def test_the_option_default_picks_the_candidate(project) -> None:
    root = project({**MODELS, "train.py": _train("args.arch")})
    assert findings(root) == [("models/small.py", 6, "RPL101")]


def test_a_literal_key_picks_the_candidate(project) -> None:
    root = project({**MODELS, "train.py": _train("'noisy'")})
    assert findings(root) == [("models/noisy.py", 6, "RPL101")]


def test_a_key_no_default_decides_may_reach_any_candidate(project) -> None:
    root = project({**MODELS, "train.py": _train("input('architecture: ')")})
    result = check_paths([str(root)]).diagnostics
    assert [(Path(d.path).name, d.span.start_line, d.code) for d in result] == [("small.py", 6, "RPL101")]
    # the other candidate's draw is the same cause: a related location; then the call
    # in train.py through which the program reaches the draws
    assert [(Path(r.path).name, r.span.start_line) for r in result[0].related] == [("noisy.py", 6), ("train.py", 7)]


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, source in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(source, encoding="utf-8")
    return root


def test_a_finding_that_rests_on_a_name_no_default_decides_says_so(tmp_path) -> None:
    undecided_train = _train("args.arch").replace(", default='small'", "")
    undecided = _write(tmp_path / "undecided", {**MODELS, "train.py": undecided_train})
    (finding,) = check_paths([str(undecided)]).diagnostics
    assert finding.code == "RPL101"
    assert "on a run where `args.arch == 'small'` (no default decides the name)" in finding.message
    # a default that names the candidate: the program surely reaches it, and says nothing more
    decided = _write(tmp_path / "decided", {**MODELS, "train.py": _train("args.arch")})
    (finding,) = check_paths([str(decided)]).diagnostics
    assert "no default decides" not in finding.message
    # a draw before the dispatch, which every run reaches: the finding starts there
    first = "import torch\nx = torch.rand(2)\n"
    both = _write(tmp_path / "both", {**MODELS, "train.py": first + undecided_train})
    (finding,) = check_paths([str(both)]).diagnostics
    assert finding.span.start_line == 2 and Path(finding.path).name == "train.py"
    assert "no default decides" not in finding.message


def test_a_table_of_names_in_another_module(project) -> None:
    root = project({
        **MODELS,
        "models/__init__.py": MODELS["models/__init__.py"] + "\nARCHS = {'a': small, 'b': noisy}\n",
        "train.py": "import argparse\nfrom models import *\n\n"
                    "parser = argparse.ArgumentParser()\nparser.add_argument('--arch', default='b')\n"
                    "args = parser.parse_args()\nnet = ARCHS[args.arch]()\n",
    })
    assert findings(root) == [("models/noisy.py", 6, "RPL101")]


def test_a_registry_holds_only_the_modules_the_program_imported(project) -> None:
    registered = (
        "from torch import nn\nfrom timm.models.registry import register_model\n\n"
        "@register_model\ndef {name}(**kwargs):\n    return nn.Linear(4, 2)\n"
    )
    def train(default: str) -> str:
        return (
            "import argparse\nfrom timm import create_model\nimport zoo.b\n\n"
            f"parser = argparse.ArgumentParser()\nparser.add_argument('--model', default={default!r})\n"
            "args = parser.parse_args()\nnet = create_model(args.model)\n"
        )

    files = {
        "zoo/__init__.py": "", "zoo/a.py": registered.format(name="net_a"), "zoo/b.py": registered.format(name="net_b"),
    }
    assert findings(project({**files, "train.py": train("net_b")})) == [("zoo/b.py", 6, "RPL101")]
    # net_a's module is never imported: it registered nothing, so what timm builds is
    # timm's own model (its weights are drawn in the library, at the call)
    assert findings(project({**files, "train.py": train("net_a")})) == [("train.py", 8, "RPL101")]


def test_importlib_by_name_reaches_the_default_module(project) -> None:
    root = project({
        "nets/__init__.py": "",
        "nets/mlp.py": "from torch import nn\n\nclass Model(nn.Module):\n    def __init__(self):\n"
                       "        super().__init__()\n        self.fc = nn.Linear(4, 2)\n",
        "nets/noise.py": "import torch\nfrom torch import nn\n\nclass Model(nn.Module):\n    def __init__(self):\n"
                         "        super().__init__()\n        self.w = nn.Parameter(torch.randn(4))\n",
        "run.py": "import argparse\nimport importlib\n\n"
                  "parser = argparse.ArgumentParser()\nparser.add_argument('--model', default='noise')\n"
                  "args = parser.parse_args()\n"
                  "net = importlib.import_module('nets.' + args.model).Model()\n",
    })
    assert findings(root) == [("nets/noise.py", 7, "RPL101")]


OPS = {
    "nets/__init__.py": "from .up import *\n",
    "nets/up.py": "import torch.nn.functional as F\nfrom torch import nn\n\n__all__ = ['Up']\n\n"
                  "class Up(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                  "        self.fc = nn.Linear(8, 8)\n\n"
                  "    def forward(self, x):\n        return F.interpolate(self.fc(x)[:, None], scale_factor=2, mode='linear')\n",
}


def _ops_train(key: str) -> str:
    return (
        "import argparse\nimport torch\nimport nets\n\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--arch', default='Up')\n"
        "args = parser.parse_args()\ntorch.manual_seed(0)\n"
        f"net = nets.__dict__[{key}]().cuda()\n"
        "opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
        "for _ in range(3):\n    loss = net(torch.ones(2, 8).cuda()).sum()\n"
        "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
    )


def test_an_op_of_the_picked_candidate_is_reported(project) -> None:
    root = project({**OPS, "train.py": _ops_train("args.arch")})
    assert ("nets/up.py", 12, "RPL202") in findings(root)


def test_an_op_of_a_candidate_a_program_only_may_reach_is_left_out(project) -> None:
    # the key is read at run time: the program may build Up, but not surely
    root = project({**OPS, "train.py": _ops_train("input('architecture: ')")})
    assert [f for f in findings(root) if f[2] == "RPL202"] == []


def test_a_module_level_name_for_a_candidate_picks_it(project) -> None:
    # `mae_vit_large_patch16 = mae_vit_large_patch16_dec512d8b` (MAE's models_mae.py)
    root = project({
        **MODELS,
        "models/small.py": MODELS["models/small.py"].replace("__all__ = ['small']", "__all__ = ['small', 'tiny']")
        + "\ntiny = small\n",
        "train.py": _train("args.arch").replace("default='small'", "default='tiny'"),
    })
    assert findings(root) == [("models/small.py", 6, "RPL101")]


def test_a_default_that_names_no_candidate_may_reach_any(project) -> None:
    # the name is made elsewhere (another registry, a string built at run time): the
    # draws of every candidate may run, the first one is reported
    root = project({**MODELS, "train.py": _train("args.arch").replace("default='small'", "default='resnet18'")})
    result = check_paths([str(root)]).diagnostics
    assert [(Path(d.path).name, d.span.start_line, d.code) for d in result] == [("small.py", 6, "RPL101")]
    assert [(Path(r.path).name, r.span.start_line) for r in result[0].related] == [("noisy.py", 6), ("train.py", 7)]


# --------------------------------------------------------------------------- configured targets

HYDRA = {
    "configs/train.yaml": "defaults:\n  - model: small\n  - _self_\n\nepochs: 2\n",
    "configs/model/small.yaml": "_target_: nets.small.Small\nwidth: 4\nnoisy: false\n",
    "configs/model/big.yaml": "_target_: nets.big.Big\n",
    "nets/__init__.py": "",
    "nets/small.py": "import numpy as np\n\n\nclass Small:\n    def __init__(self, width=2, noisy=True):\n"
                     "        self.table = np.random.rand(width)\n        if noisy:\n"
                     "            self.jitter = np.random.normal()\n",
    "nets/big.py": "import random\n\n\nclass Big:\n    def __init__(self):\n        self.order = random.random()\n",
    "train.py": "import hydra\n\n\n@hydra.main(config_path='configs', config_name='train', version_base=None)\n"
                "def main(cfg):\n    model = hydra.utils.instantiate(cfg.model)\n    print(model)\n\n\n"
                "if __name__ == '__main__':\n    main()\n",
}


def test_hydra_instantiate_builds_the_default_groups_target(tmp_path) -> None:
    root = _write(tmp_path, HYDRA)
    # the default group option's class runs, with the file's values as its arguments
    # (`noisy: false` skips its second draw); the other option's class does not
    assert findings(root) == [("nets/small.py", 6, "RPL101")]


def test_a_configuration_node_without_a_project_target_builds_nothing(tmp_path) -> None:
    files = {**HYDRA, "configs/model/small.yaml": "_target_: torch.nn.Identity\n"}
    assert findings(_write(tmp_path, files)) == []
    files = {**HYDRA, "configs/model/small.yaml": "width: 4\n"}
    assert findings(_write(tmp_path / "plain", files)) == []


def test_a_function_that_builds_a_nodes_target_with_its_params(tmp_path) -> None:
    files = {
        "configs/ae.yaml": "model:\n  target: nets.small.Small\n  params:\n    width: 3\n",
        "nets/__init__.py": "",
        "nets/small.py": HYDRA["nets/small.py"],
        "util.py": "import importlib\n\n\ndef instantiate_from_config(config):\n"
                   "    module, cls = config['target'].rsplit('.', 1)\n"
                   "    return getattr(importlib.import_module(module), cls)(**config.get('params', {}))\n",
        "run.py": "import argparse\nfrom omegaconf import OmegaConf\nfrom util import instantiate_from_config\n\n"
                  "parser = argparse.ArgumentParser()\nparser.add_argument('--config', default='configs/ae.yaml')\n"
                  "args = parser.parse_args()\nconfig = OmegaConf.load(args.config)\n"
                  "model = instantiate_from_config(config.model)\n",
    }
    root = _write(tmp_path, files)
    # `noisy` keeps its default (True): both draws run, one finding with a related location
    (finding,) = check_paths([str(root)]).diagnostics
    assert (Path(finding.path).name, finding.span.start_line, finding.code) == ("small.py", 6, "RPL101")
    assert [r.span.start_line for r in finding.related] == [8, 9]  # the other draw, then `instantiate_from_config`
    # a function reading another key of its parameter builds nothing
    files["util.py"] = files["util.py"].replace("config['target']", "config['name']")
    assert findings(_write(tmp_path / "other_key", files)) == []


_GENERATORS = {
    "nets.py": "import torch\nfrom torch import nn\n\n\n"
               "class Helper(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        self.u = torch.randn(4)\n\n\n"
               "class Generator64(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        self.fc = nn.Linear(4, 2)\n",
}


def _pick(key: str) -> str:
    return ("import sys\nimport torch\nimport nets\n\nresolution = int(sys.argv[1])\n"
            f"net = getattr(nets, {key})()\ntorch.save(net.state_dict(), 'g.pt')\n")


def test_a_key_made_around_a_value_reaches_only_the_members_it_can_name(project) -> None:
    # `f"Generator{resolution}"` can name Generator64, never Helper: Helper's draw never
    # runs, and the condition the message states is one the key can meet
    for key in ("f'Generator{resolution}'", "'Generator' + str(resolution)"):
        root = project({**_GENERATORS, "gen.py": _pick(key)})
        result = [d for d in check_paths([str(root)]).diagnostics if d.code == "RPL101"]
        assert [(Path(d.path).name, d.span.start_line) for d in result] == [("nets.py", 14)], key
        assert "== 'Generator64'" in result[0].message and "Helper" not in result[0].message, key
