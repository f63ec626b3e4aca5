from __future__ import annotations

from typing import Iterator

from reprolint.analysis.determinism import program_usages
from reprolint.analysis.usage_events import CudnnLayer, FlagSet
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid
from reprolint.checks.flags._common import cudnn_disabled, report_per_cuda_site, trains_head_only
from reprolint.fixes.determinism import determinism_available, determinism_level, plan_determinism
from reprolint.model import Applicability


class MissingCudnnDeterministic(Rule):
    """
    ## What it does
    Reports a torch program that uses cuDNN and never sets
    `cudnn.deterministic = True` / `cudnn.benchmark = False`.

    A program uses cuDNN when it uses CUDA (see RPL301) and builds what the torch
    docs name as cuDNN's nondeterministic kernels: convolutions, transposed
    convolutions or RNN/LSTM/GRU layers (`nn.*` or `nn.functional.*`), or a
    `torchvision.models`/`timm` model (convolutional), or sets a `torch.backends.cudnn`
    flag (which programs do when they run cuDNN through a model the source does not
    show). Batch norm alone does not count: its cuDNN kernels are not among them. A
    program whose default run turns cuDNN off (`torch.backends.cudnn.enabled = False`,
    or `= args.enable_cudnn` with a `store_true` option) runs torch's own kernels: not
    reported (nor is its `cudnn.benchmark`, RPL203).
    Training programs only (not tests, demos or
    evaluation scripts: cuDNN's nondeterministic kernels are backward ones), and only
    where a torch training step runs with the default options (`backward`, an optimizer
    step): a notebook that embeds text with a torch encoder and trains a Keras classifier
    on the embeddings runs no torch backward kernel; a script that builds a model and runs it forward, or backpropagates only
    with an option that is off by default (`--profile`), trains nothing; nor does a
    linear probe train a convolution: a model frozen but for its head (`if name not in
    ["fc.weight", "fc.bias"]: param.requires_grad = False`, or frozen whole and its
    `head` made trainable again or replaced by a new layer, `model.fc = nn.Linear(n, 2)`)
    whose only optimizer (a learning-rate scheduler is none) gets what still requires
    grad or the head's parameters runs no backward kernel before the head (a model frozen with no
    head kept, a diffusion script's VAE, says nothing of what else trains). It is
    reported once per program, at the first line that
    selects the GPU. `torch.use_deterministic_algorithms(True)` (which implies
    deterministic cuDNN algorithms), `torch.backends.cudnn.flags(deterministic=True)`,
    Lightning `Trainer(deterministic=True)` and Hugging Face full determinism count; a
    setting behind a condition that is false by default does not, and the message says
    so ("sets ... only when `args.deterministic`, which is false with the default
    options"), with the setting as a related location. A program that runs
    on CUDA only when the user passes an option is reported, naming it (as RPL301). Autotuning
    (`benchmark = True`) is reported separately as RPL203. Programs whose loop is run
    by a Lightning or Hugging Face `Trainer` are left to RPL306.

    Spawned workers: `cudnn.deterministic = True` set only in the parent (its `__main__` block or the
    function that spawns) does not reach workers started by
    `torch.multiprocessing.spawn(worker, ...)` (or a `Process` with the `spawn` start
    method), which are fresh interpreters. When such a worker trains on CUDA and does
    not set it itself, it is reported at the spawn, naming the parent's setting (no fix:
    the setting belongs inside the worker).

    ## Why is this bad?
    By default cuDNN may choose convolution and RNN algorithms that accumulate with
    atomics, so forward and especially backward passes differ from run to run; Pham et
    al. measured up to 2.9% accuracy spread from such implementation-level
    nondeterminism with all seeds fixed.

    Mitigation: `torch.backends.cudnn.deterministic = True` and
    `torch.backends.cudnn.benchmark = False` at the entry point (or
    `torch.use_deterministic_algorithms(True)`, which covers this and more).

    ## Example
    ```python
    import torch, torch.nn as nn
    net = nn.Conv2d(3, 16, 3).cuda()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    net(images.cuda()).mean().backward()
    opt.step()
    ```

    Use instead:
    ```python
    import torch, torch.nn as nn
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    net = nn.Conv2d(3, 16, 3).cuda()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    net(images.cuda()).mean().backward()
    opt.step()
    ```

    ## Fix safety
    Safe where no op without a deterministic implementation (RPL202) runs, as for RPL301
    (the switches go in together): deterministic cuDNN algorithms give one of the
    results the program could already produce, and may be slower. Unsafe where one runs. The fix
    depends on `fix-style`: `hooks` inserts `reprolint.runtime.install(seed=...)` at the
    entry point (it turns on every determinism switch as torch/TensorFlow is imported,
    and seeds them), `inline` inserts the plain statements right after the entry point's
    imports, before any statement can start CUDA, once per program (RPL301-RPL303 share
    one block: `os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")`,
    `torch.use_deterministic_algorithms(True)`, `torch.backends.cudnn.deterministic =
    True`, `torch.backends.cudnn.benchmark = False`).

    ## References
    - https://pytorch.org/docs/stable/notes/randomness.html#cuda-convolution-determinism
    - Pham et al., ASE 2020
    """

    code = "RPL302"
    message = "this torch program runs cuDNN on CUDA ({what}) but never sets `torch.backends.cudnn.deterministic = True`"
    messages = {
        "set_only": (
            "this torch program runs cuDNN on CUDA ({what}) and sets "
            "`torch.backends.cudnn.deterministic = True` only when `{condition}`, which is false "
            "with the default options"
        ),
        "spawn": (
            "`{call}` runs `{worker}` in fresh processes, which the parent's `{setting}` "
            "(line {flag_line}) does not reach: `{worker}` runs cuDNN without deterministic "
            "algorithms there"
        ),
    }
    fix_title = "Set `torch.backends.cudnn.deterministic = True` and `benchmark = False` at the entry point"
    fix_applicability = Applicability.SAFE
    framework = "torch"
    devices = "cuda"

    VALID = [
        Valid("import torch, torch.nn as nn\ntorch.backends.cudnn.deterministic = True\nnet = nn.Conv2d(3, 8, 3).cuda()\n"),
        Valid("import torch, torch.nn as nn\nnet = nn.Linear(3, 8).cuda()\n"),  # no cuDNN layer
        Valid("import torch, torch.nn as nn\nnet = nn.Conv2d(3, 8, 3)\n"),  # CPU only
        # nothing trained: the forward pass runs no nondeterministic cuDNN kernel
        Valid("import torch, torch.nn as nn\nnet = nn.Conv2d(3, 8, 3).cuda()\nprint(net(torch.zeros(1, 3, 8, 8).cuda()).shape)\n"),
    ]
    INVALID = [
        # Flags set in the parent do not reach a spawned worker (a fresh interpreter).
        Invalid(
            "import torch\nimport torch.multiprocessing as mp\n\ndef worker(rank):\n"
            "    net = torch.nn.Conv2d(3, 8, 3).cuda(rank)\n"
            "    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
            "    net(torch.zeros(1, 3, 8, 8).cuda(rank)).sum().backward()\n    opt.step()\n\n"
            "if __name__ == '__main__':\n    torch.use_deterministic_algorithms(True)\n"
            "    torch.backends.cudnn.deterministic = True\n    mp.spawn(worker, nprocs=2)\n",
            line=13, message="does not reach",
        ),
        Invalid("import torch, torch.nn as nn\nnet = nn.Conv2d(3, 8, 3).cuda()\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\nnet(torch.zeros(1, 3, 8, 8).cuda()).sum().backward()\nopt.step()\n", line=2,
            fixed=(
                'import torch, torch.nn as nn\nimport reprolint.runtime\n\n'
                'reprolint.runtime.install(seed=0)\n\nnet = nn.Conv2d(3, 8, 3).cuda()\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\nnet(torch.zeros(1, 3, 8, 8).cuda()).sum().backward()\nopt.step()\n'
            ),
        ),
        Invalid(
            "import torch\nfrom torchvision import models\ndevice = 'cuda'\nnet = models.resnet18().to(device)\n"
            "opt = torch.optim.SGD(net.parameters(), lr=0.1)\nnet(torch.zeros(1, 3, 8, 8).cuda()).sum().backward()\nopt.step()\n",
            line=3,
        ),
        # the flag behind an option that is off by default: said so, not "never"
        Invalid(
            "import argparse, torch\np = argparse.ArgumentParser()\np.add_argument('--det', action='store_true')\n"
            "args = p.parse_args()\nif args.det:\n    torch.backends.cudnn.deterministic = True\n"
            "net = torch.nn.Conv2d(3, 8, 3).cuda()\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\nnet(torch.zeros(1, 3, 8, 8).cuda()).sum().backward()\nopt.step()\n",
            line=7, message="only when `args.det`",
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        yield from report_per_cuda_site(self, switch="cudnn.deterministic", programs=(
            program for program in program_usages(ctx)
            if program.is_training and program.trains_with("torch") and not program.framework_trainer
            and program.can_use_cuda and not program.cudnn_deterministic() and not cudnn_disabled(program)
            and not trains_head_only(program)
            and (
                program.has(CudnnLayer)
                # a program that sets a cuDNN flag runs cuDNN in practice (a conv layer
                # the source does not show: a library model, a hub model); measured on
                # the frozen set, this finds real problems and no false one
                or program.has(FlagSet, "cudnn.benchmark", default_only=False)
                or program.has(FlagSet, "cudnn.deterministic", default_only=False)
            )
        ))
        # flags set only in a parent that spawns its training workers (analysis/calls/spawn.py)
        for path, facts in ctx.facts.items():
            yield from (self.report(path, f.span, **f.data) for f in facts.findings if f.code == self.code)


# ----------------------------------------------------------------------------- fix

MissingCudnnDeterministic.fix_planner(plan_determinism)
MissingCudnnDeterministic.fix_prechecker(determinism_available)
MissingCudnnDeterministic.fix_leveller(determinism_level)
