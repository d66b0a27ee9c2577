"""The reply answers what is asked (stop 52): the focus check's cues (``data/focus.json``).

"can't" is no can of drink: the rate cue ``cans?\\b`` matched "can" before the apostrophe, so "Shakes, sweats, can't
keep anything down, last drink about 30 hours ago." stood as the answer to "How much do you usually drink?"."""

from mentalhospital_env.patient.decide import says_focus


def test_a_contraction_is_no_amount():
    assert not says_focus("Shakes, sweats, can't keep anything down.", "rate")
    assert not says_focus("I won't go out.", "rate")
    assert says_focus("I drink four cans a day.", "rate")
    assert says_focus("A can of cider, that's all.", "rate")



def _unseen(record: str):
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient.patient import make_patient

    return make_patient(load_suite(f"benchmarks/data/patient_exam/unseen/{record}.json").cases[0], seed=13)


def test_a_part_denied_beside_a_part_told_is_named_without_a_bare_no():
    # uw-024: money told, the police denied; the reply opened "No, nothing like that." and so denied the money too
    reply = _unseen("uw-024").respond(
        "Has using opioids caused problems with money or debts, with the police, or have you driven after using?").text
    assert not reply.startswith("No"), reply
    assert "trouble with the law" in reply, reply


def test_a_denial_alone_still_says_no():
    reply = _unseen("uw-024").respond("Have you ever been in trouble with the police?").text
    assert reply.startswith("No") or "never" in reply, reply


def test_what_happens_if_you_try_not_to_is_answered_in_the_record_s_words():
    # hw-005: "What happens if you try not to do it?" shares no word with the record's "I know the thoughts are
    # excessive but feel unbearable anxiety if I resist."; the onset sentence stood ("Since starting university ...")
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient.patient import make_patient

    patient = make_patient(load_suite("handwritten")["hw-005"], seed=0)
    for ask in ("Can you tell me what's been going on?", "When did that start?", "What kind of thoughts do you get?",
                "How many times a day would you wash your hands?", "Has that done anything to your skin?",
                "Do you check things too, like doors or the cooker?"):
        patient.respond(ask)  # the exam's conversation hw-005.a up to the question
    reply = patient.respond("What happens if you try not to do it?").text
    assert "resist" in reply, reply


def test_a_sentence_that_rules_out_a_thing_asked_is_no_part_told():
    # hw-004: the suicide item's sentence "Preoccupied with having another attack ...; no suicidal ideation." rules
    # out what is asked, so both parts are denied and the reply still opens with its "No."
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient.patient import make_patient

    reply = make_patient(load_suite("handwritten")["hw-004"], seed=13).respond(
        "Any thoughts of harming yourself or ending your life?").text
    assert reply.startswith("No"), reply
