"""What a supervisor faults in a note's own text lowers Qual. and is listed in the scores' details (issue 15)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.cases import load_case, load_suite
from mentalhospital_env.knowledge.durations import load_durations, read_durations
from mentalhospital_env.knowledge.errors import KnowledgeError
from mentalhospital_env.rewards.chart import Chart, Turn
from mentalhospital_env.rewards.mentaleval import OfflineJudge
from mentalhospital_env.rewards.mentaleval.note_faults import fault_points, note_faults, note_view


@pytest.fixture(scope="module")
def hw():
    return load_suite("handwritten")


GOOD_040 = """Identifying data: Emergency department. A 13-year-old girl, accompanied by her mother.
Chief complaint: "I took 14 ibuprofen tablets at school."
History of present illness: Three months of low mood, poor sleep and poor appetite. She took an overdose of ibuprofen at school today intending to die, after two weeks of thoughts of not waking up.
Medications: No regular medicines; salbutamol inhaler when needed.
Family history: Her mother had postnatal depression.
Mental status examination: Low mood, tearful, no psychotic features.
Risk assessment: High. Overdose today with intent; recent self-cutting; online sexual extortion by an unknown person (safeguarding referral today).
Assessment: Severe depressive episode after an overdose, with online sexual exploitation.
Plan: see treatment plan."""


def _faults(case, note, **chart):
    return note_faults(case, Chart(note=note, **chart))


def test_a_sound_note_has_no_fault(hw):
    assert _faults(hw["hw-040"], GOOD_040) == ()


def test_each_fault_is_found_and_lowers_qual(hw):
    case = hw["hw-040"]
    judge = OfflineJudge(dimensions=("note_quality",))
    good = judge.score(case, Chart(note=GOOD_040))["note_quality"]
    variants = {
        "garbled_quote": GOOD_040.replace(
            "Medications: No regular medicines; salbutamol inhaler when needed.",
            'Medications: "About 64 mg/kg from me\'s bathroom cabinet, the tablets."',
        ),
        "third_person_quote": GOOD_040.replace(
            "Mental status examination:", 'Personal history: "Then, with encouragement, she disclosed the messages."\nMental status examination:'
        ),
        "chief_complaint": GOOD_040.replace('"I took 14 ibuprofen tablets at school."', "not stated."),
        "misfiled_section": GOOD_040.replace(
            "Family history: Her mother had postnatal depression.", 'Family history: "I had postnatal depression."'
        ),
        "main_risk_omitted": GOOD_040.replace(
            "online sexual extortion by an unknown person (safeguarding referral today)", "protective: her mother"
        ),
    }
    for kind, note in variants.items():
        found = _faults(case, note)
        assert [f.kind for f in found] == [kind], (kind, found)
        assert judge.score(case, Chart(note=note))["note_quality"] < good, kind


def test_the_risk_section_must_name_the_main_risk_not_the_results(hw):
    note = GOOD_040.replace("Overdose today with intent; recent self-cutting; ", "").replace(
        "Assessment:", "Investigations: C-SSRS: actual attempt today.\nAssessment:"
    )
    kinds = sorted(f.text for f in _faults(hw["hw-040"], note))
    assert kinds == ["overdose or suicide attempt", "self-harm"]


def test_a_denied_risk_in_the_record_is_no_main_risk(hw):
    # hw-002: "no weapons"; hw-025: "no history of self-harm"; neither is graded high
    for cid in ("hw-002", "hw-025", "hw-009"):
        note = "Chief complaint: low mood.\nRisk assessment: Denies suicidal ideation.\nAssessment: see above."
        assert not [f for f in _faults(hw[cid], note) if f.kind == "main_risk_omitted"], cid


def test_diagnosis_made_before_its_duration_unless_hedged(hw):
    case = hw["hw-002"]
    turns = (Turn("How long has this been going on?", "For four days now."),)
    base = "Chief complaint: brought in by flatmates.\nHistory of present illness: Four days of voices.\nAssessment: {}"

    def kinds(assessment, disorders):  # what the note's own history says (the record's diagnosis is tested below)
        return [f.kind for f in _faults(case, base.format(assessment), turns=turns, disorders=disorders)
                if f.kind.startswith("diagnosis") and f.kind not in ("diagnosis_against_record", "diagnosis_missed")]

    assert kinds("Paranoid schizophrenia.", ("F20.0 Paranoid schizophrenia",)) == ["diagnosis_duration"]
    assert kinds("Working diagnosis: paranoid schizophrenia if symptoms persist.", ("F20.0 Paranoid schizophrenia",)) == []
    assert kinds("Brief psychotic disorder.", ("F23 Brief psychotic disorder",)) == []
    # kept provisional, but the note itself names the disorder that fits four days: the principal is the wrong one
    assert kinds("Paranoid schizophrenia, provisional: the diagnosis needs a month. Differential: brief psychotic disorder.",
                 ()) == ["diagnosis_duration"]
    # the principal is read from the assessment when the chart has no ranked list (a hand-written note)
    assert kinds("Paranoid schizophrenia.", ()) == ["diagnosis_duration"]



def test_a_length_within_the_day_is_no_illness_duration(hw):
    # stop 29: a complete alcohol note ("sleeps about four hours") read as an illness of four hours, a dependence
    # diagnosed before its month
    case = hw["hw-002"]
    note = ("Chief complaint: brought in by flatmates.\nHistory of present illness: Voices since the age of 19; {}.\n"
            "Assessment: Paranoid schizophrenia.")

    def kinds(history):
        return [f.kind for f in _faults(case, note.format(history), disorders=("F20.0 Paranoid schizophrenia",))
                if f.kind == "diagnosis_duration"]

    assert kinds("sleeps about four hours a night") == []
    assert kinds("the voices last about ten minutes at a time") == []
    # counted back from now, hours are how long the illness has lasted
    assert kinds("the voices began six hours ago") == ["diagnosis_duration"]
    assert kinds("hearing voices for the last twelve hours") == ["diagnosis_duration"]
    assert kinds("hearing voices for four days") == ["diagnosis_duration"]

HW015 = """Chief complaint: Refusing food for a week; convinced his insides are rotting.
History of present illness: He refuses food because his insides are rotting. He wakes at 3 a.m. and paces. He feels hopeless and says he wants to die.
Mental status examination: Hopeless; nihilistic somatic delusion; no hallucinations; no insight.
Risk assessment: {risk}
Investigations: C-SSRS: wish to die with method considered (rope), intent unclear; 4/6 (high risk).
Assessment: Severe depressive episode with psychotic features.
Plan: see treatment plan."""


def test_a_denial_the_record_or_the_notes_results_contradict_is_false(hw):
    false = _faults(hw["hw-015"], HW015.format(risk="Wants to die. Denies self-harm."))
    assert "false_denial" in [f.kind for f in false]
    true = _faults(hw["hw-015"], HW015.format(risk="High: wants to die; method considered (a rope in the garage)."))
    assert "false_denial" not in [f.kind for f in true]
    # a graded risk to others in the record: "Denies homicidal ideation. No risk to others." is false reassurance
    note = ("Chief complaint: people come through the loft.\nHistory of present illness: For eight months he has believed"
            " that people come through the loft and take his things.\nRisk assessment: {}\nAssessment: Delusional disorder.")
    assert "false_denial" in [f.kind for f in _faults(hw["hw-024"], note.format("Denies homicidal ideation. No risk to others."))]
    reported = note.format("Says he has not wanted to hurt anybody, but there is a risk to the neighbours to review.")
    assert "false_denial" not in [f.kind for f in _faults(hw["hw-024"], reported)]


def test_a_diagnosis_without_a_feature_it_requires_is_unsupported(hw):
    turns = (Turn("How has your mood been?", "I'm not depressed, I'm angry."),
             Turn("What do you enjoy?", "I haven't lost interest in things."))
    note = ("Chief complaint: people come through the loft.\nHistory of present illness: For eight months he has believed"
            " that people come through the loft and take his things.\nAssessment: {}")
    depressed = _faults(hw["hw-024"], note.format("Severe depressive episode with psychotic features."), turns=turns)
    assert [f.text[:3] for f in depressed if f.kind == "diagnosis_unsupported"] == ["F32"]
    delusional = _faults(hw["hw-024"], note.format("Delusional disorder, persecutory type."), turns=turns)
    assert "diagnosis_unsupported" not in [f.kind for f in delusional]
    # an adjustment disorder needs a stressor somewhere in the note, the encounter or the record
    note = "Chief complaint: I've stopped starting things.\nHistory of present illness: Eighteen months of apathy.\nAssessment: {}"
    assert "diagnosis_unsupported" in [f.kind for f in _faults(hw["hw-028"], note.format("Adjustment disorder with depressed mood."))]
    told = (Turn("What was going on when it started?", "It all started when I was made redundant."),)
    assert "diagnosis_unsupported" not in [
        f.kind for f in _faults(hw["hw-028"], note.format("Adjustment disorder with depressed mood."), turns=told)
    ]


def test_the_records_central_finding_left_out(hw):
    note = ("Chief complaint: noises at night.\nHistory of present illness: {}\nMental status examination: Angry.\n"
            "Risk assessment: No suicidal thoughts; the risk to the neighbours is to be reviewed.\nAssessment: Delusional disorder.")
    without = _faults(hw["hw-024"], note.format("He hears banging and whispering through the wall at night."))
    assert [f.text for f in without if f.kind == "central_finding_omitted"] == ["persecutory_delusions"]
    with_it = _faults(hw["hw-024"], note.format("He hears whispering at night and has a fixed persecutory belief about intruders."))
    assert "central_finding_omitted" not in [f.kind for f in with_it]


def test_an_answer_to_another_question_under_a_label(hw):
    note = 'Chief complaint: "I was brought in by my flatmates."\nPersonal history: Childhood: "I was an only child." Marital status: {}\nAssessment: Brief psychotic disorder.'
    kinds = lambda text: [f.kind for f in _faults(hw["hw-002"], note.format(text)) if f.kind == "misfiled_answer"]
    assert kinds('"As I said, I was an only child."') == ["misfiled_answer"]
    assert kinds("single, no partner.") == []
    assert kinds('"No, I\'m not in a relationship."') == []


def test_fault_points_are_capped_per_kind(hw):
    note = GOOD_040.replace(
        "Mental status examination:",
        'Personal history: "I have well." "I\'m a domestic abuse." "I have been saw a counselor." "Me\'s cabinet."\nMental status examination:',
    )
    faults = _faults(hw["hw-040"], note)
    garbled = tuple(f for f in faults if f.kind == "garbled_quote")  # the quotes run together are broken punctuation too
    assert len(garbled) == 4
    assert fault_points(garbled) == 1.5


def test_faults_are_in_the_scores_details(hw):
    from mentalhospital_env.rewards.scoring import Scorer

    case = hw["hw-040"]
    scores = Scorer().score(case, Chart(note=GOOD_040.replace('"I took 14 ibuprofen tablets at school."', "not stated.")))
    assert [f["kind"] for f in scores.details["note_faults"]] == ["chief_complaint"]


def test_durations_are_read_from_speech():
    d = load_durations()
    assert d.said_days("For four days now.") == (4.0,)
    assert d.said_days("Over about three months I've been sad.") == (91.2,)
    assert d.said_days("a couple of weeks ago") == (14.0,)
    assert d.said_days("for about two and a half years I've had pain") == (912.5,)
    assert d.said_days("She weighs 44 kg and has 28-day cycles.") == ()
    assert d.said_days("over the following weeks he stopped") == ()
    assert d.said_days("Otherwise about four units a week.") == () and d.said_days("For a week now.") == (7.0,)
    assert d.said_days("over the following weeks he stopped", bare_plurals=True) == (14.0,)


def test_one_table_of_duration_limits():
    """ICD-10 where it states a duration (schizophrenia: a month), DSM-5 where it does not; limits by age."""
    d = load_durations()
    assert d.minimum_days("F20.0") == 30 and d.minimum_days("F23") is None and d.maximum_days("F23") == 31
    assert d.minimum_days("F22") == 90
    assert d.minimum_days("F93.0", age=9) == 28 and d.minimum_days("F93.0", age=30) == 180
    assert d.minimum_days("F34.1", age=15) == 365 and d.minimum_days("F34.1", age=40) == 730
    assert d.fits("F23", 4) and not d.fits("F23", 60) and not d.fits("F20.0", 4)
    assert {r.source for r in d.rules.values()} == {"ICD-10", "DSM-5"}


def test_the_audit_reads_durations_with_the_same_parser():
    from mentalhospital_env.cases.audit import durations_in

    d = load_durations()
    for text in ("three months of low mood", "for two more weeks", "two and a half years", "a 28-day cycle", "44 kg"):
        assert durations_in(text) == list(d.said_days(text, gated=False))
    assert durations_in("three months of low mood") == [91.2]  # a record's duration counts without a marker word


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=1, max_value=400), unit=st.sampled_from(["days", "weeks", "months", "years"]),
       lead=st.sampled_from(["for", "over the last", "for the past", ""]), tail=st.sampled_from(["", " ago"]))
def test_said_days_reads_any_count_and_unit(n, unit, lead, tail):
    d = load_durations()
    text = f"It has been {lead} {n} {unit}{tail}.".replace("  ", " ")
    said = d.said_days(text)
    if lead or tail:
        assert said == (pytest.approx(n * d.units[unit]),)
    else:
        assert said == ()


def test_malformed_durations_name_entry_and_field():
    good = {"hedges": ["provisional"], "markers": ["for"], "units": {"day": 1}, "numbers": {"one": 1}}
    entry = {"what": "x", "source": "ICD-10"}
    with pytest.raises(KnowledgeError, match="F20.*min"):
        read_durations({**good, "disorders": {"F20": {**entry, "min": 0}}})
    with pytest.raises(KnowledgeError, match="F20.*needs a 'min' or a 'max'"):
        read_durations({**good, "disorders": {"F20": entry}})
    with pytest.raises(KnowledgeError, match="F99.*matches no disorder"):
        read_durations({**good, "disorders": {"F99": {**entry, "min": 3}}}, ["F20.0"])
    with pytest.raises(KnowledgeError, match="units"):
        read_durations({**good, "units": {"day": -1}, "disorders": {}})
    with pytest.raises(KnowledgeError, match="disorders"):
        read_durations(good)


HW001 = """Chief complaint: Two months of feeling down and getting no pleasure from things.
History of present illness: For two months she has felt flat and no longer enjoys running. {sleep}
Mental status examination: Mood flat. Denies hearing voices.
Risk assessment: Wants to die; no plan, no intent.
Assessment: {assessment}
Plan: see treatment plan."""
HW001_TURNS = (Turn("How have you been sleeping?", "I've been lying awake every night."),)


def test_a_denied_finding_the_patient_affirmed_is_false_whatever_its_kind(hw):
    """Not only risks: "Denies insomnia" beside "I've been lying awake every night" is a false denial, counted in the
    details and lowering Qual."""
    case = hw["hw-001"]
    assessment = "Recurrent depressive disorder, current episode moderate."
    false = _faults(case, HW001.format(sleep="She denies insomnia.", assessment=assessment), turns=HW001_TURNS)
    assert [f.text for f in false if f.kind == "finding_denied"] == ["insomnia: the patient affirmed it"]
    true = _faults(case, HW001.format(sleep="She lies awake at night.", assessment=assessment), turns=HW001_TURNS)
    assert "finding_denied" not in [f.kind for f in true]
    judge = OfflineJudge(dimensions=("note_quality",))
    score = lambda sleep: judge.score(case, Chart(turns=HW001_TURNS, note=HW001.format(sleep=sleep, assessment=assessment)))["note_quality"]
    assert score("She denies insomnia.") < score("She lies awake at night.")


def test_a_specifier_the_notes_own_findings_or_scales_contradict(hw):
    case = hw["hw-001"]
    kinds = lambda assessment, **chart: [
        f.text for f in _faults(case, HW001.format(sleep="She lies awake.", assessment=assessment), turns=HW001_TURNS, **chart)
        if f.kind == "diagnosis_specifier"
    ]
    # "with psychotic features" in a note that records no delusion or hallucination, in any words
    assert kinds("Recurrent depressive disorder, current episode severe with psychotic features.")
    assert kinds("Bipolar affective disorder, current episode severe depression with psychotic features.")
    assert kinds("Recurrent depressive disorder, current episode severe without psychotic features.") == []
    # severity held against the depression scales on file
    moderate = (("PHQ-9", "total 13/27 (moderate)"), ("HAM-D", "total 17/52 (moderate)"))
    assert kinds("Recurrent depressive disorder, current episode severe.", exam_results=moderate)
    assert kinds("Recurrent depressive disorder, current episode moderate.", exam_results=moderate) == []
    assert kinds("Recurrent depressive disorder, current episode severe.", exam_results=(("PHQ-9", "20/27 (moderately severe)"),)) == []
    # "without psychotic features" beside a delusion the note states
    note = HW001.format(sleep="She believes her insides are rotting (a nihilistic delusion).",
                        assessment="Severe depressive episode without psychotic features.")
    assert [f.kind for f in _faults(case, note) if "record's diagnosis" not in f.text].count("diagnosis_specifier") == 1
    # no mood episode, no specifier: "Brief psychotic disorder" is not "with psychotic features"
    assert kinds("Brief psychotic disorder.") == []


def _misfiled(hw, heading, text):
    """The misfiled answers of a short note of hw-002 with ``text`` after ``heading``."""
    note = f'Chief complaint: "I was brought in by my flatmates."\n{heading} {text}\nAssessment: Brief psychotic disorder.'
    return [f.kind for f in _faults(hw["hw-002"], note) if f.kind == "misfiled_answer"]


def test_answers_filed_under_admission_sleep_or_alcohol_labels(hw):
    kinds = lambda text: _misfiled(hw, "Past psychiatric history: None.", text)
    assert kinds('Previous psychiatric admission: "My mood\'s wound up, I\'d say."') == ["misfiled_answer"]
    assert kinds('Previous psychiatric admission: "I\'ve never been in hospital for my mental health."') == []
    assert kinds('Alcohol use: "I\'ve been studying biology."') == ["misfiled_answer"]
    assert kinds('Alcohol use: "A glass of wine at the weekend."') == []
    assert kinds('Sleep: "My family brought me in."') == ["misfiled_answer"]


def _assessment_note(assessment):
    return ("Chief complaint: \"I can't get it out of my head.\"\nHistory of present illness: Low mood and poor sleep.\n"
            f"Assessment: {assessment}\nPlan: see treatment plan.")


def _frozen(case_id):
    """A test-v2 record as the judge-agreement data froze it (a redrawn suite holds another patient under the id)."""
    import json
    from pathlib import Path

    data = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "judge_agreement" / "records.json"
    return load_case(next(c for c in json.loads(data.read_text("utf-8"))["cases"] if c["case_id"] == case_id))


def test_the_records_own_diagnosis_read_from_codes():
    ptsd = _frozen("test-v2-0472")  # F43.10 with a comorbid F32.1
    comorbid = len(ptsd.diagnosis.disorders) - 1
    assert ptsd.diagnosis.disorders[0].code.startswith("F43.1") and comorbid >= 1
    kinds = lambda case, text: sorted(f.kind for f in _faults(case, _assessment_note(text)) if f.kind.startswith("diagnosis_"))
    # the record's principal made: no fault of this kind; its comorbid ones left out, a smaller one each, when the
    # encounter gave what they rest on (stop 39: the depression only where the patient told of low mood; F51.5 has no
    # required features to read and is charged either way)
    made = kinds(ptsd, "Post-traumatic stress disorder with a moderate depressive episode and nightmares.")
    assert "diagnosis_against_record" not in made
    low = (Turn("How has your mood been?", "Really low, most days. I can't enjoy anything any more."),)
    told = lambda case, text: sorted(f.kind for f in _faults(case, _assessment_note(text), turns=low) if f.kind.startswith("diagnosis_"))
    assert told(ptsd, "Post-traumatic stress disorder.").count("diagnosis_missed") == min(comorbid, 2)
    assert kinds(ptsd, "Post-traumatic stress disorder.").count("diagnosis_missed") == min(comorbid, 2) - 1
    # the principal demoted to a differential is not made
    assert "diagnosis_against_record" in kinds(ptsd, "Major depressive disorder, single episode, moderate. Differential diagnosis includes post-traumatic stress disorder.")
    # a symptom's word in the list of features is no diagnosis ("insomnia" is also primary insomnia's name)
    feature_list = "The presentation, with insomnia, low mood and flashbacks, is most consistent with post-traumatic stress disorder."
    assert "diagnosis_against_record" not in kinds(ptsd, feature_list)
    # a note that makes no diagnosis is not held against the record here
    assert kinds(ptsd, "To be clarified at review.") == []


def test_a_specifier_the_record_contradicts():
    suite = load_suite("test-v2")
    combined = suite["test-v2-0167"]  # ADHD, combined type
    texts = lambda case, text: [f.text for f in _faults(case, _assessment_note(text)) if f.kind == "diagnosis_specifier"]
    assert texts(combined, "Attention-deficit hyperactivity disorder, predominantly inattentive type.") == [
        "F90.0 where the record's diagnosis is F90.2"
    ]
    assert texts(combined, "Attention-deficit hyperactivity disorder, combined type.") == []
    first = suite["test-v2-0239"]  # a first moderate depressive episode
    assert texts(first, "Recurrent depressive disorder, current episode moderate.") == ["F33.1 where the record's diagnosis is F32.1"]
    # a grade is read from the encounter, not held against the record's code
    assert texts(first, "Major depressive disorder, single episode, severe without psychotic features.") == []


def test_a_wrong_diagnosis_lowers_qual():
    """The scripted clinician's note of test-v2-0129 (dissociative identity disorder written up as paranoid schizophrenia),
    frozen with its encounter and its record in the judge-agreement data: the record's own diagnosis in its place scores higher."""
    import json
    from pathlib import Path

    data = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "judge_agreement"
    row = next(json.loads(line) for line in open(data / "ratings.jsonl", encoding="utf-8") if '"note-099"' in line)
    encounter = next(e for e in json.loads((data / "encounters.json").read_text("utf-8"))["encounters"] if e["case_id"] == row["case_id"])
    case = _frozen(row["case_id"])  # the record the note was written and rated against
    turns = tuple(Turn(t["doctor"], t["patient"]) for t in encounter["turns"])
    results = tuple(tuple(r) for r in encounter["exam_results"])
    judge = OfflineJudge(dimensions=("note_quality",))
    score = lambda note: judge.score(case, Chart(turns=turns, exam_results=results, note=note))["note_quality"]
    assert "most consistent with Paranoid schizophrenia" in row["text"]
    right = row["text"].replace("Paranoid schizophrenia. Differential diagnosis includes Schizophrenia, unspecified", "Dissociative identity disorder")
    assert right != row["text"]
    # what the wrong diagnosis costs, read from the faults (the note's other faults, its symptom-list history and broken
    # punctuation, bring both notes near the floor of 1, where a score difference cannot show the cost in full)
    points = lambda note: fault_points(note_faults(case, Chart(turns=turns, exam_results=results, note=note)))
    assert points(row["text"]) >= points(right) + 1.5
    assert score(row["text"]) < score(right)


