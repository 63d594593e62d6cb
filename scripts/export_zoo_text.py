"""Export a zoo of tiny text, audio and multimodal transformers as xhip fixtures.

Each model is built from a tiny config with random weights (fixed seed, nothing
is downloaded), exported with both of torch's ONNX exporters (TorchScript at
opset 17 and dynamo), checked with ONNX Runtime against torch eager at several
sizes, and kept only if ORT matches. The machinery (`Spec`, `run_one`: export,
stack-trace stripping, the ORT check, the `.npz` of one case) is
`scripts/export_fixtures.py`'s; this script adds the models and the README.

Needs torch, transformers, onnxscript, onnx, onnxruntime, numpy (not the repo's
`.venv`; CI never runs it):

    /tmp/genai-venv/bin/python scripts/export_zoo_text.py [--only NAME ...]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import torch
from torch.export import Dim

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
# torchvision is not needed here, and a torchvision built for another torch
# breaks transformers' model imports: hide it (find_spec gives None), and give
# export_fixtures, which subclasses its ResNet for vision fixtures this script
# never builds, stand-ins while it imports.
sys.modules["torchvision"] = None  # type: ignore[assignment]
import transformers  # noqa: E402

STUBS = ("torchvision", "torchvision.models", "torchvision.models.resnet")
for _mod in STUBS:
    sys.modules[_mod] = types.ModuleType(_mod)
_resnet: Any = sys.modules["torchvision.models.resnet"]
_resnet.ResNet, _resnet.BasicBlock = torch.nn.Module, object
sys.modules["torchvision"].__version__ = "-"  # type: ignore[attr-defined]
import export_fixtures as ef  # noqa: E402

for _mod in STUBS:
    sys.modules[_mod] = None  # type: ignore[assignment]

OUT = REPO / "tests" / "fixtures" / "zoo" / "text"
VOCAB = ef.VOCAB = 64  # ef.text_case draws ids below ef.VOCAB; small keeps files small
Inputs = dict[str, np.ndarray]

# ---------------------------------------------------------------- wrappers


def _pick(out: Any, names: tuple[str, ...]) -> tuple[torch.Tensor, ...]:
    return tuple(getattr(out, n) for n in names)


class Encoder(torch.nn.Module):
    """input_ids, attention_mask -> the named outputs (no cache arguments)."""

    def __init__(self, model: torch.nn.Module, outputs: tuple[str, ...]):
        super().__init__()
        self.model, self.outputs = model, outputs

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor
    ) -> tuple[torch.Tensor, ...]:
        out = self.model(input_ids=input_ids, attention_mask=attention_mask)
        return _pick(out, self.outputs)


class Seq2Seq(torch.nn.Module):
    """input_ids, attention_mask, decoder_input_ids -> logits."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = model

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        decoder_input_ids: torch.Tensor,
    ) -> torch.Tensor:
        out = self.model(
            input_ids=input_ids,
            attention_mask=attention_mask,
            decoder_input_ids=decoder_input_ids,
            use_cache=False,
        )
        return out.logits


class Features(torch.nn.Module):
    """One float input (audio samples, mel features, pixels) -> the named outputs."""

    def __init__(self, model: torch.nn.Module, arg: str, outputs: tuple[str, ...]):
        super().__init__()
        self.model, self.arg, self.outputs = model, arg, outputs

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return _pick(self.model(**{self.arg: x}), self.outputs)


class WhisperSeq2Seq(torch.nn.Module):
    """input_features, decoder_input_ids -> logits."""

    def __init__(self, model: torch.nn.Module):
        super().__init__()
        self.model = model

    def forward(
        self, input_features: torch.Tensor, decoder_input_ids: torch.Tensor
    ) -> torch.Tensor:
        out = self.model(
            input_features=input_features,
            decoder_input_ids=decoder_input_ids,
            use_cache=False,
        )
        return out.logits


class DecoderWithPast(torch.nn.Module):
    """A decoding step: past keys/values of every layer in, logits and presents out."""

    def __init__(self, model: torch.nn.Module, layers: int):
        super().__init__()
        self.model, self.layers = model, layers

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, *past: torch.Tensor
    ) -> tuple[torch.Tensor, ...]:
        from transformers.cache_utils import DynamicCache

        pairs = [(past[2 * i], past[2 * i + 1]) for i in range(self.layers)]
        cache = DynamicCache(ddp_cache_data=pairs, config=self.model.config)
        out = self.model(
            input_ids=input_ids,
            attention_mask=attention_mask,
            cache=cache,
            use_cache=True,
        )
        outs = [out.logits]
        for layer in (getattr(out, "cache", None) or out.past_key_values).layers:
            outs += [layer.keys, layer.values]
        return tuple(outs)


# ---------------------------------------------------------------- specs

