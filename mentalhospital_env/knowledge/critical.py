"""Critical actions and contraindications: what a safe plan must and must not contain (``data/critical_actions.json``).

:func:`load_critical_actions` reads and validates the file against the rest of the knowledge base (every drug
a known drug, every class held by some drug, every rule naming known actions, every pattern compiling) and
returns a :class:`CriticalActions`:

* :meth:`CriticalActions.proposed` - the actions a plan proposes (an action under a refusal cue, "avoid
  benzodiazepines", is not proposed), by any of its equivalents: drugs by name or synonym, drug classes,
  phrases, patterns.
* :meth:`CriticalActions.profile` - what the rules read of a case: reference codes, setting, age, sex,
  pregnancy, suicide risk in the record, current medications, dependants at home.
* :meth:`CriticalActions.requirements` - for a profile (and a plan, for rules about the drugs a plan proposes),
  the actions required and the actions forbidden, each with the rule that asks for it.
* :meth:`CriticalActions.check` - a plan held against those: which required actions are missing, which
  forbidden ones it proposes, and which elements belong to a disorder the case does not have (``disorder_specific``:
  an eating-disorder service for a depressed patient is an incoherent plan; family-based treatment, made for
  adolescents, for an adult is misplaced too).
* the record's text is read by ``record_signs`` (phrases, not negated, not beside an exclusion): a child's
  criminal or sexual exploitation, online extortion, abuse, going missing, a weapon carried, a self-poisoning,
  past withdrawal seizures; :meth:`CriticalActions.signs` gives a profile's ``signs`` for the rules'
  ``record_signs`` condition (the scripted clinician reads the same phrases in what it heard).
* exam results on file are read by ``exam_findings`` (measures read by pattern, findings by a published
  threshold each): :meth:`CriticalActions.abnormal_findings` gives a profile's ``findings`` (a pulse below 40,
  a postural fall in systolic pressure, glucose below 3.0 mmol/L ...) for the rules' ``exam_findings``
  condition (an eating disorder with such a result needs medical admission; hypoglycaemia needs treating).

Facts and doses only; nothing here is diagnostic-criteria text.
"""

from __future__ import annotations

import json
from . import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, wraps
from importlib import resources
from typing import Any, Callable, TypeVar

from .codes import is_icd10cm_code, normalize_code
from .errors import KnowledgeError
from .language import (
    PhraseIndex,
    _phrase_index,
    colon_breaks,
    is_negated,
    comma_breaks,
    find_phrases,
    memo_size,
    memos_enabled,
    negated_spans_in,
    register_memo,
    sentence_breaks,
    stem,
    tokenize,
)

FILE = "critical_actions.json"
_T = TypeVar("_T")
#: a sentence's end for ``CriticalAction.pattern_unless`` (not a decimal point)
_PATTERN_SENTENCE = re.compile(r"(?<!\d)\.(?!\d)|[;!?\n]")
_CONNECTIVES = frozenset({"and", "or", "nor", "any", "other", "also", "either", "the", "a", "an"})


@dataclass(frozen=True)
class CriticalAction:
    """One action of the vocabulary and every way a plan may say it."""

    id: str
    label: str
    drugs: frozenset[str]
    phrases: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...]
    say: str | None = None
    #: a pattern's match does not count in a sentence negated up to the match ("advise her not to continue St
    #: John's wort") or holding one of these words ("avoid", "unsafe"); only for actions that set ``pattern_unless``
    pattern_unless: re.Pattern[str] | None = None
    #: the highest App. a plan that lacks this action where a rule requires it (``must``) may get, where that is not
    #: the judge's 2 (``missing_cap`` of critical_actions.json: a safeguarding screen, 3, stop 54)
    missing_cap: float | None = None
    #: words that make this action's mention a deferral or an option, not the step done now, said earlier in its
    #: sentence or after it in its clause ('Consider safeguarding.', 'Safeguarding to be discussed at next visit'):
    #: such a mention does not meet a rule that requires the action (``not_now_cues`` of the action, stop 54)
    not_now: tuple[str, ...] = ()


@dataclass(frozen=True)
class Forbidden:
    """An action a rule forbids, with why; lifted when the plan also holds one of ``unless`` or the case has one
    of ``unless_codes``. ``cap`` is the highest App. a plan holding it may get: 1 for a harm (a contraindicated
    drug), 2 for an over-treatment (a wrong treatment: an antipsychotic for panic)."""

    action: str
    reason: str
    unless: tuple[str, ...] = ()
    unless_codes: tuple[str, ...] = ()
    cap: int = 1


@dataclass(frozen=True)
class RiskSign:
    """A risk read from the record: a fact stating one of ``concepts`` (not negated) shows it, unless the fact
    holds one of ``unless_phrases`` and none of the ``always`` concepts (passive death wishes are not active
    suicidal ideation; a plan or self-harm always is)."""

    concepts: frozenset[str]
    unless_phrases: tuple[tuple[str, ...], ...] = ()
    always: frozenset[str] = frozenset()
    # not shown when every fact showing it states only ``not_from`` concepts (self-injury), one of them in one of
    # ``not_from_contexts`` (head-hitting in meltdowns), and the record's suicide risk denies ``not_from_denied``
    not_from: frozenset[str] = frozenset()
    not_from_contexts: tuple[tuple[str, ...], ...] = ()
    not_from_denied: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RecordSign:
    """A fact of the record that changes the plan (a child being exploited, a self-poisoning today): a sentence
    holding one of ``phrases`` (stemmed) not negated there, or matching one of ``patterns`` with no negation in
    it ("took 14 ibuprofen tablets"), and none of ``unless`` in the sentence."""

    id: str
    phrases: tuple[tuple[str, ...], ...]
    unless: tuple[tuple[str, ...], ...] = ()
    patterns: tuple[re.Pattern[str], ...] = ()


@dataclass(frozen=True)
class Rule:
    """When (every condition given holds; lists are any-of) which actions are required and which forbidden."""

    id: str
    about: str
    codes: tuple[str, ...] = ()
    principal: bool | None = None  # true: ``codes`` must match the principal (first) reference code, not a comorbid one
    # false: ``codes`` must match a comorbid reference code and not the principal (a plan for the principal disorder
    # is read by its guideline; the rule asks what a plan for another disorder leaves untreated)
    settings: tuple[str, ...] = ()
    min_age: int | None = None
    max_age: int | None = None
    sex: tuple[str, ...] = ()
    pregnant: bool | None = None
    risk: tuple[str, ...] = ()
    plan_proposes: tuple[str, ...] = ()
    record_medications: tuple[str, ...] = ()
    record_mentions_dependants: bool | None = None
    hepatic_impairment: bool | None = None
    exam_findings: tuple[str, ...] = ()
    record_signs: tuple[str, ...] = ()
    must: tuple[str, ...] = ()
    should: tuple[str, ...] = ()
    core: tuple[str, ...] = ()
    may: tuple[str, ...] = ()  # what a plan may carry for the disorder: a drug that realises one serves the case
    must_not: tuple[Forbidden, ...] = ()


@dataclass(frozen=True)
class Profile:
    """What the rules read of a patient."""

    codes: tuple[str, ...]
    setting: str | None = None
    age: int | None = None
    sex: str | None = None
    pregnant: bool = False
    risks: frozenset[str] = frozenset()
    medications: str = ""
    dependants: bool = False
    hepatic: bool = False
    findings: frozenset[str] = frozenset()
    signs: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Requirement:
    rule: str
    action: str
    label: str


@dataclass(frozen=True)
class Contraindication:
    rule: str
    action: str
    label: str
    reason: str
    cap: int = 1


def _within_ages(age: int, min_age: int | None, max_age: int | None) -> bool:
    """Whether ``age`` lies in the inclusive bounds ``min_age`` .. ``max_age`` (either may be open)."""
    return (min_age is None or age >= min_age) and (max_age is None or age <= max_age)


@dataclass(frozen=True)
class DisorderElement:
    """A plan element that belongs to disorders of ``codes`` (families by prefix) and to ages ``min_age`` ..
    ``max_age``; proposed for a case with none of the codes, or for a patient outside the ages, it treats an
    illness the patient does not have or a patient it was not made for."""

    action: str
    codes: tuple[str, ...]
    reason: str
    min_age: int | None = None
    max_age: int | None = None
    unless_pregnant: bool = False
    unless_signs: tuple[str, ...] = ()

    def wrong_age(self, age: int | None) -> bool:
        return age is not None and not _within_ages(age, self.min_age, self.max_age)

    def misplaced_for(self, profile: "Profile") -> bool:
        # a perinatal team is for a pregnant or postpartum woman, whatever her diagnosis
        if self.unless_pregnant and profile.pregnant or set(self.unless_signs) & profile.signs:
            return False
        if self.codes and not any(_code_matches(c, self.codes) for c in profile.codes):
            return True
        return self.wrong_age(profile.age)


@dataclass(frozen=True)
class Measure:
    """A number read from an exam's result: each pattern's first group (a second group, when a pattern has one,
    is subtracted from the first: a postural drop from a lying and a standing pressure)."""

    id: str
    patterns: tuple[re.Pattern[str], ...]

    def values(self, text: str) -> list[float]:
        out = []
        for pattern in self.patterns:
            for m in pattern.finditer(text or ""):
                numbers = [float(g) for g in m.groups() if g is not None]
                if numbers:
                    out.append(numbers[0] - numbers[1] if len(numbers) > 1 else numbers[0])
        return out


