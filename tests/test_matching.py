"""Semantic matching: embedders, the clinical adjudicator, the LLM judge, the jury and the Matcher."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mentalhospital_env.rewards.adjudication import (
    ClinicalAdjudicator,
    Jury,
    LLMJudge,
    amount_level_clash,
    contrary_clash,
    amount_levels,
    make_adjudicator,
    parse_yes_no,
    statement_conflict,
    when_clash,
)
from mentalhospital_env.knowledge.language import quantities
from mentalhospital_env.rewards.embedders import EmbeddingCache, HashingEmbedder, make_embedder
from mentalhospital_env.rewards.matching import CoverageResult, Matcher, MatcherConfig, output_units

from mentalhospital_env.llm import GenerationSettings, ScriptedClient


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher()


# --- embedders -------------------------------------------------------------------------------------


def test_hashing_embedder_gives_unit_vectors_and_is_deterministic():
    a = HashingEmbedder()
    b = HashingEmbedder()
    texts = ["hears voices at night", "Denies suicidal ideation.", "", "   "]
    va, vb = a.encode(texts), b.encode(texts)
    assert va.shape == (4, a.dimension) and va.dtype == np.float32
    assert np.allclose(va, vb)
    norms = np.linalg.norm(va, axis=1)
    assert np.allclose(norms[:2], 1.0, atol=1e-5)
    assert np.allclose(norms[2:], 0.0)  # nothing to embed: the zero vector, never NaN


def test_hashing_embedder_ranks_related_text_above_unrelated():
    e = HashingEmbedder()
    assert e.similarity("hearing voices", "I hear voices") > e.similarity(
        "hearing voices", "my appetite is fine"
    )
    assert e.similarity("sleep", "sleeping") > 0.3


def test_embedding_cache_encodes_each_text_once_and_is_bounded():
    e = HashingEmbedder(cache_size=3)
    calls: list[list[str]] = []
    original = e._embed

    def counting(texts):
        calls.append(list(texts))
        return original(texts)

    e._embed = counting  # type: ignore[method-assign]
    e.encode(["a b", "a b", "c d"])
    assert calls == [["a b", "c d"]]  # a repeated text is embedded once
    e.encode(["c d", "a b"])
    assert len(calls) == 1  # both cached
    e.encode(["e f", "g h"])  # evicts the least recently used ("c d")
    assert len(e.cache) == 3 and "c d" not in e.cache and "a b" in e.cache
    assert e.cache.hits >= 2


def test_embedding_cache_rejects_bad_size():
    with pytest.raises(ValueError, match="max_size"):
        EmbeddingCache(0)


def test_encode_rejects_non_text():
    with pytest.raises(TypeError, match="text 1"):
        HashingEmbedder().encode(["ok", 3])  # type: ignore[list-item]


def test_make_embedder_names_bad_spec():
    assert make_embedder("hashing:256").dimension == 256
    with pytest.raises(ValueError, match="unknown embedder"):
        make_embedder("word2vec")


# --- negation, polarity, subject and time frame ----------------------------------------------------


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Hears voices", "Denies hearing voices"),
        ("Denies hearing voices", "I hear voices at night"),
        ("Reports suicidal ideation", "I have never wanted to kill myself"),
        ("Drinks alcohol daily", "I don't drink at all"),
    ],
)
def test_negation_always_vetoes(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None
    assert not matcher.entails(checkpoint, output)
    # also above any threshold: even a matcher that accepts every similarity refuses
    assert not Matcher(MatcherConfig(threshold=-1.0)).entails(checkpoint, output)


def test_negated_checkpoint_is_covered_by_a_denial(matcher):
    assert matcher.entails(
        "Denies suicidal ideation", "No, I have never had thoughts of wanting to kill myself."
    )


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Reports low mood", "My mother has been feeling low for years"),
        ("Hears voices", "My brother hears voices"),
    ],
)
def test_a_relative_never_covers_the_patient(matcher, checkpoint, output):
    assert "subject" in (statement_conflict(checkpoint, output) or "")
    assert not Matcher(MatcherConfig(threshold=-1.0)).entails(checkpoint, output)


def test_a_denial_for_the_whole_family_covers_no_family_history(matcher):
    # the family is the subject of the output, but a family history has no subject to differ
    assert matcher.entails("No family psychiatric history.", "Nobody in my family has had any mental health problems.")
    # the patient's own diagnosis, or one relative's, is no word on the family
    assert not matcher.entails("Family history of bipolar disorder.", "I was diagnosed with bipolar disorder.")
    assert not matcher.entails("Family history of bipolar disorder.", "My brother's never had bipolar disorder.")


def test_a_verb_done_to_the_patient_is_the_patients(matcher):
    # "she" is the GP, who referred the patient: the referral is the patient's, as "was referred" is
    assert matcher.entails("Referred by the GP.", "I saw my GP and she referred me on.")
    assert not matcher.entails("Referred by the GP.", "My GP referred my wife to the memory clinic.")


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        ("Hears voices.", "I heard voices once when I had a fever as a child.", False),
        ("Low mood for two months.", "I had a bad patch of low mood years ago, but I've been fine since.", False),
        ("Hears voices.", "I started hearing voices years ago and they've never stopped.", True),
        ("Hears voices.", "I've been hearing voices for the last few weeks.", True),
    ],
)
def test_a_finding_said_only_long_ago_is_no_present_finding(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


def test_family_history_is_covered_by_the_relative(matcher):
    assert matcher.entails("Mother has a history of depression", "My mother had depression when I was young.")


def test_a_background_clause_does_not_change_the_subject(matcher):
    assert matcher.entails(
        "Feeling low since her husband left", "I've been feeling low since my husband left."
    )


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Poor sleep", "I have been sleeping too much"),
        ("Low mood", "My mood has been elevated"),
        ("Weight loss", "I've gained a lot of weight"),
    ],
)
def test_polarity_flips_are_refused(checkpoint, output):
    assert "direction" in (statement_conflict(checkpoint, output) or "")
    assert not Matcher(MatcherConfig(threshold=-1.0)).entails(checkpoint, output)


def test_past_does_not_cover_current():
    checkpoint = "Currently drinking heavily"
    output = "I used to drink heavily years ago"
    assert "time" in (statement_conflict(checkpoint, output) or "")
    assert not Matcher(MatcherConfig(threshold=-1.0)).entails(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("She still sees herself as too big and is frightened of gaining weight.", "I want to put some weight back on."),
        ("He avoids the motorway.", "I drive on the motorway every day without any bother."),
        ("The decline has been gradual.", "It came on suddenly last week."),
        ("Neatly dressed.", "Unkempt and dishevelled."),
        ("Lives alone in a rented flat.", "I live with my parents."),
    ],
)
def test_an_opposite_without_a_negation_word_is_refused(checkpoint, output):
    assert "opposite meaning" in (statement_conflict(checkpoint, output) or "")
    assert not Matcher(MatcherConfig(threshold=-1.0)).entails(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("The decline has been slow, with no sudden steps.", "It's crept on slowly, no sudden drops."),
        ("Denies feeling restless or agitated.", "I feel calm most of the time."),
        ("Reports loss of interest in previously enjoyed activities.", "I don't enjoy the things I used to."),
    ],
)
def test_a_side_under_a_negation_is_the_other_side(matcher, checkpoint, output):
    assert "opposite meaning" not in (statement_conflict(checkpoint, output) or "")


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        # a word for a class of findings reads as each member (language.json umbrella_terms)
        ("No hallucinations.", "I don't hear voices and I don't see things that aren't there.", True),
        ("No perceptual disturbance; none elicited.", "Perception: denies hallucinations.", True),
        ("No abnormal perceptions.", "I've never heard voices.", True),
        ("No hallucinations.", "I see shadows moving in the corner of my eye.", False),
        # a diagnosis's specifier is no finding of the note, and no member's phrasing stands for the class
        ("No abnormal perceptions.", "Most consistent with depression, severe without psychotic features.", False),
        ("No perceptual abnormalities.", "Nothing much stands out.", False),
    ],
)
def test_a_class_of_findings_is_said_by_its_members(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, why",
    [
        # the longer of two overlapping phrases is what the clause says: "few close friends", not "close friends"
        ("Has few close friends.", "I've got lots of close friends.", "opposite meaning"),
        ("Drinks about 10 units a week, unchanged.", "I'm drinking twice as much as I used to.", "opposite meaning"),
        ("Periods regular.", "My periods stopped in the spring.", "negation"),
        ("Smokes 20 a day.", "I smoke about twenty a week.", "quantity"),
    ],
)
def test_contraries_and_amounts_refuse(checkpoint, output, why):
    assert why in (statement_conflict(checkpoint, output) or "")
    assert not Matcher(MatcherConfig(threshold=-1.0)).entails(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Periods regular.", "Yes, my periods have been regular."),
        ("Smokes 20 a day.", "I smoke twenty a day."),
        # a word negated inside its concept's own phrase ("not eating", food restriction) and the same word
        # plainly negated say the same thing
        ("Could not sleep for a week after stopping.", "When I stopped I couldn't sleep for a week."),
    ],
)
def test_the_same_thing_in_other_words_is_no_conflict(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is None
    assert matcher.entails(checkpoint, output)


@given(st.integers(min_value=2, max_value=99), st.sampled_from(["one", "two", "three", "five", "nine"]))
@settings(max_examples=40, deadline=None)
def test_a_number_in_digits_takes_no_number_word_after_it(age, word):
    # "Married at 45; one son" is one son, never 46
    value = {"one": 1, "two": 2, "three": 3, "five": 5, "nine": 9}[word]
    found = quantities(f"Married at {age}; {word} sons, both at school.")
    assert (float(value), "son") in found and (float(age + value), "son") not in found


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("She washes her hands up to forty times a day.", "I wash my hands before meals, like anyone."),
        ("He has drunk heavily for ten years.", "I have a glass of wine at Christmas."),
        ("A glass of wine on Saturdays.", "I get through a bottle of wine every night."),
        ("Drinks two pints on a Friday.", "I'm on the beer every night."),
    ],
)
def test_another_amount_or_frequency_is_refused(checkpoint, output):
    assert "amount" in (statement_conflict(checkpoint, output) or "")
    assert not Matcher(MatcherConfig(threshold=-1.0)).entails(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Nightmares about the assault several times a week.", "I have bad dreams about being attacked most nights."),
        ("Binge drinks at weekends, about 16 units a night.", "Fridays and Saturdays I have about sixteen units each night."),
        ("Denies heavy drinking.", "I only have a glass of wine now and then."),
    ],
)
def test_amounts_of_the_same_level_agree(checkpoint, output):
    assert "amount differs" not in (statement_conflict(checkpoint, output) or "")


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("His mother had a stroke.", "My wife's mother had a stroke."),
        ("Her sister has autism.", "My sister's daughter has autism."),
        ("Her mother takes lithium for bipolar disorder.", "My mum looks after my aunt, who takes lithium for bipolar disorder."),
    ],
)
def test_a_relative_of_a_relative_is_another_relative(checkpoint, output):
    assert "subject differs" in (statement_conflict(checkpoint, output) or "")


def test_a_relative_of_a_relative_names_the_in_law(matcher):
    assert matcher.entails("Her mother-in-law has dementia.", "My husband's mum has dementia.")


def test_a_duration_alone_does_not_carry_a_finding(matcher):
    """An onset reply ("it started around six months ago") carries a checkpoint's duration, not its finding."""
    assert not matcher.entails("Nightmares for six months.", "I'd say it started around six months ago.")
    assert matcher.entails("Symptoms for six months.", "It started six months ago.")
    assert matcher.entails("Low mood for two months.", "I've felt down for two months.")
    # a statement of onset or course is about when: an onset reply answers it
    assert matcher.entails("Presents with callousness of three years duration.", "I'd say it started around three years ago.")


