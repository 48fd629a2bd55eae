"""The builtins of the x86 intrinsic headers (<emmintrin.h>, <tmmintrin.h>, <smmintrin.h>, <immintrin.h>, ...).

Clang's headers, which the parser uses, define every `_mm_*` intrinsic as an inline function over generic vector
operations (vectors.py), `__builtin_shufflevector`, and a builtin per instruction: `__builtin_ia32_<insn>` and
the generic `__builtin_elementwise_*`. A builtin lowers here, as clang's CodeGen (CGBuiltin.cpp, X86 part)
lowers it:

- to the LLVM x86 intrinsic of the same instruction (`__builtin_ia32_pmaddwd128` -> `llvm.x86.sse2.pmadd.wd`)
  through `llvm.call_intrinsic` (table DIRECT: the builtin's operand and result types are the intrinsic's);
- to generic operations where LLVM has none any more: lane shuffles by an immediate (pshufd, palignr, byte
  shifts, blends) as `vector.shuffle`, element extract/insert, pmuludq/pmuldq as 64-bit multiplies, saturating
  adds as LLVM's `sadd.sat`..., min/max/abs as `arith`/`math` ops.

AVX-512's masks, masked memory operations and the rest are x86_avx512's. A `__builtin_ia32_*` name in no table
is an error naming it (builtins.py's `unsupported`), never a call
of a function that does not exist.
"""

from __future__ import annotations

import itertools

from mlir import ir
from mlir.dialects import arith, llvm, math, vector

from ..clang_ast import canonical
from ..errors import error_at
from . import c_types as CT
from . import vectors
from . import x86_avx512
from .x86_operands import _bits, _imm, _values, intrinsic, mask_bits
from . import x86_dispatch

IA32 = "__builtin_ia32_"


