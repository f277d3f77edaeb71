"""Lesson 06's world (workspace, paced client, index) as a re-runnable story."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import asdict
from pathlib import Path

import pandas as pd

from lab.client import FixedRate, NotionClient, RequestRecord
from lab.client.log import COLUMNS
from lab.course.edits import move_section_to_sub_page
from lab.course.story import Story, World
from lab.ingest.reading import request_breakdown
from lab.index import IndexStore
from lab.ingest.sync import SyncReport
from lab.simulator import KB_INTEGRATION, Workspace, bakery_simulator
from lab.simulator import in_process_session
from lab.simulator.workspace import Page

__all__ = ["SEED", "STORAGE_FAQ", "POLICY", "fresh_world", "afternoon_story", "storage_faq_edit",
           "exceptions_to_a_sub_page", "exceptions_edit", "sync_summary", "requests_by_kind",
           "key_figures"]

SEED = 6  # seeds latency and request ids
STORAGE_FAQ = "faq-conservacion"  # the page edited twice in the minute of the first index
POLICY = "politica-cancelaciones"  # whose exceptions become a sub-page in the evening


def fresh_world(db: str | Path = ":memory:") -> World:
    """The bakery workspace at 16:00, a client paced at 3 requests per second, an empty index."""
    sim = bakery_simulator(seed=SEED)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=FixedRate(3.0))
    if str(db) != ":memory:":
        Path(db).unlink(missing_ok=True)
    return World(sim, client, IndexStore(db))


def afternoon_story(db: str | Path) -> Story:
    """Lesson 06's story (16:00 to 20:00 by its UTC clock) as a :class:`~lab.course.story.Story` over a
    fresh world in ``db``."""
    return Story(fresh_world(db))


_STORAGE_EDITS = {
    1: ("congel", "Para congelar pan, rebánelo antes y guárdelo en bolsa cerrada hasta un mes."),
    2: ("rebánelo antes", "Para congelar pan, rebánelo antes y guárdelo en bolsa cerrada hasta tres semanas."),
}


def storage_faq_edit(ws: Workspace, number: int) -> None:
    """Valeria's first (16:00:05) or second (16:00:45) save of the storage FAQ's freezing advice."""
    contains, text = _STORAGE_EDITS[number]
    ws.edit_block_text(ws.find_block(ws.page_id(STORAGE_FAQ), contains).id, text)


def exceptions_to_a_sub_page(ws: Workspace) -> Page:
    """Valeria's 19:10 tidy-up: the policy's "Excepciones" section becomes a sub-page of the policy."""
    return move_section_to_sub_page(ws, POLICY, "Excepciones", "Excepciones")


def exceptions_edit(ws: Workspace, sub_page: Page) -> None:
    """Valeria's 19:40 edit inside the sub-page: the coupon after a cancellation by the bakery rises."""
    block = ws.find_block(sub_page.id, "cupón del 10 %")
    ws.edit_block_text(block.id, ws.block_text(block.id).replace("cupón del 10 %", "cupón del 15 %"))


def sync_summary(report: SyncReport) -> pd.DataFrame:
    """One sync's report as a two-column table (measure, value)."""
    return pd.DataFrame([
        ("watermark before", report.watermark_before), ("watermark after", report.watermark),
        ("requests to Notion", report.requests), ("pages re-read", len(report.pages_reread)),
        ("boundary pages (edited in the watermark's minute)", ", ".join(report.boundary_pages)),
        ("pages removed by reconciliation", ", ".join(report.pages_removed)),
        ("chunks new", report.chunks_new), ("chunks updated", report.chunks_updated),
        ("chunks unchanged (not re-embedded)", report.chunks_unchanged),
        ("chunks deleted", report.chunks_deleted), ("chunks in the index", report.chunks_total),
        ("tokens that would go to an embedding API", report.tokens_embedded),
    ], columns=["measure", "value"])


def requests_by_kind(records: Sequence[RequestRecord], page_ids: Collection[str]) -> dict[str, int]:
    """A run's requests by what they asked for (lesson 02's :func:`~lab.ingest.request_breakdown`,
    grouped as this lesson tells them): data source queries and searches, the block lists of pages
    themselves, the lists of blocks nested inside them (lesson 01), and retries if there were any."""
    log = pd.DataFrame([asdict(record) for record in records], columns=COLUMNS)
    parts = request_breakdown(log, set(page_ids))
    kinds = {"queries and searches": parts["search"] + parts["queries"] + parts["other"],
             "page block lists": parts["page reads"], "nested block lists": parts["nested reads"]}
    return kinds | ({"retries": parts["retries"]} if parts["retries"] else {})


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    runs = pd.read_csv(tables / "06_sync_runs.csv")
    today = runs[runs["kind"] == "incremental"].iloc[0]  # the 18:00 sync, as the index logged it
    month = pd.read_csv(tables / "06_table3_costs.csv").iloc[-1]
    return (f"today's sync {today['requests']} requests, {today['pages_reread']} pages re-read, "
            f"{today['tokens_embedded']} tokens; a month {int(month['requests'])} requests, "
            f"{month['usd_embeddings']:.5f} USD")
