"""LSTM, GRU and RNN -> hip ops in tensor mode, unrolled over the sequence.

The sequence length must be static (X's dim 0, or 1 under `layout = 1`):
each step is its own ops. Where it is not, `DimsMustBeStatic` lets
`xhip.compile` build the model per input shape (`xhip.specialize_shapes`).

    X (S, B, I) as (S * B, I): one `hip.hipblaslt.gemm` for every step and
        direction, `X W^T + bias` with W viewed as (D * G * H, I) (G gates);
        the bias is `Wb + Rb` (GRU: `Wb`, its `Rb` goes with the recurrence)
    each step t of direction d: `hip.slice` of its (B, G * H) inputs, a
        `hip.hipblaslt.gemm` of the recurrence `H R^T` added to them (GRU:
        `H R^T + Rb`, and under `linear_before_reset = 0` a second gemm of
        `(r * H) R_h^T + Rb_h`), a `hip.slice` per gate, then the cell's
        elementwise ops, which `hip-fuse-elementwise` makes one kernel (one
        per state the step writes)
    Y: the steps' H `hip.concat`ed (S * D, B, H), viewed (S, D, B, H);
        Y_h, Y_c: the last states, (D, B, H); `layout = 1` permutes them

`sequence_lens`: step t of batch row b runs only where `t < lens[b]`
(`hip.miopen.less`, then `hip.miopen.where`): the states keep their values
past the row's end and Y is 0 there, as ONNX Runtime computes it; the
reverse direction starts at the row's last step for the same reason. A
row of length 0 has zero final states (ONNX Runtime's, not its initial
ones). Missing initial states are zeros (`hip.fill`), and a gemm of a zero
state is skipped. Activations (`activations`, `activation_alpha`,
`activation_beta`) take their alpha and beta in list order, each only if it
uses them, with ONNX Runtime's defaults (LeakyRelu 0.01, HardSigmoid 0.2
and 0.5, Elu 1, the others 0); Affine and ScaledTanh are a mul and an add;
`clip` bounds every gate's input (not the cell state before h).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerType,
    Signedness,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xhip.dialects import hip, onnx
from xhip.transforms.index_arith import Index
from xhip.transforms.onnx_to_hip.attention import Emitter
from xhip.transforms.onnx_to_hip.support import (
    DimsMustBeStatic,
    OnnxPattern,
    SizeKeys,
    Unsupported,
    ranked,
)

ACTIVATIONS: dict[str, tuple[bool, bool, float, float]] = {
    "affine": (True, True, 0.0, 0.0),
    "relu": (False, False, 0.0, 0.0),
    "leakyrelu": (True, False, 0.01, 0.0),
    "thresholdedrelu": (True, False, 0.0, 0.0),
    "tanh": (False, False, 0.0, 0.0),
    "scaledtanh": (True, True, 0.0, 0.0),
    "sigmoid": (False, False, 0.0, 0.0),
    "hardsigmoid": (True, True, 0.2, 0.5),
    "elu": (True, False, 1.0, 0.0),
    "softsign": (False, False, 0.0, 0.0),
    "softplus": (False, False, 0.0, 0.0),
}
"""Activation (lower case) -> whether it takes alpha, beta, and their
defaults: ONNX Runtime's table (`rnn_helpers.cc`)."""

_UNARY: dict[str, type[hip.ElementwiseOp]] = {
    "relu": hip.ReluOp,
    "tanh": hip.TanhOp,
    "sigmoid": hip.SigmoidOp,
    "softsign": hip.SoftsignOp,
    "softplus": hip.SoftplusOp,
    "leakyrelu": hip.LeakyReluOp,
    "thresholdedrelu": hip.ThresholdedReluOp,
    "elu": hip.EluOp,
    "hardsigmoid": hip.HardSigmoidOp,
}
"""Activations that are one hip op (their params are named alpha, beta)."""

Activation = tuple[str, float, float]
"""An activation's lower-case name, alpha and beta."""


