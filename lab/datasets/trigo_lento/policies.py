"""Policies ("Política de ..."): the rules customers and the counter staff go by.

These pages carry most of the numbers the labelled questions ask about (deadlines, deposits,
fees, minimums), so each rule is stated once, in one place, with its figures.
"""

from __future__ import annotations

import numpy as np

from .blocks import (Block, bold, bullet, callout, code, code_run, columns, divider, equation, h1, h2, h3, link,
                     numbered, p, quote, synced_original, table, todo)
from .outline import Outline
from .phrasing import FILLER, some_of

__all__ = ["POLICIES", "GENERAL_HOURS_KEY"]

#: Key of the synced block that holds the general opening hours (shown again on other pages).
GENERAL_HOURS_KEY = "horario-general"


def _cancellations(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["politica"], 3)
    return [
        p("Esta política aplica a todos los encargos con fecha y hora de recogida: pasteles, cajas de pan "
          "dulce, charolas para eventos y pedidos de temporada. Las compras de mostrador no se cancelan, "
          "porque se pagan y se entregan en el momento. "
          "También aplica a los pedidos a domicilio, que son encargos con fecha y franja de entrega: para ellos el "
          "plazo se cuenta desde el inicio de la franja que eligió. Las reglas de esta página son las mismas en "
          "mostrador, por WhatsApp y por teléfono, y ningún empleado puede ampliarlas por su cuenta."),
        h2("Plazos para cancelar"),
        p("Un encargo de pastel, de caja de pan dulce o de charola para evento se cancela sin costo hasta 48 "
          "horas antes de la hora de recogida que quedó anotada en el pedido; en ese caso se devuelve el "
          "anticipo completo. "
          "Esto vale igual para un pastel chico de $420 que para una charola de 60 piezas: el plazo no cambia con el "
          "tamaño del encargo."),
        p("Si avisa cuando faltan entre 48 y 24 horas, conservamos la mitad del anticipo, porque para "
          "entonces ya compramos la fruta y la crema y apartamos lugar en el horno. Con menos de 24 horas "
          "de aviso el anticipo ya no se devuelve: el pan está en proceso y no se puede vender a otra persona. "
          "Lo que se retiene se queda como pago por lo que ya se hizo; no se convierte en saldo a favor."),
        p("El plazo se cuenta hacia atrás desde la hora de recogida, no desde la medianoche. Si su pastel se "
          "recoge el sábado a las 11:00, puede cancelar sin costo hasta el jueves a las 11:00; si avisa el "
          "jueves a las 15:00, ya está dentro de las 48 horas. "
          "Para los pedidos a domicilio se cuenta desde el inicio de la franja: un pedido en la franja de 10:00 a "
          "13:00 del sábado se cancela sin costo hasta el jueves a las 10:00."),
        p("Hasta el 19 de marzo de 2026 el plazo sin costo era de 24 horas. Desde el 20 de marzo de 2026 es "
          "de 48 horas para todos los encargos nuevos; los que se confirmaron antes de esa fecha conservan "
          "la regla anterior. "
          "El cambio se anunció en la tienda y en redes desde el 6 de marzo, dos semanas antes de entrar en vigor."),
        table([
            ["Aviso antes de la recogida", "Encargos normales", "Encargos de temporada", "Pedidos de mayoreo"],
            ["Más de 72 horas", "Se devuelve todo el anticipo", "Se devuelve todo el anticipo",
             "Sin cargo"],
            ["Entre 72 y 48 horas", "Se devuelve todo el anticipo", "Se retiene el 50 % del anticipo",
             "Se cobra el 50 % del pedido"],
            ["Entre 48 y 24 horas", "Se retiene el 50 % del anticipo", "No se devuelve el anticipo",
             "Se cobra el pedido completo"],
            ["Menos de 24 horas", "No se devuelve el anticipo", "No se devuelve el anticipo",
             "Se cobra el pedido completo"],
            ["No se presenta a recoger", "No se devuelve el anticipo", "No se devuelve el anticipo",
             "Se cobra el pedido completo"],
            ["Cancelación por parte de Trigo Lento", "Reembolso total y cupón del 10 %",
             "Reembolso total y cupón del 10 %", "Sin cargo y 10 % en el siguiente pedido"],
        ]),
        p("La tabla resume los tres tipos de pedido. Un encargo normal es cualquier pastel, caja o charola fuera de "
          "temporada; los encargos de temporada son los que se anuncian en un aviso (Rosca de Reyes, pan de muerto, "
          "Navidad y los puentes con horario especial); los pedidos de mayoreo son los de negocios con cuenta. "
          "Cuando una fecha cae en temporada, el aviso de esa temporada lo dice expresamente; si un aviso no "
          "menciona plazos distintos, valen los de los encargos normales."),
        h2("Cómo cancelar"),
        p("Las cancelaciones se hacen por escrito para que quede registro de la hora en que llegaron. Una "
          "llamada no basta, porque en hora pico nadie puede anotarla con calma. "
          "Tampoco sirven los comentarios en redes sociales ni los mensajes a números personales del equipo: sólo "
          "cuenta el WhatsApp de la tienda, que guarda la hora exacta de cada mensaje y que revisan todas las "
          "personas del turno."),
        numbered("Escriba al WhatsApp de la tienda desde el mismo número con el que hizo el encargo."),
        numbered("Mande la palabra ", code_run("CANCELAR"), " seguida del folio que aparece en su "
                 "confirmación, por ejemplo CANCELAR TL-2291. "
                 "Si tiene varios encargos, mande un mensaje por folio."),
        numbered("Espere la respuesta con la hora de recepción y el monto que se le devuelve. Si no contesta "
                 "nadie en 30 minutos dentro del horario de atención, vuelva a escribir o llame a la tienda."),
        numbered("El reembolso se hace por el mismo medio con el que pagó el anticipo, en un máximo de 5 días "
                 "hábiles; si lo prefiere, el monto queda como saldo a favor por 60 días. "
                 "El saldo a favor se usa con el folio del encargo cancelado, en mostrador o en otro encargo.",
                 children=[
                     bullet("Transferencia o liga de pago: se devuelve a la misma cuenta o tarjeta."),
                     bullet("Efectivo en mostrador: se recoge en la tienda con el folio, o se transfiere a una "
                            "cuenta a su nombre."),
                 ]),
        p("Vale la hora en que llega el mensaje, no la hora en que lo leemos. Los mensajes que llegan fuera "
          "del horario de atención cuentan con la hora de llegada, aunque se contesten a la mañana siguiente."),
        p("Reducir un encargo también es cancelar, sólo que en parte. Si encargó 24 roles y a dos días de la "
          "recogida decide que bastan 12, los 12 que quita siguen las mismas reglas de plazo; lo que se "
          "conserva no cambia de precio. Aumentar un encargo, en cambio, depende de que haya lugar en el "
          "horno ese día y se confirma como un pedido nuevo. "
          "Cambiar el sabor de la fruta o el texto del mensaje no es cancelar: se puede hacer sin costo hasta 48 "
          "horas antes."),
        h2("Anticipos"),
        p("Todo encargo de $500 o más deja un anticipo del 50 % al confirmarse; los encargos menores se pagan "
          "completos al hacer el pedido. El cálculo y las formas de pago están en la «Política de pagos y "
          "anticipos». Sin anticipo el encargo no queda apartado, aunque se haya anotado en la agenda."),
        p("El anticipo cubre lo que gastamos antes de hornear: ingredientes frescos que no se pueden "
          "devolver, horas de trabajo y el lugar que le negamos a otro cliente en el horno. Por eso se "
          "retiene cuando la cancelación llega tarde, y no como castigo. "
          "Lo que se retiene nunca supera lo que ya pagó: si dejó un anticipo de $325 y cancela a destiempo, lo más "
          "que pierde son esos $325, aunque el encargo completo valiera más. "
          "Y si el encargo se pagó completo por ser menor de $500, lo que se retiene se calcula sobre ese pago, con "
          "los mismos porcentajes."),
        h3("Un ejemplo con números"),
        p("Un pastel de tres leches mediano cuesta $650 y deja $325 de anticipo. Si se recoge el domingo a "
          "las 12:00 y usted cancela el jueves a las 9:00 (75 horas antes), se le devuelven los $325. Si "
          "cancela el viernes a las 18:00 (42 horas antes), se le devuelven $162.50 y conservamos la otra "
          "mitad. Si cancela el sábado a las 16:00 (20 horas antes), el anticipo ya no se devuelve. "
          "Un encargo de $300, que se pagó completo, se reembolsa completo con más de 48 horas, la mitad entre 48 y "
          "24 horas, y nada con menos de 24 horas."),
        h2("Excepciones"),
        bullet("Encargos de temporada (Rosca de Reyes, pan de muerto, cenas de Navidad y Año Nuevo): se "
               "cancelan sin costo hasta 72 horas antes, porque en esas fechas el horno está lleno y "
               "preparamos con días de anticipación."),
        bullet("Si Trigo Lento tiene que cancelar un encargo (una falla del horno, un corte de luz, falta de "
               "un ingrediente), se devuelve todo lo pagado y le damos un cupón del 10 % para su siguiente "
               "encargo."),
        bullet("Una emergencia médica o un fallecimiento en la familia se atiende caso por caso con Valeria; "
               "casi siempre se devuelve el anticipo completo o se mueve la fecha sin costo. "
               "No pedimos comprobantes en ese momento."),
        bullet("Las piezas con mensaje o decoración personalizada que ya se decoraron no se reembolsan, aunque "
               "la cancelación llegue dentro del plazo de 48 horas, porque no se pueden vender a nadie más."),
        bullet("Si una marcha, un cierre de calles o una inundación le impide llegar a recoger, avísenos ese "
               "mismo día: guardamos el encargo hasta el cierre y, si no puede venir, lo tratamos como un "
               "cambio de fecha sin costo."),
        h3("Cambiar la fecha en lugar de cancelar"),
        p("Puede cambiar la fecha de recogida una vez sin costo si avisa con al menos 48 horas de "
          "anticipación y la nueva fecha cae dentro de los siguientes 30 días. Un segundo cambio se trata "
          f"como una cancelación. {fill[0]}"),
        h2("Pedidos de mayoristas"),
        p("Las cafeterías, restaurantes y oficinas con cuenta de mayoreo cancelan un pedido sin cargo hasta "
          "72 horas antes de la entrega. Entre 72 y 48 horas se cobra la mitad del pedido, y con menos de 48 "
          "horas se cobra completo, porque el pan de mayoreo se hornea en tandas aparte. "
          "Las cuentas de mayoreo cancelan en el grupo de WhatsApp de su cuenta, no en el de la tienda, para que el "
          "aviso llegue a quien arma las rutas de reparto de la madrugada. "
          "Las cuentas sin crédito, que pagan por adelantado, reciben lo que corresponde como saldo a favor para la "
          "semana siguiente."),
        p("Un pedido recurrente (por ejemplo, 40 cuernitos cada martes) se suspende avisando con una semana "
          "de anticipación. Los detalles de las cuentas de mayoreo están en la «Política de mayoreo». "
          f"{fill[1]} {fill[2]}"),
    ]


