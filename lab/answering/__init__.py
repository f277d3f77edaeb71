"""Answering a question from the index, with citations, and abstaining when the index cannot.

- :mod:`~lab.answering.sources` - retrieved chunks as numbered sources (title, section, url, last edit);
- :mod:`~lab.answering.prompt` - the prompt: sources fenced as data, the question last;
- :mod:`~lab.answering.injection` - a check for instruction-like text in the sources;
- :mod:`~lab.answering.extractive` - an offline answerer that copies the best sentences and cites them;
- :mod:`~lab.answering.escalation` - kinds of question that always go to a person (allergies);
- :mod:`~lab.answering.answer` - :class:`Answerer`: retrieve, answer, abstain or escalate;
- :mod:`~lab.answering.calibration` - citation accuracy, and the abstention threshold's trade-off;
- :mod:`~lab.answering.answer_cache` - answers kept by question and index version;
- :mod:`~lab.answering.semantic_cache` - answers kept by question meaning, matched above a cosine threshold;
- :mod:`~lab.answering.cache_calibration` - that threshold's hit and false-hit rates on labelled pairs.

The model call that sends a prompt is :func:`lab.services.call_model`.
"""

from lab.answering import answer as _answer, answer_cache as _answer_cache, calibration as _calibration
from lab.answering import cache_calibration as _cache_calibration, semantic_cache as _semantic_cache
from lab.answering import escalation as _escalation, extractive as _extractive
from lab.answering import injection as _injection, prompt as _prompt, sources as _sources
from lab.answering.answer import *  # noqa: F403  each module's __all__ is its public API
from lab.answering.answer_cache import *  # noqa: F403
from lab.answering.cache_calibration import *  # noqa: F403
from lab.answering.calibration import *  # noqa: F403
from lab.answering.escalation import *  # noqa: F403
from lab.answering.extractive import *  # noqa: F403
from lab.answering.injection import *  # noqa: F403
from lab.answering.prompt import *  # noqa: F403
from lab.answering.semantic_cache import *  # noqa: F403
from lab.answering.sources import *  # noqa: F403

__all__ = [*_sources.__all__, *_prompt.__all__, *_injection.__all__, *_extractive.__all__, *_answer.__all__,
           *_calibration.__all__, *_answer_cache.__all__, *_escalation.__all__, *_semantic_cache.__all__,
           *_cache_calibration.__all__]
