"""The builtins table: C library, math.h and GNU ``__builtin_*`` functions that pgcc lowers itself, by name.

``Builtins.lookup(name)`` gives the handler of a function name (or None: an ordinary call). A handler takes
the FunctionGen, the CALL_EXPR and its argument cursors and returns the call's value (None for void). The
CUDA runtime API and device intrinsics are the entries of cuda_builtins.CudaBuiltins.
"""

from __future__ import annotations

from fractions import Fraction

from mlir import ir
from mlir.dialects import arith, func, llvm

from ..clang_ast import K, T, canonical, children, constant_string, evaluate, strip_implicit
from ..errors import error_at
from . import complex_values
from . import affine_forms as AF
from .attributes import add_passthrough, asm_label
from . import c_types as CT
from . import int_semantics as IS
from .cuda_builtins import CudaBuiltins, is_texture
from .scan import address_of_operand, decl_key, out_param_var
from . import gnu_atomics
from . import varargs
from . import x87
from . import x86_builtins
from .values import MemLV

BUILTIN = "__builtin_"
# C name -> math dialect op (float and double variants; CUDA's fast intrinsics map to the exact op)
MATH_UNARY = {
    "sqrt": "math.sqrt", "exp": "math.exp", "log": "math.log", "sin": "math.sin", "cos": "math.cos",
    "tan": "math.tan", "atan": "math.atan", "asin": "math.asin", "acos": "math.acos", "sinh": "math.sinh",
    "cosh": "math.cosh", "tanh": "math.tanh", "log10": "math.log10", "log2": "math.log2", "exp2": "math.exp2",
    "expm1": "math.expm1", "log1p": "math.log1p", "erf": "math.erf", "cbrt": "math.cbrt", "floor": "math.floor",
    "ceil": "math.ceil", "round": "math.round", "trunc": "math.trunc", "fabs": "math.absf", "rsqrt": "math.rsqrt",
}
MATH_BINARY = {"pow": "math.powf", "atan2": "math.atan2", "fmax": "arith.maxnumf", "fmin": "arith.minnumf",
               "fmod": "arith.remf", "copysign": "llvm.intr.copysign", "fdivide": "arith.divf"}
VARIADIC = {"printf": 1, "fprintf": 2, "sprintf": 2, "snprintf": 3, "scanf": 1, "fscanf": 2, "sscanf": 2}


def math_name(name: str):
    """'sqrtf' -> ('sqrt', unary op); '__expf', '__builtin_expf' -> ('exp', ...); None when not a math function."""
    base = name[len(BUILTIN):] if name.startswith(BUILTIN) else name[2:] if name.startswith("__") else name
    for cand in (base, base[:-1] if base.endswith("f") else None):
        if cand in MATH_UNARY:
            return MATH_UNARY[cand], 1
        if cand in MATH_BINARY:
            return MATH_BINARY[cand], 2
    return None


# ================================================================ GNU __builtin_* functions
# Each family is one function (fg, call, args) -> value; GNU_BUILTINS maps every name to its family. A builtin
# that is a library function under another name (`__builtin_hypot`, `__builtin_strlen`) is a call of that
# function, as gcc emits when it does not expand the builtin; any other `__builtin_*`, `__sync_*` or
# `__atomic_*` name is an error naming it (never an undefined symbol at link time).

# C library functions gcc knows as `__builtin_<name>` (libm in double/float/long double forms, string.h, stdlib,
# stdio)
LIBM = ("acos asin atan atan2 cos sin tan cosh sinh tanh acosh asinh atanh exp exp2 expm1 frexp ldexp log log10 "
        "log1p log2 logb ilogb modf scalbn scalbln cbrt fabs hypot pow sqrt erf erfc lgamma tgamma ceil floor "
        "nearbyint rint lrint llrint round lround llround trunc fmod remainder remquo copysign nan nextafter "
        "nexttoward fdim fmax fmin fma exp10 sincos").split()
LIBRARY = set(LIBM) | {n + "f" for n in LIBM} | {n + "l" for n in LIBM} | set(
    ("memcpy memmove memset memcmp memchr strlen strcmp strncmp strcpy strncpy strcat strncat strchr strrchr "
     "strstr strdup strndup strspn strcspn strpbrk bzero bcmp bcopy mempcpy stpcpy stpncpy index rindex malloc "
     "calloc realloc free abort exit "
     "_exit puts putchar fputs fputc fwrite printf fprintf sprintf snprintf vprintf vfprintf vsprintf "
     "vsnprintf scanf fscanf sscanf isalnum isalpha isdigit isspace isupper islower isxdigit isprint "
     "ispunct iscntrl isgraph toupper tolower").split()) | set(complex_values.LIBM_COMPLEX)
UNKNOWN_PREFIXES = (BUILTIN, "__sync_", "__atomic_", "__c11_atomic_")


def result(fg, call, v):
    """An i1 or integer `v` as the call's (integer) C result type."""
    ty = canonical(call.type)
    if v.type == ir.IntegerType.get_signless(1):
        return fg.from_bool(v, ty)
    return fg.convert(v, ITYPE[v.type.width], ty, call)


def float_operand(fg, call, arg):
    """The value of a floating-point argument of a type-generic builtin, and its MLIR type.

    Raises:
        CompileError: an argument that is not float or double."""
    ty = canonical(arg.type)
    if not CT.is_float(ty):
        raise error_at(arg, f"unsupported builtin '{call.spelling}' on '{arg.type.spelling}'")
    return fg.rvalue(arg), CT.scalar_type(ty)


def fconst(t, v):
    """A floating-point constant of MLIR type `t` (f32, f64 or f80) holding Python float `v`."""
    return arith.ConstantOp(t, ir.FloatAttr.get(t, v)).result


def fwidth(t) -> int:
    """The width in bits of floating-point MLIR type `t` (f80 has no Python class of its own)."""
    return ir.FloatType(t).width


# per float width: the smallest positive normal number (2^-126, 2^-1022, 2^-16382) and a quiet NaN's bits
SMALLEST_NORMAL = {32: 2.0 ** -126, 64: 2.0 ** -1022}
QUIET_NAN = {32: (0x7FC00000, 22), 64: (0x7FF8000000000000, 51), 80: (0x7FFFC000000000000000, 62)}