def _deliveries(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["politica"], 3)
    return [
        p("Repartimos en bicicleta de carga y en una camioneta pequeña, con personal de Trigo Lento. No "
          "trabajamos con aplicaciones de reparto porque no podemos cuidar un pastel en la mochila de otra "
          "persona."),
        p("Las entregas salen de la tienda de la calle Petén y cubren las colonias cercanas de Benito Juárez y una "
          "parte de Coyoacán. Antes de encargar, revise que su colonia esté en alguna de las tres zonas: fuera de "
          "ellas no llevamos, ni siquiera pagando un envío mayor. Las zonas se definieron por el tiempo que tarda "
          "el repartidor en ir y volver, no por la distancia en el mapa: Nápoles está más lejos que Portales Norte "
          "en línea recta, pero se llega más rápido por Eugenia. Las zonas se revisan cada año en enero; si una "
          "colonia entra o sale, se avisa en esta página con un mes de anticipación."),
        h2("Días y horarios de entrega"),
        p("Entregamos de martes a domingo. De martes a sábado, entre las 10:00 y las 18:00; los domingos, "
          "entre las 10:00 y las 14:00. Los lunes no hay entregas a domicilio, aunque la tienda está abierta. "
          "El lunes es el día de mantenimiento de la bicicleta y la camioneta, y el día en que descansa el "
          "repartidor. "
          "Los repartidores son parte del equipo de la tienda y conocen las piezas: pueden decirle qué lleva cada "
          "una, pero no contestan preguntas de alérgenos en la puerta; para eso está la ficha."),
        bullet("Franja de mañana: de 10:00 a 13:00."),
        bullet("Franja de mediodía: de 13:00 a 16:00."),
        bullet("Franja de tarde: de 16:00 a 18:00 (no existe los domingos)."),
        p("Usted elige la franja al hacer el pedido; no podemos prometer una hora exacta, pero el repartidor "
          "le escribe cuando sale de la tienda. Los pedidos a domicilio se hacen a más tardar a las 19:00 "
          "del día anterior, por WhatsApp y con la plantilla de la «Política de pedidos especiales». "
          "Los pedidos hechos después de esa hora se programan para el día siguiente disponible."),
        p("En cada franja caben como máximo ocho entregas, porque la bicicleta lleva poco y la camioneta "
          "hace una sola vuelta. Cuando una franja se llena, le ofrecemos la siguiente o que recoja en "
          "tienda. Las entregas del mismo día no existen, salvo para cuentas de mayoreo. "
          "Si su pedido incluye un pastel, la franja de tarde sólo está disponible de martes a viernes, porque los "
          "sábados la camioneta hace las entregas de pasteles por la mañana y a mediodía. "
          "Los domingos sólo hay franjas de mañana y de mediodía, porque el reparto termina a las 14:00."),
        h2("Zonas y costo de envío"),
        p("El costo depende de la zona, no del tamaño del pedido. Las colonias que no aparecen en la lista no "
          "tienen servicio a domicilio, pero puede mandar a su propio mensajero a recoger a la tienda. Cuando manda "
          "a su mensajero, el pedido se paga antes y se entrega con el folio; el mensajero no necesita "
          "identificarse, sólo decir el folio y el nombre de quien encargó. El mensajero no puede pagar en "
          "mostrador un pedido que no esté pagado, salvo que traiga el efectivo exacto y el folio."),
        columns(
            [
                p(bold("Zona 1: envío de $40")),
                bullet("Narvarte Poniente y Narvarte Oriente"),
                bullet("Vértiz Narvarte"),
                bullet("Del Valle Centro y Del Valle Norte"),
                bullet("Letrán Valle"),
                p("Envío gratis en pedidos desde $600."),
            ],
            [
                p(bold("Zona 2: envío de $70")),
                bullet("Del Valle Sur"),
                bullet("Piedad Narvarte y Álamos"),
                bullet("Portales Norte"),
                bullet("Independencia, Postal y Nápoles"),
                p("Sin envío gratis; pedido mínimo de $250."),
            ],
        ),
        p("Zona 3, con envío de $110: Roma Sur, Xoco, Santa Cruz Atoyac, General Anaya y Portales Sur. En "
          "la zona 3 sólo se entrega de martes a viernes y el pedido mínimo es de $400. "
          "Si no sabe en qué zona queda su calle, escríbanos su código postal y se lo decimos antes de que haga el "
          "pedido."),
        h2("Pedido mínimo y cargos extra"),
        p("El pedido mínimo para entrega a domicilio es de $250 en las zonas 1 y 2 y de $400 en la zona 3. "
          "Los pasteles enteros llevan un cargo de $30 por manejo, porque viajan en una caja rígida y en "
          "la camioneta, nunca en bicicleta. "
          "Las charolas de metal para eventos tampoco van en bicicleta, por su tamaño."),
        p("Ejemplo: un pastel de tres leches chico de $420 enviado a Del Valle Sur paga $420 del pastel, "
          "$70 de envío por ser zona 2 y $30 por manejo de pastel: $520 en total. El mismo pastel a Narvarte "
          "Poniente pagaría $40 de envío, y si el pedido llegara a $600, el envío sería gratis, aunque el "
          "cargo por manejo de pastel se cobra siempre. "
          "El envío gratis se calcula con el total de las piezas, sin contar el envío ni el cargo por manejo."),
        p("Cuando el domicilio no tiene a nadie para recibir, el repartidor espera 10 minutos y regresa a la "
          "tienda. Un segundo intento el mismo día cuesta otra vez el envío; si no se puede entregar, el "
          "pedido queda en mostrador hasta el cierre. "
          "Después del cierre, el pedido ya no se puede reclamar ni se devuelve lo pagado, salvo que se trate de un "
          "error nuestro."),
        p("El repartidor no sube a departamentos sin elevador más allá del tercer piso ni entra a oficinas "
          "con registro largo; en esos casos entrega en la recepción o en la puerta del edificio. Si hace "
          "falta una indicación (el timbre no sirve, el portón es negro), escríbala en la plantilla. "
          "Los fraccionamientos y edificios con caseta deben autorizar la entrada antes; si la caseta no deja pasar "
          "al repartidor, el pedido se entrega en la caseta."),
        h2("Entregas el día de su evento"),
        p("Para fiestas y reuniones conviene pedir la franja de mañana, porque por la tarde el tráfico de "
          "Eje Central y Eugenia hace que los tiempos se alarguen. Si su evento tiene hora fija, dígalo al "
          "encargar y lo programamos en el primer viaje. "
          "Los sábados de mayo y diciembre la mañana se llena primero; si su evento es en esas fechas, pida la "
          "entrega con una semana de anticipación."),
        p("Las charolas para eventos de más de 60 piezas sólo se entregan en camioneta y el envío cuesta lo mismo "
          "que cualquier pedido de su zona. El repartidor no monta mesas de postres ni se queda en el evento; deja "
          "las charolas en la mesa que le indiquen. Para una mesa de postres grande, pida la entrega al menos una "
          "hora antes de que empiece el evento: así hay tiempo de acomodar las charolas y de resolver cualquier "
          "faltante por WhatsApp."),
        p("En días festivos y en puentes puede no haber entregas; cada aviso de temporada dice qué días "
          f"salen los repartidores. {fill[0]}"),
        h3("Cómo viajan los pedidos"),
        p("El pan viaja en cajas de cartón cerradas dentro de una caja térmica, y los pasteles y el pay de queso, en "
          "la camioneta con geles refrigerantes de mayo a septiembre. La bicicleta lleva sólo pan y galletas, hasta "
          "12 kilos por viaje. Si su pedido combina pan y un pastel, todo viaja en la camioneta para que llegue "
          "junto."),
        p("El repartidor no abre las cajas ni acomoda el pan en su casa, pero sí espera a que usted revise el pedido "
          "si se lo pide. Los pasteles se entregan en la mano, nunca se dejan en la puerta ni con el vigilante sin "
          "que usted lo haya autorizado por escrito. "
          "Para entregas a oficinas, díganos el nombre de la persona que recibe y el piso; el repartidor espera en "
          "recepción un máximo de 10 minutos."),
        h3("Si algo llega mal"),
        p("Revise el pedido frente al repartidor. Si un pastel llega golpeado o falta una pieza, tome una "
          "foto y escríbanos en ese momento: lo reponemos o le devolvemos el importe de lo dañado, como "
          "indica la «Política de cambios, devoluciones y quejas». "
          f"{fill[1]} {fill[2]}"),
    ]


