"""A means of harm the patient keeps, or harm done in his sleep, told by a relative is still his to tell when asked
directly (stop 62, uw-034, uw-032): the knife under his pillow was in no sentence of his own (only his ex-partner's
call and his mother's account; a told one kept her frame, "My ex-partner says he sleeps with a kitchen knife ..."), and "He keeps his own tablets." in the medication record was dropped, naming no
medicine; the weapon and means questions had nothing to reach. Now said in his words without the teller's frame,
sensitive (told only when asked, with rapport); where the record gives a sign he hides it, it stays the teller's.

A short record written for the test, read through the public API."""

from __future__ import annotations

import json

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

RECORD = {
    "case_id": "s62-safety-told",
    "language": "en",
    "demographics": {"age": 39, "sex": "male", "occupation": "warehouse worker", "marital_status": "separated",
                     "education": "secondary", "living_situation": "lives alone in a flat"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Mr Lee Marsh, 39: nightmares since an assault.",
        "history_of_present_illness": (
            "Nightmares and low mood since he was attacked outside a pub in March 2026. Thoughts that he would be "
            "better off dead, no attempt.\n\n"
            "02/10/2026 Sister's account: he still keeps a hammer by the bed 'in case they come back'; he checks the "
            "locks at night; drinks most evenings.\n\n"
            "His ex-partner says he sleeps with a kitchen knife under the pillow and once hit out at her in his sleep.\n\n"
            "His brother says he keeps a machete in his van, which he denies."),
        "past_psychiatric_history": "None.",
        "medical_history": "None.",
        "medications": "Sertraline 100 mg daily. He keeps his own tablets.",
        "allergies": "No known drug allergies.",
        "substance_use": "Lager most evenings.",
        "family_history": "None known.",
        "personal_history": "Grew up locally. Works nights in a warehouse.",
        "mental_status_exam": {"mood": "'Wrecked.'"},
        "risk_assessment": {"suicide": "Moderate.", "violence": "Sleeps with a knife under the pillow."},
    },
    "exams": [],
    "diagnosis": {"categories": ["trauma_stressor"], "disorders": [{"name": "Post-traumatic stress disorder", "code": "F43.1"}]},
    "treatment": {"plan": "Trauma-focused therapy.", "medications": [], "psychotherapy": [], "safety": [],
                  "follow_up": "Two weeks."},
    "persona": {"verbosity": "average", "guardedness": 0.3, "insight": "partial",
                "speech_style": "39-year-old warehouse worker, curt."},
}


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    path = tmp_path_factory.mktemp("s62") / "safety_told.json"
    path.write_text(json.dumps(RECORD))
    return load_case(str(path))


def _told(case, words):
    return [f for f in case.facts if f.told and f.patient_says and words in f.text]


def test_a_relatives_account_of_his_weapon_is_his_to_tell_when_asked(case) -> None:
    hammer = _told(case, "hammer by the bed")
    assert hammer and hammer[0].patient_says.startswith("I still keep a hammer by the bed"), hammer
    assert hammer[0].sensitive
    knife = _told(case, "kitchen knife")
    assert knife and knife[0].patient_says.startswith("I sleep with a kitchen knife under the pillow"), knife
    assert "in my sleep" in knife[0].patient_says and knife[0].sensitive
    # the teller's other observations stay hers; what the record says he hides stays the teller's
    assert not _told(case, "checks the locks")
    assert not any("I keep a machete" in f.patient_says for f in _told(case, "machete")), _told(case, "machete")


def test_asked_about_weapons_he_tells_the_knife(case) -> None:
    reply = make_patient(case, "full", seed=13).respond("Do you keep any weapons at home, a knife or anything like that?")
    assert "kitchen knife" in reply.text, reply.text


def test_asked_about_means_he_tells_the_knife_once_and_the_tablets(tmp_path) -> None:
    """uw-034: the knife of the ex-partner's March call ("Back in March, I slept with a kitchen knife ...") and of the
    mother's November account filled the means answer, and the tablets kept in the motorbike box were left out."""
    record = json.loads(json.dumps(RECORD))
    record["ehr"]["history_of_present_illness"] = (
        "Nightmares since he was attacked outside a pub in March 2026.\n\n"
        "14/03/2026 Ex-partner's account: he sleeps with a kitchen knife under the pillow.\n\n"
        "20/11/2026 Mother's account: he still keeps a kitchen knife under the pillow 'for if they come'.\n\n"
        "01/12/2026 He kept about 60 tablets in a tin in his van.")
    path = tmp_path / "means.json"
    path.write_text(json.dumps(record))
    reply = make_patient(load_case(str(path)), "full", seed=13).respond(
        "Do you have access to anything you could use to harm yourself, such as medicines or weapons?")
    assert reply.text.count("kitchen knife") == 1 and "60 tablets" in reply.text, reply.text
