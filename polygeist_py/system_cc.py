"""What gcc's driver hands to its preprocessor and assembler, pgcc hands to the system's C compiler (the program
it links with, toolchain.linker()): `pgcc -E x.c` preprocesses with `cc -E`, `pgcc -M/-MM x.c` lists the
dependencies with `cc -M/-MM`, and `pgcc -c x.S` assembles with `cc -c`, with the same -I/-D/-U/-include/-std options. The macros are the system compiler's, plus __PGCC__ (pgcc's
own parser, libclang, predefines clang's); `configure` scripts only ask the preprocessor which headers exist and
what they define, which is the same for both.
"""

from __future__ import annotations

import os
import subprocess
import sys

from .errors import CompileError
from .toolchain import linker

ASSEMBLY_SUFFIXES = (".s", ".S", ".sx")


def is_assembly(path: str) -> bool:
    """Whether `path` names an assembler source (`.s`, or `.S`/`.sx` to be preprocessed first)."""
    return path.endswith(ASSEMBLY_SUFFIXES)


def _preprocessor_flags(clang_args: list) -> list:
    return [a for a in clang_args if not a.startswith(("-W", "-w"))] + ["-D__PGCC__=1"]


def preprocess(path: str, clang_args: list, output: str | None) -> None:
    """`cc -E` of C file `path` with the parser options `clang_args` (list of str: -I, -D, -U, -include, -std,
    -fopenmp...) into file `output`, or stdout when None or "-".

    Raises:
        CompileError: cc failed (its diagnostics are passed on)."""
    cmd = [linker(), "-E", *_preprocessor_flags(clang_args), path]
    if output and output != "-":
        cmd += ["-o", output]
    _run(cmd, path)


def dependencies_only(path: str, clang_args: list, kind: str, output: str | None, dep_file: str | None,
                      targets: list, phony: bool) -> None:
    """`cc -M` (kind "M": every header) or `cc -MM` ("MM": user headers) of C file `path`: make's rule
    `path.o: path headers...` to `dep_file` (-MF), else `output` (-o), else stdout; `targets` (-MT) name the
    rule's targets, `phony` (-MP) adds an empty rule per header.

    Raises:
        CompileError: cc failed."""
    cmd = [linker(), "-" + kind, *_preprocessor_flags(clang_args), path]
    cmd += [a for t in targets for a in ("-MT", t)] + (["-MP"] if phony else [])
    if dep_file or (output and output != "-"):
        cmd += ["-MF", dep_file or output]
    _run(cmd, path)


def assemble(path: str, clang_args: list, output: str) -> None:
    """`cc -c` of assembler file `path` (`.S`/`.sx` preprocessed with the options `clang_args`) into object
    `output`.

    Raises:
        CompileError: cc failed."""
    _run([linker(), "-c", *_preprocessor_flags(clang_args), path, "-o", output], path)


def _run(cmd: list, path: str) -> None:
    r = subprocess.run(cmd, stdout=None, stderr=subprocess.PIPE, text=True)
    if r.stderr:
        sys.stderr.write(r.stderr)
    if r.returncode != 0:
        raise CompileError(f"{os.path.basename(cmd[0])} failed on {path} (exit status {r.returncode})")
