"""The cue phrases of MentalEval (``data/cues.json``) and a fast stemmed phrase finder.

Phrases are read with the knowledge base's own reader (``mentalhospital_env.knowledge.language``:
``tokenize`` and ``stem``), so "sounds" and "sound", "validating" and "validate" meet the same way
everywhere in the library. :class:`CuePhrases` indexes a list by first stem, so finding cues in an
utterance costs one dictionary look-up per token.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from mentalhospital_env.knowledge.language import stem, tokenize


def phrase_stems(phrase: str) -> tuple[str, ...]:
    """The stemmed tokens of a cue phrase."""
    return tuple(stem(t) for t in tokenize(phrase))


class CuePhrases:
    """A list of cue phrases, matched on stemmed tokens, longest phrase first at each position."""

    def __init__(self, phrases: Iterable[str], labels: Sequence[str] | None = None):
        phrases = list(phrases)
        labels = list(labels) if labels is not None else phrases
        if len(labels) != len(phrases):
            raise ValueError("CuePhrases: one label per phrase")
        index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for phrase, label in zip(phrases, labels):
            key = phrase_stems(phrase)
            if key:
                index.setdefault(key[0], []).append((key, label))
        for entries in index.values():
            entries.sort(key=lambda e: -len(e[0]))
        self._index = index
        self.phrases = tuple(phrases)

    def __len__(self) -> int:
        return len(self.phrases)

    def find(self, stemmed: Sequence[str]) -> list[tuple[int, int, str]]:
        """Non-overlapping matches ``(start, end, label)`` in a stemmed token list, left to right."""
        out: list[tuple[int, int, str]] = []
        i, n = 0, len(stemmed)
        while i < n:
            hit = None
            for key, label in self._index.get(stemmed[i], ()):
                end = i + len(key)
                if end <= n and tuple(stemmed[i:end]) == key:
                    hit = (i, end, label)
                    break
            if hit:
                out.append(hit)
                i = hit[1]
            else:
                i += 1
        return out

    def any(self, stemmed: Sequence[str]) -> bool:
        return bool(self.find(stemmed))

    def labels(self, stemmed: Sequence[str]) -> set[str]:
        return {label for _, _, label in self.find(stemmed)}

    def starts(self, stemmed: Sequence[str]) -> bool:
        """Whether the token list begins with one of the phrases."""
        if not stemmed:
            return False
        for key, _ in self._index.get(stemmed[0], ()):
            if tuple(stemmed[: len(key)]) == key:
                return True
        return False


@dataclass(frozen=True)
class MentalEvalCues:
    """Every cue list of ``data/cues.json``, compiled."""

    empathy: CuePhrases
    validation: CuePhrases
    reflection: CuePhrases
    dismissive: CuePhrases
    emotion_words: CuePhrases
    open_starts: CuePhrases
    closed_starts: CuePhrases
    leading: CuePhrases
    tag_question_words: frozenset[str]
    safety_topics: CuePhrases
    safety_topic_concepts: Mapping[str, frozenset[str]]
    note_sections: Mapping[str, tuple[str, ...]]
    core_sections: tuple[str, ...]
    mse_domains: CuePhrases
    evidence_markers: CuePhrases
    rule_out_markers: CuePhrases
    safety_actions: CuePhrases
    follow_up: CuePhrases
    psychoeducation: CuePhrases
    drug_avoid_cues: CuePhrases
    therapy_aliases: Mapping[str, str]
    therapy_qualifiers: tuple[str, ...]
    limits: Mapping[str, float]
    drug_classes: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = None  # type: ignore[assignment]
    generic_therapy: CuePhrases = None  # type: ignore[assignment]
    drug_avoid_after_cues: CuePhrases = None  # type: ignore[assignment]
    therapy_topic_skip: tuple[str, ...] = ()
    therapy_topic_synonyms: Mapping[str, tuple[str, ...]] = None  # type: ignore[assignment]
    drug_warning_cues: CuePhrases = None  # type: ignore[assignment]
    drug_warning_stop_cues: CuePhrases = None  # type: ignore[assignment]
    dose_described: CuePhrases = None  # type: ignore[assignment]
    continuation: CuePhrases = None  # type: ignore[assignment]
    start_taken: CuePhrases = None  # type: ignore[assignment]
    medication_words: CuePhrases = None  # type: ignore[assignment]
    quote_topics: Mapping[str, frozenset[str]] = None  # type: ignore[assignment]
    checklist_pertinent_domains: frozenset[str] = frozenset()
    plan_record_rules: Mapping[str, str] = None  # type: ignore[assignment]
    previous_treatment: CuePhrases = None  # type: ignore[assignment]
    supportive_classes: tuple[str, ...] = ()


def _labelled(groups: Mapping[str, Sequence[str]]) -> CuePhrases:
    phrases, labels = [], []
    for label, items in groups.items():
        for item in items:
            phrases.append(item)
            labels.append(label)
    return CuePhrases(phrases, labels)


def read_cue_file(raw: Mapping[str, Any], where: str = "cues.json") -> MentalEvalCues:
    """Compile a cue file's content; a missing or malformed list raises ``ValueError`` naming it."""

    def strings(key: str) -> list[str]:
        value = raw.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise ValueError(f"{where}: {key!r} must be a list of non-empty strings")
        return value

    topics = raw.get("safety_topics")
    if not isinstance(topics, Mapping) or not topics:
        raise ValueError(f"{where}: 'safety_topics' must map topic names to concepts and phrases")
    sections = raw.get("note_sections")
    if not isinstance(sections, Mapping) or not sections:
        raise ValueError(f"{where}: 'note_sections' must map section keys to heading phrases")
    mse = raw.get("mse_domains")
    if not isinstance(mse, Mapping) or not mse:
        raise ValueError(f"{where}: 'mse_domains' must map MSE domains to words")
    core = tuple(strings("core_sections"))
    unknown = [c for c in core if c not in sections]
    if unknown:
        raise ValueError(f"{where}: core_sections names unknown sections {unknown}")
    limits = raw.get("limits")
    if not isinstance(limits, Mapping) or not all(isinstance(v, (int, float)) for v in limits.values()):
        raise ValueError(f"{where}: 'limits' must map names to numbers")
    aliases = raw.get("therapy_aliases", {})
    record_rules = {k: v for k, v in (raw.get("plan_record_rules") or {}).items() if not k.startswith("_")}
    if not all(v in ("gap", "advised") for v in record_rules.values()):
        raise ValueError(f"{where}: 'plan_record_rules' must map audit plan rules to 'gap' or 'advised'")
    classes_raw = raw.get("drug_class_phrases", {})
    if not isinstance(classes_raw, Mapping):
        raise ValueError(f"{where}: 'drug_class_phrases' must map class groups to classes and phrases")
    drug_classes = {}
    for group, entry in classes_raw.items():
        if group.startswith("_"):
            continue
        if not isinstance(entry, Mapping):
            raise ValueError(f"{where}: drug_class_phrases.{group} must give 'classes' and 'phrases'")
        parts = []
        for key in ("classes", "phrases"):
            value = entry.get(key)
            if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
                raise ValueError(f"{where}: drug_class_phrases.{group}.{key} must be a non-empty list of strings")
            parts.append(tuple(value))
        drug_classes[group] = (parts[0], parts[1])
    return MentalEvalCues(
        empathy=CuePhrases(strings("empathy")),
        validation=CuePhrases(strings("validation")),
        reflection=CuePhrases(strings("reflection")),
        dismissive=CuePhrases(strings("dismissive")),
        emotion_words=CuePhrases(strings("emotion_words")),
        open_starts=CuePhrases(strings("open_starts")),
        closed_starts=CuePhrases(strings("closed_starts")),
        leading=CuePhrases(strings("leading")),
        tag_question_words=frozenset(stem(t) for w in strings("tag_question_words") for t in tokenize(w)),
        safety_topics=_labelled({k: v.get("phrases", []) for k, v in topics.items()}),
        safety_topic_concepts={k: frozenset(v.get("concepts", [])) for k, v in topics.items()},
        note_sections={k: tuple(v) for k, v in sections.items()},
        core_sections=core,
        mse_domains=_labelled(mse),
        evidence_markers=CuePhrases(strings("evidence_markers")),
        rule_out_markers=CuePhrases(strings("rule_out_markers")),
        safety_actions=CuePhrases(strings("safety_actions")),
        follow_up=CuePhrases(strings("follow_up")),
        psychoeducation=CuePhrases(strings("psychoeducation")),
        drug_avoid_cues=CuePhrases(strings("drug_avoid_cues")),
        therapy_aliases={" ".join(tokenize(k)): " ".join(tokenize(v)) for k, v in aliases.items()},
        therapy_qualifiers=tuple(str(q).lower() for q in raw.get("therapy_qualifiers", ())),
        limits=dict(limits),
        drug_classes=drug_classes,
        generic_therapy=CuePhrases(strings("generic_therapy") if "generic_therapy" in raw else []),
        drug_avoid_after_cues=CuePhrases(strings("drug_avoid_after_cues") if "drug_avoid_after_cues" in raw else []),
        therapy_topic_skip=tuple(str(w).lower() for w in raw.get("therapy_topic_skip", ())),
        therapy_topic_synonyms={str(k).lower(): tuple(str(w).lower() for w in v)
                                for k, v in (raw.get("therapy_topic_synonyms") or {}).items()},
        drug_warning_cues=CuePhrases(strings("drug_warning_cues") if "drug_warning_cues" in raw else []),
        drug_warning_stop_cues=CuePhrases(strings("drug_warning_stop_cues") if "drug_warning_stop_cues" in raw else []),
        dose_described=CuePhrases(strings("dose_described") if "dose_described" in raw else []),
        continuation=CuePhrases(strings("continuation_cues") if "continuation_cues" in raw else []),
        start_taken=CuePhrases(strings("start_taken_cues") if "start_taken_cues" in raw else []),
        medication_words=CuePhrases(strings("medication_words") if "medication_words" in raw else []),
        quote_topics=_quote_topics(raw.get("note_quote_topics", {}), where),
        checklist_pertinent_domains=frozenset((raw.get("note_checklist") or {}).get("pertinent_domains", ())),
        plan_record_rules=record_rules,
        previous_treatment=CuePhrases(strings("previous_treatment_cues") if "previous_treatment_cues" in raw else []),
        supportive_classes=tuple(
            str(c).lower() for c in (raw.get("plan_supportive_drug_classes") or {}).get("classes", ())
        ),
    )


def _quote_topics(raw: Any, where: str) -> dict[str, frozenset[str]]:
    """``note_quote_topics.labels``: each label (lower-cased) with the stems of the words a quote under it holds."""
    labels = raw.get("labels", {}) if isinstance(raw, Mapping) else None
    if not isinstance(labels, Mapping) or not all(
        isinstance(v, list) and v and all(isinstance(w, str) and w.strip() for w in v) for v in labels.values()
    ):
        raise ValueError(f"{where}: 'note_quote_topics.labels' must map labels to non-empty lists of words")
    return {k.lower(): frozenset(stem(t) for w in v for t in tokenize(w)) for k, v in labels.items()}


@lru_cache(maxsize=1)
def cue_file() -> Mapping[str, Any]:
    """``data/cues.json`` as parsed, read once: the one reader of the file (the readers of its other blocks, in
    :mod:`.features` and :mod:`.precision`, take their block from it; stop 39, the stop-38 review's raw loaders).
    Shared: callers read it and never change it."""
    return json.loads(resources.files(__package__).joinpath("data/cues.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def load_cues() -> MentalEvalCues:
    """The bundled cue lists (cached)."""
    return read_cue_file(cue_file())