TEXT_CASES = [(1, 1), (1, 16), (2, 7), (2, 16)]
S2S_CASES = [(1, 1, 1), (1, 16, 3), (2, 7, 5), (2, 16, 16)]
BOTH = frozenset(ef.EXPORTERS)


def _text_axes(outputs: list[str], seq_out: bool = True) -> dict[str, dict[int, str]]:
    out_axes = {0: "batch", 1: "seq"} if seq_out else {0: "batch"}
    return {**ef.TEXT_AXES, **{o: dict(out_axes) for o in outputs}}


def encoder(
    name: str, cfg: str, cls: str, config: dict[str, Any], outputs: tuple[str, ...]
) -> ef.Spec:
    """A transformers encoder taking input_ids/attention_mask."""

    def build() -> torch.nn.Module:
        return Encoder(
            getattr(transformers, cls)(getattr(transformers, cfg)(**config)), outputs
        )

    axes = _text_axes([o for o in outputs if o != "pooler_output"])
    axes.update({o: {0: "batch"} for o in outputs if o == "pooler_output"})
    return ef.Spec(
        name=name,
        family="transformer",
        source=f"transformers.{cls}({cfg}({ef.kwargs_text(config)})) -> {', '.join(outputs)}",
        build=build,
        input_names=["input_ids", "attention_mask"],
        output_names=list(outputs),
        cases=[ef.text_case(b, s) for b, s in TEXT_CASES],
        case_labels=[f"batch={b}, seq={s}" for b, s in TEXT_CASES],
        npz_case=2,
        dynamic_axes=axes,
        dynamic_shapes=ef.text_dynamic_shapes(),
        commit=BOTH,
    )


def causal(name: str, cfg: str, cls: str, config: dict[str, Any]) -> ef.Spec:
    """A transformers causal LM: input_ids/attention_mask -> logits, no cache."""

    def build() -> torch.nn.Module:
        return ef.TextModel(  # use_cache=False, logits
            getattr(transformers, cls)(getattr(transformers, cfg)(**config)), "logits"
        )

    return ef.Spec(
        name=name,
        family="transformer",
        source=f"transformers.{cls}({cfg}({ef.kwargs_text(config)})) -> logits",
        build=build,
        input_names=["input_ids", "attention_mask"],
        output_names=["logits"],
        cases=[ef.text_case(b, s) for b, s in TEXT_CASES],
        case_labels=[f"batch={b}, seq={s}" for b, s in TEXT_CASES],
        npz_case=2,
        dynamic_axes=_text_axes(["logits"]),
        dynamic_shapes=ef.text_dynamic_shapes(),
        commit=BOTH,
    )


def s2s_case(batch: int, seq: int, dec: int) -> Callable[[np.random.Generator], Inputs]:
    """Encoder text (row 1 padded) and decoder ids."""

    def make(rng: np.random.Generator) -> Inputs:
        feeds = ef.text_case(batch, seq)(rng)
        feeds["decoder_input_ids"] = rng.integers(
            0, VOCAB, (batch, dec), dtype=np.int64
        )
        return feeds

    return make


def seq2seq(name: str, cfg: str, cls: str, config: dict[str, Any]) -> ef.Spec:
    """An encoder-decoder: input_ids, attention_mask, decoder_input_ids -> logits."""

    def build() -> torch.nn.Module:
        return Seq2Seq(getattr(transformers, cls)(getattr(transformers, cfg)(**config)))

    batch, seq, dec = Dim("batch"), Dim("seq"), Dim("dec_seq")
    return ef.Spec(
        name=name,
        family="transformer",
        source=f"transformers.{cls}({cfg}({ef.kwargs_text(config)})) -> logits",
        build=build,
        input_names=["input_ids", "attention_mask", "decoder_input_ids"],
        output_names=["logits"],
        cases=[s2s_case(b, s, d) for b, s, d in S2S_CASES],
        case_labels=[f"batch={b}, seq={s}, dec_seq={d}" for b, s, d in S2S_CASES],
        npz_case=2,
        dynamic_axes={
            **ef.TEXT_AXES,
            "decoder_input_ids": {0: "batch", 1: "dec_seq"},
            "logits": {0: "batch", 1: "dec_seq"},
        },
        dynamic_shapes={
            "input_ids": {0: batch, 1: seq},
            "attention_mask": {0: batch, 1: seq},
            "decoder_input_ids": {0: batch, 1: dec},
        },
        commit=BOTH,
    )


def float_case(
    shape: tuple[int, ...], name: str
) -> Callable[[np.random.Generator], Inputs]:
    def make(rng: np.random.Generator) -> Inputs:
        return {name: rng.standard_normal(shape).astype(np.float32)}

    return make


