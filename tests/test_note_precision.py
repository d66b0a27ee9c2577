"""Note precision: replies read as answers, and note claims held against them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.knowledge.answers import answer_polarity, read_reply
from mentalhospital_env.rewards.chart import Chart, Turn
from mentalhospital_env.rewards.mentaleval import OfflineJudge
from mentalhospital_env.rewards.mentaleval.ladders import calibration_case
from mentalhospital_env.rewards.mentaleval.precision import check_note, note_claims


def test_a_reply_is_read_as_an_answer_to_its_question():
    r = read_reply("Have you had thoughts that life is not worth living?", "Nope. I've never had thoughts of ending my life.")
    assert "suicidal_ideation" in r.denied and not r.affirmed
    r = read_reply("How has your appetite been?", "I can't concentrate.")  # a non-answer leaves appetite alone
    assert "poor_concentration" in r.affirmed and "decreased_appetite" not in r.denied
    # a bare "no" answers a closed question only, and only as a whole clause
    r = read_reply("How is your concentration, for example when reading or watching something?", "Not really, no.")
    assert "poor_concentration" not in r.denied
    assert "auditory_hallucinations" in read_reply("Do you ever hear voices or sounds when nobody is around?", "Not really, no.").denied
    assert not read_reply("Do you ever hear voices or sounds when nobody is around?", "No idea, sorry.").denied
    r = read_reply("How has your appetite been?", "I do drive. I'm in debt.")  # "I do" is no yes to an open question
    assert not {"decreased_appetite", "increased_appetite"} & r.affirmed
    # the words of a reflection before the question are the doctor's, not what was asked
    r = read_reply("It sounds like can't sleep has been really hard. Do you ever hear voices or sounds when nobody is around?", "No.")
    assert "insomnia" not in r.denied and "auditory_hallucinations" in r.denied
    r = read_reply("Do you ever hear voices or sounds when nobody is around?", "Yeah. I hear people outside saying my name.")
    assert "auditory_hallucinations" in r.affirmed
    r = read_reply("Has anyone in your family had problems with their mental health?", "My mother had depression.")
    assert "low_mood" not in r.affirmed  # the mother's illness is not the patient's
    assert not read_reply("How have you been sleeping?", "Not sure, to be honest.").denied
    assert answer_polarity("I've had two episodes before.") is None  # an opener is no yes
    # "meh" said of one's mood or feeling is low mood (a generated presentation's own mood word, stop 28); a meal is not
    assert "low_mood" in read_reply("How has your mood been?", "My mood's meh, I'd say.").affirmed
    assert "low_mood" in read_reply("How are you feeling in yourself?", "I feel meh most days.").affirmed
    assert "low_mood" not in read_reply("How has your appetite been?", "I eat, the food here is meh.").affirmed


_OPEN_RISK = (
    "I ask everyone this, because it matters for keeping you safe. Sometimes when people feel this low, they have "
    "thoughts that life is not worth living. What thoughts like that have you had?"
)


@settings(max_examples=40, deadline=None)
@given(bare=st.sampled_from(["No, never.", "No.", "Never.", "Nope, never.", "No, none."]), preface=st.sampled_from(["", "That sounds hard. "]))
def test_a_bare_no_to_the_open_risk_question_is_a_denial(bare, preface):
    # the open question about a sensitive finding is answered by a bare "no" as a closed one is (a safety plan was
    # written for "No, never."), and a non-answer still leaves it unanswered
    r = read_reply(preface + _OPEN_RISK, bare)
    assert r.denied == {"suicidal_ideation"} and not r.affirmed
    # and only a reply that is a bare answer and nothing more: "As I said, no. I've never had thoughts of ending my
    # life." to the question about self-harm leaves self-harm alone, as the note-precision checker reads it
    assert not read_reply(_OPEN_RISK, "I'd rather not say.").denied
    harm = "Sometimes when feelings get overwhelming people hurt themselves. What happens for you at those times?"
    assert "self_harm" not in read_reply(harm, "As I said, no. I've never had thoughts of ending my life.").denied
    # an open question about an ordinary finding is not: "Nothing." to a question about enjoyment denies no anhedonia
    assert not read_reply("What do you do for enjoyment these days, and how does it feel?", "Nothing.").denied


@settings(max_examples=80, deadline=None)
@given(question=st.text(max_size=80), reply=st.text(max_size=200))
def test_any_reply_reads_without_error(question, reply):
    r = read_reply(question, reply)
    assert not (r.affirmed & r.unanswered) and not (r.denied & r.unanswered)


def _chart(note: str, *turns: tuple[str, str]) -> Chart:
    return Chart(turns=tuple(Turn(q, a) for q, a in turns), note=note)


_TURNS = (
    ("How has your mood been over the past few weeks?", "I've been feeling really low."),
    ("Have you had thoughts that life is not worth living?", "No, never, I've never had thoughts of ending my life."),
    ("How have you been sleeping?", "I don't have trouble sleeping."),
)


def test_claims_against_the_encounter():
    case = calibration_case()
    good = _chart(
        "History of present illness: Reports low mood. Denies suicidal ideation. Denies insomnia.\n"
        'Family history: Mother had depression and hallucinations.\nMental state: mood "really low".',
        *_TURNS,
    )
    assert check_note(case, good).errors == ()
    bad = _chart(
        "History of present illness: Reports low mood and suicidal ideation. Denies low mood. Reports binge eating.", *_TURNS
    )
    why = {(e.concept, e.why) for e in check_note(case, bad).errors}
    assert ("suicidal_ideation", "denied by the patient") in why
    assert ("low_mood", "affirmed by the patient") in why
    assert ("binge_eating", "never came up") in why
    assert all(e.serious for e in check_note(case, bad).errors if e.concept == "suicidal_ideation")
    judge = OfflineJudge()
    # both fragments leave out the record's delusions (central findings, a fault of their own): the errors lower
    # the cap on Qual. that the rest of the score works under
    from mentalhospital_env.rewards.mentaleval.offline import note_precision_cap

    assert note_precision_cap(judge.readings(case, bad)["note"]) < note_precision_cap(judge.readings(case, good)["note"])


def test_a_denial_list_reaches_every_finding_of_its_sentence():
    claims = dict(note_claims("History of present illness: He denies low mood, sleep problems, appetite change and periods of elevated mood."))
    assert claims.get("hypomanic_episodes") is False and claims.get("low_mood") is False
    claims = dict(note_claims("Risk assessment: No plan, but reports suicidal ideation."))
    assert claims.get("suicidal_ideation") is True


def test_a_negation_inside_an_affirmed_finding_or_before_a_comma_denies_nothing_after_it():
    """Stop 40: 'no energy' is fatigue, and its 'no' does not deny the guilt and hopelessness listed after it; 'no
    trigger' denies the trigger, not the low mood after the comma. A 'no' list from a finding and a denial verb's list
    still reach on (held_out35 note-583 and note-587, rated 5, were charged with denying what the patient affirmed).
    Strict xfail from stop 40 (the s40-judge scoped-negation reader mended these but stopped 'No highs, panic, voices,
    paranoia or obsessions' from denying what follows 'highs', held_out40's note-803); mended at stop 42 by a reader
    that does both: only a negation opening a comma item in the middle of a list ends with its item, one heading its
    sentence or closing its list with or/nor covers the list (the test after this one)."""
    claims = dict(note_claims("History of present illness: low mood daily, no energy, constant guilt, hopelessness, neglecting self-care."))
    assert claims.get("fatigue") is True and claims.get("guilt") is True and claims.get("hopelessness") is True
    claims = dict(note_claims("History of present illness: about five years, no trigger, persistent low mood, fatigue."))
    assert claims.get("low_mood") is True
    claims = dict(note_claims("History of present illness: Can't sit still, up and down."))
    assert claims.get("restlessness") is True and claims.get("mood_lability") is True
    claims = dict(note_claims("Risk: No suicidal ideation, self-harm or thoughts of harming others."))
    assert claims.get("suicidal_ideation") is False and claims.get("self_harm") is False
    claims = dict(note_claims("History of present illness: Denies SI ever, self-harm, panic, elevated mood."))
    assert claims.get("self_harm") is False and claims.get("elevated_mood") is False


def test_a_no_list_in_a_terse_note_asserts_nothing_it_lists():
    """held_out40 note-803 (rated 4): 'No highs, panic, voices, paranoia or obsessions.' denies its whole list; none of
    it may be read as present (a reader that stopped the 'no' at 'highs' charged the note with psychosis asserted)."""
    claims = dict(note_claims("History of present illness: No highs, panic, voices, paranoia or obsessions."))
    assert not any(value is True for value in claims.values()), claims
    assert claims.get("obsessions") is False


def test_the_checker_reads_the_encounter_on_its_own_terms():
    case = calibration_case()
    turns = (
        ("How has your appetite been?", "I do drive. I'm in debt."),
        ("It sounds like got arrested has been hard for you. Are you allergic to any medicines?", "None, not allergic to anything."),
        ("What do you do for work?", "I've been talking so fast my wife can't get a word in, I don't talk too fast."),
        ("What thoughts come into your mind again and again, even though you don't want them?", "I don't know."),
        ("How have you been sleeping?", "I get good spells where I'm chatty and need less sleep."),
        ("Have there been times when you felt unusually good, cheerful or full of energy?", "No, not really. I haven't been on a high."),
    )
    note = (
        "History of present illness: The patient reports decreased appetite; increased appetite; repeated unlawful acts; "
        "hypomanic episodes. Denies pressured speech. Denies obsessions. Denies elevated mood."
    )
    why = {(e.concept, e.asserted): e.why for e in check_note(case, _chart(note, *turns)).errors}
    assert why[("decreased_appetite", "present")] == "never came up"  # "I do drive." answers nothing
    assert why[("increased_appetite", "present")] == "never came up"
    assert why[("antisocial_acts", "present")] == "never came up"  # the doctor's reflection is no evidence
    assert why[("pressured_speech", "absent")] == "affirmed by the patient"  # a mixed answer is no flat denial
    assert why[("obsessions", "absent")] == "never came up"  # "I don't know" denies nothing
    assert why[("hypomanic_episodes", "present")].startswith("contradicts the note")
    assert ("elevated_mood", "absent") not in why


def test_a_symptom_named_like_a_disorder_is_still_a_claim():
    assert ("insomnia", False) in note_claims("History of present illness: Denies insomnia.")


def test_a_quoted_non_answer_marks_a_note_down():
    from mentalhospital_env.rewards.mentaleval.features import empty_quotes

    note = (
        'History of present illness: The patient reports low mood. Impact: "Hard to say. I\'m not sure.". '
        'Onset and course: "It started in March after I lost my job."\nPersonal history: Childhood: "No idea, sorry.".'
    )
    assert empty_quotes(note) == 2
    case = calibration_case()
    # the record's delusions named, so that neither note leaves out a central finding (a fault of its own)
    # (the case is a psychotic mania: a note that gives it low mood records the mania's mood as its opposite, stop 27)
    full = _chart("History of present illness: Reports elevated mood. Denies suicidal ideation. Denies insomnia. Grandiose"
                  " delusion of a special mission; delusions of reference about television.", *_TURNS)
    padded = _chart(full.note + ' Impact: "I don\'t know." Childhood: "Not sure, to be honest."', *_TURNS)
    judge = OfflineJudge()
    assert judge.score(case, padded)["note_quality"] < judge.score(case, full)["note_quality"]


@pytest.mark.slow
def test_the_checker_agrees_with_the_hand_reading_of_31_notes():
    """benchmarks/note_claims.py: 663 claims of 31 scripted notes labelled by reading each transcript (committed
    before the checker ran on them). The figure measured when the checker was rebuilt: kappa 0.71; in stop 21 0.726 (held-out half 0.733)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from note_claims import agree

    out = agree()
    assert out["all"]["items"] == 663 and out["all"]["reader_errors"] == 62
    assert out["all"]["kappa"] >= 0.65 and out["all"]["checker_precision"] >= 0.8
    # the half whose disagreements were not read while tuning in stop 21 (odd positions of encounters.jsonl)
    assert out["held_out"]["kappa"] >= 0.65 and out["held_out"]["checker_precision"] >= 0.8


