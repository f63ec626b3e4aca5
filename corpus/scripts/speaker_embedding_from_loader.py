"""A text-to-speech style model trained on CUDA: each batch brings a speaker embedding
computed offline, which the encoder tiles along the text with `repeat_interleave` and
concatenates to its output. The embedding comes from the DataLoader, through
`model(texts, embeds)`, `Tacotron.forward` and `Encoder.forward`: it requires no grad, so
the backward of `repeat_interleave` (nondeterministic on CUDA before torch 2.1 where the
repeats are a tensor) never runs. The rest is linear layers: no RPL301, no RPL302."""
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
        self.encoder = Encoder(vocab, dims)
        self.decoder = nn.Linear(dims + speaker_dims, mels)

    def forward(self, texts, speaker_embedding):
        return self.decoder(self.encoder(texts, speaker_embedding))


def main():
    torch.manual_seed(0)
    device = torch.device("cuda")
    model = Tacotron().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = TensorDataset(torch.randint(0, 40, (64, 12)), torch.rand(64, 8), torch.rand(64, 12, 20))
    loader = DataLoader(data, batch_size=8)
    for epoch in range(3):
        for i, (texts, embeds, mels) in enumerate(loader, 1):
            texts, embeds, mels = texts.to(device), embeds.to(device), mels.to(device)
            loss = F.mse_loss(model(texts, embeds), mels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
