"""The host C++ compiler of nvcc's model (cuda_split.py): compiles the host half of a .cu file, pgcc's CUDA
runtime library, and joins a file's device and host objects into the one object `-c` promises.

The host compiler is `c++` (g++ here), or what `-ccbin`/`--compiler-bindir` (nvcc's flags) or the environment
variable PGCC_HOST_CXX names, as nvcc takes its host compiler from -ccbin.
"""

from __future__ import annotations

import os
import shutil
import subprocess

from .errors import CompileError, HostCompilerError, InternalError
from .toolchain import cuda_include_dir, linker

RUNTIME_SOURCE = os.path.join(os.path.dirname(__file__), "runtime", "pgcc_cuda_runtime.c")


def host_cxx(choice: str | None = None) -> str:
    """Path of the host C++ compiler: `choice` (a compiler or a directory holding g++/c++), PGCC_HOST_CXX, `c++`.

    Raises:
        CompileError: no such compiler.
    """
    choice = choice or os.environ.get("PGCC_HOST_CXX") or "c++"
    if os.path.isdir(choice):
        for name in ("g++", "c++", "clang++"):
            if os.path.exists(os.path.join(choice, name)):
                return os.path.join(choice, name)
    found = shutil.which(choice)
    if not found:
        raise CompileError(f"host C++ compiler '{choice}' not found (set it with -ccbin, as with nvcc)")
    return found


def compile_host(text: str | None, path: str, out: str, workdir: str, *, opt_level: int, user_args: list,
                 compiler: str | None = None, extra: tuple = ()) -> str:
    """Compile the host half `text` of .cu file `path` into object `out` with the host C++ compiler, in host mode
    of pgcc's CUDA headers (`cuda_runtime.h` included first, as nvcc includes it); diagnostics name `path`.
    With `text` None, `path` is a C++ file that nvcc would hand to the host compiler as it is.

    Args:
        user_args: the command line's -I/-D/-U/-std= flags (a C++ -std= replaces the default -std=c++17).
        extra: more flags for the host compiler (dependency files).
    Raises:
        HostCompilerError: the host compiler's errors (its messages, which point at `path`).
    """
    std = [a for a in user_args if a.startswith("-std=") and "++" in a] or ["-std=c++17"]
    flags = [a for a in user_args if not a.startswith("-std=")]
    cmd = [host_cxx(compiler), *std, f"-O{opt_level}", "-fPIC", *flags, *extra]
    if text is None:
        cmd += ["-x", "c++", path, "-c", "-o", out]
    else:
        src = os.path.join(workdir, os.path.basename(path) + ".host.cpp")
        with open(src, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(f'#line 1 "{path}"\n{text}')
        cmd += ["-D__PGCC_HOST_PASS__=1", "-D__CUDACC__=1", "-D__PGCC_CUDA__=1",
                "-iquote", os.path.dirname(os.path.abspath(path)),  # its own "x.h" includes
                "-isystem", cuda_include_dir(), "-include", "cuda_runtime.h", "-x", "c++", src, "-c", "-o", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise HostCompilerError(r.stderr.strip())
    return out


def runtime_object(workdir: str) -> str:
    """pgcc's CUDA runtime library (runtime/pgcc_cuda_runtime.c) compiled by the system C compiler into
    `workdir`, every symbol weak (`objcopy --weaken`) so that the copies inside several .cu objects link.

    Raises:
        InternalError: the C compiler or objcopy failed on it.
    """
    out = os.path.join(workdir, "pgcc_cuda_runtime.o")
    if not os.path.exists(out):
        for cmd in ([linker(), "-O2", "-fPIC", "-c", RUNTIME_SOURCE, "-o", out], ["objcopy", "--weaken", out]):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise InternalError(f"building pgcc's CUDA runtime failed: {r.stderr.strip()[:2000]}")
    return out


def join_objects(objects: list, out: str) -> str:
    """One relocatable object from several (`ld -r` through the C driver), as `nvcc -c` gives one object per
    .cu file (pgcc adds its runtime, so the object links like any other).

    Raises:
        InternalError: the link failed.
    """
    r = subprocess.run([linker(), "-r", "-nostdlib", *objects, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        raise InternalError(f"joining the device and host objects failed: {r.stderr.strip()[:2000]}")
    return out
