"""Seeded choices of wording, and the connective sentences each page type may borrow.

Real pages written by one person repeat a few habits of speech, but never the same paragraph
on every page. Each page draws a different small handful from its type's pool, so the text
does not look copy-pasted while staying true for every page that uses it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["one_of", "some_of", "FILLER"]


def one_of(rng: np.random.Generator, options: Sequence[str]) -> str:
    """One of ``options``, chosen by ``rng``."""
    return options[int(rng.integers(len(options)))]


def some_of(rng: np.random.Generator, pool: Sequence[str], k: int) -> list[str]:
    """``k`` distinct items of ``pool`` chosen by ``rng``, kept in the pool's order."""
    if not 0 <= k <= len(pool):
        raise ValueError(f"cannot draw {k} distinct sentences from a pool of {len(pool)}")
    picked = sorted(int(i) for i in rng.choice(len(pool), size=k, replace=False))
    return [pool[i] for i in picked]


#: Connective sentences per page type: true of every page of that type, never its main content.
FILLER: dict[str, tuple[str, ...]] = {
    "ficha": (
        "Si la receta cambia, primero se corrige esta ficha y después llega la pieza nueva al mostrador.",
        "Los ingredientes se revisan cada vez que cambia un lote de proveedor.",
        "Para pedidos grandes conviene escribir antes: el horno tiene un límite de charolas por día.",
        "Las claves de producto son las mismas en mostrador, en WhatsApp y en los tickets.",
        "Si una pieza se acaba, no la sustituimos por otra parecida sin preguntarle.",
    ),
    # Only true of pieces sold over the counter, not of cakes made to order.
    "ficha_mostrador": (
        "Cada pieza se forma a mano, así que el peso puede variar unos gramos de una charola a otra.",
        "El precio incluye la bolsa de papel; las cajas de regalo se cobran aparte.",
        "La disponibilidad cambia durante la mañana porque horneamos en tandas pequeñas.",
        "Si llega tarde y ya no hay, en mostrador le dicen a qué hora sale la siguiente charola.",
    ),
    "politica": (
        "Esta política la revisan Valeria y Don Ernesto cada vez que cambia una regla, y la fecha de la última "
        "edición queda en Notion.",
        "Si algo de esta página no está claro, en mostrador o por WhatsApp se lo explicamos con gusto.",
        "Cuando una regla cambia, la versión anterior deja de aplicarse para los pedidos nuevos, no para los que ya "
        "estaban confirmados.",
        "Ningún empleado puede prometer algo distinto de lo que dice esta página sin la autorización de Valeria.",
        "Preferimos reglas pocas y claras a excepciones que nadie recuerda.",
        "Las cantidades están en pesos mexicanos e incluyen IVA.",
        "Los casos que no aparecen aquí se resuelven con Valeria, y si se repiten se agregan a la página.",
        "Las reglas de esta página valen igual en mostrador, por WhatsApp y por teléfono.",
        "Si una regla le parece injusta en su caso, pida hablar con Valeria; siempre se revisa.",
    ),
    "faq": (
        "Si su duda no aparece aquí, escríbanos por WhatsApp y la agregamos a esta página.",
        "Estas respuestas resumen nuestras políticas; si hay diferencia, manda la página de la política.",
        "Las preguntas salen de lo que más nos preguntan en mostrador y por mensaje.",
        "Actualizamos esta página cuando una misma pregunta llega tres veces en una semana.",
        "Las respuestas valen para la tienda de Narvarte, que es la única que tenemos.",
        "Si pregunta por mensaje, le contesta una persona del equipo en horario de tienda.",
        "Las cifras de estas respuestas son las de las fichas y políticas vigentes.",
        "Si una respuesta ya no coincide con lo que le dijeron en mostrador, avísenos para corregirla.",
    ),
    "aviso": (
        "Este aviso también se publica en la puerta de la tienda y en nuestras redes.",
        "Si tiene un encargo confirmado para esas fechas, le escribimos para confirmar la hora de recogida.",
        "Cuando termine la temporada, este aviso se retira de la base de conocimiento.",
        "Gracias por la paciencia mientras duran estas fechas.",
        "Fuera de las fechas de este aviso rige el horario de siempre.",
        "Las reglas de anticipos y cancelaciones no cambian por este aviso, salvo donde se dice.",
        "Si algo de este aviso cambia, lo corregimos aquí primero y después en la puerta.",
    ),
    "alergenos": (
        "La información de esta página viene de las fichas de producto y se revisa cuando cambia una receta o un "
        "proveedor.",
        "Un empleado de mostrador no puede asegurar que una pieza está libre de un alérgeno si la ficha no lo dice.",
        "Cuando la respuesta importa para la salud, preferimos decir que no sabemos a adivinar.",
        "Las alergias graves merecen una conversación con Valeria antes de encargar.",
        "Declaramos los alérgenos que van en la receta y, aparte, los que pueden llegar como trazas.",
        "Esta página no sustituye la opinión de su médico ni la etiqueta del lote.",
        "Si encuentra una diferencia entre esta página y una ficha, avísenos: manda la ficha mientras lo corregimos.",
    ),
}
