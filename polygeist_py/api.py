"""The Python API: compile C or CUDA source to MLIR and call its functions on numpy arrays through MLIR's JIT.

    >>> import numpy as np, polygeist_py as pg
    >>> prog = pg.compile('''
    ... void mm(int n, int m, int k, double C[n][m], double A[n][k], double B[k][m]) {
    ...   for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) {
    ...     C[i][j] = 0; for (int p = 0; p < k; p++) C[i][j] += A[i][p] * B[p][j]; } }''')
    >>> A, B = np.ones((2, 3)), np.ones((3, 4)); C = np.empty((2, 4))
    >>> prog.mm(2, 4, 3, C, A, B)        # C == A @ B; prog["mm"] works too
    >>> "affine.for" in prog.mlir
    True

The stages are the driver's (``pgcc``): libclang parse -> frontend (structured MLIR) -> cleanup -> cpuify (CUDA
launches to parallel loops) -> lowering to the LLVM dialect; the LLVM-dialect module is handed to
``mlir.execution_engine.ExecutionEngine``. Each function is called through the engine's packed entry point
(``raw_lookup(name)`` returns ``_mlir_<name>(void **args)``: one pointer per argument, then one to the result),
with the ctypes types and the argument checks derived from the function's C declaration (libclang type kinds),
never from MLIR text.
"""

from __future__ import annotations

import ctypes
import inspect
import os
from dataclasses import dataclass, field

import clang.cindex as ci
import numpy as np

from .clang_ast import K, T, children, evaluate, has_attr, in_main_file, strip_implicit, unary_op
from .errors import CompileError
from .stages import STAGES

__all__ = ["compile", "Program", "Function", "CompileError"]

_LANG_SUFFIX = {"c": ".c", "cuda": ".cu"}


# ------------------------------------------------------------------------------------------------ compiling
def compile(source: str | None = None, *, path: str | os.PathLike | None = None, language: str | None = None,
            opt_level: int = 2, defines=None, include_dirs=None, cpuify: bool = False, std: str | None = None,
            clang_args=None, locations: bool = False, gradients=()) -> "Program":
    """Compile C or CUDA source to MLIR and JIT-compile it; return a :class:`Program` of callable functions.

    Args:
        source: the program text. When omitted, ``path`` is read from disk.
        path: the source file (``.c`` = C, ``.cu`` = CUDA). With ``source`` as well, it only names the text
            (diagnostics, locations and ``#include "..."`` lookups use it).
        language: ``'c'`` or ``'cuda'``; by default inferred from the suffix of ``path`` (C without a path).
        opt_level: 0..3, the LLVM optimization level of the JIT.
        defines: macros, as a dict ``{"N": 100, "DEBUG": None}`` (None = ``-DDEBUG``) or a list of
            ``"N=100"`` strings.
        include_dirs: directories for ``#include`` (``-I``).
        cpuify: run CUDA kernel launches on the CPU (parallel loops over blocks and threads, OpenMP); a CUDA
            source that launches kernels needs it (there is no GPU back end).
        std: C standard, e.g. ``"c99"`` (passed as ``-std=``; C only, CUDA is parsed as C++17).
        clang_args: further flags for the parser (``-U``, ``-include``, ...).
        locations: print source locations (``loc("file":line:col)``) in the MLIR texts of the Program.
        gradients: names of functions f to differentiate: the Program gets ``f_gradient`` (reverse mode,
            Enzyme's default activities: each array followed by its shadow ``d_<name>`` that receives the
            gradient, integers constant, the floating-point scalar's gradient returned; see
            polygeist_py.ad.python_api).

    Returns:
        Program: ``.mlir`` (the frontend's structured MLIR), ``.lowered_mlir`` (LLVM dialect), ``.functions``
        (names) and one callable per non-static function defined in the source (CUDA: host functions, not
        kernels).

    Raises:
        polygeist_py.errors.CompileError: an error in the program (``.file``, ``.line``, ``.col`` give the
            position; ``str(e)`` is the clang-style diagnostic with the source line), an unsupported construct,
            or an internal compiler error (``polygeist_py.pipeline.InternalError``).
        FileNotFoundError: ``path`` does not exist and no ``source`` was given.
        ValueError: a bad option (language, opt_level).
    """
    if source is None and path is None:
        raise ValueError("compile() needs a source string or path=")
    if not isinstance(opt_level, int) or not 0 <= opt_level <= 3:
        raise ValueError(f"opt_level must be an int in 0..3, got {opt_level!r}")
    path = os.fspath(path) if path is not None else None
    if language is None:
        language = "cuda" if path is not None and path.endswith(".cu") else "c"
    if language not in _LANG_SUFFIX:
        raise ValueError(f"language must be 'c' or 'cuda', got {language!r}")
    if source is None:
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no such file: '{path}'")
        if not path.endswith(_LANG_SUFFIX[language]):  # the parser picks the language from the suffix
            with open(path, encoding="utf-8") as f:
                source = f.read()
    if path is None:
        parse_path = "<source>" + _LANG_SUFFIX[language]
    elif path.endswith(_LANG_SUFFIX[language]):
        parse_path = path
    else:  # same directory, so that #include "..." still resolves next to the file
        parse_path = path + _LANG_SUFFIX[language]
    args = _clang_args(defines, include_dirs, std, clang_args)
    try:
        return _build(source, parse_path, args, opt_level=opt_level, cpuify=cpuify, locations=locations,
                      gradients=tuple(gradients))
    except CompileError as e:
        e.args = (_render(e, parse_path, source),)
        raise


