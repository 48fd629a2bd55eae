"""Barrier-free thread loops -> serial loop nests, x innermost (the last step of `--cpuify`).

Guarantees: each ``scf.parallel (tx, ty, tz) {pgcc.threads}`` (after barrier elimination, so its iterations are
independent) becomes ``scf.for tz { scf.for ty { scf.for tx { body } } }``. Consecutive threads touch
consecutive data in CUDA code, so tx innermost gives stride-1 accesses the LLVM loop vectorizer can use; the
block loop around it stays parallel and becomes the OpenMP loop.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import scf

from .ir_nav import collect
from .launch_to_loops import THREADS


def serialize_thread_loops(module: ir.Module) -> None:
    """Rewrite every thread loop of `module` as serial scf.for loops (in place)."""
    for par in collect(module.operation, lambda o: o.name == "scf.parallel" and THREADS in o.attributes):
        serialize(par)


def serialize(par) -> None:
    operands = list(par.operands)
    n = len(par.regions[0].blocks[0].arguments)
    lbs, ubs, steps = operands[:n], operands[n:2 * n], operands[2 * n:3 * n]
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
