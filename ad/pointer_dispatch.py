"""Calls through a function pointer chosen at run time, as a dispatch over the candidate functions, before AD.

``double (*f)(double) = flag ? sq : cube; ... f(x)``: Enzyme differentiates every function a pointer may hold and
makes the shadow of a function pointer its derivative, so the call's derivative is that of the function called.
Here the primal copy that AD differentiates calls the candidates directly instead:

    f(args)  ->  f == &c1 ? c1(args) : f == &c2 ? c2(args) : ... : abort with a message

where the candidates are the functions of the file whose address the file takes (a ``func.constant`` anywhere
in the module: a function named as a value) and whose parameter and result types are the call's. Each direct
call is then inlined or differentiated like any other; a pointer that holds none of them (a function of another
file, a pointer made from an integer) stops the derivative with a message naming the call instead of giving a
wrong one. A call whose pointer can only hold one function was already made direct (prepare.direct_calls).
"""

from __future__ import annotations

import re

from mlir import ir
from mlir.dialects import arith, func, llvm, scf

from .activity import all_ops
from .run_time_checks import abort_now, declare_write_and_abort


def dispatch_indirect_calls(f, module) -> int:
    """Rewrite every call through a function pointer in function `f` (of `module`) that has candidates (see the
    module docstring) into a dispatch over them. Returns how many calls were rewritten; a call without
    candidates is left as it is (AD then names it in an error)."""
    calls = [c for c in all_ops(f) if c.name == "llvm.call" and "callee" not in c.attributes
             and "var_callee_type" not in c.attributes]  # (a variadic one: no candidates have its type)
    if not calls:
        return 0
    taken = _address_taken(module)
    done = 0
    for c in calls:
        args = list(c.operands)[1:]
        want = ([a.type for a in args], [r.type for r in c.results])
        names = [n for n, t in taken.items() if (list(t.inputs), list(t.results)) == want]
        if not names or not declare_write_and_abort(module):
            continue
        _dispatch(c, sorted(names), taken, module)
        done += 1
    return done


def _address_taken(module) -> dict:
    """name -> function type of the functions of `module` named as values (func.constant)."""
    funcs = {ir.StringAttr(o.attributes["sym_name"]).value: o for o in module.body.operations
             if o.operation.name == "func.func"}
    out = {}
    for o in all_ops(module.operation):
        if o.name == "func.constant":
            name = ir.FlatSymbolRefAttr(o.attributes["value"]).value
            if name in funcs and not name.startswith("__enzyme"):
                out[name] = ir.FunctionType(ir.TypeAttr(funcs[name].attributes["function_type"]).value)
    return out


def _dispatch(c, names, taken, module) -> None:
    i64 = ir.IntegerType.get_signless(64)
    ptr = c.operands[0]
    args = list(c.operands)[1:]
    types = [r.type for r in c.results]
    m = re.search(r'"([^"]+)":(\d+):(\d+)', str(c.location))
    where = f"{m.group(1)}:{m.group(2)}:{m.group(3)}" if m else "a call"
    text = (f"pgcc: {where}: the function pointer called holds none of the functions this file names with its "
            f"type ({', '.join(names)}): its derivative is not computed\n")
    with c.location, ir.InsertionPoint(c):
        at = llvm.PtrToIntOp(i64, ptr).result
        results = _chain(at, names, 0, args, types, taken, text, module)
    for r, n in zip(c.results, results):
        r.replace_all_uses_with(n)
    c.erase()


def _chain(at, names, k, args, types, taken, text, module):
    """Results of `if (at == &names[k]) names[k](args) else <the rest>`, built at the insertion point."""
    i64 = ir.IntegerType.get_signless(64)
    name = names[k]
    fptr = ir.Operation.create("builtin.unrealized_conversion_cast", results=[ir.Type.parse("!llvm.ptr")],
                               operands=[func.ConstantOp(taken[name], ir.FlatSymbolRefAttr.get(name)).result]).result
    same = arith.cmpi(arith.CmpIPredicate.eq, at, llvm.PtrToIntOp(i64, fptr).result)
    branch = scf.IfOp(same, types, has_else=True)
    with ir.InsertionPoint(branch.then_block):
        scf.YieldOp(_direct_call(name, args, types, module))
    with ir.InsertionPoint(branch.else_block):
        if k + 1 < len(names):
            scf.YieldOp(list(_chain(at, names, k + 1, args, types, taken, text, module)))
        else:
            abort_now(text, module)
            scf.YieldOp([_placeholder(t) for t in types])
    return list(branch.results)


def _direct_call(name, args, types, module):
    """Results of a direct call of `name` (a math op for a libm function without a body, as the frontend emits
    a call of it by name, so that its derivative rule applies)."""
    from polygeist_py.frontend.builtins import math_name
    from .prepare import functions, is_defined
    math = None if is_defined(functions(module)[name]) else math_name(name)
    if math is not None and len(args) == math[1] and len(types) == 1 and all(a.type == types[0] for a in args):
        return list(ir.Operation.create(math[0], results=types, operands=args).results)
    return list(func.CallOp(types, ir.FlatSymbolRefAttr.get(name), args).results)


def _placeholder(t):
    """A value of type `t` for the branch that has aborted (never used)."""
    if isinstance(t, ir.FloatType):
        return arith.constant(t, 0.0)
    if isinstance(t, (ir.IntegerType, ir.IndexType)):
        return arith.constant(t, 0)
    return llvm.ZeroOp(t).result
