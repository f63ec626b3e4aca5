import os


class ADE:
    def __init__(self, root):
        self.root = root
        self.images = sorted(os.listdir(os.path.join(root, "images")))

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return os.path.join(self.root, self.images[i])
