"""Op families loaded on first use: the `hip` and `onnx` packages' attributes.

A whole `xhip compile` process is mostly imports, and xDSL builds each IRDL op
class as its module loads (some 0.2 ms an op). A model uses a few of the
dialects' 50-odd families, so `xhip.dialects.hip` and `xhip.dialects.onnx`
import none of them: the first read of a name (`hip.MatmulOp`, `from
xhip.dialects.onnx import ReluOp`) imports the family that defines it, found in
the generated `family_index`, and the tables of the whole dialect (`OPS`, the
`Dialect`, ...) load every family. Text IR parsing gets the whole dialect too,
since the Context loads a dialect's `Dialect` at its first op name.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from types import ModuleType


def family_of(names: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """Public name -> its family, from the index's family -> names."""
    return {name: family for family, listed in names.items() for name in listed}


class LazyFamilies:
    """A dialect package's `__getattr__`: a family's public name, the family
    module itself, or one of the package's whole-dialect `tables`, each
    computed once and then stored in the package's namespace (so that only a
    first read comes here)."""

    def __init__(
        self,
        package: str,
        namespace: dict[str, object],
        families: tuple[str, ...],
        names: Mapping[str, tuple[str, ...]],
        tables: Mapping[str, Callable[[], object]],
    ) -> None:
        self.package = package
        self.namespace = namespace
        self.families = families
        self.modules = {family: f"{package}.{family}" for family in families}
        self.family_of = family_of(names)
        self.tables = tables

    def family(self, family: str) -> ModuleType:
        return importlib.import_module(f"{self.package}.{family}")

    def all_families(self) -> tuple[ModuleType, ...]:
        """Every family, in the package's written-down order."""
        return tuple(self.family(f) for f in self.families)

    def is_loaded(self, family: str) -> bool:
        """Whether `family` (one of the package's) is loaded: no op or type of
        a family that is not can exist yet."""
        module = self.modules.get(family)
        if module is None:
            raise ValueError(f"{self.package} has no family {family!r}")
        return module in sys.modules

    def loaded(self, names: tuple[str, ...]) -> tuple[type, ...]:
        """The classes of `names` whose families are loaded: `isinstance`
        against them answers as against all of `names` (an instance of a
        class whose family is not loaded cannot exist), loading nothing."""
        found: list[type] = []
        for name in names:
            family = self.family_of[name]  # a KeyError for a misspelt name
            if self.modules[family] in sys.modules:
                value = self.get(name)
                assert isinstance(value, type)
                found.append(value)
        return tuple(found)

    def get(self, name: str) -> object:
        """The value of `name` (what the package's `__getattr__` returns)."""
        if name in self.namespace:
            return self.namespace[name]
        if name in self.tables:
            value = self.tables[name]()
        elif name in self.family_of:
            value = getattr(self.family(self.family_of[name]), name)
        elif name in self.families:
            value = self.family(name)
        else:
            raise AttributeError(f"module {self.package!r} has no attribute {name!r}")
        self.namespace[name] = value
        return value