def _model(cls: str) -> type[Any]:
    """A transformers class by name, or by `models.x.modeling_x.Class` path."""
    obj: Any = transformers
    for part in cls.split("."):
        obj = (
            getattr(obj, part)
            if hasattr(obj, part)
            else __import__(f"{obj.__name__}.{part}", fromlist=["_"])
        )
    return obj


def features(
    name: str,
    cfg: str,
    cls: str,
    config: dict[str, Any],
    arg: str,
    shapes: list[tuple[int, ...]],
    dynamic: dict[int, str],
    outputs: tuple[str, ...],
    out_axes: dict[int, str],
) -> ef.Spec:
    """A model of one float input: audio samples, mel features or pixels."""

    def build() -> torch.nn.Module:
        return Features(_model(cls)(getattr(transformers, cfg)(**config)), arg, outputs)

    dims = {axis: Dim(label) for axis, label in dynamic.items()}
    return ef.Spec(
        name=name,
        family="transformer",
        source=f"transformers.{cls}({cfg}({ef.kwargs_text(config)})) -> {', '.join(outputs)}",
        build=build,
        input_names=[arg],
        output_names=list(outputs),
        cases=[float_case(s, arg) for s in shapes],
        case_labels=["x".join(map(str, s)) for s in shapes],
        npz_case=1,
        dynamic_axes={arg: dynamic, **{o: dict(out_axes) for o in outputs}},
        dynamic_shapes={"x": dims},
        commit=BOTH,
    )


WHISPER_CASES = [(1, 1), (2, 5), (3, 9)]


def whisper_s2s(config: dict[str, Any]) -> ef.Spec:
    """Whisper encoder + decoder: mel features [batch, 8, 32] and decoder ids -> logits."""

    def build() -> torch.nn.Module:
        cfg = transformers.WhisperConfig(**config)
        return WhisperSeq2Seq(transformers.WhisperForConditionalGeneration(cfg))

    def case(batch: int, dec: int) -> Callable[[np.random.Generator], Inputs]:
        def make(rng: np.random.Generator) -> Inputs:
            feats = rng.standard_normal((batch, 8, 32)).astype(np.float32)
            ids = rng.integers(0, VOCAB, (batch, dec), dtype=np.int64)
            return {"input_features": feats, "decoder_input_ids": ids}

        return make

    batch, dec = Dim("batch"), Dim("dec_seq")
    return ef.Spec(
        name="whisper",
        family="transformer",
        source=f"transformers.WhisperForConditionalGeneration(WhisperConfig({ef.kwargs_text(config)})) -> logits",
        build=build,
        input_names=["input_features", "decoder_input_ids"],
        output_names=["logits"],
        cases=[case(b, d) for b, d in WHISPER_CASES],
        case_labels=[f"batch={b}, dec_seq={d}" for b, d in WHISPER_CASES],
        npz_case=1,
        dynamic_axes={
            "input_features": {0: "batch"},
            "decoder_input_ids": {0: "batch", 1: "dec_seq"},
            "logits": {0: "batch", 1: "dec_seq"},
        },
        dynamic_shapes={
            "input_features": {0: batch},
            "decoder_input_ids": {0: batch, 1: dec},
        },
        commit=BOTH,
    )


PAST_CASES = [(1, 1, 4), (2, 7, 5), (2, 1, 16)]


def with_past(
    name: str,
    cfg: str,
    cls: str,
    config: dict[str, Any],
    layers: int,
    kv_heads: int,
    head_dim: int,
) -> ef.Spec:
    """A decoding step of a causal LM with past keys/values."""

    def build() -> torch.nn.Module:
        return DecoderWithPast(
            getattr(transformers, cls)(getattr(transformers, cfg)(**config)), layers
        )

    past_names = [f"past_{k}_{i}" for i in range(layers) for k in ("key", "value")]
    present = [f"present_{k}_{i}" for i in range(layers) for k in ("key", "value")]

    def case(
        batch: int, seq: int, past: int
    ) -> Callable[[np.random.Generator], Inputs]:
        def make(rng: np.random.Generator) -> Inputs:
            total = past + seq
            feeds: Inputs = {
                "input_ids": rng.integers(0, VOCAB, (batch, seq), dtype=np.int64),
                "attention_mask": np.ones((batch, total), dtype=np.int64),
            }
            if batch > 1:
                feeds["attention_mask"][1, total - 2 :] = 0
            for n in past_names:
                feeds[n] = rng.standard_normal(
                    (batch, kv_heads, past, head_dim)
                ).astype(np.float32)
            return feeds

        return make

    batch, seq, past = Dim("batch"), Dim("seq"), Dim("past_seq")
    return ef.Spec(
        name=name,
        family="transformer",
        source=(
            f"transformers.{cls}({cfg}({ef.kwargs_text(config)})) with a DynamicCache of "
            f"past_key/value_i [batch, {kv_heads}, past_seq, {head_dim}] -> logits, present_key/value_i"
        ),
        build=build,
        input_names=["input_ids", "attention_mask", *past_names],
        output_names=["logits", *present],
        cases=[case(b, s, p) for b, s, p in PAST_CASES],
        case_labels=[f"batch={b}, seq={s}, past_seq={p}" for b, s, p in PAST_CASES],
        npz_case=1,
        dynamic_axes={
            "input_ids": {0: "batch", 1: "seq"},
            "attention_mask": {0: "batch", 1: "total_seq"},
            **{n: {0: "batch", 2: "past_seq"} for n in past_names},
            "logits": {0: "batch", 1: "seq"},
            **{n: {0: "batch", 2: "total_seq"} for n in present},
        },
        dynamic_shapes={
            "input_ids": {0: batch, 1: seq},
            "attention_mask": {0: batch, 1: Dim.DYNAMIC},
            "past": tuple({0: batch, 2: past} for _ in past_names),
        },
        commit=BOTH,
        rename_dims={("attention_mask", 1): "total_seq"},
    )


