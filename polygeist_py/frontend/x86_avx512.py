"""The AVX-512 builtins of clang's intrinsic headers that integer SIMD code (hashing, compression, text search)
reaches at `-march=native` on an AVX-512 machine, lowered as clang's CodeGen lowers them (CGBuiltin.cpp, X86):

- DIRECT: one LLVM x86 intrinsic with the builtin's operands (byte shuffles, sums of absolute differences,
  packs, variable shifts and permutes, VNNI/IFMA/VBMI/GFNI);
- mask registers (`__mmask8..64`, integers) as `vector<N x i1>`: compares to a mask (`cmp`/`ucmp` with a
  predicate immediate), mask-register logic (`kand`, `kortest`, shifts...), vectors to and from masks;
- masked loads and stores (LLVM's `llvm.masked.load/store`, alignment 1 for `loadu`), compress/expand;
- rotates by an immediate (`llvm.fshl/fshr`), `valign` (a shuffle of the concatenation), `vpternlog` (the
  intrinsic, then the merge or zero masking).

A builtin of the headers in neither table is an error naming it (x86_builtins).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm

from . import vectors

IA32 = "__builtin_ia32_"


def _direct():
    t = {"pshufb512": "avx512.pshuf.b.512", "psadbw512": "avx512.psad.bw.512",
         "pmaddubsw512": "avx512.pmaddubs.w.512", "pmaddwd512": "avx512.pmaddw.d.512",
         "packsswb512": "avx512.packsswb.512", "packssdw512": "avx512.packssdw.512",
         "packuswb512": "avx512.packuswb.512", "packusdw512": "avx512.packusdw.512",
         "pmulhrsw512": "avx512.pmul.hr.sw.512", "pmulhw512": "avx512.pmulh.w.512",
         "pmulhuw512": "avx512.pmulhu.w.512", "pavgb512": "avx512.pavg.b.512", "pavgw512": "avx512.pavg.w.512",
         "psllv16si": "avx512.psllv.d.512", "psrlv16si": "avx512.psrlv.d.512", "psrav16si": "avx512.psrav.d.512",
         "psllv8di": "avx512.psllv.q.512", "psrlv8di": "avx512.psrlv.q.512", "psrav8di": "avx512.psrav.q.512",
         "psravq128": "avx512.psrav.q.128", "psravq256": "avx512.psrav.q.256",
         "psraq128": "avx512.psra.q.128", "psraq256": "avx512.psra.q.256",
         "psraqi128": "avx512.psrai.q.128", "psraqi256": "avx512.psrai.q.256",
         "permvarsi512": "avx512.permvar.si.512", "permvardi512": "avx512.permvar.di.512",
         "permvarsf512": "avx512.permvar.sf.512", "permvardf512": "avx512.permvar.df.512",
         "permvardi256": "avx512.permvar.di.256", "permvardf256": "avx512.permvar.df.256",
         "vpermilvarpd512": "avx512.vpermilvar.pd.512", "vpermilvarps512": "avx512.vpermilvar.ps.512"}
    for w, n in (("128", "8"), ("256", "16"), ("512", "32")):
        t[f"psllv{n}hi"] = f"avx512.psllv.w.{w}"
        t[f"psrlv{n}hi"] = f"avx512.psrlv.w.{w}"
        t[f"psrav{n}hi"] = f"avx512.psrav.w.{w}"
    for w in ("128", "256", "512"):
        t[f"permvarqi{w}"] = f"avx512.permvar.qi.{w}"
        t[f"permvarhi{w}"] = f"avx512.permvar.hi.{w}"
        for e, s in (("d", "d"), ("q", "q"), ("ps", "ps"), ("pd", "pd"), ("hi", "hi"), ("qi", "qi")):
            t[f"vpermi2var{e}{w}"] = f"avx512.vpermi2var.{s}.{w}"
        for op in ("vpdpbusd", "vpdpbusds", "vpdpwssd", "vpdpwssds"):
            t[f"{op}{w}"] = f"avx512.{op}.{w}"
        t[f"vpmadd52luq{w}"] = f"avx512.vpmadd52l.uq.{w}"
        t[f"vpmadd52huq{w}"] = f"avx512.vpmadd52h.uq.{w}"
        t[f"vpmultishiftqb{w}"] = f"avx512.pmultishift.qb.{w}"
        t[f"dbpsadbw{w}"] = f"avx512.dbpsadbw.{w}"
        t[f"vpconflictsi_{w}"] = f"avx512.conflict.d.{w}"
        t[f"vpconflictdi_{w}"] = f"avx512.conflict.q.{w}"
    for n, w in (("16", "128"), ("32", "256"), ("64", "512")):
        t[f"vgf2p8affineqb_v{n}qi"] = f"vgf2p8affineqb.{w}"
        t[f"vgf2p8affineinvqb_v{n}qi"] = f"vgf2p8affineinvqb.{w}"
        t[f"vgf2p8mulb_v{n}qi"] = f"vgf2p8mulb.{w}"
    for op in ("add", "sub", "mul", "div", "max", "min"):  # (a, b, rounding)
        for e in ("ps", "pd"):
            t[f"{op}{e}512"] = f"avx512.{op}.{e}.512"
    t["sqrtps512"], t["sqrtpd512"] = "avx512.sqrt.ps.512", "avx512.sqrt.pd.512"  # (a, rounding)
    for conv in ("dq2ps", "udq2ps", "pd2dq", "pd2ps", "pd2qq", "pd2udq", "pd2uqq", "ps2dq", "ps2pd", "ps2qq",
                 "ps2udq", "ps2uqq", "qq2pd", "qq2ps", "uqq2pd", "uqq2ps", "tpd2dq", "tpd2qq", "tpd2udq", "tpd2uqq",
                 "tps2dq", "tps2qq", "tps2udq", "tps2uqq"):  # ((a, passthru, mask, rounding): the same operands)
        for w in ("128", "256", "512"):
            name = f"avx512.mask.cvt{conv}.{w}"
            if name in _MASKED_CONVERSIONS:
                t[f"cvt{conv}{w}_mask"] = name
    return {IA32 + k: "llvm.x86." + v for k, v in t.items()}


# LLVM's masked conversions with (source, passthru, mask, rounding) operands
_MASKED_CONVERSIONS = {f"avx512.mask.cvt{c}.{w}" for c, ws in (
    ("pd2dq", "128 512"), ("pd2ps", "512"), ("pd2qq", "128 256 512"), ("pd2udq", "128 256 512"),
    ("pd2uqq", "128 256 512"), ("ps2dq", "128 256 512"), ("ps2pd", "512"), ("ps2qq", "128 256 512"),
    ("ps2udq", "128 256 512"), ("ps2uqq", "128 256 512"), ("qq2ps", "128"), ("uqq2ps", "128"),
    ("tpd2dq", "128 512"), ("tpd2qq", "128 256 512"), ("tpd2udq", "128 256 512"), ("tpd2uqq", "128 256 512"),
    ("tps2dq", "512"), ("tps2qq", "128 256 512"), ("tps2udq", "128 256 512"), ("tps2uqq", "128 256 512"))
    for w in ws.split()}
DIRECT = _direct()


def _i1(n):
    return ir.VectorType.get([n], ir.IntegerType.get_signless(1))


def to_mask(bits, width):
    """`vector<N x i1>` as a mask integer of `width` bits (N < 8: zero bits above, as the k registers hold)."""
    n = ir.VectorType(bits.type).shape[0]
    if n < width:
        zero = arith.constant(_i1(n), ir.DenseElementsAttr.get_splat(_i1(n), ir.BoolAttr.get(False)))
        bits = vectors.shuffle(bits, zero, [i if i < n else n for i in range(width)])
    return vectors.bitcast(bits, ir.IntegerType.get_signless(width))


# compare predicates of vpcmp/vpcmpu (_MM_CMPINT_EQ = 0, LT, LE, FALSE, NE, NLT, NLE, TRUE)
_SIGNED = ["eq", "slt", "sle", None, "ne", "sge", "sgt", None]
_UNSIGNED = ["eq", "ult", "ule", None, "ne", "uge", "ugt", None]


def compare_mask(fg, call, args):
    """`__builtin_ia32_[u]cmp{b,w,d,q}{128,256,512}_mask(a, b, predicate, mask)`: the compare's lanes ANDed with
    the mask, as a mask integer."""
    from .x86_operands import _imm, _values
    a, b = _values(fg, args[:2])
    pred = _imm(fg, call, args[2]) & 7
    m = fg.rvalue(args[3])
    n = ir.VectorType(a.type).shape[0]
    names = _UNSIGNED if call.spelling[len(IA32)] == "u" else _SIGNED
    if names[pred] is None:  # FALSE / TRUE
        bits = arith.constant(_i1(n), ir.DenseElementsAttr.get_splat(_i1(n), ir.BoolAttr.get(pred == 7)))
    else:
        bits = arith.cmpi(getattr(arith.CmpIPredicate, names[pred]), a, b)
    from .x86_operands import mask_bits
    return to_mask(arith.andi(bits, mask_bits(m, n)), ir.IntegerType(m.type).width)


def to_mask_of_signs(fg, call, args):
    """`cvt{b,w,d,q}2mask`: each lane's sign bit."""
    v = fg.rvalue(args[0])
    zero = vectors.zero(args[0].type)
    bits = arith.cmpi(arith.CmpIPredicate.slt, v, zero)
    return to_mask(bits, max(8, ir.VectorType(v.type).shape[0]))


