"""Private pages: Don Ernesto's recipes and the customer notes, never shared, never indexed.

They sit outside the knowledge base (parent: the workspace, or the recipes page), so no
integration can see them. The lessons check that nothing from them reaches chunks, the index,
logs or charts. The customers and phone numbers here are invented.
"""

from __future__ import annotations

import numpy as np

from .blocks import Block, bullet, callout, child_page, divider, h2, numbered, p, quote
from .outline import Outline

__all__ = ["RECIPE_INDEX", "RECIPES", "CUSTOMER_NOTES"]


def _recipe(ingredients: list[str], steps: list[str], note: str) -> list[Block]:
    return [
        h2("Ingredientes"),
        *[bullet(item) for item in ingredients],
        h2("Procedimiento"),
        *[numbered(step) for step in steps],
        h2("Notas de Don Ernesto"),
        p(note),
    ]


def _cinnamon_roll(rng: np.random.Generator) -> list[Block]:
    return _recipe(
        ["Harina de trigo panadero: 1,000 g", "Leche entera tibia: 450 g", "Mantequilla: 180 g",
         "Relleno: 250 g de mantequilla, 300 g de azúcar mascabado y 25 g de canela"],
        ["Amasar y fermentar toda la noche a 4 °C.",
         "Extender, rellenar, esparcir 200 g de nuez picada y enrollar.",
         "Cortar con hilo en 24 piezas, fermentar 1 hora y hornear 22 minutos a 175 °C."],
        "El secreto es la canela recién molida y no apretar el rollo. El glaseado lleva 400 g de queso "
        "crema por tanda y se pone cuando el rol está a unos 40 °C.",
    )


def _concha(rng: np.random.Generator) -> list[Block]:
    return _recipe(
        ["Harina de trigo: 1,000 g", "Yemas: 8 piezas", "Azúcar: 200 g", "Costra: 300 g de harina, 300 g "
         "de azúcar glass y 150 g de manteca vegetal"],
        ["Amasar a las 5:00 y dejar crecer 1 hora.",
         "Bolear en piezas de 70 g, cubrir con la costra y marcar con el molde de latón.",
         "Fermentar 1 hora y hornear 16 minutos a 180 °C."],
        "La costra se hace el mismo día. Si se prepara la víspera, se agrieta y no marca bien.",
    )


def _baguette(rng: np.random.Generator) -> list[Block]:
    return _recipe(
        ["Harina de Tlaxcala: 1,000 g", "Agua: 700 g", "Masa madre (Lupita) al 100 %: 200 g",
         "Sal de Colima: 20 g"],
        ["Mezclar a mediodía y dar cuatro pliegues cada 30 minutos.",
         "Dejar 18 horas a 4 °C.",
         "Dividir en piezas de 300 g, formar, cortar con navaja y hornear 24 minutos a 240 °C con vapor."],
        "A Lupita se le dan 50 g de harina y 50 g de agua cada 12 horas. Si huele a acetona, tiene hambre.",
    )


def _cheesecake(rng: np.random.Generator) -> list[Block]:
    return _recipe(
        ["Queso crema: 900 g", "Azúcar: 250 g", "Huevos: 5 piezas",
         "Base: 300 g de galleta de mantequilla molida y 120 g de mantequilla fundida"],
        ["Hornear la base 10 minutos a 170 °C.",
         "Batir el relleno a mano, sin meter aire, y verter sobre la base.",
         "Hornear a baño maría 1 hora a 150 °C y enfriar dentro del horno apagado."],
        "La receta es de la tía de Valeria. Lo único que cambié fue la galleta: ahora la hacemos aquí.",
    )


def _tres_leches(rng: np.random.Generator) -> list[Block]:
    return _recipe(
        ["Bizcocho mediano: 8 huevos, 240 g de azúcar y 240 g de harina",
         "Baño: 1 lata de leche evaporada, 1 de leche condensada y 250 ml de crema",
         "Cubierta: 500 ml de crema para batir con 60 g de azúcar glass"],
        ["Hornear el bizcocho un día antes.",
         "Bañar en dos tiempos, con 20 minutos de reposo entre uno y otro.",
         "Rellenar con fruta, cubrir y decorar el mismo día de la recogida."],
        "Nunca bañar un bizcocho caliente: se deshace. El mensaje se revisa contra el folio antes de cerrar "
        "la caja.",
    )


RECIPES: tuple[Outline, ...] = (
    Outline("receta-rol-de-canela", "Receta: rol de canela", "receta", "🔒", _cinnamon_roll),
    Outline("receta-conchas", "Receta: conchas", "receta", "🔒", _concha),
    Outline("receta-baguette-de-masa-madre", "Receta: baguette de masa madre", "receta", "🔒", _baguette),
    Outline("receta-pay-de-queso", "Receta: pay de queso", "receta", "🔒", _cheesecake),
    Outline("receta-pastel-tres-leches", "Receta: pastel de tres leches", "receta", "🔒", _tres_leches),
)


def _recipe_index(rng: np.random.Generator) -> list[Block]:
    return [
        callout("Página privada. No se comparte con ninguna integración ni se copia a otras páginas.", icon="🔒"),
        quote("Lo que está aquí no sale del obrador. — Don Ernesto"),
        p("Recetas base del obrador, en cantidades para una tanda. Las cambia sólo Don Ernesto."),
        *[child_page(recipe.key, recipe.title) for recipe in RECIPES],
    ]


RECIPE_INDEX = Outline("recetas-del-obrador", "Recetas del obrador", "receta", "📕", _recipe_index)


def _customer_notes(rng: np.random.Generator) -> list[Block]:
    return [
        callout("Datos personales: sólo para el equipo de mostrador. No copiar a la base de conocimiento.",
                icon="🔒"),
        h2("Alergias avisadas por clientes"),
        bullet("Lucía Herrera (55 2718 0431): su hijo Mateo es alérgico a la nuez. Nunca ofrecerle muestras."),
        bullet("Rodrigo Peña (55 9034 1187): celíaco. Ya sabe que no tenemos pan sin gluten; viene por café."),
        bullet("Marisol Aguirre (55 6120 5593): alergia al cacahuate. Pide conchas y siempre pregunta por trazas."),
        h2("Clientes frecuentes"),
        bullet("Don Arturo, del edificio de enfrente: 2 conchas y 1 baguette de lunes a viernes a las 8:00."),
        bullet("Oficina de la calle Eugenia (Karla, 55 4401 2296): caja de 12 roles cada último viernes del mes."),
        bullet("Cafetería La Esquina: cuenta de mayoreo; pagan puntual los lunes."),
        divider(),
        h2("Pendientes"),
        p("Llamar a la señora Herrera para avisarle del cambio de glaseado del rol de canela antes del sábado."),
    ]


CUSTOMER_NOTES = Outline("notas-de-clientes", "Notas de clientes", "notas", "📒", _customer_notes)
