"""`reprolint verify --diagnose`: when two runs differ, find out why.

The command runs again under one control at a time, each holding one source of variance
fixed in both runs (RNG seeding per library, every RNG together, a fixed
`PYTHONHASHSEED`, one thread, DataLoaders without workers, deterministic algorithms,
cuDNN's deterministic kernels). A control under which the runs agree is a proven cause;
the report ranks them and names the static findings that match each one and the fix
that addresses it. `diagnose()` returns data and never prints.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from reprolint.harness.process import RUNS_DIR
from reprolint.runtime import environment as renv

LIBRARY_NAMES = {"random": "Python `random`", "numpy": "NumPy", "torch": "torch", "tensorflow": "TensorFlow"}
RNG_CODES = ("RPL101", "RPL102", "RPL103", "RPL104", "RPL105", "RPL306", "RPL403", "RPL404")
FIXED_SEED = "20271"  # both runs of an RNG control get this master seed


@dataclass(frozen=True)
class Control:
    """One source of variance held fixed in both runs."""

    name: str  # "rng:numpy", "rng:all", "hash", "threads", "workers", "deterministic", "cudnn"
    held: str  # "NumPy's RNG seeded" (as in "runs agree with ...")
    cause: str  # "NumPy's random numbers are a cause"
    env: Dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    codes: tuple = ()  # the rules whose findings this control proves
    library: Optional[str] = None


@dataclass
class ControlOutcome:
    control: Control
    verdict: str  # agree | differ | failed
    run_root: str
    seconds: float = 0.0
    findings: List[str] = field(default_factory=list)  # "RPL101 train.py:8: message"
    fixes: List[str] = field(default_factory=list)  # "Seed ... (safe: `reprolint fix --write`)"


@dataclass
class Diagnosis:
    controls: List[ControlOutcome]
    budget_runs: int

    @property
    def causes(self) -> List[ControlOutcome]:
        return [c for c in self.controls if c.verdict == "agree"]

    def to_dict(self) -> dict:
        out = []
        for c in self.controls:
            raw = asdict(c)
            raw["control"] = {"name": c.control.name, "held": c.control.held, "cause": c.control.cause}
            out.append(raw)
        return {
            "budget_runs": self.budget_runs,
            "causes": [c.control.name for c in self.causes],
            "controls": out,
        }


def _rng_env(libraries: Optional[str], record: Path) -> Dict[str, str]:
    env = {renv.INSTALL: "1", renv.MODE: "record", renv.SEED: FIXED_SEED,
           renv.DETERMINISTIC: "0", renv.RECORD: str(record)}
    if libraries:
        env[renv.LIBRARIES] = libraries
    return env


def controls_for(libraries: Sequence[str], torch: bool, cuda: bool, root: Path) -> List[Control]:
    """The controls worth a run for a program using ``libraries`` (ordered: the most
    specific first, so the ranking names one library before all of them)."""
    controls = []
    for lib in libraries:
        name = LIBRARY_NAMES.get(lib, lib)
        controls.append(Control(
            f"rng:{lib}", f"{name}'s RNG seeded", f"{name}'s random numbers are a cause",
            _rng_env(lib, root / f"rng-{lib}.record.json"), RNG_CODES, lib,
        ))
    if len(libraries) > 1 or not libraries:
        controls.append(Control(
            "rng:all", "every RNG seeded", "random numbers are a cause",
            _rng_env(None, root / "rng-all.record.json"), RNG_CODES,
        ))
    controls.append(Control(
        "hash", "PYTHONHASHSEED fixed", "str hash order is a cause",
        {"PYTHONHASHSEED": "0"}, ("RPL401", "RPL307"),
    ))
    if torch:
        controls.append(Control(
            "threads", "one thread", "the thread count (parallel reductions) is a cause",
            {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", renv.CONTROLS: "threads1"}, (),
        ))
        controls.append(Control(
            "workers", "DataLoader num_workers=0", "DataLoader worker processes are a cause",
            {renv.CONTROLS: "workers0"}, ("RPL403",),
        ))
        controls.append(Control(
            "deterministic", "deterministic algorithms on", "nondeterministic kernels are a cause",
            {renv.CONTROLS: "deterministic", "CUBLAS_WORKSPACE_CONFIG": ":4096:8"},
            ("RPL201", "RPL202", "RPL301", "RPL303"),
        ))
        if cuda:
            controls.append(Control(
                "cudnn", "cuDNN deterministic, no benchmark", "cuDNN's kernel choice is a cause",
                {renv.CONTROLS: "cudnn"}, ("RPL203", "RPL302"),
            ))
    return controls


def program_libraries(command: Sequence[str]) -> List[str]:
    """The RNG libraries the command's scripts (and the project modules beside them)
    use, from `reprolint check`'s analysis (nothing is run)."""
    from reprolint.api import analyse_source

    scripts = [Path(arg) for arg in command if arg.endswith(".py") and Path(arg).is_file()]
    uses: set = set()
    for script in scripts:
        for path in {script, *script.parent.glob("*.py")}:
            try:
                facts = analyse_source(path.read_text(encoding="utf-8"), str(path)).facts
            except Exception:  # noqa: BLE001 - a file check cannot read adds nothing
                continue
            if facts is not None:
                uses |= set(facts.uses)
    return [lib for lib in ("random", "numpy", "torch", "tensorflow") if lib in uses]


