"""MentalEval training: the SFT and DPO data builders, one SFT and one DPO step on the tiny Llama, the
trained judge as a backend, and the Table 5 shape."""

from __future__ import annotations

import itertools
import json
import math
import shutil
from importlib import resources

import pytest
from mentalhospital_env.agents import judge_training as jt
from mentalhospital_env.rewards.mentaleval import DIMENSIONS, OfflineJudge, parse_score

from mentalhospital_env.cases import load_case


def _calibration_cases(n: int = 2):
    raw = json.loads(
        resources.files("mentalhospital_env.rewards.mentaleval")
        .joinpath("data/calibration_case.json")
        .read_text("utf-8")
    )
    return [load_case({**raw, "case_id": f"judge-case-{i}"}) for i in range(n)]


@pytest.fixture(scope="module")
def cases():
    return _calibration_cases(2)


@pytest.fixture(scope="module")
def examples(cases):
    return jt.ladder_examples(cases)


def test_ladder_examples_use_the_offline_scorer_and_cover_every_dimension(cases, examples):
    assert {e.dimension for e in examples} == set(DIMENSIONS)
    judge = OfflineJudge()
    for e in examples[:12]:
        assert e.reference == jt._whole(judge.score(e.case, e.chart)[e.dimension])
        assert 1 <= e.reference <= 5
        assert e.rationale.startswith("Observed: ")
        assert e.source.startswith("ladder:")
    # Down each ladder the reference never rises (the ladders are monotone for the offline judge).
    by_ladder: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for e in examples:
        _, name, k = e.source.split(":")
        by_ladder.setdefault((e.case_id, name), []).append((int(k), e.reference))
    for rungs in by_ladder.values():
        scores = [s for _, s in sorted(rungs)]
        assert all(b <= a for a, b in itertools.pairwise(scores)) and scores[-1] < scores[0]


def test_split_by_case_keeps_held_out_cases_out_of_training(examples):
    train, held = jt.split_by_case(examples, 0.5, seed=3)
    assert train and held
    assert not {e.case_id for e in train} & {e.case_id for e in held}
    assert len(train) + len(held) == len(examples)
    with pytest.raises(ValueError, match="two cases"):
        jt.split_by_case([e for e in examples if e.case_id == examples[0].case_id])


def test_sft_rows_are_the_llm_judge_conversation_with_a_parseable_answer(examples):
    ds = jt.sft_dataset(examples[:4], excerpt_limit=600)
    assert ds.column_names == ["prompt", "completion"]
    for row, e in zip(ds, examples[:4]):
        assert row["prompt"] == jt.prompt_messages(e, 600)
        assert row["prompt"][0]["role"] == "system" and "Rubric" in row["prompt"][0]["content"]
        answer = row["completion"][0]["content"]
        assert parse_score(answer) == e.reference


def test_dpo_pairs_prefer_the_reference_score(examples):
    ds = jt.dpo_dataset(examples[:5], excerpt_limit=600)
    assert ds.column_names == ["prompt", "chosen", "rejected"]
    assert len(ds) == sum(len(jt.wrong_scores(e.reference)) for e in examples[:5])
    for row in ds:
        chosen = parse_score(row["chosen"][0]["content"])
        rejected = parse_score(row["rejected"][0]["content"])
        assert chosen != rejected and 1 <= rejected <= 5


@pytest.mark.parametrize("reference", [1, 2, 3, 4, 5])
def test_wrong_scores_are_on_the_scale_and_wrong(reference):
    wrong = jt.wrong_scores(reference)
    assert reference not in wrong and all(1 <= w <= 5 for w in wrong)
    assert max(abs(w - reference) for w in wrong) == 2


def test_agreement_of_a_perfect_and_a_constant_judge(cases, examples):
    """The offline judge agrees perfectly with its own rounded scores; a constant judge does not."""
    perfect = jt.evaluate_judge(OfflineJudge(), examples)
    assert perfect["average"].accuracy == pytest.approx(1.0)
    assert perfect["average"].mae < 0.5

    class Constant(OfflineJudge):
        def _score_dimensions(self, case, chart, dimensions):
            return {d: 3.0 for d in dimensions}

    constant = jt.evaluate_judge(Constant(), examples)
    assert constant["average"].accuracy < perfect["average"].accuracy
    table = jt.table5({"Base": constant, "+SFT": perfect})
    lines = table.splitlines()
    assert lines[0].startswith("| Judge | Base QWK")
    assert len(lines) == 2 + len(DIMENSIONS) + 1
    assert lines[-1].startswith("| Average |")
    assert "(+" in lines[-1]  # the later stage shows its change


@pytest.mark.slow  # importing trl and torch takes most of its ~15 s
def test_one_sft_and_one_dpo_step_then_the_judge_is_a_backend(tmp_path, tiny_llama_path, examples):
    base = tmp_path / "base"
    shutil.copytree(tiny_llama_path, base)
    recipe = jt.JudgeTrainingRecipe(
        base_model=str(base),
        output_dir=str(tmp_path / "run"),
        excerpt_limit=300,
        max_length=1024,
        sft_max_steps=1,
        dpo_max_steps=1,
        per_device_train_batch_size=2,
        report_to=(),
    )
    train = examples[:4]
    sft = jt.train_sft(recipe, train, base)
    assert (sft / "config.json").is_file()
    dpo = jt.train_dpo(recipe, train, sft)
    assert (dpo / "config.json").is_file()

    from safetensors.torch import load_file

    before = load_file(str(sft / "model.safetensors"))
    after = load_file(str(dpo / "model.safetensors"))
    assert any(not (before[k] == after[k]).all() for k in before), "DPO step changed no weight"

    judge = jt.judge_backend(dpo, max_new_tokens=8, excerpt_limit=300)
    scores = judge.score(examples[0].case, examples[0].chart)
    assert set(scores) == set(DIMENSIONS)
    assert all(s is None or 1 <= s <= 5 for s in scores.values())  # gibberish masks, never scores 0
    result = jt.evaluate_judge(judge, examples[:3])
    assert result["average"].n == 3
    assert result["average"].masked <= 3
    assert isinstance(result["average"].mae, float) or math.isnan(result["average"].mae)
