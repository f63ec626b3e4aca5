"""The reusable codemods in reprolint.fixes: before/after strings."""

from __future__ import annotations

import libcst as cst
import pytest

from reprolint import fixes
from reprolint.fixing import ensure_install, ensure_seed_helper
from reprolint.model import Span


def _call_at(source: str, line: int, col: int) -> Span:
    module = cst.parse_module(source)
    for node, _ in fixes.walk(module):
        if isinstance(node, cst.Call):
            from reprolint.analysis.positions import node_spans

            span = node_spans(module, [node])[id(node)]
            if (span.start_line, span.start_col) == (line, col):
                return span
    raise AssertionError("no call there")


def _rewrite(source: str, line: int, col: int, change) -> str:
    module = cst.parse_module(source)
    return fixes.rewrite(module, _call_at(source, line, col), change).code


# -- add_keyword: generator=, worker_init_fn=, random_state=, deterministic=True, seed=


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "loader = DataLoader(ds, shuffle=True)\n",
            "loader = DataLoader(ds, shuffle=True, generator=g)\n",
        ),
        ("clf = RandomForestClassifier()\n", "clf = RandomForestClassifier(generator=g)\n"),
        (
            "loader = DataLoader(\n    ds,\n    shuffle=True,  # keep\n)\n",
            "loader = DataLoader(\n    ds,\n    shuffle=True,  # keep\n    generator=g,\n)\n",
        ),
        (
            "loader = DataLoader(ds, **options)\n",
            "loader = DataLoader(ds, generator=g, **options)\n",
        ),
        (
            "loader = DataLoader(ds, generator=other)\n",
            "loader = DataLoader(ds, generator=other)\n",
        ),
    ],
)
def test_add_keyword(before: str, after: str) -> None:
    value = cst.parse_expression("g")
    assert _rewrite(before, 1, _first_call_col(before), lambda c: fixes.add_keyword(c, "generator", value)) == after


def _first_call_col(source: str) -> int:
    line = source.splitlines()[0]
    return line.index("=") + 3 if " = " in line else 1


@pytest.mark.parametrize(
    ("keyword", "value", "before", "after"),
    [
        ("random_state", "0", "m = KMeans(n_clusters=3)\n", "m = KMeans(n_clusters=3, random_state=0)\n"),
        ("deterministic", "True", "t = Trainer(max_epochs=1)\n", "t = Trainer(max_epochs=1, deterministic=True)\n"),
        ("seed", "0", "a = TrainingArguments('out')\n", "a = TrainingArguments('out', seed=0)\n"),
        (
            "worker_init_fn",
            "seed_worker",
            "dl = DataLoader(ds, num_workers=4)\n",
            "dl = DataLoader(ds, num_workers=4, worker_init_fn=seed_worker)\n",
        ),
    ],
)
def test_add_keyword_for_framework_calls(keyword: str, value: str, before: str, after: str) -> None:
    expr = cst.parse_expression(value)
    assert _rewrite(before, 1, _first_call_col(before), lambda c: fixes.add_keyword(c, keyword, expr)) == after


def test_add_keyword_replace_sets_an_existing_value() -> None:
    before = "t = Trainer(deterministic=False, max_epochs=1)\n"
    expr = cst.parse_expression("True")
    after = _rewrite(before, 1, 5, lambda c: fixes.add_keyword(c, "deterministic", expr, replace=True))
    assert after == "t = Trainer(deterministic=True, max_epochs=1)\n"


# -- set_argument: the seed of a generator


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("rng = np.random.default_rng()\n", "rng = np.random.default_rng(7)\n"),
        ("rng = np.random.default_rng(None)\n", "rng = np.random.default_rng(7)\n"),
        ("rng = np.random.default_rng(seed=None)\n", "rng = np.random.default_rng(seed=7)\n"),
        ("r = random.Random(  )\n", "r = random.Random(7)\n"),
        ("torch.manual_seed(int(time.time()))  # why\n", "torch.manual_seed(7)  # why\n"),
    ],
)
def test_set_argument(before: str, after: str) -> None:
    col = 1 if before.startswith("torch") else before.index("=") + 3
    seven = cst.Integer("7")
    keyword = "seed" if "seed=" in before else None
    assert _rewrite(before, 1, col, lambda c: fixes.set_argument(c, seven, keyword=keyword, position=0)) == after


# -- wrap_call: sorted(...) around listings and sets


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("for f in os.listdir(root):\n    pass\n", "for f in sorted(os.listdir(root)):\n    pass\n"),
        ("files = glob.glob('*.png')\n", "files = sorted(glob.glob('*.png'))\n"),
        ("files = sorted(glob.glob('*.png'))\n", "files = sorted(glob.glob('*.png'))\n"),
    ],
)
def test_wrap_sorted(before: str, after: str) -> None:
    col = before.index("os.") + 1 if "os." in before else before.index("glob.") + 1
    if before.startswith("files = sorted"):
        col = before.index("sorted") + 1
    assert _rewrite(before, 1, col, fixes.wrap_call) == after


def test_wrap_sorted_around_a_set() -> None:
    source = "vocab = list(set(words))  # tokens\n"
    module = cst.parse_module(source)
    located = fixes.find_node(module, Span(1, 14, 1, 24), (cst.Call,))
    assert located is not None
    new = fixes.replace_nodes(module, {id(located.node): fixes.wrap_call})
    assert new.code == "vocab = list(sorted(set(words)))  # tokens\n"


# -- statements


