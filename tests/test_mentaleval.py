"""MentalEval: rubrics as data, the offline judge's features, the LLM judge's parsing and masking,
the jury, and every judge monotone on every calibration ladder."""

from __future__ import annotations

import functools
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mentalhospital_env.rewards.chart import Chart, Turn
from mentalhospital_env.rewards.mentaleval import (
    DIMENSIONS,
    Jury,
    LLMJudge,
    OfflineJudge,
    load_rubrics,
    make_judge,
    parse_score,
)
from mentalhospital_env.rewards.mentaleval.cues import read_cue_file
from mentalhospital_env.rewards.mentaleval.features import note_sections, read_interview, read_utterance
from mentalhospital_env.rewards.mentaleval.judges import Judge
from mentalhospital_env.rewards.mentaleval.rubrics import read_rubric_file

from mentalhospital_env.llm import ScriptedClient

# --- rubrics and cue data --------------------------------------------------------------------------


def test_five_rubrics_with_anchors_1_3_5():
    rubrics = load_rubrics()
    assert tuple(rubrics) == DIMENSIONS
    for r in rubrics.values():
        assert set(r.anchors) == {1, 3, 5}
        assert all(len(text) > 40 for text in r.anchors.values())
        assert "1:" in r.text() and "5:" in r.text()


def test_malformed_rubric_file_names_the_problem():
    raw = {
        "rubrics": [
            {
                "dimension": "empathy",
                "column": "emp",
                "name": "E",
                "stage": "interview",
                "question": "q",
                "anchors": {"1": "a", "5": "b"},
            }
        ]
    }
    with pytest.raises(ValueError, match=r"rubrics\[0\]\.anchors"):
        read_rubric_file(raw)
    raw["rubrics"][0]["anchors"] = {"1": "a", "3": "b", "5": "c"}
    with pytest.raises(ValueError, match="no rubric for"):
        read_rubric_file(raw)


def test_malformed_cue_file_names_the_list():
    with pytest.raises(ValueError, match="'empathy'"):
        read_cue_file(
            {
                "empathy": "not a list",
                "safety_topics": {"a": {}},
                "note_sections": {"a": ["a"]},
                "mse_domains": {"mood": ["mood"]},
                "core_sections": ["a"],
                "limits": {},
            }
        )


# --- reading utterances ------------------------------------------------------------------------------


def test_open_closed_and_leading_questions():
    assert read_utterance("How has your sleep been lately?").open
    assert read_utterance("That sounds hard. Can you tell me more about the voices?").open
    closed = read_utterance("Do you drink alcohol?")
    assert not closed.open and not closed.leading
    assert read_utterance("You haven't been drinking, have you?").leading
    assert read_utterance("I assume you sleep fine?").leading
    assert read_utterance("You're not thinking of hurting yourself, right?").leading
    assert not read_utterance("You haven't been drinking, have you?").open


def test_warmth_and_reflection_need_content():
    assert read_utterance("I'm sorry you've been going through this. How is work?").empathic
    assert read_utterance("It makes sense that you feel that way.").validating
    reply = "I haven't slept properly for weeks and I keep crying at work."
    assert read_utterance(
        "It sounds like the crying at work and the poor sleep have worn you down.", reply
    ).reflective
    assert not read_utterance("It sounds like you should see someone else.", reply).reflective
    assert read_utterance("Calm down and just answer the question.").dismissive


def test_interview_reading_counts_repeats_overload_and_safety_topics():
    turns = (
        Turn("How has your mood been?", "Low, really low, I feel hopeless.", ("f1",)),
        Turn("How has your mood been?", "Still low.", ()),
        Turn(
            "Any low mood, insomnia, hallucinations, voices, paranoia, drinking, drugs or suicidal thoughts?",
            "Some of those.",
            (),
        ),
        Turn("Have you had thoughts of ending your life?", "No.", ("f2",)),
    )
    r = read_interview(Chart(turns=turns))
    assert r.repeated_turns == 1
    assert r.overloaded_turns == 1
    assert {"suicide", "substance"} <= set(r.safety_topics)
    assert r.disclosures == 1 and r.acknowledged == 0
    assert r.informative_turns == 2  # fact ids decide when the chart has them


def test_note_sections_found_from_headings():
    note = (
        "Chief complaint: low mood for two months.\nHistory of present illness: She reports poor sleep.\n"
        "MSE: Mood 'low', affect constricted.\nRisk assessment: denies suicidal ideation.\nPlan: sertraline 50 mg."
    )
    sections = note_sections(note)
    assert list(sections) == [
        "chief_complaint",
        "history_of_present_illness",
        "mental_status_exam",
        "risk_assessment",
        "plan",
    ]
    assert sections["plan"] == "sertraline 50 mg."


# --- parsing judge replies ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply, expected",
    [
        ("The doctor was warm.\nScore: 4", 4.0),
        ("Reasoning... Final score is **3**.", 3.0),
        ('{"score": 5, "reason": "excellent"}', 5.0),
        ("I rate this 2/5 overall.", 2.0),
        ("4 out of 5", 4.0),
        ("3", 3.0),
        ("Score - four", 4.0),
        ("Score: 2. Earlier I thought Score: 4 but no. Score: 3", 3.0),
        ("Score: 7", None),
        ("Score: 0", None),
        ("Score: 10", None),
        ("I cannot judge this.", None),
        ("", None),
        ('{"score": 9}', None),
    ],
)
def test_parse_score_examples(reply, expected):
    assert parse_score(reply) == expected


_TEMPLATES = [
    "Score: {n}",
    "score={n}",
    "Rating: {n}/5",
    "**Score:** {n}",
    "{n}/5",
    '{{"score": {n}}}',
    "Final rating - {n}",
]


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.characters(blacklist_categories=("Nd",), blacklist_characters="{}/"), max_size=80),
    st.integers(1, 5),
    st.sampled_from(_TEMPLATES),
)
def test_parse_score_finds_a_stated_score_after_any_reasoning(prefix, n, template):
    if re.search(r"score|rating|grade|verdict|out of", prefix, re.IGNORECASE):
        return
    assert parse_score(prefix + "\n" + template.format(n=n)) == float(n)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz .,:!\n", max_size=120))
def test_parse_score_gives_none_without_a_score(text):
    if re.search(r"score|rating|grade|verdict|\b(one|two|three|four|five)\b", text):
        return
    assert parse_score(text) is None


# --- the LLM judge and the jury ------------------------------------------------------------------------


def _small_case():
    from mentalhospital_env.rewards.mentaleval.ladders import calibration_case

    return calibration_case()


_CHART = Chart(
    turns=(Turn("How are you feeling?", "Fantastic.", ()),),
    note="Chief complaint: not sleeping.",
    disorders=("F31.2",),
    treatment="Lithium 400 mg at night.",
)


def test_llm_judge_batches_every_dimension_of_every_chart_in_one_call():
    client = ScriptedClient(lambda conversation: "Score: 4")
    judge = LLMJudge(client)
    case = _small_case()
    verdicts = judge.score_many([(case, _CHART), (case, _CHART), (case, Chart())])
    assert len(client.calls) == 1
    assert len(client.calls[0].conversations) == 10  # the empty chart asks nothing
    assert verdicts[0] == {d: 4.0 for d in DIMENSIONS}
    assert verdicts[2] == {d: 1.0 for d in DIMENSIONS}
    system = client.calls[0].conversations[0][0]["content"]
    assert "Score: N" in system and load_rubrics()["empathy"].anchors[5] in system


def test_llm_judge_masks_failures_as_none_never_zero():
    case = _small_case()
    unreadable = LLMJudge(ScriptedClient(lambda c: "I would rather not say."))
    assert unreadable.score(case, _CHART) == {d: None for d in DIMENSIONS}
    broken = LLMJudge(ScriptedClient(["Score: 3"]))  # one reply scripted, five needed: the client raises
    scores = broken.score(case, _CHART)
    assert scores == {d: None for d in DIMENSIONS}
    assert broken.last_error is not None
    partial = LLMJudge(ScriptedClient({"transcript": "Score: 5"}, default="no idea"))
    scores = partial.score(case, _CHART)
    assert scores["empathy"] == 5.0 and scores["treatment_appropriateness"] is None


class _FixedJudge(Judge):
    def __init__(self, value):
        super().__init__()
        self.value = value

    def _score_dimensions(self, case, chart, dimensions):
        return {d: self.value for d in dimensions}


def test_jury_takes_median_or_mean_of_judges_that_answered():
    case = _small_case()
    jury = Jury([_FixedJudge(2.0), _FixedJudge(None), _FixedJudge(5.0), _FixedJudge(4.0)])
    assert jury.score(case, _CHART)["empathy"] == 4.0
    assert (
        Jury([_FixedJudge(2.0), _FixedJudge(5.0)], aggregate="mean").score(case, _CHART)["professionalism"]
        == 3.5
    )
    assert Jury([_FixedJudge(None), _FixedJudge(None)]).score(case, _CHART)["empathy"] is None
    assert Jury([_FixedJudge(None)]).score(case, Chart())["empathy"] == 1.0  # skipped stage, not a failure
    with pytest.raises(ValueError):
        Jury([])


def test_make_judge_specs():
    assert isinstance(make_judge("offline"), OfflineJudge)
    assert make_judge("none") is None
    jury = make_judge("jury:offline+offline")
    assert isinstance(jury, Jury) and len(jury.judges) == 2
    with pytest.raises(ValueError, match="unknown judge spec"):
        make_judge("oracle")


# --- the offline judge and the ladders -----------------------------------------------------------------


def test_offline_judge_scores_skipped_stages_1_and_a_good_chart_high():
    from mentalhospital_env.rewards.mentaleval.ladders import exemplary_chart

    case = _small_case()
    judge = OfflineJudge()
    assert judge.score(case, Chart()) == {d: 1.0 for d in DIMENSIONS}
    scores = judge.score(case, exemplary_chart(case))
    assert all(scores[d] >= 4.0 for d in DIMENSIONS), scores


def test_offline_judge_penalises_dismissive_and_unsafe_and_unsupported():
    from mentalhospital_env.rewards.mentaleval.ladders import exemplary_chart, strip_warmth

    case = _small_case()
    good = exemplary_chart(case)
    judge = OfflineJudge()
    base = judge.score(case, good)
    rude_turns = tuple(
        Turn("Calm down and just answer the question. " + t.doctor, t.patient, t.fact_ids) for t in good.turns
    )
    assert judge.score(case, Chart(turns=rude_turns))["empathy"] < base["empathy"]
    pasted = tuple(
        Turn("I'm sorry to hear that. " + strip_warmth(t.doctor), t.patient, t.fact_ids) for t in good.turns
    )
    assert judge.score(case, Chart(turns=pasted))["empathy"] < base["empathy"] - 1
    unsafe = Chart(treatment=good.treatment + " Start escitalopram 10 mg daily.")
    assert judge.score(case, unsafe)["treatment_appropriateness"] <= 2.0
    everything = replace(
        good, disorders=good.disorders + ("F32.1", "F41.1", "F20.9", "F43.10", "F60.3", "F90.2")
    )
    assert judge.score(case, everything)["diagnostic_rigor"] < base["diagnostic_rigor"]
    shotgun = Chart(
        treatment=good.treatment + " Add quetiapine, haloperidol, clozapine, aripiprazole and lamotrigine."
    )
    assert judge.score(case, shotgun)["treatment_appropriateness"] < base["treatment_appropriateness"]
    avoided = Chart(treatment=good.treatment + " Avoid escitalopram and other antidepressants.")
    assert judge.score(case, avoided)["treatment_appropriateness"] == base["treatment_appropriateness"]
    made_up = "He reports hearing voices, compulsions, binge eating, hair pulling and nightmares. "
    invented = Chart(
        turns=good.turns,
        note=good.note.replace("History of present illness: ", "History of present illness: " + made_up),
    )
    assert judge.score(case, invented)["note_quality"] < base["note_quality"]
    headings_of_keywords = "\n".join(
        f"{heading}: {words}"
        for heading, words in [
            ("Chief complaint", "insomnia spending mission"),
            ("History of present illness", "insomnia grandiosity irritability spending"),
            (
                "Mental status examination",
                "mood elevated affect labile speech pressured thought process flight",
            ),
            ("Risk assessment", "suicide violence alcohol"),
            ("Assessment", "bipolar mania alcohol"),
            ("Plan", "lithium olanzapine admission"),
        ]
    )
    assert judge.score(case, Chart(note=headings_of_keywords))["note_quality"] < 3.0


