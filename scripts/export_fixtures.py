"""Export small real ONNX models (transformers, torchvision) as xhip test fixtures.

Every model is built from a config with random weights (fixed seeds, nothing is
downloaded), exported with both of torch's ONNX exporters (TorchScript, opset 17,
and dynamo, its default opset), checked with ONNX Runtime against torch eager at
several input sizes, and saved with a `.npz` of one set of inputs and torch's
outputs. A `README.md` describing every fixture is written beside them.

Needs torch, torchvision, transformers, onnxscript, onnx, onnxruntime, numpy; run
it with a venv that has them (not the repo's `.venv`; CI never runs it):

    python3 -m venv /work/fixtures-venv
    /work/fixtures-venv/bin/pip install torch==2.14.1 torchvision==0.29.1
    /work/fixtures-venv/bin/pip install transformers onnxscript onnx onnxruntime numpy
    /work/fixtures-venv/bin/python scripts/export_fixtures.py --out tests/fixtures/models

Fixtures too large to commit (the real ResNet-18 and MobileNetV2) are written, with
their weights as external data, to `--external-dir`, which must lie outside the repo.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import subprocess
import sys
import tempfile
import traceback
import warnings
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import torch
import torchvision
import transformers
from torch.export import Dim
from torchvision.models.resnet import BasicBlock, ResNet

REPO = Path(__file__).resolve().parent.parent
ATOL = 1e-4
RTOL = 1e-4
TS_OPSET = 17
VOCAB = 128
SHAPE_SOURCES = {"Shape", "Size"}
INTEGER_TYPES = {
    onnx.TensorProto.INT64,
    onnx.TensorProto.INT32,
    onnx.TensorProto.BOOL,
}
EXPORTERS = ("torchscript", "dynamo")

Inputs = dict[str, np.ndarray]


@dataclass
class Spec:
    """One model to export: how to build it, feed it and export its dims."""

    name: str
    family: str  # "transformer" or "vision"
    source: str  # the constructor call, as README shows it
    build: Callable[[], torch.nn.Module]
    input_names: list[str]
    output_names: list[str]
    cases: list[Callable[[np.random.Generator], Inputs]]
    case_labels: list[str]
    npz_case: int
    dynamic_axes: dict[str, dict[int, str]] | None
    dynamic_shapes: Any
    commit: frozenset[str]  # exporters whose fixture goes into --out
    note: str = ""
    rename_dims: dict[tuple[str, int], str] = field(default_factory=dict)


@dataclass
class Result:
    """What exporting and checking one (spec, exporter) pair gave."""

    spec: Spec
    exporter: str
    stem: str
    committed: bool
    ok: bool = False
    error: str = ""
    onnx_path: Path | None = None
    data_path: Path | None = None
    npz_path: Path | None = None
    opset: int = 0
    nodes: int = 0
    histogram: Counter[str] = field(default_factory=Counter)
    shape_nodes: int = 0
    int_constants: int = 0
    dims: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- model wrappers


class TextModel(torch.nn.Module):
    """input_ids, attention_mask -> one output tensor (logits or last hidden state)."""

    def __init__(self, model: torch.nn.Module, output: str):
        super().__init__()
        self.model = model
        self.output = output

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor
    ) -> torch.Tensor:
        out = self.model(
            input_ids=input_ids, attention_mask=attention_mask, use_cache=False
        )
        return getattr(out, self.output)


class Gpt2WithPast(torch.nn.Module):
    """GPT-2 (2 layers) decoding step: past keys/values in, logits and presents out."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = model

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        past_key_0: torch.Tensor,
        past_value_0: torch.Tensor,
        past_key_1: torch.Tensor,
        past_value_1: torch.Tensor,
    ) -> tuple[torch.Tensor, ...]:
        from transformers.cache_utils import DynamicCache

        past = [(past_key_0, past_value_0), (past_key_1, past_value_1)]
        cache = DynamicCache(ddp_cache_data=past, config=self.model.config)
        out = self.model(
            input_ids=input_ids,
            attention_mask=attention_mask,
            cache=cache,
            use_cache=True,
        )
        present = getattr(out, "cache", None) or out.past_key_values
        outs = [out.logits]
        for layer in present.layers:
            outs += [layer.keys, layer.values]
        return tuple(outs)


