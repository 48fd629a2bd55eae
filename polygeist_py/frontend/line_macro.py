"""gcc's `__LINE__` inside macro calls that span lines.

Test harnesses print `__LINE__` from a checking macro (`CHECK(cond,\\n "message")`, `assert(a &&\\n b)`). For a
`__LINE__` that a macro's body produces, gcc gives the line where the macro call written in the file starts (its
name), clang the line of its closing parenthesis; programs built with pgcc then print other line numbers than
the same program built with gcc. libclang hands us clang's number and no record of where it came from, so this
module finds the macro calls in the file text that could have produced it and takes gcc's line when exactly one
answer fits; when another literal with no place in a file (a `##`-pasted number, `__COUNTER__`, a predefined
macro's value) could be the same literal, clang's number stays.
"""

from __future__ import annotations

import re

from ..clang_ast import builtin_macros, file_text, macro_definitions, presumed_line, spelled_in_file
from .c_text import code_chars

_NAME = re.compile(r"[A-Za-z_]\w*")
_TOKEN = re.compile(r"[A-Za-z_]\w*|\.?\d(?:[eEpP][+-]|[\w.])*")  # (identifiers and numbers: `1e5f` is one)
_DYNAMIC = frozenset(("__COUNTER__", "__INCLUDE_LEVEL__"))  # (built-in integers written in no file)
ANY = None  # "any value": a `##` paste or a dynamic macro can make any number


def gcc_line_value(cursor, value: int) -> int:
    """gcc's value of the INTEGER_LITERAL `cursor`, which clang evaluated to `value` (an int): different only
    for a `__LINE__` produced by a macro call written across lines. Raises nothing; reads the source file."""
    start = cursor.extent.start
    if spelled_in_file(start) or start.file is None:  # (a literal written in a file, not __LINE__'s)
        return value
    try:
        text = file_text(start.file.name)
    except OSError:
        return value
    tu = cursor.translation_unit
    table = macro_definitions(tu)
    memo = tu.__dict__.setdefault("_line_calls", {})  # (a call's literals ask about the same call text)
    key = (start.file.name, start.offset)
    words = memo[key] if key in memo else memo.setdefault(key, _words(text, start.offset, table))
    if not words or "\n" not in text[start.offset:words[0][2]]:
        return value
    shift = presumed_line(start) - start.line  # (`#line` directives)
    answers = set()
    for name, pos, end in words:
        uses_line, risky = _closure(tu, name)
        if risky is ANY or value in risky:
            return value
        if uses_line:
            first, last = (start.line + text.count("\n", start.offset, at) + shift for at in (pos, end))
            if last == value:
                answers.add(first)
    return answers.pop() if len(answers) == 1 else value


def _words(text: str, begin: int, table: dict) -> list:
    """[(word, offset, end offset of its call)] for the macro call whose name starts at offset `begin` of `text`
    (first) and for `__LINE__` and each macro name written inside it (a function-like macro's call ends at its
    closing parenthesis; comments and literals are skipped)."""
    m = _NAME.match(text, begin)
    if not m:
        return []
    end = _call_end(text, m.end(), table.get(m.group(0)))
    code = [" "] * (end + 1 - begin)
    for i, ch, _ in code_chars(text, begin):
        if i > end:
            break
        code[i - begin] = ch
    return [(t.group(0), begin + t.start(), _call_end(text, begin + t.end(), table.get(t.group(0))))
            for t in _TOKEN.finditer("".join(code)) if t.group(0) == "__LINE__" or t.group(0) in table]


def _call_end(text: str, after: int, definition) -> int:
    """Offset of the `)` closing a function-like macro's call whose name ends at `after` (or `after` itself for
    an object-like macro, `__LINE__`, or a function-like name not followed by `(`)."""
    if definition is None or definition[0] is None:
        return after
    opened = False
    for i, ch, depth in code_chars(text, after):
        if depth == 0 and ch == ")" and opened:
            return i
        if depth == 0 and ch == "(":
            opened = True
        elif depth == 0 and not opened and not ch.isspace():
            return after
    return after


def _closure(tu, name: str):
    """(whether expanding macro `name` can produce `__LINE__`, the integer values other built-in literals it
    can produce: a set, or ANY); memoized on `tu`."""
    memo = tu.__dict__.setdefault("_line_closure", {})
    if name in memo:
        return memo[name]
    table, builtin = macro_definitions(tu), builtin_macros(tu)
    uses_line, risky, seen, todo = False, set(), set(), [name]
    while todo:
        w = todo.pop()
        if w in seen:
            continue
        seen.add(w)
        if w == "__LINE__":
            uses_line = True
        elif w in _DYNAMIC:
            risky = ANY
        elif w in table:
            body = table[w][1]
            if "##" in body:
                risky = ANY
            elif w in builtin and risky is not ANY:
                risky |= {_int(t) for t in body if t[:1].isdigit()}
            todo.extend(t for t in body if _NAME.match(t))
    memo[name] = uses_line, risky
    return memo[name]


def _int(token: str):
    """The value of integer token `token` (`8`, `0x7fffffff`, `2147483647L`), or None for a floating one."""
    digits = token.rstrip("uUlL")
    try:
        return int(digits, 0) if not digits.startswith("0") or digits[:2].lower() == "0x" or digits == "0" \
            else int(digits, 8)
    except ValueError:
        return None
