"""Note precision: every claim a note makes about the patient, held against what the patient said.

A claim is a symptom or sign the note states of the patient, present ("reports low mood") or absent ("denies
hearing voices"), outside the plan and not as a disorder's name. The evidence is the encounter: each reply read
as the answer to the question before it, the exam results, what the doctor saw on walking in; and, for signs a
clinician observes (tremor, agitation), the record.

The checker reads the encounter on its own terms, stricter than the clinician's reader
(:func:`~mentalhospital_env.knowledge.answers.read_reply`, which the scripted clinician writes from, so a checker
sharing it could not see the clinician's misreadings): the findings each reply names of the patient; and a bare
answer ("No.", "Not really.", "Yes, most days.", whole: ``cues.json`` ``bare_answers``) to a closed question
("Do you ...?") for the finding whose lexicon question was asked. A reply that opens "I don't ..." or "No idea"
answers nothing by itself, words the reply quotes (a referral letter, a partner) are reported speech, not evidence, an open question ("How have you been sleeping?") is answered only by what the reply
names, and the doctor's own words (a reflection, a question) are never evidence. Agreement with a hand reading
of 31 notes is measured by ``benchmarks/note_claims.py``.

A claim is an error when:

* it asserts a finding the patient denied and never affirmed ("denied by the patient"),
* it records as denied a finding the patient affirmed, whether or not they also denied it ("affirmed by the
  patient": a flat denial misstates a mixed answer),
* it asserts, or records as denied, a finding that never came up ("never came up"); a sign the clinician
  observes (tremor, agitation) may be asserted when the record or the walk-in states it,
* it contradicts the note itself: a finding asserted while the note denies one it implies or goes with
  (the lexicon's ``implies``, ``cues.json`` ``note_contradictions``) ("contradicts the note").

Findings the clinician judges by observing (insight, affect, speech: ``cues.json`` ``observed_findings``) may be
stated without the patient speaking of them, unless the patient said the opposite.

Findings the lexicon links (a suicide plan implies suicidal thoughts; early waking is insomnia) support each
other. Errors about risk (suicidal thoughts, self-harm, harm to others) or psychosis (hallucinations,
delusions) are ``serious``.
"""

from __future__ import annotations

from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from mentalhospital_env.knowledge.answers import asked_about, patient_findings
from mentalhospital_env.knowledge.language import clauses, comma_breaks, load_cues as load_language_cues, memo_size, negation_breaks, sentence_breaks, stem, tokenize
from mentalhospital_env.knowledge.lexicon import lexicon_relations, load_lexicon

from ..chart import Chart, per_encounter
from .features import _disorder_names, ability_findings, denial_list_spans, mentions, note_blocks, unasked_spans

_CLAIM_KINDS = frozenset({"symptom", "sign"})
_SERIOUS_DOMAINS = frozenset({"risk", "psychosis"})


#: the kinds of note-precision error (what ``offline.claim_error_weight`` weighs, with ``asserted``)
CLAIM_ERROR_KINDS = ("denied", "affirmed", "never", "contradicts")


@dataclass(frozen=True)
class ClaimError:
    concept: str
    asserted: str  # "present" or "absent"
    why: str
    serious: bool
    #: why it is wrong, as a key: "denied" (asserted, the patient denied it), "affirmed" (recorded as denied, the
    #: patient affirmed it), "never" (it never came up), "contradicts" (the note denies what it implies)
    kind: str

    def __post_init__(self) -> None:
        if self.kind not in CLAIM_ERROR_KINDS:
            raise ValueError(f"ClaimError.kind {self.kind!r} is not one of {CLAIM_ERROR_KINDS}")


@dataclass(frozen=True)
class NotePrecision:
    """The note's claims about the patient and the errors among them."""

    claims: int
    errors: tuple[ClaimError, ...]

    @property
    def serious(self) -> int:
        return sum(e.serious for e in self.errors)

    @property
    def precision(self) -> float | None:
        """Share of claims without error (``None`` for a note that claims nothing)."""
        return None if not self.claims else 1.0 - len(self.errors) / self.claims

    def to_dict(self) -> dict[str, Any]:
        return {
            "claims": self.claims,
            "errors": len(self.errors),
            "serious_errors": self.serious,
            "precision": self.precision,
            "error_list": [asdict(e) for e in self.errors],
        }


@dataclass(frozen=True)
class Evidence:
    """What the encounter and the record say of each finding."""

    affirmed: frozenset[str]
    denied: frozenset[str]
    record_present: frozenset[str]
    record_absent: frozenset[str]
    disclosed: frozenset[str] = frozenset()  # stated by record facts the patient's replies disclosed


