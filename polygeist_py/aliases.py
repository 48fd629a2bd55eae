"""Symbol aliases (`__attribute__((alias("target")))`, glibc's and musl's `weak_alias(name, aliasname)`) and
indirect functions (`__attribute__((ifunc("resolver")))`, x86 libraries' run-time dispatch): the frontend records
them on the module (`pgcc.aliases`), and after the lowering to the LLVM dialect each becomes an `llvm.mlir.alias`
whose body is the target's address, as clang emits `@name = [weak] alias <type>, ptr @target`, or an
`llvm.mlir.ifunc` of the resolver (`@name = ifunc <type>, ptr @resolver`: the dynamic linker calls the resolver
once and binds the name to the address it returns).

An alias is another name of a definition in the same translation unit (gcc's rule): calls to it in this file go
through its address, because `llvm.call` names only functions, and LLVM folds them into direct calls.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import llvm

from .errors import InternalError

ATTR = "pgcc.aliases"


def record(module: ir.Module, aliases: dict) -> None:
    """Note on `module` its aliases: `aliases` maps an alias's symbol to (target symbol, weak: bool), with a third
    item "internal" for a `static` alias, or for an `ifunc` to (resolver symbol, False, "ifunc")."""
    module.operation.attributes[ATTR] = ir.DictAttr.get({
        name: ir.ArrayAttr.get([ir.FlatSymbolRefAttr.get(entry[0]), ir.BoolAttr.get(entry[1]),
                                *([ir.StringAttr.get(entry[2])] if len(entry) > 2 else [])])
        for name, entry in aliases.items()})


def emit_aliases(module: ir.Module) -> None:
    """After the lowering: replace each recorded alias's declaration by an `llvm.mlir.alias` of its target (in
    place); calls to the alias become calls through its address.

    Raises:
        InternalError: the target's definition is missing (the frontend has checked that the file defines it)."""
    if ATTR not in module.operation.attributes:
        return
    recorded = ir.DictAttr(module.operation.attributes[ATTR])
    table = {recorded[i].name: ir.ArrayAttr(recorded[i].attr) for i in range(len(recorded))}
    del module.operation.attributes[ATTR]
    symbols = {ir.StringAttr(op.attributes["sym_name"]).value: op for op in module.body.operations
               if "sym_name" in op.attributes}
    ptr = ir.Type.parse("!llvm.ptr", module.context)
    for name, entry in table.items():
        target, weak = ir.FlatSymbolRefAttr(entry[0]).value, ir.BoolAttr(entry[1]).value
        aliasee = symbols.get(target)
        if aliasee is None or (aliasee.name == "llvm.func" and not aliasee.regions[0].blocks):
            raise InternalError(f"the target '{target}' of alias '{name}' was not kept to the LLVM dialect")
        _calls_through_address(module, name, ptr)
        marker = ir.StringAttr(entry[2]).value if len(entry) > 2 else None
        if marker == "ifunc":  # `ifunc("resolver")`: the symbol is the address the resolver returns
            declared = symbols.pop(name, None)
            ftype = (ir.TypeAttr(declared.attributes["function_type"]).value if declared is not None
                     else ir.Type.parse("!llvm.func<void ()>", module.context))
            if declared is not None:
                declared.erase()
            with ir.InsertionPoint(module.body), aliasee.location:
                llvm.IFuncOp(name, ftype, target, ptr, ir.Attribute.parse("#llvm.linkage<external>"))
            continue
        if name in symbols:
            symbols[name].erase()
        value_type = (aliasee.attributes["function_type"] if aliasee.name == "llvm.func"
                      else aliasee.attributes["global_type"])
        kind = "internal" if marker == "internal" else "weak" if weak else "external"  # (a `static` alias: internal)
        linkage = ir.Attribute.parse(f"#llvm.linkage<{kind}>")
        with ir.InsertionPoint(module.body), aliasee.location:
            alias = llvm.AliasOp(ir.TypeAttr(value_type).value, name, linkage)
            body = alias.regions[0].blocks.append()
            with ir.InsertionPoint(body):
                llvm.ReturnOp(arg=llvm.AddressOfOp(ptr, target).result)


def _calls_through_address(module: ir.Module, name: str, ptr: ir.Type) -> None:
    """Rewrite every `llvm.call @name(args)` in `module` into an indirect call of `llvm.mlir.addressof @name`."""
    calls = []

    def visit(op):
        if op.name == "llvm.call" and "callee" in op.attributes and \
                ir.FlatSymbolRefAttr(op.attributes["callee"]).value == name:
            calls.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    for call in calls:
        with ir.InsertionPoint(call), call.location:
            address = llvm.AddressOfOp(ptr, name).result
            named = [call.attributes[i] for i in range(len(call.attributes))]
            attrs = {a.name: a.attr for a in named if a.name not in ("callee", "operandSegmentSizes")}
            n_args, n_bundles = list(ir.DenseI32ArrayAttr(call.attributes["operandSegmentSizes"]))
            attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([n_args + 1, n_bundles])
            new = ir.Operation.create("llvm.call", results=[r.type for r in call.results],
                                      operands=[address, *call.operands], attributes=attrs)
        for old, res in zip(call.results, new.results):
            old.replace_all_uses_with(res)
        call.erase()
