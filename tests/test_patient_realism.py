"""Realism of the patient's answers: self-contained replies, the chief complaint always told, no facts
tacked on, no hedge repeated in consecutive turns, and a mood word that is not mistaken for a scale.

A reply is scored on its own (interview coverage reads each reply sentence by sentence), so a bare
"Not that I know of." must also name what it denies, in lay words and with nothing the record does
not support.
"""

from __future__ import annotations

import random

import pytest

from mentalhospital_env.cases import load_case, load_suite
from mentalhospital_env.knowledge.lexicon import load_lexicon
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.memory import ClaimChecker, read_question, read_statements
from mentalhospital_env.patient.patient import fact_index
from mentalhospital_env.patient.representation import RepresentationSkill, lay_renderer, load_phrases

LEXICON = load_lexicon()


def _case(facts, persona=None, exams=None):
    raw = {
        "case_id": "real-001",
        "language": "en",
        "demographics": {"age": 41, "sex": "female", "occupation": "teacher"},
        "setting": "outpatient",
        "ehr": {
            "chief_complaint": "Low mood for two months.",
            "history_of_present_illness": "Low mood for two months after a bereavement.",
            "past_psychiatric_history": "No past psychiatric history.",
            "personal_history": "Grew up with both parents; works as a teacher; enjoys gardening.",
            "substance_use": "Drinks a bottle of wine a day.",
            "mental_status_exam": {"mood": "'scared'"},
            "risk_assessment": {
                "suicide": "Denies thoughts of suicide or self-harm; protective factors include her job."
            },
        },
        "exams": exams or [{"name": "PHQ-9", "kind": "scale", "result": "14/27"}],
        "diagnosis": {
            "categories": ["depressive"],
            "disorders": [{"name": "Major depressive disorder, single episode, moderate", "code": "F32.1"}],
        },
        "treatment": {"plan": "Sertraline; CBT."},
        "persona": persona or {"verbosity": "average", "guardedness": 0.3, "insight": "partial"},
        "facts": facts,
    }
    return load_case(raw)


FACTS = [
    {
        "id": "cc-1",
        "section": "chief_complaint",
        "text": "Low mood for two months.",
        "patient_says": "I've been feeling really low.",
    },
    {
        "id": "risk-1",
        "section": "risk_assessment.suicide",
        "text": "Denies thoughts of suicide or self-harm; protective factors include her job.",
        "patient_says": "No, I've got my job to think about.",
    },
    {
        "id": "pph-1",
        "section": "past_psychiatric_history",
        "text": "No past psychiatric history.",
        "patient_says": "Nothing like this before, no.",
    },
    {
        "id": "mood-1",
        "section": "mental_status_exam.mood",
        "text": "'scared'",
        "patient_says": "I'd say scared.",
    },
    {
        "id": "hpi-1",
        "section": "history_of_present_illness",
        "text": "Denies hearing voices.",
        "patient_says": "No, never.",
    },
]


def _skill(case):
    index = fact_index(case)
    return RepresentationSkill(case, index, seed=0), index


def test_a_bare_denial_names_what_it_denies():
    case = _case(FACTS)
    skill, index = _skill(case)
    fact = index["risk-1"]
    assert fact.rules_out, "the lexicon reads the clinical text as a denial"
    text = skill.self_contained(fact, fact.fact.patient_says)
    assert text != fact.fact.patient_says
    assert "job to think about" in text, "the patient's own words stay"
    said = {(s.concept_id, s.negated) for s in read_statements(text, LEXICON)}
    own = {(s.concept_id, s.negated) for s in read_statements(fact.fact.patient_says, LEXICON)}
    assert any((c, True) in said for c in fact.rules_out), text
    assert all(negated for _, negated in said - own), "a denial adds no affirmation"
    assert ClaimChecker(index).check(text).ok
    assert len(read_statements(text, LEXICON)) and text.count(".") == 1, "one sentence: scored as one unit"


