"""Allergen pages ("Alérgenos: ..."): the product sheets read the other way round.

A product sheet says which allergens a piece carries; an allergen page says which pieces carry
an allergen. The lists are written from the same product records as the sheets, so the two
can never disagree; the surrounding advice is written per page.
"""

from __future__ import annotations

import numpy as np

from .blocks import Block, bold, bullet, callout, h1, h2, h3, p, quote
from .outline import Outline
from .phrasing import FILLER, some_of
from .products import PRODUCTS, Product, join_es

__all__ = ["ALLERGEN_PAGES", "ARTICLE"]

#: The article each allergen takes in a Spanish sentence ("la nuez", "el gluten").
ARTICLE: dict[str, str] = {
    "gluten": "el gluten", "leche": "la leche", "huevo": "el huevo", "nuez": "la nuez",
    "almendra": "la almendra", "cacahuate": "el cacahuate", "ajonjolí": "el ajonjolí", "soya": "la soya",
}


def _with(allergen: str) -> list[Product]:
    return [product for product in PRODUCTS if allergen in product.contains]


def _traces_only(allergens: tuple[str, ...]) -> list[Product]:
    return [product for product in PRODUCTS
            if not set(allergens) & set(product.contains) and set(allergens) & set(product.traces)]


def _free(allergens: tuple[str, ...]) -> list[Product]:
    return [product for product in PRODUCTS
            if not set(allergens) & (set(product.contains) | set(product.traces))]


def _verb(product: Product, singular: str, plural: str) -> str:
    return plural if product.article in ("los", "las") else singular


def _carrier_line(product: Product, allergen: str) -> Block:
    where = dict(product.where)[allergen]
    others = [a for a in product.contains if a != allergen]
    also = f" Además {_verb(product, 'lleva', 'llevan')} {join_es(others)}." if others else ""
    return bullet(f"{product.name} ({product.code}, {product.price} {product.unit}): {ARTICLE[allergen]} va "
                  f"{where}.{also}")


def _trace_line(product: Product, allergens: tuple[str, ...]) -> Block:
    named = join_es([a for a in product.traces if a in allergens], conj="ni")
    return bullet(f"{product.name}: no {_verb(product, 'lleva', 'llevan')} {named} en la receta, pero "
                  f"{_verb(product, 'puede', 'pueden')} traer trazas.")


def _declare_traces(allergen: str) -> str:
    products = [product for product in PRODUCTS if allergen in product.traces]
    verb = "declara" if len(products) == 1 else "declaran"
    return f"Por eso {verb} trazas de {allergen}: {_names(products)}."


def _names(products: list[Product]) -> str:
    return join_es([f"{product.article} {product.name.lower()}" for product in products])


