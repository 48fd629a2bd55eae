"""Issue 23: remarks in clang's form (-Rpass=, -Rpass-missed=, -Rpass-analysis=; -fopt-info) for the polyhedral
and cpuify stages, at the source location of the loop, launch or barrier."""

import re

import pytest

from conftest import ROOT, run_exe, run_pgcc

GEMM = """#define N 256
double A[N][N], B[N][N], C[N][N];
void gemm(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
}
"""
OTHERS = """void note(int i);
double sum(int n, double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}
void prefix(int n, double *x) {
  for (int i = 1; i < n; i++)
    x[i] = x[i - 1] + x[i];
}
void scatter(int n, double *A, int *idx, double *b) {
  for (int i = 0; i < n; i++)
    A[idx[i]] += b[i];
}
void logged(int n, double *A) {
  for (int i = 0; i < n; i++) {
    A[i] = 2 * A[i];
    note(i);
  }
}
"""
REMARK = re.compile(r"^(\S+):(\d+):(\d+): remark: (.*) \[(-Rpass(?:-missed|-analysis)?)=(\w+)\]$")


def remarks(stderr: str) -> list:
    """(file name, line, message, flag, stage) of each remark line; any other stderr line fails the test."""
    out = []
    for line in stderr.splitlines():
        m = REMARK.match(line)
        assert m, line
        out.append((m.group(1).rsplit("/", 1)[-1], int(m.group(2)), m.group(4), m.group(5), m.group(6)))
    return out


def test_gemm_is_scheduled_parallel_and_tiled(tmp):
    (tmp / "gemm.c").write_text(GEMM)
    r = run_pgcc(["-O3", "-c", tmp / "gemm.c", "-o", tmp / "g.o", "-Rpass=polyhedral"])
    assert r.returncode == 0
    got = remarks(r.stderr)
    assert all(f == "gemm.c" and line == 4 and flag == "-Rpass" and st == "polyhedral"
               for f, line, _, flag, st in got)
    text = [m for _, _, m, _, _ in got]
    assert "SCoP gemm.scop0 modelled and rescheduled" in text
    assert any(m.startswith("loop nest tiled (tile sizes per band: ") and "32" in m for m in text)
    assert any(re.fullmatch(r"\d+ loop\(s\) made parallel \(OpenMP\)", m) for m in text)
    assert not any("not parallelized" in m for m in text)


def test_missed_remarks_say_why(tmp):
    (tmp / "k.c").write_text(OTHERS)
    r = run_pgcc(["-O3", "-c", tmp / "k.c", "-o", tmp / "k.o", "-Rpass-missed=poly"])
    assert r.returncode == 0
    got = {line: m for _, line, m, flag, _ in remarks(r.stderr) if flag == "-Rpass-missed"}
    assert "writes no array" in got[4] and "reduction" in got[4]                   # sum: a scalar reduction
    assert "not an affine function" in got[13] and "A[idx[i]]" in got[13] and "(at line 14, column " in got[13]  # scatter: indirect access
    assert "a call to 'note'" in got[17] and "(at line 19, column" in got[17]
    prefix = [m for _, line, m, _, _ in remarks(r.stderr) if line == 9]
    assert any("not parallelized" in m and "RAW" in m and "S0[i0] -> S0[i0' = 1 + i0]" in m for m in prefix)


def test_kinds_and_stage_filters(tmp):
    (tmp / "gemm.c").write_text(GEMM)
    r = run_pgcc(["-O3", "-c", tmp / "gemm.c", "-o", tmp / "g.o", "-Rpass-analysis=.*"])
    got = remarks(r.stderr)
    assert got and all(flag == "-Rpass-analysis" for *_, flag, _ in got)
    assert "dependences: RAW" in got[0][2]
    r = run_pgcc(["-O3", "-c", tmp / "gemm.c", "-o", tmp / "g.o", "-Rpass=cpuify"])
    assert r.returncode == 0 and r.stderr == ""   # the regex names another stage
    r = run_pgcc(["-O3", "-c", tmp / "gemm.c", "-o", tmp / "g.o", "-fopt-info-loop"])
    assert remarks(r.stderr) and all(flag == "-Rpass" for *_, flag, _ in remarks(r.stderr))
    r = run_pgcc(["-O3", "-c", tmp / "gemm.c", "-o", tmp / "g.o", "-fopt-info-missed"])
    assert r.returncode == 0 and r.stderr == ""   # nothing missed in gemm


