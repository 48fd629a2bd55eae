"""While loops whose control depends on constants only become counted loops before AD (ad/counted_loops.py):
the simulated trip count, C's integer semantics in the simulation, and loops that must stay while loops."""

import pytest
from mlir import ir

from polygeist_py.ad.counted_loops import constant_trip_count, count_constant_while_loops

LOOP = """
func.func @f(%n: i32, %x: f64) -> f64 {{
  %init = arith.constant {init} : i32
  %r:2 = scf.while (%s = %init, %acc = %x) : (i32, f64) -> (i32, f64) {{
    %z = arith.constant {bound} : i32
    %c = arith.cmpi {pred}, %s, {rhs} : i32
    scf.condition(%c) %s, %acc : i32, f64
  }} do {{
  ^bb0(%s: i32, %acc: f64):
    %k = arith.constant {k} : i32
    %s2 = arith.{step} %s, %k : i32
    %acc2 = arith.mulf %acc, %acc : f64
    scf.yield %s2, %acc2 : i32, f64
  }}
  return %r#1 : f64
}}
"""


def loop(**kw):
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = False
    with ctx, ir.Location.unknown():
        m = ir.Module.parse(LOOP.format(**{"rhs": "%z", **kw}))
        w = [op for op in m.body.operations[0].regions[0].blocks[0].operations if op.name == "scf.while"][0]
        return ctx, m, w


@pytest.mark.parametrize("init,pred,bound,step,k,trips", [
    (128, "sgt", 0, "shrsi", 1, 8),     # for (s = 128; s > 0; s >>= 1)
    (1, "slt", 256, "muli", 2, 8),      # for (s = 1; s < 256; s *= 2)
    (100, "sgt", 0, "divsi", 3, 5),     # 100, 33, 11, 3, 1
    (-7, "slt", 0, "divsi", 2, 3),      # -7, -3, -1, 0: C division truncates toward zero
    (-6, "ugt", 100, "addi", 2, 3),     # unsigned: 2^32-6, 2^32-4, 2^32-2 > 100, then wraps to 0
    (5, "sgt", 10, "addi", 1, 0),       # the condition is false at once
])
def test_trip_counts(init, pred, bound, step, k, trips):
    ctx, m, w = loop(init=init, pred=pred, bound=bound, step=step, k=k)
    with ctx:
        assert constant_trip_count(w) == trips


def test_rewrite_keeps_the_carried_values():
    ctx, m, w = loop(init=64, pred="sgt", bound=0, step="shrsi", k=1)
    with ctx:
        assert count_constant_while_loops(m.body.operations[0]) == 1
        text = str(m)
        assert "scf.while" not in text and "scf.for" in text and "arith.constant 7 : index" in text
        assert m.operation.verify()


def test_loops_that_depend_on_arguments_or_never_end_stay_while_loops():
    ctx, m, w = loop(init=1, pred="slt", bound=0, step="muli", k=2, rhs="%n")
    with ctx:
        assert constant_trip_count(w) is None  # the bound is an argument
    ctx, m, w = loop(init=1, pred="sgt", bound=0, step="addi", k=0)
    with ctx:
        assert constant_trip_count(w) is None  # 1 > 0 forever: more than MAX_TRIPS
