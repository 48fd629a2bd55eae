"""libclang access: parsing a translation unit, and the cursor facts the Python binding does not expose.

Traps handled here (see shared/TOOLCHAIN.md): libclang-ng's libc++ include path breaks C++/CUDA parses of
glibc's math.h; unary operator kinds and literal values need ``clang_getCursorUnaryOperatorKind`` and
``clang_Cursor_Evaluate`` through ctypes; implicit casts are UNEXPOSED_EXPR nodes.
"""

from __future__ import annotations

import bisect
import ctypes
import functools
import math
import os
import re
import struct

import clang.cindex as ci

from .errors import ERROR_LIMIT, CompileError, Diagnostics, render_diagnostic
from .toolchain import cuda_include_dir, omp_include_dir

ci.Config.libcxx_dir = None  # libclang-ng's libc++ headers clash with glibc's <math.h> in C++ mode

K = ci.CursorKind
T = ci.TypeKind

# The value of _OPENMP with -fopenmp: gcc 12's (OpenMP 4.5), the reference compiler of the tests.
OPENMP_VERSION = "201511"

UNARY_KINDS = {1: "post++", 2: "post--", 3: "pre++", 4: "pre--", 5: "&", 6: "*", 7: "+", 8: "-", 9: "~", 10: "!",
               11: "__real", 12: "__imag", 13: "__extension__"}

_lib = ci.conf.lib
_lib.clang_getCursorUnaryOperatorKind.argtypes = [ci.Cursor]
_lib.clang_getCursorUnaryOperatorKind.restype = ctypes.c_int
_lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
_lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
_lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_getKind.restype = ctypes.c_int
_lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
_lib.clang_EvalResult_isUnsignedInt.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_isUnsignedInt.restype = ctypes.c_uint
_lib.clang_EvalResult_getAsUnsigned.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_getAsUnsigned.restype = ctypes.c_ulonglong
_lib.clang_EvalResult_getAsDouble.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_getAsDouble.restype = ctypes.c_double
_lib.clang_EvalResult_getAsStr.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_getAsStr.restype = ctypes.c_char_p
_lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
_lib.clang_getFileContents.argtypes = [ci.TranslationUnit, ci.File, ctypes.POINTER(ctypes.c_size_t)]
_lib.clang_getFileContents.restype = ctypes.c_void_p
_lib.clang_Cursor_getVarDeclInitializer.argtypes = [ci.Cursor]
_lib.clang_Cursor_getVarDeclInitializer.restype = ci.Cursor

# libclang-ng guards every Cursor method with `is_null`, which asks clang_equalCursors (a ctypes call) to compare
# with the null cursor: millions of calls in a large file, a quarter of the frontend's time. The same test on the
# cursor's fields (clang_equalCursors compares kind, xdata and data; the null cursor's kind is not a declaration,
# so no field is normalized away) costs no foreign call.
_NULL = ci.conf.null_cursor
_NULL_KIND, _NULL_REST = _NULL._kind_id, (_NULL.xdata, tuple(_NULL.data))
ci.Cursor.is_null = lambda self: self._kind_id == _NULL_KIND and (self.xdata, tuple(self.data)) == _NULL_REST
# and `kind` builds its enum member anew on every access (Enum.__call__): a table lookup gives the same member
_CURSOR_KINDS = {k.value: k for k in ci.CursorKind}
_TYPE_KINDS = {k.value: k for k in ci.TypeKind}
ci.Cursor.kind = property(lambda self: _CURSOR_KINDS.get(self._kind_id) or ci.CursorKind.from_id(self._kind_id))
ci.Type.kind = property(lambda self: _TYPE_KINDS.get(self._kind_id) or ci.TypeKind.from_id(self._kind_id))
# and the kind predicates ask libclang each time: answered once per kind
for _pred in ("is_statement", "is_expression", "is_reference", "is_declaration"):
    _yes = frozenset(k for k in ci.CursorKind if getattr(ci.CursorKind, _pred)(k))
    setattr(ci.CursorKind, _pred, lambda self, _yes=_yes: self in _yes)


class _SourceRangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]


_lib.clang_getAllSkippedRanges.argtypes = [ctypes.c_void_p]
_lib.clang_getAllSkippedRanges.restype = ctypes.POINTER(_SourceRangeList)
_lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(_SourceRangeList)]


def skipped_ranges(tu) -> dict:
    """{file name: [(start offset, end offset), ...]} of the lines the preprocessor skipped (`#if 0` ...
    `#endif`, the untaken branch of `#ifdef`), whose tokens libclang still returns (clang_getAllSkippedRanges).
    Cached on the translation unit."""
    cached = getattr(tu, "_pgcc_skipped", None)
    if cached is not None:
        return cached
    out: dict = {}
    lst = _lib.clang_getAllSkippedRanges(tu.obj)
    try:
        for i in range(lst.contents.count):
            r = lst.contents.ranges[i]
            f = r.start.file
            if f is not None:
                out.setdefault(f.name, []).append((r.start.offset, r.end.offset))
    finally:
        _lib.clang_disposeSourceRangeList(lst)
    tu._pgcc_skipped = out
    return out


def in_skipped_range(tu, location) -> bool:
    """Whether source `location` (of a token) lies in a range the preprocessor skipped."""
    if location.file is None:
        return False
    return offset_skipped(tu, location.file.name, location.offset)


def offset_skipped(tu, file_name: str, offset: int) -> bool:
    """Whether byte `offset` of file `file_name` lies in a range the preprocessor skipped."""
    return any(s <= offset < e for s, e in skipped_ranges(tu).get(file_name, ()))


def var_decl_initializer(cursor):
    """The initializer expression of a VAR_DECL cursor (for a class-type variable built by a constructor, like
    CUDA's `dim3 grid(4, 4)`, the construct expression), or None. Clang's own answer: token positions are
    unreliable when the declaration starts inside a macro expansion, e.g. `DATA_TYPE x = ...;`."""
    return ci.Cursor.from_cursor_result(_lib.clang_Cursor_getVarDeclInitializer(cursor), cursor)


def file_contents(tu, file) -> bytes:
    """The bytes of a file of the translation unit as clang parsed them (an unsaved buffer of the Python API
    included)."""
    size = ctypes.c_size_t()
    ptr = _lib.clang_getFileContents(tu, file, ctypes.byref(size))
    return ctypes.string_at(ptr, size.value) if ptr else b""


