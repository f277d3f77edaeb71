"""Product sheets ("Ficha: ..."): the facts of each piece and how a sheet is written from them.

The facts (price, weight, ingredients, allergens, storage) live in one record per product;
the sheet's sentences are built from them with a few alternative wordings chosen per page, and
each product adds the paragraphs only it has (what it is, where its ingredients come from).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from functools import partial

import numpy as np

from .blocks import Block, bullet, callout, h2, h3, image, p, quote
from .outline import Outline
from .phrasing import FILLER, one_of, some_of

__all__ = ["Product", "PRODUCTS", "FICHAS", "ALLERGEN_PAGE", "product_sheet", "latest_change", "join_es", "pesos"]

#: Which allergen page covers each declared allergen.
ALLERGEN_PAGE: dict[str, str] = {
    "gluten": "Alérgenos: gluten y cereales",
    "leche": "Alérgenos: leche y huevo",
    "huevo": "Alérgenos: leche y huevo",
    "nuez": "Alérgenos: nuez y frutos secos",
    "almendra": "Alérgenos: nuez y frutos secos",
    "cacahuate": "Alérgenos: cacahuate, ajonjolí y soya",
    "ajonjolí": "Alérgenos: cacahuate, ajonjolí y soya",
    "soya": "Alérgenos: cacahuate, ajonjolí y soya",
}


@dataclass(frozen=True)
class Product:
    """One piece the bakery sells, with every fact its sheet states."""

    key: str
    name: str
    article: str
    code: str
    icon: str
    price: str
    unit: str
    other_prices: tuple[tuple[str, str], ...]
    weight: str
    description: tuple[str, ...]
    ingredients: tuple[str, ...]
    sourcing: str
    contains: tuple[str, ...]
    traces: tuple[str, ...]
    days: str
    first_batch: str
    room: str
    fridge: str
    freezer: str
    reheat: str
    serving: str
    order_threshold: int
    notice_hours: int
    example_order: tuple[str, int]
    per_person: int  # pieces per guest when ordering for a gathering; 0 when the piece is not sold that way
    chilled: bool  # kept in the refrigerator from the moment it leaves the shop
    alert: str | None = None
    photo: tuple[str, str] | None = None
    where: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    story: str = ""
    daily: int = 0
    sellout: str = ""
    process: str = ""
    nutrition: tuple[str, int, int, int, int, int] = ("por pieza", 0, 0, 0, 0, 0)
    counter: tuple[str, ...] = field(default_factory=tuple)
    baker_says: str | None = None
    changes: tuple[str, ...] = field(default_factory=tuple)
    allergen_notes: tuple[str, ...] = field(default_factory=tuple)
    order_notes: tuple[str, ...] = field(default_factory=tuple)


def pesos(amount: float) -> str:
    """An amount in Mexican pesos as the bakery writes it: "$1,380" or "$337.50"."""
    return f"${amount:,.0f}" if amount == int(amount) else f"${amount:,.2f}"


def join_es(items: tuple[str, ...] | list[str], conj: str = "y") -> str:
    """Join words the way Spanish lists read: "a, b y c" (or "a ni b" with ``conj="ni"``)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    # "y" becomes "e" before an /i/ sound: "leche e ingredientes", but "agua y hielo".
    last = items[-1].lower()
    if conj == "y" and last.startswith(("i", "í", "hi", "hí")) and not last.startswith(("hia", "hie", "hio", "hiu")):
        conj = "e"
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


