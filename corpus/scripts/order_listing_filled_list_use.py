"""Lists a loop fills with a folder's entries keep the folder's order: what is done with
them later decides. Counted, tested for membership or made into a set, the order does not
matter; indexed, it picks files by the file system's order."""
import os
import sys

import numpy as np

root = sys.argv[1]

images = []
for name in os.listdir(os.path.join(root, "images")):
    if name.endswith(".png"):
        images.append(os.path.join(root, "images", name))
print(f"{len(images)} images")

stems = []
for name in os.listdir(os.path.join(root, "masks")):
    stems.append(name.rsplit(".", 1)[0])
missing = {os.path.basename(p).rsplit(".", 1)[0] for p in images} - set(stems)
assert "background" not in stems, missing

val = []
for name in os.listdir(os.path.join(root, "val")):  # expect: RPL402
    val.append(os.path.join(root, "val", name))
np.save("val_subset.npy", np.array(val[:100]))
