"""Shadows of mutable global arrays that hold differentiated values (Enzyme's shadow globals: with global activity,
Enzyme gives such a global a zero-initialized shadow global of the same type, ``GradientUtils::invertPointerM``).

A ``memref.global`` that is not ``constant`` and into which a differentiated function stores a varied value (a
scratch array carrying intermediates between two loops, an accumulator written by one helper and read by
another) gets a twin ``memref.global private @<name>.shadow`` of the same type, zero-initialized. The shadow of
``memref.get_global @g`` is ``memref.get_global @g.shadow``, in both modes: forward mode stores tangents into it
wherever the primal stores values; reverse mode adds adjoints where the primal reads and moves them out (and
resets them to 0) where the primal writes. The derivative called from ``__enzyme_autodiff`` / ``__enzyme_fwddiff``
zeroes the shadow globals it (or a derivative it calls) uses when it starts: the values a global holds on entry
are constants of the call, so a derivative never depends on an earlier call (where Enzyme's shadow globals keep
their contents between calls). Globals marked ``__attribute__((enzyme_inactive))`` get none (active values stored there are
dropped, api_calls.Session.in_inactive_global). A global marked ``__attribute__((enzyme_shadow(s)))`` has the
program's own global ``s`` as its shadow instead (its values are differentiated even where only read), which
pgcc neither creates nor zeroes: Enzyme's convention, the program owns it. The globals a program queries with
Enzyme's ``__enzyme_shadow`` (polygeist_py/frontend/enzyme.py: emit_shadow_query) are recorded the same way, with
a shadow the frontend makes: for a global in raw memory (an ``llvm.mlir.global``: a struct, a pointer, an
object whose address an initializer takes) the shadow of ``llvm.mlir.addressof @g`` is the address of that
shadow (shadow_of_addressof). A pointer the program stores into such a global at run time (outside derivatives)
clears the shadow pointer at the same place; the program sets it through ``__enzyme_shadow`` after the store, as
Enzyme's programs do, and a derivative called while a cleared shadow pointer sits next to a non-null primal one
stops with a message (follow_pointer_stores).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import memref

from .activity import PLUMBING, Worklist

SUFFIX = ".shadow"


def global_root(v):
    """The ``memref.get_global`` op of a mutable memref.global that memref `v` is (a view of), through plumbing;
    None when `v` comes from anything else or the global is constant."""
    work = Worklist([v])
    found = None
    for x in work:
        o = x.owner
        if isinstance(o, ir.Block):
            return None
        if o.operation.name == "memref.get_global":
            g = _global_op(o)
            if g is None or "constant" in g.attributes:
                return None
            if found is not None and found != o:
                return None
            found = o
        elif o.operation.name in PLUMBING:
            work.push(y for y in o.operands if isinstance(y.type, ir.MemRefType))
        else:
            return None
    return found


def global_name(get_global) -> str:
    """The symbol a memref.get_global op reads."""
    return ir.FlatSymbolRefAttr(get_global.attributes["name"]).value


def _module_of(op):
    top = op.operation
    while top.parent is not None:
        top = top.parent
    return top


def _global_op(get_global):
    name = global_name(get_global)
    for g in _module_of(get_global).regions[0].blocks[0].operations:
        if g.operation.name == "memref.global" and ir.StringAttr(g.attributes["sym_name"]).value == name:
            return g
    return None


def shadow_of_get_global(get_global, user_shadows=None):
    """The shadow of primal ``memref.get_global`` op `get_global`: a memref.get_global of ``@<name>.shadow``,
    created at the insertion point (the shadow global is declared once per module, zero-initialized), or of the
    program's own shadow global where `user_shadows` ({global: its enzyme_shadow global}) names one."""
    module = _module_of(get_global)
    t = ir.MemRefType(get_global.results[0].type)
    own = (user_shadows or {}).get(global_name(get_global))
    if own is not None:  # (enzyme_shadow: the program's global, neither created nor zeroed here)
        return memref.GetGlobalOp(t, own).result
    name = global_name(get_global) + SUFFIX
    body = module.regions[0].blocks[0]
    t = ir.MemRefType(get_global.results[0].type)
    if not any(g.operation.name == "memref.global" and ir.StringAttr(g.attributes["sym_name"]).value == name
               for g in body.operations):
        elem = t.element_type
        zero = ir.FloatAttr.get(elem, 0.0) if not isinstance(elem, ir.IntegerType) else ir.IntegerAttr.get(elem, 0)
        shape = ir.RankedTensorType.get(list(t.shape), elem)
        with ir.InsertionPoint.at_block_begin(body), get_global.location:
            memref.GlobalOp(name, ir.TypeAttr.get(t), sym_visibility="private",
                            initial_value=ir.DenseElementsAttr.get_splat(shape, zero))
    return memref.GetGlobalOp(t, name).result


