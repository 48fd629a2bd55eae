"""C++ classes of CUDA host code: member functions, ``this``, constructors, and the C++ pgcc rejects.

A class (or a struct with methods) is a record like a C struct: raw bytes behind an ``!llvm.ptr`` with clang's
layout (docs/memory_model.md). What C++ adds is translated as plain functions:

- A non-static member function is a ``func.func`` whose last argument is ``this`` (the object's address); a
  member named without ``this->`` inside it is an access through that address. ``obj.f(x)``, ``p->f(x)`` and
  ``a + b`` (a member ``operator+``) pass the object's address; a static member function has no ``this``.
- Symbols are readable and stable: ``Class::f`` (``ns::Class::f`` in a namespace), with the parameter types
  appended when the name is overloaded in its class (``Vec::Vec(int, double)``) and `` const`` for a const
  overload. A member function defined inside its class is inline in C++, so it gets internal linkage (every
  unit that uses it emits its copy); one defined outside its class is external, so units compiled by pgcc
  call each other's. Free functions keep their plain names (module.func_name), extern "C" or not.
- A constructor is a member function run on the object's bytes, which are zeroed first: member initializers,
  then in-class default member initializers of the members the list does not name, then the body. Implicit
  and defaulted copy/move constructors and copy assignment copy the bytes; an implicit default constructor
  runs the in-class initializers.
- Destructors must be trivial or empty (nothing runs at scope end); virtual functions, inheritance,
  templates, reference members, conversion operators and delegating constructors are errors naming the
  construct (``unsupported C++ construct 'virtual function'``). In device code a reference member
  (`struct View { float &x; }`) is a pointer field holding its object's address, as in the Itanium layout.
- In device code (nvcc's model), non-virtual inheritance works: a base-class subobject lies at the offset
  clang's layout gives it (``Type.get_bases``, ``Cursor.get_base_offsetof``: the Itanium layout the host
  compiler uses too), so a derived-to-base conversion of an object, reference or pointer adds that offset
  (base-to-derived ``static_cast`` subtracts it; a null pointer stays null), members and methods of a base
  named inside a derived class's method are reached through ``this`` plus the offset, and a constructor
  initializes its bases (its base initializers, else their default construction) before its members.
  Virtual functions (also those of a base) and virtual base classes stay errors naming them.

`check_record` is called for every record and template defined in the main file; the methods of the mixin
class CxxClassGen at the end are FunctionGen's (codegen.py), as CxxGen's in cxx.py are.
"""

from __future__ import annotations

import dataclasses

from mlir import ir
from mlir.dialects import func, llvm

from ..clang_ast import K, T, canonical, children, strip_implicit
from ..errors import CompileError, error_at
from . import c_types as CT
from . import records as R
from .llvm_memory import member_object

METHOD_KINDS = (K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.CONVERSION_FUNCTION)
RECORD_KINDS = (K.STRUCT_DECL, K.CLASS_DECL, K.UNION_DECL)
OBJECT_CASTS = (K.UNEXPOSED_EXPR, K.CXX_STATIC_CAST_EXPR, K.CSTYLE_CAST_EXPR)


def unsupported_cxx(cursor, what: str):
    """The CompileError for a C++ construct pgcc does not translate, at `cursor`."""
    return error_at(cursor, f"unsupported C++ construct '{what}'")


# ---------------------------------------------------------------- checks
def check_record(d, templates=False):
    """Reject what pgcc does not translate in a class/struct/union definition (or a template); with
    `templates` (device code, where each specialization is a function of its own, named by its mangled name)
    member templates and conversion operators are fine.

    Raises:
        CompileError: ``unsupported C++ construct '<what>'`` for a template, inheritance (outside device code),
            a virtual base class, a virtual function (of the class or of a base), a destructor with a body, a
            reference member (outside device code), a conversion operator, a nested template.
    """
    if d.kind in (K.FUNCTION_TEMPLATE, K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION):
        raise unsupported_cxx(d, "template")
    if d.kind not in RECORD_KINDS or not d.is_definition():
        return
    for c in children(d):
        if c.kind == K.CXX_BASE_SPECIFIER:
            if not templates:
                raise unsupported_cxx(c, "inheritance")
            if c.is_virtual_base():
                raise error_at(c, f"unsupported C++ construct 'virtual base class' ('{c.type.spelling}')")
    if templates:  # device code: the bases' methods are the derived class's too (virtual ones included)
        for b in canonical(d.type).get_bases():
            base = canonical(b.type).get_declaration()
            check_record(base.get_definition() or base, templates)
    for c in children(d):
        if c.kind == K.CXX_BASE_SPECIFIER:
            continue
        if c.kind == K.CLASS_TEMPLATE and not templates:  # (member function templates: one function per
            raise unsupported_cxx(c, "template")          # specialization called, method_symbol)
        if c.kind in RECORD_KINDS:
            check_record(c, templates)
        elif c.kind in METHOD_KINDS:
            check_method(c, templates)
        elif c.kind == K.FIELD_DECL and CT.is_reference(c.type) and not templates:  # (device code: the field
            raise unsupported_cxx(c, "reference member")  # holds the address, LLVMMemory.address/init_object)