def unary_op(cursor) -> str:
    """The operator of a UNARY_OPERATOR cursor: 'post++', '-', '&', '!', ..."""
    return UNARY_KINDS.get(_lib.clang_getCursorUnaryOperatorKind(cursor), "?")


def evaluate(cursor):
    """Constant-fold an expression cursor with clang: int, float, str (string literal) or None."""
    if _is_wide_int(cursor.type):
        return _fold_wide(cursor)
    res = _lib.clang_Cursor_Evaluate(cursor)
    if not res:
        return None
    try:
        kind = _lib.clang_EvalResult_getKind(res)
        if kind == 1:  # CXEval_Int
            if _lib.clang_EvalResult_isUnsignedInt(res):
                return int(_lib.clang_EvalResult_getAsUnsigned(res))
            return int(_lib.clang_EvalResult_getAsLongLong(res))
        if kind == 2:  # CXEval_Float
            v = float(_lib.clang_EvalResult_getAsDouble(res))
            return signaling_nan(cursor, v) if math.isnan(v) else v
        if kind in (4, 5):  # string literal kinds
            return _lib.clang_EvalResult_getAsStr(res).decode("latin-1")
        return None
    finally:
        _lib.clang_EvalResult_dispose(res)


_WIDE = {T.INT128: True, T.UINT128: False}  # kind -> signed
_SIGNED = {T.SCHAR, T.CHAR_S, T.SHORT, T.INT, T.LONG, T.LONGLONG, T.INT128}
_UNSIGNED = {T.BOOL, T.CHAR_U, T.UCHAR, T.USHORT, T.UINT, T.ULONG, T.ULONGLONG, T.UINT128}


def _is_wide_int(ty) -> bool:
    """Whether `ty` is __int128 or unsigned __int128, whose values libclang's evaluator gives only the low 64
    bits of (clang_EvalResult_getAsLongLong)."""
    return ty.get_canonical().kind in _WIDE


def _wrap(v: int, ty) -> int | None:
    """Integer `v` converted to integer type `ty` (modulo 2^width, then signed or not); None for another type."""
    t = ty.get_canonical()
    if t.kind == T.BOOL:
        return int(v != 0)
    if t.kind not in _SIGNED | _UNSIGNED:
        return None
    width = t.get_size() * 8
    v &= (1 << width) - 1
    return v - (1 << width) if t.kind in _SIGNED and v >> (width - 1) else v


_WIDE_BINARY = {"Add": lambda a, b: a + b, "Sub": lambda a, b: a - b, "Mul": lambda a, b: a * b,
                "And": lambda a, b: a & b, "Or": lambda a, b: a | b, "Xor": lambda a, b: a ^ b,
                "Shl": lambda a, b: a << b, "Shr": lambda a, b: a >> b,
                "Div": lambda a, b: abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1),
                "Rem": lambda a, b: a - abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1) * b,
                "LT": lambda a, b: int(a < b), "GT": lambda a, b: int(a > b), "LE": lambda a, b: int(a <= b),
                "GE": lambda a, b: int(a >= b), "EQ": lambda a, b: int(a == b), "NE": lambda a, b: int(a != b),
                "LAnd": lambda a, b: int(bool(a and b)), "LOr": lambda a, b: int(bool(a or b))}


def _fold_wide(cursor) -> int | None:
    """The exact value of an integer constant expression of a 128-bit type, folded here from literals, casts and
    arithmetic (C11 6.6), each step converted to its expression's type; None for anything else (an enumerator,
    sizeof, a division by zero, an overflowing shift...), which is then no constant to pgcc."""
    k = cursor.kind
    ch = children(cursor)
    if not _is_wide_int(cursor.type):
        v = evaluate(cursor)
        return v if isinstance(v, int) else None
    exprs = [c for c in ch if c.kind.is_expression()]
    # (an implicit or written conversion: exactly one operand; an UNEXPOSED_EXPR with more is no cast, e.g. an
    # __atomic_load_n(p, order), whose last child is the order)
    if (k in (K.UNEXPOSED_EXPR, K.PAREN_EXPR) and len(ch) == 1 or k == K.CSTYLE_CAST_EXPR) and len(exprs) == 1:
        v = _fold_wide(exprs[-1]) if _is_wide_int(exprs[-1].type) else evaluate(exprs[-1])
        return _wrap(v, cursor.type) if isinstance(v, int) else None
    if k == K.INTEGER_LITERAL:  # (a literal of a 128-bit type: none in C, but a template argument's)
        return None
    if k == K.UNARY_OPERATOR and len(ch) == 1:
        op, v = unary_op(cursor), _fold_wide(ch[0])
        if v is None or op not in ("-", "+", "~"):
            return None
        return _wrap(-v if op == "-" else ~v if op == "~" else v, cursor.type)
    if k == K.BINARY_OPERATOR and len(ch) == 2:
        op = cursor.binary_operator.name
        a, b = _fold_wide(ch[0]), _fold_wide(ch[1])
        if a is None or b is None or op not in _WIDE_BINARY or op in ("Div", "Rem") and b == 0 or \
                op in ("Shl", "Shr") and not 0 <= b < cursor.type.get_canonical().get_size() * 8:
            return None
        return _wrap(_WIDE_BINARY[op](a, b), cursor.type)
    if k == K.CONDITIONAL_OPERATOR and len(ch) == 3:
        c = _fold_wide(ch[0])
        return None if c is None else _fold_wide(ch[1] if c else ch[2])
    return None


def constant_string(cursor) -> str | None:
    """The text of a string literal argument (through implicit conversions), else clang's constant value of the
    expression if that is a string (clang_Cursor_Evaluate does not answer for a bare literal), else None."""
    e = strip_implicit(cursor)
    return string_literal(e) if e.kind == K.STRING_LITERAL else evaluate(cursor)


def signaling_nan(cursor, value: float) -> float | None:
    """The value of `__builtin_nans{,f,l}(payload)` (FLT_SNAN, DBL_SNAN, LDBL_SNAN) as a double signaling NaN whose
    mantissa has the quiet bit clear and the payload where the float, double or x87 mantissa's own bits sit
    once widened (gcc's encoding: payload 0 sets the bit below the quiet bit); `value` (clang's answer) for any
    other NaN (clang's evaluator widens to double, which quiets a signaling float or long double); None for a
    payload that a double cannot carry for a long double (not a constant pgcc can write exactly)."""
    e = strip_implicit(cursor)
    if e.kind != K.CALL_EXPR or not e.spelling.startswith("__builtin_nans"):
        return value
    text = constant_string(children(e)[-1]) if len(children(e)) > 1 else ""
    try:
        payload = int(text, 0) if isinstance(text, str) and text else 0
    except ValueError:
        return None
    long = e.spelling.endswith("l")
    if long and payload:
        return None
    shift = 29 if e.spelling.endswith("f") else 0  # a float's 22 payload bits sit at the top of a double's 51
    width = 22 if shift else 51
    payload &= (1 << width) - 1
    mant = (payload << shift) if payload else 1 << 50
    return struct.unpack("<d", struct.pack("<Q", 0x7FF << 52 | mant))[0]


