"""Look-alike of lightning_from_argparse_args.py: the project's own option turns
`deterministic` on by default, and `**vars(args)` passes it to the Trainer."""
from argparse import ArgumentParser

import pytorch_lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class LitClassifier(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 5), nn.ReLU(), nn.Flatten(), nn.LazyLinear(3))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.cross_entropy(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)



def main():
    parser = ArgumentParser()
    parser.add_argument("--max_epochs", type=int, default=5)
    parser.add_argument("--deterministic", type=bool, default=True)
    args = parser.parse_args()
    L.seed_everything(7, workers=True)
    data = TensorDataset(torch.randn(600, 1, 64), torch.randint(0, 3, (600,)))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    trainer = L.Trainer(**vars(args))
    trainer.fit(LitClassifier(), loader)


if __name__ == "__main__":
    main()
