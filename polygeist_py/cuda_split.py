"""nvcc's compilation model for `pgcc x.cu --cpuify`: device code through pgcc, host code through the host C++
compiler.

nvcc never compiles host code itself: it splits a .cu file, compiles the device side, and hands the host side,
with every launch `k<<<g, b, s, st>>>(args)` replaced by "push the configuration, call the kernel's stub", to the
host compiler (clang's CUDA lowering does the same: Sema turns the launch into a call of
`__cudaPushCallConfiguration` and of the kernel, CodeGen/CGCUDANV.cpp emits the stub). pgcc follows it:

* **host side** (`host_source`): the file's own text, with each launch rewritten into
  `(__pgcc_push_call_configuration(g, b, s, st), k(args))`, the bodies of `__global__` and device-only functions
  removed (their declarations stay, so the host compiler mangles a call of `k` exactly as it mangles `k`), and
  device variables (`__device__`, `__constant__`, `__managed__`) turned into `extern` declarations of the
  variables the device object defines. The host compiler (`c++`) compiles it with pgcc's CUDA headers in host
  mode (`__PGCC_HOST_PASS__`), any C++ the program uses included.
* **device side** (`device_stubs`): for each kernel (every non-template kernel defined in the file, and every
  template specialization a launch in the file names), a host-callable stub appended to the source:
  it pops the configuration the host pushed and launches the kernel. The device walk starts from the stubs only
  (frontend/module.py, `device_only`), so kernels, `__device__` functions and device variables are all that
  pgcc compiles; cpuify turns each stub's launch into loops as before. Each stub is renamed to the kernel's
  Itanium mangled name (`cursor.mangled_name`, as the host compiler mangles the same declaration), so the host
  object's call of `k` lands in it. A launch whose block shape is a compile-time constant gets a branch of the
  stub specialized for that shape, keeping cpuify's optimizations for known launch shapes.
* the CUDA runtime API that host code calls (cudaMalloc, copies, events, streams, ...) comes from pgcc's small
  runtime library (runtime/pgcc_cuda_runtime.c), linked into every `--cpuify` program.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .clang_ast import (K, T, canonical, children, evaluate, has_attr, location_file_name, strip_implicit,
                        top_level_cursors, unary_op, var_decl_initializer)
from . import cuda_instantiations
from .errors import error_at
from .frontend.records import is_default_construction

CONFIG_CALLS = ("cudaConfigureCall", "__cudaPushCallConfiguration")
INTEGER_KINDS = (T.INT, T.UINT, T.LONG, T.ULONG, T.LONGLONG, T.ULONGLONG, T.SHORT, T.USHORT)
STUB_PREFIX = "__pgcc_stub_"
DEVICE_VAR_ATTRS = (K.CUDADEVICE_ATTR, K.CUDACONSTANT_ATTR, K.CUDASHARED_ATTR)
# header name prefixes of the CUDA toolkit's libraries, which need the toolkit (and a GPU): a program including
# one is an error naming the library rather than a missing header
TOOLKIT_LIBRARIES = (("thrust/", "thrust"), ("cub/", "cub"), ("cublas", "cuBLAS"), ("cufft", "cuFFT"),
                     ("curand", "cuRAND"), ("cusparse", "cuSPARSE"), ("cusolver", "cuSOLVER"), ("cudnn", "cuDNN"),
                     ("nccl", "NCCL"), ("npp", "NPP"), ("nvrtc", "NVRTC"), ("nvToolsExt", "NVTX"), ("nvtx3/", "NVTX"),
                     ("cuda/", "libcu++ (cuda/std)"), ("cutlass/", "CUTLASS"), ("cute/", "CUTLASS"),
                     ("cusparseLt", "cuSPARSELt"), ("cutensor", "cuTENSOR"), ("nvjpeg", "nvJPEG"))
MAX_SPECIALIZATIONS = 4  # branches of a stub (each a copy of the kernel) beside the generic launch


@dataclass(frozen=True)
class Specialization:
    """What a launch fixes at compile time: its block shape (x, y, z), its grid shape or None, and
    ((parameter index, value), ...) for its integer arguments that are constants (a problem size)."""
    block: tuple
    grid: tuple | None
    args: tuple


@dataclass
class Kernel:
    """A kernel (or one specialization of a kernel template) that gets a stub.

    Attributes:
        cursor: its FUNCTION_DECL (for a template, the specialization a launch references).
        symbol: the Itanium mangled name the host compiler gives the same declaration.
        shared: a template specialization, which other files may instantiate too: its stub is `weak_odr`, as
            C++ instantiations are.
        launches: the constant launch configurations seen at its launches in this file (Specialization), at
            most MAX_SPECIALIZATIONS.
    """
    cursor: object
    symbol: str
    launches: list = field(default_factory=list)

    @property
    def shared(self) -> bool:
        return self.cursor.get_num_template_arguments() > 0

    @property
    def internal(self) -> bool:
        """A `static` kernel or one in an anonymous namespace: internal linkage, as nvcc gives it (its stub is
        made a local symbol of the file's object once the host object's call of it is bound,
        host_compiler.join_objects)."""
        return self.cursor.storage_class == self.cursor.storage_class.STATIC or _in_anonymous_namespace(self.cursor)


_SPACED_OPEN = re.compile(r"(?<!<)<<[ \t]+<(?!<)")
_SPACED_CLOSE = re.compile(r">>[ \t]*>")


def spaced_launch_brackets(text: str) -> str:
    """`k << < g, b >> > (args)` (nvcc accepts the launch brackets with blanks inside them; Rodinia's
    particlefilter writes them so) as `k <<<  g, b >>>  (args)`, which clang parses: every blank moves after
    the bracket, so the text keeps its length and every line and column stays where it was. `<< <` is no other
    C++ construct; the first `>>` `>` after it closes the configuration."""
    out, pos = [], 0
    for m in _SPACED_OPEN.finditer(text):
        if m.start() < pos:
            continue
        close = _SPACED_CLOSE.search(text, m.end())
        if close is None:
            break
        blanks = " " * (m.end() - m.start() - 3)
        out += [text[pos:m.start()], "<<<", blanks, text[m.end():close.start()],
                ">>>", " " * (close.end() - close.start() - 3)]
        pos = close.end()
    return "".join(out) + text[pos:] if out else text


def toolkit_library(header: str) -> str | None:
    """The CUDA toolkit library that header name `header` (as written in `#include <...>`) belongs to
    (`thrust/device_vector.h` -> 'thrust', `cublas_v2.h` -> 'cuBLAS'), else None."""
    for prefix, name in TOOLKIT_LIBRARIES:
        if header.startswith(prefix):
            return name
    return None


def is_launch(c) -> bool:
    """Whether CALL_EXPR `c` is a launch `k<<<...>>>(...)` (clang shows the configuration as a call child)."""
    ch = children(c)
    return len(ch) >= 2 and ch[1].kind == K.CALL_EXPR and ch[1].spelling in CONFIG_CALLS


API_LAUNCHES = ("cudaLaunchKernel", "cudaLaunchCooperativeKernel")
_VOID_POINTER_CAST = re.compile(rb"\s*(\(\s*(?:const\s+)?void\s*(?:const\s*)?\*\s*\)|(?:reinterpret_cast|static_cast)"
                                rb"\s*<\s*(?:const\s+)?void\s*(?:const\s*)?\*\s*>)?[\s(&]*")


def is_api_launch(c) -> bool:
    """Whether CALL_EXPR `c` launches through the runtime API: `cudaLaunchKernel((void *)k, grid, block, args)`
    or `cudaLaunchCooperativeKernel(...)` (the host side calls k's stub with the unpacked arguments)."""
    return c.kind == K.CALL_EXPR and c.spelling in API_LAUNCHES and not is_launch(c)


def api_launched_kernel(call):
    """The DECL_REF_EXPR naming the kernel that runtime-API launch `call` launches, under casts to `void *`.

    Raises:
        CompileError: the kernel is not named there (a pointer held in a variable): the host side could not
            call its stub with the unpacked arguments.
    """
    args = list(call.get_arguments())
    e = args[0] if args else call
    while e.kind in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR, K.PAREN_EXPR, K.CXX_STATIC_CAST_EXPR,
                     K.CXX_REINTERPRET_CAST_EXPR) or e.kind == K.UNARY_OPERATOR and unary_op(e) == "&":
        ch = [c for c in children(e) if c.kind.is_expression()]
        if not ch:
            break
        e = ch[-1]
    r = e.referenced if e.kind == K.DECL_REF_EXPR else None
    if r is None or r.kind != K.FUNCTION_DECL or not has_attr(r, K.CUDAGLOBAL_ATTR):
        raise error_at(args[0] if args else call, f"unsupported construct: {call.spelling} of a kernel that is not "
                                                   "named in the call (a pointer variable); pass the kernel itself")
    return e


