"""Data preparation: each annotated cat photo is straightened and cropped by helpers that
call another helper, and written next to the input under its own name; the listing
order changes no output file (look-alike: the index file below lists the crops in
listing order)."""
import glob
import math

import cv2


def rotate(coords, center, angle):
    cos, sin = math.cos(angle), math.sin(angle)
    out = []
    for x, y in zip(coords[::2], coords[1::2]):
        out += [(x - center[0]) * cos - (y - center[1]) * sin + center[0],
                (x - center[0]) * sin + (y - center[1]) * cos + center[1]]
    return out


def crop_face(coords, image):
    center = ((coords[0] + coords[2]) / 2, (coords[1] + coords[3]) / 2)
    angle = math.atan2(coords[3] - coords[1], coords[2] - coords[0])
    straight = cv2.warpAffine(image, cv2.getRotationMatrix2D(center, angle * 180 / math.pi, 1.0), image.shape[1::-1])
    coords = rotate(coords, center, angle)
    width = abs(coords[16] - coords[6])
    return straight[int(center[1] - width / 2):int(center[1] + width / 2), int(center[0] - width / 2):int(center[0] + width / 2)]


for path in glob.glob("cat_dataset/*.jpg"):
    with open(path + ".cat") as f:
        coords = [int(v) for v in f.readline().split()[1:]]
    face = crop_face(coords, cv2.imread(path))
    if min(face.shape[:2]) >= 64:
        cv2.imwrite(path.replace("cat_dataset", "cats_64"), cv2.resize(face, (64, 64)))

with open("cats_64/index.txt", "w") as index:
    for path in glob.glob("cats_64/*.jpg"):  # expect: RPL402
        index.write(path + "\n")
