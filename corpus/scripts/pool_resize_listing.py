"""Data preparation with a process pool: each photo is shrunk and saved under its own
name, the pool's results discarded, and a random backoff between downloads only decides
when; the order of the listing changes no output (look-alike: the manifest keeps the
pool's results in the listing's order)."""
import os
import time
from multiprocessing import Pool
from random import random

import requests
from PIL import Image


def shrink(item):
    try:
        with Image.open(item[0]) as im:
            im.thumbnail((224, 224))
            im.save("small/" + item[1], "PNG")
    except OSError:
        print("Error!")


def fetch(url):
    open(url.rsplit("/", 1)[-1], "wb").write(requests.get(url).content)
    time.sleep(random())


if __name__ == "__main__":
    for url in ["https://example.org/a.jpg", "https://example.org/b.jpg"]:
        fetch(url)
    images = []
    for name in os.listdir("photos"):
        images.append([os.path.join("photos", name), name])
    pool = Pool(processes=8)
    pool.map(shrink, images)
    sizes = pool.map(os.path.getsize, [os.path.join("small", n) for n in os.listdir("small")])  # expect: RPL402
    with open("manifest.txt", "w") as f:
        f.write("\n".join(str(s) for s in sizes))
