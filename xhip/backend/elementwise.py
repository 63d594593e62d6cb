"""Elementwise formulas made runnable: numpy functions and GPU kernel code.

Each primitive of `xhip.dialects.formula` has its numpy form and its C form
here, side by side; every elementwise op's CPU function and its case in the
GPU kernels' switches are derived from its `FORMULA`, so adding an op adds no
table entry in the backend.

Element types. `ELEMENT_TYPES` lists the types the kernels are made for,
each with its storage type, the type it computes in (float16 in float) and
its kind (`formula.KINDS`). The kernels are generated C++, one per *family*
(arity, and a bool result or not) and element type: `xhip_unary_f32`,
`xhip_binary_i64`, `xhip_binary_f16_to_i1` (comparisons), `xhip_ternary_u8`
(Where), ... Each holds the ops of its family whose formula computes in the
type's kind (`Expr.kinds`), selected by an `op` code (`UNARY_CODES`, ...).
Copies and permutes are `xhip_copy_<bytes>`, conversions `xhip_cast` with
type codes (indexes into `ELEMENT_TYPES`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from xhip.dialects import hip
from xhip.dialects.formula import PRIMITIVES, Arg, Call, Const, Expr, Param

# numpy forms.


def _divide(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> Any:
    """ONNX Div: integers round toward zero (C's `/`); numpy's `//` rounds down."""
    if np.result_type(a, b).kind not in "iu":
        return np.divide(a, b, out=out)
    quotient = np.floor_divide(a, b)
    quotient += (np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0))
    if out is None:
        return quotient
    np.copyto(out, quotient, casting="unsafe")
    return out


def _relu(x: np.ndarray, out: np.ndarray | None = None) -> Any:
    return np.maximum(x, np.zeros((), np.asarray(x).dtype), out=out)  # keeps NaN


_ERF_T = (
    9.60497373987051638749e0,
    9.00260197203842689217e1,
    2.23200534594684319226e3,
    7.00332514112805075473e3,
    5.55923013010394962768e4,
)
_ERF_U = (
    1.0,
    3.35617141647503099647e1,
    5.21357949780152679795e2,
    4.59432382970980127987e3,
    2.26290000613890934246e4,
    4.92673942608635921086e4,
)
_ERFC_P = (
    2.46196981473530512524e-10,
    5.64189564831068821977e-1,
    7.46321056442269912687e0,
    4.86371970985681366614e1,
    1.96520832956077098242e2,
    5.26445194995477358631e2,
    9.34528527171957607540e2,
    1.02755188689515710272e3,
    5.57535335369399327526e2,
)
_ERFC_Q = (
    1.0,
    1.32281951154744992508e1,
    8.67072140885989742329e1,
    3.54937778887819891062e2,
    9.75708501743205489753e2,
    1.82390916687909736289e3,
    2.24633760818710981792e3,
    1.65666309194161350182e3,
    5.57535340817727675546e2,
)
"""Cephes' (ndtr.c) rational approximations: erf(x) = x T(x^2) / U(x^2) for
|x| < 1, erfc(x) = exp(-x^2) P(x) / Q(x) for 1 <= x <= 8 (erf is 1 in float64
beyond)."""


def _polynomial(x: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    """Horner's rule, highest power first, in place on one buffer."""
    total = np.full_like(x, coefficients[0])
    for c in coefficients[1:]:
        total *= x
        total += c
    return total


def _erf(x: np.ndarray, out: np.ndarray | None = None) -> Any:
    """The error function, vectorised (numpy has none), in float64: Cephes'
    rational approximations (`_ERF_T`...), each on its part of the array
    (about 4e-16 relative error)."""
    x = np.asarray(x)
    wide = x.astype(np.float64)
    a = np.abs(wide)
    result = np.empty_like(a)
    small = a < 1.0
    s = a[small]
    square = s * s
    result[small] = s * _polynomial(square, _ERF_T) / _polynomial(square, _ERF_U)
    large = ~small  # NaN included: it stays NaN
    b = np.minimum(a[large], 8.0)
    erfc = np.exp(-b * b) * _polynomial(b, _ERFC_P) / _polynomial(b, _ERFC_Q)
    result[large] = 1.0 - erfc
    result = np.copysign(result, wide)
    result = np.where(np.isnan(wide), wide, result)
    if out is None:
        return result.astype(x.dtype) if x.dtype.kind == "f" else result
    np.copyto(out, result, casting="unsafe")
    return out


def _select(
    condition: np.ndarray, a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None
) -> Any:
    result = np.where(condition, a, b)
    if out is None:
        return result
    np.copyto(out, result, casting="unsafe")
    return out


def _power(x: np.ndarray, y: np.ndarray, out: np.ndarray | None = None) -> Any:
    """x ** y. A one-element exponent of 2 or 3 is a product, as ONNX Runtime's
    CPU Pow computes it (its results bit for bit; `powf(x, 3)` differs in the
    last bit for about 30% of values), and faster than `np.power`: 1.3x on
    positive bases, 70x on mixed signs, as GELU-tanh's x**3 has them."""
    y = np.asarray(y)
    if y.size == 1 and y.ndim <= np.ndim(x) and x.dtype == y.dtype:
        e = y.reshape(-1)[0]
        if e == 2:
            return np.multiply(x, x, out=out)
        if e == 3:
            return np.multiply(np.multiply(x, x), x, out=out)
    return np.power(x, y, out=out)


NUMPY: dict[str, Callable[..., Any]] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": _divide,
    "pow": _power,
    "neg": np.negative,
    "exp": np.exp,
    "sqrt": np.sqrt,
    "tanh": np.tanh,
    "relu": _relu,
    "abs": np.absolute,
    "erf": _erf,
    "log": np.log,
    "floor": np.floor,
    "ceil": np.ceil,
    "round": np.rint,
    "sin": np.sin,
    "cos": np.cos,
    "sign": np.sign,
    "min": np.minimum,
    "max": np.maximum,
    "mod": np.mod,
    "fmod": np.fmod,
    "eq": np.equal,
    "lt": np.less,
    "le": np.less_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "not": np.logical_not,
    "and": np.logical_and,
    "or": np.logical_or,
    "xor": np.logical_xor,
    "isnan": np.isnan,
    "isinf": np.isinf,
    "select": _select,
    "tan": np.tan,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
    "bitand": np.bitwise_and,
    "bitor": np.bitwise_or,
    "bitxor": np.bitwise_xor,
    "bitnot": np.invert,
    "shl": np.left_shift,  # numpy's shift out of [0, bits): 0, as ONNX's
    "shr": np.right_shift,  # ... and -1 or 0 (the sign), as ONNX's
}
"""Each primitive as a numpy function taking `out=`."""

