"""When a told fact of a longitudinal record holds: the moment of the encounter, and the states a later entry supersedes.

Real records span time: a ward chart runs from admission to discharge, a GP record over years, a letter series over
months; the patient is interviewed once, at the record's latest entry (a ward chart on the morning of discharge, a GP
record after its last consultation). A state an early entry tells ("Poor sleep for 3 weeks ('he does not sleep at
all')", "2nd-person AH", "Aggressive behaviour for 2 weeks") that a later entry speaks of again ("slept 7 hrs", "no
auditory hallucinations in 3 days", "no aggression for 8 days") is over by then; said in the present at discharge it
is the admission told as now (uw-027, coded by a psychiatrist: 7 of 35 replies).

:func:`encounter_pass` reads the record's dated entries from the narrative alone (``chronology.json``): a line that
opens on a date is an entry (or, dated before the entry it stands in, an event the entry tells); the chart's spine is
the section with the most entries, its first entry the admission and its latest the encounter (or a later date the
record gives the interview: "Seen on the ward on day 12 (13/11/2026)"); "On admission:", "In the EU:", "Day 12
(13/11):", "Condition at discharge:" date their own sentences. Each told fact of a state (a topic of the kinds
``state_topic_kinds``) is dated by the sentence it came from; when a later dated clause, up to the encounter, in any
section, told or not, is filed under the same topic, the fact is ``time: past`` and, when its rendering is in the
present, it is said in the past with when it held and what became of it: "When I came in, I didn't sleep at all."
... "When I came in, I heard God talking to me. That's settled now." Facts with no date of their own (a personal
history, an undated letter) and states no later entry speaks of stay as they are.

spaCy runs here, at compile time only (the past tense is read from the rendering's parse).
"""

from __future__ import annotations

import datetime as _dt
import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Any

from .model import EHR, Fact

