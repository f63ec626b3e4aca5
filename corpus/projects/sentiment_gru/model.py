import torch
import torch.nn as nn


class GRUClassifier(nn.Module):
    def __init__(self, vocab_size, emb_dim=128, hidden=256, num_classes=2, dropout=0.3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.gru = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(2 * hidden, num_classes)

    def forward(self, x):
        out, _ = self.gru(self.embedding(x))
        pooled = out.max(dim=1).values
        return self.fc(self.dropout(pooled))


def predict(model, x):
    with torch.no_grad():
        return model(x).argmax(-1)