def activations(op: onnx.RecurrentOp, directions: int) -> list[list[Activation]]:
    """Each direction's activation functions, parsed as ONNX Runtime does: one
    set for a bidirectional op serves both, the first of two sets a
    one-directional one; alphas and betas are consumed in
    order by the functions that take them, the rest take the defaults."""
    count = len(op.ACTIVATIONS)
    attr = op.activations
    names = [a.data for a in attr.data] if attr is not None else []
    if not names:
        names = list(op.ACTIVATIONS) * directions
    elif len(names) == count and directions == 2:
        names *= 2
    elif len(names) == 2 * count and directions == 1:
        names = names[:count]  # RNN's schema default is ["Tanh", "Tanh"]
    if len(names) != count * directions:
        raise Unsupported(
            f"{len(names)} activations given; {count} per direction are needed"
        )
    alphas, betas = _floats(op.activation_alpha), _floats(op.activation_beta)
    parsed: list[Activation] = []
    for name in names:
        key = name.lower()
        if key not in ACTIVATIONS:
            raise Unsupported(f"activation '{name}' is not supported")
        takes_alpha, takes_beta, alpha, beta = ACTIVATIONS[key]
        if takes_alpha and alphas:
            alpha = alphas.pop(0)
        if takes_beta and betas:
            beta = betas.pop(0)
        parsed.append((key, alpha, beta))
    return [parsed[d * count : (d + 1) * count] for d in range(directions)]


def _floats(attr: ArrayAttr[FloatAttr[AnyFloat]] | None) -> list[float]:
    return [a.value.data for a in attr.data] if attr is not None else []