# C forms: a format string of the arguments `{0}`, `{1}`, `{2}` and the
# compute type `{T}`, or one such string per kind of element type (the first
# key holding the kind wins).
_INT_REMAINDER = "({1} == 0 ? (({T})0) : (({T})({0} % {1})))"
C: dict[str, str | dict[str, str]] = {
    "add": "(({T})({0} + {1}))",
    "sub": "(({T})({0} - {1}))",
    "mul": "(({T})({0} * {1}))",
    "div": {"f": "({0} / {1})", "iu": "({1} == 0 ? (({T})0) : (({T})({0} / {1})))"},
    "pow": {
        "f": "xhip_pow({0}, {1})",
        "i": "(({T})xhip_ipow((long long)({0}), (long long)({1})))",
        "u": "(({T})xhip_upow((unsigned long long)({0}), (unsigned long long)({1})))",
    },
    "neg": "(({T})(-{0}))",
    "exp": "xhip_exp({0})",
    "sqrt": "xhip_sqrt({0})",
    "tanh": "xhip_tanh({0})",
    "relu": "xhip_relu({0})",
    "abs": {"f": "xhip_fabs({0})", "i": "(({T})({0} < 0 ? -{0} : {0}))", "u": "{0}"},
    "erf": "xhip_erf({0})",
    "log": "xhip_log({0})",
    "floor": "xhip_floor({0})",
    "ceil": "xhip_ceil({0})",
    "round": "xhip_round({0})",
    "sin": "xhip_sin({0})",
    "cos": "xhip_cos({0})",
    "sign": {"fi": "xhip_sign({0})", "u": "(({T})({0} > 0))"},
    "min": "xhip_min({0}, {1})",
    "max": "xhip_max({0}, {1})",
    "mod": {
        "f": "xhip_mod({0}, {1})",
        "i": "(({T})xhip_imod((long long)({0}), (long long)({1})))",
        "u": _INT_REMAINDER,
    },
    "fmod": {"f": "xhip_fmod({0}, {1})", "iu": _INT_REMAINDER},
    "eq": "({0} == {1})",
    "lt": {"fib": "({0} < {1})", "u": "xhip_lt({0}, {1})"},
    "le": {"fib": "({0} <= {1})", "u": "xhip_le({0}, {1})"},
    "gt": {"fib": "({0} > {1})", "u": "xhip_gt({0}, {1})"},
    "ge": {"fib": "({0} >= {1})", "u": "xhip_ge({0}, {1})"},
    "not": "(!{0})",
    "and": "({0} && {1})",
    "or": "({0} || {1})",
    "xor": "({0} != {1})",
    "isnan": "({0} != {0})",
    "isinf": "xhip_isinf({0})",
    "select": "({0} ? {1} : {2})",
    "tan": "xhip_tan({0})",
    "asin": "xhip_asin({0})",
    "acos": "xhip_acos({0})",
    "atan": "xhip_atan({0})",
    "sinh": "xhip_sinh({0})",
    "cosh": "xhip_cosh({0})",
    "asinh": "xhip_asinh({0})",
    "acosh": "xhip_acosh({0})",
    "atanh": "xhip_atanh({0})",
    "bitand": "(({T})({0} & {1}))",
    "bitor": "(({T})({0} | {1}))",
    "bitxor": "(({T})({0} ^ {1}))",
    "bitnot": "(({T})(~{0}))",
    "shl": "xhip_shl({0}, {1})",
    "shr": "xhip_shr({0}, {1})",
}
"""Each primitive as a C expression of its arguments in the compute type."""