_lib.clang_getSpellingLocation.argtypes = [ci.SourceLocation, ctypes.POINTER(ctypes.c_void_p),
                                           ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
                                           ctypes.POINTER(ctypes.c_uint)]
_lib.clang_getFileName.argtypes = [ctypes.c_void_p]
_lib.clang_getFileName.restype = ci._CXString


@functools.lru_cache(maxsize=64)
def file_text(name: str) -> str:
    """The text of source file `name`, one character per byte (latin-1), so that libclang's byte offsets index
    it even in files with UTF-8 comments (cached: many lookups read the same header). Raises OSError."""
    with open(name, encoding="latin-1", newline="") as f:
        return f.read()


def spelled_at(location):
    """(file text, byte offset) where `location` is spelled: inside a macro's definition when a macro expansion
    produced it (libclang's tokens show only the expansion). None for built-in and command-line macros."""
    f, line, col, off = ctypes.c_void_p(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    _lib.clang_getSpellingLocation(location, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col),
                                   ctypes.byref(off))
    if not f.value:
        return None
    try:
        return file_text(ci._CXString.from_result(_lib.clang_getFileName(f.value))), off.value
    except OSError:
        return None


def spelled_in_file(location) -> bool:
    """Whether `location` is spelled in a source file (False for tokens the preprocessor made: `__LINE__`'s
    number, `##` pastes, built-in and command-line macros' bodies)."""
    f, n = ctypes.c_void_p(), ctypes.c_uint()
    _lib.clang_getSpellingLocation(location, ctypes.byref(f), ctypes.byref(n), ctypes.byref(n), ctypes.byref(n))
    return bool(f.value)


def spelled_word(cursor) -> str:
    """The identifier or keyword spelled where `cursor`'s extent starts, read at its spelling location, so that
    an expression a macro expansion produced shows the word written in the macro's definition (`sizeof` in
    `#define SZ(x) sizeof(x)`) where libclang's tokens would show the macro's name. '' when there is none."""
    where = spelled_at(cursor.extent.start)
    if where is None:
        return ""
    text, off = where
    m = _WORD.match(text, off)
    return m.group(0) if m else ""


_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def macro_definitions(tu) -> dict:
    """{name: (parameter names, or None for an object-like macro; the body's token spellings)} of the macros the
    translation unit defines, from libclang's detailed preprocessing record (the last definition wins); cached
    on `tu`. Directive text and macro expansions are not preprocessed for us, so code reading tokens there
    looks the definitions up here."""
    table = getattr(tu, "_macro_definitions", None)
    if table is None:
        table, builtin = {}, set()
        for c in tu.cursor.get_children():
            if c.kind != K.MACRO_DEFINITION:
                continue
            toks = list(c.get_tokens())
            if len(toks) > 1 and toks[1].spelling == "(" and \
                    toks[1].extent.start.offset == toks[0].extent.end.offset:  # `M(` with no space: function-like
                close = next((i for i, t in enumerate(toks) if t.spelling == ")"), len(toks) - 1)
                params = [t.spelling for t in toks[2:close] if t.spelling != ","]
                table[c.spelling] = (params, [t.spelling for t in toks[close + 1:]])
            else:
                table[c.spelling] = (None, [t.spelling for t in toks[1:]])
            if c.location.file is None:
                builtin.add(c.spelling)
        tu._macro_definitions, tu._builtin_macros = table, frozenset(builtin)
    return table


def builtin_macros(tu) -> frozenset:
    """Names of the macros the compiler predefines (`__CHAR_BIT__`, `__INT_MAX__`: defined in no file)."""
    macro_definitions(tu)
    return tu._builtin_macros


_lib.clang_getPresumedLocation.argtypes = [ci.SourceLocation, ctypes.POINTER(ci._CXString),
                                           ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]
_lib.clang_getPresumedLocation.restype = None


def presumed_line(location) -> int:
    """The line `location` has for `__LINE__` and diagnostics (after `#line` directives)."""
    line, name = ctypes.c_uint(), ci._CXString()
    _lib.clang_getPresumedLocation(location, ctypes.byref(name), ctypes.byref(line), ctypes.byref(ctypes.c_uint()))
    _lib.clang_disposeString(name)
    return line.value


def is_variable_template_specialization(d) -> bool:
    """Whether cursor `d` is a specialization of a C++ variable template (`half<double>` of `template <typename T>
    constexpr T half = T(0.5);`): libclang shows it as an UNEXPOSED_DECL with the specialization's type, its
    mangled name and its instantiated initializer."""
    return d is not None and d.kind == K.UNEXPOSED_DECL and bool(d.mangled_name) and \
        d.mangled_name.startswith("_Z") and d.semantic_parent is not None and \
        d.semantic_parent.kind in (K.TRANSLATION_UNIT, K.NAMESPACE) and canonical(d.type).kind != T.INVALID


_SIMPLE_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "e": 27, "E": 27, "\\": 92,
                   '"': 34, "'": 39, "?": 63}
_LITERAL_PART = re.compile(r'(?:u8|u|U|L)?"((?:[^"\\]|\\.)*)"', re.S)  # (one literal of clang's spelling)


def char_width(cursor) -> int:
    """Bytes per code unit of a STRING_LITERAL: 1 for "" and u8"", 2 for u"", 4 for U"" and L"" (wchar_t is a
    32-bit int on x86-64 Linux)."""
    elem = cursor.type.get_canonical().get_array_element_type()
    size = elem.get_size() if elem.kind != T.INVALID else 1
    return size if size in (1, 2, 4) else 1


def _encode(cp: int, width: int) -> list:
    """Code point `cp` in the code units of a literal of `width` bytes per unit (UTF-8, UTF-16, UTF-32)."""
    if width == 1:
        return list(chr(cp).encode("utf-8", "surrogatepass"))
    if width == 2 and cp > 0xFFFF:
        cp -= 0x10000
        return [0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)]
    return [cp]