def static(spec: ef.Spec, batch: int = 2, seq: int = 8) -> ef.Spec:
    """`spec` exported at one shape: for models whose exports bake the length in
    (Longformer's chunking, Mamba's unrolled scan) and so fail ORT at others."""
    spec.cases, spec.case_labels, spec.npz_case = (
        [ef.text_case(batch, seq)],
        [f"batch={batch}, seq={seq}"],
        0,
    )
    spec.dynamic_axes = spec.dynamic_shapes = None
    spec.note = "static shapes: the export bakes the sequence length in"
    return spec


SMALL = dict(vocab_size=VOCAB, max_position_embeddings=64)
BERTISH = dict(
    SMALL,
    hidden_size=16,
    num_hidden_layers=1,
    num_attention_heads=2,
    intermediate_size=32,
)
ROBERTA = dict(
    BERTISH, max_position_embeddings=72, pad_token_id=1, bos_token_id=0, eos_token_id=2
)
LLAMAISH = dict(
    SMALL,
    hidden_size=16,
    intermediate_size=32,
    num_hidden_layers=1,
    num_attention_heads=2,
    num_key_value_heads=1,
    bos_token_id=1,
    eos_token_id=2,
    pad_token_id=0,
)
T5 = dict(
    vocab_size=VOCAB,
    d_model=16,
    d_kv=8,
    d_ff=32,
    num_layers=1,
    num_decoder_layers=1,
    num_heads=2,
    relative_attention_num_buckets=8,
    relative_attention_max_distance=16,
    decoder_start_token_id=0,
    pad_token_id=0,
    eos_token_id=1,
)
BART = dict(
    SMALL,
    d_model=16,
    encoder_layers=1,
    decoder_layers=1,
    encoder_attention_heads=2,
    decoder_attention_heads=2,
    encoder_ffn_dim=32,
    decoder_ffn_dim=32,
    pad_token_id=1,
    bos_token_id=0,
    eos_token_id=2,
    decoder_start_token_id=2,
)
WHISPER = dict(
    vocab_size=VOCAB,
    num_mel_bins=8,
    d_model=16,
    encoder_layers=1,
    decoder_layers=1,
    encoder_attention_heads=2,
    decoder_attention_heads=2,
    encoder_ffn_dim=32,
    decoder_ffn_dim=32,
    max_source_positions=16,
    max_target_positions=32,
    pad_token_id=0,
    bos_token_id=1,
    eos_token_id=2,
    decoder_start_token_id=1,
    suppress_tokens=None,
    begin_suppress_tokens=None,
)
W2V = dict(
    vocab_size=32,
    hidden_size=16,
    num_hidden_layers=1,
    num_attention_heads=2,
    intermediate_size=32,
    conv_dim=(8, 8),
    conv_stride=(5, 2),
    conv_kernel=(10, 3),
    num_conv_pos_embeddings=8,
    num_conv_pos_embedding_groups=2,
    feat_extract_norm="group",
    mask_time_prob=0.0,
)
CLIP = dict(
    hidden_size=16,
    intermediate_size=32,
    num_hidden_layers=1,
    num_attention_heads=2,
    hidden_act="quick_gelu",
)
HIDDEN = ("last_hidden_state",)
AUDIO_SHAPES = [(1, 400), (2, 1000), (3, 640)]
POOLED = ("last_hidden_state", "pooler_output")


