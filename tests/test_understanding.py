"""The patient's *understand* room: an utterance becomes the interview topics it asks about.

Public API only (``understand``, ``load_taxonomy``); the figures against the hand-labelled utterances
live in ``benchmarks/topic_classifier.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalhospital_env.patient.understanding import load_taxonomy, understand

ROOT = Path(__file__).resolve().parents[1]


def topics(utterance: str, context: str | None = None) -> set[str]:
    return set(understand(utterance, context).topics)


@pytest.mark.parametrize(
    ("utterance", "expected", "absent"),
    [
        # the impact on work: functioning, and work too so that the patient's work facts answer it
        ("Has it affected your work?", {"functioning", "work"}, set()),
        # the same for school and home: the parent's school facts answer it (a reader of stop 28: the mother of hw-007
        # answered "I'm not sure" when school yielded to functioning)
        ("Mum, how is this affecting her schooling, her friendships and home life?", {"functioning", "education"}, set()),
        # a cue yields to a topic that owns the question ("focus at work" asks about concentration)
        pytest.param("How's your focus at work?", {"concentration"}, {"work", "functioning"}, marks=pytest.mark.xfail(strict=True, reason="stop 46: the topic reader deciding alone at 0.2 (leave-one-set-out choice) reads work beside concentration (0.3)")),
        # a weak cue ("start") counts only beside a question of time (needs)
        ("When did it start?", {"onset"}, set()),
        ("Did anything happen around the time it started?", {"trigger"}, {"onset"}),
        # unless: "cut down" is about drinking, not cutting or low mood
        ("Have you ever felt you should cut down on your drinking?", {"alcohol"}, {"self_harm", "mood"}),
        # mania owns the elevated mood and the short sleep
        ("Have there been times when you needed much less sleep than usual but didn't feel tired?", {"mania"}, {"sleep", "energy"}),
        # "period of elevated mood" is not about periods
        ("Have you ever had a period of elevated mood?", {"mania"}, {"pregnancy", "mood"}),
        # "as a child" names no relative: the patient's own childhood, not family history
        ("Were you ever hurt or abused as a child?", {"childhood", "trauma"}, {"family_history"}),
        # texting spellings are written out
        ("do u sleep ok", {"sleep"}, set()),
        # a question with no cue phrase falls back on single words
        ("Eating ok?", {"appetite"}, set()),
        ("Any allergies to medication?", {"allergies"}, {"medication"}),
        ("Are you on any medication, and do you have any allergies?", {"medication", "allergies"}, set()),
        # the longer reading of the same words wins: "take your time" is no question about taking tablets
        ("Take your time, there's no rush.", {"rapport"}, {"medication"}),
        ("Have you ever hurt yourself on purpose?", {"self_harm"}, {"eating"}),
        # but a two-word phrase keeps what it holds: chest pain is panic and a bodily symptom
        ("Do you get palpitations or chest pain?", {"panic", "somatic"}, set()),
        # solo cues: "how often" asks about the course only when nothing else is asked
        ("How often does it happen?", {"course"}, set()),
        ("How often do you smoke weed?", {"cannabis"}, {"course"}),
        # what makes it worse is a trigger, not the course
        ("Is there anything that makes it worse?", {"trigger"}, {"course"}),
        # the interview's practical asks
        ("Can you tell me your date of birth?", {"other"}, set()),
        ("I'll just need to check your blood pressure later.", {"other"}, {"medical_history", "obsessions_compulsions"}),
        # someone else's worry is not the patient's
        ("Have you ever been so excited or hyper that others were worried?", {"mania"}, {"worry"}),
        # support: people to turn to, not the family's history or the household
        ("Do you have family or friends nearby who can help?", {"social_support"}, {"family_history"}),
        ("Do you live on your own?", {"living_situation"}, {"social_support"}),
        # a closing said after the question
        ("Is there someone who can be with you tonight? We'll finish there.", {"social_support", "closing"}, set()),
        # a greeting's own sentence asks nothing; the sentence beside it still says what it says
        ("Hello, thanks for coming. I know it can be hard to talk about these things.", {"greeting", "rapport"}, set()),
        ("Good afternoon Mr Jones, I'm one of the doctors on the ward.", {"greeting"}, {"admissions"}),
        # the patient's own birth and development, although the mother is named
        ("Was your mother's pregnancy with you normal?", {"development"}, {"family_history"}),
    ],
)
def test_cues_and_their_guards(utterance, expected, absent):
    got = topics(utterance)
    assert expected <= got, (utterance, got)
    assert not (absent & got), (utterance, got)


def test_a_relative_is_named_only_when_their_history_is_asked():
    u = understand("Has your mother ever had depression?")
    assert u.relative == "mother" and "family_history" in u.topics
    assert understand("Were you ever hurt as a child?").relative is None


@pytest.mark.parametrize(
    ("utterance", "context", "expected", "absent"),
    [
        # a follow-up with no topic of its own takes the previous turn's
        ("How sure are you about that?", "Do you think someone is trying to harm you?", {"beliefs"}, set()),
        ("And how long has that been going on?", "How have you been feeling in yourself?", {"mood", "onset"}, set()),
        # elliptic: "And at night?" after a question about tiredness
        ("And at night?", "Are you feeling tired during the day?", {"energy", "sleep"}, set()),
        # a time anchor is not a new topic: "before the accident" asks about drinking then
        ("And before the accident?", "How much are you drinking these days?", {"alcohol"}, {"trauma"}),
        # how long in a job is about work, not the onset of an illness
        ("How long have you worked there?", "What do you do for a living?", {"work"}, {"onset"}),
        # a question with a topic of its own does not inherit the previous one
        ("Do you drink alcohol?", "How is your sleep?", {"alcohol"}, {"sleep"}),
        ("Is it okay if I ask about your drinking?", "How is your sleep?", {"alcohol"}, {"sleep"}),
        # no topic found, and nothing that refers back: not a follow-up
        ("Do you find it hard to wait for your turn?", "Have you ever hurt anyone?", set(), {"violence"}),
    ],
)
def test_follow_ups_read_through_the_previous_turn(utterance, context, expected, absent):
    u = understand(utterance, context)
    assert expected <= set(u.topics), (utterance, u.topics)
    assert not (absent & set(u.topics)), (utterance, u.topics)


def test_follow_up_flag_says_where_the_topics_came_from():
    assert understand("What do they say?", "Do you hear voices when no one is there?").follow_up
    assert not understand("Do you drink alcohol?", "How is your sleep?").follow_up
    assert not understand("What do they say?").follow_up


def test_understand_refuses_what_is_not_text():
    with pytest.raises(TypeError, match="utterance must be a str"):
        understand(None)  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.one_of(st.none(), st.text(max_size=300)))
def test_any_text_reads_into_known_topics(utterance, context):
    u = understand(utterance, context)
    ids = set(load_taxonomy().by_id)
    assert set(u.topics) <= ids
    assert len(set(u.topics)) == len(u.topics)
    assert u.questions >= 1


def test_one_topic_table():
    """``taxonomy.json`` is the only table of interview topics: the memory skill reads its topics, open
    topics and stopwords from it, and ``topics.json`` is gone."""
    from mentalhospital_env.patient.memory import load_memory_cues

    data = resources.files("mentalhospital_env.patient").joinpath("data")
    assert not data.joinpath("topics.json").is_file()
    cues = load_memory_cues()
    tax = load_taxonomy()
    assert [t.id for t in cues.topics] == [t.id for t in tax.topics]
    assert {t.id for t in cues.topics if t.open} == {"chief_complaint"}
    assert cues.stopwords == tax.stopwords
    for topic in cues.topics:
        assert topic.sections == tax.by_id[topic.id].sections


def test_taxonomy_matches_the_labels_taxonomy():
    """Every id the hand labels use is a topic of the patient's taxonomy (``other``: the interview's
    practical asks, date of birth, a glass of water, an interpreter)."""
    labels = json.loads((ROOT / "benchmarks" / "data" / "interview_topics_taxonomy.json").read_text())
    label_ids = {t for group in labels["groups"].values() for t in group}
    assert label_ids == set(load_taxonomy().by_id)


def test_taxonomy_guards_name_known_topics():
    tax = load_taxonomy()
    kinds = {t.kind for t in tax.topics}
    for t in tax.topics:
        assert set(t.yields_to) <= set(tax.by_id), t.id
        assert set(t.yields_to_kinds) <= kinds, t.id
        assert (t.weak is None) == (t.needs is None), f"{t.id}: weak_cues and needs go together"


def test_topic_classifier_reports_both_halves():
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "topic_classifier.py"), "--half", "odd"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout
    assert "odd lines" in out
    assert "even (tuned on)" in out and "odd (held out)" in out


@pytest.mark.parametrize(
    ("utterance", "context", "expected"),
    [
        pytest.param("When was the last time?", "Have you ever cut yourself?", {"self_harm"}, marks=pytest.mark.xfail(strict=True, reason="stop 46: the topic reader deciding alone at 0.2 (leave-one-set-out choice) reads course beside the carried self-harm")),
        ("What was it for?", "Have you ever been arrested?", {"forensic"}),
        ("Who noticed first?", "Have you had problems with your memory?", {"memory"}),
    ],
)
def test_a_short_question_with_no_topic_of_its_own_asks_about_the_previous_turn(utterance, context, expected):
    assert topics(utterance, context) == expected
    assert not topics(utterance)  # alone it asks nothing the taxonomy names


def test_anything_else_stays_the_open_question_after_a_topic():
    u = understand("Anything else?", "Do you ever hear voices when nobody is there?")
    assert u.open and not u.topics


def test_the_interviews_own_business_repeats_no_lexicon_question():
    from mentalhospital_env.patient.question import read_question

    # "today" brings the orientation question near, but a closing asks nothing clinical
    assert read_question("Okay, let's stop there for today.").concepts == ()
    assert read_question("We'll do some blood tests today.").concepts == ()
    assert read_question("Okay, let's stop there for today.").closing
    # a clinical question keeps its concepts
    assert read_question("How has your mood been over the past few weeks?").concepts


#: The labelled sets in the order they were written, each with its SHA-256, its size and how many of its utterances
#: (lower-cased) an earlier set already holds word for word: stock clinic questions the writers wrote again ("Who do you
#: live with?"). Every set from stop 22 on was written, labelled and committed before anything ran on it; a held-out set
#: becomes development data at the stop after its figures are taken (heldout22 and heldout28 were read and tuned on,
#: heldout29 and heldout30 are in the topic model's fitting since stop 31, with stop 31's training set, and
#: ``interview_topics_heldout31``, written at stop 31 by a writer who read no code, since stop 32, once its figure was
#: taken; heldout32 and heldout33, written the same way at stops 32 and 33, since stop 34, heldout33's errors read and
#: tuned on at stop 34; heldout34, written the same way at stop 34, since stop 35, once its figure was taken; heldout35,
#: written the same way at stop 35, its figure taken then; heldout36, written the same way at stop 36, its figure taken
#: then; heldout37, written the same way at stop 37, its figure taken then; heldout38, written the same way at stop
#: 38, its figure taken then; heldout39, written the same way at stop 39, its figure taken then; heldout40, written the
#: same way at stop 40, its figure taken then; heldout41, written the same way at stop 41, its figure taken then;
#: heldout42, written the same way at stop 42, its figure taken then; heldout43, written the same way at stop 43, its
#: figure taken then; heldout44, written the same way at stop 44, its figure taken then; heldout45, written the same
#: way at stop 45, its figure taken then; heldout46, written the same way at stop 46, its figure taken then; heldout47,
#: written the same way at stop 47, its figure taken then; heldout48, written the same way at stop 48, 40 stock
#: questions repeated, its figure taken then; heldout49, written the same way at stop 49, 34 stock questions repeated,
#: its figure taken then; heldout50, written the same way at stop 50, none repeated, its figure taken then; heldout51,
#: written the same way at stop 51, none repeated, its figure taken then; heldout52, written the same way at stop 52,
#: 51 stock repeats reworded before commit, its figure taken at stop 52's end, in the fitting since stop 53), and stop
#: 53's fresh set (``interview_topics_heldout53``, written apart by a writer who read no code, committed alone before
#: anything ran on it; none of its 460 utterances repeats an earlier set, case and punctuation aside: the writer checked
#: every earlier interview_topics file and reworded 77 repeats, stock questions included, before handing it over; its
#: figure taken at stop 53's end), and stop 54's fresh set (``interview_topics_heldout54``, written apart by a writer
#: who read no code, committed alone before anything ran on it; none of its 460 utterances repeats an earlier set, case
#: and punctuation aside: the writer reworded 67 stock repeats and one repeat within the file before handing it over;
#: its figure taken at stop 54's end, in the fitting since stop 55), and stop 55's fresh set
#: (``interview_topics_heldout55``, written apart by a writer who read no code, committed alone before anything ran on
#: it; none of its 460 utterances repeats an earlier set, case and punctuation aside: the writer reworded 79 repeats, 73
#: of them stock questions, before handing it over; its figure taken at stop 55's end), and stop 56's fresh set
#: (``interview_topics_heldout56``, written apart by a writer who read no code, committed alone before anything ran on
#: it; none of its 460 utterances repeats an earlier set, case and punctuation aside: the writer reworded 52 repeats,
#: most of them stock questions, before handing it over) is never fitted on. A change to a
#: file is a new set and needs a new pin and a new note.
TOPIC_SETS = [
    ("interview_topics", "5865f5011168ceab7a8bc7c7f337f2b0489852a62bc15b3d31a0b5d3965049e3", 840, 0),
    ("interview_topics_heldout", "ccc6beccd33c1ca187d8e107a5d8973607fa9465cd6a2bc428629a24a93c5200", 181, 0),
    ("interview_topics_heldout22", "78210da6815b5106fd1bd32ddfcb1255ee310631fa30c9618abe603b6e6bdfdf", 177, 8),
    ("interview_topics_heldout24", "c4c43fad658761145e7df5f1ffb614c571c49d68838af55d8a00f74fa3acd4d1", 130, 29),
    ("interview_topics_heldout28", "e91f3d3023f19246d6d3d767c41c2bb0da5dce66c387751d6ace86e9fc66d97e", 203, 2),
    ("interview_topics_heldout29", "e757efdd0b68e970c05152414e4322503fabfa970e8b09b0236d17678d6842a3", 296, 0),
    ("interview_topics_heldout30", "93f94f72fb6d4b85fdfe639945fd2662e2e92604b59479dd1cafc9c66008a420", 307, 52),
    ("interview_topics_train31", "18a3959955b1deaa725327c95e90da70e801db895991490eb8d538ca51d584ae", 453, 0),
    ("interview_topics_heldout31", "3b0fef9619cd190722cddd41857c441895a33c05fb0b255e8d020cd5961a1764", 340, 28),
    ("interview_topics_heldout32", "1109fbd5f4b8998840422e09328d387141cf778638e5f788a6ad3f82b5364751", 420, 0),
    ("interview_topics_heldout33", "d233014ebb71fd0dd84b9e087f13dbffcf5068065d93beca5c3abcc9c4095f32", 426, 0),
    ("interview_topics_heldout34", "de63b5194bfe9244191119a8cf9c3fb0709164ebf5f5fe8461006120a2a56a8a", 460, 34),
    ("interview_topics_heldout35", "42d8ec5f1e74363270963433c729762d6aebeed13f387724117f96e2f6b09f16", 460, 58),
    ("interview_topics_heldout36", "66cf517d55331ee40b5b9393061ae6b10082f2a80ea3dcca02e90ea1d6861f67", 460, 73),
    ("interview_topics_heldout37", "aaf9a62bf173e1b3d46cbc8e8004320bc069adb5bd6d1a81979c9b62948d89fe", 460, 85),
    ("interview_topics_heldout38", "ee67fc44638ed23f9a418ac6f7fd854da0cd6622e278ac250dc408e5816b8203", 460, 82),
    ("interview_topics_heldout39", "fabd4605eca8967c33d1abf78e08c25223c9e01dbd8cf949e10c459d1d2ddda3", 460, 99),
    ("interview_topics_heldout40", "54bcc817b5a951f3e0cc97a8215624656dee270645fef703475840f7ddf80fad", 460, 0),
    ("interview_topics_heldout41", "c3e6332a40b843f5b7137b3adf87979f1cfeb7b7645922c0c860d7d8998734f7", 460, 0),
    ("interview_topics_heldout42", "d4deafa7f7bbf4a20b912015854b4e565b55054362be930e3f635305ef2bd6d6", 460, 0),
    ("interview_topics_heldout43", "e2fdc039a339119f31bb54290f2bfe3d111d2bbffdfea3d7924e723f0d8e635f", 460, 0),
    ("interview_topics_heldout44", "17cad73ae323dd68c1a7dc31516633c78d40337864c8df1ee3fa69f95760bf1a", 460, 0),
    ("interview_topics_heldout45", "2f9bb971f68296294097ccd1e9707ef1b896aab7e3c3559242d00095be0df19a", 460, 0),
    ("interview_topics_heldout46", "644e011c52d9a1c1c7c6f5ec129165ecc550df03d445b802fa8bb97606b867fa", 460, 0),
    ("interview_topics_heldout47", "af303cbb6bae9b522c1df604cb621c46c402c172c3c75029163c014c24c7d1e5", 460, 0),
    ("interview_topics_heldout48", "b88025059c50d55fbe429c468590b112cdeb772aebe1bfa2c94c9eb0be974aed", 460, 40),
    ("interview_topics_heldout49", "8c717cd5f5364e523fcec7563a38ec51b2c4b514b82dded82aa6fc45e2213710", 460, 34),
    ("interview_topics_heldout50", "0a9432405eb2af3e1a5d20af41eedb330fdca1e5c4af97efa3321df21439af8e", 460, 0),
    ("interview_topics_heldout51", "be75f027ce6d896a1c3601597f6cb0c3586f76a9c5041d476f259f5071798a4a", 460, 0),
    ("interview_topics_heldout52", "03add49f89081795ef8267204e99238f1a96099cd0ec1703526b1562d4f5377f", 460, 0),
    ("interview_topics_heldout53", "ed8e05196d88ae778fc1d93978ac4786f8d028f70041233be35096f197ec46ac", 460, 0),
    ("interview_topics_heldout54", "d54b0442da8b9eb16a1cbeac58e6f9b58bb5c77cd37e9a778b99f2d1457b9fe1", 460, 0),
    ("interview_topics_heldout55", "d9540d96f4c5d1510d3b1d64138ed81cca9088b73029ded4c10f9ef30cbff962", 460, 0),
    ("interview_topics_heldout56", "80fed4bb43aadf7f674e2c949be9e49e558ada76bbb0316e46b63d1461ecd0b7", 460, 0),
]


@pytest.mark.parametrize("position", range(2, len(TOPIC_SETS)), ids=[s[0] for s in TOPIC_SETS[2:]])
def test_a_labelled_topic_set_is_pinned_and_new_but_for_its_stock_questions(position):
    import hashlib

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import topic_classifier

    name, digest, size, repeated = TOPIC_SETS[position]
    path = ROOT / "benchmarks" / "data" / f"{name}.jsonl"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    rows = topic_classifier.load_labels(path)  # every topic id is the taxonomy's
    seen = {r["utterance"].lower() for r in rows}
    assert len(rows) == len(seen) == size
    earlier = set()
    for older, *_ in TOPIC_SETS[:position]:
        earlier |= {r["utterance"].lower() for r in topic_classifier.load_labels(ROOT / "benchmarks" / "data" / f"{older}.jsonl")}
    assert len(seen & earlier) == repeated


def test_the_benchmark_reports_the_newest_held_out_topic_set_as_held_out():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import topic_classifier

    assert topic_classifier.HELD_OUT_SETS[-1][0].stem == TOPIC_SETS[-1][0]


def test_the_topic_model_is_never_fitted_on_a_fresh_held_out_set(monkeypatch):
    """The fitting script names no held-out set newer than the newest one read (stop 55 fits up to heldout54; heldout55
    is being written at stop 55), and refuses one before opening it, whatever table it is put in: by its number, and
    heldout55 by its name whatever the newest number read says. It works whether or not the fresh file is in the tree."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import fit_topic_model

    assert fit_topic_model.NEWEST_READ == 54
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import topic_classifier

    assert topic_classifier.NEWEST_FITTED == fit_topic_model.NEWEST_READ  # the benchmark says which figures are fitted
    for read in (f"interview_topics_heldout{n}.jsonl" for n in range(31, 55)):
        assert read in fit_topic_model.SETS.values()  # development data: heldout46..50 from stop 51, 51 from 52, 52 from 53,
        # 53 from 54, 54 from 55
    assert not [f for f in fit_topic_model.SETS.values()
                if re.search(r"held_?out(5[5-9]|[6-9]\d)", f.replace("-", "_"))]
    # a fresh set slipped into the table is refused before any file is opened (the name points nowhere real)
    monkeypatch.setattr(fit_topic_model, "DATA", ROOT / "no-such-folder")
    for fresh in ("interview_topics_heldout55.jsonl", "interview_topics_held_out55.jsonl",
                  "interview_topics_heldout56.jsonl"):
        monkeypatch.setitem(fit_topic_model.SETS, "fresh", fresh)
        with pytest.raises(SystemExit, match="fresh held-out set"):
            fit_topic_model.load("fresh")
    monkeypatch.setattr(fit_topic_model, "NEWEST_READ", 99)  # heldout55 and 56 are refused by name, not by number alone
    for fresh in ("interview_topics_heldout55.jsonl", "interview-topics-held-out55.jsonl",
                  "interview_topics_heldout56.jsonl", "interview-topics-held-out56.jsonl"):
        monkeypatch.setitem(fit_topic_model.SETS, "fresh", fresh)
        with pytest.raises(SystemExit, match="fresh held-out set"):
            fit_topic_model.load("fresh")
    monkeypatch.setattr(fit_topic_model, "NEWEST_READ", 54)
    monkeypatch.setitem(fit_topic_model.SETS, "fresh", "interview_topics_heldout54.jsonl")
    with pytest.raises(FileNotFoundError):  # a set already read passes the guard (and then needs its file)
        fit_topic_model.load("fresh")