def _direct_table():
    t = {}
    sse2 = {"pmaddwd128": "sse2.pmadd.wd", "psadbw128": "sse2.psad.bw", "pmovmskb128": "sse2.pmovmskb.128",
            "packsswb128": "sse2.packsswb.128", "packssdw128": "sse2.packssdw.128",
            "packuswb128": "sse2.packuswb.128", "pmulhw128": "sse2.pmulh.w", "pmulhuw128": "sse2.pmulhu.w",
            "pavgb128": "sse2.pavg.b", "pavgw128": "sse2.pavg.w",
            "cvtps2dq": "sse2.cvtps2dq", "cvttps2dq": "sse2.cvttps2dq", "cvtpd2dq": "sse2.cvtpd2dq",
            "cvttpd2dq": "sse2.cvttpd2dq", "cvtpd2ps": "sse2.cvtpd2ps", "cvtsd2si": "sse2.cvtsd2si",
            "cvtsd2si64": "sse2.cvtsd2si64", "cvttsd2si": "sse2.cvttsd2si", "cvttsd2si64": "sse2.cvttsd2si64",
            "cvtsd2ss": "sse2.cvtsd2ss", "movmskpd": "sse2.movmsk.pd", "maskmovdqu": "sse2.maskmov.dqu",
            "minpd": "sse2.min.pd", "maxpd": "sse2.max.pd", "minsd": "sse2.min.sd", "maxsd": "sse2.max.sd",
            "cmppd": "sse2.cmp.pd", "cmpsd": "sse2.cmp.sd",
            "movmskps": "sse.movmsk.ps", "minps": "sse.min.ps", "maxps": "sse.max.ps", "minss": "sse.min.ss",
            "maxss": "sse.max.ss", "cmpps": "sse.cmp.ps", "cmpss": "sse.cmp.ss", "rcpps": "sse.rcp.ps",
            "rcpss": "sse.rcp.ss", "rsqrtps": "sse.rsqrt.ps", "rsqrtss": "sse.rsqrt.ss",
            "cvtss2si": "sse.cvtss2si", "cvtss2si64": "sse.cvtss2si64", "cvttss2si": "sse.cvttss2si",
            "cvttss2si64": "sse.cvttss2si64"}
    for ins, w in (("sll", "l"), ("srl", "l"), ("sra", "a")):
        for e in ("w", "d", "q"):
            if ins == "sra" and e == "q":
                continue
            sse2[f"p{ins}{e}128"] = f"sse2.p{ins}.{e}"
            sse2[f"p{ins}{e}i128"] = f"sse2.p{ins}i.{e}"
            sse2[f"p{ins}{e}256"] = f"avx2.p{ins}.{e}"
            sse2[f"p{ins}{e}i256"] = f"avx2.p{ins}i.{e}"
            sse2[f"p{ins}{e}512"] = f"avx512.p{ins}.{e}.512"
            sse2[f"p{ins}{e}i512"] = f"avx512.p{ins}i.{e}.512"
    for cmp in ("eq", "lt", "le", "gt", "ge", "neq"):
        sse2[f"comisd{cmp}"] = f"sse2.comi{cmp}.sd"
        sse2[f"ucomisd{cmp}"] = f"sse2.ucomi{cmp}.sd"
        sse2[f"comi{cmp}"] = f"sse.comi{cmp}.ss"
        sse2[f"ucomi{cmp}"] = f"sse.ucomi{cmp}.ss"
    t.update(sse2)
    t.update({"addsubpd": "sse3.addsub.pd", "addsubps": "sse3.addsub.ps", "haddpd": "sse3.hadd.pd",
              "haddps": "sse3.hadd.ps", "hsubpd": "sse3.hsub.pd", "hsubps": "sse3.hsub.ps",
              "lddqu": "sse3.ldu.dq"})
    for w in ("128", "256"):
        pre = "ssse3" if w == "128" else "avx2"
        suf = ".128" if w == "128" else ""
        t.update({f"pshufb{w}": f"{pre}.pshuf.b{suf}", f"pmaddubsw{w}": f"{pre}.pmadd.ub.sw{suf}",
                  f"pmulhrsw{w}": f"{pre}.pmul.hr.sw{suf}", f"phaddw{w}": f"{pre}.phadd.w{suf}",
                  f"phaddd{w}": f"{pre}.phadd.d{suf}", f"phaddsw{w}": f"{pre}.phadd.sw{suf}",
                  f"phsubw{w}": f"{pre}.phsub.w{suf}", f"phsubd{w}": f"{pre}.phsub.d{suf}",
                  f"phsubsw{w}": f"{pre}.phsub.sw{suf}", f"psignb{w}": f"{pre}.psign.b{suf}",
                  f"psignw{w}": f"{pre}.psign.w{suf}", f"psignd{w}": f"{pre}.psign.d{suf}"})
    t.update({"pblendvb128": "sse41.pblendvb", "blendvpd": "sse41.blendvpd", "blendvps": "sse41.blendvps",
              "packusdw128": "sse41.packusdw", "ptestz128": "sse41.ptestz", "ptestc128": "sse41.ptestc",
              "ptestnzc128": "sse41.ptestnzc", "roundps": "sse41.round.ps", "roundpd": "sse41.round.pd",
              "roundss": "sse41.round.ss", "roundsd": "sse41.round.sd", "mpsadbw128": "sse41.mpsadbw",
              "dpps": "sse41.dpps", "dppd": "sse41.dppd", "phminposuw128": "sse41.phminposuw",
              "insertps128": "sse41.insertps",
              "pclmulqdq128": "pclmulqdq",
              "crc32qi": "sse42.crc32.32.8", "crc32hi": "sse42.crc32.32.16", "crc32si": "sse42.crc32.32.32",
              "crc32di": "sse42.crc32.64.64",
              **{f"pcmp{k}str{r}128": f"sse42.pcmp{k}str{r}128" for k in ("e", "i")
                 for r in ("i", "ia", "ic", "io", "is", "iz", "m")}})
    t.update({"pmaddwd256": "avx2.pmadd.wd", "psadbw256": "avx2.psad.bw", "pmovmskb256": "avx2.pmovmskb",
              "packsswb256": "avx2.packsswb", "packssdw256": "avx2.packssdw", "packuswb256": "avx2.packuswb",
              "packusdw256": "avx2.packusdw", "pavgb256": "avx2.pavg.b", "pavgw256": "avx2.pavg.w",
              "pmulhw256": "avx2.pmulh.w", "pmulhuw256": "avx2.pmulhu.w", "pblendvb256": "avx2.pblendvb",
              "mpsadbw256": "avx2.mpsadbw", "permvarsi256": "avx2.permd", "permvarsf256": "avx2.permps",
              "psllv4si": "avx2.psllv.d", "psllv8si": "avx2.psllv.d.256", "psllv2di": "avx2.psllv.q",
              "psllv4di": "avx2.psllv.q.256", "psrlv4si": "avx2.psrlv.d", "psrlv8si": "avx2.psrlv.d.256",
              "psrlv2di": "avx2.psrlv.q", "psrlv4di": "avx2.psrlv.q.256", "psrav4si": "avx2.psrav.d",
              "psrav8si": "avx2.psrav.d.256",
              "maskloadd": "avx2.maskload.d", "maskloadd256": "avx2.maskload.d.256",
              "maskloadq": "avx2.maskload.q", "maskloadq256": "avx2.maskload.q.256",
              "maskstored": "avx2.maskstore.d", "maskstored256": "avx2.maskstore.d.256",
              "maskstoreq": "avx2.maskstore.q", "maskstoreq256": "avx2.maskstore.q.256",
              "ptestz256": "avx.ptestz.256", "ptestc256": "avx.ptestc.256", "ptestnzc256": "avx.ptestnzc.256",
              "movmskpd256": "avx.movmsk.pd.256", "movmskps256": "avx.movmsk.ps.256",
              "minpd256": "avx.min.pd.256", "maxpd256": "avx.max.pd.256", "minps256": "avx.min.ps.256",
              "maxps256": "avx.max.ps.256", "cmppd256": "avx.cmp.pd.256", "cmpps256": "avx.cmp.ps.256",
              "roundpd256": "avx.round.pd.256", "roundps256": "avx.round.ps.256",
              "blendvpd256": "avx.blendv.pd.256", "blendvps256": "avx.blendv.ps.256",
              "vpermilvarpd": "avx.vpermilvar.pd", "vpermilvarps": "avx.vpermilvar.ps",
              "vpermilvarpd256": "avx.vpermilvar.pd.256", "vpermilvarps256": "avx.vpermilvar.ps.256",
              "vzeroupper": "avx.vzeroupper", "vzeroall": "avx.vzeroall", "lddqu256": "avx.ldu.dq.256",
              "cvtps2dq256": "avx.cvt.ps2dq.256", "cvttps2dq256": "avx.cvtt.ps2dq.256",
              "cvtpd2dq256": "avx.cvt.pd2dq.256", "cvttpd2dq256": "avx.cvtt.pd2dq.256",
              "cvtpd2ps256": "avx.cvt.pd2.ps.256", "rcpps256": "avx.rcp.ps.256", "rsqrtps256": "avx.rsqrt.ps.256",
              "dpps256": "avx.dp.ps.256", "haddpd256": "avx.hadd.pd.256", "haddps256": "avx.hadd.ps.256",
              "hsubpd256": "avx.hsub.pd.256", "hsubps256": "avx.hsub.ps.256",
              "addsubpd256": "avx.addsub.pd.256", "addsubps256": "avx.addsub.ps.256",
              "pmulhrsw256": "avx2.pmul.hr.sw"})
    t.update({"aesenc128": "aesni.aesenc", "aesenclast128": "aesni.aesenclast", "aesdec128": "aesni.aesdec",
              "aesdeclast128": "aesni.aesdeclast", "aesimc128": "aesni.aesimc",
              "aeskeygenassist128": "aesni.aeskeygenassist",
              "sha1msg1": "sha1msg1", "sha1msg2": "sha1msg2", "sha1nexte": "sha1nexte", "sha1rnds4": "sha1rnds4",
              "sha256msg1": "sha256msg1", "sha256msg2": "sha256msg2", "sha256rnds2": "sha256rnds2",
              "bextr_u32": "bmi.bextr.32", "bextr_u64": "bmi.bextr.64", "bzhi_si": "bmi.bzhi.32",
              "bzhi_di": "bmi.bzhi.64", "pdep_si": "bmi.pdep.32", "pdep_di": "bmi.pdep.64",
              "pext_si": "bmi.pext.32", "pext_di": "bmi.pext.64"})
    t.update({"vfmaddsubpd": "fma.vfmaddsub.pd", "vfmaddsubpd256": "fma.vfmaddsub.pd.256",
              "vfmaddsubps": "fma.vfmaddsub.ps", "vfmaddsubps256": "fma.vfmaddsub.ps.256",
              "vcvtps2ph": "vcvtps2ph.128", "vcvtps2ph256": "vcvtps2ph.256", "emms": "mmx.emms",
              "monitor": "sse3.monitor", "mwait": "sse3.mwait", "rdpmc": "rdpmc", "wbinvd": "wbinvd",
              "readeflags_u32": "flags.read.u32", "readeflags_u64": "flags.read.u64",
              "writeeflags_u32": "flags.write.u32", "writeeflags_u64": "flags.write.u64"})
    for op in ("load", "store"):
        for e in ("pd", "ps"):
            t[f"mask{op}{e}"] = f"avx.mask{op}.{e}"
            t[f"mask{op}{e}256"] = f"avx.mask{op}.{e}.256"
    for i in ("d", "q"):  # (gather{index}_{element}: `__builtin_ia32_gatherd_ps256`)
        for e in ("d", "q", "ps", "pd"):
            t[f"gather{i}_{e}"] = f"avx2.gather.{i}.{e}"
            t[f"gather{i}_{e}256"] = f"avx2.gather.{i}.{e}.256"
    for v, p in (("pd", "pd"), ("ps", "ps")):
        for w, s in (("", ""), ("256", ".256")):
            t[f"vtestz{v}{w}"] = f"avx.vtestz.{p}{s}"
            t[f"vtestc{v}{w}"] = f"avx.vtestc.{p}{s}"
            t[f"vtestnzc{v}{w}"] = f"avx.vtestnzc.{p}{s}"
    # functions the headers declare and clang knows as builtins (no inline body: `void _mm_pause(void);`)
    plain = {"_mm_pause": "sse2.pause", "_mm_lfence": "sse2.lfence", "_mm_mfence": "sse2.mfence",
             "_mm_sfence": "sse.sfence", "_mm_clflush": "sse2.clflush", "__rdtsc": "rdtsc"}
    return {**{IA32 + k: "llvm.x86." + v for k, v in t.items()}, **{k: "llvm.x86." + v for k, v in plain.items()}}


