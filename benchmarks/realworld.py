"""Real-world runner: real C projects built with their own build systems by gcc and by pgcc, tests compared.

    python benchmarks/realworld.py [--only zlib,lua5.4] [--compilers gcc,pgcc] [--jobs 2] [--keep]
                                   [--json FILE] [--work DIR] [--pgcc PATH]

For every project in RECIPES the runner
  1. fetches the sources once: a Debian source package (`apt-get source --download-only NAME`, which needs a
     `deb-src` entry in the apt sources; the runner checks and says how to add one) or a PyPI sdist
     (`pip download --no-deps --no-binary :all: NAME==VER`), and unpacks the upstream tarball;
  2. builds a fresh copy twice with the project's own build system (configure/make, plain make or cmake),
     once with CC=gcc and once with CC=pgcc, both with -O2 where the project takes CFLAGS. CC is a tiny
     wrapper script (created in the work directory, named like the compiler so that build scripts that look
     at the name see `gcc`/`pgcc`) that logs every C file it compiles and the compiler's exit status;
  3. runs the project's own test suite (make test / make check / ctest / the project's test programs) on
     both builds, and a few output checks on inputs the runner generates (compress / decompress / hash files,
     a Lua script exercising the interpreter...), whose outputs must be identical between the two builds;
  4. prints a table: project, version, C files compiled by pgcc (ok/total), build ok, tests passed,
     same output as the gcc build, seconds (pgcc build / gcc build), notes; then, for each failed pgcc
     build or failed test run, the first error line.

Not part of CI: it needs the network (Debian / PyPI) and takes minutes per project. Fetched sources and build
trees live under --work (default /tmp/realworld); nothing is written into the repository. pgcc is taken from
--pgcc, else from the virtualenv this script runs in (.venv/bin/pgcc), else from PATH; the directory holding
pgcc is put first on PATH for the builds. Use --compilers gcc first to check that the recipes work on a
machine, then the default gcc,pgcc run. Run one project at a time on a small machine (it does); --jobs is
passed to make -j.
"""

from __future__ import annotations

import argparse
import dataclasses
import glob
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Callable

BUILD_TIMEOUT = 3600  # seconds for all of a project's build commands together (grep's ~300 files under load: > 1800)
TEST_TIMEOUT = 900  # seconds for a project's test commands
CHECK_TIMEOUT = 300  # seconds for one output check
CFLAGS = "-O2"


# --------------------------------------------------------------------------------------------------------------
# Recipes
# --------------------------------------------------------------------------------------------------------------

@dataclasses.dataclass
class Ctx:
    """What a recipe's command templates may refer to: {cc} the (wrapped) compiler, {cflags}, {jobs},
    {inputs} the directory of generated input files, {work} this build's scratch directory, {compiler}
    'gcc' or 'pgcc'."""
    cc: str
    cflags: str
    jobs: int
    inputs: str
    work: str
    compiler: str

    def fmt(self, cmd: str) -> str:
        """Fill a command template; literal braces in templates are written {{ }}."""
        return cmd.format(**dataclasses.asdict(self))


@dataclasses.dataclass
class Recipe:
    """How to fetch, build, test and check one project.

    source: "deb:PACKAGE" or "pypi:NAME==VERSION". build / test: shell command templates run in the
    unpacked source tree (see Ctx), or a function of the Ctx returning them (to choose cmake or a plain
    compile). test_counts parses the test output into (passed, total), or None when the suite only has a
    verdict (its exit status). checks: name -> shell command template whose stdout and exit status must be
    the same for the gcc and pgcc builds. notes: shown in the table."""
    name: str
    source: str
    build: list[str] | Callable[[Ctx], list[str]]
    test: list[str] | Callable[[Ctx], list[str]]
    test_counts: Callable[[str, int], tuple[int, int] | None] = lambda out, rc: None
    checks: dict[str, str] = dataclasses.field(default_factory=dict)
    notes: str = ""
    setup: Callable[[Path, Ctx], None] | None = None  # writes extra files (e.g. a Lua script) before the build

    def commands(self, which: str, ctx: Ctx) -> list[str]:
        """The filled-in build or test commands."""
        cmds = getattr(self, which)
        if callable(cmds):
            cmds = cmds(ctx)
        return [ctx.fmt(c) for c in cmds]


def counts_ctest(out: str, rc: int):
    """ctest's closing line: 'NN% tests passed, F tests failed out of T'."""
    m = re.findall(r"tests passed, (\d+) tests? failed out of (\d+)", out)
    if not m:
        return None
    failed, total = map(int, m[-1])
    return total - failed, total


def counts_automake(out: str, rc: int):
    """Automake's test harness summary ('# TOTAL: n', '# PASS: p'), summed over all test directories: the
    tests that ran (skipped ones left out) and those that passed (expected failures count as passed)."""
    def total(key):
        return sum(int(x) for x in re.findall(rf"^# {key}: +(\d+)", out, re.M))
    tot = total("TOTAL") - total("SKIP")
    ok = total("PASS") + total("XFAIL")
    return (ok, tot) if total("TOTAL") else None


def counts_zlib(out: str, rc: int):
    """zlib's `make test` prints '*** zlib ... test OK ***' or '*** ... test FAILED ***' per test program."""
    ok = len(re.findall(r"test OK", out))
    bad = len(re.findall(r"FAILED", out))
    return (ok, ok + bad) if ok + bad else None


def counts_unity(out: str, rc: int):
    """Unity (cJSON's unit-test framework) prints 'N Tests F Failures I Ignored' per test program."""
    m = re.findall(r"^(\d+) Tests (\d+) Failures", out, re.M)
    if not m:
        return None
    total = sum(int(t) for t, _ in m)
    failed = sum(int(f) for _, f in m)
    return total - failed, total


def counts_libtommath(out: str, rc: int):
    """libtommath's `test` program closes with 'Tests OK/NOP/FAIL: ok/nop/fail'."""
    m = re.search(r"Tests OK/NOP/FAIL: (\d+)/(\d+)/(\d+)", out)
    return (int(m.group(1)), int(m.group(1)) + int(m.group(3))) if m else None


def counts_lua(out: str, rc: int):
    """The runner's Lua script prints 'checks: P passed, F failed' at its end."""
    m = re.search(r"checks: (\d+) passed, (\d+) failed", out)
    return (int(m.group(1)), int(m.group(1)) + int(m.group(2))) if m else None


def counts_libogg(out: str, rc: int):
    """libogg's test_bitwise / test_framing end each case with 'ok.'; a failure prints 'failed' or 'FAIL'."""
    ok = len(re.findall(r"ok\.\s*$", out, re.M))
    bad = len(re.findall(r"failed|FAIL", out))
    return (ok, ok + bad) if ok + bad else None


def counts_lzlib(out: str, rc: int):
    """lzlib's testsuite/check.sh closes with 'tests completed successfully.' or 'N tests failed.'."""
    if re.search(r"tests completed successfully", out):
        return (1, 1)
    m = re.search(r"(\d+) tests? failed", out)
    return (0, 1) if m else None


def counts_popt(out: str, rc: int):
    """popt's tests/testit.sh prints 'PASS name' or 'FAIL name' per test."""
    ok = len(re.findall(r"^PASS:? (?!testit)", out, re.M))
    bad = len(re.findall(r"^FAIL:? (?!testit)", out, re.M))
    return (ok, ok + bad) if ok + bad else None


def counts_tap_lines(out: str, rc: int):
    """Lines 'ok NAME' / 'not ok NAME' that a runner's loop prints per test program."""
    ok = len(re.findall(r"^ok \S+$", out, re.M))
    bad = len(re.findall(r"^not ok \S+$", out, re.M))
    return (ok, ok + bad) if ok + bad else None

def counts_onig(out: str, rc: int):
    """Oniguruma's test programs each close with 'RESULT   SUCC: s,  FAIL: f,  ERROR: e'; summed."""
    m = re.findall(r"RESULT +SUCC: *(\d+), +FAIL: *(\d+), +ERROR: *(\d+)", out)
    if not m:
        return None
    ok = sum(int(s) for s, _, _ in m)
    return ok, ok + sum(int(f) + int(e) for _, f, e in m)


def counts_sqlite_fuzzcheck(out: str, rc: int):
    """sqlite's fuzzcheck closes with 'fuzzcheck: 0 errors out of N tests in ...'."""
    m = re.findall(r"fuzzcheck: (\d+) errors? out of (\d+) tests", out)
    if not m:
        return None
    bad, total = map(int, m[-1])
    return total - bad, total


def counts_jq(out: str, rc: int):
    """jq's --run-tests closes each .test file with 'P of T tests passed (M malformed)'; the shell-driven tests
    (shtest, utf8test) are counted by the runner's 'ok NAME' / 'not ok NAME' lines."""
    m = re.findall(r"^(\d+) of (\d+) tests passed", out, re.M)
    ok = sum(int(p) for p, _ in m)
    tot = sum(int(t) for _, t in m)
    tap = counts_tap_lines(out, rc)
    if tap:
        ok, tot = ok + tap[0], tot + tap[1]
    return (ok, tot) if tot else None


def counts_nettle(out: str, rc: int):
    """nettle's run-tests prints 'PASS: name' / 'FAIL: name' (and 'SKIP: name') per test program."""
    ok = len(re.findall(r"^PASS: ", out, re.M))
    bad = len(re.findall(r"^FAIL: ", out, re.M))
    return (ok, ok + bad) if ok + bad else None


def counts_file(out: str, rc: int):
    """file's check-local runs ./test on each tests/*.testfile ('Running test: NAME'), stopping at the first
    mismatch (set -e): all ran pass when make exits 0, else the last one failed."""
    ran = len(re.findall(r"^Running test: ", out, re.M))
    if not ran:
        return None
    return (ran, ran) if rc == 0 else (ran - 1, ran)


def counts_m4(out: str, rc: int):
    """m4's checks/check-them prints 'Checking NAME' per check and lists the 'Skipped checks were:' and 'Failed
    checks were:' (names on the next line); added to the gnulib tests' automake summary."""
    ran = len(re.findall(r"^Checking ", out, re.M))

    def listed(head):
        m = re.search(head + r" were:\n(.*)", out)
        return len(m.group(1).split()) if m else 0
    ok, tot = ran - listed("Skipped checks") - listed("Failed checks"), ran - listed("Skipped checks")
    am = counts_automake(out, rc)
    if am:
        ok, tot = ok + am[0], tot + am[1]
    return (ok, tot) if tot else None


def counts_gawk(out: str, rc: int):
    """gawk's test/Makefile prints each test's name as it runs it and closes with 'ALL TESTS PASSED' or
    'N TESTS FAILED'; the total is the number of test names printed (lines of one lower-case word)."""
    m = re.search(r"^(\d+) TESTS FAILED", out, re.M)
    if not m and "ALL TESTS PASSED" not in out:
        return None
    total = len(re.findall(r"^[a-z][a-z0-9_+-]*$", out, re.M))
    failed = int(m.group(1)) if m else 0
    return (total - failed, total) if total >= failed else None


def counts_indent(out: str, rc: int):
    """indent's regression/TEST compares each output with its expected file and leaves the differing ones in
    regression/output ('Errors remain'); a verdict: 1/1 when it exits 0."""
    return (1, 1) if rc == 0 and "Errors" not in out else (0, 1)