@lru_cache(maxsize=1)
def _links() -> dict[str, frozenset[str]]:
    """Each concept with the concepts that imply it or that it implies, and its ``cues.json``
    ``claim_equivalents`` (either supports the other); an unknown concept id raises ``ValueError``."""
    from .cues import cue_file

    lexicon = load_lexicon()
    out: dict[str, set[str]] = {}
    for entry in lexicon_relations("implies"):
        if isinstance(entry, tuple) and len(entry) == 2:
            a, b = entry
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    raw = cue_file()
    for i, group in enumerate(raw.get("claim_equivalents", {}).get("groups", ())):
        unknown = [c for c in group if c not in lexicon]
        if unknown:
            raise ValueError(f"cues.json: claim_equivalents.groups[{i}] names unknown lexicon concepts {unknown}")
        for c in group:
            out.setdefault(c, set()).update(x for x in group if x != c)
    return {k: frozenset(v) for k, v in out.items()}


@lru_cache(maxsize=1)
def _implies() -> tuple[tuple[str, str], ...]:
    return tuple(e for e in lexicon_relations("implies") if isinstance(e, tuple) and len(e) == 2)


def _implications(concept: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the findings that imply ``concept``, the findings it implies)."""
    pairs = _implies()
    return frozenset(a for a, b in pairs if b == concept), frozenset(b for a, b in pairs if a == concept)


@lru_cache(maxsize=1)
def _equivalence_groups() -> dict[str, frozenset[str]]:
    from .cues import cue_file

    raw = cue_file()
    out: dict[str, set[str]] = {}
    for group in raw.get("claim_equivalents", {}).get("groups", ()):
        for c in group:
            out.setdefault(c, set()).update(x for x in group if x != c)
    return {k: frozenset(v) for k, v in out.items()}


def _equivalents(concept: str) -> frozenset[str]:
    _links()  # validates the groups against the lexicon
    return _equivalence_groups().get(concept, frozenset())


def _with_links(concepts: Iterable[str]) -> frozenset[str]:
    links = _links()
    out = set(concepts)
    for c in list(out):
        out |= links.get(c, frozenset())
    return frozenset(out)


def note_claims(note: str) -> tuple[tuple[str, bool], ...]:
    """``(concept id, asserted present)`` for each finding the note states of the patient (see the module
    docstring), once per concept and polarity."""
    return _note_claims(note)


@lru_cache(maxsize=1)
def _risk_formulation() -> re.Pattern[str] | None:
    """``cues.json`` ``note_claims_read_apart``: a risk the note formulates, the words after a risk lead ("risk of
    accidental overdose") up to a lead end or clause mark, and up to ``risk_tail_words`` words before "risk" ("Overdose
    risk from ..."); ``None`` when the file names no leads."""
    from .cues import cue_file

    raw = cue_file()["note_claims_read_apart"]
    leads = sorted(raw.get("risk_leads", ()), key=len, reverse=True)
    if not leads:
        return None
    lead = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in leads)
    ends = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(raw.get("risk_lead_ends", ()), key=len, reverse=True)) or "(?!)"
    tail = int(raw.get("risk_tail_words", 0))
    parts = [rf"\b(?:{lead})\b.*?(?=\b(?:{ends})\b|[.;,:()\n\u2013\u2014]|\s-\s|$)"]
    if tail:
        parts.append(rf"(?<![\w-])(?:[\w-]+[ \t]+){{1,{tail}}}?(?=risk\b)")
    return re.compile("|".join(parts), re.IGNORECASE)


