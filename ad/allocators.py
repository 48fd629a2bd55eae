"""Allocators in differentiated code: which calls allocate and release memory, and how shadows are made alike.

malloc, calloc and aligned_alloc (posix_memalign and allocators reached through function pointers are rewritten
into them by prepare.py), plus the program's allocators declared with Enzyme's
``void *__enzyme_allocation_like[4] = {alloc, (void *)size_arg, (void *)"-1,...", release}``: a shadow is an
allocation by the same allocator with the same arguments, zeroed over the allocation's size, released by free or
by the declared deallocator (called with the allocator's arguments at the listed indices, -1 = the pointer).
The table of custom allocators is per module: api_calls.Session sets it (set_custom_allocators).
"""

from __future__ import annotations

from mlir import ir

LIBC_MALLOCS = frozenset({"malloc", "calloc", "aligned_alloc"})
# allocators whose shadow is an allocation like theirs, zeroed: the C library's and the program's
# __enzyme_allocation_like allocators (set by set_custom_allocators for the module being differentiated)
MALLOCS = set(LIBC_MALLOCS)
CUSTOM_ALLOCATORS = {}   # allocator -> (size argument index, deallocator, deallocator's argument indices)
DEALLOCATORS = {}        # deallocator -> its allocator


def set_custom_allocators(table) -> None:
    """Make the allocators of `table` ({name: (size index, deallocator, [argument indices, -1 = the pointer])},
    from __enzyme_allocation_like) allocators for AD, in place of the previous module's."""
    MALLOCS.clear()
    MALLOCS.update(LIBC_MALLOCS | set(table))
    CUSTOM_ALLOCATORS.clear()
    CUSTOM_ALLOCATORS.update(table)
    DEALLOCATORS.clear()
    DEALLOCATORS.update({free: alloc for alloc, (_, free, _) in table.items()})


def alloc_bytes(callee, args):
    """The size in bytes (an i64 Value) of the allocation `callee(*args)` for callee in MALLOCS."""
    from mlir.dialects import arith
    if callee == "calloc":
        return arith.muli(args[0], args[1])
    if callee in CUSTOM_ALLOCATORS:
        n = args[CUSTOM_ALLOCATORS[callee][0]]
        i64 = ir.IntegerType.get_signless(64)
        return n if n.type == i64 else arith.extsi(i64, n)
    return args[1] if callee == "aligned_alloc" else args[0]


def is_free(callee) -> bool:
    """Whether `callee` releases memory: free or a custom allocator's deallocator."""
    return callee == "free" or callee in DEALLOCATORS


def shadow_release(callee, args, shadow):
    """Release `shadow` like the primal pointer passed to free/deallocator call `callee(*args)` (its other
    arguments kept)."""
    from mlir.dialects import func
    if callee == "free":
        args = [shadow]
    else:
        alloc = DEALLOCATORS[callee]
        at = CUSTOM_ALLOCATORS[alloc][2].index(-1)
        args = list(args[:at]) + [shadow] + list(args[at + 1:])
    func.CallOp([] if callee == "free" else _results_of(callee), ir.FlatSymbolRefAttr.get(callee), args)


def release_like_allocation(alloc_callee, alloc_args, shadow):
    """Release `shadow`, allocated by `alloc_callee(*alloc_args)`: free, or the custom allocator's deallocator
    called with the allocation's arguments at its indices (-1: the shadow)."""
    from mlir.dialects import func
    if alloc_callee not in CUSTOM_ALLOCATORS:
        _declare_free(shadow.type)
        func.CallOp([], ir.FlatSymbolRefAttr.get("free"), [shadow])
        return
    _, dealloc, indices = CUSTOM_ALLOCATORS[alloc_callee]
    func.CallOp(_results_of(dealloc), ir.FlatSymbolRefAttr.get(dealloc),
                [shadow if i == -1 else alloc_args[i] for i in indices])


def _results_of(name) -> list:
    """The result types of function `name` in the module of the insertion point (a deallocator declared to return
    something, as Enzyme's customalloc.c's `void *myfree(...)`: the call must say so)."""
    op = ir.InsertionPoint.current.block.owner
    while op.parent is not None:
        op = op.parent
    table = ir.SymbolTable(op)
    if name not in table:
        return []
    f = table[name]
    return list(ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value).results)


def _declare_free(ptr_type) -> None:
    """Declare `free` in the module of the insertion point when the program never named it (a C++ unit that
    only mallocs, as Enzyme's customglob test)."""
    from mlir.dialects import func
    op = ir.InsertionPoint.current.block.owner
    while op.parent is not None:
        op = op.parent
    if "free" in ir.SymbolTable(op):
        return
    with ir.InsertionPoint(op.regions[0].blocks[0]), ir.Location.unknown():
        func.FuncOp("free", ir.FunctionType.get([ptr_type], []), visibility="private")
