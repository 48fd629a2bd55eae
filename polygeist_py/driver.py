"""`pgcc`: a C compiler driver over the polygeist-py stages (frontend -> cleanup -> cpuify -> lowering -> native).

Usage mirrors gcc: pgcc [-c|-S] [-O0..3] [-I dir] [-D m] [-L dir] [-l lib] [-std=..] [-x c|cuda|c++]
                        [-MD|-MMD] [-MP] [-MF file] [-MT target] [-Wl,...] [-shared] [-o out] inputs...
Inputs: .c (C), .cu (CUDA; C++ host code), .cpp/.cc (C++), anything else goes to the linker (.o, .a, .so).
Project flags (pgcc --help lists them all): --cpuify (CUDA kernels run as OpenMP loops; as with nvcc, host code of .cu files goes to the
host C++ compiler: -ccbin CXX, --cuda-host=pgcc compiles it with pgcc instead), --polyhedral / --no-polyhedral,
--emit=mlir|cleanup|cpuify|ad|scop|polyhedral|llvm-dialect|llvm (print the module after that stage),
--debug (show Python tracebacks of internal errors). Unknown flags are ignored with a warning.
As gcc: -v lists the stages and the external commands as they run, -### lists them without running (verbose.py);
a unit that compiles for more than 3 s shows a progress line on a terminal (progress.py).
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from dataclasses import dataclass, field

from .errors import CompileError, InternalError
from .system_cc import assemble, dependencies_only, is_assembly, preprocess

# gcc's questions about the toolchain (libtool's "dynamic linker characteristics", configure scripts): pgcc links
# through the system's cc, so cc's answers are pgcc's
LINKER_QUERIES = ("-print-search-dirs", "-print-multi-os-directory", "-print-multi-directory", "-print-multiarch",
                  "-print-prog-name=", "-print-file-name=", "-print-libgcc-file-name", "-dumpmachine",
                  "-print-multi-lib", "-print-sysroot")

EMIT_STAGES = ("mlir", "cleanup", "cpuify", "ad", "scop", "polyhedral", "llvm-dialect", "llvm")

HELP = """Usage: pgcc [options] inputs...    (a gcc-compatible driver; nvcc's flags too under --cpuify)

Inputs: .c (C), .cu (CUDA: device code through pgcc, C++ host code through the host compiler), .cpp/.cc (C++,
to the host compiler under --cpuify), anything else goes to the linker (.o, .a, .so).

C compiler (as gcc):
  -c                     compile to an object file, do not link
  -S                     compile to an assembly file
  -E                     preprocess only, with the system's cc (pgcc's -I/-D/-U/-std and __PGCC__); .s/.S
                         inputs are assembled by cc too
  -o FILE                the output file
  -O0 -O1 -O2 -O3 -Os -Oz -Ofast -Og   optimization level (default -O0; CUDA device code: -O2, as nvcc)
  -I DIR                 add a directory to the include path (also -isystem, -iquote, -idirafter DIR)
  -D NAME[=VALUE]        define a macro
  -U NAME                undefine a macro
  -include FILE          include FILE first (-imacros FILE: its macros only)
  -std=STD               the language standard (c99, c11, gnu17, c++17...)
  -x c|cuda|c++|none     the language of the inputs that follow (none: by suffix)
  -fopenmp               honour #pragma omp (README: the supported directives); without it they are ignored
  -ffp-contract=off|on|fast   fuse a*b+c into FMA only with fast (on means off, as in gcc 12)
  -funsigned-char        plain char is unsigned (-fsigned-char: signed, the default)
  -funsigned-bitfields   plain int bit-fields are unsigned (-fsigned-bitfields: signed, the default)
  -fno-builtin[-NAME]    C library functions (NAME only) are called as written, not lowered by pgcc or LLVM
  -fcommon               tentative definitions (`int x;`) are common symbols (-fno-common: definitions, the default)
  -pthread               define _REENTRANT and link with -pthread
  -w                     no warnings
  -Wall, -Wextra, -W...  warnings as gcc (the parser's diagnostics)
  -Werror                warnings are errors (-Werror=X: warning X only; -Wno-error=X: not X)
  -msse4.1 -mavx2 -march=CPU   x86 instruction sets (also -mno-X, -mtune=CPU): the target code is generated for
                         (default x86-64, as gcc's; -march=native: this machine's), the macros gcc defines
                         (__AVX2__...) and the <immintrin.h> intrinsics a function may use
  -f... -m... -g...      other code generation and debugging flags: accepted, they do not change the program
  -fsanitize=..., -fsanitize-trap, -fsanitize-recover, -ftrapv, -fshort-enums, -fshort-wchar, -fpack-struct,
  -fstack-check, -fno-signed-char, -fno-unsigned-char, -m32, -mx32, -m16, -fsso-struct=big-endian,
  --specs=FILE, -specs=FILE, -frounding-math   errors: they would change what the program means
  -pedantic -ansi -pipe -save-temps --param N=V -aux-info FILE   accepted and ignored
  -fpermissive           a C++ option: ignored with a warning, as gcc does for C
  -ftrapping-math        warns: not honoured (float operations may be evaluated ahead of their guards, as clang's
                         default -fno-trapping-math allows; only matters once a program enables FP traps)

Dependencies (for make):
  -MD                    write x.d beside the object: the source and every header it includes
  -MMD                   the same without system headers
  -M, -MM                only list the dependencies (with and without system headers), with the system's cc
  -MF FILE               the dependency file's name
  -MT TARGET             the rule's target (-MQ TARGET: the same)
  -MP                    an empty rule per header

Linking:
  -L DIR                 add a library directory
  -l LIB                 link with a library (-lcudart and the CUDA toolkit's runtime libraries: pgcc's own)
  -Wl,ARGS               pass comma-separated ARGS to the linker
  -Xlinker ARG           pass ARG to the linker
  -shared                a shared library
  -static                a static executable
  -rdynamic              export every symbol (-no-pie, -pie, -s: as gcc)
  -print-search-dirs     answered by the system's cc, the linker (also -print-file-name=F, -print-prog-name=P,
                         -print-libgcc-file-name, -print-multi-directory, -print-multi-os-directory,
                         -print-multi-lib, -print-multiarch, -print-sysroot, -dumpmachine)

CUDA on the CPU:
  --cpuify               kernel launches become OpenMP loop nests over blocks and threads
  -ccbin CXX             the host C++ compiler (also --compiler-bindir CXX; default c++ or $PGCC_HOST_CXX)
  --cuda-host=c++|pgcc   host code of .cu files through the host compiler (default) or through pgcc itself
  --cuda-home            print a directory laid out like a CUDA toolkit (bin/nvcc, include, lib64/libcudart.so)
                         for Makefiles that link with gcc: make CUDA_DIR=$(pgcc --cuda-home)
  -Xcompiler A,B         options for the host compiler (also --compiler-options)
  --use_fast_math        fuse multiplies and adds as nvcc's fast math does (also -use_fast_math)
  -dc                    compile device code for linking (as -c; also --device-c)
  -dlink                 the device link step: an empty object (also --device-link)
  -arch ARCH, -code CODE, -gencode SPEC    GPU targets: accepted and ignored (also --gpu-architecture,
                         --gpu-code, --generate-code)
  -rdc=true|false        relocatable device code: accepted, kernels always link across files
                         (also --relocatable-device-code)
  -lineinfo, -G, --extended-lambda, --expt-extended-lambda, --expt-relaxed-constexpr, -src-in-ptx,
  --resource-usage, -res-usage, -maxrregcount N, --maxrregcount, -Xptxas, --ptxas-options, -Xnvlink,
  --default-stream, --threads N, -t N, --cudart KIND, -cudart KIND, -keep, --keep, -keep-dir D, --keep-dir,
  --nvlink-options, --generate-line-info, -prec-div=, -prec-sqrt=, -ftz=, -fmad=
                         nvcc flags that do not change code on the CPU: accepted and ignored
  --std=STD              nvcc's spelling of -std; -I of a CUDA toolkit's include directory is not searched
                         (pgcc's CUDA headers stand for the toolkit's)

