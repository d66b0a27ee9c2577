"""Stop 61: a pair written in the informant's voice is read as the informant's reply.

The environment passes an informant's replies as theirs, and coverage reads them in the patient's frame (the
informant's "I" is the relative, the patient's "he" is the patient). The pair sets mark such pairs by their writer's
kind; until stop 61 only "informant_lay" was read so, and the later sets' "informant_report" / "informant_paraphrase"
pairs were read as the patient's own words: heldout56 refused a husband's plate-throwing told by his wife ("he hurled
a plate when I hid the keys"), 13 such misses. Any written_kind naming the informant now marks the informant's voice,
unless the utterance opens with its speaker's label ("Wife: ..."), which the text then says itself. The sentences
below are written apart from the pair sets.
"""

from __future__ import annotations

import json

import pytest
from mentalhospital_env.rewards.calibration import load_match_pairs, read_with_persons, speaker_of
from mentalhospital_env.rewards.matching import Matcher, MatcherConfig


@pytest.fixture(scope="module")
def hashing():
    return Matcher(MatcherConfig(embedder="hashing"))


def _pairs(tmp_path, rows):
    path = tmp_path / "pairs.jsonl"
    path.write_text(
        "".join(
            json.dumps(
                {"id": f"p{i}", "checkpoint": c, "utterance": u, "entails": e, "kind": "paraphrase", "split": "records",
                 "written_kind": k, "case": "hw-026", "origin": "written for this test"}
            ) + "\n"
            for i, (c, u, e, k) in enumerate(rows)
        ),
        encoding="utf-8",
    )
    return load_match_pairs(path)


@pytest.mark.parametrize(
    "written_kind, utterance, speaker",
    [
        ("informant_lay", "He's not been himself.", "informant"),
        ("informant_report", "He's not been himself.", "informant"),
        ("informant_paraphrase", "She stays in bed till noon.", "informant"),
        ("other_informant_view", "It is the drink, not nerves.", "informant"),
        ("informant_report", "Wife: he's not slept for a fortnight.", "patient"),  # the label says who speaks
        ("informant_lay", "Wife: he's not slept for a fortnight.", "informant"),  # read so before stop 61
        ("lay_paraphrase", "He's not been himself.", "patient"),
        (None, "I can't sleep.", "patient"),
    ],
)
def test_the_writers_kind_says_who_speaks(written_kind, utterance, speaker):
    assert speaker_of(written_kind, utterance) == speaker


def test_an_informant_report_credits_the_patients_finding_and_not_the_informants_own(tmp_path, hashing):
    pairs = _pairs(
        tmp_path,
        [
            ("Smashed a mug when his wife took his phone away.",
             "Yesterday he smashed a mug when I took his phone off him.", True, "informant_report"),
            ("Has not showered for weeks.", "He hasn't been in the shower for weeks.", True, "informant_paraphrase"),
            ("Low mood.", "I've been low myself since all this started.", False, "informant_report"),
            # the same words with no informant kind: the speaker's "I" is the patient, "he" someone else
            ("Smashed a mug when his wife took his phone away.",
             "Yesterday he smashed a mug when I took his phone off him.", True, "lay_paraphrase"),
        ],
    )
    assert [p.speaker for p in pairs] == ["informant", "informant", "informant", "patient"]
    credited = [hashing.match([c], [u])[0] is not None for c, u in read_with_persons(pairs)]
    assert credited == [True, True, False, False]
