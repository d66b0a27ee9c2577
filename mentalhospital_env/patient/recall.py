"""Recall: the facts of the record on what was asked, and only those, as an answer plan.

The second room of the patient. A :class:`FactIndex` holds the case's facts (concepts stated,
polarity, subject, topics, a bag-of-stems vector); :class:`MemorySkill` turns a
:class:`~mentalhospital_env.patient.question.Question` into an :class:`AnswerPlan` under the answer
policy:

* **affirm** what the record says (the facts that state the concept asked about);
* **deny** what the record rules out, and, for symptoms and signs (lexicon kinds ``symptom`` and
  ``sign``) and the history a psychiatric record would have listed (``data/recall.json``), what the
  record does not mention at all: a closed world;
* **don't know** for history the record does not cover (an open world);
* stay **consistent**: the same question gets the same answer, and a concept keeps its stance.

It also remembers what was said (:meth:`MemorySkill.commit`). Deterministic and model-free.
"""

from __future__ import annotations

import math
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from mentalhospital_env.cases import Case, Fact
from mentalhospital_env.knowledge.language import content_stems, memo_size, stems, tokens_of
from mentalhospital_env.knowledge.lexicon import Lexicon, lexicon_relations, load_lexicon

from .check import LeakGuard
from .implied import implied_findings, implied_topics
from .question import Question
from .reading import (
    _QUOTED,
    CLOSED_WORLD_KINDS,
    FAMILY_SECTION,
    MemoryCues,
    Statement,
    _read_data,
    _unit,
    concept_topics,
    cosine,
    load_memory_cues,
    read_statements,
)
from .timeline import says_when, without_time_anchor
from .understanding import is_reflection, load_taxonomy, record_topics