_ALIASES = {"np": "numpy", "numpy": "numpy", "random": "random", "torch": "torch", "tf": "tensorflow",
            "tensorflow": "tensorflow"}


def _libraries_of(d: Any) -> set:
    """The RNG libraries a finding is about, from its data (``library``; the missing ones
    of RPL105; else the callee's module, as written: ``np.random.default_rng``)."""
    if d.data.get("missing_libraries"):
        return set(d.data["missing_libraries"])
    if d.data.get("library"):
        return {str(d.data["library"])}
    head = str(d.data.get("api") or d.data.get("call") or "").split(".")[0]
    return {_ALIASES[head]} if head in _ALIASES else set()


def _matching(control: Control, findings: Sequence[Any]) -> List[Any]:
    out = []
    for d in findings:
        if d.code not in control.codes:
            continue
        if control.library is not None:
            libraries = _libraries_of(d)
            if libraries and control.library not in libraries:
                continue
        out.append(d)
    return out


def _fix_text(d: Any) -> Optional[str]:
    from reprolint.checks.registry import get_rule

    if d.fix is not None and d.fix.applicability.value in ("safe", "unsafe"):
        how = "`reprolint fix --write`" if d.fix.applicability.value == "safe" else "`reprolint fix --write --unsafe-fixes`"
        return f"{d.fix.title} ({d.fix.applicability.value}: {how})"
    rule = get_rule(d.code)
    if rule is not None:
        mitigation = " ".join(rule.section("Why is this bad?").split("Mitigation:")[-1].split()) if "Mitigation:" in rule.doc() else ""
        return mitigation or (rule.fix_title or None)
    return None


ProgressFn = Callable[[str, Control, int, int, Any], None]  # (event, control, i, n, payload)


def diagnose(
    command: Sequence[str],
    libraries: Sequence[str],
    torch: bool,
    cuda: bool,
    findings: Sequence[Any],
    timeout: Optional[float] = None,
    runs_progress: Optional[Callable[[Control, int, int], Any]] = None,
    progress: Optional[ProgressFn] = None,
    base_dir: Path = RUNS_DIR,
    execution: Any = None,
    artifacts: Sequence[str] = (),
) -> Diagnosis:
    """Run ``command`` twice under each control; ``findings``: the static findings of
    the program (they are matched to the proven causes). ``runs_progress(control, i, n)``
    gives the per-run progress callback of ``verify`` for one control."""
    from reprolint.harness.verify import verify

    root = Path(base_dir)
    root.mkdir(parents=True, exist_ok=True)
    controls = controls_for(libraries, torch, cuda, root.resolve())
    diagnosis = Diagnosis([], 2 * len(controls))
    for i, control in enumerate(controls, 1):
        if progress:
            progress("start", control, i, len(controls), None)
        result = verify(
            command, runs=2, artifacts=artifacts, timeout=timeout,
            progress=runs_progress(control, i, len(controls)) if runs_progress else None,
            base_dir=base_dir, execution=execution, extra_env=control.env,
        )
        verdict = {"reproducible": "agree", "differs": "differ"}.get(result.verdict, "failed")
        outcome = ControlOutcome(control, verdict, result.run_root, sum(r.seconds for r in result.runs))
        if verdict == "agree":
            for d in _matching(control, findings):
                outcome.findings.append(f"{d.code} {d.path}:{d.span.start_line}: {d.message}")
                fix = _fix_text(d)
                if fix and fix not in outcome.fixes:
                    outcome.fixes.append(fix)
            # A fix `reprolint fix` applies first, then advice.
            outcome.fixes.sort(key=lambda f: not ("(safe: " in f or "(unsafe: " in f))
        diagnosis.controls.append(outcome)
        if progress:
            progress("end", control, i, len(controls), outcome)
    # Ranked: proven causes first (the most specific control first), then the rest.
    diagnosis.controls.sort(key=lambda c: (c.verdict != "agree", c.verdict == "failed"))
    return diagnosis


def render_lines(diagnosis: Diagnosis) -> List[str]:
    """The report's diagnosis section, one line per statement."""
    lines = ["diagnosis (each control held fixed in both runs, one at a time):"]
    causes = diagnosis.causes
    for rank, c in enumerate(causes, 1):
        lines.append(f"  {rank}. runs agree with {c.control.held}: {c.control.cause}")
        for finding in c.findings:
            lines.append(f"       matching finding: {finding}")
        for fix in c.fixes:
            lines.append(f"       fix: {fix}")
        if not c.findings:
            lines.append("       no static finding matches: the cause is outside what `reprolint check` sees")
    still = [c.control.held for c in diagnosis.controls if c.verdict == "differ"]
    if still:
        lines.append(f"  runs still differ with {', with '.join(still)}")
    failed = [c.control.held for c in diagnosis.controls if c.verdict == "failed"]
    if failed:
        lines.append(f"  no verdict (a run failed) with {', with '.join(failed)}")
    if not causes:
        lines.append("  no single control makes the runs agree: several sources of variance act together")
    return lines
