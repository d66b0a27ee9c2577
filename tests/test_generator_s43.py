"""Stop 43's reading of fresh generator-v2 records (issue 14): what a psychiatrist reading them as referrals
found, checked through the public API on fresh draws.

* an alcohol plan gives its withdrawal regimen once (the reason for lorazepam told inside it, not as a second
  sentence restating the regimen);
* an emergency plan that admits for a supervised withdrawal does not open by sending the patient home;
* an inpatient record holds a reason to be in hospital;
* a violence line naming an act has the act told somewhere else in the record;
* the household words are read as words ('prison' holds no 'son').
"""

from __future__ import annotations

import random
import re

import pytest

from mentalhospital_env.cases.generator import generate_case, generate_cases

SPLIT = re.compile(r"(?<=\.)\s+(?=[A-Z])")


def _draw(code: str, n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [generate_case(rng, f"s43-{code}-{i:03d}", principal=code, version=2) for i in range(n)]


@pytest.fixture(scope="module")
def alcohol() -> list[dict]:
    return _draw("F10.20", 24, 4343) + _draw("F10.230", 16, 4344)


def test_withdrawal_regimen_said_once(alcohol):
    """No plan with a sentence giving the regimen and another giving it again as 'lorazepam rather than (in place
    of) chlordiazepoxide' (stop 43: 9 of 60 fresh records at seed 4301)."""
    seen = 0
    for case in alcohol:
        sentences = SPLIT.split(case["treatment"]["plan"])
        named = [s for s in sentences if re.search(r"\blorazepam\b|\bchlordiazepoxide\b", s, re.I)]
        if any(re.search(r"(?:rather than|in place of|instead of) chlordiazepoxide", s) for s in named):
            seen += 1
            assert len(named) == 1, (case["case_id"], named)
    assert seen, "no plan weighed the benzodiazepine choice: the draw tests nothing"


def test_emergency_plan_admitting_does_not_send_home(alcohol):
    for case in alcohol:
        plan = case["treatment"]["plan"]
        if case["setting"] == "emergency" and re.search(r"medically supervised inpatient detoxification", plan):
            first = SPLIT.split(plan)[0]
            assert not re.search(r"home today|discharged home|safe to go home|then home", first), (case["case_id"], first)


def test_inpatients_have_a_reason_to_be_in_hospital():
    """An adjustment disorder, a panic disorder or a moderate depression is admitted only with suicidal thoughts or
    another reason in the record (stop 43: 'Came into hospital two days ago, after her husband rang the crisis line'
    of a moderate depression with no suicidal thoughts)."""
    cases = _draw("F33.1", 40, 4345) + _draw("F43.22", 30, 4346) + _draw("F32.1", 40, 4347)
    for case in cases:
        if case["setting"] != "inpatient":
            continue
        suicide = (case["ehr"].get("risk_assessment") or {}).get("suicide") or ""
        if re.search(r"reducing regimen|detoxification|assisted withdrawal on the ward", case["treatment"]["plan"]):
            continue  # another reason in the record: a co-occurring dependence withdrawn on the ward (stop 44: s43-F32.1-019, 16 units a day; stop 48: s43-F33.1-005, 'A medically assisted withdrawal on the ward')
        assert not re.match(r"(?:No|Not|Denies)\b", suicide) or re.search(r"attempt|overdose|wish|better off", suicide), (case["case_id"], suicide)


def test_violence_act_is_told_in_the_record():
    cases = generate_cases(60, seed=4348, prefix="v43", version=2)
    act = re.compile(r"\b(?:push(?:ed|ing)?|fights?|blows|punch(?:ed)?)\b", re.I)
    told = re.compile(r"\b(?:push(?:ed|ing)?|shov\w*|fights?|fighting|blows|punch\w*|struck|assault\w*|aggress\w*|violent|smash\w*|lash\w* out|threatened)\b", re.I)
    for case in cases:
        line = (case["ehr"].get("risk_assessment") or {}).get("violence") or ""
        if act.search(line) and not re.match(r"(?:Never|No|Not)\b", line):
            ehr = case["ehr"]
            rest = " ".join(str(ehr.get(k) or "") for k in ("chief_complaint", "history_of_present_illness", "personal_history"))
            rest += " " + " ".join((ehr.get("mental_status_exam") or {}).values())
            assert told.search(rest), (case["case_id"], line)


def test_kin_read_as_words():
    import json
    from importlib import resources

    data = resources.files("mentalhospital_env.cases.generator").joinpath("data")
    story = json.loads(data.joinpath("story.json").read_text("utf-8"))
    kin = story["family_report"]["kin_pattern"]
    assert re.search(kin, "lives with stepmother", re.I)
    assert re.search(kin, "lives with daughter's family", re.I)
    assert not re.search(kin, "lives in a prison hostel", re.I)
    assert not re.search(kin, "lives with a person from church", re.I)
