"""Explicit instantiations of host function templates that launch kernels, for nvcc's model (cuda_split.py).

A .cu file may launch a kernel template from a host function template that only an explicit instantiation
instantiates (Rodinia dwt2d's components.cu):

    template <typename T> void rgbToComponents(T *d_r, ...) { c_CopySrcToComponents<<<grid, threads>>>(d_r, ...); }
    template void rgbToComponents<float>(float *d_r, ...);

The host compiler instantiates `rgbToComponents<float>` and with it a call of `c_CopySrcToComponents<float>`,
whose stub the device side must define; but libclang shows no cursor for an explicit instantiation, so the
walk over instantiated bodies (cuda_split.instantiated_launches) never reaches that specialization, and the
program failed to link (undefined reference to `c_CopySrcToComponents<float>`).

`analysis_unit` therefore reparses the file with one probe function per explicit instantiation appended, each
taking the instantiated function's address through a pointer of the instantiation's own function type,

    using __pgcc_instantiation_t0 = void (float *d_r, ...);
    static void __pgcc_instantiation_probe0() { __pgcc_instantiation_t0 *p = &rgbToComponents<float>; (void)p; }

which libclang shows as a reference to the specialization, with its instantiated body. The probes are only
for finding launches: neither the host text nor the device parse contains them.
"""

from __future__ import annotations

from .clang_ast import K
from .errors import CompileError

PROBE_PREFIX = "__pgcc_instantiation_"
# function specifiers that may precede an instantiation's return type but cannot appear in a type alias
_SPECIFIERS = {"inline", "constexpr", "__host__", "__device__", "__forceinline__", "__inline__", "static", "extern",
               "__global__"}  # (a kernel's probe takes its address, which makes cuda_split give it a stub)


def _declarations(tu, path: str) -> list:
    """The token lists (spellings) of the explicit instantiation definitions of functions written in `path`:
    `template` not followed by `<` (a declaration's template parameters), nor preceded by `.`, `->` or `::`
    (the `x.template f<T>()` disambiguator), nor by `extern` (a declaration: instantiated elsewhere); up to
    its `;`."""
    return [[t.spelling for t in rest] for _, rest in _declaration_tokens(tu, path)]


def _declaration_tokens(tu, path: str) -> list:
    """(the `template` token, the tokens after it up to the `;`) of each declaration `_declarations` finds."""
    toks = [t for t in tu.get_tokens(extent=tu.cursor.extent)
            if t.location.file is not None and t.location.file.name == path]
    found = []
    for i, t in enumerate(toks):
        if t.spelling != "template" or i + 1 >= len(toks) or toks[i + 1].spelling == "<":
            continue
        if i > 0 and toks[i - 1].spelling in (".", "->", "::", "extern"):
            continue
        end = i + 1
        while end < len(toks) and toks[end].spelling != ";":
            end += 1
        found.append((t, toks[i + 1:end]))
    return found


def kernel_instantiation_edits(tu, path: str, kernel_templates: set) -> list:
    """Byte edits of `path` for the host compiler: each explicit instantiation of a kernel template
    (`template __global__ void k<float>(float *, int);`, nvcc's way to make a kernel template's specialization
    for other files) becomes an explicit instantiation declaration (`extern template ...`): the host side has
    the kernel's declaration only (its body is device code), and g++ rejects an instantiation definition
    without a body; the device side defines the specialization's stub (a kernel named in `kernel_templates`,
    spellings of the __global__ function templates)."""
    edits = []
    for t, rest in _declaration_tokens(tu, path):
        parts = _split([r.spelling for r in rest])
        names = parts[1] if parts is not None else []
        ident = names[names.index("<") - 1] if "<" in names else names[-1] if names else None
        if "__global__" in [r.spelling for r in rest] or ident in kernel_templates:
            s = t.extent.start.offset
            edits.append((s, s, b"extern "))
    return edits


def _split(decl: list):
    """(return type, name, parameter list) token lists of a function declaration `decl`, or None when it is
    not one this module handles (a class instantiation, an operator, a member of a class template)."""
    depth = 0
    for j, t in enumerate(decl):
        if t in ("(",) and depth == 0:
            break
        if t in ("(", "["):
            depth += 1
        elif t in (")", "]"):
            depth -= 1
    else:
        return None  # `template class Foo<int>;`: no parameter list
    # the declarator name: an identifier, its template arguments and the qualifiers before it
    k = j - 1
    if k >= 0 and decl[k] == ">":
        angle = 0
        while k >= 0:
            angle += decl[k] == ">"
            angle -= decl[k] == "<"
            if angle == 0:
                break
            k -= 1
        k -= 1
    if k < 0 or not (decl[k][0].isalpha() or decl[k][0] == "_"):
        return None
    while k >= 2 and decl[k - 1] == "::" and (decl[k - 2][0].isalpha() or decl[k - 2][0] == "_"):
        k -= 2
    name = decl[k:j]
    if "operator" in name or ">" in name[:-1] and "::" in name[name.index(">"):]:
        return None  # an operator, or `A<int>::f`: a member, whose address is no free function pointer
    close, depth = j, 0
    while close < len(decl):
        depth += decl[close] == "("
        depth -= decl[close] == ")"
        if depth == 0:
            break
        close += 1
    ret = [t for t in decl[:k] if t not in _SPECIFIERS]
    if not ret:
        return None
    return ret, name, decl[j:close + 1]


def probes(tu, path: str) -> str:
    """C++ text of one probe function per explicit instantiation of a function template in `path` (module
    docstring), or "" when there is none."""
    out = []
    for n, decl in enumerate(_declarations(tu, path)):
        parts = _split(decl)
        if parts is None:
            continue
        ret, name, params = parts
        out.append(f"using {PROBE_PREFIX}t{n} = {' '.join(ret)} {' '.join(params)};\n"
                   f"static void {PROBE_PREFIX}probe{n}() {{ {PROBE_PREFIX}t{n} *__pgcc_p = &{''.join(name)}; "
                   f"(void)__pgcc_p; }}\n")
    return "\n" + "".join(out) if out else ""


def analysis_unit(tu, path: str, text: bytes, clang_args: list):
    """The translation unit in which to look for launches (cuda_split.instantiated_launches): `tu` itself, or,
    when `path` explicitly instantiates function templates, `text` reparsed with their probes appended. A probe
    that clang rejects (a declaration this module misreads) leaves `tu`: the probes only add launches."""
    extra = probes(tu, path)
    if not extra:
        return tu
    from .clang_ast import parse
    try:
        return parse(path, clang_args, text.decode("utf-8", errors="surrogateescape") + extra, "cuda")
    except CompileError:
        return tu

