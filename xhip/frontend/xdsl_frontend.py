"""The `onnx` frontend of `xdsl-opt`: `.onnx` files in, the onnx dialect out.

    xdsl-opt examples/attention.onnx -p 'onnx-to-hip{externalize-output-dir="out"}'

xDSL picks a frontend by the input's extension (`.onnx`), or by `-f onnx`
(for stdin); `xhip.universe` registers this one. The module is what
`xhip import` prints (`xhip.frontend.onnx_importer`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import IO, ClassVar

import onnx
from google.protobuf.message import DecodeError
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import ParseError
from xdsl.utils.frontend import Frontend
from xdsl.utils.lexer import Input, Span

from xhip.frontend.onnx_importer import OnnxImportError, import_model


@dataclass
class OnnxParseError(ParseError):
    """A model the importer cannot read, as the kind of error xdsl-opt reports
    for a bad input (`--parsing-diagnostics` prints it and exits 0).

    Printed as its message alone: a binary protobuf has no line to point at.
    """

    def __str__(self) -> str:
        return self.msg


def _error(input_name: str, message: str) -> OnnxParseError:
    return OnnxParseError(Span(0, 0, Input("", input_name)), message)


def _first_line(message: str) -> str:
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    return lines[0] if lines else "(no message)"


@dataclass(frozen=True)
class OnnxFrontend(Frontend):
    """Reads a serialized `ModelProto` and imports it as `xhip import` does."""

    name: ClassVar[str] = "onnx"

    def parse(self, ctx: Context, input: IO[bytes], input_name: str) -> ModuleOp:
        try:
            model = onnx.load_model_from_string(input.read())
        except DecodeError as e:
            raise _error(
                input_name,
                f"{input_name}: not an ONNX model (protobuf parse failed: "
                f"{_first_line(str(e))}; is the file truncated or corrupt?)",
            ) from None
        if not model.HasField("graph") or not model.ir_version:
            raise _error(
                input_name,
                f"{input_name}: not an ONNX model (no graph or IR version in the file)",
            )
        # External data lives next to the model file (stdin: the current
        # directory); the importer maps it (`xhip.mapped`).
        base_dir = os.path.dirname(input_name) if os.path.isfile(input_name) else ""
        try:
            return import_model(model, source=input_name, base_dir=base_dir)
        except OnnxImportError as e:
            raise _error(input_name, str(e)) from None
