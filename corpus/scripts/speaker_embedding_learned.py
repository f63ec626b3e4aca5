"""The look-alike of speaker_embedding_from_loader.py: the speaker embedding is learned
(`nn.Embedding` of the speaker ids each batch brings), so the gradient flows back through
the encoder's `repeat_interleave` of it, whose backward (tensor repeats) accumulates with
atomic adds on CUDA: RPL301."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Encoder(nn.Module):
    def __init__(self, vocab, dims):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dims)
        self.proj = nn.Linear(dims, dims)

    def forward(self, texts, speaker_embedding):
        x = self.proj(self.embedding(texts))
        return self.add_speaker_embedding(x, speaker_embedding)

    def add_speaker_embedding(self, x, speaker_embedding):
        repeats = torch.full((speaker_embedding.size(0),), x.size(1), device=x.device)
        tiled = speaker_embedding.repeat_interleave(repeats, dim=0)
        tiled = tiled.reshape(x.size(0), x.size(1), -1)
        return torch.cat((x, tiled), 2)


class Tacotron(nn.Module):
    def __init__(self, vocab=40, dims=16, speaker_dims=8, mels=20):
        super().__init__()
        self.speakers = nn.Embedding(100, speaker_dims)
        self.encoder = Encoder(vocab, dims)
        self.decoder = nn.Linear(dims + speaker_dims, mels)

    def forward(self, texts, speaker_ids):
        speaker_embedding = self.speakers(speaker_ids)
        return self.decoder(self.encoder(texts, speaker_embedding))


def main():
    torch.manual_seed(0)
    device = torch.device("cuda")  # expect: RPL301
    model = Tacotron().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = TensorDataset(torch.randint(0, 40, (64, 12)), torch.randint(0, 100, (64,)), torch.rand(64, 12, 20))
    loader = DataLoader(data, batch_size=8)
    for epoch in range(3):
        for i, (texts, speakers, mels) in enumerate(loader, 1):
            texts, speakers, mels = texts.to(device), speakers.to(device), mels.to(device)
            loss = F.mse_loss(model(texts, speakers), mels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
