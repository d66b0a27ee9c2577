"""Stop 47 mend (after s47-voice's line-bounded sentences): a line that is a title or heading names the block under
it and is never said; a staff member's report (an incident report, a resident assistant's or an officer's entry) is
its writer's account, not the patient's speech; a clinician-only cue silences its own clause (a bracketed aside, one
entry of a medication list), never the sentence or the whole list. Records written here for the test (no bundled
record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts, voiced
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


def _hpi(text: str, sex: str = "male", **sections):
    return compile_facts(EHR(chief_complaint="Low mood in custody.", history_of_present_illness=text, **sections), sex)


def test_title_and_heading_lines_name_their_block_and_are_never_said() -> None:
    facts = _hpi(
        "Sources: the patient; his sister (phone, 3/3/27); housing officer's email (4/3/27).\n\n"
        "04/03/27 19:10 ARRIVAL SCREEN (arrival nurse) - P. Okafor, RN\n"
        "Arrival questions, answers as given:\n"
        "Do you feel like hurting yourself? 'No. I just want to sleep.'\n"
        "He says he has felt low since his brother moved abroad in the winter.\n\n"
        "05/03/27 11:00 FAITH TEAM - welfare visit within 48 h of arrival (Rev. C. Lund, chaplain) - written once\n"
        "'Quiet, polite. Asked about his brother.'\n\n"
        "WATCH RECORD - extract 6/3-9/3\n"
        "06/03 22:10 'Lying on bed, awake.' 07/03 03:00 'Asleep.'\n\n"
        "09/03/27 MENTAL HEALTH TEAM - REVIEW (Dr. S. Varga) - 30 min\n"
        "He plays chess with his cellmate most evenings.\n\n"
        "Housing officer's email\n"
        "'He has kept his tenancy for four years and his rent is up to date.'")
    said = told_sentences(facts)
    assert "low since my brother" in said and "chess" in said, said  # his own account under the titles is said
    for title in ("email", "answer as given", "answers as given", "written once", "xtract", "30 minutes", "Varga",
                  "rrival questions", "Sources"):
        assert title not in said, (title, said)


def test_a_staff_members_incident_report_is_the_writers_account() -> None:
    facts = _hpi(
        "She says she has been crying every night since the move.\n\n"
        "------------------------------------------------------------\n"
        "HOUSING - INCIDENT REPORT, Elm Court 3rd floor, Fri Oct 8 2027, 23:40 (written once) - Tom Reyes, Resident Assistant\n"
        "Nature: resident in distress. Called by a neighbour to the laundry room. Found resident Maria Lopez on the "
        "floor by the dryers, shaking and sobbing, lights off. Stayed with her for 15 minutes. Walked her back to room 31.\n\n"
        "She plays the violin in a student orchestra.", sex="female")
    said = told_sentences(facts)
    assert "crying every night" in said and "violin" in said, said
    for theirs in ("dryers", "laundry", "Stayed with her", "room 31", "Resident Assistant", "Found"):
        assert theirs not in said, (theirs, said)


def test_a_clinician_only_cue_silences_its_own_clause_not_the_whole_medication_list() -> None:
    text = ("Before admission: buprenorphine oral solution 2 mg per mL 8 mg daily, supervised (community service; last "
            "dose 1 March 2027); gabapentin 300 mg three times daily (GP, since 2021); beclometasone 100 micrograms inhaler 2 puffs "
            "twice daily.")
    said = voiced("medications", text, "male") or ""
    assert "buprenorphine" in said and "gabapentin" in said and "beclometasone" in said, said
    facts = compile_facts(EHR(chief_complaint="Low mood in custody.", history_of_present_illness="He has felt low for a month.",
                              medications=text + "\nFluoxetine 20 mg (2022) stopped by him in June 2022."), "male")
    told = told_sentences(facts)
    assert "buprenorphine" in told and "gabapentin" in told and "fluoxetine" in told.lower(), told


def test_a_dose_per_weight_aside_goes_and_the_overdose_sentence_is_said() -> None:
    facts = compile_facts(EHR(
        chief_complaint="Overdose at home.",
        history_of_present_illness=(
            "This evening Nora swallowed 20 paracetamol 500 mg tablets (10 g; she weighs 50 kg, about 200 mg/kg) "
            "from the kitchen drawer, kept in her coat pocket.\nShe told her brother an hour later.")), "female")
    said = told_sentences(facts)
    assert "I swallowed 20 paracetamol" in said, said
    assert "mg per kg" not in said and "200 mg" not in said, said
