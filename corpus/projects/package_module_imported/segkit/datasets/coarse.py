"""The registry lists it (look-alike of package_module_unimported): its walk order is the index order."""
import os


class Coarse:
    def __init__(self, root):
        self.images = []
        for folder, _, files in os.walk(root):  # expect: RPL402
            for name in files:
                self.images.append(os.path.join(folder, name))

    def __getitem__(self, i):
        return self.images[i]