def test_words_the_patient_quotes_are_not_what_the_patient_affirms():
    from mentalhospital_env.rewards.mentaleval.precision import reply_evidence

    yes, _ = reply_evidence("What brings you here?", "I've had GP referral: 'Low mood and fatigue, not responding to citalopram.'")
    assert "low_mood" not in yes
    yes, _ = reply_evidence("How do you sleep?", "My wife says I 'stop breathing, then snort like a horse' at night.")
    assert not {"drug_seeking", "stimulant_use"} & yes
    yes, _ = reply_evidence("How is your mood?", "I don't feel like myself, I feel low all the time.")
    assert "low_mood" in yes


def test_cannot_reads_as_cant_and_inattention_is_poor_concentration():
    """hw-040: "She cannot get to sleep before 2 a.m." affirms insomnia, so "Denies insomnia" is an error; a patient
    who denied trouble concentrating did not report inattentiveness (hw-019)."""
    from mentalhospital_env.rewards.mentaleval.precision import reply_evidence

    affirmed, denied = reply_evidence("How have you been sleeping?", "I cannot get to sleep before 2 a.m.")
    assert "insomnia" in affirmed and "insomnia" not in denied
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.chart import Chart, Turn

    case = load_suite("handwritten")["hw-009"]
    chart = Chart(
        turns=(Turn("How is your concentration?", "No. I don't have trouble concentrating."),),
        note="History of present illness: The patient reports inattentiveness.",
    )
    assert [(e.concept, e.why) for e in check_note(case, chart).errors] == [("inattention", "denied by the patient")]


