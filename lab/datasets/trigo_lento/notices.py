"""Seasonal notices ("Aviso: ..."): dated changes to hours, products and orders.

Notices are the pages that go stale: each one names its dates, and the lessons later unpublish
or trash some of them. Their hours always say which days they cover, so a reader can tell a
holiday schedule from the general one.
"""

from __future__ import annotations

import numpy as np

from .blocks import Block, bullet, callout, divider, h2, h3, image, p, quote, synced_reference, todo
from .outline import Outline
from .phrasing import FILLER, some_of
from .policies import GENERAL_HOURS_KEY

__all__ = ["NOTICES"]


def _may_day(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["aviso"], 3)
    return [
        callout("El viernes 1 de mayo es día de descanso obligatorio: la tienda abre medio día y no hay "
                "entregas a domicilio.", icon="📣"),
        h2("Fechas"),
        p("El puente del Día del Trabajo va del viernes 1 al domingo 3 de mayo de 2026. Sólo el viernes 1 tiene "
          "horario especial; el sábado 2 y el domingo 3 abrimos con el horario de siempre. El lunes 4 de mayo todo "
          "vuelve a la normalidad, también los repartos de mayoreo. El 1 de mayo es día de descanso obligatorio por "
          "ley, y queremos que el equipo lo disfrute al menos la tarde: por eso ese día cerramos temprano y no "
          "salen repartidores. Quienes trabajan el viernes en la mañana reciben el pago doble que marca la ley y "
          "eligen otro día de descanso esa semana. El obrador, en cambio, trabaja la madrugada del viernes con el "
          "turno completo para que la vitrina esté llena a las 8:00."),
        p("El jueves 30 de abril, Día del Niño, la tienda abre con horario normal y habrá mini roles de "
          "canela y mini conchas en bolsa de cuatro piezas por $45, mientras duren. "
          "Los mini roles llevan nuez, igual que el rol de tamaño normal; las mini conchas no llevan nuez en la "
          "receta, pero pueden traer trazas. No se encargan: se venden sólo en mostrador ese jueves. "
          "Son una bolsa por persona, para que alcancen para todos los niños que vengan."),
        h2("Horario"),
        p("El viernes 1 de mayo la tienda abre de 8:00 a 14:00, sólo para venta en mostrador y entrega de encargos; "
          "ese día no salen repartidores. Es el único día del puente con horario especial; a las 14:00 en punto se "
          "cierra la puerta, y quien ya esté dentro termina su compra con calma."),
        bullet("Sábado 2 de mayo: de 8:00 a 20:00, con entregas a domicilio de 10:00 a 18:00."),
        bullet("Domingo 3 de mayo: de 8:00 a 15:00, con entregas a domicilio de 10:00 a 14:00."),
        p("El WhatsApp de la tienda atiende el viernes 1 de 8:00 a 13:00. Los mensajes que lleguen después "
          "se contestan el sábado a primera hora, en orden de llegada. El obrador trabaja la madrugada del "
          "viernes como cualquier día, así que al abrir habrá pan completo; lo que no habrá es la segunda "
          "tanda de la tarde. "
          "Si necesita pan para la comida del viernes, venga antes de las 12:00: a partir de esa hora ya no salen "
          "charolas nuevas y la vitrina se va vaciando. "
          "El rol de canela y los cuernitos suelen acabarse antes de las 11:00 en días festivos; si los quiere "
          "seguro, encárguelos."),
        h3("Pan de ayer y canasta del sábado"),
        p("El sábado 2 de mayo, la canasta de pan de ayer tendrá lo que sobre del viernes a mitad de precio hasta "
          "las 12:00, como cualquier día. Como el viernes se cierra a las 14:00, suele haber más pan de ayer que de "
          "costumbre; lo que no se vende se dona al comedor comunitario de la colonia. "
          "El domingo 3 de mayo la canasta funciona igual, con lo que sobre del sábado."),
        h2("Encargos"),
        p("Los encargos para el puente (viernes 1, sábado 2 y domingo 3 de mayo) se reciben hasta el martes "
          "28 de abril a las 19:00, o antes si se llena la agenda de esos días. Después de esa hora sólo "
          "vendemos lo que haya en mostrador. "
          "Se pueden encargar todas las piezas de las fichas, con las anticipaciones de siempre: 72 horas para "
          "pasteles de tres leches y pays enteros, 48 horas para cajas de pan dulce. "
          "Si su pastel es para el viernes 1, recuerde que los encargos de ese día se recogen antes de las 13:30."),
        p("Los encargos del viernes 1 se recogen entre las 8:00 y las 13:30, para que haya tiempo de "
          "entregarlos todos antes de cerrar. Si no puede pasar en ese horario, pida su encargo para el "
          "sábado 2. "
          "La caja de encargos, junto a la puerta, abre desde las 8:00; diga su nombre o su folio y no haga fila."),
        p("Las cancelaciones siguen la política de siempre: sin costo hasta 48 horas antes de la hora de "
          "recogida. Para un pastel que se recoge el viernes a las 10:00, eso es hasta el miércoles 29 de "
          "abril a las 10:00."),
        h3("Entregas a domicilio"),
        p("El viernes 1 de mayo no hay entregas a domicilio. Los pedidos a domicilio para el fin de semana del "
          "puente se hacen hasta el jueves 30 de abril a las 19:00 y salen el sábado 2, de 10:00 a 18:00, o el "
          "domingo 3, de 10:00 a 14:00, con las zonas y costos de siempre. Las franjas de la mañana del sábado "
          "suelen llenarse primero."),
        h3("Cuentas de mayoreo"),
        p("No hay reparto de mayoreo el viernes 1 de mayo. Las cuentas que reciben los viernes tendrán su "
          "pedido el jueves 30 de abril en la entrega de la mañana, junto con el del jueves si lo tienen; "
          f"el pedido se hace a más tardar el miércoles 29 a las 14:00. {fill[0]} {fill[1]} {fill[2]}"),
    ]


