"""Stop 49 (the voice room, issue 13 on uw-022): whose words and what is true. An examiner's paragraph under a
shorthand label ('MSE:') and a risk formulation's protective factors are the clinician's, never her speech; a family
entry that names the relative says who she is and the clauses after a quoted word stay the relative's; a name in a
list beside a relation is no relative's name; a medicine taken 'until' a past date is one she used to take; a
clinician's action after a quoted question is his. Records written here for the test (no bundled record's words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences

HPI = (
    "Patient: BRENNAN, Aoife. DOB 3/3/1990.\n"
    "Since the birth she has had pictures in her head of the baby being hurt.\n"
    "Very worried on the phone, asking 'will they take him off me?' Explained what the team does.\n"
    "\n"
    "MSE: 35F, casually dressed, looks tired. Mood: 'frightened'. Affect: anxious, tearful, reactive, brightened "
    "when the baby smiled. Perception: no hallucinations or pseudo-hallucinations; images clearly 'in my head'.\n"
    "\n"
    "Risk:\n"
    "Protective: baby, husband, mam, help-seeking, no alcohol misuse, no psychosis.\n"
)
PERSONAL = ("Supports: Cathal, her mother (daily), her friend Niamh. "
            "Lives with Cathal and the baby, her mother staying over since 3/11/26.")
FAMILY = (
    "Mother: Maura Brennan (60), school secretary; 'a worrier'; had 'bad nerves' after Aoife's sister was born and "
    "was given Valium by her GP.\n"
    "Father: Seamus Brennan, died 4/2018 aged 66 of a stroke.\n"
)
MEDS = ("Current (1/12/26): sertraline 100 mg each morning (restarted 50 mg on 12/11/26); ferrous fumarate 305 mg "
        "once daily since 6/9/26; desogestrel 75 mcg once daily since 14/10/26; paracetamol 1 g as needed, rarely.\n"
        "Stopped: sertraline 50 mg started by the GP on 4/11/26 - two doses taken, stopped by herself on 6/11/26; "
        "tinzaparin 4,500 units daily 2/9-12/9/26; folic acid 400 mcg daily before conception to 12 weeks; "
        "Microgynon 30 until 6/2023 (trying to conceive); citalopram 10 mg daily 7/2019-4/2020 (tapered off).")


@pytest.fixture(scope="module")
def facts():
    return compile_facts(EHR(chief_complaint="Pictures of the baby being hurt.", history_of_present_illness=HPI,
                             personal_history=PERSONAL, family_history=FAMILY, medications=MEDS), "female")


def test_the_examiners_paragraph_under_mse_is_never_hers(facts) -> None:
    said = told_sentences(facts).lower()
    assert "reactive" not in said and "brightened" not in said, said
    assert "hallucinations" not in said, said
    assert "pictures in my head" in said, said  # her own account before it is still hers


def test_protective_factors_are_the_formulation(facts) -> None:
    assert "help-seeking" not in told_sentences(facts).lower()


def test_a_clinicians_action_after_a_quoted_question_is_his(facts) -> None:
    assert "explained" not in told_sentences(facts).lower()


def test_a_named_family_entry_and_the_clauses_after_a_quoted_word_are_the_relatives(facts) -> None:
    fam = [f for f in facts if f.section == "family_history" and f.told]
    said = " ".join(f.patient_says or "" for f in fam)
    assert "has had maura" not in said.lower() and "had seamus" not in said.lower(), said
    nerves = [f for f in fam if "nerves" in (f.patient_says or "")]
    assert nerves and all(f.relative == "mother" for f in nerves), [(f.relative, f.patient_says) for f in nerves]
    assert all(f.patient_says.startswith("My mother") and "my sister" in f.patient_says for f in nerves), nerves


def test_a_name_in_a_list_beside_a_relation_is_not_that_relatives(facts) -> None:
    said = told_sentences([f for f in facts if f.section == "personal_history"])
    assert "my mum and the baby" not in said.lower() and "Cathal" in said, said
    assert "me mother" not in said, said


def test_a_medicine_taken_until_a_past_date_is_one_she_used_to_take(facts) -> None:
    said = told_sentences([f for f in facts if f.section == "medications"]).lower()
    taken_now = " ".join(s for s in said.split(". ") if s.startswith("i take"))
    assert "microgynon" in said and "microgynon" not in taken_now, said


def test_uw022s_pill_stopped_before_conceiving_is_not_taken_now() -> None:
    # the development record's own medication list (its words, read from the file): "Microgynon 30 until 9/2024
    # (trying to conceive)" ran on into the current list, "I take sertraline, ..., paracetamol and microgynon"
    import json

    raw = json.loads((Path(__file__).parents[1] / "benchmarks/data/patient_exam/unseen/uw-022.json").read_text())
    meds = compile_facts(EHR(chief_complaint="Intrusive thoughts.", history_of_present_illness="Low.",
                             medications=raw["ehr"]["medications"]), "female")
    said = told_sentences(meds).lower()
    taken_now = " ".join(s for s in said.split(". ") if s.startswith("i take"))
    assert "microgynon" in said and "microgynon" not in taken_now, said


def test_a_contraception_answer_nine_weeks_after_a_birth_is_no_pregnancy() -> None:
    # uw-022 (development record) at nine weeks postpartum on the progestogen-only pill answered "Is there any
    # chance you could be pregnant?" with "... pill since 14 October 2026, I'm expecting a baby." (the lexicon reads
    # 'pill' as the pregnancy concept, and the affirmation was worked in as if unsaid)
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient import make_patient

    path = Path(__file__).resolve().parents[1] / "benchmarks/data/patient_exam/unseen/uw-022.json"
    case = {c.case_id: c for c in load_suite(str(path)).cases}["uw-022"]
    reply = make_patient(case, "full", seed=13).respond("Is there any chance you could be pregnant?")
    low = reply.text.lower()
    assert "expecting a baby" not in low and "pregnant at the moment" not in low and "on the way" not in low, reply.text