def string_units(cursor) -> list:
    """The code units of a STRING_LITERAL (adjacent literals joined, escapes decoded, no terminator), C11
    6.4.5: bytes of UTF-8 for "" and u8"", UTF-16 units for u"", UTF-32 for U"" and L"". Read from clang's
    spelling of the literal, which writes what is not printable ASCII as octal, `\\x`, `\\u` or `\\U` escapes:
    octal and hex escapes are code units, universal names are code points."""
    width = char_width(cursor)
    mask = (1 << (8 * width)) - 1
    units = []
    for m in _LITERAL_PART.finditer(cursor.spelling):
        body, i = m.group(1), 0
        while i < len(body):
            ch = body[i]
            if ch != "\\" or i + 1 == len(body):
                units += _encode(ord(ch), width)
                i += 1
                continue
            nxt = body[i + 1]
            if nxt in "01234567":
                j = i + 1
                while j < len(body) and j < i + 4 and body[j] in "01234567":
                    j += 1
                units.append(int(body[i + 1:j], 8) & mask)
            elif nxt == "x":
                j = i + 2
                while j < len(body) and body[j] in "0123456789abcdefABCDEF":
                    j += 1
                units.append(int(body[i + 2:j] or "0", 16) & mask)
            elif nxt in "uU":
                j = i + 2 + (4 if nxt == "u" else 8)
                units += _encode(int(body[i + 2:j], 16), width)
            else:  # a simple escape; an unknown one is the character itself (gcc warns)
                units.append(_SIMPLE_ESCAPES.get(nxt, ord(nxt)))
                j = i + 2
            i = j
    return units


def string_literal(cursor) -> str:
    """The bytes of a STRING_LITERAL's array without its terminator (string_units, each unit little-endian in
    char_width bytes), one char per byte."""
    width = char_width(cursor)
    units = string_units(cursor)
    if width == 1:
        return bytes(units).decode("latin-1")
    return b"".join(u.to_bytes(width, "little") for u in units).decode("latin-1")


def children(cursor) -> list:
    return list(cursor.get_children())


def _extent(c):
    s, e = c.extent.start, c.extent.end
    return s.line, s.column, e.line, e.column


def is_binary_conditional(cursor) -> bool:
    """Whether `cursor` is GNU's `x ?: y` (a BinaryConditionalOperator, which libclang shows as an UNEXPOSED_EXPR):
    four children, the common operand `x`, the condition and the true value (both `x` again, through opaque
    values: evaluating them would evaluate `x` twice) and `y`."""
    if cursor.kind != K.UNEXPOSED_EXPR:
        return False
    ch = children(cursor)
    if len(ch) != 4:
        return False
    first, third = ch[0].extent, ch[2].extent
    return (first.start.offset, first.end.offset) == (third.start.offset, third.end.offset) and \
        ch[0].kind == ch[2].kind


def is_va_arg(cursor) -> bool:
    """Whether `cursor` is `va_arg(ap, T)` (a VAArgExpr, which libclang shows as an UNEXPOSED_EXPR): one operand
    (its first child; references to T's name may follow), the address of a `va_list` (`struct __va_list_tag *`),
    and a source range of its own (an implicit conversion of `ap` has `ap`'s range)."""
    if cursor.kind != K.UNEXPOSED_EXPR:
        return False
    ch = [c for c in children(cursor) if not c.kind.is_reference()]  # (`va_arg(ap, size_t)`: a TYPE_REF too)
    if len(ch) > 1 and cursor.type.spelling.startswith(("typeof", "__typeof")):
        ch = ch[-1:]  # `va_arg(ap, typeof(x))`: the typeof's operand (unevaluated) comes first (gcc's va-arg-22.c)
    if len(ch) != 1:
        return False
    if not _is_va_list_address(ch[0].type):
        return False
    if len(ch) < len(children(cursor)):  # T's name: an implicit conversion has no such child
        return True
    # an implicit conversion of `ap` can only give a `va_list` (a parameter's value), `void *` or `_Bool`; else
    # the range tells them apart (in a macro's arguments both may have the expansion's range)
    r = canonical(cursor.type)
    if _is_va_list_address(r) or r.kind == T.BOOL or r.kind == T.POINTER and canonical(r.get_pointee()).kind == T.VOID:
        return _extent(cursor) != _extent(ch[0])
    return True


def va_arg_operand(cursor):
    """The `ap` operand of `va_arg(ap, T)` (a cursor that is_va_arg accepts): its last child that is not a
    reference to T's name (a `typeof(x)` type's `x` comes before it)."""
    return [c for c in children(cursor) if not c.kind.is_reference()][-1]


def _is_va_list_address(ty) -> bool:
    """`struct __va_list_tag *`, or `va_list` itself (libclang gives a `va_list` parameter its declared array
    type `struct __va_list_tag[1]`)."""
    t = canonical(ty)
    if t.kind == T.POINTER:
        return canonical(t.get_pointee()).spelling == "struct __va_list_tag"
    return t.kind == T.CONSTANTARRAY and canonical(t.element_type).spelling == "struct __va_list_tag"


def generic_choice(cursor):
    """The association a C11 `_Generic` selection (GENERIC_SELECTION_EXPR) chooses: libclang does not say, but
    the selection has the type of the chosen expression, so the one association of that type is it (or, for a
    constant selection, one of that type and value; else the one of that type whose type name, as written,
    spells the controlling expression's type after lvalue conversion: `_Generic(ci, int: f, const int: g)`).

    Raises:
        CompileError: when several associations have that type (the choice is not visible through libclang)."""
    from .errors import error_at
    exprs = [c for c in children(cursor) if not c.kind.is_reference()][1:]  # after the controlling expression
    want = canonical(cursor.type)
    hits = [c for c in exprs if canonical(c.type) == want]
    v = evaluate(cursor) if len(hits) > 1 else None
    if v is not None:  # a constant selection: an association of that type with the same value is as good
        hits = [c for c in hits if evaluate(c) == v][:1]
    elif len(hits) > 1:  # by the association's type as written: the one naming the controlling type exactly
        names = _association_types(cursor)
        ctrl = _lvalue_converted_spelling(children(cursor)[0].type)
        if names is not None and len(names) == len(exprs):
            hits = [c for c, n in zip(exprs, names) if c in hits and n == ctrl]
    if len(hits) != 1:
        raise error_at(cursor, "unsupported construct: _Generic selection whose associations share the result type")
    return hits[0]


def _normal_type_text(text: str) -> str:
    return re.sub(r"\s*\*\s*", "*", " ".join(text.split()))


