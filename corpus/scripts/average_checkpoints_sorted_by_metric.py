"""Fine-tunes from the best checkpoint of a run: by default (`--no-sort` not given) the
glob is read in a loop that only loads each file's metric and collects `(metric, path)`
pairs, which are then sorted, so the file system's order reaches nothing; only with
`--no-sort` does the glob's own order pick the checkpoint (a branch the default run
skips). The look-alike below picks a teacher as the second file of another glob on every
run."""
import argparse
import glob

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--input", default="output/train")
parser.add_argument("--no-sort", dest="sort", action="store_false")
parser.add_argument("-n", type=int, default=10)


def checkpoint_metric(path):
    return torch.load(path, map_location="cpu").get("metric")


def main():
    args = parser.parse_args()
    checkpoints = glob.glob(args.input + "/*.pth.tar")
    if args.sort:
        metrics = []
        for path in checkpoints:
            metric = checkpoint_metric(path)
            if metric is not None:
                metrics.append((metric, path))
        chosen = [path for _, path in sorted(metrics)[-args.n:]]
    else:
        chosen = checkpoints
    model = torch.nn.Linear(8, 2)
    model.load_state_dict(torch.load(chosen[-1], map_location="cpu")["state_dict"])
    teachers = glob.glob("output/teachers/*.pth.tar")  # expect: RPL402
    teacher = torch.load(teachers[1], map_location="cpu")
    torch.manual_seed(0)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(100):
        x = torch.randn(16, 8)
        loss = (model(x) - teacher["scale"] * x[:, :2]).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