DIRECT = _direct_table()
# `_mm_cmpeq_pd(a, b)` and friends: cmppd with a fixed predicate (CMP_EQ_OQ = 0 ... CMP_ORD_Q = 7)
PREDICATES = {"eq": 0, "lt": 1, "le": 2, "unord": 3, "neq": 4, "nlt": 5, "nle": 6, "ord": 7}


def _result_type(call):
    ty = canonical(call.type)
    return None if ty.spelling == "void" else CT.value_type(ty)


# builtins whose C result type is not the intrinsic's (same bits): the intrinsic's, as MLIR text
RESULTS = {IA32 + "cvtpd2dq": "vector<4xi32>"}


def direct(fg, call, args):
    """A builtin that is one LLVM x86 intrinsic with the same operands (the result reinterpreted where the
    builtin's C type differs from the intrinsic's, as clang does)."""
    rt = _result_type(call)
    if call.spelling in RESULTS:
        r = intrinsic(DIRECT[call.spelling], ir.Type.parse(RESULTS[call.spelling]), _values(fg, args))
        return vectors.bitcast(r, rt)
    return intrinsic(DIRECT[call.spelling], rt, _values(fg, args))


def compare_fixed(fg, call, args):
    """`__builtin_ia32_cmp<pred>{pd,ps,sd,ss}(a, b)`: the cmp intrinsic with that predicate as its immediate
    (the `n...` forms swap nothing: nlt is its own predicate)."""
    name = call.spelling[len(IA32) + 3:]
    pred, kind = name[:-2], name[-2:]
    i8 = ir.IntegerType.get_signless(8)
    ins = {"pd": "sse2.cmp.pd", "sd": "sse2.cmp.sd", "ps": "sse.cmp.ps", "ss": "sse.cmp.ss"}[kind]
    return intrinsic("llvm.x86." + ins, _result_type(call),
                     _values(fg, args) + [arith.constant(i8, PREDICATES[pred])])