def fp_constant(fg, call, args):
    """`__builtin_inf[f]()`, `__builtin_huge_val[f]()` (HUGE_VAL, INFINITY), `__builtin_nan[f](s)` (NAN) and
    `__builtin_nans[f](s)` (FLT_SNAN...): constants; a NaN's string is its payload (glibc's nan(s)): a NaN with
    those mantissa bits, or the library's nan()/nanf() when the string is not a constant (an error for nans,
    which no library function makes)."""
    t = CT.scalar_type(call.type)
    if "nan" not in call.spelling:
        return fconst(t, float("inf"))
    signaling = "nans" in call.spelling
    s = constant_string(args[0]) if args else ""
    try:
        payload = int(s, 0) if s else 0
        if not isinstance(s, str) or s and not s.strip().lstrip("+").isalnum():
            raise ValueError(s)
    except (TypeError, ValueError):
        if signaling:  # (no library function makes one)
            raise error_at(call, f"unsupported construct: '{call.spelling}' of a string that is not a number")
        return library_call(fg, call, args)
    width = fwidth(t)
    quiet, payload_bits = QUIET_NAN[width]
    payload &= (1 << payload_bits) - 1
    if signaling:  # (quiet bit clear; gcc sets the bit below it when the payload is 0, or it would be infinity)
        quiet &= ~(1 << payload_bits)
        payload = payload or 1 << (payload_bits - 1)
    bits = quiet | payload
    if width == 80:  # (an i80 attribute cannot be built from a Python int: the f80 constant's bits)
        return arith.ConstantOp(t, ir.Attribute.parse(f"0x{bits:020X} : f80")).result
    return arith.bitcast(t, fg.const_int(ir.IntegerType.get_signless(width), fg.signed_bits(bits, width)))


# gcc's float and long double spellings of the classification builtins (and BSD's finite): the operand's type
# decides the precision, as for the type-generic forms
SUFFIXED_CLASSIFY = {**{n + s: n for n in ("isinf", "isnan") for s in ("f", "l")},
                     **{"finite" + s: "isfinite" for s in ("", "f", "l")}}


def classify(fg, call, args):
    """isnan, isinf, isinf_sign, isfinite, isnormal, issubnormal, iszero, signbit, fpclassify (math.h's
    macros) with gcc's results: signbit is the sign bit in place for a float (INT_MIN) and 1 for a double."""
    name = call.spelling.removeprefix(BUILTIN)
    name = SUFFIXED_CLASSIFY.get(name, name)
    x, t = float_operand(fg, call, args[-1])
    # (math.absf has no lowering for x86_fp80; LLVM's fabs does)
    absx = ir.Operation.create("llvm.intr.fabs" if fwidth(t) == 80 else "math.absf", [t], [x]).result
    inf = fconst(t, float("inf"))
    width = fwidth(t)
    smallest = x87.constant(Fraction(1, 2 ** 16382)) if width == 80 else fconst(t, SMALLEST_NORMAL[width])
    cmp = arith.cmpf
    P = arith.CmpFPredicate
    if name == "isnan":
        return result(fg, call, cmp(P.UNO, x, x))
    if name == "isinf":
        return result(fg, call, cmp(P.OEQ, absx, inf))
    if name == "isfinite":
        return result(fg, call, cmp(P.OLT, absx, inf))
    if name == "isnormal":
        return result(fg, call, arith.andi(cmp(P.OGE, absx, smallest), cmp(P.OLT, absx, inf)))
    if name == "issubnormal":
        return result(fg, call, arith.andi(cmp(P.OLT, absx, smallest), cmp(P.ONE, x, fconst(t, 0.0))))
    if name == "iszero":
        return result(fg, call, cmp(P.OEQ, x, fconst(t, 0.0)))
    it = ir.IntegerType.get_signless(width)
    bits = arith.bitcast(it, x)
    if name.startswith("signbit"):
        if width == 32:
            return result(fg, call, arith.andi(bits, fg.const_int(it, -(1 << 31))))
        top = arith.shrui(bits, fg.const_int(it, width - 1))  # (gcc: 1 for double and long double)
        return result(fg, call, top if width == 64 else arith.trunci(ir.IntegerType.get_signless(32), top))
    i32 = ir.IntegerType.get_signless(32)
    if name == "isinf_sign":  # -1, 0 or 1
        neg = arith.cmpi(arith.CmpIPredicate.slt, bits, fg.const_int(it, 0))
        sign = arith.select(neg, fg.const_int(i32, -1), fg.const_int(i32, 1))
        return result(fg, call, arith.select(cmp(P.OEQ, absx, inf), sign, fg.const_int(i32, 0)))
    # fpclassify(nan, infinite, normal, subnormal, zero, x); C++'s std::fpclassify(x) gives glibc's FP_* values
    if len(args) == 1:
        ks = [fg.const_int(canonical(call.type), k) for k in (0, 1, 4, 3, 2)]
    else:
        ks = [fg.convert(fg.rvalue(a), a.type, canonical(call.type), a) for a in args[:5]]
    v = arith.select(cmp(P.OEQ, x, fconst(t, 0.0)), ks[4], ks[3])
    v = arith.select(cmp(P.OGE, absx, smallest), ks[2], v)
    v = arith.select(cmp(P.OEQ, absx, inf), ks[1], v)
    return arith.select(cmp(P.UNO, x, x), ks[0], v)


STD_CLASSIFY = ("isnan", "isinf", "isfinite", "isnormal", "signbit", "fpclassify")
COMPARISONS = {"isgreater": "OGT", "isgreaterequal": "OGE", "isless": "OLT", "islessequal": "OLE",
               "islessgreater": "ONE", "isunordered": "UNO"}


def fp_compare(fg, call, args):
    """isgreater, isgreaterequal, isless, islessequal, islessgreater, isunordered: comparisons that are false
    (isunordered: true) on a NaN, in the usual arithmetic conversions' common type."""
    a, b = args[:2]
    ty = canonical(a.type) if CT.size_of(a.type) >= CT.size_of(b.type) and CT.is_float(a.type) else canonical(b.type)
    if not CT.is_float(ty):
        raise error_at(call, f"unsupported builtin '{call.spelling}' on '{a.type.spelling}'")
    va = fg.convert(fg.rvalue(a), a.type, ty, a)
    vb = fg.convert(fg.rvalue(b), b.type, ty, b)
    pred = getattr(arith.CmpFPredicate, COMPARISONS[call.spelling[len(BUILTIN):]])
    return result(fg, call, arith.cmpf(pred, va, vb))