def _lvalue_converted_spelling(ty) -> str:
    """The spelling of type `ty` after C's lvalue conversion (top-level qualifiers dropped, an array decays to
    a pointer), normalized as _association_types writes type names."""
    t = canonical(ty)
    if t.kind in (T.CONSTANTARRAY, T.INCOMPLETEARRAY, T.VARIABLEARRAY):
        return _normal_type_text(canonical(t.element_type).spelling + " *")
    text = _normal_type_text(t.spelling)
    if t.kind == T.POINTER:
        return re.sub(r"\*(?:const|volatile|restrict|\s)+$", "*", text)
    return re.sub(r"^(?:(?:const|volatile)\s+)+", "", text)


def _association_types(cursor):
    """The type names of a `_Generic` selection's associations as written ('default' for the default one),
    normalized (`int * const` -> 'int*const'), from its tokens; None when they cannot be read."""
    toks = [t.spelling for t in cursor.get_tokens()]
    if len(toks) < 4 or toks[0] != "_Generic" or toks[1] != "(":
        return None
    parts, depth, cur = [], 0, []
    for t in toks[2:-1]:
        if t in "([{":
            depth += 1
        elif t in ")]}":
            depth -= 1
        if t == "," and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    names = []
    for part in parts[1:]:
        if ":" not in part:
            return None
        names.append(_normal_type_text(" ".join(part[:part.index(":")])))
    return names


def strip_implicit(cursor):
    """Skip implicit casts (UNEXPOSED_EXPR with one child), parentheses, `_Generic` selections (to the chosen
    expression) and GNU ``__extension__`` (glibc's assert wraps ``__PRETTY_FUNCTION__`` and a statement
    expression in it); never a `va_arg` or a type trait."""
    while cursor.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.GENERIC_SELECTION_EXPR) or \
            cursor.kind == K.UNARY_OPERATOR and unary_op(cursor) == "__extension__":
        if cursor.kind == K.GENERIC_SELECTION_EXPR:
            cursor = generic_choice(cursor)
            continue
        ch = children(cursor)
        if len(ch) != 1 or is_va_arg(cursor) or is_type_trait(cursor, ch[0]):
            break
        cursor = ch[0]
    return cursor


def is_type_trait(cursor, child) -> bool:
    """Whether UNEXPOSED_EXPR `cursor` with one child `child` is gcc's `__builtin_types_compatible_p(typeof(x),
    T)`, whose value is a constant of the two types: libclang shows the expression written in `typeof(...)`,
    parenthesized, as its only child, as if the trait were an implicit conversion of it. (A conversion of a
    parenthesized expression starts at its parenthesis; the trait starts at its name, read where it is spelled,
    also inside a macro's definition.)"""
    return cursor.kind == K.UNEXPOSED_EXPR and _mentions_trait(cursor.translation_unit) and \
        cursor.type.get_canonical().kind == T.INT and spelled_word(cursor) == "__builtin_types_compatible_p"


def _mentions_trait(tu) -> bool:
    """Whether a file of translation unit `tu` spells `__builtin_types_compatible_p` (cached on `tu`: the
    trait is rare, and reading where every implicit conversion is spelled is not cheap)."""
    found = getattr(tu, "_mentions_trait", None)
    if found is None:
        names = [tu.spelling] + [i.include.name for i in tu.get_includes()]
        found = False
        for name in dict.fromkeys(names):
            try:
                if "__builtin_types_compatible_p" in file_text(name):
                    found = True
                    break
            except OSError:
                continue
        tu._mentions_trait = found
    return found


def canonical(ty):
    return ty.get_canonical()


def record_decl(ty):
    """The cursor that defines the struct/union/enum/class type `ty` (after typedefs), or its first declaration
    when the type is incomplete. libclang's ``Type.get_declaration`` gives the first declaration, which for
    `struct S; ... struct S { ... };` is the forward one: its children hold no fields and it differs from the
    fields' ``semantic_parent``. Compare and inspect records only through this function."""
    d = canonical(ty).get_declaration()
    if d is None:
        return d
    return d.get_definition() or d


def has_attr(cursor, kind) -> bool:
    return any(c.kind == kind for c in cursor.get_children())


def is_cuda(path: str) -> bool:
    return path.endswith(".cu")


# Source languages by file suffix (gcc's table, restricted to what pgcc compiles). C++ sources parse like CUDA
# host code.
LANGUAGES = {".c": "c", ".i": "c", ".cu": "cuda", ".cpp": "c++", ".cc": "c++", ".cxx": "c++", ".C": "c++",
             ".ii": "c++"}


def language_of(path: str) -> str | None:
    """'c', 'cuda' or 'c++' for a source file name, None for anything else (objects, libraries...)."""
    return LANGUAGES.get(os.path.splitext(path)[1])


def _launch_brackets_joined(path: str, source: str | None) -> str | None:
    """The text to parse for CUDA file `path` (`source`, or the file's): unchanged (None when it was None)
    unless a launch writes its brackets with blanks inside (`<< <`, `>> >`), which nvcc accepts and clang does
    not: then the text with them joined (cuda_split.spaced_launch_brackets, same length)."""
    from .cuda_split import spaced_launch_brackets  # (cuda_split imports this module)
    text = source
    if text is None:
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError:
            return None  # (clang reports it)
    if "<<" not in text:
        return source
    joined = spaced_launch_brackets(text)
    return source if joined is text else joined


# clang's `__builtin_bit_cast(T, x)` in C (SIMD code picks it by __has_builtin): libclang gives the expression
# no type, so it is spelled as what it means, the bytes of x copied into a T (frontend/vectors.py's note)
BIT_CAST = ("-D__builtin_bit_cast(T, ...)=(__extension__({ __typeof__(__VA_ARGS__) __pgcc_bit_cast_from = "
            "(__VA_ARGS__); __typeof__(T) __pgcc_bit_cast_to; _Static_assert(sizeof(__pgcc_bit_cast_to) == "
            "sizeof(__pgcc_bit_cast_from), \"__builtin_bit_cast: the source and destination types differ in "
            "size\"); __builtin_memcpy(&__pgcc_bit_cast_to, &__pgcc_bit_cast_from, sizeof(__pgcc_bit_cast_to)); "
            "__pgcc_bit_cast_to; }))")