__all__ = ["carried_list_label", "dated_quote_pass", "encounter_pass", "read_date", "record_moment"]


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return json.loads(resources.files(__package__).joinpath("chronology.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def _date_patterns() -> tuple[re.Pattern[str], ...]:
    d = _data()
    month = "(?P<month>" + "|".join(sorted(d["months"], key=len, reverse=True)) + r")\.?"
    day = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
    year = r"(?P<year>(?:19|20)\d\d)"
    wd = d["weekday_pattern"]
    return tuple(re.compile(wd + p, re.IGNORECASE) for p in (
        rf"{year}-(?P<mnum>\d{{1,2}})-{day}\b",  # 2026-11-29
        rf"{day}[-\s]{month}(?:[-\s,]+{year})?\b",  # 2 November 2026, 03-Dec-2026, 30 Nov
        rf"{month}\s+{day}(?:,?\s+{year})?\b",  # Dec 1, 2026
        rf"{day}/(?P<mnum>\d{{1,2}})(?:/(?P<yy>\d{{2}}|\d{{4}}))?(?![\d/])",  # 13/11, 13/11/2026
        rf"{month}\s+{year}\b",  # November 2026
        rf"{year}\b(?!\s*(?:mg|ml|units?|kg|g)\b)",  # 2019:
    ))


def read_date(text: str, year: int | None = None, order: str = "day") -> tuple[int, int] | None:
    """The date ``text`` opens on, as (day ordinal, end of the date in ``text``), or ``None``. A date without a year
    takes ``year``; a month alone is its 15th, a year alone its 1 July.

    >>> [read_date(s, 2026)[0] == _dt.date(*d).toordinal() for s, d in (("2 November 2026 (Mon) 21:15 EU", (2026, 11, 2)),
    ...  ("30 Nov: Endocrinology", (2026, 11, 30)), ("Dec 1, 2026 14:30", (2026, 12, 1)), ("2026-11-29 14:20", (2026, 11, 29)),
    ...  ("Fri 13/11 21:10", (2026, 11, 13)), ("2019: low mood", (2019, 7, 1)))]
    [True, True, True, True, True, True]
    """
    for p in _date_patterns():
        m = p.match(text)
        if not m:
            continue
        g = m.groupdict()
        y = int(g["year"]) if g.get("year") else None
        if g.get("yy"):
            y = int(g["yy"]) + (2000 if len(g["yy"]) == 2 else 0)
        y = y or year
        if y is None:
            return None
        if g.get("month"):
            mo = _data()["months"][g["month"].lower()]
        elif g.get("mnum"):
            mo = int(g["mnum"])
        else:
            mo = None
        dd = int(g["day"]) if g.get("day") else None
        if g.get("mnum") and dd is not None and "/" in m.group(0) and order == "month":
            dd, mo = mo, dd
        try:
            when = _dt.date(y, mo or 7, dd or (15 if mo else 1))
        except ValueError:
            continue
        return when.toordinal(), m.end()
    return None


@dataclass(frozen=True)
class _Sentence:
    section: str
    start: int
    end: int
    text: str
    date: int | None


@dataclass(frozen=True)
class _Clause:
    date: int
    topic: str
    status: str | None  # "resolved", "better", "still" or None
    state: bool = True  # a told state of the patient's, not the writer's advice, plan, leaflet or review of the topic
    denied: bool = False  # a clause that denies ("No voices", "Never heard voices")
    words: frozenset[str] = frozenset()  # what the clause speaks of: its lexicon concepts and content stems


def _lines(text: str) -> list[tuple[int, str]]:
    out, at = [], 0
    for line in text.split("\n"):
        out.append((at, line))
        at += len(line) + 1
    return out


def _line_date(line: str, year: int | None, order: str) -> int | None:
    found = read_date(line.lstrip(), year, order)
    if not found:
        return None
    at, end = found
    rest = line.lstrip()[end:]
    # a date that opens a sentence of prose ("2 weeks after ...", "2019 was when he first heard voices.") is no stamp:
    # a stamp is followed by a time, a bracket, a colon, a dash or a capitalised label; the entry's own words in lower
    # case only after a numeric date ("02/06/26 candesartan 8 mg x90", a dispensing list), never after a year or a
    # month's name, which open prose; a bare number is never read here (read_date needs a month, a slash or a year)
    if re.match(r"\s*(?:\d|\(|:|-|–|[A-Z]|$)", rest):
        return at
    if re.match(r"\s*[a-z]", rest) and re.match(_data()["weekday_pattern"] + r"\d{1,4}[/-]\d", line.lstrip(), re.IGNORECASE):
        return at
    return None


def _phase(sentence: str, admission: int | None, encounter: int | None, year: int | None,
           order: str, data: dict[str, Any]) -> tuple[int | None, int]:
    """The moment a sentence's own words put it at (an admission cue, an encounter cue, a hospital day), and where in
    the sentence that cue stands (-1 for none)."""
    found: list[tuple[int, int | None]] = []
    for cue in data["admission_cues"]:
        if (m := re.search(cue, sentence, re.IGNORECASE)) and admission is not None:
            found.append((m.start(), admission))
    for cue in data["encounter_cues"]:
        if (m := re.search(cue, sentence, re.IGNORECASE)) and encounter is not None:
            found.append((m.start(), encounter))
    for m in re.finditer(data["day_cue"], sentence, re.IGNORECASE):
        when = read_date(m.group(2), year, order) if m.group(2) else None
        if when:
            found.append((m.start(), when[0]))
        elif admission is not None and 0 < int(m.group(1)) < 400:
            found.append((m.start(), admission + int(m.group(1)) - 1))
    if not found:
        return None, -1
    at, when = min(found, key=lambda x: x[0])
    return when, at


def _dated(texts: dict[str, str], order: str, data: dict[str, Any]) -> tuple[list[_Sentence], int | None, int | None]:
    """Every sentence of the record with the day it speaks of (``None`` where the record does not say), the admission
    (the spine's first entry) and the encounter (its latest, or a later day the record names). A sentence of another
    section with dated lines of its own (a past history's "2013 (age 14): cutting began ...") is dated as evidence but
    is no state the admission found (:func:`_history_sections`)."""
    from .derive import split_sentences

    # first pass: the entries of each section (lines that open on a date not before the entry they follow)
    entries = {section: [when for when, _at in found] for section, found in _entries(texts, order).items()}
    if not entries:
        return [], None, None
    spine = max(entries, key=lambda s: len(entries[s]))
    if len(entries[spine]) < 2:
        return [], None, None
    admission, encounter = entries[spine][0], max(entries[spine])
    year0 = _dt.date.fromordinal(encounter).year
    # a day the record names for the interview ("Seen on the ward on day 12 (13/11/2026), the morning of discharge")
    for text in texts.values():
        for m in re.finditer(data["day_cue"], text, re.IGNORECASE):
            when = read_date(m.group(2), year0, order) if m.group(2) else None
            if when and encounter < when[0] <= encounter + 2:
                encounter = when[0]
    out: list[_Sentence] = []
    for section, text in texts.items():
        year, current = None, None
        for at, line in _lines(text):
            if not line.strip():
                continue
            when = _line_date(line, year or year0, order)
            if when is not None:
                year = _dt.date.fromordinal(when).year
                if current is None or when >= current:
                    current = when
                line_date = when
            else:
                line_date = current
            phase: int | None = None
            cursor = 0
            for sentence in split_sentences(line):
                i = line.find(sentence[:20], cursor)
                i = cursor if i < 0 else i
                cursor = i + len(sentence)
                cue, _where = _phase(sentence, admission, encounter, year or year0, order, data)
                if cue is not None:
                    phase = cue
                date = phase if phase is not None else line_date
                out.append(_Sentence(section, at + i, at + i + len(sentence), sentence, date))
    return out, admission, encounter


def _entries(texts: dict[str, str], order: str) -> dict[str, list[tuple[int, int]]]:
    """Each section's entries, (date, where its line starts): the lines that open on a date not before the entry they
    follow."""
    entries: dict[str, list[tuple[int, int]]] = {}
    for section, text in texts.items():
        year, current = None, None
        for at, line in _lines(text):
            if not line.strip():
                continue
            when = _line_date(line, year, order)
            if when is None:
                continue
            year = _dt.date.fromordinal(when).year
            if current is None or when >= current:
                current = when
                entries.setdefault(section, []).append((when, at))
    return entries


def _is_admission(texts: dict[str, str], order: str, data: dict[str, Any]) -> bool:
    """Whether the record is an admission's chart: its opening (the spine's text up to its second entry: the chart's
    heading and its first entry) says so (admission_record_cues, in any case: "ADMISSION CLERKING", "Ward 7 notes").
    Read nowhere else, and never in a sentence that names an earlier year or a past admission
    (admission_record_past): a GP consultation's "Admitted to ward 5 in 2015 after overdose", a letter's "She was
    admitted in 2019" are the history of a record that is no admission (stop 54's review: "When I came in, I didn't
    sleep well. It's better now." of a GP record)."""
    from .derive import split_sentences

    entries = _entries(texts, order)
    if not entries:
        return False
    spine = max(entries, key=lambda s: len(entries[s]))
    found = entries[spine]
    text = texts[spine]
    opening = text[:found[1][1]] if len(found) > 1 else text
    first_year = _dt.date.fromordinal(found[0][0]).year
    cues = [re.compile(p, re.IGNORECASE) for p in data["admission_record_cues"]]
    past = [re.compile(p, re.IGNORECASE) for p in data["admission_record_past"]]
    for line in opening.split("\n"):
        for sentence in split_sentences(line):
            if not any(c.search(sentence) for c in cues):
                continue
            if any(int(y) < first_year for y in re.findall(r"\b((?:19|20)\d\d)\b", sentence)):
                continue
            if any(p.search(sentence) for p in past):
                continue
            return True
    return False


def _history_sections(texts: dict[str, str], order: str) -> frozenset[str]:
    """The sections, other than the spine (the one with the most dated entries), whose lines open on dates of their
    own: a past history by year ("2013 (age 14): cutting of forearms began ..."), never the states the admission found."""
    counts: dict[str, int] = {}
    for section, text in texts.items():
        year = None
        for _at, line in _lines(text):
            when = _line_date(line, year, order) if line.strip() else None
            if when is not None:
                year = _dt.date.fromordinal(when).year
                counts[section] = counts.get(section, 0) + 1
    if not counts:
        return frozenset()
    spine = max(counts, key=lambda s: counts[s])
    return frozenset(counts) - {spine}


@lru_cache(maxsize=1)
def _state_topics() -> frozenset[str]:
    from mentalhospital_env.patient.understanding import load_taxonomy

    d = _data()
    tax = load_taxonomy()
    return frozenset(t.id for t in tax.topics if t.kind in d["state_topic_kinds"]) - set(d["state_topics_not"])


def _status(clause: str, data: dict[str, Any], section: str, topics: set[str]) -> str | None:
    """What a clause says of a state of ``topics``: "still", "resolved", "better" or nothing. A clause that opens on a
    negation says it has gone only when what it negates is filed under the state's topic ("No voices", "not hearing
    voices now"): "Not sleeping", "No change in voices" say it goes on (still_cues)."""
    from mentalhospital_env.patient.understanding import record_topics

    if any(re.search(p, clause, re.IGNORECASE) for p in data["still_cues"]):
        return "still"
    if any(re.search(p, clause, re.IGNORECASE) for p in data["resolved_cues"]):
        return "resolved"
    if (m := re.match(data["absent_cue"], clause, re.IGNORECASE)) and not re.match(
            data["absent_cue_not_this"], m.group("what"), re.IGNORECASE):  # "No other voices": not this one
        what = " ".join(re.findall(r"[\w'-]+", m.group("what"))[:data["absent_cue_words"]])
        if set(record_topics(section, what)) & topics:
            return "resolved"
    if any(re.search(p, clause, re.IGNORECASE) for p in data["better_cues"]):
        return "better"
    return None


def _clauses(sentences: list[_Sentence], encounter: int, data: dict[str, Any],
             states: frozenset[str] | None = None, record: bool = False,
             carried: frozenset[tuple[str, int]] = frozenset(), where: bool = False) -> list:
    """Each dated clause's state topics (``states``, the state topics by default) and what it says of them. A clause is
    no state of the patient's where it is the writer's act on the topic (``record_not_state_cues``: advice given, a
    review planned, a leaflet, 'discussed') or a label before a colon ("Self-harm: discussed"); in a ``record`` (the
    record pass) each clause carries what it speaks of (_the_thing). In a sentence of ``carried`` (section, start: the
    encounter's own examination, record_encounter_sections) a clause of no state topic that says the state went or
    eased gives that word to the clause before it ("Passive death wishes in August, gone since October")."""
    from mentalhospital_env.patient.understanding import record_topics

    if states is None:
        states = _state_topics()
    acts = [re.compile(p, re.IGNORECASE) for p in data["record_not_state_cues"]]
    out: list[_Clause] = []
    spoken: list[tuple[str, int]] = []  # each clause's sentence (section, start), read with ``where``
    for s in sentences:
        if s.date is None or s.date > encounter:
            continue
        body = re.sub(r"\([^()]*\)", " ", s.text)
        before: list[int] = []  # where the clauses of the clause before stand in ``out``
        for clause, sep in re.findall(r"(.+?)([,;]\s+|\s+-\s+|:\s+|$)", body):
            if len(re.findall(r"[A-Za-z]+", clause)) < data["state_clause_min_words"]:
                continue
            state = not sep.startswith(":") and not any(a.search(clause) for a in acts)
            denied = bool(re.match(data["absent_cue"], clause, re.IGNORECASE)) or any(
                re.search(p, clause, re.IGNORECASE) for p in data["record_lasting_cues"])
            topics = set(record_topics(s.section, clause)) & states
            if (s.section, s.start) in carried and not topics:
                said = _status(clause, data, s.section, set())
                if said in ("resolved", "better"):
                    for k in before:
                        if out[k].status is None:
                            out[k] = replace(out[k], status=said)
                    continue
            words = _the_thing(clause, data) if record and topics else frozenset()
            before = []
            for topic in topics:
                before.append(len(out))
                out.append(_Clause(s.date, topic, _status(clause, data, s.section, {topic}), state, denied, words))
                spoken.append((s.section, s.start))
    return list(zip(out, spoken)) if where else out


def _the_thing(text: str, data: dict[str, Any]) -> frozenset[str]:
    """What ``text`` speaks of: its lexicon concepts and its content stems (not record_same_thing_not_words)."""
    from mentalhospital_env.knowledge.language import stems_of
    from mentalhospital_env.knowledge.lexicon import load_lexicon

    skip = set(data["record_same_thing_not_words"])
    own = {w for w in stems_of(text) if len(w) >= 3 and w.isalpha() and w not in skip}
    return frozenset(own) | {f"concept:{c}" for c in load_lexicon().concepts_in(text)}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"['\u2018\u2019\u201c\u201d\"]", "", text)).strip().lower()


