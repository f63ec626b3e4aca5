import torch

from models.fcn import get_fcn

torch.manual_seed(0)
model = get_fcn()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    loss = model(torch.randn(4, 3, 64, 64))[0].mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
