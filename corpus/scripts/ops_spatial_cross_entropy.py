"""Set-prediction detector and a token-level tagger trained on CUDA. Cross-entropy on
logits laid out (batch, classes, positions) -- a transposed (B, Q, C) tensor, a permuted
sequence, a 4-D map -- runs the spatial NLL kernel, whose CUDA forward accumulates with
atomics (no deterministic implementation). Logits flattened to (N, C) first take the
plain kernel, which is deterministic."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda")  # (no RPL301: no kernel that deterministic mode replaces)


class SetCriterion(nn.Module):
    def __init__(self, num_classes, eos_coef=0.1):
        super().__init__()
        empty_weight = torch.ones(num_classes + 1)
        empty_weight[-1] = eos_coef
        self.register_buffer("empty_weight", empty_weight)
        self.tagging = nn.CrossEntropyLoss(ignore_index=-100)
        self.flat = nn.CrossEntropyLoss(label_smoothing=0.1)

    def loss_labels(self, pred_logits, target_classes):
        src_logits = pred_logits
        return F.cross_entropy(src_logits.transpose(1, 2), target_classes, self.empty_weight)  # expect: RPL202

    def loss_tags(self, tag_logits, tags):
        per_token = tag_logits.permute(0, 2, 1)
        return self.tagging(per_token, tags)  # expect: RPL202

    def loss_tags_flat(self, tag_logits, tags):
        # (B*T, C) rows: the 1-D kernel
        return self.flat(tag_logits.reshape(-1, tag_logits.shape[-1]), tags.reshape(-1))

    def loss_nll(self, tag_logits, tags):
        return F.nll_loss(F.log_softmax(tag_logits, dim=-1).view(-1, tag_logits.size(-1)), tags.view(-1))

    def loss_swapped(self, seq_logits, tags):
        # a (T, B, C) -> (B, T, C) swap leaves the class dim last: nothing says it is spatial
        return F.cross_entropy(seq_logits.transpose(0, 1).flatten(0, 1), tags.flatten())

    def forward(self, outputs, targets):
        return (
            self.loss_labels(outputs["pred_logits"], targets["classes"])
            + self.loss_tags(outputs["tags"], targets["tags"])
            + self.loss_tags_flat(outputs["tags"], targets["tags"])
            + self.loss_nll(outputs["tags"], targets["tags"])
            + self.loss_swapped(outputs["tags"], targets["tags"])
        )


class Detector(nn.Module):
    def __init__(self, num_classes=91, queries=100, dim=64, tags=9):
        super().__init__()
        self.query = nn.Embedding(queries, dim)
        self.cls = nn.Linear(dim, num_classes + 1)
        self.tag = nn.Linear(dim, tags)

    def forward(self, feats):
        h = feats + self.query.weight
        return {"pred_logits": self.cls(h), "tags": self.tag(h)}


model = Detector().to(device)
criterion = SetCriterion(91).to(device)
seg_loss = nn.NLLLoss()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
for step in range(100):
    feats = torch.randn(2, 100, 64, device=device)
    targets = {
        "classes": torch.randint(0, 92, (2, 100), device=device),
        "tags": torch.randint(0, 9, (2, 100), device=device),
    }
    outputs = model(feats)
    loss = criterion(outputs, targets)
    heat = F.log_softmax(torch.randn(2, 5, 16, 16, device=device), dim=1)
    loss = loss + seg_loss(heat, torch.randint(0, 5, (2, 16, 16), device=device))  # expect: RPL202
    logits = outputs["pred_logits"].flatten(0, 1)
    loss = loss + F.cross_entropy(logits, targets["classes"].flatten())
    opt.zero_grad()
    loss.backward()
    opt.step()
