"""The contrary-direction gate on the learned reader's accepts (contrasts.json's ``directions``).

The reader reads what a pair is about, not which way it points: "sleeps through" and "up and down all night" are
both about the night's sleep. A reader accept passes only when the output does not say only the other pole of a
general direction the checkpoint says (more / less, better / worse, well / badly, goes on / has ended, wants / fears).
"""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards import matching
from mentalhospital_env.rewards.adjudication import direction_clash, direction_sides, statement_conflict
from mentalhospital_env.rewards.matching import Matcher, MatcherConfig
from mentalhospital_env.rewards.reader import default_reader


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Mood is better in the mornings.", "I feel worse in the mornings."),
        ("Takes an hour to settle, then sleeps through.", "He's up and down all night."),
        ("Drinking has increased since the divorce.", "I drink less since the divorce."),
        ("Sleeping well.", "I'm not sleeping well at all."),  # a flip cue turns the pole
    ],
)
def test_opposite_poles_clash(checkpoint: str, output: str) -> None:
    assert direction_clash(checkpoint, output) is not None


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Mood is worse in the mornings.", "Mornings are worse for me, it eases off by teatime."),
        ("Sleeps well.", "I sleep fine, never a problem."),
        ("Drinking has increased since the divorce.", "I'm drinking a lot more since she left."),
        ("Low mood.", "I've been feeling really low."),  # no pole at all
    ],
)
def test_same_pole_or_none_passes(checkpoint: str, output: str) -> None:
    assert direction_clash(checkpoint, output) is None


def test_a_flip_cue_turns_the_pole() -> None:
    (said,) = direction_sides("Sleeping well.")
    (denied,) = direction_sides("Not sleeping well.")
    assert said[0] == denied[0] and said[1] != denied[1]


# a pair the reader alone credits (about the night's sleep) that says the other pole
PAIR = ("Takes about an hour to settle at night, then sleeps through.", "He's up and down all night, in our bed by two.")


def test_the_reader_accept_of_an_opposite_is_refused() -> None:
    checkpoint, output = PAIR
    reader = default_reader()
    assert reader is not None
    # the premise: the reader alone would credit it, and no other veto stands in the way
    assert float(reader.scores(reader.encode([checkpoint]), reader.encode([output]))[0, 0]) >= reader.threshold
    assert statement_conflict(checkpoint, output) is None
    assert Matcher(MatcherConfig(embedder="hashing")).match([checkpoint], [output])[0] is None


def test_without_the_gate_the_reader_would_accept_it(monkeypatch: pytest.MonkeyPatch) -> None:
    checkpoint, output = PAIR
    monkeypatch.setattr(matching, "direction_clash", lambda c, o: None)
    found = Matcher(MatcherConfig(embedder="hashing")).match([checkpoint], [output])[0]
    assert found is not None and found.decided_by == "reader"


# The word-level vote on shared words (SHARED_NEGATION) against the parse's reading of what each clause denies.
DENIED_BOTH = ("No known family history of mental illness.", "Nobody in the family's had anything like this that I know of.")


def test_the_parse_reads_a_denial_said_through_its_subject() -> None:
    from mentalhospital_env.rewards.adjudication import SHARED_NEGATION, clause_polarities, same_clause_polarity

    checkpoint, output = DENIED_BOTH
    # the premise: the word-level vote vetoes it
    assert statement_conflict(checkpoint, output) == SHARED_NEGATION
    assert clause_polarities(output) == frozenset({True})
    assert same_clause_polarity(checkpoint, output)
    found = Matcher(MatcherConfig(embedder="hashing")).match([checkpoint], [output])[0]
    assert found is not None and found.decided_by == "reader"


def test_a_clause_said_the_other_way_keeps_the_veto() -> None:
    from mentalhospital_env.rewards.adjudication import same_clause_polarity

    assert not same_clause_polarity("Frequent arguments with her partner recently.", "We never argue, it's really solid.")
    assert not same_clause_polarity("Not on the contraceptive pill.", "I'm on the pill.")
