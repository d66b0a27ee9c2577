"""Stop 52, the speech room on terse charts (a South African public-sector ward folder, uw-025): a section head in
shorthand is the clinician's heading, never a word of the patient's ('Imp: Acute psychosis ...' was said 'I imped.');
a rating scale's total under the scale's label is the clinician's ('ASSIST <date>: amphetamine-type stimulants 29,
cannabis 14 ...' was said 'I have amphetamine-type stimulants 29, ...'); the writer's 'In his words:' before the
patient's quotation is no words of his ('In my words, Ek is nie mal nie'). Records written here for the test (no
bundled record's words)."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


@pytest.mark.parametrize("head", ["Imp", "IMP", "Imp revised", "Adv", "Recs", "Ix"])
def test_a_shorthand_section_head_is_the_clinicians(head: str) -> None:
    facts = compile_facts(EHR(chief_complaint="Poor sleep.", history_of_present_illness=(
        "Seen on the ward 12/03/2027.\nSleeps two hours a night, says he does not need more.\n"
        f"{head}: Hypomanic episode with poor sleep, no psychosis. Cut down caffeine.")), "male")
    said = told_sentences(facts).lower()
    assert "two hours" in said, said  # the patient's own history before the head is still said
    assert "imp" not in said.replace("impression", "") and "hypomanic" not in said and "caffeine" not in said, said


def test_a_scale_total_under_its_label_is_never_said() -> None:
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness="Seen in clinic.",
                              substance_use=("Drinks four cans of cider most nights.\n"
                                             "ASSIST 12/02/2027: alcohol 21 (moderate), cannabis 6, tobacco 12.\n"
                                             "YMRS: 8, mania 2.")), "male")
    said = told_sentences(facts)
    assert "four cans of cider" in said, said
    assert "21" not in said and "tobacco 12" not in said and "mania 2" not in said, said


def test_the_writers_frame_in_his_words_is_not_said() -> None:
    facts = compile_facts(EHR(chief_complaint=(
        "Brought in by police after shouting in the street. In his words: 'I am not mad, Doc. The neighbours "
        "are jealous.'"), history_of_present_illness="Seen in clinic."), "male")
    said = told_sentences(facts)
    assert "in my words" not in said.lower() and "not mad" in said, said


@pytest.mark.parametrize(("section", "line", "told", "unsaid"), [
    # UK: the drinking sentence after the AUDIT total was silenced with it
    ("substance_use", "AUDIT: 9/40. Drinks 4 cans of lager a day.", "4 cans of lager", "9/40"),
    # US: a fact after the score's semicolon
    ("history_of_present_illness", "PHQ-9: 19/27; not eating, lost 10 lbs since Thanksgiving.", "10 lbs", "19"),
    # Indian: the rating, then his complaint in the same paragraph
    ("history_of_present_illness", "HAM-D: 24. Sleep disturbed since 2 months, waking at 3 am daily.", "3 am", "24"),
    # South African: a mania rating and what he did
    ("history_of_present_illness", "YMRS: 32; sleeping 2 h a night, spending on credit cards.", "credit cards", "32"),
    ("substance_use", "AUDIT: 22/40. Drinking a bottle of brandy a day since the retrenchment.", "brandy", "22"),
])
def test_a_scale_total_silences_its_own_score_clause_only(section: str, line: str, told: str, unsaid: str) -> None:
    fields = {"history_of_present_illness": "Seen in clinic."}
    fields[section] = line if section != "history_of_present_illness" else "Seen in clinic.\n" + line
    said = told_sentences(compile_facts(EHR(chief_complaint="Low mood.", **fields), "male"))
    assert told in said, said  # the patient's fact after the score is his, told as before
    assert unsaid not in said, said  # the score itself stays the clinician's


@pytest.mark.parametrize("written, said", [
    ("Not eating properly x 3 wks.", "for 3 weeks"),
    ("Decreased sleep x 1 mth.", "for a month"),
    ("Low mood x 2 months.", "for 2 months"),
    ("Crying spells x10 days.", "for 10 days"),
])
def test_a_duration_written_x_weeks_is_how_long_not_how_many_times(written: str, said: str) -> None:
    # an Indian or British case sheet writes how long a complaint has lasted as 'x 3 wks' / 'x 1 mth' (stop 52's fresh
    # Bengaluru chart): it was said "Not taking food properly 3 times weeks" and "Decreased sleep once mth", the 'x N'
    # of 'five times' and 'once' read before the duration rule, whose units left out wks, mth, week, day
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness=f"Seen in clinic. {written}"),
                          "female")
    text = told_sentences(facts)
    assert said in text and "times" not in text and "once" not in text, text