def _spelling_offset(location, path):
    """The byte offset in file `path` where `location` is spelled (a macro argument's own text, `CHECK(f(x))`),
    or None when it is spelled elsewhere (inside a macro's definition)."""
    import ctypes

    from .clang_ast import _lib
    import clang.cindex as ci
    f, line, col, off = ctypes.c_void_p(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    _lib.clang_getSpellingLocation(location, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col),
                                   ctypes.byref(off))
    if not f.value or ci._CXString.from_result(_lib.clang_getFileName(f.value)) != path:
        return None
    return off.value


def _uncast_kernel_edit(call, path, text: bytes):
    """The edit that removes the `(void *)` cast (or `reinterpret_cast<void *>`) of the kernel argument of
    runtime-API launch `call`, so that the host pass's template `cudaLaunchKernel(void (*)(P...), ...)` sees the
    kernel's parameter types.

    Raises:
        CompileError: the kernel is not named in the call, or the cast is not one of those forms."""
    ref = api_launched_kernel(call)
    arg = list(call.get_arguments())[0]
    s, r = _spelling_offset(arg.extent.start, path), _spelling_offset(ref.extent.start, path)
    m = None if s is None or r is None or r < s else _VOID_POINTER_CAST.fullmatch(text[s:r])
    if m is None:
        raise error_at(arg, f"unsupported construct: the kernel argument of {call.spelling} written other than as "
                            "the kernel's name, optionally cast to 'void *'")
    return (s, s + m.end(1), b" " * (m.end(1) - s)) if m.group(1) else None


def host_symbol(kernel) -> str:
    """The mangled name of kernel declaration `kernel` as the host compiler spells it. Under
    ``--cuda-host-only`` clang mangles a kernel as its host stub (`_Z22__device_stub__kPf`); the declaration the
    host compiler sees is the plain function (`_Z1kPf`)."""
    name = kernel.mangled_name or kernel.spelling
    sp = kernel.spelling  # (the source name's length prefix: `_GLOBAL__N_1` before it ends in a digit too)
    name = name.replace(f"{len(sp) + len('__device_stub__')}__device_stub__{sp}", f"{len(sp)}{sp}", 1)
    # a static kernel mangles with internal linkage (_ZL...); its host declaration loses `static` (host_source)
    return "_Z" + name[3:] if name.startswith("_ZL") else name


def variable_symbol(d) -> str:
    """The name the host compiler gives device variable `d` once host_source has made it `extern`: C++ mangles
    a variable only inside a namespace (`app::counter`: _ZN3app7counterE), and a `static` one with internal
    linkage (_ZL.../_ZN...L...), which the host's `extern` declaration drops."""
    name = d.mangled_name or d.spelling
    if name.startswith("_ZL") and name.endswith(f"{len(d.spelling)}{d.spelling}"):
        return d.spelling  # a static variable of the global namespace
    return re.sub(rf"L(?={len(d.spelling)}{re.escape(d.spelling)}E$)", "", name)


def internal_symbols(tu, path: str, kernels_: list) -> tuple:
    """The symbols of file `path` that C++ gives internal linkage but that the host and device objects share, so
    the host side drops `static` (host_source): the stubs of `static` kernels and the `static` device variables
    defined in the file. host_compiler.join_objects makes them local to the file's object, as nvcc keeps them."""
    out = [k.symbol for k in kernels_ if k.internal]

    def visit(cursors):
        for c in cursors:
            if not _in_file(c, path):
                continue
            if c.kind == K.NAMESPACE:
                visit(c.get_children())
            elif c.kind == K.VAR_DECL and is_device_variable(c) and (c.storage_class == c.storage_class.STATIC or
                                                                      _in_anonymous_namespace(c)):
                out.append(variable_symbol(c))

    visit(top_level_in(tu, path))
    return tuple(dict.fromkeys(out))


def _in_anonymous_namespace(c) -> bool:
    p = c.semantic_parent
    while p is not None and p.kind == K.NAMESPACE:
        if not p.spelling:
            return True
        p = p.semantic_parent
    return False


def is_device_only(c) -> bool:
    """A function that exists only on the device: `__global__`, or `__device__` without `__host__`."""
    return has_attr(c, K.CUDAGLOBAL_ATTR) or (has_attr(c, K.CUDADEVICE_ATTR) and not has_attr(c, K.CUDAHOST_ATTR))


def is_device_variable(c) -> bool:
    """A file- or namespace-scope `__device__`, `__constant__` or `__shared__` variable (`__managed__` is
    `__device__` to clang)."""
    return (any(has_attr(c, a) for a in DEVICE_VAR_ATTRS) and c.semantic_parent is not None
            and c.semantic_parent.kind in (K.TRANSLATION_UNIT, K.NAMESPACE))


def _in_file(c, path) -> bool:
    name = location_file_name(c, c.translation_unit)
    return name is not None and name == path


def _top_level(tu) -> list:
    """[(cursor, file name or None)] of the unit's top-level declarations, computed once per unit: the passes of
    this module each walk them, and the CUDA headers bring thousands (asking libclang for every cursor's file in
    every pass took a third of the time of compiling a small .cu file)."""
    got = getattr(tu, "_pgcc_top_level_files", None)
    if got is None:
        got = []
        for d in top_level_cursors(tu):
            got.append((d, location_file_name(d, tu)))
        tu._pgcc_top_level_files = got
    return got


def top_level_in(tu, path: str) -> list:
    """The top-level declarations of `tu` written in file `path` (those for which _in_file holds)."""
    return [d for d, name in _top_level(tu) if name == path]


SYSTEM_PREFIXES = ("/usr/", "/lib", "/opt/", "/etc/")


def program_headers(tu, path: str) -> list:
    """The headers of the program itself that .cu file `path` includes, directly or not (not the system's or
    the C++ library's, nor pgcc's CUDA headers), as the paths clang opened: a kernel or device function
    defined in one (`#include "kernels.h"`) needs its body removed from the host side as in the file itself."""
    import os
    import sys

    from .toolchain import cuda_include_dir
    own = os.path.dirname(cuda_include_dir())
    system = SYSTEM_PREFIXES + (own, sys.prefix, sys.base_prefix)
    out = []
    for inc in tu.get_includes():
        name = inc.include.name
        real = os.path.realpath(name)
        if name != path and name not in out and not real.startswith(system):
            out.append(name)
    return out


