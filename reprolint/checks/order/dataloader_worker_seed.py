from __future__ import annotations

import re
from typing import Iterator, Optional

import libcst as cst

from reprolint import fixes
from reprolint.analysis.determinism import ProgramUsage, program_torch, program_usages
from reprolint.analysis.facts import UNKNOWN, Draw, Seed
from reprolint.analysis.usage_events import LoaderBuilt
from reprolint.catalog.ops import parse_version
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.fixes.planning import FixAction, FixPlanner, binding, data_field
from reprolint.model import Applicability, Diagnostic

# torch 1.9 started seeding NumPy's global RNG in each worker (Python `random` and
# torch were already seeded per worker).
_NUMPY_RESEEDED_SINCE = (1, 9, 0)


class DataloaderWorkerSeed(Rule):
    """
    ## What it does
    Reports `DataLoader(num_workers>0)` whose dataset draws from an RNG not reseeded
    per worker, without `worker_init_fn`/`generator`.

    Narrow and version-aware. Each worker process starts as a copy of the parent. Since
    torch 1.9 every worker reseeds torch, Python `random` and NumPy's global RNG itself
    (from the loader's base seed), so those are fine. What no version reseeds is a
    generator the dataset owns: `self.rng = np.random.default_rng(...)`,
    `np.random.RandomState(...)`, `random.Random(...)` made in the dataset class and
    drawn from in its methods. For torch < 1.9 (the `torch-version` setting, else the
    torch the program's project declares: the nearest requirements, setup, pyproject,
    conda, Pipfile or lock file, a range taken at the installed torch when it admits it,
    else at its bound; else the installed torch) draws from NumPy's global RNG in the
    dataset's methods are reported too, and the message names the version and where it
    is declared (JSON `assumed.version`), unless a method the workers run seeds NumPy
    itself (`np.random.seed(index)` on a worker's first item: the workers' streams then
    differ). The dataset is the loader's first argument (or `dataset=`): a
    project class constructed there or assigned to a name in the same scope.
    `num_workers` counts when it is a positive literal, an option whose default is
    positive, or any other expression; a `worker_init_fn` silences it (`generator=`
    alone fixes the base seed, not the dataset's own generator).

    ## Why is this bad?
    Every worker gets an identical copy of the dataset's generator, so workers produce
    the same "random" crops, masks or noise for different samples (each augmentation is
    repeated `num_workers` times per epoch) and the result depends on the worker count
    and scheduling.

    Mitigation: reseed in a `worker_init_fn`, e.g.
    `def init(worker_id): info = torch.utils.data.get_worker_info(); info.dataset.rng = np.random.default_rng(info.seed % 2**32)`,
    or draw from torch's generator inside `__getitem__`.

    ## Example
    ```python
    class Noisy(Dataset):
        def __init__(self):
            self.rng = np.random.default_rng(0)
        def __getitem__(self, i):
            return self.rng.normal()
    loader = DataLoader(Noisy(), num_workers=4)
    ```

    Use instead:
    ```python
    def reseed(worker_id):
        info = torch.utils.data.get_worker_info()
        info.dataset.rng = np.random.default_rng(info.seed % 2**32)
    loader = DataLoader(Noisy(), num_workers=4, worker_init_fn=reseed)
    ```

    ## Fix safety
    Unsafe: it changes an outcome the program may have fixed already (with torch seeded,
    each worker's copy of the dataset's generator draws the same numbers every run;
    reseeding per worker draws others). The fix adds
    `worker_init_fn=seed_<dataset>_worker` and generates that function after the
    imports: it reseeds each of the dataset's generators from the worker's seed (the
    loader's base seed plus the worker id, so it repeats when torch is seeded), whatever
    its type.

    ## References
    - https://pytorch.org/docs/stable/data.html#randomness-in-multi-process-data-loading
    - https://pytorch.org/docs/stable/notes/randomness.html#dataloader
    - https://github.com/pytorch/pytorch/pull/56488
    """

    code = "RPL403"
    message = "`{call}(..., num_workers>0)` copies {rng} of `{dataset}` into every worker unchanged, so workers draw the same numbers; reseed it in a `worker_init_fn`"
    fix_title = "Pass a `worker_init_fn` that reseeds the dataset's generator"
    fix_applicability = Applicability.UNSAFE
    framework = "torch"

    _DATASET = (
        "import numpy as np\nfrom torch.utils.data import DataLoader, Dataset\n\n"
        "class Noisy(Dataset):\n    def __init__(self):\n        self.rng = np.random.default_rng(0)\n"
        "    def __len__(self):\n        return 8\n    def __getitem__(self, i):\n        return self.rng.normal()\n\n"
    )
    VALID = [
        Valid(_DATASET + "loader = DataLoader(Noisy(), num_workers=0)\nprint(len(loader))\n"),
        Valid(_DATASET + "loader = DataLoader(Noisy(), num_workers=4, worker_init_fn=reseed)\nprint(len(loader))\n"),
        Valid(
            "import numpy as np\nfrom torch.utils.data import DataLoader, Dataset\n\nclass Jitter(Dataset):\n"
            "    def __getitem__(self, i):\n        return np.random.rand()\n\n"
            "loader = DataLoader(Jitter(), num_workers=4)\nprint(len(loader))\n"
        ),
    ]
    INVALID = [
        Invalid(_DATASET + "loader = DataLoader(Noisy(), num_workers=4)\nprint(len(loader))\n", line=12, message="self.rng",
            fixed=(
                'import numpy as np\nfrom torch.utils.data import DataLoader, Dataset\n'
                'import torch\n\n\ndef seed_noisy_worker(worker_id):\n'
                '    """Reseed the dataset\'s own random generators in each DataLoader worker."""\n'
                '    info = torch.utils.data.get_worker_info()\n    seed = info.seed % 2**32\n'
                '    for name in ("rng",):\n        rng = getattr(info.dataset, name)\n'
                '        if hasattr(rng, "bit_generator"):\n'
                '            setattr(info.dataset, name, type(rng)(type(rng.bit_generator)(seed)))\n'
                '        elif hasattr(rng, "manual_seed"):\n            rng.manual_seed(seed)\n'
                '        else:\n            rng.seed(seed)\n\n\nclass Noisy(Dataset):\n'
                '    def __init__(self):\n        self.rng = np.random.default_rng(0)\n'
                '    def __len__(self):\n        return 8\n    def __getitem__(self, i):\n'
                '        return self.rng.normal()\n\n'
                'loader = DataLoader(Noisy(), num_workers=4, worker_init_fn=seed_noisy_worker)\n'
                'print(len(loader))\n'
            ),
        ),
        Invalid(_DATASET + "ds = Noisy()\nloader = DataLoader(ds, batch_size=2, num_workers=workers)\nprint(len(loader))\n", line=13),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        seen: set[tuple[str, object]] = set()
        for program in program_usages(ctx):
            if not program.has(LoaderBuilt, default_only=False):
                continue
            # the torch this program runs on: the setting, its project's declaration...
            version, phrase, assumed = program_torch(ctx, program.entry)
            old = parse_version(version) < _NUMPY_RESEEDED_SINCE
            for _, path, usage in program.of(LoaderBuilt, default_only=False):
                if usage.worker_init_fn or not usage.dataset or (path, usage.span) in seen:
                    continue
                if not self._workers(program, usage):
                    continue
                found = self._dataset_rng(ctx, path, usage.dataset, old)
                if found is None:
                    continue
                seen.add((path, usage.span))
                dataset, attributes = found
                if attributes:
                    rng = " and ".join(f"`self.{a}`" for a in attributes)
                else:
                    rng = f"NumPy's global RNG ({phrase} does not reseed it per worker)"
                # ``attributes``: the dataset's RNG instances (`self.<name>`); none means
                # NumPy's global RNG, which old torch versions do not reseed per worker.
                yield self.report(
                    path, usage.span, call=usage.text, rng=rng, dataset=dataset,
                    attributes=tuple(attributes), numpy_global=not attributes,
                    entry_points=program.entry_points, version=None if attributes else assumed,
                )

    @staticmethod
    def _workers(program: ProgramUsage, usage: LoaderBuilt) -> bool:
        value = usage.num_workers
        if usage.workers_ref is not None:
            value = program.lookup(usage.workers_ref.name)
        if value == UNKNOWN:
            return True
        return isinstance(value, int) and not isinstance(value, bool) and value > 0

    @staticmethod
    def _dataset_rng(ctx: CheckContext, path: str, target: str, old: bool) -> Optional[tuple[str, list[str]]]:
        found = _dataset_class(ctx, path, target)
        if found is None:
            return None
        file, cls = found
        facts = ctx.facts[file]
        attrs = facts.class_rngs.get(cls)
        if attrs:
            return cls, list(attrs)
        if old:
            methods = [fn for name, fn in facts.functions.items() if name.startswith(cls + ".")]
            # a method the workers run that seeds NumPy itself (`np.random.seed(index)` on
            # a worker's first item) leaves no copy of the parent's state to share
            if any(
                isinstance(e, Seed) and "numpy" in e.libs
                for fn in methods if not fn.qualname.endswith(".__init__") for e in fn.events
            ):
                return None
            if any(isinstance(e, Draw) and e.library == "numpy" for fn in methods for e in fn.events):
                return cls, []
        return None


def _dataset_class(ctx: CheckContext, path: str, target: str) -> Optional[tuple[str, str]]:
    """(file, class qualname) of a project class a call constructs, with or without an
    ``__init__`` of its own."""
    resolved = ctx.index.resolve_call(path, target)
    if resolved is not None and resolved[1].endswith(".__init__"):
        file, qualname = resolved
        cls = qualname[: -len(".__init__")]
        if cls in ctx.facts[file].classes and (target.endswith("." + cls) or target.endswith(":" + cls) or target == ":" + cls):
            return file, cls
    if target.startswith(":"):
        name = target[1:]
        return (path, name) if name in ctx.facts[path].classes else None
    module, _, name = target.rpartition(".")
    file = ctx.index.resolve_module(path, module) if module else None
    if file is not None and name in ctx.facts[file].classes:
        return file, name
    return resolved and (resolved[0], resolved[1][: -len(".__init__")]) if resolved and resolved[1].endswith(".__init__") else None


# ----------------------------------------------------------------------------- fix


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name.split(".")[-1]).lower()


