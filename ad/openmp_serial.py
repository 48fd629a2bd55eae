"""OpenMP parallel regions in differentiated code, run by one thread (prepare.py, on the primal copy only).

The frontend keeps a `#pragma omp parallel` region whose body is more than one worksharing loop (`omp for`
loops, `critical` sections, `single`/`master` blocks, barriers between them: Enzyme's omp_crit form, a
per-thread partial sum added under a critical section) as ``omp.parallel``; plain `parallel for` loops are
``scf.parallel`` and differentiated in parallel (reverse.py). A region of only those constructs computes the
same values when a team of one thread runs it (the program is race-free for any team size; the one thread runs
every iteration of each worksharing loop, a critical section or a single block is plain code, a barrier is a
no-op), so the derivative's copy of the function runs it that way: the worksharing loops become scf.for nests
over the whole iteration space. The primal function itself is left parallel. A region holding any other
OpenMP construct (reduction or private clauses, tasks, sections, atomics) or a call of the OpenMP runtime
(omp_get_thread_num: work that depends on the team) is kept and reported by the AD stage as an unsupported
construct.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from .activity import all_ops

# (constructs a one-thread team runs as plain code; omp.terminator/omp.yield end their regions)
SERIAL = {"omp.parallel", "omp.wsloop", "omp.loop_nest", "omp.critical", "omp.barrier", "omp.single",
          "omp.master", "omp.masked", "omp.terminator", "omp.yield"}


def _single_block(op):
    return all(len(r.blocks) == 1 and not len(r.blocks[0].arguments) for r in op.regions)


def _serializable(par) -> bool:
    """Whether omp.parallel `par` holds only SERIAL constructs, without clauses that need a team."""
    if len(par.operands) or not _single_block(par):
        return False
    for o in all_ops(par):
        name = o.operation.name
        if name in ("func.call", "llvm.call") and "callee" in o.operation.attributes:
            callee = ir.FlatSymbolRefAttr(o.operation.attributes["callee"]).value
            if callee.startswith(("omp_", "__kmpc")):
                return False  # (omp_get_thread_num...: the work depends on the team)
        if not name.startswith("omp."):
            continue
        if name not in SERIAL:
            return False
        if name == "omp.loop_nest":
            if len(o.regions[0].blocks) != 1:
                return False
        elif name in ("omp.wsloop", "omp.single") and (len(o.operands) or len(o.results) or
                                                       not _single_block(o)):
            return False  # (reduction, private, copyprivate, a chunk size: team state)
    return True


def _inline_region(op):
    """Move the ops of `op`'s single block (not its terminator) before `op`; erase `op`."""
    block = op.regions[0].blocks[0]
    for inner in list(block.operations)[:-1]:
        inner.operation.move_before(op.operation)
    op.operation.erase()


def _loop_nest_as_scf(ws):
    """omp.wsloop `ws` (one omp.loop_nest inside) as an scf.for nest over the whole iteration space."""
    nest = next(o for o in ws.regions[0].blocks[0].operations if o.operation.name == "omp.loop_nest")
    n = len(nest.operands) // 3
    ops = list(nest.operands)
    lbs, ubs, steps = ops[:n], ops[n:2 * n], ops[2 * n:]
    inclusive = "loop_inclusive" in nest.operation.attributes
    body = nest.regions[0].blocks[0]
    ip, ivs, loops = ir.InsertionPoint(ws.operation), [], []
    for d in range(n):
        with ip, ws.location:
            ub = arith.addi(ubs[d], arith.constant(ubs[d].type, 1)) if inclusive else ubs[d]
            loop = scf.ForOp(lbs[d], ub, steps[d])
        loops.append(loop)
        ivs.append(loop.induction_variable)
        ip = ir.InsertionPoint(loop.body)
    for loop in loops:  # (after the loop nested in it)
        with ir.InsertionPoint(loop.body), ws.location:
            end = scf.YieldOp([])
    for a, iv in zip(body.arguments, ivs):
        a.replace_all_uses_with(iv)
    for inner in list(body.operations)[:-1]:
        inner.operation.move_before(end.operation)
    ws.operation.erase()


def serialize_parallel_regions(f) -> None:
    """Run every serializable omp.parallel region of func `f` with a team of one thread (module docstring)."""
    pars = [o for o in all_ops(f) if o.operation.name == "omp.parallel"]
    for par in pars:
        if not _serializable(par):
            continue
        inner = all_ops(par)
        for o in reversed(inner):  # (innermost first)
            name = o.operation.name
            if name == "omp.wsloop":
                _loop_nest_as_scf(o)
        for o in reversed(all_ops(par)):
            name = o.operation.name
            if name in ("omp.critical", "omp.single", "omp.master", "omp.masked"):
                _inline_region(o)
            elif name == "omp.barrier":
                o.operation.erase()
        _inline_region(par)
