"""A function torchvision's `transforms.Lambda` wraps runs on each CPU sample where the
dataset makes it, with no autograd graph: a reflection pad there (the CIFAR idiom
`transforms.Lambda(lambda x: F.pad(x.unsqueeze(0), (4, 4, 4, 4), mode="reflect"))`)
runs no CUDA backward, so RPL202 does not report it; the same pad of an activation in
the model does."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

PROGRAM = '''import torch
import torch.nn.functional as F
import torchvision.transforms as transforms
from torchvision import datasets


def pad(x):
    return PAD


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3 * 40 * 40, 10)

    def forward(self, x):
        return self.fc(FORWARD.flatten(1))


torch.manual_seed(0)
transform = transforms.Compose([transforms.ToTensor(), transforms.Lambda(WRAPPED)])
data = datasets.CIFAR10("data", train=True, download=True, transform=transform)
loader = torch.utils.data.DataLoader(data, batch_size=64, shuffle=True, num_workers=0)
model = Net().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    loss = F.cross_entropy(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
'''


def rpl202_lines(wrapped: str, forward: str = "x") -> list[int]:
    # `pad` holds the reflection pad only where the transform wraps it (a function no
    # program runs is library code, reported per site)
    body = 'F.pad(x.unsqueeze(0), (4, 4, 4, 4), mode="reflect").squeeze()' if wrapped == "pad" else "x"
    source = PROGRAM.replace("WRAPPED", wrapped).replace("FORWARD", forward).replace("PAD", body)
    return [d.span.start_line for d in check_source(source, "train.py") if d.code == "RPL202"]


@pytest.mark.parametrize("wrapped", [
    'lambda x: F.pad(x.unsqueeze(0), (4, 4, 4, 4), mode="reflect").squeeze()',
    "pad",
])
def test_a_pad_in_a_sample_transform_runs_no_cuda_backward(wrapped: str) -> None:
    assert rpl202_lines(wrapped) == []


def test_the_same_pad_in_the_model_is_reported() -> None:
    # of an activation (the batch scaled by a weight): a gradient flows back through it
    assert rpl202_lines("lambda x: x", 'F.pad(x * self.fc.weight.mean(), (4, 4, 4, 4), mode="reflect")') == [17]


def test_the_same_pad_of_the_batch_itself_runs_no_backward() -> None:
    # `model(x.cuda())` with the loader's batch: nothing that requires grad goes in
    assert rpl202_lines("lambda x: x", 'F.pad(x, (4, 4, 4, 4), mode="reflect")') == []