class NarrowResNet18(ResNet):
    """torchvision's ResNet-18 (its `ResNet` class and `BasicBlock`, layers
    [2, 2, 2, 2]) with every width divided by `divisor`, small enough to commit.

    `ResNet.__init__` hard-codes the widths 64-512, so the stem, the four
    stages and the head are built again at the narrow widths, initialised as
    torchvision initialises them.
    """

    def __init__(self, divisor: int, num_classes: int):
        super().__init__(BasicBlock, [2, 2, 2, 2], num_classes=num_classes)
        width = [64 // divisor, 128 // divisor, 256 // divisor, 512 // divisor]
        self.inplanes = width[0]
        self.conv1 = torch.nn.Conv2d(3, width[0], 7, stride=2, padding=3, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(width[0])
        self.layer1 = self._make_layer(BasicBlock, width[0], 2)
        self.layer2 = self._make_layer(BasicBlock, width[1], 2, stride=2)
        self.layer3 = self._make_layer(BasicBlock, width[2], 2, stride=2)
        self.layer4 = self._make_layer(BasicBlock, width[3], 2, stride=2)
        self.fc = torch.nn.Linear(width[3], num_classes)
        for m in self.modules():
            if isinstance(m, torch.nn.Conv2d):
                torch.nn.init.kaiming_normal_(
                    m.weight, mode="fan_out", nonlinearity="relu"
                )
            elif isinstance(m, torch.nn.BatchNorm2d):
                torch.nn.init.constant_(m.weight, 1)
                torch.nn.init.constant_(m.bias, 0)


def calibrate_batchnorm(model: torch.nn.Module, seed: int) -> torch.nn.Module:
    """Set BatchNorm running stats from random batches, so activations stay O(1).

    With torchvision's init and BN stats of (0, 1), MobileNetV2's logits are ~1e-7,
    which makes an atol check meaningless; calibrated stats keep every layer live.
    """
    bns = [
        m
        for m in model.modules()
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)
    ]
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None  # cumulative average
    gen = torch.Generator().manual_seed(seed)
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.randn(8, 3, 64, 64, generator=gen))
    return model.eval()


# ---------------------------------------------------------------- specs


def kwargs_text(kwargs: dict[str, Any]) -> str:
    """`a=1, b=2` for README."""
    return ", ".join(f"{k}={v!r}" for k, v in kwargs.items())


def text_case(batch: int, seq: int) -> Callable[[np.random.Generator], Inputs]:
    """input_ids and attention_mask; with batch > 1, row 1 is padded (zeros at the end)."""

    def make(rng: np.random.Generator) -> Inputs:
        ids = rng.integers(0, VOCAB, size=(batch, seq), dtype=np.int64)
        mask = np.ones((batch, seq), dtype=np.int64)
        if batch > 1 and seq >= 4:
            mask[1, seq - 3 :] = 0
        return {"input_ids": ids, "attention_mask": mask}

    return make


def past_case(
    batch: int, seq: int, past: int
) -> Callable[[np.random.Generator], Inputs]:
    """A GPT-2 decoding step after `past` tokens; row 1 padded at the end."""

    def make(rng: np.random.Generator) -> Inputs:
        total = past + seq
        feeds: Inputs = {
            "input_ids": rng.integers(0, VOCAB, size=(batch, seq), dtype=np.int64),
            "attention_mask": np.ones((batch, total), dtype=np.int64),
        }
        if batch > 1:
            feeds["attention_mask"][1, total - 2 :] = 0
        for i in range(2):
            for kind in ("key", "value"):
                shape = (batch, 4, past, 8)
                feeds[f"past_{kind}_{i}"] = rng.standard_normal(shape).astype(
                    np.float32
                )
        return feeds

    return make


def image_case(
    batch: int, height: int, width: int
) -> Callable[[np.random.Generator], Inputs]:
    """One float32 image batch."""

    def make(rng: np.random.Generator) -> Inputs:
        return {
            "input": rng.standard_normal((batch, 3, height, width)).astype(np.float32)
        }

    return make


TEXT_CASES = [(1, 1), (1, 16), (2, 7), (2, 16)]
TEXT_AXES = {
    "input_ids": {0: "batch", 1: "seq"},
    "attention_mask": {0: "batch", 1: "seq"},
}


def text_dynamic_shapes() -> dict[str, dict[int, Any]]:
    """dynamo's dims for input_ids/attention_mask."""
    batch, seq = Dim("batch"), Dim("seq")
    return {"input_ids": {0: batch, 1: seq}, "attention_mask": {0: batch, 1: seq}}


def text_spec(
    name: str, config_cls: str, model_cls: str, config: dict[str, Any], output: str
) -> Spec:
    """A transformers model taking input_ids/attention_mask."""

    def build() -> torch.nn.Module:
        cfg = getattr(transformers, config_cls)(**config)
        return TextModel(getattr(transformers, model_cls)(cfg), output)

    out_name = output if output == "logits" else "last_hidden_state"
    return Spec(
        name=name,
        family="transformer",
        source=f"transformers.{model_cls}({config_cls}({kwargs_text(config)})) -> {output}",
        build=build,
        input_names=["input_ids", "attention_mask"],
        output_names=[out_name],
        cases=[text_case(b, s) for b, s in TEXT_CASES],
        case_labels=[f"batch={b}, seq={s}" for b, s in TEXT_CASES],
        npz_case=2,
        dynamic_axes={**TEXT_AXES, out_name: {0: "batch", 1: "seq"}},
        dynamic_shapes=text_dynamic_shapes(),
        commit=frozenset(EXPORTERS),
    )


