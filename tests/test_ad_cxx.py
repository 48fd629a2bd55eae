"""Issue 19 item 6: plain C++ programs written for Enzyme (tests/programs/enzyme_cxx/): Enzyme's C++ declarations
of __enzyme_autodiff/__enzyme_fwddiff (variadic function templates, or `extern "C"` variadic functions),
function templates, class templates (members defined in and outside the class, variadic partial
specializations), classes with member functions, references, `std::` math, `using`, Enzyme's attributes on
function templates, static data members and member functions. Each program prints
"label derivative reference" and exits 1 when a derivative is outside tolerance; built at -O0 and -O2. The
C++ standard library's containers stay a clear error naming them."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import PROGRAMS, run_ad_program, run_exe, run_pgcc

ENZYME_CXX = PROGRAMS / "enzyme_cxx"


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("name", sorted(p.name for p in ENZYME_CXX.glob("*.cpp")))
def test_cxx_derivatives_within_tolerance(name, opt, tmp):
    got, rows = run_ad_program(ENZYME_CXX / name, opt, tmp)
    bad = [row for row in rows if abs(row[1] - row[2]) > 1e-6 * (1 + abs(row[2]))]
    assert got.returncode == 0, bad
    assert len(rows) >= 4
    assert sum(1 for _, g, _ in rows if abs(g) > 1e-3) == len(rows)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_lambdas_under_ad(opt, tmp):
    """Lambdas in differentiated C++ (tests/programs/ad/lambdas.cpp): capture-less, captures by value and by
    reference (a closure holding the address of a local that accumulates active values: the local gets a shadow),
    a lambda passed to a function template."""
    got, rows = run_ad_program(PROGRAMS / "ad" / "lambdas.cpp", opt, tmp)
    assert got.returncode == 0, rows[-2:]
    assert {r[0].rsplit("_", 1)[0] for r in rows} == {"plain", "plain_fwd", "captures_da", "captures_db",
                                                     "captures_fwd", "weighted", "weighted_dw"}
    assert all(abs(g - w) <= 1e-9 * (1 + abs(w)) and abs(g) > 1e-3 for _, g, w in rows)


TEMPLATES = r"""
#include <cstdio>
#include <cmath>
template <typename T> T sq(T x) { return x * x; }
template <int N> double sum(const double *v) { double s = 0; for (int i = 0; i < N; i++) s += sq(v[i]); return s; }
template <typename A, typename B> A mix(A a, B b) { return a + static_cast<A>(b) * 2; }
namespace num { template <typename T> T half(T x) { return x / 2; } }
using real = double;
template <typename T, int N> struct ring { T v[N]; int head; static int pushes;
  void push(T x) { v[head] = x; head = (head + 1) % N; pushes++; }
  T total() const; static int size() { return N; } };
template <typename T, int N> T ring<T, N>::total() const { T s = 0; for (int i = 0; i < N; i++) s += v[i]; return s; }
template <typename T, int N> int ring<T, N>::pushes = 10 * N;
int main() {
  double v[3] = {1.5, -2.0, 0.25};
  printf("%d %.6f %.6f %d %.6f %.6f\n", sq(7), sq(1.5), sum<3>(v), mix(3, 2.75), mix(0.5, 4), num::half<real>(3.0));
  printf("%.6f %.6f\n", (double)sq(1.25f), std::pow(sum<2>(v), 0.5));
  ring<int, 3> a{{0, 0, 0}, 0};
  ring<double, 2> b{{0, 0}, 0};
  for (int i = 1; i < 6; i++) { a.push(i * i); b.push(i * 0.5); }
  printf("%d %d %.6f %d %d %d %d\n", a.total(), a.head, b.total(), ring<int, 3>::size(), ring<double, 2>::size(),
         ring<int, 3>::pushes, ring<double, 2>::pushes);
  return 0;
}
"""


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
@pytest.mark.parametrize("suffix", [".cpp", ".cu"])
def test_function_templates_match_gxx(tmp, suffix):
    """Specializations of free function templates (type and non-type parameters, in a namespace) and of class
    templates (two specializations of one template, a member function and a static data member defined outside
    the class, a static member function) run as g++'s."""
    src = tmp / f"t{suffix}"
    src.write_text(TEMPLATES)
    ref = tmp / "ref.cpp"
    ref.write_text(TEMPLATES)
    r = subprocess.run(["g++", "-O0", str(ref), "-o", str(tmp / "ref")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    p = run_pgcc([src, "-O2", "-o", tmp / "t"])
    assert p.returncode == 0, p.stderr
    assert run_exe(tmp / "t").stdout == run_exe(tmp / "ref").stdout


ERRORS = [
    # a standard container in the differentiated function
    ("#include <vector>\nextern double __enzyme_autodiff(void *, ...);\n"
     "double sum(const std::vector<double> &v) { double s = 0; for (unsigned i = 0; i < v.size(); i++) s += v[i]; "
     "return s; }\nvoid g(std::vector<double> *v, std::vector<double> *dv) { __enzyme_autodiff((void *)sum, v, dv); }\n",
     3, "the C++ standard library (std::vector)"),
]


@pytest.mark.parametrize("src,line,msg", ERRORS)
def test_unsupported_cxx_forms_are_clear_errors(src, line, msg, tmp):
    p = tmp / "e.cpp"
    p.write_text(src)
    r = run_pgcc([p, "-c", "-o", tmp / "e.o"])
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "internal compiler error" not in r.stderr, r.stderr
    assert f"e.cpp:{line}:" in r.stderr and "error:" in r.stderr and msg in r.stderr, r.stderr


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_class_template_static_member_shared_by_two_units(tmp):
    """A static data member of a class template, defined in a header both units include, is one object (a
    weak definition in each unit, as g++ emits it): the units link and count into the same variable."""
    (tmp / "c.h").write_text("template <typename T> struct tally { static T n; static void add(T v) { n += v; } };\n"
                             "template <typename T> T tally<T>::n = 1;\n")
    (tmp / "a.cpp").write_text('#include "c.h"\nvoid other() { tally<int>::add(5); tally<double>::add(0.5); }\n')
    (tmp / "b.cpp").write_text('#include <cstdio>\n#include "c.h"\nvoid other();\n'
                               'int main() { tally<int>::add(2); other(); printf("%d %.2f\\n", tally<int>::n, '
                               'tally<double>::n); return 0; }\n')
    r = run_pgcc([tmp / "a.cpp", tmp / "b.cpp", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    g = subprocess.run(["g++", str(tmp / "a.cpp"), str(tmp / "b.cpp"), "-o", str(tmp / "ref")], capture_output=True,
                       text=True)
    assert g.returncode == 0, g.stderr
    assert run_exe(tmp / "app").stdout == run_exe(tmp / "ref").stdout