def _payments(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["politica"], 3)
    return [
        p("Esta página reúne cómo se paga en Trigo Lento: en mostrador, por encargo y a domicilio, y "
          "cuánto anticipo deja cada encargo. "
          "Los precios de todas las piezas están en sus fichas de producto e incluyen IVA. En mostrador siempre "
          "entregamos ticket; si necesita factura, vea la sección de facturación más abajo. "
          "Los precios publicados en las fichas son los mismos en mostrador, en encargos y en pedidos a domicilio; "
          "sólo cambian los envíos y los cargos extra."),
        h2("Formas de pago"),
        bullet("Efectivo en pesos mexicanos. No aceptamos dólares ni billetes de $1,000 para compras "
               "menores de $200. "
               "El efectivo se recibe en mostrador; para encargos, el anticipo en efectivo se deja en la tienda al "
               "confirmar."),
        bullet("Tarjeta de débito o crédito Visa y Mastercard, en mostrador y con liga de pago. No "
               "aceptamos American Express. "
               "Las tarjetas de débito de cualquier banco mexicano funcionan en la terminal y en la liga."),
        bullet("Transferencia SPEI a la cuenta que aparece en su confirmación de pedido; mande el "
               "comprobante por WhatsApp. "
               "El encargo se marca como pagado cuando el dinero aparece en la cuenta, no cuando llega la captura de "
               "pantalla; casi siempre es cuestión de minutos. "
               "Si el pago se hace en fin de semana por un banco que tarda en reflejarlo, el encargo se respeta con "
               "el comprobante."),
        bullet("Pago con código QR del banco en mostrador. "
               "Funciona con la aplicación de cualquier banco que acepte cobros con código QR. "
               "El código aparece en la pantalla de la caja con el total de su compra, y el ticket se imprime en "
               "cuanto el banco confirma el pago."),
        p("No aceptamos cheques, vales de despensa ni pagos en criptomonedas. Las compras con tarjeta no "
          "tienen monto mínimo y no cobramos comisión. "
          "Tampoco cobramos por pagar con liga de pago; la liga llega por WhatsApp con el total y el folio del "
          "encargo."),
        p("Para pedidos a domicilio el pago se hace antes de que salga el repartidor, por transferencia o "
          "con liga de pago. El repartidor no cobra ni lleva terminal, así que no es posible pagar al "
          "recibir. Las ligas de pago caducan a las 24 horas; si caduca, pida otra por WhatsApp. "
          "Las ligas se generan con el total exacto del pedido, incluido el envío, y el comprobante llega a su "
          "correo."),
        p("Meses sin intereses: sólo en encargos de $2,000 o más, con tarjetas de crédito de los bancos "
          "que aparezcan en la liga de pago, a 3 meses. En mostrador no se ofrecen meses sin intereses."),
        h2("Anticipo de los encargos"),
        p("Un encargo queda confirmado cuando se paga el anticipo. Si el total del encargo es menor de $500, "
          "se paga completo al confirmar; si es de $500 o más, basta con la mitad y el resto se paga al "
          "recoger. En fórmula, con T el total del encargo en pesos y A el anticipo:"),
        equation(r"A = \begin{cases} T & \text{si } T < 500 \\ 0.5\,T & \text{si } T \ge 500 \end{cases}"),
        p("Por ejemplo, un pastel de tres leches mediano de $650 deja $325 de anticipo y paga $325 al "
          "recogerlo. Una caja de 6 roles de canela de $210 se paga completa al encargar. "
          "La regla es la misma para un pedido a domicilio que para uno que se recoge en tienda; lo único que cambia "
          "es que el pedido a domicilio se liquida completo antes de salir de la tienda. "
          "Las cuentas de mayoreo no dejan anticipo: pagan cada semana o con crédito de 15 días, como dice su "
          "política."),
        p("El anticipo se paga por transferencia, con liga de pago o en mostrador. Si en 24 horas no llega "
          "el anticipo, el encargo se libera y el lugar en el horno se ofrece a otra persona."),
        p("Un encargo de $390, por ejemplo una caja de 6 roles y un pay chico, se paga completo: queda por "
          "debajo de $500. Una charola de 60 polvorones y 30 conchas, de $1,380, deja $690 de anticipo. "
          "Los envíos y el cargo por manejo de pastel no cuentan para el total del que se calcula el "
          "anticipo; se pagan completos junto con él. "
          "Si después de confirmar agrega piezas y el total pasa de $500, el anticipo se recalcula sobre el total "
          "nuevo y se paga la diferencia al confirmar el cambio. "
          "Si un cambio baja el total por debajo de $500, el anticipo ya pagado no se devuelve en ese momento: se "
          "descuenta del total al recoger."),
        h3("Qué pasa con el anticipo si cancela"),
        p("Depende de con cuánta anticipación avise: sin costo hasta 48 horas antes de la recogida, la mitad "
          "entre 48 y 24 horas, y nada con menos de 24 horas. Los detalles y las excepciones están en la "
          "«Política de cancelaciones». "
          "El reembolso se hace por el mismo medio con el que se pagó el anticipo, en un máximo de 5 días hábiles."),
        h2("Facturación"),
        p("Emitimos factura electrónica (CFDI 4.0) por cualquier compra. Necesitamos su RFC, nombre o razón "
          "social exactamente como aparece en su constancia de situación fiscal, código postal fiscal, "
          "régimen fiscal y uso del CFDI. "
          "Si su régimen es de persona física sin actividad empresarial, el uso del CFDI suele ser «gastos en "
          "general»; si tiene duda, pregunte a su contador, porque no podemos elegirlo por usted."),
        p("La factura se pide dentro del mismo mes de la compra. Después del día 3 del mes siguiente el "
          "sistema ya no permite facturar ese ticket, así que no podemos hacer excepciones. Las facturas "
          "llegan por correo en un máximo de 72 horas."),
        p("Para facturar una compra de mostrador, escriba por WhatsApp la foto del ticket y sus datos "
          "fiscales, o llene el formulario del código QR impreso en el ticket. Si la factura sale con un "
          "error por un dato que nos dio mal, podemos cancelarla y volver a emitirla una sola vez. "
          "Las facturas de encargos con anticipo se emiten por el total cuando el encargo se liquida, no una por el "
          "anticipo y otra por el resto, salvo que usted lo pida así."),
        p(f"Las cuentas de mayoreo reciben una factura por cada entrega y un estado de cuenta semanal. {fill[0]}"),
        h2("Tarjetas de regalo y cupones"),
        p("Vendemos tarjetas de regalo de $200, $500 y $1,000, impresas y con un código único. Valen por un año "
          "desde la compra, se pueden usar en mostrador y en encargos, y se pueden gastar en varias visitas: el "
          "saldo queda registrado con el código. No se cambian por efectivo, y si se pierde una sólo podemos "
          "reponerla con una foto del código, así que conviene tomársela al recibirla. "
          "Las tarjetas de regalo no pagan envíos ni pedidos de mayoreo, y no se pueden recargar: cuando se acaba el "
          "saldo, la tarjeta se guarda como recuerdo."),
        p("Los cupones del 10 % que damos cuando nos equivocamos en un encargo valen 90 días y sólo uno por encargo. "
          "No se combinan con los descuentos de mayoreo ni con promociones de temporada, y no aplican sobre el envío "
          "ni sobre el cargo por manejo de pastel. Las promociones de temporada se anuncian en su aviso y terminan "
          "el día que el aviso dice."),
        h2("Propinas y redondeo"),
        p("La propina no se incluye ni se sugiere en el ticket. Lo que deje en el bote del mostrador se "
          "reparte cada semana entre todo el equipo, también con quienes trabajan en el obrador de noche. "
          "En los pagos con tarjeta se puede agregar propina en la terminal; también se reparte completa, sin "
          "descontar la comisión del banco."),
        p("Desde 2025 ofrecemos redondear la cuenta para el comedor comunitario de la colonia; es voluntario "
          f"y se anota en el ticket. {fill[1]} {fill[2]}"),
    ]


