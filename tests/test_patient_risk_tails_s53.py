"""A risk answer stands on its own (stop 53).

uw-027 (a tangential young man interviewed on the morning of discharge) answered the suicide screen "I haven't had any
strength, I no want see anybody, wished I could sleep and not wake up. Anyway, that's beside the point.": the
tangential drift after a death wish reads as the wish brushed aside, and an examiner coding the transcript took it as
current ideation made light of. The same happens with the pressured "Anyway, anyway.", the irritable "Can we get on
with it?" and the minimising "Everyone does it, really." after a suicide, self-harm or violence question. A reply to a
question on a risk topic (``tails.risk_topics`` of ``data/styles.json``) takes no trait tail but the anxious and
guarded ones, which say the discomfort of telling it."""

import pytest

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient.patient import make_patient
from mentalhospital_env.patient.say import load_phrases, load_styles

_SCREEN = ("Sometimes when people feel this low, they have thoughts that life is not worth living. "
           "What thoughts like that have you had?")


def _dismissive_tails() -> dict[str, str]:
    when = load_styles()["tails"]["when"]
    return {tail: trait for trait, banks in load_phrases()["traits"].items() for tail in banks.get("tail", ())
            if when.get(trait) != "sensitive"}


# each (case, seed) ended its suicide-screen reply with a drift or a shrug before stop 53
@pytest.mark.parametrize(("suite", "case_id", "seed"), [
    ("handwritten", "hw-034", 1),  # "I had one overdose at 28 while low, none since. Anyway, that's beside the point."
    ("handwritten", "hw-026", 2),  # "Oh, I've never had thoughts of ending my life. What was I saying? Never mind."
    ("test-v2", "test-v2-0066", 1),  # "I've never had thoughts of ending my life. Can we get on with it?"
    ("test-v2", "test-v2-0021", 2),  # "... Everyone does it, really." (minimising)
])
def test_a_suicide_screen_answer_takes_no_drift_or_shrug(suite, case_id, seed):
    case = next(c for c in load_suite(suite) if c.case_id == case_id)
    patient = make_patient(case, seed=seed)
    patient.respond("What has brought you here today?")
    reply = patient.respond(_SCREEN).text
    assert reply.strip()
    assert not [tail for tail in _dismissive_tails() if reply.endswith(tail)], reply


def test_the_risk_topics_are_data():
    tails = load_styles()["tails"]
    assert {"suicide", "self_harm", "violence"} <= set(tails["risk_topics"])
    assert {"anxious", "guarded"} <= {t for t, c in tails["when"].items() if c == "sensitive"}
