"""Stop 36's keyword-picked answers of the offline patient (issue 13), through the public API (make_patient, respond).

Each premise is checked against the record before the reply is judged, so a redrawn or edited record fails loudly
instead of passing for nothing."""

from __future__ import annotations

from pathlib import Path

from mentalhospital_env.cases import load_case, load_suite
from mentalhospital_env.patient import make_patient

ROOT = Path(__file__).resolve().parents[1]
UW009 = ROOT / "benchmarks" / "data" / "patient_exam" / "unseen" / "uw-009.json"
FAMILY_MENTAL = "Has anyone in your family had problems with their mental health?"


def _case(suite: str, case_id: str):
    return next(c for c in load_suite(suite).cases if c.case_id == case_id)


def _reply(case, *questions: str, seed: int = 3) -> str:
    patient = make_patient(case, variant="full", seed=seed)
    text = ""
    for q in questions:
        text = patient.respond(q).text
    return text


def test_a_word_shared_with_a_mood_question_does_not_pick_the_answer():
    # hw-011: "In your own words, how would you describe your mood right now?" - "I did my own shopping."
    case = _case("handwritten", "hw-011")
    assert "did her own shopping" in case.ehr.history_of_present_illness
    reply = _reply(case, "In your own words, how would you describe your mood right now?")
    assert "shopping" not in reply.lower() and "dosette" not in reply.lower()
    # hw-012: "In Reception I was moved to a table on my own."
    case = _case("handwritten", "hw-012")
    assert "table on his own" in case.ehr.history_of_present_illness
    reply = _reply(case, "In your own words, how would you describe your mood right now?")
    assert "reception" not in reply.lower() and "table" not in reply.lower()


def test_on_your_own_still_finds_the_sentence_that_says_it():
    # the frame "in your own words" is ignored, "on your own" is not: the agoraphobic patient of dev-0049 says she
    # cannot go to the supermarket on her own
    reply = _reply(_case("dev", "dev-0049"), "Can you go to the shops on your own, and how about buses?")
    assert "on my own" in reply


def test_family_mental_health_is_not_answered_with_a_stroke():
    case = _case("handwritten", "hw-028")
    assert "stroke" in case.ehr.family_history.lower()
    reply = _reply(case, FAMILY_MENTAL)
    assert "stroke" not in reply.lower()
    assert reply.strip()


def test_family_mental_health_of_a_narrative_record_tells_the_relative_who_had_it():
    case = load_case(str(UW009))
    assert "died by suicide" in case.ehr.family_history and "Father Graham" in case.ehr.family_history
    reply = _reply(case, "Who do you live with?", FAMILY_MENTAL)
    assert "Graham" not in reply
    assert "suicide" in reply.lower() and "uncle" in reply.lower()
    assert "Marcus" not in reply  # the patient does not speak of himself by name ("when Marcus was 15")


def test_a_relatives_mental_health_only_ruled_out_in_passing_is_no_answer_of_his_name():
    # "Father Graham (68), retired plasterer, never seen by a psychiatrist": not "My father was Graham."
    reply = _reply(load_case(str(UW009)), "Has your father had any problems with his mental health?")
    assert "was Graham" not in reply


def test_anything_similar_in_the_family_is_still_answered_from_the_whole_family_history():
    # only a question that says "mental health" is narrowed; "anything similar" is told the relative's disorder
    case = _case("dev", "dev-0026")
    assert "post-traumatic" in case.ehr.family_history.lower()
    reply = _reply(case, "Anyone in the family had anything similar?")
    assert "post-traumatic" in reply.lower()


def test_a_child_named_beside_children_is_not_taken_for_the_patient():
    # uw-009's son Alfie was read as the patient's name: "I shouted at me over a spilt drink"
    case = load_case(str(UW009))
    assert "shouted at Alfie" in case.ehr.history_of_present_illness
    reply = _reply(case, "Has anything happened to you that was very frightening, such as an assault or an accident?")
    assert "at me over" not in reply