def test_a_finding_said_with_its_own_negation_is_affirmed_in_a_note():
    """"cannot concentrate" is poor concentration however the sentence began: "lost weight without trying and cannot
    concentrate" does not deny it, nor does "cannot concentrate or follow a TV programme"."""
    for text in ("She has lost four kilograms without trying and cannot concentrate.",
                 "He cannot concentrate or follow a TV programme.", "She can't concentrate."):
        assert note_claims(f"History of present illness: {text}") == (("poor_concentration", True),), text
    assert note_claims("History of present illness: Denies poor concentration.") == (("poor_concentration", False),)


@pytest.mark.parametrize(
    "unasked",
    [
        "Nightmares and binge eating were not asked about and need asking.",
        "Binge eating and nightmares: still to ask at the next visit, not yet assessed.",
        "Whether she has nightmares or binge eating is unknown.",
    ],
)
def test_a_finding_the_note_says_was_not_asked_is_no_claim(unasked):
    # stop 28: a complete PTSD note that named the two questions still to ask was marked for asserting both
    case = calibration_case()
    note = f"History of present illness: Reports low mood. {unasked}"
    claims = {c for c, _ in note_claims(note)}
    assert "nightmares" not in claims and "binge_eating" not in claims and "low_mood" in claims
    assert not {e.concept for e in check_note(case, _chart(note, *_TURNS)).errors} & {"nightmares", "binge_eating"}
    judge = OfflineJudge()
    assert not {"nightmares", "binge_eating"} & set(judge.readings(case, _chart(note, *_TURNS))["note"].unsupported_claims)
    # said without the words, the same findings are claims the encounter never raised
    asserted = "History of present illness: Reports low mood. Has nightmares and binge eating."
    assert {"nightmares", "binge_eating"} <= {e.concept for e in check_note(case, _chart(asserted, *_TURNS)).errors}



