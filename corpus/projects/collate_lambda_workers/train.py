import functools

import torch

from data import load


def main():
    torch.manual_seed(0)
    samples = [torch.zeros(3) for _ in range(64)]
    train = torch.utils.data.DataLoader(
        samples, batch_size=8, shuffle=True, num_workers=4,
        collate_fn=lambda batch: load(batch, 1),
    )
    valid = torch.utils.data.DataLoader(
        samples, batch_size=8, num_workers=2, collate_fn=functools.partial(load, offset=0),
    )
    model = torch.nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in train:
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        print(sum(model(x).sum() for x in valid))


if __name__ == "__main__":
    main()
