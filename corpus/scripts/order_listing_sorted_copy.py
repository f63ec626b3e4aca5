"""Builds an image-classification index by walking the class folders. The walk fills a
list of paths and a parallel list of labels in the same loop; the pairs made from them
are sorted by path before the split, so the walk's order decides nothing. A second
index is paired up the same way but split unsorted: which images are held out follows
the file system. A third copies the paths into records and trains on them in the
walk's order."""
import json
import os
import random

random.seed(0)

IMAGE_TYPES = {".jpg", ".jpeg", ".png"}


def find_images(folder, sort=True):
    paths = []
    labels = []
    for root, _, files in os.walk(folder):
        label = os.path.basename(root)
        for name in files:
            if os.path.splitext(name)[1].lower() in IMAGE_TYPES:
                paths.append(os.path.join(root, name))
                labels.append(label)
    classes = {c: i for i, c in enumerate(sorted(set(labels)))}
    pairs = [(p, classes[l]) for p, l in zip(paths, labels)]
    if sort:
        pairs = sorted(pairs, key=lambda pair: pair[0])
    return pairs


def held_out_index(folder, fraction=0.1):
    paths = []
    labels = []
    for root, _, files in os.walk(folder):  # expect: RPL402
        for name in files:
            paths.append(os.path.join(root, name))
            labels.append(os.path.basename(root))
    pairs = [(p, l) for p, l in zip(paths, labels)]
    cut = int(len(pairs) * fraction)
    return pairs[cut:], pairs[:cut]


def records(folder):
    found = []
    for root, _, files in os.walk(folder):  # expect: RPL402
        for name in files:
            found.append(os.path.join(root, name))
    return [{"path": p, "size": os.path.getsize(p)} for p in found][:1000]


if __name__ == "__main__":
    index = find_images("data/images")
    random.shuffle(index)
    train, val = held_out_index("data/extra")
    with open("index.json", "w") as f:
        json.dump({"train": index[100:] + train, "val": index[:100] + val, "sizes": records("data/raw")}, f)
