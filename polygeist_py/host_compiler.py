"""The host C++ compiler of nvcc's model (cuda_split.py): compiles the host half of a .cu file, pgcc's CUDA
runtime library, and joins a file's device and host objects into the one object `-c` promises.

The host compiler is `c++` (g++ here), or what `-ccbin`/`--compiler-bindir` (nvcc's flags) or the environment
variable PGCC_HOST_CXX names, as nvcc takes its host compiler from -ccbin.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile

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
                 compiler: str | None = None, extra: tuple = (), headers: dict | None = None) -> str:
    """Compile the host half `text` of .cu file `path` into object `out` with the host C++ compiler, in host mode
    of pgcc's CUDA headers (`cuda_runtime.h` included first, as nvcc includes it); diagnostics name `path`.
    With `text` None, `path` is a C++ file that nvcc would hand to the host compiler as it is.

    Args:
        user_args: the command line's -I/-D/-U/-std= flags (a C++ -std= replaces the default -std=c++17).
        extra: more flags for the host compiler (dependency files).
        headers: the host text of the program's own headers ({path: text}, cuda_split.host_source), written
            into a copy of the directory tree around `path` (_shadow_tree) that the host file's includes see
            first.
    Raises:
        HostCompilerError: the host compiler's errors (its messages, which point at `path`).
    """
    cmd = host_command(text is None, path, out, workdir, opt_level=opt_level, user_args=user_args,
                       compiler=compiler, extra=extra)
    if text is not None:
        src, _, trees = _shadow_tree(path, workdir, [a for a in user_args if not a.startswith("-std=")])
        _write_shadow_headers(trees, headers or {})
        with open(src, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(f'#line 1 "{path}"\n{text}')
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise HostCompilerError(_toolkit_library_message(r.stderr.strip()))
    return out


def host_command(cxx_file: bool, path: str, out: str, workdir: str, *, opt_level: int, user_args: list,
                 compiler: str | None = None, extra: tuple = ()) -> list:
    """The host compiler's command line of compile_host (`cxx_file`: `path` is a C++ file compiled as it is;
    else the host half of a .cu file, written to host_source_path, with the include flags of its shadow tree
    before the user's own -I directories). Raises CompileError when the host compiler does not exist."""
    std = [a for a in user_args if a.startswith("-std=") and "++" in a] or ["-std=c++17"]
    flags = [a for a in user_args if not a.startswith("-std=")]
    cmd = [host_cxx(compiler), *std, f"-O{opt_level}", "-fPIC"]
    if cxx_file:  # nvcc gives a .cpp file the toolkit's include directory (its host declarations)
        return cmd + [*flags, *extra, "-D__PGCC_HOST_PASS__=1", "-D__PGCC_CXX_FILE__=1", "-isystem",
                      cuda_include_dir(), "-x", "c++", path, "-c", "-o", out]
    src, shadow_flags, _ = _shadow_tree(path, workdir, flags)
    return cmd + [*shadow_flags, *flags, *extra, "-D__PGCC_HOST_PASS__=1", "-D__CUDACC__=1", "-D__PGCC_CUDA__=1",
                  "-iquote", os.path.dirname(os.path.abspath(path)),  # its own "x.h" includes
                  "-isystem", cuda_include_dir(), "-include", "cuda_runtime.h", "-x", "c++", src, "-c", "-o", out]


def host_source_path(path: str, workdir: str) -> str:
    """The file holding the host half of .cu file `path` for the host compiler (in its shadow tree)."""
    return _shadow_tree(path, workdir, [])[0]


SHADOW_DEPTH = 4  # levels of "../" above the .cu file's directory that the copied headers may sit at


def _shadow_tree(path: str, workdir: str, flags: list) -> tuple:
    """Where the host file of .cu file `path` goes, and the include flags that make its `#include "h"` find the
    host text of the program's headers before the headers themselves: each header is written (by
    _write_shadow_headers) at its place relative to `path`'s directory in a copy of that tree under `workdir`
    (the host file sits where `path` does; a quoted include is looked up in the including file's directory
    first), and likewise in a copy of each user -I directory, whose -I goes in front of the original's.
    Returns (host file path, extra flags, [(original directory, its copy)]); writes nothing."""
    trees = [(os.path.dirname(os.path.abspath(path)), os.path.join(workdir, "host-tree", *(["_"] * SHADOW_DEPTH)))]
    extra = []
    for i, a in enumerate(flags):
        d = a[2:] if a.startswith("-I") and len(a) > 2 else flags[i + 1] if a == "-I" and i + 1 < len(flags) else None
        if d and os.path.isdir(d):
            root = os.path.join(workdir, f"host-include{len(trees)}", *(["_"] * SHADOW_DEPTH))
            trees.append((os.path.abspath(d), root))
            extra.append("-I" + root)
    return os.path.join(trees[0][1], os.path.basename(path) + ".host.cpp"), extra, trees