def test_a_heading_does_not_deny_a_denial(matcher):
    """A note's heading names the finding that its answer denies: the denial answers for the heading's words."""
    assert matcher.entails("No known drug allergies.", 'Allergies: Drug allergies: "No allergies.')
    assert matcher.entails("No known drug allergies.", "No allergies.")
    assert not matcher.entails("No known drug allergies.", "I'm allergic to penicillin.")


@pytest.mark.parametrize(
    "checkpoint, output, reason",
    [
        ("Smokes 30 cigarettes a day.", "I smoke about five a day.", "quantity"),
        ("Self-harms by cutting.", "I cut myself as a teenager but haven't for fifteen years.", "time"),
        ("His brother died by suicide.", "My brother's friend died by suicide.", "subject"),
    ],
)
def test_a_bare_rate_an_ended_habit_and_a_relatives_friend_are_refused(checkpoint, output, reason):
    assert reason in (statement_conflict(checkpoint, output) or "")


# --- adjudicators ----------------------------------------------------------------------------------


def test_clinical_adjudicator_uses_lexicon_lay_phrases():
    adj = ClinicalAdjudicator()
    assert adj.judge("Auditory hallucinations", "I hear voices when nobody is around") is True
    assert adj.judge("Auditory hallucinations", "I sleep fine") is False


@pytest.mark.parametrize(
    "reply, verdict",
    [
        ("Yes", True),
        ("yes.", True),
        ("**No**", False),
        ("No, the statement is about a relative.", False),
        ("Answer: yes", True),
        ('{"entailed": false}', False),
        ("<think>the patient says no... but yes it matches</think>\nYes", True),
        ("Let me think. The checkpoint is about mood. Final answer: no", False),
        ("I cannot tell", None),
        ("", None),
    ],
)
def test_parse_yes_no(reply, verdict):
    assert parse_yes_no(reply) is verdict


@given(st.text())
@settings(max_examples=200, deadline=None)
def test_parse_yes_no_never_raises(reply):
    assert parse_yes_no(reply) in (True, False, None)


def test_llm_judge_batches_and_abstains_on_unreadable_replies():
    client = ScriptedClient(["yes", "no", "maybe?"])
    judge = LLMJudge(client)
    verdicts = judge.judge_many([("a", "b"), ("c", "d"), ("e", "f")])
    assert verdicts == [True, False, None]
    assert len(client.calls) == 1 and len(client.calls[0].conversations) == 3  # one batched call
    assert "Checkpoint: c" in client.calls[0].conversations[1][-1]["content"]
    assert judge.failures == 1


def test_llm_judge_abstains_when_the_call_fails():
    client = ScriptedClient([])  # no replies and no default: the client raises LLMError
    judge = LLMJudge(client, GenerationSettings(max_new_tokens=4))
    assert judge.judge_many([("a", "b"), ("c", "d")]) == [None, None]
    assert judge.failures == 2


def test_jury_takes_the_majority_and_ties_are_refused():
    yes = LLMJudge(ScriptedClient(default="yes"), name="yes")
    no = LLMJudge(ScriptedClient(default="no"), name="no")
    broken = LLMJudge(ScriptedClient([]), name="broken")
    assert Jury([yes, yes, no]).judge("a", "b") is True
    assert Jury([yes, no]).judge("a", "b") is False  # tie: not entailed
    assert Jury([yes, broken]).judge("a", "b") is True  # abstention does not vote
    assert Jury([broken, broken]).judge("a", "b") is None


def test_make_adjudicator_names_what_is_wrong():
    assert make_adjudicator("clinical").name == "clinical"
    assert make_adjudicator("none") is None
    with pytest.raises(ValueError, match="needs an LLM"):
        make_adjudicator("llm")
    with pytest.raises(ValueError, match="unknown adjudicator"):
        make_adjudicator("oracle")
    jury = make_adjudicator("jury", [ScriptedClient(default="yes"), ScriptedClient(default="no")])
    assert isinstance(jury, Jury) and len(jury.members) == 3


def test_matcher_with_llm_judge_sends_only_pairs_below_threshold():
    client = ScriptedClient(default="yes")
    m = Matcher(MatcherConfig(adjudicator="llm", llm=None), adjudicator=LLMJudge(client))
    # "denies" vs "hears": the veto decides before any judge is asked
    assert not m.entails("Denies hearing voices", "I hear voices")
    assert client.calls == []
    assert m.entails("Reports poor concentration at work", "Work has been hard, my focus is gone")
    assert len(client.calls) == 1


# --- Matcher and coverage --------------------------------------------------------------------------


def test_coverage_reports_which_unit_covered_which_checkpoint(matcher):
    checkpoints = [
        "Hears voices at night",
        "Denies suicidal ideation",
        "Drinks two glasses of wine most evenings",
    ]
    reply = "I hear voices at night. I never think about killing myself. I sleep okay."
    result = matcher.coverage(checkpoints, reply)
    assert isinstance(result, CoverageResult)
    assert set(result.matched) == {"0", "1"}
    assert result.matched["0"].unit_index == 0 and result.matched["1"].unit_index == 1
    assert result.score == pytest.approx(2 / 3)
    assert result.missed == ("2",)


def test_coverage_encodes_each_text_once(matcher):
    e = HashingEmbedder()
    seen: list[str] = []
    original = e._embed
    e._embed = lambda texts: (seen.extend(texts), original(texts))[1]  # type: ignore[method-assign]
    m = Matcher(embedder=e)
    checkpoints = [f"Checkpoint number {i} about sleep" for i in range(20)]
    units = [f"I sleep badly on night {i}" for i in range(30)]
    m.coverage(checkpoints, units)
    assert sorted(seen) == sorted(set(checkpoints) | set(units))


def test_coverage_of_nothing():
    m = Matcher()
    assert m.coverage([], "anything").score == 0.0
    assert m.coverage(["Low mood"], "").score == 0.0
    with pytest.raises(TypeError, match="not one string"):
        m.coverage("Low mood", "I feel low")  # type: ignore[arg-type]


def test_matcher_config_validation():
    with pytest.raises(ValueError, match="threshold"):
        MatcherConfig(threshold="high")
    with pytest.raises(ValueError, match="threshold"):
        MatcherConfig(threshold=2.0)


def test_default_threshold_comes_from_the_calibration_file():
    raw = json.loads(
        resources.files("mentalhospital_env.rewards").joinpath("data/thresholds.json").read_text()
    )
    assert Matcher().threshold == pytest.approx(raw["embedders"]["hashing"]["threshold"])


@pytest.mark.slow
def test_sentence_transformers_backend_loads_a_local_model_the_user_names(tiny_llama_path):
    """Any local folder works (here the tiny random model of the test fixtures, wrapped with mean pooling)."""
    embedder = make_embedder(f"sentence-transformers:{tiny_llama_path}")
    assert embedder.name == f"sentence-transformers:{tiny_llama_path}"
    vectors = embedder.encode(["hears voices", "denies hearing voices", "hears voices"])
    assert vectors.shape == (3, embedder.dimension)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert np.allclose(vectors[0], vectors[2])
    # an uncalibrated embedder gets the conservative default threshold, and the veto still runs
    matcher = Matcher(MatcherConfig(embedder="hashing"), embedder=embedder)
    assert matcher.threshold == pytest.approx(0.9)
    assert not matcher.entails("Hears voices", "Denies hearing voices")


def test_matcher_builds_llm_judges_from_client_specs():
    """Spec strings go through ``mentalhospital_env.llm.make_client``: one judge, or a jury of several."""
    yes = Matcher(MatcherConfig(adjudicator="llm", llm="scripted?reply=Yes"))
    assert isinstance(yes.adjudicator, LLMJudge) and yes.max_adjudicated_units == 3
    assert yes.entails("Reports poor concentration at work", "Work has been hard, my focus is gone")
    assert not yes.entails("Denies hearing voices", "I hear voices")  # the veto runs before any judge
    no = Matcher(MatcherConfig(adjudicator="llm", llm="scripted?reply=No"))
    assert not no.entails("Reports poor concentration at work", "Work has been hard, my focus is gone")
    jury = Matcher(MatcherConfig(adjudicator="jury", llm=("scripted?reply=yes", "scripted?reply=no")))
    assert isinstance(jury.adjudicator, Jury) and len(jury.adjudicator.members) == 3
    with pytest.raises(ValueError):
        Matcher(MatcherConfig(adjudicator="llm", llm="nonsense-backend:x"))


# --- the prefilter changes nothing -------------------------------------------------------------------


