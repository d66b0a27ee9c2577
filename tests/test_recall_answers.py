"""Recall answers what a person knows (issue 13): the record sentence in the question's own words,
amounts for "how much / how often", a person's default where the whole record is silent, and never
a default where the record speaks."""

from __future__ import annotations

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.question import read_question
from mentalhospital_env.patient.recall import SILENT, FactIndex, amount_in, asks_when


@pytest.fixture(scope="module")
def handwritten():
    return {c.case_id: c for c in load_suite("handwritten").cases}


def _ask(case, *questions: str) -> list[str]:
    patient = make_patient(case, "full", seed=1)
    return [patient.respond(q).text for q in questions]


def test_amounts_are_read_from_the_words_of_a_fact() -> None:
    assert amount_in("I drink about six units a week.") == "six units"
    assert amount_in("The attacks now come two or three times a week.") == "two or three times"
    assert amount_in("I check for lumps every day.") == "every day"
    assert amount_in("It started about ten years ago.") is None
    assert amount_in("I take sertraline.") is None


def test_the_sentence_in_the_questions_words_answers_it(handwritten) -> None:
    # hw-009: "I drift off in meetings." filed under no topic the question names
    (reply,) = _ask(handwritten["hw-009"], "What happens in meetings?")
    assert "meetings" in reply.lower()


def test_how_much_someone_drinks_is_told_without_rapport(handwritten) -> None:
    # hw-002: "Alcohol about six units a week", asked first thing: the amount, not a deflection
    (reply,) = _ask(handwritten["hw-002"], "How much do you drink in a week?")
    assert "six units" in reply


def test_a_silent_childhood_gets_a_persons_answer_not_im_not_sure(handwritten) -> None:
    case = handwritten["hw-029"]
    index = FactIndex(case)
    assert f"{SILENT}childhood" in {f.id for f in index.facts}
    (reply,) = _ask(case, "What was it like for you growing up?")
    assert "not sure" not in reply.lower() and "don't know" not in reply.lower()
    assert "ordinary" in reply.lower()


def test_no_default_where_the_record_speaks_of_the_topic(handwritten) -> None:
    for case in handwritten.values():
        index = FactIndex(case)
        silent = {f.id[len(SILENT):] for f in index.facts if f.id.startswith(SILENT)}
        record = {t for f in index.facts if not f.id.startswith((SILENT, "demographics.")) for t in f.topics}
        assert not silent & record, case.case_id


@pytest.mark.parametrize(
    ("utterance", "when"),
    [
        ("When did you retire?", True),
        ("And how long has the arguing been this bad?", True),
        ("How old were you when it started?", True),
        ("I'm sorry to hear that. When did you last drink?", True),
        ("Do you remember when it started?", False),  # a yes/no question; its subject's facts answer
        ("How are you sleeping? When do you wake?", True),
        ("When you're angry with them, what goes through your mind?", False),  # a when-clause
        ("What do you do for work?", False),
    ],
)
def test_a_question_asks_a_time_by_its_asking_sentence(utterance: str, when: bool) -> None:
    assert asks_when(read_question(utterance)) is when


def test_a_time_question_is_told_the_sentence_that_says_a_time(handwritten) -> None:
    # hw-008 has "Retired civil engineer" and "Worked as a civil engineer until 65": asked when, the second
    first, retired = _ask(handwritten["hw-008"], "What did you do for work?", "When did you retire?")
    assert "65" in retired, (first, retired)


def test_the_part_of_a_subject_asked_is_read_in_the_asking_sentence() -> None:
    from mentalhospital_env.patient.recall import asked_facets, says_facet

    def question(text: str):
        return read_question(text, _lexicon())

    assert "precipitant" in asked_facets(question("Did anything happen around the time it started?"))
    # the scripted clinician's line (a reader of stop 28: never answered with the precipitant)
    assert "precipitant" in asked_facets(question("Was anything going on in your life around the time it started?"))
    assert "precipitant" in asked_facets(question("Was anything going on at home or at school around the time it started?"))
    assert "cue" in asked_facets(question("What sets them off?"))
    assert "last" in asked_facets(question("When did you last have a drink?"))
    # the preface says no part asked: "after" in it is not a precipitant asked
    assert "precipitant" not in asked_facets(question("You came here after work, following a row. Are you sleeping?"))
    assert says_facet("The recent stressor was a viral illness.", "precipitant")
    assert says_facet("Flashbacks triggered by sirens.", "cue")
    assert not says_facet("Her son looks after her on weekends.", "precipitant")