@pytest.mark.parametrize(
    ("utterance", "topics", "relative"),
    [
        ("Kelly, has he been sleeping?", ("sleep",), None),
        ("Grandma, how has she been sleeping?", ("sleep",), None),
        ("Mrs Patel, has your mother been confused?", ("memory",), None),
        ("Mum, is there any mental illness in the family?", ("family_history",), None),
        ("Has your mother ever been depressed?", ("family_history",), "mother"),
        ("So, how is your mood?", ("mood",), None),
    ],
)
def test_a_name_said_to_an_informant_asks_about_no_relative(utterance, topics, relative):
    u = understand(utterance)
    assert (u.topics, u.relative) == (topics, relative)


@pytest.mark.parametrize(
    ("utterance", "expected", "absent"),
    [
        ("Have you been taking painkillers?", "medication", "opioids"),
        ("Do you buy painkillers off the street?", "opioids", None),
        ("Are you addicted to painkillers?", "opioids", None),
        ("Do you feel scared a lot?", "worry", "self_harm"),
        ("Does your tummy hurt sometimes?", "somatic", "self_harm"),
        # a strict xfail from stop 46 to stop 53 (the reader read alcohol in a coffee question); stop 54's refit with
        # heldout53 read alcohol just under the bar (0.20 rounded), other 0.55; stop 55's refit with heldout54 reads it
        # just over again (0.234, other 0.589): the reading sits on the bar, and the labelled sets hold no coffee
        # question asked alone (coffee is help_tried, sleep, tobacco and other beside it), so a strict xfail again
        pytest.param("How much coffee do you drink?", "other", "alcohol", marks=pytest.mark.xfail(
            strict=True, reason="stop 55: the reader refitted with heldout54 reads alcohol 0.234 over the bar 0.2 beside "
            "other 0.589 in a coffee question (stop 54's read 0.20, just under)")),
        ("Were you a happy kid?", "childhood", "family_history"),
    ],
)
def test_readers_misreadings_stay_mended(utterance, expected, absent):
    topics = understand(utterance).topics
    assert expected in topics
    assert absent is None or absent not in topics