class _Builder(Emitter):
    """Emits one recurrent op's hip ops at the rewriter's insertion point."""

    def __init__(
        self, pattern: OnnxPattern[Any], op: onnx.RecurrentOp, rewriter: PatternRewriter
    ) -> None:
        super().__init__(pattern, op, rewriter)
        x_type = ranked(op.X, "X")
        element = x_type.get_element_type()
        if not isinstance(element, AnyFloat):
            raise Unsupported(f"X has element type {element}; a float is needed")
        self.element: AnyFloat = element
        self.clip: float | None = None
        if op.clip is not None:
            self.clip = op.clip.value.data
        self.bh: list[Index] = []
        """The states' sizes: (batch, hidden)."""
        self.zeros: set[SSAValue] = set()
        """States made of zeros (`zero_state`)."""

    # Building blocks.

    def make(
        self,
        sizes: Sequence[Index],
        build: Callable[[SSAValue], hip.HipDPSOp],
        element: Attribute | None = None,
    ) -> SSAValue:
        """`Emitter.emit` in the recurrence's element type by default."""
        return self.emit(element or self.element, sizes, build)

    def slice(
        self, value: SSAValue, starts: Sequence[int], sizes: Sequence[Index]
    ) -> SSAValue:
        """The block of `value` of `sizes` at `starts`."""
        element = ranked(value, "an operand").get_element_type()
        return self.make(
            sizes,
            lambda out: hip.SliceOp.make(
                self.ctx,
                src=value,
                out=out,
                starts=[self.ix.value(s) for s in starts],
                steps=[1] * len(starts),
            ),
            element,
        )

    def rows(
        self, value: SSAValue, d: int, start: int, size: int, *rest: Index
    ) -> SSAValue:
        """Of a tensor stacked by direction, (D, N, *rest): direction `d`'s
        rows `start` to `start + size`, without the direction dim."""
        sizes = self.sizes(value)
        if d == 0 and start == 0 and sizes[:2] == [1, size]:
            part = value
        else:
            starts = [d, start] + [0] * len(rest)
            part = self.slice(value, starts, [1, size, *rest])
        return self.collapse(part, [[0, 1], *([i] for i in range(2, len(sizes)))])

    def scalar(self, value: float) -> SSAValue:
        """A 0-D constant of the element type."""
        attr = DenseIntOrFPElementsAttr.from_list(TensorType(self.element, []), [value])
        return self.state.folder.get(self.rewriter, self.op, attr)

    def step(self, t: int, element: IntegerType[int, Signedness]) -> SSAValue:
        """The 0-D integer constant `t`, of `sequence_lens`' type."""
        attr = DenseIntOrFPElementsAttr.from_list(TensorType(element, []), [t])
        return self.state.folder.get(self.rewriter, self.op, attr)

    def ew(
        self,
        hip_type: type[hip.ElementwiseOp],
        *operands: SSAValue,
        sizes: Sequence[Index] | None = None,
        element: Attribute | None = None,
        params: Mapping[str, float] | None = None,
    ) -> SSAValue:
        """An elementwise op of (batch, hidden) values unless `sizes` says."""
        return self.make(
            self.bh if sizes is None else sizes,
            lambda out: hip_type.make(self.ctx, *operands, out=out, **(params or {})),
            element,
        )

    def gemm(
        self, a: SSAValue, b: SSAValue, c: SSAValue | None, rows: Index | None = None
    ) -> SSAValue:
        """`a @ b^T + c`, `rows` (default: the batch) by b's rows; `c` itself
        if `a` is a zero state and `c` has the result's shape."""
        sizes = [self.bh[0] if rows is None else rows, self.ix.dim(b, 0)]
        if a in self.zeros and c is not None and c.type == self.empty_type(sizes):
            return c
        return self.make(
            sizes,
            lambda out: hip.GemmOp.make(self.ctx, a=a, b=b, c=c, out=out, trans_b=True),
        )

    def empty_type(self, sizes: Sequence[Index]) -> TensorType[Attribute]:
        shape = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
        return TensorType(self.element, shape)

    def zero_state(self) -> SSAValue:
        """A (batch, hidden) state of zeros, known as such to `gemm`."""
        zero = self.make(
            self.bh, lambda out: hip.FillOp.make(self.ctx, out=out, value=0.0)
        )
        self.zeros.add(zero)
        return zero

    # The cell's math.

    def activate(
        self, activation: Activation, x: SSAValue, clip: bool = True
    ) -> SSAValue:
        """`activation` of `x`, after `clip` (a gate's input) if `clip`."""
        if clip and self.clip is not None:
            x = self.ew(hip.MaxOp, x, self.scalar(-self.clip))
            x = self.ew(hip.MinOp, x, self.scalar(self.clip))
        name, alpha, beta = activation
        if name in _UNARY:
            hip_type = _UNARY[name]
            values = {"alpha": alpha, "beta": beta}
            params = {p: values[p] for p in hip_type.FORMULA.params()}
            return self.ew(hip_type, x, params=params)
        if name == "affine":
            scaled = self.ew(hip.MulOp, x, self.scalar(alpha))
            return self.ew(hip.AddOp, scaled, self.scalar(beta))
        assert name == "scaledtanh"
        inner = self.ew(hip.MulOp, x, self.scalar(beta))
        return self.ew(hip.MulOp, self.ew(hip.TanhOp, inner), self.scalar(alpha))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.ew(hip.AddOp, a, b)

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.ew(hip.MulOp, a, b)

    def gates(self, value: SSAValue, count: int) -> list[SSAValue]:
        """The `count` (batch, hidden) gates of a (batch, count * hidden) value."""
        hidden = self.bh[1]
        assert isinstance(hidden, int)
        return [self.slice(value, [0, k * hidden], self.bh) for k in range(count)]


def _static(value: Index, what: str) -> int:
    if not isinstance(value, int):
        raise DimsMustBeStatic(f"{what} must be static")
    return value


def _check_shape(value: SSAValue, name: str, want: Sequence[int | None]) -> None:
    """`Unsupported` unless `value` has `want`'s rank and its static sizes
    (None: any) where both are known."""
    shape = ranked(value, name).get_shape()
    if len(shape) != len(want) or any(
        w is not None and s != DYNAMIC_INDEX and s != w for s, w in zip(shape, want)
    ):
        have = "x".join("?" if s == DYNAMIC_INDEX else str(s) for s in shape)
        need = "x".join("?" if w is None else str(w) for w in want)
        raise Unsupported(f"{name} has shape {have}; {need} is needed")