def _assert_monotone(checks):
    for check in checks:
        assert check.monotone, (check.ladder, check.scores)


def test_offline_judge_is_monotone_on_every_ladder_of_the_calibration_case():
    from mentalhospital_env.rewards.mentaleval.ladders import build_ladders, check_judge

    case = _small_case()
    ladders = build_ladders(case)
    assert [l.name for l in ladders] == [
        "empathy_removed",
        "questions_leading",
        "sections_dropped",
        "differential_emptied",
        "unsafe_plan",
        "critical_step_removed",
        "contraindicated_added",
        "denied_finding_asserted",
        "note_faults",
    ]
    assert all(len(l.rungs) >= 4 for l in ladders[:5]), [(l.name, len(l.rungs)) for l in ladders]
    assert all(len(l.rungs) >= 2 for l in ladders[5:]), [(l.name, len(l.rungs)) for l in ladders]
    checks = check_judge(OfflineJudge(), case, ladders)
    _assert_monotone(checks)
    by_name = {c.ladder: c.scores for c in checks}
    # a critical safety step removed caps App. at 2, a contraindicated drug at 1, a denied finding costs Qual.
    assert max(by_name["critical_step_removed"][1:]) <= 2.0
    assert max(by_name["contraindicated_added"][1:]) <= 1.0
    assert by_name["denied_finding_asserted"][1] <= by_name["denied_finding_asserted"][0] - 1.0


def test_a_plan_paraphrased_with_no_drug_named_loses_at_most_half_a_point():
    from mentalhospital_env.rewards.mentaleval.ladders import exemplary_chart, paraphrase_check, paraphrased_plan

    from mentalhospital_env.cases import load_suite

    case = _small_case()
    plan = exemplary_chart(case).treatment
    other = paraphrased_plan(plan)
    assert "lithium" in plan.lower() and "lithium" not in other.lower() and "olanzapine" not in other.lower()
    judge = OfflineJudge()
    assert paraphrase_check(judge, case).holds
    assert paraphrase_check(Jury([judge, judge]), case).holds
    for case in load_suite("handwritten").cases:
        check = paraphrase_check(judge, case)
        assert check.holds, (case.case_id, check)


@pytest.mark.slow
def test_note_faults_ladder_reaches_the_main_risk_and_every_judge_is_monotone_on_it():
    """hw-040 (overdose, self-cutting, online sexual extortion) and hw-027 (knife, criminal exploitation): a garbled
    quote, an emptied chief complaint and the main risk taken out of the risk section each cost Qual.; the offline
    judge, the LLM judge's prompts with a monotone reader and the jury stay monotone."""
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.mentaleval.ladders import check_judge, exemplary_chart, note_faults_ladder

    suite = load_suite("handwritten")
    for case_id in ("hw-040", "hw-027"):
        case = suite[case_id]
        ladder = note_faults_ladder(case, exemplary_chart(case))
        assert ladder is not None and len(ladder.rungs) == 4, case_id
        assert ladder.steps[-1].startswith("main risk omitted"), ladder.steps
        (check,) = check_judge(OfflineJudge(), case, [ladder])
        assert check.monotone, check.scores
        assert check.scores[-1] <= check.scores[-2] - 1.0, check.scores  # the main risk left out costs a point or more
        probe = LLMJudge(ScriptedClient(lambda c: "Score: 3"))
        replies = {}
        for i, rung in enumerate(ladder.rungs):
            user = probe.conversation(case, rung, ladder.dimension)[1]["content"]
            replies[user] = f"Score: {max(1, 4 - i)}"
        judge = LLMJudge(ScriptedClient(lambda conversation: replies.get(conversation[-1]["content"], "Score: 3")))
        _assert_monotone(check_judge(judge, case, [ladder]))
        _assert_monotone(check_judge(Jury([judge, OfflineJudge()], aggregate="mean"), case, [ladder]))


#: Known faults of the offline judge, found at stop 31 when the generator's new draw of these cases exposed them (the
#: judge of a8605f7 reads them the same way): case-0001 (psychotic depression) scores its note higher with the risk
#: assessment dropped than kept (2.03 -> 2.62: the section's claims cost more in note precision than its absence), and
#: case-0002 (GAD) keeps Qual 5.0 with "suicidal ideation reported" added after the patient denied it. Strict: the
#: mark fails the run as soon as the judge is mended, so the mark must then go.
#: Stop 48: the generator's new chief complaints moved the draw; case-0001 of seed 5 (F32.3, 46) keeps Qual 4.5 with
#: "antisocial acts" asserted in the history after the patient denied them (the judge's precision reading does not
#: count a denied conduct finding). A judge fault, not mended this stop (no judge work at stop 48).
_JUDGE_MISSES_DENIED_CONDUCT = pytest.mark.xfail(
    strict=True, reason="stop 48: the offline judge keeps Qual 4.5 with a denied 'antisocial acts' asserted (case-0001, seed 5)")


@pytest.mark.parametrize("index", [pytest.param(0, marks=_JUDGE_MISSES_DENIED_CONDUCT), 1, 2, 3, 4, 5])
def test_offline_judge_is_monotone_on_the_ladders_of_generated_cases(index):
    """Ladders written from synthetic cases of many disorders (not only the calibration case)."""
    from mentalhospital_env.rewards.mentaleval.ladders import build_ladders, check_judge, exemplary_chart

    from mentalhospital_env.cases import load_case

    judge = OfflineJudge()
    case = load_case(_generated_six()[index])
    _assert_monotone(check_judge(judge, case, build_ladders(case)))
    assert min(judge.score(case, exemplary_chart(case)).values()) >= 4.0, case.diagnosis.codes


@functools.lru_cache(maxsize=1)
def _generated_six():
    from mentalhospital_env.cases.generator import generate_cases

    return tuple(generate_cases(6, seed=5))


def test_scripted_llm_judge_and_jury_are_monotone_on_every_ladder():
    """The LLM judge's prompts and parsing keep a monotone reader monotone: the scripted model answers
    each rung in a different format, worse rungs with lower scores, and the verdicts must come back to
    the right rungs in the right order through one batched call."""
    from mentalhospital_env.rewards.mentaleval.ladders import build_ladders, check_judge

    case = _small_case()
    ladders = build_ladders(case)
    formats = [
        "Reasoning first. Score: {n}",
        '{{"score": {n}}}',
        "Overall {n}/5",
        "**Rating:** {n}",
        "Score - {n}",
    ]
    replies: dict[str, str] = {}
    probe = LLMJudge(ScriptedClient(lambda c: "Score: 3"))
    for ladder in ladders:
        for i, rung in enumerate(ladder.rungs):
            n = max(1, 5 - i) if i < len(ladder.rungs) - 1 else 1
            user = probe.conversation(case, rung, ladder.dimension)[1]["content"]
            replies.setdefault(user, formats[i % len(formats)].format(n=n))

    client = ScriptedClient(lambda conversation: replies.get(conversation[-1]["content"], "Score: 3"))
    judge = LLMJudge(client)
    _assert_monotone(check_judge(judge, case, ladders))
    assert len(client.calls) == 1
    _assert_monotone(check_judge(Jury([judge, OfflineJudge()], aggregate="mean"), case, ladders))


def test_a_remembered_utterance_is_still_read_against_each_previous_reply():
    """The judge remembers an utterance's own reading by text; whether it reflects is read per reply."""
    utterance = "It sounds like the voices at night have been frightening for you."
    echoed = "I hear voices at night and it is frightening."
    unrelated = "The bus was late today."
    for order in ((echoed, unrelated, echoed), (unrelated, echoed, unrelated)):
        for previous in order:
            reading = read_utterance(utterance, previous)
            assert reading.reflective == (previous == echoed)
            assert bool(reading.empathy_labels) == reading.reflective  # its only warm cue is the reflection
    alone = read_utterance(utterance)
    assert not alone.reflective
    assert read_utterance(utterance, echoed).empathy_labels > alone.empathy_labels
    assert read_utterance(utterance, echoed).stems == alone.stems


def test_remembered_note_plan_and_diagnosis_readings_follow_their_inputs():
    """Readings remembered by text still depend on everything else they read: the note's unsupported
    claims on the support given, the plan on the case's guideline, the diagnosis on every chart field."""
    from mentalhospital_env.rewards.mentaleval.features import read_diagnosis, read_note, read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline

    from mentalhospital_env.cases import load_suite

    note = (
        "Chief complaint: low mood.\nHistory of present illness: She reports low mood, insomnia and "
        "auditory hallucinations for three months.\nAssessment: depressive episode with psychotic features."
    )
    chart = Chart(note=note)
    claimed = read_note(None, chart, frozenset())
    assert claimed.unsupported_claims and len(claimed.unsupported_claims) == claimed.claims
    supported = read_note(None, chart, frozenset(claimed.unsupported_claims))
    assert supported.unsupported_claims == () and supported.claims == claimed.claims
    assert read_note(None, chart, frozenset()) == claimed  # and back again

    plan = "Sertraline 50 mg daily, CBT, safety plan, review in two weeks."
    readings = {
        read_plan(plan, case_guideline(case)).first_line_drugs for case in load_suite("dev").cases[:40]
    }
    assert len(readings) > 1  # the same plan reads differently against different guidelines

    base = Chart(note=note, disorders=("F32.3", "F20.0"), categories=("depressive",), exams=("PHQ-9",))
    first = read_diagnosis(None, base)
    assert read_diagnosis(None, replace(base, categories=("psychotic", "depressive"))) != first
    assert read_diagnosis(None, replace(base, note=None)) != first
    assert read_diagnosis(None, base) == first
    odd = replace(base, disorders=(["F32.3"], "F20.0"))  # an unhashable entry: read, not remembered
    assert read_diagnosis(None, odd).unresolved == 1


def test_the_judge_reads_a_denial_through_its_list():
    """A note's "denies A, B, C, D, E, F" denies F too: the judge must not read the list's tail as claims."""
    from mentalhospital_env.rewards.mentaleval.features import mentions

    note = (
        "Pertinent negatives: denies suicidal ideation, homicidal ideation, auditory hallucinations, "
        "visual hallucinations, low mood, panic attacks."
    )
    assert all(m.negated for m in mentions(note))
    assert not any(m.negated for m in mentions("No suicidal ideation, but reports low mood and panic attacks.")[1:])


# --- plans that do not hang together; notes a supervisor marks down --------------------------------------


def test_continue_a_drug_the_patient_is_not_taking_is_read():
    from mentalhospital_env.rewards.mentaleval.features import continued_without

    assert continued_without("Continue the antidepressant. Review in two weeks.", "salbutamol inhaler as needed.") == ("antidepressant",)
    assert continued_without("Continue the antidepressant.", "sertraline 100 mg daily") == ()
    assert continued_without("Start sertraline 50 mg. Continue sertraline for six months after remission.", "none.") == ()
    assert continued_without("Continue current medication.", "no regular medications.") == ("medication",)
    assert continued_without("Keep taking lithium 400 mg.", "lithium carbonate 800 mg at night") == ()
    assert continued_without("Continue for at least six months.", "") == ()


def test_starting_a_drug_the_patient_already_takes_is_read():
    """Stop 53: the scripted clinician's plans for two patients on lithium (held_out50 plan-5039, held_out51 plan-5132,
    both rated 3: 'written as if starting lithium', 'repeats the before-starting-lithium work-up for a woman already on
    it') scored 5. Starting a drug the record says is taken now is a plan that does not follow its record; one the
    record says was stopped or is not taken may be started or restarted."""
    from mentalhospital_env.rewards.mentaleval.features import started_while_taken

    taken = "Takes lithium 300 mg twice daily."
    assert started_while_taken("Before starting lithium: baseline renal function and thyroid function.", taken) == ("lithium",)
    assert started_while_taken("Start lithium 400 mg at night.", "Current medications: amlodipine 5 mg; lithium 300 mg twice daily.") == ("lithium",)
    assert started_while_taken("Continue lithium; check the level.", taken) == ()
    assert started_while_taken("Restart lithium 400 mg at night.", "lithium (prescribed, not taken for several weeks).") == ()
    assert started_while_taken("Start lithium 400 mg at night.", "lithium (prescribed, not taken for several weeks).") == ()
    assert started_while_taken("Start lithium 400 mg at night.", "No regular medication.") == ()
    assert started_while_taken("Start quetiapine 50 mg at night.", taken) == ()