def _locate(facts: list[Fact], sentences: list[_Sentence]) -> dict[int, int | None]:
    """Each fact's date: the sentence of its section its text is found in, searched in order from the last fact's."""
    return {k: (s.date if s is not None else None) for k, s in _locate_sentences(facts, sentences).items()}


def _locate_sentences(facts: list[Fact], sentences: list[_Sentence]) -> dict[int, _Sentence | None]:
    """Each fact's sentence of the record (see :func:`_locate`)."""
    by_section: dict[str, list[_Sentence]] = {}
    for s in sentences:
        by_section.setdefault(s.section, []).append(s)
    normed = {id(s): _norm(s.text) for s in sentences}
    cursor: dict[str, int] = {}
    out: dict[int, _Sentence | None] = {}
    for k, f in enumerate(facts):
        own = by_section.get(f.section, [])
        if not own:
            out[k] = None
            continue
        whole = _norm(re.sub(r"^[^:]{1,40}:\s+", "", f.text))
        # a clause the compiler gave its sentence's subject ("he denied thoughts of harming himself today" from "...: he
        # said he 'was asking for a friend', denied thoughts ...", uw-034) is found by its own words after it
        bare = re.sub(r"^(?:he|she|they)\s+", "", whole)
        start = cursor.get(f.section, 0)
        hit = None
        for probe in dict.fromkeys((whole[:40], bare[:40])):
            hit = next((i for i in range(start, len(own)) if probe and probe in normed[id(own[i])]), None)
            if hit is None:
                hit = next((i for i in range(len(own)) if probe and probe in normed[id(own[i])]), None)
            if hit is not None:
                break
        if hit is None:
            out[k] = None
            continue
        cursor[f.section] = hit
        out[k] = own[hit]
    return out