@dataclass(frozen=True)
class RecallRules:
    """Clinical rules of recall (``data/recall.json``): history a psychiatric record would have listed
    (silence there is a denial), sections whose facts are plain talk (not sensitive unless the case
    says so), and how a record says how long something has gone on."""

    closed_always: frozenset[str]
    closed_if_section: Mapping[str, frozenset[str]]
    plain_sections: frozenset[str]
    duration: re.Pattern[str]
    marital_status: Mapping[str, str] = field(default_factory=dict)
    amount: re.Pattern[str] = re.compile(r"(?!)")
    plain_topics: frozenset[str] = frozenset()
    plain_concepts: frozenset[str] = frozenset()
    #: how a record says a substance was only tried or given up long ago (``remote_use``)
    remote_use: re.Pattern[str] = re.compile(r"(?!)")
    remote_unless: re.Pattern[str] = re.compile(r"(?!)")
    silent_defaults: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    closest_ignores: re.Pattern[str] = re.compile(r"(?!)")
    #: stems a question shares with a sentence that never make it the answer on their own (``anchor_generic``)
    anchor_generic: frozenset[str] = frozenset()
    #: how a referral line says how the patient came, not what is happening to them (``how_they_came``)
    how_they_came: re.Pattern[str] = re.compile(r"(?!)")
    closed_unless_any: Mapping[str, frozenset[str]] = field(default_factory=dict)
    answered_by: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], bool, bool]] = field(default_factory=dict)
    #: concept -> what a record says of it in other words ("better off without her" is hopelessness)
    meaning: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    #: concept -> how a question asks it in words that would misread a record (``meaning_asked``)
    meaning_asked: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    #: concept -> how a record rules it out in other words ("no plan or intent" of death wishes: ``meaning_denied``)
    meaning_denied: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    #: topic -> the words in which a record sentence says the topic itself ("worried about who will look after my
    #: mother", "scared I'm going mad" of worry: ``topic_said``), not a finding of the lexicon
    topic_said: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    #: topic -> what is cut out of a sentence before ``topic_said`` reads it (a relative's worry about the patient)
    topic_said_not: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    #: how a question asks the patient's own view of what is happening (``explanatory_model``), and the
    #: examiner's signs such a question is not a screen for
    explanation_asked: re.Pattern[str] = re.compile(r"(?!)")
    explanation_not_screen: frozenset[str] = frozenset()
    #: sections a mental symptom's own words do not find a sentence in, and the lexicon domains of such symptoms
    #: (``symptom_words``)
    symptom_words_sections: frozenset[str] = frozenset()
    symptom_words_domains: frozenset[str] = frozenset()
    #: concept -> record wording in which a lexicon phrase of it means something else ("the strip light was
    #: buzzing" is no elation, "correcting other children" no dependants: ``misread``)
    misread: Mapping[str, re.Pattern[str]] = field(default_factory=dict)
    #: substance concepts, their own section, and the words of using one (``substance_named``)
    #: concept -> the interview topics its finding is filed and disclosed under (``finding_topics``)
    finding_topics: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    substances: frozenset[str] = frozenset()
    substance_section: str = "substance_use"
    use_words: re.Pattern[str] = re.compile(r"(?!)")
    #: facet -> (how a question asks that part of a subject, how a record sentence says it) (``facets``)
    facets: Mapping[str, tuple[re.Pattern[str], re.Pattern[str]]] = field(default_factory=dict)
    #: facet -> the sections whose sentences say it, for a facet said by where it is written (``facets``)
    facet_sections: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: facet -> sections beyond the presenting illness whose sentences may say it, on whatever subject they are
    #: filed (``facets`` ``look_in``: how a treatment went is written in the past history)
    facet_look_in: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: facet -> topics a question that asks it does not ask, whatever its reading (``facets`` ``not_topics``: "How likely
    #: do you think it is that you would act on those thoughts?" asks the intent, not the patient's view of an illness)
    facet_not_topics: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: how a record sentence says a treatment did nothing (``facets.outcome.none``)
    outcome_none: re.Pattern[str] | None = None
    #: questions on how a treatment went that are not answered no by such a sentence (``facets.outcome.none_not_asked``)
    outcome_none_not_asked: re.Pattern[str] | None = None
    #: kinds of topic a quote in the history makes what the patient came about (``came_about``)
    came_about_kinds: frozenset[str] = frozenset()
    #: broad concepts a narrower finding of the record answers (``came_about.told_by_narrower``)
    told_by_narrower: frozenset[str] = frozenset()
    #: lexicon domain -> the record sections whose denial decides a finding of it (``deciding_sections``)
    deciding_sections: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: topics whose past history goes on from their present in one answer (``lifetime_topics``)
    lifetime_topics: frozenset[str] = frozenset()
    #: words by which a question asks how a symptom is at present (``asks_now``)
    asks_now: re.Pattern[str] = re.compile(r"(?!)")
    #: concepts a question asks of a broader topic that only their own facts answer (``specific_concepts``)
    specific_concepts: frozenset[str] = frozenset()
    #: the suicide-risk follow-ups answered from what the record holds (``risk_answers``)
    kin: frozenset[str] = frozenset()
    kin_sections: tuple[str, ...] = ()
    not_kin: re.Pattern[str] = re.compile(r"(?!)")
    attempt_section: str = ""
    attempt_words: re.Pattern[str] = re.compile(r"(?!)")
    attempt_blocked_by: frozenset[str] = frozenset()
    #: concepts the household (who they live with) answers where the record is silent on them, and the words that
    #: name a dependant in the patient's own sentences (``household_answers``)
    household_concepts: frozenset[str] = frozenset()
    household_words: re.Pattern[str] = re.compile(r"(?!)")
    #: a family-history sentence about the patient's own child ("Daughter Shona (33): nurse in Tauranga"), which names
    #: a dependant as the personal history's sentences do (``household_answers`` ``children``)
    children_named: re.Pattern[str] = re.compile(r"(?!)")
    #: mentions that block saying no one depends on them, beside ``household_words``, and the subject of that
    #: denial (``household_answers`` ``nobody_blocked_by``, ``nobody_subject``: its words in denials.json)
    nobody_blocked_by: re.Pattern[str] = re.compile(r"(?!)")
    nobody_subject: str = ""
    #: the record's support for that denial (``household_answers`` ``_nobody_supported``): more mentions that block it,
    #: a household sentence of living alone, the companions after "lives with", and the adults they may all be
    nobody_blocked_also: re.Pattern[str] = re.compile(r"(?!)")
    nobody_alone: re.Pattern[str] = re.compile(r"(?!)")
    nobody_with: re.Pattern[str] = re.compile(r"(?!)")
    nobody_with_ends: re.Pattern[str] = re.compile(r"(?!)")
    nobody_adults_before: re.Pattern[str] = re.compile(r"(?!)")
    nobody_with_splits: re.Pattern[str] = re.compile(r"(?!)")
    nobody_adults: frozenset[str] = frozenset()
    #: a sibling or grandparent who lives with them and a parent: the parent's household, none of theirs to depend on
    nobody_parents: frozenset[str] = frozenset()
    nobody_beside_parent: frozenset[str] = frozenset()
    #: a sentence in which the child speaks or is the source names no dependant (``household_answers`` ``not_named``)
    not_named: re.Pattern[str] = re.compile(r"(?!)")
    #: a child that is no dependant of theirs, read only for who depends on them (``household_answers`` ``not_dependant``)
    not_dependant: re.Pattern[str] = re.compile(r"(?!)")
    #: the patient's own words that say a thing of the past ("I used to take thiamine", ``said_ended``): asked what
    #: they take or do now, a sentence said in the present answers first
    said_ended: re.Pattern[str] = re.compile(r"(?!)")
    #: a clinician's reporting verb said of the patient in the first person ("I confirm the handgun episode",
    #: ``chart_said``): a sentence no patient says
    chart_said: re.Pattern[str] = re.compile(r"(?!)")
    #: how a question asks the means at hand ("access to anything you could use", "guns at home")
    means_asked: re.Pattern[str] = re.compile(r"(?!)")
    #: a sentence that says the medicines are locked away or held by another (``risk.means_held``)
    means_held: re.Pattern[str] = re.compile(r"(?!)")
    #: a means question that names medicines ("such as medicines?"): the medicines they keep answer it, whatever the
    #: topic reader made of the word (``means_medicines``)
    means_medicines: re.Pattern[str] = re.compile(r"(?!)")
    #: findings that are the patient's whoever the sentence says holds them (``held_by_another``): a means of harm kept
    #: by someone they can reach
    held_by_another: frozenset[str] = frozenset()
    #: how the patient's own sentence says where or with whom they live (``lives_said``)
    lives_said: re.Pattern[str] = re.compile(r"(?!)")
    #: a clinician's questioned or differential impression (``questioned``): chart knowledge that states no finding
    questioned: re.Pattern[str] = re.compile(r"(?!)")
    #: a precipitant said only by a clinician: (its clause, the patient's lead for it, whose words) (``facets``)
    precipitant_voiced: tuple[re.Pattern[str], Mapping[str, str], Mapping[str, str]] | None = None
    #: a sentence of the family history on a relative's mental health (``family_mental_health``)
    family_mental: re.Pattern[str] = re.compile(r"(?!)")
    family_mental_asked: re.Pattern[str] = re.compile(r"(?!)")
    #: a family-history sentence about a relative's body only (``family_mental_health.physical``): no answer to it
    family_physical: re.Pattern[str] = re.compile(r"(?!)")


@lru_cache(maxsize=1)
def load_recall_rules() -> RecallRules:
    raw = _read_data("recall.json")
    risk = raw.get("risk_answers", {})
    household = raw.get("household_answers", {})
    closed = raw["closed_world_concepts"]
    numbers = sorted(raw["duration_numbers"], key=len, reverse=True)
    units = raw["duration_units"]
    duration = re.compile(
        r"\b((?:(?:about|around|over|nearly|almost|roughly|the last|the past|for)\s+)?(?:"
        + "|".join(re.escape(n) for n in numbers)
        + r"|\d+(?:\.\d+)?)(?:\s+and\s+a\s+half)?\s+(?:"
        + "|".join(units)
        + r")s?(?:\s+and\s+a\s+half)?(?:\s+ago)?)\b",
        re.IGNORECASE,
    )
    return RecallRules(
        closed_always=frozenset(closed["always"]),
        closed_if_section={k: frozenset(v) for k, v in closed["if_section"].items()},
        closed_unless_any={k: frozenset(v) for k, v in closed.get("unless_any_affirmed", {}).items()},
        plain_sections=frozenset(raw["plain_sections"]),
        marital_status=dict(raw["marital_status"]),
        duration=duration,
        amount=re.compile(
            r"\b(?:(?:" + "|".join(numbers + [r"\d+(?:\.\d+)?", "half", "twice", "once"]) + r")\b[\w\s-]{0,24}?\b(?:"
            + "|".join(raw["amount_units"]) + r")s?\b|(?:" + "|".join(raw["amount_phrases"]) + r"))",
            re.IGNORECASE,
        ),
        plain_topics=frozenset(raw.get("plain_topics", ())),
        plain_concepts=frozenset(raw.get("plain_concepts", ())),
        remote_use=re.compile(raw["remote_use"]["said"], re.IGNORECASE) if raw.get("remote_use") else re.compile(r"(?!)"),
        remote_unless=re.compile(raw["remote_use"]["unless"], re.IGNORECASE) if raw.get("remote_use") else re.compile(r"(?!)"),
        lifetime_topics=frozenset(raw.get("lifetime_topics", {}).get("topics", ())),
        asks_now=re.compile(raw["asks_now"]["said"], re.IGNORECASE) if raw.get("asks_now") else re.compile(r"(?!)"),
        specific_concepts=frozenset(raw.get("specific_concepts", {}).get("concepts", ())),
        silent_defaults=dict(raw.get("silent_defaults", {})),
        answered_by={k: (tuple(v["topics"]), tuple(v.get("sections", ())), bool(v.get("presentation", False)),
                         bool(v.get("wh_only", False)))
                     for k, v in raw.get("answered_by", {}).items() if not k.startswith("_")},
        how_they_came=re.compile("|".join(raw["how_they_came"]["said"]), re.IGNORECASE) if raw.get("how_they_came") else re.compile(r"(?!)"),
        anchor_generic=frozenset(st for w in raw.get("anchor_generic", {}).get("words", ()) for st in stems(w)),
        family_mental=re.compile(r"\b(?:" + "|".join(raw["family_mental_health"]["words"]) + r")\b", re.IGNORECASE)
        if raw.get("family_mental_health") else re.compile(r"(?!)"),
        family_mental_asked=re.compile(r"\b(?:" + "|".join(raw["family_mental_health"]["asked"]) + r")\b", re.IGNORECASE)
        if raw.get("family_mental_health") else re.compile(r"(?!)"),
        family_physical=re.compile(r"\b(?:" + "|".join(raw["family_mental_health"]["physical"]) + r")\b", re.IGNORECASE)
        if raw.get("family_mental_health", {}).get("physical") else re.compile(r"(?!)"),
        closest_ignores=re.compile(r"\b(?:" + "|".join(map(re.escape, raw.get("closest_ignores", ()))) + r")\b", re.IGNORECASE)
        if raw.get("closest_ignores") else re.compile(r"(?!)"),
        meaning={k: re.compile("|".join(f"(?:{p})" for p in v), re.IGNORECASE)
                 for k, v in raw.get("meaning", {}).items() if not k.startswith("_")},
        meaning_asked={k: re.compile("|".join(f"(?:{p})" for p in v), re.IGNORECASE)
                       for k, v in raw.get("meaning_asked", {}).items() if not k.startswith("_")},
        meaning_denied={k: re.compile("|".join(f"(?:{p})" for p in v), re.IGNORECASE)
                        for k, v in raw.get("meaning_denied", {}).items() if not k.startswith("_")},
        topic_said={k: re.compile("|".join(f"(?:{p})" for p in v), re.IGNORECASE)
                    for k, v in raw.get("topic_said", {}).items() if not k.startswith("_")},
        topic_said_not={k: re.compile("|".join(f"(?:{p})" for p in v), re.IGNORECASE)
                        for k, v in raw.get("topic_said_not", {}).items() if not k.startswith("_")},
        explanation_asked=re.compile("|".join(raw["explanatory_model"]["asked"]), re.IGNORECASE)
        if raw.get("explanatory_model") else re.compile(r"(?!)"),
        explanation_not_screen=frozenset(raw.get("explanatory_model", {}).get("not_screened", ())),
        symptom_words_sections=frozenset(raw.get("symptom_words", {}).get("sections", ())),
        symptom_words_domains=frozenset(raw.get("symptom_words", {}).get("domains", ())),
        misread={k: re.compile("|".join(f"(?:{p})" for p in v), re.IGNORECASE)
                 for k, v in raw.get("misread", {}).items() if not k.startswith("_")},
        finding_topics={k: tuple(v) for k, v in raw.get("finding_topics", {}).items() if not k.startswith("_")},
        substances=frozenset(raw.get("substance_named", {}).get("concepts", ())),
        substance_section=raw.get("substance_named", {}).get("section", "substance_use"),
        use_words=re.compile(raw["substance_named"]["use_words"], re.IGNORECASE)
        if raw.get("substance_named") else re.compile(r"(?!)"),
        facets={k: (re.compile("|".join(v["asked"]), re.IGNORECASE), re.compile("|".join(v.get("said", ())) or "(?!)", re.IGNORECASE))
                for k, v in raw.get("facets", {}).items() if not k.startswith("_")},
        facet_sections={k: frozenset(v["sections"]) for k, v in raw.get("facets", {}).items()
                        if not k.startswith("_") and v.get("sections")},
        outcome_none=re.compile("|".join(raw["facets"]["outcome"]["none"]), re.IGNORECASE)
        if raw.get("facets", {}).get("outcome", {}).get("none") else None,
        outcome_none_not_asked=re.compile("|".join(raw["facets"]["outcome"]["none_not_asked"]), re.IGNORECASE)
        if raw.get("facets", {}).get("outcome", {}).get("none_not_asked") else None,
        facet_look_in={k: tuple(v["look_in"]) for k, v in raw.get("facets", {}).items()
                       if not k.startswith("_") and v.get("look_in")},
        facet_not_topics={k: frozenset(v["not_topics"]) for k, v in raw.get("facets", {}).items()
                          if not k.startswith("_") and v.get("not_topics")},
        came_about_kinds=frozenset(raw.get("came_about", {}).get("kinds", ())),
        told_by_narrower=frozenset(raw.get("came_about", {}).get("told_by_narrower", ())),
        deciding_sections={k: frozenset(v) for k, v in raw.get("deciding_sections", {}).get("domains", {}).items()},
        kin=frozenset(risk.get("kin", ())),
        kin_sections=tuple(risk.get("kin_sections", ())),
        not_kin=re.compile(risk.get("not_kin", r"(?!)"), re.IGNORECASE),
        attempt_section=risk.get("attempt_section", ""),
        attempt_words=re.compile(risk.get("attempt_words", r"(?!)"), re.IGNORECASE),
        attempt_blocked_by=frozenset(risk.get("attempt_blocked_by", ())),
        household_concepts=frozenset(household.get("concepts", ())),
        household_words=re.compile(r"\b(?:" + "|".join(map(re.escape, household["words"])) + r")\b"
                                   + (f"|{household['words_counted']}" if household.get("words_counted") else ""), re.IGNORECASE)
        if household.get("words") else re.compile(r"(?!)"),
        children_named=re.compile(household["children"], re.IGNORECASE) if household.get("children") else re.compile(r"(?!)"),
        nobody_blocked_by=re.compile(household["nobody_blocked_by"], re.IGNORECASE)
        if household.get("nobody_blocked_by") else re.compile(r"(?!)"),
        nobody_subject=household.get("nobody_subject", ""),
        nobody_blocked_also=re.compile("|".join(f"(?:{p})" for p in household["nobody_blocked_also"]), re.IGNORECASE)
        if household.get("nobody_blocked_also") else re.compile(r"(?!)"),
        nobody_alone=re.compile(household.get("nobody_alone", r"(?!)"), re.IGNORECASE),
        nobody_with=re.compile(household.get("nobody_with", r"(?!)"), re.IGNORECASE),
        nobody_with_ends=re.compile(household.get("nobody_with_ends", r"(?!)"), re.IGNORECASE),
        nobody_adults_before=re.compile(household.get("nobody_adults_before", r"(?!)"), re.IGNORECASE),
        nobody_with_splits=re.compile(household.get("nobody_with_splits", r"(?!)"), re.IGNORECASE),
        nobody_adults=frozenset(w.lower() for w in household.get("nobody_adults", ())),
        nobody_parents=frozenset(w.lower() for w in household.get("nobody_parents", ())),
        nobody_beside_parent=frozenset(w.lower() for w in household.get("nobody_beside_parent", ())),
        not_named=re.compile(household["not_named"], re.IGNORECASE) if household.get("not_named") else re.compile(r"(?!)"),
        not_dependant=re.compile("|".join(f"(?:{p})" for p in household["not_dependant"]), re.IGNORECASE)
        if household.get("not_dependant") else re.compile(r"(?!)"),
        said_ended=re.compile(raw["said_ended"], re.IGNORECASE) if raw.get("said_ended") else re.compile(r"(?!)"),
        chart_said=re.compile(raw["chart_said"], re.IGNORECASE) if raw.get("chart_said") else re.compile(r"(?!)"),
        means_asked=re.compile(risk.get("means_asked", r"(?!)"), re.IGNORECASE),
        means_medicines=re.compile(risk.get("means_medicines", r"(?!)"), re.IGNORECASE),
        means_held=re.compile(risk.get("means_held", r"(?!)"), re.IGNORECASE),
        held_by_another=frozenset(risk.get("held_by_another", ())),
        lives_said=re.compile(raw["lives_said"], re.IGNORECASE) if raw.get("lives_said") else re.compile(r"(?!)"),
        questioned=re.compile(raw["questioned"], re.IGNORECASE) if raw.get("questioned") else re.compile(r"(?!)"),
        precipitant_voiced=(re.compile(pv["clause"], re.IGNORECASE), dict(pv["leads"]), dict(pv["mine"]))
        if (pv := raw.get("facets", {}).get("precipitant", {}).get("voiced")) else None,
    )


def _mental_said(text: str, words: re.Pattern[str]) -> str | None:
    """``had`` where a family-history sentence says a relative's mental health in its words (``words``), ``not``
    where each such word is ruled out in its clause ("never seen by a psychiatrist", "No mental illness known"),
    else None."""
    if not words.search(text):
        return None
    return "had" if _names_unnegated(words, text) else "not"


@lru_cache(maxsize=1)
def _protective_list() -> tuple[re.Pattern[str], frozenset[str]]:
    """How a clinician lists protective factors and the things a person would name of them (``protective``
    of ``data/render.json``, the table say.py voices the list with)."""
    table = _read_data("render.json").get("protective", {})
    return re.compile(table.get("lead", r"(?!)"), re.IGNORECASE), frozenset(table.get("things", ()))


def lists_protective(text: str) -> bool:
    """Whether a clinician's sentence lists protective factors a patient can name ("protective factors are
    his daughter and his wife", "Protective: children, wife willing to support"), not only a clinician's
    ("Protective: help-seeking now")."""
    lead, things = _protective_list()
    found = lead.search(text)
    if not found:
        return False
    for item in re.split(r",|;|\band\b|/", found.group(1)):
        words = re.findall(r"[a-z'-]+", item.lower())
        while words and words[0] in ("her", "his", "their", "the", "a", "an", "my"):
            words = words[1:]
        if words and words[0] in things:
            return True
    return False


#: a negation in the clause before a phrase ("no thoughts of harming the baby", "denies anyone is against him")
_NEGATED_BEFORE = re.compile(r"\b(?:no|not|never|nor|denie[sd]|deny|without|none)\b[^.;,]*$", re.IGNORECASE)


def _names_unnegated(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``text`` says what ``pattern`` finds with no negation before it in its clause ("one overdose at
    28", not "no previous attempts")."""
    return any(not _NEGATED_BEFORE.search(text[:m.start()]) for m in pattern.finditer(text))


def meant(text: str, rules: RecallRules) -> frozenset[str]:
    """The concepts a record sentence states as present in other words than the lexicon's
    (``data/recall.json`` ``meaning``): "would be better off without her" is hopelessness, "said he would
    'sort them out'" a thought of harming others. A phrase negated earlier in its clause states nothing."""
    if rules is load_recall_rules():
        return _meant(text)  # the bundled rules: remembered per text (the reply path asks of its own wording)
    return _read_meaning(text, rules)


@lru_cache(maxsize=memo_size(8192))
def _meant(text: str) -> frozenset[str]:
    return _read_meaning(text, load_recall_rules())


def _read_meaning(text: str, rules: RecallRules, table: str = "meaning") -> frozenset[str]:
    """The concepts of a ``meaning`` table (``meaning`` or ``meaning_asked``) whose wording ``text`` says,
    not negated in its clause, nor inside a list the record rules the concept out by (``meaning_denied``: 'no active
    ideation, method, intent, plan or preparatory behavior' states no preparatory behaviour, though its commas end the
    clause the negation is read in)."""
    patterns = getattr(rules, table)
    found = set()
    if not _any_meaning(patterns).search(text):
        return frozenset(found)  # no wording of the table in the text (most texts): one search, not one per concept
    for concept_id, pattern in patterns.items():
        denied = rules.meaning_denied.get(concept_id) if table == "meaning" else None
        spans = [d.span() for d in denied.finditer(text)] if denied is not None else []
        if any(not _NEGATED_BEFORE.search(text[max(0, m.start() - 60):m.start()])
               and not any(a <= m.start() < b for a, b in spans) for m in pattern.finditer(text)):
            found.add(concept_id)
    return frozenset(found)


_ANY_MEANING: dict[int, tuple[Mapping[str, re.Pattern[str]], re.Pattern[str]]] = {}


def _any_meaning(patterns: Mapping[str, re.Pattern[str]]) -> re.Pattern[str]:
    """One pattern matching wherever any of a meaning table's patterns matches (their alternation; found again
    by the table's identity, the entry holding the table so its id is not reused while kept)."""
    entry = _ANY_MEANING.get(id(patterns))
    if entry is None or entry[0] is not patterns:
        flags = {p.flags for p in patterns.values()}
        if len(flags) == 1 and not any(p.groups for p in patterns.values()):
            joined = re.compile("|".join(f"(?:{p.pattern})" for p in patterns.values()) or r"(?!)", flags.pop())
        else:  # mixed flags or groups: no safe alternation, every pattern is searched
            joined = re.compile(r"")
        if len(_ANY_MEANING) >= 64:
            _ANY_MEANING.clear()
        entry = _ANY_MEANING[id(patterns)] = (patterns, joined)
    return entry[1]


@lru_cache(maxsize=memo_size(4096))
def asked_meaning(text: str) -> frozenset[str]:
    """The concepts a doctor's question asks in other words than the lexicon's: the record's ``meaning``
    and the question's own wordings (``meaning_asked`` of ``data/recall.json``), not negated in their clause."""
    return _meant(text) | _read_meaning(text, load_recall_rules(), "meaning_asked")


def names_use(fact: Fact, rules: RecallRules) -> bool:
    """Whether a fact may affirm a substance: in the substance section, or speaking of using one ("I smoke
    weed every day"), never a word that only looks like one ("Home visit (joint, CPN and SpR)")."""
    if fact.section == rules.substance_section:
        return True
    return rules.use_words.search(f"{fact.text} {fact.patient_says or ''}") is not None


def amount_in(text: str) -> str | None:
    """How much or how often, as the text says it ("about six units a week", "two or three times a
    week", "every night", "half a gram"), or ``None``. A span of time before a rate of a shorter unit ("low for
    three weeks every day") is how long, not how much: the rate is read on its own ("every day")."""
    text = text or ""
    at = 0
    while (m := load_recall_rules().amount.search(text, at)):
        span = _SPAN_BEFORE_RATE.match(m.group(0))
        if not span or _TIME_RANK[span.group(1).lower()] <= _TIME_RANK[span.group(2).lower()]:
            return m.group(0).strip()
        at = m.start() + span.end(1)  # on from the span's unit: the rate alone
    return None


# how long each unit of time is, in order: a span of a longer unit before a rate of a shorter one ("three weeks every
# day") is a duration and a rate, never a rate ("three hours a day", "two days a week" are rates)
_TIME_RANK = {"hour": 0, "day": 1, "night": 1, "morning": 1, "evening": 1, "week": 2, "weekend": 2, "month": 3, "year": 4, "decade": 5}
_SPAN_BEFORE_RATE = re.compile(r"^\S+\s+(?:and\s+a\s+half\s+)?(hour|day|week|month|year|decade)s?\b.*?\b(?:a|an|per|each|every)\s+"
                               r"(hour|day|night|morning|evening|week|weekend|month|year)\b", re.IGNORECASE)
_RATE_AFTER = re.compile(r"\s+(?:a|an|per|each|every)\s+(day|week|month|year|night|morning|evening)\b", re.IGNORECASE)


def duration_in(text: str) -> str | None:
    """How long, as the text says it ("about two years", "four months ago"), or ``None``."""
    for m in load_recall_rules().duration.finditer(text or ""):
        found = m.group(1).strip()
        words = found.lower().split()
        if words[0] in ("a", "an") and not found.lower().endswith(" ago"):
            continue  # "110 units a week", "twice a day": a rate, not how long
        rate = _RATE_AFTER.match(text, m.end())
        unit = re.search(r"(hour|day|week|month|year|decade)s?(?:\s+and\s+a\s+half)?(?:\s+ago)?$", found, re.IGNORECASE)
        if rate and not (unit and _TIME_RANK[unit.group(1).lower()] > _TIME_RANK[rate.group(1).lower()]):
            continue  # "three hours a day", "two days a week": a rate, not how long ("three weeks every day" is how long)
        return re.sub(r"^for\s+", "", found, flags=re.IGNORECASE)
    return None


# --------------------------------------------------------------------------------------------------
# The fact index
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IndexedFact:
    """A fact of the record as the memory skill reads it.

    ``affirms``: concepts the fact states as present in the patient; ``rules_out``: concepts it
    states as absent; ``about_other``: concepts it states about someone else (a relative);
    ``tellable``: whether a patient can tell it (not an observation of the examiner such as affect);
    ``sensitive``: the case marks it so, or it states a sensitive concept; ``leaks``: its text names
    the diagnosis, a code or a score, so it is only ever told with those words removed.
    """

    fact: Fact
    position: int
    affirms: frozenset[str]
    rules_out: frozenset[str]
    about_other: frozenset[str]
    tellable: bool
    sensitive: bool
    leaks: bool
    vector: Mapping[str, float]
    content: frozenset[str]
    topics: tuple[str, ...] = ()
    present: bool = True
    #: concepts of ``affirms`` read only by meaning (``data/recall.json`` ``meaning``), not by the lexicon
    meant: frozenset[str] = frozenset()
    #: topics the sentence says in the topic's own words (``data/recall.json`` ``topic_said``): asked that topic,
    #: it is the answer before a sentence filed under it for a neighbouring word ("wound up like a spring")
    said: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        return self.fact.id

    @property
    def section(self) -> str:
        return self.fact.section


def _tellable(fact: Fact, cues: MemoryCues, concepts: frozenset[str]) -> bool:
    """A patient can tell a fact unless the examiner observes or assesses it: the observed mental status
    domains (``data/taxonomy.json``), and any other mental status finding that is only an assessment
    (no ``patient_says``, no lexicon concept and no quoted patient's word in it, e.g. "Alert and
    oriented"; a quoted mood such as "'Empty'" is the patient's own word)."""
    if not fact.told or fact.section in cues.observed_sections:
        return False  # what only a clinician knows (a compiled record marks it so)
    if fact.section.startswith("mental_status_exam.") and fact.section != "mental_status_exam.insight":
        return bool(fact.patient_says) or bool(concepts) or _QUOTED.search(fact.text) is not None
    return True


_DEMOGRAPHIC_TOPICS = (("occupation", "work"), ("education", "education"), ("living_situation", "living_situation"))


def _demographic_stems(case: Case, stopwords: frozenset[str]) -> tuple[tuple[str, frozenset[str]], ...]:
    """Content stems of the case's occupation, education and living situation, with their topics: a
    record sentence that names the patient's job ("freelance designer for eight years") is about work."""
    demo = case.demographics
    out = []
    for key, topic in _DEMOGRAPHIC_TOPICS:
        value = getattr(demo, key, None)
        if value:
            words = frozenset(s for s in stems(value) if s not in stopwords and len(s) > 3)
            if words:
                out.append((topic, words))
    return tuple(out)


def _a(noun: str) -> str:
    """The noun with its indefinite article by sound: "an engineer", "a university student", "an hourly worker"."""
    low = noun.lower()
    vowel_sound = (low[:1] in "aeiou" and not low.startswith(("uni", "use", "usu", "uti", "eu", "one", "ure"))) or low.startswith(("hour", "honest", "heir"))
    return f"{'an' if vowel_sound else 'a'} {noun}"


_LIVING = "living_situation"


def _says_home(fact: IndexedFact) -> bool:
    """Whether a sentence the patient says tells where or with whom they themselves live (``lives_said``)."""
    return bool(load_recall_rules().lives_said.search(fact.fact.patient_says or ""))


def _dependant_misreads(rules: RecallRules) -> list[re.Pattern[str]]:
    """The patterns whose words name no dependant when read for who depends on them: the lexicon's misreads of the
    household concepts and ``not_dependant`` ("correcting other children", "I was an only child")."""
    return [rules.misread[c] for c in rules.household_concepts if c in rules.misread] + [rules.not_dependant]


def _household_adults_only(fact: IndexedFact, rules: RecallRules) -> bool | None:
    """Whether a household sentence supports that no one depends on them (``household_answers``
    ``_nobody_supported``): True where it says they live alone or every person named after "lives with" is an adult
    of ``nobody_adults``; None where it names anyone else; False where it names no one (``lives in a rented house``).
    A sibling or grandparent named beside a parent (``nobody_beside_parent``, ``nobody_parents``) is the parent's
    household: "his mother, his sister (15) and his maternal grandmother" names no dependant of his (uw-031)."""
    found = False
    for text in (fact.fact.text, fact.fact.patient_says or ""):
        if rules.nobody_alone.search(text):
            found = True
        for with_ in rules.nobody_with.finditer(text):
            companions = rules.nobody_with_ends.split(with_.group(1), maxsplit=1)[0]
            named = []
            for who in rules.nobody_with_splits.split(companions):  # ",", "and", "&" (``nobody_with_splits``)
                who = re.sub(r"\s+[A-Z]\w*$", "", who.strip())  # "his wife Sarah"
                who = rules.nobody_adults_before.sub("", who).strip().lower()
                if who:
                    named.append(who)
            parent = any(who in rules.nobody_parents for who in named)
            for who in named:
                if who not in rules.nobody_adults and not (parent and who in rules.nobody_beside_parent):
                    return None
                found = True
    return found


def _job_says(job: str) -> str:
    """The occupation as the patient says it: "retired sheep farmer" -> "I'm a retired sheep farmer.",
    "unemployed (previously forklift driver)" -> "I'm unemployed. I used to be a forklift driver."."""
    before = ""
    was = re.match(r"^(.*?)\s*[(,]\s*(?:previously|formerly|ex-?|used to be|was)\s+(?:an? )?([^)]+?)\)?$", job, re.IGNORECASE)
    if was:
        job, before = was.group(1).strip(), was.group(2).strip()
    low = job.lower()
    if low in ("retired", "unemployed", "self-employed", "a student", "student") or re.match(r"^(?:on |between |off |out of |a |an )", low):
        says = f"I'm {job if low != 'student' else 'a student'}."
    else:
        says = f"I'm {_a(job)}."
    if before:
        says += f" I used to be {_a(before)}." if not re.match(r"^(?:a|an|the)\b", before, re.IGNORECASE) else f" I used to be {before}."
    return says


_EXAMINER_SECTIONS = ("mental_status_exam", "risk_assessment")
#: the patient's own words quoted in a clinician's sentence ("said he would 'sort them out'"), the words inside as group 1
#: (an apostrophe inside a word stays in the quote: "'if nothing's fixed by Christmas I don't see the point'", uw-020);
#: recall finds the quotes with it and say voices them (say.py), one pattern for both
#: a dialect word's closing apostrophe before a lower-case word ("'it's the panic no' the heart'", uw-023) stays in the
#: quote too (``quote_elisions`` of ``data/recall.json``)
_ELIDED = "|".join(rf"(?<=(?<![A-Za-z]){re.escape(w)})" for w in sorted(_read_data("recall.json")["quote_elisions"], key=len, reverse=True))
QUOTED_WORDS = re.compile(
    r"(?<![A-Za-z])['\u2018\u201c\"]([A-Za-z](?:[^'\u2019\u201d\"]|(?<=[a-z])['\u2019](?=[a-z])|(?:" + _ELIDED
    + r")['\u2019](?= [a-z]+\b[^'\u2019]*['\u2019])){3,80})['\u2019\u201d\"](?![A-Za-z])")


@lru_cache(maxsize=memo_size(4096))
def _concept_stems(lexicon: Lexicon, concept_id: str) -> frozenset[str]:
    """The content stems of a concept's terms (clinical and lay), empty for an id the lexicon lacks."""
    if concept_id not in lexicon:
        return frozenset()
    return frozenset(s for term in lexicon.get(concept_id).terms for s in content_stems(term))


def finding_topics(concept_id: str, lexicon: Lexicon) -> tuple[str, ...]:
    """The interview topics a finding is filed and disclosed under: recall's own where it names them
    (``finding_topics``: suicidal thoughts are the suicide topic, not the sleep complaint a cue word of theirs
    happens to share), else the lexicon's."""
    return tuple(load_recall_rules().finding_topics.get(concept_id, ())) or tuple(concept_topics(lexicon, concept_id))


@lru_cache(maxsize=memo_size(1024))
def _narrower(concept_id: str) -> tuple[str, ...]:
    """The findings that imply a concept (the lexicon's ``implies`` pairs: opioid use implies drug use)."""
    return tuple(a for a, b in lexicon_relations("implies") if b == concept_id)


def _quotes_patient(fact: Fact) -> bool:
    """Whether a record sentence quotes the patient's own words, the words they say here (``He adds, "I'm
    using heroin every day."``): the first sentence of their ``patient_says`` stands in the record's as written."""
    said = re.split(r"(?<=[.!?])\s", (fact.patient_says or "").strip())[0].rstrip(".!?").strip().lower()
    text = fact.text.replace("\u2019", "'").lower()
    return len(said) > 3 and said.replace("\u2019", "'") in text


# what the patient came with, not their circumstances ("my daughter driving" among the worries is no household)
_PRESENTATION_SECTIONS = ("chief_complaint", "history_of_present_illness")
# a person's circumstances: who is at home, what they do with a weekend (not "drinks at weekends")
_CIRCUMSTANCE_SECTIONS = ("personal_history", "social_history")


def _spoken(case: Case) -> tuple[Fact, ...]:
    """The case's facts, each the patient can tell carrying the words the patient says it in.

    A fact written without ``patient_says`` (a structured case's sentence; the generator and the
    compiler give theirs one) is said through the compiler's one route from record text to speech
    (:func:`~mentalhospital_env.cases.compile.voiced`, spaCy's parse, once per case); a sentence the
    patient would not say (referral wording, a score, a heading, one no rendering shapes into speech)
    is marked untold, never read out. The examiner's sections keep their own handling (lay words for
    the findings they name), and family history its relative's wording."""
    from mentalhospital_env.cases.compile import voiced

    out = []
    own = {"female": "she", "male": "he"}.get(case.demographics.sex, "they")
    chart = load_recall_rules().chart_said
    for fact in case.facts:
        if fact.section == FAMILY_SECTION and not fact.patient_says and fact.told and re.match(rf"^{own}\b", fact.text, re.IGNORECASE):
            # phrasing only: "She knows of no family member with a psychiatric illness ..." (test-v2-0095) is the
            # patient's own knowledge, said "I don't know of any ...", never read out in the third person
            says = voiced(fact.section, fact.text, case.demographics.sex)
            fact = replace(fact, patient_says=says) if says else fact
        elif not (fact.patient_says or not fact.told or fact.section.startswith(_EXAMINER_SECTIONS)
                  or fact.section == FAMILY_SECTION):
            says = voiced(fact.section, fact.text, case.demographics.sex)
            fact = replace(fact, patient_says=says) if says else replace(fact, told=False)
        if fact.patient_says and fact.told and chart.search(fact.patient_says):
            # a clinician's verb put in the patient's mouth, the case's words or the voicing's ("Suicide: confirms the
            # handgun episode of 26 November." said "I confirm the handgun episode of 26 November.", uw-020, to four
            # risk questions in a row): no one says that of themselves; the sentence is the clinician's, and what it
            # points at is told from the patient's own account of it (data/recall.json chart_said)
            fact = replace(fact, told=False)
        out.append(fact)
    return tuple(out)


def _demographic_facts(case: Case, spoken: tuple[Fact, ...]) -> tuple[Fact, ...]:
    """Who the patient lives with and what they do, from the case's demographics, as facts the patient
    can tell, when no sentence the patient says (``spoken``, from :func:`_spoken`) already files them
    (ids ``demographics.<key>``)."""
    from mentalhospital_env.cases.compile import voiced

    demo = case.demographics
    # what the patient's own sentences already file ("Flat, with agitation" in the examination is no home;
    # a record sentence no rendering could voice files nothing the patient can say)
    have = {t for f in spoken if f.time != "past" and f.told and not f.section.startswith(_EXAMINER_SECTIONS)
            # read in the patient's words too: "On his own in a council flat" files no home until said ("I live ...")
            for t in (f.topics or record_topics(f.section, f"{f.text} {f.patient_says or ''}"))}
    if "living_situation" in have and not any(
        f.told and f.time != "past" and load_recall_rules().lives_said.search(f.patient_says or "") for f in spoken
        if not f.section.startswith(_EXAMINER_SECTIONS)
        and "living_situation" in (f.topics or record_topics(f.section, f"{f.text} {f.patient_says or ''}"))
    ):
        # filed under the home by a word only ("Their daughter Lauren lives in Sheffield", "I married Karen in
        # 1994"): no sentence of theirs says who is at home, so the demographics do
        have.discard("living_situation")
    out = []
    living = (demo.living_situation or "").strip().rstrip(".")
    # said through the compiler's one route from record text to speech, as any record sentence is
    says = voiced("personal_history", f"{living}.", demo.sex) if living and "living_situation" not in have else None
    if not says and living and "living_situation" not in have and re.match(r"(?:with|alone)\b", living, re.IGNORECASE):
        # a note's fragment that leaves out its verb ("with his wife in the manager's house ...; alone on the station on
        # weekdays ...; five working dogs", uw-021) is said as the home it names: its first clause, with the verb
        # written in ("I live with my wife in the manager's house ..."); the asides after it are not who is at home
        says = voiced("personal_history", f"Lives {living.split(';')[0].strip().rstrip('.,')}.", demo.sex)
    if says:
        out.append(Fact("demographics.living_situation", "personal_history", living, says, False,
                        topics=("living_situation",), polarity="present", time="current"))
    # a note's aside or semicolon said as a spoken aside ("dental hygienist (on sick leave)", "unemployed;
    # previously labourer" -> "I'm unemployed. I used to be a labourer.")
    job = re.sub(r"\s*[(;]\s*", ", ", (demo.occupation or "").strip().rstrip(".")).replace(")", "")
    # a sentence of the patient's own already names the job ("At the moment I'm a postgraduate student.",
    # "I've been a dental hygienist for nine years."): not said twice in two wordings
    core = re.sub(r"\s*[(,].*$", "", job).lower()
    named = core and any(f.told and core in (f.patient_says or "").lower() for f in spoken)
    if job and "work" not in have and not named:
        says = _job_says(job)
        out.append(Fact("demographics.occupation", "personal_history", job, says, False,
                        topics=("work",), polarity="present", time="current"))
    status = (getattr(demo, "marital_status", None) or "").strip().lower().rstrip(".")
    says = load_recall_rules().marital_status.get(status)
    if says and "relationships" not in have:
        out.append(Fact("demographics.marital_status", "personal_history", status, says, False,
                        topics=("relationships",), polarity="present", time="current"))
    return tuple(out)


SILENT = "silent."  # id prefix of a person's default for a topic the whole record is silent on


def _silent_defaults(case: Case, rules: RecallRules) -> tuple[Fact, ...]:
    """What the patient says of their own history where the whole record is silent on a topic
    (``data/recall.json`` ``silent_defaults``): "It was ordinary enough, growing up" rather than
    "I'm not sure" about a childhood. Only where no sentence of the record, told or not, is on the
    topic, on a related one or on one it names in ``unless``, and the record has no such section."""
    if not rules.silent_defaults:
        return ()
    taxonomy = load_taxonomy()
    have: set[str] = set()
    sections = {f.section for f in case.facts}
    own: dict[str, set[str]] = {}  # topics by section
    for f in case.facts:
        topics = f.topics or record_topics(f.section, f"{f.text} {f.patient_says or ''}")
        have.update(topics)
        own.setdefault(f.section, set()).update(topics)
    out = []
    for topic, spec in rules.silent_defaults.items():
        near = {*spec.get("unless", ()), *(taxonomy.by_id[topic].related if topic in taxonomy.by_id else ())}
        home = taxonomy.by_id[topic].closed_if_section if topic in taxonomy.by_id else None
        # a panic attack's "trauma" or fast talk's "development" in the presenting illness says nothing of
        # a childhood: a related topic counts from the default's own section only
        if topic in have or near & own.get(str(spec["section"]), set()) or (home and home in sections):
            continue
        out.append(Fact(f"{SILENT}{topic}", str(spec["section"]), str(spec["says"]), str(spec["says"]), False,
                        topics=(topic,), polarity="present", time="current"))
    return tuple(out)


def _with_demographics(topics: tuple[str, ...], fact: Fact, demographic: tuple) -> tuple[str, ...]:
    if fact.section != "personal_history" or not demographic or fact.id.startswith(("demographics.", SILENT)):
        return topics  # the demographics' own sentences carry their topic already
    words = set(stems(fact.text))
    extra = [t for t, ws in demographic if t not in topics and ws & words]
    return topics + tuple(extra) if extra else topics


def _without_substances(topics: tuple[str, ...], drop: bool) -> tuple[str, ...]:
    """A fact's topics without the substance topics when it does not speak of using one."""
    if not drop:
        return topics
    tax = load_taxonomy()
    return tuple(t for t in topics if t not in tax.by_id or tax.kind(t) != "substance")


def _sensitive(
    fact: Fact, concept_sensitive: bool, rules: RecallRules, lexicon: Lexicon, affirms: frozenset[str],
    topics: Iterable[str] = (),
) -> bool:
    """Whether rapport must allow a fact first: the case marks it so or it states a sensitive concept,
    except in the plain sections, except a fact only on a plain topic (how much someone drinks)
    that names no sensitive concept other than the plain topic's own, and except a substance only tried
    or given up long ago (``remote_use``) that names no other sensitive concept. ``topics``: the fact's topics as
    the index reads them (a structured case's facts carry none of their own: "Drinks about 19 units most
    evenings to unwind" is on alcohol all the same, and is told when asked)."""
    if fact.section in rules.plain_sections or not (fact.sensitive or concept_sensitive):
        return False
    topics = set(topics)
    if topics and topics <= rules.plain_topics:
        return any(lexicon.get(c).sensitive for c in affirms - rules.plain_concepts)
    if affirms & rules.substances and rules.remote_use.search(fact.text) and not rules.remote_unless.search(fact.text):
        # a substance only tried, or given up long ago ("Tried cannabis at university; none for many years")
        return any(lexicon.get(c).sensitive for c in affirms - rules.substances)
    return True


def _without(text: str, patterns: Iterable[re.Pattern[str]]) -> str:
    for pattern in patterns:
        text = pattern.sub(" ", text)
    return text


def _misread(fact: Fact, affirms: frozenset[str], rules: RecallRules, lexicon: Lexicon, forced: str | None,
             subject: str = "patient") -> frozenset[str]:
    """The concepts of ``affirms`` the lexicon read only in wording that means something else
    (``data/recall.json`` ``misread``): with those words taken out, the fact no longer states them. ``subject``:
    whose the concepts are (``"other"``: a relative's, "the family ranch house" is no family's mental health)."""
    out = set()
    for concept in affirms & rules.misread.keys():
        pattern = rules.misread[concept]
        texts = [t for t in (fact.text, fact.patient_says or "") if t]
        if not any(pattern.search(t) for t in texts):
            continue
        still = any(
            s.concept_id == concept and s.subject == subject and not s.negated
            for t in texts
            for s in read_statements(_without(t, (pattern,)), lexicon, forced)
        )
        if not still:
            out.add(concept)
    return frozenset(out)


def _states_present(fact: Fact, affirms: frozenset[str], rules_out: frozenset[str]) -> bool:
    """Whether a fact states something present (not only a pertinent negative)."""
    if fact.polarity is not None:
        return fact.polarity == "present"
    return bool(affirms) or not rules_out


def _topics_said(fact: Fact, rules: RecallRules) -> frozenset[str]:
    """The topics a sentence of the patient's own says in the topic's words (``topic_said``): "I'm worried about who
    will look after my mother" is the worry asked about, though it is no generalised worry of the lexicon's. Never
    of a relative's history, a denial, or a sentence only the examiner could say (the words the patient says count
    where the record gives them)."""
    if not rules.topic_said or fact.section == FAMILY_SECTION or fact.polarity == "absent" or fact.relative:
        return frozenset()
    text = f"{fact.text} {fact.patient_says or ''}"
    out = set()
    for t, pattern in rules.topic_said.items():
        cut = rules.topic_said_not.get(t)
        if _names_unnegated(pattern, cut.sub(" ", text) if cut is not None else text):
            out.add(t)
    return frozenset(out)


_BRACKETED = re.compile(r"\([^()]*\)")


def _unbracketed(topics: tuple[str, ...], fact: Fact) -> tuple[str, ...]:
    """A fact's topics without those only its bracketed aside names when the patient's rendering leaves the aside
    out: "At lunchtime today Ruby swallowed 14 ibuprofen 200 mg tablets (2.8 g; she weighs 44 kg, about 64 mg/kg)
    ..." is said without the weight, and filed under weight it answered "How has your weight been?" (hw-040)."""
    says = fact.patient_says
    asides = _BRACKETED.findall(fact.text)
    if not says or not asides or not topics or fact.section == "chief_complaint":
        return topics  # a complaint's bracket glosses the quote it follows ("(poor concentration for three months)")
    aside = set(record_topics(fact.section, " ".join(a.strip("()") for a in asides)))
    kept = set(record_topics(fact.section, f"{_BRACKETED.sub(' ', fact.text)} {says}"))
    return tuple(t for t in topics if t in kept or t not in aside or t in _FRAME_TOPICS)


def _all_statements(fact: IndexedFact, lexicon: Lexicon) -> list[Statement]:
    forced = "other" if fact.section == FAMILY_SECTION else None
    out = read_statements(fact.fact.text, lexicon, forced)
    if fact.fact.patient_says:
        out += read_statements(fact.fact.patient_says, lexicon, forced)
    return out


class FactIndex:
    """The case's facts indexed by concept, by section and by a bag-of-stems vector.

    Built once per case (cheap: one lexicon pass over each fact). ``support`` says which concepts the
    record supports as present (about the patient or a relative) and which it rules out, which is all
    the :class:`ClaimChecker` needs.
    """

    def __init__(self, case: Case, lexicon: Lexicon | None = None):
        self.case = case
        self.lexicon = lexicon or load_lexicon()
        cues = load_memory_cues()
        rules = load_recall_rules()
        self.guard = LeakGuard(case)
        raw: list[tuple[Fact, Counter]] = []
        entries: list[IndexedFact] = []
        doc_freq: Counter[str] = Counter()
        spoken = _spoken(case)
        for fact in (*spoken, *_demographic_facts(case, spoken), *_silent_defaults(case, rules)):
            bag = Counter(
                s for s in stems(fact.text + " " + (fact.patient_says or "")) if s not in cues.stopwords
            )
            doc_freq.update(set(bag))
            raw.append((fact, bag))
        n = max(1, len(raw))
        self.idf = {s: math.log((n + 1) / (df + 0.5)) for s, df in doc_freq.items()}
        self._default_idf = math.log((n + 1) / 0.5)
        # a stem of at most two sentences (one, in a short record) is rare enough to anchor an answer
        self._rare_idf = math.log((n + 1) / (2.5 if n >= 12 else 1.5))
        demographic_stems = _demographic_stems(case, cues.stopwords)
        for position, (fact, bag) in enumerate(raw):
            forced = "other" if fact.section == FAMILY_SECTION else None
            found = read_statements(fact.text, self.lexicon, forced)
            # the patient's words render the chart's: a concept the chart's sentence denies is denied, though the
            # rendering's reading lose its negation ("No suicidal ideation or self-harm." said "I have not had any
            # thoughts of ending my life or self-harm.", self-harm read beyond the negation's reach, uw-032)
            # (a risk finding's: a long list of other denials is still read as it is rendered, where a wider reading
            # lengthened uw-022's medical answer past its cap - test_recall_s49_answer)
            denied = {c for c in ({s.concept_id for s in found if s.subject == "patient" and s.negated}
                                  - {s.concept_id for s in found if s.subject == "patient" and not s.negated})
                      if set(finding_topics(c, self.lexicon)) & _RISK_TOPICS}
            if fact.patient_says:
                found += [replace(s, negated=True) if s.subject == "patient" and s.concept_id in denied else s
                          for s in read_statements(fact.patient_says, self.lexicon, forced)]
            affirms = frozenset(s.concept_id for s in found if s.subject == "patient" and not s.negated)
            rules_out = (
                frozenset(s.concept_id for s in found if s.subject == "patient" and s.negated) - affirms
            )
            about_other = frozenset(s.concept_id for s in found if s.subject == "other" and not s.negated)
            affirms -= _misread(fact, affirms, rules, self.lexicon, forced)
            # "Lives alone in the family ranch house" (uw-033) is no relative's mental health: asked about the family's,
            # the patient and her daughter said "I'm not sure" over her mother's dementia and her sister's depression
            about_other -= _misread(fact, about_other, rules, self.lexicon, forced, "other")
            if fact.told and fact.section != FAMILY_SECTION:
                # a means kept by another that the patient can reach is the patient's access (uw-031: "My maternal
                # uncle Carlos keeps hunting rifles at his house by the lake", where he goes fishing)
                affirms |= about_other & rules.held_by_another
            if not fact.told and rules.questioned.search(fact.text):
                # chart knowledge that questions or weighs findings ("Impression: possible emerging psychosis
                # (?ideas of reference) vs depression"): a hypothesis of the clinician's, no finding of the patient
                affirms = frozenset()
            by_meaning: frozenset[str] = frozenset()  # read only by meaning, not by the lexicon
            if fact.section != FAMILY_SECTION and fact.polarity != "absent":
                by_meaning = meant(f"{fact.text} {fact.patient_says or ''}", rules) - rules_out - affirms
                affirms |= by_meaning
            substance_word = not names_use(fact, rules)
            if substance_word:
                affirms -= rules.substances
            # what is sensitive stays as the record's words say it (a finding read by meaning is told as
            # readily as it was before it was read so)
            concept_sensitive = any(
                self.lexicon.get(c).sensitive for c in (affirms - by_meaning) | about_other
            )
            own_topics = fact.topics or record_topics(fact.section, f"{fact.text} {fact.patient_says or ''}")
            own_topics = _unbracketed(own_topics, fact)
            said = _topics_said(fact, rules)
            own_topics = own_topics + tuple(t for t in sorted(said) if t not in own_topics)
            entries.append(
                IndexedFact(
                    fact=fact,
                    position=position,
                    affirms=affirms,
                    rules_out=rules_out,
                    about_other=about_other,
                    tellable=_tellable(fact, cues, affirms | rules_out | about_other),
                    sensitive=_sensitive(fact, concept_sensitive, rules, self.lexicon, affirms, own_topics),
                    leaks=self.guard.leaks(fact.text) or self.guard.leaks(fact.patient_says or ""),
                    vector=_unit({s: c * self.idf[s] for s, c in bag.items()}),
                    content=frozenset(bag),
                    topics=_without_substances(_with_demographics(
                        own_topics,
                        fact,
                        demographic_stems,
                    ), substance_word) + tuple(  # filed under the topics of what it says by meaning too
                        t for t in dict.fromkeys(t for c in sorted(by_meaning) for t in rules.finding_topics.get(c, ()))
                        if t not in (fact.topics or ())
                    ),
                    present=_states_present(fact, affirms, rules_out),
                    meant=by_meaning,
                    said=said,
                )
            )
        self.facts: tuple[IndexedFact, ...] = tuple(entries)
        self.by_topic: dict[str, list[IndexedFact]] = {}
        for f in entries:
            for t in f.topics:
                self.by_topic.setdefault(t, []).append(f)
        self._by_id = {f.id: f for f in entries}
        self.by_section: dict[str, list[IndexedFact]] = {}
        self.affirming: dict[str, list[IndexedFact]] = {}
        self.ruling_out: dict[str, list[IndexedFact]] = {}
        self.about_other: dict[str, list[IndexedFact]] = {}
        for f in entries:
            self.by_section.setdefault(f.section, []).append(f)
            for c in f.affirms:
                self.affirming.setdefault(c, []).append(f)
            for c in f.rules_out:
                self.ruling_out.setdefault(c, []).append(f)
            for c in f.about_other:
                self.about_other.setdefault(c, []).append(f)
        # ruled out in other words than the lexicon's ("death wishes without plan or intent"): a denial when that
        # is asked, never a sentence's own reading (said of guilt, it would add "I don't have a plan to end it")
        self.denied_by_meaning: dict[str, list[IndexedFact]] = {}
        for f in entries:
            if f.section != FAMILY_SECTION and rules.meaning_denied:
                text = f"{f.fact.text} {f.fact.patient_says or ''}"
                for c, pattern in rules.meaning_denied.items():
                    if c not in f.affirms and pattern.search(text):
                        self.denied_by_meaning.setdefault(c, []).append(f)
        self.supported_present = frozenset(self.affirming)
        # stated absent anywhere (a record may say both: "no problems as a child; happy childhood")
        self.supported_absent = frozenset(
            s.concept_id
            for f in entries
            for s in _all_statements(f, self.lexicon)
            if s.negated and s.subject == "patient"
        )
        self.supported_other = frozenset(self.about_other)
        # history the record would have listed: silence is a denial (data/recall.json)
        self.closed_concepts = (
            rules.closed_always
            | frozenset(
                c for section, concepts in rules.closed_if_section.items() if self.by_section.get(section) for c in concepts
            )
        ) - frozenset(c for c, kinds in rules.closed_unless_any.items() if kinds & self.supported_present)
        # history whose topic's own section the record has (taxonomy closed_if_section): "Have you ever
        # been admitted?" beside a past psychiatric history that names no admission is a no
        own_sections = {f.section for f in case.facts}  # the record's, not a person's silent default
        homes = {t.id for t in load_taxonomy().topics if t.closed_if_section and t.closed_if_section in own_sections}
        if homes:
            self.closed_concepts |= frozenset(
                c.id for c in self.lexicon.concepts
                if c.kind not in CLOSED_WORLD_KINDS and homes & set(concept_topics(self.lexicon, c.id))
                and c.id not in self.supported_present
            )
        # what the record implies of the patient without stating it (data/implied.json): the thought of dying behind
        # an overdose, the drinking behind a detox or a raised GGT, the dread behind a social phobia; concept -> the
        # concepts stated of the patient that imply it (empty: a test or the plan does). The closed
        # world never denies one of these
        # (an examiner's observation the patient cannot tell, "Shy", "Checked the door repeatedly", implies nothing:
        # it is no sentence of theirs to answer from. The record's told mark is no filter here: a compiled record
        # marks untold every sentence it could not voice, "She took an overdose ... and was seen in A&E." too)
        own = [f for f in entries if f.section != FAMILY_SECTION]
        theirs = [f for f in own if f.tellable or not f.section.startswith("mental_status_exam")]
        self.implied = implied_findings(case, (c for f in own for c in f.affirms), (c for f in theirs for c in f.affirms))
        # topic -> the finding that stops its closed-world denial, read by recall and by the wording alike: first the
        # implied findings (in concept order), then a finding the record states of the patient now in a sentence of
        # theirs filed under another subject or none ("From day 2 she became muddled and frightened": "Where are we?"
        # is no "My memory's all right"), answered from that sentence. What stops a denial is what the record states
        # or implies by its own sentences, tests and plan; never the reference diagnosis, or which questions were
        # hedged would tell the hidden diagnosis (stop 45, benchmarks/patient_leak.py) (chart knowledge, a sentence
        # the record marks untold, is none: the patient does not affirm an impression)
        stated_now = sorted({c for f in theirs if f.present and f.fact.time != "past" and f.fact.told for c in f.affirms})
        self.implied_by_topic: dict[str, str] = {}
        for concept_id in [*sorted(self.implied), *stated_now]:
            for topic_id in implied_topics(concept_id):
                self.implied_by_topic.setdefault(topic_id, concept_id)
        # what the patient came about: the topics of the chief complaint's own sentences
        self.complaint_topics = frozenset(
            t for f in self.by_section.get("chief_complaint", ()) for t in f.topics
        ) - _NOT_COMPLAINT
        # what the patient came about (told whatever the rapport): the complaint, and the substance use the
        # history quotes the patient telling whoever referred them ("I'm using heroin every day"; ``came_about``
        # in data/recall.json)
        taxonomy = load_taxonomy()
        self.came_about_topics = self.complaint_topics | frozenset(
            t for f in self.by_section.get("history_of_present_illness", ()) if _quotes_patient(f.fact)
            for t in f.topics if t in taxonomy.by_id and taxonomy.kind(t) in rules.came_about_kinds
        )
        self.durations = {f.id: duration_in(f.fact.text) or duration_in(f.fact.patient_says or "") for f in entries}
        self.amounts = {f.id: amount_in(f.fact.patient_says or f.fact.text) for f in entries}
        # says a time at all: how long, or when ("until 65", "since starting university", "two years ago")
        self.timed = {f.id: self.durations[f.id] is not None or says_when(f.fact.patient_says or f.fact.text)
                      for f in entries}

    def __getitem__(self, fact_id: str) -> IndexedFact:
        return self._by_id[fact_id]

    def __len__(self) -> int:
        return len(self.facts)

    @property
    def tellable(self) -> tuple[IndexedFact, ...]:
        """Facts a patient can tell (everything but the examiner's observations)."""
        return tuple(f for f in self.facts if f.tellable)

    def vectorize(self, text: str) -> dict[str, float]:
        """The bag-of-stems vector of any text, weighted by this case's inverse fact frequency."""
        cues = load_memory_cues()
        bag = Counter(s for s in stems(text) if s not in cues.stopwords)
        return _unit({s: c * self.idf.get(s, self._default_idf) for s, c in bag.items()})

    def anchors(self, words: frozenset[str], fact: IndexedFact) -> frozenset[str]:
        """The rare stems of ``words`` (a question's anchor words: :meth:`MemorySkill._anchor_words`) a sentence
        holds: words the record uses in at most two sentences ("laugh" of "Does anything happen when you
        laugh?" in "When he laughs hard at a joke his knees buckle")."""
        return frozenset(s for s in fact.content if s in words and self.idf.get(s, 0.0) >= self._rare_idf)

    def similar(self, text: str, threshold: float, limit: int) -> list[IndexedFact]:
        """Tellable facts lexically closest to ``text`` (cosine of idf-weighted stems above ``threshold``)."""
        query = self.vectorize(text)
        if not query:
            return []
        # a fact sharing no stem with the query scores 0.0, under any positive threshold: skipped unscored
        # (``isdisjoint`` costs a fraction of ``cosine``, and most facts share no stem with a question)
        skip = query.keys().isdisjoint if threshold > 0 else (lambda _vector: False)
        scored = [
            (cosine(query, f.vector), f.position, f) for f in self.facts
            if f.tellable and not skip(f.vector) and not f.id.startswith(SILENT)
        ]
        scored = [s for s in scored if s[0] >= threshold]
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [f for _, _, f in scored[:limit]]

    def section_facts(self, sections: Iterable[str]) -> list[IndexedFact]:
        out: list[IndexedFact] = []
        for section in sections:
            out.extend(self.by_section.get(section, ()))
        out.sort(key=lambda f: f.position)
        return out


# --------------------------------------------------------------------------------------------------
# The answer plan
# --------------------------------------------------------------------------------------------------

AFFIRM, DENY, UNKNOWN, TELL, WITHHELD, NOTHING_MORE = (
    "affirm",
    "deny",
    "unknown",
    "tell",
    "withheld",
    "nothing_more",
)


@dataclass(frozen=True)
class AnswerItem:
    """One part of an answer.

    ``stance`` is ``affirm`` (the record states the concept; ``facts`` say how), ``deny`` (the record
    rules it out, ``facts`` then hold the pertinent negative, or a symptom the record does not
    mention), ``unknown`` (history the record does not cover), ``tell`` (facts of a topic or found
    by similarity), ``withheld`` (sensitive facts the patient is not ready to share) or
    ``nothing_more`` (an open question when everything has been told).
    ``subject`` is the concept id or topic id the item answers.
    """

    stance: str
    subject: str
    facts: tuple[IndexedFact, ...] = ()
    sensitive: bool = False
    about_other: bool = False
    silent: bool = False  # the stance stands (consistency, the reply's record) but the topic's facts answer

    @property
    def fact_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.facts)


@dataclass(frozen=True)
class AnswerPlan:
    """What the patient will answer to one question, before any wording.

    ``refusal`` names a forbidden request (the patient declines it in character); ``small_talk`` is
    ``greeting`` or ``closing``; ``unclear`` means nothing in the question matched the record or the
    lexicon; ``again``: what it tells was all told before in this encounter (to another question), so it
    is said once more, briefly, as said before ("Like I said, ...").
    """

    question: Question
    items: tuple[AnswerItem, ...] = ()
    refusal: str | None = None
    small_talk: str | None = None
    unclear: bool = False
    again: bool = False  # everything it tells was told earlier in the encounter: said once more, briefly
    # the concepts answered as asked where recall narrowed the question's own (a means question: "harm yourself"
    # in "anything you could use to harm yourself?" does not ask the self-harm history); None: the question's
    asked: tuple[str, ...] | None = None

    @property
    def fact_ids(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for item in self.items:
            if item.stance != WITHHELD:
                for fid in item.fact_ids:
                    seen.setdefault(fid, None)
        return tuple(seen)


@lru_cache(maxsize=1)
def _topic_words() -> dict[str, frozenset[str]]:
    """Each topic's one-word cues (stems): the words that make a question about it ("partner")."""
    out: dict[str, set[str]] = {}
    for entries in load_taxonomy().question_index.values():
        for phrase, topic in entries:
            if len(phrase) == 1:
                out.setdefault(topic, set()).add(phrase[0])
    return {t: frozenset(w) for t, w in out.items()}


_WORD = re.compile(r"[A-Za-z][\w'-]*")
#: a name said to the person addressed, at a sentence's start or end ("Lisa, ...", "..., Lisa?")
_VOCATIVE = re.compile(r"(?:^|(?<=[.?!]\s))\s*[A-Z][a-z'-]+\s*,|,\s*[A-Z][a-z'-]+\s*(?=[.?!]|$)")


def _words_in(text: str) -> list[str]:
    """The words of a text but the first of each sentence (a capitalised word that opens one is no name)."""
    out = []
    for sentence in re.split(r"(?<=[.?!])\s+", text.strip()):
        out.extend(_WORD.findall(sentence)[1:])
    return out


@lru_cache(maxsize=memo_size(4096))
def _anchor_stems(text: str, topics: tuple[str, ...]) -> frozenset[str]:
    cues = load_memory_cues()
    generic = load_recall_rules().anchor_generic
    by_topic = _topic_words()
    # the person addressed is no anchor ("What brought you in today, Lisa?", "Ruby, can you ..."), nor the word
    # that opens a sentence ("Does ..."); a name said of someone else or a day is ("since Megan moved", "on Friday")
    text = _VOCATIVE.sub(" ", text)
    words = {s for w in _words_in(text) for s in stems(w)}
    words -= cues.stopwords | generic
    for t in topics:
        words -= by_topic.get(t, frozenset())
    return frozenset(w for w in words if len(w) >= 3)


def _how_they_came(fact: IndexedFact) -> bool:
    """Whether a sentence of the referral says how the patient came rather than what is happening to them."""
    return fact.section == "chief_complaint" and load_recall_rules().how_they_came.search(fact.fact.text) is not None


def _anchor_words(question: Question) -> frozenset[str]:
    """The words of a question that can anchor an answer (:meth:`FactIndex.anchors`): its lower-case content
    words, less the interview's generic words (``anchor_generic``) and the words that made it a question about
    the subjects it asks ("How are things with your partner?": "partner" asks about the relationship, it does
    not pick out "I live with my partner")."""
    # read in its asking sentences: a preface reflects what was said ("You've told me once you start you can't
    # stop. Do you use cannabis?" does not ask about the drinking again)
    return _anchor_stems(" ".join(_asking(question)), tuple(question.topics))


@dataclass(frozen=True)
class MemoryPolicy:
    """Knobs of the answer policy.

    ``facts_per_concept``: most facts told for one concept; ``facts_per_topic``: most facts told for
    one topic (the representation skill scales it by verbosity); ``similarity_threshold``: least
    cosine for a lexical match when no concept or topic matched; ``answer_threshold``: least cosine
    for the one record sentence that answers the question in its own words ("What happens in
    meetings?" -> "I drift off in meetings") to be told first (``off_topic_threshold`` when the sentence
    is on none of the subjects asked and was told already: then it must share more than a stray word); a pertinent
    negative goes last: it never opens a reply with "no"; the question's words that carry no subject
    (``recall.json`` ``closest_ignores``: "How is your energy through the day?" is not answered "I
    scraped through school") do not count.
    """

    facts_per_concept: int = 3
    facts_per_topic: int = 2
    similarity_threshold: float = 0.28
    similarity_limit: int = 1
    answer_threshold: float = 0.24
    #: least cosine between a clinician-only sentence on a finding and a sentence the patient can say
    #: that tells the same thing in their words (the disclosure of what the record carries)
    disclosure_threshold: float = 0.16
    off_topic_threshold: float = 0.33
    #: least cosine for a sentence that shares a rare word (an anchor) with the question to answer it
    anchor_threshold: float = 0.1


@dataclass
class MemoryState:
    """What the patient has said so far: disclosed facts, each concept's stance, earlier answers."""

    disclosed: dict[str, None] = field(default_factory=dict)
    stances: dict[str, str] = field(default_factory=dict)
    answers: dict[str, AnswerPlan] = field(default_factory=dict)
    topics: tuple[str, ...] = ()  # the content topics of the last question that had any

    def clear(self) -> None:
        self.topics = ()
        self.disclosed.clear()
        self.stances.clear()
        self.answers.clear()


# topics that frame another ("how long", "what set it off"): answered by the facts of the topic they frame
_FRAME_TOPICS = frozenset({"onset", "course", "trigger", "functioning"})
_PROTECTIVE = "protective_factors"
_ATTEMPT = "prior_suicide_attempt"
_PLAN = "suicide_plan"
_HELD_BACK = frozenset({_ATTEMPT, _PLAN, "self_harm_history"})
_RISK_TOPICS = frozenset({"suicide", "self_harm", "help_tried"})
_MEANS = "access_to_means"
@lru_cache(maxsize=1)
def _outranks_denial() -> tuple[str, str, re.Pattern[str] | None, re.Pattern[str] | None]:
    """The finding whose denial an act short of it outranks, the finding the act is filed under, the act's wordings
    (``data/recall.json`` ``told_by_act.outranks_denial``: an aborted attempt, a rehearsal, the gun held) and how a
    denial says it is of the time before the act ("no previous attempts")."""
    rule = _read_data("recall.json").get("told_by_act", {}).get("outranks_denial", {})
    patterns = rule.get("patterns", ())
    joined = re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE) if patterns else None
    scoped = re.compile(rule["before"], re.IGNORECASE) if rule.get("before") else None
    return rule.get("denial", ""), rule.get("act", ""), joined, scoped


def _states_act(text: str) -> bool:
    """Whether a record sentence states an act short of an attempt (:func:`_outranks_denial`), not negated in its
    clause ("Denies plan, intent, preparatory acts" states none)."""
    pattern = _outranks_denial()[2]
    return pattern is not None and any(
        not _NEGATED_BEFORE.search(text[max(0, m.start() - 60):m.start()]) for m in pattern.finditer(text))


@lru_cache(maxsize=1)
def _told_by_act() -> frozenset[str]:
    """Risk findings told by the patient's account of the act (``data/recall.json`` ``told_by_act``)."""
    return frozenset(_read_data("recall.json").get("told_by_act", {}).get("concepts", ()))


_HARM_PAST = frozenset({"self_harm_history", _ATTEMPT})
_HARM_DONE = frozenset({"self_harm", "self_harm_history", _ATTEMPT})
_MEANS_TOPICS = frozenset({"medication"})  # the medicines kept at home; the means the record names come by concept


# frame topics that ask when or how long: answered by the facts of the topic that say how long
_TIMING_TOPICS = frozenset({"onset", "course"})
_HOW_LONG = re.compile(r"\b(how long|since when|when did|when was|when were|how many (?:days|weeks|months|years)|first notice|first start)\b", re.IGNORECASE)


#: a sentence dated by the one before it ("Since then she has dropped foods ...", "After that ...")
_SINCE_THEN = re.compile(r"\s*(?:since then|after that|from then on|ever since)\b", re.IGNORECASE)
#: "How long does an attack last?", "How long did each spell last?": the length of each time, not since when it has gone on
#: (a "last" that is no adjective: not "the last time", "your last drink")
_EACH_LASTS = re.compile(r"\bhow long (?:does|do|did|will|would|can|could)\b[^?.]*?(?<!\bthe )(?<!\byour )(?<!\bthat )(?<!\bthis )(?<!\byou )"
                         r"\blast(?:s|ed)?\b(?!\s+(?:time|week|month|year|night|day|drink|dose|one|episode|few)\b)",
                         re.IGNORECASE)


_HOW_MUCH = re.compile(r"\b(how (?:much|many|often)|how many times|(?:a|per) (?:day|week|night)\?)", re.IGNORECASE)


def _asking(question: Question) -> list[str]:
    """The sentences of a question that ask (those ending in "?"; all of them when none does)."""
    sentences = [s for s in re.split(r"(?<=[.?!])\s+", question.text.strip()) if s]
    return [s for s in sentences if s.endswith("?")] or sentences


def asks_how_much(question: Question) -> bool:
    """Whether a question asks how much or how often ("How much do you drink?", "How often do they
    come?", "How much a day?"), in its question, not its preface ("I can hear how much this has been
    weighing on you. What medicines do you take?" asks no amount)."""
    asked = _asking(question)
    return any(_HOW_MUCH.search(s) is not None for s in asked)


def asked_facets(question: Question) -> frozenset[str]:
    """The parts of a subject the question's asking sentences ask (``facets`` of ``data/recall.json``): "Did
    anything happen around the time they started?" asks the precipitant, "What sets them off?" the cue."""
    asked = " ".join(_asking(question))
    return frozenset(k for k, (ask, _) in load_recall_rules().facets.items() if ask.search(asked))


@lru_cache(maxsize=memo_size(8192))
def says_facet(text: str, facet: str) -> bool:
    """Whether a record sentence says that part of its subject ("The recent stressor was a viral illness."
    says the precipitant)."""
    said = load_recall_rules().facets.get(facet)
    return said is not None and said[1].search(text) is not None


_WH = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|right|well)\b,?\s*)?(?:what|how|when|where|which|who|why|tell me|describe)\b", re.IGNORECASE)


