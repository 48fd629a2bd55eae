"""Run-time alias checks: a SCoP whose arrays may overlap (alias.py) runs its scheduled code only when they do not.

For every pair the SCoP lists in `Scop.overlaps`, the byte ranges the SCoP touches in each array are computed
right before it: per array subscript, the least and greatest value over the iteration domain (isl's
`dim_min`/`dim_max`, parametric in the SCoP's parameters, printed by isl's AST builder), turned into an element
offset with the memref's strides (a delinearized `A[i * n + j]` with its row length n) and into addresses with
its aligned pointer and element size. The SCoP becomes

    if (hi(A) <= lo(B) || hi(B) <= lo(A) && ...) { scheduled code } else { the original loops }

as Polly versions a SCoP on its run-time alias checks (Polly's ScopInfo "alias groups" and
IslNodeBuilder::createRTC). The original loops are a clone made before scheduling, so they compute exactly what
the source says for any overlap.
"""

from __future__ import annotations

import islpy as isl
from mlir import ir
from mlir.dialects import arith, memref

from polygeist_py.gpu_to_cpu.ir_nav import inline_then, two_way_if

from .alias import VERSIONED, overlapping_pairs
from .isl_model import IslScop, maps
from .scop import STORE, accesses, memref_and_indices

OP = isl.ast_expr_op_type
PENDING = "pgcc.alias_check_pending"  # a guard_region() guard whose condition is not known yet


class Unchecked(Exception):
    """The accessed range of an array cannot be computed at run time (unbounded, or an isl form not handled)."""


def guard_region(region_ops):
    """Before cell folding (which assumes the region's arrays do not overlap) of `region_ops` (a candidate
    region's top-level ops): when two of its memrefs may overlap, move the region into the then-branch of a new
    scf.if whose else-branch is a clone of it, with the condition left pending (version() sets it to the SCoP's
    check, settle() to false when no check replaced it). Returns the scf.IfOp, or None. Raises nothing."""
    mems, written = [], []
    for op in region_ops:
        for access in accesses(op):
            mem = memref_and_indices(access)[0]
            if not any(mem == m for m in mems):
                mems.append(mem)
            if access.name == STORE:
                written.append(mem)
    if not overlapping_pairs(mems, written) or not _enclosable(region_ops):
        return None
    with ir.InsertionPoint(region_ops[0]), region_ops[0].location:
        pending = arith.constant(ir.IntegerType.get_signless(1), 1)
    guard = _guard(pending, region_ops)
    guard.attributes[PENDING] = ir.UnitAttr.get()
    return guard


def unguard(guard) -> None:
    """Undo guard_region() or version(): the then-branch's ops move back before the scf.if, which is erased
    (with the clone; the check's ops are pure and now unused, the cleanup removes them)."""
    if guard is not None:
        inline_then(guard.operation)


def version(model: IslScop):
    """Put the SCoP of `model` under its run-time alias check: the SCoP's ops move into the then-branch of a new
    scf.if (where scheduling replaces them) and a clone of them is the else-branch; or, when the SCoP is exactly
    the then-branch of a pending guard_region() guard, that guard gets the check. Returns the new scf.IfOp (for
    unguard() if scheduling fails), or None.

    Raises:
        Unchecked: a range cannot be computed (the module is then unchanged).
    """
    scop = model.scop
    pending = pending_guard(scop.ops)
    if not scop.overlaps:
        if pending is not None:
            _settle(pending, True)
        return None
    if pending is None and not _enclosable(scop.ops):
        raise Unchecked("a value computed in the loop nest is used after it")
    anchor = pending if pending is not None else scop.ops[0]
    with ir.InsertionPoint(anchor), scop.location:
        bounds = _Ranges(model)
        disjoint = None
        for a, b in scop.overlaps:
            lo_a, hi_a = bounds.of(a)
            lo_b, hi_b = bounds.of(b)
            apart = arith.ori(arith.cmpi(arith.CmpIPredicate.ule, hi_a, lo_b),
                              arith.cmpi(arith.CmpIPredicate.ule, hi_b, lo_a))
            disjoint = apart if disjoint is None else arith.andi(disjoint, apart)
    if pending is not None:
        _settle(pending, disjoint)
        return None
    return _guard(disjoint, scop.ops)


def settle(func) -> None:
    """Give every guard_region() guard of `func` still pending the condition false: its region was not
    scheduled under a check, so the original loops (the else-branch) run. Raises nothing."""
    found = []
    func.operation.walk(lambda o: (found.append(o) if PENDING in o.attributes else None) or ir.WalkResult.ADVANCE)
    for guard in found:
        with ir.InsertionPoint(guard), guard.location:
            _settle(guard, arith.constant(ir.IntegerType.get_signless(1), 0))


def _settle(guard, condition) -> None:
    if condition is True:
        with ir.InsertionPoint(guard), guard.location:
            condition = arith.constant(ir.IntegerType.get_signless(1), 1)
    guard.operation.operands[0] = condition
    del guard.operation.attributes[PENDING]


def pending_guard(ops):
    """The guard_region() guard still pending whose then-branch is exactly `ops` (a region's top-level ops), or
    None."""
    parent = ops[0].operation.parent
    if parent is None or PENDING not in parent.attributes:
        return None
    body = [o.operation for o in list(parent.regions[0].blocks[0].operations)[:-1]]
    return parent if body == [o.operation for o in ops] else None