def _reference_match(matcher: Matcher, checkpoints, units):
    """The match without any prefilter: every pair through the check, in order of similarity, every pair
    below the threshold to the adjudicator (the Matcher as first written, plus: a unit without a content
    word or concept covers nothing), then, for a checkpoint still open, the learned reader's units in order of
    score that pass the check and the direction gate; every accept also passes the structural readings
    (:func:`~mentalhospital_env.rewards.structure.structural_clash`)."""
    from mentalhospital_env.rewards.structure import structural_clash
    from mentalhospital_env.rewards.adjudication import (
        SHARED_NEGATION,
        direction_clash,
        read_statement,
        same_clause_polarity,
    )

    sims = matcher.embedder.encode(list(checkpoints)) @ matcher.embedder.encode(list(units)).T
    silent = {
        j for j, u in enumerate(units) if not read_statement(u).words and not read_statement(u).concepts
    }
    out = []
    for i, cp in enumerate(checkpoints):
        found = None
        below = []
        for j in np.argsort(-sims[i], kind="stable"):
            j = int(j)
            if j in silent or statement_conflict(cp, units[j]) is not None:
                continue
            if sims[i, j] >= matcher.threshold:
                if structural_clash(cp, units[j]) is not None:
                    continue
                found = (j, "embedder")
                break
            below.append(j)
        if found is None:
            verdicts = matcher.adjudicator.judge_many([(cp, units[j]) for j in below])
            found = next(
                ((j, "clinical") for j, v in zip(below, verdicts) if v and structural_clash(cp, units[j]) is None),
                None,
            )
        reader = matcher.reader
        if found is None and reader is not None:  # the learned reader reads what the rules refused
            scores = reader.scores(reader.encode([cp]), reader.encode(list(units)))[0]
            for j in np.argsort(-scores, kind="stable"):
                j = int(j)
                if scores[j] < reader.threshold:
                    break
                reading = read_statement(units[j])
                readable = bool(reading.concepts) or len(reading.words) >= 2
                conflict = statement_conflict(cp, units[j])
                if conflict == SHARED_NEGATION and same_clause_polarity(cp, units[j]):
                    conflict = None  # the parse's reading of what each clause denies overrules the word vote
                if (
                    readable
                    and conflict is None
                    and direction_clash(cp, units[j]) is None
                    and structural_clash(cp, units[j]) is None
                ):
                    found = (j, "reader")
                    break
        out.append(found)
    return out


def _as_found(matches):
    return [None if m is None else (m.unit_index, m.decided_by) for m in matches]


def test_prefilter_gives_the_same_matches_over_the_pair_set(matcher):
    from mentalhospital_env.rewards.calibration import load_match_pairs

    pairs = load_match_pairs()
    checkpoints = sorted({p.checkpoint for p in pairs})
    utterances = sorted({p.utterance for p in pairs})
    for start in range(0, len(utterances), 60):
        units = utterances[start : start + 60]
        assert _as_found(matcher.match(checkpoints, units)) == _reference_match(matcher, checkpoints, units)


def test_prefilter_gives_the_same_matches_on_generated_episodes(matcher):
    from mentalhospital_env.rewards.matching import output_units

    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.knowledge.lexicon import load_lexicon
    from mentalhospital_env.patient import make_patient

    questions = [q for c in load_lexicon().concepts for q in c.questions]
    for k, case in enumerate(load_suite("dev").cases[:4]):
        patient = make_patient(case, seed=k)
        units = [
            u
            for t in range(30)
            for u in output_units(patient.respond(questions[(k * 17 + t) % len(questions)]).text)
        ]
        texts = [c.text for c in case.checkpoints.interview]
        assert _as_found(matcher.match(texts, units)) == _reference_match(matcher, texts, units), case.case_id
        note_texts = [c.text for c in case.checkpoints.note]
        assert _as_found(matcher.match(note_texts, units)) == _reference_match(matcher, note_texts, units)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Denies dietary restriction.", "I eat normally, three meals a day."),
        ("Denies difficulty concentrating.", "My concentration is fine, I can focus without trouble."),
        ("Denies poor concentration.", "My concentration is fine."),
        ("Increased irritability.", "I keep losing my temper with everyone."),
    ],
)
def test_denials_said_as_normal_function_and_directions_inside_a_phrase(matcher, checkpoint, output):
    assert matcher.entails(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Reports insomnia.", "I sleep normally."),
        ("Psychomotor retardation.", "Psychomotor agitation, pacing."),
        ("Progressive forgetfulness.", "My memory has improved."),
        ("Anxiety reduced since starting therapy.", "My anxiety has got worse since I started therapy."),
        ("Speech slow.", "Speech fast."),
    ],
)
def test_normal_function_opposite_findings_and_speed_are_directions(checkpoint, output):
    assert "direction" in (statement_conflict(checkpoint, output) or "")


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Denies anhedonia.", "I still enjoy my hobbies."),
        ("Denies fatigue.", "I've got plenty of energy."),
        ("No alcohol use.", "I'm teetotal."),
        ("Insight good.", "He understands that he is ill and accepts treatment."),
    ],
)
def test_a_phrase_saying_the_concept_is_absent_is_a_denial(matcher, checkpoint, output):
    """The lexicon's ``absent_phrases`` deny a concept without a negation word."""
    assert matcher.entails(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Reports insomnia.", "I sleep fine."),
        ("Anhedonia.", "I still enjoy my hobbies."),
        ("Denies anhedonia.", "I don't enjoy my hobbies any more."),  # a denied absence is the concept present
    ],
)
def test_an_absent_phrase_against_the_concept_is_a_negation_clash(checkpoint, output):
    assert "negation differs" in (statement_conflict(checkpoint, output) or "")