def _lexicon():
    from mentalhospital_env.knowledge.lexicon import load_lexicon

    return load_lexicon()


def test_what_brought_it_on_is_told_first() -> None:
    # dev-0002: "The recent stressor was a viral illness." (filed under no topic) was never told; the reply
    # opened with the avoidance the word "attacks" found
    case = {c.case_id: c for c in load_suite("dev").cases}["dev-0002"]
    (reply,) = _ask(case, "Did anything happen around the time the attacks started?")
    assert "viral" in reply.lower().split(".")[0]


def test_what_sets_a_symptom_off_is_told(handwritten) -> None:
    # hw-039: "when she hears a siren or rain on a windscreen 'I'm back there'", a sentence filed under no topic
    (reply,) = _ask(handwritten["hw-039"], "What sets the flashbacks off?")
    assert "siren" in reply.lower()


def test_a_racing_heart_is_no_answer_to_the_suicide_question(handwritten) -> None:
    # hw-013: "feel like my heart's going to jump out" was filed under suicide and silenced the denial
    (reply,) = _ask(handwritten["hw-013"], "Have you had any thoughts of ending your life?")
    assert "heart" not in reply.lower()
    assert "never" in reply.lower() or "no" in reply.lower().split()


def _heroin_record():
    from mentalhospital_env.cases.loader import load_case

    return load_case({
        "case_id": "t-heroin", "language": "en",
        "demographics": {"age": 31, "sex": "male", "occupation": "unemployed roofer", "marital_status": "single",
                         "living_situation": "lives in a hostel"},
        "setting": "inpatient",
        "ehr": {
            "chief_complaint": "Not coping; asked for help.",
            "history_of_present_illness": (
                "Admitted from the emergency department after two weeks of worsening low mood. "
                'He says, "I\'m smoking a bag of heroin a day and I can\'t stop." '
                "Sleeping poorly since he lost his flat."
            ),
            "substance_use": "Smokes heroin, about 0.3 g a day for two years; never injected. No alcohol.",
            "mental_status_exam": {"behavior": "Guarded, poor eye contact."},
        },
        "diagnosis": {"categories": ["substance_related"], "disorders": [{"name": "Opioid dependence", "code": "F11.20"}]},
        "treatment": {"plan": "Opioid substitution assessment."},
        "exams": [{"name": "Urine drug screen", "kind": "lab", "result": "positive for opiates"}],
    })


@pytest.mark.parametrize("question", ["Do you use any drugs?", "Do you take any recreational drugs?",
                                      "Do you use drugs, like cannabis or cocaine?"])
def test_drug_use_the_patient_told_the_referrer_is_told_at_the_first_broad_question(question) -> None:
    """A guarded man admitted for his heroin, who quoted it to the liaison nurse, tells it when first asked about
    drugs in general: no deflection ('That's hard, can we come back to it?') and no 'not sure' (stop 26's
    supervisor: test-v2-0341 deflected every drug question once the chief complaint said only 'not coping')."""
    (reply,) = _ask(_heroin_record(), question)
    assert "heroin" in reply.lower(), reply
    assert "come back to" not in reply.lower() and "rather" not in reply.lower(), reply


def test_a_suicide_screen_is_not_answered_by_a_narrower_finding_misread(handwritten) -> None:
    # hw-013: "feel like my heart's going to jump out" is no suicide plan; narrower findings answer only the
    # broad substance questions (recall.json came_about.told_by_narrower)
    (reply,) = _ask(handwritten["hw-013"], "Any thoughts of ending your life?")
    assert "jump" not in reply.lower(), reply


def test_a_second_sentence_goes_on_with_what_was_asked(handwritten) -> None:
    # hw-026: the spending, not "and I've had three admissions" (the psychiatric history tacked on)
    (reply,) = _ask(handwritten["hw-026"], "Have you been spending much lately?")
    assert "8,000" in reply and "admission" not in reply.lower()
    # hw-040: the mood, not the school counsellor the word "feeling" found first
    (reply,) = _ask(handwritten["hw-040"], "How have you been feeling over the last few months?")
    assert "sad" in reply.lower() and "counsellor" not in reply.lower()


def test_a_relatives_history_is_not_read_off_a_question_about_the_patient(handwritten) -> None:
    # hw-004: "Have you had any mental health problems before this?" was answered "My mother has generalised anxiety"
    before, family = _ask(handwritten["hw-004"], "Have you had any mental health problems before this?",
                          "Does anyone in your family suffer with their nerves?")
    assert "mother" not in before.lower()
    assert "mother" in family.lower()