assert NUMPY.keys() == C.keys() == PRIMITIVES.keys()


# Element types.


@dataclass(frozen=True)
class ElementType:
    """An element type the kernels are made for."""

    name: str
    """As MLIR spells it, unsigned ones `u8`..., bool `i1`: the kernels' suffix."""
    dtype: np.dtype[Any]
    storage: str
    """The C type of an element in memory."""
    compute: str
    """The C type the formulas compute in."""
    kind: str
    """`f`, `i`, `u` or `b` (`formula.KINDS`)."""
    load: str = "{0}"
    """A stored value to the compute type."""
    store: str = "{0}"
    """A computed value to the storage type."""

    @property
    def twin(self) -> str:
        """The type whose switches this one shares (same compute type)."""
        return "f32" if self.name == "f16" else self.name


def _int(name: str, dtype: type[Any], ctype: str, kind: str) -> ElementType:
    return ElementType(name, np.dtype(dtype), ctype, ctype, kind)


ELEMENT_TYPES: tuple[ElementType, ...] = (
    ElementType(
        "f16",
        np.dtype(np.float16),
        "unsigned short",
        "float",
        "f",
        "xhip_half_to_float({0})",
        "xhip_float_to_half({0})",
    ),
    ElementType("f32", np.dtype(np.float32), "float", "float", "f"),
    ElementType("f64", np.dtype(np.float64), "double", "double", "f"),
    _int("i8", np.int8, "signed char", "i"),
    _int("i16", np.int16, "short", "i"),
    _int("i32", np.int32, "int", "i"),
    _int("i64", np.int64, "long long", "i"),
    _int("u8", np.uint8, "unsigned char", "u"),
    _int("u16", np.uint16, "unsigned short", "u"),
    _int("u32", np.uint32, "unsigned int", "u"),
    _int("u64", np.uint64, "unsigned long long", "u"),
    ElementType(
        "i1",
        np.dtype(np.bool_),
        "unsigned char",
        "bool",
        "b",
        "({0} != 0)",
        "(unsigned char)({0})",
    ),
)
"""Every element type of the kernels; an index here is `xhip_cast`'s type code."""

