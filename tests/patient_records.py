"""Records written for the patient's tests, and asking them (shared by test_answer_choice.py,
test_risk_answers.py and test_recall_on_question.py).

Each test module writes its own record in a clinician's plain prose (``_EHR``) and builds it, with a section
or two changed, by :func:`record`; :func:`ask` puts questions to the full offline patient of a case, one
patient for the whole list, through the public API.
"""

from __future__ import annotations

from collections.abc import Mapping

from mentalhospital_env.patient import make_patient


def record(case_id: str, base: Mapping[str, object], demographics: Mapping[str, object], *,
           written_for: str, **ehr: object) -> dict:
    """A synthetic outpatient record of a single depressive episode: the sections of ``base`` with those of
    ``ehr`` in their place."""
    return {
        "case_id": case_id,
        "language": "en",
        "demographics": dict(demographics),
        "setting": "outpatient",
        "ehr": {**base, **ehr},
        "exams": [],
        "diagnosis": {"categories": ["depressive"],
                      "disorders": [{"name": "Major depressive disorder, single episode", "code": "F32.1"}]},
        "treatment": {"plan": "Sertraline and CBT; review in four weeks."},
        "source": {"author": f"tests: written for {written_for}", "synthetic": True},
    }


def ask(case, *questions: str, seed: int = 0) -> list[str]:
    """The replies of one full offline patient of ``case`` to ``questions``, asked in order."""
    patient = make_patient(case, "full", seed=seed)
    return [patient.respond(q).text for q in questions]