def test_a_denied_history_item_is_named_when_asked():
    case = _case(FACTS)
    patient = make_patient(case, "full", seed=0)
    reply = patient.respond("Have you ever seen a psychiatrist or had counselling before?")
    said = {(s.concept_id, s.negated) for s in read_statements(reply.text, LEXICON)}
    assert "pph-1" in reply.fact_ids
    assert ("past_psychiatric_treatment", True) in said, reply.text
    assert ClaimChecker(patient.index).check(reply.text).ok


def test_a_mood_answer_says_it_is_about_mood_and_the_word_is_not_a_scale():
    # SCARED is also the name of a child anxiety scale: the mood word must survive the leak guard
    case = _case(FACTS, exams=[{"name": "SCARED", "kind": "scale", "result": "38"}])
    patient = make_patient(case, "full", seed=0)
    reply = patient.respond("In your own words, how would you describe your mood right now?")
    assert "mood-1" in reply.fact_ids
    assert "mood" in reply.text.lower() and "scared" in reply.text.lower(), reply.text
    guard = patient.index.guard
    assert not guard.leaks("I'd say scared.")
    assert guard.leaks("My SCARED score was high.")


def test_self_contained_wording_never_adds_unsupported_content_on_the_test_suite():
    suite = load_suite("test")
    for case in list(suite)[:15]:
        skill, index = _skill(case)
        checker = ClaimChecker(index)
        for fact in index.facts:
            if not fact.tellable or not fact.fact.patient_says:
                continue
            before = fact.fact.patient_says
            after = skill.self_contained(fact, before)
            if after == before:
                continue
            assert checker.check(after).ok, (case.case_id, fact.id, after)
            assert not index.guard.leaks(after), (case.case_id, fact.id, after)
            new = {(s.concept_id, s.negated) for s in read_statements(after, LEXICON)} - {
                (s.concept_id, s.negated) for s in read_statements(before, LEXICON)
            }
            for concept_id, negated in new:
                assert negated or fact.section == "mental_status_exam.mood", (
                    fact.id,
                    after,
                    "affirmed unasked",
                )
                assert concept_id in fact.rules_out or fact.section == "mental_status_exam.mood", (
                    fact.id,
                    after,
                )


@pytest.mark.parametrize("opening", ["What brings you here today?", "Tell me what has been going on."])
def test_the_opening_question_gets_the_chief_complaint_however_guarded(opening):
    facts = [dict(f) for f in FACTS]
    facts[0] = {**facts[0], "sensitive": True}
    case = _case(facts, persona={"verbosity": "terse", "guardedness": 0.95, "insight": "none"})
    patient = make_patient(case, "full", seed=3)
    assert patient.rapport < 0.95
    reply = patient.respond(opening)
    assert "cc-1" in reply.fact_ids, reply
    assert not reply.withheld
    # rapport still gates the sensitive facts themselves when asked directly
    risk = make_patient(
        _case(
            [
                *facts,
                {
                    "id": "sub-1",
                    "section": "substance_use",
                    "text": "Drinks a bottle of wine a day.",
                    "patient_says": "I drink a bottle of wine a day.",
                    "sensitive": True,
                },
            ],
            persona={"verbosity": "terse", "guardedness": 0.95, "insight": "none"},
        ),
        "full",
        seed=3,
    )
    assert "sub-1" not in risk.respond(LEXICON.get("alcohol_use").questions[0]).fact_ids


def _topic_case(verbosity, style=None):
    facts = [
        *FACTS,
        {
            "id": "ph-1",
            "section": "personal_history",
            "text": "Grew up with both parents; a settled childhood.",
            "patient_says": "My childhood was fine.",
        },
        {
            "id": "ph-2",
            "section": "personal_history",
            "text": "Works as a teacher.",
            "patient_says": "I teach at the primary school.",
        },
        {
            "id": "ph-3",
            "section": "personal_history",
            "text": "Enjoys gardening.",
            "patient_says": "I like my garden.",
        },
    ]
    persona = {"verbosity": verbosity, "guardedness": 0.3, "insight": "partial"}
    if style:
        persona["speech_style"] = style
    return _case(facts, persona=persona)


