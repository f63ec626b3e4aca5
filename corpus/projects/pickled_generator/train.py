"""Trains the generator from scratch: it unpickles its training latents, not a network,
so its initial weights count, and torch is never seeded."""
import pickle

import torch

import networks


def main():
    with open("latents.pkl", "rb") as f:
        latents = pickle.load(f)
    G = networks.Generator()
    opt = torch.optim.Adam(G.parameters(), lr=2e-3)
    for step in range(1000):
        z = latents[step % len(latents)]
        loss = G(z).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with open("network.pkl", "wb") as f:
        pickle.dump({"G": G}, f)


if __name__ == "__main__":
    main()