@pytest.mark.parametrize(
    "output", ["I struggle to sleep well.", "I rarely sleep well.", "I used to sleep well.", "I sleep less well."]
)
def test_an_absent_phrase_under_difficulty_or_a_downward_word_denies_nothing(matcher, output):
    assert not matcher.entails("Denies insomnia.", output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Denies suicide plan.", "I've never had any suicidal thoughts."),
        ("Denies cannabis use.", "I don't use drugs."),
        ("Denies relief drinking.", "I don't drink alcohol."),
    ],
)
def test_a_denied_finding_denies_what_implies_it(matcher, checkpoint, output):
    """The contrapositive of the lexicon's ``implies`` pairs: no drug use at all says no cannabis use."""
    assert matcher.entails(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        # a note's clinical word against the patient's or an informant's everyday one (``synonyms`` of the cues)
        (
            "Perplexed and dishevelled, in nightclothes on the ward.",
            "She was bewildered and scruffy, still in her pyjamas.",
            True,
        ),
        ("Talkative, rapid speech.", "Chatty and quick.", True),
        ("Works as a pharmacist in a hospital.", "I'm a chemist.", True),
        ("Frequent fights since adolescence.", "I've been getting into scraps since I was a teenager.", True),
        ("Generalized anxiety.", "I'm a nervous wreck about everything, all day, every day.", True),
        ("Fear of contamination.", "I'm terrified of germs.", True),
        ("Conflict with colleagues.", "I keep falling out with my workmates.", True),
        # the everyday word still has its subject, its negation and its own meaning
        ("Caffeine use.", "My husband lives on coffee.", False),
        ("Denies anxiety.", "I'm nervous all the time.", False),
        ("History of fights.", "My brother gets in scraps all the time.", False),
        ("Cannabis use at university.", "I've never had a spliff.", False),
        ("Loss of pleasure in hobbies.", "I still enjoy my pastimes.", False),
    ],
)
def test_an_everyday_word_carries_the_clinical_one(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        # both say the function is normal; the output's phrase also reads as a denied finding
        ("Concentration intact.", "I can focus fine.", True),
        ("Memory intact.", "My memory's fine.", True),
        ("Energy normal.", "My energy is fine.", True),
        ("Appetite normal.", "I'm eating as normal.", True),
        # a denial said both ways at once: the normal function and the finding denied
        ("Denies low mood.", "Mood's fine, not low.", True),
        ("Low mood.", "Mood's fine, not low.", False),
        # a finding, another person or a denial still differs
        ("Concentration intact.", "My concentration is terrible.", False),
        ("Concentration intact.", "My husband's concentration is fine.", False),
        ("Appetite normal.", "I can't eat.", False),
    ],
)
def test_two_statements_calling_a_function_normal_agree(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        ("No depressed mood.", "I wouldn't say I feel down.", True),
        ("Denies panic attacks.", "I don't think I get panic attacks.", True),
        ("Low mood.", "I wouldn't say I feel down.", False),
        ("Panic attacks.", "I don't think I get panic attacks.", False),
        ("Low mood.", "I don't think so. I feel really low.", True),
    ],
)
def test_a_negated_opinion_denies_what_it_introduces(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        # "inattention" is held by phrases of two findings; the output says the second one
        ("Lifelong inattention.", "I've never been able to pay attention.", True),
        ("Easily distracted.", "I can't pay attention to anything.", True),
        ("Lifelong inattention.", "My brother has never been able to pay attention.", False),
        ("Lifelong inattention.", "I've always been able to pay attention.", False),
    ],
)
def test_a_word_of_two_findings_is_carried_by_either(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        ("Lives with her partner and two children.", "I live with my boyfriend and our two kids.", True),
        ("Grandmother had dementia.", "My nan had dementia.", True),
        ("Grew up with a father who drank heavily.", "My dad was a big drinker.", True),
        ("Family history of schizophrenia in mother.", "I live with my mother who has schizophrenia.", True),
        # the person described is not the patient
        ("Has schizophrenia.", "I live with my mother who has schizophrenia.", False),
        ("Auditory hallucinations.", "I'm close to my brother who hears voices.", False),
        ("Drinks heavily.", "I grew up with a father who drank heavily.", False),
        ("Dementia.", "My nan had dementia.", False),
    ],
)
def test_a_relative_as_object_or_described_person(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        ("Appetite increased.", "I'm eating loads more than usual.", True),
        ("Affect blunted.", "Blunted affect.", True),
        ("Appetite increased.", "I've lost my appetite.", False),
        ("Low mood.", "My mood isn't low.", False),
    ],
)
def test_a_finding_in_a_notes_word_order(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, unit, entailed",
    [
        ("Denies suicidal ideation.", "Suicide? No, never.", True),
        ("Denies alcohol use.", "Alcohol? I don't drink at all.", True),
        ("Denies suicidal ideation.", "Do I want to die? No.", True),
        ("Denies drug use.", "Drugs? No, but I drink a lot.", True),
        # the echoed topic is not said to be present when the answer denies it
        ("Alcohol use.", "Alcohol? I don't drink at all.", False),
        ("Low mood.", "Low? No, I've been fine.", False),
        # an answer that does not deny it leaves it said
        ("Alcohol use.", "Alcohol? Only at weekends.", True),
        ("Auditory hallucinations.", "Voices? Yes, all the time.", True),
        ("Alcohol use.", "Drugs? No, but I drink a lot.", True),
    ],
)
def test_a_topic_echoed_as_a_question_takes_the_answers_polarity(matcher, checkpoint, unit, entailed):
    """Read as one unit (what calibration measures), and as an output: ``output_units`` keeps the echo with its
    answer."""
    assert matcher.entails_unit(checkpoint, unit) is entailed
    assert matcher.entails(checkpoint, unit) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        # "any more" says the state has changed, not that something is more: the phrase stays reduced libido
        ("Libido decreased.", "I'm not interested in sex any more.", True),
        # a normal function denies the finding, the normal phrase's own "problems" included
        ("Denies memory problems.", "No problems with memory.", True),
        # missing doses is non-adherence: never missing one is adherence, missing them is not
        ("Adherent to medication.", "I haven't missed a single dose.", True),
        ("Adherent to medication.", "I miss doses most weeks.", False),
        # a history of self-harm implies self-harm: never having hurt oneself denies that history
        ("No history of self-harm.", "I've never hurt myself on purpose.", True),
        # a relative's psychiatric history, said in lay words
        ("Family history of bipolar disorder in maternal aunt.", "My mum's sister has bipolar.", True),
        ("No known family history of mental illness.", "Nobody in my family has had mental health problems.", True),
        ("Presently unemployed.", "I haven't got a job at the moment.", True),
    ],
)
def test_lay_wordings_of_common_record_findings(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        # note shorthand and the record's own phrasing of suicidal thoughts (stop 34, issue 18)
        ("No suicidal ideation.", "No SI or self-harm.", True),
        ("Suicidal ideation.", "No SI today.", False),
        ("Denies thoughts of ending life.", "I've never wanted to die.", True),
        ("Denies suicidal thoughts.", "I'd never do anything to myself, I've got the kids.", True),
        ("Suicidal thoughts.", "I'd never do anything to myself.", False),
        # self-blame for what one could not prevent
        ("Feels guilty about the accident.", "I keep thinking I should have done more for her.", True),
        # reliving, said as being back there
        ("Flashbacks of the assault.", "Any little thing and I'm straight back there in that alley.", True),
        ("Re-experiencing symptoms.", "I get flashbacks most days.", True),
        # periods stopping, in the idiom
        ("Amenorrhoea for four months.", "I haven't come on since the spring.", True),
        ("Amenorrhoea.", "My periods are regular.", False),
        # drink by the can and the short
        ("Drinks heavily.", "A few cans in the morning and a few shorts at night.", True),
        ("Lives with his partner.", "It's just me and my missus.", True),
    ],
)
def test_lay_idioms_and_note_shorthand_of_findings(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        # a drug's trade name is the drug (drugs.json synonyms); another drug is not
        ("Treated with buprenorphine.", "They put me on Subutex for a while.", True),
        ("Takes fluoxetine.", "I take Prozac every morning.", True),
        ("Takes fluoxetine.", "I take sertraline every morning.", False),
        # lay words of the synonym groups
        ("Vomiting.", "I have been heaving all morning.", True),
        ("Sodium is low.", "The salt in my blood is low.", True),
        # an echoed question answered with an exclamation before its "no" is denied
        ("Suicidal thoughts.", "Kill myself? God, no.", False),
        ("No suicidal thoughts.", "Kill myself? God, no.", True),
        ("Hears voices.", "Voices? Oh yes, all the time.", True),
    ],
)
def test_trade_names_lay_synonyms_and_exclaimed_denials(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        # guilt over a trauma is guilt; blaming oneself is its record wording
        ("Blames self for the accident.", "I should have seen it coming, I go over it every night.", True),
        ("No guilt.", "I should have seen it coming.", False),
        ("Hopeless about the future.", "I can't see it ever getting better for me.", True),
        ("Reduced appetite.", "I just don't fancy anything any more.", True),
        ("Weight loss.", "My trousers are hanging off me now.", True),
        ("Passive suicidal ideation.", "Most nights I'm hoping I won't wake up.", True),
        ("Startles easily.", "A door bangs and I nearly leap out of my skin.", True),
    ],
)
def test_more_lay_idioms_of_mood_appetite_and_trauma(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Father has hypertension.", "My mum has high blood pressure."),
        ("Maternal aunt was treated for depression.", "My dad's sister was treated for depression."),
        ("Younger sister has generalised anxiety disorder.", "My older sister has generalised anxiety disorder."),
        ("Grew up with a father who drank heavily.", "My husband drinks heavily."),
    ],
)
def test_another_relative_is_another_subject(checkpoint, output):
    assert "relative" in (statement_conflict(checkpoint, output) or "")


@pytest.mark.parametrize(
    "checkpoint, output, reason",
    [
        ("Father had a heart attack at 62.", "My dad had a heart attack when he was forty-two.", "quantity"),
        ("Drinks about 9 units a day, mostly wine.", "About nine units a week, mostly wine.", "per day against per week"),
        ("Smokes 20 cigarettes a day.", "I smoke ten cigarettes.", "quantity"),
        ("Mother had schizophrenia.", "My mum was treated for depression.", "another disorder"),
        ("Takes sertraline 50 mg daily.", "Takes mirtazapine 15 mg at night.", "another drug"),
    ],
)
def test_another_age_rate_disorder_or_drug_is_another_fact(checkpoint, output, reason):
    assert reason in (statement_conflict(checkpoint, output) or "")


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Drinks about 9 units a day.", "I have nine units every day."),
        ("Mother had recurrent depression.", "My mum had depression."),  # one category: they agree
        ("Initial insomnia.", "I just can't drop off when I go to bed."),  # "bed" is no disorder's name
    ],
)
def test_the_same_amount_or_category_agrees(checkpoint, output):
    reason = statement_conflict(checkpoint, output) or ""
    assert "quantity" not in reason and "another" not in reason


@pytest.mark.parametrize("checkpoint", ["Denies panic attacks.", "No visual hallucinations.", "Denies low mood."])
def test_a_denial_reaches_every_finding_of_its_list(matcher, checkpoint):
    note = (
        "Pertinent negatives: denies suicidal ideation, homicidal ideation, auditory hallucinations, "
        "visual hallucinations, low mood, panic attacks."
    )
    assert matcher.entails(checkpoint, note)
    assert not matcher.entails(checkpoint.replace("Denies ", "").replace("No ", "").capitalize(), note)


def test_a_list_ends_at_but_and_at_a_clause():
    from mentalhospital_env.rewards.adjudication import read_statement

    read = read_statement("No suicidal ideation, but reports low mood and panic attacks.")
    assert {c.concept_id: c.negated for c in read.concepts} == {
        "suicidal_ideation": True, "low_mood": False, "panic_attacks": False
    }  # fmt: skip
    read = read_statement("I'd never hurt myself or take my own life, my faith means too much to me.")
    assert not any(c.negated for c in read.concepts if c.concept_id == "religion_spirituality")


def test_the_same_relative_in_other_words_agrees(matcher):
    assert matcher.entails("Family history of bipolar disorder in maternal aunt.", "My mum's sister has bipolar.")
    assert matcher.entails("Father has hypertension.", "My dad has high blood pressure.")


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Depressed mood most of the day.", "I was depressed for a while a few years back, but I'm fine now."),
        ("Anticipatory anxiety for days before events.", "I used to dread events for days beforehand, but that stopped years ago."),
        ("Heavy daily drinking of vodka.", "I drank vodka heavily for ten years, but I've been dry for the last three."),
    ],
)
def test_an_output_saying_it_has_ended_is_another_time(matcher, checkpoint, output):
    assert "time frame" in (statement_conflict(checkpoint, output) or "")
    assert not matcher.entails(checkpoint, output)


def test_a_denied_specific_finding_does_not_deny_the_general_one(matcher):
    assert not matcher.entails("Denies suicidal ideation.", "I have no plan to kill myself.")
    assert not matcher.entails("Denies drug use.", "I don't smoke cannabis.")


def test_a_negated_normal_word_is_no_denial(matcher):
    assert not matcher.entails("Denies sleep disturbance.", "My sleep isn't good.")
    assert matcher.entails("Denies sleep disturbance.", "My sleep is good.")


@pytest.mark.parametrize("reply", ["No.", "No, never.", "Nothing like that.", "Nope, not at all."])
def test_a_bare_no_covers_nothing(matcher, reply):
    """What a bare 'No.' denies lies in the question; the reply alone covers no checkpoint."""
    for checkpoint in (
        "Denies hearing voices.",
        "Denies low mood.",
        "Denies suicidal ideation.",
        "No family history of mental illness.",
    ):
        assert not matcher.entails(checkpoint, reply), (checkpoint, reply)
    assert (
        matcher.coverage(
            ["Denies hearing voices.", "Denies low mood."], [reply, "I don't hear voices."]
        ).covered
        == 1
    )


def test_phrasing_stack_gives_each_concepts_best_phrasing_similarity_sparse_or_dense():
    from mentalhospital_env.rewards.adjudication import PhrasingStack

    hashing = HashingEmbedder()
    adjudicator = ClinicalAdjudicator(phrase_embedder=hashing, phrase_threshold=0.5)
    concepts = ("insomnia", "low_mood", "auditory_hallucinations")
    outputs = ["I can't get to sleep at night", "I feel down all the time", "I hear voices", "Nothing."]
    vectors = hashing.encode(outputs)
    blocks = [adjudicator._concept_phrases(k) for k in concepts]
    expected = np.array([[float((b @ v).max()) for b in blocks] for v in vectors])
    sparse = PhrasingStack(concepts, blocks)
    assert sparse.sparse  # hashing vectors use a few dozen dimensions of 1024
    assert np.allclose(sparse.best(vectors), expected, atol=1e-6)
    rng = np.random.default_rng(0)
    dense_blocks = [rng.standard_normal((n, 8)).astype(np.float32) for n in (3, 1, 5)]
    dense = PhrasingStack(concepts, dense_blocks)
    probe = rng.standard_normal((2, 8)).astype(np.float32)
    assert not dense.sparse
    assert np.allclose(
        dense.best(probe), [[float((b @ v).max()) for b in dense_blocks] for v in probe], atol=1e-5
    )
    # a stack for a case's concepts serves the subsets an interview asks later
    whole = adjudicator.phrasing_stack(concepts)
    assert adjudicator.phrasing_stack(concepts[:2]) is whole