def counts_tcc(out: str, rc: int):
    """tcc's `make test`: '------------ NAME ------------' opens each test group; tests2 prints 'Test: NAME...'
    per program and make -k reports the failing ones ('make[N]: *** [..] Error')."""
    groups = len(re.findall(r"^-{12} \S+ -{12}$", out, re.M))
    t2 = len(re.findall(r"^Test: \S+", out, re.M))
    bad = len(re.findall(r"\*\*\* \[[^]]*\] Error", out))
    total = groups + t2
    return (max(total - bad, 0), total) if total else None


def counts_uv_tap(out: str, rc: int):
    """libuv's test runner prints TAP lines 'ok N - name' (a skipped test: 'ok N - name # SKIP ...') and 'not ok
    N - name'; skipped ones are left out."""
    ok = len(re.findall(r"^ok \d+ - (?!.*# SKIP)", out, re.M))
    bad = len(re.findall(r"^not ok \d+ - ", out, re.M))
    return (ok, ok + bad) if ok + bad else None


def counts_libxml2(out: str, rc: int):
    """libxml2's runtest closes with 'Total N tests, F errors, L leaks'."""
    m = re.search(r"Total (\d+) tests, (\d+) errors", out)
    return (int(m.group(1)) - int(m.group(2)), int(m.group(1))) if m else None


def cjson_build(ctx: Ctx) -> list[str]:
    """cJSON with cmake (static library, tests and cJSON_Utils on), or a plain compile of cJSON.c, cJSON_Utils.c
    and its Unity tests when cmake is not installed."""
    if shutil.which("cmake"):
        return ["cmake -S . -B build -DCMAKE_C_COMPILER={cc} -DCMAKE_C_FLAGS={cflags} -DBUILD_SHARED_LIBS=OFF "
                "-DENABLE_CJSON_TEST=ON -DENABLE_CJSON_UTILS=ON -DENABLE_VALGRIND=OFF",
                "cmake --build build -j {jobs}"]
    return ["mkdir -p build && {cc} {cflags} -c cJSON.c -o build/cJSON.o && "
            "{cc} {cflags} -c cJSON_Utils.c -o build/cJSON_Utils.o && "
            "{cc} {cflags} -c tests/unity/src/unity.c -o build/unity.o",
            "for t in parse_examples parse_number parse_hex4 parse_string parse_array parse_object parse_value "
            "print_string print_number print_array print_object print_value misc_tests parse_with_opts "
            "compare_tests cjson_add readme_examples minify_tests; do "
            "{cc} {cflags} -I. -Itests/unity/src -Itests -DUNITY_INCLUDE_CONFIG_H=0 tests/$t.c build/cJSON.o "
            "build/unity.o -lm -o build/$t || exit 1; done",
            "{cc} {cflags} test.c build/cJSON.o -lm -o build/cJSON_test"]


def cjson_test(ctx: Ctx) -> list[str]:
    """ctest in the cmake build dir, or each plain-compiled Unity test program (from tests/, for its inputs)."""
    if shutil.which("cmake"):
        return ["cd build && ctest --output-on-failure -j {jobs}",
                "cd build && for t in tests/parse_* tests/print_* tests/misc_tests tests/compare_tests "
                "tests/cjson_add tests/readme_examples tests/minify_tests; do "
                "[ -x $t ] && (cd tests && ./$(basename $t)); done; true"]
    return ["cd tests && for t in ../build/*; do case $t in *.o|*cJSON_test) continue;; esac; $t || st=1; done; "
            "exit ${{st:-0}}"]


def cmake_build(extra: str) -> list[str]:
    """A cmake configure + build in ./build with the wrapped compiler and -O2."""
    return ["cmake -S . -B build -DCMAKE_C_COMPILER={cc} -DCMAKE_C_FLAGS={cflags} " + extra,
            "cmake --build build -j {jobs}"]


LUA_SCRIPT = r"""
-- written by polygeist-py's benchmarks/realworld.py: exercises the interpreter; output compared gcc vs pgcc
local passed, failed = 0, 0
local function check(name, got, want)
  if got == want then passed = passed + 1
  else failed = failed + 1; print("FAIL " .. name .. ": got " .. tostring(got) .. " want " .. tostring(want)) end
end
-- strings and patterns
local s = "The quick brown fox jumps over the lazy dog"
check("upper", s:upper(), "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG")
check("find", s:find("fox"), 17)
check("match", s:match("(%a+) dog"), "lazy")
check("gsub", (s:gsub("%w+", function(w) return w:sub(1,1) end)), "T q b f j o t l d")
local words = {}
for w in s:gmatch("%a+") do words[#words + 1] = w end
check("gmatch", #words, 9)
check("rep", ("ab"):rep(3, "-"), "ab-ab-ab")
check("format", string.format("%5.2f|%d|%x|%s|%q", 3.14159, 42, 255, "hi", "a\nb"), ' 3.14|42|ff|hi|"a\\\nb"')
check("format-g", string.format("%.14g %g %e", 0.1, 1e308 * 10, 12345.678), "0.1 inf 1.234568e+04")
check("byte/char", string.char(s:byte(1, 3)), "The")
check("reverse", ("hello"):reverse(), "olleh")
check("balanced", ("f(a(b)c)d"):match("%b()"), "(a(b)c)")
check("frontier", ("THE (quick) fox"):gsub("%f[%a]%a+", "X"), "X (X) X")
check("pack", string.unpack("<i4", string.pack("<i4", -123456)), -123456)
check("utf8", utf8.len("h\u{e9}llo \u{4e16}"), 7)
check("utf8char", utf8.char(72, 233, 19990), "H\u{e9}\u{4e16}")
-- tables, sort, concat
local t = {}
for i = 1, 1000 do t[i] = (i * 7919) % 1009 end
table.sort(t)
local okSorted = true
for i = 2, #t do if t[i - 1] > t[i] then okSorted = false end end
check("sort", okSorted, true)
table.sort(t, function(a, b) return a > b end)
check("sort-desc", t[1] >= t[#t], true)
check("concat", table.concat({1, 2, 3, "x"}, ","), "1,2,3,x")
local tt = {10, 20, 30}
table.insert(tt, 2, 15); table.remove(tt, 1)
check("insert/remove", table.concat(tt, " "), "15 20 30")
check("unpack", select("#", table.unpack({1, 2, nil, 4}, 1, 4)), 4)
local keys = 0
local h = {}
for i = 1, 5000 do h["k" .. i] = i end
for k, v in pairs(h) do keys = keys + v end
check("hash", keys, 5000 * 5001 // 2)
h = nil; collectgarbage(); collectgarbage()
-- integers and floats
check("intdiv", 7 // 2, 3)
check("neg intdiv", -7 // 2, -4)
check("mod", -7 % 3, 2)
check("fmod", math.fmod(-7, 3), -1)
check("float mod", 5.5 % 2, 1.5)
check("overflow wraps", math.maxinteger + 1, math.mininteger)
check("shift", 1 << 62, 4611686018427387904)
check("shr", -1 >> 60, 15)
check("band", 0xF0F0 & 0x0FF0, 0x00F0)
check("bnot", ~0, -1)
check("pow", 2 ^ 10, 1024.0)
check("sqrt", math.sqrt(2), 1.4142135623730951)
check("floor", math.floor(-3.5), -4)
check("tointeger", math.tointeger(3.0), 3)
check("type", math.type(1) .. math.type(1.0), "integerfloat")
check("huge", math.huge > math.maxinteger, true)
check("nan", (0/0) ~= (0/0), true)
check("tostring float", tostring(1e15), "1e+15")
check("tostring int-like float", tostring(3.0), "3.0")
check("tonumber hex", tonumber("0x1p4"), 16.0)
check("tonumber base", tonumber("zz", 36), 1295)
check("string->num", "10" + 5, 15)
check("sin/cos", string.format("%.10f %.10f", math.sin(1), math.cos(1)), "0.8414709848 0.5403023059")
check("log/exp", string.format("%.12f", math.log(math.exp(2.5))), "2.500000000000")
check("ult", math.ult(1, -1), true)
-- closures, varargs, goto
local function counter() local c = 0; return function() c = c + 1; return c end end
local c1 = counter(); c1(); c1()
check("closure", c1(), 3)
local function va(...) local a, b = ...; return select("#", ...), a, b end
check("varargs", select(1, va(1, nil, 3)), 3)
local n = 0
for i = 1, 10 do
  for j = 1, 10 do
    if j > i then goto continue end
    n = n + 1
    ::continue::
  end
end
check("goto", n, 55)
-- metatables
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({x = a.x + b.x}, V) end
V.__eq = function(a, b) return a.x == b.x end
V.__lt = function(a, b) return a.x < b.x end
V.__tostring = function(a) return "V(" .. a.x .. ")" end
V.__len = function(a) return a.x end
V.__call = function(self, y) return self.x * y end
local a, b = setmetatable({x = 1}, V), setmetatable({x = 2}, V)
check("__add", tostring(a + b), "V(3)")
check("__eq", a + a == b, true)
check("__lt", a < b, true)
check("__len", #b, 2)
check("__call", b(21), 42)
local proxy = setmetatable({}, {__index = function(_, k) return k .. "!" end, __newindex = function() error("ro") end})
check("__index fn", proxy.hey, "hey!")
check("__newindex", pcall(function() proxy.x = 1 end), false)
-- coroutines
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i * i) end return "done" end)
check("coroutine", gen() + gen() + gen(), 14)
check("coroutine end", gen(), "done")
local co = coroutine.create(function(x, y) local z = coroutine.yield(x + y); return z * 2 end)
local _, r1 = coroutine.resume(co, 1, 2)
local _, r2 = coroutine.resume(co, 10)
check("resume", r1 + r2, 23)
check("status", coroutine.status(co), "dead")
local function producer() return coroutine.wrap(function() for i = 1, 100 do coroutine.yield(i) end end) end
local sum = 0
for v in producer() do sum = sum + v end
check("coroutine iterator", sum, 5050)
-- errors
local ok, err = pcall(function() error({code = 7}) end)
check("pcall table error", ok == false and err.code, 7)
ok, err = pcall(function() local x = nil; return x.y end)
check("pcall index nil", ok, false)
check("error message", err:match("attempt to index") ~= nil, true)
ok, err = pcall(error, "msg", 0)
check("error level 0", err, "msg")
local tb
ok = xpcall(function() error("deep") end, function(m) tb = debug.traceback(m); return m end)
check("xpcall", tb:match("deep") ~= nil, true)
ok, err = pcall(string.rep)
check("bad arg", err:match("bad argument") ~= nil, true)
check("tostring(nil)", tostring(nil), "nil")
-- load, string dump
local f = load("return 2 + 3 * 4")
check("load", f(), 14)
local g = load(string.dump(function(x) return x * 3 end))
check("dump/load", g(5), 15)
check("load syntax error", select(2, load("x = = 1")) ~= nil, true)
-- recursion, big loops
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
check("fib", fib(24), 46368)
local acc = 0.0
for i = 1, 200000 do acc = acc + 1 / i end
check("harmonic", string.format("%.10f", acc), "12.7832908104")
local parts = {}
for i = 1, 2000 do parts[#parts + 1] = tostring(i) end
local big = table.concat(parts)
check("bigstring", #big, 6893)
check("bigstring find", big:find("19992000", 1, true), 6886)
-- print some values whose text the two builds must agree on
print(string.format("%.17g %.17g %a", 1 / 3, 2 ^ 0.5, 0.1), 7 // 0.0, -7 // 0.0, math.pi)
print(("x"):rep(5), #t, select("#", 1, 2, 3), 1e308 * 10, -0.0, 100 // 1e-300)
print(string.format("checks: %d passed, %d failed", passed, failed))
if failed > 0 then os.exit(1) end
"""


