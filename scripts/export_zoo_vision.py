"""Export a zoo of tiny vision models (transformers and torchvision) as xhip
test fixtures, by both of torch's ONNX exporters.

Every model is built from a config or constructor arguments with random
weights (fixed seeds; nothing is downloaded), shrunk to a few layers and
channels, exported with `torch.onnx.export(..., dynamo=False, opset_version=17)`
and with `dynamo=True` (dynamic batch, and height and width where the model
allows them), run by ONNX Runtime against torch eager at every size the tests
use, and written to `tests/fixtures/zoo/vision/NAME.EXPORTER.onnx` only if
ONNX Runtime matches. `README.md` beside them lists each model, its exporters,
sizes, ops, and what failed where (rewritten on every run).

Run with torch (not a test dependency; the fixtures are committed):

    /tmp/genai-venv/bin/python scripts/export_zoo_vision.py [NAME ...]

torchvision: the only wheel the package index serves for torch 2.13 is the
CUDA build, whose compiled ops do not load next to the CPU torch; the models
are pure Python, so torchvision is imported with its op registrations
skipped (`import_torchvision`). Nothing here calls a torchvision op.
"""

from __future__ import annotations

import re
import sys
import traceback
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import torch
import transformers
from torch import Tensor, nn

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "zoo" / "vision"
OPSET = 17
ATOL = 1e-4
RTOL = 1e-4
EXPORTERS = ("torchscript", "dynamo")
MAX_BYTES = 450_000
MIN_SCALE = 1e-2
NORMS = nn.modules.batchnorm._BatchNorm | nn.LayerNorm | nn.GroupNorm


def import_torchvision() -> ModuleType:
    """torchvision without its compiled ops (see the module docstring)."""
    register_fake = torch.library.register_fake
    torch.library.register_fake = lambda *a, **k: lambda f: f  # type: ignore[assignment]
    try:
        import torchvision  # lazy: needs the patch above
    finally:
        torch.library.register_fake = register_fake
    return torchvision


tv = import_torchvision()
sys.path.insert(0, str(ROOT / "scripts"))
from export_fixtures import calibrate_batchnorm, quiet, strip_stack_traces  # noqa: E402


@dataclass
class Spec:
    """One model: how to build it, which dims are dynamic, the test sizes."""

    name: str
    source: str
    build: Callable[[], nn.Module]
    outputs: list[str]
    sizes: list[tuple[int, int, int]]  # (batch, height, width); the first exports
    spatial: bool = True  # height and width dynamic (else batch only)
    note: str = ""
    commit: bool = True  # False: exported and checked, left out for the set's size


class Pick(nn.Module):
    """A transformers model's outputs picked by name, as a tuple."""

    def __init__(self, model: nn.Module, names: list[str]):
        super().__init__()
        self.model = model
        self.names = names

    def forward(self, pixel_values: Tensor) -> tuple[Tensor, ...]:
        out = self.model(pixel_values=pixel_values)
        return tuple(getattr(out, n) for n in self.names)


def hf(
    model_cls: str, config_cls: str, names: list[str], **config: Any
) -> Callable[[], nn.Module]:
    def build() -> nn.Module:
        cfg = getattr(transformers, config_cls)(**config)
        model = getattr(transformers, model_cls)(cfg)
        for m in model.modules():  # its std 0.02 (norm scales too) leaves
            if isinstance(m, NORMS | nn.Conv2d | nn.Linear):  # outputs near 1e-15
                m.reset_parameters()
        return Pick(model, names)

    return build


def hf_spec(
    name: str,
    model_cls: str,
    config_cls: str,
    names: list[str],
    sizes: list[tuple[int, int, int]],
    spatial: bool = True,
    note: str = "",
    **config: Any,
) -> Spec:
    args = ", ".join(f"{k}={v!r}" for k, v in config.items())
    return Spec(
        name=name,
        source=f"transformers.{model_cls}({config_cls}({args}))",
        build=hf(model_cls, config_cls, names, **config),
        outputs=names,
        sizes=sizes,
        spatial=spatial,
        note=note,
    )


