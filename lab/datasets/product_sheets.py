"""Product sheets ("Ficha: ...") written from product files, and the product lists allergen pages embed.

Each piece the bakery sells is a TOML file of facts, ``lab/datasets/data/pages/bakery/ficha-<piece>.toml``;
``product_sheet.toml`` beside them holds the sentences every sheet shares. Where it offers several
wordings, a sheet draws its own with the page's seeded generator: twelve sheets written from one
outline would otherwise repeat the same sentences, and retrieval would match on them. Allergen
pages list the pieces that carry an allergen with ``::product_list{contains="nuez"}``, written from
the same files, so a sheet and an allergen page cannot disagree.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import MISSING, dataclass, field, fields
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from .notion_markdown import Block, Directive

__all__ = ["Product", "read_product", "read_wording", "product_sheet", "product_list", "latest_change",
           "join_es", "pesos"]

Wording = dict[str, Any]


@dataclass(frozen=True)
class Product:
    """One piece the bakery sells, with every fact its sheet states (the fields of its TOML file)."""

    key: str  # the sheet's page key: the file name without .toml
    name: str
    article: str
    code: str
    icon: str
    description: list[str]
    story: str
    weight: str
    process: str
    ingredients: list[str]
    sourcing: str
    nutrition: dict[str, Any]
    contains: list[str]
    traces: list[str]
    where: dict[str, str]
    price: str
    unit: str
    other_prices: list[list[str]]
    order_threshold: int
    notice_hours: int
    example_order: dict[str, Any]
    per_person: int
    room: str
    fridge: str
    freezer: str
    chilled: bool
    reheat: str
    days: str
    first_batch: str
    daily: int
    sellout: str
    serving: str
    counter: list[str]
    created: datetime | None = None
    baker_says: str | None = None
    photo: dict[str, str] | None = None
    alert: str | None = None
    allergen_notes: list[str] = field(default_factory=list)
    order_notes: list[str] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)  # {date, text}, in the order the sheet lists them

    @property
    def made_to_order(self) -> bool:
        return self.order_threshold <= 1


def read_product(path: Path) -> Product:
    """The product file ``path``; a missing or unknown field raises an error naming the file."""
    data = _toml(path)
    names = {item.name for item in fields(Product)} - {"key"}
    required = {item.name for item in fields(Product) if item.default is MISSING and item.default_factory is MISSING}
    missing, unknown = sorted(required - {"key"} - data.keys()), sorted(data.keys() - names)
    if missing or unknown:
        raise ValueError(f"{path}: missing fields {missing}, unknown fields {unknown}; "
                         "see lab/datasets/data/pages/README.md")
    if "created" in data and data["created"].utcoffset() != timedelta(0):
        raise ValueError(f"{path}: write created in UTC, e.g. 2026-02-04T16:35:00Z")
    return Product(key=path.stem, **data)


def read_wording(path: Path) -> Wording:
    """The shared wording of the sheets (``product_sheet.toml``)."""
    return _toml(path)


def _toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path}: not valid TOML: {error}") from None


def pesos(amount: float) -> str:
    """An amount in Mexican pesos as the bakery writes it: "$1,380" or "$337.50"."""
    return f"${amount:,.0f}" if amount == int(amount) else f"${amount:,.2f}"


def join_es(items: Sequence[str], conj: str = "y") -> str:
    """Join words the way Spanish lists read: "a, b y c" (or "a ni b" with ``conj="ni"``)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    # "y" becomes "e" before an /i/ sound: "leche e ingredientes", but "agua y hielo".
    last = items[-1].lower()
    if conj == "y" and last.startswith(("i", "í", "hi", "hí")) and not last.startswith(("hia", "hie", "hio", "hiu")):
        conj = "e"
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


def latest_change(product: Product) -> date | None:
    """The latest date of the sheet's change log: its page cannot have been edited before it."""
    return max((change["date"] for change in product.changes), default=None)


def _one_of(rng: np.random.Generator, options: Sequence[str]) -> str:
    return options[int(rng.integers(len(options)))]


def _some_of(rng: np.random.Generator, pool: Sequence[str], k: int) -> list[str]:
    """``k`` distinct items of ``pool`` chosen by ``rng``, kept in the pool's order."""
    picked = sorted(int(i) for i in rng.choice(len(pool), size=k, replace=False))
    return [pool[i] for i in picked]


def _lower_first(sentence: str) -> str:
    # After a colon a Spanish sentence goes on in lower case.
    return sentence[:1].lower() + sentence[1:]


