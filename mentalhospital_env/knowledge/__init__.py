"""The clinical knowledge base: categories, disorders, exams, drugs, lexicon, MSE vocabulary, presentations.

``load_critical_actions()`` (``critical.py``) reads what a safe plan must and must not contain
(``data/critical_actions.json``). ``load_knowledge()`` returns the validated, cached :class:`KnowledgeBase`; ``resolve_disorder``,
``resolve_exam``, ``resolve_drug`` and ``disorders_in`` answer from it. The submodules ``codes``,
``language`` and ``lexicon`` work on their own. Importing this package loads nothing: the data files
are read on the first call (see ``base.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import KnowledgeError

if TYPE_CHECKING:  # pragma: no cover
    from .base import (
        Band,
        Comorbidity,
        Contraindication,
        Disorder,
        Drug,
        Exam,
        ExamExpectation,
        KnowledgeBase,
        Medication,
        MSEDomain,
        Presentation,
        PresentationSymptom,
        Treatment,
        disorders_in,
        load_knowledge,
        read_knowledge,
        resolve_disorder,
        resolve_drug,
        resolve_exam,
    )

__all__ = [
    "Band",
    "Comorbidity",
    "Contraindication",
    "Disorder",
    "Drug",
    "Exam",
    "ExamExpectation",
    "KnowledgeBase",
    "KnowledgeError",
    "MSEDomain",
    "Medication",
    "Presentation",
    "PresentationSymptom",
    "Treatment",
    "disorders_in",
    "load_critical_actions",
    "load_knowledge",
    "read_knowledge",
    "resolve_disorder",
    "resolve_drug",
    "resolve_exam",
]

_FROM_BASE = frozenset(__all__) - {"KnowledgeError", "load_critical_actions"}


def __getattr__(name: str) -> Any:
    if name == "load_critical_actions":
        from .critical import load_critical_actions

        return load_critical_actions
    if name in _FROM_BASE:
        from . import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