def test_matcher_keeps_checkpoint_vectors_only_while_the_embedder_forgets_nothing():
    embedder = HashingEmbedder()
    m = Matcher(embedder=embedder)
    checkpoints = ["hears voices", "low mood"]
    first = m.match(checkpoints, ["I hear voices at night"])
    forgotten = embedder.cache.forgotten
    assert m.match(checkpoints, ["I hear voices at night"]) == first
    embedder.cache.max_size = len(embedder.cache)
    embedder.encode(["one", "two"])  # evicts the oldest texts
    assert embedder.cache.forgotten == forgotten + 2
    # the kept matrix is not trusted any more; the checkpoints are encoded afresh, with the same answer
    assert m.match(checkpoints, ["I hear voices at night"]) == first
    before, size = embedder.cache.forgotten, len(embedder.cache)
    embedder.cache.clear()
    assert embedder.cache.forgotten == before + size and len(embedder.cache) == 0
    assert m.match(checkpoints, ["I hear voices at night"]) == first


def test_open_checkpoints_read_from_the_whole_list_match_as_read_alone():
    checkpoints = [
        "Reports low mood for two months.",
        "Denies suicidal ideation.",
        "Hears voices when alone.",
        "Drinks six beers a night.",
        "Sleeps four hours a night.",
    ]
    units = ["I can't sleep more than four hours.", "My mood is fine.", "I don't drink at all.", "No."]
    interview = Matcher()
    interview.match(checkpoints, units)  # the whole list: later parts are read from it
    for part in (checkpoints[1:], checkpoints[::2], [checkpoints[3]], checkpoints[:0:-1]):
        assert interview.match(part, units) == Matcher().match(part, units)


def test_hashing_features_weigh_stems_ngrams_bigrams_and_function_words():
    e = HashingEmbedder(ngram_sizes=(3,))
    features = e._features("The voices hear me")
    # function words count lightly, content stems fully, with their character trigrams and stem bigrams
    assert features["w:the"] == pytest.approx(e.function_word_weight)
    assert features["w:voice"] == pytest.approx(e.stem_weight)
    assert features["c:<vo"] == pytest.approx(e.ngram_weight)
    assert features["b:voice_hear"] == pytest.approx(e.bigram_weight)
    assert "c:<th" not in features  # no n-grams of a function word
    # a repeated stem adds up, in first-seen order
    twice = e._features("voices voices")
    assert twice["w:voice"] == pytest.approx(2 * e.stem_weight)
    assert next(iter(twice)) == "w:voice"


def test_prepared_lists_and_their_parts_match_as_read_alone():
    interview = ["Reports low mood for two months.", "Denies suicidal ideation.", "Hears voices when alone."]
    note = ["Sleeps four hours a night.", "Drinks six beers a night."]
    units = ["I can't sleep more than four hours.", "My mood is low.", "No.", "I hear voices at night."]
    m = Matcher()
    m.prepare(interview)
    m.prepare(note)  # the last list read; the interview, met whole again, is read from what prepare kept
    for part in (interview, interview[1:], [interview[2]], note, note[:1], interview[::2]):
        assert m.match(part, units) == Matcher().match(part, units)


def test_a_long_output_is_matched_as_its_units_one_by_one():
    checkpoints = ["Reports low mood.", "Hears voices when alone.", "Poor sleep.", "Denies alcohol use."]
    units = [
        "I have been feeling down.",
        "Yes.",
        "Nothing like that.",
        "I hear voices when nobody is around.",
        "I can't fall asleep at night.",
        "I don't drink at all.",
    ] * 3
    m = Matcher()
    whole = m.match(checkpoints, units)
    best = {}
    for unit in units:
        for i, found in enumerate(Matcher().match(checkpoints, [unit])):
            if found is not None and (i not in best or found.similarity > best[i].similarity):
                best[i] = found
    assert [w is not None for w in whole] == [i in best for i in range(len(checkpoints))]
    assert [w.similarity for w in whole if w is not None] == [best[i].similarity for i in sorted(best)]


def test_a_sentence_is_matched_without_its_discourse_opener():
    from mentalhospital_env.rewards.matching import output_units

    assert output_units("The thing is, my skin is awful. Okay.") == ("My skin is awful.", "Okay.")
    assert output_units("Well, honestly, i can't sleep.") == ("I can't sleep.",)
    assert output_units("It's like this: My mother drinks.") == ("My mother drinks.",)
    # an opener that is the whole sentence, or a phrase that says something ("I suppose"), stays
    assert output_units("Okay.") == ("Okay.",)
    assert output_units("Well, ...") == ("Well, ...",)
    assert output_units("I suppose so.") == ("I suppose so.",)
    assert output_units("Wellbeing is fine.") == ("Wellbeing is fine.",)


def test_every_opener_the_patient_says_is_left_out_of_its_units():
    from mentalhospital_env.rewards.matching import output_units

    from mentalhospital_env.patient.representation import load_phrases

    for opener in load_phrases()["banks"]["openers"]:
        if opener == "I suppose":  # a hedge, not a filler: it says how sure the patient is
            continue
        assert output_units(f"{opener} my sleep is poor.") == ("My sleep is poor.",), opener


def test_an_openers_words_are_not_read_as_what_the_patient_says(matcher):
    # "See," opens the sentence: nothing was seen, so nothing visual is denied
    assert not matcher.entails("He denies visual hallucinations.", "See, none.")
    assert matcher.entails("Low mood.", "The thing is, I feel really low.")


@pytest.mark.parametrize(
    "output, units",
    [
        ("Alcohol? I don't drink at all.", ("Alcohol? I don't drink at all.",)),
        ("I sleep fine. Suicide? No, never.", ("I sleep fine.", "Suicide? No, never.")),
        ("Do I hear voices? Every night, yes.", ("Do I hear voices? Every night, yes.",)),
        # a question of its own is a unit of its own
        (
            "Can we talk about something else? No, I've never been arrested.",
            ("Can we talk about something else?", "No, I've never been arrested."),
        ),
        ("Voices?", ("Voices?",)),  # nothing answers it
    ],
)
def test_a_topic_echoed_as_a_question_stays_with_its_answer(output, units):
    assert output_units(output) == units


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        ("Alcohol use", "Alcohol? I don't drink at all.", False),
        ("No alcohol use.", "Alcohol? I don't drink at all.", True),
        ("Suicidal ideation", "I sleep fine. Suicide? No, never.", False),
        ("No suicidal ideation.", "I sleep fine. Suicide? No, never.", True),
        ("Auditory hallucinations", "Do I hear voices? Every night, yes.", True),
        ("Auditory hallucinations", "Voices? No.", False),
    ],
)
def test_an_echoed_topic_is_what_its_answer_says(checkpoint, output, entailed):
    assert Matcher().entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        # "I don't know" is like a phrasing of disorientation that holds its own negation ("don't know where
        # I am"): it says no more than that phrasing, so it denies no disorientation
        ("No disorientation.", "I don't know.", False),
        ("Alert and oriented.", "I don't know.", False),
        ("Oriented to time, place and person.", "I really don't know.", False),
        ("No disorientation.", "Don't know.", False),
        # a negation more than the phrasing's own is the speaker's
        ("Denies auditory hallucinations.", "I've never heard anything that other people couldn't hear.", True),
    ],
)
def test_a_negation_inside_a_findings_phrasing_is_not_a_denial(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("About 110 units of alcohol a week.", "About 110 units a month."),  # the period after "of alcohol"
        ("She has lost about twelve kilograms.", "I've lost about two kilos."),  # kilos are kilograms
        ("Amlodipine 5 mg daily.", "I take amlodipine ten milligrams."),
    ],
)
def test_amounts_in_other_words_for_the_unit_still_differ(checkpoint, output):
    assert "quantity" in (statement_conflict(checkpoint, output) or "")


def test_a_cigarette_is_smoking(matcher):
    assert matcher.entails("Never smoked.", "I've never had a cigarette in my life.")


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("She has lost around four kilograms without trying.", "I've deliberately lost four kilos on a diet."),
        ("He loves science.", "He hates science."),
        ("Slowed, cooperative.", "Agitated and restless, cooperative."),
        ("Makes errors on serial sevens.", "Serial sevens completed without error."),
        ("One son, supportive, visits once a month.", "My son visits every day."),
    ],
)
def test_contraries_and_frequencies_without_a_negation_word(checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None


def test_lost_weight_without_trying_is_not_dieting(matcher):
    # "lost" turns the sides of 'pleasure' contraries ("lost interest"), not those of a phrase holding its own negation
    assert matcher.entails("She has lost around four kilograms without trying.", "Unintentional weight loss of 4 kg.")


def test_a_bond_with_someone_is_the_patients_whoever_the_subject(matcher):
    # a marriage or a household said with the other person as the subject is still the patient's
    assert matcher.entails(
        "Married for twenty years; her husband is supportive.",
        "We've been married twenty years and he's been really good through all this.",
    )
    assert matcher.entails("Lives with elderly mother.", "I live with my mum, she's in her eighties now.")
    # a finding of the other person is still theirs
    assert not matcher.entails("Hears voices.", "My husband hears voices.")


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("About 110 units of alcohol a week.", "I reckon it's around a hundred and ten units a week."),
        ("Flushed face, slight tremor of the outstretched hands.", "Facial flushing and a fine tremor of the hands when held out."),
        ("His father is 'very shy' and has few friends.", "My dad's really shy and doesn't have many friends."),
        ("Over the last two months she has felt flat most days.", "Most days for the past two months I've felt flat."),
    ],
)
def test_the_same_finding_in_other_words_for_amount_time_and_direction(matcher, checkpoint, output):
    assert matcher.entails(checkpoint, output)


