"""Enzyme's split mode: ``__enzyme_augmentfwd`` runs the forward sweep and returns a tape, ``__enzyme_reverse`` runs
the reverse sweep from that tape (Enzyme's calling convention: the reverse call takes f's arguments and shadows,
the adjoint of f's floating result, then the tape; it returns the adjoints of the active scalars as
``__enzyme_autodiff`` does; Moses & Churavy, NeurIPS'20, sec. 4 "augmented forward pass").

The combined derivative (reverse.Reverse with extra ("split", ...)) is synthesized as for ``__enzyme_autodiff``,
with its seeds as arguments and a marker op where the forward sweep ends (everything after it, at the
function's top level, is the reverse sweep; values the reverse sweep recomputes are placed before the marker).
It is then cut at the marker into two functions:

- the *augmented forward* ``<f>.augment``: f's arguments and shadows, the ops before the marker, then a tape
  (malloc'd) holding every value those ops define that the ops after the marker use (integers, floats,
  pointers, LLVM aggregates as they are, memrefs as their address, offset, sizes and strides); it returns the
  tape (and f's result when the call site asks for it);
- the *reverse* ``<f>.reverse``: the same arguments, the seeds, the tape; it reads the values back, runs the ops
  after the marker and frees the tape.

Stack memory of the forward sweep that the reverse sweep still reads (caches, shadows of local objects) is
allocated on the heap instead and freed at the end of the reverse function. Between the two calls the program
must leave the memory the function reads as the augmented forward left it (Enzyme's contract too).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, llvm, memref

from polygeist_py.errors import error_at_op

from .prepare import struct_members



def _i64():
    return ir.IntegerType.get_signless(64)


def _ptr():
    return ir.Type.parse("!llvm.ptr")


def _top(op, block):
    """The ancestor of `op` (itself included) whose block is `block`, or None."""
    o = op.operation if hasattr(op, "operation") else op
    while o is not None and o.parent is not None:
        if o.block == block:
            return o
        o = o.parent
    return None


def _slot_bytes(t):
    """Bytes a tape slot for a value of type `t` takes: 8 per scalar (16 for wider ones), an LLVM aggregate the sum
    over its leaves (an upper bound of its size: no leaf is aligned beyond its own size); None when unsupported."""
    if isinstance(t, (ir.IntegerType, ir.IndexType, ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type)):
        return 16 if isinstance(t, ir.IntegerType) and ir.IntegerType(t).width > 64 else 8
    text = str(t)
    if text == "!llvm.ptr":
        return 8
    if text.startswith(("!llvm.struct", "!llvm.array")):
        return _aggregate_bytes(text[len("!llvm."):])
    return None


def _aggregate_bytes(text):
    """Upper bound of the size of LLVM type `text` (MLIR syntax without the dialect prefix: ``struct<(ptr, i64,
    array<2 x i64>)>``, ``array<4 x f64>``, ``ptr``, ``i32``...)."""
    import re
    text = text.strip()
    if text.startswith("array<"):
        n, _, elem = text[len("array<"):-1].partition(" x ")
        return int(n) * _aggregate_bytes(elem)
    if text.startswith("struct<"):
        return sum(_aggregate_bytes(x) for x in struct_members(text[text.index("(") + 1:text.rindex(")")]))
    m = re.fullmatch(r"[if](\d+)", text)
    if m:
        return 16 if int(m.group(1)) > 64 else 8
    return 8  # (ptr, bf16)


def _at(tape, off):
    from .raw_memory import _at as at
    return at(tape, off)


def _malloc_memref(rev, op, mt):
    """A memref of type `mt` (identity layout; dynamic sizes: the operands of memref.alloca `op`) over memory from
    the program's malloc (memref.alloc would be lowered to a second malloc declaration, which the program's own
    declaration makes a different symbol)."""
    from .cache import elem_bytes
    if ir.MemRefType.get(list(mt.shape), mt.element_type) != mt:
        raise error_at_op(op, "unsupported construct: split mode (__enzyme_augmentfwd) with a local array of "
                              "non-contiguous layout")
    dyn = iter(op.operands)
    dims = [arith.index_cast(_i64(), next(dyn)) if d < 0 else arith.constant(_i64(), d) for d in mt.shape]
    count = arith.constant(_i64(), 1)
    for d in dims:
        count = arith.muli(count, d)
    p = rev.libc("malloc", [arith.muli(count, arith.constant(_i64(), elem_bytes(mt.element_type)))], _ptr())
    rank = len(dims)
    arrays = f", array<{rank} x i64>, array<{rank} x i64>" if rank else ""
    d = llvm.UndefOp(ir.Type.parse(f"!llvm.struct<(ptr, ptr, i64{arrays})>")).result
    d = llvm.InsertValueOp(d, p, ir.DenseI64ArrayAttr.get([0])).result
    d = llvm.InsertValueOp(d, p, ir.DenseI64ArrayAttr.get([1])).result
    d = llvm.InsertValueOp(d, arith.constant(_i64(), 0), ir.DenseI64ArrayAttr.get([2])).result
    stride = arith.constant(_i64(), 1)
    for k in reversed(range(rank)):
        d = llvm.InsertValueOp(d, dims[k], ir.DenseI64ArrayAttr.get([3, k])).result
        d = llvm.InsertValueOp(d, stride, ir.DenseI64ArrayAttr.get([4, k])).result
        stride = arith.muli(stride, dims[k])
    return ir.Operation.create("builtin.unrealized_conversion_cast", [mt], [d]).result


def _heap(rev, op, frees):
    """Replace top-level stack allocation `op` (memref.alloca / llvm.alloca) of the forward sweep by a heap
    allocation; `frees` gets (the new value, kind) to release at the end of the reverse function."""
    from .raw_memory import alloca_bytes
    with ir.InsertionPoint(op), op.location:
        if op.operation.name == "memref.alloca":
            mt = ir.MemRefType(op.results[0].type)
            new = _malloc_memref(rev, op, mt)
        else:
            size = alloca_bytes(op)
            if size is None:
                raise error_at_op(op, "unsupported construct: split mode (__enzyme_augmentfwd) with a local object "
                                      "of unknown size")
            count = op.operands[0]
            if count.type != _i64():
                count = arith.extsi(_i64(), count)
            new = rev.libc("malloc", [arith.muli(count, arith.constant(_i64(), size))], _ptr())
    op.results[0].replace_all_uses_with(new)
    op.operation.erase()
    frees.append(new)
    return new


def split(rev, combined, aug_name, rev_name, want_primal):
    """Cut `combined` (the func.func reverse.Reverse built in split mode for `rev`) into the augmented forward
    `aug_name` and the reverse `rev_name` (module docstring); erases `combined`.

    Args:
        rev: the reverse.Reverse that built `combined` (its primal_results, libc).
        want_primal: whether the augmented forward returns f's results after the tape.
    Raises:
        CompileError: a value of a type the tape cannot hold crosses from the forward to the reverse sweep."""
    from .joined_shadows import rebuild
    from .prepare import memory_root
    entry = combined.regions[0].blocks[0]
    ftype = ir.FunctionType(ir.TypeAttr(combined.attributes["function_type"]).value)
    from .activity import is_float
    pftype = ir.FunctionType(ir.TypeAttr(rev.primal.attributes["function_type"]).value)
    nseed = sum(1 for t in pftype.results if is_float(t))
    nargs = len(ftype.inputs) - nseed

    def crossing():
        now = list(entry.operations)
        at = next(i for i, o in enumerate(now) if "pgcc.split" in o.operation.attributes)
        after = {o.operation for o in now[at + 1:]}
        out = []
        for o in now[:at]:
            for r in o.results:
                if any(_top(u.owner, entry) in after for u in r.uses):
                    out.append(r)
        return out

    # stack memory of the forward sweep that the reverse sweep reads: on the heap
    frees = []
    roots = set()
    for v in crossing():
        roots |= memory_root(v)
    for r in roots:
        o = r.owner
        if isinstance(o, ir.Block) or o.operation.name not in ("memref.alloca", "llvm.alloca"):
            continue
        now = list(entry.operations)
        at = next(i for i, x in enumerate(now) if "pgcc.split" in x.operation.attributes)
        if o.operation in {x.operation for x in now[:at]}:  # (a top-level stack object of the forward sweep)
            _heap(rev, o, frees)
    ops = list(entry.operations)
    k = next(i for i, o in enumerate(ops) if "pgcc.split" in o.operation.attributes)
    marker = ops[k]
    values = crossing()
    values += [x for x in frees if x not in values]  # (freed at the end of the reverse function)
    layout, off = [], 0
    for v in values:
        if isinstance(v.type, ir.MemRefType):
            rank = ir.MemRefType(v.type).rank
            layout.append((v, off, "memref"))
            off += 8 * (2 + 2 * rank)
            continue
        size = _slot_bytes(v.type)
        if size is None:
            raise error_at_op(v.owner, f"unsupported construct: split mode (__enzyme_augmentfwd) keeping a value of "
                                       f"type '{v.type}' for the reverse pass")
        layout.append((v, off, "value"))
        off += size

    with ir.InsertionPoint(combined), combined.location:
        results = [_ptr()] + ([v.type for v in rev.primal_results] if want_primal else [])
        aug = func.FuncOp(aug_name, ir.FunctionType.get(list(ftype.inputs)[:nargs], results), visibility="private")
        rv = func.FuncOp(rev_name, ir.FunctionType.get(list(ftype.inputs) + [_ptr()], list(ftype.results)),
                         visibility="private")
    rev.session.register(aug)
    rev.session.register(rv)
    with combined.location:
        ea, er = aug.add_entry_block(), rv.add_entry_block()
    with ir.InsertionPoint(ea), combined.location:
        aug_end = func.ReturnOp([])
    with ir.InsertionPoint(er), combined.location:
        rev_start = arith.constant(ir.IndexType.get(), 0).owner
        rev_end = arith.constant(ir.IndexType.get(), 0).owner
    for o in ops[:k]:
        o.operation.move_before(aug_end.operation)
    for o in ops[k + 1:]:
        o.operation.move_before(rev_end.operation)
    for i, a in enumerate(entry.arguments):
        for u in list(a.uses):
            owner = u.owner
            if _top(owner, ea) is not None:
                if i >= nargs:
                    raise error_at_op(owner, "internal: a seed used by the forward sweep in split mode")
                owner.operands[u.operand_number] = ea.arguments[i]
            elif _top(owner, er) is not None:
                owner.operands[u.operand_number] = er.arguments[i]
    # the tape: written at the end of the augmented forward, read at the start of the reverse
    with ir.InsertionPoint(aug_end), combined.location:
        tape = rev.libc("malloc", [arith.constant(_i64(), max(off, 8))], _ptr())
        for v, at, kind in layout:
            if kind == "memref":
                rank = ir.MemRefType(v.type).rank
                meta = list(memref.ExtractStridedMetadataOp(v).results)[1:]
                parts = [arith.index_cast(_i64(), memref.ExtractAlignedPointerAsIndexOp(v).result)] + \
                    [arith.index_cast(_i64(), x) for x in meta]
                for j, x in enumerate(parts):
                    llvm.StoreOp(x, _at(tape, at + 8 * j))
            else:
                x = arith.index_cast(_i64(), v) if isinstance(v.type, ir.IndexType) else v
                llvm.StoreOp(x, _at(tape, at))
        prim = []
        if want_primal:
            for v in rev.primal_results:
                if isinstance(v.owner, ir.Block) and v.owner == entry:
                    v = ea.arguments[list(entry.arguments).index(v)]
                prim.append(v)
        func.ReturnOp([tape] + prim)
    aug_end.operation.erase()
    rtape = er.arguments[len(er.arguments) - 1]
    with ir.InsertionPoint(rev_start), combined.location:
        for v, at, kind in layout:
            if kind == "memref":
                rank = ir.MemRefType(v.type).rank
                parts = [llvm.LoadOp(_i64(), _at(rtape, at + 8 * j)).result for j in range(2 + 2 * rank)]
                idx = [arith.index_cast(ir.IndexType.get(), x) for x in parts[1:]]
                new = rebuild(v.type, parts[0], idx[0], idx[1:1 + rank], idx[1 + rank:])
            elif isinstance(v.type, ir.IndexType):
                new = arith.index_cast(ir.IndexType.get(), llvm.LoadOp(_i64(), _at(rtape, at)).result)
            else:
                new = llvm.LoadOp(v.type, _at(rtape, at)).result
            for u in list(v.uses):
                if _top(u.owner, er) is not None:
                    u.owner.operands[u.operand_number] = new
    ret = next(o for o in er.operations if o.operation.name == "func.return")
    with ir.InsertionPoint(ret), combined.location:
        for x in frees:
            rev.libc("free", [_freed_pointer(x, layout, rtape)], None)
        rev.libc("free", [rtape], None)
    rev_start.erase()
    rev_end.erase()
    marker.operation.erase()
    combined.operation.erase()


def _freed_pointer(x, layout, rtape):
    """The pointer (in the reverse function) of heap memory `x` made for a forward-sweep stack allocation: read
    back from its tape slot."""
    for v, at, kind in layout:
        if v == x:
            if kind == "memref":
                return llvm.IntToPtrOp(_ptr(), llvm.LoadOp(_i64(), _at(rtape, at)).result).result
            return llvm.LoadOp(_ptr(), _at(rtape, at)).result
    raise AssertionError("heap memory of the forward sweep without a tape slot")