def _in_program(c, files) -> bool:
    """Whether cursor `c` is written in one of `files` (the .cu file and its program headers)."""
    name = location_file_name(c, c.translation_unit)
    return name is not None and name in files


TEMPLATE_KINDS = (K.FUNCTION_TEMPLATE, K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION)


def find_launches(tu, path: str) -> list:
    """Every launch (CALL_EXPR) written in file `path` of translation unit `tu` or in its program headers
    (program_headers), in source order: the text the host side rewrites (inside templates too, once for all
    their instantiations); runtime-API launches (is_api_launch) included."""
    found = []
    files = {path, *program_headers(tu, path)}

    def visit(c):
        for ch in c.get_children():
            if ch.kind == K.CALL_EXPR and (is_launch(ch) or is_api_launch(ch)):
                found.append(ch)
            visit(ch)

    for d in tu.cursor.get_children():
        if _in_program(d, files):
            visit(d)
    return found


def instantiated_launches(tu, path: str) -> list:
    """The launches that run, with concrete kernels: those outside templates, and those in the instantiated
    bodies of the host function templates that calls or references (`&run<float>`, cuda_instantiations'
    probes) reach (libclang shows a referenced specialization's FUNCTION_DECL with its instantiated body),
    followed transitively; in `path` and its program headers. Returns [(launch, enclosing function)]."""
    found, seen = [], set()
    files = {path, *program_headers(tu, path)}

    def visit(c, in_template, function):
        for ch in c.get_children():
            if ch.kind in (K.CALL_EXPR, K.DECL_REF_EXPR):
                if ch.kind == K.CALL_EXPR and (is_launch(ch) or is_api_launch(ch)) and not in_template:
                    found.append((ch, function))
                callee = ch.referenced
                if callee is not None and callee.kind == K.FUNCTION_DECL and callee.get_num_template_arguments() > 0 \
                        and not is_device_only(callee) and _in_program(callee, files):
                    key = callee.mangled_name or callee.displayname
                    if key not in seen:  # a host template's specialization: its instantiated body
                        seen.add(key)
                        visit(callee, False, callee)
            inner = ch if ch.kind in (K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.FUNCTION_TEMPLATE) else function
            visit(ch, in_template or ch.kind in TEMPLATE_KINDS, inner)

    for d in tu.cursor.get_children():
        if _in_program(d, files):
            visit(d, d.kind in TEMPLATE_KINDS, d)
    return found


def kernels(tu, path: str, launches: list, unit=None) -> list:
    """The kernels that get stubs: non-template kernels defined in `path`, the kernel (specialization) each
    launch of `launches` ([(launch, enclosing function)], instantiated_launches) names, and the kernels whose
    address host code takes in `unit` (cuda_instantiations.analysis_unit: also the explicit instantiations of
    kernel templates, `template __global__ void k<float>(float *, int);`, for launches in other files); with
    the constant block shapes of their launches.

    Raises:
        CompileError: a launch through a function pointer.
    """
    out: dict[str, Kernel] = {}

    def add(cursor):
        sym = host_symbol(cursor)
        if sym not in out:
            out[sym] = Kernel(cursor, sym)
        return out[sym]

    for d, name in _top_level(tu):
        items = children(d) if d.kind == K.LINKAGE_SPEC else [d] if name == path else []
        for c in items:
            if c.kind == K.FUNCTION_DECL and (c is d or _in_file(c, path)) and has_attr(c, K.CUDAGLOBAL_ATTR) \
                    and c.is_definition():
                add(c)
    for call, function in launches:
        if is_api_launch(call):  # cudaLaunchCooperativeKernel((void *)k, ...): k gets a stub, for any shape
            k = api_launched_kernel(call).referenced
            if k.get_definition() is not None:
                add(k)
            continue
        k = call.referenced
        if k is not None and k.kind in (K.VAR_DECL, K.PARM_DECL, K.FIELD_DECL):
            continue  # `kernel<<<g, b>>>(...)` through a pointer: it points to a stub of address_taken_kernels
        if k is None or k.kind != K.FUNCTION_DECL:
            raise error_at(call, "unsupported construct: launch through an expression that is not a kernel "
                                 "or a pointer variable")
        for a in call.get_arguments():
            if canonical(a.type).get_declaration().spelling.startswith("(lambda at "):
                raise error_at(a, "unsupported construct: a lambda passed to a kernel (nvcc's --extended-lambda); "
                                  "pass a struct with an operator() instead")
        if k.get_definition() is None:
            continue  # defined in another file, whose device object has the stub
        kern = add(k)
        spec = specialization(call, k, function)
        if spec is not None and spec not in kern.launches and len(kern.launches) < MAX_SPECIALIZATIONS:
            kern.launches.append(spec)
    for k in address_taken_kernels(unit or tu, path):
        add(k)
    return list(out.values())


def address_taken_kernels(tu, path: str) -> list:
    """The kernels (defined in the unit) whose address host code in `path` or its program headers takes
    (`void (*kernel)(float *, int) = &copy;`, a table of kernels): a launch through such a pointer calls the
    kernel's host-side declaration, that is its stub, so each needs one whatever the launches name."""
    files = {path, *program_headers(tu, path)}
    found = []

    def visit(c, callee_of_launch):
        for ch in c.get_children():
            if ch.kind == K.DECL_REF_EXPR and ch is not callee_of_launch:
                r = ch.referenced
                if r is not None and r.kind == K.FUNCTION_DECL and has_attr(r, K.CUDAGLOBAL_ATTR) \
                        and r.get_definition() is not None:
                    found.append(r.get_definition())
            if ch.kind in (K.FUNCTION_DECL, K.CXX_METHOD, K.FUNCTION_TEMPLATE) and is_device_only(ch):
                continue  # (device code's own references are not the host's pointers)
            visit(ch, None)

    for d in tu.cursor.get_children():
        if _in_program(d, files) and not (d.kind == K.FUNCTION_DECL and is_device_only(d)):
            visit(d, None)
    return found


def specialization(call, kernel, function):
    """The Specialization of launch `call` of `kernel` inside `function`, or None when its block shape is not a
    compile-time constant."""
    config = list(children(call)[1].get_arguments())
    block = constant_shape(config[1], function)
    if block is None:
        return None
    args = []
    for i, (param, arg) in enumerate(zip(kernel.get_arguments(), call.get_arguments())):
        v = evaluate(strip_implicit(arg))
        if canonical(param.type).kind in INTEGER_KINDS and isinstance(v, int) and not isinstance(v, bool):
            args.append((i, v))
    return Specialization(block, constant_shape(config[0], function), tuple(args))


def constant_shape(e, function=None):
    """(x, y, z) of a launch's block argument when it is a compile-time constant (`256`, `dim3(16, 16)`, or a
    variable of `function` initialized so, `dim3 block(BLOCK, BLOCK);`, that the function never assigns or
    lets escape), else None (a value known only at run time)."""
    e = strip_implicit(e)
    v = evaluate(e)
    if isinstance(v, int):
        return (v, 1, 1)
    parts = [strip_implicit(a) for a in children(e)]
    while len(parts) == 1 and children(parts[0]) and evaluate(parts[0]) is None:
        if parts[0].kind == K.DECL_REF_EXPR:
            break
        parts = [strip_implicit(a) for a in children(parts[0])]
    if len(parts) == 1 and parts[0].kind == K.DECL_REF_EXPR:
        return _constant_variable(parts[0].referenced, function)
    if e.kind == K.DECL_REF_EXPR:
        return _constant_variable(e.referenced, function)
    vals = [evaluate(p) for p in parts]
    if e.kind in (K.CALL_EXPR, K.UNEXPOSED_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR) and 1 <= len(vals) <= 3 \
            and all(isinstance(v, int) for v in vals):
        return tuple(vals) + (1,) * (3 - len(vals))
    return None


