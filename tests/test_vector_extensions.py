"""GCC vector extensions (frontend/vectors.py) and the x86 intrinsic headers (frontend/x86_builtins.py): programs
written as SIMD libraries write them print what gcc's build prints, the instruction-set options set the macros
gcc sets, and what pgcc does not lower is an error naming it."""

import subprocess

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, compile_error, run_exe

C = PROGRAMS / "c"


def same_as_gcc(src, tmp, opt, flags=()):
    ref = run_exe(build_gcc(src, tmp / "ref", extra=flags))
    assert ref.returncode == 0 and ref.stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt, *flags)))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)
    return got.stdout


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_vector_extension_operators(opt, tmp):
    """vector_size types: a four-lane hash against its scalar loop (unaligned loads through an aligned(1)
    typedef), element-wise arithmetic, shifts, 0/-1 compare masks, negation and complement, scalar operands,
    v[i] reads and writes, compound assignment, __builtin_shufflevector, __builtin_convertvector, casts between
    vector types, vectors passed and returned, arrays of vectors, vectors in unions, structs and globals."""
    out = same_as_gcc(C / "vector_extensions.c", tmp, opt)
    assert "lt: 0 -1 0 -1" in out  # (spot checks: a mistake shared with the reference build cannot hide)
    assert "shuffle: 1 7 5 100" in out


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_sse2_kernels(opt, tmp):
    """<emmintrin.h> at the default target (SSE2, as gcc): an Adler-32 with psadbw/pmaddwd, a 64-bit
    multiply-accumulate hash round with pmuludq and pshufd, a pcmpeqb/pmovmskb byte search, each equal to its
    scalar path; saturating, averaging, min/max, byte shifts, packs, 16-bit multiplies, inserts/extracts, double
    and float conversions."""
    out = same_as_gcc(C / "sse2_kernels.c", tmp, opt)
    adler = out.split("\n")[0].split()
    assert adler[1] == adler[2]


def test_target_attributes_and_avx2_flag(tmp):
    """SSSE3, SSE4.1 and AVX2 intrinsics in functions with target attributes (pshufb, pmaddubsw, blends,
    extracts, ptest, phminposuw, palignr, permutes, variable shifts, 128-bit lane moves, psadbw; every
    immediate-operand shuffle and blend form, float compares/rounding/dot products; masked loads and stores,
    gathers); built plain at -O0 and with -mavx2 at -O2 (which also defines __AVX2__, as gcc)."""
    same_as_gcc(C / "simd_dispatch.c", tmp, "-O0")
    out = same_as_gcc(C / "simd_dispatch.c", tmp, "-O2", flags=("-mavx2",))
    assert "compiled with AVX2" in out


def test_instruction_set_macros_match_gcc(tmp):
    """-m options and -march= set the macros gcc sets (the default target: SSE2 only)."""
    src = tmp / "isa.c"
    src.write_text("#include <stdio.h>\nint main(void) {\n" + "".join(
        f"#ifdef {m}\n  puts(\"{m}\");\n#endif\n" for m in ("__SSE2__", "__SSE3__", "__SSSE3__", "__SSE4_1__",
                                                             "__SSE4_2__", "__AVX__", "__AVX2__", "__PCLMUL__"))
                   + "  return 0;\n}\n")
    for flags in ((), ("-march=x86-64-v3", "-mpclmul")):
        ref = subprocess.run(["gcc", *flags, "-dM", "-E", "-x", "c", "/dev/null"], capture_output=True, text=True)
        want = sorted(m for m in ("__SSE2__", "__SSE3__", "__SSSE3__", "__SSE4_1__", "__SSE4_2__", "__AVX__",
                                  "__AVX2__", "__PCLMUL__") if f"#define {m} " in ref.stdout)
        got = run_exe(build_pgcc(src, tmp / "isa", extra=flags)).stdout.split()
        assert sorted(got) == want, flags


def test_unsupported_simd_is_a_clear_error(tmp):
    """A builtin with no lowering, and a vector type with no MLIR form (clang's bool vectors), are errors at
    their place naming them."""
    err = compile_error(tmp / "a.c", "#include <immintrin.h>\n"
                        "__m512 f(__m512 a) { return _mm512_getexp_ps(a); }\n"
                        "int main(void) { return 0; }\n", flags=("-O2", "-mavx512f"))
    assert "unsupported builtin '__builtin_ia32_getexpps512_mask'" in err
    err = compile_error(tmp / "b.c", "typedef _Bool b4 __attribute__((ext_vector_type(4)));\n"
                        "int f(b4 x) { return x[0]; }\nint main(void) { return 0; }\n")
    assert "b.c:2:" in err and "vector type '_Bool" in err