@dataclass(frozen=True)
class ExamFinding:
    """An abnormal result: a value of ``measure`` below ``below`` or above ``above`` (a published threshold,
    ``source``)."""

    id: str
    label: str
    measure: str
    below: float | None = None
    above: float | None = None
    source: str = ""

    def shown_by(self, values: Iterable[float]) -> bool:
        return any(
            (self.below is not None and v < self.below) or (self.above is not None and v > self.above) for v in values
        )


@dataclass(frozen=True)
class DoseLimit:
    """The most of ``drug`` a day for patients aged ``min_age`` .. ``max_age`` (a published limit, ``source``): a
    plan that names a higher dose (the highest milligram figure of the sentence after the drug's name) proposes
    a harmful dose (fluoxetine 60 mg for a child, citalopram 40 mg over 65)."""

    drug: str
    max_mg: float
    reason: str
    source: str
    min_age: int | None = None
    max_age: int | None = None

    def applies(self, age: int | None) -> bool:
        return age is not None and _within_ages(age, self.min_age, self.max_age)


@dataclass(frozen=True)
class Misplaced:
    """An element of the plan for a disorder the case does not have."""

    action: str
    label: str
    reason: str


@dataclass(frozen=True)
class SafetyCheck:
    """A plan held against a case's rules."""

    required: tuple[Requirement, ...]
    missing: tuple[Requirement, ...]
    contraindicated: tuple[Contraindication, ...]
    proposed: frozenset[str]
    misplaced: tuple[Misplaced, ...] = ()
    advised: tuple[Requirement, ...] = ()
    advised_missing: tuple[Requirement, ...] = ()
    core: tuple[Requirement, ...] = ()
    core_missing: tuple[Requirement, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "required": sorted({r.action for r in self.required}),
            "missing": sorted({r.action for r in self.missing}),
            "missing_labels": sorted({r.label for r in self.missing}),
            "contraindicated": sorted({c.action for c in self.contraindicated}),
            "contraindication_reasons": sorted({c.reason for c in self.contraindicated}),
            "misplaced": sorted({m.action for m in self.misplaced}),
            "advised_missing": sorted({r.action for r in self.advised_missing}),
            "core_missing": sorted({r.action for r in self.core_missing}),
        }


def _code_matches(code: str, prefixes: Iterable[str]) -> bool:
    """Whether ``code`` is one of ``prefixes`` or starts with one (one ``startswith`` of them all: the rules' code
    lists are read for every rule at every check of a plan)."""
    return code.startswith(prefixes if type(prefixes) is tuple else tuple(prefixes))


def _per_text(method: Callable[[Any, str], _T]) -> Callable[[Any, str], _T]:
    """A :class:`CriticalActions` method of one text, remembered per instance (bounded; the same text is read by
    every draft of a suite and by every check of a plan; :func:`~.language.clear_caches` forgets it)."""

    @wraps(method)
    def read(self: Any, text: str) -> _T:
        if not memos_enabled():
            return method(self, text)
        memo = self._text_memos.get(method.__name__)
        if memo is None:
            memo = self._text_memos[method.__name__] = lru_cache(maxsize=memo_size(8192))(method.__get__(self))
        return memo(text)

    return read


@lru_cache(maxsize=memo_size(8192))
def _stems(text: str) -> tuple[str, ...]:
    """The stems of a text's tokens (remembered: a record's facts are read by every profile of it)."""
    return tuple(stem(t) for t in tokenize(text))


def _cue_index(cues: tuple[tuple[str, ...], ...]) -> tuple[PhraseIndex, bool]:
    """The cues by their first word, as (cue, length) (the language room's phrase index, built once per list), and
    whether one is empty. :meth:`CriticalActions._has` tried every cue of a list at every call (half a million set
    tests in 100 generated cases), where a word opens only a few."""
    return _phrase_index(cues), () in cues


