"""The hospital: the doctor's actions and their text protocol, the encounter state machine, the
episode record, and the clinic that starts encounters over a suite of cases.

Nothing here depends on Gymnasium; the environments in ``mentalhospital_env.env`` and
``mentalhospital_env.multiagent`` are thin layers over :class:`Encounter`.
"""

from .actions import (
    Action,
    ActionError,
    Ask,
    Diagnose,
    OrderExams,
    Treat,
    Vocabulary,
    WriteNote,
    parse_action,
)
from .encounter import UNREMARKABLE, ClinicalState, Encounter, EncounterSettings, StepOutcome, walk_in_text
from .record import EpisodeRecord, StepRecord
from .roles import NoRewards, PatientLike, ShaperLike
from .stages import ACTION_NAMES, ALL_STAGES, END, STAGES, allowed_actions

__all__ = [
    "ACTION_NAMES",
    "ALL_STAGES",
    "END",
    "STAGES",
    "UNREMARKABLE",
    "Action",
    "ActionError",
    "Ask",
    "ClinicalState",
    "Diagnose",
    "Encounter",
    "EncounterSettings",
    "EpisodeRecord",
    "NoRewards",
    "OrderExams",
    "PatientLike",
    "ShaperLike",
    "StepOutcome",
    "StepRecord",
    "Treat",
    "Vocabulary",
    "WriteNote",
    "allowed_actions",
    "parse_action",
    "walk_in_text",
]
