"""A filter on the documentation's version and the date of the last edit: a mask over the corpus's rows,
combined with the audience and applied before ranking, so a filtered search still returns k hits."""

from __future__ import annotations

import numpy as np
import pytest

from lab.answering import Answerer
from lab.retrieval import (RRF, BM25Retriever, ChunkFilter, HeadingWeighted, InvalidDateError, SearchCorpus,
                           TfidfRetriever, UnknownAudienceError, UnknownVersionError)
from lab.retrieval.filters import date_of
from lab.vectors import WordAnalyzer

ENGLISH = WordAnalyzer(stop_words="en")
QUERY = "rotate the api token"

# id, version, edited, audience, text: the 2.1 rows say the query's words most often, so an unfiltered
# search ranks them first and a filter that kept only the top-k afterwards would return too few 3.2 rows
ROWS = [
    ("old-1", "2.1", "2026-01-10", "staff", "Rotate the API token: rotate the token, rotate the API token again."),
    ("old-2", "2.1", "2026-01-20", "staff", "The API token rotates; rotate the token and the API token."),
    ("old-3", "2.1", "2026-02-05T09:30:00.000Z", "admins", "Rotate an API token from the token page."),
    ("new-1", "3.2", "2026-03-02", "staff", "Tokens: rotate one from settings."),
    ("new-2", "3.2", "2026-03-18T23:59:00.000Z", "staff", "An API key replaces the token."),
    ("new-3", "3.2", "2026-02-28", "admins", "Billing plans and invoices."),
    ("plain", None, "", "staff", "Rotate the token of the calendar feed."),
    ("odd", None, "last spring", None, "A page whose date is not a date."),
]


def corpus() -> SearchCorpus:
    return SearchCorpus(ids=tuple(r[0] for r in ROWS), page_ids=tuple(r[0] for r in ROWS),
                        titles=tuple(r[0] for r in ROWS), sections=(None,) * len(ROWS),
                        texts=tuple(r[4] for r in ROWS), audiences=tuple(r[3] for r in ROWS),
                        edited=tuple(r[2] for r in ROWS), versions=tuple(r[1] for r in ROWS))


def kept(where: ChunkFilter, audience: str | None = None) -> list[str]:
    rows = corpus()
    return [rows.ids[i] for i in np.flatnonzero(rows.visible(audience, where))]


def test_a_version_filter_keeps_that_version_only_and_never_a_chunk_without_one() -> None:
    assert kept(ChunkFilter(version="3.2")) == ["new-1", "new-2", "new-3"]
    assert kept(ChunkFilter(version="2.1")) == ["old-1", "old-2", "old-3"]


def test_date_bounds_are_inclusive_days_and_a_notion_time_counts_by_its_day() -> None:
    assert kept(ChunkFilter(edited_from="2026-03-02")) == ["new-1", "new-2"]
    assert kept(ChunkFilter(edited_until="2026-02-05")) == ["old-1", "old-2", "old-3"]
    assert kept(ChunkFilter(edited_from="2026-02-05", edited_until="2026-03-18")) == ["old-3", "new-1", "new-2",
                                                                                      "new-3"]
    assert kept(ChunkFilter(edited_from="2026-03-18", edited_until="2026-03-18")) == ["new-2"]


def test_a_chunk_without_a_date_or_with_one_that_is_not_a_date_is_left_out_by_any_date_bound() -> None:
    assert date_of("") == date_of(None) == date_of("last spring") == ""
    assert date_of("2026-03-18T23:59:00.000Z") == "2026-03-18"
    for where in (ChunkFilter(edited_until="2099-12-31"), ChunkFilter(edited_from="0001-01-01")):
        assert not {"plain", "odd"} & set(kept(where))


def test_an_empty_filter_keeps_every_row_and_conditions_combine_with_each_other_and_the_audience() -> None:
    assert kept(ChunkFilter()) == [r[0] for r in ROWS]
    assert kept(ChunkFilter(version="3.2", edited_until="2026-03-02")) == ["new-1", "new-3"]
    assert kept(ChunkFilter(version="3.2"), audience="admins") == ["new-3"]
    assert kept(ChunkFilter(version="2.1", edited_from="2026-01-15"), audience="staff") == ["old-2"]