PRODUCTS: tuple[Product, ...] = (
    Product(
        key="rol-de-canela", name="Rol de canela", article="el", code="RC-01", icon="🌀",
        price="$38", unit="la pieza",
        other_prices=(("Caja de 6 roles", "$210"), ("Caja de 12 roles", "$400")),
        weight="120 g, unos 12 cm de diámetro",
        description=(
            "El rol de canela es una espiral de masa de brioche enrollada con mantequilla, azúcar mascabado y "
            "canela molida en casa. Sale del horno dorado por fuera y húmedo por dentro, y se termina con un "
            "glaseado de queso crema que se unta todavía tibio.",
            "Es la pieza que más se vende los sábados y la que más preguntas recibe por mensaje: casi todas "
            "sobre el glaseado, el tamaño de la caja y la nuez que lleva. "
            "Por eso esta ficha es la más detallada de la base de conocimiento: lo que dice aquí es lo que "
            "contestamos en mostrador y por mensaje.",
        ),
        ingredients=("harina de trigo", "leche entera", "mantequilla", "azúcar mascabado", "huevo",
                     "queso crema", "nuez pecana", "canela de Ceilán", "levadura", "sal"),
        sourcing=("La canela llega en raja y se muele cada semana en el obrador. La nuez pecana viene de Coahuila y "
                  "se pica a mano para el relleno y para espolvorear sobre el glaseado. El queso crema del glaseado "
                  "se bate con azúcar glass y un poco de vainilla; no lleva colorantes ni conservadores, y por eso "
                  "el rol dura poco fuera del refrigerador en días de calor."),
        contains=("gluten", "leche", "huevo", "nuez"), traces=("almendra", "cacahuate"),
        days="de jueves a domingo", first_batch="8:30",
        room="2 días en su caja cerrada", fridge="hasta 5 días, bien tapado para que no absorba olores",
        freezer="4 semanas, sin glaseado si lo encarga con anticipación",
        reheat=("Horno a 160 °C durante 5 minutos, o 15 segundos en microondas si tiene prisa; el glaseado se "
                "ablanda, no se derrite. "
                "Si lo compró sin glaseado para congelarlo, recaliéntelo primero y ponga el glaseado cuando esté "
                "tibio."),
        serving=("Va bien con café de olla o con un vaso de leche fría. Para compartir, córtelo en cuatro con un "
                 "cuchillo de sierra. "
                 "En la caja de 6 los roles van separados con papel encerado para que el glaseado no se pegue; la de "
                 "12 lleva dos pisos."),
        order_threshold=6, notice_hours=48,
        example_order=("dos cajas de 12 roles", 800),
        per_person=1,
        chilled=False,
        changes=(
            "12 de enero de 2026: el precio de la pieza subió de $35 a $38 y el de la caja de 6, de $195 a $210.",
            ("3 de marzo de 2026: se agregó la caja de 12 roles y se aclaró en esta ficha que la nuez va también "
             "dentro del relleno."),
        ),
        where=(
            ("gluten", "en la masa de brioche, hecha con harina de trigo"),
            ("leche", "en la leche de la masa, la mantequilla del relleno y el queso crema del glaseado"),
            ("huevo", "en la masa de brioche"),
            ("nuez", "picada en el relleno y espolvoreada sobre el glaseado"),
        ),
        story=("La receta llegó a Trigo Lento en 2021, cuando Valeria insistió en tener algo para los domingos en "
               "familia. Don Ernesto hizo once pruebas antes de aceptar el glaseado de queso crema; la primera "
               "versión llevaba pasas y nadie las quería. "
               "Desde entonces la receta sólo ha cambiado una vez: en 2024 se agregó la nuez sobre el glaseado, "
               "además de la del relleno."),
        daily=60, sellout="los sábados suelen acabarse antes de la una de la tarde",
        process=("La masa se amasa la tarde anterior y fermenta toda la noche en frío. En la mañana se extiende en "
                 "una plancha de un metro, se unta la mantequilla con el azúcar y la canela, se reparte la nuez y "
                 "se enrolla a mano antes de cortar las espirales con hilo, no con cuchillo, para que no se "
                 "aplasten. "
                 "Las espirales fermentan una hora más en el molde y se hornean 22 minutos a 175 °C; el glaseado se "
                 "pone cuando bajan a unos 40 °C."),
        nutrition=("por pieza de 120 g", 430, 18, 58, 24, 8),
        counter=(
            ("¿El glaseado lleva nuez? El glaseado es de queso crema, pero la nuez picada va encima del glaseado y "
             "también dentro del relleno, así que la pieza completa lleva nuez."),
            "¿Me lo pueden dar sin glaseado? Sí, si lo encarga con un día de anticipación; el precio es el mismo.",
            ("¿Cuántos roles caben en una caja para regalo? La caja de 6 es la más práctica para regalar; con "
             "moño y tarjeta cuesta $45 más, según la política de pedidos especiales."),
        ),
        alert=("Este rol de canela lleva nuez en la receta: va picada dentro del relleno y espolvoreada sobre el "
               "glaseado."),
        photo=("https://trigolento.example/fotos/rol-de-canela.jpg",
               "Rol de canela recién glaseado en la charola, con la nuez picada encima."),
        baker_says=("Sin nuez no es mi rol. Si alguien no puede comer nuez, que no se lleve éste: que pruebe la "
                    "concha."),
        allergen_notes=("No preparamos una versión sin nuez: la misma masa y la misma mesa sirven para todos los "
                        "roles.",),
    ),
    Product(
        key="concha-de-vainilla", name="Concha de vainilla", article="la", code="CV-02", icon="🐚",
        price="$18", unit="la pieza",
        other_prices=(("Concha de chocolate", "$18"), ("Bolsa de 10 conchas surtidas", "$170")),
        weight="80 g, unos 10 cm de diámetro",
        description=(
            "Pan de yema suave con la costra de azúcar, mantequilla y vainilla marcada a mano en forma de "
            "concha. Es la pieza de todos los días: la más barata del mostrador y la primera en salir.",
            "También la hacemos de chocolate con la misma masa; sólo cambia la costra, que lleva cacao en polvo. "
            "Las dos cuestan lo mismo y se pueden combinar en la bolsa de 10 conchas surtidas.",
        ),
        ingredients=("harina de trigo", "azúcar", "huevo", "mantequilla", "leche entera", "manteca vegetal",
                     "extracto de vainilla", "levadura", "sal"),
        sourcing=("La vainilla es de Papantla, Veracruz, en extracto natural sin alcohol añadido. La costra se "
                  "prepara cada mañana y no se guarda de un día para otro. La harina es la misma harina de trigo "
                  "panadero del resto del pan dulce, y la manteca vegetal de la costra es libre de grasas trans."),
        contains=("gluten", "huevo", "leche"), traces=("nuez", "ajonjolí"),
        days="todos los días", first_batch="7:30",
        room="1 día; es pan del día y al segundo ya se siente seco", fridge="no se recomienda: la costra se humedece",
        freezer="3 semanas en bolsa cerrada",
        reheat="Diez segundos en microondas con un vaso de agua al lado, o 3 minutos en horno a 150 °C. "
               "El vaso de agua evita que la miga se endurezca al enfriarse; sin él, la concha queda chiclosa a los "
               "cinco minutos.",
        serving=("Con chocolate caliente o café con leche, como merienda. Hay quien la abre y la rellena de nata; a "
                 "nosotros nos parece muy bien."),
        order_threshold=20, notice_hours=24,
        example_order=("3 bolsas de 10 conchas surtidas", 510),
        per_person=2,
        chilled=False,
        changes=(
            "12 de enero de 2026: el precio subió de $16 a $18.",
            ("9 de febrero de 2026: la concha de chocolate pasó a hacerse todos los días, no sólo los fines de "
             "semana."),
        ),
        where=(
            ("gluten", "en la masa y en la costra"),
            ("huevo", "en la masa de yema"),
            ("leche", "en la leche y la mantequilla de la masa y de la costra"),
        ),
        story=("Es la pieza con la que Don Ernesto aprendió el oficio, a los catorce años, en una panadería de la "
               "colonia Portales. Dice que una buena concha se reconoce porque la costra no se despega al morderla "
               "y porque la masa huele a mantequilla, no a esencia. "
               "En Trigo Lento se vende desde el primer día, en 2019, y nunca ha faltado en la vitrina."),
        daily=220, sellout="casi nunca se acaban, porque se hornean cuatro tandas",
        process=("La masa de yema se hace a las cinco de la mañana. Las bolitas se cubren con un disco de costra y "
                 "se marcan con un molde de latón que era del padre de Don Ernesto. Fermentan una hora más y entran "
                 "al horno a 180 °C durante 16 minutos. "
                 "Salen cuatro tandas entre las 7:30 y las 11:00; la costra se prepara en un solo lote cada mañana y "
                 "lo que sobra se tira, porque al día siguiente ya no marca bien."),
        nutrition=("por pieza de 80 g", 310, 11, 47, 18, 6),
        counter=(
            ("¿Por qué la costra a veces se cuartea? Porque la masa siguió creciendo después de marcarla; no es un "
             "defecto de sabor."),
            ("¿Hay conchas rellenas? Sólo en temporada de Rosca de Reyes hacemos conchas rellenas de nata; el resto "
             "del año, no."),
            ("¿A qué hora hay conchas calientes? La primera charola sale a las 7:30 y hay otras tres tandas "
             "antes de las 11:00; después del mediodía ya no se hornean."),
        ),
        photo=("https://trigolento.example/fotos/conchas.jpg",
               "Charola de conchas de vainilla y de chocolate antes de entrar al horno."),
    ),
    Product(
        key="cuernito-de-mantequilla", name="Cuernito de mantequilla", article="el", code="CM-03", icon="🥐",
        price="$32", unit="la pieza",
        other_prices=(("Cuernito relleno de jamón y queso", "$48"), ("Caja de 6 cuernitos", "$180")),
        weight="70 g",
        description=(
            "Nuestro cuernito es hojaldre fermentado al estilo del croissant, con 27 capas de mantequilla "
            "laminada a mano. Lleva tres días de proceso: masa, laminado y un reposo en frío antes de hornear.",
            "Por dentro debe verse como un panal; si está apretado, la tanda no salió bien y no se vende. "
            "Las piezas que salen chuecas o pálidas se usan para el budín de pan del equipo, no van a la vitrina.",
        ),
        ingredients=("harina de trigo", "mantequilla", "leche entera", "azúcar", "huevo (barniz)", "levadura", "sal"),
        sourcing=("La mantequilla es sin sal, con 82 % de grasa, de una cremería de Tulancingo, Hidalgo. "
                  "El relleno de jamón y queso usa jamón de pierna y queso manchego."),
        contains=("gluten", "leche", "huevo"), traces=("nuez", "almendra"),
        days="de martes a domingo", first_batch="8:00",
        room="1 día en bolsa de papel, nunca de plástico", fridge="sólo el relleno de jamón y queso, hasta 2 días",
        freezer="4 semanas; se recupera bien en horno",
        reheat="Horno a 180 °C durante 4 minutos; en microondas pierde lo crujiente. Si estaba congelado, déjelo 30 "
               "minutos a temperatura ambiente dentro de su bolsa y después al horno 5 minutos.",
        serving="Solo, con mermelada o abierto para un sándwich. El relleno se sirve tibio. "
                "Para un desayuno de oficina, el cuernito relleno se entrega partido a la mitad si lo pide al "
                "encargar, sin costo extra.",
        order_threshold=12, notice_hours=48,
        example_order=("4 cajas de 6 cuernitos", 720),
        per_person=1,
        chilled=False,
        changes=(
            "12 de enero de 2026: el cuernito relleno subió de $45 a $48.",
            ("24 de febrero de 2026: cambiamos de cremería; la mantequilla nueva tiene 82 % de grasa en lugar de "
             "80 %."),
        ),
        where=(
            ("gluten", "en el hojaldre"),
            ("leche", "en las capas de mantequilla y en la leche de la masa"),
            ("huevo", "en el barniz que le da el color dorado"),
        ),
        story=("Lo agregamos al mostrador en 2022, a petición de los vecinos que trabajan desde casa y bajan por un "
               "café a media mañana. Al principio salían veinte al día; hoy son casi noventa los fines de semana. "
               "El relleno de jamón y queso se agregó un año después, para los desayunos de oficina."),
        daily=70, sellout="entre semana alcanzan hasta la tarde, pero el domingo se terminan hacia el mediodía",
        process=("La mantequilla fría se encierra en la masa y se dobla tres veces con reposos de una hora en el "
                 "refrigerador. El tercer día se corta en triángulos, se enrolla, fermenta dos horas a 26 °C y se "
                 "hornea 18 minutos a 190 °C con un barniz de huevo. "
                 "El laminado se hace en la mesa fría del obrador, la más alejada del horno, para que la mantequilla "
                 "no se derrita entre capa y capa."),
        nutrition=("por pieza de 70 g", 290, 17, 29, 5, 5),
        counter=(
            ("¿Es lo mismo que un croissant? Es la misma técnica; le decimos cuernito porque así lo pide la gente "
             "del barrio."),
            "¿Lo tienen de almendra? No; el único relleno que hacemos es el de jamón y queso, de martes a viernes.",
            ("¿Por qué no lo meten al refrigerador? Porque la mantequilla se endurece y el hojaldre pierde lo "
             "crujiente; sólo el relleno de jamón y queso va en frío."),
        ),
        baker_says="Un cuernito se juzga por el ruido que hace al partirlo.",
    ),
    Product(
        key="oreja-de-hojaldre", name="Oreja de hojaldre", article="la", code="OH-04", icon="🦋",
        price="$22", unit="la pieza",
        other_prices=(("Lata de 12 orejas chicas", "$150"),),
        weight="60 g",
        description=(
            "La oreja (o palmera) es hojaldre doblado sobre sí mismo con azúcar y horneado hasta que "
            "caramela. Es crujiente, se rompe en hojas y no lleva relleno.",
            "Aprovecha los recortes de hojaldre del día, por eso hay más orejas los días en que hay más cuernitos. "
            "Las orejas chicas de la lata miden la mitad que la oreja normal y se hacen con los recortes más "
            "pequeños.",
        ),
        ingredients=("harina de trigo", "mantequilla", "azúcar", "agua", "sal"),
        sourcing="Usa la misma mantequilla laminada que el cuernito; el azúcar es estándar, sin colorantes. "
                 "No lleva huevo ni leche líquida: el sabor viene sólo de la mantequilla y del azúcar caramelizado.",
        contains=("gluten", "leche"), traces=("huevo", "nuez"),
        days="todos los días", first_batch="9:00",
        room="4 días en lata o frasco bien cerrado", fridge="no: la humedad la ablanda",
        freezer="no hace falta; dura bien a temperatura ambiente",
        reheat="No necesita recalentarse. Si se ablandó, 3 minutos en horno a 160 °C la dejan crujiente otra vez. "
               "Déjela enfriar antes de guardarla de nuevo en la lata, o el vapor la vuelve a ablandar.",
        serving="Para acompañar café o helado. La lata de orejas chicas es el regalo más fácil de llevar de viaje. "
                "La lata vacía se puede volver a llenar en mostrador, y entonces se cobran sólo las orejas: $130 por "
                "12 chicas.",
        order_threshold=24, notice_hours=24,
        example_order=("dos latas de orejas chicas", 300),
        per_person=2,
        chilled=False,
        changes=(
            "12 de enero de 2026: la lata de 12 orejas chicas subió de $140 a $150.",
        ),
        where=(
            ("gluten", "en el hojaldre"),
            ("leche", "en la mantequilla laminada"),
        ),
        story=("Las orejas nacieron para no tirar los recortes del hojaldre y se quedaron porque los niños del "
               "edificio de enfrente las piden por nombre. Son la pieza con menos desperdicio de todo el obrador. "
               "La lata de orejas chicas nació en 2023 como regalo de Navidad y se quedó todo el año."),
        daily=80, sellout="suelen quedar algunas hasta el cierre",
        process=("Los recortes de hojaldre se juntan, se estiran con azúcar en lugar de harina y se doblan desde "
                 "las dos orillas hacia el centro. Se cortan en rebanadas de un centímetro y se hornean "
                 "volteándolas a media cocción para que caramelicen por los dos lados. "
                 "Se hornean a 200 °C unos 16 minutos en total; si el azúcar se oscurece de más, la tanda se aparta "
                 "para el equipo."),
        nutrition=("por pieza de 60 g", 300, 17, 34, 15, 3),
        counter=(
            ("¿Las orejas llevan huevo? La receta no lleva huevo, pero se hornean junto a piezas barnizadas con "
             "huevo, por eso declaramos trazas."),
            ("¿La lata se puede rellenar? Sí: si trae la lata vacía, le cobramos sólo las orejas, $130 por 12 "
             "chicas."),
            ("¿Aguantan un viaje en avión? Sí; en su lata cerrada llegan enteras y duran 4 días, por eso es el "
             "regalo que más se lleva de viaje."),
        ),
    ),
    Product(
        key="baguette-de-masa-madre", name="Baguette de masa madre", article="la", code="BM-05", icon="🥖",
        price="$45", unit="la pieza",
        other_prices=(("Media baguette", "$25"),),
        weight="280 g, unos 55 cm de largo",
        description=(
            "Baguette de fermentación lenta con masa madre de trigo que Don Ernesto alimenta todos los días "
            "desde 2019. La masa reposa 18 horas en frío antes de formarse, y de ahí sale la corteza delgada "
            "y la miga con hoyos irregulares.",
            "No lleva leche, huevo, azúcar ni grasa: sólo harina, agua, sal y masa madre. "
            "Es el pan que más piden los restaurantes de la zona, y también el que más tarda en hacerse: casi dos "
            "días desde que se mezcla la masa hasta que sale del horno.",
        ),
        ingredients=("harina de trigo", "agua", "masa madre de trigo", "sal de mar"),
        sourcing="La harina es de trigo panadero de molino de piedra de Tlaxcala; la sal es de Colima. "
                 "No usamos mejorantes, enzimas ni levadura comercial en la baguette; la masa madre se alimenta con "
                 "la misma harina.",
        contains=("gluten",), traces=("ajonjolí",),
        days="todos los días", first_batch="12:00",
        room="2 días, envuelta en un trapo de algodón", fridge="no: el frío la endurece más rápido",
        freezer="2 meses, mejor ya cortada en trozos",
        reheat="Rocíe la corteza con un poco de agua y métala 6 minutos al horno a 200 °C. "
               "Si está congelada en trozos, no hace falta descongelar: 8 minutos a la misma temperatura.",
        serving=("Con mantequilla y sal, para sándwich o para acompañar una sopa. Se rebana mejor al día siguiente "
                 "con cuchillo de sierra."),
        order_threshold=10, notice_hours=48,
        example_order=("12 baguettes", 540),
        per_person=0,
        chilled=False,
        changes=(
            ("2 de febrero de 2026: la primera tanda se movió de las 11:00 a las 12:00 para alargar la "
             "fermentación en frío."),
            "12 de enero de 2026: se agregó la media baguette a $25.",
        ),
        where=(
            ("gluten", "en la harina de trigo y en la masa madre"),
        ),
        story=("La masa madre de esta baguette se llama Lupita y tiene su propio frasco en el refrigerador del "
               "obrador. Cuando Don Ernesto sale de vacaciones, alguien del equipo se encarga de alimentarla dos "
               "veces al día con harina y agua. "
               "La primera baguette salió en 2019, y durante meses Don Ernesto tiró la mitad de las tandas hasta que "
               "la fermentación quedó como quería."),
        daily=45, sellout="la mitad ya está apartada por encargos y el resto se acaba hacia las cinco de la tarde",
        process=("La masa se mezcla a mediodía, recibe cuatro pliegues durante la tarde y pasa la noche a 4 °C. Al "
                 "día siguiente se divide, se forma a mano, se le hace el corte con navaja y se hornea con vapor a "
                 "240 °C durante 24 minutos. "
                 "Al salir se deja enfriar en rejilla al menos una hora antes de venderse, porque la miga termina de "
                 "cocerse con el calor que le queda."),
        nutrition=("por cada 100 g", 250, 1, 51, 1, 9),
        counter=(
            ("¿Por qué la baguette sale hasta el mediodía? Porque la fermentación en frío manda; si la sacáramos "
             "antes, tendría menos sabor."),
            ("¿Me la pueden rebanar? La baguette no se rebana en máquina porque se aplasta; se puede partir en dos "
             "para llevarla."),
            ("¿Por qué está más cara que un bolillo? Porque lleva casi dos días de proceso y harina de molino de "
             "piedra; a cambio, dura dos días en lugar de medio."),
        ),
        photo=("https://trigolento.example/fotos/baguette.jpg",
               "Baguettes de masa madre enfriándose en la rejilla; se nota la oreja del corte."),
        allergen_notes=("Es apta para personas veganas, pero no para celíacas: es puro trigo.",),
    ),
    Product(
        key="pan-integral-de-semillas", name="Pan integral de semillas", article="el", code="PS-06", icon="🌾",
        price="$95", unit="la barra de 750 g",
        other_prices=(("Media barra", "$50"), ("Barra rebanada", "$100")),
        weight="750 g, en molde de caja",
        description=(
            "Pan de caja integral con harina de trigo entera, un poco de centeno y una mezcla de semillas: "
            "ajonjolí, linaza, girasol y pepita. Se endulza con un poco de miel y se hornea en molde.",
            "Lo piden sobre todo para la semana: una barra rebanada alcanza para unos 18 sándwiches. "
            "Es el único pan de la casa que se vende en bolsa de plástico cerrada, porque aguanta mejor así.",
        ),
        ingredients=("harina integral de trigo", "agua", "semillas (ajonjolí, linaza, girasol, pepita)",
                     "harina de centeno", "miel", "aceite de girasol", "levadura", "sal"),
        sourcing="La miel es de un apiario de Milpa Alta. Las semillas se tuestan en el obrador el mismo día.",
        contains=("gluten", "ajonjolí"), traces=("nuez", "cacahuate", "soya"),
        days="martes, jueves y sábado", first_batch="10:00",
        room="5 días en bolsa de plástico cerrada", fridge="no hace falta",
        freezer="3 meses ya rebanado, para sacar sólo lo que se va a tostar",
        reheat="Directo al tostador, incluso congelado. "
               "En sartén, con un poco de mantequilla, queda crujiente por fuera y suave por dentro en tres minutos "
               "por lado.",
        serving="Tostado con aguacate, para sándwich o con queso fresco y jitomate. "
                "La barra rebanada trae 18 rebanadas de un centímetro; si la prefiere más gruesa, pídala entera y "
                "rebánela en casa con cuchillo de sierra.",
        order_threshold=6, notice_hours=48,
        example_order=("4 barras rebanadas", 400),
        per_person=0,
        chilled=False,
        changes=(
            ("16 de febrero de 2026: se agregaron las trazas de soya, porque el molino de la harina integral "
             "cambió."),
            "12 de enero de 2026: la barra rebanada quedó en $100.",
        ),
        where=(
            ("gluten", "en la harina integral de trigo y en la de centeno"),
            ("ajonjolí", "en la mezcla de semillas de la masa y encima de la barra"),
        ),
        story=("Empezó como pan para el desayuno del equipo y pasó al mostrador cuando varias clientas preguntaron "
               "por qué no se vendía. Es el único pan de caja que hacemos, y en mostrador se ofrece rebanado o "
               "entero. Se hornea en moldes de 30 cm, y cada barra se pesa antes de entrar al horno para que todas "
               "den 750 g."),
        daily=25, sellout="se aparta casi todo por encargo los martes y jueves",
        process=("Las semillas se remojan la noche anterior para que no le roben agua a la masa. La masa se hace "
                 "con levadura y un poco de masa madre, se mete en moldes de caja engrasados con aceite y se hornea "
                 "40 minutos a 200 °C; se rebana hasta que está completamente frío. "
                 "La rebanadora se limpia antes de cada barra, pero comparte mesa con el pan dulce, y por eso las "
                 "trazas."),
        nutrition=("por rebanada de 40 g", 105, 3, 16, 2, 4),
        counter=(
            "¿Tiene azúcar? Lleva una cucharada de miel por barra, unos 2 g de azúcares por rebanada.",
            "¿Lo hacen sin ajonjolí? No, el ajonjolí va en la mezcla de semillas y también por encima de la barra.",
            ("¿Es pan de caja como el del súper? Es pan de molde, pero sin conservadores, por eso dura 5 días y "
             "no dos semanas; congelado rebanado aguanta 3 meses."),
        ),
    ),
    Product(
        key="pay-de-queso", name="Pay de queso", article="el", code="PQ-07", icon="🍰",
        price="$65", unit="la rebanada",
        other_prices=(("Pay entero de 22 cm (8 rebanadas)", "$520"), ("Pay chico de 12 cm", "$180")),
        weight="rebanada de 140 g",
        description=(
            "Pay horneado de queso crema sobre una base de galleta de mantequilla. Es cremoso, no gelatinoso, "
            "y se sirve frío. La superficie lleva una capa delgada de crema ácida.",
            ("Se prepara un día antes de venderse porque necesita al menos 12 horas de refrigerador para cortarse "
             "limpio. "
             "Por eso no se puede encargar para el mismo día: el pay entero necesita 72 horas de anticipación."),
        ),
        ingredients=("queso crema", "azúcar", "huevo", "crema ácida", "galleta de mantequilla (harina de trigo, "
                                                                      "mantequilla, azúcar)",
                     "mantequilla", "jugo de limón", "vainilla"),
        sourcing="El queso crema es de una marca mexicana con leche de vaca; no usamos sustitutos vegetales. La "
                 "crema ácida de la superficie es de la misma cremería de Tulancingo que nos vende la mantequilla.",
        contains=("leche", "huevo", "gluten"), traces=("nuez",),
        days="de miércoles a domingo", first_batch="11:00",
        room="no debe pasar más de 2 horas fuera del refrigerador", fridge="4 días tapado",
        freezer="1 mes el pay entero, sin la capa de crema ácida",
        reheat="No se calienta. Si estuvo congelado, se descongela 8 horas dentro del refrigerador. "
               "Nunca lo descongele en microondas ni a temperatura ambiente: el relleno suelta agua y la base se "
               "humedece.",
        serving="Frío, solo o con la salsa de frutos rojos que vendemos en frasco ($60). "
                "Para cortarlo limpio, moje el cuchillo en agua caliente y séquelo entre rebanada y rebanada.",
        order_threshold=8, notice_hours=72,
        example_order=("un pay entero y uno chico", 700),
        per_person=0,
        chilled=True,
        changes=(
            "12 de enero de 2026: el pay entero subió de $490 a $520.",
            "5 de marzo de 2026: se aclaró que la base de galleta lleva harina de trigo y por tanto gluten.",
        ),
        where=(
            ("leche", "en el queso crema, la crema ácida y la mantequilla de la base"),
            ("huevo", "en el relleno"),
            ("gluten", "en la galleta de trigo de la base"),
        ),
        story=("La receta es de la tía de Valeria, que lo vendía por rebanadas en una fonda de Coyoacán. Lo único "
               "que cambió Don Ernesto fue la galleta de la base, que ahora se hace en el obrador en lugar de "
               "comprarse. En Trigo Lento se vende desde 2020, y es el postre que más piden las oficinas para los "
               "cumpleaños del mes."),
        daily=48, sellout="el domingo conviene apartar, porque se termina antes de las tres",
        process=("La base de galleta se hornea sola diez minutos. Después se vierte el relleno batido a mano, sin "
                 "aire, y el pay se hornea a baño maría a 150 °C durante una hora. Se deja enfriar dentro del horno "
                 "apagado para que no se agriete y se refrigera toda la noche. "
                 "Cada pay entero sale de un molde de 22 cm y se corta en 8 rebanadas con cuchillo caliente."),
        nutrition=("por rebanada de 140 g", 480, 33, 36, 27, 9),
        counter=(
            "¿El pay de queso lleva gluten? Sí: el relleno no lleva harina, pero la base es de galleta de trigo.",
            ("¿Hacen pay de queso con zarzamora? No lo cubrimos con fruta; la salsa de frutos rojos se vende aparte "
             "para que cada quien la ponga al servir."),
            ("¿Lo puedo llevar a una comida en otra casa? Sí, en su caja y con una bolsa térmica; no debe pasar "
             "más de 2 horas fuera del refrigerador."),
        ),
        allergen_notes=("La base lleva galleta de trigo, así que el pay de queso tiene gluten aunque el relleno no "
                        "lleve harina.",),
        order_notes=("El pay entero se encarga con 72 horas de anticipación, como los pasteles; las rebanadas se "
                     "compran en mostrador sin encargo.",),
    ),
    Product(
        key="pastel-tres-leches", name="Pastel de tres leches", article="el", code="PT-08", icon="🎂",
        price="$420", unit="el chico (8 porciones)",
        other_prices=(
            ("Mediano (15 porciones)", "$650"),
            ("Grande (25 porciones)", "$980"),
            ("Rebanada, sólo fines de semana", "$70"),
        ),
        weight="chico de 18 cm, mediano de 24 cm, grande de 30 × 40 cm",
        description=(
            "Bizcocho de vainilla bañado en leche evaporada, leche condensada y crema, cubierto con crema "
            "batida y fruta de temporada. Es el pastel de cumpleaños de la casa y el que más se encarga.",
            ("Se arma el mismo día de la recogida para que el bizcocho no se deshaga; por eso se trabaja sólo por "
             "encargo. "
             "Los fines de semana se arma además un pastel mediano para vender por rebanada en mostrador, mientras "
             "dure."),
        ),
        ingredients=("leche evaporada", "leche condensada", "crema para batir", "harina de trigo", "huevo", "azúcar",
                     "fruta de temporada", "vainilla", "polvo para hornear"),
        sourcing=("La fruta cambia según la temporada: fresa de Irapuato en primavera, durazno en verano y mango en "
                  "mayo y junio. "
                  "La crema se bate en el obrador el mismo día y las tres leches se mezclan en la proporción de la "
                  "receta original, sin agua."),
        contains=("gluten", "leche", "huevo"), traces=("nuez", "almendra"),
        days="sólo por encargo, de martes a domingo", first_batch="10:00",
        room="no más de 1 hora fuera del refrigerador", fridge="3 días en su caja",
        freezer="no se congela: la crema se corta",
        reheat="No se calienta; sáquelo del refrigerador 15 minutos antes de servir. "
               "Así la crema está firme pero no helada, y el bizcocho suelta mejor el sabor de las tres leches.",
        serving="Para transportarlo, la caja va plana en el piso del coche, no en el asiento. "
                "Se sirve frío, directo del refrigerador; un pastel mediano se corta en 15 porciones con un cuchillo "
                "largo mojado en agua.",
        order_threshold=1, notice_hours=72,
        example_order=("un pastel mediano", 650),
        per_person=0,
        chilled=True,
        changes=(
            "12 de enero de 2026: nuevos precios del chico ($420), mediano ($650) y grande ($980).",
            ("20 de marzo de 2026: el aviso para encargar pasó de 48 a 72 horas, igual que en la política de "
             "pedidos especiales."),
        ),
        where=(
            ("gluten", "en el bizcocho"),
            ("leche", "en las tres leches del baño y en la crema batida"),
            ("huevo", "en el bizcocho"),
        ),
        story=("Fue el primer pastel por encargo de Trigo Lento, en 2019, para la boda de una vecina de la calle "
               "Petén. Desde entonces es el que más sale para cumpleaños, bautizos y primeras comuniones, sobre "
               "todo en mayo. "
               "En mayo de 2025 se hicieron 290 pasteles, casi el doble que en un mes normal."),
        daily=12, sellout="entero no se vende en mostrador, sólo por encargo",
        process=("El bizcocho se hornea un día antes y reposa tapado. El día de la recogida se baña con las tres "
                 "leches en dos tiempos, se rellena con fruta, se cubre con crema batida y se decora. Un pastel "
                 "mediano tarda unas dos horas entre baño, armado y decoración. "
                 "El mensaje se escribe al final, con manga, y se revisa contra la confirmación del encargo antes de "
                 "cerrar la caja."),
        nutrition=("por porción de 150 g", 380, 17, 50, 38, 8),
        counter=(
            "¿Se puede hacer sin fruta? Sí, con relleno sólo de crema; el precio no cambia.",
            ("¿Lo entregan armado a domicilio? Sí, dentro de las zonas de reparto y con un cargo extra por manejo "
             "de pastel; vea la política de entregas."),
            ("¿Se puede pedir el mismo día? No: el tres leches necesita al menos 72 horas de anticipación porque "
             "el bizcocho se hornea un día antes y se baña el día de la recogida."),
        ),
        photo=("https://trigolento.example/fotos/tres-leches.jpg",
               "Pastel de tres leches mediano con fresas, listo para entregar en su caja."),
        order_notes=("Podemos escribir un mensaje corto sobre la crema (hasta 30 caracteres) sin costo extra.",
               "Para decoración con figuras o fotografía comestible vea la «Política de pedidos especiales»."),
    ),
    Product(
        key="brownie-cacao-y-nuez", name="Brownie de cacao y nuez", article="el", code="BN-09", icon="🍫",
        price="$42", unit="la pieza",
        other_prices=(("Caja de 9 brownies", "$350"),),
        weight="90 g, cuadro de 7 cm",
        description=(
            "Brownie denso y húmedo con chocolate amargo al 70 % y cacao de Tabasco, con trozos de nuez "
            "en toda la masa. La costra de arriba cruje y el centro queda casi como trufa.",
            "Es la pieza que más se pide para cajas de regalo porque aguanta bien el viaje. "
            "También se pide mucho cortado en cuadritos para mesas de postres, aunque hay que recordar que lleva "
            "nuez.",
        ),
        ingredients=("chocolate amargo 70 %", "mantequilla", "azúcar", "huevo", "nuez pecana", "harina de trigo",
                     "cacao en polvo", "sal"),
        sourcing="El chocolate y el cacao vienen de una cooperativa de Comalcalco, Tabasco. "
                 "La nuez pecana es la misma de Coahuila que usamos en el rol de canela, y se pica en trozos más "
                 "grandes para que se sienta al morder.",
        contains=("gluten", "leche", "huevo", "nuez"), traces=("cacahuate", "almendra"),
        days="de miércoles a domingo", first_batch="11:30",
        room="5 días en recipiente cerrado", fridge="hasta 10 días; queda más firme",
        freezer="2 meses envuelto pieza por pieza",
        reheat="Diez segundos de microondas lo dejan como recién hecho. "
               "En horno, 4 minutos a 160 °C envuelto en papel aluminio para que no se reseque la orilla.",
        serving="Tibio con una bola de helado de vainilla, o frío y cortado en cuadritos para una mesa de postres. "
                "Para mesas de postres lo cortamos en 4 cuadritos por pieza; avise al encargar.",
        order_threshold=9, notice_hours=48,
        example_order=("dos cajas de 9 brownies", 700),
        per_person=1,
        chilled=False,
        changes=(
            "12 de enero de 2026: la caja de 9 brownies subió de $330 a $350.",
            "26 de febrero de 2026: el chocolate pasó de 60 % a 70 % de cacao.",
        ),
        where=(
            ("gluten", "en la harina de la masa"),
            ("leche", "en la mantequilla"),
            ("huevo", "en la masa batida"),
            ("nuez", "en trozos dentro de toda la masa"),
        ),
        story=("Lo desarrolló Valeria con Don Ernesto durante la pandemia, cuando la tienda vendía por ventanilla y "
               "hacían falta piezas que aguantaran un envío. Se quedó en el menú porque las empresas vecinas lo "
               "piden para regalar a fin de año. "
               "En diciembre de 2025 salieron más de 200 cajas de 9 brownies para empresas."),
        daily=54, sellout="rara vez se acaba, salvo en diciembre y en San Valentín",
        process=("El chocolate se funde con la mantequilla a fuego bajo, se bate con el azúcar y los huevos hasta "
                 "que se aclara y al final se incorporan la harina, el cacao y la nuez. Se hornea en charola a 170 "
                 "°C sólo 22 minutos para que el centro quede húmedo, y se corta al día siguiente. "
                 "Una charola da 24 brownies de 7 cm; los recortes de la orilla se venden en bolsa los domingos, "
                 "cuando hay."),
        nutrition=("por pieza de 90 g", 420, 26, 42, 30, 6),
        counter=(
            "¿Hay brownie sin nuez? No; la nuez va en toda la masa y no hacemos una versión aparte.",
            ("¿Cuánto dura en una caja de regalo? En su caja cerrada aguanta 5 días sin refrigerar, aunque sabe "
             "mejor los primeros tres."),
            ("¿Es muy dulce? Menos de lo que parece: el chocolate es amargo al 70 % y la nuez equilibra el "
             "azúcar. Cada pieza tiene unos 30 g de azúcares."),
        ),
        alert="El brownie trae nuez pecana en trozos dentro de toda la masa; no existe versión sin nuez.",
    ),
    Product(
        key="polvoron-de-cacahuate", name="Polvorón de cacahuate", article="el", code="PC-10", icon="🥜",
        price="$14", unit="la pieza",
        other_prices=(("Bolsa de 8 polvorones", "$100"),),
        weight="35 g",
        description=(
            "Galleta que se deshace en la boca, hecha con cacahuate tostado y molido, mantequilla y azúcar "
            "glass. Es una receta de la mamá de Don Ernesto y casi no ha cambiado.",
            ("Viene envuelto en papel de china de colores, uno por pieza, como se vendía en las panaderías de "
             "barrio. "
             "Se vende en una charola aparte, con su propia pinza, porque es la única pieza con cacahuate en la "
             "receta."),
        ),
        ingredients=("harina de trigo", "cacahuate tostado", "mantequilla", "azúcar glass", "canela", "sal"),
        sourcing="El cacahuate se tuesta y se muele en el obrador una vez por semana. "
                 "Es cacahuate mexicano sin sal, y el molino donde se muele no se usa para ningún otro ingrediente.",
        contains=("gluten", "cacahuate", "leche"), traces=("nuez", "almendra", "ajonjolí"),
        days="todos los días", first_batch="10:30",
        room="3 semanas en frasco de vidrio", fridge="no hace falta",
        freezer="no hace falta",
        reheat="No se calienta.",
        serving="Con café o té; en posadas y piñatas se reparte en bolsitas. "
                "Si los va a repartir en una fiesta infantil, recuerde que llevan cacahuate: conviene avisar a los "
                "papás en la invitación.",
        order_threshold=40, notice_hours=48,
        example_order=("5 bolsas de 8 polvorones", 500),
        per_person=2,
        chilled=False,
        changes=(
            "12 de enero de 2026: la bolsa de 8 polvorones subió de $90 a $100.",
        ),
        where=(
            ("gluten", "en la harina de trigo"),
            ("cacahuate", "tostado y molido dentro de la masa"),
            ("leche", "en la mantequilla"),
        ),
        story=("La mamá de Don Ernesto lo vendía en su puesto del mercado de Jamaica en los años setenta. La única "
               "concesión a los tiempos es la etiqueta con los alérgenos que ahora lleva cada bolsa. "
               "Don Ernesto dice que es la única receta que nunca se atrevería a cambiar."),
        daily=160, sellout="duran todo el día; en diciembre se hacen el doble",
        process=("El cacahuate se tuesta en el horno, se deja enfriar y se muele con el azúcar hasta que queda como "
                 "arena. Se mezcla con la harina y la mantequilla sin amasar, se forman bolitas de 35 g y se "
                 "hornean 14 minutos a 160 °C; al salir se revuelcan en azúcar glass con canela. Se forman al final "
                 "del turno, después de todas las demás piezas, y la mesa se lava antes de empezar la masa del día "
                 "siguiente."),
        nutrition=("por pieza de 35 g", 180, 11, 18, 8, 4),
        counter=(
            ("¿El polvorón lleva nuez? La receta no lleva nuez, lleva cacahuate; por compartir obrador puede tener "
             "trazas de nuez."),
            "¿Los venden para fiestas? Sí, desde 40 piezas, envueltos uno por uno, con dos días de anticipación.",
            ("¿Por qué se desmorona tanto? Porque la masa no se amasa, sólo se junta; así es el polvorón de "
             "verdad. Ábralo con cuidado sobre el papel de china."),
        ),
        alert="Lleva cacahuate molido en la masa: no es apto para personas con alergia al cacahuate.",
    ),
    Product(
        key="galletas-de-avena", name="Galletas de avena y pasas", article="las", code="GA-11", icon="🍪",
        price="$15", unit="la pieza",
        other_prices=(("Paquete de 6 galletas", "$80"),),
        weight="45 g, unos 9 cm",
        description=(
            "Galleta grande de avena, pasas y un toque de canela, crujiente en la orilla y suave en el centro. "
            "No lleva nuez ni chispas de chocolate, aunque mucha gente lo supone.",
            "Es la galleta que se da de prueba a los niños en mostrador cuando sus papás lo permiten. "
            "Siempre preguntamos antes a los papás por alergias, porque aunque la receta no lleva nuez ni cacahuate, "
            "puede traer trazas de los dos.",
        ),
        ingredients=("avena en hojuela", "harina de trigo", "mantequilla", "azúcar mascabado", "huevo", "pasas",
                     "canela", "bicarbonato", "sal"),
        sourcing="La avena no está certificada sin gluten, y además la receta lleva harina de trigo. "
                 "Las pasas son de Sonora y se hidratan en agua tibia antes de mezclarse, para que no le roben "
                 "humedad a la galleta.",
        contains=("gluten", "leche", "huevo"), traces=("nuez", "cacahuate"),
        days="todos los días", first_batch="9:30",
        room="1 semana en recipiente cerrado", fridge="no hace falta",
        freezer="la masa cruda congelada dura 2 meses; la galleta horneada no se congela",
        reheat="No hace falta; si quiere el centro suave, 8 segundos en microondas. Si se pusieron duras, guárdelas "
               "una noche en el frasco con una rebanada de pan: recuperan la humedad.",
        serving=("Con un vaso de leche o en la lonchera. El paquete de 6 viene en bolsa de papel cerrada con "
                 "etiqueta."),
        order_threshold=24, notice_hours=24,
        example_order=("4 paquetes de 6 galletas", 320),
        per_person=2,
        chilled=False,
        changes=(
            "12 de enero de 2026: el paquete de 6 galletas subió de $75 a $80.",
            ("10 de marzo de 2026: se quitaron las nueces de la decoración de temporada; la receta fija nunca las "
             "llevó."),
        ),
        where=(
            ("gluten", "en la harina de trigo, y la avena tampoco es certificada"),
            ("leche", "en la mantequilla"),
            ("huevo", "en la masa"),
        ),
        story=("Las hacemos desde que abrimos y son las únicas galletas que nunca han salido del menú. Muchas mamás "
               "las piden para el recreo porque no llevan chocolate ni nuez en la receta, aunque sí pueden traer "
               "trazas. "
               "Desde 2024 también se venden en paquete de 6, en bolsa de papel cerrada con etiqueta."),
        daily=120, sellout="suele haber hasta el cierre",
        process=("La masa se prepara con mantequilla suave y azúcar mascabado, se incorporan la avena y las pasas "
                 "hidratadas en agua tibia, y se deja reposar una hora en frío. Cada galleta se porciona con "
                 "cuchara de helado y se hornea 12 minutos a 175 °C. Se sacan del horno cuando la orilla está "
                 "dorada y el centro todavía se ve suave, porque terminan de cocerse en la charola."),
        nutrition=("por galleta de 45 g", 200, 8, 29, 14, 3),
        counter=(
            "¿Son galletas sin gluten? No: llevan harina de trigo y la avena no es certificada.",
            ("¿Tienen galletas con chispas de chocolate? No en el menú fijo; sólo aparecen en la caja de San "
             "Valentín y en Navidad."),
            "¿Cuántas trae el paquete? Seis galletas de 45 g, por $80; sueltas cuestan $15 cada una.",
        ),
    ),
    Product(
        key="pan-de-elote", name="Pan de elote", article="el", code="PE-12", icon="🌽",
        price="$48", unit="la porción",
        other_prices=(("Molde entero de 20 × 20 cm (6 porciones)", "$260"),),
        weight="porción de 150 g",
        description=(
            "Pan húmedo de elote fresco molido, con harina de maíz, mantequilla y leche condensada. No lleva "
            "harina de trigo. La textura queda entre pan y pudín, y la orilla se carameliza.",
            ("Sólo se hace cuando hay elote tierno en el mercado, así que de vez en cuando desaparece del mostrador "
             "unos días."),
        ),
        ingredients=("elote fresco", "leche condensada", "mantequilla", "huevo", "harina de maíz", "azúcar",
                     "polvo para hornear", "sal"),
        sourcing="El elote se compra en el mercado de Jamaica y se desgrana el mismo día. "
                 "La harina de maíz es de maíz amarillo nixtamalizado, y la leche condensada es la misma que usamos "
                 "en el tres leches.",
        contains=("leche", "huevo"), traces=("gluten", "nuez"),
        days="de viernes a domingo, si hay elote", first_batch="11:00",
        room="2 días tapado", fridge="5 días",
        freezer="1 mes en porciones",
        reheat="Veinte segundos en microondas o 5 minutos en horno a 170 °C. "
               "Tibio sabe mucho mejor que frío; si lo va a servir en una comida, métalo al horno mientras se sirve "
               "el café.",
        serving="Tibio, con un poco de crema o de cajeta. Para desayunar va con café de olla. "
                "El molde entero se entrega en charola de aluminio con tapa, listo para meter al horno si quiere "
                "servirlo tibio.",
        order_threshold=2, notice_hours=48,
        example_order=("dos moldes enteros", 520),
        per_person=0,
        chilled=False,
        changes=(
            "12 de enero de 2026: el molde entero subió de $240 a $260.",
            "6 de marzo de 2026: se agregó la advertencia de que no es apto para personas celíacas.",
        ),
        where=(
            ("leche", "en la leche condensada y la mantequilla"),
            ("huevo", "en la masa"),
        ),
        story=("El pan de elote entró en el verano de 2023, cuando un proveedor del mercado nos ofreció elote "
               "tierno a buen precio. Gustó tanto que ahora se hace cada fin de semana mientras haya elote bueno. "
               "En temporada de lluvias, cuando el elote es más dulce, se hacen hasta 50 porciones por día."),
        daily=36, sellout="cuando hay, se acaba antes de la una",
        process=("Los granos de elote se muelen con la leche condensada y los huevos; aparte se acrema la "
                 "mantequilla con el azúcar y se mezcla todo con la harina de maíz. Se hornea en moldes cuadrados a "
                 "170 °C durante 50 minutos, hasta que la orilla toma color. "
                 "Se deja enfriar 30 minutos en el molde antes de cortarlo en 6 porciones, porque caliente se "
                 "desmorona."),
        nutrition=("por porción de 150 g", 390, 17, 52, 31, 8),
        counter=(
            ("¿El pan de elote es sin gluten? No lleva harina de trigo, pero no podemos garantizar que esté libre "
             "de gluten porque se hace en el mismo obrador."),
            ("¿Por qué no hay pan de elote hoy? Porque no hubo elote tierno en el mercado; cuando pasa, lo avisamos "
             "en redes por la mañana."),
            ("¿Se puede encargar entre semana? Sólo se hornea de viernes a domingo, así que los encargos son "
             "para esos días y dependen de que haya elote en el mercado."),
        ),
        alert=("No lleva harina de trigo, pero se hornea en el mismo obrador: no lo recomendamos a personas "
               "celíacas."),
    ),
)


