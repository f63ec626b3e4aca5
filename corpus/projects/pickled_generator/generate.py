"""Generates images with a pickled generator: the weights it would draw are overwritten,
the latents it samples are not seeded."""
import torch

import legacy


def main(network_pkl="network.pkl"):
    with open(network_pkl, "rb") as f:
        G = legacy.load_network_pkl(f)["G"]
    z = torch.randn([4, 16])  # expect: RPL101
    images = G(z)
    torch.save(images, "images.pt")


if __name__ == "__main__":
    main()