def lua_setup(src: Path, ctx: Ctx) -> None:
    """Write the Lua test script into the build's scratch directory."""
    (Path(ctx.work) / "test.lua").write_text(LUA_SCRIPT)


BC_SCRIPT = r"""
/* written by polygeist-py's benchmarks/realworld.py: exercises bc -l; output compared gcc vs pgcc */
bad = 0
define chk(name, got, want) {
  if (got != want) { print "FAIL ", name, ": ", got, " want ", want, "\n"; bad = bad + 1 }
  return (0)
}
scale = 60
x = chk(1, 4*a(1) - 3.141592653589793238462643383279502884197169399375105820974944, 0.000000000000000000000000000000000000000000000000000000000000)
x = chk(2, sqrt(2)^2 > 1.999999999, 1)
x = chk(3, e(l(10)) - 10 < 10^-50, 1)
define f(n) { if (n < 2) return (1); return (n * f(n - 1)); }
x = chk(4, f(30), 265252859812191058636308480000000)
define fib(n) { auto a, b, t, i; a = 0; b = 1; for (i = 0; i < n; i++) { t = a + b; a = b; b = t; }; return (a); }
x = chk(5, fib(200), 280571172992510140037611932413038677189525)
define g(n) { auto i, s; for (i = 1; i <= n; i++) { a[i] = i * i; }; s = 0; for (i = 1; i <= n; i++) s += a[i]; return (s); }
x = chk(6, g(100), 338350)
scale = 0
x = chk(7, 2^200 % 1000007, (2^100 % 1000007) * (2^100 % 1000007) % 1000007)
x = chk(8, 1000000007 / 13, 76923077)
scale = 20
print 4*a(1), "\n", s(1), "\n", c(1), "\n", l(2), "\n", e(1), "\n", j(2, 1.5), "\n"
scale = 300
print 4*a(1), "\n", sqrt(3), "\n"
scale = 0
obase = 16; print 2^128 - 1, "\n"; obase = 2; print 12345, "\n"; obase = 10
ibase = 16; print FFFF, "\n"; ibase = A
print f(100), "\n", -7 / 2, " ", -7 % 2, "\n"
if (bad == 0) print "checks ok\n" else print bad, " checks failed\n"
quit
"""

SQL_SCRIPT = """
-- written by polygeist-py's benchmarks/realworld.py: exercises the SQL engine; output compared gcc vs pgcc
.headers on
.mode list
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL, grp INT, blob BLOB);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000)
INSERT INTO t(name, v, grp, blob) SELECT 'n' || (x * 7919 % 5003), x * 1.5 / 7, x % 17, CAST(x AS BLOB) FROM c;
CREATE INDEX t_grp ON t(grp, v);
SELECT count(*), sum(v), avg(v), min(name), max(name), total(grp) FROM t;
SELECT grp, count(*), printf('%.6f', avg(v)), group_concat(id % 10, '') FROM t GROUP BY grp ORDER BY grp;
SELECT name, v FROM t WHERE grp = 3 AND v BETWEEN 100 AND 110 ORDER BY v DESC LIMIT 5;
SELECT id, name FROM t WHERE name LIKE 'n12%' ORDER BY name, id LIMIT 10;
SELECT a.grp, b.grp, count(*) FROM t a JOIN t b ON a.id = b.id + 1 WHERE a.grp < 3 GROUP BY 1, 2 ORDER BY 1, 2;
SELECT id, v, rank() OVER (PARTITION BY grp ORDER BY v DESC), sum(v) OVER (ORDER BY id ROWS 3 PRECEDING)
  FROM t WHERE id < 40 ORDER BY id;
UPDATE t SET v = v * 2 WHERE id % 3 = 0;
DELETE FROM t WHERE id % 5 = 0;
SELECT count(*), printf('%.3f', sum(v)) FROM t;
SELECT typeof(1), typeof(1.0), typeof('x'), typeof(x'00'), typeof(NULL), 7 / 2, 7 % 3, 7.0 / 2, -7 / 2, 1 << 62;
SELECT abs(-9223372036854775807), 9223372036854775807 + 1, round(2.5), round(-2.5), round(3.14159, 3);
SELECT upper('abc'), lower('ÀBC'), length('héllo'), substr('hello', 2, 3), instr('hello', 'll'), hex('AZ'),
  replace('aaa', 'a', 'bb'), trim('  x '), quote('it''s'), unicode('é'), char(72, 105);
SELECT printf('%5d|%-5s|%.3e|%x|%q|%c', 42, 'ab', 12345.678, 255, 'a''b', 'z'), printf('%.20f', 0.1);
SELECT 1e308 * 10, -1e308 * 10, 0.1 + 0.2, 1.0 / 3, CAST('12abc' AS INT), CAST(3.99 AS INT), '10' + 5;
SELECT date('2024-02-28', '+1 day'), datetime('2000-01-01 12:00:00', '+36 hours'), strftime('%j %W', '2023-12-31'),
  julianday('2024-01-01') - julianday('2000-01-01');
CREATE TABLE j(doc TEXT);
INSERT INTO j VALUES ('{"a": [1, 2, {"b": "x"}], "c": 3.5, "d": null}');
SELECT json_extract(doc, '$.a[2].b'), json_array_length(doc, '$.a'), json_type(doc, '$.c'),
  json_set(doc, '$.e', 7), json_remove(doc, '$.a') FROM j;
SELECT key, value, type FROM j, json_each(j.doc) ORDER BY key;
WITH RECURSIVE fib(a, b, n) AS (SELECT 0, 1, 0 UNION ALL SELECT b, a + b, n + 1 FROM fib WHERE n < 80)
SELECT max(a) FROM fib;
SELECT x, CASE WHEN x % 15 = 0 THEN 'fizzbuzz' WHEN x % 3 = 0 THEN 'fizz' WHEN x % 5 = 0 THEN 'buzz' ELSE x END
  FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20) SELECT x FROM c);
CREATE VIRTUAL TABLE ft USING fts4(body);
INSERT INTO ft(body) SELECT 'the compiler lowers loop ' || id || ' into affine form' FROM t WHERE id < 200;
SELECT count(*) FROM ft WHERE ft MATCH 'lowers AND affine';
SELECT rowid FROM ft WHERE ft MATCH '"loop 17*"' ORDER BY rowid;
CREATE VIRTUAL TABLE rt USING rtree(id, x0, x1, y0, y1);
INSERT INTO rt SELECT id, id, id + 10, id * 2, id * 2 + 5 FROM t WHERE id < 300;
SELECT count(*) FROM rt WHERE x0 <= 100 AND x1 >= 95 AND y0 <= 200;
BEGIN; CREATE TABLE s(k TEXT PRIMARY KEY, n INT) WITHOUT ROWID;
INSERT INTO s SELECT name, count(*) FROM t GROUP BY name; COMMIT;
SELECT count(*), sum(n), max(k) FROM s;
SAVEPOINT sp; DELETE FROM s; ROLLBACK TO sp; RELEASE sp;
SELECT count(*) FROM s;
SELECT * FROM t WHERE id IN (SELECT id FROM t WHERE grp = 5 EXCEPT SELECT id FROM t WHERE v > 50) ORDER BY id;
EXPLAIN QUERY PLAN SELECT * FROM t WHERE grp = 2 AND v > 10;
PRAGMA integrity_check;
SELECT sqlite_compileoption_used('ENABLE_FTS4'), length(sqlite_version()) > 0;
"""


GAWK_SCRIPT = r"""
# written by polygeist-py's benchmarks/realworld.py: exercises gawk; output compared gcc vs pgcc
{ for (i = 1; i <= NF; i++) { cnt[$i]++; tot += length($i) } lines++ }
/compiler.*affine/ { hits++ }
END {
  printf "lines %d words %d chars %d hits %d\n", lines, length(cnt), tot, hits
  n = asorti(cnt, keys); for (i = 1; i <= n; i++) printf "%s=%d%s", keys[i], cnt[keys[i]], (i % 6 ? " " : "\n")
  print ""
  s = "The quick brown fox jumps over the lazy dog"
  print toupper(s), tolower(s), length(s), index(s, "fox"), substr(s, 5, 11)
  t = s; print gsub(/o/, "0", t), t; t = s; print sub(/qu(ick)/, "[&|\\1]", t), t
  print gensub(/(\w+) (\w+)/, "\\2 \\1", "g", s)
  print match(s, /b[a-z]+/), RSTART, RLENGTH; k = split(s, parts, /[aeiou]/, seps); print k, parts[3], seps[2]
  printf "%d %i %5.3f %-8s| %08.3e %G %x %X %o %c %c %%\n", -42, 3.99, 3.14159265, "ab", 12345.6789, 1e-10, 255, 48879, 8, 65, "hello"
  printf "%.15g %.17g %s %s %d\n", 0.1 + 0.2, 1 / 3, 2 ^ 53, 2 ^ 53 + 1, 2 ^ 31
  print 7 % 3, -7 % 3, 7.5 % 2, int(-3.7), int("12abc"), "3x" + 4, 1e6, 1e16, 123456789012, 0.000001
  print sqrt(2), exp(1), log(10), sin(1), cos(1), atan2(1, 2), atan2(-1, -2)
  srand(42); r = ""; for (i = 0; i < 5; i++) r = r sprintf("%.6f ", rand()); print r
  print and(0xF0F0, 0x0FF0), or(1, 6), xor(5, 3), lshift(1, 40), rshift(1024, 3), compl(0) > 0
  print strftime("%Y-%m-%d %H:%M:%S %j %a", 86400 * 12345 + 3723, 1), mktime("2020 02 29 12 00 00") > 0
  a[3] = "c"; a[1] = "a"; a[2] = "b"; a[10] = "j"; n = asort(a, b); for (i = 1; i <= n; i++) printf "%s", b[i]; print ""
  PROCINFO["sorted_in"] = "@ind_num_asc"; for (i in a) printf "%s:%s ", i, a[i]; print ""
  x = sprintf("%s", 17 / 4); y = 17 / 4 ""; print x, y, (x == y), ("10" < "9"), (10 < 9), ("abc" ~ /^a.c$/)
  for (i = 1; i <= 30; i++) f = f fib(i) " "; print f
  print substr("hello", 0), substr("hello", -1, 3), substr("hello", 2), length(), sprintf("%c", 256 + 65)
  m[1, 2] = 3; for (k in m) { split(k, kk, SUBSEP); print kk[1], kk[2], m[k] }
  print strtonum("0x1F"), strtonum("017"), strtonum("1e3"), 0x10 + 0
}
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
"""


def compress_checks(tool: str, levels: tuple[str, ...], roundtrip: str) -> dict[str, str]:
    """Output checks for a compressor CLI: the compressed bytes at each level (hashed) for every generated input
    must be equal between the builds, and compress + decompress must give the input back."""
    checks = {}
    for lv in levels:
        checks[f"compress {lv}"] = ("for f in {inputs}/*; do " + tool + " " + lv + " < $f | sha256sum; done")
    checks["roundtrip"] = ("for f in {inputs}/*; do " + tool + " -9 < $f | " + roundtrip +
                           " | cmp - $f && echo same $(basename $f); done")
    return checks


# libsodium's Debian tarball is its git tree (no configure script): every library source is compiled as the
# portable build (HAVE_TI_MODE: the 64-bit-limb field arithmetic with __int128), then each test program of
# test/default, which writes NAME.res and exits non-zero when it differs from NAME.exp.
LIBSODIUM_DEFS = "-DCONFIGURED=1 -DNATIVE_LITTLE_ENDIAN=1 -DHAVE_TI_MODE=1 -DHAVE_INLINE_ASM=0 -DHAVE_MMAP=1 " \
                 "-DHAVE_MPROTECT=1 -DHAVE_SYS_MMAN_H=1 -DHAVE_POSIX_MEMALIGN=1 -DHAVE_WEAK_SYMBOLS=1"
