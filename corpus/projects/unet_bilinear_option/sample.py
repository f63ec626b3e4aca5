"""Another program of the same project builds the decoder with its default (bicubic upsampling)
and trains it: the op without a deterministic CUDA backward runs there."""
import torch

from model import Decoder

torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
model = Decoder(8).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.ones(2, 8, 8, 8).cuda()).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