def test_the_risk_history_goes_on_from_the_present(handwritten) -> None:
    # hw-014: the cutting, then the overdoses: a lifetime question about self-harm keeps its history
    (reply,) = _ask(handwritten["hw-014"], "Do you ever hurt yourself in other ways?")
    assert "cut" in reply.lower() and "overdose" in reply.lower()


def _guarded_record(**ehr):
    from mentalhospital_env.cases.loader import load_case

    base = {
        "chief_complaint": "Low mood for three months.",
        "history_of_present_illness": "Low mood, poor sleep and loss of interest for three months since losing his job.",
        "mental_status_exam": {"behavior": "Guarded, poor eye contact."},
    }
    base.update(ehr)
    return load_case({
        "case_id": "t-guarded", "language": "en", "setting": "outpatient",
        "demographics": {"age": 40, "sex": "male", "occupation": "unemployed", "marital_status": "married",
                         "living_situation": "lives with his wife"},
        "ehr": base,
        "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode", "code": "F32.1"}]},
        "treatment": {"plan": "Antidepressant."},
        "exams": [{"name": "Full blood count", "kind": "lab", "result": "normal"}],
    })


@pytest.mark.parametrize("question", ["Any plans to act on that?", "Have you thought about acting on those thoughts?"])
def test_a_plan_the_record_rules_out_is_denied_not_deflected(question) -> None:
    """'Passive death wishes without plan or intent': asked whether he would act on them, a guarded man says no
    (stop 27: dev-0004.a8, dev-0023.a6 answered 'That's hard. Can we come back to it?')."""
    case = _guarded_record(risk_assessment={"suicide": "Passive death wishes without plan or intent; protective factors include his children."})
    _, reply = _ask(case, "Have you had thoughts that life isn't worth living?", question)
    assert "come back to" not in reply.lower() and "rather" not in reply.lower(), reply
    assert reply.lower().startswith("no") or "wouldn't" in reply.lower() or "no plan" in reply.lower(), reply


def test_a_plan_question_is_no_stock_denial_where_the_record_is_silent() -> None:
    """Without a sentence that rules a plan out, 'Any plans to act on that?' is not answered with the record's
    denial it does not have (meaning_denied adds only the record's own words)."""
    case = _guarded_record(substance_use="Drinks about 10 units a week.")
    index = FactIndex(case)
    assert "suicide_plan" not in index.denied_by_meaning


@pytest.mark.parametrize("suicide", [
    "Passive wish to be dead in the past month; no active ideation, method, intent or plan.",
    "Passive death wishes when low. Denies SI, plan or intent.",
    "Passive thoughts of death; nil plan/intent.",
])
def test_a_plan_the_record_rules_out_in_a_list_is_denied(suicide) -> None:
    """A chart lists what it rules out ('no active ideation, method, intent, plan or preparatory behavior'): the
    plan or intent is denied there as much as after a bare 'no' (stop 51: uw-024 asked 'do you feel you might act
    on them?' answered only 'I think I'd be better off dead.', the denial unread behind the list)."""
    case = _guarded_record(risk_assessment={"suicide": suicide})
    assert "suicide_plan" in FactIndex(case).denied_by_meaning
    _, reply = _ask(case, "Have you had thoughts that life isn't worth living?",
                    "When those thoughts come, do you feel you might act on them?")
    assert "no plan" in reply.lower() or "don't have a plan" in reply.lower() or "wouldn't" in reply.lower(), reply


def test_preparatory_behaviour_ruled_out_in_a_list_states_no_plan() -> None:
    """'no active ideation, method, intent, plan or preparatory behavior': the commas ended the clause the 'no' was
    read in, so 'preparatory behavior' stated a plan (meaning) and the record's denial was set aside; asked about
    plans, the patient said 'Hard to say. I'm not sure.' of a plan his record rules out."""
    case = _guarded_record(risk_assessment={"suicide": "Passive wish to be dead in the past month; no active ideation, "
                                                       "method, intent, plan or preparatory behavior."})
    index = FactIndex(case)
    assert "suicide_plan" not in index.supported_present and "suicide_plan" in index.denied_by_meaning
    still = FactIndex(_guarded_record(risk_assessment={"suicide": "Active SI with method and preparatory behavior, no intent."}))
    assert "suicide_plan" in still.supported_present