TRIGGER = "Was anything going on in your life around the time it started?"


def test_what_was_going_on_when_it_started_is_not_how_they_came():
    # hw-007: "I was admitted from the paediatric ward after I fainted at school" -> the remarks in the dance class
    case = _case("handwritten", "hw-007")
    assert "dance class" in case.ehr.history_of_present_illness
    reply = _reply(case, TRIGGER)
    assert "admitted" not in reply.lower() and "dance class" in reply
    # hw-020: "I was referred from the GP after a mountain of normal tests" names the referral, not a stressor
    case = _case("handwritten", "hw-020")
    assert case.ehr.history_of_present_illness.startswith("Referred from the GP after")
    assert "referred" not in _reply(case, TRIGGER).lower()
    # dev-v2-0225 (stop 36): "Once I start I can't stop" shared "start" with the question. Redraws moved it; the case is
    # chosen by what it holds, the first dev-v2 record whose patient says it
    held = next(c for c in load_suite("dev-v2") if any("Once I start I can't stop" in (f.patient_says or "") for f in c.facts))
    assert "can't stop" not in _reply(held, TRIGGER), held.case_id


# --- the patient's own reading of worry (stop 36): the lexicon's excessive_worry is generalised worry only, so a worry
# question finds the sentence that says a worry in the patient's words (data/recall.json topic_said), and that sentence
# states no generalised worry to be tacked on elsewhere

def _record_text(case) -> str:
    return " ".join(f"{f.text} {f.patient_says or ''}" for f in case.facts)


def test_a_worry_question_finds_the_worry_about_one_thing():
    # hw-018 (stroke, a mother to look after): "What's worrying you most right now?" was "I've been having headaches.
    # And I've felt wound up like a spring" once bare "worried" left excessive_worry
    case = _case("handwritten", "hw-018")
    assert "worried about who will look after my mother" in _record_text(case)
    reply = _reply(case, "Can you tell me what happened this morning?", "What's worrying you most right now?")
    assert "mother" in reply.lower() and "wound up" not in reply.lower()


def test_a_fear_of_going_mad_answers_a_worry_question():
    # dev-0038 (depersonalisation): "Do you worry about what it means?" was "I couldn't tell you, honestly."
    case = _case("dev", "dev-0038")
    assert "I'm scared I'm going mad" in _record_text(case)
    reply = _reply(case, "Can you describe what you've been experiencing?", "When did that start?",
                   "Does the world around you feel real?", "Do you worry about what it means?")
    assert "going mad" in reply.lower()


def test_a_worry_in_the_patients_words_is_not_told_as_their_work():
    # hw-004 (panic): "What do you do for work?" had "Between attacks I worry about the next one ..." tacked on
    case = _case("handwritten", "hw-004")
    assert "Between attacks I worry about the next one" in _record_text(case)
    reply = _reply(case, "What do you do for work?")
    assert "parcel" in reply.lower() and "between attacks" not in reply.lower()
    # asked about the worry itself, it is still the answer
    reply = _reply(case, "What brings you to see us today?", "Do you worry about having another one in between?")
    assert "between attacks i worry" in reply.lower()


def test_a_worry_about_one_thing_is_no_generalised_worry_tacked_on_a_suicide_screen():
    # hw-003: "I worry all the time" no longer follows the suicide screen's answer
    case = _case("handwritten", "hw-003")
    reply = _reply(case, "Have you had thoughts of ending your life, now or in the past?")
    assert "worry all the time" not in reply.lower()


def test_is_anyone_here_worrying_you_is_no_question_about_being_a_worrier():
    # hw-011 (post-operative delirium, suspects staff of putting something in her tea): "Is anyone here worrying
    # you?" asks who troubles her, not whether she is a worrier ("I'm not a big worrier")
    case = _case("handwritten", "hw-011")
    assert "putting something in" in _record_text(case)
    reply = _reply(case, "Is anyone here worrying you?")
    assert "worrier" not in reply.lower() and "worry" not in reply.lower()


