"""Word-level LSTM language model (after pytorch/examples/word_language_model)."""
import argparse
import math

import torch
import torch.nn as nn


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=200, nhid=200, nlayers=2, dropout=0.2, tie_weights=True):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.init_weights()

    def init_weights(self, initrange=0.1):
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)

    def forward(self, x, hidden):
        output, hidden = self.rnn(self.drop(self.encoder(x)), hidden)
        return self.decoder(self.drop(output)), hidden


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i : i + seq_len], source[i + 1 : i + 1 + seq_len].reshape(-1)


def main():
    parser = argparse.ArgumentParser(description="PyTorch LSTM language model")
    parser.add_argument("--data", default="data/wikitext-2/train.pt")
    parser.add_argument("--ntokens", type=int, default=33278)
    parser.add_argument("--bptt", type=int, default=35)
    parser.add_argument("--lr", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1111)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # expect: RPL302  (no RPL301: no kernel that deterministic mode replaces)

    train_data = batchify(torch.load(args.data), 20).to(device)
    model = RNNModel(args.ntokens).to(device)
    criterion = nn.NLLLoss()
    model.train()
    hidden = None
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
        data, targets = get_batch(train_data, i, args.bptt)
        model.zero_grad()
        output, hidden = model(data, hidden)
        hidden = tuple(h.detach() for h in hidden)
        loss = criterion(torch.log_softmax(output, -1).view(-1, args.ntokens), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-args.lr)
        if batch % 200 == 0:
            print(f"batch {batch} loss {loss.item():.2f} ppl {math.exp(loss.item()):.2f}")


if __name__ == "__main__":
    main()