def check_method(m, templates=False):
    """Reject a member function pgcc does not translate (see check_record)."""
    if not templates and m.semantic_parent is not None and m.semantic_parent.kind in (K.CLASS_TEMPLATE,
                                                                    K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION):
        raise unsupported_cxx(m, "template")
    if m.kind == K.CONVERSION_FUNCTION and not templates:  # (device code calls them: method_call)
        raise unsupported_cxx(m, "conversion operator")
    if (m.is_virtual_method() or m.is_pure_virtual_method()) and templates:  # device code: named
        raise error_at(m, f"unsupported C++ construct 'virtual function' ('{_scope(m.semantic_parent)}::"
                          f"{m.spelling}': pgcc has no virtual dispatch)")
    if m.is_virtual_method() or m.is_pure_virtual_method():
        raise unsupported_cxx(m, "virtual function")
    if m.kind == K.DESTRUCTOR:
        body = next((c for c in children(m) if c.kind == K.COMPOUND_STMT), None)
        if body is not None and children(body):
            raise unsupported_cxx(m, "destructor with a body")
    ch = children(m)  # `P() : P(0) {}`: its own class named in the initializer list (`Grid::Grid(...)` names
    if m.kind == K.CONSTRUCTOR and any(a.kind == K.TYPE_REF and b.kind.is_expression() and  # its class first,
                                       _same_class(a.type, m.semantic_parent.type)  # then the parameters;
                                       for a, b in zip(ch, ch[1:])):  # a base class: a base initializer)
        raise unsupported_cxx(m, "delegating constructor")


def check_callee(callee, call, templates=False):
    """Reject a call pgcc cannot translate: of a template specialization (but, with `templates`, of a function
    template's: device code names functions by their mangled names, one per specialization), or of a member
    of a class of the C++ standard library (``std::cout << x``, ``std::vector<int> v(n)``).

    Raises:
        CompileError: ``unsupported C++ construct 'template'`` / ``'the C++ standard library (std::...)'``."""
    owner = callee.semantic_parent if callee.kind in METHOD_KINDS else callee
    scope = _scope(owner) if owner is not None and owner.kind in RECORD_KINDS else ""
    d = callee.semantic_parent
    while d is not None and d.kind not in (K.TRANSLATION_UNIT,):
        if d.kind == K.NAMESPACE and d.spelling in ("std", "__gnu_cxx") and d.semantic_parent.kind == K.TRANSLATION_UNIT:
            what = scope if scope else f"std::{callee.spelling}"
            raise unsupported_cxx(call, f"the C++ standard library ({what})")
        d = d.semantic_parent
    if templates:  # device code: every specialization is its own function, named by its mangled name
        return
    if callee.get_num_template_arguments() > 0:  # a member function template (free ones: calls.py)
        raise unsupported_cxx(call, "template")
    # (a member of a class template's specialization: the cursor a call references is the instantiated member,
    # named after the specialization by method_symbol: `vec<double, 3>::dot`)


def check_used_record(ty, use, templates=False):
    """check_record for the class of an object being built or used at `use` (a class from a header is not
    checked where it is defined), reported at the use."""
    d = canonical(ty).get_declaration()
    d = d.get_definition() or d
    try:
        check_record(d, templates)
    except CompileError as err:
        raise error_at(use, err.message) from None


# ---------------------------------------------------------------- base classes
def _same_class(a, b) -> bool:
    """Whether types `a` and `b` (cv-qualifiers ignored) are the same class."""
    a, b = canonical(a), canonical(b)
    return a.kind == T.RECORD and b.kind == T.RECORD and a.get_declaration() == b.get_declaration()


