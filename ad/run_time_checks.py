"""Run-time checks of the primal copies that AD differentiates: where a fact a derivative relies on is only known
when the program runs (a loop counter that does not wrap around, a function pointer that holds one of the
candidate functions), the derivative writes a message naming the source construct to standard error and aborts
instead of computing a wrong derivative."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, llvm, scf


def declare_write_and_abort(module) -> bool:
    """Declare write and abort in `module` where missing; False when the file declares them otherwise."""
    i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    want = {"write": ir.FunctionType.get([i32, ir.Type.parse("!llvm.ptr"), i64], [i64]),
            "abort": ir.FunctionType.get([], [])}
    have = {ir.StringAttr(o.attributes["sym_name"]).value: o for o in module.body.operations
            if "sym_name" in o.attributes}
    for name, t in want.items():
        o = have.get(name)
        if o is None:
            with ir.InsertionPoint(module.body), ir.Location.unknown():
                func.FuncOp(name, t, visibility="private")
        elif o.operation.name != "func.func" or ir.TypeAttr(o.attributes["function_type"]).value != t:
            return False
    return True


def abort_if(bad, text: str, module) -> None:
    """At the insertion point: write `text` to standard error and abort when i1 `bad` holds."""
    check = scf.IfOp(bad)
    with ir.InsertionPoint(check.then_block):
        abort_now(text, module)
        scf.YieldOp([])


def abort_now(text: str, module) -> None:
    """At the insertion point: write `text` to standard error and abort (declare_write_and_abort first)."""
    from .gpu_block import _string_global
    i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    msg = llvm.AddressOfOp(ir.Type.parse("!llvm.ptr"), _string_global(module, text)).result
    func.CallOp([i64], ir.FlatSymbolRefAttr.get("write"),
                [arith.constant(i32, 2), msg, arith.constant(i64, len(text.encode()))])
    func.CallOp([], ir.FlatSymbolRefAttr.get("abort"), [])