def _epiphany(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["aviso"], 3)
    return [
        callout("La temporada de Rosca de Reyes 2026 terminó el 6 de enero. Dejamos aquí los tamaños, "
                "precios y reglas como referencia hasta que se publique el aviso de la próxima temporada.",
                icon="👑"),
        h2("Tamaños y precios"),
        bullet("Rosca chica, de 8 a 10 rebanadas: $320."),
        bullet("Rosca mediana, de 15 a 18 rebanadas: $480."),
        bullet("Rosca grande, de 25 a 30 rebanadas: $690."),
        bullet("Relleno de nata con nuez picada, en cualquier tamaño: $60 más."),
        p("La rosca tradicional lleva ate de membrillo, higo cristalizado y costra de azúcar con almendra molida. "
          "La chica lleva 3 muñequitos, la mediana 5 y la grande 7; los muñequitos son de plástico resistente al "
          "horno y van escondidos en la masa, así que hay que avisar a los niños. Se entrega en caja de cartón con "
          "cuchillo de plástico y una bolsa de papel para los muñequitos que vayan saliendo. Cada rosca lleva una "
          "tarjeta con sus alérgenos, y la rellena, además, una etiqueta roja que dice «contiene nuez». Las roscas "
          "se hornearon del 1 al 6 de enero en el horno de piso, de 30 en 30, y cada una se revisó a mano antes de "
          "entrar a su caja."),
        h2("Alérgenos de la rosca"),
        p("La rosca tradicional contiene gluten, leche, huevo y almendra. La rosca rellena contiene además nuez, "
          "que va picada dentro de la nata. Las dos pueden traer trazas de cacahuate y ajonjolí. En temporada de "
          "rosca el obrador trabaja almendra todos los días, así que esas semanas todo el pan puede traer trazas de "
          "almendra. Por la misma razón, en las semanas de rosca las conchas y los cuernitos declaran trazas de "
          "almendra además de las de siempre. En 2026 esa advertencia se publicó en las fichas de conchas y "
          "cuernitos del 15 de diciembre al 6 de enero y se retiró al terminar la temporada. Quien tenga alergia a "
          "la almendra debe saber que la costra de la rosca tradicional es la que la lleva, no la masa: aun así, no "
          "se puede quitar."),
        h2("Encargos y recogida"),
        p("La preventa abrió el 15 de diciembre de 2025 y cerró el 3 de enero de 2026 a las 19:00. Las roscas se "
          "recogieron del 2 al 6 de enero, con horario de recogida asignado en media hora; el 6 de enero la tienda "
          "abrió de 7:00 a 21:00 y sólo hubo roscas por encargo, sin venta de mostrador. Los turnos de recogida se "
          "asignaron al pagar el anticipo, en orden de llegada, y el 6 de enero se llenaron desde el 28 de "
          "diciembre. Las roscas grandes se entregaron con un cuchillo largo y una bolsa de muñequitos de repuesto, "
          "por si alguno se perdía al partirla."),
        p("Las cancelaciones de rosca, como todos los encargos de temporada, fueron sin costo hasta 72 "
          "horas antes de la recogida. Entre 72 y 48 horas se retuvo la mitad del anticipo, y con menos de "
          "48 horas el anticipo no se devolvió. "
          "Las roscas no recogidas el día de su turno se guardaron hasta el cierre y después se donaron al comedor "
          "comunitario de la colonia, como dice la política de pedidos especiales."),
        h3("Cómo se cortó la rosca en la tienda"),
        p("El 6 de enero partimos una rosca grande en la terraza a las 18:00 para quienes estaban en la fila, con "
          "café de olla gratis. A quien le salió uno de los siete muñequitos le regalamos una caja de 6 conchas para "
          "la Candelaria. Lo repetiremos en 2027 si el clima lo permite."),
        h3("Día de la Candelaria"),
        p("A quien le salió el muñequito le toca invitar los tamales el 2 de febrero. Nosotros no hacemos "
          "tamales, pero ese día tuvimos atole de vainilla y de chocolate ($35 el vaso) y conchas rellenas "
          "de nata para acompañar. "
          "El atole se vende en vaso de 350 ml y, como lleva leche entera, declara leche; el de chocolate lleva "
          "además cacao de la misma cooperativa de Tabasco que el brownie."),
        h2("Conservación de la rosca"),
        p("La rosca tradicional dura 3 días a temperatura ambiente en su caja cerrada y se puede congelar hasta un "
          "mes, ya rebanada. La rosca rellena de nata va al refrigerador y dura 2 días; no se congela. Para "
          "recalentar una rebanada de rosca tradicional, bastan 10 segundos en microondas o 3 minutos en horno a 160 "
          "°C. "
          "La rosca que sobró se puede convertir en budín o en torrejas; en redes compartimos la receta de torrejas "
          "de rosca de Don Ernesto."),
        h2("Lo que aprendimos esta temporada"),
        p("Vendimos 412 roscas, 60 más que en 2025, y el 6 de enero la fila llegó a la esquina de Eugenia. Para la "
          "próxima temporada la preventa abrirá el 1 de diciembre y habrá dos cajas sólo para entregar roscas "
          "pagadas. También vamos a limitar la rosca grande a 40 por día, porque es la que más tarda en hornearse y "
          "la que más espacio ocupa en el horno de piso. Quienes encargaron en 2026 recibirán un mensaje el 1 de "
          "diciembre con la apertura de la preventa."),
        p("La rosca rellena fue la más pedida, y también la que más preguntas de alérgenos generó: mucha "
          "gente no sabía que la nata llevaba nuez. En el aviso de la próxima temporada la nuez irá en "
          f"negritas en el precio. {fill[0]} {fill[1]} {fill[2]}"),
    ]