def specs() -> list[ef.Spec]:
    """Every model of the zoo."""
    return [
        encoder(
            "distilbert",
            "DistilBertConfig",
            "DistilBertModel",
            dict(SMALL, dim=16, n_layers=1, n_heads=2, hidden_dim=32),
            HIDDEN,
        ),
        encoder("roberta", "RobertaConfig", "RobertaModel", ROBERTA, POOLED),
        encoder("xlm_roberta", "XLMRobertaConfig", "XLMRobertaModel", ROBERTA, HIDDEN),
        encoder(
            "albert",
            "AlbertConfig",
            "AlbertModel",
            dict(BERTISH, embedding_size=8, num_hidden_layers=2),
            POOLED,
        ),
        encoder(
            "electra",
            "ElectraConfig",
            "ElectraModel",
            dict(BERTISH, embedding_size=8),
            HIDDEN,
        ),
        encoder(
            "deberta_v2",
            "DebertaV2Config",
            "DebertaV2Model",
            dict(
                BERTISH,
                relative_attention=True,
                position_buckets=8,
                max_relative_positions=16,
                pos_att_type=["p2c", "c2p"],
                norm_rel_ebd="layer_norm",
                share_att_key=True,
                position_biased_input=False,
            ),
            HIDDEN,
        ),
        encoder("t5_encoder", "T5Config", "T5EncoderModel", T5, HIDDEN),
        encoder(
            "clip_text",
            "CLIPTextConfig",
            "CLIPTextModel",
            dict(
                CLIP,
                vocab_size=VOCAB,
                max_position_embeddings=64,
                bos_token_id=1,
                eos_token_id=2,
            ),
            POOLED,
        ),
        seq2seq("t5", "T5Config", "T5ForConditionalGeneration", T5),
        seq2seq("bart", "BartConfig", "BartForConditionalGeneration", BART),
        seq2seq("mbart", "MBartConfig", "MBartForConditionalGeneration", BART),
        causal(
            "gpt_neo",
            "GPTNeoConfig",
            "GPTNeoForCausalLM",
            dict(
                SMALL,
                hidden_size=16,
                num_layers=2,
                num_heads=2,
                intermediate_size=32,
                attention_types=[[["global", "local"], 1]],
                window_size=4,
            ),
        ),
        causal(
            "gpt_neox",
            "GPTNeoXConfig",
            "GPTNeoXForCausalLM",
            dict(BERTISH, rotary_pct=0.5, use_parallel_residual=True),
        ),
        causal(
            "opt",
            "OPTConfig",
            "OPTForCausalLM",
            dict(
                SMALL,
                hidden_size=16,
                num_hidden_layers=1,
                ffn_dim=32,
                num_attention_heads=2,
                word_embed_proj_dim=16,
            ),
        ),
        causal(
            "bloom",
            "BloomConfig",
            "BloomForCausalLM",
            dict(vocab_size=VOCAB, hidden_size=16, n_layer=1, n_head=2),
        ),
        causal(
            "falcon",
            "FalconConfig",
            "FalconForCausalLM",
            dict(
                vocab_size=VOCAB,
                hidden_size=16,
                num_hidden_layers=1,
                num_attention_heads=2,
            ),
        ),
        causal(
            "phi",
            "PhiConfig",
            "PhiForCausalLM",
            dict(BERTISH, partial_rotary_factor=0.5),
        ),
        causal("phi3", "Phi3Config", "Phi3ForCausalLM", LLAMAISH),
        causal("qwen2", "Qwen2Config", "Qwen2ForCausalLM", LLAMAISH),
        causal("qwen3", "Qwen3Config", "Qwen3ForCausalLM", dict(LLAMAISH, head_dim=8)),
        causal(
            "mistral",
            "MistralConfig",
            "MistralForCausalLM",
            dict(LLAMAISH, sliding_window=4),
        ),
        causal(
            "gemma",
            "GemmaConfig",
            "GemmaForCausalLM",
            dict(LLAMAISH, head_dim=8, hidden_activation="gelu_pytorch_tanh"),
        ),
        causal(
            "mpt",
            "MptConfig",
            "MptForCausalLM",
            dict(
                vocab_size=VOCAB,
                d_model=16,
                n_heads=2,
                n_layers=1,
                expansion_ratio=2,
                max_seq_len=64,
            ),
        ),
        with_past(
            "qwen2_past",
            "Qwen2Config",
            "Qwen2ForCausalLM",
            dict(LLAMAISH, num_hidden_layers=2),
            2,
            1,
            8,
        ),
        features(
            "whisper_encoder",
            "WhisperConfig",
            "models.whisper.modeling_whisper.WhisperEncoder",
            WHISPER,
            "input_features",
            [(1, 8, 32), (2, 8, 32), (3, 8, 32)],
            {0: "batch"},
            HIDDEN,
            {0: "batch"},
        ),
        whisper_s2s(WHISPER),
        features(
            "wav2vec2",
            "Wav2Vec2Config",
            "Wav2Vec2Model",
            W2V,
            "input_values",
            AUDIO_SHAPES,
            {0: "batch", 1: "samples"},
            HIDDEN,
            {0: "batch", 1: "frames"},
        ),
        features(
            "hubert",
            "HubertConfig",
            "HubertModel",
            W2V,
            "input_values",
            AUDIO_SHAPES,
            {0: "batch", 1: "samples"},
            HIDDEN,
            {0: "batch", 1: "frames"},
        ),
        features(
            "clip_vision",
            "CLIPVisionConfig",
            "CLIPVisionModel",
            dict(CLIP, image_size=32, patch_size=8),
            "pixel_values",
            [(1, 3, 32, 32), (2, 3, 32, 32), (3, 3, 32, 32)],
            {0: "batch"},
            POOLED,
            {0: "batch"},
        ),
        causal(
            "mixtral",
            "MixtralConfig",
            "MixtralForCausalLM",
            dict(LLAMAISH, num_local_experts=4, num_experts_per_tok=2),
        ),
        causal(
            "gemma2",
            "Gemma2Config",
            "Gemma2ForCausalLM",
            dict(
                LLAMAISH,
                head_dim=8,
                num_hidden_layers=2,
                sliding_window=4,
                attn_logit_softcapping=50.0,
                final_logit_softcapping=30.0,
            ),
        ),
        causal(
            "gpt_bigcode",
            "GPTBigCodeConfig",
            "GPTBigCodeForCausalLM",
            dict(
                vocab_size=VOCAB,
                n_embd=16,
                n_layer=1,
                n_head=2,
                n_positions=64,
                multi_query=True,
            ),
        ),
        causal(
            "gptj",
            "GPTJConfig",
            "GPTJForCausalLM",
            dict(
                vocab_size=VOCAB,
                n_embd=16,
                n_layer=1,
                n_head=2,
                rotary_dim=4,
                n_positions=64,
            ),
        ),
        causal(
            "codegen",
            "CodeGenConfig",
            "CodeGenForCausalLM",
            dict(
                vocab_size=VOCAB,
                n_embd=16,
                n_layer=1,
                n_head=2,
                rotary_dim=4,
                n_positions=64,
                n_ctx=64,
            ),
        ),
        causal(
            "stablelm",
            "StableLmConfig",
            "StableLmForCausalLM",
            dict(LLAMAISH, partial_rotary_factor=0.5),
        ),
        causal("olmo", "OlmoConfig", "OlmoForCausalLM", LLAMAISH),
        with_past(
            "gpt_neox_past",
            "GPTNeoXConfig",
            "GPTNeoXForCausalLM",
            dict(BERTISH, rotary_pct=0.5),
            1,
            2,
            8,
        ),
        encoder(
            "modernbert",
            "ModernBertConfig",
            "ModernBertModel",
            dict(
                BERTISH,
                num_hidden_layers=2,
                global_attn_every_n_layers=2,
                local_attention=4,
                pad_token_id=0,
                eos_token_id=1,
                bos_token_id=2,
                cls_token_id=3,
                sep_token_id=4,
            ),
            HIDDEN,
        ),
        encoder(
            "xlnet",
            "XLNetConfig",
            "XLNetModel",
            dict(vocab_size=VOCAB, d_model=16, n_layer=1, n_head=2, d_inner=32),
            HIDDEN,
        ),
        encoder(
            "funnel",
            "FunnelConfig",
            "FunnelModel",
            dict(
                vocab_size=VOCAB,
                block_sizes=[1, 1],
                num_decoder_layers=1,
                d_model=16,
                n_head=2,
                d_head=8,
                d_inner=32,
            ),
            HIDDEN,
        ),
        encoder(
            "squeezebert",
            "SqueezeBertConfig",
            "SqueezeBertModel",
            dict(
                BERTISH,
                embedding_size=16,
                q_groups=2,
                k_groups=2,
                v_groups=2,
                post_attention_groups=2,
                intermediate_groups=2,
                output_groups=2,
            ),
            HIDDEN,
        ),
        encoder(
            "convbert",
            "ConvBertConfig",
            "ConvBertModel",
            dict(BERTISH, embedding_size=16, head_ratio=2, conv_kernel_size=3),
            HIDDEN,
        ),
        encoder(
            "roformer",
            "RoFormerConfig",
            "RoFormerModel",
            dict(BERTISH, embedding_size=16),
            HIDDEN,
        ),
        features(
            "wav2vec2_conformer",
            "Wav2Vec2ConformerConfig",
            "Wav2Vec2ConformerModel",
            dict(W2V, position_embeddings_type="rotary", conv_depthwise_kernel_size=3),
            "input_values",
            AUDIO_SHAPES,
            {0: "batch", 1: "samples"},
            HIDDEN,
            {0: "batch", 1: "frames"},
        ),
        features(
            "data2vec_audio",
            "Data2VecAudioConfig",
            "Data2VecAudioModel",
            dict(W2V, num_conv_pos_embeddings=2, conv_pos_kernel_size=3),
            "input_values",
            AUDIO_SHAPES,
            {0: "batch", 1: "samples"},
            HIDDEN,
            {0: "batch", 1: "frames"},
        ),
        features(
            "sew",
            "SEWConfig",
            "SEWModel",
            dict(W2V, squeeze_factor=2),
            "input_values",
            AUDIO_SHAPES,
            {0: "batch", 1: "samples"},
            HIDDEN,
            {0: "batch", 1: "frames"},
        ),
        features(
            "siglip_vision",
            "SiglipVisionConfig",
            "SiglipVisionModel",
            dict(CLIP, hidden_act="gelu_pytorch_tanh", image_size=32, patch_size=8),
            "pixel_values",
            [(1, 3, 32, 32), (2, 3, 32, 32), (3, 3, 32, 32)],
            {0: "batch"},
            POOLED,
            {0: "batch"},
        ),
        static(
            encoder(
                "longformer",
                "LongformerConfig",
                "LongformerModel",
                dict(
                    BERTISH,
                    max_position_embeddings=72,
                    attention_window=4,
                    pad_token_id=1,
                ),
                HIDDEN,
            )
        ),
        static(
            causal(
                "mamba",
                "MambaConfig",
                "MambaForCausalLM",
                dict(
                    vocab_size=VOCAB,
                    hidden_size=16,
                    state_size=4,
                    num_hidden_layers=1,
                    expand=2,
                    conv_kernel=4,
                ),
            )
        ),
    ]