LIBSODIUM_BUILD = [
    "cd src/libsodium/include/sodium && sed -e 's/@VERSION@/1.0.18/; s/@SODIUM_LIBRARY_VERSION_MAJOR@/10/; "
    "s/@SODIUM_LIBRARY_VERSION_MINOR@/3/; s/@SODIUM_LIBRARY_MINIMAL_DEF@//' version.h.in > version.h",
    "mkdir -p obj && for f in $(find src/libsodium -name '*.c' | sort); do "
    "{cc} {cflags} " + LIBSODIUM_DEFS + " -Isrc/libsodium/include/sodium -c $f -o obj/$(echo $f | tr / _).o "
    "|| exit 1; done && ar rcs libsodium.a obj/*.o",
    "cd test/default && for f in *.c; do n=${{f%.c}}; {cc} {cflags} -DTEST_NAME=\\\"$n\\\" "
    "-I../../src/libsodium/include -I../quirks $f ../../libsodium.a -o $n || exit 1; done"]
LIBSODIUM_TEST = ["cd test/default && for f in *.c; do n=${{f%.c}}; if ./$n; then echo ok $n; "
                  "else echo not ok $n; st=1; fi; done; exit ${{st:-0}}"]


# One set of options for the amalgamation, linked both into the shell and into fuzzcheck (the union of the two
# programs' options in sqlite's Makefile, less those that need threads or extension loading).
SQLITE_OPTS = ("-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_ENABLE_MEMSYS5 "
               "-DSQLITE_MAX_MEMORY=50000000 -DSQLITE_PRINTF_PRECISION_LIMIT=1000 -DSQLITE_ENABLE_FTS4 "
               "-DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_GEOPOLY "
               "-DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_BYTECODE_VTAB -DSQLITE_ENABLE_STMTVTAB "
               "-DSQLITE_ENABLE_DBPAGE_VTAB -DSQLITE_ENABLE_EXPLAIN_COMMENTS -DSQLITE_ENABLE_OFFSET_SQL_FUNC")