_CLOSED_RISK = "Have you had thoughts of ending your life?"


@settings(max_examples=40, deadline=None)
@given(
    opener=st.sampled_from(["The thought crosses my mind", "The thought has crossed my mind", "It has crossed my mind",
                            "It's crossed my mind", "Well, it has crossed my mind", "It crosses my mind sometimes"]),
    rest=st.sampled_from([".", ", but I wouldn't act on it.", ", but I'd never do anything. My kids keep me going."]),
)
def test_a_passing_thought_crossing_the_mind_answers_the_suicide_question(opener, rest):
    # stop 30: "The thought crosses my mind, but I wouldn't act on it." (a generated record's passive ideation) was
    # read as no answer by both readers: the clinician's reader (answers.json) and the judge's (cues.json bare_answers)
    from mentalhospital_env.rewards.mentaleval.precision import omitted_findings

    case = calibration_case()
    reply = opener + rest
    assert "suicidal_ideation" in read_reply(_CLOSED_RISK, reply).affirmed, reply
    denies = "Presenting complaint: low mood. Risk assessment: denies suicidal ideation; no plan or intent."
    errors = check_note(case, _chart(denies, (_CLOSED_RISK, reply))).errors
    assert [e.why for e in errors if e.concept == "suicidal_ideation"] == ["affirmed by the patient"], errors
    # a note that leaves the disclosure out has omitted it
    assert "suicidal_ideation" in omitted_findings(case, _chart("Presenting complaint: low mood.", (_CLOSED_RISK, reply)))
    # the same words negated are a denial: the note recording it as one is right, and nothing was omitted
    never = "It has never crossed my mind" + rest
    assert "suicidal_ideation" in read_reply(_CLOSED_RISK, never).denied
    assert not [e for e in check_note(case, _chart(denies, (_CLOSED_RISK, never))).errors if e.concept == "suicidal_ideation"]
    assert "suicidal_ideation" not in omitted_findings(case, _chart("Presenting complaint: low mood.", (_CLOSED_RISK, never)))
    # a thought is not an act: the same words to a question about self-harm affirm no self-harm (test-v2's patients
    # give the line to "Have you ever hurt yourself on purpose ...?" too), for either reader
    harm = "Have you ever hurt yourself on purpose, for example by cutting or taking an overdose?"
    assert "self_harm" not in read_reply(harm, reply).affirmed
    assert "self_harm" not in omitted_findings(case, _chart("Presenting complaint: low mood.", (harm, reply)))