def mask_to_vector(fg, call, args):
    """`cvtmask2{b,w,d,q}`: all ones in the lanes whose mask bit is set, zero elsewhere."""
    from . import c_types as CT
    from .x86_operands import mask_bits
    m = fg.rvalue(args[0])
    vt = CT.vector_type(call.type)
    n = vt.shape[0]
    ones = arith.constant(vt, ir.DenseElementsAttr.get_splat(vt, ir.IntegerAttr.get(vt.element_type, -1)))
    return arith.select(mask_bits(m, n), ones, vectors.zero(call.type))


def mask_logic(fg, call, args):
    """Mask-register logic on mask integers: kand/kandn/kor/kxor/kxnor/knot/kadd, kshiftli/kshiftri, kmov,
    kunpck (the low halves: b's low half low, a's above)."""
    from .x86_operands import _imm
    name = call.spelling[len(IA32):]
    op = name[:-2]
    vals = [fg.rvalue(a) for a in args]
    t = vals[0].type
    width = ir.IntegerType(t).width
    ones = arith.constant(t, -1)
    if op == "kmov":
        return vals[0]
    if op == "knot":
        return arith.xori(vals[0], ones)
    if op in ("kshiftli", "kshiftri"):
        k = _imm(fg, call, args[1])
        if k >= width:
            return arith.constant(t, 0)
        return (arith.shli if op == "kshiftli" else arith.shrui)(vals[0], arith.constant(t, k))
    a, b = vals
    if op == "kunpck":
        rt = ir.IntegerType.get_signless(width)
        half = width // 2
        lo = arith.andi(b, arith.constant(rt, (1 << half) - 1))
        return arith.ori(arith.shli(a, arith.constant(rt, half)), lo)
    table = {"kand": lambda: arith.andi(a, b), "kandn": lambda: arith.andi(arith.xori(a, ones), b),
             "kor": lambda: arith.ori(a, b), "kxor": lambda: arith.xori(a, b),
             "kxnor": lambda: arith.xori(arith.xori(a, b), ones), "kadd": lambda: arith.addi(a, b)}
    return table[op]()


