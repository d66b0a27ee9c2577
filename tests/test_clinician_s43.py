"""Stop 43 (issue 15): the scripted clinician asks the question that tells a premenstrual disorder and reads the
cycle told in other words; asks about painkillers not prescribed beside pain or drug use; weighs no admission the
setting has decided; reviews a first-line drug the patient already takes before adding another; keeps an item that
treats another disorder only beside that disorder; reads "No." before a reason as a denial of suicidal thoughts; and
words the dependants by who they are with their negation read ("No children").

The doctor is driven through ``act`` from findings set as an interview would have left them (tests/scripted_encounters.py)."""

from __future__ import annotations

import pytest
from scripted_encounters import ask as _ask
from scripted_encounters import codes as _codes
from scripted_encounters import start as _start
from scripted_encounters import with_findings as _doctor
from scripted_encounters import write as _write

from mentalhospital_env.knowledge.lexicon import load_lexicon


def _concepts(text: str) -> dict[str, bool]:
    return {m.concept_id: m.negated for m in load_lexicon().find(text)}


@pytest.mark.parametrize("walk_in, asked", [
    ("Outpatient clinic. A 34-year-old woman is here to see you, alone.", True),
    ("Outpatient clinic. A 34-year-old man is here to see you, alone.", False),
    ("Outpatient clinic. A 71-year-old woman is here to see you, alone.", False),
])
def test_irritability_in_a_woman_of_menstruating_age_calls_for_the_cycle_question(walk_in, asked):
    """test-v2-0250 (stop 42): a premenstrual dysphoric disorder was never asked about the cycle, so it could not stand
    on the differential (it needs the premenstrual change heard) and was treated as an adjustment disorder."""
    doctor = _doctor(walk_in, present={"irritability": "I snap over the smallest thing."})
    assert ("premenstrual_mood_change" in doctor._picture_concepts()) is asked


@pytest.mark.parametrize("text", [
    "My partner says I've taken sick days in the week before each period.",
    "It is always worse before every period.",
])
def test_the_cycle_told_in_other_words_is_read(text):
    assert _concepts(text).get("premenstrual_mood_change") is False


def test_a_premenstrual_change_heard_leads_as_a_premenstrual_disorder_with_its_own_plan():
    woman = "Outpatient clinic. A 40-year-old woman is here to see you, alone."
    doctor = _doctor(woman, present={
        "irritability": "I snap over the smallest thing.", "low_mood": "I'm feeling down for no reason.",
        "premenstrual_mood_change": "The week before my period I feel like the world's ending, then it clears when it comes."})
    assert _codes(_write(doctor, "diagnose"))[0] == "F32.81"
    plan = _write(doctor, "treat").lower()
    assert "cycles" in plan and ("ssri" in plan or "fluoxetine" in plan or "sertraline" in plan)


@pytest.mark.parametrize("text, opioid", [
    ("I take codeine from the chemist most days.", True),
    ("Two of my wife's co-codamol most nights.", True),
    ("I take tramadol that wasn't prescribed for me.", True),
    ("Daily codeine use for over a year.", True),
    ("Paracetamol when I have a headache.", False),
    ("Allergic to codeine (vomiting).", False),
    ("Codeine intolerance (vomiting); no true drug allergy known.", False),
    ("Codeine makes me sick.", False),
    ("Tramadol for my back, as prescribed.", False),
])
def test_painkillers_not_prescribed_are_read_as_opioid_use(text, opioid):
    """An allergy, intolerance or side effect of a drug, or a drug taken as prescribed, is no use of it (review of the
    s43 merge, M1: 169 codeine-allergy facts had become opioid use)."""
    assert ("opioid_use" in _concepts(text)) is opioid


def test_a_codeine_intolerance_brings_no_opioid_safety_steps():
    """dev-0040 (review of the s43 merge, M1): a depressed woman whose only opioid line is "Codeine makes me sick."
    was offered take-home naloxone and methadone or buprenorphine."""
    woman = "Outpatient clinic. A 40-year-old woman is here to see you, alone."
    doctor = _start(woman)
    for reply in ["I've felt terrible for months, nothing interests me.", "Codeine makes me sick.",
                  "I wake at 3 every night.", "I've no energy and it's all my fault."]:
        _ask(doctor, reply)
    plan = _write(doctor, "treat").lower()
    assert "naloxone" not in plan and "opioid agonist" not in plan


@pytest.mark.parametrize("finding, said, asked", [
    ("chronic_pain", "I've had back pain for years.", True),
    ("cannabis_use", "I smoke weed every night.", False),  # cannabis alone: its own questions, not the opioid one
    ("drug_use", "I take whatever's going at parties.", True),
    ("low_mood", "I feel low.", False),
])
def test_pain_or_drug_use_calls_for_the_painkiller_question(finding, said, asked):
    """uw-014 (stop 42): a man with a bad back taking codeine from the chemist and his wife's co-codamol beside his
    drinking was asked only about cannabis and cocaine."""
    doctor = _doctor("Outpatient clinic. A 44-year-old man is here to see you, alone.", present={finding: said})
    assert ("opioid_use" in doctor._picture_concepts()) is asked


