"""Reward shaping: named components, dense and sparse payment, potential-based interview reward, and
a gaming doctor scoring worse than one that interviews properly."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from mentalhospital_env.rewards.chart import Turn
from mentalhospital_env.rewards.mentaleval import LLMJudge
from mentalhospital_env.rewards.mentaleval.ladders import calibration_case, exemplary_chart
from mentalhospital_env.rewards.shaping import (
    COMPONENTS,
    DEFAULT_WEIGHTS,
    RewardConfig,
    RewardShaper,
    episode_return,
)

from mentalhospital_env.knowledge.lexicon import load_lexicon
from mentalhospital_env.llm import ScriptedClient


@pytest.fixture(scope="module")
def case():
    return calibration_case()


@pytest.fixture(scope="module")
def proper(case):
    return exemplary_chart(case)


def test_reward_config_validates_and_has_presets():
    assert RewardConfig().sparse is False
    assert RewardConfig.dense().sparse is False
    sparse = RewardConfig.sparse_terminal(turn_cost=0.01)
    assert sparse.sparse is True and sparse.turn_cost == 0.01
    config = RewardConfig(weights={"ndcg": 2.0})
    assert config.weight("ndcg") == 2.0 and config.weight("interview") == DEFAULT_WEIGHTS["interview"]
    assert (
        config.weight("turn") == config.turn_cost
        and config.weight("invalid_action") == config.invalid_action_penalty
    )
    with pytest.raises(ValueError, match="unknown components"):
        RewardConfig(weights={"bedside_manner": 1.0})
    with pytest.raises(ValueError, match="turn_cost"):
        RewardConfig(turn_cost=-1)
    with pytest.raises(ValueError, match="must be a number"):
        RewardConfig(weights={"ndcg": "high"})
    assert RewardConfig.from_dict(config.to_dict()) == config
    with pytest.raises(ValueError, match="unknown keys"):
        RewardConfig.from_dict({"gamma": 0.9})


def test_every_hook_reports_every_component_and_the_weighted_sum(case, proper):
    shaper = RewardShaper(case, RewardConfig())
    steps = shaper.replay(proper)
    assert len(steps) == len(proper.turns) + 5
    for step in steps:
        assert set(step.components) == set(COMPONENTS)
        expected = sum(shaper.config.weight(n) * v for n, v in step.components.items() if v is not None)
        assert step.reward == pytest.approx(expected)
    assert steps[0].components["turn"] == -1.0
    final = steps[-1].components
    assert all(
        0.0 <= final[d] <= 1.0
        for d in (
            "empathy",
            "professionalism",
            "note_quality",
            "diagnostic_rigor",
            "treatment_appropriateness",
        )
    )
    assert shaper.total == pytest.approx(sum(s.reward for s in steps))


def test_interview_reward_is_a_potential_difference(case, proper):
    shaper = RewardShaper(case, RewardConfig())
    gains = [shaper.on_ask(t.doctor, t.patient, t.fact_ids).components["interview"] for t in proper.turns]
    assert sum(gains) == pytest.approx(shaper._interview.score)
    assert all(g >= 0 for g in gains) and sum(gains) > 0
    again = shaper.on_ask(proper.turns[1].doctor, proper.turns[1].patient)
    assert again.components["interview"] == 0.0
    assert again.reward < 0  # asking again earns nothing and costs a turn


def test_sparse_pays_everything_at_the_end_and_the_return_is_the_same(case, proper):
    dense_return, dense_totals = episode_return(case, proper, RewardConfig.dense())
    shaper = RewardShaper(case, RewardConfig.sparse_terminal())
    steps = shaper.replay(proper)
    assert all(s.reward == 0.0 and not any(s.components.values()) for s in steps[:-1])
    assert steps[-1].reward == pytest.approx(dense_return)
    for name in COMPONENTS:
        assert steps[-1].components[name] == pytest.approx(dense_totals[name])


def test_invalid_actions_and_a_second_finish(case):
    shaper = RewardShaper(case, RewardConfig(invalid_action_penalty=0.1))
    step = shaper.on_invalid("no such action")
    assert step.components["invalid_action"] == -1.0 and step.reward == pytest.approx(-0.1)
    assert shaper.chart.invalid_actions == 1
    shaper.finish()
    assert shaper.finish().reward == 0.0


def test_stage_scored_twice_pays_only_the_change(case):
    shaper = RewardShaper(case, RewardConfig(judge="none"))
    first = shaper.on_diagnosis(["bipolar"], ["F31.2"])
    second = shaper.on_diagnosis(["bipolar"], ["F31.2"])
    assert first.components["ndcg"] > 0 and second.components["ndcg"] == 0.0


def test_a_failing_judge_masks_rubric_components(case, proper):
    judge = LLMJudge(ScriptedClient(lambda conversation: "no verdict"))
    shaper = RewardShaper(case, RewardConfig(), judge=judge)
    final = shaper.replay(proper)[-1]
    assert final.components["empathy"] is None
    assert final.reward == 0.0


# --- a gaming doctor scores worse than a proper one ----------------------------------------------------


def _all_terms() -> list[str]:
    return [c.clinical_terms[0] for c in load_lexicon().concepts if c.clinical_terms]


def test_pasting_every_lexicon_term_into_one_question_scores_worse(case, proper):
    paste = "Do you have any of these: " + ", ".join(_all_terms()) + "?"
    everything = " ".join(t.patient for t in proper.turns)
    # Even if the patient answered the pasted list with every fact at once, pasting must not pay.
    leaky = replace(proper, turns=(Turn(paste, everything, tuple(sorted(proper.disclosed_fact_ids))),))
    # A realistic patient answers a question about everything with its chief complaint, then gives up.
    partial = replace(
        proper,
        turns=(Turn(paste, proper.turns[0].patient, proper.turns[0].fact_ids),)
        + tuple(Turn(paste, "I already told you, I don't know what you mean.", ()) for _ in proper.turns[1:]),
    )
    good, good_parts = episode_return(case, proper)
    for gaming in (leaky, partial):
        bad, bad_parts = episode_return(case, gaming)
        assert bad < good, (bad_parts, good_parts)
        assert bad_parts["professionalism"] < good_parts["professionalism"]


def test_repeating_questions_scores_worse(case, proper):
    repeater = replace(proper, turns=proper.turns + proper.turns)
    good, _ = episode_return(case, proper)
    bad, parts = episode_return(case, repeater)
    assert bad < good
    assert parts["interview"] == pytest.approx(episode_return(case, proper)[1]["interview"])


def test_a_note_of_keywords_scores_worse(case, proper):
    checkpoint_words = " ".join(
        w for c in case.checkpoints.note for w in re.findall(r"[A-Za-z]+", c.text) if len(w) > 4
    )
    good, good_parts = episode_return(case, proper)
    for note in (", ".join(_all_terms()), checkpoint_words):
        bad, bad_parts = episode_return(case, replace(proper, note=note))
        assert bad < good
        assert bad_parts["note_quality"] < 0.3 < good_parts["note_quality"]


def test_asks_taken_together_pay_what_they_pay_one_by_one(case, proper):
    """``on_asks`` (an episode's replies matched in one call) against ``on_ask`` question by question, on the
    exemplary interview and on it twice over (the second round covers nothing new): the same payments, bit
    for bit, and the same chart and return."""
    turns = [(t.doctor, t.patient, t.fact_ids) for t in proper.turns] * 2
    one_by_one, together = RewardShaper(case, RewardConfig()), RewardShaper(case, RewardConfig())
    each = [one_by_one.on_ask(*t) for t in turns]
    first = together.on_ask(*turns[0])  # a question already paid: the run takes the rest
    assert [first, *together.on_asks(turns[1:])] == each
    assert together.chart == one_by_one.chart and together.total == one_by_one.total
    assert sum(p.components["interview"] for p in each) > 0
    assert together.on_asks([]) == []