GPT2_CONFIG = dict(
    n_layer=2,
    n_embd=32,
    n_head=4,
    vocab_size=VOCAB,
    n_positions=64,
    bos_token_id=1,
    eos_token_id=2,
)
BERT_CONFIG = dict(
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=64,
    vocab_size=VOCAB,
    max_position_embeddings=64,
    type_vocab_size=2,
    pad_token_id=0,
)
LLAMA_CONFIG = dict(
    hidden_size=32,
    intermediate_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    vocab_size=VOCAB,
    max_position_embeddings=64,
    bos_token_id=1,
    eos_token_id=2,
)


def gpt2_past_spec() -> Spec:
    """GPT-2 with past key values in and present key values out."""

    def build() -> torch.nn.Module:
        return Gpt2WithPast(
            transformers.GPT2LMHeadModel(transformers.GPT2Config(**GPT2_CONFIG))
        )

    past_names = [f"past_{k}_{i}" for i in range(2) for k in ("key", "value")]
    present_names = [f"present_{k}_{i}" for i in range(2) for k in ("key", "value")]
    batch, seq, past = Dim("batch"), Dim("seq"), Dim("past_seq")
    dynamic_shapes: dict[str, Any] = {
        "input_ids": {0: batch, 1: seq},
        "attention_mask": {0: batch, 1: Dim.DYNAMIC},  # past_seq + seq
        **{n: {0: batch, 2: past} for n in past_names},
    }
    axes = {
        "input_ids": {0: "batch", 1: "seq"},
        "attention_mask": {0: "batch", 1: "total_seq"},
        **{n: {0: "batch", 2: "past_seq"} for n in past_names},
        "logits": {0: "batch", 1: "seq"},
        **{n: {0: "batch", 2: "total_seq"} for n in present_names},
    }
    cases = [(1, 1, 4), (2, 7, 5), (2, 1, 16)]
    return Spec(
        name="gpt2_past",
        family="transformer",
        source=(
            f"transformers.GPT2LMHeadModel(GPT2Config({kwargs_text(GPT2_CONFIG)})) with a "
            "DynamicCache built from past_key/value_{0,1} [batch, 4, past_seq, 8] "
            "-> logits, present_key/value_{0,1}"
        ),
        build=build,
        input_names=["input_ids", "attention_mask", *past_names],
        output_names=["logits", *present_names],
        cases=[past_case(b, s, p) for b, s, p in cases],
        case_labels=[f"batch={b}, seq={s}, past_seq={p}" for b, s, p in cases],
        npz_case=1,
        dynamic_axes=axes,
        dynamic_shapes=dynamic_shapes,
        commit=frozenset(EXPORTERS),
        rename_dims={
            ("attention_mask", 1): "total_seq"
        },  # dynamo names Dim.DYNAMIC sNN
    )


VISION_DYNAMIC_CASES = [(1, 224, 224), (1, 64, 96), (1, 32, 48)]


def vision_spec(
    name: str,
    source: str,
    build: Callable[[], torch.nn.Module],
    dynamic: bool,
    commit: frozenset[str],
    note: str = "",
) -> Spec:
    """A torchvision classifier taking `input` [1, 3, H, W]."""

    def built() -> torch.nn.Module:
        return calibrate_batchnorm(build(), zlib.crc32(name.encode()))

    if dynamic:
        cases = VISION_DYNAMIC_CASES
        axes: dict[str, dict[int, str]] | None = {"input": {2: "height", 3: "width"}}
        shapes: Any = (
            {2: Dim("height", min=32, max=2048), 3: Dim("width", min=32, max=2048)},
        )
        npz_case = 1
    else:
        cases, axes, shapes, npz_case = [(1, 224, 224)], None, None, 0
    return Spec(
        name=name,
        family="vision",
        source=source,
        build=built,
        input_names=["input"],
        output_names=["logits"],
        cases=[image_case(b, h, w) for b, h, w in cases],
        case_labels=[f"{b}x3x{h}x{w}" for b, h, w in cases],
        npz_case=npz_case,
        dynamic_axes=axes,
        dynamic_shapes=shapes,
        commit=commit,
        note=note,
    )