def _clang_args(defines, include_dirs, std, extra) -> list[str]:
    args = []
    if defines:
        items = defines.items() if isinstance(defines, dict) else ((d, None) for d in defines)
        for k, v in items:
            args.append(f"-D{k}" if v is None else f"-D{k}={int(v) if isinstance(v, bool) else v}")
    for d in include_dirs or ():
        args += ["-I", os.fspath(d)]
    if std:
        args.append(f"-std={std}")
    return args + [str(a) for a in (extra or ())]


def _render(e: CompileError, parse_path: str, source: str | None) -> str:
    """clang-style text of `e`; the source line comes from `source` when the file is the in-memory text."""
    in_memory = e.file and source is not None and os.path.abspath(e.file) == os.path.abspath(parse_path)
    return e.render(source if in_memory else None)


def _build(source, parse_path, clang_args, *, opt_level, cpuify, locations, gradients=()) -> "Program":
    from mlir import ir
    from mlir.execution_engine import ExecutionEngine

    from .ad.python_api import add_gradient_wrappers, gradient_signature
    from .clang_ast import parse
    from .stages import has_op, run_stages
    from .toolchain import libomp_path

    tu = parse(parse_path, clang_args, source)
    texts = {}
    ctx = ir.Context()
    with ctx:
        ctx.allow_unregistered_dialects = False
        sigs = _signatures(tu, parse_path, source)  # before codegen: plain Python data, no cursors kept
        for name in gradients:  # f_gradient wrappers (polygeist_py.ad.python_api)
            if name not in sigs:
                raise ValueError(f"gradients: '{name}' is not a function defined in the program")
            g = gradient_signature(sigs[name], Param, Signature)
            sigs[g.name] = g

        def record(stage, module):
            if stage == "mlir" and gradients:
                add_gradient_wrappers(module, gradients)
            texts[stage] = module.operation.get_asm(enable_debug_info=locations, pretty_debug_info=False)
            return False

        module = run_stages(tu, parse_path, cpuify=cpuify, on_stage=record)
        defined = _defined_llvm_funcs(module)
        # OpenMP loops, or calls of the OpenMP runtime (omp_get_thread_num...) in a -fopenmp program
        uses_omp = has_op(module, lambda n: n.startswith("omp.")) or getattr(tu, "openmp", False)
        libs = [libomp_path()] if uses_omp else []
        engine = ExecutionEngine(module, opt_level=opt_level, shared_libs=libs)
    sigs = {n: s for n, s in sigs.items() if n in defined}
    for n, s in sigs.items():
        if s.unsupported is None and len(s.params) != defined[n]:
            s.unsupported = (f"its MLIR form takes {defined[n]} arguments for {len(s.params)} C parameters")
    return Program(texts, sigs, ctx, module, engine, parse_path, opt_level)


