"""Compare the source-based spans of reprolint.analysis.positions with the codegen pass.

    python bench/check_positions.py [--stress] PATH...

For every .py file and notebook under the paths, the nodes reprolint asks spans for
(what ``collect_facts`` passes to ``node_spans``) get their span twice: from
``node_spans`` with the source (text search, ast, then the pass for the rest) and
from the code-generation pass alone (the reference). ``--stress`` adds, per file,
every call, attribute, subscript, comparison, name and statement of the module, each
looked up on its own. Prints the files and nodes compared, how many the source found
and how many were left to the pass, and every difference; exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Iterator

import libcst as cst

from reprolint.analysis import facts, positions
from reprolint.analysis.cst_helpers import descendants
from reprolint.api import decode_source
from reprolint.precheck import parse_problem

_STRESS_TYPES = (
    cst.Call, cst.Attribute, cst.Subscript, cst.Comparison, cst.Name,
    cst.BaseStatement, cst.BaseSmallStatement,
)


def sources(paths: list[str]) -> Iterator[tuple[str, str]]:
    for root in paths:
        files = [Path(root)] if os.path.isfile(root) else sorted(Path(root).rglob("*"))
        for path in files:
            if path.suffix == ".py" and path.is_file():
                try:
                    yield str(path), decode_source(path.read_bytes())
                except Exception:  # noqa: BLE001 - undecodable: reprolint skips it too
                    continue
            elif path.suffix == ".ipynb" and path.is_file():
                from reprolint.notebooks import notebook_program, read_notebook

                try:
                    notebook = read_notebook(path.read_text("utf-8"))
                except Exception:  # noqa: BLE001
                    continue
                if notebook.language == "python":
                    yield str(path), notebook_program(notebook)[0]


def reported_nodes(module: cst.Module, path: str, source: str) -> list[cst.CSTNode]:
    """The nodes ``collect_facts`` asks spans for."""
    asked: list[cst.CSTNode] = []
    real = positions.node_spans

    def spy(module: cst.Module, nodes, source=None):  # type: ignore[no-untyped-def]
        asked.extend(nodes)
        return real(module, asked, source)

    positions.node_spans = spy  # type: ignore[assignment]
    try:
        facts.collect_facts(module, path, source=source)
    finally:
        positions.node_spans = real  # type: ignore[assignment]
    return asked


def all_nodes(module: cst.Module) -> list[cst.CSTNode]:
    return [node for node in descendants(module) if isinstance(node, _STRESS_TYPES)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--stress", action="store_true")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(20_000)
    files = unparsed = compared = by_source = differences = 0
    stress_compared = stress_by_source = 0
    started = time.process_time()
    for path, source in sources(args.paths):
        if parse_problem(source) is not None:
            unparsed += 1
            continue
        try:
            module = cst.parse_module(source)
            nodes = list({id(n): n for n in reported_nodes(module, path, source)}.values())
        except (cst.ParserSyntaxError, RecursionError):
            unparsed += 1
            continue
        files += 1
        reference = positions.codegen_spans(module, nodes)
        fast = positions.node_spans(module, nodes, source)
        from_source = positions.SourceSpans(module, source).spans(nodes)
        compared += len(nodes)
        by_source += len(from_source)
        for node in nodes:
            expected = reference[id(node)]
            if fast[id(node)] != expected or from_source.get(id(node), expected) != expected:
                differences += 1
                print(f"DIFF {path}: {type(node).__name__} {fast[id(node)]} != {expected}")
        if args.stress:
            every = all_nodes(module)
            reference = positions.codegen_spans(module, every)
            from_source = positions.SourceSpans(module, source).spans(every)
            stress_compared += len(every)
            stress_by_source += len(from_source)
            for node in every:
                span = from_source.get(id(node))
                if span is not None and span != reference[id(node)]:
                    differences += 1
                    print(f"DIFF {path} (stress): {type(node).__name__} {span} != "
                          f"{reference[id(node)]}")
    print(
        f"{files} files ({unparsed} not parsed by libcst, skipped); reported nodes: "
        f"{compared} compared, {by_source} found in the source, {compared - by_source} "
        f"left to the codegen pass"
    )
    if args.stress:
        print(
            f"stress: {stress_compared} nodes compared, {stress_by_source} found in the "
            f"source, {stress_compared - stress_by_source} left to the codegen pass"
        )
    print(f"{differences} differences; {time.process_time() - started:.1f} s CPU")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
