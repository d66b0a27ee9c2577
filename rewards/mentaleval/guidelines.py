"""What the knowledge base says a plan for this case should and should not contain.

:class:`Formulary` finds drugs (names and synonyms of the knowledge base's ``drugs.json``) and
psychotherapies in free text; :func:`case_guideline` gathers, for a case's reference diagnosis, the
first-line drugs and psychotherapies (``disorders.json`` ``treatment``), whether safety measures are
called for, and which drugs are unsafe (``drugs.json`` ``unsafe_with``). Treatment appropriateness is
judged against this view, never against hard-coded drug lists.
"""

from __future__ import annotations

from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mentalhospital_env.knowledge.codes import code_family, normalize_code
from mentalhospital_env.knowledge.critical import load_critical_actions
from mentalhospital_env.knowledge.language import colon_breaks, negated_spans, stem, tokenize
from mentalhospital_env.knowledge.lexicon import load_lexicon

from .cues import CuePhrases, load_cues


def _field(obj: Any, name: str, default: Any = None) -> Any:
    """A field of a knowledge-base record, whether the loader gives objects or mappings."""
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _records(collection: Any) -> list[Any]:
    if collection is None:
        return []
    if isinstance(collection, Mapping):
        return list(collection.values())
    return list(collection)


def _knowledge() -> Any:
    from mentalhospital_env.knowledge import load_knowledge

    return load_knowledge()


@dataclass(frozen=True)
class PlanDrug:
    """A drug found in a plan: its knowledge-base name and whether the plan proposes it (not avoided)."""

    name: str
    proposed: bool


class Formulary:
    """Drug and psychotherapy finder over the knowledge base's names, synonyms and aliases."""

    def __init__(self, drugs: Iterable[Any], therapy_aliases: Mapping[str, str]):
        phrases: list[str] = []
        labels: list[str] = []
        self.unsafe_with: dict[str, tuple[str, ...]] = {}
        for drug in drugs:
            name = _field(drug, "name")
            if not isinstance(name, str):
                continue
            key = name.lower()
            for phrase in (name, *(_field(drug, "synonyms", ()) or ())):
                phrases.append(phrase)
                labels.append(key)
            self.unsafe_with[key] = tuple(normalize_code(c) for c in (_field(drug, "unsafe_with", ()) or ()))
        self._drugs = CuePhrases(phrases, labels)
        self._aliases = dict(therapy_aliases)
        # class groups ("antidepressant", "antipsychotic"): the drugs they hold and the phrases naming them
        self.class_drugs: dict[str, frozenset[str]] = {}
        class_phrases, class_labels = [], []
        for group, (classes, names) in load_cues().drug_classes.items():
            held = frozenset(
                str(_field(d, "name")).lower()
                for d in drugs
                if any(c.lower() in str(_field(d, "drug_class", _field(d, "class", "")) or "").lower() for c in classes)
            )
            self.class_drugs[group] = held
            class_phrases.extend(names)
            class_labels.extend([group] * len(names))
        self._classes = CuePhrases(class_phrases, class_labels)

    def _proposed(self, text: str, finder: CuePhrases) -> dict[str, bool]:
        """Labels of ``finder`` in ``text``, each with whether it is proposed: not with a negation or an avoid cue
        within three tokens before it in its sentence, nor a refusal just after it (``drug_avoid_after_cues``:
        "diazepam is not suitable"), nor after a warning against mixing earlier in its sentence
        (``drug_warning_cues``: "the dangers of mixing opioids with benzodiazepines, pregabalin or alcohol") up to a
        proposing verb, a new clause or a colon (``drug_warning_stop_cues``: "mixing alcohol with methadone, and
        prescribe pregabalin" proposes pregabalin), nor in a
        refused list it continues in its sentence ("avoid benzodiazepines, antidepressants and stimulants"). A
        refusal ends with its sentence: "Avoid lorazepam. Sertraline 50 mg" proposes sertraline (stop 52)."""
        tokens = tokenize(text)
        stemmed = [stem(t) for t in tokens]
        cues = load_cues()
        avoid, after_cues, warnings = cues.drug_avoid_cues, cues.drug_avoid_after_cues, cues.drug_warning_cues
        stops = cues.drug_warning_stop_cues
        colons = colon_breaks(text) if warnings else ()
        negated = negated_spans(tokens)
        opens = _sentence_openings(text, len(tokens))
        out: dict[str, bool] = {}
        previous: tuple[int, bool] | None = None
        for start, end, name in finder.find(stemmed):
            opening = opens[start]
            closing = next((j for j in range(end, len(opens)) if opens[j] != opening), len(stemmed))
            window = stemmed[max(opening, start - 3) : start]
            refused = (
                avoid.any(window)
                or any(opening <= s <= start < e for s, e in negated)
                or bool(after_cues) and after_cues.any(stemmed[end : min(closing, end + 3)])
                or bool(warnings) and _warned(stemmed, opening, start, warnings, stops, colons)
            )
            if not refused and previous is not None and previous[1] and previous[0] > opening:
                gap = stemmed[previous[0] : start]
                refused = not gap or (len(gap) <= 2 and gap[0] in ("and", "or", "nor") and not (stops and stops.any(gap)))
            out[name] = out.get(name, False) or not refused
            previous = (end, refused)
        return out

    def drugs_in(self, text: str) -> list[PlanDrug]:
        """Drugs named in ``text``; one named under a negation or an avoid cue ("avoid", "stop", "not")
        within three tokens before it is not proposed."""
        return [PlanDrug(n, p) for n, p in self._proposed(text, self._drugs).items()]

    def classes_in(self, text: str) -> frozenset[str]:
        """Class groups (``cues.json`` ``drug_class_phrases``) that ``text`` proposes by name ("an SSRI",
        "a cholinesterase inhibitor"), refused ones left out."""
        return frozenset(g for g, proposed in self._proposed(text, self._classes).items() if proposed)

    def therapy_names(self, therapy: str) -> set[str]:
        """The ways a plan may name a knowledge-base psychotherapy: its core phrase (qualifiers such as
        "for psychosis" or "once settled" and parentheses cut off), abbreviations given in parentheses
        ("EMDR", "CBT-I"), and the aliases of ``cues.json`` that lead to the core ("CBT")."""
        low = therapy.lower()
        names = {" ".join(tokenize(a)) for a in re.findall(r"\(([^()]*)\)", low) if len(tokenize(a)) == 1}
        core = re.sub(r"\([^()]*\)", " ", low)
        for qualifier in load_cues().therapy_qualifiers:
            core = core.split(qualifier)[0]
        core = " ".join(tokenize(core))
        if core:
            names.add(core)
        names |= {alias for alias, target in self._aliases.items() if target == core}
        return {n for n in names if n}

    def therapies_in(self, text: str, therapies: Iterable[str]) -> set[str]:
        """Which of ``therapies`` (knowledge-base wording) ``text`` names (see :meth:`therapy_names`)."""
        phrases: list[str] = []
        labels: list[str] = []
        for therapy in therapies:
            for name in self.therapy_names(therapy):
                phrases.append(name)
                labels.append(therapy)
        return CuePhrases(phrases, labels).labels([stem(t) for t in tokenize(text)])