def test_record_sentences_are_not_filed_under_a_word_they_only_share():
    from mentalhospital_env.patient.understanding import record_topics

    assert "alcohol" not in record_topics("personal_history", "I wipe my phone and door handles with alcohol wipes.")
    assert "appetite" not in record_topics("personal_history", "From about 13 he started eating lunch in the library.")
    assert "alcohol" in record_topics("substance_use", "He drinks about 20 units of alcohol a week.")
    # single words that mean something else beside their neighbours (fact_topics.jsonl, stop 24)
    assert "medication" not in record_topics("history_of_present_illness", "Four days ago he became convinced.")
    assert "medication" in record_topics("history_of_present_illness", "He takes lithium 400 mg daily.")
    assert "stimulants" not in record_topics("history_of_present_illness", "She washes until the skin cracks.")
    assert "mood" not in record_topics("medical_history", "Irritable bowel syndrome.")
    assert "mood" in record_topics("history_of_present_illness", "He has been irritable with the kids.")
    assert "admissions" not in record_topics("history_of_present_illness", "'Food tastes of nothing,' she admits.")
    assert "admissions" in record_topics("past_psychiatric_history", "She was admitted to hospital in 2019.")
    assert "relationships" not in record_topics("personal_history", "Only child.")
    assert not {"mood", "living_situation"} & set(record_topics("history_of_present_illness", "Cameras were placed in the flat."))
    assert "mood" in record_topics("history_of_present_illness", "She feels flat all day.")


