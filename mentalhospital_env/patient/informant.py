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

from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
import math
from dataclasses import dataclass
from functools import lru_cache

from mentalhospital_env.cases import Case

from .reading import _read_data
from .understanding import load_taxonomy

CHILD_AGE = 13
ADULT_AGE = 18  # from here the record may say the person present answers for the patient (``answers_for``)

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
    ("partner", ("partner", "boyfriend", "girlfriend")),
    ("carer", ("carer", "foster", "guardian", "key worker", "support worker")),
    ("nurse", ("nurse",)),
)
_THIRD_PERSON = re.compile(r"\b(?:he|she|his|her|him|hers|they|their)\b", re.IGNORECASE)
_SECOND_PERSON = re.compile(r"\b(?:you|your|yourself)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Informant:
    """Who else is present: ``relation`` to the patient ("mother", "carer", "parent" ...) and ``name``."""

    relation: str
    name: str | None = None
    sex: str | None = None  # the patient's, for "her father" / "his father"
    #: the record says they answer for an adult who cannot give his own history (``answers_for`` of
    #: ``data/informant.json``): its history topics are theirs to answer, however the patient is asked
    answers_for: bool = False
    #: what the persona says they correct the patient on, in their words ("it was a box of wine a week, not a small
    #: glass"): said after the patient's own answer on its topic (``corrects`` of ``data/informant.json``)
    corrections: tuple[str, ...] = ()
    #: what the persona gives them as their own worries, in their voice ("I want to know what the illness is, what to
    #: expect and whether she can stay alone at night."): said when a question reaches them (``own_worries`` of
    #: ``data/informant.json``, :meth:`asks_worries`)
    worries: tuple[str, ...] = ()
    #: whether they are in the room when the interview starts: not where the record says they were sent out before it
    #: (``not_in_room``); the doctor may ask them out and back in (:meth:`room_move`, ``room`` of ``data/informant.json``)
    in_room: bool = True
    #: what the persona says they do not know ("does not know about the nicotine pouches, the cutting, ..."), each item
    #: as its named stems (``does_not_know`` of ``data/informant.json``): never theirs to say (:meth:`tells`)
    unknown: tuple[frozenset[str], ...] = ()

    def room_move(self, utterance: str, out: bool) -> str | None:
        """``"out"`` where the doctor's turn asks them to step out while they are in the room ("Sara, would you mind
        waiting outside for a few minutes? I'd like to talk with Oscar on his own."), ``"in"`` where it asks them back
        while they are out ("Thank you for waiting, Sara, please come back in."), else None (``room`` of
        ``data/informant.json``)."""
        cues = _informant_cues()["room"]["back" if out else "out"]
        if any(re.search(cue, utterance, re.IGNORECASE) for cue in cues):
            return "in" if out else "out"
        return None

    def room_rest(self, utterance: str, move: str) -> str:
        """What the turn asks besides moving them: its sentences that are no request to step out or come back, where
        one of them asks something ("I'd like to talk with you on your own for a few minutes, as I do with everyone your
        age. Now that it's just us, is there anything ... you'd rather tell me on your own?" asks the patient, who
        answers it with the room as asked); empty where the turn is only the request."""
        cues = _informant_cues()["room"]["out" if move == "out" else "back"]
        rest = [sentence for sentence in re.split(r"(?<=[.!?])\s+", utterance.strip())
                if not any(re.search(cue, sentence, re.IGNORECASE) for cue in cues)]
        return " ".join(rest) if any(sentence.rstrip().endswith("?") for sentence in rest) else ""

    def spoken_to(self, utterance: str) -> bool:
        """Whether the doctor's turn speaks to them by their relation or their name at the head of a sentence ("Mum,
        has anyone in her family ...", "A question for his wife: ...", "Sara, is there ..."), not of them ("Does Sara
        know?"): the doctor who speaks to one who stepped out has them back in the room."""
        if self.addressed(utterance):
            return True
        return bool(self.name) and re.search(rf"(?:^|[.!?]\s+)(?:(?:and|so|now|ok|okay|thanks|thank you)\W+)?"
                                             rf"{re.escape(self.name or '')}\s*,", utterance, re.IGNORECASE) is not None

    def room_line(self, move: str, seed: int) -> str:
        """What they say, briefly, as they step out ("Sure, I'll be just outside.") or come back in ("Thanks.")."""
        lines = _informant_cues()["room"]["leaves" if move == "out" else "returns"]
        return lines[seed % len(lines)]

    def asks_worries(self, asking: list[str]) -> bool:
        """Whether the asking sentences of the doctor's turn reach the worries of the person present as well as the
        patient's ("What kinds of things have been worrying you?", "Any questions?", "Is there anything else?"), where
        the persona gives them worries of their own."""
        return bool(self.worries) and any(re.search(cue, s, re.IGNORECASE)
                                          for cue in _informant_cues()["own_worries"]["asked"] for s in asking)

    def asked_own(self, asking: list[str]) -> bool:
        """Whether the asking sentences put to them speak to them ("you") and not of the patient ("her", "him"), the
        words that hand the question to them left out ("A question for her daughter: what worries you?")."""
        said = " ".join(_ADDRESS.sub("", s, count=1) for s in asking)
        return _SECOND_PERSON.search(said) is not None and _THIRD_PERSON.search(said) is None

    def tells(self, section: str, text: str, gate: str | None = None) -> bool:
        """Whether they say a sentence of the record: not what only a clinician writes (the examination, scores),
        except that one who gives an adult's history tells his risk as the support plan has it ("Self-injury,
        head-hitting with his open palm ..., 2 in the last 4 weeks", uw-030's key worker, asked after Craig's "No.
        Stop."); never what they do not know (:meth:`knows_of`)."""
        from mentalhospital_env.cases.compile import clinician_only

        if not self.knows_of(text, gate):
            return False
        return (self.answers_for and section.startswith("risk_assessment")) or not clinician_only(section, text)

    def kept_from(self, text: str) -> bool:
        """Whether a sentence of the record says it was kept from them ("wanted it not told to his mother", "has not
        told his mother": ``does_not_know.kept``); the patient's :meth:`Patient.respond` keeps the whole sentence from
        them, its parts too ("said he scratches his forearm ...; wanted it not told to his mother")."""
        who = "|".join(dict(_RELATIONS).get(self.relation, ()) or ("parent",))
        return any(re.search(cue.replace("{who}", who), text, re.IGNORECASE)
                   for cue in _informant_cues()["does_not_know"]["kept"])

    def knows_of(self, text: str, gate: str | None = None) -> bool:
        """Whether a sentence of the record is theirs to know (``does_not_know`` of ``data/informant.json``): not what
        the patient tells only when seen alone (``gate`` ``"alone"``), nor what the record says was kept from them
        ("wanted it not told to his mother"), nor what the persona says they do not know (uw-035's Sara, who "does not
        know ... that he counted her zopiklon", said "he found my zopiklon in my handbag")."""
        if gate == "alone" or self.kept_from(text):
            return False
        data = _informant_cues()["does_not_know"]
        if not self.unknown:
            return True
        said = _stems(text)
        return not any(sum(any(_same_stem(a, b) for b in said) for a in item) >= _share_needed(item, data["share"])
                       for item in self.unknown)

    @property
    def knows(self) -> frozenset[str]:
        """The topics this informant answers even when the patient is asked ("What medicines do you take?"):
        those of ``answers_for`` in ``data/informant.json`` where the record says they answer for the patient."""
        return _adult_topics() if self.answers_for else frozenset()

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
        if not child and not self.answers_for:
            return False
        tax = load_taxonomy()
        content = [t for t in topics if t in tax.by_id and tax.kind(t) != "meta"]
        # what only they can know, even when the patient is asked: a child's birth and milestones; the history a
        # man who cannot give his own leaves to his key worker (his medicines, his weight, when it started, uw-030)
        if content and all(t in (_PARENT_KNOWS if child else self.knows) for t in content):
            return True
        # "When did you first notice this?" read with the complaint it points back to: the time is what is asked
        timed = [t for t in content if t not in _CHILD_TOPICS]
        if not child and len(timed) < len(content) and timed and all(t in self.knows for t in timed):
            return True
        if not child:
            return False  # how he feels, what he likes, what he wants, and every risk question: his own
        if _SECOND_PERSON.search(asked):
            return False  # the child is spoken to ("What do you like doing?"): the child answers
        return bool(content) and all(
            tax.kind(t) in _INFORMANT_KINDS and t not in _CHILD_TOPICS for t in content
        )

    def as_asked(self, utterance: str) -> str:
        """The question as the patient's topics are read from it: the words that hand it to the informant
        dropped ("Mum, ...", "A question for her parents: ...") and the patient spoken of in the third
        person spoken to ("has anyone ever hurt him?" -> "has anyone ever hurt you?"). The topic cues are
        written for a patient addressed: read as written, "hurt him" was self-harm and "her parents" the
        household (hw-012, test-v2-0235). The informant's own "you" ("Mum, did you notice ...") keeps the
        pronouns as they are."""
        # at the head of any sentence: the scripted clinician says "That is really helpful to know. Mum, ..."
        sentences = re.split(r"(?<=[.!?])\s+", utterance)
        for i, sentence in enumerate(sentences):
            said = _ADDRESS.sub("", sentence, count=1)
            if said == sentence and self.name:  # "Kelly, when did it start?"
                said = re.sub(rf"^\s*(?:(?:and|so)\s+)?{re.escape(self.name)}\s*,\s*", "", sentence, count=1, flags=re.IGNORECASE)
            if said != sentence and said[:1].islower():
                said = said[0].upper() + said[1:]
            sentences[i] = said
        text = " ".join(sentences) if len(sentences) > 1 else sentences[0]
        words = _CHILD_PRONOUNS.get(self.sex or "")
        asked = text.split("?")[0] if "?" in text else text
        if words is None or _SECOND_PERSON.search(asked) or not re.search(f"{words[0]}|{words[1]}", asked, re.IGNORECASE):
            return text
        subject, rest = words
        out = re.sub(subject, lambda m: _cased(m.group(0), "you"), text, flags=re.IGNORECASE)
        out = re.sub(rest, lambda m: _cased(m.group(0), _SECOND[m.group(0).lower()] if m.group(0).lower() in _SECOND
                                            else ("your" if m.group(2) is not None else "you")), out, flags=re.IGNORECASE)
        for wrong, right in _YOU_AGREE:
            out = re.sub(wrong, lambda m, r=right: _cased(m.group(0), r), out, flags=re.IGNORECASE)
        return _you_verbs(out)

    def keeps(self, section: str, text: str, fact_topics: tuple[str, ...], asked: tuple[str, ...], subject: str | None,
              adult: bool = False) -> bool:
        """Whether a recalled fact answers the question put to the informant about the child: a fact of
        the family history, or one whose subject is a relative ("His father, 36, ..."), only when the
        family is asked about; a fact the record files under topics of its own only when one of them is
        asked (or is the answer's subject)."""
        wanted = set(asked) | ({subject} if subject else set())
        family = section == "family_history" or re.match(_RELATIVE_LEAD, text) is not None
        if family and not wanted & {"family_history", "living_situation", "childhood"}:
            return False
        if section == "family_history" and "family_history" not in wanted:
            return False
        if adult and subject == "similar" and section in _ILLNESS_SECTIONS:
            # the present illness in the question's own words, for an adult's relative: "A question for his son: has
            # he done anything at home to keep them out, like blocking vents or the boiler flue?" is "Last week he
            # taped over the air vents and the boiler flue ...", not "I'm not sure" for its topic read as his home
            # (hw-024); a child's parent keeps to the topics asked, as before
            return True
        if not asked or (section in _ILLNESS_SECTIONS and subject != "similar"):
            # a question read as no topic ("Margaret found you in the garage with a rope. Can you tell me about
            # that?", hw-015) keeps what was recalled for it
            # the present illness recalled for its topic stays though the record filed it elsewhere
            # ("nursery staff said he could not sit for the story", filed under relationships, answers
            # how he manages with things that need his attention, hw-012)
            return True
        return not fact_topics or bool(set(fact_topics) & wanted)

    def denial(self, question, unseen: str | None = None) -> str:
        """A parent's "no" to a question about their child: to a closed question "No, not that I've seen.";
        to an open one ("Mum, how does she manage with things that need her attention?") that it has been
        fine (``taxonomy.json`` ``informant_denials``), never "No, not that I've seen." (hw-017, hw-035)."""
        said = _read_data("taxonomy.json")["informant_denials"]
        asked = question.text.split("?")[0] if "?" in question.text else question.text
        asked = _ADDRESS.sub("", asked, count=1).strip().lower()
        open_ = re.match(r"(?:and |so )?(?:how|what|tell me|describe)\b", asked) is not None and not question.yes_no
        if not open_ and unseen:
            return unseen  # a denial the record holds no words for: "No, not that I know of."
        return self._pronoun_for_child(said["open" if open_ else "closed"])

    def none_known(self, topic: str | None, question=None) -> str:
        """What the informant says of a topic the record tells nothing of for this child: a symptom or harm
        ("Has anyone ever hurt him?") is "No, not that I know of." (to an open question, that it has been
        fine); a history topic "I'm not sure"."""
        tax = load_taxonomy()
        if topic in tax.by_id and tax.kind(topic) == "symptom":
            return self.denial(question, unseen="No, not that I know of.") if question is not None else "No, not that I know of."
        return "I'm not sure, to be honest."

    def addressed(self, asked: str) -> bool:
        """Whether the question is put to the informant by their relation ("Mum, when did ...")."""
        words = dict(_RELATIONS).get(self.relation, ())
        for sentence in re.split(r"(?<=[.!?])\s+", asked.strip()):
            put = _ADDRESS.match(sentence)
            if put and words and re.search(rf"\b(?:{'|'.join(words)}|parent)s?\b", put.group(0), re.IGNORECASE):
                # "That must have been worrying to see. A question for his son: is there anything you are worried
                # about?": the "you" is the son's
                return True
        opening = re.split(r"[,.!?]", asked.strip(), maxsplit=1)[0].strip().lower()
        if words and any(re.fullmatch(rf"(?:(?:hi|hello|and|so)\s+)?{w}", opening) for w in words):
            return True
        # "And may I ask your mother too: ...", "Could I ask Mum ..."
        return bool(words) and re.search(rf"\bask (?:your |the )?(?:{'|'.join(words)}|parent)\b", asked, re.IGNORECASE) is not None

    def say(self, text: str, section: str = "", said: str | None = None) -> str:
        """A record sentence as the informant says it: third person kept, the clinician's labels
        dropped, the informant named in the record ("her mother") becoming "me". ``section``: the
        record section the sentence comes from (a bare "None." of the medicines is "He doesn't take any
        medicines"; a subjectless sentence of the family history is a relative's, never the child's)."""
        from mentalhospital_env.cases.compile import informant_words

        if self.answers_for and said and section not in CHART_LISTS:
            # an adult's history told by the person who gives it: what he would say of himself, as they say it of him
            # ("I had mum coming Saturday" -> "He had ...", the key worker's own name "I"): the chart's journal read
            # out by the key worker was no one's speech ("Consultant outpatient review 4 December 2026, with me, on
            # sertraline 100 mg.", uw-030); the medicines and allergies are read as the chart has them
            return self._of_him(said)
        if said and ((section == "allergies" and not re.match(r"^No\b", said))
                     or (section == "medications" and re.match(r"I used to take\b", said))):
            # the chart's entry "Penicillin: widespread itchy blotchy rash on day 5 of a course of amoxicillin ...,
            # recorded by the GP as penicillin allergy" was read out by uw-011's mother, and a list of medicines
            # stopped ("Stopped: sertraline (February 2026); duloxetine (June 2026); ...") as what she takes now
            # (uw-033's daughter, stop 59); ``said``, the patient's own rendering of the entry ("I'm allergic to
            # penicillin, it gave me a ... rash", "I used to take sertraline, duloxetine ..."), is hers in the third
            # person ("He's allergic to penicillin, it gave him ...", "She used to take ...")
            third = _third_person(said, self.sex)
            return third[:1].upper() + third[1:]
        own_words = dict(_RELATIONS).get(self.relation, ())
        none = _none_says(section, text)
        if none:
            return self._pronoun_for_child(none)
        # "If a food looks or smells different (a new packet, a burnt edge) she refuses it": the aside said
        # between commas, closed before the sentence goes on (hw-035)
        # "lives with his mother Kerry (33) and half-sister Ellie-May (4)": the chart's bare ages go (said by the
        # mother "with me, 33 and half-sister Ellie-May, 4", uw-011)
        text = re.sub(r"\s*\((?:aged?\s+)?\d{1,2}\)", "", text)
        # "- Macrogol ... each morning. - Paracetamol ...": a chart list's bullets are no words (uw-030's key worker)
        text = re.sub(r"(?:^|(?<=[.!?;:]))\s*-\s+(?=[A-Za-z])", " ", text).strip()
        text = re.sub(r"\s*\(([^()]{3,80})\)\s+(?=[a-z])", r", \1, ", text)
        text = self._clinicians_nouns(text)
        # "I'm always in a mood, mum says." said by mum: the frame that names her goes
        text = re.sub(rf",\s*(?:(?:his|her|their) )?(?:{'|'.join(own_words) or 'parent'}) (?:says|said|thinks)\s*\.?$", ".", text, flags=re.IGNORECASE)
        text = self._child_words(text)
        # "He bunks off school most days, he adds." / "He adds, he can't pay attention": the note's frame of who
        # said it goes (test-v2-0474, dev-v2-0200)
        text = re.sub(r",\s*(?:he|she|they) (?:adds|admits|added|admitted|says|said)\s*(?=[.,]|$)", "", text)
        text = re.sub(r"(^|(?<=[.!?] ))(?:He|She|They) (?:adds|admits|added|admitted),\s*(\w)", lambda m: m.group(1) + m.group(2).upper(), text)
        # "teachers report disruption in class" -> "the teachers tell me about disruption in class" (after the
        # child's own words are told, so that this "me" is the parent's)
        text = re.sub(r"\b([Tt]he )?(teachers?|school) reports? (that )?",
                      lambda m: f"{'T' if m.start() == 0 else 't'}he {m.group(2)} {'tell' if m.group(2) != 'teacher' and m.group(2) != 'school' else 'tells'} me {'that ' if m.group(3) else 'about '}", text)
        # "Mum told us, although Rhys asked her in the waiting room not to, that he has started wetting the
        # bed again": the frame and its aside go; what she told is said
        text = re.sub(r"^(?:[A-Z][a-z]+|[Hh]is \w+|[Hh]er \w+) (?:told us|told me|said|says|explained|disclosed|mentioned),\s*"
                      r"(?:although|though|even though|while|when)\s[^,]{3,80},\s*(?:that\s+)?", "", text.strip())
        # "with Rhys and his mother Kerry": the mother named twice is "me" once (never "me I")
        if self.name:
            text = re.sub(rf"\b((?:her|his|their|my) (?:{'|'.join(own_words) or 'parent'}))(?:,)? {re.escape(self.name)}\b,?", r"\1", text)
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
            text = _me_after_preposition(re.sub(rf"\b{re.escape(self.name)}\b", "I", text))
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
        text = re.sub(r"\bwith me((?:,| and) )(father|mother|(?:half-|step)?brother|(?:half-|step)?sister|stepfather|grandmother|grandfather)\b", rf"with me\1{mine} \2", text)
        text = re.sub(rf"(\bwith me, {mine} [a-z]+ and )(\d+-year-old|younger|older|baby|little|[a-z]+) (brother|sister)\b", rf"\1{mine} \2 \3", text)
        text = _first_person_verbs(text)
        text = _me_as_subject(text)
        text = self._relative_apposition(text)
        text = self._subjects(text, family=section == "family_history")
        text = self._fragment_lead(text) if section != "family_history" else text
        text = _i_and_verbs(text)
        # "She was born at term. early language.": a note's run of fragments, each a sentence
        text = re.sub(r"([.!?] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
        text = _lay_report(text)
        return text[0].upper() + text[1:] if text else text

    def _of_him(self, said: str) -> str:
        """The patient's own first-person words said of him by the informant: "I" is "he", the informant's own name
        "I" ("Dean went with me" -> "I went with him")."""
        text = _third_person(said, self.sex)
        own = dict(_RELATIONS).get(self.relation, ())
        if own:  # "with his key worker" said by the key worker: "with me"; "her daughter Karen says" -> "I say"
            if self.name:  # "her daughter Mrs Siân Hughes" is the daughter herself
                text = re.sub(rf"\b(?:[Hh]is|[Hh]er|[Tt]heir) (?:{'|'.join(own)}),? {_TITLE}?{re.escape(self.name)}(?: [A-Z][a-z]+)?\b",
                              "I", text)
            text = re.sub(rf"\b(?:his|her|their) (?:{'|'.join(own)})(?:'s|\u2019s)", "my", text)  # "my daughter's request"
            text = re.sub(rf"\b(?:his|her|their) (?:{'|'.join(own)})\b", "me", text)
        text = re.sub(r"([.!?] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
        # "no depression ... in his family that he knows of", said by his daughter: that we know of
        text = re.sub(r"\bthat (?:he|she|they) knows? of\b", "that we know of", text)
        if self.name:
            text = re.sub(rf"\b{re.escape(self.name)}(?:'s|\u2019s)", "my", text)
            text = _me_after_preposition(re.sub(rf"\b{re.escape(self.name)}\b", "I", text))
            text = _first_person_verbs(text)
        return text[:1].upper() + text[1:]

    def _subjects(self, text: str, family: bool = False) -> str:
        """A record's subjectless third-person verb as the informant says it, with the child as its
        subject: "Lives with me and his father." -> "He lives with me and his father."; "No thoughts
        of wanting to die, has never hurt himself." -> "..., he has never hurt himself."."""
        from lemminflect import getLemma

        pronoun = {"female": "she", "male": "he"}.get(self.sex or "", "they")

        from lemminflect import getAllLemmas

        def verb(word: str, after: str = "") -> bool:
            low = word.lower()
            if low in ("has", "is", "does", "was", "goes"):
                return True
            if not low.endswith("s") or low.endswith("ss") or len(low) < 4:
                return False
            if "VERB" not in getAllLemmas(low):
                return False  # "Immunisations up to date": a noun the dictionary knows no verb of
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
            sentence = re.split(r"(?<=[.!?])\s+", text[: m.start()])[-1]
            if family or re.match(_RELATIVE_LEAD, sentence):
                # "Has been treated by my GP for anxiety" in the family history, "His father, 36, ...,
                # lives in Bolton": the subject is a relative, never the child
                if family and re.search(r"\bmy\b", text[m.start():]) and not sentence.strip():
                    return f"{lead}I {_IRREGULAR.get(word.lower()) or getLemma(word.lower(), upos='VERB')[0]}"
                return m.group(0)
            said = f"{pronoun} {word.lower()}"
            if pronoun == "they":  # "Lives with me" -> "They live with me", never "they lives"
                base = {"has": "have", "is": "are", "does": "do", "was": "were", "goes": "go"}.get(word.lower())
                said = f"they {base or getLemma(word.lower(), upos='VERB')[0]}"
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

        def family_or_name(word: str) -> bool:
            from lemminflect import getAllLemmas

            return "VERB" not in getAllLemmas(word.lower())

        def count(m: re.Match) -> str:
            return f"{m.group(1)}{pronoun}{has} had {m.group(2).lower()} "

        text = re.sub(rf"((?:^|(?<=[.!?])\s+))((?:{counts}))\s(?!(?:[a-z-]+\s)?(?:years|months|weeks|days|nights|hours|minutes|times|decades|of|brothers|sisters|siblings|children|sons|daughters|cousins|friends|parents|aunts|uncles)\b)(?=(?:[a-z-]+\s)?[a-z]+s\b(?! (?:is|are|was|were|has|have|had|ago|later|before|after)\b))",
                      count, text, flags=0)
        text = re.sub(r"((?:^|(?<=[.!?])\s+))(Year \d+|Reception|Nursery)\b(?= (?:at|in|of)\b)",
                      lambda m: f"{m.group(1)}{pronoun}{is_} in {m.group(2)}", text)
        # "Well." / "Fit and well." (the medical history of a healthy child): "She's well."
        text = re.sub(r"((?:^|(?<=[.!?])\s+))((?:Physically )?(?:[Ff]it and )?[Ww]ell)\.",
                      lambda m: f"{m.group(1)}{pronoun}{is_} {m.group(2).lower()}.", text)
        # "Made friends easily and still has a best friend": a note's subjectless past verb, the child its subject
        # A regular "-ed" word is the child's own doing only before an object or a manner word ("Started a new
        # school", "Settled well"), or before a preposition when it is a verb of the child's own going or growing
        # (taxonomy.json informant_own_past_verbs: "Walked at 13 months", "Moved to Leeds"); "Assaulted at a party",
        # "Teased at school" are done to the child and stay as the note has them
        own = "|".join(re.escape(v.capitalize()) for v in _read_data("taxonomy.json")["informant_own_past_verbs"])
        text = re.sub(r"((?:^|(?<=[.!?])\s+))([A-Z][a-z]+ed(?= (?:a|an|the|his|her|their|well|friends|easily|early|late)\b)|"
                      rf"(?:{own}|Made|Had|Left|Went|Took|Got|Began|Became|Kept|Lost|Won|Fell|Ran|Came|Saw|Slept|Ate)"
                      r"(?= (?:a|an|the|his|her|their|to|at|in|on|with|up|out|off|well|friends|school|nursery|easily|early|late)\b))\b",
                      lambda m: m.group(0) if family_or_name(m.group(2)) else f"{m.group(1)}{pronoun} {m.group(2).lower()}", text)
        # "Mainstream primary, on SEN support": "He's at a mainstream primary, ..."
        text = re.sub(r"((?:^|(?<=[.!?])\s+))((?:Mainstream|Local|Village|Small|Special|Independent|Catholic|Church) (?:[a-z]+ )?(?:primary|secondary|school|academy))\b",
                      lambda m: f"{m.group(1)}{pronoun}{is_} at {_article(m.group(2))} {m.group(2).lower()}", text)
        # "Allergic to penicillin, rash." -> "She's allergic to penicillin, it gives her a rash."
        him = {"She": "her", "He": "him"}.get(pronoun, "them")
        text = re.sub(r"((?:^|(?<=[.!?])\s+))Allergic to ([a-z][a-z -]+?)(?:,\s*|\s*\(\s*)(rash|hives|a rash|swelling|vomiting|sickness)\)?\.",
                      lambda m: f"{m.group(1)}{pronoun}{is_} allergic to {m.group(2)}, it gives {him} {'a rash' if m.group(3) == 'rash' else m.group(3)}.", text)
        text = re.sub(r"((?:^|(?<=[.!?])\s+))Allergic to\b", lambda m: f"{m.group(1)}{pronoun}{is_} allergic to", text)
        # "No alcohol, tobacco or drug use." -> "He doesn't drink, smoke or take drugs."
        doesnt = "don't" if pronoun == "They" else "doesn't"
        text = re.sub(r"((?:^|(?<=[.!?])\s+))No (?:alcohol|drink)(?:,| or| and) (?:tobacco|smoking)(?:,| or| and) (?:drug|substance) use\b",
                      lambda m: f"{m.group(1)}{pronoun} {doesnt} drink, smoke or take drugs", text)
        # "Often in trouble at school" -> "He's often in trouble at school"
        text = re.sub(r"((?:^|(?<=[.!?])\s+))(Often|Always|Frequently|Sometimes|Rarely|Never|Usually|Generally) (?=in |at |late\b|off\b|on |out\b|quiet\b|tired\b|upset\b)",
                      lambda m: f"{m.group(1)}{pronoun}{is_} {m.group(2).lower()} ", text)
        # "Immunisations up to date." -> "His immunisations are up to date."
        text = re.sub(r"((?:^|(?<=[.!?])\s+))(Immunisations|Vaccinations|Jabs|Injections|Hearing and vision|Eyesight|Hearing|Vision)( up to date| normal| fine)\b",
                      lambda m: f"{m.group(1)}{_POSSESSIVE.get(self.sex or '', 'Their')} {m.group(2).lower()} {'are' if m.group(2).endswith('s') else 'is'}{m.group(3)}", text)
        # "Five episodes of tonsillitis treated by the GP ..." -> "He's had five episodes of tonsillitis, treated ..."
        text = re.sub(rf"((?:^|(?<=[.!?])\s+))((?:{counts}) (?:episodes|bouts|courses|attacks|admissions|infections) of [a-z -]+?)( treated| managed| seen|,|\.)",
                      lambda m: f"{m.group(1)}{pronoun}{has} had {m.group(2).lower()}{',' if m.group(3).startswith(' ') else ''}{m.group(3)}", text)
        # "School movement-break plan and visual timetable since March 2026." -> "He's had a school ... since March 2026."
        text = re.sub(r"((?:^|(?<=[.!?])\s+))([A-Z][a-z-]+(?: [a-z-]+){0,5} (?:plan|timetable|chart|support|card|passport|pass))((?: and (?:a |an )?[a-z -]+?)?) since ([^.]+)\.",
                      lambda m: f"{m.group(1)}{pronoun}{has} had {_article(m.group(2))} {m.group(2)[0].lower() + m.group(2)[1:]}{m.group(3)} since {m.group(4)}.", text)
        # "No previous CAMHS contact." -> "He's had no CAMHS contact before."
        return re.sub(r"((?:^|(?<=[.!?])\s+))No previous ([a-zA-Z -]+?)\.",
                      lambda m: f"{m.group(1)}{pronoun}{has} had no {m.group(2)} before.", text)

    def _pronoun_for_child(self, text: str) -> str:
        """A data sentence with ``{he}``, ``{his}``, ``{He}`` and ``{does}`` said of this child."""
        he, his = {"female": ("she", "her"), "male": ("he", "his")}.get(self.sex or "", ("they", "their"))
        does = "do" if he == "they" else "does"
        return text.format(he=he, his=his, He=he.capitalize(), His=his.capitalize(), does=does)

    def _child_words(self, text: str) -> str:
        """The child's own words in a record, told by the parent about the child: "She says, 'I'm always
        fidgeting and tapping my feet.'" -> "She says she's always fidgeting and tapping her feet."; a
        record sentence in the child's first person ("I live with my mother Kerry and half-sister
        Ellie-May ...") -> "He lives with his mother and half-sister Ellie-May ..." (the mother then
        says "me"). The informant's own quoted words ("Mother: 'I can't cope'") are left to :meth:`say`."""
        own = dict(_RELATIONS).get(self.relation, ())
        label = re.match(r"^\s*([A-Z][a-z]+)\s*:", text)
        if label and (label.group(1).lower() in own or label.group(1) == self.name or label.group(1).lower() in _LABEL_RELATIVES):
            return text
        he = {"female": "she", "male": "he"}.get(self.sex or "", "they")
        frame = re.match(r"^\s*(?:([A-Z][a-z]+)\s*:\s*|(?:(He|She|They|[A-Z][a-z]+) (?:says|say|said|told (?:us|me|staff|the nurse)|describes it|puts it)(?: that)?[,:]?\s*))?"
                         r"[\"'\u2018\u201c]?(.+?)[\"'\u2019\u201d]?\.?[\"'\u2019\u201d]?\s*$", text)
        if frame is None:
            return text
        who, said = frame.group(2) or frame.group(1), frame.group(3)
        if who and (who.lower() in own or who == self.name or who.lower() in _LABEL_RELATIVES
                    or (who in ("He", "She", "They") and who.lower() != he)):
            return text
        if not re.search(r"\b(?:I|I'm|I've|I'd|I'll|my|My|me|myself)\b", said) or re.search(
                r"\bnot that I (?:can think of|know of|remember|recall|am aware of)\b|\bI'm not sure\b|\bI don't know\b", said, re.IGNORECASE):
            # only the child's words of themself ("There are a few people I can talk to."); an answer's
            # "not that I can think of" is anyone's
            return text
        third = _third_person(said, self.sex)
        if frame.group(2) or frame.group(1):
            return f"{he.capitalize()} {'say' if he == 'they' else 'says'} {third}."
        return third[0].upper() + third[1:] + "."

    def _clinicians_nouns(self, text: str) -> str:
        """The record's clinician words for the child and for who told what, as a parent says them:
        "The patient knows of no relative with mental illness." -> "Not that I know of, nobody in the family
        has had mental illness."; "The patient had no previous episodes" -> "She had no previous episodes";
        "No alcohol ... reported by the child or the adults at home." loses its "reported by ..."; "teachers
        report disruption in class" -> "the teachers tell me about disruption in class" (test-v2-0334)."""
        he = {"female": "she", "male": "he"}.get(self.sex or "", "they")
        text = re.sub(r"^(?:The|the) (?:patient|child|young person) (?:knows of|is aware of|reports) no (?:relatives?|one in the family|family members?) with (.+?)\.?$",
                      r"Not that I know of, nobody in the family has had \1.", text.strip())
        text = re.sub(r",?\s*(?:as )?(?:reported|denied|described|confirmed) by (?:the |his |her |their )?(?:child|patient|young person|adults?|parents?|mother|father|family|carers?|school)"
                      r"(?: (?:or|and) (?:the |his |her |their )?(?:child|patient|adults?|parents?|mother|father|family|carers?)(?: at home)?)?(?: at home)?(?=[.,;]|$)", "", text)
        # "the patient" is always the child; "the child who ran out of the gate" is any child, and stays
        text = re.sub(r"\b([Tt])he (?:patient|young person)\b(?! says)", lambda m: he.capitalize() if m.group(1) == "T" else he, text)
        text = re.sub(r"^(?:The|the) (?:patient|child|young person) says\b", f"{he.capitalize()} {'say' if he == 'they' else 'says'}", text)
        if he == "they":  # "The patient is fighting at home" -> "They are fighting at home", never "They is"
            text = re.sub(r"\b([Tt]hey) (is|has|was|does)\b", lambda m: f"{m.group(1)} {dict(is_='are', has='have', was='were', does='do')[m.group(2) + '_' if m.group(2) == 'is' else m.group(2)]}", text)
        return text

    def _relative_apposition(self, text: str) -> str:
        """"His father, 36, forklift driver, lives in Bolton": a note's appositions after a relative, said:
        "His father is 36, a forklift driver. He lives in Bolton ..." (the relative's own pronoun)."""
        def fix(m: re.Match) -> str:
            who, age, job, rest = m.group(1), m.group(2), m.group(3), m.group(4)
            noun = who.split()[-1].lower()
            pronoun = "She" if noun in _FEMALE_RELATIVES else "He"
            job = job.strip()
            said = f"{who} is {age}" + (f", {_article(job)} {job}" if job else "") + "."
            rest = rest.strip().rstrip(".")
            rest = re.sub(r",\s*(?=(?:was|is|has|had|drinks|works)\b)", " and ", rest)
            if rest:
                rest = re.sub(r"\s*;\s*(?=(?:was|is|has|had|lives|works|left|drinks)\b)", " and ", rest)
                said += f" {pronoun} {rest}."
            return said

        return re.sub(r"^((?:His|Her|Their) (?:father|mother|dad|mum|stepfather|stepmother|brother|sister))\s*,\s*(\d{1,3})\s*,\s*(?:(?:an? )?([a-z][a-z -]{2,40}?)\s*,\s*)?((?:lives|works|is|was|has|had|left|drinks)\b.*)$",
                      fix, text.strip())

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


# the words that hand a question to the informant, dropped when its topics are read ("Mum, ...",
# "A question for her parents: ...", "And may I ask your mother too: ...")
_ADDRESS_WORDS = "|".join(sorted({w for _, ws in _RELATIONS for w in ws} | {"parents", "parent", "grown-up", "carers"}, key=len, reverse=True))
_ADDRESS = re.compile(
    rf"^\s*(?:(?:(?:hi|hello|and|so|ok|okay)\s+)?(?:{_ADDRESS_WORDS})\s*,\s*"
    rf"|(?:(?:and|so)\s+)?(?:a|one|my next) question for (?:(?:his|her|their|your|the)\s+)?(?:{_ADDRESS_WORDS})(?:\s+too)?\s*[:,.-]\s*"
    rf"|(?:(?:and|so)\s+)?(?:could|can|may) I (?:also )?ask (?:(?:his|her|their|your|the)\s+)?(?:{_ADDRESS_WORDS})(?:\s+too)?\s*[:,-]\s*)",
    re.IGNORECASE,
)
# the patient's pronouns turned to the second person: the subject, then the rest (object, possessive, reflexive);
# "her" is "your" before a word that it owns ("her schooling") and "you" otherwise ("hurt her or ...")
_CHILD_PRONOUNS = {
    "male": (r"\bhe\b(?!')", r"\b(himself|his|him|he's|he'd|he'll)\b()"),
    "female": (r"\bshe\b(?!')", r"\b(herself|she's|she'd|she'll|her)\b((?= (?!(?:or|and|to|at|in|on|with|for|from|about|up|down|out|off|back|again|badly|well|feel|be|go|do|get|the|a|an|if|when|that|this|so|as)\b)[a-z]))?"),
}
_SECOND = {"himself": "yourself", "herself": "yourself", "his": "your", "him": "you", "he's": "you're", "she's": "you're",
           "he'd": "you'd", "she'd": "you'd", "he'll": "you'll", "she'll": "you'll"}
_YOU_AGREE = (
    (r"\bhas(?= you\b)", "have"), (r"\bdoes(?= you\b)", "do"), (r"\bis(?= you\b)", "are"), (r"\bwas(?= you\b)", "were"),
    (r"\bhasn't(?= you\b)", "haven't"), (r"\bdoesn't(?= you\b)", "don't"), (r"\bisn't(?= you\b)", "aren't"),
    (r"\bwasn't(?= you\b)", "weren't"), (r"(?<=\byou )has\b", "have"), (r"(?<=\byou )does\b", "do"), (r"(?<=\byou )is\b", "are"),
    (r"(?<=\byou )was\b", "were"), (r"(?<=\byou )hasn't\b", "haven't"), (r"(?<=\byou )doesn't\b", "don't"),
    (r"(?<=\byou )isn't\b", "aren't"), (r"(?<=\byou )wasn't\b", "weren't"),
)


def _cased(word: str, said: str) -> str:
    return said[0].upper() + said[1:] if word[:1].isupper() else said


def _you_verbs(text: str) -> str:
    """"you gets", "you seems" (a third-person verb left after its subject became "you") in the base form."""
    from lemminflect import getLemma

    def fix(m: re.Match) -> str:
        word = m.group(2)
        lemmas = getLemma(word.lower(), upos="VERB")
        if not word.endswith("s") or word.endswith("ss") or not lemmas or lemmas[0] == word.lower():
            return m.group(0)
        return f"{m.group(1)}{lemmas[0]}"

    return re.sub(r"(\byou (?:(?:also|still|ever|often|never|always|usually|sometimes|really) )?)([a-z]+)\b", fix, text, flags=re.IGNORECASE)


@lru_cache(maxsize=1)
def _self_rules() -> dict:
    raw = _read_data("taxonomy.json")["informant_self"]
    return {
        "sex": dict(raw["sex"]),
        "others": {k: frozenset(v) for k, v in raw["others"].items()},
        "object_after": frozenset(raw["object_after"]),
    }


_POSSESSIVE = {"female": "Her", "male": "His"}
# sections a person giving an adult's history reads from the chart as it is (doses and all), not in his words
CHART_LISTS = frozenset({"medications", "allergies"})
_ILLNESS_SECTIONS = frozenset({"history_of_present_illness", "chief_complaint"})
_FEMALE_RELATIVES = frozenset({"mother", "mum", "stepmother", "sister", "grandmother", "nan", "aunt", "auntie", "daughter", "wife"})
# a sentence that opens with a relative as its subject ("His father, 36, ...", "Mother ...", "My mum ...")
_RELATIVE_LEAD = (r"^\s*(?:(?:[Hh]is|[Hh]er|[Tt]heir|[Mm]y) )?(?:[Mm]aternal |[Pp]aternal |[Oo]lder |[Yy]ounger )?"
                  r"(?:[Ff]ather|[Mm]other|[Dd]ad|[Mm]um|[Ss]tepfather|[Ss]tepmother|[Bb]rother|[Ss]ister|[Gg]randmother|[Gg]randfather"
                  r"|[Uu]ncle|[Aa]unt|[Cc]ousin|[Nn]an|[Gg]randad)\b")


def _article(phrase: str) -> str:
    return "an" if phrase[:1].lower() in "aeiou" else "a"


def _third_person(said: str, sex: str | None) -> str:
    """The child's first-person words in the third person: "I'm always fidgeting and tapping my feet" ->
    "she's always fidgeting and tapping her feet"; "I live with my mother" -> "he lives with his mother"."""
    from lemminflect import getAllLemmas, getInflection

    he, him, his, himself = {"female": ("she", "her", "her", "herself"), "male": ("he", "him", "his", "himself")}.get(
        sex or "", ("they", "them", "their", "themselves"))
    plural = he == "they"
    contracted = {"I'm": f"{he}'{'re' if plural else 's'}", "I've": f"{he}'{'ve' if plural else 's'}", "I'd": f"{he}'d", "I'll": f"{he}'ll"}
    text = re.sub(r"\bI(?:'m|'ve|'d|'ll)\b", lambda m: contracted[m.group(0)], said)
    text = re.sub(r"\bI am\b", f"{he} {'are' if plural else 'is'}", text)
    text = re.sub(r"\bI haven't\b", f"{he} {'haven' if plural else 'hasn'}'t", text)  # never "he haven't"
    text = re.sub(r"\bI was\b", f"{he} {'were' if plural else 'was'}", text)
    if not plural:
        text = re.sub(r"\bI (don't|do not)\b", lambda m: f"{he} {'doesn' + chr(39) + 't' if m.group(1) == 'don' + chr(39) + 't' else 'does not'}", text)

    def verb(m: re.Match) -> str:
        adverb, word = m.group(1) or "", m.group(2)
        if plural:
            return f"{he} {adverb}{word}"
        if word in ("have", "do", "go"):
            said = {"have": "has", "do": "does", "go": "goes"}[word]
        elif word in ("can", "could", "will", "would", "shall", "should", "may", "might", "must", "did", "had", "was"):
            said = word
        elif "VERB" in getAllLemmas(word) and getAllLemmas(word)["VERB"][0] == word:
            said = (getInflection(word, "VBZ") or (word + "s",))[0]
        else:
            said = word  # "I can", "I never", "I went": as they are
        return f"{he} {adverb}{said}"

    text = re.sub(r"\bI ((?:also|still|just|always|never|often|sometimes|usually|really|only) )?([a-z]+)\b", verb, text)
    text = re.sub(r"\bI\b", he, text)
    text = re.sub(r"\bmyself\b", himself, text)
    text = re.sub(r"\bmy\b", his, text, flags=re.IGNORECASE)
    text = re.sub(r"\bme\b", him, text)
    text = re.sub(r"\bmine\b", "hers" if sex == "female" else "his", text)
    # "Mummy", "Daddy" in a child's words are the child's
    text = re.sub(r"\b(Mummy|Mommy|Mum|Mom|Daddy|Dad)\b", lambda m: f"{his} {m.group(1).lower().replace('mmy', 'm').replace('ddy', 'd')}", text)
    return text


def _me_after_preposition(text: str) -> str:
    """The informant's own name said as "I" where it is an object: "She's angry with I about the car" (uw-033's
    daughter, the record's "angry with Kristen") is "angry with me"."""
    return re.sub(r"\b(with|to|at|about|for|from|of|on|by|against|like|than|without|towards?|behind|beside|near)\s+I\b(?!')",
                  r"\1 me", text)


def _i_and_verbs(text: str) -> str:
    """"I have been treated by my GP ... and takes sertraline": a verb joined to the informant's "I" in
    the base form ("and take sertraline")."""
    from lemminflect import getAllLemmas

    def sentence(part: str) -> str:
        if not re.match(r"^\s*I\b", part):
            return part

        def fix(m: re.Match) -> str:
            word = m.group(2)
            lemmas = getAllLemmas(word).get("VERB")
            if not word.endswith("s") or word.endswith("ss") or not lemmas or lemmas[0] == word:
                return m.group(0)
            return f"{m.group(1)}{_IRREGULAR.get(word) or lemmas[0]}"

        return re.sub(r"(\b(?:and|but|or) (?:(?:also|still|now) )?)([a-z]+)\b", fix, part)

    return " ".join(sentence(p) for p in re.split(r"(?<=[.!?])\s+", text))


def _me_as_subject(text: str) -> str:
    """"which me thinks is hay fever" (the record's "his mother" become "me" as a subject): "which I think"."""
    from lemminflect import getAllLemmas

    def fix(m: re.Match) -> str:
        word = m.group(2)
        lemmas = getAllLemmas(word).get("VERB")
        if not word.endswith("s") or not lemmas or lemmas[0] == word:
            return m.group(0)
        return f"{m.group(1)}I {_IRREGULAR.get(word) or lemmas[0]}"

    text = re.sub(r"(\b(?:which|that|who|and|but|as|because|so|what|where|when|than|while|whenever|if|until|since|after|before) )me ([a-z]+)\b", fix, text)

    def after_noun(m: re.Match) -> str:
        # "on the three nights a week me works night shifts" (uw-011, "his mother works" said by her): after a noun
        # that is only ever a noun, "me" and a third-person verb open a clause whose subject is the informant
        noun = getAllLemmas(m.group(1).lower())
        if "VERB" in noun or "NOUN" not in noun:
            return m.group(0)
        return m.group(1) + " " + fix(re.match(r"()me ([a-z]+)\b", m.group(0)[len(m.group(1)) + 1:]))

    return re.sub(r"\b([a-z]+) me [a-z]+\b", after_noun, text)


@lru_cache(maxsize=1)
def _none_table() -> dict:
    return _read_data("taxonomy.json").get("informant_none_says", {})


def _none_says(section: str, text: str) -> str | None:
    """A section's bare "None." / "Nil." / "Nil known." as a parent says it (``taxonomy.json``
    ``informant_none_says``: "{He} doesn't take any medicines.")."""
    if not section or not re.fullmatch(r"\s*(?:none|nil|nothing)(?: known| of note| regular| reported)?\.?\s*", text, re.IGNORECASE):
        return None
    return _none_table().get(section)
# a note's count opening a verbless sentence ("Two fixed-term exclusions this year")
_COUNT_WORDS = ("Two", "Three", "Four", "Five", "Six", "Several", "Multiple", "Repeated", "Frequent", "Many")
_LABEL_RELATIVES = frozenset({"mother", "father", "mum", "dad", "brother", "sister", "grandmother", "grandfather", "stepfather", "stepmother"})
# a bare noun phrase after a relative the record names without a verb ("Father a bus driver",
# "Grandmother nearby"): said with "is"
_VERBLESS_AFTER = re.compile(r"\b((?:Her|His|Their) (?:mother|father|brother|sister|grandmother|grandfather|stepfather|stepmother|nan|grandad))"
                             r" (?=(?:a|an|nearby|well|retired|alive|local)\b)")
_I_VERB = re.compile(r"\b(I|me) (?:(also|still|now|often|never|always|usually|sometimes) )?([a-z]+)\b")
_VERB_TAKES = frozenset({"a", "an", "the", "no", "her", "his", "their", "to", "in", "at", "on", "with", "up", "out", "off", "for",
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
    """The case's informant: the persona's ``informant`` (the first relation it names, and the name beside
    that relation, if any), or a parent for a patient under 13; ``None`` when the patient comes alone. An adult
    whose record says the person present answers for him (``answers_for`` of ``data/informant.json``, read in the
    informant field and the speech style) has them answer his history (:attr:`Informant.knows`).

    The relation is the one named first, not the first of the table named anywhere: "Key worker Dean Ashworth
    ... crying at night with Mum's scarf" is a carer, not a mother (uw-030); "his wife Jo ... his father's ups and
    downs" a wife (uw-009). The name is the one beside it ("Key worker Dean", "His mother, Helen Maddox", "Her
    husband Mr Ramesh"), never a capitalised word elsewhere ("Key", "Mr", "Attends")."""
    persona = case.effective_persona
    described = persona.informant
    if not described and case.demographics.age >= CHILD_AGE:
        return None
    text = described or ""
    found = [(m.start(), -len(w), r, m) for r, words in _RELATIONS for w in words
             for m in [re.search(rf"\b{w}s?\b", text, re.IGNORECASE)] if m is not None]
    in_room = not (described and _said("not_in_room", described))
    if not found:
        return Informant("parent", _name_beside(text, None), case.demographics.sex,
                         _answers_for(case, text, persona.speech_style), _corrections(text),
                         _worries(text, "parent", case.demographics.sex), in_room, _unknown(text))
    _, _, relation, match = min(found, key=lambda f: f[:2])
    return Informant(relation, _name_beside(text, match), case.demographics.sex,
                     _answers_for(case, text, persona.speech_style), _corrections(text),
                     _worries(text, relation, case.demographics.sex), in_room, _unknown(text))


def _unknown(described: str) -> tuple[frozenset[str], ...]:
    """What the persona says the person present does not know, each item as its named stems ("Does not know about the
    nicotine pouches, the cutting, the blade in the pencil case, or that he counted her zopiklon before she locked them
    away (she believes ...)" -> {nicotin, pouch}, {cut}, {blade, pencil, case}, {count, zopiklon, lock, away}):
    ``does_not_know`` of ``data/informant.json``."""
    items: list[frozenset[str]] = []
    for cue in _informant_cues()["does_not_know"]["cues"]:
        for m in re.finditer(cue, described or "", re.IGNORECASE):
            what = re.sub(r"\([^()]*\)", " ", m.group("what"))
            for part in re.split(r"\s*(?:[,;]\s*(?:and|or)?|\band\b|\bor\b|\bnor\b)\s*", what):
                stems = _stems(part)
                if stems:
                    items.append(frozenset(stems))
    return tuple(dict.fromkeys(items))


def _stems(text: str) -> set[str]:
    """The stems of what a text names, stopwords and words under three letters left out ("cut" stays)."""
    from .reading import load_memory_cues
    from .understanding import stems_of

    stop = load_memory_cues().stopwords
    return {s for s in stems_of(text) if len(s) >= 3 and s not in stop}


def _same_stem(a: str, b: str) -> bool:
    """Whether two stems name the same word, one the other's head ("vap" of "the vaping", "vape" of "he vapes")."""
    return a == b or (min(len(a), len(b)) >= 3 and (a.startswith(b) or b.startswith(a)) and abs(len(a) - len(b)) <= 2)


def _share_needed(item: frozenset[str], share: float) -> int:
    """How many of an item's stems a sentence must hold to say it: one of a short item ("the cutting"), else
    ``share`` of them ("that he counted her zopiklon before she locked them away": three of four)."""
    return 1 if len(item) <= 2 else math.ceil(len(item) * share - 1e-9)


def _worries(described: str, relation: str, sex: str | None) -> tuple[str, ...]:
    """The worries the persona gives the person present, each said in their voice (``own_worries`` of
    ``data/informant.json``): "wants to know what the illness is, what to expect and whether her mother can stay alone
    at night" beside a daughter -> "I want to know what the illness is, what to expect and whether she can stay alone
    at night."; none where it gives none, or where the person is not in the room for the whole visit (sent out, joining
    later, there for part of it, on the telephone: ``not_in_room``, ``later``, ``own_worries.away``)."""
    data = _informant_cues()["own_worries"]
    if not described or _said("not_in_room", described) or _said("later", described) or any(
            re.search(cue, described, re.IGNORECASE) for cue in data["away"]):
        return ()  # not in the room for the whole visit: they have no moment of their own to be asked in
    named = data["patient_as"].get(relation, {}).get(sex or "")
    subject, possessive = {"female": ("she", "her"), "male": ("he", "his")}.get(sex or "", ("they", "their"))
    found: list[tuple[int, str]] = []
    for frame in data["frames"]:
        for m in re.finditer(frame["find"], described, re.IGNORECASE):
            what = m.group("what").strip(" ,'\u2019")
            if named:  # "whether her mother can stay alone" said by her daughter: "whether she can ..."
                what = re.sub(rf"\b(?:his|her|their) (?:{named})(?:'s|\u2019s)", possessive, what, flags=re.IGNORECASE)
                what = re.sub(rf"\b(?:his|her|their) (?:{named})\b", subject, what, flags=re.IGNORECASE)
            feeling = m.groupdict().get("feeling") or ""
            if what:
                found.append((m.start(), frame["say"].format(what=what, feeling=feeling.lower())))
    return tuple(dict.fromkeys(said for _, said in sorted(found)))


# one quotation of a list: opened after the list's start or its separator, closed before a separator or the end
# (an apostrophe inside a word, "it's", does not close it)
_QUOTED = re.compile(r"\s*(?:and\s+)?['\u2018\u201c\"]((?:[^'\u2019\u201d\"]|['\u2019](?=[a-z]))+)['\u2019\u201d\"]\s*([;,])?")


def _corrections(described: str) -> tuple[str, ...]:
    """What the persona says the person present corrects the patient on, in their words, each as a sentence
    ("Corrects her: 'Mom, the bottle was empty by the 30th'; 'it was a box of wine a week, not a small glass'" ->
    "Mom, the bottle was empty by the 30th.", "It was a box of wine a week, not a small glass."); none where the
    persona names no such list (``corrects`` of ``data/informant.json``)."""
    out: list[str] = []
    for cue in _informant_cues()["corrects"]["cues"]:
        for m in re.finditer(cue, described or "", re.IGNORECASE):
            at = m.end()
            while (q := _QUOTED.match(described, at)) is not None:
                words = q.group(1).strip()
                if words:
                    words = words[0].upper() + words[1:]
                    out.append(words if words.endswith((".", "!", "?")) else words + ".")
                at = q.end()
                if not q.group(2):
                    break
    return tuple(dict.fromkeys(out))


def correction_subject(words: str) -> str:
    """A correction as its topic is read: the name the patient is called by at its head left out ("Mom, the bottle
    ..." is about the bottle, not the mood)."""
    return re.sub(_informant_cues()["corrects"]["address"], "", words, flags=re.IGNORECASE)


def without_measures(text: str) -> str:
    """``text`` with its counts and measures of time left out (``corrects.measures``): no measure is what a correction
    corrects ("It's an hour in the shower, not ten minutes." is about the shower, not about minutes)."""
    return re.sub(_informant_cues()["corrects"]["measures"], " ", text, flags=re.IGNORECASE)


_TITLE = r"(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr)\.?\s+)"
_NAME = r"([A-Z][^\W\d_]+)"


def _name_beside(text: str, relation: re.Match | None) -> str | None:
    """The informant's given name: the capitalised word after their relation ("mother Kelly", "wife, Kelly
    Whitlock", "husband Mr Ramesh"), else the one before it ("Kelly, his mother"); with no relation named, a
    name opening the field ("Sam, present throughout")."""
    if relation is None:
        m = re.match(rf"\s*{_TITLE}?{_NAME}\b(?=\s*[,(]|\s*$)", text)
        return m.group(1) if m and m.group(1).lower() not in _NOT_NAMES else None
    after = re.match(rf"(?:\s+(?:carer|worker|parent)s?)*[\s,]*{_TITLE}?{_NAME}", text[relation.end():])
    if after and after.group(1).lower() not in _NOT_NAMES:
        return after.group(1)
    before = re.search(rf"{_NAME},?\s+(?:(?:his|her|their|the)\s+)?$", text[: relation.start()])
    if before and before.group(1).lower() not in _NOT_NAMES:
        return before.group(1)
    return None


# capitalised words beside a relation that are no name ("Mother (present ...)", "Parents: ...")
_NOT_NAMES = frozenset({"his", "her", "their", "the", "a", "an", "and", "who", "present", "attends", "seen", "none",
                        "parent", "parents", "mother", "father", "both", "also", "at", "by", "on", "in", "with"})


@lru_cache(maxsize=1)
def _informant_cues() -> dict:
    return _read_data("informant.json")


@lru_cache(maxsize=1)
def _adult_topics() -> frozenset[str]:
    return frozenset(_informant_cues()["answers_for"]["topics"])


def _said(key: str, *texts: str | None) -> bool:
    """Whether any text says one of the cues of ``key`` in ``data/informant.json``."""
    return any(re.search(cue, t, re.IGNORECASE) for cue in _informant_cues()[key]["cues"] for t in texts if t)


def _answers_for(case: Case, described: str, speech_style: str | None) -> bool:
    """Whether the record says the person present answers for an adult (a child's parent answers the history
    whatever the record says): a cue of ``answers_for``, and none of ``not_in_room`` (uw-015's boyfriend "answered
    for her ... and was asked to step out")."""
    if case.demographics.age < ADULT_AGE or not described:
        return False  # a young person is asked herself, her parent asked their own questions (uw-008)
    return _said("answers_for", described, speech_style) and not _said("not_in_room", described)


def informant_role(case: Case) -> str | None:
    """What the record says the person present with an adult gives (``data/informant.json``), for what the
    clinician is told on walking in (:func:`walk_in_role`): ``"history"`` where they answer for him
    (:attr:`Informant.answers_for`), ``"later"`` where they give an account of their own (``gives_history``) and
    join for the later part only or he is seen alone first (``later``), ``"account"`` where they give one and are
    present throughout; None for a patient under 18 (a child's parent, a young person's, are asked as before), for
    one nobody came with or whose companion was sent out (``not_in_room``), and where the record gives them no
    account of their own."""
    persona = case.effective_persona
    described = persona.informant
    if case.demographics.age < ADULT_AGE or not described or _said("not_in_room", described):
        return None
    if _answers_for(case, described, persona.speech_style):
        return "history"
    if not _said("gives_history", described):
        return None
    return "later" if _said("later", described) else "account"


def walk_in_role(case: Case, present: str) -> str:
    """The sentence the clinician is told on walking in about the person present (``present``: who they are, as
    the walk-in names them, "his wife", "a key worker"): what they can give and when they join (``walk_in`` of
    ``data/informant.json``, by :func:`informant_role`); empty where the record says nothing of it."""
    role = informant_role(case)
    if role is None:
        return ""
    who = re.sub(r"^(?:a|an)\s+", "the ", present)
    return _informant_cues()["walk_in"][role].format(Who=who[:1].upper() + who[1:])

