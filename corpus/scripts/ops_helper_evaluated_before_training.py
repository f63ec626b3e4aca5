"""A sanity evaluation under `@torch.no_grad()` runs before training and calls the same
helper the training step calls. The helper's `index_add_` first runs without gradients,
then in every training step: it is on the training path, so the program's RPL301 names
it. (A body runs once per program in the analysis, with its first caller's context: an
analysis that dropped ops first reached from inference code would miss this one.)"""
import torch


def pooled(net, x, idx):
    return torch.zeros_like(x).index_add_(0, idx, net(x))


@torch.no_grad()
def evaluate(net, x, idx):
    return pooled(net, x, idx).sum().item()


torch.manual_seed(0)
net = torch.nn.Linear(8, 8).cuda()  # expect: RPL301
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x, idx = torch.randn(64, 8).cuda(), torch.randint(0, 16, (64,)).cuda()
print("before training:", evaluate(net, x, idx))
for step in range(100):
    loss = pooled(net, x, idx).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
