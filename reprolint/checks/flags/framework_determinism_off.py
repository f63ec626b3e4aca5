from __future__ import annotations

from typing import Any, Iterator, Optional

import libcst as cst

from reprolint import fixes
from reprolint.analysis.determinism import ProgramUsage, program_usages
from reprolint.analysis.facts import UNKNOWN
from reprolint.analysis.tf_versions import program_tf
from reprolint.analysis.usage_events import FlagSet, HfTrainingArgs, KerasFit, LightningTrainer
from reprolint.analysis.values import ConfigKey
from reprolint.catalog.rng import old_keras_library
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.rng._common import rpl101_reports
from reprolint.fixes.determinism import usage_program
from reprolint.fixes.planning import FixAction, FixPlanner, data_field, tf_seed_library
from reprolint.fixes.seeding import HELPER_NAME, ensure_seed_helper, entry_action
from reprolint.model import Applicability, Diagnostic, Related, Span

_KERAS_SEEDERS = ("keras.utils.set_random_seed", "tensorflow.keras.utils.set_random_seed")


class FrameworkDeterminismOff(Rule):
    """
    ## What it does
    Reports a high-level trainer left nondeterministic: Lightning
    `Trainer(deterministic=False/None)` or no `seed_everything`, Hugging Face
    `TrainingArguments` without `seed`/`full_determinism`, Keras without
    `set_random_seed`.

    - Lightning (`lightning`, `lightning.pytorch`, `pytorch_lightning`): a `Trainer(...)`
      whose `deterministic` is absent, `None` or `False` (`True` and `"warn"` are
      accepted; `"warn"` only warns on ops without a deterministic kernel), or in a
      program that never seeds torch (`seed_everything`, `torch.manual_seed`, a project
      helper). Reported at the `Trainer(...)` call. An absent `deterministic` is named
      with Lightning's default: None from pytorch-lightning 1.6.4 on, False before (where
      the project declares such a version, the message says which and where); a project
      that declares a Lightning before 0.7.6, whose Trainer has no `deterministic`
      argument, is told so and to set `torch.backends.cudnn.deterministic = True`
      itself (no fix: the keyword would raise `TypeError` there).
    - Hugging Face: a `TrainingArguments(...)` (or `Seq2SeqTrainingArguments`) call
      without `full_determinism=True`, in a program that calls neither
      `transformers.enable_full_determinism` nor `torch.use_deterministic_algorithms(True)`,
      unless it runs on the CPU (`use_cpu=True`/`no_cuda=True`). The `Trainer` seeds
      from `seed` (default 42); what is missing is deterministic kernels. Arguments
      parsed by `HfArgumentParser((..., TrainingArguments))` are read like an option
      default: `full_determinism` is False unless given on the command line, so it is
      reported at the `HfArgumentParser(...)` call. Reported at the
      `TrainingArguments(...)` call.
    - Lightning built indirectly: `Trainer.from_argparse_args(args)` and
      `Trainer(**vars(args))` take `deterministic`/`benchmark` from the program's own
      options when it defines them (their defaults decide) and keep Lightning's
      defaults otherwise (the options `add_argparse_args` adds); `Trainer(**cfg)` with
      `cfg` a dict literal (`{...}` or `dict(...)`) reads its items; `LightningCLI(...)`
      builds a Trainer with Lightning's defaults overridden by a literal
      `trainer_defaults={...}` (and seeds with `seed_everything_default`). A spread
      mapping that cannot be seen (a YAML config) is not reported.
    - Keras: a program that calls `model.fit(...)` without
      `keras.utils.set_random_seed(seed)` and without seeding both Python `random` and
      TensorFlow some other way: what `fit` draws from itself is Python's `random` (the
      default seeds of the layers' initialisers and seed generators) and TensorFlow's
      seed (shuffling, dropout), not NumPy (measured on Keras 3 and tf-keras: a `fit`
      on arrays repeats in a fresh process with those two seeded and NumPy not; a NumPy
      draw of the program's own is RPL101's). Reported at the first `fit` call. A `fit` is
      Keras's in a module that uses TensorFlow or Keras, unless the module also uses a
      library whose models have a `fit` of their own (scikit-learn, statsmodels,
      XGBoost, LightGBM, CatBoost...): then only a `fit` with a Keras-only keyword
      (`epochs`, `steps_per_epoch`, `validation_split`...) or on a model the module
      `compile`s counts.

    Only training programs are reported (not an evaluation or inference script that
    builds `TrainingArguments` to parse its options, nor tests and demos: see "How the
    program model works").

    One cause, one finding: a library whose unseeded draws RPL101 reports in the program
    (torch under a Lightning `Trainer`, Python `random` or TensorFlow under Keras) is said
    there, not again here; what is left is the trainer's own switch (`deterministic`,
    `full_determinism`) and the libraries RPL101 does not report. The Lightning
    `Trainer(...)` calls (or `TrainingArguments(...)`) of one file that the same
    programs build with the same switch missing (a script with a `train` and a
    `finetune` mode) are one finding, at the first: the others are its related
    locations, and its fix turns the switch on in all of them.

    Options are read with their defaults (`deterministic=args.deterministic` with a
    `store_true` option is off).

    ## Why is this bad?
    High-level trainers do the seeding and flag plumbing for you only when asked:
    Lightning leaves cuDNN and torch free to pick nondeterministic kernels unless
    `deterministic=True`, and its data-loader workers are seeded from
    `seed_everything(..., workers=True)`; Hugging Face enables deterministic kernels
    only with `full_determinism`; Keras' `set_random_seed` is the one call that seeds
    Python, NumPy and the backend together.

    Mitigation: `seed_everything(seed, workers=True)` and `Trainer(deterministic=True)`;
    `TrainingArguments(seed=..., full_determinism=True)`;
    `keras.utils.set_random_seed(seed)` with
    `tf.config.experimental.enable_op_determinism()`.

    ## Example
    ```python
    import lightning as L
    trainer = L.Trainer(max_epochs=10)
    ```

    Use instead:
    ```python
    import lightning as L
    L.seed_everything(42, workers=True)
    trainer = L.Trainer(max_epochs=10, deterministic=True)
    ```

    ## Fix safety
    Unsafe for Lightning and Hugging Face (deterministic mode can make an op without a
    deterministic implementation raise) and for a Keras program seeded with `install()`;
    safe for a Keras program seeded inline (it was never seeded). Lightning:
    `Trainer(..., deterministic=True)` (a missing `seed_everything` is left to RPL101's
    seeding); Hugging Face: `TrainingArguments(..., full_determinism=True)` (`seed`
    already defaults to 42, so it is not added); Keras: the program is seeded at the
    entry point (`hooks`: `reprolint.runtime.install()`; `inline`: a `seed_everything`
    for `random`, NumPy and TensorFlow).

    ## References
    - https://lightning.ai/docs/pytorch/stable/common/trainer.html#deterministic
    - https://huggingface.co/docs/transformers/main_classes/trainer#transformers.TrainingArguments.full_determinism
    - https://keras.io/api/utils/python_utils/#setrandomseed-function
    """

    code = "RPL306"
    message = "`{call}` leaves training nondeterministic: {missing}"
    messages = {
        "group": "`{call}` and {more} more of this program's trainers leave training nondeterministic: {missing}",
    }
    fix_title = "Turn on the framework's determinism switch"
    fix_applicability = Applicability.UNSAFE
    framework = "lightning, transformers, keras"

    VALID = [
        Valid("import lightning as L\nL.seed_everything(1, workers=True)\ntrainer = L.Trainer(deterministic=True)\ntrainer.fit(m)\n"),
        Valid(
            "from transformers import TrainingArguments\nargs = TrainingArguments('out', seed=1, full_determinism=True)\nprint(args)\n"
        ),
        Valid("import keras\nkeras.utils.set_random_seed(0)\nmodel = keras.Sequential()\nmodel.fit(x, y, epochs=1)\n"),
    ]
    INVALID = [
        Invalid("import lightning as L\nL.seed_everything(1)\ntrainer = L.Trainer(max_epochs=3)\n", line=3,
                message="deterministic",
            fixed=(
                'import lightning as L\nL.seed_everything(1)\n'
                'trainer = L.Trainer(max_epochs=3, deterministic=True)\n'
            ),
        ),
        Invalid("import pytorch_lightning as pl\ntrainer = pl.Trainer(deterministic=True)\ntrainer.fit(model)\n", line=2,
                message="seed_everything"),
        Invalid("from transformers import TrainingArguments\nargs = TrainingArguments('out', seed=3)\nprint(args)\n", line=2),
        Invalid("import tensorflow as tf\ntf.random.set_seed(0)\nmodel = tf.keras.Sequential()\nmodel.fit(x, y, epochs=1)\n",
                line=4),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        found: dict[tuple[str, Any], tuple[dict[str, Any], list[str]]] = {}
        for program in program_usages(ctx):
            if program.is_library or program.program is None or not program.program.is_training:
                continue  # an evaluation script that parses TrainingArguments trains nothing
            for path, span, fields in self._findings(ctx, program):
                found.setdefault((path, span), (fields, []))[1].extend(program.entry_points)
        # One cause, one finding: the Lightning trainers (or Hugging Face arguments) of
        # one file that the same programs build, with the same switch missing, are one
        # finding at the first; the others are related locations, and its fix sets the
        # switch on all of them. A Keras program is reported at its first `fit` already.
        groups: dict[tuple[Any, ...], list[tuple[Any, dict[str, Any]]]] = {}
        entry_points: dict[tuple[Any, ...], list[str]] = {}
        for (path, span), (fields, entries) in found.items():
            entries = list(dict.fromkeys(entries))
            key = (path, fields["trainer"], fields["missing"], tuple(entries)) \
                if fields["trainer"] != "keras" else (path, span)
            groups.setdefault(key, []).append((span, fields))
            entry_points[key] = entries
        for key, members in groups.items():
            members.sort(key=lambda m: (m[0].start_line, m[0].start_col))
            path = key[0]
            span, fields = members[0]
            if len(members) == 1:
                yield self.report(path, span, **fields, entry_points=entry_points[key])
                continue
            related = [Related(path, s, f"`{f['call']}` here, with the same setting") for s, f in members[1:]]
            yield self.report(
                path, span, **fields, variant="group", more=len(members) - 1,
                also=[[s.start_line, s.start_col, s.end_line, s.end_col] for s, _ in members[1:]],
                entry_points=entry_points[key], related=related,
            )

    def _findings(self, ctx: CheckContext, program: ProgramUsage) -> Iterator[tuple[str, Any, dict[str, Any]]]:
        """(path, span, message fields); ``trainer`` is "lightning", "hf" or "keras" and
        ``problems`` names what is missing ("deterministic", "seed", "full_determinism")."""
        assert program.program is not None
        seeded = program.program.seeded_libraries
        for _, path, usage in program.of(LightningTrainer):
            missing, problems = [], []
            value = program.kw_value(usage, "deterministic")
            if not (value is True or value == "warn" or value == UNKNOWN):
                if isinstance(usage.kw("deterministic"), ConfigKey) and value is None:  # the files omit it
                    files = ", ".join(f"`{f}`" for f in sorted(set(program.program.config_origin.values())))
                    what = f"{_lightning_default(ctx, path)}: the configuration it spreads ({files}) does not set it"
                elif usage.has_kw("deterministic"):
                    what = f"is {value!r}"
                else:
                    what = _lightning_default(ctx, path)
                missing.append(f"`deterministic` {what} (cuDNN and torch may pick nondeterministic kernels)")
                problems.append("deterministic")
            # one cause, one finding: unseeded torch draws that RPL101 reports are said there
            if "torch" not in seeded and not rpl101_reports(ctx, program.program, "torch"):
                missing.append("no `seed_everything(seed, workers=True)` seeds the run")
                problems.append("seed")
            if missing:
                yield path, usage.span, {
                    "call": f"{usage.text}(...)", "missing": "; ".join(missing),
                    "trainer": "lightning", "problems": tuple(problems),
                }
        for _, path, arguments in program.of(HfTrainingArgs):
            if program.kw_value(arguments, "use_cpu") is True or program.kw_value(arguments, "no_cuda") is True:
                continue
            value = program.kw_value(arguments, "full_determinism")
            if value is True or value == UNKNOWN or program.has(FlagSet, "hf.full-determinism"):
                continue
            if any(program.value(u) is not False for _, _, u in program.of(FlagSet, "torch.deterministic")):
                continue
            yield path, arguments.span, {
                "call": f"{arguments.text}(...)", "trainer": "hf", "problems": ("full_determinism",),
                "missing": "`full_determinism` is off, so the Trainer seeds but GPU kernels stay nondeterministic",
            }
        fit = program.first(KerasFit)
        if fit is not None:
            _, path, keras_fit = fit
            keras_seeded = any(o.seed.api in _KERAS_SEEDERS for o in program.program.seeds)
            # what `fit` itself draws from: Python's `random` (the default seeds of the
            # layers' initialisers and seed generators) and TensorFlow (shuffling,
            # dropout); not NumPy (tests/libraries: a fit repeats with those two seeded).
            # On TensorFlow 1, `fit` shuffles with NumPy; multi-backend Keras draws the
            # seeds of its initial weights and dropout from NumPy too (its backend's
            # `np.random.randint(10e6)` when no seed is given), while tf.keras's take the
            # graph seed. Nothing comes from Python's `random`, and
            # `keras.utils.set_random_seed` does not exist there. The same holds for
            # multi-backend Keras (before 2.4) on TensorFlow 2: the Keras of the past a
            # program runs is analysis.tf_versions.old_keras.
            past = "tf1" if program_tf(ctx, program).major == 1 else program.program.old_keras
            tf1 = past == "tf1"
            standalone = (tf1 and program.program.uses("keras")) or past == "multi-backend"
            drawn = {"random", "tensorflow"}  # layers' default seeds, shuffling and dropout
            if past:  # where that Keras takes them (catalog.rng.old_keras_library)
                layers = "keras.layers" if standalone else "tensorflow.keras.layers"
                drawn = {old_keras_library(past, layers, lib) for lib in drawn} | {old_keras_library(past, ".fit", "tensorflow")}
            missing_libs = drawn - seeded
            # libraries whose unseeded draws RPL101 reports are said there, once
            missing_libs = {lib for lib in missing_libs if not rpl101_reports(ctx, program.program, lib)}
            if not keras_seeded and missing_libs:
                if past:
                    keras = "Keras on TensorFlow 1" if tf1 else "multi-backend Keras (before 2.4)"
                    parts = {"numpy": f"NumPy (`np.random.seed`), from which {keras} draws "
                             + ("the seeds of its weights and dropout and its shuffling" if standalone else "its shuffling"),
                             "tensorflow": "TensorFlow's graph (`tf.set_random_seed`), which tf.keras's initial weights "
                             "and dropout follow"}
                    missing = "the program never seeds " + " and never seeds ".join(parts[m] for m in sorted(missing_libs))
                else:
                    names = " and ".join(sorted({"random": "`random`", "tensorflow": "TensorFlow"}[m] for m in missing_libs))
                    missing = f"the program never calls `keras.utils.set_random_seed` and never seeds {names}"
                yield path, keras_fit.span, {
                    "call": f"{keras_fit.text}(...)", "trainer": "keras", "problems": ("seed",),
                    "missing": missing, "unseeded_libraries": tuple(sorted(missing_libs)),
                }


# ----------------------------------------------------------------------------- fix


@FrameworkDeterminismOff.fix_leveller
def _framework_level(planner: FixPlanner, d: Diagnostic) -> Applicability:
    """Seeding a Keras program inline is safe; deterministic mode can fail: unsafe."""
    action = planner.plan(d)
    return action.applicability if action is not None else Applicability.UNSAFE


@FrameworkDeterminismOff.fix_planner
def _plan_framework(planner: FixPlanner, d: Diagnostic) -> Optional[FixAction]:
    """RPL306: ``Trainer(deterministic=True)``, ``TrainingArguments(full_determinism=True)``;
    a Keras program gets seeded at the entry point (``install()`` or ``seed_everything``)."""
    found = usage_program(planner, d, (LightningTrainer, HfTrainingArgs, KerasFit))
    if found is None:
        return None
    program, usage = found
    if isinstance(usage, KerasFit):
        if program.program is None:
            return None
        if planner.style == "hooks":
            return entry_action(planner, program.program, d.code)
        entry = program.entry
        stop = planner.import_stop(entry)
        seed = planner.seed
        libs = ("random", "numpy", tf_seed_library(program.program))
        return FixAction(
            entry, ("entry", "inline", seed, libs), planner.safe_if(True),  # seeds only
            f"Seed {', '.join(libs)} at the entry point with `{HELPER_NAME}({seed})`",
            lambda m: ensure_seed_helper(m, seed, libs, stop),
        )
    if usage.name.endswith(("HfArgumentParser", "LightningCLI")):
        return None  # the options come from the command line: the keyword is not the call's
    keyword = "deterministic" if isinstance(usage, LightningTrainer) else "full_determinism"
    if keyword == "deterministic" and _lightning_before(planner.ctx, d.path, "0.7.6") is not None:
        return None  # Lightning before 0.7.6: `Trainer(deterministic=True)` raises TypeError
    value = program.kw_value(usage, keyword)
    if value is True or value == "warn":
        return None  # only the seeding is missing: RPL101/RPL105 and `seed_everything`

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Call)
        return fixes.add_keyword(node, keyword, cst.Name("True"), replace=True)

    also = tuple(Span(*at) for at in data_field(d, "also") or ())  # the group's other trainers
    return FixAction(
        d.path, ("framework", d.span, keyword), planner.applicability(d.code),
        f"Pass `{keyword}=True`", lambda m: fixes.rewrite(m, d.span, change, also=also),
    )