def test_a_relative_that_after_anything_points_back_to_nothing():
    # hw-040: "Is anything happening online that's worrying you?" after a mood question had "My mum knew I was moody"
    # tacked on: the "that" is the anything's, not the mood's; a "that" that does point back still inherits
    from mentalhospital_env.patient.understanding import understand

    assert "mood" not in understand("Is anything happening online that's worrying you?", "How has your mood been lately?").topics
    assert "sleep" in understand("Has that been worrying you?", "How has your sleep been lately?").topics
    assert "sleep" in understand("Is there anything that makes it worse?", "How has your sleep been lately?").topics


def test_a_relatives_worry_about_the_patient_is_no_worry_of_theirs():
    # "My husband's worried about me." (dev-0011 and others) is not filed under the patient's worry; their own is
    from mentalhospital_env.patient.recall import FactIndex

    case = _case("dev", "dev-0011")
    facts = FactIndex(case).facts
    relative = [f for f in facts if "worried about me" in (f.fact.patient_says or "")]
    assert relative and all("worry" not in f.said for f in relative)
    own = [f for f in facts if "find something to worry about" in (f.fact.patient_says or "")]
    assert own and all("worry" in f.said for f in own)


def test_a_relatives_drinking_and_a_hinted_condition_answer_the_family_mental_health_question():
    """Found on the leaderboard at stop 36's integration: the narrowed family answer lost the relatives it should keep.
    hw-010 'Has anyone in your family had problems with their mental health?' got 'I'm not sure. We don't talk about
    that sort of thing in my family.' for 'His father drank heavily.' (it said 'my father drank heavily' before), and
    hw-012's mother lost the father 'always in trouble at school ... no formal diagnosis' (an ADHD boy's record)."""
    case = _case("handwritten", "hw-010")
    assert case.ehr.family_history == "His father drank heavily."
    assert "father drank heavily" in _reply(case, FAMILY_MENTAL).lower()
    case = _case("handwritten", "hw-012")
    assert "always in trouble at school" in case.ehr.family_history and "epilepsy" in case.ehr.family_history
    reply = _reply(case, "Mum, has anyone in his family had problems with their mental health?").lower()
    assert "trouble at school" in reply and "epilepsy" not in reply


def test_a_relative_described_in_lay_words_still_answers_the_family_mental_health_question():
    """The narrowed answer lost relatives a narrative record describes without a clinical word (12 family checkpoints
    of the hand-written suite at stop 36's integration): a mother's 'highs and lows' treated with ECT (hw-026), a
    brother 'hyperactive' and excluded from school (hw-038). They are told before 'not sure'; a stroke never is."""
    case = _case("handwritten", "hw-026")
    assert "highs and lows" in case.ehr.family_history
    assert "highs and lows" in _reply(case, FAMILY_MENTAL).lower()
    case = _case("handwritten", "hw-038")
    assert "hyperactive" in case.ehr.family_history
    assert "hyperactive" in _reply(case, FAMILY_MENTAL).lower()
    assert "stroke" not in _reply(_case("handwritten", "hw-028"), FAMILY_MENTAL).lower()


def test_a_that_right_after_a_verb_still_points_back_after_an_indefinite():
    """Stop 36's review: the relative-'that' exception (hw-040 'Is anything happening online that's worrying you?')
    also cut 'Has anyone said that to you?' after a voices question off the voices; a 'that' right after a verb is
    its object and points back."""
    from mentalhospital_env.patient.understanding import understand

    before = "Do you hear voices when no one is there?"
    assert "voices" in understand("Has anyone said that to you?", context=before).topics
    assert "voices" in understand("Has anyone else noticed that change?", context=before).topics