class _Recurrence:
    """What one op's conversion knows: sizes, weights, states, outputs."""

    def __init__(
        self, pattern: OnnxPattern[Any], op: onnx.RecurrentOp, rewriter: PatternRewriter
    ) -> None:
        self.op = op
        b = self.b = _Builder(pattern, op, rewriter)
        direction = op.direction.data if op.direction is not None else "forward"
        if direction not in ("forward", "reverse", "bidirectional"):
            raise Unsupported(f"direction '{direction}' is not supported")
        self.reverse = direction == "reverse"
        self.directions = 2 if direction == "bidirectional" else 1
        layout = op.get_int("layout")
        if layout not in (0, 1):
            raise Unsupported(f"layout {layout} is not 0 or 1")
        self.layout = layout
        x = op.X
        _check_shape(x, "X", [None, None, None])
        if layout == 1:
            x = b.make(
                [b.ix.dim(x, 1), b.ix.dim(x, 0), b.ix.dim(x, 2)],
                lambda out: hip.TransposeOp.make(
                    b.ctx, src=op.X, out=out, dim0=b.ix.value(0), dim1=b.ix.value(1)
                ),
            )
        self.x = x
        # A length the types leave `?` may still be a number: an export's
        # Reshape to Shape arithmetic of a static input (`SizeKeys`).
        known = SizeKeys(None).dim(x, 0).constant
        self.seq = (
            known
            if known is not None
            else _static(b.ix.dim(x, 0), f"the sequence length (X's dim {layout})")
        )
        batch = b.ix.dim(x, 1)
        r_shape = ranked(op.R, "R").get_shape()
        hidden = (
            op.hidden_size.value.data if op.hidden_size is not None else r_shape[-1]
        )
        if hidden == DYNAMIC_INDEX or len(r_shape) != 3:
            raise Unsupported("hidden_size must be given or R's shape static")
        self.hidden = hidden
        b.bh = [batch, hidden]
        g, d = op.GATES, self.directions
        inputs = b.ix.dim(x, 2)
        _check_shape(op.W, "W", [d, g * hidden, None])
        _check_shape(op.R, "R", [d, g * hidden, hidden])
        if op.B is not None:
            _check_shape(op.B, "B", [d, 2 * g * hidden])
        for name, value in (("W", op.W), ("R", op.R), ("B", op.B)):
            if value is not None and (
                ranked(value, name).get_element_type() != b.element
            ):
                raise Unsupported(f"{name} has another element type than X")
        if isinstance(inputs, int) and ranked(op.W, "W").get_shape()[2] not in (
            DYNAMIC_INDEX,
            inputs,
        ):
            raise Unsupported("W's input size differs from X's")
        self.activations = activations(op, d)
        self.lens = self._lens()

    def _lens(self) -> SSAValue | None:
        """`sequence_lens` viewed (batch, 1), to mask the steps."""
        lens = self.op.sequence_lens
        if lens is None:
            return None
        lens_type = ranked(lens, "sequence_lens")
        if len(lens_type.get_shape()) != 1 or not isinstance(
            lens_type.get_element_type(), IntegerType
        ):
            raise Unsupported("sequence_lens must be a 1-D integer tensor")
        return self.b.expand(lens, [[0, 1]], [self.b.bh[0], 1])

    def projections(self, bias: SSAValue | None) -> SSAValue:
        """`X W^T + bias` of every step and direction: (S, B, D * G * H)."""
        b = self.b
        width = self.directions * self.op.GATES * self.hidden
        weights = b.collapse(self.op.W, [[0, 1], [2]])
        rows = b.collapse(self.x, [[0, 1], [2]])
        out = b.gemm(rows, weights, bias, b.ix.mul(self.seq, b.bh[0]))
        return b.expand(out, [[0, 1], [2]], [self.seq, b.bh[0], width])

    def bias(self, half: int) -> SSAValue | None:
        """`Wb` (half 0) or `Rb` (half 1) of all directions, (D * G * H)."""
        if self.op.B is None:
            return None
        width = self.op.GATES * self.hidden
        b = self.b
        part = b.slice(self.op.B, [0, half * width], [self.directions, width])
        return b.collapse(part, [[0, 1]])

    def initial(self, value: SSAValue | None, d: int, name: str) -> SSAValue:
        """Direction `d`'s initial state, (batch, hidden): zeros if not given.
        Given, it is (D, batch, hidden), or (batch, D, hidden) under layout 1."""
        b = self.b
        if value is None:
            return b.zero_state()
        dirs, batch = self.directions, b.bh[0]
        shape = [None, dirs] if self.layout else [dirs, None]
        _check_shape(value, name, [*shape, self.hidden])
        if ranked(value, name).get_element_type() != b.element:
            raise Unsupported(f"{name} has another element type than X")
        if dirs > 1:
            if self.layout:
                value = b.slice(value, [0, d, 0], [batch, 1, self.hidden])
            else:
                value = b.slice(value, [d, 0, 0], [1, batch, self.hidden])
        return b.collapse(value, [[0, 1], [2]])

    def step_input(self, xw: SSAValue, t: int, d: int) -> SSAValue:
        """Step `t`'s projected input for direction `d`: (batch, G * hidden)."""
        b = self.b
        width = self.op.GATES * self.hidden
        part = b.slice(xw, [t, 0, d * width], [1, b.bh[0], width])
        return b.collapse(part, [[0, 1], [2]])

    def mask(self, t: int) -> SSAValue | None:
        """Where step `t` runs, (batch, 1) bools; None: everywhere."""
        if self.lens is None:
            return None
        b = self.b
        lens_element = ranked(self.lens, "sequence_lens").get_element_type()
        step = b.step(t, cast("IntegerType[int, Signedness]", lens_element))
        return b.ew(hip.LessOp, step, self.lens, sizes=[b.bh[0], 1], element=i1)

    def keep(self, mask: SSAValue | None, new: SSAValue, old: SSAValue) -> SSAValue:
        """`new` where the step runs, else `old`."""
        if mask is None:
            return new
        return self.b.ew(hip.WhereOp, mask, new, old)

    def run(
        self,
        cell: Callable[[int, int, SSAValue, list[SSAValue]], list[SSAValue]],
        states: list[list[SSAValue]],
        xw: SSAValue,
    ) -> tuple[list[list[SSAValue]], list[list[SSAValue]]]:
        """`cell(d, t, x_t, states) -> new states` over the steps of each
        direction; the Y pieces by direction and time, and the final states."""
        b = self.b
        ys: list[list[SSAValue]] = []
        finals: list[list[SSAValue]] = []
        for d in range(self.directions):
            backward = self.reverse or d == 1
            order = range(self.seq - 1, -1, -1) if backward else range(self.seq)
            current = states[d]
            out: dict[int, SSAValue] = {}
            for t in order:
                mask = self.mask(t)
                new = cell(d, t, self.step_input(xw, t, d), current)
                if self.op.Y is not None:
                    out[t] = (
                        new[0]
                        if mask is None
                        else b.ew(hip.WhereOp, mask, new[0], b.scalar(0.0))
                    )
                current = [self.keep(mask, n, o) for n, o in zip(new, current)]
            ys.append([out[t] for t in range(self.seq)] if out else [])
            used = self.op.Y_h is not None or (
                isinstance(self.op, onnx.LSTMOp) and self.op.Y_c is not None
            )
            if self.lens is not None and used:  # ONNX Runtime: empty rows end at 0
                started = self.mask(0)
                current = [self.keep(started, c, b.scalar(0.0)) for c in current]
            finals.append(current)
        return ys, finals

    def finish(
        self,
        rewriter: PatternRewriter,
        ys: list[list[SSAValue]],
        finals: list[list[SSAValue]],
    ) -> None:
        """The op's results: Y, then each final state that is used."""
        b, op = self.b, self.op
        batch, hidden = b.bh
        results: list[SSAValue] = []
        if op.Y is not None:
            pieces = [
                b.expand(ys[d][t], [[0, 1], [2]], [1, batch, hidden])
                for t in range(self.seq)
                for d in range(self.directions)
            ]
            count = self.seq * self.directions
            y = self._concat(pieces, count)
            y = b.expand(
                y, [[0, 1], [2], [3]], [self.seq, self.directions, batch, hidden]
            )
            if self.layout == 1:
                y = b.make(
                    [batch, self.seq, self.directions, hidden],
                    lambda out: hip.PermuteOp.make(
                        b.ctx, src=y, out=out, perm=[2, 0, 1, 3]
                    ),
                )
            results.append(self._cast(y, op.Y))
        finals_used = [op.Y_h, *([op.Y_c] if isinstance(op, onnx.LSTMOp) else [])]
        for k, result in enumerate(finals_used):
            if result is None:
                continue
            pieces = [
                b.expand(finals[d][k], [[0, 1], [2]], [1, batch, hidden])
                for d in range(self.directions)
            ]
            state = self._concat(pieces, self.directions)
            if self.layout == 1:
                state = b.make(
                    [batch, self.directions, hidden],
                    lambda out, s=state: hip.TransposeOp.make(
                        b.ctx, src=s, out=out, dim0=b.ix.value(0), dim1=b.ix.value(1)
                    ),
                )
            results.append(self._cast(state, result))
        rewriter.replace(op, [], results)
        for zero in b.zeros:  # a zero state only a skipped gemm read
            fill = zero.owner
            if not zero.uses and isinstance(fill, hip.FillOp):
                init = fill.outputs[0]
                rewriter.erase(fill)
                if not init.uses and isinstance(init.owner, tensor.EmptyOp):
                    rewriter.erase(init.owner)

    def _concat(self, pieces: list[SSAValue], count: int) -> SSAValue:
        if len(pieces) == 1:
            return pieces[0]
        b = self.b
        return b.make(
            [count, *b.bh],
            lambda out: hip.ConcatOp.make(b.ctx, inputs=pieces, out=out, axis=0),
        )

    def _cast(self, value: SSAValue, result: SSAValue) -> SSAValue:
        if value.type == result.type:
            return value
        cast = tensor.CastOp(value, ranked(result, "a result"))
        self.b.rewriter.insert(cast)
        return cast.dest