Polyhedral scheduling (affine loop nests, isl; on by default at -O3):
  --polyhedral           run the stage at any -O level
  --no-polyhedral        do not run it
  --schedule=FILE        per-SCoP user schedules and options (tile_sizes, fusion, parallel, unroll_jam)
  --fusion=max|smart|none   the loop fusion policy (default smart)
  --tile-sizes=N[,N...]  tile sizes per band member (default 32)
  --no-tiling            no tiling
  --no-parallel          no parallel loops from the schedule
  --no-unroll-jam        no unroll-and-jam
  --autotune[=BUDGET]    search schedule variants by measurement first (successive halving, BUDGET timed runs,
                         default 24, one SCoP at a time; needs a main that prints results) and store each SCoP's
                         best in the tuning database
  --tuning-db=PATH       the tuning database (default $PGCC_TUNING_DB or ~/.cache/pgcc/tuning-db.json): -O3
                         compiles give each SCoP the variant stored for it
  --no-tuning-db         neither read nor write it (with --autotune: compile with what it found, store nothing)
  --scheduler ADDR       Dask scheduler (tcp://host:port) for --autotune (default: a local cluster)
  --autotune-measure=M   what --autotune's runs measure: auto (default: cycles, else task-clock, else wall),
                         cycles, task-clock (CPU time of the slowest thread) or wall

Automatic differentiation: no flag; __enzyme_autodiff / __enzyme_fwddiff calls in the source (Enzyme's API).

Output and inspection:
  --emit=STAGE           print the module after STAGE: mlir cleanup cpuify ad scop polyhedral llvm-dialect llvm
                         (scop: the SCoPs modelled and the loop nests left out, with the reason)
  --time-report          wall and CPU time of each stage and subprocess on stderr (also -ftime-report)
  --debug                Python tracebacks of internal errors

Remarks (clang's form, on stderr: file:line:col: remark: ... [-Rpass=STAGE]; stages: polyhedral, cpuify, ad):
  -Rpass=REGEX           what the stages matching REGEX did (SCoPs scheduled, loops parallel/tiled, barriers)
  -Rpass-missed=REGEX    what they did not do, and why (loop nest not a SCoP, dependence keeping a loop serial)
  -Rpass-analysis=REGEX  the facts behind it (statements, dependences, values an adjoint caches or recomputes)
  -fopt-info[-optimized|-missed|-note|-all][-loop|-omp]   gcc's spelling of the same

Compile cache (objects reused as ccache does; opt-in):
  --cache                use it (also on when PGCC_CACHE_DIR is set; PGCC_CACHE_SIZE: its limit, default 1G)
  --no-cache             not for this command

Driver:
  -v                     print the version, then each stage and external command as it runs, and compile
  -###                   print the stages and commands without running anything
  --version              the version (-dumpversion: the number only)
  --help                 this text
Unknown options are ignored with a warning."""
IGNORED_PREFIXES = ("-W", "-f", "-m", "-g", "-pedantic", "-pipe", "-ansi", "-w", "-save-temps", "--param")
# gcc options whose value is the next argument (so that the value is never taken for an input file).
CLANG_VALUE_FLAGS = ("-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter", "-imacros")
# x86 instruction-set options (gcc's and clang's spelling): they decide __SSSE3__, __AVX2__... and which
# <immintrin.h> intrinsics a function may call, so the parser gets them; other -m options change nothing here.
ISA_FEATURES = {"mmx", "sse", "sse2", "sse3", "ssse3", "sse4", "sse4.1", "sse4.2", "sse4a", "avx", "avx2", "fma",
                "f16c", "bmi", "bmi2", "lzcnt", "popcnt", "pclmul", "aes", "sha", "vpclmulqdq", "gfni", "vaes",
                "movbe", "adx", "rdrnd", "rdseed", "xsave", "crc32", "avx512f", "avx512bw", "avx512vl",
                "avx512dq", "avx512cd", "avx512vnni", "avxvnni"}


def is_isa_flag(a: str) -> bool:
    """Whether command-line argument `a` selects x86 instruction sets (-mavx2, -mno-sse4.1, -march=haswell)."""
    if a.startswith(("-march=", "-mtune=")):
        return True
    name = a[len("-mno-"):] if a.startswith("-mno-") else a[2:] if a.startswith("-m") else None
    return name in ISA_FEATURES


IGNORED_VALUE_FLAGS = ("--param", "-aux-info")
# -f flags that change what a program means. Honoured: -fwrapv and -fno-strict-aliasing describe what pgcc's code
# does anyway (signed overflow wraps, no type-based alias analysis), -ffast-math permits what pgcc does without
# it; passed to the parser: the signedness of plain char and bit-fields, -fcommon, -fno-builtin[-NAME] (the
# frontend and LLVM then call those library functions as written). Rejected: the rest.
CLANG_F = ("-funsigned-char", "-fsigned-char", "-funsigned-bitfields", "-fsigned-bitfields", "-fcommon",
           "-fno-common")
REJECTED_F = ("-ftrapv", "-fshort-enums", "-fshort-wchar", "-fpack-struct", "-fno-signed-char",
              "-fno-unsigned-char", "-fsanitize-trap", "-fstack-check", "-m32", "-mx32", "-m16",
              "-fsso-struct=big-endian", "-frounding-math")
REJECTED_F_PREFIXES = ("-fsanitize=", "-fpack-struct=", "-fsanitize-recover", "--specs=", "-specs=")
UNSUPPORTED = {
    "-emit-llvm": "-emit-llvm is not supported; use --emit=llvm",
}
LANGS = {"c": "c", "cuda": "cuda", "c++": "c++", "cu": "cuda"}
# nvcc's flags, so that Makefiles written for nvcc build with NVCC="pgcc --cpuify". GPU code generation and
# debugging options mean nothing for code that runs on the CPU; relocatable device code is how pgcc always
# links kernels across files (each stub is an ordinary external symbol).
NVCC_IGNORED = ("-lineinfo", "--generate-line-info", "-G", "--extended-lambda", "--expt-extended-lambda",
                "--expt-relaxed-constexpr", "-rdc=true", "-rdc=false", "--relocatable-device-code=true",
                "--relocatable-device-code=false", "-src-in-ptx", "--resource-usage", "-res-usage", "-keep",
                "--keep")
# (-Xptxas -v: the value is ptxas's, not a pgcc flag)
NVCC_IGNORED_VALUE = ("-arch", "--gpu-architecture", "-code", "--gpu-code", "-gencode", "--generate-code",
                      "-maxrregcount", "--maxrregcount", "-Xptxas", "--ptxas-options", "-rdc",
                      "--relocatable-device-code", "-Xnvlink", "--nvlink-options", "--default-stream", "-t",
                      "--threads", "-cudart", "--cudart", "-keep-dir", "--keep-dir")
NVCC_IGNORED_PREFIX = ("-arch=", "--gpu-architecture=", "-code=", "--gpu-code=", "-gencode=", "--generate-code=",
                       "-maxrregcount=", "--maxrregcount=", "-Xptxas=", "--ptxas-options=", "-Xnvlink=",
                       "--nvlink-options=", "--default-stream=", "--threads=", "-cudart=", "--cudart=",
                       "-prec-div=", "--prec-div=", "-prec-sqrt=", "--prec-sqrt=", "-ftz=", "--ftz=",
                       "-fmad=", "--fmad=", "-keep-dir=", "--keep-dir=")


def _cuda_toolkit_include(flag: str) -> bool:
    """Whether include flag `flag` (`-I/usr/local/cuda/include`) names a CUDA toolkit's include directory
    (holding the toolkit's cuda_runtime_api.h), which Makefiles written for nvcc pass: pgcc's own CUDA headers
    stand for the toolkit's, so that directory is not searched (its thrust/cub/cuBLAS headers are then the
    clear "needs the GPU toolkit" errors of cuda_split.toolkit_library)."""
    from .toolchain import cuda_include_dir
    d = flag[2:] if flag.startswith("-I") else flag
    return bool(d) and os.path.isfile(os.path.join(d, "cuda_runtime_api.h")) and \
        os.path.realpath(d) != os.path.realpath(cuda_include_dir())
CUDA_RUNTIME_LIBS = ("cudart", "cudart_static", "cuda", "cudadevrt")  # pgcc links its own runtime instead
VERSION = "0.1.0"


@dataclass
class Options:
    inputs: list = field(default_factory=list)
    languages: list = field(default_factory=list)   # per input: 'c', 'cuda', 'c++' (-x) or None (by suffix)
    output: str | None = None
    compile_only: bool = False
    assembly: bool = False
    preprocess_only: bool = False       # -E: the system's cc preprocesses (system_cc.py)
    deps_only: str | None = None        # -M / -MM: the system's cc lists the dependencies (system_cc.py)
    opt_level: int = 0                  # gcc's default; see device_opt_level for CUDA device code
    opt_given: bool = False             # an -O flag was given
    opt_flag: str = "-O0"               # the last -O flag as written (-Os...): the parser's predefined macros
    clang_args: list = field(default_factory=list)
    lib_dirs: list = field(default_factory=list)
    libs: list = field(default_factory=list)
    link_extra: list = field(default_factory=list)
    cpuify: bool = False
    polyhedral: bool | None = None      # None: on at -O3 (see wants_polyhedral)
    schedule_file: str | None = None
    fusion: str = "smart"
    tile_sizes: tuple | None = (32, 32, 32)
    tile_sizes_given: bool = False      # --tile-sizes: also for two-member bands (ScheduleOptions.two_member_tile)
    parallel: bool = True
    unroll_jam: bool = True
    fp_contract: str = "off"            # -ffp-contract=fast: FMA contraction (gcc's default); "on" is "off", as in gcc 12
    emit: str | None = None
    debug: bool = False
    warnings: list = field(default_factory=list)
    no_warnings: bool = False           # -w
    deps: str | None = None             # -MD (all headers) or -MMD (user headers only)
    dep_file: str | None = None         # -MF
    dep_targets: list = field(default_factory=list)   # -MT
    dep_phony: bool = False             # -MP
    info: str | None = None             # --version, --help, -dumpversion, -v alone: print and stop
    verbose: bool = False               # -v (and -###): list the stages and external commands (verbose.py)
    dry_run: bool = False               # -###: list them without running anything (dry_run)
    host_compiler: str | None = None    # -ccbin / --compiler-bindir (nvcc): the host C++ compiler of .cu files
    cuda_host: str = "c++"              # --cuda-host=c++ (nvcc's model) | pgcc (pgcc compiles host code too)
    host_flags: list = field(default_factory=list)   # -Xcompiler a,b: options for the host compiler
    device_link: bool = False           # nvcc -dlink: nothing to link on the device side (an empty object)
    time_report: bool = False           # --time-report / -ftime-report: per-stage wall and CPU times on stderr
    cache: bool | None = None           # --cache / --no-cache; None: on when PGCC_CACHE_DIR is set (compile_cache.py)
    remarks: dict = field(default_factory=dict)   # -Rpass*=REGEX, -fopt-info: {kind: regex text} (remarks.py)
    # --- autotuning (issue 21; affine/autotune.py, affine/tuning_db.py) ---
    autotune: int | bool | None = None  # --autotune[=BUDGET]: tune each C file's schedule variants first
    tuning_db: str | None = None        # --tuning-db=PATH (default $PGCC_TUNING_DB or ~/.cache/pgcc/tuning-db.json)
    no_tuning_db: bool = False          # --no-tuning-db: neither read nor write it
    scheduler: str | None = None        # --scheduler ADDR: the Dask scheduler the autotuner runs on
    autotune_measure: str = "auto"      # --autotune-measure=M: affine/measure.py's timing backend
    # --- end autotuning ---



def version_banner() -> str:
    """What `pgcc -v` prints (to stderr, as gcc): pgcc's version, the target and the toolchain it uses."""
    import platform

    import clang.cindex as ci

    from . import toolchain
    get = ci.conf.lib.clang_getClangVersion
    get.restype = ci._CXString
    clang_version = ci._CXString.from_result(get())
    return "\n".join([f"pgcc (polygeist-py) {VERSION}",
                      f"Target: {platform.machine()}-linux-gnu",
                      f"Parser: libclang ({clang_version})",
                      f"LLVM tools: {os.path.dirname(toolchain.llvm_tool('opt'))}",
                      f"Linker driver: {toolchain.linker()}",
                      f"Python: {platform.python_version()}"])

def parse_args(argv: list[str]) -> Options:
    """gcc-style command line -> Options.

    Raises:
        CompileError: a flag without its value, an unsupported mode (-E, -M), an unknown -x language, or no
            input files. Unknown flags are accepted with a warning (Options.warnings).
    """
    o = Options()
    lang = None
    i = 0
    while i < len(argv):
        a = argv[i]

        def value():
            nonlocal i
            if i + 1 >= len(argv):
                raise CompileError(f"argument to '{a}' is missing (expected 1 value)")
            i += 1
            return argv[i]

        if a == "-o":
            o.output = value()
        elif a == "-c":
            o.compile_only = True
        elif a == "-S":
            o.assembly = True
        elif a == "-E":
            o.preprocess_only = True
        elif a in UNSUPPORTED:
            raise CompileError(UNSUPPORTED[a])
        elif a in ("--version", "-dumpversion", "--help"):
            o.info = a
        elif a.startswith("-O"):
            o.opt_given = True
            o.opt_flag = a
            lvl = a[2:] or "1"
            o.opt_level = 2 if lvl in ("s", "z", "fast", "g") else int(lvl) if lvl.isdigit() else 2
            if lvl == "g":
                o.opt_level = 1
            o.opt_level = min(o.opt_level, 3)
        elif a in ("-I", "-isystem", "-idirafter") and i + 1 < len(argv) \
                and _cuda_toolkit_include(argv[i + 1]):
            value()  # nvcc's toolkit include directory: pgcc's CUDA headers stand for it
        elif a.startswith(("-I", "-isystem", "-idirafter")) and \
                _cuda_toolkit_include(a[len(next(f for f in ("-isystem", "-idirafter", "-I") if a.startswith(f))):]):
            pass
        elif a in CLANG_VALUE_FLAGS:
            o.clang_args += [a, value()]
        elif a.startswith(("-I", "-D", "-U", "-std=", "-iquote", "-isystem", "-idirafter")):
            o.clang_args.append(a)
        elif a.startswith("--std="):  # nvcc's spelling of -std
            o.clang_args.append(a[1:])
        elif a in NVCC_IGNORED:  # before -l: nvcc's -lineinfo is not a library
            pass
        elif a == "-x":
            lang = _language(value())
        elif a.startswith("-x"):
            lang = _language(a[2:])
        elif a in ("-MD", "-MMD"):
            o.deps = a[1:]
        elif a in ("-M", "-MM"):
            o.deps_only = a[1:]
        elif a == "-MP":
            o.dep_phony = True
        elif a == "-MF":
            o.dep_file = value()
        elif a.startswith("-MF"):
            o.dep_file = a[3:]
        elif a in ("-MT", "-MQ"):
            o.dep_targets.append(value())
        elif a.startswith("-MT"):
            o.dep_targets.append(a[3:])
        elif a == "-L":
            o.lib_dirs.append(value())
        elif a.startswith("-L"):
            o.lib_dirs.append(a[2:])
        elif a == "-l":
            o.libs.append(value())
        elif a.startswith("-l"):
            if a[2:] not in CUDA_RUNTIME_LIBS:
                o.libs.append(a[2:])
        elif a == "--cpuify":
            o.cpuify = True
        elif a in NVCC_IGNORED or a.startswith(NVCC_IGNORED_PREFIX):
            pass
        elif a in NVCC_IGNORED_VALUE:
            value()
        elif a in ("-Xcompiler", "--compiler-options"):
            o.host_flags += value().split(",")
        elif a.startswith(("-Xcompiler=", "--compiler-options=")):
            o.host_flags += a.split("=", 1)[1].split(",")
        elif a in ("--use_fast_math", "-use_fast_math"):
            o.fp_contract = "fast"  # nvcc's fast math fuses multiplies and adds; division and sqrt stay exact
        elif a in ("-dc", "--device-c"):
            o.compile_only = True
        elif a in ("-dlink", "--device-link"):
            o.device_link = True
        elif a.startswith("--cuda-host="):
            o.cuda_host = a.split("=", 1)[1]
            if o.cuda_host not in ("c++", "pgcc"):
                raise CompileError(f"--cuda-host expects c++ or pgcc, not '{o.cuda_host}'")
        elif a in ("-ccbin", "--compiler-bindir"):
            o.host_compiler = value()
        elif a.startswith(("-ccbin=", "--compiler-bindir=")):
            o.host_compiler = a.split("=", 1)[1]
        elif a in ("--polyhedral", "--no-polyhedral"):
            o.polyhedral = a == "--polyhedral"
        elif a.startswith("--schedule="):
            o.schedule_file, o.polyhedral = a.split("=", 1)[1], True
        elif a.startswith("--fusion="):
            o.fusion = a.split("=", 1)[1]
            if o.fusion not in ("max", "smart", "none"):
                raise CompileError(f"unknown fusion policy '{o.fusion}' (expected max, smart or none)")
        elif a.startswith("--tile-sizes="):
            o.tile_sizes, o.tile_sizes_given = _tile_sizes(a.split("=", 1)[1]), True
        elif a == "--no-tiling":
            o.tile_sizes = None
        elif a == "--no-parallel":
            o.parallel = False
        elif a.startswith("-ffp-contract="):
            value = a.split("=", 1)[1]
            if value not in ("off", "on", "fast"):
                raise CompileError(f"-ffp-contract expects off, on or fast, not '{value}'")
            o.fp_contract = "fast" if value == "fast" else "off"
        elif a == "--no-unroll-jam":
            o.unroll_jam = False
        # --- autotuning (issue 21) ---
        elif a == "--autotune" or a.startswith("--autotune="):
            o.autotune = _budget(a.split("=", 1)[1]) if "=" in a else True
        elif a.startswith("--tuning-db="):
            o.tuning_db = a.split("=", 1)[1]
        elif a == "--no-tuning-db":
            o.no_tuning_db = True
        elif a in ("--scheduler",) or a.startswith("--scheduler="):
            o.scheduler = a.split("=", 1)[1] if "=" in a else value()
        elif a.startswith("--autotune-measure="):
            o.autotune_measure = a.split("=", 1)[1]
            if o.autotune_measure not in ("auto", "cycles", "task-clock", "wall"):
                raise CompileError(f"--autotune-measure expects auto, cycles, task-clock or wall, "
                                   f"not '{o.autotune_measure}'")
        # --- end autotuning ---
        elif a.startswith("--emit="):
            o.emit = a.split("=", 1)[1]
            if o.emit not in EMIT_STAGES:
                raise CompileError(f"unknown --emit stage '{o.emit}' (expected one of {', '.join(EMIT_STAGES)})")
        elif a == "--debug":
            o.debug = True
        elif a in ("--time-report", "-ftime-report"):
            o.time_report = True
        elif a in ("--cache", "--no-cache"):
            o.cache = a == "--cache"
        elif a.startswith(("-Rpass=", "-Rpass-missed=", "-Rpass-analysis=")):
            flag, regex = a.split("=", 1)
            from .remarks import compile_pattern
            compile_pattern(flag, regex)  # an invalid one is an error now
            o.remarks[{"-Rpass": "pass", "-Rpass-missed": "missed", "-Rpass-analysis": "analysis"}[flag]] = regex
        elif a.startswith("-fopt-info"):
            from .remarks import from_opt_info
            o.remarks.update(from_opt_info(a))
        elif a.startswith("-R"):  # as clang: a warning
            o.warnings.append(f"pgcc: warning: unknown remark option '{a}' (pgcc knows -Rpass=, -Rpass-missed=, "
                              "-Rpass-analysis=)")
        elif a == "-fopenmp":
            o.clang_args.append(a)  # defines _OPENMP, as with gcc
        elif a == "-pthread":
            o.clang_args.append("-D_REENTRANT")  # what gcc's -pthread defines; the link gets -pthread too
            o.link_extra.append(a)
        elif a == "-w":
            o.no_warnings = True
        elif a == "-Werror" or a.startswith(("-Werror=", "-Wno-error=", "-Wimplicit", "-Wno-implicit")):
            # the parser turns warnings into errors itself, so `-Werror -Wno-error=X` leaves X a warning as in gcc
            o.clang_args.append(a)
        elif a == "-fpermissive":  # gcc 12: a C++ option, ignored with a warning for C
            o.warnings.append("pgcc: warning: command-line option '-fpermissive' is valid for C++ but not for C")
        elif a == "-Xlinker":
            o.link_extra += ["-Xlinker", value()]
        elif a.startswith("-Wl,") or a in ("-static", "-shared", "-rdynamic", "-no-pie", "-pie", "-s"):
            o.link_extra.append(a)
        elif a in IGNORED_VALUE_FLAGS:
            value()
        elif a == "-v":  # gcc: the version and configuration (alone), then the usual work
            o.verbose = True
        elif a == "-###":  # gcc: the commands that would run, not run
            o.verbose = o.dry_run = True
        elif a == "-ftrapping-math":  # (gcc's default, so only a build that means it writes it)
            o.warnings.append("pgcc: warning: -ftrapping-math is not honoured: like clang's default "
                              "(-fno-trapping-math), LLVM may evaluate a float operation ahead of the condition "
                              "that guards it, which traps in a program that enables floating-point traps")
        elif a in REJECTED_F or a.startswith(REJECTED_F_PREFIXES):
            raise CompileError(f"{a} is not supported by pgcc (it would change the program's meaning)")
        elif is_isa_flag(a):  # -mavx2, -msse4.1, -march=native: the parser's __AVX2__... and the intrinsics allowed
            o.clang_args.append(a)
        elif a in CLANG_F:
            o.clang_args.append(a)  # the language's own meaning of `char` and bit-fields: the parser applies it
        elif a == "-fno-builtin" or a.startswith("-fno-builtin" + "-"):  # (-fno-builtin-NAME)
            o.clang_args.append(a)  # library functions called as written (clang_ast.no_builtin_names, backend)
        elif a.startswith(IGNORED_PREFIXES):
            pass  # gcc flags that do not change the program's meaning
        elif a.startswith("-") and a != "-":
            o.warnings.append(f"pgcc: warning: ignoring unknown option '{a}'")
        else:
            o.inputs.append(a)
            o.languages.append(lang)
        i += 1
    if not o.inputs and o.info is None and o.verbose:
        o.info = "-v"
    if not o.inputs and o.info is None:
        raise CompileError("no input files")
    return o


def _language(name: str) -> str | None:
    if name == "none":
        return None
    if name not in LANGS:
        raise CompileError(f"language '{name}' not recognized (pgcc compiles c, cuda and c++; -x none resets)")
    return LANGS[name]


def _tile_sizes(text: str) -> tuple:
    try:
        sizes = tuple(int(t) for t in text.split(","))
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        raise CompileError(f"--tile-sizes expects positive integers separated by commas, not '{text}'")
    return sizes


# --- autotuning (issue 21) ---
def _budget(text: str) -> int:
    if not text.isdigit() or int(text) < 2:
        raise CompileError(f"--autotune expects a budget of at least 2 timed runs, not '{text}'")
    return int(text)


def tuned_options(path: str, o: Options, language: str | None, workdir: str) -> Options:
    """Options for compiling `path` after --autotune and with the tuning database's variant for its SCoPs
    (affine/tuning_db.options_for); `o` itself when neither can apply (checked without importing isl)."""
    if o.autotune is None and (o.no_tuning_db or not (o.polyhedral if o.polyhedral is not None
                                                      else o.opt_level >= 3)):
        return o
    if o.autotune is None:
        from .affine.tuning_db import default_path
        if not os.path.exists(o.tuning_db or default_path()):
            return o
    from .affine.tuning_db import options_for
    return options_for(path, o, language, workdir)
# --- end autotuning ---


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
                            tile_sizes=o.tile_sizes or (32,), parallel=o.parallel,
                            two_member_tile=None if o.tile_sizes_given else ScheduleOptions.two_member_tile,
                            unroll_jam=o.unroll_jam)
    user = read_schedule_file(o.schedule_file) if o.schedule_file else {}
    return PolyhedralOptions(schedule=sched, user_schedules=user, only_model=o.emit == "scop")


def lazy_polyhedral_options(o: Options):
    """None when the polyhedral stage is off, else a function returning polyhedral_options(o) (the stage calls it
    only for modules with affine loops: isl is imported only then). A --schedule file is read at once, so that
    its errors are reported whatever the program.

    Raises:
        CompileError: an unreadable or malformed --schedule file.
    """
    on = o.polyhedral if o.polyhedral is not None else (o.opt_level >= 3 or o.emit == "scop")
    if not on:
        return None
    if o.schedule_file or o.emit == "scop":
        from .time_report import phase
        with phase("imports (polyhedral: isl)"):
            return polyhedral_options(o)
    return lambda: polyhedral_options(o)


def compile_source(path: str, o: Options, workdir: str, source: str | None = None, language: str | None = None):
    """One .c/.cu file through every stage. Returns the object path (or None when only emitting text).

    Raises:
        CompileError: errors in the program (every parse error of the file), unsupported constructs;
            InternalError from a stage.
    """
    from .time_report import phase
    with phase("imports (libclang)"):
        from .clang_ast import dependencies, language_of, parse, warnings
    with phase("imports (MLIR)"):
        import_mlir()  # first of all MLIR imports (not on a compile cache hit: compile_cached)

    if o.cpuify and o.cuda_host == "c++" and (language or language_of(path)) == "c++" and source is None \
            and not (o.emit or o.assembly):
        return compile_cxx_file(path, o, workdir)  # nvcc hands .cpp files to the host compiler
    with phase("parse (libclang)", "frontend"):
        tu = parse(path, o.clang_args + optimize_macros(o), source, language)
    if not o.no_warnings:
        shown = warnings(tu, path)
        for w in shown:
            print(w, file=sys.stderr)
    stem = os.path.splitext(os.path.basename(path))[0]
    obj_name = o.output if (o.compile_only and o.output) else stem + ".o"
    if o.deps:
        write_dependencies(o, path, obj_name, dependencies(tu, system=o.deps == "MD"))
    global _included
    if _included is not None:  # the compile cache records what the unit included (compile_cached)
        _included = (dependencies(tu, system=True), dependencies(tu, system=False))
    from . import cuda_split
    if o.cpuify and o.cuda_host == "c++" and (language or ("cuda" if path.endswith(".cu") else None)) == "cuda" \
            and source is None and cuda_split.applies(tu, path):
        return compile_cuda_split(tu, path, o, workdir, obj_name, stem)
    return lower_to_object(tu, path, o, workdir, obj_name, stem)


# Set to RECORDING by compile_cached while it compiles a source; compile_source replaces it with the files the
# unit included: (all, user headers only).
RECORDING = "recording"
_included = None


def compile_cached(path: str, o: Options, workdir: str, language: str | None, cache):
    """compile_source through the compile cache `cache` (a compile_cache.Cache, or None: no cache). A hit copies
    the stored object where compile_source would write it, prints the diagnostics stored with it and writes the
    -MD/-MMD file; a miss compiles and stores the object. Returns the object path (None when only emitting text).

    Raises:
        CompileError: as compile_source (failed compilations are never stored).
    """
    from .time_report import phase

    global _included
    with phase("compile cache"):
        key = cache.first_key(path, o, language) if cache is not None and not o.emit else None
        hit = cache.lookup(key) if key is not None else None
    if key is None:
        return compile_source(path, o, workdir, language=language)
    stem = os.path.splitext(os.path.basename(path))[0]
    obj_name = o.output if (o.compile_only and o.output) else stem + ".o"
    if hit is not None:
        import shutil

        target = obj_name if o.compile_only else os.path.join(workdir, stem + ".o")
        check_output_dir(target)
        with phase("compile cache"):
            shutil.copyfile(hit["object"], target)
        sys.stderr.write(hit["stderr"])
        if o.deps:
            write_dependencies(o, path, obj_name, hit["headers"] if o.deps == "MD" else hit["user_headers"])
        return target
    from .compile_cache import Tee

    tee, saved = Tee(sys.stderr), sys.stderr
    _included, sys.stderr = RECORDING, tee
    try:
        obj = compile_source(path, o, workdir, language=language)
    finally:
        sys.stderr, included, _included = saved, _included, None
    if obj and isinstance(included, tuple):
        with phase("compile cache"):
            cache.store(key, obj, tee.text(), *included)
    return obj


def compile_cxx_file(path: str, o: Options, workdir: str) -> str:
    """A C++ file under --cpuify: compiled by the host C++ compiler, as nvcc compiles .cpp inputs (dependency
    files as the command line asks)."""
    from .host_compiler import compile_host

    out, deps = _cxx_output(path, o, workdir)
    check_output_dir(out)
    return compile_host(None, path, out, workdir, opt_level=o.opt_level, user_args=o.clang_args,
                        compiler=o.host_compiler, extra=tuple(o.host_flags + deps))


def _cxx_output(path: str, o: Options, workdir: str) -> tuple:
    """(object path, dependency-file flags) of compile_cxx_file."""
    stem = os.path.splitext(os.path.basename(path))[0]
    out = (o.output or stem + ".o") if o.compile_only else os.path.join(workdir, stem + ".o")
    deps = []
    if o.deps:
        deps = [f"-{o.deps}", *(["-MF", o.dep_file] if o.dep_file else []), *(["-MP"] if o.dep_phony else [])]
        deps += [f for t in o.dep_targets for f in ("-MT", t)]
    return out, deps


def is_cuda_unit(tu) -> bool:
    """Whether libclang parsed `tu` as CUDA."""
    return getattr(tu, "language", None) == "cuda"


def optimize_macros(o: Options) -> list:
    """The -O flag for a C unit's parser, whose predefined macros then are gcc's at that level: __OPTIMIZE__ at
    -O1 and above (glibc's fortified wrappers under -D_FORTIFY_SOURCE and its extern inline functions key on
    it), __OPTIMIZE_SIZE__ at -Os/-Oz, __NO_INLINE__ at -O0. Returns a list of at most one flag."""
    if o.opt_flag in ("-Os", "-Oz", "-Ofast"):
        return [o.opt_flag]
    return ["-O2"] if o.opt_flag != "-O0" and (o.opt_flag[2:] or "1") != "0" else []


def device_opt_level(o: Options) -> int:
    """The optimization level of CUDA device code: the command line's -O, else 2 (nvcc optimizes device code by
    default, while host code follows the host compiler's default, -O0)."""
    return o.opt_level if o.opt_given else 2


def lower_to_object(tu, path: str, o: Options, workdir: str, obj_name: str, stem: str, device_stubs=None):
    """A parsed unit through the stages, LLVM and llc; returns the object path (None when only emitting text).
    `device_stubs`: nvcc's model, the device side of a .cu file (cuda_split.py)."""
    from .time_report import phase
    with phase("imports (MLIR)"):
        from mlir import ir

        from .backend import compile_llvm_ir, translate_to_llvm_ir
        from .stages import STAGES, run_stages

    level = device_opt_level(o) if is_cuda_unit(tu) else o.opt_level
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = False
        module = run_stages(tu, path, cpuify=o.cpuify, on_stage=lambda stage, m: emit_here(o, stage, m),
                            polyhedral=lazy_polyhedral_options(o), on_scops=lambda reports, missed: emit_scops(o, reports, missed),
                            device_stubs=device_stubs, gep_flags_in_mlir=o.emit == "llvm-dialect")
        if o.emit in STAGES or o.emit == "scop":
            return None
        with phase("LLVM IR translation", "back end"):
            ll = translate_to_llvm_ir(module)
    if o.emit == "llvm":
        write_text(o, ll)
        return None
    if o.assembly:
        out = o.output or stem + ".s"
        check_output_dir(out)
        compile_llvm_ir(ll, out, level, "asm", workdir, o.fp_contract, o.clang_args)
        return None
    out = obj_name if o.compile_only and device_stubs is None else os.path.join(workdir, stem + ".o")
    check_output_dir(out)
    compile_llvm_ir(ll, out, level, "obj", workdir, o.fp_contract, o.clang_args)
    return out


def compile_cuda_split(tu, path: str, o: Options, workdir: str, obj_name: str, stem: str):
    """nvcc's model for a .cu file under --cpuify (cuda_split.py): the device side (kernels' stubs, kernels,
    device functions and variables) through pgcc's stages, the host side through the host C++ compiler, joined
    into one object. `--emit`/`-S` show the device side.

    Raises:
        CompileError: errors of either side (the host compiler's messages point into the .cu file).
    """
    from . import cuda_split
    from .clang_ast import parse
    from .host_compiler import compile_host, join_objects

    with open(path, "rb") as f:
        text = f.read()
    if b"<<" in text:  # `k << < g, b >> > (...)`: the text clang parsed (clang_ast.parse), the same length
        text = cuda_split.spaced_launch_brackets(text.decode("utf-8", errors="surrogateescape")).encode(
            "utf-8", errors="surrogateescape")
    named = cuda_split.extended_lambdas(tu, path, text)  # lambdas passed to kernels become named classes
    if named is not None:
        text = named
        tu = parse(path, o.clang_args, text.decode("utf-8", errors="surrogateescape"), "cuda")
    launches = cuda_split.find_launches(tu, path)
    from .cuda_instantiations import analysis_unit  # explicit instantiations' launches (a reparse when any)
    unit = analysis_unit(tu, path, text, o.clang_args)
    kernels = cuda_split.kernels(tu, path, cuda_split.instantiated_launches(unit, path), unit)
    stub_text, stubs = cuda_split.device_stubs(kernels)
    host_headers = {}
    host_text = cuda_split.host_source(tu, path, text, launches, host_headers)
    from .time_report import phase
    with phase("parse (libclang)", "frontend"):
        device_tu = parse(path, o.clang_args, text.decode("utf-8", errors="surrogateescape") + stub_text, "cuda")
    device_obj = lower_to_object(device_tu, path, o, workdir, obj_name, stem + ".device", device_stubs=stubs)
    if device_obj is None:
        return None
    with phase("host C++ compiler (c++)", "subprocesses"):
        host_obj = compile_host(host_text, path, os.path.join(workdir, stem + ".host.o"), workdir,
                                opt_level=o.opt_level, user_args=o.clang_args, compiler=o.host_compiler,
                                extra=tuple(o.host_flags), headers=host_headers)
    out = obj_name if o.compile_only else os.path.join(workdir, stem + ".o")
    check_output_dir(out)
    with phase("join objects (ld -r)", "subprocesses"):
        return join_objects([device_obj, host_obj], out, cuda_split.internal_symbols(tu, path, kernels))


def check_output_dir(out: str) -> None:
    """Raise CompileError when `out` cannot be written (llc would fail with a less clear message)."""
    d = os.path.dirname(out) or "."
    if not os.path.isdir(d):
        raise CompileError(f"cannot open output file '{out}': No such file or directory")
    if os.path.isdir(out):
        raise CompileError(f"cannot open output file '{out}': Is a directory")
    if not os.access(d, os.W_OK) or (os.path.exists(out) and not os.access(out, os.W_OK)):
        raise CompileError(f"cannot open output file '{out}': Permission denied")


def write_dependencies(o: Options, path: str, obj_name: str, headers: list[str]) -> None:
    """gcc's -MD/-MMD file: `obj: source headers...` (and with -MP an empty rule per header, so that make
    does not fail when a header is deleted). Written next to the object (`x.o` -> `x.d`) unless -MF names it."""
    def esc(name: str) -> str:
        return name.replace("$", "$$").replace(" ", "\\ ").replace("#", "\\#")

    dep_file = o.dep_file or os.path.splitext(obj_name)[0] + ".d"
    targets = " ".join(esc(t) for t in (o.dep_targets or [obj_name]))
    text = f"{targets}: {esc(path)}"
    for h in headers:
        text += f" \\\n {esc(h)}"
    text += "\n"
    if o.dep_phony:
        text += "".join(f"\n{esc(h)}:\n" for h in headers)
    with open(dep_file, "w") as f:
        f.write(text)


def emit_scops(o: Options, reports, not_modelled=()) -> bool:
    """With --emit=scop: write the polyhedral stage's reports (and the loop nests it did not model) as JSON and
    return True (stop); else False."""
    if o.emit != "scop":
        return False
    from .affine.describe import describe

    write_text(o, describe(reports, not_modelled))
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


def preprocess_inputs(o: Options, langs: list) -> int:
    """-E: each C input preprocessed by the system's cc (system_cc.py) to -o's file or stdout; -M/-MM: its
    dependencies listed by the system's cc (as make rules, to -MF's or -o's file or stdout); returns 0.

    Raises:
        CompileError: -o or -MF with several inputs, an input that is not C, or cc failed."""
    flag = "-" + o.deps_only if o.deps_only else "-E"
    if ((o.output and o.output != "-") or (o.deps_only and o.dep_file)) and len(o.inputs) > 1:
        raise CompileError(f"cannot specify {'-MF' if o.dep_file else '-o'} with {flag} and multiple files")
    for p, lang in zip(o.inputs, langs):
        if lang != "c" and not p.endswith((".S", ".sx", ".h")):
            raise CompileError(f"{p}: {flag} is supported for C files (and .S, headers) only")
        if o.deps_only:
            dependencies_only(p, o.clang_args, o.deps_only, o.output, o.dep_file, o.dep_targets, o.dep_phony)
        else:
            preprocess(p, o.clang_args + optimize_macros(o), o.output)
    return 0


def check_input(path: str) -> None:
    """Raise CompileError unless `path` is a readable regular file (gcc's wording)."""
    if not os.path.exists(path):
        raise CompileError(f"{path}: No such file or directory")
    if os.path.isdir(path):
        raise CompileError(f"{path}: Is a directory")
    if not os.access(path, os.R_OK):
        raise CompileError(f"{path}: Permission denied")


def run(argv: list[str]) -> int:
    """Compile and link as gcc would. Returns the exit status (0).

    Raises:
        CompileError: the first problem found (bad flags, unreadable inputs, errors in a source: every source
            is still compiled and its errors printed before the failure is raised), LinkError.
    """
    query = next((a for a in argv if a.startswith(LINKER_QUERIES)), None)
    if query is not None:  # libtool and configure ask where libraries live: pgcc links with the system's cc
        import subprocess

        from .toolchain import linker
        return subprocess.run([linker(), query]).returncode
    if argv == ["--cuda-home"]:  # a CUDA toolkit's layout for Makefiles that link with gcc -lcudart
        from .cuda_home import cuda_home
        print(cuda_home())
        return 0
    o = parse_args(argv)
    if o.time_report and o.info is None:
        from . import time_report
        report = time_report.start()
        try:
            return _run_parsed(o)
        finally:
            time_report.stop()
            time_report.print_report(report, time_report.process_start_wall())
    return _run_parsed(o)


def import_mlir() -> None:
    """Import the MLIR bindings (``mlir.ir``) without numpy, which they import only to register four attribute
    builders (F64/I32/I64/IndexElementsAttr from Python lists): numpy's import costs 0.06-0.1 s and starts
    BLAS threads, and most compilations never build such an attribute. The same four builders are registered
    here with numpy imported when one is first used. No effect when mlir.ir or numpy is already imported."""
    if "mlir.ir" in sys.modules or "numpy" in sys.modules:
        return
    sys.modules["numpy"] = None  # `import numpy` raises ImportError: mlir.ir skips its numpy builders
    try:
        from mlir import ir
    finally:
        del sys.modules["numpy"]

    def builder(dtype: str, element_type):
        def build(values, context):
            import numpy as np
            return ir.DenseElementsAttr.get(np.array(values, dtype=dtype), type=element_type(context),
                                            context=context)
        return build

    for kind, dtype, element_type in (
            ("F64ElementsAttr", "float64", lambda c: ir.F64Type.get(context=c)),
            ("I32ElementsAttr", "int32", lambda c: ir.IntegerType.get_signless(32, context=c)),
            ("I64ElementsAttr", "int64", lambda c: ir.IntegerType.get_signless(64, context=c)),
            ("IndexElementsAttr", "int64", lambda c: ir.IndexType.get(context=c))):
        ir.register_attribute_builder(kind)(builder(dtype, element_type))


def _run_parsed(o: Options) -> int:
    """run() after the command line is parsed (see run)."""
    from .time_report import phase
    with phase("imports (libclang)"):
        from . import clang_ast  # noqa: F401

    for w in o.warnings:
        print(w, file=sys.stderr)
    if o.verbose and o.info is None:
        print(version_banner(), file=sys.stderr)
    if o.info is not None:
        if o.info == "--help":
            print(HELP)
        elif o.info == "-v":
            print(version_banner(), file=sys.stderr)
        else:
            print(VERSION if o.info == "-dumpversion" else f"pgcc (polygeist-py) {VERSION}")
        return 0
    if o.dry_run:
        for line in dry_run(o, langs_of(o)):
            print(line, file=sys.stderr)
        return 0
    if o.verbose:
        from . import verbose
        verbose.start()
        try:
            return _compile_and_link(o)
        finally:
            verbose.stop()
    return _compile_and_link(o)


def langs_of(o: Options) -> list:
    """The language of each input ('c', 'cuda', 'c++'; None for linker inputs): -x, else the file's suffix."""
    from .clang_ast import language_of
    return [lang or language_of(p) for p, lang in zip(o.inputs, o.languages)]


def dry_run(o: Options, langs: list) -> list[str]:
    """What -### prints: per source, the stages pgcc runs in its own process (verbose.stage_line) and the
    external commands (verbose.command_line, quoted), then the link command; nothing is run. Object and
    temporary names are the ones a compilation would use, in a temporary directory shown as pgcc-XXXXXX.
    Stages that depend on the source say when they run."""
    import tempfile

    from .backend import backend_commands, link_command, needs_cxx_library
    from .host_compiler import host_command, join_command, runtime_archive_path
    from .verbose import command_line, stage_line

    work = os.path.join(tempfile.gettempdir(), "pgcc-XXXXXX")
    lines, objects = [], []
    stops = o.compile_only or o.assembly or o.emit
    for path, lang in zip(o.inputs, langs):
        if not lang:
            objects.append(path)
            continue
        stem = os.path.splitext(os.path.basename(path))[0]
        obj_name = o.output if (o.compile_only and o.output) else stem + ".o"
        if o.cpuify and o.cuda_host == "c++" and lang == "c++" and not (o.emit or o.assembly):
            out, deps = _cxx_output(path, o, work)
            lines.append(command_line(host_command(True, path, out, work, opt_level=o.opt_level,
                                                   user_args=o.clang_args, compiler=o.host_compiler,
                                                   extra=tuple(o.host_flags + deps)), quoted=True))
            objects.append(out)
            continue
        split = o.cpuify and o.cuda_host == "c++" and lang == "cuda"
        level = device_opt_level(o) if lang == "cuda" else o.opt_level
        polyhedral = o.polyhedral if o.polyhedral is not None else (o.opt_level >= 3 or o.emit == "scop")
        lines += [stage_line(f"parse (libclang) of {path}", "frontend"), stage_line("walk / codegen", "frontend"),
                  stage_line("cleanup", "MLIR passes")]
        if lang == "cuda":
            lines.append(stage_line("cpuify (kernel launches as OpenMP loops)", "cpuify"))
        lines.append(stage_line("automatic differentiation (when the source calls __enzyme_autodiff or "
                                "__enzyme_fwddiff)", "AD"))
        if polyhedral:
            lines.append(stage_line("SCoPs, isl scheduling, codegen (when the source has affine loops)",
                                    "polyhedral"))
        lines += [stage_line("lowering to the LLVM dialect", "MLIR passes"),
                  stage_line("LLVM IR translation", "back end")]
        if o.emit:
            continue
        if o.assembly:
            out = o.output or stem + ".s"
        elif split or not o.compile_only:
            out = os.path.join(work, stem + (".device.o" if split else ".o"))
        else:
            out = obj_name
        base = os.path.join(work, os.path.basename(out))
        lines += [command_line(c, quoted=True) for c in backend_commands(
            base + ".ll", base + ".opt.bc", out, level, "asm" if o.assembly else "obj", o.fp_contract,
            o.clang_args)]
        if split and not o.assembly:  # nvcc's model (cuda_split.py): the host half, then one object
            host_obj = os.path.join(work, stem + ".host.o")
            lines.append(command_line(host_command(False, path, host_obj, work, opt_level=o.opt_level,
                                                   user_args=o.clang_args, compiler=o.host_compiler,
                                                   extra=tuple(o.host_flags)), quoted=True))
            joined = obj_name if o.compile_only else os.path.join(work, stem + ".o")
            lines.append(command_line(join_command([out, host_obj], joined), quoted=True))
            out = joined
        if not o.assembly:
            objects.append(out)
    if not stops:
        lines.append(command_line(link_command(objects + [runtime_archive_path()], o.output or "a.out",
                                               o.lib_dirs, o.libs, o.link_extra, needs_cxx_library(langs, o.libs)),
                                  quoted=True))
    return lines


def _compile_and_link(o: Options) -> int:
    """_run_parsed after the informational options: compile every source, then link (see run)."""
    from .time_report import phase
    if o.device_link:  # nvcc -dlink a.o b.o -o link.o: pgcc's kernels link as ordinary symbols already
        from .host_compiler import empty_object
        empty_object(o.output or "a_dlink.o")
        return 0
    langs = langs_of(o)
    for p, lang in zip(o.inputs, langs):
        if lang is None and p.endswith((".h", ".hpp", ".cuh")) and not o.preprocess_only:  # (`-x c x.h` does)
            raise CompileError(f"{p}: cannot compile a header (precompiled headers are not supported)")
        check_input(p)
    if o.preprocess_only or o.deps_only:
        return preprocess_inputs(o, langs)
    sources = [p for p, lang in zip(o.inputs, langs) if lang or (o.compile_only and is_assembly(p))]
    if (o.compile_only or o.assembly or o.emit) and o.output and len(sources) > 1:
        raise CompileError("cannot specify -o with -c, -S or --emit and multiple files")
    if o.dep_file and len(sources) > 1:
        raise CompileError("cannot specify -MF with multiple files")
    stops = o.compile_only or o.assembly or o.emit
    if stops and len(sources) < len(o.inputs):
        print("pgcc: warning: linker input files unused because linking not done", file=sys.stderr)
    failed = 0
    import contextlib

    from .compile_cache import for_options
    from .progress import Progress
    cache = for_options(o)
    from . import remarks
    remarks.set_active(remarks.Remarks({k: remarks.compile_pattern(k, v) for k, v in o.remarks.items()})
                       if o.remarks else None)
    with tempfile.TemporaryDirectory(prefix="pgcc-") as work:
        objects = []
        for p, lang in zip(o.inputs, langs):
            if not lang and o.compile_only and is_assembly(p):  # `pgcc -c x.S`: cc assembles it
                assemble(p, o.clang_args, o.output or os.path.splitext(os.path.basename(p))[0] + ".o")
                continue
            if not lang:
                objects.append(p)
                continue
            try:
                try:
                    with Progress(p) if not o.verbose else contextlib.nullcontext():  # a line for long units
                        obj = compile_cached(p, tuned_options(p, o, lang, work), work, lang, cache)  # issue 21
                finally:
                    check_callbacks(p)  # a failed callback explains whatever went wrong after it
            except CompileError as e:
                # like gcc: report this file's errors and go on with the other files, then fail
                if len(sources) == 1 or isinstance(e, InternalError):
                    raise
                print(e.render(), file=sys.stderr)
                failed += 1
                continue
            except (KeyboardInterrupt, OSError):
                raise
            except MemoryError:
                raise CompileError(f"{p}: out of memory") from None
            except RecursionError:  # beyond the deep stack main() runs on: a limit, not a bug
                raise CompileError(f"{p}: expressions or statements nested too deeply for pgcc") from None
            except Exception as e:
                raise InternalError(f"{type(e).__name__} while compiling '{p}': {e}") from e
            if obj:
                objects.append(obj)
        if failed:
            return 1
        if stops:
            return 0
        with phase("imports (MLIR)"):
            from .backend import link, needs_cxx_library
            from .host_compiler import runtime_archive
        with phase("link (cc)", "subprocesses"):
            link(objects + [runtime_archive()], o.output or "a.out", o.lib_dirs, o.libs, o.link_extra,
                 needs_cxx_library(langs, o.libs))
    return 0


def summary(message: str) -> str:
    """One line for an internal error: the message's first line, completed by the first MLIR `error:` line
    when it ends in a colon ("Verification failed:")."""
    lines = [ln.strip() for ln in (message or "").splitlines() if ln.strip()]
    if not lines:
        return ""
    first = lines[0]
    if first.endswith(":"):
        detail = next((ln for ln in lines[1:] if "error:" in ln), lines[1] if len(lines) > 1 else "")
        first = f"{first} {detail.split('error:', 1)[-1].strip()}"
    return first[:300]


# Exceptions raised inside ctypes callbacks (libclang's child visitor) cannot propagate: Python prints them and
# the visit silently stops early, which would compile a truncated tree. They are collected here and turned
# into an error after the file is compiled.
_callback_errors: list = []


def _unraisable(info) -> None:
    _callback_errors.append(info.exc_value)


def check_callbacks(path: str) -> None:
    """Raise the first exception swallowed by a libclang callback while `path` was compiled (see above)."""
    if not _callback_errors:
        return
    e = _callback_errors[0]
    _callback_errors.clear()
    if isinstance(e, RecursionError) or isinstance(e.__context__, RecursionError) or "RecursionError" in str(e):
        raise CompileError(f"{path}: expressions or statements nested too deeply for pgcc")
    raise InternalError(f"{type(e).__name__} in a libclang callback while compiling '{path}': {e}") from e


STACK_BYTES = 512 << 20
RECURSION_LIMIT = 60000


def on_deep_stack(fn, *args):
    """Run fn(*args) on a thread with a large C stack and a high recursion limit: the frontend recurses once
    per nesting level of the program (long `a+b+c+...` chains included). Returns fn's result or re-raises."""
    import threading

    result, error = [], []

    def body():
        try:
            result.append(fn(*args))
        except BaseException as e:  # noqa: BLE001 - handed to the calling thread
            error.append(e)

    old_size, old_limit, old_hook = threading.stack_size(), sys.getrecursionlimit(), sys.unraisablehook
    try:
        threading.stack_size(STACK_BYTES)
        sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
        sys.unraisablehook = _unraisable
        t = threading.Thread(target=body, daemon=True)
        t.start()
    finally:
        threading.stack_size(old_size)
    try:
        t.join()
    finally:
        sys.setrecursionlimit(old_limit)
        sys.unraisablehook = old_hook
    if error:
        raise error[0]
    return result[0]


# The cyclic garbage collector's thresholds for a compilation: by default (a young-generation collection every 700
# net allocations) it ran 120-130 collections while a PolyBench-style kernel compiled, 30-40 ms of pgcc's own CPU
# time, nearly all during the imports and the walk, which leave few cycles. With these, 4 collections, 14 ms
# (measured with gc.callbacks; peak memory unchanged on the kernels, +5% on Lua's lvm.c).
GC_THRESHOLDS = (20000, 10, 10)


def main(argv: list[str] | None = None) -> int:
    """The `pgcc` command. Returns the exit status (0, or 1 after printing a diagnostic; never a traceback
    unless --debug). When run as a script, exits with it."""
    argv = sys.argv[1:] if argv is None else argv
    import gc
    gc.set_threshold(*GC_THRESHOLDS)
    debug = "--debug" in argv
    _callback_errors.clear()
    try:
        code = on_deep_stack(run, argv)
    except InternalError as e:
        first = summary(e.message)
        print(f"pgcc: internal compiler error: {first}" + ("" if debug else " (run with --debug for the trace)"),
              file=sys.stderr)
        if debug:
            print(e.message, file=sys.stderr)
            traceback.print_exc()
        code = 1
    except CompileError as e:
        print(e.render(), file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        code = 130
    except OSError as e:  # the file system refused (unwritable output, disk full): the user's environment
        print(f"pgcc: error: {e.strerror or e}{': ' + repr(e.filename) if e.filename else ''}", file=sys.stderr)
        if debug:
            traceback.print_exc()
        code = 1
    except Exception as e:  # anything else is our bug, never the user's
        msg = summary(str(e))
        print(f"pgcc: internal compiler error: {type(e).__name__}: {msg} (run with --debug for the trace)",
              file=sys.stderr)
        if debug:
            traceback.print_exc()
        code = 1
    sys.exit(code) if __name__ == "__main__" else None
    return code


def console_main() -> None:
    """The `pgcc` script's entry point: main(), then exit without the interpreter's teardown (exit_now)."""
    exit_now(main())


def exit_now(code: int) -> None:
    """End the process with status `code` (int) without the interpreter's teardown, as gcc's and clang's
    drivers skip freeing their memory (clang -cc1's -disable-free): freeing the MLIR context, the libclang
    translation unit, isl's objects and some 300 modules' objects cost 0.05-0.1 s of CPU after every
    compilation (gemm -O3: 0.87 s -> 0.79 s with opt, llc and cc). Exit handlers run and the standard streams
    are flushed first; every file pgcc writes is closed by then (`with` blocks). A flush that fails (a closed
    pipe) gives status 120, as the interpreter's own exit does."""
    import atexit
    code = code or 0
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120
    os._exit(code)


if __name__ == "__main__":
    main()