RECIPES: list[Recipe] = [
    Recipe(
        name="zlib", source="deb:zlib",
        build=["CC={cc} CFLAGS={cflags} ./configure --static", "make -j{jobs}"],
        test=["make test"], test_counts=counts_zlib,
        checks={**compress_checks("./minigzip", ("-1", "-6", "-9"), "./minigzip -d"),
                "example": "./example && echo rc=$?"}),
    Recipe(
        name="lua5.4", source="deb:lua5.4",
        build=["make -j{jobs} linux CC='{cc} -std=gnu99'"],
        test=["src/lua {work}/test.lua"], test_counts=counts_lua, setup=lua_setup,
        checks={"script output": "src/lua {work}/test.lua",
                "luac listing": "src/luac -o /dev/null -l -l {work}/test.lua | sed 's|{work}|WORK|g; s/0x[0-9a-f]*/ADDR/g' "
                                "| sha256sum",
                "luac dump runs": "src/luac -s -o {work}/t.luac {work}/test.lua && src/lua {work}/t.luac "
                                  "| tail -1"},
        notes="built as shipped (the VM's jump table: GNU computed goto); "
              "the Lua tarball has no test suite: the runner's own script"),
    Recipe(
        name="cjson", source="deb:cjson", build=cjson_build, test=cjson_test, test_counts=counts_unity,
        checks={"cJSON_test": "f=$(ls build/cJSON_test 2>/dev/null || ls build/*/cJSON_test); $f"},
        notes="cmake, static lib, Unity unit tests" if shutil.which("cmake") else "plain compile (no cmake)"),
    Recipe(
        name="bzip2", source="deb:bzip2",
        build=["make -j{jobs} CC={cc} 'CFLAGS=-Wall -Winline {cflags} -D_FILE_OFFSET_BITS=64' libbz2.a bzip2 "
               "bzip2recover"],
        test=["make test CC={cc}"],
        checks=compress_checks("./bzip2 -c", ("-1", "-9"), "./bzip2 -dc"),
        notes="make test: compress/decompress 3 samples, cmp with reference files"),
    Recipe(
        name="libtommath", source="deb:libtommath",
        build=["make -j{jobs} CC={cc} CFLAGS={cflags} test"],
        test=["./test"], test_counts=counts_libtommath,
        notes="numeric: multiple-precision integers; its `test` program"),
    Recipe(
        name="lzo2", source="deb:lzo2",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared", "make -j{jobs}"],
        test=["make check", "make test"], test_counts=counts_automake,
        checks={"lzopack": "for f in {inputs}/*; do ./examples/lzopack $f {work}/p.lzo >/dev/null && "
                           "sha256sum < {work}/p.lzo && ./examples/lzopack -d {work}/p.lzo {work}/p.out "
                           ">/dev/null && cmp {work}/p.out $f && echo same; done",
                "simple": "./examples/simple",
                "lzotest sizes": "for f in {inputs}/*; do ./lzotest/lzotest -mall $f 2>&1 "
                                 "| awk '/\\|/ {{print $1, $3, $4, $5, $6, $7}}'; done"}),
    Recipe(
        name="jansson", source="deb:jansson",
        build=cmake_build("-DJANSSON_BUILD_DOCS=OFF -DJANSSON_EXAMPLES=ON"),
        test=["cd build && ctest -j {jobs}"], test_counts=counts_ctest,
        notes="cmake + ctest"),
    Recipe(
        name="libyaml", source="deb:libyaml",
        build=cmake_build("-DBUILD_TESTING=ON"),
        test=["cd build && ctest -j {jobs}"], test_counts=counts_ctest,
        checks={"parse events": "for f in examples/*.yaml; do build/run-parser-test-suite $f; done",
                "reformat": "for f in examples/*.yaml; do build/example-reformatter < $f; done",
                "deconstruct": "for f in examples/*.yaml; do build/example-deconstructor < $f; done",
                "scan+load": "build/run-scanner examples/*.yaml; build/run-loader examples/*.yaml",
                "emit": "build/run-emitter examples/*.yaml"},
        notes="cmake + ctest"),
    Recipe(
        name="xxhash", source="deb:xxhash",
        build=["make -j{jobs} CC={cc} CFLAGS={cflags} xxhsum"],
        test=["make check CC={cc} CFLAGS={cflags}"],
        checks={f"xxhsum -H{h}": "./xxhsum -H%d {inputs}/* | sed 's| .*/| |'" % h for h in (0, 1, 2, 3)},
        notes="make check: xxhsum CLI checks"),
    Recipe(
        name="lz4", source="deb:lz4",
        build=["make -j{jobs} CC={cc} CFLAGS={cflags} -C lib liblz4.a",
               "make -j{jobs} CC={cc} CFLAGS={cflags} -C programs lz4"],
        test=["make check CC={cc} CFLAGS={cflags}"],
        checks=compress_checks("programs/lz4 -c", ("-1", "-9", "--fast=3"), "programs/lz4 -dc"),
        notes="make check: test-lz4-essentials"),
    # second batch: small plain-C libraries with their own test suites
    Recipe(
        name="libogg", source="deb:libogg",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared", "make -j{jobs}"],
        test=["make check"], test_counts=counts_libogg,
        checks={"self-test output": "cd src && ./test_bitwise && ./test_framing"},
        notes="configure + make check (bitwise and framing self-tests)"),
    Recipe(
        name="lzlib", source="deb:lzlib",
        build=["./configure CC={cc} CFLAGS={cflags}", "make -j{jobs}"],
        test=["make check"], test_counts=counts_lzlib,
        checks={**compress_checks("./minilzip -c", ("-0", "-3", "-9"), "./minilzip -dc"),
                "bbexample": "for f in {inputs}/*; do ./bbexample $f && echo ok $(basename $f); done"},
        notes="hand-written configure; make check: testsuite/check.sh"),
    Recipe(
        name="libmd", source="deb:libmd",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared", "make -j{jobs}"],
        test=["make check"], test_counts=counts_automake,
        notes="message digests (MD2/4/5, RIPEMD160, SHA1/2); configure + make check"),
    Recipe(
        name="popt", source="deb:popt",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared --disable-nls", "make -j{jobs}"],
        test=["make check || st=1; cat tests/testit.sh.log; exit ${{st:-0}}"], test_counts=counts_popt,
        notes="option parsing; make check: tests/testit.sh"),
    Recipe(
        name="libdeflate", source="deb:libdeflate",
        build=["make -j{jobs} CC={cc} CFLAGS={cflags} libdeflate.a gzip gunzip test_programs"],
        test=["make check CC={cc} CFLAGS={cflags}"],
        checks={**compress_checks("./gzip -c", ("-1", "-6", "-12"), "./gunzip -c"),
                "checksums": "./test_checksums"},
        notes="plain Makefile; make check: scripts/check.sh (x86 SIMD paths chosen at run time)"),
    Recipe(
        name="cmark", source="deb:cmark",
        build=cmake_build("-DCMARK_TESTS=ON -DCMARK_SHARED=OFF -DCMARK_STATIC=ON"),
        test=["cd build && ctest -j {jobs}"], test_counts=counts_ctest,
        checks={f"render {fmt}": "for f in README.md changelog.txt test/spec.txt; do build/src/cmark --to %s $f; "
                                 "done | sha256sum" % fmt for fmt in ("html", "xml", "man", "latex", "commonmark")},
        notes="CommonMark; cmake + ctest (api_test, spec tests run by python3)"),
    Recipe(
        name="libsamplerate", source="deb:libsamplerate",
        build=cmake_build("-DBUILD_TESTING=ON -DBUILD_SHARED_LIBS=OFF -DLIBSAMPLERATE_EXAMPLES=OFF"),
        test=["cd build && ctest -j {jobs}"], test_counts=counts_ctest,
        notes="floating-point resampling; cmake + ctest"),
    # third batch
    Recipe(
        name="expat", source="deb:expat=2.5.0-1+deb12u2",  # (the security pool's newer version is not served)
        build=["cmake -S expat -B build -DCMAKE_C_COMPILER={cc} -DCMAKE_C_FLAGS={cflags} -DEXPAT_SHARED_LIBS=OFF "
               "-DEXPAT_BUILD_DOCS=OFF -DEXPAT_BUILD_EXAMPLES=OFF -DEXPAT_BUILD_FUZZERS=OFF",
               "cmake --build build -j {jobs}"],
        test=["cd build && ctest -j {jobs}"], test_counts=counts_ctest,
        notes="XML parser; cmake + ctest (runtests; runtests_cxx built by the system's C++ compiler)"),
    Recipe(
        name="giflib", source="deb:giflib",
        build=["make -j{jobs} CC={cc} CFLAGS={cflags} libgif.a libutil.a gif2rgb gifbuild giffix giftext giftool "
               "gifclrmp gifbg gifcolor gifecho giffilter gifhisto gifinto gifsponge gifwedge"],
        test=["make -C tests"],
        notes="GIF codec; plain Makefile; make -C tests (regression outputs compared with diff)"),
    # fourth batch: regex engines, a crypto library, codecs, an SQL engine, a calculator
    Recipe(
        name="pcre2", source="deb:pcre2=10.42-1",  # (the security pool's newer version is not served)
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared", "make -j{jobs}"],
        test=["make check"], test_counts=counts_automake,
        checks={"pcre2test testinput2": "./pcre2test -q testdata/testinput2 | sha256sum",
                "pcre2grep": "./pcre2grep -n -i 'compiler|loop[a-z]*' {inputs}/text.txt | sha256sum"},
        notes="regular expressions (8-bit library, interpreter; no JIT); make check: RunTest + RunGrepTest"),
    Recipe(
        name="zstd", source="deb:libzstd",
        build=["make -j{jobs} -C programs zstd CC={cc} 'CFLAGS={cflags} -DZSTD_NO_INTRINSICS' ZSTD_NO_ASM=1 "
               "HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0"],
        test=["make -C tests check CC={cc} 'CFLAGS={cflags} -DZSTD_NO_INTRINSICS' ZSTD_NO_ASM=1 HAVE_ZLIB=0 "
              "HAVE_LZMA=0 HAVE_LZ4=0"],
        checks=compress_checks("programs/zstd -q -c", ("-1", "-3", "-19", "--fast=4"), "programs/zstd -q -dc"),
        notes="scalar build (ZSTD_NO_ASM: no x86-64 assembly Huffman decoder; ZSTD_NO_INTRINSICS: no SSE2 "
              "vector types); make -C tests check: playTests.sh"),
    Recipe(
        name="libsodium", source="deb:libsodium", build=LIBSODIUM_BUILD, test=LIBSODIUM_TEST,
        test_counts=counts_tap_lines,
        notes="crypto; the Debian tarball has no configure: a plain compile of src/libsodium (portable C, "
              "__int128 arithmetic, no SIMD variants) and of each test/default program, its output compared "
              "with its .exp file"),
    Recipe(
        name="oniguruma", source="deb:libonig",
        build=cmake_build("-DBUILD_SHARED_LIBS=OFF") + [
            "for t in test_utf8 test_syntax test_options testc testu test_regset test_back; do "
            "{cc} {cflags} -Isrc -Ibuild test/$t.c build/libonig.a -o build/$t || exit 1; done"],
        test=["for t in test_utf8 test_syntax test_options testc testu test_regset test_back; do "
              "build/$t || st=1; done; exit ${{st:-0}}"], test_counts=counts_onig,
        checks={"test_utf8": "build/test_utf8", "testc": "build/testc", "test_back": "build/test_back"},
        notes="regular expressions; cmake library + the tarball's test programs (test/*.c)"),
    Recipe(
        name="json-c", source="deb:json-c",
        build=cmake_build("-DBUILD_SHARED_LIBS=OFF -DBUILD_TESTING=ON -DDISABLE_WERROR=ON"),
        test=["cd build && ctest -j {jobs}"], test_counts=counts_ctest,
        notes="JSON; cmake + ctest (each test's output compared with its .expected file)"),
    Recipe(
        name="libpng", source="deb:libpng1.6=1.6.39-2+deb12u5",  # (the security pool's newer version is not served)
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared --disable-hardware-optimizations",
               "make -j{jobs}"],
        test=["make check"], test_counts=counts_automake,
        checks={"pngtest": "./pngtest pngtest.png {work}/out.png >/dev/null; echo rc=$?; sha256sum < {work}/out.png",
                "pngimage": "./pngimage --exhaustive contrib/pngsuite/basn*.png 2>&1 | sha256sum"},
        notes="PNG codec with the system zlib; C only (no SSE/NEON filters); make check: pngtest, pngvalid..."),
    Recipe(
        name="opus", source="deb:opus",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared --disable-doc --disable-extra-programs "
               "--disable-intrinsics", "make -j{jobs}"],
        test=["make check"], test_counts=counts_automake,
        notes="audio codec (fixed/float DSP; C only: --disable-intrinsics); make check: celt + opus tests"),
    Recipe(
        name="bc", source="deb:bc",
        build=["CC={cc} CFLAGS={cflags} ./configure", "make -j{jobs} -C lib", "make -j{jobs} -C bc",
               "make -j{jobs} -C dc"],
        test=["bc/bc -l {work}/test.bc > {work}/bc.out && tail -1 {work}/bc.out && grep -q 'checks ok' {work}/bc.out",
              "echo '2 k 10 3 / p 2 100 ^ p 17 v p [ok]p' | dc/dc"],
        setup=lambda src, ctx: (Path(ctx.work) / "test.bc").write_text(BC_SCRIPT),
        checks={"script output": "bc/bc -l {work}/test.bc",
                "Test/*.b": "for f in Test/fact.b Test/sqrt1.b Test/exp.b Test/ln.b Test/atan.b Test/sine.b "
                            "Test/jn.b; do timeout 60 bc/bc -lq $f </dev/null | head -c 20000 | sha256sum; done",
                "dc": "echo '20 k 2 v p 1 3 / p 3 200 ^ p 16 o 255 p 10 o [abc] p' | dc/dc"},
        notes="arbitrary-precision calculator (bc, dc); the runner's bc script + the tarball's Test/*.b"),
    Recipe(
        name="sqlite3", source="deb:sqlite3",
        build=["./configure --disable-tcl --disable-shared --disable-readline CC=gcc",
               "make sqlite3.c shell.c sqlite3.h",  # (the amalgamation: tclsh and gcc-built tools)
               "{cc} {cflags} " + SQLITE_OPTS + " -c sqlite3.c -o sqlite3.o",
               "{cc} {cflags} " + SQLITE_OPTS + " -I. shell.c sqlite3.o -lm -o sqlite3",
               "{cc} {cflags} " + SQLITE_OPTS + " -I. -Itest -Iext/recover -DSQLITE_OSS_FUZZ test/fuzzcheck.c "
               "test/ossfuzz.c test/fuzzinvariants.c ext/recover/dbdata.c ext/recover/sqlite3recover.c test/vt02.c "
               "sqlite3.o -lm -o fuzzcheck"],
        test=["./fuzzcheck test/fuzzdata1.db test/fuzzdata2.db test/fuzzdata3.db test/fuzzdata4.db "
              "test/fuzzdata5.db test/fuzzdata6.db test/fuzzdata7.db test/fuzzdata8.db"],
        test_counts=counts_sqlite_fuzzcheck,
        setup=lambda src, ctx: (Path(ctx.work) / "test.sql").write_text(SQL_SCRIPT),
        checks={"sql script": "./sqlite3 :memory: < {work}/test.sql"},
        notes="the amalgamation (sqlite3.c, ~240k lines, made by tclsh + gcc-built tools) compiled once, linked "
              "into the shell and fuzzcheck; fuzzcheck on test/fuzzdata*.db + the runner's SQL script"),
    # fifth batch: compressors, a database, a speech codec, a JSON processor, crypto
    Recipe(
        name="brotli", source="deb:brotli/bookworm",  # (the security pool's newer version is not served)
        build=cmake_build("-DBUILD_SHARED_LIBS=OFF"),
        test=["cd build && ctest -j {jobs}"], test_counts=counts_ctest,
        checks=compress_checks("build/brotli -c", ("-q 1", "-q 5", "-q 9", "-q 11 -w 18"), "build/brotli -dc"),
        notes="compressor; cmake + ctest (roundtrip and compatibility tests on the tarball's testdata)"),
    Recipe(
        name="lmdb", source="deb:lmdb",
        build=["make -j{jobs} -C libraries/liblmdb CC={cc} 'OPT={cflags}' liblmdb.a mdb_stat mdb_copy mdb_dump "
               "mdb_load mtest mtest2 mtest3 mtest4 mtest5"],
        test=["cd libraries/liblmdb && for t in mtest mtest2 mtest3 mtest4 mtest5; do rm -rf testdb && "
              "mkdir testdb && if ./$t >/dev/null && ./mdb_stat testdb >/dev/null; then echo ok $t; "
              "else echo not ok $t; st=1; fi; done; exit ${{st:-0}}"],
        test_counts=counts_tap_lines,
        checks={"load+dump": "cd libraries/liblmdb && rm -rf {work}/db && mkdir {work}/db && "
                             "awk 'BEGIN {{ print \"VERSION=3\\nformat=print\\ntype=btree\\nHEADER=END\"; "
                             "for (i = 0; i < 4000; i++) printf \" k%07d\\n v%d-%d\\n\", (i * 7919) % 4001, i, "
                             "i * i % 1000; print \"DATA=END\" }}' | ./mdb_load {work}/db && ./mdb_dump {work}/db "
                             "| sha256sum && ./mdb_stat -e {work}/db | grep -v 'Map address'"},
        notes="memory-mapped B+tree database; plain Makefile; mtest..mtest5 (random keys, the verdict only) + "
              "mdb_load/mdb_dump of a generated table"),
    Recipe(
        name="speex", source="deb:speex",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared", "make -j{jobs}",
               # (its testenc programs are built with the binaries, which need libogg: compiled here)
               "cd libspeex && for t in testenc testenc_wb testenc_uwb; do {cc} {cflags} -DHAVE_CONFIG_H -I.. "
               "-I../include $t.c .libs/libspeex.a -lm -o $t || exit 1; done"],
        # (testenc_wb and testenc_uwb exit with 1 when done: a run counts when it reached its SNR report)
        test=["cd libspeex && for t in testenc testenc_wb testenc_uwb; do for f in random.bin text.txt; do "
              "./$t {inputs}/$f {work}/$t.out > {work}/$t.log 2>&1; grep -q 'segmental SNR' {work}/$t.log && "
              "echo ok $t-$f || {{ echo not ok $t-$f; st=1; }}; done; done; exit ${{st:-0}}"],
        test_counts=counts_tap_lines,
        checks={f"{t} decoded": f"cd libspeex && for f in random.bin text.txt ramp.bin; do ./{t} {{inputs}}/$f "
                                f"{{work}}/o.raw 2>&1 | tail -3; sha256sum < {{work}}/o.raw; done"
                for t in ("testenc", "testenc_wb", "testenc_uwb")},
        notes="speech codec (floating-point DSP); no test suite: its testenc programs (encode + decode, SNR) "
              "on generated 16-bit input, decoded samples compared with gcc's build"),
    Recipe(
        name="jq", source="deb:jq=1.6-2.1+deb12u2",  # (the security pool's newer version is not served)
        build=["for m in $(grep -o 'HAVE_[A-Z0-9_]*' src/libm.h | sort -u | grep -v POW10) HAVE_TIMEGM HAVE_MODF "
               "HAVE_MEMMEM HAVE_LGAMMA_R HAVE_FREXP HAVE_ISATTY HAVE_STRFTIME HAVE_GMTIME HAVE_ALLOCA_H "
               "HAVE_ALLOCA HAVE_TM_TM_GMT_OFF HAVE_STRPTIME HAVE_MKSTEMP HAVE_LOCALTIME_R HAVE_GMTIME_R "
               "HAVE_GETTIMEOFDAY HAVE_ATEXIT HAVE_PTHREAD_KEY_CREATE HAVE_PTHREAD_ONCE; do "
               "echo \"#define $m 1\"; done > jqconfig.h",
               "echo '#define JQ_VERSION \"1.6\"' > src/version.h && sed -e 's/\\\\/\\\\\\\\/g' "
               "-e 's/\"/\\\\\"/g' -e 's/^/\"/' -e 's/$/\\\\n\"/' src/builtin.jq > src/builtin.inc",
               "mkdir -p obj && for f in $(ls src/*.c | grep -v inject_errors); do {cc} {cflags} -D_GNU_SOURCE "
               "-DIEEE_8087 -include jqconfig.h -I. -c $f -o obj/$(basename $f .c).o || exit 1; done && "
               "{cc} obj/*.o -lm -lpthread -o jq"],
        test=["for t in jqtest base64test optionaltest mantest; do NO_VALGRIND=1 tests/$t || st=1; done; "
              "for t in shtest utf8test; do NO_VALGRIND=1 tests/$t >/dev/null 2>&1 && echo ok $t || "
              "{{ echo not ok $t; st=1; }}; done; exit ${{st:-0}}"],
        test_counts=counts_jq,
        checks={"filters": "./jq -c '[paths] | length, (.. | numbers) * 3.5, (tostring | length)' tests/torture/*.json "
                           "2>&1 | sha256sum; ./jq -n '[range(100)] | map(. * 1.1 | floor) | add, (1e1000 | tostring), "
                           "(3.0 | tostring), ([.[]?] | sort), (\"x\" * 0), ([limit(5; repeat(1))]), "
                           "(pow(2; 0.5)), (\"2015-03-05T23:51:47Z\" | fromdate | todate)' 2>&1",
                "jq.test outputs": "./jq -L tests/modules --run-tests < tests/jq.test 2>&1 | sha256sum"},
        notes="JSON processor (its own bytecode VM, dtoa); a plain compile of src/*.c with the autoconf macros "
              "written by the runner (no oniguruma: the regex tests are skipped); tests/*test"),
    Recipe(
        name="xz-utils", source="deb:xz-utils",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared --disable-nls --disable-doc "
               "--disable-assembler", "make -j{jobs}"],
        test=["make check"], test_counts=counts_automake,
        checks={**compress_checks("src/xz/xz -c", ("-0", "-6", "-9e", "--format=lzma -3",
                                                   "--x86 --lzma2=preset=4 --check=sha256"), "src/xz/xz -dc"),
                "list": "src/xz/xz -9 -c {inputs}/text.txt > {work}/t.xz && src/xz/xz -lvv {work}/t.xz "
                        "| sed 's|{work}|WORK|'"},
        notes="LZMA compressor (liblzma + xz); configure + make check (the tests/ programs and scripts)"),
    Recipe(
        name="gzip", source="deb:gzip",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-nls", "make -j{jobs}"],
        test=["make check"], test_counts=counts_automake,
        checks=compress_checks("./gzip -c", ("-1", "-6", "-9", "--rsyncable"), "./gzip -dc"),
        notes="GNU gzip with its gnulib library; configure + make check (tests/*.sh)"),
    Recipe(
        name="flac", source="deb:flac",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared --disable-ogg --disable-cpplibs "
               "--disable-doxygen-docs --disable-xmms-plugin --disable-asm-optimizations --disable-sse "
               "--disable-avx --disable-thorough-tests --disable-stack-smash-protection --disable-programs "
               "--enable-programs", "make -j{jobs}",
               # (the test programs the scripts run: test_libFLAC, test_seeking, test_streams, test_cuesheet...)
               "make -j{jobs} -C src check"],
        # (test_libFLAC's last check, a read-only file, fails as root: it counts as passed when that is its only
        # error; the other test scripts run one by one, as make check does, at the quickest level)
        test=["cd test && FLAC__TEST_LEVEL=0 ECHO_N=-n sh ./test_libFLAC.sh "
              "> {work}/libFLAC.log 2>&1; if [ $(grep -c ERROR {work}/libFLAC.log) -eq 2 ] && "
              "grep -q 'are you running as root' {work}/libFLAC.log; then echo ok test_libFLAC; "
              "else echo not ok test_libFLAC; st=1; fi; "
              "for t in test_grabbag test_flac test_metaflac test_replaygain test_seeking test_streams "
              "test_compression; do FLAC__TEST_LEVEL=0 ECHO_N=-n sh ./$t.sh > {work}/$t.log 2>&1 && echo ok $t || "
              "{{ echo not ok $t; st=1; }}; done; exit ${{st:-0}}"],
        test_counts=counts_tap_lines,
        checks={"encode": "for f in random.bin text.txt ramp.bin zeros.bin; do for lv in -0 -5 -8; do "
                          "src/flac/flac -s -f --force-raw-format --endian=little --sign=signed --channels=2 "
                          "--bps=16 --sample-rate=44100 $lv -o {work}/o.flac {inputs}/$f && "
                          "sha256sum < {work}/o.flac; src/flac/flac -s -d -f --force-raw-format --endian=little "
                          "--sign=signed -o {work}/o.raw {work}/o.flac && cmp {work}/o.raw {inputs}/$f && "
                          "echo same $f $lv; done; done"},
        notes="lossless audio codec (libFLAC, C only: no SSE/AVX intrinsics); its test scripts at "
              "FLAC__TEST_LEVEL=0 (test_libFLAC: all but its root-only check) + encode/decode of generated raw audio"),
    Recipe(
        name="nettle", source="deb:nettle",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared --disable-assembler --disable-documentation "
               "--disable-openssl --disable-x86-aesni --disable-x86-sha-ni --disable-x86-pclmul", "make -j{jobs}"],
        test=["make check"], test_counts=counts_nettle,
        checks={"nettle-hash": "for a in md5 sha1 sha256 sha512 sha3_256 streebog512 sm3; do "
                               "tools/nettle-hash -a $a {inputs}/* | sed 's|{inputs}/||'; done",
                "pbkdf2": "echo -n secret | tools/nettle-pbkdf2 -i 2000 -l 32 saltsalt"},
        notes="low-level crypto (C only: --disable-assembler); configure + make check (testsuite/*-test, "
              "GMP-based public-key tests included)"),
    # sixth batch: text tools with gnulib (sed, m4, gawk), libmagic, a C pretty-printer, a C compiler
    Recipe(
        name="file", source="deb:file",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared --disable-libseccomp --disable-zlib "
               "--disable-bzlib --disable-xzlib --disable-zstdlib --disable-lzlib", "make -j{jobs}"],
        test=["make check"], test_counts=counts_file,
        checks={"file -b": "src/file -m magic/magic.mgc -b tests/*.testfile {inputs}/* src/*.c magic/Magdir/c* "
                           "2>&1",
                "file --mime": "src/file -m magic/magic.mgc --mime -b tests/*.testfile {inputs}/* 2>&1",
                "magic compile": "src/file -C -m magic/Magdir && sha256sum < Magdir.mgc"},
        notes="libmagic + file(1); its magic database is compiled by the built file; make check: "
              "tests/*.testfile against their .result"),
    Recipe(
        name="sed", source="deb:sed",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-nls --without-selinux --disable-acl",
               "make -j{jobs}",
               # (the ~150 gnulib test programs are compiled here, within the build's time: `make check` only runs)
               "make -j{jobs} check TESTS= XFAIL_TESTS="],
        # (panic-tests expects a write into a read-only directory to fail: as root it succeeds)
        test=["make check XFAIL_TESTS=\"$(test $(id -u) = 0 && echo testsuite/panic-tests.sh)\""],
        test_counts=counts_automake,
        checks={"scripts": "for e in 's/\\(o\\)\\([a-z]*\\)/[\\2\\1]/g' 'y/abcdefghij/ABCDEFGHIJ/' "
                           "'/compiler/{{=;p}}' '$!N;s/\\n/ | /;P;D' '1~3d;s/[0-9]\\+/<&>/2' "
                           "'/lowers/,/affine/{{s/loop/LOOP/w {work}/w.txt\n}}'; do fold -w 60 {inputs}/text.txt | "
                           "head -3000 | sed -e \"$e\" | sha256sum; done; sha256sum < {work}/w.txt",
                "sed -E": "fold -w 70 {inputs}/text.txt | head -2000 | sed -E 's/(\\w+) (\\w+)/\\2 \\1/g; "
                          "s/^(.{{10}}).*(.{{5}})$/\\1...\\2/' | sha256sum"},
        notes="GNU sed with gnulib (regex, dfa); configure + make check (testsuite/*.sh, gnulib tests)"),
    Recipe(
        name="m4", source="deb:m4",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-nls", "make -j{jobs}",
               "make -j{jobs} -C tests check TESTS="],  # (the gnulib test programs, compiled within the build's time)
        # (the checks/ drawn from the manual, less 198.sysval: this machine's shell writes 'Killed' to stderr for
        # `kill -9 $$`, a mismatch with gcc's build too; then the gnulib tests)
        test=["cd checks && PATH=$PWD/../src:$PATH ./check-them -I ../examples $(ls [0-9]*.* | grep -v sysval) "
              "stackovf.test",
              "make -C tests check"],
        test_counts=counts_m4,
        checks={"examples": "cd examples && for f in *.m4; do echo $f; timeout 20 ../src/m4 -I . $f </dev/null "
                            "2>&1 | sha256sum; done",
                "eval": "echo 'eval(2**31-1) eval(-7/2) eval(-7%2) eval(0x7fffffff+1) eval(1<<40) "
                        "eval(255, 16, 8) eval(10, 2) format(`%.3f|%x|%10s|%e', 3.14159, 255, `ab', 12345.678) "
                        "substr(`hello world', 3, 5) translit(`compiler', `a-m', `A-M') regexp(`GNUs not Unix', "
                        "`\\w\\(\\w+\\)$', `*** \\& *** \\1 ***') patsubst(`the loop into affine', `\\w+', `<\\&>') "
                        "len(`xyz') index(`gnus', `us') incr(41) decr(-5)' | src/m4"},
        notes="GNU m4 with gnulib; configure + make check (checks/ from the manual's examples, gnulib tests)"),
    Recipe(
        name="gawk", source="deb:gawk",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-nls --disable-extensions --disable-mpfr "
               "--disable-pma --without-readline", "make -j{jobs} -C support", "make -j{jobs} gawk"],
        # (Debian's tarball has no doc/gawktexi.in: a plain `make` stops in doc/, so support/ and gawk alone, then
        # test/)
        test=["make -C test check"], test_counts=counts_gawk,
        setup=lambda src, ctx: (Path(ctx.work) / "test.awk").write_text(GAWK_SCRIPT),
        checks={"script": "./gawk -f {work}/test.awk {inputs}/text.txt",
                "printf": "./gawk 'BEGIN {{ for (i = -3; i < 40; i += 2.75) printf \"%d %5.2f %e %g %x %o %c|%-6s|"
                          "%+.3d\\n\", i, i * 1.1, i ^ 7, 1 / (i + 0.5), i * 977, i * 31, 65 + i, i, i }}'",
                "wordfreq": "./gawk '{{ for (i = 1; i <= NF; i++) n[$i]++ }} END {{ PROCINFO[\"sorted_in\"] = "
                            "\"@val_num_desc\"; for (w in n) print w, n[w] }}' {inputs}/text.txt"},
        notes="GNU awk (its own regex and dfa, gnulib); configure + make check (test/: ~700 awk programs "
              "against their .ok output; commas, mbstr1 and mbstr2 need an en_US.UTF-8 locale: without one they "
              "fail under gcc too)"),
    Recipe(
        name="indent", source="deb:indent",
        # (with --disable-nls its gettext stubs trip its own -Werror; doc/ needs makeinfo: src/ alone)
        build=["CC={cc} CFLAGS={cflags} ./configure", "make -j{jobs} -C src"],
        test=["cd regression && sh ./TEST"], test_counts=counts_indent,
        checks={"indent styles": "for o in -gnu -kr -orig -linux '-i8 -ts8 -bli0 -nut -l100'; do "
                                 "for f in src/*.c; do src/indent $o -st $f; done | sha256sum; done"},
        notes="GNU indent (a C pretty-printer); regression/TEST (its inputs with several styles against the "
              "expected output) + indent of its own sources in five styles"),
    Recipe(
        name="tcc", source="deb:tcc",
        build=["./configure --cc={cc} '--extra-cflags={cflags}'", "make -j{jobs}"],
        # (tests/: tcc -- built by the compiler under test -- compiles and runs tcctest.c against gcc's reference,
        # the tests2 programs against their .expect, libtcc, abitest against gcc-compiled code...)
        test=["make -k test 2>&1"], test_counts=counts_tcc,
        checks={"compile+run": "for f in tests/tests2/[0-4]*.c; do ./tcc -B. -Iinclude -run $f 2>&1 "
                               "| sha256sum; done",
                # (not tcctest.c: it reads config.h's CC_NAME, which is CC_clang when pgcc built tcc)
                "object code": "for f in tests/tests2/[0-4]*.c tests/tests2/9*.c; do ./tcc -B. -Iinclude -c $f "
                               "-o {work}/t.o 2>/dev/null && objdump -d {work}/t.o | tail -n +3; done | sha256sum"},
        notes="Tiny C Compiler (one translation unit: tcc.c includes libtcc.c and the x86-64 code generator); "
              "make test: tcc compiles and runs its tests with gcc's results as reference"),
    # seventh batch: an old regex library, an event loop, GNU grep, an XML library
    Recipe(
        name="pcre3", source="deb:pcre3",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared --disable-cpp --enable-utf "
               "--enable-unicode-properties", "make -j{jobs}"],
        test=["make check"], test_counts=counts_automake,
        checks={"pcretest testinput2": "./pcretest -q testdata/testinput2 | sha256sum",
                "pcregrep": "./pcregrep -n -i 'compiler|loop[a-z]*' {inputs}/text.txt | sha256sum"},
        notes="PCRE 8 (the older regex library: pcre_compile's two passes, its own interpreter, no JIT); "
              "configure + make check (RunTest, RunGrepTest)"),
    Recipe(
        name="libuv1", source="deb:libuv1",
        build=cmake_build("-DLIBUV_BUILD_TESTS=ON -DLIBUV_BUILD_BENCH=OFF -DBUILD_TESTING=ON"),
        # (the static-library test runner, one test at a time: its own TAP 'ok N - name' / 'not ok N - name'; it
        # refuses to run as root: then as nobody, owning the tree its tests write into)
        test=["if [ $(id -u) = 0 ]; then chown -R nobody . && as='setpriv --reuid=nobody --regid=nogroup "
              "--clear-groups'; fi; cd build && $as env UV_TEST_TIMEOUT_MULTIPLIER=4 ./uv_run_tests_a 2>&1 "
              "| grep -v '^#'"],
        test_counts=counts_uv_tap,
        notes="event loop (epoll, threads, pipes, timers, TCP/UDP on loopback); cmake + its test runner "
              "(uv_run_tests_a: ~400 tests in child processes; 8 of them (fs_copyfile, fs_read_bufs, "
              "tcp_connect_timeout, ...) fail under gcc too on this machine)"),
    Recipe(
        name="grep", source="deb:grep",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-nls --without-libsigsegv-prefix --disable-perl-regexp",
               "make -j{jobs}",
               # (the gnulib test programs are compiled here, within the build's time: `make check` only runs)
               "make -j{jobs} check TESTS= XFAIL_TESTS="],
        test=["make check"], test_counts=counts_automake,
        checks={"patterns": "for e in -c '-n -i compiler' '-o -E [a-z]+ing' '-w -c loop' '-v -c e' "
                            "'-E -o (af|lo)[a-z]{{3}}'; do src/grep $e {inputs}/text.txt | sha256sum; done",
                "fixed": "src/grep -F -c -e the -e loop -e affine {inputs}/text.txt"},
        notes="GNU grep (its dfa and kwset matchers, gnulib's regex); configure + make check (tests/, gnulib "
              "tests)"),
    Recipe(
        name="libxml2", source="deb:libxml2",
        build=["CC={cc} CFLAGS={cflags} ./configure --disable-shared --without-python --without-lzma "
               "--without-zlib --without-iconv --without-icu --without-readline --without-http --without-ftp",
               "make -j{jobs} xmllint runtest testchar testdict testapi testlimits testrecurse"],
        test=["./runtest -q"], test_counts=counts_libxml2,
        checks={"xmllint": "for f in test/*.xml; do ./xmllint --noout --nonet $f 2>&1; done | sha256sum",
                "canonical": "for f in test/c14n/without-comments/*.xml; do ./xmllint --nonet --c14n $f; "
                             "done 2>&1 | sha256sum"},
        notes="XML parser/serializer (big: ~100 k lines of C); configure + its runtest program (the regression "
              "suites: XML, HTML, SAX, XPath, schemas, ...; its thread test fails under gcc too: Debian's dfsg tarball has "
              "no test/threads/)"),]


