"""Lightning classifier: seeded, but the Trainer keeps its defaults and autotunes cuDNN."""
import lightning as L
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


if __name__ == "__main__":
    L.seed_everything(42, workers=True)
    data = TensorDataset(torch.randn(600, 1, 64), torch.randint(0, 3, (600,)))
    loader = DataLoader(data, batch_size=32, shuffle=True, num_workers=2)
    trainer = L.Trainer(max_epochs=5, accelerator="gpu", devices=1, benchmark=True)  # expect: RPL203, RPL306
    trainer.fit(LitClassifier(), loader)
