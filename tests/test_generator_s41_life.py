"""Issue 14, stop 41 round two: an adult's record whose life contradicts itself. Readers of fresh draws found
'unable to hold a job' beside '14 years in the job', shift work for a primary school teacher, 'his family
agrees' of a man who lives alone with nobody named, 'Married 2 years' beside their two school-age children,
'(40 mg/day in adults)' in a 9-year-old's plan, and plan tails said twice ('to start on the ward on the ward
and after discharge', 'with parent involvement, with her parents involved'). These tests read drawn records
through the public API, and the generator's word rules through the household they fit."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.cases.generator import generate_case, generate_cases
from mentalhospital_env.cases.generator.composer import FitRules, Household

DATA = Path(__file__).resolve().parents[1] / "mentalhospital_env" / "cases" / "generator" / "data"
PEOPLE = json.loads((DATA / "people.json").read_text(encoding="utf-8"))
TAILS = [re.compile(p, re.I) for p in json.loads((DATA / "wording.json").read_text(encoding="utf-8"))["tail_families"]]


def _household(occupation: str, employed: bool, shift_worker: bool = False) -> Household:
    return Household(40, "male", occupation, "single", None, False, False, employed, False, shift_worker=shift_worker)


@pytest.mark.parametrize("phrase", ["has been unable to hold a job", "has lost several jobs", "worried about losing a job"])
def test_a_working_life_that_did_not_hold_fits_only_someone_out_of_work(phrase: str) -> None:
    fit = FitRules(PEOPLE["fit_rules"]["rules"])
    assert not fit.fits(phrase, _household("primary school teacher", employed=True)), phrase
    assert fit.fits(phrase, _household("unemployed", employed=False)), phrase
    assert not fit.fits("trouble at work", _household("unemployed", employed=False))  # 'work' still asks for a job


@pytest.mark.parametrize("phrase", ["sleep loss from shift work", "night shifts"])
def test_shift_work_fits_only_an_occupation_worked_in_shifts(phrase: str) -> None:
    fit = FitRules(PEOPLE["fit_rules"]["rules"])
    assert not fit.fits(phrase, _household("primary school teacher", employed=True))
    assert fit.fits(phrase, _household("nurse", employed=True, shift_worker=True))


def test_drawn_households_work_shifts_only_in_shift_occupations() -> None:
    pattern = re.compile(PEOPLE["shift_occupations"]["pattern"], re.I)
    cases = [load_case(c) for c in generate_cases(40, 4170, prefix="s41life", version=2)]
    for case in cases:
        text = " ".join(v for v in vars(case.ehr).values() if isinstance(v, str))
        if re.search(r"\bshift work|night shifts?\b", text, re.I):
            assert pattern.search(case.demographics.occupation or ""), (case.case_id, case.demographics.occupation)
    # the same draw: someone close who is not in the household is not 'the family' of a patient who lives alone
    family = re.compile(r"\b(?:his|her|their) family (?:agrees|says|adds|puts|noticed|first noticed|brought|rang|called|remembers|dates)\b")
    alone = [c for c in cases if "alone" in (c.demographics.living_situation or "") and not c.persona.informant]
    assert alone, "the draw holds patients who live alone with nobody named"
    for case in alone:
        text = " ".join(v for v in vars(case.ehr).values() if isinstance(v, str))
        assert not family.search(text), (case.case_id, family.search(text).group(0))
    # and no plan clause says one tail twice
    for case in cases:
        for clause in re.split(r"[.;:]\s+", case.treatment.plan):
            assert not any(len(rx.findall(clause)) > 1 for rx in TAILS), (case.case_id, clause)


def test_a_couple_with_children_at_home_has_been_together_long_enough() -> None:
    rule = PEOPLE["couple_years"]
    seen = 0
    for seed in range(60):
        raw = generate_case(random.Random(seed), f"s41-couple-{seed}", principal="F41.1", version=2)
        case = load_case(raw)
        living = case.demographics.living_situation or ""
        m = re.search(r"\b(?:Married(?: for)?|partner for|of) (\d+) years?\b", case.ehr.personal_history or "")
        if not m or "children" not in living or re.search(rule["young_child_pattern"], living):
            continue
        seen += 1
        assert int(m.group(1)) >= min(rule["min_with_children"], case.demographics.age - 20), (case.case_id, m.group(0), living)
    assert seen, "the draws hold couples with children at home"


@pytest.mark.parametrize("seed", range(3))
def test_a_weight_based_dose_keeps_no_adult_aside(seed: int) -> None:
    found = 0
    for s in range(seed * 20, seed * 20 + 20):
        case = load_case(generate_case(random.Random(s), f"s41-adhd-{s}", principal="F90.0", version=2))
        plan = case.treatment.plan
        assert "in adults)" not in plan, (case.case_id, case.demographics.age, plan)
        if "atomoxetine" in plan:
            found += 1
            if case.demographics.age >= 18:
                assert "mg/kg" not in plan.split("atomoxetine", 1)[1][:40], (case.case_id, plan)
    if seed == 0:
        assert found, "the draws prescribe atomoxetine"