_ARTICLE = {"gluten": "el gluten", "leche": "la leche", "huevo": "el huevo", "nuez": "la nuez",
            "cacahuate": "el cacahuate", "ajonjolí": "el ajonjolí"}

_ALLERGY_HABITS = (
    "Si la alergia es grave, pida en mostrador la etiqueta del lote: trae la misma lista que esta ficha.",
    ("Las preguntas de alergias por mensaje las contesta siempre una persona del equipo, nunca una respuesta "
     "automática."),
    "Antes de un cumpleaños o de una fiesta escolar, revise esta sección con calma: los niños comparten piezas.",
)
_STORAGE_HABITS = (
    "El peor lugar para el pan es el refrigerador sin bolsa: ahí se seca el doble de rápido.",
    "Si piensa congelar, hágalo el mismo día de la compra y no cuando ya empezó a secarse.",
    "Para descongelar, deje la pieza dentro de su bolsa a temperatura ambiente y así no se humedece la superficie.",
)
_CHILLED_HABITS = (
    "Guárdelo en el refrigerador en cuanto llegue a casa: la crema y el queso no esperan.",
    "Si lo lleva lejos, pida en mostrador una bolsa térmica con hielo ($25).",
    "Tape bien lo que sobre: en el refrigerador absorbe los olores de otros alimentos.",
)
_JAR_HABITS = (
    "Guárdelo en un frasco o una lata bien cerrados, lejos de la estufa y del sol.",
    "La humedad es su enemiga: no lo deje destapado en la cocina ni cerca del fregadero.",
)
_PHOTO_NOTE = "Las fotos de esta ficha se tomaron en el obrador con piezas de una horneada normal, sin retoques."
_ORDER_HABITS = (
    "Los encargos se recogen en mostrador; para enviarlos a domicilio aplica la política de entregas.",
    "Puede pagar en efectivo, con tarjeta o por transferencia; los encargos grandes piden anticipo.",
    "Los precios cambian como mucho dos veces al año y siempre se avisa en mostrador con un mes de anticipación.",
)


