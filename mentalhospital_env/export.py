"""Suites and evaluation episodes as Hugging Face ``datasets``, with a dataset card.

* ``suite_dataset(suite)``: one row per case: the columns people filter on (``case_id``, setting,
  age, sex, categories, principal code and name, chief complaint) and ``case_json``, the whole case in
  the format of docs/cases.md, so that ``suite_from_dataset`` gives the same suite back.
* ``episodes_dataset(path)``: one row per line of an ``episodes.jsonl``: case, seed, doctor, spec
  hash, library fingerprint, principal category, every score as its own column, and the record and
  the doctor's turn log as JSON text.
* ``export_suite(suite, out)`` and ``export_episodes(results, out)`` write ``out/data/train.parquet``
  and ``out/README.md`` (the card): the layout of a dataset repository on the Hub, so
  ``datasets.load_dataset(str(out))`` reads it back and ``huggingface-cli upload NAME out`` publishes it.

``mentalhospital export suite SUITE --out DIR`` and ``mentalhospital export episodes RESULTS --out DIR``
do the same from the command line. Needs the ``datasets`` package (the ``train`` extra).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from mentalhospital_env.cases import Suite, load_case, load_suite

SCORE_COLUMNS: tuple[str, ...] = (
    "inter", "exam", "note", "cate", "diso", "emp", "prof", "qual", "rigor", "app",
    "inter_cc", "inter_ms", "note_cc", "note_ms",
)  # fmt: skip


def _datasets() -> Any:
    try:
        import datasets
    except ImportError as e:  # pragma: no cover - the train extra brings it
        raise ImportError("exporting needs the datasets package: pip install 'mentalhospital-env[train]'") from e
    return datasets


def suite_dataset(suite: Suite | str) -> Any:
    """A ``datasets.Dataset`` of a suite (a ``Suite``, a bundled name or a path), one row per case."""
    datasets = _datasets()
    suite = load_suite(suite) if isinstance(suite, (str, os.PathLike)) else suite
    rows: dict[str, list[Any]] = {k: [] for k in (
        "case_id", "language", "setting", "age", "sex", "categories", "principal_code", "principal_name",
        "chief_complaint", "case_json",
    )}  # fmt: skip
    for case in suite:
        principal = case.diagnosis.principal
        rows["case_id"].append(case.case_id)
        rows["language"].append(case.language)
        rows["setting"].append(case.setting)
        rows["age"].append(case.demographics.age)
        rows["sex"].append(case.demographics.sex)
        rows["categories"].append(list(case.diagnosis.categories))
        rows["principal_code"].append(principal.code)
        rows["principal_name"].append(principal.name)
        rows["chief_complaint"].append(case.ehr.chief_complaint)
        rows["case_json"].append(json.dumps(case.to_dict(), ensure_ascii=False, sort_keys=False))
    features = datasets.Features(
        {
            "case_id": datasets.Value("string"),
            "language": datasets.Value("string"),
            "setting": datasets.Value("string"),
            "age": datasets.Value("int32"),
            "sex": datasets.Value("string"),
            "categories": datasets.Sequence(datasets.Value("string")),
            "principal_code": datasets.Value("string"),
            "principal_name": datasets.Value("string"),
            "chief_complaint": datasets.Value("string"),
            "case_json": datasets.Value("string"),
        }
    )
    return datasets.Dataset.from_dict(rows, features=features)


def suite_from_dataset(dataset: Any, name: str = "dataset") -> Suite:
    """The suite a ``suite_dataset`` (or its exported copy) holds; every case is validated again."""
    cases = tuple(load_case(json.loads(text)) for text in dataset["case_json"])
    return Suite(name, cases)


def episodes_dataset(path: str | os.PathLike[str]) -> Any:
    """A ``datasets.Dataset`` of an ``episodes.jsonl`` (or the results folder holding one)."""
    from mentalhospital_env.evaluation import EPISODES_FILE, read_episodes

    datasets = _datasets()
    p = Path(path)
    if p.is_dir():
        p = p / EPISODES_FILE
    columns = ["case_id", "seed", "doctor", "spec_hash", "library", "principal_category", "categories",
               *SCORE_COLUMNS, "seconds", "record_json", "doctor_log_json"]  # fmt: skip
    rows: dict[str, list[Any]] = {k: [] for k in columns}
    for row in read_episodes(p):
        for key in ("case_id", "seed", "doctor", "spec_hash", "library", "principal_category"):
            rows[key].append(row.get(key))
        rows["categories"].append(list(row.get("categories", [])))
        scores = row.get("scores", {})
        for key in SCORE_COLUMNS:
            value = scores.get(key)
            rows[key].append(float(value) if value is not None else None)
        rows["seconds"].append((row.get("timing") or {}).get("seconds"))
        rows["record_json"].append(json.dumps(row.get("record"), ensure_ascii=False, sort_keys=True))
        rows["doctor_log_json"].append(json.dumps(row["doctor_log"], ensure_ascii=False) if "doctor_log" in row else None)
    features = datasets.Features(
        {
            **{k: datasets.Value("string") for k in ("case_id", "doctor", "spec_hash", "library", "principal_category")},
            "seed": datasets.Value("int64"),
            "categories": datasets.Sequence(datasets.Value("string")),
            **{k: datasets.Value("float64") for k in SCORE_COLUMNS},
            "seconds": datasets.Value("float64"),
            "record_json": datasets.Value("string"),
            "doctor_log_json": datasets.Value("string"),
        }
    )
    return datasets.Dataset.from_dict({k: rows[k] for k in features}, features=features)


def _card(title: str, summary: str, columns: dict[str, str], extra: str, n: int) -> str:
    table = "\n".join(f"| `{name}` | {meaning} |" for name, meaning in columns.items())
    size = "n<1K" if n < 1000 else "1K<n<10K" if n < 10_000 else "10K<n<100K"
    return f"""---
