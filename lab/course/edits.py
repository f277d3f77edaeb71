"""Scripted days of editing in the bakery's workspace, for the sync lesson and its tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from lab.clock import SimulatedClock
from lab.simulator import Workspace
from lab.simulator.workspace import Page

__all__ = ["Edit", "afternoon_edits", "apply_edits", "move_section_to_sub_page", "MOTHERS_DAY_FAQ"]

#: The FAQ page Valeria adds at 17:05 UTC (Spanish, like the rest of the workspace).
MOTHERS_DAY_FAQ = {
    "key": "faq-dia-de-las-madres",
    "title": "Preguntas frecuentes: Día de las Madres",
    "parent": {"type": "data_source", "key": "base-de-conocimiento"},
    "type": "faq",
    "publishable": True,
    "icon": "💐",
    "blocks": [
        {"type": "paragraph", "text": "Lo que más nos preguntan antes del 10 de mayo."},
        {"type": "heading_2", "text": "Respuestas rápidas"},
        {"type": "toggle", "text": "¿Hasta cuándo puedo encargar un pastel para el 10 de mayo?",
         "children": [{"type": "paragraph",
                       "text": "Hasta el jueves 7 de mayo a las 19:00, o antes si se llena el horno."}]},
        {"type": "toggle", "text": "¿Abren el domingo 10 de mayo?",
         "children": [{"type": "paragraph",
                       "text": "Sí, de manera excepcional, de 8:00 a 14:00 y sólo para recoger encargos."}]},
        {"type": "toggle", "text": "¿Hay entregas a domicilio ese día?",
         "children": [{"type": "paragraph",
                       "text": "No: el domingo 10 de mayo todos los pedidos se recogen en la tienda."}]},
    ],
}


@dataclass(frozen=True)
class Edit:
    """One edit: when (minutes after 16:00 on 9 April 2026), what it does, and how."""

    minute: int
    description: str
    apply: Callable[[Workspace], None]


def _replace(page_key: str, contains: str, text: str) -> Callable[[Workspace], None]:
    def run(ws: Workspace) -> None:
        ws.edit_block_text(ws.find_block(ws.page_id(page_key), contains).id, text)
    return run


def afternoon_edits() -> list[Edit]:
    """What Valeria changes in Notion on Thursday, 16:20 to 17:40: the afternoon by the lessons' UTC
    clock, 10:20 to 11:40 in the morning in Mexico City."""
    return [
        Edit(20, "cancellation policy: the holiday deadline", _replace(
            "politica-cancelaciones", "sin costo hasta 48 horas antes de la hora de recogida",
            "Un encargo de pastel, de caja de pan dulce o de charola para evento se cancela sin costo hasta 48 "
            "horas antes de la hora de recogida que quedó anotada en el pedido; en ese caso se devuelve el "
            "anticipo completo. Para el puente del 1 de mayo, el plazo vence el martes 28 de abril a las 19:00.")),
        Edit(35, "cinnamon roll: every piece has nuts", _replace(
            "ficha-rol-de-canela", "lleva nuez en la receta",
            "Todas las piezas de rol de canela llevan nuez: picada dentro del relleno y espolvoreada sobre el "
            "glaseado. No preparamos una versión sin nuez.")),
        Edit(50, "1 May: open until 15:00", _replace(
            "aviso-puente-1-de-mayo", "de 8:00 a 14:00",
            "El viernes 1 de mayo la tienda abre de 8:00 a 15:00, sólo para venta en mostrador y entrega de "
            "encargos; ese día no salen repartidores.")),
        Edit(65, "new page: Mother's Day FAQ", lambda ws: ws.add_page(MOTHERS_DAY_FAQ)),
        Edit(80, "Rosca de Reyes notice unpublished",
             lambda ws: ws.set_publishable(ws.page_id("aviso-rosca-de-reyes"), False)),
        Edit(100, "Holy Week notice moved to the trash",
             lambda ws: ws.move_to_trash(ws.page_id("aviso-semana-santa-2026"))),
    ]


def apply_edits(ws: Workspace, edits: list[Edit]) -> list[dict[str, str]]:
    """Apply edits in order at their times on the workspace's simulated clock; a log of what changed."""
    clock = ws.clock
    if not isinstance(clock, SimulatedClock):
        raise TypeError("scripted edits need the workspace to run on a SimulatedClock")
    log = []
    for edit in edits:
        clock.set(max(clock.now(), edit.minute * 60.0))
        edit.apply(ws)
        log.append({"time": clock.datetime().strftime("%H:%M"), "edit": edit.description})
    return log


def move_section_to_sub_page(ws: Workspace, page_key: str, heading: str, title: str) -> Page:
    """Cut the section under ``heading`` (up to the next heading of its level or higher) out of a
    page and paste its text into a new sub-page ``title`` at the end of that page.

    The section's blocks are deleted, so the chunks cut from them have nowhere to come from; the
    sub-page holds the same blocks (their plain text), as a document of its own.
    """
    page = ws.pages[ws.page_id(page_key)]
    children = [block for block in page.children if not ws.blocks[block].in_trash]
    start = next(block for block in children
                 if ws.blocks[block].type.startswith("heading_") and ws.block_text(block) == heading)
    level = ws.blocks[start].type
    section = [start]
    for block in children[children.index(start) + 1:]:
        kind = ws.blocks[block].type
        if kind.startswith("heading_") and kind <= level:  # heading_1 < heading_2 < heading_3
            break
        section.append(block)
    blocks = [{"type": ws.blocks[block].type, "text": ws.block_text(block)} for block in section[1:]]
    for block in section:
        ws.delete_block(block)
    return ws.add_child_page(page.id, {"key": f"{page_key}-{heading.lower()}", "title": title, "blocks": blocks})