def _lower_first(sentence: str) -> str:
    # After a colon a Spanish sentence goes on in lower case.
    return sentence[:1].lower() + sentence[1:]


def _description(product: Product, rng: np.random.Generator, filler: str) -> list[Block]:
    blocks: list[Block] = [h2("Descripción")]
    blocks += [p(text) for text in product.description]
    blocks.append(p(product.story))
    if product.baker_says:
        blocks.append(quote(f"{product.baker_says} — Don Ernesto"))
    blocks.append(p(f"Peso aproximado: {product.weight}. {filler}"))
    lead = one_of(rng, ("Cómo se hace: ", "En el obrador: ", "Cómo la preparamos: "))
    blocks.append(p(lead + _lower_first(product.process)))
    return blocks


def _ingredients(product: Product, rng: np.random.Generator) -> list[Block]:
    listing = one_of(rng, (
        "Ingredientes, de mayor a menor cantidad: {items}.",
        "En la etiqueta declaramos, en orden de peso: {items}.",
        "Lista de ingredientes en orden decreciente de peso: {items}.",
    )).format(items=", ".join(product.ingredients))
    basis, kcal, fat, carbs, sugar, protein = product.nutrition
    nutrition = (f"Información nutrimental aproximada {basis}: {kcal} kcal, {fat} g de grasa, {carbs} g de "
                 f"carbohidratos (de ellos {sugar} g de azúcares) y {protein} g de proteína. Es un cálculo con "
                 "tablas de referencia, no un análisis de laboratorio.")
    return [h2("Ingredientes declarados"), p(listing), p(product.sourcing), p(nutrition)]


