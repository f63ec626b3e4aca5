"""Inference over a folder of images with a trained classifier: every image is
predicted in turn (the file order only orders the printed lines), next to look-alikes
that score the first hundred files of the folder or stop after ten: subsets chosen by
file-system order."""
import os
import sys

import torch
from PIL import Image
from torchvision import models, transforms

preprocess = transforms.Compose([transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor()])
model = models.resnet18(num_classes=10)
model.load_state_dict(torch.load(sys.argv[1], map_location="cpu"))
model.eval()

with torch.no_grad():
    for name in os.listdir(sys.argv[2]):
        image = preprocess(Image.open(os.path.join(sys.argv[2], name)).convert("RGB"))
        print(name, model(image.unsqueeze(0)).argmax(1).item())

    sample = os.listdir(sys.argv[3])[:100]  # expect: RPL402
    correct = 0
    for name in sample:
        label = int(name.split("_")[0])
        image = preprocess(Image.open(os.path.join(sys.argv[3], name)).convert("RGB"))
        correct += int(model(image.unsqueeze(0)).argmax(1).item() == label)
    print("accuracy on a sample:", correct / len(sample))

    shown = 0
    for name in os.listdir(sys.argv[4]):  # expect: RPL402
        image = preprocess(Image.open(os.path.join(sys.argv[4], name)).convert("RGB"))
        print(name, model(image.unsqueeze(0)).argmax(1).item())
        shown += 1
        if shown == 10:
            break
