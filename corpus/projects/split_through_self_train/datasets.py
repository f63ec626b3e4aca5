import random

from PIL import Image


class Transforms:
    def __init__(self, split, crop):
        self.split = split.lower()
        self.crop = crop

    def __call__(self, img):
        if self.split == "train":
            left = random.randint(0, img.width - self.crop)  # expect: RPL101
            top = random.randint(0, img.height - self.crop)  # expect: RPL101
            return img.crop((left, top, left + self.crop, top + self.crop))
        return img.crop((0, 0, self.crop, self.crop))


class Images:
    def __init__(self, files, split):
        self.files = files
        self.split = split.lower()
        self.transform = Transforms(split=self.split, crop=96)

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return self.transform(Image.open(self.files[i]))
