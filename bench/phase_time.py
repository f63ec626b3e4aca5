"""CPU seconds of the two phases of one `reprolint check` (per-file analysis, then the
program phase), in-process with --jobs 1 and no cache: where the time of a cold check goes.

Usage: python bench/phase_time.py DIRECTORY
"""
import sys, time
import reprolint.api as api, reprolint.pipeline as pipeline
acc = {}
def wrap(mod, name):
    f = getattr(mod, name)
    def g(*a, **k):
        t = time.process_time()
        try: return f(*a, **k)
        finally: acc[name] = acc.get(name, 0) + time.process_time() - t
    setattr(mod, name, g)
wrap(api, "diagnose_analyses"); wrap(pipeline, "analyse_all")
from reprolint.cli import main
t=time.process_time()
try: main(["check", "--exit-zero", "-q", "--no-cache", "--jobs", "1", sys.argv[1]])
except SystemExit: pass
print({k: round(v,2) for k,v in acc.items()}, "total", round(time.process_time()-t,2), file=sys.stderr)
