"""Operand roles of the hip compute ops (`INDEX`, `INS`, `OUTS`): every op
declares them, their parsing (`?` optional, `*` variadic), the verifier's
count check derived from them, binding operands to roles, and the typed
`make` builders placing operands by role."""

from __future__ import annotations

import inspect
import keyword
import pkgutil
from importlib import import_module

import pytest
from xdsl.dialects.builtin import IndexType, MemRefType, f32, i1, i64
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from xhip.dialects import hip
from xhip.dialects.hip import Role, bind_group, parse_roles, role_counts
from xhip.testing import parse_module


def memref(*shape: int, element: object = f32) -> SSAValue:
    return create_ssa_value(MemRefType(element, shape))  # pyright: ignore[reportArgumentType]


CTX = create_ssa_value(hip.ContextType())


def index() -> SSAValue:
    return create_ssa_value(IndexType())


@pytest.mark.parametrize("op", hip.COMPUTE_OPS, ids=lambda op: op.name)
def test_every_compute_op_declares_its_roles(op: type[hip.HipDPSOp]) -> None:
    names = [r.name for group in op.role_groups() for r in group]
    assert names, f"{op.name} declares no operand roles"
    assert len(set(names)) == len(names), f"{op.name}: a role named twice: {names}"
    for name in names:
        assert name.isidentifier() and not keyword.iskeyword(name), name
    assert op.OUTS, f"{op.name} writes nothing"
    if issubclass(op, hip.ElementwiseOp):
        assert len(op.INS) == op.arity(), f"{op.name}: INS do not match its formula"


def test_role_parsing() -> None:
    assert parse_roles(("x", "w", "bias?")) == (
        Role("x"),
        Role("w"),
        Role("bias", optional=True),
    )
    assert parse_roles(("inputs*",)) == (Role("inputs", variadic=True),)
    assert parse_roles(("inputs+",)) == (Role("inputs", variadic=True, min_count=1),)
    assert role_counts(parse_roles(("inputs+",))) == (1, None)
    assert role_counts(parse_roles(("x", "w", "bias?"))) == (2, 3)
    assert role_counts(parse_roles(("x", "inputs*"))) == (1, None)
    assert role_counts(parse_roles(())) == (0, 0)
    with pytest.raises(ValueError, match="variadic"):
        parse_roles(("a*", "b*"))
    with pytest.raises(ValueError, match="variadic"):
        parse_roles(("a*", "b?"))


def test_binding_optional_and_variadic_roles() -> None:
    conv = parse_roles(("x", "w", "bias?"))
    assert bind_group(conv, [1, 2]) == {"x": 1, "w": 2, "bias": None}
    assert bind_group(conv, [1, 2, 3]) == {"x": 1, "w": 2, "bias": 3}
    pads = parse_roles(("pads*",))
    assert bind_group(pads, []) == {"pads": ()}
    assert bind_group(pads, [4, 5]) == {"pads": (4, 5)}
    assert bind_group(parse_roles(("x", "inputs+")), [1, 2]) == {"x": 1, "inputs": (2,)}
    with pytest.raises(ValueError, match="do not fit"):
        bind_group(parse_roles(("inputs+",)), [])
    both = parse_roles(("scores", "mask?", "nonpad?"))
    assert bind_group(both, [1, 2]) == {"scores": 1, "mask": 2, "nonpad": None}
    assert bind_group(both, [1, 2], absent={"mask"}) == {
        "scores": 1,
        "mask": None,
        "nonpad": 2,
    }
    with pytest.raises(ValueError, match="do not fit"):
        bind_group(conv, [1])
    with pytest.raises(ValueError, match="do not fit"):
        bind_group(conv, [1, 2, 3, 4])


def test_bind_roles_names_the_runtime_keywords() -> None:
    """Run-time values (here ints) bound by the class alone, as the
    interpreter does once it has evaluated the operands."""
    assert hip.TopKOp.bind_roles(["x"], ["v", "i"]) == {
        "src": "x",
        "values": "v",
        "indices": "i",
    }
    assert hip.TransposeOp.bind_roles(["x"], ["y"], [0, 2]) == {
        "dim0": 0,
        "dim1": 2,
        "src": "x",
        "out": "y",
    }
    assert hip.ConcatOp.bind_roles(["a", "b"], ["y"]) == {
        "inputs": ("a", "b"),
        "out": "y",
    }


