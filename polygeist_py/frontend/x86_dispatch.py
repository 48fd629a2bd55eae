"""Run-time CPU dispatch builtins as x86 libraries use them to pick a code path: `__builtin_cpu_init()`,
`__builtin_cpu_supports("avx2")` and `__builtin_cpu_is("amd")`.

They read libgcc's CPU model as gcc's code does, so that a pgcc object and a gcc object agree and the link
needs nothing new: `__cpu_indicator_init` (a constructor of libgcc, which `__builtin_cpu_init` calls again for
resolvers that run before constructors) fills `__cpu_model` ({vendor, type, subtype, features[1]}: 4-byte
fields) and `__cpu_features2` (the features numbered 32 and up). The feature numbering and the
vendor/type/subtype codes are gcc 12's (its i386-cpuinfo.h enums, read off the code gcc emits for each name);
the result is gcc's too: the feature's bit of its word (not 0/1), 0/1 for `__builtin_cpu_is`.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm

from ..clang_ast import K, strip_implicit, string_literal
from ..errors import error_at
from . import c_types as CT

# gcc's `enum processor_features`, in order: feature i is bit i % 32 of __cpu_model's features word (i < 32) or of
# word (i - 32) // 32 of __cpu_features2
FEATURES = """cmov mmx popcnt sse sse2 sse3 ssse3 sse4.1 sse4.2 avx avx2 sse4a fma4 xop fma avx512f bmi bmi2 aes pclmul
avx512vl avx512bw avx512dq avx512cd avx512er avx512pf avx512vbmi avx512ifma avx5124vnniw avx5124fmaps avx512vpopcntdq
avx512vbmi2 gfni vpclmulqdq avx512vnni avx512bitalg avx512bf16 avx512vp2intersect 3dnow 3dnowp adx abm cldemote
clflushopt clwb clzero cmpxchg16b cmpxchg8b enqcmd f16c fsgsbase fxsave hle ibt lahf_lm lm lwp lzcnt movbe movdir64b
movdiri mwaitx osxsave pconfig pku prefetchwt1 prfchw ptwrite rdpid rdrnd rdseed rtm serialize sgx sha shstk tbm
tsxldtrk vaes waitpkg wbnoinvd xsave xsavec xsaveopt xsaves amx-tile amx-int8 amx-bf16 uintr hreset kl aeskle
widekl avxvnni avx512fp16 x86-64 x86-64-v2 x86-64-v3 x86-64-v4""".split()
# `__builtin_cpu_is` names: (byte offset in __cpu_model: 0 vendor, 4 type, 8 subtype; the code gcc compares with)
CPU_IS = {"intel": (0, 1), "amd": (0, 2),
          "atom": (4, 1), "bonnell": (4, 1), "core2": (4, 2), "corei7": (4, 3), "amdfam10h": (4, 4),
          "amdfam15h": (4, 5), "shanghai": (4, 5), "slm": (4, 6), "silvermont": (4, 6), "istanbul": (4, 6),
          "knl": (4, 7), "bdver1": (4, 7), "bdver2": (4, 8), "btver2": (4, 9), "amdfam17h": (4, 10),
          "knm": (4, 11), "goldmont": (4, 12), "goldmont-plus": (4, 13), "tremont": (4, 14), "amdfam19h": (4, 15),
          "nehalem": (8, 1), "westmere": (8, 2), "sandybridge": (8, 3), "barcelona": (8, 4), "btver1": (8, 7),
          "bdver3": (8, 9), "bdver4": (8, 10), "znver1": (8, 11), "ivybridge": (8, 12), "haswell": (8, 13),
          "broadwell": (8, 14), "skylake": (8, 15), "skylake-avx512": (8, 16), "cannonlake": (8, 17),
          "icelake-client": (8, 18), "icelake-server": (8, 19), "znver2": (8, 20), "cascadelake": (8, 21),
          "tigerlake": (8, 22), "cooperlake": (8, 23), "sapphirerapids": (8, 24), "alderlake": (8, 25),
          "znver3": (8, 26), "rocketlake": (8, 27)}


def _name(fg, call, args):
    """The string literal argument of a cpu builtin (an error naming the builtin for anything else)."""
    s = strip_implicit(args[0]) if args else None
    if s is None or s.kind != K.STRING_LITERAL:
        raise error_at(call, f"the argument of '{call.spelling}' must be a string literal")
    return string_literal(s)


def _global_word(fg, symbol, offset):
    """The i32 at byte `offset` of libgcc's global `symbol` (declared external on first use)."""
    mg = fg.mg
    if symbol not in mg.llvm_decls:
        with ir.Location.unknown(), ir.InsertionPoint.at_block_begin(mg.module.body):
            llvm.GlobalOp(ir.Type.parse("!llvm.array<16 x i8>"), symbol,
                          ir.Attribute.parse("#llvm.linkage<external>"), alignment=4)
        mg.llvm_decls.add(symbol)
    base = llvm.AddressOfOp(CT.llvm_ptr(), symbol).result
    i32 = ir.IntegerType.get_signless(32)
    return llvm.LoadOp(i32, fg.at_offset(base, offset) if offset else base).result


def cpu_init(fg, call, args):
    """`__builtin_cpu_init()`: libgcc's `__cpu_indicator_init()` (it fills the model once)."""
    fg.mg.builtins.libc("__cpu_indicator_init", ir.IntegerType.get_signless(32), [])


def cpu_supports(fg, call, args):
    """`__builtin_cpu_supports("feature")`: the feature's bit of libgcc's CPU model, as gcc computes it (the
    masked bit; bit 31 of the first word shifted down to 1)."""
    name = _name(fg, call, args)
    if name not in FEATURES:
        raise error_at(call, f"unsupported construct: '{call.spelling}' of '{name}' (not a feature gcc 12 knows)")
    i = FEATURES.index(name)
    word = _global_word(fg, "__cpu_model", 12) if i < 32 else _global_word(fg, "__cpu_features2",
                                                                            4 * ((i - 32) // 32))
    i32 = ir.IntegerType.get_signless(32)
    bit = i % 32
    if i == 31:
        r = arith.shrui(word, arith.constant(i32, 31))
    else:
        r = arith.andi(word, arith.constant(i32, (1 << bit) - (1 << 32 if bit == 31 else 0)))
    return r  # (the builtin's type is int)


def cpu_is(fg, call, args):
    """`__builtin_cpu_is("vendor or cpu")`: 1 when libgcc's model has that vendor, type or subtype, else 0."""
    name = _name(fg, call, args)
    if name not in CPU_IS:
        raise error_at(call, f"unsupported construct: '{call.spelling}' of '{name}' (not a processor gcc 12 knows)")
    offset, code = CPU_IS[name]
    word = _global_word(fg, "__cpu_model", offset)
    eq = arith.cmpi(arith.CmpIPredicate.eq, word, arith.constant(word.type, code))
    return arith.extui(ir.IntegerType.get_signless(32), eq)  # (an int)


BUILTINS = {"__builtin_cpu_init": cpu_init, "__builtin_cpu_supports": cpu_supports, "__builtin_cpu_is": cpu_is}