def hint(fg, call, args):
    """expect, expect_with_probability (the first argument's value), assume_aligned (the pointer), assume,
    unreachable, prefetch (nothing: they only inform the optimizer)."""
    name = call.spelling[len(BUILTIN):]
    if name.startswith("expect"):
        for a in args[1:]:
            if not fg.pure(a):
                fg.rvalue(a, discard=True)
        return fg.convert(fg.rvalue(args[0]), args[0].type, call.type, args[0])
    if name == "assume_aligned":
        return fg.raw_pointer(args[0])
    if name == "prefetch" and args and not fg.pure(args[0]):
        fg.rvalue(args[0], discard=True)  # (its side effects happen; the prefetch itself is dropped)
    return None


def trap(fg, call, args):
    """`__builtin_trap()`: LLVM's trap (an illegal instruction, as gcc's ud2)."""
    ir.Operation.create("llvm.intr.trap", [], [])
    return None


def frame_addresses(fg, call, args):
    """`__builtin_return_address(n)` and `__builtin_frame_address(n)` as LLVM's returnaddress / frameaddress
    intrinsics (n = 0: this function's; larger n walk the frame-pointer chain, as gcc's);
    `__builtin_extract_return_addr(p)` and `__builtin_frob_return_addr(p)` are p on x86-64.

    Raises:
        CompileError: the level is not a nonnegative integer constant (gcc's error too)."""
    name = call.spelling.removeprefix(BUILTIN)
    if name in ("extract_return_addr", "frob_return_addr"):
        return fg.mg.builtins.ptr_arg(fg, args[0])
    level = evaluate(args[0])
    if not isinstance(level, int) or level < 0:
        raise error_at(args[0], f"'{call.spelling}' needs a nonnegative integer constant level")
    if level > 0:
        fg.mg.frame_pointers = True
    if name == "frame_address" and fg.func is not None:  # (gcc keeps the frame alive: no tail call leaves it)
        add_passthrough(fg.func, "disable-tail-calls", "true")
    i32 = ir.IntegerType.get_signless(32)
    intrinsic = "llvm.returnaddress" if name == "return_address" else "llvm.frameaddress.p0"
    v = llvm.CallIntrinsicOp(CT.llvm_ptr(), ir.StringAttr.get(intrinsic), [fg.const_int(i32, level)], [],
                             ir.DenseI32ArrayAttr.get([]))
    return v.results[0]


LONGJMP_HELPER = "__pgcc_builtin_longjmp"


def longjmp_helper(mg) -> str:
    """The name of an internal noreturn function of the module that calls LLVM's eh.sjlj.longjmp and ends in
    `unreachable` (which LLVM's longjmp needs after it and a structured block cannot hold mid-way)."""
    if LONGJMP_HELPER not in mg.llvm_decls:
        ftype = ir.Type.parse("!llvm.func<void (ptr)>")
        with ir.Location.unknown(), ir.InsertionPoint(mg.module.body):
            f = llvm.LLVMFuncOp(LONGJMP_HELPER, ir.TypeAttr.get(ftype),
                                linkage=ir.Attribute.parse("#llvm.linkage<internal>"))
            f.attributes["passthrough"] = ir.ArrayAttr.get([ir.StringAttr.get("noreturn")])
            block = f.body.blocks.append(CT.llvm_ptr())
            with ir.InsertionPoint(block):
                llvm.CallIntrinsicOp(None, ir.StringAttr.get("llvm.eh.sjlj.longjmp"), [block.arguments[0]], [],
                                     ir.DenseI32ArrayAttr.get([]))
                llvm.UnreachableOp()
        mg.llvm_decls.add(LONGJMP_HELPER)
    return LONGJMP_HELPER


def sjlj(fg, call, args):
    """`__builtin_setjmp(buf)` and `__builtin_longjmp(buf, 1)`: LLVM's lightweight eh.sjlj intrinsics, as clang
    lowers them (buf is five words: the frame address in word 0 and the stack pointer in word 2 stored here,
    the resume address filled by the intrinsic). The longjmp value must be 1 (gcc's rule).

    Raises:
        CompileError: a longjmp value other than the constant 1."""
    buf = fg.mg.builtins.ptr_arg(fg, args[0])
    ptr, i32, i64 = CT.llvm_ptr(), ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    no_bundles = ir.DenseI32ArrayAttr.get([])
    if call.spelling.endswith("longjmp"):
        if evaluate(args[1]) != 1:
            raise error_at(args[1], "'__builtin_longjmp' needs the constant 1 as its second argument")
        llvm.CallOp(None, [buf], [], [], var_callee_type=None, callee=ir.FlatSymbolRefAttr.get(longjmp_helper(fg.mg)))
        return None
    frame = llvm.CallIntrinsicOp(ptr, ir.StringAttr.get("llvm.frameaddress.p0"), [fg.const_int(i32, 0)], [],
                                 no_bundles).results[0]
    llvm.StoreOp(frame, buf)
    sp = llvm.CallIntrinsicOp(ptr, ir.StringAttr.get("llvm.stacksave.p0"), [], [], no_bundles).results[0]
    slot = llvm.IntToPtrOp(ptr, arith.addi(llvm.PtrToIntOp(i64, buf).result, fg.const_int(i64, 16))).result
    llvm.StoreOp(sp, slot)
    v = llvm.CallIntrinsicOp(i32, ir.StringAttr.get("llvm.eh.sjlj.setjmp"), [buf], [], no_bundles).results[0]
    return fg.convert(v, IS.INT, call.type, call)


def flt_rounds(fg, call, args):
    """`__builtin_flt_rounds()` (<float.h>'s FLT_ROUNDS): the current rounding direction read from the FPU, as
    LLVM's get.rounding gives it in C's encoding (0 toward zero, 1 to nearest, 2 upward, 3 downward)."""
    from mlir.dialects import llvm
    i32 = ir.IntegerType.get_signless(32)
    v = llvm.CallIntrinsicOp(i32, ir.StringAttr.get("llvm.get.rounding"), [], [], ir.DenseI32ArrayAttr.get([]))
    return fg.convert(v.results[0], call.type, call.type, call)


