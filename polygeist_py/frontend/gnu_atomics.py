"""GNU atomic builtins, `__atomic_*` (C11's memory model) and the legacy `__sync_*`, as LLVM atomics on the object
a pointer designates (LLVM's atomicrmw, cmpxchg, atomic load/store and fence), the way clang lowers them
(clang/lib/CodeGen/CGAtomic.cpp, CGBuiltin.cpp):

- `__atomic_fetch_OP(p, v, order)` returns the old value, `__atomic_OP_fetch` the new one (OP: add, sub, and, or,
  xor, nand, max, min); `__atomic_load_n`/`store_n`/`exchange_n`/`compare_exchange_n`, and the generic forms
  `__atomic_load`/`store`/`exchange`/`compare_exchange` that pass values through pointers; `__atomic_test_and_set`,
  `__atomic_clear`, `__atomic_thread_fence`, `__atomic_signal_fence`, `__atomic_always_lock_free`,
  `__atomic_is_lock_free`;
- `__sync_fetch_and_OP`, `__sync_OP_and_fetch`, `__sync_bool_compare_and_swap`, `__sync_val_compare_and_swap`,
  `__sync_lock_test_and_set` (acquire), `__sync_lock_release` (release), `__sync_synchronize`: sequentially
  consistent, as gcc documents them.

`__atomic_*` are clang AtomicExprs, not calls: exprs.py hands them here with their arguments in source order
(atomic_expr_arguments). A constant memory order maps to LLVM's (relaxed -> monotonic, consume -> acquire); a non-constant one is taken as
seq_cst (the strongest, as clang does when it cannot branch on it). Objects of 1, 2, 4 or 8 bytes (integers and
pointers) are supported; others are an error naming the builtin.
"""

from __future__ import annotations

import re

from mlir import ir
from mlir.dialects import arith, llvm

from ..clang_ast import T, canonical, evaluate, spelled_word
from ..errors import error_at
from . import c_types as CT
from . import int_semantics as IS

ORDERS = {0: "monotonic", 1: "acquire", 2: "acquire", 3: "release", 4: "acq_rel", 5: "seq_cst"}
RMW = {"add": "add", "sub": "sub", "and": "_and", "or": "_or", "xor": "_xor", "nand": "nand", "max": "max",
       "min": "min"}
NEW_VALUE = {"add": arith.addi, "sub": arith.subi, "and": arith.andi, "or": arith.ori, "xor": arith.xori}


def builtin_name(call) -> str:
    """The builtin's name: a CALL_EXPR's spelling (`__sync_*`), or the identifier where an AtomicExpr
    (`__atomic_fetch_add(...)`, which libclang does not name) is spelled, also inside a macro's definition."""
    if call.spelling:  # (clang names a `__sync_*` call by its size: `__sync_fetch_and_add_4`)
        return re.sub(r"_(1|2|4|8|16)$", "", call.spelling) if call.spelling.startswith("__sync_") else call.spelling
    return spelled_word(call)


def atomic_expr_arguments(children: list) -> list:
    """The arguments, in source order, of an AtomicExpr whose operands libclang gives in clang's order (pointer,
    order, value, failure order, second value, weak: clang's Sema::BuildAtomicExpr)."""
    order = {2: (0, 1), 3: (0, 2, 1), 4: (0, 2, 3, 1), 6: (0, 2, 4, 5, 1, 3)}.get(len(children))
    return [children[i] for i in order] if order else list(children)


def _ordering(name: str):
    return getattr(llvm.AtomicOrdering, name)


def _order(fg, arg, kind="rmw"):
    """The LLVM ordering of memory-order argument `arg` (None: seq_cst) for an access of `kind` ('load',
    'store', 'rmw'); an order C forbids for the access (a release load) is strengthened to seq_cst."""
    v = evaluate(arg) if arg is not None else None
    name = ORDERS.get(v, "seq_cst") if isinstance(v, int) else "seq_cst"
    if kind == "load" and name in ("release", "acq_rel") or kind == "store" and name in ("acquire", "acq_rel"):
        name = "seq_cst"
    return _ordering(name)