def _special_orders(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["politica"], 3)
    return [
        p("Un pedido especial es todo lo que no está listo en el mostrador: pasteles enteros, piezas en "
          "cantidad, cajas de regalo y charolas para eventos. Se hacen por WhatsApp o en mostrador y se "
          "confirman con anticipo. "
          "Lo que sí está en el mostrador se puede apartar sin encargo: hasta 6 piezas del día, por WhatsApp, para "
          "recoger en las dos horas siguientes. Todo lo demás sigue las reglas de esta página. "
          "Las piezas de temporada (rosca, capirotada, pan de Pascua, galletas de San Valentín) tienen sus propias "
          "fechas y se encargan según su aviso."),
        h2("Con cuánta anticipación encargar"),
        bullet("Pasteles de tres leches y pays enteros: al menos 72 horas antes de la recogida."),
        bullet("Pasteles con decoración de figuras, flores de azúcar o fotografía comestible: al menos 5 días."),
        bullet("Cajas de pan dulce y charolas de hasta 60 piezas: 48 horas."),
        bullet("Pedidos de más de 60 piezas o para más de 80 personas: una semana, y se confirma con Valeria."),
        p("Horneamos como máximo 12 pasteles por día. Cuando la agenda de un día se llena, dejamos de "
          "recibir encargos para esa fecha aunque falten más de 72 horas; en mayo y diciembre pasa seguido. "
          "Los sábados de mayo se llenan, en promedio, con tres semanas de anticipación."),
        p("Para calcular cuánto pedir: una caja de pan dulce para una reunión se calcula con dos piezas por "
          "persona en desayunos y con una pieza y media por persona en meriendas. Un pastel chico alcanza "
          "para 8 porciones, el mediano para 15 y el grande para 25; si habrá otros postres, cuente una "
          "porción por cada dos invitados menores de diez años. "
          "Si duda entre dos tamaños, elija el mayor: un pastel que sobra se guarda tres días en el refrigerador, y "
          "uno que falta no tiene arreglo a media fiesta. "
          "Para mesas de postres, calcule de tres a cuatro piezas pequeñas por persona; una charola de 30 piezas "
          "pequeñas alcanza para unas 10 personas si no hay otros postres."),
        h2("Cómo pedir por WhatsApp"),
        p("Para que no se pierda ningún dato, copie esta plantilla, llénela y mándela en un solo mensaje. "
          "Respetamos el orden de llegada de los mensajes completos. "
          "Un mensaje al que le faltan datos se contesta pidiendo lo que falta, y el lugar en la agenda no se aparta "
          "hasta que el encargo está completo. "
          "Si no usa WhatsApp, puede encargar en mostrador con la misma plantilla impresa, que está junto a la caja "
          "de encargos."),
        code(
            "Hola, Trigo Lento. Quiero hacer un encargo:\n"
            "  Nombre:\n"
            "  Teléfono de contacto:\n"
            "  Producto y clave: (por ejemplo, Pastel de tres leches PT-08)\n"
            "  Tamaño o cantidad:\n"
            "  Día y hora de recogida:\n"
            "  Entrega a domicilio: sí / no\n"
            "    Calle y número:\n"
            "    Colonia:\n"
            "    Franja: mañana / mediodía / tarde\n"
            "  Mensaje en el pastel (hasta 30 caracteres):\n"
            "  Alergias que debamos saber:\n"
            "  Pago del anticipo: transferencia / liga / mostrador\n",
            language="plain text",
        ),
        p("Le contestamos con el total, el anticipo y un folio que empieza con TL. El encargo queda firme "
          "cuando llega el anticipo; antes de eso es sólo una reservación por 24 horas. "
          "El folio sirve para cancelar, cambiar la fecha, pagar el resto y pedir factura."),
        p("Si su encargo tiene algo fuera de lo común (un sabor que no está en las fichas, una cantidad grande, una "
          "entrega a primera hora), escríbalo en el renglón del producto y Valeria le contesta si se puede. Lo que "
          "no esté en la confirmación no forma parte del encargo. Revise la confirmación con calma: ahí vienen el "
          "producto, el tamaño, el mensaje, el día y la hora. Si algo está mal, dígalo en ese momento; corregirlo "
          "después puede ya no ser posible."),
        p(""),
        h2("Decoración y personalización"),
        p("El mensaje escrito sobre el pastel, de hasta 30 caracteres, no tiene costo. La fotografía "
          "comestible cuesta $120 y necesita la imagen en buena resolución con 5 días de anticipación. Las "
          "velas de número cuestan $15 cada una y la caja de regalo con moño, $45. "
          "Los mensajes se escriben con crema de chocolate o de color, a elegir; no escribimos mensajes ofensivos ni "
          "con groserías, aunque sea en broma."),
        p("No hacemos pasteles de fondant, de varios pisos ni con personajes protegidos por derechos de autor. "
          "Tampoco cambiamos recetas para quitar ingredientes: si alguien del festejo tiene una alergia, le "
          "ayudamos a elegir una pieza que no lleve ese alérgeno en la receta. Siempre con la advertencia de las "
          "trazas que declara cada ficha, porque todo se hace en el mismo obrador."),
        p("Sabores de pastel por encargo: tres leches de vainilla con fresa, con durazno o con mango (según "
          "temporada), y tres leches de chocolate con crema de cajeta. El pay de queso entero se puede pedir con la "
          "salsa de frutos rojos aparte. No hacemos pastel de zanahoria ni pastel de nuez. Las cajas de pan dulce "
          "se arman con las piezas que usted elija de las fichas de producto; si prefiere, le armamos una caja "
          "surtida con lo que esté mejor ese día. La caja surtida se arma con piezas de la primera tanda, las más "
          "frescas del día, y con una lista de lo que lleva pegada en la tapa."),
        quote("Prefiero decir que no a un pastel que no sabemos hacer bien que entregar uno feo. — Don Ernesto"),
        h2("Charolas para eventos"),
        p("Para reuniones y mesas de postres preparamos charolas de 30 piezas pequeñas por $390: mini conchas, mini "
          "roles de canela, brownies en cuadritos, polvorones y orejas chicas. Se pueden combinar hasta tres piezas "
          "distintas por charola. Una charola alcanza para unas 15 personas si hay otros postres y para 10 si es el "
          "único."),
        p("Las charolas se entregan cubiertas con película y con una tarjeta que dice qué piezas lleva y sus "
          "alérgenos declarados. Las charolas son desechables y se pueden reciclar; si prefiere charolas de metal, "
          "se prestan con un depósito de $200 por charola que se devuelve cuando nos las regresa limpias en los "
          "siguientes 7 días. "
          "Para más de 4 charolas, la entrega a domicilio es obligatoria si el evento está en nuestras zonas, porque "
          "no caben en un coche normal sin maltratarse."),
        h2("Recoger su encargo"),
        p("Los encargos se recogen en mostrador en la hora acordada, con una tolerancia de 30 minutos antes "
          "o después. Diga su nombre o su folio; no hace falta el ticket impreso. Un encargo que no se recoge "
          "se guarda hasta el cierre de ese día y después ya no se puede reclamar. "
          "Lo que no se recoge se dona al día siguiente al comedor comunitario de la colonia, salvo los pasteles con "
          "crema, que no se pueden donar y se desechan."),
        p("Si manda a otra persona a recoger, díganos su nombre por WhatsApp antes. Para encargos con saldo "
          "pendiente, quien recoge paga el resto en mostrador; no se entrega un encargo con saldo sin pagar. "
          "Si no puede llegar a la hora acordada, avísenos en cuanto lo sepa: guardamos el encargo refrigerado hasta "
          "el cierre, pero la decoración con crema se ve mejor en las primeras horas. "
          "Si el encargo es para un evento fuera de la ciudad, pida que lo preparemos con hielo seco por $60; dura "
          "unas cuatro horas."),
        p("Al recoger, revise su pedido antes de salir de la tienda:"),
        todo("El nombre y el mensaje del pastel están bien escritos.", False),
        todo("El tamaño y el sabor son los que pidió.", False),
        todo("La caja cierra bien y viaja plana.", False),
        todo("Le entregamos el ticket con el resto pagado.", False),
        p(f"{fill[0]} {fill[1]} {fill[2]}"),
    ]


