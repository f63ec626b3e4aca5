"""Trains with the yacs defaults. The seed runs only for a non-negative SEED, autotuning
follows CUDNN_BENCHMARK, and the solver's deterministic switch is off by default."""
import torch
from configs.defaults import get_cfg_defaults


def main():
    cfg = get_cfg_defaults()
    if cfg.SEED >= 0:
        torch.manual_seed(cfg.SEED)  # expect: RPL104
    torch.backends.cudnn.benchmark = cfg.CUDNN_BENCHMARK  # expect: RPL203
    if cfg.SOLVER.DETERMINISTIC:
        torch.use_deterministic_algorithms(True)
        torch.backends.cudnn.deterministic = True
    model = torch.nn.Conv2d(3, cfg.MODEL.CHANNELS, 3).cuda()  # expect: RPL302
    opt = torch.optim.SGD(model.parameters(), lr=cfg.SOLVER.BASE_LR)
    for _ in range(10):
        loss = model(torch.ones(2, 3, 8, 8).cuda()).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
