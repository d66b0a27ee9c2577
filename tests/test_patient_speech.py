"""How the patient speaks (issue 13, stop 21): it keeps to the subject asked, says stock tails only
where a person would, tells no physical history to an unrelated question, and does not read the
record's reporting aloud; an informant speaks of the child with a subject."""

from __future__ import annotations

import re

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient import make_patient
from mentalhospital_env.patient.informant import Informant
from mentalhospital_env.patient.say import lay_renderer, load_phrases

HANDWRITTEN = {c.case_id: c for c in load_suite("handwritten").cases}


def ask(case_id: str, *questions: str, variant: str = "full", seed: int = 0) -> list[str]:
    patient = make_patient(HANDWRITTEN[case_id], variant, seed=seed)
    return [patient.respond(q).text for q in questions]


def test_who_do_you_live_with_is_not_answered_with_the_mood():
    # hw-001's mental state exam quotes her mood as 'Flat and useless'; recall files it under the
    # living situation too (it shares the word "flat"). Said aloud, it answered another question.
    (reply,) = ask("hw-001", "Who do you live with?")
    assert "mood" not in reply.lower() and "useless" not in reply.lower()
    assert "husband" in reply.lower()


def test_a_mood_question_is_not_answered_with_bodily_complaints():
    (reply,) = ask("hw-020", "How has your mood been over the past few weeks?")
    assert "fed up" in reply.lower()
    assert "abdominal" not in reply.lower() and "tingling" not in reply.lower()
    # asked about the body, the same complaints are told
    (body,) = ask("hw-020", "Have you had any physical symptoms?")
    assert "abdominal" in body.lower()


@pytest.mark.parametrize(
    "said, spoken",
    [
        ("I have taken a week off sick, my partner adds.", "I have taken a week off sick."),
        ("I trace it to my thirties. And I say it became much worse after my divorce.",
         "I trace it to my thirties. And it became much worse after my divorce."),
        ("I say the neighbour is filming me through the walls.", "The neighbour is filming me through the walls."),
        ("Femi notes that the voices continued for weeks.", "The voices continued for weeks."),
        ("I don't go mad spending, I'm just me. My boyfriend agrees.", "I don't go mad spending, I'm just me."),
        ("My partner says I have few friendships.", "My partner says I have few friendships."),
        ("I said no to him.", "I said no to him."),
        ("I live with partner and a young child.", "I live with my partner and a young child."),
        ("I was close to parents in law.", "I was close to parents in law."),
        # stop 27's readers: a pronoun of the record left inside the patient's own clause
        ("I feel I'm a terrible mother and my family would be better off without her.",
         "I feel I'm a terrible mother and my family would be better off without me."),
        ("I couldn't get out of bed and called me aunt.", "I couldn't get out of bed and called my aunt."),
        ("I live with my partner Jamie, their daughter Ruby and Alfie.", "I live with my partner Jamie, our daughter Ruby and Alfie."),
        ("Iam not slept for a week.", "I haven't slept for a week."),
        ("My mum told me my aunt was ill.", "My mum told me my aunt was ill."),
        ("My sister is sending my post on.", "My sister is sending my post on."),
    ],
)
def test_the_records_reporting_is_not_said_aloud(said, spoken):
    assert lay_renderer().unreport(said) == spoken


def test_hedges_are_never_a_sentence_of_their_own():
    banks = load_phrases()["banks"]
    hedges = {h.lower() for h in (*banks["signature"], *banks["fillers"])}
    questions = ["How have you been sleeping?", "What do you do for work?", "How much do you drink?",
                 "Who do you live with?", "Tell me about your family.", "How is your appetite?",
                 "Any problems with your memory?", "What do you do for fun?"]
    for case_id in sorted(HANDWRITTEN)[:20]:
        for seed in (0, 1):
            for reply in ask(case_id, *questions, seed=seed):
                for sentence in re.split(r"(?<=[.!?])\s+", reply):
                    assert sentence.strip(" .?!").lower() not in hedges, (case_id, reply)