FULL_001 = """Identifying data: Outpatient clinic. A woman in her thirties, seen alone.
Chief complaint: "I just feel flat all the time."
History of present illness: {hpi}
Past psychiatric history: She saw her GP about her mood once, years ago, and was not treated.
Medications: She takes no regular medicines.
Family history: Her mother was treated for depression.
Personal history: She works as a teacher and lives with her partner.
Mental status examination: She was quiet and tearful at times, with slowed speech. She described her mood as flat. She has no abnormal beliefs and hears no voices.
Risk assessment: She has had passing thoughts that she would be better off asleep and not waking, with no plan or intent.
Assessment: A moderate depressive episode, her first, after her redundancy in the spring.
Plan: see treatment plan."""

NARRATIVE = ("She describes two months of low mood that began after she was made redundant in the spring. "
             "She has lost interest in seeing friends and in her running, and she sleeps badly, waking at four. "
             "Her concentration is poor and she has stopped applying for work.")


def test_a_history_written_as_a_symptom_list_not_a_narrative(hw):
    def kinds(hpi):
        return [f.kind for f in _faults(hw["hw-001"], FULL_001.format(hpi=hpi)) if f.kind == "symptom_list_history"]

    assert kinds("The patient reports low mood; anhedonia; insomnia; poor concentration.") == ["symptom_list_history"]
    assert kinds('The patient reports low mood; anhedonia; insomnia. Onset and course: "It started in May."') == ["symptom_list_history"]
    assert kinds(NARRATIVE) == []
    # a narrative that also lists symptoms is still a history
    assert kinds(NARRATIVE + " In short: low mood; anhedonia; insomnia.") == []


