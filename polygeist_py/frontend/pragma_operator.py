"""OpenMP directives written with C99's `_Pragma` operator, directly or through macros
(`#define PARALLEL_FOR _Pragma("omp parallel for")`, `#define PRAGMA(x) _Pragma(#x)`).

pgcc reads `#pragma omp` lines from the source text (openmp.py). A `_Pragma` inside a macro is only visible after
macro expansion, which libclang does not show (its tokens give the macro's name where it is used). So the macros
used in a function body are expanded (macro_expand.py) to find `_Pragma("...")` operands."""

from __future__ import annotations

from ..clang_ast import in_skipped_range, macro_definitions
from .macro_expand import expand, use_end


def pragma_operands(tu, toks: list) -> list:
    """[(pragma text, first token, last token)] for each `_Pragma("text")` that the tokens `toks` (libclang
    tokens of a function definition) contain or that a macro used in them expands to, in source order; the first
    and last tokens span what was written (the macro's use, or the `_Pragma(...)` itself)."""
    table = macro_definitions(tu)
    users = _pragma_macros(tu, table)
    spellings = [t.spelling for t in toks]
    out = []
    i = 0
    while i < len(toks):
        t = spellings[i]
        if t == "_Pragma" or t in users:
            end = _operator_end(spellings, i) if t == "_Pragma" else use_end(spellings, i, table)
            if end is not None and not in_skipped_range(tu, toks[i].location):
                spelled = spellings[i:end]
                for text in _operands(spelled if t == "_Pragma" else expand(spelled, table)):
                    out.append((text, toks[i], toks[end - 1]))
                i = end
                continue
        i += 1
    return out


def _pragma_macros(tu, table) -> set:
    """Names of the macros whose expansion may contain `_Pragma` (directly or through other macros); cached."""
    found = getattr(tu, "_pragma_macros", None)
    if found is None:
        found = {name for name, (_, body) in table.items() if "_Pragma" in body}
        grew = True
        while grew:
            grew = False
            for name, (_, body) in table.items():
                if name not in found and any(b in found for b in body):
                    found.add(name)
                    grew = True
        tu._pragma_macros = found
    return found


def _operator_end(spellings: list, i: int):
    """Index after the `_Pragma ( "text" )` starting at spellings[i], or None when it is not one."""
    return i + 4 if spellings[i + 1:i + 2] == ["("] and spellings[i + 3:i + 4] == [")"] else None


def _operands(tokens: list) -> list:
    """The texts of the `_Pragma("...")` operators in expanded token spellings (C11 6.10.9: the string's
    quotes dropped, `\\"` and `\\\\` unescaped)."""
    out = []
    for k in range(len(tokens) - 3):
        if tokens[k] == "_Pragma" and tokens[k + 1] == "(" and tokens[k + 3] == ")" and \
                tokens[k + 2].startswith('"'):
            s = tokens[k + 2][1:-1]
            out.append(s.replace('\\"', '"').replace("\\\\", "\\"))
    return out