@lru_cache(maxsize=1)
def _read_apart() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``cues.json`` ``note_claims_read_apart``: (an impression or results line, the topic of a reported question)."""
    from .cues import cue_file

    raw = cue_file()["note_claims_read_apart"]
    heads = "|".join(re.escape(w) for w in sorted(raw["line_headings"], key=len, reverse=True))
    line = re.compile(rf"(?:^|(?<=\n)|(?<=[.;]\s))[ \t]*(?:{heads})[ \t]*(?::|-\s)[^\n]*", re.IGNORECASE)
    leads = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(raw["asked_leads"], key=len, reverse=True))
    ends = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(raw["asked_ends"], key=len, reverse=True))
    asked = re.compile(rf"\b(?:{leads})\b(?=\s+(?!(?:and|or|not|but|{ends})\b)\w).*?(?=\b(?:{ends})\b|[.;,:()\n\u2013\u2014]|\s-\s|$)", re.IGNORECASE)
    return line, asked


def _claim_text(note: str, lines: bool = False) -> str:
    """The note with what is no claim about the patient blanked (``note_claims_read_apart``): the topic of a question
    the note reports ("When asked about intrusive thoughts said ..."), and with ``lines`` an impression or results line
    the section headings do not hold ("Imp: PTSD with nightmares", "Ix: ... pattern suggests vomiting"). Offsets are
    kept."""
    line, asked = _read_apart()
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731
    text = asked.sub(blank, line.sub(blank, note) if lines else note)
    # a risk the note formulates ("Overdose risk from daily opioid use") is the clinician's estimate, not a finding
    risk = _risk_formulation()
    return risk.sub(blank, text) if risk is not None else text


@lru_cache(maxsize=memo_size(1024))
def inferred_only(note: str) -> frozenset[tuple[str, bool]]:
    """The claims ``note`` makes only in an impression or results line (``note_claims_read_apart``): the clinician's
    inference (a diagnosis with its features, a result read), which the encounter need not have raised in words, but
    which may not state what the patient denied."""
    return frozenset(note_claims(note)) - frozenset(_note_claims(note, True))


@lru_cache(maxsize=memo_size(4096))
def _note_claims(note: str, lines: bool = False) -> tuple[tuple[str, bool], ...]:
    out: dict[tuple[str, bool], None] = {}
    # "cannot concentrate" says what "can't concentrate" says: poor concentration, not a denial of concentrating
    for key, text in note_blocks(_claim_text(_CANNOT.sub("can't", note), lines)):
        # the plan speaks of what may come, the assessment names diagnoses, and medical, medication, allergy and
        # family sections hold no psychiatric finding of the patient ("irritable bowel syndrome")
        if key in ("plan", "assessment", "medical_history", "medications", "allergies", "family_history"):
            continue
        for claim in _block_claims(text) + _general_denials(text):
            out[claim] = None
    return tuple(out)


@lru_cache(maxsize=1)
def _general_terms() -> dict[str, tuple[str, ...]]:
    """``cues.json`` ``note_general_denials``: a word the lexicon reads as no finding ("hallucinations") with the
    findings a note's denial of it denies; an unknown concept raises ``ValueError``."""
    from .cues import cue_file

    raw = cue_file()["note_general_denials"]
    lexicon = load_lexicon()
    out = {}
    for word, concepts in raw["terms"].items():
        unknown = [c for c in concepts if c not in lexicon]
        if unknown:
            raise ValueError(f"cues.json: note_general_denials names unknown lexicon concepts {unknown}")
        out[word] = tuple(concepts)
    return out


def _general_peers(concept: str) -> frozenset[str]:
    """The findings a general word denies together with ``concept`` (``note_general_denials``)."""
    return frozenset(c for group in _general_terms().values() if concept in group for c in group if c != concept)


@lru_cache(maxsize=memo_size(1024))
def _general_only(note: str) -> frozenset[str]:
    """The findings ``note`` denies only in a general word ("denies hallucinations"), never in their own words."""
    general: set[str] = set()
    own: set[str] = set()
    for key, text in note_blocks(_claim_text(_CANNOT.sub("can't", note))):
        if key in ("plan", "assessment", "medical_history", "medications", "allergies", "family_history"):
            continue
        general |= {c for c, _ in _general_denials(text)}
        own |= {c for c, _ in _block_claims(text)}
    return frozenset(general - own)


def _general_denials(text: str) -> list[tuple[str, bool]]:
    """The denials a section makes in a general word (``note_general_denials``: "Perception: denies
    hallucinations." denies hearing voices and seeing things), where the word is no part of a finding the lexicon
    reads ("reports auditory hallucinations"), not quoted, and a denial earlier in its sentence reaches it."""
    terms = _general_terms()
    tokens = tokenize(text)
    if not terms or not any(t in terms for t in tokens):
        return []
    spans = [(m.start, m.end) for m in mentions(text)] + _quoted_spans(text)
    starts = sorted({0} | set(sentence_breaks(text)))
    out: list[tuple[str, bool]] = []
    for i, token in enumerate(tokens):
        if token in terms and not any(a <= i < b for a, b in spans) and _denied_in_sentence(tokens, starts, i):
            out += [(c, False) for c in terms[token]]
    return out


