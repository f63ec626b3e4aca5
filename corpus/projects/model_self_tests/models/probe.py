"""The look-alike: a "self-test" that prints the logits themselves. They come from
unseeded random weights and a random input, so every run prints other numbers."""
import torch
import torch.nn as nn

if __name__ == "__main__":
    head = nn.Linear(64, 10)  # expect: RPL101
    logits = head(torch.randn(4, 64))  # expect: RPL101
    print(logits.softmax(-1))