def _wholesale(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["politica"], 3)
    return [
        p("Trigo Lento vende pan a cafeterías, restaurantes, oficinas y tiendas de la zona con una cuenta "
          "de mayoreo. Hoy atendemos a 14 negocios; el horno no da para muchos más sin descuidar el mostrador. "
          "La prioridad del horno es el mostrador del barrio: si un día falta capacidad, primero se recortan los "
          "pedidos de mayoreo nuevos y nunca el pan de la vitrina. Por eso las cuentas se abren con una lista de "
          "espera y no de inmediato. "
          "Hoy la lista de espera tiene seis negocios, y abrimos una o dos cuentas nuevas por trimestre."),
        h2("Quién puede abrir una cuenta"),
        p("Cualquier negocio con RFC que compre al menos $1,500 por pedido y reciba en las zonas 1 o 2 de reparto. "
          "Para abrir la cuenta pedimos la constancia de situación fiscal, un contacto para pedidos y otro para "
          "pagos, y una prueba de producto pagada. Revisamos cada solicitud en un máximo de 10 días hábiles. Además "
          "de los papeles, Valeria visita el negocio para ver dónde se va a guardar el pan y cómo se va a ofrecer a "
          "los clientes: una vitrina caliente junto a la cafetera, por ejemplo, arruina un cuernito en una hora. "
          "También revisamos que el negocio tenga refrigeración si va a pedir pay de queso o cuernitos rellenos."),
        p("Las personas que compran mucho para una fiesta no necesitan cuenta: hacen un pedido especial "
          "normal. Tampoco abrimos cuentas para revender nuestro pan con otra marca: si un café vende "
          "nuestras piezas, debe decir en su carta o en su vitrina que son de Trigo Lento."),
        p("La prueba de producto cuesta $350 e incluye dos piezas de cada producto que el negocio quiera "
          "probar. Si se abre la cuenta en los siguientes 30 días, ese importe se descuenta del primer pedido. "
          "La prueba se paga por adelantado, como cualquier pedido especial."),
        h2("Precios y descuentos"),
        bullet("Pedidos desde $1,500: 12 % de descuento sobre el precio de mostrador."),
        bullet("Pedidos desde $4,000: 15 % de descuento."),
        bullet("Pan de masa madre para restaurante (baguette y hogaza en piezas de 1 kg): precio fijo por "
               "kilo que se acuerda cada seis meses."),
        p("Los descuentos no se suman a promociones de temporada ni a cupones. El precio de referencia es "
          "el de las fichas de producto vigentes el día de la entrega. "
          "No todas las piezas están disponibles para mayoreo: el pastel de tres leches y el pay de queso entero se "
          "venden sólo como pedido especial, y el pan de elote depende de que haya elote en el mercado. Las demás "
          "piezas de las fichas se pueden pedir en cualquier cantidad a partir del mínimo. "
          "Las piezas de temporada, como la rosca o la capirotada, se ofrecen a las cuentas de mayoreo con un mes de "
          "anticipación y con cupo limitado."),
        p("Ejemplo: una cafetería que pide 40 cuernitos ($32 cada uno) y 30 conchas ($18) suma $1,820 a "
          "precio de mostrador; con el 12 % de descuento paga $1,601.60. Si en el mismo pedido agrega 30 "
          "brownies ($42), el total de mostrador llega a $3,080 y el descuento sigue siendo del 12 %. "
          "Con 22 brownies más, el pedido llegaría a $4,004 y el descuento subiría al 15 % sobre todo el pedido, no "
          "sólo sobre lo que se agregó. "
          "Las cantidades del ejemplo son a precio de mostrador de las fichas vigentes; si un precio cambia, el "
          "cálculo cambia con él desde la fecha del aviso."),
        h2("Pedidos y entregas"),
        p("Los pedidos de mayoreo se hacen a más tardar a las 14:00 del día anterior por el grupo de WhatsApp de la "
          "cuenta. Entregamos de martes a sábado entre las 6:30 y las 8:00, antes de que abran las cafeterías; los "
          "domingos y lunes no hay reparto de mayoreo. Las entregas de mayoreo salen en la camioneta en una sola "
          "ruta; si su negocio abre después de las 8:00, el pan se deja con quien usted autorice o en un lugar "
          "acordado, cerrado y fresco."),
        p("Cada entrega lleva una nota con piezas, claves y alérgenos declarados de cada producto, para "
          "que el personal del negocio pueda responder a sus propios clientes."),
        p("El pan se entrega en cajas de plástico retornables de Trigo Lento; el repartidor recoge las del "
          "día anterior. Una caja que no se devuelve en una semana se cobra a $180. Si algo falta o llega "
          "dañado, el negocio lo reporta por el grupo antes de las 10:00 del mismo día y se repone en la "
          "siguiente entrega o se descuenta de la factura. "
          "Las piezas que el negocio no vendió no se devuelven: el pan de mayoreo se calcula para el día y cada "
          "cuenta ajusta sus cantidades con la experiencia de las primeras semanas. Valeria revisa con cada cuenta "
          "nueva sus ventas del primer mes para ajustar el pedido. "
          "Un ajuste de cantidades se pide con 72 horas, igual que una cancelación, para que el obrador alcance a "
          "cambiar su plan."),
        h3("Cambios y cancelaciones"),
        p("Un pedido de mayoreo se cancela sin cargo con 72 horas de anticipación; entre 72 y 48 horas se "
          "cobra la mitad, y con menos de 48 horas se cobra completo. Un pedido recurrente se suspende "
          "con una semana de aviso. "
          "Las cuentas que pausan más de cuatro semanas seguidas vuelven a la lista de espera."),
        p("En temporada alta (diciembre y la semana de la Rosca de Reyes) los pedidos de mayoreo se "
          "cierran con siete días de anticipación, porque el horno se reparte entre mostrador, encargos y "
          "negocios. Avisamos a cada cuenta las fechas de cierre un mes antes. "
          "En los puentes y días festivos con horario especial no hay reparto de mayoreo, salvo que el aviso de "
          "temporada diga lo contrario. "
          "El viernes 1 de mayo de 2026, por ejemplo, no hay reparto de mayoreo y los pedidos de ese día se entregan "
          "el jueves 30 de abril."),
        h2("Calidad en su negocio"),
        p("Pedimos a cada cuenta que guarde el pan como indica la ficha de cada pieza: el pan dulce en vitrina a "
          "temperatura ambiente, nunca en vitrina caliente; la baguette entera, envuelta en tela; el pay de queso y "
          "los cuernitos rellenos, en refrigeración. Si un negocio vende una pieza en mal estado con nuestro nombre, "
          "el problema es de los dos."),
        p("Una vez por trimestre Valeria visita cada cuenta sin avisar y compra como cliente. Si algo no está bien, "
          "lo habla con el encargado y lo resuelven juntos; si se repite, podemos cerrar la cuenta con 30 días de "
          "aviso."),
        h2("Pagos y crédito"),
        p("El primer mes se paga por adelantado cada semana. A partir del segundo mes, con historial sin "
          "atrasos, damos crédito de 15 días contra factura. Un pago atrasado más de 10 días suspende las "
          "entregas hasta que se liquide. "
          "Cuando un negocio tiene dos atrasos en seis meses, vuelve al pago por adelantado semanal. No cobramos "
          "intereses por atraso; simplemente dejamos de entregar hasta que la cuenta está al corriente."),
        p("Pagos por transferencia SPEI con el número de cuenta como referencia. No recibimos efectivo en "
          f"las entregas: el repartidor no lleva cambio ni cobra. {fill[0]}"),
        p(f"Cuando cambia un precio, avisamos a las cuentas de mayoreo con 30 días de anticipación. {fill[1]} "
          f"{fill[2]}"),
    ]