def folded(fg, call, args):
    """constant_p, object_size, dynamic_object_size, classify_type: clang's constant folding of the call, or what
    gcc answers when it cannot tell (constant_p: 0). An object size clang cannot fold (a pointer parameter of
    an inline function: glibc's fortified wrappers) is LLVM's objectsize intrinsic, which LLVM resolves after
    inlining as gcc's objsz pass does, else to the unknown size (-1 for types 0 and 1, 0 for 2 and 3); type 3
    that clang cannot fold is 0 (a subobject's least size, which LLVM cannot tell). The pointer's side effects
    are not evaluated (gcc's rule); a pointer with side effects has the unknown size."""
    v = evaluate(call)
    ty = canonical(call.type)
    if not isinstance(v, int):
        name = call.spelling[len(BUILTIN):]
        v = 0
        if name in ("object_size", "dynamic_object_size"):
            kind = evaluate(args[1]) if len(args) > 1 else 0
            least = isinstance(kind, int) and bool(kind & 2)
            # (type 3, the least size left in the closest surrounding subobject: LLVM's objectsize knows whole
            # objects only, whose remainder can exceed a member's (`&s.a[3]`: 25 bytes of s for 7 of s.a), which
            # a least size must not; 0 is gcc's answer when it cannot tell)
            if fg.pure(args[0]) and not (isinstance(kind, int) and kind & 3 == 3):
                return fg.convert(object_size(fg, fg.raw_pointer(args[0]), least, name.startswith("dynamic")),
                                  ITYPE[64], ty, call)
            v = 0 if least else -1
    return fg.const_int(ty, fg.signed_bits(v, CT.scalar_type(ty).width))


def object_size(fg, ptr, least: bool, dynamic: bool):
    """`llvm.objectsize(ptr, min=least, nullunknown=true, dynamic)`: the i64 size of the object `ptr` points
    into from ptr on (the largest size when it cannot tell exactly, or the least one when `least`)."""
    i1, i64 = ir.IntegerType.get_signless(1), ir.IntegerType.get_signless(64)
    # (nullunknown: a null pointer has the unknown size, as gcc answers; LLVM's default, size 0, made glibc's
    # fortified getcwd(NULL, n) abort)
    flags = [llvm.ConstantOp(i1, ir.IntegerAttr.get(i1, int(f))).result for f in (least, True, dynamic)]
    return llvm.CallIntrinsicOp(i64, ir.StringAttr.get("llvm.objectsize.i64.p0"), [ptr, *flags], [],
                                ir.DenseI32ArrayAttr.get([])).results[0]


# gcc's checking builtins (glibc's fortified headers under -D_FORTIFY_SOURCE): `__builtin___NAME_chk(args...,
# size)` is the C library's `__NAME_chk` (which aborts with "buffer overflow detected" when the operation
# would write past `size` bytes), or plain NAME when the object size is unknown, as gcc folds them
CHECKED = ("memcpy memmove mempcpy memset strcpy stpcpy strncpy stpncpy strcat strncat sprintf snprintf vsprintf "
           "vsnprintf").split()
# where the object size is among each one's arguments (the arguments before it are NAME's own)
CHECKED_SIZE_ARG = {"sprintf": 2, "vsprintf": 2, "snprintf": 3, "vsnprintf": 3}


def checked(fg, call, args):
    """`__builtin___memcpy_chk(d, s, n, size)` and the rest of CHECKED: a call of glibc's `__memcpy_chk`, whose
    check LLVM drops where it proves the write fits (its fortified-libcall folding, after inlining resolves
    the size); memcpy, memmove and memset of an object of unknown size (a constant -1) are LLVM's intrinsics."""
    name = call.spelling[len(BUILTIN) + 2:-len("_chk")]
    size = args[CHECKED_SIZE_ARG.get(name, len(args) - 1)]
    if name in ("memcpy", "memmove", "memset") and evaluate(size) in (-1, 2 ** 64 - 1) and fg.pure(size):
        b = fg.mg.builtins
        return b.memcpy(fg, call, args[:3]) if name == "memcpy" else b.memset(fg, call, args[:3]) \
            if name == "memset" else memmove(fg, call, args[:3])
    return library_call(fg, call, args, name="__" + name + "_chk")


BIT_OPS = ("popcount", "clz", "ctz", "ffs", "parity", "clrsb")


def bits(fg, call, args):
    """popcount, clz, ctz, ffs, parity, clrsb (int, l, ll forms) and bswap16/32/64, rotateleft/right: LLVM's
    ctpop, ctlz, cttz, bswap, fshl/fshr intrinsics. clz and ctz of 0 (undefined in gcc) give the width."""
    name = call.spelling[len(BUILTIN):]
    x = fg.rvalue(args[0])
    t = x.type
    zero_ok = {"is_zero_poison": ir.BoolAttr.get(False)}
    if name.startswith("bswap"):
        return ir.Operation.create("llvm.intr.bswap", [t], [x]).result
    if name.startswith("rotate"):
        n = fg.convert(fg.rvalue(args[1]), args[1].type, args[0].type, args[1])
        op = "llvm.intr.fshl" if name.startswith("rotateleft") else "llvm.intr.fshr"
        return ir.Operation.create(op, [t], [x, x, n]).result
    base = name.rstrip("l")
    if base == "popcount":
        r = ir.Operation.create("llvm.intr.ctpop", [t], [x]).result
    elif base == "parity":
        r = arith.andi(ir.Operation.create("llvm.intr.ctpop", [t], [x]).result, fg.const_int(t, 1))
    elif base == "clz":
        r = ir.Operation.create("llvm.intr.ctlz", [t], [x], zero_ok).result
    elif base == "ctz":
        r = ir.Operation.create("llvm.intr.cttz", [t], [x], zero_ok).result
    elif base == "clrsb":  # leading bits equal to the sign bit, minus one
        sign = arith.shrsi(x, fg.const_int(t, t.width - 1))
        r = arith.subi(ir.Operation.create("llvm.intr.ctlz", [t], [arith.xori(x, sign)], zero_ok).result,
                       fg.const_int(t, 1))
    else:  # ffs: 1 + index of the least significant set bit, 0 for 0
        tz = ir.Operation.create("llvm.intr.cttz", [t], [x], zero_ok).result
        zero = fg.const_int(t, 0)
        r = arith.select(arith.cmpi(arith.CmpIPredicate.eq, x, zero), zero, arith.addi(tz, fg.const_int(t, 1)))
    return fg.convert(r, ITYPE[t.width], call.type, call)


