"""The scripted clinician's question routes, diagnosis and plan driven through its public API (reset, act) by a
scripted patient: the route follows what the patient described (no trauma questions without a traumatic event;
rituals asked after unwanted thoughts), a child is asked only a child's questions, the diagnosis follows what the
interview found, and the plan never starts a drug the patient already takes (issue 15, stop 39)."""

from __future__ import annotations

import re

from mentalhospital_env.agents.scripted import ScriptedClinician

ALL = ["ask", "order_exams", "write_note", "diagnose", "treat"]


def encounter(walk_in: str, answer, budget: int = 40, results: str = "") -> dict:
    """One encounter: ``answer(question)`` gives each reply; returns the questions, note, diagnosis and plan."""
    doctor = ScriptedClinician()
    doctor.reset({"text": walk_in}, {"turn_budget": budget})
    questions: list[str] = []
    out: dict = {"questions": questions}
    text = ""
    allowed = list(ALL)
    for _ in range(budget + 5):
        action = doctor.act({"text": text}, {"allowed_actions": allowed})
        kind, body = re.match(r"<(\w+)>(.*)</\1>", action, re.S).groups()
        if kind == "ask":
            questions.append(body)
            text = answer(body)
            continue
        out[kind] = body
        allowed = allowed[allowed.index(kind) + 1 :]  # the stages go one way
        if kind == "order_exams":
            text = results
        elif kind == "treat":
            return out
        else:
            text = ""
    raise AssertionError("no plan")


def replies(table: list[tuple[str, str]], default: str = "No, not really."):
    """Reply with the first entry whose pattern the question matches (case-insensitive), else ``default``."""

    def answer(question: str) -> str:
        return next((reply for pattern, reply in table if re.search(pattern, question, re.I)), default)

    return answer


TRAUMA_QUESTIONS = r"when it happened|since it happened|bring it back|jumpy"


def test_intrusive_images_with_no_event_told_open_no_trauma_route():
    """uw-012: 'pictures in my head of making Isla ill' (an obsession's image) was asked 'Were you hurt ... when it
    happened?', the first hours and days, what brings it back and whether she is jumpy."""
    answer = replies(
        [
            (r"brought you here", "I can't switch my head off. I get pictures in my head of making my nephew ill."),
            (r"concentration", "I concentrate poorly, I keep replaying everything I touched."),
        ]
    )
    out = encounter("Outpatient clinic. A 31-year-old woman is here to see you, alone.", answer)
    asked = [q for q in out["questions"] if re.search(TRAUMA_QUESTIONS, q, re.I)]
    assert not asked, asked
    assert "intrusive memories" not in out["write_note"]


def test_a_traumatic_event_told_opens_the_trauma_route():
    answer = replies(
        [
            (r"brought you here", "I was assaulted walking home in March. I keep getting pictures in my head of it."),
        ]
    )
    out = encounter("Outpatient clinic. A 31-year-old woman is here to see you, alone.", answer)
    assert any(re.search(TRAUMA_QUESTIONS, q, re.I) for q in out["questions"]), out["questions"]


OCD_REPLIES = [
    (r"brought you here", "I get horrible thoughts I can't get rid of, that I'll catch something and pass it on."),
    (r"put them right|again and again|over and over", "I wash my hands until they bleed and I check my hands for cuts every night."),
    (r"how much of your day", "The washing and the checking take three or four hours a day."),
    (r"mood", "My mood is low, I feel down most days."),
    (r"medicines do you take", "I take sertraline 50 mg every morning."),
    (r"sleep", "I sleep badly."),
]


def test_unwanted_thoughts_are_followed_by_rituals_and_the_diagnosis_follows_them():
    """uw-012: obsessions and contamination fears in her own note, never asked about rituals, diagnosed a recurrent
    depression with hypochondriasis."""
    out = encounter("Outpatient clinic. A 27-year-old woman is here to see you, alone.", replies(OCD_REPLIES))
    assert any(re.search(r"what do you feel you have to do", q, re.I) for q in out["questions"]), out["questions"]
    assert re.search(r"disorders: 1\. F42", out["diagnose"]), out["diagnose"]