def _allergens(product: Product, rng: np.random.Generator) -> list[Block]:
    blocks: list[Block] = [h2("Alérgenos")]
    if product.alert:
        blocks.append(callout(product.alert, icon="⚠️"))
    named = ", ".join(product.contains)
    where = "; ".join(f"{_ARTICLE[allergen]}, {place}" for allergen, place in product.where)
    blocks.append(p(one_of(rng, (
        f"Alérgenos declarados en la receta: {named}.",
        f"Esta pieza contiene {named}.",
        f"La receta incluye estos alérgenos: {named}.",
    )) + f" Dónde va cada uno: {where}."))
    traces = join_es(product.traces)
    pages = join_es([f"«{name}»" for name in sorted({ALLERGEN_PAGE[a] for a in product.contains + product.traces})])
    blocks.append(p(one_of(rng, (
        f"Puede llevar trazas de {traces}, porque en el mismo obrador se trabaja con ellos.",
        f"Por compartir mesas y hornos con otras piezas, puede contener trazas de {traces}.",
    )) + f" Las demás piezas con estos alérgenos están en {pages}. " + one_of(rng, _ALLERGY_HABITS)))
    blocks += [p(text) for text in product.allergen_notes]
    return blocks


def _price(product: Product, rng: np.random.Generator) -> list[Block]:
    blocks: list[Block] = [h2("Precio y encargos"), p(one_of(rng, (
        f"Precio en mostrador: {product.price} {product.unit}.",
        f"{product.name}: {product.price} {product.unit}, precio de mostrador con IVA incluido.",
    )))]
    blocks += [bullet(f"{label}: {price}") for label, price in product.other_prices]
    if product.order_threshold <= 1:
        order = (f"Se prepara sólo por encargo, con al menos {product.notice_hours} horas de anticipación y "
                 "un anticipo del 50 %.")
    else:
        order = one_of(rng, (
            f"Si necesita más de {product.order_threshold} piezas, encárguelas con al menos "
            f"{product.notice_hours} horas de anticipación para asegurar la charola.",
            f"A partir de {product.order_threshold} piezas conviene encargar con {product.notice_hours} "
            "horas de anticipación; en mostrador no siempre hay tantas.",
        ))
    blocks.append(p(f"{order} Al encargar por WhatsApp indique la clave {product.code}, la cantidad, el día y "
                    f"la hora de recogida. {one_of(rng, _ORDER_HABITS)}"))
    blocks.append(p(_deposit_example(product, rng)))
    blocks += [p(text) for text in product.order_notes]
    blocks += _party(product)
    return blocks


