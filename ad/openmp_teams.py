"""OpenMP `parallel for` loops with firstprivate variables in differentiated code, run as the team would run them
(prepare.py, on the primal copy only).

With ``firstprivate(v)`` each thread of the team starts from its own copy of v, and the iterations a thread runs
see what its earlier iterations stored into that copy (Enzyme's omp_firstprivate test: ``a[i] = in; in = 0;`` gives
the gradient of `in` one per thread). The result, and so the derivative, depends on which iterations each thread
runs. The derivative's copy of the function therefore first asks the OpenMP runtime how it shares the iterations
among the team: it runs the same worksharing loop (same bounds, same schedule, same team) with a body that only
records, per thread, its first iteration and its number of iterations (a static schedule gives each thread one
contiguous run). Then the region becomes plain loops, which reverse mode differentiates: for each thread of the
team in turn, the firstprivate copies (a load and a store), then that thread's iterations in order.

Handled: an ``omp.parallel`` without clauses whose body is firstprivate copies of scalars (``memref.copy`` of
rank-0 memrefs into the region's own allocations), pure ops and allocations, then one ``omp.wsloop`` without
clauses over one loop variable, nothing else of OpenMP inside. Other regions are left to openmp_serial.py.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, memref, scf

from polygeist_py.gpu_to_cpu.ir_nav import is_pure

from .activity import all_ops


def _single_block(op) -> bool:
    return all(len(r.blocks) == 1 for r in op.regions)


def _team_loop(par):
    """(copies, wsloop, loop_nest) of omp.parallel `par` when it has the handled shape (module docstring), else
    None."""
    if len(par.operands) or not _single_block(par):
        return None
    ops = list(par.regions[0].blocks[0].operations)
    names = [o.operation.name for o in ops]
    if names.count("omp.wsloop") != 1 or names[-1] != "omp.terminator":
        return None
    k = names.index("omp.wsloop")
    ws = ops[k]
    if k != len(ops) - 2 or len(ws.operands) or len(ws.results) or not _single_block(ws):
        return None
    copies = []
    for o in ops[:k]:
        name = o.operation.name
        if name == "memref.copy":
            src, dst = o.operands
            owner = dst.owner
            if ir.MemRefType(src.type).rank != 0 or isinstance(owner, ir.Block) or \
                    owner.operation.name != "memref.alloca" or owner.operation.parent != par.operation:
                return None
            copies.append(o)
        elif name != "memref.alloca" and not is_pure(o):
            return None
    if not copies:
        return None
    inner = [o for o in ws.regions[0].blocks[0].operations]
    if len(inner) != 1 or inner[0].operation.name != "omp.loop_nest":
        return None
    nest = inner[0]
    if len(nest.operands) != 3 or not _single_block(nest):
        return None
    for o in all_ops(nest):
        name = o.operation.name
        if name.startswith("omp.") and name != "omp.yield":
            return None
        if name in ("func.call", "llvm.call") and "callee" in o.operation.attributes:
            callee = ir.FlatSymbolRefAttr(o.operation.attributes["callee"]).value
            if callee.startswith(("omp_", "__kmpc")):
                return None
    return copies, ws, nest


def _runtime_call(module, name):
    """Call OpenMP runtime function `name` (no arguments, an int result) at the insertion point, declaring it
    unless the program did (as a func.func, or an llvm.func when its C prototype has no parameter list)."""
    from mlir.dialects import llvm
    i32 = ir.IntegerType.get_signless(32)
    body = module.body
    found = next((o for o in body.operations if "sym_name" in o.attributes
                  and ir.StringAttr(o.attributes["sym_name"]).value == name), None)
    if found is None:
        with ir.InsertionPoint.at_block_begin(body), ir.Location.unknown():
            func.FuncOp(name, ir.FunctionType.get([], [i32]), visibility="private")
    elif found.operation.name == "llvm.func":
        ftype = found.attributes["function_type"]
        vararg = "..." in str(ftype)
        return llvm.CallOp(i32, [], [], [], callee=name, var_callee_type=ftype if vararg else None).result
    return func.CallOp([i32], name, []).result


def run_as_the_team(f, module) -> None:
    """Rewrite every omp.parallel region of func `f` that has the handled shape (module docstring)."""
    for par in [o for o in all_ops(f) if o.operation.name == "omp.parallel"]:
        shape = _team_loop(par)
        if shape is not None:
            _rewrite(par, *shape, module)


def _rewrite(par, copies, ws, nest, module) -> None:
    index = ir.IndexType.get()
    step = nest.operands[2]
    with ir.InsertionPoint(par), par.location:
        c0, c1 = arith.constant(index, 0), arith.constant(index, 1)
        team = arith.index_cast(index, _runtime_call(module, "omp_get_max_threads"))
        dyn = ir.ShapedType.get_dynamic_size()
        first = memref.AllocaOp(ir.MemRefType.get([dyn], index), [team], []).result
        count = memref.AllocaOp(ir.MemRefType.get([dyn], index), [team], []).result
        zero = scf.ForOp(c0, team, c1)
        with ir.InsertionPoint(zero.body):
            memref.store(c0, first, [zero.induction_variable])
            memref.store(c0, count, [zero.induction_variable])
            scf.YieldOp([])
        # the runtime's sharing of the iterations: the same region, recording per thread
        record = par.operation.clone(ip=ir.InsertionPoint(par))
    for o in all_ops(record):
        if o.operation.name == "memref.copy":
            o.operation.erase()
    rnest = next(o for o in all_ops(record) if o.operation.name == "omp.loop_nest")
    rbody = rnest.regions[0].blocks[0]
    rops = list(rbody.operations)
    for o in reversed(rops[:-1]):
        o.operation.erase()
    with ir.InsertionPoint(rops[-1]), par.location:
        tid = arith.index_cast(index, _runtime_call(module, "omp_get_thread_num"))
        seen = memref.load(count, [tid])
        fresh = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, seen, c0))
        with ir.InsertionPoint(fresh.then_block):
            memref.store(rbody.arguments[0], first, [tid])
            scf.YieldOp([])
        memref.store(arith.addi(seen, c1), count, [tid])
    # the team, one thread after the other: its firstprivate copies, then its iterations in order
    with ir.InsertionPoint(par), par.location:
        threads = scf.ForOp(c0, team, c1)
        with ir.InsertionPoint(threads.body):
            end = scf.YieldOp([])
    block = par.regions[0].blocks[0]
    t = threads.induction_variable
    for o in list(block.operations):
        if o.operation == ws.operation:
            break
        o.operation.move_before(end.operation)
    for c in copies:
        with ir.InsertionPoint(c), c.location:
            memref.store(memref.load(c.operands[0], []), c.operands[1], [])
        c.operation.erase()
    with ir.InsertionPoint(end), par.location:
        lo, n = memref.load(first, [t]), memref.load(count, [t])
        its = scf.ForOp(c0, n, c1)
        with ir.InsertionPoint(its.body):
            iv = arith.addi(lo, arith.muli(its.induction_variable, step))
            last = scf.YieldOp([])
    body = nest.regions[0].blocks[0]
    body.arguments[0].replace_all_uses_with(iv)
    for o in list(body.operations)[:-1]:
        o.operation.move_before(last.operation)
    par.operation.erase()
