"""Reading an `.onnx` file and bringing an old one up to the opset we follow.

Apart from the importer because both ends of a model's journey need it: the
command line reads files, and `xhip.compile` takes `ModelProto`s too. Every
problem is an `OnnxImportError` of one line naming the file.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import cast

import onnx
from google.protobuf.message import DecodeError
from onnx import ModelProto, version_converter

from xhip.frontend.scan8 import Scan8Error, rewrite_scan8
from xhip.frontend.value_info import first_line

MIN_OPSET = 13
"""The default-domain opset the dialect's ops follow: older models are first
converted to it by onnx's version converter (`upgrade_opset`)."""


class OpsetConversionWarning(UserWarning):
    """A model was converted from an older opset at import: said in one line."""


ONNX_DOMAINS = ("", "ai.onnx")


class OnnxImportError(Exception):
    """A model we cannot import, for a reason its author can fix: one line."""


def load_model(path: str | os.PathLike[str]) -> ModelProto:
    """Read an `.onnx` file, not its external data (the importer maps that);
    bad files are one line."""
    source = os.fspath(path)
    if not os.path.exists(source):
        raise OnnxImportError(f"{source}: no such file")
    if os.path.isdir(source):
        raise OnnxImportError(f"{source}: is a directory, not an ONNX model")
    try:
        # onnx annotates `f` with a bare `os.PathLike`: strict reads it as
        # partially unknown.
        model = cast(Callable[..., ModelProto], onnx.load)(
            source, load_external_data=False
        )
    except DecodeError as e:
        raise OnnxImportError(
            f"{source}: not an ONNX model (protobuf parse failed: {first_line(str(e))}; "
            f"is the file truncated or corrupt?)"
        ) from None
    except (OSError, onnx.checker.ValidationError, ValueError) as e:
        raise OnnxImportError(f"{source}: cannot read: {first_line(str(e))}") from None
    if not model.HasField("graph") or not model.ir_version:
        raise OnnxImportError(
            f"{source}: not an ONNX model (no graph or IR version in the file)"
        )
    return model


def default_opset(model: ModelProto) -> int | None:
    versions = [o.version for o in model.opset_import if o.domain in ONNX_DOMAINS]
    return versions[0] if versions else None


def upgrade_opset(model: ModelProto, source: str) -> ModelProto:
    """`model` at `MIN_OPSET` or newer: an older one goes through
    `onnx.version_converter`, said in one warning; a failure is one line."""
    opset = default_opset(model)
    if opset is None or opset >= MIN_OPSET:
        return model
    if opset < 9:
        try:
            model = rewrite_scan8(model)
        except Scan8Error as e:
            raise OnnxImportError(f"{source}: {e}") from None
    try:
        converted = version_converter.convert_version(model, MIN_OPSET)
    except Exception as e:  # the converter raises RuntimeError, ValueError, ...
        raise OnnxImportError(
            f"{source}: cannot convert opset {opset} to {MIN_OPSET} with "
            f"onnx.version_converter: {first_line(str(e))}"
        ) from None
    if converted.ir_version < 4:
        # The converter turns attributes into initializers (Pad's pads), which
        # IR 3 wants listed as graph inputs; IR 4 (opset 9's) does not.
        converted.ir_version = 4
    warnings.warn(
        f"{source}: converted from opset {opset} to {MIN_OPSET} "
        "(onnx.version_converter)",
        OpsetConversionWarning,
        stacklevel=2,
    )
    return converted
