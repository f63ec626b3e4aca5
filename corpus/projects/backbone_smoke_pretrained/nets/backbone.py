"""A backbone whose constructor loads its pretrained weights (a method of the class), with
a smoke run in `__main__` that feeds a random image and prints shapes: a library
module's demo, not an evaluation script (nothing to report)."""
import torch
import torch.nn as nn
import torch.utils.model_zoo as model_zoo

URL = "https://example.org/backbone-1234.pth"


class Backbone(nn.Module):
    def __init__(self, pretrained=True):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.head = nn.Linear(16, 8)
        if pretrained:
            self._load_pretrained()

    def _load_pretrained(self):
        self.load_state_dict(model_zoo.load_url(URL))

    def forward(self, x):
        return self.head(self.stem(x).mean(dim=(2, 3)))


if __name__ == "__main__":
    image = torch.rand(1, 3, 64, 64)
    print(Backbone()(image).size())
