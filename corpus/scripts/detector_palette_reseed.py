"""A detector's drawing helper fixes NumPy's seed to shuffle a colour palette the same
way every time, then reseeds NumPy from entropy (`np.random.seed(None)`) to leave the
global generator as it found it. Nothing draws from NumPy after that on this inference
path, so the entropy reseed changes no output (nothing to report)."""
import colorsys
import sys

import numpy as np
from PIL import Image, ImageDraw


def palette(n):
    hsv = [(i / n, 1.0, 1.0) for i in range(n)]
    colours = [tuple(int(255 * c) for c in colorsys.hsv_to_rgb(*h)) for h in hsv]
    np.random.seed(10101)
    np.random.shuffle(colours)
    np.random.seed(None)
    return colours


def draw_boxes(image, boxes, classes, colours):
    canvas = ImageDraw.Draw(image)
    for (x0, y0, x1, y1), c in zip(boxes, classes):
        canvas.rectangle([x0, y0, x1, y1], outline=colours[c])
    return image


if __name__ == "__main__":
    detections = np.load(sys.argv[2])
    image = draw_boxes(Image.open(sys.argv[1]), detections["boxes"], detections["classes"], palette(80))
    image.save("detections.png")
