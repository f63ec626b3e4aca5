"""Verdict table of `reprolint verify` on every corpus/train script: as written, with
--replay, and after `fix --write --unsafe-fixes` in both fix styles (on a temporary copy).

    python tests/harness/verdict_table.py [SCRIPT,...] [as-written,replay,fix-hooks,fix-inline]

Prints one JSON line per (script, mode): exit status (0 reproducible, 1 differs), the
report's first line and what fix said. Slow (minutes per script on 2 cores): not a test.
"""
import json, os, shutil, subprocess, sys, tempfile, time
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PY = sys.executable
SCRIPTS = {
    "custom_op_reduction.py": ["--epochs", "1"],
    "dataloader_workers.py": ["--epochs", "1"],
    "ddp_gloo.py": ["--epochs", "1"],
    "eval_timing.py": [],
    "hash_vocab.py": ["--epochs", "1"],
    "lenet1_mnist.py": ["--epochs", "1"],
    "lenet4_mnist.py": ["--epochs", "1"],
    "lenet5_mnist.py": ["--epochs", "1"],
    "nanogpt_seeded.py": [],
    "numpy_augment.py": ["--epochs", "1"],
    "python_random_shuffle.py": ["--epochs", "1"],
    "resnet_cifar10.py": ["--epochs", "1"],
    "unsorted_listing.py": ["--epochs", "1"],
    "wrn_cifar100.py": ["--epochs", "1"],
}
names = sys.argv[1].split(",") if len(sys.argv) > 1 else list(SCRIPTS)
modes = sys.argv[2].split(",") if len(sys.argv) > 2 else ["as-written", "replay", "fix-hooks", "fix-inline"]
env = {k: v for k, v in os.environ.items() if not k.startswith("REPROLINT_") and k != "PYTHONHASHSEED"}
for name in names:
    for mode in modes:
        work = tempfile.mkdtemp(prefix="reprolint-verdict-")
        script = os.path.join(work, name)
        shutil.copy(os.path.join(REPO, "corpus/train", name), script)
        fixnote = ""
        if mode.startswith("fix-"):
            style = mode.split("-")[1]
            fx = subprocess.run([PY, "-m", "reprolint", "fix", "--write", "--unsafe-fixes", "--fix-style", style, script],
                                cwd=work, env=env, capture_output=True, text=True)
            fixnote = (fx.stdout.strip().splitlines() or [""])[-1]
        launcher = [PY, "-m", "torch.distributed.run", "--nproc-per-node", "2"] if name == "ddp_gloo.py" else [PY]
        cmd = [PY, "-m", "reprolint", "verify"] + (["--replay"] if mode == "replay" else []) + ["--", *launcher, script, *SCRIPTS[name]]
        t = time.time()
        r = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=600)
        first = (r.stdout.strip().splitlines() or [""])[0]
        print(json.dumps({"script": name, "mode": mode, "exit": r.returncode, "headline": first[:160], "fix": fixnote[:100], "s": round(time.time() - t, 1)}), flush=True)
        shutil.rmtree(work, ignore_errors=True)
