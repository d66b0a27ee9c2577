"""Fixed vocabularies shared by the case format (../shared/CASES.md) and the knowledge base.

The case loader checks cases against them and the knowledge base checks its disorders, exams and
presentations against the same tuples, so the two can never drift apart.
"""

from __future__ import annotations

SEXES: tuple[str, ...] = ("female", "male", "other")
SETTINGS: tuple[str, ...] = ("outpatient", "inpatient", "emergency")
EXAM_KINDS: tuple[str, ...] = ("scale", "lab", "imaging", "physiological", "other")
#: the mental status examination domains, in the order a note gives them
MSE_KEYS: tuple[str, ...] = (
    "appearance",
    "behavior",
    "speech",
    "mood",
    "affect",
    "thought_process",
    "thought_content",
    "perception",
    "cognition",
    "insight",
    "judgment",
)
VERBOSITIES: tuple[str, ...] = ("terse", "average", "talkative")
INSIGHTS: tuple[str, ...] = ("full", "partial", "none")
