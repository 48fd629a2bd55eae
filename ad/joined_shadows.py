"""Reverse mode: shadows of pointers that loops and branches join (Enzyme's shadow phi nodes, kept on the tape).

A pointer carried by a loop or yielded by a branch may be a different buffer each time: two buffers swapped every
time step, a list head that is the record malloc'd in the previous iteration, a buffer that realloc moved in
some iteration. Its shadow must follow it. The forward sweep keeps the shadow of every such *slot* (an iteration
argument of scf.for / scf.while, a result of scf.if) in a one-element cell: the shadow of the incoming value is
stored before the loop (and before every yield / scf.condition), loaded at the start of the region and after
the op, so the shadow is known wherever the primal pointer is (``rev.joined[v]``). The reverse sweep reads the
shadow of such a pointer of one iteration back from a per-iteration cache (its address as an integer), as
Enzyme caches shadow pointers on its tape. The primal pointer of an iteration is cached the same way (a memref:
its base address, offset, sizes and strides).

realloc in the reverse sweep follows Enzyme's rule that the shadow follows the primal: the forward sweep gives
q = realloc(p, n) a zeroed shadow block of n bytes (the old shadow stays, as its adjoints are still to come), and
when the reverse sweep reaches the realloc, the adjoints gathered in q's shadow flow back into p's (its first
min(n, usable size) bytes) and q's shadow is freed.

Memrefs are rebuilt on a cached address with reinterpret_cast, the shadow with the primal's offset, sizes and
strides (a shadow mirrors the primal's layout).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, memref

from polygeist_py.errors import CompileError, error_at_op

from .activity import all_ops


def _i64():
    return ir.IntegerType.get_signless(64)


def _idx():
    return ir.IndexType.get()


def _ptr():
    return ir.Type.parse("!llvm.ptr")


def pointer_type(t) -> bool:
    """Memref or opaque LLVM pointer (the pointer values whose shadows a slot carries)."""
    return isinstance(t, ir.MemRefType) or str(t) == "!llvm.ptr"


def _terminator(block):
    return list(block.operations)[-1]


def slots(op):
    """The joined pointer slots of primal region op `op`: a list of (incoming [(value, position op)], values
    that are the slot's pointer [block arguments and results]). Positions are primal ops before which the
    incoming value is stored into the cell (the op itself for initial values)."""
    name = op.name
    out = []
    if name == "scf.for":
        body = op.regions[0].blocks[0]
        y = _terminator(body)
        for j, r in enumerate(op.results):
            out.append(([(op.operands[3 + j], op), (y.operands[j], y)], [body.arguments[1 + j], r]))
    elif name == "scf.while":
        before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
        cond, y = _terminator(before), _terminator(after)
        for j, a in enumerate(before.arguments):
            out.append(([(op.operands[j], op), (y.operands[j], y)], [a]))
        for k, r in enumerate(op.results):
            out.append(([(cond.operands[1 + k], cond)], [after.arguments[k], r]))
    elif name == "scf.if":
        for k, r in enumerate(op.results):
            ins = [(_terminator(reg.blocks[0]).operands[k], _terminator(reg.blocks[0]))
                   for reg in op.regions if len(reg.blocks)]
            out.append((ins, [r]))
    return [(ins, vals) for ins, vals in out if pointer_type(vals[0].type)]


def single_root_carried(rev, v) -> bool:
    """Whether memref block argument `v` is one that Reverse.carried_memref rebuilds on its initial buffer (a
    `p++` walk of one buffer), so it needs no slot."""
    from .prepare import memory_root
    if not isinstance(v.type, ir.MemRefType) or not isinstance(v.owner, ir.Block):
        return False
    block = v.owner
    loop = block.owner
    idx = list(block.arguments).index(v)
    if loop.name == "scf.for":
        init, yields, own = list(loop.operands)[3 + idx - 1], [_terminator(block).operands[idx - 1]], {v}
    elif loop.name == "scf.while":
        before, after = loop.regions[0].blocks[0], loop.regions[1].blocks[0]
        cargs = list(_terminator(before).operands)[1:]
        if block == after:
            carg = cargs[idx]
            if not (isinstance(carg.owner, ir.Block) and carg.owner == before):
                return False
            idx = list(before.arguments).index(carg)
        init = list(loop.operands)[idx]
        own = {before.arguments[idx]} | {after.arguments[k] for k, c in enumerate(cargs)
                                         if c == before.arguments[idx]}
        yields = [_terminator(after).operands[idx]]
    else:
        return False
    roots = memory_root(init)
    return rev.is_top(init) and all(memory_root(y) <= roots | own for y in yields)


def needs_slot(rev, v) -> bool:
    """Whether varied pointer `v` (a block argument of a loop or a result of scf.for/while/if) gets its shadow
    from a slot."""
    if not pointer_type(v.type) or not rev.act.is_varied(v):
        return False
    owner = v.owner
    if isinstance(owner, ir.Block):
        return owner.owner.name in ("scf.for", "scf.while") and not single_root_carried(rev, v)
    return owner.name in ("scf.for", "scf.while", "scf.if")


def prepare(rev):
    """After the forward sweep: give every region op with a pointer that needs a slot its forward-sweep shadows,
    and every realloc inside a loop or branch its forward-sweep shadow (before the reverse sweep makes any shadow
    lazily: both sweeps must use the same shadow of an allocation). An error is kept and raised only when the
    reverse sweep asks for that shadow."""
    for op in all_ops(rev.primal):
        if op.name == "func.call" and op.attributes["callee"].value == "realloc" and \
                rev.act.is_varied(op.results[0]) and (op.operation.block != rev.primal.regions[0].blocks[0] or
                                                      realloc_elements(op.results[0]) != realloc_float(op)):
            forward_realloc_shadow(rev, op)
        if op.name not in ("scf.for", "scf.while", "scf.if") or op.operation in rev.joined_setup:
            continue
        values = [v for _, vals in slots(op) for v in vals]
        if any(needs_slot(rev, v) for v in values):
            try:
                setup(rev, op)
            except CompileError as e:
                for v in values:
                    rev.joined_errors.setdefault(v, e)


def _address(v):
    """The address pointer value `v` (forward sweep) holds, as i64: a memref's aligned base pointer."""
    if isinstance(v.type, ir.MemRefType):
        return arith.index_cast(_i64(), memref.ExtractAlignedPointerAsIndexOp(v).result)
    return llvm.PtrToIntOp(_i64(), v).result


def rebuild(mt, address, offset, sizes, strides):
    """A memref of type `mt` over `address` (i64) with the given (index) offset, sizes and strides (only the
    dynamic ones of `mt` are used), at the insertion point."""
    from .cache import memref_of
    mt = ir.MemRefType(mt)
    base = memref.ExtractStridedMetadataOp(memref_of(llvm.IntToPtrOp(_ptr(), address).result,
                                                     mt.element_type)).results[0]
    layout = ir.StridedLayoutAttr(mt.layout) if isinstance(mt.layout, ir.StridedLayoutAttr) else None
    dyn_off, dyn_size = ir.ShapedType.get_dynamic_stride_or_offset(), ir.ShapedType.get_dynamic_size()
    if layout is not None:
        st_off, st_strides = [layout.offset], list(layout.strides)
    else:  # identity layout: row-major strides of a static shape
        st_off, st_strides, acc = [0], [], 1
        for d in reversed(list(mt.shape)):
            st_strides.insert(0, acc)
            acc = acc * d if d != dyn_size and acc != dyn_off else dyn_off
    st_sizes = list(mt.shape)
    offs = [offset] if st_off[0] == dyn_off else []
    dsizes = [x for x, c in zip(sizes, st_sizes) if c == dyn_size]
    dstrides = [x for x, c in zip(strides, st_strides) if c == dyn_off]
    return memref.ReinterpretCastOp(mt, base, offs, dsizes, dstrides, st_off, st_sizes, st_strides).result


def like(mt, address, model):
    """A memref of type `mt` over `address` (i64) with the offset, sizes and strides of memref `model`."""
    meta = memref.ExtractStridedMetadataOp(model)
    rank = ir.MemRefType(mt).rank
    parts = list(meta.results)
    return rebuild(mt, address, parts[1], parts[2:2 + rank], parts[2 + rank:])


def is_null(v) -> bool:
    """Whether pointer `v` is a null pointer (also as a memref built over one)."""
    from .activity import PLUMBING, Worklist
    work = Worklist([v])
    for x in work:
        o = x.owner
        if isinstance(o, ir.Block):
            return False
        if o.name in ("llvm.mlir.zero", "llvm.mlir.null", "llvm.mlir.undef", "llvm.mlir.constant",
                      "arith.constant"):
            continue
        if o.name not in PLUMBING:
            return False
        work.push(o.operands)
    return True


def _incoming_shadow(rev, v, at):
    """The forward-sweep shadow address (i64) of pointer `v` flowing into a slot, at the insertion point."""
    from .raw_memory import fshadow
    if rev.act.is_varied(v):
        return _address(fshadow(rev, v))
    if is_null(v):  # (an empty list, `buf = NULL` before realloc grows it: the shadow is null too)
        return arith.constant(_i64(), 0)
    raise error_at_op(at, "unsupported construct: reverse mode through a loop or branch that joins a "
                          "differentiated pointer with one that has no shadow")


def setup(rev, op):
    """Forward sweep: cells for the pointer slots of primal region op `op` (see the module docstring)."""
    rev.joined_setup.add(op.operation)
    fop = rev.fops[op.operation]
    work = []
    for ins, vals in slots(op):
        if not any(rev.act.is_varied(v) for v in vals):
            continue
        with ir.InsertionPoint.at_block_begin(rev.entry), op.location:
            cell = memref.AllocaOp(ir.MemRefType.get([], _i64()), [], []).result
        for v in vals:  # the loads first: the incoming shadows may be this slot's own (p = p->next)
            fv = rev.vmap[v]
            if isinstance(v.owner, ir.Block):
                # (the block's per-iteration cache code goes after these loads: its anchor stays the first
                # op of the primal's copy)
                rev.fixed_anchors.setdefault(v.owner, list(fv.owner.operations)[0])
                ip = ir.InsertionPoint.at_block_begin(fv.owner)
            else:
                ip = ir.InsertionPoint.after(fop)
            with ip, op.location:
                bits = memref.LoadOp(cell, []).result
                sh = llvm.IntToPtrOp(_ptr(), bits).result if not isinstance(v.type, ir.MemRefType) else \
                    like(v.type, bits, fv)
            rev.joined[v], rev.joined_bits[v] = sh, bits
        work.append((ins, cell))
    for ins, cell in work:
        for v, at in ins:
            with ir.InsertionPoint(rev.fops[at.operation]), at.location:
                memref.StoreOp(_incoming_shadow(rev, v, at), cell, [])


def realloc_float(o):
    """("float", type) when realloc call `o` moves an array of one floating-point type (whose shadow the reverse
    sweep may make lazily at the function's top level: Reverse.realloc_shadow), else None."""
    kind = realloc_elements(o.results[0])
    return kind if kind is not None and kind[0] == "float" else None


def _slot_users(x):
    """The values that stand for pointer `x` after a use of it: plumbing results, and the results / block
    arguments of the region ops it is yielded to or carried into."""
    from .activity import PLUMBING
    out = []
    for u in x.uses:
        o = u.owner
        name = o.operation.name
        if name in PLUMBING:
            out += list(o.results)
        elif name in ("scf.yield", "scf.condition"):
            parent = o.operation.parent
            k = u.operand_number - (1 if name == "scf.condition" else 0)
            if k < 0:
                continue
            pname = parent.operation.name
            if k < len(parent.results):
                out.append(parent.results[k])
            if pname == "scf.for":
                out.append(parent.regions[0].blocks[0].arguments[1 + k])
            elif pname == "scf.while":
                region = 1 if name == "scf.condition" else 0
                out.append(parent.regions[region].blocks[0].arguments[k])
        elif name in ("scf.for", "scf.while") and u.operand_number >= (3 if name == "scf.for" else 0):
            k = u.operand_number - (3 if name == "scf.for" else 0)
            out.append(o.regions[0].blocks[0].arguments[k + (1 if name == "scf.for" else 0)])
    return out


def realloc_elements(v):
    """What the memory of realloc result `v` holds, from the typed accesses of `v` and of every pointer derived
    from it (views, offsets, the loop and branch slots it flows into): ("float", type) for an array of one
    floating-point type, ("bytes", None) when nothing in it is read or written as a float (pointers, integers:
    no adjoints), None for records mixing floats with other fields."""
    from .activity import Worklist, is_float
    types, work = set(), Worklist([v])
    for x in work:
        if isinstance(x.type, ir.MemRefType):
            types.add(ir.MemRefType(x.type).element_type)
        for u in x.uses:
            o = u.owner
            if o.operation.name == "llvm.load":
                types.add(o.results[0].type)
            elif o.operation.name == "llvm.store" and u.operand_number == 1:
                types.add(o.operands[0].type)
        work.push(_slot_users(x))
    floats = {t for t in types if is_float(t)}
    if not floats:
        return ("bytes", None)
    if len(types) == 1:
        return ("float", next(iter(floats)))
    return None


def forward_realloc_shadow(rev, o):
    """Forward sweep: the shadow of q = realloc(p, n) (primal call `o`): a zeroed block of n bytes made next to
    the realloc; the old shadow stays until the reverse sweep reaches the realloc (`realloc_back`). Memory that
    holds no floats (arrays of pointers, of records of pointers and integers) gets the old shadow's bytes copied
    (its first min(n, usable size) bytes), so the shadow pointers follow the primal's as realloc moves them.

    Raises:
        CompileError: q holds records mixing floats with pointers or integers."""
    got = rev.fwd_reallocs.get(o)
    if got is not None:
        return got
    kind = realloc_elements(o.results[0])
    if kind is None:
        raise error_at_op(o, "unsupported construct: reverse mode through realloc of records that mix "
                             "floating-point fields with pointers or integers")
    rev.realloc_kinds[o] = kind
    p = o.operands[0]
    with ir.InsertionPoint.after(rev.fops[o]), o.location:
        n = rev.vmap[o.operands[1]]
        sq = rev.libc("malloc", [n], _ptr())
        llvm.MemsetOp(sq, arith.constant(ir.IntegerType.get_signless(8), 0), n, ir.BoolAttr.get(False))
        if kind[0] == "bytes" and rev.act.is_varied(p) and not is_null(p):
            from .raw_memory import fshadow
            sp = fshadow(rev, p)
            usable = rev.libc("malloc_usable_size", [sp], _i64())
            llvm.MemcpyOp(sq, sp, arith.minui(n, usable), ir.BoolAttr.get(False))
    rev.fwd_reallocs[o] = sq
    if o.operation.block == rev.primal.regions[0].blocks[0]:
        rev.raw_shadows[o.results[0]] = sq
    else:
        rev.loop_shadows[o.results[0]] = sq
    return sq


def realloc_back(rev, o):
    """Reverse sweep at q = realloc(p, n) (primal call `o`, its shadow made by the forward sweep): the adjoints of
    the moved elements flow from q's shadow back into p's, then q's shadow is freed."""
    from mlir.dialects import scf
    from .cache import memref_of
    kind, elem = rev.realloc_kinds[o]
    sq = rev.shadow(o.results[0])
    if kind == "bytes":  # (no adjoints to move back: the shadow pointers were copied forward)
        rev.libc("free", [sq], None)
        return
    sp = rev.shadow(o.operands[0])
    usable = rev.libc("malloc_usable_size", [sp], _i64())
    width = arith.constant(_i64(), ir.FloatType(elem).width // 8)
    count = arith.index_cast(_idx(), arith.divui(arith.minui(rev.rv(o.operands[1]), usable), width))
    mp, mq = memref_of(sp, elem), memref_of(sq, elem)
    loop = scf.ForOp(arith.constant(_idx(), 0), count, arith.constant(_idx(), 1))
    with ir.InsertionPoint(loop.body):
        k = loop.induction_variable
        memref.StoreOp(arith.addf(memref.LoadOp(mp, [k]).result, memref.LoadOp(mq, [k]).result), mp, [k])
        scf.YieldOp([])
    rev.libc("free", [sq], None)


def reverse_shadow(rev, v, scope):
    """Reverse sweep: the shadow of slot pointer `v` in reversed scope `scope` (the forward sweep's shadow at the
    function level, else read back from its per-iteration cache)."""
    err = rev.joined_errors.get(v)
    if err is not None:
        raise err
    fsh = rev.joined[v]
    if rev.is_top(v):
        return fsh
    loc = v.owner.owner.location if isinstance(v.owner, ir.Block) else v.owner.location
    bits = rev.joined_bits[v]
    got = rev.caches.load_pseudo(("joined-shadow", v), rev.def_block(v), bits, scope, loc,
                                 at_anchor=isinstance(v.owner, ir.Block))
    with ir.InsertionPoint(scope.sentinel), loc:
        if isinstance(v.type, ir.MemRefType):
            return like(v.type, got, rev.rv(v))
        return llvm.IntToPtrOp(v.type, got).result


def cached_pointer(rev, v, scope):
    """Reverse sweep: primal pointer `v` (a memref or an llvm pointer defined inside a region, neither
    recomputable nor rebuilt on a known buffer) read back from per-iteration caches of its address (and, for a
    memref, its offset, sizes and strides)."""
    block = rev.def_block(v)
    fv = rev.vmap[v]
    owner = v.owner
    loc = owner.owner.location if isinstance(owner, ir.Block) else owner.location
    key = ("pointer", v)
    parts = rev.__dict__.setdefault("pointer_parts", {})
    if key not in parts:
        if isinstance(owner, ir.Block):
            ip = ir.InsertionPoint(rev.caches.anchor(block))
        else:
            ip = ir.InsertionPoint.after(fv.owner)
        with ip, loc:
            if isinstance(v.type, ir.MemRefType):
                meta = memref.ExtractStridedMetadataOp(fv)
                parts[key] = [_address(fv)] + list(meta.results)[1:]
            else:
                parts[key] = [_address(fv)]
    vals = [rev.caches.load_pseudo((key, i), block, p, scope, loc, at_anchor=isinstance(owner, ir.Block))
            for i, p in enumerate(parts[key])]
    with ir.InsertionPoint(scope.sentinel), loc:
        if isinstance(v.type, ir.MemRefType):
            rank = ir.MemRefType(v.type).rank
            return rebuild(v.type, vals[0], vals[1], vals[2:2 + rank], vals[2 + rank:])
        return llvm.IntToPtrOp(v.type, vals[0]).result
