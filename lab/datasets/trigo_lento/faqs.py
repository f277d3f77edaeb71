"""FAQ pages ("Preguntas frecuentes: ..."): customers' questions in their own words.

Every FAQ page opens a section with toggles (the question is the toggle, the answer its
children), so reading a FAQ costs the indexer one extra request per toggle. Later sections
answer further questions under plain headings.
"""

from __future__ import annotations

import numpy as np

from .blocks import Block, bookmark, bullet, callout, divider, h2, h3, p, synced_reference, toggle
from .outline import Outline
from .phrasing import FILLER, some_of
from .policies import GENERAL_HOURS_KEY

__all__ = ["FAQS"]


def _storage(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["faq"], 3)
    return [
        p("Cómo guardar el pan y los postres para que duren lo más posible, y cuándo ya no conviene "
          "comerlos. Los tiempos de cada pieza están también en su ficha, en la sección «Conservación». "
          "Si compra pan para varios días, piense desde la tienda qué se va a comer hoy, qué mañana y qué conviene "
          "congelar: esa decisión, tomada temprano, es la que más alarga la vida del pan."),
        h2("Lo que más nos preguntan"),
        toggle("¿Puedo meter el pan al refrigerador?",
               p("Casi nunca conviene. El frío del refrigerador seca la miga más rápido que el aire de la cocina: "
                 "una baguette guardada ahí se pone dura en medio día. Sólo van al refrigerador los postres con "
                 "crema o queso: el pay de queso, el pastel de tres leches y el cuernito relleno de jamón y queso. "
                 "En el refrigerador, el pan se pone gomoso en la superficie y seco por dentro al mismo tiempo: es "
                 "el peor de los dos mundos."),
               p("Para el pan de todos los días, lo mejor es una bolsa de papel o un trapo de algodón, y si "
                 "no se va a comer en dos días, el congelador. "
                 "La bolsa de plástico sólo conviene para el pan integral de semillas, que tiene más humedad y se "
                 "seca despacio, y para las piezas que ya van a congelarse."),
               p("Una regla fácil de recordar: lo que lleva crema o queso va al refrigerador; lo que es pan va a la "
                 "bolsa de papel o al congelador.")),
        toggle("¿Cuánto dura un pastel de tres leches?",
               p("Tres días dentro del refrigerador, en su caja. Fuera del refrigerador no debe pasar más de "
                 "una hora, y no se puede congelar porque la crema se corta al descongelarse. "
                 "Fuera de esa regla, el pastel se echa a perder aunque se vea bien, porque las tres leches y la "
                 "crema batida son un medio perfecto para las bacterias."),
               p("Si sobró pastel de una fiesta, guárdelo en cuanto termine de servirse, no al final de la "
                 "noche. "
                 "Una caja de pastel abierta absorbe los olores del refrigerador; si ya no cabe la caja, pase el "
                 "pastel a un recipiente con tapa."),
               p("Las rebanadas de tres leches que vendemos los fines de semana siguen la misma regla: al "
                 "refrigerador en cuanto llegan a casa y a comerse en tres días.")),
        h2("Congelar y descongelar"),
        p("El congelador es el mejor aliado del pan. Congele el mismo día de la compra, en bolsa de "
          "plástico bien cerrada y, si es pan grande, ya rebanado o en trozos, para sacar sólo lo que va a "
          "usar. "
          "Escriba la fecha en la bolsa con un plumón: en el congelador todo se ve igual, y el pan que pasa de su "
          "tiempo no hace daño pero pierde sabor y toma olor a congelador. "
          "Las piezas de hojaldre se congelan mejor en un recipiente rígido que en bolsa, para que no se aplasten "
          "entre otras cosas del congelador."),
        bullet("Baguette de masa madre: hasta 2 meses, en trozos."),
        bullet("Pan integral de semillas: hasta 3 meses, rebanado; va directo del congelador al tostador."),
        bullet("Rol de canela: 4 semanas; si lo encarga sin glaseado, aguanta mejor."),
        bullet("Cuernitos: 4 semanas; se recuperan en horno a 180 °C."),
        bullet("Brownies: 2 meses, envueltos uno por uno."),
        bullet("Pay de queso entero: 1 mes, sin la capa de crema ácida."),
        p("No se congelan el pastel de tres leches ni las galletas de avena ya horneadas. Las orejas y los "
          "polvorones no lo necesitan: duran semanas en un frasco bien cerrado. "
          "El pan de elote se congela en porciones hasta un mes y se recalienta directo en el horno."),
        p("¿Cómo descongelo sin que se humedezca? "
          "Deje la pieza dentro de su bolsa a temperatura ambiente: una concha tarda unos 40 minutos y una "
          "baguette en trozos, una hora. Si la saca de la bolsa congelada, la humedad del aire se condensa "
          "en la corteza y queda chiclosa. El pay de queso se descongela 8 horas dentro del refrigerador, "
          "nunca fuera. "
          "Un rol de canela congelado se puede meter directo al horno a 160 °C durante 10 minutos, sin descongelar "
          "antes; la baguette en trozos, a 200 °C durante 8 minutos, rociada con agua."),
        h2("Recalentar"),
        p("El horno siempre da mejor resultado que el microondas, sobre todo con el hojaldre. Como regla "
          "general: pan de corteza a 200 °C con un poco de agua rociada, piezas de mantequilla a 160 o 180 "
          "°C por pocos minutos, y nada de calor para los postres fríos. "
          "Si tiene horno de convección, baje 10 °C la temperatura de cualquiera de estas indicaciones."),
        p("El microondas sirve para piezas suaves y por muy poco tiempo: 10 segundos para una concha, 15 "
          "para un rol de canela, 8 para una galleta de avena. Pasado ese tiempo la miga se endurece al "
          "enfriarse. "
          "Nunca recaliente el pay de queso, el tres leches ni las orejas: los dos primeros se sirven fríos y las "
          "orejas sólo necesitan un golpe de horno si se ablandaron por la humedad."),
        p("¿El rol de canela se puede recalentar con el glaseado? "
          "Sí. En horno a 160 °C durante 5 minutos el glaseado se ablanda pero no escurre. En microondas, 15 "
          "segundos bastan; más tiempo lo derrite. "
          "Si lo compró sin glaseado para congelarlo, el glaseado se puede poner en casa después de recalentar."),
        h2("Piezas con crema, queso o relleno"),
        p("El pay de queso, el pastel de tres leches y el cuernito relleno de jamón y queso son las únicas piezas "
          "que necesitan refrigerador desde el primer momento. El pay dura 4 días tapado, el tres leches 3 días en "
          "su caja y el cuernito relleno 2 días. Si los compra para llevar de viaje o para una comida fuera de casa, "
          "pida una bolsa térmica con hielo: por $25 se la damos en mostrador y aguanta unas tres horas."),
        p("La capirotada de Cuaresma también va al refrigerador y dura 3 días tapada. Las piezas con glaseado de "
          "queso crema, como el rol de canela, aguantan 2 días fuera del refrigerador porque el glaseado lleva mucho "
          "azúcar, pero si hace calor conviene guardarlas en un lugar fresco, lejos de la ventana y de la estufa."),
        h2("Cuándo ya no conviene comerlo"),
        p("El pan duro no está echado a perder: sirve para budín, torrejas o pan molido. Lo que sí hay que tirar es "
          "cualquier pieza con puntos de moho, aunque sea en una sola orilla, porque el moho se extiende por dentro "
          "antes de verse. Con el pan de caja integral, el moho aparece primero en las orillas de las rebanadas de "
          "en medio, donde se junta la humedad; revise toda la barra antes de tostar. Y si un pan se puso duro pero "
          "está sano, rállelo: el pan molido de baguette o de pan integral dura un mes en un frasco cerrado."),
        p("Los postres con crema que pasaron más de dos horas fuera del refrigerador no se deben comer, "
          "aunque se vean bien. Si tiene duda sobre una pieza comprada en Trigo Lento, mándenos una foto y "
          f"se lo decimos. {fill[0]}"),
        p(f"{fill[1]} {fill[2]}"),
    ]


