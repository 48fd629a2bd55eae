"""Issue 23 item (a driver that explains itself): `pgcc --help` names every option the driver accepts, and `-v`
prints the version and toolchain (alone: and stops, as gcc -v does; with inputs: and compiles them)."""

import re

import pytest

from conftest import compile_error, run_exe, run_pgcc

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


def test_help_lists_every_accepted_option_one_per_line():
    text = run_pgcc(["--help"]).stdout
    source = open(driver.__file__).read()
    parse = source[source.index("def parse_args"):source.index("def _language")]
    # every option parse_args names (`a == "-x"`, startswith, `in (...)`), and the driver's option tables
    named = set(re.findall(r'"(--?[a-zA-Z#][a-zA-Z0-9_#+-]*=?)"', parse))
    for table in (driver.CLANG_VALUE_FLAGS, driver.IGNORED_VALUE_FLAGS, driver.CLANG_F, driver.REJECTED_F,
                  driver.REJECTED_F_PREFIXES, driver.NVCC_IGNORED, driver.NVCC_IGNORED_VALUE, driver.LINKER_QUERIES,
                  tuple(driver.UNSUPPORTED)):
        named |= set(table)
    # prefixes of option families, listed by their spelled-out members (-Wall, -print-file-name=F...)
    families = {"-", "-f", "-m", "-g", "-W", "-O", "-R", "-Rpass", "-Rpass-missed", "-Rpass-analysis", "-Wimplicit",
                "-Wno-implicit", "-D_REENTRANT", "-x", "-I", "-D", "-U", "-L", "-l"}
    rejected = set(driver.UNSUPPORTED)  # -E -M -MM -emit-llvm: errors that name the alternative
    words = set(re.findall(r"(?<![\w-])(--?[a-zA-Z#][a-zA-Z0-9_#+-]*=?)", text))
    missing = sorted(o for o in named - families - rejected  # (-rdc=true|false: "-rdc=" is enough)
                     if not {o, o.rstrip("="), o + "=", o.split("=")[0], o.split("=")[0] + "="} & words)
    assert not missing, missing
    for flag in ("-v", "-###", "--time-report", "--cache", "--no-cache", "-Rpass=REGEX", "-fopt-info"):
        lines = [ln for ln in text.splitlines() if re.match(rf"\s+{re.escape(flag)}(?=[\s\[]|$)", ln)]
        assert len(lines) == 1, (flag, lines)  # its own line, at the start


def commands(stderr: str) -> list:
    """The external commands of -v (shell words) or -### (quoted) output, as argument lists with the temporary
    directory replaced by TMP (a command is a space and the tool's absolute path; diagnostics' source lines also
    start with spaces)."""
    import shlex
    return [[re.sub(r"/pgcc-[^/]+/", "/TMP/", w) for w in shlex.split(line)]
            for line in stderr.splitlines() if line.startswith((" /", ' "/'))]


def test_v_lists_stages_and_the_commands_it_runs_and_dash_hash_lists_them_without_running(tmp):
    src = tmp / "p.c"
    src.write_text("#include <stdio.h>\n"
                   "int main(void) { double s = 0; for (int i = 1; i <= 10; i++) s += 1.0 / i;\n"
                   "  printf(\"%.6f\\n\", s); return 0; }\n")
    r = run_pgcc(["-v", "-O2", src, "-o", tmp / "p"])
    assert r.returncode == 0, r.stderr
    stages = [ln for ln in r.stderr.splitlines() if ln.startswith("pgcc: stage: ")]
    assert stages[0] == "pgcc: stage: frontend: parse (libclang)" and \
        "pgcc: stage: back end: LLVM IR translation" in stages
    ran = commands(r.stderr)
    tools = [c[0].rsplit("/", 1)[-1] for c in ran]
    assert tools[-3:] == ["opt", "llc", "cc"] and "-O2" in ran[-3] and str(tmp / "p") in ran[-1]
    assert run_exe(tmp / "p").stdout == build_and_run_gcc(src, tmp)
    (tmp / "p").unlink()
    dry = run_pgcc(["-###", "-O2", src, "-o", tmp / "p"])
    assert dry.returncode == 0, dry.stderr
    assert not (tmp / "p").exists()  # nothing ran
    assert all(ln.startswith(' "') for ln in dry.stderr.splitlines() if ln.startswith(" "))  # gcc's quoting
    assert commands(dry.stderr) == ran[-3:]  # the runtime library may be built once by the first -v run


@pytest.mark.parametrize("flags,cpu,attrs", [
    ([], "x86-64", ""),  # gcc's default target: the object runs on any x86-64 machine
    (["-march=native"], "native", ""),
    (["-march=haswell", "-mno-avx2", "-msse4"], "haswell", "-avx2,+sse4.2,"),
])
def test_target_follows_march_and_instruction_set_flags(tmp, flags, cpu, attrs):
    src = tmp / "t.c"
    src.write_text("int main(void) { return 0; }\n")
    dry = run_pgcc(["-###", "-O2", *flags, src, "-o", tmp / "t"])
    assert dry.returncode == 0, dry.stderr
    for tool in commands(dry.stderr)[:2]:  # opt, llc
        assert f"-mcpu={cpu}" in tool and f"-mattr={attrs}+prefer-no-gather,+prefer-no-scatter" in tool, tool


def test_32_bit_targets_and_unknown_cpus_are_errors(tmp):
    err = compile_error(tmp / "m.c", "int main(void) { return 0; }\n", flags=("-m32",))
    assert "-m32 is not supported" in err
    err = compile_error(tmp / "m.c", "int main(void) { return 0; }\n", flags=("-march=pentium9",))
    assert "bad value 'pentium9' for '-march=' switch" in err


def build_and_run_gcc(src, tmp) -> str:
    import subprocess
    subprocess.run(["gcc", "-O2", str(src), "-o", str(tmp / "ref")], check=True)
    return run_exe(tmp / "ref").stdout


def test_dash_hash_shows_nvcc_model_commands_of_a_cu_file(tmp):
    from conftest import ROOT
    src = ROOT / "examples/cuda/vector_add.cu"
    ran = run_pgcc(["-v", "--cpuify", "-c", src, "-o", tmp / "v.o"])
    dry = run_pgcc(["-###", "--cpuify", "-c", src, "-o", tmp / "v2.o"])
    assert ran.returncode == dry.returncode == 0, ran.stderr + dry.stderr
    want = [[w.replace("v.o", "v2.o") for w in c] for c in commands(ran.stderr)]
    assert commands(dry.stderr) == want
    assert [c[0].rsplit("/", 1)[-1] for c in want] == ["opt", "llc", "c++", "cc"]  # device, host, ld -r


def test_progress_line_on_a_terminal_only(tmp):
    import os
    import pty
    import subprocess

    from conftest import PROGRAMS, pgcc_cmd
    src = PROGRAMS / "polybench" / "gemm.c"
    env = dict(os.environ, PGCC_PROGRESS_AFTER="0")
    master, slave = pty.openpty()
    p = subprocess.Popen([*pgcc_cmd(), "-O3", "-c", str(src), "-o", str(tmp / "g.o")], stderr=slave, env=env)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    assert p.wait() == 0
    text = out.decode()
    assert f"\rpgcc: compiling {src}: " in text and text.endswith("\r\x1b[K")  # shown, then erased
    piped = run_pgcc(["-O3", "-c", src, "-o", tmp / "g.o"], env=env)
    assert piped.returncode == 0 and piped.stderr == ""  # not on a pipe
