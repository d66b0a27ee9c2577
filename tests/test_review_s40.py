"""Review 1 of stop 40's merged diff: each must-fix (and should-fix) sent through the public API, so that the
patterns added at stop 40 fire on what they were built for and not on ordinary sentences."""

from __future__ import annotations


import pytest

from scripted_encounters import ask as _ask
from scripted_encounters import start

_ED = "Emergency department. A 40-year-old woman is here to see you, alone."
_CLINIC = "Outpatient clinic. A 22-year-old man is here to see you, accompanied by his mother."
_TEEN = "Outpatient clinic. A 15-year-old girl is here to see you, accompanied by her mother."


def _doctor(text=_CLINIC, budget=40):
    return start(text, budget)


def _risk_line(doctor):
    return next(line for line in doctor._note().splitlines() if line.startswith("Risk assessment:"))


# M1: a method or preparations is a method or preparations, not suicidal thoughts alone nor an everyday sentence


def test_suicidal_thoughts_with_no_plan_are_no_method_and_no_admission():
    doctor = _doctor(_ED)
    _ask(doctor, "Patient: I've had thoughts of killing myself but I'd never do it, I've no plan.")
    assert "A method thought of" not in _risk_line(doctor)
    assert "suicidal ideation" in _risk_line(doctor).lower()  # still told as ideation
    assert "admission to the acute ward" not in doctor._plan(), doctor._plan()


@pytest.mark.parametrize("reply", [
    "Patient: I've had thoughts about ending it all, but no plan.",
    "Patient: I looked up train times to visit my sister.",
    "Patient: I'm thinking of jumping ship to another job.",
])
def test_everyday_or_plan_denying_sentences_tell_no_method(reply):
    doctor = _doctor(_ED)
    _ask(doctor, reply)
    assert "A method thought of" not in _risk_line(doctor)


@pytest.mark.parametrize("reply", [
    "Patient: The idea of hanging had been in the back of my head and I looked at the beam in the garage.",
    "Patient: I've been thinking about jumping off the bridge near work.",
    "Patient: I've been saving up my tablets in a drawer.",
])
def test_a_method_is_still_told(reply):
    doctor = _doctor(_ED)
    _ask(doctor, reply)
    assert "A method thought of" in _risk_line(doctor)
    assert doctor.risk_followed


# M2: daily or current use is current use, whatever else the sentence (or the next one) says


@pytest.mark.parametrize("reply, use", [
    ("I smoke skunk twice a day.", "cannabis_use"),
    ("I use cocaine a few times a week.", "stimulant_use"),
    ("I started smoking skunk every day a few months ago.", "cannabis_use"),
    ("I smoke weed every day, I can't cope any more without it.", "cannabis_use"),
    ("I've tried to stop the cannabis but I smoke every day.", "cannabis_use"),
    ("I take diazepam I buy online, it's not prescribed.", "sedative_use"),
    ("I smoke cannabis every night. My GP prescribed sertraline.", "cannabis_use"),
    ("I smoke cannabis every day since I lost my job. I stopped going out.", "cannabis_use"),
])
def test_current_drug_use_is_followed(reply, use):
    doctor = _doctor()
    _ask(doctor, "Patient: " + reply)
    assert use in doctor.current_uses, (reply, doctor.current_uses)
    assert doctor.last_concept == "follow:use_amount", doctor.last_concept


@pytest.mark.parametrize("reply", [
    "I had occasional cannabis in my twenties, none since.",
    "I tried cocaine once during freshers' week.",
    "I use cocaine a few times at stag dos. None this year.",
    "I smoked cannabis every day in my teens.",
    "I take my prescribed diazepam twice a day.",
    "I take over-the-counter sleeping tablets most nights.",
])
def test_past_tried_or_prescribed_use_is_not_followed(reply):
    doctor = _doctor()
    _ask(doctor, "Patient: " + reply)
    assert not doctor.current_uses, (reply, doctor.current_uses)
    assert not doctor.last_concept.startswith("follow:use"), doctor.last_concept


# M3: the persecutory cue read under any question names a device as the means or an impossible watcher


@pytest.mark.parametrize("reply", [
    "The smoke alarm went off while I was watching telly.",
    "I set up the speakers for them at the party.",
    "My coach watches me from the sidelines.",
    "My parents are tracking me on the app.",
    "My parents are tracking me via the app.",
    "The girls at school talk about me behind my back.",
    "My brother keeps bugging me.",
])
def test_ordinary_watchers_and_devices_are_no_persecutory_cue(reply):
    doctor = _doctor(_TEEN)
    _ask(doctor, "Patient: " + reply)
    assert "persecutory_delusions" not in doctor.findings.inferred, reply


@pytest.mark.parametrize("reply", [
    "The smoke alarm went off while I was watching telly.",
    "I set up the speakers for them at the party.",
    "My parents are tracking me on the app.",
])
def test_ordinary_sentences_set_off_no_belief_questions(reply):
    doctor = _doctor(_TEEN)
    _ask(doctor, "Patient: " + reply)
    assert doctor.last_concept != "follow:belief", reply