def overflow(fg, call, args):
    """`__builtin_{add,sub,mul}_overflow(a, b, &r)` and the typed forms (sadd, uaddl, smulll, ...): the exact
    result, computed in a type wide enough for any operands, stored into *r truncated to r's type; the result
    is whether it did not fit."""
    name = call.spelling[len(BUILTIN):]
    op = next(o for o in ("add", "sub", "mul") if o in name)
    rty = canonical(canonical(args[2].type).get_pointee())
    if not CT.is_int(rty) or rty.kind == T.BOOL:
        raise error_at(args[2], f"unsupported builtin '{call.spelling}' storing into '{rty.spelling}'")
    widths = [CT.size_of(a.type) * 8 for a in args[:2]]
    for a in args[:2]:
        if not CT.is_int(a.type):
            raise error_at(a, f"unsupported builtin '{call.spelling}' on '{a.type.spelling}'")
    w = max((sum(widths) if op == "mul" else max(widths)) + 2, CT.size_of(rty) * 8 + 1)
    wide = ir.IntegerType.get_signless(w)

    def extend(v, ty):
        return arith.extui(wide, v) if CT.is_unsigned(ty) or v.type.width == 1 else arith.extsi(wide, v)

    a, b = (extend(fg.rvalue(x), x.type) for x in args[:2])
    exact = {"add": arith.addi, "sub": arith.subi, "mul": arith.muli}[op](a, b)
    rt = CT.scalar_type(rty)
    r = arith.trunci(rt, exact)
    back = extend(r, rty)
    store_through(fg, args[2], rty, r)
    return result(fg, call, arith.cmpi(arith.CmpIPredicate.ne, back, exact))


def store_through(fg, ptr_expr, ty, v):
    """`*ptr_expr = v` for a pointer to a number of type `ty`."""
    p = fg.pointer(ptr_expr)
    if p.type == CT.llvm_ptr():
        fg.store_scalar(p, ty, v)
    else:
        fg.store(MemLV(p, [AF.const(0)], ty), v)


def modf(fg, call, args):
    """modf(x, &ip) (also modff, `__builtin_modf[f]`): *ip = trunc(x), and the fraction x - trunc(x) with x's
    sign (0 with x's sign for an infinite x; a NaN stays NaN), as glibc computes them. Lowered in place so that
    the store and the fraction are ops AD differentiates (d frac/dx = 1, the integer part has derivative 0)."""
    ty = canonical(call.type)
    if not CT.is_float(ty):
        raise error_at(call, f"unsupported construct: '{call.spelling}' on non-floating-point values")
    t = CT.scalar_type(ty)
    x = fg.convert(fg.rvalue(args[0]), args[0].type, ty, args[0])
    ip = ir.Operation.create("math.trunc", [t], [x]).result
    store_through(fg, args[1], ty, ip)
    inf = arith.cmpf(arith.CmpFPredicate.OEQ, ir.Operation.create("math.absf", [t], [x]).result,
                     fconst(t, float("inf")))
    frac = arith.select(inf, fconst(t, 0.0), arith.subf(x, ip))
    return ir.Operation.create("llvm.intr.copysign", [t], [frac, x]).result


def int_abs(fg, call, args):
    """abs, labs, llabs, imaxabs (also as `__builtin_...`): x < 0 ? -x : x (wrapping for the most negative
    value, as gcc's code does); CUDA's abs of a float is fabs."""
    ty = canonical(call.type)
    if CT.is_float(ty):
        return ir.Operation.create("math.absf", [CT.scalar_type(ty)], [fg.rvalue(args[0])]).result
    if call.spelling.endswith("imaxabs") and CT.size_of(ty) < 8:
        # (clang does not know `__builtin_imaxabs`: it declares it implicitly, `int ()`, so the call's value and the
        # expression around it would be int where gcc's is intmax_t)
        raise error_at(call, f"unsupported builtin '{call.spelling}' (clang types it as int, not intmax_t: call "
                             "imaxabs from <inttypes.h>)")
    v = fg.convert(fg.rvalue(args[0]), args[0].type, ty, args[0])
    zero = fg.const_int(v.type, 0)
    return arith.select(arith.cmpi(arith.CmpIPredicate.slt, v, zero), arith.subi(zero, v), v)


