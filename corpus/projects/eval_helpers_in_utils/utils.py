"""Shared helpers of a self-supervised project: the training script imports this module
for `grad_norm_clip`, and the evaluation script calls `multi_scale` from a function
that runs under `torch.no_grad()`. No call of the training program reaches
`multi_scale`, so its bilinear resize is no part of training; the evaluation runs it
without gradients. `blur_targets` is called by training: its backward runs."""
import torch
from torch import nn


def grad_norm_clip(model, limit):
    return torch.nn.utils.clip_grad_norm_(model.parameters(), limit)


def multi_scale(samples, model):
    out = None
    for s in (1, 0.5):
        inp = samples if s == 1 else nn.functional.interpolate(samples, scale_factor=s, mode="bilinear")
        feats = model(inp)
        out = feats if out is None else out + feats
    return out / 2


def blur_targets(features):
    return nn.functional.interpolate(features, scale_factor=0.5, mode="bicubic")  # expect: RPL202