def test_a_duration_in_months_or_days_is_no_frequency(matcher):
    # "monthly" and "daily" stem to "month" and "day": as frequency words they read every duration as a rate
    assert statement_conflict("Depressed mood over the past two months.", "I feel down pretty much all the time.") is None
    assert matcher.entails(
        "Nightmares over the past six months, with hypervigilance.",
        "I have nightmares about it most nights, I can't let my guard down.",
    )


# --- Issue 18, third round: when and how long, yearly amounts, ages, more contraries -----------------------


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Eight months ago he attended a crash in which a child died.", "Twenty years ago I went to a crash where a child died."),
        ("Stopped smoking forty years ago.", "I stopped smoking last year."),
        ("Has driven for a parcel company for six years.", "I've been driving for a parcel company for six months."),
        ("Persecutory delusions of four days duration.", "I've believed people were plotting against me for years."),
        ("Last month he left the gas on twice.", "Years ago I once left the gas on."),
    ],
)
def test_another_time_ago_or_another_duration_is_refused(checkpoint, output):
    assert "time differs" in (statement_conflict(checkpoint, output) or "")


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Low mood for about two months.", "I've been feeling down for the last eight weeks or so."),
        ("Unemployed for the past year.", "I've been out of work for a year."),
        ("Took an overdose three days ago.", "I took the tablets a couple of days ago."),
        ("Drinking heavily for years.", "I've been drinking a lot for about ten years."),
        ("Took 14 tablets two weeks ago.", "I took the pills a fortnight ago."),
    ],
)
def test_a_time_said_in_other_words_agrees(checkpoint, output):
    assert when_clash(checkpoint, output) is None


def test_a_few_times_a_year_is_less_often_than_weekly():
    assert statement_conflict("A glass of wine on Saturdays.", "I only drink at Christmas, a glass of fizz.") is not None
    assert statement_conflict("Sees his friends perhaps twice a year.", "I see my friends every weekend.") is not None
    # rare and yearly are neighbours on the scale
    assert amount_level_clash("Rarely drinks.", "A sherry at Christmas, that's about it.") is None


def test_social_is_no_frequency():
    # "socially" once read "social anxiety" as weekly
    assert amount_levels("Mother has social anxiety disorder.")[0] is None


def test_an_age_after_when_someone_was_whatever_follows():
    assert (5.0, "age") in quantities("Parents separated when she was five; several house moves in childhood.")
    assert statement_conflict(
        "Parents separated when she was five.", "My parents split up when I was fifteen."
    ) is not None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Never smoked.", "I don't smoke now, I gave up five years ago."),
        ("Difficulty falling asleep due to worry.", "I drop off fine but wake at four and can't get back to sleep."),
        ("Declines to shake hands; cooperative.", "Shook hands readily and was cooperative."),
        ("Sofa-surfing with friends.", "I rent a flat on my own."),
        ("Third-person auditory hallucinations.", "The voice talks straight to me."),
        ("He has heard a man's voice commenting on what he does.", "I hear a woman's voice telling me what to do."),
        ("Maternal grandmother died by suicide.", "My grandmother on my mum's side died of a stroke."),
        ("Has stopped driving at night.", "I still drive at night with no trouble at all."),
        ("Cannabis occasionally in his 20s.", "I smoke weed every day."),
    ],
)
def test_more_contraries_without_a_negation_word(checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None


def test_a_stage_of_life_or_someone_elses_relative_is_no_relative_of_the_patient():
    # "as a child" names no relative; "my neighbour's son" is not the patient's son
    assert statement_conflict(
        "Her younger brother was diagnosed with ADHD as a child.", "My son was diagnosed with ADHD as a child."
    ) is not None
    assert statement_conflict("One son, supportive, visits monthly.", "My neighbour's son visits monthly.") is not None
    assert statement_conflict(
        "Her younger brother was diagnosed with ADHD as a child.", "My little brother was diagnosed with ADHD as a kid."
    ) is None


def test_colleagues_in_the_plural_are_other_people(matcher):
    assert not matcher.entails("She cannot concentrate at work.", "One of my colleagues can't concentrate.")
    assert matcher.entails("She cannot concentrate at work.", "I can't concentrate at work.")


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Drinks about six units a week.", "I drink six pints most nights."),  # drinks turned into units a week
        ("Usually ~1 L vodka/day.", "I have a vodka on a Friday night, that's all."),  # a rate a day is daily
        ("Usually ~1 L vodka/day for ~3 yrs.", "I used to drink a litre of vodka a day, but I've been off it for three years."),
        ("One son, supportive, visits monthly.", "My son visits every day."),  # "monthly" read as written
        ("Takes sumatriptan 50 mg as needed.", "Takes sertraline 50 mg once daily."),  # a drug by its INN ending
        ("Family history of schizophrenia in her younger sister.", "My younger sister has bipolar disorder."),
        ("Irritable bowel syndrome, stable.", "I'm on thyroid tablets."),  # another named condition
        ("Father had a stroke at 70.", "My father had a heart attack at seventy."),
    ],
)
def test_other_drinks_drugs_disorders_and_conditions_differ(checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Around 8 units a week.", "I have about four glasses of wine a week."),
        ("Hypertension, stable.", "I'm on blood pressure tablets."),
        ("Hypothyroidism on levothyroxine.", "I take thyroxine for my thyroid."),
        ("Mother had bipolar disorder.", "My mum was manic depressive."),
    ],
)
def test_the_same_drink_condition_or_disorder_in_other_words_agrees(checkpoint, output):
    assert statement_conflict(checkpoint, output) is None


def test_look_alike_stems_of_two_words_are_two_words(matcher):
    # "started" once carried "startle": an output saying only when no longer covers exaggerated startle
    assert not matcher.entails("Exaggerated startle.", "It started about six months ago.")
    assert matcher.entails("Exaggerated startle.", "I jump at the slightest noise.")


# --- the guard against replies that name nothing of the finding (stop 22) ------------------------------------


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Low energy.", "It's bad this time."),  # stop 21's worst credit: close to "tired all the time" in letters
        ("Negative for auditory hallucinations", "Nobody is out to get me."),  # close to "nobody's there"
        ("Good relationships.", "My appetite is good and I've gained about 12 kg since stopping smoking."),
        ("Periods started at 12.", "Helen knew I was moody but put it down to starting secondary school."),
        # a negation cue names no finding, though a phrasing of suicidal ideation ("not wake up") holds one
        ("Fleeting passive thoughts that it would be easier not to wake up; no plan or intent.", "I'm not sure."),
        ("Fleeting passive thoughts that it would be easier not to wake up; no plan or intent.", "More than before."),
        # "thoughts" inside another finding's mention (obsessions) is that finding's word
        ("No suicidal thoughts.", "I don't have thoughts I can't get rid of."),
    ],
)
def test_a_reply_that_names_nothing_of_the_finding_is_not_credited(matcher, checkpoint, output):
    assert not matcher.entails_unit(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Feelings of worthlessness.", "I feel like I'm good for nothing."),  # the lexicon's concept, vague words
        ("Persecutory delusions.", "Someone is out to get me."),
        ("Decreased libido.", "I've gone right off sex."),
        ("Disoriented to place.", "I don't know where I am."),
    ],
)
def test_a_reply_naming_the_finding_in_lexicon_or_vague_words_is_still_credited(matcher, checkpoint, output):
    assert matcher.entails_unit(checkpoint, output)


def test_vague_words_are_data_and_name_no_finding():
    from mentalhospital_env.rewards.adjudication import finding_stems, names_the_finding, read_statement

    raw = json.loads(
        resources.files("mentalhospital_env.knowledge").joinpath("data/language.json").read_text("utf-8")
    )["vague_words"]["words"]
    assert "bad" in raw and "time" in raw
    from mentalhospital_env.knowledge.language import stem, word_key

    assert word_key(stem("time")) not in finding_stems("fatigue")
    assert word_key(stem("tired")) in finding_stems("fatigue")
    assert not names_the_finding(read_statement("Low energy."), read_statement("No idea, sorry."))
    assert names_the_finding(read_statement("Low energy."), read_statement("I'm tired all the time."))
    # a checkpoint naming nothing itself ("Good.", a heading's answer cut from its heading) is carried only by an
    # output as bare as it: "Insight good." names a topic the checkpoint cannot confirm
    assert not names_the_finding(read_statement("Good."), read_statement("Insight good."))
    assert not names_the_finding(read_statement("Intact."), read_statement("My memory is intact."))
    assert names_the_finding(read_statement("Good."), read_statement("Good."))
    # a finding the output names in the lexicon's words that the checkpoint says in its own
    assert names_the_finding(read_statement("Denies change in appetite."), read_statement("I'm eating the same as always."))


# --- Issue 18, stop 25: the clinic pairs' and the calibration half's errors by cause -------------------------


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Constipation on and off.", "I've had diarrhoea on and off."),  # the other bowel habit
        ("Skips meals most days.", "I eat three proper meals a day."),  # regular against irregular meals
        ("Lorazepam 1 mg as needed.", "I take lorazepam 1 mg every day."),  # as needed against daily
        ("Smokes cannabis most days.", "I've tried a joint twice in my life."),
        ("Drinks two glasses of wine a week.", "I drink two bottles of wine a day."),  # drinks of two kinds in units
        ("Drinks a bottle of wine a night.", "I have a glass of wine on a Saturday."),
    ],
)
def test_opposites_and_amounts_of_the_clinic_pairs_differ(checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Drinks three glasses of wine a night.", "I have about a bottle of wine a night."),  # about the same units
        ("Constipation on and off.", "I get bunged up every now and then."),
    ],
)
def test_like_amounts_and_lay_words_agree(checkpoint, output):
    assert statement_conflict(checkpoint, output) is None


def test_how_often_alone_carries_no_finding(matcher):
    assert not matcher.entails("Constipation on and off.", "On and off, you know.")
    assert not matcher.entails("Low mood now and then.", "Now and then.")
    assert matcher.entails("Constipation on and off.", "I get constipated on and off.")


def test_lay_words_of_the_clinic_pairs(matcher):
    assert matcher.entails("Sensitive to the smell of food.", "I can't stand the smell of food.")
    assert matcher.entails("Feels he has ruined his marriage.", "I've messed up my marriage.")
    # "can't stand" is no denial, and still the opposite of enjoying
    assert not matcher.entails("Enjoys the smell of food.", "I can't stand the smell of food.")