def _constant_variable(var, function):
    """The constant shape a local variable of `function` holds throughout it, else None."""
    from .frontend.scan import assigned_decls, decl_key

    if var is None or var.kind != K.VAR_DECL or function is None:
        return None
    init = var_decl_initializer(var)
    body = [c for c in function.get_children() if c.kind == K.COMPOUND_STMT]
    if init is None or not body or decl_key(var) in assigned_decls(body) or _escapes(var, body[0]):
        return None
    return constant_shape(init)


def _escapes(var, body) -> bool:
    """Whether `body` takes the address of `var` or binds it to a reference through which it may change (a
    non-const reference parameter); binding to `const T &` (a dim3 copy) only reads it."""
    def refers(e):
        e = strip_implicit(e)
        return e.kind == K.DECL_REF_EXPR and e.referenced is not None and e.referenced == var

    def visit(c):
        if c.kind == K.UNARY_OPERATOR and unary_op(c) == "&" and refers(children(c)[0]):
            return True
        if c.kind == K.CALL_EXPR and c.referenced is not None:
            params = list(c.referenced.get_arguments())
            for p, a in zip(params, c.get_arguments()):
                t = p.type
                if t.kind == T.LVALUEREFERENCE and not t.get_pointee().is_const_qualified() and refers(a):
                    return True
        return any(visit(ch) for ch in c.get_children())

    return visit(body)


# ---------------------------------------------------------------- host side
def host_source(tu, path: str, text: bytes, launches: list, headers: dict | None = None) -> str:
    """The host half of .cu file `path` (its bytes `text`): launches rewritten into configuration pushes and
    kernel calls, device-only function bodies removed, device variables made `extern` declarations.

    Args:
        headers: when given, receives the host text of each program header of `path` (program_headers),
            rewritten the same way, {header path: text}; host_compiler.compile_host puts them where the host
            file's `#include "..."` finds them first.
    Raises:
        CompileError: a launch or a device definition written inside a macro expansion (its text is not in
            the file).
    """
    files = [path] + (program_headers(tu, path) if headers is not None else [])
    edits_of = {f: [] for f in files}  # file -> [(start, end, replacement) byte ranges of its text]

    def extent(c):
        return c.extent.start.offset, c.extent.end.offset

    texts = {path: text}
    for f in files[1:]:
        with open(f, "rb") as fh:
            texts[f] = fh.read()
    for call in launches:
        where = call.location.file.name if call.location.file is not None else None
        if where not in edits_of:
            raise error_at(call, "unsupported construct: kernel launch written inside a macro")
        edits, ftext = edits_of[where], texts[where]
        if is_api_launch(call):
            edit = _uncast_kernel_edit(call, where, ftext)
            if edit is not None:
                edits.append(edit)
            continue
        s, e = extent(call)
        seg = ftext[s:e]
        i, j = seg.find(b"<<<"), seg.find(b">>>")
        if i < 0 or j < i:  # written in a macro's argument or definition
            arg_edits = _macro_argument_launch_edits(ftext, s)
            if arg_edits:  # (the launch's cursors of each instantiation name the same invocation)
                edits.extend(ed for ed in arg_edits if ed not in edits)
                continue
            if not any(b"<<<" in body for body in _macro_bodies(texts)):  # rewritten there (_macro_launch_edits)
                raise error_at(call, "unsupported construct: kernel launch whose `<<<` is not in the program's text")
            continue
        edits.append((s, e, b"(__pgcc_push_call_configuration(" + seg[i + 3:j] + b"), " + seg[:i] + seg[j + 3:]
                      + b")"))
    for f in files:
        edits_of[f].extend(_macro_launch_edits(texts[f]))
        edits_of[f].extend(_macro_device_body_edits(texts[f]))
    templates = set()  # the kernel templates of the program, whose explicit instantiations the host declares

    def kernel_templates(cursors):
        for c in cursors:
            if c.kind == K.NAMESPACE and _in_program(c, edits_of):
                kernel_templates(c.get_children())
            elif c.kind == K.FUNCTION_TEMPLATE and has_attr(c, K.CUDAGLOBAL_ATTR):
                templates.add(c.spelling)

    if b"template" in text:
        kernel_templates(tu.cursor.get_children())
        edits_of[path].extend(cuda_instantiations.kernel_instantiation_edits(tu, path, templates))

    def visit_decls(cursors):
        for c in cursors:
            if not _in_program(c, edits_of):
                continue
            edits, text = edits_of[c.location.file.name], texts[c.location.file.name]
            if c.kind in (K.NAMESPACE, K.LINKAGE_SPEC):
                visit_decls(c.get_children())
            elif c.kind in (K.STRUCT_DECL, K.CLASS_DECL, K.CLASS_TEMPLATE):
                visit_decls(c.get_children())
            elif c.kind in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD) and c.is_definition() \
                    and is_device_only(c):
                body = next((ch for ch in c.get_children() if ch.kind == K.COMPOUND_STMT), None)
                if body is not None and text[extent(body)[0]:extent(body)[0] + 1] != b"{":
                    continue  # defined by a macro's expansion: removed in its definition (_macro_device_body_edits)
                if body is not None:
                    edits.append((*extent(body), b";"))
                    if c.kind != K.CXX_METHOD and c.storage_class == c.storage_class.STATIC:
                        edits.append(_static_keyword(c, text))
            elif c.kind == K.VAR_DECL and is_device_variable(c) and c.storage_class != c.storage_class.EXTERN:
                edits.extend(e for e in _extern_variable(c, text) if e not in edits)  # `int a, b;`: one extern

    visit_decls(tu.cursor.get_children())
    _kernel_handle_edits(tu, edits_of, texts, launches)
    for f in files[1:]:
        headers[f] = _apply_edits(texts[f], edits_of[f])
    return _apply_edits(text, edits_of[path])


_CASTS = (K.CSTYLE_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR, K.CXX_STATIC_CAST_EXPR)