def test_a_note_quoting_the_patient_in_the_first_person_still_speaks_of_him():
    """Stop 32: a note quoting the patient ("Honestly, I keep making mistakes") read its own "he" as someone else, so
    "suicidal ideation reported" after he denied it cost nothing."""
    turns = (Turn("Do you have thoughts of suicide?", "No."),)
    quoted = 'History of present illness: He explains: "Honestly, I keep making mistakes." He reports suicidal ideation.'
    for note in (quoted, quoted.replace('He explains: "Honestly, I keep making mistakes."', "He keeps making mistakes.")):
        errors = check_note(calibration_case(), Chart(turns=turns, note=note)).errors
        assert [(e.concept, e.why) for e in errors if e.concept == "suicidal_ideation"] == [("suicidal_ideation", "denied by the patient")]
    # the patient's own "I" outside quotation marks still makes "he" someone else
    from mentalhospital_env.knowledge.language import clauses

    assert [c.subject for c in clauses("I worry about him. He has no thoughts of suicide.")] == ["patient", "other"]
    assert [c.subject for c in clauses('He says: "I worry." He has no thoughts of suicide.')][-1] == "patient"


def _rated_note(note_id):
    import json
    from pathlib import Path

    from mentalhospital_env.cases import load_case
    from mentalhospital_env.rewards.chart import Chart, Turn

    data = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "judge_agreement"
    row = next(json.loads(line) for line in open(data / "ratings.jsonl", encoding="utf-8") if f'"{note_id}"' in line)
    encounter = next(e for e in json.loads((data / "encounters.json").read_text("utf-8"))["encounters"] if e["case_id"] == row["case_id"])
    case = load_case(next(c for c in json.loads((data / "records.json").read_text("utf-8"))["cases"] if c["case_id"] == row["case_id"]))
    turns = tuple(Turn(t["doctor"], t["patient"]) for t in encounter["turns"])
    return case, Chart(turns=turns, exam_results=tuple(tuple(r) for r in encounter["exam_results"]), note=row["text"])


def test_a_general_denial_of_hallucinations_is_held_against_voices_described_in_plain_words():
    """Stop 37 (issue 15): held_out36 test-v2-0252, 'Do you ever hear voices or sounds when nobody is around?' 'Nobody
    else seems to hear them. They talk to each other about what I do.' The findings reader the scripted clinician
    writes from read a denial, the note said 'Perception: denies hallucinations' (rated 1) and the checker, sharing the
    reader and reading no claim in 'hallucinations', found nothing."""
    import dataclasses

    from mentalhospital_env.rewards.mentaleval import OfflineJudge
    from mentalhospital_env.rewards.mentaleval.precision import check_note, note_claims, reply_evidence

    question = "Do you ever hear voices or sounds when nobody is around?"
    affirmed, denied = reply_evidence(question, "Nobody else seems to hear them. They talk to each other about what I do.")
    assert "auditory_hallucinations" in affirmed and "auditory_hallucinations" not in denied
    affirmed, denied = reply_evidence(question, "No. Nobody talks to me when there's no one there.")
    assert "auditory_hallucinations" not in affirmed
    # the plain words count only as the answer to a question about voices
    affirmed, _ = reply_evidence("How do your family get on?", "They talk to each other about what I do.")
    assert "auditory_hallucinations" not in affirmed
    assert ("auditory_hallucinations", False) in note_claims("Perception: denies hallucinations.")
    assert ("auditory_hallucinations", True) in note_claims("Perception: reports auditory hallucinations.")
    assert ("auditory_hallucinations", False) not in note_claims("Perception: reports auditory hallucinations.")
    case, chart = _rated_note("note-614")
    errors = check_note(case, chart).errors
    assert [(e.concept, e.kind, e.serious) for e in errors if e.asserted == "absent"] == [("auditory_hallucinations", "affirmed", True)]
    mended = dataclasses.replace(chart, note=chart.note.replace("Perception: denies hallucinations.", "Perception: hears voices that talk to each other about her."))
    assert mended.note != chart.note and not check_note(case, mended).errors
    judge = OfflineJudge(dimensions=("note_quality",))
    assert judge.score(case, chart)["note_quality"] <= 2.0 < judge.score(case, mended)["note_quality"]