@pytest.mark.parametrize(
    "plan",
    [
        "She was started on lithium three years ago; continue lithium 300 mg twice daily, with a lithium level.",
        "Lithium was started in 2019, continue lithium 300 mg twice daily.",
        "He has been started on lithium by his GP; continue it and check the level.",
    ],
)
def test_a_start_told_as_history_is_not_starting_a_drug_taken(plan):
    """Stop 54 review: 'started on' read a plan's history ('She was started on lithium three years ago; continue
    lithium ...', 5.0 -> 3.0 as 'starts lithium, which the patient already takes'). A passive start or a clause dated
    in the past is history (cues.json start_taken_history)."""
    from mentalhospital_env.rewards.mentaleval.features import started_while_taken

    assert started_while_taken(plan, "Takes lithium 300 mg twice daily.") == ()


def test_a_plan_starting_a_drug_already_taken_is_capped_at_three():
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import treatment_score

    import benchmarks.judge_agreement as bench

    case = bench.load_records()[("test-v2", "test-v2-0205")]  # the record the stop-51 consultant rated against
    guideline = case_guideline(case)
    good = (
        "Continue lithium 300 mg twice daily; repeat the 12-hour lithium level with renal and thyroid function. "
        "Psychoeducation about early warning signs and mood charting. Interpersonal and social rhythm therapy. "
        "Safety plan with crisis numbers; limit the medication supply. Discuss contraception; pregnancy test. "
        "Review within a week."
    )
    assert treatment_score(read_plan(good, guideline, case)) > 3.0
    reading = read_plan(good + " Before starting lithium: baseline eGFR, TSH and calcium.", guideline, case)
    assert reading.started_taken == ("lithium",) and treatment_score(reading) <= 3.0


def _hw(case_id):
    from mentalhospital_env.cases import load_suite

    return load_suite("handwritten")[case_id]


def test_an_incoherent_plan_is_capped_at_three():
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import treatment_score

    case = _hw("hw-001")  # recurrent depression, takes only an inhaler
    guideline = case_guideline(case)
    good = (
        "Start sertraline 50 mg daily, explaining side effects and the delay before it helps. Refer for cognitive "
        "behavioural therapy. Agree a written safety plan with crisis numbers. Review in one week."
    )
    base = treatment_score(read_plan(good, guideline))
    assert base > 3.0
    reading = read_plan(f"{good} Refer to the specialist eating disorder service.", guideline)
    assert reading.misplaced and treatment_score(reading) <= 3.0 < base
    therapy = good.replace("Start sertraline 50 mg daily, explaining side effects and the delay before it helps. ", "")
    assert not read_plan(therapy, guideline).incoherent
    reading = read_plan(f"Continue the antidepressant. {therapy}", guideline)
    assert reading.continued_absent == ("antidepressant",) and treatment_score(reading) <= 3.0


def test_psychotic_depression_with_an_antidepressant_alone_scores_at_most_two():
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import treatment_score

    guideline = case_guideline(_hw("hw-015"))
    alone = "Sertraline 50 mg daily. Supportive psychotherapy. Daily review on the ward; monitor food and fluid intake."
    assert treatment_score(read_plan(alone, guideline)) <= 2.0
    assert "psychotic_depression_treatment" not in read_plan(
        alone + " Add olanzapine 5 mg at night; consider ECT if he refuses fluids.", guideline
    ).critical_missing


def test_misfiled_quotes_and_a_checklist_of_denials_lower_note_quality():
    from mentalhospital_env.rewards.mentaleval.features import checklist_denials, misfiled_quote_texts
    from mentalhospital_env.rewards.mentaleval.offline import note_quality_score

    note = (
        'History of present illness: Context: "Someone\'s put cameras in my flat." Impact: "I can\'t work." '
        'Forensic history: "No, never been in trouble." Trauma history: "I was done for a fight a few years back."'
    )
    assert [label for label, _ in misfiled_quote_texts(note)] == ["Context", "Trauma history"]
    case = _hw("hw-001")
    denials = "History of present illness: low mood for two months. " + " ".join(
        f"Denies {x}." for x in ("obsessions", "repeated unlawful acts", "binge eating", "tics", "suicidal ideation")
    )
    irrelevant = checklist_denials(case, Chart(note=denials))
    assert "suicidal_ideation" not in irrelevant and len(irrelevant) >= 3
    from mentalhospital_env.rewards.mentaleval.offline import OfflineJudge

    reading = OfflineJudge().readings(case, _small_case_chart_for(case))["note"]
    clean = note_quality_score(reading)
    assert note_quality_score(replace(reading, misfiled_quotes=2)) < clean
    assert note_quality_score(replace(reading, checklist_denials=("a", "b", "c", "d", "e"))) < clean


def _small_case_chart_for(case):
    from mentalhospital_env.rewards.mentaleval.ladders import exemplary_chart

    return exemplary_chart(case)


# --- plans that ignore medical instability in the results on file -------------------------------------------


@pytest.mark.parametrize(
    ("case_id", "unsafe", "safe"),
    [
        (  # bulimia with potassium 2.6 mmol/L and U waves
            "hw-029",
            "Discharge home with GP follow-up. Refer to the eating disorder service for CBT-ED (about 20 sessions); "
            "regular eating; guided self-help while waiting. Weekly bloods and weight. Ask about suicidal thoughts.",
            "Admit under the medical team today for IV potassium replacement with cardiac monitoring; daily U&Es, "
            "magnesium and phosphate. Refer to the eating disorder service for CBT-ED (about 20 sessions); regular "
            "eating; guided self-help while waiting. Ask about suicidal thoughts.",
        ),
        (  # factitious hypoglycaemia, glucose 1.9 mmol/L on this admission
            "hw-033",
            "Joint medical and psychiatric meeting; non-punitive approach; discharge home today. Referral to liaison "
            "psychology for weekly therapy with one named clinician; GP involvement. Safety plan with crisis numbers; "
            "remove access to medicines and insulin on the ward; review within a week.",
            "Treat the low glucose with IV dextrose now and recheck capillary glucose hourly; joint medical and "
            "psychiatric meeting; non-punitive approach. Referral to liaison psychology for weekly therapy with one "
            "named clinician; GP involvement. Safety plan with crisis numbers; remove access to medicines and insulin on "
            "the ward; review within a week.",
        ),
    ],
)
def test_a_plan_ignoring_unstable_results_scores_at_most_two(case_id, unsafe, safe):
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import treatment_score

    guideline = case_guideline(_hw(case_id))
    assert guideline.profile.findings  # read from the case's exam results
    low, high = treatment_score(read_plan(unsafe, guideline)), treatment_score(read_plan(safe, guideline))
    assert low <= 2.0 < high


def test_family_based_treatment_for_an_adult_is_misplaced():
    from dataclasses import replace

    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import treatment_score

    guideline = case_guideline(_hw("hw-007"))  # anorexia at 16, admitted for medical stabilisation
    plan = _hw("hw-007").treatment.plan
    assert not read_plan(plan, guideline).misplaced
    adult = replace(guideline, profile=replace(guideline.profile, age=24))
    reading = read_plan(plan, adult)
    assert reading.misplaced and treatment_score(reading) <= 3.0


def test_safeguarding_and_withdrawal_ladders_are_monotone_for_every_judge():
    """The children's safeguarding rules (hw-027: exploitation, a knife, going missing; hw-040: overdose and
    sexual extortion) and complicated alcohol withdrawal (hw-013: a past withdrawal seizure): each critical
    action removed caps App. at 2, an adult ward, ECT or adult mental health law added caps it at 1, for the offline judge, the LLM judge's reading path and the jury alike."""
    from mentalhospital_env.rewards.mentaleval.ladders import build_ladders, check_judge

    from mentalhospital_env.cases import load_suite

    cases = {c.case_id: c for c in load_suite("handwritten").cases}
    offline = OfflineJudge()
    for case_id, removed, added in (
        ("hw-027", {"safeguarding_referral", "police_involvement", "missing_episode_plan", "violence_risk_plan"}, set()),
        ("hw-040", {"safeguarding_referral", "police_involvement", "overdose_medical_assessment"}, {"adult_ward", "ect"}),
        ("hw-013", {"inpatient_detoxification"}, set()),
    ):
        case = cases[case_id]
        ladders = [l for l in build_ladders(case) if l.name in ("critical_step_removed", "contraindicated_added")]
        by_name = {l.name: l for l in ladders}
        steps = " ".join(by_name["critical_step_removed"].steps)
        assert all(a in steps for a in removed), (case_id, steps)
        if added:
            from mentalhospital_env.rewards.mentaleval.ladders import ladder_phrases

            texts = " ".join(by_name["contraindicated_added"].steps)
            assert any(ladder_phrases()["contraindicated_sentences"][a] in texts for a in added), (case_id, texts)
        checks = check_judge(offline, case, ladders)
        _assert_monotone(checks)
        scores = {c.ladder: c.scores for c in checks}
        assert scores["critical_step_removed"][0] >= 4.0, (case_id, scores)
        assert max(scores["critical_step_removed"][1:]) <= 2.0
        if added:
            assert max(scores["contraindicated_added"][1:]) <= 1.0
        # the LLM judge path (a monotone scripted reader) and the jury keep the order
        _assert_llm_judge_and_jury_monotone(case, ladders, offline)


def _assert_llm_judge_and_jury_monotone(case, ladders, offline) -> None:
    """The LLM judge's reading path (a scripted reader scoring each ladder's rungs 5, 4, ... 1) and a jury of it with
    ``offline`` keep every ladder's order."""
    from mentalhospital_env.rewards.mentaleval.ladders import check_judge

    probe = LLMJudge(ScriptedClient(lambda c: "Score: 3"))
    replies = {}
    for ladder in ladders:
        for i, rung in enumerate(ladder.rungs):
            user = probe.conversation(case, rung, ladder.dimension)[1]["content"]
            replies.setdefault(user, f"Score: {max(1, 5 - i)}")
    judge = LLMJudge(ScriptedClient(lambda conversation: replies.get(conversation[-1]["content"], "Score: 3")))
    _assert_monotone(check_judge(judge, case, ladders))
    _assert_monotone(check_judge(Jury([judge, offline], aggregate="mean"), case, ladders))


def test_record_sign_ladders_are_monotone_for_every_judge():
    """What the record itself demands (stop 23): hw-015 (a rope three days ago, detained, sodium 147 and creatinine 124:
    continuous observation, rights, fluids and a repeat U&E), hw-024 (a taped boiler flue, a threat to the
    neighbour), hw-028 (vascular cognitive impairment in a driver who burns pans): each critical action removed caps
    App. at 2, for the offline judge, the LLM judge's reading path and the jury alike."""
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.mentaleval.ladders import build_ladders, check_judge

    cases = {c.case_id: c for c in load_suite("handwritten").cases}
    offline = OfflineJudge()
    for case_id, removed in (
        ("hw-015", {"enhanced_observation", "fluid_and_renal_review", "detention_rights"}),
        ("hw-024", {"gas_safety", "violence_risk_plan", "antipsychotic_risk_discussion"}),
        ("hw-028", {"vascular_risk_control", "driving_advice", "fire_safety"}),
    ):
        case = cases[case_id]
        ladders = [l for l in build_ladders(case) if l.name == "critical_step_removed"]
        assert ladders, case_id
        steps = " ".join(ladders[0].steps)
        assert all(a in steps for a in removed), (case_id, steps)
        checks = check_judge(offline, case, ladders)
        _assert_monotone(checks)
        scores = checks[0].scores
        assert scores[0] >= 4.0, (case_id, scores)
        assert max(scores[1:]) <= 2.0, (case_id, scores)
        _assert_llm_judge_and_jury_monotone(case, ladders, offline)


def test_advised_steps_lower_app_without_capping_it():
    """School liaison for a child outpatient and physical care after days without food are advised, not required:
    their absence costs a little (hand ratings: 4, not 2)."""
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import advised_points, treatment_score

    case = _hw("hw-002")  # four days without eating, an emergency psychosis
    guideline = case_guideline(case)
    plan = (
        "Admit to the acute ward, informally if he agrees and has capacity, otherwise a Mental Health Act assessment. "
        "Olanzapine 5 mg at night. Review the risk to his flatmates daily; early intervention service; daily review."
    )
    without = read_plan(plan, guideline)
    with_care = read_plan(plan + " Food and fluid chart and daily physical observations.", guideline)
    assert without.advised_missing == ("physical_care",) and not without.critical_missing
    assert not with_care.advised_missing
    assert 3.0 < treatment_score(without) < treatment_score(with_care)
    assert advised_points(without) > 0 == advised_points(with_care)


