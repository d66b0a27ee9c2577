"""Stop 45 (issue 14): one life told by every section of a generated record.

A reading of 60 fresh version-2 records (seed 4545) found an untidy hyperactive boy of 15 and a
conduct-disordered boy of 9 recorded as neglecting themselves, a severe bipolar depression whose past
history read 'nothing like this had happened', a police officer of 61 and a woman of 95 with dementia
'working as a charity-shop volunteer', a man with an intellectual disability holding a degree, the
household told twice ('Lives with his partner of 16 years ... Lives with partner.'), alcohol dependence
referred 'for months of broken sleep', and (a reading at seed 4546) 'mirtazapine 15 mg at night in the
morning'. These tests draw cases through the public generator and read the record as written.
"""

from __future__ import annotations

import random
import re

import pytest

from mentalhospital_env.cases.generator import generate_case

NEGLECT = re.compile(r"not washing|washing (?:neglected|go)|self-care (?:is poor|has (?:deteriorated|slipped|gone downhill))|"
                     r"no longer washes|stopped washing|self-neglect is a risk|at risk of self-neglect|self-neglect risk", re.I)


def _cases(code: str, n: int, seed: int, start: int = 0) -> list[dict]:
    """Cases ``start`` .. ``start + n - 1`` of a seed (each range holds drafts that showed the fault before stop 45)."""
    return [generate_case(random.Random(seed * 1000 + i), f"s45-{code}-{i}", principal=code, version=2) for i in range(start, start + n)]


@pytest.mark.parametrize("code", ["F90.2", "F91.1"])
def test_an_untidy_child_is_not_called_self_neglecting(code):
    """A dishevelled appearance in a hyperactive or conduct-disordered child is not self-neglect: the risk
    assessment does not say the family find the child not washing unless the history tells of it."""
    for case in _cases(code, 12, 4501):
        if case["demographics"]["age"] >= 16:
            continue
        said = (case["ehr"].get("risk_assessment") or {}).get("self_neglect") or ""
        hpi = case["ehr"].get("history_of_present_illness") or ""
        assert not (NEGLECT.search(said) and not NEGLECT.search(hpi)), (case["case_id"], said)


def test_a_bipolar_depression_has_an_earlier_episode():
    """A bipolar disorder in a depressed episode is bipolar because of an earlier episode: the past history
    tells one, never 'nothing like this had happened'."""
    for case in _cases("F31.4", 10, 4502):
        past = case["ehr"].get("past_psychiatric_history") or ""
        assert not re.search(r"nothing like this|no previous episodes|had kept well|had no mental health problems|never (?:seen|needed|had|spoken|been referred)", past, re.I), (case["case_id"], past)
        assert re.search(r"\d", past), (case["case_id"], past)  # an age or a year: the earlier episode


def test_an_intellectual_disability_has_no_degree():
    for case in _cases("F70", 10, 4503):
        education = str(case["demographics"].get("education", "")).lower()
        assert not re.search(r"degree|a levels|teacher training", education), (case["case_id"], education)


def test_the_household_is_told_once_in_the_personal_history():
    """'Lives with his partner of 16 years, who has been covering at home. Lives with partner.': the partner line
    tells what the partner does, the living line where the patient lives."""
    for case in _cases("F32.1", 15, 4504, start=40):
        personal = case["ehr"].get("personal_history") or ""
        living = [s for s in re.split(r"(?<=\.)\s+", personal) if re.search(r"\b(?:lives with|at home with)\b", s, re.I)]
        assert len(living) <= 1, (case["case_id"], personal)


@pytest.mark.parametrize("code", ["F10.20"])
def test_a_dependence_is_referred_for_the_use(code):
    """The GP who refers a daily drinker writes about the drinking: the referral's statement of the problem names
    the use, not only the poor sleep it brings."""
    for case in _cases(code, 8, 4505, start=2):
        hpi = case["ehr"].get("history_of_present_illness") or ""
        opening = " ".join(re.split(r"(?<=[.])\s+", hpi)[:3])
        if re.search(r"\bsleep|sleepless|awake", opening, re.I):
            assert re.search(r"drink|alcohol|cannabis|smoking|habit|use", opening, re.I), (case["case_id"], opening)


def test_a_dose_is_not_given_two_times_of_day():
    """'Commence mirtazapine 15 mg at night in the morning': the start wording adds no second time of day."""
    for case in _cases("F32.2", 6, 4506, start=20):
        plan = case["treatment"]["plan"]
        for clause in re.split(r"(?<=[.;])\s+", plan):
            times = re.findall(r"\b(?:at night|in the morning|at bedtime|in the evening)\b", clause)
            assert len(set(times)) <= 1, (case["case_id"], clause)