def _warned(stemmed: list[str], opening: int, start: int, warnings: CuePhrases, stops: CuePhrases, colons: Iterable[int]) -> bool:
    """Whether the drug at token ``start`` is inside the list of a warning against mixing said earlier in its sentence
    (from ``opening``): no stop cue (a proposing verb, a new clause) and no colon between the last warning and it."""
    ends = [e for _, e, _ in warnings.find(stemmed[opening:start])]
    if not ends:
        return False
    after = opening + max(ends)
    return not (stops and stops.any(stemmed[after:start])) and not any(after < c <= start for c in colons)


_SENTENCE_BREAK = re.compile(r"(?<=[.;!?])\s+|\n+")


def _sentence_openings(text: str, n: int) -> list[int]:
    """For each of ``text``'s ``n`` tokens, the index of the first token of its sentence (split after '.', ';', '!'
    or '?' and at line breaks); one sentence where the pieces do not tokenize to the whole text's tokens."""
    out: list[int] = []
    for piece in _SENTENCE_BREAK.split(text):
        k = len(tokenize(piece))
        out.extend([len(out)] * k)
    return out if len(out) == n else [0] * n


@lru_cache(maxsize=1)
def load_formulary() -> Formulary:
    """The formulary of the bundled knowledge base (cached)."""
    return Formulary(_records(_field(_knowledge(), "drugs")), load_cues().therapy_aliases)


