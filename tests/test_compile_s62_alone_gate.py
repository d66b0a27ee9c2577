"""The compiled fact keeps the kind of a writer's disclosure note (stop 62, uw-035: Oscar's cutting and his count of his
mother's sleeping tablets, marked "(told only when asked directly and seen alone)", became an ordinary sensitive mark,
told with his mother beside him as freely as alone). A short record written for the test."""

from __future__ import annotations

from mentalhospital_env.cases import load_case
from mentalhospital_env.cases.compile import disclosure_gates, gate_kinds

RECORD = {
    "case_id": "s62-gate",
    "language": "en",
    "demographics": {"age": 15, "sex": "male", "occupation": "student", "marital_status": "single"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Leo Hart, 15: low mood.",
        "history_of_present_illness": "Low mood since the summer. He sleeps badly.\n"
                                      "Not known to his mother (told only when asked directly and seen alone): he cuts "
                                      "his thigh with a razor blade about once a week.\n"
                                      "He smokes cannabis at weekends (told only when asked directly).",
        "mental_status_exam": {"mood": "'Kinda down.'"},
        "risk_assessment": {"suicide": "No thoughts of ending his life."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"],
                  "disorders": [{"name": "Major depressive disorder, single episode, moderate", "code": "F32.1"}]},
    "treatment": {"plan": "CBT."},
    "persona": {"verbosity": "terse", "guardedness": 0.3, "insight": "partial",
                "informant": "His mother, Anna Hart, is in the room."},
}


def test_a_note_that_says_seen_alone_is_an_alone_gate_and_the_fact_keeps_it() -> None:
    case = load_case(RECORD)
    razor = [f for f in case.facts if "razor" in f.text]
    cannabis = [f for f in case.facts if "cannabis" in f.text]
    assert razor and all(f.sensitive and f.gate == "alone" for f in razor), razor
    assert cannabis and all(f.sensitive and f.gate is None for f in cannabis), cannabis
    assert all(f.gate is None for f in case.facts if "sleeps badly" in f.text)
    assert [d.get("gate") for d in (f.to_dict() for f in razor)] == ["alone"] * len(razor)
    # a compiled case written out and read back keeps it
    again = load_case({**RECORD, "facts": [f.to_dict() for f in case.facts]})
    assert [f.gate for f in again.facts if "razor" in f.text] == ["alone"] * len(razor)


def test_gate_kinds_reads_the_kind_and_disclosure_gates_is_unchanged() -> None:
    text = "Cuts her arm (told only when seen alone). Drinks at weekends (told only when asked directly)."
    plain, kinds = gate_kinds(text)
    assert "told only" not in plain
    assert [k for _words, k in kinds] == ["alone", None], kinds
    assert disclosure_gates(text) == (plain, [w for w, _k in kinds])