def _longest_first(cues: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The stemmed cues, each once, longest first (the order the language room's :func:`find_phrases` tries them in)."""
    return tuple(sorted(dict.fromkeys(c for c in (_stems(w) for w in cues) if c), key=len, reverse=True))


CHECKS_KEPT = 256
"""How many (profile, plan) checks :meth:`CriticalActions.check` remembers."""


_LIST_JOINS = frozenset({"and", "or", "nor"})  # the word before a list's last item


class CriticalActions:
    """The validated vocabulary and rules (see the module docstring)."""

    def __init__(
        self,
        actions: Mapping[str, CriticalAction],
        rules: Sequence[Rule],
        refusal_cues: Sequence[str],
        refusal_after_cues: Sequence[str],
        pregnancy_cues: Sequence[str],
        dependant_cues: Sequence[str],
        dependant_exclusions: Sequence[str],
        risk_concepts: Mapping[str, RiskSign],
        drug_phrases: Mapping[str, Sequence[str]],
        hepatic_limits: Mapping[str, int] | None = None,
        hepatic_phrases: Sequence[str] = (),
        disorder_specific: Sequence[DisorderElement] = (),
        measures: Mapping[str, Measure] | None = None,
        exam_findings: Mapping[str, ExamFinding] | None = None,
        record_signs: Mapping[str, RecordSign] | None = None,
        dose_limits: Sequence[DoseLimit] = (),
        pregnancy_exclusions: Sequence[str] = (),
        not_now_cues: Sequence[str] = (),
        not_now_after_cues: Sequence[str] = (),
        refusal_exception_cues: Sequence[str] = (),
        refusal_cue_compounds: Sequence[str] = (),
        warning_cues: Sequence[str] = (),
        risk_denied_after: Sequence[str] = (),
        warning_stop_cues: Sequence[str] = (),
        risk_affirmed_after: Sequence[str] = (),
        dependant_away_cues: Sequence[str] = (),
        dependant_home_cues: Sequence[str] = (),
        dependant_other_people: Sequence[str] = (),
        dependant_minor_cues: Sequence[str] = (),
        dependant_age_patterns: Sequence[re.Pattern[str]] = (),
        dependant_grandchild_cues: Sequence[str] = (),
        not_action_phrases: Sequence[str] = (),
    ):
        self.actions = dict(actions)
        # see check: remembered per profile and plan, capped like every memo (memo_size), forgotten by clear_cache
        self._checks = lru_cache(maxsize=memo_size(CHECKS_KEPT))(self._check)
        self._text_memos: dict[str, Any] = {}  # see _per_text
        register_memo(self)
        self.dose_limits = tuple(dose_limits)
        self._drug_names = {d: tuple(drug_phrases.get(d, (d,))) for d in {x.drug for x in self.dose_limits}}
        every = sorted({n for names in drug_phrases.values() for n in names}, key=len, reverse=True)
        self._any_drug = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in every) + r")\b", re.IGNORECASE) if every else re.compile(r"(?!)")
        self.disorder_specific = tuple(disorder_specific)
        self.measures = dict(measures or {})
        self.exam_findings = dict(exam_findings or {})
        self.record_signs = dict(record_signs or {})
        self._sign_phrases: dict[str, list[tuple[str, tuple[str, ...]]]] = {}  # by first word: one look-up a word
        for sign in self.record_signs.values():
            for c in sign.phrases:
                self._sign_phrases.setdefault(c[0], []).append((sign.id, c))
        self.rules = tuple(rules)
        self.risk_concepts = dict(risk_concepts)
        index: dict[tuple[str, ...], set[str]] = {}
        for action in self.actions.values():
            phrases = list(action.phrases)
            for drug in action.drugs:
                phrases.extend(drug_phrases.get(drug, (drug,)))
            for phrase in phrases:
                key = _stems(phrase)
                if key:
                    index.setdefault(key, set()).add(action.id)
        for phrase in not_action_phrases:  # names no action: indexed with no ids, it hides the phrases inside it
            key = _stems(phrase)
            if key:
                index.setdefault(key, set())
        by_first: dict[str, list[tuple[tuple[str, ...], frozenset[str]]]] = {}
        for key, ids in index.items():
            by_first.setdefault(key[0], []).append((key, frozenset(ids)))
        for entries in by_first.values():
            entries.sort(key=lambda e: -len(e[0]))
        self._index = by_first
        self._refusal = tuple(sorted({_stems(c) for c in refusal_cues if _stems(c)}, key=len, reverse=True))
        self._refusal_after = tuple(sorted({_stems(c) for c in refusal_after_cues if _stems(c)}, key=len, reverse=True))
        # an after-cue starts where it ends within three words of the action, or, longer, right after it
        # ("haloperidol: not to be given", four words): as far as the longest after-cue reaches
        self._after_reach = max([3] + [len(c) for c in self._refusal_after])
        self._pregnancy = tuple(_stems(c) for c in pregnancy_cues if _stems(c))
        self._not_now = tuple(sorted({_stems(c) for c in not_now_cues if _stems(c)}, key=len, reverse=True))
        self._not_now_after = tuple(sorted({_stems(c) for c in not_now_after_cues if _stems(c)}, key=len, reverse=True))
        # an action's own not-now words (safeguarding's, stop 54), stemmed once: the phrase index is kept per tuple, so a
        # tuple built per call grew it over a run (tests/test_hardening_memory.py)
        self._action_not_now = {a.id: tuple(c for c in (_stems(w) for w in a.not_now) if c) for a in self.actions.values() if a.not_now}
        for cues in self._action_not_now.values():  # indexed with the rest, not at the first plan that needs it
            _cue_index(cues)
        self._exception = tuple(sorted({_stems(c) for c in refusal_exception_cues if _stems(c)}, key=len, reverse=True))
        self._risk_denied_after = tuple(sorted({_stems(c) for c in risk_denied_after if _stems(c)}, key=len, reverse=True))
        self._warning = tuple(sorted({_stems(c) for c in warning_cues if _stems(c)}, key=len, reverse=True))
        self._warning_stop = tuple(sorted({_stems(c) for c in warning_stop_cues if _stems(c)}, key=len, reverse=True))
        self._risk_affirmed = _longest_first(risk_affirmed_after)
        self._compounds = _longest_first(refusal_cue_compounds)
        self._not_pregnancy = tuple(_stems(c) for c in pregnancy_exclusions if _stems(c))
        # the lists whose spans _unplaced_dependant finds (the language room's find_phrases) are longest first, so that
        # at each word the longest cue is the one found, and indexed here, not at the first record that needs them
        self._dependants = _longest_first(dependant_cues)
        self._not_dependants = tuple(_stems(c) for c in dependant_exclusions if _stems(c))
        self._dependants_away = _longest_first(dependant_away_cues)
        self._dependants_home = tuple(_stems(c) for c in dependant_home_cues if _stems(c))
        self._other_people = _longest_first(dependant_other_people)
        self._minor_words = tuple(_stems(c) for c in dependant_minor_cues if _stems(c))
        self._age_patterns = tuple(dependant_age_patterns)
        self._grandchildren = _longest_first(dependant_grandchild_cues)
        for cues in (self._dependants, self._dependants_away, self._other_people, self._grandchildren):
            _cue_index(cues)
        self._hepatic_limits = {k.lower(): int(v) for k, v in (hepatic_limits or {}).items()}
        self._hepatic = tuple(_stems(c) for c in hepatic_phrases if _stems(c))
        names = "|".join(re.escape(k) for k in sorted(self._hepatic_limits, key=len, reverse=True)) or "(?!)"
        self._hepatic_tests = re.compile(rf"\b({names})\b\D{{0,12}}?(\d{{2,5}})", re.IGNORECASE)

    # --------------------------------------------------------------------------------- reading a plan

    def _matches(self, stemmed: tuple[str, ...]) -> list[tuple[int, int, frozenset[str]]]:
        out = []
        i, n = 0, len(stemmed)
        while i < n:
            # every phrase that fits here counts ("family presence" is delirium care and names the family too), but
            # none that a longer not-action phrase holds ("take the tablets as prescribed", "alcohol abuse"): the
            # words it covers are read as its own
            hits = [(i + len(key), found) for key, found in self._index.get(stemmed[i], ()) if stemmed[i : i + len(key)] == key]
            sunk = max((end for end, found in hits if not found), default=0)
            ends, ids = sunk, frozenset()
            for end, found in hits:
                if found and end > sunk:
                    ends, ids = max(ends, end), ids | found
            if ids:
                out.append((i, ends, ids))
            i = ends if ends else i + 1
        return out

    @staticmethod
    def _has(stemmed: Sequence[str], cues: tuple[tuple[str, ...], ...]) -> bool:
        """Whether a cue is said anywhere in ``stemmed``: at each word only the cues that open with it are tried."""
        window = tuple(stemmed)
        index, empty = _cue_index(cues)
        if empty:
            return True  # an empty cue fits anywhere
        get = index.get
        for j, word in enumerate(window):
            for c, k in get(word, ()):
                if window[j : j + k] == c:
                    return True
        return False

    def _warned(self, before: Sequence[str]) -> bool:
        """Whether the words of a sentence before an action (``before``) hold a warning against mixing whose list the
        action is in: no ``warning_stop_cues`` word (a proposing verb, a new clause) between the last warning and it."""
        last = None
        for j in range(len(before)):
            if any(tuple(before[j : j + len(c)]) == c for c in self._warning):
                last = j
        if last is None:
            return False
        return not (self._warning_stop and self._has(before[last + 1 :], self._warning_stop))

    def _refuses(self, window: Sequence[str]) -> bool:
        """Whether a refusal cue is said in ``window``, a cue's stem inside a compound of ``refusal_cue_compounds``
        left out: 'follow' of 'Follow-up within a week' is not 'following' ('hyponatraemia following sertraline')."""
        words = list(window)
        for c in self._compounds:
            for j in range(len(words) - len(c) + 1):
                if tuple(words[j : j + len(c)]) == c:
                    words[j : j + len(c)] = [""] * len(c)
        return self._has(words, self._refusal)

    def _last_exception(self, stemmed: Sequence[str], lo: int, hi: int) -> int | None:
        """The index just after the last exception cue ("other than", "apart from") wholly within ``stemmed[lo:hi]``,
        or None: where a refusal said before it stops reaching."""
        best = None
        for c in self._exception:
            for j in range(lo, hi - len(c) + 1):
                if tuple(stemmed[j : j + len(c)]) == c and (best is None or j + len(c) > best):
                    best = j + len(c)
        return best

    @staticmethod
    def _follows(after: Sequence[str], cues: tuple[tuple[str, ...], ...]) -> bool:
        """Whether a cue is said just after an action: within its first three words ("is not indicated"), or a
        longer cue starting at once ("not to be given")."""
        window = tuple(after)
        index, empty = _cue_index(cues)
        if empty:
            return True
        get = index.get
        for j, word in enumerate(window[:3]):
            for c, k in get(word, ()):
                if j <= max(0, 3 - k) and window[j : j + k] == c:
                    return True
        return False

    def _listed_after_refusal(self, stemmed: Sequence[str], limits: Sequence[int], commas: frozenset[int], floor: int) -> bool:
        """Whether the comma-separated item starting at ``floor`` continues a list headed by a refusal cue:
        each earlier item of at most three words back to one that opens with the cue ("Stop running, netball
        and exercise in her room": the exercise is stopped, not advised; uw-004)."""
        at = floor
        while at in commas:
            start = max((b for b in limits if b < at), default=0)
            if at - start > 4:
                return False
            if self._refuses(stemmed[start : start + 3]):
                return True
            at = start
        return False

    @_per_text
    def mentions(self, plan: str) -> tuple[tuple[int, int, frozenset[str], bool], ...]:
        """Every action phrase in ``plan``: ``(start, end, action ids, refused)`` over ``tokenize(plan)``
        (remembered per text: :meth:`proposed` and :meth:`started` both read every plan a check reads)."""
        stemmed = _stems(plan)
        if not stemmed:
            return ()
        limits = sorted(set(sentence_breaks(plan)) | set(comma_breaks(plan)) | {0})
        labels = frozenset(colon_breaks(plan))  # "Haloperidol: not to be given": what follows the label is said of it
        negated = negated_spans_in(plan)
        commas = frozenset(comma_breaks(plan)) - frozenset(sentence_breaks(plan))
        openings = sorted(set(sentence_breaks(plan)) | {0})
        out: list[tuple[int, int, frozenset[str], bool]] = []
        previous: tuple[int, bool] | None = None
        for start, end, ids in self._matches(stemmed):
            floor = max((b for b in limits if b <= start), default=0)
            ceiling = min((b for b in limits if b > end or b == end and end not in labels), default=len(stemmed))
            before = stemmed[max(floor, start - 4) : start]
            after = stemmed[end : min(ceiling, end + self._after_reach)]
            # an exception said between the refusal and the action ends the refusal's reach: 'No medication other than
            # lithium' keeps lithium (``refusal_exception_cues``); a refusal said after the exception still refuses
            excepted = self._last_exception(stemmed, max(floor, start - 4), start)
            refused = (
                self._refuses(before[excepted - max(floor, start - 4) :] if excepted is not None else before)
                or self._follows(after, self._refusal_after)
                or any(s < start < e and (excepted is None or s >= excepted) for s, e in negated)
                # a warning against mixing reaches the drugs of its own list ('warn about mixing with alcohol,
                # benzodiazepines or gabapentinoids'; ``warning_cues``) up to a proposing verb or a new clause
                # ('mixing alcohol with methadone, and prescribe pregabalin'; ``warning_stop_cues``) or a colon
                or bool(self._warning) and self._warned(stemmed[max(b for b in openings if b <= start) : start])
            )
            if not refused and floor in commas and start - floor <= 3 and (
                stemmed[start - 1 : start] and stemmed[start - 1] in _LIST_JOINS
                or start == floor and ceiling in commas
            ):
                refused = self._listed_after_refusal(stemmed, limits, commas, floor)  # "Stop running, netball and exercise"
            if not refused and previous is not None and previous[1] and (excepted is None or excepted <= previous[0]):
                gap = stemmed[previous[0] : start]
                same_sentence = not any(previous[0] <= b <= start for b in sentence_breaks(plan))
                # a proposing verb starts a new action: 'mixing alcohol with methadone, and prescribe pregabalin'
                proposing = bool(self._warning_stop) and self._has(gap, self._warning_stop)
                refused = same_sentence and 0 < len(gap) <= 3 and gap[0] in _CONNECTIVES and not proposing or same_sentence and not gap
            out.append((start, end, ids, refused))
            previous = (end, refused)
        return tuple(out)

    @_per_text
    def started(self, plan: str) -> frozenset[str]:
        """The actions ``plan`` proposes now: named, not refused, and at least once neither conditional nor deferred
        (``not_now_cues`` earlier in its sentence: "if she vomits again, check potassium", "should he relapse,
        lithium"; ``not_now_after_cues`` just after it in its clause: "check potassium if vomiting", "lithium as a
        future option"). A drug named only for later does not call for its monitoring; a result on file is not acted
        on by a check made conditional on something else."""
        stemmed = _stems(plan)
        if not stemmed:
            return frozenset()
        sentences = sorted(set(sentence_breaks(plan)) | {0})
        limits = sorted(set(sentences) | set(comma_breaks(plan)) | {0})
        found: set[str] = set()
        for start, end, ids, refused in self.mentions(plan):
            if refused:
                continue
            floor = max((b for b in sentences if b <= start), default=0)
            ceiling = min((b for b in limits if b >= end), default=len(stemmed))
            if self._has(stemmed[floor:start], self._not_now) or self._has(stemmed[end : min(ceiling, end + 6)], self._not_now_after):
                continue
            found |= ids
        return frozenset(found | self._by_pattern(plan))

    def _said_now(self, plan: str, action_id: str) -> bool:
        """Whether ``plan`` says the action as a step taken now by its own ``not_now`` words: matched by a pattern, or
        named without one of them earlier in its sentence or after it in its clause. True for an action without them."""
        cues = self._action_not_now.get(action_id, ())
        if not cues or action_id in self._by_pattern(plan):
            return True
        stemmed = _stems(plan)
        limits = sorted(set(sentence_breaks(plan)) | set(comma_breaks(plan)) | {0})
        for start, end, ids, refused in self.mentions(plan):
            if refused or action_id not in ids:
                continue
            # within its clause, up to four words before ('consider safeguarding and ask her, alone, about abuse' asks
            # about abuse now: held_out45 plan-1249, rated 5)
            floor = max([b for b in limits if b <= start] + [start - 4, 0])
            ceiling = min((b for b in limits if b >= end), default=len(stemmed))
            if not (self._has(stemmed[floor:start], cues) or self._has(stemmed[end:ceiling], cues)):
                return True
        return False

    @_per_text
    def _by_pattern(self, plan: str) -> frozenset[str]:
        """The actions whose patterns (``patterns`` of critical_actions.json) the plan matches (remembered per text,
        as :meth:`mentions`)."""
        low = plan.lower()
        return frozenset({a.id for a in self.actions.values() if any(self._pattern_said(low, p, a) for p in a.patterns)})

    @staticmethod
    def _pattern_said(low: str, pattern: re.Pattern[str], action: CriticalAction) -> bool:
        """Whether ``pattern`` matches ``low`` in a sentence that does not refuse it (``pattern_unless``)."""
        if action.pattern_unless is None:
            return pattern.search(low) is not None
        for m in pattern.finditer(low):
            start = max((b.end() for b in _PATTERN_SENTENCE.finditer(low, 0, m.start())), default=0)
            stop = _PATTERN_SENTENCE.search(low, m.end())
            sentence = low[start : stop.start() if stop else len(low)]
            if action.pattern_unless.search(sentence) or is_negated(low[start : m.end()]):
                continue
            return True
        return False

    @_per_text
    def proposed(self, plan: str) -> frozenset[str]:
        """The actions ``plan`` proposes (named, not refused)."""
        found: set[str] = set()
        for _, _, ids, refused in self.mentions(plan):
            if not refused:
                found |= ids
        return frozenset(found | self._by_pattern(plan))

    # ------------------------------------------------------------------------------- reading a case

    def profile(self, case: Any, read_denials_after: bool = False) -> Profile:
        """A :class:`Profile` of a case (the case format of ``mentalhospital_env.cases``). ``read_denials_after``: a
        risk finding denied just after it (``risk_denied_after``: 'Suicidal thoughts denied') shows no risk; the
        judge reads so (stop 52), while the case audit and generator keep the lexicon's reading, under which the
        frozen suites' reference plans were written and audited (test-v2-0014, 0118, 0191 carry a safety plan)."""
        from .lexicon import load_lexicon

        codes = tuple(normalize_code(c) for c in case.diagnosis.codes)
        demographics = case.demographics
        ehr = case.ehr
        presenting = " ".join(
            t for t in (ehr.chief_complaint, ehr.history_of_present_illness, ehr.medical_history, ehr.medications) if t
        )
        pregnant = self.states_pregnancy(presenting)
        lexicon = load_lexicon()
        risks: set[str] = set()
        shown_by: dict[str, list[tuple[frozenset[str], tuple[str, ...]]]] = {}
        for fact in case.facts:
            found = {m.concept_id for m in lexicon.find(fact.text) if not m.negated and not (read_denials_after and self._denied_after(fact.text, m.end))}
            if not found:
                continue
            stemmed = None  # stemmed only for a fact that shows a risk sign (few do)
            for risk, sign in self.risk_concepts.items():
                if not found & sign.concepts:
                    continue
                if stemmed is None:
                    stemmed = _stems(fact.text)
                if found & sign.always or not self._has(stemmed, sign.unless_phrases):
                    risks.add(risk)
                    shown_by.setdefault(risk, []).append((frozenset(found & sign.concepts), stemmed))
        risk = getattr(ehr, "risk_assessment", None)
        for name in list(risks):
            sign = self.risk_concepts[name]
            facts = shown_by.get(name, [])
            if not sign.not_from or not all(c <= sign.not_from for c, _ in facts):
                continue
            if not all(self._has(st, sign.not_from_contexts) for _, st in facts):
                continue  # every self-injury fact in such a context: one without it keeps the risk
            said = getattr(risk, "suicide", None) or ""
            if any(m.negated and m.concept_id in sign.not_from_denied for m in lexicon.find(said)):
                risks.discard(name)  # self-injury in meltdowns, suicidal intent denied (uw-007)
        dependants = any(
            self.mentions_dependants(text or "")
            for text in (getattr(demographics, "living_situation", None), ehr.personal_history)
        )
        results = [getattr(e, "result", "") or "" for e in getattr(case, "exams", ()) or ()]
        mse = getattr(ehr, "mental_status_exam", None)
        narrative = [
            ehr.chief_complaint,
            ehr.history_of_present_illness,
            ehr.past_psychiatric_history,
            ehr.medical_history,
            ehr.substance_use,
            ehr.personal_history,
            *(v for _, v in (risk.items() if risk is not None else ())),
            getattr(mse, "thought_content", None),
        ]
        return Profile(
            codes=codes,
            setting=case.setting,
            age=demographics.age,
            sex=demographics.sex,
            pregnant=pregnant,
            risks=frozenset(risks),
            medications=(ehr.medications or "").lower(),
            dependants=dependants,
            hepatic=self.hepatic_impairment([*results, ehr.medical_history or "", ehr.history_of_present_illness or ""]),
            # each result read with its exam's name, for a measure the result does not name ("MMSE: total 10/30")
            findings=self.abnormal_findings(
                f"{getattr(e, 'name', '') or ''}: {getattr(e, 'result', '') or ''}" for e in getattr(case, "exams", ()) or ()
            ),
            signs=self.signs([t for t in narrative if t] + results),
        )

    def _applies(self, rule: Rule, profile: Profile, proposed: frozenset[str]) -> bool:
        if rule.codes and not any(_code_matches(c, rule.codes) for c in profile.codes):
            return False
        if rule.principal is False and (not profile.codes or _code_matches(profile.codes[0], rule.codes)):
            return False
        if rule.principal and not (profile.codes and _code_matches(profile.codes[0], rule.codes)):
            return False
        if rule.settings and profile.setting not in rule.settings:
            return False
        if rule.min_age is not None and (profile.age is None or profile.age < rule.min_age):
            return False
        if rule.max_age is not None and (profile.age is None or profile.age > rule.max_age):
            return False
        if rule.sex and profile.sex not in rule.sex:
            return False
        if rule.pregnant is not None and profile.pregnant != rule.pregnant:
            return False
        if rule.risk and not set(rule.risk) & profile.risks:
            return False
        if rule.plan_proposes and not set(rule.plan_proposes) & proposed:
            return False
        if rule.record_medications and not any(
            re.search(rf"\b{re.escape(m)}\b", profile.medications) and not re.search(rf"\b(?:no|not|stopped|never)\b[^.;]*\b{re.escape(m)}\b", profile.medications)
            for m in rule.record_medications
        ):
            return False
        if rule.record_mentions_dependants is not None and profile.dependants != rule.record_mentions_dependants:
            return False
        if rule.hepatic_impairment is not None and profile.hepatic != rule.hepatic_impairment:
            return False
        if rule.exam_findings and not set(rule.exam_findings) & profile.findings:
            return False
        if rule.record_signs and not set(rule.record_signs) & profile.signs:
            return False
        return True

    def _denied_after(self, text: str, end: int) -> bool:
        """Whether a record finding ending at token ``end`` of ``text`` is denied by the words just after it
        (``risk_denied_after``: 'Suicidal thoughts denied'), which the lexicon, reading negations said before a finding,
        does not see."""
        if not self._risk_denied_after:
            return False
        stemmed = _stems(text)
        after = stemmed[end : end + max(len(c) for c in self._risk_denied_after)]
        denial = next((c for c in self._risk_denied_after if tuple(after[: len(c)]) == c), None)
        if denial is None:
            return False
        # the denial must end its clause: 'denied plan or intent' and 'denied to the GP' deny something else or
        # to someone else (stop 52 review), and a later clause of the fact must not affirm the finding
        # ('..., present daily now with a plan'; ``risk_affirmed_after``)
        stop = end + len(denial)
        if stop < len(stemmed) and stop not in set(sentence_breaks(text)) | set(comma_breaks(text)):
            return False
        return not (self._risk_affirmed and self._has(stemmed[stop:], self._risk_affirmed))

    def states_pregnancy(self, text: str) -> bool:
        """Whether ``text`` says the patient is pregnant now (``pregnancy_cues``, not negated): a birth history ("a
        normal delivery at term"), contraception ("on the pill") or a mother's pregnancy (``pregnancy_exclusions``:
        "when my mum was pregnant with me") is no pregnancy."""
        for sentence in re.split(r"(?<=[.;!?])\s+", text or ""):
            stemmed = _stems(sentence)
            if (
                self._has(stemmed, self._pregnancy)
                and not self._has(stemmed, self._not_pregnancy)
                and not negated_spans_in(sentence)
            ):
                return True
        return False

    def doses_over_limit(self, profile: Profile, plan: str) -> tuple[Contraindication, ...]:
        """The drugs ``plan`` gives above the day's limit for the patient's age (``dose_limits``)."""
        out: list[Contraindication] = []
        for limit in self.dose_limits:
            if not limit.applies(profile.age):
                continue
            names = "|".join(re.escape(n) for n in sorted(self._drug_names[limit.drug], key=len, reverse=True))
            for m in re.finditer(rf"\b(?:{names})\b", plan, re.IGNORECASE):
                # the doses said of this drug: up to the sentence's end or the next drug named
                rest = re.split(r"[.;]", plan[m.end() :], maxsplit=1)[0]
                following = self._any_drug.search(rest)
                rest = rest[: following.start()] if following else rest
                doses = [float(x) for x in re.findall(r"(\d+(?:\.\d+)?)\s*mg\b", rest, re.IGNORECASE)]
                if doses and max(doses) > limit.max_mg:
                    label = f"{limit.drug} above {limit.max_mg:g} mg a day"
                    out.append(Contraindication(f"dose_limits.{limit.drug}", limit.drug, label, limit.reason))
                    break
        return tuple(out)

    def signs(self, texts: Iterable[str]) -> frozenset[str]:
        """The ``record_signs`` that ``texts`` (a record's narrative, or what a clinician heard) show: a sentence
        holding one of a sign's phrases, not negated there ("no weapons"), and none of its exclusions."""
        found: set[str] = set()
        for text in texts:
            for sentence in re.split(r"(?<=[.;!?])\s+", text or ""):
                found |= self._sentence_signs(sentence)
        return frozenset(found)

    def clear_cache(self) -> None:
        """Forget what was read of each text (:func:`~.language.clear_caches` calls it)."""
        for memo in self._text_memos.values():
            memo.cache_clear()
        self._checks.cache_clear()

    @_per_text
    def _sentence_signs(self, sentence: str) -> frozenset[str]:
        """The signs one sentence shows."""
        stemmed = _stems(sentence)
        if not stemmed:
            return frozenset()
        starts: dict[str, list[int]] = {}
        for j, word in enumerate(stemmed):
            for sid, c in self._sign_phrases.get(word, ()):
                if stemmed[j : j + len(c)] == c:
                    starts.setdefault(sid, []).append(j)
        found: set[str] = set()
        negated = None
        for sign in self.record_signs.values():
            at = starts.get(sign.id)
            matched = not at and any(p.search(sentence) for p in sign.patterns)
            if not at and not matched:
                continue
            if sign.unless and self._has(stemmed, sign.unless):
                continue
            if negated is None:
                negated = negated_spans_in(sentence)
            if matched and not negated or any(not any(s <= j < e for s, e in negated) for j in at or ()):
                found.add(sign.id)
        return frozenset(found)

    def abnormal_findings(self, results: Iterable[str]) -> frozenset[str]:
        """The ``exam_findings`` that exam ``results`` show (a pulse of 42/min: below 50 and below 40 ...)."""
        texts = [r for r in results if r]
        values = {m.id: [v for t in texts for v in m.values(t)] for m in self.measures.values()}
        return frozenset(f.id for f in self.exam_findings.values() if f.shown_by(values.get(f.measure, ())))

    def hepatic_impairment(self, texts: Iterable[str]) -> bool:
        """Whether any of ``texts`` (results, a medical history) shows hepatic impairment: a transaminase above
        ``hepatic_impairment.lab_limits`` (a test named in the limits: AST, ALT, GGT) or one of its phrases, not
        negated ("liver tests are raised")."""
        for text in texts:
            for name, value in self._hepatic_tests.findall(text or ""):
                if int(value) > self._hepatic_limits.get(name.lower(), 10**9):
                    return True
            for sentence in re.split(r"(?<=[.;!?])\s+", text or ""):
                if self._has(_stems(sentence), self._hepatic) and not negated_spans_in(sentence):
                    return True
        return False

    def requirements(
        self, profile: Profile, plan: str = ""
    ) -> tuple[tuple[Requirement, ...], tuple[Contraindication, ...]]:
        """The required actions and the contraindications that apply to ``profile`` (rules about the drugs a
        plan proposes apply when ``plan`` proposes them; the contraindications listed are the candidates,
        whether or not the plan holds them)."""
        return self._requirements(profile, self.proposed(plan) if plan else frozenset())

    def _requirements(
        self, profile: Profile, proposed: frozenset[str]
    ) -> tuple[tuple[Requirement, ...], tuple[Contraindication, ...]]:
        required: dict[str, Requirement] = {}
        forbidden: list[Contraindication] = []
        for rule in self.rules:
            if not self._applies(rule, profile, proposed):
                continue
            for action in rule.must:
                required.setdefault(action, Requirement(rule.id, action, self.actions[action].label))
            for f in rule.must_not:
                if f.unless_codes and any(_code_matches(c, f.unless_codes) for c in profile.codes):
                    continue
                forbidden.append(Contraindication(rule.id, f.action, self.actions[f.action].label, f.reason, f.cap))
        return tuple(required.values()), tuple(forbidden)

    def advised(self, profile: Profile, plan: str = "", tier: str = "should") -> tuple[Requirement, ...]:
        """The actions the rules advise (``should``: good practice whose absence is a gap, not a danger: school
        liaison for a child, physical care after days without eating), or, with ``tier="core"``, the core
        treatment of each of the patient's disorders (``core``: trauma-focused therapy for PTSD, DBT or MBT for an
        emotionally unstable personality; safe to leave out, but a plan without it is not first-line care), or, with
        ``tier="may"``, what a plan may carry for a disorder the patient has (``may``: a benzodiazepine withdrawal
        regimen in alcohol dependence): a drug that realises one of these serves the case, whichever disorder its
        guideline lists it for."""
        proposed = self.proposed(plan) if plan else frozenset()
        out: dict[str, Requirement] = {}
        for rule in self.rules:
            actions = getattr(rule, tier)
            if actions and self._applies(rule, profile, proposed):
                for action in actions:
                    out.setdefault(action, Requirement(rule.id, action, self.actions[action].label))
        return tuple(out.values())

    def check(self, profile: Profile, plan: str) -> SafetyCheck:
        """Which required actions ``plan`` misses and which forbidden ones it proposes. Remembered per profile and
        plan (the last :data:`CHECKS_KEPT`): a score reads one plan twice, in the judge's plan reading and in the
        scorer's critical-action details."""
        return self._checks(profile, plan)

    def _check(self, profile: Profile, plan: str) -> SafetyCheck:
        proposed = self.proposed(plan)
        now = self.started(plan)
        # a rule about a drug the plan proposes applies when the plan starts it now, not when it names it for later
        required, candidates = self._requirements(profile, now if plan else frozenset())  # read the plan once
        # a result on file (a rule on exam findings, or on raised liver tests) is acted on by a step taken now, not one
        # made conditional ("plan a medically assisted withdrawal if dependent" beside "check LFT at 3 months")
        on_results = {r.id for r in self.rules if r.exam_findings or (r.hepatic_impairment and r.must)}
        missing = tuple(
            r for r in required
            if r.action not in (now if r.rule in on_results else proposed) or not self._said_now(plan, r.action)
        )
        rules = {r.id: r for r in self.rules}
        found: dict[str, Contraindication] = {}
        for c in candidates:
            if c.action not in proposed:
                continue
            lifted = next(f for f in rules[c.rule].must_not if f.action == c.action).unless
            if lifted and set(lifted) & proposed:
                continue
            found.setdefault(c.action, c)
        for c in self.doses_over_limit(profile, plan):
            found.setdefault(f"{c.action} dose", c)
        misplaced = tuple(
            Misplaced(e.action, self.actions[e.action].label, e.reason)
            for e in self.disorder_specific
            if e.action in proposed and e.misplaced_for(profile)
        )
        advised = tuple(r for r in self.advised(profile, plan) if r.action not in {q.action for q in required})
        advised_missing = tuple(r for r in advised if r.action not in proposed)
        core = tuple(r for r in self.advised(profile, plan, "core") if r.action not in {q.action for q in required})
        core_missing = tuple(r for r in core if r.action not in proposed)
        return SafetyCheck(
            required, missing, tuple(found.values()), proposed, misplaced, advised, advised_missing, core, core_missing
        )

    def made_for_other_ages(self, text: str, age: int | None) -> tuple[Misplaced, ...]:
        """The elements ``text`` proposes that are made for patients of other ages than ``age`` (family-based
        treatment for an adult; for a generator choosing among a disorder's treatments)."""
        proposed = self.proposed(text)
        return tuple(
            Misplaced(e.action, self.actions[e.action].label, e.reason)
            for e in self.disorder_specific
            if e.action in proposed and e.wrong_age(age)
        )

    def mentions_dependants(self, text: str) -> bool:
        """Whether ``text`` says that children or other dependants are at home or in the patient's care (not "as a
        child", "only child"; not a daughter who "lives in the next county" or a son who "phones weekly": stop 55, uw-010's
        grandchildren who visit from the next county were read as dependants at home, a false 'misses safeguarding').
        A sentence that names where the dependants live or who cares for them (``dependant_home_cues``: 'lives with',
        'at home', 'custody') counts even beside words that place someone else away (``dependant_away_cues``).
        Stop 55 review: an away word belongs to the person named nearest before it (``dependant_other_people``: 'her
        own mother phones daily' places the mother, not the 3-year-old, away), and a dependant said to be a minor (an
        age under 18, ``dependant_age_patterns``; a baby, toddler, young child: ``dependant_minor_cues``) is never
        placed away unless the sentence also gives a grown child's age (whose children those minors then are). A
        grandchild counts only with a home word beside it ('looks after her grandson')."""
        for sentence in re.split(r"(?<=[.;!?])\s+", text or ""):
            stemmed = _stems(sentence)
            if self._has(stemmed, self._not_dependants):
                continue
            if self._grandchild_in_care(stemmed):
                return True
            if not self._has(stemmed, self._dependants):
                continue
            if not self._has(stemmed, self._dependants_away) or self._has(stemmed, self._dependants_home):
                return True
            ages = [int(a) for p in self._age_patterns for m in p.finditer(sentence) for a in (m.groups() or ("0",)) if a]
            minor = any(a < 18 for a in ages) or self._has(stemmed, self._minor_words)
            if minor and not any(a >= 18 for a in ages):
                return True
            if self._unplaced_dependant(stemmed):
                return True
        return False

    def _grandchild_in_care(self, stemmed: tuple[str, ...]) -> bool:
        """Whether a grandchild (``dependant_grandchild_cues``) is named with a home word within four words of it."""
        for g in find_phrases(stemmed, self._grandchildren):
            if self._has(stemmed[max(0, g[0] - 4) : g[1] + 4], self._dependants_home):
                return True
        return False

    def _unplaced_dependant(self, stemmed: tuple[str, ...]) -> bool:
        """Whether a dependant named in ``stemmed`` is left at home when each away word is given to the person named
        nearest before it (or, with none before, the first after it); a grandchild word places itself away."""
        deps = find_phrases(stemmed, self._dependants)
        people = sorted(deps + find_phrases(stemmed, self._other_people))
        away_deps: set[tuple[int, int]] = set()
        for a in find_phrases(stemmed, self._dependants_away):
            if self._has(stemmed[a[0] : a[1]], self._grandchildren):
                away_deps.update(d for d in deps if d[0] < a[1] and a[0] < d[1])
            before = [p for p in people if p[1] <= a[0]]
            after = [p for p in people if p[0] >= a[1]]
            owner = before[-1] if before else (after[0] if after else None)
            if owner in deps:
                away_deps.add(owner)
        return any(d not in away_deps for d in deps)

    def sentences(self, required: Iterable[Requirement | str]) -> list[str]:
        """The ``say`` sentence of each required action, in order, once each (for writing a plan that carries them)."""
        out: list[str] = []
        for r in required:
            text = self.actions[r if isinstance(r, str) else r.action].say
            if text and text not in out:
                out.append(text)
        return out

    def check_case(self, case: Any, plan: str) -> SafetyCheck:
        """:meth:`check` of a case's :meth:`profile` (the profile remembered per case object)."""
        return self.check(self.case_profile(case), plan)

    def case_profile(self, case: Any) -> Profile:
        key = id(case)
        hit = _PROFILES.get(key)
        if hit is not None and hit[0] is case:
            return hit[1]
        if len(_PROFILES) > 2048:
            _PROFILES.clear()
        profile = self.profile(case)
        _PROFILES[key] = (case, profile)
        return profile


