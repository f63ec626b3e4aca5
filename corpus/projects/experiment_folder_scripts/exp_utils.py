import os
import shutil


def create_exp_dir(path, scripts_to_save=None):
    os.makedirs(path, exist_ok=True)
    print("Experiment dir : {}".format(path))
    if scripts_to_save is not None:
        os.makedirs(os.path.join(path, "scripts"), exist_ok=True)
        for script in scripts_to_save:
            shutil.copyfile(script, os.path.join(path, "scripts", os.path.basename(script)))


def write_manifest(path, files):
    with open(os.path.join(path, "manifest.txt"), "w") as out:
        for i, name in enumerate(files):
            out.write(f"{i} {name}\n")
