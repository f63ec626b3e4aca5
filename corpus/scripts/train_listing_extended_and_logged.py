"""Training on image folders: a listing extended with `+=` is one listing (sorted later:
nothing; sliced unsorted: reported at the listing that started it), and a listing shown
in a log line with words around it only reaches the log, as does a bare `print(files)` in
code that prints log lines with words elsewhere; in code whose prints are all bare values,
`print(files)` hands the listing to the output as is."""
import glob
import os
import sys

import torch
from PIL import Image
from torchvision import transforms

torch.manual_seed(0)
to_tensor = transforms.ToTensor()

checkpoints = glob.glob(os.path.join(sys.argv[1], "*.pth.tar"))
checkpoints += glob.glob(os.path.join(sys.argv[1], "*.pth"))
runs = [(name, 0.0) for name in sorted(checkpoints)]
resume = runs[-1][0] if runs else None

images = glob.glob(os.path.join(sys.argv[2], "*.png"))  # expect: RPL402
images += glob.glob(os.path.join(sys.argv[2], "*.jpg"))
train_files, val_files = images[:800], images[800:]

found = os.listdir(sys.argv[3])
masters = [f for f in found if f.endswith("rank0")]
print(f"master checkpoints found in {sys.argv[3]}: {masters}")
latest = max([os.path.join(sys.argv[3], f) for f in masters], key=os.path.getmtime)



def list_folder(folder):
    shown = os.listdir(folder)  # expect: RPL402
    print(shown)


def convert_folder(folder, out):
    scenes = os.listdir(folder)
    print(scenes)
    for scene in scenes:
        print("converting", scene)
        os.rename(os.path.join(folder, scene), os.path.join(out, scene))


list_folder(sys.argv[4])
convert_folder(sys.argv[5], sys.argv[6])

model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.LazyLinear(2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
if resume is not None:
    model.load_state_dict(torch.load(resume))
for path in train_files:
    x = to_tensor(Image.open(path).convert("RGB"))[None]
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
torch.save(model.state_dict(), latest)
