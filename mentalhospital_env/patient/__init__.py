"""The simulated patient: the memory skill (grounded answer policy), the representation skill
(persona, rapport, lay wording) and the patient with its ablation variants and backends."""

from .memory import ClaimChecker, FactIndex, MemorySkill, read_question
from .patient import VARIANTS, Patient, PatientReply, fact_index, make_patient, respond_batch
from .representation import PersonaProfile, Rapport, RepresentationSkill, persona_for

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
