"""GNU extended asm statements, `asm [volatile] ("template" : outputs : inputs : clobbers)`, as `llvm.inline_asm`,
the way clang's CodeGen emits them (clang/lib/CodeGen/CGStmt.cpp, EmitAsmStmt; x86 constraints as in
clang/lib/Basic/Targets/X86.cpp):

- the template's operand references `%0`, `%[name]`, `%w1` become LLVM's `$0`, `${1:w}`; `%%` is `%`, `$` is `$$`;
  the dialect alternatives `{att|intel}` are LLVM's `$(att$|intel$)`;
- register constraints pass through (`r`, `q`, `x`, immediates `i`/`n`/`I`..`N`, matching digits), the one-register
  letters become explicit registers (`a` -> `{ax}`, `S` -> `{si}`...), `+` splits into an output and an input tied
  to it; the outputs are the op's results, stored into their lvalues after it;
- a memory operand (`m`, `=m`, `+m`) passes its lvalue's address (`*m` with the element type, as clang does); a
  variable the walker keeps in a register goes through a stack slot;
- clobbers become `~{reg}`, with the flags that x86 asm always clobbers (`~{dirflag},~{fpsr},~{flags}`), and
  rcx and r11 for a `syscall` (the kernel overwrites them; programs that gcc happens to compile omit them);
- an asm without outputs, or `volatile`, has side effects (gcc's rule); so has one with memory operands or a
  "memory" clobber, since MLIR takes an inline_asm without side effects to touch no memory.

libclang exposes an asm statement (ASM_STMT) only as its operand expressions; the template, constraints and
clobbers are read from clang's printing of the enclosing function, where macros are expanded. In CUDA device code
the template is PTX (ptx_asm.py). Rejected with an error: `asm goto`, offsettable and autoincrement memory (`o`, `V`, `<`, `>`) and constraints pgcc does not know.
Where a constraint allows a register or memory (`rm`, `g`), pgcc takes the register. File-scope
asm (`__asm__(".symver ...")`) becomes LLVM's module asm.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

import clang.cindex as ci
from mlir import ir
from mlir.dialects import llvm

from ..clang_ast import K, T, canonical, children
from . import c_types as CT
from . import ptx_asm
from . import records as R
from .c_text import code_chars
from .values import VarLV

REGISTER_LETTERS = {"a": "{ax}", "b": "{bx}", "c": "{cx}", "d": "{dx}", "S": "{si}", "D": "{di}",
                    "t": "{st}", "u": "{st(1)}"}
PLAIN_LETTERS = set("rqQRxYiInNJKLMegAXlfyZsE") | set("0123456789")  # (LLVM's x86 letters, same meaning as gcc's)
MEMORY_LETTERS = set("oV<>")
X86_CLOBBERS = "~{dirflag},~{fpsr},~{flags}"


@dataclass
class AsmSpec:
    """One asm statement as written: its template, operands (symbolic name or None, constraint) and clobbers."""
    template: str
    volatile: bool
    goto: bool
    outputs: list = field(default_factory=list)
    inputs: list = field(default_factory=list)
    clobbers: list = field(default_factory=list)


_ASM_HEAD = re.compile(r"\b(?:asm|__asm__|__asm)\s*((?:(?:volatile|__volatile__|inline|goto)\s*)*)\(")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def parse_printed(text: str) -> list:
    """AsmSpecs of the asm statements in clang's printing `text` of a function, in source order."""
    out = []
    pos = 0
    while True:
        m = _ASM_HEAD.search(text, pos)
        if m is None:
            return out
        inner, pos = _balanced(text, m.end())
        sections = _split_top(inner, ":")
        quals = m.group(1).split()
        spec = AsmSpec(_c_strings(sections[0]), "volatile" in quals or "__volatile__" in quals, "goto" in quals)
        for i, which in ((1, spec.outputs), (2, spec.inputs)):
            if len(sections) > i:
                which.extend(_operand(o) for o in _split_top(sections[i], ",") if o.strip())
        if len(sections) > 3:
            spec.clobbers = [_c_strings(c) for c in _split_top(sections[3], ",") if c.strip()]
        out.append(spec)