def test_doubled_or_broken_punctuation(hw):
    case = hw["hw-001"]
    clean = FULL_001.format(hpi=NARRATIVE)
    assert [f for f in _faults(case, clean) if f.kind == "broken_punctuation"] == []
    broken = clean.replace('"I just feel flat all the time."', '"I just feel flat all the time.".').replace(
        "Plan: see treatment plan.", "Investigations: Exam results: ; PHQ-9: 14.\nPlan: see treatment plan.")
    assert [f.kind for f in _faults(case, broken) if f.kind == "broken_punctuation"] == ["broken_punctuation"] * 2
    assert [f for f in _faults(case, clean.replace("waking at four.", "waking at four...")) if f.kind == "broken_punctuation"] == []


def test_a_finding_filed_under_thought_content_that_is_not_a_thought(hw):
    case = hw["hw-001"]
    base = FULL_001.format(hpi=NARRATIVE)

    def misfiled(mse):
        note = base.replace("She has no abnormal beliefs and hears no voices.", mse)
        return [f.text for f in _faults(case, note) if f.kind == "misfiled_answer"]

    assert misfiled("Thought content: depressed mood; anhedonia.") == ["Thought content: low_mood, anhedonia"]
    assert misfiled("Thought content: persecutory delusions about her neighbours.") == []
    assert misfiled("Thought content: no low mood.") == []
    assert misfiled("Thought content: guilt about letting her team down; hopelessness.") == []


def test_a_living_situation_must_say_where_or_with_whom_one_lives(hw):
    living = lambda text: _misfiled(hw, "Personal history: Living situation:", text)
    assert living('"My parents split up when I was nine."') == ["misfiled_answer"]
    assert living('"Mum was ill a lot, I had to care for her."') == ["misfiled_answer"]
    assert living('"I live with my parents."') == []
    assert living('"A rented flat in town."') == []
    # and where one lives is no marital status, though it names a partner
    marital = lambda text: _misfiled(hw, "Personal history: Marital status:", text)
    assert marital('"I rent a first-floor flat with my partner near his family."') == ["misfiled_answer"]
    assert marital('"Married; we live in a rented flat."') == []
    assert marital('"I\'ve got a partner, we\'re not married."') == []


def test_a_diagnosis_whose_features_the_note_never_states(hw):
    # hw-024: he told the doctor he smokes cannabis; a note that makes cannabis dependence must say what it rests on
    case = hw["hw-024"]
    turns = (Turn("Do you use any drugs?", "A bit of weed most nights, I can't do without it, I crave it by the afternoon."),)
    base = ('Chief complaint: "They\'re coming through the loft."\nHistory of present illness: For eight months he believes '
            "people come in through the loft and has called the police nine times. {sub}\nAssessment: Persistent "
            "delusional disorder. Cannabis dependence.\nPlan: see treatment plan.")
    kinds = lambda sub: [f.kind for f in _faults(case, base.format(sub=sub), turns=turns) if f.kind.startswith("diagnosis_features")]
    assert kinds("He smokes cannabis.") == ["diagnosis_features_unstated"]
    assert kinds("He smokes cannabis every night and craves it by the afternoon.") == []


def test_answers_filed_under_occupation_trauma_living_or_mood_labels(hw):
    """What a supervisor found misfiled in the scripted clinician's notes (stop 25): a non-answer or the onset as the
    occupation, the agoraphobic avoidance as the trauma history, a childhood sentence under the living situation, and
    hopelessness or a marriage as the mood word."""
    kinds = lambda text: _misfiled(hw, "Past psychiatric history: None.", text)
    assert kinds('Occupation: "Just the usual, getting through the day."') == ["misfiled_answer"]
    assert kinds('Occupation: "As I said, six months ago things began to change."') == ["misfiled_answer"]
    assert kinds('Occupation: "I\'m a civil servant. When I was 26 it all started."') == ["misfiled_answer"]
    for answer in ("I'm a cleaner.", "I've been a cleaner for 4 years.", "At the moment I'm part-time volunteer at a charity.",
                   "I'm unemployed, looking for work."):
        assert kinds(f'Occupation: "{answer}"') == [], answer
    assert kinds('Trauma history: "Most days I\'m refusing to go out alone in case of an attack."') == ["misfiled_answer"]
    assert kinds('Trauma history: "I was robbed at knifepoint at work."') == []
    assert kinds('Trauma history: "No, nothing like that."') == []
    assert kinds('Living situation: "Home wasn\'t a safe place growing up. I live with my partner."') == ["misfiled_answer"]
    assert kinds('Living situation: "I grew up here and live with my parents now."') == []
    mood = lambda quote: _misfiled(hw, f'Mental status examination: Mood described as "{quote}".', "")
    assert mood("As I said, honestly, I think I'll never get better") == ["misfiled_answer"]
    assert mood("The thing is, I'd say my mood is angry. We've grown apart, to be honest") == ["misfiled_answer"]
    assert mood("My mood's angry, I'd say") == []
    assert mood("Like I mentioned, mood-wise, low") == []
    # stop 53: the patient's own mood words, rated 4-5 by the consultants of held_out45..52 and faulted as misfiled
    for said in ("rock bottom, worse in the mornings", "rock bottom. It doesn't lift", "I'm finished.",
                 "terrified, I suppose.", "I'm pretty low, and I can't snap out of it. I put a brave face on",
                 "I'm not myself. I'm so low and I don't know why", "Tired, really, really", "fantastic, really"):
        assert mood(said) == [], said


def _central(case, replies, hpi, assessment):
    note = (f'Chief complaint: "I can\'t sleep."\nHistory of present illness: {hpi}\nAssessment: {assessment}\n'
            "Plan: see treatment plan.")
    turns = tuple(Turn("Tell me more.", r) for r in replies)
    return [f.text for f in _faults(case, note, turns=turns) if f.kind == "central_finding_omitted"]


def test_the_central_feature_of_the_records_disorder_told_in_the_history():
    """The index trauma of a PTSD that the patient told is central: a history of its symptoms alone leaves it out, and
    the disorder's name ("post-traumatic") is not the event. From stop 28 to stop 49 the trauma was wanted even when
    the patient never told it; since stop 50 a note is again held to what the encounter brought out (the hand ratings
    of held_out30..46 rate faithful notes that keep to what was said 4-5: 16 notes moved toward their rating, 5 away),
    so a feature never given is not left out of the note."""
    ptsd = _frozen("test-v2-0472")
    told = ["It began at 24, in the weeks after a violent robbery at work.", "The memories come when I least expect it."]
    missing = _central(ptsd, told, "He describes intrusive memories and poor sleep for five years.",
                       "Post-traumatic stress disorder.")
    assert [t for t in missing if "trauma" in t] == ["F43.10: the trauma the illness followed"]
    assert not [t for t in _central(ptsd, told, "Intrusive memories since a violent robbery at work at 24.",
                                    "Post-traumatic stress disorder.") if "trauma" in t]
    assert not [t for t in _central(ptsd, told[1:], "He describes intrusive memories.", "Post-traumatic stress disorder.")
                if "trauma" in t]