def test_a_filtered_search_ranks_only_the_kept_rows_so_it_still_returns_k_hits() -> None:
    retriever = TfidfRetriever(analyzer=ENGLISH).fit(corpus())
    unfiltered = [hit.id for hit in retriever.search(QUERY, k=3)]
    assert unfiltered == ["old-1", "old-2", "old-3"]  # no 3.2 row in the first three
    hits = retriever.search(QUERY, k=3, where=ChunkFilter(version="3.2"))
    assert sorted(hit.id for hit in hits) == ["new-1", "new-2", "new-3"]
    assert [hit.version for hit in hits] == ["3.2"] * 3
    assert {hit.id: hit.edited for hit in hits}["new-2"] == "2026-03-18T23:59:00.000Z"  # as stored


def test_every_retriever_and_search_many_take_the_filter() -> None:
    where = ChunkFilter(version="3.2")
    for retriever in (BM25Retriever(analyzer=ENGLISH), HeadingWeighted(TfidfRetriever(analyzer=ENGLISH)),
                      RRF([TfidfRetriever(analyzer=ENGLISH), BM25Retriever(analyzer=ENGLISH)])):
        retriever.fit(corpus())
        assert {hit.version for hit in retriever.search(QUERY, k=5, where=where)} == {"3.2"}
    batch = TfidfRetriever(analyzer=ENGLISH).fit(corpus()).search_many([QUERY, "billing"], k=2, where=where)
    assert [{hit.version for hit in hits} for hits in batch] == [{"3.2"}, {"3.2"}]


def test_the_answerer_draws_its_sources_from_the_filtered_chunks_only() -> None:
    answerer = Answerer(TfidfRetriever(analyzer=ENGLISH), k=3, where=ChunkFilter(edited_from="2026-03-01"))
    sources = answerer.fit(corpus()).sources(QUERY)
    assert sorted(source.chunk_id for source in sources) == ["new-1", "new-2"]


def test_a_version_no_chunk_has_is_refused_naming_the_versions_there_are() -> None:
    retriever = TfidfRetriever(analyzer=ENGLISH).fit(corpus())
    with pytest.raises(UnknownVersionError, match=r"version '3\.3'; the versions it holds are '2\.1', '3\.2'"):
        retriever.search(QUERY, where=ChunkFilter(version="3.3"))
    bare = SearchCorpus(ids=("a",), page_ids=("p",), titles=("T",), sections=(None,), texts=("x",), audiences=(None,))
    with pytest.raises(UnknownVersionError, match="none of its chunks names a version"):
        bare.visible(where=ChunkFilter(version="3.2"))
    with pytest.raises(UnknownAudienceError):
        corpus().visible("owners", ChunkFilter(version="3.2"))


@pytest.mark.parametrize("bound", ["2026-3-1", "01/03/2026", "2026-02-30", "2026-03-01T00:00", "", 20260301])
def test_a_malformed_date_is_refused_naming_the_bound_and_the_value(bound) -> None:
    with pytest.raises(InvalidDateError, match="edited_until") as error:
        ChunkFilter(edited_until=bound)
    assert repr(bound) in str(error.value)


def test_a_window_that_ends_before_it_starts_and_a_version_that_is_not_a_name_are_refused() -> None:
    with pytest.raises(InvalidDateError, match="edited_from 2026-03-02 is after edited_until 2026-03-01"):
        ChunkFilter(edited_from="2026-03-02", edited_until="2026-03-01")
    for version in ("", "  ", 3.2):
        with pytest.raises(TypeError, match="version"):
            ChunkFilter(version=version)
    with pytest.raises(TypeError, match="where takes a ChunkFilter"):
        corpus().visible(where={"version": "3.2"})


def test_a_corpus_from_chunks_reads_each_chunks_version() -> None:
    rows = [{"id": "a", "page_id": "p", "title": "T", "section": None, "text": "x", "edited": "2026-03-02",
             "version": "3.2"},
            {"id": "b", "page_id": "p", "title": "T", "section": None, "text": "y", "edited": ""}]
    built = SearchCorpus.from_chunks(rows)
    assert built.versions == ("3.2", None) and built.known_versions() == ["3.2"]
