"""A narrative record compiles into what the patient would say (issue 13, stop 38): faults read on uw-010's and
uw-011's whole scripted episodes and in the reading sample, written here in sentences of the same shape."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts, voiced
from mentalhospital_env.cases.model import EHR


def _facts(sex: str = "male", **sections: str):
    cc = sections.pop("chief_complaint", "Low mood.")
    hpi = sections.pop("history_of_present_illness", "Low mood for two months.")
    return compile_facts(EHR(chief_complaint=cc, history_of_present_illness=hpi, **sections), sex)


def test_not_reported_doing_is_a_denial() -> None:
    # "He does not report hearing voices." was left unsaid: a question about voices got no denial from it
    facts = _facts(history_of_present_illness="Low mood for two months. He does not report hearing voices.")
    voices = [f for f in facts if "voices" in f.text]
    assert voices and voices[0].told and voices[0].polarity == "absent"
    assert voices[0].patient_says == "I haven't been hearing voices."
    assert voiced("history_of_present_illness", "She does not describe feeling low.", "female") == "I haven't been feeling low."
    # a frame over a clause with its own verb still has nothing the patient had or did not have
    assert voiced("history_of_present_illness", "He could not say why this year was different.", "male") is None
    # only the present "does not report/describe/endorse" is a denial: what was not mentioned is not denied
    assert voiced("history_of_present_illness", "He did not mention drinking.", "male") is None
    assert voiced("history_of_present_illness", "She did not report feeling low until after the birth.", "female") is None
    assert voiced("history_of_present_illness", "She does not report feeling low until after the birth.", "female") is None


def test_allergy_heading_is_the_charts() -> None:
    # "Allergies: penicillin (rash)." was said "I'm allergic to allergies, penicillin."
    for entry in ("Allergies: penicillin (rash).", "Allergic to penicillin (rash)."):
        told = [f.patient_says for f in _facts(allergies=entry) if f.section == "allergies" and f.told]
        assert told == ["I'm allergic to penicillin, it gives me a rash."], (entry, told)
    told = [f.patient_says for f in _facts(allergies="Allergies: NKDA.") if f.section == "allergies"]
    assert told == ["No, I'm not allergic to any medicines that I know of."]


def test_carried_epipen_is_said() -> None:
    # "Latex: hives; carries an EpiPen." lost the EpiPen, or read it as a thing the patient is allergic to
    for entry in ("Latex: hives; carries an EpiPen.", "Allergy to peanuts (anaphylaxis); carries an EpiPen."):
        told = [f.patient_says for f in _facts(allergies=entry) if f.section == "allergies" and f.told]
        assert "I carry an EpiPen." in told and not any("allergic to carries" in t for t in told), told


def test_relatives_pronoun_after_semicolon_names_the_relative() -> None:
    # uw-011: "Father (...) was 'always in trouble' at school ...; he has been treated by his GP for anxiety and low
    # mood and takes citalopram." was said "He has been treated by my GP ..." (no one named, the GP made the boy's)
    facts = _facts(family_history="Father (40, driver) left school at 15; he has been treated by his GP for low mood and "
                                  "takes citalopram. Mother has asthma; she had postnatal depression after her son's birth.")
    said = {f.patient_says: f.relative for f in facts if f.section == "family_history" and f.told}
    assert said.get("My father has been treated by his GP for low mood and takes citalopram.") == "father", said
    assert any(s.startswith("My mother had postnatal depression") and r == "mother" for s, r in said.items()), said
    # a pronoun that is not the relative's is left as it was
    facts = _facts(family_history="Mother has asthma; he has never met his father.")
    assert not any((f.patient_says or "").startswith("My mother has never") for f in facts)


def test_the_couples_children_are_ours() -> None:
    # uw-010: "Their son Martin, 37, is a software developer ..." (after his marriage) was left unsaid, and a
    # question about children was answered with his own birth ("the second of three children")
    facts = _facts(personal_history="Married to Ann for 40 years. Their son Tom, 35, is a teacher in Leeds and phones weekly.")
    said = [f.patient_says for f in facts if f.section == "personal_history" and f.told]
    assert "Our son Tom, 35, is a teacher in Leeds and phones weekly." in said, said
    # a relative's "their" in the family history stays theirs
    facts = _facts(family_history="Their son has epilepsy.")
    assert not any((f.patient_says or "").startswith("Our") for f in facts)


def test_the_parents_children_are_not_ours() -> None:
    # stop 38's reviewer: with no partner of the patient's named, the parents' children were said "Our two children"
    facts = _facts(personal_history="Parents separated in 2019. Their two children live with mother.")
    assert not any((f.patient_says or "").startswith("Our") for f in facts), [f.patient_says for f in facts]
    facts = _facts(personal_history="Works as a plumber. Their son lives in Leeds.")
    assert not any((f.patient_says or "").startswith("Our") for f in facts), [f.patient_says for f in facts]
