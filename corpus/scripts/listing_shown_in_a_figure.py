"""Fine-tuning notebook turned script: a few images of each class are shown before
training (which files the listing picks decides only what the figure shows), then the
training set is built from another listing, whose order is the sample order."""
import os

import matplotlib.pyplot as plt
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
root = "./hymenoptera_data/train/"
shown = [os.path.join(root, "ants", f) for f in os.listdir(root + "ants")[:4]]
shown += [os.path.join(root, "bees", f) for f in os.listdir(root + "bees")[:5]]
_, axes = plt.subplots(3, 3, figsize=(8, 8))
for i in range(3):
    for j in range(3):
        axes[i][j].imshow(Image.open(shown[3 * i + j]))
        axes[i][j].axis("off")
plt.show()


class Folder(Dataset):
    def __init__(self, folder):
        self.files = [os.path.join(folder, f) for f in os.listdir(folder)]  # expect: RPL402

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.load(self.files[i])


loader = DataLoader(Folder(root + "ants"), batch_size=4)
model = torch.nn.Linear(16, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for batch in loader:
    loss = model(batch).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