@dataclass(frozen=True)
class CaseGuideline:
    """The knowledge base's view of a good plan for one case.

    ``first_line`` (drugs) and ``first_line_therapies`` (psychotherapies and other first-line measures
    such as CPAP) are for the principal diagnosis; ``profile`` is what the critical-action rules read of
    the case (``mentalhospital_env.knowledge.critical``); ``other_line`` and
    ``other_therapies`` for the rest of the reference diagnosis; ``unsafe`` maps each drug that is
    unsafe with some reference disorder to those codes; ``safety_needed`` is true when the record
    holds a risk concept (suicidal thoughts, self-harm, violence) not negated, or the case's reference
    plan lists safety measures.
    """

    first_line: frozenset[str]
    other_line: frozenset[str]
    first_line_therapies: tuple[str, ...]
    other_therapies: tuple[str, ...]
    unsafe: Mapping[str, tuple[str, ...]]
    safety_needed: bool
    reference_codes: tuple[str, ...]
    profile: Any = None
    principal_name: str = ""
    principal_specific_drugs: frozenset[str] = frozenset()
    comorbid_treatments: tuple[tuple[str, frozenset[str], tuple[str, ...]], ...] = ()
    """What a plan aimed at the principal disorder names and one aimed at a comorbid one names instead:
    ``principal_specific_drugs`` are the first-line drugs no comorbid disorder of the case shares (fluoxetine serves a
    depression as well as a bulimia, lithium a mania only); ``comorbid_treatments`` holds, per comorbid disorder, its
    name, its drugs and its psychological therapies (``disorders.json`` ``psychotherapy``), each less those the
    principal disorder shares (:func:`.features.plan_targets_other`)."""


def _disorder_entry(kb: Any, code: str) -> Any:
    disorders = _field(kb, "disorders")
    if isinstance(disorders, Mapping):
        return disorders.get(code)
    for entry in _records(disorders):
        if normalize_code(str(_field(entry, "code", ""))) == code:
            return entry
    return None


def _treatment_of(entry: Any) -> tuple[list[str], list[str], list[str]]:
    treatment = _field(entry, "treatment") or {}
    drugs = [str(_field(m, "drug", m)).lower() for m in (_field(treatment, "medications", ()) or ())]
    therapies = [str(t) for t in (_field(treatment, "psychotherapy", ()) or ())]
    therapies += [str(t) for t in (_field(treatment, "other", ()) or ())]  # CPAP, sleep hygiene, ...
    safety = [str(s) for s in (_field(entry, "safety", ()) or ())]
    return drugs, therapies, safety


def _unsafe_for(code: str, unsafe_codes: tuple[str, ...]) -> bool:
    return any(code == u or (len(u) == 3 and code_family(code) == u) for u in unsafe_codes)


_RISK_DOMAINS = frozenset({"risk"})


def case_guideline(case: Any) -> CaseGuideline:
    """Gather the guideline view of ``case`` (see :class:`CaseGuideline`)."""
    kb = _knowledge()
    formulary = load_formulary()
    codes = tuple(normalize_code(c) for c in case.diagnosis.codes)
    first, first_t, other, other_t = set(), [], set(), []
    needs_safety = False
    principal_name = ""
    comorbid: list[tuple[str, set[str], list[str]]] = []
    for i, code in enumerate(codes):
        entry = _disorder_entry(kb, code)
        if entry is None:
            continue
        drugs, therapies, _safety = _treatment_of(entry)
        if i == 0:
            first.update(drugs)
            first_t.extend(therapies)
            principal_name = str(_field(entry, "name", code))
        else:
            other.update(drugs)
            other_t.extend(therapies)
            talking = [str(t) for t in (_field(_field(entry, "treatment") or {}, "psychotherapy", ()) or ())]
            comorbid.append((str(_field(entry, "name", code)), set(drugs), talking))
    # The case's own reference medications are first-line for this patient too.
    for med in case.treatment.medications or ():
        first.add(med.name.lower())
    lexicon = load_lexicon()
    for fact in case.facts:
        for mention in lexicon.find(fact.text):
            if mention.negated:
                continue
            concept = lexicon.get(mention.concept_id)
            if concept.domain in _RISK_DOMAINS:
                needs_safety = True
    if case.treatment.safety:
        needs_safety = True
    unsafe = {
        drug: tuple(c for c in codes if _unsafe_for(c, bad))
        for drug, bad in formulary.unsafe_with.items()
        if any(_unsafe_for(c, bad) for c in codes)
    }
    return CaseGuideline(
        first_line=frozenset(first),
        other_line=frozenset(other - first),
        first_line_therapies=tuple(dict.fromkeys(first_t)),
        other_therapies=tuple(t for t in dict.fromkeys(other_t) if t not in first_t),
        unsafe=unsafe,
        safety_needed=needs_safety,
        reference_codes=codes,
        profile=load_critical_actions().profile(case, read_denials_after=True),
        principal_name=principal_name,
        principal_specific_drugs=frozenset(first - other),
        comorbid_treatments=tuple(
            (name, frozenset(drugs - first), tuple(t for t in talking if t not in first_t)) for name, drugs, talking in comorbid
        ),
    )