def _object(fg, call, ptr_arg):
    """(!llvm.ptr, C type, LLVM type) of the object `ptr_arg` points to.

    Raises:
        CompileError: an object that is not an integer or pointer of 1, 2, 4 or 8 bytes."""
    pt = canonical(ptr_arg.type)
    if pt.kind != T.POINTER:
        raise error_at(call, f"unsupported builtin '{builtin_name(call)}' on '{ptr_arg.type.spelling}'")
    ty = canonical(pt.get_pointee())
    if not (CT.is_int(ty) and ty.kind != T.BOOL or ty.kind == T.POINTER) or CT.size_of(ty) not in (1, 2, 4, 8):
        raise error_at(call, f"unsupported builtin '{builtin_name(call)}' on an object of type '{ty.spelling}'")
    lt = CT.llvm_ptr() if ty.kind == T.POINTER else CT.scalar_type(ty)
    return fg.raw_pointer(ptr_arg), ty, lt


def _value(fg, arg, ty):
    """Operand `arg` converted to the object's type `ty` (a raw pointer for a pointer object)."""
    if ty.kind == T.POINTER:
        return fg.raw_pointer(arg)
    return fg.convert(fg.rvalue(arg), arg.type, ty, arg)


def _result(fg, call, ty, v):
    """Value `v` (of the object's type `ty`) as the call's result: a pointer in the walker's form when it keeps
    one, else converted to the call's type."""
    rt = canonical(call.type)
    if rt.kind == T.VOID:
        return None
    if ty.kind == T.POINTER:
        return fg.from_ptr(v, rt, None, call) if CT.pointee_is_memref(rt) else v
    return fg.convert(v, ty, rt, call)


def fetch_op(fg, call, args):
    """`__atomic_fetch_OP`/`__atomic_OP_fetch`/`__sync_fetch_and_OP`/`__sync_OP_and_fetch`."""
    name = builtin_name(call)
    m = re.fullmatch(r"__(?:atomic_fetch_|sync_fetch_and_)(\w+)", name)
    new_first = m is None  # (`__atomic_OP_fetch`, `__sync_OP_and_fetch`: the new value)
    op = m.group(1) if m else re.fullmatch(r"__(?:atomic_|sync_)(\w+?)(?:_and)?_fetch", name).group(1)
    p, ty, lt = _object(fg, call, args[0])
    if ty.kind == T.POINTER:
        raise error_at(call, f"unsupported builtin '{name}' on a pointer object")
    signed = not CT.is_unsigned(ty)
    kind = {"max": "max" if signed else "umax", "min": "min" if signed else "umin"}.get(op, RMW[op])
    v = _value(fg, args[1], ty)
    order = _order(fg, args[2] if name.startswith("__atomic") and len(args) > 2 else None)
    old = llvm.AtomicRMWOp(getattr(llvm.AtomicBinOp, kind), p, v, order).result
    if not new_first:
        return _result(fg, call, ty, old)
    if op == "nand":
        new = arith.xori(arith.andi(old, v), arith.constant(lt, -1))
    elif op in ("max", "min"):
        pred = {"max": "sgt", "min": "slt"}[op] if signed else {"max": "ugt", "min": "ult"}[op]
        new = arith.select(arith.cmpi(getattr(arith.CmpIPredicate, pred), old, v), old, v)
    else:
        new = NEW_VALUE[op](old, v)
    return _result(fg, call, ty, new)


def load_n(fg, call, args):
    """`__atomic_load_n(p, order)`."""
    p, ty, lt = _object(fg, call, args[0])
    v = llvm.LoadOp(lt, p, alignment=CT.size_of(ty), ordering=_order(fg, args[1], "load")).result
    return _result(fg, call, ty, v)


def store_n(fg, call, args):
    """`__atomic_store_n(p, v, order)`."""
    p, ty, lt = _object(fg, call, args[0])
    llvm.StoreOp(_value(fg, args[1], ty), p, alignment=CT.size_of(ty), ordering=_order(fg, args[2], "store"))
    return None


