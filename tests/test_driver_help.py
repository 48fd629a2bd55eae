"""Issue 23 item (a driver that explains itself): `pgcc --help` names every option the driver accepts, and `-v`
prints the version and toolchain (alone: and stops, as gcc -v does; with inputs: and compiles them)."""

import re

from conftest import run_exe, run_pgcc

from polygeist_py import driver


def test_help_names_every_project_option():
    text = run_pgcc(["--help"]).stdout
    source = open(driver.__file__).read()
    # the options parse_args tests by name: `a == "--x"`, `a.startswith("--x=")`, `a in ("--x", ...)`
    accepted = set(re.findall(r'\ba(?: == |\.startswith\()\(?"(--?[a-z][a-z_-]*=?)"', source))
    project = {o for o in accepted if o.startswith("--") and o not in ("--help", "--version")} | {
        "-ffp-contract=", "-fopenmp", "-ccbin", "-Werror"}
    missing = sorted(o for o in project if o.rstrip("=") not in text)
    assert not missing, missing
    for stage in driver.EMIT_STAGES:
        assert stage in text


def test_v_alone_prints_the_version_and_toolchain():
    r = run_pgcc(["-v"])
    assert r.returncode == 0
    assert f"pgcc (polygeist-py) {driver.VERSION}" in r.stderr and "libclang" in r.stderr


def test_v_with_inputs_compiles(tmp):
    (tmp / "a.c").write_text("int main(void) { return 3; }\n")
    r = run_pgcc(["-v", tmp / "a.c", "-o", tmp / "a"])
    assert r.returncode == 0 and "pgcc (polygeist-py)" in r.stderr
    assert run_exe(tmp / "a").returncode == 3


def test_toolchain_queries_are_answered_like_the_linker():
    import subprocess
    for query in ("-print-multi-os-directory", "-dumpmachine", "-print-file-name=libc.so"):
        want = subprocess.run(["cc", query], capture_output=True, text=True)
        got = run_pgcc([query])
        assert got.returncode == want.returncode == 0 and got.stdout == want.stdout and got.stdout.strip()