def _deposit_example(product: Product, rng: np.random.Generator) -> str:
    what, total = product.example_order
    if total < 500:
        deposit = (f"Por ejemplo, un encargo de {what} suma {pesos(total)} y se paga completo al confirmarlo, porque "
                   "queda por debajo de $500.")
    else:
        deposit = (f"Por ejemplo, un encargo de {what} suma {pesos(total)}: al confirmarlo se deja un anticipo de "
                   f"{pesos(total / 2)} y el resto se paga al recoger.")
    return deposit + " " + one_of(rng, (
        "Si cancela con 48 horas o más de anticipación, se le devuelve todo lo que pagó.",
        "Cancelar sin costo es posible hasta 48 horas antes de la hora de recogida.",
        "Las reglas para cancelar o mover la fecha están en la «Política de cancelaciones».",
    ))


def _storage_habits(product: Product) -> tuple[str, ...]:
    if product.chilled:
        return _CHILLED_HABITS
    # Pieces that keep for weeks in a jar never go near the freezer.
    return _JAR_HABITS if product.freezer.startswith("no ") else _STORAGE_HABITS


def _storage(product: Product, rng: np.random.Generator) -> list[Block]:
    return [
        h2("Conservación"),
        bullet(f"A temperatura ambiente: {product.room}."),
        bullet(f"En refrigerador: {product.fridge}."),
        bullet(f"En congelador: {product.freezer}."),
        p(one_of(rng, _storage_habits(product))),
        p(one_of(rng, ("Para recalentar: ", "Cómo recalentarlo: ", "Antes de servir: "))
          + _lower_first(product.reheat)),
    ]