def exchange_n(fg, call, args):
    """`__atomic_exchange_n(p, v, order)`, `__sync_lock_test_and_set(p, v)` (acquire): the old value."""
    p, ty, lt = _object(fg, call, args[0])
    sync = builtin_name(call).startswith("__sync")
    order = _ordering("acquire") if sync else _order(fg, args[2])
    return _result(fg, call, ty, llvm.AtomicRMWOp(llvm.AtomicBinOp.xchg, p, _value(fg, args[1], ty), order).result)


def compare_exchange_n(fg, call, args):
    """`__atomic_compare_exchange_n(p, &expected, desired, weak, success, failure)`: on failure the value found is
    stored into *expected; the result is whether the exchange happened."""
    p, ty, lt = _object(fg, call, args[0])
    return _compare_exchange(fg, call, p, lt, _value(fg, args[2], ty), args)


def _compare_exchange(fg, call, p, lt, desired, args):
    """The common part of `__atomic_compare_exchange[_n](p, &expected, desired, weak, success, failure)`: one
    cmpxchg of *expected for `desired` at `p` (LLVM type `lt`); on failure the value found is stored into
    *expected; returns whether the exchange happened, as the call's type."""
    expected = fg.raw_pointer(args[1])
    ok, found = _cmpxchg(fg, p, llvm.LoadOp(lt, expected).result, desired, _order(fg, args[4]),
                         _failure(fg, args[5]))
    fg.emit_if(arith.xori(ok, arith.constant(ir.IntegerType.get_signless(1), 1)),
               lambda: llvm.StoreOp(found, expected) and None, None, [])
    return _result_bool(fg, call, ok)


def sync_compare_and_swap(fg, call, args):
    """`__sync_bool_compare_and_swap(p, old, new)` (whether it swapped), `__sync_val_compare_and_swap` (the
    value found)."""
    p, ty, lt = _object(fg, call, args[0])
    seq = _ordering("seq_cst")
    ok, found = _cmpxchg(fg, p, _value(fg, args[1], ty), _value(fg, args[2], ty), seq, seq)
    if "bool" in builtin_name(call):
        return _result_bool(fg, call, ok)
    return _result(fg, call, ty, found)


def _failure(fg, arg):
    """The failure ordering of a compare-exchange: no release in it (C forbids it; LLVM rejects it)."""
    return _order(fg, arg, "load")


def _cmpxchg(fg, p, cmp, new, success, failure):
    """(i1 exchanged, value found) of one cmpxchg."""
    t = cmp.type
    pair = llvm.AtomicCmpXchgOp(p, cmp, new, success, failure).result
    found = llvm.ExtractValueOp(t, pair, [0]).result
    ok = llvm.ExtractValueOp(ir.IntegerType.get_signless(1), pair, [1]).result
    return ok, found


def _result_bool(fg, call, ok):
    """i1 `ok` as the call's result (bool or int)."""
    return fg.convert(ok, _BOOL, canonical(call.type), call)


def generic(fg, call, args):
    """The generic forms, which pass values through pointers: `__atomic_load(p, &ret, order)`,
    `__atomic_store(p, &val, order)`, `__atomic_exchange(p, &val, &ret, order)`,
    `__atomic_compare_exchange(p, &expected, &desired, weak, success, failure)`."""
    name = builtin_name(call)
    p, ty, lt = _object(fg, call, args[0])
    if name == "__atomic_load":
        v = llvm.LoadOp(lt, p, alignment=CT.size_of(ty), ordering=_order(fg, args[2], "load")).result
        llvm.StoreOp(v, fg.raw_pointer(args[1]))
        return None
    if name == "__atomic_store":
        v = llvm.LoadOp(lt, fg.raw_pointer(args[1])).result
        llvm.StoreOp(v, p, alignment=CT.size_of(ty), ordering=_order(fg, args[2], "store"))
        return None
    if name == "__atomic_exchange":
        v = llvm.LoadOp(lt, fg.raw_pointer(args[1])).result
        old = llvm.AtomicRMWOp(llvm.AtomicBinOp.xchg, p, v, _order(fg, args[3])).result
        llvm.StoreOp(old, fg.raw_pointer(args[2]))
        return None
    return _compare_exchange(fg, call, p, lt, llvm.LoadOp(lt, fg.raw_pointer(args[2])).result, args)