@pytest.mark.parametrize("suicide", [
    "Passive death wishes; no longer denies intent.",
    "Denied intent at first but later disclosed a plan to hang himself.",
    "Initially denied plan or intent, then described stockpiling tablets.",
    "Denied intent, but has made a plan.",
    "Denies SI, plan or intent on admission; later endorsed intent.",
    "Passive death wishes. No side effects, plan to increase the dose.",
])
def test_a_plan_or_intent_the_record_affirms_is_never_read_as_denied(suicide) -> None:
    """A denial taken back or a clinician's plan is no denial of a suicide plan (the list reading of stop 51
    must not say 'I don't have a plan' of a man who disclosed one)."""
    assert "suicide_plan" not in FactIndex(_guarded_record(risk_assessment={"suicide": suicide})).denied_by_meaning

def test_cannabis_tried_long_ago_is_told_without_rapport() -> None:
    """'Tried cannabis at university; none for many years' is no secret (stop 27: dev-0026.a9, test-v2-0319.d2
    deflected it); a fact that also says use now is not read as remote."""
    (reply,) = _ask(_guarded_record(substance_use="Tried cannabis at university; none for many years."), "Have you used cannabis?")
    assert "come back to" not in reply.lower() and "rather" not in reply.lower() and "something else" not in reply.lower(), reply
    from mentalhospital_env.patient.recall import load_recall_rules

    rules = load_recall_rules()
    assert rules.remote_use.search("Tried cannabis at university; none for many years.")
    assert not rules.remote_use.search("Has tried to stop heroin several times.")
    assert rules.remote_unless.search("Tried heroin once at 19; now injects daily.")


def test_binge_drinking_is_filed_under_alcohol_not_eating() -> None:
    from mentalhospital_env.patient.understanding import record_topics

    assert "eating" not in record_topics("substance_use", "Binge drinks at weekends, about 14 units a night.")
    assert "eating" in record_topics("history_of_present_illness", "Binges on food then vomits.")
    assert "sleep" in read_question("How much sleep do you get a night?").topics
    assert "sleep" not in read_question("How many units a night?").topics


def test_the_sentence_in_the_questions_words_is_said_again_when_told_before(handwritten) -> None:
    # hw-003: the opening answer tells "The depression now stops me working more than a few hours a day";
    # "Is this stopping you working?" is that sentence again, not the work history's other sentences
    opening, reply = _ask(handwritten["hw-003"], "What would you like help with today?", "Is this stopping you working?")
    assert "few hours" in opening
    assert "stops me working" in reply


def test_a_follow_up_asks_of_what_a_subjectless_question_was_answered_with() -> None:
    # dev-0022: "What are you using at the moment?" was read as naming no subject and answered by the heroin
    # sentence found in its words; since stop 50 the taxonomy reads it as a drugs question (other_drugs, gated by
    # rapport like every drug question). Either way "How much a day?" then asks of the drug, not the complaint
    case = next(c for c in load_suite("dev").cases if c.case_id == "dev-0022")
    patient = make_patient(case, "full", seed=1)
    patient.respond("What are you using at the moment?")
    assert patient.memory.state.topics in (("opioids",), ("other_drugs",))
    reply = patient.respond("How much a day?").text
    assert "sick of living like this" not in reply.lower()


def test_a_relatives_illness_is_named_as_the_family_history_names_it(handwritten) -> None:
    # hw-001: "Her mother had recurrent depression." - the words the family told her, not "a condition"
    (reply,) = _ask(handwritten["hw-001"], "Has anybody in your family been treated for their mood or nerves?")
    assert "recurrent depression" in reply.lower()
    assert "a condition" not in reply.lower()


def test_a_rare_word_of_the_question_finds_the_sentence_that_answers_it(handwritten) -> None:
    # hw-005: "She washes her hands up to forty times a day, until the skin cracks": asked of the skin after
    # the washing was told, the skin is the answer, not the obsessional thoughts said again
    replies = _ask(handwritten["hw-005"], "How often do you wash your hands?", "And what is your skin like now?")
    assert "crack" in replies[1].lower()


def test_a_topic_word_is_no_anchor() -> None:
    from mentalhospital_env.patient.recall import _anchor_words

    assert "partner" not in _anchor_words(read_question("How are things with your partner?"))  # the relationship
    assert "laugh" in _anchor_words(read_question("Does anything happen when you laugh?"))
    assert not _anchor_words(read_question("What brought you in today, Lisa?")) & {"lisa"}