SEVERE = {"low_mood": "I feel terrible all the time.", "anhedonia": "Nothing interests me at all.",
          "insomnia": "I wake at 3 every night.", "fatigue": "I've no energy.", "decreased_appetite": "I've stopped eating.",
          "hopelessness": "There's no point.", "guilt": "It's all my fault.", "psychomotor_retardation": "Everything is slow."}


@pytest.mark.parametrize("setting, weighed", [("Inpatient ward", False), ("Emergency department", False), ("Outpatient clinic", True)])
def test_an_admission_the_setting_has_decided_is_not_weighed_again(setting, weighed):
    """test-v2-0300 (stop 42): 'consider admission if risk is high' for a woman already on the ward."""
    doctor = _doctor(f"{setting}. A 57-year-old woman is here to see you, alone.", present=dict(SEVERE))
    assert _codes(_write(doctor, "diagnose"))[0].startswith("F32")  # the premise: a depression leads
    plan = _write(doctor, "treat").lower()
    assert ("consider admission" in plan) is weighed


def test_a_first_line_drug_already_taken_is_reviewed_before_another_is_added():
    """test-v2-0307 and 0023 (stop 42): a bipolar depression on lithium had quetiapine started beside it."""
    man = "Outpatient clinic. A 45-year-old man is here to see you, alone."
    bipolar = {"low_mood": "I've been really low for weeks.", "anhedonia": "Nothing interests me.",
               "hypomanic_episodes": "Two years ago I was up for a week, spending and not sleeping.",
               "fatigue": "I'm exhausted.", "hopelessness": "What's the point."}
    taking = _doctor(man, present=dict(bipolar) | {"medications_current": "I take lithium 800 mg at night."},
                     answers={"medications_current": "I take lithium 800 mg at night."})
    assert _codes(_write(taking, "diagnose"))[0].startswith("F31")  # the premise: a bipolar depression leads
    plan = _write(taking, "treat")
    assert "already takes lithium" in plan
    assert "start quetiapine" not in plan.lower()
    naive = _doctor(man, present=dict(bipolar))
    assert "Medication: start" in _write(naive, "treat")  # without a drug on file, one is started


@pytest.mark.parametrize("adhd, kept", [(False, False), (True, True)])
def test_an_item_treating_another_disorder_stands_only_beside_it(adhd, kept):
    """test-v2-0334 (stop 42): 'treat co-occurring ADHD' in an oppositional boy in whom no ADHD was found."""
    boy = "Outpatient clinic. A 10-year-old boy is here to see you, accompanied by his mother."
    odd = {"defiance": "He won't do anything I ask.", "temper_tantrums": "He has tantrums every day.",
           "irritability": "He's touchy and easily annoyed.", "argumentative": "He argues with everything."}
    if adhd:
        odd |= {"inattention": "He can't focus on anything.", "hyperactivity": "He never sits still."}
    doctor = _doctor(boy, present=odd)
    diagnosis = _codes(_write(doctor, "diagnose"))
    assert any(c.startswith("F91") for c in diagnosis)  # the premise
    assert ("co-occurring ADHD" in _write(doctor, "treat")) is kept


@pytest.mark.parametrize("reply, planned", [
    ("No. I've got things I want to do.", False),
    ("I suppose no. I've got things I want to do.", False),
    ("Like I mentioned, no. I've got things I want to do.", False),
    ("Sometimes. I don't know.", True),
    ("Do I have to answer that?", True),
])
def test_a_plain_no_before_a_reason_denies_suicidal_thoughts(reply, planned):
    """test-v2-0250 (stop 42): 'No. I've got things I want to do.' was read as no answer, and the plan carried the
    suicide safety plan and means restriction for a woman who had denied the thoughts."""
    woman = "Outpatient clinic. A 40-year-old woman is here to see you, alone."
    doctor = _doctor(woman, present={"excessive_worry": "I worry about everything.", "restlessness": "I can't settle.",
                                     "muscle_tension": "My shoulders are tight.", "insomnia": "I can't sleep."},
                     answers={"suicidal_ideation": reply})
    plan = _write(doctor, "treat")
    assert ("safety plan" in plan.lower()) is planned


@pytest.mark.parametrize("home, says, never", [
    ("No children. I look after my mum since her stroke.", "adult social care", "children's social care"),
    ("Not really, I live with my husband and our two kids.", "children's social care", "adult social care"),
])
def test_the_dependants_are_worded_with_their_negation_read(home, says, never):
    """Stop 42's left-over: dependants_by_kind searched the words whole, so 'No children' named children."""
    woman = "Emergency department. A 38-year-old woman is here to see you, alone."
    drink = {"alcohol_use": "A bottle of wine a night, more at weekends.", "withdrawal_tremor": "I shake in the mornings.",
             "relief_drinking": "I need a drink first thing.", "violence_history": "I hit my partner last month.",
             "dependants": home}
    doctor = _doctor(woman, present=dict(drink), answers={"dependants": home, "alcohol_use": drink["alcohol_use"]})
    plan = _write(doctor, "treat")
    assert says in plan and never not in plan


