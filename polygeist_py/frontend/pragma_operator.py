"""OpenMP directives written with C99's `_Pragma` operator, directly or through macros
(`#define PARALLEL_FOR _Pragma("omp parallel for")`, `#define PRAGMA(x) _Pragma(#x)`).

pgcc reads `#pragma omp` lines from the source text (openmp.py). A `_Pragma` inside a macro is only visible after
macro expansion, which libclang does not show (its tokens give the macro's name where it is used). So the macros
used in a function body are expanded here, far enough to find `_Pragma("...")` operands: object-like and
function-like macros, `#` (stringizing), `##` (pasting) and `__VA_ARGS__`, with the rules of C11 6.10.3 for
the cases that decide a pragma's text (a macro is not re-expanded inside its own expansion)."""

from __future__ import annotations

from ..clang_ast import in_skipped_range, macro_definitions

_MAX_DEPTH = 32


def pragma_operands(tu, toks: list) -> list:
    """[(pragma text, first token, last token)] for each `_Pragma("text")` that the tokens `toks` (libclang
    tokens of a function definition) contain or that a macro used in them expands to, in source order; the first
    and last tokens span what was written (the macro's use, or the `_Pragma(...)` itself)."""
    table = macro_definitions(tu)
    users = _pragma_macros(tu, table)
    out = []
    i = 0
    while i < len(toks):
        t = toks[i].spelling
        if t == "_Pragma" or t in users:
            end = _use_end(toks, i, table.get(t, (None, None))[0] is not None)
            if end is not None and not in_skipped_range(tu, toks[i].location):
                spelled = [x.spelling for x in toks[i:end + 1]]
                expansion = spelled if t == "_Pragma" else expand(spelled, table)
                for text in _operands(expansion):
                    out.append((text, toks[i], toks[end]))
                i = end + 1
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


def _use_end(toks, i: int, function_like: bool):
    """Index of the last token of the macro use or `_Pragma(...)` starting at toks[i]; None when a
    function-like name is not followed by its arguments (then it is not a use)."""
    if toks[i].spelling != "_Pragma" and not function_like:
        return i
    if i + 1 >= len(toks) or toks[i + 1].spelling != "(":
        return None
    depth = 0
    for j in range(i + 1, len(toks)):
        depth += toks[j].spelling == "("
        depth -= toks[j].spelling == ")"
        if depth == 0:
            return j
    return None


def _arguments(tokens: list, open_paren: int):
    """(argument token lists, index after the closing parenthesis) of the macro arguments starting at the
    `(` at tokens[open_paren]; None when the parenthesis is not closed."""
    args, cur, depth = [], [], 0
    for j in range(open_paren, len(tokens)):
        t = tokens[j]
        if t == "(":
            depth += 1
            if depth == 1:
                continue
        elif t == ")":
            depth -= 1
            if depth == 0:
                args.append(cur)
                return args, j + 1
        elif t == "," and depth == 1:
            args.append(cur)
            cur = []
            continue
        cur.append(t)
    return None


def expand(tokens: list, table: dict, hidden: frozenset = frozenset(), depth: int = 0) -> list:
    """Token spellings `tokens` with the macros of `table` (clang_ast.macro_definitions) expanded; a name in
    `hidden` (being expanded already) stays as it is."""
    out = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        params, body = table.get(t, (None, None))
        if body is None or t in hidden or depth > _MAX_DEPTH:
            out.append(t)
            i += 1
        elif params is None:
            out += expand(body, table, hidden | {t}, depth + 1)
            i += 1
        elif i + 1 < len(tokens) and tokens[i + 1] == "(" and (parsed := _arguments(tokens, i + 1)):
            args, i = parsed
            out += expand(_substitute(body, params, args, table, hidden, depth), table, hidden | {t}, depth + 1)
        else:
            out.append(t)
            i += 1
    return out


def _substitute(body, params, args, table, hidden, depth) -> list:
    """The replacement list `body` with each parameter replaced (C11 6.10.3.1-3): by its argument spelled as a
    string after `#`, as written next to `##`, macro-expanded elsewhere; `##` pastes its neighbours."""
    named = dict(zip(params, args))
    if params and params[-1] == "...":
        named.pop("...", None)
        rest = args[len(params) - 1:]
        named["__VA_ARGS__"] = [x for k, a in enumerate(rest) for x in ([","] if k else []) + a]
    if params == [] and args == [[]]:
        args = []
    out = []
    k = 0
    while k < len(body):
        t = body[k]
        if t == "#" and k + 1 < len(body) and body[k + 1] in named:
            out.append(_stringize(named[body[k + 1]]))
            k += 2
            continue
        if t in named:
            pasted = (k > 0 and body[k - 1] == "##") or (k + 1 < len(body) and body[k + 1] == "##")
            out += named[t] if pasted else expand(named[t], table, hidden, depth + 1)
        else:
            out.append(t)
        k += 1
    while "##" in out:  # paste the tokens on both sides into one
        k = out.index("##")
        left, right = out[k - 1] if k else "", out[k + 1] if k + 1 < len(out) else ""
        out[max(k - 1, 0):k + 2] = [left + right]
    return out


def _stringize(arg: list) -> str:
    text = " ".join(arg)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


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
