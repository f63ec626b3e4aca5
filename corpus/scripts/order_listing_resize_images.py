"""Image preprocessing before training: resize every image into an output folder (each
file on its own, with a progress count), next to loops whose file order reaches the
output: files named by their position, a random train/val split per file, a helper that
trains the model on each image."""
import os
import random
import shutil
import sys

from PIL import Image

SEEN = []


def resize_image(image, size):
    """Resize an image to the given size."""
    return image.resize(size, Image.BILINEAR)


def remember(image):
    SEEN.append(image.size)
    return image


def resize_images(image_dir, output_dir, size):
    images = os.listdir(image_dir)
    total = len(images)
    for i, name in enumerate(images):
        with open(os.path.join(image_dir, name), "r+b") as f:
            with Image.open(f) as img:
                img = resize_image(img, size)
                img.save(os.path.join(output_dir, name), img.format)
        if (i + 1) % 100 == 0:
            print("[{}/{}] resized into {}".format(i + 1, total, output_dir))


def number_images(image_dir, output_dir):
    images = os.listdir(image_dir)  # expect: RPL402
    for i, name in enumerate(images):
        with Image.open(os.path.join(image_dir, name)) as img:
            img.save(os.path.join(output_dir, f"{i:05d}.png"))


def split_images(image_dir, out_dir):
    for name in os.listdir(image_dir):  # expect: RPL402
        part = "val" if random.random() < 0.1 else "train"
        shutil.copy(os.path.join(image_dir, name), os.path.join(out_dir, part, name))


def record_sizes(image_dir):
    for name in os.listdir(image_dir):  # expect: RPL402
        with Image.open(os.path.join(image_dir, name)) as img:
            img = remember(img)
            img.save(os.path.join(image_dir, name))


if __name__ == "__main__":
    random.seed(0)
    resize_images(sys.argv[1], sys.argv[2], (256, 256))
    number_images(sys.argv[1], sys.argv[3])
    split_images(sys.argv[1], sys.argv[4])
    record_sizes(sys.argv[1])