# --- the past tense -------------------------------------------------------------------------------------------------

_BE_PAST = {"am": "was", "'m": " was", "is": "was", "'s": " was", "are": "were", "'re": " were"}


def _past_tense(says: str, data: dict[str, Any]) -> str:
    """``says`` with its present verbs put in the past, read by the parse: "I don't sleep at all. I'm singing" -> "I
    didn't sleep at all. I was singing"; "I've had" -> "I'd had"; "I hear" -> "I heard"; "can't" -> "couldn't"."""
    from lemminflect import getInflection, getLemma

    from .compile import _nlp

    doc = _nlp()(says)
    modal = data["modal_past"]
    out: list[str] = []
    for t in doc:
        word, ws = t.text, t.whitespace_
        low = t.lower_
        if t.tag_ in ("VBP", "VBZ") or (t.tag_ == "MD" and low in modal):
            if t.tag_ == "MD":
                word = modal[low]
            elif low in ("'s", "has", "have", "'ve") and t.i + 1 < len(doc) and doc[t.i + 1].lower_ == "been":
                word = "'d" if low.startswith("'") else "had"  # "It's been going on" -> "It'd been going on", never "it was been"
            elif t.lemma_ == "be":
                word = _BE_PAST.get(low, "was" if t.tag_ == "VBZ" else "were")
                if word.startswith(" ") and out and out[-1].endswith(" "):
                    word = word.lstrip()
            elif t.lemma_ == "have" and t.dep_ == "aux":
                word = "'d" if low in ("'ve", "'s") else "had"
            elif t.lemma_ == "do" and (t.dep_ == "aux" or any(c.dep_ == "neg" for c in t.head.children)):
                word = "did"
            elif t.lemma_ == "have":
                word = " had" if low.startswith("'") else "had"
            else:
                # the tagger's lemma is at times the word itself ("forgot", "says" in "Slot empty, says taken"): its
                # inflection garbled it ("forgoted", "saysed"); lemminflect's own lemma is read then, and a word already
                # in the past ("forgot") is kept
                lemma = t.lemma_
                if lemma.lower() == low:
                    lemma = (getLemma(low, upos="VERB") or (lemma,))[0]
                past = getInflection(lemma, tag="VBD")
                word = past[0] if past and low not in {p.lower() for p in past} else word
            if t.text[:1].isupper():
                word = word[:1].upper() + word[1:]
        out.append(word + ws)
    text = "".join(out)
    for now, then in data["now_words"].items():
        text = re.sub(rf"\b{re.escape(now)}\b", then, text)
    return re.sub(r" {2,}", " ", text)


def _subject_of(t) -> bool:
    """Whether a verb has a subject of its own or through the verb it is conjoined to (a bare "Attributes illness to
    stress" is the chart's shorthand, never put in the past: the tagger reads it as a verb with no one doing it)."""
    v = t.head if t.dep_ in ("aux", "auxpass") else t
    for _ in range(6):
        if any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in v.children):
            return True
        if v.dep_ != "conj" or v.head is v:
            return False
        v = v.head
    return False


def _presents(says: str) -> bool:
    """Whether the rendering tells a state in the present that can be put in the past: a present verb with a subject
    (every one has one), other than a perfect's "have" alone ("I've been arrested" is what happened, not a state;
    "I've had aggressive behaviour for 2 weeks" says how long it has lasted, and is one)."""
    from .compile import _nlp

    doc = _nlp()(says)
    modal = _data()["modal_past"]
    present = [t for t in doc if t.tag_ in ("VBP", "VBZ") or (t.tag_ == "MD" and t.lower_ in modal)]
    if not present or not all(_subject_of(t) for t in present):
        return False
    lasting = re.search(r"\b(?:for|since)\b", says, re.IGNORECASE) is not None
    return any(not (t.lemma_ == "have" and t.dep_ == "aux" and t.head.tag_ == "VBN") or lasting for t in present)