def test_make_places_operands_by_role() -> None:
    x, w, bias = memref(1, 2, 5), memref(3, 2, 2), memref(3)
    y, workspace = memref(1, 3, 4), memref(16)
    window = {"strides": [1], "dilations": [1], "pads": [0, 0], "group": 1}
    conv = hip.ConvOp.make(CTX, x=x, w=w, out=y, workspace=workspace, **window)
    conv.verify()
    assert conv.bound_roles() == {
        "x": x,
        "w": w,
        "bias": None,
        "out": y,
        "workspace": workspace,
    }
    biased = hip.ConvOp.make(
        CTX, x=x, w=w, bias=bias, out=y, workspace=workspace, **window
    )
    assert list(biased.inputs) == [x, w, bias]
    assert biased.bound_roles()["bias"] is bias
    with pytest.raises(TypeError, match="'w' is required"):
        hip.ConvOp._from_roles(CTX, {"x": x, "out": y, "workspace": workspace})  # pyright: ignore[reportPrivateUsage]
    with pytest.raises(TypeError, match="no roles"):
        hip.CopyOp._from_roles(CTX, {"src": x, "out": y, "oops": y})  # pyright: ignore[reportPrivateUsage]


def test_attention_nonpad_without_mask_binds_to_nonpad() -> None:
    """The one op whose optional `ins` are told apart by type: nonpad alone
    is ins[1], and `absent_roles()` says the mask is missing."""
    scores, out, nonpad = memref(1, 1, 2, 3), memref(1, 1, 2, 3), memref(1, element=i64)
    op = hip.AttentionSoftmaxOp.make(
        CTX, scores=scores, nonpad=nonpad, out=out, past=index(), scale=1.0
    )
    op.verify()
    assert list(op.inputs) == [scores, nonpad]
    roles = op.bound_roles()
    assert roles["mask"] is None and roles["nonpad"] is nonpad
    mask = memref(1, 1, 2, 3, element=i1)
    both = hip.AttentionSoftmaxOp.make(
        CTX, scores=scores, mask=mask, nonpad=nonpad, out=out, past=index(), scale=1.0
    )
    assert (both.bound_roles()["mask"], both.bound_roles()["nonpad"]) == (mask, nonpad)


def test_variadic_index_roles() -> None:
    x, y = memref(2, 3), memref(4, 3)
    pads = [index() for _ in range(4)]
    pad = hip.PadOp.make(CTX, x=x, out=y, pads=pads, mode="constant")
    assert pad.bound_roles() == {
        "pads": tuple(pads),
        "x": x,
        "value": None,
        "out": y,
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "hip.hipblaslt.matmul(%ctx) ins(%a : memref<2x2xf32>) "
            "outs(%a : memref<2x2xf32>)",
            "'hip.hipblaslt.matmul' expects 2 ins operands, got 1",
        ),
        (
            "hip.concat(%ctx) ins() outs(%a : memref<2x2xf32>) {axis = 0 : i64}",
            "'hip.concat' expects 1 or more ins operands, got 0",
        ),
        (
            "hip.miopen.softmax(%ctx) ins(%a, %a, %a : memref<2x2xf32>, "
            "memref<2x2xf32>, memref<2x2xf32>) outs(%a : memref<2x2xf32>)",
            "'hip.miopen.softmax' expects 1 to 2 ins operands, got 3",
        ),
        (
            "hip.topk(%ctx) ins(%a : memref<2x2xf32>) outs(%a : memref<2x2xf32>) "
            "{axis = 0 : i64}",
            "'hip.topk' expects 2 outs operands, got 1",
        ),
        (
            "hip.trilu(%ctx) ins(%a : memref<2x2xf32>) outs(%a : memref<2x2xf32>)",
            "'hip.trilu' expects 1 index operand, got 0",
        ),
        (  # the pools share the roles ("out", "indices?"); only MaxPool writes both
            "hip.miopen.average_pool(%ctx) ins(%a : memref<2x2xf32>) "
            "outs(%a, %a : memref<2x2xf32>, memref<2x2xf32>) "
            "{strides = array<i64>, dilations = array<i64>, pads = array<i64>}",
            "'hip.miopen.average_pool' writes no indices",
        ),
    ],
)
def test_verifier_checks_counts_from_roles(text: str, message: str) -> None:
    module = parse_module(
        "func.func @f(%ctx: !hip.context, %a: memref<2x2xf32>) {\n"
        f"  {text}\n  func.return\n}}\n"
    )
    with pytest.raises(VerifyException, match=message):
        module.verify()


def test_op_list_names_every_declared_op() -> None:
    """`hip.OPS` is written out (its order numbers the kernels' op codes): an
    op declared in a family module but left out of it would be unknown."""
    declared: set[type[IRDLOperation]] = set()
    for info in pkgutil.iter_modules(hip.__path__):
        module = import_module(f"{hip.__name__}.{info.name}")
        declared |= {
            value
            for _, value in inspect.getmembers(module, inspect.isclass)
            if issubclass(value, IRDLOperation)
            and value.__module__ == module.__name__
            and "name" in vars(value)
        }
    assert declared == set(hip.OPS)
    assert len(hip.OPS) == len(set(hip.OPS))