def test_intrinsic_outside_its_instruction_set_is_an_error(tmp):
    """An SSSE3 intrinsic in a function compiled for the default target is gcc's error (it would be code for a
    processor the program does not target); -mssse3 or a target attribute (also one implying it) allows it."""
    code = ("#include <tmmintrin.h>\n"
            "__attribute__((target(\"avx2\"))) int g(__m128i a) { return _mm_cvtsi128_si32(_mm_shuffle_epi8(a, a)); }\n"
            "int f(__m128i a) { return _mm_cvtsi128_si32(_mm_shuffle_epi8(a, a)); }\n"
            "int main(void) { return f(_mm_set1_epi8(3)) - g(_mm_set1_epi8(3)); }\n")
    assert subprocess.run(["gcc", "-x", "c", "-", "-o", str(tmp / "g")], input=code, text=True,
                          capture_output=True).returncode != 0
    err = compile_error(tmp / "s.c", code)
    assert "s.c:3:" in err and "'_mm_shuffle_epi8' requires target feature 'ssse3'" in err and "'f'" in err
    got = run_exe(build_pgcc(tmp / "s.c", tmp / "s", extra=("-mssse3",)))
    assert got.returncode == 0


def test_scalar_intrinsics(tmp):
    """BMI/BMI2/LZCNT, crc32, AES, PCLMUL, fences, pause, MXCSR and rdtsc (declared builtins without bodies:
    `void _mm_pause(void);`) are LLVM's x86 intrinsics, never calls of functions that do not exist; an AVX-512
    round as xxh3 writes it (512-bit shuffles, multiplies and shifts, masked moves)."""
    same_as_gcc(C / "x86_scalar_intrinsics.c", tmp, "-O2")


