"""The voice of a compiled narrative record (issue 13, stop 39): the frame the compiler puts before record words takes a
noun phrase or the sentence is said another way; a subjectless chart verb gets the patient's "I"; the record's past
perfect is said in the simple past; the patient's own knowledge of the family is said in the first person. Faults
read on uw-012's whole episode and on test-v2-0189 / test-v2-0095, written here in sentences of the same shape but
other words, and checked on the replies of a patient built from a record through the public API."""

from __future__ import annotations

import re

import pytest

from mentalhospital_env.cases.compile import voiced
from mentalhospital_env.cases.loader import load_case
from mentalhospital_env.patient import make_patient

_RECORD = {
    "case_id": "voice-s39",
    "language": "en",
    "demographics": {"age": 41, "sex": "male", "occupation": "bus driver", "marital_status": "married",
                     "living_situation": "lives with his wife and two sons in Hull"},
    "setting": "outpatient",
    "ehr": {
        "chief_complaint": "Now falling behind at work. Marriage at breaking point for about a year.",
        "history_of_present_illness": (
            "Mr Dunn has felt low since the spring. He had kept going for months but had stopped seeing friends by June. "
            "Most nights he falls asleep quickly, then wakes at 4 a.m. and lies there until the alarm. "
            "When asked directly he described the following. "
            "Only when pressed about the weekend did he mention the row with his brother."
        ),
        "past_psychiatric_history": "No previous contact with mental health services.",
        "medical_history": "Gout since 2019.",
        "medications": "Allopurinol 100 mg daily.",
        "allergies": "No known drug allergies.",
        "substance_use": "drinks four pints on a Friday, does not smoke.",
        "family_history": "He knows of no relative with a mental illness.",
        "personal_history": "He describes his wife as patient but worn out. Rents a flat above a chip shop.",
        "mental_status_exam": {"appearance": "Tired-looking man, good eye contact."},
        "risk_assessment": {"suicide": "No thoughts of self-harm."},
    },
    "exams": [],
    "diagnosis": {"categories": ["depressive"], "disorders": [{"name": "Depressive episode, mild", "code": "F32.0"}]},
    "treatment": {"plan": "Review in four weeks."},
}

_POSSESSION = re.compile(r"\bI(?:'ve| have|'ve not| haven't) had (\w+)")
_NOT_OBJECTS = {"now", "the", "only", "him", "her", "struggling", "falling", "when", "married"}


@pytest.fixture(scope="module")
def said() -> list[str]:
    case = load_case(_RECORD)
    patient = make_patient(case, "full", seed=0)
    questions = ["What brought you here today?", "How long has this been going on?", "How are you sleeping?",
                 "Who do you live with?", "How are things with your wife?", "Do you drink alcohol?",
                 "Has anyone in your family had mental health problems?", "When did you stop seeing your friends?"]
    return [patient.respond(q).text for q in questions]


def test_no_reply_puts_had_before_what_is_no_noun_phrase(said: list[str]) -> None:
    for reply in said:
        for word in _POSSESSION.findall(reply):
            assert word.lower() not in _NOT_OBJECTS, reply
        assert "the following" not in reply and "Only when" not in reply, reply


def test_no_reply_opens_a_sentence_on_a_subjectless_verb(said: list[str]) -> None:
    for reply in said:
        for sentence in re.split(r"(?<=[.!?])\s+", reply):
            first = re.sub(r"^(?:Then|And|But|So|Also)\s+", "", sentence).split(" ", 1)[0]
            assert first not in ("Lies", "Rents", "Drinks", "Wakes", "Falls"), reply


def test_no_reply_reads_out_the_record_in_the_third_person(said: list[str]) -> None:
    for reply in said:
        assert not re.search(r"\b(?:He|he) (?:knows|describes|had|falls)\b", reply), reply
        assert not re.search(r"\bI['\u2019]m[a-z]", reply), reply  # "I'mdry": the contraction run into the next word


