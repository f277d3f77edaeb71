"""A chunk a model's tokenizer finds too long is cut again, at lab token boundaries (between characters inside a
token that alone is too long), until every piece fits; a chunk that fits is left exactly as it was."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from lab.chunking import Chunk
from lab.chunking.model_fit import FittedChunker, fit_to_model
from lab.chunking.records import fingerprint

HEAD = "Manual > 退款\n"


def chunk(body: str, cid: str = "p:s:00", order: int = 0, start: int = 100) -> Chunk:
    text = HEAD + body
    return Chunk(id=cid, page_id="p", title="Manual", type="faq", section="退款", order=order, text=text, body=body,
                 start=start, end=start + len(body), tokens=1, fingerprint=fingerprint(text), edited=None,
                 chunker="section_tokens", source={"block_ids": ["b1"]})


def chars(text: str) -> int:  # a stand-in tokenizer: one token per character
    return len(text)


def test_chunks_that_fit_come_back_unchanged() -> None:
    kept = [chunk("short body", "p:a:00", 0), chunk("another", "p:b:00", 1)]
    assert fit_to_model(kept, chars, 100) == kept


def test_a_long_chunk_becomes_numbered_pieces_that_fit_and_cover_its_body_in_order() -> None:
    body = "我们的退款政策规定，顾客在购买后七天内可以申请退款。" * 4 + " then some English words follow here"
    long = chunk(body, order=0)
    after = chunk("fits", "p:t:00", order=1, start=500)
    fitted = fit_to_model([long, after], chars, 40)
    pieces, last = fitted[:-1], fitted[-1]
    assert [p.id for p in pieces] == [f"p:s:00.{k}" for k in range(1, len(pieces) + 1)] and len(pieces) >= 4
    assert all(chars(p.text) <= 40 and p.text == HEAD + p.body for p in pieces)
    assert all(p.body == body[p.start - long.start:p.end - long.start] for p in pieces)  # exact slices
    assert all(a.end <= b.start for a, b in zip(pieces, pieces[1:]))  # in order, no overlap
    covered = "".join(body[a.end - long.start:b.start - long.start] for a, b in zip(pieces, pieces[1:]))
    assert covered.strip() == ""  # only the whitespace between two pieces is left out
    assert pieces[0].start == long.start and pieces[-1].end == long.end
    assert [c.order for c in fitted] == list(range(len(fitted))) and last == replace(after, order=len(pieces))
    assert all(p.fingerprint == fingerprint(p.text) and p.source == long.source for p in pieces)


def test_one_token_longer_than_the_limit_is_cut_between_characters() -> None:
    blob = "QUJD" * 50  # one lab token of 200 characters
    pieces = fit_to_model([chunk(blob)], chars, len(HEAD) + 30)
    assert "".join(p.body for p in pieces) == blob and all(chars(p.text) <= len(HEAD) + 30 for p in pieces)


@settings(max_examples=60, deadline=None)
@given(body=st.text(alphabet=st.sampled_from(list("ab 退款，.\n")), min_size=1, max_size=300),
       limit=st.integers(len(HEAD) + 1, len(HEAD) + 80))
def test_every_piece_fits_and_the_cut_is_the_same_every_time(body: str, limit: int) -> None:
    original = chunk(body)
    fitted = fit_to_model([original], chars, limit)
    assert fitted == fit_to_model([original], chars, limit)
    assert all(chars(p.text) <= limit for p in fitted)  # a header and one character always fit here

    def visible(text: str) -> str:
        return "".join(text.split())

    assert visible("".join(p.body for p in fitted)) == visible(body)  # only whitespace between pieces is left out


def test_a_fitted_chunker_cuts_what_its_chunker_gives() -> None:
    class Fixed:
        chunker_name = "section_tokens"

        def split(self, document: object) -> list[Chunk]:
            return [chunk("x" * 90)]

    fitted = FittedChunker(Fixed(), chars, len(HEAD) + 30)
    pieces = fitted.split(object())
    assert fitted.chunker_name == "section_tokens" and len(pieces) >= 3
    assert "".join(p.body for p in pieces) == "x" * 90 and all(chars(p.text) <= len(HEAD) + 30 for p in pieces)


def test_a_chunk_whose_header_alone_reaches_the_limit_is_left_for_the_check_to_name() -> None:
    crowded = chunk("body " * 20)
    assert fit_to_model([crowded], chars, len(HEAD)) == [crowded]