@pytest.mark.parametrize("pgcc_side", ["main", "lib"])
def test_vector_abi_links_with_gcc(tmp, pgcc_side):
    """Vector arguments and results in SSE registers (they leave the integer registers to a record of two
    longs after them; seven of them leave too few SSE registers for two-double records after them: those go
    to memory, as gcc passes them), an 8-byte vector in a small record (SSE class), a vector in a record
    bigger than 16 bytes (memory); the other half compiled by gcc."""
    gcc_src = C / ("vector_abi_lib.c" if pgcc_side == "main" else "vector_abi_main.c")
    pg_src = C / ("vector_abi_main.c" if pgcc_side == "main" else "vector_abi_lib.c")
    r = subprocess.run(["gcc", "-O0", "-c", str(gcc_src), "-o", str(tmp / "gcc.o")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    mixed = run_exe(build_pgcc(pg_src, tmp / "mixed", extra=(str(tmp / "gcc.o"),)))
    ref = run_exe(build_gcc(C / "vector_abi_main.c", tmp / "ref", extra=(str(C / "vector_abi_lib.c"),)))
    assert ref.stdout == "ints 656\n4 5 10 3 5 8 4328\n"
    assert (mixed.stdout, mixed.returncode) == (ref.stdout, 0)


def _cpu_has(flag):
    try:
        return f" {flag} " in open("/proc/cpuinfo").read().replace("\n", " ")
    except OSError:
        return False


def test_vector_records_link_with_gcc(tmp):
    """Records holding one vector (`struct { __m128i v; }`, nested, unions of vector types) in one XMM register,
    with AVX a 32-byte one in a YMM register and with AVX-512F (where the CPU has it) a 64-byte one in a ZMM
    register; more than eight of them leave the last in memory; unions of a vector and an int (float) array in
    two integer (SSE) registers; va_arg of 16-byte ones (XMM save slots) and 32-byte ones (memory); each half
    compiled by gcc."""
    flags = ("-mavx512f",) if _cpu_has("avx512f") else ("-mavx2",)
    ref = run_exe(build_gcc(C / "vector_record_abi_main.c", tmp / "ref",
                            extra=(str(C / "vector_record_abi_lib.c"), *flags, "-Wno-psabi")))
    assert ref.returncode == 0 and "u_twist 12 9 6 3" in ref.stdout
    for pg, other in (("main", "lib"), ("lib", "main")):
        obj = tmp / f"gcc_{other}.o"
        r = subprocess.run(["gcc", "-O2", *flags, "-c", str(C / f"vector_record_abi_{other}.c"), "-o", str(obj)],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        got = run_exe(build_pgcc(C / f"vector_record_abi_{pg}.c", tmp / f"pg_{pg}", extra=(*flags, str(obj))))
        assert (got.stdout, got.returncode) == (ref.stdout, 0), pg


def test_wide_vector_by_value_without_avx_is_an_error(tmp):
    """A 32-byte vector parameter without AVX (gcc passes it in memory, LLVM would split it over two XMM
    registers) is an error naming it; with -mavx, or in a function whose target attribute has AVX, it is not."""
    code = ("typedef int v8si __attribute__((vector_size(32)));\n"
            "__attribute__((target(\"avx2\"))) v8si ok(v8si a) { return a + 1; }\n"
            "v8si twice(v8si a) { return a * 2; }\n"
            "int main(void) { return 0; }\n")
    err = compile_error(tmp / "w.c", code)
    assert "w.c:3:" in err and "32-byte vector 'v8si' passed or returned by value without AVX" in err
    assert "ok" not in err.replace("-mavx", "")
    (tmp / "w.c").write_text(code)
    assert run_exe(build_pgcc(tmp / "w.c", tmp / "w", extra=("-mavx",))).returncode == 0


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_simd_edge_cases(opt, tmp):
    """Where SIMD compilers differ (tests/programs/c/simd_edge_cases.c): unaligned loads and stores at every
    offset, intrinsic shifts by counts at and past the element width, saturating adds and packs, movemasks,
    compare masks as selects, NaN compares and min/max, constant shuffles and byte shifts of 16 and more, float
    to int conversions under the default rounding and out of range, vector division and modulo, vectors of 4 to
    64 bytes in static functions, records and unions, __builtin_convertvector and __builtin_bit_cast (gcc 12's C
    has none: its build copies the bytes); at -O2 also for this machine's CPU (-march=native, as gcc)."""
    out = same_as_gcc(C / "simd_edge_cases.c", tmp, opt, flags=("-march=native",) if opt == "-O2" else ())
    assert "slli32: 0 0 0 0" in out and "srai40: 0 -1 0 -1" in out
    assert "bit_cast bfc00000" in out


def test_long_double_complex(tmp):
    """long double _Complex: initialized globals exact to x87 precision, arithmetic, libm's functions (x87
    results in st0/st1, arguments in memory), records holding one by value, va_arg, conversions; an array
    initialized with parts that are not doubles is an error (MLIR's translation would round them)."""
    out = same_as_gcc(C / "long_double_complex.c", tmp, "-O2")
    assert "held scale 0.1428571428571428571" in out
    err = compile_error(tmp / "l.c", "long double _Complex t[2] = { 1.0L / 3 };\nint main(void) { return 0; }\n")
    assert "l.c:1:" in err and "array of long double _Complex" in err


def test_cpu_dispatch(tmp):
    """An ifunc whose resolver picks a kernel by __builtin_cpu_supports (an LLVM ifunc: the dynamic linker binds
    it), a resolver's result called directly, target_clones (its default version), and the values of gcc's
    __builtin_cpu_supports / __builtin_cpu_is read from libgcc's CPU model, as gcc's build prints them."""
    out = same_as_gcc(C / "cpu_dispatch.c", tmp, "-O2")
    sums = out.split("\n")[0].split()[1:]
    assert len(set(sums)) == 1  # (the dispatched kernel agrees with the scalar one)
    err = compile_error(tmp / "c.c", "int main(void) { return __builtin_cpu_is(\"znver4\"); }\n")
    assert "c.c:1:" in err and "'znver4' (not a processor gcc 12 knows)" in err


def test_avx512_kernels(tmp):
    """AVX-512 intrinsics in functions with a target attribute (tests/programs/c/avx512_kernels.c, built for the
    default target and run where __builtin_cpu_supports finds the extensions) print what gcc's build prints:
    masks as vector<N x i1>, masked memory operations, permutes, reductions in gcc's order, rotates, valign,
    ternary logic, VNNI/IFMA/VBMI/GFNI through LLVM's intrinsics."""
    out = same_as_gcc(C / "avx512_kernels.c", tmp, "-O2")
    assert "kor " in out and "ternlog:" in out or "lacks an AVX-512 extension" in out
