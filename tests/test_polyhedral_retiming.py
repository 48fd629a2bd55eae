"""Retiming (affine/retiming.py): a floating-point reduction chain is shifted by one iteration of its outer loop
and fused with the loop before it that produces what it reads; the order is only used when it is legal, and the
output stays bit-exact."""

import json
import re

import islpy as isl

from conftest import PROGRAMS, assert_output_like_gcc, run_pgcc
from polygeist_py.affine import experiments, legality, retiming

# A Levinson-style recursion: the inner product of step k + 1 reads the vector that step k's copy loop writes.
RECURSION = """
#include <stdio.h>
#ifndef LEN
#define LEN 300
#endif
static double coef[LEN], vec[LEN], tmp[LEN];

static void recurse(int n)
{
  double refl, scale, dot;
  vec[0] = -coef[0];
  scale = 1.0;
  refl = -coef[0];
  for (int k = 1; k < n; k++) {
    scale = (1.0 - refl * refl) * scale;
    dot = 0.0;
    for (int i = 0; i < k; i++)
      dot += coef[k - i - 1] * vec[i];
    refl = -(coef[k] + dot) / scale;
    for (int i = 0; i < k; i++)
      tmp[i] = vec[i] + refl * vec[k - i - 1];
    for (int i = 0; i < k; i++)
      vec[i] = tmp[i];
    vec[k] = refl;
  }
}

int main(void)
{
  for (int i = 0; i < LEN; i++)
    coef[i] = 1.0 / (double)(i + 3);
  recurse(LEN);
  for (int i = 0; i < LEN; i++)
    printf("%.17g\\n", vec[i]);
  return 0;
}
"""


def _write(tmp, text, name="rec.c"):
    src = tmp / name
    src.write_text(text)
    return src


def _scop(tmp, text):
    r = run_pgcc([_write(tmp, text), "-O3", "--emit=scop", "-o", "-"])
    assert r.returncode == 0, r.stderr
    return next(s for s in json.loads(r.stdout)["scops"] if s["function"] == "recurse")


def _line(text):
    """The source line number of RECURSION's line that contains `text`."""
    return next(n for n, line in enumerate(RECURSION.splitlines(), 1) if text in line)


def _statement(scop, line):
    """The name of the statement of `scop` written on source line `line`."""
    return next(st["name"] for st in scop["statements"] if f":{line}:" in st["location"])


def test_inner_product_is_shifted_and_fused_with_the_copy(tmp):
    scop = _scop(tmp, RECURSION)
    assert "shifted by one iteration" in (scop.get("reason") or ""), scop.get("reason")
    copy = _statement(scop, _line("vec[i] = tmp[i]"))
    # (the product accumulates in a demoted cell: its statement is the two-loop one whose element stays put)
    dot = next(st["name"] for st in scop["statements"]
               if "i1" in st["domain"] and re.search(r"-> A\d+\[i0\]", st["writes"]))
    schedule = isl.UnionMap(scop["schedule"])
    params = "[" + ", ".join(scop["parameters"]) + "]"
    # the product of step k runs at outer time k - 1, in the same inner loop as the copy of step k - 1, after it
    for place in range(12):
        fused = isl.UnionMap(f"{params} -> {{ {dot}[k, i] -> [b, k - 1, {place}, i, 1]; "
                             f"{copy}[k, i] -> [b, k, {place}, i, 0] }}")
        pair = schedule.intersect_domain(isl.UnionSet(f"{params} -> {{ {dot}[k, i]; {copy}[k, i] }}"))
        if pair.is_subset(fused):
            return
    raise AssertionError(scop["schedule"])


def test_retimed_program_prints_what_gcc_prints(tmp):
    assert_output_like_gcc(_write(tmp, RECURSION), tmp, ([], ["--no-parallel"]), threads=(1, 2))


def test_retimed_code_keeps_the_sum_in_a_register(tmp):
    r = run_pgcc([_write(tmp, RECURSION), "-O3", "--emit=polyhedral", "-o", "-"])
    assert r.returncode == 0, r.stderr
    text = r.stdout[r.stdout.index("@recurse"):]
    text = text[:text.index("func.func", 10)] if "func.func" in text[10:] else text
    # the fused loop: the copy's store and the product's multiply-add on a loop-carried value
    fused = [block for block in text.split("affine.for")[1:] if "iter_args" in block.split("\n")[0]]
    assert any("affine.store" in b.split("affine.yield")[0] and "arith.addf" in b.split("affine.yield")[0]
               for b in fused), text


def test_integer_reduction_is_not_retimed(tmp):
    text = (RECURSION.replace("double coef", "long coef").replace("double refl, scale, dot", "long refl, scale, dot")
            .replace("1.0 / (double)(i + 3)", "i % 7 + 1").replace("(1.0 - refl * refl) * scale", "scale + 1")
            .replace("-(coef[k] + dot) / scale", "(coef[k] + dot) % 5").replace("%.17g", "%ld"))
    assert "long coef" in text and "% 5" in text
    scop = _scop(tmp, text)
    assert "shifted" not in (scop.get("reason") or "")


def test_fusion_that_would_read_too_early_is_refused(tmp):
    # the product of step k + 1 also reads vec[i + 1], which the copy of step k writes one iteration later
    text = RECURSION.replace("dot += coef[k - i - 1] * vec[i];", "dot += coef[k - i - 1] * vec[i] + vec[i + 1];")
    assert "vec[i + 1]" in text
    view = experiments.load(str(_write(tmp, text))).scop("recurse.scop0")
    assert retiming.retimed_schedule(view.model, view.deps) is None
    # ... while the recursion itself gets a legal retimed schedule
    view = experiments.load(str(_write(tmp, RECURSION, "ok.c"))).scop("recurse.scop0")
    schedule = retiming.retimed_schedule(view.model, view.deps)
    assert schedule is not None and not legality.violations(view.model, view.deps, schedule)
    assert_output_like_gcc(tmp / "rec.c", tmp, threads=(2,))


def test_promoted_top_level_loop_is_not_walked_again(tmp):
    """Register promotion replaces the loops it promotes in, the generated nest's top-level loop among them; the
    unroll-and-jam after it walked the replaced loop (a segmentation fault of pgcc -O3 on a value-and-tangent
    pair of dot products, found by benchmarks/fuzz_ad.py's forward-mode programs)."""
    assert_output_like_gcc(PROGRAMS / "c" / "blended_dot_products.c", tmp, ([], ["--no-parallel"]), threads=(1, 2))
