"""Super-resolution data preparation: each high-resolution image is cut into crops by a
worker process that reads its settings from a shared dict and writes each crop under the
image's own name; the listing order decides only when each worker runs (look-alike: the
file list written below keeps the listing's order)."""
import multiprocessing
import os

import cv2
import numpy as np
from tqdm import tqdm


def worker(path, args):
    name, ext = os.path.splitext(os.path.basename(path))
    image = cv2.imread(os.path.join(args["inputs_dir"], path), cv2.IMREAD_UNCHANGED)
    size, step = args["crop_size"], args["step"]
    index = 0
    for top in np.arange(0, image.shape[0] - size + 1, step):
        for left in np.arange(0, image.shape[1] - size + 1, step):
            index += 1
            crop = np.ascontiguousarray(image[top:top + size, left:left + size, ...])
            cv2.imwrite(os.path.join(args["output_dir"], f"{name}_{index:04d}{ext}"), crop)


def split_images(args):
    os.makedirs(args["output_dir"], exist_ok=True)
    paths = os.listdir(args["inputs_dir"])
    bar = tqdm(total=len(paths), unit="image")
    pool = multiprocessing.Pool(args["num_workers"])
    for path in paths:
        pool.apply_async(worker, args=(path, args), callback=lambda _: bar.update(1))
    pool.close()
    pool.join()
    bar.close()
    with open(os.path.join(args["output_dir"], "files.txt"), "w") as f:
        f.write("\n".join(os.listdir(args["output_dir"])))  # expect: RPL402


if __name__ == "__main__":
    split_images({"inputs_dir": "data/DIV2K", "output_dir": "data/DIV2K_sub", "crop_size": 128, "step": 64,
                  "num_workers": 8})