CONV_SIZES = [(1, 64, 64), (2, 48, 80), (1, 96, 64)]
FIXED_32 = [(1, 32, 32), (3, 32, 32)]


class TinySqueezeNet(nn.Module):
    """SqueezeNet 1.1's layout (torchvision's `Fire`) at 1/8 of its widths:
    `SqueezeNet.__init__` hard-codes them."""

    def __init__(self, num_classes: int = 10):
        super().__init__()
        fire = tv.models.squeezenet.Fire
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(3, 2, ceil_mode=True),
            fire(8, 2, 8, 8),
            fire(16, 2, 8, 8),
            nn.MaxPool2d(3, 2, ceil_mode=True),
            fire(16, 4, 16, 16),
            fire(32, 4, 16, 16),
        )
        self.classifier = nn.Sequential(
            nn.Conv2d(32, num_classes, 1),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d((1, 1)),
        )

    def forward(self, x: Tensor) -> Tensor:
        return torch.flatten(self.classifier(self.features(x)), 1)


class TinyDeepLab(nn.Module):
    """torchvision's DeepLabV3 (`ASPP`, dilated last stage) on a two-stage
    ResNet, upsampled bilinearly to the input's size."""

    def __init__(self, num_classes: int = 3):
        super().__init__()
        seg = tv.models.segmentation
        block = tv.models.resnet.BasicBlock
        down = nn.Sequential(
            nn.Conv2d(8, 16, 1, stride=2, bias=False), nn.BatchNorm2d(16)
        )
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            block(8, 8),
            block(8, 16, stride=2, downsample=down),
            nn.Conv2d(16, 16, 3, padding=2, dilation=2),
        )
        self.head = nn.Sequential(
            seg.deeplabv3.ASPP(16, [2, 4], out_channels=16),
            nn.Conv2d(16, num_classes, 1),
        )
        self.aux = seg.fcn.FCNHead(16, num_classes)

    def forward(self, x: Tensor) -> tuple[Tensor, Tensor]:
        size = x.shape[-2:]
        features = self.backbone(x)
        out = nn.functional.interpolate(
            self.head(features), size=size, mode="bilinear", align_corners=False
        )
        aux = nn.functional.interpolate(
            self.aux(features), size=size, mode="bilinear", align_corners=False
        )
        return out, aux


def tv_efficientnet() -> nn.Module:
    setting, _ = tv.models.efficientnet._efficientnet_conf(
        "efficientnet_b0", width_mult=0.1, depth_mult=0.25
    )
    return tv.models.efficientnet.EfficientNet(
        setting, dropout=0.2, num_classes=10, last_channel=64
    )


def tv_mnasnet() -> nn.Module:
    """MNASNet at alpha 0.1 with its 1280-wide last conv narrowed to 64."""
    model = tv.models.mnasnet.MNASNet(0.1, num_classes=10)
    last = model.layers[-3].in_channels
    model.layers[-3] = nn.Conv2d(last, 64, 1, bias=False)
    model.layers[-2] = nn.BatchNorm2d(64)
    model.classifier[-1] = nn.Linear(64, 10)
    return model


def tv_mobilenet_v3() -> nn.Module:
    mv3 = tv.models.mobilenetv3
    setting, _ = mv3._mobilenet_v3_conf("mobilenet_v3_small", width_mult=0.125)
    model = mv3.MobileNetV3(setting, last_channel=64, num_classes=10)
    for m in model.classifier:  # std 0.01 leaves the logits ~1e-3
        if isinstance(m, nn.Linear):
            m.reset_parameters()
    return model


def tv_regnet() -> nn.Module:
    params = tv.models.regnet.BlockParams.from_init_params(
        depth=3, w_0=8, w_a=8.0, w_m=2.0, group_width=8, se_ratio=0.25
    )
    return tv.models.regnet.RegNet(params, num_classes=10, stem_width=8)