def _holy_week(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["aviso"], 3)
    return [
        p("La Semana Santa de 2026 va del Domingo de Ramos, 29 de marzo, al Domingo de Pascua, 5 de abril. "
          "La tienda abre todos los días; cambia el horario del Viernes Santo y hay capirotada los viernes "
          "de Cuaresma. "
          "Como todos los años, el obrador descansa la noche del Viernes Santo, así que el Sábado de Gloria habrá "
          "menos variedad en la mañana. "
          "Los horarios de Semana Santa valen sólo para esas fechas; desde el lunes 6 de abril rige el horario "
          "general."),
        h2("Horario de Semana Santa"),
        bullet("Lunes 30 y martes 31 de marzo, miércoles 1 de abril: horario normal, de 7:30 a 20:00."),
        bullet("Jueves Santo, 2 de abril: de 7:30 a 18:00."),
        bullet("Viernes Santo, 3 de abril: de 8:00 a 15:00, sin entregas a domicilio."),
        bullet("Sábado de Gloria, 4 de abril: de 8:00 a 20:00."),
        bullet("Domingo de Pascua, 5 de abril: de 8:00 a 15:00."),
        p("Desde el lunes 6 de abril volvemos al horario de siempre:"),
        synced_reference(GENERAL_HOURS_KEY),
        h2("Capirotada de Cuaresma"),
        p("Los viernes de Cuaresma, del 20 de febrero al 3 de abril, hacemos capirotada con bolillo del "
          "obrador, miel de piloncillo con canela y clavo, queso Cotija, pasas, cacahuate y nuez. La "
          "porción cuesta $85 y el refractario para 8 personas, $560. Se encarga con 48 horas de "
          "anticipación o se compra en mostrador mientras haya. "
          "El viernes 3 de abril, Viernes Santo, es el último día de capirotada de la temporada; ese día se hacen 80 "
          "porciones y sólo se vende en mostrador lo que no esté encargado. "
          "Los demás viernes se preparan unas 50 porciones y suele quedar capirotada hasta las 14:00."),
        callout("La capirotada lleva cacahuate y nuez entre las capas, además de gluten y leche. No se "
                "prepara sin ellos.", icon="⚠️"),
        p("La capirotada se come tibia o a temperatura ambiente y dura 3 días en el refrigerador, tapada. "
          "Para recalentarla, 20 minutos en horno a 160 °C cubierta con papel aluminio. "
          "No se congela, porque el pan se deshace al descongelarse. El refractario para 8 personas se entrega en "
          "charola de aluminio con tapa, lista para meter al horno. "
          "La porción se vende en vaso de cartón con tapa, para llevar. "
          "El refractario para 8 personas se encarga con 48 horas de anticipación y, por ser de $560, deja $280 de "
          "anticipo."),
        h2("Alérgenos del pan de temporada"),
        p("La capirotada lleva bolillo de trigo, queso Cotija, cacahuate y nuez, así que contiene gluten, leche, "
          "cacahuate y nuez; puede traer trazas de ajonjolí. El pan de Pascua contiene gluten, leche y huevo. Como "
          "siempre, las preguntas de alergias las contesta una persona del equipo con el texto de este aviso y de "
          "las fichas. "
          "Quien tenga alergia a la nuez o al cacahuate no debe comer capirotada: no hay versión sin ellos."),
        h2("Encargos y entregas"),
        p("Los encargos para Jueves y Viernes Santo se reciben hasta el lunes 30 de marzo a las 19:00. El Viernes "
          "Santo no hay entregas a domicilio ni reparto de mayoreo; el sábado 4 de abril las entregas salen con "
          "normalidad. Las cancelaciones de capirotada siguen la regla de siempre: sin costo hasta 48 horas antes "
          "de la recogida; las de encargos de pastel para Pascua, también. El jueves 2 de abril los pedidos a "
          "domicilio salen con normalidad, pero la última franja termina a las 16:00 porque la tienda cierra a las "
          "18:00. El Domingo de Pascua hay entregas de 10:00 a 14:00, como cualquier domingo."),
        p("Las cuentas de mayoreo que reciben los viernes tendrán su pedido el jueves 2 de abril, y las que "
          f"reciben los sábados lo tendrán como siempre, aunque con menos variedad. {fill[0]}"),
        h2("Pan de Pascua"),
        p("Para el Domingo de Pascua, 5 de abril, hacemos un pan de yema trenzado con naranja y anís, decorado con "
          "azúcar glass. Cuesta $160 y alcanza para 8 personas. Contiene gluten, leche y huevo y puede traer trazas "
          "de nuez y cacahuate. Se encarga hasta el jueves 2 de abril a las 18:00 y se recoge el sábado 4 o el "
          "domingo 5. "
          "Un pan de Pascua de $160 se paga completo al encargar, porque queda por debajo de $500. "
          "Dura 3 días en su bolsa cerrada y se puede congelar hasta un mes, ya rebanado."),
        h3("Lo que falta antes del jueves"),
        todo("Avisar a las cuentas de mayoreo del cambio de reparto.", True),
        todo("Publicar el horario en la puerta y en redes.", True),
        todo("Confirmar el piloncillo y el queso Cotija de la última capirotada.", False),
        p(f"{fill[1]} {fill[2]}"),
    ]


