"""Issue 18 item 6: long else-if chains, deep nesting and state machines of many labels compile to the right program (the timings are in
benchmarks/compile_scaling.py), and the walker marks deeply nested modules for bottom-up canonicalization."""

import sys
from pathlib import Path

import pytest

from conftest import build_gcc, build_pgcc, run_exe, run_pgcc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import compile_scaling as gen  # noqa: E402


@pytest.mark.parametrize("make,n", [(gen.else_if_chain, 300), (gen.nested_ifs, 300), (gen.switch_cases, 300),
                                    (gen.label_machine, 40)])
def test_large_constructs_match_gcc(make, n, tmp):
    src = tmp / "gen.c"
    src.write_text(make(n))
    ref = run_exe(build_gcc(src, tmp / "ref"))
    got = run_exe(build_pgcc(src, tmp / "app", extra=("-O2",)))
    assert ref.returncode == 0 and got.stdout == ref.stdout


def test_label_machine_grows_linearly(tmp):
    """A block of many labels is one dispatch loop (frontend/gotos.py): the MLIR for 80 labels is about twice
    that for 40 (one loop per label, each carrying every label's flag, made it quadratic)."""
    sizes = []
    for n in (40, 80):
        src = tmp / f"m{n}.c"
        src.write_text(gen.label_machine(n))
        r = run_pgcc(["-S", "--emit=mlir", src, "-o", "-"])
        assert r.returncode == 0, r.stderr
        assert r.stdout.count("scf.index_switch") == 1
        sizes.append(len(r.stdout.splitlines()))
    assert sizes[1] < 2.3 * sizes[0], sizes


def test_deep_nesting_mark(tmp):
    deep, shallow = tmp / "deep.c", tmp / "shallow.c"
    deep.write_text(gen.nested_ifs(100))
    shallow.write_text(gen.nested_ifs(3))
    for src, marked in ((deep, True), (shallow, False)):
        r = run_pgcc(["-S", "--emit=mlir", src, "-o", "-"])
        assert r.returncode == 0, r.stderr
        assert ("pgcc.deep_nesting" in r.stdout) == marked


def test_nesting_beyond_the_parser_limit_is_an_error(tmp):
    src = tmp / "deeper.c"
    src.write_text(gen.nested_ifs(3000))
    r = run_pgcc([src, "-o", tmp / "x"])
    assert r.returncode == 1 and "Traceback" not in r.stderr and "nesting level exceeded" in r.stderr


def _guarded_blocks(n):
    """A C function of n sequential guarded blocks (a cleanup variable each, and a plain if): 2n scf.if in one
    block of the frontend's output."""
    body = "".join(f"  {{ int g{i} __attribute__((cleanup(tally))) = {i % 7}; if (g{i} > 3) hits += g{i}; }}\n"
                   for i in range(n))
    return ("#include <stdio.h>\nstatic long total, hits;\nstatic void tally(int *v) { total = total * 3 + *v; }\n"
            "int main(void) {\n" + body + '  printf("%ld %ld\\n", total, hits);\n  return 0;\n}\n')


def test_many_sequential_ifs_are_cut_into_chunks(tmp):
    """A block of hundreds of scf.if is cut into chunks before the SCF to CF lowering (block_chunks.py: its
    splits were quadratic in the block's length), and the program still computes what gcc's does."""
    from mlir import ir
    from polygeist_py.block_chunks import CHUNK_IFS, split_long_blocks
    src = tmp / "guards.c"
    src.write_text(_guarded_blocks(80))
    r = run_pgcc(["-O0", "--emit=cleanup", src, "-o", "-"])
    assert r.returncode == 0, r.stderr
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        m = ir.Module.parse(r.stdout)
        ifs = r.stdout.count("scf.if")
        assert split_long_blocks(m) == (ifs - 1) // CHUNK_IFS > 0
        assert m.operation.verify()
    ref = run_exe(build_gcc(src, tmp / "ref"))
    got = run_exe(build_pgcc(src, tmp / "app", extra=("-O2",)))
    assert (got.stdout, got.returncode) == (ref.stdout, 0)
