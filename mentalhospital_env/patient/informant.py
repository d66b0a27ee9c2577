"""The informant: a parent, carer or relative present at the interview, who answers in their own voice.

A patient under 13 comes with a parent or carer (the case's ``persona.informant`` names who, else
"parent"): history questions (development, school, family, medicines, when it started, what it has
done to daily life) are answered by the informant, about the child, in the third person; the child
answers how they feel, briefly. At any age, a question that speaks of the patient in the third person
("Has he ever hurt anyone?", "Carol, was your mum forgetful before?") is answered by the informant
when there is one. The informant tells the record's facts as the record has them (a parent says
"She cries at the school gate most mornings"), in lay words, and says "I'm not sure" where the
record is silent; the rules of the answer plan (what is denied, what is withheld) are the patient's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from mentalhospital_env.cases import Case

from .reading import _read_data
from .understanding import load_taxonomy

CHILD_AGE = 13

# topics a child's parent answers (history, and how the problem came and what it has done)
_INFORMANT_KINDS = frozenset({"history", "presentation"})
_CHILD_TOPICS = frozenset({"chief_complaint"})  # the child may say why they came, in their own words
# what only a parent can know, even when the child is asked ("Did you walk and talk at the usual age?"):
# a child does not tell their own birth and milestones
_PARENT_KNOWS = frozenset({"development"})
_RELATIONS = (
    ("mother", ("mother", "mum", "mom", "mummy")),
    ("father", ("father", "dad", "daddy")),
    ("grandmother", ("grandmother", "grandma", "nan", "granny")),
    ("grandfather", ("grandfather", "grandad", "grandpa")),
    ("daughter", ("daughter",)),
    ("son", ("son",)),
    ("wife", ("wife",)),
    ("husband", ("husband",)),
    ("partner", ("partner",)),
    ("carer", ("carer", "foster", "guardian", "key worker")),
)
_THIRD_PERSON = re.compile(r"\b(?:he|she|his|her|him|hers|they|their)\b", re.IGNORECASE)
_SECOND_PERSON = re.compile(r"\b(?:you|your|yourself)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Informant:
    """Who else is present: ``relation`` to the patient ("mother", "carer", "parent" ...) and ``name``."""

    relation: str
    name: str | None = None
    sex: str | None = None  # the patient's, for "her father" / "his father"

    @property
    def label(self) -> str:
        """How the transcript names them when they speak: "Mother (Helen)", "Parent"."""
        relation = self.relation.capitalize()
        return f"{relation} ({self.name})" if self.name else relation

    def answers(self, utterance: str, topics: tuple[str, ...], child: bool) -> bool:
        """Whether the informant, not the patient, answers this question."""
        if self.name and re.search(rf"\b{re.escape(self.name)}\b", utterance):
            return True
        asked = utterance.split("?")[0] if "?" in utterance else utterance
        if self.addressed(asked):
            return True
        if _THIRD_PERSON.search(asked) and not _SECOND_PERSON.search(asked):
            return True
        if not child:
            return False
        tax = load_taxonomy()
        content = [t for t in topics if t in tax.by_id and tax.kind(t) != "meta"]
        if content and all(t in _PARENT_KNOWS for t in content):
            return True
        if _SECOND_PERSON.search(asked):
            return False  # the child is spoken to ("What do you like doing?"): the child answers
        return bool(content) and all(
            tax.kind(t) in _INFORMANT_KINDS and t not in _CHILD_TOPICS for t in content
        )

    def addressed(self, asked: str) -> bool:
        """Whether the question is put to the informant by their relation ("Mum, when did ...")."""
        words = dict(_RELATIONS).get(self.relation, ())
        opening = re.split(r"[,.!?]", asked.strip(), maxsplit=1)[0].strip().lower()
        if words and any(re.fullmatch(rf"(?:(?:hi|hello|and|so)\s+)?{w}", opening) for w in words):
            return True
        # "And may I ask your mother too: ...", "Could I ask Mum ..."
        return bool(words) and re.search(rf"\bask (?:your |the )?(?:{'|'.join(words)}|parent)\b", asked, re.IGNORECASE) is not None

    def say(self, text: str) -> str:
        """A record sentence as the informant says it: third person kept, the clinician's labels
        dropped, the informant named in the record ("her mother") becoming "me"."""
        from mentalhospital_env.cases.compile import informant_words

        own_words = dict(_RELATIONS).get(self.relation, ())
        label = re.match(r"^\s*([A-Z][a-z]+)\s*:\s*(.+)$", text.strip())
        if label and (label.group(1).lower() in own_words or label.group(1) == self.name):
            quote = re.fullmatch(r"['\u2018\u201c\"](.+)['\u2019\u201d\"]\.?", label.group(2).strip())
            if quote:  # "Mother: 'She screams at the school gate and won't let go of me.'": her own words
                said = quote.group(1).strip()
                return said if said.endswith((".", "!", "?")) else said + "."
        if label and label.group(1).lower() in _LABEL_RELATIVES and not label.group(2).lstrip().startswith(("'", "\u2018", '"')):
            # "Father: coronary artery disease (stented this year)." -> "Her father has coronary artery disease ..."
            who = "I" if label.group(1).lower() in own_words else f"{_POSSESSIVE.get(self.sex or '', 'Their')} {label.group(1).lower()}"
            rest = label.group(2).strip()
            text = f"{who} {'have' if who == 'I' else 'has'} {rest[0].lower() + rest[1:]}"
        text = informant_words(text, self.sex)
        # "Family history of recurrent depression in his older sister": a clinician's heading, said as a fact
        text = re.sub(r"^Family history of (.+?) in (?:his|her|their) ((?:older |younger |elder |maternal |paternal )?[a-z]+)\.$",
                      lambda m: f"{_POSSESSIVE.get(self.sex or '', 'Their')} {m.group(2)} has had {m.group(1)}.", text)
        if self.relation in ("mother", "father", "grandmother", "grandfather", "carer"):
            words = "|".join(dict(_RELATIONS)[self.relation])
            if self.relation != "carer":
                # "sleeps in her parents' bed", "where her parents will be": the parent says "our", "we"
                text = re.sub(r"\b(?:her|his|their) parents(?:'|\u2019)?(?= (?:bed|room|house|home)\b)", "our", text, flags=re.IGNORECASE)
                text = re.sub(r"\b(?:her|his|their) parents\b(?= (?:will|are|were|have|had|separated|split|divorced)\b)", "we", text, flags=re.IGNORECASE)
                text = re.sub(r"\b(?:her|his|their) parents\b", "us", text, flags=re.IGNORECASE)
                text = re.sub(r"\b(we will be|we are) and when they\b", r"\1 and when we", text)
            # "from her mother's bathroom cabinet" -> "from my bathroom cabinet" (never "me's")
            text = re.sub(rf"\b(?:her|his|their) (?:{words})(?:'s|\u2019s)", "my", text, flags=re.IGNORECASE)
            text = re.sub(rf"\b(?:her|his|their) (?:{words})\b", "me", text, flags=re.IGNORECASE)
        if self.name:
            # "Rachel had panic attacks in her twenties": the informant's own "her" in her own sentence is "my"
            own = {"mother": "her", "grandmother": "her", "father": "his", "grandfather": "his"}.get(self.relation)
            if own:
                text = re.sub(rf"(\b{re.escape(self.name)}\b[^.;]*?)\b{own}\b", r"\1my", text)
            text = re.sub(rf"\b{re.escape(self.name)}(?:'s|\u2019s)", "my", text)
            text = re.sub(rf"\b{re.escape(self.name)}\b", "I", text)
        mine = {"female": "her", "male": "his"}.get(self.sex or "", "their")
        text = self._relatives(text)
        text = self._self_pronouns(text)
        text = self._passive_lead(text)
        if self.relation in ("mother", "father", "grandmother", "grandfather"):
            # "Me brought him in": the informant named as a subject is "I"
            text = re.sub(r"(?:^|(?<=[.!?] ))[Mm]e (?=[a-z]+ed\b|brought|took|came|saw|told|found|had|was)", "I ", text)
        # "lives with mother, sees father every other weekend": a bare relative after a verb or "with" is
        # the informant ("me") or the child's own ("his father")
        own = dict(_RELATIONS).get(self.relation, ())
        text = re.sub(r"\b(with|sees|visits|and) (mother|father|mum|dad|brother|sister|grandmother|grandfather)\b(?! (?:of|in law)\b)",
                      lambda m: f"{m.group(1)} " + ("me" if m.group(2) in own else f"{mine} {m.group(2)}"), text)
        # "lives with her mother, father and brother" said by the mother: "with me, her father and her brother"
        mine = {"female": "her", "male": "his"}.get(self.sex or "", "their")
        text = re.sub(r"\bwith me((?:,| and) )(father|mother|brother|sister|stepfather|grandmother|grandfather)\b", rf"with me\1{mine} \2", text)
        text = re.sub(rf"(\bwith me, {mine} [a-z]+ and )(\d+-year-old|younger|older|baby|little|[a-z]+) (brother|sister)\b", rf"\1{mine} \2 \3", text)
        text = _first_person_verbs(text)
        text = self._subjects(text)
        text = self._fragment_lead(text)
        # "She was born at term. early language.": a note's run of fragments, each a sentence
        text = re.sub(r"([.!?] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
        text = _lay_report(text)
        return text[0].upper() + text[1:] if text else text

    def _subjects(self, text: str) -> str:
        """A record's subjectless third-person verb as the informant says it, with the child as its
        subject: "Lives with me and his father." -> "He lives with me and his father."; "No thoughts
        of wanting to die, has never hurt himself." -> "..., he has never hurt himself."."""
        from lemminflect import getLemma

        pronoun = {"female": "she", "male": "he"}.get(self.sex or "", "they")

        def verb(word: str, after: str = "") -> bool:
            low = word.lower()
            if low in ("has", "is", "does", "was", "goes"):
                return True
            if not low.endswith("s") or low.endswith("ss") or len(low) < 4:
                return False
            lemmas = getLemma(low, upos="VERB")
            if not lemmas or lemmas[0] == low:
                return False
            nouns = getLemma(low, upos="NOUN")
            # a plural noun as well ("milestones normal", "sleeps through"): a verb only before what a verb takes
            return not (nouns and nouns[0] != low) or after in _VERB_TAKES

        def fix(m: re.Match) -> str:
            lead, word = m.group(1), m.group(2)
            after = re.match(r"\s+([a-z']+)", text[m.end():])
            piece = re.split(r"[.!?]\s+", text[: m.start()])[-1].split(",")[-1].strip() if lead.strip() == "," else ""
            if re.fullmatch(r"\d+|[A-Z][a-z]+", piece):
                return m.group(0)  # "Brother Oliver, 12, is well": the sentence has its subject
            if not verb(word, after.group(1) if after else "") or (after and after.group(1) in ("is", "was", "has", "had", "does", "did", "will", "can", "and")):
                return m.group(0)  # "Thomas is quiet": a name, not a verb
                return m.group(0)
            if pronoun == "they":
                return m.group(0)  # "they lives" would be worse than the record's fragment
            said = f"{pronoun} {word.lower()}"
            return lead + (said[0].upper() + said[1:] if not lead.strip(" ") or lead.strip().endswith((".", "!", "?")) else said)

        # "For the last three months sleeps in our bed": a time phrase before the subjectless verb
        return re.sub(r"((?:^|(?<=[.!?])\s+|,\s+)(?:(?:For|Over|In|During|Since) the (?:last|past) [a-z]+ (?:days|weeks|months|years),? )?)([A-Za-z]+)\b", fix, text)

    def _fragment_lead(self, text: str) -> str:
        """A note's verbless sentence about the child as the informant says it, with the child as its
        subject: "Two fixed-term exclusions this year, ..." -> "He's had two fixed-term exclusions this
        year, ..."; "Year 1 at a mainstream school." -> "She's in Year 1 at a mainstream school."."""
        pronoun = {"female": "She", "male": "He"}.get(self.sex or "", "They")
        has, is_ = ("'ve", "'re") if pronoun == "They" else ("'s", "'s")
        counts = "|".join(_COUNT_WORDS)

        def count(m: re.Match) -> str:
            return f"{m.group(1)}{pronoun}{has} had {m.group(2).lower()} "

        text = re.sub(rf"((?:^|(?<=[.!?])\s+))((?:{counts}))\s(?!(?:[a-z-]+\s)?(?:years|months|weeks|days|nights|hours|minutes|times|decades|of|brothers|sisters|siblings|children|sons|daughters|cousins|friends|parents|aunts|uncles)\b)(?=(?:[a-z-]+\s)?[a-z]+s\b(?! (?:is|are|was|were|has|have|had|ago|later|before|after)\b))",
                      count, text, flags=0)
        text = re.sub(r"((?:^|(?<=[.!?])\s+))(Year \d+|Reception|Nursery)\b(?= (?:at|in|of)\b)",
                      lambda m: f"{m.group(1)}{pronoun}{is_} in {m.group(2)}", text)
        # "Well." / "Fit and well." (the medical history of a healthy child): "She's well."
        text = re.sub(r"((?:^|(?<=[.!?])\s+))((?:Physically )?(?:[Ff]it and )?[Ww]ell)\.",
                      lambda m: f"{m.group(1)}{pronoun}{is_} {m.group(2).lower()}.", text)
        # "No previous CAMHS contact." -> "He's had no CAMHS contact before."
        return re.sub(r"((?:^|(?<=[.!?])\s+))No previous ([a-zA-Z -]+?)\.",
                      lambda m: f"{m.group(1)}{pronoun}{has} had no {m.group(2)} before.", text)

    def _passive_lead(self, text: str) -> str:
        """A record's sentence that opens with the child's passive participle ("Bullied at secondary
        school, frequent absences.") as the informant says it: "He was bullied at secondary school, ..."
        (the compiler's ``passive_verbs``)."""
        from lemminflect import getLemma

        from mentalhospital_env.cases.compile import _data as compile_data

        pronoun = {"female": "She", "male": "He"}.get(self.sex or "", "They")
        passive = set(compile_data()["passive_verbs"])

        def fix(m: re.Match) -> str:
            word = m.group(2)
            lemmas = getLemma(word.lower(), upos="VERB")
            if not word.lower().endswith(("ed", "en", "rn")) or not lemmas or lemmas[0] not in passive:
                return m.group(0)
            return f"{m.group(1)}{pronoun} {'were' if pronoun == 'They' else 'was'} {word.lower()}"

        return re.sub(r"((?:^|(?<=[.!?])\s+))([A-Z][a-z]+)\b(?= (?:at|by|in|for|to|from|with|on|aged|when)\b)", fix, text)

    def _self_pronouns(self, text: str) -> str:
        """The informant named by a pronoun in a record sentence ("who came with his mother. His school have
        written to her because ...") as the informant says it: "His school have written to me because ...".
        Only when the informant and the child differ in sex (so "her" cannot be the child) and the sentence
        names nobody else of the informant's sex before the pronoun (``taxonomy.json`` ``informant_self``)."""
        rules = _self_rules()
        own_sex = rules["sex"].get(self.relation)
        if own_sex is None or self.sex not in ("female", "male") or self.sex == own_sex:
            return text
        subject, obj, poss, refl = ("she", "her", "her", "herself") if own_sex == "female" else ("he", "him", "his", "himself")
        others = rules["others"][own_sex] - {subject}
        object_after = rules["object_after"]
        out = []
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            words = re.findall(r"[A-Za-z']+", sentence.lower())
            first = next((i for i, w in enumerate(words) if w in (subject, obj, poss, refl)), None)
            if first is None or any(w in others for w in words[:first]) or re.search(r"\b[A-Z][a-z]+ (?:and|or) I\b", sentence):
                out.append(sentence)
                continue

            def fix(m: re.Match) -> str:
                word, low = m.group(0), m.group(0).lower()
                after = re.match(r"\s*([A-Za-z']+|[.,;:!?]|$)", sentence[m.end():])
                nxt = after.group(1).lower() if after else ""
                if low == refl:
                    said = "myself"
                elif low == subject:
                    said = "I"
                elif low == obj and (own_sex == "male" or not nxt or not nxt[0].isalpha() or nxt in object_after):
                    said = "me"
                else:
                    said = "my"
                return said if said == "I" or word[0].islower() else said.capitalize()

            pattern = rf"\b(?:{subject}|{obj}|{poss}|{refl})\b" if own_sex == "male" else rf"\b(?:{subject}|{obj}|{refl})\b"
            out.append(re.sub(pattern, fix, sentence, flags=re.IGNORECASE))
        return _first_person_verbs(" ".join(out))

    def _relatives(self, text: str) -> str:
        """A record's bare relative at the start of a sentence ("Father was a fussy eater") as the
        informant says it: "I" for themself, else the patient's ("Her father was ...")."""
        own = dict(_RELATIONS).get(self.relation, ())
        mine = {"female": "Her", "male": "His"}.get(self.sex or "", "Their")

        def fix(m: re.Match) -> str:
            word = m.group(1)
            if word.lower() in own:
                return "I"
            return f"{mine} {word.lower()}"

        return _VERBLESS_AFTER.sub(r"\1 is ", re.sub(_BARE_RELATIVE, fix, text))


