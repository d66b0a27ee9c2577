"""Realism of the patient's answers: self-contained replies, the chief complaint always told, no facts
tacked on, no hedge repeated in consecutive turns, and a mood word that is not mistaken for a scale.

A reply is scored on its own (interview coverage reads each reply sentence by sentence), so a bare
"Not that I know of." must also name what it denies, in lay words and with nothing the record does
not support.
"""

from __future__ import annotations

import random
import re

import pytest

from mentalhospital_env.cases import load_case, load_suite
from mentalhospital_env.knowledge.lexicon import load_lexicon
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.memory import ClaimChecker, read_question, read_statements
from mentalhospital_env.patient.patient import fact_index
from mentalhospital_env.patient.representation import (
    LayRenderer,
    RepresentationSkill,
    lay_renderer,
    load_phrases,
)

LEXICON = load_lexicon()


def _case(facts, persona=None, exams=None, ehr=None):
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
    raw["ehr"].update(ehr or {})
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
    assert re.search(r"\bI(?: feel|'ve been feeling) scared\b", reply.text), reply.text
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
                    "text": "Smokes heroin daily.",
                    "patient_says": "I smoke heroin every day.",
                    "sensitive": True,
                },
                {
                    "id": "sub-2",
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
    assert "sub-1" not in risk.respond(LEXICON.get("opioid_use").questions[0]).fact_ids
    # how much someone drinks is a plain topic (recall.json plain_topics): told when asked, even by a
    # structured case's fact that carries no topics of its own
    assert "sub-2" in risk.respond(LEXICON.get("alcohol_use").questions[0]).fact_ids


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
            assert wordings or concept_id in UNSAID[polarity], (concept_id, polarity)
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


# -- the clause table: every concept said in plain words, never by a framing heuristic ----------------

# Topics with no yes or no, and the few polarities no natural wording passes the lexicon in: listed
# with an empty list in render.json's concept_clauses, so nothing is framed for them.
UNSAID = {
    "present": {
        "sleep_history",
        "menstrual_history",
        "occupation",
        "relationships",
        "living_situation",
        "social_support",
        "dependants",
        "childhood",
        "education",
        "developmental_history",
        "sexual_history",
    },
    "absent": {
        "sleep_history",
        "menstrual_history",
        "occupation",
        "living_situation",
        "childhood",
        "education",
        "developmental_history",
        "immigration_culture",
        "lack_of_insight",
        "la_belle_indifference",
    },
}

_HAD_THEN_VERB = re.compile(
    r"\bI(?:'ve| have| haven't| have not) had (?:\w{3,}ed|(?!\w*thing\b)\w{3,}ing|I|it|they|he|she|we|you|someone|people|before|after|when|while|if|since|until|that|because|to|what)\b",
    re.IGNORECASE,
)
_BEEN_A = re.compile(r"\bI(?:'ve| have| haven't| have not) been an? \b", re.IGNORECASE)
_DONT_HYPHENATED = re.compile(r"\bI (?:don't|do not) \w+-\w+\b", re.IGNORECASE)


def test_every_concept_has_a_clause_in_each_polarity_it_is_said_in():
    lay = lay_renderer(LEXICON)
    for concept in LEXICON.concepts:
        entry = lay.concept_clauses.get(concept.id)
        assert entry is not None, f"{concept.id}: no concept_clauses entry in render.json"
        for polarity in ("present", "absent"):
            assert polarity in entry, (concept.id, polarity)
            if concept.id in UNSAID[polarity]:
                assert entry[polarity] == [], (concept.id, polarity, "listed as unsaid")
                assert lay.clause(concept.id, polarity == "absent") is None, (concept.id, polarity)
            else:
                assert len(entry[polarity]) >= 1, (concept.id, polarity)


def test_every_table_wording_states_exactly_its_concept_and_polarity():
    lay = lay_renderer(LEXICON)
    failures = []
    for concept_id, entry in lay.concept_clauses.items():
        for polarity, wordings in entry.items():
            for text in wordings:
                mentions = LEXICON.find(text)
                if not mentions or not all(
                    m.concept_id == concept_id and m.negated == (polarity == "absent") for m in mentions
                ):
                    failures.append((concept_id, polarity, text, [(m.concept_id, m.negated) for m in mentions]))
                if text.endswith(".") or not 2 <= len(text.split()) <= 14:
                    failures.append((concept_id, polarity, text, "no full stop, 2-14 words"))
    assert not failures, failures


def test_a_wording_the_lexicon_does_not_read_as_its_concept_is_never_said():
    lay = LayRenderer(LEXICON)
    lay.concept_clauses = {
        "hopelessness": {"present": ["I don't feel hopeless", "I feel hopeless"], "absent": []}
    }
    assert lay.clause("hopelessness") == "I feel hopeless."
    assert lay.clause("hopelessness", negated=True) is None


@pytest.mark.parametrize(
    ("concept_id", "negated"),
    [
        ("catatonia", False),
        ("catatonia", True),
        ("use_despite_harm", True),
        ("hopelessness", False),
        ("anhedonia", False),
        ("callousness", False),
        ("disorganised_speech", False),
        ("impulsivity", False),
        ("access_to_means", False),
        ("lack_of_insight", False),
        ("sensory_sensitivity", False),
        ("auditory_hallucinations", True),
        ("family_psychiatric_history", True),
    ],
)
def test_clause_says_the_table_wording(concept_id, negated):
    lay = lay_renderer(LEXICON)
    wordings = lay.concept_clauses[concept_id]["absent" if negated else "present"]
    first = wordings[0]
    assert lay.clause(concept_id, negated) == first[0].upper() + first[1:] + "."
    for variant, text in enumerate(wordings):
        assert lay.clause(concept_id, negated, variant=variant) == text[0].upper() + text[1:] + "."


def test_every_clause_reads_as_english():
    lay = lay_renderer(LEXICON)
    bad = []
    for concept in LEXICON.concepts:
        for negated in (False, True):
            text = lay.clause(concept.id, negated)
            if text is None:
                continue
            if _HAD_THEN_VERB.search(text) or _BEEN_A.search(text) or _DONT_HYPHENATED.search(text):
                bad.append((concept.id, negated, text))
            if not (text[0].isupper() and text.endswith(".")):
                bad.append((concept.id, negated, text, "sentence case and a full stop"))
    assert not bad, bad


def test_the_grammar_guard_catches_the_framings_it_was_written_for():
    for text in ("I haven't had stayed frozen.", "I've had before my period.", "I haven't had it is what it is."):
        assert _HAD_THEN_VERB.search(text), text
    assert _BEEN_A.search("I've been a gun.")
    assert _DONT_HYPHENATED.search("I don't drink-driving.")
    for text in ("I've had fits.", "I've had side effects.", "I don't feel worn out.", "I've been admitted before."):
        assert not (_HAD_THEN_VERB.search(text) or _BEEN_A.search(text) or _DONT_HYPHENATED.search(text)), text


@pytest.mark.parametrize(
    "suite, case_id, seed",
    [
        # stop 31: test-v2-0094's "Well, honestly, I gave up smoking years ago." told again to "Do you smoke or
        # vape?" lost only "Well," (the voice's first opener it starts with) and opened "honestly, I gave up ..."
        ("test-v2", "test-v2-0094", 0),
        # and a head put in lower case after its opener ("The thing is, my jaw clenches like mad.") kept it
        # once the opener was gone: "my jaw clenches like mad.", "as for my mood, ...", "my sleep is fine ..."
        ("dev", "dev-0094", 3141),
        ("handwritten", "hw-016", 3141),
        ("handwritten", "hw-031", 3141),
    ],
)
def test_a_reply_told_again_never_opens_in_lower_case(suite, case_id, seed):
    from mentalhospital_env.evaluation import EvaluationSpec, run_episode

    record = run_episode("scripted", EvaluationSpec(suite=suite, seeds=(seed,)), case_id, seed)["record"]
    replies = [t["patient"] for t in record["chart"]["turns"] if t.get("doctor") and t.get("patient")]
    assert len(replies) >= 20
    assert [r for r in replies if r[:1].islower()] == []


@pytest.mark.parametrize(
    ("quote", "said", "extra"),
    [
        ("embarrassed", r"^I(?: feel|'ve been feeling) embarrassed\.", None),
        ("not great", r"^I'm not great\.", None),
        ("rock bottom", r"^I'm at rock bottom\.", None),
        # the record holds no tiredness: "I feel tired" would claim fatigue, so the word is said on its own
        ("tired", r"^Tired, (?:really|to be honest)\.", None),
        # the record holds the disturbed body image: "I feel fat" says what it says
        ("fat", r"^I(?: feel|'ve been feeling) fat\.", {"id": "hpi-9", "section": "history_of_present_illness",
                                                         "text": "Believes she is fat although underweight.",
                                                         "patient_says": "I think I'm fat, though people say I'm thin."}),
    ],
)
def test_a_quoted_mood_is_said_as_a_feeling_never_as_the_examiners_heading(quote, said, extra):
    """Stop 34 (issue 13): the mental state's 'Mood: "fat"' was said "My mood's fat, I'd say." and "I'd say my
    mood is embarrassed." at the end of replies in every encounter; a patient says "I feel fat"."""
    facts = [f for f in FACTS if f["id"] != "mood-1"] + [
        {"id": "mood-1", "section": "mental_status_exam.mood", "text": f"'{quote}'", "patient_says": f"I'd say {quote}."}]
    patient = make_patient(_case(facts + ([extra] if extra else [])), "full", seed=0)
    reply = patient.respond("How would you describe your mood right now?")
    assert "mood-1" in reply.fact_ids, reply.text
    assert re.search(said, reply.text), reply.text
    assert "mood's" not in reply.text and "mood is" not in reply.text and "I'd say" not in reply.text, reply.text


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Codeine: vomiting (intolerance rather than allergy).", "Codeine makes me sick."),
        ("Penicillin allergy: rash.", "Penicillin gives me a rash."),
    ],
)
def test_a_reaction_told_in_the_patients_words_is_not_followed_by_a_stock_allergy_clause(text, says):
    """Stop 34 (issue 13): 'Codeine: vomiting (intolerance rather than allergy)' was said "Codeine makes me sick, I
    have an allergy to a medicine.": the stock clause called an intolerance an allergy, and after "Penicillin gives
    me a rash" it only repeated what the patient had just said."""
    facts = FACTS + [{"id": "all-1", "section": "allergies", "text": text, "patient_says": says}]
    patient = make_patient(_case(facts, ehr={"allergies": text}), "full", seed=0)
    reply = patient.respond("Are you allergic to any medicines?")
    assert "all-1" in reply.fact_ids, reply.text
    assert says.rstrip(".") in reply.text, reply.text
    assert "allerg" not in reply.text.lower(), reply.text
