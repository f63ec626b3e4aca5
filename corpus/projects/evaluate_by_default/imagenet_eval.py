"""An evaluation script that builds an optimizer, then validates and returns: `--evaluate`
is on by default, so its training loop (and any cuDNN backward) runs only when a user
turns it off. The benchmark flag still picks forward kernels per run."""
import argparse

import torch
import torch.backends.cudnn as cudnn

parser = argparse.ArgumentParser()
parser.add_argument("-e", "--evaluate", dest="evaluate", default=True, action="store_true")
parser.add_argument("--epochs", type=int, default=90)


def main():
    args = parser.parse_args()
    torch.manual_seed(0)
    cudnn.benchmark = True  # expect: RPL203
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU(), torch.nn.Flatten()).cuda()
    model.load_state_dict(torch.load("checkpoint.pth"))
    optimizer = torch.optim.SGD(model.parameters(), 0.1)
    images = torch.load("val_images.pt").cuda()
    if args.evaluate:
        model.eval()
        with torch.no_grad():
            print(model(images).argmax(1).tolist())
        return
    for epoch in range(args.epochs):
        loss = model(images).logsumexp(1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    torch.save(model.state_dict(), "checkpoint.pth")


if __name__ == "__main__":
    main()