def test_over_treatment_and_adult_self_poisoning_ladders_are_monotone_for_every_judge():
    """Stop 24's rules: an antipsychotic for anxiety or bulimia and a gabapentinoid on daily codeine are
    over-treatments (App. at most 2), a long-term benzodiazepine for anxiety a harm (at most 1); an adult's overdose in
    the emergency department without its medical assessment misses a critical step (at most 2). Offline, the LLM
    judge's reading path and the jury keep every rung's order."""
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.mentaleval.ladders import build_ladders, check_judge

    cases = {c.case_id: c for c in load_suite("handwritten").cases}
    offline = OfflineJudge()
    for case_id, ladder_names in (
        ("hw-020", ("contraindicated_added",)),
        ("hw-029", ("contraindicated_added", "critical_step_removed")),
        ("hw-014", ("critical_step_removed",)),
    ):
        case = cases[case_id]
        ladders = [l for l in build_ladders(case) if l.name in ladder_names]
        assert {l.name for l in ladders} == set(ladder_names), (case_id, [l.name for l in ladders])
        checks = check_judge(offline, case, ladders)
        _assert_monotone(checks)
        for check in checks:
            assert check.scores[0] >= 3.5, (case_id, check.ladder, check.scores)
            assert max(check.scores[1:]) <= 2.0, (case_id, check.ladder, check.scores)
        _assert_llm_judge_and_jury_monotone(case, ladders, offline)
    steps = " ".join(next(l for l in build_ladders(cases["hw-014"]) if l.name == "critical_step_removed").steps)
    assert "overdose_medical_assessment" in steps, steps


# --- App. reads what the record calls for (stop 26, issue 15: the supervisor's plan faults) --------------------

_HW010_PLAN = (
    "Do not stop suddenly: a community assisted withdrawal with chlordiazepoxide on a reducing regimen and daily checks. "
    "{thiamine} {relapse}Repeat LFTs, liver ultrasound and FibroScan. Review weekly."
)
_RELAPSE = "After withdrawal, acamprosate 666 mg three times daily to prevent relapse, and the community alcohol service. "


def _hw010_app(thiamine: str, relapse: str = _RELAPSE):
    from mentalhospital_env.cases import load_suite

    case = load_suite("handwritten")["hw-010"]  # alcohol dependence seen in clinic
    chart = Chart(treatment=_HW010_PLAN.format(thiamine=thiamine, relapse=relapse))
    judge = OfflineJudge()
    return judge.score(case, chart)["treatment_appropriateness"], judge.readings(case, chart)["plan"]


def test_inpatient_steps_in_an_outpatient_plan_hold_app_at_three_and_oral_thiamine_does_not():
    oral, reading = _hw010_app("Oral thiamine 100 mg three times daily.")
    assert not reading.gaps and oral > 4
    iv, reading = _hw010_app("Pabrinex IV for 3-5 days, then oral thiamine.")
    assert iv == 3.0 and len(reading.record_faults) == 1 and "parenteral thiamine" in reading.record_faults[0]


def test_each_further_gap_lowers_app_by_half_a_point_never_below_two():
    score, reading = _hw010_app("Pabrinex IV for 3-5 days, then oral thiamine.", relapse="")
    assert reading.core_missing == ("alcohol_relapse_prevention",) and len(reading.gaps) == 2
    assert score == 2.5