def _kernel_handle_edits(tu, edits_of: dict, texts: dict, launches: list):
    """Add to `edits_of` ({file: edits}) the edits that turn each `(void *)kernel` of host code (outside runtime-API
    launches, whose casts are removed) into `__pgcc_kernel_handle(kernel)`: the same pointer (the kernel's stub),
    registered with the runtime together with a function that calls it with an array of arguments, which a CUDA
    graph's kernel node (`cudaKernelNodeParams.func`) needs to launch it (pgcc_cuda_graph.h)."""
    skip = [(c.location.file.name, c.extent.start.offset, c.extent.end.offset) for c in launches
            if c.location.file is not None]

    def kernel_of(e):
        while e is not None and (e.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR) or e.kind == K.UNARY_OPERATOR and
                                 [t.spelling for t in e.get_tokens()][:1] == ["&"]):
            ch = [x for x in children(e) if x.kind.is_expression()]
            e = ch[0] if len(ch) == 1 else None
        r = e.referenced if e is not None and e.kind == K.DECL_REF_EXPR else None
        return r if r is not None and r.kind == K.FUNCTION_DECL and has_attr(r, K.CUDAGLOBAL_ATTR) else None

    def visit(c, where):
        for ch in c.get_children():
            if ch.kind in (K.FUNCTION_DECL, K.CXX_METHOD, K.FUNCTION_TEMPLATE) and is_device_only(ch):
                continue
            if ch.kind in _CASTS:
                ty = canonical(ch.type)
                operand = [x for x in children(ch) if x.kind.is_expression()]
                if ty.kind == T.POINTER and ty.get_pointee().kind == T.VOID and len(operand) == 1 and \
                        kernel_of(operand[0]) is not None and ch.location.file is not None and \
                        ch.location.file.name == where:
                    s, r, e = ch.extent.start.offset, operand[0].extent.start.offset, ch.extent.end.offset
                    m = _VOID_POINTER_CAST.fullmatch(texts[where][s:r]) if s < r <= e else None
                    if m is not None and m.group(1) and not any(f == where and a <= s < b for f, a, b in skip):
                        # (the cast's own text replaced; the parentheses and `&` after it stay)
                        edits_of[where] += [(s, s + m.end(1), b"__pgcc_kernel_handle("), (e, e, b")")]
                        continue
            visit(ch, where)

    for d in tu.cursor.get_children():
        if _in_program(d, edits_of) and not (d.kind in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE) and is_device_only(d)):
            visit(d, d.location.file.name)


DEFINE = re.compile(rb"^[ \t]*#[ \t]*define\b.*?(?<!\\)$", re.M | re.S)


def _macro_bodies(texts: dict) -> list:
    """The `#define` directives (continuation lines included) of the files' texts ({path: bytes})."""
    return [m.group(0) for t in texts.values() for m in DEFINE.finditer(t)]


def _macro_launch_edits(text: bytes) -> list:
    """Edits rewriting each launch `k<<<cfg>>>(args)` written in a macro definition of `text` into
    `__pgcc_push_call_configuration(cfg), k(args)`: the expansion is not in the file, but the definition is,
    and its text is C++ once the launch is spelled as a call (the kernel `k`, a name with template arguments
    or a macro parameter, is found by scanning back from `<<<`; a launch is a statement, so the comma operator
    needs no parentheses, which would leave a template's name without a type to resolve). Line breaks stay
    where they were."""
    edits = []
    for m in DEFINE.finditer(text):
        at = m.start()
        while True:
            i = text.find(b"<<<", at, m.end())
            if i < 0:
                break
            j = text.find(b">>>", i + 3, m.end())
            if j < 0:
                break
            k = i
            while k > m.start() and text[k - 1:k] in b" \t\\\n":
                k -= 1
            if text[k - 1:k] == b">":  # template arguments: back to the matching '<'
                depth = 0
                while k > m.start():
                    k -= 1
                    c = text[k:k + 1]
                    depth += c == b">"
                    depth -= c == b"<"
                    if depth == 0:
                        break
            while k > m.start() and (text[k - 1:k].isalnum() or text[k - 1:k] in b"_:"):
                k -= 1
            edits.append((k, j + 3, b"__pgcc_push_call_configuration(" + text[i + 3:j] + b"), "
                          + text[k:i].rstrip()))
            at = j + 3
    return edits


def _balanced_end(text: bytes, open_at: int) -> int:
    """The offset just past the `)` matching the `(` at `open_at` (string and character literals skipped), or -1."""
    depth, k, n = 0, open_at, len(text)
    while k < n:
        c = text[k:k + 1]
        if c in b"\"'":
            k += 1
            while k < n and text[k:k + 1] != c:
                k += 2 if text[k:k + 1] == b"\\" else 1
        elif c == b"(":
            depth += 1
        elif c == b")":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return -1


def _macro_argument_launch_edits(text: bytes, at: int) -> list:
    """Edits rewriting each launch `k<<<cfg>>>(args)` written in the arguments of the macro invocation that
    starts at offset `at` of `text` (`DISPATCH(n, N, [&] { kernel<N><<<grid, block>>>(out, in); })`, HeCBench
    geglu) into `(__pgcc_push_call_configuration(cfg), k(args))`: libclang places such a launch at the
    invocation, whose text holds the launch as written. The parentheses keep the comma inside one macro
    argument. Empty when the invocation's text has no launch (the launch is in the macro's definition)."""
    name = re.match(rb"[A-Za-z_]\w*\s*", text[at:])
    if name is None or text[at + name.end():at + name.end() + 1] != b"(":
        return []
    end = _balanced_end(text, at + name.end())
    edits, pos = [], at
    while end > 0:
        i = text.find(b"<<<", pos, end)
        j = text.find(b">>>", i + 3, end) if i >= 0 else -1
        if i < 0 or j < 0:
            break
        k = i
        while k > at and text[k - 1:k] in b" \t\n":
            k -= 1
        if text[k - 1:k] == b">":  # template arguments: back to the matching '<'
            depth = 0
            while k > at:
                k -= 1
                depth += text[k:k + 1] == b">"
                depth -= text[k:k + 1] == b"<"
                if depth == 0:
                    break
        while k > at and (text[k - 1:k].isalnum() or text[k - 1:k] in b"_:"):
            k -= 1
        paren = j + 3
        while paren < end and text[paren:paren + 1] in b" \t\n":
            paren += 1
        args_end = _balanced_end(text, paren) if text[paren:paren + 1] == b"(" else -1
        if args_end < 0:
            break
        edits.append((k, args_end, b"(__pgcc_push_call_configuration(" + text[i + 3:j] + b"), "
                      + text[k:i].rstrip() + text[paren:args_end] + b")"))
        pos = args_end
    return edits


DEVICE_ONLY_WORDS = re.compile(rb"\b__(global|device)__\b")


def _macro_device_body_edits(text: bytes) -> list:
    """Edits removing, in each macro definition of `text`, the bodies of the device-only functions it defines
    (`#define MASK_KERNEL(NAME, F) template <typename T> __global__ void NAME(...) { ... }`): the host half
    keeps their declarations, as host_source does for functions written in the file; their expansion is not
    in the file, so the definition is edited. A `__host__ __device__` function and a `__device__` lambda
    (`[=] __device__ (int i) {...}`) keep their bodies. Each removed body leaves its line continuations, so
    the macro and the lines after it keep their numbers."""
    edits = []
    for m in DEFINE.finditer(text):
        end, at = m.end(), m.start()
        for w in DEVICE_ONLY_WORDS.finditer(text, m.start(), end):
            if w.start() < at:
                continue  # inside a body removed already
            head_start = max(text.rfind(b";", m.start(), w.start()), text.rfind(b"}", m.start(), w.start()),
                         text.rfind(b"define", m.start(), w.start()))
            paren = text.find(b"(", w.end(), end)
            if b"__host__" in text[head_start:paren if paren >= 0 else end] \
                    or text[head_start:w.start()].rstrip(b" \t\\\n").endswith(b"]"):
                continue  # a __host__ __device__ function, or a lambda
            stop = text.find(b";", w.end(), end)
            if paren < 0 or 0 <= stop < paren or not re.search(rb"[A-Za-z_]\w*[ \t\\\n]*$", text[w.end():paren]):
                continue  # a variable, or a lambda
            close = _matching(text, paren, end, b"(", b")")
            brace = close + 1 if close >= 0 else -1
            while 0 <= brace < end and text[brace:brace + 1] in b" \t\\\n":
                brace += 1
            if brace < 0 or text[brace:brace + 1] != b"{":
                continue  # a declaration
            last = _matching(text, brace, end, b"{", b"}")
            if last < 0:
                continue
            edits.append((brace, last + 1, b";" + b" \\\n" * text.count(b"\n", brace, last + 1)))
            at = last + 1
    return edits