_PROFILES: dict[int, tuple[Any, Profile]] = {}


# ------------------------------------------------------------------------------------------- loading


def _patterns(where: str, at: str, entry: dict[str, Any]) -> list[re.Pattern[str]]:
    """An entry's ``patterns``: regular expressions, case-insensitive, each named when it does not compile."""
    patterns = []
    for pattern in _strings(where, at, "patterns", entry.get("patterns")):
        try:
            patterns.append(re.compile(pattern, re.IGNORECASE))
        except re.error as e:
            raise KnowledgeError(where, at, "patterns", f"{pattern!r} does not compile: {e}") from None
    return patterns


def _cap(where: str, rid: str, at: str, value: Any) -> int:
    """A forbidden action's ``cap``: 1 (a harm) or 2 (an over-treatment)."""
    if value not in (1, 2) or isinstance(value, bool):
        raise KnowledgeError(where, rid, f"{at}.cap", "must be 1 (a harm) or 2 (an over-treatment)")
    return int(value)


def _strings(where: str, entry: str | None, field: str, value: Any, required: bool = False) -> tuple[str, ...]:
    if value is None and not required:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise KnowledgeError(where, entry, field, "must be a list of non-empty strings")
    if required and not value:
        raise KnowledgeError(where, entry, field, "must not be empty")
    return tuple(value)


