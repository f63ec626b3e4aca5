"""Look-alike of lightning_dict_cfg_benchmark.py: the dict turns benchmark off."""
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
    trainer_cfg = dict(max_epochs=5, accelerator="gpu", benchmark=False, deterministic=True)
    data = TensorDataset(torch.randn(600, 1, 64), torch.randint(0, 3, (600,)))
    loader = DataLoader(data, batch_size=32, shuffle=True)
    trainer = L.Trainer(**trainer_cfg)
    trainer.fit(LitClassifier(), loader)
