"""The lexicon and the language reader: memoised readings equal fresh ones, results cannot be changed by a
caller, and a phrase never spans a sentence break or a heading."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.knowledge import language
from mentalhospital_env.knowledge.language import (
    clauses,
    clear_caches,
    content_stems,
    has_cue,
    is_negated,
    memos_off,
    negated_spans,
    negated_spans_in,
    negation_breaks,
    polarity_marks,
    quantities,
    sentence_breaks,
    stems,
    time_frame,
    tokenize,
)
from mentalhospital_env.knowledge.lexicon import Concept, Lexicon, Mention, load_lexicon

LEXICON = load_lexicon()

# Words that build texts with concepts, negations, subjects, time cues, numbers, and the punctuation that
# breaks sentences, clauses and headings.
_WORDS = [
    "poor", "insight", "concentration", "sleep", "sleeping", "hearing", "voices", "low", "mood", "denies", "no",
    "not", "can't", "stop", "crying", "but", "mother", "father", "had", "depression", "years", "ago", "currently",
    "since", "I", "she", "he", "patient", "reports", "suicidal", "ideation", "plan", "intent", "four", "hours",
    "a", "night", "8,000", "steps", "twenty", "five", "too", "much", "increased", "appetite", "weight", "loss",
    "really", "down", "feel", "worry", "panic", "attacks", "alcohol", "drinks", "bottle", "wine", "family",
    "history", "trauma", "of", "the", "and", "Insight", "Mood", "Thought", "content",
]  # fmt: skip
_MARKS = [" ", " ", " ", ", ", ". ", ": ", "; ", "! ", "? ", "\n", " - ", " (", ") ", "\u2019"]

texts = st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_MARKS)), max_size=30).map(
    lambda parts: "".join(w + m for w, m in parts)
)


def _readings(text: str) -> dict:
    """Every public reading of a text, the lexicon's with and without gaps."""
    tokens = tokenize(text)
    return {
        "tokenize": tokens,
        "stems": stems(text),
        "find": LEXICON.find(text),
        "find_gap": LEXICON.find(text, max_gap=2),
        "concepts_in": LEXICON.concepts_in(text),
        "negated_spans_in": negated_spans_in(text),
        "negated_spans_in_tokens": negated_spans_in(text, tokens),
        "negated_spans_in_window": negated_spans_in(text, window=3),
        "negated_spans": negated_spans(tokens),
        "negated_spans_breaks": negated_spans(tokens, 4, negation_breaks(text)),
        "negation_breaks": negation_breaks(text),
        "negation_breaks_short": negation_breaks(text, tokens[: len(tokens) // 2]),
        "sentence_breaks": sentence_breaks(text),
        "clauses": clauses(text),
        "polarity_marks": polarity_marks(text),
        "polarity_marks_window": polarity_marks(text, 2),
        "quantities": quantities(text),
        "quantities_window": quantities(text, window=1),
        "time_frame": time_frame(text),
        "cues": [has_cue(text, k) for k in ("uncertainty", "other_subject", "past_time", "current_time")],
        "is_negated": is_negated(text),
        "content_stems": content_stems(text),
    }


@settings(max_examples=150, deadline=None)
@given(st.lists(texts, min_size=1, max_size=4))
def test_memoised_readings_equal_fresh_ones(batch):
    batch = batch + batch[:1]  # one text read twice: the second reading comes from the memo
    remembered = [_readings(t) for t in batch]
    again = [_readings(t) for t in batch]
    with memos_off():
        fresh = [_readings(t) for t in batch]
    assert remembered == again == fresh
    clear_caches()
    assert [_readings(t) for t in batch] == fresh


_OTHER = Lexicon(LEXICON.concepts)  # the same concepts, its own memo


@settings(max_examples=60, deadline=None)
@given(texts)
def test_a_fresh_lexicon_reads_as_the_remembering_one(text):
    LEXICON.find(text)
    other = _OTHER
    other.clear_cache()
    assert other.find(text) == LEXICON.find(text)
    assert other.find(text, max_gap=1) == LEXICON.find(text, max_gap=1)


def test_find_returns_frozen_mentions_in_a_tuple():
    found = LEXICON.find("Denies hearing voices. Low mood most days.")
    assert isinstance(found, tuple) and found and all(isinstance(m, Mention) for m in found)
    with pytest.raises(FrozenInstanceError):
        found[0].negated = not found[0].negated  # type: ignore[misc]
    assert LEXICON.find("Denies hearing voices. Low mood most days.") is found
    assert {m.concept_id: m.negated for m in found} == {"auditory_hallucinations": True, "low_mood": False}


def test_changing_a_returned_list_does_not_change_the_next_reading():
    text = "I have not slept, my mother had depression. Hears voices since 2019."
    for read in (tokenize, stems, negated_spans_in, clauses, content_stems):
        first = read(text)
        expected = list(first)
        first.clear()
        assert read(text) == expected and expected
    tokens = tokenize(text)
    spans = negated_spans(tokens)
    spans.append((0, 1))
    assert negated_spans(tokens) != spans
    assert isinstance(negation_breaks(text), frozenset)
    assert isinstance(polarity_marks("poor sleep"), frozenset)
    assert isinstance(quantities("four hours a night"), frozenset)


def test_the_memo_is_bounded(monkeypatch):
    lex = Lexicon(LEXICON.concepts)
    monkeypatch.setattr("mentalhospital_env.knowledge.lexicon.TEXT_MEMO_SIZE", 8)
    for i in range(30):
        lex.find(f"low mood for {i} weeks")
    assert len(lex._found) <= 8
    assert lex.find("low mood for 3 weeks") == (Mention("low_mood", 0, 2, False),)
    for i in range(language.TEXT_MEMO_SIZE + 50):
        tokenize(f"text number {i}")
    info = language._read.cache_info()
    assert info.maxsize == language.TEXT_MEMO_SIZE and info.currsize <= info.maxsize


def test_a_lexicon_copies_and_pickles_with_an_empty_memo():
    lex = Lexicon(LEXICON.concepts)
    lex.find("hearing voices")
    for other in (copy.deepcopy(lex), pickle.loads(pickle.dumps(lex))):
        assert other._found == {}
        assert other.find("hearing voices") == lex.find("hearing voices")


# ------------------------------------------------------------------------------- sentence bounds


def _lexicon(*concepts: tuple[str, tuple[str, ...]]) -> Lexicon:
    return Lexicon(
        Concept(cid, "sign", "test", terms, (), ("Tell me?",), False, ()) for cid, terms in concepts
    )


def test_a_phrase_does_not_span_a_full_stop_or_a_heading():
    lex = _lexicon(("poor_insight", ("poor insight",)), ("poor_concentration", ("concentration poor",)))
    assert {m.concept_id for m in lex.find("concentration poor. Insight: partial")} == {"poor_concentration"}
    assert {m.concept_id for m in lex.find("Concentration poor\nInsight partial")} == {"poor_concentration"}
    assert {m.concept_id for m in lex.find("Judgement: poor; insight: partial")} == set()
    assert {m.concept_id for m in lex.find("Insight: poor insight into illness.")} == {"poor_insight"}
    assert {m.concept_id for m in lex.find("Concentration poor, insight fair")} == {"poor_concentration"}


@pytest.mark.parametrize("mark", [". ", ": ", "; ", "! ", "? ", "\n", ".\n", " .", ":\n"])
def test_every_sentence_mark_ends_a_phrase(mark):
    lex = _lexicon(("voices", ("hearing voices",)), ("insomnia", ("can't sleep",)))
    assert lex.find(f"hearing{mark}voices") == ()
    assert lex.find(f"I can't{mark}Sleep is fine") == ()
    assert [m.concept_id for m in lex.find(f"hearing voices{mark}can't sleep")] == ["voices", "insomnia"]


def test_a_comma_does_not_end_a_phrase_that_holds_one():
    lex = _lexicon(("fatigue", ("heavy, like lead",)))
    assert [m.concept_id for m in lex.find("My legs feel heavy, like lead.")] == ["fatigue"]
    assert lex.find("My legs feel heavy. Like lead.") == ()


def test_a_phrase_without_a_comma_does_not_span_one():
    assert "hypersomnia" not in LEXICON.concepts_in("I can't sleep, too much is going on.")
    assert "hypersomnia" in LEXICON.concepts_in("I sleep too much.")
    assert "unstable_relationships" in LEXICON.concepts_in("intense, unstable relationships")


def test_a_gapped_phrase_does_not_span_a_sentence_break():
    lex = _lexicon(("low_mood", ("feel down",)))
    assert [m.concept_id for m in lex.find("I feel really down", max_gap=1)] == ["low_mood"]
    assert lex.find("I feel really. Down the road", max_gap=2) == ()
    assert lex.find("I feel: really down", max_gap=2) == ()


def test_the_bundled_lexicon_reads_a_mental_state_examination_by_section():
    note = "Mood: low. Affect: restricted. Thought content: no suicidal ideation. Concentration poor. Insight: partial."
    found = {m.concept_id: m.negated for m in LEXICON.find(note)}
    assert found.get("suicidal_ideation") is True
    assert "lack_of_insight" not in found
    assert "lack_of_insight" in LEXICON.concepts_in(
        "concentration poor insight partial"
    )  # no break: it is there
    # a section heading after a line that ends in "sleep" is not a "sleep history"
    assert "sleep_history" in LEXICON.concepts_in("Sleep history: settled")
    lines = "Reduced need for sleep\nHistory of present illness: low mood for six weeks"
    assert "sleep_history" not in LEXICON.concepts_in(lines)
    assert "low_mood" in LEXICON.concepts_in(lines)


def test_sentence_breaks_are_token_indices_after_a_mark():
    assert sentence_breaks("concentration poor. Insight: partial") == {2, 3}
    assert sentence_breaks("no marks at all") == frozenset()
    assert sentence_breaks("Ends with a stop.") == frozenset()
    assert sentence_breaks("") == frozenset()


def test_absent_phrases_are_found_only_by_the_absence_lexicon():
    lexicon = load_lexicon()
    text = "I still enjoy my hobbies and I'm teetotal."
    assert "anhedonia" not in lexicon.concepts_in(text)
    found = {m.concept_id: m for m in lexicon.absence.find(text)}
    assert {"anhedonia", "alcohol_use"} <= set(found)
    assert not found["anhedonia"].negated
    # a denied absence: the mention is negated (the reader takes it as the concept present)
    (denied,) = [m for m in lexicon.absence.find("I don't enjoy my hobbies.") if m.concept_id == "anhedonia"]
    assert denied.negated
    assert {c.id: c.lay_phrases for c in lexicon.absence.concepts} == {
        c.id: c.absent_phrases for c in lexicon.concepts if c.absent_phrases
    }
    restored = pickle.loads(pickle.dumps(lexicon))
    assert "absence" not in restored.__dict__
    assert restored.absence.find(text) == lexicon.absence.find(text)


@pytest.mark.parametrize(
    ("text", "concept", "negated"),
    [
        ("Honestly I'm ashamed of what I've done to them.", "guilt", False),
        ("He's been shouting at people over nothing.", "anger_outbursts", False),
        ("Her mind goes from one idea to another before she finishes.", "flight_of_ideas", False),
        ("I've never been in trouble with the police.", "legal_problems", True),
        ("These days I can get by on very little sleep.", "decreased_need_for_sleep", False),
        ("Attention and concentration poor.", "poor_concentration", False),
        ("History of conduct problems in primary school.", "rule_violations", False),
        ("Her uncle had manic depression.", "past_psychiatric_treatment", False),
    ],
)
def test_lay_and_record_wordings_read_as_their_finding(text, concept, negated):
    """Wordings of a finding the record and clinic pairs showed missing (written afresh, not the pairs' own)."""
    found = [(m.concept_id, m.negated) for m in load_lexicon().find(text)]
    assert (concept, negated) in found, found


@pytest.mark.parametrize(
    ("text", "concept"),
    [("I need my eight hours or I'm useless.", "decreased_need_for_sleep"), ("His attention was steady.", "fluctuating_attention")],
)
def test_a_normal_function_said_plainly_reads_as_the_finding_absent(text, concept):
    lexicon = load_lexicon()
    assert concept in {m.concept_id for m in lexicon.absence.find(text)}
    assert concept not in {m.concept_id for m in lexicon.find(text)}
