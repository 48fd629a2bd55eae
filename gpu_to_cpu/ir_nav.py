"""Small helpers to navigate and rewrite MLIR through the Python bindings, shared by the gpu_to_cpu passes."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import scf

# Ops without memory effects or regions that may be cloned (recomputed) or hoisted freely. Memref descriptor
# ops are here on purpose: a memref value cannot be cached in memory, so it must be recomputable.
PURE_PREFIXES = ("arith.", "math.", "index.")
PURE_OPS = {
    "affine.apply", "affine.min", "affine.max", "llvm.mlir.constant", "llvm.mlir.zero", "llvm.mlir.undef",
    "llvm.mlir.poison", "llvm.insertvalue", "llvm.extractvalue", "llvm.inttoptr", "llvm.ptrtoint",
    "llvm.getelementptr", "builtin.unrealized_conversion_cast", "memref.reinterpret_cast", "memref.cast",
    "memref.subview", "memref.view", "memref.extract_strided_metadata", "memref.extract_aligned_pointer_as_index",
    "memref.dim", "ub.poison", "memref.get_global", "llvm.mlir.addressof",  # the address of a global
    "func.constant",  # the address of a function (a function pointer passed to a device function)
}


# pure ops that trap on some operands (division by zero, INT_MIN / -1): not to be run where the program did not
TRAPPING = {"arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.ceildivui",
            "arith.floordivsi"}


def is_pure(op) -> bool:
    """True for an op that reads no memory, writes none and has no regions (safe to recompute or hoist)."""
    name = op.operation.name
    return len(op.regions) == 0 and (name.startswith(PURE_PREFIXES) or name in PURE_OPS)


def walk(op, fn) -> None:
    """Call fn on every op nested in `op` (pre-order; not on `op` itself)."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                fn(inner)
                walk(inner, fn)


def collect(op, pred) -> list:
    found = []
    walk(op, lambda o: found.append(o) if pred(o) else None)
    return found


def is_nested_in(op, ancestor) -> bool:
    """True when `op` is strictly inside one of `ancestor`'s regions."""
    ancestor = ancestor.operation
    p = op.operation.parent
    while p is not None:
        if p == ancestor:
            return True
        p = p.parent
    return False


def within(op, scope) -> bool:
    """True when `op` is `scope` itself or nested in it."""
    return op.operation == scope.operation or is_nested_in(op, scope)


def enclosing(op, pred):
    """The nearest ancestor of `op` for which pred(ancestor) holds, or None."""
    p = op.operation.parent
    while p is not None and not pred(p):
        p = p.parent
    return p


def loop_bounds(par) -> tuple:
    """(lower bounds, upper bounds, steps) of an scf.parallel, one value per induction variable."""
    n = len(par.regions[0].blocks[0].arguments)
    ops = list(par.operands)
    return ops[:n], ops[n:2 * n], ops[2 * n:3 * n]


def defining_op(v):
    """The op whose result `v` is, or for a block argument the op owning the block."""
    owner = v.owner
    return owner.owner if isinstance(owner, ir.Block) else owner


def defined_inside(v, op) -> bool:
    """True when value `v` is only visible inside `op`'s regions (a result or block argument nested in it)."""
    owner = v.owner
    if isinstance(owner, ir.Block):
        d = owner.owner
        return d.operation == op.operation or is_nested_in(d, op)
    return is_nested_in(owner, op)


def body_ops(op, region=0) -> list:
    """The ops of the single block of `op`'s region, without its terminator."""
    return list(op.regions[region].blocks[0].operations)[:-1]


def replace_uses_inside(old, new, scope) -> None:
    """Replace the uses of `old` that lie inside `scope` (an op, its regions included) with `new`."""
    for use in list(old.uses):
        if within(use.owner, scope):
            use.owner.operands[use.operand_number] = new


def has_attr(op, name: str) -> bool:
    return name in op.attributes


def inline_then(guard) -> None:
    """Replace scf.if `guard` by the ops of its then-branch; its results by what that branch yields."""
    then_ops = list(guard.regions[0].blocks[0].operations)
    for op in then_ops[:-1]:
        op.move_before(guard)
    for r, v in zip(guard.results, then_ops[-1].operands):
        r.replace_all_uses_with(v)
    guard.erase()


def two_way_if(condition, mark: str | None = None) -> tuple:
    """A new scf.if on i1 `condition` at the current insertion point, with empty then- and else-branches and the
    unit attribute `mark` if given: (the scf.IfOp, its then-branch's scf.yield, its else-branch's scf.yield), to
    insert the branches' code before. Raises nothing."""
    op = scf.IfOp(condition, has_else=True)
    if mark is not None:
        op.attributes[mark] = ir.UnitAttr.get()
    with ir.InsertionPoint(op.then_block):
        then_end = scf.YieldOp([])
    with ir.InsertionPoint(op.else_block):
        else_end = scf.YieldOp([])
    return op, then_end, else_end