def test_the_readers_reading_stands_only_in_plain_words():
    """Stop 37: the checker no longer takes the scripted clinician's reader at its word where the words do not say the
    finding: 'fights when I get wound up' is anger, not restlessness (held_out36 test-v2-0114, rated 3); 'after a diagnosis
    of serious illness' is no fear of illness (held_out32 test-v2-0428, rated 3)."""
    from mentalhospital_env.rewards.mentaleval.precision import check_note, reply_evidence

    yes, _ = reply_evidence("When you are angry with someone, what goes through your mind?", "I've been in fights when I get wound up.")
    assert "restlessness" not in yes
    yes, _ = reply_evidence("In your own words, how would you describe your mood right now?", "I feel wound up.")
    assert "restlessness" in yes
    yes, _ = reply_evidence("Was anything going on in your life around the time it started?",
                            "My family says in April, after a diagnosis of serious illness, I kept cancelling plans.")
    assert "health_anxiety" not in yes
    for note_id, concept in (("note-606", "restlessness"), ("note-474", "health_anxiety")):
        case, chart = _rated_note(note_id)
        assert (concept, "present", "never") in {(e.concept, e.asserted, e.kind) for e in check_note(case, chart).errors}


def test_bullying_that_was_done_to_the_patient_is_no_cruelty():
    """Stop 42: 'bullying' alone is the lexicon's clinical term for cruelty, but a note or a reply names it as often as
    what was done to the patient. Raters gave 5 to complete hand-written notes of held_out41 and held_out42 that record
    bullying at school under safeguarding, which the judge charged as cruelty that never came up; held_out29's scripted
    note asserted cruelty to people or animals from a reply about being bullied (rated 2, scored 4.5). Cruelty is
    read only where the text says the act is the patient's."""
    from mentalhospital_env.rewards.mentaleval.precision import check_note, reply_evidence

    assert ("cruelty", True) not in note_claims("Safeguarding: looked-after child, bullying, school absence.")
    assert ("cruelty", True) not in note_claims("Mother reports bullying at school.")
    assert ("cruelty", True) in note_claims("He bullies younger kids and has kicked the dog.")
    assert ("cruelty", True) in note_claims("Conduct: cruelty to people or animals.")
    yes, _ = reply_evidence("Was anything going on in your life around the time it started?", "It started in the weeks after bullying about my weight.")
    assert "cruelty" not in yes
    yes, _ = reply_evidence("How do you treat animals or people smaller than you when you are angry?", "I bully smaller kids sometimes.")
    assert "cruelty" in yes
    for note_id in ("note-807", "note-847"):  # complete notes rated 5 that record bullying the child suffered
        case, chart = _rated_note(note_id)
        assert "bullying" in chart.note.lower()
        assert "cruelty" not in {e.concept for e in check_note(case, chart).errors}
    case, chart = _rated_note("note-405")  # the scripted note asserting cruelty from a reply about being bullied
    assert ("cruelty", "present", "never") in {(e.concept, e.asserted, e.kind) for e in check_note(case, chart).errors}


def test_a_claim_error_carries_its_kind_and_is_weighed_by_it():
    """Review debt (stop 37): claim_error_weight read an error's kind from the first word of its reason text."""
    import pytest

    from mentalhospital_env.rewards.mentaleval.offline import claim_error_weight
    from mentalhospital_env.rewards.mentaleval.precision import CLAIM_ERROR_KINDS, ClaimError

    assert set(CLAIM_ERROR_KINDS) == {"denied", "affirmed", "never", "contradicts"}
    worded = ClaimError("low_mood", "present", "the patient said the opposite", False, "denied")
    assert claim_error_weight(worded) == claim_error_weight(ClaimError("low_mood", "present", "denied by the patient", False, "denied"))
    assert claim_error_weight(ClaimError("low_mood", "present", "denied by the patient", False, "never")) < claim_error_weight(worded)
    with pytest.raises(ValueError, match="kind"):
        ClaimError("low_mood", "present", "denied by the patient", False, "denied by the patient")


