"""`reprolint --help` gives every command's synopsis (issue 17 item 7)."""

from __future__ import annotations

from reprolint.cli import main


def test_help_lists_every_command_with_its_synopsis(capsys) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "see `reprolint" not in out
    synopsis = out.split("synopsis:\n", 1)[1]
    lines = [line.strip() for line in synopsis.splitlines() if line.startswith("  reprolint ")]
    commands = [line.split()[1] for line in lines]
    assert set(commands) >= {"check", "fix", "clean", "verify", "profile", "variance", "rules", "explain", "guide"}
    assert len(commands) == len(set(commands))
    verify = next(line for line in lines if line.startswith("reprolint verify "))
    assert "[--replay]" in verify and "[--show-output]" in verify and verify.endswith("-- COMMAND [ARGS...]")
    variance = next(line for line in lines if line.startswith("reprolint variance "))
    assert "[--seed-arg ARGS]" in variance and "[--seed-env NAME]" in variance
    clean = next(line for line in lines if line.startswith("reprolint clean "))
    assert clean.endswith("[--runs]")
    assert "verify    train twice (or N times) and prove the runs bit-identical" in out
