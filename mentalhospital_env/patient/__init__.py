"""The simulated patient, a pipeline of rooms each with one job and a typed value passed on:
understand (:mod:`.understanding`, :mod:`.question`) -> recall (:mod:`.recall`) -> decide
(:mod:`.decide`) -> say (:mod:`.say`) -> check (:mod:`.check`); and the patient with its ablation
variants and backends (:mod:`.patient`). A language model replaces only say."""

from .check import ClaimChecker
from .decide import PersonaProfile, Rapport, persona_for
from .patient import VARIANTS, Patient, PatientReply, fact_index, make_patient, respond_batch
from .question import read_question
from .recall import FactIndex, MemorySkill
from .representation import RepresentationSkill

__all__ = [
    "VARIANTS",
    "ClaimChecker",
    "FactIndex",
    "MemorySkill",
    "Patient",
    "PatientReply",
    "PersonaProfile",
    "Rapport",
    "RepresentationSkill",
    "fact_index",
    "make_patient",
    "persona_for",
    "read_question",
    "respond_batch",
]
