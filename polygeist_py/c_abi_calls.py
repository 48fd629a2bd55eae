"""Call sites carry their callee's ABI parameter attributes (byval, sret, align), before the LLVM lowering.

The frontend gives a function taking a struct of more than 16 bytes by value a `!llvm.ptr` parameter marked
`llvm.byval` (and a struct result in memory a hidden `llvm.sret` one: frontend/records.py, the x86-64 System V
classification). LLVM reads those attributes from the call site as well as from the callee: a call whose site
lacks `byval` passes a plain pointer to the caller's temporary, and when the callee is only declared (it lives
in another translation unit) LLVM then marks the call `tail` (it cannot see an alloca escaping) and deletes the
stores that fill the temporary, so the callee reads garbage. Clang copies the attributes onto every call site
(CodeGen/CGCall.cpp, ConstructAttributeList); pgcc does the same here, once, for every `func.call` in the
module whatever stage made it (frontend, cpuify's launches, AD), since `convert-func-to-llvm` carries a
call's `arg_attrs` over to `llvm.call`.
"""

from __future__ import annotations

from mlir import ir

# attributes that change how an argument is passed, so caller and callee must agree on them
ABI_ATTRIBUTES = ("llvm.byval", "llvm.sret", "llvm.align")


def copy_abi_attributes_to_calls(module: ir.Module) -> int:
    """Give each `func.call` in `module` (in place) the ABI attributes of its callee's parameters.

    Args:
        module: MLIR module with `func.func` definitions/declarations and `func.call`s (any stage before
            the LLVM lowering).
    Returns:
        The number of call sites changed.
    """
    abi = {}
    for op in module.body.operations:
        if op.operation.name != "func.func" or "arg_attrs" not in op.attributes:
            continue
        per_arg = [{a.name: a.attr for a in d if a.name in ABI_ATTRIBUTES}
                   for d in map(ir.DictAttr, ir.ArrayAttr(op.attributes["arg_attrs"]))]
        if any(per_arg):
            abi[ir.StringAttr(op.attributes["sym_name"]).value] = per_arg
    if not abi:
        return 0
    calls = []

    def visit(op):
        if op.name == "func.call" and ir.FlatSymbolRefAttr(op.attributes["callee"]).value in abi:
            calls.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    for call in calls:
        per_arg = abi[ir.FlatSymbolRefAttr(call.attributes["callee"]).value]
        old = (list(map(ir.DictAttr, ir.ArrayAttr(call.attributes["arg_attrs"])))
               if "arg_attrs" in call.attributes else [])
        merged = []
        for i in range(len(call.operands)):
            d = {a.name: a.attr for a in old[i]} if i < len(old) else {}
            d.update(per_arg[i] if i < len(per_arg) else {})
            merged.append(ir.DictAttr.get(d))
        call.attributes["arg_attrs"] = ir.ArrayAttr.get(merged)
    return len(calls)
