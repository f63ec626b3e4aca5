"""Look-alike: the parameter defaults to smooth (bicubic) upsampling, but this program passes
`bilinear=args.bilinear`, off by default, so it trains the transposed convolution (no
RPL202). Everything is seeded and cuDNN is made deterministic."""
import argparse

import torch

from model import Decoder


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bilinear", action="store_true")
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    model = Decoder(8, bilinear=args.bilinear).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.ones(2, 8, 8, 8).cuda()).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
