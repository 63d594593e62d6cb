"""Fixtures for the backend tests: the seed's final IR, its signature, weights."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from tests.pytest.conftest import STAGES
from xhip.backend.reference import AttentionWeights
from xhip.backend.session import Signature
from xhip.context import make_context

FINAL = STAGES / "after-pass-21-hip-resolve-extern-constants.mlir"


def parse_stage(path: Path) -> ModuleOp:
    return Parser(make_context(), path.read_text()).parse_module()


def stage(number: int) -> Path:
    return next(STAGES.glob(f"after-pass-{number:02d}-*.mlir"))


def module_with_globals(function_stage: int) -> ModuleOp:
    """A function-only stage put into the module of stage 14 (same globals)."""
    module = parse_stage(stage(14))
    text = stage(function_stage).read_text()
    function = Parser(make_context(), text).parse_op()
    old = next(op for op in module.body.block.ops if isinstance(op, FuncOp))
    module.body.block.insert_op_before(function, old)
    module.body.block.erase_op(old)
    return module


@pytest.fixture(scope="session")
def final_module() -> ModuleOp:
    return parse_stage(FINAL)


@pytest.fixture(scope="session")
def signature() -> Signature:
    function = Parser(make_context(), stage(20).read_text()).parse_op()
    assert isinstance(function, FuncOp)
    return Signature.from_function(function)


@pytest.fixture(scope="session")
def weights() -> AttentionWeights:
    return AttentionWeights.random(0)