def _made_to_order(product: Product) -> bool:
    return product.order_threshold <= 1


def _baking(product: Product, rng: np.random.Generator, filler: str) -> list[Block]:
    if _made_to_order(product):
        when = f"Se hace {product.days}; los encargos se entregan a partir de las {product.first_batch}."
        daily = f"Se preparan como máximo {product.daily} al día; {product.sellout}."
    else:
        when = one_of(rng, (
            f"Se hornea {product.days}. La primera charola sale hacia las {product.first_batch}.",
            f"Horneamos {product.article} {product.name.lower()} {product.days}; la primera tanda está lista hacia "
            f"las {product.first_batch}.",
        ))
        daily = f"Cada día salen unas {product.daily} piezas; {product.sellout}."
    return [h2("Cuándo se hornea"), p(f"{when} {daily} {filler}"), p(product.serving),
            h3("Dudas de mostrador"), *[p(text) for text in product.counter]]


def _summary(product: Product) -> Block:
    traces = f" Trazas: {join_es(product.traces)}." if product.traces else ""
    return p(f"Resumen: clave {product.code}; {product.price} {product.unit}; se hornea {product.days}. "
             f"Alérgenos: {join_es(product.contains)}.{traces} A temperatura ambiente: {product.room}.")


def _party(product: Product) -> list[Block]:
    if not product.per_person:
        return []
    people = 15
    pieces = people * product.per_person
    total = pieces * int(product.price.lstrip("$"))
    per_person = "una pieza" if product.per_person == 1 else "dos piezas"
    deposit = (f"como pasa de $500, se confirma con {pesos(total / 2)} de anticipo" if total >= 500
               else "como no llega a $500, se paga completo al confirmar")
    return [p(f"Para una reunión de {people} personas, con {per_person} por persona, calcule {pieces} "
              f"piezas: {pesos(total)} a precio de mostrador; {deposit}.")]