@pytest.mark.parametrize(
    ("utterance", "stray"),
    [
        ("Tell me about the first time it happened.", "relief_drinking"),  # "first", of the first drink
        ("How long does the relief last after a negative result?", "self_harm_history"),  # "last"
        ("How much of the co-codamol are you getting through?", "fatigue"),  # "through the day"
        # stop 48: the reader reads help_tried under its bar here; a question it reads empty keeps the cues' topics it
        # gives 0.1 or more (understanding.EMPTY_FLOOR), so the patient exam's hw-001 fault of stop 46 is mended
        ("What helped you last time?", "lack_of_insight"),  # "What do you think would help?"
    ],
)
def test_a_lexicon_question_sharing_one_word_is_not_asked_beside_another_topic(utterance, stray):
    from mentalhospital_env.patient.question import read_question

    q = read_question(utterance)
    assert q.topics and stray not in q.concepts, q
    # the same one shared word still asks the concept on the topic it is read as
    assert "insomnia" in read_question("How is your sleep?").concepts
    assert "low_mood" in read_question("How has your mood been?").concepts


@pytest.mark.parametrize(
    ("utterance", "stray"),
    [
        ("What did you take?", "allergies"),  # "What happened when you took it?"
        ("Are you eating?", "eating_shame"),  # "How do you feel after you have eaten a lot?"
        ("How did it start?", "hobbies_interests"),  # "... before all this started?"
        ("Has anything big happened in the last couple of years?", "frequent_hospital_attendance"),
    ],
)
def test_a_lexicon_question_sharing_one_incidental_word_is_not_asked(utterance, stray):
    from mentalhospital_env.patient.question import read_question

    assert stray not in read_question(utterance).concepts
    # a word that is all the question says, or that names its concept, still asks it; so does the question verbatim
    assert "chronic_pain" in read_question("Where do you get pain?").concepts
    assert "excessive_exercise" in read_question("Do you do much exercise?").concepts
    assert "anhedonia" in read_question("What do you do for enjoyment these days, and how does it feel?").concepts


def test_a_relative_who_might_be_harmed_is_no_family_history():
    from mentalhospital_env.patient.understanding import record_topics

    u = understand("Have you had any thoughts of hurting your daughter?")
    assert "violence" in u.topics and "family_history" not in u.topics and u.relative is None
    assert understand("Has your mother ever tried to hurt herself?").topics == ("family_history",)
    assert "violence" in record_topics("mental_status_exam.thought_content", "No thoughts of harming himself or his daughter.")
    assert "violence" not in record_topics("history_of_present_illness", "He has been hurting his back at work.")


@pytest.mark.parametrize(
    ("utterance", "topics", "relative"),
    [
        # a parent tells of the patient: the son's police trouble or the daughter's allergies are the patient's own
        ("Has your son had any trouble with the police?", ("forensic",), None),
        ("Does your daughter have any allergies?", ("allergies",), None),
        # an illness beside the son, or a parent's or sibling's police trouble, is still the relative's history
        ("Has your daughter ever been depressed?", ("family_history",), "child"),
        ("Was your father ever in prison?", ("family_history",), "father"),
        pytest.param("Has your brother been in trouble with the police?", ("family_history",), "sibling", marks=pytest.mark.xfail(strict=True, reason="stop 46: the topic reader deciding alone at 0.2 (leave-one-set-out choice) reads forensic beside the sibling's history")),
    ],
)
def test_a_childs_own_history_told_by_a_parent_is_no_family_history(utterance, topics, relative):
    u = understand(utterance)
    assert (u.topics, u.relative) == (topics, relative)


@pytest.mark.parametrize(
    ("utterance", "present", "absent"),
    [
        # a mood asked in a question of its own beside a risk question stays asked
        ("How's your mood been, and have you had any thoughts of ending your life?", {"mood", "suicide"}, set()),
        # a low mood that only leads up to the risk question is not asked again
        ("Have you felt so low that you've thought about ending your life?", {"suicide"}, {"mood"}),
    ],
)
def test_a_mood_question_beside_a_risk_question(utterance, present, absent):
    got = set(understand(utterance).topics)
    assert present <= got and not (absent & got), got


def test_a_relative_named_in_a_family_follow_up_is_the_one_asked_about():
    before = "Has anyone in your family had mental health problems?"
    u = understand("And your brothers and sisters?", before)
    assert (u.topics, u.relative) == (("family_history",), "sibling")
    assert understand("What about your mum's side?", before).relative == "mother"


@pytest.mark.parametrize(
    ("utterance", "topics", "relative"),
    [
        # "how often" is the course beside a symptom, not beside a substance (solo_unless_kinds)
        ("How often are you getting the panic attacks?", {"panic", "course"}, None),
        ("How often do you smoke cannabis?", {"cannabis"}, None),
        # a partner beside an illness history is a relative asked about (partner_ill); beside a symptom alone not
        ("Has your wife ever been admitted to a psychiatric ward?", {"family_history"}, "partner"),
        ("Has your partner ever had mental health problems?", {"family_history"}, "partner"),
        # said to an informant, the kin word lends no relationships question; other words still ask it
        ("Mrs Khan, how has your husband's sleep been?", {"sleep"}, None),
        ("Mrs Khan, how are things between you and your husband?", {"relationships"}, None),
        # words another topic lends: spirits beside beer, the pill, calling in sick
        ("Do you have a drink - beer, wine or spirits?", {"alcohol"}, None),
        pytest.param("Are you on the pill at the moment?", {"pregnancy"}, None, marks=pytest.mark.xfail(strict=True, reason="stop 46: the topic reader deciding alone at 0.2 (leave-one-set-out choice) reads medication beside pregnancy (debatable: the pill is a medicine)")),
        ("Have you had to call in sick?", {"functioning", "work"}, None),
        ("Do you feel like you're running on empty?", {"energy"}, None),
        ("Did your grandad have any mental illness?", {"family_history"}, "grandparent"),
    ],
)
def test_stop29_general_readings(utterance, topics, relative):
    u = understand(utterance)
    assert (set(u.topics), u.relative) == (topics, relative)


@pytest.mark.parametrize(
    ("utterance", "topics", "relative"),
    [
        # a relative who watches the patient (a verb of observed_by, then "you") is an informant: the patient's own
        # symptom is asked, not the relative's history, nor the patient's relationships
        ("Has your wife noticed you've been drinking more?", ("alcohol",), None),
        ("Does your dad think you've been low lately?", ("mood",), None),
        ("Has your sister said you seem confused?", ("memory",), None),
        pytest.param("Does your wife know you've been gambling?", ("gambling",), None, marks=pytest.mark.xfail(strict=True, reason="stop 51: the reader refitted on heldout46..50 reads relationships (0.26) beside gambling: hiding gambling from a partner is a harm to the relationship the gambling screen asks of, so read, not mended")),
        ("Was your mum angry that you'd been drinking?", ("alcohol",), None),
        # the relative's own illness is still family history: no "you" after the verb, or no such verb
        ("Has your mum ever seen a psychiatrist?", ("family_history",), "mother"),
        pytest.param("Has your son ever said he hears voices?", ("family_history",), "child", marks=pytest.mark.xfail(strict=True, reason="stop 46: the topic reader deciding alone at 0.2 (leave-one-set-out choice) reads voices beside the son's history")),
        ("Has your dad ever been low?", ("family_history",), "father"),
        ("Does your youngest have any mental health problems?", ("family_history",), "child"),
        ("Did your auntie have depression?", ("family_history",), "other"),
    ],
)
def test_a_relative_who_watches_the_patient_is_no_family_history(utterance, topics, relative):
    u = understand(utterance)
    assert (u.topics, u.relative) == (topics, relative)


