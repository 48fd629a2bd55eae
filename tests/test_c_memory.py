"""The C memory model: structs, unions, bit-fields, pointers, function pointers and libc calls compiled by pgcc
print what gcc -O0 builds print; aggregates cross function boundaries under the x86-64 C ABI (objects from gcc
and from pgcc link together); what pgcc cannot translate is an error at its position."""

import subprocess

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, run_exe, run_pgcc

C = PROGRAMS / "c"


def same_as_gcc(name, tmp, args=(), status=0):
    src = C / name
    ref = run_exe(build_gcc(src, tmp / "ref"), args=[str(tmp / "ref_io.txt")] if args else ())
    got = run_exe(build_pgcc(src, tmp / "app"), args=[str(tmp / "app_io.txt")] if args else ())
    assert ref.returncode == status, ref.stderr
    assert (got.stdout, got.stderr, got.returncode) == (ref.stdout, ref.stderr, ref.returncode)
    return got.stdout


def test_structs(tmp):
    out = same_as_gcc("structs.c", tmp)
    assert "42 42" in out and "60 14" in out  # pointer to pointer to struct; struct returned in memory


def test_struct_globals_and_arrays(tmp):
    """Global arrays of structs with brace elision, static local structs, pointers into arrays of structs."""
    out = same_as_gcc("struct_globals.c", tmp)
    assert "1 1.5 2 2.5 first 3 3.5 4 0 second" in out and "12 14" in out


def test_designated_initializers(tmp):
    """Nested designators, positional continuation after them in the innermost aggregate, brace elision."""
    out = same_as_gcc("designators.c", tmp)
    assert out.count("3 1 5 6 0 | 8 9 0 0 | 2 0 0 7 | 0") == 2 and "0 0 1 1 0 0 4 4 5 5" in out


def test_flexible_array_member(tmp):
    """A malloc'd struct with a flexible array member, read as a memref through a decayed pointer."""
    assert same_as_gcc("flexible_array.c", tmp) == "8 122.5 101.5\n"


def test_struct_values(tmp):
    """Conditional, compound literals, assignment as a value, arrays of structs in structs."""
    out = same_as_gcc("struct_values.c", tmp)
    assert "6 4 11 5 6" in out


def test_struct_kernel_arguments_cpuify(tmp):
    r = run_pgcc([C / "kernel_struct_args.cu", "--cpuify", "-O2", "-o", tmp / "app", "--cuda-path=/nonexistent"])
    assert r.returncode == 0, r.stderr
    for n in (1, 2):
        assert run_exe(tmp / "app", threads=n).stdout == "2 44 956\n"


def test_struct_local_across_syncthreads(tmp):
    """A kernel's struct local (raw bytes behind an !llvm.ptr) used on both sides of __syncthreads()."""
    r = run_pgcc([C / "kernel_struct_barrier.cu", "--cpuify", "-O2", "-o", tmp / "app", "--cuda-path=/nonexistent"])
    assert r.returncode == 0, r.stderr
    for n in (1, 2):
        assert run_exe(tmp / "app", threads=n).stdout == "1 189 8064\n"


def test_pointers(tmp):
    out = same_as_gcc("pointers.c", tmp)
    assert "25 9 36" in out and "ABC 3 1" in out


def test_pointer_integer_conversions(tmp):
    """(uintptr_t)p and back (alignment tests, xor-linked lists)."""
    assert same_as_gcc("pointer_integers.c", tmp) == "0\n7.5 1\n2 1\n"


def test_unions_enums_bitfields(tmp):
    out = same_as_gcc("unions_bitfields.c", tmp)
    assert "1 -12 -1 0 16" in out  # wrapped unsigned and sign-extended signed bit-fields


def test_bitfield_assignment_values(tmp):
    """An assignment to a bit-field has the field's (truncated, sign-extended) value."""
    out = same_as_gcc("bitfield_values.c", tmp)
    assert out.startswith("4 5 5 -1096 5")
    assert same_as_gcc("enum_bitfields.c", tmp) == "3 -2\n"  # unsigned enum fields zero-extend


