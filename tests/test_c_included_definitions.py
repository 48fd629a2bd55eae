"""Functions and variables with external linkage defined in an included C file (`#include "cJSON.c"`, as
cJSON's own tests do) are emitted, as gcc emits them, so that other objects link against them; static and
inline functions of the included file are emitted only when used."""

import subprocess

from conftest import run_exe, run_pgcc

LIB = """#include <math.h>
int counter = 5;
int tentative;
static int hidden(int x) { return x + 1; }
inline int inl(int x) { return x * 3; }
int helper(int x) { return hidden(x) * 2 + counter; }
double root(double x) { return isnan(x) ? -1.0 : sqrt(x); }
"""
MAIN = """#include <stdio.h>
#include "lib.c"
int other(void);
int main(void) { tentative = 7; printf("%d %d\\n", helper(1), other()); return 0; }
"""
OTHER = """extern int counter, tentative;
int helper(int);
double root(double);
int other(void) { return helper(counter) + tentative + (int)root(16.0); }
"""


def test_included_definitions_link_from_other_objects(tmp):
    for name, text in (("lib.c", LIB), ("main.c", MAIN), ("other.c", OTHER)):
        (tmp / name).write_text(text)
    for name in ("main", "other"):
        r = run_pgcc(["-O2", "-c", tmp / f"{name}.c", "-o", tmp / f"{name}.o"])
        assert r.returncode == 0, r.stderr
    r = run_pgcc([tmp / "main.o", tmp / "other.o", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr  # (helper, root, counter, tentative: undefined references before)
    assert run_exe(tmp / "app").stdout == "9 28\n"
    symbols = subprocess.run(["nm", str(tmp / "main.o")], capture_output=True, text=True).stdout.split()
    assert {"helper", "root", "counter", "tentative"} <= set(symbols)
    assert "inl" not in symbols and "hidden" not in symbols


def test_static_variadic_function_of_a_header_is_emitted_where_called(tmp):
    """A static variadic function defined in a header (lzo's getopt error reporter) and called from the file."""
    (tmp / "report.h").write_text(
        "#include <stdarg.h>\n#include <stdio.h>\n"
        "static int report(int ret, const char *fmt, ...) {\n"
        "  struct { va_list ap; } s; va_start(s.ap, fmt); vprintf(fmt, s.ap); va_end(s.ap); return ret + 1; }\n")
    (tmp / "main.c").write_text('#include "report.h"\n'
                                'int main(void) { return report(4, "%s %d\\n", "bad option", 3) == 5 ? 0 : 1; }\n')
    r = run_pgcc(["-O2", tmp / "main.c", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr  # (an undefined reference to 'report' before)
    got = run_exe(tmp / "app")
    assert (got.stdout, got.returncode) == ("bad option 3\n", 0)
