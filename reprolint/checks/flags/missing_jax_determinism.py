from __future__ import annotations

from typing import Iterator

from reprolint.analysis.declared import declared_for_tpu_only
from reprolint.analysis.determinism import program_usages
from reprolint.analysis.usage_events import EnvSet, GpuSelected
from reprolint.checks.base import CheckContext, Finding, Invalid, Rule, Valid

_FLAG = "--xla_gpu_deterministic_ops=true"


class MissingJaxDeterminism(Rule):
    """
    ## What it does
    Reports a JAX program on GPU without `--xla_gpu_deterministic_ops=true` in
    `XLA_FLAGS`.

    Training programs only (not tests, demos or evaluation scripts). A JAX program is
    one that imports `jax` and trains (`jax.grad`,
    `jax.value_and_grad`, an `optax` optimizer, Flax's `TrainState`); optax's losses
    and Flax's checkpoint and sharding helpers (`restore_checkpoint`, `shard`), which
    evaluation code calls too, are not training. JAX runs on a GPU whenever a CUDA
    `jaxlib` is installed, so the program is taken to run on one unless it pins platforms
    without a GPU (`JAX_PLATFORMS=cpu` or `tpu,cpu`, `jax.config.update("jax_platform_name",
    "cpu")`, `CUDA_VISIBLE_DEVICES=""`), connects a Colab TPU
    (`jax.tools.colab_tpu.setup_tpu()`) or the project declares JAX for TPUs only (`jax[tpu]` in its
    requirements, setup.py or pyproject.toml, and no GPU extra such as `jax[cuda12]`). The flag is accepted when the code sets `XLA_FLAGS`
    (`os.environ[...] = ...`, `setdefault`, `update`, also built with `+` from the old
    value) to a string containing it. Reported once per program, at the line that
    selects a GPU (`jax.devices("gpu")`, `jax_platform_name="gpu"`) or else the entry
    point's first statement. Blind spot: flags exported by the shell are not seen.

    ## Why is this bad?
    XLA's GPU backend uses atomics in reductions and scatter, and autotunes kernels, so
    the same jitted step with the same PRNG keys can give different gradients from run
    to run.

    Mitigation: set `XLA_FLAGS=--xla_gpu_deterministic_ops=true` before JAX
    initialises its backend (top of the entry point, or the launch environment).

    ## Example
    ```python
    import jax
    grads = jax.grad(loss)(params, batch)
    ```

    Use instead:
    ```python
    import os
    os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_gpu_deterministic_ops=true"
    import jax
    grads = jax.grad(loss)(params, batch)
    ```

    ## Fix safety
    Unsafe: deterministic XLA kernels change the numbers and may be slower.

    ## References
    - https://github.com/google/jax/discussions/10674
    - https://openxla.org/xla/flags_guidance
    """

    code = "RPL305"
    message = "this JAX training program may run on a GPU without `--xla_gpu_deterministic_ops=true` in `XLA_FLAGS`"
    fix_title = "Add `--xla_gpu_deterministic_ops=true` to `XLA_FLAGS` before importing JAX"
    framework = "jax"

    VALID = [
        Valid(
            "import os\nos.environ['XLA_FLAGS'] = '--xla_gpu_deterministic_ops=true'\nimport jax\n"
            "g = jax.grad(f)(p)\nprint(g)\n"
        ),
        Valid("import os\nos.environ['JAX_PLATFORMS'] = 'cpu'\nimport jax\ng = jax.grad(f)(p)\nprint(g)\n"),
        Valid("import jax.numpy as jnp\nprint(jnp.ones(3))\n"),
    ]
    INVALID = [
        Invalid("import jax\nimport optax\ng = jax.grad(f)(p)\nprint(g)\n", line=1),
        Invalid(
            "import os\nos.environ['XLA_FLAGS'] = '--xla_gpu_autotune_level=0'\nimport jax\ng = jax.value_and_grad(f)(p)\nprint(g)\n",
            line=1,
        ),
    ]

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        seen: set[tuple[str, object]] = set()
        for program in program_usages(ctx):
            if not program.is_training or not program.trains_with("jax") or program.hides_gpu("jax"):
                continue
            if declared_for_tpu_only("jax", program.entry, ctx.index.roots) is not None:
                continue  # `jax[tpu]`: the project installs JAX for TPUs, not GPUs
            if any(
                usage.value is None or _FLAG in str(usage.value).replace("=1", "=true")
                for _, _, usage in program.of(EnvSet, "XLA_FLAGS")
            ):
                continue
            gpu = program.first(GpuSelected, "jax")
            where = (gpu[1], gpu[2]) if gpu else program.entry_event
            if where is None or (where[0], where[1].span) in seen:
                continue
            seen.add((where[0], where[1].span))
            yield self.report(where[0], where[1].span, roles={program.entry: program.role.value}, entry_points=program.entry_points)