def shadow_of_addressof(addressof, user_shadows):
    """The shadow of ``llvm.mlir.addressof @g`` for a global in raw memory that has one (`user_shadows`:
    {global: its shadow global}, from Enzyme's queries): the address of the shadow global, at the insertion
    point."""
    from mlir.dialects import llvm
    name = ir.FlatSymbolRefAttr(addressof.attributes["global_name"]).value
    return llvm.AddressOfOp(addressof.results[0].type, user_shadows[name]).result


def check_user_shadows(session) -> None:
    """Every enzyme_shadow pair whose global the module has: both are mutable memref.globals of one type (a
    global whose address the program takes lives in raw memory, where pgcc has no shadow to substitute).

    Raises:
        CompileError: naming enzyme_shadow, at the global."""
    from polygeist_py.errors import error_at_op
    body = session.module.body
    symbols = {ir.StringAttr(o.attributes["sym_name"]).value: o for o in body.operations
               if "sym_name" in o.attributes}
    for name, own in session.user_shadows.items():
        g, sh = symbols.get(name), symbols.get(own)
        if g is None:
            continue
        if g.operation.name == "llvm.mlir.global" and sh is not None and sh.operation.name == "llvm.mlir.global" \
                and g.attributes["global_type"] == sh.attributes["global_type"]:
            # (a queried global in raw memory: its shadow, made by the frontend from its initializer, has its
            # type; pointers stored into it at run time: follow_pointer_stores)
            if not hasattr(session, "follow_stores"):
                session.follow_stores = []
            session.follow_stores += [(name, o, off) for o, off in _check_pointer_stores(session.module, name)]
            continue
        if g.operation.name != "memref.global" or sh is None or sh.operation.name != "memref.global" or \
                g.attributes["type"] != sh.attributes["type"] or "constant" in sh.attributes:
            raise error_at_op(g, f"unsupported construct: __attribute__((enzyme_shadow({own.split('::')[-1]}))) on "
                                 f"'{name}': pgcc uses it for scalar and array globals whose address the program "
                                 "does not take, with a shadow of the same type")


def _check_pointer_stores(module, name) -> list:
    """The stores of a pointer into raw global `name` (one with a queried shadow), as [(store op, byte offset in
    the global)]: the shadow's pointers are made from the initializer (the shadows of the globals it points to),
    so after such a store at run time the shadow must follow it (follow_pointer_stores).

    Raises:
        CompileError: a store at an offset that is not constant, a copy of bytes holding pointers into the
            global (pgcc cannot tell which shadow pointers it replaces)."""
    from polygeist_py.errors import error_at_op
    from .activity import all_ops
    from .prepare import memory_root
    from .raw_memory import base_and_offset
    g = next(o for o in module.body.operations if o.operation.name == "llvm.mlir.global"
             and ir.StringAttr(o.attributes["sym_name"]).value == name)
    holds_pointers = "ptr" in str(g.attributes["global_type"])
    stores = []
    for o in all_ops(module.operation):
        kind = o.operation.name
        if kind not in ("llvm.store", "llvm.intr.memcpy", "llvm.intr.memmove"):
            continue
        if kind == "llvm.store" and str(o.operands[0].type) != "!llvm.ptr" or \
                kind != "llvm.store" and not holds_pointers:
            continue  # (numbers stored: their shadow holds their derivatives)
        addr = o.operands[1] if kind == "llvm.store" else o.operands[0]
        for r in memory_root(addr):
            a = r.owner
            if isinstance(a, ir.Block) or a.operation.name != "llvm.mlir.addressof" or \
                    ir.FlatSymbolRefAttr(a.attributes["global_name"]).value != name:
                continue
            base, offset = base_and_offset(addr)
            if kind != "llvm.store" or base.owner is None or isinstance(base.owner, ir.Block) or \
                    base.owner.operation.name != "llvm.mlir.addressof":
                raise error_at_op(o, f"unsupported construct: {'copying bytes' if kind != 'llvm.store' else 'storing'}"
                                     f" a pointer into global '{name}' (at a position pgcc cannot tell), whose "
                                     "shadow __enzyme_shadow asks for (its shadow pointer cannot follow)")
            stores.append((o, offset))
    return stores


FOLLOW_MESSAGE = ("pgcc: the shadow of global '{name}' (byte {offset}) was not set after a pointer was stored there: "
                  "set it through __enzyme_shadow after each such store (the program owns the shadows of globals "
                  "it queries)\n")