def specs() -> list[Spec]:
    """Every fixture the script makes."""
    tv = torchvision.models
    resnet10t = (
        "torchvision.models.resnet.ResNet(BasicBlock, [1, 1, 1, 1], num_classes=10)"
    )
    resnet18 = "torchvision.models.resnet18(weights=None, num_classes=10)"
    mbv2_small = (
        "torchvision.models.mobilenet_v2(weights=None, num_classes=10, width_mult=0.25)"
    )
    mbv2 = "torchvision.models.mobilenet_v2(weights=None, num_classes=10)"
    both, none = frozenset(EXPORTERS), frozenset()
    return [
        text_spec("gpt2", "GPT2Config", "GPT2LMHeadModel", GPT2_CONFIG, "logits"),
        gpt2_past_spec(),
        text_spec("bert", "BertConfig", "BertModel", BERT_CONFIG, "last_hidden_state"),
        text_spec("llama", "LlamaConfig", "LlamaForCausalLM", LLAMA_CONFIG, "logits"),
        vision_spec(
            "mobilenet_v2_w025",
            mbv2_small,
            lambda: tv.mobilenet_v2(weights=None, num_classes=10, width_mult=0.25),
            dynamic=True,
            commit=both,
        ),
        vision_spec(
            "resnet18_w0125",
            "NarrowResNet18(divisor=8, num_classes=10)",
            lambda: NarrowResNet18(divisor=8, num_classes=10),
            dynamic=True,
            commit=both,
            note="torchvision's ResNet-18 (ResNet class, BasicBlock, [2, 2, 2, 2]) "
            "at 1/8 width (8-64 channels); the committed ResNet-18",
        ),
        vision_spec(
            "resnet10t",
            resnet10t,
            lambda: ResNet(BasicBlock, [1, 1, 1, 1], num_classes=10),
            dynamic=True,
            commit=none,
            note="real torchvision ResNet class and BasicBlock, one block per stage "
            "(ResNet-18 has two); 4.9 M parameters",
        ),
        vision_spec(
            "resnet10t_224",
            resnet10t,
            lambda: ResNet(BasicBlock, [1, 1, 1, 1], num_classes=10),
            dynamic=False,
            commit=none,
        ),
        vision_spec(
            "resnet18",
            resnet18,
            lambda: tv.resnet18(weights=None, num_classes=10),
            dynamic=True,
            commit=none,
            note="the real ResNet-18 (= ResNet(BasicBlock, [2, 2, 2, 2])); 11.2 M parameters",
        ),
        vision_spec(
            "resnet18_224",
            resnet18,
            lambda: tv.resnet18(weights=None, num_classes=10),
            dynamic=False,
            commit=none,
        ),
        vision_spec(
            "mobilenet_v2",
            mbv2,
            lambda: tv.mobilenet_v2(weights=None, num_classes=10),
            dynamic=True,
            commit=none,
            note="the real MobileNetV2; 2.2 M parameters",
        ),
    ]


# ---------------------------------------------------------------- export and check


@contextlib.contextmanager
def quiet() -> Iterator[io.StringIO]:
    """Silence warnings and the exporters' progress prints; yields what they printed."""
    buf = io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            yield buf


def export(
    module: torch.nn.Module, spec: Spec, exporter: str, example: Inputs, path: Path
) -> None:
    """Run one of torch's exporters, writing `path` (weights may go beside it)."""
    args = tuple(torch.from_numpy(example[n]) for n in spec.input_names)
    common: dict[str, Any] = dict(
        input_names=spec.input_names, output_names=spec.output_names
    )
    if exporter == "torchscript":
        torch.onnx.export(
            module,
            args,
            str(path),
            dynamo=False,
            opset_version=TS_OPSET,
            dynamic_axes=spec.dynamic_axes,
            **common,
        )
    else:
        torch.onnx.export(
            module,
            args,
            str(path),
            dynamo=True,
            external_data=False,
            dynamic_shapes=spec.dynamic_shapes,
            **common,
        )


def strip_stack_traces(model: onnx.ModelProto) -> None:
    """Drop dynamo's per-node Python stack traces (machine-specific paths)."""

    def graphs(g: onnx.GraphProto) -> Iterator[onnx.GraphProto]:
        yield g
        for node in g.node:
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    yield from graphs(attr.g)
                for sub in attr.graphs:
                    yield from graphs(sub)

    for g in graphs(model.graph):
        for node in g.node:
            keep = [
                p for p in node.metadata_props if p.key != "pkg.torch.onnx.stack_trace"
            ]
            del node.metadata_props[:]
            node.metadata_props.extend(keep)


