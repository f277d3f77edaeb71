"""A small hand-made workspace and request helpers shared by the simulator and client tests."""

from __future__ import annotations

import json
from typing import Any

from lab.clock import SimulatedClock
from lab.simulator import LimitsConfig, NotionSimulator, Workspace

VERSION = "2026-03-11"


def _page(key: str, title: str, kind: str, publishable: bool, created: str, edited: str,
          blocks: list[dict[str, Any]] | None = None, parent: dict[str, str] | None = None) -> dict[str, Any]:
    return {"key": key, "title": title, "type": kind, "publishable": publishable,
            "parent": parent or {"type": "data_source", "key": "kb"},
            "created": created, "edited": edited, "blocks": blocks or [{"type": "paragraph", "text": title}]}


def small_spec(long_children: int = 260) -> dict[str, Any]:
    """Five knowledge-base rows, a private page, a page with many children, two integrations."""
    many = [{"type": "paragraph", "text": f"línea {i}"} for i in range(long_children)]
    return {
        "name": "Pruebas",
        "users": [{"key": "valeria", "name": "Valeria"}],
        "data_sources": [{
            "key": "kb", "title": "Base de conocimiento", "created": "2026-01-05T09:00:00.000Z",
            "properties": {"Nombre": {"type": "title"},
                           "Tipo": {"type": "select", "options": ["ficha", "politica", "faq"]},
                           "Publicable": {"type": "checkbox"}}}],
        "pages": [
            _page("ficha-rol", "Ficha: Rol de canela", "ficha", True, "2026-02-01T10:00:00.000Z",
                  "2026-03-01T10:00:00.000Z", [
                      {"type": "heading_2", "text": "Alérgenos"},
                      {"type": "callout", "text": "Lleva nuez.", "icon": "⚠️"},
                      {"type": "toggle", "text": "¿Trazas?", "children": [{"type": "paragraph", "text": "Almendra."}]},
                      {"type": "synced_block", "key": "horario", "children": [
                          {"type": "paragraph", "text": "Abrimos de 8:00 a 20:00."}]},
                  ]),
            _page("politica-cancel", "Política de cancelaciones", "politica", True, "2026-02-02T10:00:00.000Z",
                  "2026-03-20T17:42:00.000Z", [
                      {"type": "heading_2", "text": "Plazos"},
                      {"type": "paragraph", "text": "Sin costo hasta 48 horas antes."},
                      {"type": "synced_block", "synced_from": "horario"},
                  ]),
            _page("faq-larga", "Preguntas frecuentes: larga", "faq", True, "2026-02-03T10:00:00.000Z",
                  "2026-03-05T08:00:00.000Z", many),
            _page("borrador", "Borrador: propinas", "politica", False, "2026-02-04T10:00:00.000Z",
                  "2026-03-06T08:00:00.000Z", [
                      {"type": "meeting_notes", "text": "Reunión de abril",
                       "children": [{"type": "paragraph", "text": "Acuerdos."}]}]),
            _page("en-papelera", "Aviso: viejo", "faq", True, "2026-02-05T10:00:00.000Z",
                  "2026-03-07T08:00:00.000Z"),
            _page("receta", "Receta: Rol de canela", "receta", False, "2026-01-10T10:00:00.000Z",
                  "2026-01-11T10:00:00.000Z", [{"type": "paragraph", "text": "Secreto."}],
                  parent={"type": "workspace"}),
        ],
        "integrations": [
            {"key": "indexador", "name": "TL Indexador KB", "capabilities": ["read_content"],
             "shares": [{"type": "data_source", "key": "kb"}]},
            {"key": "lote", "name": "TL Lote nocturno", "capabilities": ["read_content"],
             "shares": [{"type": "data_source", "key": "kb"}]},
            {"key": "sin-lectura", "name": "Sin lectura", "capabilities": [],
             "shares": [{"type": "data_source", "key": "kb"}]},
        ],
    }


def make_simulator(seed: int = 7, limits: LimitsConfig | None = None, spec: dict[str, Any] | None = None,
                   **kwargs: Any) -> NotionSimulator:
    ws = Workspace.from_spec(spec or small_spec(), SimulatedClock())
    ws.pages[ws.page_id("en-papelera")].in_trash = True
    return NotionSimulator(ws, limits=limits, seed=seed, **kwargs)


def headers(sim: NotionSimulator, integration: str = "indexador", version: str | None = VERSION) -> dict[str, str]:
    out = {"Authorization": f"Bearer {sim.token_for(integration)}"}
    if version is not None:
        out["Notion-Version"] = version
    return out


def call(sim: NotionSimulator, method: str, path: str, body: Any = None, query: dict[str, str] | None = None,
         integration: str = "indexador", version: str | None = VERSION, raw: bytes | None = None,
         hdrs: dict[str, str] | None = None):
    payload = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    return sim.handle(method, path, headers=hdrs if hdrs is not None else headers(sim, integration, version),
                      query=query, body=payload)


def data_source_id(sim: NotionSimulator) -> str:
    return next(iter(sim.workspace.data_sources))


def knowledge_base_spec(pages: int = 30, toggles_every: int = 2) -> dict[str, Any]:
    """A knowledge base of ``pages`` publishable FAQ-like pages (every other one with a toggle)."""
    spec = small_spec(long_children=3)
    rows = []
    for i in range(pages):
        blocks = [{"type": "heading_2", "text": f"Sección {i}"}, {"type": "paragraph", "text": f"Texto {i}."}]
        if i % toggles_every == 0:
            blocks.append({"type": "toggle", "text": f"¿Pregunta {i}?",
                           "children": [{"type": "paragraph", "text": f"Respuesta {i}."}]})
        rows.append(_page(f"kb-{i:03d}", f"Página {i:03d}", "faq", True, f"2026-02-{1 + i % 27:02d}T10:00:00.000Z",
                          f"2026-03-{1 + i % 27:02d}T1{i % 10}:00:00.000Z", blocks))
    spec["pages"] = rows + [p for p in spec["pages"] if p["key"] in ("receta", "borrador")]
    return spec


def make_client(sim: NotionSimulator, integration: str = "indexador", **kwargs: Any):
    from lab.client import NotionClient
    from lab.simulator import in_process_session
    return NotionClient(sim.token_for(integration), session=in_process_session(sim), clock=sim.clock, **kwargs)