def test_judge_agreement_reads_the_scripted_slice_against_the_records_it_was_rated_on():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "judge_agreement.py"
    spec = importlib.util.spec_from_file_location("judge_agreement_bench", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = [r for r in bench.load_ratings() if r["split"] == "scripted"]
    frozen = bench.load_records()
    assert {("test-v2", r["case_id"]) for r in rows} <= set(frozen)
    plan = next(r for r in rows if r["id"] == "plan-137")  # rated for a 19-year-old woman after a house fire
    case, _chart = bench.charts([plan], bench.load_encounters())[0]
    assert (case.demographics.age, case.demographics.sex) == (19, "female")


def test_judge_agreement_holds_the_stop_28_slice_apart_with_its_encounters_and_records():
    """The held_out28 slice (issue 15, stop 28): at least 10 notes and 10 plans on test-v2 cases, each note with its
    frozen encounter and each case with its frozen record; it is reported on its own, outside 'earlier', and
    ``--disagreements`` never lists it (it is never tuned on)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "judge_agreement.py"
    spec = importlib.util.spec_from_file_location("judge_agreement_bench28", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = [r for r in bench.load_ratings() if r["split"] == "held_out28"]
    assert sum(r["kind"] == "note" for r in rows) >= 10 and sum(r["kind"] == "plan" for r in rows) >= 10
    assert {("test-v2", r["case_id"]) for r in rows} <= set(bench.load_records())
    assert {r["case_id"] for r in rows if r["kind"] == "note"} <= set(bench.load_encounters())
    assert "held_out28" in bench.SPLITS
    assert not any(bench._in_split(r, "earlier") or bench._in_split(r, "scripted") or bench._in_split(r, "held_out") for r in rows)
    assert all(bench._in_split(r, "all") and bench._in_split(r, "held_out28") for r in rows)


#: The hand-rated slices written after stop 28, each rated before any judge ran on it and committed alone; pinned by
#: count and digest of their ids, cases, ratings and texts, so a re-rating after a look at the judge fails. held_out29
#: (seed 2929, a9107e3) was read at stop 30 and held_out30 (seed 3030, 81e5ef8, a supervisor who read no judge code) at
#: stop 31; both are development since. held_out31 (seed 3131, played at a8605f7 and rated by a writer who read no
#: judge code) was read at stop 32; held_out32 (seed 3232, played at b3c2309, 100 items rated by a consultant who read
#: no code) at stop 33; held_out33 (seed 3333, played at 476165c, 100 items rated the same way) at stop 34; held_out34
#: (seed 3434, played at a629fb8, 100 items rated the same way) at stop 35; held_out35 (seed 3535, played at c770a5d,
#: 100 items rated the same way) at stop 36; held_out36 (seed 3636, played at 9b80d3d, 100 items rated the same way)
#: at stop 37; held_out37 (seed 3737, played at 4019686, 100 items rated the same way) was read at stop 38; held_out38
#: (seed 3838, played at 1c5421f, 100 items rated the same way) at stop 39; held_out39 (seed 3939, played at 87a193a,
#: 100 items rated the same way) at stop 40; held_out40 (seed 4040, played at ca53a5d, 100 items rated the same way) at
#: stop 41; held_out41 (seed 4141, played at 5670465, 100 items rated the same way) at stop 42; held_out42 (seed 4242,
#: played at d1846b4, 100 items rated the same way) at stop 43; held_out43 (seed 4343, played at 4e7e189, 100 items
#: rated the same way) at stop 44; held_out44 (seed 4444, played at c6bf17a, 100 items rated the same way) at stop 45;
#: held_out45 (seed 4545, played at 51369c7, 100 items rated the same way) at stop 46; held_out46 (seed 4646, played at
#: ef707c4, 100 items rated the same way) at stop 47; held_out47 (seed 4747, played at 19756ca, 100 items rated the same
#: way) at stop 49 (no slice was drawn at stop 48); held_out49 (seed 4949, played at 184b3e4, 100 items rated the same way,
#: by one consultant who read no code) at stop 50; held_out50 (seed 5050, played at cb8a4f7c, 100 items rated the same
#: way, by one consultant who read no code) at stop 51; held_out51 (seed 5151, played at d40d291d, 100 items rated the
#: same way, by one consultant who read no code) at stop 52; held_out52 (seed 5252, played at b0e924bd, 100 items rated
#: the same way, by one consultant who read no code) at stop 53; held_out53 (seed 5353, played at 45e30f33, 100 items
#: rated the same way, by one consultant who read no code) at stop 54; held_out54 (seed 5454, played at ecba7d6f, 100
#: items rated the same way, by one consultant who read no code) at stop 55; held_out55 (seed 5555, played at 26303f8a,
#: 100 items rated the same way, by one consultant who read no code) at stop 56; held_out56 (seed 5656, played at
#: f9d5e8ef, 100 items rated the same way, by one consultant who read no code) is the slice ``--disagreements`` never
#: lists.
RATED_SLICES = [
    # split, items, notes, SHA-256
    ("held_out29", 34, 16, "d2254bab7e3ec99093f097a4912dc69fe34fac5a3fd676e9ed0ea498fe75dca2"),
    ("held_out30", 28, 13, "2f0567ecb481ff878cabc3e4d3abc43aee5b9917769ca35c51b3a6c3ea10660e"),
    ("held_out31", 28, 13, "912c06dcdacceba3872cbc4a0ba2b962158e893ac3b679ea62d2b8ded1013ded"),
    ("held_out32", 100, 40, "d32a50da15ac247de6fd49cf07cff76fcfd8591728e1dc731d268a9eea88db2f"),
    ("held_out33", 100, 40, "c833a09ea3b20ca1329dbb8cb7ec4f0156e25b8976693db38cc500c0b9440dee"),
    ("held_out34", 100, 40, "dc934827b7683b1610910afc814955011e492f342448c1bea6f02b6ad2694273"),
    ("held_out35", 100, 40, "4c3f3ea1ded6b3822d7154478f7d261a7b4fcd43ea489d95347c01b7de81b05c"),
    ("held_out36", 100, 40, "0faa015c25970b6dbf7a0d0648b56ae0103e1ae80295520a6a4ce0de8b6d93ea"),
    ("held_out37", 100, 40, "9286cc1ac1456a8ad1889c02e9e9ec6d42b0f6615962f696f7812d21068f455e"),
    ("held_out38", 100, 40, "dd13d7bcc4f27a58b8648268970225c32fb0b31b25a8d04cd97db189837213f8"),
    ("held_out39", 100, 40, "ac338fb9bd7ac70f991a9513dfffff6eadbd3ea4a2a47c94683b9da5f71cd4d4"),
    ("held_out40", 100, 40, "b349ef5d54c2cdb51dc73966af29b150c5419bf392290f80cc36caff87408d69"),
    ("held_out41", 100, 40, "a5b3855eea1bb568eac25276aea2d62b2cfa9ef42ac552080f7c6f6d50fead0a"),
    ("held_out42", 100, 40, "479534e2513c62934bddcf019fe5c27fca166729039671186d093990dda0a419"),
    ("held_out43", 100, 40, "2f3a6fb3082c1f53c00ce0f22230323a13ed3c72849a11de1ea2be3819f03275"),
    ("held_out44", 100, 40, "e1f888cf604d5bc2a825478811e4173e2920ed58c83c12779cba61d28210c7db"),
    ("held_out45", 100, 40, "06aa2925613dae7b994ec1d26a0be0ce5a0b5a43aa150f536d66689b389e8ed9"),
    ("held_out46", 100, 40, "edf5afd20fd1fd18d7203052f8d4b52333a74a2b7a5f72a46bf1f58e856ab5ea"),
    ("held_out47", 100, 40, "feb8e69b2e3373b60ac04f14857d0b199a9f1152f6f8313de13136b1130bff90"),
    ("held_out49", 100, 40, "b33f9723d69863dfc3018f8fbb47643a4638583def4b7932011a1683e923a416"),
    ("held_out50", 100, 40, "cc15f11e4f6d50484d05baebd67028e2d1d4b308d8d6d2ca20c4750003b7b636"),
    ("held_out51", 100, 40, "b098d952d6bd9d74bfccad4e481b8470b9c837f30f1baef4a83640e80cbf7e87"),
    ("held_out52", 100, 40, "753eb11e9d460ae5d6b86166748836921426c437ebf212cad755c85d305d5e94"),
    ("held_out53", 100, 40, "c3e9b542030602424883e5f55be836e8c267b71c5e7275ffbf731999f61facc0"),
    ("held_out54", 100, 40, "0388208cbf0b5ea8f132db6937c0d4e5deeec86889f9bff2f9dc3f252b2d3732"),
    ("held_out55", 100, 40, "924517e7eb083c14a9b56ad72293e32f5f49917140547ef9ca57f151527aaffa"),
    ("held_out56", 100, 40, "c85a64f51ff8c4c20d302a93cd493a1de625ab5ab9d6e4c44e2c8701f1e4f1f5"),
]


@pytest.mark.parametrize("position", range(len(RATED_SLICES)), ids=[s[0] for s in RATED_SLICES])
def test_judge_agreement_pins_each_rated_slice_by_count_and_digest(position):
    import hashlib
    import importlib.util
    import json
    from pathlib import Path

    split, items, notes, digest = RATED_SLICES[position]
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "judge_agreement.py"
    spec = importlib.util.spec_from_file_location(f"judge_agreement_bench_{split}", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = sorted((r for r in bench.load_ratings() if r["split"] == split), key=lambda r: r["id"])
    assert (len(rows), sum(r["kind"] == "note" for r in rows), len({r["case_id"] for r in rows})) == (items, notes, 10)
    blob = json.dumps([[r["id"], r["case_id"], r["rating"], r["text"]] for r in rows], ensure_ascii=False).encode()
    assert hashlib.sha256(blob).hexdigest() == digest
    # rated against the record and the encounter as they were: frozen, whatever later redraws of test-v2 did
    assert {("test-v2", r["case_id"]) for r in rows} <= set(bench.load_records())
    assert {r["case_id"] for r in rows if r["kind"] == "note"} <= set(bench.load_encounters())
    assert split in bench.SPLITS
    earlier = ("earlier", "held_out", "scripted", "held_out28", *(s[0] for s in RATED_SLICES[:position]))
    assert not any(bench._in_split(r, s) for r in rows for s in earlier)
    if position == len(RATED_SLICES) - 1:
        # the newest pinned slice is the one --disagreements never lists, or the slice after it is (named before its
        # ratings land: held_out38 while held_out37 is development data)
        assert bench.HELD_OUT in (split, f"held_out{int(split[len('held_out'):]) + 1}")
        assert bench.HELD_OUT in bench.SPLITS


def _faulted_note(**kw):
    from mentalhospital_env.rewards.mentaleval.features import NoteReading
    from mentalhospital_env.rewards.mentaleval.note_faults import NoteFault

    faults = tuple(NoteFault(k, "assessment", "x") for k in ("diagnosis_against_record", "symptom_list_history", "misfiled_answer", "misfiled_answer"))
    base = dict(sections=("chief_complaint", "history_of_present_illness", "mental_status_exam", "risk_assessment", "assessment", "plan"),
                core_sections=("chief_complaint", "history_of_present_illness", "mental_status_exam", "risk_assessment", "assessment", "plan"),
                mse_domains=("mood", "thought_content"), risk_topics=("suicide",), prose_sentences=4, claims=4, unsupported_claims=(),
                omitted=("a", "b", "c", "d", "e"), faults=faults)
    base.update(kw)
    return NoteReading(**base)


def test_a_structured_note_that_misleads_no_one_keeps_qual_two_however_its_faults_add_up():
    from mentalhospital_env.rewards.mentaleval.note_faults import NoteFault
    from mentalhospital_env.rewards.mentaleval.offline import note_quality_score, note_usable

    poor = _faulted_note()
    assert note_usable(poor) and note_quality_score(poor) == 2.0
    # a claim about risk or psychosis the encounter contradicts, or an invented principal diagnosis: it may mislead care
    dangerous = _faulted_note(claim_errors=1, serious_errors=1)
    invented = _faulted_note(faults=poor.faults + (NoteFault("diagnosis_unsupported", "assessment", "x"),))
    thin = _faulted_note(core_sections=("chief_complaint", "plan"), sections=("chief_complaint", "plan"))
    for note in (dangerous, invented, thin):
        assert not note_usable(note) and note_quality_score(note) < 2.0


def test_an_accurate_keyword_note_keeps_two_and_a_wrong_one_does_not():
    """Stop 29 (issue 15): hand raters give 2 to an accurate keyword list ('a keyword list') and 1 to a misrecording
    or a nearly empty note; a fragment with a diagnosis against the record or a false denial gets no floor."""
    from mentalhospital_env.rewards.mentaleval.note_faults import NoteFault
    from mentalhospital_env.rewards.mentaleval.offline import note_accurate_fragment, note_quality_score

    keywords = _faulted_note(core_sections=(), sections=(), mse_domains=(), risk_topics=(), prose_sentences=0, claims=3, faults=(), omitted=())
    assert note_accurate_fragment(keywords) and note_quality_score(keywords) == 2.0
    for worse in (
        _faulted_note(core_sections=(), sections=(), mse_domains=(), prose_sentences=0, claims=3, faults=(), claim_errors=1),
        _faulted_note(core_sections=(), sections=(), mse_domains=(), prose_sentences=0, claims=3, faults=(NoteFault("diagnosis_against_record", "assessment", "x"),)),
        _faulted_note(core_sections=(), sections=(), mse_domains=(), prose_sentences=0, claims=1, faults=()),
    ):
        assert not note_accurate_fragment(worse) and note_quality_score(worse) < 2.0


def _with_diagnoses(case, *pairs):
    from mentalhospital_env.cases.model import Diagnosis, ReferenceDisorder

    disorders = tuple(ReferenceDisorder(name=n, code=c) for n, c in pairs)
    return replace(case, diagnosis=Diagnosis(categories=case.diagnosis.categories, disorders=disorders))


@pytest.mark.parametrize(
    "principal, comorbid, other_plan, own_plan",
    [
        # stop 29's supervisor: an anorexia treated as its comorbid depression (fluoxetine serves both; CBT and
        # behavioural activation only the depression), the anorexia's monitoring and referral carried beside it
        (("Anorexia nervosa", "F50.01"), ("Moderate depressive episode", "F32.1"),
         "Fluoxetine 20 mg daily. Refer for cognitive behavioural therapy and behavioural activation. Weight, pulse, "
         "blood pressure, ECG and electrolytes weekly; refer to the specialist eating disorder service. Review in a week.",
         "Refer for family-based treatment with the specialist eating disorder service. Weight, pulse, blood pressure, "
         "ECG and electrolytes weekly; fluoxetine 20 mg daily for the low mood. Review in a week."),
        (("Bipolar disorder, current episode manic", "F31.12"), ("Generalized anxiety disorder", "F41.1"),
         "Start venlafaxine 75 mg daily and applied relaxation. Review in two weeks.",
         "Start lithium 400 mg at night with levels, renal and thyroid function; applied relaxation later. Review in two weeks."),
    ],
)
def test_a_plan_for_the_comorbid_disorder_in_place_of_the_principal_is_capped_at_three(principal, comorbid, other_plan, own_plan):
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import treatment_score

    case = _with_diagnoses(_hw("hw-001"), principal, comorbid)
    guideline = case_guideline(case)
    wrong = read_plan(other_plan, guideline)
    assert wrong.targets_other and "nothing aimed at the principal disorder" in wrong.targets_other[0]
    assert treatment_score(wrong) <= 3.0
    assert not read_plan(own_plan, guideline).targets_other
    # the same plan where the comorbid disorder is the principal one treats the principal disorder
    assert not read_plan(other_plan, case_guideline(_with_diagnoses(_hw("hw-001"), comorbid, principal))).targets_other


@pytest.mark.parametrize(
    "step",
    ["Fire and falls risk assessment at the home visit.", "Ask about self-neglect and hygiene.", "Agree a risk management plan with the team."],
)
def test_a_safety_step_for_a_risk_other_than_suicide_counts_as_safety(step):
    # stop 28-29: the reference hoarding plan (fire and falls risk, self-neglect) read as having no safety step at all
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import plan_safety

    guideline = case_guideline(_hw("hw-001"))
    base = "Refer for cognitive behavioural therapy. Review in two weeks."
    assert read_plan(f"{base} {step}", guideline).safety_actions > read_plan(base, guideline).safety_actions
    assert plan_safety(read_plan(f"{base} {step}", guideline)) >= plan_safety(read_plan(base, guideline))


def test_a_drug_of_the_past_history_left_unweighed_when_another_of_its_kind_is_started():
    # stop 29: mirtazapine 'helped, but she stopped it some weeks ago'; the plan started sertraline without a word on it
    from mentalhospital_env.cases.model import EHR
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import treatment_score

    base = _hw("hw-001")
    ehr = replace(base.ehr, past_psychiatric_history="Depressive illness since 40; mirtazapine helped, but she stopped it some weeks ago.",
                  medications="Salbutamol inhaler.")
    case = replace(base, ehr=ehr)
    guideline = case_guideline(case)
    plan = ("Start sertraline 50 mg daily, explaining side effects and the delay before it helps. Refer for cognitive "
            "behavioural therapy; psychoeducation. Agree a written safety plan with crisis numbers. Review in one week.")
    reading = read_plan(plan, guideline, case)
    assert reading.past_unconsidered == ("the mirtazapine of the past history is not considered",)
    weighed = [
        plan.replace("Start sertraline 50 mg daily", "Restart mirtazapine 15 mg at night"),
        plan + " Mirtazapine not restarted because of the weight gain.",
        plan.replace("Start sertraline 50 mg daily", "Restart the antidepressant that helped her before"),
    ]
    for other in weighed:
        assert not read_plan(other, guideline, case).past_unconsidered, other
    for other in weighed[:2]:  # the third names no dose
        assert treatment_score(read_plan(other, guideline, case)) >= treatment_score(reading)
    assert not read_plan(plan, guideline, replace(case, ehr=replace(ehr, past_psychiatric_history="Depressive illness since 40."))).past_unconsidered
    # it is marked down as an advised step (hw-001's own advised steps set aside, which already reach the maximum)
    from mentalhospital_env.rewards.mentaleval.offline import advised_points

    alone = replace(reading, record_advised=(), advised_missing=())
    assert advised_points(alone) > advised_points(replace(alone, past_unconsidered=())) == 0
    # a plan that starts no drug of its kind chooses none, and one she still takes is her current treatment
    talking = "Refer for cognitive behavioural therapy. Agree a written safety plan. Review in one week."
    assert not read_plan(talking, guideline, case).past_unconsidered
    still = replace(case, ehr=replace(ehr, medications="Mirtazapine 30 mg at night."))
    assert not read_plan(plan, case_guideline(still), still).past_unconsidered


# --- the fitted calibration (data/calibration.json) ----------------------------------------------------------


def _enabled_calibration(tmp_path, monkeypatch, **override):
    """The data file's fitted models switched on (whatever their leave-one-slice-out verdict), written to tmp."""
    import json

    from mentalhospital_env.rewards.mentaleval import offline

    raw = json.loads(offline.CALIBRATION_PATH.read_text("utf-8"))
    for dim in ("plan", "note"):
        raw[dim]["enabled"] = True
        raw[dim].update(override.get(dim, {}))
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(raw), "utf-8")
    monkeypatch.setattr(offline, "CALIBRATION_PATH", path)
    offline._calibrations.cache_clear()
    return offline


def test_a_fitted_calibration_is_used_but_never_lifts_the_hard_caps(tmp_path, monkeypatch):
    from mentalhospital_env.rewards.mentaleval.ladders import build_ladders, check_judge

    # an absurdly generous model (intercept 5) still scores a plan missing a critical step at most 2, one with a
    # contraindicated drug at most 1, and a note asserting a denied finding below the same note without it
    offline = _enabled_calibration(tmp_path, monkeypatch, plan={"intercept": 5.0}, note={"intercept": 5.0})
    try:
        assert offline.calibration("plan").intercept == 5.0
        case = _small_case()
        by_name = {c.ladder: c.scores for c in check_judge(OfflineJudge(), case, build_ladders(case))}
        assert max(by_name["critical_step_removed"][1:]) <= 2.0
        assert max(by_name["contraindicated_added"][1:]) <= 1.0
        assert by_name["denied_finding_asserted"][1] < by_name["denied_finding_asserted"][0]
        assert by_name["critical_step_removed"][0] == 5.0  # the model, not the rules, scored the full plan
    finally:
        offline._calibrations.cache_clear()


def test_the_fitted_calibration_keeps_the_offline_judge_monotone_on_every_ladder(tmp_path, monkeypatch):
    from mentalhospital_env.rewards.mentaleval.ladders import build_ladders, check_judge

    offline = _enabled_calibration(tmp_path, monkeypatch)
    try:
        case = _small_case()
        _assert_monotone(check_judge(OfflineJudge(), case, build_ladders(case)))
    finally:
        offline._calibrations.cache_clear()


def test_a_calibration_weight_against_its_fixed_sign_is_refused(tmp_path, monkeypatch):
    offline = _enabled_calibration(tmp_path, monkeypatch, plan={"weights": {"rule_score": 0.5, "gaps": 0.3},
                                                                "signs": {"rule_score": 1, "gaps": -1}})
    try:
        with pytest.raises(ValueError, match="gaps"):
            offline.calibration("plan")
    finally:
        offline._calibrations.cache_clear()