def read_critical_actions(raw: Mapping[str, Any], drugs: Sequence[Any], codes: Iterable[str], where: str = FILE) -> CriticalActions:
    """Validate the file's content against the knowledge base's ``drugs`` and disorder ``codes``."""
    if not isinstance(raw, Mapping):
        raise KnowledgeError(where, None, None, "must be a JSON object")
    by_name = {d.name.lower(): d for d in drugs}
    drug_phrases = {d.name.lower(): (d.name, *d.synonyms) for d in drugs}
    known_codes = tuple(codes)
    actions_raw = raw.get("actions")
    if not isinstance(actions_raw, Mapping) or not actions_raw:
        raise KnowledgeError(where, None, "actions", "must map action ids to their equivalents")
    actions: dict[str, CriticalAction] = {}
    for action_id, entry in actions_raw.items():
        if not isinstance(entry, Mapping):
            raise KnowledgeError(where, action_id, None, "must be an object")
        label = entry.get("label")
        if not isinstance(label, str) or not label.strip():
            raise KnowledgeError(where, action_id, "label", "must be a non-empty string")
        names: set[str] = set()
        for drug in _strings(where, action_id, "drugs", entry.get("drugs")):
            if drug.lower() not in by_name:
                raise KnowledgeError(where, action_id, "drugs", f"unknown drug {drug!r} (not in drugs.json)")
            names.add(drug.lower())
        for cls in _strings(where, action_id, "classes", entry.get("classes")):
            held = {n for n, d in by_name.items() if cls.lower() in d.drug_class.lower()}
            if not held:
                raise KnowledgeError(where, action_id, "classes", f"no drug of drugs.json has a class containing {cls!r}")
            names |= held
        phrases = _strings(where, action_id, "phrases", entry.get("phrases"))
        patterns = _patterns(where, action_id, entry)
        if not (names or phrases or patterns):
            raise KnowledgeError(where, action_id, None, "gives no drug, class, phrase or pattern to find it by")
        say = entry.get("say")
        if say is not None and (not isinstance(say, str) or not say.strip()):
            raise KnowledgeError(where, action_id, "say", "must be a non-empty sentence")
        unless = _strings(where, action_id, "pattern_unless", entry.get("pattern_unless"))
        blockers = (re.compile(r"(?<![\w])(?:" + "|".join(sorted((re.escape(u) for u in unless), key=len, reverse=True))
                               + r")(?![\w])", re.IGNORECASE) if unless else None)
        missing_cap = entry.get("missing_cap")
        if missing_cap is not None and (isinstance(missing_cap, bool) or not isinstance(missing_cap, (int, float))
                                        or not 1 <= missing_cap <= 5):
            raise KnowledgeError(where, action_id, "missing_cap", "must be a score from 1 to 5")
        actions[action_id] = CriticalAction(action_id, label, frozenset(names), phrases, tuple(patterns), say, blockers,
                                            None if missing_cap is None else float(missing_cap),
                                            _strings(where, action_id, "not_now_cues", entry.get("not_now_cues")))

    def known_action(rule_id: str, field: str, action: Any) -> str:
        if action not in actions:
            raise KnowledgeError(where, rule_id, field, f"unknown action {action!r} (not in 'actions')")
        return action

    def known_codes_of(rule_id: str, field: str, value: Any) -> tuple[str, ...]:
        out = []
        for code in _strings(where, rule_id, field, value):
            c = normalize_code(code)
            if not any(k.startswith(c) or c.startswith(k) for k in known_codes) and not is_icd10cm_code(c):
                raise KnowledgeError(where, rule_id, field, f"code {code!r} is no ICD-10-CM code and matches no disorder of disorders.json")
            out.append(c)
        return tuple(out)

    risk_raw = raw.get("risk_concepts", {})
    if not isinstance(risk_raw, Mapping):
        raise KnowledgeError(where, None, "risk_concepts", "must map risk names to lexicon concept ids")
    risk_concepts: dict[str, RiskSign] = {}
    for name, value in risk_raw.items():
        if not isinstance(value, Mapping):
            raise KnowledgeError(where, "risk_concepts", name, "must be an object with 'concepts'")
        risk_concepts[name] = RiskSign(
            concepts=frozenset(_strings(where, "risk_concepts", f"{name}.concepts", value.get("concepts"), required=True)),
            unless_phrases=tuple(_stems(p) for p in _strings(where, "risk_concepts", f"{name}.unless_phrases", value.get("unless_phrases"))),
            always=frozenset(_strings(where, "risk_concepts", f"{name}.always", value.get("always"))),
            not_from=frozenset(_strings(where, "risk_concepts", f"{name}.not_from", value.get("not_from"))),
            not_from_contexts=tuple(_stems(p) for p in _strings(where, "risk_concepts", f"{name}.not_from_contexts", value.get("not_from_contexts"))),
            not_from_denied=frozenset(_strings(where, "risk_concepts", f"{name}.not_from_denied", value.get("not_from_denied"))),
        )
    measures, exam_findings = _exam_findings(where, raw.get("exam_findings"))
    record_signs = _record_signs(where, raw.get("record_signs"))
    rules_raw = raw.get("rules")
    if not isinstance(rules_raw, list) or not rules_raw:
        raise KnowledgeError(where, None, "rules", "must be a non-empty list")
    rules: list[Rule] = []
    seen: set[str] = set()
    for i, entry in enumerate(rules_raw):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
            raise KnowledgeError(where, f"rules[{i}]", "id", "each rule must be an object with a string id")
        rid = entry["id"]
        if rid in seen:
            raise KnowledgeError(where, rid, "id", "duplicate rule id")
        seen.add(rid)
        when = entry.get("when")
        if not isinstance(when, Mapping) or not when:
            raise KnowledgeError(where, rid, "when", "must give at least one condition")
        unknown = set(when) - {
            "codes", "settings", "min_age", "max_age", "sex", "pregnant", "risk", "plan_proposes",
            "record_medications", "record_mentions_dependants", "hepatic_impairment", "exam_findings",
            "record_signs", "principal",
        }
        if unknown:
            raise KnowledgeError(where, rid, "when", f"unknown conditions {sorted(unknown)}")
        for key in ("min_age", "max_age"):
            if key in when and (not isinstance(when[key], int) or isinstance(when[key], bool) or not 0 <= when[key] <= 120):
                raise KnowledgeError(where, rid, f"when.{key}", "must be a whole number of years 0..120")
        from .vocabulary import SETTINGS, SEXES

        settings = _strings(where, rid, "when.settings", when.get("settings"))
        if set(settings) - set(SETTINGS):
            raise KnowledgeError(where, rid, "when.settings", f"settings must be among {SETTINGS}")
        sexes = _strings(where, rid, "when.sex", when.get("sex"))
        if set(sexes) - set(SEXES):
            raise KnowledgeError(where, rid, "when.sex", f"sex must be among {SEXES}")
        risks = _strings(where, rid, "when.risk", when.get("risk"))
        if set(risks) - set(risk_concepts):
            raise KnowledgeError(where, rid, "when.risk", f"risks must be among {sorted(risk_concepts)}")
        findings = _strings(where, rid, "when.exam_findings", when.get("exam_findings"))
        if set(findings) - set(exam_findings):
            raise KnowledgeError(
                where, rid, "when.exam_findings", f"unknown findings {sorted(set(findings) - set(exam_findings))} (not in 'exam_findings.findings')"
            )
        signs = _strings(where, rid, "when.record_signs", when.get("record_signs"))
        if set(signs) - set(record_signs):
            raise KnowledgeError(
                where, rid, "when.record_signs", f"unknown signs {sorted(set(signs) - set(record_signs))} (not in 'record_signs')"
            )
        must = tuple(known_action(rid, "must", a) for a in _strings(where, rid, "must", entry.get("must")))
        should = tuple(known_action(rid, "should", a) for a in _strings(where, rid, "should", entry.get("should")))
        core = tuple(known_action(rid, "core", a) for a in _strings(where, rid, "core", entry.get("core")))
        may = tuple(known_action(rid, "may", a) for a in _strings(where, rid, "may", entry.get("may")))
        forbidden = []
        for j, f in enumerate(entry.get("must_not") or ()):
            at = f"must_not[{j}]"
            if not isinstance(f, Mapping) or not isinstance(f.get("reason"), str) or not f["reason"].strip():
                raise KnowledgeError(where, rid, at, "must give an action and a reason")
            forbidden.append(
                Forbidden(
                    action=known_action(rid, f"{at}.action", f.get("action")),
                    reason=f["reason"],
                    unless=tuple(known_action(rid, f"{at}.unless", a) for a in _strings(where, rid, f"{at}.unless", f.get("unless"))),
                    unless_codes=known_codes_of(rid, f"{at}.unless_codes", f.get("unless_codes")),
                    cap=_cap(where, rid, at, f.get("cap", 1)),
                )
            )
        if not must and not forbidden and not should and not core and not may:
            raise KnowledgeError(where, rid, None, "requires nothing and forbids nothing")
        for key in ("pregnant", "record_mentions_dependants", "hepatic_impairment", "principal"):
            if key in when and not isinstance(when[key], bool):
                raise KnowledgeError(where, rid, f"when.{key}", "must be true or false")
        rules.append(
            Rule(
                id=rid,
                about=str(entry.get("about", "")),
                codes=known_codes_of(rid, "when.codes", when.get("codes")),
                principal=when.get("principal"),
                settings=settings,
                min_age=when.get("min_age"),
                max_age=when.get("max_age"),
                sex=sexes,
                pregnant=when.get("pregnant"),
                risk=risks,
                plan_proposes=tuple(
                    known_action(rid, "when.plan_proposes", a) for a in _strings(where, rid, "when.plan_proposes", when.get("plan_proposes"))
                ),
                record_medications=tuple(m.lower() for m in _strings(where, rid, "when.record_medications", when.get("record_medications"))),
                record_mentions_dependants=when.get("record_mentions_dependants"),
                hepatic_impairment=when.get("hepatic_impairment"),
                exam_findings=findings,
                record_signs=signs,
                must=must,
                should=should,
                core=core,
                may=may,
                must_not=tuple(forbidden),
            )
        )
    required = {a for rule in rules for a in (*rule.must, *rule.should, *rule.core)}
    for action_id in sorted(required):
        if actions[action_id].say is None:
            raise KnowledgeError(where, action_id, "say", "a required action needs a 'say' sentence")
    said = {_stems(p) for a in actions.values() for p in (*a.phrases, *(n for d in a.drugs for n in drug_phrases.get(d, (d,))))}
    for phrase in _strings(where, None, "not_action_phrases", raw.get("not_action_phrases")):
        if _stems(phrase) in said:
            raise KnowledgeError(where, "not_action_phrases", None, f"{phrase!r} is itself an action's phrase")
    found = CriticalActions(
        actions,
        rules,
        refusal_cues=_strings(where, None, "refusal_cues", raw.get("refusal_cues"), required=True),
        refusal_after_cues=_strings(where, None, "refusal_after_cues", raw.get("refusal_after_cues")),
        pregnancy_cues=_strings(where, None, "pregnancy_cues", raw.get("pregnancy_cues")),
        dependant_cues=_strings(where, None, "dependant_cues", raw.get("dependant_cues")),
        dependant_exclusions=_strings(where, None, "dependant_exclusions", raw.get("dependant_exclusions")),
        dependant_away_cues=_strings(where, None, "dependant_away_cues", raw.get("dependant_away_cues")),
        dependant_home_cues=_strings(where, None, "dependant_home_cues", raw.get("dependant_home_cues")),
        dependant_other_people=_strings(where, None, "dependant_other_people", raw.get("dependant_other_people")),
        dependant_minor_cues=_strings(where, None, "dependant_minor_cues", raw.get("dependant_minor_cues")),
        dependant_age_patterns=_patterns(where, None, {"patterns": raw.get("dependant_age_patterns", [])}),
        dependant_grandchild_cues=_strings(where, None, "dependant_grandchild_cues", raw.get("dependant_grandchild_cues")),
        not_action_phrases=_strings(where, None, "not_action_phrases", raw.get("not_action_phrases")),
        risk_concepts=risk_concepts,
        drug_phrases=drug_phrases,
        hepatic_limits=_hepatic_limits(where, raw.get("hepatic_impairment")),
        hepatic_phrases=_strings(where, "hepatic_impairment", "phrases", (raw.get("hepatic_impairment") or {}).get("phrases")),
        disorder_specific=_disorder_specific(where, raw.get("disorder_specific"), known_action, known_codes_of, raw.get("record_signs")),
        measures=measures,
        exam_findings=exam_findings,
        record_signs=record_signs,
        dose_limits=_dose_limits(where, raw.get("dose_limits"), by_name),
        pregnancy_exclusions=_strings(where, None, "pregnancy_exclusions", raw.get("pregnancy_exclusions")),
        not_now_cues=_strings(where, None, "not_now_cues", raw.get("not_now_cues")),
        not_now_after_cues=_strings(where, None, "not_now_after_cues", raw.get("not_now_after_cues")),
        refusal_exception_cues=_strings(where, None, "refusal_exception_cues", raw.get("refusal_exception_cues")),
        refusal_cue_compounds=_strings(where, None, "refusal_cue_compounds", raw.get("refusal_cue_compounds")),
        warning_cues=_strings(where, None, "warning_cues", raw.get("warning_cues")),
        risk_denied_after=_strings(where, None, "risk_denied_after", raw.get("risk_denied_after")),
        warning_stop_cues=_strings(where, None, "warning_stop_cues", raw.get("warning_stop_cues")),
        risk_affirmed_after=_strings(where, None, "risk_affirmed_after", raw.get("risk_affirmed_after")),
    )
    for action_id in sorted(required):
        if action_id not in found.proposed(actions[action_id].say or ""):
            raise KnowledgeError(where, action_id, "say", "the sentence does not read as its own action")
    return found


