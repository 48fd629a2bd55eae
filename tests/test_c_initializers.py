"""Array initializers compiled by pgcc print what gcc's build prints."""

from conftest import PROGRAMS, build_gcc, build_pgcc, run_exe


def test_char_arrays_from_string_literals(tmp):
    src = PROGRAMS / "char_arrays.c"
    ref = run_exe(build_gcc(src, tmp / "ref"))
    got = run_exe(build_pgcc(src, tmp / "app"))
    assert ref.returncode == 0 and "65 67 71 0" in ref.stdout
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)