def _matching(text: bytes, start: int, end: int, open_: bytes, close: bytes) -> int:
    """The offset of the bracket closing the one at `start` in text[:end], or -1."""
    depth = 0
    for k in range(start, end):
        c = text[k:k + 1]
        depth += c == open_
        depth -= c == close
        if depth == 0:
            return k
    return -1


def _apply_edits(text: bytes, edits: list) -> str:
    """`text` with the (start, end, replacement) byte-range `edits` applied, keeping every line where it was."""
    edits.sort()
    out, at = [], 0
    for s, e, new in edits:
        if s < at:
            continue  # inside a removed body (a launch in a device function)
        lost = text.count(b"\n", s, e) - new.count(b"\n")
        out += [text[at:s], new + b"\n" * max(lost, 0)]  # same line numbers for the host compiler's messages
        at = e
    out.append(text[at:])
    return b"".join(out).decode("utf-8", errors="surrogateescape")


STATIC_WORD = re.compile(rb"(?<![\w$])static(?![\w$])")


def _static_keyword(c, text: bytes):
    """The edit that deletes `static` before a kernel's name: its host declaration must name the stub that
    the device object defines (external).

    libclang gives no tokens for some declarations that start with a macro (`__device__ void static f(...)`,
    Rodinia's huffman): then `static` is looked for in the file's text between the declaration's start and its
    name. Raises CompileError when it is in neither (written inside a macro's expansion)."""
    for tok in c.get_tokens():
        if tok.spelling == "static":
            s, e = tok.extent.start.offset, tok.extent.end.offset
            return (s, e, b" " * (e - s))
        if tok.spelling == c.spelling:
            break
    start, name = c.extent.start, c.location
    if start.file is not None and name.file is not None and start.file.name == name.file.name \
            and start.offset < name.offset:
        m = STATIC_WORD.search(text, start.offset, name.offset)
        if m is not None:
            return (m.start(), m.end(), b" " * (m.end() - m.start()))
    raise error_at(c, "unsupported construct: 'static' kernel declared through a macro")


def _extern_variable(c, text: bytes):
    """Edits making device variable `c` an `extern` declaration (no initializer, no `static`)."""
    s, e = c.extent.start.offset, c.extent.end.offset
    edits = [(s, s, b"extern ")]
    if c.storage_class == c.storage_class.STATIC:
        edits[0] = _static_keyword(c, text)
        edits[0] = (edits[0][0], edits[0][1], b"extern")
    init = var_decl_initializer(c)
    if init is not None and not is_default_construction(init, c.type):  # (`float2 v[4];` has none written)
        eq = text.rfind(b"=", s, init.extent.start.offset)
        cut = eq if eq >= 0 else init.extent.start.offset  # `T v{...}`: the braces go
        edits.append((cut, max(e, init.extent.end.offset), b""))
    return edits


# ---------------------------------------------------------------- extended lambdas
def _launched_lambda(arg):
    """The LAMBDA_EXPR whose closure launch argument `arg` passes: the lambda written there, or the initializer
    of the local variable it names (`auto f = [=] __device__ (int i) {...}; k<<<g, b>>>(f)`); else None."""
    for c in arg.walk_preorder():  # (through the closure's copy constructor and implicit casts)
        if c.kind == K.LAMBDA_EXPR:
            return c
        if c.kind == K.DECL_REF_EXPR and c.referenced is not None and c.referenced.kind == K.VAR_DECL:
            init = var_decl_initializer(c.referenced)
            return _launched_lambda(init) if init is not None else None
        if c.kind not in (K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CALL_EXPR):
            return None
    return None


# the type a lambda's copy capture of a variable holds: the variable's type without reference or const
_CAPTURE_HELPER = ("template <class X> struct __pgcc_capture { typedef X type; }; "
                   "template <class X> struct __pgcc_capture<X &> : __pgcc_capture<X> {}; "
                   "template <class X> struct __pgcc_capture<const X> : __pgcc_capture<X> {}; ")


class _TemplateCapture:
    """A copy capture of a lambda inside a function template (whose closure type clang leaves dependent)."""

    def __init__(self, var):
        self.var, self.by_ref = var, False


def _template_lambda_captures(lam, top, fail) -> list:
    """The variables that LAMBDA_EXPR `lam`, written in FUNCTION_TEMPLATE `top`, captures: its explicit
    captures in order, then (with a default capture) the locals and parameters of `top` its body uses, in order
    of first use. A constant used only as a value becomes a member too (a copy of it: the same value).

    Raises:
        CompileError: captures by reference, of `this`, or init captures (via `fail(cursor, what)`)."""
    from .frontend.cxx_classes import _capture_list

    default, explicit = _capture_list(lam)
    if default == "&" or any(by_ref for _, _, by_ref in explicit):
        raise fail(lam, "capturing by reference (device code cannot reach host variables)")
    if any(kind != "var" for kind, _, _ in explicit):
        raise fail(lam, "inside a function template, with an init capture or a capture of 'this'")
    start, end = lam.extent.start.offset, lam.extent.end.offset
    named = {ch.spelling: ch.referenced for ch in children(lam)
             if ch.kind == K.VARIABLE_REF and ch.referenced is not None}
    out, seen = [], set()
    for _, name, _ in explicit:
        var = named.get(name)
        if var is None:
            raise fail(lam, f"with the capture '{name}' pgcc does not read")
        out.append(_TemplateCapture(var))
        seen.add(var.hash)
    body = next(c for c in children(lam) if c.kind == K.COMPOUND_STMT)
    for c in body.walk_preorder():
        if c.kind == K.CXX_THIS_EXPR:
            raise fail(c, "inside a function template, capturing 'this'")
        r = c.referenced if c.kind == K.DECL_REF_EXPR else None
        if default == "=" and r is not None and r.kind in (K.VAR_DECL, K.PARM_DECL) and r.hash not in seen and \
                r.semantic_parent is not None and r.semantic_parent == top and not (start <= r.location.offset < end) \
                and r.storage_class not in (r.storage_class.STATIC, r.storage_class.EXTERN):
            out.append(_TemplateCapture(r))
            seen.add(r.hash)
    return out


def _template_parameters(top, text: bytes) -> tuple:
    """([each template parameter of FUNCTION_TEMPLATE `top` as declared, without default argument],
    [each as a template argument: its name, `Ts...` for a pack])."""
    decls, names = [], []
    for p in children(top):
        if p.kind not in (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER, K.TEMPLATE_TEMPLATE_PARAMETER):
            continue
        toks, depth, kept = list(p.get_tokens()), 0, []
        for t in toks:
            if t.spelling in ("<", "(") :
                depth += 1
            elif t.spelling in (">", ")"):
                depth -= 1
            elif t.spelling == "=" and depth == 0:
                break
            kept.append(t.spelling)
        if not p.spelling:
            raise error_at(p, "unsupported construct: a lambda passed to a kernel (nvcc's --extended-lambda) "
                              "inside a function template with an unnamed template parameter")
        decls.append(" ".join(kept))
        names.append(p.spelling + ("..." if "..." in kept else ""))
    return decls, names