# --------------------------------------------------------------------------------------------------------------
# Fetching
# --------------------------------------------------------------------------------------------------------------

def deb_src_configured() -> bool:
    """True when some apt source list has a deb-src entry."""
    files = glob.glob("/etc/apt/sources.list") + glob.glob("/etc/apt/sources.list.d/*")
    for f in files:
        try:
            text = Path(f).read_text()
        except OSError:
            continue
        if re.search(r"^\s*deb-src\s", text, re.M) or re.search(r"^Types:.*\bdeb-src\b", text, re.M):
            return True
    return False


DEB_SRC_HELP = """apt has no deb-src source: `apt-get source` cannot fetch Debian source packages. Add one, e.g.:
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \\
        > /etc/apt/sources.list.d/debian-src.sources
    apt-get update
(or, with a one-line sources.list, copy its `deb ...` lines as `deb-src ...`)."""


def fetch(recipe: Recipe, cache: Path) -> tuple[Path, str]:
    """Download the project's sources into cache/NAME once; return (the upstream tarball, version)."""
    kind, _, what = recipe.source.partition(":")
    d = cache / recipe.name
    d.mkdir(parents=True, exist_ok=True)
    if kind == "deb":
        if not list(d.glob("*.dsc")):
            run(f"apt-get source --download-only {what}", d, 600, check=True)
        dsc = next(d.glob("*.dsc"))
        m = re.search(r"^Version:\s*(\S+)", dsc.read_text(), re.M)
        version = m.group(1) if m else "?"
        tars = [p for p in d.iterdir() if ".orig.tar." in p.name and not p.name.endswith(".asc")
                and not re.search(r"\.orig-[^.]+\.tar", p.name)]
        if not tars:  # a native package: its one tarball
            tars = [p for p in d.iterdir() if re.search(r"\.tar\.(gz|xz|bz2)$", p.name)]
        return tars[0], version
    if kind == "pypi":
        if not [p for p in d.iterdir() if p.suffix in (".gz", ".zip", ".bz2", ".xz")]:
            run(f"{sys.executable} -m pip download --no-deps --no-binary :all: -d . '{what}'", d, 600, check=True)
        sdist = next(p for p in d.iterdir() if p.suffix in (".gz", ".zip", ".bz2", ".xz"))
        return sdist, what.partition("==")[2] or "?"
    raise ValueError(f"unknown source kind {recipe.source!r}")