def record_bases(ty, use=None) -> list:
    """The direct base classes of record type `ty`: (canonical base type, byte offset in `ty`) in declaration
    order, from clang's layout (also for class template specializations, whose declarations libclang shows
    without children).

    Raises:
        CompileError: a virtual base class (reported at `use`), whose offset is only known at run time."""
    ty = canonical(ty)
    if ty.kind != T.RECORD:
        return []
    d = ty.get_declaration()
    out = []
    for b in ty.get_bases():
        if b.is_virtual_base():
            raise error_at(use if use is not None else b,
                           f"unsupported C++ construct 'virtual base class' ('{b.type.spelling}')")
        out.append((canonical(b.type), b.get_base_offsetof(d) // 8))
    return out


def base_offset(derived, base, use=None):
    """Byte offset of the `base` subobject in an object of class `derived` (0 for the same class), through
    any chain of base classes; None when `base` is not a base of `derived`."""
    if _same_class(derived, base):
        return 0
    for bt, off in record_bases(derived, use):
        sub = base_offset(bt, base, use)
        if sub is not None:
            return off + sub
    return None


def class_conversion(from_ty, to_ty, use=None):
    """The byte offset a conversion between related classes adds to an object's address: the base's offset for
    derived to base, its negation for base to derived (static_cast); None for the same or unrelated types."""
    from_ty, to_ty = canonical(from_ty), canonical(to_ty)
    if from_ty.kind != T.RECORD or to_ty.kind != T.RECORD or _same_class(from_ty, to_ty):
        return None
    up = base_offset(from_ty, to_ty, use)
    if up is not None:
        return up
    down = base_offset(to_ty, from_ty, use)
    return -down if down is not None else None


# ---------------------------------------------------------------- names and signatures
def has_this(c) -> bool:
    """Whether function cursor `c` takes an object (`this`): non-static member functions and constructors."""
    return c.kind in (K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.CONVERSION_FUNCTION) and not c.is_static_method()


def with_this(sig: R.Signature) -> R.Signature:
    """`sig` with the object's address (`this`, an !llvm.ptr) appended as the last MLIR argument."""
    ftype = ir.FunctionType.get(list(sig.ftype.inputs) + [CT.llvm_ptr()], list(sig.ftype.results))
    return dataclasses.replace(sig, ftype=ftype, arg_attrs=list(sig.arg_attrs) + [{}], has_this=True)


def _scope(d, args=False) -> str:
    """`ns::Class` for a record declaration (enclosing namespaces and classes); with `args`, a class template's
    specialization with its arguments (`ns::vec<double, 3>`: a symbol of its own for each specialization)."""
    parts = []
    while d is not None and d.kind in RECORD_KINDS + (K.NAMESPACE,):
        templ = args and d.kind != K.NAMESPACE and d.type.get_num_template_arguments() > 0
        parts.append((d.displayname if templ else d.spelling) or "(anonymous)")
        d = d.semantic_parent
    return "::".join(reversed(parts))


def member_symbol(d) -> str:
    """The symbol of a static data member: ``Class::name``."""
    return f"{_scope(d.semantic_parent, args=True)}::{d.spelling}"


def method_symbol(c) -> str:
    """The symbol of member function `c`: ``Class::name``, plus ``(param types)`` when the name is overloaded
    in the class and `` const`` for a const member function of an overloaded name."""
    cls = c.semantic_parent
    name = f"{_scope(cls, args=True)}::{c.spelling}"
    tmpl = c.specialized_template
    if tmpl is not None and tmpl.kind == K.FUNCTION_TEMPLATE and c.mangled_name:
        name += f"<{c.mangled_name}>"  # a member function template's specialization: one symbol each (libclang
        # gives no template arguments for it: its mangled name tells them apart)
    defn = cls.get_definition() or cls
    same = [m for m in children(defn) if m.kind in METHOD_KINDS and m.spelling == c.spelling]
    if len(same) > 1:
        params = ", ".join(canonical(t).spelling for t in c.type.argument_types())
        name += f"({params})" + (" const" if c.is_const_method() else "")
    return name


def is_inline_method(c) -> bool:
    """A member function defined inside its class (inline in C++: internal linkage here)."""
    return c.kind in METHOD_KINDS and c.lexical_parent is not None and c.lexical_parent.kind in RECORD_KINDS


def _user_provided(ctor) -> bool:
    """Whether a constructor or assignment operator is written by the user (not implicit or `= default`)."""
    return not ctor.is_default_method()


# ---------------------------------------------------------------- lambdas
@dataclasses.dataclass(frozen=True)
class Capture:
    """One capture of a lambda: the captured variable's declaration, a DECL_REF_EXPR naming it in the lambda
    (None for an explicit capture the body never uses), the closure's field for it (its byte offset and
    type), and whether it is captured by reference (the field holds the variable's address). `kind` is "var",
    "this" (the field holds the enclosing object's address), "*this" (a copy of the object) or "init" (an init
    capture `[n = expr]` / `[&r = x]`: `var` is the capture's own VAR_DECL, `init` its initializer)."""
    var: object
    use: object
    offset: int
    ftype: object
    by_ref: bool
    kind: str = "var"
    init: object = None


FUNCTION_KINDS = (K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.FUNCTION_TEMPLATE)
THIS = object()  # the implicit capture of `this` in lambda_captures' order of first uses


def is_lambda_class(d) -> bool:
    """Whether record declaration `d` is a lambda's closure type (clang names it `(lambda at file:line:col)`)."""
    return d is not None and d.kind == K.CLASS_DECL and d.spelling.startswith("(lambda at ")


def _capture_list(lam):
    """The capture list of LAMBDA_EXPR `lam`: (default '&', '=' or None, [(kind, name, by reference)] of its
    explicit captures in order; kind "var", "this", "*this" or "init" (`[n = expr]`, `[&r = x]`, `[n{expr}]`)).

    Raises:
        CompileError: pack captures (`[args...]`)."""
    toks = [t.spelling for t in lam.get_tokens()]
    depth, items, cur = 0, [], []
    for t in toks[1:]:
        if t in ("[", "(", "{", "<"):
            depth += 1
        elif t in (")", "}", ">") or t == "]" and depth > 0:
            depth -= 1
        elif t == "]":
            break
        if t == "," and depth == 0:
            items.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        items.append(cur)
    default, explicit = None, []
    for item in items:
        if item in (["&"], ["="]):
            default = item[0]
        elif item == ["this"]:
            explicit.append(("this", "this", False))
        elif item == ["*", "this"]:
            explicit.append(("*this", "this", False))
        elif "..." in item:
            raise unsupported_cxx(lam, "lambda pack capture")
        elif len(item) == 1 or len(item) == 2 and item[0] == "&":
            explicit.append(("var", item[-1], item[0] == "&"))
        else:
            by_ref = item[0] == "&"
            name = item[1] if by_ref else item[0]
            nxt = item[2] if by_ref else item[1]
            if nxt not in ("=", "{", "("):
                raise unsupported_cxx(lam, "lambda capture '" + " ".join(item) + "'")
            explicit.append(("init", name, by_ref))
    return default, explicit


def _is_constant_use(ref) -> bool:
    """Whether DECL_REF_EXPR `ref` names a constant a lambda need not capture (`const int n = 4;`)."""
    from ..clang_ast import evaluate

    ty = canonical(ref.referenced.type)
    return ty.is_const_qualified() and CT.is_arith(ty) and evaluate(ref) is not None


def lambda_captures(lam) -> list:
    """The captures of LAMBDA_EXPR `lam` in the order of its closure type's fields (clang's order: the explicit
    captures as listed, then the implicit ones in order of first use in the body), as Capture records.

    Raises:
        CompileError: a capture pgcc does not translate (_capture_list), or a closure whose fields do not match
            the captures found (reported, never guessed)."""
    default, explicit = _capture_list(lam)
    start, end = lam.extent.start.offset, lam.extent.end.offset
    uses, order = {}, []
    this_use = []  # the first use of the enclosing object (`this`, or a member named without `this->`)

    def outer_local(v):
        p = v.semantic_parent
        inside = v.location.file is not None and lam.location.file is not None and \
            v.location.file.name == lam.location.file.name and start <= v.location.offset < end
        return p is not None and p.kind in FUNCTION_KINDS and not inside and \
            v.storage_class not in (v.storage_class.STATIC, v.storage_class.EXTERN)

    def visit(c):
        r = c.referenced if c.kind == K.DECL_REF_EXPR else None
        if r is not None and r.kind == K.VAR_DECL and r.semantic_parent is not None and \
                r.semantic_parent.kind in FUNCTION_KINDS and not (start <= r.location.offset < end) and \
                (r.storage_class == r.storage_class.STATIC or any(a.kind == K.CUDASHARED_ATTR for a in children(r))):
            raise unsupported_cxx(c, f"lambda using the static or __shared__ variable '{r.spelling}' of its "
                                     "enclosing function")
        if c.kind == K.DECL_REF_EXPR and c.referenced is not None and \
                c.referenced.kind in (K.VAR_DECL, K.PARM_DECL) and outer_local(c.referenced):
            key = c.referenced.hash
            if key not in uses:
                uses[key] = c
                order.append(c)
            elif _is_constant_use(uses[key]) and not _is_constant_use(c):
                uses[key] = c
        if not this_use and (c.kind == K.CXX_THIS_EXPR or c.kind == K.MEMBER_REF_EXPR and
                             member_object(c) is None and c.referenced is not None and
                             c.referenced.kind in (K.FIELD_DECL, K.CXX_METHOD, K.CONVERSION_FUNCTION) and
                             not (c.referenced.kind != K.FIELD_DECL and c.referenced.is_static_method())):
            this_use.append(c)
            order.append(THIS)
        for ch in c.get_children():
            visit(ch)

    body = [ch for ch in children(lam) if ch.kind == K.COMPOUND_STMT]
    for b in body:
        visit(b)
    named = {}
    for ch in children(lam):
        if ch.kind == K.VARIABLE_REF and ch.referenced is not None:
            named.setdefault(ch.spelling, ch.referenced)
    cands = []  # (var, use, by reference, optional, kind)
    explicit_names = {n for _, n, _ in explicit}
    for kind, name, by_ref in explicit:
        if kind in ("this", "*this"):
            cands.append((None, None, False, False, kind))
            continue
        var = named.get(name)
        if var is None:
            raise unsupported_cxx(lam, f"lambda capture '{name}'")
        use = next((u for u in uses.values() if u.referenced.hash == var.hash), None)
        cands.append((var, use, by_ref, False, kind))
    if default is not None:
        for use in order:
            if use is THIS:
                if "this" not in explicit_names:
                    cands.append((None, None, False, False, "this"))
                continue
            var = use.referenced
            if var.spelling in explicit_names:
                continue
            cands.append((var, uses[var.hash], default == "&", _is_constant_use(uses[var.hash]), "var"))
    fields = list(canonical(lam.type).get_fields())
    if len(cands) != len(fields):
        cands = [c for c in cands if not c[3]]  # constants used only as values are not captured
    out = []
    if len(cands) == len(fields):
        for (var, use, by_ref, _, kind), f in zip(cands, fields):
            ft = canonical(f.type)
            if kind in ("this", "*this"):
                obj = canonical(ft.get_pointee()) if kind == "this" else ft
                if (ft.kind == T.POINTER) != (kind == "this") or obj.kind != T.RECORD:
                    break
                out.append(Capture(None, None, R.field_location(f)[0], ft, False, kind))
                continue
            init = next((c for c in children(var) if c.kind.is_expression()), None) if kind == "init" else None
            if kind == "init" and init is None:
                break
            want = canonical(CT.unreferenced(var.type)).get_canonical()
            got = canonical(CT.unreferenced(ft)) if CT.is_reference(ft) else ft
            if CT.is_reference(ft) != by_ref or got.spelling.replace("const ", "") != want.spelling.replace("const ", ""):
                break
            out.append(Capture(var, use, R.field_location(f)[0], ft, by_ref, kind, init))
    if len(out) != len(fields):
        raise unsupported_cxx(lam, "lambda whose captures pgcc cannot match to its closure type")
    return out


class CxxClassGen:
    """Mixin for FunctionGen: C++ objects (construction, member initializers), member function calls, ``this``."""

    # ---------------------------------------------------------------- objects
    def needs_construction(self, ty) -> bool:
        """Whether default-initializing an object of record type `ty` runs code: a user-written default
        constructor, in-class member initializers, or a member that needs construction."""
        d = canonical(ty).get_declaration()
        d = d.get_definition() or d
        if any(c.kind == K.CONSTRUCTOR and _user_provided(c) for c in R.record_members(d)):
            return True
        if any(self.needs_construction(bt) for bt, _ in record_bases(ty)):
            return True
        for c in canonical(ty).get_fields():  # (a class template's instantiated members)
            if R.in_class_initializer(c) is not None or \
                    canonical(c.type).kind == T.RECORD and self.needs_construction(c.type):
                return True
        return False


    def default_construct(self, ptr, ty, cursor):
        """Default-initialize the object of record type `ty` at `ptr` (zeroed, then constructed)."""
        ty = canonical(ty)
        self.zero_bytes(ptr, CT.size_of(ty))
        d = ty.get_declaration()
        d = d.get_definition() or d
        ctor = next((c for c in children(d) if c.kind == K.CONSTRUCTOR and c.is_default_constructor()), None)
        if ctor is None and any(c.kind == K.CONSTRUCTOR and c.is_default_constructor() and _user_provided(c)
                                for c in R.record_members(d)):  # a class template's: not instantiated here
            raise unsupported_cxx(cursor, "default construction of a class template specialization here")
        if ctor is not None and _user_provided(ctor):
            self.call_member(ctor, [], ptr, cursor)
        else:
            self.init_fields(ptr, ty, {})


    def construct(self, ptr, call):
        """Run constructor call `call` (a CALL_EXPR of a CONSTRUCTOR) on the object at `ptr`."""
        ctor = call.referenced
        ty = canonical(call.type)
        args = list(call.get_arguments())
        check_callee(ctor, call, templates=self.mg.device_stubs is not None)
        check_used_record(ty, call, self.mg.device_stubs is not None)
        if not _user_provided(ctor):
            if ctor.is_copy_constructor() or ctor.is_move_constructor():  # member-wise copy of the bytes
                self.copy_bytes(ptr, self.record_value(args[0]), CT.size_of(ty))
            else:
                self.zero_bytes(ptr, CT.size_of(ty))
                self.init_fields(ptr, ty, {})
            return
        self.zero_bytes(ptr, CT.size_of(ty))
        self.call_member(ctor, args, ptr, call)


    def constructed_temporary(self, call):
        """A constructor call used as a value (`P(1, 2)`, a by-value argument): a new temporary, constructed;
        its address."""
        ty = canonical(call.type)
        tmp = self.byte_alloca(CT.size_of(ty), ty.get_align())
        self.construct(tmp, call)
        return tmp


    def init_fields(self, ptr, ty, explicit):
        """Initialize the members of the object of type `ty` at `ptr` (already zeroed) in declaration order:
        `explicit` maps a FIELD_DECL's hash to its member-initializer expression; other members get their in-class
        initializer, or their default constructor. Base classes come first (device code), each from its base
        initializer in `explicit` (keyed by ("base", the class declaration's hash)) or default-constructed."""
        for bt, off in record_bases(ty):
            init = explicit.get(("base", bt.get_declaration().hash))
            bptr = self.at_offset(ptr, off)
            if init is not None:
                with self.loc(init):
                    self.init_object(bptr, bt, init)
            elif self.needs_construction(bt):
                self.default_construct(bptr, bt, bt.get_declaration())
        for f in canonical(ty).get_fields():
            init = explicit.get(f.hash)
            if init is None:
                init = R.in_class_initializer(f)
            if CT.is_reference(f.type) and init is None:  # (C++ requires one; a copy copies the address)
                raise self.error(f, f"reference member '{f.spelling}' without an initializer")
            off, bf = R.field_location(f)
            fptr = self.at_offset(ptr, off)
            ft = canonical(f.type)
            with self.loc(init if init is not None else f):
                if bf is not None:
                    if init is not None:
                        self.store(("bits", fptr, ft, bf), self.convert(self.rvalue(init), init.type, ft, init))
                elif init is not None:
                    self.init_object(fptr, ft, init)
                elif ft.kind == T.RECORD and self.needs_construction(ft):
                    self.default_construct(fptr, ft, f)


    def init_members(self, ctor):
        """A constructor's prologue: its member initializer list (`: n(k), s(t)`) and the in-class initializers
        of the other members, on `this`."""
        explicit, ch = {}, children(ctor)
        ty = canonical(ctor.semantic_parent.type)
        bases = {b.get_declaration().hash for b, _ in record_bases(ty, ctor)}
        for i, c in enumerate(ch):
            if c.kind == K.MEMBER_REF and c.referenced is not None and i + 1 < len(ch):
                explicit[c.referenced.hash] = ch[i + 1]
            elif c.kind.is_expression() and (i == 0 or ch[i - 1].kind != K.MEMBER_REF) and \
                    canonical(c.type).kind == T.RECORD and canonical(c.type).get_declaration().hash in bases:
                # a base initializer: `: Shape(s)` (TYPE_REF, construction) or, for a base that is a template
                # specialization, `: Base<T, 1, P>(p, n)` (TEMPLATE_REF, the template arguments that libclang
                # shows as children, some of them expressions, then the construction): the expression whose
                # type is a base class
                explicit[("base", canonical(c.type).get_declaration().hash)] = c
        self.init_fields(self.this_ptr, ty, explicit)


    # ---------------------------------------------------------------- calls
    def call_member(self, callee, args, this, call):
        """Call member function `callee` with C arguments `args` on the object at `this` (None for a static
        member function); returns the C result as codegen's calls do (a reference: the raw address)."""
        sig = self.mg.signature(callee)
        name = self.mg.declare(callee)

        def emit(vals, results):
            op = func.CallOp(results, ir.FlatSymbolRefAttr.get(name), vals + ([this] if sig.has_this else []))
            return op.results[0] if results else None

        return self.call_lowered(sig, args, call, emit)


    def method_call(self, call):
        """``obj.f(x)``, ``p->f(x)``, ``f(x)`` inside a method, ``a + b`` with a member operator, ``C::g(x)``."""
        callee = call.referenced
        device = self.mg.device_stubs is not None
        pod_copy = callee.spelling == "operator=" and not _user_provided(callee) and \
            canonical(callee.semantic_parent.type).is_pod()  # bytes, whoever declares the class
        if not (device and pod_copy):  # (`std::aligned_storage<16, 16>::type` copied in device code)
            check_callee(callee, call, templates=device)
            check_used_record(callee.semantic_parent.type, call, device)
        check_method(callee, device)
        args = list(call.get_arguments())
        if callee.is_static_method():
            return self.call_member(callee, args, None, call)
        nparams = len(list(callee.type.argument_types()))
        if len(args) == nparams + 1:  # an operator call: the object is the first operand
            obj, args = args[0], args[1:]
            this = self.address(obj)
        else:
            ref = strip_implicit(children(call)[0])
            if ref.kind != K.MEMBER_REF_EXPR:
                raise self.unsupported(call, "call of a member function through this expression")
            this = self.member_base(member_object(ref))
            if member_object(ref) is None:  # `f(x)` in a method of a class derived from f's
                this = self.at_offset(this, self.implicit_this_offset(callee, call))
        if callee.spelling == "operator=" and not _user_provided(callee):  # implicit copy assignment: the bytes
            ty = canonical(callee.semantic_parent.type)
            self.copy_bytes(this, self.record_value(args[0]), CT.size_of(ty))
            return this
        return self.call_member(callee, args, this, call)


    # ---------------------------------------------------------------- base classes
    def address(self, e):
        """LLVMMemory.address, through derived-to-base conversions of objects (implicit, or a static_cast to a
        base or derived class reference): the base's offset is added (subtracted)."""
        ch = children(e)
        if ch and e.kind in OBJECT_CASTS and (e.kind != K.UNEXPOSED_EXPR or len(ch) == 1):
            off = class_conversion(ch[-1].type, e.type, e)
            if off is not None:
                return self.at_offset(self.address(ch[-1]), off)
        return super().address(e)

    def convert_object(self, v, from_ty, to_ty, e):
        """The address of the `to_ty` object that the `from_ty` object at `v` converts to (exprs.cast): its base
        subobject for a derived-to-base conversion (slicing copies then read from there), else `v`."""
        off = class_conversion(from_ty, to_ty, e)
        return v if off is None else self.at_offset(v, off)

    def convert_class_pointer(self, p, from_ty, to_ty, e):
        """Pointer `p` of type `from_ty` converted to pointer type `to_ty` (pointers.py): between related
        classes the base's offset is added (derived to base) or subtracted (static_cast to a derived class),
        and a null pointer stays null."""
        from_p, to_p = canonical(from_ty), canonical(to_ty)
        if from_p.kind != T.POINTER or to_p.kind != T.POINTER:
            return p
        off = class_conversion(from_p.get_pointee(), to_p.get_pointee(), e)
        if not off:
            return p
        raw = self.to_ptr(p)
        null = llvm.ZeroOp(CT.llvm_ptr()).result
        is_null = llvm.ICmpOp(llvm.ICmpPredicate.eq, raw, null).result
        return llvm.SelectOp(is_null, null, self.at_offset(raw, off)).result

    def implicit_this_offset(self, member, use) -> int:
        """Byte offset from `this` of the current method to the subobject of the class declaring `member`
        (a field or method named without `this->`; 0 unless it belongs to a base class)."""
        owner, here = member.semantic_parent, self.cursor.semantic_parent
        if getattr(self, "captured_class", None) is not None:  # in a lambda: the enclosing object's class
            here = self.captured_class.get_declaration()
        if owner is None or here is None or owner.kind not in RECORD_KINDS or here.kind not in RECORD_KINDS:
            return 0
        return class_conversion(here.type, owner.type, use) or 0

    def member_base(self, base):
        """LLVMMemory.member_base; a member named without `this->` in a lambda capturing `this` (or `*this`)
        belongs to the enclosing object."""
        if base is None and getattr(self, "captured_this", None) is not None:
            return self.captured_this
        return super().member_base(base)

    def member_offset(self, e):
        """LLVMMemory.member_offset; a member of a base class named without `this->` in a derived class's
        method lies at the base's offset from `this`."""
        off, bf = super().member_offset(e)
        if member_object(e) is None and e.referenced is not None and getattr(self, "this_ptr", None) is not None:
            off += self.implicit_this_offset(e.referenced, e)
        return off, bf

    def init_aggregate(self, ptr, ty, items, pos, elided=False):
        """LLVMMemory.init_aggregate; an aggregate with base classes (C++17) takes its bases' initializers
        first."""
        if R.is_record(ty):
            for bt, off in record_bases(ty):
                if pos < len(items):
                    pos = self.init_slot(self.at_offset(ptr, off), bt, items, pos)
        return super().init_aggregate(ptr, ty, items, pos, elided)

    # ---------------------------------------------------------------- lambdas
    def expr_LAMBDA_EXPR(self, e):
        """A lambda: its closure object, a new temporary holding each capture in the field clang lays out for it
        (a copy of the variable, or its address for a capture by reference); its address. Calls of the lambda
        are calls of its `operator()` (method_call), whose body reads the captures through `this`
        (bind_captures)."""
        ty = canonical(e.type)
        caps = lambda_captures(e)
        self.mg.__dict__.setdefault("lambdas", {})[ty.get_declaration().hash] = caps
        tmp = self.byte_alloca(CT.size_of(ty), ty.get_align())
        self.zero_bytes(tmp, CT.size_of(ty))
        for cap in caps:
            slot = self.at_offset(tmp, cap.offset)
            if cap.kind in ("this", "*this"):
                with self.loc(e):
                    obj = self.expr_CXX_THIS_EXPR(e)
                    if cap.kind == "this":
                        llvm.StoreOp(obj, slot)
                    else:
                        self.copy_bytes(slot, obj, CT.size_of(cap.ftype))
                continue
            if cap.kind == "init":
                with self.loc(cap.init):
                    if cap.by_ref:
                        llvm.StoreOp(self.to_ptr(self.address(cap.init)), slot)
                    else:
                        self.init_object(slot, cap.ftype, cap.init)
                continue
            if cap.use is None:
                continue  # captured but never used: nothing reads the field
            with self.loc(cap.use):
                if cap.by_ref:
                    self.store_scalar(slot, cap.ftype, self.address(cap.use))
                elif CT.is_array(cap.ftype):
                    self.copy_bytes(slot, self.address(cap.use), CT.size_of(cap.ftype))
                else:
                    self.store_llvm(slot, cap.ftype, self.convert(self.rvalue(cap.use), cap.use.type, cap.ftype,
                                                                  cap.use))
        return tmp


    def bind_captures(self, method):
        """At the entry of a lambda's `operator()` `method`: each captured variable names its copy in the closure
        (`this`), or the object whose address the closure holds.

        Raises:
            CompileError: the lambda's closure was never built in this unit (a lambda from host code)."""
        caps = getattr(self.mg, "lambdas", {}).get(method.semantic_parent.hash)
        if caps is None:
            raise unsupported_cxx(method, "lambda created in host code and called in device code")
        for cap in caps:
            slot = self.at_offset(self.this_ptr, cap.offset)
            if cap.kind == "this":  # `this` in the body is the enclosing object, whose address the field holds
                self.captured_this = llvm.LoadOp(CT.llvm_ptr(), slot).result
                self.captured_class = canonical(cap.ftype.get_pointee())
                continue
            if cap.kind == "*this":  # ... or the closure's copy of it
                self.captured_this, self.captured_class = slot, canonical(cap.ftype)
                continue
            target = CT.unreferenced(cap.var.type)
            ptr = llvm.LoadOp(CT.llvm_ptr(), slot).result if cap.by_ref else slot
            self.bind_reference(cap.var.hash, target, ptr, method)


    def expr_CXX_THIS_EXPR(self, e):
        """``this``: the object's address, the method's last argument (in a lambda capturing `this` or `*this`:
        the enclosing object, or the closure's copy of it)."""
        if getattr(self, "captured_this", None) is not None:
            return self.captured_this
        if getattr(self, "this_ptr", None) is None:
            raise self.unsupported(e, "'this' outside a member function")
        return self.this_ptr
