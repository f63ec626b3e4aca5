"""The command-line options verify and variance share for where their runs execute."""

from __future__ import annotations

import argparse
from typing import Sequence, Union

from reprolint.harness.backends import BACKENDS, FILE_MODES, ExecutionOptions, parse_resources


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("where the runs execute")
    group.add_argument(
        "--jobs", type=int, default=1, metavar="N",
        help="runs at a time (default 1; parallel runs perturb the timing figures, never the results)",
    )
    group.add_argument("--backend", choices=BACKENDS, default="local",
                       help="local: this machine; ray: each run a Ray task (pip install 'reprolint[ray]')")
    group.add_argument("--address", metavar="ADDR",
                       help="Ray: the cluster to join (default: RAY_ADDRESS, else a Ray started here)")
    group.add_argument("--run-resources", metavar="SPEC", default="num_cpus=1",
                       help='Ray: what one run needs, e.g. "num_cpus=4,num_gpus=1" (default num_cpus=1)')
    group.add_argument("--spread", action="store_true",
                       help="Ray: put the runs on distinct nodes (round robin) and report every run's node and device")
    group.add_argument(
        "--working-dir", choices=FILE_MODES, default="auto",
        help="Ray: shared (every node sees this directory at the same path), upload (ship it "
        "with each task), auto (ask the nodes; default)",
    )


def options_from(args: argparse.Namespace, artifacts: Sequence[str] = ()) -> Union[ExecutionOptions, str]:
    """The options, or a usage error in words."""
    if args.jobs < 1:
        return "--jobs must be at least 1"
    ray_only = [name for name, given in (
        ("--address", args.address is not None),
        ("--run-resources", args.run_resources != "num_cpus=1"),
        ("--spread", args.spread),
        ("--working-dir", args.working_dir != "auto"),
    ) if given]
    if args.backend != "ray" and ray_only:
        return f"{', '.join(ray_only)} need{'s' if len(ray_only) == 1 else ''} --backend ray"
    try:
        resources = parse_resources(args.run_resources)
    except ValueError as exc:
        return str(exc)
    if artifacts and args.jobs > 1:
        # Every run writes the same file in the same directory: side by side they would
        # overwrite each other's checkpoints.
        return "--artifact needs --jobs 1: parallel runs would write the same file"
    return ExecutionOptions(args.jobs, args.backend, args.address, resources, args.spread, args.working_dir)