def extended_lambdas(tu, path: str, text: bytes) -> bytes | None:
    """nvcc's `--extended-lambda`: the source text of .cu file `path` (its bytes `text`) with each lambda that a
    launch passes to a kernel template turned into a named class, or None when there is none.

    The closure type of a lambda has no name outside its function, so neither the host compiler's declaration
    of the kernel's specialization nor pgcc's stub could name it. Each such lambda becomes a class at file scope,
    `struct __pgcc_lambda_<file hash>_<n> { captured members in clang's order; __host__ __device__ auto
    operator()(params) const { body } };`, written on the line where the enclosing function starts (so no line
    moves), and the lambda expression becomes `__pgcc_lambda_..._n{captured variables}`: the same layout, the
    same call, and a name both halves mangle alike (unique per file, since a kernel template's stubs are weak).
    In a function template the class is a class template over the captured variables' types (the capture
    copies, `decltype` of each without reference or const) and the function template's own parameters, which
    the lambda's parameters and body may name: `__pgcc_lambda_..._n<decltype-of-captures..., T, N>{a, b}`.

    Raises:
        CompileError: a lambda inside a class template, capturing by reference or `this`, with `auto`
            parameters, using a constant of its function without capturing it, or capturing a value of an
            unnamed type.
    """
    import hashlib

    from .frontend.cxx_classes import lambda_captures

    lambdas = {}
    for call in find_launches(tu, path):
        for a in call.get_arguments():
            lam = _launched_lambda(a)
            if lam is not None and _in_file(lam, path):
                lambdas.setdefault(lam.extent.start.offset, lam)
    if not lambdas:
        return None
    tag = hashlib.sha256(path.encode() + text).hexdigest()[:10]
    tops = top_level_in(tu, path)
    edits = []  # (offset, end, replacement)
    helper_written = []

    def fail(c, what):
        return error_at(c, f"unsupported construct: a lambda passed to a kernel (nvcc's --extended-lambda) {what}")

    for n, (start, lam) in enumerate(sorted(lambdas.items())):
        top = next((d for d in tops if d.extent.start.offset <= start < d.extent.end.offset), None)
        while top is not None and top.kind == K.NAMESPACE:  # (the class is defined in the function's namespace)
            top = next((d for d in top.get_children() if d.extent.start.offset <= start < d.extent.end.offset), None)
        templated = top is not None and top.kind == K.FUNCTION_TEMPLATE
        if top is None or not templated and (top.kind != K.FUNCTION_DECL or top.get_num_template_arguments() > 0):
            where = "in a member function" if top is not None and top.kind in (
                K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE, K.CXX_METHOD) else "outside a function"
            raise fail(lam, where)
        caps = _template_lambda_captures(lam, top, fail) if templated else lambda_captures(lam)
        if any(c.by_ref for c in caps):
            raise fail(lam, "capturing by reference (device code cannot reach host variables)")
        body = next(c for c in children(lam) if c.kind == K.COMPOUND_STMT)
        toks = list(lam.get_tokens())
        opened = next(i for i, t in enumerate(toks) if t.spelling == "(")
        depth, closed = 0, None
        for i in range(opened, len(toks)):
            depth += {"(": 1, ")": -1}.get(toks[i].spelling, 0)
            if depth == 0:
                closed = i
                break
        head = [t.spelling for t in toks if t.extent.start.offset < body.extent.start.offset]
        if closed is None or "]" not in head[:opened]:
            raise fail(lam, "written in a form pgcc does not read")
        params = text[toks[opened].extent.end.offset:toks[closed].extent.start.offset].decode()
        if "auto" in params.split():
            raise fail(lam, "with 'auto' parameters")
        trailing = head[closed + 1:]
        const = "" if "mutable" in trailing else "const"
        ret = " ".join(trailing[trailing.index("->"):]) if "->" in trailing else ""
        captured = {c.var.hash for c in caps}
        for c in body.walk_preorder():
            r = c.referenced if c.kind == K.DECL_REF_EXPR else None
            if r is not None and r.kind in (K.VAR_DECL, K.PARM_DECL) and r.hash not in captured and \
                    r.semantic_parent is not None and r.semantic_parent.kind in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE) and \
                    r.semantic_parent == top and not (start <= r.location.offset < lam.extent.end.offset):
                raise fail(c, f"using '{r.spelling}' of its function without capturing it")
            t = c.referenced if c.kind == K.TYPE_REF else None  # (the class is defined outside the function)
            if t is not None and t.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL, K.STRUCT_DECL, K.CLASS_DECL,
                                            K.ENUM_DECL) and t.location.file is not None and \
                    t.location.file.name == path and top.extent.start.offset <= t.location.offset < start:
                raise fail(c, f"using the type '{t.spelling}' declared in its function")
        members = []
        for c in caps:
            if templated:  # (the captured variables' types may depend on the template's parameters)
                members.append(f"__pgcc_C{len(members)} {c.var.spelling};")
                continue
            spelled = canonical(c.ftype).spelling
            if "(lambda" in spelled or "(unnamed" in spelled or "(anonymous" in spelled:
                raise fail(lam, f"capturing '{c.var.spelling}' of an unnamed type")
            members.append(f"{spelled} {c.var.spelling};")
        name = f"__pgcc_lambda_{tag}_{n}"
        code = " ".join(t.spelling for t in body.get_tokens() if t.kind.name != "COMMENT")  # (one line)
        head, args = "", ""
        if templated:  # a class template over the captures' types and the function template's parameters
            own, names_ = _template_parameters(top, text)
            head = "template <" + ", ".join([f"class __pgcc_C{i}" for i in range(len(caps))] + own) + "> "
            args = "<" + ", ".join([f"typename __pgcc_capture<decltype({c.var.spelling})>::type" for c in caps]
                                   + names_) + ">"
            if not helper_written:
                head = _CAPTURE_HELPER + head
                helper_written.append(True)
        edits.append((top.extent.start.offset, top.extent.start.offset,
                      f"{head}struct {name} {{ {' '.join(members)} __host__ __device__ auto operator()({' '.join(params.split())}) "
                      f"{const} {ret} {code} }}; ".encode()))
        names = ", ".join(c.var.spelling for c in caps)
        lines = text.count(b"\n", lam.extent.start.offset, lam.extent.end.offset)
        edits.append((lam.extent.start.offset, lam.extent.end.offset,
                      f"{name}{args}{{{names}}}".encode() + b"\n" * lines))
    out, at = [], 0
    for s_, e_, new in sorted(edits, key=lambda x: (x[0], x[1])):
        out += [text[at:s_], new]
        at = e_
    out.append(text[at:])
    return b"".join(out)


# ---------------------------------------------------------------- device side
def _qualified(c) -> str:
    parts, p = [c.spelling], c.semantic_parent
    while p is not None and p.kind == K.NAMESPACE:
        if p.spelling:  # (an anonymous namespace's members are found through its enclosing namespace)
            parts.append(p.spelling)
        p = p.semantic_parent
    return "::" + "::".join(reversed(parts))


def _integral_argument(k, i) -> str:
    """Template argument `i` (a value) of specialization `k` as C++ text: libclang gives a `bool` true as -1
    (a 1-bit value sign-extended), so the template's parameter type decides: `true`/`false` for bool, the
    unsigned value for unsigned types, a cast for enums (`static_cast<Scale>(1)`), else the signed value."""
    params = [p for p in (k.specialized_template.get_children() if k.specialized_template is not None else [])
              if p.kind in (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER, K.TEMPLATE_TEMPLATE_PARAMETER)]
    ty = canonical(params[i].type) if i < len(params) and params[i].kind == K.TEMPLATE_NON_TYPE_PARAMETER else None
    if ty is not None and ty.kind == T.BOOL:
        return "true" if k.get_template_argument_unsigned_value(i) else "false"
    if ty is not None and ty.kind in (T.UINT, T.ULONG, T.ULONGLONG, T.USHORT, T.UCHAR, T.CHAR_U):
        return f"{k.get_template_argument_unsigned_value(i)}u"
    if ty is not None and ty.kind == T.ENUM:
        return f"static_cast<{ty.spelling}>({k.get_template_argument_value(i)})"
    return str(k.get_template_argument_value(i))


