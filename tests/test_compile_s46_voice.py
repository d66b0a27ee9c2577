"""Stop 46 (issues 13, 14): whose words a narrative record's sentence is, read from structure. Another person's
document copied into an entry (a letter, an email, a call, a note copied in quotation marks) stays theirs; a chart
label's value is said without the label, never as a verb made of it; a screen's question is the asker's and the
quoted answer the patient's; a disclosure note set off by commas is not said; a medicine a later entry stops is no
longer current. Records written here for the test (no bundled record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts, voiced
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


def _facts(text: str, sex: str = "male", **sections):
    return compile_facts(EHR(chief_complaint="Mr Tom Reeve: not sleeping.", history_of_present_illness=text, **sections), sex)


def test_a_relatives_letter_and_an_officers_email_stay_theirs() -> None:
    facts = _facts(
        "He says he has not slept properly since the move and walks the canal at night.\n\n"
        "14/03/26 LETTER from his sister Jane REEVE (41), received by post\n"
        "'He is a kind man. He moved in with me from the 2nd of March and he was up all hours. Love Jane.'\n\n"
        "15/03/26 EMAIL from probation (A. Webb, Probation Officer) to the team\n"
        "'I supervised Tom in 2019. He breached his order twice by calling her. Happy to talk.'\n\n"
        "He plays darts on Fridays.")
    said = told_sentences(facts)
    assert "canal" in said and "darts" in said  # his own account, before and after, stays his
    for theirs in ("kind man", "moved in with me", "breached", "Happy to talk", "supervised"):
        assert theirs not in said, theirs


def test_a_copied_observation_note_is_its_writers() -> None:
    facts = _facts(
        "OBSERVATION RECORD - first night (extract)\n"
        "03/11 00:55 'Sitting on bed, rocking. Asked for a blanket. Given.'\n"
        "03/11 05:10 'Awake, pacing. Said he can hear his brother outside.'\n\n"
        "He has worked as a roofer since 2010.")
    said = told_sentences(facts)
    assert "roofer" in said
    assert "blanket" not in said and "brother outside" not in said


def test_an_informants_quotation_of_the_patient_does_not_hand_the_entry_back() -> None:
    facts = _facts(
        "10/11/26 14:20 COLLATERAL, TELEPHONE: wife Mary REEVE (40) (staff nurse).\n"
        "Her account: 'It has been two years. Since the baby he's said she's not his. He checks my phone. "
        "He kept saying \"tell me\".'\n\n"
        "He enjoys fishing.")
    said = told_sentences(facts)
    assert "fishing" in said
    for theirs in ("checks my phone", "kept saying", "two years"):
        assert theirs not in said, theirs


def test_a_label_value_is_said_without_a_verb_made_of_the_label() -> None:
    cases = {
        "Supports: sister (visits weekly); the church.": "sister",
        "Interests: gardening, darts.": "gardening",
        "Faith: Methodist, lapsed.": "Methodist",
        "Hobbies: fishing and darts.": "fishing",
    }
    for text, kept in cases.items():
        said = voiced("personal_history", text, "male") or ""
        assert kept.lower() in said.lower(), (text, said)
        first = text.split(":")[0].lower()
        assert not said.lower().startswith(("i " + first[:5], "i have a " + first[:5], "i've had " + first[:5])), (text, said)
    assert (voiced("personal_history", "Sleep: poor, 4 hours.", "male") or "").startswith("My sleep")


def test_a_screens_question_is_the_askers_and_the_answer_the_patients() -> None:
    facts = _facts(
        "RECEPTION SCREEN (first night), answers as given:\n"
        "Have you ever harmed yourself? 'Cut my leg once. Years ago.'\n"
        "Do you drink? 'Few pints at the weekend.'\n\n"
        "He works nights at a warehouse.")
    said = told_sentences(facts)
    assert "Cut my leg once" in said and "Few pints at the weekend" in said
    assert "?" not in said  # the questions are never said


def test_a_disclosure_note_between_commas_is_not_said() -> None:
    facts = _facts("He agreed to a search; the cord, told of only when asked directly about plans to end his life, "
                   "was found and removed.")
    said = told_sentences(facts)
    assert "told of only" not in said and "when asked" not in said
    gated = [f for f in facts if "cord" in f.text]
    assert gated and all(f.sensitive for f in gated)


def test_a_medicine_stopped_by_a_later_entry_is_not_current() -> None:
    facts = _facts(
        "12/03/26 GP: sertraline stopped as planned; sleep poor.",
        medications="Sertraline 100 mg daily. Zopiclone 7.5 mg at night 01/03-07/03. Salbutamol inhaler as needed.")
    meds = " ".join(f.patient_says or "" for f in facts if f.section == "medications" and f.told)
    assert "used to take sertraline" in meds, meds
    current = " ".join(part for part in meds.split(". ") if part.startswith("I take"))
    assert "sertraline" not in current and "zopiclone" not in current and "salbutamol" in current, meds


# Review 2 (M3, M4) and the integrator's finding: records written for the test.

def _meds(text: str, medications: str) -> tuple[str, str]:
    facts = _facts(text, medications=medications)
    meds = " ".join(f.patient_says or "" for f in facts if f.section == "medications" and f.told)
    current = " ".join(part for part in meds.split(". ") if part.startswith("I take"))
    return meds, current


def test_a_clinicians_or_courts_label_value_is_never_said_as_the_patients() -> None:
    facts = _facts(
        "He says he has felt flat for months and is not enjoying anything.\n\n"
        "02/03/26 GP review (Dr Lee)\n"
        "Goals: improve mood, reduce cannabis, get work.\n"
        "Impression: moderate depressive episode.\n"
        "Charge: assault of his neighbour Dave Prior on 1 March.\n"
        "Risk level: medium.\n\n"
        "He plays darts on Fridays.")
    said = told_sentences(facts)
    assert "flat" in said and "darts" in said
    for theirs in ("improve mood", "Dave Prior", "depressive episode", "Medium"):
        assert theirs not in said, theirs


def test_a_stop_verb_stops_only_its_own_object() -> None:
    meds, current = _meds("He says he has felt flat for months.\n\nVenlafaxine was increased after he stopped sertraline.",
                          "Venlafaxine 150 mg od, sertraline 100 mg od")
    assert "venlafaxine" in current and "used to take sertraline" in meds, meds


def test_a_stopped_habit_beside_a_started_medicine_stops_nothing() -> None:
    meds, current = _meds("He says he has felt flat for months.\n\nStarted mirtazapine in March, he stopped drinking.",
                          "Mirtazapine 15 mg nocte")
    assert "mirtazapine" in current and "used to take" not in meds, meds


def test_a_course_stopped_then_restarted_is_current() -> None:
    meds, current = _meds("He says he has felt flat for months.\n\nSertraline was stopped in 2023 after he felt better. "
                          "Sertraline was restarted in 2025 when the low mood came back.",
                          "Sertraline 100 mg od")
    assert "sertraline" in current and "used to take" not in meds, meds


def test_a_medicine_not_taken_since_a_date_is_past() -> None:
    meds, current = _meds("He says he has felt flat for months.\n\nHas not taken olanzapine since 24/11, says it makes him jittery.",
                          "Olanzapine 5 mg each morning")
    assert "used to take olanzapine" in meds and "olanzapine" not in current, meds


def test_a_documents_author_is_its_from_party_wherever_from_sits() -> None:
    facts = _facts(
        "He says he has not slept properly since the move.\n\n"
        "Email to the team, 16/03/26, from Carol Reeve (mother): I am going through chemo right now and my counts are low.\n\n"
        "He plays darts on Fridays.")
    said = told_sentences(facts)
    assert "slept" in said and "darts" in said
    assert "chemo" not in said and "email" not in said.lower(), said