@DataloaderWorkerSeed.fix_planner
def _plan_worker_seed(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    """RPL403: ``worker_init_fn=<a generated function that reseeds the dataset's own
    generators from the worker's seed>``."""
    attrs = tuple(data_field(d, "attributes") or ())
    numpy_global = bool(data_field(d, "numpy_global"))
    dataset = data_field(d, "dataset")
    if not dataset or not attrs and not numpy_global:
        return None
    name = f"seed_{_snake(str(dataset))}_worker"
    stop = planner.import_stop(d.path)

    def apply(m: cst.Module) -> cst.Module:
        torch, imports = binding(m, "torch")
        numpy = None
        if numpy_global:
            numpy, more = binding(m, "numpy")
            imports += more
        if torch is None or numpy_global and numpy is None:
            return m
        source = fixes.worker_seed_source(name, torch, attrs, numpy)
        m = fixes.rewrite(
            m, d.span, lambda c: fixes.add_keyword(c, "worker_init_fn", cst.Name(name))  # type: ignore[arg-type]
        )
        return fixes.add_imports(fixes.ensure_function(m, name, source, stop), imports)

    return FixAction(
        d.path, ("worker_init_fn", d.span), planner.applicability(d.code),
        f"Pass `worker_init_fn={name}`, which reseeds the dataset's generators per worker", apply,
    )
