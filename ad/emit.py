"""Building blocks shared by forward and reverse mode: cloning ops through a value map, rebuilding region ops with
extra loop-carried values, zero constants, shadow allocations.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, memref, scf

from .activity import is_float


def remap_operands(op, vmap) -> None:
    """Replace every operand of `op` and of the ops nested in it that is a key of `vmap`."""
    for i, v in enumerate(op.operands):
        nv = vmap.get(v)
        if nv is not None:
            op.operands[i] = nv
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                remap_operands(inner, vmap)


def clone_mapped(op, vmap):
    """Clone `op` (regions included) at the current insertion point with operands mapped by `vmap`; record the
    new results in `vmap`. Returns the new op."""
    new = op.clone()
    remap_operands(new.operation, vmap)
    for old, nv in zip(op.results, new.results):
        vmap[old] = nv
    return new


def zero(t):
    """0 of float type `t`."""
    return arith.constant(t, 0.0)


def create_like(op, operands, result_types, extra_attrs=None, segments=None):
    """An op with `op`'s name and attributes, new operands and result types, and as many (empty) regions.

    `segments` replaces the operandSegmentSizes attribute (affine.for: lower bound, upper bound, inits)."""
    attrs = {k: op.attributes[k] for k in op.attributes}
    if segments is not None:
        attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get(segments)
    if extra_attrs:
        attrs.update(extra_attrs)
    return ir.Operation.create(op.name, results=list(result_types), operands=list(operands), attributes=attrs,
                               regions=len(op.regions), loc=op.location)


def loop_parts(op):
    """(control operands, init operands, body block) of an scf.for / affine.for."""
    n = len(op.results)
    ops = list(op.operands)
    return ops[:len(ops) - n], ops[len(ops) - n:], op.regions[0].blocks[0]


def loop_segments(op, n_inits):
    """operandSegmentSizes for a copy of affine.for `op` with `n_inits` loop-carried values (None for scf.for)."""
    if op.name != "affine.for":
        return None
    seg = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    return [seg[0], seg[1], n_inits]


def terminator(block):
    return list(block.operations)[-1]


def body_ops(block):
    return list(block.operations)[:-1]


def fill_zero(mem) -> None:
    """Store 0 in every element of memref `mem` (an scf.for nest over its dimensions)."""
    mt = ir.MemRefType(mem.type)
    idx = ir.IndexType.get()
    c0 = arith.constant(idx, 0)
    c1 = arith.constant(idx, 1)
    z = arith.constant(mt.element_type, 0.0) if is_float(mt.element_type) else arith.constant(mt.element_type, 0)
    dims = [memref.dim(mem, arith.constant(idx, d)) for d in range(mt.rank)]

    def nest(d, ivs):
        if d == mt.rank:
            memref.store(z, mem, ivs)
            return
        loop = scf.ForOp(c0, dims[d], c1)
        with ir.InsertionPoint(loop.body):
            nest(d + 1, ivs + [loop.induction_variable])
            scf.YieldOp([])
    nest(0, [])


def shadow_alloc(op, vmap):
    """A zero-filled allocation like memref.alloca/alloc `op` (its sizes mapped by `vmap`)."""
    new = op.clone()
    remap_operands(new.operation, vmap)
    fill_zero(new.results[0])
    return new.results[0]


def copy_noalias(primal, deriv_entry, deriv_op, pairs) -> None:
    """Carry ``restrict`` (llvm.noalias) from the primal's pointer parameters to the derivative's arguments: the
    parameter's primal copy and its shadow. A restrict parameter's memory is reached through no other parameter,
    and Enzyme's calling convention gives every duplicated argument a shadow of its own, so neither its primal nor
    its shadow aliases any other argument of the derivative (Enzyme marks such shadows noalias too). It lets LLVM
    vectorize and keep adjoints in registers without runtime alias checks.

    Args:
        primal: the primal func.func (its arg_attrs are read).
        deriv_entry: the derivative's entry block; deriv_op: the derivative func.func (arg_attrs is set on it).
        pairs: (primal parameter index, derivative argument index) for each derivative argument that stands for a
            primal parameter (its primal copy or its shadow).
    """
    if "arg_attrs" not in primal.attributes:
        return
    src = ir.ArrayAttr(primal.attributes["arg_attrs"])
    marked = set()
    for pi, di in pairs:
        if pi < len(src) and "llvm.noalias" in ir.DictAttr(src[pi]) \
                and deriv_entry.arguments[di].type == primal.regions[0].blocks[0].arguments[pi].type:
            marked.add(di)
    if marked:
        deriv_op.attributes["arg_attrs"] = ir.ArrayAttr.get([
            ir.DictAttr.get({"llvm.noalias": ir.UnitAttr.get()} if i in marked else {})
            for i in range(len(deriv_entry.arguments))])