def _allergies(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["faq"], 3)
    return [
        p("Respuestas a las dudas de alergias que llegan al mostrador y por WhatsApp. Ninguna respuesta de "
          "esta página sustituye la sección «Alérgenos» de cada ficha ni la política de alérgenos. "
          "Si usted o alguien de su familia tiene una alergia diagnosticada, lea primero la ficha de la pieza que "
          "quiere comprar y pregunte a una persona del equipo cualquier duda que quede."),
        h2("Respuestas rápidas"),
        toggle("¿Qué piezas llevan nuez?",
               p("Llevan nuez en la receta el rol de canela, que la tiene picada en el relleno y sobre el "
                 "glaseado, y el brownie de cacao y nuez, que la tiene en trozos en toda la masa. Ninguno de "
                 "los dos se prepara sin nuez. "
                 "La nuez que usamos es nuez pecana, la que en el norte se llama nuez encarcelada; no usamos nuez de "
                 "Castilla."),
               p("Todas las demás piezas pueden traer trazas de nuez, porque la nuez se pica en el mismo "
                 "obrador. La lista completa está en «Alérgenos: nuez y frutos secos»."),
               p("En temporada también llevan nuez la capirotada de Cuaresma y la rosca de Reyes rellena de nata; "
                 "sus avisos lo dicen con todas las letras.")),
        toggle("Mi hijo es alérgico a los frutos secos, ¿qué le puedo comprar?",
               p("Con una alergia a frutos secos no podemos recomendarle ninguna pieza como segura: todo se "
                 "hace en el mismo obrador donde se pica nuez y se trabaja la almendra."),
               p("Si la alergia es leve y su médico permite trazas, las piezas sin nuez ni almendra en la "
                 "receta son las conchas, las orejas, la baguette, el pan integral, el pay de queso, el "
                 "tres leches, las galletas de avena, el polvorón de cacahuate y el pan de elote."),
               p("Si alguna vez tuvo una reacción grave, le pedimos no comprar sin consultar antes a su "
                 "médico. Las preguntas de alergias por WhatsApp las contesta una persona del equipo con el texto "
                 "de la ficha, nunca el asistente automático.")),
        h2("Cómo preguntar por una alergia"),
        p("Escríbanos por WhatsApp el nombre de la pieza y el alérgeno que le preocupa; una persona del equipo le "
          "contesta con la sección «Alérgenos» de la ficha, copiada tal cual, en menos de 30 minutos dentro del "
          "horario de atención. El asistente automático de pedidos no contesta preguntas de alergias: pasa la "
          "conversación a una persona aunque la respuesta parezca sencilla. "
          "Fuera de horario, el asistente avisa que la pregunta la verá una persona a primera hora y no da ninguna "
          "respuesta mientras tanto."),
        p("En mostrador, pida que le muestren la etiqueta del lote, que tiene la misma lista que la ficha. Si la "
          "persona que le atiende no está segura, debe decirlo y llamar a Valeria; nadie del equipo puede contestar "
          "de memoria que una pieza «no tiene» algo. Si la respuesta no le convence, puede pedir hablar con "
          "Valeria, que revisa las fichas con Don Ernesto cada vez que cambia una receta."),
        h2("Gluten y celiaquía"),
        p("¿Tienen pan sin gluten? No. Todo el obrador trabaja con harina de trigo y el polvo de harina está en el "
          "aire desde la madrugada. El pan de elote no lleva harina de trigo, pero tampoco lo recomendamos a "
          "personas celíacas porque se hornea junto a todo lo demás. Tampoco tenemos harinas de arroz, de almendra "
          "ni mezclas sin gluten en el obrador, y no planeamos tenerlas mientras compartamos un solo espacio de "
          "trabajo. Si busca pan sin gluten, le recomendamos una panadería con obrador exclusivo; preferimos "
          "decírselo claro."),
        p("¿La avena de las galletas es sin gluten? "
          "La avena no está certificada sin gluten y, además, las galletas llevan harina de trigo. No son "
          "aptas para personas celíacas ni para quienes evitan el gluten por indicación médica."),
        p("¿El pay de queso tiene harina? "
          "El relleno no lleva harina, pero la base es de galleta de mantequilla hecha con harina de trigo. "
          "Por eso el pay de queso sí tiene gluten. "
          "La galleta de la base la hacemos en el obrador con harina de trigo, mantequilla y azúcar."),
        h2("Leche, huevo y dietas veganas"),
        p("La baguette de masa madre es la única pieza sin leche ni huevo en la receta; es apta para dietas "
          "veganas, aunque puede traer trazas de otras cosas del obrador. El pan integral de semillas "
          "tampoco lleva leche ni huevo, pero lleva miel, así que no todas las personas veganas lo comen. "
          "Ninguna de las dos se puede garantizar libre de leche o huevo, porque se hacen en el mismo obrador que "
          "todo lo demás."),
        p("Las orejas de hojaldre no llevan huevo en la receta pero sí mantequilla. El resto del pan dulce "
          "lleva leche, mantequilla y huevo. "
          "El glaseado del rol de canela es de queso crema, así que también lleva leche. Los polvorones llevan "
          "mantequilla, aunque mucha gente cree que sólo llevan cacahuate y azúcar. "
          "Las galletas de avena llevan mantequilla y huevo, y el pan de elote lleva leche condensada y huevo."),
        p("¿Usan margarina o manteca? "
          "Usamos mantequilla en casi todo. La concha lleva además un poco de manteca vegetal en la costra, "
          "que le da la textura de arena. No usamos manteca de cerdo. "
          "La manteca vegetal que usamos está libre de grasas trans y no lleva soya en su etiqueta."),
        h2("Cacahuate y ajonjolí"),
        p("El polvorón de cacahuate es la única pieza con cacahuate en la receta; el cacahuate se muele en "
          "un molino que no se usa para nada más. Aun así, muchas piezas declaran trazas de cacahuate."),
        p("El pan integral de semillas lleva ajonjolí en la masa y encima. La concha y la baguette pueden "
          "traer trazas de ajonjolí porque comparten charolas con el pan integral. "
          "La soya no va en ninguna receta, pero algunas harinas que compramos se muelen donde también se procesa "
          "soya; por eso el pan integral declara trazas de soya. La lista está en «Alérgenos: cacahuate, ajonjolí y "
          "soya». "
          "El ajonjolí se declara aunque la norma no lo pida, porque varias clientas nos lo pidieron."),
        callout("Las preguntas de alergias por WhatsApp las contesta una persona del equipo con el texto de "
                "la ficha. Si la ficha no lo dice, le decimos que no lo sabemos.", icon="💬"),
        p(f"{fill[0]} {fill[1]} {fill[2]}"),
    ]