@pytest.mark.parametrize(
    ("utterance", "expected", "absent"),
    [
        # a parent's self-reproach and a wish for more children name no relative asked about
        ("Do you worry you're a bad mother?", "guilt_worth", "family_history"),
        ("Do you want more children?", "pregnancy", "family_history"),
        # street words: brown is heroin smoked, edibles are cannabis; out of the blue names no benzodiazepine
        ("Have you ever smoked brown?", "opioids", "tobacco"),
        ("Do you take edibles?", "cannabis", "tobacco"),
        ("Can you tell me about your sleep?", "sleep", "alcohol"),  # "can" is no can of lager
        ("Did you leave a note?", "suicide", None),
        ("Are you carrying a knife?", "violence", None),
        ("Do you hear him muttering to himself?", "voices", None),
        ("Is his speech hard to follow?", "psychotic_other", "development"),
        ("Are you on Universal Credit?", "money", None),
        ("Who pops in to see you?", "social_support", "closing"),
        ("Was she hard to potty train?", "development", "avoidance"),
        ("Do you feel you're a burden on your family?", "guilt_worth", "family_history"),
        ("Thanks for trusting me with this.", "rapport", "closing"),
        ("Do your voices give you orders?", "voices", "obsessions_compulsions"),
        ("Has anyone ever given you a police caution?", "forensic", None),
        ("How many cigs a day?", "tobacco", "alcohol"),
        ("Can I ask about alcohol, cigarettes and drugs?", "alcohol", None),  # a list asks each of its things
        # the refitted model no longer adds these on its own: the cues read them (a risk asked is never lost)
        ("Sometimes you are thinking to finish your life?", "suicide", None),
        ("What sort of things go round and round in your head?", "worry", None),
    ],
)
def test_stop34_readings(utterance, expected, absent):
    topics = understand(utterance).topics
    assert expected in topics, topics
    assert absent is None or absent not in topics, topics


def test_two_readers_of_a_held_out_topic_set_agree_about_as_the_target_asks():
    """Stop 45: a second psychiatrist-writer labelled heldout44's 460 utterances blind (the taxonomy and the utterances
    only). Their agreement with the first writer is the ceiling the 0.9 target is held against: 0.913 macro-F1, so the
    target is at human agreement. The benchmark prints it; the readers' file must hold the same utterances in order."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import topic_classifier

    (first, second), = topic_classifier.SECOND_READERS
    a, b = topic_classifier.load_labels(first), topic_classifier.load_labels(second)
    assert [r["utterance"] for r in a] == [r["utterance"] for r in b]
    agree, same = topic_classifier.readers_agreement(a, b)
    assert round(agree, 3) == 0.913 and round(same, 3) == 0.813
    assert topic_classifier.readers_agreement(a, a) == (1.0, 1.0)
    with pytest.raises(ValueError, match="same utterances"):
        topic_classifier.readers_agreement(a, b[1:])


@pytest.mark.parametrize("utterance", [
    "What do you do for enjoyment these days, and how does it feel?",
    "You mentioned you've been feeling low. That's a lot to carry. What do you do for enjoyment these days, and how "
    "does it feel?",
])
def test_a_question_with_its_own_subject_keeps_it_after_another(utterance):
    # review 2 of stop 46, M1: the anhedonia screen after a mood question was read as mood alone ("Not sure.")
    assert "interest" in understand(utterance, "How has your mood been over the past few weeks?").topics


@pytest.mark.parametrize("utterance, context", [
    ("Any thoughts of harming yourself?", "How has your mood been over the past few weeks?"),
    ("Have you had any thoughts of harming yourself?", "How has your mood been over the past few weeks?"),
])
def test_a_self_harm_screen_after_another_question_is_not_a_violence_question(utterance, context):
    # review 2 of stop 46, M2: the reader read violence at 0.28-0.36 beside self-harm; patients gave violence denials
    read = understand(utterance, context).topics
    assert "self_harm" in read and "violence" not in read


def test_a_question_about_harming_others_is_still_violence():
    assert "violence" in understand("Have you had thoughts of harming anyone else?",
                                    "Any thoughts of harming yourself?").topics


@pytest.mark.parametrize(
    ("utterance", "context", "topic"),
    [
        ("Who, specifically?", "Do you have people you can turn to?", "social_support"),
        ("Was that here, or somewhere else?", "Have you seen a psychiatrist before?", "past_psychiatric"),
        ("What about her speech?", "Any problems with her development as a baby?", "development"),
    ],
)
def test_a_short_follow_up_the_reader_reads_empty_keeps_the_cues_topic(utterance, context, topic, monkeypatch):
    """Stop 48: the reader gave each of these its previous turn's topic at 0.1-0.2 (under its bar) and nothing else,
    so the patient was asked nothing; a question read empty keeps the cues' topics the reader gives EMPTY_FLOOR or
    more. With the rule off the same reading is empty (the rule, not the data, does it)."""
    from mentalhospital_env.patient import understanding

    assert topic in understand(utterance, context).topics
    # stop 51: the reader refitted on heldout46..50 reads these follow-ups itself (the previous topic at 0.79-0.85),
    # so with the rules off they keep it too; the rule's half of this test no longer holds and is gone
    monkeypatch.setattr(understanding, "EMPTY_FLOOR", 1.0)
    monkeypatch.setattr(understanding, "CARRY_BARE", False)
    understanding._read.cache_clear()
    try:
        assert topic in understand(utterance, context).topics
    finally:
        understanding._read.cache_clear()


@pytest.mark.parametrize(
    ("utterance", "context"),
    [("Anything else?", "Do you ever hear voices?"), ("Okay.", "How is your sleep?")],
)
def test_the_empty_rule_leaves_the_open_question_and_a_turn_that_asks_nothing_alone(utterance, context):
    assert not set(understand(utterance, context).topics) & {"voices", "sleep"}


@pytest.mark.parametrize(
    ("utterance", "topic"),
    [
        ("I'll write to your GP today and let her know what we've talked about.", "closing"),
        ("Is the mirtazapine making you groggy in the mornings?", "medication"),
        ("Do you find you've run out of steam by the afternoon?", "energy"),
        ("Does the radio ever seem to refer to you?", "beliefs"),
        ("Is there anyone you want to get back at?", "violence"),
    ],
)
def test_stop_48_cue_phrases(utterance, topic):
    """Cue phrases added at stop 48 from heldout47's misses, each checked on the development sets first (e.g. "i'll
    write to" closing in 15 of 15 labelled utterances, the psychotropic drug names medication in 59 of 62)."""
    assert topic in understand(utterance).topics


@pytest.mark.parametrize(
    ("utterance", "context", "topic"),
    [
        ("Everyone? Who in particular?", "You said you feel you've let everyone down.", "guilt_worth"),
        ("All day, or is it better at some points?", "You've been feeling drained?", "energy"),
        ("What sort of things? Appointments, names, where you put your keys?", "You said you're forgetting things.",
         "memory"),
    ],
)
def test_a_question_with_no_subject_of_its_own_asks_the_previous_turns(utterance, context, topic):
    """Stop 49: after a reflection ("You said ...") the reader read the previous turn's topic at 0.01-0.09 and the
    patient was asked nothing, or only when (heldout48); a question with no subject of its own carries it."""
    assert topic in understand(utterance, context).topics


def test_a_question_with_a_subject_of_its_own_or_the_open_one_does_not_take_the_previous_turns():
    assert understand("Do you smoke at all?", "Do you ever hear voices when nobody is there?").topics == ("tobacco",)
    assert "voices" not in understand("Anything else?", "Do you ever hear voices when nobody is there?").topics


def test_the_bare_carry_is_the_rules_doing(monkeypatch):
    from mentalhospital_env.patient import understanding

    monkeypatch.setattr(understanding, "CARRY_BARE", False)
    understanding._read.cache_clear()
    try:
        # stop 51: the reader refitted on heldout46..50 (whose follow-ups after reflections keep the reflected topic)
        # carries it itself; the rule stays for the readings the reader leaves bare
        assert "guilt_worth" in understand("Everyone? Who in particular?",
                                           "You said you feel you've let everyone down.").topics
    finally:
        understanding._read.cache_clear()


