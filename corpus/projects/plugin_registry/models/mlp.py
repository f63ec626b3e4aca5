import torch.nn as nn

from models import register_model


@register_model("mlp")
class MLP(nn.Module):
    @staticmethod
    def add_args(parser):
        parser.add_argument("--hidden", type=int, default=64)

    def __init__(self, args):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 1))

    def forward(self, x):
        return self.net(x)