def rename_dims(model: onnx.ModelProto, renames: dict[tuple[str, int], str]) -> None:
    """Rename the symbolic dims at (input, axis) everywhere in the top-level graph."""
    g = model.graph
    inputs = {v.name: v for v in g.input}
    mapping: dict[str, str] = {}
    for (name, axis), new in renames.items():
        old = inputs[name].type.tensor_type.shape.dim[axis].dim_param
        if old:
            mapping[old] = new
    for v in [*g.input, *g.output, *g.value_info]:
        for d in v.type.tensor_type.shape.dim:
            if d.dim_param in mapping:
                d.dim_param = mapping[d.dim_param]


def save(model: onnx.ModelProto, path: Path, external: bool) -> Path | None:
    """Write the model; with `external`, its initializers into `<name>.data` beside it."""
    data = path.with_name(path.name + ".data")
    for p in (path, data):
        p.unlink(missing_ok=True)  # onnx appends to an existing data file
    if external:
        onnx.save_model(
            model,
            str(path),
            save_as_external_data=True,
            all_tensors_to_one_file=True,
            location=data.name,
            size_threshold=1024,  # ORT wants small (shape) tensors inline
        )
        return data
    onnx.save_model(model, str(path))
    return None


def torch_outputs(
    module: torch.nn.Module, spec: Spec, feeds: Inputs
) -> list[np.ndarray]:
    """torch eager on the same inputs."""
    with torch.no_grad():
        out = module(*(torch.from_numpy(feeds[n]) for n in spec.input_names))
    outs = out if isinstance(out, tuple) else (out,)
    return [t.detach().numpy() for t in outs]


def check_with_ort(
    path: Path, module: torch.nn.Module, spec: Spec, seed: int
) -> tuple[list[str], Inputs, list[np.ndarray]]:
    """ORT (CPU) vs torch eager at every case; raises on a mismatch.

    Returns a line per case and the npz case's inputs and torch outputs.
    """
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2
    sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    lines: list[str] = []
    saved: tuple[Inputs, list[np.ndarray]] = ({}, [])
    for i, (make, label) in enumerate(zip(spec.cases, spec.case_labels, strict=True)):
        feeds = make(np.random.default_rng(seed + i))
        expected = torch_outputs(module, spec, feeds)
        got = sess.run(spec.output_names, feeds)
        worst, scale = 0.0, 0.0
        for name, e, g in zip(spec.output_names, expected, got, strict=True):
            if e.shape != g.shape:
                raise AssertionError(
                    f"{label}: {name} shape {g.shape} != torch {e.shape}"
                )
            if not np.allclose(g, e, atol=ATOL, rtol=RTOL):
                err = float(np.abs(g - e).max())
                raise AssertionError(f"{label}: {name} differs from torch by {err:.3g}")
            worst = max(worst, float(np.abs(g - e).max()))
            scale = max(scale, float(np.abs(e).max()))
        lines.append(
            f"{label}: max |ORT - torch| = {worst:.2g} (max |torch| = {scale:.2g})"
        )
        if i == spec.npz_case:
            saved = (feeds, expected)
    return lines, *saved


# ---------------------------------------------------------------- analysis


def all_nodes(model: onnx.ModelProto) -> Iterator[onnx.NodeProto]:
    """Every node, subgraphs and local functions included."""

    def walk(g: onnx.GraphProto) -> Iterator[onnx.NodeProto]:
        for node in g.node:
            yield node
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    yield from walk(attr.g)
                for sub in attr.graphs:
                    yield from walk(sub)

    yield from walk(model.graph)
    for fn in model.functions:
        yield from fn.node


def op_name(node: onnx.NodeProto) -> str:
    """`Op`, or `domain::Op` outside the default domain."""
    return (
        f"{node.domain}::{node.op_type}"
        if node.domain not in ("", "ai.onnx")
        else node.op_type
    )


def count_shape_nodes(model: onnx.ModelProto) -> tuple[int, int]:
    """Top-level nodes that compute shapes.

    A node counts if it is Shape/Size, or if one of its inputs derives from a
    Shape/Size and all its outputs are int64/int32/bool (types from ONNX shape
    inference). Also returns how many Constant nodes are of integer type.
    """
    inferred = onnx.shape_inference.infer_shapes(model)
    g = inferred.graph
    types = {
        v.name: v.type.tensor_type.elem_type
        for v in [*g.input, *g.value_info, *g.output]
    } | {t.name: t.data_type for t in g.initializer}
    derived: set[str] = set()
    count = constants = 0
    for node in g.node:
        if node.op_type == "Constant" and types.get(node.output[0]) in INTEGER_TYPES:
            constants += 1
        shape_like = node.op_type in SHAPE_SOURCES or (
            any(i in derived for i in node.input)
            and all(types.get(o) in INTEGER_TYPES for o in node.output if o)
        )
        if shape_like:
            count += 1
            derived.update(o for o in node.output if o)
    return count, constants