def parse(path: str, user_args: list[str], source: str | None = None, language: str | None = None):
    """Parse a C or CUDA file into a libclang TranslationUnit.

    Args:
        path: file name (``.c`` is C, ``.cu`` is CUDA host+device code parsed without a CUDA toolkit).
        user_args: ``-I``, ``-D``, ``-U``, ``-std=`` flags from the command line.
        source: the file's text, when it does not exist on disk (Python API).
        language: 'c', 'cuda' or 'c++' (gcc's ``-x``); by default from the suffix (``.cu`` CUDA, else C).
    Returns:
        the TranslationUnit, with an attribute ``openmp``: True when ``-fopenmp`` was given (``_OPENMP`` is
        defined and the frontend translates ``#pragma omp`` directives).
    Raises:
        CompileError: a Diagnostics with every error clang reports (up to errors.ERROR_LIMIT), in clang's
            format, with the warnings and notes around them.
    """
    language = language or ("cuda" if is_cuda(path) else "c")
    if language == "cuda":
        source = _launch_brackets_joined(path, source)
    if language in ("cuda", "c++"):
        kind = "cuda" if language == "cuda" else "c++"
        # (`register` is accepted as by g++ -std=c++17, which warns: code written for C++14 and nvcc uses it)
        args = ["-x", kind, "-std=c++17", "-Wno-register"]
        if language == "cuda":
            args += ["--cuda-host-only", "-nocudainc", "-nocudalib", "--cuda-path=/nonexistent", "-isystem",
                     cuda_include_dir(), "-include", "cuda_runtime.h", "-D__PGCC_CUDA__=1",
                     # the host compiler's own headers that nvcc finds through it (`#include <omp.h>` in a
                     # .cu whose host code calls omp_get_wtime): searched last, as a system directory
                     "-idirafter", omp_include_dir()]
        args += [a for a in user_args if not a.startswith("-std=")]
    else:
        # a C++ standard on a C file: gcc warns and ignores it, so do we
        # legacy C as gcc 12 accepts it: implicit function declarations, implicit int, integer-pointer
        # conversions, incompatible pointer types, chained comparisons and `return;` in a non-void function are
        # warnings (clang makes them errors), K&R definitions and `f()` declarations draw no warning; the
        # user's -Werror=... / -Wno-... flags come after these and win (and a plain -Werror makes them errors, as
        # in gcc, so they are not downgraded then: clang's -Wno-error=X would outlive a later -Werror)
        legacy = [] if "-Werror" in user_args else ["-Wno-error=implicit-function-declaration",
                                                    "-Wno-error=implicit-int", "-Wno-error=int-conversion",
                                                    "-Wno-error=incompatible-pointer-types",
                                                    "-Wno-error=return-mismatch",
                                                    "-Wno-error=parentheses"]  # (`a < b <= c`: valid C)
        # (and no warnings gcc does not give by default: overriding initializers, GNU's _Alignof of an
        # expression and constant folding of array sizes)
        quiet = ["-Wno-initializer-overrides", "-Wno-gnu-alignof-expression", "-Wno-gnu-folding-constant"]
        # C11's CMPLX/CMPLXF/CMPLXL, which glibc's complex.h defines for gcc >= 4.7 only (clang says 4.2)
        cmplx = [f"-D{m}(x,y)=__builtin_complex(({t})(x),({t})(y))"
                 for m, t in (("CMPLX", "double"), ("CMPLXF", "float"), ("CMPLXL", "long double"))]
        # `#include <omp.h>` without -fopenmp finds the OpenMP runtime's header, as gcc finds its own (searched
        # last, as a system directory; Rodinia's kmeans includes it in files built without -fopenmp)
        args = ["-x", "c", "-std=gnu11", *legacy, "-Wno-deprecated-non-prototype", "-Wno-strict-prototypes",
                *quiet, *cmplx, BIT_CAST, "-idirafter", omp_include_dir()] + \
            [a for a in user_args if not a.startswith("-std=c++") and not a.startswith("-std=gnu++")]
    # (__GNUC__/__GNUC_MINOR__ stay clang's 4.2 beside __clang__, as with clang itself: gcc 12's numbers make
    # glibc's headers take _Float32, _Float64x... for keywords, which clang lacks, and libraries that test
    # __clang__ first pick clang's paths either way)
    args += ["-D__PGCC__=1"]
    openmp = "-fopenmp" in args
    if openmp:  # like gcc: _OPENMP and `#pragma omp` only when asked for
        # clang's own OpenMP mode hides the loop under a directive from libclang's cursors (a CapturedStmt
        # shows only its captures), so clang parses plain C and frontend/openmp.py reads the pragmas
        args = [a for a in args if a != "-fopenmp"] + ["-D_OPENMP=" + OPENMP_VERSION, "-isystem",
                                                        omp_include_dir()]
    unsaved = [(path, source)] if source is not None else None
    try:
        tu = ci.Index.create().parse(path, args=args, unsaved_files=unsaved,
                                      options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    except ci.TranslationUnitLoadError as e:
        cpu = next((a for a in reversed(args) if a.startswith(("-march=", "-mtune="))), None)
        if cpu is not None:  # clang rejects an unknown target CPU by failing the whole parse: say so, as gcc does
            try:
                ci.Index.create().parse(path, args=[a for a in args if not a.startswith(("-march=", "-mtune="))],
                                        unsaved_files=unsaved)
            except ci.TranslationUnitLoadError:
                pass
            else:
                name, value = cpu.split("=", 1)
                raise CompileError(f"bad value '{value}' for '{name}=' switch (an unknown target CPU)") from None
        raise CompileError(f"cannot parse {path}: {e}") from None
    diags, errors, truncated = [], 0, False
    for d in tu.diagnostics:
        undeclared = _undeclared_library_name(d)
        if undeclared is not None:  # (autoconf's probe of how to make the compiler report undeclared builtins)
            errors += 1
            diags.append(("error", f"'{undeclared}' undeclared (a library function named without a declaration "
                                   "and not called: gcc's error)", d.location.file.name, d.location.line,
                          d.location.column))
            continue
        if d.spelling == "unknown attribute 'scalar_storage_order' ignored" and d.location.file is not None and \
                _big_endian_at(d.location):
            # (gcc stores such a struct's scalars byte-swapped; clang drops the attribute: other values in memory)
            errors += 1
            diags.append(("error", "unsupported construct: 'scalar_storage_order(\"big-endian\")' attribute "
                                   "(byte-swapped scalars)", d.location.file.name, d.location.line,
                          d.location.column))
            continue
        if _IGNORED_TYPE_ATTRIBUTE.fullmatch(d.spelling) and d.location.file is not None:
            # (`(__attribute__((mode(QI))) int) x`: gcc converts to the mode's width, clang drops the attribute
            # with a warning and would convert to int: different values, so an error naming it)
            errors += 1
            diags.append(("error", f"unsupported construct: {d.spelling.split(' ignored')[0]} in a type name (a "
                                   "cast or sizeof; gcc honours it, clang ignores it)", d.location.file.name,
                          d.location.line, d.location.column))
            continue
        if d.severity >= ci.Diagnostic.Error:
            if errors == ERROR_LIMIT:
                truncated = True
                break
            errors += 1
        elif not is_user_warning(d):
            continue
        diag = _diag_tuple(d, path, user_args)
        diags.append(_toolkit_library(diag) if language in ("cuda", "c++") else diag)
        diags += [_diag_tuple(n, path) for n in d.children if n.severity == ci.Diagnostic.Note]
    if language == "c" and not errors:
        errors += _c90_hex_floats(tu, args, diags) + _big_endian_pragmas(tu, diags)
    if errors:
        raise Diagnostics(diags, truncated)
    tu.openmp = openmp  # read by the frontend (frontend/openmp.py)
    tu.target_args = [a for a in args if a.startswith("-m")]  # (-mavx2...: frontend/x86_builtins.py)
    tu.no_builtin = no_builtin_names(args)  # (-fno-builtin[-NAME]: frontend/builtins.py)
    tu.language = language
    # (-fcommon: tentative definitions are common symbols, which another file's definition replaces; gcc 10 and
    # later default to -fno-common: frontend/attributes.is_common_variable)
    tu.common = language == "c" and next((a == "-fcommon" for a in reversed(args)
                                          if a in ("-fcommon", "-fno-common")), False)
    # (gcc's -funsigned-bitfields, which clang accepts and ignores: frontend/records.py applies it)
    tu.unsigned_bitfields = next((a == "-funsigned-bitfields" for a in reversed(args)
                                  if a in ("-funsigned-bitfields", "-fsigned-bitfields")), False)
    return tu


STRICT_C90 = ("-std=c89", "-std=c90", "-std=iso9899:1990", "-std=iso9899:199409", "-ansi")
_HEX_FLOAT_SIGN = re.compile(r"0[xX][0-9a-fA-F.]*[pP][+-]")


_BIG_ENDIAN_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+scalar_storage_order[ \t]+big-endian", re.M)


def _big_endian_at(location) -> bool:
    """Whether the `scalar_storage_order` attribute at `location` asks for big-endian (on x86 little-endian and
    default are the native order, which clang's layout already is)."""
    try:
        text = file_text(location.file.name)
    except OSError:
        return True
    return "big-endian" in text[location.offset:location.offset + 60]


def _big_endian_pragmas(tu, diags) -> int:
    """Errors for `#pragma scalar_storage_order big-endian` in the main file: gcc then stores the scalars of the
    structs that follow byte-swapped; clang ignores the pragma. Appends them to `diags`, returns how many."""
    name = tu.spelling
    try:
        text = file_text(name)
    except OSError:
        return 0
    n = 0
    for m in _BIG_ENDIAN_PRAGMA.finditer(text):
        if offset_skipped(tu, name, m.start() + len(m.group(0)) - 1):  # (inside an inactive `#if`)
            continue
        line = text.count("\n", 0, m.start()) + 1
        diags.append(("error", "unsupported construct: '#pragma scalar_storage_order big-endian' (byte-swapped "
                               "scalars)", name, line, 1))
        n += 1
    return n


def _c90_hex_floats(tu, args, diags) -> int:
    """Errors for the hexadecimal floating constants with a signed exponent (`0x1p+3`) in the main file under a
    strict C90 standard (`-std=c90`, `-ansi`): gcc's C90 preprocessing number ends at the sign (`0x1p+f` with `f`
    a macro is `0x1p+` then `f`'s expansion; `0x1p+3` is an error), clang's is the C99 constant. Appends them to
    `diags` (the list of parse's diagnostic tuples) and returns how many."""
    std = next((a for a in reversed(args) if a.startswith("-std=") or a == "-ansi"), None)
    if std not in STRICT_C90:
        return 0
    n = 0
    for t in tu.get_tokens(extent=tu.cursor.extent):
        if t.kind == ci.TokenKind.LITERAL and _HEX_FLOAT_SIGN.match(t.spelling) and \
                not in_skipped_range(tu, t.location):
            loc = t.location
            diags.append(("error", f"unsupported construct: hexadecimal floating constant '{t.spelling}' under "
                                   f"{std} (gcc's C90 preprocessing number ends at the exponent's sign)",
                          loc.file.name, loc.line, loc.column))
            n += 1
    return n


def no_builtin_names(args) -> frozenset:
    """The C library functions that -fno-builtin-NAME flags in `args` (a list of str) exclude from pgcc's own
    lowering, calling them as ordinary functions; {"*"} for -fno-builtin (all of them)."""
    names = {a[len("-fno-builtin-"):] for a in args if a.startswith("-fno-builtin-")}
    return frozenset({"*"} if "-fno-builtin" in args else names)


_SEVERITY = {ci.Diagnostic.Note: "note", ci.Diagnostic.Warning: "warning", ci.Diagnostic.Error: "error",
             ci.Diagnostic.Fatal: "error"}


# clang's error for a CUB name outside the part pgcc ships (include/cuda/cub: cub::BlockReduce)
_CUB_MEMBER = re.compile(r"no (?:member|template|type) named '(\w+)' in namespace 'cub'")


def _toolkit_library(diag: tuple) -> tuple:
    """A missing-header error for a library of the CUDA toolkit (thrust, cub, cuBLAS, ...; cuda_split.
    TOOLKIT_LIBRARIES), or a CUB name that pgcc's cub.cuh does not declare, restated as the construct pgcc does
    not support; other diagnostics unchanged."""
    from .cuda_split import toolkit_library

    m = _CUB_MEMBER.fullmatch(diag[1])
    if m:
        return (diag[0], f"CUDA library not supported: cub::{m.group(1)} (pgcc provides cub::BlockReduce only)",
                *diag[2:])
    m = re.fullmatch(r"'(.+)' file not found", diag[1])
    lib = toolkit_library(m.group(1)) if m else None
    if lib is None:
        return diag
    return (diag[0], f"CUDA library not supported: {lib} (needs the CUDA toolkit; '{m.group(1)}')", *diag[2:])


# clang's warning for a type attribute it drops inside a type name, which gcc applies (mode, vector_size...)
_IGNORED_TYPE_ATTRIBUTE = re.compile(r"'\w+' attribute ignored when parsing type")
_IMPLICIT_LIBRARY = re.compile(r"call to undeclared library function '(\w+)'")


def _undeclared_library_name(d):
    """The name of a C library function that the program names without declaring it, other than as the callee of
    a call (`(void) strchr;`): clang's implicit declaration (a warning under pgcc's gcc-12 options) covers it,
    gcc's only covers calls and makes it an error. None for any other diagnostic."""
    m = _IMPLICIT_LIBRARY.match(d.spelling)
    loc = d.location
    if m is None or d.severity != ci.Diagnostic.Warning or loc.file is None:
        return None
    try:
        text = file_text(loc.file.name)
    except OSError:
        return None
    end = loc.offset + len(m.group(1))
    if text[loc.offset:end] != m.group(1) or re.match(r"\s*\(", text[end:end + 200]):
        return None  # a call (or a macro's expansion: clang's own rule then)
    return m.group(1)


def _diag_tuple(d, path: str, user_args=()) -> tuple:
    loc = d.location
    if loc.file is None:  # clang's own "too many errors emitted", or a command-line problem
        return (_SEVERITY.get(d.severity, "error"), d.spelling, None, 0, 0)
    name = loc.file.name
    if "/../" in name:  # libclang finds gcc's C++ headers as "/../lib/gcc/...": show where they are
        name = os.path.realpath(name)
    text = d.spelling
    if d.severity >= ci.Diagnostic.Error and d.option.startswith("-W") and d.option != "-Werror":
        # a warning that is an error by default or made one (-Werror, -Werror=...): say which, as clang does
        made = "-Werror" in user_args or "-Werror=" + d.option[2:] in user_args
        text += f" [-Werror,{d.option}]" if made else f" [{d.option}]"
    return (_SEVERITY.get(d.severity, "error"), text, name, loc.line, loc.column)


def is_user_warning(d) -> bool:
    """A warning clang would show: not from a system header (glibc, pgcc's CUDA headers)."""
    return d.severity == ci.Diagnostic.Warning and d.location.file is not None and \
        not d.location.is_in_system_header


def warnings(tu, path: str) -> list[str]:
    """The rendered warnings (with their notes) of a translation unit that parsed without errors."""
    out = []
    for d in tu.diagnostics:
        if is_user_warning(d):
            out.append(render_diagnostic(*_diag_tuple(d, path)))
            out += [render_diagnostic(*_diag_tuple(n, path)) for n in d.children if n.severity == ci.Diagnostic.Note]
    return out


def dependencies(tu, system: bool) -> list[str]:
    """Files a translation unit includes, in inclusion order, without repeats (for ``-MD``/``-MMD``); system
    headers only when `system`."""
    seen, out = set(), []
    for inc in tu.get_includes():
        name = inc.include.name
        if name in seen:
            continue
        seen.add(name)
        if not system and ci.SourceLocation.from_position(tu, inc.include, 1, 1).is_in_system_header:
            continue
        out.append(name)
    return out


def top_level_cursors(tu) -> list:
    """The file-scope cursors of `tu` (its cursor's children), listed once per unit: the stages walk them
    several times, and the same cursor objects keep their looked-up locations."""
    got = tu.__dict__.get("_pgcc_top_level")
    if got is None:
        got = tu.__dict__["_pgcc_top_level"] = list(tu.cursor.get_children())
    return got


# A source location's raw encoding (CXSourceLocation.int_data) has this bit set in a macro expansion; otherwise it
# is the offset of the location in clang's source manager, where each included file (each inclusion) holds one
# contiguous range of offsets: [start, start + size].
_MACRO_ID_BIT = 1 << 31


def location_file_name(cursor, tu) -> str | None:
    """The name of the file of `cursor`'s location (its expansion location: ``cursor.location.file.name``), or None
    (no file). Kept on `tu` per inclusion as its range of raw locations: the headers of a C or CUDA file declare
    thousands of cursors, and asking libclang for each one's file, line and column, then the file's name, costs
    more than the range lookup."""
    loc = cursor.location
    raw = loc.int_data
    ranges = tu.__dict__.get("_pgcc_file_ranges")
    if ranges is None:
        ranges = tu.__dict__["_pgcc_file_ranges"] = ([], [], [])  # starts (sorted), ends, file names
    starts, ends, names = ranges
    plain = raw and not raw & _MACRO_ID_BIT
    if plain:
        i = bisect.bisect_right(starts, raw) - 1
        if i >= 0 and raw <= ends[i]:
            return names[i]
    f, _, _, offset = loc._get_instantiation()  # (file, line, column, offset: libclang's one call for them)
    if f is None:
        return None
    name = f.name
    if plain:  # the inclusion's range: its start is the location's raw offset less its offset in the file
        size = ctypes.c_size_t()
        _lib.clang_getFileContents(tu, f, ctypes.byref(size))
        start = raw - offset
        i = bisect.bisect_right(starts, start)
        starts.insert(i, start)
        ends.insert(i, start + size.value)
        names.insert(i, name)
    return name


def in_main_file(cursor, tu) -> bool:
    """Whether `cursor`'s location (its expansion location) lies in the file `tu` was parsed from (absolute paths
    compared, once per file name: location_file_name)."""
    name = location_file_name(cursor, tu)
    if name is None:
        return False
    memo = tu.__dict__.setdefault("_pgcc_in_main_file", {})
    hit = memo.get(name)
    if hit is None:
        hit = memo[name] = os.path.abspath(name) == os.path.abspath(tu.spelling)
    return hit


def string_initializer(init, length: int, pad: bool = True):
    """Byte values of a char array initialized from a string literal (`char s[4] = "abc"` or `{"abc"}`),
    zero-padded to `length` as C does (with pad=False, only the literal's bytes that fit); None when `init`
    is not such an initializer."""
    node = strip_implicit(init)
    if node.kind == K.INIT_LIST_EXPR and len(children(node)) == 1:
        node = strip_implicit(children(node)[0])
    if node.kind != K.STRING_LITERAL:
        return None
    width = char_width(node)
    data = string_units(node)[:length]
    if width == 1 or width == 4 and canonical(node.type).get_array_element_type().kind == T.INT:
        top = 1 << (8 * width)  # (char and wchar_t are signed)
        data = [b - top if b >= top // 2 else b for b in data]
    return data + [0] * ((length - len(data)) if pad else 0)

