"""The GPU runtimes' convolution and pooling.

`GpuConvolutions` is mixed into `gpu.KernelRuntime`; the kernels are in
`kernels/conv.h`. float32 only, like the other kernels.

- `conv`: per image, `xhip_im2col_f32` writes the im2col matrix (C * K, P)
  into the op's workspace, a buffer of the memory plan (the compiler sized
  it), then one strided-batched SGEMM over the groups computes
  `y[n] (G, M/G, P) = w (G, M/G, C/G * K) @ col (G, C/G * K, P)`, through
  `_gemm` (which plans it with `plan_gemm`). With a bias, the bias is first
  broadcast into `y[n]` by the copy kernel and the SGEMM adds to it
  (beta 1). A 1x1 kernel with unit strides and no pads (an empty workspace)
  needs no im2col: the image is the matrix, and with one group the whole
  batch is one SGEMM (the weight's batch stride 0).
- `pool`: `xhip_pool_f32`, one thread per output element.
"""

from __future__ import annotations

import math

import numpy as np

from xhip.backend.build_env import UnsupportedOpError
from xhip.backend.gpu_host import GpuHost, dense_view, view_of
from xhip.backend.runtime import (
    DA,
    DeviceArray,
    InputError,
    OptDA,
    contiguous_strides,
)
from xhip.dialects.hip import ConvAttributes, PoolAttributes
from xhip.dialects.hip.conv import window_too_large

POOL_MODES = {"max": 0, "average": 1, "average_with_pad": 2}
"""The `mode` codes of `xhip_pool_f32` (the XHIP_POOL_* of conv.h)."""


def conv_weights(
    host: GpuHost, x: DA, w: DA, bias: OptDA, out: DA, scratch: list[DeviceArray]
) -> DeviceArray | None:
    """What Conv and ConvTranspose start with: float32 operands, and the
    weights dense (a copy added to `scratch` where `w` is not); None when
    `out` is empty and there is nothing to do."""
    host._require_f32(x, w, out, *([bias] if bias is not None else []))
    if out.size == 0:
        return None
    if w.is_contiguous():
        return w
    scratch.append(host._dense(w))
    return scratch[-1]


class GpuConvolutions(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` methods of convolution and pooling."""

    def conv(
        self, x: DA, w: DA, bias: OptDA, out: DA, workspace: DA, attrs: ConvAttributes
    ) -> None:
        if problem := window_too_large(x.shape[2:], w.shape[2:], attrs):
            raise InputError(f"Conv: {problem}")
        if attrs.relu:  # the session fuses it only where `fuses_conv_relu`
            raise UnsupportedOpError(
                "hip.miopen.conv with relu (hip-fuse-conv-relu): the GPU runtimes "
                "run the Relu as an op of its own"
            )
        scratch: list[DeviceArray] = []
        dense_w = conv_weights(self, x, w, bias, out, scratch)
        if dense_w is None:
            return
        n, c, group = *x.shape[:2], attrs.group
        strides, dilations, pads = attrs.strides, attrs.dilations, attrs.pads
        m, kernel, out_spatial = w.shape[0], w.shape[2:], out.shape[2:]
        rank, taps, positions = len(kernel), math.prod(kernel), math.prod(out_spatial)
        weights = dense_view(dense_w, (group, m // group, (c // group) * taps))
        target = out
        if not out.is_contiguous():
            target = self._dense(out, keep=False)
            scratch.append(target)
        if bias is not None:
            column = view_of(bias, (n, m, positions), (0, bias.strides[0], 0))
            self.copy(column, dense_view(target, (n, m, positions)))
        beta = 0.0 if bias is None else 1.0
        if workspace.size == 0 and group == 1:
            if not x.is_contiguous():
                x = self._dense(x)
                scratch.append(x)
            images = dense_view(x, (n, c, positions))
            self._gemm(
                weights, images, dense_view(target, (n, m, positions)), 1.0, beta
            )
        else:
            meta = np.asarray(
                [c, *x.shape[2:], *out_spatial, *kernel, *strides, *dilations]
                + [*pads[:rank], x.strides[1], *x.strides[2:]],
                dtype=np.int64,
            )
            for i in range(n):
                image = view_of(x, x.shape[1:], x.strides[1:], i * x.strides[0])
                if workspace.size == 0:
                    if not image.is_contiguous():
                        image = self._dense(image)
                        scratch.append(image)
                    cols = dense_view(image, (group, c // group, positions))
                else:
                    self._launch_1d(
                        "xhip_im2col_f32",
                        workspace.size,
                        [
                            ("ptr", self._address(image)),
                            ("ptr", self._address(workspace)),
                            ("i32", rank),
                            ("ptr", self._device_meta(meta)),
                            ("i64", workspace.size),
                        ],
                    )
                    cols = dense_view(
                        workspace, (group, (c // group) * taps, positions)
                    )
                result = view_of(
                    target,
                    (group, m // group, positions),
                    contiguous_strides((group, m // group, positions)),
                    i * m * positions,
                )
                self._gemm(weights, cols, result, 1.0, beta)
        if target is not out:
            self.copy(target, out)
        for value in scratch:
            self.free(value.buffer)

    def pool(self, x: DA, out: DA, indices: OptDA, attrs: PoolAttributes) -> None:
        self._require_f32(x, out)
        if out.size == 0:
            return
        rank, kernel = len(x.shape) - 2, attrs.kernel
        window = tuple(x.shape[2:]) if kernel is None else kernel
        index_strides = (0,) * (2 + rank) if indices is None else indices.strides
        meta = np.asarray(
            [*x.shape[:2], *x.shape[2:], *out.shape[2:], *window, *attrs.strides]
            + [*attrs.dilations, *attrs.pads, *x.strides, *out.strides]
            + [*index_strides],
            dtype=np.int64,
        )
        mode = (
            "max"
            if attrs.kind == "max"
            else ("average_with_pad" if attrs.count_include_pad else "average")
        )
        self._launch_1d(
            "xhip_pool_f32",
            out.size,
            [
                ("ptr", self._address(x)),
                ("ptr", self._address(out)),
                ("ptr", 0 if indices is None else self._address(indices)),
                ("i32", POOL_MODES[mode]),
                ("i32", int(attrs.column_major)),
                ("i32", rank),
                ("ptr", self._device_meta(meta)),
                ("i64", out.size),
            ],
        )