def test_the_fitted_note_model_keeps_the_rules_floors_and_the_main_risk_rung(tmp_path, monkeypatch):
    """Stop 35 (issue 15): the note model switched on keeps what broke it at stop 34: the rules' deductions and floors
    apply after the fit (offline.note_after_fit), so a usable structured note keeps 2, an accurate keyword list 2 and
    a wrong one less, a checklist of denials still costs, and the main risk left out costs a full point."""
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.mentaleval.ladders import check_judge, exemplary_chart, note_faults_ladder
    from mentalhospital_env.rewards.mentaleval.note_faults import NoteFault

    offline = _enabled_calibration(tmp_path, monkeypatch, plan={"enabled": False})
    try:
        assert offline.calibration("note") is not None and offline.calibration("plan") is None
        poor = _faulted_note()
        assert offline.note_usable(poor) and offline.note_quality_score(poor) == 2.0
        invented = _faulted_note(faults=poor.faults + (NoteFault("diagnosis_unsupported", "assessment", "x"),))
        assert offline.note_quality_score(invented) < 2.0
        keywords = _faulted_note(core_sections=(), sections=(), mse_domains=(), risk_topics=(), prose_sentences=0, claims=3, faults=(), omitted=())
        wrong = replace(keywords, claim_errors=1)
        assert offline.note_quality_score(keywords) == 2.0 and offline.note_quality_score(wrong) < 2.0
        full = replace(poor, faults=(), omitted=())
        assert offline.note_quality_score(replace(full, checklist_denials=("a", "b", "c", "d", "e"))) < offline.note_quality_score(full)
        case = load_suite("handwritten")["hw-040"]
        (check,) = check_judge(OfflineJudge(), case, [note_faults_ladder(case, exemplary_chart(case))])
        assert check.monotone and check.scores[-1] <= check.scores[-2] - 1.0, check.scores
    finally:
        offline._calibrations.cache_clear()


def test_a_note_model_that_weighs_what_the_rules_charge_after_the_fit_is_refused(tmp_path, monkeypatch):
    offline = _enabled_calibration(tmp_path, monkeypatch, note={"weights": {"prose": 1.0, "fault_points": -0.3},
                                                                "signs": {"prose": 1, "fault_points": -1}})
    try:
        with pytest.raises(ValueError, match="fault_points"):
            offline.calibration("note")
    finally:
        offline._calibrations.cache_clear()


