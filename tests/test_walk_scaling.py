"""Issue 23: the walk stays linear in the length of an expression chain (`x + x + ... + x`): gcc's type of each
integer operator's operands (frontend/bitfield_types.py) is memoized per node, where each operator looked at
its whole operand subtree again (1,000 terms took 20 s of CPU). Counts of cursor visits, not timings (those are
in benchmarks/compile_scaling.py); the results are compared with gcc's."""

from conftest import build_gcc, build_pgcc, run_exe

import polygeist_py.frontend.bitfield_types as BT
from polygeist_py import driver


def _chain(n: int) -> str:
    """A program whose result is a chain of n additions of a 40-bit bit-field (gcc computes in 40 bits, so the
    sum wraps at 2^40) and of n additions of an int."""
    terms = " + ".join(["s.b"] * n)
    ints = " + ".join(["x"] * n)
    return ("#include <stdio.h>\n"
            "struct S { unsigned long long b : 40; } s;\n"
            "int main(void) {\n"
            "  int x = 3;\n"
            "  s.b = 0xFFFFFFFFFFull;\n"
            f"  unsigned long long wide = {terms};\n"
            f"  int narrow = {ints};\n"
            '  printf("%llx %d\\n", wide, narrow);\n'
            "  return 0;\n"
            "}\n")


def _visits(src, tmp, monkeypatch) -> int:
    """Cursor child lists that bitfield_types asked for while pgcc walked `src`."""
    count = [0]
    real = BT.children

    def counting(c):
        count[0] += 1
        return real(c)

    monkeypatch.setattr(BT, "children", counting)
    assert driver.main(["-S", "--emit=mlir", str(src), "-o", str(tmp / "out.mlir")]) == 0
    monkeypatch.setattr(BT, "children", real)
    return count[0]


def test_operator_chain_walk_is_linear(tmp, monkeypatch):
    visits = []
    for n in (100, 200):
        src = tmp / f"chain{n}.c"
        src.write_text(_chain(n))
        visits.append(_visits(src, tmp, monkeypatch))
    assert 0 < visits[1] < 2.3 * visits[0], visits  # (quadratic: 4x)


def test_long_chains_compute_what_gcc_computes(tmp):
    src = tmp / "chain.c"
    src.write_text(_chain(300))
    ref = run_exe(build_gcc(src, tmp / "ref"))
    got = run_exe(build_pgcc(src, tmp / "app"))
    assert ref.returncode == 0 and got.returncode == 0
    assert got.stdout == ref.stdout
    assert got.stdout.split()[1] == str(3 * 300)
