"""Cases: loading and validating psychiatric EHR cases (docs/cases.md), deriving facts and
checkpoints, the synthetic case generator and the bundled suites."""

from .errors import CaseError, Problem, SuiteError
from .loader import BUNDLED_SUITES, bundled_suite_path, load_case, load_suite, validate_case
from .model import (
    EHR,
    Case,
    Checkpoint,
    Checkpoints,
    Demographics,
    Diagnosis,
    ExamRecord,
    Fact,
    Medication,
    MentalStatusExam,
    Persona,
    ReferenceDisorder,
    RiskAssessment,
    Suite,
    Treatment,
)

__all__ = [
    "BUNDLED_SUITES",
    "EHR",
    "Case",
    "CaseError",
    "Checkpoint",
    "Checkpoints",
    "Demographics",
    "Diagnosis",
    "ExamRecord",
    "Fact",
    "Medication",
    "MentalStatusExam",
    "Persona",
    "Problem",
    "ReferenceDisorder",
    "RiskAssessment",
    "Suite",
    "SuiteError",
    "bundled_suite_path",
    "load_case",
    "load_suite",
    "validate_case",
]