@lru_cache(maxsize=1)
def _self_rules() -> dict:
    raw = _read_data("taxonomy.json")["informant_self"]
    return {
        "sex": dict(raw["sex"]),
        "others": {k: frozenset(v) for k, v in raw["others"].items()},
        "object_after": frozenset(raw["object_after"]),
    }


_POSSESSIVE = {"female": "Her", "male": "His"}
# a note's count opening a verbless sentence ("Two fixed-term exclusions this year")
_COUNT_WORDS = ("Two", "Three", "Four", "Five", "Six", "Several", "Multiple", "Repeated", "Frequent", "Many")
_LABEL_RELATIVES = frozenset({"mother", "father", "mum", "dad", "brother", "sister", "grandmother", "grandfather", "stepfather", "stepmother"})
# a bare noun phrase after a relative the record names without a verb ("Father a bus driver",
# "Grandmother nearby"): said with "is"
_VERBLESS_AFTER = re.compile(r"\b((?:Her|His|Their) (?:mother|father|brother|sister|grandmother|grandfather|stepfather|stepmother|nan|grandad))"
                             r" (?=(?:a|an|nearby|well|retired|alive|local)\b)")
_I_VERB = re.compile(r"\b(I|me) (?:(also|still|now|often|never|always|usually|sometimes) )?([a-z]+)\b")
_VERB_TAKES = frozenset({"a", "an", "the", "her", "his", "their", "to", "in", "at", "on", "with", "up", "out", "off", "for",
                         "from", "into", "about", "through", "over", "within", "back", "me", "us", "him", "it"})