def _block_claims(text: str) -> list[tuple[str, bool]]:
    """The claims of one note section, read on their own (whom a clause is about does not carry across
    sections: "Family history: mother has bipolar disorder" says nothing of the mental state after it)."""
    lexicon = load_lexicon()
    found = mentions(text)
    if not found:
        return []
    tokens = tokenize(text)
    names = [(a, b) for a, b, _ in _disorder_names().find([stem(t) for t in tokens])]
    # the patient's own words in quotation marks are a report of what was said, not the note's claim
    quoted = _quoted_spans(text)
    breaks = negation_breaks(text)
    parts = clauses(text)
    sentence_starts = sorted({0} | set(sentence_breaks(text)))
    unasked = unasked_spans(text)
    denied = denial_list_spans(text)
    commas = frozenset(comma_breaks(text))
    out: list[tuple] = []
    said_with_negation: set[tuple[str, int]] = set()
    for m in found:
        if lexicon.get(m.concept_id).kind not in _CLAIM_KINDS:
            continue
        # a disorder's name is a diagnosis, not a finding, unless its words are the finding's own ("Denies
        # insomnia": the symptom, though "insomnia" also names a disorder)
        if any(a < m.end and m.start < b and (a, b) != (m.start, m.end) for a, b in names):
            continue
        if any(a < m.end and m.start < b for a, b in quoted):
            continue
        if any(m.start < b < m.end for b in breaks):
            continue
        clause = next((c for c in parts if c.start <= m.start < c.end), None)
        if clause is not None and clause.subject == "other":
            continue
        sentence = max(s for s in sentence_starts if s <= m.start)
        if set(tokens[max(sentence, m.start - 3) : m.start]) & _others():
            # "believes someone wants to kill him"; never across a sentence ("... about the police and her neighbours.
            # She denies hearing voices" is her denial: stop 38, held_out's note-074 denied the voices she reported
            # and was read as denying nothing)
            continue
        # a finding said with its own negation ("can't concentrate", "unable to sleep") is affirmed: a denial earlier
        # in the sentence does not reach it ("lost weight without trying and can't concentrate")
        following = min([s for s in sentence_starts if s > m.start] or [len(tokens)])
        if not said_plainly(m.concept_id, " ".join(tokens[sentence:following])):
            continue  # "fights when wound up" is anger, not restlessness, in a note as in a reply
        if any(a <= m.start < b for a, b in unasked):
            continue  # "nightmares were not asked about and need asking": neither asserted nor denied
        if m.start < len(tokens) and tokens[m.start] in _OWN_NEGATIONS:
            said_with_negation.add((m.concept_id, sentence))
            out.append((m.concept_id, True))
            continue
        in_denial_list = any(a < m.start < b for a, b in denied)  # a denial heading its sentence: "Denies: A, B, ..., K."
        present = not (m.negated or _denied_in_sentence(tokens, sentence_starts, m.start) or in_denial_list)
        if not present and not in_denial_list and _negation_ends_with_its_item(tokens, commas, sentence_starts, m.start):
            # "low mood daily, no energy, constant guilt, hopelessness": the "no" is one item's, the guilt is affirmed
            present = True
        out.append((m.concept_id, present) if present else (m.concept_id, False, sentence))  # type: ignore[arg-type]
    # "cannot concentrate or follow a TV programme": the negation that makes the first finding reaches the second
    # words of the same finding, which are no denial of it
    return [(c[0], c[1]) for c in out if len(c) == 2 or (c[0], c[2]) not in said_with_negation]  # type: ignore[misc]


@lru_cache(maxsize=1)
def _others() -> frozenset[str]:
    from .cues import cue_file

    raw = cue_file()
    return frozenset(raw["note_claims_not_the_patient"]["subjects"])



def _quoted_spans(note: str) -> list[tuple[int, int]]:
    """Token spans of text in double quotation marks."""
    out = []
    for match in re.finditer(r'["\u201c]([^"\u201d]*)["\u201d]', note):
        start = len(tokenize(note[: match.start()]))
        out.append((start, start + len(tokenize(match.group(0))) + 1))
    return out


_CONTRAST = frozenset({
    "but", "although", "though", "however", "yet", "except", "whereas", "while",
    "says", "said", "reports", "reported", "describes", "described", "states", "stated", "admits", "admitted",
    "endorses", "endorsed", "complains", "feels", "felt",
})
_OWN_NEGATIONS = frozenset({"can't", "cant", "cannot", "couldn't", "unable"})
_NOTE_DENIALS = frozenset({"denies", "denied", "deny", "denying", "no", "not", "never", "nor", "without", "negative"})


def _denied_in_sentence(tokens: list[str], starts: list[int], at: int) -> bool:
    """Whether a denial earlier in the note's sentence reaches the finding at token ``at`` with no contrast
    between ("He denies low mood, sleep problems, appetite change and periods of elevated mood"; "has never
    thought of ending his life or wanted to hurt anyone"; not "no plan but reports voices")."""
    start = max(s for s in starts if s <= at)
    for j in range(at - 1, start - 1, -1):
        if tokens[j] in _CONTRAST:
            return False
        if tokens[j] in _NOTE_DENIALS:
            return True
    return False