def _cancellations(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["faq"], 3)
    return [
        p("Dudas sobre anular, reducir o mover un encargo. La regla completa está en la «Política de "
          "cancelaciones»; aquí va en corto y con ejemplos. "
          "Las mismas reglas valen para encargos que se recogen en tienda y para pedidos a domicilio; en estos el "
          "plazo se cuenta desde el inicio de la franja de entrega. "
          "Si su encargo se confirmó antes del 20 de marzo de 2026, conserva el plazo anterior de 24 horas; la "
          "confirmación lo indica. "
          "Los encargos con fecha en el puente del 1 de mayo siguen la misma regla de 48 horas, contadas desde su "
          "hora de recogida."),
        h2("Respuestas rápidas"),
        toggle("¿Con cuánto tiempo puedo cancelar mi pastel sin perder dinero?",
               p("Con 48 horas o más antes de la hora en que quedó de recogerlo. En ese caso le devolvemos "
                 "todo el anticipo por el mismo medio con el que pagó."),
               p("Si faltan entre 48 y 24 horas, le devolvemos la mitad del anticipo; con menos de 24 horas, el "
                 "anticipo ya no se devuelve. Ejemplo: si recoge el viernes 1 de mayo a las 10:00, puede cancelar "
                 "sin costo hasta el miércoles 29 de abril a las 10:00."),
               p("El plazo se cuenta desde la hora de recogida anotada en su confirmación, no desde la medianoche ni "
                 "desde la hora en que hizo el encargo.")),
        toggle("Antes eran 24 horas, ¿por qué cambió?",
               p("Porque el horno se llenaba con pasteles que se cancelaban un día antes y ya no había "
                 "tiempo de ofrecer ese lugar a otra persona. Desde el 20 de marzo de 2026 el plazo es de "
                 "48 horas; los encargos confirmados antes de esa fecha conservan la regla de 24 horas."),
               p("El cambio se anunció en la tienda y en redes desde el 6 de marzo de 2026, dos semanas antes de "
                 "entrar en vigor.")),
        h2("Mover la fecha"),
        p("¿Puedo cambiar el día en lugar de cancelar? "
          "Sí, una vez y sin costo, si avisa con al menos 48 horas de anticipación y la nueva fecha cae "
          "dentro de los siguientes 30 días. Un segundo cambio cuenta como cancelación. "
          "Por ejemplo, un pastel para el sábado 18 de abril se puede mover sin costo al domingo 26 si avisa a más "
          "tardar el jueves 16 a la misma hora de la recogida. "
          "La fecha nueva queda en la confirmación que le mandamos por WhatsApp, con el mismo folio."),
        p("¿Y si la fecha nueva ya está llena? Le ofrecemos el día más cercano con lugar. Si ninguno le sirve, "
          "puede cancelar con las reglas normales de plazo, contadas desde la fecha original. Cambiar sólo la hora, "
          "dentro del mismo día, no cuenta como cambio de fecha y se puede hacer hasta 24 horas antes si hay lugar "
          "en el horno a esa hora."),
        h2("Cómo avisar"),
        p("Escriba por WhatsApp desde el número con el que encargó, con la palabra CANCELAR y su folio. Una "
          "llamada no cuenta como aviso porque no deja registro de la hora. Vale la hora de llegada del "
          "mensaje, aunque lo contestemos al día siguiente. "
          "Conserve la confirmación con su folio: la respuesta a su mensaje de cancelación dice el monto que se le "
          "devuelve y la hora en que recibimos el aviso. "
          "Si no recibe respuesta en 30 minutos dentro del horario de atención, vuelva a escribir o llame: el aviso "
          "cuenta desde su primer mensaje."),
        p("El reembolso tarda hasta 5 días hábiles en transferencias y tarjetas. Si lo prefiere, el dinero "
          "queda como saldo a favor durante 60 días para otro encargo. "
          "Si pagó el anticipo en efectivo en mostrador, el reembolso se recoge en efectivo en la tienda, con el "
          "folio, o se transfiere a una cuenta a su nombre. "
          "No devolvemos el dinero a cuentas de terceros ni en efectivo a otra persona, aunque traiga el folio, por "
          "seguridad."),
        h2("Pedidos a domicilio y de mayoreo"),
        p("Un pedido a domicilio se cancela con las mismas reglas que un encargo: sin costo hasta 48 horas antes del "
          "inicio de la franja de entrega que eligió. El envío se devuelve completo siempre que el repartidor no "
          "haya salido de la tienda; si ya salió, el envío se cobra aunque el pedido no se entregue."),
        p("Las cuentas de mayoreo tienen otro plazo: cancelan sin cargo hasta 72 horas antes de la entrega, pagan la "
          "mitad entre 72 y 48 horas y el pedido completo con menos de 48 horas. El aviso se manda en el grupo de "
          "WhatsApp de la cuenta, no en el de la tienda."),
        h2("Casos especiales"),
        h3("Encargué una rosca o un pedido de temporada"),
        p("Los encargos de temporada se cancelan sin costo hasta 72 horas antes de la recogida, porque en "
          "esas semanas horneamos con días de adelanto. Entre 72 y 48 horas se retiene la mitad del anticipo. "
          "Con menos de 48 horas, el anticipo de un encargo de temporada ya no se devuelve. "
          "La rosca de Reyes, la capirotada por refractario y el pan de Pascua son encargos de temporada; los "
          "pasteles de cumpleaños, aunque sean en diciembre, son encargos normales."),
        h3("Ya tenía el mensaje escrito en el pastel"),
        p("Un pastel que ya se decoró con un nombre o un mensaje no se reembolsa, aunque avise a tiempo, "
          "porque nadie más lo puede comprar. Por eso decoramos el mismo día de la recogida. "
          "Si cancela a tiempo y el pastel todavía no se decoró, se aplican las reglas normales de plazo."),
        h3("Tuve una emergencia"),
        p("Escriba en cuanto pueda. Las emergencias médicas y los fallecimientos los atiende Valeria caso "
          "por caso; casi siempre devolvemos el anticipo o movemos la fecha sin cargo. "
          "No le pediremos comprobantes en ese momento; basta con que nos cuente qué pasó."),
        h3("Ustedes me cancelaron"),
        p("Si la cancelación es nuestra, le devolvemos todo lo que pagó y le damos un cupón del 10 % para "
          f"el siguiente encargo. {fill[0]}"),
        p(f"{fill[1]} {fill[2]}"),
    ]


def _deliveries(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["faq"], 3)
    return [
        p("Lo que hay que saber antes de pedir pan o pasteles a domicilio. Las zonas, los costos y las reglas "
          "completas están en la «Política de entregas a domicilio». Repartimos con personal de Trigo Lento, en "
          "bicicleta de carga y en una camioneta pequeña; no usamos aplicaciones de reparto. Las zonas, los costos, "
          "los horarios y los mínimos de esta página son los mismos que los de la política; si alguna vez no "
          "coinciden, manda la política. Los pedidos a domicilio se hacen por WhatsApp con la plantilla de pedidos "
          "especiales, a más tardar a las 19:00 del día anterior."),
        h2("Antes de pedir"),
        toggle("¿Llevan a mi casa?",
               p("Repartimos en las colonias cercanas a la tienda, en tres zonas: la zona 1 (Narvarte, "
                 "Vértiz Narvarte, Del Valle Centro y Norte, Letrán Valle) cuesta $40; la zona 2 (Del Valle "
                 "Sur, Piedad Narvarte, Álamos, Portales Norte, Independencia, Postal y Nápoles) cuesta $70, "
                 "y la zona 3 (Roma Sur, Xoco, Santa Cruz Atoyac, General Anaya y Portales Sur) cuesta $110."),
               p("Si su colonia no está en la lista, puede mandar a su propio mensajero a recoger a la tienda. "
                 "El mensajero sólo necesita dar el folio y el nombre de quien encargó; el pedido se paga antes."),
               p("Los lunes no hay entregas a domicilio; de martes a sábado se reparte de "
                 "10:00 a 18:00 y el domingo de 10:00 a 14:00.")),
        toggle("¿Hay envío gratis?",
               p("Sí, sólo en la zona 1 y en pedidos desde $600. En las zonas 2 y 3 siempre se cobra el "
                 "envío. El cargo de $30 por manejo de pastel se cobra aunque el envío sea gratis. "
                 "El envío gratis se calcula con el total de las piezas, sin contar el envío ni los cargos extra.")),
        h2("Días, horarios y mínimos"),
        p("Las entregas salen de martes a domingo: de martes a sábado entre las 10:00 y las 18:00, y el domingo "
          "entre las 10:00 y las 14:00. Los lunes no hay reparto. Se elige una franja (mañana, mediodía o tarde) y "
          "el repartidor avisa cuando sale de la tienda. Las franjas son de 10:00 a 13:00, de 13:00 a 16:00 y de "
          "16:00 a 18:00; la de tarde no existe los domingos, y para pedidos con pastel sólo existe de martes a "
          "viernes."),
        p("El pedido mínimo es de $250 en las zonas 1 y 2 y de $400 en la zona 3, que además sólo recibe "
          "de martes a viernes. Los pedidos se hacen hasta las 19:00 del día anterior; no hay entregas el "
          "mismo día."),
        p("¿Me lo pueden llevar a una hora exacta? "
          "No podemos prometer una hora exacta, sólo la franja. Si es para un evento con hora fija, dígalo "
          "al pedir y lo mandamos en el primer viaje de la mañana. "
          "En cada franja caben ocho entregas como máximo; si la suya ya está llena, le ofrecemos la siguiente o que "
          "recoja en tienda. "
          "Las franjas de los sábados de mayo y diciembre suelen llenarse con una semana de anticipación."),
        h2("El día de la entrega"),
        p("¿Puedo pagar al recibir? "
          "No. El pago se hace antes de que salga el pedido, por transferencia o con liga de pago, porque "
          "el repartidor no cobra ni lleva terminal. "
          "Las ligas de pago caducan a las 24 horas; si la suya caducó, pida otra por WhatsApp antes de la hora "
          "límite del pedido."),
        p("¿Qué pasa si no hay nadie en casa? "
          "El repartidor espera 10 minutos y regresa a la tienda. Un segundo intento el mismo día cuesta "
          "otra vez el envío; si no se puede, el pedido queda en mostrador hasta el cierre. "
          "Si sabe que no estará, díganos a quién dejarle el pedido o pida otra franja hasta la noche anterior. "
          "Cambiar la franja el mismo día sólo es posible si la nueva franja tiene lugar; pregúntelo por WhatsApp."),
        p("¿Suben hasta mi departamento? "
          "Hasta un tercer piso sin elevador, sí. En edificios más altos sin elevador o en oficinas con "
          "registro, entregamos en la recepción o en la puerta. "
          "Si hay un detalle para encontrar la puerta (el timbre no sirve, el portón es negro, hay que llamar al "
          "llegar), escríbalo en la plantilla del pedido. "
          "El repartidor le escribe por WhatsApp cuando sale de la tienda y cuando está a cinco minutos."),
        h2("Días festivos y temporada alta"),
        p("En días festivos y puentes puede no haber reparto: cada aviso de temporada dice qué días salen los "
          "repartidores. Por ejemplo, el viernes 1 de mayo no hay entregas a domicilio, y el sábado 2 y el domingo 3 "
          "se reparte con el horario normal de fin de semana."),
        p("En mayo y diciembre las franjas de la mañana de los sábados se llenan primero. Si su pedido es para una "
          "fiesta en esas fechas, pídalo con una semana de anticipación y elija la franja de mañana, porque por la "
          "tarde el tráfico de Eje Central y Eugenia alarga los tiempos."),
        h2("Si algo llega mal"),
        p("Revise el pedido frente al repartidor. Si un pastel llegó golpeado o falta una pieza, tome una "
          "foto en ese momento y escríbanos: reponemos o devolvemos el importe de lo dañado. "
          "Si el daño se nota después de que el repartidor se fue, escríbanos en las siguientes 2 horas con foto; lo "
          "revisamos igual."),
        p("Los pasteles viajan en camioneta y en caja rígida, nunca en bicicleta, para que lleguen como "
          f"salieron. {fill[0]} {fill[1]} {fill[2]}"),
    ]


