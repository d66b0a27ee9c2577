"""The shared field checks of the JSON loaders (``mentalhospital_env/fields.py``): the topic model's weight file and the
pair sets of ``rewards/calibration.py`` refuse a bad field the same way, each with its own error type."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.fields import finite, required


class OwnError(ValueError):
    pass


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
KINDS = st.sampled_from([str, bool, int, list, dict, (int, float)])


@given(value=JSON_VALUES, kind=KINDS)
@settings(max_examples=300, deadline=None)
def test_required_returns_a_value_of_its_kind_or_raises_the_callers_error(value, kind):
    try:
        got = required({"field_x": value}, "field_x", kind, "some/file.json:3", OwnError)
    except OwnError as err:
        assert "some/file.json:3" in str(err) and "'field_x'" in str(err)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        assert not isinstance(value, kind) or (isinstance(value, bool) and bool not in kinds)
    else:
        assert got is value and isinstance(got, kind)


def test_a_bool_is_no_number_and_a_missing_field_is_named():
    with pytest.raises(OwnError, match="'n' must be int or float, got bool True"):
        required({"n": True}, "n", (int, float), "f", OwnError)
    assert required({"b": False}, "b", bool, "f", OwnError) is False
    with pytest.raises(OwnError, match="f: missing field 'n'"):
        required({}, "n", int, "f", OwnError)


@given(value=JSON_VALUES)
def test_finite_takes_only_finite_numbers(value):
    try:
        got = finite(value, "w", "f", OwnError)
    except OwnError as err:
        assert "'w'" in str(err)
        assert isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
    else:
        assert got == value and not isinstance(value, bool)


def test_both_loaders_use_it_with_their_own_error(tmp_path):
    from mentalhospital_env.patient.topic_model import TopicModelError, read_topic_model
    from rewards.calibration import PairSetError, load_match_pairs

    with pytest.raises(TopicModelError, match="missing field 'cue_features'"):
        read_topic_model(json.dumps({"format": "mentalhospital-topic-model/1", "topics": ["mood"], "bias": [0.0],
                                     "weights": {}, "combine": {"add_above": 0.7, "veto_below": 0.05,
                                                                "confirm_above": 0.5}}), "w.json")
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps({"id": "a", "checkpoint": "c", "utterance": "u", "entails": 1, "kind": "paraphrase",
                                "split": "calibration"}) + "\n")
    with pytest.raises(PairSetError, match=r"pairs.jsonl:1: field 'entails' must be bool, got int 1"):
        load_match_pairs(path)
