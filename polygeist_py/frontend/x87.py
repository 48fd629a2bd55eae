"""`long double` constants: C literals rounded exactly to x86-64's 80-bit x87 extended format.

clang's evaluator (libclang) gives floating constants only as a double, which would round a `long double`
literal twice (`0.1L` would lose 11 bits). The literal's own text is rounded once, to nearest-even, as a C
compiler does (C11 6.4.4.2). Text comes from where the literal is spelled, also inside a macro's definition.
"""

from __future__ import annotations

import math
import re
import struct
from fractions import Fraction

from mlir import ir
from mlir.dialects import arith

from ..clang_ast import K, T, children, evaluate, file_text, spelled_at, unary_op

_DECIMAL = re.compile(r"(?:(\d+)\.?(\d*)|\.(\d+))(?:[eE]([+-]?\d+))?[fFlL]?")
_HEX = re.compile(r"0[xX](?:([0-9a-fA-F]+)\.?([0-9a-fA-F]*)|\.([0-9a-fA-F]+))[pP]([+-]?\d+)[fFlL]?")
_BIAS = 16383
_MAX_EXPONENT = 0x7FFE


def literal_value(text: str) -> Fraction | None:
    """The exact rational value of C floating literal `text` (decimal or hexadecimal, any suffix), or None when
    `text` does not start with one."""
    m = _HEX.match(text)
    if m:
        whole, frac = (m.group(1) or ""), (m.group(2) or m.group(3) or "")
        digits = int(whole + frac or "0", 16)
        return Fraction(digits) * Fraction(2) ** (int(m.group(4)) - 4 * len(frac))
    m = _DECIMAL.match(text)
    if m is None or not (m.group(2) is not None and "." in m.group(0) or m.group(3) or m.group(4)):
        return None  # (an integer, not a floating literal)
    whole, frac = (m.group(1) or ""), (m.group(2) or m.group(3) or "")
    return Fraction(int(whole + frac or "0")) * Fraction(10) ** (int(m.group(4) or 0) - len(frac))


def x87_bits(v: Fraction) -> int:
    """The 80-bit pattern of `v` rounded to nearest-even in x87 extended format (sign, 15-bit exponent biased by
    16383, 64-bit significand with its explicit integer bit); subnormals and infinity as IEEE rules give."""
    sign = 1 << 79 if v < 0 else 0
    v = abs(v)
    if v == 0:
        return sign
    e = v.numerator.bit_length() - v.denominator.bit_length()
    if Fraction(2) ** e > v:
        e -= 1
    e = max(e, 1 - _BIAS)  # (below the smallest normal: a subnormal, exponent field 0)
    scaled = v / Fraction(2) ** (e - 63)
    sig = scaled.numerator // scaled.denominator
    rest = scaled - sig
    if rest > Fraction(1, 2) or rest == Fraction(1, 2) and sig & 1:
        sig += 1
    if sig >> 64:
        sig >>= 1
        e += 1
    if e + _BIAS > _MAX_EXPONENT:
        return sign | 0x7FFF << 64 | 1 << 63  # infinity
    field = e + _BIAS if sig >> 63 else 0
    return sign | field << 64 | sig


def value_bits(v) -> int:
    """x87_bits of an int, float or Fraction `v`, also a float infinity or NaN (a double NaN's sign and payload
    widened: integer bit set, quiet bit and payload shifted up 11 bits, so a signaling NaN stays one)."""
    if isinstance(v, float) and v == 0 and math.copysign(1.0, v) < 0:
        return 1 << 79  # -0.0
    if isinstance(v, float) and not math.isfinite(v):
        sign = 1 << 79 if math.copysign(1.0, v) < 0 else 0
        if math.isinf(v):
            return sign | 0x7FFF << 64 | 1 << 63
        payload = struct.unpack("<Q", struct.pack("<d", v))[0] & ((1 << 52) - 1)
        return sign | 0x7FFF << 64 | 1 << 63 | payload << 11
    return x87_bits(Fraction(v))


