"""Two-layer GCN on a citation graph; neighbour sums with index_add_ / scatter_add on the GPU."""
import argparse

import torch
import torch.nn as nn


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        src, dst = edge_index
        out = torch.zeros(x.size(0), self.lin.out_features, device=x.device)
        out.index_add_(0, dst, self.lin(x)[src])  # (evidence of the program's RPL301, reported there)
        deg = torch.zeros(x.size(0), device=x.device).scatter_add(0, dst, torch.ones_like(dst, dtype=torch.float))  # (evidence of the program's RPL301, reported there)
        return out / deg.clamp(min=1).unsqueeze(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # expect: RPL301
    data = torch.load("cora.pt")
    x, edge_index, y = data["x"].to(device), data["edge_index"].to(device), data["y"].to(device)
    layers = nn.ModuleList([GCNLayer(x.size(1), 64), GCNLayer(64, 7)]).to(device)
    opt = torch.optim.Adam(layers.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        h = torch.relu(layers[0](x, edge_index))
        loss = nn.functional.cross_entropy(layers[1](h, edge_index), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