def test_the_chart_frames_are_said_another_way_or_not_at_all() -> None:
    facts = load_case(_RECORD).facts
    says = {f.text.strip(): f.patient_says for f in facts}
    # "I've had now falling behind at work."
    assert says["Now falling behind at work."] == "I'm now falling behind at work."
    # "I've had marriage at breaking point for about a year."
    assert says["Marriage at breaking point for about a year."] == "My marriage has been at breaking point for about a year."
    # "I've had the following." / "I've had only when pressed ... did I mention ...": pointers and the interview, unsaid
    assert not says.get("When asked directly he described the following.")
    assert "Only when" not in (says.get("Only when pressed about the weekend did he mention the row with his brother.") or "")
    # "I've had my wife as patient but worn out."
    assert says["He describes his wife as patient but worn out."] != "I've had my wife as patient but worn out."
    told = " ".join(f.patient_says or "" for f in facts if f.told)
    assert "I rent a flat above a chip shop." in told
    assert "I drink four pints on a Friday" in told
    assert "I don't know of any relative with a mental illness." in told


@pytest.mark.parametrize(
    ("section", "sentence", "sex", "expected"),
    [
        # the record's past perfect in a main clause, nothing to be earlier than: the simple past
        ("history_of_present_illness", "He had lost his keys and had walked home in the rain.", "male",
         "I lost my keys. And I walked home in the rain."),
        ("history_of_present_illness", "She had been admitted to the medical ward twice.", "female",
         "I was admitted to the medical ward twice."),
        # with something to be earlier than, the past perfect is speech and stays
        ("history_of_present_illness", "She had been managing well until last December.", "female",
         "I had been managing well until last December."),
        ("chief_complaint", "Not coping at home for about six months.", "female", "I haven't been coping at home for about six months."),
        # "her" before "first" is the owner: "my first", never "me first"
        ("history_of_present_illness", "In March she had her first seizure at work.", "female", "In March I had my first seizure at work."),
        # an adjective list before its noun is had ("I'mdry, cracked skin" was said)
        ("medical_history", "rough, scaly patches on both elbows.", "male", "I have rough, scaly patches on both elbows."),
        # a subjectless verb after "then" takes the patient's "I"
        ("history_of_present_illness", "then paces the landing for an hour.", "male", "I then pace the landing for an hour."),
        # the patient's own knowledge of the family, never read out in the third person
        ("family_history", "She is not aware of any relative with depression; she would not necessarily have been told.", "female",
         "I'm not aware of any relative with depression. I wouldn't necessarily have been told."),
        # a family sentence about a relative is not the patient's ("She" is the mother)
        ("family_history", "She is very anxious and rarely leaves the house.", "female", None),
    ],
)
def test_voice_shapes(section: str, sentence: str, sex: str, expected: str | None) -> None:
    assert voiced(section, sentence, sex) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # a participle of the noun had is no progressive ("I've been gradually worsening memory" was said, hw-008's shape)
        ("Gradually worsening memory over two years.", "I've had gradually worsening memory over two years."),
        ("Passing thoughts of wanting to die.", "I've had passing thoughts of wanting to die."),
        # a participle with its own object is ("I've had seeing things at night", uw-008's shape)
        ("Seeing shadows in the hallway at night.", "I've been seeing shadows in the hallway at night."),
    ],
)
def test_a_participle_before_its_noun_is_had(sentence: str, expected: str) -> None:
    assert voiced("chief_complaint", sentence, "male") == expected


def test_what_is_not_the_patients_stays_so() -> None:
    # "Marcus remembers him 'up and down'" (his father) was said "I remember me up and down."
    assert voiced("family_history", "He remembers him 'up and down'.", "male") != "I remember me up and down."
    # a plural noun that is the subject keeps its sentence ("I voice and beliefs have persisted ..." was said)
    said = voiced("history_of_present_illness", "Voices and odd beliefs have persisted for weeks after each episode.", "male") or ""
    assert not said.startswith("I voice")
    # "had to" is no possession ("And I had to be woken when called." was left unsaid)
    assert voiced("history_of_present_illness", "He fell asleep in the waiting room and had to be woken when called.", "male") == (
        "I fell asleep in the waiting room. And I had to be woken when called.")


def test_a_phrase_that_opens_on_its_noun_is_had() -> None:
    # the small parser hangs a clause after the noun; the phrase is still a thing had (hw-016's and uw-007's shapes were
    # left unsaid by the first version of the shape pass)
    said = voiced("history_of_present_illness", "He has had pictures of his son falling down the stairs that frighten him.", "male")
    assert (said or "").startswith("I've had pictures of my son falling down the stairs")
    assert voiced("past_psychiatric_history", "Head-banging and skin-picking when stressed since childhood.", "female") == (
        "I've had head-banging and skin-picking when stressed since childhood.")
