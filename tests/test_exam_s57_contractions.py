"""The exam's phrase lists read a contraction in its words in full too (stop 57).

uw-029's formal voice says its tangential tail in full: "Anyway, that is beside the point." The stock-tail list
holds "anyway, that's beside the point", and the lint, which matched the short form only, counted no tail: the
exam's filler figure understated by one reply there. Every listed phrase with a contraction now also matches the
words in full ("I am not sure", "I would have to think about it", "cannot"), never a possessive ("my gran's" is
not "my gran is")."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


eg = _load("exam_grading")


@pytest.fixture(scope="module")
def lints():
    return eg.Lints()


def test_a_stock_tail_said_in_full_is_still_a_stock_tail(lints):
    assert lints.stock_tail("I have no idea. Anyway, that is beside the point.", "Do you hear voices?")
    assert lints.stock_tail("I have no idea. Anyway, that's beside the point.", "Do you hear voices?")
    assert not lints.stock_tail("I have no idea. That is the point.", "Do you hear voices?")


@pytest.mark.parametrize(
    "phrase, said, found",
    [
        ("i'm not sure", "Well, I am not sure.", True),
        ("i'd have to think about it", "I would have to think about it.", True),
        ("can't", "I cannot say.", True),
        ("haven't", "I have not.", True),
        ("it's all a bit of a blur", "It is all a bit of a blur.", True),
        ("my gran's", "My gran is well.", False),
        ("can't", "I can do it.", False),
    ],
)
def test_a_listed_contraction_matches_its_words_in_full(phrase, said, found):
    assert bool(eg.find(phrase, eg.normalise(said))) is found
