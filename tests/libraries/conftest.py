"""The library tests load torch, TensorFlow, JAX, pandas and pyarrow into one process.
Measured in .venv-libs: importing torchvision's models (which import torch._dynamo and
so triton) after TensorFlow/JAX/pandas/pyarrow are loaded segfaults inside triton's
extension module; in the other order every import works. So torchvision goes first."""

import importlib.util

if importlib.util.find_spec("torchvision") is not None:
    import torchvision.models  # noqa: F401 - import order, see above