TYPE_OF: dict[np.dtype[Any], ElementType] = {t.dtype: t for t in ELEMENT_TYPES}
TYPE_CODES: dict[np.dtype[Any], int] = {t.dtype: i for i, t in enumerate(ELEMENT_TYPES)}
BOOL_TYPE = ELEMENT_TYPES[-1]


def element_type(dtype: np.dtype[Any]) -> ElementType | None:
    return TYPE_OF.get(np.dtype(dtype))


# What each op computes on: derived from its formula.


@dataclass(frozen=True)
class Signature:
    """The types of an elementwise op: per operand and for the result, bool
    or the op's element type `T`; `T` is bool when nothing else is."""

    operands: tuple[bool, ...]
    result: bool

    @property
    def all_bool(self) -> bool:
        return all(self.operands) and self.result

    def family(self, t: ElementType) -> str:
        """The kernel family name of the op on element type `t`."""
        word = {1: "unary", 2: "binary", 3: "ternary"}[len(self.operands)]
        return f"{word}_to_i1" if self.result and t.kind != "b" else word

    def operand_is_bool(self, i: int, t: ElementType) -> bool:
        return self.operands[i] or t.kind == "b"


def signature(op: type[hip.ElementwiseOp]) -> Signature:
    return Signature(op.operand_bools(), op.FORMULA.is_bool())


def value_type(op: type[hip.ElementwiseOp], dtypes: Sequence[np.dtype[Any]]) -> Any:
    """The element type `T` of a call with operands and result of these dtypes
    (the result's last): the first operand's that is not a bool there."""
    sig = signature(op)
    typed = [d for d, b in zip(dtypes, (*sig.operands, sig.result)) if not b]
    return typed[0] if typed else np.dtype(np.bool_)


def expected_dtypes(
    op: type[hip.ElementwiseOp], t: np.dtype[Any]
) -> list[np.dtype[Any]]:
    """The dtypes of the operands and the result of `op` with element type `t`."""
    sig = signature(op)
    bool_ = np.dtype(np.bool_)
    return [bool_ if b else np.dtype(t) for b in (*sig.operands, sig.result)]


# The C forms.


def _c_form(fn: str, kind: str) -> str:
    form = C[fn]
    if isinstance(form, str):
        return form
    return next(f for kinds, f in form.items() if kind in kinds)


def _c_number(value: float, ctype: str) -> str:
    if ctype == "float":
        return f"{float(value)!r}f"
    if ctype == "double":
        return repr(float(value))
    return f"(({ctype}){float(value)!r})"


def c_expression(
    expr: Expr, ctype: str = "float", kind: str = "f", params: Sequence[str] = ()
) -> str:
    """The formula as a C expression of `x`, `y`, `z` (the operands) and
    `p[i]` (the value of `params[i]`; by default `expr.params()`), computing
    in `ctype`, for element types of `kind`."""
    names = tuple(params) or expr.params()

    def emit(node: Expr) -> str:
        if isinstance(node, Arg):
            return "xyz"[node.index]
        if isinstance(node, Const):
            return _c_number(node.value, ctype)
        if isinstance(node, Param):
            return f"(({ctype})p[{names.index(node.name)}])"
        assert isinstance(node, Call)
        return _c_form(node.fn, kind).format(*map(emit, node.args), T=ctype)

    return emit(expr)