@lru_cache(maxsize=1)
def _negation_words() -> frozenset[str]:
    """The one-word negation cues a note's denial may start with: the note's own and ``language.json``'s."""
    return _NOTE_DENIALS | _OWN_NEGATIONS | frozenset(p[0] for p in load_language_cues().negation if len(p) == 1)


def _negation_ends_with_its_item(tokens: list[str], commas: frozenset[int], starts: list[int], at: int) -> bool:
    """Whether the negation before token ``at`` is one comma item's own and ends with that item, so that the finding
    at ``at``, in a later item, is affirmed (stop 42, issue 15). A note lists findings as comma items, each a claim of
    its own: a negation that opens an item in the middle of the list denies that item only ("low mood daily, worse in
    mornings, no energy, constant guilt, hopelessness"; "~5 years, no trigger, persistent low mood, fatigue"), and one
    that makes a finding ("can't sit still, up and down"; "can't get going, isolated") denies nothing after it. A
    denial that opens its sentence or clause ("Denies low mood, anhedonia, ...") still covers the list, and so does one
    whose list closes with "or"/"nor" ("... no suicidal ideation, self-harm or thoughts of harming others")."""
    start = max(s for s in starts if s <= at)
    end = min([s for s in starts if s > at] or [len(tokens)])
    words = _negation_words()
    cue = next((j for j in range(at - 1, start - 1, -1) if tokens[j] in words), None)
    if cue is None or not any(cue < c <= at for c in commas):
        return False  # no negation, or the finding is in the negation's own item
    if tokens[cue] in _OWN_NEGATIONS:
        return True
    if cue not in commas or cue == start:
        return False  # the negation opens its sentence (or follows no comma): it heads the list
    joiners = frozenset(load_language_cues().negation_list_joiners)
    return not any(tokens[k] in joiners for k in range(cue + 1, end))


@lru_cache(maxsize=1)
def _answer_cues() -> tuple[tuple[tuple[str, ...], ...], frozenset[tuple[str, ...]], frozenset[tuple[str, ...]], frozenset[str]]:
    """(fillers longest first, bare no answers, bare yes answers, closed-question openers) of ``cues.json``."""
    from .cues import cue_file

    raw = cue_file()["bare_answers"]

    def phrases(key: str) -> list[tuple[str, ...]]:
        return [tuple(tokenize(p)) for p in raw[key]]

    return (
        tuple(sorted(phrases("fillers"), key=len, reverse=True)),
        frozenset(phrases("no")),
        frozenset(phrases("yes")),
        frozenset(raw["closed_starts"]),
    )


@lru_cache(maxsize=1)
def _thought_answers() -> tuple[frozenset[tuple[str, ...]], frozenset[str]]:
    """(``thought_yes`` answers, ``thought_findings``) of ``cues.json`` ``bare_answers``."""
    from .cues import cue_file

    raw = cue_file()["bare_answers"]
    return frozenset(tuple(tokenize(p)) for p in raw.get("thought_yes", ())), frozenset(raw.get("thought_findings", ()))


def _thought_findings() -> frozenset[str]:
    return _thought_answers()[1]


def bare_answer(reply: str) -> str | None:
    """``"yes"``, ``"no"``, ``"thought"`` (``thought_yes``: "The thought crosses my mind", a yes to a thought only) or
    ``None``: whether the reply's first clause opens with a whole bare answer ("No, not
    really.", "Well, honestly, no."; comma-separated parts, a leading filler set aside); "I do drive." or "No
    idea, sorry." is no bare answer."""
    fillers, no, yes, _ = _answer_cues()
    first = re.split(r"[.!?;]|\s[-\u2013]\s", reply.strip(), maxsplit=1)[0]
    tokens: list[str] = []
    for part in first.split(","):
        tokens += tokenize(part)
        rest = tokens
        stripped = True
        while stripped and rest:
            stripped = False
            for f in fillers:
                if tuple(rest[: len(f)]) == f:
                    rest, stripped = rest[len(f):], True
                    break
        if tuple(rest) in no:
            return "no"
        if tuple(rest) in yes:
            return "yes"
        if tuple(rest) in _thought_answers()[0]:
            return "thought"  # affirms a thought that was asked (suicidal ideation), not an act
    return None


def _closed_question(utterance: str) -> str | None:
    """The utterance's last question, when it is a closed one ("Do you ever hear voices ...?")."""
    *_, closed = _answer_cues()
    questions = [q for q in re.split(r"(?<=[.!?])\s+", utterance.strip()) if q.endswith("?")]
    if not questions:
        return None
    tokens = tokenize(questions[-1])
    return questions[-1] if tokens and tokens[0] in closed else None


