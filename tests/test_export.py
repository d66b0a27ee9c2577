"""Suites and episodes as Hugging Face datasets: a round trip of the dev suite, and an evaluation's episodes."""

from __future__ import annotations

import json

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.cli import main as cli_main
from mentalhospital_env.evaluation import EvaluationSpec, read_episodes, run_evaluation

datasets = pytest.importorskip("datasets")

from mentalhospital_env.export import episodes_dataset, export_episodes, export_suite, suite_from_dataset  # noqa: E402


def test_the_dev_suite_round_trips_through_a_dataset_folder(tmp_path):
    dev = load_suite("dev")
    folder = export_suite("dev", tmp_path / "dev")
    card = (folder / "README.md").read_text()
    assert card.startswith("---\nlicense: apache-2.0") and "synthetic" in card and "case_json" in card
    loaded = datasets.load_dataset(str(folder), split="train", download_mode="force_redownload")
    assert len(loaded) == len(dev) == 240
    assert loaded[0]["case_id"] == dev.case_ids[0] and loaded[0]["principal_code"] == dev[0].diagnosis.principal.code
    back = suite_from_dataset(loaded, "dev")
    assert back.case_ids == dev.case_ids
    assert [c.to_dict() for c in back] == [c.to_dict() for c in dev]


def test_episodes_export_keeps_every_score_and_record(tmp_path):
    spec = EvaluationSpec(suite="dev", limit=3, turn_budget=12)
    run_evaluation("scripted", spec, tmp_path / "run", progress=False)
    rows = read_episodes(tmp_path / "run" / "episodes.jsonl")
    ds = episodes_dataset(tmp_path / "run")
    assert ds["case_id"] == [r["case_id"] for r in rows]
    assert ds["inter"] == [r["scores"]["inter"] for r in rows] and ds["emp"] == [r["scores"]["emp"] for r in rows]
    assert [json.loads(x) for x in ds["record_json"]] == [r["record"] for r in rows]
    assert cli_main(["export", "episodes", str(tmp_path / "run"), "--out", str(tmp_path / "ds")]) == 0
    again = datasets.load_dataset(str(tmp_path / "ds"), split="train", download_mode="force_redownload")
    assert again["diso"] == ds["diso"] and "scripted" in (tmp_path / "ds" / "README.md").read_text()
    assert export_episodes(tmp_path / "run" / "episodes.jsonl", tmp_path / "ds2").exists()
