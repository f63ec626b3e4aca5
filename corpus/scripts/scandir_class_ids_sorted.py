"""ImageNet-22k-style class discovery: the class ids come from `os.scandir` inside a
`with` block, filled into a list that is returned sorted: no order of the file system
survives."""
import os
import sys

import numpy as np


def find_class_ids(path):
    class_ids = []
    with os.scandir(path) as entries:
        for entry in entries:
            root, ext = os.path.splitext(entry.name)
            if ext != ".tar":
                continue
            class_ids.append(root)
    return sorted(class_ids)


if __name__ == "__main__":
    np.save("class-ids.npy", np.array(find_class_ids(sys.argv[1])))
