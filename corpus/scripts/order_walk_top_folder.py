"""Class folders taken from the first triple of `os.walk`: that triple is always the top
folder's own, but its lists of subfolders and files come in the file system's order.
Sorted, or only counted, they are the same everywhere; indexed or numbered as they come,
they are not."""
import os
import sys

import torch
from torchvision import datasets, transforms

root = sys.argv[1]

classes = sorted(next(os.walk(root))[1])
class_to_idx = {name: i for i, name in enumerate(classes)}

top, subfolders, loose_files = next(os.walk(root))
print(f"{len(subfolders)} classes, {len(loose_files)} loose files under {top}")

walker = os.walk(os.path.join(root, "extra"))
_, extra_folders, _ = next(walker)
print(sorted(extra_folders))

_, splits, _ = os.walk(os.path.join(root, "splits")).__next__()  # expect: RPL402
holdout = splits[0]

label_names = next(os.walk(os.path.join(root, "labels")))[2]  # expect: RPL402
label_of = {name: i for i, name in enumerate(label_names)}

torch.manual_seed(0)
data = datasets.ImageFolder(os.path.join(root, holdout), transform=transforms.ToTensor())
loader = torch.utils.data.DataLoader(data, batch_size=32, shuffle=True)
for images, targets in loader:
    print(images.shape, [label_of.get(str(t.item()), -1) for t in targets], class_to_idx)