def dim_text(v: onnx.ValueInfoProto) -> str:
    """`input_ids: int64[batch, seq]`."""
    t = v.type.tensor_type
    dims = [
        d.dim_param or (str(d.dim_value) if d.HasField("dim_value") else "?")
        for d in t.shape.dim
    ]
    elem = onnx.helper.tensor_dtype_to_np_dtype(t.elem_type).name
    return f"{v.name}: {elem}[{', '.join(dims)}]"


def analyse(result: Result) -> None:
    """Fill in opset, node count, histogram, dims and shape-node count."""
    assert result.onnx_path is not None
    model = onnx.load(str(result.onnx_path), load_external_data=False)
    result.opset = next(
        o.version for o in model.opset_import if o.domain in ("", "ai.onnx")
    )
    nodes = list(all_nodes(model))
    result.nodes = len(nodes)
    result.histogram = Counter(op_name(n) for n in nodes)
    result.shape_nodes, result.int_constants = count_shape_nodes(model)
    result.dims = [dim_text(v) for v in [*model.graph.input, *model.graph.output]]


def xhip_supported_ops() -> list[str] | None:
    """Op types xhip's importer reads, asked of the repo's own venv."""
    python = REPO / ".venv" / "bin" / "python"
    code = (
        "import json; from xhip.frontend.onnx_importer import supported_ops; "
        "print(json.dumps(sorted(supported_ops())))"
    )
    try:
        out = subprocess.run(
            [str(python), "-c", code],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as e:
        logging.warning("could not ask xhip for its ops: %s", e)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- driver


def run_one(spec: Spec, exporter: str, out: Path, external: Path, tmp: Path) -> Result:
    """Build, export, check and save one fixture."""
    committed = exporter in spec.commit
    stem = f"{spec.name}.{exporter}"
    result = Result(spec=spec, exporter=exporter, stem=stem, committed=committed)
    seed = zlib.crc32(spec.name.encode())
    torch.manual_seed(seed)
    module = spec.build().eval()
    example = spec.cases[spec.npz_case](np.random.default_rng(seed + spec.npz_case))
    raw = tmp / f"{stem}.onnx"
    try:
        with quiet():
            export(module, spec, exporter, example, raw)
    except Exception as e:  # noqa: BLE001 - any exporter failure is recorded
        lines = "".join(traceback.format_exception_only(e)).strip().splitlines()
        result.error = "export failed: " + " / ".join(lines[:4])[:600]
        return result
    model = onnx.load(str(raw))
    strip_stack_traces(model)
    if exporter == "dynamo":
        rename_dims(model, spec.rename_dims)
    dest = out if committed else external
    path = dest / f"{stem}.onnx"
    data = save(model, path, external=not committed)
    try:
        onnx.checker.check_model(str(path))
        with quiet():
            lines, feeds, expected = check_with_ort(path, module, spec, seed)
    except Exception as e:  # noqa: BLE001 - a fixture ORT can't match is dropped
        for p in (path, data):
            if p is not None:
                p.unlink(missing_ok=True)
        result.error = "check failed: " + str(e).strip().splitlines()[0][:600]
        return result
    npz = dest / f"{stem}.npz"
    arrays = {**feeds, **dict(zip(spec.output_names, expected, strict=True))}
    np.savez_compressed(npz, **arrays)
    result.ok, result.errors = True, lines
    result.onnx_path, result.data_path, result.npz_path = path, data, npz
    analyse(result)
    return result


def size_text(path: Path | None) -> str:
    """`123.4 KB`."""
    if path is None or not path.exists():
        return "-"
    n = path.stat().st_size
    return f"{n / 1e6:.2f} MB" if n >= 1e6 else f"{n / 1e3:.1f} KB"


def histogram_text(h: Counter[str]) -> str:
    """`MatMul 12, Add 10, ...`, most used first."""
    return ", ".join(
        f"{op} {n}" for op, n in sorted(h.items(), key=lambda kv: (-kv[1], kv[0]))
    )


def versions() -> dict[str, str]:
    """Versions of everything that shaped the fixtures."""
    import onnxscript

    return {
        "python": sys.version.split()[0],
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "transformers": transformers.__version__,
        "onnxscript": onnxscript.__version__,
        "onnx": onnx.__version__,
        "onnxruntime": ort.__version__,
        "numpy": np.__version__,
    }


def readme(results: list[Result], supported: list[str] | None) -> str:
    """The fixtures' README.md."""
    v = versions()
    ok = [r for r in results if r.ok]
    failed = [r for r in results if not r.ok]
    committed = [r for r in ok if r.committed]
    total = sum(r.onnx_path.stat().st_size for r in committed if r.onnx_path) + sum(
        r.npz_path.stat().st_size for r in committed if r.npz_path
    )
    lines = [
        "# Real exported models",
        "",
        "Generated by `scripts/export_fixtures.py`; do not edit by hand. Small real",
        "`torch.onnx.export` outputs of transformers and torchvision models, built from",
        "configs with random weights (fixed seeds; nothing downloaded), for xhip's op work.",
        "",
        "Regenerate (torch is needed only for this, never in CI):",
        "",
        "```sh",
        "python3 -m venv /work/fixtures-venv",
        f"/work/fixtures-venv/bin/pip install torch=={v['torch'].split('+')[0]} "
        f"torchvision=={v['torchvision'].split('+')[0]}",
        "/work/fixtures-venv/bin/pip install transformers onnxscript onnx onnxruntime numpy",
        "/work/fixtures-venv/bin/python scripts/export_fixtures.py --out tests/fixtures/models",
        "```",
        "",
        "Versions: " + ", ".join(f"{k} {val}" for k, val in v.items()) + ".",
        "",
        "Each `NAME.EXPORTER.onnx` has a `NAME.EXPORTER.npz` beside it: one set of inputs and",
        "torch eager's outputs, keyed by the graph's input and output names. Every fixture",
        f"was run with ONNX Runtime (CPU) at each listed size and matched torch eager (float32,"
        f" atol {ATOL:g}, rtol {RTOL:g}); one that did not is not here.",
        "",
        "- `torchscript`: `torch.onnx.export(..., dynamo=False, opset_version=17,"
        " dynamic_axes=...)`.",
        "- `dynamo`: `torch.onnx.export(..., dynamo=True, dynamic_shapes=...)` at that torch's"
        " default opset; node metadata `pkg.torch.onnx.stack_trace` (local paths) is removed.",
        "- Transformer inputs: `input_ids` and `attention_mask`, int64 `[batch, seq]`; with",
        "  batch 2 the second row is padded (mask zeros at the end). `use_cache=False`, except",
        "  `gpt2_past`. Attention is transformers' default implementation (SDPA).",
        "- Vision inputs: `input` float32 `[1, 3, height, width]`, height and width dynamic",
        "  (`*_224`: static 224x224). BatchNorm running statistics are calibrated on random",
        "  batches before export (torchvision's init leaves MobileNetV2's logits at ~1e-7).",
        bn_text(ok),
        "",
        "## Committed and not",
        "",
        f"Committed here: {len(committed)} fixtures, {total / 1e6:.1f} MB with their `.npz`.",
        "",
        "- The committed ResNet-18 is `resnet18_w0125`: torchvision's `BasicBlock` can't be",
        "  made narrower through the constructor (`width_per_group` is Bottleneck's), so",
        "  `NarrowResNet18` (in the script) rebuilds the stem, stages and head of",
        "  torchvision's `ResNet` at 1/8 width: ResNet-18's layers, 177 K parameters.",
        "  MobileNetV2 at width 0.25 is the other committed conv model.",
        "- The real `resnet18` (both exporters, dynamic and static 224x224), the real",
        "  `mobilenet_v2` (width 1.0) and `resnet10t` (both exporters, dynamic and 224x224) are too big to",
        "  commit: the script writes them to `--external-dir` (outside the repo) with their",
        "  weights as external data (`NAME.EXPORTER.onnx.data`). They are listed below as",
        "  *external*; regenerate them to use them.",
        "",
        "## Licences",
        "",
        "The architectures come from transformers (Apache-2.0) and torchvision (BSD-3-Clause);",
        "all weights are random (no pretrained weights are used), so nothing here carries a",
        "model licence beyond the code's.",
        "",
        "## Fixtures",
        "",
        "| fixture | exporter | where | opset | .onnx | weights file | nodes | shape nodes |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in ok:
        where = "committed" if r.committed else "external"
        share = f"{r.shape_nodes} ({100 * r.shape_nodes / r.nodes:.0f}%)"
        lines.append(
            f"| `{r.stem}` | {r.exporter} | {where} | {r.opset} | {size_text(r.onnx_path)} "
            f"| {size_text(r.data_path)} | {r.nodes} | {share} |"
        )
    for r in ok:
        lines += [
            "",
            f"### `{r.stem}.onnx`" + ("" if r.committed else " (external)"),
            "",
            f"- Source: `{r.spec.source}`"
            + (f"; {r.spec.note}" if r.spec.note else ""),
            f"- Exporter: {r.exporter}, opset {r.opset}; torch {v['torch']}, transformers "
            f"{v['transformers']}, torchvision {v['torchvision']}",
            f"- Size: {size_text(r.onnx_path)}"
            + (f" + {size_text(r.data_path)} external data" if r.data_path else "")
            + f"; `.npz` {size_text(r.npz_path)}"
            + f" (inputs of {r.spec.case_labels[r.spec.npz_case]})",
            "- Dims: " + "; ".join(f"`{d}`" for d in r.dims),
            f"- Nodes: {r.nodes}, of which {r.shape_nodes} compute shapes",
            "- Checked with ORT at: " + "; ".join(r.errors),
            f"- Ops: {histogram_text(r.histogram)}",
        ]
    lines += ["", "## Export or check failures", ""]
    if failed:
        lines += [f"- `{r.stem}`: {r.error}" for r in failed]
    else:
        lines.append("None.")
    lines += shape_table(ok) + op_table(ok, supported)
    return "\n".join(lines) + "\n"


def bn_text(ok: list[Result]) -> str:
    """Whether the exporters left BatchNormalization nodes in the vision models."""
    vision = [r for r in ok if r.spec.family == "vision"]
    kept = sorted({r.exporter for r in vision if "BatchNormalization" in r.histogram})
    if not kept:
        return "  Both exporters fold BatchNorm into Conv: no BatchNormalization node is left."
    return f"  BatchNormalization nodes are left by: {', '.join(kept)}."


def shape_table(ok: list[Result]) -> list[str]:
    """Share of shape-computing nodes in the transformer exports."""
    lines = [
        "",
        "## Shape computation in the transformer exports",
        "",
        "Top-level nodes that are Shape/Size or whose outputs are all int64/int32/bool and",
        "derive from a Shape/Size (types from ONNX shape inference).",
        "",
        "Integer Constant nodes (the TorchScript exporter's shape operands, mostly) are",
        "counted apart.",
        "",
        "| fixture | nodes | shape nodes | share | integer Constants | shape + those |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in ok:
        if r.spec.family == "transformer":
            share = 100 * r.shape_nodes / r.nodes
            both = 100 * (r.shape_nodes + r.int_constants) / r.nodes
            lines.append(
                f"| `{r.stem}` | {r.nodes} | {r.shape_nodes} | {share:.0f}% "
                f"| {r.int_constants} | {both:.0f}% |"
            )
    return lines


def op_table(ok: list[Result], supported: list[str] | None) -> list[str]:
    """Every op type used, whether xhip's importer reads it, and where it is used."""
    known = set(supported or [])
    ops = sorted({op for r in ok for op in r.histogram})
    lines = [
        "",
        "## Op types across all fixtures",
        "",
        '"xhip": whether `xhip.frontend.onnx_importer.supported_ops()` lists it today'
        + (" (the repo's `.venv` could not be asked)." if supported is None else "."),
        "",
        "Fixtures: `T` TorchScript, `D` dynamo export; `*` only outside the repo.",
        "",
        "| op | xhip | nodes | fixtures |",
        "| --- | --- | --- | --- |",
    ]
    for op in ops:
        users = [r for r in ok if op in r.histogram]
        count = sum(r.histogram[op] for r in users)
        mark = "?" if supported is None else ("yes" if op in known else "**no**")
        by_model: dict[str, list[str]] = {}
        for r in users:
            tag = r.exporter[0].upper() + ("" if r.committed else "*")
            by_model.setdefault(r.spec.name, []).append(tag)
        names = ", ".join(f"{m} {' '.join(t)}" for m, t in by_model.items())
        lines.append(f"| {op} | {mark} | {count} | {names} |")
    if supported is not None:
        missing = [op for op in ops if op not in known]
        lines += [
            "",
            f"{len(ops)} op types, {len(missing)} of them not read by xhip yet.",
        ]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Export every fixture into --out (committed) or --external-dir."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=REPO / "tests" / "fixtures" / "models"
    )
    parser.add_argument(
        "--external-dir",
        type=Path,
        default=Path.home() / ".cache" / "xhip-fixtures",
        help="where fixtures too big to commit go (must be outside the repo)",
    )
    parser.add_argument(
        "--skip-external", action="store_true", help="make only the committed fixtures"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    out, external = args.out.resolve(), args.external_dir.resolve()
    if external.is_relative_to(REPO):
        parser.error(f"--external-dir {external} is inside the repo")
    out.mkdir(parents=True, exist_ok=True)
    external.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(2)
    for p in out.glob("*.onnx*"):  # stale fixtures of an older run
        p.unlink()
    for p in out.glob("*.npz"):
        p.unlink()
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in specs():
            for exporter in EXPORTERS:
                if args.skip_external and exporter not in spec.commit:
                    continue
                r = run_one(spec, exporter, out, external, Path(tmp))
                status = "ok" if r.ok else r.error
                print(f"{r.stem:32} {size_text(r.onnx_path):9} {status}", flush=True)
                results.append(r)
    (out / "README.md").write_text(readme(results, xhip_supported_ops()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
