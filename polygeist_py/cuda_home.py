"""A directory laid out like a CUDA toolkit (`pgcc --cuda-home` prints it), for build systems written for nvcc
that compile with `$(CUDA_DIR)/bin/nvcc` and link with the system's C compiler and `-L$(CUDA_DIR)/lib64 -lcudart`
(Rodinia's Makefiles: `gcc *.o -o backprop -L$(CUDA_LIB_DIR) -lcuda -lcudart -lm`):

    bin/nvcc               runs `pgcc --cpuify` with its arguments
    include/               pgcc's CUDA headers (cuda_runtime.h, cuda.h, ...)
    lib64/libcudart.so     GNU ld scripts: pgcc's CUDA runtime (host_compiler.runtime_archive), the OpenMP
    lib64/libcudart_static.a   runtime that cpuified kernels call (through libpgcc_omp.so), libstdc++ (the
                               host halves of .cu files are C++) and libm
    lib64/libcuda.so       an empty script: the driver API has no functions here (cuda.h gives its types)
    lib64/libpgcc_omp.so   a filter library (ld's --filter) for LLVM's libomp.so: it declares libomp's functions
                           and the dynamic loader binds them in libomp.so, named by its absolute path
    lib -> lib64

Why the filter: a program linked by gcc has no run path to the pip-installed libomp.so, whose soname is
`libomp.so`, so the loader would not find it (pgcc links with -rpath; gcc from a Makefile does not). The filter
library has no soname, so the program records its absolute path, and it names libomp.so by its absolute path:
the program runs without LD_LIBRARY_PATH. libomp's `ompt_*` functions are left out, since libomp looks up
`ompt_start_tool` in the global scope at start-up and must not find a stub there.

The directory lives in pgcc's cache directory (as the runtime archive), one per version of the runtime source
and installation of libomp, built once (aside, then renamed: safe when several builds start at once).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from .errors import InternalError


def cuda_home() -> str:
    """The toolkit-like directory (see the module docstring), built on first use.

    Returns:
        its absolute path.

    Raises:
        InternalError: the C compiler or `nm` failed while building it.
    """
    from .host_compiler import runtime_archive
    from .toolchain import libomp_path
    archive, omp = runtime_archive(), libomp_path()
    digest = hashlib.sha256(f"{archive}\0{omp}\0{_pgcc_command()}".encode()).hexdigest()[:16]
    home = os.path.join(os.path.dirname(archive), f"cuda-home-{digest}")
    if os.path.isdir(home):
        return home
    tmp = tempfile.mkdtemp(prefix=".cuda-home-", dir=os.path.dirname(archive))
    try:
        _populate(tmp, home, archive, omp)
        try:
            os.rename(tmp, home)
        except OSError:  # another pgcc built it meanwhile
            if not os.path.isdir(home):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return home


def _populate(root: str, final: str, archive: str, omp: str) -> None:
    """Fill directory `root`, which will be renamed `final` (the linker scripts name files by final paths)."""
    from .host_compiler import RUNTIME_SOURCE
    from .toolchain import linker
    lib, bin_ = os.path.join(root, "lib64"), os.path.join(root, "bin")
    os.makedirs(lib)
    os.makedirs(bin_)
    os.symlink(os.path.normpath(os.path.join(os.path.dirname(RUNTIME_SOURCE), os.pardir, "include")),
               os.path.join(root, "include"))
    os.chmod(root, 0o755)  # (mkdtemp's is 0700)
    os.symlink("lib64", os.path.join(root, "lib"))
    filter_lib = os.path.join(lib, "libpgcc_omp.so")
    final_filter = os.path.join(final, "lib64", "libpgcc_omp.so")
    names = _exported_functions(omp)
    stubs = os.path.join(root, "stubs.c")
    with open(stubs, "w") as f:
        f.write("".join(f"void {n}(void) {{}}\n" for n in names))
    r = subprocess.run([linker(), "-shared", "-fPIC", "-w", stubs, f"-Wl,--filter={omp}", "-o", filter_lib],
                       capture_output=True, text=True)
    os.remove(stubs)
    if r.returncode != 0:
        raise InternalError(f"building the libomp filter library failed: {r.stderr.strip()[:2000]}")
    script = ("/* pgcc's CUDA runtime for programs linked by the system's C compiler (polygeist_py/cuda_home.py) */\n"
              f"INPUT({archive} {final_filter} AS_NEEDED(-lstdc++) -lm)\n")
    for name in ("libcudart.so", "libcudart_static.a"):
        _write(os.path.join(lib, name), script)
    _write(os.path.join(lib, "libcuda.so"), "/* pgcc provides no CUDA driver API functions */\n")
    nvcc = os.path.join(bin_, "nvcc")
    _write(nvcc, f"#!/bin/sh\n# nvcc's name for pgcc under --cpuify (polygeist_py/cuda_home.py)\n"
                 f"exec {_pgcc_command()} --cpuify \"$@\"\n")
    os.chmod(nvcc, 0o755)


def _exported_functions(lib: str) -> list:
    """The functions shared library `lib` exports (`nm -D`), without symbol versions and `ompt_*`."""
    r = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True)
    if r.returncode != 0:
        raise InternalError(f"nm failed on '{lib}': {r.stderr.strip()[:2000]}")
    names = set()
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("T", "W", "i"):
            name = parts[2].split("@")[0]
            if name.isidentifier() and not name.startswith("ompt_"):
                names.add(name)
    return sorted(names)


def _pgcc_command() -> str:
    """The command that runs this pgcc: its console script when run as one, else the interpreter with the
    driver module."""
    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(script) == "pgcc" and os.access(script, os.X_OK):
        return script
    return f"{sys.executable} -c 'import sys; from polygeist_py.driver import console_main; console_main()'"


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)
