"""The adult who came with someone who gives the history (stop 57). uw-030's key worker, whom the record says
answers for Craig, was never asked anything: the scripted doctor turned to an informant only for a child. The
walk-in now says what the companion can give and when they join; the doctor asks the history of one who gives
it, the collateral of one who gives an account of their own (after the patient's own account, the risk questions
and the screen where they join later), and keeps every risk question to the patient.

The doctor is driven through ``act`` against canned replies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.hospital.encounter import walk_in_text
from tests.scripted_encounters import questions

UNSEEN = Path(__file__).resolve().parents[1] / "benchmarks/data/patient_exam/unseen"
KEY_WORKER = ("Outpatient clinic. A 34-year-old man is here to see you, accompanied by a key worker. "
              "The key worker can give the history.")
WIFE_LATER = ("Outpatient clinic. A 41-year-old man is here to see you, accompanied by his wife. His wife will join for "
              "the later part of the interview and can give an account of what has been happening.")
RISK = ("life is not worth living", "hurt themselves", "end your life", "harm yourself")


def _interview(walk_in: str, reply, budget: int = 40) -> list[str]:
    return questions(walk_in, reply, "Carer (Dean)", budget)


@pytest.mark.parametrize("record, says", [
    ("uw-030", "The key worker can give the history."),
    ("uw-006", "His daughter can give the history."),
    ("uw-005", "His wife will join for the later part of the interview and can give an account of what has been happening."),
])
def test_the_walk_in_says_what_the_companion_gives(record: str, says: str) -> None:
    assert walk_in_text(load_case(str(UNSEEN / f"{record}.json"))).endswith(says)


@pytest.mark.parametrize("record", ["uw-015", "uw-004", "uw-011", "uw-016"])
def test_nothing_is_said_of_a_companion_sent_out_a_young_persons_or_one_with_no_account(record: str) -> None:
    # uw-015's boyfriend was asked to step out; uw-004 (15) and uw-011 (9) are asked as before; uw-016's mother
    # was seen on her own and gives no account in the interview
    text = walk_in_text(load_case(str(UNSEEN / f"{record}.json")))
    assert text.endswith(("accompanied by her mother.", "accompanied by his mother.", "accompanied by her boyfriend.")), text


def test_the_key_worker_is_asked_the_history_and_the_patient_the_risk() -> None:
    asked = _interview(KEY_WORKER, lambda q: "Not sure.")
    medicines = [q for q in asked if "medicines" in q and "allergic" not in q]
    assert medicines and all(q.count("A question for his key worker:") == 1 for q in medicines), medicines
    assert any("A question for his key worker: When did the change in him start" in q for q in asked), asked
    risk = [q for q in asked if any(r in q for r in RISK)]
    assert risk and not any("key worker" in q for q in risk), risk
    assert not any(re.search(r"\b(?:Mum|Dad),", q) for q in asked)
    assert not any("schooling" in q for q in asked)


def test_a_wife_who_joins_later_is_asked_her_account_last() -> None:
    # where the turns allow: after his own account, the risk questions and his own history, none of which it displaces
    asked = _interview(WIFE_LATER, lambda q: "Not sure.", budget=80)
    hers = [i for i, q in enumerate(asked) if "A question for his wife:" in q]
    risk = [i for i, q in enumerate(asked) if any(r in q for r in RISK)]
    medicines = [i for i, q in enumerate(asked) if "medicines do you take" in q]
    assert hers and risk and medicines and min(hers) > max(risk + medicines), asked
    assert any("When did the change in him start" in asked[i] for i in hers)
    # in a shorter interview his own questions come first
    assert not any("A question for his wife:" in q for q in _interview(WIFE_LATER, lambda q: "Not sure.", budget=30))


def test_a_refused_risk_question_is_asked_of_the_key_worker() -> None:
    # uw-030: "No. Stop." to the self-harm question was read as a denial and nothing more was asked; the key worker,
    # who knows of the head-hitting, was never asked
    def reply(question: str) -> str:
        return "No. Stop." if "hurt themselves" in question else "Not sure."

    asked = _interview(KEY_WORKER, reply)
    refused = next(i for i, q in enumerate(asked) if "hurt themselves" in q)
    assert "A question for his key worker: Has he hurt himself lately" in asked[refused + 1], asked[refused:refused + 2]
    # with no "you" before it ("Thank you for telling me. A question for his key worker: ..." was answered by Craig)
    assert not re.search(r"\byou\b", asked[refused + 1], re.IGNORECASE), asked[refused + 1]
