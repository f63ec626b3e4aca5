"""Builds the project's CUDA extension: the sources are globbed and handed to the
compiler in the file system's order, which decides nothing a training run computes (a
packaging script, not a program that trains): no RPL402."""
import glob
import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, CppExtension, CUDAExtension


def get_extensions():
    here = os.path.dirname(os.path.abspath(__file__))
    cpu_dir = os.path.join(here, "csrc", "cpu")
    cuda_dir = os.path.join(here, "csrc", "cuda")
    cpu_sources = glob.glob(os.path.join(cpu_dir, "*.cpp"))
    cuda_sources = glob.glob(os.path.join(cuda_dir, "*.cpp")) + glob.glob(os.path.join(cuda_dir, "*.cu"))
    flags = {"cxx": ["-O3"]}
    ext_modules = [CppExtension("fused_ops.cpu", cpu_sources, include_dirs=[cpu_dir], extra_compile_args=flags)]
    if CUDA_HOME is not None:
        flags["nvcc"] = ["-O3", "--use_fast_math"]
        ext_modules.extend([
            CUDAExtension("fused_ops.gpu", cuda_sources, include_dirs=[cpu_dir, cuda_dir],
                          define_macros=[("WITH_CUDA", None)], extra_compile_args=flags),
        ])
    return ext_modules


if __name__ == "__main__":
    setup(
        name="fused_ops",
        ext_modules=get_extensions(),
        cmdclass={"build_ext": torch.utils.cpp_extension.BuildExtension},
    )