_IRREGULAR = {"has": "have", "is": "am", "does": "do", "was": "was", "goes": "go"}
_BARE_RELATIVE = re.compile(
    r"(?:^|(?<=[.!?] ))(Mother|Father|Mum|Dad|Stepfather|Stepmother|Brother|Sister|Grandmother|Grandfather"
    r"|Nan|Grandad|Uncle|Aunt|Cousin|Parents)\b(?! (?:of|in law)\b)"
)


# a clinician's verbs of report, as a parent says them: "He denies feeling low and denies thoughts of
# self-harm." -> "He says he doesn't feel low and he says he has no thoughts of self-harm."
_BASE = {"feeling": "feel", "having": "have", "hearing": "hear", "seeing": "see", "using": "use", "taking": "take",
         "drinking": "drink", "wanting": "want", "thinking": "think", "being": "be", "getting": "get", "smoking": "smoke"}
_DENIES = re.compile(r"\b(?:(he|she)\s+|(and)\s+)denies\s+(?:any\s+)?(?:(\w+ing)\b)?", re.IGNORECASE)


def _lay_report(text: str) -> str:
    subject = [None]

    def fix(m: re.Match) -> str:
        who = (m.group(1) or subject[0] or "he").lower()
        subject[0] = who
        lead = m.group(1) or f"{m.group(2)} {who}"
        does = "don't" if who == "they" else "doesn't"
        has = "have" if who == "they" else "has"
        verb = m.group(3)
        if verb and verb.lower() in _BASE:
            return f"{lead} says {who} {does} {_BASE[verb.lower()]}"
        if verb:
            return f"{lead} says {who} {'is' if who != 'they' else 'are'} not {verb}"
        return f"{lead} says {who} {has} no "

    return _DENIES.sub(fix, text)


