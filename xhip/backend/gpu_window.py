"""The GPU runtimes' transposed convolution and Lp pooling.

`GpuWindows` is mixed into `gpu.KernelRuntime`; the kernels are in
`kernels/window.h`. float32 only, like the other kernels.

- `conv_transpose`: per image, one strided-batched SGEMM over the groups
  (through `_gemm`, which plans it with `plan_gemm`) writes the column matrix
  `col (G, M/G * K, P) = w^T (G, M/G * K, C/G) @ x[n] (G, C/G, P)` into the
  op's workspace, a buffer of the memory plan (the compiler sized it), then
  `xhip_col2im_f32` gathers it into y[n]: each output element sums the
  columns landing on it, plus the bias (no atomics). A 1x1 kernel with unit
  strides and no pads (an empty workspace) needs no col2im: the SGEMM writes
  y[n] itself, the bias first broadcast into it by the copy kernel (beta 1);
  with one group the whole batch is one SGEMM (the weight's batch stride 0).
- `lp_pool`: `xhip_lp_pool_f32`, one thread per output element.
"""

from __future__ import annotations

import math

import numpy as np

from xhip.backend.gpu_conv import conv_weights
from xhip.backend.gpu_host import GpuHost, dense_view, view_of
from xhip.backend.runtime import (
    DA,
    DeviceArray,
    OptDA,
    check_call,
    contiguous_strides,
)
from xhip.dialects.hip import ConvAttributes, LpPoolAttributes


def _swap_last(value: DeviceArray) -> DeviceArray:
    """The view with its last two dims swapped."""
    shape, strides = value.shape, value.strides
    return view_of(
        value,
        (*shape[:-2], shape[-1], shape[-2]),
        (*strides[:-2], strides[-1], strides[-2]),
    )


class GpuWindows(GpuHost):
    """Mixed into `KernelRuntime`: the `Runtime` methods of ConvTranspose and
    LpPool."""

    def conv_transpose(
        self, x: DA, w: DA, bias: OptDA, out: DA, workspace: DA, attrs: ConvAttributes
    ) -> None:
        m, kernel, in_spatial = out.shape[1], w.shape[2:], x.shape[2:]
        rank, taps, positions = len(kernel), math.prod(kernel), math.prod(in_spatial)
        scratch: list[DeviceArray] = []
        dense_w = conv_weights(self, x, w, bias, out, scratch)
        if dense_w is None:
            return
        n, c, group = *x.shape[:2], attrs.group
        # (G, M/G * K, C/G): each group's weights, transposed.
        weights = _swap_last(
            dense_view(dense_w, (group, c // group, (m // group) * taps))
        )
        if not x.is_contiguous():
            x = self._dense(x)
            scratch.append(x)
        if workspace.size == 0:  # y is the column matrix itself
            target = out if out.is_contiguous() else self._dense(out, keep=False)
            if target is not out:
                scratch.append(target)
            beta = 0.0
            if bias is not None:
                column = view_of(bias, (n, m, positions), (0, bias.strides[0], 0))
                self.copy(column, dense_view(target, (n, m, positions)))
                beta = 1.0
            if group == 1:
                self._gemm(
                    weights,
                    dense_view(x, (n, c, positions)),
                    dense_view(target, (n, m, positions)),
                    1.0,
                    beta,
                )
            else:
                for i in range(n):
                    image = view_of(
                        x,
                        (group, c // group, positions),
                        contiguous_strides((group, c // group, positions)),
                        i * c * positions,
                    )
                    result = view_of(
                        target,
                        (group, m // group, positions),
                        contiguous_strides((group, m // group, positions)),
                        i * m * positions,
                    )
                    self._gemm(weights, image, result, 1.0, beta)
            if target is not out:
                self.copy(target, out)
        else:
            out_spatial = out.shape[2:]
            meta = np.asarray(
                [m, *in_spatial, *out_spatial, *kernel, *attrs.strides]
                + [*attrs.dilations, *attrs.pads[:rank], *out.strides[1:]]
                + [0 if bias is None else bias.strides[0]],
                dtype=np.int64,
            )
            cols = dense_view(workspace, (group, (m // group) * taps, positions))
            elements = m * math.prod(out_spatial)
            for i in range(n):
                image = view_of(
                    x,
                    (group, c // group, positions),
                    contiguous_strides((group, c // group, positions)),
                    i * c * positions,
                )
                self._gemm(weights, image, cols, 1.0, 0.0)
                result = view_of(
                    out, out.shape[1:], out.strides[1:], i * out.strides[0]
                )
                if self.debug:  # the kernel reads the columns and the bias
                    inputs = [workspace, *([bias] if bias is not None else [])]
                    check_call("xhip_col2im_f32", inputs, result, inplace_ok=False)
                self._launch_1d(
                    "xhip_col2im_f32",
                    elements,
                    [
                        ("ptr", self._address(workspace)),
                        ("ptr", 0 if bias is None else self._address(bias)),
                        ("ptr", self._address(result)),
                        ("i32", rank),
                        ("ptr", self._device_meta(meta)),
                        ("i64", elements),
                    ],
                )
        for value in scratch:
            self.free(value.buffer)

    def lp_pool(self, x: DA, out: DA, attrs: LpPoolAttributes) -> None:
        self._require_f32(x, out)
        if out.size == 0:
            return
        rank, pads = len(x.shape) - 2, attrs.pads
        meta = np.asarray(
            [*x.shape[:2], *x.shape[2:], *out.shape[2:], *attrs.kernel, *attrs.strides]
            + [*attrs.dilations, *pads[:rank], *x.strides, *out.strides],
            dtype=np.int64,
        )
        if self.debug:
            check_call("xhip_lp_pool_f32", [x], out, inplace_ok=False)
        self._launch_1d(
            "xhip_lp_pool_f32",
            out.size,
            [
                ("ptr", self._address(x)),
                ("ptr", self._address(out)),
                ("i32", attrs.p),
                ("i32", rank),
                ("ptr", self._device_meta(meta)),
                ("i64", out.size),
            ],
        )