license: apache-2.0
language:
- en
pretty_name: {title}
size_categories:
- {size}
tags:
- psychiatry
- synthetic
- simulated-patient
- mentalhospital
configs:
- config_name: default
  data_files:
  - split: train
    path: data/train.parquet
---

# {title}

{summary}

Made with the `mentalhospital-env` library (a simulated psychiatric clinic for training and evaluating
doctor agents). **The cases are synthetic**: written or generated for the project, about no real person;
they are not clinical guidance.

## Columns ({n} rows)

| column | meaning |
| --- | --- |
{table}

{extra}
"""


def suite_card(dataset: Any, name: str) -> str:
    return _card(
        f"MentalHospital suite {name}",
        f"The `{name}` suite of MentalHospital cases, one psychiatric EHR per row, with its reference "
        "diagnosis (categories and ranked ICD-10-CM disorders), exams and plan.",
        {
            "case_id": "the case's id in the suite",
            "language": "language of the record",
            "setting": "outpatient, inpatient or emergency",
            "age": "age in years",
            "sex": "female, male or other",
            "categories": "reference diagnostic category ids",
            "principal_code": "ICD-10-CM code of the principal diagnosis",
            "principal_name": "its name",
            "chief_complaint": "the record's chief complaint",
            "case_json": "the whole case as JSON in the library's case format (docs/cases.md)",
        },
        "## Loading\n\n```python\nimport datasets\nfrom mentalhospital_env.export import suite_from_dataset\n\n"
        "ds = datasets.load_dataset(\"PATH_OR_REPO\", split=\"train\")\nsuite = suite_from_dataset(ds)  "
        "# the cases, validated\n```\n\nor play it directly: `gymnasium.make(\"MentalHospital-v0\", suite=list(suite))`.",
        len(dataset),
    )


def episodes_card(dataset: Any, source: str) -> str:
    doctors = sorted(set(dataset["doctor"])) if len(dataset) else []
    specs = sorted(set(dataset["spec_hash"])) if len(dataset) else []
    return _card(
        "MentalHospital evaluation episodes",
        f"Scored episodes of doctor(s) {', '.join(f'`{d}`' for d in doctors) or '(none)'} on spec(s) "
        f"{', '.join(f'`{s}`' for s in specs) or '(none)'}, exported from `{source}`. Each row is one "
        "episode: the encounter's full record (every action, every reply, the chart) and its scores.",
        {
            "case_id, seed": "the episode",
            "doctor": "the doctor's identity (for a language model: its name and generation settings)",
            "spec_hash": "hash of the evaluation spec (suite content, seeds, patient, scorers, turn budget)",
            "library": "fingerprint of the library data that scored the episode",
            "principal_category": "category of the case's principal diagnosis",
            "inter, exam, note, cate, diso": "objective scores in 0..1 (interview and note coverage, exam F1, category F1, disorder nDCG)",
            "emp, prof, qual, rigor, app": "MentalEval scores in 1..5",
            "inter_cc, inter_ms, note_cc, note_ms": "coverage of chief-complaint and mental-status checkpoints",
            "seconds": "wall time of the episode (the only column that differs between reruns)",
            "record_json": "the EpisodeRecord as JSON",
            "doctor_log_json": "the llm doctor's turns: raw replies, refusals, HTTP attempts (null for other doctors)",
        },
        "Scores are reproducible: the same spec and doctor give the same rows apart from `seconds`.",
        len(dataset),
    )


def _write(dataset: Any, card: str, out: str | os.PathLike[str]) -> Path:
    folder = Path(out)
    (folder / "data").mkdir(parents=True, exist_ok=True)
    dataset.to_parquet(str(folder / "data" / "train.parquet"))
    (folder / "README.md").write_text(card, encoding="utf-8")
    return folder


def export_suite(suite: Suite | str, out: str | os.PathLike[str]) -> Path:
    """Write a suite as a dataset folder (``data/train.parquet`` and the card ``README.md``)."""
    suite = load_suite(suite) if isinstance(suite, (str, os.PathLike)) else suite
    dataset = suite_dataset(suite)
    return _write(dataset, suite_card(dataset, suite.name), out)


def export_episodes(results: str | os.PathLike[str], out: str | os.PathLike[str]) -> Path:
    """Write an ``episodes.jsonl`` (or a results folder) as a dataset folder with its card."""
    dataset = episodes_dataset(results)
    return _write(dataset, episodes_card(dataset, str(results)), out)


__all__ = [
    "episodes_dataset",
    "export_episodes",
    "export_suite",
    "suite_dataset",
    "suite_from_dataset",
]
