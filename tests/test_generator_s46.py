"""Stop 46 (issue 14): a drawn life read by every section of a generated record.

A reading of 30 fresh version-2 records (seed 4646) found adjustment disorders and a three-year dysthymia
with no suicidal thoughts brought to the emergency department by the police, an ambulance or the crisis
line; a man with agoraphobia 'homeless, sleeping rough' offered 'home-based sessions if housebound'; a
bulimia whose first sign was 'leaving meals half eaten'; and (the development draw of 240 at seed 4647) a
girl of 9 'coming home later and later'. These tests draw cases through the public generator, over seed
ranges that held each fault before stop 46, and read the record as written.
"""

from __future__ import annotations

import random
import re

import pytest

from mentalhospital_env.cases.generator import generate_case

NO_THOUGHTS = re.compile(r"^(?:no|denies|not)\b", re.I)
ADULT_SIGN = re.compile(r"coming home later|\bdoor\b|doorbell|evenings? out|nights out|at odd hours|rang on Sundays|\bthe post\b", re.I)
MEAL_LEFT = re.compile(r"meals half eaten|food round the plate|most of (?:his|her|their) dinner|picked at (?:his|her|their) meals", re.I)


def _cases(code: str, n: int, seed: int, start: int = 0) -> list[dict]:
    return [generate_case(random.Random(seed * 1000 + i), f"s46-{code}-{i}", principal=code, version=2) for i in range(start, start + n)]


def test_an_emergency_holds_a_reason_to_be_brought_in():
    """An adjustment disorder with no suicidal thoughts and nothing acute is seen in clinic, not brought to the
    emergency department tonight (seeds 4601: cases 5 and 8 were, before stop 46)."""
    for case in _cases("F43.21", 10, 4601):
        suicide = (case["ehr"].get("risk_assessment") or {}).get("suicide") or ""
        assert not (case["setting"] == "emergency" and NO_THOUGHTS.match(suicide)), (case["case_id"], suicide)


def test_an_agoraphobia_is_not_sleeping_rough():
    """Someone who cannot leave the house is not drawn homeless (people.json life_limits.living)."""
    for case in _cases("F40.00", 4, 4603):
        living = str(case["demographics"].get("living_situation", ""))
        assert not re.search(r"sleeping rough|hostel|sofa-surfing", living), (case["case_id"], living)


def test_a_childs_first_signs_are_a_childs():
    """No 'coming home later and later' or 'no longer came to the door' of a child under 14."""
    for case in _cases("F91.3", 6, 4604):
        if case["demographics"]["age"] >= 14:
            continue
        hpi = case["ehr"].get("history_of_present_illness") or ""
        assert not ADULT_SIGN.search(hpi), (case["case_id"], hpi)


@pytest.mark.parametrize("code", ["F50.2"])
def test_a_bulimias_first_sign_is_not_restriction(code):
    """A bulimia is not first seen as meals left half eaten (records.json sign_episode_categories)."""
    for case in _cases(code, 8, 4605, start=6):
        hpi = case["ehr"].get("history_of_present_illness") or ""
        assert not MEAL_LEFT.search(hpi), (case["case_id"], hpi)


def test_an_anorexias_risk_line_agrees_with_the_admission():
    """The plan admits for medical stabilisation on the results the critical rule reads (a postural fall of 20 mmHg
    or more among them); the risk line then calls the physical risk high, not 'moderate' (seed 4606: 10 of 14
    cases before stop 46)."""
    unstable = re.compile(r"medically unstable|medical stabilisation|same-day medical assessment", re.I)
    raised = re.compile(r"Physical risk from restriction|Physical risk moderate|Medical risk from low weight|Starvation is the main risk", re.I)
    for case in _cases("F50.01", 6, 4606):
        said = (case["ehr"].get("risk_assessment") or {}).get("self_neglect") or ""
        assert not (unstable.search(case["treatment"]["plan"]) and raised.search(said)), (case["case_id"], said)