def tv_swin() -> nn.Module:
    model = tv.models.swin_transformer.SwinTransformer(
        patch_size=[4, 4],
        embed_dim=16,
        depths=[1, 1],
        num_heads=[1, 2],
        window_size=[4, 4],
        num_classes=10,
    )
    model.head.reset_parameters()  # std 0.02 leaves the logits ~0.1
    return model


def tv_convnext() -> nn.Module:
    cfg = tv.models.convnext.CNBlockConfig
    return tv.models.convnext.ConvNeXt(
        [cfg(8, 16, 1), cfg(16, None, 1)], num_classes=10
    )


def tv_spec(
    name: str,
    source: str,
    build: Callable[[], nn.Module],
    sizes: list[tuple[int, int, int]] = CONV_SIZES,
    spatial: bool = True,
    outputs: list[str] | None = None,
    note: str = "",
) -> Spec:
    return Spec(
        name=name,
        source=source,
        build=build,
        outputs=outputs or ["logits"],
        sizes=sizes,
        spatial=spatial,
        note=note,
    )


NOT_COMMITTED = {
    *"vit deit yolos vitdet dpt mobilevit".split(),  # ViT-like: vit_cls, beit...
    *"mobilenet_v1_hf mobilenet_v2_hf efficientnet_hf".split(),  # torchvision's
    *"tv_mnasnet tv_vit tv_efficientnet tv_regnet levit".split(),
}
"""Exported and checked every run, left out of the committed set for its size
(about 3 MB): each has a relative of its ops committed."""


def specs() -> list[Spec]:
    """Every model the script exports."""
    every = _specs()
    for spec in every:
        spec.commit = spec.name not in NOT_COMMITTED
    return every