def _valentine(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["aviso"], 3)
    return [
        image("https://trigolento.example/fotos/caja-san-valentin.jpg",
              "Caja de San Valentín con seis galletas de corazón y dos brownies, con moño rojo."),
        p("El sábado 14 de febrero de 2026 es Día del Amor y la Amistad. Como cada año, preparamos piezas "
          "especiales sólo para esa semana, del martes 10 al sábado 14 de febrero. Fuera de esas fechas las "
          "galletas de corazón y las conchas rosas no se hacen, aunque se pidan por encargo; la caja de brownies sí "
          "se puede encargar todo el año. El año pasado vendimos 180 cajas y se acabaron el jueves 12; este año "
          "hicimos lugar en el horno para 250. Las piezas de temporada se suman al menú de siempre: esa semana hay "
          "conchas, roles y brownies como cualquier otra, y la vitrina se reorganiza para que las cajas de regalo "
          "no tapen el pan del día."),
        h2("Piezas de temporada"),
        bullet("Galletas de corazón con chispas de chocolate: $20 la pieza o $110 la bolsa de 6."),
        bullet("Caja de San Valentín (6 galletas de corazón y 2 brownies de cacao y nuez): $220."),
        bullet("Conchas rosas de fresa: $22 la pieza, sólo el viernes 13 y el sábado 14."),
        bullet("Pastel de tres leches chico en forma de corazón: $480, sólo por encargo."),
        p("Las galletas de corazón contienen gluten, leche y huevo y pueden traer trazas de nuez y "
          "cacahuate. La caja de San Valentín lleva brownies, que llevan nuez en la receta. Las conchas "
          "rosas llevan la misma masa que la concha de vainilla, con costra de fresa natural. "
          "La costra rosa se colorea con fresa deshidratada molida, no con colorantes artificiales, y por eso el "
          "color es más pálido que el de otras panaderías. "
          "Los pasteles de corazón son de tres leches de vainilla con fresa, con los alérgenos de su ficha: gluten, "
          "leche y huevo, y trazas de nuez y almendra. "
          "Las piezas de San Valentín se venden del martes 10 al sábado 14; no se guardan para la semana siguiente. "
          "Las galletas de corazón llevan la misma masa que las galletas de temporada de Navidad, con chispas de "
          "chocolate semiamargo; por eso no tienen la avena ni las pasas de las galletas del menú fijo."),
        h2("Encargos"),
        p("Las cajas de San Valentín y los pasteles de corazón se encargan hasta el miércoles 11 de febrero "
          "a las 19:00, con las reglas de anticipo de siempre: los encargos de menos de $500 se pagan "
          "completos y los de $500 o más dejan la mitad. "
          "Una caja de San Valentín de $220 se paga completa al encargar; tres cajas, que suman $660, dejan $330 de "
          "anticipo. Las cancelaciones siguen la política de siempre: sin costo hasta 48 horas antes de la recogida. "
          "Para cajas encargadas para el sábado 14, eso significa cancelar a más tardar el jueves 12 a la hora de "
          "recogida."),
        p("El sábado 14 sólo habrá cajas de San Valentín por encargo; en mostrador venderemos galletas "
          "sueltas y en bolsa mientras duren. Se pueden poner tarjetas escritas a mano sin costo. "
          "Para recoger las cajas encargadas el sábado 14 habrá una mesa aparte junto a la puerta, de 8:00 a 20:00, "
          "para que nadie tenga que hacer la fila del mostrador. "
          "Esa mesa atiende sólo encargos pagados; los encargos con saldo pendiente se liquidan en la caja normal."),
        h3("Conservación de las piezas de San Valentín"),
        p("Las galletas de corazón duran una semana en su bolsa cerrada y los brownies de la caja, 5 días sin "
          "refrigerar. El pastel de corazón va al refrigerador y dura 3 días. Si compra la caja el jueves para "
          "regalarla el sábado, guárdela cerrada en un lugar fresco, lejos del sol. "
          "Las conchas rosas son pan del día y conviene comerlas el mismo día de la compra."),
        h2("Entregas el 14 de febrero"),
        p("El sábado 14 habrá entregas a domicilio de 9:00 a 18:00, una hora antes que de costumbre, sólo en las "
          "zonas 1 y 2. Si la entrega es sorpresa, díganoslo al encargar y el repartidor no llamará antes de "
          "llegar; dejará el regalo con quien abra la puerta. Las entregas del 14 se reparten en tres franjas, de "
          "9:00 a 12:00, de 12:00 a 15:00 y de 15:00 a 18:00, con un máximo de diez entregas por franja; el envío "
          "cuesta lo de siempre: $40 en la zona 1 y $70 en la zona 2."),
        quote("Lo que más se vende en San Valentín no son los corazones: son los brownies. — Valeria"),
        p(f"{fill[0]} {fill[1]} {fill[2]}"),
    ]