def test_an_ex_smoker_is_a_past_smoker(matcher):
    assert matcher.entails_unit("Ex-smoker.", "I used to smoke twenty a day but I gave up five years ago.")
    assert statement_conflict("Ex-smoker.", "I still smoke about ten a day.") is not None


def test_a_count_with_a_slash_says_how_often():
    assert amount_level_clash("Smokes 30/day.", "I have the odd cigarette at parties.") is not None
    assert amount_level_clash("Smokes 30/day.", "I smoke thirty a day.") is None


def test_a_function_called_fine_denies_its_problems_whatever_the_reading(matcher):
    # "heart problems" is read under health anxiety; "my heart's fine" still says there are none (reply pair
    # hw-038-10, refused as "negation differs on 'heart'" before)
    assert (
        statement_conflict(
            "No heart problems, no faints, no palpitations on exertion.",
            "My heart's fine, I've never fainted or had palpitations when exercising.",
        )
        is None
    )
    assert statement_conflict("No heart problems, no faints.", "My heart isn't fine, I've fainted twice.") is not None


# Stop 29 (issue 18, heldout28 read as a development set): a finding the checkpoint says of one relative, said of
# another; opposites said without a negation word; a person is no mention of the finding.
@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("His sister works as a hairdresser; his brother is a plumber.", "My brother works as a hairdresser."),
        ("Lives with her father; sees her mother at weekends.", "I live with my mum and see my dad at weekends."),
        ("Her aunt has bipolar disorder; her grandmother had dementia.", "My grandmother had bipolar disorder."),
        (
            "With her husband for ten years; close to his son, though her husband says she 'never listens'.",
            "Her husband's son never listens.",
        ),
    ],
)
def test_a_relative_s_finding_said_of_another_relative_is_no_match(checkpoint, output):
    assert "relative" in (statement_conflict(checkpoint, output) or "")


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("His sister works as a hairdresser; his brother is a plumber.", "My sister's a hairdresser and my brother's a plumber."),
        ("Lives with her father; sees her mother at weekends.", "I live with my dad and I see my mum at weekends."),
        ("Her aunt has bipolar disorder; her grandmother had dementia.", "My aunt and my cousin both have bipolar disorder."),
    ],
)
def test_a_relative_s_finding_said_of_that_relative_is_not_refused_for_binding(checkpoint, output):
    assert "relative" not in (statement_conflict(checkpoint, output) or "")


@pytest.mark.parametrize(
    ("checkpoint", "output"),
    [
        ("Grandfather died of a heart attack at 70.", "My grandad had a heart attack at 70 but he's still alive and well."),
        ("Engaged to her partner; wedding planned for the spring.", "We broke up last month and called it off."),
        ("Parents divorced when she was 8; regular contact with both.", "My parents divorced when I was 8 and I've lost touch with my dad."),
    ],
)
def test_opposites_without_a_negation_word_about_family_life(checkpoint, output):
    assert "opposite meaning" in (statement_conflict(checkpoint, output) or "")


def test_a_person_is_no_mention_of_the_finding_said_both_ways():
    assert statement_conflict("Her sister is her main support.", "Her sister has nobody to support her.") is not None
    assert statement_conflict("No drug allergies.", 'Drug allergies: "No allergies."') is None


def test_a_relative_who_knew_of_a_symptom_is_not_its_bearer():
    assert statement_conflict("His father knew he was 'irritable' at the time.", "His father has been irritable.")


# --- stop 30 (issue 18, mend by cause): the subject of a shared verb, and contraries from the lexicon -----------


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("She hides her meals from the family.", "My sister hides her meals from everyone."),
        ("He checks the locks before bed.", "My dad checks the locks before bed."),
        ("His brother gambles away his wages.", "I gamble away my wages."),
    ],
)
def test_a_verb_said_of_another_person_is_not_the_patients(checkpoint, output):
    from mentalhospital_env.rewards.adjudication import subject_clash

    assert subject_clash(checkpoint, output) is not None
    assert statement_conflict(checkpoint, output) is not None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("She hides her meals from the family.", "I hide my meals from my family."),
        ("He checks the locks before bed.", "I check the locks before bed; my dad says so too."),
        # knowing and saying name no bearer of the finding
        ("No family history of epilepsy that her son knows of.", "Nobody in the family has epilepsy, as far as I know."),
    ],
)
def test_the_same_person_or_a_subject_blind_verb_is_no_subject_clash(checkpoint, output):
    from mentalhospital_env.rewards.adjudication import subject_clash

    assert subject_clash(checkpoint, output) is None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Numbness of the right arm since Tuesday.", "My left arm has gone numb since Tuesday."),
        ("Completed a nursing degree.", "I dropped out of nursing in the second year."),
        ("Graduated in engineering at 21.", "I was kicked out of my engineering course."),
        ("Declined the offer of a ward manager post.", "I was promoted to ward manager."),
        ("Regular contact with her son.", "My son and I are estranged."),
    ],
)
def test_contraries_of_side_course_offer_and_contact(checkpoint, output):
    assert contrary_clash(checkpoint, output) is not None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Numbness of the right arm since Tuesday.", "My right arm has gone numb since Tuesday."),
        ("Graduated in engineering at 21.", "I graduated in engineering when I was 21."),
        ("Regular contact with her son.", "My son rings me every week."),
    ],
)
def test_the_same_side_of_a_contrary_is_no_clash(checkpoint, output):
    assert contrary_clash(checkpoint, output) is None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Drinks one or two glasses of wine at dinner.", "I have eight or nine glasses of wine with dinner."),
        ("Has two cans of cider after work.", "I have about ten pints after work."),  # another kind, one drink each
        ("She has self-harmed twice.", "I've cut myself twenty times."),
        ("Admitted to hospital eight times.", "I've been in hospital once."),
    ],
)
def test_counts_of_another_order_of_magnitude_differ(checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Has two cans of cider after work.", "I have two or three pints after work."),
        ("Admitted to hospital twice.", "I've been in hospital two times."),
        ("Took an overdose once, aged 19.", "I overdosed once when I was nineteen."),
        ("Goes to the gym once a week.", "I go to the gym once every week."),  # a rate, not a count
        ("Goes to the gym twice a week.", "I go to the gym twice a week."),
    ],
)
def test_counts_of_one_magnitude_or_rates_agree(checkpoint, output):
    from mentalhospital_env.rewards.adjudication import _counts_differ

    assert _counts_differ(checkpoint, output) is None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Wakes with nightmares most nights.", "I woke up from a nightmare once."),
        ("Has cut her arms on two occasions.", "I've been cutting my arms most nights."),
        ("Checks the locks every night.", "I went back to check the lock twice."),
        ("He has nightmares most nights.", "I had a bad dream about it once, a few weeks after."),
    ],
)
def test_an_episode_or_two_is_not_a_habit(checkpoint, output):
    from mentalhospital_env.rewards.adjudication import amount_level_clash

    assert amount_level_clash(checkpoint, output) is not None
    assert statement_conflict(checkpoint, output) is not None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Wakes with nightmares most nights.", "I have nightmares most nights, I've had one twice this week."),
        ("Has cut her arms on two occasions.", "I've cut my arms twice."),
        ("Wakes with nightmares most nights.", "Once I'm asleep the nightmares come, most nights."),
        ("Checks the locks every night.", "I check the locks four or five times before bed."),  # more than two: left
    ],
)
def test_a_habit_said_as_a_habit_or_episodes_as_episodes_agree(checkpoint, output):
    from mentalhospital_env.rewards.adjudication import amount_level_clash

    assert amount_level_clash(checkpoint, output) is None


def test_a_drug_named_whole_differs_from_another():
    from mentalhospital_env.rewards.adjudication import drugs_by_ending

    assert "drug:codeine" in drugs_by_ending("Allergic to codeine.")
    assert "drug:statin" not in drugs_by_ending("On a statin.")  # an ending alone is a class
    assert statement_conflict("Allergic to codeine (vomiting).", "I'm allergic to amoxicillin.") is not None
    assert statement_conflict("Allergic to codeine (vomiting).", "Codeine makes me sick.") is None


def test_a_present_finding_told_only_of_long_ago_in_other_words():
    # the output's words are not the lexicon's phrasing of the finding; they are all said of years ago
    assert statement_conflict(
        "She hears knocking and whispering through the ceiling at night.",
        "I heard knocking through the ceiling once, years ago, when the flat upstairs was being done up.",
    ) is not None
    assert statement_conflict(
        "She hears knocking and whispering through the ceiling at night.",
        "I hear knocking through the ceiling most nights.",
    ) is None


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Laxatives are the only thing she uses to lose weight.", "I use diuretics on top of the laxatives."),
        ("Tooth enamel eroded from vomiting.", "My teeth are perfect."),
        ("Divorced in 2019.", "We're still happily married."),
        ("Gout, on allopurinol.", "I've got an underactive thyroid."),
    ],
)
def test_contraries_of_exclusivity_a_body_part_and_a_marriage_and_named_conditions(checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None


def test_the_same_condition_or_the_same_side_stays():
    assert statement_conflict("Gout, on allopurinol.", "I take allopurinol for my gout.") is None
    assert contrary_clash("Divorced in 2019.", "I got divorced in 2019.") is None


def test_a_checkpoint_that_dates_long_ago_itself_is_not_read_word_by_word_against_the_past():
    # the output's past is the checkpoint's own past: no time clash of the present finding
    from mentalhospital_env.rewards.adjudication import _remote_past_only, read_statement

    c = read_statement("Appetite is poor; she has lost 6 kg since her husband died years ago.")
    o = read_statement("My husband died years ago.")
    assert _remote_past_only(c, o) is None


@pytest.mark.parametrize(
    ("text", "negated"),
    [("SI-R: 68/92 (clinical range)", None), ("Investigations: SI-R 54/92.", None), ("No SI or self-harm.", True),
     ("Active SI with plan.", False), ("Denies SI/SH.", True)],
)
def test_the_note_shorthand_si_is_suicidal_ideation_and_the_hoarding_scale_si_r_is_not(text, negated):
    """'SI' in a note is suicidal ideation only in the shorthand's own company ('No SI or self-harm', 'Active SI with
    plan'): the Saving Inventory-Revised ('SI-R: 68/92') on a hoarding case's investigations line is a scale, and
    reading it as suicidal ideation made the scripted clinician's note assert a risk the patient denied (hw-037)."""
    from mentalhospital_env.knowledge import load_knowledge

    found = [m.negated for m in load_knowledge().lexicon.find(text) if m.concept_id == "suicidal_ideation"]
    assert found == ([] if negated is None else [negated])


@pytest.mark.parametrize(
    "checkpoint, output, entailed",
    [
        # a medicine that suited is the other side of one that flattened or could not be tolerated
        ("Sertraline left him feeling flat.", "Sertraline really helped, I felt like myself again.", False),
        ("Citalopram helped.", "I couldn't tolerate the citalopram.", False),
        ("Citalopram helped.", "The citalopram really helped.", True),
        # being the first in the family to be ill says there is no family history
        ("His mother has depression.", "I'm the first one in my family to get depressed.", False),
        # a habit said to be unchanged against one that changed
        ("He now drinks every night, where before it was only Saturdays.", "Saturdays only, it's always been that way.", False),
        # a drinker, and drink passing one's lips, are phrasings of drinking
        ("Does not drink alcohol.", "I'm not a drinker, never have been.", True),
        ("Teetotal.", "Not a drop has ever passed my lips.", True),
        ("Has never taken drugs.", "Never tried drugs, not even at uni.", True),
    ],
)
def test_opposite_effects_family_firsts_and_lay_abstinence(matcher, checkpoint, output, entailed):
    assert matcher.entails(checkpoint, output) is entailed


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        # "a" before a measure or a drink is one of it: a kilo is not twelve, a bottle a night is not eight units a week
        ("She has lost 10 kg.", "I've lost a kilo, maybe."),
        ("Drinks about 6 units a week.", "I get through a bottle of wine a night."),
        ("Drinks eight pints most nights.", "I have a pint a night, that's it."),
    ],
)
def test_an_article_before_a_measure_counts_one(matcher, checkpoint, output):
    assert matcher.entails(checkpoint, output) is False