# ---------------------------------------------------------------- driver


def compact(path: Path) -> None:
    """Shrink the file without changing what it computes: drop node metadata
    (dynamo's scopes and FX names) and node names, and give every intermediate
    value a short name (TorchScript's names are most of its bytes). Graph
    inputs, outputs and initializers keep their names."""
    model = onnx.load(str(path))
    g = model.graph
    keep = {v.name for v in [*g.input, *g.output]} | {t.name for t in g.initializer}
    names: dict[str, str] = {}
    nodes = list(ef.all_nodes(model))
    nested = model.functions or any(
        a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)
        for n in nodes
        for a in n.attribute
    )
    for node in nodes:
        del node.metadata_props[:]
        node.name = ""
        if nested:  # subgraphs may name outer values: keep every name
            continue
        for out in node.output:
            if out and out not in keep and out not in names:
                names[out] = f"t{len(names)}"
    for node in nodes:
        node.input[:] = [names.get(n, n) for n in node.input]
        node.output[:] = [names.get(n, n) for n in node.output]
    for v in g.value_info:
        v.name = names.get(v.name, v.name)
    onnx.save_model(model, str(path))
    with np.load(path.with_suffix(".npz")) as saved:  # still the same model?
        feeds = {v.name: saved[v.name] for v in g.input}
        want = [saved[v.name] for v in g.output]
    got = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(
        None, feeds
    )
    for w, o in zip(want, got, strict=True):
        np.testing.assert_allclose(o, w, rtol=ef.RTOL, atol=ef.ATOL)


