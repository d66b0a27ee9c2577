"""Patient fidelity metrics (rewards/fidelity.py) on hand-made transcripts, and the benchmark's table."""

from __future__ import annotations

import pytest
from mentalhospital_env.rewards.chart import Turn
from mentalhospital_env.rewards.fidelity import (
    PROBES,
    RecordReading,
    Said,
    aggregate,
    answer_statements,
    distinctiveness,
    has_jargon,
    in_role,
    question_script,
    score_transcript,
    stance,
    statements,
    style_profile,
)

from mentalhospital_env.cases import load_case
from mentalhospital_env.knowledge.lexicon import load_lexicon

LEXICON = load_lexicon()
VOICES_Q = LEXICON.get("auditory_hallucinations").questions[0]

CASE = load_case(
    {
        "case_id": "fid-001",
        "language": "en",
        "demographics": {"age": 52, "sex": "female"},
        "setting": "outpatient",
        "ehr": {
            "chief_complaint": "Low mood for two months.",
            "history_of_present_illness": "Denies hearing voices.",
            "family_history": "Mother had low mood.",
            "personal_history": "Works as a librarian.",
            "mental_status_exam": {"affect": "Constricted."},
        },
        "exams": [{"name": "PHQ-9", "kind": "scale", "result": "16/27"}],
        "diagnosis": {
            "categories": ["depressive"],
            "disorders": [{"name": "Major depressive disorder, recurrent, moderate", "code": "F33.1"}],
        },
        "treatment": {"plan": "Review."},
        "persona": {"verbosity": "average", "guardedness": 0.3, "insight": "full"},
        "facts": [
            {
                "id": "cc",
                "section": "chief_complaint",
                "text": "Low mood for two months.",
                "patient_says": "I've been feeling down for a couple of months.",
            },
            {"id": "neg", "section": "history_of_present_illness", "text": "Denies hearing voices."},
            {
                "id": "fam",
                "section": "family_history",
                "text": "Mother had low mood.",
                "patient_says": "My mother was down a lot too.",
            },
            {
                "id": "work",
                "section": "personal_history",
                "text": "Works as a librarian.",
                "patient_says": "I work at the library.",
            },
            {"id": "affect", "section": "mental_status_exam.affect", "text": "Constricted."},
        ],
    }
)
READING = RecordReading(CASE, LEXICON)


def test_support_rules():
    assert READING.supported(Said("low_mood", False, "patient"))
    assert not READING.supported(Said("auditory_hallucinations", False, "patient")), "the record rules it out"
    assert READING.supported(Said("auditory_hallucinations", True, "patient"))
    assert READING.supported(Said("visual_hallucinations", True, "patient")), (
        "closed world: unmentioned symptom denied"
    )
    assert not READING.supported(Said("visual_hallucinations", False, "patient"))
    assert not READING.supported(Said("low_mood", True, "patient")), "denying a recorded symptom"
    assert not READING.supported(Said("alcohol_use", True, "patient")), (
        "open world: history not in the record"
    )
    assert READING.supported(Said("low_mood", False, "other"))
    assert not READING.supported(Said("auditory_hallucinations", False, "other"))


def test_tellable_facts_leave_out_the_examiners_observations():
    assert set(READING.tellable) == {"cc", "neg", "fam", "work"}


def test_a_faithful_transcript_scores_full_marks():
    turns = [
        Turn("What brings you in?", "I've been feeling down for a couple of months.", ("cc",)),
        Turn(VOICES_Q, "No.", ("neg",)),
        Turn("Anyone in your family?", "My mother was down a lot too.", ("fam",)),
        Turn("What do you do?", "I work at the library.", ("work",)),
    ]
    scores = score_transcript(CASE, turns, lexicon=LEXICON)
    assert scores.coverage == 1.0 and scores.coverage_reported == 1.0
    assert scores.precision == 1.0 and scores.hallucination == 0.0 and scores.leak == 0.0
    assert scores.lay_rate == 1.0 and scores.in_role == 1.0


def test_hallucination_leak_and_jargon_are_caught():
    turns = [
        Turn("What brings you in?", "I've been feeling down, and I hear voices at night.", ()),
        Turn("What's wrong with you?", "The doctor said major depressive disorder, F33.1.", ()),
        Turn("How is your mood?", "The patient reports dysphoria and anhedonia.", ()),
        Turn("Do you drink?", "I don't drink at all.", ()),
    ]
    scores = score_transcript(CASE, turns, lexicon=LEXICON)
    assert scores.hallucination == pytest.approx(3 / 4)  # the voices, anhedonia, the invented history
    assert scores.precision < 1.0
    assert scores.leak == pytest.approx(1 / 4)
    assert scores.lay_rate < 1.0 and scores.in_role < 1.0
    assert scores.coverage == pytest.approx(1 / 4)


