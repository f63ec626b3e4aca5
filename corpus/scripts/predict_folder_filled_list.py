"""A detector's inference script: the images of a folder (or one image) are collected
into a list, filtered by extension, and each is predicted and written under its own name,
so the listing order changes no output (look-alike: the preview takes the first ten
results in the listing's order)."""
import argparse
import os

import cv2
import numpy as np
from keras.models import load_model


def main(args):
    model = load_model(args.weights)
    paths = []
    if os.path.isdir(args.input):
        for name in os.listdir(args.input):
            paths += [os.path.join(args.input, name)]
    else:
        paths += [args.input]
    paths = [p for p in paths if p[-4:] in (".jpg", ".png")]
    for path in paths:
        image = cv2.imread(path)
        boxes = model.predict(image[None].astype(np.float32) / 255.0)[0]
        cv2.imwrite(os.path.join(args.output, os.path.basename(path)), np.uint8(image * (boxes.max() > 0.5)))
    shown = [f for f in os.listdir(args.output) if f.endswith(".jpg")]  # expect: RPL402
    preview = np.concatenate([cv2.imread(os.path.join(args.output, f)) for f in shown[:10]], axis=1)
    cv2.imwrite("preview.jpg", preview)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--input", default="images/")
    parser.add_argument("--output", default="output/")
    parser.add_argument("--weights", default="yolo.h5")
    main(parser.parse_args())