_QUOTED = re.compile(r"(?<![A-Za-z])'[^']{2,}?'(?![A-Za-z])|\"[^\"]{2,}?\"")


def _without_quoted(reply: str) -> str:
    """The reply with the words it quotes left out: a referral letter, a partner's or a doctor's words ("GP
    referral: 'Low mood and fatigue'", "she says I 'stop breathing'") are reported speech, not what the patient
    affirms of themself."""
    return _QUOTED.sub(" ", reply)


_CANNOT = re.compile(r"\bcan ?not\b", re.IGNORECASE)


def reply_evidence(question: str, reply: str) -> tuple[frozenset[str], frozenset[str]]:
    """(affirmed, denied): the findings ``reply`` names of the patient, and the finding whose own lexicon question
    a closed ``question`` asked when the reply is a bare yes or no (see the module docstring)."""
    affirmed: set[str] = set()
    denied: set[str] = set()
    reply = _CANNOT.sub("can't", reply)  # "I cannot get to sleep" says what "I can't get to sleep" says
    for concept, negated in patient_findings(_without_quoted(reply)):
        if negated:
            denied.add(concept)
        elif said_plainly(concept, _without_quoted(reply)):
            affirmed.add(concept)
    # a finding told by the ability it takes away ("I can't follow conversations in a group like I used to": poor
    # concentration, which the findings reader reads as denied; stop 38, held_out37's note 662)
    able_not, able = ability_findings(_without_quoted(reply))
    affirmed, denied = (affirmed - able) | able_not, (denied - able_not) | able
    # the finding asked about, described in plain words the findings reader may read as a denial ("Do you ever hear
    # voices ...?" "Nobody else seems to hear them. They talk to each other about what I do."): affirmed
    plain = _plain_affirmations(question, _without_quoted(reply))
    affirmed |= plain
    denied -= plain
    closed = _closed_question(question)
    if closed is not None:
        polarity = bare_answer(reply)
        # the finding whose own question was asked, or the one the closed question names ("Have you had any
        # thoughts of ending your life?")
        named = {m.concept_id for m in mentions(closed)} if not asked_about(closed) else set()
        asked = (set(asked_about(closed)) | named) - affirmed - denied
        if polarity == "yes":
            affirmed |= asked
        elif polarity == "no":
            denied |= asked
        elif polarity == "thought":  # "The thought crosses my mind": a thought that was asked, never an act
            affirmed |= asked & _thought_findings()
    elif bare_answer(reply) == "no" and _only_bare(reply):
        # an open question answered "No." and nothing more: nothing of what was asked
        denied |= set(asked_about(question)) - affirmed - denied
    return frozenset(affirmed), frozenset(denied)


@lru_cache(maxsize=1)
def _plain_word_rules() -> dict[str, re.Pattern[str]]:
    """``cues.json`` ``plain_words``: each finding with the words one of which a text must hold for the findings reader's
    reading of it as that finding to stand; an unknown concept raises ``ValueError``."""
    from .cues import cue_file

    raw = cue_file()["plain_words"]
    lexicon = load_lexicon()
    unknown = sorted(c for c in raw["concepts"] if c not in lexicon)
    if unknown:
        raise ValueError(f"cues.json: plain_words names unknown lexicon concepts {unknown}")
    return {c: re.compile(p, re.IGNORECASE) for c, p in raw["concepts"].items()}


def said_plainly(concept: str, text: str) -> bool:
    """Whether ``text``, read by the findings reader as naming ``concept``, holds the concept's plain words
    (``cues.json`` ``plain_words``; any text for a concept not listed): "after a diagnosis of serious illness" is no
    fear of illness, "fights when I get wound up" no restlessness."""
    pattern = _plain_word_rules().get(concept)
    return pattern is None or bool(pattern.search(text))