def mask_test(fg, call, args):
    """kortestz/kortestc/ktestz/ktestc: 1 when (a | b) is all zeros / all ones (kor...), (a & b) zero / (~a & b)
    zero (ktest...), as an unsigned char."""
    name = call.spelling[len(IA32):-2]
    a, b = (fg.rvalue(x) for x in args)
    t = a.type
    if name.startswith("kor"):
        v = arith.ori(a, b)
        want = arith.constant(t, 0 if name.endswith("z") else -1)
    elif name.endswith("z"):
        v, want = arith.andi(a, b), arith.constant(t, 0)
    else:
        v, want = arith.andi(arith.xori(a, arith.constant(t, -1)), b), arith.constant(t, 0)
    return arith.extui(ir.IntegerType.get_signless(8), arith.cmpi(arith.CmpIPredicate.eq, v, want))


def masked_load(fg, call, args):
    """`loaddqu*_mask` / `loadup*_mask` / `loada*_mask` / `movdqa*load*_mask(p, passthru, mask)`: lanes whose mask
    bit is set from memory, the others from passthru (faults only in loaded lanes: llvm.masked.load)."""
    from .x86_operands import mask_bits
    p = fg.raw_pointer(args[0])
    src = fg.rvalue(args[1])
    m = fg.rvalue(args[2])
    n = ir.VectorType(src.type).shape[0]
    aligned = "loada" in call.spelling or "movdqa" in call.spelling
    align = ir.VectorType(src.type).shape[0] * _bits(src) // 8 if aligned else 1
    return llvm.MaskedLoadOp(src.type, p, mask_bits(m, n), ir.IntegerAttr.get(ir.IntegerType.get_signless(32), align),
                             pass_thru=src).result


