"""Object-file sections (`__attribute__((section("name")))` on functions and global or static variables): the
frontend records them on the module (`pgcc.sections`), and after the lowering to the LLVM dialect each named
`llvm.func` / `llvm.mlir.global` gets its `section` attribute, as clang emits `section "name"` (a memref.global
loses its attributes in the lowering, so the section cannot be set earlier).

Static symbols marked `__attribute__((used))` (an RCS id string, a function only inline asm calls) are recorded
as `pgcc.kept` and, after the lowering, listed in `@llvm.used` (appending linkage, section "llvm.metadata"), as
clang emits them, so that LLVM's global dead-code elimination keeps them in the object file.
"""

from __future__ import annotations

from mlir import ir

ATTR = "pgcc.sections"


def record(module: ir.Module, sections: dict) -> None:
    """Note on `module` the sections of its symbols: `sections` maps a symbol to its section name (str)."""
    module.operation.attributes[ATTR] = ir.DictAttr.get(
        {name: ir.StringAttr.get(section) for name, section in sections.items()})


KEPT = "pgcc.kept"


def record_kept(module: ir.Module, names: list) -> None:
    """Note on `module` the symbols (list of str) that `used` asks to keep."""
    module.operation.attributes[KEPT] = ir.ArrayAttr.get([ir.StringAttr.get(n) for n in names])


def _emit_used(module: ir.Module) -> None:
    """After the lowering: `@llvm.used`, an array of the addresses of the recorded symbols that are still there."""
    names = [ir.StringAttr(a).value for a in ir.ArrayAttr(module.operation.attributes[KEPT])]
    del module.operation.attributes[KEPT]
    kinds = {ir.StringAttr(op.attributes["sym_name"]).value: op.name for op in module.body.operations
             if op.name in ("llvm.func", "llvm.mlir.global") and "sym_name" in op.attributes}
    names = [n for n in names if n in kinds]
    if not names:
        return
    arr = f"!llvm.array<{len(names)} x ptr>"
    quoted = {n: '@"' + n.replace("\\", "\\\\").replace('"', '\\"') + '"' for n in names}
    # (parsed in a module of its own, which declares the symbols so that the addressof ops verify; then moved)
    text = ["module {"] + [f"llvm.func {quoted[n]}()" if kinds[n] == "llvm.func" else
                           f"llvm.mlir.global external {quoted[n]}() : i8" for n in names]
    text.append(f'llvm.mlir.global appending @llvm.used() {{addr_space = 0 : i32, section = "llvm.metadata"}} : '
                f"{arr} {{")
    text.append(f"%0 = llvm.mlir.undef : {arr}")
    for i, n in enumerate(names):
        text.append(f"%a{i} = llvm.mlir.addressof {quoted[n]} : !llvm.ptr")
        text.append(f"%{i + 1} = llvm.insertvalue %a{i}, %{i}[{i}] : {arr}")
    text += [f"llvm.return %{len(names)} : {arr}", "}", "}"]
    scratch = ir.Module.parse("\n".join(text), context=module.context)
    used = list(scratch.body.operations)[-1]
    used.detach_from_parent()
    module.body.append(used)


def apply_sections(module: ir.Module) -> None:
    """After the lowering: set the recorded section on each function and global of `module` (in place); a symbol
    that the lowering dropped (an unused static) has nothing to place. Also lists the `used` statics in
    `@llvm.used`."""
    if KEPT in module.operation.attributes:
        _emit_used(module)
    if ATTR not in module.operation.attributes:
        return
    recorded = ir.DictAttr(module.operation.attributes[ATTR])
    table = {recorded[i].name: recorded[i].attr for i in range(len(recorded))}
    del module.operation.attributes[ATTR]
    for op in module.body.operations:
        if op.name in ("llvm.func", "llvm.mlir.global") and "sym_name" in op.attributes:
            name = ir.StringAttr(op.attributes["sym_name"]).value
            if name in table:
                op.attributes["section"] = table[name]