def _template_args(k) -> str:
    n = k.get_num_template_arguments()
    if n <= 0:
        return ""
    if any(k.get_template_argument_kind(i).name == "PACK" for i in range(n)):
        # libclang does not show a pack's elements: the stub's call, whose arguments have the specialization's
        # parameter types, lets clang deduce them (a kernel `template <class T, class... A> k(T, A...)`)
        return ""
    args = []
    for i in range(n):
        kind = k.get_template_argument_kind(i).name
        if kind == "TYPE":
            args.append(k.get_template_argument_type(i).spelling)
        elif kind == "INTEGRAL":
            args.append(_integral_argument(k, i))
        elif kind in ("DECLARATION", "NULLPTR"):
            args.append(str(k.get_template_argument_value(i)))
        else:
            raise error_at(k, f"unsupported construct: template argument of kind {kind.lower()} of a kernel")
    return "<" + ", ".join(args) + ">"


def device_stubs(kernels_: list) -> tuple[str, dict]:
    """C++ source of one stub per kernel, to append to the device parse, and {stub name: (host symbol, shared)}.

    A stub takes the kernel's parameters, pops the launch configuration the host pushed
    (`__pgcc_pop_call_configuration` in the runtime library) and launches the kernel with it; for each constant
    launch configuration seen at a launch (Specialization), a branch launches with those constants spelled out,
    so that cpuify sees the thread counts and the kernel is specialized for the constant arguments, as when
    pgcc compiles the launch inside its host function."""
    src = ["\nextern \"C\" void __pgcc_pop_call_configuration(unsigned int *, unsigned int *, size_t *, void **);\n"
           "extern \"C\" int __pgcc_stream_capturing(void *);\n"
           "extern \"C\" void __pgcc_capture_launch(void *, const unsigned int *, const unsigned int *, size_t, "
           "void (*)(void **), void **, const size_t *, int);\n"]
    names = {}
    for n, k in enumerate(kernels_):
        params = [a for a in k.cursor.get_arguments()]
        decls = ", ".join(f"{_param_type(p)} __pgcc_a{i}" for i, p in enumerate(params))
        args = ", ".join(f"__pgcc_a{i}" for i in range(len(params)))
        callee = _qualified(k.cursor) + _template_args(k.cursor)
        name = f"{STUB_PREFIX}{n}"
        names[name] = (k.symbol, k.shared)
        grid = "dim3(__pgcc_g[0], __pgcc_g[1], __pgcc_g[2])"
        # a launch into a capturing stream (cudaStreamBeginCapture) is recorded: a copy of each argument and a
        # function that calls the stub again with them when the graph runs
        unpacked = ", ".join(f"*({_param_type(p)} *)__pgcc_p[{i}]" for i, p in enumerate(params))
        src.append(f"static void {name}_replay(void **__pgcc_p);\n")
        if params:
            # (copies of the parameters are recorded, never the parameters' own addresses: an address that escapes
            # into the runtime would make every kernel argument memory an unknown call may write, and invariant
            # code would no longer leave the kernel: tests/test_licm_cuda.py)
            copies = " ".join(f"{_param_type(p)} __pgcc_c{i} = __pgcc_a{i};" for i, p in enumerate(params))
            pointers = ", ".join(f"(void *)&__pgcc_c{i}" for i in range(len(params)))
            sizes = ", ".join(f"sizeof(__pgcc_c{i})" for i in range(len(params)))
            record = (f"{copies} void *__pgcc_p[] = {{{pointers}}}; size_t __pgcc_z[] = {{{sizes}}}; "
                      f"__pgcc_capture_launch(__pgcc_st, __pgcc_g, __pgcc_b, __pgcc_s, {name}_replay, __pgcc_p, "
                      f"__pgcc_z, {len(params)});")
        else:
            record = (f"__pgcc_capture_launch(__pgcc_st, __pgcc_g, __pgcc_b, __pgcc_s, {name}_replay, 0, 0, 0);")
        lines = [f"void {name}({decls}) {{",
                 "  unsigned int __pgcc_g[3], __pgcc_b[3]; size_t __pgcc_s; void *__pgcc_st;",
                 "  __pgcc_pop_call_configuration(__pgcc_g, __pgcc_b, &__pgcc_s, &__pgcc_st);",
                 f"  if (__pgcc_st && __pgcc_stream_capturing(__pgcc_st)) {{ {record} return; }}"]
        for spec in k.launches:
            tests = [f"__pgcc_b[{d}] == {v}u" for d, v in enumerate(spec.block)]
            tests += [f"__pgcc_g[{d}] == {v}u" for d, v in enumerate(spec.grid or ())]
            tests += [f"__pgcc_a{i} == {v}" for i, v in spec.args]
            fixed = dict(spec.args)
            values = ", ".join(str(fixed[i]) if i in fixed else f"__pgcc_a{i}" for i in range(len(params)))
            g = f"dim3({', '.join(map(str, spec.grid))})" if spec.grid else grid
            lines.append(f"  if ({' && '.join(tests)}) {{ {callee}<<<{g}, dim3({', '.join(map(str, spec.block))}), "
                         f"__pgcc_s>>>({values}); return; }}")
        lines.append(f"  {callee}<<<{grid}, dim3(__pgcc_b[0], __pgcc_b[1], __pgcc_b[2]), __pgcc_s>>>({args});")
        lines.append("}")
        lines.append(f"static void {name}_replay(void **__pgcc_p) {{ {name}({unpacked}); }}")
        src.append("\n".join(lines) + "\n")
    return "".join(src), names


def _param_type(p) -> str:
    """A parameter's type spelled so that it means the same at the end of the file."""
    ty = p.type
    if ty.kind == T.LVALUEREFERENCE or ty.kind == T.RVALUEREFERENCE:
        raise error_at(p, "unsupported construct: reference parameter of a kernel")
    spelled = canonical(ty).spelling
    if "(unnamed" in spelled or "(anonymous" in spelled:
        spelled = ty.spelling
    if "(unnamed" in spelled or "(anonymous" in spelled:
        raise error_at(p, "unsupported construct: kernel parameter of an unnamed type")
    return spelled


def calls_enzyme_in_host_code(tu, path) -> bool:
    """Whether the file calls Enzyme (`__enzyme_*`) from host code: such files keep pgcc's whole-file C++
    path, since the host compiler cannot differentiate (a derivative of a function that launches kernels is
    synthesized on pgcc's MLIR)."""
    found = []

    def visit(c):
        if found:
            return
        if c.kind == K.DECL_REF_EXPR and c.spelling.startswith("__enzyme_"):
            found.append(c)
            return
        for ch in c.get_children():
            visit(ch)

    for d in top_level_in(tu, path):
        if d.kind == K.FUNCTION_DECL and d.is_definition() and not is_device_only(d):
            visit(d)
    return bool(found)


def applies(tu, path: str) -> bool:
    """Whether .cu file `path` is compiled in nvcc's model. Files that call Enzyme from host code (their
    derivatives differentiate host functions that launch kernels, on pgcc's MLIR) keep pgcc's whole-file
    path. (Texture references are the host compiler's objects, which device code reads: cuda_builtins.py.)"""
    return not calls_enzyme_in_host_code(tu, path)