def _allergen_policy(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["politica"], 3)
    return [
        h1("Alérgenos y contaminación cruzada"),
        p("En Trigo Lento se trabaja con harina de trigo, leche, huevo, nuez, almendra, cacahuate, ajonjolí y soya "
          "en un solo obrador. Esta política explica qué declaramos, qué no podemos prometer y quién contesta las "
          "preguntas de alergias. Aplica al mostrador, a los encargos, a los pedidos de mayoreo y al asistente de "
          "pedidos por WhatsApp, y la conocen todas las personas del equipo desde su primera semana de trabajo."),
        h2("Qué declaramos"),
        p("Cada ficha de producto tiene una sección «Alérgenos» con dos listas: los alérgenos que lleva la "
          "receta y los que pueden llegar como trazas. Declaramos los grupos que pide la norma de "
          "etiquetado (cereales con gluten, huevo, leche, cacahuate, soya y nueces o frutos de cáscara) y "
          "además el ajonjolí, porque varias clientas nos lo pidieron. "
          "La almendra se declara junto con la nuez, dentro de los frutos de cáscara, y el cacahuate se declara "
          "aparte porque es una leguminosa y muchas personas alérgicas a uno toleran el otro. Cuando una pieza lleva "
          "un alérgeno en la receta, la ficha lo dice en la sección «Alérgenos» con las mismas palabras que la "
          "etiqueta del lote. "
          "La etiqueta del lote es la que va pegada en cada bolsa y en cada caja que sale de la tienda, con la fecha "
          "de horneado."),
        p("En el obrador no entran pescados, mariscos ni crustáceos, y no usamos sulfitos añadidos. Los "
          "colorantes y saborizantes que usamos están en la lista de ingredientes de cada ficha. "
          "El único colorante de la casa es natural: la fresa deshidratada de las conchas rosas de San Valentín."),
        p("Las páginas «Alérgenos: ...» de la base de conocimiento ordenan la misma información al revés: "
          "en lugar de decir qué alérgenos lleva una pieza, dicen qué piezas llevan un alérgeno. Hay cuatro: "
          "nuez y frutos secos; gluten y cereales; leche y huevo; cacahuate, ajonjolí y soya."),
        h2("Lo que no podemos prometer"),
        p("No vendemos ninguna pieza como «libre de» un alérgeno. Aunque una receta no lleve nuez, se hace "
          "en la misma mesa donde en la madrugada se pica la nuez para los roles de canela y los brownies. "
          "Por eso ninguna pieza es apta para personas celíacas ni para alergias graves a los frutos secos. "
          "Tampoco para alergias graves al cacahuate o al ajonjolí, que se trabajan en el mismo espacio aunque en "
          "menos piezas."),
        p("Hacemos lo posible por reducir el riesgo: la nuez se pica en la primera hora del turno de noche y la "
          "mesa se lava antes de formar otras piezas; el cacahuate de los polvorones se muele en un molino "
          "que no se usa para nada más; las charolas se lavan entre tandas. Reducir el riesgo no es "
          "eliminarlo, y por eso seguimos declarando trazas. "
          "Las trazas que declaramos no son una fórmula para cubrirnos: salen de revisar qué se hace en cada mesa y "
          "en cada horno a lo largo del día. Si una pieza no comparte mesa ni charola con la almendra, no declaramos "
          "almendra. "
          "La almendra de la costra de la rosca se muele en el mismo molino que el azúcar glass, y por eso en "
          "temporada de rosca casi todo el pan puede traer trazas de almendra."),
        p("Tampoco hacemos versiones especiales de una receta para una persona alérgica. Quitar la nuez de un rol "
          "de canela en la misma mesa, con los mismos utensilios, daría una falsa seguridad peor que no ofrecerlo. "
          "Lo que sí hacemos es ayudar a elegir piezas sin ese alérgeno en la receta, con la advertencia de trazas "
          "de cada ficha."),
        callout("Si una persona tuvo alguna vez una reacción grave, le pedimos no consumir nuestros productos "
                "sin consultarlo antes con su médico.", icon="🚫"),
        h2("Quién contesta las preguntas"),
        p("Las preguntas sobre alérgenos las contesta una persona del equipo, nunca un mensaje automático "
          "ni el asistente de pedidos. La persona contesta con el texto de la ficha aprobada, no de memoria, "
          "y si la ficha no dice algo, la respuesta es que no lo sabemos. "
          "Esto vale también para preguntas que parecen sencillas, como «¿la concha lleva nuez?»: la respuesta "
          "correcta es la de la ficha, que dice que no lleva nuez en la receta pero puede traer trazas."),
        numbered("Abrir la ficha del producto en la base de conocimiento."),
        numbered("Leer al cliente la sección «Alérgenos» completa, con las trazas."),
        numbered("Si la pregunta no tiene respuesta en la ficha, decirlo y pasar el caso a Valeria."),
        numbered("Anotar la pregunta para agregarla a las preguntas frecuentes si se repite."),
        p("El asistente de pedidos por WhatsApp tiene prohibido contestar preguntas de alérgenos: cuando alguien "
          "pregunta si una pieza lleva nuez, gluten o cualquier alérgeno, pasa la conversación a una persona. Esa "
          "persona tiene que contestar en menos de 30 minutos dentro del horario de atención. Fuera del horario de "
          "atención, el asistente responde que la pregunta la verá una persona a primera hora y no da ninguna pista "
          "sobre la respuesta, ni siquiera que «normalmente» una pieza no lleva cierto ingrediente. Si una ficha y "
          "una página de alérgenos no coinciden, manda la ficha, y la página se corrige el mismo día."),
        quote("Con la nuez no se adivina: un solo error y nos cierran la tienda. — Don Ernesto"),
        h2("Formación del equipo"),
        p("Cada persona nueva en Trigo Lento, en mostrador o en obrador, pasa su primera semana con una lista de "
          "lectura: esta política, las cuatro páginas de alérgenos y las fichas de las piezas que más se venden. Al "
          "final de la semana Valeria le hace diez preguntas de mostrador, como «¿el polvorón lleva nuez?» o «¿qué "
          "le ofrezco a alguien celíaco?», y sólo después atiende solo."),
        p("Una vez al año todo el equipo repasa esta política con Don Ernesto en la junta de enero, antes de la "
          "temporada de rosca, porque es cuando más almendra y nuez se trabajan en el obrador. Las respuestas de "
          "esa junta se anotan, y las preguntas que nadie supo contestar se agregan a las preguntas frecuentes de "
          "alergias."),
        h2("Cuando cambia una receta"),
        p("Si cambia un ingrediente o un proveedor, la ficha se corrige antes de que la pieza nueva llegue "
          "al mostrador, y la fecha de edición de Notion lo registra. Durante una semana el mostrador pone "
          "un letrero «receta nueva» junto a la pieza."),
        p("Cuando un proveedor cambia y el ingrediente nuevo trae otra advertencia de trazas (por ejemplo, una "
          "harina molida en un molino que también procesa soya), agregamos esas trazas a la ficha aunque la receta "
          "sea la misma. La etiqueta del proveedor se guarda en la carpeta de compras. Una receta nueva no sale al "
          "mostrador sin que Don Ernesto firme la ficha corregida. Si el cambio agrega un alérgeno que la pieza no "
          "tenía (por ejemplo, almendra en una galleta), además del letrero se avisa a las cuentas de mayoreo que "
          "compran esa pieza. La ficha corregida se marca como editada en Notion y el asistente de pedidos la lee "
          "desde la base de conocimiento la siguiente vez que se sincroniza."),
        h2("Eventos escolares y fiestas infantiles"),
        p("Para fiestas escolares recomendamos piezas sin nuez ni cacahuate en la receta, como las conchas "
          "o las galletas de avena, y avisar a la escuela que pueden traer trazas. Muchas escuelas de la "
          "zona no permiten alimentos con nuez; en ese caso le sugerimos preguntar a la escuela antes. "
          "Para los pedidos de eventos ponemos una tarjeta por charola con el nombre de la pieza y los alérgenos "
          "declarados, copiados de la ficha, para que los adultos del festejo puedan revisar antes de servir. "
          "Si la escuela pide una lista de ingredientes completa, se la mandamos por correo desde la ficha de cada "
          "pieza."),
        p(f"{fill[0]} {fill[1]} {fill[2]}"),
    ]