def _payments(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["faq"], 3)
    return [
        p("Formas de pago, anticipos y facturas, con las dudas que más se repiten en mostrador. Todas las "
          "cantidades están en pesos mexicanos e incluyen IVA; el precio de cada pieza está en su ficha de "
          "producto. Lo que se paga en mostrador lleva ticket siempre; los encargos llevan además un folio que "
          "empieza con TL."),
        h2("Pagar"),
        toggle("¿Aceptan tarjeta?",
               p("Sí, de débito y crédito Visa y Mastercard, en mostrador y con liga de pago, sin monto "
                 "mínimo ni comisión. No aceptamos American Express."),
               p("También aceptamos efectivo, transferencia SPEI y pago con código QR del banco. "
                 "No recibimos cheques, vales de despensa, dólares ni criptomonedas. En compras menores de $200 no "
                 "podemos cambiar billetes de $1,000."),
               p("Las compras con tarjeta no tienen monto mínimo; si paga con tarjeta un encargo, el anticipo se "
                 "cobra con liga de pago y el resto en mostrador al recoger.")),
        toggle("¿Puedo pagar a meses?",
               p("Sólo en encargos de $2,000 o más, a 3 meses sin intereses con las tarjetas de crédito de "
                 "los bancos que aparezcan en la liga de pago. En mostrador no hay meses sin intereses. "
                 "Un pastel grande de $980, por ejemplo, no alcanza el mínimo por sí solo; con una mesa de postres o "
                 "varias cajas de regalo, sí."),
               p("Los meses sin intereses se eligen en la liga de pago; no se pueden aplicar después a un pago que "
                 "ya se hizo.")),
        p("¿Puedo pagar una parte en efectivo y otra con tarjeta? "
          "Sí, en mostrador se puede dividir el pago entre efectivo y tarjeta, o entre dos tarjetas. En encargos, el "
          "anticipo y el resto se pueden pagar con medios distintos: por ejemplo, el anticipo por transferencia y el "
          "resto con tarjeta al recoger. "
          "En pedidos a domicilio, en cambio, el pago se hace completo por un solo medio antes de que salga el "
          "repartidor."),
        h2("Anticipos"),
        p("¿Cuánto tengo que dejar de anticipo? "
          "Si el encargo cuesta menos de $500, se paga completo al confirmarlo. Si cuesta $500 o más, deja "
          "la mitad y paga el resto al recoger. Por ejemplo, un pastel grande de $980 deja $490. "
          "Una caja de 6 roles de canela de $210 se paga completa al encargar, porque queda por debajo de $500. "
          "Un encargo de exactamente $500 ya deja sólo la mitad: $250. "
          "Un encargo de $499, en cambio, se paga completo."),
        p("¿Cuánto tiempo tengo para pagar el anticipo? "
          "24 horas desde que le mandamos el total y el folio. Si no llega el pago, el encargo se libera y "
          "el lugar en el horno se ofrece a otra persona. "
          "Si pagó por transferencia y el dinero no aparece en 24 horas por una falla del banco, mándenos el "
          "comprobante y respetamos el encargo. "
          "El folio del encargo empieza con TL y aparece en la confirmación; úselo como referencia de la "
          "transferencia."),
        p("¿El envío cuenta para el anticipo? No. El envío y el cargo por manejo de pastel se pagan completos junto "
          "con el anticipo y no entran en el cálculo de la mitad. Un pedido a domicilio, además, se liquida "
          "completo antes de que salga el repartidor, porque él no cobra ni lleva terminal."),
        h2("Facturas"),
        p("Facturamos cualquier compra, de mostrador o por encargo, con CFDI 4.0. Mande por WhatsApp la "
          "foto del ticket, su RFC, el nombre o razón social como aparece en su constancia de situación "
          "fiscal, código postal, régimen fiscal y uso del CFDI. También puede usar el código QR del ticket. "
          "Sin el ticket o el comprobante de pago con tarjeta no podemos facturar, porque el sistema pide el número "
          "de la venta. "
          "El ticket trae un código QR que lleva al formulario de facturación; el formulario pide los mismos datos."),
        p("La factura se pide en el mismo mes de la compra; después del día 3 del mes siguiente ya no se puede "
          "emitir. Llega por correo en un máximo de 72 horas. Un encargo con anticipo se factura por el total "
          "cuando se liquida; si necesita una factura por el anticipo y otra por el resto, pídalo al confirmar el "
          "encargo. La factura de un pedido a domicilio incluye el envío y el cargo por manejo de pastel, si lo "
          "hubo."),
        bookmark("https://www.sat.gob.mx/portal/public/tramites/factura-electronica",
                 "SAT: información sobre la factura electrónica (CFDI 4.0) y los datos que pide."),
        h3("Me equivoqué en un dato de la factura"),
        p("Podemos cancelarla y emitirla de nuevo una sola vez, dentro del mismo mes. Revise su constancia "
          "de situación fiscal antes de mandarnos los datos: la mayoría de los errores están en el código "
          "postal o en el régimen. "
          "Las cuentas de mayoreo reciben una factura por cada entrega y un estado de cuenta cada semana, así que no "
          "necesitan pedirla. "
          "Si su empresa necesita que la factura diga algo especial en el concepto, como el nombre de un evento, "
          "díganoslo al pedirla."),
        h2("Tarjetas de regalo y saldos a favor"),
        p("Las tarjetas de regalo de $200, $500 y $1,000 valen un año, se usan en mostrador y en encargos y se "
          "pueden gastar en varias visitas. El saldo a favor que queda de una cancelación vale 60 días y se usa "
          "igual que una tarjeta de regalo, con el folio del encargo cancelado. "
          "Pasados los 60 días, el saldo a favor vence y ya no se puede usar ni reembolsar."),
        p("Ni las tarjetas ni los saldos se cambian por efectivo. Si pierde una tarjeta de regalo y tiene foto del "
          "código, la podemos reponer; sin el código no hay forma de saber cuánto saldo tenía. Las tarjetas de "
          "regalo no sirven para pagar pedidos de mayoreo ni se pueden usar para pagar el envío de un pedido a "
          "domicilio. Tampoco se usan para pagar propinas."),
        h2("Propinas"),
        p("La propina no se incluye en el ticket y es voluntaria. Lo que se deja en el bote del mostrador "
          f"se reparte entre todo el equipo cada semana, también el turno de noche del obrador. {fill[0]}"),
        p(f"{fill[1]} {fill[2]}"),
    ]