def kernel_case(op: type[hip.ElementwiseOp], t: ElementType) -> str:
    """The `case` line of `op` in the switch of element type `t`."""
    result = "bool" if op.FORMULA.is_bool() else t.compute
    body = c_expression(op.FORMULA, t.compute, t.kind)
    return f"case {codes(op)[op.kind()]}: return (({result})({body}));"


def _codes(arity: int) -> dict[str, int]:
    ops = [op for op in hip.ELEMENTWISE_OPS if op.arity() == arity]
    return {op.kind(): i + 1 for i, op in enumerate(ops)}


UNARY_CODES: dict[str, int] = _codes(1)
"""`op` codes of the unary kernels (`xhip_unary_<t>`, `xhip_unary_<t>_to_i1`)."""
BINARY_CODES: dict[str, int] = _codes(2)
"""`op` codes of the binary kernels."""
TERNARY_CODES: dict[str, int] = _codes(3)
"""`op` codes of the ternary kernels."""
COPY_CODE = 0
"""The code no op has: the switches' default returns the first operand."""

OPS: dict[str, type[hip.ElementwiseOp]] = {op.kind(): op for op in hip.ELEMENTWISE_OPS}


def codes(op: type[hip.ElementwiseOp]) -> dict[str, int]:
    return {1: UNARY_CODES, 2: BINARY_CODES, 3: TERNARY_CODES}[op.arity()]


@dataclass(frozen=True)
class Kernel:
    """One generated elementwise kernel: its family, type and ops."""

    name: str
    family: str
    type: ElementType
    signature: Signature
    ops: tuple[type[hip.ElementwiseOp], ...]


def _families() -> dict[str, Kernel]:
    found: dict[str, Kernel] = {}
    for t in ELEMENT_TYPES:
        for op in hip.ELEMENTWISE_OPS:
            sig = signature(op)
            if t.kind not in op.kinds():
                continue
            name = f"xhip_{sig.family(t)}_{t.name}"
            kernel = found.get(name)
            if kernel is None:
                found[name] = Kernel(name, sig.family(t), t, sig, (op,))
                continue
            same = all(
                sig.operand_is_bool(i, t) == kernel.signature.operand_is_bool(i, t)
                for i in range(op.arity())
            )
            assert same, (
                f"{op.name} and {kernel.ops[0].name} share kernel {name} but not "
                "their operand types: give the new signature a family name"
            )
            found[name] = Kernel(
                name, kernel.family, t, kernel.signature, (*kernel.ops, op)
            )
    return found


KERNELS: dict[str, Kernel] = _families()
"""Every generated elementwise kernel, by name."""


def kernel_for(kind: str, dtype: np.dtype[Any]) -> Kernel | None:
    """The kernel running op `kind` with element type `T` = `dtype`, if any."""
    t = element_type(dtype)
    op = OPS[kind]
    if t is None:
        return None
    kernel = KERNELS.get(f"xhip_{signature(op).family(t)}_{t.name}")
    return kernel if kernel is not None and op in kernel.ops else None


def _switch_name(kernel: Kernel) -> str:
    return f"xhip_{kernel.family}_op_{kernel.type.twin}"


def _operand_ctype(kernel: Kernel, i: int) -> str:
    return (
        "bool"
        if kernel.signature.operand_is_bool(i, kernel.type)
        else kernel.type.compute
    )


def _result_ctype(kernel: Kernel) -> str:
    return "bool" if kernel.signature.result else kernel.type.compute