def _p(text: str) -> Block:
    return {"type": "paragraph", "text": text}


def _h(level: int, text: str) -> Block:
    return {"type": f"heading_{level}", "text": text}


def _bullet(text: str) -> Block:
    return {"type": "bulleted_list_item", "text": text}


def product_sheet(product: Product, wording: Wording, rng: np.random.Generator) -> list[Block]:
    """The blocks of "Ficha: <name>", drawing its wording from ``rng`` in reading order."""
    fillers = wording["fillers"]
    pool = fillers["any"] if product.made_to_order else fillers["any"] + fillers["counter"]
    first, second = _some_of(rng, pool, 2)
    blocks: list[Block] = []
    if product.photo:
        second = f"{second} {fillers['photo_note']}"
        blocks.append({"type": "image", "url": product.photo["url"], "caption": product.photo["caption"]})
    summary = wording["summary"]
    traces = summary["traces"].format(traces=join_es(product.traces)) if product.traces else ""
    blocks.append(_p(summary["text"].format(code=product.code, price=product.price, unit=product.unit,
                                            days=product.days, contains=join_es(product.contains), traces=traces,
                                            room=product.room)))
    blocks += _description(product, wording, rng, first)
    blocks += _ingredients(product, wording, rng)
    blocks += _allergens(product, wording, rng)
    blocks += _price(product, wording, rng)
    blocks += _storage(product, wording, rng)
    blocks += _baking(product, wording, rng, second)
    blocks += _changes(product, wording)
    return blocks


def _description(product: Product, wording: Wording, rng: np.random.Generator, filler: str) -> list[Block]:
    words = wording["description"]
    blocks = [_h(2, wording["headings"]["description"]), *map(_p, product.description), _p(product.story)]
    if product.baker_says:
        blocks.append({"type": "quote", "text": words["baker_says"].format(baker_says=product.baker_says)})
    blocks.append(_p(words["weight"].format(weight=product.weight, filler=filler)))
    blocks.append(_p(_one_of(rng, words["process"]).format(process=_lower_first(product.process))))
    return blocks


def _ingredients(product: Product, wording: Wording, rng: np.random.Generator) -> list[Block]:
    words = wording["ingredients"]
    listing = _one_of(rng, words["listing"]).format(ingredients=", ".join(product.ingredients))
    return [_h(2, wording["headings"]["ingredients"]), _p(listing), _p(product.sourcing),
            _p(words["nutrition"].format(**product.nutrition))]


def _allergens(product: Product, wording: Wording, rng: np.random.Generator) -> list[Block]:
    words, names = wording["allergens"], wording["allergen_names"]
    blocks: list[Block] = [_h(2, wording["headings"]["allergens"])]
    if product.alert:
        blocks.append({"type": "callout", "text": product.alert, "icon": words["alert_icon"]})
    where = "; ".join(words["where_item"].format(allergen=names[allergen]["named"], place=place)
                      for allergen, place in product.where.items())
    contains = _one_of(rng, words["contains"]).format(contains=", ".join(product.contains))
    blocks.append(_p(f"{contains} {words['where'].format(where=where)}"))
    pages = join_es([f"«{page}»" for page in sorted({names[a]["page"] for a in product.contains + product.traces})])
    traces = _one_of(rng, words["traces"]).format(traces=join_es(product.traces))
    blocks.append(_p(f"{traces} {words['pages'].format(pages=pages)} {_one_of(rng, words['habits'])}"))
    return blocks + [_p(text) for text in product.allergen_notes]


def _price(product: Product, wording: Wording, rng: np.random.Generator) -> list[Block]:
    words = wording["price"]
    facts = {"name": product.name, "price": product.price, "unit": product.unit, "code": product.code,
             "order_threshold": product.order_threshold, "notice_hours": product.notice_hours}
    blocks = [_h(2, wording["headings"]["price"]), _p(_one_of(rng, words["price"]).format(**facts))]
    blocks += [_bullet(words["other_price"].format(label=label, price=price)) for label, price in product.other_prices]
    order = words["made_to_order"] if product.made_to_order else _one_of(rng, words["large_order"])
    how_to_order = words["how_to_order"].format(**facts)
    blocks.append(_p(f"{order.format(**facts)} {how_to_order} {_one_of(rng, words['habits'])}"))
    what, total = product.example_order["what"], product.example_order["total"]
    if total < wording["rules"]["deposit_from"]:
        example = words["paid_in_full"].format(what=what, total=pesos(total))
    else:
        example = words["with_deposit"].format(what=what, total=pesos(total), deposit=pesos(total / 2))
    blocks.append(_p(f"{example} {_one_of(rng, words['cancelling'])}"))
    return blocks + [_p(text) for text in product.order_notes] + _party(product, wording)