def test_the_principal_disorders_core_feature_is_wanted_where_the_patient_gave_it():
    """A nightmare disorder whose note never records the nightmares the patient told leaves out what the diagnosis
    rests on, and "Nightmare disorder" in the assessment does not record it; "bad dreams" in the history does. Where
    the interview never reached them (stop 50) the note is not at fault. The PTSD's re-experiencing likewise."""
    nightmares = _frozen("test-v2-0388")  # F51.5
    told = ["I stay up late so I don't have to sleep, the nightmares are that bad."]
    fault = "F51.5: the nightmares themselves (content, frequency, what they do to sleep)"
    assert fault in _central(nightmares, told, "He avoids sleep and is tired.", "Primary insomnia; differential Nightmare disorder.")
    assert fault not in _central(nightmares, told, "He avoids sleep because of bad dreams most nights.", "Nightmare disorder.")
    assert fault not in _central(nightmares, ["I stay up late so I don't have to sleep."], "He avoids sleep and is tired.",
                                 "Primary insomnia.")
    ptsd = _frozen("test-v2-0472")
    flash = ["I get flashbacks of the robbery at work."]
    relive = [t for t in _central(ptsd, flash, "After a violent robbery at work he drinks more.", "Post-traumatic stress disorder.")
              if "re-experiencing" in t]
    assert relive and not [t for t in _central(ptsd, flash, "Flashbacks since a violent robbery at work.", "Post-traumatic stress disorder.")
                          if "re-experiencing" in t]


def test_a_risk_the_records_history_tells_belongs_in_the_risk_section():
    """A conviction for assault in the personal history or an overdose in the past psychiatric history is a risk the
    note's risk section must name (a lesser fault than a risk of the risk assessment, risk_history_omitted); a negated
    or non-violent forensic line is not."""
    from mentalhospital_env.rewards.mentaleval.note_faults import history_risk_lines, main_risks

    lines = history_risk_lines([("personal_history", "Hit by a parent as a child. Conviction for assault three years ago."),
                                ("past_psychiatric_history", "Took an overdose of paracetamol at 22.")])
    assert {k["name"] for k in main_risks(tuple(lines))} == {"violence or a weapon", "overdose or suicide attempt"}
    assert not main_risks(tuple(history_risk_lines([("personal_history", "Several arrests for public order offences. Never in court."),
                                                   ("past_psychiatric_history", "No overdoses or attempts.")])))
    ptsd = _frozen("test-v2-0176")  # a conviction for assault in the personal history; "two fights" names no main risk
    note = ('Chief complaint: "Unwell."\nHistory of present illness: Intrusive memories since a violent robbery at work.\n'
            "Mental status examination: Numb.\nRisk assessment: {}\nAssessment: Post-traumatic stress disorder.")
    kinds = lambda risk: [f.kind for f in _faults(ptsd, note.format(risk)) if "risk" in f.kind and "omitted" in f.kind]
    assert kinds("Denies suicidal thoughts.") == ["risk_history_omitted"]
    assert kinds("Denies suicidal thoughts. Two fights this year and a conviction for assault.") == []


def test_results_listed_but_not_read():
    """A deranged panel listed under Investigations and read nowhere else (LDL 7.1 in a binge eating disorder) is a
    fault; read in the formulation, or a single value a little out of range, it is not."""
    case = _frozen("test-v2-0055")  # binge eating disorder; the record's lipid panel is a lab
    lipids = ("Lipid panel", "total cholesterol 8.5 mmol/L (raised), LDL 7.1 mmol/L (raised), HDL 0.7 mmol/L (low)")
    note = lambda assessment, result: (
        f'Chief complaint: "I eat until I feel sick."\nHistory of present illness: Binges for two years.\n'
        f"Investigations: {result[0]}: {result[1]}.\nAssessment: {assessment}\nPlan: see treatment plan.")
    kinds = lambda text, result=lipids: [
        f.kind for f in note_faults(case, Chart(note=note(text, result), exam_results=(result,))) if f.kind == "result_uninterpreted"
    ]
    assert kinds("Binge eating disorder.") == ["result_uninterpreted"]
    assert kinds("Binge eating disorder; markedly raised cholesterol, for the GP.") == []
    assert kinds("Binge eating disorder.", ("Lipid panel", "total cholesterol 5.6 mmol/L (raised), LDL 3.1 mmol/L")) == []


def test_compensatory_behaviour_stated_in_binge_eating_disorder():
    """What tells binge eating disorder from bulimia is wanted present or absent where it came up (since stop 50 not
    where the interview never reached it: a note is rated against what was said)."""
    bed = _frozen("test-v2-0055")
    told = ["I'll have dinner, then eat a family bag of crisps, chocolate, whatever's there.",
            "No, I've never made myself sick or taken laxatives."]
    compensatory = lambda hpi, said=told: [t for t in _central(bed, said, hpi, "Binge eating disorder.") if "compensatory" in t]
    assert compensatory("Binges most evenings (a family bag of crisps, chocolate) for two years.") == [
        "F50.81: compensatory behaviour, present or absent"
    ]
    assert compensatory("Binges most evenings for two years; she denies vomiting or laxatives.") == []
    assert compensatory("Binges most evenings (a family bag of crisps, chocolate) for two years.", told[:1]) == []


def test_rigor_does_not_reward_an_entry_the_encounter_rules_out():
    """A "severe" episode beside scales that read moderate, or dysthymia for an illness of months, lengthens the
    differential without widening it: the list with it scores no higher than the list without it."""
    case = _frozen("test-v2-0239")  # a first moderate depressive episode
    results = (("PHQ-9", "total 12/27 (moderate)"), ("HAM-D", "total 18/52 (moderate)"))
    note = ('Chief complaint: "I feel low all the time."\nHistory of present illness: Low mood, poor sleep and no '
            "enjoyment for three months, after her redundancy.\nAssessment: Moderate depressive episode; an adjustment "
            "disorder is less likely.\nPlan: see treatment plan.")
    turns = (Turn("When did this start?", "It's been about three months now, since I lost my job."),)
    rigor = lambda disorders: OfflineJudge(dimensions=("diagnostic_rigor",)).score(
        case, Chart(turns=turns, note=note, exam_results=results, disorders=disorders))["diagnostic_rigor"]
    base = ("F32.1", "F43.21")
    assert rigor(base + ("F32.2",)) <= rigor(base)
    assert rigor(base + ("F34.1",)) <= rigor(base)
    assert rigor(base + ("F41.1",)) >= rigor(base)  # an entry the encounter leaves open still counts


def _record(case_id):
    """A test-v2 record as the hand ratings saw it: frozen where the suite was redrawn since, else the suite's."""
    try:
        return _frozen(case_id)
    except StopIteration:
        return load_suite("test-v2")[case_id]


def test_style_faults_together_cannot_sink_a_sound_note():
    """A symptom-list history, broken punctuation and misfiled answers are style: together they cost at most
    ``style.max_points`` (a sound note written badly stays fair), while a fault of content still adds on top."""
    from mentalhospital_env.rewards.mentaleval.note_faults import NoteFault

    style = (NoteFault("symptom_list_history", "history_of_present_illness", "a; b; c"),
             NoteFault("broken_punctuation", "note", '"."'), NoteFault("broken_punctuation", "note", '"."'),
             NoteFault("broken_punctuation", "note", '"."'), NoteFault("misfiled_answer", "personal_history", "x"),
             NoteFault("misfiled_answer", "personal_history", "y"))
    assert fault_points(style[:1]) == 1.0
    assert fault_points(style) == 1.75 < 1.0 + 0.75 + 1.0
    omitted = NoteFault("central_finding_omitted", "history_of_present_illness", "z")
    assert fault_points(style + (omitted,)) == fault_points(style) + fault_points((omitted,))


def test_a_deranged_panel_is_not_read_by_a_diagnosis_that_could_explain_it():
    """Platelets of 52 and an AST:ALT above 2 listed beside 'alcohol dependence' are listed, not read; the patient's
    own 'my liver tests are raised' is not the doctor reading them; each unread panel is a fault."""
    case = _record("test-v2-0363")
    cbc = ("CBC", "Hb 14.5 g/dL, MCV 102 fL (raised), WBC 5.2 x10^9/L, platelets 52 x10^9/L (low)")
    lft = ("LFT", "ALT 63 U/L (raised), AST 170 U/L (raised; AST:ALT above 2), ALP 108 U/L")
    note = lambda hpi, assessment: (
        f'Chief complaint: "I drink every day."\nHistory of present illness: {hpi}\n'
        f"Investigations: CBC: {cbc[1]}; LFT: {lft[1]}.\nAssessment: {assessment}\nPlan: see treatment plan.")
    unread = lambda hpi, assessment: [f.text.split(":")[0] for f in note_faults(
        case, Chart(note=note(hpi, assessment), exam_results=(cbc, lft))) if f.kind == "result_uninterpreted"]
    quoted = 'Half a bottle of vodka a day. "The GP says my liver tests are raised."'
    assert unread(quoted, "Alcohol dependence.") == ["CBC", "LFT"]
    assert unread(quoted, "Alcohol dependence; raised transaminases with AST:ALT above 2 and low platelets and a "
                          "raised MCV suggest alcohol-related liver disease.") == []
    assert unread(quoted, "Alcohol dependence with raised liver enzymes.") == ["CBC"]


def test_a_psychotic_mania_without_its_delusion_or_written_as_a_depression():
    """The delusion a psychotic mania's specifier rests on is wanted where the patient told it (since stop 50 not where
    the interview never drew it out); a mania recorded with anhedonia and low mood is its central feature contradicted."""
    mania = _record("test-v2-0362")  # bipolar disorder, current episode manic with psychotic symptoms
    told = ["I'm so happy, I could hug everyone in this room.", "I hear voices.", "I've been given special powers."]
    central = lambda hpi: _central(mania, told, hpi, "Bipolar affective disorder, current episode manic with psychotic symptoms.")
    sound = "Ten days of elevated mood, little sleep and voices; he believes he has special powers (grandiose delusion)."
    assert not [t for t in central(sound) if "mania" in t]
    assert [t for t in central("Ten days of elevated mood, little sleep and voices.") if "delusion" in t]
    assert [t for t in central(sound + " Anhedonia and low mood.") if "opposite" in t]
    assert not [t for t in central(sound + " No low mood.") if "opposite" in t]


