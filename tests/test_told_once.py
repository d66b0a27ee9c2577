"""Stop 24 (issue 14, the reader of stop 23): one life told the same way in every section. Each
contradiction the reader caught is an ``agree`` rule of the audit, and version 2 of the generator
tells the record so that its drafts do not make it (not only redraws them)."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases import audit
from mentalhospital_env.cases.audit import RULES
from mentalhospital_env.cases.generator import generate_cases

from test_records_agree import _agree

NEW = ("joins.injecting", "agree.only_child", "agree.use_years", "agree.intoxicated_withdrawing",
       "agree.adult_life", "agree.protective_job", "agree.partner_left", "agree.homeless_home", "agree.parent_death", "agree.tried_alcohol",
       "agree.violent_offence", "agree.low_mood", "agree.care_home", "agree.in_care_parents")  # stop 25's reader


@pytest.mark.parametrize(
    "changes, rule",
    [
        ({"ehr.personal_history": "Only child of older parents; a quiet but secure upbringing. Works as a nurse.",
          "ehr.family_history": "Younger sister has panic disorder."}, "agree.only_child"),
        ({"ehr.history_of_present_illness": "Low for four months. \"I've smoked weed every day since I was sixteen.\"",
          "ehr.substance_use": "Daily cannabis use for 5 years, about 3 g a day."}, "agree.use_years"),
        ({"demographics.age": 32, "ehr.substance_use": "Daily cannabis use for 25 years, about 3 g a day."}, "agree.use_years"),
        ({"ehr.mental_status_exam.behavior": "Drowsy at times, pinpoint pupils.",
          "exams": [{"name": "COWS", "kind": "scale", "result": "total 9/48 (mild)"}]}, "agree.intoxicated_withdrawing"),
        ({"demographics.age": 11, "ehr.risk_assessment": {"violence": "Never been in a fight as an adult; no threats made."}}, "agree.adult_life"),
        ({"demographics.occupation": "unemployed",
          "ehr.risk_assessment": {"suicide": "No thoughts of suicide; protective factors include her job."}}, "agree.protective_job"),
        ({"demographics.living_situation": "lives with partner",
          "ehr.history_of_present_illness": "Low for four months. By now she has been left by her partner."}, "agree.partner_left"),
        ({"demographics.living_situation": "homeless, sleeping rough",
          "ehr.history_of_present_illness": "High for ten days. \"I've been cleaning the house, painting, all at night.\""}, "agree.homeless_home"),
        ({"demographics.living_situation": "lives with parents",
          "ehr.history_of_present_illness": "In May things began to change, after the death of a parent."}, "agree.parent_death"),
        ({"demographics.age": 13, "ehr.personal_history": "Lives with father. His partner's baby daughter is at home with them."}, "agree.adult_life"),
        ({"ehr.history_of_present_illness": "Bingeing for two years. Cutting out alcohol for a month changed nothing.",
          "ehr.substance_use": "A drink now and then, on special occasions."}, "agree.tried_alcohol"),
        # stop 25's reader
        ({"demographics.age": 16, "ehr.risk_assessment": {"suicide": "Denies thoughts of suicide; reasons for living include his children."}}, "agree.adult_life"),
        ({"demographics.age": 16, "ehr.history_of_present_illness": "Restless for years. By now he has had several speeding fines."}, "agree.adult_life"),
        ({"ehr.personal_history": "Married for 18 years. An assault conviction three years ago, dealt with by a community order.",
          "ehr.risk_assessment": {"violence": "No history of violence; no risk to others identified."}}, "agree.violent_offence"),
        ({"ehr.mental_status_exam.affect": "Euthymic, appropriate."}, "agree.low_mood"),
        ({"demographics.age": 75, "demographics.occupation": "retired bus driver", "demographics.living_situation": "lives in a care home"}, "agree.care_home"),
        ({"ehr.history_of_present_illness": "Low for four months. Her husband says she has never had a long-term relationship."}, "agree.never_partnered"),
        ({"ehr.history_of_present_illness": "Low for four months. By now she is unable to work.",
          "ehr.personal_history": "Currently working as a bus driver. Married for 18 years."}, "agree.employment"),
        ({"demographics.living_situation": "homeless, sleeping rough",
          "ehr.history_of_present_illness": "Low for four months. Most days she is bed-bound much of the day."}, "agree.homeless_home"),
        ({"demographics.age": 9, "demographics.occupation": "primary school pupil", "demographics.education": "attends primary school",
          "demographics.living_situation": "in foster care with long-term carers",
          "ehr.history_of_present_illness": "Arguing for a year. \"I'm always in a mood, mum says,\" she says."}, "agree.in_care_parents"),
    ],
)
def test_told_once_rules_catch_the_readers_contradictions(changes: dict, rule: str) -> None:
    assert rule in RULES
    assert rule in _agree(changes)


@pytest.mark.parametrize(
    "changes",
    [
        {"ehr.personal_history": "Only child of older parents. Works as a nurse.", "ehr.family_history": "Her sister-in-law has panic disorder."},
        {"ehr.history_of_present_illness": "Low for four months. \"I've smoked weed every day since I was sixteen.\"",
         "ehr.substance_use": "Daily cannabis use for 27 years, about 3 g a day."},
        {"ehr.mental_status_exam.behavior": "Drowsy at times, pinpoint pupils.",
         "exams": [{"name": "COWS", "kind": "scale", "result": "total 2/48 (none)"}]},
        {"ehr.mental_status_exam.speech": "Normal rate, not slurred.",
         "exams": [{"name": "CIWA-Ar", "kind": "scale", "result": "total 14/67 (mild)"}]},
        {"demographics.age": 30, "ehr.risk_assessment": {"violence": "Never been in a fight as an adult."}},
        {"demographics.living_situation": "lives alone in a rented flat", "ehr.history_of_present_illness": "Low for four months. By now he has been left by his partner."},
        {"demographics.age": 17, "ehr.risk_assessment": {"suicide": "Denies thoughts of suicide; reasons for living include his family."}},
        {"ehr.personal_history": "Married for 18 years. An assault conviction three years ago, dealt with by a community order.",
         "ehr.risk_assessment": {"violence": "Assault conviction on file; no violence since, and no current threats."}},
        {"ehr.mental_status_exam.mood": "'alright'", "ehr.mental_status_exam.affect": "Low, reactive at times."},
        {"demographics.age": 88, "demographics.occupation": "retired bus driver", "demographics.living_situation": "lives in a care home"},
        {"demographics.age": 78, "demographics.occupation": "retired bus driver", "demographics.living_situation": "lives in a care home",
         "diagnosis.disorders": [{"name": "Unspecified dementia", "code": "F03.90"}, {"name": "Moderate depressive episode", "code": "F32.1"}]},
    ],
)
def test_told_once_rules_leave_consistent_records(changes: dict) -> None:
    assert _agree(changes) & set(NEW) == set()


def test_generator_tells_one_life_without_redrawing(monkeypatch) -> None:
    """Drafts of version 2 whose principals bring siblings, substances, withdrawal and children make
    none of these contradictions: the generator tells them right at the source, so the audit never
    has to refuse a draft for them."""
    refused: list[str] = []
    real = audit.audit_case

    def counting(case, **kw):
        found = real(case, **kw)
        refused.extend(f.rule for f in found)
        return found

    monkeypatch.setattr(audit, "audit_case", counting)
    principals = ["F11.20", "F12.20", "F10.230", "F90.2", "F42.2", "F32.1", "F10.20", "F41.1", "F31.2", "F43.21", "F06.70"] * 4
    generate_cases(len(principals), seed=24, prefix="t", version=2, principals=principals)
    assert [r for r in refused if r in NEW] == []


def test_long_sleeves_in_the_heat_are_an_injecting_sign() -> None:
    """The reader's 'injecting shown in one section, another route in the other' is the audit's
    joins.injecting, whose signs now include hiding the arms in the heat."""
    from test_audit import _changed, _categories
    from mentalhospital_env.cases.audit import audit_case
    from mentalhospital_env.cases.loader import validate_case

    for substance, caught in (("Uses about 4 bags of heroin a day, smoked.", True), ("Injects heroin daily for 3 years.", False)):
        raw = _changed({"ehr.mental_status_exam.appearance": "Thin, poorly kempt, long sleeves despite the heat.", "ehr.substance_use": substance})
        raw["diagnosis"]["categories"] = _categories(raw)
        assert ("joins.injecting" in {f.rule for f in audit_case(validate_case(raw))}) is caught
