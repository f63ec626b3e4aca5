"""Evaluation only, shaped like pytorch/examples' word-language-model `evaluate()`.

No optimizer step: a seeded model is evaluated batch by batch, each batch's wall time
is printed next to the loss (`| ms/batch 810.43 | loss 7.84 |`), and the model is saved
with `torch.save`. The first line is the time the evaluation started, to the
microsecond, so the first difference between two runs is always on line 1 (a batch's
`ms/batch` may round to the same value twice). The timings differ on every run; the
losses and the saved weights do not. `--unseeded` leaves torch unseeded, so the weights
and losses differ too.
"""

import argparse
import time
from datetime import datetime

import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab=50, hidden=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return self.head(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--unseeded", action="store_true")
    parser.add_argument("--save", default="model.pt")
    args = parser.parse_args(argv)

    if not args.unseeded:
        torch.manual_seed(1111)
    model = TinyLM()
    data = torch.randint(0, 50, (8, 12), generator=torch.Generator().manual_seed(0))
    model.eval()
    print(f"| evaluation started {datetime.now().isoformat()} |")
    with torch.no_grad():
        for batch in range(4):
            start = time.perf_counter()
            tokens = data[batch * 2:batch * 2 + 2]
            logits = model(tokens[:, :-1])
            loss = nn.functional.cross_entropy(logits.reshape(-1, 50), tokens[:, 1:].reshape(-1))
            elapsed = (time.perf_counter() - start) * 1000
            print(f"| batch {batch} | ms/batch {elapsed:5.2f} | loss {loss.item():5.2f} |")
    torch.save(model.state_dict(), args.save)


if __name__ == "__main__":
    main()