def test_a_reflection_is_not_screened_no(handwritten) -> None:
    # hw-020: exhaustion is in the record; the doctor's "exhausting" is empathy, not a fatigue screen
    (reply,) = _ask(handwritten["hw-020"], "That sounds exhausting, going from doctor to doctor.")
    assert "not tired" not in reply.lower() and not reply.lower().startswith("no")


def test_asked_what_brought_them_the_patient_tells_what_is_happening(handwritten) -> None:
    # hw-031: the referral line says only that the GP referred him; what brings him is the sleepiness
    (reply,) = _ask(handwritten["hw-031"], "So what brings you to see us?")
    assert "referred" not in reply.lower()
    assert "asleep" in reply.lower() or "sleep" in reply.lower()


@pytest.mark.parametrize("question", ["Have you ever tried to end your life?", "Have you made any attempts on your life in the past?"])
def test_an_act_tonight_is_told_before_the_denial_of_earlier_attempts(question) -> None:
    """hw-036 was found outside a footbridge railing tonight; his record says "No previous suicide attempts".
    Asked whether he has ever tried, the denial alone read as no attempt at all (stop 33's blind reader, a
    safety-critical W): tonight's act is told first, the earlier ones denied after it."""
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient import make_patient

    reply = make_patient(load_suite("handwritten")["hw-036"], seed=0).respond(question).text
    assert "footbridge" in reply and "intending to jump" in reply
    assert reply.index("footbridge") < reply.index("previous suicide attempts")


@pytest.mark.parametrize(
    "suite, case_id, home",
    [("dev", "dev-0233", "alone"), ("handwritten", "hw-005", "student halls"), ("handwritten", "hw-040", "mum")],
)
@pytest.mark.parametrize(
    "question",
    ["Do you have children or anyone who depends on you?",
     "Is anyone relying on you at home, such as children, or a parent or partner you look after because they are unwell?"],
)
def test_a_record_silent_on_dependants_answers_with_the_household(suite, case_id, home, question) -> None:
    """Stop 33's blind reader: 6 of 6 questions about dependants were answered with whatever a word of them found
    ("We moved around a lot after my parents split up", "As a child I had a spell of ..."). A record that says
    nothing of dependants tells who is at home, and denies nothing it does not say."""
    reply = make_patient(load_suite(suite)[case_id], seed=0).respond(question).text
    assert home in reply
    assert not any(w in reply for w in ("split up", "As a child", "Home wasn't", "close to my parents", "vaping"))
    assert "don't have any children" not in reply and "haven't got children" not in reply


def test_a_record_with_children_still_tells_them() -> None:
    reply = make_patient(load_suite("dev")["dev-0003"], seed=0).respond("Do you have children or anyone who depends on you?").text
    assert "kids" in reply


@pytest.mark.parametrize(
    "case_id, question, said",
    [("hw-008", "Any children?", "two adult daughters"), ("hw-013", "Do you have children?", "son aged 15")],
)
def test_children_the_lexicon_does_not_read_are_told(case_id, question, said) -> None:
    """'two adult daughters nearby' and 'Son aged 15 lives with ex-wife' name no lexicon phrase of dependants: the
    sentence that names them answers, not the marriage ("I've been married for fifty-two years") or the household."""
    assert said in make_patient(load_suite("handwritten")[case_id], seed=0).respond(question).text


def test_a_question_about_the_patients_own_childhood_is_not_about_dependants() -> None:
    reply = make_patient(load_suite("dev")["dev-0046"], seed=0).respond("What were you like as a small child, walking and talking?").text
    assert "slow to walk and talk" in reply and "rented flat" not in reply


@pytest.mark.parametrize("case_id", ["dev-0022", "dev-0035", "dev-0233"])
def test_a_pregnancy_question_is_not_answered_with_the_patients_own_birth(case_id) -> None:
    """Stop 33's blind reader: "Is there any chance you could be pregnant?" answered "As far as I know there were no
    problems when I was little" (the record's "Uncomplicated pregnancy and birth; milestones reached on time", filed
    under pregnancy by its word); 8 of 10 women of dev with such a line answered so. The birth is the development's."""
    patient = make_patient(load_suite("dev")[case_id], seed=0)
    reply = patient.respond("Is there any chance you could be pregnant?").text
    assert "when I was little" not in reply and "no, i don't think so" in reply.lower()
    assert "when I was little" in make_patient(load_suite("dev")[case_id], seed=0).respond(
        "Tell me about your birth and early development.").text