def _returns(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["politica"], 3)
    return [
        p("Queremos saber cuando algo sale mal. Esta política dice qué reponemos, en qué plazo y cómo presentar una "
          "queja. Aplica a lo que se compra en mostrador, a los encargos y a los pedidos a domicilio. Las cuentas "
          "de mayoreo tienen sus propias reglas de faltantes y daños en la «Política de mayoreo». Las quejas sobre "
          "productos de temporada siguen las mismas reglas que las de cualquier pieza."),
        h2("Qué se puede reclamar"),
        bullet("Una pieza en mal estado: con moho, cruda por dentro o con un objeto extraño."),
        bullet("Un encargo distinto al que pidió: otro sabor, otro tamaño, un mensaje mal escrito."),
        bullet("Un pedido a domicilio incompleto o que llegó dañado."),
        bullet("Un cobro equivocado o un cargo duplicado en su tarjeta. "
               "Incluye también el cobro de un envío que no se hizo."),
        p("No se aceptan devoluciones por gusto personal («no me gustó el sabor») ni por piezas que se guardaron "
          "fuera de lo que indica su ficha, por ejemplo un pay de queso que pasó la tarde fuera del refrigerador. "
          "Tampoco reponemos un pan que se endureció porque se guardó varios días: la ficha de cada pieza dice "
          "cuánto dura y cómo conservarla, y el pan de verdad se endurece antes que el de fábrica. Si no está "
          "seguro de si algo se puede reclamar, escríbanos de todos modos: preferimos revisar un caso de más que "
          "quedarnos sin saber que algo salió mal."),
        h2("Plazos para reclamar"),
        p("Las piezas de mostrador se reportan dentro de las 24 horas siguientes a la compra, con el ticket "
          "o el comprobante del pago con tarjeta y una foto de la pieza. Los pasteles y encargos se reportan "
          "el mismo día, de preferencia antes de que pasen 2 horas de recibirlos, porque la crema cambia "
          "rápido y después ya no podemos saber qué pasó. "
          "Un reporte después de esos plazos también se lee y se contesta, pero ya no garantizamos reposición ni "
          "reembolso. "
          "Si elige reposición y la pieza ya no está disponible ese día, puede cambiarla por otra de igual precio o "
          "esperar a la siguiente horneada."),
        p("Los cobros equivocados se pueden reclamar durante 30 días con el estado de cuenta. Un cargo "
          "duplicado con tarjeta se devuelve por el mismo medio; el banco puede tardar hasta 10 días hábiles "
          "en reflejarlo, aunque nosotros lo cancelamos el mismo día. "
          "Le mandamos el comprobante de la cancelación por WhatsApp para que pueda reclamarlo con su banco si tarda "
          "más."),
        p("Si un pastel se dañó en el camino después de que usted lo recogió, no podemos reponerlo sin "
          "costo, pero sí rehacerle la decoración en mostrador por $80 si la crema lo permite. Por eso "
          "insistimos en que viaje plano y en el piso del coche. "
          "Los pedidos a domicilio dañados en el camino sí se reponen sin costo, porque el transporte fue nuestro; "
          "por eso le pedimos revisar el pedido frente al repartidor."),
        h2("Cómo lo resolvemos"),
        p("Según el caso, reponemos la pieza el mismo día o el siguiente, o devolvemos el importe por el "
          "mismo medio de pago en un máximo de 5 días hábiles. Usted elige entre reposición y reembolso; "
          "no damos vales obligatorios. "
          "Para reponer no hace falta traer la pieza a la tienda si la foto muestra el problema; si tiene la pieza, "
          "tráigala, porque nos ayuda a revisar la tanda. "
          "Si vive lejos, con la foto y el ticket es suficiente."),
        p("Si el problema fue nuestro en un encargo (un mensaje mal escrito, un sabor equivocado), además "
          "de corregirlo le damos un cupón del 10 % para el siguiente encargo."),
        p("Cuando el problema es una pieza con un objeto extraño, además de reembolsarla revisamos la tanda "
          "completa y le contamos qué encontramos. Guardamos la pieza que nos entregue para revisarla con "
          "Don Ernesto; por eso le pedimos no tirarla. "
          "Si el objeto extraño pudo causar una lesión, Valeria le llama ese mismo día para saber cómo está y qué "
          "necesita."),
        p("Las reposiciones de encargos se hacen con la receta y el tamaño originales. Si el día de la "
          "reposición ya no hay lugar en el horno, le ofrecemos el reembolso completo en lugar de esperar."),
        h3("Encargos equivocados"),
        p("Si recibe un encargo distinto al que pidió, le ofrecemos tres opciones: llevárselo con un descuento del "
          "30 %, esperar a que lo rehagamos el mismo día si hay lugar en el horno, o el reembolso completo. Si el "
          "encargo era para un evento y ya no hay tiempo de rehacerlo, le devolvemos todo y le ayudamos a armar algo "
          "con lo que haya en mostrador, sin costo."),
        h3("Quejas sobre el trato"),
        p("Las quejas sobre la atención se mandan por WhatsApp o por correo y las lee Valeria "
          "personalmente. Contestamos en un máximo de 2 días hábiles, aunque la respuesta sea que "
          "seguimos revisando. "
          "Nadie del equipo recibe una sanción por una queja sin que Valeria hable antes con esa persona, y tampoco "
          "contestamos quejas en público en redes: le escribimos en privado. "
          "El correo de la tienda también sirve para quejas largas o con varias fotos; se contesta en el mismo plazo "
          "de 2 días hábiles."),
        h3("Quejas de cuentas de mayoreo"),
        p("Las cuentas de mayoreo reportan faltantes y daños en su grupo antes de las 10:00 del día de la entrega; "
          "las demás quejas de calidad las revisa Valeria en la visita trimestral o antes, si el negocio lo pide. El "
          "pan que un negocio no vendió no se devuelve ni se repone."),
        h2("Pan del día anterior"),
        p("Lo que no se vende en el día no regresa a la vitrina como pan fresco. A la mañana siguiente se pone en la "
          "canasta «pan de ayer» a mitad de precio, en bolsas cerradas y con la fecha del día en que se horneó, "
          "hasta las 12:00. Lo que queda después se dona a un comedor comunitario de la colonia. "
          "La canasta está junto a la caja y no se aparta por WhatsApp: lo que hay se vende en orden de llegada."),
        p("Las piezas de la canasta «pan de ayer» se venden como están y no tienen cambio ni devolución, salvo que "
          "tengan moho o algún defecto que no se veía en la bolsa. Los postres con crema y el pay de queso nunca "
          "van a esa canasta: lo que sobra de ellos no se vende. Las piezas con fecha de ayer llevan una etiqueta "
          "amarilla, para que nadie las confunda con el pan del día."),
        h2("Si no quedó conforme"),
        p("Si después de hablar con nosotros no está de acuerdo con la solución, puede acudir a la ",
          link("Procuraduría Federal del Consumidor (Profeco)", "https://www.gob.mx/profeco"),
          f". Preferimos resolverlo antes, pero es su derecho y se lo decimos con gusto. {fill[0]}"),
        p("Cada queja queda anotada con la fecha, el producto y la solución. Una vez al mes Valeria revisa "
          f"esa lista con el equipo para corregir lo que se repite. {fill[1]} {fill[2]}"),
    ]