def alloca(fg, call, args):
    """`__builtin_alloca(n)` (alloca.h's alloca) and `__builtin_alloca_with_align(n, bits)`: n bytes of stack
    at this point, 16-byte aligned as gcc's."""
    n = fg.mg.builtins.size_arg(fg, args[0])
    align = 16
    if call.spelling.endswith("with_align"):
        bits_ = evaluate(args[1])
        if not isinstance(bits_, int):
            raise error_at(args[1], f"unsupported builtin '{call.spelling}' with a non-constant alignment")
        align = max(align, bits_ // 8)
    return llvm.AllocaOp(CT.llvm_ptr(), n, ir.IntegerType.get_signless(8), alignment=align).result


def memmove(fg, call, args):
    """memmove as LLVM's memmove intrinsic; returns the destination."""
    b = fg.mg.builtins
    dst, src = b.ptr_arg(fg, args[0]), b.ptr_arg(fg, args[1])
    llvm.MemmoveOp(dst, src, b.size_arg(fg, args[2]), ir.BoolAttr.get(False))
    return dst


def fortified_mem(fg, call, args):
    """memcpy, memmove, memset where glibc's fortified header defines them: what its wrapper does,
    `__memcpy_chk(d, s, n, __builtin_object_size(d, 0))` (LLVM makes it the plain intrinsic where n fits or the
    object is unknown)."""
    i64 = ir.IntegerType.get_signless(64)
    name = call.spelling
    dst = fg.raw_pointer(args[0])
    second = fg.raw_pointer(args[1]) if name != "memset" else \
        fg.convert(fg.rvalue(args[1]), args[1].type, IS.INT, args[1])
    n = fg.mg.builtins.size_arg(fg, args[2])
    size = object_size(fg, dst, False, False)
    ptr = CT.llvm_ptr()
    return fg.mg.builtins.libc("__" + name + "_chk", ptr, [dst, second, n, size])


def library_call(fg, call, args, name=None):
    """`__builtin_<f>(...)` as a call of the C library function f (declared with the builtin's prototype)."""
    callee = call.referenced
    name = name or call.spelling[len(BUILTIN):]
    if canonical(callee.type).kind == T.FUNCTIONNOPROTO:
        unknown_builtin_arguments(fg, call, args, name)
    proto = fg.mg.calls.library_prototype_of(name)
    label = asm_label(proto) if proto is not None else None
    if label and name == call.spelling[len(BUILTIN):]:
        name = label  # (`char *strstr(...) __asm__("my_strstr")`: gcc's __builtin_strstr calls my_strstr too)
    own = fg.mg.calls.file_definition(name)
    if own is not None and canonical(own.type).kind == T.FUNCTIONNOPROTO:
        # the file defines the function itself without a prototype (`static int strcmp() {...}`): the symbol gcc's
        # call would bind to, with the arguments passed unprototyped
        return fg.mg.calls.user_call(fg, call, own, args)
    return fg.mg.calls.user_call(fg, call, callee, args, name=name)


def _abi_class(ty) -> tuple:
    """How a C type travels in a call on x86-64: its kind of register and its size ('int', 'float', 'other')."""
    ty = canonical(ty)
    kind = "int" if ty.kind == T.POINTER or CT.is_int(ty) else "float" if CT.is_float(ty) else "other"
    return kind, CT.size_of(ty) if kind != "other" else 0


def unknown_builtin_arguments(fg, call, args, name):
    """Check a call of a `__builtin_<name>` that clang does not know (`__builtin_fwrite`, `__builtin_puts`: it
    declares them implicitly as `int ()`): its arguments go as promoted and its result is read as int, which
    is gcc's call only when they already have the types of the library function's prototype (when the program
    declares one). Raises CompileError (naming the builtin) otherwise: a `size_t` passed as an int leaves the
    register's upper half undefined."""
    proto = fg.mg.calls.library_prototype_of(name)
    if proto is None:
        return
    params = list(proto.type.argument_types())
    result = canonical(proto.result_type)
    same = len(params) == len(args) and all(_abi_class(p) == _abi_class(a.type) for p, a in zip(params, args))
    if not same or result.kind != T.VOID and _abi_class(result) != _abi_class(call.type):
        raise error_at(call, f"unsupported builtin '{call.spelling}' (clang does not know it, so its arguments "
                             f"and result would not have {name}'s types: call {name})")


def unsupported(fg, call, args):
    """Any other `__builtin_*`, `__sync_*`, `__atomic_*`: the error naming it.

    Raises:
        CompileError: ``unsupported builtin '<name>'``."""
    raise error_at(call, f"unsupported builtin '{call.spelling}'")


# integer width -> a clang-like unsigned type (int_semantics) for fg.convert of an intrinsic's result
ITYPE = {1: IS.IntType(T.BOOL, 1), 8: IS.IntType(T.UCHAR, 1), 16: IS.IntType(T.USHORT, 2), 32: IS.UINT, 64: IS.ULONG}

GNU_BUILTINS = {
    **{BUILTIN + n + s: fp_constant for n in ("inf", "huge_val", "nan", "nans") for s in ("", "f", "l")},
    **{BUILTIN + n: classify for n in ("isnan", "isinf", "isinf_sign", "isfinite", "isnormal", "issubnormal",
                                       "iszero", "signbit", "signbitf", "signbitl", "fpclassify",
                                       *SUFFIXED_CLASSIFY)},
    **{BUILTIN + n: fp_compare for n in COMPARISONS},
    **{BUILTIN + n: hint for n in ("expect", "expect_with_probability", "assume_aligned", "assume",
                                   "unreachable", "prefetch")},
    BUILTIN + "trap": trap,
    BUILTIN + "setjmp": sjlj, BUILTIN + "longjmp": sjlj,
    **{BUILTIN + n: frame_addresses for n in ("return_address", "frame_address", "extract_return_addr",
                                              "frob_return_addr")},
    BUILTIN + "flt_rounds": flt_rounds,
    **{BUILTIN + n: folded for n in ("constant_p", "object_size", "dynamic_object_size", "classify_type")},
    **{BUILTIN + "__" + n + "_chk": checked for n in CHECKED},
    **{BUILTIN + b + s: bits for b in BIT_OPS for s in ("", "l", "ll")},
    **{BUILTIN + n: bits for n in ("bswap16", "bswap32", "bswap64", "bswap128", "rotateleft8", "rotateleft16",
                                   "rotateleft32", "rotateleft64", "rotateright8", "rotateright16",
                                   "rotateright32", "rotateright64")},
    **{BUILTIN + p + op + "_overflow": overflow for op in ("add", "sub", "mul") for p in ("", "s", "u")},
    **{BUILTIN + p + op + s + "_overflow": overflow for op in ("add", "sub", "mul") for p in ("s", "u")
       for s in ("l", "ll")},
    **{n: int_abs for n in ("abs", "labs", "llabs", "imaxabs")},
    **{BUILTIN + n: int_abs for n in ("abs", "labs", "llabs", "imaxabs")},
    BUILTIN + "alloca": alloca, BUILTIN + "alloca_with_align": alloca,
    "memmove": memmove, BUILTIN + "memmove": memmove,
    **{p + n: modf for p in ("", BUILTIN) for n in ("modf", "modff")},
    **varargs.BUILTINS,
    **gnu_atomics.BUILTINS,
    **complex_values.BUILTINS,  # creal, cimag, conj
}


# parameter counts of the library functions other than <math.h>'s that have handlers under their plain names
LIBRARY_ARITY = {"abs": 1, "labs": 1, "llabs": 1, "imaxabs": 1, "memcpy": 3, "memset": 3, "memmove": 3,
                 "posix_memalign": 3, "modf": 2, "modff": 2, "creal": 1, "crealf": 1, "cimag": 1, "cimagf": 1,
                 "conj": 1, "conjf": 1, "creall": 1, "cimagl": 1, "conjl": 1}


def library_prototype(callee) -> bool:
    """Whether a program's own prototype of a library function that pgcc lowers itself (<math.h>'s, abs,
    memcpy...) has the library's shape: its number of parameters (and a floating result for <math.h>'s). A
    redeclaration of another shape (`char log2(void);`, as CMake's check_function_exists writes to see whether
    the symbol links) is clang's "incompatible redeclaration of library function", which is no builtin: an
    ordinary call of the symbol as declared. Names without a handler count as library-shaped."""
    n = len(list(callee.type.argument_types()))
    if callee.spelling in VARIADIC:  # (`char snprintf (void);`, autoconf's AC_CHECK_FUNCS probe)
        return n == VARIADIC[callee.spelling] and callee.type.is_function_variadic()
    m = math_name(callee.spelling)
    if m:
        return n == m[1] and CT.is_float(canonical(callee.result_type))
    return LIBRARY_ARITY.get(callee.spelling, n) == n


class Builtins(CudaBuiltins):
    """Handlers for C library, math and CUDA functions, by name.

    Args:
        mg: the module.ModuleGen (declarations of the library functions that handlers call).
    """

    def __init__(self, mg):
        self.mg = mg
        self.table = {
            **self.cuda_table(),
            "memcpy": self.memcpy, "memset": self.memset,
            "posix_memalign": self.posix_memalign,
            BUILTIN + "memcpy": self.memcpy, BUILTIN + "memset": self.memset,
            "min": self.minmax, "max": self.minmax,
        }

    def is_allocator(self, call) -> bool:
        return False

    def lookup_callee(self, callee):
        """The handler of a call of function declaration `callee` (see lookup): also C++'s type-generic
        classification functions of namespace std (std::isnan, std::isinf, ...), which return bool. A library
        function the program redeclares without a prototype is an ordinary call."""
        parent = callee.semantic_parent
        if callee.spelling in STD_CLASSIFY and parent is not None and parent.kind == K.NAMESPACE and \
                parent.spelling == "std":
            return classify
        if callee.get_definition() is not None and callee.type.kind == T.FUNCTIONPROTO and any(
                canonical(t).kind == T.RECORD or canonical(t).kind == T.LVALUEREFERENCE and
                is_texture(canonical(canonical(t).get_pointee()))
                for t in [callee.result_type, *callee.type.argument_types()]):
            return None  # an overload defined in C++ for a class (cuda_fp16.h's __shfl_sync of __half, tex2D of a
            # texture reference)
        defn = callee.get_definition()
        if defn is not None and not callee.spelling.startswith("__") and defn.location.file is not None and \
                not defn.location.is_in_system_header:
            return None  # the program's own definition of a library name (`min` of two pointers in
            # gcc.dg/torture/pr103037.c: pgcc's CUDA-style min of two numbers broke the module): a call of it
        if callee.spelling in ("memcpy", "memmove", "memset") and callee.get_definition() is not None and \
                callee.get_definition().location.is_in_system_header:
            return fortified_mem  # (glibc's fortified wrapper, under -D_FORTIFY_SOURCE at -O1 and above)
        if callee.spelling in ("signbit", "signbitf", "signbitl") and callee.get_definition() is None and \
                len(list(callee.type.argument_types())) == 1:
            return classify  # (`extern int signbitf(float);`: gcc's builtin; libc has only __signbitf)
        if callee.spelling == "alloca" and callee.get_definition() is None:
            return alloca  # (also implicitly declared, without <alloca.h>: the builtin; libc has no such symbol)
        plain = callee.spelling[len(BUILTIN):] if callee.spelling.startswith(BUILTIN) else callee.spelling
        if plain in LIBRARY and not math_name(plain) and plain not in VARIADIC:
            proto = callee if plain == callee.spelling else self.mg.calls.library_prototype_of(plain)
            if proto is not None and asm_label(proto):
                # (`void *memcpy(...) __asm__("my_memcpy")`: calls of memcpy and __builtin_memcpy reach my_memcpy,
                # as gcc's do; pgcc's own lowering would call the C library's memcpy)
                return None if plain == callee.spelling else library_call
        no_builtin = getattr(self.mg.tu, "no_builtin", ())
        if no_builtin and not callee.spelling.startswith("__") and \
                ("*" in no_builtin or callee.spelling in no_builtin):
            return None  # -fno-builtin[-NAME]: the library function as an ordinary call (gcc's abs-1.c)
        if callee.type.kind == T.FUNCTIONNOPROTO and not callee.spelling.startswith("__"):
            return None  # `char pow ();` (autoconf's link probes, K&R code): a call of the symbol as declared
        if callee.type.kind == T.FUNCTIONPROTO and not callee.spelling.startswith("__") and \
                not callee.location.is_in_system_header and not library_prototype(callee):
            return None  # `char log2(void);` (CMake's check_function_exists): clang too drops the builtin then
        return self.lookup(callee.spelling)

    def lookup(self, name):
        """The handler (fg, call, args) -> value of function `name`, or None for an ordinary call. Every
        `__builtin_*`, `__sync_*` and `__atomic_*` name has one: its lowering, a call of the library function it
        stands for, or an error naming it."""
        if name in self.table:
            return self.table[name]
        plain = name[len(BUILTIN):] if name.startswith(BUILTIN) else None
        if name in GNU_BUILTINS:
            handler = GNU_BUILTINS[name]
        elif math_name(name):
            handler = self.math
        elif name in VARIADIC or plain in VARIADIC:
            handler = self.variadic
        elif plain in LIBRARY:
            handler = library_call
        elif name in x86_builtins.BUILTINS:  # the x86 intrinsic headers' builtins
            handler = x86_builtins.BUILTINS[name]
        elif name.startswith(UNKNOWN_PREFIXES):
            handler = unsupported
        else:
            return None
        return handler

    def ret_int(self, fg, call, v=0):
        ty = canonical(call.type)
        if ty.kind == T.VOID:
            return None
        return fg.const_int(CT.scalar_type(ty), v)

    def libc(self, name, ret, args):
        """Call an external C function with a fixed signature (declared on first use)."""
        if name not in self.mg.functions:
            with ir.Location.unknown(), ir.InsertionPoint(self.mg.module.body):
                self.mg.functions[name] = func.FuncOp(name, ir.FunctionType.get([a.type for a in args], [ret] if ret else []),
                                                      visibility="private")
        op = func.CallOp([ret] if ret else [], ir.FlatSymbolRefAttr.get(name), args)
        return op.results[0] if ret else None

    def ptr_arg(self, fg, e):
        return fg.raw_pointer(e)

    def assign_out(self, fg, arg, raw_ptr, call):
        """Store a new pointer into the variable named by `&var` argument `arg`; any other pointer argument
        (`&ptrs[1]`, `&s->buf`) addresses memory, where the pointer is stored raw. Returns the variable's key
        (None for memory)."""
        decl = out_param_var(arg)
        if decl is None:
            llvm.StoreOp(raw_ptr, fg.raw_pointer(arg))
            return None
        ty = canonical(decl.type)
        key = decl_key(decl)
        lv = fg.lvalue_of_decl(decl, arg)
        if ty.kind != T.POINTER:  # `(void **)&n` of an int: a pointer would overwrite a smaller object
            raise error_at(arg, f"unsupported construct: {call.spelling} storing a pointer into "
                                f"'{decl.spelling}' of type '{decl.type.spelling}'")
        if CT.pointee_is_memref(ty):
            fg.store(lv, fg.from_ptr(raw_ptr, ty, None, call))
        else:
            fg.store(lv, raw_ptr)
        return key

    def size_arg(self, fg, e):
        i64 = ir.IntegerType.get_signless(64)
        v = fg.rvalue(e)
        if v.type != i64:
            v = arith.extui(i64, v) if CT.is_unsigned(e.type) else arith.extsi(i64, v)
        return v

    def posix_memalign(self, fg, call, args):
        i64 = ir.IntegerType.get_signless(64)
        slot = llvm.AllocaOp(CT.llvm_ptr(), llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, 1)).result,
                             CT.llvm_ptr()).result
        # (the variable's current pointer first: on failure posix_memalign leaves *memptr as it was, and the
        # copy back below would have stored the slot's garbage: gcc.dg/torture/pr60092.c)
        amp = address_of_operand(args[0])
        old = fg.raw_pointer(children(amp)[0]) if amp is not None and out_param_var(args[0]) is not None else \
            llvm.LoadOp(CT.llvm_ptr(), fg.raw_pointer(args[0])).result
        llvm.StoreOp(old, slot)
        r = self.libc("posix_memalign", ir.IntegerType.get_signless(32),
                      [slot, self.size_arg(fg, args[1]), self.size_arg(fg, args[2])])
        p = llvm.LoadOp(CT.llvm_ptr(), slot).result
        self.assign_out(fg, args[0], p, call)
        return r

    def free(self, fg, call, args):
        self.libc("free", None, [self.ptr_arg(fg, args[0])])
        return self.ret_int(fg, call)

    def memcpy(self, fg, call, args):
        dst, src = self.ptr_arg(fg, args[0]), self.ptr_arg(fg, args[1])
        n = self.size_arg(fg, args[2])
        llvm.MemcpyOp(dst, src, n, ir.BoolAttr.get(False))
        if canonical(call.type).kind == T.POINTER:  # memcpy (cudaMemcpy returns an error code)
            return dst
        return self.ret_int(fg, call)

    def memset(self, fg, call, args):
        dst = self.ptr_arg(fg, args[0])
        v = fg.rvalue(args[1])
        i8 = ir.IntegerType.get_signless(8)
        v = arith.trunci(i8, v) if v.type != i8 else v
        llvm.MemsetOp(dst, v, self.size_arg(fg, args[2]), ir.BoolAttr.get(False))
        if canonical(call.type).kind == T.POINTER:  # memset (cudaMemset returns an error code)
            return dst
        return self.ret_int(fg, call)

    def reject(self, what):
        def handler(fg, call, args):
            raise error_at(call, f"unsupported construct: {what}")
        return handler

    def math(self, fg, call, args):
        op, n = math_name(call.spelling)
        ty = canonical(call.type)
        if not CT.is_float(ty):
            raise error_at(call, f"unsupported construct: '{call.spelling}' on non-floating-point values")
        rt = CT.scalar_type(ty)
        vals = [fg.convert(fg.rvalue(a), a.type, ty, a) for a in args[:n]]
        return ir.Operation.create(op, [rt], vals).result

    def minmax(self, fg, call, args):
        ty = canonical(call.type)
        a, b = (fg.convert(fg.rvalue(x), x.type, ty, x) for x in args[:2])
        mx = call.spelling == "max"
        if CT.is_float(ty):
            return (arith.maxnumf if mx else arith.minnumf)(a, b)
        if CT.is_unsigned(ty):
            return (arith.maxui if mx else arith.minui)(a, b)
        return (arith.maxsi if mx else arith.minsi)(a, b)

    def variadic(self, fg, call, args):
        """printf, scanf and friends (also as `__builtin_printf`...): an llvm.call of the variadic function, each
        argument as the C default argument promotions left it."""
        name = call.spelling.removeprefix(BUILTIN)
        nfixed = VARIADIC[name]
        vals, fixed_types = [], []
        for i, a in enumerate(args):
            at = canonical(a.type)
            if at.kind == T.POINTER or CT.is_array(at):
                v = fg.raw_pointer(a)
            elif not CT.is_arith(at):
                raise error_at(a, f"unsupported construct: passing a '{a.type.spelling}' to '{name}'")
            else:
                v = fg.rvalue(a)
            vals.append(v)
            if i < nfixed:
                fixed_types.append(v.type)
        i32 = ir.IntegerType.get_signless(32)
        ftype = self.mg.declare_llvm_vararg(name, i32, fixed_types)
        op = llvm.CallOp(i32, vals, [], [], var_callee_type=ir.TypeAttr.get(ftype),
                         callee=ir.FlatSymbolRefAttr.get(name))
        return op.result