def _balanced(text, start):
    """(text up to the parenthesis closing the one before `start`, the offset after it); literals skipped."""
    for i, ch, depth in code_chars(text, start, depth=1):
        if ch == ")" and depth == 0:
            return text[start:i], i + 1
    raise ValueError("unbalanced asm statement")


def _split_top(text, sep):
    """`text` split at `sep` outside literals, parentheses and brackets."""
    parts, last = [], 0
    for i, ch, depth in code_chars(text, brackets="([)]"):
        if ch == sep and depth == 0 and not (sep == ":" and text[i + 1:i + 2] == ":" and _cxx_scope(text, i)):
            parts.append(text[last:i])
            last = i + 1
    parts.append(text[last:])
    return parts


def _cxx_scope(text, i):
    """Whether the `::` at `i` is C++'s scope operator (an identifier right before it) rather than two sections."""
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")


def _c_strings(text) -> str:
    """The value of the C string literals in `text`, joined (one char per byte)."""
    out = b""
    for lit in _STRING.findall(text):
        out += ast.literal_eval("b" + lit) if lit.isascii() else ast.literal_eval(lit).encode("utf-8")
    return out.decode("latin-1")


def _operand(text):
    """(symbolic name or None, constraint) of one operand `[name] "constraint" (expr)`."""
    m = re.match(r"\s*(?:\[\s*(\w+)\s*\])?\s*", text)
    return m.group(1), _c_strings(text[m.end():].split("(", 1)[0])


def file_scope_asm(decl):
    """The text of file-scope asm declaration `decl` (`__asm__(".symver f,f@V1")`), or None when the
    UNEXPOSED_DECL `decl` is something else."""
    printed = decl.pretty_printed(ci.PrintingPolicy.create(decl))
    m = re.match(r"\s*(?:__asm__|__asm|asm)\s*\((.*)\)\s*;?\s*$", printed, re.S)
    return _c_strings(m.group(1)) if m else None


def specs(fg) -> dict:
    """{ASM_STMT hash: AsmSpec} of the function `fg` emits (read once per function)."""
    cached = fg.__dict__.get("asm_specs")
    if cached is None:
        fn = fg.cursor
        stmts = [c.hash for c in fn.walk_preorder() if c.kind == K.ASM_STMT]
        parsed = parse_printed(fn.pretty_printed(ci.PrintingPolicy.create(fn)))
        cached = fg.asm_specs = dict(zip(stmts, parsed)) if len(parsed) == len(stmts) else {}
    return cached


def is_memory(code: str) -> bool:
    """Whether gcc constraint `code` is a memory operand (`m`, `=m`, `+m`)."""
    return code.lstrip("=+&%") == "m"


def llvm_constraint(fg, c, code: str, output: bool) -> str:
    """LLVM's spelling of gcc constraint `code` (modifiers `=`, `+`, `&`, `%` included) of an operand of ASM_STMT `c`.

    Raises:
        CompileError: a constraint pgcc does not know (see the module's docstring)."""
    body = code.lstrip("=+&%")
    prefix = ("=" if output else "") + ("&" if "&" in code else "")
    if body == "m":
        return prefix + "*m"
    if not body:
        raise fg.unsupported(c, f"asm operand with constraint '{code}'")
    alternatives = []
    for letter in body:
        if letter == "m":
            continue  # (`rm`, `mr`: with another alternative, the register one, as for `g`)
        if letter in MEMORY_LETTERS:
            raise fg.unsupported(c, f"asm operand with constraint '{code}' (offsettable or autoincrement memory)")
        if letter in REGISTER_LETTERS:
            alternatives.append(REGISTER_LETTERS[letter])
        elif letter == "g":
            alternatives.append("r")  # (register, memory or immediate: a register is always allowed)
        elif letter in PLAIN_LETTERS:
            alternatives.append(letter)
        else:
            raise fg.unsupported(c, f"asm constraint '{code}'")
    if len(alternatives) > 1 and any(a.startswith("{") for a in alternatives):
        raise fg.unsupported(c, f"asm constraint '{code}' naming several registers")
    return prefix + "".join(alternatives)