def test_a_childs_note_wants_collateral_or_developmental_history():
    """A keyword note for a 9-year-old with nothing from the mother who came and no developmental or school history
    is a fault; a word of either mends it; an adult's note is not asked for one."""
    child = _record("test-v2-0039")  # a 9-year-old girl with her mother
    kinds = lambda case, hpi: [f.kind for f in _faults(case, (
        f'Chief complaint: "I make careless mistakes."\nHistory of present illness: {hpi}\n'
        "Assessment: Attention-deficit hyperactivity disorder, predominantly inattentive type.\nPlan: see treatment plan.")
    ) if f.kind == "child_history_missing"]
    assert kinds(child, "Inattentiveness; disorganisation; poor concentration.") == ["child_history_missing"]
    assert kinds(child, "Inattention for a year; her mother says she was born at 32 weeks and talked late.") == []
    assert kinds(_record("test-v2-0363"), "Inattentiveness; disorganisation; poor concentration.") == []


def test_schizophrenia_for_a_record_without_psychosis_is_misleading():
    """Dissociative identity disorder written up as paranoid schizophrenia labels a patient psychotic who is not: the
    note is no longer a usable one; psychotic depression called schizophrenia is a wrong diagnosis, not this."""
    from mentalhospital_env.rewards.mentaleval.note_faults import misleading

    note = lambda dx: _assessment_note(dx)
    did = _record("test-v2-0129")  # dissociative identity disorder
    faults = _faults(did, note("Paranoid schizophrenia."))
    assert [f.kind for f in faults if f.kind == "psychosis_invented"] == ["psychosis_invented"] and misleading(faults)
    assert not [f for f in _faults(did, note("Dissociative identity disorder.")) if f.kind == "psychosis_invented"]
    assert not [f for f in _faults(did, note("Generalised anxiety disorder.")) if f.kind == "psychosis_invented"]
    mania = _record("test-v2-0362")  # a mania with psychotic symptoms
    assert not [f for f in _faults(mania, note("Paranoid schizophrenia.")) if f.kind == "psychosis_invented"]


def _asked(doctor: str, patient: str) -> Turn:
    return Turn(doctor, patient)


def test_a_risk_the_patient_told_that_the_risk_section_leaves_out(hw):
    """Stop 29 (issue 15): a supervisor fails a note whose risk section records only denials beside "I punched a
    teacher" or a passive wish not to wake up; naming it in the risk section, present or qualified, clears the fault."""
    case = hw["hw-040"]
    turns = (
        _asked("When you are angry with someone, what goes through your mind?", "I punched a teacher last term."),
        _asked("Have you had thoughts that life is not worth living?", "Sometimes I think it'd be easier not to wake up."),
    )
    told = lambda note: sorted(f.text for f in _faults(case, note, turns=turns) if f.kind == "told_risk_omitted")  # noqa: E731
    bare = GOOD_040.replace("Risk assessment: High.", "Risk assessment: Denies thoughts of harming anyone.")
    assert "violence" not in told(bare)  # "harming anyone" names the risk to others (recorded as denied: a precision matter)
    only_denials = GOOD_040.replace(
        "Risk assessment: High. Overdose today with intent; recent self-cutting;",
        "Risk assessment: Denies self-harm. Overdose today; recent self-cutting;",
    ).replace("Overdose today", "Tablets today")
    assert told(only_denials) == ["suicidal thoughts", "violence"]
    named = only_denials.replace(
        "Risk assessment: Denies self-harm.", "Risk assessment: Punched a teacher last term (risk to others); would rather not wake up."
    )
    assert told(named) == []
    # a note without headings is not read for it (its missing structure already costs it)
    assert [f for f in _faults(case, "Low mood, took tablets today, punched a teacher.", turns=turns) if f.kind == "told_risk_omitted"] == []
    # a note under headings with no risk section at all leaves out every told risk (stop 32: a psychotic depression's
    # note scored higher with its risk assessment dropped), however few headings it keeps
    headed = "Chief complaint: low mood.\nHistory of present illness: Low mood for months; took tablets today."
    assert told(headed) == ["suicidal thoughts", "violence"]
    assert told(headed.split("\n")[0]) == ["violence"]  # no word of the overdose: the record's main risk, faulted as such
    assert [f.text for f in _faults(case, headed, turns=turns) if f.kind == "main_risk_omitted"]
    # risk folded into the history is recorded there
    assert told(headed + " Punched a teacher last term; would rather not wake up.") == []


def test_a_family_history_asked_and_answered_wants_its_heading(hw):
    case = hw["hw-040"]
    asked = (_asked("Has anyone in your family had problems with their mental health?", "Not that I know of."),)
    without = GOOD_040.replace("Family history: Her mother had postnatal depression.\n", "")
    found = [f for f in _faults(case, without, turns=asked) if f.kind == "asked_history_omitted"]
    assert [f.section for f in found] == ["family_history"]
    assert not [f for f in _faults(case, GOOD_040, turns=asked) if f.kind == "asked_history_omitted"]
    # a plain "no" to the physical health question is not wanted under its own heading; a condition named is
    physical_no = (_asked("Do you have any physical health problems?", "No, nothing physical."),)
    physical_yes = (_asked("Do you have any physical health problems?", "I've got asthma."),)
    assert not [f for f in _faults(case, GOOD_040, turns=physical_no) if f.kind == "asked_history_omitted"]
    assert [f.section for f in _faults(case, GOOD_040, turns=physical_yes) if f.kind == "asked_history_omitted"] == ["medical_history"]
    # a documentation fault: counted with the faults of style
    judge = OfflineJudge(dimensions=("note_quality",))
    assert judge.score(case, Chart(note=without, turns=asked))["note_quality"] < judge.score(case, Chart(note=GOOD_040, turns=asked))["note_quality"]


def test_a_chief_complaint_that_is_not_the_patients_words_is_a_label(hw):
    note = GOOD_040.replace('"I took 14 ibuprofen tablets at school."', "overdose (not in the patient's own words).")
    assert [f.kind for f in _faults(hw["hw-040"], note)] == ["chief_complaint"]


@pytest.mark.parametrize(
    "reply, fault",
    [
        ("My mood's terrible, I'd say.", True),
        ("When I stop I get mad dreams and I'm in a foul mood.", True),
        ("Stressed, I suppose.", True),
        ("Don't know.", False),
        ("That's... hard. Can we come back to it?", False),
        ("Where do I start... No idea, sorry.", False),
    ],
)
def test_a_mood_recorded_as_not_described_when_the_patient_gave_one(hw, reply, fault):
    """Stop 32 (issue 15): 'Mood not described' beside 'My mood's terrible' is a misrecorded mental state; beside a
    non-answer it is what happened. The fault costs Qual."""
    case = hw["hw-040"]
    turns = (Turn("How has your mood been over the past few weeks?", reply),)
    note = GOOD_040.replace("Mental status examination:", "Mental status examination: Mood not described.")
    kinds = [f.kind for f in _faults(case, note, turns=turns)]
    assert kinds.count("mood_unrecorded") == int(fault)
    assert "mood_unrecorded" not in [f.kind for f in _faults(case, GOOD_040, turns=turns)]
    judge = OfflineJudge(dimensions=("note_quality",))
    scores = [judge.score(case, Chart(note=n, turns=turns))["note_quality"] for n in (GOOD_040, note)]
    assert (scores[1] < scores[0]) if fault else (scores[1] <= scores[0])


def test_an_abuse_the_patient_disclosed_and_the_note_records_nowhere(hw):
    """Stop 32 (issue 15): a boy of 13 disclosed physical abuse at home ("Not long after physical abuse at home.") and
    the note recorded it nowhere: a told risk omitted; recorded under the personal history, it is recorded."""
    case = hw["hw-040"]
    turns = (Turn("Has anything like that happened to you?", "Not long after physical abuse at home."),)
    told = lambda note: [f.text for f in _faults(case, note, turns=turns) if f.kind == "told_risk_omitted"]  # noqa: E731
    assert "abuse disclosed" in told(GOOD_040)
    recorded = GOOD_040.replace("Mental status examination:", "Personal history: discloses physical abuse at home.\nMental status examination:")
    assert "abuse disclosed" not in told(recorded)


def test_a_manias_reduced_need_for_sleep_told_and_left_out():
    """Stop 32 (issue 15): 'Maybe three hours a night, and I'm not tired at all' left out of a mania's note is a central
    feature omitted; the note that tells it in any of its words is not faulted."""
    case = _record("test-v2-0094")  # a manic episode of bipolar disorder
    turns = (Turn("How is your energy through the day?", "Maybe three hours a night, and I'm not tired at all."),)
    note = (
        "Chief complaint: \"I've got so much to say.\"\nHistory of present illness: A week of elevated mood, pressured speech "
        "and racing thoughts; he stopped lithium a few weeks ago.{sleep}\nMental status examination: Mood elevated. Speech "
        "pressured.\nAssessment: Bipolar disorder, current episode manic without psychotic features."
    )
    what = lambda n: [f.text for f in _faults(case, n, turns=turns) if "need for sleep" in f.text]  # noqa: E731
    assert len(what(note.format(sleep=""))) == 1
    assert what(note.format(sleep=" He sleeps three hours a night and is not tired.")) == []
    assert what(note.format(sleep=" Reduced need for sleep.")) == []


@pytest.mark.parametrize(
    "item, misfiled",
    [
        ("Sleep: asked, answered about drinking instead.", False),
        ("Sleep: asked, no direct answer.", False),
        ('Sleep: "I drink half a bottle of vodka."', True),
        ('Sleep: "I sleep badly, maybe four hours."', False),
        # stop 53: a non-answer recorded as one (held_out46..52, rated 5)
        ("Sleep: unsure.", False),
        ("Sleep: question not answered.", False),
        ("Sleep: mother has not noticed problems (answer unclear).", False),
        ("Sleep: answered only with her cannabis use.", False),
        ("Appetite: did not know.", False),
    ],
)
def test_an_item_the_note_marks_unanswered_is_not_misfiled(hw, item, misfiled):
    """Stop 32 (issue 15): 'Sleep: asked, answered about drinking instead.' tells the gap (a supervisor credited it);
    the drinking quoted under Sleep is the answer to another question."""
    note = GOOD_040.replace("Mental status examination:", f"Personal history: {item}\nMental status examination:")
    faults = [f for f in _faults(hw["hw-040"], note) if f.kind == "misfiled_answer" and f.text.startswith(item.split(":")[0])]
    assert bool(faults) == misfiled