@pytest.mark.parametrize("text, concept", [
    ("He was on the go from the minute he could walk.", "hyperactivity"),
    ("He couldn't sit for the story at nursery.", "hyperactivity"),
    ("He gets up and wanders, fiddles with anything on the desk.", "hyperactivity"),
    ("She is never still, even at meals.", "hyperactivity"),
    ("The teacher says he is away with the fairies.", "inattention"),
    ("He loses his reading book every week.", "disorganisation"),
])
def test_a_parents_words_for_hyperactivity_and_inattention_are_read(text, concept):
    """hw-012 (stop 43's draw): a mother's account of ADHD ('on the go from the minute he could walk', 'away with the
    fairies', 'he fiddles with anything on the desk') was read as nothing, and the boy was called conduct-disordered."""
    assert _concepts(text).get(concept) is False


@pytest.mark.parametrize("text", [
    "Drinks about 4 units most nights to switch off.",
    "She says a drink is the only thing that lets her switch off.",
    "He can stay angry about being told to switch off the Xbox.",
])
def test_drinking_to_switch_off_is_no_inattention(text):
    """test-v2-0480, test-v2-0130 (review of the s43 merge, M4): drinking 'to switch off' was read as inattention, and
    the alcohol answer left the note's substance section to be filed as 'describes inattentiveness'."""
    assert "inattention" not in _concepts(text)


@pytest.mark.parametrize("text", [
    "Tense, hands never still, engages readily.",
    "Dressed appropriately, fiddles with his cuffs; arrived on time.",
    "Looks around the room, fiddles with her bag.",
])
def test_an_anxious_adults_fidgeting_in_the_mental_state_is_no_hyperactivity(text):
    """dev-v2-0008, test-v2-0084 (review of the s43 merge, SHOULD-FIX): an anxious adult's mental state ('hands never
    still', 'fiddles with his cuffs') was read as an ADHD sign; a child who 'fiddles with anything on the desk' still is."""
    assert "hyperactivity" not in _concepts(text)


def test_being_busy_is_no_hyperactivity():
    assert "hyperactivity" not in _concepts("I was on the go all day at work.")


@pytest.mark.parametrize("walk_in, finding, said, asked", [
    ("Outpatient clinic. A 26-year-old woman is here to see you, alone.", "temper_tantrums", "I have meltdowns when plans change.", True),
    ("Outpatient clinic. A 26-year-old woman is here to see you, alone.", "selective_eating", "I live on the same three foods.", True),
    ("Outpatient clinic. A 26-year-old woman is here to see you, alone.", "low_mood", "I feel flat.", False),
])
def test_an_adults_meltdowns_or_narrow_eating_call_for_the_autistic_picture(walk_in, finding, said, asked):
    """uw-007 (stop 42): a woman of 26 banging her head when upset and living on three foods was never asked about
    friendships, routines or senses, and autism never stood on the list."""
    doctor = _doctor(walk_in, present={finding: said})
    assert ("social_communication_difficulty" in doctor._picture_concepts()) is asked


def test_a_relapse_prevention_step_names_no_antidepressant_the_plan_does_not_start():
    """uw-008 (stop 42): 'continue the antidepressant for at least two years' beside a recurrent depression on the list
    of a boy whose plan started none; the sentence read as an antidepressant proposed."""
    from mentalhospital_env.agents.scripted import ScriptedClinician
    from mentalhospital_env.knowledge.critical import load_critical_actions
    actions = load_critical_actions()
    said = ScriptedClinician().script["plan"]["step_sentences_without_drug"]["depression_relapse_prevention"]
    assert actions.proposed(said) == {"depression_relapse_prevention"}
    assert "antidepressant" in actions.proposed(actions.sentences(["depression_relapse_prevention"])[0])  # the premise


def test_a_buzzing_light_is_no_elation():
    """uw-007 (stop 43's draw): 'the strip light was buzzing', said of her moods, was read as elevated mood and the
    autistic woman was planned lithium for a mania."""
    from scripted_encounters import ask, start
    doctor = start("Outpatient clinic. A 26-year-old woman is here to see you, alone.")
    ask(doctor, "I asked to sit by the window with the blind down because the strip light was buzzing.")
    assert "elevated_mood" not in doctor.findings.present
    ask(doctor, "I've been buzzing, on top of the world, hardly sleeping.")
    assert "elevated_mood" in doctor.findings.present


@pytest.mark.parametrize("text, concept", [
    ("I can't stand labels in clothes and wear foam earplugs most of the day.", "sensory_sensitivity"),
    ("I'm exhausted after social events.", "social_communication_difficulty"),
])
def test_an_adults_words_for_the_autistic_picture_are_read_as_told(text, concept):
    """uw-007 (stop 43's draw): asked the autism screen, 'I can't stand labels in clothes ... wear foam earplugs' was read
    as a denial of sensory sensitivity (the "can't" before the lexicon's 'labels in clothes')."""
    assert _concepts(text).get(concept) is False
