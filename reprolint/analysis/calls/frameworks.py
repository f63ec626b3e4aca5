"""High-level trainers: Lightning, Hugging Face, Accelerate (what they select and set)."""

from __future__ import annotations

from typing import Any

from reprolint.analysis.calls import CallSite, on_call

LIGHTNING_TRAINERS = frozenset({
    "lightning.Trainer", "lightning.pytorch.Trainer", "pytorch_lightning.Trainer",
    "lightning.pytorch.trainer.Trainer", "pytorch_lightning.trainer.Trainer",
})
FABRIC = frozenset({"lightning.Fabric", "lightning.fabric.Fabric", "lightning_fabric.Fabric"})
HF_ARGS = frozenset({
    "transformers.TrainingArguments", "transformers.Seq2SeqTrainingArguments",
    "transformers.training_args.TrainingArguments",
})
HF_TRAINERS = frozenset({
    "transformers.Trainer", "transformers.Seq2SeqTrainer", "transformers.trainer.Trainer",
    "trl.SFTTrainer",
})


def _literal(node: Any) -> Any:
    from reprolint.analysis.facts import _literal as literal

    return literal(node)


@on_call(*LIGHTNING_TRAINERS, *FABRIC)
def _lightning(c: Any, site: CallSite) -> None:
    from reprolint.analysis.usage import _literal_kwargs, lits_get

    node, kwargs = site.node, site.kwargs
    lits = _literal_kwargs(node)
    if _literal(kwargs.get("accelerator")) != "cpu" and _literal(kwargs.get("gpus", 1)) not in (0, None):
        c._u_emit("cuda", f"`{c.text(node.func)}(...)`", node)
    if site.qualname in LIGHTNING_TRAINERS:
        c._u_emit("lightning", site.qualname, node, kwargs=lits)
        if lits_get(lits, "benchmark") is True:
            c._u_emit("flag", "cudnn.benchmark", node, value=True)


@on_call(*HF_ARGS)
def _hf_args(c: Any, site: CallSite) -> None:
    from reprolint.analysis.usage import _literal_kwargs, lits_get

    lits = _literal_kwargs(site.node)
    c._u_emit("hf-args", site.qualname, site.node, kwargs=lits)
    if not (lits_get(lits, "use_cpu") is True or lits_get(lits, "no_cuda") is True):
        c._u_emit("cuda", f"`{c.text(site.node.func)}(...)`", site.node)


@on_call(*HF_TRAINERS)
def _hf_trainer(c: Any, site: CallSite) -> None:
    c._u_emit("hf-trainer", site.qualname, site.node)
    c._u_emit("cuda", f"`{c.text(site.node.func)}(...)`", site.node)
    c._u_emit("train", "torch", site.node)


@on_call("accelerate.Accelerator")
def _accelerator(c: Any, site: CallSite) -> None:
    if _literal(site.kwargs.get("cpu")) is not True:
        c._u_emit("cuda", "`Accelerator()`", site.node)