def test_set_assignment_value_turns_benchmark_off() -> None:
    source = "import torch\ntorch.backends.cudnn.benchmark = True  # fast\n"
    module = cst.parse_module(source)
    statement = module.body[1]
    new = fixes.replace_nodes(
        module,
        {id(statement): lambda s: fixes.set_assignment_value(s, cst.Name("False"), "torch.backends.cudnn.benchmark")},
    )
    assert new.code == "import torch\ntorch.backends.cudnn.benchmark = False  # fast\n"


def test_move_before_keeps_comments_and_blank_lines() -> None:
    source = (
        "import torch\n\n# the model\nmodel = torch.nn.Linear(2, 2)\n"
        "opt = make(model)\n\ntorch.manual_seed(0)  # seed\nrun()\n"
    )
    module = cst.parse_module(source)
    body = module.body
    assert fixes.can_move_before(body, body[3], body[1])
    # The seed takes the block's place; the comment stays with the line it describes.
    assert fixes.move_before(module, body[3], body[1]).code == (
        "import torch\n\ntorch.manual_seed(0)  # seed\n# the model\nmodel = torch.nn.Linear(2, 2)\n"
        "opt = make(model)\n\nrun()\n"
    )


def test_move_is_refused_when_the_seed_reads_a_name_assigned_in_between() -> None:
    module = cst.parse_module("x = torch.rand(2)\nargs = parse()\ntorch.manual_seed(args.seed)\n")
    body = module.body
    assert not fixes.can_move_before(body, body[2], body[0])


def test_add_else_branch() -> None:
    source = "if args.seed is not None:\n    torch.manual_seed(args.seed)\nrun()\n"
    module = cst.parse_module(source)
    if_node = module.body[0]
    stmt = cst.parse_statement("torch.manual_seed(0)\n")
    new = fixes.replace_nodes(module, {id(if_node): lambda n: fixes.add_else_branch(n, [stmt])})
    assert new.code == (
        "if args.seed is not None:\n    torch.manual_seed(args.seed)\nelse:\n    torch.manual_seed(0)\nrun()\n"
    )


# -- insert_after_imports and imports


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("import torch\nx = torch.rand(2)\n", "import torch\n\nSEED = 0\n\nx = torch.rand(2)\n"),
        (
            '"""Doc."""\nfrom __future__ import annotations\n\nimport os\n\n\ndef f():\n    pass\n',
            '"""Doc."""\nfrom __future__ import annotations\n\nimport os\n\nSEED = 0\n\n\ndef f():\n    pass\n',
        ),
        (
            "import torch\ntry:\n    import wandb\nexcept ImportError:\n    wandb = None\n# go\nrun()\n",
            "import torch\ntry:\n    import wandb\nexcept ImportError:\n    wandb = None\n\nSEED = 0\n# go\nrun()\n",
        ),
        ("x = 1\n", "SEED = 0\n\nx = 1\n"),
    ],
)
def test_insert_after_imports(before: str, after: str) -> None:
    module = cst.parse_module(before)
    new = fixes.insert_after_imports(module, fixes.parse_statements("SEED = 0\n", module))
    assert new.code == after


def test_add_imports_never_duplicates() -> None:
    module = cst.parse_module("import numpy as np\nimport reprolint.runtime\n\nx = 1\n")
    new = fixes.add_imports(module, [fixes.ImportItem("reprolint.runtime")])
    assert new.code == module.code
    new = fixes.add_imports(module, [fixes.ImportItem("random")])
    assert new.code == "import numpy as np\nimport reprolint.runtime\nimport random\n\nx = 1\n"


def test_module_binding_uses_the_file_alias() -> None:
    module = cst.parse_module("import numpy as np\nfrom torch import nn\nimport os.path\n")
    assert fixes.module_binding(module, "numpy") == "np"
    assert fixes.module_binding(module, "numpy.random") == "np.random"
    assert fixes.module_binding(module, "torch.nn.init") == "nn.init"
    assert fixes.module_binding(module, "os") == "os"
    assert fixes.module_binding(module, "random") is None


# -- the entry-point codemods of the two styles


def test_ensure_install_is_idempotent_and_keeps_crlf() -> None:
    source = "import torch\r\n\r\nx = torch.rand(2)\r\n"
    once = ensure_install(cst.parse_module(source), 3).code
    assert once == (
        "import torch\r\nimport reprolint.runtime\r\n\r\nreprolint.runtime.install(seed=3)\r\n\r\nx = torch.rand(2)\r\n"
    )
    assert ensure_install(cst.parse_module(once), 3).code == once


def test_seed_helper_only_for_the_libraries_given_and_reused() -> None:
    source = "import numpy as np\nimport torch\n\nx = np.random.rand(2)\n"
    once = ensure_seed_helper(cst.parse_module(source), 0, ["numpy", "torch"]).code
    assert once == (
        "import numpy as np\nimport torch\n\n\ndef seed_everything(seed):\n"
        '    """Seed every random generator this program uses."""\n'
        "    np.random.seed(seed)\n    torch.manual_seed(seed)\n\n\nseed_everything(0)\n\n"
        "x = np.random.rand(2)\n"
    )
    assert ensure_seed_helper(cst.parse_module(once), 0, ["numpy", "torch"]).code == once
    # A new library is added to the existing helper, not a second helper.
    again = ensure_seed_helper(cst.parse_module(once), 0, ["random", "numpy", "torch"]).code
    assert again.count("def seed_everything") == 1
    assert "    random.seed(seed)\n" in again and again.startswith("import numpy as np\nimport torch\nimport random\n")