def test_quantities_read_an_article_before_a_measure_as_one():
    assert quantities("I drink a bottle of wine a night.") == {(1.0, "bottle/day")}
    assert (1.0, "kilogram") in quantities("I've lost a kilo.")
    assert quantities("A week ago I had a lot.") == frozenset()


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        # contraries without a negation word: each side against the other said alone
        ("Mild hearing loss, wears a hearing aid on the left.", "He's got perfect hearing, never needed an aid."),
        ("Her periods stopped four months ago.", "My periods come every month, regular."),
        ("Frightening childhood; was hit at home.", "I had a lovely childhood at home, really settled."),
        ("He feels he is a failure as a father.", "I'm a good dad, whatever else I've done."),
        ("She is managing only a few hours of work a day.", "Work's going fine, I'm doing full days."),
        ("Allergic to codeine.", "I'm fine with codeine."),
        ("Physiotherapy helped.", "The physio was a waste of time."),
    ],
)
def test_contraries_of_hearing_menses_childhood_parenting_work_and_allergy(matcher, checkpoint, output):
    assert matcher.entails(checkpoint, output) is False


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        # lay words for a record's: fumes for gas, a loo for a toilet, startled out of one's skin
        ("He believes gas is being pumped into his flat through the vents.", "They're pushing fumes into my flat through the grilles."),
        ("Spends her lunch hour hiding in a toilet cubicle.", "At lunch I hide in a loo with the door locked."),
        ("Jumps at any loud bang.", "A car door slams and I'm out of my skin."),
    ],
)
def test_lay_words_for_fumes_toilets_and_startle(matcher, checkpoint, output):
    assert matcher.entails(checkpoint, output) is True


# Stop 38 (heldout35's false accepts, read as development data): a finding the record says has ended is not covered
# by one said of now or of last week; an output that tells of then and sets it against now, or says only what would
# happen under a condition, covers nothing; and the statements that say the same thing stay accepted.
@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("One overdose at 28 while low; none since.", "She took an overdose last week."),
        ("Cannabis once at 14, none since.", "He's smoking weed."),
        ("Ex-smoker, 25 pack-years.", "He smokes twenty a day."),
        ("Avoids phone calls.", "As a teenager he hated the phone, but he's fine with it these days."),
        ("Has stopped going to the cinema because it makes it worse.", "If it got any worse I might have to stop going to the cinema."),
        ("Gets up twice a night to pass urine.", "Gets up to pass urine about once a week."),
        ("Reading about a year behind.", "He's maybe a few weeks behind with reading, nothing to worry about."),
        ("Drinking about 14 units a week, unchanged.", "He's been drinking far more since he went high."),
    ],
)
def test_an_ended_a_then_or_a_conditional_statement_or_another_rate_is_refused(checkpoint, output):
    assert statement_conflict(checkpoint, output) is not None
    assert not ClinicalAdjudicator().judge(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Ex-smoker, 25 pack-years.", "I smoked a pack a day for 25 years."),  # past tense: no clash
        ("\"Moody without it.\"", "If I haven't had a smoke I'm ratty as hell."),  # a plain consequence is a fact
        ("Passive death wish.", "If I could I'd go to sleep and not wake up."),  # a wish said as a condition
        ("Lately he is threatened with eviction by the landlord.", "The landlord says he'll chuck me out if I don't clear it."),
        ("Gets up twice a night to pass urine.", "I'm up to the toilet a couple of times every night."),
    ],
)
def test_the_same_finding_said_in_the_past_tense_or_as_a_real_condition_is_not_refused_for_time(checkpoint, output):
    assert "time frame" not in (statement_conflict(checkpoint, output) or "")
    assert "would happen" not in (statement_conflict(checkpoint, output) or "")
    assert "how often" not in (statement_conflict(checkpoint, output) or "")


def test_dsh_names_self_harm():
    assert ClinicalAdjudicator().judge("No self-harm.", "No DSH hx.")


# --- stop 39: informant labels, number words side by side, ended findings, times a period ---


def test_an_informant_label_makes_his_words_the_patients(matcher: Matcher) -> None:
    checkpoint = "He is spending most of his income on cannabis, his partner adds."
    assert matcher.entails(checkpoint, "Partner: most of his money goes on weed.")
    # the informant's own "I" is not the patient
    assert statement_conflict("Low mood.", "Mum: I've been really low since the divorce.") is not None
    # a family history line under a relative's name is the relative's, not an informant speaking
    assert not matcher.entails("Depression.", "Mother: depression.")


def test_two_number_words_side_by_side_are_two_amounts() -> None:
    assert quantities("I'm in bed nine, ten hours") == frozenset({(9.0, "hour"), (10.0, "hour")})
    assert quantities("three-four hours") == frozenset({(3.0, "hour"), (4.0, "hour")})
    assert quantities("forty-two units a week") == frozenset({(42.0, "unit/week")})
    assert quantities("a hundred and ten units") == frozenset({(110.0, "unit")})
    assert statement_conflict("She sleeps nine or ten hours and still wakes tired.", "I'm in bed nine, ten hours.") is None


def test_an_ended_finding_is_past_and_no_present_use_covers_it(matcher: Matcher) -> None:
    checkpoint = "Cannabis once at 14, none since."
    assert matcher.entails(checkpoint, "Tried a spliff once when I was fourteen, hated it, never again.")
    assert not matcher.entails(checkpoint, "I smoke weed most days.")


def test_times_a_period_far_apart_differ() -> None:
    assert statement_conflict("Wakes three to five times a night.", "He wakes once a night to use the toilet.")
    assert statement_conflict("Binges once or twice a week.", "I binge five times a week.")
    assert statement_conflict("Binges once or twice a week.", "I binge three times a week.") is None
    assert statement_conflict("Gets up twice a night to pass urine.", "I'm up to the toilet a couple of times every night.") is None


def test_times_a_period_compare_one_rate_against_one() -> None:
    # stop 39 review: a statement that says two numbers of times (waking once, checking ten times) may count two
    # things; its rates are not pooled and set against one rate of the checkpoint
    checkpoint = "I check the locks ten times a night"
    assert "quantity differs" not in (
        statement_conflict(checkpoint, "I wake up once a night and check the locks, about ten times") or ""
    )
    assert "quantity differs" not in (
        statement_conflict(checkpoint, "I wake once a night and check the locks ten times a night") or ""
    )
    # one rate against one still differs
    assert "quantity differs" in (statement_conflict(checkpoint, "I check the locks once a night") or "")


@pytest.mark.parametrize(
    "checkpoint, output, why",
    [
        # stop 40: people outside the family as the subject (language.json other_subject_cues)
        ("Has had migraines for a year.", "My boss has had migraines for a year.", "subject"),
        ("Works long hours as a nurse.", "My ex works long hours as a nurse.", "subject"),
        ("Has been drinking heavily since Christmas.", "My mate's been drinking heavily since Christmas.", "subject"),
        # an episode said to have passed is no present finding (ended_cues)
        ("Feels anxious most days.", "I felt anxious for a week in the spring, but that passed.", "ended"),
        ("Has been low most days since March.", "I was low in March for a bit but I picked myself up again.", "ended"),
        # living with others and tasks done for the person are the contrary of living alone and managing unaided
        ("Lives alone.", "I share a flat with two lads from work.", "opposite meaning"),
        ("Manages his own tablets without help.", "I've had to take over his tablets.", "opposite meaning"),
        ("Went to choir on Tuesdays, stopped in the summer.", "I'm still going to choir every Tuesday.", "opposite meaning"),
    ],
)
def test_other_people_ended_episodes_and_contrary_arrangements_refuse(checkpoint, output, why):
    assert why in (statement_conflict(checkpoint, output) or "")
    assert not Matcher(MatcherConfig(threshold=-1.0)).entails(checkpoint, output)


@pytest.mark.parametrize(
    "checkpoint, output",
    [
        ("Has had migraines for a year.", "I've had migraines for a year now."),
        ("Lives alone.", "I live on my own since the divorce."),
        ("Manages her own shopping and bills without help.", "I do all my own shopping and pay my bills, no help needed."),
        ("Has a few good friends.", "I've got a few good friends I see at weekends."),
        ("Has two friends from school he still sees.", "I've still got two mates from school, we meet up now and then."),
    ],
)
def test_the_patients_own_arrangements_still_match(matcher, checkpoint, output):
    assert statement_conflict(checkpoint, output) is None
    assert matcher.entails(checkpoint, output)