@lru_cache(maxsize=1)
def _plain_affirmation_rules() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(concept, pattern) of ``cues.json`` ``plain_affirmations``; an unknown concept raises ``ValueError``."""
    from .cues import cue_file

    raw = cue_file()["plain_affirmations"]
    lexicon = load_lexicon()
    out = []
    for item in raw["items"]:
        if item["concept"] not in lexicon:
            raise ValueError(f"cues.json: plain_affirmations names unknown lexicon concept {item['concept']!r}")
        out.append((item["concept"], re.compile(item["reply"], re.IGNORECASE)))
    return tuple(out)


def _plain_affirmations(question: str, reply: str) -> frozenset[str]:
    """The findings ``question`` asks about that ``reply`` describes in the plain words of ``cues.json``
    ``plain_affirmations`` (read apart from the findings reader the scripted clinician writes its note from)."""
    rules = _plain_affirmation_rules()
    if not rules or not question.strip():
        return frozenset()
    asked = set(asked_about(question)) | {m.concept_id for m in mentions(question)}
    return frozenset(c for c, pattern in rules if c in asked and pattern.search(reply))


def _only_bare(reply: str) -> bool:
    """Whether the reply is a bare answer and nothing more ("No." "Nope, not really.")."""
    fillers, no, yes, _ = _answer_cues()
    tokens = tokenize(reply)
    while tokens:
        f = next((f for f in fillers if tuple(tokens[: len(f)]) == f), None)
        if f is None:
            break
        tokens = tokens[len(f):]
    return tuple(tokens) in no or tuple(tokens) in yes


@per_encounter
def encounter_evidence(case: Any, chart: Chart) -> Evidence:
    """The findings the patient affirmed and denied in the encounter (their replies, the exam results), and
    those the record states present or absent."""
    affirmed: set[str] = set()
    denied: set[str] = set()
    for turn in chart.turns:
        yes, no = reply_evidence(turn.doctor, turn.patient)
        affirmed |= yes
        denied |= no
    for _, result in chart.exam_results:
        affirmed |= {c for c, negated in patient_findings(result) if not negated and said_plainly(c, result)}
    # a reply that disclosed a record fact said it in some words, perhaps ones the reader does not read ("the
    # people on TV send me signals"): the fact's findings back a claim that would otherwise never have come up
    facts = {f.id: f for f in getattr(case, "facts", ())}
    disclosed: set[str] = set()
    for turn in chart.turns:
        for fid in turn.fact_ids:
            if fid in facts:
                disclosed |= {c for c, negated in patient_findings(facts[fid].text) if not negated and said_plainly(c, facts[fid].text)}
    return Evidence(
        affirmed=frozenset(affirmed),
        denied=frozenset(denied),
        record_present=_record_concepts(case, False),
        record_absent=_record_concepts(case, True),
        disclosed=frozenset(disclosed),
    )


_RECORD: dict[int, tuple[Any, frozenset[str], frozenset[str]]] = {}


def _record_concepts(case: Any, negated: bool) -> frozenset[str]:
    hit = _RECORD.get(id(case))
    if hit is None or hit[0] is not case:
        present: set[str] = set()
        absent: set[str] = set()
        texts = [f.text for f in getattr(case, "facts", ())]
        ehr = getattr(case, "ehr", None)
        if ehr is not None:
            texts += [f"{path.split('.')[-1].replace('_', ' ')}: {text}" for path, text in ehr.sections()]
        for text in texts:
            for m in mentions(text):
                if m.negated:
                    absent.add(m.concept_id)
                elif said_plainly(m.concept_id, text):
                    present.add(m.concept_id)
        if len(_RECORD) > 1024:
            _RECORD.clear()
        hit = (case, frozenset(present), frozenset(absent))
        _RECORD[id(case)] = hit
    return hit[2] if negated else hit[1]


@lru_cache(maxsize=1)
def _contradictions() -> tuple[tuple[str, str], ...]:
    """(asserted, denied) pairs that may not stand together in a note."""
    from .cues import cue_file

    raw = cue_file()
    lexicon = load_lexicon()
    pairs = tuple(tuple(p) for p in raw["note_contradictions"]["present_while_denied"])
    unknown = [c for p in pairs for c in p if c not in lexicon]
    if unknown:
        raise ValueError(f"cues.json: note_contradictions names unknown lexicon concepts {unknown}")
    return pairs  # type: ignore[return-value]


_NOW = re.compile(r"\b(?:at present|currently|current|now|at the moment|these days)\b", re.IGNORECASE)


def _denied_now(note: str) -> frozenset[str]:
    """Findings the note denies only for the present ("No current suicidal ideation"; "no suicidal ideation at
    present"): a past affirmation does not make such a denial wrong."""
    out: set[str] = set()
    for sentence in re.split(r"(?<=[.;])\s+", note):
        if _NOW.search(sentence):
            out |= {c for c, present in _block_claims(sentence) if not present}
    return frozenset(out)


@lru_cache(maxsize=1)
def _observed() -> frozenset[str]:
    """Findings the clinician judges by observing (``cues.json`` ``observed_findings``)."""
    from .cues import cue_file

    raw = cue_file()
    concepts = frozenset(raw["observed_findings"]["concepts"])
    unknown = sorted(c for c in concepts if c not in load_lexicon())
    if unknown:
        raise ValueError(f"cues.json: observed_findings names unknown lexicon concepts {unknown}")
    return concepts


@per_encounter
def check_note(case: Any, chart: Chart) -> NotePrecision:
    """Every claim of ``chart.note`` held against the encounter, the record and the note itself (see the module
    docstring)."""
    note = chart.note or ""
    claims = note_claims(note) if note.strip() else ()
    if not claims:
        return NotePrecision(0, ())
    evidence = encounter_evidence(case, chart)
    walk_in = frozenset(m.concept_id for m in mentions(chart.extra.get("walk_in", ""))) if chart.extra else frozenset()
    lexicon = load_lexicon()
    asserted = {c for c, present in claims if present}
    denied_in_note = {c for c, present in claims if not present}
    with_denial = _contradictions()
    now_only = _denied_now(note)
    # risk questions answered "no" whose wording the reader could not tie to a finding
    asked_closed_no = any(
        (q := _closed_question(t.doctor)) is not None and not asked_about(q) and not mentions(q)
        and bare_answer(t.patient) == "no"
        for t in chart.turns
    )
    observed = _observed()
    inferred = inferred_only(note)
    errors = []
    for concept, present in claims:
        # a finding is supported by itself, by a finding that implies it and by its claim equivalents ("early
        # waking" is insomnia); its denial by a denial of itself, of what it implies or of an equivalent ("no
        # obsessions" denies contamination fears). A more general finding never supports a specific one.
        specific, general = _implications(concept)
        equivalent = _equivalents(concept) | {concept}
        said_yes = bool((equivalent | specific) & evidence.affirmed) or concept in walk_in
        said_no = bool((equivalent | general) & evidence.denied)
        # a flat denial is misstated when the patient affirmed the finding itself or a more specific one
        affirmed_itself = bool(({concept} | specific) & evidence.affirmed)
        linked = equivalent | specific
        serious = lexicon.get(concept).domain in _SERIOUS_DOMAINS
        if present:
            clash = sorted(
                {d for a, d in with_denial if a == concept and d in denied_in_note}
                | {d for d in _implications(concept)[1] if d in denied_in_note}
            )
            if clash:
                errors.append(ClaimError(concept, "present", f"contradicts the note ({', '.join(clash)})", serious, "contradicts"))
            elif said_yes:
                continue
            elif said_no:
                errors.append(ClaimError(concept, "present", "denied by the patient", serious, "denied"))
            elif concept in observed or linked & (evidence.disclosed | evidence.record_present) or (concept, True) in inferred:
                # (or the clinician's inference in an impression or results line: "Imp: PTSD with nightmares")
                # the clinician's own observation (insight, affect, speech); or a finding the record states, which
                # the patient may have said in words the reader does not read ("the people on TV send me signals")
                continue
            else:
                errors.append(ClaimError(concept, "present", "never came up", serious, "never"))
        else:
            if affirmed_itself and concept not in now_only:
                errors.append(ClaimError(concept, "absent", "affirmed by the patient", serious, "affirmed"))
            elif not said_no and concept in _general_only(note) and _general_peers(concept) & (evidence.denied | evidence.affirmed):
                # "denies hallucinations" after a voices question answered: the denial stands on what was asked, and
                # the seeing of things it also covers is no claim of its own
                continue
            elif not said_no and concept not in observed and not (asked_closed_no and ({concept} | general) & evidence.record_absent):
                # a negative the record states, when the doctor asked closed questions the patient answered "no",
                # may have been asked and answered in words the reader does not read ("Have you had any thoughts of
                # ending your life or of suicide?" "No, I've got my dog to think about.")
                errors.append(ClaimError(concept, "absent", "never came up", serious, "never"))
    return NotePrecision(len(claims), tuple(errors))


def omitted_findings(case: Any, chart: Chart) -> tuple[str, ...]:
    """Findings the patient affirmed in the encounter (as this module reads it) that the note never mentions, in
    any words or polarity: what a supervisor would find missing. Sorted, once each."""
    note = chart.note or ""
    if not note.strip():
        return ()
    evidence = encounter_evidence(case, chart)
    lexicon = load_lexicon()
    named: set[str] = set()
    for m in mentions(note):
        named |= {m.concept_id} | _implications(m.concept_id)[0] | _equivalents(m.concept_id)
    return tuple(
        sorted(
            c
            for c in evidence.affirmed
            if c in lexicon and lexicon.get(c).kind in _CLAIM_KINDS and c not in named
        )
    )


__all__ = [
    "ClaimError", "Evidence", "NotePrecision", "bare_answer", "check_note", "encounter_evidence", "note_claims",
    "omitted_findings",
    "reply_evidence",
]
