"""Stop 56, the speech room on a Welsh community team's record (uw-029, coded reply by reply by two psychiatrists):
other people's words told as the patient's - her daughter's collateral ('I'm changed since Dad died ... I think it is
dementia'), a neighbour's telephone call ('She put another letter through ...' told as her own act), a carer's
assessment of the daughter ('I feel worn out and guilty') and the daughter's call the day before the visit ('I think
I'm more forgetful and want a proper dementia test'). Records written here for the test, in the register of a UK
community team's print (no bundled record's words)."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts
from mentalhospital_env.cases.model import EHR
from patient_records import told_sentences


def _compile(hpi: str, sex: str = "female"):
    return compile_facts(EHR(chief_complaint="Believes the people upstairs are watching her.",
                             history_of_present_illness=hpi), sex)


def test_a_relatives_bracketed_label_quotation_and_what_she_thinks_are_hers() -> None:
    # uw-029: 'Daughter (Siân): '...' Thinks it is dementia.' -> 'I'm changed since Dad died ... I think it is dementia'
    hpi = ("12/03/2026 11:00 CPN home visit. Mood 'flat', sleeping 5 hours. Says the flat upstairs is 'watching me'.\n"
           "Son (Dewi): 'She has not been right since the funeral, she rings me at night.' Thinks it is her memory. "
           "Wants her moved nearer to him.\n"
           "Plan: review 2 weeks.")
    said = told_sentences(_compile(hpi))
    assert "funeral" not in said
    assert "memory" not in said
    assert "moved nearer" not in said
    assert "sleeping 5 hours" in said or "sleep 5 hours" in said  # her own state stays told


def test_a_non_ascii_relatives_telephone_entry_is_theirs() -> None:
    # uw-029: '03/12/2026 CPN - Contact type: telephone - Siân. ... thinks she is 'more forgetful'' -> told as hers
    hpi = ("01/12/2026 10:00 CPN - Contact type: home visit. Sleeping 7 hours. Says the neighbours are quieter.\n"
           "02/12/2026 15:00 CPN - Contact type: telephone - Siôn (son). Siôn will visit on Friday. He thinks she "
           "is more forgetful and wants a scan. Wants to talk about a care home.")
    said = told_sentences(_compile(hpi))
    assert "forgetful" not in said
    assert "care home" not in said
    assert "sleeping 7 hours" in said  # her own state stays told


def test_a_carers_assessment_entry_is_the_carers() -> None:
    # uw-029: '14/04/2026 CARERS' ASSESSMENT - Siân Hughes ... She feels 'worn out and guilty'.' -> 'I feel worn out'
    hpi = ("10/04/2026 CPN home visit. Sleeping 6 hours. Says the tablets help.\n"
           "18/04/2026 CARERS' ASSESSMENT - Ffion Parry, by Social Worker (T Ellis). Ffion visits every Sunday. "
           "She feels 'exhausted and guilty'. She wants her mother in a home.")
    said = told_sentences(_compile(hpi))
    assert "exhausted" not in said
    assert "in a home" not in said


def test_his_words_in_her_record_are_another_mans() -> None:
    # uw-029: 'TELEPHONE IN - Mr Ryan Price, No. 16 (neighbour), to CMHT duty. His words: '... She put another
    # letter through saying we're poisoning her.'' -> 'I put another letter through saying we'about poisoning me.'
    hpi = ("05/08/2026 CPN home visit. Sleeping 6 hours. Denies writing to anyone.\n"
           "09/08/2026 16:20 TELEPHONE IN - Mr Tom Hale, No. 3 (neighbour), to duty. His words: 'She shouts at the "
           "window at night. She pushed a note under our door saying we're spying on her.' Duty: logged.")
    said = told_sentences(_compile(hpi))
    assert "note under" not in said
    assert "shout" not in said


def test_a_carers_log_lines_are_the_carers() -> None:
    # uw-029: 'HOME CARE LOG (...)' above dated lines: the carer's 'Slot empty, says taken.' was told as her state
    hpi = ("10/06/2026 CPN home visit. Sleeping 6 hours. Says the tablets help.\n"
           "\n"
           "DAILY CARE LOG (Heulwen Care agency, morning call 09:00, extracts)\n"
           "16/06 09:04 Tablets left on the side, not taken. Cup of tea made.\n"
           "19/06 09:10 Blister pack slot empty, bin checked. Radio on loud.\n"
           "\n"
           "25/06/2026 CPN home visit. Sleeping 5 hours.")
    said = told_sentences(_compile(hpi))
    assert "tea" not in said
    assert "blister" not in said.lower() and "radio" not in said.lower()
    assert "tablets help" in said


def test_a_chart_line_after_pt_quotation_is_never_said_with_it() -> None:
    # uw-029: "Pt: '... I only rang because I heard them in the loft.' Risk: as before." -> "I only rang because I
    # heard them in the loft, risk, as before." ("Pt:" is spelt "The patient:", whose label was not read as hers)
    hpi = ("23/01/2026 09:10 CPN - Contact type: telephone. Pt: 'The doctor was very kind. I only shouted because I "
           "heard them on the stairs.' Risk: as before. Plan: visit next week.")
    said = told_sentences(_compile(hpi))
    assert "risk" not in said.lower()
    assert "I only shouted because I heard them on the stairs" in said


def test_two_quotations_under_the_patients_label_are_said_without_their_marks() -> None:
    # uw-021 once "Pt:" was read as hers: "I've only had the one, mate.' 'Where's Trev? He was right behind me ..."
    hpi = ("02/11/2026 23:10 ED triage. Pt: 'I only had a pint, honest.' 'Where's Dai? He was right behind me on the "
           "bike.' Plan: CT head.")
    said = told_sentences(_compile(hpi, "male"))
    assert "Where's Dai? He was right behind me" in said
    assert "honest.' '" not in said and "'" not in said.replace("'s", "").replace("I'", "").replace("n't", "")


def test_a_relatives_bracketed_label_over_her_history_stays_the_patients_to_tell() -> None:
    # uw-016 on 0c1a85cf: "Mother (Sharon, 52): 'nerves', panic attacks in her 30s, ..." in the family history lost "My
    # mother has had nerves, panic attacks in her 30s ..." (a quoted word, not her words about the patient)
    ehr = EHR(chief_complaint="Low mood since the spring.", history_of_present_illness="Low mood since the spring.",
              family_history="Mother (Jean, 58): 'nerves', panic attacks in her 40s, diazepam from the GP.")
    said = told_sentences(compile_facts(ehr, "female"))
    assert "panic attacks" in said
