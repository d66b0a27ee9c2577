"""Stop 59, whose sentence and when: each told sentence is the patient's own or a fact he knows of himself, with its
time. A relative's history keeps the relative; two quoted utterances are two sentences; the writer's frame for his
account is no part of his words; a clock time in a dated entry is a time of that day, never a duration. Records
written here for the test (no bundled record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR, MentalStatusExam
from patient_records import told_sentences


def _facts(sex: str = "male", **sections):
    fields = {"chief_complaint": "Worried about sleep.", "history_of_present_illness": "Sleeping badly since June."}
    fields.update(sections)
    return compile_facts(EHR(**fields), sex)


def test_what_the_relative_was_after_a_semicolon_is_said_of_the_relative() -> None:
    # "Father died ...; a taxi driver who drank heavily and played mahjong for money" was said "My taxi driver who drank
    # heavily ...": the family history of gambling given to no one
    facts = _facts(family_history="Father died in 2015 aged 70 of a stroke; a bus driver who drank heavily and bet "
                                  "on the dogs. Mother (66) has asthma; a retired cleaner.")
    said = told_sentences(facts)
    assert "My father was a bus driver who drank heavily and bet on the dogs" in said, said
    assert "My mother is a retired cleaner" in said, said
    assert "My bus driver" not in said, said
    bus = next(f for f in facts if "bus driver" in (f.patient_says or ""))
    assert bus.relative == "father", bus


def test_the_relatives_his_after_a_semicolon_stays_the_relatives() -> None:
    # "...; the family moved flats after his debts" was said "My family moved flats after my debts"
    said = told_sentences(_facts(family_history="Father died in 2015 of a stroke; the family moved house after his debts."))
    assert "after my father's debts" in said, said
    assert "after my debts" not in said, said


def test_a_pronoun_that_may_be_anyones_is_not_given_the_relative() -> None:
    # "her sister looks after her": the second "her" may be the mother or the sister; nothing is carried
    said = told_sentences(_facts("male", family_history="Mother (70) has diabetes; her sister looks after her."))
    assert "mother's sister" not in said and "was's" not in said, said


def test_two_quoted_utterances_are_two_sentences() -> None:
    # "'Tired.' 'Mum in the sky.'" was said as one run of his words, "I'm tired, Mum in the sky."
    facts = _facts(history_of_present_illness="Home visit, seen in his room. 'Tired.' 'Dad gone.' Eating less.")
    said = told_sentences(facts)
    assert "I'm tired." in said, said
    assert not any("tired" in (f.patient_says or "") and "Dad" in (f.patient_says or "") for f in facts), said
    assert "I've had dad gone" not in said.lower(), said


def test_the_writers_frame_for_his_own_account_is_not_said() -> None:
    # "His account has been 'social, 2-3 beers on weekends'" was said "My account has been social, ..."
    said = told_sentences(_facts(substance_use="Drinks lager at the club. His account has been 'a few pints on Saturdays' "
                                      "(GP, two reviews)."))
    assert "My account" not in said, said
    assert "a few pints on Saturdays" in said, said


def test_a_clock_time_in_a_dated_entry_is_that_day_never_a_duration() -> None:
    # an ED triage entry's "c/o chest tightness ... since ~02:40" was said "I have had chest tightness ... since about
    # 02:40" at a December review: one night's attack told as a state that goes on
    record = ("12/03/2026 GP: low mood since January, poor sleep.\n"
              "19/05/2026 03:25 EMERGENCY DEPARTMENT - attendance note.\n"
              "Triage: brought in by wife. c/o chest tightness, palpitations, SOB, numbness both hands since ~02:40. "
              "Was awake at home watching football.\n"
              "02/06/2026 GP review: mood a bit better. Sleeping 6 hours.\n"
              "10/11/2026 GP review: mood low again.")
    facts = _facts(history_of_present_illness=record)
    chest = next(f for f in facts if f.told and "chest tightness" in (f.patient_says or ""))
    assert "since about 02:40" not in chest.patient_says, chest.patient_says
    assert "from about 02:40 that day" in chest.patient_says, chest.patient_says
    assert "May" in chest.patient_says and "I had chest tightness" in chest.patient_says, chest.patient_says
    assert chest.time == "past", chest


def test_a_sentence_that_opens_on_anothers_account_is_theirs_whole() -> None:
    # "Per his brother, he drinks in the mornings" was said "Per my brother, I drink in the mornings"; after a colon
    # ("Collateral from his mother: ...", "Wife's account: ...") the parts were split off and said as his
    said = told_sentences(_facts(history_of_present_illness=(
        "Sleeping badly since June. Per his brother, he drinks in the mornings. Collateral from his mother: he has "
        "been drinking since 16. Wife's account: he is going to work; he still drinks on match nights, 'six, seven "
        "cans'.")))
    assert "brother" not in said and "since 16" not in said and "seven cans" not in said, said
    assert "sleeping badly since June" in said, said


def test_the_charts_admin_lines_and_label_for_his_words_are_not_his() -> None:
    # "His words (date): '...'" was said "I've had my words."; an ALERTS line and the NOK line were said as his
    facts = _facts(chief_complaint="Referred by his GP. His words (01/12/2026): 'I want a fresh start.'",
                   history_of_present_illness=("Patient: Mr Lim. NOK: wife, Mdm Tan Mei Ling (45).\n"
                                               "ALERTS: Consent to share with wife - appointment info only.\n"
                                               "Sleeping badly since June."))
    said = told_sentences(facts)
    assert "I want a fresh start" in said, said
    assert "my words" not in said.lower() and "Mdm" not in said and "Consent" not in said, said


def test_his_quoted_words_alone_are_said_as_he_said_them() -> None:
    # "'nothing feels shiok any more'" was said "I've had nothing feels shiok any more."; framed so, and then said
    # verbatim but failing the "names him" check, his anhedonia in his own words was lost
    said = told_sentences(_facts(history_of_present_illness=("Low mood; stopped badminton; 'nothing feels happy any more'. "
                                                    "Denies previous episodes. 'Stress, work, cannot sleep.'")))
    assert "Nothing feels happy any more." in said, said
    assert "Stress, work, can't sleep." in said, said
    assert "I've had nothing" not in said and "I've had stress" not in said, said


def test_an_alerts_consent_and_the_writers_word_on_his_accounts_are_not_his() -> None:
    # "Consent to share with wife - 'appointment info only'" was "I've had consent to share with wife ..."; "His accounts
    # have changed over time" was "My accounts have changed over time."
    said = told_sentences(_facts(history_of_present_illness=(
        "Sleeping badly since June. Consent to share with wife - 'appointment info only' (02/06/2026). His accounts "
        "have changed over time: 'only the lottery' (06/2026), 'stopped since June' (07/2026).")))
    assert "onsent" not in said and "My accounts" not in said, said


def test_quoted_moods_each_said_in_his_frame() -> None:
    # "'Tired.' 'Bit sad.' 'Miss Mum.'" as three utterances were "I feel bit sad.", "I feel miss mum."
    facts = compile_facts(EHR(chief_complaint="Low mood.", history_of_present_illness="Low since March.",
                              mental_status_exam=MentalStatusExam(mood="'Tired.' 'Bit sad.' 'Miss Mum.'")), "male")
    said = told_sentences(facts)
    assert "I feel tired." in said and "I feel a bit sad." in said and "I miss Mum." in said, said


def test_a_question_and_answer_quoted_is_not_said_without_the_question() -> None:
    # "'Sad?' - 'Bit.'" and "'Craig hurt Craig?' - 'No.'" were said "I bit." and "I haven't had any."
    said = told_sentences(_facts(history_of_present_illness="Home visit. 'Tired.' 'Sad?' - 'Bit.' 'Hurt yourself?' - 'No.'"))
    assert "I bit" not in said and "I haven't had any." not in said, said


def test_a_relative_of_a_new_sentence_and_the_name_he_goes_by_are_kept() -> None:
    # "Maternal grandmother had depression. A paternal cousin has epilepsy." (uw-008) was, with the appositive rule,
    # "My grandmother on my mum's side is A paternal cousin has epilepsy."; "ALERTS: Goes by 'Josh'." is his to say
    said = told_sentences(_facts(family_history="Maternal grandmother had depression. A paternal cousin has epilepsy.",
                        history_of_present_illness="ALERTS: Goes by 'Jim'. Sleeping badly since June."))
    assert "is A paternal" not in said and "epilepsy" in said, said
    assert "I go by Jim" in said, said