def _defined_llvm_funcs(module) -> dict:
    """name -> argument count of every llvm.func with a body."""
    from mlir import ir

    out = {}
    for op in module.body.operations:
        if op.operation.name != "llvm.func":
            continue
        region = op.operation.regions[0]
        blocks = list(region.blocks)
        if blocks:
            out[ir.StringAttr(op.operation.attributes["sym_name"]).value] = len(blocks[0].arguments)
    return out


# ------------------------------------------------------------------------------------------------ C signatures
@dataclass(frozen=True)
class Scalar:
    """An arithmetic C type as seen from Python."""
    spelling: str       # canonical C spelling
    ctype: type         # ctypes type
    dtype: np.dtype     # numpy dtype of arrays of it
    kind: str           # 'bool' | 'int' | 'uint' | 'float'
    alt: tuple = ()     # other dtypes accepted for arrays (char: int8 and uint8)

    def range(self):
        bits = 8 * ctypes.sizeof(self.ctype)
        return (0, 2 ** bits - 1) if self.kind == "uint" else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)


def _s(spelling, ctype, dtype, kind, alt=()):
    return Scalar(spelling, ctype, np.dtype(dtype), kind, tuple(np.dtype(a) for a in alt))


SCALARS = {  # canonical clang type kind -> Scalar (x86-64 Linux: LP64)
    T.BOOL: _s("_Bool", ctypes.c_bool, np.bool_, "bool"),
    T.CHAR_S: _s("char", ctypes.c_int8, np.int8, "int", [np.uint8]),
    T.CHAR_U: _s("char", ctypes.c_uint8, np.uint8, "uint", [np.int8]),
    T.SCHAR: _s("signed char", ctypes.c_int8, np.int8, "int"),
    T.UCHAR: _s("unsigned char", ctypes.c_uint8, np.uint8, "uint"),
    T.SHORT: _s("short", ctypes.c_int16, np.int16, "int"),
    T.USHORT: _s("unsigned short", ctypes.c_uint16, np.uint16, "uint"),
    T.INT: _s("int", ctypes.c_int32, np.int32, "int"),
    T.UINT: _s("unsigned int", ctypes.c_uint32, np.uint32, "uint"),
    T.LONG: _s("long", ctypes.c_long, np.dtype(f"i{ctypes.sizeof(ctypes.c_long)}"), "int"),
    T.ULONG: _s("unsigned long", ctypes.c_ulong, np.dtype(f"u{ctypes.sizeof(ctypes.c_ulong)}"), "uint"),
    T.LONGLONG: _s("long long", ctypes.c_int64, np.int64, "int"),
    T.ULONGLONG: _s("unsigned long long", ctypes.c_uint64, np.uint64, "uint"),
    T.FLOAT: _s("float", ctypes.c_float, np.float32, "float"),
    T.DOUBLE: _s("double", ctypes.c_double, np.float64, "float"),
}


class _Unsupported(Exception):
    pass


def _scalar_of(ty):
    """The Scalar of an arithmetic clang type (enums: their underlying type), or None."""
    c = ty.get_canonical()
    if c.kind == T.ENUM:
        c = c.get_declaration().enum_type.get_canonical()
    return SCALARS.get(c.kind)


@dataclass
class Param:
    """One C parameter.

    kind 'scalar': ``scalar`` is its type. kind 'array' (a pointer or array parameter): ``scalar`` is the element
    type (None for ``void *``, any dtype), ``dims`` the expected shape, outermost first, each an expression tree
    (see :func:`_eval_dim`) or None when unknown; ``dims`` None = any shape (``double *x``, ``int v[]``);
    ``const`` = the pointee is const (a read-only array is then accepted).
    """
    name: str
    decl: str
    kind: str
    scalar: Scalar | None = None
    dims: list | None = None
    const: bool = False


@dataclass
class Signature:
    name: str
    decl: str                       # the C declaration, e.g. "void mm(int n, double A[n][m])"
    params: list = field(default_factory=list)
    ret: object = None              # Scalar, 'void', 'pointer'
    unsupported: str | None = None  # why the function cannot be called from Python


