"""Stop 41 (issue 13): which sentences of a narrative record are the patient's to say, whose fact it is, and
how a list or a date is spoken. Records written here for the test, in the shape of a UK clinic letter."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts, expand_abbreviations
from mentalhospital_env.cases.model import EHR
from mentalhospital_env.patient.decide import catchphrases


def _told(**sections: str) -> list[tuple[str, str | None]]:
    cc = sections.pop("chief_complaint", "")
    hpi = sections.pop("history_of_present_illness", "")
    facts = compile_facts(EHR(chief_complaint=cc, history_of_present_illness=hpi, **sections), "female")
    return [(f.text, f.patient_says) for f in facts if f.told]


def test_a_month_and_year_is_a_date_and_a_score_is_not() -> None:
    assert expand_abbreviations("Stopped in 03/2025. PHQ-9 17/27, pain 7/10.") == "Stopped in March 2025. PHQ-9 17/27, pain 7/10."
    said = " ".join(s or "" for _t, s in _told(past_psychiatric_history="Diazepam five times in 09/2024."))
    assert "September 2024" in said and " or " not in said and "in September in" not in said


def test_a_referrers_letter_keeps_its_complaint_but_not_its_courtesy_or_its_reports() -> None:
    told = _told(chief_complaint=(
        "Referred by her GP, Dr Amara Okafor, to the community team (letter of 2 March 2026): 'Thank you for seeing "
        "this teacher. Panic attacks for six months. Husband says she is not herself. GAD-7 15. "
        "Grateful for your advice.' Seen alone."))
    said = " ".join(s or "" for _t, s in told)
    assert "panic attacks" in said
    assert not any(w in said for w in ("Grateful", "grateful", "Husband says", "GAD-7", "Thank you"))


def test_a_paragraph_title_is_never_said() -> None:
    told = _told(history_of_present_illness=(
        "Seen at home with her sister.\n\nThe fire. She woke to smoke at 3 am and got the children out.\n\n"
        "Her sister's account. Says she has not slept since."))
    texts = [t.strip(" .") for t, _s in told]
    assert "The fire" not in texts and "Her sister's account" not in texts
    assert any("smoke" in (s or "") for _t, s in told)


def test_a_family_history_sentence_without_a_subject_is_the_relatives() -> None:
    told = _told(family_history=(
        "Father Alan, bus driver, died 2019 aged 70; 'liked a drink', heavy drinker in his forties. "
        "No known suicide, psychosis or bipolar illness in the family."))
    said = " ".join(s or "" for _t, s in told)
    assert "my forties" not in said and "his forties" in said
    # a list after "no" is one sentence, never "There's no suicide. Psychosis or ..."
    assert "There's no suicide, psychosis or bipolar illness in my family" in said


def test_a_vocabulary_after_says_is_not_a_set_of_sayings() -> None:
    style = "Plain words. He says 'it', 'the accident', 'I see it', 'the dream' for what happened. Answers 'I don't know' or 'it's fine'."
    assert catchphrases(style) == ("I don't know.", "It's fine.")


def test_a_pronoun_opening_a_new_family_sentence_is_the_patient_not_the_relative_before():
    """Stop-41 review M1: carrying the relative across sentences gave the patient's own denial to the father ("My
    father was can't think of any family member ...", 20 of the first 400 test-v2 records); a part with no subject
    after a relative's sentence is still the relative's ("'Liked a drink', heavy drinker in his fifties")."""
    from mentalhospital_env.cases.compile import compile_facts
    from mentalhospital_env.cases.model import EHR

    def said(fh, sex="male"):
        facts = compile_facts(EHR(chief_complaint="x", history_of_present_illness="Low mood.", family_history=fh), sex)
        return [f.patient_says for f in facts if f.section == "family_history" and f.patient_says]

    says = said("Father has type 2 diabetes, on insulin now. He cannot think of any family member with a psychiatric "
                "illness; he would not necessarily have been told.")
    assert not any("father was can" in s.lower() or "father was wouldn" in s.lower() for s in says), says
    assert any(s.startswith("I can't think of any family member") or s.startswith("I cannot think") for s in says), says
    says = said("Father Roy, toolmaker, died in 2023 aged 71. 'liked a drink', heavy drinker in his fifties.")
    assert any("father liked a drink" in s.lower() and "his fifties" in s for s in says), says


def test_a_finding_opening_a_paragraph_is_said_and_a_bare_title_is_not():
    """Stop-41 review S8: the paragraph-title rule keyed on form alone and would silence 'No suicidal thoughts.' opening
    a paragraph; a one-word heading ('Guns.') or a verbless heading with no finding ("His mother's account.") stays
    the writer's. Review S1: 'Brother admitted to hospital ...' is said 'My brother was admitted ...'."""
    from mentalhospital_env.cases.compile import _paragraph_titles, compile_facts
    from mentalhospital_env.cases.model import EHR

    titles = _paragraph_titles("Referred by GP.\n\nLow mood. She describes it.\n\nNo suicidal thoughts. Denies plans.\n\n"
                               "Guns. Not raised by him.\n\nHis mother's account. Helen describes.")
    assert titles == {"guns", "his mother's account"}, titles
    facts = compile_facts(EHR(chief_complaint="x", history_of_present_illness="Low mood.",
                              family_history="Brother admitted to hospital with psychosis in 2015."), "male")
    assert [f.patient_says for f in facts if f.section == "family_history"] == [
        "My brother was admitted to hospital with psychosis in 2015."]


def test_a_referrers_query_beside_the_complaint_leaves_the_complaint_told():
    """Stop 41's referrer-letter rule kept a whole sentence untold when it held a query, so the patient could never
    tell the complaint beside it (hw-016 'health anxiety, eleven negative HIV tests in eighteen months, please
    advise.', hw-027 'escalating offending, knife possession, ?mental health needs.': interview chief-complaint
    coverage on the hand-written suite fell 61.67 -> 56.67). Only the clause that asks is left out; a sentence that
    also carries a score stays untold whole."""
    from mentalhospital_env.cases.compile import compile_facts
    from mentalhospital_env.cases.model import EHR

    def cc(text):
        facts = compile_facts(EHR(chief_complaint=text, history_of_present_illness="Low mood."), "male")
        return [f.patient_says for f in facts if f.section == "chief_complaint" and f.told]

    said = cc("GP referral: 'health anxiety, eleven negative HIV tests in eighteen months, please advise.'")
    assert any("eleven negative HIV tests" in s and "advise" not in s for s in said), said
    said = cc("YOT referral: 'escalating offending, knife possession, ?mental health needs.'")
    assert any("knife possession" in s and "mental health needs" not in s for s in said), said
    assert not cc("GP referral: 'Generalised anxiety disorder with low mood, GAD-7 17, PHQ-9 14.'")
