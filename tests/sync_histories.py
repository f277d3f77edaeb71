"""Random histories of a small workspace, synced as they happen and compared with a fresh full index.

A history is a list of steps: edits a person makes in Notion (text edits, new pages and
sub-pages, some inside a toggle, new pages holding a synced block or showing one, renames, a
row's select changed (its type and audience), unpublish and republish, trash and restore, unshare
and share again, deleted blocks), waits of
a few seconds to ten minutes (so that a sync and an edit often share a minute), and syncs, some of which crash at a chosen request.
:func:`run_history` plays one against a simulator that may also answer with 429, 529 and 5xx,
and checks after every sync (and every full re-index, which may also crash and resume) that the
index equals a full index built from scratch at that moment.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import requests

from lab.chunking import SectionTokenChunker
from lab.client import NoPacing, NotionClient, RetryPolicy
from lab.clock import SimulatedClock
from lab.index import IndexStore
from lab.ingest.sync import SyncConfig, full_index, incremental_sync
from lab.services.voyage import EmbeddingResult
from lab.simulator import InjectedCrash, LimitsConfig, NotionSimulator, Workspace, crashing_session, in_process_session

STAMP = "2026-04-01T10:00:00.000Z"
INTEGRATION = "indexer"
SENTENCES = [
    "Los encargos se recogen en la tienda de ocho a dos.",
    "El pan de muerto lleva azahar y se vende sólo en otoño.",
    "Cancelar sin costo vale hasta cuarenta y ocho horas antes de recoger el encargo.",
    "Las entregas a domicilio salen los sábados por la mañana y cuestan cincuenta pesos en la colonia.",
    "La masa madre se alimenta cada noche con harina integral y agua tibia.",
    "Un pastel de tres leches mediano alcanza para doce personas si se corta en porciones pequeñas.",
    "Nuez.",
    "Los pedidos de mayoreo se confirman por WhatsApp con un día de anticipación y se pagan al recibirlos.",
]


def _blocks(seed: int, sections: int) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = [{"type": "paragraph", "text": SENTENCES[seed % len(SENTENCES)]}]
    for k in range(sections):
        blocks.append({"type": "heading_2", "text": f"Sección {seed}-{k}"})
        blocks += [{"type": "paragraph", "text": SENTENCES[(seed + k + j) % len(SENTENCES)]} for j in range(3)]
    blocks.append({"type": "toggle", "text": "¿Y los días festivos?",
                   "children": [{"type": "paragraph", "text": SENTENCES[(seed + 5) % len(SENTENCES)]}]})
    return blocks


def _row(key: str, title: str, kind: str, publishable: bool, seed: int, sections: int) -> dict[str, Any]:
    return {"key": key, "title": title, "type": kind, "publishable": publishable, "created": STAMP,
            "parent": {"type": "data_source", "key": "kb"}, "blocks": _blocks(seed, sections)}


TOGGLE = "¿Y los días festivos?"  # the toggle every row of the small workspace ends with


def sub_page_in_toggle(ws: Workspace, row: str, key: str = "zones", title: str = "Zonas") -> str:
    """Make sub-page ``title`` inside the toggle of page ``row`` (a key); its id."""
    page = ws.page_id(row)
    return ws.add_child_page(page, {"key": key, "title": title, "blocks": [
        {"type": "heading_2", "text": "Zona centro"}, {"type": "paragraph", "text": "Centro y norte."}]},
        inside_block=ws.find_block(page, TOGGLE).id).id


def small_workspace() -> Workspace:
    """Four rows of a knowledge base (three publishable, one draft, one of them holding a synced
    block), two levels of sub-pages, one private page, and an integration the data source is shared with."""
    policy = _row("policy", "Cancelaciones", "politica", True, 1, 2)
    policy["blocks"].append({"type": "child_page", "page": "cases"})
    delivery = _row("delivery", "Entregas", "faq", True, 3, 1)
    delivery["blocks"].append({"type": "synced_block", "key": "orig-delivery", "children": [
        {"type": "paragraph", "text": SENTENCES[3]}]})  # new pages may show it (see apply_edit)
    draft = _row("draft", "Borrador", "faq", False, 4, 1)
    draft["blocks"].append({"type": "child_page", "page": "draft-notes"})
    cases = {"key": "cases", "title": "Casos", "parent": {"type": "page", "key": "policy"}, "created": STAMP,
             "blocks": _blocks(2, 1) + [{"type": "child_page", "page": "rare"}]}
    spec = {
        "name": "Histories",
        "data_sources": [{"key": "kb", "title": "KB", "created": STAMP, "properties": {
            "Nombre": {"type": "title"}, "Tipo": {"type": "select", "options": ["faq", "politica"]},
            # the simulator gives every select of a row one value: the audience follows the type
            "Audiencia": {"type": "select", "options": ["faq", "politica"]},
            "Publicable": {"type": "checkbox"}}}],
        "pages": [
            _row("hours", "Horarios", "faq", True, 0, 2), policy, delivery,
            draft, cases,
            {"key": "rare", "title": "Casos raros", "parent": {"type": "page", "key": "cases"}, "created": STAMP,
             "blocks": _blocks(5, 1)},
            {"key": "draft-notes", "title": "Notas", "parent": {"type": "page", "key": "draft"}, "created": STAMP,
             "blocks": _blocks(6, 1)},
            {"key": "secret", "title": "Recetas", "parent": {"type": "workspace"}, "created": STAMP,
             "blocks": _blocks(7, 1)},
        ],
        "integrations": [{"key": INTEGRATION, "name": "Indexer", "shares": [{"type": "data_source", "key": "kb"}]}],
    }
    return Workspace.from_spec(spec, SimulatedClock())


class TextHashEmbedder:
    """A dense model whose vector depends on the text alone, as a real one's does."""

    name = "text-hash-4"

    def embed_documents(self, texts):
        digests = [hashlib.sha256(text.encode("utf-8")).digest()[:4] for text in texts]
        vectors = np.array([[1 + byte for byte in digest] for digest in digests], dtype=np.float32).reshape(-1, 4)
        return EmbeddingResult(vectors / np.linalg.norm(vectors, axis=1, keepdims=True), len(texts), requests=1)