def _write_shadow_headers(trees: list, headers: dict) -> None:
    """Write the host text of each program header ({path: text}) into each copied tree of _shadow_tree (a
    `#line` keeps messages pointing at the real file)."""
    def copy_of(p, top, root):
        rel = os.path.relpath(os.path.abspath(p), top)
        return None if rel.split(os.sep).count("..") > SHADOW_DEPTH else os.path.normpath(os.path.join(root, rel))

    for top, root in trees:
        os.makedirs(root, exist_ok=True)
        for h, text in headers.items():
            dest = copy_of(h, top, root)
            if dest is None:
                continue
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(f'#line 1 "{os.path.abspath(h)}"\n{text}')


def _toolkit_library_message(stderr: str) -> str:
    """The host compiler's messages, with gcc's missing-header error for a library of the CUDA toolkit
    (cuda_split.TOOLKIT_LIBRARIES) restated as the library pgcc does not support."""
    from .cuda_split import toolkit_library

    def restate(m):
        lib = toolkit_library(m.group(2))
        if lib is None:
            return m.group(0)
        return f"{m.group(1)}error: CUDA library not supported: {lib} (needs the CUDA toolkit; '{m.group(2)}')"

    return re.sub(r"^(.*?: )fatal error: (\S+): No such file or directory$", restate, stderr, flags=re.M)


def runtime_archive() -> str:
    """pgcc's CUDA runtime library (runtime/pgcc_cuda_runtime.c) as a static archive, built by the system C
    compiler once per version of its source into a cache directory ($PGCC_CACHE_DIR, else
    $XDG_CACHE_HOME/polygeist-py or ~/.cache/polygeist-py) and linked into every program pgcc links (an archive:
    nothing is taken from it unless host code calls the CUDA runtime).

    Raises:
        InternalError: the C compiler or `ar` failed on it.
    """
    out = runtime_archive_path()
    base, digest = os.path.dirname(out), out.rsplit("-", 1)[1][:-2]
    if os.path.exists(out):
        return out
    try:
        os.makedirs(base, exist_ok=True)
    except OSError:  # no writable cache: build it for this run only
        base = tempfile.mkdtemp(prefix="pgcc-cudart-")
        out = os.path.join(base, f"libpgcc_cudart-{digest}.a")
    with tempfile.TemporaryDirectory(dir=base) as tmp:  # built aside, then renamed: safe under make -j
        obj, lib = os.path.join(tmp, "rt.o"), os.path.join(tmp, "rt.a")
        for cmd in ([linker(), "-O2", "-fPIC", "-frounding-math", "-c", RUNTIME_SOURCE, "-o", obj], ["ar", "rcs", lib, obj]):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise InternalError(f"building pgcc's CUDA runtime failed: {r.stderr.strip()[:2000]}")
        os.replace(lib, out)
    return out


def runtime_archive_path() -> str:
    """Where runtime_archive keeps the archive (it may not exist yet)."""
    with open(RUNTIME_SOURCE, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    base = os.environ.get("PGCC_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "polygeist-py")
    return os.path.join(base, f"libpgcc_cudart-{digest}.a")


def join_command(objects: list, out: str) -> list:
    """The command line with which join_objects links `objects` into one relocatable object `out`."""
    return [linker(), "-r", "-nostdlib", *objects, "-o", out]


def join_objects(objects: list, out: str, local: tuple = ()) -> str:
    """One relocatable object from several (`ld -r` through the C driver), as `nvcc -c` gives one object per
    .cu file. The symbols `local` (the stubs of `static` kernels, which the host object calls by name) become
    local symbols of the joined object, so that two files may each have a static kernel of the same name.

    Raises:
        InternalError: the link or objcopy failed (or no objcopy is installed when `local` is not empty).
    """
    r = subprocess.run(join_command(objects, out), capture_output=True, text=True)
    if r.returncode != 0:
        raise InternalError(f"joining the device and host objects failed: {r.stderr.strip()[:2000]}")
    if local:
        tool = shutil.which("objcopy") or shutil.which("llvm-objcopy")
        if tool is None:
            raise InternalError("objcopy is needed for static kernels (install binutils)")
        r = subprocess.run([tool, *(f"--localize-symbol={s}" for s in local), out], capture_output=True, text=True)
        if r.returncode != 0:
            raise InternalError(f"objcopy failed on '{out}': {r.stderr.strip()[:2000]}")
    return out


def empty_object(out: str) -> str:
    """An object file with nothing in it (the result of nvcc's device link step, which pgcc does not need).

    Raises:
        CompileError: it cannot be written.
    """
    r = subprocess.run([linker(), "-x", "c", "-c", os.devnull, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        raise CompileError(f"cannot write '{out}': {r.stderr.strip()}")
    return out