def test_and_set(fg, call, args):
    """`__atomic_test_and_set(p, order)`: sets the byte at p, returns whether it was set."""
    i8 = ir.IntegerType.get_signless(8)
    old = llvm.AtomicRMWOp(llvm.AtomicBinOp.xchg, fg.raw_pointer(args[0]), arith.constant(i8, 1),
                           _order(fg, args[1])).result
    return _result_bool(fg, call, arith.cmpi(arith.CmpIPredicate.ne, old, arith.constant(i8, 0)))


def clear(fg, call, args):
    """`__atomic_clear(p, order)`: stores 0 into the byte at p; `__sync_lock_release(p)`: 0 into *p, release."""
    if builtin_name(call) == "__sync_lock_release":
        p, ty, lt = _object(fg, call, args[0])
        zero = llvm.ZeroOp(lt).result if ty.kind == T.POINTER else arith.constant(lt, 0)
        llvm.StoreOp(zero, p, alignment=CT.size_of(ty), ordering=_ordering("release"))
        return None
    i8 = ir.IntegerType.get_signless(8)
    llvm.StoreOp(arith.constant(i8, 0), fg.raw_pointer(args[0]), alignment=1, ordering=_order(fg, args[1], "store"))
    return None


def fence(fg, call, args):
    """`__atomic_thread_fence(order)`, `__sync_synchronize()` (seq_cst); `__atomic_signal_fence(order)`: a fence
    for the thread itself (syncscope singlethread)."""
    order = _order(fg, args[0]) if args else _ordering("seq_cst")
    if order == _ordering("monotonic"):
        return None  # (a relaxed fence orders nothing)
    if "signal" in builtin_name(call):
        llvm.FenceOp(order, syncscope="singlethread")
    else:
        llvm.FenceOp(order)
    return None


def lock_free(fg, call, args):
    """`__atomic_always_lock_free(size, p)`, `__atomic_is_lock_free(size, p)`: whether objects of `size` bytes
    are lock-free on x86-64 (1, 2, 4, 8 and 16 bytes)."""
    n = evaluate(args[0])
    if not isinstance(n, int):
        raise error_at(call, f"unsupported builtin '{builtin_name(call)}' with a size that is not a constant")
    return _result_bool(fg, call, arith.constant(ir.IntegerType.get_signless(1), int(n in (1, 2, 4, 8, 16))))


_BOOL = IS.IntType(T.BOOL, 1)  # (the C type of an i1 truth value, for fg.convert)

OPS = tuple(RMW)
_UNSIZED = {
    **{f"__atomic_fetch_{o}": fetch_op for o in OPS},
    **{f"__atomic_{o}_fetch": fetch_op for o in OPS},
    **{f"__sync_fetch_and_{o}": fetch_op for o in OPS if o not in ("max", "min")},
    **{f"__sync_{o}_and_fetch": fetch_op for o in OPS if o not in ("max", "min")},
    "__atomic_load_n": load_n, "__atomic_store_n": store_n,
    "__atomic_exchange_n": exchange_n, "__sync_lock_test_and_set": exchange_n,
    "__atomic_compare_exchange_n": compare_exchange_n,
    "__sync_bool_compare_and_swap": sync_compare_and_swap, "__sync_val_compare_and_swap": sync_compare_and_swap,
    **{f"__atomic_{n}": generic for n in ("load", "store", "exchange", "compare_exchange")},
    "__atomic_test_and_set": test_and_set, "__atomic_clear": clear, "__sync_lock_release": clear,
    "__atomic_thread_fence": fence, "__atomic_signal_fence": fence, "__sync_synchronize": fence,
    "__atomic_always_lock_free": lock_free, "__atomic_is_lock_free": lock_free,
}
BUILTINS = {**_UNSIZED, **{f"{n}_{k}": h for n, h in _UNSIZED.items() if n.startswith("__sync_")
                           for k in (1, 2, 4, 8, 16)}}