def _says_its_time(says: str) -> bool:
    """Whether the rendering names when it held itself (a point: "in June", "at 19", "three weeks ago", a year)."""
    from mentalhospital_env.patient.timeline import _patterns

    p = _patterns()
    return bool(p["ago"].search(says) or p["point"].search(says) or p["age"].search(says)
                or re.search(r"\b(?:19|20)\d\d\b|\bwhen I (?:was|came)\b|\bback then\b|\bat the time\b", says, re.IGNORECASE))


def _frame(date: int, admission: int | None, encounter: int, admitted: bool, data: dict[str, Any]) -> str:
    if admitted and admission is not None and date <= admission:
        return data["frame_admission"]
    days = encounter - date
    when = _dt.date.fromordinal(date)
    for bound, frame in data["frames_by_days"]:
        if days <= bound:
            return frame.format(month=when.strftime("%B"), year=when.year)
    return ""


def _framed(says: str, frame: str) -> str:
    if not frame:
        return says
    first = says[:1].lower() + says[1:] if not re.match(r"I\b|I'", says) else says
    return frame + first


def record_moment(ehr: EHR, record_order: str) -> int | None:
    """The day the record is interviewed at, as an ordinal: its spine's latest entry (the section with the most lines
    that open on a date), or ``None`` for a record with no dated entry. A medication screen's "last issued" is read
    against it (compile._medicines)."""
    from .compile import disclosure_gates, expand_abbreviations

    texts = {section: disclosure_gates(expand_abbreviations(text, record_order))[0] for section, text in ehr.sections()}
    entries = _entries(texts, record_order)
    if not entries:
        return None
    spine = max(entries, key=lambda s: len(entries[s]))
    return max(when for when, _at in entries[spine])


def dated_quote_pass(facts: list[Fact], ehr: EHR, record_order: str) -> list[Fact]:
    """A quotation the record dates by its own label ("(15/03/2026, to night staff): 'I want to be with Mum in the
    sky.'" in uw-030's chief complaint, ``dated_quote_label``) is what the patient said then: dated more than
    ``record_recent_days`` before the encounter (:func:`record_moment`), a rendering in the present is told in the past
    with when it held ("Back in March, I wanted to be with my mum in the sky."), never as now; his key worker said it to
    a question about his days in December."""
    data = _data()
    moment = record_moment(ehr, record_order)
    if moment is None:
        return facts
    label = re.compile(data["dated_quote_label"])
    alone = re.compile(data["dated_quote_label_alone"])
    out: list[Fact] = []
    pending: re.Match | None = None  # a bare dated label compiled as a fact of its own, before its quotation
    for f in facts:
        m = label.match(f.text.strip()) if f.told and f.patient_says and f.time != "past" else None
        if m is None and pending is not None and f.told and f.patient_says and f.time != "past" and re.match(
                r"['\u2018\u201c\"]", f.text.strip()) and out and out[-1].section == f.section:
            m = pending
        pending = alone.match(f.text.strip())
        found = read_date(m.group("date").strip(), _dt.date.fromordinal(moment).year, record_order) if m else None
        if found and moment - found[0] > data["record_recent_days"] and _presents(f.patient_says or ""):
            said = _past_tense(f.patient_says or "", data)
            f = replace(f, time="past", patient_says=said if _says_its_time(said) else _framed(
                said, _record_frame(found[0], moment, data)))
        out.append(f)
    return out


def encounter_pass(facts: list[Fact], ehr: EHR, record_order: str) -> list[Fact]:
    """``facts`` with the states a later entry supersedes told as past (see the module's docstring)."""
    from .compile import disclosure_gates, expand_abbreviations

    data = _data()
    texts = {section: disclosure_gates(expand_abbreviations(text, record_order))[0] for section, text in ehr.sections()}
    sentences, admission, encounter = _dated(texts, record_order, data)
    if encounter is None:
        return facts
    states = _state_topics()
    # a denial is a state too ("He does not sleep at all" is filed as ruling sleep out)
    candidates = [k for k, f in enumerate(facts) if f.told and f.patient_says
                  and f.time != "past" and f.relative is None and set(f.topics) & states]
    if not candidates:
        return facts
    clauses = _clauses(sentences, encounter, data)
    dates = _locate(facts, sentences)
    admitted = _is_admission(texts, record_order, data)
    if not admitted:
        return _record_pass(facts, ehr, texts, sentences, encounter, record_order, data)
    history = _history_sections(texts, record_order)
    lasting = [re.compile(p, re.IGNORECASE) for p in data["lasting_cues"]]
    out = list(facts)
    for k in candidates:
        f, when = facts[k], dates.get(k)
        if f.section in history:
            continue  # "2016 (age 17): ...", "thigh cutting continuing to date" (uw-017): a past history's, not the admission's
        if when is None or when >= encounter or when > admission + data["admission_window_days"]:
            continue  # only the state the admission found (a later clerking's history of habits is no such state)
        if any(p.search(f.text) for p in lasting):
            continue  # "chronic passive thoughts ... since a teenager", "usually after a good night out": a pattern
        later = [c for c in clauses if when < c.date and c.topic in f.topics]
        if not later:
            continue
        last = max(c.date for c in later)
        kinds = {c.status for c in later if c.date == last}
        if "still" in kinds:
            continue  # "Still hearing voices", "Voices persist", "No change in voices": the state goes on, told as now
        if _status(f.text, data, f.section, set(f.topics)) in ("better", "resolved") and kinds <= {"better", "resolved"}:
            continue  # "Sleeping 6-7 hrs x 4 nights" the day before "Condition at discharge: sleeping 6-7 hrs": it goes on
        status = "resolved" if "resolved" in kinds else "better" if "better" in kinds else None
        says = f.patient_says or ""
        if _presents(says):
            said = _past_tense(says, data)
            if not _says_its_time(said) and not re.search(data["span_pattern"], said, re.IGNORECASE):
                # a state that says how long it lasted is past enough in the past tense ("I was wandering, spending money
                # anyhow for 2 weeks."): two or three such in one reply each framed read "and when I came in, ... and
                # when I came in, ..." (uw-027, stop 54)
                said = _framed(said, _frame(when, admission, encounter, admitted, data))
            tail = data["tails"].get(status or "")
            if tail:
                said = f"{said.rstrip()} {tail}" if said.rstrip().endswith((".", "!", "?")) else f"{said.rstrip()}. {tail}"
            out[k] = replace(f, time="past", patient_says=said)
        else:
            out[k] = replace(f, time="past")
    return out