def _lightning_default(ctx: CheckContext, path: str) -> str:
    """How the message names an absent ``deterministic``: Lightning's default is None
    from pytorch-lightning 1.6.4 on and False before (read in the releases' trainer.py),
    so a project that declares an older one gets False, with where it says so; before
    0.7.6 the Trainer has no such argument (read in 0.7.5's and 0.7.6's trainer.py)."""
    missing = _lightning_before(ctx, path, "0.7.6")
    if missing is not None:
        return (f"is no argument of Lightning {missing}: it arrives in 0.7.6, so set "
                "`torch.backends.cudnn.deterministic = True` yourself")
    older = _lightning_before(ctx, path, "1.6.4")
    if older is None:
        return "is left at its default, None"
    return f"is left at its default, False in Lightning {older}"


def _lightning_before(ctx: CheckContext, path: str, release: str) -> Optional[str]:
    """The Lightning the project of ``path`` declares, as a message names it ("0.7.5
    (declared in ...)", "before 1.6.4 (declared ...)" for a range), when it is before
    ``release``; else None."""
    from reprolint.analysis.declared import declared_before

    older = declared_before("lightning", release, path, ctx.index.roots)
    if older is None:
        return None
    assumed, declared = older
    version = assumed.version if any("==" in d.spec for d in declared) else f"before {release}"
    return f"{version} ({assumed.source})"