def _oven_service(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["aviso"], 3)
    return [
        callout("El lunes 20 de abril no habrá pan recién horneado: el horno principal estará en "
                "mantenimiento.", icon="🔧"),
        h2("Qué pasa ese día"),
        p("Una vez al año se revisan los quemadores, los sellos de las puertas y el sistema de vapor del horno de "
          "piso. La revisión dura todo el día y el horno no se puede usar ni la noche anterior, porque tiene que "
          "estar frío cuando llega el técnico. Es la revisión que pide el fabricante para mantener la garantía del "
          "horno, y la hacemos en lunes porque es el día con menos encargos y sin entregas a domicilio. El técnico "
          "viene de Guadalajara y trae las refacciones que pedimos con un mes de anticipación; si alguna no llega, "
          "la revisión se hace igual y sólo se cambia lo que haya. El horno pequeño de convección, que usamos para "
          "galletas y polvorones, sí funciona ese día; por eso hay galletas. El técnico revisa también la campana "
          "de extracción y la instalación de gas, y deja un reporte que guardamos con los papeles de protección "
          "civil."),
        p("El lunes 20 de abril la tienda abre de 8:00 a 13:00, con menú reducido: café, galletas de "
          "avena, polvorones, orejas y el pan integral del sábado. No habrá conchas, roles, cuernitos, "
          "baguette ni pay de queso. "
          "La canasta de pan de ayer tendrá lo que quede del domingo a mitad de precio, como siempre. "
          "Como el domingo cerramos a las 15:00, ese lunes habrá poco pan de ayer; si necesita pan para el lunes 20, "
          "lo mejor es comprarlo el sábado 18 y congelarlo el mismo día, como explica la página de conservación."),
        h2("Encargos y entregas"),
        p("No se reciben encargos para recoger el lunes 20 ni el martes 21 de abril antes de las 12:00. Los "
          "encargos que ya estaban confirmados para esas fechas se movieron, con el acuerdo de cada cliente, al "
          "sábado 18 o al martes 21 por la tarde. Quien no pudo cambiar de fecha recibió de vuelta todo su "
          "anticipo, aunque faltaran menos de 48 horas, porque el cambio fue nuestro; además le dimos el cupón del "
          "10 % que marca la política de cancelaciones. Si usted tenía un encargo para esos días y no recibió "
          "nuestro mensaje, escríbanos por WhatsApp: lo resolvemos con las mismas condiciones. Los encargos para el "
          "martes 21 por la tarde se reciben con normalidad, con las anticipaciones de siempre."),
        p("Los lunes no hay entregas a domicilio, así que ese día no cambia nada para los pedidos a "
          "domicilio. El martes 21 las entregas empiezan a las 12:00 en lugar de las 10:00. "
          "La franja de mañana del martes 21 no existe; quienes la habían elegido pasan a la franja de mediodía, de "
          "13:00 a 16:00, sin costo extra. "
          "Las entregas del miércoles 22 en adelante no cambian. "
          "Los pedidos a domicilio del sábado 18 salen con normalidad, y conviene pedirlos temprano porque es el "
          "último día con pan completo antes del mantenimiento."),
        h3("Cuentas de mayoreo"),
        p("El martes 21 de abril no hay reparto de mayoreo por la mañana; los pedidos de ese día se "
          "entregan el sábado 18 junto con el del sábado, o el martes a las 12:00, como elija cada cuenta. "
          "Cada cuenta ya eligió una de las dos opciones en su grupo de WhatsApp; las que no contestaron reciben el "
          "martes a las 12:00. "
          "El aviso a las cuentas se mandó el lunes 30 de marzo, tres semanas antes, con la lista de lo que no habrá "
          "ese día."),
        h3("Por qué avisamos con tanta anticipación"),
        p("Un lunes sin horno cambia los pedidos de mayoreo, los encargos de dos días y lo que hay en la vitrina. "
          "Publicamos este aviso tres semanas antes para que nadie se entere en la puerta, y para que las cuentas "
          "de mayoreo puedan pedir un día antes lo que necesiten. Los cambios de este tipo se publican en la base "
          "de conocimiento, en la puerta y en redes el mismo día. Si tiene una duda sobre un encargo de esos días, "
          "escríbanos por WhatsApp con su folio y le contestamos con la fecha nueva."),
        h2("Cómo vamos"),
        todo("Confirmar la fecha con el técnico del horno.", True),
        todo("Avisar a las cuentas de mayoreo.", True),
        todo("Mover los encargos del lunes 20 y del martes 21 por la mañana.", True),
        todo("Recibir la refacción del sistema de vapor.", False),
        todo("Publicar el aviso en la puerta de la tienda.", False),
        p("Si la refacción no llega a tiempo, el mantenimiento se moverá al lunes 27 de abril y lo "
          f"avisaremos aquí y en redes. {fill[0]} {fill[1]} {fill[2]}"),
    ]


