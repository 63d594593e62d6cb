"""Writes the detection and OCR export fixtures of issue 23: tiny random-weight
torch models exported by `torch.onnx.export`, by the TorchScript exporter
(`dynamo=False`) and, where onnxscript is installed, by the dynamo exporter.

- `tests/fixtures/detection/yolo.<exporter>.onnx`: a YOLO-style detector.
  Conv backbone, a neck that upsamples by scale 2 and concatenates, a head per
  stride whose decode builds its anchor grid from the feature map's run-time
  H and W (`torch.arange` over computed sizes: a float Range over computed
  bounds; `meshgrid`; the stride as float arithmetic on shapes), dynamic
  batch, height and width; then the candidates' TopK (k = min(64, anchors)),
  their boxes and scores gathered, ONNX NonMaxSuppression, and the selected
  boxes, scores and classes gathered: the outputs' length is data.
- `tests/fixtures/ocr/db_det.<exporter>.onnx`: a PaddleOCR-style DB text
  detector. Conv backbone at strides 2, 4 and 8, an FPN whose lateral maps
  are resized to the finer map's run-time size (Shape -> Slice -> Concat ->
  Resize with `sizes`), a sigmoid probability map resized to the input's
  size; dynamic batch, height and width.
- `tests/fixtures/ocr/crnn_rec.<exporter>.onnx`: a PaddleOCR-style CRNN
  recognizer over a 32 x W line image. Convs and pools take the height to 1,
  a Reshape to (batch, channels * height, width) whose target is Shape
  arithmetic, a bidirectional LSTM over the run-time width, a Linear and a
  Softmax over the classes.

NonMaxSuppression: torchvision is not in the fixtures' environment, so the NMS
is a torch custom op, `xhip_fixtures::nms`, that each exporter writes as ONNX
NonMaxSuppression: the TorchScript exporter through an autograd Function's
`symbolic`, the dynamo exporter through `custom_translation_table` (an
onnxscript function). Its eager body is a plain greedy NMS so the model runs
in torch too.

Run with torch (not a test dependency): the fixtures are committed.

    /tmp/genai-venv/bin/python scripts/make_detection_fixtures.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import torch
from torch import Tensor, nn
from torch.nn import functional as F

ROOT = Path(__file__).resolve().parent.parent
DETECTION = ROOT / "tests" / "fixtures" / "detection"
OCR = ROOT / "tests" / "fixtures" / "ocr"
OPSET = 17
CLASSES = 3
CANDIDATES = 64
MAX_PER_CLASS = 100
IOU = 0.45
SCORE = 0.5


@torch.library.custom_op("xhip_fixtures::nms", mutates_args=())
def nms(boxes: Tensor, scores: Tensor) -> Tensor:
    """ONNX NonMaxSuppression (center_point_box 0) of `boxes` [B, N, 4] and
    `scores` [B, C, N]: the selected [K, 3] (batch, class, box) rows."""
    rows: list[list[int]] = []
    for b in range(boxes.shape[0]):
        x1, y1, x2, y2 = boxes[b].unbind(-1)
        area = (x2 - x1).clamp(min=0) * (y2 - y1).clamp(min=0)
        for c in range(scores.shape[1]):
            order = scores[b, c].argsort(descending=True, stable=True)
            kept: list[int] = []
            for i in order.tolist():
                if scores[b, c, i] <= SCORE or len(kept) == MAX_PER_CLASS:
                    break
                ok = True
                for j in kept:
                    w = (
                        torch.minimum(x2[i], x2[j]) - torch.maximum(x1[i], x1[j])
                    ).clamp(min=0)
                    h = (
                        torch.minimum(y2[i], y2[j]) - torch.maximum(y1[i], y1[j])
                    ).clamp(min=0)
                    inter = w * h
                    if inter / (area[i] + area[j] - inter) > IOU:
                        ok = False
                        break
                if ok:
                    kept.append(i)
            rows += [[b, c, i] for i in kept]
    return torch.tensor(rows, dtype=torch.int64).reshape(-1, 3)


@nms.register_fake
def _(boxes: Tensor, scores: Tensor) -> Tensor:
    k = torch.library.get_ctx().new_dynamic_size()
    return boxes.new_empty((k, 3), dtype=torch.int64)


class TorchScriptNms(torch.autograd.Function):
    """The custom op, as the TorchScript exporter writes it."""

    @staticmethod
    def forward(ctx: Any, boxes: Tensor, scores: Tensor) -> Tensor:  # noqa: ARG004
        return torch.ops.xhip_fixtures.nms(boxes, scores)

    @staticmethod
    def symbolic(g: Any, boxes: Any, scores: Any) -> Any:
        def const(value: Any, dtype: torch.dtype) -> Any:
            return g.op("Constant", value_t=torch.tensor([value], dtype=dtype))

        return g.op(
            "NonMaxSuppression",
            boxes,
            scores,
            const(MAX_PER_CLASS, torch.int64),
            const(IOU, torch.float32),
            const(SCORE, torch.float32),
        )


USE_SYMBOLIC = True
"""True while exporting with the TorchScript exporter."""


def run_nms(boxes: Tensor, scores: Tensor) -> Tensor:
    if USE_SYMBOLIC:
        return TorchScriptNms.apply(boxes, scores)  # type: ignore[no-any-return]
    return torch.ops.xhip_fixtures.nms(boxes, scores)


def conv(cin: int, cout: int, k: int = 3, s: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, s, k // 2), nn.BatchNorm2d(cout), nn.SiLU()
    )


class TinyYolo(nn.Module):
    """Backbone to strides 8 and 16, an upsample-and-concat neck, a decoupled
    head per stride decoded on an anchor grid of the map's run-time size."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(
            conv(3, 8, 3, 2), conv(8, 16, 3, 2), conv(16, 16, 3, 2)
        )
        self.down = conv(16, 32, 3, 2)
        self.up = nn.Upsample(scale_factor=2.0, mode="nearest")
        self.fuse = conv(48, 16, 1)
        self.heads = nn.ModuleList(
            [nn.Conv2d(16, 4 + CLASSES, 1), nn.Conv2d(32, 4 + CLASSES, 1)]
        )
        for m in self.modules():  # variance-preserving: scores spread over (0, 1)
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, nonlinearity="relu")

    def decode(
        self, x: Tensor, feature: Tensor, head: nn.Module
    ) -> tuple[Tensor, Tensor]:
        out = head(feature)
        b = out.shape[0]
        h, w = out.shape[2], out.shape[3]
        stride = x.shape[2] / h  # float arithmetic on shapes
        ys = torch.arange(h, dtype=torch.float32) + 0.5
        xs = torch.arange(w, dtype=torch.float32) + 0.5
        gy, gx = torch.meshgrid(ys, xs, indexing="ij")
        grid = torch.stack((gx, gy), 0).reshape(1, 2, -1)  # [1, 2, h*w]
        out = out.reshape(b, 4 + CLASSES, -1)
        centre = (grid + out[:, 0:2].sigmoid() * 2.0 - 1.0) * stride
        size = out[:, 2:4].exp().clamp(max=8.0) * stride
        boxes = torch.cat((centre - size / 2, centre + size / 2), 1)  # [b, 4, n]
        return boxes, out[:, 4:].sigmoid()

    def forward(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        p3 = self.stem(x)
        p4 = self.down(p3)
        n3 = self.fuse(torch.cat((self.up(p4), p3), 1))
        levels = [self.decode(x, f, h) for f, h in zip((n3, p4), self.heads)]
        boxes = torch.cat([b for b, _ in levels], 2).transpose(1, 2)  # [b, n, 4]
        scores = torch.cat([s for _, s in levels], 2)  # [b, C, n]
        best = scores.amax(1)  # [b, n]
        if torch.jit.is_tracing():  # k = min(64, anchors), traced as a shape
            k: Any = torch.clamp(torch._shape_as_tensor(best)[1], max=CANDIDATES)
        else:
            k = torch.sym_min(best.shape[1], CANDIDATES)
        _, top = best.topk(k, 1)
        boxes = boxes.gather(1, top.unsqueeze(-1).expand(-1, -1, 4))
        scores = scores.gather(2, top.unsqueeze(1).expand(-1, CLASSES, -1))
        selected = run_nms(boxes, scores)  # [K, 3]
        batch, cls, idx = selected[:, 0], selected[:, 1], selected[:, 2]
        return boxes[batch, idx], scores[batch, cls, idx], cls, batch


class DbDetector(nn.Module):
    """DBNet-style: the FPN resizes each coarser map to the finer one's size."""

    def __init__(self) -> None:
        super().__init__()
        self.c2 = conv(3, 8, 3, 2)
        self.c3 = conv(8, 16, 3, 2)
        self.c4 = conv(16, 16, 3, 2)
        self.lat = nn.ModuleList([nn.Conv2d(c, 8, 1) for c in (8, 16, 16)])
        self.head = nn.Sequential(conv(24, 8), nn.Conv2d(8, 1, 1))

    def forward(self, x: Tensor) -> Tensor:
        f2 = self.c2(x)
        f3 = self.c3(f2)
        f4 = self.c4(f3)
        l2, l3, l4 = (m(f) for m, f in zip(self.lat, (f2, f3, f4)))
        l3 = l3 + F.interpolate(l4, size=l3.shape[2:], mode="nearest")
        l2 = l2 + F.interpolate(l3, size=l2.shape[2:], mode="nearest")
        fused = torch.cat(
            (
                l2,
                F.interpolate(l3, size=l2.shape[2:], mode="nearest"),
                F.interpolate(l4, size=l2.shape[2:], mode="nearest"),
            ),
            1,
        )
        prob = self.head(fused).sigmoid()
        return F.interpolate(
            prob, size=x.shape[2:], mode="bilinear", align_corners=False
        )


class Crnn(nn.Module):
    """CRNN: convs to height 1, a Shape-arithmetic Reshape, a BiLSTM, Softmax."""

    def __init__(self, classes: int = 12) -> None:
        super().__init__()
        self.convs = nn.Sequential(
            conv(3, 8),
            nn.MaxPool2d(2, 2),  # 16 x W/2
            conv(8, 16),
            nn.MaxPool2d((2, 1), (2, 1)),  # 8 x W/2
            conv(16, 16),
            nn.MaxPool2d((2, 2), (2, 2)),  # 4 x W/4
            conv(16, 16),
            nn.MaxPool2d((4, 1), (4, 1)),  # 1 x W/4
        )
        self.lstm = nn.LSTM(16, 12, bidirectional=True)
        self.fc = nn.Linear(24, classes)

    def forward(self, x: Tensor) -> Tensor:
        f = self.convs(x)
        b, c, h, w = f.shape
        seq = f.reshape(b, c * h, w).permute(2, 0, 1)  # [w, b, c*h]
        out, _ = self.lstm(seq)
        return self.fc(out).softmax(-1)  # [w, b, classes]


def export(
    model: nn.Module,
    example: Tensor,
    path: Path,
    dims: dict[int, str],
    outputs: list[str],
    dynamo: bool,
) -> None:
    global USE_SYMBOLIC
    USE_SYMBOLIC = not dynamo
    path.parent.mkdir(parents=True, exist_ok=True)
    if dynamo:
        from onnxscript import opset18 as op  # lazy: only the dynamo exporter needs it

        def onnx_nms(boxes: Any, scores: Any) -> Any:  # traced, not scripted
            return op.NonMaxSuppression(
                boxes,
                scores,
                op.Constant(value_ints=[MAX_PER_CLASS]),
                op.Constant(value_floats=[IOU]),
                op.Constant(value_floats=[SCORE]),
            )

        shapes = {"x": {axis: torch.export.Dim.AUTO for axis in dims}}
        torch.onnx.export(
            model,
            (example,),
            str(path),
            input_names=["x"],
            output_names=outputs,
            dynamic_shapes=shapes,
            dynamo=True,
            opset_version=18,
            custom_translation_table={torch.ops.xhip_fixtures.nms.default: onnx_nms},
            external_data=False,
        )
    else:
        torch.onnx.export(
            model,
            (example,),
            str(path),
            input_names=["x"],
            output_names=outputs,
            dynamic_axes={"x": dims, **{o: {} for o in outputs}},
            dynamo=False,
            opset_version=OPSET,
        )
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes")


def main() -> None:
    torch.manual_seed(23)
    models: list[tuple[str, nn.Module, Tensor, dict[int, str], list[str]]] = [
        (
            str(DETECTION / "yolo"),
            TinyYolo(),
            torch.rand(2, 3, 64, 96),
            {0: "batch", 2: "height", 3: "width"},
            ["boxes", "scores", "classes", "batch_index"],
        ),
        (
            str(OCR / "db_det"),
            DbDetector(),
            torch.rand(1, 3, 64, 96),
            {0: "batch", 2: "height", 3: "width"},
            ["probability"],
        ),
        (
            str(OCR / "crnn_rec"),
            Crnn(),
            torch.rand(2, 3, 32, 80),
            {0: "batch", 3: "width"},
            ["probs"],
        ),
    ]
    for _, model, *_ in models:  # all weights drawn before any export draws
        model.eval()
        for m in model.modules():  # non-trivial BatchNorm statistics
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
    exporters = sys.argv[1:] or ["torchscript", "dynamo"]
    for stem, model, example, dims, outputs in models:
        with torch.no_grad():
            for exporter in exporters:
                export(
                    model,
                    example,
                    Path(f"{stem}.{exporter}.onnx"),
                    dims,
                    outputs,
                    exporter == "dynamo",
                )


if __name__ == "__main__":
    main()