def test_cpuify_barrier_split_and_launch(tmp):
    src = ROOT / "examples/cuda/matmul_shared.cu"
    r = run_pgcc(["--cpuify", "-c", src, "-o", tmp / "m.o", "-Rpass=cpuify"])
    assert r.returncode == 0, r.stderr
    got = remarks(r.stderr)
    lines = src.read_text().splitlines()
    barriers = [(line, m) for _, line, m, _, st in got if m.startswith("barrier (__syncthreads) eliminated")]
    assert barriers and all("__syncthreads" in lines[line - 1] for line, _ in barriers)
    assert all("interchanged outward" in m for _, m in barriers)  # both sit in the tile loop
    launches = [line for _, line, m, _, _ in got if m.startswith("kernel launch became")]
    # nvcc's model: the launch is in host code, the remark is at the kernel's code (inside the file)
    assert launches and all(line <= len(lines) for line in launches)


@pytest.mark.parametrize("flag,message", [
    ("-Rpass=(", "invalid regular expression '('"),
    ("-fopt-info-vec", "LLVM's vectorizer"),
    ("-fopt-info=out.txt", "stderr only"),
    ("-fopt-info-bogus", "unknown -fopt-info option 'bogus'"),
])
def test_bad_remark_options_are_errors(tmp, flag, message):
    (tmp / "e.c").write_text("int main(void) { return 0; }\n")
    r = run_pgcc([flag, tmp / "e.c", "-o", tmp / "e"])
    assert r.returncode == 1 and message in r.stderr and r.stderr.startswith("pgcc: error:")
    assert "Traceback" not in r.stderr


def test_unknown_remark_flag_warns(tmp):
    (tmp / "e.c").write_text("int main(void) { return 0; }\n")
    r = run_pgcc(["-Rfoo", tmp / "e.c", "-o", tmp / "e"])
    assert r.returncode == 0 and "warning: unknown remark option '-Rfoo'" in r.stderr


def test_emit_scop_lists_the_loop_nests_it_did_not_model(tmp):
    import json
    (tmp / "k.c").write_text(OTHERS)
    r = run_pgcc(["--emit=scop", tmp / "k.c", "-o", "-"])
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [s["name"] for s in doc["scops"]] == ["prefix.scop0"]
    missed = {int(m["location"].split(":")[-2]): m for m in doc["not_modelled"]}
    assert set(missed) == {4, 13, 17}
    assert "A[idx[i]]" in missed[13]["reason"] and missed[13]["at"].endswith(":14:5")
    assert "call to 'note'" in missed[17]["reason"]


AD_LOSS = """#include <math.h>
#include <stdio.h>

extern void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

#define N 8

/* sum of squared sines; each input is replaced by its sine on the way */
static double loss(double *x) {
    double y = 0.0;
    for (int i = 0; i < N; i++) {
        double s = sin(x[i]);
        x[i] = s;
        y += s * s;
    }
    return y;
}

int main(void) {
    double x[N], x0[N], dx[N] = {0};
    for (int i = 0; i < N; i++) x0[i] = x[i] = 0.25 * i;
    __enzyme_autodiff((void *)loss, enzyme_dup, x, dx);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += fabs(dx[i] - sin(2 * x0[i])) > 1e-12;
    printf("%d\\n", bad);
    return bad;
}
"""


def test_ad_cache_remarks_name_the_cached_value_its_size_and_why(tmp):
    (tmp / "loss.c").write_text(AD_LOSS)
    r = run_pgcc(["-O2", tmp / "loss.c", "-o", tmp / "loss", "-Rpass=ad", "-Rpass-analysis=ad"])
    assert r.returncode == 0, r.stderr
    got = remarks(r.stderr)
    # x[i] is overwritten after it is read: the reverse sweep needs the old value, one per iteration
    line = AD_LOSS.splitlines().index("        double s = sin(x[i]);") + 1
    cached = [(ln, m) for _, ln, m, flag, stage in got if flag == "-Rpass" and stage == "ad"]
    assert cached == [(line, "loss: result of 'memref.load' cached for the reverse sweep in an array of 8 x f64 "
                             "(64 bytes) indexed by 1 loop")], r.stderr
    why = [m for _, ln, m, flag, _ in got if flag == "-Rpass-analysis" and ln == line]
    assert why and "may be overwritten" in why[0]
    assert run_exe(tmp / "loss").stdout == "0\n"  # the derivative is right
    quiet = run_pgcc(["-O2", tmp / "loss.c", "-o", tmp / "loss", "-Rpass=polyhedral"])
    assert quiet.returncode == 0 and quiet.stderr == ""  # other stages' filters do not show AD remarks