def _sidewalk_works(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["aviso"], 3)
    return [
        p("La alcaldía Benito Juárez está renovando las banquetas de la calle Petén entre Eugenia y "
          "Xola. Según el letrero de la obra, los trabajos van del lunes 13 de abril al viernes 8 de mayo "
          "de 2026, y la cuadra de la tienda está en el tramo de la segunda semana. "
          "La obra frente al local, en concreto, está programada del lunes 20 al viernes 24 de abril; el resto del "
          "tiempo se trabaja en las cuadras vecinas y la entrada principal queda libre. "
          "Las fechas son las que publicó la alcaldía; si la obra se alarga, actualizaremos este aviso y lo diremos "
          "en la puerta. Ninguna de estas fechas cambia los horarios de la tienda ni los plazos de encargos y "
          "cancelaciones. "
          "La obra forma parte del programa de banquetas de la alcaldía para las colonias Narvarte y Del Valle de "
          "este año."),
        h2("Cómo entrar a la tienda"),
        p("Mientras dure la obra frente al local, la entrada con rampa queda cerrada y se entra por la puerta "
          "lateral, junto a la farmacia, que tiene un escalón de 15 cm. Si usa silla de ruedas o carriola, toque el "
          "timbre de la puerta lateral y le atendemos en la banqueta. Dentro de la tienda todo sigue igual: el "
          "mostrador bajo para sillas de ruedas, la caja de encargos junto a la puerta principal, que durante la "
          "obra se mueve junto a la puerta lateral, y el baño para clientes. La caja de encargos se reconoce por el "
          "letrero verde con la palabra «Encargos». Durante la obra, la fila del mostrador se forma dentro de la "
          "tienda y no en la banqueta."),
        p("No habrá lugares de parquímetro en nuestra cuadra durante la obra. La esquina de Petén y Eugenia sigue "
          "abierta para bajar y subir pasaje por unos minutos. Las bicicletas se pueden dejar en el "
          "biciestacionamiento de la esquina, que no se toca durante la obra; el de enfrente de la tienda se retira "
          "del 20 al 24 de abril. La estación de Ecobici de media cuadra sigue funcionando. El repartidor de la "
          "bicicleta sale por la puerta lateral y la camioneta se estaciona en la esquina, así que las entregas a "
          "domicilio no cambian. Si algún día la camioneta no puede llegar a la esquina, el repartidor carga el "
          "pedido a pie desde Eugenia; los pasteles grandes pueden salir con unos minutos de retraso."),
        h2("Encargos grandes"),
        p("Si recoge un pastel grande o varias cajas, escríbanos cuando esté por llegar y se los sacamos a "
          "la esquina de Eugenia para que no tenga que estacionarse. Mencione su folio en el mensaje. "
          "Para pasteles grandes y charolas para eventos, le sugerimos la entrega a domicilio durante esas semanas: "
          "el envío cuesta lo de siempre y el repartidor sale por la puerta lateral. "
          "Si prefiere recoger, pida al encargar la hora en que pasará y tendremos todo listo en la puerta lateral. "
          "Los encargos de pastel durante la obra se entregan con la caja dentro de una bolsa grande, para "
          "protegerlos del polvo de la calle."),
        h2("Horario y entregas"),
        p("El horario de la tienda no cambia y las entregas a domicilio salen como siempre; el repartidor "
          "sale por la puerta lateral. Puede haber ruido y polvo entre las 9:00 y las 17:00, así que las "
          "mesas de la terraza quedarán guardadas hasta que termine la obra frente al local. "
          "El café y el chocolate caliente se siguen vendiendo para llevar. Las mesas vuelven a la terraza en cuanto "
          "la alcaldía retire las vallas de nuestra cuadra. "
          "Si viene con niños, tenga cuidado en la esquina: la banqueta está abierta en algunos tramos y las vallas "
          "no siempre están bien puestas."),
        p("Las piezas de la vitrina están protegidas con cortina y el obrador trabaja de noche, cuando no "
          f"hay obra, así que el pan no se ve afectado. {fill[0]}"),
        h3("Preguntas de vecinos"),
        p("¿La obra es de Trigo Lento? No: es de la alcaldía, y nosotros sólo avisamos cómo afecta a la tienda. "
          "¿Van a cerrar algún día? No está previsto; si la alcaldía necesitara cerrar el paso por completo, lo "
          "avisaremos aquí con al menos un día de anticipación. ¿Siguen los parquímetros? Sólo en las cuadras que "
          "no están en obra. ¿Se ensucia el pan? No: la vitrina está cerrada y el obrador trabaja de noche, cuando "
          "no hay obra. ¿Hay descuento por las molestias? No, pero el café de la semana del 20 al 24 de abril "
          "cuesta $5 menos para llevar."),
        divider(),
        p(f"Gracias por la paciencia; cuando terminen, la banqueta será más ancha y tendrá una rampa nueva. "
          f"{fill[1]} {fill[2]}"),
    ]


NOTICES: tuple[Outline, ...] = (
    Outline("aviso-puente-1-de-mayo", "Aviso: puente del 1 de mayo", "aviso", "📣", _may_day),
    Outline("aviso-rosca-de-reyes", "Aviso: Rosca de Reyes", "aviso", "👑", _epiphany),
    Outline("aviso-semana-santa-2026", "Aviso: Semana Santa 2026", "aviso", "🕊️", _holy_week),
    Outline("aviso-san-valentin-2026", "Aviso: San Valentín 2026", "aviso", "💌", _valentine),
    Outline("aviso-mantenimiento-del-horno", "Aviso: mantenimiento del horno", "aviso", "🔧", _oven_service),
    Outline("aviso-obras-en-la-banqueta", "Aviso: obras en la banqueta", "aviso", "🚧", _sidewalk_works),
)