@pytest.mark.parametrize("reply", [
    "I think they have eyes on me through the smoke alarm in my room.",
    "They're watching me through my laptop camera.",
    "I know they're recording me from the light fitting.",
])
def test_a_device_as_the_means_is_still_a_persecutory_cue(reply):
    doctor = _doctor(_TEEN)
    _ask(doctor, "Patient: " + reply)
    assert "persecutory_delusions" in doctor.findings.inferred, reply
    assert doctor.last_concept == "follow:belief"


# M4: a symptom or a habit that "picked up again" came back; "it's settled into a pattern" goes on


@pytest.mark.parametrize("checkpoint, output", [
    ("Hears voices.", "The voices picked up again last week."),
    ("Drinks heavily most nights.", "The drinking picked up again after Christmas, most nights now."),
    ("Feels anxious most days.", "I feel anxious most days, it's settled into a pattern."),
])
def test_a_return_or_a_settled_pattern_is_not_read_as_ended(checkpoint, output):
    from mentalhospital_env.rewards.adjudication import statement_conflict

    assert "ended" not in (statement_conflict(checkpoint, output) or ""), statement_conflict(checkpoint, output)
    from mentalhospital_env.rewards.matching import Matcher

    assert Matcher().entails(checkpoint, output)


def test_a_mood_that_recovered_is_still_read_as_ended():
    from mentalhospital_env.rewards.adjudication import statement_conflict

    assert "ended" in (statement_conflict("Has been low most days since March.",
                                          "I was low in March for a bit but I picked myself up again.") or "")


# S2: ECT stays only for its indications (NICE NG222): not slowed movements nor skipped meals alone

_LOW = [
    "Patient: I've felt low and empty every day for two months.",
    "Patient: I've lost interest in everything and I've no energy at all.",
    "Patient: I feel worthless and guilty, I can't concentrate.",
]
_ECT = "ECT if life-threatening or unresponsive"


@pytest.mark.parametrize("extra, unwarranted", [
    (["Patient: Everything is slowed down, I move slowly.", "Patient: I skip meals most days."], True),
    (["Patient: I've been refusing food and drink for days."], False),
    (["Patient: I've stopped eating and drinking."], False),
    (["Patient: I'm convinced my insides are rotting."], False),
    (["Patient: I'm not refusing food or drink, I eat a bit."], True),
])
def test_ect_is_kept_only_for_its_indications(extra, unwarranted):
    doctor = _doctor("Outpatient clinic. A 45-year-old woman is here to see you, alone.")
    for reply in _LOW + extra:
        _ask(doctor, reply)
    assert doctor._ect_unwarranted(_ECT) is unwarranted


# S4: a psychosis promoted over a psychotic depression heard on few groups is never a schizoaffective disorder,
# which needs the very mood episode that was not heard


def test_a_psychosis_without_a_mood_episode_is_not_made_schizoaffective():
    doctor = _doctor("Outpatient clinic. A 58-year-old woman is here to see you, alone.")
    for reply in ["Patient: I feel low and empty all day, every day.",
                  "Patient: I wake at four every morning.",
                  "Patient: I hear a voice telling me I'm wicked and deserve to be punished."]:
        _ask(doctor, reply)
    assert doctor._mood_groups_heard("F32") < 4
    lead = doctor._leading()
    assert not lead[0][0].code.startswith("F25"), [(h.code, s) for h, s in lead]


# S3: DBT-A for an adolescent who self-harms is no personality-disorder therapy misplaced (NICE NG225)


def test_dbt_for_an_adolescent_who_self_harms_is_not_misplaced():
    from mentalhospital_env.knowledge.critical import Profile, load_critical_actions

    ca = load_critical_actions()
    plan = "Refer for CBT; if self-harm continues, consider DBT-A skills (adolescent self-harm)."
    signs = ca.signs(["She self-harms most weeks, cutting her arms since September."])
    assert "self_harm" in signs
    misplaced = {m.action for m in ca.check(Profile(codes=("F32.1",), age=15, signs=signs), plan).misplaced}
    assert "personality_disorder_therapy" not in misplaced
    # with no self-harm in the record, DBT for a depression is still misplaced
    assert not ca.signs(["No history of self-harm."]) & {"self_harm"}
    misplaced = {m.action for m in ca.check(Profile(codes=("F32.1",), age=15), plan).misplaced}
    assert "personality_disorder_therapy" in misplaced


# S5: the patient's own job title is no other person; someone else's manager still is


def test_the_patients_own_job_title_is_not_another_subject():
    from mentalhospital_env.rewards.adjudication import statement_conflict
    from mentalhospital_env.rewards.matching import Matcher

    checkpoint, output = "Has trouble sleeping.", "As a supervisor on nights I have trouble sleeping."
    assert statement_conflict(checkpoint, output) is None
    assert Matcher().entails(checkpoint, output)
    for other in ["My boss has had migraines for a year.", "The manager has had migraines for a year."]:
        assert "subject" in (statement_conflict("Has had migraines for a year.", other) or ""), other
