"""Chunk-size advice by language and unit, checked against the lab's own chunks and chunkers."""

from __future__ import annotations

import pytest

from lab.chunking import (SIZE_GUIDANCE, MarkdownHeaderChunker, ParagraphChunker, SectionTokenChunker,
                          WordWindowChunker, count_tokens, guidance_for, guidance_in_units, han_characters,
                          overlap_share, units_per_character)
from tests.handbook_read import read_handbook
from lab.datasets import load_docs_corpus
from lab.chunking import Document, chunk_pages
from lab.client import FixedRate
from lab.exercises.runs import run_indexer


@pytest.fixture(scope="module")
def chunk_texts() -> dict[str, list[str]]:
    docs = [chunk.body for path, text in load_docs_corpus()
            for chunk in MarkdownHeaderChunker().split(Document.from_markdown(text, path))]
    bakery = run_indexer("paced", FixedRate(3.0), passes=1, seed=0).read.pages
    return {"en": docs, "zh": [chunk.body for chunk in read_handbook().chunks],
            "es": [chunk.body for chunk in chunk_pages(bakery, SectionTokenChunker()).chunks]}


def test_the_advice_is_stated_per_language_with_its_unit() -> None:
    assert [(g.language, g.unit, g.low, g.high) for g in SIZE_GUIDANCE] == [
        ("es", "characters", 500, 1_200), ("en", "characters", 500, 1_200), ("zh", "Chinese characters", 300, 800)]
    assert all((g.overlap_low, g.overlap_high) == (0.10, 0.20) for g in SIZE_GUIDANCE)
    with pytest.raises(ValueError, match="no chunk size advice for language 'fr'"):
        guidance_for("fr")


def test_the_chunkers_that_index_pages_and_files_overlap_within_the_advice() -> None:
    advice = guidance_for("es")
    for chunker in (SectionTokenChunker(), MarkdownHeaderChunker(), ParagraphChunker(), WordWindowChunker(120, 20)):
        assert advice.holds_overlap(overlap_share(chunker)), chunker
    # the word-window default is the notes' teaching window (40 words, 10 repeated): a quarter is overlap
    assert overlap_share(WordWindowChunker()) == 0.25 and not advice.holds_overlap(0.25)


def test_the_markdown_chunker_s_budget_is_the_advice_s_upper_end() -> None:
    assert MarkdownHeaderChunker().max_chars == guidance_for("en").high


def test_chinese_characters_are_counted_without_punctuation_or_latin_letters() -> None:
    assert han_characters("退款，请在 7 天内联系 support。") == 8
    assert han_characters("plain text") == 0


def test_a_lab_token_is_worth_several_chinese_characters_and_about_four_latin_ones(chunk_texts) -> None:
    zh = units_per_character(chunk_texts["zh"], count_tokens, han_characters)
    en = units_per_character(chunk_texts["en"], count_tokens)
    assert 0.25 < zh < 0.35  # the lab's tokenizer reads a run of Chinese characters as one token
    assert 0.2 < en < 0.26   # about 4.3 characters per word or sign
    table = guidance_in_units(chunk_texts, {"lab_tokens": count_tokens}).set_index("language")
    assert table.loc["zh", "lab_tokens_high"] == round(800 * table.loc["zh", "lab_tokens_per_unit"])
    assert table.loc["en", "lab_tokens_low"] < table.loc["en", "lab_tokens_high"]


def test_the_page_chunker_s_300_tokens_are_a_little_more_than_the_advice_allows_in_spanish(chunk_texts) -> None:
    table = guidance_in_units({"es": chunk_texts["es"]}, {"lab_tokens": count_tokens}).set_index("language")
    # 1,200 characters of the bakery's Spanish are about 260 lab tokens: the 300-token budget is about 1,390
    assert 240 < table.loc["es", "lab_tokens_high"] < SectionTokenChunker().max_tokens
    # few sections reach the budget, so few chunks pass 1,200 characters; many sections are shorter than 500
    lengths = [len(text) for text in chunk_texts["es"]]
    assert 0 < sum(length > 1_200 for length in lengths) / len(lengths) < 0.2
    assert sum(length < 500 for length in lengths) / len(lengths) > 0.25


def test_the_upper_end_of_the_chinese_advice_is_more_than_e5_reads(chunk_texts) -> None:
    from lab.embedders.e5 import E5_MAX_TOKENS, E5Embedder, e5_unavailable_reason

    reason = e5_unavailable_reason()
    assert reason is None, reason
    model = E5Embedder()
    table = guidance_in_units(chunk_texts, {"e5_tokens": model.count_tokens}, limits={"e5_tokens": E5_MAX_TOKENS})
    table = table.set_index("language")
    # about one model token per Chinese character: 800 of them are about 800 tokens, and e5 reads 512
    assert 0.9 < table.loc["zh", "e5_tokens_per_unit"] < 1.1
    assert bool(table.loc["zh", "e5_tokens_over_limit"]) and not bool(table.loc["en", "e5_tokens_over_limit"])


def test_units_per_character_refuses_texts_without_the_unit() -> None:
    with pytest.raises(ValueError, match="no characters"):
        units_per_character(["abc"], count_tokens, han_characters)
