"""Uniformity checked at run time: a loop or condition holding __syncthreads() whose control pgcc cannot prove
the same in every thread of a block is made uniform by counting, not refused.

CUDA requires such control to be the same in every thread of the block (PTX bar.sync: "in conditionally executed
code, a bar instruction should only be used if it is known that all threads evaluate the condition
identically"). When the uniformity analysis of barrier_elimination.py cannot prove it (ss's exit test
``((pos / blockDim.x) * blockDim.x) >= len`` with ``pos = threadIdx.x + k * blockDim.x``), each thread's value
of the condition is counted over the block instead: between barriers every thread adds its condition to one
per-block cell and 1 to another, every thread reads both, and the block goes on with the count's verdict, which
is the same for all. When some threads say yes and others no, the program stops with
``file:line:col: error: ...`` (pgcc's CUDA runtime, __pgcc_nonuniform_control) rather than run code a GPU
would not run. Threads predicated off (those that returned early) do not take part in the count.

Polygeist (Moses et al., PPoPP'23) assumes the condition of such a loop uniform and evaluates it once; the count
costs three barriers per evaluation and makes the assumption checked.
"""

from __future__ import annotations

import re
import zlib

from mlir import ir
from mlir.dialects import arith, func, gpu, llvm, memref, scf

from polygeist_py.frontend.cuda_builtins import BLOCK_UNIFORM

from .ir_nav import enclosing, is_nested_in, is_pure, walk
from .launch_to_loops import is_block_loop

REPORT = "__pgcc_nonuniform_control"
CHECKED = "pgcc.checked_uniform"  # an scf.while whose condition is the count's verdict


def checked_condition(p, c, where):
    """Insert before op `where` (at the top level of thread loop `p`) the count of i1 value `c` over the block;
    returns an i1 value that is the same in every thread (marked BLOCK_UNIFORM): c's value when every thread
    taking part agrees. Disagreement stops the program with a message naming `where`'s source position."""
    i32, idx = ir.IntegerType.get_signless(32), ir.IndexType.get()
    cells = _block_cells(p)
    _declare_report(where)
    with where.location, ir.InsertionPoint(where):
        zero, one = arith.constant(idx, 0), arith.constant(idx, 1)
        gpu.BarrierOp()
        kind = arith.AtomicRMWKind.addi
        memref.AtomicRMWOp(kind, arith.extui(i32, c), cells, [zero])
        memref.AtomicRMWOp(kind, arith.constant(i32, 1), cells, [one])
        gpu.BarrierOp()
        yes = memref.LoadOp(cells, [zero])
        taking_part = memref.LoadOp(cells, [one])
        for op in (yes, taking_part):
            op.attributes[BLOCK_UNIFORM] = ir.UnitAttr.get()
        some = arith.cmpi(arith.CmpIPredicate.ne, yes.result, arith.constant(i32, 0))
        split = arith.andi(some, arith.cmpi(arith.CmpIPredicate.ne, yes.result, taking_part.result))
        report = scf.IfOp(split)
        with ir.InsertionPoint(report.then_block):
            func.CallOp([], ir.FlatSymbolRefAttr.get(REPORT), [_position(where), yes.result, taking_part.result])
            scf.YieldOp([])
        two = arith.constant(idx, 2)
        memref.StoreOp(arith.extui(i32, some), cells, [two])  # (every thread stores the same verdict)
        gpu.BarrierOp()  # every thread has read the counts before they are cleared for the next evaluation
        # the verdict read right after the last barrier, before any write in its stretch: a load every thread
        # makes at one address there is evaluated once for the block (barrier_elimination._hoist_uniform), and
        # a value computed before the barrier would reach its user through a per-thread cache instead
        verdict = memref.LoadOp(cells, [arith.constant(idx, 2)])
        verdict.attributes[BLOCK_UNIFORM] = ir.UnitAttr.get()
        result = arith.cmpi(arith.CmpIPredicate.ne, verdict.result, arith.constant(i32, 0))
        memref.StoreOp(arith.constant(i32, 0), cells, [arith.constant(idx, 0)])
        memref.StoreOp(arith.constant(i32, 0), cells, [arith.constant(idx, 1)])
        return result


