"""ml_collections config of a JAX-style sweep script, ported to torch: `config.seed`
defaults to 0, which the script always applies, so nothing is reported."""
import ml_collections
import torch


def get_config():
    config = ml_collections.ConfigDict()
    config.seed = 0
    config.width = 32
    return config


def main():
    config = get_config()
    if config.seed is not None:
        torch.manual_seed(config.seed)
    model = torch.nn.Linear(4, config.width)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model(torch.ones(2, 4)).sum().backward()
    opt.step()


if __name__ == "__main__":
    main()