def _ages(where: str, at: str, entry: Mapping[str, Any]) -> dict[str, int | None]:
    """An entry's ``min_age`` and ``max_age``, each absent or a whole number of years 0..120."""
    ages: dict[str, int | None] = {}
    for key in ("min_age", "max_age"):
        value = entry.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 120):
            raise KnowledgeError(where, at, key, "must be a whole number of years 0..120")
        ages[key] = value
    return ages


def _disorder_specific(
    where: str, raw: Any, known_action: Any, known_codes_of: Any, raw_signs: Any = None
) -> tuple[DisorderElement, ...]:
    if raw is None:
        return ()
    elements = raw.get("elements") if isinstance(raw, Mapping) else None
    if not isinstance(elements, list):
        raise KnowledgeError(where, "disorder_specific", "elements", "must be a list of {action, codes, reason}")
    out = []
    for j, e in enumerate(elements):
        at = f"disorder_specific.elements[{j}]"
        if not isinstance(e, Mapping) or not isinstance(e.get("reason"), str) or not e["reason"].strip():
            raise KnowledgeError(where, at, "reason", "each element must give an action, codes and a reason")
        codes = known_codes_of(at, "codes", e.get("codes"))
        ages = _ages(where, at, e)
        if ages["min_age"] is not None and ages["max_age"] is not None and ages["min_age"] > ages["max_age"]:
            raise KnowledgeError(where, at, "min_age", "is above max_age")
        if not codes and ages["min_age"] is None and ages["max_age"] is None and not e.get("unless_pregnant"):
            raise KnowledgeError(where, at, "codes", "must not be empty unless min_age or max_age is given")
        if not isinstance(e.get("unless_pregnant", False), bool):
            raise KnowledgeError(where, at, "unless_pregnant", "must be true or false")
        signs = _strings(where, at, "unless_signs", e.get("unless_signs"))
        known_signs = set((raw_signs or {}).keys())
        if set(signs) - known_signs:
            raise KnowledgeError(where, at, "unless_signs", f"unknown signs {sorted(set(signs) - known_signs)} (not in 'record_signs')")
        out.append(
            DisorderElement(
                known_action(at, "action", e.get("action")), codes, e["reason"], **ages,
                unless_pregnant=bool(e.get("unless_pregnant", False)), unless_signs=signs,
            )
        )
    return tuple(out)