def _signatures(tu, parse_path, source) -> dict:
    """name -> Signature of every non-static function defined in the main file (CUDA: host-callable ones)."""
    texts = _SourceText(parse_path, source)
    out = {}

    def visit(c):
        if c.kind in (K.LINKAGE_SPEC, K.NAMESPACE):
            for d in children(c):
                visit(d)
            return
        if c.kind != K.FUNCTION_DECL or not c.is_definition():
            return
        if c.linkage == ci.LinkageKind.INTERNAL:
            return  # static: not visible outside the translation unit (internal in LLVM)
        if has_attr(c, K.CUDAGLOBAL_ATTR):
            return  # kernels are launched by host code, not called
        if has_attr(c, K.CUDADEVICE_ATTR) and not has_attr(c, K.CUDAHOST_ATTR):
            return  # device-only
        if c.spelling not in out:
            out[c.spelling] = _signature(c, texts)

    for c in tu.cursor.get_children():
        if in_main_file(c, tu):
            visit(c)
    return out


class _SourceText:
    """Declaration text from source extents (the in-memory text or the file on disk)."""

    def __init__(self, parse_path, source):
        self.cache = {os.path.abspath(parse_path): source.encode("utf-8")} if source is not None else {}

    def of(self, cursor) -> str | None:
        ext = cursor.extent
        f = ext.start.file
        if f is None:
            return None
        key = os.path.abspath(f.name)
        if key not in self.cache:
            try:
                with open(f.name, "rb") as fh:
                    self.cache[key] = fh.read()
            except OSError:
                self.cache[key] = None
        data = self.cache[key]
        if data is None or ext.end.file is None or ext.end.file.name != f.name:
            return None
        return " ".join(data[ext.start.offset:ext.end.offset].decode("utf-8", "replace").split())


def _signature(c, texts: _SourceText) -> Signature:
    params = list(c.get_arguments())  # (not every PARM_DECL child: a result of function-pointer type has its own)
    decls = [texts.of(p) or f"{p.type.spelling} {p.spelling}".strip() for p in params]
    rt = c.result_type.get_canonical()
    variadic = c.type.kind == T.FUNCTIONPROTO and c.type.is_function_variadic()
    decl_params = ", ".join(decls + ["..."] * variadic) or "void"
    sig = Signature(c.spelling, f"{c.result_type.spelling} {c.spelling}({decl_params})")
    try:
        if variadic:
            raise _Unsupported("it is variadic")
        if rt.kind == T.VOID:
            sig.ret = "void"
        elif rt.kind == T.POINTER:
            sig.ret = "pointer"
        else:
            sig.ret = _scalar_of(rt)
            if sig.ret is None:
                raise _Unsupported(f"it returns '{c.result_type.spelling}'")
        names = [p.spelling for p in params]
        for i, (p, d) in enumerate(zip(params, decls)):
            sig.params.append(_param(p, d, i, names))
    except _Unsupported as e:
        sig.unsupported = str(e)
    return sig


def _param(p, decl: str, index: int, names: list) -> Param:
    arrays = (T.CONSTANTARRAY, T.VARIABLEARRAY, T.INCOMPLETEARRAY)
    ty = p.type.get_canonical()
    name = p.spelling or f"arg{index}"
    if ty.kind not in arrays and ty.kind != T.POINTER:
        s = _scalar_of(ty)
        if s is None:
            raise _Unsupported(f"parameter '{decl}' has type '{p.type.spelling}'")
        return Param(name, decl, "scalar", s)
    # slots: ('ptr'|'incomplete'|'vla'|'const', value), outermost first
    slots = []
    t = ty
    if t.kind == T.POINTER:
        slots.append(("ptr", None))
        t = t.get_pointee().get_canonical()
    const = False
    while t.kind in arrays:
        const |= t.is_const_qualified()  # canonical `const double [3]`: the qualifier is on the array type
        if t.kind == T.CONSTANTARRAY:
            slots.append(("const", t.element_count))
        elif t.kind == T.VARIABLEARRAY:
            slots.append(("vla", None))
        else:
            slots.append(("incomplete", None))
        t = t.element_type.get_canonical()
    const |= t.is_const_qualified()
    if t.kind == T.VOID:
        if len(slots) > 1:
            raise _Unsupported(f"parameter '{decl}' has type '{p.type.spelling}'")
        return Param(name, decl, "array", None, None, const)
    elem = _scalar_of(t)
    if elem is None:
        raise _Unsupported(f"parameter '{decl}' has type '{p.type.spelling}' (only pointers to and arrays of "
                           "numbers can be passed from Python)")
    if len(slots) == 1 and slots[0][0] in ("ptr", "incomplete"):
        return Param(name, decl, "array", elem, None, const)  # any shape
    from .frontend.codegen import size_expressions

    exprs = size_expressions(p)  # outermost first, also inside macro expansions
    n_vla = sum(k == "vla" for k, _ in slots)
    written = [i for i, (k, _) in enumerate(slots) if k in ("vla", "const")]
    vla = [i for i, (k, _) in enumerate(slots) if k == "vla"]
    bind = {}
    if len(exprs) == len(written):
        bind = dict(zip(written, exprs))
    elif len(exprs) == n_vla:
        bind = dict(zip(vla, exprs))
    dims = []
    for i, (k, v) in enumerate(slots):
        if k == "const":
            dims.append(("const", v))
        elif k == "vla" and i in bind:
            dims.append(_dim_tree(bind[i], names[:index]))
        else:
            dims.append(None)
    return Param(name, decl, "array", elem, dims, const)


