"""mAP preparation: keeps only the detection files that have a ground-truth file of the
same name, moving the others aside. Both listings become sets at once (`gt_files =
set(gt_files)`), so the file system's order reaches nothing (no RPL402); the moves are
one per file."""
import glob
import os
import sys

os.chdir("ground-truth")
gt_files = glob.glob("*.txt")
if len(gt_files) == 0:
    print("no ground-truth files")
    sys.exit()
os.chdir("../predicted")
pred_files = glob.glob("*.txt")

gt_files = set(gt_files)
pred_files = set(pred_files)
unmatched = pred_files - gt_files


def backup(folder, files):
    os.chdir(folder)
    os.makedirs("backup", exist_ok=True)
    for name in files:
        os.rename(name, "backup/" + name)


backup("../predicted", unmatched)
print("matched:", len(gt_files & pred_files))
