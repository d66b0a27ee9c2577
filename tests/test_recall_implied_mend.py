"""Stop 44 (mend) of the implications (``patient/data/implied.json``): only what defines a disorder is implied by it,
and only a sentence the patient can tell implies anything.

- Hoarding (F42.3) and excoriation (F42.4) sit under the three characters of obsessive-compulsive disorder but have
  no obsessions: a hoarder asked about unwanted recurring thoughts hedged (dev-v2-0087) instead of the closed
  world's plausible no.
- An examiner's observation ("Checked the door/clock repeatedly", "Shy") is no sentence of the patient's, and implies
  nothing the patient would then answer from or hedge on (review1: uw-017, hw-035, uw-011)."""

from __future__ import annotations

import copy

from mentalhospital_env.cases.loader import bundled_suite_path, load_suite, validate_case
from mentalhospital_env.patient import make_patient

OBSESSIONS = "What thoughts come into your mind again and again, even though you don't want them?"


def _social_phobia() -> dict:
    """test-v2-0090 (social phobia, a record silent on obsessions), as a dict to change one thing at a time."""
    case = next(c for c in load_suite(bundled_suite_path("test-v2")).cases if c.case_id == "test-v2-0090")
    raw = copy.deepcopy(case.to_dict())
    raw.pop("facts", None)
    raw.pop("checkpoints", None)
    return raw


def _reply(raw: dict, question: str):
    return make_patient(validate_case(raw), variant="full", seed=0).respond(question)


def _diagnosed(raw: dict, code: str, name: str) -> dict:
    raw = copy.deepcopy(raw)
    raw["diagnosis"] = {"categories": ["obsessive_compulsive"], "disorders": [{"name": name, "code": code}]}
    return raw


def test_no_diagnosis_implies_obsessions():
    # stop 45: the reference diagnosis implies nothing (its hedges told a doctor the hidden diagnosis); a record
    # silent on obsessions is answered alike whether the diagnosis is OCD, hoarding or excoriation
    raw = _social_phobia()
    control = _reply(raw, OBSESSIONS)
    for code, name in (("F42.2", "Obsessive-compulsive disorder"), ("F42.3", "Hoarding disorder"),
                       ("F42.4", "Excoriation (skin-picking) disorder")):
        reply = _reply(_diagnosed(raw, code, name), OBSESSIONS)
        assert "obsessions" in reply.denied and reply.text == control.text, (code, reply.text)


def test_an_examiners_observation_implies_nothing_and_the_patients_own_sentence_does():
    raw = _social_phobia()
    control = _reply(raw, OBSESSIONS)
    assert "obsessions" in control.denied  # nothing implies them: the closed world's "no" stands
    told = copy.deepcopy(raw)
    told["ehr"]["history_of_present_illness"] += " She checks the door lock twenty times before she can leave the house."
    untold = copy.deepcopy(raw)  # the examiner's observation: the compiler marks it untold
    untold["ehr"]["mental_status_exam"]["behavior"] += " Checked the door lock repeatedly during the interview."
    assert "obsessions" not in _reply(told, OBSESSIONS).denied
    assert "obsessions" in _reply(untold, OBSESSIONS).denied