_HEADING = "\x1f"  # the end of a carried label that came from a heading alone (carried_list_label)


def _span_ended(text: str, year: int, encounter: int, order: str, data: dict[str, Any]) -> bool:
    """Whether ``text`` names a span of dates that ended before the encounter ("fit for work with amended duties
    19/10-15/11/2026" told on 06/12: a fit note that has run out)."""
    for m in re.finditer(data["span_dates_pattern"], text):
        end = read_date(m.group("end"), year, order)
        if end is not None and end[0] < encounter:
            return True
    for m in re.finditer(data["span_for_pattern"], text):
        # "not fit for work for 4 weeks from 19 October 2026": the span's start and its length
        start = read_date(m.group("start") or m.group("start2"), year, order)
        days = int(m.group("n") or m.group("n2")) * data["span_units"][(m.group("unit") or m.group("unit2")).lower()]
        if start is not None and start[0] + days < encounter:
            return True
    return False


def _record_frame(when: int, encounter: int, data: dict[str, Any]) -> str:
    """When an entry of a record that is no admission held, said from the encounter ("In May, ", "Last week, ")."""
    frame = _frame(when, None, encounter, False, data)
    if _dt.date.fromordinal(when).year == _dt.date.fromordinal(encounter).year and "{year}" in data["frames_by_days"][-1][1]:
        frame = frame if frame != data["frames_by_days"][-1][1].format(month="", year=_dt.date.fromordinal(when).year) else \
            data["frames_by_days"][-2][1].format(month=_dt.date.fromordinal(when).strftime("%B"), year="")
    return frame


def _said_past(f: Fact, when: int, encounter: int, status: str | None, data: dict[str, Any]) -> Fact:
    """``f`` told in the past: a rendering in the present put in the past with when it held (unless it says so itself,
    or how long it lasted) and what became of it (tails)."""
    says = f.patient_says or ""
    if not _presents(says):
        if re.search(data["record_now_pattern"], says, re.IGNORECASE):
            # "I've had alcohol - hardly drink now." (2025) beside a 2026 "15-20 a week": a word of now that no parse puts
            # in the past is not said at all
            return replace(f, time="past", told=False, patient_says=None)
        return replace(f, time="past")
    said = _past_tense(says, data)
    if not _says_its_time(said) and not re.search(data["span_pattern"], said, re.IGNORECASE):
        said = _framed(said, _record_frame(when, encounter, data))
    tail = data["tails"].get(status or "")
    if tail:
        said = f"{said.rstrip()} {tail}" if said.rstrip().endswith((".", "!", "?")) else f"{said.rstrip()}. {tail}"
    return replace(f, time="past", patient_says=said)


