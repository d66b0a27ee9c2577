"""The memory skill, now three rooms of the patient: kept so that old imports keep working.

What was here lives in :mod:`.reading` (cue phrases, statements), :mod:`.question` (the lexicon
half of understanding), :mod:`.recall` (the fact index and the answer plan) and :mod:`.check`
(claim check and leak guard). Import from those; nothing is defined here.
"""

from .check import ClaimCheck, ClaimChecker, LeakGuard, facts_expressed
from .question import Question, QuestionBank, question_bank, read_question
from .reading import (
    CLOSED_WORLD_KINDS,
    FAMILY_SECTION,
    CueSet,
    InjectionCue,
    MemoryCues,
    Statement,
    Topic,
    _holds,
    _phrase_stems,
    concept_topics,
    cosine,
    load_memory_cues,
    read_statements,
    split_statements,
)
from .recall import (
    AFFIRM,
    DENY,
    NOTHING_MORE,
    TELL,
    UNKNOWN,
    WITHHELD,
    AnswerItem,
    AnswerPlan,
    FactIndex,
    IndexedFact,
    MemoryPolicy,
    MemorySkill,
    MemoryState,
    RecallRules,
    duration_in,
    load_recall_rules,
)

__all__ = [
    "AFFIRM", "CLOSED_WORLD_KINDS", "DENY", "FAMILY_SECTION", "NOTHING_MORE", "TELL", "UNKNOWN", "WITHHELD",
    "AnswerItem", "AnswerPlan", "ClaimCheck", "ClaimChecker", "CueSet", "FactIndex", "IndexedFact",
    "InjectionCue", "LeakGuard", "MemoryCues", "MemoryPolicy", "MemorySkill", "MemoryState", "Question",
    "QuestionBank", "RecallRules", "Statement", "Topic", "_holds", "_phrase_stems", "concept_topics",
    "cosine", "duration_in", "facts_expressed", "load_memory_cues", "load_recall_rules", "question_bank",
    "read_question", "read_statements", "split_statements",
]