def llvm_template(fg, c, spec: AsmSpec) -> str:
    """The template of `spec` in LLVM's operand syntax (see the module's docstring)."""
    names = [n for n, _ in spec.outputs] + [n for n, _ in spec.inputs]
    out, i, t = [], 0, spec.template
    while i < len(t):
        ch = t[i]
        if ch == "$":
            out.append("$$")
        elif ch in "{|}":  # gcc's dialect alternatives `{att|intel}` (cpuid.h's `xchg{q|}`): LLVM's $( $| $)
            out.append({"{": "$(", "|": "$|", "}": "$)"}[ch])
        elif ch != "%" or i + 1 == len(t):
            out.append(ch)
        elif t[i + 1] in "%{|}":
            out.append(t[i + 1] if t[i + 1] == "%" else "$" + t[i + 1])
            i += 1
        elif t[i + 1] == "=":
            out.append("${:uid}")
            i += 1
        else:
            m = re.match(r"([a-zA-Z]?)(\d+|\[\w+\])", t[i + 1:])
            if m is None:
                raise fg.unsupported(c, f"asm template operand '{t[i:i + 3]}'")
            mod, ref = m.groups()
            n = int(ref) if ref.isdigit() else (names.index(ref[1:-1]) if ref[1:-1] in names else -1)
            if not 0 <= n < len(names) or mod == "l":
                raise fg.unsupported(c, f"asm template operand '%{mod}{ref}'")
            out.append(f"${{{n}:{mod}}}" if mod else f"${n}")
            i += len(m.group(0))
        i += 1
    return "".join(out)


def emit_asm(fg, c):
    """ASM_STMT `c` as one llvm.inline_asm; its outputs are stored into their lvalues.

    Raises:
        CompileError: `asm goto`, an asm pgcc cannot read, a memory operand or an unknown constraint."""
    spec = specs(fg).get(c.hash)
    if spec is None:
        raise fg.unsupported(c, "asm statement that pgcc cannot read")
    if spec.goto:
        raise fg.unsupported(c, "asm goto")
    exprs = children(c)
    if fg.in_device_function():  # (PTX, not x86: device code runs on the CPU)
        def store(e, v):
            _store(fg, e, fg.lvalue(e), _fit(fg, e, v))
        return ptx_asm.emit_ptx(fg, c, spec, exprs[:len(spec.outputs)], exprs[len(spec.outputs):], store)
    outs, ins = exprs[:len(spec.outputs)], exprs[len(spec.outputs):]
    if len(ins) != len(spec.inputs):
        raise fg.unsupported(c, "asm statement that pgcc cannot read")
    # LLVM's operands: the addresses of memory outputs, the inputs, then the inputs tied to in-out outputs
    out_codes, mem_outs, in_codes, operands, elem, tied, result_types, stores = [], [], [], [], [], [], [], []
    for k, ((_, code), e) in enumerate(zip(spec.outputs, outs)):
        out_codes.append(llvm_constraint(fg, c, code, output=True))
        if is_memory(code):
            ptr, ty, store_back = _memory_operand(fg, c, e)
            mem_outs.append((ptr, ty))
            stores.append(store_back)
            if "+" in code:  # (read too: an input at the same address)
                tied.append(("*m", ptr, ty))
            continue
        result_types.append(_operand_type(fg, c, e))
        lv = fg.lvalue(e)  # (once: `"+r"(*next())` calls next() once, as gcc does)
        stores.append((e, lv))
        if "+" in code:
            v = fg.load(lv)
            tied.append((str(k), fg.to_ptr(v) if canonical(e.type).kind == T.POINTER else v, None))
    for (_, code), e in zip(spec.inputs, ins):
        in_codes.append(llvm_constraint(fg, c, code, output=False))
        if is_memory(code):
            ptr, ty, _ = _memory_operand(fg, c, e)
            operands.append(ptr)
            elem.append(ty)
        else:
            operands.append(_operand_value(fg, e))
            elem.append(None)
    operands = [p for p, _ in mem_outs] + operands + [v for _, v, _ in tied]
    elem = [t for _, t in mem_outs] + elem + [t for _, _, t in tied]
    constraints = out_codes + in_codes + [code for code, _, _ in tied]
    for name in spec.clobbers:
        reg = name.lstrip("%")
        if reg not in ("cc", "flags", "dirflag", "fpsr"):
            constraints.append(f"~{{{reg}}}")
    if re.search(r"\bsyscall\b", spec.template):  # (the kernel overwrites rcx and r11; programs omit them)
        constraints += [r for r in ("~{rcx}", "~{r11}") if r not in constraints]
    text = ",".join(constraints + [X86_CLOBBERS])
    res = None if not result_types else result_types[0] if len(result_types) == 1 else \
        llvm.StructType.get_literal(result_types)
    # (MLIR treats an inline_asm without side effects as pure: memory operands and a "memory" clobber need them)
    side_effects = spec.volatile or not spec.outputs or any(t is not None for t in elem) or "memory" in spec.clobbers
    attrs = None
    if any(t is not None for t in elem):
        dicts = [ir.DictAttr.get({} if t is None else {"elementtype": ir.TypeAttr.get(t)}) for t in elem]
        if res is None:  # (the translation to LLVM IR counts the result's attributes first when there is none)
            dicts.insert(0, ir.DictAttr.get({}))
        attrs = ir.ArrayAttr.get(dicts)
    op = llvm.InlineAsmOp(res, operands, llvm_template(fg, c, spec), text,
                          has_side_effects=True if side_effects else None,  # (AT&T syntax: the default)
                          operand_attrs=attrs)
    k = 0
    for target in stores:
        if callable(target):  # a memory output kept in a register by the walker: load it back
            target()
            continue
        v = op.result if len(result_types) == 1 else llvm.ExtractValueOp(result_types[k], op.result, [k]).result
        _store(fg, *target, v)
        k += 1


