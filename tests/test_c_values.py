"""C values and control flow: integer semantics, switch, goto, globals and static locals, compared with gcc -O0;
jumps into blocks and misplaced case labels are clean errors."""

import re

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, run_exe, run_pgcc

C = PROGRAMS / "c"


@pytest.mark.parametrize("name", ["int_semantics.c", "switch_stmt.c", "switch_body_declarations.c", "globals_static.c",
                                  "goto_past_initializers.c", "token_tables.c", "tentative_after_extern.c",
                                  "vfs_finder_pointers.c", "goto_into_nested_switch.c", "switch_body_initializers.c",
                                  "gotos.c", "goto_into_blocks.c", "loop_bounds.c", "bool_memory.c",
                                  "hints_and_constants.c"])
@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_program_matches_gcc(name, opt, tmp):
    src = C / name
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-w",)))
    assert ref.returncode == 0 and ref.stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt,)))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


def test_int_semantics_values(tmp):
    """Spot checks of values gcc x86-64 gives, so a shared mistake in the reference build cannot hide."""
    out = run_exe(build_pgcc(C / "int_semantics.c", tmp / "app")).stdout
    expect = {"-1<1u": "0", "-1<1L": "1", "-1L<1u": "1", "u32+u32": "3705032704", "-u8": str(2**64 - 200),
              "s8>>=9": str(2**64 - 1), "u8<<=9": "0", "s32/=7u": "327852470", "-7%2": str(2**64 - 1),
              "-7/2u": "2147483644", "uc++": "0", "sc++": str(2**64 - 128), "us--": "65535",
              "?: s32 u32": "4294967295", "(int8)300": "44", "u16*=u16": "41984"}
    got = dict(line.rsplit(" ", 1) for line in out.splitlines())
    for k, v in expect.items():
        assert got[k] == v, k


def test_switch_values(tmp):
    out = run_exe(build_pgcc(C / "switch_stmt.c", tmp / "app")).stdout
    assert "classify(0) = 11" in out and "classify(7) = 1000" in out and "classify(5) = 1100" in out
    assert "classify(-3) = -1" in out and "classify(9) = 5" in out
    assert "narrow 1 2 3" in out and "wide 1 2 0" in out


def test_goto_values(tmp):
    out = run_exe(build_pgcc(C / "gotos.c", tmp / "app")).stdout.splitlines()
    assert out[0] == "10 0" and out[2] == "1111 1044 1001"
    out = run_exe(build_pgcc(C / "goto_into_blocks.c", tmp / "app2")).stdout.splitlines()
    assert out[0].split() == ["112", "112", "4", "4", "4", "7", "7"] and out[3] == "1 100"


def test_static_locals_keep_values(tmp):
    out = run_exe(build_pgcc(C / "globals_static.c", tmp / "app")).stdout.splitlines()
    assert out[1] == "1 2 3 0 0 0 "
    assert out[4] == "42 -1 -2 127 -128 5"
    assert [line.split()[1] for line in out[5:10]] == ["11", "12", "13", "14", "15"]


ERRORS = {
    "switch_decl.c": ("int main(void) { int n = 1;\n  switch (n) {\n  case 1:\n    int k[2] = {2, 3};\n    n = k[1];\n"
                      "  }\n  return n; }\n",
                      r"switch_decl\.c:4:5: error: unsupported construct: declaration directly inside a switch body"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_name_the_construct(name, tmp):
    text, pattern = ERRORS[name]
    src = tmp / name
    src.write_text(text)
    r = run_pgcc([src, "-o", tmp / "x"])
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and "internal compiler error" not in r.stderr
    assert re.search(pattern, r.stderr), r.stderr
