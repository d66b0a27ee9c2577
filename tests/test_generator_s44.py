"""Stop 44 (issue 14): each section of a generated record draws from the case's own facts.

A reading of 60 fresh version-2 records found withdrawing signs of a depression told first of panic
disorder and rage attacks, sleep remedies and painkillers 'tried' by drinkers and drug users, onset
contexts the patient's life cannot hold (a birth without a child, combat for a postman), a child in
foster care 'distressed at being apart from his parents' and 'reduce alcohol' for a 13-year-old who
does not drink. These tests draw cases through the public generator and read the record as written.
"""

from __future__ import annotations

import random
import re

import pytest

from mentalhospital_env.cases.generator import generate_case

WITHDRAWING = re.compile(
    r"stopped returning calls|no longer rang on Sundays|seemed to be somewhere else|seemed miles away|"
    r"in a world of (?:his|her|their) own|did not seem to take things in|quiet at mealtimes|hardly spoke at the table|"
    r"little to say over dinner|meals in silence|stopped seeing friends|more and more time in (?:his|her|their) room|"
    r"stopped asking about anyone else|stopped laughing at things"
)


def _cases(code: str, n: int, seed: int) -> list[dict]:
    out = []
    for i in range(n):
        out.append(generate_case(random.Random(seed * 1000 + i), f"s44-{code}-{i}", principal=code, version=2))
    return out


def _hpi(case: dict) -> str:
    return case["ehr"].get("history_of_present_illness") or ""


@pytest.mark.parametrize("code", ["F41.0", "F63.81", "F42.2"])
def test_first_signs_are_ones_this_illness_shows(code):
    """A depression's withdrawing (silent at meals, calls unreturned, miles away) is not what a family first
    sees of panic disorder, rage attacks or obsessions, unless a co-occurring illness brings it."""
    bad = []
    for case in _cases(code, 10, 4401):
        codes = [d["code"] for d in case["diagnosis"]["disorders"]]
        if any(c.startswith(("F32", "F33", "F34", "F20", "F25", "F43", "F10", "F11", "F12", "F14", "F50")) for c in codes):
            continue
        m = WITHDRAWING.search(_hpi(case))
        if m:
            bad.append((case["case_id"], codes, m.group(0)))
    assert not bad, bad


def test_remedies_tried_fit_the_illness_and_its_span():
    """An alcohol withdrawal of hours has not been treated with early nights, a diary or a holiday."""
    bad = []
    for case in _cases("F10.230", 10, 4402):
        m = re.search(r"early nights|bed earlier|screen time|coffee after noon|[Pp]ainkillers|diary|holiday would|waiting list|self-help book|app for mindfulness|week off|church counsellor", _hpi(case))
        if m:
            bad.append((case["case_id"], m.group(0)))
    assert not bad, bad


def test_a_birth_precipitant_has_a_baby_in_the_household():
    """'After becoming a parent' or 'a new baby' is told only of a parent of the age, with a baby the record
    places at home."""
    bad = []
    for case in _cases("F41.1", 24, 4403) + _cases("F51.01", 12, 4404):
        hpi = _hpi(case)
        if not re.search(r"becoming a parent|new baby|birth of (?:a|a second) child", hpi):
            continue
        dm = case["demographics"]
        home = f"{dm.get('living_situation', '')} {case['ehr'].get('personal_history', '')}"
        if not re.search(r"baby|young child|children", home) or (dm["sex"] == "female" and dm["age"] > 45) or dm["age"] > 55:
            bad.append((case["case_id"], dm["age"], dm["sex"], dm.get("living_situation")))
    assert not bad, bad


def test_separation_distress_names_whom_the_child_lives_with():
    """A child in care is not 'distressed at being apart from his parents'; a child living with one parent
    misses that parent."""
    bad = []
    for case in _cases("F93.0", 12, 4405):
        living = str(case["demographics"].get("living_situation", "")).lower()
        hpi = _hpi(case)
        if "apart from" not in hpi:
            continue
        if re.search(r"foster|residential|care home|children's home", living) and re.search(r"apart from (?:his|her|their) parents", hpi):
            bad.append((case["case_id"], living))
        if re.match(r"lives with (?:mother|father)\b", living) and re.search(r"apart from (?:his|her|their) parents", hpi):
            bad.append((case["case_id"], living))
    assert not bad, bad


def test_no_drinking_to_reduce_when_none_is_told():
    """'Reduce alcohol' in a plan needs drinking in the substance history."""
    bad = []
    for case in _cases("F63.81", 10, 4406):
        substance = case["ehr"].get("substance_use") or ""
        plan = case["treatment"]["plan"]
        if re.search(r"[Rr]educe alcohol|cut down (?:on )?alcohol", plan) and not re.search(r"alcohol|drinks?|drinking|units?|pints?|wine|beer|lager|cider|vodka|spirits", substance, re.I):
            bad.append((case["case_id"], substance))
    assert not bad, bad


def test_a_functional_weakness_is_one_weakness():
    """The letter and the patient name the same limb: not 'a weak arm that tests have not explained' beside
    'My legs give way when I try to walk'."""
    bad = []
    for i in range(12):
        case = generate_case(random.Random(7700 + i), f"s44-limb-{i}", principal="F44.4", version=2)
        story = f"{case['ehr']['chief_complaint']} {_hpi(case)}"
        if re.search(r"\b(?:arms?|hands?)\b", story) and re.search(r"\b(?:legs?|feet|foot|walk|walking|weight on)\b", story):
            bad.append((case["case_id"], story[:300]))
    assert not bad, bad


def test_a_bipolar_depression_is_first_seen_as_a_depression():
    """The first signs of a depressed episode are not the late nights of a high ('coming home later and
    later' was told first of four depressed episodes once every sign stopped fitting every illness)."""
    bad = []
    for i in range(10):
        case = generate_case(random.Random(9100 + i), f"s44-bip-{i}", principal="F31.4", version=2)
        m = re.search(r"coming home later|on the phone to .* at odd hours", _hpi(case))
        if m:
            bad.append((case["case_id"], m.group(0)))
    assert not bad, bad