def record(r: ef.Result) -> dict[str, Any]:
    """What README shows of one (model, exporter) result."""
    return {
        "stem": r.stem,
        "name": r.spec.name,
        "exporter": r.exporter,
        "ok": r.ok,
        "error": r.error,
        "source": r.spec.source,
        "opset": r.opset,
        "nodes": r.nodes,
        "size": ef.size_text(r.onnx_path),
        "dims": r.dims,
        "checked": r.errors,
        "ops": ef.histogram_text(r.histogram),
    }


FAILURE_NOTES = {
    "t5": "torch.export cannot decompose T5Attention's reshape after a transpose "
    "(`Cannot view a tensor with shape [s43, s53, 2, 8] and strides ... as (s43, s53, 16)`).",
    "t5_encoder": "as `t5.dynamo`.",
    "whisper.torchscript": "TorchScript has no `aten::diff`.",
    "mixtral": "MoE routing: TorchScript has no `aten::histc`; dynamo fails converting the experts.",
    "modernbert.dynamo": "ORT's result of the dynamo export differs from torch eager "
    "(the TorchScript export matches and is committed).",
    "xlnet.dynamo": "torch.export's decomposition fails (relative attention).",
    "funnel": "torch eager itself fails at one of the sizes (pooling a short sequence).",
    "longformer.dynamo": "torch.export fails on Longformer's data-dependent chunking; "
    "the TorchScript export is committed at one static shape.",
}
"""Why a model is missing, as far as we looked (README)."""