def asks_what(question: Question) -> bool:
    """Whether the question's last sentence is a wh-question or a request to tell ("What did you take?",
    "Tell me about the first time"), not a yes/no question."""
    if question.yes_no:
        return False
    asked = _asking(question)
    return bool(asked) and _WH.match(asked[-1]) is not None


def wh_word(question: Question) -> str | None:
    """``how`` or ``what`` when the question is a how- or a what-question (``asks_what``), else ``None``:
    "How has your memory been?" is not answered "No." but "Fine, really.", "What's been on your mind?"
    "Nothing much, really." ("Tell me about any times ..." is a yes/no question in disguise)."""
    if not asks_what(question):
        return None
    asked = _asking(question)[-1]
    m = _WH.match(asked)
    word = m.group(0).strip(" ,").split()[-1].lower() if m else ""
    return "how" if word == "how" else "what" if word in ("what", "which", "who", "where", "when", "why") else None


_WHEN = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|right|well)\b,?\s*)?(?:when|since when|how long|how old|(?:at )?what age)\b", re.IGNORECASE)


_WHEN_CLAUSE = re.compile(r"^\W*when\b[^,?]*,", re.IGNORECASE)


def asks_when(question: Question) -> bool:
    """Whether the question's last asking sentence asks a time ("When did you retire?", "How old were you
    when it started?"), whatever its subject: the subject's sentences that say a time answer it first."""
    asked = _asking(question)
    # "When you're angry with them, what goes through your mind?": a when-clause, not a time asked
    return bool(asked) and _WHEN.match(asked[-1]) is not None and _WHEN_CLAUSE.match(asked[-1]) is None


