"""The `hip` and `onnx` packages load a family at the first read of one of its
names (`xhip.dialects.families`), through the generated `family_index`.

The index must be what its generator makes of the families now; each name read
from a package must be its family's object; the whole-dialect tables must be
what the families list; and a fresh interpreter that reads one name must load
only that name's family (and what the family imports).
"""

from __future__ import annotations

import json
import subprocess
import sys
from types import ModuleType

import pytest

from tests.pytest.conftest import REPO
from xhip.dialects import family_index_gen, hip, onnx
from xhip.frontend.onnx_importer import CONTRIB_ALIASES, contrib_ops, supported_ops

PACKAGES = [pytest.param(hip, id="hip"), pytest.param(onnx, id="onnx")]


def test_the_index_is_current() -> None:
    """Regenerated, it is the file: else run `python -m
    xhip.dialects.family_index_gen`."""
    assert family_index_gen.PATH.read_text() == family_index_gen.render()


def test_a_name_two_families_export_is_refused() -> None:
    one, two = ModuleType("one"), ModuleType("two")
    one.__all__, two.__all__ = ["A"], ["A"]  # type: ignore[attr-defined]
    package = ModuleType("package")
    package.one, package.two = one, two  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="A is exported by both one and two"):
        family_index_gen.family_names(("one", "two"), package)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_name_is_its_familys_object(package: ModuleType) -> None:
    names: list[str] = []
    for family in package.FAMILIES:
        for name in family.__all__:
            assert getattr(package, name) is getattr(family, name), name
            names.append(name)
    assert sorted(names) == sorted(set(names))
    assert set(names) <= set(package.__all__)


@pytest.mark.parametrize("package", PACKAGES)
def test_the_tables_are_the_families_in_order(package: ModuleType) -> None:
    families = [getattr(package, name) for name in package.FAMILY_NAMES]
    assert list(package.FAMILIES) == families
    assert package.OPS == tuple(op for family in families for op in family.OPS)
    modules = {f"{package.__name__}.{name}" for name in package.FAMILY_NAMES}
    assert {m for m in sys.modules if m.startswith(package.__name__ + ".")} <= modules


def test_the_hip_tables_keep_their_derivation() -> None:
    assert hip.COMPUTE_OPS == tuple(
        op for op in hip.OPS if issubclass(op, hip.HipDPSOp)
    )
    assert hip.ELEMENTWISE_OPS == tuple(
        op for op in hip.COMPUTE_OPS if issubclass(op, hip.ElementwiseOp)
    )
    assert list(hip.HIP.operations) == list(hip.OPS)
    assert list(onnx.ONNX.operations) == list(onnx.OPS)
    assert set(onnx.ONNX.attributes) == set(onnx.sequence.TYPES)


@pytest.mark.parametrize("package", PACKAGES)
def test_an_unknown_name_is_an_attribute_error(package: ModuleType) -> None:
    with pytest.raises(AttributeError, match="NoSuchOp"):
        package.NoSuchOp  # noqa: B018
    with pytest.raises(ValueError, match="no family 'nope'"):
        onnx.family_loaded("nope")
    with pytest.raises(KeyError):
        onnx.loaded("NoSuchOp")


def test_loaded_gives_the_classes_of_loaded_families() -> None:
    onnx.ReluOp  # noqa: B018  (loads its family)
    assert onnx.family_loaded("compute")
    assert onnx.loaded("ReluOp", "AddOp") == (onnx.ReluOp, onnx.AddOp)


def _fresh(code: str) -> dict[str, list[str]]:
    """The families of each package a fresh interpreter holds after `code`."""
    report = (
        "import json, sys\n"
        "print(json.dumps({p: sorted(m.rsplit('.', 1)[1] for m in sys.modules "
        "if m.startswith(f'xhip.dialects.{p}.')) for p in ('hip', 'onnx')}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\n{report}"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_a_fresh_package_loads_no_family() -> None:
    assert _fresh("from xhip.dialects import hip, onnx") == {"hip": [], "onnx": []}


def test_reading_a_name_loads_its_family_only() -> None:
    code = (
        "from xhip.dialects import hip, onnx\n"
        "from xhip.dialects.hip import MatmulOp\n"
        "assert onnx.ReluOp.name == 'onnx.Relu'\n"
        "assert not onnx.family_loaded('conv') and onnx.loaded('ConvOp') == ()"
    )
    assert _fresh(code) == {"hip": ["base", "matmul"], "onnx": ["base", "compute"]}


def test_the_importer_reads_the_ops_the_dialect_defines() -> None:
    """The importer's tables, from the index, are what the dialect's op
    classes say (the derivation they replaced)."""
    expected = {
        op.name.removeprefix("onnx."): op
        for op in onnx.OPS
        if issubclass(op, onnx.OnnxOp)
        and op not in (onnx.EntryPointOp, onnx.YieldOp)
        and not issubclass(op, onnx.ContribOp)
    }
    assert supported_ops() == expected
    contrib = {key: getattr(onnx, name) for key, name in CONTRIB_ALIASES.items()}
    for op in onnx.OPS:
        if issubclass(op, onnx.ContribOp):
            for domain in op.DOMAINS:
                contrib[domain, op.name.removeprefix("onnx.")] = op
    assert contrib_ops() == contrib