def config() -> SyncConfig:
    """Small windows so that sections span several chunks, and a dense model beside TF-IDF."""
    return SyncConfig(title="KB", chunker=SectionTokenChunker(max_tokens=24, overlap=4), dense=TextHashEmbedder(),
                      max_delete_share=1.0, audience_property="Audiencia")


def content(store: IndexStore) -> dict[str, Any]:
    """Chunks (every column, every model) and pages: what a fresh full index must equal."""
    state = store.state()
    return {"chunks": state["chunks"], "pages": state["pages"]}


def reference(ws: Workspace, at: float, sync_config: SyncConfig | None = None) -> dict[str, Any]:
    """A full index built from scratch, by another client on its own clock, at time ``at`` (with ``config()``
    unless another ``sync_config`` is given)."""
    clock = SimulatedClock()
    clock.set(at)
    sim = NotionSimulator(ws, clock=clock, seed=99)
    client = NotionClient(sim.token_for(INTEGRATION), session=_local(in_process_session(sim)), clock=clock,
                          pacer=NoPacing())
    store = IndexStore(":memory:")
    full_index(client, store, clock, sync_config or config())
    return content(store)


# ---------------------------------------------------------------------- edits

def _pages(ws: Workspace, *, trashed: bool = False) -> list[str]:
    return sorted(p.id for p in ws.pages.values() if p.in_trash == trashed)


def _text_blocks(ws: Workspace, page_id: str) -> list[str]:
    out, stack = [], list(ws.pages[page_id].children)
    while stack:
        block = ws.blocks[stack.pop(0)]
        if block.in_trash:
            continue
        if "rich_text" in block.content:
            out.append(block.id)
        if block.type != "child_page":
            stack += block.children
    return out


def _pick(items: list[str], n: int) -> str | None:
    return items[n % len(items)] if items else None


def _synced_originals(ws: Workspace) -> list[str]:
    """Keys of the synced originals pages hold (``orig-<page key>``), in page key order."""
    def holds_original(page: Any) -> bool:
        return any(ws.blocks[c].type == "synced_block" and not ws.blocks[c].synced_from for c in page.children)

    return [f"orig-{page.key}" for page in sorted(ws.pages.values(), key=lambda p: p.key)
            if holds_original(page)]