_BINOPS = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "Rem": "%", "Shl": "<<", "Shr": ">>"}


def _dim_tree(e, earlier: list):
    """A VLA size expression as a tree over earlier parameters: ('const', v) | ('param', i) |
    ('bin', op, l, r) | ('neg', x); None when it is not computable from the arguments."""
    e = strip_implicit(e)
    if e.kind == K.DECL_REF_EXPR:
        r = e.referenced
        if r is not None and r.kind == K.PARM_DECL:
            return ("param", earlier.index(r.spelling)) if r.spelling in earlier else None
    v = evaluate(e)
    if isinstance(v, int):
        return ("const", v)
    if e.kind == K.BINARY_OPERATOR:
        op = _BINOPS.get(getattr(e.binary_operator, "name", ""))
        ch = children(e)
        if op and len(ch) == 2:
            left, right = _dim_tree(ch[0], earlier), _dim_tree(ch[1], earlier)
            return ("bin", op, left, right) if left is not None and right is not None else None
    if e.kind == K.UNARY_OPERATOR and unary_op(e) in ("-", "+"):
        ch = children(e)
        x = _dim_tree(ch[0], earlier) if len(ch) == 1 else None
        return None if x is None else (x if unary_op(e) == "+" else ("neg", x))
    return None


def _eval_dim(tree, args):
    """Value of a dim tree for the converted scalar arguments (C integer semantics), or None."""
    if tree is None:
        return None
    tag = tree[0]
    if tag == "const":
        return tree[1]
    if tag == "param":
        v = args[tree[1]]
        return int(v) if isinstance(v, (int, np.integer)) and not isinstance(v, bool) else None
    if tag == "neg":
        x = _eval_dim(tree[1], args)
        return None if x is None else -x
    a, b = _eval_dim(tree[2], args), _eval_dim(tree[3], args)
    if a is None or b is None:
        return None
    op = tree[1]
    if op in ("/", "%"):
        if b == 0:
            return None
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # C truncates toward zero
        return q if op == "/" else a - q * b
    if op in ("<<", ">>"):
        return None if b < 0 else (a << b if op == "<<" else a >> b)
    return {"+": a + b, "-": a - b, "*": a * b}[op]


