"""Suite statistics: counts by category, disorder, setting, sex and age band, and their formats."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mentalhospital_env.cases import Suite, load_case
from mentalhospital_env.cases.stats import AGE_BANDS, age_band, format_stats, suite_stats
from mentalhospital_env.cli import main
from mentalhospital_env.knowledge.codes import category_ids

BASE = {
    "case_id": "s-1",
    "language": "en",
    "demographics": {"age": 34, "sex": "female"},
    "setting": "outpatient",
    "ehr": {"chief_complaint": "Low mood for three months.", "history_of_present_illness": "Low most days since spring."},
    "exams": [{"name": "PHQ-9", "kind": "scale", "result": "16/27, moderately severe"}],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Major depressive disorder, single episode, moderate", "code": "F32.1"}]},
    "treatment": {"plan": "Sertraline 50 mg daily; CBT; review in two weeks."},
}


def _case(case_id: str, age: int, sex: str, setting: str, disorders: list[tuple[str, str]], categories: list[str]):
    raw = copy.deepcopy(BASE)
    raw.update(case_id=case_id, setting=setting)
    raw["demographics"] = {"age": age, "sex": sex}
    raw["diagnosis"] = {"categories": categories, "disorders": [{"code": c, "name": n} for c, n in disorders]}
    return load_case(raw)


MDD = ("F32.1", "Major depressive disorder, single episode, moderate")
GAD = ("F41.1", "Generalized anxiety disorder")
AUD = ("F10.20", "Alcohol dependence, uncomplicated")
ADHD = ("F90.2", "Attention-deficit hyperactivity disorder, combined type")


@pytest.fixture
def suite() -> Suite:
    return Suite(
        "mini",
        (
            _case("a", 34, "female", "outpatient", [MDD, GAD], ["depressive", "anxiety"]),
            _case("b", 70, "male", "inpatient", [AUD], ["substance_related"]),
            _case("c", 9, "male", "outpatient", [ADHD], ["neurodevelopmental"]),
            _case("d", 17, "other", "emergency", [MDD], ["depressive"]),
            _case("e", 45, "female", "outpatient", [GAD, AUD, MDD], ["anxiety", "substance_related", "depressive"]),
        ),
    )


def test_counts(suite: Suite) -> None:
    s = suite_stats(suite)
    assert s["name"] == "mini" and s["cases"] == 5
    assert list(s["principal_category"]) == list(category_ids())
    assert s["principal_category"]["depressive"] == 2 and s["principal_category"]["anxiety"] == 1
    assert s["category"]["depressive"] == 3 and s["category"]["substance_related"] == 2
    assert s["principal_disorder"] == {
        "F32.1 Major depressive disorder, single episode, moderate": 2,
        "F10.20 Alcohol dependence, uncomplicated": 1,
        "F41.1 Generalized anxiety disorder": 1,
        "F90.2 Attention-deficit hyperactivity disorder, combined type": 1,
    }
    assert s["disorder"]["F32.1 Major depressive disorder, single episode, moderate"] == 3
    assert s["setting"] == {"outpatient": 3, "inpatient": 1, "emergency": 1}
    assert s["sex"] == {"female": 2, "male": 2, "other": 1}
    assert s["age_band"] == {"3-12": 1, "13-17": 1, "18-25": 0, "26-44": 1, "45-64": 1, "65+": 1}
    assert s["age"] == {"min": 9, "median": 34, "max": 70}
    assert s["comorbidity_rate"] == 0.4 and s["disorders_per_case"] == 1.6
    assert s["categories_covered"] == 4 and s["disorders_covered"] == 4
    assert sum(s["principal_category"].values()) == 5


def test_age_bands_cover_every_allowed_age_once() -> None:
    for age in range(3, 111):
        assert sum(low <= age <= high for _, low, high in AGE_BANDS) == 1
        assert age_band(age)
    with pytest.raises(ValueError):
        age_band(2)


def test_formats(suite: Suite) -> None:
    s = suite_stats(suite)
    assert json.loads(format_stats(s, "json")) == s
    text = format_stats(s)
    assert "Suite mini" in text and "comorbidity rate" in text and "40.0%" in text
    md = format_stats(s, "markdown")
    assert md.startswith("## Suite mini") and "| depressive | 2 | 40.0% |" in md
    with pytest.raises(ValueError, match="unknown format"):
        format_stats(s, "html")


def test_cli_stats_on_a_file(tmp_path: Path, suite: Suite, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mini.jsonl"
    path.write_text("".join(json.dumps(c.to_dict()) + "\n" for c in suite), encoding="utf-8")
    assert main(["cases", "stats", str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cases"] == 5 and out["name"] == "mini"
    path.write_text(path.read_text() + '{"case_id": "bad"}\n')
    assert main(["cases", "stats", str(path)]) == 1
    assert "bad" in capsys.readouterr().err
