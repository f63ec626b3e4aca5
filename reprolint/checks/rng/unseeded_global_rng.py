from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Optional

import libcst as cst

from reprolint import fixes
from reprolint.analysis.program import DrawOutcome
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.rng._common import draw_fields, entry_list, lasting_draws, library_list, located_action, roles
from reprolint.fixes.planning import FixAction, FixPlanner, data_field, together
from reprolint.fixes.seeding import entry_action, partial_action, reported_programs
from reprolint.model import Applicability, Diagnostic, Related, Severity, Span


class UnseededGlobalRng(Rule):
    """
    ## What it does
    Finds draws from a global RNG on a program path where that library is never
    seeded, or is seeded only after the draw.

    Global draws are Python `random`, NumPy's legacy `np.random.*`, torch's default
    generator (including `nn.init`, modules with randomly initialised weights,
    `Dropout`, `randperm`, shuffling `DataLoader`s and `random_split` without
    `generator=`), TensorFlow/Keras initialisers and `tf.random.*`, scikit-learn
    estimators with `random_state=None` (which fall back to NumPy's global RNG), and
    pandas `DataFrame.sample`/`Series.sample`/`GroupBy.sample` without `random_state`
    (NumPy's global RNG too, so `np.random.seed` fixes them) on a receiver that is visibly
    a pandas object (built by `pd.read_csv`, `pd.DataFrame`... or selected from one).
    Model constructors draw every weight: `torchvision.models.resnet18()`,
    `models.get_model(name)`, and one picked by name at run time
    (`models.__dict__[args.arch]()`, `getattr(models, name)()`, `vars(models)[name]()`);
    listing the registry (`models.__dict__.keys()`) draws nothing. Built with `weights=`
    (or the old `pretrained=True`), a torchvision model loads trained weights over its
    init: the layers the program adds or replaces afterwards are the draws that stay.
    `torch.hub.load(repo, entry)` builds the entry's model, a draw, unless the call passes
    `pretrained=True` or leaves `pretrained` out of an entry that the project's own
    `hubconf.py` defines with `pretrained=True` (a repository's notebooks loading its own
    hub models): then trained weights replace the drawn ones. So do they where a model
    is bound to a name whose `load_state_dict(...)` (not `strict=False`, not a
    submodule's) surely follows in the same body (`net = Net().cuda()` then
    `net.load_state_dict(torch.load(path))`), in any program, also one that trains
    something else (an input image, a student): its drawn weights are not reported
    unless the program builds that class elsewhere without loading it.

    The check is program-aware: it follows the entry point through the project modules
    it imports and the project functions it calls (`utils.set_seed(args.seed)` in
    another file seeds; `SimpleDLA()` after `from models import *`, also through a
    package that re-exports with `from .dla import *`, runs `SimpleDLA.__init__`; a
    library that a project module's star import brings by its own name, `torch` after
    `from utils import *` where utils.py imports torch, is that library: its
    `torch.manual_seed` seeds; not through a library's star import such as `from pylab
    import *`, whose `random` is NumPy's), in
    order. Approximations: both branches of an `if` run; loop
    bodies run once; function bodies that no resolvable call reaches (`forward`,
    callbacks, methods called on objects) run after everything else (a function of the
    entry point whose call is commented out, which nothing running names, runs for
    nobody; absl's `app.run(main)` calls `main`); dropout masks and
    shuffling loaders draw when they are used, so they only need a seed somewhere on
    the path. `random`/NumPy draws in a `Dataset`'s `__getitem__` (and the helper
    methods it calls, `self.pick_caption(ix)`) and a transform's `__call__` (also the
    operations it calls out of a list or table of its module, `for op, lo, hi in
    self.ops: img = op(img, v)`, when nothing else calls them) run in DataLoader
    workers when `num_workers > 0`, where torch reseeds them: they need torch's seed, and
    count toward torch's cause, reported at torch's own first draw when there is one (else
    at the worker draw, saying that torch's seed decides it). A transform class with no
    constructor of its own that no code the program runs names (`Augmenter` imported
    beside the `Normalizer()` a validation script builds) is never built there: its
    `__call__` draws nothing for that program.

    It is reported once per program, library and cause (never seeded, or seeded only
    after the draw), at the first draw in execution order that the default run makes (a
    draw only on branches the default options skip is not reported: `random_colors()`
    called under `if args.threshold is not None:` with `--threshold` defaulting to
    None; a draw under `if self.training:` in a module's method, in a program that
    trains nothing and puts its model in inference mode with `model.eval()`; a draw under
    `if option == 2:` where the function binds `option = 0` once, before the test); the other draws that run
    as it does are related locations, then the project calls through which the program
    first reaches each of them (`model = build()` in the entry point for a layer drawn in
    `models.py`), and programs that share the first draw share the finding. A draw in code that a dispatch by a name no default decides may pick
    (`models.__dict__[args.arch]()` with no default for `--arch`) counts, and the message
    says the run it rests on ("on a run where `args.arch == 'vit_b'`"). A `# noqa` on
    that draw moves the report to the next one. Training and evaluation programs only
    (not tests, `__main__` demos of library modules, a model file's self-test whose
    `__main__` block only builds, asserts and prints shapes, the model's layers
    (`print(model)`) or switches its mode (`model.eval()`), also where the model loads
    pretrained weights, or, with no `__main__` block, whose top level only calls such a
    function of its own, `test()`; or library code); in an evaluation
    program that loads a checkpoint (`load_state_dict`, `torch.load`, `from_pretrained`, a
    pickled network; for TensorFlow and Keras `saver.restore(sess, path)`,
    `model.load_weights`, `load_model`, which unlike a torch load do not make a program an
    evaluation by themselves), weight-initialisation draws are not reported: module constructors,
    `nn.init`, and tensors drawn into `nn.Parameter(...)` or a persistent
    `register_buffer(...)` (directly, through a method chain or through a name). Nor, in
    any program, is a layer built into a name whose weight and bias (or whole state, by
    `load_state_dict`) the statements after it in the same body overwrite
    (`fused = nn.Conv2d(...)`, then `fused.weight.copy_(w)` and `fused.bias.copy_(b)`):
    its drawn values never reach a result; a parameter left as drawn keeps it. A Keras
    application (`VGG16(...)`) loads its ImageNet weights unless `weights=None`. In a
    program that calls the TensorFlow 1 API, Keras draws are those of TF 1's Keras:
    multi-backend Keras takes the seeds of its weights and dropout from NumPy, tf.keras's
    initialisers follow the graph seed, and `fit` shuffles arrays with NumPy; so does a
    program that calls the API only multi-backend Keras up to 2.2.5 has
    (`K.image_dim_ordering()`, on TensorFlow 1 only). A project that declares a
    TensorFlow 2 before 2.11 only (`tensorflow==2.4.1`) runs a tf.keras whose unseeded
    initialisers draw from TensorFlow's global seed, not Python's `random` (from Keras
    2.11 on). Keras 2's layers named through
    their modules (`keras.layers.convolutional.Conv2D`) and their Keras 1 aliases
    (`Convolution2D`) draw as `keras.layers.Conv2D` does; `fit_generator` shuffles a
    Sequence's batches (an ImageDataGenerator's `flow`) with Python's `random`. An
    ImageDataGenerator's `fit(x, seed=s)` seeds NumPy (`np.random.seed(s)`). A
    deferred draw (a transform, a shuffling loader) in the value of a local that its
    function never reads (`transform_train = Compose([RandomCrop(32), ...])`, while the
    dataset takes `transform_test`) is never applied and draws nothing. A draw
    through a wrapper that forwards `**kwargs` (`def linear(*a, **kw): return
    nn.Linear(*a, **kw)`) counts, unless the API draws only without some argument
    (`generator=`, `seed=`) that the keyword arguments may hold. A draw inside an f-string
    field (`f"tcp://localhost:{random.randrange(49152, 65535)}"`), or in what
    `"run-%d" % ...` or `"{}".format(...)` formats, makes text, not data,
    and is not reported; nor is one in the duration of a wait (`time.sleep(random())`
    between downloads: it decides when, not what). Nor is a draw whose value is only a model's
    example input (`torch.onnx.export(model, torch.randn(1, 3, 224, 224), path)`,
    `torch.jit.trace`, `torch.export.export`, `SummaryWriter.add_graph`, `thop.profile`,
    fvcore's `FlopCountAnalysis`, `torchinfo.summary(input_data=...)`, directly or through a name
    the same function reads nowhere else): the exported graph or the count depends on
    its shape, not its values. So is one a model (a variable or parameter of the scope)
    is run on only for nothing: its output dropped (`model(example_input)` before the
    export) or read only for its shape (`out = model(img)`, `print(out.shape)`: a
    `__main__` smoke test); the weights of a model only run so draw nothing that matters.
    `timm.create_model(name, pretrained=True)` draws weights that the checkpoint
    replaces, unless `num_classes` asks for a new head. A name a class mentions only
    inside its methods is used where one of those methods runs (a test script that
    builds a learner runs no `build_train_graph` it never calls), and `tf.train.Saver`
    names TensorFlow's module, not a project method `train`. The function a
    command-line runner is given (`typer.run(main)`, `tyro.cli(main)`,
    `jsonargparse.CLI(main)`, sensai's `logging.run_cli(main)`, like absl's
    `app.run(main)`) runs there: its seeds are the program's. A lambda stored for later (a table of layer factories
    `OPS = {"conv": lambda C: nn.Conv2d(C, C, 3)}`, an attribute) draws where the
    program calls it, not where it is written; one given to a call (`model.apply(...)`,
    `sorted(key=...)`) draws there. A function that runs only passed on
    (`multi_proc_run(fun=trainer.train_model)`) seeds what it draws itself: the seeds of
    its `setup_env()` reach its training's draws (and DataLoader workers), not draws
    elsewhere in the program. In a notebook, a NumPy or `random` draw in the top-level code
    whose value reaches no training call (`fit`, `train_on_batch`, `backward`...), no
    saved file, no function of the notebook that trains and no helper the analysis cannot
    follow (arrays illustrating an operation, a random baseline) is not reported either.

    Spawned workers: `torch.multiprocessing.spawn(main_worker, ...)` (and
    `multiprocessing.Process(target=...)` once the module set the `spawn`/`forkserver`
    start method) runs the worker in a fresh interpreter, where every global RNG starts
    from OS entropy: seeds set in the parent before the spawn do not reach it (nor do
    determinism flags; a seed at the module's top level, outside the `__main__` block,
    does: the child re-imports the module). When the parent seeds, the worker (a
    function of the same module) draws or trains, and the worker seeds nothing itself,
    it is reported at the spawn, naming the parent's seed and the libraries the worker
    draws from (torch where it only trains): RPL101, because in the
    worker's own process the library is never seeded. Also where the spawn is behind
    an option that is off by default (`if args.multiprocessing_distributed:`): the
    seeds are there for the runs that pass it, and those runs get unseeded workers. Seed inside the worker (e.g.
    `torch.manual_seed(args.seed + rank)`): a worker started outside any condition runs
    at the spawn, so its own seeds count for the draws after them.

    ## Why is this bad?
    An unseeded generator starts from OS entropy, so every run initialises weights,
    shuffles batches and drops units differently: Pham et al. measured up to 10.8%
    accuracy difference between identical training runs. A seed set after the model
    is built leaves the initial weights random.

    ## Example
    ```python
    import torch
    model = torch.nn.Linear(10, 2)
    torch.manual_seed(0)
    ```

    Use instead:
    ```python
    import torch
    torch.manual_seed(0)
    model = torch.nn.Linear(10, 2)
    ```

    ## Fix safety
    Safe when the fix seeds a library the program never seeds: every run of the fixed
    program is a run the original could have produced. Unsafe when it moves an existing
    seeding call above earlier draws (the draws that followed the seed get other
    numbers), and in the `hooks` style where an op without a deterministic
    implementation runs (RPL202) or the program uses TensorFlow, since `install()` also
    turns deterministic mode on, which can make such an op raise. When the seeding call comes after the
    draw in the same block and nothing it reads is assigned in between, the fix moves
    it above the draw. Otherwise, at each entry point right after the imports, the
    `hooks` style inserts `import reprolint.runtime` and
    `reprolint.runtime.install(seed=<seed>)` (which seeds every library as the program
    imports it, and records the run); the `inline` style adds the missing library next
    to the program's existing seeding call, or inserts a generated
    `seed_everything(seed)` for the libraries the program uses, and calls it.

    ## References
    - https://pytorch.org/docs/stable/notes/randomness.html
    - https://numpy.org/doc/stable/reference/random/legacy.html
    - Pham et al., ASE 2020; Chen et al., ICSE-SEIP 2022
    """

    code = "RPL101"
    message = "`{call}` {action} {rng}, which is never seeded on this program's path{maybe} (entry point: {entry})"
    messages = {
        "late": "`{call}` {action} {rng} before `{seed_call}` runs ({seed_at}{maybe}; entry point: {entry})",
        "partial": (
            "`{call}` {action} {rng}, which is never seeded on this program's path{maybe}: the program "
            "seeds {seeded} (first with `{seed_call}`, {seed_at}), not {library_name} (entry point: {entry})"
        ),
        "graph": (
            "`{call}` {action} {rng} in a new graph (`with {graph}():`, {graph_at}), which "
            "`{seed_call}` ({seed_at}) does not reach: TF 1.x keeps the graph-level seed per graph "
            "(entry point: {entry})"
        ),
        "worker": (
            "`{call}` {action} {rng} in DataLoader workers, where torch reseeds it from torch's own "
            "generator, which is never seeded on this program's path{maybe} (entry point: {entry})"
        ),
        "worker_partial": (
            "`{call}` {action} {rng} in DataLoader workers, where torch reseeds it from torch's own "
            "generator, which is never seeded on this program's path{maybe}: the program seeds {seeded} "
            "(first with `{seed_call}`, {seed_at}), not torch (entry point: {entry})"
        ),
        "spawn": (
            "`{call}` runs `{worker}` in fresh processes, which the parent's `{seed_call}` (line {seed_line}) "
            "does not reach: `{worker}` draws from unseeded global RNGs ({unseeded})"
        ),
    }
    fix_title = "Seed {library} at the entry point, before the first draw"
    fix_applicability = Applicability.SAFE
    framework = "random, numpy, torch, tensorflow, sklearn, pandas"
    severity = Severity.WARNING

    VALID = [
        Valid("import torch\ntorch.manual_seed(0)\nx = torch.randn(3)\n"),
        Valid("import numpy as np\nrng = np.random.default_rng(0)\nx = rng.normal()\n"),
        Valid("import torch\ng = torch.Generator().manual_seed(1)\nx = torch.randn(3, generator=g)\n"),
        Valid("from sklearn.model_selection import KFold\nfolds = KFold(n_splits=5)\nprint(folds)\n"),
        Valid("import numpy as np\nimport pandas as pd\nnp.random.seed(0)\ndf = pd.read_csv('a.csv')\nprint(df.sample(5))\n"),
        Valid("import pandas as pd\ndf = pd.read_csv('a.csv')\nprint(df.sample(5, random_state=0))\n"),
        Valid(
            "import utils\nimport torch\n\nif __name__ == '__main__':\n"
            "    utils.set_seed(1)\n    print(torch.rand(2))\n",
            files=(("utils.py", "import torch\n\ndef set_seed(s):\n    torch.manual_seed(s)\n"),),
        ),
        Valid("import random\n\ndef pick(xs):\n    return random.choice(xs)\n"),
    ]
    INVALID = [
        Invalid(
            "import torch\nx = torch.randn(3)\n",
            line=2,
            message="never seeded",
            fixed="import torch\nimport reprolint.runtime\n\nreprolint.runtime.install(seed=0)\n\nx = torch.randn(3)\n",
        ),
        Invalid(
            "import torch.nn as nn\nimport torch\nmodel = nn.Linear(4, 2)\ntorch.manual_seed(0)\n",
            line=3,
            message="before `torch.manual_seed` runs",
            fixed="import torch.nn as nn\nimport torch\ntorch.manual_seed(0)\nmodel = nn.Linear(4, 2)\n",
        ),
        Invalid("import numpy.random as npr\nprint(npr.rand(2))\n", line=2),
        Invalid("from torch import randn as g\nprint(g(2))\n", line=2),
        Invalid(
            "from torch.utils.data import DataLoader as DL\nloader = DL([1, 2], shuffle=True)\n"
            "for batch in loader:\n    print(batch)\n",
            line=2,
        ),
        Invalid(
            "from sklearn.ensemble import RandomForestClassifier\nclf = RandomForestClassifier()\nclf.fit([[0]], [0])\n",
            line=2,
        ),
        Invalid(
            "import pandas as pd\ndf = pd.read_csv('a.csv')\ntrain = df.sample(frac=0.8)\nprint(train)\n",
            line=3,
            message="`df.sample(...)` draws from NumPy's global RNG",
        ),
        Invalid(
            "import torch\nfrom model import Net\n\nif __name__ == '__main__':\n"
            "    net = Net()\n    torch.manual_seed(0)\n",
            files=(("model.py", "import torch.nn as nn\n\nclass Net(nn.Module):\n"
                    "    def __init__(self):\n        super().__init__()\n"
                    "        self.fc = nn.Linear(3, 1)\n"),),
            message="before `torch.manual_seed` runs",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        # One finding per program, library and cause ("never seeded", or "seeded only
        # after the draw by this seed"), at the cause's first draw in execution order;
        # the other draws are related locations. Programs whose cause starts at the
        # same draw share one finding that names them all.
        causes: dict[tuple[Any, ...], _Cause] = {}
        for program in ctx.programs:
            if not program.checks_randomness:
                continue
            mine: dict[tuple[Any, ...], list[DrawOutcome]] = {}
            for outcome in lasting_draws(program):
                if outcome.seeded_before:
                    continue
                seed = outcome.later_seed
                reason: Optional[tuple[Any, ...]] = (seed.path, seed.event.span) if seed is not None else None
                if outcome.graph is not None:
                    reason = ("graph", outcome.graph[1].path, outcome.graph[1].event.span)
                mine.setdefault((outcome.library, reason), []).append(outcome)
            # the seeding calls the default run makes (a seed in a model class only another
            # `--model` builds says nothing of this run)
            ran = [o for o in program.seeds if o.default_path]
            partial = (ran[0], tuple(sorted({lib for o in ran for lib in o.seed.libs}))) if ran else None
            for (library, reason), outcomes in mine.items():
                # A `# noqa` on the first draw moves the report to the next one.
                outcomes = [o for o in outcomes if not ctx.suppressed(self.code, o.path, o.draw.span)]
                if not outcomes:
                    continue
                # at the first draw the default run makes, with the other draws that run
                # as it does (lasting_draws: only the default run's); torch's cause at its
                # own first draw when there is one, not at a `random`/NumPy draw in a
                # DataLoader worker that torch's seed decides
                first = next((o for o in outcomes if o.draw.library == library), outcomes[0])
                outcomes = [first, *(o for o in outcomes if o is not first)]
                key = (first.path, first.draw.span, library, reason)
                cause = causes.get(key)
                if cause is None:
                    # never seeded while the program seeds another library: that seeding
                    # call is where the missing one belongs (RPL105's news, said here)
                    seeder = partial if reason is None and partial is not None else None
                    cause = causes[key] = _Cause(first, [], [], seeder)
                cause.entries.append(program.entry)
                for other in outcomes[1:]:
                    if all((o.path, o.draw.span) != (other.path, other.draw.span) for o in cause.others):
                        cause.others.append(other)
        for cause in causes.values():
            yield self._report(cause, roles(ctx, cause.entries))
        # spawned workers whose parent's seeds do not reach them (facts: analysis/calls/spawn.py)
        for path, facts in ctx.facts.items():
            for finding in facts.findings:
                if finding.code == self.code:
                    yield self.report(path, finding.span, **finding.data)

    def _report(self, cause: "_Cause", roles: dict[str, str]) -> Finding:
        outcome = cause.first
        fields = draw_fields(outcome.draw)
        fields["library"] = outcome.library
        # a draw the program may reach, where a name no default decides picks its code
        fields["maybe"] = f", on a run where `{outcome.maybe}` (no default decides the name)" if outcome.maybe else ""
        entry = entry_list(cause.entries)
        related = [
            Related(o.path, o.draw.span, f"`{o.draw.text}` also {draw_fields(o.draw)['action']} {draw_fields(o.draw)['rng']}")
            for o in cause.others
        ]
        # the project calls through which the program reaches the draws (`model = Net()`
        # in the entry point for a layer drawn in models.py), outermost first
        calls: dict[tuple[str, Any], Related] = {}
        for o in (outcome, *cause.others):
            for at in o.chain:
                calls.setdefault((at.path, at.event.span), Related(
                    at.path, at.event.span,
                    f"this call of `{at.event.text}` leads to the draw `{o.draw.text}` at {o.path}:{o.draw.span.start_line}"))
        related += calls.values()
        if outcome.later_seed is not None:
            seed_path, seed = outcome.later_seed
            return self.report(
                outcome.path, outcome.draw.span, variant="late", entry=entry, **fields,
                seed_call=seed.text, seed_path=seed_path, seed_line=seed.span.start_line,
                seed_at=f"{seed_path}:{seed.span.start_line}",
                seed_api=seed.api, draws=1 + len(cause.others), roles=roles, entry_points=cause.entries,
                related=[Related(seed_path, seed.span, f"`{seed.text}` seeds {outcome.library} here, after the draw"), *related],
            )
        if outcome.graph is not None:
            (seed_path, seed), (graph_path, graph) = outcome.graph
            return self.report(
                outcome.path, outcome.draw.span, variant="graph", entry=entry, **fields,
                seed_call=seed.text, seed_at=f"{seed_path}:{seed.span.start_line}",
                graph=graph.text, graph_at=f"{graph_path}:{graph.span.start_line}", draws=1 + len(cause.others), roles=roles,
                entry_points=cause.entries,
                related=[Related(graph_path, graph.span, "a new graph starts here, without a graph-level seed"),
                         Related(seed_path, seed.span, f"`{seed.text}` seeds the graph that was the default before"),
                         *related],
            )
        # "seeds X, not Y" only where Y is not among what it seeds (a seed the draw's own
        # scope lost, such as another graph's, is said above or not at all)
        if cause.seeder is not None and outcome.graph is None and outcome.library not in cause.seeder[1]:
            first_seed, seeded_libs = cause.seeder
            seed = first_seed.seed
            libs = library_list(seeded_libs)
            return self.report(
                outcome.path, outcome.draw.span, entry=entry, **fields,
                variant="worker_partial" if outcome.draw.library != outcome.library else "partial",
                seed_call=seed.text, seed_at=f"{first_seed.path}:{seed.span.start_line}", seeded=libs,
                seed_path=first_seed.path, seed_line=seed.span.start_line,
                library_name=library_list((outcome.library,)),
                seeded_libraries=seeded_libs, draws=1 + len(cause.others), roles=roles,
                entry_points=cause.entries,
                related=[Related(first_seed.path, seed.span,
                                 f"the program seeds {libs} from here on, not {library_list((outcome.library,))}"), *related],
            )
        worker = {"variant": "worker"} if outcome.draw.library != outcome.library else {}
        return self.report(
            outcome.path, outcome.draw.span, entry=entry, **fields, **worker,
            draws=1 + len(cause.others), roles=roles, entry_points=cause.entries, related=related,
        )


@dataclass
class _Cause:
    first: DrawOutcome
    entries: list[str]
    others: list[DrawOutcome]
    # the program's first seeding call and what it seeds, when it seeds other libraries
    seeder: Optional[tuple[Any, tuple[str, ...]]] = None


# ----------------------------------------------------------------------------- fix


@UnseededGlobalRng.fix_planner
def _plan_unseeded_global(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    if data_field(d, "variant") == "spawn":
        return None  # a spawned worker: the seed belongs inside it, with its rank
    if data_field(d, "variant") == "graph":
        return None  # the seed belongs inside the `with` block, on the new graph
    programs = reported_programs(planner, d)
    if not programs:
        return None
    program = programs[0]
    outcome = next(o for o in program.draws if o.path == d.path and o.draw.span == d.span)
    if outcome.later_seed is not None and outcome.later_seed[0] == d.path:
        move = _plan_move(planner, d, outcome.later_seed[1].span)
        if move is not None:
            return move
    actions = []
    for program in programs:
        action = None
        outcome = next(o for o in program.draws if o.path == d.path and o.draw.span == d.span)
        if planner.style == "inline" and program.seeds and outcome.later_seed is None:
            # The program has a seeding place already: the missing library goes there.
            partial = partial_action(planner, program, d.code)
            if partial is not None and planner.realise(partial):
                action = partial
        actions.append(action or entry_action(planner, program, d.code))
    return together(actions)


def _plan_move(planner: FixPlanner, d: Diagnostic, seed_span: Span) -> Optional[FixAction]:
    def locate(m: cst.Module) -> Optional[tuple[cst.CSTNode, cst.CSTNode, cst.CSTNode]]:
        draw, seed = fixes.find_call(m, d.span), fixes.find_call(m, seed_span)
        if draw is None or seed is None:
            return None
        statement = seed.statement()
        suite = seed.suite_of(statement) if statement is not None else None
        if suite is None:
            return None
        chain = (*draw.parents, draw.node)
        anchor = next((chain[i] for i in range(1, len(chain)) if chain[i - 1] is suite), None)
        modules = {name for name, target in fixes.top_level_bindings(m).items() if target}
        if anchor is None or not fixes.can_move_before(suite.body, statement, anchor, modules):  # type: ignore[attr-defined]
            return None
        return suite, statement, anchor

    def move(m: cst.Module, found: tuple[cst.CSTNode, cst.CSTNode, cst.CSTNode]) -> cst.Module:
        suite, statement, anchor = found
        if suite is m:
            return fixes.move_before(m, statement, anchor)  # type: ignore[return-value]
        moved = fixes.move_before(suite, statement, anchor)  # on the original nodes
        return fixes.replace_nodes(m, {id(suite): lambda _: moved})

    # Moving a seed changes the draws that ran after it where it was: unsafe.
    return located_action(
        planner, d, ("move", seed_span), "Move the seeding call above the first draw", locate, move,
        Applicability.UNSAFE,
    )


@UnseededGlobalRng.fix_leveller
def _unseeded_global_level(planner: FixPlanner, d: Diagnostic) -> Applicability:
    if data_field(d, "variant") == "late":
        action = planner.plan(d)  # a move of the seeding call, or seeding at the entry
        return action.applicability if action is not None else Applicability.UNSAFE
    programs = reported_programs(planner, d)
    if any(planner.entry_level(p.entry) is Applicability.UNSAFE for p in programs):
        return Applicability.UNSAFE
    return Applicability.SAFE


@UnseededGlobalRng.fix_prechecker
def _unseeded_global_available(planner: FixPlanner, d: Diagnostic) -> Optional[bool]:
    if data_field(d, "variant") in ("spawn", "graph"):
        return False  # the seed belongs inside the worker (with its rank) or the new graph: by hand
    programs = reported_programs(planner, d)
    if not programs:
        return False
    if planner.entry_available(programs[0]):
        return True
    return None  # maybe a move of the seeding call in the same file
