"""Dataset conversion scripts that handle each listed file on its own, written to look
like the loops that do use the listing's order.

Look-alikes (no finding): a folder list sorted in place before the loop that copies it,
the newest checkpoint found by `np.max` over an array of epoch numbers, annotation files
converted into files named after each one (opened for appending: each entry's own file),
a search loop whose `break` ends only the inner loop, a handle name used before the loop
for another file, an indexed loop under a progress bar, and per-image helpers given a
literal, a constant or an option's value, and a pool mapping `partial(thumbnail, root, 64)`
over a listing on the line of its `with` (`root` reaches no use).

Positives: the same shapes where the order does reach a result: a list filled from a
folder list sorted only after the loop, the first checkpoint of an unsorted array,
lines appended to one file per folder, and a `for ... else: break` that ends the outer
loop at whichever folder comes first.
"""
import argparse
import glob
import os
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import cv2
import numpy as np
from tqdm import tqdm

parser = argparse.ArgumentParser()
parser.add_argument("--size", type=int, default=96)
parser.add_argument("--border", action="store_true")
args = parser.parse_args()

with open("classes.txt") as f:
    classes = [line.strip() for line in f]

# folders sorted in place first: the list the loop fills is in sorted order
labels = []
for group in ["train", "val"]:
    folders = [d for d in os.listdir(group) if os.path.isdir(os.path.join(group, d))]
    folders.sort()
    for folder in folders:
        labels.append(os.path.join(group, folder))

# sorted only after the loop filled `unsorted_labels` from it
unsorted_labels = []
for group in ["test"]:
    subfolders = os.listdir(group)  # expect: RPL402
    for folder in subfolders:
        unsorted_labels.append(folder)
    subfolders.sort()


def newest_checkpoint(folder):
    files = glob.glob("checkpoints/*")
    epochs = np.array([int(os.path.splitext(os.path.basename(x))[0]) for x in files])
    return os.path.join(folder, "%d.tar" % np.max(epochs))


def first_checkpoint(folder):
    files = glob.glob("runs/*")  # expect: RPL402
    epochs = np.array([int(os.path.splitext(os.path.basename(x))[0]) for x in files])
    return os.path.join(folder, "%d.tar" % epochs[0])


# each annotation is converted into the file named after it, appended to line by line
for xml_file in glob.glob("annotations/*.xml"):
    with open(xml_file) as f:  # `f` held classes.txt before the loop: read there, not here
        rows = f.read().split()
    for fname in os.listdir("images"):
        if fname.startswith(xml_file[:-4]):
            break
    with open(xml_file.replace(".xml", ".txt"), "a") as out:
        for row in rows:
            out.write(row + "\n")

# ... but appended to the folder's one list, the files go in in the listing's order
for image_file in glob.glob("frames/*/*.jpg"):  # expect: RPL402
    with open(os.path.join(os.path.dirname(image_file), "list.txt"), "a") as out:
        out.write(image_file + "\n")

# a `break` in the inner loop's `else` ends the outer loop at the first folder without a match
kept = []
for video in glob.glob("videos/*"):  # expect: RPL402
    for frame in os.listdir(video):
        if frame.endswith(".jpg"):
            break
    else:
        break
    kept.append(video)
print(kept)


def crop(image, border, value=0):
    color = [value] * image.shape[2] if border else None
    return cv2.copyMakeBorder(image, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=color)


def resize_all():
    size = 96
    paths = glob.glob("inputs/*")
    for i in tqdm(range(len(paths))):
        path = paths[i]
        image = cv2.imread(os.path.join(path, "image.png"))
        mask = (image > 127).astype("uint8")
        image = crop(image, args.border, value=255)
        center = list(map(int, map(round, image.shape[:2])))
        image = cv2.resize(image, (size, args.size))
        cv2.imwrite(os.path.join("outputs", os.path.basename(path) + ".png"), image)
        cv2.imwrite(os.path.join("masks", os.path.basename(path) + "_%d.png" % center[0]), mask * 255)


def thumbnail(root, size, path):
    image = cv2.imread(path)
    cv2.imwrite(path + ".thumb.png", cv2.resize(image, (size, size)))


def thumbnails(root):
    with ProcessPoolExecutor(4) as pool: pool.map(partial(thumbnail, root, 64), glob.glob("photos/*"))


resize_all()
thumbnails("photos")
print(labels, unsorted_labels, newest_checkpoint("ckpt"), first_checkpoint("ckpt"), classes)