# ------------------------------------------------------------------------------------------------ calling
class Function:
    """A compiled C function, callable with numpy arrays and Python scalars.

    Arguments (positional, or by C parameter name):

    * integer parameters (``int``, ``long``, ``unsigned``, ``char``, enums ...): a Python ``int`` or numpy integer
      in the C type's range (``bool`` for ``_Bool``); floats are refused.
    * ``float``/``double`` parameters: a Python ``int``/``float`` or numpy number.
    * pointer and array parameters: a numpy array, C-contiguous and aligned (never copied: the function may
      write into it), whose dtype is the element type's (``double`` float64, ``float`` float32, ``int`` int32,
      ``long`` int64, ``unsigned`` uint32, ``char`` int8/uint8, ``void *`` any); writable unless the pointee
      is ``const``; or ``None`` for a null pointer. Shapes: ``double *x`` / ``int v[]`` take any shape;
      ``double A[n][m]`` (VLA sizes from earlier integer parameters, literals or arithmetic on them) and
      ``double A[10][20]`` need exactly that shape, evaluated from the arguments of this call; a dimension that
      cannot be computed (``double (*A)[m]``'s first one) is free, but the number of dimensions is checked.

    Returns: the C result as a Python ``int``/``float``/``bool``, an address (``int``, or None for NULL) for a
    pointer result, or None for ``void``.

    Raises:
        TypeError: wrong number or names of arguments (the message shows the C declaration), an argument of the
            wrong kind (a float for an ``int``, a list for a pointer), an array dtype that is not the element
            type's, or a function whose signature the API cannot pass (structs by value, ``double **``, ...).
        ValueError: an integer out of the C type's range, an array of the wrong shape, a non-contiguous,
            misaligned, or (for a non-const pointee) read-only array.
    """

    def __init__(self, program: "Program", sig: Signature):
        self._program = program  # keeps the ExecutionEngine (and so the code) alive
        self._sig = sig
        self._cfunc = None
        self.__name__ = sig.name
        self.__qualname__ = sig.name
        self.__doc__ = f"{sig.decl}\n\n(compiled by polygeist_py; see polygeist_py.api.Function for the checks)"
        self.__signature__ = inspect.Signature(
            [inspect.Parameter(p.name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in sig.params])

    @property
    def name(self) -> str:
        return self._sig.name

    @property
    def signature(self) -> str:
        """The C declaration, e.g. ``"double dot(int n, const double *x, const double *y)"``."""
        return self._sig.decl

    @property
    def params(self) -> list:
        """The parameters as :class:`Param` records (name, C text, expected dtype and shape)."""
        return list(self._sig.params)

    def __repr__(self):
        return f"<compiled function {self._sig.decl}>"

    def _entry(self):
        if self._cfunc is None:
            addr = self._program._engine.raw_lookup(self._sig.name)
            if not addr:
                raise RuntimeError(f"'{self._sig.name}' was not found in the JIT-compiled code")
            self._cfunc = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(addr)
        return self._cfunc

    def __call__(self, *args, **kwargs):
        sig = self._sig
        if sig.unsupported:
            raise TypeError(f"{sig.decl}: cannot be called from Python: {sig.unsupported}")
        values = self._bind(args, kwargs)
        for i, p in enumerate(sig.params):  # scalars first: array shapes are computed from them
            if p.kind == "scalar":
                values[i] = self._scalar(p, values[i])
        cargs = [p.scalar.ctype(v) if p.kind == "scalar" else ctypes.c_void_p(self._array(p, v, values))
                 for p, v in zip(sig.params, values)]
        result = None
        if sig.ret == "pointer":
            result = ctypes.c_void_p()
        elif isinstance(sig.ret, Scalar):
            result = sig.ret.ctype()
        slots = cargs + ([result] if result is not None else [])
        packed = (ctypes.c_void_p * max(len(slots), 1))(*[ctypes.addressof(s) for s in slots])
        self._entry()(packed)
        if result is None:
            return None
        return result.value

    def _bind(self, args, kwargs) -> list:
        sig = self._sig
        n = len(sig.params)
        if len(args) > n:
            raise TypeError(f"{sig.name}() takes {n} argument{'s' * (n != 1)} but {len(args)} "
                            f"{'were' if len(args) != 1 else 'was'} given; C declaration: {sig.decl}")
        values = list(args) + [_MISSING] * (n - len(args))
        index = {p.name: i for i, p in enumerate(sig.params)}
        for k, v in kwargs.items():
            if k not in index:
                raise TypeError(f"{sig.name}() got an unexpected keyword argument '{k}'; C declaration: {sig.decl}")
            if values[index[k]] is not _MISSING:
                raise TypeError(f"{sig.name}() got multiple values for argument '{k}'; C declaration: {sig.decl}")
            values[index[k]] = v
        missing = [p.name for p, v in zip(sig.params, values) if v is _MISSING]
        if missing:
            raise TypeError(f"{sig.name}() takes {n} argument{'s' * (n != 1)} but {n - len(missing)} "
                            f"{'were' if n - len(missing) != 1 else 'was'} given (missing: {', '.join(missing)}); "
                            f"C declaration: {sig.decl}")
        return values

    def _where(self, p: Param) -> str:
        return f"{self._sig.name}(): argument '{p.name}' ({p.decl})"

    def _scalar(self, p: Param, v):
        s = p.scalar
        if isinstance(v, np.ndarray) and v.ndim == 0:
            v = v[()]
        if s.kind == "float":
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise TypeError(f"{self._where(p)} must be a real number, not {type(v).__name__}")
            return float(v)
        if s.kind == "bool":
            if not isinstance(v, (bool, np.bool_, int, np.integer)):
                raise TypeError(f"{self._where(p)} must be a bool or int, not {type(v).__name__}")
            return bool(v)
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{self._where(p)} must be an int, not {type(v).__name__}")
        v = int(v)
        lo, hi = s.range()
        if not lo <= v <= hi:
            raise ValueError(f"{self._where(p)}: {v} is out of range for C '{s.spelling}' [{lo}, {hi}]")
        return v

    def _array(self, p: Param, a, values) -> int | None:
        """Check array argument `a` for parameter `p`; its data address."""
        if a is None:
            return None
        if not isinstance(a, np.ndarray):
            raise TypeError(f"{self._where(p)} must be a numpy array (or None), not {type(a).__name__}")
        s = p.scalar
        if s is not None and a.dtype != s.dtype and a.dtype not in s.alt:
            raise TypeError(f"{self._where(p)} must have dtype {s.dtype} (C '{s.spelling}'), got {a.dtype}")
        if not a.flags.c_contiguous:
            raise ValueError(f"{self._where(p)} must be C-contiguous (it is passed by pointer and not copied); "
                             "use np.ascontiguousarray(x) and read results from that copy")
        if not a.flags.aligned:
            raise ValueError(f"{self._where(p)} must be aligned")
        if not a.flags.writeable and not p.const:
            raise ValueError(f"{self._where(p)} is read-only but the function may write into it "
                             "(the pointee is not const)")
        if p.dims is not None:
            want = [_eval_dim(d, values) for d in p.dims]
            if a.ndim != len(want) or any(w is not None and w != g for w, g in zip(want, a.shape)):
                shape = "(" + ", ".join("?" if w is None else str(w) for w in want) + ("," if len(want) == 1 else "") + ")"
                raise ValueError(f"{self._where(p)} must have shape {shape}, got {a.shape}")
        return a.ctypes.data


_MISSING = object()


class Program:
    """The result of :func:`compile`: MLIR texts and the JIT-compiled functions.

    Attributes:
        mlir: the frontend's structured MLIR (func/affine/scf/memref/arith/math), before any pass.
        lowered_mlir: the LLVM-dialect module the JIT compiles.
        stages: MLIR text after each stage: ``"mlir"``, ``"cleanup"``, ``"cpuify"``, ``"llvm-dialect"``.
        functions: names of the callable functions, in source order.

    ``prog.name(...)`` or ``prog["name"](...)`` calls a function (see :class:`Function` for the argument
    checks); ``prog["name"]`` also works for names that clash with these attributes. The JIT engine lives as
    long as the Program or any :class:`Function` taken from it.
    """

    def __init__(self, stages: dict, sigs: dict, context, module, engine, path: str, opt_level: int):
        self.stages = dict(stages)
        self._context = context  # the module and engine need their context alive
        self._module = module
        self._engine = engine
        self.path = path
        self.opt_level = opt_level
        self._funcs = {name: Function(self, sig) for name, sig in sigs.items()}

    @property
    def mlir(self) -> str:
        return self.stages["mlir"]

    @property
    def lowered_mlir(self) -> str:
        return self.stages["llvm-dialect"]

    @property
    def functions(self) -> tuple:
        return tuple(self._funcs)

    def signature(self, name: str) -> str:
        """The C declaration of function `name`."""
        return self[name].signature

    def __getitem__(self, name: str) -> Function:
        try:
            return self._funcs[name]
        except KeyError:
            raise KeyError(f"no function '{name}' in the program (functions: {', '.join(self._funcs) or 'none'})") from None

    def __getattr__(self, name: str) -> Function:
        funcs = self.__dict__.get("_funcs", {})
        if name in funcs:
            return funcs[name]
        raise AttributeError(f"Program has no function or attribute '{name}' "
                             f"(functions: {', '.join(funcs) or 'none'})")

    def __contains__(self, name) -> bool:
        return name in self._funcs

    def __iter__(self):
        return iter(self._funcs.values())

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._funcs))

    def __repr__(self):
        return f"<Program {self.path!r}: {', '.join(self._funcs) or 'no functions'}>"
