"""The matcher's learned entailment reader (rewards/reader.py): lay paraphrase the rules share no word with is
credited, the structural vetoes stay hard gates over it, and it can be turned off."""

from __future__ import annotations

import numpy as np
import pytest

from mentalhospital_env.rewards.matching import Matcher, MatcherConfig
from mentalhospital_env.rewards.reader import default_reader


@pytest.fixture(scope="module")
def on():
    return Matcher()


@pytest.fixture(scope="module")
def off():
    return Matcher(MatcherConfig(reader=False))


PARAPHRASES = [
    ("Parents divorced when he was 7.", "My mum and dad split up when I was seven."),
    ("Low most of the day for about three months.", "For about three months now I've felt rotten most of every day."),
]


@pytest.mark.parametrize("checkpoint,utterance", PARAPHRASES)
def test_the_reader_credits_a_lay_paraphrase_the_rules_refuse(on, off, checkpoint, utterance):
    assert not off.entails_unit(checkpoint, utterance)
    found = on.match([checkpoint], [utterance])[0]
    assert found is not None and found.decided_by == "reader"


@pytest.mark.parametrize(
    "utterance",
    [
        "My husband has felt rotten most of every day for about three months.",  # another person's
        "For about three months now I've never once felt rotten, I've been great.",  # denied
    ],
)
def test_the_vetoes_stay_hard_gates_over_the_reader(on, utterance):
    checkpoint = "Low most of the day for about three months."
    assert not on.entails_unit(checkpoint, utterance)


def test_a_vetoed_pair_the_reader_scores_high_is_still_refused(on):
    checkpoint = "Low most of the day for about three months."
    utterance = "My husband has felt rotten most of every day for about three months."
    reader = on.reader
    assert reader.scores(reader.encode([checkpoint]), reader.encode([utterance]))[0, 0] >= reader.threshold
    assert on.match([checkpoint], [utterance])[0] is None


def test_the_reader_can_be_turned_off(off):
    assert off.reader is None
    assert "reader=off" in repr(off)


def test_the_packaged_reader_reads_unit_vectors_the_same_every_time():
    reader = default_reader()
    assert reader is not None and 0.5 <= reader.threshold < 1.0
    texts = ["My mum and dad split up when I was seven.", "Hears voices at night.", "日本"]
    first = reader.encode(texts)
    assert np.allclose(np.linalg.norm(first[:2], axis=1), 1.0, atol=1e-5)
    assert not first[2].any()  # nothing it knows: a zero vector, which entails nothing on its own
    assert np.array_equal(first, reader.encode(list(texts)))


def test_groups_find_what_matching_the_replies_one_by_one_finds(on):
    checkpoints = ["Parents divorced when he was 7.", "Low most of the day for about three months."]
    replies = [
        ["My mum and dad split up when I was seven."],  # the reader's
        ["My parents divorced when I was 7.", "I've been low most of the day for about three months."],  # the rules'
    ]
    units = [u for r in replies for u in r]
    groups = [g for g, r in enumerate(replies) for _ in r]
    together = on.match(checkpoints, units, groups=groups)
    one_by_one: list = [None] * len(checkpoints)
    offset = 0
    for reply in replies:
        open_ = [i for i, m in enumerate(one_by_one) if m is None]
        found = on.match([checkpoints[i] for i in open_], reply, unit_offset=offset)
        for i, m in zip(open_, found):
            one_by_one[i] = m
        offset += len(reply)
    assert [(m.unit_index, m.decided_by) if m else None for m in together] == [
        (m.unit_index, m.decided_by) if m else None for m in one_by_one
    ]
    assert together[0].decided_by == "reader" and together[0].unit_index == 0