def rounded(v: Fraction) -> Fraction:
    """`v` rounded to the nearest x87 extended value (the value `x87_bits(v)` encodes).

    Raises:
        OverflowError: `v` overflows to infinity."""
    bits = x87_bits(v)
    field, sig = bits >> 64 & 0x7FFF, bits & (1 << 64) - 1
    if field == 0x7FFF:
        raise OverflowError("long double overflow")
    r = Fraction(sig) * Fraction(2) ** (max(field, 1) - _BIAS - 63)
    return -r if bits >> 79 else r


def attribute(value) -> ir.Attribute:
    """An f80 FloatAttr holding `value` (a Fraction, int or float, also infinite or NaN) rounded once."""
    return ir.Attribute.parse(f"0x{value_bits(value):020X} : f80")


def constant(value) -> ir.Value:
    """An f80 `arith.constant` holding `value` (a Fraction, int or float) rounded once."""
    return arith.ConstantOp(ir.Type.parse("f80"), attribute(value)).result


# <float.h>'s long double limits, which clang spells in built-in macros (no source text to read): exact values
# of the x87 format (64-bit significand, exponents -16382..16383)
LIMITS = {"LDBL_MAX": Fraction((1 << 64) - 1) * Fraction(2) ** (16383 - 63), "LDBL_MIN": Fraction(1, 2 ** 16382),
          "LDBL_EPSILON": Fraction(1, 2 ** 63), "LDBL_TRUE_MIN": Fraction(1, 2 ** 16445),
          "LDBL_DENORM_MIN": Fraction(1, 2 ** 16445), "LDBL_NORM_MAX": Fraction((1 << 64) - 1) * Fraction(2) ** (16383 - 63)}


def _text_at(location):
    """The text of the file `location` (a libclang SourceLocation) is in, or None (a built-in macro's, an unreadable
    file)."""
    if location.file is None:
        return None
    try:
        return file_text(location.file.name)
    except OSError:
        return None


def _limit_named_at(location):
    """The value of the <float.h> limit whose macro is expanded at `location`, directly or through macros the
    same file defines as another name (`#define EPS LDBL_EPSILON`); None for anything else."""
    text = _text_at(location)
    if text is None:
        return None
    m = re.match(r"\w+", text[location.offset:])
    name = m.group(0) if m else ""
    for _ in range(8):
        if name.strip("_") in LIMITS:
            return LIMITS[name.strip("_")]
        m = re.search(rf"^[ \t]*#[ \t]*define[ \t]+{name}[ \t]+\(?(\w+)\)?[ \t]*$", text, re.M) if name else None
        if m is None:
            return None
        name = m.group(1)
    return None


def pp_number_at(text: str, start: int) -> str:
    """The preprocessing number (C11 6.4.8) that starts at offset `start` of source `text`, whatever its length,
    with backslash-newline continuations inside it removed (translation phase 2): a literal of a hundred digits,
    or one split over lines, is read whole (its exponent included)."""
    out, i = [], start
    while i < len(text):
        ch = text[i]
        if ch == "\\" and (text.startswith("\n", i + 1) or text.startswith("\r\n", i + 1)):
            i += 2 if text[i + 1] == "\n" else 3
            continue
        if not (ch.isalnum() or ch in "._" or ch in "+-" and out and out[-1] in "eEpP"):
            break
        out.append(ch)
        i += 1
    return "".join(out)


def literal(cursor):
    """The exact value of FLOATING_LITERAL `cursor` read where it is spelled, or None (a built-in macro other
    than <float.h>'s long double limits, whose text is not in a file)."""
    where = spelled_at(cursor.extent.start)
    if where is not None:
        return literal_value(pp_number_at(*where))
    token = next((t.spelling for t in cursor.get_tokens()), "")  # (libclang shows some expansions' tokens)
    v = literal_value(token)
    if v is None:
        v = _pasted_argument(cursor)
    return v if v is not None else _limit_named_at(cursor.extent.start)


_INVOCATION = re.compile(r"\w+[ \t]*\([ \t]*([^()\s]+)[ \t]*\)")