def _rated(note_id):
    """A rated note of the judge-agreement data with the frozen encounter and record it was rated against:
    (case, chart, rating)."""
    import json
    from pathlib import Path

    data = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "judge_agreement"
    row = next(json.loads(line) for line in open(data / "ratings.jsonl", encoding="utf-8") if f'"{note_id}"' in line)
    encounter = next(e for e in json.loads((data / "encounters.json").read_text("utf-8"))["encounters"] if e["case_id"] == row["case_id"])
    turns = tuple(Turn(t["doctor"], t["patient"]) for t in encounter["turns"])
    results = tuple(tuple(r) for r in encounter["exam_results"])
    return _frozen(row["case_id"]), Chart(turns=turns, exam_results=results, note=row["text"]), row["rating"]


def _kinds(case, chart):
    return [f.kind for f in note_faults(case, chart)]


@pytest.mark.parametrize("note_id, label", [("note-490", "Past attempts"), ("note-582", "Intent")])
def test_a_risk_item_marked_unanswered_that_the_patient_answered_is_a_fault(note_id, label):
    """Stop 37 (issue 15): held_out33 test-v2-0317 'Past attempts: asked, no direct answer' after 'There was one time'
    (rated 2), held_out35 test-v2-0024 'Intent: asked, no direct answer' after 'I wouldn't do anything, though' (rated 3):
    the scripted clinician's reader missed the answer, and so did the judge. The patient's own words are read."""
    import dataclasses

    case, chart, _ = _rated(note_id)
    faults = [f for f in note_faults(case, chart) if f.kind == "answered_marked_unanswered"]
    assert any(f.text.startswith(label) for f in faults), faults
    # the same note after an encounter where the patient never answered it: no fault
    kept = tuple(t for t in chart.turns if not any(w in t.patient for w in ("one time", "wouldn't do anything", "wouldn't act")))
    assert len(kept) < len(chart.turns)
    quiet = dataclasses.replace(chart, turns=kept)
    assert not [f for f in note_faults(case, quiet) if f.kind == "answered_marked_unanswered" and f.text.startswith(label)]
    judge = OfflineJudge(dimensions=("note_quality",))
    assert judge.score(case, chart)["note_quality"] < judge.score(case, quiet)["note_quality"]


@pytest.mark.parametrize("note_id, label, answer", [
    ("note-862", "Access to means", "I take lithium"),
    ("note-866", "Access to means", "I take azathioprine"),
    ("note-866", "What keeps her safe", "I live with my elderly mother"),
])
def test_means_and_what_keeps_the_patient_safe_answered_in_plain_words_are_answered(note_id, label, answer):
    """Stop 43 (issue 15): held_out42's scripted notes marked 'Access to means: asked, no direct answer' after the patient
    named the tablets he takes ('I take lithium 300 mg twice daily'), and what keeps her safe unanswered after 'I live
    with my elderly mother' (rated 4: 'records ... protective factors as unanswered though he ... takes lithium and
    lives with his mother'); the judge charged nothing. The reply to the means question is read for a medicine the
    patient says they take, and the reply about what keeps them safe for the people they live with."""
    import dataclasses

    case, chart, _ = _rated(note_id)
    faults = [f for f in note_faults(case, chart) if f.kind == "answered_marked_unanswered"]
    assert any(f.text.startswith(label) and answer in f.text for f in faults), faults
    # the same encounter with that reply a non-answer: no fault for the item
    quiet = dataclasses.replace(chart, turns=tuple(
        Turn(t.doctor, "I'd rather not say.") if answer in t.patient else t for t in chart.turns))
    assert quiet.turns != chart.turns
    assert not [f for f in note_faults(case, quiet) if f.kind == "answered_marked_unanswered" and f.text.startswith(label)]
    judge = OfflineJudge(dimensions=("note_quality",))
    assert judge.score(case, chart)["note_quality"] <= judge.score(case, quiet)["note_quality"]


def test_self_care_answered_by_apathy_or_by_needing_prompting_is_answered():
    """Stop 43 (issue 15, s43-judge2): held_out41's scripted note for test-v2-0312 logged 'Looking after themselves:
    asked, no direct answer' after the patient, asked how she looked after herself, said 'I can't be bothered with any
    of it' (rated 3: 'records the self-care answer as no direct answer'); the judge charged nothing. A reply to the
    self-care question that says the patient cannot summon the will for it, or needs someone to prompt or help, answers
    it; a non-answer does not."""
    import dataclasses

    case, chart, _ = _rated("note-818")
    said = "I can't be bothered with any of it."
    faults = [f for f in note_faults(case, chart) if f.kind == "answered_marked_unanswered"]
    assert any(f.text.startswith("Looking after") and "bothered" in f.text for f in faults), faults
    judge = OfflineJudge(dimensions=("note_quality",))
    scored = judge.score(case, chart)["note_quality"]
    for reply, answered in (("My daughter has to remind me to wash and change.", True), ("I'd rather not say.", False),
                            ("I'm not sure.", False)):
        other = dataclasses.replace(chart, turns=tuple(Turn(t.doctor, reply) if t.patient == said else t for t in chart.turns))
        assert other.turns != chart.turns
        found = [f for f in note_faults(case, other) if f.kind == "answered_marked_unanswered" and f.text.startswith("Looking after")]
        assert bool(found) is answered, (reply, found)
    # the same note with the answer recorded scores higher
    line = re.search(r"Looking after themselves: asked, no direct answer", chart.note)
    assert line
    recorded = dataclasses.replace(chart, note=chart.note.replace(line.group(0), f'Looking after themselves: "{said[:-1]}"'))
    assert scored < judge.score(case, recorded)["note_quality"]


def test_what_the_patient_told_of_the_illness_and_a_full_note_leaves_out_is_a_fault():
    """Stop 44 (issue 15): held_out43's scripted note for test-v2-0150 (rated 3: 'leaves out the referral reason (poor
    sleep, which the patient gave)') scored 5: it carries neither the words nor the finding of 'I'm dozy on the sofa,
    then the minute I get into bed my brain switches on', a sentence of the illness the record's history states. The
    note is read against what the patient told, not a list of words: the same note carrying it in other words is not
    faulted and scores higher; a denial or a deflection in its place tells nothing; a terse note under headings is held to it too."""
    import dataclasses

    case, chart, _ = _rated("note-910")
    said = next(t.patient for t in chart.turns if "brain switches on" in t.patient)
    faults = [f for f in note_faults(case, chart) if f.kind == "told_content_omitted"]
    assert any("brain switches on" in f.text for f in faults), faults
    # stop 46: read against the record's facts too, the note also leaves out the phoning of family to check they are
    # safe (which the consultant named) and the news she stopped watching; two or more omissions cost a point
    assert any("phoning family" in f.text for f in faults), faults
    judge = OfflineJudge(dimensions=("note_quality",))
    scored = judge.score(case, chart)["note_quality"]
    carried = dataclasses.replace(chart, note=chart.note.replace(
        "History of present illness:", "History of present illness: Drowsy on the sofa in the evening, but her brain switches on once she is in bed.", 1))
    assert carried.note != chart.note
    assert not [f for f in note_faults(case, carried) if f.kind == "told_content_omitted" and "brain" in f.text]
    assert scored <= judge.score(case, carried)["note_quality"]
    carried_all = dataclasses.replace(carried, note=carried.note.replace(
        "History of present illness:", "History of present illness: She rings her family constantly to check they are safe and has stopped watching the news.", 1))
    assert not [f for f in note_faults(case, carried_all) if f.kind == "told_content_omitted"]
    assert scored < judge.score(case, carried_all)["note_quality"]
    for reply in ("No, my sleep has not been a problem.", "Sorry, could you ask that another way?", "I'm not sure, to be honest."):
        other = dataclasses.replace(chart, turns=tuple(Turn(t.doctor, reply) if t.patient == said else t for t in chart.turns))
        assert other.turns != chart.turns
        assert not [f for f in note_faults(case, other) if f.kind == "told_content_omitted" and reply[:12] in f.text]
        assert not [f for f in note_faults(case, other) if f.kind == "told_content_omitted" and "brain" in f.text]
    # a terse note under a few headings is held to it too, and carries it in few words
    terse = "Chief complaint: anxious, worried about family.\nRisk assessment: denies SI/SH.\nAssessment: GAD."
    faulted = dataclasses.replace(chart, note=terse)
    assert [f for f in note_faults(case, faulted) if f.kind == "told_content_omitted" and "brain" in f.text]
    carried = dataclasses.replace(chart, note=terse.replace("family.", "family; dozy on the sofa but brain switches on in bed."))
    assert not [f for f in note_faults(case, carried) if f.kind == "told_content_omitted" and "brain" in f.text]
    # a line of shorthand with no heading at all is read for its brevity elsewhere
    shorthand = dataclasses.replace(chart, note="Anxious, worried about family, denies SI/SH, ?GAD")
    assert not [f for f in note_faults(case, shorthand) if f.kind == "told_content_omitted"]


def test_a_mood_quote_in_another_persons_words_or_a_denial_as_the_complaint_is_misfiled():
    """Stop 37: held_out33 test-v2-0299's mood 'In my daughter's words, She was fine at the weekend' and held_out32
    test-v2-0111's 'I've been cutting down on my own lasted until the weekend' are no mood; held_out34 test-v2-0086's
    chief complaint 'I've never had thoughts of ending my life' is a denial, not a complaint."""
    case, chart, _ = _rated("note-518")
    assert any(f.kind == "misfiled_answer" and f.text.startswith("Mood: In my daughter") for f in note_faults(case, chart))
    case, chart, _ = _rated("note-478")
    assert any(f.kind == "misfiled_answer" and "cutting down" in f.text for f in note_faults(case, chart))
    case, chart, _ = _rated("note-554")
    assert "chief_complaint" in _kinds(case, chart)
    import dataclasses

    mended = dataclasses.replace(chart, note=chart.note.replace('"I\'ve never had thoughts of ending my life"', '"I feel miserable inside"'))
    assert mended.note != chart.note and "chief_complaint" not in _kinds(case, mended)
    # a mood said in mood words, or a complaint that says a problem, stays
    for quote in ("I've been feeling down", "My mood's cut up about it, low"):
        note = chart.note.replace('Mood described as "My mood is gutted"', f'Mood described as "{quote}"')
        assert not [f for f in note_faults(case, dataclasses.replace(chart, note=note)) if f.text.startswith("Mood:")]


