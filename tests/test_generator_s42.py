"""Issue 14, stop 42: records a psychiatrist believes. Reading 60 fresh records (seed 4201) as referrals found,
by root cause: the people of a household the record does not have ('His family asked us to see this man
(homeless, sleeping rough)', 'Tonight his family could not settle him' of a man in a shared flat, 'the family
report' of a woman living with her partner); a witness quoted about themselves ('his partner has threatened to
leave, his partner adds'); a record at work and off it at once ('signed off work' beside 'struggling to keep up
at work'); time said two ways ('had been well' beside a ten-year history, 'months of broken sleep' beside six
weeks, a stopped drug 'three weeks ago' that started an illness five weeks old); plan lines that assume people
('train family' for a woman in a shared house; 'Check who is caring for the children' because 'the youngest of
three children' read as a dependant); and one presentation quote in 4 of 60 records. These tests read drawn
records through the public API."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.cases.generator import generate_case, generate_cases
from mentalhospital_env.knowledge import rx
from mentalhospital_env.knowledge.critical import load_critical_actions

DATA = Path(__file__).resolve().parents[1] / "mentalhospital_env" / "cases" / "generator" / "data"
STORY = json.loads((DATA / "story.json").read_text(encoding="utf-8"))
KIN = re.compile(r"parents|mother|father|spouse|partner|husband|wife|children|child|son|daughter|grand|family|sibling|brother|sister|foster|care home|nursing home|sheltered|residential")
FAMILY_PRESENT = re.compile(
    r"\b(?:his|her|their) family (?:asked|brought|agrees|could not settle|rang|called an ambulance)\b"
    r"|\basked (?:his|her|their) family to bring\b|\bthe family (?:report|say)s?\b|\bconcerns the family\b"
)
OFF = re.compile(STORY["work_states"]["states"]["off"], re.I)
AT_WORK = re.compile(STORY["work_states"]["states"]["at_work"], re.I)


def _text(case) -> str:
    ehr = case.ehr
    parts = [ehr.chief_complaint, ehr.history_of_present_illness, ehr.past_psychiatric_history]
    parts += [v for v in vars(ehr.risk_assessment).values() if isinstance(v, str)] if hasattr(ehr.risk_assessment, "__dict__") else []
    return " ".join(p for p in parts if p)


@pytest.fixture(scope="module")
def draw():
    return [load_case(c) for c in generate_cases(40, 4242, prefix="s42", version=2)]


def test_a_household_without_relatives_has_no_family_in_the_room(draw) -> None:
    lone = [c for c in draw if not KIN.search(c.demographics.living_situation or "") and not c.persona.informant]
    assert lone, "the draw holds patients who live with no relative and have nobody named"
    for case in lone:
        found = FAMILY_PRESENT.search(_text(case))
        assert not found, (case.case_id, case.demographics.living_situation, found.group(0))


def test_a_record_is_at_work_or_off_it_not_both(draw) -> None:
    for case in draw:
        text = " ".join(t for t in (case.ehr.chief_complaint, case.ehr.history_of_present_illness) if t)
        assert not (OFF.search(text) and AT_WORK.search(text)), (case.case_id, OFF.search(text).group(0), AT_WORK.search(text).group(0))


def test_no_presentation_quote_fills_its_share_before_the_others(draw) -> None:
    held = Counter()
    for case in draw:
        for q in set(re.findall(r'"([^"]{25,})"', case.ehr.history_of_present_illness or "")):
            held[q.rstrip(".,")] += 1
    worst = held.most_common(1)
    assert not worst or worst[0][1] <= 3, worst


def test_a_witness_is_not_quoted_about_themselves() -> None:
    said = re.compile(r"(?:his|her|their) (partner|wife|husband) (?:has )?threatened to leave[^.]*, (?:his|her|their) (?:partner|wife|husband) (?:says|adds|agrees)")
    seen = 0
    for seed in range(30):
        case = load_case(generate_case(random.Random(seed), f"s42-w-{seed}", principal="F10.20", version=2))
        hpi = case.ehr.history_of_present_illness or ""
        seen += "threatened to leave" in hpi
        assert not said.search(hpi), (case.case_id, said.search(hpi).group(0))
    assert seen, "the draws tell a partner threatening to leave"


def test_a_history_of_years_never_says_the_patient_had_kept_well() -> None:
    rule = re.compile(STORY["pph_none_short_only"]["pattern"], re.I)
    long_ones = 0
    for seed in range(24):
        raw = generate_case(random.Random(seed), f"s42-pph-{seed}", principal="F10.20", version=2)
        case = load_case(raw)
        cc = case.ehr.chief_complaint or ""
        if not re.search(r"\byears\b", cc):
            continue
        long_ones += 1
        assert not rule.search(case.ehr.past_psychiatric_history or ""), (case.case_id, cc, case.ehr.past_psychiatric_history)
    assert long_ones, "the draws hold illnesses of years"


def test_naloxone_training_names_only_people_the_patient_has() -> None:
    checked = 0
    for seed in range(30):
        case = load_case(generate_case(random.Random(seed), f"s42-nal-{seed}", principal="F11.20", version=2))
        plan = case.treatment.plan
        if "naloxone" not in plan or KIN.search(case.demographics.living_situation or ""):
            continue
        checked += 1
        assert "train family" not in plan and "safety of those at home" not in plan, (case.case_id, case.demographics.living_situation, plan)
    assert checked, "the draws hold an opioid user living with no relative"


@pytest.mark.parametrize("text", ["Youngest of three children; remembers a busy, loving home.", "The last of three children; a warm home.", "One of four children; nothing difficult."])
def test_a_place_among_siblings_is_not_a_dependant(text: str) -> None:
    kb = load_critical_actions()
    assert not kb.mentions_dependants(text)
    assert kb.mentions_dependants("Lives with his partner and their two children.")


def test_the_kept_patterns_answer_as_re_does() -> None:
    text = "Signed off work. Struggling at WORK, she says; at work again."
    assert rx.search(r"at work", text, rx.I).span() == re.search(r"at work", text, re.I).span()
    assert rx.sub(r"work", "job", text, count=1) == re.sub(r"work", "job", text, count=1)
    assert rx.split(r"[.;]\s*", text, maxsplit=2) == re.split(r"[.;]\s*", text, maxsplit=2)
    assert rx.findall(r"(?i)work", text) == re.findall(r"(?i)work", text)
    assert rx.compile(r"x") is rx.compile(r"x")
