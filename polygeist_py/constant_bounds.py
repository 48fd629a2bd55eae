"""Reject constant subscripts outside a global array before the cleanup stage folds them.

`names[9223372036854775807]` on `static const char names[4]` is undefined behaviour that clang only warns
about; MLIR's folding of a load from a constant global asserts on the out-of-range index and aborts the
process. A constant index into a global array must lie inside it, so pgcc reports it as an error at the
access (gcc compiles it with a warning; the program would read outside the array).
"""

from __future__ import annotations

from mlir import ir

from .errors import error_at_op

_ACCESSES = {"memref.load": 0, "memref.store": 1, "affine.load": 0, "affine.store": 1}


def _name(owner) -> str | None:
    """The op name of a value's owner (an Operation or OpView; None for a block argument's Block)."""
    op = getattr(owner, "operation", owner)
    return op.name if isinstance(op, ir.Operation) else None


def constant_int(value):
    """The integer of `value` when an arith.constant defines it, else None (a block argument, another op)."""
    op = getattr(value.owner, "operation", value.owner)
    if _name(op) == "arith.constant":
        attr = op.attributes["value"]
        if isinstance(attr, ir.IntegerAttr):
            return attr.value
    return None


def check(module: ir.Module) -> None:
    """Raise CompileError at the first load/store of a `memref.get_global` array with a constant index outside
    its static shape."""
    found = []  # an exception raised inside walk() comes out as a RuntimeError: report after the walk

    def visit(op):
        pos = _ACCESSES.get(op.name)
        if pos is None:
            return ir.WalkResult.ADVANCE
        ref = op.operands[pos]
        owner = ref.owner
        if _name(owner) != "memref.get_global":
            return ir.WalkResult.ADVANCE
        shape = ir.MemRefType(ref.type).shape
        indices = list(op.operands[pos + 1:])
        if op.name.startswith("affine."):
            amap = ir.AffineMapAttr(op.attributes["map"]).value
            consts = [e.value if isinstance(e, ir.AffineConstantExpr) else None
                      for e in amap.results]
        else:
            consts = [constant_int(v) for v in indices]
        for dim, c in zip(shape, consts):
            if c is not None and dim >= 0 and not 0 <= c < dim:
                found.append(error_at_op(op, f"array index {c} is outside the array's {dim} elements"))
                return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    if found:
        raise found[0]
