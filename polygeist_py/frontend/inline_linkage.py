"""C's inline definitions, which define no external symbol.

C11 6.7.4p7: when every file-scope declaration of a function in a translation unit says `inline` and none says
`extern`, its definition there is an *inline definition*: it provides no external definition, and another unit
(the one that declares it `extern inline`, or without `inline`) does. Libraries put such definitions in headers
(gnulib's `_GL_INLINE` functions, included by every file of a program); emitting each as an external symbol made
the link fail with "multiple definition". GNU's older rule (`-std=gnu89`, `-fgnu89-inline`, or the
`gnu_inline` attribute, as glibc's `__extern_inline` writes it) is the other way round: `extern inline` is the
definition only for inlining, plain `inline` the external one. pgcc gives an inline definition internal linkage,
so the unit's calls use its own copy and the program's single external definition stays the symbol's.

libclang says whether a function is inline anywhere (`is_function_inlined`) but not which declaration said it,
so each declaration's specifiers are read from its tokens, macros expanded (`_GL_INLINE` is a macro).
"""

from __future__ import annotations

from clang.cindex import LanguageKind, SourceLocation, SourceRange, StorageClass

from ..clang_ast import K, macro_definitions
from .macro_expand import expand

_INLINE = frozenset(("inline", "__inline", "__inline__"))
_GNU_INLINE = frozenset(("gnu_inline", "__gnu_inline__"))
_ATTRIBUTE = (["__attribute__"], ["__attribute"], ["__declspec"])  # (their parentheses are part of the words)


def is_inline_definition(c) -> bool:
    """Whether C function definition cursor `c` is an inline definition (C11 6.7.4p7, or GNU89's `extern
    inline`): it must not define an external symbol."""
    if c.kind != K.FUNCTION_DECL or c.language != LanguageKind.C or not c.is_function_inlined():
        return False
    tu = c.translation_unit
    decls = _file_scope_declarations(tu).get(c.spelling, [c])
    head = _specifiers(c)
    if "__GNUC_GNU_INLINE__" in macro_definitions(tu) or head & _GNU_INLINE:
        return c.storage_class == StorageClass.EXTERN and bool(head & _INLINE)
    return all(d.storage_class != StorageClass.EXTERN and _specifiers(d) & _INLINE for d in decls)


def _file_scope_declarations(tu) -> dict:
    """{name: [FUNCTION_DECL cursors]} of the unit's file-scope function declarations; cached on `tu`."""
    table = getattr(tu, "_file_scope_functions", None)
    if table is None:
        table = {}
        for d in tu.cursor.get_children():
            if d.kind == K.FUNCTION_DECL:
                table.setdefault(d.spelling, []).append(d)
        tu._file_scope_functions = table
    return table


def _specifiers(d) -> frozenset:
    """The words written before declaration `d`'s name (storage class, `inline`, attributes), macros expanded;
    empty when a macro writes the name itself (then nothing is assumed)."""
    words, depth = [], 0
    start = d.extent.start
    if start.file is None:
        return frozenset()
    # (the tokens from where the declaration starts in the file: its own extent's tokens are none when a macro
    # writes its first words, gnulib's `_GL_STAT_TIME_INLINE struct timespec get_stat_atime (...)`)
    tu = d.translation_unit
    first = SourceLocation.from_offset(tu, start.file, start.offset)
    for t in tu.get_tokens(extent=SourceRange.from_locations(first, d.extent.end)):
        s = t.spelling
        if depth == 0 and (s == d.spelling or s in ("{", ";") or s == "(" and words[-1:] not in _ATTRIBUTE):
            break
        depth += (s == "(") - (s == ")")
        words.append(s)
    return frozenset(expand(words, macro_definitions(d.translation_unit)))