def test_anonymous_struct_and_union_members(tmp):
    """`s.i` where i sits in an anonymous union inside s: offsets relative to s."""
    out = same_as_gcc("anonymous_members.c", tmp)
    assert out == "2 3 4 9 5 8 12\n"


def test_designators_naming_anonymous_members(tmp):
    """`{ .x = 3 }` where x sits in an anonymous struct inside an anonymous union (it was an error)."""
    out = same_as_gcc("anonymous_designators.c", tmp)
    assert out.startswith("3 4 1 | 0 9 2\n7 5 0 k m\n"), out


def test_more_libc(tmp):
    """bsearch with a comparator, strtok, time/clock, ctype, fputs/fputc, exit status."""
    out = same_as_gcc("libc_more.c", tmp, status=3)
    assert "cat 3" in out and "[a][bb][ccc]" in out


def test_function_pointers(tmp):
    out = same_as_gcc("funcptrs.c", tmp)
    assert "0 1 2 3 5 7 8 9" in out  # qsort with a pgcc-compiled comparator


def test_indirect_calls_with_structs(tmp):
    """Through function pointers: structs in memory (byval, sret on the call site) and in registers."""
    assert same_as_gcc("struct_funcptrs.c", tmp) == "2 4 16 2 1.5\n"


def test_trees_vectors_callbacks(tmp):
    """malloc'd binary tree with recursion, callbacks through void *, a function returning a function pointer,
    a growable vector (realloc)."""
    out = same_as_gcc("data_structures.c", tmp)
    assert "7 7 350 e" in out and "37 64 16206" in out


def test_libc_calls(tmp):
    out = same_as_gcc("libc_calls.c", tmp, args=True)
    assert "5 five xyz" in out