def masked_store(fg, call, args):
    """`storedqu*_mask` / `storeup*_mask` / `storea*_mask` / `movdqa*store*_mask(p, v, mask)`: the lanes whose
    mask bit is set (llvm.masked.store)."""
    from .x86_operands import mask_bits
    p = fg.raw_pointer(args[0])
    v = fg.rvalue(args[1])
    m = fg.rvalue(args[2])
    n = ir.VectorType(v.type).shape[0]
    aligned = "storea" in call.spelling or "movdqa" in call.spelling
    align = n * _bits(v) // 8 if aligned else 1
    llvm.MaskedStoreOp(v, p, mask_bits(m, n), ir.IntegerAttr.get(ir.IntegerType.get_signless(32), align))


def _bits(v):
    from .x86_operands import _bits as bits
    return bits(ir.VectorType(v.type).element_type)


def compress_expand(fg, call, args):
    """`compress*_mask(v, passthru, mask)` / `expand*_mask`: LLVM's x86 mask.compress/expand intrinsics."""
    from .x86_operands import intrinsic, mask_bits
    v, src, m = (fg.rvalue(a) for a in args)
    n = ir.VectorType(v.type).shape[0]
    which = "compress" if "compress" in call.spelling else "expand"
    return intrinsic(f"llvm.x86.avx512.mask.{which}", v.type, [v, src, mask_bits(m, n)])


def rotate(fg, call, args):
    """`prol{d,q}` / `pror{d,q}` by an immediate: a funnel shift of each element with itself."""
    from .x86_operands import _imm, intrinsic
    v = fg.rvalue(args[0])
    k = _imm(fg, call, args[1])
    vt = ir.VectorType(v.type)
    amount = arith.constant(vt, ir.DenseElementsAttr.get_splat(vt, ir.IntegerAttr.get(vt.element_type, k)))
    name = "llvm.fshl" if "prol" in call.spelling else "llvm.fshr"
    return intrinsic(name, v.type, [v, v, amount])


def valign(fg, call, args):
    """`align{d,q}(a, b, imm)` (valignd/q): elements imm.. of the concatenation b:a (b low), the immediate taken
    modulo the element count."""
    from .x86_operands import _imm
    a, b = fg.rvalue(args[0]), fg.rvalue(args[1])
    n = ir.VectorType(a.type).shape[0]
    s = _imm(fg, call, args[2]) & (n - 1)
    return vectors.shuffle(b, a, [i + s for i in range(n)])