def _dose_limits(where: str, raw: Any, by_name: Mapping[str, Any]) -> tuple[DoseLimit, ...]:
    """``dose_limits``: {limits: [{drug, max_mg, min_age|max_age, reason, source}]}, each drug a known drug."""
    if raw is None:
        return ()
    limits = raw.get("limits") if isinstance(raw, Mapping) else None
    if not isinstance(limits, list):
        raise KnowledgeError(where, "dose_limits", "limits", "must be a list of {drug, max_mg, min_age|max_age, reason, source}")
    out = []
    for j, e in enumerate(limits):
        at = f"dose_limits.limits[{j}]"
        if not isinstance(e, Mapping):
            raise KnowledgeError(where, at, None, "must be an object")
        drug = str(e.get("drug", "")).lower()
        if drug not in by_name:
            raise KnowledgeError(where, at, "drug", f"unknown drug {e.get('drug')!r} (not in drugs.json)")
        mg = e.get("max_mg")
        if not isinstance(mg, (int, float)) or isinstance(mg, bool) or mg <= 0:
            raise KnowledgeError(where, at, "max_mg", "must be a positive number")
        ages = _ages(where, at, e)
        if ages["min_age"] is None and ages["max_age"] is None:
            raise KnowledgeError(where, at, "min_age", "a dose limit is for an age: give min_age or max_age")
        for key in ("reason", "source"):
            if not isinstance(e.get(key), str) or not e[key].strip():
                raise KnowledgeError(where, at, key, "must be a non-empty string")
        out.append(DoseLimit(drug, float(mg), e["reason"], e["source"], **ages))
    return tuple(out)


