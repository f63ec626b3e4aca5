"""A Lightning 1.5 classifier (the README's command runs it as is): seeded with
`seed_everything`, trained on the CPU (no GPUs asked for, and Lightning before 2.0 does
not pick one itself), so `deterministic` would change no kernel; the fine-tuning run
asks for a GPU and leaves `deterministic` at False."""
import pytorch_lightning as pl
import torch


class Classifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 8, 3)
        self.head = torch.nn.Linear(8 * 26 * 26, 10)

    def forward(self, x):
        return self.head(self.conv(x).flatten(1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.cross_entropy(self(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    pl.seed_everything(1234, workers=True)
    data = torch.load("mnist_loader.pt")
    pl.Trainer(max_epochs=5).fit(Classifier(), data)
    finetune = pl.Trainer(max_epochs=1, gpus=1)  # expect: RPL306
    finetune.fit(Classifier(), data)
