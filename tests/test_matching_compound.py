"""A checkpoint joining separate findings is entailed only when each is said (rewards/structure.py, issue 18): the
parts are read from the checkpoint's parse, and a one-clause output must say every part."""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards import matching
from mentalhospital_env.rewards.matching import Matcher, MatcherConfig
from mentalhospital_env.rewards.structure import compound_clash, compound_parts, output_clauses


@pytest.mark.parametrize(
    "checkpoint, parts",
    [
        ("Avoids trains, buses and supermarkets.", ("Avoids trains", "Avoids buses", "Avoids supermarkets")),
        ("Thought withdrawal and insertion.", ("Thought withdrawal", "Thought insertion")),
        ("Has tried cannabis; no alcohol or tobacco.", ("Has tried cannabis", "no alcohol", "no tobacco")),
        ("Shouted at a neighbour but has not hurt anyone.", ("Shouted at a neighbour", "has not hurt anyone")),
    ],
)
def test_a_joined_checkpoint_splits_into_its_findings(checkpoint, parts):
    assert compound_parts(checkpoint) == parts


@pytest.mark.parametrize(
    "checkpoint",
    ["Lives with her elderly father.", "Low mood.", "Hears a voice commenting on what she does."],
)
def test_one_finding_is_one_part(checkpoint):
    assert len(compound_parts(checkpoint)) == 1


def test_output_clauses():
    assert output_clauses("I check the locks before bed.") == 1
    assert output_clauses("I check the locks before bed, and then I check the oven.") == 2
    assert output_clauses("Weed? Weekends.") == 0


def test_one_clause_saying_one_part_of_two_clashes():
    checkpoint = "Avoids trains, buses and supermarkets."
    assert compound_clash(checkpoint, "I can't stand the bus.", lambda part, out: False) is not None
    # each part said (by the part's own reading), or a longer output left to the whole checkpoint's reading
    assert compound_clash(checkpoint, "I can't stand the bus.", lambda part, out: True) is None
    assert compound_clash(checkpoint, "I won't go near a train, I take the car to the shops.") is None


def test_the_matcher_refuses_half_a_compound_with_the_check_on_and_accepts_it_without(monkeypatch):
    checkpoint = "Mother had severe premenstrual tension and postnatal depression."
    output = "Mum had postnatal depression."
    assert Matcher(MatcherConfig(embedder="hashing", compound=True)).match([checkpoint], [output])[0] is None
    assert Matcher(MatcherConfig(embedder="hashing")).match([checkpoint], [output])[0] is not None  # off by default
    monkeypatch.setattr(matching, "compound_clash", lambda *a, **k: None)
    assert Matcher(MatcherConfig(embedder="hashing", compound=True)).match([checkpoint], [output])[0] is not None