def _record_signs(where: str, raw: Any) -> dict[str, RecordSign]:
    """``record_signs``: sign id -> {phrases, unless, patterns}."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise KnowledgeError(where, "record_signs", None, "must map sign ids to {phrases, unless}")
    out: dict[str, RecordSign] = {}
    for sid, entry in raw.items():
        if sid.startswith("_"):
            continue
        at = f"record_signs.{sid}"
        if not isinstance(entry, Mapping):
            raise KnowledgeError(where, at, None, "must be an object with 'phrases'")
        phrases = tuple(k for k in (_stems(p) for p in _strings(where, at, "phrases", entry.get("phrases"), required=True)) if k)
        if not phrases:
            raise KnowledgeError(where, at, "phrases", "no phrase has a word to find")
        unless = tuple(k for k in (_stems(p) for p in _strings(where, at, "unless", entry.get("unless"))) if k)
        patterns = _patterns(where, at, entry)
        out[sid] = RecordSign(sid, phrases, unless, tuple(patterns))
    return out


def _exam_findings(where: str, raw: Any) -> tuple[dict[str, Measure], dict[str, ExamFinding]]:
    """``exam_findings``: ``measures`` (id -> {patterns}) and ``findings`` (id -> {label, measure, below|above,
    source})."""
    if raw is None:
        return {}, {}
    if not isinstance(raw, Mapping):
        raise KnowledgeError(where, "exam_findings", None, "must be an object with 'measures' and 'findings'")
    measures_raw, findings_raw = raw.get("measures"), raw.get("findings")
    if not isinstance(measures_raw, Mapping) or not measures_raw:
        raise KnowledgeError(where, "exam_findings", "measures", "must map measure ids to {patterns}")
    if not isinstance(findings_raw, Mapping) or not findings_raw:
        raise KnowledgeError(where, "exam_findings", "findings", "must map finding ids to {label, measure, below or above}")
    measures: dict[str, Measure] = {}
    for mid, entry in measures_raw.items():
        at = f"exam_findings.measures.{mid}"
        if not isinstance(entry, Mapping):
            raise KnowledgeError(where, at, None, "must be an object with 'patterns'")
        patterns = []
        for pattern in _strings(where, at, "patterns", entry.get("patterns"), required=True):
            try:
                compiled = re.compile(pattern, re.IGNORECASE)
            except re.error as e:
                raise KnowledgeError(where, at, "patterns", f"{pattern!r} does not compile: {e}") from None
            if compiled.groups not in (1, 2):
                raise KnowledgeError(where, at, "patterns", f"{pattern!r} must capture one number (or two: a difference)")
            patterns.append(compiled)
        measures[mid] = Measure(mid, tuple(patterns))
    findings: dict[str, ExamFinding] = {}
    for fid, entry in findings_raw.items():
        at = f"exam_findings.findings.{fid}"
        if not isinstance(entry, Mapping):
            raise KnowledgeError(where, at, None, "must be an object")
        label = entry.get("label")
        if not isinstance(label, str) or not label.strip():
            raise KnowledgeError(where, at, "label", "must be a non-empty string")
        if not isinstance(entry.get("measure"), str) or entry["measure"] not in measures:
            raise KnowledgeError(where, at, "measure", f"unknown measure {entry.get('measure')!r} (not in 'exam_findings.measures')")
        bounds = {}
        for key in ("below", "above"):
            value = entry.get(key)
            if value is not None and (not isinstance(value, (int, float)) or isinstance(value, bool)):
                raise KnowledgeError(where, at, key, "must be a number")
            bounds[key] = None if value is None else float(value)
        if bounds["below"] is None and bounds["above"] is None:
            raise KnowledgeError(where, at, "below", "a finding needs 'below' or 'above'")
        source = entry.get("source")
        if not isinstance(source, str) or not source.strip():
            raise KnowledgeError(where, at, "source", "must name the published threshold's source")
        findings[fid] = ExamFinding(fid, label, entry["measure"], bounds["below"], bounds["above"], source)
    return measures, findings


def _hepatic_limits(where: str, raw: Any) -> dict[str, int]:
    limits = (raw or {}).get("lab_limits", {}) if isinstance(raw, Mapping) else None
    if not isinstance(limits, Mapping) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v > 0 for k, v in limits.items()
    ):
        raise KnowledgeError(where, "hepatic_impairment", "lab_limits", "must map a test name to a positive whole number")
    return dict(limits)


@lru_cache(maxsize=1)
def load_critical_actions() -> CriticalActions:
    """The bundled critical actions, validated against the bundled knowledge base (cached)."""
    from .base import load_knowledge

    kb = load_knowledge()
    try:
        raw = json.loads(resources.files(__package__).joinpath("data", FILE).read_text("utf-8"))
    except json.JSONDecodeError as e:
        raise KnowledgeError(FILE, None, None, f"not valid JSON ({e.msg} at line {e.lineno})") from None
    actions = read_critical_actions(raw, kb.drugs, [d.code for d in kb.disorders])
    lexicon_ids = {c.id for c in kb.lexicon.concepts}
    for risk, sign in actions.risk_concepts.items():
        unknown = sorted((sign.concepts | sign.always) - lexicon_ids)
        if unknown:
            raise KnowledgeError(FILE, "risk_concepts", risk, f"unknown lexicon concepts {unknown}")
    return actions


__all__ = [
    "Contraindication",
    "CriticalAction",
    "CriticalActions",
    "DisorderElement",
    "DoseLimit",
    "ExamFinding",
    "Measure",
    "Forbidden",
    "Misplaced",
    "Profile",
    "RecordSign",
    "Requirement",
    "RiskSign",
    "Rule",
    "SafetyCheck",
    "load_critical_actions",
    "read_critical_actions",
]