def _switch(kernel: Kernel) -> list[str]:
    params = ", ".join(
        f"{_operand_ctype(kernel, i)} {'xyz'[i]}"
        for i in range(len(kernel.signature.operands))
    )
    lines = [
        f"__device__ inline {_result_ctype(kernel)} {_switch_name(kernel)}(int op, "
        f"{params}, const double* p) {{",
        "  switch (op) {",
    ]
    lines += [f"    {kernel_case(op, kernel.type)}" for op in kernel.ops]
    lines += [
        "    default:",
        "      (void)p;",
        f"      return ({_result_ctype(kernel)})0;",
        "  }",
        "}",
    ]
    return lines


def _strided_kernel(
    name: str,
    leading: str,
    out_type: str,
    srcs: Sequence[tuple[str, str]],
    body: Sequence[str],
    trailing: str = "",
) -> list[str]:
    """A grid-stride kernel over `n` elements of strided views (`meta`)."""
    pointers = ", ".join(f"const {ctype}* {var}" for var, ctype in srcs)
    lines = [
        f'extern "C" __global__ void {name}({leading}{out_type}* out, {pointers}, '
        f"int rank, const xhip_index* meta, xhip_index n{trailing}) {{",
        "  const xhip_index* shape = meta;",
        "  xhip_index step = (xhip_index)blockDim.x * gridDim.x;",
        "  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; "
        "i < n; i += step) {",
    ]
    for k, (var, _) in enumerate(srcs):
        lines.append(
            f"    xhip_index at_{var} = xhip_offset(i, rank, shape, meta + {k + 2} * rank);"
        )
    lines.append("    xhip_index at = xhip_offset(i, rank, shape, meta + rank);")
    lines += [f"    {line}" for line in body]
    lines += ["  }", "}"]
    return lines


def _elementwise_kernel(kernel: Kernel) -> list[str]:
    t = kernel.type
    arity = len(kernel.signature.operands)
    names = "abc"[:arity]
    srcs = [
        (v, "unsigned char" if kernel.signature.operand_is_bool(i, t) else t.storage)
        for i, v in enumerate(names)
    ]
    body: list[str] = []
    for i, (var, _) in enumerate(srcs):
        load = "({0} != 0)" if kernel.signature.operand_is_bool(i, t) else t.load
        body.append(
            f"{_operand_ctype(kernel, i)} {'xyz'[i]} = {load.format(f'{var}[at_{var}]')};"
        )
    args = ", ".join("xyz"[:arity])
    value = f"{_switch_name(kernel)}(op, {args}, params)"
    if kernel.signature.result and t.kind != "b":
        out_type, store = "unsigned char", "(unsigned char)({0})"
    else:
        out_type, store = t.storage, t.store
    body.append(f"out[at] = {store.format(value)};")
    return _strided_kernel(
        kernel.name, "int op, ", out_type, srcs, body, ", const double* params"
    )


COPY_KERNELS: dict[int, str] = {size: f"xhip_copy_{size}" for size in (1, 2, 4, 8)}
"""The copy (and permute) kernel for each element size in bytes."""
_SIZED = {
    1: "unsigned char",
    2: "unsigned short",
    4: "unsigned int",
    8: "unsigned long long",
}
CAST_KERNEL = "xhip_cast"


