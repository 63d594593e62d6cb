"""`xhip.pipeline.build_pipeline`: pipeline specs into passes, bad specs as
`PipelineError`s (the CLI's one-line messages are tested in test_cli.py)."""

from __future__ import annotations

import pytest

from xhip.pipeline import (
    OnnxToHipPass,
    PipelineError,
    PipelineSyntaxError,
    build_pipeline,
)


def test_passes_and_options() -> None:
    cse, onnx_to_hip = build_pipeline("cse,onnx-to-hip{externalize-min-num-elements=7}")
    assert cse.name == "cse"
    assert isinstance(onnx_to_hip, OnnxToHipPass)
    assert onnx_to_hip.externalize_min_num_elements == 7
    assert onnx_to_hip.externalize_output_dir == "."


def test_defaults_fill_only_missing_options_of_passes_that_have_them() -> None:
    defaults = {"externalize-output-dir": "/d", "externalize-min-num-elements": 3}
    cse, a, b = build_pipeline(
        'cse,onnx-to-hip,onnx-to-hip{externalize-output-dir="/mine"}', defaults
    )
    assert cse.name == "cse"
    assert isinstance(a, OnnxToHipPass) and isinstance(b, OnnxToHipPass)
    assert (a.externalize_output_dir, a.externalize_min_num_elements) == ("/d", 3)
    assert (b.externalize_output_dir, b.externalize_min_num_elements) == ("/mine", 3)


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        (
            "cse,no-such-pass{x=1}",
            PipelineError,
            "unknown pass 'no-such-pass' (see `xdsl-opt --help` for the passes "
            "there are)",
        ),
        ("a-pass,b-pass", PipelineError, "unknown passes 'a-pass', 'b-pass'"),
        ("cse{bogus=1}", PipelineError, "pass 'cse': "),
        (
            "cse{",
            PipelineSyntaxError,
            "'cse{': Error parsing pass pipeline specification: Expected argument "
            "name here",
        ),
    ],
)
def test_bad_specs(spec: str, error: type[PipelineError], message: str) -> None:
    with pytest.raises(error) as raised:
        build_pipeline(spec)
    text = str(raised.value)
    assert text.startswith(message) and "\n" not in text
    assert isinstance(raised.value, ValueError)


def test_the_library_raises_the_library_error() -> None:
    import xhip
    from tests.pytest.frontend.models import relu_model

    with pytest.raises(PipelineError, match="unknown pass 'nope'"):
        xhip.compile_to_ir(relu_model(), pipeline="nope")
