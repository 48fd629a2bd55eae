"""GNU attributes on functions and variables: each one pgcc meets is implemented, accepted as a hint that does not
change what the program does, or an error naming it; none is silently ignored.

Implemented: `constructor`/`destructor` (with a priority: llvm.mlir.global_ctors/dtors after the lowering,
constructors.py), `weak` on functions (weak linkage), `noinline`/`noipa` on functions (LLVM's noinline, which
`__builtin_return_address` and `__builtin_frame_address` observe), `aligned(N)` on variables (the global's or the stack
slot's alignment), `cleanup(f)` on locals (`f(&var)` when the block ends by any path: decls.py), `used` (functions
with external linkage are never dropped anyway; a static function or variable is kept in the object file, as
`@llvm.used`: sections.py), C11 `_Thread_local` /
`__thread` (module.py: thread-local LLVM globals), `alias("target")` and `ifunc("resolver")` on functions
(aliases.py), `section("name")` on functions and global or static variables (sections.py: the symbol's
object-file section).
Layout attributes (`packed`, `aligned` on types and fields,
`mode`) are clang's layout, which pgcc uses. Rejected with an error: `cleanup` on other than locals, `section` on automatic variables, `weakref`,
`ifunc` on variables, `naked`, `transparent_union`, `weak` on locals, and any attribute this
table does not know.

libclang exposes most attributes as UNEXPOSED_ATTR cursors without their name or arguments: both are read from the
source where the attribute is spelled (clang_getSpellingLocation: in a macro's definition when a macro writes it);
numeric arguments only where they are literal (or a one-parameter macro's literal argument).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import clang.cindex as ci
from mlir import ir

from ..clang_ast import K, file_text, macro_definitions, spelled_at, var_decl_initializer
from ..errors import error_at

# attributes that only inform the optimizer or the diagnostics: no meaning for pgcc's code
HINTS = frozenset("""
noinline always_inline gnu_inline inline cold hot format format_arg nonnull returns_nonnull malloc noreturn unused
deprecated unavailable warn_unused_result pure const nothrow leaf sentinel flatten artificial no_instrument_function
noclone noipa access alloc_size alloc_align assume_aligned returns_twice warning error fallthrough nonstring
designated_init may_alias optimize target target_clones visibility externally_visible no_sanitize
no_sanitize_address no_sanitize_thread no_sanitize_undefined no_address_safety_analysis no_stack_protector
stack_protect no_split_stack nocommon common tls_model packed mode aligned retain minsize noduplicate convergent
nodiscard maybe_unused likely unlikely carries_dependency no_unique_address disable_tail_calls not_tail_called
no_profile_instrument_function patchable_function_entry zero_call_used_regs noplt no_reorder symver
availability diagnose_if enable_if overloadable internal_linkage annotate launch_bounds maxntid minctasm
_Noreturn
""".split())  # (C11's `_Noreturn` keyword reaches libclang as an attribute spelled so)
REJECTED = {"cleanup": "a function called at the end of the variable's scope",  # (locals: implemented)
            "section": "placement in a named section",  # (functions and globals: implemented)
            "alias": "a second name for a definition", "weakref": "a weak reference",
            "naked": "a function without prologue", "transparent_union": "a calling convention",
            "interrupt": "an interrupt handler", "scalar_storage_order": "a byte order",
            "vector_size": "GNU vector types", "ext_vector_type": "vector types"}
DEFAULT_PRIORITY = 65535


@dataclass
class DeclAttributes:
    """What the attributes of one declaration ask pgcc to do. `constructor`/`destructor`: the priority (None
    when the attribute is absent); `weak`; `align`: bytes, or None."""
    constructor: int | None = None
    destructor: int | None = None
    weak: bool = False
    align: int | None = None
    cleanup: object = None  # the FUNCTION_DECL that `cleanup(f)` names: f(&var) runs when the block ends
    alias: str | None = None  # `alias("target")`: the symbol this declaration is another name of (aliases.py)
    ifunc: str | None = None  # `ifunc("resolver")`: the function that returns this one's address (aliases.py)
    section: str | None = None  # `section("name")`: the object-file section of the symbol (sections.py)
    used: bool = False  # `used` on a static function or variable: kept in the object though unreferenced
    noinline: bool = False  # `noinline`/`noipa` on a function: LLVM's noinline (frame and return addresses see it)


_MACRO_USE = re.compile(r"(\w+)\s*\(\s*(\d+)\s*\)")
_SPELLED = re.compile(r"\s*(\w+)\s*(?:\(([^()]*(?:\([^()]*\)[^()]*)*)\))?")


def _spelled(attr):
    """(name, argument text or None) of an attribute as written where it is spelled (in a macro's definition when
    a macro writes it, which libclang's tokens do not show): e.g. ('aligned', '64'), ('cleanup', 'free_buf')."""
    where = spelled_at(attr.extent.start)
    if where is None:
        return "", None
    text, off = where
    while off > 0 and (text[off - 1].isalnum() or text[off - 1] == "_"):
        off -= 1  # (a macro's `__alias__(#symbol)`: clang's location may fall inside the name)
    m = _SPELLED.match(text, off)
    if m is None:
        return "", None
    name = m.group(1)
    name = name[2:-2] if name.startswith("__") and name.endswith("__") and len(name) > 4 else name
    return name, (m.group(2).strip() if m.group(2) is not None else None)


def _literal_argument(attr, args):
    """The integer written as the attribute's argument `args` (`aligned(64)`, `constructor(101)`, or through a
    macro whose one parameter is the argument: `#define ALIGNED(n) __attribute__((aligned(n)))` used as
    `ALIGNED(64)`); None when absent; raises ValueError when it is not a literal (an expression, another macro)."""
    if args is None:
        return None
    if args.isdigit():
        return int(args)
    if args.isidentifier():
        n = _macro_use_argument(attr, args)
        if n is not None:
            return n
    return _integer_expression(attr, args)


def _integer_expression(attr, args: str) -> int:
    """The value of an attribute argument written with object-like macros and integer arithmetic
    (`aligned(CACHE_LINE)`, `aligned(2 * LINE)`), the translation unit's macros expanded; raises ValueError
    for anything else."""
    from .macro_expand import expand
    toks = expand(_TOKEN.findall(args), macro_definitions(attr.translation_unit))
    text = " ".join(t.rstrip("uUlL") if t[:1].isdigit() else t for t in toks)
    if not text or not _ARITHMETIC.fullmatch(text):
        raise ValueError("not a literal")
    try:
        return int(eval(text.replace("/", "//"), {"__builtins__": {}}))  # (digits and operators only)
    except (SyntaxError, ZeroDivisionError, TypeError, NameError):
        raise ValueError("not a literal") from None


_TOKEN = re.compile(r"0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|\w+|<<|>>|\S")
_ARITHMETIC = re.compile(r"[0-9a-fA-FxX\s()+\-*/%<>&|]+")


_BASIC_ALIGN = {"char": 1, "_Bool": 1, "bool": 1, "short": 2, "int": 4, "long": 8, "float": 4, "double": 8,
                "long long": 8, "long double": 16, "max_align_t": 16, "__int128": 16}


def _type_alignment(attr, args: str):
    """The alignment in bytes of the type named by `_Alignas(T)` / `alignas(T)`'s argument `args`: a basic
    type (x86-64 SysV sizes), a pointer, or a typedef, struct or union of the translation unit; None when
    `args` names no such type (a number or an expression: _literal_argument)."""
    words = [w for w in args.replace("*", " * ").split() if w not in ("const", "volatile", "signed", "unsigned")]
    if not words or not all(_C_IDENTIFIER.fullmatch(w) or w == "*" for w in words) or words[0] == "*":
        return None  # (a number or an expression: `2 * n`)
    if "*" in words:
        return 8
    name = " ".join(w for w in words if w != "int") or "int"  # (`long int` is `long`, `unsigned` is `int`)
    if name in _BASIC_ALIGN:
        return _BASIC_ALIGN[name]
    tag = words[-1] if len(words) == 2 and words[0] in ("struct", "union") else None
    for c in attr.translation_unit.cursor.get_children():
        if tag is None and len(words) == 1 and c.kind == K.TYPEDEF_DECL and c.spelling == words[0] or \
                tag is not None and c.kind in (K.STRUCT_DECL, K.UNION_DECL) and c.spelling == tag:
            align = c.type.get_canonical().get_align() if tag else \
                c.underlying_typedef_type.get_canonical().get_align()
            if align > 0:
                return align
    return None


def _macro_use_argument(attr, param: str):
    """The literal argument of the one-parameter macro `M(param)` expanded where `attr` stands (`M(64)`), when
    `attr` spells `param` as its argument; else None."""
    loc = attr.location  # where the macro is used (libclang's tokens there are the macro's definition)
    if loc.file is None:
        return None
    try:
        text = file_text(loc.file.name)  # (read once per file: _spelled reads the same files)
    except OSError:
        return None
    use = _MACRO_USE.match(text, loc.offset)
    if use is None:
        return None
    for c in attr.translation_unit.cursor.get_children():  # the macro's definition: `M ( param )`
        if c.kind == K.MACRO_DEFINITION and c.spelling == use.group(1):
            head = [t.spelling for t in itertools.islice(c.get_tokens(), 4)]
            return int(use.group(2)) if head == [use.group(1), "(", param, ")"] else None
    return None


_C_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")  # (gcc and clang accept `$` in identifiers)


def _top_level_functions(tu) -> dict:
    """The first top-level FUNCTION_DECL of each name in translation unit `tu`, indexed once per unit (a scan of
    the unit per `cleanup(f)` made a file of many guarded blocks slow: tinycc's tests2/101_cleanup has 65,536)."""
    index = getattr(tu, "_pgcc_functions", None)
    if index is None:
        index = {}
        for c in tu.cursor.get_children():
            if c.kind == K.FUNCTION_DECL:
                index.setdefault(c.spelling, c)
        tu._pgcc_functions = index
    return index


def _named_function(attr, args, what):
    """The FUNCTION_DECL named by the attribute's argument `args` (`cleanup(free_buffer)`).

    Raises:
        CompileError: no such function in the translation unit."""
    if args is not None and _C_IDENTIFIER.fullmatch(args):
        c = _top_level_functions(attr.translation_unit).get(args)
        if c is not None:
            return c.get_definition() or c
    raise error_at(attr, f"unsupported construct: {what} naming a function pgcc cannot find")


def asm_label(decl):
    """The symbol that `decl` names with an asm label (`int f(void) __asm__("g");`, glibc's __REDIRECT), or
    None."""
    return next((a.spelling for a in decl.get_children() if a.kind == K.ASM_LABEL_ATTR and a.spelling), None)


def _alias_target(decl, attr, what, kind="alias") -> str:
    """The symbol that `alias("target")` (or `ifunc("resolver")`, `kind`) on `decl` names, as clang read it (the
    argument is often built by a macro, `alias(#name)`, so it is taken from clang's printing of the declaration).

    Raises:
        CompileError: the target is not a definition of this translation unit (gcc's rule)."""
    printed = decl.pretty_printed(ci.PrintingPolicy.create(decl))
    m = re.search(rf'__attribute__\(\({kind}\("([^"]*)"\)\)\)', printed)
    if m is None:
        raise error_at(attr, f"unsupported construct: {what} whose target pgcc cannot read")
    target = m.group(1)
    if decl.kind == K.VAR_DECL:
        if alias_target_variable(decl.translation_unit, target) is not None:
            return target
        raise error_at(attr, f"'{decl.spelling}' aliased to undefined variable '{target}' (the target of "
                             f"__attribute__(({kind})) must be defined in the same file)")
    for c in decl.translation_unit.cursor.get_children():
        if c.kind == K.FUNCTION_DECL and c.spelling == target and c.is_definition():
            return target
    raise error_at(attr, f"'{decl.spelling}' aliased to undefined symbol '{target}' (the target of "
                         f"__attribute__(({kind})) must be defined in the same file)")


def alias_target_variable(tu, symbol):
    """The file-scope variable of translation unit `tu` whose symbol is `symbol` and that this file defines (with
    an initializer, or a tentative definition: not `extern`), as a cursor; or None."""
    for c in tu.cursor.get_children():
        if c.kind == K.VAR_DECL and (asm_label(c) or c.spelling) == symbol and \
                (c.storage_class != ci.StorageClass.EXTERN or c.is_definition()):
            return c
    return None


_SECTION = re.compile(r'__attribute__\(\(section\("((?:[^"\\]|\\.)*)"\)\)\)')


def _section_name(decl, attr, args, what) -> str:
    """The section that `section("name")` on `decl` names: the literal argument as spelled, else (a macro builds
    it) as clang printed the declaration.

    Raises:
        CompileError: the name cannot be read."""
    if args is not None and re.fullmatch(r'"[^"\\]*"', args):
        return args[1:-1]
    m = _SECTION.search(decl.pretty_printed(ci.PrintingPolicy.create(decl)))
    if m is None:
        raise error_at(attr, f"unsupported construct: {what} whose section name pgcc cannot read")
    return m.group(1)


def declaration_attributes(decl, kind: str) -> DeclAttributes:
    """The attributes of FUNCTION_DECL or VAR_DECL `decl`; `kind`: 'function', 'global' or 'local'.

    Raises:
        CompileError: an attribute pgcc rejects or does not know, or an argument it cannot read."""
    out = DeclAttributes()
    for a in decl.get_children():
        if not a.kind.is_attribute() or a.kind.name.startswith(("CUDA", "CXX_")) or a.kind in (
                K.ANNOTATE_ATTR, K.VISIBILITY_ATTR, K.PURE_ATTR, K.CONST_ATTR, K.WARN_UNUSED_ATTR,
                K.WARN_UNUSED_RESULT_ATTR, K.CONVERGENT_ATTR, K.NODUPLICATE_ATTR, K.PACKED_ATTR, K.ASM_LABEL_ATTR):
            continue
        if a.location.file is None or a.location.is_in_system_header:  # (glibc's: hints, from its macros)
            continue
        if spelled_at(a.extent.start) in (spelled_at(decl.location), spelled_at(decl.canonical.location)):
            continue  # an attribute clang adds itself (`format` on a redeclared printf) sits on the name (where
            # it is spelled: a macro that writes both the name and an attribute puts them at one expansion point;
            # of the first declaration, on a redeclaration: `gcc -E -P` output of stdio.h)
        name, args = _spelled(a)
        if name.startswith("enzyme"):  # Enzyme's attributes: frontend/enzyme.py
            continue
        what = f"__attribute__(({name})) on '{decl.spelling}'"
        try:
            if name in ("constructor", "destructor") and kind == "function":
                prio = _literal_argument(a, args)
                setattr(out, name, DEFAULT_PRIORITY if prio is None else prio)
            elif name == "weak" and kind in ("function", "global"):
                out.weak = True  # (a variable's: weak linkage, extern_weak for a declaration: llvm_memory.py)
            elif name in ("noinline", "noipa") and kind == "function":
                out.noinline = True
            elif name in ("aligned", "alignas", "_Alignas") and kind in ("global", "local"):
                n = _type_alignment(a, args) if args is not None and not args.isdigit() else None
                n = n if n is not None else _literal_argument(a, args)
                out.align = max(out.align or 1, n if n is not None else 16)  # (no argument: the largest, 16)
            elif name == "alias" and kind in ("function", "global"):
                out.alias = _alias_target(decl, a, what)
            elif name == "ifunc" and kind == "function":  # (x86 multiversioning: aliases.py)
                out.ifunc = _alias_target(decl, a, what, "ifunc")
            elif name == "section" and (kind in ("function", "global") or decl.storage_class in (
                    ci.StorageClass.STATIC, ci.StorageClass.EXTERN)):  # (a static local is a global too)
                out.section = _section_name(decl, a, args, what)
            elif name == "cleanup" and kind == "local":
                out.cleanup = _named_function(a, args, what)
            elif name == "used" and kind == "function" and decl.linkage.name != "INTERNAL":
                pass
            elif name == "used" and (kind in ("function", "global") or decl.storage_class == ci.StorageClass.STATIC):
                out.used = True  # (a static local is a global too)
            elif name == "used":
                raise error_at(a, f"unsupported construct: {what} on an automatic variable")
            elif name in REJECTED:
                raise error_at(a, f"unsupported construct: {what} ({REJECTED[name]})")
            elif name in ("constructor", "destructor", "weak"):
                raise error_at(a, f"unsupported construct: {what} on a {kind} declaration")
            elif name not in HINTS and name not in ("alignas", "_Alignas"):
                raise error_at(a, f"unsupported construct: {what} (an attribute pgcc does not know)")
        except ValueError:
            raise error_at(a, f"unsupported construct: {what} with an argument pgcc cannot read (write a number)") \
                from None
    return out


def add_passthrough(f, key: str, value: str | None = None):
    """Add LLVM function attribute `key` (`key`="`value`" when given) to func.func `f`'s passthrough list, which
    the lowering to the LLVM dialect keeps."""
    old = list(f.attributes["passthrough"]) if "passthrough" in f.attributes else []
    new = ir.StringAttr.get(key) if value is None else ir.ArrayAttr.get([ir.StringAttr.get(key),
                                                                          ir.StringAttr.get(value)])
    f.attributes["passthrough"] = ir.ArrayAttr.get(old + [new])


def aligned_value(attr) -> int:
    """The byte alignment an ALIGNED_ATTR cursor asks for (16, gcc's largest, when written without a number)."""
    _, args = _spelled(attr)
    try:
        n = _literal_argument(attr, args) if args else None
    except ValueError:  # (an expression: clang's layout has applied it; the record's alignment tells)
        return 0
    return n if isinstance(n, int) else 16


def is_common_variable(d) -> bool:
    """Whether global `d` (a VAR_DECL cursor) is a common symbol: under -fcommon (the translation unit's
    `common`), a file-scope tentative definition (`int x;`, also `const int x;`: no initializer anywhere in the
    unit, no `static`, `extern` or thread storage) of complete type, which the linker merges with the other
    files' definitions of the name (one of which may initialize it) instead of reporting a duplicate."""
    if not getattr(d.translation_unit, "common", False) or d.semantic_parent is None or \
            d.semantic_parent.kind != K.TRANSLATION_UNIT:
        return False
    decls = [d, d.canonical, *([d.get_definition()] if d.get_definition() is not None else [])]
    return all(r.storage_class == r.storage_class.NONE and r.tls_kind.name == "NONE" for r in decls) and \
        all(var_decl_initializer(r) is None for r in decls) and \
        d.type.get_size() > 0 and not is_weak_variable(d)


def is_weak_variable(d) -> bool:
    """Whether a declaration of global `d` (a VAR_DECL cursor; itself or its first) has `__attribute__((weak))`."""
    return any(any(a.kind.is_attribute() for a in r.get_children()) and
               declaration_attributes(r, "global").weak for r in (d, d.canonical))