def _record_pass(facts: list[Fact], ehr: EHR, texts: dict[str, str], sentences: list[_Sentence], encounter: int,
                 record_order: str, data: dict[str, Any]) -> list[Fact]:
    """A record that is no admission (a GP record over years, a letter series, a community team's notes), interviewed
    after its latest entry (stop 55, uw-028: a 2023 "washing 'normal amount'", a 2025 "hardly drink now" and a fit note
    that ended in November were told as now at a December interview). A told state (a topic of ``record_state_kinds``:
    symptoms and substances) dated by its entry, that a strictly later entry speaks of again on the same topic, is told
    from that later entry: the old one is in the past, with when it held. Kept as they are: a state no later entry
    speaks of, one whose latest word says it goes on (still_cues), a pattern (lasting_cues, record_lasting_cues: "never",
    "ever"), a past history's section, the latest entry's own word, a state of the present episode (an entry within
    record_recent_days of the encounter) told again without a word that it went or eased, a denial a later denial
    repeats, and the patient's own typed words (record_raw_words), which no parse puts in the past. A fact whose sentence names a span of dates that ended before the encounter (a fit
    note, amended duties) is in the past whatever its topic."""
    kinds = data["record_state_kinds"]
    from mentalhospital_env.patient.understanding import load_taxonomy

    states = frozenset(t.id for t in load_taxonomy().topics if t.kind in kinds) - set(data["state_topics_not"])
    history = _history_sections(texts, record_order)
    lasting = [re.compile(p, re.IGNORECASE) for p in data["lasting_cues"] + data["record_lasting_cues"]]
    raw = re.compile(data["record_raw_words"])
    where = _locate_sentences(facts, sentences)
    from .compile import _drug_head, medicines_now
    over = sorted({_drug_head(n) for n in medicines_now(facts)[1]} - {""}, key=len, reverse=True)
    # a stopped medicine named with its dose ("duloxetine 60 mg"): stopped_dose_told_past says it is told as over already
    stopped = (r"\b(?:" + "|".join(re.escape(n) for n in over) + r")\b(?:\s+\w+)?\s+\d") if over else ""
    # the encounter's own examination (record_encounter_sections: the mental state and the risk as found at this
    # review), undated, is the latest word on a state: "No hallucinations since about April; hearing his name called
    # stopped by May" ends January's "hears his name called ... a few times a week" (uw-031, stop 57). Only a word
    # there that the state went (resolved): its "slightly better" or a state in it dated by its own words is no word
    # of the encounter (uw-028's "'slightly better' on the phone 17/11/2026", uw-020's dated visits)
    now = [s if s.date is not None or not s.section.startswith(tuple(data["record_encounter_sections"]))
           else replace(s, date=encounter) for s in sentences]
    carried = frozenset((s.section, s.start) for s, t in zip(now, sentences) if s is not t)
    clauses: list[_Clause] | None = None
    out = list(facts)
    for k, f in enumerate(facts):
        s = where.get(k)
        if not (f.told and f.patient_says) or f.time == "past" or f.relative is not None or s is None or s.date is None:
            continue
        if f.section in history:
            continue
        clock = re.search(data["clock_since"]["pattern"], f.patient_says or "", re.IGNORECASE)
        if clock and s.date < encounter:
            # "c/o chest tightness, palpitations ... since ~02:40" in an ED triage entry of 19/05 (uw-032) was said "I
            # have had chest tightness ... since about 02:40" at a December review: a clock time is a time of the
            # entry's night, never a duration; the attack is told in the past, from that time that day
            rules = data["clock_since"]
            said = re.sub(rules["pattern"], rules["said"], f.patient_says, count=1, flags=re.IGNORECASE)
            for pattern, repl in rules["perfect_past"]:
                said = re.sub(pattern, repl, said)
            if not _says_its_time(said):
                said = _framed(said, _record_frame(s.date, encounter, data))
            out[k] = replace(f, time="past", patient_says=said)
            continue
        year = _dt.date.fromordinal(s.date).year
        if not set(f.topics) & set(data["record_risk_topics"]) and _span_ended(s.text, year, encounter, record_order, data):
            # a fit note that ran out, the latest entry's too ("Work note 10/19-11/15/2026 given" on 11/25); a risk
            # is never put in the past by a date. A rendering that is no sentence of his ("Work note ... given.", "Not
            # fit for work for 4 weeks from ...") keeps its words: no parse puts it in the past tense
            mine = re.match(r"(?:I|I'\w+|My)\b", f.patient_says or "")
            out[k] = _said_past(f, s.date, encounter, None, data) if mine else replace(f, time="past")
            continue
        if s.date >= encounter:
            continue
        if (f.polarity == "absent" or re.search(data["entry_day_denial"], f.text, re.IGNORECASE)) and re.search(
                data["entry_day_pattern"], f.text, re.IGNORECASE):
            # a denial its dated entry says held that day ("denied thoughts of harming himself today" on 18/11, uw-034):
            # that day's answer, never his answer now (_about_entry_day_denial)
            out[k] = replace(f, time="past", told=False, patient_says=None)
            continue
        if stopped and re.search(stopped, f.patient_says or "", re.IGNORECASE) and not re.search(
                data["stopped_dose_told_past"], f.patient_says or "", re.IGNORECASE):
            # a dose of a medicine the record has since stopped, in an older entry ("'A little better in the daytime.'
            # Duloxetine 60 mg for about 2 weeks, nausea gone." in March, stopped in June; a PCP list's "sertraline 100 mg
            # daily", uw-033): that entry's state, told as then; a list item no parse puts in the past is not said
            if not _presents(f.patient_says or ""):
                out[k] = replace(f, time="past", told=False, patient_says=None)
                continue
            said = _past_tense(f.patient_says or "", data)  # framed even with its span: "for about 2 weeks" is the dose's
            out[k] = replace(f, time="past", patient_says=said if _says_its_time(said) else _framed(
                said, _record_frame(s.date, encounter, data)))
            continue
        if not set(f.topics) & states:
            continue
        if raw.search(f.patient_says or ""):
            continue  # the patient's own typed words ("ive got alfie"): no parse puts them in the past
        if clauses is None:
            clauses = [(c, at in carried) for c, at in _clauses(now, encounter, data, states, record=True,
                                                                carried=carried, where=True)
                       if at not in carried or c.status == "resolved"]
        # a denial is judged on the dated entries alone: the encounter's word that a state went revived January's
        # "No SI/HI voiced" (belied by August's death wishes) as "I haven't had any thoughts of ending my life"
        of_entries = [c for c, now_said in clauses if not (now_said and f.polarity == "absent")]
        if any(p.search(f.text) for p in lasting):
            if f.polarity == "absent" and not set(f.topics) & set(data["record_risk_topics"]) and not re.search(
                    r"[,;]", f.text) and any(c.state and not c.denied and c.status in (None, "still") for c in of_entries
                                              if s.date < c.date and c.topic in f.topics):
                # "Has never heard voices." (2024) beside "Hearing voices for 2 months." (2026): the denial is no longer
                # true and no parse puts a "never" in the past, so it is not said
                out[k] = replace(f, time="past", told=False, patient_says=None)
            continue  # a pattern ("never", "ever"): it holds
        thing = _the_thing(f.text, data)
        # a later denial on the topic does not end a state told present (uw-020: a screen's 'denies ... checking locks
        # or stoves' put her hours of mirror checking in the past, 'That's settled now'): only a later word that it
        # went or eased, or a later state of its own, does
        later = [c for c in of_entries if s.date < c.date and c.topic in f.topics and (c.state or c.status)
                 and not (c.denied and f.polarity != "absent")]
        if not any(c.words & thing for c in later):
            continue  # no later clause names the same thing (a concept or a content word), only a topic as broad as
            # it (uw-020: a nurse's 'jitteriness better' ended 'I'm tired of being looked at'). Only a gate: leaving the
            # other clauses out of ``later`` let an older 'better' rule where a newer word kept the state (the sweep)
        if not later:
            continue  # none, or only the writer's act on the topic since ("Alcohol brief advice given. Review drinking
            # in 3 months.", "Self-harm: discussed, leaflet given."): nothing says the state went, so it goes on
        last = max(c.date for c in later)
        found = {c.status for c in later if c.date == last}
        if "still" in found:
            continue
        status = "resolved" if "resolved" in found else "better" if "better" in found else None
        recent = encounter - s.date <= data["record_recent_days"]
        if status is None and recent:
            continue  # the present episode's state told again ("checking" on 02/11 after the 13/10 history): it goes on
        risk = set(f.topics) & set(data["record_risk_topics"])
        if risk and f.polarity != "absent" and not f.text.rstrip().endswith("?") and (recent or status is None):
            continue  # a risk of the present episode (uw-019's ligature kept 'for if bail goes against me on the 30th',
            # removed by a search that day) is never told as settled on a later word, and an older one only on a word
            # that it went or eased: the interviewer must hear it
        if f.polarity == "absent" and (status == "resolved" or all(c.denied for c in later if c.date == last)):
            continue  # a denial a later denial repeats ("no violence", "No thoughts of ending her life now"): it still holds
        if f.polarity == "absent" and not _presents(f.patient_says or ""):
            # a denial a later state belies, in words no parse puts in the past ("I haven't had any plan, intent or
            # past attempts." of October beside a suicidal act in November, uw-020): marked past it was still said,
            # in the present, to the question asked now; it is not said (an ended fit note's "not fit" is no denial)
            out[k] = replace(f, time="past", told=False, patient_says=None)
            continue
        out[k] = _said_past(f, s.date, encounter, status, data)
    return out