def _nuts(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["alergenos"], 3)
    nuts = ("nuez", "almendra")
    return [
        h1("Nuez, almendra y otros frutos secos"),
        p("En el obrador de Trigo Lento se usan dos frutos de cáscara: nuez pecana, que va en la receta de dos "
          "piezas de todos los días, y almendra, que no va en ningún pan del mostrador diario pero sí en la costra "
          "de la rosca de Reyes y en las galletas de Navidad. Esta página dice qué piezas llevan nuez, cuáles "
          "pueden traer trazas de nuez o almendra y cómo se trabaja para reducir el riesgo. La información sale de "
          "las fichas de producto: si una ficha cambia, esta lista cambia con ella el mismo día."),
        h2("Productos con nuez"),
        p("Estas piezas llevan ", bold("nuez"), " en la receta. Ninguna se prepara en versión sin nuez, ni "
          "siquiera por encargo:"),
        *[_carrier_line(product, "nuez") for product in _with("nuez")],
        p("En temporada también llevan nuez la capirotada de los viernes de Cuaresma, que lleva nuez y "
          "cacahuate entre las capas de bolillo, y la rosca de Reyes con relleno de nata y nuez, que se "
          "vende sólo del 2 al 6 de enero. Cada una tiene su aviso con sus alérgenos. "
          "La rosca tradicional no lleva nuez en la receta, pero su costra lleva almendra molida."),
        h2("Piezas con trazas de nuez o almendra"),
        p("Estas piezas no llevan frutos de cáscara en la receta, pero se forman en las mesas donde en la "
          "madrugada se pica la nuez o se hornean junto a piezas con nuez. Por eso declaramos trazas:"),
        *[_trace_line(product, nuts) for product in _traces_only(nuts)],
        p("Según nuestras fichas, lo único del mostrador sin nuez ni almendra en la receta y sin trazas "
          f"declaradas de ninguna de las dos es {_names(_free(nuts))}. Aun así, se hace en el mismo obrador "
          "que la nuez, como todo lo demás. "
          "Si una pieza no aparece en ninguna de las listas de esta página, es porque no está en las fichas de "
          "producto vigentes; pregunte antes de comprarla."),
        h2("Cómo trabajamos la nuez en el obrador"),
        p("La nuez se pica a mano en la primera hora del turno de noche, sobre una tabla que sólo se usa para eso y "
          "que se guarda en un contenedor con tapa. Después se lava la mesa con agua caliente y jabón antes de "
          "formar cualquier otra pieza. Los cuchillos y las charolas de la nuez tienen una cinta roja en el mango. "
          "La nuez llega en costales cerrados y se guarda en un anaquel aparte, abajo de todo lo demás, para que "
          "nada caiga sobre otros ingredientes. Quien pica la nuez se cambia el mandil antes de formar la masa de "
          "las conchas. La tabla de la nuez, los cuchillos y el contenedor se lavan aparte, en la tarja pequeña, y "
          "nunca se mezclan con los utensilios del pan dulce."),
        p("Reducir el riesgo no es eliminarlo: el polvo de la nuez picada puede quedar en el aire y en la ropa del "
          "equipo. Por eso no vendemos ninguna pieza como libre de frutos secos. Tampoco hacemos roles de canela ni "
          "brownies sin nuez por encargo: la masa se prepara en la misma mesa y con los mismos utensilios, y una "
          "versión «sin nuez» daría una seguridad falsa. Tampoco vendemos nuez suelta ni piezas decoradas con nuez "
          "fuera de las que dicen las fichas y los avisos."),
        quote("Prefiero perder una venta que explicarle a una mamá por qué su hijo terminó en urgencias. "
              "— Don Ernesto"),
        h3("Preguntas que nos hacen en mostrador"),
        p("¿La nuez del rol de canela se puede quitar? No: va dentro del relleno, no sólo encima. ¿El polvorón de "
          "cacahuate tiene nuez? No en la receta, pero puede traer trazas. ¿Las galletas de avena llevan nuez? "
          "Tampoco en la receta; mucha gente lo supone porque en otras panaderías sí, y también pueden traer "
          "trazas."),
        h2("Si tiene alergia a los frutos secos"),
        callout("Con una alergia grave a la nuez o a la almendra, le pedimos no consumir nuestras piezas sin "
                "consultarlo antes con su médico.", icon="🚫"),
        p("Si la alergia es leve y su médico permite trazas, elija piezas sin nuez en la receta y lea su ficha "
          "completa. Las preguntas de alergias por WhatsApp las contesta siempre una persona del equipo, leyendo la "
          "ficha; nunca una respuesta automática. Si compra para otra persona, por ejemplo para la fiesta de un "
          "niño, pregunte a la familia qué tan grave es la alergia antes de elegir. En las charolas para eventos y "
          "en las cajas de regalo ponemos una tarjeta con los alérgenos de cada pieza, y los brownies y los mini "
          "roles van separados del resto si nos avisa que hay invitados alérgicos."),
        p("El cacahuate no es un fruto de cáscara sino una leguminosa, y se declara aparte: vea «Alérgenos: "
          f"cacahuate, ajonjolí y soya». {fill[0]} {fill[1]} {fill[2]}"),
    ]


