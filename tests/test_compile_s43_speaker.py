"""Stop 43 (issue 13): who speaks in a paragraph of a narrative record. A labelled paragraph that is another
person's account (a triage caller's, a relative's collateral, a partner's at the bedside) is chart-only to its
end, even where a sentence has no frame of its own; the patient's own paragraphs and an unlabelled paragraph of
the clinician's narrative stay the patient's. Records written here for the test (no bundled record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


def _facts(text: str, sex: str = "male"):
    return compile_facts(EHR(chief_complaint="Mr Tom Hale: low mood.", history_of_present_illness=text), sex)


def test_a_labelled_callers_account_is_never_the_patients_own() -> None:
    facts = _facts(
        "Caller reports: son withdrawn for months, sleeps all day. Left college last year. Not violent. "
        "Threw a mug at his brother in May.\n"
        "He says he feels flat and has stopped seeing friends. He sleeps until noon.")
    said = told_sentences(facts)
    assert "mug" not in said and "college" not in said and "violent" not in said
    assert "flat" in said and "noon" in said  # the patient's own paragraph is still told
    untold = [f for f in facts if "mug" in f.text]
    assert untold and not any(f.told for f in untold)  # kept for the chart, not dropped


def test_collateral_and_relatives_account_labels_read_as_another_speaker() -> None:
    for label in ("Collateral from wife (by phone, with consent)", "Mother's account (at home visit)",
                  "Phone call from sister"):
        facts = _facts(f"{label}: he smashed her phone in March and drives after drinking. "
                       f"Worried he will lose his job.\nHe describes poor sleep for two months.")
        said = told_sentences(facts)
        assert "phone" not in said and "lose" not in said, label
        assert "sleep" in said, label


def test_a_label_with_no_telling_word_reads_its_first_sentence() -> None:
    facts = _facts("Partner at bedside (nurse note): Dana Kerr (29) states he has been drinking every night. "
                   "Wants him home today.\nHe says he drinks at weekends only.", sex="male")
    said = told_sentences(facts)
    assert "every night" not in said and "home today" not in said
    assert "weekends" in said


def test_the_clinicians_narrative_and_the_patients_own_labels_stay_told() -> None:
    facts = _facts("Family history: his father drank heavily.\n"
                   "His flatmates say he had been working through the night. Four days ago he became convinced "
                   "that his phone was tapped.\n"
                   "HPI (consultant, patient seen alone): he hears a voice commenting on what he does.")
    said = told_sentences(facts)
    assert "phone was tapped" in said or "tapped" in said
    assert "voice" in said


def test_the_patient_reporting_gives_the_floor_back() -> None:
    facts = _facts("Caller reports: he has not eaten for days. Pt says he eats once a day at night.")
    said = told_sentences(facts)
    assert "eaten for days" not in said and "not eaten" not in said


def test_an_aside_naming_the_patient_does_not_end_the_informants_account() -> None:
    facts = _facts("Collateral from brother (by phone): he lost his job in May (pt told him). "
                   "Drinks a bottle of vodka a day.\nHe says he drinks two beers a night.")
    said = told_sentences(facts)
    assert "vodka" not in said and "beers" in said


def test_a_speech_reported_inside_the_patients_own_paragraph_keeps_it_hers() -> None:
    # a clinical heading, then the patient's own story with her partner's words reported inside it
    facts = compile_facts(EHR(chief_complaint="Ms Ana Ross: overdose.", history_of_present_illness=(
        "Trigger: late on Friday she read texts from another woman on her partner's laptop; a row; he said he "
        "'was done' and walked out. She messaged him 30 times in an hour. Took the pills at midnight. "
        "Regret: 'I feel foolish.'")), "female")
    said = told_sentences(facts)
    assert "30 times" in said and "midnight" in said


def test_an_informants_denial_does_not_silence_the_patients_own_elsewhere() -> None:
    facts = _facts("Caller reports: son withdrawn for months. No known self-harm/SA.\n"
                   "He says his mood has been low since spring. No SA, no SH.")
    own = [f for f in facts if "spring" not in f.text and "harm" in f.text.lower() and "known" not in f.text]
    assert own and all(f.told for f in own)
    theirs = [f for f in facts if "known" in f.text]
    assert theirs and not any(f.told for f in theirs)


def test_a_legal_section_label_is_no_informants_account() -> None:
    facts = compile_facts(EHR(chief_complaint="Police section 136: found standing on a bridge parapet at 02:00.",
                              history_of_present_illness="She says she wanted the noise to stop."), "female")
    assert any(f.told and "parapet" in (f.patient_says or "") for f in facts)


def test_a_relatives_quoted_words_are_never_the_patients_first_person() -> None:
    facts = _facts("He says he is 'tired of everything'. He has been low for months and sleeps badly. His sister "
                   "said, crying: 'He's here but he's not here any more.' Niece Lily: 'he's grumpy, he never plays now.'")
    said = told_sentences(facts)
    assert "I'm here" not in said and "I'm not here" not in said and "I'm grumpy" not in said
    assert "tired of everything" in said and "sleep" in said