def ternlog(fg, call, args):
    """`pternlog{d,q}{128,256,512}_mask{,z}(a, b, c, imm, mask)`: LLVM's vpternlog, then merge masking (a where
    the mask bit is clear) or zero masking."""
    from .x86_operands import _values, intrinsic, mask_bits
    a, b, c, imm = _values(fg, args[:4])
    m = fg.rvalue(args[4])
    name = call.spelling[len(IA32):]
    kind = name[len("pternlog")]
    width = name[len("pternlog") + 1:].split("_")[0]
    r = intrinsic(f"llvm.x86.avx512.pternlog.{kind}.{width}", a.type, [a, b, c, imm])
    n = ir.VectorType(a.type).shape[0]
    other = vectors.zero(args[0].type) if name.endswith("maskz") else a
    return arith.select(mask_bits(m, n), r, other)


def elementwise_bits(fg, call, args):
    """`__builtin_elementwise_{popcount,clzg,ctzg,bitreverse,fshl,fshr}` (the AVX-512 headers' lzcnt, popcnt and
    funnel shifts): LLVM's ctpop/ctlz/cttz/bitreverse/fshl/fshr per element; clzg/ctzg's second operand is the
    value for a zero element (without one, the element width)."""
    from .x86_operands import intrinsic
    vals = [fg.rvalue(a) for a in args]
    v = vals[0]
    name = call.spelling[len("__builtin_elementwise_"):]
    if name in ("popcount", "bitreverse"):
        return intrinsic("llvm.ctpop" if name == "popcount" else "llvm.bitreverse", v.type, [v])
    if name in ("fshl", "fshr"):
        return intrinsic(f"llvm.{name}", v.type, vals)
    false = arith.constant(ir.IntegerType.get_signless(1), 0)
    r = intrinsic("llvm.ctlz" if name == "clzg" else "llvm.cttz", v.type, [v, false])
    if len(vals) == 1:
        return r
    zero = vectors.zero(args[0].type)
    return arith.select(arith.cmpi(arith.CmpIPredicate.eq, v, zero), vals[1], r)


def reduce_float(fg, call, args):
    """`reduce_f{add,mul}_{pd,ps}512(init, v)` / `reduce_f{max,min}_...(v)`: halves combined until one element
    is left (256-bit halves, then 128, 64, 32: the order gcc's _mm512_reduce_add_ps adds in, so the rounding is
    the same), then the start value (-0.0 for add, 1.0 for mul: no effect)."""
    vals = [fg.rvalue(a) for a in args]
    op = call.spelling[len(IA32) + len("reduce_f"):].split("_")[0]
    f = {"add": arith.addf, "mul": arith.mulf, "max": arith.maxnumf, "min": arith.minnumf}[op]
    v = vals[-1]
    n = ir.VectorType(v.type).shape[0]
    while n > 1:
        n //= 2
        v = f(vectors.shuffle(v, v, list(range(n))), vectors.shuffle(v, v, list(range(n, 2 * n))))
    r = llvm.ExtractElementOp(v, arith.constant(ir.IntegerType.get_signless(64), 0)).result
    return f(vals[0], r) if len(vals) == 2 else r


def fused_masked(fg, call, args):
    """`vfmadd{ps,pd}512_mask{,z,3}(a, b, c, mask, rounding)`: a*b+c rounded once (in the current rounding mode:
    math.fma; else LLVM's vfmadd with the rounding), then merge masking with a (c for mask3) or zero masking."""
    from mlir.dialects import math
    from .x86_operands import _imm, intrinsic, mask_bits
    a, b, c = (fg.rvalue(x) for x in args[:3])
    m = fg.rvalue(args[3])
    rounding = _imm(fg, call, args[4])
    if rounding == 4:  # _MM_FROUND_CUR_DIRECTION
        r = math.fma(a, b, c)
    else:
        kind = "ps" if "ps512" in call.spelling else "pd"
        r = intrinsic(f"llvm.x86.avx512.vfmadd.{kind}.512", a.type,
                      [a, b, c, arith.constant(ir.IntegerType.get_signless(32), rounding)])
    n = ir.VectorType(a.type).shape[0]
    other = c if call.spelling.endswith("mask3") else vectors.zero(args[0].type) \
        if call.spelling.endswith("maskz") else a
    return arith.select(mask_bits(m, n), r, other)