def test_the_shipped_calibration_is_off_and_never_fitted_on_the_newest_held_out_slices():
    """Pre-registered at stop 34, restated at stop 36: the stop-36 refit reads every development slice (held_out34 and
    held_out35 too) and never held_out36 (by name); whether each model is used is decided at integration by the rule
    the script records (PREREGISTERED36, on held_out36); until then both are off (the script's DECIDED, the file's
    'enabled' and the judge agree)."""
    import importlib.util
    import json
    from pathlib import Path

    from mentalhospital_env.rewards.mentaleval import offline

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("fit_judge_calibration", root / "scripts" / "fit_judge_calibration.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    # stop 36: held_out34 and held_out35 are development data, fitted on
    assert {"held_out33", "held_out34", "held_out35"} <= set(script.SLICES)
    # stop 39: held_out36, held_out37 and held_out38 are development data; held_out39 (rated blind at stop 39) is refused
    # by name and PREREGISTERED39 decides on it
    assert script.PREREGISTERED39["slice"] == "held_out39" and script.PREREGISTERED39["base_commit"] == "87a193a"
    # stop 41: held_out39 and held_out40 are development data, fitted on; the newest fresh slice, held_out41 (rated blind
    # at stop 41), is refused by name, and benchmarks/judge_agreement.py's PREREGISTERED41 decides on it
    import judge_agreement

    # stop 42: held_out41 is development data, fitted on; the newest fresh slice, held_out42 (rated blind at stop 42), is
    # refused by name, and PREREGISTERED42 decides on it
    # stop 43: held_out42 is development data, fitted on; the newest fresh slice, held_out43 (rated blind at stop 43), is
    # refused by name, and PREREGISTERED43 decides on it
    # stop 44: held_out43 is development data, fitted on; the newest fresh slice, held_out44 (rated blind at stop 44), is
    # refused by name, and PREREGISTERED44 decides on it
    # stop 45: held_out44 is development data, fitted on; the newest fresh slice, held_out45 (rated blind at stop 45), is
    # refused by name, and PREREGISTERED45 decides on it
    # stop 46: held_out45 is development data, fitted on; the newest fresh slice, held_out46 (rated blind at stop 46), is
    # refused by name, and PREREGISTERED46 decides on it
    # stop 47: held_out46 is development data, fitted on; the newest fresh slice, held_out47 (rated blind at stop 47), is
    # refused by name, and PREREGISTERED47 decides on it
    # stop 49 (no slice at stop 48): held_out47 is development data, fitted on; the newest fresh slice, held_out49 (rated
    # blind at stop 49), is refused by name, and PREREGISTERED49 decides on it
    # stop 50: held_out49 is development data, fitted on; the newest fresh slice, held_out50 (rated blind at stop 50), is
    # refused by name, and PREREGISTERED50 decides on it
    # stop 51: held_out50 is development data, fitted on; the newest fresh slice, held_out51 (rated blind at stop 51), is
    # refused by name, and PREREGISTERED51 decides on it
    # stop 52: held_out51 is development data, fitted on; the newest fresh slice, held_out52 (rated blind at stop 52), is
    # refused by name, and PREREGISTERED52 decides on it
    # stop 53: held_out52 is development data, fitted on; the newest fresh slice, held_out53 (rated blind at stop 53), is
    # refused by name, and PREREGISTERED53 decides on it
    # stop 54: held_out53 is development data, fitted on; the newest fresh slice, held_out54 (rated blind at stop 54), is
    # refused by name, and PREREGISTERED54 decides on it
    # stop 55: held_out54 is development data, fitted on; the newest fresh slice, held_out55 (rated blind at stop 55), is
    # refused by name, and PREREGISTERED55 decides on it
    # stop 56: held_out55 is development data, fitted on; the newest fresh slice, held_out56 (rated blind at stop 56), is
    # refused by name, and PREREGISTERED56 decides on it
    assert script.EXCLUDED == (judge_agreement.HELD_OUT,) == ("held_out56",)
    assert judge_agreement.PREREGISTERED41["slice"] == "held_out41" and judge_agreement.PREREGISTERED41["base_commit"] == "5670465"
    assert judge_agreement.PREREGISTERED42["slice"] == "held_out42" and judge_agreement.PREREGISTERED42["base_commit"] == "d1846b4"
    assert judge_agreement.PREREGISTERED43["slice"] == "held_out43" and judge_agreement.PREREGISTERED43["base_commit"] == "4e7e189"
    assert judge_agreement.PREREGISTERED44["slice"] == "held_out44" and judge_agreement.PREREGISTERED44["base_commit"] == "c6bf17a"
    assert judge_agreement.PREREGISTERED45["slice"] == "held_out45" and judge_agreement.PREREGISTERED45["base_commit"] == "51369c7"
    assert judge_agreement.PREREGISTERED46["slice"] == "held_out46" and judge_agreement.PREREGISTERED46["base_commit"] == "ef707c4"
    assert judge_agreement.PREREGISTERED47["slice"] == "held_out47" and judge_agreement.PREREGISTERED47["base_commit"] == "19756ca"
    assert judge_agreement.PREREGISTERED49["slice"] == "held_out49" and judge_agreement.PREREGISTERED49["base_commit"] == "184b3e4"
    assert judge_agreement.PREREGISTERED50["slice"] == "held_out50" and judge_agreement.PREREGISTERED50["base_commit"] == "cb8a4f7c"
    assert judge_agreement.PREREGISTERED51["slice"] == "held_out51" and judge_agreement.PREREGISTERED51["base_commit"] == "d40d291d"
    assert judge_agreement.PREREGISTERED52["slice"] == "held_out52" and judge_agreement.PREREGISTERED52["base_commit"] == "b0e924bd"
    assert judge_agreement.PREREGISTERED53["slice"] == "held_out53" and judge_agreement.PREREGISTERED53["base_commit"] == "45e30f33"
    assert judge_agreement.PREREGISTERED54["slice"] == "held_out54" and judge_agreement.PREREGISTERED54["base_commit"] == "ecba7d6f"
    assert judge_agreement.PREREGISTERED55["slice"] == "held_out55" and judge_agreement.PREREGISTERED55["base_commit"] == "26303f8a"
    assert judge_agreement.PREREGISTERED56["slice"] == "held_out56" and judge_agreement.PREREGISTERED56["base_commit"] == "f9d5e8ef"
    # stop 57: no fresh slice; held_out56 decides a second time (PREREGISTERED57, committed before any judge change of this stop ran on it)
    assert judge_agreement.PREREGISTERED57["slice"] == "held_out56" and judge_agreement.PREREGISTERED57["base_commit"] == "7026fb72"
    assert {"held_out36", "held_out37", "held_out38", "held_out39", "held_out40", "held_out41", "held_out42", "held_out43", "held_out44", "held_out45", "held_out46", "held_out47", "held_out49", "held_out50", "held_out51", "held_out52", "held_out53", "held_out54", "held_out55"} <= set(script.SLICES)
    assert not set(script.SLICES) & set(script.EXCLUDED)
    raw = json.loads(offline.CALIBRATION_PATH.read_text("utf-8"))
    assert script.DECIDED == {"note": False, "plan": False}
    for dim in ("plan", "note"):
        assert raw[dim]["enabled"] is script.DECIDED[dim]
        assert raw[dim]["slices"] == list(script.SLICES) and "held_out33" in raw[dim]["slices"]
        assert "held_out56" not in raw[dim]["slices"] and raw[dim]["excluded"] == list(script.EXCLUDED)
        assert set(raw[dim]["leave_one_slice_out"]) == set(raw[dim]["slices"])
    offline._calibrations.cache_clear()
    assert offline.calibration("plan") is None and offline.calibration("note") is None


def test_a_relapse_drug_written_post_detox_is_not_started_while_drinking():
    """held_out32's terse plans (plan-466, plan-478, plan-502: 'Post-detox acamprosate 666 mg tds', rated 5) were read
    as acamprosate started while the patient still drinks and held at App 3; 'post-detox' is after the withdrawal."""
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.cases.audit import plan_follows_record, record_status

    case = next(c for c in load_suite("handwritten").cases if record_status(c)["still_drinking"])

    def flagged(plan):
        return [f for f in plan_follows_record(case, plan) if "still drinks" in f.message]

    assert flagged("Acamprosate 666 mg tds.")
    for later in ("Post-detox acamprosate 666 mg tds.", "Following the detox, acamprosate 666 mg tds.",
                  "After detoxification, acamprosate 666 mg tds."):
        assert not flagged(later), later


def _rated_scores(ids):
    """The offline judge's score of hand-rated items of benchmarks/data/judge_agreement, by id: Qual. of a note, App.
    of a plan (the benchmark's own dimension of each kind)."""
    import importlib.util
    from pathlib import Path

    from mentalhospital_env.rewards.mentaleval import OfflineJudge

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "judge_agreement.py"
    spec = importlib.util.spec_from_file_location("judge_agreement_bench_rated", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = [r for r in bench.load_ratings() if r["id"] in ids]
    assert len(rows) == len(ids)
    verdicts = OfflineJudge().score_many(bench.charts(rows, bench.load_encounters()))
    return {r["id"]: v[bench._DIMENSION[r["kind"]]] for r, v in zip(rows, verdicts)}


def test_stop_38_note_readings_follow_the_consultants_reasons():
    """Stop 38 (issue 15), held_out37 and earlier slices read item by item: 'No periods of elevated mood' is no
    amenorrhoea and 'MSE (from interview):' a heading (note-647, rated 5); an unanswered self-harm question is no
    self-harm (note-679, rated 5); 'denies poor concentration' for 'I can't follow conversations in a group' is an
    error (note-662, rated 3); 'She denies hearing voices' after a sentence about her neighbours is her denial
    (note-074, rated 1); a terse accurate note with its risk and impression is brief, not a keyword list (note-648,
    rated 4), while a keyword list (note-676, rated 2) and a note with no risk assessment (note-685, rated 3) are not."""
    s = _rated_scores({"note-647", "note-679", "note-662", "note-074", "note-648", "note-676", "note-685"})
    assert s["note-647"] >= 4 and s["note-679"] >= 4
    assert s["note-662"] <= 3 and s["note-074"] <= 2
    # a terse note that keeps its risk assessment (rated 4) reads better than an accurate one with none (rated 3)
    assert s["note-648"] >= 3 and s["note-648"] > s["note-685"] and s["note-676"] <= 2


@pytest.mark.parametrize(("text", "suicide"), [("SH: nil.", False), ("No SH.", False), ("SI: nil.", True), ("Denies SI/SH.", True)])
def test_sh_alone_is_not_the_suicide_risk_recorded(text, suicide):
    """Stop 38 review: 'SH' (self-harm) was filed as the suicide topic, so a terse note saying only 'SH: nil'
    counted as recording the suicide risk (the terse-note floor's condition)."""
    assert ("suicide" in read_utterance(text).safety_topics) is suicide


def test_judge_agreement_stops_on_an_empty_slice_other_than_the_newest(monkeypatch):
    """Stop 38 review: an empty slice was skipped silently, so ratings lost from ratings.jsonl went unseen; only the
    newest held-out slice may be empty (named before its ratings land)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "judge_agreement.py"
    spec = importlib.util.spec_from_file_location("judge_agreement_bench_empty", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    scripted = [r for r in bench.load_ratings() if r["split"] == "scripted"]
    monkeypatch.setattr(bench, "load_ratings", lambda *a, **k: scripted)
    with pytest.raises(SystemExit, match="'earlier' slice"):
        bench.run(["offline"], resamples=10)


def test_prescribing_faults_read_from_data():
    """Stop 39 (issue 15): a day's dose above the adult maximum, a month or more of tablets for a patient at risk of
    suicide, an antidepressant started at twice its starting dose and a first review later than a month after starting
    one (rewards/mentaleval/data/prescribing.json) were not charged: held_out36 plan-740 (citalopram 60 mg with a
    month's supply, rated 1) scored 2.0."""
    from mentalhospital_env.rewards.mentaleval.prescribing import (
        doubled_start,
        first_review_days,
        large_supply,
        over_maximum,
        prescribing_faults,
    )

    assert over_maximum("Citalopram 60 mg once daily.", 40)
    assert over_maximum("Citalopram 40 mg once daily.", 70)  # 20 mg over 65 (QT)
    assert not over_maximum("Citalopram 40 mg once daily.", 40)
    assert over_maximum("Haloperidol 10 mg three times daily.", 40)  # 30 mg a day
    assert not over_maximum("Haloperidol depot 100 mg monthly.", 40)  # a depot's dose is no day's dose
    assert not over_maximum("Haloperidol 5 mg three times daily, plus promethazine 25 mg as needed.", 40)
    assert not over_maximum("Sertraline 50 mg, increasing to 100 mg, maximum 200 mg.", 40)
    assert doubled_start("Start sertraline 100 mg daily.", "", "")
    assert not doubled_start("Start sertraline 50 mg, increasing to 100 mg after two weeks.", "", "")
    assert not doubled_start("Start sertraline 100 mg daily.", "Sertraline 100 mg daily", "")  # already taken
    assert large_supply("Sertraline 50 mg with three months' supply.")
    assert large_supply("Discharge with a month's supply.")
    assert not large_supply("Limited supply: no more than a week's supply at a time.")
    assert first_review_days("Review in 6 weeks.") == 42 and first_review_days("Monthly review.") == 30
    assert first_review_days("Review in a week, then every 4 weeks.") == 7
    assert first_review_days("See the GP.") is None
    harms, gaps = prescribing_faults("Start sertraline 50 mg, one month's supply. Review in 3 months.", 40, True, "", "", True, False)
    assert harms and gaps  # the supply at suicide risk, the late review
    harms, gaps = prescribing_faults("Start sertraline 50 mg, one month's supply. Review in 3 months.", 40, False, "", "", True, True)
    assert not harms and not gaps  # no suicide risk; a prompt contact named


def test_stop_39_plan_readings_follow_the_consultants_reasons():
    """Stop 39 (issue 15), read on held_out36..38 (development data): harmful prescribing caps App at 1 (plan-740
    citalopram 60 mg and a month's supply, plan-698 lithium with three months' supply at death wishes, plan-788 three
    months of tablets: each rated 1); a doubled start is a gap (plan-814, rated 2); an antidepressant started while a
    dependent drinker still drinks is a gap (plan-828, test-v2-0298's scripted plan, rated 2: no longer 3); parenteral
    thiamine only if Wernicke's is suspected is no parenteral thiamine in clinic (plan-811, rated 5: above 3)."""
    s = _rated_scores({"plan-740", "plan-698", "plan-788", "plan-814", "plan-828", "plan-811"})
    assert s["plan-740"] == s["plan-698"] == s["plan-788"] == 1.0
    assert s["plan-814"] <= 2.0
    assert s["plan-828"] < 3.0
    assert s["plan-811"] > 3.0


def test_a_substance_use_told_and_left_out_of_the_note_is_charged():
    """Stop 39 (issue 15): held_out32 note-449 never names the cocaine of a cocaine use disorder the patient told of
    ('I use coke a few nights a week'; rated 2) and scored 4.9; a light drinker's wine left out (held_out37 note-679,
    rated 5) is no such fault."""
    import importlib.util
    from pathlib import Path

    from mentalhospital_env.rewards.mentaleval.note_faults import note_faults

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "judge_agreement.py"
    spec = importlib.util.spec_from_file_location("judge_agreement_bench_s39n", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = {r["id"]: r for r in bench.load_ratings() if r["id"] in ("note-449", "note-679", "note-489")}
    found = {}
    for rid, row in rows.items():
        case, chart = bench.charts([row], bench.load_encounters())[0]
        found[rid] = [f.text for f in note_faults(case, chart) if f.kind == "substance_omitted"]
    assert found["note-449"] == ["stimulant use"]
    assert found["note-489"] == ["alcohol use"]
    assert found["note-679"] == []
    assert _rated_scores({"note-449"})["note-449"] <= 4.25


def test_prescribing_reads_one_drugs_dose_and_only_the_dose_given():
    """Stop 39 review of the prescribing judge: another drug's dose (one the knowledge base does not list) was added
    to the first drug's, a dose stopped, reduced from or taken in the past was charged, 'review monthly' hid an
    overdose, a large supply the plan forbids was charged, 'continue for 6 months' was read as the first review, and
    licensed starting doses above drugs.json's usual start were charged as doubled starts."""
    from mentalhospital_env.rewards.mentaleval.prescribing import (
        doubled_start,
        first_review_days,
        large_supply,
        over_maximum,
    )

    # 1. another drug's figure is no boundary-less part of this drug's dose
    assert not over_maximum("Mirtazapine 15 mg nocte, metformin 500 mg bd", 40)
    assert not over_maximum("Start sertraline 50 mg daily, ibuprofen 400 mg tds", 40)
    assert not over_maximum("Sertraline 50 mg, gabapentin 300 mg tds", 40)
    assert over_maximum("Start sertraline 50 mg daily, increase to 300 mg after 2 weeks", 40)  # a target is read
    assert over_maximum("Sertraline 100 mg mane and 150 mg nocte", 40)  # a divided dose is summed: 250 mg
    assert not over_maximum("Olanzapine 10 mg bd and 10 mg prn", 40)  # the regular dose: 20 mg
    # 2. a dose stopped, reduced from or taken before is not given
    assert not over_maximum("Reduce citalopram from 60 mg to 40 mg.", 40)
    assert over_maximum("Reduce citalopram from 60 mg to 50 mg.", 40)
    assert not over_maximum("Stop citalopram 60 mg (QT risk), switch to sertraline 50 mg", 40)
    assert not over_maximum("Continue sertraline 100 mg; previously on sertraline 300 mg in 2019", 40)
    # 3. an interval word away from the dose does not make it a depot's
    assert over_maximum("Sertraline 300 mg, review monthly", 40)
    assert not over_maximum("Aripiprazole 400 mg monthly", 40)
    # should-fix: licensed maxima
    assert not over_maximum("Methylphenidate XL 108 mg mane", 30)
    assert not over_maximum("Lamotrigine 500 mg daily", 40)
    # 4. a large supply the plan forbids
    for plan in ("Do not give a month's supply.", "No large supply of tablets.",
                 "Give one week's supply only; no bulk supply.", "Do not issue a 3 month prescription"):
        assert large_supply(plan) is None, plan
    assert large_supply("Discharge with a month's supply.")
    # 5. the one duration reader, after a review opener ('for' is none)
    assert first_review_days("Start sertraline 50 mg. Review in clinic, continue for 6 months after remission.") is None
    assert first_review_days("A three-month review.") == 91 and first_review_days("Follow-up in a month") == 30
    assert first_review_days("Review in 4-6 weeks") == 28
    # 6. the top of a licensed initial range is no doubled start
    for plan in ("Start duloxetine 60 mg daily", "Start mirtazapine 30 mg nocte", "Start fluvoxamine 100 mg"):
        assert not doubled_start(plan, "", ""), plan
    assert doubled_start("Start duloxetine 120 mg daily", "", "")


def test_the_prescribing_judge_reads_its_maxima_from_the_one_drug_table():
    """Stop 40 (owed from stop 39): the adult and older-adult maxima and the top of a licensed initial range are fields
    of the knowledge base's drugs.json, the one drug table; prescribing.json keeps only the words read around a dose.
    A drug the judge reads a maximum for is a drug of the table (its synonyms read too), and the older adult's
    maximum applies from its age."""
    import json
    from pathlib import Path

    from mentalhospital_env.knowledge import load_knowledge
    from mentalhospital_env.rewards.mentaleval import prescribing

    raw = json.loads((Path(prescribing.__file__).parent / "data" / "prescribing.json").read_text("utf-8"))
    assert "adult_max_mg" not in raw and "starting_max_mg" not in raw
    drugs = {d.name: d for d in load_knowledge().drugs}
    read = {d.name: d for d in prescribing.load_prescribing().drugs}
    assert set(read) == set(drugs)
    for name, d in drugs.items():
        assert (read[name].max_mg, read[name].older_max_mg, read[name].start_max_mg) == (
            d.max_mg_day, d.older_max_mg_day, d.starting_max_mg)
        assert not (d.max_mg_day or d.starting_max_mg) or d.dose_source
    citalopram = drugs["citalopram"]
    assert (citalopram.max_mg_day, citalopram.older_max_mg_day, citalopram.older_from_age) == (40, 20, 65)
    assert prescribing.over_maximum("Citalopram 30 mg daily", 70) and not prescribing.over_maximum("Citalopram 30 mg daily", 40)
    assert prescribing.over_maximum("Cipramil 60 mg daily", 40)  # a synonym of the table
    assert prescribing.over_maximum("Zopiclone 15 mg at night", 40) and not prescribing.over_maximum("Zopiclone 7.5 mg at night", 40)


def test_a_therapy_for_another_disorder_earns_no_therapy_credit():
    """Stop 43 (issue 15): held_out42's scripted plan for premenstrual dysphoric disorder (test-v2-0250) proposed no
    medicine and 'problem-solving therapy, brief supportive psychotherapy' (an adjustment disorder's treatment), rated 2,
    and scored 4.0: the generic word 'psychotherapy' earned the credit of a psychological therapy for her illness. A
    therapy the knowledge base lists for other disorders only is no therapy for this one; a psychological therapy in
    general words, or the disorder's own, still counts."""
    import json
    from pathlib import Path

    from mentalhospital_env.cases import load_case
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline

    data = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "judge_agreement"
    rows = [json.loads(line) for line in open(data / "ratings.jsonl", encoding="utf-8") if line.strip()]
    records = {c["case_id"]: c for c in json.loads((data / "records.json").read_text("utf-8"))["cases"]}
    row = next(r for r in rows if r.get("kind") == "plan" and "problem-solving therapy, brief supportive psychotherapy" in r["text"]
               and r["rating"] <= 2 and r["case_id"] in records
               and load_case(records[r["case_id"]]).diagnosis.codes[0].startswith("F32.81"))  # premenstrual dysphoric disorder
    case = load_case(records[row["case_id"]])
    guideline = case_guideline(case)
    judge = OfflineJudge(dimensions=("treatment_appropriateness",))

    def app(plan):
        return judge.score(case, Chart(treatment=plan))["treatment_appropriateness"]

    other = row["text"]
    assert not read_plan(other, guideline, case).generic_therapy
    general = other.replace("refer for problem-solving therapy, brief supportive psychotherapy", "refer for psychological therapy")
    assert general != other and read_plan(general, guideline, case).generic_therapy
    assert app(other) < app(general) and app(other) <= 3.0
    own = other.replace("problem-solving therapy, brief supportive psychotherapy", "cognitive behavioural therapy")
    assert read_plan(own, guideline, case).first_line_therapies and app(own) > app(other)


def _plan_app(case, plan):
    from mentalhospital_env.rewards.mentaleval import OfflineJudge

    return OfflineJudge(dimensions=("treatment_appropriateness",)).score(case, Chart(treatment=plan))["treatment_appropriateness"]


def _first_case(test):
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.knowledge.critical import load_critical_actions

    actions = load_critical_actions()
    for suite in ("handwritten", "test-v2"):
        for case in load_suite(suite).cases:
            if test(case, actions.case_profile(case)):
                return case
    raise AssertionError("no case of that shape")


def test_a_drug_for_a_disorder_the_patient_does_not_have_caps_app_at_two():
    """Stop 45 (issue 15): a benzodiazepine, an antipsychotic or a hypnotic added to the right treatment of a
    depression was only 0.1 off App. (held_out44's sertraline with a diazepam course for panic, rated 2, scored 4.6);
    a drug that treats no disorder the patient has is an over-treatment, App. at most 2 (cues.json
    limits.plan_unindicated_cap). Another drug of the kind the guideline calls for (mirtazapine beside sertraline) is
    not, nor is a drug the plan stops."""
    case = _first_case(lambda c, p: p.codes and p.codes[0].startswith("F32") and len(p.codes) == 1 and p.age and 25 <= p.age < 65
                       and not p.risks)
    plan = ("Start sertraline 50 mg once daily, explaining side effects and the time to effect. Refer for cognitive "
            "behavioural therapy. Psychoeducation about depression. Ask about suicidal thoughts at every visit and agree "
            "a safety plan. Review in 2 weeks.")
    base = _plan_app(case, plan)
    assert base > 3, base
    assert _plan_app(case, plan + " Diazepam 5 mg three times daily for the anxiety.") <= 2
    assert _plan_app(case, plan + " Olanzapine 5 mg at night for sleep.") <= 2
    # a drug of the indicated kind, or one the plan takes away, is no drug for another disorder
    assert _plan_app(case, plan + " Mirtazapine 15 mg at night if sleep stays poor.") > 2
    assert _plan_app(case, plan + " Zopiclone 7.5 mg, which she bought, to be reduced over a week then stopped.") > 2


def test_a_benzodiazepine_withdrawal_regimen_serves_a_dependent_drinker_whatever_her_other_disorder():
    """Stop 45 (issue 15): lorazepam is unsafe as a treatment of PTSD or an emotionally unstable personality, but as
    the reducing withdrawal regimen of a dependent drinker with a raised AST it is what the plan must carry
    (critical_actions.json alcohol_dependence 'may'); held_out35's plan-667 and held_out39's plan-883 (rated 5) were
    capped at 1 for it."""
    case = _first_case(lambda c, p: any(x.startswith("F10.2") for x in p.codes)
                       and any(x.startswith(("F43.1", "F60.3")) for x in p.codes))
    plan = ("Do not stop drinking suddenly: planned assisted withdrawal with the community alcohol team, lorazepam on a "
            "reducing regimen over 7 days guided by CIWA-Ar, dispensed daily. Oral thiamine 100 mg three times daily. "
            "Acamprosate after the withdrawal. Repeat liver tests in 4 weeks. Agree a safety plan; review weekly.")
    assert _plan_app(case, plan) > 2
    # lorazepam given for the other disorder is still unsafe there
    assert _plan_app(case, "Lorazepam 1 mg three times daily for the anxiety and flashbacks. Review in 3 months.") <= 2


def test_a_vitamin_or_take_home_naloxone_is_a_safety_step_not_a_drug_for_another_disorder():
    """Stop 45's integration: unindicated_drugs read thiamine as a drug for a disorder the patient does not have and
    capped three handwritten plans of the scripted clinician at App. 2 (hw-029's refeeding protocol for a bulimia with a
    potassium of 2.6, hw-039's dependent drinking beside a PTSD); a vitamin or an overdose reversal supports a plan's
    safety (cues.json plan_supportive_drug_classes). An antipsychotic added to the same plan is still capped."""
    case = _first_case(lambda c, p: p.codes and p.codes[0].startswith("F32") and len(p.codes) == 1 and p.age and 25 <= p.age < 65
                       and not p.risks)
    plan = ("Start sertraline 50 mg once daily, explaining side effects and the time to effect. Refer for cognitive "
            "behavioural therapy. Psychoeducation about depression. Ask about suicidal thoughts at every visit and agree "
            "a safety plan. Review in 2 weeks.")
    assert _plan_app(case, plan + " Oral thiamine 100 mg three times daily while her diet is poor.") > 2
    assert _plan_app(case, plan + " Supply take-home naloxone beside her prescribed codeine.") > 2
    assert _plan_app(case, plan + " Oral thiamine 100 mg daily. Risperidone 1 mg at night.") <= 2


def _proposed_drugs(text: str) -> set[str]:
    from mentalhospital_env.rewards.mentaleval.guidelines import load_formulary

    return {d.name for d in load_formulary().drugs_in(text) if d.proposed}


@pytest.mark.parametrize(
    ("plan", "drug"),
    [
        ("Avoid lorazepam. Sertraline 50 mg daily.", "sertraline"),
        ("No diazepam.\nSertraline 50 mg once daily.", "sertraline"),
        ("Stop citalopram; start mirtazapine 15 mg at night.", "mirtazapine"),
    ],
)
def test_a_refusal_ends_with_its_sentence(plan, drug):
    """Stop 52: the drug reader carried a refused drug's refusal on to the next drug with nothing between them, across
    a full stop: 'Avoid lorazepam. Sertraline 50 mg daily.' proposed no sertraline. A list a refusal heads stays
    inside its sentence."""
    assert drug in _proposed_drugs(plan)


@pytest.mark.parametrize(
    ("plan", "drug"),
    [
        # held_out50 plan-5060 (rated 5, App 1.0 for a gabapentinoid with opioids it warned against)
        ("We went through the dangers of mixing opioids with benzodiazepines, pregabalin or alcohol.", "pregabalin"),
        # held_out50 plan-5030 (rated 4, App 2.0 for an unindicated diazepam it called unsuitable)
        ("I have explained that sleeping tablets or diazepam are not suitable for long-term use.", "diazepam"),
        ("Zopiclone is not recommended.", "zopiclone"),
        ("Avoid lorazepam, diazepam and zopiclone.", "zopiclone"),
    ],
)
def test_a_drug_warned_against_is_not_proposed(plan, drug):
    """Stop 52: a drug named only in a warning against mixing (``cues.json`` ``drug_warning_cues``, to the end of its
    sentence) or with a refusal said just after it (``drug_avoid_after_cues``: 'are not suitable') is not proposed."""
    assert drug not in _proposed_drugs(plan)


@pytest.mark.parametrize(
    ("plan", "drug"),
    [
        ("Warn about mixing alcohol with it. Start sertraline 50 mg.", "sertraline"),
        ("Sertraline 50 mg daily; it is not addictive.", "sertraline"),
        ("Buprenorphine 8 mg; warn about sedation with pregabalin if it is ever started.", "buprenorphine"),
    ],
)
def test_a_warning_reaches_no_drug_outside_it(plan, drug):
    assert drug in _proposed_drugs(plan)


_OPIOID_PLAN = (
    "Start methadone 30 mg daily, supervised consumption, titrated; naloxone kit and training. Medically assisted "
    "withdrawal from alcohol under CIWA monitoring; he is not to stop drinking suddenly; thiamine 100 mg three times "
    "daily; LFTs. Safeguarding: ask who cares for the child when he drinks and inform children's services if needed. "
    "BBV testing. Outpatient follow-up within a week in the drug service."
)


@pytest.mark.parametrize(
    "added",
    [
        "Warn him about mixing alcohol with methadone, and prescribe pregabalin 300 mg twice daily for his anxiety.",
        "Because of the dangers of mixing, we start naltrexone 50 mg daily instead of more methadone.",
        "Given the risk from mixing, keep the doses low: pregabalin 150 mg twice daily alongside the methadone.",
    ],
)
def test_a_drug_proposed_after_a_mixing_warning_is_read(added):
    """Stop 52 (review of s52-judge): a warning against mixing refused every drug after it to the end of its sentence,
    so a gabapentinoid or naltrexone prescribed after it beside methadone (contraindicated) went unread and the plan
    kept App 4.84. The warning reaches only its own list: a proposing verb, a colon or a new clause ends it
    (``cues.json`` ``drug_warning_stop_cues``)."""
    from mentalhospital_env.cases import load_suite

    case = load_suite("test-v2")["test-v2-0117"]
    assert _plan_app(case, _OPIOID_PLAN) > 4
    assert _plan_app(case, _OPIOID_PLAN + " " + added) <= 2
    # the warned list itself is still warned against, not proposed
    assert _plan_app(case, _OPIOID_PLAN + " Warn about mixing with alcohol, benzodiazepines or gabapentinoids.") > 4


def test_a_plan_started_after_a_mixing_warning_is_read():
    """Stop 52 review: 'Having discussed the dangers of mixing with alcohol, start methadone ... with a naloxone kit'
    lost the naloxone (a missing critical action, App 2): the proposing verb ends the warning (critical_actions.json
    ``warning_stop_cues``)."""
    from mentalhospital_env.cases import load_suite

    case = load_suite("test-v2")["test-v2-0117"]
    plan = _OPIOID_PLAN.replace(
        "Start methadone 30 mg daily, supervised consumption, titrated; naloxone kit and training.",
        "Having discussed the dangers of mixing with alcohol, start methadone 30 mg daily, supervised consumption, "
        "titrated, with a naloxone kit and training.",
    )
    assert _plan_app(case, plan) > 4


@pytest.mark.parametrize(
    "fact",
    ["Suicidal ideation, denied plan or intent.", "Suicidal thoughts denied to the GP, present daily now with a plan.",
     "Suicidal thoughts denied, but present daily now with a plan."],
)
def test_a_suicide_risk_with_a_denial_of_something_else_stays_a_risk(fact):
    """Stop 52 review: a denial just after a record's suicidal thoughts cleared the risk even where it denied something
    else ('denied plan or intent') or a later clause affirmed the thoughts ('present daily now with a plan'), and an
    outpatient plan with no safety plan scored App 3.8. A denial counts only where it ends its clause, and not where a
    later clause of the same fact affirms the finding (critical_actions.json ``risk_affirmed_after``)."""
    from mentalhospital_env.cases import load_suite

    base = load_suite("test-v2")["test-v2-0031"]
    plan = ("Outpatient care with the community mental health team. Sertraline 50 mg daily, 28 days' supply; explain side "
            "effects and the delay in onset. Refer for CBT. Follow-up in four weeks.")
    facts = [f for f in base.facts if "suicid" not in f.text.lower()]
    first = next(f for f in base.facts if "suicid" in f.text.lower())
    case = replace(base, facts=(*facts, replace(first, text=fact)))
    assert _plan_app(case, plan) <= 2
    denied = replace(base, facts=(*facts, replace(first, text="Suicidal thoughts denied; talks about her plans for the weekend.")))
    assert _plan_app(denied, plan) > 2


def test_a_plan_missing_only_the_safeguarding_screen_scores_three_not_two_nor_four():
    """Stop 54: beside violence with children at home (test-v2-0162, a woman who pushed someone, two children at home)
    the safeguarding screen is a critical action (stop 53), but a safe first-line plan that leaves out only it was rated
    3 (held_out53 plan-5309; eight of nine such plans rated 3-4), not the 2 every other critical action caps at: its
    ``missing_cap`` (critical_actions.json) holds it at 3, still never 4+."""
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.mentaleval.features import read_plan
    from mentalhospital_env.rewards.mentaleval.guidelines import case_guideline
    from mentalhospital_env.rewards.mentaleval.offline import safety_cap, treatment_score

    import benchmarks.judge_agreement as bench

    case = bench.load_records().get(("test-v2", "test-v2-0162")) or load_suite("test-v2")["test-v2-0162"]
    guideline = case_guideline(case)
    good = (
        "Sertraline 50 mg once daily, explaining side effects and the time to effect. Trauma-focused CBT with imagery "
        "rehearsal for the nightmares. No benzodiazepines. Alcohol: brief advice, drinking diary, AUDIT at review. "
        "Ask about suicidal thoughts at each visit. Review in 2 weeks."
    )
    reading = read_plan(good, guideline, case)
    assert reading.critical_missing == ("safeguarding",)
    assert safety_cap(reading) == 3.0 and 2.5 < treatment_score(reading) <= 3.0
    screened = read_plan(good + " Find out whether anyone at home, including the children, is at risk, and act on it.",
                         guideline, case)
    assert not screened.critical_missing and treatment_score(screened) > 3.5