def _first_person_verbs(text: str) -> str:
    """"I sleeps", "I has noticed" (the informant's name in a record sentence become "I") as the
    informant says them: "I sleep", "I have noticed". A word ending in -s after "I" is read as a verb
    when lemminflect knows its base form as a verb."""
    from lemminflect import getLemma

    def fix(m: re.Match) -> str:
        subject, adverb, word = m.group(1), m.group(2), m.group(3)
        if subject == "me" and m.start() > 0 and text[m.start() - 2 : m.start()].strip() not in ("", ".", ","):
            return m.group(0)  # "told me" stays
        base = _IRREGULAR.get(word)
        if base is None and word.endswith("s") and not word.endswith("ss"):
            lemmas = getLemma(word, upos="VERB")
            base = lemmas[0] if lemmas and lemmas[0] != word else None
        if base is None:
            return m.group(0)
        return f"I {adverb + ' ' if adverb else ''}{base}"

    return _I_VERB.sub(fix, text)


def informant_for(case: Case) -> Informant | None:
    """The case's informant: the persona's ``informant`` (its relation word and a capitalised name in
    it, if any), or a parent for a patient under 13; ``None`` when the patient comes alone."""
    described = case.effective_persona.informant
    if not described and case.demographics.age >= CHILD_AGE:
        return None
    low = (described or "").lower()
    relation = next((r for r, words in _RELATIONS if any(re.search(rf"\b{w}\b", low) for w in words)), "parent")
    names = [w for w in re.findall(r"\b[A-Z][a-z]+\b", described or "") if w.lower() not in {
        w for _, ws in _RELATIONS for w in ws} | {"her", "his", "the", "a", "an", "parent"}]
    return Informant(relation, names[0] if names else None, case.demographics.sex)