def unpack(archive: Path, dest: Path) -> Path:
    """Unpack a tarball or zip into dest (emptied first); return the top directory of the sources."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            z.extractall(dest)
    else:
        with tarfile.open(archive) as t:
            t.extractall(dest)
    entries = [p for p in dest.iterdir()]
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else dest


# --------------------------------------------------------------------------------------------------------------
# Building and running
# --------------------------------------------------------------------------------------------------------------

WRAPPER = """#!/bin/sh
# counting wrapper written by polygeist-py's realworld.py: logs each C file compiled and the exit status
"{real}" {extra}"$@"
rc=$?
for a in "$@"; do
  case "$a" in
    *.c) case "$a" in /*) p="$a";; *) p="$PWD/$a";; esac
         echo "$rc $p" >> "{log}";;
  esac
done
exit $rc
"""


def make_wrapper(real: str, name: str, where: Path, extra: str = "") -> tuple[Path, Path]:
    """Create where/NAME, a shell wrapper around the real compiler that appends '<rc> <path.c>' lines to a log;
    named like the compiler so that build scripts that test the name ('*gcc*') treat it alike. `extra`: flags
    (shell words) put before every command's own, for both compilers (`-march=native`)."""
    where.mkdir(parents=True, exist_ok=True)
    log = where / "compiled.log"
    log.write_text("")
    w = where / name
    w.write_text(WRAPPER.format(real=real, log=log, extra=" ".join(shlex.quote(f) for f in shlex.split(extra))
                                + " " if extra else ""))
    w.chmod(0o755)
    return w, log


def compiled_files(log: Path, src: Path) -> tuple[int, int, list[str]]:
    """From the wrapper's log: (files compiled ok, files attempted, files that failed), one count per source
    file of the project (configure's and cmake's probe programs left out)."""
    status: dict[str, int] = {}
    for line in log.read_text().splitlines():
        rc, _, path = line.partition(" ")
        path = os.path.normpath(path)
        if re.search(r"conftest|CMakeFiles/|CMakeScratch|CompilerId|TryCompile|/tmp/tmp", path):
            continue
        if not path.startswith(str(src)):
            continue
        rel = os.path.relpath(path, src)
        status[rel] = min(status.get(rel, 1 << 30), int(rc))  # compiled once ok counts as ok
    ok = sorted(p for p, rc in status.items() if rc == 0)
    bad = sorted(p for p, rc in status.items() if rc != 0)
    return len(ok), len(status), bad


def run(cmd: str, cwd: Path, timeout: float, env: dict | None = None, check: bool = False):
    """Run a shell command; return (exit status, combined stdout+stderr, seconds). A timeout gives status 124."""
    t0 = time.time()
    try:
        p = subprocess.run(cmd, shell=True, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, stdin=subprocess.DEVNULL)
        rc, out = p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        rc, out = 124, (e.stdout or b"").decode("utf-8", "replace") + f"\n[timeout after {timeout}s]"
    if check and rc != 0:
        raise RuntimeError(f"`{cmd}` failed ({rc}):\n{out[-2000:]}")
    return rc, out, time.time() - t0


def run_stdout(cmd: str, cwd: Path, timeout: float, env: dict) -> tuple[int, str]:
    """Run an output check: (exit status, stdout) with stderr dropped (it may carry timings)."""
    try:
        p = subprocess.run(cmd, shell=True, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           timeout=timeout, stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return 124, "[timeout]"


def first_error(text: str) -> str:
    """The first compiler error of a build log: a 'file:line:col: error: ...' line if there is one, else the
    first line naming an error, an internal error, a traceback or a crash."""
    m = re.search(r"^\S+:\d+:\d+: (fatal )?error:.*$", text, re.M)
    if not m:
        m = re.search(r"^.*\b(error|internal|Traceback|Segmentation fault|undefined reference)\b.*$", text,
                      re.M | re.I)
    return m.group(0).strip() if m else ""


def first_test_failure(text: str) -> str:
    """The first line of a test log that reports a failure: a TAP 'not ok' line if there is one (libuv's passing
    'ok 27 - dlerror' names an error), else the first line naming a failure."""
    m = re.search(r"^not ok .*$", text, re.M) or re.search(
        r"^.*(FAIL|[Ff]ailed|differ|Error|error|Assertion|Segmentation|timeout).*$", text, re.M)
    return m.group(0).strip() if m else ""


def make_inputs(d: Path) -> Path:
    """Generate the input files that output checks compress / hash: random bytes, English-like text,
    a run of zeros, a structured binary file, a 1-byte and an empty file. Deterministic (seeded)."""
    d.mkdir(parents=True, exist_ok=True)
    rng = random.Random(18)
    (d / "random.bin").write_bytes(bytes(rng.getrandbits(8) for _ in range(200_000)))
    words = ["the", "compiler", "lowers", "each", "loop", "into", "affine", "form", "and", "then", "to", "LLVM",
             "pointer", "struct", "union", "switch", "goto", "label", "zlib", "lua", "42", "3.14", "\n"]
    (d / "text.txt").write_text(" ".join(rng.choice(words) for _ in range(120_000)))
    (d / "zeros.bin").write_bytes(bytes(150_000))
    (d / "ramp.bin").write_bytes(b"".join(i.to_bytes(4, "little") for i in range(0, 300_000, 3)))
    (d / "one.bin").write_bytes(b"x")
    (d / "empty.bin").write_bytes(b"")
    return d


@dataclasses.dataclass
class Side:
    """The result of one build (gcc or pgcc) of one project."""
    compiler: str
    build_ok: bool = False
    build_seconds: float = 0.0
    files_ok: int = 0
    files_total: int = 0
    files_failed: list = dataclasses.field(default_factory=list)
    build_error: str = ""
    tests_rc: int | None = None
    tests_counts: tuple | None = None
    test_error: str = ""
    checks: dict = dataclasses.field(default_factory=dict)  # name -> [rc, sha256, first 300 chars]

    def tests_text(self) -> str:
        """'p/t', 'ok', 'FAIL' (or 'p/t FAIL'), or '-' when the build failed."""
        if self.tests_rc is None:
            return "-"
        verdict = "" if self.tests_rc == 0 else " FAIL"
        if self.tests_counts:
            return f"{self.tests_counts[0]}/{self.tests_counts[1]}{verdict}"
        return "ok" if self.tests_rc == 0 else "FAIL"


def build_and_test(recipe: Recipe, archive: Path, compiler: str, real_cc: str, work: Path, inputs: Path,
                   jobs: int, log_dir: Path, extra: str = "") -> Side:
    """Unpack a fresh tree, build it with the wrapped compiler (`extra`: flags it adds to every compile and
    link), run its tests and output checks."""
    side = Side(compiler)
    root = work / f"{recipe.name}-{compiler}"
    shutil.rmtree(root, ignore_errors=True)
    for old in log_dir.glob(f"{recipe.name}-{compiler}-*"):
        old.unlink()
    src = unpack(archive, root / "src")
    scratch = root / "scratch"
    scratch.mkdir()
    wrapper, log = make_wrapper(real_cc, compiler, root / "bin", extra)
    ctx = Ctx(cc=str(wrapper), cflags=CFLAGS, jobs=jobs, inputs=str(inputs), work=str(scratch), compiler=compiler)
    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)
    env["PATH"] = os.pathsep.join([str(Path(real_cc).parent), env.get("PATH", "")])
    env["CC"] = str(wrapper)
    env["CFLAGS"] = CFLAGS
    if recipe.setup:
        recipe.setup(src, ctx)
    blog = []
    t0 = time.time()
    rc = 0
    for cmd in recipe.commands("build", ctx):
        rc, out, _ = run(cmd, src, max(60, BUILD_TIMEOUT - (time.time() - t0)), env)
        blog.append(f"$ {cmd}\n{out}\n[exit {rc}]\n")
        if rc != 0:
            break
    side.build_seconds = time.time() - t0
    side.build_ok = rc == 0
    (log_dir / f"{recipe.name}-{compiler}-build.log").write_text("".join(blog))
    side.files_ok, side.files_total, side.files_failed = compiled_files(log, src)
    if not side.build_ok and rc == 124:  # (configure's 'checking ... -Wno-error' is no error: name the timeout)
        side.build_error = f"timeout after {BUILD_TIMEOUT} s in `{cmd}`"
    elif not side.build_ok:
        side.build_error = first_error("".join(blog)) or blog[-1].strip().splitlines()[-1]
        return side
    tlog, trc = [], 0
    t0 = time.time()
    for cmd in recipe.commands("test", ctx):
        rc, out, _ = run(cmd, src, max(60, TEST_TIMEOUT - (time.time() - t0)), env)
        tlog.append(f"$ {cmd}\n{out}\n[exit {rc}]\n")
        trc = trc or rc
    text = "".join(tlog)
    (log_dir / f"{recipe.name}-{compiler}-test.log").write_text(text)
    side.tests_rc = trc
    side.tests_counts = recipe.test_counts(text, trc)
    if trc != 0 or (side.tests_counts and side.tests_counts[0] != side.tests_counts[1]):
        side.tests_rc = trc or 1
        side.test_error = first_test_failure(text)
    for name, cmd in recipe.checks.items():
        crc, out = run_stdout(ctx.fmt(cmd), src, CHECK_TIMEOUT, env)
        side.checks[name] = [crc, hashlib.sha256(out.encode()).hexdigest(), out[:300]]
        (log_dir / f"{recipe.name}-{compiler}-check-{re.sub(r'[^A-Za-z0-9]+', '_', name)}.out").write_text(
            f"[exit {crc}]\n{out}")
    return side


def same_output(gcc: Side | None, pg: Side | None) -> tuple[str, list[str]]:
    """Compare the two builds: test verdicts and every output check. Returns ('yes'/'NO'/'-', differences)."""
    if not gcc or not pg or not gcc.build_ok or not pg.build_ok:
        return "-", []
    diffs = []
    if gcc.tests_text() != pg.tests_text():
        diffs.append(f"tests: gcc {gcc.tests_text()} vs pgcc {pg.tests_text()}")
    for name, (rc, h, head) in gcc.checks.items():
        prc, ph, phead = pg.checks.get(name, [None, None, ""])
        if (rc, h) != (prc, ph):
            diffs.append(f"check '{name}': gcc exit {rc}, pgcc exit {prc}; outputs "
                         f"{'equal' if h == ph else 'differ'}")
    n = len(gcc.checks)
    return ("yes" if not diffs else "NO") + (f" ({n} checks)" if n else ""), diffs


def print_table(rows: list[dict]) -> None:
    """Print the results table and, below it, failures and differences."""
    head = ["project", "version", "pgcc files", "build", "tests pgcc", "tests gcc", "same output",
            "s pgcc/gcc"]
    table = []
    for r in rows:
        g, p = r.get("gcc"), r.get("pgcc")
        files = f"{p['files_ok']}/{p['files_total']}" if p else "-"
        build = ("ok" if p["build_ok"] else "FAIL") if p else ("gcc " + ("ok" if g and g["build_ok"] else "FAIL"))
        secs = (f"{p['build_seconds']:.0f}" if p else "-") + "/" + (f"{g['build_seconds']:.0f}" if g else "-")
        table.append([r["project"], r["version"], files, build, r.get("tests_pgcc", "-"), r.get("tests_gcc", "-"),
                      r.get("same", "-"), secs])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *table)]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    print(line(head))
    print(line(["-" * w for w in widths]))
    for t in table:
        print(line(t))
    print()
    for r in rows:
        msgs = []
        if r.get("notes"):
            msgs.append("note: " + r["notes"])
        for comp in ("gcc", "pgcc"):
            s = r.get(comp)
            if not s:
                continue
            if not s["build_ok"]:
                msgs.append(f"{comp} build failed: {s['build_error']}")
                if s["files_failed"]:
                    msgs.append(f"{comp} files that failed to compile ({len(s['files_failed'])}): "
                                + " ".join(s["files_failed"][:12]))
            elif s["test_error"] or (s["tests_rc"] not in (0, None)):
                msgs.append(f"{comp} tests failed: {s['test_error']}")
        for d in r.get("diffs", []):
            msgs.append("differs from gcc: " + d)
        if msgs:
            print(f"{r['project']}:")
            for m in msgs:
                print("  " + m)


def find_pgcc(explicit: str | None) -> str | None:
    """pgcc from --pgcc, else next to this Python (the virtualenv's bin), else the repository's .venv, else PATH."""
    for cand in (explicit, str(Path(sys.executable).parent / "pgcc"),
                 str(Path(__file__).resolve().parent.parent / ".venv" / "bin" / "pgcc"), shutil.which("pgcc")):
        if cand and os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    return None


def main(argv=None) -> int:
    """Parse options, fetch, build and test every selected project, print (and optionally save) the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated project names (default: all: "
                    + ",".join(r.name for r in RECIPES) + ")")
    ap.add_argument("--compilers", default="gcc,pgcc", help="which builds to make (default gcc,pgcc)")
    ap.add_argument("--jobs", type=int, default=2, help="make -j N (default 2)")
    ap.add_argument("--keep", action="store_true", help="keep the build trees (under --work/build)")
    ap.add_argument("--json", help="also write the results to this JSON file")
    ap.add_argument("--work", default="/tmp/realworld", help="work directory (default /tmp/realworld)")
    ap.add_argument("--pgcc", help="the pgcc executable (default: found next to this Python or on PATH)")
    ap.add_argument("--list", action="store_true", help="list the projects and exit")
    ap.add_argument("--flags", default="", help="compiler flags added to every compile of both compilers, "
                    "before the build's own (e.g. '-march=native')")
    a = ap.parse_args(argv)
    if a.list:
        for r in RECIPES:
            print(f"{r.name:12} {r.source:18} {r.notes}")
        return 0
    recipes = RECIPES
    if a.only:
        names = a.only.split(",")
        unknown = set(names) - {r.name for r in RECIPES}
        if unknown:
            print(f"unknown project(s): {', '.join(sorted(unknown))}; known: {', '.join(r.name for r in RECIPES)}")
            return 2
        recipes = [r for r in RECIPES if r.name in names]
    compilers = a.compilers.split(",")
    real = {"gcc": shutil.which("gcc")}
    if "pgcc" in compilers:
        real["pgcc"] = find_pgcc(a.pgcc)
        if not real["pgcc"]:
            print("pgcc not found: pip install the project (e.g. into .venv) or pass --pgcc PATH")
            return 2
    if any(r.source.startswith("deb:") for r in recipes):
        if not deb_src_configured():
            print(DEB_SRC_HELP)
            return 2
    work = Path(a.work)
    cache, builds, logs = work / "src", work / "build", work / "logs"
    for d in (cache, builds, logs):
        d.mkdir(parents=True, exist_ok=True)
    inputs = make_inputs(work / "inputs")
    rows = []
    for recipe in recipes:
        print(f"== {recipe.name}", file=sys.stderr, flush=True)
        row = {"project": recipe.name, "version": "?", "notes": recipe.notes}
        try:
            archive, row["version"] = fetch(recipe, cache)
        except Exception as e:  # noqa: BLE001 - a fetch failure is a row of the table
            row["notes"] = f"fetch failed: {e}"
            rows.append(row)
            continue
        for comp in compilers:
            side = build_and_test(recipe, archive, comp, real[comp], builds, inputs, a.jobs, logs, a.flags)
            row[comp] = dataclasses.asdict(side)
            row[f"tests_{comp}"] = side.tests_text()
            print(f"   {comp}: build {'ok' if side.build_ok else 'FAIL'} {side.build_seconds:.0f}s, "
                  f"files {side.files_ok}/{side.files_total}, tests {side.tests_text()}", file=sys.stderr,
                  flush=True)
            if not a.keep:
                shutil.rmtree(builds / f"{recipe.name}-{comp}", ignore_errors=True)
            row.setdefault("_sides", {})[comp] = side
        sides = row.pop("_sides", {})
        row["same"], row["diffs"] = same_output(sides.get("gcc"), sides.get("pgcc"))
        rows.append(row)
    print()
    print_table(rows)
    print(f"\nlogs: {logs}")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
