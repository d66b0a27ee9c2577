"""The understand room's follow model (stop 42): whether a question said after another leans on it.

A question that stands alone keeps its own topics whatever was asked before it (to a parent, "she" is the patient and
points back at nothing); one that leans on the turn before ("Did that do anything for you?") asks about that turn's
topics too. The model is data (``data/follow_model.json``, ``scripts/fit_follow_model.py``); without it the
hand-written follow-up rule decides alone.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mentalhospital_env.patient import understanding
from mentalhospital_env.patient.topic_model import follow_features, load_follow_model
from mentalhospital_env.patient.understanding import cue_reading, understand

ROOT = Path(__file__).resolve().parents[1]

# (question, the turn before it, a topic of the turn before that the question does not ask about)
STANDS_ALONE = [
    ("Has she had any fits?", "Does she ever say life isn't worth living?", "suicide"),
    ("Has he ever had a seizure?", "Have you ever thought about ending your life?", "suicide"),
]
#: stop 46: the topic reader deciding alone reads suicide at 0.7 or more after the suicide screen, and carries it
_CARRIES_STILL = pytest.mark.xfail(strict=True, reason="stop 46: the topic reader deciding alone at 0.2 carries suicide "
                                   "(0.7 or more) to a question with a subject of its own")


@pytest.mark.parametrize(("utterance", "context", "not_carried"),
                         [pytest.param(*case, marks=_CARRIES_STILL) if "seizure" in case[0] else case
                          for case in STANDS_ALONE])
def test_a_question_that_stands_alone_keeps_its_own_topics(utterance, context, not_carried):
    read = understand(utterance, context)
    assert not_carried not in read.topics
    assert "medical_history" in read.topics
    assert not read.follow_up
    # the same question read alone asks the same
    assert set(read.topics) == set(understand(utterance).topics)


def test_the_hand_written_rule_alone_carried_the_turn_before_into_them():
    # the fault the follow model mends: the pronoun read as pointing back (so this test fails if the rule changes)
    for utterance, context, not_carried in STANDS_ALONE:
        assert not_carried in cue_reading(utterance, context).topics


def test_a_question_that_leans_on_the_turn_before_carries_its_topics():
    # a strict xfail from stop 46 to stop 48 (the reader carried nothing); stop 49's CARRY_BARE carries it
    read = understand("Did that do anything for you?", "Have you tried any tablets for your sleep?")
    assert read.follow_up
    assert "sleep" in read.topics


def test_without_the_follow_model_the_rule_decides(monkeypatch):
    monkeypatch.setattr(understanding, "load_follow_model", lambda: None)
    utterance, context, _ = STANDS_ALONE[0]
    read = understanding.cue_reading(utterance, context)
    assert understanding.carried(read, utterance, context, ()) is read


def test_the_shipped_follow_model_reads_one_probability():
    model = load_follow_model()
    assert model is not None and model.topics == ("follows",)
    assert 0.0 <= model.veto_below <= model.add_above <= 1.0
    feats = follow_features(("did", "that", "help"), ())
    assert feats[:3] == ["w:did", "w:that", "w:help"] and "nown:0" in feats and "first:did" in feats
    p = model.probabilities(feats)["follows"]
    assert 0.0 < p < 1.0


def test_the_follow_model_file_says_what_it_was_fitted_on():
    raw = json.loads((ROOT / "mentalhospital_env" / "patient" / "data" / "follow_model.json").read_text("utf-8"))
    assert "heldout39" in raw["_about"]
    assert "heldout40" not in raw["_about"] and "heldout41" not in raw["_about"]


def test_the_fit_script_refuses_a_fresh_set():
    # stop 55 moved heldout54 into the topic reader's fitting; stop 55's fresh set, heldout55, is refused by name
    # (a name no file has here: the refusal comes before any file is looked for)
    code = (
        "import sys; sys.path.insert(0, 'scripts'); import fit_topic_model as T; "
        "T.NEWEST_READ = 99; T.SETS['fresh'] = 'interview_topics_heldout55_check.jsonl'; "
        "import fit_follow_model as F; F.rows_of('fresh')"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert "fresh held-out set" in (out.stderr + out.stdout)


def test_the_topic_fitting_reads_up_to_heldout54_and_refuses_heldout55_by_name(monkeypatch):
    sys.path.insert(0, str(ROOT / "scripts"))
    import fit_topic_model as T

    assert T.NEWEST_READ == 54 and {f"heldout{n}" for n in range(46, 55)} <= set(T.SETS)
    for name in T.SETS.values():
        T.refuse_fresh(name)  # every fitted set is development data
    monkeypatch.setattr(T, "NEWEST_READ", 99)  # by name, whatever the number says
    for name in ("interview_topics_heldout55.jsonl", "interview_topics_held-out55.jsonl"):
        with pytest.raises(SystemExit, match="fresh held-out set"):
            T.refuse_fresh(name)