def _changes(product: Product) -> list[Block]:
    if not product.changes:
        return []
    return [h3("Cambios en esta ficha"), p(" ".join(product.changes))]


def product_sheet(product: Product, rng: np.random.Generator) -> list[Block]:
    """The blocks of "Ficha: <name>", built from the product's facts."""
    pool = FILLER["ficha"] if _made_to_order(product) else FILLER["ficha"] + FILLER["ficha_mostrador"]
    fillers = some_of(rng, pool, 2)
    if product.photo:
        fillers[1] = f"{fillers[1]} {_PHOTO_NOTE}"
    blocks: list[Block] = [image(*product.photo)] if product.photo else []
    blocks.append(_summary(product))
    blocks += _description(product, rng, fillers[0])
    blocks += _ingredients(product, rng)
    blocks += _allergens(product, rng)
    blocks += _price(product, rng)
    blocks += _storage(product, rng)
    blocks += _baking(product, rng, fillers[1])
    blocks += _changes(product)
    return blocks


_MONTHS = {"enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8,
           "septiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12}
_SPANISH_DATE = re.compile(r"(\d{1,2}) de (" + "|".join(_MONTHS) + r") de (\d{4})")


def latest_change(product: Product) -> date | None:
    """The latest date named in the sheet's change log: its page cannot have been edited before it."""
    dates = [date(int(year), _MONTHS[month], int(day))
             for change in product.changes for day, month, year in _SPANISH_DATE.findall(change)]
    return max(dates, default=None)


#: The twelve product sheets of the knowledge base, in menu order.
FICHAS: tuple[Outline, ...] = tuple(
    Outline(f"ficha-{product.key}", f"Ficha: {product.name}", "ficha", product.icon, partial(product_sheet, product))
    for product in PRODUCTS
)
