"""Lesson 01's seed, the small workspaces its later cells read, and the figures its run summary reports."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["SEED", "SEARCH_DELAY_S", "COUNTER", "counter_simulator", "deep_page_simulator", "key_figures"]

SEED = 1  # seeds latency draws and request ids
#: The search indexing delay the lesson switches on: Notion publishes no figure, a minute is typical
SEARCH_DELAY_S = 60
#: The integrations of the counter workspace: what each is connected to and may do
COUNTER = {"asistente": "the page only", "asistente-conectado": "the page and the orders database",
           "sin-lectura": "the page and the database, without read content"}
_ROW = {"type": "encargo", "publishable": True, "parent": {"type": "data_source", "key": "pedidos"}}


def counter_simulator(seed: int = SEED):
    """The counter's dashboard page: a paragraph and a linked view of the orders database, which lives
    elsewhere in the workspace; three integrations connected to it as :data:`COUNTER` says."""
    from lab.simulator import NotionSimulator, Workspace

    page, orders = {"type": "page", "key": "tablero"}, {"type": "data_source", "key": "pedidos"}
    spec = {
        "name": "Trigo Lento", "users": [{"key": "valeria", "name": "Valeria"}],
        "data_sources": [{"key": "pedidos", "title": "Pedidos", "created": "2026-03-02T15:00:00.000Z",
                          "properties": {"Nombre": {"type": "title"}, "Publicable": {"type": "checkbox"},
                                         "Tipo": {"type": "select", "options": ["encargo"]}}}],
        "pages": [
            {"key": "tablero", "title": "Tablero del mostrador", "created": "2026-03-02T15:10:00.000Z",
             "blocks": [{"type": "paragraph", "text": "Encargos de la semana:"},
                        {"type": "child_database", "text": "Pedidos"}]},  # a linked view: the source is elsewhere
            {"key": "pastel", "title": "Pastel de tres leches, sábado", **_ROW, "created": "2026-04-06T17:00:00.000Z"},
        ],
        "integrations": [
            {"key": "asistente", "name": "TL Asistente", "shares": [page]},
            {"key": "asistente-conectado", "name": "TL Asistente conectado", "shares": [page, orders]},
            {"key": "sin-lectura", "name": "TL Sin lectura", "capabilities": ["insert_content"],
             "shares": [page, orders]},
        ],
    }
    return NotionSimulator(Workspace.from_spec(spec), seed=seed)


def deep_page_simulator(levels: int, seed: int = SEED):
    """A shared page whose content nests ``levels`` toggles deep, one inside the other, a line in each."""
    from lab.simulator import NotionSimulator, Workspace

    blocks: list = []
    for level in range(levels, 0, -1):
        blocks = [{"type": "toggle", "text": f"Nivel {level}", "children": blocks}] if blocks else \
            [{"type": "toggle", "text": f"Nivel {level}", "children": [{"type": "paragraph", "text": "Fondo."}]}]
    spec = {"name": "Trigo Lento", "users": [{"key": "valeria", "name": "Valeria"}],
            "pages": [{"key": "anidada", "title": "Notas anidadas", "created": "2026-03-02T15:00:00.000Z",
                       "blocks": blocks}],
            "integrations": [{"key": "indexador", "name": "TL Indexador KB", "shares": [{"type": "page",
                                                                                          "key": "anidada"}]}]}
    return NotionSimulator(Workspace.from_spec(spec), seed=seed)


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    pages = pd.read_csv(tables / "01_pages_by_status.csv")
    blocks = pd.read_csv(tables / "01_blocks_by_type.csv")
    counts = dict(zip(pages["status"], pages["pages"]))
    return (f"{int(pages['pages'].sum())} pages ({counts.get('publishable', 0)} publishable, "
            f"{counts.get('draft', 0)} drafts, {counts.get('private', 0)} private), "
            f"{int(blocks['blocks'].sum())} blocks")