def test_trait_tails_only_where_they_fit():
    # the tangential persona's drift ("Funny, I was just reading about lighthouses") is never said
    # after "I'm not sure", and the anxious "Sorry, this is hard to talk about" never after a
    # question about concentration or allergies
    tails = load_phrases()["traits"]
    anxious = set(tails["anxious"]["tail"])
    tangential = set(tails["tangential"]["tail"])
    for case_id in sorted(HANDWRITTEN):
        for seed in range(3):
            replies = ask(case_id, "How is your concentration?", "Are you allergic to any medicines?",
                          "Have you ever been admitted to hospital?", seed=seed)
            for reply in replies:
                assert not any(t in reply for t in anxious), (case_id, reply)
            unsure = replies[2].startswith(("I'm not sure", "I don't know"))
            assert not (unsure and any(t in replies[2] for t in tangential)), (case_id, replies[2])


def test_an_informant_gives_the_record_a_subject():
    mother = Informant("mother", None, "male")
    assert mother.say("Lives with mother, father and a younger brother.").startswith("He lives with")
    said = mother.say("No thoughts of wanting to die, has never hurt himself.")
    assert said.endswith(", he has never hurt himself.")
    assert mother.say("Thomas is quiet and enjoys maths.").startswith("Thomas is quiet")


def test_an_informant_named_in_the_record_owns_her_own_history():
    # "Rachel had panic attacks in her twenties" said by Rachel was "I had panic attacks in her twenties" (stop 25's reading)
    mother = Informant("mother", "Rachel", "female")
    assert mother.say("Rachel had panic attacks in her twenties, treated with CBT.") == "I had panic attacks in my twenties, treated with CBT."
    assert mother.say("Rachel worries about her daughter at school.") == "I worry about my daughter at school."


def test_a_parent_speaks_as_herself_and_of_her_child():
    # stop 26's reading of hw-017 and test-v2-0167: the mother read "won't let go of me" as "of her", "her parents'
    # bed", "Me brought him in", "lives with me, father and brother" and "Bullied at secondary school"
    mother = Informant("mother", "Rachel", "female")
    assert mother.say("Mother: 'She screams at the school gate and won't let go of me.'") == "She screams at the school gate and won't let go of me."
    assert "in our bed" in mother.say("for the last three months sleeps in her parents' bed because she has nightmares.")
    assert mother.say("for the last three months sleeps in her parents' bed.").startswith("For the last three months she sleeps")
    assert mother.say("Lives with her mother, father and 12-year-old brother.") == "She lives with me, her father and her 12-year-old brother."
    assert mother.say("Father: coronary artery disease.") == "Her father has coronary artery disease."
    son = Informant("mother", None, "male")
    assert son.say("His mother brought him in.") == "I brought him in."
    assert son.say("Bullied at secondary school, frequent absences.").startswith("He was bullied at secondary school")
    assert son.say("Brother Oliver, 12, is well.") == "His brother Oliver, 12, is well."
    assert son.say("Milestones normal.") == "Milestones normal."
    assert son.say("Family history of recurrent depression in his older sister.") == "His older sister has had recurrent depression."


def test_several_things_denied_at_once_take_one_no():
    # "Do you use any drugs, such as cannabis, cocaine or others?" once got "No, I don't use any drugs. No, I'd have
    # said if so. I don't smoke weed. ..." (hw-020, hw-010, hw-018 in the reading of stop 21): a denial in the record's
    # words is the reply's "no", and what else is denied is named without another
    suite = load_suite("handwritten")
    for case_id in ("hw-010", "hw-018", "hw-020"):
        reply = make_patient(suite[case_id], seed=0).respond("Do you use any drugs, such as cannabis, cocaine or others?").text
        sentences = [s for s in reply.replace("!", ".").split(".") if s.strip()]
        assert sum(s.strip().lower().startswith("no") for s in sentences) == 1, (case_id, reply)
        assert "weed" in reply and "cocaine" in reply  # still named


