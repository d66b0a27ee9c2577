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
    drift = re.compile(r"where was I|what was I saying|beside the point|by the by", re.IGNORECASE)
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


def test_no_trait_tail_names_a_symptom():
    # stop 52's first drift tails said "I've lost my thread now" (the lexicon's lay phrase of flight of ideas, a sign of
    # mania) and "I've gone off on one again": said after a reply of hw-034 (a schizoaffective woman) the scripted
    # clinician reflected "You told me you've lost your thread now" and its ranking lost schizoaffective disorder. A
    # persona's tail is how the patient talks, never a finding: it names no concept of the lexicon
    from mentalhospital_env.knowledge.lexicon import load_lexicon

    lexicon = load_lexicon()
    for trait, banks in load_phrases()["traits"].items():
        for tail in banks.get("tail", ()):
            assert not lexicon.concepts_in(tail), (trait, tail, sorted(lexicon.concepts_in(tail)))