def _pasted_argument(cursor):
    """The value of a long double literal that a macro pastes its suffix onto (gnulib's `#define L_(x) x##L`,
    used as `L_(0.5)`: the pasted token is spelled nowhere in a file) read from the macro's argument, when the
    argument is one unsuffixed literal and clang's (double) value of the result agrees with it; else None."""
    location = cursor.extent.start
    text = _text_at(location)
    if text is None:
        return None
    m = _INVOCATION.match(text, location.offset)
    arg = m.group(1) if m else ""
    if not (_DECIMAL.fullmatch(arg) or _HEX.fullmatch(arg)) or arg[-1] in "fFlL":
        return None
    hexa = arg[:2].lower() == "0x"
    mantissa = re.split("[pP]" if hexa else "[eE]", arg[2:] if hexa else arg)[0].replace(".", "").lstrip("0")
    if len(mantissa) > (12 if hexa else 14):  # (short enough that anything the macro pastes on besides the
        return None                           # suffix changes the double value: the check below then rejects)
    v = literal_value(arg)
    try:
        return v if v is not None and float(v) == float(evaluate(cursor)) else None
    except (OverflowError, TypeError, ValueError):
        return None


_FOLD = {"Add": lambda a, b: a + b, "Sub": lambda a, b: a - b, "Mul": lambda a, b: a * b,
         "Div": lambda a, b: a / b}


def _special(v) -> bool:
    return isinstance(v, float) and not math.isfinite(v)


def _ieee_special(op: str, a: float, b: float) -> float:
    """`a op b` by IEEE rules where an operand is infinite or NaN or a divisor is zero (Python raises on x / 0)."""
    if op == "Div" and b == 0:
        return math.nan if a == 0 or a != a else math.copysign(math.inf, a) * math.copysign(1.0, b)
    r = _FOLD[op](a, b)
    if r != r and a == a and b == b:  # an invalid operation (inf - inf): gcc folds it to the positive quiet NaN
        return math.nan
    return r


def exact_constant(e, evaluate, error_at) -> Fraction | int | float:
    """The exact value of constant expression `e` initializing a `long double`: a literal (also negated), a
    conversion from a narrower type (whose value clang's double evaluation holds exactly), or + - * / of such
    values, each result rounded to long double.

    Raises:
        CompileError: (through `error_at`) any other form, an overflow, or a literal spelled by a built-in macro,
        whose exact value is not available. (Infinities and NaN follow IEEE rules: a division by zero gives
        one.)"""
    s = e
    while s.kind in (K.PAREN_EXPR, K.UNEXPOSED_EXPR) and len(children(s)) == 1 and \
            s.type.get_canonical().kind == T.LONGDOUBLE:
        s = children(s)[0]
    if s.type.get_canonical().kind != T.LONGDOUBLE:
        v = evaluate(s)
        if isinstance(v, (int, float)):
            return v
    elif s.kind == K.FLOATING_LITERAL:
        v = literal(s)
        if v is not None:
            return v
    elif s.kind == K.UNARY_OPERATOR and unary_op(s) in ("-", "+"):
        v = exact_constant(children(s)[0], evaluate, error_at)
        if unary_op(s) == "-" and v == 0:  # (-0.0L: a Fraction has no signed zero)
            return -float(v)
        return -v if unary_op(s) == "-" else v
    elif s.kind == K.CALL_EXPR and _special(v := evaluate(s)):  # __builtin_infl(), __builtin_nanl("")
        return v
    elif s.kind == K.BINARY_OPERATOR and s.binary_operator.name in _FOLD:
        op = s.binary_operator.name
        a, b = (exact_constant(c, evaluate, error_at) for c in children(s))
        if _special(a) or _special(b) or op == "Div" and b == 0:
            try:  # (infinities and NaN: IEEE arithmetic, exact at any precision: `1.0L/0.0L - 1.0L/0.0L`)
                return _ieee_special(op, float(a), float(b))
            except OverflowError:  # (a finite long double beyond double's range)
                pass
        else:
            try:  # (each operation rounds to long double, as the program would at run time)
                return rounded(_FOLD[op](Fraction(a), Fraction(b)))
            except OverflowError:
                pass
    raise error_at(e, "unsupported construct: this long double constant expression in an initializer")