def apply_edit(ws: Workspace, kind: str, a: int, b: int) -> None:
    """One edit, its targets chosen by ``a`` and ``b`` among what exists now (some do nothing)."""
    page = _pick(_pages(ws), a)
    if kind == "edit" and page is not None:
        block = _pick(_text_blocks(ws, page), b)
        if block is not None:
            ws.edit_block_text(block, f"{SENTENCES[b % len(SENTENCES)]} Revisado {a}-{b}.")
    elif kind == "delete_block" and page is not None:
        block = _pick([c for c in ws.pages[page].children if not ws.blocks[c].in_trash], b)
        if block is not None:
            ws.delete_block(block)
    elif kind == "new_page":
        key = f"new-{len(ws.pages)}"
        row = _row(key, f"Nueva {len(ws.pages)}", "faq", bool(b % 2), a, 1 + b % 2)
        originals = _synced_originals(ws)
        if b % 3 == 0:  # the page holds a synced block that later pages may show
            row["blocks"].append({"type": "synced_block", "key": f"orig-{key}", "children": [
                {"type": "paragraph", "text": SENTENCES[a % len(SENTENCES)]}]})
        elif b % 3 == 1 and originals:  # the page shows another page's synced block
            row["blocks"].append({"type": "synced_block", "synced_from": _pick(originals, a)})
        ws.add_page(row)
    elif kind == "new_sub_page" and page is not None:
        ws.add_child_page(page, {"key": f"sub-{len(ws.pages)}", "title": f"Anexo {len(ws.pages)}",
                                 "blocks": _blocks(a + b, 1)})
    elif kind == "new_sub_page_in_block" and page is not None:
        toggle = _pick([block for block in _text_blocks(ws, page) if ws.blocks[block].type == "toggle"], b)
        if toggle is not None:
            ws.add_child_page(page, {"key": f"sub-{len(ws.pages)}", "title": f"Anexo {len(ws.pages)}",
                                     "blocks": _blocks(a + b, 1)}, inside_block=toggle)
    elif kind == "publish" and page is not None and ws.pages[page].parent_type == "data_source_id":
        ws.set_publishable(page, not ws.pages[page].publishable)
    elif kind == "select" and page is not None and ws.pages[page].parent_type == "data_source_id":
        ws.set_select(page, "politica" if ws.pages[page].type == "faq" else "faq")
    elif kind == "rename" and page is not None:
        ws.rename(page, f"Renombrada {a}-{b}")
    elif kind == "trash" and page is not None:
        ws.move_to_trash(page)
    elif kind == "restore":
        trashed = _pick(_pages(ws, trashed=True), a)
        if trashed is not None:
            ws.restore(trashed)
    elif kind == "unshare" and page is not None:
        ws.unshare(INTEGRATION, page)
    elif kind == "share":
        hidden = _pick(sorted(ws.integration_by_key(INTEGRATION).excluded), a)
        if hidden is not None:
            ws.share(INTEGRATION, hidden)


EDITS = ("edit", "unshare", "share", "edit", "delete_block", "new_page", "new_sub_page", "rename", "publish",
         "trash", "restore", "edit", "unshare", "share", "new_sub_page_in_block", "select")


# ---------------------------------------------------------------------- histories

@dataclass
class HistoryResult:
    syncs: int = 0
    crashes: int = 0
    resumed_pages: int = 0
    kinds: frozenset[str] = frozenset()
    synced_shown: bool = False  # a page showed another page's synced block at the end


def _local(session: requests.Session) -> requests.Session:
    session.trust_env = False  # no proxy settings to look up: the simulator is in this process
    return session


def _client(sim: NotionSimulator, crash_at: int | None) -> NotionClient:
    session = _local(crashing_session(sim, crash_at) if crash_at else in_process_session(sim))
    return NotionClient(sim.token_for(INTEGRATION), session=session, clock=sim.clock, pacer=NoPacing(),
                        retry=RetryPolicy(max_attempts=30))


def run_history(steps: list[tuple], faults: bool, seed: int) -> HistoryResult:
    """Play ``steps``; after every sync that completes, the index must equal a fresh full index,
    a sync that crashes must leave the published index as it was, and the watermark never goes back."""
    ws = small_workspace()
    limits = LimitsConfig(p_workspace=0.1, p_overload=0.05, p_server_error=0.05) if faults else None
    sim = NotionSimulator(ws, seed=seed, limits=limits)
    store = IndexStore(":memory:")
    result = HistoryResult()
    watermark = ""
    kinds = set()
    for step in steps:
        if step[0] == "wait":
            sim.clock.advance(step[1])
        elif step[0] in ("sync", "reindex"):
            run = incremental_sync if step[0] == "sync" else full_index
            before = content(store)
            try:
                report = run(_client(sim, step[1]), store, sim.clock, config())
            except InjectedCrash:  # the next run resumes, after whatever edits come first
                result.crashes += 1
                assert content(store) == before, "a crashed run changed the published index"
                continue
            result.syncs += 1
            result.resumed_pages += report.pages_resumed
            assert store.watermark("notion") >= watermark, "the watermark went back"
            watermark = store.watermark("notion")
            assert content(store) == reference(ws, sim.clock.now()), f"sync {result.syncs} differs"
        else:
            kinds.add(step[0])
            apply_edit(ws, *step)
    result.kinds = frozenset(kinds)
    result.synced_shown = any(block.synced_from for block in ws.blocks.values())
    return result
