"""The sentence cap keeps a chain of sentences that go on from each other only with its first link (stop 49's re-read:
the first version filtered in one pass against the sentences chosen, so a second "And ..." was kept after its "But ..."
was let go, and spoke on from a sentence never said)."""

from mentalhospital_env.cases import load_suite
from mentalhospital_env.patient.patient import make_patient


def _speaker():
    patient = make_patient(load_suite("handwritten")["hw-028"], seed=13)
    found = [v for v in vars(patient).values() if hasattr(v, "speaker")]
    return found[0].speaker if found else patient.speaker


def test_a_sentence_going_on_from_one_left_out_is_left_out_too():
    speaker = _speaker()
    told = ["I have high cholesterol. But it is fine now. And I smoke cigarettes. And I smoke a pipe."]
    said = speaker._few(told, "Do you smoke?", 3)[0]
    # "But it is fine now." is let go, so neither "And ..." that goes on from it is said
    assert said == "I have high cholesterol.", said
