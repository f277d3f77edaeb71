"""Drafts: rows of the knowledge base with the "Publicable" box unticked.

They are shared with the integration (they live in the data source) but must never be indexed;
one of them holds the workspace's meeting-notes block.
"""

from __future__ import annotations

import numpy as np

from .blocks import Block, bullet, callout, h2, h3, meeting_notes, numbered, p, todo, toggle
from .outline import Outline

__all__ = ["DRAFTS"]


def _dead_bread(rng: np.random.Generator) -> list[Block]:
    return [
        callout("Borrador: no publicar hasta que Don Ernesto apruebe precio y alérgenos.", icon="📝"),
        h2("Descripción"),
        p("Pan de muerto de yema con ralladura de naranja, agua de azahar y huesitos de la misma masa, "
          "espolvoreado con azúcar. Se vendería del 15 de octubre al 2 de noviembre."),
        h2("Alérgenos"),
        p("Contiene gluten, leche y huevo. Pendiente confirmar si el agua de azahar del proveedor nuevo trae "
          "advertencia de trazas."),
        h2("Precio y encargos"),
        bullet("Individual: $35 (por confirmar)."),
        bullet("Mediano, 6 porciones: $160 (por confirmar)."),
        bullet("Relleno de nata: $40 más (por decidir si se ofrece)."),
        h3("Pendientes"),
        todo("Probar la receta con la harina de Tlaxcala.", True),
        todo("Fijar precios con Valeria.", False),
        todo("Fotografiar la pieza para la ficha.", False),
    ]


def _loyalty(rng: np.random.Generator) -> list[Block]:
    return [
        p("Propuesta de Valeria para discutir en la junta de mayo. No aplica todavía."),
        h2("Idea general"),
        p("Una tarjeta de sellos en papel: un sello por cada compra de $100 o más en mostrador. Con 10 "
          "sellos, una caja de 6 conchas de regalo. Sin aplicación y sin pedir datos personales."),
        h2("Dudas abiertas"),
        numbered("¿Cuentan los encargos y los pedidos a domicilio?"),
        numbered("¿Se puede combinar con el descuento de mayoreo? Propuesta: no."),
        numbered("¿Qué pasa con las tarjetas perdidas? Propuesta: no se reponen."),
        h2("Costo estimado"),
        p("Si 200 clientes completan una tarjeta al año, el regalo cuesta unos $34,000 a precio de "
          "mostrador. Falta calcularlo a costo de producción."),
        todo("Revisar el costo con el contador.", False),
    ]


def _workshops(rng: np.random.Generator) -> list[Block]:
    return [
        p("Borrador de preguntas frecuentes para los talleres de pan de los sábados. Falta confirmar fechas "
          "y cupo antes de publicar."),
        h2("Respuestas rápidas"),
        toggle("¿Cuánto cuesta el taller?",
               p("Propuesta: $850 por persona, con ingredientes, mandil y la masa madre para llevar.")),
        toggle("¿Qué se hace en el taller?",
               p("Conchas y una hogaza de masa madre, en tres horas, con Don Ernesto.")),
        h3("Notas para Valeria", children=[
            p("Cupo máximo: 8 personas. El obrador se limpia antes y después; nadie del taller toca la mesa "
              "de la nuez."),
        ]),
        meeting_notes(
            "Junta con Don Ernesto: talleres (2 de abril de 2026)",
            bullet("Don Ernesto acepta dar un taller al mes, el primer sábado, de 15:00 a 18:00."),
            bullet("Nada de nuez ni cacahuate en los talleres, para no pedir información de alergias."),
            bullet("Valeria prepara la página de preguntas frecuentes y el formulario de inscripción."),
            bullet("Primer taller tentativo: sábado 6 de junio."),
        ),
        todo("Definir cupo y precio final.", False),
    ]


DRAFTS: tuple[Outline, ...] = (
    Outline("ficha-pan-de-muerto", "Ficha: Pan de muerto", "ficha", "💀", _dead_bread),
    Outline("politica-programa-de-lealtad", "Política de programa de lealtad", "politica", None, _loyalty),
    Outline("faq-talleres-de-panaderia", "Preguntas frecuentes: talleres de panadería", "faq", "🧑‍🍳", _workshops),
)
