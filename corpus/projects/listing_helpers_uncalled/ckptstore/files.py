import os


def describe(run_dir):
    return f"{run_dir}: {len(os.listdir(run_dir))} files"


def newest(run_dir):
    names = os.listdir(run_dir)  # expect: RPL402
    return os.path.join(run_dir, names[-1])