def _gluten(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["alergenos"], 3)
    return [
        p("El gluten es la proteína del trigo, el centeno y la cebada. En Trigo Lento casi todo lleva harina "
          "de trigo, y el obrador trabaja con ella desde la madrugada: esta página sirve sobre todo para "
          "explicar por qué no tenemos piezas sin gluten. "
          "Aquí están las piezas que llevan gluten en la receta, en qué parte de la pieza está y qué pasa con los "
          "cereales distintos del trigo. "
          "Si tiene celiaquía, la respuesta corta es que ninguna pieza de Trigo Lento es para usted; lo sentimos, y "
          "preferimos que lo sepa antes de venir."),
        h2("Piezas con gluten en la receta"),
        *[_carrier_line(product, "gluten") for product in _with("gluten")],
        h2("Sin harina de trigo no es sin gluten"),
        p(f"Sólo {_names([x for x in PRODUCTS if 'gluten' not in x.contains])} se hace sin harina de trigo: lleva "
          "elote fresco y harina de maíz. Aun así, declara trazas de gluten y no lo recomendamos a personas "
          "celíacas, porque se forma en las mismas mesas y se hornea en el mismo horno que el pan de trigo. Lo "
          "mismo vale para las piezas de temporada: la capirotada lleva bolillo, la rosca de Reyes es de harina de "
          "trigo y el pan de Pascua también."),
        p("La harina queda suspendida en el aire del obrador durante horas después de amasar, y se asienta "
          "sobre todo lo que está cerca. Para una persona celíaca, esa cantidad basta para hacerle daño. "
          "Por eso el pan de elote, aunque no lleva harina de trigo, se vende con la advertencia de trazas y no como "
          "pan sin gluten. Lo mismo pasaría con cualquier pieza que hiciéramos con harinas de arroz o de almendra: "
          "mientras haya un solo obrador, no puede haber pan sin gluten. "
          "Es una decisión de Don Ernesto y Valeria, y la revisan cada año; por ahora no hay planes de un obrador "
          "aparte."),
        h2("Avena, centeno y maíz"),
        p("La avena de las galletas no está certificada sin gluten: se cultiva y se muele junto al trigo. Además, "
          "las galletas llevan harina de trigo. El pan integral de semillas lleva harina de centeno además de la de "
          "trigo. El maíz del pan de elote no tiene gluten, pero el pan sí puede traer trazas. La cebada no entra "
          "en ninguna receta; la malta que a veces llevan las harinas industriales tampoco, porque nuestras harinas "
          "de trigo son de molino de piedra, sin aditivos. El centeno sí tiene gluten, aunque menos que el trigo; "
          "el pan integral de semillas lleva los dos."),
        h3("¿Y la masa madre?"),
        p("La fermentación larga de la baguette cambia el sabor y la textura, pero no elimina el gluten. La "
          "baguette de masa madre no es apta para personas celíacas. "
          "Hay quien tolera mejor el pan de fermentación larga por razones digestivas, pero eso no tiene que ver con "
          "la celiaquía, que es una enfermedad autoinmune y no depende de cómo se fermente el trigo."),
        h3("Piezas de temporada con gluten"),
        p("Todas las piezas de temporada llevan harina de trigo: la rosca de Reyes, el pan de Pascua, las galletas "
          "de corazón de San Valentín y la capirotada, que se hace con bolillo. Ninguna se prepara sin gluten."),
        h2("Celiaquía y sensibilidad al gluten"),
        callout("Ninguna pieza de Trigo Lento es apta para personas celíacas.", icon="🌾"),
        p("Si evita el gluten por sensibilidad y no por celiaquía, la decisión es suya y de su médico; lo "
          "que le podemos dar es la información de cada ficha, con las trazas. No recomendamos ninguna "
          "pieza como «baja en gluten», porque no medimos el gluten de nuestras piezas. "
          "En las cajas de eventos y en las notas de mayoreo, el gluten aparece siempre en primer lugar de la lista "
          "de alérgenos, para que nadie tenga que buscarlo. "
          "En la vitrina, ninguna pieza lleva un letrero de «sin gluten» ni de «integral = saludable»: sólo el "
          "nombre, el precio y la clave de la ficha."),
        p("Si busca pan sin gluten, le recomendamos una panadería con obrador exclusivo sin gluten; "
          f"preferimos decirlo claro a venderle algo que le haga daño. {fill[0]} {fill[1]} {fill[2]}"),
    ]


