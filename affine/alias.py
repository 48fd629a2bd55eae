"""Which arrays of a region may overlap in memory.

C pointers may point into one object: `void g(int n, double *x, double *y)` may be called as `g(n, a, a + 1)`.
The polyhedral stage models each array as its own storage (as PPCG and Pluto do), which is only correct when
the arrays it schedules cannot overlap. This module tells which pairs can, from the object each memref is
built on (its root):

* an allocation made in the function (memref.alloc/alloca, llvm.alloca, malloc and its kin) or a global is an
  object of its own: two different ones never overlap (C11 6.5.6p8: pointer arithmetic stays in its object);
* an allocation whose address never escapes (only loaded and stored through) overlaps nothing else;
* a `restrict` parameter (llvm.noalias) overlaps nothing accessed through other pointers (C11 6.7.3.1);
* an allocation made in the function does not overlap memory reached through a parameter (which existed first);
* anything else (two parameters, a parameter and a global, a pointer loaded from memory) may overlap.

Pairs that may overlap are checked at run time before the scheduled code runs (alias_checks.py), as Polly does
(Grosser, Grosser and Hoefler, "Polly -- performing polyhedral optimizations on a low-level intermediate
representation", 2012; Polly's ScopInfo run-time alias checks).
"""

from __future__ import annotations

from mlir import ir


def array_base(mem):
    """A hashable identity of the storage behind memref value `mem`: the base pointer it was built on, or the
    allocation/argument itself."""
    v = mem
    while True:
        owner = v.owner
        if isinstance(owner, ir.Block):
            return v
        name = owner.operation.name
        if name in ("builtin.unrealized_conversion_cast", "memref.cast", "memref.reinterpret_cast"):
            v = owner.operands[0]
        elif name == "llvm.insertvalue":
            pos = list(ir.DenseI64ArrayAttr(owner.attributes["position"]))
            if pos == [1]:  # the aligned pointer field of a memref descriptor
                return owner.operands[1]
            v = owner.operands[0]
        else:
            return v


VERSIONED = "pgcc.alias_checked"  # an scf.if: scheduled code | the original loops (alias_checks.py)

ALLOCATIONS = ("memref.alloc", "memref.alloca", "llvm.alloca")
ALLOCATORS = ("malloc", "calloc", "aligned_alloc", "realloc", "valloc", "memalign")
THROUGH = ("affine.load", "affine.store", "memref.load", "memref.store")


def root(mem) -> tuple:
    """The object memref (or pointer) value `mem` points into: ("allocation", op), ("private", op) for an
    allocation whose address does not escape, ("global", symbol name), ("argument", index, restrict?) or
    ("unknown", value). Raises nothing."""
    base = array_base(mem)
    owner = base.owner
    if isinstance(owner, ir.Block):
        func = owner.owner
        if func is not None and func.operation.name == "func.func" and owner == func.regions[0].blocks[0]:
            index = ir.BlockArgument(base).arg_number
            return ("argument", index, _restrict(func.operation.opview, index))
        return ("unknown", base)
    op = owner.operation
    name = op.name
    if name in ALLOCATIONS or (name in ("llvm.call", "func.call") and _callee(op) in ALLOCATORS):
        return ("private" if not _escapes(base) else "allocation", op)
    if name == "memref.get_global":
        return ("global", ir.FlatSymbolRefAttr(op.attributes["name"]).value)
    if name == "llvm.mlir.addressof":
        return ("global", ir.FlatSymbolRefAttr(op.attributes["global_name"]).value)
    return ("unknown", base)


def may_overlap(a, b) -> bool:
    """Whether memref values `a` and `b` may address common bytes (see the module docstring). Raises nothing."""
    ra, rb = root(a), root(b)
    if _same(ra, rb):
        return True
    kinds = {ra[0], rb[0]}
    if "private" in kinds:
        return False
    if any(r[0] == "argument" and r[2] for r in (ra, rb)):
        return False
    if kinds <= {"allocation", "global"} or kinds == {"allocation", "argument"}:
        return False
    return True


def overlapping_pairs(memrefs: list, written) -> list:
    """(i, j) index pairs, i < j, of the memref values in `memrefs` that may overlap (may_overlap) where one of
    the two is in `written` (a collection of memref values). Raises nothing."""
    pairs = []
    for i, a in enumerate(memrefs):
        for j in range(i + 1, len(memrefs)):
            b = memrefs[j]
            if (any(a == w for w in written) or any(b == w for w in written)) and may_overlap(a, b):
                pairs.append((i, j))
    return pairs


def _same(ra, rb) -> bool:
    return ra[0] == rb[0] and ra[1] == rb[1]


def _restrict(func, index) -> bool:
    if "arg_attrs" not in func.attributes:
        return False
    attrs = ir.DictAttr(ir.ArrayAttr(func.attributes["arg_attrs"])[index])
    return "llvm.noalias" in attrs


def _callee(op) -> str:
    if "callee" not in op.attributes:
        return ""
    return ir.FlatSymbolRefAttr(op.attributes["callee"]).value


def _escapes(value) -> bool:
    """Whether the address `value` holds is used other than as the memref of a load or store (or through views
    of it that are themselves only loaded and stored through)."""
    for use in value.uses:
        user = use.owner
        name = user.name
        if name in THROUGH:
            store = name.endswith("store")
            if use.operand_number == (1 if store else 0):
                continue
            return True
        if name in ("memref.cast", "memref.reinterpret_cast", "memref.subview") and use.operand_number == 0:
            if _escapes(user.results[0]):
                return True
            continue
        return True
    return False