@pytest.mark.parametrize("pgcc_side", ["main", "lib"])
def test_struct_abi_links_with_gcc(tmp, pgcc_side):
    """Structs by value in registers (INTEGER/SSE eightbytes), in memory (byval/sret), bit-fields and unions,
    both directions of the call, with the other side compiled by gcc."""
    inc = ["-I", str(C)]
    gcc_obj = tmp / "gcc.o"
    gcc_src = C / ("abi_lib.c" if pgcc_side == "main" else "abi_main.c")
    pg_src = C / ("abi_main.c" if pgcc_side == "main" else "abi_lib.c")
    r = subprocess.run(["gcc", "-O0", "-c", *inc, str(gcc_src), "-o", str(gcc_obj)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = run_pgcc([*inc, pg_src, gcc_obj, "-O2", "-o", tmp / "mixed"])
    assert r.returncode == 0, r.stderr
    ref = subprocess.run(["gcc", "-O0", *inc, str(C / "abi_main.c"), str(C / "abi_lib.c"), "-o", str(tmp / "ref")],
                         capture_output=True, text=True)
    assert ref.returncode == 0, ref.stderr
    want, got = run_exe(tmp / "ref"), run_exe(tmp / "mixed")
    assert "9 -20 1000 9998009" in want.stdout
    assert got.stdout == want.stdout and got.returncode == 0


def test_structs_in_cuda_host_code(tmp):
    src = tmp / "k.cu"
    src.write_text(STRUCT_CU)
    r = run_pgcc([src, "--cpuify", "-O2", "-o", tmp / "app", "--cuda-path=/nonexistent"])
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "app").stdout == "1008 64\n"


STRUCT_CU = r"""
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
struct Params { int n; float scale; float *data; };
struct Stats { float sum; int count; };
__global__ void scale(float *d, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] *= s;
}
static Stats summarize(const float *h, int n) {
  Stats st = {0.0f, 0};
  for (int i = 0; i < n; i++) { st.sum += h[i]; st.count++; }
  return st;
}
int main() {
  Params p;
  p.n = 64; p.scale = 0.5f;
  p.data = (float *)malloc(p.n * sizeof(float));
  for (int i = 0; i < p.n; i++) p.data[i] = (float)i;
  float *d;
  cudaMalloc(&d, p.n * sizeof(float));
  cudaMemcpy(d, p.data, p.n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<2, 32>>>(d, p.n, p.scale);
  cudaMemcpy(p.data, d, p.n * sizeof(float), cudaMemcpyDeviceToHost);
  Stats st = summarize(p.data, p.n);
  printf("%g %d\n", st.sum, st.count);
  cudaFree(d); free(p.data);
  return 0;
}
"""


@pytest.mark.parametrize("code, what", [
    ("struct P { int a; }; int f(int n) { struct P v[n][n]; v[0][0].a = n; return v[0][0].a; }",
     "variable-length array of 'struct P'"),
    ("struct S { int a, b; };\nint *p = &((struct S *)0)->b; int main(void) { return 0; }",
     "this address in a global initializer"),
    ("int printf(const char *, ...); struct P { int x; };\n"
     "int main(void) { struct P p = {1}; printf(\"%d\", p); return 0; }", "passing a 'struct P' to 'printf'"),
    ("long sum(double _Complex z, ...) { return (long)__real__ z; }",
     "definition of the variadic function 'sum' with a complex parameter"),
    ("struct fam { int n; int b[]; };\nstruct fam g = { 2, { [1] = 8 } };",
     "designator in a flexible array member's initializer"),  # (GNU C; a list without designators works)
])
def test_unsupported_memory_constructs_are_errors(tmp, code, what):
    src = tmp / "u.c"
    src.write_text(code + "\n")
    r = run_pgcc([src, "-c", "-o", tmp / "u.o"])
    assert r.returncode == 1
    assert f"{src}:" in r.stderr and "error:" in r.stderr and what in r.stderr
    assert "Traceback" not in r.stderr and "internal" not in r.stderr


def test_pointers_stay_memrefs_for_numeric_arrays(tmp):
    """The fallback is local: a numeric loop next to struct code still becomes affine."""
    src = tmp / "m.c"
    src.write_text("struct P { int n; double *v; };\n"
                   "void scale(double *a, int n) { for (int i = 0; i < n; i++) a[i] = 2 * a[i]; }\n"
                   "double first(struct P *p) { scale(p->v, p->n); return p->v[0]; }\n")
    r = run_pgcc([src, "-S", "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "affine.for" in r.stdout and "affine.load" in r.stdout


@pytest.mark.parametrize("name", ["structs.c", "funcptrs.c", "struct_globals.c", "struct_funcptrs.c"])
def test_emitted_mlir_parses_upstream(name):
    """Raw-byte objects, function addresses and struct ABI ops are upstream MLIR (mlir-opt parses them)."""
    from polygeist_py.toolchain import mlir_tool

    r = run_pgcc([C / name, "--emit=mlir", "-o", "-"])
    assert r.returncode == 0, r.stderr
    assert "llvm.alloca" in r.stdout or "llvm.mlir.global" in r.stdout
    p = subprocess.run([mlir_tool("mlir-opt"), "--verify-diagnostics", "-"], input=r.stdout, capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr[:2000]


def test_global_arrays_defined_here_start_on_a_cache_line(tmp):
    """Array definitions of at least 64 bytes are 64-byte aligned (vector rows never straddle two lines);
    smaller ones and extern declarations keep their natural alignment; the program runs as gcc's does."""
    src = tmp / "g.c"
    src.write_text("#include <stdio.h>\n"
                   "double big[1000]; static float row[16]; char small[8]; extern double elsewhere[100];\n"
                   "int main(void) { for (int i = 0; i < 1000; i++) big[i] = i * 0.5;\n"
                   "  row[3] = 2.0f; small[1] = 'x';\n"
                   "  printf(\"%g %g %c %d\\n\", big[999], row[3], small[1], (int)((unsigned long)big % 64)); }\n")
    r = run_pgcc([src, "-O2", "--emit=llvm", "-o", "-"])
    assert r.returncode == 0, r.stderr
    lines = {line.split(" ")[0]: line for line in r.stdout.splitlines() if line.startswith("@")}
    assert lines["@big"].endswith("align 64") and lines["@row"].endswith("align 64")
    assert "align 64" not in lines["@small"]
    assert "align 64" not in lines.get("@elsewhere", "")
    src.write_text(src.read_text().replace(" extern double elsewhere[100];", ""))
    want = run_exe(build_gcc(src, tmp / "ref"))
    got = run_exe(build_pgcc(src, tmp / "pg"))
    assert got.stdout == want.stdout and got.stdout.endswith(" 0\n")