def _hours(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["politica"], 3)
    return [
        p("Trigo Lento está en la calle Petén 318, local B, colonia Narvarte Poniente, alcaldía Benito "
          "Juárez, a unos siete minutos a pie del metro Eugenia. Esta página dice cuándo abrimos y cómo "
          "contactarnos. "
          "El local está en planta baja, entre una papelería y una farmacia, con un toldo verde y el nombre pintado "
          "en la ventana. Desde la calle se ve el horno del obrador a través de un vidrio. "
          "Somos una sola tienda: no tenemos sucursales ni vendemos en supermercados. Algunas cafeterías de la zona "
          "venden nuestro pan con una cuenta de mayoreo, y deben decir en su vitrina que es de Trigo Lento."),
        h2("Horario de la tienda"),
        synced_original(
            GENERAL_HOURS_KEY,
            p(bold("Horario general de Trigo Lento")),
            bullet("Lunes a viernes: de 7:30 a 20:00."),
            bullet("Sábado: de 8:00 a 20:00."),
            bullet("Domingo: de 8:00 a 15:00."),
            p("Cerramos el 1 de enero y el 25 de diciembre. Los demás días festivos abrimos con horario de "
              "domingo, salvo que un aviso de temporada diga otra cosa."),
        ),
        p("El obrador trabaja de noche, desde las 2:00, y las primeras piezas llegan al mostrador al abrir. Cada "
          "ficha de producto dice a qué hora sale su primera charola. Las conchas salen a las 7:30, los cuernitos a "
          "las 8:00, los roles de canela a las 8:30 y la baguette a las 12:00; a partir del mediodía ya no se "
          "hornean tandas nuevas de pan dulce, salvo en temporada."),
        p("Los horarios especiales de días festivos, vacaciones o temporada se publican como avisos en la "
          "base de conocimiento con al menos dos semanas de anticipación. Si un aviso y esta página no "
          "coinciden, para esas fechas manda el aviso. "
          "Los avisos vencidos se retiran de la base de conocimiento cuando Valeria revisa los avisos; mientras "
          "tanto, cada aviso dice a qué fechas se aplica, para que nadie lo confunda con el horario vigente."),
        h3("Las horas con más fila"),
        p("Entre semana la fila más larga es de 8:00 a 9:30, cuando salen las conchas y los cuernitos, y de "
          "18:30 a 19:30. Los sábados la tienda se llena de 9:00 a 12:00. Si viene a recoger un encargo, "
          "no haga fila: hay una caja aparte para encargos junto a la puerta. "
          "Los domingos la fila se concentra de 9:00 a 11:00, y a partir de las 13:00 empiezan a faltar piezas, "
          "porque no se hornea una tanda nueva después del mediodía. "
          "Los lunes, que son el día más tranquilo, la fila casi no existe, pero tampoco hay baguette hasta las "
          "12:00."),
        h2("Atención por WhatsApp y teléfono"),
        p("El WhatsApp de la tienda contesta de lunes a sábado de 8:00 a 19:00 y los domingos de 8:00 a "
          "14:00. Dentro de ese horario respondemos en menos de 30 minutos; fuera de él, los mensajes se "
          "contestan en orden de llegada a la mañana siguiente. "
          "Un mensaje de cancelación o de cambio cuenta con la hora en que llegó, aunque se conteste después."),
        p("Por teléfono atendemos en el mismo horario, pero en hora pico (de 8:00 a 10:00 y de 18:00 a "
          "20:00) es más rápido escribir. Los encargos y las cancelaciones siempre se hacen por escrito."),
        p("En redes publicamos qué pan salió del horno y cuándo se acaba algo, pero no contestamos pedidos "
          "ni preguntas de alérgenos por mensaje directo de redes: para eso está el WhatsApp de la tienda, "
          "donde queda registro. "
          "El correo de la tienda sirve para facturas, propuestas de proveedores y quejas largas; se contesta en un "
          "máximo de 2 días hábiles. "
          "Las llamadas a la tienda no se devuelven si no contestamos en hora pico; mejor escriba por WhatsApp."),
        h2("En la tienda"),
        bullet("Tenemos cuatro mesas en la terraza, sin servicio a la mesa: se pide y se paga en mostrador."),
        bullet("Vendemos café americano ($30), café de olla ($35) y chocolate caliente ($40) para acompañar."),
        bullet("Se permiten perros con correa en la terraza; dentro de la tienda, sólo perros de asistencia.",
               children=[
                   bullet("Hay un bebedero para perros junto a la puerta."),
                   bullet("Los perros no pueden subir a las mesas ni a las sillas."),
               ]),
        bullet("La entrada tiene rampa y el mostrador tiene una sección baja para sillas de ruedas."),
        bullet("No hay estacionamiento propio; en la calle Petén hay parquímetros de lunes a sábado."),
        p("La tienda es libre de humo y no se permite fumar ni vapear en la terraza. Los niños son "
          "bienvenidos; tenemos una silla alta y un cambiador en el baño, que está disponible para clientes. "
          "En la terraza hay un enchufe y la red inalámbrica es gratis, pero entre semana, de 8:00 a 10:00, pedimos "
          "no ocupar una mesa más de media hora porque es cuando más gente desayuna."),
        h3("Fotos y grabaciones"),
        p("Se pueden tomar fotos en la tienda y en la terraza para uso personal. Para grabar con equipo profesional "
          "o para publicidad, pida permiso a Valeria con una semana de anticipación. El obrador no se visita ni se "
          "graba, por higiene y por seguridad del equipo."),
        h2("Vacaciones y cierres"),
        p("La tienda no cierra por vacaciones. En la segunda semana de agosto el obrador trabaja con la mitad del "
          "equipo porque las vacaciones se toman por turnos; esa semana el menú se reduce a pan de todos los días "
          "(conchas, orejas, baguette y pan integral) y no se reciben encargos de pastel. "
          "Las fechas exactas se publican en un aviso con un mes de anticipación."),
        p("Cuando hay que cerrar por una causa que no se puede planear, como una falla de luz en la cuadra o una "
          "reparación urgente del horno, lo avisamos en redes y en el WhatsApp de la tienda en cuanto lo sabemos, y "
          "llamamos a quienes tenían encargos para ese día. Los cierres programados, como el mantenimiento del "
          "horno, se anuncian en un aviso de temporada. "
          "En 2026, el mantenimiento anual del horno está programado para el lunes 20 de abril."),
        h2("Objetos olvidados"),
        p("Lo que se olvida en la tienda se guarda 30 días con una etiqueta de la fecha. Después se dona. "
          f"Pregunte en mostrador o por WhatsApp con una descripción del objeto. {fill[0]}"),
        divider(),
        p(f"{fill[1]} {fill[2]}"),
    ]


POLICIES: tuple[Outline, ...] = (
    Outline("politica-cancelaciones", "Política de cancelaciones", "politica", "📜", _cancellations),
    Outline("politica-entregas-a-domicilio", "Política de entregas a domicilio", "politica", "🚲", _deliveries),
    Outline("politica-pagos-y-anticipos", "Política de pagos y anticipos", "politica", "💳", _payments),
    Outline("politica-pedidos-especiales", "Política de pedidos especiales", "politica", "🎂", _special_orders),
    Outline("politica-mayoreo", "Política de mayoreo", "politica", "📦", _wholesale),
    Outline("politica-alergenos", "Política de alérgenos y contaminación cruzada", "politica", "⚠️",
            _allergen_policy),
    Outline("politica-cambios-y-quejas", "Política de cambios, devoluciones y quejas", "politica", None, _returns),
    Outline("politica-horarios-y-atencion", "Política de horarios y atención", "politica", "🕗", _hours),
)
