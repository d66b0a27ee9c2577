"""Stop 62 (uw-035, a Swedish BUP chart: Oscar, 15, with his mother Sara throughout): the doctor never asked her to
step out, and his cutting and his count of her zopiklon are told only when he is seen alone. A young person (12-17),
and an adult whose companion is in the room throughout, is now seen alone for the risk questions: the companion is
asked out before the first of them (``seen_alone.step_out``), every private question is asked then, and they are
asked back in (``seen_alone.come_back``) before the rest. Not where the companion gives the history the patient
cannot (uw-030's key worker) or joins only for the later part. The patient does not yet understand the request on
this branch: the canned replies here ignore it, and the interview must go on as before."""

from __future__ import annotations

import re

from mentalhospital_env.agents.scripted import ScriptedClinician
from tests.scripted_encounters import questions

TEEN = "Outpatient clinic. A 15-year-old boy is here to see you, accompanied by his mother."
WIFE = ("Outpatient clinic. A 44-year-old man is here to see you, accompanied by his wife. His wife can give an account "
        "of what has been happening.")
WIFE_LATER = ("Outpatient clinic. A 41-year-old man is here to see you, accompanied by his wife. His wife will join for "
              "the later part of the interview and can give an account of what has been happening.")
KEY_WORKER = ("Outpatient clinic. A 34-year-old man is here to see you, accompanied by a key worker. "
              "The key worker can give the history.")
ALONE = "Outpatient clinic. A 15-year-old boy is here to see you, alone."
RISK = re.compile(r"end your life|life is not worth living|hurt yourself|harm yourself|alcohol|drugs|safe at home")
OUT = re.compile(r"[Ww]ould you mind waiting outside for a few minutes\? I'd like to talk with (him|her|them) on (his|her|their) own\.$")
BACK = re.compile(r"^Thank you for waiting, (?:[A-Z][a-z]+, )?please come back in\.$")


def _low(question: str) -> str:
    return "I'd rather be dead." if "sleep" in question.lower() else "Not sure."


def test_a_young_person_is_seen_alone_for_every_risk_question():
    asked = questions(TEEN, _low, companion="Mother (Sara)")
    out = next(i for i, q in enumerate(asked) if OUT.search(q))
    back = next(i for i, q in enumerate(asked) if BACK.match(q))
    assert asked[out] == "Mum, would you mind waiting outside for a few minutes? I'd like to talk with him on his own."
    assert asked[back] == "Thank you for waiting, Mum, please come back in."
    risk = [i for i, q in enumerate(asked) if RISK.search(q)]
    assert risk and all(out < i < back for i in risk), asked
    assert not any(q.startswith("Mum,") for q in asked[out + 1:back]), asked[out:back]
    assert len(asked) >= 30  # the interview goes on when the companion stays


def test_the_companion_is_asked_out_by_the_first_name_her_reply_gave():
    # the environment labels a parent's reply by relation and name ("Mother (Sara)"): fed so
    doctor = ScriptedClinician()
    doctor.reset({"text": TEEN}, {"turn_budget": 40})
    asked, text = [], TEEN
    for _ in range(40):
        m = re.fullmatch(r"<ask>(.*)</ask>", doctor.act({"text": text}, {"allowed_actions": ["ask"]}), re.DOTALL)
        if not m:
            break
        asked.append(m.group(1))
        text = "Mother (Sara): Since the autumn." if m.group(1).startswith("Mum,") else f"Patient: {_low(m.group(1))}"
    assert [q for q in asked if OUT.search(q)] == [
        "Sara, would you mind waiting outside for a few minutes? I'd like to talk with him on his own."], asked
    assert "Thank you for waiting, Sara, please come back in." in asked


def test_an_adults_wife_present_throughout_is_asked_out_for_the_risk_part():
    asked = questions(WIFE, _low)
    out = [i for i, q in enumerate(asked) if OUT.search(q)]
    assert [asked[i] for i in out] == [
        "Would you mind waiting outside for a few minutes? I'd like to talk with him on his own."], asked
    back = next(i for i, q in enumerate(asked) if BACK.match(q))
    assert asked[back] == "Thank you for waiting, please come back in."
    assert all(out[0] < i < back for i, q in enumerate(asked) if re.search(r"end your life|harm yourself", q)), asked


def test_no_one_is_asked_out_who_gives_the_history_joins_later_or_is_not_there():
    for walk_in in (KEY_WORKER, WIFE_LATER, ALONE):
        asked = questions(walk_in, _low, companion="Carer (Dean)")
        assert not any(OUT.search(q) or BACK.match(q) for q in asked), (walk_in, asked)


def _plan_after(walk_in: str, reply) -> str:
    from tests.scripted_encounters import interview, write

    doctor, _ = interview(walk_in, reply, companion="Mother (Sara)")
    return write(doctor, "treat")


def test_a_risk_told_alone_is_kept_in_confidence_but_for_what_keeps_him_safe():
    def reply(question: str) -> str:
        if "hurt yourself on purpose" in question or "people hurt themselves" in question:
            return "I scratch my arm with a blade sometimes."
        return _low(question)

    plan = _plan_after(TEEN, reply)
    assert "Confidentiality: what he told on his own stays between him and the team" in plan, plan
    assert "locked away" in plan and "shared with his knowledge" in plan, plan


def test_no_confidentiality_sentence_where_nothing_of_risk_was_told_alone():
    plan = _plan_after(ALONE, lambda q: "No.")
    assert "Confidentiality" not in plan, plan


def test_a_confused_patients_companion_stays():
    walk_in = "Inpatient ward. A 78-year-old woman is here to see you, accompanied by her daughter."

    def reply(question: str) -> str:
        return "I don't know where I am. I see things that aren't there." if "brought you" in question else "Not sure."

    asked = questions(walk_in, reply, companion="Daughter (Jo)")
    assert not any(OUT.search(q) for q in asked), asked