def test_a_bare_no_denies_what_the_question_asks():
    said = answer_statements(VOICES_Q, "No.", LEXICON)
    assert said == [Said("auditory_hallucinations", True, "patient")]
    assert answer_statements(VOICES_Q, "Yes, sometimes.", LEXICON)[0].negated is False
    assert answer_statements("Tell me about your week.", "No.", LEXICON) == []
    # a bare "yes" to a symptom the record rules out is a hallucination
    scores = score_transcript(CASE, [Turn(VOICES_Q, "Yes.", ())], lexicon=LEXICON)
    assert scores.hallucination == 1.0


def test_consistency_on_repeated_questions():
    same = [Turn(VOICES_Q, "No."), Turn("Hello", "Hi."), Turn(VOICES_Q, "No.")]
    flip = [Turn(VOICES_Q, "No."), Turn("Hello", "Hi."), Turn(VOICES_Q, "Yes, I hear voices.")]
    assert score_transcript(CASE, same, lexicon=LEXICON).consistency == 1.0
    assert score_transcript(CASE, flip, lexicon=LEXICON).consistency == 0.0


def test_stance_reads_past_a_lead():
    said = statements("Like I said, no.", LEXICON)
    assert stance("Like I said, no.", said, "auditory_hallucinations") == "deny"
    assert stance("I'm not sure, to be honest.", [], "alcohol_use") == "unknown"
    assert (
        stance("I hear voices.", statements("I hear voices.", LEXICON), "auditory_hallucinations") == "affirm"
    )


def test_jargon_and_role():
    assert has_jargon("Anhedonia and psychomotor retardation.", LEXICON)
    assert not has_jargon("I just feel down and can't enjoy anything.", LEXICON)
    assert not in_role("Patient reports low mood.")
    assert in_role("I've been low.") and in_role("No.")


def test_distinctiveness_tells_personas_apart_and_not_clones():
    a = {
        f"c{i}": style_profile([f"Honestly {w} I feel fine {w}."], CASE)
        for i, w in enumerate(["crikey", "blimey", "gosh"])
    }
    b = {
        f"c{i}": style_profile([f"Well {w} no {w}."], CASE)
        for i, w in enumerate(["crikey", "blimey", "gosh"])
    }
    assert distinctiveness(a, b) == 1.0
    clones_a = {f"c{i}": style_profile(["Yes."], CASE) for i in range(3)}
    clones_b = {f"c{i}": style_profile(["No."], CASE) for i in range(3)}
    assert distinctiveness(clones_a, clones_b) == 0.0
    with pytest.raises(ValueError):
        distinctiveness({"x": {}}, {"x": {}})


def test_aggregate_pools_replies_and_averages_cases():
    good = score_transcript(CASE, [Turn(VOICES_Q, "No.", ("neg",))], lexicon=LEXICON)
    bad = score_transcript(
        CASE, [Turn(VOICES_Q, "Yes, I hear voices.", ()), Turn("x", "I hear voices.", ())], lexicon=LEXICON
    )
    pooled = aggregate([good, bad])
    assert pooled.replies == 3 and pooled.hallucinated == 2
    assert pooled.hallucination == pytest.approx(2 / 3)
    assert pooled.coverage == pytest.approx((good.coverage + bad.coverage) / 2)
    with pytest.raises(ValueError):
        aggregate([])


def test_question_script_asks_every_concept_once_then_probes():
    script = question_script(LEXICON)
    asked = [line.concept for line in script if line.role == "concept"]
    assert sorted(asked) == sorted(c.id for c in LEXICON.concepts if c.questions)
    assert tuple(line.utterance for line in script[-len(PROBES) :]) == PROBES
    assert script == question_script(LEXICON)
    first_sensitive = min(
        i for i, line in enumerate(script) if line.concept and LEXICON.get(line.concept).sensitive
    )
    assert sum(1 for line in script[:first_sensitive] if line.role == "rapport") >= 2


def test_benchmark_prints_the_ablation_table(capsys):
    from benchmarks.patient_fidelity import main

    assert main(["--suite", "lexicon:3", "--variants", "naive,full"]) == 0
    out = capsys.readouterr().out
    assert "naive prompt" in out and "full patient" in out and "median ms/reply" in out
    assert "Cov." in out and "Halluc." in out and "Distinct." in out


def test_benchmark_runs_an_llm_backend_from_a_spec(capsys):
    from benchmarks.patient_fidelity import main

    spec = "scripted?reply=I'm not sure."
    assert (
        main(
            [
                "--suite",
                "lexicon:2",
                "--variants",
                "memory,full",
                "--llm",
                spec,
                "--llm-cases",
                "2",
                "--llm-script",
                "30",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "LLM backend" in out and "reply sources" in out