@pytest.mark.parametrize("note_id, omitted_word, said, mended", [
    ("note-554", "stressor", "She says it started in July.",
     "She says it started in July, after she failed her university exams."),
    ("note-481", "dependence features", "Drinks a couple of pints a day.",
     "Drinks half a bottle of vodka a day, first thing on waking; cannot stop once started."),
])
def test_an_adjustment_disorder_note_must_name_the_stressor_and_a_dependence_note_its_features(note_id, omitted_word, said, mended):
    """Stop 37: F43.21 is held to F43.2's stressor too (held_out34 test-v2-0086: the failed university exams never named,
    rated 3); alcohol dependence to the dependence features the patient gave apart from the amount (held_out32 note-481:
    'a couple of pints a day' from his tolerance remark, no morning drinking, rated 2)."""
    import dataclasses

    case, chart, _ = _rated(note_id)
    omitted = [f.text for f in note_faults(case, chart) if f.kind == "central_finding_omitted"]
    assert any(omitted_word in t for t in omitted), omitted
    told = dataclasses.replace(chart, note=chart.note.replace(said, mended))
    assert told.note != chart.note
    assert not any(omitted_word in f.text for f in note_faults(case, told) if f.kind == "central_finding_omitted")


def test_keeping_away_from_friends_is_no_stressor(hw):
    """Stop 38 review: 'away from friends' was an adjustment disorder's stressor, so withdrawal ('he keeps away from
    friends') supported the diagnosis; a move to a new city (held_out37's note-666) still does."""
    note = "Chief complaint: I've stopped starting things.\nHistory of present illness: Eighteen months of apathy{}.\nAssessment: {}"
    dx = "Adjustment disorder with depressed mood."
    withdrawn = _faults(hw["hw-028"], note.format("; he keeps away from friends", dx))
    assert "diagnosis_unsupported" in [f.kind for f in withdrawn]
    moved = _faults(hw["hw-028"], note.format(", in the weeks after a move to a new city away from friends", dx))
    assert "diagnosis_unsupported" not in [f.kind for f in moved]


def test_a_note_without_headings_holds_every_section_in_its_one_paragraph():
    """Stop 42 (issue 15): a terse note of one paragraph, read as ``untitled``, was read as having no history and no risk
    section, so the central feature it records (the trauma after which the illness began) and the main risk it names
    counted as left out, and held accurate terse notes rated 4 at the keyword-list floor of 2. Its one paragraph is its
    history and its risk section; a note under headings is still read by its headings, and a paragraph that does not
    record the feature still leaves it out."""
    ptsd = _frozen("test-v2-0472")
    turns = tuple(Turn("Tell me more.", r) for r in ("It began at 24, in the weeks after a violent robbery at work.",
                                                      "The memories come when I least expect it."))

    def trauma_left_out(note):
        return [f.text for f in _faults(ptsd, note, turns=turns) if f.kind == "central_finding_omitted" and "trauma" in f.text]

    assert not trauma_left_out("45M. Intrusive memories and poor sleep since a violent robbery at work at 24. Imp: PTSD.")
    assert trauma_left_out("45M. Intrusive memories and poor sleep for years. Imp: PTSD.")
    headed = "History of present illness: Intrusive memories and poor sleep for years.\nAssessment: PTSD."
    assert trauma_left_out(headed)
    assert trauma_left_out(headed + "\nSocial history: a violent robbery at work at 24.")  # not where the history is


def test_what_the_patient_told_is_read_against_every_fact_of_the_record_and_every_affirming_clause():
    """Stop 46 (issue 15): held_out45's scripted note for test-v2-0172 (trichotillomania, rated 3: 'the HPI omits the
    central hair-pulling facts she gave (... avoiding swimming and hairdressers)') scored 5: the told sentence matches a
    fact of the record (``case.facts``) that the record's narrative sections do not hold, and only the narrative was
    read. Each fact the record lets the patient tell is read now; and a sentence that holds a negation still tells what
    its other clauses affirm ("I don't know why, but by now I'm avoiding ..."), while a clause that is itself a denial
    tells nothing."""
    import dataclasses

    case, chart, rating = _rated("note-974")
    assert rating == 3
    said = next(t.patient for t in chart.turns if "swimming and hairdressers" in t.patient)
    assert not any("swimming" in text for _, text in note_view(case, chart).record_sections)
    faults = [f for f in note_faults(case, chart) if f.kind == "told_content_omitted"]
    assert any("swimming" in f.text for f in faults), faults
    judge = OfflineJudge(dimensions=("note_quality",))
    scored = judge.score(case, chart)["note_quality"]
    carried = dataclasses.replace(chart, note=chart.note.replace(
        "History of present illness:", "History of present illness: She now avoids swimming and the hairdresser.", 1))
    assert not [f for f in note_faults(case, carried) if f.kind == "told_content_omitted" and "swimming" in f.text]
    assert scored < judge.score(case, carried)["note_quality"]
    for reply, told in (("I don't know why, but by now I'm avoiding swimming and hairdressers.", True),
                        ("I don't avoid swimming or hairdressers.", False)):
        other = dataclasses.replace(chart, turns=tuple(Turn(t.doctor, reply) if t.patient == said else t for t in chart.turns))
        found = [f for f in note_faults(case, other) if f.kind == "told_content_omitted" and "swimming" in f.text]
        assert bool(found) == told, (reply, found)


def test_the_impression_is_read_statement_by_statement_names_in_other_words_and_their_status():
    """Stop 47 (issue 15): the impression reader read a disorder only by the knowledge base's own names and weighed it
    only after a differential marker anywhere before it, so hand-written notes rated 5 were charged the record's
    diagnosis as missed or made against the record when they named it in other words ("moderate depressive syndrome",
    "relapse of his known psychotic illness", "with generalised anxiety") or left it open ("?comorbid generalised
    anxiety"), and made a disorder they said was "not established". Each statement is read now with its status."""
    from mentalhospital_env.rewards.mentaleval.impression import read_impression

    def read(text):
        return [(s.code[:3], s.status) for s in read_impression(text)]

    assert read("Opioid dependence with a moderate depressive syndrome.") == [("F11", "stated"), ("F32", "stated")]
    assert ("F41", "ruled_out") in read("Agoraphobia with generalised anxiety; panic disorder not established.")
    assert read("Dementia; prominent worry - ?comorbid generalised anxiety.")[-1] == ("F41", "provisional")
    assert read("Relapse of his known psychotic illness with probable alcohol dependence.") == [("F20", "stated"), ("F10", "provisional")]
    assert read("Alcohol dependence; depressive symptoms to reassess once abstinent.")[-1] == ("F32", "feature")
    assert read("Moderate depressive episode. Differential diagnosis includes post-traumatic stress disorder.")[-1] == ("F43", "differential")
    assert read("Schizophrenia ruled out; family history of bipolar disorder.") == [("F20", "ruled_out"), ("F31", "ruled_out")]
    # a disorder's name that is a single finding, in the list of what the patient has, is no diagnosis by itself
    # (review 1, M1: listed before what the findings amount to, it is a feature of that conclusion, not "symptom")
    assert read("The presentation, with insomnia and low mood, is most consistent with PTSD.")[0][1] == "feature"

    ptsd = _frozen("test-v2-0472")  # F43.10 with a comorbid F32.1
    low = (Turn("How has your mood been?", "Really low, most days. I can't enjoy anything any more."),)
    kinds = lambda text: sorted(f.kind for f in _faults(ptsd, _assessment_note(text), turns=low)
                                if f.kind == "diagnosis_against_record" or (f.kind == "diagnosis_missed" and f.text.startswith("F32")))
    # the comorbid depression named in other words, held open, or its syndrome recorded: addressed, not missed
    for said in ("Post-traumatic stress disorder with a moderate depressive syndrome.",
                 "Post-traumatic stress disorder; possible co-morbid depressive episode, to be confirmed.",
                 "Post-traumatic stress disorder with depressive symptoms, to reassess at review."):
        assert "diagnosis_missed" not in kinds(said), said
    # left as a differential, or said not to be there, it is missed
    assert "diagnosis_missed" in kinds("Post-traumatic stress disorder. Differential diagnosis includes a depressive episode.")
    assert "diagnosis_missed" in kinds("Post-traumatic stress disorder; depressive episode not established.")
    # the principal named and then said not established is not made
    assert "diagnosis_against_record" in kinds("Post-traumatic stress disorder not established; moderate depressive episode.")


def test_a_finding_listed_before_what_it_amounts_to_never_makes_the_records_principal(hw):
    """Review 1 of stop 47, M1: a disorder's name that is also a single finding ("derealisation", "panic attacks"),
    listed among the findings before "most consistent with", was read as making that disorder, so a note that made
    panic disorder for a depersonalisation-derealisation record (hw-030) went uncharged: listing the principal's symptom
    cleared the heaviest note fault. Listed so, it is a feature of the conclusion; it never makes the principal."""
    from mentalhospital_env.rewards.mentaleval.impression import read_impression

    case = hw["hw-030"]
    assert case.diagnosis.disorders[0].code.startswith("F48.1")
    said = ("The presentation, with palpitations, derealisation, excessive worry and panic attacks, is most consistent "
            "with panic disorder.")
    assert [(s.code[:5], s.status) for s in read_impression(said)][:2] == [("F48.1", "feature"), ("F41.0", "feature")]
    kinds = lambda text: sorted(f.kind for f in _faults(case, _assessment_note(text)) if f.kind.startswith("diagnosis_"))
    assert "diagnosis_against_record" in kinds(said)
    # "most consistent with GAD" with panic attacks listed: panic disorder is weighed, not made
    statements = read_impression("With low mood and panic attacks, most consistent with GAD. Differential diagnosis "
                                 "includes panic disorder.")
    assert [s.status for s in statements if s.code.startswith("F41.0")] == ["feature", "differential"]
    # the record's own disorder made outright is still made
    assert "diagnosis_against_record" not in kinds("Depersonalisation-derealisation disorder, with panic attacks.")