def _specs() -> list[Spec]:
    m = tv.models
    return [
        # ---- transformers
        hf_spec(
            "vit",
            "ViTModel",
            "ViTConfig",
            ["last_hidden_state", "pooler_output"],
            FIXED_32,
            spatial=False,
            image_size=32,
            patch_size=8,
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=2,
            intermediate_size=64,
        ),
        hf_spec(
            "vit_cls",
            "ViTForImageClassification",
            "ViTConfig",
            ["logits"],
            FIXED_32,
            spatial=False,
            image_size=32,
            patch_size=8,
            hidden_size=32,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=64,
            num_labels=5,
        ),
        hf_spec(
            "deit",
            "DeiTModel",
            "DeiTConfig",
            ["last_hidden_state"],
            FIXED_32,
            spatial=False,
            image_size=32,
            patch_size=8,
            hidden_size=32,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=64,
        ),
        hf_spec(
            "beit",
            "BeitModel",
            "BeitConfig",
            ["last_hidden_state", "pooler_output"],
            FIXED_32,
            spatial=False,
            image_size=32,
            patch_size=8,
            hidden_size=32,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=64,
            use_relative_position_bias=True,
            use_mean_pooling=True,
        ),
        hf_spec(
            "dinov2",
            "Dinov2Model",
            "Dinov2Config",
            ["last_hidden_state"],
            [(1, 32, 32), (2, 48, 32), (1, 64, 80)],
            image_size=32,
            patch_size=8,
            hidden_size=32,
            num_hidden_layers=1,
            num_attention_heads=2,
            mlp_ratio=2,
            note="position embeddings interpolated (bicubic) to the patch grid",
        ),
        hf_spec(
            "swin",
            "SwinModel",
            "SwinConfig",
            ["last_hidden_state", "pooler_output"],
            FIXED_32,
            spatial=False,
            image_size=32,
            patch_size=2,
            embed_dim=16,
            depths=[1, 1],
            num_heads=[1, 2],
            window_size=4,
        ),
        hf_spec(
            "convnext",
            "ConvNextModel",
            "ConvNextConfig",
            ["last_hidden_state", "pooler_output"],
            CONV_SIZES,
            hidden_sizes=[8, 16],
            depths=[1, 1],
            num_stages=2,
        ),
        hf_spec(
            "convnextv2",
            "ConvNextV2Model",
            "ConvNextV2Config",
            ["last_hidden_state", "pooler_output"],
            CONV_SIZES,
            hidden_sizes=[8, 16],
            depths=[1, 1],
            num_stages=2,
        ),
        hf_spec(
            "resnet_hf",
            "ResNetModel",
            "ResNetConfig",
            ["last_hidden_state", "pooler_output"],
            CONV_SIZES,
            embedding_size=8,
            hidden_sizes=[8, 16],
            depths=[1, 1],
            layer_type="bottleneck",
        ),
        hf_spec(
            "mobilenet_v2_hf",
            "MobileNetV2Model",
            "MobileNetV2Config",
            ["last_hidden_state", "pooler_output"],
            CONV_SIZES,
            depth_multiplier=0.1,
            image_size=64,
            finegrained_output=False,
            tf_padding=False,
        ),
        hf_spec(
            "mobilevit",
            "MobileViTModel",
            "MobileViTConfig",
            ["last_hidden_state", "pooler_output"],
            [(1, 64, 64), (2, 64, 64)],
            spatial=False,
            image_size=64,
            hidden_sizes=[8, 8, 16],
            neck_hidden_sizes=[8, 8, 8, 8, 8, 16, 16],
            num_attention_heads=2,
            expand_ratio=2.0,
        ),
        hf_spec(
            "efficientnet_hf",
            "EfficientNetModel",
            "EfficientNetConfig",
            ["last_hidden_state", "pooler_output"],
            CONV_SIZES,
            image_size=64,
            width_coefficient=0.1,
            depth_coefficient=0.25,
            hidden_dim=128,
        ),
        hf_spec(
            "segformer",
            "SegformerForSemanticSegmentation",
            "SegformerConfig",
            ["logits"],
            CONV_SIZES,
            num_encoder_blocks=2,
            depths=[1, 1],
            sr_ratios=[2, 1],
            hidden_sizes=[8, 16],
            num_attention_heads=[1, 2],
            decoder_hidden_size=16,
            num_labels=3,
        ),
        hf_spec(
            "yolos",
            "YolosModel",
            "YolosConfig",
            ["last_hidden_state"],
            [(1, 32, 32), (2, 32, 32)],
            spatial=False,
            image_size=[32, 32],
            patch_size=8,
            hidden_size=32,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=64,
            num_detection_tokens=4,
        ),
        hf_spec(
            "swinv2",
            "Swinv2Model",
            "Swinv2Config",
            ["last_hidden_state"],
            FIXED_32,
            spatial=False,
            image_size=32,
            patch_size=2,
            embed_dim=16,
            depths=[1, 1],
            num_heads=[1, 2],
            window_size=4,
            note="continuous (log-spaced, MLP) relative position bias, cosine attention",
        ),
        hf_spec(
            "poolformer",
            "PoolFormerModel",
            "PoolFormerConfig",
            ["last_hidden_state"],
            CONV_SIZES,
            depths=[1, 1],
            hidden_sizes=[8, 16],
            patch_sizes=[7, 3],
            strides=[4, 2],
            padding=[2, 1],
            num_encoder_blocks=2,
        ),
        hf_spec(
            "levit",
            "LevitModel",
            "LevitConfig",
            ["last_hidden_state"],
            [(1, 64, 64), (2, 64, 64)],
            spatial=False,
            image_size=64,
            hidden_sizes=[16, 32],
            num_attention_heads=[1, 2],
            depths=[1, 1],
            key_dim=[8, 8],
            mlp_ratio=[2, 2],
            attention_ratio=[2, 2],
            down_ops=[["Subsample", 8, 16 // 8, 4, 2, 2]],
        ),
        hf_spec(
            "focalnet",
            "FocalNetModel",
            "FocalNetConfig",
            ["last_hidden_state"],
            CONV_SIZES,
            embed_dim=8,
            hidden_sizes=[8, 16],
            depths=[1, 1],
            focal_levels=[2, 2],
            focal_windows=[3, 3],
            patch_size=4,
        ),
        hf_spec(
            "pvt",
            "PvtModel",
            "PvtConfig",
            ["last_hidden_state"],
            FIXED_32,
            spatial=False,
            image_size=32,
            num_encoder_blocks=2,
            depths=[1, 1],
            sequence_reduction_ratios=[2, 1],
            hidden_sizes=[8, 16],
            patch_sizes=[4, 2],
            strides=[4, 2],
            num_attention_heads=[1, 2],
            mlp_ratios=[2, 2],
        ),
        hf_spec(
            "bit",
            "BitModel",
            "BitConfig",
            ["last_hidden_state", "pooler_output"],
            CONV_SIZES,
            embedding_size=8,
            hidden_sizes=[16, 32],
            depths=[1, 1],
            layer_type="preactivation",
            num_groups=4,
            note="weight-standardized convs, GroupNorm",
        ),
        hf_spec(
            "mobilenet_v1_hf",
            "MobileNetV1Model",
            "MobileNetV1Config",
            ["last_hidden_state", "pooler_output"],
            CONV_SIZES,
            depth_multiplier=0.1,
            tf_padding=False,
        ),
        hf_spec(
            "regnet_hf",
            "RegNetModel",
            "RegNetConfig",
            ["last_hidden_state", "pooler_output"],
            CONV_SIZES,
            embedding_size=8,
            hidden_sizes=[8, 16],
            depths=[1, 1],
            groups_width=8,
            layer_type="y",
        ),
        hf_spec(
            "vitdet",
            "VitDetModel",
            "VitDetConfig",
            ["last_hidden_state"],
            FIXED_32,
            spatial=False,
            image_size=32,
            pretrain_image_size=32,
            patch_size=8,
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=2,
            mlp_ratio=2,
            window_block_indices=[0],
            residual_block_indices=[1],
            use_relative_position_embeddings=True,
            window_size=2,
        ),
        hf_spec(
            "hiera",
            "HieraModel",
            "HieraConfig",
            ["last_hidden_state"],
            [(1, 64, 64), (2, 64, 64)],
            spatial=False,
            embed_dim=8,
            image_size=[64, 64],
            patch_size=[7, 7],
            patch_stride=[4, 4],
            patch_padding=[3, 3],
            depths=[1, 1],
            num_heads=[1, 2],
            num_query_pool=1,
            query_stride=[2, 2],
            masked_unit_size=[4, 4],
            masked_unit_attention=[True, False],
        ),
        hf_spec(
            "detr",
            "DetrModel",
            "DetrConfig",
            ["last_hidden_state"],
            FIXED_32,
            spatial=False,
            use_timm_backbone=False,
            use_pretrained_backbone=False,
            backbone_config={
                "model_type": "resnet",
                "embedding_size": 8,
                "hidden_sizes": [8, 16],
                "depths": [1, 1],
                "out_features": ["stage2"],
            },
            num_queries=4,
            encoder_layers=1,
            decoder_layers=1,
            d_model=16,
            encoder_ffn_dim=32,
            decoder_ffn_dim=32,
            encoder_attention_heads=2,
            decoder_attention_heads=2,
        ),
        hf_spec(
            "dpt",
            "DPTForDepthEstimation",
            "DPTConfig",
            ["predicted_depth"],
            FIXED_32,
            spatial=False,
            image_size=32,
            patch_size=8,
            hidden_size=16,
            num_hidden_layers=4,
            num_attention_heads=2,
            intermediate_size=32,
            backbone_out_indices=[0, 1, 2, 3],
            neck_hidden_sizes=[8, 8, 16, 16],
            fusion_hidden_size=16,
            reassemble_factors=[4, 2, 1, 0.5],
            note="reassemble (ConvTranspose), fusion (bilinear Resize, align_corners)",
        ),
        hf_spec(
            "mobilevitv2",
            "MobileViTV2Model",
            "MobileViTV2Config",
            ["last_hidden_state", "pooler_output"],
            [(1, 64, 64), (2, 64, 64)],
            spatial=False,
            image_size=64,
            width_multiplier=0.25,
            n_attn_blocks=[1, 1, 1],
            note="separable linear attention, GroupNorm(1)",
        ),
        # ---- torchvision
        tv_spec("tv_squeezenet", "TinySqueezeNet() (torchvision Fire)", TinySqueezeNet),
        tv_spec(
            "tv_shufflenet_v2",
            "ShuffleNetV2([1, 1, 1], [8, 16, 32, 64, 64], num_classes=10)",
            lambda: m.shufflenetv2.ShuffleNetV2([1, 1, 1], [8, 16, 32, 64, 64], 10),
        ),
        tv_spec(
            "tv_densenet",
            "DenseNet(growth_rate=4, block_config=(2, 2), num_init_features=8, "
            "bn_size=2, num_classes=10)",
            lambda: m.densenet.DenseNet(4, (2, 2), 8, 2, num_classes=10),  # type: ignore[arg-type]
        ),
        tv_spec(
            "tv_mnasnet",
            "MNASNet(alpha=0.1, num_classes=10), last conv 1280 -> 64 channels",
            tv_mnasnet,
        ),
        tv_spec(
            "tv_regnet",
            "RegNet(BlockParams.from_init_params(depth=3, w_0=8, w_a=8, w_m=2, "
            "group_width=8, se_ratio=0.25), stem_width=8)",
            tv_regnet,
        ),
        tv_spec(
            "tv_efficientnet",
            "EfficientNet(_efficientnet_conf('efficientnet_b0', width_mult=0.1, "
            "depth_mult=0.25)[0], dropout=0.2, num_classes=10, last_channel=64)",
            tv_efficientnet,
        ),
        tv_spec(
            "tv_mobilenet_v3",
            "MobileNetV3(_mobilenet_v3_conf('mobilenet_v3_small', width_mult=0.125)[0], "
            "last_channel=64, num_classes=10)",
            tv_mobilenet_v3,
        ),
        tv_spec(
            "tv_deeplab",
            "TinyDeepLab() (torchvision ASPP, FCNHead, BasicBlock)",
            TinyDeepLab,
            outputs=["out", "aux"],
        ),
        tv_spec(
            "tv_vit",
            "VisionTransformer(image_size=32, patch_size=8, num_layers=1, "
            "num_heads=2, hidden_dim=32, mlp_dim=64, num_classes=10)",
            lambda: m.vision_transformer.VisionTransformer(
                32, 8, 1, 2, 32, 64, num_classes=10
            ),
            sizes=FIXED_32,
            spatial=False,
        ),
        tv_spec(
            "tv_swin",
            "SwinTransformer(patch_size=[4, 4], embed_dim=16, depths=[1, 1], "
            "num_heads=[1, 2], window_size=[4, 4], num_classes=10)",
            tv_swin,
            sizes=[(1, 32, 32), (2, 48, 40), (1, 64, 64)],
        ),
        tv_spec(
            "tv_maxvit",
            "MaxVit(input_size=(64, 64), stem_channels=8, partition_size=4, "
            "block_channels=[16], block_layers=[1], head_dim=8, "
            "stochastic_depth_prob=0.0, num_classes=10)",
            lambda: m.maxvit.MaxVit((64, 64), 8, 4, [16], [1], 8, 0.0, num_classes=10),
            sizes=[(1, 64, 64), (2, 64, 64)],
            spatial=False,
            note="MBConv, block and grid attention with relative position bias",
        ),
        tv_spec(
            "tv_convnext",
            "ConvNeXt([CNBlockConfig(8, 16, 1), CNBlockConfig(16, None, 1)], "
            "num_classes=10)",
            tv_convnext,
        ),
    ]


def dims(spec: Spec) -> dict[int, str]:
    return {0: "batch", 2: "height", 3: "width"} if spec.spatial else {0: "batch"}


def export(module: nn.Module, spec: Spec, exporter: str, path: Path) -> None:
    b, h, w = spec.sizes[0]
    example = (torch.randn(b, 3, h, w),)
    if exporter == "torchscript":
        torch.onnx.export(
            module,
            example,
            str(path),
            input_names=["pixel_values"],
            output_names=spec.outputs,
            dynamic_axes={"pixel_values": dims(spec)},
            dynamo=False,
            opset_version=OPSET,
        )
    else:
        auto = torch.export.Dim.AUTO
        torch.onnx.export(
            module,
            example,
            str(path),
            input_names=["pixel_values"],
            output_names=spec.outputs,
            dynamic_shapes=({axis: auto for axis in dims(spec)},),
            dynamo=True,
            external_data=False,
        )
        model = onnx.load(str(path))
        strip_stack_traces(model)
        for node in model.graph.node:  # name scopes, class hierarchy: half the file
            del node.metadata_props[:]
        onnx.save_model(model, str(path))


def check(module: nn.Module, spec: Spec, path: Path) -> tuple[float, float]:
    """ORT against torch eager at every size: the worst error and the largest
    output magnitude (a check of outputs near zero says nothing), or raises."""
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    worst = scale = 0.0
    for i, (b, h, w) in enumerate(spec.sizes):
        rng = np.random.default_rng(i)
        x = rng.standard_normal((b, 3, h, w)).astype(np.float32)
        with torch.no_grad():
            want = module(torch.from_numpy(x))
        want = want if isinstance(want, tuple) else (want,)
        got = sess.run(None, {"pixel_values": x})
        for name, e, g in zip(spec.outputs, want, got, strict=True):
            e = e.numpy()
            if e.shape != g.shape:
                raise AssertionError(
                    f"{b}x3x{h}x{w}: {name} {g.shape} != torch {e.shape}"
                )
            err = float(np.abs(g - e).max())
            if not np.allclose(g, e, atol=ATOL, rtol=RTOL):
                raise AssertionError(
                    f"{b}x3x{h}x{w}: {name} differs from torch by {err:.3g}"
                )
            worst = max(worst, err)
            scale = max(scale, float(np.abs(e).max()))
    return worst, scale


def ops(path: Path) -> Counter[str]:
    model = onnx.load(str(path))
    return Counter(n.op_type for n in model.graph.node)


def run(spec: Spec) -> list[str]:
    """Export, check and keep one model; README lines."""
    torch.manual_seed(zlib.crc32(spec.name.encode()))
    lines = [f"### `{spec.name}`", "", f"`{spec.source}`", ""]
    try:
        module = spec.build().eval()
        for m in module.modules():  # torchvision's ViT zeroes its head
            if isinstance(m, nn.Linear) and not m.weight.any():
                m.reset_parameters()
        if any(
            isinstance(x, nn.modules.batchnorm._BatchNorm) for x in module.modules()
        ):
            calibrate_batchnorm(module, zlib.crc32(spec.name.encode()))
    except Exception as e:  # noqa: BLE001 - a failure is reported, not fatal
        print(f"{spec.name}: BUILD FAILED {type(e).__name__}: {e}")
        return [*lines, f"- not built: {type(e).__name__}: {e}", ""]
    if spec.note:
        lines += [spec.note, ""]
    sizes = ", ".join(f"{b}x3x{h}x{w}" for b, h, w in spec.sizes)
    dyn = "batch, height, width" if spec.spatial else "batch"
    lines += [
        f"Dynamic: {dyn}. Checked at {sizes}. Outputs: {', '.join(spec.outputs)}.",
        "",
    ]
    for exporter in EXPORTERS:
        path = OUT / f"{spec.name}.{exporter}.onnx"
        path.unlink(missing_ok=True)
        try:
            with quiet():
                export(module, spec, exporter, path)
            size = path.stat().st_size
            if size > MAX_BYTES:
                raise AssertionError(f"{size} bytes, over {MAX_BYTES}")
            worst, scale = check(module, spec, path)
            if scale < MIN_SCALE:
                raise AssertionError(f"outputs within {scale:.2g} of 0: checks nothing")
        except Exception as e:  # noqa: BLE001 - a failure is reported, not fatal
            path.unlink(missing_ok=True)
            text = re.sub(r"\x1b\[[0-9;]*m", "", str(e)).strip()  # colours
            msg = text.splitlines()[0][:300] if text else type(e).__name__
            print(f"{spec.name}.{exporter}: FAILED {type(e).__name__}: {msg}")
            traceback.print_exc(limit=2, file=sys.stderr)
            lines.append(f"- {exporter}: **not committed**: {type(e).__name__}: {msg}")
            continue
        hist = ops(path)
        if not spec.commit:
            path.unlink()
        print(
            f"{spec.name}.{exporter}: {size} bytes, |ORT - torch| {worst:.2g}, |torch| {scale:.2g}"
        )
        kept = "" if spec.commit else " **checked, not committed** (the set's size);"
        lines.append(
            f"- {exporter}:{kept} max |ORT - torch| = {worst:.2g} "
            f"(max |torch| = {scale:.2g}); ops: " + ", ".join(sorted(hist))
        )
    return [*lines, ""]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    chosen = set(sys.argv[1:])
    readme = OUT / "README.md"
    old = readme.read_text().split("\n## Models\n\n", 1) if readme.exists() else []
    sections = {  # a partial run keeps the other models' sections
        block.split("`", 2)[1]: "### " + block
        for block in (old[1].split("### ")[1:] if len(old) == 2 else [])
    }
    body: list[str] = []
    for spec in specs():
        if not chosen or spec.name in chosen:
            sections[spec.name] = "\n".join(run(spec))
        if spec.name in sections:
            body.append(sections[spec.name].rstrip() + "\n")
    versions = (
        f"python {sys.version.split()[0]}, torch {torch.__version__}, torchvision "
        f"{tv.__version__} (CUDA wheel, Python models only), transformers "
        f"{transformers.__version__}, onnx {onnx.__version__}, onnxruntime "
        f"{ort.__version__}"
    )
    head = [
        "# Vision model zoo",
        "",
        "Generated by `scripts/export_zoo_vision.py`; do not edit by hand. Tiny",
        "transformers and torchvision vision models built from configs with random",
        "weights (fixed seeds, nothing downloaded), exported by both torch exporters:",
        "",
        "- `torchscript`: `torch.onnx.export(..., dynamo=False, opset_version=17, dynamic_axes=...)`.",
        "- `dynamo`: `torch.onnx.export(..., dynamo=True, dynamic_shapes=Dim.AUTO per axis)`,",
        "  torch's default opset; node metadata (stack traces, name scopes) removed.",
        "",
        "Input `pixel_values` float32 `[batch, 3, height, width]`. Each file was run by",
        f"ONNX Runtime (CPU) at every listed size and matched torch eager (atol {ATOL},",
        f"rtol {RTOL}); one that did not is not committed, and its error is listed.",
        "BatchNorm running statistics are calibrated on random batches before export.",
        "",
        f"Versions: {versions}.",
        "",
        "Licences: only code is used (torch, torchvision: BSD-3-Clause; transformers:",
        "Apache-2.0); no pretrained weights.",
        "",
        "## Models",
        "",
    ]
    readme.write_text("\n".join(head) + "\n" + "\n".join(body).rstrip() + "\n")


if __name__ == "__main__":
    main()