def asks_how_long(question: Question) -> bool:
    """Whether a question asks when something began or how long it has gone on ("How long has that been
    going on?", "When did you first notice this?"), not only what course it took ("What helped last time?")."""
    return bool(set(question.topics) & _TIMING_TOPICS) and _HOW_LONG.search(question.text) is not None


def asks_each_length(question: Question) -> bool:
    """Whether a question asks how long each time lasts ("How long does an attack last?"): the sentences that say
    so answer, never how long the illness has gone on ("For five months now.", hw-004)."""
    return _EACH_LASTS.search(question.text) is not None


# words by which a question with no topic of its own points back at the one before
_POINTS_BACK = re.compile(r"\b(that|those|these|this)\b", re.IGNORECASE)  # not "it": "do you find it hard"
# topics that never make what the patient came about (frames and the open question itself)
_NOT_COMPLAINT = frozenset({"chief_complaint", "onset", "course", "trigger", "functioning"})


# sections of what has been, not of what is going on now
_PAST_SECTIONS = ("past_psychiatric_history", "family_history")
#: the lexicon's domain of a relative's history (asked of the family, never of the patient)
_FAMILY_DOMAIN = "family"
_FAMILY_PSYCHIATRIC = "family_psychiatric_history"


# topics asked in the present tense: "who do you live with?" is not answered with childhood
def _says_only_ended(said: str) -> bool:
    """Whether every sentence of the patient's words says a thing is over ("I used to take thiamine."), none of them
    what is so now ("I take folic acid ... I used to take candesartan." says both)."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", said.strip()) if s]
    ended = load_recall_rules().said_ended
    return bool(sentences) and all(ended.search(s) for s in sentences)


_NOW_TOPICS = frozenset({"living_situation", "work", "relationships", "medication", "daily_routine"})


def _silenced(item: AnswerItem) -> AnswerItem:
    return AnswerItem(item.stance, item.subject, item.facts, item.sensitive, item.about_other, silent=True)


def _capped(items: list[AnswerItem], limit: int) -> list[AnswerItem]:
    """At most ``limit`` facts told in one reply, in the order asked (a reply is a few sentences)."""
    out: list[AnswerItem] = []
    left = limit
    for item in items:
        if item.stance in (AFFIRM, TELL) and item.facts:
            if left <= 0:
                continue
            item = AnswerItem(item.stance, item.subject, item.facts[:left], item.sensitive, item.about_other, item.silent)
            left -= len(item.facts)
        out.append(item)
    return out


class MemorySkill:
    """The patient's memory: plans grounded answers and remembers what was said.

    ``plan(question, may_disclose)`` applies the answer policy; ``may_disclose(fact)`` is the
    representation skill's rapport gate (everything may be disclosed when it is absent);
    ``commit(plan)`` records what a reply actually disclosed.
    """

    def __init__(self, index: FactIndex, policy: MemoryPolicy | None = None):
        self.index = index
        self.policy = policy or MemoryPolicy()
        self.state = MemoryState()
        self._taxonomy = load_taxonomy()
        self._concept_sections = load_memory_cues().concept_sections
        self._answered_by = load_recall_rules().answered_by
        self._findings = load_recall_rules().finding_topics  # the topics a finding is disclosed under
        self._said_topics = frozenset(load_recall_rules().topic_said)  # topics a sentence can say in its own words
        self._asked_what = False  # the question being planned is a wh-question (set by plan)
        self._asks_home_now = False  # it asks who is at home or where (set by plan)
        self._means_asked = False  # the question being planned asks the means at hand (set by plan)
        self._facets: frozenset[str] = frozenset()  # the parts of a subject it asks (set by plan)
        self._explanation = False  # the question asks the patient's own view of what is happening (set by plan)
        self._query: Mapping[str, float] = {}  # the question being planned, as the index reads words
        self._anchors_asked: frozenset[str] = frozenset()  # its words that can anchor an answer (_anchor_words)
        self._cue_cache: dict[tuple[str, str], bool] = {}
        # concepts some fact affirms (an examiner's observation included), read once per case
        self._affirmed_anywhere = frozenset(c for f in self.index.facts for c in f.affirms)
        # affirmed of the patient by a sentence not set in the past (a denial of it elsewhere is an earlier screen)
        self._affirmed_now = frozenset(c for f in self.index.facts if f.present and f.fact.time != "past"
                                       and not f.id.startswith(SILENT) for c in f.affirms)
        # the concepts a sentence the patient can say states ("her sons" in the risk formulation is no such sentence)
        self._affirmed_told = frozenset(c for f in self.index.facts if f.tellable for c in f.affirms)
        # concepts some fact of the patient's own rules out in words ("passive death wishes without plan or intent")
        self._ruled_out_anywhere = frozenset(
            c for f in self.index.facts if f.section != FAMILY_SECTION for c in f.rules_out) | frozenset(
            self.index.denied_by_meaning)
        # topics of the concepts the record states as present: never denied as a whole
        self._present_concept_topics = frozenset(
            t for c in self._affirmed_anywhere for t in concept_topics(self.index.lexicon, c)
        )
        rules = load_recall_rules()
        own = [f for f in self.index.facts if f.section != FAMILY_SECTION and not f.id.startswith(SILENT)]
        # what keeps them going, when no sentence of their own says it: the clinician's list of protective
        # factors (voiced by say in their words), else the people, faith and pets their history names
        self._protective_lists = tuple(f for f in own if not f.tellable and lists_protective(f.fact.text))
        self._kin = tuple(
            f for f in own if f.tellable and f.present and f.section.startswith(rules.kin_sections)
            and set(re.findall(r"[a-z]+", f.fact.text.lower())) & rules.kin
            and not rules.not_kin.search(f.fact.text) and not rules.not_kin.search(f.fact.patient_says or ""))
        # a suicide risk line that names no attempt, method or self-harm anywhere in the record: a past
        # attempt is ruled out (an assessment would have listed one), so "Have you ever tried?" is "no"
        self._no_attempt = bool(rules.attempt_section) and any(
            f.section == rules.attempt_section for f in own
        ) and not any(_names_unnegated(rules.attempt_words, f.fact.text) for f in own) and not (
            self._affirmed_anywhere & rules.attempt_blocked_by)


    def _dependants_named(self) -> tuple[IndexedFact, ...]:
        """The patient's own told, present sentences of the personal and social history that name a dependant in
        words (``household_answers`` ``words``: "two adult daughters nearby"), at most two (the history of the
        illness names children it is no parent of: "won't hold Sam's baby nephew")."""
        rules = load_recall_rules()
        words = rules.household_words
        misread = _dependant_misreads(rules)
        own = tuple(
            f for f in self.index.facts
            if f.section.startswith(("personal_history", "social_history")) and f.tellable and f.present
            and words.search(_without(f.fact.text, misread))  # "correcting other children" names none
            and not rules.not_named.search(f.fact.text)  # "Described by his son as 'prickly'" neither
        )
        # who they live with first ("lives alone in a terraced house; son lives 40 miles away")
        own = tuple(sorted(own, key=lambda f: not (_LIVING in f.topics and _says_home(f))))
        # else the family history's lines on the patient's own children ("Daughter Shona (33): nurse in Tauranga"),
        # said in the relative's wording (uw-021: "Do you have children?" was told the salary)
        children = tuple(
            f for f in self.index.facts
            if f.section == FAMILY_SECTION and f.tellable and f.present and rules.children_named.search(f.fact.text)
        )
        return (own or children)[:2]

    def _nobody_depends(self) -> bool:
        """Whether the record names no dependant anywhere and gives the household (``household_answers``
        ``_nobody``): no sentence of any section, tellable or not, nor the informant, names a child, a person cared
        for or a pregnancy (``words``, ``nobody_blocked_by``), the lexicon affirms none, and a told sentence says
        who they live with."""
        rules = load_recall_rules()
        if not rules.nobody_subject:
            return False
        misread = _dependant_misreads(rules)
        if any(f.affirms & rules.household_concepts and not rules.not_dependant.search(f.fact.text)
               for f in self.index.facts):
            return False  # "protective factors are her sons"; not "I was an only child"
        persona = getattr(self.index.case, "persona", None)
        texts = [t for f in self.index.facts for t in (f.fact.text, f.fact.patient_says or "")]
        texts.append(str(getattr(persona, "informant", "") or ""))
        for text in texts:
            text = _without(text, misread)
            if (rules.household_words.search(text) or rules.nobody_blocked_by.search(text)
                    or rules.nobody_blocked_also.search(text)):
                return False
        # and the household supports it: they live alone, or everyone they live with is an adult of the allow-list
        # ("lives with his wife and their two boys" does not; "lives in a rented house" names no one either way)
        home = [f for f in self.index.facts if f.tellable and f.present and _LIVING in f.topics and _says_home(f)]
        verdicts = [_household_adults_only(f, rules) for f in home]
        return bool(verdicts) and None not in verdicts and any(verdicts)


    def _acted_now(self) -> tuple[IndexedFact, ...]:
        """The patient's own told facts of the present episode that state a suicidal act prepared or begun
        (``suicide_plan`` read by meaning: "walked to the footbridge intending to jump")."""
        return tuple(
            f for f in self.index.facts
            if f.section != FAMILY_SECTION and f.tellable and f.present and f.fact.time == "current"
            and _PLAN in f.affirms
        )

    @property
    def disclosed(self) -> tuple[str, ...]:
        return tuple(self.state.disclosed)

    def reset(self) -> None:
        self.state.clear()

    # -- planning ---------------------------------------------------------------------------------

    def plan(self, question: Question, may_disclose=None, facts_per_topic: int | None = None) -> AnswerPlan:
        """The answer to ``question`` under the answer policy (nothing is recorded until ``commit``).

        Every fact of the record on what was asked is in the plan; what rapport holds back is decide's
        call (:func:`~mentalhospital_env.patient.decide.gate`), made here too when ``may_disclose`` is
        given (the one-call form).

        Concepts asked (lexicon) are affirmed with the facts that state them, or denied where the
        record rules them out, or (symptoms) where nothing of the record is about that topic; topics
        asked (the interview taxonomy) are answered with the facts of that topic, and only those: a
        symptom topic the record says nothing of is denied, a history topic it is silent on is "not
        sure". A denial never stands where a fact of the same or a related topic states something.
        """
        if question.injection is not None:
            return AnswerPlan(question, refusal=question.injection)
        earlier = self.state.answers.get(question.key)
        if (
            earlier is not None
            and not self.is_open(question)
            and not any(i.stance == WITHHELD for i in earlier.items)
        ):
            return earlier
        rules = load_recall_rules()
        dropped = {t for k in asked_facets(question) for t in rules.facet_not_topics.get(k, ())}
        if dropped & set(question.topics):
            # "How likely do you think it is that you would act on those thoughts?" (uw-035) read as the insight topic too,
            # and answered "It's been going on so long it just feels normal to me. I'm not sure it's an illness."
            question = replace(question, topics=tuple(t for t in question.topics if t not in dropped))
        explains = bool(rules.explanation_asked.search(question.text))
        if explains and set(question.concepts) & rules.explanation_not_screen:
            # "What do you make of what has been happening?" asks the patient's own view (the insight topic), not a
            # screen for the examiner's sign of poor insight, which a record of good insight would deny ("Nothing
            # like that, really") and a keyword would answer ("I haven't been making myself sick")
            question = replace(question, concepts=tuple(c for c in question.concepts if c not in rules.explanation_not_screen))
        # nor is a sentence that shares a word of the asking the answer ("make" in "a recipe I had made for forty years")
        self._explanation = explains and "insight" in question.topics
        self._more: str | None = None  # the sentence that tells more of one told, asked by its words (_told_more)
        per_topic = facts_per_topic or self.policy.facts_per_topic
        self._asked_what = asks_what(question)
        self._asks_home_now = self._asks_home(question)
        self._facets = asked_facets(question)
        self._means_asked = bool(load_recall_rules().means_asked.search(question.text))
        self._query = self.index.vectorize(question.text)
        self._anchors_asked = _anchor_words(question)
        tax = self._taxonomy
        topics = [t for t in question.topics if t in tax.by_id and tax.kind(t) != "meta" or t == "insight"]
        if "chief_complaint" in topics and any(t not in _NOT_COMPLAINT for t in topics) and any(
            f.id in self.state.disclosed for f in self.index.by_section.get("chief_complaint", ())
        ):
            # "It makes sense that this has been worrying you. How are you getting on with people?": the
            # complaint, told already, is not what is asked beside another subject
            topics = [t for t in topics if t != "chief_complaint"]
        means = _MEANS in question.concepts and bool(load_recall_rules().means_asked.search(question.text))
        if means:
            # "Do you have access to anything you could use to harm yourself, such as medicines or weapons?" asks
            # the means at hand (and the medicines they keep), not the self-harm history, violence to others or
            # who is at home ("Are there any guns at home?")
            topics = [t for t in topics if t in _MEANS_TOPICS]
            if load_recall_rules().means_medicines.search(question.text):
                # stop 51: the refitted topic reader reads "such as medicines?" beside a means question as no
                # medication question; the medicines named are still what the question asks of
                topics = sorted(set(topics) | _MEANS_TOPICS)
        rules = load_recall_rules()
        household = bool(question.concepts) and all(
            # (a record whose only word of them is the clinician's, "protective factors are her sons", is silent on
            # them as far as the patient's sentences go: who is at home answers)
            c in rules.household_concepts and c not in self._ruled_out_anywhere for c in question.concepts
        ) and not is_reflection(question.text)  # "You were doing everything you could for that child." asks nothing
        named_dependants = self._dependants_named() if household else ()
        if household and not named_dependants and any(
                f.tellable and f.affirms & set(question.concepts) and not rules.not_dependant.search(f.fact.text)
                for f in self.index.facts):
            # affirmed by a sentence of the patient's that names no dependant in words ("I attended a crash in which
            # a child died"): that sentence answers as a concept. One that names them does ("lives with his wife and
            # daughter", "son farms the land next door", "her main carer"), never the marriage or the friends that
            # the question's topics found in its place (hw-006, hw-032, hw-018 at stop 53)
            household = False
        if named_dependants:
            topics = []  # "Any children?" of "two adult daughters nearby": that sentence answers
        elif household:
            # "Do you have children or anyone who depends on you?" of a record silent on dependants: who is at home
            # answers (recall.json household_answers), not the marriage or the childhood a keyword of it found;
            # asked as "who is at home", its facts are those that say who or where
            topics = [_LIVING]
            self._asks_home_now = True
        content = [t for t in topics if t not in _FRAME_TOPICS]
        timing = asks_how_long(question)
        amount = asks_how_much(question)
        if self.state.topics and not question.concepts and (
            ((timing or amount) and not content) or (not topics and _POINTS_BACK.search(question.text))
        ):
            # "And how long ago was that?", "Have you thought about acting on those thoughts?": the
            # question is about what was asked just before
            content = [t for t in self.state.topics if t not in content]
            if amount and "chief_complaint" in content:
                # "How often are you getting them now?" after the complaint: the complaint's own topics say
                # how often (the attacks of the history), not the referral's one line said again
                counted = sorted(t for t in self.index.complaint_topics if t in tax.by_id and t not in content
                                 and any(self.index.amounts.get(f.id) is not None for f in self.index.by_topic.get(t, ())))
                if counted:
                    content = counted + [t for t in content if t != "chief_complaint"]
            topics = content + topics
        asked = set(topics)
        items: list[AnswerItem] = []
        used: set[str] = set()
        # what the question asks in other words than the lexicon's (``meaning``: "Do you go weak when you
        # laugh?" is cataplexy, "done anything to prepare?" a plan), asked only of a finding the record has
        by_meaning = self._asked_by_meaning(question)
        specific_topics: set[str] = set()
        concepts = (*question.concepts, *by_meaning)
        if means:
            concepts = tuple(c for c in concepts if c not in _HELD_BACK)
        if _PROTECTIVE in concepts:
            # "What keeps you going, and what has stopped you acting on these thoughts?" asks what holds them
            # back, not whether they have acted or planned
            concepts = tuple(c for c in concepts if c not in _HELD_BACK)
        for concept_id in concepts:
            concept = self.index.lexicon.get(concept_id)
            own = set(concept_topics(self.index.lexicon, concept_id)) - _NOT_COMPLAINT
            if concept.kind not in CLOSED_WORLD_KINDS and own and asked and asked <= _NOT_COMPLAINT and not own & asked:
                # a history concept read off a stray word of the opening question ("What has brought you
                # here?" is not about being brought up): what brought them answers
                continue
            if concept.domain == _FAMILY_DOMAIN and not question.about_other and question.relative is None:
                # a relative's history read off words the question says of the patient ("Have you had any mental
                # health problems before this?" is not "My mother has generalised anxiety")
                continue
            item = self._answer_concept(concept_id, question.about_other, used)
            if item is None:
                continue
            specific = concept_id in load_recall_rules().specific_concepts
            if specific and concept_id == _PROTECTIVE and not item.about_other:
                # what keeps them going is its own answer, whatever it is: not the suicide topic's death
                # wishes or attempt, nor the relationships said again beside it
                specific_topics.update(asked & (_RISK_TOPICS | set(concept_topics(self.index.lexicon, concept_id))))
            elif specific and item.stance == AFFIRM and item.facts and not item.about_other:
                # "What helps you stay safe?" is told what keeps them going, not the suicide topic's other facts
                specific_topics.update(t for f in item.facts for t in f.topics if t in asked)
            elif specific and item.stance == TELL and item.subject != concept_id and item.facts and not item.about_other:
                # "Have you ever tried to end your life?" told the later act short of an attempt (the gun held) over the
                # earlier screen's "no attempts" (_act_over_denial): the act is the answer, not the suicide topic's rest
                specific_topics.update(
                    (set(concept_topics(self.index.lexicon, concept_id)) | {t for f in item.facts for t in f.topics}) & asked)
            elif specific and item.stance == DENY and not item.about_other and (
                item.facts or concept_id in self._ruled_out_anywhere
                or concept_id == _ATTEMPT and self._no_attempt
            ) and concept_id not in self._affirmed_anywhere:
                # "Have you acted on thoughts like these before?" of a record that says there was no attempt:
                # the past is denied, not answered with the present thoughts said again (a denial the record
                # only implies by silence is not said: "three previous overdoses" is no lexicon attempt)
                specific_topics.update(set(concept_topics(self.index.lexicon, concept_id)) & asked)
                acted = self._acted_now() if concept_id == _ATTEMPT and item.facts else ()
                if acted:
                    # "Have you ever tried to end your life?" of a man found on a footbridge tonight, whose record
                    # says "No previous suicide attempts": tonight's act first, then "before" denied; the denial
                    # alone reads as no attempt at all (stop 33's blind reader, hw-036)
                    item = AnswerItem(AFFIRM, concept_id, acted + item.facts, item.sensitive, item.about_other)
            elif (
                item.stance == AFFIRM
                and not item.about_other
                and self.index.lexicon.get(concept_id).kind not in CLOSED_WORLD_KINDS
                and any(
                    self._topic_facts(t, asked, used, 1)
                    for t in set(concept_topics(self.index.lexicon, concept_id)) & asked
                )
            ):
                # history asked as a topic ("who do you live with?"): the topic's facts answer, the
                # current ones first, not every sentence that names the concept
                item = AnswerItem(AFFIRM, concept_id, (), item.sensitive, item.about_other, silent=True)
            elif item.stance in (DENY, UNKNOWN) and not item.facts and self._something_on(
                # what was asked is the concept: its own topics among those read ("thoughts of harming yourself"
                # is not silenced by a threat to others the topic reader's 'violence' beside it finds)
                (set(concept_topics(self.index.lexicon, concept_id)) & asked) or asked
            ) and not (
                item.stance == DENY and concept_id in by_meaning and concept_id in self._ruled_out_anywhere
            ):
                # the record speaks of what was asked: the topic answers, no blanket denial is said (unless the
                # record itself rules out what the question meant: "no plan or intent" in the risk assessment)
                item = AnswerItem(item.stance, item.subject, (), item.sensitive, item.about_other, silent=True)
            items.append(item)
            used.update(item.fact_ids)
        if household:
            # the record's silence on dependants is no "I don't know": who is at home is the answer, or the
            # sentences that name them
            items = [_silenced(i) if i.stance == UNKNOWN and not i.facts and i.subject in rules.household_concepts else i
                     for i in items]
            # nor is their own childhood ("I was an only child", household_answers not_dependant) told as one
            items = [AnswerItem(AFFIRM, i.subject, (), i.sensitive, i.about_other, silent=True)
                     if i.subject in rules.household_concepts and i.facts
                     and all(rules.not_dependant.search(f.fact.text) for f in i.facts) else i for i in items]
            if named_dependants:
                # the sentences that name them answer, not the concept's own (a care given in the past, "I cared for
                # her at home for four years", hw-032; the chart's "Background: sole carer ...", hw-018)
                items = [AnswerItem(AFFIRM, i.subject, (), i.sensitive, i.about_other, silent=True)
                         if i.subject in rules.household_concepts and i.stance == AFFIRM else i for i in items]
                items.append(AnswerItem(TELL, "dependants", named_dependants))
                used.update(f.id for f in named_dependants)
            elif self._nobody_depends():
                # "Do you have children or anyone who depends on you?" of a record that names none: no one does, then
                # who is at home (not the household alone, which never says it)
                items = [i for i in items if i.subject not in rules.household_concepts]  # nor "I was an only child"
                items.insert(0, AnswerItem(DENY, rules.nobody_subject))
        meant_told = [i for i in items if i.subject in by_meaning and i.stance == AFFIRM and i.facts]
        meant_topics: set[str] = set()
        if meant_told:
            # the question's meaning found the record's finding: no stock denial of the concept a word of it
            # read ("go weak" as a weakness of the arm), and only the finding's own topics are told beside it
            items = [i if i.facts or i.stance not in (DENY, UNKNOWN) else _silenced(i) for i in items]
            meant_topics = {t for i in meant_told for t in finding_topics(i.subject, self.index.lexicon)}
        if asks_what(question) or is_reflection(question.text):
            # "What did you take?", "How often are you getting them now?": a question that presupposes
            # its thing is not answered "no" from a concept the record merely does not mention; nor is a
            # reflection, which asks nothing ("It sounds exhausting, being told it's nothing" is no screen for fatigue)
            items = [_silenced(i) if i.stance == DENY and not i.facts and not i.silent else i for i in items]
        answered = any((i.stance == AFFIRM and not i.silent) or (i.stance == DENY and i.facts) for i in items)
        concept_topic_set = {t for c in question.concepts for t in concept_topics(self.index.lexicon, c)}
        for topic_id in topics:
            if topic_id in _FRAME_TOPICS and content and not (
                topic_id == "functioning" and self._topic_facts(topic_id, asked, used, 1)
            ) and not (timing and topic_id in _TIMING_TOPICS and self._complaint_untimed(content)):
                continue  # "how long has the sleep been bad?": the sleep facts that say when (what it does
                # to a day is told from its own facts: "How is this affecting your day?" after anger)
                # "When did you first notice this?" after the complaint asks the illness's time: with no sentence of the
                # complaint that says one ("I've not slept at all."), the onset's own sentences do ("It started about
                # twenty-four hours ago.", dev-0190)
            if topic_id == "family_history" and any(i.stance in (AFFIRM, DENY) for i in items):
                continue
            if topic_id == "chief_complaint" and timing and self._complaint_untimed(content) and any(
                    self.index.timed[f.id] for t in _TIMING_TOPICS if t in topics for f in self.index.by_topic.get(t, ())):
                continue  # nor is the complaint's untimed line said before the onset's time (said alone, it was all
                # the reply kept: "I've not slept at all.")
            if topic_id in specific_topics:
                continue
            if meant_told and topic_id not in meant_topics:
                continue  # "protect yourself in the house?" is the belief's answer, not who they live with
            facts = self._topic_facts(topic_id, asked, used, per_topic, question.relative, timing, amount,
                                      asks_when(question))
            if topic_id == "family_history" and _FAMILY_PSYCHIATRIC in question.concepts and rules.family_mental_asked.search(
                    " ".join(_asking(question))):
                # "Has anyone in your family had problems with their mental health?" is told the relatives' mental
                # health, drink or memory (recall.json family_mental_health), never "My father had a stroke at 70"
                # (hw-028) or "My father was Graham" (uw-009); with none of it in the record, they know of none
                pool = self._topic_facts(topic_id, asked, used, 50, question.relative, timing, amount, asks_when(question))
                said = {f.id: _mental_said(f.fact.text, rules.family_mental) for f in pool}
                # what a relative had, else the record's own denial; "never seen by a psychiatrist" alone makes no
                # answer of "Father Graham (68), retired plasterer, never seen by a psychiatrist"
                # a relative described in lay words the list does not hold ("'highs and lows', treated with ECT",
                # "'kept everything' after the war", "a very orderly man who 'double-checks everything'") is still
                # told before a denial; a relative's body alone ("had a stroke at 70") never is
                facts = [f for f in pool if said[f.id] == "had"] or [
                    f for f in pool if said[f.id] is None and f.present and not rules.family_physical.search(f.fact.text)
                ] or [f for f in pool if said[f.id] == "not" and not f.present]  # "No mental illness known"
                facts = facts[:per_topic]
                if not facts:
                    items.append(AnswerItem(UNKNOWN, topic_id, about_other=True))
                    continue
            if question.concepts and tax.kind(topic_id) == "symptom":
                # "How do you feel when you wake up?" is not answered with the topic's pertinent negative
                # of another thing ("no periods of decreased need for sleep"): the concept's own answer
                # ("None." under medications, a negative of nothing named, still answers its history)
                facts = [f for f in facts if f.present or not f.rules_out or f.rules_out & set(question.concepts)]
            if means and topic_id in _MEANS_TOPICS:
                # "anything you could use to harm yourself, such as medicines?" is told the medicines they keep, never
                # "I don't take any" for a record with none: the means' own denial answers then
                facts = [f for f in facts if f.present]
                # and where a sentence says the medicines are locked away or held by another, that is the answer, not
                # the list of what they take (uw-035: "I take sertralin teva, a decubal cream and a salbutamol inhaler."
                # to the means question, his mother having locked the sertraline in a box in her wardrobe)
                held = [f for f in self._topic_facts(topic_id, asked, used, 50, question.relative, timing, amount,
                                                     asks_when(question))
                        if f.present and load_recall_rules().means_held.search(f.fact.patient_says or "")]
                facts = held[:per_topic] or facts
            # what this reply affirms and what they told earlier in the encounter ("It'd be easier all round if I went
            # where Trev is." is not followed, a question later, by "I haven't had any thoughts of ending my life.", uw-021)
            affirmed = self._affirmed_so_far(items)
            # "Any thoughts of ending your life?" affirmed from "passive wishes to die": the risk line's
            # "No suicidal ideation" is not said after it (the patient does not contradict themselves)
            facts = [f for f in facts if not f.rules_out & affirmed]
            if topic_id in _RISK_TOPICS and any(topic_id in finding_topics(c, self.index.lexicon) for c in affirmed):
                # the risk asked, told ("It'd be easier all round if I went where Trev is."): the topic's other
                # sentences go with it only where they state a finding of it too, never a line filed there that
                # states none ("Nah, I'm not that sort" of an earlier screen, tacked on after the disclosure, uw-021)
                facts = [f for f in facts if any(topic_id in finding_topics(c, self.index.lexicon) for c in f.affirms)]
            if answered and facts and all(f.section in _PAST_SECTIONS for f in facts) and tax.kind(topic_id) == "symptom" \
                    and topic_id not in load_recall_rules().lifetime_topics:
                # the symptom is answered as it is now; the psychiatric history is not its second sentence
                # ("What's been worrying you?" - "I've always been a worrier...", not "... I had not taken any
                # medication for my nerves")
                continue
            if facts:
                items.append(AnswerItem(TELL, topic_id, tuple(facts)))
                used.update(f.id for f in facts)
                continue
            if any(topic_id in f.topics and f.present for i in items if i.stance in (AFFIRM, TELL) and not i.silent
                   for f in i.facts):
                # the sentence told for another subject asked says this one too ("How's your appetite and weight?" -
                # "I eat sandwiches instead of cooking and have lost about 2 kg", hw-032): it answers, no "My weight
                # hasn't changed" beside it
                continue
            voiced = self._voiced_facts(topic_id, used) if tax.kind(topic_id) == "symptom" and not answered else []
            # a clinician's line filed under the topic by a word of it ("no delusional conviction" under
            # beliefs) voices only a finding of that topic, never its other findings
            voiced = [f for f in voiced if not any(c in self._findings for c in f.affirms | f.rules_out)
                      or any(topic_id in self._findings.get(c, ()) for c in f.affirms | f.rules_out)]
            if voiced:
                # the patient's own words for it first: a quote, or what they can say that tells the same
                voiced = self._disclosure(voiced, used, topic_id) or voiced
                items.append(AnswerItem(TELL, topic_id, tuple(voiced)))
                used.update(f.id for f in voiced)
                continue
            if answered or (
                topic_id in concept_topic_set and any(i.stance in (DENY, UNKNOWN) for i in items)
            ):
                continue
            if topic_id == "insight":
                items.append(AnswerItem(UNKNOWN, "insight"))
            elif tax.kind(topic_id) == "substance" and not self._something_on({topic_id}, related=True) and (
                related := self._related_facts(topic_id, used)
            ):
                items.append(AnswerItem(TELL, topic_id, tuple(related[:1])))
                used.update(f.id for f in related[:1])
            elif self._something_on({topic_id}, related=True):
                related = self._related_facts(topic_id, used)
                if related:
                    items.append(AnswerItem(TELL, topic_id, tuple(related[:1])))
                    used.update(f.id for f in related[:1])
                elif tax.kind(topic_id) == "symptom" and (untold := self._untold_symptoms(topic_id, used)):
                    # what the record says of it has no words of the patient's ("restless, can't sit still
                    # in class" left unrendered): the symptoms it names, in lay words, never a denial
                    items.append(AnswerItem(TELL, topic_id, tuple(untold[:1])))
                    used.update(f.id for f in untold[:1])
                elif told := self._disclosure(self._topic_anchors(topic_id), used, topic_id):
                    # what the record carries on it only in the clinician's sentences: told in the
                    # patient's words (a finding of the record is never met with the stock denial)
                    items.append(AnswerItem(TELL, topic_id, tuple(told[:per_topic])))
                    used.update(f.id for f in told[:per_topic])
                elif tax.kind(topic_id) == "symptom" and (implied := self._implied_on(topic_id)):
                    items.append(self._implied_answer(implied, used, topic_id))
                    used.update(items[-1].fact_ids)
                elif tax.kind(topic_id) == "symptom":
                    # a concept of the topic read somewhere ("attacks" as violence, "exhausted"), no
                    # sentence on it: a person knows how they sleep, so no "I don't know" but the screen's no
                    items.append(AnswerItem(DENY, topic_id))
                else:
                    items.append(AnswerItem(UNKNOWN, topic_id, about_other=topic_id == "family_history"))
            elif tax.kind(topic_id) in ("symptom", "substance") or (
                tax.by_id[topic_id].closed_if_section is not None
                and self.index.by_section.get(tax.by_id[topic_id].closed_if_section)
            ):
                # closed world: a symptom the record would have listed, or history its section would hold; never
                # what the record implies in other ways (data/implied.json)
                implied = self._implied_on(topic_id)
                items.append(self._implied_answer(implied, used, topic_id) if implied else AnswerItem(DENY, topic_id))
                used.update(items[-1].fact_ids)
            else:
                items.append(
                    AnswerItem(UNKNOWN, topic_id, about_other=topic_id == "family_history" or question.about_other)
                )
        if self._asks_facet() and not any(self._says_facet(f) for i in items if not i.silent for f in i.facts):
            # "Did anything happen around the time they started?": none of the subject's sentences says the part
            # asked; the presentation's sentence that does is the answer ("The recent stressor was a viral
            # illness."), and a frame topic's sentence that does not is left unsaid
            facet_fact = self._facet_fact(question, used)
            if facet_fact is not None:
                items = [i for i in items if not (i.stance == TELL and i.subject in _FRAME_TOPICS)]
                items.insert(0, AnswerItem(TELL, "facet", (facet_fact,)))
                used.add(facet_fact.id)
        if self._asks_facet():
            # the sentence of a subject that says the part asked is that subject's answer: its other sentences are
            # not said beside it ("Has the citalopram helped?" - "... not responding to citalopram", not "I take
            # citalopram and amlodipine" after it); said as the part asked, whatever section holds it (the
            # complaint's line is no medicine fact, yet it is how the medicine went)
            items = [AnswerItem(TELL, "facet", tuple(f for f in i.facts if self._says_facet(f)), i.sensitive,
                                i.about_other, i.silent)
                     if i.stance == TELL and not i.silent and i.subject != "facet" and any(map(self._says_facet, i.facts))
                     and not all(map(self._says_facet, i.facts)) else i
                     for i in items]
        protective = any(i.subject in load_recall_rules().specific_concepts and not i.silent and (
            i.facts or i.stance == DENY) for i in items)
        # what keeps them going, found, is the answer: no sentence close in words before it ("safe" in "she
        # wants me home and safe" is not what keeps him safe)
        # nor, where the household answers, a sentence that shares a word with the question ("children" in "As a
        # child I had a spell of ...", "home" in "Home wasn't a safe place growing up")
        closest = None if meant_told or protective or household or self._explanation else self._closest_fact(question, used)
        if closest is not None and not self._says_facet(closest) and any(
            i.subject == "facet" or i.stance in (AFFIRM, TELL) and not i.silent and any(map(self._says_facet, i.facts))
            for i in items
        ):
            # the part asked, found, opens the reply: no sentence close in other words before it ("What helped
            # you last time?" is the sertraline that helped, not "Over the last two months I've felt flat")
            closest = None
        said_asked = asked & self._said_topics
        if closest is not None and said_asked and not said_asked & closest.said and any(
            said_asked & f.said for i in items if i.stance in (AFFIRM, TELL) and not i.silent for f in i.facts
        ):
            # nor before the sentence that says the subject asked in its own words ("What do you bet on?" is
            # "betting on football and online slots", not "I drink more on betting nights" first for the word)
            closest = None
        if closest is not None and not closest.present and cosine(
            self._query, closest.vector
        ) < self.policy.off_topic_threshold and any(
            i.stance in (AFFIRM, TELL) and not i.silent and any(f.present for f in i.facts) for i in items
        ):
            # a pertinent negative barely close in words is not tacked on to what answers ("Do you check for
            # swollen glands?" - "I don't scan for swollen glands" is close, and the answer): "How's your mood been?" is
            # "bored, low", not "... Never, I haven't felt really high"; "Are your periods regular?" not "... I
            # don't take any regular medicines"
            closest = None
        if closest is not None and timing and not self.index.timed[closest.id] and any(
            self.index.timed[f.id] for i in items if i.stance in (AFFIRM, TELL) and not i.silent for f in i.facts
        ):
            # a time asked, and found: a sentence close in other words that says no time is not put before it
            # ("When did you first notice this?" is "It started about twenty-four hours ago.", not "This is the
            # first time I've seen a psychiatrist." for the word "first", dev-0190)
            closest = None
        if closest is not None and closest is not self._more and (self._off_subject(closest, question) and (any(
            i.stance in (AFFIRM, TELL) and not i.silent
            and any(f.present and f.id not in self.state.disclosed for f in i.facts) for i in items
        ) or self._keyword_only(closest, question)) or self._history_for_now(closest, question) and any(
            i.stance in (AFFIRM, TELL) and not i.silent and i.facts for i in items
        ) or self._past_for_now(closest, question) and any(
            i.stance in (AFFIRM, TELL) and not i.silent and any(f.fact.time != "past" for f in i.facts) for i in items
        )):
            # a sentence barely close in words, on a subject of its own that is none of those asked (nor a
            # neighbour of one), is not tacked on to what answers: "Do you ever feel life isn't worth
            # living?" is the wish to die, not "I live with my partner" first; "What does the voice say?" not
            # "my flatmates say I had been working through the nights"; alone it still answers ("Have you
            # changed anything?" - "I drink no coffee now"), and so beside what was told already ("What have
            # the tests shown?" - "a mountain of normal tests", not the pain said again). Nor is the psychiatric
            # history put before how a symptom is now ("How would you describe your mood right now?" - "nervous",
            # not "I had never spoken to a doctor about my mood"), nor a state the chart dates in its past before the
            # topic's answer of now ("In your own words, how would you describe your mood right now?" was "Back in
            # June, my mood was up and down." before December's "pretty good, considering", uw-033 at seed 13)
            closest = None
        if closest is not None and self._denies_by_its_words(closest, question,
                                                             closest.rules_out & self._affirmed_so_far(items)):
            # a sentence close in words that rules out what the patient tells in this reply or told earlier in the
            # encounter ("Have you ever tried to end your life?" - "I haven't had any thoughts of ending my life."
            # after "It'd be easier all round if I went where Trev is.", uw-021): the patient does not contradict
            # themselves
            closest = None
        if closest is not None and self._by_a_word_only(closest, question, items, concepts):
            closest = None
        if closest is not None and self._by_the_concept_words_only(closest, question, items, concepts):
            closest = None
        if closest is not None and self._asks_home(question) and not _says_home(closest) and any(
            _says_home(f) for i in items if i.subject == _LIVING for f in i.facts
        ):
            closest = None  # "Who do you live with?" is who is at home, not where the parents live
        if closest is not None:
            # the sentence of the record that answers in the question's own words comes first; a
            # blanket denial or "not sure" no longer stands beside it
            items = [i if i.stance not in (DENY, UNKNOWN) or i.facts else _silenced(i) for i in items]
            if closest.present or not any(not i.silent for i in items):
                items.insert(0, AnswerItem(TELL, "similar", (closest,)))
            else:
                items.append(AnswerItem(TELL, "similar", (closest,)))  # a pertinent negative never opens the reply
            used.add(closest.id)
        if not items and not topics and not question.concepts and not question.greeting and not question.closing and not question.open:
            # nothing asked that the taxonomy or the lexicon knows ("Do you feel cold a lot?"): the
            # record sentence closest in words, if one is close enough, else the patient asks back
            similar = [
                f for f in self.index.similar(question.text, self.policy.similarity_threshold, self.policy.similarity_limit)
                if f.section != FAMILY_SECTION and f.id not in self.state.disclosed
            ]  # a sentence told already is not said again for a word it shares: the patient asks back
            if similar:
                items.append(AnswerItem(TELL, "similar", tuple(similar)))
        if not items and not question.greeting and not question.closing and self.is_open(question) and question.open:
            # "anything else?": what has not been said yet, in the record's order (presentation first)
            facts = [f for f in self.index.facts if f.tellable and f.id not in self.state.disclosed
                     and not f.id.startswith(SILENT)][:per_topic]
            items.append(AnswerItem(TELL, "chief_complaint", tuple(facts)) if facts else AnswerItem(NOTHING_MORE, "other"))
        again = False
        if self.state.disclosed and not (timing or amount) and not self.is_open(question):
            items, again = self._without_repeats(items)
        if any(i.stance in (AFFIRM, TELL, DENY) and not i.silent for i in items):
            items = [i if i.stance != UNKNOWN or i.subject == "insight" else _silenced(i) for i in items]
        if items and all(i.silent for i in items) and is_reflection(question.text):
            items = []  # a reflection the record has nothing on is acknowledged ("Yeah."), not answered "no"
        if items and all(i.silent for i in items):
            items = [AnswerItem(i.stance, i.subject, i.facts, i.sensitive, i.about_other) for i in items]
        items = _capped(items, per_topic + 1)
        if timing or asks_when(question):
            items = self._with_antecedents(items, used)
        small_talk = "greeting" if question.greeting else "closing" if question.closing else None
        plan = AnswerPlan(
            question,
            items=tuple(items),
            small_talk=small_talk,
            unclear=not items and small_talk is None,
            again=again,
            asked=tuple(c for c in question.concepts if c in concepts) if means else None,
        )
        if may_disclose is None:
            return plan
        from .decide import gate  # the old one-call API: recall, then decide's rapport gate

        return gate(plan, may_disclose, self.state.disclosed, self.index)

    def _with_antecedents(self, items: list[AnswerItem], used: set[str]) -> list[AnswerItem]:
        """A time asked, a sentence that dates itself by the one before it in the record ("since then she has dropped
        foods one by one", :data:`_SINCE_THEN`) is told with that one before it, when it is not told yet: "At four I
        choked on a grape at a party. ... Since then I've dropped foods one by one." (hw-035 answered "When did her
        eating become so limited?" with the illness's "About eighteen months ago" and "since then" pointing at
        nothing.)"""
        out = []
        for item in items:
            if item.stance not in (AFFIRM, TELL) or item.silent or not item.facts:
                out.append(item)
                continue
            facts: list[IndexedFact] = []
            for f in item.facts:
                before = self.index.facts[f.position - 1] if f.position > 0 else None
                if (before is not None and _SINCE_THEN.match(f.fact.text) and before.section == f.section
                        and before.tellable and before.present and before.id not in used
                        and before.id not in self.state.disclosed and before not in facts):
                    facts.append(before)
                    used.add(before.id)
                facts.append(f)
            out.append(replace(item, facts=tuple(facts)) if len(facts) != len(item.facts) else item)
        return out

    def _without_repeats(self, items: list[AnswerItem]) -> tuple[list[AnswerItem], bool]:
        """The plan without what this encounter has told already and the question did not ask: a new
        question gets what is new, not the chief complaint or the mood answer tacked on again; a fact
        told before that is this question's best answer stays, said as said before (``again``: "Like I
        said, I hold a shotgun certificate."); when all it would tell was told before, only the first. A pertinent negative told before is left to the concept's own denial ("I've never
        hurt myself" for self-harm, not the suicide answer again)."""
        told = self.state.disclosed
        lexicon = self.index.lexicon

        def still_asked(fact: IndexedFact, item: AnswerItem) -> bool:
            if fact.section == "chief_complaint" and not (self._asks_facet() and self._says_facet(fact)):
                # said at the start; never the tail of another answer (unless it alone says the part asked: "Has
                # the citalopram helped?" - "Like I said, ... not responding to citalopram", not the medicine list)
                return False
            if part_new and not self._says_facet(fact):
                # the part asked, new, is the answer ("Do you feel you might act on them?" - "I'm not going to do
                # anything"): the plan told before is not said again beside it (uw-020)
                return False
            # the best answer, the sentence in the question's words, a fact of the concept asked by name;
            # not a topic's second sentence told before ("I drink about eight units" after the job)
            # or a sentence in the question's own words ("Is this stopping you working?" - "Like I said, it
            # stops me working more than a few hours a day")
            # or the sentence that says the part of the subject asked ("How did you get on with it?" - "Like I
            # said, I felt wired and reckless within a month and stopped it"; data/recall.json facets)
            return (fact is best or item.subject == "similar" or item.subject in lexicon or self._in_its_words(fact)
                    or self._says_facet(fact))

        part_new = any(i.subject == "facet" and not i.silent and any(f.id not in told for f in i.facts) for i in items)
        spoken = [(f, i) for i in items if i.stance in (AFFIRM, TELL) and not i.silent for f in i.facts]
        best = spoken[0][0] if spoken else None  # the plan's best answer ("Are there any guns at home?")
        fresh = any(f.id not in told for f, _ in spoken)
        if any(i.stance == DENY and not i.silent and any(f.id not in told for f in i.facts) for i in items):
            # the record's own denial, not said yet, answers ("Have you ever made yourself sick?" - "No, I haven't
            # been making myself sick."): what was told before is not tacked on to it
            fresh, best = True, None
        if best is not None and best.id in told and any(f.id not in told and i is not spoken[0][1] for f, i in spoken):
            # another subject asked has something new ("... people hurt themselves. What happens for you?"
            # after the suicide screen): that is the answer, not the other subject's again ("As I said, I've
            # never had thoughts of ending my life.")
            best = None
        out: list[AnswerItem] = []
        kept_one = False
        for item in items:
            if item.silent or not item.facts:
                out.append(item)
                continue
            if item.stance == DENY:
                new = tuple(f for f in item.facts if f.id not in told)
                if new != item.facts and (item.subject in lexicon or not new):
                    item = AnswerItem(DENY, item.subject, new, item.sensitive, item.about_other)
                    if not new and item.subject not in lexicon:
                        item = _silenced(item)
                out.append(item)
                continue
            if item.stance not in (AFFIRM, TELL):
                out.append(item)
                continue
            if fresh:
                new = tuple(f for f in item.facts if f.id not in told or still_asked(f, item))
            elif not kept_one:
                new, kept_one = item.facts[:1], True
            else:
                new = ()
            if new:
                out.append(AnswerItem(item.stance, item.subject, new, item.sensitive, item.about_other))
            elif item.stance == AFFIRM:
                out.append(_silenced(item))  # the stance stands; nothing of it is said again
        if not any(not i.silent for i in out) and any(not i.silent for i in items):
            return items, False
        first = next((f for i in out if i.stance in (AFFIRM, TELL, DENY) and not i.silent for f in i.facts), None)
        return out, first is not None and first.id in told

    def _in_its_words(self, fact: IndexedFact) -> bool:
        """Whether a sentence answers the question being planned in its own words: close in words (cosine at
        least ``off_topic_threshold``) and sharing more than one word of substance ("stopping you working" -
        "stops me working"; "things with your partner" is not "I live with my partner" for one word)."""
        query = self._query
        return (len(query.keys() & fact.vector.keys()) > 1
                and cosine(query, fact.vector) >= self.policy.off_topic_threshold)

    def _says_facet(self, fact: IndexedFact, history: bool = False) -> bool:
        """Whether a sentence says a part asked; a part said by where it is written (``sections``: how school
        is going) only of a history topic, whose home is elsewhere (a mood is said by the examiner's mood)."""
        sections = load_recall_rules().facet_sections
        return any(history and fact.section in sections[k] if k in sections else says_facet(fact.fact.text, k)
                   for k in self._facets)

    def _asks_facet(self, history: bool = False) -> bool:
        sections = load_recall_rules().facet_sections
        return any(history or k not in sections for k in self._facets)

    def _facet_fact(self, question: Question, used: set[str]) -> IndexedFact | None:
        """The sentence of the presenting illness that says the part of the subject asked (``facets``): one on
        a subject asked (or on what was asked just before) first, else one filed under no subject."""
        content = (self._content_topics(question) or set(self.state.topics)) | (set(question.topics) & _FRAME_TOPICS)
        if "chief_complaint" in content:
            # "Tell me about the first time it happened." after the complaint: "it" is what the complaint is about
            # (the attacks of the history), not only the referral's line
            content |= set(self.index.complaint_topics)
        near = set(content)
        if "content" in self._facets:
            # what a symptom holds may be written under its neighbour ("What do you worry will happen if you go
            # out?" - "Fear of being unable to escape or get help", filed under avoidance): the taxonomy's related
            # topics of the subject asked count as on it, after the subject's own sentences
            for t in content:
                if t in self._taxonomy.by_id:
                    near.update(self._taxonomy.by_id[t].related)
        saying = [f for section in _PRESENTATION_SECTIONS for f in self.index.by_section.get(section, ())
                  if f.tellable and f.present and f.id not in used and not f.id.startswith(SILENT) and self._says_facet(f)]
        candidates = [f for f in saying if not f.topics or not content or near & set(f.topics)]
        if not candidates and "content" in self._facets and "worry" in content:
            # the fear the presenting illness gives may be filed under a subject of its own words ("frightened that
            # she will collapse in the street and that nobody will stop to help her", under social support): it is
            # still what the worry holds (only a worry: what goes through the mind when angry is not any fear of the
            # history, uw-004, uw-005)
            candidates = saying
        if "precipitant" in self._facets:
            # "Referred from the GP after 'a mountain of normal tests'" (hw-020) says what came before the referral,
            # not what was going on when the illness began
            came = load_recall_rules().how_they_came
            candidates = [f for f in candidates if not came.search(f.fact.text)]
        look_in = [s for k in self._facets for s in load_recall_rules().facet_look_in.get(k, ())]
        if look_in and not candidates:
            # "How did you get on with it?", "Has the citalopram helped?": how a treatment went is written where the
            # treatment is (the past history's "felt wired and reckless within a month and stopped it"), not only in
            # the presenting illness, and is the answer before the list of medicines (hw-003, recall.json look_in)
            candidates = [f for f in self.index.section_facts(look_in)
                          if f.tellable and f.id not in used and not f.id.startswith(SILENT) and self._says_facet(f)]
        candidates.sort(key=lambda f: (not (content & set(f.topics)), f.id in self.state.disclosed, f.position))
        if candidates or "precipitant" not in self._facets:
            return candidates[0] if candidates else None
        return self._precipitant_voiced(used)

    def _precipitant_voiced(self, used: set[str]) -> IndexedFact | None:
        """What brought the illness on, said only in a clinician's sentence the compiler could not put in the
        first person ("The story begins about two years ago, after a single sexual encounter with a stranger at a
        festival"): its "after ..." clause in the patient's words ("It started after a single sexual encounter
        with a stranger at a festival."), by ``precipitant.voiced`` of ``data/recall.json``; else nothing."""
        voiced = load_recall_rules().precipitant_voiced
        if voiced is None:
            return None
        pattern, leads, mine = voiced
        for section in _PRESENTATION_SECTIONS:
            for f in self.index.by_section.get(section, ()):
                if f.tellable or not f.present or f.id in used or f.id.startswith(SILENT):
                    continue
                found = pattern.search(f.fact.text)
                if not found:
                    continue
                phrase = found.group("what").strip(" ,;:")
                if len(phrase.split()) < 2 or QUOTED_WORDS.search(phrase):
                    continue
                for word, own in mine.items():
                    phrase = re.sub(rf"\b{word}\b", own, phrase)
                lead = next((v for k, v in leads.items() if re.match(k, found.group("how"), re.IGNORECASE)), "It started after")
                said = f"{lead} {phrase}."
                return replace(f, fact=replace(f.fact, patient_says=said, told=True), tellable=True)
        return None

    def _closest_fact(self, question: Question, used: set[str]) -> IndexedFact | None:
        """The told fact closest in words to the question (cosine at least ``answer_threshold``) when it
        is not already in the plan: a relative's history only when a relative was asked about. Read in the
        question's asking sentences ("The police brought you in today. How are you feeling?" asks a feeling,
        not the police), the preface too when they point back at it ("Can you tell me about that?"); close
        enough to the whole utterance too, as before."""
        if question.greeting or question.closing or question.injection is not None:
            return None
        about_family = question.about_other or question.relative is not None or "family_history" in question.topics
        asking = " ".join(_asking(question))
        text = load_recall_rules().closest_ignores.sub(" ", question.text if _POINTS_BACK.search(asking) else asking)
        asked = self._content_topics(question)
        query = self.index.vectorize(text)
        ignores = load_recall_rules().closest_ignores
        whole = self.index.vectorize(ignores.sub(" ", question.text)) if asking != question.text.strip() and not (
            _POINTS_BACK.search(asking)) else None
        close = self.index.similar(text, self.policy.answer_threshold, 3)
        if not close:
            # nothing close in all its words: a sentence that shares a rare word with what is asked answers it
            # ("Has that done anything to your skin?" - "... until the skin cracks"), the closest such first
            close = [f for f in self.index.similar(text, self.policy.anchor_threshold, 5) if self.index.anchors(self._anchors_asked, f)]
        # a sentence of the body's history found only by the words that name a mental symptom asked is no answer
        # ("really high" of elation is not "high cholesterol", hw-028; recall.json symptom_words)
        rules = load_recall_rules()
        plain = None
        if any(f.section in rules.symptom_words_sections for f in close):
            stripped = self._symptom_words_out(text, question.concepts, rules.symptom_words_domains)
            plain = self.index.vectorize(stripped) if stripped != text else None
        if plain is not None:
            close = [f for f in close if f.section not in rules.symptom_words_sections
                     or cosine(plain, f.vector) >= self.policy.anchor_threshold]
        for fact in close:
            anchored = cosine(query, fact.vector) < self.policy.answer_threshold
            if (fact.section == FAMILY_SECTION) != about_family:
                continue
            if anchored and not fact.present:
                continue  # a rare word alone does not bring up a pertinent negative
            if whole is not None and cosine(whole, fact.vector) < (
                    self.policy.anchor_threshold if anchored else self.policy.answer_threshold):
                continue  # close to the asking sentence alone, not to all that was said: a stray word ("children"
                # after "Thank you for being so open with me." is not "I was an only child")
            if fact.id.startswith("demographics.") and question.topics and not set(fact.topics) & set(question.topics):
                continue  # "thoughts that life is not worth living?" is not "I live with my boyfriend"
            if (asked and not asked & set(fact.topics) and fact.id in self.state.disclosed
                    and cosine(query, fact.vector) < self.policy.off_topic_threshold and not self.index.anchors(self._anchors_asked, fact)):
                # a sentence told already, on none of the subjects asked, is not said again ("Like I said,
                # I've never told anyone before" to "is anyone against you?") for a word in common
                continue
            if fact.id in self.state.disclosed and (more := self._told_more(fact, question, query, used, about_family)):
                self._more = fact = more
            return None if fact.id in used else fact
        return None

    def _told_more(self, told: IndexedFact, question: Question, query: dict[str, float], used: set[str],
                   about_family: bool) -> IndexedFact | None:
        """Asked about a thing already told, by a word of that sentence ("Is the radio saying anything to you?"
        after "the radio is sending my messages"): what more the record says of it, in a sentence not told yet that
        holds the same words of the question and goes on about the same subject (a topic of both, the complaint
        and its frame aside), of the same time as the told one (hw-034 answered "As I said, I agreed to come in
        because I need to sleep" where the DJ's coded messages were the answer; a past note on it, "in previous
        episodes ... the radio beliefs", is no answer about now). The words are those of what is asked, not of its
        time anchor ("Before the first one on the motorway, had you ever had anything like it?" asks of no motorway,
        hw-004); "manages her own tablets" is not told more of by "their own house" (hw-028). ``None`` when the
        record says nothing more. (On the subject asked by construction: the question's words found the told
        sentence, whatever topic the turn before lent the question.)"""
        shared = self._anchors_asked & told.content  # the question's own words (not its generic ones) in the told one
        unanchored = without_time_anchor(question.text)
        if unanchored is not None:
            shared &= _anchor_stems(unanchored, tuple(question.topics))
        subject = set(told.topics) - _NOT_COMPLAINT
        if not shared or not subject:
            return None
        more = [f for f in self.index.facts
                if f.id not in self.state.disclosed and f.id not in used and f.tellable and f.present
                and not f.id.startswith(SILENT) and (f.section == FAMILY_SECTION) == about_family
                and f.fact.time == told.fact.time and shared <= f.content and subject & set(f.topics)
                and cosine(query, f.vector) >= self.policy.anchor_threshold]
        return max(more, key=lambda f: (cosine(query, f.vector), -f.position), default=None)

    def _symptom_words_out(self, text: str, concepts: Sequence[str], domains: frozenset[str]) -> str:
        """``text`` without the words that name a concept of ``concepts`` of one of ``domains`` (the lexicon's
        phrase found in it)."""
        lexicon = self.index.lexicon
        drop: set[int] = set()
        for mention in lexicon.find(text):
            if mention.concept_id in concepts and lexicon.get(mention.concept_id).domain in domains:
                drop.update(range(mention.start, mention.end))
        if not drop:
            return text
        return " ".join(t for i, t in enumerate(tokens_of(text)) if i not in drop)

    def _off_subject(self, fact: IndexedFact, question: Question) -> bool:
        """Whether a sentence found close in words is on subjects of its own, none of them asked or a
        neighbour (the taxonomy's ``related``) of one asked, and shares little more than a word with the
        question (cosine under ``off_topic_threshold``). A sentence filed under no subject is never off it."""
        asked = self._content_topics(question)
        if not asked or not fact.topics:
            return False
        if self.index.anchors(self._anchors_asked, fact):
            return False  # a rare word of the question is in it ("started lots of new projects?"): on the subject
        tax = self._taxonomy
        near = set(asked)
        for t in asked:
            near.update(tax.by_id[t].related)
            if fact.section in (*tax.by_id[t].sections, tax.by_id[t].closed_if_section):
                return False  # the section that holds the subject asked ("been in hospital before?" - "an
                # episode at 20", of the psychiatric history)
        return not near & set(fact.topics) and cosine(self._query, fact.vector) < self.policy.off_topic_threshold

    def _keyword_only(self, fact: IndexedFact, question: Question) -> bool:
        """Whether a sentence off the subjects asked (:meth:`_off_subject`) would be said alone for a word it shares
        with a question on symptoms: "How would you describe your mood right now?" is not "I did my own shopping"
        (hw-011), "Where do you feel stress in your body?" not the counselling for exam stress (hw-030). A question
        on the history ("Did anything happen before it started?") may still find its answer by a word of it."""
        asked = self._content_topics(question)
        if not asked or not all(self._taxonomy.kind(t) == "symptom" and t not in load_recall_rules().lifetime_topics
                                for t in asked):
            return False
        # "What have the tests shown?" names the thing it asks about, no concept of a symptom: the sentence with
        # that thing in it answers ("a mountain of normal tests", hw-020)
        asking = _asking(question)
        m = _WH.match(asking[-1]) if asking else None
        return question.concepts != () or not (m and m.group(0).strip(" ,").split()[-1].lower() == "what")

    def _asks_home(self, question: Question) -> bool:
        """Whether a question asks who is at home or where ("Who do you live with?", "Who's at home with you?",
        "Where are you living?"), not how things are there ("How are things at home?")."""
        if _LIVING not in self._content_topics(question):
            return False
        m = _WH.match(_asking(question)[-1]) if _asking(question) else None
        return bool(m) and m.group(0).strip(" ,").split()[-1].lower() in ("who", "where")

    def _by_a_word_only(self, fact: IndexedFact, question: Question, items: Sequence[AnswerItem],
                        concepts: Sequence[str]) -> bool:
        """Whether a sentence found close to the question only by a word it shares (cosine under
        ``answer_threshold``: "full" of "full of energy" in "a full driving licence", "ideas" in "the idea of
        hanging") is on none of the subjects asked, nor a neighbour of one, while the plan already answers what
        was asked (a concept the question names affirmed or denied, the closed world's denial too): then the
        shared word is not the answer, the plan is. A sentence filed under no subject is judged by the concepts
        it states: on the subject when one of them is a finding of a subject asked."""
        asked = self._content_topics(question)
        tax = self._taxonomy
        if not asked or cosine(self._query, fact.vector) >= self.policy.answer_threshold or any(
            t not in tax.by_id or tax.kind(t) != "symptom" for t in asked
        ):
            return False  # a screen of symptoms only: a word of a history question may well name its answer
            # ("Did anything happen before the sleepiness started?" - the flu, "just before the sleepiness began")
        near = set(asked)
        for t in asked:
            near.update(tax.by_id[t].related)
        own = set(fact.topics) or {t for c in fact.affirms | fact.rules_out for t in finding_topics(c, self.index.lexicon)}
        if own & near:
            return False
        # the question's own concepts, not subjects it inherits from the turn before ("Does anything happen when
        # you laugh?" after the sleep asks nothing the plan answers: the sentence with "laugh" in it does)
        return any(i.subject in concepts and i.stance in (AFFIRM, DENY) for i in items)

    def _by_the_concept_words_only(self, fact: IndexedFact, question: Question, items: Sequence[AnswerItem],
                                   concepts: Sequence[str]) -> bool:
        """Whether a sentence found close to the question shares with it only words of the lexicon phrases that
        name a concept the question asks (and the plan answers, said or not), while it states none of those
        concepts and is on none of the subjects asked nor a neighbour of one: the concept was asked, and its
        words in another sense are no answer ("Have you ever tried to end your life?" is not "kind and patient
        but at the end of his rope", uw-012). A word of the question outside those phrases ("laugh", "gas",
        "tests") may still find the sentence that answers."""
        if not concepts or not any(i.subject in concepts for i in items):
            return False
        lexicon = self.index.lexicon
        text = question.text
        toks = tokens_of(text)
        named: set[str] = set()
        for mention in lexicon.find(text):
            if mention.concept_id in concepts:
                named.update(stems(" ".join(toks[mention.start:mention.end])))
        shared = self._query.keys() & fact.vector.keys()
        if not shared or not shared <= named:
            return False
        if set(concepts) & (fact.affirms | fact.rules_out):
            return False
        asked = self._content_topics(question)
        tax = self._taxonomy
        near = set(asked)
        for t in asked:
            if t in tax.by_id:
                near.update(tax.by_id[t].related)
        for c in concepts:
            near.update(finding_topics(c, lexicon))
        own = set(fact.topics) or {t for c in fact.affirms | fact.rules_out for t in finding_topics(c, lexicon)}
        return not own & near

    def _history_for_now(self, fact: IndexedFact, question: Question) -> bool:
        """Whether a sentence of the past history (``_PAST_SECTIONS``) was found for a question that asks only
        of symptoms (how the mood, the sleep is)."""
        return fact.section in _PAST_SECTIONS and self._asks_symptoms_only(question)

    def _asks_symptoms_only(self, question: Question) -> bool:
        """Whether a question asks only of symptoms as they are (how the mood, the sleep is), no lifetime topic."""
        asked = self._content_topics(question)
        return bool(asked) and all(
            self._taxonomy.kind(t) == "symptom" and t not in load_recall_rules().lifetime_topics for t in asked)

    def _past_for_now(self, fact: IndexedFact, question: Question) -> bool:
        """Whether a sentence the chart dates in its past (``time`` ``past``: a state of an earlier visit) was found for
        a question that asks only of symptoms as they are now (``asks_now``: how the mood is right now)."""
        return (fact.fact.time == "past" and self._asks_symptoms_only(question)
                and load_recall_rules().asks_now.search(" ".join(_asking(question))) is not None)

    def _asked_by_meaning(self, question: Question) -> tuple[str, ...]:
        """The findings of the record a question asks about in other words than the lexicon read (the
        ``meaning`` of ``data/recall.json``, read in the question as in the record): only what some fact of
        the record states or rules out in words, so a question's meaning adds a disclosure or the record's own
        denial ("Any plans to act on that?" - "passive death wishes without plan or intent"), never a stock one."""
        if question.about_other or question.relative is not None or question.injection is not None:
            return ()
        return tuple(c for c in sorted(asked_meaning(question.text))
                     if c not in question.concepts and (c in self._affirmed_anywhere or (
                         # a denial only on its own subject: "acted on them?" of the thoughts of harming the
                         # baby is not answered "no plans to end my life"
                         c in self._ruled_out_anywhere
                         and set(finding_topics(c, self.index.lexicon)) & set(question.topics))))

    def _complaint_untimed(self, content: Sequence[str]) -> bool:
        """Whether the subject asked is the complaint alone and none of its sentences says a time (a duration or
        a when): a time question of it is then answered from the onset's and course's sentences."""
        return set(content) <= {"chief_complaint"} and not any(
            self.index.timed[f.id] for f in self.index.by_topic.get("chief_complaint", ()))

    def _content_topics(self, question: Question) -> set[str]:
        """The subjects a question asks about (not its frame, the complaint or small talk): what the
        facts told to it must be about."""
        tax = self._taxonomy
        return {t for t in question.topics if t in tax.by_id and tax.kind(t) != "meta"
                and t not in _FRAME_TOPICS and t != "chief_complaint"}

    def is_open(self, question: Question) -> bool:
        """Whether a question only asks what else there is ("anything else?"): new facts each time."""
        return not question.concepts and (not question.topics or set(question.topics) <= {"chief_complaint"})

    def _something_on(self, topics: set[str], related: bool = False) -> bool:
        """Whether any fact (told or only known to the clinician) states something present on these topics."""
        wanted = set(topics)
        if related:
            for t in topics:
                wanted.update(self._taxonomy.by_id[t].related if t in self._taxonomy.by_id else ())
        wanted -= _FRAME_TOPICS
        if wanted & self._present_concept_topics:
            return True
        return any(f.present and f.section != FAMILY_SECTION for t in wanted for f in self.index.by_topic.get(t, ()))

    def _related_facts(self, topic_id: str, used: set[str]) -> list[IndexedFact]:
        related = self._taxonomy.by_id[topic_id].related
        # a neighbouring subject answers only with what is going on now and was not said yet: "What do you
        # do for enjoyment?" is not "one previous episode of low mood at 52", nor the mood answer again
        facts = [f for t in related for f in self.index.by_topic.get(t, ()) if f.tellable
                 and f.section != FAMILY_SECTION and f.id not in used
                 and (self._taxonomy.kind(topic_id) == "substance"  # a drug used once is still an answer
                      or f.fact.time != "past" and f.section not in _PAST_SECTIONS)]
        present = [f for f in facts if f.present]
        facts = present or [f for f in facts if self._taxonomy.kind(topic_id) == "substance"]
        unique = list({f.id: f for f in facts}.values())
        return self._prefer_new(unique, used)

    def _topic_anchors(self, topic_id: str) -> list[IndexedFact]:
        """The clinician-only sentences that state a finding of a topic (a concept of the topic, by the lexicon
        or by meaning) that the patient cannot say as written."""
        findings = self._findings
        return [f for f in self.index.facts if not f.tellable and f.present
                and any(topic_id in findings.get(c, ()) for c in f.affirms)]

    def _disclosure(self, anchors: Iterable[IndexedFact], used: set[str], topic_id: str | None = None,
                    concept_id: str | None = None) -> list[IndexedFact]:
        """What the patient says of a finding the record states only in sentences they cannot say as written
        (``anchors``: the clinician's thought content or risk line, a history sentence the compiler could not
        put in the first person). In order: the patient's own words quoted in a voiced section ("said he
        would 'sort them out'"); a sentence they can say that states the same finding, read by meaning
        ("I deserve whatever's coming" for guilt); a sentence they can say close in words to a narrative
        anchor (not a risk formulation, whose list of factors resembles everything): "They're coming through
        the loft" for "belief that his neighbours enter through the loft"; the voiced anchor in lay words.
        Never an examiner's sign (affect, behaviour), never a relative's history. Empty when none: then
        recall says what it would have."""
        voiced = self._taxonomy.voiced_sections
        lexicon = self.index.lexicon
        anchors = [a for a in anchors if not a.tellable and a.present and a.section != FAMILY_SECTION
                   and (a.section in voiced or not a.section.startswith(_EXAMINER_SECTIONS))
                   and not a.id.startswith(SILENT)
                   # it states a finding (of the topic asked): "no suicidal ideation" beside a preoccupation is none
                   and any(lexicon.get(c).kind in CLOSED_WORLD_KINDS
                           and (topic_id is None or topic_id in self._findings.get(c, ())) for c in a.affirms)]
        if not anchors:
            return []
        quoting = [a for a in anchors if a.section in voiced and QUOTED_WORDS.search(a.fact.text) and a.id not in used]
        told = self.state.disclosed
        if any(a.id not in told for a in quoting):
            return [a for a in quoting if a.id not in told][:1]
        # the quotation told already: what else the record has on the finding comes before it is said again ("Have
        # you gone as far as getting anything ready?" after "if nothing's fixed by Christmas I don't see the point"
        # is the handgun she took, not the Christmas line a second and third time, uw-020)
        rest = self._unquoted_disclosure(anchors, used, topic_id, concept_id)
        if quoting and not any(f.id not in told for f in rest):
            return quoting[:1]
        return rest

    def _unquoted_disclosure(self, anchors: list[IndexedFact], used: set[str], topic_id: str | None,
                             concept_id: str | None) -> list[IndexedFact]:
        """:meth:`_disclosure` past the patient's own quoted words: a sentence they can say that states the finding,
        their account of an act, a sentence close to a belief, the anchor in lay words (in that order)."""
        voiced = self._taxonomy.voiced_sections
        lexicon = self.index.lexicon

        def sayable(fact: IndexedFact) -> bool:
            return (fact.tellable and fact.present and fact.id not in used and fact.section != FAMILY_SECTION
                    and not fact.id.startswith(("demographics.", SILENT)))

        findings = [concept_id] if concept_id else sorted(
            {c for a in anchors for c in a.affirms if lexicon.get(c).kind in CLOSED_WORLD_KINDS
             and (topic_id is None or topic_id in self._findings.get(c, ()))})
        own = list({f.id: f for c in findings for f in self.index.affirming.get(c, ()) if sayable(f)}.values())
        if own:
            return self._prefer_new(own, used)[:2]
        if concept_id in _told_by_act():
            # an act (the gun held, a rehearsal) stated only in the clinician's lines: the patient's own account of it,
            # the sentence close to such a line that the record keeps for a direct question (sensitive); the voiced
            # lines (thought content, risk) first, a long line of the presenting history resembles more
            acts: list[IndexedFact] = []
            wording = load_recall_rules().meaning.get(concept_id)
            for anchor in sorted(anchors, key=lambda a: a.section not in voiced):
                # the clause of the line that states the act ("weeks of rehearsal (looking at the garage beam)"), not
                # the whole list of risk factors it stands in
                text = anchor.fact.text
                spans = [text[max(0, m.start() - 40):m.end() + 140] for m in wording.finditer(text)] if wording else []
                acts = [f for f in self.index.similar(" ".join(spans) or text, self.policy.disclosure_threshold, 3)
                        if sayable(f) and f.sensitive]
                if acts:
                    break  # the closest line's account only: a list of the presenting history resembles everything
            # else kept back: a lay gloss of a risk line ("I've been hurting myself" of a list of risk factors) is no account
            return self._prefer_new(acts, used)[:2]
        near: list[IndexedFact] = []
        for anchor in anchors:
            if anchor.section.startswith("risk_assessment") or not any(
                lexicon.get(c).domain == "psychosis" for c in findings if c in anchor.affirms
            ):
                # a belief is told by its content ("they're coming through the loft"); a feeling (guilt,
                # hopelessness) in the patient's lay words, not by a sentence that shares a word with it
                continue
            near.extend(f for f in self.index.similar(anchor.fact.text, self.policy.disclosure_threshold, 2)
                        if sayable(f) and f not in near)
        if near:
            return self._prefer_new(near, used)[:2]
        if concept_id is not None and lexicon.get(concept_id).kind not in CLOSED_WORLD_KINDS:
            # a history concept asked by name and read only off a clinician's line about something else ("protective
            # factors are her sons" in the risk formulation, for "Who depends on you?") is not told by voicing that
            # line's own finding ("I think I'd be better off dead"): the line says the finding, not the concept
            return []
        # the anchor said in lay words (the symptoms it names): a voiced line, or a line of the presenting
        # illness only a clinician would word so ("The referral is about poor concentration"), never denied
        return [a for a in anchors if (a.section in voiced or a.section in _PRESENTATION_SECTIONS)
                and a.id not in used][:1]

    def _untold_symptoms(self, topic_id: str, used: set[str]) -> list[IndexedFact]:
        """Facts on the topic the patient has no words for, stating a symptom of theirs (said as the symptom):
        only what the clinician wrote of the patient's experience (voiced sections: thought content, perception,
        risk), never a sign only an examiner sees ('loosening of associations' is no 'my words get jumbled')."""
        lexicon = self.index.lexicon
        return [f for f in self.index.by_topic.get(topic_id, ()) if not f.tellable and f.present
                and f.section in self._taxonomy.voiced_sections and f.id not in used
                and any(lexicon.get(c).kind == "symptom" for c in f.affirms)]

    def _answer_concept(self, concept_id: str, about_other: bool, used: set[str]) -> AnswerItem | None:
        index = self.index
        concept = index.lexicon.get(concept_id)
        limit = self.policy.facts_per_concept
        if about_other:
            facts = [f for f in index.about_other.get(concept_id, ()) if f.tellable]
            if facts:
                return AnswerItem(
                    AFFIRM, concept_id, tuple(self._prefer_new(facts, used)[:limit]), about_other=True
                )
            return AnswerItem(UNKNOWN, concept_id, about_other=True)
        facts = [f for f in index.affirming.get(concept_id, ()) if f.tellable]
        if not facts and concept_id in load_recall_rules().told_by_narrower:
            # a narrower finding the record states answers the broader question (``implies`` of the lexicon):
            # "Do you use any drugs?" is told the heroin, "Any trouble sleeping?" the waking at four
            facts = [f for c in _narrower(concept_id) for f in index.affirming.get(c, ()) if f.tellable]
        if not facts and concept_id in self._concept_sections:
            facts = [f for f in index.section_facts(self._concept_sections[concept_id]) if f.tellable]
        own = load_recall_rules().deciding_sections.get(concept.domain)
        if facts and own and not any(f.section in own for f in facts):
            # the section written for the subject rules it out and none of its sentences states it: a reading of
            # another section ("snorts like a horse" of the sleep, "drug paraphernalia" in a tenant's flat) is no
            # affirmation, and the patient does not say "Yeah" beside "I don't use any drugs" (hw-019, uw-012)
            # the section's denial of the broader finding too ("No drugs." rules out the stimulant read elsewhere)
            broader = [b for a, b in lexicon_relations("implies") if a == concept_id]
            denied = [f for c in (concept_id, *broader) for f in index.ruling_out.get(c, ())
                      if f.tellable and f.section in own]
            if denied:
                return AnswerItem(DENY, concept_id, tuple(denied[:1]))
        if facts:
            # the same thing said of an earlier time is not said beside it now (uw-034's knife: "Back in March, I slept
            # with a kitchen knife under the pillow." before "I still keep a kitchen knife under the pillow ...", which
            # left out the tablets in the motorbike box, stop 62)
            now = [f for f in facts if f.fact.time != "past"]
            facts = [f for f in facts if f.fact.time != "past" or not any(len(f.content & g.content) >= 3 for g in now)]
            return AnswerItem(AFFIRM, concept_id, tuple(self._prefer_new(facts, used)[:limit]))
        if concept_id == _PROTECTIVE:
            # "What keeps you going?": the clinician's list in their words ("My children and my wife."), else
            # the people and faith of their history, else honestly not known (never the attempt again)
            if self._protective_lists:
                return AnswerItem(AFFIRM, concept_id, self._protective_lists[:1])
            kin = self._prefer_new(list(self._kin), used)[:limit]
            return AnswerItem(AFFIRM, concept_id, tuple(kin)) if kin else AnswerItem(UNKNOWN, concept_id)
        if concept_id in _told_by_act() and concept_id in self._affirmed_now:
            # a risk the record states of the patient now (a plan, a rehearsal, the gun held, in the clinician's lines
            # only) beside an earlier screen that denied it ("Denies plan, intent, preparatory acts"): asked directly,
            # the patient tells it in their own words, or keeps it back; never the denial the record contradicts
            told = self._disclosure(index.affirming.get(concept_id, ()), used, concept_id=concept_id)
            if told:
                return AnswerItem(AFFIRM, concept_id, tuple(told[:limit]))
            return AnswerItem(WITHHELD, concept_id, (), True)
        negatives = [f for f in index.ruling_out.get(concept_id, ()) or index.denied_by_meaning.get(concept_id, ())
                     if f.tellable]
        if negatives and self._stated_after(concept_id, negatives):
            # an earlier screen's denial ("Denies suicidal ideation" at the GP in October) and, later in the record, the
            # finding stated of the patient now in the clinician's lines only ("since the bike crash he has thought
            # 'it'd be easier all round if I went where Trev is'"): asked directly, the patient tells it in their own
            # words or keeps it back (below), never the denial the later account contradicts (uw-021)
            negatives = []
        if negatives and (act := self._act_over_denial(concept_id, used)) is not None:
            return act
        if negatives:
            # a denial that also denies another finding the patient told or the record states of them after it ("Have
            # you ever hurt yourself on purpose?" of a chart line "No suicidal ideation or self-harm" with the suicidal
            # thoughts told: "No." and never "I haven't had any thoughts of ending my life", uw-032)
            negatives = [f for f in negatives if not self._denies_what_is_told(f, concept_id)]
            return AnswerItem(DENY, concept_id, tuple(negatives[:1]))
        if concept_id == _MEANS and concept_id in index.closed_concepts and concept_id not in self._affirmed_anywhere and self._means_asked:
            # "Do you have access to anything you could use?" of a record whose suicide risk assessment names no
            # means (closed world, data/recall.json): no, said in words (the medicines they take, when there are
            # some, answer it instead), never "I really don't know"; a record with no risk assessment is an open world
            return AnswerItem(DENY, concept_id)
        if concept_id in _HARM_PAST and self._affirmed_anywhere & _HARM_DONE:
            # "Have you ever hurt yourself?" of a record with cutting or overdoses the lexicon files as self-harm:
            # those facts, never the closed world's "I've never hurt myself"
            # (an attempt only from an attempt: cutting is no "tried to end my life", the topic's facts answer then)
            harm = [f for c in sorted(_HARM_DONE if concept_id != _ATTEMPT else {_ATTEMPT})
                    for f in index.affirming.get(c, ()) if f.tellable]
            harm = self._prefer_new(list({f.id: f for f in harm}.values()), used)[:limit]
            if harm:
                return AnswerItem(AFFIRM, concept_id, tuple(harm))
            return AnswerItem(UNKNOWN, concept_id)
        if concept_id in self._affirmed_anywhere:
            # stated only where the patient cannot say it as written (the clinician's thought content, a
            # sentence too long to say): asked by name, they tell it in their own words, never deny it
            told = self._disclosure(index.affirming.get(concept_id, ()), used, concept_id=concept_id)
            if told:
                return AnswerItem(AFFIRM, concept_id, tuple(told[:limit]))
            # an examiner's observation only: the patient does not describe it unprompted
            return AnswerItem(UNKNOWN, concept_id)
        if concept_id == _MEANS:
            # the means read off a question that does not ask the means at hand ("Margaret found you with a rope.
            # Tell me about that."): the topic's facts answer it, never a closed-world "No"
            return AnswerItem(UNKNOWN, concept_id)
        if concept_id in index.implied:
            # the record implies it and states it nowhere (data/implied.json): what implies it, a hedge, or kept back
            return self._implied_answer(concept_id, used)
        if concept.kind in CLOSED_WORLD_KINDS or concept_id in index.closed_concepts:
            return AnswerItem(DENY, concept_id)
        return AnswerItem(UNKNOWN, concept_id)

    def _affirmed_so_far(self, items: Sequence[AnswerItem]) -> set[str]:
        """The concepts the patient affirms in this reply's ``items`` or affirmed earlier in the encounter: what a
        sentence of the reply must not contradict."""
        told = {i.subject for i in items if i.stance == AFFIRM and i.facts and not i.silent}
        return told | {c for c, stance in self.state.stances.items() if stance == AFFIRM}

    def _denies_by_its_words(self, fact: IndexedFact, question: Question, contradicted: set[str]) -> bool:
        """Whether a sentence chosen for the words it shares with ``question`` is close to it by the words of a concept
        it rules out that the patient affirms (``contradicted``): then it is that denial the patient would say ("Have
        you ever tried to end your life?" - "I haven't had any thoughts of ending my life.", after the thoughts were
        told, uw-021). A list of denials close by the words of another of its items still answers: "Do things on TV
        ... carry special messages for you?" - "No belief of being followed, monitored, of special messages, TV or
        radio ..." after being watched at the till was told (uw-016, review s48 MUST 8)."""
        if not contradicted:
            return False
        said = f"{fact.fact.text} {fact.fact.patient_says or ''}"  # the chart's words and the patient's for them
        shared = set(content_stems(question.text)) & set(content_stems(said))
        return any(shared & _concept_stems(self.index.lexicon, c) for c in contradicted)

    def _denies_what_is_told(self, fact: IndexedFact, concept_id: str) -> bool:
        """Whether a sentence denying ``concept_id`` denies another finding too that the patient affirmed in this
        encounter or the record states of them now after it (:meth:`_stated_after`): a risk finding (suicide,
        self-harm). A list of other denials still answers where one of its items is stated after it (uw-023's 'no
        nightmares, flashbacks or avoidance' to how often the memories come back)."""
        told = self._affirmed_so_far(())
        return any(c in told or self._stated_after(c, (fact,)) for c in fact.rules_out - {concept_id}
                   if set(finding_topics(c, self.index.lexicon)) & _RISK_TOPICS)

    def _stated_after(self, concept_id: str, denials: Sequence[IndexedFact]) -> bool:
        """Whether the record states ``concept_id`` of the patient now (present, not past, not a relative's, not a
        clinician's question) in a sentence written after every one of ``denials``: the later account outranks the
        earlier screen. A denial written after the finding ("wished he were dead last spring ... currently denies
        suicidal ideation") stands."""
        last = max(f.position for f in denials)
        return any(
            f.position > last and f.present and f.fact.time != "past" and f.section != FAMILY_SECTION
            and not f.id.startswith(SILENT)
            for f in self.index.affirming.get(concept_id, ())
        )

    def _act_over_denial(self, concept_id: str, used: set[str]) -> AnswerItem | None:
        """"Have you ever tried to end your life?" of a record whose earlier screen says "no attempts" and which states,
        of the patient now, an act short of an attempt (the gun held, a rehearsal, an aborted attempt:
        :func:`_outranks_denial`): the patient's account of the act, told or kept back, never the denial the later act
        contradicts. None when the record states no such act (a plan only thought of leaves the denial standing)."""
        denial, act, _, _ = _outranks_denial()
        if concept_id != denial or act not in self._affirmed_now:
            return None
        scoped = _outranks_denial()[3]
        if self._acted_now() and scoped is not None and any(
                scoped.search(f.fact.text) for f in self.index.ruling_out.get(concept_id, ()) if f.tellable):
            # the act in the patient's own words and a denial of attempts before it ("Tonight I walked to the footbridge
            # intending to jump. I haven't had any previous suicide attempts."): both stand (plan's own path)
            return None
        acts = [f for f in self.index.affirming.get(act, ()) if f.present and f.fact.time != "past"
                and f.section != FAMILY_SECTION and not f.id.startswith(SILENT) and _states_act(f.fact.text)]
        if not acts:
            return None
        limit = self.policy.facts_per_concept
        own = [f for f in acts if f.tellable]
        told = self._prefer_new(own, used) if own else self._disclosure(acts, used, concept_id=act)
        if told:
            return AnswerItem(TELL, act, tuple(told[:limit]))
        return AnswerItem(WITHHELD, concept_id, (), True)

    def _implied_answer(self, concept_id: str, used: set[str], subject: str | None = None) -> AnswerItem:
        """The answer to a finding the record implies but does not state (:attr:`FactIndex.implied`), where the closed
        world would have said "no": what the patient said that implies it ("Have you thought of ending your life?" of
        a man who took an overdose: the overdose), else, implied only by a test or the plan, a hedge
        ("I'm not sure"), or, for a sensitive finding, the patient keeps it to themselves. Never a flat denial."""
        index = self.index
        # what implies it, or, a finding the record states (:attr:`FactIndex.implied_by_topic`), its own sentences
        sources = index.implied.get(concept_id) or (frozenset({concept_id}) if concept_id in index.affirming else frozenset())
        facts = [f for c in sorted(sources) for f in index.affirming.get(c, ())
                 if f.tellable and f.present and f.section != FAMILY_SECTION]
        facts = self._prefer_new(list({f.id: f for f in facts}.values()), used)[: self.policy.facts_per_concept]
        subject = subject or concept_id
        if facts:
            return AnswerItem(AFFIRM if subject == concept_id else TELL, subject, tuple(facts))
        if index.lexicon.get(concept_id).sensitive:
            return AnswerItem(WITHHELD, subject, (), True)
        return AnswerItem(UNKNOWN, subject)

    def _implied_on(self, topic_id: str) -> str | None:
        """A finding of this topic the record implies without stating it (:attr:`FactIndex.implied`), if any."""
        return self.index.implied_by_topic.get(topic_id)

    def _topic_facts(
        self,
        topic_id: str,
        asked: set[str],
        used: set[str],
        limit: int,
        relative: str | None = None,
        timing: bool = False,
        amount: bool = False,
        when: bool = False,
    ) -> list[IndexedFact]:
        """The told facts of a topic (for "how long?" and "how much?" those that say first), those that answer more of what was asked first, then the untold
        before the told, then the most to the point (fewest other topics), in record order."""
        facts = [f for f in self.index.by_topic.get(topic_id, ()) if f.tellable and f.id not in used]
        by_others = False  # told from the facts of other topics (answered_by)
        # a person's stock answer for a subject the record is silent on ("Just the usual, getting through the day")
        # is said only when what answers it in other topics is silent too ("What do you do with your days?" - the
        # part-time job at the charity shop the record files under work)
        defaults = [f for f in facts if f.id.startswith(SILENT)]
        if defaults and len(defaults) == len(facts) and not any(
                f.tellable and not f.id.startswith(SILENT) for f in self.index.by_topic.get(topic_id, ())):
            facts = []
        if not facts and not any(f.tellable and not f.id.startswith(SILENT) for f in self.index.by_topic.get(topic_id, ())):
            by_others = True
            # no sentence of its own ("Who do you live with?" and only "Married 20 yrs, 2 children"):
            # the facts of the topics that answer it (data/recall.json answered_by), present and current
            by, sections, presentation, wh_only = self._answered_by.get(topic_id, ((), (), False, False))
            if wh_only and not self._asked_what:
                by, sections = (), ()
            facts = [f for f in [*(f for t in by for f in self.index.by_topic.get(t, ())), *self.index.section_facts(sections)]
                     if f.tellable and f.present and f.fact.time != "past" and f.id not in used
                     and not f.id.startswith(SILENT) and f.section != FAMILY_SECTION
                     and (f.section in _PRESENTATION_SECTIONS if presentation else f.section in _CIRCUMSTANCE_SECTIONS)
                     and not f.section.startswith(_EXAMINER_SECTIONS)]
            facts = list({f.id: f for f in facts}.values())
            if presentation:
                happens = [f for f in facts if self._says_what_happens(f, by)]
                # what brought them may still be how they came ("My GP sent me"); a worry or a day may not
                facts = happens or (facts if topic_id == "chief_complaint" else [])
            facts = facts or defaults
        if topic_id == "chief_complaint" and not by_others and any(map(_how_they_came, facts)) \
                and not all(map(_how_they_came, facts)):
            # a referral that says both how they came and what is happening ("Referred to early intervention by the
            # university GP: 'seeing figures in his room ...'", its quote a sentence of its own once the shorthand
            # after it is written out): what brings them is what is happening, not the route
            facts = [f for f in facts if not _how_they_came(f)]
        if topic_id == "chief_complaint" and facts and not by_others and all(map(_how_they_came, facts)):
            # the referral's line says only how they came ("medically fit after acetylcysteine", "Referred to early
            # intervention in psychosis by the university GP"): what is happening to them, from the presenting
            # illness, comes first
            sections = self._answered_by.get(topic_id, ((), (), False, False))[1]
            facts = [f for f in self.index.section_facts(sections)
                     if f.tellable and f.present and f.fact.time != "past" and f.id not in used
                     and not f.id.startswith(SILENT) and self._says_what_happens(f, ())] + facts
        if topic_id != "family_history":
            facts = [f for f in facts if f.section != FAMILY_SECTION]
        elif relative is not None:
            mine = [f for f in facts if f.fact.relative == relative]
            facts = mine or facts
        if not facts:
            return []
        disclosed = self.state.disclosed
        topic = self._taxonomy.by_id[topic_id]
        if topic_id == "trigger" and "precipitant" in self._facets:
            # what brought this illness on is not an episode of the past ("no previous episodes like this,
            # including after a hysterectomy") nor a relative's history
            facts = [f for f in facts if f.section not in _PAST_SECTIONS]
            # and told from the presenting illness when it says it (a partner's text on Friday evening), not
            # beside a move in childhood
            facts = [f for f in facts if f.section in _PRESENTATION_SECTIONS] or facts
            # and when one says what happened, that one: not the wish to die of the night after it (hw-014)
            facts = [f for f in facts if self._says_facet(f)] or facts
            # what happened before what sets it off each time (the crash, not "set off by sirens")
            cue = load_recall_rules().facets.get("cue")
            facts = sorted(facts, key=lambda f: bool(cue and cue[1].search(f.fact.text)))
            if not facts:
                return []
        if topic_id == _LIVING and self._asks_home_now and any(_says_home(f) for f in facts):
            # "Who do you live with?": the sentences that say who is at home, not one filed under the subject for
            # a word ("My parents live an hour away", "If I'd braked sooner he might have lived")
            facts = [f for f in facts if _says_home(f)]
        if topic_id in _NOW_TOPICS and any(f.section in topic.sections for f in facts):
            # "What medicines are you on at the moment?" is not told the antidepressant of an episode at 22
            facts = [f for f in facts if f.section not in _PAST_SECTIONS] or facts
        home = self._taxonomy.home_sections.get(topic.kind, ())
        history = topic.kind in ("history", "substance")
        query = self._query
        facts.sort(
            key=lambda f: (
                timing and self.index.durations.get(f.id) is None,  # "how long?": the facts that say,
                # of those, one that says it of the thing asked ("How long does the relief last after a negative
                # result?" - "relief for about an afternoon", not the illness's "eleven tests in eighteen months")
                timing and bool(self._anchors_asked) and not self.index.anchors(self._anchors_asked, f),
                timing and f.id not in disclosed,  # those just spoken of first
                # a sentence the record gives the patient no words for (a risk assessment's "Safeguarding: ...
                # while she is drinking (16 units of vodka a day)") comes after one the patient can say: its amount
                # is the clinician's, and "How much alcohol do you drink?" was answered "I really don't know"
                # beside the substance history's own line (test-v2-0023)
                amount and not (f.fact.patient_says or "").strip(),
                amount and self.index.amounts.get(f.id) is None,  # "how much?", "how often?": the facts that say
                # the part of the subject asked ("facets": "When did you last drink?" - the last drink)
                self._asks_facet(history) and not self._says_facet(f, history),
                # what brought them is what is happening to them, not how they came (see above)
                topic_id == "chief_complaint" and _how_they_came(f) and not self.index.anchors(self._anchors_asked, f),
                # "Was anything going on in your life around the time it started?": what brought this illness
                # on is told from its own history first
                topic_id == "trigger" and f.section not in home,
                # a sentence that says the subject in its own words before one filed under it for a neighbouring
                # word, wherever each is written ("What's worrying you most?" - "I'm worried about who will look
                # after my mother", not "I've felt wound up like a spring"; "Do you gamble?" - "betting on football
                # and online slots", not the drink section's "20-25 units a week, more on betting nights";
                # data/recall.json topic_said)
                topic_id in self._said_topics and topic_id not in f.said,
                f.section not in topic.sections,
                not f.present,
                # the referral's one-line summary is what the patient came about, said at the start; a
                # sentence of the history says more of any other topic ("What time do you go to bed?")
                f.section == "chief_complaint" and topic_id not in ("chief_complaint", *_FRAME_TOPICS),
                # "When did you retire?": of the subject's own sentences, one that says a time ("until 65"),
                # though past
                when and not self.index.timed[f.id],
                topic_id in _NOW_TOPICS and f.fact.time == "past",
                # "What medicines do you take at the moment?": "I take folic acid, allopurinol ..." before "I used to
                # take thiamine" (every sentence of the patient's own words says it is over, data/recall.json said_ended)
                topic_id in _NOW_TOPICS and _says_only_ended(f.fact.patient_says or ""),
                history and f.section not in home,
                # a sentence that shares a rare word with the question answers it before the subject's others
                # ("Has that done anything to your skin?" - "... until the skin cracks", not the thoughts again)
                not self.index.anchors(self._anchors_asked, f),
                -len(asked.intersection(f.topics)),
                # of the subject's sentences, one in the question's own words first: "Is this stopping you
                # working?" is "it stops me working more than a few hours a day", not "I take on freelance work"
                not self._in_its_words(f),
                # "What's been on your mind?" told from the history: what troubles them (a symptom or
                # belief it states) before the clerking's circumstances
                by_others and topic.kind == "symptom"
                and not any(self.index.lexicon.get(c).kind in CLOSED_WORLD_KINDS for c in f.affirms),
                f.id in disclosed,
                f.section not in home,
                len(f.topics) > 3,
                f.position,
            )
        )
        def now(f: IndexedFact) -> bool:
            return f.section not in _PAST_SECTIONS and f.fact.relative is None

        if topic.kind != "history" and topic_id not in load_recall_rules().lifetime_topics and any(map(now, facts)):
            # a symptom's answer goes on with the same thing, now and about the patient: what is happening
            # ("I've spent about £8,000 on a van") is not followed by the psychiatric history ("and I've had
            # three admissions") or a relative's ("My mother drank heavily") that the question did not ask;
            # the risk history goes on from the present (data/recall.json lifetime_topics)
            facts = [f for f in facts if now(f) or set(f.topics) & asked - {topic_id}]
        return facts[:limit]

    def _says_what_happens(self, fact: IndexedFact, topics: Sequence[str]) -> bool:
        """Whether a sentence of the presenting illness tells what is happening to the person (a symptom,
        or one of ``topics``: work, school, a day), not how they came ("Admission clerking, older adult
        ward", "Admitted from the paediatric ward after she fainted at school", "My GP referred me")."""
        own = set(fact.topics)
        if "admissions" in own:
            return False
        if own & set(topics):
            return True
        lexicon = self.index.lexicon
        return any(self._taxonomy.kind(t) == "symptom" for t in own if t in self._taxonomy.by_id) or any(
            lexicon.get(c).kind in CLOSED_WORLD_KINDS for c in fact.affirms)

    def _voiced_facts(self, topic_id: str, used: set[str]) -> list[IndexedFact]:
        """What only the clinician wrote down on a symptom topic (thought content, perception, risk) that
        the patient can still say in their own words: facts stating a symptom concept."""
        lexicon = self.index.lexicon
        return [
            f
            for f in self.index.by_topic.get(topic_id, ())
            if not f.tellable
            and f.section in self._taxonomy.voiced_sections
            and f.id not in used
            and any(lexicon.get(c).kind in CLOSED_WORLD_KINDS for c in f.affirms | f.rules_out)
        ][:1]

    def _prefer_new(self, facts: Sequence[IndexedFact], used: set[str]) -> list[IndexedFact]:
        fresh = [f for f in facts if f.id not in self.state.disclosed and f.id not in used]
        told = [f for f in facts if f.id in self.state.disclosed and f.id not in used]
        if len(told) > 1 and self._query:
            # all told already: the one closest in words to what is asked now ("Do you count calories?" is
            # "I count every calorie", not the complaint's "weight loss and restrictive eating" again)
            told.sort(key=lambda f: -cosine(self._query, f.vector))
        return fresh + told

    # -- recording --------------------------------------------------------------------------------

    def commit(self, plan: AnswerPlan, told: Iterable[str] | None = None) -> None:
        """Record a reply: the facts it disclosed (``told``, default every fact of the plan) and stances."""
        for fid in plan.fact_ids if told is None else told:
            self.state.disclosed.setdefault(fid, None)
        for item in plan.items:
            if item.subject in self.index.lexicon and item.stance in (AFFIRM, DENY, UNKNOWN):
                self.state.stances.setdefault(item.subject, item.stance)
        if plan.question.key and plan.refusal is None:
            self.state.answers[plan.question.key] = plan
        content = tuple(t for t in plan.question.topics if t not in _FRAME_TOPICS and t in self._taxonomy.by_id
                        and self._taxonomy.kind(t) != "meta")
        if not content:
            # a question with no subject of its own answered with a sentence found by its words ("What are you
            # using at the moment?" - the heroin): what that sentence is about is what "How much a day?" asks next
            content = tuple(dict.fromkeys(
                t for i in plan.items if i.subject == "similar" and not i.silent for f in i.facts for t in f.topics
                if t not in _FRAME_TOPICS and t in self._taxonomy.by_id and self._taxonomy.kind(t) != "meta"))[:1]
            # (its first subject only: the heroin's, not a smoking word the sentence was also filed under)
        if content:
            self.state.topics = content