@pytest.mark.parametrize(
    ("utterance", "topic"),
    [
        ("Do you ever think, what's the point?", "hopelessness"),
        ("Okay, and what about the grog? How much are you having?", "alcohol"),
        ("Has he had any run-ins with the Gardaí?", "forensic"),
        ("Any concerns from the health visitor in the first couple of years?", "development"),
        ("Do you feel your mind is being interfered with in any way?", "psychotic_other"),
        ("Any thougths of ending yuor life?", "suicide"),
    ],
)
def test_stop_49_cue_phrases(utterance, topic):
    """Cue phrases added at stop 49 from heldout48's misses, each checked on every labelled set first ("what's the
    point" hopelessness in 2 of 2 labelled utterances, "run-ins with" forensic 3 of 3, "health visitor" development
    6 of 7)."""
    assert topic in understand(utterance).topics


@pytest.mark.parametrize("utterance", ["Any drug allergies I should know about before I prescribe?",
                                       "NKDA, is that right? No known drug allergies?"])
def test_a_drug_allergy_question_is_no_drug_use_question(utterance):
    """Stop 49: no labelled utterance about allergies (96) asks about drug use; 'drug allergies' read other_drugs."""
    read = understand(utterance).topics
    assert "allergies" in read and "other_drugs" not in read


def test_periods_of_time_are_no_menstrual_periods():
    read = understand("Any periods where you needed hardly any sleep but didn't feel tired?").topics
    assert "mania" in read and "pregnancy" not in read


@pytest.mark.parametrize(
    ("utterance", "topic"),
    [
        ("When you cut, is it to end your life, or more to get some release?", "self_harm"),
        ("How many bags a day are you using at the moment?", "opioids"),
        ("Do you have to go back and make sure the gas is off, even when you know it is?", "obsessions_compulsions"),
        ("How many nights a week are you waking at four and not getting back off?", "course"),
    ],
)
def test_stop_49_cue_phrases_second_batch(utterance, topic):
    assert topic in understand(utterance).topics


def test_ketamine_is_a_drug_of_use_not_a_prescription():
    """Stop 49: 13 of 13 labelled utterances naming ketamine ask about drug use, none about medication."""
    read = understand("Have you ever taken anything like ketamine, mushrooms, acid?").topics
    assert "other_drugs" in read and "medication" not in read


@pytest.mark.parametrize(
    ("utterance", "context", "topic"),
    [
        ("What happened with the last job?", "Are you working at the moment?", "work"),
        ("You did the right thing coming in today, honestly.", None, "rapport"),
        ("What time do you get up, and what happens after that?", None, "daily_routine"),
    ],
)
def test_what_happened_with_a_subject_is_no_opening_question(utterance, context, topic):
    """Stop 49: 'what happened' is a cue of the complaint; 'what happened with ...', 'what happens after that', 'the
    right thing coming in' and 'how have you been coping' read it beside the subject asked (1 of 10 such labelled
    utterances asks the complaint), and the patient told the whole story again."""
    read = understand(utterance, context).topics
    assert topic in read and "chief_complaint" not in read


@pytest.mark.parametrize("utterance", ["Thanks for coming in, what brings you here today?",
                                       "You did the right thing coming in, so tell me what has been happening?",
                                       "And what happened then?"])
def test_the_opening_question_beside_those_words_is_still_read(utterance):
    assert "chief_complaint" in understand(utterance, "Can you tell me what brought you in?").topics


@pytest.mark.parametrize(
    ("utterance", "context", "expected", "absent"),
    [
        ("Only at weekends, or during the week as well?", "I take some ketamine when I go out.", "other_drugs",
         "daily_routine"),
        ("Is that on a typical day, or more at weekends?", "I put a few quid on the horses.", "gambling",
         "daily_routine"),
        ("Are you smoking more than you were?", "I have a bit of weed most nights.", "cannabis", "tobacco"),
        ("How much are you smoking now, roughly?", "I'm on the crack again.", "stimulants", "tobacco"),
    ],
)
def test_a_word_said_in_passing_of_the_previous_turns_substance_goes_on_with_it(utterance, context, expected, absent):
    # stop 50 (yields_to_before): the weekend or the smoking of a drug just named is no subject of its own
    topics = understand(utterance, context).topics
    assert expected in topics and absent not in topics


def test_a_relative_who_anchors_a_time_is_no_family_history():
    # stop 50 (anchored_by): "since your mum died" dates the drinking; nobody's illness in the family is asked
    topics = understand("Has your drinking got worse since your mum died?").topics
    assert "alcohol" in topics and "family_history" not in topics
    assert "family_history" in understand("Did your brother ever have a drink problem?").topics


@pytest.mark.parametrize(
    ("utterance", "expected", "absent"),
    [
        ("Is there anyone you can ring if things get bad at night?", "social_support", "sleep"),
        ("Do you get the urge to gamble more at night, in bed on your phone?", "gambling", "sleep"),
        ("Do you ever lie down at night hoping you won't wake up?", "suicide", "sleep"),
        ("How much charlie do you do in a weekend?", "stimulants", "daily_routine"),
        ("Any trouble at night?", "sleep", None),
        ("Do you have trouble getting to bed?", "sleep", None),
    ],
)
def test_the_night_or_the_bed_as_the_setting_of_another_question_asks_no_sleep(utterance, expected, absent):
    # stop 50: 'at night' and 'bed' are sleep's solo cues (a question's setting beside another subject)
    topics = understand(utterance).topics
    assert expected in topics and (absent is None or absent not in topics)


@pytest.mark.parametrize(
    ("utterance", "expected", "absent"),
    [
        ("Were you ever arrested for assault?", "forensic", "trauma"),
        ("Do you crash badly after the speed wears off?", "stimulants", "trauma"),
        ("Does your family know how bad it's got?", "social_support", "family_history"),
        ("Have you ever been assaulted?", "trauma", None),
        ("Has anyone in your family had depression?", "family_history", None),
    ],
)
def test_a_word_of_another_topic_used_in_passing_asks_nothing_of_it(utterance, expected, absent):
    # stop 50: an assault charged is forensic, a comedown's crash no trauma, a family that knows is support
    topics = understand(utterance).topics
    assert expected in topics and (absent is None or absent not in topics)


@pytest.mark.parametrize(
    ("utterance", "expected", "absent"),
    [
        ("Has he been smoking a lot of crack?", ("stimulants",), "tobacco"),
        ("Are you smoking any pot at all?", ("cannabis",), "tobacco"),
        ("Do you smoke, or use any cannabis?", ("tobacco", "cannabis"), None),
        ("Do you smoke anything, weed or cigarettes?", ("tobacco", "cannabis"), None),
        ("Do you smoke?", ("tobacco",), None),
    ],
)
def test_smoking_a_drug_is_no_tobacco(utterance, expected, absent):
    # stop 50 (verbs / object_yields): the verb's object says what is smoked
    topics = understand(utterance).topics
    assert all(t in topics for t in expected) and (absent is None or absent not in topics)


@pytest.mark.parametrize(
    ("utterance", "expected"),
    [
        ("What tends to bring those episodes on?", "trigger"),
        ("Are you feeling brighter these days?", "mood"),
        ("Are you feeling any brighter in yourself?", "mood"),
    ],
)
def test_a_complaints_frame_asked_beside_it(utterance, expected):
    # stop 50: what tends to bring it on is the trigger; feeling brighter, the mood
    assert expected in understand(utterance).topics


@pytest.mark.parametrize(
    ("utterance", "expected", "absent"),
    [
        ("How long after you wake up do you have your first drink?", "alcohol", "sleep"),
        ("Is it a diagnosis you want from us, or some support?", "goals", "past_psychiatric"),
        ("Do you wake up early?", "sleep", None),
    ],
)
def test_waking_as_a_time_and_a_diagnosis_wished_for_ask_nothing_of_them(utterance, expected, absent):
    # stop 50 (read on heldout49's odd half after its figure was taken; heldout43 and heldout47 hold the same form)
    topics = understand(utterance).topics
    assert expected in topics and (absent is None or absent not in topics)


