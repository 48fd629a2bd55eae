"""Constant initializers of numeric global arrays as flat row-major values, under C's rules (C11 6.7.9): braces
may be elided (`int a[2][3] = {1, 2, 3, 4, 5, 6}` fills row after row; `{{1, 2, 3}, 4, 5}` starts the second
row at 4), designators move the position (`[3] = 1`, `[1][2] = 5`, also after the last element), a scalar may
have braces (`{{1}}`), and a row of characters may be a string literal.

The same walk over a record's members, for byte-image globals, is llvm_memory.const_image.
"""

from __future__ import annotations

import math

from ..clang_ast import K, T, children, evaluate, string_literal, strip_implicit
from ..errors import error_at
from . import gotos
from . import x87
from .values import has_designator
from .llvm_memory import Designated, array_position, cursor_of, designator_of, in_bounds


def flatten(init, shape: list, vals) -> None:
    """Write the values of INIT_LIST_EXPR `init`, initializing a global array of `shape` (list of ints), into
    `vals` (a zero-filled list or a dict) by row-major flat index.

    Raises:
        CompileError: a value that is not a constant, excess elements, or a field designator."""
    def put(at, e):
        vals[at] = e if isinstance(e, int) else constant_value(e)

    walk(init, shape, put)


def walk(init, shape: list, put) -> None:
    """Call `put(flat index, element)` for each element INIT_LIST_EXPR `init` gives an array of `shape` (list of
    ints), in the order the initializer lists them; an element is the expression cursor, or an int (a
    character of a string row). Elements not listed are zero.

    Raises:
        CompileError: excess elements, a field designator, or a designator into a scalar."""
    items = children(init)
    used = _fill(items, 0, shape, 0, 0, _Sink(put, has_designator(init)), elided=False)
    if used < len(items):
        raise error_at(cursor_of(items[used]), "unsupported construct: excess elements in an initializer")


class _Sink:
    """Where elements go: `put(flat index, element)`; with designators a braced sub-list or string may replace
    an earlier initializer of its sub-array, whose elements it must zero first (`clear`)."""

    def __init__(self, put, designated: bool):
        self.put, self.designated = put, designated

    def clear(self, at: int, n: int) -> None:
        if self.designated:
            for k in range(at, at + n):
                self.put(k, 0)


def _designator(item):
    try:
        return designator_of(item)
    except ValueError as e:
        raise error_at(cursor_of(item), f"unsupported construct: {e}") from None


def _fill(items, pos, shape, depth, base, sink, elided):
    """Fill the sub-array at `depth` that starts at flat index `base` from `items[pos:]`; returns the position
    after the last item used. `elided`: the sub-array has no braces of its own, so it ends at its last element
    or at a designator of the enclosing array."""
    stride = math.prod(shape[depth + 1:])
    start, i = pos, 0
    while pos < len(items) and (i < shape[depth] or _designator(items[pos]) is not None):
        at = array_position(items, pos, start, elided, i, _designator(items[pos]))
        if at is None:
            break
        if isinstance(at[0], tuple):  # a GNU range: each element from its own copy of the initializer
            for k, one in at[1]:
                _fill_one([one], 0, shape, depth, base + in_bounds(k, shape[depth], items[pos]) * stride, sink)
            i, pos = at[0][2] + 1, pos + 1
            continue
        i, items = at
        pos = _fill_one(items, pos, shape, depth, base + in_bounds(i, shape[depth], items[pos]) * stride, sink)
        i += 1
    return pos


def _fill_one(items, pos, shape, depth, at, sink):
    """Fill the element (depth = the last) or sub-array at `depth` that starts at flat index `at` from
    `items[pos:]`; returns the position after the last item used."""
    item = items[pos]
    s = None if isinstance(item, Designated) else strip_implicit(item)
    if depth == len(shape) - 1:  # an element
        if s is None:
            raise error_at(item.cursor, "unsupported construct: designator into a scalar")
        while s.kind == K.INIT_LIST_EXPR and len(children(s)) == 1:  # `{{1}}`
            s = strip_implicit(children(s)[0])
        sink.put(at, s)
        return pos + 1
    if s is not None and (s.kind == K.INIT_LIST_EXPR or s.kind == K.STRING_LITERAL and depth == len(shape) - 2):
        sink.clear(at, math.prod(shape[depth + 1:]))
    if s is not None and s.kind == K.INIT_LIST_EXPR:
        sub = children(s)
        used = _fill(sub, 0, shape, depth + 1, at, sink, elided=False)
        if used < len(sub):
            raise error_at(cursor_of(sub[used]), "unsupported construct: excess elements in an initializer")
        return pos + 1
    if s is not None and s.kind == K.STRING_LITERAL and depth == len(shape) - 2:  # a row of characters
        for j, ch in enumerate([ord(c) for c in string_literal(s)][: shape[-1]]):  # (wide: code units)
            sink.put(at + j, ch)
        return pos + 1
    # braces elided: the sub-array takes as many items as it has elements
    return _fill(items, pos, shape, depth + 1, at, sink, elided=True)


def constant_value(e):
    """The value of constant expression `e` in a global's initializer: int, float, or an exact Fraction for a
    long double. Raises CompileError when it is not constant."""
    if e.type.get_canonical().kind == T.LONGDOUBLE:  # (clang evaluates in double: the literal's own text)
        return x87.exact_constant(e, evaluate, error_at)
    if e.type.get_canonical().kind == T.COMPLEX:  # (libclang does not evaluate complex constants)
        from .complex_values import constant
        return constant(e)
    v = evaluate(e)
    if isinstance(v, (int, float)):
        return v
    s = strip_implicit(e)
    while s.kind == K.CSTYLE_CAST_EXPR:
        s = strip_implicit(children(s)[-1])
    if s.kind == K.BINARY_OPERATOR and s.binary_operator.name == "Sub":  # `&&b - &&a`: GNU label offsets
        a, b = (strip_implicit(x) for x in children(s))
        if a.kind == b.kind == K.ADDR_LABEL_EXPR:
            return gotos.address(children(a)[0]) - gotos.address(children(b)[0])
    raise error_at(e, "unsupported construct: non-constant global initializer")