def test_elevated_mood_asserted_beside_denied_hypomanic_episodes_contradicts_the_note():
    """Stop 37: held_out33 test-v2-0326, a plainly manic woman whose note asserts elevated mood and says 'denies
    hypomanic episodes' with no word on her insight (rated 3, scored 5)."""
    from mentalhospital_env.rewards.mentaleval.precision import check_note

    case, chart = _rated_note("note-506")
    assert ("elevated_mood", "contradicts") in {(e.concept, e.kind) for e in check_note(case, chart).errors}


def test_the_topic_of_a_question_the_note_reports_is_no_claim():
    """Stop 41 (held_out38 note-687, held_out40 note-767 and note-784, rated 5): 'When asked about intrusive thoughts
    said ...' reports what was asked, not a finding; it was charged as obsessions asserted that never came up. A
    note that says the question went unanswered still says so, and what the patient said after it is still read."""
    claims = dict(note_claims("History: when asked about intrusive thoughts she said she watches the clock. Low mood."))
    assert "obsessions" not in claims and claims.get("low_mood") is True
    claims = dict(note_claims("Risk: passive wish. When asked about past self-harm he repeated the passive wish."))
    assert "self_harm" not in claims
    claims = dict(note_claims("Self-care poor (repeated when asked about worries and about intrusive thoughts)."))
    assert "obsessions" not in claims and "excessive_worry" not in claims
    # "asked about and not answered" is the note saying the question went unanswered: no claim either way, as before
    assert "suicidal_ideation" not in dict(note_claims("Risk: Suicidal thoughts were asked about and not answered."))
    # without the reported question the same words are a claim
    assert dict(note_claims("History: intrusive thoughts most days.")).get("obsessions") is True


def test_an_impression_line_infers_but_may_not_assert_what_the_patient_denied():
    """Stop 41 (held_out32 note-460, held_out34 note-527, held_out38 note-717, rated 4-5): 'Imp: panic disorder with
    agoraphobia' in a terse note names a diagnosis with its feature, the clinician's inference, which the encounter
    need not have raised in the same words: no 'never came up' error. The same line asserting a finding the patient
    denied is still an error (held_out40 note-800, rated 1: 'Imp: recurrent MDD with passive SI - high risk')."""
    case = calibration_case()
    turns = (
        ("What brings you here today?", "I keep having these attacks where my heart pounds and I think I'm dying."),
        ("Have you had any thoughts of ending your life?", "No, never, I've never had thoughts of ending my life."),
    )
    inferred = "Attacks of pounding heart and fear of dying. Denies suicidal thoughts.\nImp: panic disorder with agoraphobic avoidance."
    errors = {(e.concept, e.kind) for e in check_note(case, _chart(inferred, *turns)).errors}
    assert ("agoraphobic_avoidance", "never") not in errors, errors
    # the same words in the history are the note's own claim, and never came up
    told = "Attacks of pounding heart and fear of dying, with agoraphobic avoidance. Denies suicidal thoughts."
    assert ("agoraphobic_avoidance", "never") in {(e.concept, e.kind) for e in check_note(case, _chart(told, *turns)).errors}
    denied = "Attacks of pounding heart and fear of dying.\nImp: panic disorder with suicidal ideation - high risk."
    assert ("suicidal_ideation", "denied") in {(e.concept, e.kind) for e in check_note(case, _chart(denied, *turns)).errors}


@pytest.mark.parametrize(
    "denial",
    [
        "Denies: low energy, poor concentration, appetite loss, memory problems, panic attacks, obsessional thoughts.",
        "Negatives: denies low energy, poor concentration, appetite loss, memory problems, panic attacks, obsessional thoughts.",
        "He denies low energy, poor concentration, appetite loss, memory problems, panic attacks or obsessional thoughts.",
        "Mood low; denies low energy, poor concentration, appetite loss, memory problems, panic attacks, obsessional thoughts.",
    ],
)
def test_a_denial_heading_its_sentence_denies_its_whole_list(denial):
    """Stop 41 (issue 15; held_out41's note-807, note-816, note-825, held_out32's note-448 ... rated 5 and scored 1-2):
    'Denies: A, B, ..., K.' lists denials; the colon after the cue broke the denial, and items late in a long list lost
    its scope, so the denied findings were read as claims the encounter never raised. A denial that heads its sentence
    reaches the end of the sentence, colon or no colon."""
    case = calibration_case()
    note = f"History of present illness: Reports low mood. {denial}"
    listed = {"fatigue", "poor_concentration", "memory_loss", "obsessions"}
    claims = dict(note_claims(note))
    assert claims.get("low_mood") is True
    assert not {c for c in listed if claims.get(c) is True}, claims
    assert {c for c in listed if claims.get(c) is False} == listed, claims
    assert not listed & {e.concept for e in check_note(case, _chart(note, *_TURNS)).errors if e.asserted == "present"}
    reading = OfflineJudge().readings(case, _chart(note, *_TURNS))["note"]
    assert not listed & set(reading.unsupported_claims), reading.unsupported_claims


