"""Issue 27 item 6: overlapping or repeated paths give the findings of their union, once."""

from __future__ import annotations

import json

import pytest

FILES = {
    "train.py": 'from sub import a\n\nif __name__ == "__main__":\n    a.run()\n',
    "sub/__init__.py": "",
    "sub/a.py": "from sub import model\n\ndef run():\n    return model.build()\n",
    "sub/model.py": "import torch\n\ndef build():\n    return torch.nn.Linear(2, 2)\n",
    "other/tool.py": "import numpy as np\n\nif __name__ == '__main__':\n    print(np.random.rand(2))\n",
}


def _findings(cli, root, *paths: str) -> list[tuple[str, int, str]]:
    out = cli("check", "--no-cache", "--output-format", "json", *paths, cwd=root).out
    return sorted((i["path"], i["line"], i["code"]) for i in json.loads(out))


@pytest.mark.parametrize(
    "paths",
    [(".", "sub/"), ("sub/", "."), (".", "./sub", "sub"), (".", "."), (".", "sub/model.py", "train.py"),
     ("./", "other", "sub/a.py")],
)
def test_overlapping_paths_give_the_findings_of_their_union_once(cli, project, paths) -> None:
    root = project(FILES)
    whole = _findings(cli, root, ".")
    assert ("sub/model.py", 4, "RPL101") in whole and ("other/tool.py", 4, "RPL101") in whole
    assert _findings(cli, root, *paths) == whole


def test_disjoint_paths_still_resolve_each_on_its_own(cli, project) -> None:
    root = project(FILES)
    assert _findings(cli, root, "other", "sub") == [("other/tool.py", 4, "RPL101")]


def test_fix_with_overlapping_paths_fixes_the_union(cli, project) -> None:
    root = project(FILES)
    result = cli("fix", "--write", ".", "sub/", cwd=root)
    assert result.status == 0, result
    assert "reprolint.runtime.install(seed=0)" in (root / "train.py").read_text()
    assert cli("check", "--no-cache", ".", cwd=root).out == "All checks passed!\n"
