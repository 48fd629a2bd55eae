"""Barrier-free thread loops -> serial loop nests, x innermost (the last step of `--cpuify`).

Guarantees: each ``scf.parallel (tx, ty, tz) {pgcc.threads}`` (after barrier elimination, so its iterations are
independent) becomes ``scf.for tz { scf.for ty { scf.for tx { body } } }``. Consecutive threads touch
consecutive data in CUDA code, so tx innermost gives stride-1 accesses the LLVM loop vectorizer can use; the
block loop around it stays parallel and becomes the OpenMP loop.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import scf

from .ir_nav import collect, loop_bounds
from .launch_to_loops import is_thread_loop


def serialize_thread_loops(module: ir.Module) -> None:
    """Rewrite every thread loop of `module` as serial scf.for loops (in place)."""
    for par in collect(module.operation, is_thread_loop):
        serialize(par)


def serialize(par) -> None:
    lbs, ubs, steps = loop_bounds(par)
    n = len(lbs)
    body = par.regions[0].blocks[0]
    loops = []
    with par.location, ir.InsertionPoint(par):
        ip = ir.InsertionPoint(par)
        for d in reversed(range(n)):  # z outermost, x innermost
            with ip:
                loop = scf.ForOp(lbs[d], ubs[d], steps[d])
                with ir.InsertionPoint(loop.body):
                    scf.YieldOp([])
            loops.append((d, loop))
            ip = ir.InsertionPoint(list(loop.body.operations)[-1])
    innermost = loops[-1][1]
    term = list(innermost.body.operations)[-1]
    for d, loop in loops:
        body.arguments[d].replace_all_uses_with(loop.induction_variable)
    for op in list(body.operations)[:-1]:
        op.move_before(term)
    par.erase()
