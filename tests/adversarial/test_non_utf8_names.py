"""A file name that is not UTF-8, in every output format (issue 30, item 8): SARIF died
with an internal error, JSON was invalid UTF-8, and with PYTHONIOENCODING=utf-8 JSON
and github output crashed. Such a name is written losslessly and validly: a JSON
``\\udcff`` escape, a percent-encoded byte in URIs and annotations.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = b"import random\n\nif __name__ == '__main__':\n    print(random.random())\n"


@pytest.mark.parametrize("encoding", ["", "utf-8"], ids=["default", "PYTHONIOENCODING=utf-8"])
@pytest.mark.parametrize("fmt", ["text", "concise", "json", "github", "sarif"])
def test_a_non_utf8_name_in_every_format(tmp_path: Path, fmt: str, encoding: str) -> None:
    with open(os.fsencode(tmp_path) + b"/bad\xff.py", "wb") as handle:
        handle.write(SOURCE)
    env = {**os.environ, "CI": "1", "PYTHONIOENCODING": encoding}
    env.pop("REPROLINT_DEBUG", None)
    done = subprocess.run([sys.executable, "-m", "reprolint", "check", "--no-cache", "--output-format", fmt, "."],
                          cwd=tmp_path, capture_output=True, env=env, timeout=120)
    assert done.returncode == 1, done.stderr
    out = done.stdout.decode("utf-8")  # valid UTF-8, or this raises
    if fmt == "json":
        [finding] = json.loads(out)
        assert os.fsencode(finding["path"]) == b"bad\xff.py"
    elif fmt == "sarif":
        [result] = json.loads(out)["runs"][0]["results"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad%FF.py"
    elif fmt == "github":
        assert out.startswith("::warning file=bad%FF.py,line=4,"), out
    else:
        assert out.startswith("bad\\udcff.py:4:11: RPL101"), out  # text and concise: escaped
