"""Raw bytes in AD: struct and union objects, arrays of pointers, pointers stored into memory (docs/memory_model.md:
``llvm.alloca`` objects, ``llvm.load``/``llvm.store`` at byte offsets, ``llvm.intr.memmove``/``memcpy`` copies).

Shadow memory mirrors the primal bytes (Enzyme's convention): a float field's shadow holds its tangent (forward
mode) or adjoint (reverse mode), a pointer field's shadow holds the shadow pointer, an integer field is unused.

Forward mode: every write is mirrored on the shadow; a copy copies the shadow bytes (tangents and shadow pointers
alike), so no layout is needed.

Reverse mode: the *forward sweep* writes the shadow pointers (a store of a differentiated pointer, the pointer
fields of a copy) into shadow memory that exists from the start (argument shadows; shadows of ``llvm.alloca``
objects are made by the forward sweep next to the primal object), so code that reads a pointer back from memory
(the reverse sweep reloading it, the derivative of a recursive call taking a struct copy) finds its shadow. Float
fields get adjoints in the reverse sweep: a load adds its adjoint to the shadow field, a store moves the shadow
field into the stored value's adjoint and zeroes it, a copy moves the destination's float fields into the
source's. Which bytes of a copied record are floats and which are pointers is read off the typed accesses of the
memory the copy connects (`RecordLayout`: loads, stores, further copies, and the same memory in called functions);
when that cannot be seen the copy is a compile error naming it, never a guess.

Bytes moved through a value (a struct passed by value, which the C ABI moves in i64/double pieces; `*(long *)q =
*(long *)p`) are a copy of those bytes when the value is only stored (`move_copy`): forward mode moves the
shadow's bytes with them, reverse mode handles them like a copy of the fields they cover.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm

from polygeist_py.errors import error_at_op

from .libm import NAMES as LIBM_NAMES, WRITES_INT as LIBM_WRITES_INT
from .activity import COPIES, MALLOCS, PLUMBING, RAW_ALLOCS, all_ops, is_float, is_pointer_like
from .allocators import alloc_bytes, is_free, release_like_allocation

DYNAMIC_INDEX = -2147483648  # rawConstantIndices entry of an llvm.getelementptr index given as an operand


def _i8():
    return ir.IntegerType.get_signless(8)


def _i64():
    return ir.IntegerType.get_signless(64)


def _ptr():
    return ir.Type.parse("!llvm.ptr")


def const_int(v):
    """The integer value of an arith.constant / llvm.mlir.constant `v`, else None."""
    o = v.owner
    if isinstance(o, ir.Block) or o.operation.name not in ("arith.constant", "llvm.mlir.constant"):
        return None
    try:
        return ir.IntegerAttr(o.attributes["value"]).value
    except (ValueError, KeyError):
        return None


def type_bytes(t):
    """Size in bytes of a scalar LLVM/builtin type (None when unknown)."""
    if isinstance(t, ir.IntegerType):
        return max(ir.IntegerType(t).width // 8, 1)
    if isinstance(t, ir.F64Type):
        return 8
    if isinstance(t, ir.F32Type):
        return 4
    if isinstance(t, ir.F16Type) or isinstance(t, ir.BF16Type):
        return 2
    if str(t) == "!llvm.ptr":
        return 8
    return None


def gep_offset(op):
    """The constant byte offset an llvm.getelementptr adds (one index, scalar element type), else None."""
    raw = list(ir.DenseI32ArrayAttr(op.attributes["rawConstantIndices"]))
    if len(raw) != 1:
        return None
    size = type_bytes(ir.TypeAttr(op.attributes["elem_type"]).value)
    if size is None:
        return None
    if raw[0] != DYNAMIC_INDEX:
        return raw[0] * size
    k = const_int(op.operands[1]) if len(op.operands) == 2 else None
    return None if k is None else k * size


def base_and_offset(v):
    """(base pointer, constant byte offset of `v` from it) through constant getelementptrs."""
    off = 0
    while True:
        o = v.owner
        if isinstance(o, ir.Block) or o.operation.name != "llvm.getelementptr":
            return v, off
        g = gep_offset(o)
        if g is None:
            return v, off
        off += g
        v = o.operands[0]


def alloca_bytes(op):
    """The byte size of one element of llvm.alloca `op` (its count operand says how many), or None when its
    element type has no known size."""
    return type_bytes(ir.TypeAttr(op.attributes["elem_type"]).value)


class LayoutError(Exception):
    """Why the float and pointer fields of copied memory cannot be told apart (op, message)."""


class RecordLayout:
    """Float and pointer fields of memory joined by copies: each *root* (a function argument, an llvm.alloca, a
    malloc result) gets {byte offset: type} from the typed llvm.load/llvm.store at constant offsets from it, from
    the memory it is copied to or from (memmove/memcpy), and from the same memory in the functions it is passed
    to (their argument). Integers are left out (they carry no derivative).

    A member array seen as a memref (`s.v[i]`) contributes its element type from its first element to the next
    field. Bytes moved through a value (a load whose value is only stored, `is_move_value`) link the two places
    like a copy.

    Raises (from `fields`): LayoutError naming the access that hides the layout (a variable offset, the address
    stored into memory or returned, a call of a function without a body, fields of different kinds at one
    offset).
    """

    def __init__(self, session):
        self.session = session
        self.slots = {}    # root -> {offset: type}
        self.runs = {}     # root -> {offset: element type} of member arrays (seen as memrefs)
        self.links = []    # (root a, offset a, root b, offset b, length or None)
        self.done = set()
        self.varying = {}  # root -> {(type, at)} read or written at offsets only known at run time

    def root_of(self, v, at):
        """(root, byte offset) of pointer `v`: the offset is None when a getelementptr on the way has a run-time
        index (the root is then uniform or an error: walk_varying, uniform)."""
        base, off = base_and_offset(v)
        o = base.owner
        while not isinstance(o, ir.Block) and o.operation.name == "llvm.getelementptr":
            base, _ = base_and_offset(o.operands[0])  # (past a run-time index)
            o, off = base.owner, None
        if off is None:
            root, _ = self.root_of(base, at)
            self.varying.setdefault(root, set())
            return root, None
        if isinstance(o, ir.Block):
            if o.owner is not None and o.owner.operation.name == "func.func":
                return base, off
        elif o.operation.name in RAW_ALLOCS or \
                (o.operation.name == "func.call" and o.attributes["callee"].value in MALLOCS):
            return base, off
        raise LayoutError(at, "the copied memory is reached through a pointer read from memory or computed")

    def visit(self, root):
        if root in self.done:
            return
        self.done.add(root)
        self.slots.setdefault(root, {})
        self.walk(root, root, 0)

    def add(self, root, off, t, at, table=None):
        """Record a field of type `t` at byte `off` of `root` (in `table`: self.slots, or self.runs for the
        first element of a member array)."""
        table = self.slots if table is None else table
        if not (is_float(t) or str(t) == "!llvm.ptr"):
            return False
        have = table.setdefault(root, {})
        old = have.get(off)
        if old is not None and old != t:
            raise LayoutError(at, f"the bytes at offset {off} are read both as {old} and as {t}")
        have[off] = t
        return old is None

    def walk(self, root, p, c):
        for use in list(p.uses):
            o, k = use.owner, use.operand_number
            name = o.operation.name
            if name == "llvm.getelementptr" and k == 0:
                g = gep_offset(o)
                if g is None:  # (an array of records indexed at run time: uniform records only, see fields)
                    self.walk_varying(root, o.results[0])
                else:
                    self.walk(root, o.results[0], c + g)
            elif name == "llvm.load":
                if is_move_value(o.results[0]):  # bytes moved through a value: a link, not a field
                    n = type_bytes(o.results[0].type)
                    for u in o.results[0].uses:
                        other, ooff = self.root_of(u.owner.operands[1], o)
                        ooff = self.fixed(root, ooff)
                        self.links.append((root, c, other, ooff, n))
                        self.visit(other)
                else:
                    self.add(root, c, o.results[0].type, o)
            elif name == "llvm.store" and k == 1:
                src = move_source(o)
                if src is not None:
                    other, ooff = self.root_of(src.operands[0], o)
                    ooff = self.fixed(root, ooff)
                    self.links.append((root, c, other, ooff, type_bytes(o.operands[0].type)))
                    self.visit(other)
                else:
                    self.add(root, c, o.operands[0].type, o)
            elif name in COPIES and k in (0, 1):
                n = const_int(o.operands[2])
                if n is None:
                    raise LayoutError(o, "a copy of a variable number of bytes")
                other, ooff = self.root_of(o.operands[1 - k], o)
                ooff = self.fixed(root, ooff)
                self.links.append((root, c, other, ooff, n))
                self.visit(other)
            elif name == "llvm.insertvalue" and k == 1 and _array_view(o) is not None:
                # a member array seen as a memref (`s.v[i]`): elements of its type from here on
                self.add(root, c, _array_view(o), o, self.runs)
            elif name == "llvm.intr.memset" and k == 0:
                pass
            elif name == "llvm.icmp":
                pass
            elif name == "func.call":
                callee = o.attributes["callee"].value
                if is_free(callee):
                    continue
                f = self.session.funcs.get(callee)
                if f is None or not len(f.regions[0].blocks):
                    raise LayoutError(o, f"the memory is passed to '{callee}', whose body is not in this file")
                arg = f.regions[0].blocks[0].arguments[k]
                self.links.append((root, c, arg, 0, None))
                self.visit(arg)
            else:
                raise LayoutError(o, f"the memory is used by '{name}'")

    def fixed(self, root, off):
        """`off`, or 0 when it is None (the other end of a link at a run-time offset: `root` is then uniform)."""
        if off is None:
            self.varying.setdefault(root, set())
            return 0
        return off

    def walk_varying(self, root, p):
        """The accesses of `root` through pointer `p` at an offset known only at run time (`ps[i].a`): their types
        are recorded in self.varying; anything else that uses such a pointer hides the layout."""
        for use in list(p.uses):
            o, k = use.owner, use.operand_number
            name = o.operation.name
            if name == "llvm.getelementptr" and k == 0:
                self.walk_varying(root, o.results[0])
            elif name == "llvm.load" and not is_move_value(o.results[0]):
                self.varying.setdefault(root, set()).add((o.results[0].type, o))
            elif name == "llvm.store" and k == 1 and move_source(o) is None:
                self.varying.setdefault(root, set()).add((o.operands[0].type, o))
            elif name == "llvm.insertvalue" and k == 1 and _array_view(o) is not None:
                self.varying.setdefault(root, set()).add((_array_view(o), o))
            elif name in COPIES and k in (0, 1) and const_int(o.operands[2]) is not None:
                # (a record copied from or to a run-time index: linked, so that both sides are uniform)
                other, ooff = self.root_of(o.operands[1 - k], o)
                self.links.append((root, 0, other, ooff or 0, const_int(o.operands[2])))
                self.varying.setdefault(root, set())
                self.visit(other)
            else:
                raise LayoutError(o, "a struct field or element at a variable offset")

    def uniform(self, roots, copy, n):
        """For a copy of `n` bytes between `roots` where some are accessed at run-time offsets: the fields when
        every access of them (fixed or not) is of one floating-point type and `n` is a multiple of its size (an
        array of records of doubles is an array of doubles), else the LayoutError naming a varying access."""
        types, at = {}, copy
        for r in roots:
            for t, o in self.varying.get(r, ()):
                # (an integer field carries no derivative: its shadow bytes stay zero in reverse mode, so moving
                # them as floats of the uniform type adds zeros; `ps[i].k` next to double fields)
                if isinstance(t, ir.IntegerType):
                    continue
                types[str(t)] = t
            for table in (self.slots, self.runs):
                types.update((str(t), t) for t in table.get(r, {}).values())
        elem = next(iter(types.values())) if len(types) == 1 else None
        if elem is None or not is_float(elem) or n % type_bytes(elem):
            raise LayoutError(at, "a struct field or element at a variable offset")
        size = type_bytes(elem)
        for r in roots:
            for table in (self.slots, self.runs):
                if any(off % size for off in table.get(r, {})):
                    raise LayoutError(at, "a struct field or element at a variable offset")
        return [(o, elem) for o in range(0, n, size)]

    def solve(self):
        changed = True
        while changed:
            changed = False
            for a, oa, b, ob, n in self.links:
                for (x, ox, y, oy) in ((a, oa, b, ob), (b, ob, a, oa)):
                    for table in (self.slots, self.runs):
                        for off, t in list(table.get(x, {}).items()):
                            if off >= ox and (n is None or off < ox + n):
                                changed |= self.add(y, off - ox + oy, t, None, table)

    def fields(self, copy, dst=None, src=None, n=None):
        """[(offset from the copy's start, type)] of the float and pointer fields a memmove/memcpy copies (or the
        move of `n` bytes from `src` to `dst` that op `copy` makes). A member array's elements run from its first
        one to the next field or the end of the copy."""
        if dst is None:
            dst, src, n = copy.operands[0], copy.operands[1], const_int(copy.operands[2])
        if n is None:
            raise LayoutError(copy, "a copy of a variable number of bytes")
        ends = [self.root_of(dst, copy), self.root_of(src, copy)]
        for r, _ in ends:
            self.visit(r)
        self.solve()
        reached = _linked_roots(self.links, {r for r, _ in ends})
        if any(r in self.varying for r in reached) or any(off is None for _, off in ends):
            return self.uniform(reached, copy, n)
        out, runs = {}, {}
        for r, off in ends:
            for table, into in ((self.slots, out), (self.runs, runs)):
                for o, t in table.get(r, {}).items():
                    if off <= o < off + n:
                        if into.get(o - off, t) != t:
                            raise LayoutError(copy, f"the bytes at offset {o - off} are read both as "
                                                    f"{into[o - off]} and as {t}")
                        into[o - off] = t
        for start, elem in sorted(runs.items()):
            size = type_bytes(elem)
            end = min([o for o, u in out.items() if o > start and u != elem] + [n])
            for o in range(start, end - size + 1, size):
                if out.get(o, elem) != elem:
                    raise LayoutError(copy, f"the bytes at offset {o} are read both as {out[o]} and as {elem}")
                out[o] = elem
        return sorted(out.items())


def _linked_roots(links, roots):
    """`roots` and every root a link connects them to (transitively)."""
    out, changed = set(roots), True
    while changed:
        changed = False
        for a, _, b, _, _ in links:
            for x, y in ((a, b), (b, a)):
                if x in out and y not in out:
                    out.add(y)
                    changed = True
    return out


def _array_view(insert):
    """The float element type when llvm.insertvalue `insert` puts a pointer into a memref descriptor (positions
    [0] or [1]) that becomes a memref of floats (the frontend's view of a member array), else None."""
    pos = list(ir.DenseI64ArrayAttr(insert.attributes["position"]))
    if pos not in ([0], [1]):
        return None
    work, seen = [insert.results[0]], 0
    while work and seen < 16:
        seen += 1
        v = work.pop()
        for u in v.uses:
            o = u.owner
            if o.operation.name == "llvm.insertvalue" and u.operand_number == 0:
                work.append(o.results[0])
            elif o.operation.name == "builtin.unrealized_conversion_cast" and isinstance(o.results[0].type,
                                                                                         ir.MemRefType):
                elem = ir.MemRefType(o.results[0].type).element_type
                return elem if is_float(elem) else None
    return None


def is_move_value(v) -> bool:
    """Whether `v` (an llvm.load result) only moves bytes: an integer or float whose every use stores it into
    raw memory (a struct passed by value in integer or SSE pieces, `*(long *)q = *(long *)p`)."""
    if not (is_float(v.type) or isinstance(v.type, ir.IntegerType)) or type_bytes(v.type) is None:
        return False
    uses = list(v.uses)
    return bool(uses) and all(u.owner.operation.name == "llvm.store" and u.operand_number == 0
                              and is_raw(u.owner.operands[1]) for u in uses)


def move_source(store):
    """The llvm.load of raw memory whose value llvm.store `store` writes when that value only moves bytes
    (is_move_value), else None."""
    v = store.operands[0]
    o = v.owner
    if isinstance(o, ir.Block) or o.operation.name != "llvm.load" or not is_raw(o.operands[0]):
        return None
    return o if is_move_value(v) else None


def move_copy(rev, store):
    """The fields of the bytes llvm.store `store` moves when the move must be differentiated as a copy (its value
    is an integer holding float or pointer bytes, or a float whose bytes are read as other floats), else None
    (a plain integer, or a float whose value carries its derivative).

    Raises:
        CompileError: such a move whose source memory may be written between its load and its store."""
    load = move_source(store)
    if load is None or not rev.act.is_varied(load.operands[0]):
        return None
    memo = rev.__dict__.setdefault("move_layouts", {})
    if store in memo:
        return memo[store]
    t = store.operands[0].type
    try:
        fields = RecordLayout(rev.session).fields(store, store.operands[1], load.operands[0], type_bytes(t))
    except LayoutError as e:
        if is_float(t):
            fields = [(0, t)]
        else:
            raise error_at_op(store, "unsupported construct: reverse mode through differentiated bytes moved "
                                     f"through an integer whose fields pgcc cannot tell apart ({e.args[1]})") from None
    plain = (is_float(t) and fields in ([(0, t)], [])) or \
        (not is_float(t) and not any(is_float(ft) or str(ft) == "!llvm.ptr" for _, ft in fields))
    got = None if plain else fields
    if got is not None:
        _check_nothing_written_between(rev, load, store)
    memo[store] = got
    return got


def _check_nothing_written_between(rev, load, store):
    from .cache import Overwrites
    caches = getattr(rev, "caches", None)  # (None during the forward sweep)
    ow = caches.overwrites if caches is not None and caches.overwrites is not None else \
        Overwrites(rev.primal, rev.session, getattr(rev, "taped", False))
    if load.operation.block != store.operation.block:
        raise error_at_op(store, "unsupported construct: reverse mode through differentiated bytes moved through "
                                 "an integer across a loop or branch")
    reads = ow.roots(load.operands[0])
    between = False
    for o in load.operation.block.operations:
        if o.operation == load.operation:
            between = True
            continue
        if o.operation == store.operation:
            return
        if between:
            for inner in [o] + all_ops(o):
                w = ow.writes_of(inner)
                if w is None or (w and ow.alias(reads, w)):
                    raise error_at_op(store, "unsupported construct: reverse mode through differentiated bytes "
                                             "moved through an integer while their source is written")


def copy_fields(rev, op):
    """The fields of copy `op` (memoized on the Reverse instance).

    Raises:
        CompileError: the layout cannot be seen (RecordLayout).
    """
    memo = rev.__dict__.setdefault("copy_layouts", {})
    if op in memo:
        return memo[op]
    try:
        got = RecordLayout(rev.session).fields(op)
    except LayoutError as e:
        at, why = e.args
        raise error_at_op(op, "unsupported construct: reverse mode through a copy of memory holding "
                              f"differentiated values whose fields pgcc cannot tell apart ({why})") from None
    memo[op] = got
    return got


def is_raw(v) -> bool:
    return str(v.type) == "!llvm.ptr"


# ---------------------------------------------------------------------------------------------- forward mode
def fwd_alloca_rule(fw, op):
    """llvm.alloca holding varied values: a zero-filled shadow object of the same size."""
    new = fw.clone(op)
    if fw.act.is_varied(op.results[0]):
        fw.tmap[op.results[0]] = shadow_alloca(op, new)


def shadow_alloca(op, new):
    """A zeroed llvm.alloca like `new` (the clone of primal llvm.alloca `op`) at the insertion point."""
    size = alloca_bytes(op)
    if size is None:
        raise error_at_op(op, "unsupported construct: a differentiated local object of unknown size")
    sh = new.clone()
    count = sh.operands[0]
    nbytes = arith.muli(arith.extsi(_i64(), count) if count.type != _i64() else count,
                        arith.constant(_i64(), size))
    llvm.MemsetOp(sh.results[0], arith.constant(_i8(), 0), nbytes, ir.BoolAttr.get(False))
    return sh.results[0]


def fwd_store_rule(fw, op):
    """llvm.store into raw bytes: the tangent of a float, the shadow of a pointer, an integer as it is, go to the
    same place in the shadow memory."""
    fw.clone(op)
    val, mem = op.operands[0], op.operands[1]
    sm = fw.t(mem)
    if sm is None:
        if fw.act.is_varied(val) and not fw.session.in_inactive_global(mem):
            raise error_at_op(op, "storing an active value into memory that has no shadow (an enzyme_const "
                                  "argument or a global)")
        return
    if is_float(val.type):
        sv = fw.tangent_or_zero(val)
    elif is_pointer_like(val.type):
        sv = shadow_of_stored_pointer(op, val, fw.t(val) if fw.act.is_varied(val) else None, fw.p(val))
    elif move_source(op) is not None:  # bytes moved through an integer: the shadow's bytes move too
        sv = fw.t(val) if fw.t(val) is not None else arith.constant(val.type, 0)
    elif fw.act.is_varied(val):  # a pointer kept as an integer ((uintptr_t)x): its shadow, as an integer
        sv = fw.t(val)
        if sv is None:
            raise error_at_op(op, "unsupported construct: storing an integer computed from a differentiated "
                                  "address into memory that holds differentiated values")
    else:
        check_unshadowed_address(op, val)
        sv = fw.p(val)
    st = op.clone()
    st.operands[0] = sv
    st.operands[1] = sm


def shadow_of_stored_pointer(op, val, shadow, primal):
    """What a store of pointer `val` writes into shadow memory: its shadow, or null for a null pointer.

    Raises:
        CompileError: a pointer without a shadow stored where differentiated pointers live."""
    if shadow is not None:
        return shadow
    o = val.owner
    if not isinstance(o, ir.Block) and o.operation.name in ("llvm.mlir.zero", "llvm.mlir.null"):
        return primal
    if _points_to_constants(val):
        return primal  # a string literal or other constant data: nothing to differentiate, read the same bytes
    if not isinstance(o, ir.Block) and o.operation.name == "builtin.unrealized_conversion_cast" and \
            len(o.operands) == 1 and not isinstance(o.operands[0].owner, ir.Block) and \
            o.operands[0].owner.operation.name == "func.constant":
        return primal  # a function pointer (calls through it are not differentiated)
    raise error_at_op(op, "unsupported construct: storing a pointer that has no shadow (an enzyme_const argument "
                          "or a global) into memory that holds differentiated values")


def check_unshadowed_address(op, val):
    """An integer `val` stored by `op` into shadowed memory without a shadow of its own: when it is the address of
    memory (ptrtoint of a pointer without a shadow), the error shadow_of_stored_pointer gives; a plain integer,
    or the address of constant data, is copied as it is.

    Raises:
        CompileError: the integer is the address of memory that has no shadow."""
    from .activity import Worklist
    work = Worklist([val])
    for v in work:
        o = v.owner
        if isinstance(o, ir.Block):
            continue
        if o.operation.name in ("llvm.ptrtoint", "memref.extract_aligned_pointer_as_index"):
            if not _points_to_constants(o.operands[0]):
                raise error_at_op(op, "unsupported construct: storing the address of memory that has no shadow "
                                      "(an enzyme_const argument or a global), as an integer, into memory that "
                                      "holds differentiated values")
            continue
        if o.operation.name in PLUMBING:
            work.push(o.operands)


def _points_to_constants(v) -> bool:
    """Whether pointer `v` is derived only from constant globals (string literals, const tables), through
    llvm.mlir.addressof or memref.get_global and pointer plumbing."""
    from .prepare import memory_root
    roots = memory_root(v)
    if not roots:
        return False
    for r in roots:
        o = r.owner
        if isinstance(o, ir.Block):
            return False
        kind = o.operation.name
        if kind == "llvm.mlir.addressof":
            name, gkind = ir.FlatSymbolRefAttr(o.attributes["global_name"]).value, "llvm.mlir.global"
        elif kind == "memref.get_global":
            name, gkind = ir.FlatSymbolRefAttr(o.attributes["name"]).value, "memref.global"
        else:
            return False
        top = o.operation
        while top.parent is not None:
            top = top.parent
        g = next((g for g in top.regions[0].blocks[0].operations if g.operation.name == gkind
                  and ir.StringAttr(g.attributes["sym_name"]).value == name), None)
        if g is None or "constant" not in g.attributes:
            return False
    return True


def fwd_copy_rule(fw, op):
    """memcpy/memmove: the shadow bytes are copied too (zeroed when the source has none)."""
    fw.clone(op)
    dst, src, n = op.operands[0], op.operands[1], op.operands[2]
    sd, ss = fw.t(dst), fw.t(src)
    if sd is not None:
        if ss is not None:
            fw.shadow_clone(op)
        else:
            llvm.MemsetOp(sd, arith.constant(_i8(), 0), fw.p(n), ir.BoolAttr.get(False))
    elif ss is not None:
        raise error_at_op(op, "copying differentiated memory into memory that has no shadow")


# ---------------------------------------------------------------------------------------------- reverse mode
def forward_sweep_shadows(rev, top):
    """After the forward sweep cloned top-level primal op `top`: make the shadows of its llvm.alloca objects and
    write the shadow pointers of its pointer stores and record copies (see the module docstring).

    Raises:
        CompileError: a differentiated llvm.alloca inside a region; pointers that cannot get their shadow.
    """
    for o in [top] + all_ops(top):
        name = o.operation.name
        if name == "func.call" and o.attributes["callee"].value in rev.session.gradient_rules:
            augmented_call(rev, o)
        elif name == "func.call" and _taped(rev, o):
            from .rules_reverse import taped_call
            taped_call(rev, o)
        elif name in RAW_ALLOCS:
            if not rev.act.is_varied(o.results[0]):
                continue
            if o != top:
                raise error_at_op(o, "unsupported construct: reverse mode with a differentiated local object "
                                     "allocated inside a loop or branch")
            with ir.InsertionPoint.after(rev.fops[o]), o.location:
                rev.raw_shadows[o.results[0]] = shadow_alloca(o, rev.fops[o])
        elif name == "llvm.store" and not is_pointer_like(o.operands[0].type):
            if not rev.act.is_varied(o.operands[1]):
                continue
            if isinstance(o.operands[0].type, ir.IntegerType):
                val = o.operands[0]
                if rev.act.is_varied(val):  # a pointer kept as an integer: its shadow at the same place
                    with ir.InsertionPoint.after(rev.fops[o]), o.location:
                        sv, sm = fshadow(rev, val), fshadow(rev, o.operands[1])
                        st = rev.fops[o].clone()
                        st.operands[0] = sv
                        st.operands[1] = sm
                    continue
                if move_source(o) is None:
                    check_unshadowed_address(o, val)
            fields = move_copy(rev, o)
            if fields:
                load = move_source(o)
                with ir.InsertionPoint.after(rev.fops[o]), o.location:
                    sd, ss = fshadow(rev, o.operands[1]), fshadow(rev, load.operands[0])
                    for off, t in fields:
                        if str(t) == "!llvm.ptr":
                            llvm.StoreOp(llvm.LoadOp(_ptr(), _at(ss, off)).result, _at(sd, off))
        elif name == "llvm.store":
            val, mem = o.operands[0], o.operands[1]
            if not is_pointer_like(val.type):
                continue
            if not rev.act.is_varied(mem):  # (a differentiated pointer kept where no shadow follows it)
                if rev.act.is_varied(val) and not rev.session.in_inactive_global(mem):
                    raise error_at_op(o, "storing an active value into memory that has no shadow (an enzyme_const "
                                         "argument or a global)")
                continue
            with ir.InsertionPoint.after(rev.fops[o]), o.location:
                sv = shadow_of_stored_pointer(o, val, fshadow(rev, val) if rev.act.is_varied(val) else None,
                                              rev.vmap.get(val, val))
                sm = fshadow(rev, mem)
                st = rev.fops[o].clone()
                st.operands[0] = sv
                st.operands[1] = sm
        elif name in COPIES:
            dst, src = o.operands[0], o.operands[1]
            if not (is_raw(dst) and rev.act.is_varied(dst)):
                continue
            from .activity import element_type_of
            if element_type_of(dst) is not None or element_type_of(src) is not None:
                continue  # numeric arrays: the float copy of rules_reverse.memcpy_rule
            fields = copy_fields(rev, o)
            with ir.InsertionPoint.after(rev.fops[o]), o.location:
                sd = fshadow(rev, dst)
                if not rev.act.is_varied(src):
                    llvm.MemsetOp(sd, arith.constant(_i8(), 0), rev.vmap[o.operands[2]], ir.BoolAttr.get(False))
                    continue
                ss = fshadow(rev, src)
                for off, t in fields:
                    if str(t) == "!llvm.ptr":
                        p = llvm.LoadOp(_ptr(), _at(ss, off)).result
                        llvm.StoreOp(p, _at(sd, off))


def _taped(rev, o) -> bool:
    """Whether call `o` (differentiated arguments or results) is of a recursive function that writes memory it
    does not allocate (rules_reverse.taped_recursive)."""
    from .prepare import recursive_names
    from .rules_reverse import taped_recursive
    name = o.attributes["callee"].value
    if name not in rev.session.funcs or not len(rev.session.funcs[name].regions[0].blocks) or \
            name in rev.session.custom() or \
            not any(rev.act.is_varied(v) for v in list(o.operands) + list(o.results)):
        return False
    rec = rev.session.__dict__.setdefault("recursive", None) or recursive_names(rev.session.module)
    rev.session.recursive = rec
    if name not in rec or name in rev.session.gradient_rules:
        return False
    from .rules_reverse import _check_memory_kept
    # (also when the caller may change the memory the call reads: re-running it in the reverse would see that)
    return taped_recursive(rev.session, name) or not _check_memory_kept(rev, o, name, check_only=True)


def augmented_call(rev, o):
    """In the forward sweep, a call of f with a registered gradient {f, aug, rev} becomes one call of aug with
    Enzyme's arguments: f's, each differentiated pointer followed by its shadow. aug returns nothing, a tape
    (a pointer, handed to rev: kept in `rev.tapes` as an i64), or f's result (then f is not called at all). When
    aug returns nothing and f's result is used, f is called for it too.

    Raises:
        CompileError: aug's type does not fit f's call."""
    from .rules_forward import check_signature
    if not any(rev.act.is_varied(v) for v in list(o.operands) + list(o.results)):
        return  # an inactive call: f itself runs
    aug = rev.session.gradient_rules[o.attributes["callee"].value][0]
    fcall = rev.fops[o]
    f = rev.session.funcs.get(aug)
    if f is None:
        raise error_at_op(o, f"the augmented forward function '{aug}' has no declaration")
    results = list(ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value).results)
    primal_results = [r.type for r in o.results]
    kind = "none" if not results else "primal" if results == primal_results and primal_results else \
        "tape" if len(results) == 1 and str(results[0]) == "!llvm.ptr" else None
    with ir.InsertionPoint(fcall), o.location:
        args = []
        for v in o.operands:
            args.append(rev.vmap.get(v, v))
            if not is_float(v.type) and rev.act.is_varied(v):
                args.append(fshadow(rev, v))
        check_signature(rev.session, o, aug, args, results if kind is not None else primal_results)
        from mlir.dialects import func
        call = func.CallOp(results, ir.FlatSymbolRefAttr.get(aug), args)
        if kind == "tape":
            rev.tapes[o] = llvm.PtrToIntOp(_i64(), call.results[0]).result
    if kind == "primal":
        for old, new in zip(fcall.results, call.results):
            old.replace_all_uses_with(new)
        for r, new in zip(o.results, call.results):
            rev.vmap[r] = new
        rev.fops[o] = call.operation
        fcall.erase()
    elif not any(len(list(r.uses)) for r in o.results):  # (the primal's uses: later ops are not cloned yet)
        rev.fops[o] = call.operation
        fcall.erase()


def _at(p, off):
    if off == 0:
        return p
    return ir.Operation.create("llvm.getelementptr", [_ptr()], [p], {
        "rawConstantIndices": ir.DenseI32ArrayAttr.get([off]), "elem_type": ir.TypeAttr.get(_i8())}).result


def fshadow(rev, v):
    """The shadow of primal pointer `v` computed in the forward sweep, at the insertion point.

    Raises:
        CompileError: a pointer whose shadow the forward sweep cannot compute."""
    if v in rev.tmap:
        return rev.tmap[v]
    if v in rev.raw_shadows:
        return rev.raw_shadows[v]
    o = v.owner
    joined = getattr(rev, "joined", {})
    if v in getattr(rev, "joined_errors", {}):  # (its slot has no shadow: why, at the slot)
        raise rev.joined_errors[v]
    if v in joined:  # (a pointer slot of a loop or branch: ad/joined_shadows.py)
        return joined[v]
    if isinstance(o, ir.Block) or o.operation.name in ("scf.for", "scf.while", "scf.if"):
        owner = o.owner if isinstance(o, ir.Block) else o
        if getattr(rev, "joined_setup", None) is not None and owner.name in ("scf.for", "scf.while", "scf.if") \
                and owner.operation not in rev.joined_setup:
            from .joined_shadows import setup
            setup(rev, owner)
            if v in rev.joined:
                return rev.joined[v]
        raise error_at_op(owner, "unsupported construct: a differentiated pointer carried through a loop or "
                                 "branch and stored into memory in reverse mode")
    if o.operation.name == "memref.alloca" and "pgcc.shared" in o.attributes:
        raise error_at_op(o, "unsupported construct: reverse mode storing a pointer to differentiated __shared__ "
                             "memory into memory, or passing it to a function with a custom rule")
    if o.operation.name == "memref.alloca" and o.operation.block == rev.primal.regions[0].blocks[0]:
        # a numeric local whose address a custom rule or a stored pointer needs in the forward sweep: its shadow is
        # made here, next to it (the reverse sweep then uses the same one)
        from .emit import shadow_alloc
        with ir.InsertionPoint.after(rev.fops[o]), o.location:
            sh = shadow_alloc(o, rev.vmap)
        rev.raw_shadows[v] = sh
        return sh
    if o.operation.name in PLUMBING or o.operation.name == "llvm.load":
        operands = [fshadow(rev, x) if rev.act.is_varied(x) else rev.vmap.get(x, x) for x in o.operands]
        new = o.clone()
        for i, x in enumerate(operands):
            new.operands[i] = x
        return new.results[list(o.results).index(v)]
    if v in rev.loop_shadows:
        return rev.loop_shadows[v]
    if o.operation.name == "func.call" and o.attributes["callee"].value == "realloc" and o in rev.fops:
        from .joined_shadows import forward_realloc_shadow
        return forward_realloc_shadow(rev, o)
    if o.operation.name == "func.call" and o.attributes["callee"].value in MALLOCS and \
            o.operation.block != rev.primal.regions[0].blocks[0] and o in rev.fops:
        # malloc'd inside a loop or branch: the shadow made next to it in the forward sweep too; the reverse
        # sweep reads it back per iteration (Reverse.shadow, a cached pseudo value) and frees it there
        from mlir.dialects import arith, func
        callee = o.attributes["callee"].value
        with ir.InsertionPoint.after(rev.fops[o]), o.location:
            args = [rev.vmap.get(x, x) for x in o.operands]
            sh = func.CallOp([v.type], ir.FlatSymbolRefAttr.get(callee), args).results[0]
            llvm.MemsetOp(sh, arith.constant(_i8(), 0), alloc_bytes(callee, args), ir.BoolAttr.get(False))
        rev.loop_shadows[v] = sh
        return sh
    if o.operation.name == "func.call" and o.attributes["callee"].value in MALLOCS and \
            o.operation.block == rev.primal.regions[0].blocks[0] and o in rev.fops:
        # a malloc'd record at the top level: its shadow made next to it in the forward sweep (zeroed like the
        # reverse sweep's own), so that shadow pointers stored into it there are read back by the reverse sweep
        from mlir.dialects import arith, func
        callee = o.attributes["callee"].value
        with ir.InsertionPoint.after(rev.fops[o]), o.location:
            args = [rev.vmap.get(x, x) for x in o.operands]
            sh = func.CallOp([v.type], ir.FlatSymbolRefAttr.get(callee), args).results[0]
            llvm.MemsetOp(sh, arith.constant(_i8(), 0), alloc_bytes(callee, args), ir.BoolAttr.get(False))
        rev.raw_shadows[v] = sh
        rev.shadow_frees(o, lambda: release_like_allocation(callee, args, sh))
        return sh
    if o.operation.name == "func.call":
        raise error_at_op(o, "unsupported construct: reverse mode storing a differentiated pointer into, or copying "
                             f"one out of, memory from '{o.attributes['callee'].value}' (malloc'd records holding "
                             "differentiated pointers must be allocated outside loops and branches)")
    raise error_at_op(o, f"unsupported construct: no shadow for a pointer made by '{o.operation.name}' stored "
                         "into memory")


def rev_load_rule(rv, op):
    """llvm.load: a float's adjoint is added to the shadow field (atomically inside a parallel loop); a pointer
    has no adjoint (its shadow is read on demand by Reverse.shadow)."""
    r = op.results[0]
    if not is_float(r.type):
        return
    g = rv.pop_adj(r)
    if g is None or not rv.act.is_varied(r):
        return
    sh = rv.shadow(op.operands[0])
    if rv.atomic_context():
        llvm.AtomicRMWOp(llvm.AtomicBinOp.fadd, sh, g, llvm.AtomicOrdering.monotonic)
    else:
        llvm.StoreOp(arith.addf(llvm.LoadOp(r.type, sh).result, g), sh)


def rev_store_rule(rv, op):
    """llvm.store of a float into shadowed bytes: the shadow field becomes the stored value's adjoint and is
    reset to 0. Pointer and integer stores have no adjoint (pointer shadows were written by the forward sweep)."""
    val, mem = op.operands[0], op.operands[1]
    if rv.act.is_varied(mem) and not is_pointer_like(val.type):
        fields = move_copy(rv, op)
        if fields:  # bytes moved through a value: the float fields' adjoints move back, like a copy's
            _move_adjoints(rv, rv.shadow(mem), rv.shadow(move_source(op).operands[0]),
                           [(off, t) for off, t in fields if is_float(t)])
            return
    if not is_float(val.type):
        return
    if not rv.act.is_varied(mem):
        if rv.act.is_varied(val) and not rv.session.in_inactive_global(mem):
            raise error_at_op(op, "storing an active value into memory that has no shadow (an enzyme_const "
                                  "argument or a global)")
        return
    sh = rv.shadow(mem)
    g = llvm.LoadOp(val.type, sh).result
    llvm.StoreOp(arith.constant(val.type, 0.0), sh)
    if rv.act.is_varied(val):
        rv.add_adj(val, g)


def rev_copy_rule(rv, op):
    """A raw memcpy/memmove (a struct copy): the destination's float fields flow back into the source's and are
    reset (numeric arrays go to rules_reverse.memcpy_rule)."""
    from .activity import element_type_of
    from .rules_reverse import memcpy_rule
    dst, src = op.operands[0], op.operands[1]
    if element_type_of(dst) is not None or element_type_of(src) is not None or not is_raw(dst):
        memcpy_rule(rv, op)
        return
    if not rv.act.is_varied(dst):
        if rv.act.is_varied(src):
            raise error_at_op(op, "copying differentiated memory into memory that has no shadow")
        return
    floats = [(off, t) for off, t in copy_fields(rv, op) if is_float(t)]
    if not floats:
        return
    _move_adjoints(rv, rv.shadow(dst), rv.shadow(src) if rv.act.is_varied(src) else None, floats)


def _move_adjoints(rv, sd, ss, floats):
    """Reverse of copying the float fields `floats` ([(offset, type)]) from shadow `ss` (None: no shadow) to
    shadow `sd`: each field of sd is added to ss's and reset."""
    for off, t in floats:
        pd = _at(sd, off)
        g = llvm.LoadOp(t, pd).result
        llvm.StoreOp(arith.constant(t, 0.0), pd)
        if ss is not None:
            ps = _at(ss, off)
            if rv.atomic_context():
                llvm.AtomicRMWOp(llvm.AtomicBinOp.fadd, ps, g, llvm.AtomicOrdering.monotonic)
            else:
                llvm.StoreOp(arith.addf(llvm.LoadOp(t, ps).result, g), ps)


def _fresh_per_iteration(roots, load):
    """(loop, ops after `load` in the same iteration) when every root of `roots` is a malloc'd block allocated
    in the body of the innermost loop around `load` (each iteration's block is a new one, so what later
    iterations write is not what `load` read), else None."""
    loop = load.operation.parent
    while loop is not None and loop.name not in ("scf.for", "scf.while", "affine.for"):
        loop = loop.parent if loop.name != "func.func" else None
    if loop is None or not roots:
        return None
    loop = loop.operation
    for r in roots:
        o = r.owner
        if isinstance(o, ir.Block) or o.name != "func.call" or o.attributes["callee"].value not in MALLOCS \
                or not _inside(o, loop) or _escapes_iteration(r):
            return None
    after, cur = [], load.operation
    while cur != loop:
        block = cur.block
        seen = False
        for o in block.operations:
            if seen:
                after.append(o.operation)
                after.extend(x.operation for x in all_ops(o))
            elif o.operation == cur:
                seen = True
        cur = block.owner.operation
    return loop, set(after)


def _inside(op, region_op) -> bool:
    """Whether `op` is nested in `region_op`."""
    target = region_op.operation if hasattr(region_op, "operation") else region_op
    cur = op.operation if hasattr(op, "operation") else op
    while cur is not None and cur.name != "func.func":
        if cur == target:
            return True
        cur = cur.parent
    return False


def _escapes_iteration(v) -> bool:
    """Whether pointer `v` (through plumbing) is yielded to a later iteration, stored into memory or passed to a
    call (other than free)."""
    work, seen = [v], set()
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        for u in x.uses:
            o = u.owner
            if o.name in ("scf.yield", "affine.yield", "scf.condition") or \
                    (o.name in ("llvm.store", "memref.store", "affine.store") and u.operand_number == 0) or \
                    (o.name in ("func.call", "llvm.call") and not ("callee" in o.attributes and
                                                                    is_free(o.attributes["callee"].value))):
                return True
            if o.name in PLUMBING:
                work.extend(o.results)
    return False


def pointer_rewritten_after(rev, load):
    """An op that may write pointers into the memory pointer-load `load` reads after it (so the shadow pointer the
    reverse sweep reloads could differ from the one the load saw), or None."""
    from .cache import Overwrites
    if rev.caches.overwrites is None:
        rev.caches.overwrites = Overwrites(rev.primal, rev.session, getattr(rev, "taped", False))
    ow = rev.caches.overwrites
    reads = ow.roots(load.operands[0])
    if ow.outside(reads):
        return load  # (a taped derivative: the caller may rewrite it before the reverse runs)
    fresh = _fresh_per_iteration(reads, load)
    for o in ow.later_ops(load):
        name = o.operation.name
        if fresh is not None and o.operation not in fresh[1] and _inside(o, fresh[0]):
            continue  # (a later iteration writes that iteration's own allocation)
        if name == "llvm.store" and _earlier_slot_of_same_iteration(o, load):
            continue  # (`t[i] = p; ... t[i]` in a loop over i: later iterations write other slots)
        if (name == "llvm.store" and is_pointer_like(o.operands[0].type)) or name in COPIES:
            w = ow.writes_of(o)
        elif name == "func.call":
            callee = o.attributes["callee"].value
            if callee in MALLOCS or is_free(callee) or callee in rev.session.custom() \
                    or not writes_pointers_through_arguments(rev.session, callee):
                continue
            w = set()
            for x in o.operands:
                if is_pointer_like(x.type):
                    w |= ow.roots(x)
        else:
            continue
        if w is None or (w and ow.alias(reads, w)):
            return o
    return None


def _iv_slot(addr):
    """(base, induction variable, stride) when pointer `addr` is `base + iv * stride` bytes (an i8
    getelementptr whose index is a constant multiple of a loop's induction variable, through casts), else
    None."""
    o = addr.owner
    if isinstance(o, ir.Block) or o.operation.name != "llvm.getelementptr" or len(o.operands) != 2 or \
            type_bytes(ir.TypeAttr(o.attributes["elem_type"]).value) != 1:
        return None
    casts = ("arith.extsi", "arith.extui", "arith.index_cast", "arith.index_castui", "arith.trunci")

    def strip(v):
        while not isinstance(v.owner, ir.Block) and v.owner.operation.name in casts:
            v = v.owner.operands[0]
        return v
    idx = strip(o.operands[1])
    if isinstance(idx.owner, ir.Block) or idx.owner.operation.name != "arith.muli":
        return None
    a, b = idx.owner.operands
    stride, iv = (const_int(b), strip(a)) if const_int(b) is not None else (const_int(a), strip(b))
    if stride is None or not isinstance(iv.owner, ir.Block):
        return None
    loop = iv.owner.owner
    if loop is None or loop.name not in ("scf.for", "affine.for") or list(iv.owner.arguments).index(iv) != 0:
        return None
    return o.operands[0], iv, stride


def _earlier_slot_of_same_iteration(store, load) -> bool:
    """Whether pointer store `store` writes, before `load` in the same loop body, the slot `load` reads, both
    `base + iv * stride` with a stride at least a pointer's size: the store's other executions (later iterations)
    write other slots."""
    if store.operation.block != load.operation.block:
        return False
    a, b = _iv_slot(store.operands[1]), _iv_slot(load.operands[0])
    if a is None or b is None or a[0] != b[0] or a[1] != b[1] or a[2] != b[2] or abs(a[2]) < 8:
        return False
    for o in store.operation.block.operations:
        if o.operation == load.operation:
            return False
        if o.operation == store.operation:
            return True
    return False


def writes_pointers_through_arguments(session, name) -> bool:
    """Whether function `name` may write pointers (a pointer store, a byte copy) into memory it did not allocate
    itself, directly or through its callees. Functions without a body may (except printing and allocation)."""
    return writes_outside(session, name, pointers_only=True)


def writes_outside(session, name, pointers_only=False, _busy=None) -> bool:
    """Whether function `name` may write memory it did not allocate itself (with `pointers_only`: pointers into
    it), directly or through its callees. Functions without a body may (except printing and allocation)."""
    from .activity import root_alloc
    from .rules_forward import PRINTING
    memo = session.__dict__.setdefault("outside_writers", {})
    key = (name, pointers_only)
    if key in memo:
        return memo[key]
    busy = _busy if _busy is not None else set()
    if name in busy:
        return False  # (recursion: decided by the other paths)
    f = session.funcs.get(name)
    if f is None or not len(f.regions[0].blocks):
        if name in LIBM_NAMES:  # (frexp writes an int)
            return not pointers_only and name in LIBM_WRITES_INT
        return name not in PRINTING and name not in MALLOCS and name != "free" and name not in session.inactive
    busy.add(name)
    out = False
    for o in all_ops(f):
        target = None
        if o.operation.name == "llvm.store" and (not pointers_only or is_pointer_like(o.operands[0].type)):
            target = o.operands[1]
        elif o.operation.name in COPIES or (not pointers_only and o.operation.name == "llvm.intr.memset"):
            target = o.operands[0]
        elif not pointers_only and o.operation.name in ("memref.store", "affine.store", "memref.atomic_rmw"):
            target = o.operands[1]
        if target is not None and root_alloc(target) is None:
            out = True
        elif o.operation.name == "func.call" and \
                writes_outside(session, o.attributes["callee"].value, pointers_only, busy):
            out = True
        elif o.operation.name == "llvm.call" and ("callee" not in o.attributes or
                                        ir.FlatSymbolRefAttr(o.attributes["callee"]).value not in PRINTING):
            out = True
        if out:
            break
    busy.discard(name)
    if _busy is None or out:
        memo[key] = out
    return out