def carried_list_label(sentence: str, carried: str | None, rules: dict[str, Any],
                       line_ends: bool = True) -> tuple[str, str | None]:
    """A medication list's label that says the medicines have stopped ("Stopped: benzhexol 5 mg bd 03-10/11; IM
    haloperidol + promethazine x 3; artemether-lumefantrine bd x 3/7", ``medicine_entry`` ``past_label_pattern`` /
    ``stopped_pattern``) is over every part of its list, not its first only: the parts after a semicolon are sentences
    of their own, and uw-027's discharge morning was told "I take promethazine and artemether-lumefantrine" (a malaria
    course that ended on day 5). Returns the sentence with the label put before it where one carries and it has none of
    its own, and the label that carries on to the next sentence (while sentences end with a semicolon).

    A label that stands alone as a heading ("Past / acute:" on its own line, the entries below it one a line, a GP
    medication screen) is over every sentence after it up to the next heading or label (stop 55, uw-028: the heading
    was over nothing, and a cream last issued two years before was told "I take clobetasol propionate"). A heading's
    carry is marked at its end (``_HEADING``), so that it outlasts sentences without a semicolon.

    A label inside a line is over the rest of its line (``line_ends`` False while the sentence has more of its line
    after it): "Stopped: risperidone 2 mg (stopped by himself in March). Lorazepam PRN (ward only, 04/2026). Ibuprofen
    (OTC) - advised to avoid with lithium." stops all three (stop 59, uw-031 was told "I take acetaminophen, lorazepam
    and ibuprofen")."""
    mark = _HEADING
    heading = bool(carried and carried.endswith(mark))
    if carried and heading:
        carried = carried[:-len(mark)]
    own = re.match(rules["list_label_pattern"], sentence + " ")
    if own and not sentence[own.end():].strip():
        # a heading alone: over what follows when it says they have stopped; any heading ends the one before
        stopped = re.search(rules["past_label_pattern"], own.group(1), re.IGNORECASE) or re.search(
            rules["stopped_pattern"], own.group(1), re.IGNORECASE)
        return sentence, (own.group(0).rstrip() + " " + mark) if stopped else None
    own = re.match(rules["list_label_pattern"], sentence)
    if own:
        stopped = re.search(rules["past_label_pattern"], own.group(1), re.IGNORECASE) or re.search(
            rules["stopped_pattern"], own.group(1), re.IGNORECASE)
        label = own.group(0) if stopped else None
        if heading and label is None and carried:
            # "Past / acute:" above "- Fluoxetine 20 mg 16/01/2025; 40 mg ... : last issued ...": an entry's own colon
            # (a status after its dose) is no new heading
            if not re.match(rules["heading_pattern"], sentence, re.IGNORECASE):
                return carried + sentence, carried + mark
    elif carried:
        sentence, label = carried + sentence, carried
    else:
        label = None
    if heading and label is not None:
        return sentence, label + mark
    # (over the rest of its line only a label that is words alone: "Inpatient (3/14-3/17):" is a stay's dates, not a
    # stop, and the fluoxetine started on that ward goes on, uw-017)
    return sentence, label if label and (sentence.rstrip().endswith(";") or (
        not line_ends and not re.search(r"\d", label))) else None