def _cakes(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["faq"], 3)
    return [
        p("Lo que conviene saber antes de encargar un pastel o una caja de pan para una ocasión especial. "
          "Los pasteles se hacen sólo por encargo y se arman el mismo día de la recogida; en mostrador sólo hay "
          "rebanadas de tres leches los fines de semana y pay de queso por rebanada de miércoles a domingo. "
          "Las reglas completas de anticipación, decoración y recogida están en la «Política de pedidos especiales». "
          "Para encargar, use la plantilla de WhatsApp de esa política: pide el producto con su clave, el tamaño, el "
          "mensaje, las alergias y el día y la hora de recogida."),
        h2("Encargar un pastel"),
        toggle("¿Con cuántos días tengo que pedir un pastel?",
               p("Un pastel de tres leches o un pay entero, con al menos 72 horas antes de la recogida. Si "
                 "lleva figuras, flores de azúcar o fotografía comestible, con 5 días."),
               p("En mayo y diciembre la agenda se llena antes: horneamos como máximo 12 pasteles por día, "
                 "así que conviene escribir con una o dos semanas. "
                 "Sin anticipo el encargo no queda apartado: si el total es de $500 o más se deja la mitad, y si es "
                 "menor se paga completo."),
               p("Un pastel mediano de $650, por ejemplo, deja $325 de anticipo; se puede cancelar sin costo hasta "
                 "48 horas antes de la recogida.")),
        toggle("¿De qué tamaños hay?",
               p("El tres leches se hace chico (8 porciones, $420), mediano (15 porciones, $650) y grande "
                 "(25 porciones, $980). El pay de queso entero de 22 cm da 8 rebanadas y cuesta $520; el "
                 "chico de 12 cm cuesta $180. "
                 "La rebanada de tres leches cuesta $70 y la de pay de queso $65, sin encargo, mientras haya."),
               p("La rosca de Reyes y el pan de Pascua tienen sus propios tamaños y precios en sus avisos de "
                 "temporada.")),
        h2("Sabores y decoración"),
        p("Hacemos tres leches de vainilla con fresa, durazno o mango según la temporada, y tres leches de "
          "chocolate con crema de cajeta. No hacemos pastel de fondant, de pisos, de zanahoria ni de nuez. "
          "La fruta depende de la temporada: fresa en primavera, mango en mayo y junio, durazno en verano. Si la "
          "fruta que pidió no está buena ese día, le escribimos para ofrecerle otra antes de armar el pastel. "
          "El tres leches de chocolate se hace con el mismo bizcocho de vainilla, bañado con leche con cacao y "
          "cubierto con crema de cajeta. "
          "El sabor de chocolate cuesta lo mismo que el de vainilla en los tres tamaños."),
        p("¿Le pueden escribir un nombre? "
          "Sí, un mensaje de hasta 30 caracteres sobre la crema, sin costo. La fotografía comestible cuesta "
          "$120, las velas de número $15 cada una y la caja de regalo con moño $45."),
        p("¿Pueden hacer un pastel de un personaje? "
          "No hacemos figuras de personajes con derechos de autor. Podemos decorar con fruta, flores de "
          "azúcar sencillas, chispas de colores o la fotografía comestible que usted nos mande. "
          "La imagen de la fotografía comestible se manda por WhatsApp con 5 días de anticipación y en buena "
          "resolución; no imprimimos imágenes con marcas ni personajes. "
          "La fotografía comestible se imprime en hoja de azúcar sobre la crema y se come; tiene sabor neutro."),
        h2("Recoger y transportar"),
        p("Se recoge en mostrador a la hora acordada, con 30 minutos de tolerancia antes o después. Diga su "
          "nombre o su folio en la caja de encargos, junto a la puerta; no hace falta hacer fila. "
          "Del 20 al 24 de abril, por la obra de la banqueta, la caja de encargos está junto a la puerta lateral."),
        p("El pastel viaja plano, en el piso del coche y no en el asiento, y se guarda en el refrigerador en "
          "cuanto llega. Si lo va a servir en más de una hora, pida que se lo entreguemos con hielo seco "
          "($60). "
          "En la caja va una etiqueta con la fecha, los alérgenos declarados y la indicación de mantener en "
          "refrigeración. "
          "Los pasteles entregados a domicilio viajan en camioneta, con geles refrigerantes de mayo a septiembre, y "
          "se entregan en la mano."),
        p("¿Puede recogerlo otra persona? "
          "Sí; mándenos su nombre por WhatsApp antes. Si queda saldo pendiente, quien recoge lo paga en "
          "mostrador. "
          "No entregamos un encargo con saldo pendiente sin pagar, aunque la persona que recoge traiga el folio."),
        h2("Si alguien del festejo tiene alergias"),
        p("No cambiamos recetas para quitar un ingrediente: el tres leches y el pay de queso llevan gluten, leche y "
          "huevo y pueden traer trazas de nuez. Si alguien del festejo es alérgico, díganoslo en el renglón de "
          "alergias de la plantilla y le ayudamos a elegir piezas que no lleven ese alérgeno en la receta, con la "
          "advertencia de trazas de cada ficha. "
          "Las galletas de avena y las conchas son las piezas sin nuez ni cacahuate en la receta que más se piden "
          "para fiestas escolares. "
          "Si la escuela prohíbe alimentos con nuez, revise también las trazas: casi todo el pan declara trazas de "
          "nuez."),
        h3("Cambios después de confirmar"),
        p("Puede cambiar el mensaje o el sabor de la fruta hasta 48 horas antes, sin costo, y la hora de recogida "
          "dentro del mismo día hasta 24 horas antes, si hay lugar en el horno. Cambiar el tamaño del pastel a uno mayor se confirma como un pedido nuevo y "
          "recalcula el anticipo; cambiarlo a uno menor se trata como una cancelación parcial, con las reglas de "
          "plazo de la «Política de cancelaciones». "
          "Un mensaje nuevo o una foto comestible distinta después de ese plazo sólo se pueden aceptar si el pastel "
          "todavía no se decoró."),
        h2("Cuánto pedir"),
        p("Para calcular porciones: cuente una porción por adulto y una por cada dos niños menores de diez "
          "años si habrá otros postres. Para una caja de pan dulce, dos piezas por persona en un desayuno "
          "y una y media en una merienda. "
          "Si duda entre dos tamaños, elija el mayor: lo que sobra dura tres días en el refrigerador."),
        p("Ejemplo: una fiesta de 20 adultos y 10 niños necesita 25 porciones, un tres leches grande. Un "
          f"desayuno de oficina para 15 personas, 30 piezas de pan dulce. {fill[0]} {fill[1]} {fill[2]}"),
    ]


