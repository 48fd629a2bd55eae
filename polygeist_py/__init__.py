"""polygeist-py: raise C and CUDA to structured MLIR, run CUDA on CPUs, compile to native code.

Entry points: the ``pgcc`` command (polygeist_py.driver) and the Python API (polygeist_py.api; torch/jax
adapters of compiled gradients in polygeist_py.ad.adapters).
"""

__version__ = "0.1.0"


def __getattr__(name):  # the API imports MLIR and libclang: load it on first use, not at `import polygeist_py`
    if name in ("compile", "Program", "Function"):
        from . import api

        return getattr(api, name)
    if name == "CompileError":
        from .errors import CompileError

        return CompileError
    if name in ("torch_function", "jax_function"):  # optional torch/jax adapters (polygeist_py.ad.adapters)
        from .ad import adapters

        return getattr(adapters, name)
    raise AttributeError(f"module 'polygeist_py' has no attribute '{name}'")