def test_a_drug_the_patient_takes_is_reviewed_not_started():
    """uw-012 took sertraline 50 mg and was planned 'start sertraline 50 mg once daily'."""
    out = encounter("Outpatient clinic. A 27-year-old woman is here to see you, alone.", replies(OCD_REPLIES))
    plan = out["treat"]
    assert not re.search(r"\bstart sertraline\b", plan, re.I), plan
    assert "already takes sertraline" in plan and "raise the dose" in plan


def test_a_drug_that_helped_before_is_restarted_and_no_level_of_a_drug_never_taken_is_ordered():
    """test-v2-0456: 'Olanzapine helped. I stopped it several months ago' -> paliperidone and a lithium level."""
    answer = replies(
        [
            (r"brought you here", "I've been feeling on top of the world, I don't need sleep, I have special powers and God speaks to me."),
            (r"help for your mental health before", "I've been under the mental health team for years. Olanzapine helped. I stopped it a few months ago."),
            (r"medicines do you take", "Just an inhaler."),
        ]
    )
    out = encounter("Outpatient clinic. A 35-year-old man is here to see you, alone.", answer)
    assert "restart olanzapine" in out["treat"], out["treat"]
    assert "lithium level" not in out["order_exams"].lower()


def test_a_child_is_asked_only_a_childs_questions():
    """uw-011: a boy of 9 was asked himself what happens to his muscles when he laughs, how his energy is and
    whether he could be ill."""
    answer = replies(
        [
            (r"brought you here", "He falls asleep all the time at school and he's so tired."),
            (r"sleepy|doze", "He dozes off in class every day."),
        ],
        default="No, not that I've noticed.",
    )
    out = encounter("Outpatient clinic. A 9-year-old boy is here to see you, accompanied by his mother.", answer)
    for q in out["questions"]:
        assert not re.search(r"\byour (?:muscles|energy|concentration)\b|could be an illness", q, re.I), q


def test_no_physical_family_history_is_asked_of_a_patient_who_does_not_know_the_family():
    """test-v2-0095: 'I don't know. I'm not sure, I'd have to ask my family', then asked about physical illnesses."""
    walk_in = "Outpatient clinic. A 40-year-old woman is here to see you, alone."
    known = encounter(walk_in, replies([(r"family had problems", "No, nobody.")]), budget=70)
    assert any(re.search(r"illnesses that run in your family", q) for q in known["questions"])
    answer = replies([(r"family had problems", "I don't know. I'm not sure, I'd have to ask my family.")])
    out = encounter(walk_in, answer, budget=70)
    assert any(re.search(r"family had problems", q) for q in out["questions"])
    assert not any(re.search(r"illnesses that run in your family", q) for q in out["questions"])


def test_a_drug_binge_is_no_eating_binge():
    """test-v2-0085: 'I go on binges for a couple of days at a time' of crack was diagnosed binge eating disorder and
    started on lisdexamfetamine."""
    answer = replies(
        [
            (r"brought you here", "My drinking and the crack have got out of hand."),
            (r"alcohol", "I have a drink first thing now, just to get going. Most days it's a bottle of vodka."),
            (r"drugs", "I go on binges for a couple of days at a time. I smoke crack when I can get money together."),
        ]
    )
    out = encounter("Outpatient clinic. A 32-year-old woman is here to see you, alone.", answer)
    assert "F50" not in out["diagnose"], out["diagnose"]
    assert "lisdexamfetamine" not in out["treat"]


import pytest  # noqa: E402


@pytest.mark.parametrize(
    "said",
    [
        "I was on sertraline, but I stopped it in March.",
        "I'm not on sertraline any more.",
        "Sertraline, though I haven't taken it since Christmas.",
        "The GP gave me sertraline but I never took it.",
    ],
)
def test_a_drug_stopped_or_never_taken_is_not_reviewed_as_taken(said):
    """Stop 39 review: a sertraline stopped or never taken was planned 'already takes sertraline ... Not started
    again' (the ', but' split read 'I was on sertraline' alone)."""
    table = [(r"medicines do you take|taking any tablets", said), *OCD_REPLIES]
    out = encounter("Outpatient clinic. A 27-year-old woman is here to see you, alone.", replies(table))
    assert "already takes sertraline" not in out["treat"], out["treat"]