def _hours(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["faq"], 3)
    return [
        p("Dónde estamos, a qué hora abrimos y cómo llegar. Los horarios especiales de temporada se publican como "
          "avisos. Si un aviso y esta página no coinciden, para las fechas del aviso manda el aviso. En 2026 hay "
          "avisos para Semana Santa, para el puente del 1 de mayo, para el mantenimiento del horno del lunes 20 de "
          "abril y para las obras en la banqueta de la calle Petén. Los avisos de temporadas que ya pasaron se "
          "retiran cuando Valeria los revisa; mientras tanto, fíjese en las fechas de cada uno."),
        h2("Horarios"),
        toggle("¿A qué hora abren?",
               p("Entre semana abrimos a las 7:30; sábados y domingos, a las 8:00. El horario completo de "
                 "la tienda es éste:"),
               synced_reference(GENERAL_HOURS_KEY)),
        toggle("¿Abren en días festivos?",
               p("Sí, casi todos, con horario de domingo: de 8:00 a 15:00. Sólo cerramos el 1 de enero y el "
                 "25 de diciembre. Cuando un festivo tiene un horario distinto, lo anunciamos en un aviso "
                 "de temporada con dos semanas de anticipación. "
                 "Por ejemplo, el viernes 1 de mayo tiene horario especial: revise el aviso del puente antes de "
                 "venir. "
                 "En Semana Santa, el Viernes Santo abrimos de 8:00 a 15:00, y el lunes 20 de abril, por el "
                 "mantenimiento del horno, de 8:00 a 13:00 con menú reducido."),
               p("El 1 de enero y el 25 de diciembre la tienda está cerrada y no hay entregas.")),
        h2("Ubicación y cómo llegar"),
        p("Estamos en la calle Petén 318, local B, en la colonia Narvarte Poniente, alcaldía Benito Juárez. La "
          "entrada está a nivel de calle, con rampa. Es un local en planta baja con toldo verde, entre una "
          "papelería y una farmacia; desde la banqueta se ve el horno a través de un vidrio. Del 20 al 24 de abril, "
          "por la obra de la banqueta, se entra por la puerta lateral junto a la farmacia; el aviso de las obras "
          "explica cómo llegar con silla de ruedas o carriola. El resto del año, la rampa de la entrada principal "
          "está siempre libre y el mostrador tiene una sección baja."),
        bullet("En metro: estación Eugenia de la línea 3, a siete minutos a pie."),
        bullet("Desde la estación Etiopía, también de la línea 3, son doce minutos a pie: se camina hacia el "
               "sur y se da vuelta en Eugenia hasta llegar a Petén."),
        bullet("En bicicleta: hay un biciestacionamiento frente a la tienda y una estación de Ecobici a media "
               "cuadra. Hay dos racks de bicicleta frente a la puerta, aunque del 20 al 24 de abril se retiran por "
               "la obra de la banqueta."),
        bookmark("https://ecobici.cdmx.gob.mx/", "Ecobici: mapa de estaciones; la más cercana está a media cuadra "
                 "de la tienda."),
        bullet("En coche: no tenemos estacionamiento; en la calle hay parquímetros de lunes a sábado."),
        h2("Horas con menos fila"),
        p("Entre semana la tienda está más tranquila de 10:00 a 13:00 y de 15:00 a 18:00. Los sábados, "
          "después de la 1 de la tarde. Pero a esas horas puede que algunas piezas ya se hayan acabado: el "
          "rol de canela y los cuernitos suelen terminarse antes del mediodía en fin de semana. "
          "Si viene por algo en particular, pregunte por WhatsApp antes de salir de casa si todavía hay, o apártelo. "
          "Los lunes, en cambio, casi no hay fila en todo el día."),
        p("¿Puedo apartar pan por teléfono? "
          "Puede apartar por WhatsApp hasta 6 piezas del día para recoger en las siguientes dos horas, sin "
          "anticipo. Para más piezas o para otro día, es un encargo normal. "
          "Lo apartado que no se recoge en esas dos horas vuelve a la vitrina sin aviso. "
          "Para apartar, mande el nombre de las piezas, la cantidad y su nombre; le contestamos con la hora límite "
          "para recoger. No se apartan piezas de temporada ni rebanadas de pastel. "
          "Tampoco se aparta pan para el día siguiente: eso ya es un encargo."),
        h2("En la tienda"),
        p("Hay cuatro mesas en la terraza, sin servicio a la mesa: se pide y se paga en mostrador. Vendemos café "
          "americano ($30), café de olla ($35) y chocolate caliente ($40). Los perros con correa son bienvenidos en "
          "la terraza; dentro de la tienda sólo entran perros de asistencia. La red inalámbrica es gratis, y entre "
          "semana de 8:00 a 10:00 pedimos no ocupar una mesa más de media hora. No hay servicio de cocina: sólo "
          "pan, galletas, postres y bebidas calientes. Se puede traer comida de fuera a la terraza sin problema. Si "
          "viene en grupo de más de ocho personas, avísenos y juntamos dos mesas."),
        p("¿Tienen baño para clientes? "
          "Sí, en el fondo de la tienda, con cambiador para bebés. Está disponible para clientes durante todo el "
          "horario de la tienda; en hora pico puede haber una pequeña fila. "
          "También hay una silla alta para niños que se pide en mostrador."),
        h2("Contacto"),
        p("El WhatsApp de la tienda atiende de lunes a sábado de 8:00 a 19:00 y los domingos de 8:00 a "
          "14:00, y contesta en menos de 30 minutos dentro de ese horario. El número está en la puerta, en "
          f"los tickets y en nuestras redes. {fill[0]} {fill[1]} {fill[2]}"),
    ]


def _wholesale(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["faq"], 3)
    return [
        p("Preguntas de cafeterías, restaurantes y oficinas que quieren servir pan de Trigo Lento. Las "
          "condiciones completas están en la «Política de mayoreo». "
          "Si sólo necesita mucho pan para una fiesta o una reunión, no hace falta cuenta: es un pedido especial "
          "normal. "
          "Tampoco hace falta cuenta para una oficina que pide pan para una junta de vez en cuando: basta con el "
          "pedido especial y, si pasa de $500, con el anticipo de la mitad."),
        h2("Abrir una cuenta"),
        toggle("¿Venden pan a negocios?",
               p("Sí, con una cuenta de mayoreo. Pedimos RFC, constancia de situación fiscal, un pedido "
                 "mínimo de $1,500 y que el negocio esté en las zonas 1 o 2 de reparto. Hoy atendemos a 14 "
                 "negocios y abrimos cuentas nuevas sólo cuando el horno lo permite. "
                 "Revisamos cada solicitud en un máximo de 10 días hábiles, y Valeria visita el negocio antes de "
                 "abrir la cuenta."),
               p("Si su negocio está fuera de las zonas 1 y 2, puede comprar como cliente normal con pedidos "
                 "especiales y mandar a su mensajero a recoger.")),
        toggle("¿Puedo probar antes de abrir la cuenta?",
               p("Sí. La prueba de producto cuesta $350 e incluye dos piezas de cada producto que quiera "
                 "probar. Si abre la cuenta en los siguientes 30 días, se descuenta del primer pedido. "
                 "La prueba se entrega en la tienda o en su negocio, si está en las zonas 1 o 2, en cualquier mañana "
                 "de martes a sábado.")),
        h2("Precios para negocios"),
        p("Los pedidos desde $1,500 tienen 12 % de descuento sobre el precio de mostrador, y los pedidos "
          "desde $4,000, 15 %. El pan de masa madre para restaurante (baguette y hogaza de 1 kg) tiene un "
          "precio por kilo que se acuerda cada seis meses. "
          "Los precios de referencia son los de las fichas de producto; por ejemplo, un cuernito de $32 en mostrador "
          "queda en $28.16 con el 12 % y en $27.20 con el 15 %. "
          "Los precios de mayoreo se muestran en cada factura junto al precio de mostrador, para que el descuento se "
          "vea."),
        p("Los descuentos no se combinan con promociones ni cupones. Cuando cambia un precio, avisamos con 30 días "
          "de anticipación. Ejemplo: 40 cuernitos y 30 conchas suman $1,820 a precio de mostrador y, con el 12 %, "
          "quedan en $1,601.60."),
        h2("Entregas"),
        p("Se pide en el grupo de WhatsApp de la cuenta a más tardar a las 14:00 del día anterior. "
          "Entregamos de martes a sábado entre las 6:30 y las 8:00; no hay reparto de mayoreo los domingos "
          "ni los lunes. Cada entrega lleva una nota con los alérgenos declarados de cada producto. "
          "Esa nota sirve para que su personal responda a sus propios clientes; si un cliente pregunta algo que la "
          "nota no dice, escríbanos y le contestamos con la ficha. "
          "Si un producto cambia de receta, la nota lo marca durante una semana con la leyenda «receta nueva». "
          "Las cuentas de mayoreo reciben además un aviso por WhatsApp cuando cambia un alérgeno de una pieza que "
          "compran."),
        p("¿Qué pasa con las cajas? "
          "El pan llega en cajas de plástico retornables. El repartidor recoge las del día anterior; una "
          "caja que no se devuelve en una semana se cobra a $180. "
          "Los faltantes y las piezas dañadas se reportan en el grupo antes de las 10:00 del mismo día y se reponen "
          "en la siguiente entrega o se descuentan de la factura. Lo que no se vendió no se devuelve."),
        p("¿Puedo cancelar un pedido de mayoreo? "
          "Sin cargo hasta 72 horas antes de la entrega; entre 72 y 48 horas se cobra la mitad, y con menos "
          "de 48 horas, completo. Un pedido recurrente se suspende con una semana de aviso. "
          "Los pedidos recurrentes se pueden pausar hasta cuatro semanas al año sin perder la cuenta, por ejemplo en "
          "vacaciones escolares."),
        p("¿Qué pasa si un día no necesito pan? "
          "Avise en el grupo de la cuenta con 72 horas para cancelar sin cargo. Si su negocio cierra un día festivo, "
          "díganoslo al inicio del mes y lo sacamos de la ruta; no hace falta avisar cada semana."),
        h2("Cómo ofrecer nuestro pan"),
        p("El pan de mayoreo llega temprano para que su negocio lo venda el mismo día. Recomendamos no guardar los "
          "cuernitos ni las conchas en vitrinas calientes, porque se secan en una hora, y ofrecer la baguette entera "
          "o rebanada al momento. Las piezas con crema o queso, si las pide, van directo al refrigerador."),
        p("Si su negocio quiere explicar a sus clientes de dónde viene el pan, le mandamos una tarjeta por producto "
          "con el nombre, la clave, los ingredientes y los alérgenos declarados de la ficha. Le pedimos no "
          "modificar esa información ni prometer a sus clientes que una pieza es «sin» algún alérgeno. Si un "
          "cliente suyo pregunta por alergias, lo mejor es mostrarle la tarjeta tal cual o darle el WhatsApp de la "
          "tienda."),
        h2("Pagos"),
        p("El primer mes se paga por adelantado cada semana. Desde el segundo mes, con pagos puntuales, hay "
          "crédito de 15 días contra factura. Un atraso de más de 10 días suspende las entregas. "
          "Los pagos se hacen por transferencia SPEI con el número de cuenta como referencia; el repartidor no cobra "
          "ni recibe efectivo."),
        p("¿Puedo vender el pan con mi marca? No: si vende nuestras piezas, su carta o su vitrina deben "
          f"decir que son de Trigo Lento. {fill[0]} {fill[1]} {fill[2]}"),
    ]