def test_a_denial_list_stops_where_the_sentence_affirms_or_ends():
    """Stop 41: the other direction (stop 40's wider negation scope lowered held_out40: a denial reached across findings
    the note affirmed). A list's denial ends at a contrast or an affirming verb and at the sentence's end; what follows
    is affirmed, and charged where the encounter never raised it."""
    case = calibration_case()
    note = "History: Denies: low energy, panic attacks but reports obsessional thoughts and memory problems."
    claims = dict(note_claims(note))
    assert claims.get("fatigue") is False and claims.get("obsessions") is True and claims.get("memory_loss") is True
    reading = OfflineJudge().readings(case, _chart(note, *_TURNS))["note"]
    assert {"obsessions", "memory_loss"} <= set(reading.unsupported_claims) and "fatigue" not in reading.unsupported_claims
    note = "History: Denies low energy. Obsessional thoughts most days, memory problems."
    claims = dict(note_claims(note))
    assert claims.get("fatigue") is False and claims.get("obsessions") is True and claims.get("memory_loss") is True
    assert {"obsessions", "memory_loss"} <= set(OfflineJudge().readings(case, _chart(note, *_TURNS))["note"].unsupported_claims)


@pytest.mark.xfail(strict=True, reason="stop 41, left alone: the lexicon's own negation window (6 tokens after 'no') "
                   "reaches findings the note affirms after a comma; narrowing it is the change that lowered held_out40")
def test_a_no_inside_a_sentence_does_not_deny_the_affirmed_findings_after_it():
    claims = dict(note_claims("History: Low mood for months with no energy, constant guilt, hopelessness and memory problems."))
    assert claims.get("guilt") is True and claims.get("hopelessness") is True and claims.get("memory_loss") is True


def test_a_finding_the_note_says_was_not_explored_or_answered_is_no_claim():
    """Stop 41: 'Energy, sleep and appetite: questions not answered directly'; 'plan, intent and preparation not explored
    ... must be asked'; 'Tobacco not asked': the note names what it does not know, no claim of it either way."""
    for text in ("History: Low energy and poor concentration: questions not answered directly.",
                 "History: Low energy and poor concentration not explored in this interview and must be asked.",
                 "History: Low energy, poor concentration: not asked."):
        claims = dict(note_claims(text))
        assert "fatigue" not in claims and "poor_concentration" not in claims, (text, claims)


def test_a_risk_the_note_formulates_asserts_no_finding():
    """Stop 51 (held_out50 note-5010 and note-5039, rated 5: 'denied SI/overdose ... all as she gave them'): an opioid
    note's 'Overdose risk from daily opioid use' is the clinician's estimate of an accidental overdose, not a past
    overdose; it was read as self-harm asserted ('never came up', 'denied by the patient') and capped both notes at
    1-2. A risk named after 'risk of' is read apart the same way; an overdose the note says happened is still a claim,
    and so is what the note reports beside the formulation."""
    assert "self_harm" not in dict(note_claims("Risk: Overdose risk from daily opioid use."))
    assert "self_harm" not in dict(note_claims("Risk: at risk of accidental overdose given reduced tolerance."))
    claims = dict(note_claims("Risk: No suicidal thoughts; no overdoses. Overdose risk from illicit opioids."))
    assert claims.get("suicidal_ideation") is False and "self_harm" not in claims
    assert dict(note_claims("Risk: took an overdose last year; risk of repetition.")).get("self_harm") is True
    assert dict(note_claims("Risk: low risk; reports thoughts of self-harm.")).get("self_harm") is True
    # an impression that asserts what the patient denied stays a claim beside its risk grade
    assert dict(note_claims("Imp: recurrent MDD with passive SI - high risk.")).get("suicidal_ideation") is True
