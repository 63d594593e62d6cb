"""A correctness fix to xDSL 0.75's parser, installed by `xhip.universe` (so
for `xdsl-opt` too).

`fix_dense_hex_floats()`: in a float `dense<...>` literal MLIR reads a
hexadecimal integer as the element's bit pattern, and xDSL's printer writes
NaN and the infinities that way (`dense<0xFF800000> : tensor<f32>` is -inf).
xDSL's parser took it as a number: -inf read back as 4.29e9 and NaN as
2.14e9, so `xhip import` output or any stage's IR with such a constant did
not parse back to itself. xDSL's own `FloatAttr` parsing decodes the bits
already; this does the same for dense elements. The text for upstream is in
`docs/xdsl-upstream.md`.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import AnyFloat
from xdsl.parser.attribute_parser import AttrParser

_Element: Any = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
XDSL_TO_TYPE: Any = _Element.to_type


def _to_type(self: Any, parser: AttrParser, type: Any) -> Any:
    value = self.value
    if (
        isinstance(type, AnyFloat)
        and type_is_int(value)
        and self.span.text[:2] in ("0x", "0X")
    ):
        if value.bit_length() > type.bitwidth:
            parser.raise_error(
                "Hexadecimal float constant out of range for type", self.span
            )
        raw = value.to_bytes(type.compile_time_size, "little")
        return next(type.iter_unpack(raw))
    return XDSL_TO_TYPE(self, parser, type)


def type_is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def fix_dense_hex_floats() -> None:
    """Installs the fix (idempotent)."""
    _Element.to_type = _to_type