def test_a_negation_reaches_only_its_own_item_of_the_impression():
    """Review 1 of stop 47, M2: "no", "not" and "without" reached across another disorder's name, a list's comma or a
    colon, so a comorbid or principal diagnosis written after a denied finding was read as ruled out. Its scope is its
    own item now; along a list joined by "or" it still reaches every item."""
    from mentalhospital_env.rewards.mentaleval.impression import read_impression

    def status(text, prefix):
        return [s.status for s in read_impression(text) if s.code.startswith(prefix)]

    assert status("Severe depressive episode without psychotic features and generalised anxiety disorder.", "F41.1") == ["stated"]
    assert status("Bipolar disorder without psychotic features and alcohol dependence.", "F10") == ["stated"]
    assert status("Low mood for 3 months, no mania: moderate depressive episode.", "F32") == ["stated"]
    assert status("No mania, recurrent depressive disorder.", "F33") == ["stated"]
    assert status("No self-harm, no psychosis, generalised anxiety disorder.", "F41.1") == ["stated"]
    # its own item, and every item of an "or" list, stay ruled out
    assert status("Severe depressive episode without psychotic features and generalised anxiety disorder.", "F20") == ["ruled_out"]
    assert status("No evidence of depression, panic disorder or psychosis.", "F41.0") == ["ruled_out"]
    assert status("No evidence of mania.", "F31") == ["ruled_out"]
    # a "without" inside a disorder's own name is part of that name, no marker for the next name
    assert status("Differential diagnosis includes major depressive disorder, single episode, severe without psychotic "
                  "features and bipolar II disorder.", "F31") == ["differential"]

    ptsd = _frozen("test-v2-0472")  # F43.10 with a comorbid F32.1
    low = (Turn("How has your mood been?", "Really low, most days. I can't enjoy anything any more."),)
    kinds = lambda text: sorted(f.kind for f in _faults(ptsd, _assessment_note(text), turns=low)
                                if f.kind == "diagnosis_against_record" or (f.kind == "diagnosis_missed" and f.text.startswith("F32")))
    assert kinds("No self-harm, no psychosis, post-traumatic stress disorder with a moderate depressive episode.") == []
    assert kinds("Post-traumatic stress disorder without psychotic features and a moderate depressive episode.") == []


def test_a_rating_scales_name_is_no_diagnosis():
    """Review 1 of stop 47, S5: "GAD-7 13/21" in the impression's results read as a stated generalised anxiety
    disorder, so a note that never made the record's comorbid GAD went uncharged."""
    from mentalhospital_env.rewards.mentaleval.impression import read_impression

    assert read_impression("Results that bear on it: GAD-7 13/21, PHQ-9 18/27.") == ()
    assert [s.code for s in read_impression("GAD-7 of 15 supports generalised anxiety disorder.")] == ["F41.1"]


def test_a_central_feature_the_encounter_never_brought_out_is_not_left_out_of_the_note():
    """Stop 50 (issue 15): a 'pertinent' central feature (the trauma a PTSD followed, the nightmares of a nightmare
    disorder) was wanted in the note whether or not the patient gave it, so faithful notes rated 4-5 that keep to what
    was said ('keeps the differential open without asserting trauma he did not disclose', held_out38 note-711) lost a
    point and a half for an interview that never reached it. A note is rated against the encounter: the feature is
    wanted where a reply told it (or denied a pertinent one), and left out when the note then never names it."""
    ptsd = _frozen("test-v2-0472")
    headed = "History of present illness: Intrusive memories and poor sleep for years.\nAssessment: PTSD."

    def trauma_left_out(*replies):
        turns = tuple(Turn("Tell me more.", r) for r in replies)
        return [f.text for f in _faults(ptsd, headed, turns=turns) if f.kind == "central_finding_omitted" and "trauma" in f.text]

    assert not trauma_left_out("The memories come when I least expect it.", "I'd rather not say what started it.")
    assert trauma_left_out("The memories come when I least expect it.", "It began after a violent robbery at work.")


def test_a_suicide_plan_the_patient_affirmed_costs_the_note_that_leaves_it_out_or_records_it_absent():
    """Stop 50: a note whose risk section named the suicidal thoughts but not the plan the patient affirmed ('Have you
    made a plan to end your life?' 'Yes.'), or wrote 'no plan', scored as the faithful note less nothing: the told
    risk 'suicidal thoughts' was named, and 'no plan' was no claim the reader checks. Now the plan left out is
    told_risk_omitted and the plan recorded as absent a false denial; the faithful note scores above both."""
    case = _frozen("test-v2-0364")
    turns = (Turn("What has brought you here?", "I've felt low for months and I can't sleep."),
             Turn("Have you had thoughts of ending your life?", "Yes, most days I think about killing myself."),
             Turn("Have you made a plan to end your life?", "Yes."),
             Turn("Do you hear voices?", "No."))
    head = ('Chief complaint: "I\'ve felt low for months."\nHistory of present illness: Months of low mood and insomnia.\n'
            "Mental status examination: Mood low. Denies hallucinations.\n")
    tail = "\nAssessment: Depressive episode."
    risk = {
        "faithful": "Risk assessment: Daily suicidal thoughts with a plan to end her life. High risk.",
        "left out": "Risk assessment: Daily suicidal thoughts.",
        "absent": "Risk assessment: Daily suicidal thoughts; no plan.",
    }
    charts = {k: Chart(turns=turns, note=head + v + tail) for k, v in risk.items()}
    kinds = {k: [f.kind for f in note_faults(case, c) if f.section == "risk_assessment"] for k, c in charts.items()}
    assert kinds == {"faithful": [], "left out": ["told_risk_omitted"], "absent": ["false_denial"]}
    judge = OfflineJudge(dimensions=("note_quality",))
    score = {k: judge.score(case, c)["note_quality"] for k, c in charts.items()}
    assert score["faithful"] > score["left out"] >= score["absent"]
    # the plan the patient denied is recorded by 'no plan' (no fault)
    denied = (turns[0], turns[1], Turn("Have you made a plan to end your life?", "No, I haven't got a plan."), turns[3])
    assert not [f for f in note_faults(case, Chart(turns=denied, note=head + risk["absent"] + tail)) if f.section == "risk_assessment"]


@pytest.mark.parametrize("note_id, what", [("note-5012", "opioid"), ("note-5029", "reduced need for sleep")])
def test_the_paragraph_before_a_notes_first_heading_is_its_history(note_id, what):
    """Stop 51 (issue 15): held_out50's brief accurate notes (rated 4, 'accurate and supported ... but brief') open
    with a paragraph of history and then head only Risk and Impression. 'Smokes opioids ("gear") daily' and 'sleeping
    about 3 hours a night and not tired' stand in that paragraph, which was read only in a note with no heading at all
    (stop 42), so the opioid and the reduced need for sleep were central findings left out. The same paragraph
    without them still leaves them out."""
    case, chart, rating = _rated(note_id)
    assert rating == 4

    def omitted(c):
        return [f.text for f in note_faults(case, c) if f.kind == "central_finding_omitted" and what in f.text]

    assert omitted(chart) == []
    if note_id == "note-5012":
        stripped = chart.note.replace('Smokes opioids ("gear") daily', "Uses daily")
    else:
        stripped = chart.note.replace("sleeping about 3 hours a night and not tired", "sleeping badly")
    import dataclasses

    assert stripped != chart.note and omitted(dataclasses.replace(chart, note=stripped))


def test_a_note_recording_no_allergy_the_patient_told_is_faulted_and_loses_qual():
    """Stop 51 (issue 15): held_out50 note-5004 (rated 2: 'one decisive error: records no known drug allergies when she
    said penicillin gives her a rash; otherwise accurate and structured') scored 4.5. The same note recording the
    allergy has no such fault; 'NKDA' where the patient told none is no fault either."""
    import dataclasses

    case, chart, rating = _rated("note-5004")
    assert rating == 2 and "NKDA" in chart.note
    assert "allergy_denied" in _kinds(case, chart)
    right = dataclasses.replace(chart, note=chart.note.replace("Allergies: NKDA.", "Allergies: penicillin (rash)."))
    assert "allergy_denied" not in _kinds(case, right)
    judge = OfflineJudge(dimensions=("note_quality",))
    assert judge.score(case, chart)["note_quality"] <= judge.score(case, right)["note_quality"] - 1.5
    # the patient asked and telling no allergy: 'NKDA' is what she said
    told_none = tuple(Turn(d, "No, none that I know of.") if "allerg" in d.lower() else Turn(d, p) for d, p in ((t.doctor, t.patient) for t in chart.turns))
    assert "allergy_denied" not in _kinds(case, dataclasses.replace(chart, turns=told_none))


@pytest.mark.parametrize("note_id", ["note-409", "note-502", "note-530"])
def test_an_intolerance_the_patient_told_beside_no_allergy_is_no_allergy_denied(note_id):
    """Stop 51: 'Allergies: Drug allergies: "Codeine makes me sick, no allergies that I know of"' quotes the patient,
    who told an intolerance and denied allergies (rated 3-4, no allergy fault named): no allergy_denied."""
    case, chart, _ = _rated(note_id)
    assert "allergy_denied" not in _kinds(case, chart)


@pytest.mark.parametrize("note_id, faulted", [("note-5305", False), ("note-5307", False), ("note-5306", True)])
def test_the_violence_told_as_the_act_or_in_a_terse_opening_is_recorded(note_id, faulted):
    """Stop 54 (held_out53, test-v2-0162: a woman who 'lost it and pushed someone', two children at home): the verbose
    note-5307 (rated 5) records 'Risk to others: one reported act of pushing someone', and the terse note-5305 (rated
    4) 'Says she \"lost it and pushed someone\"' in the paragraph before its only heading (Impression); both were
    faulted main_risk_omitted for violence. The act names the risk, and a terse note's opening paragraph is its risk
    section where it heads none; note-5306 (rated 2) leaves the pushing out and records 'no risk to others'."""
    case, chart, _ = _rated(note_id)
    kinds = [f.text for f in note_faults(case, chart) if f.kind == "main_risk_omitted"]
    assert ("violence or a weapon" in kinds) is faulted


@pytest.mark.parametrize(
    "told, faulted",
    [
        # stop 54 review: violence done by someone else, or feared, is not her violence recorded (3.0-3.5 -> 4.4-4.5)
        ("Reports her brother pushed her into a wall last week", True),
        ("Patient was pushed by her brother", True),
        ("Her partner shoved the neighbour during an argument", True),
        ("Worried she might be attacked by the neighbours", True),
        # her own act, however told
        ("Reports pushing someone last week", False),
        ("Pushed someone last week", False),
        ("She pushed someone last week", False),
    ],
)
def test_violence_done_to_her_or_feared_does_not_record_her_violence(told, faulted):
    """Stop 54 review: the act words of the violence kind (note_faults.json 'note_acts') counted wherever they stood,
    so a note that tells only that she was pushed, or that her partner shoved someone, recorded her violence. The act
    names the risk only as the patient's own (at its clause's start or after 'note_act_subjects', no 'by' after it)."""
    import dataclasses

    case, chart, _ = _rated("note-5307")
    note = chart.note.replace("one reported act of pushing someone", told)
    note = note.replace('"I lost it and pushed someone. ', '"I lost it. ')  # the history's account left out
    assert told in note and "pushed someone." not in note.replace(told, "")
    kinds = [f.text for f in note_faults(case, dataclasses.replace(chart, note=note)) if f.kind == "main_risk_omitted"]
    assert ("violence or a weapon" in kinds) is faulted
