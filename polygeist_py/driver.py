"""`pgcc`: a C compiler driver over the polygeist-py stages (frontend -> cleanup -> cpuify -> lowering -> native).

Usage mirrors gcc: ``pgcc [-c|-S] [-O0..3] [-I dir] [-D m] [-L dir] [-l lib] [-std=..] [-o out] inputs...``
plus ``--cpuify`` (CUDA kernels run as OpenMP loops), ``--emit=mlir|cleanup|cpuify|ad|llvm-dialect|llvm``
(print the module after that stage) and ``--debug`` (show Python tracebacks of internal errors).
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from dataclasses import dataclass, field

from .errors import CompileError

EMIT_STAGES = ("mlir", "cleanup", "cpuify", "ad", "scop", "polyhedral", "llvm-dialect", "llvm")
IGNORED_PREFIXES = ("-W", "-f", "-m", "-g", "-pedantic", "-pipe", "-v", "-ansi", "-w")


@dataclass
class Options:
    inputs: list = field(default_factory=list)
    output: str | None = None
    compile_only: bool = False
    assembly: bool = False
    opt_level: int = 2
    clang_args: list = field(default_factory=list)
    lib_dirs: list = field(default_factory=list)
    libs: list = field(default_factory=list)
    link_extra: list = field(default_factory=list)
    cpuify: bool = False
    polyhedral: bool | None = None      # None: on at -O3 (see wants_polyhedral)
    schedule_file: str | None = None
    fusion: str = "smart"
    tile_sizes: tuple | None = (32, 32, 32)
    parallel: bool = True
    emit: str | None = None
    debug: bool = False
    warnings: list = field(default_factory=list)


def parse_args(argv: list[str]) -> Options:
    """gcc-style command line -> Options. Raises CompileError for a malformed or unknown essential flag."""
    o = Options()
    i = 0
    while i < len(argv):
        a = argv[i]

        def value():
            nonlocal i
            if i + 1 >= len(argv):
                raise CompileError(f"argument to '{a}' is missing")
            i += 1
            return argv[i]

        if a == "-o":
            o.output = value()
        elif a == "-c":
            o.compile_only = True
        elif a == "-S":
            o.assembly = True
        elif a.startswith("-O"):
            lvl = a[2:] or "1"
            o.opt_level = 2 if lvl in ("s", "z", "fast") else int(lvl) if lvl.isdigit() else 2
            o.opt_level = min(o.opt_level, 3)
        elif a in ("-I", "-D", "-U", "-include", "-isystem"):
            o.clang_args += [a, value()]
        elif a.startswith(("-I", "-D", "-U", "-std=")):
            o.clang_args.append(a)
        elif a == "-L":
            o.lib_dirs.append(value())
        elif a.startswith("-L"):
            o.lib_dirs.append(a[2:])
        elif a == "-l":
            o.libs.append(value())
        elif a.startswith("-l"):
            o.libs.append(a[2:])
        elif a == "--cpuify":
            o.cpuify = True
        elif a in ("--polyhedral", "--no-polyhedral"):
            o.polyhedral = a == "--polyhedral"
        elif a.startswith("--schedule="):
            o.schedule_file, o.polyhedral = a.split("=", 1)[1], True
        elif a.startswith("--fusion="):
            o.fusion = a.split("=", 1)[1]
            if o.fusion not in ("max", "smart", "none"):
                raise CompileError(f"unknown fusion policy '{o.fusion}' (expected max, smart or none)")
        elif a.startswith("--tile-sizes="):
            o.tile_sizes = _tile_sizes(a.split("=", 1)[1])
        elif a == "--no-tiling":
            o.tile_sizes = None
        elif a == "--no-parallel":
            o.parallel = False
        elif a.startswith("--emit="):
            o.emit = a.split("=", 1)[1]
            if o.emit not in EMIT_STAGES:
                raise CompileError(f"unknown --emit stage '{o.emit}' (expected one of {', '.join(EMIT_STAGES)})")
        elif a == "--debug":
            o.debug = True
        elif a == "-fopenmp":
            o.clang_args.append(a)  # defines _OPENMP, as with gcc
        elif a in ("-lm", "-pthread"):
            pass
        elif a.startswith("-Wl,") or a in ("-static", "-shared", "-rdynamic"):
            o.link_extra.append(a)
        elif a.startswith(IGNORED_PREFIXES):
            pass  # gcc flags that do not change the program's meaning
        elif a.startswith("-"):
            o.warnings.append(f"pgcc: warning: ignoring unknown option '{a}'")
        else:
            o.inputs.append(a)
        i += 1
    if not o.inputs:
        raise CompileError("no input files")
    return o


def _tile_sizes(text: str) -> tuple:
    try:
        sizes = tuple(int(t) for t in text.split(","))
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        raise CompileError(f"--tile-sizes expects positive integers separated by commas, not '{text}'")
    return sizes


def polyhedral_options(o: Options):
    """The polyhedral stage's options for these flags, or None when the stage is off (default: on at -O3 and
    for --emit=scop)."""
    on = o.polyhedral if o.polyhedral is not None else (o.opt_level >= 3 or o.emit == "scop")
    if not on:
        return None
    from .affine.scheduler import ScheduleOptions
    from .affine.transform import PolyhedralOptions
    from .affine.user_schedule import read_schedule_file

    sched = ScheduleOptions(fusion=o.fusion, tile=o.tile_sizes is not None,
                            tile_sizes=o.tile_sizes or (32,), parallel=o.parallel)
    user = read_schedule_file(o.schedule_file) if o.schedule_file else {}
    return PolyhedralOptions(schedule=sched, user_schedules=user, only_model=o.emit == "scop")


def compile_source(path: str, o: Options, workdir: str, source: str | None = None):
    """One .c/.cu file through every stage. Returns the object path (or None when only emitting text)."""
    from mlir import ir

    from .backend import compile_llvm_ir, translate_to_llvm_ir
    from .clang_ast import parse
    from .stages import STAGES, run_stages

    tu = parse(path, o.clang_args, source)
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = False
        module = run_stages(tu, path, cpuify=o.cpuify, on_stage=lambda stage, m: emit_here(o, stage, m),
                            polyhedral=polyhedral_options(o), on_scops=lambda reports: emit_scops(o, reports))
        if o.emit in STAGES or o.emit == "scop":
            return None
        ll = translate_to_llvm_ir(module)
    if o.emit == "llvm":
        write_text(o, ll)
        return None
    stem = os.path.splitext(os.path.basename(path))[0]
    if o.assembly:
        out = o.output or stem + ".s"
        compile_llvm_ir(ll, out, o.opt_level, "asm", workdir)
        return None
    out = o.output if (o.compile_only and o.output) else (stem + ".o" if o.compile_only else os.path.join(workdir, stem + ".o"))
    compile_llvm_ir(ll, out, o.opt_level, "obj", workdir)
    return out


def emit_scops(o: Options, reports) -> bool:
    if o.emit != "scop":
        return False
    from .affine.describe import describe

    write_text(o, describe(reports))
    return True


def emit_here(o: Options, stage: str, module) -> bool:
    if o.emit != stage:
        return False
    write_text(o, module.operation.get_asm(enable_debug_info=True, pretty_debug_info=False))
    return True


def write_text(o: Options, text: str) -> None:
    if o.output and o.output != "-":
        with open(o.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def run(argv: list[str]) -> int:
    from .backend import link

    o = parse_args(argv)
    for w in o.warnings:
        print(w, file=sys.stderr)
    sources = [p for p in o.inputs if p.endswith((".c", ".cu"))]
    others = [p for p in o.inputs if p not in sources]
    for p in others:
        if not os.path.exists(p):
            raise CompileError(f"no such file or directory: '{p}'")
    for p in sources:
        if not os.path.exists(p):
            raise CompileError(f"no such file or directory: '{p}'")
    if (o.compile_only or o.assembly or o.emit) and o.output and len(sources) > 1:
        raise CompileError("cannot specify -o with -c, -S or --emit and multiple files")
    with tempfile.TemporaryDirectory(prefix="pgcc-") as work:
        objects = []
        for p in o.inputs:
            if p in sources:
                obj = compile_source(p, o, work)
                if obj:
                    objects.append(obj)
            else:
                objects.append(p)
        if o.compile_only or o.assembly or o.emit:
            return 0
        link(objects, o.output or "a.out", o.lib_dirs, o.libs, o.link_extra)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    debug = "--debug" in argv
    try:
        code = run(argv)
    except CompileError as e:
        from .pipeline import InternalError

        if isinstance(e, InternalError):
            print(f"pgcc: internal compiler error: {e.message.splitlines()[0]}", file=sys.stderr)
            if debug:
                print(e.message, file=sys.stderr)
                traceback.print_exc()
        else:
            print(e.render(), file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        code = 130
    except Exception as e:  # anything else is our bug, never the user's
        print(f"pgcc: internal compiler error: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
              " (run with --debug for the trace)", file=sys.stderr)
        if debug:
            traceback.print_exc()
        code = 1
    sys.exit(code) if __name__ == "__main__" else None
    return code


def console_main() -> None:
    sys.exit(main())


if __name__ == "__main__":
    main()