def _milk_and_egg(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["alergenos"], 3)
    no_milk_egg = [x for x in PRODUCTS if not {"leche", "huevo"} & set(x.contains)]
    return [
        p("La leche y el huevo están en casi todo el pan dulce y en todos los postres. Esta página dice en "
          "qué parte de cada pieza están y cuáles son las pocas piezas que no los llevan en la receta. "
          "Como en las demás páginas de alérgenos, la lista sale de las fichas de producto y cambia el mismo día que "
          "cambia una ficha."),
        h2("Piezas con leche"),
        p("La leche llega al pan como leche entera, mantequilla, crema, queso crema o leche condensada; las cinco "
          "cuentan como leche para una persona alérgica. La manteca vegetal de la costra de la concha no es un "
          "sustituto de la leche: la concha lleva también leche y mantequilla en la masa."),
        *[_carrier_line(product, "leche") for product in _with("leche")],
        h2("Piezas con huevo"),
        *[_carrier_line(product, "huevo") for product in _with("huevo")],
        p("Ojo con los barnices: el cuernito lleva huevo sólo en el barniz que lo dora, pero eso basta para "
          "que una persona alérgica al huevo no lo pueda comer. Las orejas no llevan barniz, pero se "
          "hornean junto a piezas barnizadas, y por eso declaran trazas de huevo. "
          "El barniz de huevo se da con brocha en una mesa aparte, pero las charolas pasan por la misma rejilla del "
          "horno, y una gota que cae basta para declarar trazas."),
        h2("Sin leche ni huevo en la receta"),
        p(f"Sólo {_names(no_milk_egg)} no llevan leche ni huevo en la receta. La baguette es la única "
          "pieza apta para dietas veganas: el pan integral lleva miel."),
        p("Las dos pueden traer trazas de lo que se trabaja en el obrador, así que tampoco son seguras "
          "para una alergia grave a la leche o al huevo. "
          "En temporada, el pan de Pascua y la rosca llevan leche y huevo; la capirotada lleva queso Cotija, que "
          "también es leche."),
        h3("Intolerancia a la lactosa"),
        p("La intolerancia a la lactosa no es una alergia, pero mucha gente pregunta. No tenemos piezas "
          "deslactosadas. La mantequilla tiene muy poca lactosa y la baguette no tiene nada; los postres "
          "con crema, queso o leche condensada son los que más lactosa tienen. "
          "Si la intolerancia es fuerte, el pay de queso, el tres leches y el pan de elote son las piezas que "
          "conviene evitar; la oreja de hojaldre y el cuernito llevan sobre todo mantequilla."),
        h2("Glaseados, rellenos y coberturas"),
        p("El glaseado del rol de canela es de queso crema; la costra de la concha lleva mantequilla y "
          "manteca vegetal; la cobertura del tres leches es crema batida. Ninguna cobertura se puede quitar "
          "para hacer una pieza sin leche, porque la masa también la lleva. "
          "Las piezas de temporada siguen la misma regla: el pan de Pascua lleva leche y huevo, la rosca también, y "
          "la capirotada lleva queso Cotija."),
        p("El chocolate del brownie es amargo al 70 % y no lleva leche en su etiqueta, pero el brownie sí "
          f"lleva mantequilla. {fill[0]} {fill[1]} {fill[2]}"),
    ]