def _sourdough(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["faq"], 3)
    return [
        p("Dudas sobre la masa madre, la fermentación larga y por qué el pan de Trigo Lento se llama así. "
          "El nombre de la panadería viene de ahí: el trigo se trabaja lento, con fermentaciones de muchas horas, y "
          "eso se nota en el sabor y en cuánto dura el pan. "
          "Don Ernesto dice que el ingrediente que más le cuesta a la panadería no es la mantequilla sino el tiempo. "
          "Por eso la baguette cuesta $45 y no lo que cuesta un bolillo: casi dos días de proceso por pieza."),
        h2("La masa madre"),
        toggle("¿Qué es la masa madre?",
               p("Es una mezcla de harina y agua donde viven levaduras y bacterias silvestres que hacen "
                 "crecer la masa sin levadura comercial. Se alimenta con harina y agua todos los días, y un "
                 "poco de ella se usa en cada amasado. "
                 "Con el tiempo cada masa madre toma el carácter de su harina, de su agua y de la temperatura de la "
                 "cocina; por eso el pan de dos panaderías con la misma receta nunca sabe igual."),
               p("La nuestra se llama Lupita, nació en 2019 y vive en el refrigerador del obrador. Cuando "
                 "Don Ernesto sale de vacaciones, alguien del equipo la alimenta dos veces al día."),
               p("La proporción que usamos es una parte de masa madre por una de harina y una de agua, a temperatura "
                 "de cocina, y la guardamos en frío cuando no se va a usar en el día.")),
        toggle("¿Me regalan un poco de masa madre?",
               p("Sí, los sábados regalamos 50 g de masa madre en un frasquito a quien traiga su propio "
                 "frasco limpio con tapa. Le damos una hoja con instrucciones para alimentarla. "
                 "Se entregan hasta diez frascos por sábado, en orden de llegada; no se apartan por mensaje."),
               p("Si la suya se muere en casa, puede volver por otro frasquito el siguiente sábado; nos pasa también "
                 "a nosotros cuando hace mucho calor.")),
        h2("Qué panes la usan"),
        p("La baguette se hace sólo con masa madre, harina, agua y sal, y fermenta 18 horas en frío. El pan "
          "integral de semillas lleva un poco de masa madre junto con levadura. El pan dulce (conchas, roles, "
          "cuernitos) se hace con levadura, porque la masa madre le daría un sabor ácido que no queremos ahí. El "
          "pan de muerto y la rosca, en temporada, llevan un poco de masa madre junto con la levadura para que "
          "duren más suaves. La concha, el rol y el cuernito fermentan toda la noche en frío con poca levadura, que "
          "también es una forma de fermentación lenta, aunque no sea con masa madre. La diferencia es que la "
          "levadura comercial da un sabor más neutro, que es lo que queremos en el pan dulce."),
        p("¿Por qué la baguette sale hasta el mediodía? Porque la masa se forma en la mañana después de pasar la "
          "noche en frío, y el horno a 240 °C tarda en recuperarse entre tandas. La primera charola sale hacia las "
          "12:00 todos los días. Salen unas 45 baguettes al día y la mitad ya está apartada por encargos; el resto "
          "suele acabarse hacia las cinco de la tarde. Los domingos se hornea la mitad, porque la tienda cierra a "
          "las 15:00."),
        h2("Sabor y digestión"),
        p("La fermentación larga da una corteza más oscura, una miga con hoyos irregulares y un sabor "
          "ligeramente ácido. Hay personas que dicen digerir mejor el pan de masa madre; no hacemos "
          "promesas de salud, pero sí podemos decir que no lleva azúcar, grasa, leche ni huevo. "
          "Por cada 100 g, la baguette aporta unas 250 kcal, 1 g de grasa, 51 g de carbohidratos y 9 g de proteína, "
          "según un cálculo con tablas de referencia. "
          "No tiene azúcar añadida ni grasa, y su sal es de mar, de Colima."),
        p("¿El pan de masa madre es apto para celíacos? "
          "No. La fermentación larga no elimina el gluten del trigo. La baguette es puro trigo y no es apta "
          "para personas celíacas. "
          "Tampoco lo es ningún otro pan del obrador, que trabaja con harina de trigo todo el día. "
          "La lista completa de piezas con gluten está en «Alérgenos: gluten y cereales»."),
        h2("Baguette para restaurantes"),
        p("Los restaurantes con cuenta de mayoreo pueden pedir baguette y hogaza de masa madre en piezas de 1 kg, "
          "con un precio por kilo que se acuerda cada seis meses. Como la masa fermenta 18 horas, estos pedidos se "
          "hacen a más tardar a las 14:00 del día anterior y se entregan entre las 6:30 y las 8:00, o a las 12:00 "
          "si el restaurante prefiere pan de la primera tanda de baguette. Las cuentas que piden baguette tienen el "
          "mismo descuento que con cualquier otra pieza: 12 % desde $1,500 y 15 % desde $4,000."),
        h2("En casa"),
        p("Guarde la baguette envuelta en un trapo de algodón hasta 2 días, o congélela en trozos hasta 2 "
          "meses. Para devolverle la corteza, rocíela con agua y métala 6 minutos al horno a 200 °C. "
          "Nunca la guarde en bolsa de plástico a temperatura ambiente: la corteza se ablanda en unas horas y la "
          "humedad atrapada favorece el moho."),
        p("Si quiere hacer pan en casa con nuestra masa madre, aliméntela con partes iguales de harina y "
          "agua (50 g de cada una) cada 12 horas durante tres días antes de usarla. La primera vez suele "
          f"salir más densa: es normal. {fill[0]} {fill[1]} {fill[2]}"),
        p("¿Venden harina o masa cruda? No vendemos harina ni masa cruda de pan; la masa madre que regalamos los "
          "sábados es lo único que sale del obrador sin hornear. Si quiere la harina de molino de piedra que "
          "usamos, le pasamos el contacto del molino de Tlaxcala. Vende por costal de 25 kg; para cantidades "
          "pequeñas, algunas tiendas de la colonia Del Valle la venden por kilo."),
    ]


