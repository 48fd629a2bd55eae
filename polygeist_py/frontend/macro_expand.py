"""The C preprocessor's macro expansion (C11 6.10.3) over token spellings, for the places that read source text
libclang shows unexpanded: `_Pragma` operands inside macros (pragma_operator.py), `#pragma omp` lines and their
clause arguments (openmp.py, openmp_exprs.py). The macros are clang_ast.macro_definitions' table:
{name: (parameter names or None for an object-like macro, body token spellings)}. Object-like and function-like
macros, `#`, `##`, `__VA_ARGS__`; a macro is not re-expanded inside its own expansion."""

from __future__ import annotations

_MAX_DEPTH = 32


def expand(tokens: list, table: dict, hidden: frozenset = frozenset(), depth: int = 0) -> list:
    """Token spellings `tokens` with the macros of `table` expanded; a name in
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


def use_end(spellings: list, i: int, table: dict):
    """Index after the macro use that starts at spellings[i] (the name alone for an object-like macro, through
    the closing parenthesis for a function-like one); None when spellings[i] is no macro use (not a macro, or a
    function-like name without its arguments)."""
    params, body = table.get(spellings[i], (None, None))
    if body is None:
        return None
    if params is None:
        return i + 1
    if i + 1 < len(spellings) and spellings[i + 1] == "(" and (parsed := _arguments(spellings, i + 1)):
        return parsed[1]
    return None


def expand_positioned(toks: list, table: dict) -> list:
    """[(spelling, position)] tokens with each macro use replaced by its expansion, every token of which takes
    the position of the use (diagnostics point at the macro's name)."""
    spellings = [t for t, _ in toks]
    out, i = [], 0
    while i < len(toks):
        end = use_end(spellings, i, table)
        if end is None:
            out.append(toks[i])
            i += 1
            continue
        out += [(t, toks[i][1]) for t in expand(spellings[i:end], table)]
        i = end
    return out


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