def _sub_from_one(b: _Builder, x: SSAValue) -> SSAValue:
    return b.ew(hip.SubOp, b.scalar(1.0), x)


class ConvertLSTM(OnnxPattern[onnx.LSTMOp]):
    """`onnx.LSTM`: gates i, o, f, c (module doc)."""

    def convert(self, op: onnx.LSTMOp, rewriter: PatternRewriter) -> None:
        rec = _Recurrence(self, op, rewriter)
        b, hidden, dirs = rec.b, rec.hidden, rec.directions
        if op.P is not None:
            _check_shape(op.P, "P", [dirs, 3 * hidden])
        input_forget = bool(op.get_int("input_forget"))
        wb, rb = rec.bias(0), rec.bias(1)
        width = dirs * 4 * hidden
        bias = None
        if wb is not None and rb is not None:
            bias = b.ew(hip.AddOp, wb, rb, sizes=[width])
        xw = rec.projections(bias)
        weights = [b.rows(op.R, d, 0, 4 * hidden, hidden) for d in range(dirs)]
        peepholes = [
            [b.rows(op.P, d, k * hidden, hidden) for k in range(3)]
            if op.P is not None
            else []
            for d in range(dirs)
        ]
        states = [
            [
                rec.initial(op.initial_h, d, "initial_h"),
                rec.initial(op.initial_c, d, "initial_c"),
            ]
            for d in range(dirs)
        ]

        def cell(d: int, t: int, x: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
            h, c = state
            f_act, g_act, h_act = rec.activations[d]
            i, o, f, g = b.gates(b.gemm(h, weights[d], x), 4)
            if peepholes[d]:
                p_i, _, p_f = peepholes[d]
                i = b.add(i, b.mul(p_i, c))
                f = b.add(f, b.mul(p_f, c))
            i = b.activate(f_act, i)
            f = _sub_from_one(b, i) if input_forget else b.activate(f_act, f)
            c_new = b.add(b.mul(f, c), b.mul(i, b.activate(g_act, g)))
            if peepholes[d]:
                o = b.add(o, b.mul(peepholes[d][1], c_new))
            o = b.activate(f_act, o)
            return [b.mul(o, b.activate(h_act, c_new, clip=False)), c_new]

        rec.finish(rewriter, *rec.run(cell, states, xw))


class ConvertGRU(OnnxPattern[onnx.GRUOp]):
    """`onnx.GRU`: gates z, r, h (module doc)."""

    def convert(self, op: onnx.GRUOp, rewriter: PatternRewriter) -> None:
        rec = _Recurrence(self, op, rewriter)
        b, hidden, dirs = rec.b, rec.hidden, rec.directions
        before = bool(op.get_int("linear_before_reset"))
        xw = rec.projections(rec.bias(0))
        three = 3 * hidden

        def rb(d: int, start: int, size: int) -> SSAValue | None:
            if op.B is None:
                return None
            return b.rows(op.B, d, three + start, size)

        if before:
            parts = [(0, three)]
        else:
            parts = [(0, 2 * hidden), (2 * hidden, hidden)]
        weights = [
            [b.rows(op.R, d, s, n, hidden) for s, n in parts] for d in range(dirs)
        ]
        biases = [[rb(d, s, n) for s, n in parts] for d in range(dirs)]
        states = [[rec.initial(op.initial_h, d, "initial_h")] for d in range(dirs)]

        def cell(d: int, t: int, x: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
            (h,) = state
            f_act, g_act = rec.activations[d]
            x_z, x_r, x_h = b.gates(x, 3)
            recurrent = b.gemm(h, weights[d][0], biases[d][0])
            r_z, r_r, *rest = b.gates(recurrent, 3 if before else 2)
            z = b.activate(f_act, b.add(x_z, r_z))
            r = b.activate(f_act, b.add(x_r, r_r))
            if before:
                candidate = b.add(x_h, b.mul(r, rest[0]))
            else:
                reset = b.gemm(b.mul(r, h), weights[d][1], biases[d][1])
                candidate = b.add(x_h, reset)
            candidate = b.activate(g_act, candidate)
            kept = b.mul(z, h)
            return [b.add(b.mul(_sub_from_one(b, z), candidate), kept)]

        rec.finish(rewriter, *rec.run(cell, states, xw))


class ConvertRNN(OnnxPattern[onnx.RNNOp]):
    """`onnx.RNN`: `H = f(X W^T + H R^T + Wb + Rb)`."""

    def convert(self, op: onnx.RNNOp, rewriter: PatternRewriter) -> None:
        rec = _Recurrence(self, op, rewriter)
        b, hidden, dirs = rec.b, rec.hidden, rec.directions
        wb, rb = rec.bias(0), rec.bias(1)
        bias = None
        if wb is not None and rb is not None:
            bias = b.ew(hip.AddOp, wb, rb, sizes=[dirs * hidden])
        xw = rec.projections(bias)
        weights = [b.rows(op.R, d, 0, hidden, hidden) for d in range(dirs)]
        states = [[rec.initial(op.initial_h, d, "initial_h")] for d in range(dirs)]

        def cell(d: int, t: int, x: SSAValue, state: list[SSAValue]) -> list[SSAValue]:
            (h,) = state
            (f_act,) = rec.activations[d]
            return [b.activate(f_act, b.gemm(h, weights[d], x))]

        rec.finish(rewriter, *rec.run(cell, states, xw))