def _gifts(rng: np.random.Generator) -> list[Block]:
    fill = some_of(rng, FILLER["faq"], 3)
    return [
        p("Cajas de regalo, mesas de postres y pedidos para reuniones de trabajo. "
          "Las reglas de anticipos, cancelaciones y entregas son las mismas de cualquier encargo; aquí van las dudas "
          "propias de los regalos. "
          "Si el regalo es para alguien con una alergia, díganoslo: le ayudamos a elegir piezas sin ese alérgeno en "
          "la receta y ponemos la tarjeta de alérgenos dentro de la caja. "
          "Las cajas de regalo se encargan con 48 horas de anticipación, y con una semana en diciembre."),
        h2("Cajas de regalo"),
        toggle("¿Qué cajas de regalo tienen?",
               p("Armamos cajas con piezas que aguantan bien el viaje: brownies, orejas, polvorones y "
                 "galletas de avena. La caja de regalo con moño cuesta $45 además de las piezas, y se "
                 "puede agregar una tarjeta escrita a mano sin costo. Todas las cajas llevan una tarjeta con los "
                 "alérgenos de cada pieza; los brownies llevan nuez y los polvorones, cacahuate."),
               bullet("Caja chica: 6 piezas surtidas, desde $140 más la caja."),
               bullet("Caja mediana: 12 piezas surtidas, desde $280 más la caja.")),
        toggle("¿Pueden enviar una caja de regalo a otra persona?",
               p("Sí, dentro de nuestras zonas de reparto y con las reglas normales de envío. Díganos el "
                 "nombre de quien recibe y si es sorpresa, para que el repartidor no llame antes. "
                 "La tarjeta escrita a mano va por fuera de la caja; el ticket con precios nunca va dentro de un "
                 "regalo."),
               p("El envío cuesta lo de siempre: $40 en la zona 1, $70 en la zona 2 y $110 en la zona 3; en la zona "
                 "1 es gratis desde $600.")),
        h2("Eventos y mesas de postres"),
        p("Para eventos vendemos charolas de piezas pequeñas: mini conchas, mini roles, brownies en cuadritos y "
          "polvorones. Una charola de 30 piezas pequeñas cuesta $390. No montamos la mesa ni mandamos personal al "
          "evento; entregamos las charolas listas para servir. Se pueden combinar hasta tres piezas distintas por "
          "charola, y una charola alcanza para unas 15 personas si hay otros postres. Las charolas se encargan con "
          "48 horas de anticipación y siguen las reglas de anticipo de siempre: una charola de $390 se paga "
          "completa, y dos charolas, que suman $780, dejan $390 de anticipo."),
        p("Los pedidos de más de 60 piezas o para más de 80 personas se encargan con una semana de "
          "anticipación y se confirman con Valeria. "
          "En esos pedidos, Valeria confirma también la hora de entrega y quién recibe en el lugar del evento. "
          "Para eventos fuera de nuestras zonas de reparto, las charolas se recogen en tienda; podemos prepararlas "
          "con hielo seco si llevan piezas con crema."),
        p("¿Pueden poner etiquetas con los alérgenos? "
          "Sí, en los pedidos para eventos ponemos una tarjeta por charola con el nombre de la pieza y sus "
          "alérgenos declarados, copiados de la ficha. Es útil cuando hay invitados con alergias. "
          "Recuerde que los brownies y los mini roles llevan nuez en la receta; si hay invitados alérgicos, conviene "
          "pedirlos en una charola aparte. "
          "Los polvorones llevan cacahuate, así que tampoco conviene mezclarlos con otras piezas si hay alguien "
          "alérgico al cacahuate."),
        h2("Tarjetas de regalo"),
        p("Las tarjetas de regalo de $200, $500 y $1,000 valen un año desde la compra y se usan en mostrador y en "
          "encargos, en una o varias visitas. Vienen impresas en un sobre de papel con un código único. No se "
          "cambian por efectivo; si se pierde una, la reponemos sólo si tiene una foto del código."),
        p("Para regalar a distancia, podemos mandar la tarjeta en una caja de regalo con piezas, dentro de las zonas "
          "de reparto, o enviarle a usted la foto del código para que la reenvíe por mensaje. "
          "Una tarjeta enviada por foto funciona igual que la impresa: en mostrador basta con mostrar el código."),
        h2("Empresas"),
        p("Para regalos de fin de año a clientes o empleados, la caja más pedida es la de 9 brownies de "
          "cacao y nuez ($350) con moño. Desde 20 cajas hacemos factura por el total y entregamos en una "
          "sola dirección. "
          "Si las cajas van a varias direcciones, cada entrega paga su envío según la zona, y las direcciones fuera "
          "de nuestras tres zonas se tienen que recoger en tienda. "
          "Para más de 20 entregas en un mismo día, las repartimos en dos días seguidos y se lo confirmamos al "
          "encargar."),
        p("Los regalos de empresa para diciembre se encargan antes del 1 de diciembre. Después de esa "
          "fecha sólo tomamos pedidos si queda lugar en la agenda. "
          "Para más de 50 cajas, escríbanos en octubre: el obrador planea diciembre con un mes de anticipación. "
          "Las cajas de empresa llevan una etiqueta con los alérgenos declarados de cada pieza; los brownies llevan "
          "nuez, y se puede pedir la caja sin brownies, con orejas y polvorones."),
        p("¿Pueden poner el logo de mi empresa? "
          "No imprimimos logos en las piezas ni en las cajas, pero sí podemos poner su tarjeta o una etiqueta que "
          "usted nos entregue con una semana de anticipación. La fotografía comestible sólo se usa en pasteles, no "
          "en cajas de piezas."),
        p(""),
        divider(),
        p("¿Y si el regalo no le gusta a quien lo recibe? Las piezas no se cambian, pero si algo llegó mal, quien "
          "lo recibió puede escribirnos con la foto y el nombre de quien lo mandó, y lo resolvemos como cualquier "
          f"queja. {fill[0]} {fill[1]} {fill[2]}"),
    ]


FAQS: tuple[Outline, ...] = (
    Outline("faq-conservacion", "Preguntas frecuentes: conservación", "faq", "❄️", _storage),
    Outline("faq-alergias", "Preguntas frecuentes: alergias", "faq", "❓", _allergies),
    Outline("faq-cambios-y-cancelaciones", "Preguntas frecuentes: cambios y cancelaciones", "faq", "❓",
            _cancellations),
    Outline("faq-entregas", "Preguntas frecuentes: entregas a domicilio", "faq", "❓", _deliveries),
    Outline("faq-pagos-y-facturas", "Preguntas frecuentes: pagos y facturas", "faq", "❓", _payments),
    Outline("faq-pasteles-y-encargos", "Preguntas frecuentes: pasteles y encargos", "faq", "❓", _cakes),
    Outline("faq-horarios-y-ubicacion", "Preguntas frecuentes: horarios y ubicación", "faq", "❓", _hours),
    Outline("faq-mayoreo", "Preguntas frecuentes: mayoreo y cafeterías", "faq", "❓", _wholesale),
    Outline("faq-masa-madre", "Preguntas frecuentes: pan de masa madre", "faq", "❓", _sourdough),
    Outline("faq-regalos-y-eventos", "Preguntas frecuentes: regalos y eventos", "faq", None, _gifts),
)