def _lanes(vt):
    """Elements per 128-bit lane of vector type `vt`, and the number of lanes."""
    n = vt.shape[0]
    per = 128 // _bits(vt.element_type)
    return per, max(n // per, 1)


def pshufd(fg, call, args):
    """pshufd / vpermilps / vpermilpd / permdi / permdf by an immediate: within each 128-bit lane (per-lane
    forms) element i is element (imm >> k*i) of the same lane."""
    v = fg.rvalue(args[0])
    imm = _imm(fg, call, args[1])
    vt = ir.VectorType(v.type)
    n = vt.shape[0]
    name = call.spelling[len(IA32):]
    if name in ("permdi256", "permdf256"):  # across lanes: 2 bits per element
        return vectors.shuffle(v, v, [(imm >> (2 * i)) & 3 for i in range(n)])
    per, _ = _lanes(vt)
    bits = 1 if per == 2 else 2
    mask = (1 << bits) - 1
    if name.startswith("vpermilpd"):  # (one bit per element, for every element)
        return vectors.shuffle(v, v, [(i // per) * per + ((imm >> i) & 1) for i in range(n)])
    return vectors.shuffle(v, v, [(i // per) * per + ((imm >> (bits * (i % per))) & mask) for i in range(n)])


def pshuflw(fg, call, args):
    """pshuflw / pshufhw: the low (high) four words of each lane permuted by the immediate, the rest kept."""
    v = fg.rvalue(args[0])
    imm = _imm(fg, call, args[1])
    n = ir.VectorType(v.type).shape[0]
    high = "pshufhw" in call.spelling
    idx = []
    for i in range(n):
        lane, k = divmod(i, 8)
        if (k >= 4) == high:
            idx.append(lane * 8 + (4 if high else 0) + ((imm >> (2 * (k % 4))) & 3))
        else:
            idx.append(i)
    return vectors.shuffle(v, v, idx)


def _as_bytes(v):
    n = _bits(ir.VectorType(v.type).element_type) * ir.VectorType(v.type).shape[0] // 8
    return vectors.bitcast(v, ir.VectorType.get([n], ir.IntegerType.get_signless(8)))


def byteshift(fg, call, args):
    """pslldq / psrldq: each 128-bit lane shifted by whole bytes, zeros shifted in."""
    v = fg.rvalue(args[0])
    imm = _imm(fg, call, args[1])
    b = _as_bytes(v)
    n = ir.VectorType(b.type).shape[0]
    zero = vectors.bitcast(arith.constant(b.type, ir.DenseElementsAttr.get_splat(
        ir.VectorType(b.type), ir.IntegerAttr.get(ir.IntegerType.get_signless(8), 0))), b.type)
    left = "psll" in call.spelling
    idx = []
    for i in range(n):
        lane, k = divmod(i, 16)
        src = k - imm if left else k + imm
        idx.append(n + lane * 16 + src if 0 <= src < 16 else 0)  # (index 0: an element of the zero vector)
    return vectors.bitcast(vectors.shuffle(zero, b, idx), v.type)


def palignr(fg, call, args):
    """palignr(a, b, imm): per 128-bit lane, bytes imm.. of the concatenation a:b (b low), zeros beyond."""
    a, b = fg.rvalue(args[0]), fg.rvalue(args[1])
    imm = _imm(fg, call, args[2])
    if imm >= 32:
        return vectors.zero(call.type)
    n = ir.VectorType(a.type).shape[0]
    if imm > 16:  # (the upper half is a, shifted in zeros: as clang, b becomes a and a zero)
        b, a = a, vectors.zero(call.type)
        imm -= 16
    idx = []
    for i in range(n):
        lane, k = divmod(i, 16)
        src = k + imm
        idx.append(n + lane * 16 + src if src < 16 else lane * 16 + src - 16)
    return vectors.shuffle(a, b, idx)  # (indices < n pick a, >= n pick b)


def shufps(fg, call, args):
    """shufps / shufpd (and 256-bit): per lane, the low half of the result from a, the high half from b,
    each element chosen by the immediate's bits."""
    a, b = fg.rvalue(args[0]), fg.rvalue(args[1])
    imm = _imm(fg, call, args[2])
    vt = ir.VectorType(a.type)
    n = vt.shape[0]
    per, _ = _lanes(vt)
    bits = 1 if per == 2 else 2
    idx = []
    for i in range(n):
        lane, k = divmod(i, per)
        sel = (imm >> (bits * (k if per == 4 else i))) & ((1 << bits) - 1)
        idx.append((n if k >= per // 2 else 0) + lane * per + sel)
    return vectors.shuffle(a, b, idx)


def blend(fg, call, args):
    """blendps / blendpd / pblendw / pblendd by an immediate: element i from b where its bit is set."""
    a, b = fg.rvalue(args[0]), fg.rvalue(args[1])
    imm = _imm(fg, call, args[2])
    n = ir.VectorType(a.type).shape[0]
    return vectors.shuffle(a, b, [n + i if (imm >> (i % 8)) & 1 else i for i in range(n)])


def vec_ext(fg, call, args):
    """`__builtin_ia32_vec_ext_v8hi(v, i)`: element i (modulo the count)."""
    v = fg.rvalue(args[0])
    n = ir.VectorType(v.type).shape[0]
    i = fg.const_int(vectors._long(), _imm(fg, call, args[1]) % n)
    r = llvm.ExtractElementOp(v, i).result
    return fg.convert(r, canonical(args[0].type).element_type, call.type, call)


def vec_set(fg, call, args):
    """`__builtin_ia32_vec_set_v8hi(v, x, i)`: v with element i (modulo the count) replaced by x."""
    v = fg.rvalue(args[0])
    n = ir.VectorType(v.type).shape[0]
    x = fg.convert(fg.rvalue(args[1]), args[1].type, canonical(args[0].type).element_type, args[1])
    return llvm.InsertElementOp(v, x, fg.const_int(vectors._long(), _imm(fg, call, args[2]) % n)).result


def half128(fg, call, args):
    """extract128i256 / vextractf128: the 128-bit half the immediate's bit 0 selects."""
    v = fg.rvalue(args[0])
    h = _imm(fg, call, args[1]) & 1
    n = ir.VectorType(v.type).shape[0]
    return vectors.shuffle(v, v, [h * n // 2 + i for i in range(n // 2)])


def insert128(fg, call, args):
    """insert128i256 / vinsertf128: a with the 128-bit half the immediate selects replaced by b."""
    a, b = fg.rvalue(args[0]), fg.rvalue(args[1])
    h = _imm(fg, call, args[2]) & 1
    n = ir.VectorType(a.type).shape[0]
    wide = vectors.shuffle(b, b, [i % (n // 2) for i in range(n)])  # (b twice)
    return vectors.shuffle(a, wide, [n + i if (i >= n // 2) == bool(h) else i for i in range(n)])


def perm2x128(fg, call, args):
    """permti256 / vperm2f128: each 128-bit half from a.lo, a.hi, b.lo or b.hi (imm nibble), or zero (bit 3)."""
    a, b = fg.rvalue(args[0]), fg.rvalue(args[1])
    imm = _imm(fg, call, args[2])
    n = ir.VectorType(a.type).shape[0]
    h = n // 2
    idx = [((imm >> (4 * (i // h))) & 3) * h + i % h for i in range(n)]
    r = vectors.shuffle(a, b, idx)
    z = vectors.zero(call.type)
    return vectors.shuffle(r, z, [n + i if (imm >> (4 * (i // h) + 3)) & 1 else i for i in range(n)])


def pmuludq(fg, call, args):
    """pmuludq / pmuldq: the low 32 bits of each 64-bit element, zero- (sign-) extended, multiplied."""
    rt = _result_type(call)
    a, b = (vectors.bitcast(v, rt) for v in _values(fg, args))
    i64 = ir.VectorType(rt).element_type
    if "pmuldq" in call.spelling:
        s = vector.BroadcastOp(rt, arith.constant(i64, 32)).result
        a, b = arith.shrsi(arith.shli(a, s), s), arith.shrsi(arith.shli(b, s), s)
    else:
        m = vector.BroadcastOp(rt, arith.constant(i64, 0xFFFFFFFF)).result
        a, b = arith.andi(a, m), arith.andi(b, m)
    return arith.muli(a, b)


def _unsigned_elements(arg):
    elem = vectors.element_ctype(arg.type) if CT.is_vector(arg.type) else canonical(arg.type)
    return CT.is_unsigned(elem)


def saturating(fg, call, args):
    """`__builtin_elementwise_{add,sub}_sat`: LLVM's sadd/uadd/ssub/usub.sat by the elements' signedness."""
    a, b = _values(fg, args)
    op = "add" if "add_sat" in call.spelling else "sub"
    sign = "u" if _unsigned_elements(args[0]) else "s"
    return intrinsic(f"llvm.{sign}{op}.sat", a.type, [a, b])


def minmax(fg, call, args):
    """`__builtin_elementwise_{min,max}`: arith's signed / unsigned / floating (maxnum, as LLVM's) min and max."""
    a, b = _values(fg, args)
    mx = "max" in call.spelling
    elem = vectors.element_ctype(args[0].type) if CT.is_vector(args[0].type) else canonical(args[0].type)
    if CT.is_float(elem):
        return (arith.maxnumf if mx else arith.minnumf)(a, b)
    if CT.is_unsigned(elem):
        return (arith.maxui if mx else arith.minui)(a, b)
    return (arith.maxsi if mx else arith.minsi)(a, b)


def absolute(fg, call, args):
    """`__builtin_elementwise_abs`: math.absf; for integers x < 0 ? 0 - x : x (the most negative integer stays
    itself, as pabsb; LLVM matches the select as its abs; math.absi has no lowering in this pipeline)."""
    v = fg.rvalue(args[0])
    elem = vectors.element_ctype(args[0].type) if CT.is_vector(args[0].type) else canonical(args[0].type)
    if CT.is_float(elem):
        return math.absf(v)
    z = vectors.zero(args[0].type) if CT.is_vector(args[0].type) else fg.zero(args[0].type)
    return arith.select(arith.cmpi(arith.CmpIPredicate.slt, v, z), arith.subi(z, v), v)


def fused_multiply_add(fg, call, args):
    """`__builtin_elementwise_fma(a, b, c)` (the FMA intrinsics): math.fma, one rounding."""
    a, b, c = _values(fg, args)
    return math.fma(a, b, c)


def square_root(fg, call, args):
    """`__builtin_elementwise_sqrt`: math.sqrt."""
    return math.sqrt(fg.rvalue(args[0]))


def undefined(fg, call, args):
    """`__builtin_ia32_undef128()` and `__builtin_nondeterministic_value(x)`: any value; zero."""
    return vectors.zero(call.type) if CT.is_vector(call.type) else fg.zero(call.type)


def nontemporal_store(fg, call, args):
    """`__builtin_nontemporal_store(v, p)` and movnti: a store with LLVM's !nontemporal hint."""
    v, p = _values(fg, args)
    p = fg.to_ptr(p) if p.type != CT.llvm_ptr() else p
    llvm.StoreOp(v, p, alignment=CT.size_of(args[0].type), nontemporal=True)


def movnti(fg, call, args):
    """`__builtin_ia32_movnti(p, x)` (_mm_stream_si32): a store of x at p with LLVM's !nontemporal hint."""
    p, v = _values(fg, args)
    p = fg.to_ptr(p) if p.type != CT.llvm_ptr() else p
    llvm.StoreOp(v, p, nontemporal=True)


def nontemporal_load(fg, call, args):
    """`__builtin_nontemporal_load(p)`: a load with LLVM's !nontemporal hint."""
    p = fg.rvalue(args[0])
    p = fg.to_ptr(p) if p.type != CT.llvm_ptr() else p
    return llvm.LoadOp(CT.value_type(call.type), p, alignment=CT.size_of(call.type), nontemporal=True).result


def select(fg, call, args):
    """`__builtin_ia32_select{b,w,d,q,ps,pd}_{128,256,512}(mask, a, b)` (AVX-512 masking): a where the mask's
    bit is set, else b."""
    m, a, b = _values(fg, args)
    return arith.select(mask_bits(m, ir.VectorType(a.type).shape[0]), a, b)


def count_zeros(fg, call, args):
    """tzcnt / lzcnt: LLVM's cttz / ctlz defined at zero (the operand's width, as the instructions give)."""
    v = fg.rvalue(args[0])
    name = "llvm.cttz" if "tzcnt" in call.spelling else "llvm.ctlz"
    r = intrinsic(name, v.type, [v, arith.constant(ir.IntegerType.get_signless(1), 0)])
    return fg.convert(r, args[0].type, call.type, call)


def mxcsr(fg, call, args):
    """`_mm_getcsr()` / `_mm_setcsr(x)`: stmxcsr / ldmxcsr through a 4-byte stack slot (their operand is
    memory)."""
    slot = fg.byte_alloca(4, 4)
    i32 = ir.IntegerType.get_signless(32)
    if call.spelling == "_mm_getcsr":
        intrinsic("llvm.x86.sse.stmxcsr", None, [slot])
        return llvm.LoadOp(i32, slot).result
    llvm.StoreOp(fg.rvalue(args[0]), slot)
    intrinsic("llvm.x86.sse.ldmxcsr", None, [slot])


SPECIAL = {
    **{IA32 + f"select{t}_{w}": select for t in ("b", "w", "d", "q", "ps", "pd") for w in ("128", "256", "512")},
    **{IA32 + n: count_zeros for n in ("tzcnt_u16", "tzcnt_u32", "tzcnt_u64", "lzcnt_u16", "lzcnt_u32",
                                        "lzcnt_u64")},
    "_mm_getcsr": mxcsr, "_mm_setcsr": mxcsr,
    **{IA32 + f"cmp{p}{k}": compare_fixed for p in PREDICATES for k in ("pd", "ps", "sd", "ss")},
    **{IA32 + n: pshufd for n in ("pshufd", "pshufd256", "pshufd512", "vpermilps", "vpermilps256", "vpermilpd",
                                   "vpermilpd256", "permdi256", "permdf256")},
    **{IA32 + n: pshuflw for n in ("pshuflw", "pshufhw", "pshuflw256", "pshufhw256")},
    **{IA32 + n: byteshift for n in ("pslldqi128_byteshift", "psrldqi128_byteshift", "pslldqi256_byteshift",
                                      "psrldqi256_byteshift")},
    IA32 + "palignr128": palignr, IA32 + "palignr256": palignr,
    **{IA32 + n: shufps for n in ("shufps", "shufpd", "shufps256", "shufpd256")},
    **{IA32 + n: blend for n in ("blendps", "blendpd", "pblendw128", "pblendd128", "pblendd256", "pblendw256",
                                  "blendps256", "blendpd256")},
    **{IA32 + "vec_ext_" + t: vec_ext for t in ("v16qi", "v8hi", "v4si", "v2di", "v4sf", "v4hi", "v32qi",
                                                 "v16hi", "v8si", "v4di")},
    **{IA32 + "vec_set_" + t: vec_set for t in ("v16qi", "v8hi", "v4si", "v2di", "v4hi", "v32qi", "v16hi",
                                                 "v8si", "v4di")},
    **{IA32 + n: half128 for n in ("extract128i256", "vextractf128_pd256", "vextractf128_ps256",
                                    "vextractf128_si256")},
    **{IA32 + n: insert128 for n in ("insert128i256", "vinsertf128_pd256", "vinsertf128_ps256",
                                      "vinsertf128_si256")},
    **{IA32 + n: perm2x128 for n in ("permti256", "vperm2f128_pd256", "vperm2f128_ps256", "vperm2f128_si256")},
    **{IA32 + n: pmuludq for n in ("pmuludq128", "pmuludq256", "pmuludq512", "pmuldq128", "pmuldq256", "pmuldq512")},
    IA32 + "undef128": undefined, IA32 + "undef256": undefined, IA32 + "undef512": undefined, "__builtin_nondeterministic_value": undefined,
    IA32 + "movnti": movnti, IA32 + "movnti64": movnti,
    "__builtin_nontemporal_store": nontemporal_store, "__builtin_nontemporal_load": nontemporal_load,
    "__builtin_elementwise_add_sat": saturating, "__builtin_elementwise_sub_sat": saturating,
    "__builtin_elementwise_min": minmax, "__builtin_elementwise_max": minmax,
    "__builtin_elementwise_abs": absolute, "__builtin_elementwise_sqrt": square_root,
    "__builtin_elementwise_fma": fused_multiply_add,
}

DIRECT.update(x86_avx512.DIRECT)
BUILTINS = {**{n: direct for n in DIRECT}, **SPECIAL, **x86_avx512.SPECIAL, **x86_dispatch.BUILTINS}


# ------------------------------------------------------------------ target features of always_inline functions
# What each x86 feature implies (gcc's and clang's -m options: -mavx2 enables AVX, SSE4.2, ...).
IMPLIES = {"sse3": {"sse2"}, "ssse3": {"sse3"}, "sse4.1": {"ssse3"}, "sse4.2": {"sse4.1", "crc32"},
           "avx": {"sse4.2"}, "avx2": {"avx"}, "fma": {"avx"}, "f16c": {"avx"}, "pclmul": {"sse2"},
           "aes": {"sse2"}, "sha": {"sse2"}, "vpclmulqdq": {"avx", "pclmul"}, "sse2": {"sse", "mmx"},
           "avx512f": {"avx2", "fma", "f16c"}, "gfni": {"sse2"}, "vaes": {"avx", "aes"},
           **{f: {"avx512f"} for f in ("avx512bw", "avx512vl", "avx512cd", "avx512dq", "avx512ifma",
                                       "avx512vpopcntdq", "avx512vnni", "avx512bitalg", "avx512bf16")},
           "avx512vbmi": {"avx512bw"}, "avx512vbmi2": {"avx512bw"}}
# the predefined macro that tells whether the translation unit has a feature
MACROS = {"sse3": "__SSE3__", "ssse3": "__SSSE3__", "sse4.1": "__SSE4_1__", "sse4.2": "__SSE4_2__",
          "avx": "__AVX__", "avx2": "__AVX2__", "fma": "__FMA__", "f16c": "__F16C__", "pclmul": "__PCLMUL__",
          "aes": "__AES__", "sha": "__SHA__", "vpclmulqdq": "__VPCLMULQDQ__", "popcnt": "__POPCNT__",
          "bmi": "__BMI__", "bmi2": "__BMI2__", "lzcnt": "__LZCNT__", "crc32": "__CRC32__",
          "avx512f": "__AVX512F__", "avx512bw": "__AVX512BW__", "avx512vl": "__AVX512VL__"}
_UNIT_FEATURES: dict = {}


def _closure(features):
    out, todo = set(), list(features)
    while todo:
        f = todo.pop()
        if f not in out:
            out.add(f)
            todo += IMPLIES.get(f, ())
    return out


def unit_features(tu) -> set:
    """The x86 features the whole translation unit may use: the baseline (SSE2) and what its -m options add,
    read from the macros clang predefines for the same options (a parse of a few lines, once per option set)."""
    key = tuple(getattr(tu, "target_args", ()))
    if key not in _UNIT_FEATURES:
        import clang.cindex as ci
        probe = "".join(f"#ifdef {m}\nint {f.replace('.', '_')};\n#endif\n" for f, m in MACROS.items())
        t = ci.Index.create().parse("features.c", args=["-x", "c", *key], unsaved_files=[("features.c", probe)])
        have = {c.spelling.replace("_", ".") for c in t.cursor.get_children()}
        _UNIT_FEATURES[key] = _closure({"sse", "sse2", "mmx"} | {f for f in MACROS if f in have})
    return _UNIT_FEATURES[key]


# The instruction set of every function of clang's intrinsic headers, by header: each declares its functions
# always_inline with `__target__("<feature>")` (read from the header's name: an attribute's tokens, behind the
# header's attribute macro, cost a tokenization of thousands of tokens per function).
HEADER_FEATURES = {"mmintrin.h": "mmx", "xmmintrin.h": "sse", "emmintrin.h": "sse2", "pmmintrin.h": "sse3",
                   "tmmintrin.h": "ssse3", "smmintrin.h": "sse4.1", "nmmintrin.h": "sse4.2", "avxintrin.h": "avx",
                   "avx2intrin.h": "avx2", "__wmmintrin_aes.h": "aes", "__wmmintrin_pclmul.h": "pclmul",
                   "bmiintrin.h": "bmi", "bmi2intrin.h": "bmi2", "lzcntintrin.h": "lzcnt",
                   "popcntintrin.h": "popcnt", "fmaintrin.h": "fma", "f16cintrin.h": "f16c", "shaintrin.h": "sha",
                   "crc32intrin.h": "crc32"}
_CALLER_FEATURES: dict = {}


def header_feature(decl):
    """The feature a function of clang's intrinsic headers needs (`_mm_shuffle_epi8` -> 'ssse3'), else None."""
    f = decl.location.file
    if f is None or "/resource/include/" not in f.name.replace("\\", "/"):
        return None
    return HEADER_FEATURES.get(f.name.replace("\\", "/").rsplit("/", 1)[-1])


def _target_attributes(decl):
    """The strings of `decl`'s `target("...")` attributes (`["avx2,pclmul"]`)."""
    found = []
    for a in decl.get_children():
        if a.kind.is_attribute():  # (read lazily: an attribute from a macro yields the rest of the file's tokens)
            tokens = (t.spelling for t in a.get_tokens())
            head = list(itertools.islice(tokens, 3))
            if len(head) == 3 and head[0] in ("target", "__target__") and head[1] == "(" and head[2].startswith('"'):
                parts = [head[2].strip('"')]  # (adjacent literals are one string: `target("avx512f," "gfni")`)
                for t in tokens:
                    if not t.startswith('"'):
                        break
                    parts.append(t.strip('"'))
                found.append("".join(parts))
    return found


def caller_features(caller):
    """The features function `caller` may use beyond the translation unit's (its target attribute, or the
    feature of its intrinsic header), or None when it names a processor (`target("arch=haswell")`: clang's to
    know). Computed once per function."""
    key = (caller.location.file.name if caller.location.file else None, caller.extent.start.offset, caller.spelling)
    if key not in _CALLER_FEATURES:
        own = header_feature(caller)
        specs = [own] if own else _target_attributes(caller)
        if any("arch=" in sp for sp in specs):
            _CALLER_FEATURES[key] = None
        else:
            _CALLER_FEATURES[key] = _closure({f.strip() for sp in specs for f in sp.split(",")
                                              if f.strip() and not f.strip().startswith("no-")})
    return _CALLER_FEATURES[key]


def llvm_target(decl) -> list:
    """LLVM's function attributes [(name, value)] for function `decl`'s instruction sets: "target-cpu" from
    `target("arch=CPU")`, "target-features" from `target("avx2,no-sse4a")` or the feature of an intrinsic
    header's function (`_mm_shuffle_epi8`: ssse3), added to the command line's (LLVM takes a function's
    feature string instead of the target machine's); [] for a function without them."""
    own = header_feature(decl)
    specs = [own] if own else _target_attributes(decl)
    out, features = [], []
    for f in (f.strip() for sp in specs for f in sp.split(",")):
        if f.startswith("arch="):
            out.append(("target-cpu", f[len("arch="):]))
        elif f.startswith("no-"):
            features.append("-" + f[len("no-"):])
        elif f and not f.startswith("tune=") and f != "default":
            features.append("+" + f)
    if features:
        from ..backend import target_machine
        out.append(("target-features", ",".join([target_machine(getattr(decl.translation_unit, "target_args",
                                                                        ()))[1], *features])))
    return out


def check_target_features(fg, call, callee):
    """A function of the intrinsic headers (always_inline, `__target__("ssse3")` for `_mm_shuffle_epi8`)
    called from a function that lacks its feature (no -mssse3, no target attribute implying it): the error gcc
    and clang give (this would be code for a processor the program does not target).

    Raises:
        CompileError at `call`, naming the function and the feature."""
    need = header_feature(callee)
    if need is None:
        return
    caller = getattr(fg, "cursor", None)
    extra = caller_features(caller) if caller is not None else set()
    if extra is None or need in unit_features(call.translation_unit) | extra:
        return
    where = f"function '{caller.spelling}'" if caller is not None else "this function"
    raise error_at(call, f"always_inline function '{callee.spelling}' requires target feature '{need}', but would "
                         f"be inlined into {where} that is compiled without support for '{need}' (-m{need} or "
                         f"__attribute__((target(\"{need}\"))))")