def rotate_while(p, x):
    """Rewrite scf.while `x` (at the top level of thread loop `p`, holding a barrier, its condition not provably
    uniform) so that its condition is a counted verdict: the before region is evaluated once in front of the
    loop and again at the end of the body (loop rotation), each time followed by checked_condition, and the
    new loop carries the verdict (last) after the forwarded values. Returns the new scf.while."""
    before, after = x.regions[0].blocks[0], x.regions[1].blocks[0]
    cond = list(before.operations)[-1]
    fwd_types = [v.type for v in list(cond.operands)[1:]]
    i1 = ir.IntegerType.get_signless(1)
    c0, f0 = _inline_before(before, list(x.operands), x)
    u0 = checked_condition(p, c0, x)
    with x.location, ir.InsertionPoint(x):
        new = scf.WhileOp(fwd_types, f0 + [u0])  # (results: the forwarded values)
    new.attributes[CHECKED] = ir.UnitAttr.get()
    with x.location:
        nb = new.before.blocks.append(*(fwd_types + [i1]))
    with x.location, ir.InsertionPoint(nb):
        scf.ConditionOp(nb.arguments[len(fwd_types)], list(nb.arguments)[:len(fwd_types)])
    with x.location:
        na = new.after.blocks.append(*fwd_types)
    for old, arg in zip(after.arguments, na.arguments):
        old.replace_all_uses_with(arg)
    ops = list(after.operations)
    old_yield = ops[-1]
    # move the body into the new after block, then evaluate the condition on its yielded values
    with x.location, ir.InsertionPoint(na):
        anchor = scf.YieldOp([])
    for op in ops[:-1]:
        op.move_before(anchor)
    c1, f1 = _inline_before(before, list(old_yield.operands), anchor)
    u1 = checked_condition(p, c1, anchor)
    with x.location, ir.InsertionPoint(anchor):
        scf.YieldOp(f1 + [u1])
    anchor.erase()
    for r, nr in zip(x.results, new.results):
        r.replace_all_uses_with(nr)
    x.erase()
    return new


def for_to_while(x):
    """Rewrite scf.for `x` as the scf.while that runs the same iterations: it carries the counter (first) and the
    iter_args, its condition is `iv < ub` (unsigned when the for compares unsigned) and its body ends by adding
    the step. Used when the bounds of a for holding a barrier are not provably uniform: rotate_while then
    counts the condition over the block (threads may start at different counters as long as they agree on
    continuing, as CUDA asks). Returns the new scf.while."""
    lb, ub, step = list(x.operands)[:3]
    inits = list(x.operands)[3:]
    types = [lb.type] + [v.type for v in inits]
    pred = arith.CmpIPredicate.ult if "unsignedCmp" in x.attributes else arith.CmpIPredicate.slt
    with x.location, ir.InsertionPoint(x):
        w = scf.WhileOp(types, [lb] + inits)
    with x.location:
        before = w.before.blocks.append(*types)
        after = w.after.blocks.append(*types)
    with x.location, ir.InsertionPoint(before):
        scf.ConditionOp(arith.cmpi(pred, before.arguments[0], ub), list(before.arguments))
    body = x.regions[0].blocks[0]
    for old, arg in zip(body.arguments, after.arguments):
        old.replace_all_uses_with(arg)
    ops = list(body.operations)
    with x.location, ir.InsertionPoint(after):
        anchor = scf.YieldOp([])
    for op in ops[:-1]:
        op.move_before(anchor)
    with x.location, ir.InsertionPoint(anchor):
        scf.YieldOp([arith.addi(after.arguments[0], step)] + list(ops[-1].operands))
    anchor.erase()
    for r, nr in zip(x.results, list(w.results)[1:]):
        r.replace_all_uses_with(nr)
    x.erase()
    return w


def _inline_before(before, args, where):
    """Clone the ops of scf.while's before block in front of op `where`, its arguments bound to `args`; returns
    the cloned condition and forwarded values."""
    mapping = {a: v for a, v in zip(before.arguments, args)}
    ops = list(before.operations)
    with ir.InsertionPoint(where):
        for op in ops[:-1]:
            clone = op.clone(ip=ir.InsertionPoint(where))
            _remap(clone, mapping)
            for r, cr in zip(op.results, clone.results):
                mapping[r] = cr
    cond = ops[-1]
    pick = lambda v: mapping.get(v, v)
    return pick(cond.operands[0]), [pick(v) for v in list(cond.operands)[1:]]


def _remap(op, mapping) -> None:
    """Replace operands of `op` and of every op nested in it that `mapping` maps."""
    def fix(o):
        for i, v in enumerate(o.operands):
            if v in mapping:
                o.operands[i] = mapping[v]
    fix(op)
    walk(op, fix)


def _block_cells(p):
    """Three i32 cells per block (a memref<3xi32> at the top of the block loop, cleared there): the count of
    yes, the count of threads taking part, the verdict."""
    blocks = enclosing(p, is_block_loop)
    first = list(blocks.regions[0].blocks[0].operations)[0]
    i32, idx = ir.IntegerType.get_signless(32), ir.IndexType.get()
    with p.location, ir.InsertionPoint(first):
        cells = memref.AllocaOp(ir.MemRefType.get([3], i32), [], [])
        for k in (0, 1, 2):
            memref.StoreOp(arith.constant(i32, 0), cells.result, [arith.constant(idx, k)])
    return cells.result