def _memory_operand(fg, c, e):
    """(!llvm.ptr address, element type, store-back function) of memory operand `e`: its lvalue's address, or a
    stack slot holding a variable that the walker keeps in a register (store-back copies the slot into it)."""
    ty = canonical(e.type)
    if ty.kind == T.RECORD or CT.is_array(ty):  # (`"=m"(*ts)` of a struct: the asm sees its bytes)
        return fg.address(e), R.bytes_type(ty), lambda: None
    elem = _operand_type(fg, c, e)
    lv = fg.lvalue(e)
    if not isinstance(lv, VarLV):
        return fg.address(e), elem, lambda: None
    slot = fg.byte_alloca(CT.size_of(ty), ty.get_align())
    fg.store_llvm(slot, ty, _operand_value(fg, e))

    def store_back():
        v = llvm.LoadOp(elem, slot).result
        _store(fg, e, fg.lvalue(e), v)
    return slot, elem, store_back


def _operand_type(fg, c, e) -> ir.Type:
    """The LLVM type of asm operand expression `e` (an integer, a floating-point number or a pointer)."""
    ty = canonical(e.type)
    if ty.kind == T.POINTER:
        return CT.llvm_ptr()
    if CT.is_arith(ty) and ty.kind != T.BOOL:
        return CT.memory_type(ty)
    raise fg.unsupported(c, f"asm operand of type '{e.type.spelling}'")


def _operand_value(fg, e):
    """The value of asm input `e` as the asm sees it: the number, or the raw address of a pointer."""
    if canonical(e.type).kind == T.POINTER:
        return fg.raw_pointer(e)
    return fg.rvalue(e)


def _fit(fg, e, v):
    """Integer value `v` (i32 or i64) converted to the integer type of output `e` (a wider output takes it
    zero-extended)."""
    t = CT.memory_type(canonical(e.type))
    width = ir.IntegerType(v.type).width
    if isinstance(t, ir.IntegerType) and t.width != width:
        from mlir.dialects import arith
        return arith.extui(t, v) if t.width > width else arith.trunci(t, v)
    return v


def _store(fg, e, lv, v):
    """Store asm result `v` into output `e` whose lvalue is `lv` (a pointer in the walker's own form when it keeps
    one)."""
    ty = canonical(e.type)
    if ty.kind == T.POINTER and CT.pointee_is_memref(ty):
        v = fg.from_ptr(v, ty, None, e)
    fg.store(lv, v)