def follow_pointer_stores(session, entry_calls) -> None:
    """Pointers stored into a raw global with a queried shadow at run time (Enzyme programs set the matching
    shadow pointer through __enzyme_shadow, as the program owns those shadows): each such store in the program's
    code also clears the shadow pointer at the same place, and each derivative called from the program
    (`entry_calls`, func.call ops) first checks that no cleared shadow pointer sits next to a non-null primal
    one, stopping with a message naming the global otherwise (the derivative would read or add into memory
    that is not the pointer's shadow: never a silent wrong derivative). Stores in derivative functions are not
    touched: their rules store the pointer's shadow."""
    from mlir.dialects import arith, llvm
    from .prepare import functions
    from .run_time_checks import abort_if, declare_write_and_abort
    follows = getattr(session, "follow_stores", [])
    if not follows:
        return
    ptr, i64 = ir.Type.parse("!llvm.ptr"), ir.IntegerType.get_signless(64)
    slots = sorted({(name, off) for name, _, off in follows})
    for name, store, offset in follows:
        with ir.InsertionPoint.after(store.operation), store.location:
            sbase = llvm.AddressOfOp(ptr, session.user_shadows[name]).result
            at = llvm.IntToPtrOp(ptr, arith.addi(llvm.PtrToIntOp(i64, sbase).result,
                                                 arith.constant(i64, offset))).result
            llvm.StoreOp(llvm.ZeroOp(ptr).result, at)
    declare_write_and_abort(session.module)
    session.funcs.update({name: op for name in ("write", "abort") if name not in session.funcs
                          for op in [functions(session.module).get(name)] if op is not None})
    for call in entry_calls:
        used = _globals_reached(session, ir.FlatSymbolRefAttr(call.attributes["callee"]).value)
        with ir.InsertionPoint(call), call.location:
            for name, offset in slots:
                if name not in used and session.user_shadows[name] not in used:
                    continue  # (a derivative that never reads the global)
                pbase = llvm.AddressOfOp(ptr, name).result
                sbase = llvm.AddressOfOp(ptr, session.user_shadows[name]).result
                off = arith.constant(i64, offset)
                pv = llvm.LoadOp(i64, llvm.IntToPtrOp(ptr, arith.addi(llvm.PtrToIntOp(i64, pbase).result,
                                                                      off)).result).result
                sv = llvm.LoadOp(i64, llvm.IntToPtrOp(ptr, arith.addi(llvm.PtrToIntOp(i64, sbase).result,
                                                                      off)).result).result
                zero = arith.constant(i64, 0)
                bad = arith.andi(arith.cmpi(arith.CmpIPredicate.ne, pv, zero),
                                 arith.cmpi(arith.CmpIPredicate.eq, sv, zero))
                abort_if(bad, FOLLOW_MESSAGE.format(name=name, offset=offset), session.module)


def ops_reached(session, fname):
    """Every op of function `fname` and of the functions it calls, transitively (among the session's functions
    with a body), each function once, in the order of a depth-first walk."""
    from .activity import all_ops
    seen, work = set(), [fname]
    while work:
        n = work.pop()
        f = session.funcs.get(n)
        if n in seen or f is None or not len(f.regions[0].blocks):
            continue
        seen.add(n)
        for o in all_ops(f.operation):
            if o.operation.name == "func.call":
                work.append(ir.FlatSymbolRefAttr(o.attributes["callee"]).value)
            yield o


def _globals_reached(session, fname) -> set:
    """The globals whose address function `fname` or a function it calls (among the session's) takes."""
    return {ir.FlatSymbolRefAttr(o.attributes["global_name"]).value for o in ops_reached(session, fname)
            if o.operation.name == "llvm.mlir.addressof"}


def zero_shadow_globals(session, f) -> None:
    """At the start of entry derivative `f` (func.func): zero every shadow global that `f` or a function it calls
    (transitively, among the session's functions) reads (module docstring).

    Raises:
        CompileError: a shadow global in CUDA device code (threads would zero it while others use it)."""
    from polygeist_py.errors import error_at_op
    from .emit import fill_zero
    names = {}
    for o in ops_reached(session, ir.StringAttr(f.attributes["sym_name"]).value):
        if o.operation.name == "memref.get_global" and global_name(o).endswith(SUFFIX):
            names.setdefault(global_name(o), o)
    if not names:
        return
    if session.device:
        raise error_at_op(next(iter(names.values())), "unsupported construct: a global array holding "
                                                      "differentiated values in CUDA device code")
    entry = f.regions[0].blocks[0]
    with ir.InsertionPoint.at_block_begin(entry), f.location:
        anchor = memref.GetGlobalOp(next(iter(names.values())).results[0].type, next(iter(names))).operation
    with ir.InsertionPoint(anchor), f.location:
        for name, o in sorted(names.items()):
            fill_zero(memref.GetGlobalOp(o.results[0].type, name).result)
    anchor.erase()