def _span(ops) -> list:
    """The ops of the block of `ops` from the first to the last of them, in program order."""
    block = list(ops[0].operation.block.operations)
    position = {o.operation: k for k, o in enumerate(block)}
    ks = [position[o.operation] for o in ops]
    return block[min(ks):max(ks) + 1]


def _enclosable(ops) -> bool:
    """Whether no value defined in the span of `ops` is used after it (the span can move into a region)."""
    inside = set()
    for op in _span(ops):
        op.operation.walk(lambda o: inside.add(o) or ir.WalkResult.ADVANCE)
    return all(u.owner in inside for op in _span(ops) for r in op.results for u in r.uses)


def _guard(condition, ops):
    """scf.if (condition) { ops } else { a clone of ops }, in ops' place (ops: top-level ops of one block, in any
    order; everything from the first to the last of them in the block moves, in program order)."""
    ops = _span(ops)
    with ir.InsertionPoint(ops[0]), ops[0].location:
        guard, then_end, else_end = two_way_if(condition, VERSIONED)
    for op in ops:
        op.operation.clone(ip=ir.InsertionPoint(else_end))
    for op in ops:
        op.operation.move_before(then_end)
    return guard


class _Ranges:
    """[lo, hi) byte addresses (index values) of the elements each array of a SCoP may touch."""

    def __init__(self, model: IslScop):
        self.model = model
        self.params = list(model.scop.params)
        self.touched = {}
        for umap in (model.reads, model.writes):
            for m in maps(umap):
                name = m.get_tuple_name(isl.dim_type.out)
                rng = m.range()
                self.touched[name] = self.touched[name].union(rng) if name in self.touched else rng
        self.index = ir.IndexType.get()

    def of(self, name):
        mem = self.model.scop.arrays[name]
        touched = self.touched[name].coalesce()
        dims = touched.dim(isl.dim_type.set)
        lows = [self._expr(touched.dim_min(k)) for k in range(dims)]
        highs = [self._expr(touched.dim_max(k)) for k in range(dims)]
        ty = ir.MemRefType(mem.type)
        meta = memref.ExtractStridedMetadataOp(mem)
        strides = list(meta.strides)
        if name in self.model.rows:  # A[i * n + j] modelled as A[i, j]: rows of n elements
            row = self.params[int(self.model.rows[name][1:])]
            lows = [arith.addi(arith.muli(lows[0], row), lows[1])]
            highs = [arith.addi(arith.muli(highs[0], row), highs[1])]
        if len(lows) != ty.rank:
            raise Unchecked(f"array {name}: {len(lows)} subscripts for a rank-{ty.rank} memref")
        lo, hi = meta.offset, meta.offset
        for k, stride in enumerate(strides):  # (C arrays: every stride is positive)
            lo = arith.addi(lo, arith.muli(lows[k], stride))
            hi = arith.addi(hi, arith.muli(highs[k], stride))
        size = self._const(_element_bytes(ty.element_type))
        base = memref.ExtractAlignedPointerAsIndexOp(mem).result
        return (arith.addi(base, arith.muli(lo, size)),
                arith.addi(base, arith.muli(arith.addi(hi, self._const(1)), size)))

    # ---- isl piecewise affine expressions -> index arithmetic
    def _expr(self, pa):
        if pa.involves_nan():
            raise Unchecked("an unbounded subscript")
        build = isl.AstBuild.from_context(isl.Set.universe(pa.get_domain_space()))
        return self._ast(build.expr_from_pw_aff(pa))

    def _ast(self, e):
        t = e.get_type()
        if t == isl.ast_expr_type.int:
            return self._const(e.get_val().to_python())
        if t == isl.ast_expr_type.id:
            name = e.get_id().get_name()
            if name.startswith("p") and name[1:].isdigit():
                return self.params[int(name[1:])]
            raise Unchecked(f"identifier {name}")
        op = e.get_op_type()
        args = [self._ast(e.get_op_arg(i)) for i in range(e.get_op_n_arg())]
        binary = {OP.add: arith.addi, OP.sub: arith.subi, OP.mul: arith.muli, OP.max: arith.maxsi,
                  OP.min: arith.minsi, OP.fdiv_q: arith.floordivsi, OP.pdiv_q: arith.divsi,
                  OP.pdiv_r: arith.remsi, OP.zdiv_r: arith.remsi, OP.and_: arith.andi, OP.and_then: arith.andi,
                  OP.or_: arith.ori, OP.or_else: arith.ori}
        compare = {OP.eq: arith.CmpIPredicate.eq, OP.le: arith.CmpIPredicate.sle, OP.lt: arith.CmpIPredicate.slt,
                   OP.ge: arith.CmpIPredicate.sge, OP.gt: arith.CmpIPredicate.sgt}
        if op in binary:
            out = args[0]
            for x in args[1:]:
                out = binary[op](out, x)
            return out
        if op in compare:
            return arith.cmpi(compare[op], args[0], args[1])
        if op == OP.minus:
            return arith.subi(self._const(0), args[0])
        if op in (OP.select, OP.cond):
            return arith.select(args[0], args[1], args[2])
        raise Unchecked(f"isl expression {e.to_C_str()}")

    def _const(self, n):
        return arith.constant(self.index, n)


def _element_bytes(ty) -> int:
    if isinstance(ty, (ir.IntegerType, ir.FloatType)):
        return max(1, (ty.width + 7) // 8)
    return 8  # index and pointers on x86-64