@pytest.mark.parametrize(
    "said",
    [
        "I've been under the mental health team for years. Olanzapine never really helped.",
        "I've been under the mental health team for years. I tried olanzapine. Nothing has helped.",
        "I've been under the mental health team for years, on olanzapine; it hasn't helped.",
    ],
)
def test_a_drug_said_not_to_have_helped_is_not_restarted_as_one_that_helped(said):
    """Stop 39 review: 'Olanzapine never really helped' was planned 'restart olanzapine, which he says helped before'."""
    answer = replies(
        [
            (r"brought you here", "I've been feeling on top of the world, I don't need sleep, I have special powers and God speaks to me."),
            (r"help for your mental health before", said),
            (r"medicines do you take|taking any tablets", "Just an inhaler."),
        ]
    )
    out = encounter("Outpatient clinic. A 35-year-old man is here to see you, alone.", answer)
    assert "restart olanzapine" not in out["treat"], out["treat"]


@pytest.mark.parametrize(
    "said",
    [
        "No, nothing like that. I clean the house on Saturdays like anyone.",
        "Not really, I just do the washing once a week.",
        "No, I check my phone a lot but that's it.",
    ],
)
def test_rituals_denied_earn_no_compulsions(said):
    """Stop 39 review: a denial naming a chore ('No, nothing like that. I clean the house on Saturdays') was read as
    compulsions, whose defining bonus then left OCD alone on the list (no depressive differential beside low mood
    most days); with rituals told ('I wash my hands until they bleed', uw-012) OCD still leads (test above)."""
    table = [
        (r"brought you here", OCD_REPLIES[0][1]),
        (r"put them right|again and again|over and over", said),
        (r"how much of your day", "Not long, a few minutes."),
        *OCD_REPLIES[2:],
    ]
    out = encounter("Outpatient clinic. A 27-year-old woman is here to see you, alone.", replies(table))
    categories = re.search(r"categories: ([^|]*)", out["diagnose"]).group(1)
    assert "depressive" in categories, out["diagnose"]


FAMILY_PHYSICAL = r"physical illnesses that run in your family"


@pytest.mark.parametrize(
    "said, asked",
    [
        ("I don't know if it counts, but my dad was treated for depression.", True),
        ("Not sure about depression, but my mum has bipolar.", True),
        ("I don't know. I'm not sure, I'd have to ask my family.", False),  # test-v2-0095: unknown, not asked
        ("I don't know. We don't talk about that sort of thing in my family.", False),  # dev-v2-0077
    ],
)
def test_the_family_physical_history_is_skipped_only_when_no_relatives_illness_is_told(said, asked):
    """Stop 39 review: 'I don't know if it counts, but my dad was treated for depression' was taken for a family
    history the patient does not know, and the physical illnesses in the family were never asked."""
    out = encounter("Outpatient clinic. A 27-year-old woman is here to see you, alone.", replies([(r"family", said), *OCD_REPLIES]))
    assert any(re.search(FAMILY_PHYSICAL, q, re.I) for q in out["questions"]) == asked, out["questions"]


@pytest.mark.parametrize(
    "said",
    [
        "I keep going back to check the fire is off, and the taps.",  # an OCD patient's checking
        "I check the fire and the door again and again before bed.",
    ],
)
def test_a_checked_fire_is_no_traumatic_event(said):
    """Stop 39 review: 'the fire' of an OCD patient's checking opened the trauma questions beside intrusive images.
    (A panic attack's 'the attack' still does: the shared lexicon reads 'the attack' as a trauma history.)"""
    answer = replies(
        [
            (r"brought you here", "I can't switch my head off. I get pictures in my head of making my nephew ill. " + said),
            (r"concentration", "I concentrate poorly, I keep replaying everything I touched."),
        ]
    )
    out = encounter("Outpatient clinic. A 31-year-old woman is here to see you, alone.", answer)
    asked = [q for q in out["questions"] if re.search(TRAUMA_QUESTIONS, q, re.I)]
    assert not asked, asked


def test_a_sexual_assault_told_still_opens_the_trauma_route():
    """test-v2-0349 (PTSD): 'soon after a sexual assault', which the lexicon reads as no trauma history."""
    answer = replies(
        [
            (r"brought you here", "It all started soon after a sexual assault. I keep getting pictures in my head of it."),
        ]
    )
    out = encounter("Outpatient clinic. A 31-year-old woman is here to see you, alone.", answer)
    assert any(re.search(TRAUMA_QUESTIONS, q, re.I) for q in out["questions"]), out["questions"]
