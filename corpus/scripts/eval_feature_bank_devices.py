"""Sums the features of each class for a nearest-class-mean evaluation, on the GPU or on
the CPU when the user says so. `index_add_` is nondeterministic on CUDA (atomic adds in
any order); the CPU branch moves its index and rows to the CPU where it passes them, and
the tensors of one op share a device, so that call runs the CPU kernel, which adds in
order."""
import sys

import torch


def class_sums(model, loader, classes, use_cuda):
    sums = torch.zeros(classes, 128)
    if use_cuda:
        sums = sums.cuda()
    for images, labels in loader:
        rows = model(images.cuda())
        if use_cuda:
            sums.index_add_(0, labels.cuda(), rows)  # expect: RPL201
        else:
            sums.index_add_(0, labels.cpu(), rows.cpu())
    return sums


if __name__ == "__main__":
    net = torch.load(sys.argv[1], weights_only=False).cuda().eval()
    data = torch.load(sys.argv[2], weights_only=False)
    with torch.no_grad():
        means = class_sums(net, data, 1000, use_cuda=sys.argv[3] == "gpu")
    torch.save(means, "means.pt")