@pytest.mark.parametrize(
    "utterance",
    ["Do you lie in bed going over and over the day?", "Do you lie in bed going over and over things that happened?"],
)
def test_lying_in_bed_is_still_a_sleep_question(utterance):
    # stop 50: 'bed' became a solo cue, and 'lie in bed ... over and over' fell to nothing or to obsessions
    assert "sleep" in understand(utterance).topics
    assert "obsessions_compulsions" not in understand(utterance).topics


@pytest.mark.parametrize(
    "utterance",
    ["What are you using at the moment?", "What have you been using?", "What else are you using?"],
)
def test_using_with_no_object_asks_about_drugs(utterance):
    # stop 50 (exam dev-0022: 'What are you using at the moment?' read as nothing, answered with the complaint)
    assert "other_drugs" in understand(utterance).topics


@pytest.mark.parametrize(
    ("section", "sentence", "expected", "absent"),
    [
        ("personal_history", "He lives with his parents, who are supportive but worry he'll end up on his own.", None, "worry"),
        ("history_of_present_illness", "Her mother is worried about her weight.", None, "worry"),
        ("history_of_present_illness", "In conversations he rehearses what to say and replays conversations for hours afterwards.",
         "worry", None),
        ("history_of_present_illness", "She is worried about her exams.", "worry", None),
    ],
)
def test_a_relatives_worry_is_not_the_patients(section, sentence, expected, absent):
    # stop 50 (exam hw-022: 'What goes through your mind when you're with people?' was answered with the parents'
    # worry; the rehearsing and replaying that answer it were filed under no topic)
    from mentalhospital_env.patient.understanding import record_topics

    found = record_topics(section, sentence)
    assert (expected is None or expected in found) and (absent is None or absent not in found)


@pytest.mark.parametrize(
    ("utterance", "context", "expected", "absent"),
    [
        # waking up is suicide only when hoped or wished away
        ("Do you worry you won't wake up in time for work?", None, None, "suicide"),
        ("Do you ever wish you wouldn't wake up?", None, "suicide", None),
        # a name is no cocaine; a drug frame is
        ("How is Charlie getting on at school?", None, None, "stimulants"),
        ("Are you still on the charlie at weekends?", None, "stimulants", None),
        # an explicit tobacco question, or one after a general drug question, is tobacco
        ("Do you smoke?", "I use heroin most days.", "tobacco", None),
        ("Are you a smoker?", "I use heroin most days.", "tobacco", None),
        # waking as the time of a drink asks no sleep, but rested after waking does
        ("Do you feel rested after you wake up?", None, "sleep", None),
        ("How long after you wake up do you have your first drink?", None, "alcohol", "sleep"),
        pytest.param("How much are you smoking now?", "Do you use any drugs?", "tobacco", None,
                     marks=pytest.mark.xfail(strict=True, reason="stop 53: the reader refitted with heldout52 (whose "
                                             "writer files smoking 'herb' and 'weed' under cannabis) reads cannabis 0.23 "
                                             "over tobacco 0.17 after a general drug question, an ambiguous reading; "
                                             "uw-021's patient, whose deflection pinned it, still answers with its "
                                             "tobacco ('Tobacco, 20 roll-your-own a day since 14.')")),
    ],
)
def test_s50_review_cues_need_their_frame(utterance, context, expected, absent):
    topics = understand(utterance, context).topics
    assert expected is None or expected in topics
    assert absent is None or absent not in topics


@pytest.mark.parametrize(
    "utterance, expected, absent",
    [
        # sleeping rough is where one lives, sleeping with someone or around is sex: no sleep question
        ("Are you sleeping rough at the moment?", "living_situation", "sleep"),
        ("Have you slept rough since you lost the flat?", "living_situation", "sleep"),
        ("Are you sleeping with anyone at the moment?", "relationships", "sleep"),
        ("Were you doing anything reckless, like driving fast or sleeping around?", "mania", "sleep"),
        ("How are you sleeping these days?", "sleep", None),
        # 'bud' as a form of address is no cannabis; in a drug frame it is
        ("So what's up, bud? Your teacher said you wanted to talk.", None, "cannabis"),
        ("Do you smoke any bud at weekends?", "cannabis", None),
        # smoking anything other than cigarettes asks of what else is smoked, not of the cigarettes
        ("Do you smoke anything other than cigarettes?", "cannabis", "tobacco"),
        # an informant asked what the patient does: talking to himself as if listening, recognising the family
        ("Has he been chatting away to himself lately?", "voices", None),
        ("Does she seem to be listening to something that isn't there?", "voices", None),
        ("Does he still recognise you and the grandchildren?", "memory", None),
        ("Do you ever look in the mirror and not recognise yourself?", None, "memory"),
    ],
)
def test_s51_cues_read_a_passing_word_in_its_frame(utterance, expected, absent):
    from mentalhospital_env.patient.understanding import cue_reading

    topics = cue_reading(utterance).topics
    assert expected is None or expected in topics
    assert absent is None or absent not in topics


@pytest.mark.parametrize(
    "utterance, expected, absent",
    [
        # a drinker is drinking: the patient's, or a relative's (family history)
        ("Are you much of a drinker these days?", "alcohol", None),
        ("Your uncle, was he a drinker at all?", "family_history", None),
        # a relative after 'after' or 'when' anchors a time, and is not the one whose illness is asked
        ("Did the panic attacks start after your grandfather died?", "panic", "family_history"),
        ("Has the drinking been worse after your wife left?", "alcohol", "family_history"),
        # kin words of South Asian families name grandparents
        ("Did your dadi ever see a psychiatrist?", "family_history", None),
    ],
)
def test_s51_relatives_named_as_kin_or_as_a_time(utterance, expected, absent):
    from mentalhospital_env.patient.understanding import cue_reading

    topics = cue_reading(utterance).topics
    assert expected is None or expected in topics
    assert absent is None or absent not in topics


def test_s51_a_grandmother_by_a_family_word_is_the_relative_asked():
    assert understand("Did your nani ever have spells of very low mood?").relative == "grandparent"


@pytest.mark.parametrize(
    "utterance, relative",
    [
        # review rv51 M1: 'when'/'after' before a relative whose own illness or substance use is the clause's
        # subject: the relative is the one asked, not a time's anchor
        ("When your brother was using, did he ever overdose?", "sibling"),
        ("After your uncle's suicide, how did you cope?", "other"),
        ("After your mum's overdose, how did you cope?", "mother"),
        ("When your mum was unwell, was she ever in hospital?", "mother"),
        ("Did things get worse after your brother started using drugs?", "sibling"),
        ("What was it like when your dad was drinking heavily?", "father"),
    ],
)
def test_s51_when_after_a_relatives_illness_keeps_the_relative(utterance, relative):
    u = understand(utterance)
    assert u.relative == relative, (u.topics, u.relative)
    assert "family_history" in u.topics, u.topics


@pytest.mark.parametrize(
    "utterance, expected",
    [
        # the relative's death or leaving anchors a time in a question about the patient
        ("Did your drinking start after your gran died?", "alcohol"),
        ("How did you cope after your grandmother died?", None),
        ("Did the low mood come on after your mum passed?", "mood"),
    ],
)
def test_s51_when_after_a_relatives_death_is_a_time(utterance, expected):
    u = understand(utterance)
    assert "family_history" not in u.topics, u.topics
    assert expected is None or expected in u.topics, u.topics


@pytest.mark.parametrize(
    "utterance, context, expected",
    [
        # review rv51 M2: a means or whereabouts question after a question about harm to others, read empty by the
        # reader, keeps the sensitive topic the reader gives 0.5 or more (violence 0.60) instead of reading nothing
        ("Is there a gun in the house?", "Does he have a temper?", "violence"),
        pytest.param("Do you know where she lives?", "Have you thought about harming your ex?", "violence",
                     marks=pytest.mark.xfail(strict=True, reason="the reader gives violence 0.02 here ('where she "
                                             "lives' reads living_situation 0.09), under FLOOR_RISK_BACK; before "
                                             "stop 51 the old floor gave back self_harm, the wrong risk")),
    ],
)
def test_s51_empty_floor_keeps_a_sensitive_previous_topic(utterance, context, expected):
    u = understand(utterance, context)
    assert u.topics, u.topics
    assert expected is None or expected in u.topics, u.topics


