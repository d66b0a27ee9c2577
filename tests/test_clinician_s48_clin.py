"""Stop 48 (s48-clin): the scripted clinician's notes and plans on stop 47's hand-read faults.

Each test states the premise it was written from; the expectations come from reading the transcripts, not the code.
"""

from __future__ import annotations

from mentalhospital_env.agents.scripted import ScriptedClinician


def _doctor(text: str = "Outpatient clinic. A 44-year-old woman is here to see you, alone.") -> ScriptedClinician:
    doctor = ScriptedClinician()
    doctor.reset({"text": text}, {})
    return doctor


def _told(doctor: ScriptedClinician, answers: dict[str, str], teller: dict[str, str] | None = None) -> None:
    for key, reply in answers.items():
        doctor.findings.answers[key] = reply
        doctor.findings.replies.append((key, reply))
        doctor.findings.reply_keys.append(key)  # as the clinician files a reply: under the key it was asked for
    doctor.findings.told_by.update(teller or {})


def _line(note: str, heading: str) -> str:
    return next((line for line in note.splitlines() if line.startswith(heading)), "")


def test_a_drug_reaction_is_written_as_drug_and_reaction_an_intolerance_apart_from_an_allergy():
    """test-v2-0214 (stop 47): the father's 'Codeine makes her sick' named no subject cue of the heading and the
    Allergies line fell out of the note; 'Penicillin gives me a rash' did too. A denial stays a denial."""
    father = _doctor("Outpatient clinic. A 10-year-old girl is here to see you, accompanied by her father.")
    _told(father, {"allergies": "Codeine makes her sick."}, {"allergies": "father"})
    line = _line(father._note(), "Allergies:")
    assert "Codeine intolerance (sickness) rather than a true allergy" in line, line
    assert 'her father: "Codeine makes her sick"' in line, line

    rash = _doctor()
    _told(rash, {"allergies": "Penicillin gives me a rash."})
    line = _line(rash._note(), "Allergies:")
    assert "Penicillin allergy (rash)" in line and "intolerance" not in line, line

    none = _doctor()
    _told(none, {"allergies": "No known allergies."})
    line = _line(none._note(), "Allergies:")
    assert "allergy (" not in line and "intolerance" not in line, line

    denied = _doctor()
    _told(denied, {"allergies": "I'm not allergic to penicillin."})
    assert "Penicillin allergy" not in denied._note()


def test_an_illness_of_days_in_old_age_is_screened_for_delirium_first():
    """test-v2-0077 (stop 47): an 87-year-old, two days of being muddled and frightened, told only 'People are
    following me' and was written up as a delusional disorder: no confusion screen was ordered. A woman of 40 with the
    same two days, or an 87-year-old ill for a year, is not screened by this rule."""
    old = _doctor("Emergency department. A 87-year-old woman is here to see you, accompanied by her daughter.")
    _told(old, {"hpi:1": "It started about two days ago."})
    old.findings.present["persecutory_delusions"] = "People are following me."
    exams = old._exams()
    assert "CAM" in exams[:5], exams

    young = _doctor("Emergency department. A 40-year-old woman is here to see you, alone.")
    _told(young, {"hpi:1": "It started about two days ago."})
    young.findings.present["persecutory_delusions"] = "People are following me."
    assert "CAM" not in young._exams()

    long_ill = _doctor("Emergency department. A 87-year-old woman is here to see you, accompanied by her daughter.")
    _told(long_ill, {"hpi:1": "It started about a year ago."})
    long_ill.findings.present["persecutory_delusions"] = "People are following me."
    assert "CAM" not in long_ill._exams()


def test_a_rescue_told_when_asked_about_self_harm_is_no_answer_about_it():
    """hw-039 (stop 47): 'firefighters cut me out', said again when asked about self-harm, was filed under it."""
    doctor = _doctor()
    _told(doctor, {"self_harm": "My car went under a lorry and I was trapped while firefighters cut me out."})
    risk = _line(doctor._note(), "Risk assessment:")
    assert "cut me out" not in risk, risk

    cutting = _doctor()
    _told(cutting, {"self_harm": "Sometimes, when it builds up, I think about the blade."})
    risk = _line(cutting._note(), "Risk assessment:")
    assert "the blade" in risk, risk


def test_an_onset_told_again_with_a_hedge_is_written_once():
    """hw-002 (stop 47): 'He says it started Four days ago. He relates that it started about four days ago.'"""
    doctor = _doctor()
    assert doctor._retold_key("it started about four days ago") == doctor._retold_key("It started Four days ago")
    assert doctor._retold_key("it started four days ago") != doctor._retold_key("it started four weeks ago")