def test_an_informant_says_a_clinicians_denial_in_lay_words():
    # hw-027's mother once said "He denies feeling low and denies thoughts of self-harm." (stop 27's reading)
    mother = Informant("mother", "Donna", "male")
    said = mother.say("He denies feeling low and denies thoughts of self-harm.")
    assert "denies" not in said
    assert said == "He says he doesn't feel low and he says he has no thoughts of self-harm."
    assert Informant("father", None, "female").say("She denies any suicidal thoughts.") == "She says she has no suicidal thoughts."


def test_one_no_a_reply_and_no_denial_said_twice():
    # dev-0024 (stop 27): "No, that's been fine. I've never had thoughts of ending my life. No, nothing like that.
    # I wouldn't want to end my life." - a second "No" stacked on the first, and the same denial twice
    from mentalhospital_env.cases import load_suite as load
    case = {c.case_id: c for c in load("dev").cases}["dev-0024"]
    reply = make_patient(case, "full", seed=0).respond("Any thoughts of ending your life?").text
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", reply) if s.strip()]
    assert sum(bool(re.match(r"(?:no|nope)\b", s, re.I)) for s in sentences) <= 1, reply
    assert sum("life" in s for s in sentences) == 1, reply


def test_a_mood_is_never_a_template_heading():
    # "Mood-wise, bored." and "As for my mood, worried all the time, I suppose." (stop 27's readers: a template)
    leads = lay_renderer().mood_lead
    assert not any("-wise" in lead for lead in leads["short"] + leads["long"])


def test_an_informant_gives_a_notes_verbless_count_or_school_year_a_subject():
    # stop 28's reading of the exam: hw-012's mother said "Two fixed-term exclusions this year, ..." and hw-035's
    # "Year 1 at a mainstream school." - a note's fragments, not a parent's sentences
    son = Informant("mother", "Kelly", "male")
    assert son.say("Two fixed-term exclusions this year (one day each) for throwing a chair.").startswith(
        "He's had two fixed-term exclusions this year")
    assert Informant("mother", "Sana", "female").say("Year 1 at a mainstream school.") == "She's in Year 1 at a mainstream school."
    # a count of time or of people is no such fragment
    assert son.say("Two years ago he moved school.") == "Two years ago he moved school."
    assert son.say("Two older brothers, both well.").startswith("Two older brothers")
    assert son.say("Three months of poor sleep.").startswith("Three months")


def test_a_parent_who_told_something_does_not_add_im_not_sure():
    # hw-023's mother once said "She needs to know the plan for the day. I'm not sure, to be honest." (stop 28's reading)
    suite = load_suite("handwritten")
    patient = make_patient(suite["hw-023"], seed=0)
    patient.respond("Isla, what do you like doing?")
    patient.respond("How do you find school?")  # she says what bothers her at school: the mother has no more of it
    reply = patient.respond("What happens when plans change at school?")
    assert reply.speaker == "informant"
    assert "plan" in reply.text and "I'm not sure" not in reply.text, reply.text


def test_a_parent_tells_the_childs_birth_and_milestones_from_the_medical_history():
    # stop 28's reading: "How was her early development?" got the mother's "I'm not sure" (hw-023) and a 9-year-old
    # asked "Did you start walking and talking at the usual age?" told his own birth (hw-012): the record writes
    # birth and milestones in the medical history, and only the parent knows them
    suite = load_suite("handwritten")
    reply = make_patient(suite["hw-023"], seed=0).respond("How was her early development?")
    assert reply.speaker == "informant" and "born at term" in reply.text and "I'm not sure" not in reply.text, reply.text
    reply = make_patient(suite["hw-012"], seed=0).respond("Did you start walking and talking at the usual age?")
    assert reply.speaker == "informant" and "38 weeks" in reply.text, reply.text


def test_a_parent_says_a_notes_well_and_no_previous_contact_as_sentences():
    # stop 28's reading of the scripted hw-012 and hw-017 encounters: "Mum, does she have any physical health
    # problems?" - "Well."; "has he had any help before?" - "No previous CAMHS contact."
    son = Informant("mother", "Kelly", "male")
    assert son.say("Well.") == "He's well."
    assert son.say("No previous CAMHS contact.") == "He's had no CAMHS contact before."
    assert son.say("Eating well.") == "Eating well."  # a sentence of its own, not the child's health