def _cast_code() -> list[str]:
    """`xhip_cast`: any element type to any other, as C converts (numpy's
    unsafe cast: float to integer truncates toward zero, through int64 for
    the narrow types; float64 to float16 rounds through float32)."""
    lines = [
        "// A value of any element type: kind 0 float (f), 1 signed (i), 2 unsigned (u).",
        "struct xhip_any {",
        "  int kind;",
        "  double f;",
        "  long long i;",
        "  unsigned long long u;",
        "};",
        "__device__ inline xhip_any xhip_read(int type, const void* p, xhip_index k) {",
        "  xhip_any v;",
        "  v.kind = 0;",
        "  v.f = 0.0;",
        "  v.i = 0;",
        "  v.u = 0;",
        "  switch (type) {",
    ]
    for code, t in enumerate(ELEMENT_TYPES):
        raw = t.load.format(f"((const {t.storage}*)p)[k]")
        field, kind, ctype = {
            "f": ("f", 0, "double"),
            "i": ("i", 1, "long long"),
            "u": ("u", 2, "unsigned long long"),
            "b": ("u", 2, "unsigned long long"),
        }[t.kind]
        lines.append(
            f"    case {code}: v.kind = {kind}; v.{field} = ({ctype})({raw}); break;"
        )
    lines += ["    default: break;", "  }", "  return v;", "}"]
    lines += [
        "__device__ inline long long xhip_float_to_int(double f) { return (long long)f; }",
        "__device__ inline unsigned long long xhip_float_to_uint(double f) {",
        "  return f >= 9223372036854775808.0 ? (unsigned long long)f",
        "                                    : (unsigned long long)(long long)f;",
        "}",
        "__device__ inline void xhip_write(int type, void* p, xhip_index k, xhip_any v) {",
        "  switch (type) {",
    ]
    for code, t in enumerate(ELEMENT_TYPES):
        if t.kind == "f":
            value = (
                f"v.kind == 0 ? ({t.compute})v.f : v.kind == 1 ? ({t.compute})v.i "
                f": ({t.compute})v.u"
            )
        elif t.kind == "b":
            value = "v.kind == 0 ? v.f != 0.0 : v.kind == 1 ? v.i != 0 : v.u != 0"
        else:
            wide = (
                "xhip_float_to_uint(v.f)"
                if t.name == "u64"
                else "xhip_float_to_int(v.f)"
            )
            value = (
                f"v.kind == 0 ? ({t.compute}){wide} : v.kind == 1 ? ({t.compute})v.i "
                f": ({t.compute})v.u"
            )
        stored = t.store.format(f"({value})")
        lines.append(f"    case {code}: (({t.storage}*)p)[k] = {stored}; break;")
    lines += ["    default: break;", "  }", "}", ""]
    lines += [
        "// from, to: type codes (indexes of elementwise.ELEMENT_TYPES)",
        f'extern "C" __global__ void {CAST_KERNEL}(int from, int to, void* out, '
        "const void* src, int rank, const xhip_index* meta, xhip_index n) {",
        "  const xhip_index* shape = meta;",
        "  xhip_index step = (xhip_index)blockDim.x * gridDim.x;",
        "  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; "
        "i < n; i += step) {",
        "    xhip_any v = xhip_read(from, src, xhip_offset(i, rank, shape, meta + 2 * rank));",
        "    xhip_write(to, out, xhip_offset(i, rank, shape, meta + rank), v);",
        "  }",
        "}",
    ]
    return lines


def _prelude() -> str:
    folder = resources.files("xhip.backend").joinpath("kernels")
    return folder.joinpath("elementwise.inc").read_text(encoding="utf-8")


def generated_switches() -> str:
    """The elementwise kernels: the prelude (`kernels/elementwise.inc`), then
    per family and element type the switch of its ops and its kernel, the
    copy kernels and `xhip_cast`."""
    lines = [_prelude(), "// Generated from the FORMULA of each elementwise hip op."]
    done: set[str] = set()
    for kernel in KERNELS.values():
        switch = _switch_name(kernel)
        if switch not in done:
            done.add(switch)
            twin = KERNELS.get(f"xhip_{kernel.family}_{kernel.type.twin}", kernel)
            lines += _switch(twin)
    lines.append("")
    for kernel in KERNELS.values():
        lines += [
            f"// op: a code of the {kernel.family} ops",
            *_elementwise_kernel(kernel),
        ]
    lines.append("")
    for size, name in COPY_KERNELS.items():
        lines += _strided_kernel(
            name, "", _SIZED[size], [("a", _SIZED[size])], ["out[at] = a[at_a];"]
        )
    lines += _cast_code()
    return "\n".join(lines) + "\n"
