"""A persona's stock tail adds no fact (stop 52).

The tangential persona's drift was four little stories ("Funny, I was just reading about lighthouses. Anyway.", "My
cousin had a dog called Biscuit.", the bus this morning, repainting the kitchen): said after a reply of uw-025 they
gave a man on a psychiatric ward a cousin's dog, a morning bus ride and reading he never did. A tail is the persona's
voice, not the record: the tangential one now loses its thread ("Sorry, where was I?") without telling anything."""

import re

from mentalhospital_env.patient.say import load_phrases

# a tail may speak of the talk itself, never of a person, an animal, a place or an event of the patient's life
_THINGS = re.compile(r"\b(?:cousin|dog|cat|bus|kitchen|lighthouses?|reading|called|morning|yesterday|shop|neighbour)\b",
                     re.IGNORECASE)


def test_no_trait_tail_tells_a_story():
    for trait, banks in load_phrases()["traits"].items():
        for tail in banks.get("tail", ()):
            assert not _THINGS.search(tail), (trait, tail)
            # no name: a capital inside the tail is "I" or a sentence's first word
            inner = re.findall(r"(?<![.?!]\s)(?<!^)\b[A-Z][a-z]+", tail)
            assert not inner, (trait, tail)


def test_the_tangential_drift_is_about_the_talk():
    drift = re.compile(r"where was I|lost my thread|what was I saying|gone off", re.IGNORECASE)
    for tail in load_phrases()["traits"]["tangential"]["tail"]:
        assert drift.search(tail), tail


def test_the_exam_still_hears_every_tangential_tail():
    # the exam's stock-tail lint (benchmarks/data/patient_exam/lints.json) learned the new drift: a tail the question
    # did not call for is still counted, so the new words do not flatter the exam
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from exam_grading import Lints

    lints = Lints()
    for tail in load_phrases()["traits"]["tangential"]["tail"]:
        assert lints.stock_tail(f"I hear voices. {tail}", "Do you hear voices?"), tail