@pytest.mark.parametrize(
    "utterance, context",
    [
        # review rv51 M3: threats to kill others and harm to an ex are violence, not the patient's own suicide or
        # self-harm (the fallback cues 'kill' and 'harm' read them so)
        ("Has he ever threatened to kill anyone?", None),
        ("Have you thought about harming your ex?", None),
    ],
)
def test_s51_harm_to_others_is_violence_not_own_risk(utterance, context):
    u = understand(utterance, context)
    assert "violence" in u.topics, u.topics
    assert "self_harm" not in u.topics and "suicide" not in u.topics, u.topics


@pytest.mark.parametrize(
    "utterance, expected, absent",
    [
        # review rv51 S1: 'recognise you' is memory only in a memory frame ('still recognise you')
        ("Do you think people would recognise you were struggling?", None, "memory"),
        ("Does she still recognise you when you go in?", "memory", None),
        # S2: a bit blue is low mood
        ("Have you been feeling a bit blue?", "mood", None),
        # S4: someone to mind the children while the patient is ill is support
        ("Does anyone look after the children when you're unwell?", "social_support", None),
    ],
)
def test_s51_review_cues(utterance, expected, absent):
    u = understand(utterance)
    assert expected is None or expected in u.topics, u.topics
    assert absent is None or absent not in u.topics, u.topics


@pytest.mark.parametrize(
    "utterance, context, expected",
    [
        # review rv51 S3 (hw-012.a6): the arguing's course after a question on home rules; the reader gives onset
        # 0.18, under its bar, and the bare-frame carry gives back living_situation (the patient told who lives with
        # him). The labelled sets read arguing as relationships, trigger or childhood by frame: no honest cue
        pytest.param("How long has the arguing been this bad?", "How are things at home, with requests and rules?",
                     "onset", marks=pytest.mark.xfail(strict=True, reason="reader onset 0.18 under its bar 0.2")),
        # S5 (hw-014.a4): after the question on what the overdose was meant to do, a question about being here now
        # still asks about the attempt; the reader gives suicide 0.15, not carried under its bar
        pytest.param("How do you feel about being here now?", "What did you want to happen when you took them?",
                     "suicide", marks=pytest.mark.xfail(strict=True, reason="reader suicide 0.15 under its bar 0.2")),
    ],
)
def test_s51_review_follow_ups_the_reader_misses(utterance, context, expected):
    assert expected in understand(utterance, context).topics


@pytest.mark.parametrize(
    "utterance, context, expected, absent",
    [
        # stop 52 (heldout51's even half): "safe" after partner violence asks of the patient's safety from him, not
        # of suicide (suicide passing_cues with yields_to_before trauma/relationships)
        ("Are you still in touch with him? Are you safe now?", "He used to knock me about.", "trauma", "suicide"),
        ("Are you safe now?", "Has your partner ever hit you?", "trauma", "suicide"),
        # any other suicide cue beside it keeps the screen, and 'safe' after a suicide question stays suicide
        ("Are you safe? Any thoughts of ending your life?", "Has your partner ever hit you?", "suicide", None),
        ("Are you safe right now?", "Have you had any thoughts of ending your life?", "suicide", None),
        ("Are you somewhere safe right now?", None, "suicide", None),
        # somewhere safe to sleep is a roof, not a suicide screen
        ("Have you got somewhere safe to kip tonight, or is it the night shelter again?", None, "living_situation",
         "suicide"),
        # a passing word of another topic: sexual side effects are no abuse, eating and drinking is no alcohol
        ("Has the fluoxetine given you any funny side effects, like feeling jittery or sexual problems?", None,
         "medication", "trauma"),
        ("Mr Jones, has your wife been eating and drinking properly at home?", None, "appetite", "alcohol"),
        ("Has anyone ever hurt you sexually?", None, "trauma", None),
        ("How much are you drinking a week?", None, "alcohol", None),
    ],
)
def test_s52_passing_words_and_safety_after_violence(utterance, context, expected, absent):
    u = understand(utterance, context)
    assert expected in u.topics, u.topics
    assert absent is None or absent not in u.topics, u.topics


@pytest.mark.parametrize(
    "utterance, expected, absent",
    [
        # stop 52 (heldout51's even half): words of a topic no cue knew, each met in earlier labelled sets too
        ("Do you play the pokies much?", "gambling", None),
        ("Do you ever chase your losses?", "gambling", None),
        ("Do you chew paan or gutka?", "tobacco", None),
        ("Has tik ever come your way?", "stimulants", None),
        ("Do you feel hooked on the painkillers?", "opioids", None),
        ("Have you ever done time, been inside?", "forensic", None),
        ("Has she dropped a dress size or two, would you say?", "weight", None),
        ("Are your monthlies regular?", "pregnancy", None),
        ("Do your thoughts sometimes stop dead in the middle of a sentence?", "psychotic_other", "suicide"),
        ("Can you tell me who's running the country at the moment?", "memory", None),
        ("Take me through an ordinary weekday, hour by hour.", "daily_routine", None),
        ("Did you get a statement or an EHCP for special educational needs?", "education", "beliefs"),
        ("Have you been keeping your head above water with the mortgage?", "money", None),
        # passing words of another topic: a chapter got through is no drink, crashing on the sofa no crash, harm to
        # another person is no self-harm, housing benefit is money
        ("Can you get through a newspaper article without losing the thread?", None, "alcohol"),
        ("How much wine do you get through a night?", "alcohol", None),
        ("Do you end up crashing on the sofa in the afternoon because the nights are so bad?", "sleep", "trauma"),
        ("Since the crash, do you get any pictures of it popping up in your mind?", "trauma", None),
        ("Alongside the anger, have there been thoughts of doing actual harm to another person?", "violence",
         "self_harm"),
        ("Are you claiming anything at the moment, ESA, Universal Credit, housing benefit?", "money",
         "living_situation"),
    ],
)
def test_s52_words_no_cue_knew(utterance, expected, absent):
    u = understand(utterance)
    assert expected is None or expected in u.topics, u.topics
    assert absent is None or absent not in u.topics, u.topics


@pytest.mark.parametrize("utterance", [
    "Is anything happening online that's worrying you?",
    "Is anyone online bothering you?",
    "Anything on your phone or apps upsetting you?",
    "Have you met anyone through the internet?",
    "Is anyone on social media sending you messages?",
])
def test_s52_online_contact_is_a_safeguarding_question(utterance):
    """Stop 52's refit read only worry in hw-040's "Is anything happening online that's worrying you?" (trigger 0.2),
    and the girl groomed and threatened on a gaming app answered "I'm not a big worrier."; the other wordings read
    nothing or the complaint. Online contact is asked as a risk to the patient (trauma: sensitive, so the cues carry
    it past the reader), and a record's grooming facts are filed there."""
    assert "trauma" in understand(utterance).topics


@pytest.mark.parametrize("utterance, topic", [
    ("Do you buy painkillers online?", "opioids"),
    ("Do you bet online at all?", "gambling"),
])
def test_s52_online_purchases_are_no_safeguarding_question(utterance, topic):
    topics = understand(utterance).topics
    assert topic in topics and "trauma" not in topics


def test_s52_online_grooming_is_told_to_the_safeguarding_question():
    """hw-040 (15, overdose at school): after a first guarded answer she tells the messages and the threat."""
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient import make_patient

    case = next(c for c in load_suite("handwritten").cases if c.case_id == "hw-040")
    patient = make_patient(case, variant="full", seed=0)
    replies = [patient.respond(q).text.lower() for q in (
        "Ruby, can you tell me what happened today?", "That sounds really hard. Thank you for telling me.",
        "Is anything happening online that's worrying you?",
        "You're not in trouble, and I'm here to help. Is anyone online bothering you?",
        "Has anyone online asked you for pictures?")]
    assert "worrier" not in replies[2]
    told = " ".join(replies[3:])
    assert "photos" in told or "pictures" in told or "gaming app" in told


def test_s52_changed_routes_answer_the_avoidance_question():
    """hw-004 (panic attacks that began on the motorway): 'swapped motorway routes for slower roads' was filed under
    worry, panic and work, never avoidance, and 'Have you changed anything you do because of them?' (avoidance) was
    answered with the attacks themselves once the coffee (sensitive) was not told. Driving avoided is avoidance."""
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient import make_patient

    case = next(c for c in load_suite("handwritten").cases if c.case_id == "hw-004")
    patient = make_patient(case, variant="full", seed=0)
    assert "slower roads" in patient.respond("Have you changed anything you do because of them?").text
