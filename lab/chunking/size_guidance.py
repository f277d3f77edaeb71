"""How big a chunk should be, by language and by unit, and what the usual advice means in other units.

The advice practitioners give is stated in one unit for one language: 500 to 1,200 characters
for Spanish or English text, 300 to 800 Chinese characters for Chinese, with an overlap of 10
to 20 % of the size. A chunker, though, counts in its own unit (characters, the lab's word
tokens, a model's tokens), and one unit is worth very different amounts of text per language:
the lab's tokenizer reads a run of Chinese characters without spaces as one token, while a
model's tokenizer reads about one Chinese character per token. :func:`guidance_in_units`
converts each range into any unit from the ratio measured on real chunks, and flags a range
whose upper end a model would cut (its input limit).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from lab.chunking.chunker import Chunker

__all__ = ["SIZE_GUIDANCE", "SizeGuidance", "guidance_for", "guidance_in_units", "han_characters", "overlap_share",
           "units_per_character"]

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class SizeGuidance:
    """A recommended chunk size range in one unit for one language, and the recommended overlap share."""

    language: str
    unit: str
    low: int
    high: int
    overlap_low: float = 0.10
    overlap_high: float = 0.20

    def holds_overlap(self, share: float) -> bool:
        """Whether an overlap of ``share`` of the chunk size is within the recommended range."""
        return self.overlap_low <= share <= self.overlap_high


#: The advice as it is usually given: characters for alphabetic text, Chinese characters for Chinese.
SIZE_GUIDANCE: tuple[SizeGuidance, ...] = (
    SizeGuidance("es", "characters", 500, 1_200),
    SizeGuidance("en", "characters", 500, 1_200),
    SizeGuidance("zh", "Chinese characters", 300, 800),
)


def han_characters(text: str) -> int:
    """Chinese characters (CJK ideographs) in ``text``; punctuation and Latin letters are not counted."""
    return len(_HAN.findall(text))


def guidance_for(language: str) -> SizeGuidance:
    """The advice for ``language`` (``"es"``, ``"en"`` or ``"zh"``)."""
    for guidance in SIZE_GUIDANCE:
        if guidance.language == language:
            return guidance
    known = ", ".join(g.language for g in SIZE_GUIDANCE)
    raise ValueError(f"no chunk size advice for language {language!r}; the lab has advice for {known}")


def _guidance_counter(guidance: SizeGuidance) -> Callable[[str], int]:
    return han_characters if guidance.unit == "Chinese characters" else len


def units_per_character(texts: Sequence[str], count: Callable[[str], int],
                        characters: Callable[[str], int] = len) -> float:
    """How many of ``count``'s units one character (as ``characters`` counts them) is worth, over ``texts``."""
    total = sum(characters(text) for text in texts)
    if total == 0:
        raise ValueError("the texts have no characters of the guidance's unit to measure against")
    return sum(count(text) for text in texts) / total


def guidance_in_units(texts_by_language: Mapping[str, Sequence[str]], counters: Mapping[str, Callable[[str], int]],
                      limits: Mapping[str, int] | None = None) -> pd.DataFrame:
    """Each language's advice converted into every unit of ``counters``, from the ratio measured on its texts.

    ``texts_by_language`` maps a language of :data:`SIZE_GUIDANCE` to real chunk texts in it;
    ``counters`` maps a unit's name to a function that counts it (the lab's ``count_tokens``, a
    model's tokenizer); ``limits`` gives a unit's input limit (a model's maximum tokens), and
    ``<unit>_over_limit`` says whether the advice's upper end would be cut. One row per language:
    language, unit, low, high, then ``<unit>_per_unit``, ``<unit>_low`` and ``<unit>_high`` for each counter.
    """
    limits = dict(limits or {})
    rows = []
    for language, texts in texts_by_language.items():
        guidance = guidance_for(language)
        row: dict[str, object] = {"language": language, "unit": guidance.unit, "low": guidance.low,
                                  "high": guidance.high}
        for name, count in counters.items():
            ratio = units_per_character(texts, count, _guidance_counter(guidance))
            row[f"{name}_per_unit"] = round(ratio, 3)
            row[f"{name}_low"] = round(guidance.low * ratio)
            row[f"{name}_high"] = round(guidance.high * ratio)
            if name in limits:
                row[f"{name}_over_limit"] = bool(guidance.high * ratio > limits[name])
        rows.append(row)
    return pd.DataFrame(rows)


def overlap_share(chunker: Chunker) -> float:
    """The chunker's overlap as a share of its chunk size (``overlap / size``, from its window parameters)."""
    size, overlap = (getattr(chunker, name) for name in chunker.window_params)
    return overlap / size