def _position(op):
    """An !llvm.ptr to a constant string "file:line:col" naming `op`'s source position (a module-level global)."""
    m = re.search(r'"([^"]+)":(\d+):(\d+)', str(op.location))
    text = f"{m.group(1)}:{m.group(2)}:{m.group(3)}" if m else "kernel"
    module = _module_of(op)
    name = f"__pgcc_where_{zlib.crc32(text.encode()):08x}"
    if not any(o.operation.name == "llvm.mlir.global" and o.attributes["sym_name"].value == name
               for o in module.body.operations):
        data = text.encode() + b"\0"
        with ir.Location.unknown(), ir.InsertionPoint.at_block_begin(module.body):
            llvm.GlobalOp(ir.Type.parse(f"!llvm.array<{len(data)} x i8>"), name,
                          ir.Attribute.parse("#llvm.linkage<internal>"),
                          value=ir.StringAttr.get(data.decode("latin-1")), constant=True)
    return llvm.AddressOfOp(ir.Type.parse("!llvm.ptr"), name).result


def _module_of(op):
    o = op.operation
    while o.parent is not None:
        o = o.parent
    return _Body(o)


class _Body:
    """The module op seen through its one block (`body`), as ir.Module shows it."""

    def __init__(self, op):
        self.body = op.regions[0].blocks[0]


def _declare_report(op) -> None:
    module = _module_of(op)
    if any(o.operation.name == "func.func" and o.attributes["sym_name"].value == REPORT
           for o in module.body.operations):
        return
    i32 = ir.IntegerType.get_signless(32)
    with ir.Location.unknown(), ir.InsertionPoint(module.body):
        func.FuncOp(REPORT, ir.FunctionType.get([ir.Type.parse("!llvm.ptr"), i32, i32], []), visibility="private")


def differs_by_construction(v, p) -> bool:
    """Whether i1 value `v` (a condition in thread loop `p`) is written to differ between threads, so that a
    barrier under it is a compile-time error rather than a check at run time: it is computed from thread ids,
    constants and counters of loops inside `p` alone (`threadIdx.x < 16`, `i < threadIdx.x`), or it uses a
    thread id's low bits (`t & 1`, `t % 2`: neighbouring threads differ). A condition that also reads kernel
    arguments, the block size or memory (`row < n` with `row = threadIdx.y + ...`) may well be the same in
    every thread: it is counted at run time (checked_condition)."""
    tids = set(p.regions[0].blocks[0].arguments)
    seen = {}

    def static(u):  # -> (built from constants, thread ids and inner loop counters only, uses a thread id)
        if u in seen:
            return seen[u]
        seen[u] = (False, False)
        if u in tids:
            res = (True, True)
        elif isinstance(u.owner, ir.Block):
            res = (is_nested_in(u.owner.owner, p), False)
        elif u.owner.name == "arith.constant":
            res = (True, False)
        elif is_pure(u.owner) and len(u.owner.operands) and u.owner.name not in DIVISIONS:
            parts = [static(o) for o in u.owner.operands]
            res = (all(s for s, _ in parts), any(t for _, t in parts))
        else:
            res = (False, False)
        seen[u] = res
        return res

    def low_bits(u, depth=0):
        if depth > 12:
            return False
        if isinstance(u.owner, ir.Block):  # a value a while loop carries: what its body yields for it
            loop = u.owner.owner
            if loop.name != "scf.while" or u.owner != loop.regions[0].blocks[0] or not len(loop.regions[1].blocks):
                return False
            update = list(loop.regions[1].blocks[0].operations)[-1].operands[ir.BlockArgument(u).arg_number]
            return low_bits(update, depth + 1)
        if not is_pure(u.owner) and u.owner.name not in ("scf.if",):
            return False
        if u.owner.name == "scf.if":  # a value chosen by a condition (a `break` taken in some threads)
            return low_bits(u.owner.operands[0], depth + 1)
        op = u.owner
        if op.name in ("arith.andi", "arith.remui", "arith.remsi") and _small_constant(op.operands[1]) \
                and static(op.operands[0])[1]:
            return True
        return any(low_bits(o, depth + 1) for o in op.operands)

    s, uses_tid = static(v)
    return (s and uses_tid) or low_bits(v)


DIVISIONS = ("arith.divsi", "arith.divui", "arith.floordivsi", "arith.ceildivsi", "arith.ceildivui",
             "arith.remsi", "arith.remui")


def _small_constant(u) -> bool:
    if isinstance(u.owner, ir.Block) or u.owner.name != "arith.constant":
        return False
    attr = u.owner.attributes["value"]
    return isinstance(attr, ir.IntegerAttr) and 1 <= ir.IntegerAttr(attr).value <= 32
