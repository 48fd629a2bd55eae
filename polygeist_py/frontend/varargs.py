"""Definitions of variadic C functions (`int log_msg(const char *fmt, ...)`) and `<stdarg.h>`.

A `func.func` cannot be variadic, so pgcc splits such a definition in two; the x86-64 System V ABI allows it,
since a `va_list` only holds addresses into the frame of the function that ran `va_start`, which stays alive
while it calls another function:
- the **body**, a private `func.func @__pgcc_va.<name>` taking the fixed parameters and one more, the address of
  the entry's `va_list`, walked like any other function;
- the **entry**, `llvm.func @<name>(fixed..., ...)` under the C symbol: it allocates a `va_list`
  (`struct __va_list_tag[1]`, 24 bytes), runs `llvm.intr.vastart`, calls the body with it, runs
  `llvm.intr.vaend` and returns the body's result. Callers in this file and in others call the entry as any
  variadic function (calls.variadic_call).
In the body, `va_start(ap, last)` is `va_copy(ap, <the entry's list>)`, so every `va_start` restarts the list as
C requires; `va_arg(ap, T)` is LLVM's `va_arg` instruction, which LLVM's x86-64 backend lowers for integer,
pointer and double arguments (clang expands it inline instead; the result is the same for those types);
`va_end` is `llvm.intr.vaend` and `va_copy` `llvm.intr.vacopy`. A `va_list` passed on (`vsnprintf(buf, n, fmt,
ap)`) is the address of the caller's list, as in C.

`va_arg` of a `long double` reads the overflow area directly (LLVM does not lower it), `va_arg` of a struct the
register save area or the overflow area by the ABI's algorithm (`_va_arg_record`; a struct holding a long double
is classed MEMORY: the overflow area). Struct parameters and results of a variadic definition follow the ABI at
its entry. Not supported (each a clear error): `va_arg` of a type that the default argument promotions change (`char`, `short`, `float`:
undefined in C), variadic C++ member functions.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, llvm, scf

from ..clang_ast import T, canonical, children, va_arg_operand
from ..errors import error_at
from . import c_types as CT
from . import records as R

BODY_PREFIX = "__pgcc_va."
VA_LIST_BYTES, VA_LIST_ALIGN = 24, 16  # x86-64: struct __va_list_tag { unsigned, unsigned, void *, void * }[1]


def body_signature(fg, c, name: str):
    """The body's name and MLIR function type for variadic definition `c` (symbol `name`): the fixed
    parameters' lowered types (a struct's registers, or the address of its copy or of the result's memory),
    then the `va_list` address.

    Raises:
        CompileError: a complex parameter or result, or a C++ member function."""
    sig = fg.sig
    if sig.has_this or any(CT.is_complex(p.ctype) for p in sig.params) or CT.is_complex(sig.ret_ctype):
        what = "a C++ member function" if sig.has_this else "a complex parameter or result"
        raise fg.unsupported(c, f"definition of the variadic function '{c.spelling}' with {what}")
    ins = list(sig.ftype.inputs) + [CT.llvm_ptr()]
    return BODY_PREFIX + name, ir.FunctionType.get(ins, list(sig.ftype.results))


def define_entry(mg, c, name: str, body_name: str, ftype: ir.FunctionType, internal: bool, arg_attrs=()) -> None:
    """Emit (or complete the earlier declaration of) `llvm.func @name(fixed..., ...)`, the C symbol of variadic
    definition `c`, which starts a `va_list` and calls `body_name` of function type `ftype` (fixed + list).
    `arg_attrs`: the fixed arguments' ABI attributes (llvm.sret, llvm.byval: the entry is what callers see; the
    body takes the plain addresses)."""
    fixed = list(ftype.inputs)[:-1]
    results = list(ftype.results)
    ret = results[0] if results else ir.Type.parse("!llvm.void")
    entry_type = mg.declare_llvm_vararg(name, ret, fixed)
    entry = next(op for op in mg.module.body.operations
                 if op.operation.name == "llvm.func" and ir.StringAttr(op.attributes["sym_name"]).value == name)
    linkage = "internal" if internal else "external"
    entry.attributes["linkage"] = ir.Attribute.parse(f"#llvm.linkage<{linkage}>")
    if any(arg_attrs):
        entry.attributes["arg_attrs"] = ir.ArrayAttr.get([ir.DictAttr.get(dict(a)) for a in arg_attrs])
    assert ir.Type.parse(str(entry_type)) == ir.TypeAttr(entry.attributes["function_type"]).value
    block = ir.Block.create_at_start(entry.regions[0], fixed)
    i64 = ir.IntegerType.get_signless(64)
    with ir.InsertionPoint(block), ir.Location.file(mg.filename, c.location.line, c.location.column):
        one = llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, 1)).result
        ap = llvm.AllocaOp(CT.llvm_ptr(), one, ir.Type.parse(f"!llvm.array<{VA_LIST_BYTES} x i8>"),
                           alignment=VA_LIST_ALIGN).result
        llvm.VaStartOp(ap)
        call = func.CallOp(results, ir.FlatSymbolRefAttr.get(body_name), list(block.arguments) + [ap])
        llvm.VaEndOp(ap)
        llvm.ReturnOp(arg=call.results[0] if results else None)


def _list_address(fg, arg):
    """The address of the `va_list` that argument `arg` names (`ap` decays to it; a `va_list` parameter is it)."""
    return fg.raw_pointer(arg)


def va_start(fg, call, args):
    """`__builtin_va_start(ap, last)`: ap restarts as a copy of the list the entry started."""
    if getattr(fg, "va_list_arg", None) is None:
        raise error_at(call, "'va_start' used in a function with fixed arguments")
    llvm.VaCopyOp(_list_address(fg, args[0]), fg.va_list_arg)


def va_end(fg, call, args):
    """`__builtin_va_end(ap)`."""
    llvm.VaEndOp(_list_address(fg, args[0]))


def va_copy(fg, call, args):
    """`__builtin_va_copy(dest, src)`."""
    llvm.VaCopyOp(_list_address(fg, args[0]), _list_address(fg, args[1]))


BUILTINS = {"__builtin_va_start": va_start, "__builtin_c23_va_start": va_start, "__builtin_va_end": va_end,
            "__builtin_va_copy": va_copy, "__builtin___va_copy": va_copy}


def va_arg(fg, e):
    """`va_arg(ap, T)`: LLVM's `va_arg` of the lowered scalar type T, converted to T's MLIR value type.

    Raises:
        CompileError: T is a struct or a type the default argument promotions change."""
    ty = canonical(e.type)
    if ty.kind == T.LONGDOUBLE:
        return _va_arg_long_double(_list_address(fg, va_arg_operand(e)))
    if ty.kind == T.RECORD:
        return _va_arg_record(fg, _list_address(fg, va_arg_operand(e)),
                              ty, e)
    if CT.is_complex(ty) or ty.kind in (T.INT128, T.UINT128):
        # (a complex as a struct of its two parts, an __int128 as two INTEGER eightbytes aligned to 16: their
        # bytes as a record's, then loaded; LLVM's backend cannot lower an i128 va_arg)
        p = _va_arg_record(fg, _list_address(fg, va_arg_operand(e)), ty, e)
        return fg.load_llvm(p, ty)
    if CT.is_array(ty) or ty.kind == T.COMPLEX:
        raise error_at(e, f"unsupported construct: va_arg of type '{e.type.spelling}'")
    if ty.kind == T.FLOAT or CT.is_int(ty) and ty.get_size() < 4:
        raise error_at(e, f"va_arg of type '{e.type.spelling}', which the default argument promotions change "
                          f"(undefined behaviour; use '{'double' if ty.kind == T.FLOAT else 'int'}')")
    ap = _list_address(fg, va_arg_operand(e))
    if ty.kind == T.POINTER:
        raw = llvm.VaArgOp(CT.llvm_ptr(), ap).result
        return fg.from_ptr(raw, ty, None, e) if CT.pointee_is_memref(ty) else raw
    return llvm.VaArgOp(CT.scalar_type(ty), ap).result  # int, long, double...: the same in memory and registers


def _field(ap, offset):
    """The address of the field at byte `offset` of the `va_list` at `ap` (gp_offset 0, fp_offset 4,
    overflow_arg_area 8, reg_save_area 16)."""
    i64 = ir.IntegerType.get_signless(64)
    return llvm.IntToPtrOp(CT.llvm_ptr(), arith.addi(llvm.PtrToIntOp(i64, ap).result,
                                                     arith.constant(i64, offset))).result


def _va_arg_record(fg, ap, ty, e):
    """`va_arg(ap, struct S)` by the System V x86-64 algorithm (3.5.7): a struct whose eightbytes are classed
    INTEGER/SSE is read from the register save area when enough of both kinds of registers remain (INTEGER
    eightbytes at gp_offset, 8 bytes apart; SSE ones at fp_offset, 16 apart), else from the overflow area,
    like a struct classed MEMORY (larger than 16 bytes). Returns the address of a copy.

    Raises:
        CompileError: a member type with no x86-64 classification here."""
    try:
        classes = R.classify(ty, named=False)
    except CT.UnsupportedType as err:
        raise error_at(e, f"unsupported construct: va_arg of type '{e.type.spelling}' ({err})") from None
    size, align = CT.size_of(ty), max(ty.get_align(), 8)
    i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    copy = fg.byte_alloca(max(size, 16), align)

    def from_overflow_area():
        field = _field(ap, 8)
        area = llvm.PtrToIntOp(i64, llvm.LoadOp(CT.llvm_ptr(), field).result).result
        if align > 8:
            area = arith.andi(arith.addi(area, arith.constant(i64, align - 1)), arith.constant(i64, -align))
        fg.copy_bytes(copy, llvm.IntToPtrOp(CT.llvm_ptr(), area).result, size)
        next_area = arith.addi(area, arith.constant(i64, (size + 7) // 8 * 8))
        llvm.StoreOp(llvm.IntToPtrOp(CT.llvm_ptr(), next_area).result, field)

    if classes is None:
        from_overflow_area()
        return copy
    ni, ns = R.register_counts(classes)
    gp = llvm.LoadOp(i32, _field(ap, 0)).result
    fp = llvm.LoadOp(i32, _field(ap, 4)).result
    fits = arith.andi(arith.cmpi(arith.CmpIPredicate.ule, gp, arith.constant(i32, 48 - 8 * ni)),
                      arith.cmpi(arith.CmpIPredicate.ule, fp, arith.constant(i32, 176 - 16 * ns)))
    branch = scf.IfOp(fits, [], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        save = llvm.PtrToIntOp(i64, llvm.LoadOp(CT.llvm_ptr(), _field(ap, 16)).result).result
        at = {"int": arith.extui(i64, gp), "sse": arith.extui(i64, fp)}
        for k, cls in enumerate(classes):
            reg = "int" if cls == "int" else "sse"  # (a 'vector16' record: one XMM slot)
            piece = llvm.LoadOp(R.piece_type(cls), llvm.IntToPtrOp(CT.llvm_ptr(), arith.addi(save, at[reg])).result)
            llvm.StoreOp(piece.result, fg.at_offset(copy, 8 * k))
            at[reg] = arith.addi(at[reg], arith.constant(i64, 8 if reg == "int" else 16))
        llvm.StoreOp(arith.addi(gp, arith.constant(i32, 8 * ni)), _field(ap, 0))
        llvm.StoreOp(arith.addi(fp, arith.constant(i32, 16 * ns)), _field(ap, 4))
        scf.YieldOp([])
    with ir.InsertionPoint(branch.else_block):
        from_overflow_area()
        scf.YieldOp([])
    return copy


def _va_arg_long_double(ap):
    """`va_arg(ap, long double)`, which LLVM's x86-64 backend does not lower: a long double (class X87) is
    always in the overflow area, 16-byte aligned and 16 bytes long (System V x86-64 ABI, 3.5.7), so read it
    at overflow_arg_area (the list's third field, offset 8) rounded up to 16 and advance the field past it."""
    i64 = ir.IntegerType.get_signless(64)
    field = _field(ap, 8)
    area = llvm.PtrToIntOp(i64, llvm.LoadOp(CT.llvm_ptr(), field).result).result
    at = arith.andi(arith.addi(area, arith.constant(i64, 15)), arith.constant(i64, -16))
    value = llvm.LoadOp(ir.Type.parse("f80"), llvm.IntToPtrOp(CT.llvm_ptr(), at).result, alignment=16).result
    llvm.StoreOp(llvm.IntToPtrOp(CT.llvm_ptr(), arith.addi(at, arith.constant(i64, 16))).result, field)
    return value