def _peanut_sesame_soy(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["alergenos"], 3)
    return [
        p("Tres alérgenos que se confunden con los frutos secos o que nadie espera en el pan: el cacahuate, "
          "que es una leguminosa; el ajonjolí, que es una semilla; y la soya, que no va en ninguna receta "
          "pero llega en algunas harinas. "
          "La información de cada pieza sale de su ficha de producto y se revisa cada vez que cambia una receta o un "
          "proveedor. "
          "La página sirve para quienes tienen alergia a alguno de los tres y también para quienes compran para otra "
          "persona, por ejemplo para la fiesta de un niño o para una oficina. "
          "Los tres se declaran en la sección «Alérgenos» de cada ficha, con las mismas palabras que la etiqueta del "
          "lote."),
        h2("Cacahuate"),
        *[_carrier_line(product, "cacahuate") for product in _with("cacahuate")],
        p("El cacahuate se tuesta y se muele una vez por semana en un molino que no se usa para nada más, y los "
          "polvorones se forman al final del turno, cuando ya se formaron las demás piezas. En Cuaresma, la "
          "capirotada de los viernes también lleva cacahuate. El polvorón es la pieza que más cuidado pide en la "
          "vitrina: va envuelto uno por uno en papel de china y en su propia charola, con una pinza que no se usa "
          "para otra pieza. Quien despacha en mostrador se cambia los guantes después de tocar la charola de "
          "polvorones."),
        p("Pueden traer trazas de cacahuate: "
          f"{_names([x for x in PRODUCTS if 'cacahuate' in x.traces])}."),
        h2("Ajonjolí"),
        *[_carrier_line(product, "ajonjolí") for product in _with("ajonjolí")],
        p("Declaramos el ajonjolí aunque la norma de etiquetado no lo pida, porque varias clientas nos lo "
          "pidieron. Pueden traer trazas de ajonjolí, por compartir charolas con el pan integral: "
          f"{_names([x for x in PRODUCTS if 'ajonjolí' in x.traces])}."),
        p("El pan integral de semillas lleva ajonjolí dentro de la masa y encima de la barra, tostado en el obrador "
          "el mismo día. No lo hacemos sin ajonjolí porque la mezcla de semillas se prepara completa. "
          "Las otras semillas de la mezcla (linaza, girasol y pepita) no son alérgenos de declaración obligatoria, "
          "pero aparecen en la lista de ingredientes de la ficha. "
          "Si tiene alergia a alguna de ellas, pregunte igual: la ficha dice dónde van y con qué otras piezas "
          "comparten charola."),
        h2("Soya"),
        p("Ninguna receta lleva soya, lecitina de soya ni aceite de soya. Pero la harina integral de trigo "
          "que compramos se muele en un molino que también procesa soya, y su etiqueta lo advierte. "
          f"{_declare_traces('soya')}"),
        h3("Cuando cambia un proveedor"),
        p("Si un proveedor nuevo trae otra advertencia de trazas, la agregamos a la ficha aunque la receta no "
          "cambie, y la pieza lleva una semana el letrero «receta nueva» en la vitrina. Así pasó en febrero de 2026 "
          "con la harina integral: la receta del pan de semillas no cambió, pero el molino nuevo procesa soya, y "
          "desde entonces la ficha declara trazas de soya. La fecha del cambio quedó anotada en la sección «Cambios "
          "en esta ficha» del pan integral de semillas: 16 de febrero de 2026."),
        h3("Preguntas que nos hacen en mostrador"),
        p("¿El cacahuate cuenta como fruto seco? Para nosotros no: se declara aparte, porque es una leguminosa y hay "
          "personas alérgicas a la nuez que comen cacahuate, y al revés. ¿La concha lleva ajonjolí? No en la receta, "
          "pero puede traer trazas por compartir charolas con el pan integral. ¿Usan aceite de soya para engrasar "
          "los moldes? No: los moldes se engrasan con aceite de girasol. "
          "¿El polvorón se puede pedir sin cacahuate? No: la masa es de cacahuate molido; si busca una galleta sin "
          "cacahuate en la receta, la de avena es la opción, con sus trazas."),
        h3("Piezas de temporada"),
        p("La capirotada de los viernes de Cuaresma lleva cacahuate y nuez entre las capas de bolillo. Ninguna otra "
          "pieza de temporada lleva cacahuate en la receta, pero en diciembre, cuando los polvorones se hacen al "
          "doble, todo el pan declara trazas de cacahuate en las etiquetas de lote. "
          "Esa advertencia de temporada se agrega a las fichas el 1 de diciembre y se retira el 7 de enero."),
        h2("Si tiene alergia al cacahuate"),
        callout("El polvorón de cacahuate lleva cacahuate molido en toda la masa. Si hay alguien alérgico "
                "en la mesa, no lo sirva ni lo comparta en la misma charola que otras piezas.", icon="🥜"),
        p("Una alergia al cacahuate no implica alergia a la nuez, ni al revés, pero mucha gente tiene las "
          "dos. Si es su caso, lea también «Alérgenos: nuez y frutos secos» y pregunte a una persona del "
          f"equipo antes de comprar. {fill[0]} {fill[1]} {fill[2]}"),
    ]


ALLERGEN_PAGES: tuple[Outline, ...] = (
    Outline("alergenos-nuez-y-frutos-secos", "Alérgenos: nuez y frutos secos", "alergenos", "🌰", _nuts),
    Outline("alergenos-gluten-y-cereales", "Alérgenos: gluten y cereales", "alergenos", "🌾", _gluten),
    Outline("alergenos-leche-y-huevo", "Alérgenos: leche y huevo", "alergenos", "🥛", _milk_and_egg),
    Outline("alergenos-cacahuate-ajonjoli-y-soya", "Alérgenos: cacahuate, ajonjolí y soya", "alergenos", "🥜",
            _peanut_sesame_soy),
)