def reduce_int(fg, call, args):
    """`__builtin_reduce_{add,mul,and,or,xor,max,min}(v)` on an integer vector (the headers' _mm512_reduce_*
    _epi32/64; exact in any order): LLVM's vector.reduce, max/min signed or unsigned by the element type."""
    from . import c_types as CT
    from .x86_operands import intrinsic
    v = fg.rvalue(args[0])
    op = call.spelling[len("__builtin_reduce_"):]
    if op in ("max", "min"):
        op = ("u" if CT.is_unsigned(vectors.element_ctype(args[0].type)) else "s") + op
    return intrinsic(f"llvm.vector.reduce.{op}", ir.VectorType(v.type).element_type, [v])


ELEMENTWISE = {**{f"__builtin_reduce_{n}": reduce_int for n in ("add", "mul", "and", "or", "xor", "max", "min")},
               **{f"__builtin_elementwise_{n}": elementwise_bits
                  for n in ("popcount", "clzg", "ctzg", "bitreverse", "fshl", "fshr")}}


def _special():
    out = {}
    for w in ("128", "256", "512"):
        for e in ("b", "w", "d", "q"):
            out[f"cmp{e}{w}_mask"] = compare_mask
            out[f"ucmp{e}{w}_mask"] = compare_mask
            out[f"cvt{e}2mask{w}"] = to_mask_of_signs
            out[f"cvtmask2{e}{w}"] = mask_to_vector
        for e in ("d", "q"):
            out[f"prol{e}{w}"] = rotate
            out[f"pror{e}{w}"] = rotate
            out[f"align{e}{w}"] = valign
            out[f"pternlog{e}{w}_mask"] = ternlog
            out[f"pternlog{e}{w}_maskz"] = ternlog
        for e in ("qi", "hi", "si", "di"):
            out[f"loaddqu{e}{w}_mask"] = masked_load
            out[f"storedqu{e}{w}_mask"] = masked_store
        for e in ("qi", "hi", "si", "di", "sf", "df"):
            out[f"compress{e}{w}_mask"] = compress_expand
            out[f"expand{e}{w}_mask"] = compress_expand
        for e in ("pd", "ps"):
            out[f"loadu{e}{w}_mask"] = masked_load
            out[f"storeu{e}{w}_mask"] = masked_store
            out[f"loada{e}{w}_mask"] = masked_load
            out[f"storea{e}{w}_mask"] = masked_store
        for e in ("32", "64"):
            out[f"movdqa{e}load{w}_mask"] = masked_load
            out[f"movdqa{e}store{w}_mask"] = masked_store
    for t in ("qi", "hi", "si", "di"):
        for op in ("kand", "kandn", "kor", "kxor", "kxnor", "knot", "kadd", "kshiftli", "kshiftri"):
            out[f"{op}{t}"] = mask_logic
        for op in ("kortestz", "kortestc", "ktestz", "ktestc"):
            out[f"{op}{t}"] = mask_test
    for k in ("kmovb", "kmovw", "kmovd", "kmovq"):
        out[k] = lambda fg, call, args: fg.rvalue(args[0])
    for k in ("kunpckhi", "kunpcksi", "kunpckdi"):
        out[k] = mask_logic
    for e in ("ps", "pd"):
        for k in ("mask", "maskz", "mask3"):
            out[f"vfmadd{e}512_{k}"] = fused_masked
    for op in ("fadd", "fmul", "fmax", "fmin"):
        for e in ("pd", "ps"):
            out[f"reduce_{op}_{e}512"] = reduce_float
    return {**{IA32 + k: v for k, v in out.items()}, **ELEMENTWISE}


SPECIAL = _special()