def test_no_unrelated_fact_is_tacked_on_unless_talkative_and_then_one():
    question = read_question("Tell me about your childhood, growing up.", LEXICON)
    for verbosity, style, extra_allowed in (
        ("average", None, 0),
        ("talkative", None, 1),
        ("average", "tangential", 1),
    ):
        case = _topic_case(verbosity, style)
        patient = make_patient(case, "full", seed=0)
        plan = patient.memory.plan(
            question, patient.representation.may_disclose, patient.representation.persona.facts_per_topic
        )
        focused = patient.representation.focus(plan)
        told = [f for i in focused.items for f in i.facts]
        assert told and told[0].id == "ph-1"
        extra = [f for f in told[1:] if f.id != "ph-1"]
        assert len(extra) <= extra_allowed, (verbosity, style, [f.id for f in told])
        if extra_allowed == 0:
            assert focused.fact_ids == ("ph-1",)


def test_hedges_and_fillers_are_not_repeated_in_consecutive_turns():
    phrases = load_phrases()
    watched = set()
    for bank in ("fillers", "signature", "withhold", "partial", "hedges", "openers"):
        watched.update(p for p in phrases["banks"].get(bank, ()) if len(p) >= 8)
    for trait in phrases["traits"].values():
        if isinstance(trait, dict):
            watched.update(p for p in trait.get("tail", ()) if len(p) >= 8)
    suite = load_suite("test")
    rng = random.Random(0)
    questions = [q for c in LEXICON.concepts for q in c.questions][:400]
    checked = 0
    for case in list(suite)[:12]:
        patient = make_patient(case, "full", seed=1)
        previous: set[str] = set()
        for q in rng.sample(questions, 30):
            text = patient.respond(q).text
            used = {p for p in watched if p in text}
            assert not (used & previous), (case.case_id, used & previous, text)
            previous = used
            checked += 1
    assert checked == 360


def test_one_reply_never_says_the_same_sentence_twice():
    suite = load_suite("test")
    for case in list(suite)[:10]:
        patient = make_patient(case, "full", seed=0)
        for q in (
            "Have you ever been in trouble with the police?",
            "Tell me about your childhood.",
            "What do you do for work?",
        ):
            sentences = [s.strip() for s in patient.respond(q).text.split(". ") if s.strip()]
            assert len(sentences) == len(set(sentences)), sentences


def test_naming_clauses_of_the_table_state_exactly_their_concept():
    lay = lay_renderer(LEXICON)
    assert lay.concept_clauses, "render.json has its table"
    for concept_id, entries in lay.concept_clauses.items():
        for polarity, wordings in entries.items():
            assert wordings, (concept_id, polarity)
            for variant, text in enumerate(wordings):
                mentions = LEXICON.find(text)
                assert mentions and all(
                    m.concept_id == concept_id and m.negated == (polarity == "absent") for m in mentions
                ), (concept_id, polarity, text)
                assert (
                    lay.naming_clause(concept_id, polarity == "absent", framed=False, variant=variant) == text
                )


def test_patients_word_the_same_denial_differently_but_each_keeps_its_own():
    lay = lay_renderer(LEXICON)
    wordings = {lay.naming_clause("suicidal_ideation", True, framed=False, variant=v) for v in range(6)}
    assert len(wordings) >= 2, "more than one wording across patients"
    suite = load_suite("test")
    said = set()
    for case in list(suite)[:12]:
        skill, index = _skill(case)
        facts = [f for f in index.facts if "suicidal_ideation" in f.rules_out and f.fact.patient_says]
        for fact in facts:
            once = skill.self_contained(fact, fact.fact.patient_says)
            assert skill.self_contained(fact, fact.fact.patient_says) == once, (
                "the same patient, the same words"
            )
            said.add(once)


def test_self_contained_replies_are_deterministic_under_a_seed():
    case = load_suite("test")[list(load_suite("test"))[4].case_id]
    qs = [
        "What brings you here?",
        "Are you allergic to any medicines?",
        "Have you had thoughts of ending your life?",
    ]
    a = [make_patient(case, "full", seed=7).respond(q).text for q in qs]
    b = [make_patient(case, "full", seed=7).respond(q).text for q in qs]
    assert a == b