def _party(product: Product, wording: Wording) -> list[Block]:
    if not product.per_person:
        return []
    words, rules = wording["price"], wording["rules"]
    pieces = rules["party_guests"] * product.per_person
    total = pieces * int(product.price.lstrip("$"))
    deposit = (words["party_with_deposit"].format(deposit=pesos(total / 2)) if total >= rules["deposit_from"]
               else words["party_paid_in_full"])
    per_guest = rules["pieces_per_guest"][str(product.per_person)]
    return [_p(words["party"].format(guests=rules["party_guests"], per_guest=per_guest, pieces=pieces,
                                     total=pesos(total), deposit=deposit))]


def _storage(product: Product, wording: Wording, rng: np.random.Generator) -> list[Block]:
    words = wording["storage"]
    if product.chilled:
        habits = words["chilled_habits"]
    else:  # pieces that keep for weeks in a jar never go near the freezer
        habits = words["jar_habits"] if product.freezer.startswith("no ") else words["habits"]
    return [
        _h(2, wording["headings"]["storage"]),
        _bullet(words["room"].format(room=product.room)),
        _bullet(words["fridge"].format(fridge=product.fridge)),
        _bullet(words["freezer"].format(freezer=product.freezer)),
        _p(_one_of(rng, habits)),
        _p(_one_of(rng, words["reheat"]).format(reheat=_lower_first(product.reheat))),
    ]


def _baking(product: Product, wording: Wording, rng: np.random.Generator, filler: str) -> list[Block]:
    words = wording["baking"]
    facts = {"days": product.days, "first_batch": product.first_batch, "daily": product.daily,
             "sellout": product.sellout, "article": product.article, "name_lower": product.name.lower()}
    if product.made_to_order:
        when, daily = words["made_to_order"], words["made_to_order_daily"]
    else:
        when, daily = _one_of(rng, words["when"]), words["daily"]
    return [_h(2, wording["headings"]["baking"]), _p(f"{when.format(**facts)} {daily.format(**facts)} {filler}"),
            _p(product.serving), _h(3, wording["headings"]["counter"]), *map(_p, product.counter)]


def _changes(product: Product, wording: Wording) -> list[Block]:
    if not product.changes:
        return []
    months = wording["rules"]["months"]
    entries = [wording["changes"]["change"].format(day=change["date"].day, month=months[change["date"].month - 1],
                                                    year=change["date"].year, text=change["text"])
               for change in product.changes]
    return [_h(3, wording["headings"]["changes"]), _p(" ".join(entries))]


def product_list(products: Sequence[Product], wording: Wording) -> Directive:
    """The ``::product_list`` directive: bullets for the pieces that contain, or only may trace, allergens."""
    words, names = wording["product_list"], wording["allergen_names"]

    def plural(product: Product) -> str:
        return "_plural" if product.article in ("los", "las") else ""

    def carrier(product: Product, allergen: str) -> Block:
        others = [a for a in product.contains if a != allergen]
        template = words[f"contains_more{plural(product)}"] if others else words["contains"]
        return _bullet(template.format(name=product.name, code=product.code, price=product.price, unit=product.unit,
                                       allergen=names[allergen]["named"], place=product.where[allergen],
                                       others=join_es(others)))

    def trace(product: Product, allergens: list[str]) -> Block:
        named = join_es([a for a in product.traces if a in allergens], conj="ni")
        return _bullet(words[f"traces_only{plural(product)}"].format(name=product.name, allergens=named))

    def expand(attributes: dict[str, str], label: str | None) -> list[Block]:
        if label is not None or len(attributes) != 1 or attributes.keys() - {"contains", "traces_only"}:
            raise ValueError('write ::product_list{contains="nuez"} or ::product_list{traces_only="nuez, almendra"}')
        (kind, value), = attributes.items()
        allergens = [name.strip() for name in value.split(",")]
        unknown = [name for name in allergens if name not in names]
        if unknown or (kind == "contains" and len(allergens) != 1):
            takes = "one allergen" if kind == "contains" else "allergens"
            raise ValueError(f"{kind} takes {takes} of {sorted(names)}, got {value!r}")
        if kind == "contains":
            return [carrier(product, allergens[0]) for product in products if allergens[0] in product.contains]
        return [trace(product, allergens) for product in products
                if not set(allergens) & set(product.contains) and set(allergens) & set(product.traces)]

    return expand
