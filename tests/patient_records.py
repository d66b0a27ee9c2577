"""Records written for the patient's tests, asking them, and reading what a compiled record gives the patient
to say (shared by the answer, risk and recall tests and the compiler's tests).

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


def told_sentences(facts, section: str | None = None) -> str:
    """What the patient may say of compiled ``facts`` (those of ``section`` only, if named): the ``patient_says``
    of every told fact, joined with spaces, in the record's order."""
    return " ".join(f.patient_says or "" for f in facts if f.told and (section is None or f.section == section))