def readme(records: list[dict[str, Any]]) -> str:
    """The zoo's README.md."""
    v = {k: val for k, val in ef.versions().items() if k != "torchvision"}
    ok = [r for r in records if r["ok"]]
    failed = [r for r in records if not r["ok"]]
    lines = [
        "# Text, audio and multimodal model zoo",
        "",
        "Generated by `scripts/export_zoo_text.py`; do not edit by hand. Tiny configs of",
        "transformers architectures with random weights (fixed seeds, nothing downloaded),",
        "exported with both of torch's exporters, for `tests/pytest/backend/test_zoo_text.py`",
        "and `tests/pytest/emulator/test_zoo_text.py` (xhip against ONNX Runtime).",
        "",
        "```sh",
        "/tmp/genai-venv/bin/python scripts/export_zoo_text.py            # every model",
        "/tmp/genai-venv/bin/python scripts/export_zoo_text.py --only t5  # one model",
        "```",
        "",
        "Versions: " + ", ".join(f"{k} {val}" for k, val in v.items()) + ".",
        "",
        "- `torchscript`: `torch.onnx.export(..., dynamo=False, opset_version=17, dynamic_axes=...)`.",
        "- `dynamo`: `torch.onnx.export(..., dynamo=True, dynamic_shapes=...)`, stack traces removed.",
        "- Text inputs: `input_ids`, `attention_mask` int64 `[batch, seq]`; with batch 2 row 1 is",
        "  padded at the end. Every fixture matched torch eager under ORT (atol/rtol 1e-4) at",
        "  each listed size; one that did not is listed under failures and not committed.",
        "  The `.npz` beside each holds one case's inputs and torch eager's outputs.",
        "- Node metadata and node names are dropped and intermediate values renamed",
        "  `t0, t1, ...` (TorchScript's long names were most of the bytes); graph inputs,",
        "  outputs and weights keep their names, and ORT is checked again on the result.",
        "- `results.json`: every (model, exporter) result, so that `--only NAME` keeps this",
        "  README whole; `--only` with no name only rewrites it.",
        "- Static shapes: `longformer` and `mamba` bake the sequence length into their",
        "  exports (ORT fails at other lengths), so they are exported at batch 2, seq 8.",
        "",
        "## Licences",
        "",
        "Only code: the architectures are transformers' (Apache-2.0), exported by torch",
        "(BSD-3-Clause); every weight is random, no pretrained weights are used.",
        "",
        "## Fixtures",
        "",
        "| fixture | opset | .onnx | nodes | source |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in ok:
        lines.append(
            f"| `{r['stem']}` | {r['opset']} | {r['size']} | {r['nodes']} | `{r['source']}` |"
        )
    for r in ok:
        lines += [
            "",
            f"### `{r['stem']}.onnx`",
            "",
            "- Dims: " + "; ".join(f"`{d}`" for d in r["dims"]),
            "- Checked with ORT at: " + "; ".join(r["checked"]),
            f"- Ops: {r['ops']}",
        ]
    lines += ["", "## Export or check failures (not committed)", ""]
    for r in failed:
        error = re.sub(r"\x1b\[[0-9;]*m", "", r["error"])[:220]
        note = FAILURE_NOTES.get(r["stem"], FAILURE_NOTES.get(r["name"], ""))
        lines.append(f"- `{r['stem']}`: {note + ' ' if note else ''}(`{error}`)")
    lines += [] if failed else ["None."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Export the zoo (or `--only` some of it) into --out and rewrite its README."""
    import json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--only", nargs="*", default=None, help="model names")
    parser.add_argument("--exporter", choices=ef.EXPORTERS, default=None)
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(2)
    status = out / "results.json"
    records: dict[str, dict[str, Any]] = (
        json.loads(status.read_text()) if status.exists() else {}
    )
    todo = [s for s in specs() if args.only is None or s.name in args.only]
    exporters = [args.exporter] if args.exporter else list(ef.EXPORTERS)
    with tempfile.TemporaryDirectory() as tmp:
        for spec in todo:
            for exporter in exporters:
                for p in out.glob(f"{spec.name}.{exporter}.*"):
                    p.unlink()
                r = ef.run_one(spec, exporter, out, out, Path(tmp))
                if r.ok and r.onnx_path is not None:
                    compact(r.onnx_path)
                print(
                    f"{r.stem:30} {ef.size_text(r.onnx_path):9} {'ok' if r.ok else r.error}",
                    flush=True,
                )
                records[r.stem] = record(r)
                status.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    order = {s.name: i for i, s in enumerate(specs())}
    ranked = sorted(
        records.values(), key=lambda r: (order.get(r["name"], 99), r["exporter"])
    )
    (out / "README.md").write_text(readme(ranked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
