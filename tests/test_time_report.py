"""Issue 23: `--time-report` (as clang's -ftime-report) prints the wall and CPU time of every stage on stderr."""

import re
import time

from conftest import PROGRAMS, ROOT, run_exe, run_pgcc

from polygeist_py import time_report

ROW = re.compile(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+([0-9.]+) \(\s*[0-9.]+%\)\s+([0-9.]+)\s+(\d*)\s+(\S.*)$")


def rows(stderr: str) -> dict:
    """name -> (wall, cpu, subprocess cpu) of the report's rows (group headers end in ':')."""
    out = {}
    for line in stderr.splitlines():
        m = ROW.match(line)
        if m:
            out[m.group(5).strip()] = tuple(float(m.group(k)) for k in (1, 2, 3))
    return out


def leaves(table: dict) -> dict:
    return {n: v for n, v in table.items() if not n.endswith(":") and n != "Total"}


def test_report_names_the_stages_and_adds_up(tmp):
    src = PROGRAMS / "polybench" / "gemm.c"
    r = run_pgcc(["-O3", src, "-o", tmp / "g", "--time-report"])
    assert r.returncode == 0, r.stderr
    table = rows(r.stderr)
    for stage in ("startup (Python, driver imports)", "imports (MLIR)", "parse (libclang)", "walk / codegen",
                  "cleanup", "SCoPs, isl scheduling, codegen", "imports (polyhedral: isl)",
                  "lowering to the LLVM dialect", "LLVM IR translation", "opt", "llc", "link (cc)", "Total"):
        assert stage in table, (stage, r.stderr)
    total = table["Total"]
    parts = leaves(table)
    # own times: the rows add up to the total (each printed to 0.1 ms)
    assert abs(sum(v[0] for v in parts.values()) - total[0]) < 1e-3 * len(parts) + 1e-3
    assert abs(sum(v[1] for v in parts.values()) - total[1]) < 1e-3 * len(parts) + 1e-3
    assert all(v[0] >= 0 and v[1] >= 0 for v in parts.values())
    # the subprocesses' CPU is theirs, not pgcc's
    assert table["opt"][2] > 0 and table["llc"][2] > 0
    assert run_exe(tmp / "g").returncode == 0


def test_cpuify_stage_and_host_compiler_are_reported(tmp):
    r = run_pgcc(["--cpuify", "-c", ROOT / "examples/cuda/vector_add.cu", "-o", tmp / "v.o", "-ftime-report"])
    assert r.returncode == 0, r.stderr
    table = rows(r.stderr)
    assert "cpuify" in table and "host C++ compiler (c++)" in table and "cleanup after cpuify" in table
    assert "imports (polyhedral: isl)" not in table  # -O2: no polyhedral stage


def test_no_report_without_the_flag_and_none_for_isl_without_loops(tmp):
    (tmp / "e.c").write_text("int main(void) { return 0; }\n")
    r = run_pgcc(["-O3", tmp / "e.c", "-o", tmp / "e"])
    assert r.returncode == 0 and r.stderr == ""
    r = run_pgcc(["-O3", tmp / "e.c", "-o", tmp / "e", "--time-report"])
    table = rows(r.stderr)
    assert "Total" in table and "imports (polyhedral: isl)" not in table and "automatic differentiation" not in table


def test_nested_phases_are_charged_their_own_time():
    report = time_report.TimeReport()
    with report.phase("outer", "g"):
        time.sleep(0.02)
        with report.phase("inner", "g"):
            time.sleep(0.05)
    outer, inner = report.rows["outer"], report.rows["inner"]
    assert 0.045 < inner[1] < 0.5
    assert 0.015 < outer[1] < 0.045  # without the inner phase's 50 ms
    assert "outer" in report.render() and "Total" in report.render()


def test_phase_is_a_no_op_without_a_report():
    assert time_report._current is None
    with time_report.phase("x"):
        pass
    assert time_report._current is None


def test_a_c_compile_does_not_import_numpy_and_mlir_builders_still_work(tmp):
    """pgcc imports the MLIR bindings without numpy (driver.import_mlir: 0.06-0.1 s of start-up); the four
    attribute builders that mlir.ir registers with numpy are registered lazily and build the same attributes."""
    import subprocess
    import sys
    (tmp / "e.c").write_text("int main(void) { return 0; }\n")
    code = (
        "import sys\n"
        "from polygeist_py import driver\n"
        f"assert driver.run(['-O2', '-c', {str(tmp / 'e.c')!r}, '-o', {str(tmp / 'e.o')!r}]) == 0\n"
        "print('numpy' in sys.modules)\n"
        "from mlir import ir\n"
        "with ir.Context() as ctx:\n"
        "    for kind in ('F64ElementsAttr', 'I32ElementsAttr', 'I64ElementsAttr', 'IndexElementsAttr'):\n"
        "        print(ir.AttrBuilder.get(kind)([1, 2], ctx))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "False"
    assert lines[1:] == ["dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf64>", "dense<[1, 2]> : tensor<2xi32>",
                         "dense<[1, 2]> : tensor<2xi64>", "dense<[1, 2]> : tensor<2xindex>"]
