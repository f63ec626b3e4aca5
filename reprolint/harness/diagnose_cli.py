"""`verify --diagnose` on the command line: the budget first, progress per control on
a terminal, and the diagnosis added to the verify result (text and JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from rich.console import Console

from reprolint.harness._cli_common import show_progress


def run_diagnosis(result: Any, command: Sequence[str], args: Any, execution: Any, err: Console, live: bool) -> None:
    from reprolint.harness import diagnose as dg
    from reprolint.harness.report import run_line
    from reprolint.harness.verify import static_findings, static_hints, used_cuda

    libraries = dg.program_libraries(command)
    cuda = used_cuda(result.runs)
    torch = "torch" in libraries or not libraries
    controls = dg.controls_for(libraries, torch, cuda, Path(result.run_root))
    plain = ", ".join(f"{r.seconds:.1f} s" for r in result.runs)
    err.print(
        f"diagnose: {len(controls)} controls, 2 runs each: {2 * len(controls)} extra runs "
        f"(the plain runs took {plain}): " + ", ".join(c.held for c in controls),
        markup=False, highlight=False,
    )
    findings = static_findings(command, cuda)

    def runs_progress(control: Any, i: int, n: int) -> Any:
        def progress(event: str, run: Any, total: int) -> None:
            label = f"control {i}/{n} {control.held}: run {run.index}/{total}"
            show_progress(err, event, label, run, live, lambda: f"control {i}/{n} {control.held}: " + run_line(run, total))

        return progress

    diagnosis = dg.diagnose(
        command, libraries, torch, cuda, findings, timeout=args.timeout,
        runs_progress=runs_progress, base_dir=Path(result.run_root) / "diagnose",
        execution=execution, artifacts=args.artifact,
    )
    result.diagnosis = diagnosis.to_dict()
    result.diagnosis_lines = dg.render_lines(diagnosis)
    # The hints: the codes of the causes the diagnosis proved first.
    proven = [code for c in diagnosis.causes for code in c.control.codes]
    result.static_hints = static_hints(command, cuda=cuda, first=proven)
