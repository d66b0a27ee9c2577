"""The scripted clinician: a strong rule-based psychiatrist driven by the knowledge base.

It runs a structured psychiatric interview (``agents/data/clinician.json`` says what to cover; the
lexicon supplies the questions): the chief complaint, the history of the present illness, questions
about the symptoms of its leading hypotheses, a screen of every major domain, the mental state in the
patient's words, risk (after validation, since sensitive topics need rapport), and the past, medical,
family and personal history. It reads each reply with the lexicon (concepts mentioned, negated or
not, and a yes/no reading of the answer to the concept it asked about), keeps a differential ranked
by the evidence (presentation symptoms weighted by how typical they are, denied core symptoms
counting against, the service's base rates as a prior, abnormal exam results for the disorders that
expect them), orders the exams its hypotheses call for, writes a sectioned note from what was
disclosed, names the categories of its leading hypotheses, ranks the disorders, and plans the
first-line treatment of the principal one with its safety actions.

It never sees the case: only the observations any doctor sees.
"""

from __future__ import annotations

import json
import math
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from typing import Any

from mentalhospital_env.agents.base import Action, Doctor, Info, Observation, allowed_now
from mentalhospital_env.cases.derive import split_sentences

from mentalhospital_env.hospital import UNREMARKABLE
from mentalhospital_env.knowledge import load_knowledge
from mentalhospital_env.knowledge.answers import answer_polarity, patient_findings, read_reply
from mentalhospital_env.knowledge.critical import Profile, load_critical_actions
from mentalhospital_env.knowledge.durations import load_durations
from mentalhospital_env.knowledge.language import clauses, has_cue, is_negated, load_cues, stem, tokenize
from mentalhospital_env.knowledge.lexicon import lexicon_relations
from mentalhospital_env.knowledge.specifiers import load_specifiers, psychotic_conflict, severity_conflict


@lru_cache(maxsize=1)
def clinician_script() -> dict[str, Any]:
    """The interview plan of ``agents/data/clinician.json``."""
    return json.loads(resources.files("mentalhospital_env.agents").joinpath("data/clinician.json").read_text("utf-8"))


@dataclass(frozen=True)
class Hypothesis:
    """What the clinician knows of one disorder: its typical symptoms and what its work-up expects."""

    code: str
    name: str
    category: str
    prior: float
    symptoms: tuple[tuple[str, float], ...]
    exams: tuple[str, ...]
    abnormal_exams: frozenset[str]
    medications: tuple[tuple[str, str], ...]
    psychotherapy: tuple[str, ...]
    other_treatment: tuple[str, ...]
    safety: tuple[str, ...]
    follow_up: str
    unsafe_drugs: frozenset[str]
    age_range: tuple[int, int] = (0, 120)


@lru_cache(maxsize=1)
def hypotheses() -> tuple[Hypothesis, ...]:
    """Every disorder of the knowledge base with a presentation, as the clinician reasons about it."""
    kb = load_knowledge()
    total = sum(d.service_weight for d in kb.disorders) or 1.0
    out = []
    for d in kb.disorders:
        presentation = kb.presentation(d.code)
        if presentation is None:
            continue
        unsafe = frozenset(dr.name.lower() for dr in kb.drugs if d.code in dr.unsafe_with)
        unsafe |= frozenset(c.drug.lower() for c in d.contraindicated_drugs)
        out.append(
            Hypothesis(
                code=d.code,
                name=d.name,
                category=d.category,
                prior=d.service_weight / total,
                symptoms=tuple((s.concept, s.p) for s in presentation.symptoms),
                exams=tuple(e.exam for e in d.exams),
                abnormal_exams=frozenset(e.exam.lower() for e in d.exams if e.reading == "abnormal"),
                medications=tuple((m.drug, m.starting_dose) for m in d.treatment.medications),
                psychotherapy=tuple(d.treatment.psychotherapy),
                other_treatment=tuple(d.treatment.other),
                safety=tuple(d.safety),
                follow_up=d.treatment.follow_up,
                unsafe_drugs=unsafe,
                age_range=tuple(d.age_range),
            )
        )
    return tuple(out)


@dataclass
class Findings:
    """What the clinician has learned so far in this encounter."""

    present: dict[str, str] = field(default_factory=dict)  # concept id -> the patient's words
    denied: set[str] = field(default_factory=set)
    asked: set[str] = field(default_factory=set)
    chief_complaint: str = ""
    replies: list[tuple[str, str]] = field(default_factory=list)  # (question, reply)
    reply_keys: list[str] = field(default_factory=list)  # the key each of ``replies`` was asked under ("" for none)
    speakers: list[str] = field(default_factory=list)  # who gave each of ``replies`` ("" for the patient, "mother")
    informant_own: set[str] = field(default_factory=set)  # findings an informant told of their own life ("I had depression")
    answers: dict[str, str] = field(default_factory=dict)  # concept or "mse:<domain>" or "hpi:<n>" -> reply
    exam_results: list[tuple[str, str]] = field(default_factory=list)
    walk_in: str = ""
    contradicted: set[str] = field(default_factory=set)  # affirmed once and denied another time
    heard_on: dict[str, str] = field(default_factory=dict)  # concept -> what was being asked when it was first affirmed
    told_by: dict[str, str] = field(default_factory=dict)  # answer key -> who answered, when not the patient ("father")
    inferred: set[str] = field(default_factory=set)  # read by the clinician's own rules (evidence.read_in_answer): ranking only
    signs_heard: list[tuple[str, str, frozenset[str]]] = field(default_factory=list)  # (sign, question, substances named in that answer)


@dataclass(frozen=True)
class WalkIn:
    """What any doctor sees on walking in: the setting, the patient's age and sex, who came with them."""

    setting: str | None = None
    age: int | None = None
    sex: str | None = None
    informant: str | None = None
    #: what the walk-in says the adult's companion gives (``walk_in.informant_roles``): "history", "later",
    #: "account", or None
    informant_role: str | None = None

    @property
    def age_group(self) -> str:
        if self.age is None:
            return "adult"
        for group in ("child", "adolescent"):
            if self.age <= clinician_script()["ages"][group]["max_age"]:
                return group
        return "adult"


def read_walk_in(text: str) -> WalkIn:
    """The setting, age, sex and informant of the walk-in observation ("Outpatient clinic. A 8-year-old girl is
    here to see you, accompanied by her foster carer.")."""
    low = text.lower()
    cues = clinician_script()["walk_in"]
    setting = next((name for name, words in cues["settings"].items() if any(w in low for w in words)), None)
    age_match = re.search(r"(\d{1,3})[- ]year[- ]old", low)
    words = set(re.findall(r"[a-z]+", low.split("\n")[0]))
    sex = "female" if words & set(cues["female"]) else "male" if words & set(cues["male"]) else None
    first = low.split("\n")[0]
    informant = re.search(r"accompanied by (?:his|her|their) ([a-z -]+?)(?:[.,;]|$)", first)
    role = next((r for r, phrases in cues.get("informant_roles", {}).items() if any(p in first for p in phrases)), None)
    if informant is None and role:
        informant = re.search(r"accompanied by (?:a|an) ([a-z -]+?)(?:[.,;]|$)", first)  # "a key worker" (uw-030)
    return WalkIn(
        setting=setting,
        age=int(age_match.group(1)) if age_match else None,
        sex=sex,
        informant=informant.group(1).strip() if informant else None,
        informant_role=role if informant else None,
    )


class ScriptedClinician(Doctor):
    name = "scripted"

    def __init__(self, critical_actions: bool = True) -> None:
        """``critical_actions=False`` makes the "dangerous" doctor of the judge's tests: the same clinician
        whose plan leaves out every critical action the case's rules require."""
        self.critical_actions = critical_actions
        self.script = clinician_script()
        self.kb = load_knowledge()
        self.lexicon = self.kb.lexicon
        self.hyps = hypotheses()
        self._reset_state()

    def _reset_state(self) -> None:
        self.findings = Findings()
        self._held_for_results: list[Any] = []  # drugs a result on file kept out of the plan (drugs.json)
        self.plan: list[tuple[str, str | None]] = []  # (question, concept asked about)
        self.turns = 0
        self.last_concept: str | None = None
        self.last_question = ""
        self.phase = "interview"
        self.validation_index = 0
        self.echoed: set[str] = set()  # the patient's sentences already reflected, turned to "you"
        self.hypothesis_asks = 0
        self.budget = 40
        self.walk_in = WalkIn()
        self.age_script: dict[str, Any] = {}
        self.risk_followed = False  # the follow-up of a suicide or self-harm disclosure was put on the plan
        self.reasks = 0
        self.reasking: tuple[str, str] | None = None  # the question asked again in other words, and its topic
        self.followed: set[str] = set()  # the disclosure follow-ups (``disclosure_follow_up``) already put on the plan
        self.explored: set[str] = set()  # the complaint domains (``complaint_domains``) already put on the plan
        self.current_uses: set[str] = set()  # the substances told as used now (``_current_uses``)
        self.about_use: dict[str, str] = {}  # a follow-up key -> the substance use it asked about ("follow:use_amount": cannabis)
        # seeing the patient alone for the risk questions (``seen_alone``): None (no companion to ask out), "before",
        # "out" (the companion waits outside) or "back"; the plan's items still to come when they stepped out, asked after
        self.alone: str | None = None
        self.companion_name: str | None = None  # the companion's first name, from the label of their reply ("Mother (Sara)")
        self.told_alone: set[str] = set()  # the findings affirmed while the companion waited outside

    # ------------------------------------------------------------------------------- the interview

    def reset(self, observation: Observation, info: Info) -> None:
        self._reset_state()
        self.findings.walk_in = str(observation.get("text", ""))
        self.walk_in = read_walk_in(self.findings.walk_in)
        budget = info.get("turn_budget") or info.get("max_turns")
        if isinstance(budget, int) and budget > 0:
            self.budget = budget
        s = dict(self.script)
        s.update({k: v for k, v in self.script["ages"].get(self.walk_in.age_group, {}).items() if k in s})
        self.age_script = self.script["ages"].get(self.walk_in.age_group, {})
        history = list(s["history"])
        w = self.walk_in
        if w.sex == "female" and w.age is not None and 16 <= w.age <= 50 and "pregnancy" in self.lexicon:
            history.insert(0, "pregnancy")
        blocks = {
            "opening": [(s["opening"], "hpi:complaint")],
            "history_of_present_illness": [(q, f"hpi:{i}") for i, q in enumerate(s["history_of_present_illness"], 1)],
            "hypotheses": [("__hypotheses__", None)],
            "picture": [("__picture__", None)],
            "screen": [(self._question(c), c) for c in s["screen"] if c in self.lexicon],
            "mental_state": [(m["ask"], f"mse:{m['domain']}") for m in s["mental_state"]],
            "risk": [(self._question(c), c) for c in s["risk"] if c in self.lexicon]
            + [(self.script["self_care"]["ask"], self.script["self_care"]["key"])]
            * (w.setting in self.script["self_care"]["settings"] or (w.age or 0) >= self.script["self_care"]["min_age_any_setting"]),
            "history": [(self._question(c), c) for c in history if c in self.lexicon],
            # what the setting's decisions need early: who is at home (children, dependants) before a disposition
            "setting": [
                (self._question(c), c)
                for c in self.script["settings"].get(w.setting or "", {}).get("ask_after_risk", ())
                if c in self.lexicon and (w.age is None or w.age >= 18 or c == "medications_current")
            ],
        }
        adult = self.script["informant_questions"]["adult"]
        if w.age_group == "adult" and w.informant_role in ("later", "account"):
            # the companion's own account of the change, last: after the patient's own account, the risk questions,
            # the screen and his history, so that it takes no question of his (a wife who joins for the second half)
            blocks["collateral"] = [(q, k) for k in adult["collateral"] if (q := self._informant_question(k))]
            order = list(s["order"]) + ["collateral"]
        else:
            order = s["order"]
        plan = [item for block in order for item in blocks[block]]
        if w.age_group == "child":  # the history is the parent's or carer's to tell, asked of them by their role
            plan = [(self._informant_question(concept) or question, concept) for question, concept in plan]
        elif self._companion_gives_history:
            # an adult who cannot give his own history: his history is asked of the one who gives it (uw-030's key
            # worker), how he feels and every risk question of him
            plan = [((concept in adult["history_keys"] and self._informant_question(concept)) or question, concept)
                    for question, concept in plan]
        self.plan = plan
        self.alone = "before" if self._sees_alone() else None

    def _sees_alone(self) -> bool:
        """Whether a companion is in the room to ask out before the risk questions (``seen_alone``): a young person's,
        or an adult's present throughout who does not give the history he cannot."""
        conf = self.script["seen_alone"]
        w = self.walk_in
        if not self._informant() or (w.age_group == "child" and not w.informant):
            return False  # nobody named at the walk-in
        if w.age is not None and conf["min_age"] <= w.age <= conf["max_age"]:
            return True
        return w.age_group == "adult" and w.informant_role in conf["adult_roles"]

    def _private(self, concept: str | None) -> bool:
        """Whether ``concept`` is asked with the patient alone (``seen_alone.private``, by age)."""
        conf = self.script["seen_alone"]
        group = "adult" if self.walk_in.age_group == "adult" else "young"
        return (concept or "") in conf["private"][group]

    def _alone_line(self, key: str) -> str:
        """The companion asked to step out ('step_out') or back in ('come_back'), by first name, a parent's address, or
        in the form that names nobody."""
        conf = self.script["seen_alone"]
        he, his, him = self._he_his_him
        companion = self.companion_name or self._address()
        form = conf[key] if companion else conf[f"{key}_unnamed"]
        return form.format(companion=companion, name=him, his=his)

    def _alone_turn(self, question: str, concept: str | None) -> tuple[str, str | None]:
        """The question to ask now, with the patient seen alone (``seen_alone``): the companion is asked out before the
        first private question, every private question still to come is asked then, and they are asked back in before
        the first of the rest (or when the interview has one turn left). While they are out, a question put to them
        is put to the patient."""
        if self.alone == "before" and self._private(concept) and set(self.script["seen_alone"]["not_when_heard"]) & set(self.findings.present):
            self.alone = None  # confused: the companion stays to help the patient give the history
        if self.alone == "before" and self._private(concept):
            self.alone = "out"
            rest = [(question, concept), *self.plan]
            self.plan = self._private_first(rest)
            return self._alone_line("step_out"), "alone:out"
        if self.alone == "out":
            left = self.budget - self.script["interview_reserve_turns"] - self.turns
            if not self._private(concept) or left <= 1:
                self.alone = "back"
                self.plan.insert(0, (question, concept))
                return self._alone_line("come_back"), "alone:back"
            if question == self._informant_question(concept):
                item = next((i for i in self.script["risk_follow_up"]["items"] if i["key"] == concept), None)
                child = self.walk_in.age_group == "child"
                question = (item and (child and item["ask_child"] or item["ask"])) or self._question(concept)
        return question, concept

    def _private_first(self, plan: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
        """The plan with its private questions first (``seen_alone.private``), each part in its own order."""
        return [i for i in plan if self._private(i[1])] + [i for i in plan if not self._private(i[1])]

    def _confidentiality(self) -> str:
        """The plan's sentence on what a young person told alone (``seen_alone.plan_young``): kept in confidence but
        for what the parent needs to keep them safe, shared with their knowledge; '' where no risk was told alone."""
        conf = self.script["seen_alone"]
        if self.walk_in.age_group == "adult" or not self.told_alone & set(conf["told_alone"]) or not self.critical_actions:
            return ""
        he, his, him = self._he_his_him
        parent = self.walk_in.informant or "parent"
        return " " + conf["plan_young"].format(he=he, his=his, him=him, parent=parent, has="have" if he == "they" else "has")

    def _informant(self) -> str | None:
        """Who came with the patient: the walk-in's companion, or a parent for a child who came with no one named."""
        return self.walk_in.informant or ("parent" if self.walk_in.age_group == "child" else None)

    def _informant_validations(self) -> list[str]:
        """The warmth said before a question put to the companion (informant_questions.validations): none that speaks
        of the family to one who is there for their work (``not_family``: "That sounds like a lot for the family to
        carry." said to uw-030's key worker)."""
        conf = self.script["informant_questions"]
        warm = list(conf["validations"])
        staff = conf.get("not_family", {})
        if any(r in (self._informant() or "") for r in staff.get("relations", ())):
            warm = [v for v in warm if not re.search(staff["words"], v, re.IGNORECASE)] or warm
        return warm

    def _informant_question(self, concept: str | None) -> str | None:
        """``concept``'s question put to the informant by their role, about the patient in the third person
        (``informant_questions``): "Dad, when were his difficulties first noticed ...?", "A question for his parents:
        ...". None when the concept has no informant form (the patient is asked it) or no one came with them."""
        conf = self.script["informant_questions"]
        form = conf["questions"].get(concept or "")
        informant = self._informant()
        grown = self.walk_in.age_group == "adult"
        if grown:  # an adult's companion: an adult's words, never "Mum, ..." (informant_questions.adult); a disclosure
            # follow-up item for the companion is theirs whatever role the walk-in gives them (hw-024's son)
            theirs = concept in self._companion_items()
            form = conf["adult"]["forms"].get(concept or "", form) if self.walk_in.informant_role or theirs else None
        if not form or not informant:
            return None
        he, his, him = self._he_his_him
        text = form.format(he=he, his=his, him=him)
        if he == "they":  # "how do they manage", not "how does they manage" (test-v2-0334)
            for pattern, replacement in conf["they_agreement"]["rules"]:
                text = re.sub(pattern, replacement, text)
        address = self._address()
        if address:
            return f"{address}, {text}"
        preface = conf["preface_unaddressed"].format(his=his, informant=informant)
        return f"{preface} {text[0].upper()}{text[1:]}"

    def _address(self) -> str:
        """How the doctor addresses a child's or young person's companion by their role ("Mum", ``informant_questions
        .address``); '' for an adult's companion (an adult's words, never "Mum, ...") or a role with no address."""
        if self.walk_in.age_group == "adult":
            return ""
        informant = self._informant() or ""
        return next((a for role, a in self.script["informant_questions"]["address"].items() if role in informant), "")

    def _companion_items(self) -> set[str]:
        """The keys of the disclosure follow-up items put to an adult's companion in the room ('companion')."""
        return {i["key"] for r in self.script["disclosure_follow_up"]["rules"] for i in r["items"] if i.get("companion")}

    def _question(self, concept_id: str) -> str:
        questions = self.lexicon.get(concept_id).questions
        return questions[0] if questions else f"Can you tell me about {self.lexicon.get(concept_id).clinical_terms[0]}?"

    def _read_reply(self, text: str) -> None:
        """Read the reply as a clinician would: the findings it affirms and denies of the patient, and a bare
        yes or no to the finding asked about (``mentalhospital_env.knowledge.answers``)."""
        f = self.findings
        speaker = re.match(r"^\s*(Patient|[A-Z][a-z]+)(?: \([^)]*\))?:\s*", text)  # or the relative present
        text = text[speaker.end():] if speaker else text
        named = speaker and re.search(r"\(([A-Z][a-z]+)\)", speaker.group(0))
        if named and speaker.group(1) != "Patient":
            self.companion_name = named.group(1)  # "Mother (Sara)": she is asked out and back in by her first name
        if self.last_question:
            f.replies.append((self.last_question, text))
            f.reply_keys.append(self.last_concept or "")
            f.speakers.append(speaker.group(1).lower() if speaker and speaker.group(1) != "Patient" else "")
            if self.last_concept and self.last_concept not in f.answers and not self._repeats_answer(self.last_concept, text):
                f.answers[self.last_concept] = text
                if speaker and speaker.group(1) != "Patient":
                    f.told_by[self.last_concept] = speaker.group(1).lower()
        if not f.chief_complaint and self.turns == 1:
            f.chief_complaint = text
        # "I cannot get to sleep" says what "I can't get to sleep" says (the reader reads "cannot" as a denial)
        heard = re.sub(r"\bcan ?not\b", "can't", text, flags=re.IGNORECASE)
        if speaker and speaker.group(1) != "Patient" and self.last_concept in self.script["note_sections"]["Family history"]:
            # an informant's sentence about their own life ("I had panic attacks in my twenties", the mother's) tells
            # nothing of the patient: read only the sentences about the patient (stop 47, hw-017's shape)
            own = [s for s in split_sentences(heard) if self._informant_own(s)]
            f.informant_own |= {c for s in own for c, negated in patient_findings(s) if not negated}
            heard = " ".join(s for s in split_sentences(heard) if s not in own)
        rewrite = self.script["plan"]["denials_by_preposition"]  # "without any plan" denies a plan (hw-039)
        heard = re.sub(rewrite["pattern"], rewrite["with"], heard, flags=re.IGNORECASE)
        for pattern in self.script["plan"]["other_meanings"]["patterns"]:  # a strip light buzzing is no elation
            heard = re.sub(pattern, " ", heard, flags=re.IGNORECASE)
        reading = self._death_thought_by_clause(read_reply(self.last_question, heard), heard)
        not_here = self.script["evidence"]["not_heard_on"]
        signs: set[str] = set()
        for rule in self.script["evidence"]["read_in_answer"]["rules"]:
            if rule.get("not_after_denial") and (
                answer_polarity(text) == "no" or {rule["finding"], self.last_concept} & reading.denied
            ):
                continue  # "No, nothing like that. I clean the house on Saturdays like anyone." tells no ritual
            if rule.get("needs") and not any(re.search(p, text, re.IGNORECASE) for p in rule["needs"]):
                continue  # "I just do the washing once a week": a chore, not a compulsion, without a sign of one
            if any(re.search(p, text, re.IGNORECASE) for p in rule.get("unless", ())):
                continue  # "My coach watches me through the window": an ordinary watcher, no persecutor
            asked = self.last_concept in rule["asked"] or "*" in rule["asked"]  # "*": whatever was asked
            if asked and any(re.search(p, text, re.IGNORECASE) for p in rule["patterns"]):
                f.inferred.add(rule["finding"])  # "I tried to stop twice and couldn't sleep for a week" (hw-038)
                signs.add(rule["finding"])
        dep = self.script["drug_dependence"]
        signs &= set(dep["signs"])  # being watched, read the same way, is no sign of a drug's dependence
        signs |= set(dep["signs"]) & reading.affirmed
        named = frozenset(set(dep["substances"]) & reading.affirmed)
        for sign in sorted(signs):  # which drug the sign was told of (_drug_dependence_told)
            f.signs_heard.append((sign, self.last_concept or "", named))
        for concept in sorted(reading.affirmed):  # a set: sorted, so the note reads the same in every process
            if self.last_concept in not_here.get(concept, ()):
                continue  # "type 2 diabetes, diet-controlled" told of the physical health is no restriction of eating
            if self._told_as_past(concept, heard):
                # "when I was 13, I took a load of tablets" (a man of 23, test-v2-0061) is history, not the present
                # illness: filed as its history finding where there is one (evidence.past_event)
                # (_told_as_past holds only of a finding with a history item: none is ever dropped)
                concept = self.script["evidence"]["past_event"]["history_of"][concept]
            if concept in f.denied:
                f.contradicted.add(concept)
            f.present.setdefault(concept, text)
            f.heard_on.setdefault(concept, self.last_concept or "")
        past_only = self.script["evidence"]["past_only_denials"]
        pieces = [p for p in re.split(r"[,;]\s*|(?<=[.!?])\s+", heard) if p.strip()]
        for concept in sorted(reading.denied):
            if concept in f.present:
                # "no previous episodes of depression" denies an earlier episode, not the low mood told (uw-005)
                denying = [p for p in pieces if (concept, True) in patient_findings(p)]
                if not (denying and all(any(re.search(x, p.lower()) for x in past_only) for p in denying)):
                    f.contradicted.add(concept)
            else:
                f.denied.add(concept)

    def _told_as_past(self, concept: str, text: str) -> bool:
        """Whether a symptom or sign ``text`` affirms is told only as a closed event at a past age or time ("when I
        was 13, I took a load of tablets"): ``evidence.past_event``. Only a finding with a history item of its own
        ('history_of') is ever read so (a past assault or withdrawal fit stays the finding the plan must weigh);
        nothing in the reply may go on to now ('continuing': still, again, last week, now), and it is judged by
        clause: a clause that affirms it is past only where it holds the past time itself, or its sentence does and
        the clause says nothing in the present tense ('present': "I keep thinking about it, I took an overdose when
        I was 19")."""
        conf = self.script["evidence"]["past_event"]
        if concept not in conf["history_of"] or not self._tells(text, conf["patterns"]):
            return False
        if self._tells(text, conf["continuing"]):
            return False
        stating = [p for p in split_sentences(text) if (concept, False) in patient_findings(p)]
        if not stating:
            return False
        for sentence in stating:
            if not self._tells(sentence, conf["patterns"]):
                return False
            parts = [c for c in re.split(r"[,;]\s*|\s+(?:and|but)\s+", sentence) if c.strip()]
            affirming = [c for c in parts if (concept, False) in patient_findings(c)] or [sentence]
            for clause in affirming:
                if not self._tells(clause, conf["patterns"]) and self._tells(clause, conf["present"]):
                    return False
        return True

    def _death_thought_by_clause(self, reading: Any, text: str) -> Any:
        """The reading with a thought of death affirmed in a clause of its own taken as affirmed (``risk_follow_up.
        by_clause``): the lexicon's negation scope runs on past a comma, so in "Right now I don't see how I face
        anyone, thoughts of death today, yes, fleeting" the "don't" of the first clause denied the death thought of
        the second, and the clinician charted a denial and asked no plan, intent or means. A clause is read on its
        own only where the clauses before it in its sentence deny no finding (else it is an item of a denied list:
        "I don't have thoughts of suicide, self-harm") and it does not open with a list joiner ("or self-harm")."""
        conf = self.script["risk_follow_up"]["by_clause"]
        concepts = set(conf["concepts"])
        joiners = set(load_cues().negation_list_joiners)
        found: set[str] = set()
        for sentence in re.split(r"(?<=[.!?;])\s+", text):
            parts = [p for p in re.split(r",|\s[-\u2013\u2014]\s", sentence) if tokenize(p)]
            if len(parts) < 2:
                continue  # one clause: read so already
            read = [patient_findings(p) for p in parts]  # each clause read once
            for i in range(1, len(parts)):  # the first clause is read so already
                if tokenize(parts[i])[0] in joiners:
                    continue  # a joiner carries a denied list on
                if any(neg for before in read[:i] for _, neg in before):
                    break  # an earlier clause denied a finding: what follows may be its list
                found |= {c for c, neg in read[i] if not neg and c in concepts}
        found -= reading.affirmed
        if not found:
            return reading
        return replace(reading, affirmed=reading.affirmed | found, denied=reading.denied - found,
                       unanswered=reading.unanswered - found)

    def _repeats_answer(self, key: str, text: str) -> bool:
        """Whether ``text`` only says again the answer to another heading (``repeat_not_an_answer``: the aunt's psychosis
        told again when asked about physical illness in the family, hw-002)."""
        others = [self.findings.answers.get(k, "").lower() for k in self.script["repeat_not_an_answer"].get(key, ())]
        openers = self.script["quotes"]["openers"]
        sentences = [_without_opener(p.strip(), openers).strip().rstrip(".!?").lower() for p in split_sentences(text)]
        sentences = [p for p in sentences if p]
        if len(re.findall(r"[\w']+", " ".join(sentences))) < self.script["repeat_min_words"]:
            return False  # a bare "No." denies this heading too: "No, nobody that I know of" holds it but repeats nothing
        # whole sentences, at word boundaries: "no" is not found in "not" or "know"
        return bool(sentences) and any(o and all(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", o) for p in sentences) for o in others)

    def _next_question(self) -> tuple[str, str | None] | None:
        def passing_after(concept: str | None) -> bool:  # the home answered first, naming none of them
            return self.script["ask_even_if_known"]["named_in_passing"][concept]["after"] in self.findings.answers

        while self.plan:
            if self.alone == "out":  # what the replies alone added to the plan (a risk follow-up's home question, the
                self.plan = self._private_first(self.plan)  # children's) waits: every private question is asked first
            question, concept = self.plan.pop(0)
            if question in ("__hypotheses__", "__picture__"):
                wanted = self._hypothesis_concepts() if question == "__hypotheses__" else self._picture_concepts()
                child = self.walk_in.age_group == "child"
                self.plan = [((child and self._informant_question(c)) or self._question(c), c) for c in wanted] + self.plan
                continue
            f = self.findings
            if self.reasking == (question, concept):
                return question, concept  # asked once more in other words: the first reply was about something else
            mapped = self._follow_concepts().get(concept or "")
            item = next((i for i in self.script["risk_follow_up"]["items"] if i["key"] == concept), None)
            if mapped and (mapped in f.present or mapped in f.denied) or item and self._told_already(item):
                continue  # a plan already denied, intent already told ("I wouldn't act on it"): not asked again
            known = concept in f.present or concept in f.denied
            if concept in self.script["ask_even_if_known"]["concepts"] and concept not in f.answers:
                known = False  # how much and how often: the chief complaint named the drinking, not the amount
            if self._named_in_passing(concept) and passing_after(concept):
                known, question = False, self.script["ask_even_if_known"]["named_in_passing"][concept]["question"]
            if concept and ":" not in concept and (known or concept in f.asked):
                continue
            if self._yields_to_history(concept):
                continue
            if not self._fit_for_child(concept):
                continue  # an adult's question with no form for the parent is not put to a child (uw-011)
            unknown = self.script["unknown_family"]
            if concept in unknown["skip"] and self._family_unknown(f.answers.get(unknown["after"], "")):
                continue  # "I'd have to ask my family": not asked about the family's physical illnesses (test-v2-0095)
            care = self.script["self_care"]
            if concept == care["key"] and self.walk_in.setting not in care["settings"] and not set(care["older_when"]) & set(f.present):
                continue  # an older adult outside the emergency department: asked once a failing memory was heard
            return self._alone_turn(question, concept)
        if self.alone == "out":
            self.alone = "back"
            return self._alone_line("come_back"), "alone:back"
        return None

    def _named_in_passing(self, concept: str | None) -> bool:
        """Whether ``concept`` (``ask_even_if_known.named_in_passing``) was named only in passing, on another question
        than its own or the home's, by a patient young enough for it to matter ("I've been made a bench for my son",
        uw-034), and is still to be asked; its own question waits for the home's answer (``passing_after``)."""
        passing = self.script["ask_even_if_known"]["named_in_passing"].get(concept or "")
        f = self.findings
        return bool(passing and concept in f.present and concept not in f.answers
                    and re.search(passing["own"], f.present[concept], re.IGNORECASE)
                    and f.heard_on.get(concept) not in passing["heard_on"] and (self.walk_in.age or 0) <= passing["max_age"]
                    and not (passing["after"] in f.answers and self._home_names_dependants()))

    def _family_unknown(self, answer: str) -> bool:
        """Whether the answer about the family's mental health says the patient does not know it (``unknown_family``
        patterns) and tells no relative's illness: 'I don't know if it counts, but my dad was treated for depression'
        tells one (a clause about another person, in the shared reader's clauses, with no negation: 'we don't talk about that
        sort of thing in my family' tells none, dev-v2-0077)."""
        if not any(re.search(p, answer, re.IGNORECASE) for p in self.script["unknown_family"]["patterns"]):
            return False
        told = [c for c in clauses(answer) if c.subject == "other" and not is_negated(answer, c.start, c.end)]
        return not told

    def _yields_to_history(self, concept: str | None) -> bool:
        """Whether ``concept``'s question gives way because the turns left hold no more than the history still to take
        (``reask.keep_room_for``: the past, medicines, allergies, physical health, family, home and dependants, a
        child's development and school): a supervisor misses those more than a last screening question (test-v2-0061
        ended in admission and sertraline with none of them asked). Risk questions and pregnancy never give way
        (``history_first.never_yield``)."""
        conf = self.script["history_first"]
        keep = set(self.script["reask"]["keep_room_for"]) | set(conf["also_keep"])
        if not concept or ":" in concept or concept in keep or concept in conf["never_yield"]:
            return False
        f = self.findings
        left = self.budget - self.script["interview_reserve_turns"] - self.turns
        # the questions that never give way (pregnancy) take a turn of their own too: counted, or the last of the
        # history is lost to them (uw-012's allergies, once a panic disclosure's follow-up took two turns)
        keep |= set(conf["never_yield"])
        # still to take as _next_question would: a drink named in passing is still asked how much (ask_even_if_known)
        again = set(self.script["ask_even_if_known"]["concepts"])
        essential = {
            c for _, c in self.plan
            if c in keep and c not in f.asked
            and (c not in f.present and c not in f.denied or c in again and c not in f.answers or self._named_in_passing(c))
        }
        return left <= len(essential)

    def _follow_concepts(self) -> dict[str, str]:
        """The risk follow-up's keys ("risk:plan") and the lexicon finding each asks about (``risk_follow_up``)."""
        items = [*self.script["risk_follow_up"]["items"], *(i for r in self.script["disclosure_follow_up"]["rules"] for i in r["items"])]
        # a disclosure follow-up that asks a finding in its own words ("Do you feel anyone is watching you ...?") asks it
        return {i["key"]: i["concept"] for i in items if i.get("concept")}

    def _earlier_episode_question(self) -> tuple[str, str] | None:
        """The question (and its concept) whether a low mood came before, asked right after an answer about past help
        that told no earlier episode (``earlier_episode``: test-v2-0082's 'No, no health problems' hid a depression
        since 24); None when the answer
        was about something else, no low mood was heard, no single depressive episode leads, the question was asked or
        answered, or the recurrent disorder is already admissible."""
        conf = self.script["earlier_episode"]
        f = self.findings
        concept = conf["ask"]
        if self.last_concept not in conf["after"] or not set(conf["when"]) & set(f.present) or concept not in self.lexicon:
            return None
        if concept in f.present or concept in f.denied or concept in f.asked or any(c == concept for _, c in self.plan):
            return None
        if not self._ranked_admissible()[0][0].code.startswith(tuple(conf["leading"])):
            return None  # no single depressive episode leads (a bulimia's low mood)
        heard = self.script["recurrent_first"]["_heard"]
        if any(h.code.startswith(conf["recurrent"]) and self._admissible(h, heard) for h in self.hyps):
            return None
        return self._question(concept), concept

    def _risk_follow_up(self) -> list[tuple[str, str | None]]:
        """The questions that follow a disclosure of suicidal thoughts or self-harm (``risk_follow_up``): a plan or
        preparations, intent, access to means, past attempts and what keeps them safe, each not yet known; a child is
        asked in a child's words, and the parent or carer about means at home."""
        f = self.findings
        child = self.walk_in.age_group == "child"
        out = []
        for item in self.script["risk_follow_up"]["items"]:
            concept = item.get("concept")
            if concept and (concept in f.present or concept in f.denied or concept in f.asked) or self._told_already(item):
                continue
            question = (child and (self._informant_question(item["key"]) or item["ask_child"])) or item["ask"]
            out.append((question, item["key"]))
        # the history the risk assessment needs (who is at home, dependants, the family) follows, moved up the plan
        then = set(self.script["risk_follow_up"]["then_ask"])
        out += [(q, c) for q, c in self.plan if c in then]
        self.plan = [(q, c) for q, c in self.plan if c not in then]
        return out

    def _told_already(self, item: dict[str, Any], anywhere: bool = False, subject: bool = False) -> str | None:
        """The sentence of the disclosure, or of a reply to the risk follow-up, that already answers ``item``
        (``told_if``: "I wouldn't act on it" answers intent), else None. ``anywhere`` (the note): also a sentence
        of any reply of the interview that matches ``told_if`` and names the thoughts it is about
        (``told_anywhere_if``)."""
        f = self.findings
        conf = self.script["risk_follow_up"]
        # and the answers to the risk screen's own questions ("I wouldn't do anything, though." said when asked about
        # self-harm: stop 35's consultant, test-v2-0024's intent written "asked, no direct answer")
        replies = [f.present.get(c, "") for c in conf["after"]] + [f.answers.get(i["key"], "") for i in conf["items"] if i is not item]
        replies += [f.answers.get(c, "") for c in conf["after"] if f.answers.get(c, "") not in replies]
        # ``subject`` (the note): a sentence of these replies in the item's own words (``item_subjects.says``: "no
        # intention of doing anything" in the plan's answer answers intent, hw-001) answers it too, read for the item
        subjects = self.script["risk_follow_up"]["item_subjects"]
        own = subjects.get(item["key"], {})
        says = own.get("answered_elsewhere", ()) if subject else ()
        others = set(subjects["_risk_concepts"]) - set(own.get("concepts", ()))

        def answers_item(clause: str) -> bool:  # in the item's words, and read as no other item's subject
            return any(re.search(p, clause, re.IGNORECASE) for p in says) and not {c for c, _ in patient_findings(clause)} & others

        for reply in replies:
            for sentence in split_sentences(reply):
                if sentence.strip() and any(re.search(p, sentence, re.IGNORECASE) for p in item.get("told_if", ())):
                    return _without_opener(sentence.strip(), self.script["quotes"]["openers"])
        for reply in replies:
            for sentence in split_sentences(reply):
                if sentence.strip() and any(answers_item(c) for c in re.split(r",\s*|\s+and\s+|\s+but\s+", sentence)):
                    return _without_opener(sentence.strip(), self.script["quotes"]["openers"])
        if anywhere and item.get("told_anywhere_if"):
            for _, reply in f.replies:
                for sentence in split_sentences(reply):
                    if any(re.search(p, sentence, re.IGNORECASE) for p in item.get("told_if", ())) and any(
                        re.search(p, sentence, re.IGNORECASE) for p in item["told_anywhere_if"]
                    ):
                        return _without_opener(sentence.strip(), self.script["quotes"]["openers"])
        return None

    def _on_topic(self, key: str, reply: str) -> bool | None:
        """Whether ``reply`` answers the topic ``key`` asked about, read as this clinician reads every reply
        (``reask``): the lexicon reads the finding asked about in it, it is a bare yes or no, or it holds one of the
        topic's words; None when the topic is not one this clinician judges."""
        conf = self.script["reask"]
        cues = conf["topic_cues"].get(key) or (self.script["quotes"]["subject_cues"].get(key) if key.startswith("risk:") else None)
        if not cues:
            return None
        words = " ".join(tokenize(reply))
        if key in conf["polarity_needs_cue"] and answer_polarity(reply) is not None and len(words.split()) > 2:
            # a yes or no answers, unless what follows it is about something else ("No, I'm not seeing anyone." asked
            # who depends on them), whatever the reader makes of the "No"
            return any(re.search(rf"\b{re.escape(c)}", words) for c in cues)
        if key == self.script["risk_follow_up"]["acts"]["item"] and self._act_told(reply, means_only=True):
            return True  # "I took my father's handgun from his nightstand drawer": a preparation told, the answer
        reading = read_reply(self.last_question, reply)
        if key in reading.affirmed | reading.denied or key in self.findings.present and self.findings.present[key] == reply:
            return True
        if answer_polarity(reply) is not None:
            return True
        short = conf["short_denial"]
        bare = _without_opener(reply.strip(), self.script["quotes"]["openers"]).lower()
        if len(words.split()) <= short["max_words"] and re.match(short["pattern"], bare):
            return True  # "I haven't had any.": a denial of whatever was asked
        return any(re.search(rf"\b{re.escape(c)}", words) for c in cues)

    def _off_topic(self, text: str) -> bool:
        """Whether the reply just read leaves the question's topic unanswered and may be asked once more (``reask``):
        not after a re-ask, not of a child's informant, within the encounter's limit; a reply that says the patient
        cannot or will not answer is pressed only on the topics of ``press_non_answers``."""
        conf = self.script["reask"]
        key = self.last_concept
        if not key or self.reasks >= conf["max"] or self.reasking == (self.last_question, key):
            return False
        if key.startswith(("hpi:", "mse:")) or self.last_question == self._informant_question(key):
            return False
        f = self.findings
        room = set(conf["keep_room_for"])
        # the questions still to come up to the last of them, each asked unless known (a block's expansion counts as one)
        askable = [c for _, c in self.plan if not (c and ":" not in c and (c in f.asked or c in f.present or c in f.denied))]
        last = max((i for i, c in enumerate(askable) if c in room), default=-1)
        # a risk left unanswered is asked again first, and so is who depends on the patient (``press_off_topic``);
        # where an adult's companion gives his history, a risk question with a form for them (``reask:`` of
        # informant_questions.adult) is pressed of them ("When you are angry with someone ...?" - "That's... hard. Can
        # we come back to it?", uw-031, whose mother says he pushed past her in April)
        pressed = set(conf["press_non_answers"]) | self._asked_of_companion()
        risk = key in pressed or key.startswith("risk:") or key in conf.get("press_off_topic", ())
        if not risk and self.budget - self.script["interview_reserve_turns"] - self.turns - 1 < last + 1:
            return False  # no second try at one answer at the cost of the history still to take
        speaker = re.match(r"^\s*(Patient|[A-Z][a-z]+)(?: \([^)]*\))?:\s*", text)
        if speaker and speaker.group(1) != "Patient":
            return False  # a relative answered
        reply = text[speaker.end():] if speaker else text
        if self._non_answer(reply):
            return key in pressed
        return self._on_topic(key, reply) is False

    @property
    def _companion_gives_history(self) -> bool:
        """An adult came with someone whom the record says gives his history (walk_in.informant_role 'history')."""
        return self.walk_in.age_group == "adult" and self.walk_in.informant_role == "history"

    def _asked_of_companion(self) -> set[str]:
        """The risk questions asked again of an adult's companion who gives his history when he does not answer
        them (the keys of the ``reask:`` forms of informant_questions.adult); none otherwise."""
        if not self._companion_gives_history:
            return set()
        forms = self.script["informant_questions"]["adult"]["forms"]
        return {k.split(":", 1)[1] for k in forms if k.startswith("reask:")}

    def _reask(self) -> None:
        """Put the question just asked back at the head of the plan, in other words (``reask``), and forget the
        reply that answered something else, so that the note quotes the answer to the question."""
        conf = self.script["reask"]
        key = self.last_concept or ""
        item = next((i for i in self.script["risk_follow_up"]["items"] if i["key"] == key), None)
        other = item["reask"] if item else conf["questions"].get(key)
        if not other:
            return
        preface = conf["prefaces"][self.reasks % len(conf["prefaces"])]
        question = f"{preface} {other}"
        parent = self._informant_question(f"reask:{key}") if item and self.walk_in.age_group == "child" else None
        if self._companion_gives_history:
            # a risk question refused by a man whose key worker gives his history is asked of the key worker (uw-030)
            parent = self._informant_question(f"reask:{key}")
        if parent:  # a child's risk answer left open is asked of the parent, not pressed on the child (hw-023, 11)
            question = parent
        self.reasks += 1
        self.reasking = (question, key)
        f = self.findings
        if f.answers.get(key) is not None and f.replies and f.answers[key] == f.replies[-1][1]:
            del f.answers[key]
            f.told_by.pop(key, None)
            if key in conf["polarity_needs_cue"]:
                f.denied.discard(key)  # the "No" of a reply about something else denies nothing of this topic
        self.plan.insert(0, (question, key))

    def _disclosure_follow_up(self, affirmed: list[str], text: str, skip: set[str] = frozenset()) -> list[tuple[str, str]]:
        """The questions that explore a disclosure just made (``disclosure_follow_up``): a rule fires once an encounter,
        when the reply affirmed one of its findings ('after') or holds a sentence that tells a risk disclosure
        of the kind it names ('said_kind', no negation before it), for the age groups it names; a child's are put to the parent or carer
        (``informant_questions``), and an item whose 'unless' findings are already known is not asked."""
        conf = self.script["disclosure_follow_up"]
        f = self.findings
        self.followed_now: set[str] = set()  # the rules this reply set off (their ``also_give_way``)
        self.followed_on_signs: set[str] = getattr(self, "followed_on_signs", set())  # set off by a record sign alone
        speaker = re.match(r"^\s*(Patient|[A-Z][a-z]+)(?: \([^)]*\))?:\s*", text)
        reply = text[speaker.end():] if speaker else text
        sentences = [p.strip() for p in split_sentences(reply) if p.strip()]
        child = self.walk_in.age_group == "child"
        known = set(f.present) | f.denied | f.asked
        out: list[tuple[str, str]] = []
        for rule in conf["rules"]:
            if rule["name"] in self.followed | skip or (rule.get("ages") and self.walk_in.age_group not in rule["ages"]):
                continue
            kind = next((k for k in self.script["risk_disclosures"]["kinds"] if k["label"] == rule.get("said_kind")), None)
            said = kind["patterns"] if kind else rule.get("said", [])  # a kind's words, or the rule's own
            # or a record sign of critical_actions.json read in the reply ('signs': a child's exploitation told)
            signs = set(rule.get("signs", ())) & load_critical_actions().signs([reply]) if rule.get("signs") else set()
            by_finding = set(rule.get("after", ())) & set(affirmed) or any(self._tells(p, said) for p in sentences)
            if not (by_finding or signs):
                continue
            if signs and not by_finding:
                self.followed_on_signs.add(rule["name"])
            self.followed.add(rule["name"])
            self.followed_now.add(rule["name"])
            # a rule about a substance asks about the one just told, by its everyday name (``substance_names``)
            names = rule.get("substance_names", {})
            use = next((u for u in names if u in affirmed), None)
            for item in rule["items"]:
                if set(item.get("unless", ())) & known or item["key"] in f.answers:
                    continue
                if ":" in item["key"] and any(k == item["key"] for _, k in [*out, *self.plan]):
                    continue  # queued already by another rule (the weapon question: a persecutor and hypervigilance)
                if item.get("ages") and self.walk_in.age_group not in item["ages"]:
                    continue  # no question about drugs or thought interference put to a child of 8
                if item.get("companion"):  # the relative in the room, where there is one (hw-024's son)
                    question = self._informant_question(item["key"]) if self.walk_in.age_group == "adult" else None
                    if question:
                        out.append((question, item["key"]))
                    continue
                question = (child and (self._informant_question(item["key"]) or item.get("ask_child"))) or item["ask"]
                if use:
                    question = question.format(substance=names[use])
                    self.about_use[item["key"]] = use
                out.append((question, item["key"]))
        return out

    def _complaint_domain(self, heard: list[str], text: str) -> tuple[list[tuple[str, str]], set[str]]:
        """The core questions of the complaint a reply names (``complaint_domains``: eating, a frightening event,
        rages, new memory trouble in later life), each domain once an encounter, when the reply affirmed one of its findings
        (of 'when_older' too from its age) or tells one of its patterns; a domain or item not for this age group ('ages',
        'min_age'), or an item not for this sex, is left out, and so is an
        item already known. With them, the disclosure
        follow-ups this reply must not set off ('instead_of': a robbery the patient suffered is no violence of hers)."""
        conf = self.script["complaint_domains"]
        f = self.findings
        w = self.walk_in
        young = w.age_group in ("child", "adolescent")
        speaker = re.match(r"^\s*(Patient|[A-Z][a-z]+)(?: \([^)]*\))?:\s*", text)
        reply = text[speaker.end():] if speaker else text
        sentences = [p.strip() for p in split_sentences(reply) if p.strip()]
        known = set(f.present) | f.denied | f.asked
        planned = {c for _, c in self.plan}
        out: list[tuple[str, str]] = []
        instead: set[str] = set()
        for domain in conf["domains"]:
            if domain["name"] in self.explored or domain.get("ages") and w.age_group not in domain["ages"]:
                continue
            if w.age is not None and w.age < domain.get("min_age", 0):
                continue  # new memory trouble is placed from middle life; a child's poor concentration is no dementia
            when = set(domain["when"]) | (set(domain.get("when_young", ())) if young else set())
            older = domain.get("when_older")
            if older and w.age is not None and w.age >= older["min_age"]:
                when |= set(older["findings"])  # a poor concentration at 67 opens the route; at 45 it is a depression's
            if domain.get("needs_event") and not self._event_told(domain, sentences):
                when -= set(domain["needs_event"]["findings"])  # intrusive images with no event told are no trauma (uw-012)
            # words that name the domain in the complaint ("I don't like it when it's lumpy") name it whatever the negation
            named = domain.get("said_in_complaint", []) if (self.last_concept or "").startswith("hpi:") else []
            named = named if young or not domain.get("said_in_complaint_young_only") else []
            if not (
                when & set(heard)
                or any(self._tells(p, domain["said"]) for p in sentences)
                or any(re.search(x, reply, re.IGNORECASE) for x in named)
            ):
                continue
            self.explored.add(domain["name"])
            instead |= set(domain.get("instead_of", ()))
            for item in domain["items"]:
                key = item.get("concept") or item["key"]
                if item.get("ages") and w.age_group not in item["ages"]:
                    continue
                if item.get("sexes") and w.sex not in item["sexes"] or (w.age or 0) < item.get("min_age", 0):
                    continue
                if key in known or key in f.answers or key in planned and ":" in key:
                    continue
                if "concept" in item and key not in self.lexicon:
                    continue
                question = item.get("ask") or self._question(key)
                if w.age_group == "child":
                    question = self._informant_question(key) or question
                out.append((question, key))
        return out, instead

    def _event_told(self, domain: dict[str, Any], sentences: list[str]) -> bool:
        """Whether a traumatic event has been told in this encounter (``complaint_domains``' 'needs_event'): one of
        its 'event_findings' affirmed and never denied, or one of the domain's 'said' patterns in ``sentences`` (the
        reply just read) or in any earlier reply."""
        f = self.findings
        gate = domain["needs_event"]
        if set(gate["event_findings"]) & (set(f.present) - f.contradicted):
            return True
        earlier = [p.strip() for _, reply in f.replies for p in split_sentences(reply) if p.strip()]
        said = [*domain["said"], *gate.get("event_said", ())]
        return any(self._tells(p, said) for p in [*sentences, *earlier])

    def _explored_domains(self, key: str) -> tuple[str, ...]:
        """What the complaint domains explored so far list under ``key``: the screening questions their items may take
        the place of ('also_give_way') or never push out ('keep': smoking), in the order of ``complaint_domains``."""
        return tuple(x for d in self.script["complaint_domains"]["domains"] if d["name"] in self.explored
                     for x in d.get(key, ()))

    def _make_room(self, wanted: int, keep: frozenset[str] = frozenset(), also: tuple[str, ...] = ()) -> int:
        """How many of ``wanted`` follow-up questions the turns left hold without pushing out anything the interview
        would otherwise ask: the spare turns, and for each one more a screening question the leading hypotheses least
        expect (``disclosure_follow_up.give_way``) that would be asked within the turns left is taken off the plan. A
        question past the turns left frees nothing, so a follow-up never pushes out the history (the past, medicines,
        allergies, physical health, family, home and dependants) at the end of the plan."""
        conf = self.script["disclosure_follow_up"]
        f = self.findings
        expand = {"__hypotheses__": self.script["hypothesis_questions"], "__picture__": self.script["screen_when"]["max"]}
        horizon = self.budget - self.script["interview_reserve_turns"] - self.turns
        position: dict[str, int] = {}  # each plan item's place in the questions still to ask (a block's at its most)
        at = 0
        for q, c in self.plan:
            if c and ":" not in c and (c in f.asked or c in f.present or c in f.denied):
                continue
            if c:
                position.setdefault(c, at)
            at += expand.get(q, 1)
        need = wanted - max(horizon - at, 0)
        if need <= 0:
            return wanted
        expected: dict[str, float] = {}
        for h, _ in self._ranked()[:3]:
            for c, p in h.symptoms:
                expected[c] = max(expected.get(c, 0.0), p)
        # ``also``: the screening questions a rule's follow-up may take the place of too (``also_give_way``)
        pool = [c for c in dict.fromkeys([*conf["give_way"], *also]) if c in position and position[c] < horizon and c not in keep]
        # the least expected first; among equals, the one asked latest
        pool.sort(key=lambda c: (expected.get(c, 0.0), -position[c]))
        for c in pool[:need]:
            self.plan = [(q, k) for q, k in self.plan if k != c]
            need -= 1
        return wanted - max(need, 0)

    def _hypothesis_concepts(self) -> list[str]:
        """The most typical not-yet-known symptoms of the leading hypotheses."""
        ranked = self._ranked()[:3]
        wanted: list[str] = []
        for h, _ in ranked:
            for concept, p in sorted(h.symptoms, key=lambda s: -s[1]):
                known = concept in self.findings.present or concept in self.findings.denied
                if not known and concept not in wanted and concept in self.lexicon and p >= 0.5:
                    wanted.append(concept)
        # a question that presupposes an event nobody has told ("How often do memories of what happened come back?")
        # waits for the event: the screening question for it is asked in its place (``hypothesis_gates``)
        for gate in self.script["hypothesis_gates"]["rules"]:
            if set(gate["unless_heard"]) & set(self.findings.present) or not set(gate["concepts"]) & set(wanted):
                continue
            first = wanted.index(next(c for c in wanted if c in gate["concepts"]))
            wanted = [c for c in wanted if c not in gate["concepts"]]
            ask = gate["ask_first"]
            if ask not in self.findings.asked and ask not in self.findings.present and ask not in self.findings.denied:
                wanted.insert(first, ask)
        wanted = [c for c in wanted if self._fit_for_child(c)]
        return wanted[: self.script["hypothesis_questions"]]

    def _fit_for_child(self, concept: str | None) -> bool:
        """Whether ``concept``'s question may be put in this encounter: to anyone but a child always; of a child, when
        it has a form for the parent or carer (``informant_questions``) or is one the child tells of themselves
        (``ages.child.asked_of_child``): a boy of 9 is not asked what happens to his muscles when he laughs (uw-011)."""
        if self.walk_in.age_group != "child" or not concept or ":" in concept:
            return True
        own = self.age_script.get("asked_of_child", {}).get("concepts", ())
        return concept in own or bool(self._informant() and concept in self.script["informant_questions"]["questions"])

    def _picture_concepts(self, heard_now: set[str] | None = None) -> list[str]:
        """The screening questions the presenting picture calls for (``screen_when``): the rest of a borderline picture
        after unstable moods, attention after poor concentration, worry after low mood or poor sleep. With
        ``heard_now``, only those of the rules that a finding of it sets off (the picture told after its block)."""
        conf = self.script["screen_when"]
        f = self.findings
        wanted: list[str] = []
        for rule in conf["rules"]:
            if heard_now is not None and not set(rule["when"]) & heard_now:
                continue
            if rule.get("ages") and self.walk_in.age_group not in rule["ages"]:
                continue
            if rule.get("sexes") and self.walk_in.sex not in rule["sexes"]:
                continue
            age = self.walk_in.age
            if age is not None and not rule.get("min_age", 0) <= age <= rule.get("max_age", 200):
                continue  # the menstrual cycle asked of a woman of 20-55, not of a girl of 9 or a woman of 70
            if len(set(rule["when"]) & set(f.present)) < rule.get("at_least", 1):
                continue
            wanted += [c for c in rule["ask"] if c in self.lexicon and c not in f.present and c not in f.denied
                       and c not in f.asked and c not in wanted and self._fit_for_child(c)]
        return wanted[: conf["max"]]

    def _validation(self) -> str:
        v = self.script["validations"]
        text = v[self.validation_index % len(v)]
        self.validation_index += 1
        return text

    def _acknowledgement(self) -> str:
        """Thanks for an answer that told nothing distressing (a denial, a history item): no "That sounds really hard"
        after "No, I've never done anything like that to myself"."""
        a = self.script["acknowledgements"]
        text = a[self.validation_index % len(a)]
        self.validation_index += 1
        return text

    def _reflection(self, affirmed: list[str], reply: str) -> str:
        """Reflect what the patient just said back in their own words, turned to "you", then validate it
        (``reflections``); a plain validation when no sentence that states a finding just told reads as a clause."""
        conf = self.script["reflections"]
        speaker = re.match(r"^\s*(Patient|[A-Z][a-z]+)(?: \([^)]*\))?:\s*", reply)
        if speaker and speaker.group(1) != "Patient":
            return self._validation()  # a relative's words are not the patient's to be told back
        reply = reply[speaker.end():] if speaker else reply
        if set(affirmed) & set(self.script["risk"]):
            return conf["risk_told"]  # "You've told me you want to die. That must be exhausting." is no answer to it
        for sentence in split_sentences(reply):
            stated = self._stated(sentence)
            if not any(c in stated for c in affirmed):
                continue
            clause = self._echo_clause(sentence)
            if clause and clause.lower() not in self.echoed:
                self.echoed.add(clause.lower())
                forms = conf["forms"]
                text = forms[self.validation_index % len(forms)].format(clause=clause)
                self.validation_index += 1
                return text
        return self._validation()

    def _echo_clause(self, sentence: str) -> str | None:
        """``sentence`` turned to "you" when it reads as a clause of the patient's own ("Like I said, my mood's not
        great." -> "your mood's not great"), else None (``reflections``)."""
        conf = self.script["reflections"]
        text = _without_opener(sentence.strip(), self.script["quotes"]["openers"]).rstrip(" .!")
        for hedge in conf["hedges"]:
            if text.lower().endswith(hedge):
                text = text[: -len(hedge)]
        words = text.split()
        if not words or text.endswith("?") or len(words) > conf["max_words"]:
            return None
        lowered = [w.lower().strip(",;:") for w in words]
        if set(lowered) & set(conf["other_voices"]):
            return None
        at = next((i for i, w in enumerate(lowered[: conf["subject_within"]]) if w in ("i", "i'm", "i've", "i'd", "my")), None)
        if at is None or any("," in w for w in words[:at]):
            return None
        table = conf["first_person"]
        pattern = r"\b(" + "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True)) + r")\b"
        turned = re.sub(pattern, lambda m: table[m.group(0).lower()], text, flags=re.IGNORECASE)
        return turned[0].lower() + turned[1:]

    # ------------------------------------------------------------------------------------ reasoning

    def _evidence(self) -> set[str]:
        """The affirmed findings that count as evidence for a diagnosis (``evidence`` of ``clinician.json``): a
        glass of wine at the weekend is no evidence of alcohol dependence, and a drug named in a reply about
        something else ("I've cracked it") is none once the patient has denied using drugs."""
        f = self.findings
        conf = self.script["evidence"]
        out = set(f.present) | (f.inferred - f.denied)  # what the clinician's own rules read weighs, unwritten
        out |= {b for a in set(out) for b in conf.get("counts_as", {}).get(a, ()) if b not in f.denied}  # spending: impulsivity
        if not self.heavy_drinking():
            out -= set(conf["heavy_drinking_only"])
        # avoidance of trauma reminders heard in "I stopped driving after getting lost" with no event told
        heard = set(f.present) - f.contradicted
        intrusions = conf["intrusions_need_event"]
        domain = next(d for d in self.script["complaint_domains"]["domains"] if d["name"] == intrusions["event_domain"])
        if not set(intrusions["unless_heard"]) & heard and not self._event_told(domain, []):
            out -= set(intrusions["findings"])  # "pictures in my head of making Isla ill": an obsession's image (uw-012)
            heard -= set(intrusions["findings"])
        event = conf["needs_event"]
        told = event.get("event_domain") and self._event_told(
            next(d for d in self.script["complaint_domains"]["domains"] if d["name"] == event["event_domain"]), []
        )
        if not set(event["unless_heard"]) & heard and not told:  # no event told in any words (stop 55, test-v2-0457)
            out -= set(event["findings"])
        if "drug_use" in f.denied:
            asked_about_use = set(conf["use_questions"])
            out -= {c for c in conf["drug_findings"] if f.heard_on.get(c, "") not in asked_about_use}
        return out

    def _shown_by_results(self, ranking: bool = True) -> set[str]:
        """Findings a result on file shows whatever the patient said (``evidence.results_show``): a cognitive
        score in the impaired range is memory and executive impairment even when a patient without insight denies
        them ("I'm not confused"). They weigh in the ranking only; the note's history still tells only what the
        patient said, and the result stands under Investigations."""
        out: set[str] = set()
        for rule in self.script["evidence"].get("results_show", []):
            if ranking and not rule.get("ranks", True):
                continue  # a screen that only keeps a disorder from being ruled out (a positive MDQ)
            for name, result in self.findings.exam_results:
                if name.lower() in rule["exams"] and re.search(rule["pattern"], result, re.IGNORECASE):
                    out.update(rule["findings"])
        return out

    def _result_on_file(self, rule: dict[str, Any], pattern: str = "pattern") -> bool:
        """Whether a result rule (``evidence.results_weigh``, ``plan.results_acted_on``) holds: a result of one of its
        'exams' (the name as ordered, lower-cased) matches its ``pattern`` key ('pattern' unless the rule has another
        for the use), for a patient no older than its 'max_age'. A rule with 'exam_findings' holds when the results show
        one of those findings of critical_actions.json (read by their measures, flagged or not: "Na 118 mmol/L"), and
        one with 'needs_heard' only once one of those findings was heard."""
        age = self.walk_in.age
        if age is not None and age > rule.get("max_age", 200):
            return False
        heard = set(self.findings.present) - self.findings.contradicted
        if rule.get("needs_heard") and not set(rule["needs_heard"]) & heard:
            return False  # a sodium of 118 is a delirium's only beside confusion heard
        if "exam_findings" in rule:  # read by the knowledge base's measures, whatever flags the result carries
            shown = load_critical_actions().abnormal_findings([r for _, r in self.findings.exam_results])
            return bool(set(rule["exam_findings"]) & shown)
        return any(
            name.lower() in rule["exams"] and re.search(rule.get(pattern, rule["pattern"]), result, re.IGNORECASE)
            for name, result in self.findings.exam_results
        )

    def _results_weight(self, h: Hypothesis) -> float:
        """What the results on file add to ``h``'s score (``evidence.results_weigh``): a MoCA in the mild range counts
        against a dementia and for a mild cognitive disorder, a BMI read as underweight for an eating disorder, each
        rule once whatever the number of results it matches."""
        total = 0.0
        for rule in self.script["evidence"]["results_weigh"]["rules"]:
            weight = next((w for prefix, w in rule["codes"].items() if h.code.startswith(prefix)), None)
            if weight is not None and self._result_on_file(rule):
                total += weight
        return total

    def _results_on_differential(
        self, lead: list[tuple[Hypothesis, float]], ranked: list[tuple[Hypothesis, float]]
    ) -> list[tuple[Hypothesis, float]]:
        """``lead`` with, for each rule of ``evidence.results_weigh`` marked 'differential' that a result on file
        matches, the best-ranked disorder it speaks for added last when none of them stands there yet and there is
        room: a hypokalaemic alkalosis in a young man called depressed puts an eating disorder on the list (test-v2-0234)
        however few of its findings he told."""
        age = self.walk_in.age
        for rule in self.script["evidence"]["results_weigh"]["rules"]:
            if not rule.get("differential") or not self._result_on_file(rule, "differential_pattern"):
                continue
            if lead and lead[0][0].code.startswith(tuple(rule.get("explained_by_lead", ()))):
                continue  # the vomiting of an alcohol withdrawal explains a hypokalaemic alkalosis: no eating disorder added
            prefixes = tuple(rule.get("differential_codes") or [p for p, w in rule["codes"].items() if w > 0])
            if any(h.code.startswith(prefixes) for h, _ in lead) or len(lead) >= self.script["max_disorders"]:
                continue
            pick = next((pair for pair in ranked if pair[0].code.startswith(prefixes) and self._admissible(pair[0])), None)
            age_ok = pick is not None and (age is None or pick[0].age_range[0] <= age <= pick[0].age_range[1])
            if age_ok:
                lead = lead + [pick]
        return lead

    def _ranked(self) -> list[tuple[Hypothesis, float]]:
        f = self.findings
        abnormal = {name.lower() for name, result in f.exam_results if _reads_abnormal(result)}
        shown = self._shown_by_results()
        evidence = self._evidence() | shown
        scored = []
        for h in self.hyps:
            support = sum(p for c, p in h.symptoms if c in evidence)
            against = sum(p for c, p in h.symptoms if c in f.denied and c not in shown and p >= 0.6)
            typical = sum(p for _, p in h.symptoms) or 1.0
            exam_support = len(h.abnormal_exams & abnormal)
            score = (support - 0.6 * against) / math.sqrt(typical) + 0.15 * exam_support + 0.08 * math.log(h.prior + 1e-6)
            age = self.walk_in.age
            if age is not None and not h.age_range[0] <= age <= h.age_range[1]:
                score -= 1.0  # a disorder that does not occur at this age is no leading hypothesis
            if self._ruled_out(h):
                score -= self.script["evidence"]["ruled_out_penalty"]
            elif self._told_before(h):
                score += self.script["evidence"]["told_before_bonus"]
            if set(self.script["evidence"]["defining"].get(h.code, ())) & evidence:  # cataplexy: narcolepsy (uw-008)
                score += self.script["evidence"]["defining_bonus"]
            results = self._results_weight(h)
            score += results
            if support == 0 and results <= 0:  # no finding of its own heard nor a result for it: the base rate alone
                score -= self.script["evidence"]["no_support_penalty"]  # does not make a leading hypothesis
            scored.append((h, score))
        scored.sort(key=lambda hs: (-hs[1], hs[0].code))
        return scored

    # --------------------------------------------------------------------------------- the actions

    def act(self, observation: Observation, info: Info) -> Action:
        text = str(observation.get("text", ""))
        allowed = allowed_now(observation, info)
        affirmed: list[str] = []
        if self.phase == "interview" and self.last_question and not (self.last_concept or "").startswith("alone:"):
            before = set(self.findings.present)
            inferred_before = set(self.findings.inferred)
            self._read_reply(text)
            affirmed = [c for c in self.findings.present if c not in before and self.lexicon.get(c).kind != "history"]
            if self.alone == "out":
                self.told_alone |= set(self.findings.present) - before
            # what the clinician's own reading found in this reply ("they have eyes on me through the smoke alarm":
            # being watched) is followed up as a disclosure, though the note does not assert it (evidence.read_in_answer)
            cues = sorted(self.findings.inferred - inferred_before - set(self.findings.present))
            follow = self.script["risk_follow_up"]
            queued = 0  # the questions just put at the head of the plan, asked before any disclosure follow-up
            method = self._method_told(text)
            if method:
                self.findings.denied.discard("suicidal_ideation")  # "don't want to die today" beside a method told
            if (set(affirmed) & set(follow["after"]) or method) and not self.risk_followed:
                # a disclosure of suicidal thoughts or self-harm is followed at once: plan, intent, means, past
                # attempts and what keeps them safe
                self.risk_followed = True
                risk_follow_up = self._risk_follow_up()
                queued = len(risk_follow_up)
                self.plan = risk_follow_up + self.plan
            elif self._off_topic(text):
                self._reask()
                queued = int(bool(self.plan) and self.plan[0] == self.reasking)
            explore, instead = self._complaint_domain([c for c in self.findings.present if c not in before], text)
            if explore:
                # the complaint brought or referred for, explored before the generic screen: after the rest of the
                # present illness when heard there, else at once in place of the least expected screening questions
                # never at the cost of the history, the mania screen, or what a young person is always asked
                keep = frozenset(self.script["complaint_domains"]["keep"].get(self.walk_in.age_group, ()))
                fit = self._make_room(len(explore), keep | frozenset(self._explored_domains("keep")),
                                      also=self._explored_domains("also_give_way"))
                if (self.last_concept or "").startswith("hpi:"):
                    at = next((i for i, (_, c) in enumerate(self.plan) if not (c or "").startswith("hpi:")), len(self.plan))
                    self.plan[at:at] = explore[:fit]
                else:
                    self.plan[queued:queued] = explore[:fit]
                    queued += min(fit, len(explore))
            # a substance told (history, not a symptom) is followed up too: how much, going without it, its harms
            uses = self._current_uses(text)
            follow_up = self._disclosure_follow_up(affirmed + cues + uses, text, skip=instead)
            if follow_up:
                # a positive disclosure (voices, a persecutor, panic, highs, a child out all night) is explored at once,
                # before the screen moves on; the screening questions the differential least expects give way to it
                also = tuple(c for r in self.script["disclosure_follow_up"]["rules"] if r["name"] in self.followed_now
                             for c in [*r.get("also_give_way", ()),
                                       *(r.get("also_give_way_on_signs", ()) if r["name"] in self.followed_on_signs else ())])
                fit = self._make_room(len(follow_up), also=also)
                self.plan[queued:queued] = follow_up[:fit]
            if not any(q == "__picture__" for q, _ in self.plan):
                # the picture told after its screen was put ('Being alone terrifies me' in answer to the worry the screen
                # asked, test-v2-0469): its questions are put now, as a disclosure's would be
                planned = {c for _, c in self.plan}
                late = [c for c in self._picture_concepts({c for c in self.findings.present if c not in before})
                        if c not in planned]
                if late:
                    fit = self._make_room(len(late))
                    child = self.walk_in.age_group == "child"
                    self.plan[queued:queued] = [((child and self._informant_question(c)) or self._question(c), c) for c in late[:fit]]
            vague = self.script["vague_complaint"]
            named = [c for c in self.findings.present if c not in before]  # any finding, a drug or a life event too
            short = len(tokenize(self.findings.answers.get("hpi:complaint", ""))) <= vague["max_words"]
            if self.last_concept == "hpi:complaint" and short and not named and self.walk_in.age_group in vague["ages"]:
                # "I need help." names nothing: what the patient has noticed is asked before when and why (test-v2-0208)
                self.plan.insert(0, (vague["ask"], vague["key"]))
            earlier = self._earlier_episode_question()
            if earlier:
                self.plan.insert(queued, earlier)  # the past help told no earlier episode of this low mood
        if self.phase == "exams" and text:
            self.findings.exam_results.extend(_parse_results(text))
        reserve = self.script["interview_reserve_turns"]
        if "ask" in allowed and self.turns < self.budget - reserve:
            nxt = self._next_question()
            if nxt is not None:
                question, concept = nxt
                self.turns += 1
                self.last_question, self.last_concept = question, concept
                if (concept or "").startswith("alone:"):
                    return f"<ask>{question}</ask>"  # the companion asked out or back in, in words of its own
                if concept and ":" not in concept:
                    self.findings.asked.add(concept)
                elif concept in self._follow_concepts():
                    self.findings.asked.add(self._follow_concepts()[concept])  # asked about means: not again in the history
                sensitive = bool(concept and concept in self.lexicon and self.lexicon.get(concept).sensitive)
                grown = self.walk_in.age_group == "adult" and bool(self.walk_in.informant_role or self.walk_in.informant)
                # a refused risk question asked again of an adult's key worker (_reask) is theirs too: its warmth must
                # speak to no "you" ("Thank you for telling me. A question for his key worker: ..." went to Craig)
                to_informant = (question == self._informant_question(concept) and (self.walk_in.age_group == "child" or grown)) or (
                    grown and question == self._informant_question(f"reask:{concept}"))
                if to_informant:
                    # put to the parent by their role, the warmth in words that speak to no "you" (it would turn the
                    # question to the child)
                    warm = self._informant_validations()
                    if self.turns % 2 == 0 or affirmed:
                        question = f"{warm[self.validation_index % len(warm)]} {question}"
                        self.validation_index += 1
                elif sensitive and concept in self.script["risk"] and (question, concept) != self.reasking:
                    warm = self._validation() if affirmed else self._acknowledgement()
                    question = f"{warm} {self.script['risk_preface']} {question}"
                elif affirmed:
                    question = f"{self._reflection(affirmed, text)} {question}"
                elif self.turns > 1 and self.turns % 4 == 0:
                    question = f"{self._acknowledgement()} {question}"
                every = self.age_script.get("informant_every")
                child_only = self.script["informant_questions"]["child_only"]["keys"]
                collateral = None if concept in child_only else self._informant_question(concept)
                if self.walk_in.informant and every and self.turns > 1 and self.turns % every == 0 and collateral and self.alone != "out":
                    # an adolescent's parent is asked the history about them, never "your mood" (she tells her own)
                    question = collateral
                return f"<ask>{question}</ask>"
        self.turns += 1
        if "order_exams" in allowed and self.phase == "interview":
            self.phase = "exams"
            return f"<order_exams>{'; '.join(self._exams())}</order_exams>"
        if "write_note" in allowed:
            self.phase = "note"
            return f"<write_note>{self._note()}</write_note>"
        if "diagnose" in allowed:
            self.phase = "diagnosis"
            return f"<diagnose>{self._diagnosis()}</diagnose>"
        self.phase = "treatment"
        return f"<treat>{self._plan()}</treat>"

    def _exams(self) -> list[str]:
        ranked = self._ranked()[:3]
        # the setting's baseline (bloods and vital signs for anyone in hospital or the emergency department: a
        # potassium of 2.6 or a glucose of 1.9 must be seen whatever the differential)
        settings = self.script["settings"]
        names: list[str] = list(settings.get(self.walk_in.setting or "", {}).get("baseline_exams", ()))
        # what the findings call for whatever leads (a fear of weight gain: weight and BMI, ECG, electrolytes), first or
        # after the leading hypothesis's own (``exams_by_finding``: a C-SSRS naming a rope comes first, hw-015)
        # a rule with 'onset_within_days' is called by a sudden onset at its age, whatever was told: an illness of days
        # in old age is a delirium until shown otherwise (exams_by_finding._onset_about)
        days = self._illness_days(established_only=True)
        called = [
            rule for rule in self.script["exams_by_finding"]["rules"]
            if (set(rule["when"]) & set(self.findings.present) if "onset_within_days" not in rule
                else days is not None and days <= rule["onset_within_days"])
            and self.walk_in.age_group in rule.get("ages", [self.walk_in.age_group])
            and (self.walk_in.age or 0) >= rule.get("min_age", 0)
        ]
        for first in (True, False):
            for rule in called:
                if rule.get("first", False) == first:
                    names += [e for e in rule["exams"] if e not in names]
            if first:
                for prefix, exams in self.script["exams_by_code"].items():
                    if not prefix.startswith("_") and ranked and ranked[0][0].code.startswith(prefix):
                        names += [e for e in exams if e not in names]
                names += [e for e in (ranked[0][0].exams if ranked else ()) if e not in names]
        for i, (h, _) in enumerate(ranked):
            for exam in h.exams:
                if exam not in names and (i == 0 or exam.lower() in h.abnormal_exams):
                    names.append(exam)
        # a risk heard: the risk scale called for stays inside the cap, after the baseline (exams_when_risk; an onset
        # rule's CAM and MMSE pushed the C-SSRS of a 70-year-old with a rope in the garage off the list)
        risk = self.script["exams_when_risk"]
        if set(risk["when"]) & set(self.findings.present):
            baseline = settings.get(self.walk_in.setting or "", {}).get("baseline_exams", ())
            scales = [n for n in names if n in risk["exams"]]
            names = [n for n in names if n not in scales]
            at = len([n for n in names if n in baseline])
            names[at:at] = scales
        # dependent drinking heard whatever leads: the liver tests and blood count, within the cap
        drinking = self.script["exams_when_dependent_drinking"]
        if self.heavy_drinking(dependent=True) and not (ranked and ranked[0][0].code[:3] == drinking["code"][:3]):
            extra = list(drinking["exams"])  # moved up when a later hypothesis asked for them past the cap
            names = [n for n in names if n not in extra]
            at = max(0, min(len(names), self.script["max_exams"] - len(extra)))
            names[at:at] = extra
        # only what fits the patient (``fits`` of exams.json: no pregnancy test for a man of 43, no adult self-report
        # scale for a 12-year-old; both ordered at stop 31, the held_out31 writer's reading)
        kb = load_knowledge()
        w = self.walk_in
        names = [n for n in names if (e := kb.resolve_exam(n)) is None or e.fits(w.age, w.sex)]
        # ordered by the names the charts use (FBC, U&E), which the knowledge base resolves to the same exams
        levels = self.script["plan"]["levels_need_drug"]["exams"]
        said = " ".join(reply for _, reply in self.findings.replies).lower()
        names = [n for n in names if n.lower() not in levels or re.search(rf"\b{levels[n.lower()]}\b", said)]
        house = self.script["exam_names"]
        return [house.get(n, n) for n in names[: self.script["max_exams"]] or ["CBC"]]

    def _admissible(self, h: Hypothesis, heard: list[str] | None = None) -> bool:
        """Whether the history heard supports ``h``'s specifier (``required_on_differential``: no recurrent depression
        without an earlier episode, no combined-type ADHD without hyperactivity or impulsivity), or the patient named it
        as their own past diagnosis."""
        conf = self.script["required_on_differential"]
        need = next((v for k, v in conf.items() if not k.startswith("_") and h.code.startswith(k)), None)
        need = need if heard is None or not need else heard  # ``heard``: the findings that count, in place of the data's
        # a positive screen on file (an MDQ) tells a past high a patient may not (evidence.results_show)
        if not need or set(need) & (set(self.findings.present) | self._shown_by_results(ranking=False)) or self._told_before(h):
            return True
        told = conf["_or_told"]
        cues = next((v for k, v in told.items() if not k.startswith("_") and k != "answers" and h.code.startswith(k)), ())
        unless = self.script["evidence"]["told_before"]["_unless_words"]
        for key in told["answers"]:
            for sentence in re.split(r"(?<=[.!?;])\s+", self.findings.answers.get(key, "").lower()):
                words = " ".join(tokenize(sentence))
                if any(c in words for c in cues) and not any(re.search(rf"\b{re.escape(w)}\b", words) for w in unless):
                    return True
        # an earlier episode told in a reply to any question ("First treated for depression at 36", said about mood)
        patterns = next((v for k, v in told["anywhere"].items() if not k.startswith("_") and h.code.startswith(k)), ())
        age = self.walk_in.age
        for key, reply in self.findings.answers.items():
            if key in self.script["evidence"]["told_before"]["_not_from"]:
                continue
            for sentence in re.split(r"(?<=[.!?;])\s+", reply.lower()):
                if any(re.search(rf"\b{re.escape(w)}\b", sentence) for w in unless):
                    continue
                for pattern in patterns:
                    m = re.search(pattern, sentence)
                    then = m.group(1) if m and m.groups() else None
                    if m and (then is None or age is None or int(then) <= age - 1):
                        return True
        return any(h.code.startswith(k) for k in conf["_or_dependent_drinking"]) and self.heavy_drinking(dependent=True)

    def _ranked_admissible(self) -> list[tuple[Hypothesis, float]]:
        ranked = self._ranked()
        return [pair for pair in ranked if self._admissible(pair[0])] or ranked

    def _leading(self) -> list[tuple[Hypothesis, float]]:
        ranked = self._ranked_admissible()
        top = ranked[0][1]
        lead = [ranked[0]]
        evidence = self._evidence()
        for h, s in ranked[1:]:
            if len(lead) >= self.script["max_disorders"]:
                break
            if not any(c in evidence for c, _ in h.symptoms) and self._results_weight(h) <= 0:
                continue  # nothing heard of it nor shown by a result: no place on the differential, whatever its base rate
            need = self.script["required_to_lead"].get(h.code)
            if need and not set(need) & set(self.findings.present):
                continue  # a depression "with psychotic features" with no delusion or voice heard is no differential
            if self._explained_above(h, [g for g, _ in lead]):
                continue  # nightmares that PTSD above already holds: no nightmare disorder beside it
            if top <= 0 or s >= top * self.script["category_threshold"]:
                lead.append((h, s))
        lead = self._explaining_first(self._fitting_first(lead))
        lead = lead[:1] + [pair for pair in lead[1:] if self._on_differential(pair[0], lead[0][0])]
        lead = self._results_lead(self._results_on_differential(lead, ranked))
        return self._dependence_first(lead)

    def _explained_above(self, h: Hypothesis, above: list[Hypothesis]) -> bool:
        """Whether ``h`` is a disorder diagnosed only when no other disorder explains it (``explained_on_differential``:
        a sleep disorder) and every finding of its presentation heard is a finding of a disorder placed above it."""
        if not h.code.startswith(tuple(self.script["explained_on_differential"]["codes"])):
            return False
        heard = {c for c, _ in h.symptoms} & self._evidence()
        held = {c for g in above if g.category != h.category for c, _ in g.symptoms}
        return bool(heard) and heard <= held

    def _explaining_first(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with a disorder that explains a leading sleep disorder put first (``explained_on_differential.first``):
        nightmares after combat or an assault lead as PTSD, which holds every finding of the nightmare disorder heard,
        when the trauma or its re-experiencing was told (a finding of ``told_only_with`` only when its words tell one of
        its words: military service with a combat deployment, not a cook in the army); the sleep disorder then leaves
        the list, as ``_explained_above`` keeps it off below PTSD. Unchanged otherwise."""
        conf = self.script["explained_on_differential"]
        if not lead or not lead[0][0].code.startswith(tuple(conf["codes"])):
            return lead
        heard = set(self.findings.present) - self.findings.contradicted - self.findings.denied
        for i, (h, _) in enumerate(lead[1:], 1):
            rule = next((r for prefix, r in conf["first"].items() if h.code.startswith(prefix)), None)
            told = {c for c in set(rule["told"]) & heard if c not in rule.get("told_only_with", {})
                    or any(re.search(rf"\b{re.escape(w)}\b", self.findings.present.get(c, "").lower())
                           for w in rule["told_only_with"][c])} if rule else set()
            if told and self._explained_above(lead[0][0], [h]):
                return [lead[i]] + [pair for j, pair in enumerate(lead[1:], 1) if j != i]
        return lead

    def _dependence_first(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with a drug's dependence first when it was told (``_drug_dependence_told``) and the disorder leading
        is one of the categories it is treated before (``dependence_first``): daily heroin beside low mood and poor sleep
        is an opioid dependence first, its substitution treatment and naloxone the plan's, and the depression is judged
        again once the use is stable; it is put on the list if the ranking left it off."""
        conf = self.script["dependence_first"]
        if not lead or lead[0][0].category not in conf["over_categories"]:
            return lead
        for code in self._drug_dependence_told():
            if not code.startswith(tuple(conf["codes"])):
                continue
            at = next((i for i, (h, _) in enumerate(lead) if h.code[:3] == code[:3]), None)
            if at is not None:
                return [lead[at]] + lead[:at] + lead[at + 1 :]
            h = next((h for h in self.hyps if h.code == code), None)
            if h is not None:
                return [(h, lead[0][1])] + lead[: self.script["max_disorders"] - 1]
        return lead

    def _without_residual(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` without a residual diagnosis (``residual_diagnoses``: an adjustment disorder) anywhere but first: it is
        given only when no other disorder explains the reaction, so beside a disorder that leads it is no co-diagnosis.
        It stays on the ranked differential and in the note's (stop 30's supervisor); the chart's categories and the
        plan's co-occurring therapy lines leave it out."""
        codes = tuple(self.script["residual_diagnoses"]["codes"])
        return lead[:1] + [pair for pair in lead[1:] if not pair[0].code.startswith(codes)]

    def _results_lead(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with the disorder a rule of ``evidence.results_weigh`` marked 'leads' speaks for put first when the
        rule holds and the disorder stands on the list: an organic cause the results show comes before the functional
        disorder it would explain (confusion beside a sodium of 118 is a delirium before an adjustment disorder)."""
        for rule in self.script["evidence"]["results_weigh"]["rules"]:
            if not rule.get("leads") or not self._result_on_file(rule):
                continue
            prefixes = tuple(p for p, w in rule["codes"].items() if w > 0)
            at = next((i for i, (h, _) in enumerate(lead) if h.code.startswith(prefixes)), None)
            if at:
                lead = [lead[at]] + lead[:at] + lead[at + 1 :]
        return lead

    def _on_differential(self, h: Hypothesis, principal: Hypothesis) -> bool:
        """Whether ``h`` may stand on the differential beside ``principal``: not a disorder that needs a finding never
        heard (``required_to_lead``: a depression "with psychotic features" beside no delusion or voice, whose plan
        adds an antipsychotic and ECT, test-v2-0459), nor one of the principal's category whose minimum duration the
        illness heard has not lasted when it is one of years (dysthymia at twelve months, test-v2-0178) or whose specifier the scales on file
        contradict ("severe" beside a PHQ-9 and a HAM-D both moderate) when the principal's does not."""
        need = self.script["required_to_lead"].get(h.code)
        if need and not set(need) & set(self.findings.present):
            return False
        if h.category != principal.category:
            return True
        single = next((k for k, v in self.script["recurrent_first"].items() if not k.startswith("_") and h.code.startswith(k)), None)
        if single and principal.code.startswith(self.script["recurrent_first"][single]):
            return False  # "single episode" beside the recurrent disorder it leads as
        # a disorder of years (dysthymia, cyclothymia) beside an illness of months; a briefer minimum (schizophrenia
        # beside a psychosis of days) stays, as the course to watch for (``differential_duration``)
        said, durations = self._illness_days(), load_durations()
        years = self.script["differential_duration"]["min_days"]
        if said is not None and not durations.fits(h.code, said, self.walk_in.age) and not durations.fits(h.code, years, self.walk_in.age):
            return False
        results = list(self.findings.exam_results)
        return not severity_conflict(h.code, results, h.name) or bool(severity_conflict(principal.code, results, principal.name))

    def _illness_days(self, established_only: bool = False) -> float | None:
        """How long the illness has lasted, in days: the longest duration in the chief complaint and the replies
        to the present illness's questions (onset, context, impact), else the longest in any reply ("a postman
        for 38 years" dates a job, not the illness). With ``established_only``, None where only an onset month
        bounds it ("It started in September": under a year, but how far under is not known)."""
        f = self.findings
        durations = load_durations()
        told = [f.chief_complaint] + [f.answers.get(k, "") for k in ("hpi:complaint", "hpi:1", "hpi:2", "hpi:3")]
        said = durations.longest_said(told, bare_plurals=True)
        since = self._onset_age_days(told)
        if said is not None or since is not None:
            # "It started about two days ago" beside "in my early fifties" from a woman of 56: the age dates the illness
            return max(d for d in (said, since) if d is not None)
        # else the longest in a reply about the illness (a symptom, the mental state), never one about the history:
        # "I've been a cleaner for 4 years" made a four-month depression dysthymia (test-v2-0182)
        about_illness = [
            reply
            for key, reply in f.answers.items()
            if ":" in key or (key in self.lexicon and self.lexicon.get(key).kind in ("symptom", "sign"))
        ]
        said = durations.longest_said(about_illness)
        if said is not None or established_only:
            return said
        # an onset named by its month and no year ("It started in November") is within the year
        onset = self.script["onset_month"]
        words = set(tokenize(" ".join(told)))
        return float(onset["days"]) if words & set(onset["months"]) else None

    def _onset_age_days(self, told: list[str]) -> float | None:
        """How long ago, in days, the onset the patient dated by their age began ("at the age of 27", "since I was 13",
        "in my early fifties", ``onset_age`` of ``clinician.json``), from the age seen on walking in; None when none was
        given or no age is known."""
        age = self.walk_in.age
        if age is None:
            return None
        conf = self.script["onset_age"]
        ages: list[float] = []
        for text in told:
            low = text.lower()
            ages += [float(m.group(1)) for m in re.finditer(conf["pattern"], low)]
            for m in re.finditer(conf["decade_pattern"], low):
                ages.append(conf["decades"][m.group(2)] + conf["parts"].get(m.group(1) or "", conf["parts"]["_default"]))
        ages = [a for a in ages if a <= age]
        return (age - min(ages)) * 365.0 if ages else None

    def _fitting_beyond_differential(self, lead: list[tuple[Hypothesis, float]], said: float) -> list[tuple[Hypothesis, float]]:
        """``lead`` led by the best ranked disorder of the lead's category off the differential whose own duration rule,
        a time-limited one (with a maximum), the illness heard fits (``duration_principal.beyond_differential``) and of which a finding was heard; the old
        lead kept beside it, the list cut to ``max_disorders``. Unchanged when there is none."""
        durations = load_durations()
        evidence = self._evidence()
        codes = {h.code for h, _ in lead}
        for h, s in self._ranked_admissible():
            # only a time-limited form (a maximum the illness fits): a depression found for two months of premenstrual
            # symptoms is no premenstrual dysphoric disorder's stand-in (hw-025)
            if h.code in codes or h.category != lead[0][0].category or durations.maximum_days(h.code) is None:
                continue
            if durations.fits(h.code, said, self.walk_in.age) and any(c in evidence for c, _ in h.symptoms):
                return [(h, lead[0][1])] + lead[: self.script["max_disorders"] - 1]
        return lead

    def _fitting_first(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with a disorder of the lead's category first when the lead lacks a finding it cannot lead without
        (``required_to_lead``: no psychotic depression without a delusion or a hallucination heard) or when its
        minimum duration is not met and the other fits (``duration_principal``: at four days a brief psychotic
        disorder, not schizophrenia); unchanged otherwise."""
        lead = self._personality_over_unmet_episode(self._episode_met_first(lead))
        need = self.script["required_to_lead"].get(lead[0][0].code)
        if need and not set(need) & set(self.findings.present):
            for i, (h, _) in enumerate(lead[1:], 1):
                if h.category == lead[0][0].category and not self.script["required_to_lead"].get(h.code):
                    lead = [lead[i]] + lead[:i] + lead[i + 1 :]
                    break
        lead = self._specified_first(lead)
        durations = load_durations()
        said = self._illness_days()
        if said is not None and not durations.fits(lead[0][0].code, said, self.walk_in.age):
            for i, (h, s) in enumerate(lead[1:], 1):
                if h.category == lead[0][0].category and durations.fits(h.code, said, self.walk_in.age):
                    lead = [lead[i]] + lead[:i] + lead[i + 1 :]
                    break
            else:
                # none on the differential fits: one of the category ranked further down that a duration rule fits and
                # a finding of its own heard supports (two days of psychosis: a brief psychotic disorder, stop 56)
                lead = self._fitting_beyond_differential(lead, said) if self.script["duration_principal"].get(
                    "beyond_differential") else lead
        lead = self._recurrent_first(self._adjustment_explained_first(self._stressor_first(lead)))
        lead = self._outlasted_first(lead, said)
        lead = self._acute_first(lead, said)
        # read last, so that a specifier first moves a depression to its own psychotic form where the ranking has it;
        # then no delirium first without an acute onset heard (a psychosis it would explain put it back first)
        lead = self._manic_features_first(self._psychosis_without_mood_episode(self._psychosis_explained_first(lead)))
        return self._onset_first(lead, said)

    def _outlasted_first(self, lead: list[tuple[Hypothesis, float]], said: float | None) -> list[tuple[Hypothesis, float]]:
        """``lead`` with the first disorder whose durations fit the length heard first when the lead is a reaction that
        cannot have lasted that long (``outlasted``: an adjustment disorder of ten years); unchanged otherwise."""
        most = next((d for p, d in self.script["outlasted"]["max_days"].items() if lead[0][0].code.startswith(p)), None)
        if said is None or most is None or said <= most:
            return lead
        durations = load_durations()
        for i, (h, _) in enumerate(lead[1:], 1):
            own = next((d for p, d in self.script["outlasted"]["max_days"].items() if h.code.startswith(p)), None)
            if durations.fits(h.code, said, self.walk_in.age) and (own is None or said <= own):
                return [lead[i]] + lead[:i] + lead[i + 1 :]
        return lead

    def _onset_first(self, lead: list[tuple[Hypothesis, float]], said: float | None) -> list[tuple[Hypothesis, float]]:
        """``lead`` with a disorder of its category first when the lead is one that needs an acute onset heard
        (``onset_to_lead``: a delirium) and none was, the illness's length unknown or longer than the lead's longest;
        unchanged otherwise (a cause on file puts a delirium back first: _results_lead)."""
        top = lead[0][0]
        conf = self.script["onset_to_lead"]
        if not top.code.startswith(tuple(conf["codes"])) or self.walk_in.setting not in conf["settings"]:
            return lead  # in the emergency department or on a ward, confusion that brought them is a delirium first
        durations = load_durations()
        most = durations.maximum_days(top.code)
        if said is not None and (most is None or said <= most):
            return lead
        age = self.walk_in.age

        def fitting(h: Hypothesis) -> bool:
            return h.code != top.code and h.category == top.category and (said is None or durations.fits(h.code, said, age))

        at = next((i for i, (h, _) in enumerate(lead[1:], 1) if fitting(h)), None)
        if at is not None:
            return [lead[at]] + lead[:at] + lead[at + 1 :]
        evidence = self._evidence()
        below = next((pair for pair in self._ranked_admissible()
                      if fitting(pair[0]) and any(c in evidence for c, _ in pair[0].symptoms)), None)
        return [below] + lead[: self.script["max_disorders"] - 1] if below else lead

    def _acute_first(self, lead: list[tuple[Hypothesis, float]], said: float | None) -> list[tuple[Hypothesis, float]]:
        """``lead`` with the acute stress reaction first when its daze was heard on an illness of days and a stress
        reaction, or a disorder that length cannot make, leads (``acute_first``: two days after an event, test-v2-0237),
        without the disorders that length cannot make (a generalised anxiety's six months); unchanged otherwise."""
        conf = self.script["acute_first"]
        if said is None or said > conf["max_days"] or conf["finding"] not in self._evidence() - self.findings.denied:
            return lead
        durations = load_durations()
        age = self.walk_in.age
        top = lead[0][0].code
        if top == conf["then"] or not (top.startswith(tuple(conf["leads"])) or not durations.fits(top, said, age)):
            return lead
        acute = next((pair for pair in self._ranked_admissible() if pair[0].code == conf["then"]), None)
        if acute is None or (age is not None and not acute[0].age_range[0] <= age <= acute[0].age_range[1]):
            return lead
        rest = [pair for pair in lead if pair[0].code != conf["then"]]
        kept = [pair for pair in rest if pair[0].code.startswith(tuple(conf["leads"])) or durations.fits(pair[0].code, said, age)]
        return [acute] + kept[: self.script["max_disorders"] - 1]

    def _mood_groups_heard(self, prefix: str) -> int:
        """How many symptom groups of the depressive episode (``episode_threshold`` of ``prefix``) were heard."""
        conf = self.script["episode_threshold"][prefix]
        present = (set(self.findings.present) - self.findings.contradicted) | (self.findings.inferred - self.findings.denied)
        present |= {b for a, b in lexicon_relations("implies") if a in present}
        return sum(bool(set(g) & present) for g in conf["groups"])

    def _psychosis_without_mood_episode(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with a psychotic disorder first when a mood disorder "with psychotic features" leads on fewer
        symptom groups of a depressive episode than any episode needs (``psychosis_without_mood_episode``): voices and
        a persecutor beside flatness and withdrawal are a psychosis's, not a severe depression's; the former lead stays
        on the differential. The psychotic disorder is the best ranked of 'then' that explains a psychotic finding
        heard and, when the illness's length was heard, fits it."""
        conf = self.script["psychosis_without_mood_episode"]
        first = lead[0][0]
        rule = next((r for r in conf["rules"] if first.code.startswith(tuple(r["codes"]))), None)
        groups = self._mood_groups_heard(rule["episode"]) if rule is not None else 0
        if rule is None or groups >= rule["min_groups"]:
            return lead
        told = (set(self.findings.present) - self.findings.contradicted) | (self.findings.inferred - self.findings.denied)
        if set(conf["unless_heard"]) & told:
            return lead  # a nihilistic or guilty delusion is the depression's own ("my insides are rotting", hw-015)
        # a psychosis that nothing else heard speaks for does not lead (min_score), unless no group of a depressive
        # episode was heard at all (min_score_from_groups): then the depression has nothing to lead on (hw-024)
        min_score = conf["min_score"] if groups >= conf["min_score_from_groups"] else None
        moved = self._lead_explaining_psychosis(lead, conf["then"], told, min_score)
        if groups < conf["min_score_from_groups"] and moved[0][0] is not first:
            moved = [pair for pair in moved if pair[0] is not first]  # nor on the differential: nothing speaks for it
        return moved

    def _manic_features_first(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with a mood disorder that explains the psychosis first when a psychosis without a mood episode
        leads beside an elevated mood and other manic findings heard (``manic_features_first``): 'I feel absolutely
        amazing', talking too fast and a poisoning belief are a manic or schizoaffective picture, not a delusional
        disorder (test-v2-0015); the former lead stays on the differential."""
        conf = self.script["manic_features_first"]
        if not lead[0][0].code.startswith(tuple(conf["codes"])):
            return lead
        told = (set(self.findings.present) - self.findings.contradicted) | (self.findings.inferred - self.findings.denied)
        others = [g for g in conf["groups"] if not set(g) & set(conf["core"])]  # the core is required, not counted
        if not set(conf["core"]) & told or sum(bool(set(g) & told) for g in others) < conf["min_other_groups"]:
            return lead
        return self._lead_explaining_psychosis(lead, conf["then"], told)

    def _lead_explaining_psychosis(self, lead: list[tuple[Hypothesis, float]], then: list[str], told: set[str],
                                   min_score: float | None = None) -> list[tuple[Hypothesis, float]]:
        """``lead`` with the best ranked disorder of ``then`` that explains a psychotic finding told (and, when the
        illness's length was heard, fits it) moved first, the former lead kept on the differential; ``lead`` as it is
        where none does. Shared by ``_psychosis_without_mood_episode`` and ``_manic_features_first``."""
        heard = set(self.script["psychosis_explained"]["findings"]) & told
        said, durations = self._illness_days(), load_durations()
        candidates = [pair for pair in self._ranked_admissible()
                      if pair[0].code.startswith(tuple(then)) and heard & {c for c, _ in pair[0].symptoms}
                      and (min_score is None or pair[1] > min_score)]
        fitting = [pair for pair in candidates if said is None or durations.fits(pair[0].code, said, self.walk_in.age)]
        best = (fitting or candidates or [None])[0]
        if best is None:
            return lead
        rest = [pair for pair in lead if pair[0] is not best[0]]
        return [best] + rest[: self.script["max_disorders"] - 1]

    def _unexplained(self, h: Hypothesis) -> set[str]:
        """The hallucinations and delusions heard (``psychosis_explained``) that ``h``'s presentation does not hold."""
        f = self.findings
        heard = set(self.script["psychosis_explained"]["findings"]) & (set(f.present) - f.contradicted)
        # a disorder "with psychotic features" explains every finding its specifier names (``required_to_lead``)
        return heard - {c for c, _ in h.symptoms} - set(self.script["required_to_lead"].get(h.code, ()))

    def _psychosis_explained_first(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with the first ranked disorder that explains the hallucinations or delusions heard first, when
        the lead explains none of them (``psychosis_explained``); the former lead stays on the differential."""
        first = lead[0][0]
        if any(first.code.startswith(c) for c in self.script["psychosis_explained"]["not_over"]):
            return lead
        unexplained = self._unexplained(first)
        heard = set(self.script["psychosis_explained"]["findings"]) & (set(self.findings.present) - self.findings.contradicted)
        if not unexplained or unexplained != heard:
            return lead  # nothing heard, or the lead explains some of it (a depression with psychotic features)
        # the first disorder on the ranking that explains any of it (a depression with psychotic features before a
        # delusional disorder when the ranking says so)
        best = next((pair for pair in self._ranked_admissible() if len(self._unexplained(pair[0])) < len(heard)), None)
        if best is None:
            return lead
        rest = [pair for pair in lead if pair[0] is not best[0]]
        return [best] + rest[: self.script["max_disorders"] - 1]

    def _stressor_first(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with a stress reaction first (``stressor_first``: an adjustment disorder) when the lead must have
        lasted months, the length heard does not establish it (an onset named by its month alone is a bound, not a
        length) and the patient told the illness began after an event; the former lead stays on the differential.
        Unchanged otherwise."""
        conf = self.script["stressor_first"]
        first = lead[0][0]
        if any(first.code.startswith(c) for c in conf["then"]):
            return lead
        minimum = load_durations().minimum_days(first.code, self.walk_in.age)
        if first.code.startswith(tuple(conf["over_whatever_minimum"])):
            minimum = max(minimum or 0, conf["longer_than_days"] + 1)
        if minimum is None or minimum <= conf["longer_than_days"]:
            return lead
        known = self._illness_days(established_only=True)
        if known is not None and known >= minimum or not self._stressor_told():
            return lead
        evidence = self._evidence()
        lead_codes = {h.code for h, _ in lead}
        top = lead[0][1]
        for h, score in self._ranked_admissible():
            if not any(h.code.startswith(c) for c in conf["then"]) or not any(c in evidence for c, _ in h.symptoms):
                continue
            if known is None and top > 0 and score < top * conf["unknown_length_share"]:
                continue  # no length heard rules the lead out: the stress reaction must account for what was heard
            if len(self._unexplained(h)) > len(self._unexplained(first)):
                continue  # no stress reaction over a voice or a delusion the lead explains
            own = {c for c, _ in h.symptoms}
            # (a primary insomnia's sleeplessness is the stress reaction's own when it began with the event)
            over = first.code.startswith(tuple(conf["over_whatever_minimum"]))
            if not over and any(p >= conf["core_p"] and c in evidence and c not in own for c, p in first.symptoms):
                continue  # the lead's own core finding, which no stress reaction explains, was heard (a fear of illness)
            if known is not None and not load_durations().fits(h.code, known, self.walk_in.age):
                continue
            rest = [pair for pair in lead if pair[0] is not h]
            return [(h, score)] + (rest if h.code in lead_codes else rest[: self.script["max_disorders"] - 1])
        return lead

    def _adjustment_explained_first(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with the disorder that explains the reaction first when an adjustment disorder leads and another
        disorder was heard to be present (``adjustment_explained_by``: an acute stress reaction's daze two days after an
        armed robbery, test-v2-0237; remorse after rages, test-v2-0175; a depressive episode met in full) in a length
        that fits it; the adjustment disorder stays on the differential. Unchanged otherwise."""
        conf = self.script["adjustment_explained_by"]
        first = lead[0][0]
        if not any(first.code.startswith(c) for c in conf["adjustment"]):
            return lead
        present = set(self.findings.present) - self.findings.contradicted
        known = self._illness_days()
        durations = load_durations()
        for h, score in self._ranked_admissible():
            defining = next((v for k, v in conf["instead"].items() if h.code.startswith(k)), None)
            if defining is None:
                continue
            heard = self._episode_met(h) if defining == "episode_threshold" else bool(set(defining) & present)
            need = self.script["required_to_lead"].get(h.code)
            if need and not set(need) & present:
                continue  # a depression "with psychotic features" with no psychotic finding heard does not lead
            if not heard or known is not None and not durations.fits(h.code, known, self.walk_in.age):
                continue
            if len(self._unexplained(h)) > len(self._unexplained(first)):
                continue
            rest = [pair for pair in lead if pair[0] is not h]
            return [(h, score)] + rest[: self.script["max_disorders"] - 1]
        return lead

    def _episode_met(self, h: Hypothesis) -> bool:
        """Whether ``h``'s depressive episode was heard in full (``episode_threshold``: enough of its symptom groups,
        one of them low mood or loss of interest); False for a disorder with no threshold there."""
        conf = next((v for k, v in self.script["episode_threshold"].items() if not k.startswith("_") and h.code.startswith(k)), None)
        if not conf:
            return False
        present = set(self.findings.present) - self.findings.contradicted
        present |= {b for a, b in lexicon_relations("implies") if a in present}
        met = sum(bool(set(g) & present) for g in conf["groups"])
        return met >= conf["min"] and bool(set(conf["core"]) & present)

    def _stressor_told(self) -> bool:
        """Whether the patient told the illness began after an event (``stressor_first``): a stressor finding affirmed,
        or a sentence of a reply about the onset or its context that says so, with no negation in it."""
        conf = self.script["stressor_first"]
        f = self.findings
        if set(conf["findings"]) & (set(f.present) - f.contradicted):
            return True
        for key in conf["context_answers"]:
            for sentence in re.split(r"(?<=[.!?;])\s+", f.answers.get(key, "").lower()):
                if self._tells(sentence, conf["said"]):
                    return True
        # told in a reply to any other question, in a sentence that names the start ("In January, in the wake of a
        # separation, it all began", said when asked about bedtime: test-v2-0404)
        for key, reply in f.answers.items():
            if key in conf["context_answers"] or f.told_by.get(key):
                continue
            for sentence in re.split(r"(?<=[.!?;])\s+", reply.lower()):
                if re.search(conf["onset_words"], sentence) and self._tells(sentence, conf["said"]):
                    return True
        return False

    def _recurrent_first(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with the recurrent disorder first when a single episode leads and an earlier episode was heard
        (``recurrent_first``: a depression with one diagnosed at 26 is recurrent, test-v2-0182); the recurrent one of the
        same severity when there is one, else the first the ranking admits."""
        conf = self.script["recurrent_first"]
        first = lead[0][0]
        if any(first.code.startswith(c) for c in conf["_leads_over"]):
            # a primary insomnia before a depression with an earlier episode: the depression's single episode (on the
            # differential) is judged as if it led, and the insomnia follows it
            single = next((i for i, (h, _) in enumerate(lead[1:], 1) if self._single_episode(h)), None)
            if single is not None:
                moved = self._recurrent_first([lead[single]] + lead[:single] + lead[single + 1 :])
                if not self._single_episode(moved[0][0]):
                    return moved
            return lead
        recurrent = next((v for k, v in conf.items() if not k.startswith("_") and first.code.startswith(k)), None)
        if not recurrent:
            return lead
        results = list(self.findings.exam_results)
        candidates = [
            pair
            for pair in self._ranked_admissible()
            if pair[0].code.startswith(recurrent)
            and self._admissible(pair[0], conf["_heard"])
            and not severity_conflict(pair[0].code, results, pair[0].name)
        ]
        same = [pair for pair in candidates if pair[0].name.split(",")[-1].strip() == first.name.split(",")[-1].strip()]
        pick = (same or candidates or [None])[0]
        if pick is None:
            return lead
        return [pick] + [pair for pair in lead if pair[0] is not pick[0]]

    def _single_episode(self, h: Hypothesis) -> bool:
        return any(not k.startswith("_") and h.code.startswith(k) for k in self.script["recurrent_first"])

    def _episode_met_first(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with an adjustment disorder first when the leading depression's episode was not heard in full
        (``episode_threshold``: too few of its symptom groups, or neither low mood nor anhedonia); unchanged
        otherwise."""
        conf = next((v for k, v in self.script["episode_threshold"].items() if not k.startswith("_") and lead[0][0].code.startswith(k)), None)
        if not conf or not set(conf["then_needs"]) & (set(self.findings.present) - self.findings.contradicted):
            return lead
        present = set(self.findings.present) - self.findings.contradicted
        present |= {b for a, b in lexicon_relations("implies") if a in present}
        met = sum(bool(set(g) & present) for g in conf["groups"])
        if met >= conf["min"] and set(conf["core"]) & present:
            return lead
        said = self._illness_days()
        if said is not None and said > conf["then_max_days"]:
            return lead
        for i, (h, _) in enumerate(lead[1:], 1):
            if any(h.code.startswith(c) for c in conf["then"]):
                return [lead[i]] + lead[:i] + lead[i + 1 :]
        return lead

    def _personality_over_unmet_episode(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with a personality disorder first when a depression leads whose episode was not heard in full
        (``episode_threshold``'s count) and at least ``min`` of the personality disorder's typical findings (those of
        weight ``min_p`` or more in its presentation) were heard (``personality_over_unmet_episode``): mood that changes
        by the hour, relationships ended abruptly, terror of being alone and debt from impulsive spending, 'like this
        for years', beside low mood, anhedonia and tiredness is a borderline personality disorder before a depressive
        episode (test-v2-0469). A denied self-harm does not outweigh them: no single finding is required of it."""
        conf = self.script["personality_over_unmet_episode"]
        first = lead[0][0]
        if not any(not k.startswith("_") and first.code.startswith(k) for k in self.script["episode_threshold"]) or self._episode_met(first):
            return lead
        evidence = self._evidence() - self.findings.contradicted
        for i, (h, _) in enumerate(lead[1:], 1):
            if h.category != conf["category"]:
                continue
            typical = {c for c, p in h.symptoms if p >= conf["min_p"]}
            if len(typical & evidence) >= conf["min"]:
                return [lead[i]] + lead[:i] + lead[i + 1 :]
        return lead

    def _specified_first(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with a disorder of the lead's category first when the lead's specifier (knowledge
        ``specifiers.json``) clashes with what it heard and read: "without psychotic features" beside a delusion or a
        hallucination the patient affirmed, "with" beside none, a severity that none of the mood scales on file
        gives. The first of the category's ranked disorders with fewer clashes leads; unchanged when none has."""
        present = set(self.findings.present) - self.findings.contradicted
        results = list(self.findings.exam_results)

        def clashes(h: Hypothesis) -> int:
            return sum(bool(x) for x in (psychotic_conflict(h.code, present, h.name), severity_conflict(h.code, results, h.name)))

        first = clashes(lead[0][0])
        if not first:
            return lead
        # the fewest clashes wins, the ranking breaking ties: "severe without psychotic features" (one clash beside a
        # voice heard) must not lead where "severe with psychotic features" has none (test-v2-0393)
        fewer = [(clashes(h), i, h, score) for i, (h, score) in enumerate(self._ranked_admissible()) if h.category == lead[0][0].category and h is not lead[0][0]]
        best = min((x for x in fewer if x[0] < first), default=None, key=lambda x: (x[0], x[1]))
        if best is not None:
            h, score = best[2], best[3]
            return [(h, score)] + [pair for pair in lead if pair[0] is not h]
        return lead

    def _with_dependent_drinking(self, lead: list[tuple[Hypothesis, float]]) -> list[tuple[Hypothesis, float]]:
        """``lead`` with alcohol dependence added last when the answer about alcohol tells dependent drinking and
        nothing of its family leads (``exams_when_dependent_drinking``), and a drug's dependence when its use and a
        sign of dependence were heard (``drug_dependence``)."""
        code = self.script["exams_when_dependent_drinking"]["code"]
        if self.heavy_drinking(dependent=True) and not any(h.code[:3] == code[:3] for h, _ in lead):
            h = next((h for h in self.hyps if h.code == code), None)
            lead = lead + [(h, 0.0)] if h else lead
        for code in self._drug_dependence_told():
            h = next((h for h in self.hyps if h.code == code), None)
            if h and not any(x.code[:3] == code[:3] for x, _ in lead):
                lead = lead + [(h, 0.0)]
        return lead

    def _drug_dependence_told(self) -> list[str]:
        """The dependence (``drug_dependence``) of each drug the patient uses when a sign of dependence was told of
        that drug: hw-038's nightly cannabis for years, 'I tried to stop twice and couldn't sleep for a week', ranked
        under the differential's threshold beside his ADHD and was never named. A sign counts for a drug when the
        answer telling it names that drug, or names no substance and answers that drug's own question, or answers a
        question about dependence (``generic_questions``) while that drug is the only substance used; 'I tried to cut
        down the drinking but couldn't' is no cannabis dependence. Light drinking counts neither as a substance used nor
        as the drug an answer names (hw-038's 'I tried to stop twice and couldn't sleep for a week, and I drink about
        10 units a week' is told of his cannabis)."""
        conf = self.script["drug_dependence"]
        evidence = self._evidence()
        # drinking the alcohol question showed light names no drug's dependence (an unasked amount is not light)
        light = {"alcohol_use"} if self.findings.answers.get("alcohol_use") and not self.heavy_drinking() else set()
        used = [s for s in conf["substances"] if s in evidence and s not in light]
        out: list[str] = []
        for use, code in conf["by_use"].items():
            if use not in evidence:
                continue
            words = conf["named_only_when"].get(code)
            if words and not any(re.search(w, reply, re.IGNORECASE) for w in words for _, reply in self.findings.replies):
                continue  # amphetamines alone: no cocaine dependence
            for sign, asked, named in self.findings.signs_heard:
                named = set(named) - light
                if sign not in evidence:
                    continue
                if use in named or (not named and (asked == use or self.about_use.get(asked) == use
                                                   or (asked in conf["generic_questions"] and used == [use]))):
                    out.append(code)
                    break
            else:
                if self._daily_use_told(use):
                    out.append(code)
        return out

    def _daily_use_told(self, use: str) -> bool:
        """Whether a reply told daily use of a drug whose daily use is itself a sign of its dependence
        (``drug_dependence.daily_use``: heroin smoked or injected every day): in a sentence that names that use, or that
        names no substance and answers that drug's own question, with no past, light or prescribed use read in it
        (``plan.past_use``)."""
        conf = self.script["drug_dependence"]["daily_use"]
        if use not in conf["uses"]:
            return False
        past = self.script["plan"]["past_use"]
        said = lambda kind, text: any(re.search(p, text, re.IGNORECASE) for p in past[kind])  # noqa: E731
        substances = set(self.script["drug_dependence"]["substances"])
        for key, (_, reply) in zip(self.findings.reply_keys, self.findings.replies):
            for sentence in split_sentences(reply):
                if not any(re.search(p, sentence, re.IGNORECASE) for p in conf["patterns"]):
                    continue
                if self._use_ended(sentence) or said("medicine", sentence):
                    continue
                told = {c for c, negated in patient_findings(sentence) if not negated} & substances
                if use in told or (not told and (key == use or self.about_use.get(key) == use)):
                    return True
        return False

    def _diagnosis(self) -> str:
        lead = self._with_dependent_drinking(self._leading())
        categories: list[str] = []
        # a residual diagnosis below the first stays on the ranked differential (the judge's Rigor counts its breadth,
        # and stop 30's supervisor kept it there) but names no category of its own: it is no co-diagnosis
        for h, _ in self._without_residual(lead):
            if h.category not in categories and len(categories) < self.script["max_categories"]:
                categories.append(h.category)
        disorders = "; ".join(f"{i}. {h.code} {h.name}" for i, (h, _) in enumerate(lead, 1))
        return f"categories: {', '.join(categories)} | disorders: {disorders}"

    def profile(self, believed_only: bool = True) -> Profile:
        """What the critical-action rules need, as this clinician knows it: its leading hypotheses, the setting,
        age and sex seen on walking in, and what the patient affirmed (suicidal thoughts, pregnancy, children at
        home, lithium or clozapine taken) and the medical instability its exam results show."""
        f = self.findings
        actions = load_critical_actions()
        risks: set[str] = set()
        for risk, sign in actions.risk_concepts.items():
            said = [c for c in sign.concepts if c in f.present]
            if not said:
                continue
            if any(c in sign.always for c in said):
                risks.add(risk)
                continue
            if risk == "active_suicide" and (wish := self.script["note_writing"]["death_wish"]["concept"]) in said:
                # suicidal thoughts are read once, for the note's words and the plan alike (stop 46 review S1: the note
                # said "passive death wish" while the plan restricted means for an active risk): active unless passive
                # a passive wish is never the active risk; thoughts of acting are read as before, with the replies'
                # own "I'd never do it" / "no plan" phrases (plan_safety.passive_in_reply) keeping them from it
                if self._death_wish_passive():
                    said = [c for c in said if c != wish]
                    if not said:
                        continue
            replies = tuple(stem(t) for t in tokenize(" ".join(f.present[c] for c in said)))
            unless = sign.unless_phrases
            if risk == "active_suicide":
                unless += tuple(tuple(stem(t) for t in tokenize(p)) for p in self.script["plan_safety"]["passive_in_reply"]["phrases"])
            if not actions._has(replies, unless):
                risks.add(risk)
        if self._risk_to_others():
            # violence told in words the lexicon does not read ("I lost it and pushed someone", risk_to_others_said) is
            # the rules' violence risk too: the plan already answered it with a risk-to-others plan, but a young child
            # at home beside it got no safeguarding step (stop 51's consultant, test-v2-0066)
            risks.add("violence")
        medications = f.answers.get("medications_current", "")
        home = " ".join(f.answers.get(c, "") for c in ("living_situation", "dependants"))
        w = self.walk_in
        lead = self._leading()
        top = lead[0][1]
        believed = [
            h.code
            for h, score in lead
            if not believed_only or h is lead[0][0] or (top > 0 and score >= self.script["believed_share"] * top)
        ]
        return Profile(
            codes=tuple(believed),
            setting=w.setting,
            age=w.age,
            sex=w.sex,
            # a pregnancy told as past ("in the weeks after a pregnancy"): postnatal, not pregnant (``after_a_birth``)
            pregnant="pregnancy" in f.present and "pregnancy" not in f.contradicted
            and not any(self._tells(p, self.script["after_a_birth"]["said"]) for p in split_sentences(f.present["pregnancy"])),
            risks=frozenset(risks),
            medications=medications.lower(),
            dependants="dependants" in f.present or actions.mentions_dependants(home),
            # "my liver tests are raised" counts whichever question it answered
            hepatic=actions.hepatic_impairment([r for _, r in f.exam_results] + [reply for _, reply in f.replies]),
            # the results it ordered and read: a pulse of 42 or a potassium of 2.8 changes the plan (admission,
            # correcting the potassium), as the judge's rules say
            findings=actions.abnormal_findings([r for _, r in f.exam_results]),
            # what it heard and read that changes the plan (a child being exploited, an overdose today, past
            # withdrawal seizures): the record_signs of critical_actions.json, read in the replies and results
            signs=actions.signs([f.walk_in, *(reply for _, reply in f.replies), *(r for _, r in f.exam_results)]),
        )

    def _plan(self) -> str:
        lead = self._leading()
        principal = lead[0][0]
        conf = self.script["plan"]
        actions = load_critical_actions()
        profile = self.safety_profile(believed_only=True)
        # results that show alcohol-related liver disease (low platelets, AST over twice the ALT) in a drinker: said
        # and acted on, and the liver counted as impaired (oxazepam, not chlordiazepoxide; no naltrexone)
        liver = self._liver_disease(profile)
        if liver:
            profile = replace(profile, hepatic=True)
        # results that show a patient medically unstable from undernutrition (a pulse of 38 and a BMI of 14, whatever
        # the diagnosis): said and acted on first, a medical admission; no drug started and no exercise advised
        unstable = self._medically_unstable(profile)
        withheld = set(conf["medical_instability"]["drop_actions"]) if unstable else set()
        # the drugs unsafe for any disorder still on the differential are avoided; one the patient's denials rule
        # out ("no highs, ever" for bipolar depression) no longer keeps a depressed patient from an antidepressant
        others = {h.code for h, _ in lead if h.code in profile.codes or not self._ruled_out(h)}
        unsafe = set().union(*(h.unsafe_drugs for h in self.hyps if h.code in others))
        sensitive = self._antipsychotic_sensitive()
        if sensitive:  # a severe stiffness on one, or a parkinsonism, in an older adult: none started (uw-033)
            unsafe |= set(self._antipsychotics())
        leave_out = tuple(self.age_script.get("leave_out_of_plan", ()))
        # nor an admission weighed where the setting has decided it (on the ward; the emergency disposition sentence)
        leave_out += tuple(self.script["settings"].get(self.walk_in.setting or "", {}).get("leave_out_of_plan", {}).get("words", ()))

        def fits(sentence: str) -> bool:
            low = sentence.lower()
            # nor a treatment made for patients of another age (multisystemic therapy at 8, family-based
            # treatment for anorexia at 24, driving advice at 14: critical_actions.json disorder_specific), nor one
            # the case's rules forbid (ECT or an adult ward for a 13-year-old)
            return (
                not any(word in low for word in leave_out)
                and not actions.made_for_other_ages(sentence, profile.age)
                and not actions.check(profile, sentence).contraindicated
                and not withheld & actions.proposed(sentence)
                and not (sensitive and "antipsychotic" in actions.proposed(sentence))  # a Lewy body sensitivity
            )

        parts = []
        # a child's or adolescent's depression: the age's own drug sentence (fluoxetine, by the CAMHS psychiatrist)
        by_code = self.age_script.get("medication_by_code", {})
        instead = next((text for prefix, text in by_code.items() if principal.code.startswith(prefix)), None)
        awaiting = None
        if instead is None:  # at any age: no drug before the test that confirms the diagnosis (adult narcolepsy), nor
            # before the psychological treatment that comes first (CBT for insomnia)
            instead = awaiting = self._medication_awaits_test(principal) or self._therapy_first(principal)
        first = conf["drinking_first"]
        he = {"female": "she", "male": "he"}.get(self.walk_in.sex or "", "they")
        drinking_first = instead is None and principal.code.startswith(tuple(first["prefixes"])) and self.heavy_drinking(dependent=True)
        if drinking_first:  # sertraline started in a woman drinking half a bottle of vodka a day (test-v2-0298)
            instead = first["sentence"].format(he=he, drinks="drink" if he == "they" else "drinks")
        # a drug is checked against every disorder the chart names and the patient has not ruled out, not only those
        # believed: insomnia that leads with generalised anxiety beside it gets no hypnotic as a course (test-v2-0432)
        differential = replace(profile, codes=tuple(dict.fromkeys([*profile.codes, *sorted(others)])))
        self._held_for_results = []
        if instead and actions.check(differential, instead).contraindicated:
            instead = conf["no_medication"]  # the second line it names is unsafe beside the differential (sleep apnoea)
        if instead:  # the age's own drug sentence is held to the results on file as any other choice (review S4)
            held_now = [d for d in self.kb.drugs if set(d.unsafe_with_results) & differential.findings
                        and re.search(rf"\b{re.escape(d.name.lower())}\b", instead.lower())]
            self._held_for_results += [d for d in held_now if d not in self._held_for_results]
            instead = None if held_now else instead
            chosen, sedative_withheld = ([instead] if instead else []), False
        else:
            chosen, sedative_withheld = self._medication_choice(principal, unsafe, differential)
        held = conf["held_for_results"]
        for drug in ([] if unstable else self._held_for_results):  # the medical admission's sentence says it already
            chosen.append(held["sentence"].format(drug=drug.name, reason=drug.results_reason))
        if unstable:
            chosen = [conf["medical_instability"]["medication"]]
        elif chosen and self._unsupported(principal) and not self._drugs_taken() and not self._drugs_stopped():
            # no finding of the disorder heard: a provisional diagnosis gets no drug (test-v2-0151, 0435)
            chosen = [conf["unsupported_principal"]["medication"].format(name=principal.name.lower())]
        medication = " ".join(chosen)
        parts.append(
            medication or conf["no_medication"]
        )
        if unstable:
            parts.insert(0, unstable)
        if liver:
            parts.append(liver[1])
        if drinking_first:
            parts.append(first["driving"].format(obj=self._object()))
        acted, drop_other = self._results_acted_on(principal)
        parts += acted
        therapies = [t for t in principal.psychotherapy if fits(t)][:2]
        if therapies:
            parts.append(f"Psychotherapy: refer for {', '.join(therapies)}.")
        # a first psychotic illness goes to the early intervention service; a drug the patient uses is spoken of
        parts += self._psychosis_and_drugs(principal)
        # the other disorders it believes (its safety profile's, or the one it names second in the chart), of another
        # category: their first psychological treatment too (stop 30's redraw: a primary insomnia named second beside
        # a GAD, test-v2-0379, was given no CBT-I)
        told_dependence = self._drug_dependence_told()  # named beside the principal whatever its rank: treated too
        extra_lead = [(h, 0.0) for h in self.hyps if h.code in told_dependence and not any(x.code[:3] == h.code[:3] for x, _ in lead)]
        # a personality disorder left on the differential gets no treatment: its therapy is long and specialist and
        # follows a diagnosis (DBT offered for a borderline personality disorder only on the differential of a severe
        # depression, test-v2-0061); and one disorder is treated once, however many of its severities or variants
        # the list holds (hw-036: a severe and a moderate depression each given their own sentence)
        named = {h.code for h in self._comorbid(lead)[1]} | set(told_dependence)
        rules = conf["differential_therapy"]
        others = [
            h for i, (h, _) in enumerate(self._without_residual(lead)[1:] + extra_lead, 1)
            if not ((h.code not in profile.codes and h.code not in told_dependence and i > 1) or h.category == principal.category)
            and not (h.code not in named and h.code.startswith(tuple(rules["never_prefixes"])))
        ]
        kept = self._one_per_disorder(others, named, rules["same_disorder"])
        for h in others:
            if h not in kept:
                continue
            extra = next((t for t in h.psychotherapy if fits(t) and t.lower() not in " ".join(parts).lower()), None)
            if extra:
                parts.append(conf["comorbid_therapy"].format(name=h.name[0].lower() + h.name[1:], therapy=extra))
        # a personality disorder left on the differential is not treated, but not passed over either: its structured
        # assessment, a crisis plan meanwhile, and a specialist therapy only if confirmed (stop 55, test-v2-0100)
        # (a core finding of its own heard, not only the principal's: an avoidant one beside a social phobia is no call;
        # nor one of a disorder ranked above it: stormy relationships in a mania beside a cyclothymia, stop 55's review)
        assess = rules["assess_on_differential"]
        ranked = [h for h, _ in lead]
        told = set(self.findings.present) - self.findings.contradicted - self.findings.denied

        def explained_above(h: Hypothesis) -> set[str]:
            above = [principal] + ranked[: ranked.index(h)]
            return {c for x in above for c, _ in x.symptoms}

        possible = next((
            h for h, _ in self._without_residual(lead)[1:]
            if h.code.startswith(tuple(assess["prefixes"])) and h.code not in named and h.category != principal.category
            and len(({c for c, w in h.symptoms if w >= assess["core_weight"]} - explained_above(h)) & told) >= assess["min_own_findings"]
        ), None)
        if possible is not None:  # the therapy itself is not named: it follows a diagnosis (stop 50, test-v2-0061)
            crisis = assess["crisis"] if set(assess["crisis_risks"]) & profile.risks else ""
            # not in the midst of a mood or psychotic episode: the personality is assessed once it has settled
            settled = assess["settled"] if principal.code.startswith(tuple(assess["settled_prefixes"])) else ""
            sentence = assess["sentence"].format(
                name=possible.name[0].lower() + possible.name[1:], settled=settled, crisis=crisis
            )
            if fits(sentence):
                parts.append(sentence)
        # an item that speaks of a drug ("continue antidepressant for two years") only beside that drug
        # a sentence in place of the drug starts none, whatever drug it names for later (a hypnotic after CBT-I)
        prescribed = set() if awaiting and medication == awaiting else actions.proposed(medication)
        drug_items = set(conf["drug_actions"])
        # a child's own treatment of the disorder where the adult's does not fit (sleep apnoea at 9: the ENT surgeon
        # for the tonsils and adenoids, not CPAP and weight loss; uw-011)
        by_age = next(
            (t for prefix, t in self.age_script.get("treatment_by_code", {}).items() if principal.code.startswith(prefix)), {}
        )
        other = [
            t
            for t in by_age.get("other", principal.other_treatment)[:3]
            if fits(t) and not ((actions.proposed(t) & drug_items) - prescribed)
            and not any(w in t.lower() for w in drop_other)
            and not self._ect_unwarranted(t)
            and not (self._outside_service_ages() and conf["first_episode_psychosis"]["service"] in t.lower())
        ]
        # an item treating another disorder beside this one only when that disorder is on the list or was heard
        heard = set(self.findings.present) - self.findings.contradicted
        for item in conf["needs_on_differential"]["items"]:
            if not any(h.code.startswith(tuple(item["codes"])) for h, _ in lead) and not set(item["findings"]) & heard \
                    and not (item.get("or_heavy_drinking") and self.heavy_drinking()):
                other = [t for t in other if item["pattern"].lower() not in t.lower()]
        for item in conf["other_needs_symptom"]:  # no sleep hygiene for a patient who denied any sleep problem
            if set(item["denied"]) & self.findings.denied and not set(item["denied"]) & (heard - self.findings.denied):
                other = [t for t in other if item["pattern"].lower() not in t.lower()]
        he_she = {"female": "she", "male": "he"}.get(self.walk_in.sex or "", "they")
        crisis = next((
            rule for rule in conf["same_day_care"]
            if (self.walk_in.setting or "") in rule["settings"] and principal.code.startswith(tuple(rule["codes"]))
            and (not rule["findings"] or set(rule["findings"]) & (heard - self.findings.denied)
                 or (rule["or_living_alone"] and self._lives_alone()
                     and set(rule.get("alone_with", ())) & (heard - self.findings.denied)))
        ), None)
        crisis_now = crisis is not None
        if crisis_now:  # a severe depression at home: the crisis team today, not "consider admission if risk is high"
            other = [t for t in other if not any(w in t.lower() for w in crisis["replaces"])]
        if liver:
            # the liver plan's withdrawal sentence decides where and how: no second, vaguer withdrawal item
            said = conf["liver_disease"]["replaces_other"]["words"]
            other = [t for t in other if not any(w in t.lower() for w in said)]
        # a needle exchange only where injecting was told; else the advice never to start (stop 50's consultant:
        # offered to patients who smoke heroin, test-v2-0125/0425)
        route = conf["harm_reduction_route"]
        if not any(self._tells(reply, route["injecting_said"]) for _, reply in self.findings.replies):
            # another route told ("I smoke it off foil"): never to start injecting; none told: injecting asked about
            # (s51 review: "never start injecting" assumed a route no one had asked about)
            told = any(self._tells(reply, route["route_said"]) for _, reply in self.findings.replies)
            other = [(route["instead"] if told else route["unknown"]) if route["pattern"] in t.lower() else t for t in other]
        if other:
            parts.append(f"Other: {'; '.join(other)}.")
        safety = [item for item in principal.safety[:3] if fits(item)]
        # an item for an illness after a birth only where a birth was told (no infant's risk for a man of 25, stop 56)
        birth = conf["after_a_birth_only"]
        if not any(self._tells(reply, self.script["after_a_birth"]["said"]) for _, reply in self.findings.replies):
            safety = [item for item in safety if not any(w in item.lower() for w in birth["words"])]
        # suicidal thoughts told: the supply is limited now, not 'if risk is raised' (``plan.supply_when_risk_heard``)
        supply = conf["supply_when_risk_heard"]
        if set(supply["risks"]) & profile.risks:
            for rule in supply["items"]:
                safety = [rule["instead"] if rule["said"] in item else item for item in safety]
        # a ward's safety item said in the clinic's words, or left out (``settings.<setting>.safety_instead``, uw-033)
        instead = self.script["settings"].get(self.walk_in.setting or "", {}).get("safety_instead", {})
        _, his_, him_ = self._he_his_him
        safety = [s for s in (instead[item].format(his=his_, him=him_) if item in instead else item for item in safety) if s]
        if safety:
            parts.append(f"Safety: {'; '.join(safety)}.")
        if crisis_now:
            alone = ", living alone" if self._lives_alone() else ""
            young = self.walk_in.age is not None and self.walk_in.age < conf["same_day_care_young_below"] \
                and crisis.get("under_18_sentence")
            his_her = {"female": "her", "male": "his"}.get(self.walk_in.sex or "", "their")
            parts.append((young or crisis["sentence"]).format(alone=alone, he=he_she, his=his_her))
        older = conf["older_adult"]
        if (self.walk_in.age or 0) >= older["min_age"]:  # hyponatraemia and falls on an SSRI at 73; the vascular risk
            drug = re.search(older["drugs"], medication, re.IGNORECASE)
            if drug:
                taken = drug.group(0).lower() in self._drugs_taken()  # "Older adult on sertraline", not "starting" it
                parts.append(older["sentence_taken" if taken else "sentence"].format(drug=drug.group(0).lower()))
            if (any(h.code.startswith(tuple(older["codes"])) for h, _ in lead) or set(older["findings"]) & (heard - self.findings.denied)) \
                    and older["vascular_said"] not in " ".join(parts).lower():  # not twice (a cognitive disorder's own plan)
                parts.append(older["vascular"])
        # baseline tests before a drug that needs them (lithium: renal and thyroid function), whatever the rules ask
        # a drug the patient already takes has its checks now, before any dose change, not "Before starting lithium"
        # (stop 50's consultant, test-v2-0308/0337: written as if starting a lithium taken for years)
        # (not a drug any reply says was stopped, nor the stopped lithium: "I take lithium" and later "Lithium helped.
        # But I stopped it a few weeks ago" is restarted, so "Before starting lithium" stands, s51 review, test-v2-0018)
        stopped_now = self._drugs_stopped()
        if any(self._tells(reply, conf["stopped_lithium"]["said"]) for _, reply in self.findings.replies):
            stopped_now = stopped_now | {"lithium"}
        taking_now = [d for d in self._drugs_taken() if d not in stopped_now]
        # a drug stopped and now restarted: its checks repeated for a restart, not "Before starting" (s53, test-v2-0365)
        parts += [
            conf["drug_work_up_taken"].get(drug, text) if drug in taking_now
            else conf["drug_work_up_restart"].get(drug, text) if drug in stopped_now
            else text
            for drug, text in conf["drug_work_up"].items() if drug in medication.lower()
        ]
        # a lithium the patient stopped: restarting discussed, with its checks (not "lithium levels" with no lithium)
        stopped = conf["stopped_lithium"]
        if "lithium" not in medication.lower() and any(
            self._tells(reply, stopped["said"]) for _, reply in self.findings.replies
        ):
            parts.append(stopped["sentence"])
        # another drug stopped before this relapse, and not named by the plan: said what becomes of it (s53, test-v2-0094)
        parts += [text for drug, text in conf["stopped_others"].items() if drug in stopped_now and drug not in medication.lower()]
        # a patient who takes a medicine already: reconciled before another starts (and one for this illness continued)
        taken = self.findings.answers.get("medications_current", "")
        same = conf["reconcile_when_nothing_new"]
        continuing = any(re.search(p, medication, re.IGNORECASE) for p in same["continued"]) \
            and not any(re.search(p, medication, re.IGNORECASE) for p in same["starts"])
        if prescribed and taken and ("medications_current" in self.findings.present or "medications_current" not in self.findings.denied):
            # nothing new started ("none started now", "she already takes sertraline: ... raise the dose"): no "Before
            # the new medicine starts"; a drug kept is reconciled before any dose change (``reconcile_when_nothing_new``)
            if continuing:
                parts.append(same["sentence"])
            elif not any(re.search(p, medication, re.IGNORECASE) for p in same["none_started"]):
                parts.append(conf["reconcile_medicines"])
        # no hypnotic or benzodiazepine beside nightly drinking (zolpidem for an insomnia, stop 35), and said why
        if sedative_withheld:
            he = {"female": "she", "male": "he"}.get(self.walk_in.sex or "", "they")
            parts.append(conf["sedatives_beside_drinking"]["sentence"].format(he=he, drinks="drink" if he == "they" else "drinks"))
        # frequent drinking without dependence: advice and a goal, not a detoxification
        hazardous = self.script["plan_safety"]["heavy_drinking"]
        dependence_named = any(h.code.startswith(tuple(hazardous["hazardous_not_when_codes"])) for h, _ in lead)
        zone = self._audit_zone()  # an AUDIT of 20 or more: assessed for dependence, no goal to cut down
        if (self.heavy_drinking() or zone) and not self.heavy_drinking(dependent=True) and not dependence_named:
            parts.append(hazardous[zone or "hazardous_advice"])
        if self._risk_to_others():
            parts.append(conf["risk_to_others"])
        # unsafe driving told ("took the car keys away after a night of driving around"): advice and the DVLA, unless
        # the plan speaks of driving already (stop 50's consultant, test-v2-0308)
        drive = conf["driving_told"]
        said = next(k["patterns"] for k in self.script["risk_disclosures"]["kinds"] if k["label"] == drive["risk_kind"])
        told_driving = next((reply for _, reply in self.findings.replies if self._tells(reply, said)), None)
        if told_driving and (self.walk_in.age or drive["min_age"]) >= drive["min_age"] and "driv" not in " ".join(parts).lower():
            he, _, obj = self._he_his_him
            parts.append(drive["sentence"].format(he=he, obj=obj))
        family = conf["family_suicide"]
        told = self.findings.answers.get("family_psychiatric_history", "")
        # a relative's suicide told, not denied ("There's no suicide in my family that I know of", hw-014)
        family_suicide = any(
            (m := re.search(p, sentence, re.IGNORECASE))
            and not is_negated(sentence, len(tokenize(sentence[: m.start()])), len(tokenize(sentence[: m.end()])))
            for sentence in split_sentences(told) for p in family["patterns"]
        )
        means = self._means_told() if self.risk_followed else None
        kinds = self._means_kinds()
        he, his, him = self._he_his_him
        if kinds:  # each means told named by what is done about it (a firearm out of the home, not "anything else")
            mconf = self.script["risk_follow_up"]["means"]
            # the patient's sentence when it says something ("I keep two shotguns in a locked cabinet"), else the kinds
            told = f'"{means.rstrip(".")}"' if means and len(tokenize(means)) > 3 else _join(k["name"] for k in kinds)
            steps = "; ".join(k["step"].format(he=he, his=his, him=him) for k in kinds)
            parts.append(mconf["sentence_kinds"].format(told=told, steps=steps, he=he, his=his, him=him))
        elif means:  # a means the patient told of: named, and access to it restricted
            parts.append(self.script["risk_follow_up"]["means"]["sentence"].format(quote=means.rstrip("."), he=he, his=his, him=him))
        weapon = self._weapon_told()
        if weapon:  # a weapon kept to hand (``plan.weapon_to_hand``): removed or locked away, and who else is at risk
            wconf = conf["weapon_to_hand"]
            sentence, named = weapon
            told = f'"{sentence.rstrip(".")}"' if self._speech(sentence) else "a weapon"
            steps = "; ".join(k["step"] for k in named) or wconf["step"]
            parts.append(wconf["sentence"].format(told=told, steps=steps.format(he=he, his=his, him=him), he=he, his=his, him=him))
        setting_name = self.walk_in.setting or ""
        smokes = "tobacco_use" in self.findings.present and "tobacco_use" not in self.findings.contradicted
        if smokes or self._tells(self.findings.answers.get("tobacco_use", ""), conf["tobacco"]["said"]):
            parts.append(conf["tobacco"].get(setting_name, conf["tobacco"]["outpatient"]))
        setting = self.script["settings"].get(setting_name, {})
        admitted = setting_name == "inpatient"
        medical = False
        if "admit" in setting:
            admitted = self._admit(principal, profile)
            # a child is admitted to a paediatric ward or a young people's unit, never an adult ward
            # results or a history that call for a medical admission (critical_actions.json: a potassium of 2.6,
            # withdrawal after a past seizure) are no discharge home, and come before a psychiatric ward
            medical = bool(set(setting["medical_admission_actions"]) & {r.action for r in actions.requirements(profile)[0]})
            # withdrawal with a platelet count that marks advanced liver disease: withdrawn under the medical team
            hepatology = conf["liver_disease"]
            medical = medical or bool(
                liver and liver[0] in hepatology["admit_tiers"]
                and any(c.startswith(tuple(hepatology["admit_with_codes"])) for c in profile.codes)
            ) or bool(unstable)
            # a delirium is a physical illness: found and treated under the medical team (test-v2-0255)
            by_code = {k: v for k, v in setting.get("admit_medical_codes", {}).items() if not k.startswith("_")}
            physical = next((v for k, v in by_code.items() if principal.code.startswith(k)), None)
            medical = medical or physical is not None
            parts.insert(
                0,
                (physical if physical and not unstable else setting["admit_medical"])
                if medical
                else setting["unsafe_at_home"]["admit"] if admitted and self._unsafe_at_home()
                else self.age_script.get("admit", setting["admit"]) if admitted else setting["discharge"],
            )
            admitted = admitted or medical
        if admitted:
            mania = setting.get("admit_codes", {})
            if any(principal.code.startswith(c) for c in mania.get("codes", ())) and "antipsychotic" not in actions.proposed(
                    " ".join(parts + self._drugs_taken())):  # an acute mania on the ward: an antipsychotic now
                parts.append(mania["antipsychotic"])
            risky = bool({"suicide", "active_suicide"} & profile.risks) or self._risk_to_others()
            # after a recent attempt or a prepared method the rules ask for continuous observation (their own
            # sentence, added with the other steps below), never the intermittent checks of a raised risk
            # a medical admission (withdrawal under the medical team) has no psychiatric observation level unless a
            # risk was heard (stop 33's consultant: liver plans carried the ward's observation line)
            if "enhanced_observation" not in {r.action for r in actions.requirements(profile)[0]} and (risky or not medical):
                parts.append(conf["observation"]["raised" if risky else "general"])
            legal = conf["legal_status"]
            if setting_name == "inpatient" and self.walk_in.age is not None and self.walk_in.age >= legal["min_age"]:
                parts.append(legal["text"])
            if self._dependants_named():
                parts += actions.sentences(["dependant_care"])
            elif self._dependants_possible():  # neither named nor denied: asked about, not assumed
                he, his, him = self._he_his_him
                unknown = conf["dependants_unknown"]
                older = unknown["older"]
                text = older["sentence"] if (self.walk_in.age or 0) >= older["min_age"] else unknown["sentence"]
                parts.append(text.format(he=he, his=his, him=him).replace("they cares", "they care"))
        elif self.walk_in.age_group == "adult" and not self._dependants_named() and self._dependants_possible() \
                and not self._lives_alone() and any(
            c.startswith(tuple(conf["dependants_unknown"]["beside_dependence"])) for c in profile.codes
        ):  # a dependence seen anywhere: who depends on the patient at home is asked, as on admission (test-v2-0332)
            he, his, him = self._he_his_him
            unknown = conf["dependants_unknown"]
            text = unknown["older"]["sentence"] if (self.walk_in.age or 0) >= unknown["older"]["min_age"] else unknown["sentence"]
            parts.append(text.format(he=he, his=his, him=him).replace("they cares", "they care"))
        if sensitive:  # nor any other sentence that starts one (a bipolar depression's quetiapine): said why instead
            parts = [p for p in parts if "antipsychotic" not in actions.proposed(p)]
            parts.append(conf["antipsychotic_sensitivity"]["sentence"])
        drive = conf["cognition_driving"]  # new memory trouble late in life in a driver: driving advised on now
        if drive["domain"] in self.explored and (self.walk_in.age or 0) >= drive["min_age"] \
                and "driving" in set(self.findings.present) - self.findings.denied - self.findings.contradicted \
                and "driving_advice" not in actions.proposed(" ".join(parts)):
            parts.append(drive["sentence"])
        plan = " ".join(p for p in parts if p.strip(". :"))
        # nor a follow-up clause that speaks of a drug not prescribed ("lithium level 5-7 days after starting" beside
        # olanzapine read as lithium, and drew the lithium checks into the plan: stop 33's consultant, test-v2-0326)
        principal_follow_up = by_age.get("follow_up", principal.follow_up)
        pieces = re.split(r"(;\s*|,\s*)", principal_follow_up)
        kept = [
            (sep, piece)
            for sep, piece in zip([""] + pieces[1::2], pieces[0::2])
            if not (actions.proposed(piece) & drug_items) - prescribed
        ]
        said_follow_up = "".join(sep + piece if i else piece for i, (sep, piece) in enumerate(kept)) or principal_follow_up
        if not admitted:  # a ward's schedule is no follow-up for a patient who goes home (``follow_up_not_admitted``)
            for ward, home in conf["follow_up_not_admitted"]["replace"].items():
                said_follow_up = said_follow_up.replace(ward, home)
        # a drug the patient takes is followed up after a dose change, not "after starting" (s53, test-v2-0473)
        for drug, pairs in self.script["plan"]["already_taking"]["follow_up_taken"].items():
            if drug in taking_now:
                for said, taken_words in pairs:
                    said_follow_up = said_follow_up.replace(said, taken_words)
        for routine, early in (conf["liver_disease"]["follow_up"].items() if liver else ()):
            # not liver tests at 3 months as the only response; replaced in the follow-up's words themselves, so every
            # wording built from them below keeps it ('Follow-up after that first review: ...' lost it at stop 51)
            said_follow_up = said_follow_up.replace(routine, early)
        # a routine schedule of months is no first review after a new plan: sooner while a risk is managed, and at a
        # first assessment of an intellectual disability (``follow_up_sooner``, stop 56: test-v2-0439, 0433)
        sooner = conf["follow_up_sooner"]
        if re.match(sooner["months_first"], said_follow_up, re.IGNORECASE):
            if self._risk_to_others() or {"suicide", "active_suicide"} & profile.risks:
                said_follow_up = sooner["risk"].format(then=said_follow_up)
            elif principal.code.startswith(tuple(sooner["first_review_codes"])):
                said_follow_up = sooner["first_review"].format(then=said_follow_up)
        follow_up = f"Follow-up: {said_follow_up}."
        if unstable:  # an admission first: the outpatient reviews come after it, not in its place
            follow_up = conf["medical_instability"]["follow_up"].format(then=said_follow_up[0].lower() + said_follow_up[1:])
        if self.critical_actions:
            # the steps are read against the whole plan, follow-up included ("lithium levels" there reads as lithium);
            # a drug the patient already takes that answers a step the plan lacks is continued in its own words, not
            # started a second time (quetiapine taken beside lithium for a mania: "She already takes quetiapine:
            # continued ...", never "start an antipsychotic ... aripiprazole or olanzapine" beside it)
            lacking = set(self._safety_steps(f"{plan} {follow_up}"))
            continued = [drug for drug in self._drugs_taken() if lacking & actions.proposed(f"{drug}.")]
            if continued:
                he = {"female": "she", "male": "he"}.get(self.walk_in.sex or "", "they")
                plan += " " + self.script["plan"]["already_taking"]["continued"].format(
                    he=he[0].upper() + he[1:], takes="take" if he == "they" else "takes", drugs=_join(continued))
            for _ in range(2):  # a second pass: a step's own drug may ask for more (lithium: a pregnancy test)
                # each as this setting takes it (a clinic's oral thiamine, not the ward's IV Pabrinex for 3-5 days)
                worded = {**self.script["plan_safety"]["step_sentences"], **setting.get("step_sentences", {})}
                if "self_poisoning" in profile.signs:  # an overdose told: its own assessment, not "any overdose"
                    worded.pop("overdose_medical_assessment", None)
                if setting.get("discharged_step_sentences") and not admitted:  # sent home from the emergency department:
                    # a step as it is given before going home (Pabrinex in the department, then oral thiamine; test-v2-0332)
                    worded.update(setting["discharged_step_sentences"])
                if self.walk_in.age_group == "adult" and self._dependants_named():  # the patient's safety, then theirs
                    worded["safeguarding"] = " ".join(actions.sentences(["safeguarding"]) + [self._dependants_sentence()])
                if medical:  # a physical illness treated under the medical team: capacity law, not mental health law
                    worded.update(setting.get("medical_step_sentences", {}))
                if continuing:  # a drug taken and continued: no "Pregnancy test before starting it" (hw-034's lithium)
                    worded.update(same["step_sentences"])
                # a step whose sentence speaks of a drug not prescribed is worded without it (``step_sentences_without_drug``)
                undrugged = conf["step_sentences_without_drug"]
                steps = [
                    w if (w := worded.get(a)) and a in actions.proposed(w) and fits(w)
                    else u if (actions.proposed(t) & drug_items) - prescribed and (u := undrugged.get(a)) and a in actions.proposed(u)
                    else t
                    for a in self._safety_steps(f"{plan} {follow_up}")
                    for t in actions.sentences([a])
                ]
                steps = [t for t in dict.fromkeys(steps) if fits(t)]
                if not steps:
                    break
                plan += " " + " ".join(self._pronouns(t) for t in steps)
        else:  # the "dangerous" doctor of the judge's tests: every sentence holding a critical action left out
            wanted = {a for rule in actions.rules for a in rule.must}
            plan = " ".join(
                sentence
                for sentence in re.split(r"(?<=[.;])\s+", plan)
                if not wanted & actions.proposed(sentence)
            )
        plan += self._confidentiality()
        if family_suicide and not any(a in plan.lower() for a in family["already"]):
            plan += " " + family["sentence"]  # a relative's suicide: asked at every review, whatever is said today
        early = conf["follow_up_after_prompt"]
        if not unstable and re.search(early["said"], plan, re.IGNORECASE) and not re.search(early["said"], follow_up, re.IGNORECASE):
            # an early review said already ("within a week"): the routine reviews follow it, not a second, later first
            # review ("Follow-up within a week ... Follow-up: review in 2 weeks", stop 50's consultant, test-v2-0073)
            follow_up = early["sentence"].format(then=said_follow_up[0].lower() + said_follow_up[1:])
        if self.critical_actions or "prompt_follow_up" not in actions.proposed(follow_up):
            plan += " " + follow_up
        return " ".join(self._pronouns(plan).split())

    def _current_uses(self, text: str) -> list[str]:
        """The substances (``drug_dependence.substances``) a sentence of ``text`` tells the patient uses now, each once
        an encounter (kept in ``current_uses``); a sentence that tells only a past or a tried-once use (``past_use``
        'ended' in it or the next sentence, 'light' in it, neither outweighed by a 'current' frequency in it:
        'I had occasional cannabis in my twenties, none since', 'cocaine once during freshers' week') tells none, and
        sets off no questions about it nor advice in the plan (uw-003, uw-005)."""
        conf = self.script["plan"]["past_use"]
        out = []
        sentences = [p.strip() for p in split_sentences(text) if p.strip()]
        for i, sentence in enumerate(sentences):
            told = {c for c, _ in patient_findings(sentence)} & set(self.script["drug_dependence"]["substances"])
            if not told:
                continue
            said = lambda kind, text: any(re.search(p, text, re.IGNORECASE) for p in conf[kind])  # noqa: E731
            current = said("current", sentence)  # "I smoke skunk twice a day": a frequency now outweighs 'light'
            following = " ".join(sentences[i + 1 : i + 2])  # "I use cocaine at stag dos. None this year."
            if self._use_ended(sentence) or said("medicine", sentence) or (
                    not current and (said("light", sentence) or said("ended", following) or said("ended_period", following))):
                continue
            if not any(re.search(n, sentence, re.IGNORECASE) for n in conf["names"]):
                continue  # no drug named in it ("managed money jointly")
            for c in sorted(told - self.current_uses):
                if c in self.findings.present and c not in self.findings.denied:
                    self.current_uses.add(c)
                    out.append(c)
        return out

    def _use_ended(self, sentence: str) -> bool:
        """Whether ``sentence`` tells a use that is over (``plan.past_use``): an 'ended' pattern, or a time of life
        ('ended_period': 'at uni', 'when I was younger') with no 'continuing' cue in it ('still', 'since I was', 'I
        smoke') and no 'current' frequency beside a present use ('I smoke weed at college, most days')."""
        conf = self.script["plan"]["past_use"]
        said = lambda kind: any(re.search(p, sentence, re.IGNORECASE) for p in conf[kind])  # noqa: E731
        if said("ended"):
            return True
        if not said("ended_period"):
            return False
        return not ((said("continuing") and not said("over")) or (said("current") and not said("past_verb")))

    def _ect_unwarranted(self, sentence: str) -> bool:
        """Whether ``sentence`` proposes electroconvulsive therapy with none of the findings that would make a
        reference propose it heard (``plan.ect_only_when``: catatonia, refusing food, a suicide plan or attempt,
        nihilistic or somatic delusions)."""
        conf = self.script["plan"]["ect_only_when"]
        if not any(re.search(p, sentence, re.IGNORECASE) for p in conf["patterns"]):
            return False
        heard = (set(self.findings.present) - self.findings.contradicted) | (self.findings.inferred - self.findings.denied)
        said = any(
            self._tells(p, conf["said"]) for _, reply in self.findings.replies for p in split_sentences(reply)
        )  # refusing food and fluids, which no finding names
        return not (set(conf["findings"]) & heard or said)

    def _outside_service_ages(self) -> bool:
        """Whether the patient is outside the ages of the early intervention in psychosis service
        (``plan.first_episode_psychosis``' 'min_age'-'max_age'): no referral to it at 82 (hw-024)."""
        first = self.script["plan"]["first_episode_psychosis"]
        age = self.walk_in.age
        return age is not None and not first["min_age"] <= age <= first["max_age"]

    def _psychosis_and_drugs(self, principal: Hypothesis) -> list[str]:
        """The plan's sentences for a first psychotic illness (``plan.first_episode_psychosis``: the early intervention
        service, unless an earlier psychotic illness was told) and for each drug the patient told of using
        (``plan.drug_use_advice``: stop it, why, the drug service, no driving after use; a drug of the principal
        disorder's own family is treated by its plan)."""
        conf = self.script["plan"]
        he, his, him = self._he_his_him
        out = []
        first = conf["first_episode_psychosis"]
        age = self.walk_in.age or 0
        if principal.code.startswith(tuple(first["codes"])) and not self._told_before(principal):
            if first["min_age"] <= age <= first["max_age"]:
                out.append(first["sentence"])
            elif age > first["max_age"]:  # the early intervention service is age-bounded: the older adults' team
                out.append(first["older_sentence"])
        advice = conf["drug_use_advice"]
        evidence = (self._evidence() - self.findings.denied) & self.current_uses  # no advice on a past use
        uses = [name for use, name in advice["uses"].items() if use in evidence]
        if uses and not principal.code.startswith(tuple(advice["not_when_principal"])):
            psychotic = principal.category in advice["psychotic_categories"]
            driving = advice["driving"] if age >= advice["driving_min_age"] else ""  # no driving advice at 14
            out.append(advice["psychosis_sentence" if psychotic else "sentence"].format(
                substance=_join(uses), he=he, his=his, him=him, driving=driving))
        return out

    def _medication_choice(self, principal: Hypothesis, unsafe: set[str], profile: Profile) -> tuple[list[str], bool]:
        """The first safe first-line drug of the principal disorder, with any drug its knowledge base entry gives in
        combination with it (psychotic depression: an antipsychotic with the antidepressant), as the plan's sentences;
        and whether a hypnotic or benzodiazepine was left out beside nightly drinking (``plan.sedatives_beside_drinking``:
        the plan then says why)."""
        withheld = False
        actions = load_critical_actions()
        preconditions = self.script["drug_preconditions"]
        combined = self.script["plan"]["combined_dose_cue"]
        chosen: list[str] = []
        sedatives = self._no_sedatives(principal)
        taking = self._drugs_taken()
        conf = self.script["plan"]["already_taking"]
        he = {"female": "she", "male": "he"}.get(self.walk_in.sex or "", "they")
        # a first-line drug of this disorder the patient already takes comes first: it is reviewed and optimised
        # before another is added (lithium continued for a bipolar depression, not quetiapine started beside it)
        # (not one any reply says was stopped: "I stopped the lithium last year" is a relapse off it, whatever the
        # answer about current medicines reads)
        stopped = self._drugs_stopped()
        taking = [d for d in taking if d not in stopped]
        first = set(taking)
        listed = sorted(principal.medications, key=lambda m: m[0].lower() not in first or m[0].lower() in unsafe)
        for drug, dose in listed:
            drug, dose = self._drug_instead(drug, dose, profile)
            dose = self._older_dose(drug, dose, profile)
            if drug.lower() in unsafe or (chosen and combined not in dose.lower()):
                continue
            if drug.lower() in sedatives:
                withheld = True
                continue
            when = self.script["plan"]["start_when"].get(drug.lower(), "")
            sentence = f"Medication: {when}start {drug} {dose}, explaining benefits, side effects and the time to effect."
            if chosen:
                sentence = f"With it, start {drug} {dose}."
            helped = next((d for d in self._drugs_helped() if d not in taking and d not in unsafe
                           and (d == drug.lower() or self._same_group(d, drug.lower()))), None)
            if helped and not chosen:  # olanzapine helped and was stopped: restarted, not paliperidone (test-v2-0456)
                kb_drug = next(d for d in self.kb.drugs if d.name.lower() == helped)
                # at this illness's own dose of it (a mania's quetiapine), else the general one without an
                # indication that names another episode ("for bipolar depression" in a mania, test-v2-0446)
                own = next((d for name, d in principal.medications if name.lower() == helped), None)
                drug, dose = kb_drug.name, self._older_dose(kb_drug.name, own or kb_drug.starting_dose, profile)
                for rule in ([] if own else self.script["plan"]["helped_before"]["indications"]):
                    if not principal.code.startswith(tuple(rule["codes"])):
                        dose = re.sub(rule["says"], "", dose, flags=re.IGNORECASE).strip()
                sentence = self.script["plan"]["helped_before"]["sentence"].format(
                    he=he, says="say" if he == "they" else "says", drug=drug, dose=dose
                )
            elif drug.lower() in stopped and not chosen:  # a relapse off it: restarted, saying so (test-v2-0403)
                him = {"female": "her", "male": "him"}.get(self.walk_in.sex or "", "them")
                sentence = conf["restart"].format(he=he, him=him, drug=drug, dose=dose)
            same_group = [d for d in taking if d != drug.lower() and self._same_group(d, drug.lower())]
            if drug.lower() in taking and not chosen:  # sertraline 50 mg 'started' in a woman taking it (uw-012)
                kb_drug = next(d for d in self.kb.drugs if d.name.lower() == drug.lower())
                # a drug dosed by its blood level (lithium, valproate) is raised only once the current level is known
                same = conf["same_by_level"] if drug.lower() in conf["level_guided"] else conf["same"]
                sentence = same.format(he=he, takes="take" if he == "they" else "takes", drug=drug, usual_range=kb_drug.usual_range)
            elif drug.lower() in taking:
                continue
            elif same_group and not chosen:
                sentence = conf["group"].format(
                    he=he, takes="take" if he == "they" else "takes", taken=_join(same_group), drug=drug, dose=dose
                )
            if any(r["dose_says"] in dose.lower() and not set(r["needs"]) & set(self.findings.present)
                   for r in self.script["drug_indications"]["rules"]):
                continue  # no target symptom heard (risperidone in autism without irritability or aggression)
            needed = preconditions.get(drug, ())
            if needed and not set(needed) & (self.findings.denied - set(self.findings.present)):
                continue
            kb_drug = next((d for d in self.kb.drugs if d.name.lower() == drug.lower()), None)
            if kb_drug is not None and set(kb_drug.unsafe_with_results) & profile.findings:
                # a result on file makes it unsafe whatever the disorder (drugs.json unsafe_with_results: haloperidol
                # beside a pulse of 41 and a potassium of 3.1, stop 41's test-v2-0391): not started, and said why
                if kb_drug not in self._held_for_results:
                    self._held_for_results.append(kb_drug)
                continue
            if not actions.check(profile, " ".join(chosen + [sentence])).contraindicated:
                chosen.append(sentence)
        return chosen, withheld

    def _drugs_taken(self) -> list[str]:
        """The drugs of the knowledge base (by name or synonym) the answer about current medicines names, each in a
        sentence that tells no stopping, in the order the knowledge base lists them. A sentence naming one drug is read
        whole ('I was on sertraline, but I stopped it in March'; 'the GP gave me sertraline but I never took it'); one
        naming several is read part by part ('I take sertraline, but I stopped the diazepam'). Stopping is a word of
        ``plan.already_taking.stopped``, an ended cue of the shared reader, or a negation (the shared reader's) over
        the drug's name or a word of taking (``plan.already_taking.taking``): 'I'm not on sertraline any more'."""
        answer = self.findings.answers.get("medications_current", "")
        taken: set[str] = set()
        for sentence in (s for s in re.split(r"(?<=[.!?;])\s+", answer) if s.strip()):
            drugs = self._drugs_named(sentence)
            parts = [sentence] if len(drugs) <= 1 else [p for p in re.split(r",\s*(?:but|and)\s+", sentence) if p.strip()]
            for part in parts:
                if not self._tells_stopping(part, self._drugs_named(part)):
                    taken |= set(self._drugs_named(part))
        return [d.name.lower() for d in self.kb.drugs if d.name.lower() in taken]

    def _drugs_named(self, text: str) -> list[str]:
        """The drugs of the knowledge base ``text`` names (by name or synonym), lower case, in the knowledge base's order."""
        low = text.lower()
        return [d.name.lower() for d in self.kb.drugs
                if any(re.search(rf"\b{re.escape(n.lower())}\b", low) for n in [d.name, *d.synonyms])]

    def _tells_stopping(self, text: str, drugs: list[str], pronouns: frozenset[str] = frozenset()) -> bool:
        """Whether ``text`` tells that ``drugs`` (or a drug ``pronouns`` stand for) were stopped: a word of
        ``plan.already_taking.stopped``, an ended cue of the shared reader, or a negation (the shared reader's) over a
        word of taking, a drug's name or one of ``pronouns``."""
        conf = self.script["plan"]["already_taking"]
        if any(re.search(rf"\b{re.escape(w)}\b", text.lower()) for w in conf["stopped"]) or has_cue(text, "ended"):
            return True
        if any(re.search(p, text, re.IGNORECASE) for p in conf["stopped_patterns"]):  # "until some weeks ago"
            return True
        names = {t for n in drugs for t in tokenize(n)} | pronouns
        taking_words = set(conf["taking"])
        return any(is_negated(text, i) for i, t in enumerate(tokenize(text)) if t in taking_words or t in names)

    def _drugs_stopped(self) -> set[str]:
        """The drugs of the knowledge base whose latest statement, over every reply of the interview in the order said,
        tells stopping (``plan.already_taking.stopped``, an ended cue, or a negated word of taking, as ``_drugs_taken``
        reads them; or ``plan.stopped_lithium.said``): "I take lithium, I'm on tablets." at turn 15 and "Lithium helped.
        But I stopped it a few weeks ago." at turn 31 is a lithium stopped (stop 47 review M4, test-v2-0018: the plan
        said "he already takes lithium ... raise the dose"). A sentence naming no drug but "it" or "them" speaks of the
        drugs the sentence before it named. A later sentence of taking ("I've been back on it since March") undoes it."""
        taking_words = set(self.script["plan"]["already_taking"]["taking"])
        lithium = self.script["plan"]["stopped_lithium"]["said"]
        state: dict[str, bool] = {}  # drug -> stopped, by the latest sentence that speaks of it
        for _, reply in self.findings.replies:
            before: list[str] = []
            for sentence in (s for s in re.split(r"(?<=[.!?;])\s+", reply) if s.strip()):
                low = sentence.lower()
                tokens = tokenize(sentence)
                drugs = self._drugs_named(sentence)
                about = drugs or (before if {"it", "them"} & set(tokens) else [])
                if drugs:
                    before = drugs
                parts = [sentence] if len(drugs) <= 1 else [p for p in re.split(r",\s*(?:but|and)\s+", sentence) if p.strip()]
                for part in parts:
                    part_drugs = self._drugs_named(part) or about
                    ptokens = tokenize(part)
                    stop = self._tells_stopping(part, part_drugs, frozenset({"it", "them"}))
                    if "lithium" in part_drugs and self._tells(part, lithium):
                        stop = True
                    if stop and len(part_drugs) <= 1 and self._tells_resumed(part):
                        stop, took = False, True  # "I stopped it once in 2019 ..., so I've taken it every night since"
                    else:
                        took = any(t in taking_words - {"took", "taken"} for t in ptokens)  # "I took it for years" is past
                    for d in part_drugs:
                        if stop:
                            state[d] = True
                        elif took:
                            state[d] = False
                if "lithium" not in about and self._tells(low, lithium) and not self._tells_resumed(sentence):
                    state["lithium"] = True
        return {d for d, s in state.items() if s}

    def _tells_resumed(self, text: str) -> bool:
        """Whether ``text`` tells a drug taken again or every day since a stop it told (``plan.already_taking.resumed``,
        not after a negation: 'I stopped it and never went back on it' is still stopped)."""
        conf = self.script["plan"]["already_taking"]
        return any(not re.search(conf["resumed_not_after"], text[: m.start()], re.IGNORECASE)
                   for p in conf["resumed"] for m in re.finditer(p, text, re.IGNORECASE))

    def _drugs_helped(self) -> list[str]:
        """The drugs of the knowledge base a reply says helped (``plan.helped_before``: 'said' in the sentence naming
        the drug or the one after it, not under the shared reader's negation: 'Olanzapine never really helped', 'Nothing has
        helped'), in the order the knowledge base lists them."""
        said = self.script["plan"]["helped_before"]["said"]
        out = []
        for _, reply in self.findings.replies:
            sentences = [s for s in split_sentences(reply) if s.strip()]
            for i, s in enumerate(sentences):
                near = " ".join(sentences[i : i + 2])
                for d in self.kb.drugs:
                    if d.name.lower() not in out and any(re.search(rf"\b{re.escape(n.lower())}\b", s.lower()) for n in [d.name, *d.synonyms]) \
                            and any(not is_negated(near, len(tokenize(near[: m.start()])))
                                    for p in said for m in re.finditer(p, near, re.IGNORECASE)):
                        out.append(d.name.lower())
        return out

    def _same_group(self, a: str, b: str) -> bool:
        """Whether drugs ``a`` and ``b`` (names) belong to one group of ``plan.already_taking.groups``."""
        classes = {d.name.lower(): d.drug_class for d in self.kb.drugs}
        return any(classes.get(a) in g and classes.get(b) in g for g in self.script["plan"]["already_taking"]["groups"])

    def _medication_awaits_test(self, principal: Hypothesis) -> str | None:
        """The sentence in place of a drug for a principal disorder whose diagnosis a test must confirm first
        (``plan.medication_by_code``: narcolepsy before the sleep study), None when none applies or a result on file
        confirms it."""
        for prefix, rule in self.script["plan"]["medication_by_code"].items():
            if prefix.startswith("_") or not principal.code.startswith(prefix):
                continue
            confirmed = any(
                name.lower() in rule["confirmed_by"] and re.search(rule["confirmed_pattern"], result, re.IGNORECASE)
                for name, result in self.findings.exam_results
            )
            return None if confirmed else rule["sentence"]
        return None

    def _therapy_first(self, principal: Hypothesis) -> str | None:
        """The sentence in place of a drug for a principal disorder whose first-line treatment is psychological
        (``plan.therapy_first_by_code``: CBT for insomnia before any hypnotic), None when none applies, the therapy
        was already tried, or a rule naming a hypnotic for later meets nightly drinking."""
        for prefix, rule in self.script["plan"]["therapy_first_by_code"].items():
            if prefix.startswith("_") or not principal.code.startswith(prefix):
                continue
            if rule.get("tried") and self._told_tried(rule):
                return None  # "I did a six-week CBT for insomnia course last year and it didn't help": the usual choice
            if rule.get("sedative") and self._drinks_nightly():
                return None  # no hypnotic, even later, beside nightly drinking: plan.sedatives_beside_drinking says so
            return rule["sentence"]
        return None

    def _told_tried(self, rule: dict) -> bool:
        """Whether a sentence of any reply tells that what ``rule`` puts first was already tried (``tried``, none of
        ``tried_unless``): CBT for insomnia done without benefit is not put first again."""
        return any(
            any(re.search(p, s, re.IGNORECASE) for p in rule["tried"])
            and not any(re.search(p, s, re.IGNORECASE) for p in rule.get("tried_unless", ()))
            for _, reply in self.findings.replies for s in split_sentences(reply)
        )

    def _no_sedatives(self, principal: Hypothesis) -> set[str]:
        """The hypnotics and benzodiazepines not started because the patient drinks every night or most nights
        (``plan.sedatives_beside_drinking``), unless they treat the alcohol withdrawal itself; empty otherwise."""
        conf = self.script["plan"]["sedatives_beside_drinking"]
        if principal.code.startswith(tuple(conf["except_codes"])) or not self._drinks_nightly():
            return set()
        return set(conf["drugs"])

    def _drinks_nightly(self) -> bool:
        """Whether the reply about alcohol tells drinking every night or most nights, or drinking to sleep."""
        conf = self.script["plan"]["sedatives_beside_drinking"]
        f = self.findings
        reply = f.answers.get("alcohol_use", "").lower()
        if not reply or ("alcohol_use" in f.denied and "alcohol_use" not in f.present):
            return False
        return self.heavy_drinking() or any(c in reply for c in conf["cues"])

    def _drug_instead(self, drug: str, dose: str, profile: Profile) -> tuple[str, str]:
        """The drug and dose this clinician starts in place of ``drug`` (``plan.drug_instead``): a short-acting
        benzodiazepine for alcohol withdrawal, not chlordiazepoxide, when the liver is impaired or the patient is old
        (a supervisor at stop 31: chlordiazepoxide 20-30 mg four times daily for a woman of 78 with an AST of 257)."""
        rule = self.script["plan"]["drug_instead"].get(drug.lower())
        if not rule:
            return drug, dose
        old = profile.age is not None and profile.age >= rule["min_age"]
        if profile.hepatic or old:
            why = rule["why_hepatic"] if profile.hepatic else rule["why_age"]
            return rule["drug"], rule["dose"].format(why=why)
        return drug, dose

    def _antipsychotics(self) -> tuple[str, ...]:
        """The names of the knowledge base's antipsychotics, lower case (what a Lewy body sensitivity keeps out of the
        plan, and what a severe reaction is read against)."""
        return tuple(d.name.lower() for d in self.kb.drugs if "antipsychotic" in d.drug_class.lower())

    def _antipsychotic_sensitive(self) -> bool:
        """Whether an older adult (``plan.antipsychotic_sensitivity``' 'min_age') told, in any reply, a parkinsonism
        ('parkinsonism' words) or a severe stiffness or movement reaction ('reaction' words) in a sentence naming an
        antipsychotic of the knowledge base: the sensitivity of a Lewy body dementia or Parkinson's disease."""
        conf = self.script["plan"]["antipsychotic_sensitivity"]
        if (self.walk_in.age or 0) < conf["min_age"]:
            return False
        names = self._antipsychotics()
        for _, reply in self.findings.replies:
            for sentence in split_sentences(reply):
                if self._tells(sentence, conf["parkinsonism"]):
                    return True
                if self._tells(sentence, conf["reaction"]) and any(re.search(rf"\b{re.escape(n)}\b", sentence.lower()) for n in names):
                    return True
        return False

    def _older_dose(self, drug: str, dose: str, profile: Profile) -> str:
        """The starting dose of ``drug`` for an older adult (``plan.older_adult_doses``: from its 'min_age', start low
        and go slow), keeping what the adult dose says of its use with another drug ('combined with the
        antidepressant'); ``dose`` itself at any other age or for a drug the table does not name."""
        conf = self.script["plan"]["older_adult_doses"]
        older = conf["doses"].get(drug.lower())
        if older is None or profile.age is None or profile.age < conf["min_age"]:
            return dose
        cue = self.script["plan"]["combined_dose_cue"]
        kept = re.search(rf"{re.escape(cue)}[^,;]*", dose, re.IGNORECASE)
        return f"{older}, {kept.group(0)}" if kept and cue not in older else older

    def _liver_disease(self, profile: Profile) -> tuple[str, str] | None:
        """The tier and the plan's sentence when the results on file show alcohol-related liver disease in a patient
        with an alcohol disorder (``plan.liver_disease``): a platelet count below the limits (read by the knowledge
        base's own measure) or an AST over ``ratio`` times the ALT with either above its upper reference limit.
        None for anyone else, and for a drinker whose platelets and transaminases are normal."""
        conf = self.script["plan"]["liver_disease"]
        if not any(c.startswith(tuple(conf["codes"])) for c in profile.codes):
            return None
        results = [r for _, r in self.findings.exam_results]
        measure = load_critical_actions().measures[conf["platelets"]["measure"]]
        platelets = min((v for r in results for v in measure.values(r)), default=None)
        levels: dict[str, float] = {}
        for name, test in conf["transaminases"].items():
            found = [float(m.group(1)) for r in results for m in re.finditer(test["pattern"], r, re.IGNORECASE)]
            if found:
                levels[name] = max(found)
        limits = {name: test["upper_limit"] for name, test in conf["transaminases"].items()}
        ratio = (
            len(levels) == 2 and levels["alt"] > 0 and levels["ast"] > conf["ratio"] * levels["alt"]
            and any(levels[n] > limits[n] for n in levels)
        )
        low = platelets is not None and platelets < conf["platelets"]["low"]
        if not low and not ratio:
            return None
        tier = "ratio" if not low else "marked" if platelets < conf["platelets"]["marked"] else "low"
        said = [conf["said"]["platelets"].format(platelets=platelets)] if low else []
        if ratio:
            said.append(conf["said"]["ratio"].format(**levels))
        return tier, conf["sentences"][tier].format(said=_join(said))

    def _unsupported(self, h: Hypothesis) -> bool:
        """Whether no finding of ``h``'s presentation was heard (affirmed and not contradicted): a diagnosis led by the
        service's base rate or the results alone (``plan.unsupported_principal``)."""
        heard = set(self.findings.present) - self.findings.contradicted
        return not {c for c, _ in h.symptoms} & heard

    def _results_acted_on(self, principal: Hypothesis | None = None) -> tuple[list[str], set[str]]:
        """The plan's sentences for results on file that call for action whatever the diagnosis
        (``plan.results_acted_on``: a hypokalaemic alkalosis in a young adult, test-v2-0234), and the words of the
        'other' items they leave out (exercise advice)."""
        said: list[str] = []
        drop: set[str] = set()
        for rule in self.script["plan"]["results_acted_on"]["rules"]:
            if not self._result_on_file(rule):
                continue
            # worded for the diagnosis named: no "if an eating disorder is found" beside an anorexia, and beside the
            # withdrawal that explains the vomiting, the purging question still asked
            code = principal.code if principal is not None else ""
            own = next((b for b in rule.get("by_lead", ()) if code.startswith(tuple(b["codes"]))), None)
            sentence = own["sentence"] if own else rule["sentence"]
            if sentence:  # an empty sentence for the lead that explains the result (a withdrawal's tachycardia)
                said.append(sentence)
            if not (principal is not None and principal.code.startswith(tuple(rule.get("explained_by_lead", ())))):
                drop |= set(rule.get("drop_other", ()))
        return said, drop

    def _medically_unstable(self, profile: Profile) -> str | None:
        """The plan's sentence when the results on file show a patient medically unstable from undernutrition
        (:meth:`_instability`), None otherwise."""
        found = self._instability(profile)
        return found[1] if found else None

    def _instability(self, profile: Profile) -> tuple[str, str] | None:
        """The danger's head ('Medically unstable on these results (...)', ``plan.medical_instability.head``) and the
        plan's sentence when the results on file show a patient medically unstable from undernutrition
        (``plan.medical_instability``: MEED 2022 red and amber flags, any one high or two moderate), whatever the
        diagnosis; None when too few flags hold, or when nothing points to undernutrition (no low BMI on file and
        no weight loss or restriction heard: a bradycardic athlete, an older adult on antihypertensives)."""
        conf = self.script["plan"]["medical_instability"]
        results = [r for _, r in self.findings.exam_results]
        known = load_critical_actions().measures

        def values(measure: str) -> list[float]:
            if measure in conf["measures"]:
                return [float(m.group(1)) for r in results for p in conf["measures"][measure]["patterns"]
                        for m in re.finditer(p, r, re.IGNORECASE)]
            return [v for r in results for v in known[measure].values(r)]

        adult = profile.age is None or profile.age >= 18
        flags: dict[str, tuple[str, str]] = {}  # the tier and the words of the worst value of each measure that holds
        for flag in conf["flags"].values():
            if flag.get("adult_only") and not adult:
                continue
            found = values(flag["measure"])
            value = max(found, default=None) if "above" in flag else min(found, default=None)
            if value is None or not (value > flag["above"] if "above" in flag else value < flag["below"]):
                continue
            seen = flags.get(flag["measure"])
            if seen is None or (seen[0] != "high" and flag["tier"] == "high"):
                flags[flag["measure"]] = (flag["tier"], flag["said"].format(value=value))
        tiers = [tier for tier, _ in flags.values()]
        if not any(tiers.count(tier) >= n for tier, n in conf["enough"].items()):
            return None
        under = conf["undernourished"]
        bmi = min(values("bmi"), default=None)
        median = min(values("median_bmi_percent"), default=None)
        f = self.findings
        heard = {k for k in under["findings"] if k in f.present and k not in f.contradicted}
        if not (
            (adult and bmi is not None and bmi < under["bmi_below"])
            or (median is not None and median < under["median_bmi_below"])
            or heard
        ):
            return None
        law = conf["law"]["adult" if profile.age is None or profile.age >= conf["law"]["min_age"] else "child"]
        ward = conf["ward"]["adult" if profile.age is None or profile.age >= conf["ward"]["min_age"] else "child"]
        head = conf["head"].format(said=_join([said for _, said in flags.values()]))
        return head, conf["sentence"].format(head=head, law=law, ward=ward)

    def _told_before(self, h: Hypothesis) -> bool:
        """Whether the patient named this disorder, or a drug given only for it, as their own past diagnosis or
        treatment ("I have had bipolar since 17; lamotrigine was stopped": ``told_before`` of ``clinician.json``);
        sentences about relatives or with a negation do not count."""
        conf = self.script["evidence"]["told_before"]
        cues = next((v for k, v in conf.items() if not k.startswith("_") and h.code.startswith(k)), None)
        if not cues:
            return False
        for key, reply in self.findings.answers.items():
            if key in conf["_not_from"]:
                continue
            for sentence in re.split(r"(?<=[.!?;])\s+", reply.lower()):
                words = " ".join(tokenize(sentence))
                if any(re.search(rf"\b{re.escape(w)}\b", words) for w in conf["_unless_words"]):
                    continue
                if any(c in words for c in cues):
                    return True
        return False

    def _ruled_out(self, h: Hypothesis) -> bool:
        """Whether the patient denied what a disorder cannot be without (``ruled_out_by_denial``: a bipolar
        disorder without any high ever described) and affirmed none of it."""
        f = self.findings
        for prefix, findings in self.script["evidence"]["ruled_out_by_denial"].items():
            if prefix.startswith("_") or not h.code.startswith(prefix):
                continue
            also = self.script["evidence"]["denied_in_reply"]
            denied = set(findings) & f.denied
            # "I haven't had any elevated mood or periods of unusually high energy" answers the question about past highs
            denied |= {c for c in findings if any(n and d in also.get(c, ()) for d, n in patient_findings(f.answers.get(c, "")))}
            # a positive screen on file (an MDQ) keeps a bipolar illness whatever the patient denies (results_show)
            shown = set(f.present) | self._shown_by_results(ranking=False)
            return bool(denied) and not set(findings) & shown and not self._told_before(h)
        return False

    def _risk_to_others(self) -> bool:
        """Whether the patient described violence or thoughts of harming someone (``risk_to_others_findings``), or would
        not say what they had done about a belief about others (``_others_risk_unanswered``)."""
        if set(self.script["plan"]["risk_to_others_findings"]) & set(self.findings.present):
            return True
        # violence told in words the lexicon does not read ("I put my fist through a wall"): ``risk_to_others_said``
        said = self.script["plan"]["risk_to_others_said"]
        return any(
            self._tells(p, said) for _, reply in self.findings.replies for p in split_sentences(reply)
        ) or self._others_risk_unanswered() or self._weapon_told() is not None  # a weapon kept to hand (uw-034)

    def _admit(self, principal: Hypothesis, profile: Profile) -> bool:
        """The emergency department's decision: admission for psychosis, mania, confusion, a suicide plan or active
        suicidal intent, or risk to others with psychosis; not for a disorder whose crises are managed in the
        community (``community_crisis_codes``: borderline personality disorder) unless a plan or psychosis is
        described."""
        setting = self.script["settings"]["emergency"]
        present = set(self.findings.present)
        findings = set(setting["admit_when"]) & present
        if any(principal.code.startswith(c) for c in setting["community_crisis_codes"]):
            return bool(findings - set(setting["community_crisis_not_enough"]))
        said = list(setting["admit_when_said"])
        enough = setting["said_not_enough"]
        if any(principal.code.startswith(c) for c in enough["codes"]) and not self._basic_needs_unmet(enough):
            # self-care let slide in a stress reaction or an anxiety disorder is met at home, unless basic needs are
            # told as unmet (said_not_enough)
            said = [k for k in said if k not in enough["kinds"]]
        # a manic episode (not a hypomania) is admitted whatever words were caught for it (``admit_codes``)
        mania = any(principal.code.startswith(c) for c in setting["admit_codes"]["codes"])
        return bool(findings) or mania or "active_suicide" in profile.risks or self._unsafe_at_home() or self._said_any(said)

    def _basic_needs_unmet(self, enough: dict[str, Any]) -> bool:
        """Whether the self-care answer or an answer about the present illness (``said_not_enough.unless_in``) tells
        the patient's basic needs unmet (``unless``) in a clause whose subject is the patient: an alcohol denial ("I'm
        not drinking at all") or a son's not eating is none (stop 48's review, M4)."""
        places = enough["unless_in"]
        for key, (_, reply) in zip(self.findings.reply_keys, self.findings.replies):
            if not any(key == p or (p.endswith(":") and key.startswith(p)) for p in places):
                continue
            for sentence in split_sentences(reply):
                tokens = tokenize(sentence)
                if any(c.subject == "patient" and self._tells(" ".join(tokens[c.start:c.end]), enough["unless"])
                       for c in clauses(sentence)):
                    return True
        return False

    def _said_any(self, kinds: list[str]) -> bool:
        """Whether a reply, to any question, holds a sentence that tells a risk disclosure of one of ``kinds``
        (``risk_disclosures``, no negation before it): self-care broken down (``self_care``)."""
        patterns = [p for k in self.script["risk_disclosures"]["kinds"] if k["label"] in kinds for p in k["patterns"]]
        conf = self.script["self_care"]
        if conf["kind"] in kinds:  # in the reply to the self-care question, its own answers too ("I've let things slide")
            answer = self.findings.answers.get(conf["key"], "")
            if any(self._tells(p, conf["answer_patterns"]) for p in split_sentences(answer)):
                return True
        return any(
            self._tells(p, patterns) for _, reply in self.findings.replies for p in split_sentences(reply)
        )

    def _unsafe_at_home(self) -> bool:
        """Whether a cognitive score at or below its limit (``unsafe_at_home``: MMSE 14/30) comes beside living alone
        or disorientation: no discharge home with a crisis-line number (sup26, test-v2-0316)."""
        conf = self.script["settings"]["emergency"]["unsafe_at_home"]
        low = False
        for name, result in self.findings.exam_results:
            limit = conf["results"].get(name.lower())
            m = re.search(r"(\d+)\s*/\s*\d+", result)
            low = low or (limit is not None and m is not None and int(m.group(1)) <= limit)
        if not low:
            return False
        return self._lives_alone() or bool(set(conf["findings"]) & set(self.findings.present))

    def _lives_alone(self) -> bool:
        """Whether the reply about home says the patient lives alone (``plan.living_alone``)."""
        conf = self.script["plan"]["living_alone"]
        home = " ".join(self.findings.answers.get(c, "") for c in ("living_situation", "dependants")).lower()
        for clause in re.split(conf["clauses"], home):  # only the patient's own clause: "my mum lives alone" is not
            for w in conf["words"]:
                at = clause.find(w)
                if at < 0:
                    continue
                before = clause[:at]
                if re.search(conf["relative_clause"], before, re.IGNORECASE):
                    continue  # "I look after my dad who lives alone": the relative's, though the clause says "I"
                if re.search(conf["first_person"], before, re.IGNORECASE) or not re.search(conf["other_subject"], before, re.IGNORECASE):
                    return True
        return False

    def _dependants_possible(self) -> bool:
        """Whether an admitted adult may leave children or others at home: not denied, or named."""
        f = self.findings
        if self.walk_in.age is not None and self.walk_in.age < 18:
            return False
        if "dependants" in f.present:
            return True
        if self._lives_alone():
            return False
        home = " ".join(f.answers.get(c, "") for c in ("living_situation", "dependants")).lower()
        if any(w in home for w in self.script["plan"]["dependants_unknown"]["older"]["care_home_words"]):
            return False  # in a care home: no one at home depends on them
        return self._home_names_dependants() or "dependants" not in f.denied

    def _dependants_named(self) -> bool:
        """Whether an adult named children or other dependants: affirmed, or in the words about home."""
        if not self._dependants_possible():
            return False
        told = self.findings.present.get("dependants")
        # "My children are grown up" affirms children, not dependants (plan_safety.grown_up)
        grown = told is not None and self._without_grown(told) != told.lower()
        return (told is not None and not grown) or self._home_names_dependants()

    def _without_grown(self, text: str) -> str:
        """``text`` in lower case without the children it tells as grown up (``plan_safety.grown_up``): "my children
        are grown up and live nearby" names no dependants."""
        return _without_matches(text.lower(), self.script["plan_safety"]["grown_up"])

    def _dependants_sentence(self) -> str:
        """The safeguarding sentence about the dependants named, worded by who they are (``dependants_by_kind``):
        children, an adult the patient cares for, or anyone, when who was not said."""
        home = self._without_grown(" ".join(self.findings.answers.get(c, "") for c in ("living_situation", "dependants")))
        he, _, him = self._he_his_him
        kinds = self.script["plan_safety"]["dependants_by_kind"]
        # each clause read with its negation: "no children, I look after my mum" names an adult, not children
        clauses = [c for c in re.split(r"(?<=[.!?;,])\s+|\s+but\s+", home) if c.strip()]
        kind = next((k for k in kinds if not k["words"] or any(self._tells(c, [k["words"]]) for c in clauses)), kinds[-1])
        return kind["sentence"].format(he=he, him=him).replace("they is", "they are")

    def _home_names_dependants(self) -> bool:
        """Whether the answers about home and dependants name children or others who depend on the patient."""
        home = self._without_grown(" ".join(self.findings.answers.get(c, "") for c in ("living_situation", "dependants")))
        return load_critical_actions().mentions_dependants(home)

    def heavy_drinking(self, dependent: bool = False) -> bool:
        """Whether the patient's answer about alcohol describes heavy or dependent drinking (daily, many units,
        morning drinking), whatever the differential; with ``dependent``, only dependent drinking (``dependence_cues``,
        a bottle a day or night, or 15 units a day or more day after day: not "a few drinks most nights", not a weekend
        binge, not a bottle over several evenings)."""
        cues = self.script["plan_safety"]["heavy_drinking"]
        f = self.findings
        reply = f.answers.get("alcohol_use", "").lower()
        # the reply to the alcohol question speaks of drinking even when it never says "alcohol" ("I've tried to
        # cut down loads of times but I can't")
        if not reply or ("alcohol_use" in f.denied and "alcohol_use" not in f.present):
            return False
        if any(c in reply for c in cues["dependence_cues" if dependent else "cues"]):
            return True
        if dependent and any(re.search(p, reply) for p in cues["dependence_patterns"]):
            return True  # a bottle a night ("It's a bottle of wine a night"), not a bottle over several evenings
        binge = any(w in reply for w in cues["binge_frame"])  # "I binge-drink Friday and Saturday, 12 to 14 units a night"
        for number, per in re.findall(r"(\d+)\s*units?\s*(?:(?:at|per|each|a|the)\b)?\s*(day|night|weekends?|week)?", reply):
            per = per or ("weekend" if binge else "")  # "I have wine at weekends, 4 to 6 units": the weekend's amount
            weekly = per.startswith("week")
            if dependent:  # the amount at which an assisted withdrawal is considered, drunk day after day
                limit = cues["units_per_week_dependent"] if weekly else cues["units_per_day_dependent"]
                if int(number) >= limit and (weekly or not binge):
                    return True
            elif int(number) >= (cues["units_per_week"] if weekly else cues["units_per_day"]):
                return True
        return False

    def _audit_zone(self) -> str | None:
        """The key of the advice for the highest AUDIT risk zone an AUDIT total on file reaches
        (``plan_safety.heavy_drinking.audit_zones``: from 8 hazardous, from 20 assessed for dependence), read whatever the
        reply about alcohol said ('at the weekend I go for it' beside an AUDIT of 11/40, test-v2-0100); None below 8."""
        cues = self.script["plan_safety"]["heavy_drinking"]
        zone = None
        for name, result in self.findings.exam_results:
            if name.strip().lower() in cues["audit_names"] and (m := re.search(cues["audit_total"], result)):
                zone = next((key for low, key in sorted(cues["audit_zones"], reverse=True) if int(m.group(1)) >= low), zone)
        return zone

    def safety_profile(self, believed_only: bool = False) -> Profile:
        """The profile of every disorder on the differential (or only of those believed), and of those the
        patient's findings point to whatever the differential (heavy drinking, opioid withdrawal:
        ``plan_safety`` of ``clinician.json``)."""
        conf = self.script["plan_safety"]
        profile = self.profile(believed_only=believed_only)
        codes = list(profile.codes)
        heavy = self.heavy_drinking()
        if self.heavy_drinking(dependent=True):
            codes.append(conf["heavy_drinking"]["code"])
        present = set(self.findings.present)
        needs_drinking = set(conf["findings_imply"].get("_needs_heavy_drinking", ()))
        medicines_only = set(conf["findings_imply"].get("_medicines_only", ()))
        for finding, code in conf["findings_imply"].items():
            if finding.startswith("_") or (finding in needs_drinking and not heavy):
                continue
            if finding in medicines_only and finding in present and self._medicines_told(self.findings.present[finding]):
                continue  # "Yeah. I take co-codamol, mebeverine and vitamin D": her prescription, no drug habit
            # a finding another explains implies nothing (eating little with a poor appetite is no anorexia)
            if finding in present and not present & set(conf["findings_explained_by"].get(finding, ())):
                codes.append(code)
        return replace(profile, codes=tuple(dict.fromkeys(codes)))

    def _medicines_told(self, reply: str) -> bool:
        """Whether ``reply`` tells nothing but a bare yes or no and the patient's own current medicines: each of its
        other sentences, openers aside, is said in the answer about medicines (``findings_imply._medicines_only``)."""
        medicines = self.findings.answers.get("medications_current", "")
        said = {self._normal(s) for s in split_sentences(medicines) if s.strip()}
        rest = [
            self._normal(s) for s in split_sentences(reply)
            if s.strip() and not (answer_polarity(s) in ("yes", "no") and len(tokenize(s)) <= 2)
        ]
        return bool(said) and bool(rest) and all(r in said for r in rest)

    def _safety_steps(self, plan: str) -> list[str]:
        """The critical actions this plan still lacks (``plan_safety`` of ``clinician.json``)."""
        actions = load_critical_actions()
        conf = self.script["plan_safety"]
        believed = self.profile()
        differential = self.safety_profile()
        checked = actions.check(differential, plan)
        # the steps the rules advise (physical care after days without food) are written too: a gap is still a gap
        wanted = [m.action for m in checked.missing] + [m.action for m in checked.advised_missing]
        believed_rules = {r.action for r in actions.requirements(believed, plan)[0]}
        wanted = [a for a in wanted if a not in conf["believed_only"] or a in believed_rules]
        extra = list(conf["children"]) if self.walk_in.age_group != "adult" else []
        if self.walk_in.setting == "emergency":
            # capacity and the legal framework are the admission's questions: a patient sent home gets neither
            # sentence unless a rule asks for it (psychosis or mania in the emergency department)
            admitted = self.script["settings"]["emergency"]["discharge"] not in plan
            extra += [a for a in conf["emergency"] if admitted or a not in ("capacity", "legal_framework")]
        if "suicide" in believed.risks or self._risk_unanswered():
            extra += conf["suicidal_thoughts"]
            if self.walk_in.setting == "emergency":  # the physical state after a crisis, before any discharge
                extra += conf["emergency_suicidal_thoughts"]["actions"]
        # a child's exploitation heard: the referral in its own words, whatever else the plan says of social care
        for sign, action in conf["sign_steps"].items():
            if sign in believed.signs and not all(t in plan for t in actions.sentences([action])) and (
                    self.walk_in.age_group != "adult"):
                wanted.append(action)
        # a risk the clinician itself files under a disclosure kind ('Missing episodes') has its step (``told_kinds``)
        for label, action in conf["told_kinds"].items():
            kind = next((k for k in self.script["risk_disclosures"]["kinds"] if k["label"] == label), None)
            if kind and (not kind.get("ages") or self.walk_in.age_group in kind["ages"]) and any(
                    self._tells(reply, kind["patterns"]) for _, reply in self.findings.replies):
                extra.append(action)
        # a psychosis or mania with children at home, in clinic too; a dependence on alcohol or drugs likewise (stop 56)
        for anywhere in (conf["dependants_any_setting"], conf["dependants_beside_dependence"]):
            if self.walk_in.age_group == "adult" and self._dependants_named() and any(
                c.startswith(tuple(anywhere["codes"])) for c in believed.codes
            ):
                extra.append(anywhere["action"])
        # the steps this clinician always takes are looked for outside the drug sentences ("50 mg once daily" is no
        # follow-up within days, though the rules' phrase "daily" reads it so)
        own = " ".join(s for s in re.split(r"(?<=[.])\s+", plan) if not s.startswith(_DRUG_SENTENCES))
        # nor is an admission named in passing ("an inpatient detox instead", "legal status on the ward") a review
        # within days for a patient who goes home (``not_follow_up_unless_admitted``)
        unless = conf["not_follow_up_unless_admitted"]
        emergency = self.script["settings"]["emergency"]
        at_home = self.walk_in.setting != "inpatient" and not any(
            emergency[k] in plan for k in ("admit", "admit_medical")
        ) and emergency["unsafe_at_home"]["admit"] not in plan
        if at_home:
            own = re.sub(rf"\b(?:{'|'.join(map(re.escape, unless['words']))})\b", " ", own, flags=re.IGNORECASE)
        present = actions.proposed(own)
        required = {r.action for r in actions.requirements(differential, plan)[0]} | set(extra)
        wanted += [a for a in extra if a not in present]
        if at_home and unless["action"] in required and unless["action"] not in present:
            wanted.append(unless["action"])
        # a child's consent and legal framework are those of the child's age (competence, parental consent), not
        # adult mental health law (``step_substitutes`` of the age's script)
        substitutes = self.age_script.get("step_substitutes", {})
        steps = list(dict.fromkeys(substitutes.get(a, a) for a in wanted))
        if "safeguarding" in steps and self.walk_in.age_group == "adult" and self._dependants_named():
            # the safeguarding step is worded with the dependants' own sentence (who cares for the children): the
            # children's care is not asked a second time in other words (stop 52, test-v2-0066)
            steps = [a for a in steps if a != "dependant_care"]
        return steps

    @property
    def _he_his_him(self) -> tuple[str, str, str]:
        """The patient's pronouns (subject, possessive, object) by the sex seen at the walk-in; 'they' where none."""
        return {"female": ("she", "her", "her"), "male": ("he", "his", "him")}.get(self.walk_in.sex or "", ("they", "their", "them"))

    def _pronouns(self, text: str) -> str:
        pronoun = {"female": "she", "male": "he"}.get(self.walk_in.sex or "", "they")
        agree = "agrees" if pronoun != "they" else "agree"
        has = "has" if pronoun != "they" else "have"
        return text.replace("he or she agrees and has", f"{pronoun} {agree} and {has}").replace("he or she", pronoun)

    def _term(self, concept: str) -> str:
        """The first clinical term of ``concept`` that the lexicon reads back as that concept alone (a note
        must say what it means: "unrefreshing sleep" must not read as another finding)."""
        if concept not in self.lexicon:
            return concept.replace("_", " ")
        wording = self.script["note_writing"]["death_wish"]
        if concept == wording["concept"] and self._death_wish_passive():
            return wording["passive_term"]
        told = self.findings.present.get(concept, "")
        said = next((t["term"] for t in self.script["note_writing"]["term_as_told"].get(concept, [])
                     if re.search(t["says"], told, re.IGNORECASE)), "")
        if said:  # "delirium tremens" told, read as withdrawal_seizure_risk: no seizure named (term_as_told)
            return said
        instead = self.script["note_writing"]["term_instead"].get(concept)
        if instead:  # "inner emptiness" for "I feel empty inside", not the personality disorder's "chronic emptiness"
            return instead
        terms = self.lexicon.get(concept).clinical_terms
        for t in terms:
            if {m.concept_id for m in self.lexicon.find(t)} == {concept}:
                return t
        return terms[0] if terms else concept.replace("_", " ")

    def _death_wish_passive(self) -> bool:
        """Whether the patient's suicidal thoughts are a wish to be dead or gone with no thought of acting, read ONCE for
        the note's words ("a passive death wish", not "suicidal ideation") and the plan's risks (``profile``: no
        means restriction or admission for an active risk).

        Passive is read from what was asked and denied, never from the absence of words: the plan question was asked
        and every sentence of its answer denies a plan or says nothing ("No. I don't have a plan to end it."), no plan
        or attempt was affirmed (``active_findings``), no method or preparations were told in any reply (the risk
        section's own reading), no result on file names a method or an attempt, and no clause anywhere names taking
        one's own life undenied (``note_writing.death_wish.active``, a further veto only). Stop 46 review M1: "I'd be
        better off dead." beside a plan answer "I'd use the rope in the shed." was written a passive death wish."""
        conf = self.script["note_writing"]["death_wish"]
        f = self.findings
        if conf["concept"] not in f.present or set(conf["active_findings"]) & set(f.present):
            return False
        if not self._plan_denied():
            return False  # the plan never asked, not answered, or answered with anything but a denial: not passive
        # a method or preparations told anywhere ("Margaret found me in the garage holding a length of tow rope"),
        # or a result on file that names a method or an attempt (a C-SSRS), is no passive wish, whatever the words
        if self._risk_results() or any(self._method_told(reply) for _, reply in f.replies):
            return False
        # a preparation told in another item's reply ("I sat with the tin in my hand, meaning to take them all", asked
        # whether he might act: uw-034) answers the plan (item_subjects.risk:plan.answered_elsewhere): no passive wish
        prepared = self.script["risk_follow_up"]["item_subjects"]["risk:plan"]["answered_elsewhere"]
        if any(self._tells(sentence, prepared) and answer_polarity(sentence) != "no"
               for _, reply in f.replies for sentence in split_sentences(reply)):
            return False
        # every clause the patient said, in any reply (the method may come in another answer: "I know how, but I
        # haven't got a plan"), that names an act and that the reader does not read as denying the thoughts or a plan
        # ("I've never had thoughts of ending my life", "I don't have a plan to end it")
        # only the replies about the risk: the answers to the risk questions and the replies in which the reader read
        # suicidal thoughts, a plan, an attempt or self-harm ("I'm jumpy", a startle answer, names no act: hw-006)
        asked = [k for k in self._follow_concepts() if k.startswith("risk:")] + list(conf["denied_by"])
        about = {f.answers[k] for k in asked if f.answers.get(k)} | {f.present[c] for c in conf["denied_by"] if c in f.present}
        about |= {reply for _, reply in f.replies if {c for c, _ in patient_findings(reply)} & set(conf["denied_by"])}
        for reply in sorted(about):
            # by comma clause: "I don't see a way out, thoughts of ending it, yes" names the act in a clause the
            # first clause's "don't" does not deny (the reader's negation scope runs past the comma)
            for clause in re.split(r"(?<=[.!?])\s+|,\s*|\s+but\s+", reply):
                words = " ".join(tokenize(clause))
                if not any(re.search(rf"\b{re.escape(a)}", words) for a in conf["active"]):
                    continue
                if answer_polarity(clause) == "no" or any(neg for c, neg in patient_findings(clause) if c in conf["denied_by"]):
                    continue
                return False
        return True

    def _plan_denied(self) -> bool:
        """Whether the plan question (the risk follow-up item asking ``death_wish.plan_finding``) was asked and EVERY
        sentence of its answer denies (the shared reader's polarity "no", the general forms of saying none, or the
        reader reading a plan or the thoughts denied) or says nothing: "No. I'd use the rope in the shed." is no
        denial, nor is "I've written letters to the kids."."""
        conf = self.script["note_writing"]["death_wish"]
        f = self.findings
        plan = conf["plan_finding"]
        keys = [k for k, c in self._follow_concepts().items() if c == plan] + [plan]
        answers = [f.answers[k].strip() for k in keys if f.answers.get(k, "").strip()]
        if not answers:
            # the plan told before it was asked ("It should have been me, without any plan.", so the question was never
            # put): the sentence that told it is its answer, read as the plan question's would be
            item = next((i for i in self.script["risk_follow_up"]["items"] if i.get("concept") == plan), None)
            told = self._told_already(item) if item else None
            answers = [told] if told else []
        if not answers:
            return False
        rewrite = self.script["plan"]["denials_by_preposition"]  # "without any plan" is "no plan", as every reply is read
        answers = [re.sub(rewrite["pattern"], rewrite["with"], a, flags=re.IGNORECASE) for a in answers]
        denial = self.script["note_writing"]["denied_history"]["denial"]
        openers = [*self.script["quotes"]["openers"], *self.script["plan"]["denial_hedges"]["words"]]
        cues = [rf"\b{re.escape(c)}" for k in keys if k.startswith("risk:") for c in self.script["quotes"]["subject_cues"].get(k, ())]
        for answer in answers:
            if self._act_told(answer):
                return False  # a preparatory act told ("I took my father's handgun") is no denial, whatever else is said
            for sentence in (s.strip() for s in split_sentences(answer) if s.strip()):
                said = _without_opener(sentence, openers).rstrip(" .!")
                if not said or self._non_answer(said):
                    continue
                # a plan, method or preparation told in any clause, whatever the sentence opened with ("No plan, but
                # I've saved up my tablets"): the clause is read on its own, so the opening "No" negates nothing in it
                if any(self._tells(clause, cues) for clause in re.split(r",\s*|;\s*|\s+but\s+", said)):
                    return False
                if answer_polarity(said) == "no" or re.search(denial, said.lower()):
                    continue
                if any(neg for c, neg in patient_findings(said) if c in conf["denied_by"]):
                    continue
                # the plan's own subject named and negated everywhere it is named ("I have no plan and no intention of
                # doing anything", which the shared reader reads no polarity in): the risk section's subject cues and
                # negations; a cue told with no negation before it ("I know how", "the rope in the shed") is no denial
                if any(re.search(c, said, re.IGNORECASE) for c in cues) and not self._tells(said, cues):
                    continue
                return False
        return True

    def _risk_unanswered(self) -> bool:
        """Whether suicide risk was asked about but never excluded: the patient would not or could not answer ("Do I
        have to answer that?") or answered something else ("I feel guilty all the time."). A risk that cannot be
        assessed is planned for as if present."""
        f = self.findings
        # a denial of self-harm says nothing of suicidal thoughts: only an answer about the thoughts themselves settles it
        if "suicidal_ideation" in set(f.present) | f.denied or "self_harm" in f.present:
            return False
        answer = f.answers.get("suicidal_ideation")
        if answer is None:
            return False
        # a plain "No." first, and nothing affirmed after it ("No. I've got things I want to do."): answered, a denial
        first = (split_sentences(answer) or [""])[0]
        first = _without_opener(first, [*self.script["quotes"]["openers"], *self.script["plan"]["denial_hedges"]["words"]])
        return not (answer_polarity(first) == "no" and len(tokenize(first)) <= 4 and not patient_findings(answer))

    def _non_answer(self, reply: str) -> bool:
        """Whether a reply only says the patient could not or would not answer (``non_answers``)."""
        cues = self.script["non_answers"]
        words = " ".join(tokenize(reply))
        return len(words.split()) <= cues["max_words"] and any(p in words for p in cues["phrases"])

    def _quote(self, key: str, used: set[str]) -> str:
        """The patient's reply to ``key`` as the note quotes it (``quotes`` of ``clinician.json``): without the
        sentences that answer nothing ("Don't know.", "Can we get on with it?", an aside about lighthouses), a
        sentence already quoted under another heading, or, under a history heading, a sentence about a symptom
        (it belongs to the present illness); under the present illness's headings only a reply that speaks of
        its subject (a time for the onset, a life event for the context, daily life for the impact); at most
        ``max_sentences`` sentences. Empty when nothing is left."""
        f = self.findings
        reply = f.answers.get(key, "").strip()
        quote = self._quote_reply(key, reply, used) if reply and not self._non_answer(reply) else ""
        # not an answer to a risk follow-up ('Aisha, my job and my cat', what keeps her going, is no occupation, hw-014)
        told_in = f.present.get(key, "").strip()
        risk_answer = bool(told_in) and any(
            k.startswith(tuple(self.script["quotes"]["not_told_from"]["keys"])) and told_in in r
            for (_, r), k in zip(f.replies, f.reply_keys)
        )
        if not quote and key in self.lexicon and key in f.present and f.present[key] != reply:
            # told in reply to another question ("I have mild asthma" when asked about insight): its own clauses
            told = [
                p
                for p in re.split(r"(?<=[.!?])\s+|,\s+and\s+", f.present[key])
                # nor a clause that affirms or denies a symptom ("No, I don't hurt myself, I've got my job to think
                # about" is a risk answer, not the occupation)
                if key in self._stated(p)
                and not any(c in self.lexicon and self.lexicon.get(c).kind in ("symptom", "sign") for c, _ in patient_findings(p))
                # a statement of the patient's, not a fragment read as the heading's concept ("Every single one" after
                # "All my relationships end badly" is no marital status: stop 42's consultant, test-v2-0480)
                and (not self.script["note_writing"].get("unasked_needs_speaker") or self._statement(p))
                # from an answer to a risk follow-up, only a clause with a verb ("I live with my wife"), never a list of
                # what keeps them going ("Aisha, my job and my cat" is no occupation, hw-014)
                and (not risk_answer or self._has_verb(p))
            ]
            quote = self._quote_reply(key, " ".join(told), used) if told else ""
        return quote

    def _unquoted_answer(self, key: str, used: set[str]) -> str:
        """The clinician's sentence for an answer to ``key`` that the quote leaves empty but that answered it
        (``note_writing.unquoted_answers``): 'No mental illness known in the family ("Not that I know of").' for
        "Not that I know of."; empty when no rule reads the reply's first sentence."""
        rules = self.script["note_writing"]["unquoted_answers"].get(key, ())
        reply = self.findings.answers.get(key, "").strip()
        sentences = [s.strip() for s in split_sentences(reply) if s.strip()]
        if not rules or not sentences:
            return ""
        first = _without_opener(sentences[0], self.script["quotes"]["openers"]).rstrip(" .!")
        rule = next((r for r in rules if re.search(r["pattern"], first.lower())), None)
        if rule is None or {first.lower(), first.lower() + "."} & used:
            return ""  # nor an answer quoted under another heading ("Nobody in my family has had problems like this" again)
        he, _, him = self._he_his_him
        sentence = rule["sentence"].format(he=he, him=him)
        sentence = sentence[:1].upper() + sentence[1:]
        # the patient's words quoted beside it: the first sentence that says something ("We don't talk about that sort of
        # thing in my family", not "I'm not sure"); none when every sentence is a non-answer ("I don't know.")
        said = next((s for s in (_without_opener(x, self.script["quotes"]["openers"]).rstrip(" .!") for x in sentences) if self._plain(s)), "")
        if not said or {said.lower(), said.lower() + "."} & used or len(said.split()) <= 1:  # a bare "No." adds nothing
            return sentence
        used.add(said.lower())
        first = said
        return sentence + self._told_suffix(key, first)

    def _denied_history(self, key: str, used: set[str]) -> str:
        """The note's words for a history question (``key``) the reader read the reply as denying, when no quote or
        rule kept the reply: ``note_writing.denied_history.sentence`` ("none reported"), with the reply's first
        sentence quoted when it says more than a bare no ("Not that I know of"). Empty when the reply did not deny
        ``key`` (it named something, drifted, or only said an earlier answer again)."""
        f = self.findings
        reply = f.answers.get(key, "").strip()
        if not reply or key in f.present or self._non_answer(reply) or self._repeat_only(key):
            return ""
        sentences = [s.strip() for s in split_sentences(reply) if s.strip()]
        bare = [_without_opener(s, self.script["quotes"]["openers"]).rstrip(" .!") for s in sentences]
        first = bare[0]
        conf = self.script["note_writing"]["denied_history"]
        # not knowing or not having been asked ("Nobody's ever asked me that", "Never been tested") denies nothing,
        # whatever negative word it opens with
        if any(re.search(conf["unless"], s.lower()) for s in bare):
            return ""
        # EVERY sentence must deny or say nothing: "No. I did six months inside for assault" opens with a no and then
        # tells the history (a note that read only the first sentence wrote "none reported" over it)
        for i, said in enumerate(bare):
            if not said or self._non_answer(said):
                continue
            if answer_polarity(said) != "no" and not re.search(conf["denial"], said.lower()) and not (i == 0 and key in f.denied):
                return ""
            if self._stated(said) - {key}:
                return ""  # "No, but my mother had dementia" names something: not a bare denial
        sentence = conf["sentence"]
        rule = next((r for r in self.script["note_writing"]["unquoted_answers"].get(key, ()) if re.search(r["pattern"], first.lower())), None)
        if rule is not None:  # the heading's own words for none ("no physical illness known to run in the family")
            he, _, him = self._he_his_him
            sentence = rule["sentence"].format(he=he, him=him)
        if len(tokenize(first)) <= 1 or not self._plain(first) or {first.lower(), first.lower() + "."} & used:
            return sentence
        used.add(first.lower())
        return sentence + self._told_suffix(key, first)

    def _told_suffix(self, key: str, words: str) -> str:
        """The words quoted after a note's sentence, with who told them when not the patient: ' (her father: "...")',
        else ' ("...")'."""
        teller = self.findings.told_by.get(key)
        if teller:
            his = {"female": "her", "male": "his"}.get(self.walk_in.sex or "", "their")
            return f' ({his} {teller}: "{words}")'
        return f' ("{words}")'

    def _drug_reactions(self, key: str, used: set[str]) -> str:
        """The note's words for a drug that disagrees with the patient, told in reply to ``key``
        (``note_writing.drug_reactions``): 'Codeine intolerance (sickness) rather than a true allergy ("Codeine makes me sick")',
        'Penicillin allergy (rash)': the drug and the reaction, an allergy told apart from an intolerance, with the words
        quoted. Empty when ``key`` is not the allergy question or no sentence of the reply names a drug with a reaction
        or as an allergy (a denial, "No known allergies", is the denial's)."""
        conf = self.script["note_writing"]["drug_reactions"]
        f = self.findings
        if key != conf["key"]:
            return ""
        reply = f.answers.get(key, "").strip() or (f.present.get(key) or "").strip()
        found: dict[str, tuple[str, str]] = {}  # drug -> (kind, reaction), in the order told
        quoted: list[str] = []
        for sentence in split_sentences(reply):
            bare = _without_opener(sentence.strip(), self.script["quotes"]["openers"]).strip()
            told = False
            # each clause its own drugs and reaction ("I'm allergic to penicillin, but codeine is fine": no codeine
            # allergy); none said of another ("My mum is allergic to penicillin") or taken without trouble
            for piece in (p.strip() for p in re.split(conf["clause_split"], bare, flags=re.IGNORECASE) if p.strip()):
                low = piece.lower()
                tokens = tokenize(piece)
                if any(re.search(t, low) for t in conf["tolerated"]):
                    continue
                others = [" ".join(tokens[c.start:c.end]) for c in clauses(piece) if c.subject == "other"]
                drugs = [d for d in conf["drugs"] if re.search(rf"\b{re.escape(d)}", low)]
                drugs += [d for d in self._drugs_named(piece) if d not in drugs]
                # a drug under a negation ("I'm not allergic to penicillin") is no reaction told
                drugs = [d for d in drugs if not any(is_negated(piece, i) for i, t in enumerate(tokens) if t.startswith(d.split()[0]))
                         and not any(re.search(rf"\b{re.escape(d)}", o) for o in others)]
                if not drugs:
                    continue
                reactions = [r for r in conf["reactions"] if re.search(r["pattern"], low)]
                reaction = next((r for r in reactions if r["kind"] == "allergy"), reactions[0] if reactions else None)
                if reaction is None and conf["allergic_word"] not in low:
                    continue
                told = True
                for d in drugs:
                    kind, said = (reaction["kind"], reaction["reaction"]) if reaction else ("unstated", "")
                    if d not in found or (found[d][0] != "allergy" and kind == "allergy"):
                        found[d] = (kind, said)
            if told and bare.rstrip(".!").lower() not in used:
                quoted.append(bare.rstrip(".!"))
        if not found:
            return ""
        written = "; ".join(
            conf["sentences"][kind].format(drug=d[:1].upper() + d[1:], reaction=said) for d, (kind, said) in found.items()
        )
        for q in quoted:
            used.update({q.lower(), q.lower() + "."})
        if not quoted:
            return written
        return written + self._told_suffix(key, " ".join(f"{q}." for q in quoted).rstrip("."))

    def _quote_reply(self, key: str, reply: str, used: set[str]) -> str:
        """``reply`` as quoted under ``key``'s heading; an informant's answer ("He was born at 34 weeks", the father's)
        keeps its third person and is put in their mouth ('His father says: "..."')."""
        conf = self.script["quotes"]
        writing = self.script["note_writing"]
        own_reply = reply == self.findings.answers.get(key)
        teller = self.findings.told_by.get(key) if own_reply else None
        kept: list[str] = []
        pieces_kept: list[str] = []
        headed = {c for cs in self.script["note_sections"].values() for c in cs}
        history = key in self.lexicon and key not in conf["symptoms_belong"]
        # what the patient had said before, in reply to other questions: said again, it is that answer repeated
        said_before = self._said_before(key, reply) if own_reply and key in headed and writing.get("repeat_not_own") else set()
        if said_before:
            # the part of the reply said before is one earlier answer said again: this heading's answer when any of it
            # speaks of the heading's subject ("I had one previous episode ... And I got completely better", hw-015)
            again = [p for p in re.split(r"(?<=[.!?])\s+|,\s+and\s+|\s+-\s+and\s+", reply) if p.strip() and self._normal(p) in said_before]
            if any(self._on_heading(key, p) for p in again):
                said_before = set()
        # clauses, so that "I don't use any drugs, and I've never felt better in my life" keeps its answer
        pieces = re.split(r"((?<=[.!?])\s+|,\s+and\s+|\s+-\s+and\s+)", reply)
        joiners = [""] + pieces[1::2]
        denial = conf["denial_cues"].get(key)
        answered = False  # a clause said already: a bare denial after it answers another question
        for joiner, piece in zip(joiners, pieces[0::2]):
            if not self._plain(piece, informant=bool(teller)):
                continue
            answered, after = True, answered
            if denial and after and _cue_said(piece, denial, {}) and _cue_said(
                piece, [c for c in conf["subject_cues"].get(key, ()) if c not in denial], conf["cue_false_friends"]
            ) is not True:
                continue  # "..., and no, I can't say I have" after a use told answers another question (test-v2-0268)
            piece = _without_opener(piece.strip(), conf["openers"])  # "Like I said, I'm low" is quoted "I'm low"
            if piece.strip().lower() in used:
                continue
            if writing.get("patient_questions") and piece.strip().endswith("?"):
                continue  # the patient's own question ("Is this going to take long?") tells no history
            if said_before and self._normal(piece) in said_before:
                continue  # an earlier answer said again ("They struggle to settle in class", asked about help before)
            if key in writing.get("past_only", ()) and any(re.search(x, piece, re.IGNORECASE) for x in writing["this_episode"]):
                continue  # this episode's event ("I was admitted this week") is no history of an earlier one
            if key in conf["risk_elsewhere"] and any(
                self._tells(piece, kind["patterns"]) for kind in self.script["risk_disclosures"]["kinds"]
            ):
                continue  # "I've taken tablets before" is an overdose for the risk assessment, not a medicine taken
            elsewhere = conf["other_heading_findings"]
            if key in elsewhere["keys"] and {c for c, _ in patient_findings(piece)} & set(elsewhere["concepts"]):
                continue  # "No, I've never wanted to end my life, I've got work to think about" answers the risk questions
            if key in conf["not_a_plan"]["keys"] and any(re.search(p, piece, re.IGNORECASE) for p in conf["not_a_plan"]["patterns"]):
                continue  # nor a plan: it is a past attempt
            if history or key in conf["end_at_any_finding"]:  # the patient answered, then drifted: the quote ends there
                stated = {c for c in self._stated(piece)}
                others = {c for c in stated if self.lexicon.get(c).kind in ("symptom", "sign") or c in headed}
                if not history:  # a view of the illness ends at any finding, told or denied ("I've never had thoughts of ending my life")
                    others |= stated | {c for c, _ in patient_findings(piece) if c in self.lexicon and c not in self.findings.present}
                if key not in stated and others - {key}:
                    break
            piece = piece.strip()
            pieces_kept.append(piece.lower())
            if kept and "and" in joiner:
                kept[-1] = kept[-1].rstrip(".") + ", and " + piece
            else:
                kept.append(piece)
        cues = conf["subject_cues"].get(key)

        acts = key == self.script["risk_follow_up"]["acts"]["item"]

        def on_subject(sentence: str) -> bool:  # a preparatory act told answers the plan in any words (risk_follow_up.acts)
            # without the phrases whose word only looks like a cue ("firefighters cut me out", "cut me out of the will")
            return _cue_said(sentence, cues or (), conf["cue_false_friends"]) is True or (
                acts and self._act_told(sentence, means_only=True) is not None)

        if cues and key in conf["subject_each"]:
            kept = [k for k in kept if on_subject(k)]  # "I don't take any tablets. I misplace my keys daily." keeps the first
        if cues and not any(on_subject(k) for k in kept):
            return ""
        kept = [k if k[-1] in ".!?" else k + "." for k in kept[: conf["max_sentences"]]]
        if kept and all(answer_polarity(k) == "yes" and len(tokenize(k)) <= 3 for k in kept):
            return ""  # "Yes, actually." whose rest ("my mother had dementia") is quoted under another heading tells nothing
        # only what is quoted here is spent: a sentence the subject left out ("I started on painkillers for my back and
        # now I buy them" in the answer about medicines, test-v2-0179) is still the drug history's to quote
        used.update(p for p in pieces_kept if any(p.rstrip(".!?") in k.lower() for k in kept))
        if not kept:
            return ""
        if teller:
            his = {"female": "her", "male": "his"}.get(self.walk_in.sex or "", "their")
            return f'{his.capitalize()} {teller} says: "{" ".join(kept)}"'
        return f'"{" ".join(kept)}"'

    def _normal(self, sentence: str) -> str:
        """``sentence`` as compared with another: without its opener ("Like I said, "), end stops and case."""
        return _without_opener(sentence.strip(), self.script["quotes"]["openers"]).strip().rstrip(".!?").lower()

    def _said_before(self, key: str, reply: str) -> set[str]:
        """The sentences and clauses (normalised) the patient said before ``reply`` in reply to questions other than
        ``key``'s (its own question put again is the same question: ``note_writing.repeat_not_own``)."""
        f = self.findings
        replies = [r for _, r in f.replies]
        at = replies.index(reply) if reply in replies else len(replies)
        split = r"(?<=[.!?])\s+|,\s+and\s+|\s+-\s+and\s+"
        asked = f.reply_keys + [""] * (len(replies) - len(f.reply_keys))
        # a piece too short to be anyone's own answer ("No, no.", "Not at all.") is said again to the next question as
        # a new answer, not as the earlier one repeated (repeat_min_words; stop 52's consultant, test-v2-0396: 'No, no.'
        # to the question about help before was written 'Asked, no direct answer' after 'No, no. I don't hear voices.')
        least = self.script["repeat_min_words"]
        return {self._normal(p) for r, k in zip(replies[:at], asked[:at]) if r != reply and k != key
                for p in re.split(split, r) if p.strip() and len(re.findall(r"[\w']+", p)) >= least}

    def _repeat_only(self, key: str) -> bool:
        """Whether the reply to ``key``'s question said only earlier answers again, none of them on its subject
        (``note_writing.repeat_not_own``): the heading was asked and not answered."""
        reply = self.findings.answers.get(key, "")
        if not self.script["note_writing"].get("repeat_not_own") or not reply.strip() or self._non_answer(reply):
            return False
        before = self._said_before(key, reply)
        pieces = [p for p in re.split(r"(?<=[.!?])\s+|,\s+and\s+|\s+-\s+and\s+", reply) if p.strip() and self._plain(p)]
        return bool(pieces) and all(self._normal(p) in before and not self._on_heading(key, p) for p in pieces)

    def _on_heading(self, key: str, piece: str) -> bool:
        """Whether ``piece`` speaks of ``key``'s subject: one of its ``quotes.subject_cues``, or the reader reads ``key``
        in it."""
        subject = self.script["quotes"]["subject_cues"]
        extra = self.script["note_writing"].get("repeat_cues", {}).get(key, {})
        cues = [*subject.get(key, ()), *extra.get("cues", ()), *(c for k in extra.get("like", ()) for c in subject.get(k, ()))]
        words = " ".join(tokenize(piece))
        return key in self._stated(piece) or any(re.search(rf"\b{re.escape(c)}", words) for c in cues)

    def _plain(self, piece: str, informant: bool = False) -> bool:
        """Whether a sentence or clause says something: not a non-answer, an aside or a filler (``quotes``)."""
        conf = self.script["quotes"]
        words = " ".join(tokenize(piece))
        filler = len(words.split()) <= conf["filler_max_words"] and any(a in words for a in conf["fillers"])
        return (
            bool(words) and not filler and not self._non_answer(piece) and not any(a in words for a in conf["asides"])
            and self._speech(piece, informant)
        )

    def _statement(self, piece: str) -> bool:
        """Whether ``piece`` stands as a statement (``note_writing.statement_verbs``): it names the speaker or a person,
        or it has a verb; not a fragment leaning on the sentence before ("Every single one")."""
        writing = self.script["note_writing"]
        tokens = tokenize(piece)
        return self._names_speaker(piece) or any(
            t in writing["statement_verbs"] or t.endswith(tuple(writing["statement_verb_endings"])) for t in tokens
        )

    def _has_verb(self, piece: str) -> bool:
        """Whether ``piece`` holds a verb of ``note_writing.statement_verbs`` (or one of their endings)."""
        writing = self.script["note_writing"]
        return any(t in writing["statement_verbs"] or t.endswith(tuple(writing["statement_verb_endings"])) for t in tokenize(piece))

    def _names_speaker(self, piece: str) -> bool:
        """Whether ``piece`` names who it is about: the speaker ("I", "my", "we") or a person ("my mother", "someone")
        (``quotes.speech``)."""
        conf = self.script["quotes"]["speech"]
        names = set(conf["first_person"]) | set(conf["person_nouns"]) | set(conf["third_person"])
        return any(t in names or t.split("'")[0] in names for t in tokenize(piece))  # "we've" is "we"

    def _speech(self, piece: str, informant: bool = False) -> bool:
        """Whether ``piece`` reads as the patient speaking of themself (``quotes.speech``): not a sentence that names
        the patient "she" or "he" (an informant's or a record's words), not a form no person says ("from me's
        bathroom cabinet", "I have well")."""
        conf = self.script["quotes"]["speech"]
        if any(re.search(p, piece, re.IGNORECASE) for p in conf["not_said"]):
            return False
        first, others = set(conf["first_person"]), set(conf["person_nouns"])
        own = {"female": "she", "male": "he"}.get(self.walk_in.sex or "")
        for token in tokenize(piece):
            if token in first or token in others:
                return True
            if token in conf["third_person"] and own in (None, token) and not informant:
                return False
        return True

    def _stated(self, text: str) -> set[str]:
        """The lexicon concepts ``text`` affirms of the patient."""
        return {c for c, negated in patient_findings(text) if not negated and c in self.lexicon}

    def _told_in(self, concept: str, own_words_only: list[str]) -> str:
        """The reply in which ``concept`` was affirmed, as the note quotes it: for a finding of ``own_words_only``
        only its sentences that state it ("I'm not myself.", not the whole reply)."""
        reply = self.findings.present[concept].strip()
        if concept not in own_words_only:
            return reply
        told = [p.strip() for p in split_sentences(reply) if concept in self._stated(p)]
        return " ".join(told) or reply

    def _loose_only(self, concept: str) -> bool:
        """Whether ``concept`` was heard only in phrases that do not show what its clinical term asserts
        (``note_writing.loose_phrases``: "Stressed, I suppose" is read as worry for the differential, but a note that
        writes "excessive worry" over it says more than the patient did): no sentence that states it still states it
        once those phrases are taken out."""
        loose = self.script["note_writing"].get("loose_phrases", {}).get(concept)
        if not loose or concept not in self.findings.present:
            return False
        pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(p) for p in sorted(loose, key=len, reverse=True)) + r")(?!\w)", re.IGNORECASE)
        stating = [p for p in split_sentences(self.findings.present[concept]) if concept in self._stated(p)]
        return bool(stating) and not any(concept in self._stated(pattern.sub("", p)) for p in stating)

    def _history_only(self, concept: str, kinds: list[str]) -> bool:
        """Whether ``concept`` is one the note words only in the patient's words (``own_words_only``) and was heard in
        answer to a question about the history, of one of the lexicon ``kinds`` ("There was a lot of fighting at home
        till they split", asked about trauma, read as unstable relationships): it was said of the history, not the
        present illness."""
        asked = self.findings.heard_on.get(concept, "")
        return concept in self.script["note_writing"]["own_words_only"] and asked in self.lexicon and self.lexicon.get(asked).kind in kinds

    def _clashing(self, symptoms: list[str]) -> set[str]:
        """The affirmed findings a note cannot state as plain findings: one whose implied finding, or whose
        ``note_conflicts`` partner, the patient denied, and both of two opposite findings."""
        f = self.findings
        denied = f.denied - set(f.present)
        pairs = [tuple(p) for p in lexicon_relations("implies") if isinstance(p, tuple) and len(p) == 2]
        pairs += [tuple(p) for p in self.script["note_conflicts"]["pairs"]]
        opposite = {frozenset(p) for p in lexicon_relations("opposite_findings") if isinstance(p, tuple)}
        out = {a for a, b in pairs if a in symptoms and b in denied}
        out |= {c for c in symptoms for d in symptoms if frozenset((c, d)) in opposite}
        return out

    def _risk_quote(self, concept: str) -> str:
        """The reply that disclosed a risk, as the risk assessment quotes it: the sentences that state it and those
        that say what the patient would or would not do about it ("I wouldn't do anything, though."), not the rest
        of the reply ("In mid-February, without any trigger anyone can point to." before "I've attended the emergency
        department often after self-harm."); the whole reply when no sentence is read so."""
        reply = self.findings.present[concept].strip()
        intent = self.script["quotes"]["subject_cues"]["risk:intent"] + self.script["quotes"]["subject_cues"]["risk:plan"][:2]
        kept = []
        for sentence in (p.strip() for p in split_sentences(reply) if p.strip()):
            words = " ".join(tokenize(sentence))
            stated = self._stated(sentence)
            if concept in stated or set(stated) & set(self.script["risk_follow_up"]["after"]) or (
                kept and any(re.search(rf"\b{re.escape(c)}", words) for c in intent)
            ):
                kept.append(sentence)
        return " ".join(kept) or reply

    def _risk_follow_up_lines(self, used: set[str]) -> list[str]:
        """What the patient said when asked about a plan, intent, means, past attempts and what keeps them safe
        (``risk_follow_up``), each in their own words on that subject only; an item asked and not answered says so."""
        conf = self.script["risk_follow_up"]
        f = self.findings
        out = []
        for item in conf["items"]:
            key = item["key"]
            reply = f.answers.get(key, "").strip()
            if not reply:
                told = self._told_already(item) if self.risk_followed else None
                told_quote = self._on_item(key, f'"{told}"') if told else ""
                if told_quote:  # answered with the disclosure or another follow-up: that sentence, quoted
                    out.append(_end(f'{item["label"].replace("them", self._object())}: {told_quote}'))
                continue
            # the item's own answer even when a heading above quoted it already ("I take sertraline 100 mg" under the
            # medicines is still the answer about means): a risk item answered is never written as unanswered
            # (stop 42's consultants: means "asked, no direct answer" though he had listed his tablets, test-v2-0480)
            raw = quote = self._quote(key, used) or self._requote_for_risk(key)
            # the item's own reply read for the item's own subject first: a reply that spoke only of another item ("I
            # don't have a plan to end it" asked about intent) leaves the item to be found where it was answered
            quote = self._on_item(key, quote) if quote else ""
            told = None if quote else self._told_already(item, anywhere=True, subject=True)
            if told:  # quoted under another heading, or told in another follow-up's reply ("no intention of doing anything")
                quote = f'"{told}"'
            if not quote and answer_polarity(reply) is not None:
                # a bare "No." or "Nope." answers the question: quoted as said
                first = next((p.strip() for p in split_sentences(reply) if p.strip()), reply)
                quote = f'"{first}"'
                teller = f.told_by.get(key)
                if teller:  # the parent's "No, not that I know of" is theirs, not the child's (hw-023)
                    quote = f'{self._voice()[1].capitalize()} {teller} says: {quote}'
            quote = self._on_item(key, quote)
            label = item["label"].replace("them", self._object())
            aside = conf["answered_aside"]
            if not quote and raw and key in aside["keys"] and any(self._on_item(k, raw) for k in aside["on_items"]):
                # answered, but only about another item ("I don't have a plan to end it" asked about intent): what was
                # said, and that the item itself was not stated, not "no direct answer" over an answer (hw-039)
                out.append(_end(f"{label}: {conf['answered_aside']['sentence'].format(quote=raw)}"))
                continue
            out.append(_end(f"{label}: {quote}") if quote else f"{label}: {conf['no_answer']}.")
        return out

    def _requote_for_risk(self, key: str) -> str:
        """The risk item ``key``'s own answer quoted again when a heading above spent it (the tablets listed under the
        medicines answer the question about means), unless it tells a risk of its own (an overdose, a past attempt:
        those have their own lines, never the plan's: hw-034)."""
        quote = self._quote(key, set())
        subjects = self.script["risk_follow_up"]["item_subjects"]
        own = set(subjects.get(key, {}).get("concepts", ()))
        risk = set(subjects["_risk_concepts"]) - own
        mine = set(subjects.get(key, {}).get("disclosure_kinds", ()))  # an overdose told is the past attempts' answer
        if not quote or any(self._tells(quote, k["patterns"]) for k in self.script["risk_disclosures"]["kinds"]
                            if k["label"] not in mine):
            return ""
        if {c for c, _ in patient_findings(quote)} & risk:
            return ""
        return quote

    def _mood_not_now(self, sentence: str) -> bool:
        """Whether a sentence of the mood answers speaks of another time or only names the subject
        (``note_writing.mood_not_now``): no description of the mood now."""
        words = sentence.strip().strip('"').lower()
        writing = self.script["note_writing"]
        dated = re.sub(writing["mood_clock_time"], " ", words)  # "I wake at 3" is a time of night, not an age
        if any(re.search(p, dated) for p in writing["mood_not_now"]) and not re.search(writing["mood_now_frame"], dated) \
                and not re.search(writing["mood_since_anchor"], dated):  # "low since ... two years ago" lasts until now
            return True
        # a longer sentence describes a mood in a feeling's frame ("I've been feeling low", "my mood's been rubbish")
        # or when it opens on a mood word ("Low, really low most of the time lately"), not by a mood word in passing
        # ("I have takings down about a third", uw-014)
        tokens = tokenize(words)
        opens = any(re.search(writing["mood_words"], t) for t in tokens[: writing["mood_lead_words"]])
        return len(tokens) > writing["mood_bare_max_words"] and not re.search(writing["mood_frame"], words) \
            and not re.search(r"\b(?:mood|feel|feeling|felt|spirits)\b", words) and not opens

    def _on_item(self, key: str, quote: str) -> str:
        """``quote`` as the risk item ``key`` may hold it (``risk_follow_up.item_subjects``): only the clauses read as
        the item's own subject, never one read as another item's (a suicidal thought under the plan, a drinking
        break under past attempts); empty when none is left. A teller's prefix ('His mother says: ') is kept."""
        subjects = self.script["risk_follow_up"]["item_subjects"]
        own = subjects.get(key)
        m = re.match(r'^(.*?)"(.*)"$', quote.strip(), re.DOTALL)
        if not own or not m:
            return quote
        prefix, inner = m.groups()
        risk = set(subjects["_risk_concepts"])
        pieces = [p.strip() for p in re.split(r"(?<=[.!?])\s+|,\s+(?=(?:but|without|though|although)\s+\w)", inner) if p.strip()]
        acts = key == self.script["risk_follow_up"]["acts"]["item"]

        def says(piece: str) -> bool:  # the item's own words, or (the plan's) a preparatory act told in any words
            return any(re.search(x, piece, re.IGNORECASE) for x in own["says"]) or (
                acts and self._act_told(piece, means_only=True) is not None)

        def bare(piece: str) -> bool:
            return answer_polarity(piece) is not None and len(tokenize(piece)) <= 4

        def elsewhere(piece: str) -> bool:  # read as another item's subject, or told of another act ("I tried to stop")
            return bool(({c for c, _ in patient_findings(piece)} & risk) - set(own["concepts"])) or any(
                re.search(x, piece, re.IGNORECASE) for x in own.get("not", ()))

        def own_concept(piece: str) -> bool:
            return bool({c for c, _ in patient_findings(piece)} & set(own["concepts"]))

        def own_told(piece: str) -> bool:  # the item's own concept affirmed: its answer, whatever else it names ("When I
            # was 19 I cut my wrists with a knife" is a past self-harm and a means: stop 48's review, M2)
            return any(c in own["concepts"] and not negated for c, negated in patient_findings(piece))

        # never a clause read as another item's subject; where a clause says the item's own words, a clause that reads
        # as no risk item is kept only after it ("No plan as such, but I have been saving up my tablets": a preparation
        # told in words the item's list lacks is never cut from the plan's line, stop-41 review M2), not before it
        # ("It should have been me, without any plan")
        first = next((k for k, p in enumerate(pieces) if says(p)), None)
        kept = [p for k, p in enumerate(pieces)
                if says(p) or bare(p) or own_told(p) or (not elsewhere(p) and (first is None or k > first or own_concept(p)))]
        if not kept:
            return ""
        if kept == pieces:
            return quote
        text = " ".join(_end(k) if i < len(kept) - 1 else k for i, k in enumerate(kept))
        text = re.sub(r"^(?:but|though|although)\s+", "", text, flags=re.IGNORECASE)
        return f'{prefix}"{text[:1].upper()}{text[1:]}"'

    def _follow_up_lines(self, section: str, used: set[str]) -> list[str]:
        """What the follow-up of a disclosure (``disclosure_follow_up``) drew out, for the note's ``section`` ("hpi" or
        "risk"): each item asked, under its label, quoted on its subject only (``quotes.subject_cues``); an item of the
        risk assessment asked and not answered says so, one of the present illness is left out."""
        f = self.findings
        out = []
        filed: set[str] = set()  # an item two rules share (the weapon question) filed once
        for rule in self.script["disclosure_follow_up"]["rules"]:
            for item in rule["items"]:
                if item.get("section", "hpi") != section or item["key"] not in f.answers or item["key"] in filed:
                    continue
                filed.add(item["key"])
                quote = self._risk_item_quote(item["key"], used) if section == "risk" else self._quote(item["key"], used)
                label = item["label"].replace("them", self._object())
                if quote:
                    out.append(_end(f"{label}: {quote}"))
                elif section == "risk":
                    out.append(f"{label}: {self.script['risk_follow_up']['no_answer']}.")
        return out

    def _risk_item_quote(self, key: str, used: set[str]) -> str:
        """The answer to a risk item of a disclosure's follow-up as the note's risk assessment quotes it, or "" (written
        'asked, no direct answer')."""
        f = self.findings
        quote = self._quote(key, used)
        # a risk item's answer only: never a clause read as another risk item's subject ("I didn't have any wish to
        # die" under the action on a belief, hw-033); a bare "No, not that I know of" answers it
        quote = self._on_item(key, quote) if quote else ""
        reply = f.answers[key]
        if not quote and answer_polarity(reply) is not None:
            first = next((p.strip() for p in split_sentences(reply) if p.strip()), reply).rstrip(".")
            teller = f.told_by.get(key)
            quote = f'{self._voice()[1].capitalize()} {teller} says: "{first}"' if teller else f'"{first}"'
        return quote

    def _others_risk_unanswered(self) -> bool:
        """Whether the patient was asked what they have done about a belief about others (``risk_to_others_unanswered``
        of the plan: the action on a persecutory belief) and gave no answer on it. A risk that cannot be assessed is
        planned for as if present, as an unanswered question about suicidal thoughts is (``_risk_unanswered``)."""
        conf = self.script["plan"]["risk_to_others_unanswered"]
        answers = self.findings.answers
        if conf["key"] not in answers or self._risk_item_quote(conf["key"], set()):
            return False
        # the belief itself denied on further questioning ("No, I don't think anyone's against me", hw-033): no belief
        # about others to act on
        belief = next((p for p in split_sentences(answers.get(conf["unless_denied"], "")) if p.strip()), "")
        return answer_polarity(belief) != "no"

    def _weapon_told(self) -> tuple[str, list[dict[str, Any]]] | None:
        """The sentence of the reply to the weapon question that tells a weapon kept to hand, and the means kinds it
        names (``plan.weapon_to_hand``: a kind's patterns or the entry's own, no negation before them); None when
        none was told."""
        conf = self.script["plan"]["weapon_to_hand"]
        kinds = [k for k in self.script["risk_follow_up"]["means"]["kinds"] if k["name"] in conf["kinds"]]
        for sentence in split_sentences(self.findings.answers.get(conf["key"], "")):
            sentence = sentence.strip()
            named = [k for k in kinds if self._tells(sentence, k["patterns"])]
            if named or (sentence and self._tells(sentence, conf["patterns"])):
                return sentence, named
        return None

    def _means_kinds(self) -> list[dict[str, Any]]:
        """The kinds of means told (``risk_follow_up.means.kinds``): a kind's patterns in a reply to the risk
        follow-up or with the disclosure (no negation before them, once the risk was followed up), or its record
        sign (a firearm) read in any reply; in the file's order."""
        conf = self.script["risk_follow_up"]
        f = self.findings
        replies = [f.answers.get(i["key"], "") for i in conf["items"]] + [f.present.get(c, "") for c in conf["after"]]
        sentences = [p.strip() for r in replies for p in split_sentences(r) if p.strip()] if self.risk_followed else []
        signs = load_critical_actions().signs([reply for _, reply in f.replies])
        return [
            k for k in conf["means"]["kinds"]
            if k.get("sign") in signs or any(self._tells(p, k["patterns"]) for p in sentences)
        ]

    def _means_told(self) -> str | None:
        """The patient's sentence that names a means of harm they have (stored tablets, a rope, a weapon), told in
        answer to the risk follow-up or with the disclosure (``risk_follow_up.means``), with no negation before it."""
        conf = self.script["risk_follow_up"]
        f = self.findings
        keys = sorted((i["key"] for i in conf["items"]), key=lambda k: k != "risk:means")  # the answer about means first
        replies = [f.answers.get(k, "") for k in keys] + [f.present.get(c, "") for c in conf["after"]]
        for reply in replies:
            for sentence in split_sentences(reply):
                sentence = sentence.strip()
                if sentence and self._tells(sentence, conf["means"]["patterns"]) and self._speech(sentence):
                    return sentence
        return None

    def _risk_disclosures(self) -> list[str]:
        """The risks a reply disclosed under any question (``risk_disclosures``: an overdose, a knife, threats to share
        pictures), each once, in the patient's words when they are the patient's own speech."""
        conf = self.script["risk_disclosures"]
        speech = self.script["quotes"]["speech"]
        first = set(speech["first_person"])
        sentences = [p.strip() for _, reply in self.findings.replies for p in split_sentences(reply) if p.strip()]
        out = []
        def own_speech(sentence: str) -> bool:
            return bool(set(tokenize(sentence)) & first) and not any(re.search(x, sentence, re.IGNORECASE) for x in speech["not_said"])

        for kind in conf["kinds"]:
            if kind.get("ages") and self.walk_in.age_group not in kind["ages"]:
                continue
            telling = [p for p in sentences if self._tells(p, kind["patterns"])]
            if not telling:
                continue
            # the patient's own sentence when one tells it ("I've had a couple of fights this year", not "Robbery, bit
            # of drug dealing" named without a quote: test-v2-0169)
            told = next((p for p in telling if own_speech(p)), telling[0])
            own = own_speech(told)
            out.append(f'{kind["label"]}: "{told}"' + ("" if told[-1] in ".!?" else ".") if own else f"{kind['label']}: disclosed in the interview.")
        return out

    def _risk_results(self) -> list[str]:
        """The results on file that carry a suicide risk (``risk_results``: a C-SSRS naming a method or an
        attempt), as the risk section states them."""
        conf = self.script["risk_results"]
        out = []
        for name, result in self.findings.exam_results:
            # told with no negation before it in its own clause: "no method, intent or plan" names none (hw-039)
            if any(e in name.lower() for e in conf["exams"]) and any(
                self._tells(clause, conf["patterns"]) for clause in re.split(r"[;:.]\s*", result)
            ):
                out.append(conf["sentence"].format(exam=name, result=result.strip().rstrip(".")))
        return out

    def _results_to_read(self) -> list[str]:
        """A sentence for each result on file with several values flagged abnormal (``results_to_read``): the
        panel and its flagged analytes, read in the assessment rather than only listed under Investigations."""
        conf = self.script["results_to_read"]
        flag = re.compile(r"\b(?:" + "|".join(map(re.escape, conf["flags"])) + r")\b", re.IGNORECASE)
        out = []
        for name, result in self.findings.exam_results:
            if result == UNREMARKABLE:
                continue
            analytes = []
            for piece in re.split(r"[,;]", result):
                # a band of the normal range ("low average", "high average") flags nothing (``not_flags``)
                bare = re.sub("|".join(map(re.escape, conf["not_flags"])), " ", piece, flags=re.IGNORECASE)
                if flag.search(bare) and (m := re.match(r"\s*([A-Za-z][A-Za-z0-9 /&-]*?)\s*(?:[<>]?\s*\d|:|$)", piece)):
                    word = m.group(1).strip()
                    if word and word.lower() not in {w.lower() for w in conf["flags"]}:
                        analytes.append(word)
            if len(analytes) >= conf["min_flagged"]:
                out.append(conf["sentence"].format(exam=self.script["exam_names"].get(name, name), analytes=_join(analytes)))
        return out

    def _results_weighed(self) -> list[str]:
        """The results on file the assessment names beside the diagnosis (``results_weighed``): a rating scale's
        score in an abnormal band ("PHQ-9 total 22/27 (severe)", "MMSE total 14/30 (moderate impairment)") or a
        value flagged out of range, each once; not a panel ``_results_to_read`` already names, a result in a normal
        band ("low risk", "within reference range") or a result not on file."""
        conf = self.script["results_weighed"]
        house = self.script["exam_names"]
        read = set()
        for line in self._results_to_read():
            read |= {n for n, _ in self.findings.exam_results if f"The {house.get(n, n)} " in line}
        out = []
        for name, result in self.findings.exam_results:
            if result == UNREMARKABLE or name in read:
                continue
            vitals = self._vitals_out_of_range(name, result)
            if vitals:  # bare values, read against their ranges (a pulse of 44 is abnormal though no word says so)
                out.append(f"{house.get(name, name)} {_join(vitals)}")
                continue
            # a scale is read by the catalog's own bands (one reading of a band: exams.json), any other result by
            # the flag words it carries
            banded = self._band_reading(name, result)
            if banded is not None:
                if banded:
                    out.append(f"{house.get(name, name)} {result.strip().rstrip('.').replace(';', ',')}")
                continue
            low = result.lower()
            if any(re.search(p, low) for p in conf["normal"]):
                continue
            if any(re.search(p, low) for p in conf["abnormal"]):
                out.append(f"{house.get(name, name)} {result.strip().rstrip('.').replace(';', ',')}")
        return out

    def _band_reading(self, name: str, result: str) -> bool | None:
        """Whether a scale's result is in an abnormal band, read from the exam catalog's own bands (exams.json: each
        band's label and whether it is 'normal'), the band named in brackets in the result ("total 22/27 (severe)");
        None for an exam without bands or a result naming none of them (read by its flag words instead)."""
        exam = self.kb.resolve_exam(name)
        if exam is None or not exam.bands:
            return None
        low = result.lower()
        unremarkable = self.script["results_weighed"]["normal"]
        for band in sorted(exam.bands, key=lambda b: -len(b.label)):
            if re.search(r"\(\s*" + re.escape(band.label.lower()) + r"\s*[);,]", low):
                # a band is abnormal when the catalog says so and its own label names no unremarkable degree: a screen
                # "(low risk)" is no abnormal result to weigh beside the diagnosis, though the catalog sets it apart
                # from a negative screen (the risk section reads what the screen found)
                return not band.normal and not any(re.search(p, f"({band.label.lower()})") for p in unremarkable)
        return None

    def _vitals_out_of_range(self, name: str, result: str) -> list[str]:
        """The vital signs of ``result`` outside their reference range (``vital_bands``), each with its band word
        ("pulse 44/min (low)"); empty for another exam or values all in range."""
        conf = self.script["vital_bands"]
        if name not in conf["exams"]:
            return []
        known = load_critical_actions().measures
        age = self.walk_in.age
        child = age is not None and age <= conf["child_max_age"]
        out = []
        for measure, band in conf["measures"].items():
            if measure not in known:
                continue
            found = known[measure].values(result)
            if not found:
                continue
            low, high = band["child"] if child and "child" in band else (band.get("low"), band.get("high"))
            worst_low, worst_high = min(found), max(found)
            if low is not None and worst_low < low:
                out.append(conf["band"].format(label=band["label"], value=worst_low, unit=band["unit"], word=conf["words"]["low"]))
            elif high is not None and worst_high > high:
                out.append(conf["band"].format(label=band["label"], value=worst_high, unit=band["unit"], word=conf["words"]["high"]))
        return out

    def _method_told(self, text: str) -> bool:
        """Whether a sentence of the reply tells suicidal thoughts with a method or preparations
        (``risk_follow_up.said_kinds``, kinds of ``risk_disclosures``), with no negation before it, or tells a
        preparatory act (``_act_told``)."""
        kinds = [k for k in self.script["risk_disclosures"]["kinds"] if k["label"] in self.script["risk_follow_up"]["said_kinds"]]
        speaker = re.match(r"^\s*(Patient|[A-Z][a-z]+)(?: \([^)]*\))?:\s*", text)
        reply = text[speaker.end():] if speaker else text
        sentences = [p.strip() for p in split_sentences(reply) if p.strip()]
        return any(self._tells(p, k["patterns"]) for k in kinds for p in sentences) or self._act_told(reply) is not None

    def _act_told(self, text: str, means_only: bool = False) -> str | None:
        """The first sentence of ``text`` that tells a preparatory act (``risk_follow_up.acts``): a clause the shared
        parse reads as the patient's own and not negated, holding a verb of acting and a means of one of the act's
        means kinds ("I took my father's handgun from his nightstand drawer", "I tied a rope to the beam"); None if
        none. A means named with no act ("My dad keeps a gun in the drawer") or an act denied ("I didn't take the
        gun") is none. ``means_only``: a clause of the patient's own naming such a means, with or without a verb of
        acting ("I confirm the handgun episode"): in reply to the plan question it is the plan's answer, quoted."""
        conf = self.script["risk_follow_up"]
        acts = conf["acts"]
        patterns = [p for k in conf["means"]["kinds"] if k["name"] in acts["kinds"] for p in k["patterns"]]
        speaker = re.match(r"^\s*(Patient|[A-Z][a-z]+)(?: \([^)]*\))?:\s*", text)
        reply = text[speaker.end():] if speaker else text
        for sentence in (p.strip() for p in split_sentences(reply) if p.strip()):
            tokens = tokenize(sentence)
            for c in clauses(sentence):
                if c.subject != "patient" or is_negated(sentence, c.start, c.end):
                    continue
                words = " ".join(tokens[c.start:c.end])
                if (means_only or any(re.search(rf"\b{re.escape(v)}\b", words) for v in acts["verbs"])) and any(
                        re.search(p, words, re.IGNORECASE) for p in patterns):
                    return sentence
        return None

    def _means_answered(self) -> str | None:
        """The sentence naming a means of the acts' kinds in reply to the plan question, or to another of
        ``acts.means_answers`` when it names no past time (``means_past``) and the suicidal-thoughts answer does not
        deny them: "When I was 19 I cut my wrists with a knife. Nothing since." under a denial is a past attempt, no
        current method (stop 48's review, M2); None if none."""
        acts = self.script["risk_follow_up"]["acts"]
        f = self.findings
        denied = "suicidal_ideation" in f.denied or answer_polarity(f.answers.get("suicidal_ideation", "")) == "no"
        for key in acts["means_answers"]:
            said = self._act_told(f.answers.get(key, ""), means_only=True)
            if not said:
                continue
            if key in acts["means_current"]:
                return said
            if not denied and not any(re.search(p, said.lower()) for p in acts["means_past"]):
                return said
        return None

    def _tells(self, sentence: str, patterns: list[str]) -> bool:
        """Whether ``sentence`` tells what one of ``patterns`` matches with no negation before it."""
        negations = set(self.script["risk_disclosures"]["negations"])
        for pattern in patterns:
            found = re.search(pattern, sentence, re.IGNORECASE)
            if found and not set(_without_pseudo_negations(tokenize(sentence[: found.start()]))) & negations:
                return True
        return False

    def _provisional(self, lead: Hypothesis) -> str:
        """A sentence keeping ``lead`` provisional when the longest duration the patient gave is shorter than its
        minimum duration (knowledge ``durations.json``), else nothing."""
        need = load_durations().minimum_days(lead.code, self.walk_in.age)
        said = self._illness_days()
        # a time under a day ("for two hours") is how long something lasts in a day, not the illness's course:
        # "symptoms for about 0.083 days so far" (test-v2-0430, stop 34's reading)
        if need is None or said is None or said >= need or said < 1:
            return ""
        return " " + self.script["provisional_diagnosis"]["sentence"].format(said=_days(said), need=_days(need))

    def _object(self) -> str:
        """The patient's object pronoun (her, him, them)."""
        return {"she": "her", "he": "him", "they": "them"}[self._voice()[0]]

    def _voice(self) -> tuple[str, str]:
        """The patient's pronoun and its possessive (she/her, he/his, they/their)."""
        pronoun = {"female": "she", "male": "he"}.get(self.walk_in.sex or "", "they")
        return pronoun, {"she": "her", "he": "his", "they": "their"}[pronoun]

    def _verb(self, verb: str) -> str:
        """``verb`` (a third-person singular form) as the patient's pronoun takes it ("denies", "they deny")."""
        if self._voice()[0] != "they":
            return verb
        return {"describes": "describe", "says": "say", "relates": "relate", "reports": "report", "denies": "deny", "adds": "add",
                "gives": "give", "was": "were", "has": "have", "is": "are"}.get(verb, verb)

    def _retell(self, sentence: str) -> str | None:
        """``sentence`` retold in the third person ("In October my family first noticed a change" is "in October
        her family first noticed a change"), its opening discourse words dropped; ``None`` when it cannot be retold
        plainly (it speaks to the doctor or of "we", or "I" comes with a verb form ``narrative.verbs`` does not
        list): the note then quotes it."""
        conf = self.script["note_writing"]["narrative"]
        pronoun = self._voice()[0]
        subject = conf["subject"][pronoun]
        text = sentence.strip().rstrip(".!")
        low = text.lower()
        changed = True
        while changed:  # "Well, as I said, ..." loses both openers
            changed = False
            for opener in sorted(conf["openers"], key=len, reverse=True):
                if re.match(rf"{re.escape(opener)}\b[,.]?\s+", low) and len(low) > len(opener) + 3:
                    cut = re.match(rf"{re.escape(opener)}\b[,.]?\s+", low).end()
                    text, low, changed = text[cut:], low[cut:], True
                    break
        for closer in conf["closers"]:
            if low.endswith(closer):
                text, low = text[: -len(closer)], low[: -len(closer)]
        tokens = re.findall(r"[A-Za-z']+|[^A-Za-z'\s]+|\s+", text)
        words = [t.lower() for t in tokens if t.strip() and t[0].isalpha()]
        if not words or set(words) & set(conf["keep_quoted_words"]) or "?" in text or '"' in text:
            return None
        third, unchanged = conf["verbs"]["third_singular"], set(conf["verbs"]["unchanged"])
        adverbs = set(conf["adverbs"])
        out: list[str] = []
        expect_verb = False
        for t in tokens:
            low_t = t.lower()
            if not t.strip() or not t[0].isalpha():
                out.append(t)
                continue
            if expect_verb and low_t not in adverbs:
                expect_verb = False
                if low_t in ("am", "was"):
                    t = subject[low_t]
                elif low_t in unchanged or (low_t.endswith("ed") and len(low_t) > 3):
                    pass
                elif low_t in third:
                    t = third[low_t] if pronoun != "they" else low_t
                else:
                    return None  # "I reckon", "I used": no form listed, kept in the patient's words
            elif low_t in subject and low_t not in ("am", "was"):
                if low_t == "i":
                    expect_verb = True
                t = subject[low_t]
            out.append(t)
        told = "".join(out).strip()
        return told[0].lower() + told[1:] if told else None

    def _phrase(self, concept: str, used: set[str]) -> str:
        """The patient's own phrase for ``concept``: the sentence that said it, or, when it is longer than
        ``narrative.phrase_max_words`` words, its shortest clause within them that still names it ("I worry about
        anything and everything")."""
        limit = self.script["note_writing"]["narrative"]["phrase_max_words"]
        for sentence in split_sentences(self.findings.present.get(concept, "")):
            sentence = _without_opener(sentence.strip(), self.script["quotes"]["openers"])  # "Mood-wise, nervous"
            if not sentence or sentence.lower() in used or concept not in self._stated(sentence) or not self._plain(sentence):
                continue
            # cut at commas and semicolons, never before a "but" ("it'd be easier not to wake up, but I wouldn't do
            # anything" keeps its denial of intent)
            parts = [p.strip(" ,;") for p in re.split(r"[,;]\s+(?!but\b)|\s+-\s+", sentence)]
            # a clause cut after its joining word is quoted without it: "and I'm on top of the world" begins mid-sentence
            # ("so"/"or" only before a subject: "so low I can barely get out of bed" keeps its "so", s51 review)
            narrative = self.script["note_writing"]["narrative"]
            subject_only = narrative["clause_joins_before_subject"]
            joins = "|".join(map(re.escape, [j for j in narrative["clause_joins_dropped"] if j not in subject_only]))
            before = "|".join(map(re.escape, subject_only))
            drop = rf"^(?:(?:{joins})\s+|(?:{before})\s+(?={narrative['clause_subject']}))"
            parts = [re.sub(drop, "", p, flags=re.IGNORECASE) for p in parts]
            fitting = sorted((p for p in parts if p and concept in self._stated(p) and self._plain(p)), key=len)
            # the whole sentence when it is short ("I'm really down, day in, day out"), else its shortest clause
            phrase = sentence if len(sentence.split()) <= limit else next((p for p in fitting if len(p.split()) <= limit), None)
            if phrase:
                used.add(sentence.lower())
                last = phrase.split()[-1]
                return phrase[:-1] if phrase[-1] in ".!" and "." not in last[:-1] else phrase  # "3 a.m." keeps its stop
        return ""

    def _present_illness(self, symptoms, mixed, negatives, clashing, said, used) -> str:
        """The history of the present illness as a clinician writes it: the findings in clinical words with a few
        of the patient's phrases, the onset, context and impact retold in the third person from what the patient
        said, and the pertinent negatives in one sentence (``note_writing.narrative``)."""
        conf = self.script["note_writing"]["narrative"]
        pronoun, possessive = self._voice()
        p = pronoun.capitalize()
        out: list[str] = []
        if symptoms:
            terms = list(dict.fromkeys(self._term(c) for c in symptoms))
            # commas between the findings: no finding's words run into the next one's
            out.append(f"{p} {self._verb('describes')} {_join(terms)}.")
            # a few of the patient's phrases, in a sentence of their own (a negation inside a quote must not reach
            # the findings listed)
            phrases = []
            for c in dict.fromkeys(symptoms):
                if len(phrases) >= self.script["quotes"]["own_words"]:
                    break
                phrase = self._phrase(c, used)
                if phrase:
                    phrases.append(f'"{phrase}"')
            if phrases:
                out.append(_end(f"In {possessive} words, {_join(phrases)}"))
        retold: set[str] = set()
        for key in ("hpi:1", "hpi:2", "hpi:3"):
            quote = said(key)
            if not quote:
                continue
            teller = re.match(r'^(\w+ \w+) says: (".*")$', quote)
            if teller:  # the informant's account ("His father says of the onset: ..."), in their words
                out.append(f"{conf['quoted_frames'][key].format(p=teller.group(1))} {teller.group(2)}")
                continue
            sentences = [x for x in split_sentences(quote.strip().strip('"')) if x.strip()]
            told = [self._retell(x) for x in sentences]
            if all(told) and all(self._retold_key(t) in retold for t in told):
                continue  # told under an earlier heading ("over the following weeks he stopped going to the club")
            fragments = conf["fragments"]
            verbs = set(fragments["verbs"]) | set(conf["verbs"]["unchanged"]) | set(conf["verbs"]["third_singular"].values())
            for i, t in enumerate(told):
                words = set(re.findall(r"[a-z']+", (t or "").lower()))
                if not t or words & (set(fragments["subjects"]) | verbs) or any(w.endswith("ed") for w in words):
                    continue
                if re.match(fragments["person_subject"], t, re.IGNORECASE):
                    continue  # "her husband puts the start late in July" has a subject: no lead before it (test-v2-0454)
                lead = next((lead for cue, lead in fragments["leads"].get(key, ()) if cue in words or not cue), None)
                told[i] = f"{lead} {t}" if lead and i == 0 else None
            if all(told):
                retold.update(self._retold_key(t) for t in told)
                frame = conf["frames"][key].format(p=p)
                frame = frame.split(" ", 1)[0] + " " + " ".join(self._verb(w) for w in frame.split(" ")[1:])
                out.append(f"{frame} {told[0]}." + "".join(f" {t[0].upper()}{t[1:]}." for t in told[1:]))
            else:
                frame = conf["quoted_frames"][key].format(p=p)
                frame = frame.split(" ", 1)[0] + " " + " ".join(self._verb(w) for w in frame.split(" ")[1:])
                out.append(f"{frame} {quote}")
        told_in = [self._told_in(c, self.script["note_writing"]["own_words_only"]) for c in clashing]
        def told_before(q: str) -> bool:  # quoted as a phrase, or retold under the onset, context or impact
            pieces = [x for x in split_sentences(q.strip()) if x.strip()]
            return q.strip().lower() in used or all(self._retold_key(self._retell(x) or "") in retold for x in pieces)

        for i, quote in enumerate(q for q in dict.fromkeys(told_in) if not told_before(q)):
            out.append(f'{p} {"also " + self._verb("says") if not i else self._verb("adds")}, "{quote.strip()}"')
            used.update(x.strip().lower() for x in split_sentences(quote))  # quoted once, not again below
        if mixed:
            out.append(f"{possessive.capitalize()} answers about {_join(self._term(c) for c in mixed)} were inconsistent (affirmed, then denied).")
        if negatives:
            out.append(f"{p} {self._verb('denies')} {_join(self._term(c) for c in negatives)}.")
        return " ".join(_end(x) for x in out)

    def _unread_on_subject(self, key: str) -> bool:
        """Whether the reply to the risk question ``key``, read as neither affirming nor denying, speaks of its subject
        (``risk_unread.subject_cues``, without the cue's false friends of ``quotes.cue_false_friends``) and is not only
        an earlier answer said again: "As I said, ... firefighters cut me out" asked about self-harm is no answer.
        A reply is off the subject only when it is a repeat, or when each of its cue words sits inside a false friend:
        a reply with no cue word at all ("No, never.", "Once, years ago, but not now.") answers the question put, and
        a bare yes or no always does (stop 48's review, test-v2-0255: "No. I've got things I want to do." was erased)."""
        reply = self.findings.answers.get(key, "")
        if self._bare_answer(key):
            return True
        if self._repeat_only(key):
            return False
        cues = self.script["risk_unread"]["subject_cues"].get(key, ())
        return _cue_said(reply, cues, self.script["quotes"]["cue_false_friends"]) is not False

    def _bare_answer(self, key: str) -> str:
        """The first sentence of ``key``'s reply when, without its opener, it is a yes or a no: a yes or no said again
        is still the answer ("Like I said, no. I've got things I want to do.", test-v2-0255); else empty."""
        reply = self.findings.answers.get(key, "")
        first = next((x.strip() for x in split_sentences(reply) if x.strip()), "")
        bare = _without_opener(first, self.script["quotes"]["openers"]).strip()
        return first.rstrip(".") if bare and answer_polarity(bare) is not None else ""

    def _retold_key(self, sentence: str) -> str:
        """``sentence`` as compared with one retold before: lower case, without the hedges that change nothing of what
        it tells (``note_writing.retold_hedges``: "it started about four days ago" is "It started Four days ago")."""
        hedges = set(self.script["note_writing"]["retold_hedges"])
        return " ".join(t for t in tokenize(sentence) if t not in hedges)

    def _answers_unread(self, used: set[str]) -> str:
        """The present illness's sentence for the symptom questions answered on their subject in words the reader
        reads as neither affirming nor denying the finding (``note_writing.answers_unread``): each quoted under its
        topic ("sleep, \"I'm dozy on the sofa, then the minute I get into bed my brain switches on\""), in the
        patient's words only; empty when there is none."""
        conf = self.script["note_writing"]["answers_unread"]
        f = self.findings
        lex = self.lexicon
        n = conf["min_stem"]
        ignored = {w[:n] for w in conf["ignored"]}
        openers = self.script["quotes"]["openers"]
        questions = {}
        for (question, reply), key in zip(f.replies, f.reply_keys):
            questions.setdefault((key, reply), question)
        items = []
        for key, reply in f.answers.items():
            if len(items) >= conf["max_items"]:
                break
            if key not in lex or lex.get(key).kind not in ("symptom", "sign") or key in conf["except"]:
                continue
            if key in f.present or key in f.denied or key not in conf["topics"] or not reply.strip() or self._non_answer(reply):
                continue
            asked = {w[:n] for w in re.findall(r"[a-z']+", questions.get((key, reply), "").lower()) if len(w) >= n} - ignored
            before = self._said_before(key, reply)
            teller = f.told_by.get(key)
            kept = []
            for piece in split_sentences(reply):
                bare = _without_opener(piece.strip(), openers).strip()
                if not bare or bare.endswith("?") or not self._plain(piece, informant=bool(teller)):
                    continue
                if self._normal(bare) in before or bare.lower() in used or bare.lower().rstrip(".") in used:
                    continue
                if any(lex.get(c).kind in ("symptom", "sign") and c in f.present for c in self._stated(bare)):
                    continue  # the reader read a finding in it: written as that finding
                words = {w[:n] for w in re.findall(r"[a-z']+", bare.lower()) if len(w) >= n}
                topic_words = conf["topic_words"].get(conf["topics"].get(key, ""), ())
                # a topic the question's own word only names ("childhood") needs a word of the symptom: "My childhood
                # was fine" asked of childhood inattention is no answer on it (stop 50: pasted into the HPI)
                asked_here = set() if conf["topics"].get(key, "") in conf["topic_words_only"] else asked
                if not words & asked_here and not any(re.search(rf"\b{re.escape(w)}", bare.lower()) for w in topic_words):
                    continue  # drifted off the question ("I'm a chef" asked about restlessness)
                kept.append(bare.rstrip("."))
            if not kept:
                continue
            used.update(k.lower() for k in kept)
            topic = conf["topics"].get(key)
            quote = ". ".join(kept[:2])
            if teller:
                his = {"female": "her", "male": "his"}.get(self.walk_in.sex or "", "their")
                quote = f"{quote}\" ({his} {teller})"
                items.append(conf["item"].format(topic=topic, quote=quote).rstrip('"'))
            else:
                items.append(conf["item"].format(topic=topic, quote=quote))
        text = conf["sentence"].format(items="; ".join(items))
        return _end(text[:1].upper() + text[1:]) if items else ""

    def _one_word_mood(self, bare: str) -> bool:
        """Whether the reply to the mood question (opener left out) gives the mood in one word of its own, whatever
        the word ("Embarrassed.", "I'd say trapped", "Detached, I suppose": ``note_writing.mood_one_word``): one word
        left once the frame and hedge words are taken out, and no finding of another domain read in it ("I feel fat")."""
        return self._mood_word(bare) is not None

    def _mood_word(self, bare: str) -> str | None:
        """The one word of ``bare`` that gives the mood (``_one_word_mood``), the frame and hedge words taken out
        ("Just trapped." -> "trapped"), or None; a word that gives no mood ('not_moods': "Just whatever") is none."""
        conf = self.script["note_writing"]["mood_one_word"]
        rest = [t for t in tokenize(bare) if t not in conf["fillers"]]
        domains = {self.lexicon.get(c).domain for c in self._stated(bare)}
        if len(rest) == 1 and rest[0].isalpha() and rest[0] not in conf.get("not_moods", ()) and not domains - set(conf["domains"]):
            said = re.search(rf"\b{re.escape(rest[0])}\b", bare, re.IGNORECASE)  # as said: "Embarrassed", not "embarrassed"
            return said.group(0) if said else rest[0]
        return None

    def _mental_state(self, mood: str, symptoms: list[str], expected: set[str]) -> list[str]:
        """The mental state examination's sentences, each domain filled from all the encounter gave it
        (``note_writing.mental_state``): the mood given, or the mood question's non-answer in the patient's words;
        thought content affirmed and the thought denials asked of everyone; perception affirmed, denied, or asked
        with no clear answer; cognition from the patient's account (affirmed or denied) and from the cognitive tests
        on file. A domain nothing was heard about is left out, never written as normal."""
        f = self.findings
        lex = self.lexicon
        writing = self.script["note_writing"]
        state = writing["mental_state"]
        term = self._term
        mse = [seen] if (seen := self._observed()) else []
        if mood:
            mse.append(_end(f"Mood described as {mood}"))
        else:
            unsure = self._first_said(writing["mood_said"], non_answer=True)
            mse.append(_end(state["mood_unanswered"]) if unsure else "Mood not described.")
        thought = writing["thought_content"]
        content = [term(c) for c in symptoms if lex.get(c).domain in thought["domains"] and c not in thought["except"]]
        dropped = set(self.script["risk_results"]["denials_dropped"]) if self._risk_results() else set()
        denied = [
            term(c) for c in state["thought_denials"]
            if c in lex and c in f.denied and c not in f.present and c not in dropped
            and (c in state["denials_always"] or c in expected)
        ]
        parts = list(dict.fromkeys(content))
        if denied:
            parts.append(state["thought_denied"].format(terms=_join(denied, "or")))
        if parts:
            mse.append(f"Thought content: {'; '.join(parts)}.")
        percept = [term(c) for c in ("auditory_hallucinations", "visual_hallucinations") if c in f.present]
        if percept:
            mse.append(f"Perception: reports {'; '.join(percept)}.")
        elif "auditory_hallucinations" in f.denied:
            mse.append("Perception: denies hallucinations.")
        else:
            asked = [c for c in state["perception_questions"] if c in f.answers and c not in f.denied and c not in f.present]
            unsure = self._first_said(asked, non_answer=True)  # "I don't really know"; a drift elsewhere is no answer to quote
            if unsure:
                mse.append(_end("Perception: " + state["perception_unread"]))
        findings = state["cognition_findings"]
        cognition = [term(c) for c in findings if c in f.present]
        if cognition:
            cognition = ["; ".join(cognition)]
        told = [term(c) for c in findings if c in lex and c in f.denied and c not in f.present and c in expected]
        if told:
            cognition.append(state["cognition_denied"].format(terms=_join(told, "or")))
        house = self.script["exam_names"]
        tests = re.compile(r"(?<![A-Za-z])(?:" + "|".join(map(re.escape, state["cognitive_tests"])) + r")(?![A-Za-z])", re.IGNORECASE)
        results = [
            r if tests.match(r) else f"{house.get(n, n)} {r}"
            for n, r in f.exam_results
            if r != UNREMARKABLE and tests.search(house.get(n, n))
        ]
        if results:
            cognition.append(state["cognition_tested"].format(results="; ".join(results)))
        if cognition:
            mse.append(_end("Cognition: " + "; ".join(cognition)))
        return mse

    def _observed(self) -> str:
        """What the doctor saw at the visit, for the mental state (``note_writing.mental_state.observed``): the person
        of the walk-in observation, who came with them, and an informant who gave most or part of the history (read
        from who gave the replies); empty when the walk-in names no person."""
        conf = self.script["note_writing"]["mental_state"]["observed"]
        first = (self.findings.walk_in or "").split("\n")[0]
        person = re.search(conf["person"], first, re.IGNORECASE)
        if not person:
            return ""
        came = re.search(conf["accompanied"], first, re.IGNORECASE)
        company = conf["with"].format(who=came.group(1).strip()) if came else conf["alone"]
        spoke = self.findings.speakers
        share = sum(1 for s in spoke if s) / len(spoke) if spoke else 0.0
        history = "" if not came or not share else conf["most"] if share >= conf["most_share"] else conf["part"]
        # "an 8-year-old girl", "an 11-year-old", "an 82-year-old man": the article as the number is said
        article = "an" if re.match(r"(?:8|11-|18-)", person.group(1)) else "a"
        return conf["sentence"].format(person=f"{article} {person.group(1)}", company=company, history=history)

    def _first_said(self, keys: list[str], non_answer: bool | None) -> str:
        """The first sentence of the first reply to one of ``keys`` (without its opener): only a non-answer
        ("I'm not sure") when ``non_answer`` is True, any sentence when None; empty when there is none, or the reply
        repeats an answer given to another question."""
        f = self.findings
        openers = self.script["quotes"]["openers"]
        for key in keys:
            reply = f.answers.get(key, "").strip()
            if not reply or f.told_by.get(key) is not None:
                continue
            if non_answer and not self._non_answer(reply):
                continue
            first = next((x.strip() for x in split_sentences(reply) if x.strip()), "")
            if not first or (non_answer is None and self._normal(first) in self._said_before(key, reply)):
                continue
            return _without_opener(first, openers).rstrip(".")
        return ""

    def _informant_own(self, sentence: str) -> bool:
        """Whether an informant's ``sentence`` speaks of the informant's own life: in the first person and naming no
        one else ("I had panic attacks in my twenties"), not "I noticed he stopped eating" (``clauses_filed``)."""
        conf = self.script["note_writing"]["clauses_filed"]
        tokens = tokenize(sentence)
        first = set(self.script["quotes"]["speech"]["first_person"]) - {"we", "our", "us"}
        others = set(conf["other_person"]) | set(self.script["quotes"]["speech"]["person_nouns"])
        return any(t in first for t in tokens) and not any(t in others or t.split("'")[0] in others for t in tokens)

    def _affirmed_beside_denial(self, sentence: str) -> set[str]:
        """The findings ``sentence`` affirms in a clause of its own that denies no finding (``language.clauses``): "No,
        I live with my flatmates and I drink every day" affirms both; "No, there was no drug use according to me and my
        flatmates" affirms nothing, its flatmates inside the clause that denies."""
        tokens = tokenize(sentence)
        out: set[str] = set()
        for clause in clauses(sentence):
            found = patient_findings(" ".join(tokens[clause.start : clause.end]))
            if not any(negated for _, negated in found):
                out |= {c for c, negated in found if not negated}
        return out

    def _without_closer(self, sentence: str) -> str:
        """``sentence`` without the hedge it ends on (``narrative.closers``: "I'm destined for greatness, if that makes
        sense" says what "I'm destined for greatness" says)."""
        text = sentence.rstrip()
        end = text[-1] if text[-1:] in ".!" else ""
        body = text[: len(text) - len(end)]
        for closer in self.script["note_writing"]["narrative"]["closers"]:
            if body.lower().endswith(closer) and len(body) > len(closer) + 3:
                return body[: -len(closer)].rstrip() + end
        return sentence

    def _filed_clauses(self, lines: list[str], used: set[str]) -> list[str]:
        """``lines`` (the note's) with every sentence the patient or an informant said that the note neither quotes nor
        retells, and that affirms a finding or names a heading's topic, filed under the section its content belongs to
        (``note_writing.clauses_filed``): by the sentence's own topic, whichever question it answered; an informant's
        own history under theirs."""
        conf = self.script["note_writing"]["clauses_filed"]
        f = self.findings
        lex = self.lexicon
        sections = self.script["note_sections"]
        openers = self.script["quotes"]["openers"]
        text = " ".join(lines).lower()
        text_words = " ".join(tokenize(text))
        risk = set(conf["risk_concepts"])
        filed: dict[str, list[str]] = {}
        seen: set[str] = set()
        speakers = f.speakers + [""] * (len(f.replies) - len(f.speakers))
        his = {"female": "her", "male": "his"}.get(self.walk_in.sex or "", "their")
        keys = f.reply_keys + [""] * (len(f.replies) - len(f.reply_keys))
        family = set(sections["Family history"])
        protective: list[str] = []

        def sentences(reply: str) -> list[str]:
            # a risk denial's clause joined by "but" is filed on its own ("I've never had thoughts of killing myself,
            # but my stepdad used to hit me when I was little": the childhood abuse, s51 review)
            out: list[str] = []
            for sentence in split_sentences(reply):
                if any(negated and c in risk for c, negated in patient_findings(sentence)):
                    parts = [p.strip() for p in re.split(conf["risk_denial_but"], sentence, flags=re.IGNORECASE) if p.strip()]
                    out += [p[0].upper() + p[1:] for p in parts]
                else:
                    out.append(sentence)
            return out

        for (_, reply), teller, key in zip(f.replies, speakers, keys):
            # the library's own sentence split: "I wake at 3 a.m. and lie there" is one sentence, not two
            for sentence in sentences(reply):
                bare = self._without_closer(_without_opener(sentence.strip(), openers).strip())
                norm = self._normal(bare)
                words = " ".join(tokenize(bare))
                if not bare or norm in seen or bare.endswith("?") or len(words.split()) < conf["min_words"]:
                    continue
                seen.add(norm)
                if norm in used or norm + "." in used or words in text_words:
                    continue  # quoted or retold already
                content = {w for w in words.split() if len(w) >= conf["content_min_letters"]}
                if not content or len(content - set(text_words.split())) < conf["new_share"] * len(content):
                    continue  # said again in other words ("I live with my partner, to be fair"): nothing new to file
                if self._non_answer(bare) or not self._statement(bare):
                    continue
                # asked of the family, the informant's first person is their own history ("I had panic attacks in
                # my twenties"); asked of the patient, it is what they saw ("I can hear the snoring from the landing")
                own = bool(teller) and key in family and self._informant_own(bare)
                if not own and not self._plain(bare, informant=bool(teller)):
                    continue
                affirmed = [c for c in self._stated(bare) if c in lex]
                # a denial ("No, there was no drug use according to me and my flatmates") is the denials' to write: a
                # sentence that answers "no" or denies a finding files only what a clause of it affirms with no
                # finding denied in that clause (the flatmates of a drug denial are no history of their own)
                denial = answer_polarity(bare) == "no" or any(negated for _, negated in patient_findings(bare))
                if denial:
                    affirmed = [c for c in affirmed if c in self._affirmed_beside_denial(bare)]
                if affirmed and set(affirmed) <= risk:
                    continue  # the risk assessment's own reading
                if any(negated and c in risk for c, negated in patient_findings(bare)):
                    # a risk denial is the risk assessment's, whatever else it names: "No, I've never had thoughts of
                    # ending my life, I've got my job to think about" is no occupation under personal history (stop 50);
                    # its clause of what keeps them going is the risk assessment's protective factor (s51 review)
                    if not teller:
                        for clause in re.split(r",\s*", bare.rstrip(".!")):
                            if any(re.search(p, clause, re.IGNORECASE) for p in conf["protective"]) and any(
                                re.search(p, clause, re.IGNORECASE) for p in conf["protective_ties"]
                            ) and not any(
                                negated for _, negated in patient_findings(clause)
                            ) and " ".join(tokenize(clause)) not in text_words:
                                protective.append(clause.strip())
                    continue
                writing = self.script["note_writing"]
                this_episode = any(re.search(x, bare, re.IGNORECASE) for x in writing["this_episode"])
                # this episode's event ("I was admitted yesterday") is no past history: it is the present illness's
                past = set(writing["past_only"]) if this_episode else set()
                heading = next((h for c in affirmed if c not in past for h, cs in sections.items() if c in cs), None)
                if heading is None and set(affirmed) & past:
                    heading = "History of present illness"
                if heading is None and any(lex.get(c).kind in ("symptom", "sign") for c in affirmed if c not in risk):
                    heading = "History of present illness"
                if heading is None:
                    heading = next(
                        (h for h, cues in conf["topic_cues"].items() if any(re.search(rf"\b{re.escape(c)}", words) for c in cues)),
                        None,
                    )
                if denial and not affirmed:
                    # a denial of a finding a history heading lists is that heading's pertinent negative ("Denies drug
                    # use"), in the patient's words, unless the note already names the finding
                    denied = [c for c, negated in patient_findings(bare) if negated and c in lex and c not in risk]
                    heading = next((h for c in denied for h, cs in sections.items() if c in cs), None)
                    terms = [self._term(c) for c in denied if any(c in sections[h] for h in sections)]
                    # it completes a heading already written (no line opened for a denial alone), once per finding
                    written = heading is not None and any(line.startswith(heading + ":") for line in lines)
                    if not written or any(t.lower() in text for t in terms):
                        continue
                    if len(filed.setdefault(heading, [])) < conf["max_per_heading"]:
                        filed[heading].append(conf["denied_sentence"].format(terms=_join(terms), quote=bare.rstrip(".!")))
                        used.add(norm)
                        text_words += " " + words
                        text += " " + " ".join(terms).lower()
                    continue
                if heading is None:
                    continue
                # the full stop goes, an abbreviation's own ("3 a.m.") stays
                quote = bare.rstrip("!") if re.search(r"\b(?:[a-z]\.){2,}$", bare, re.IGNORECASE) else bare.rstrip(".!")
                if own:
                    pronoun = {"mother": "her", "mum": "her", "mom": "her", "father": "his", "dad": "his"}.get(teller, "their")
                    heading = conf["informant_own_heading"]
                    quote = conf["informant_own_sentence"].format(His=his.capitalize(), teller=teller, own=pronoun, quote=quote)
                elif teller:
                    quote = f'"{quote}" ({his} {teller})'
                else:
                    quote = f'"{quote}"'
                limit = conf["max_hpi"] if heading == "History of present illness" else conf["max_per_heading"]
                if len(filed.setdefault(heading, [])) < limit:
                    filed[heading].append(quote)
                    used.add(norm)
                    text_words += " " + words  # filed once: the same words said again are not filed twice
        out = list(lines)
        at = next((i for i, line in enumerate(out) if line.startswith("Risk assessment:")), None)
        if protective and at is not None:
            quotes = "; ".join(f'"{q}"' for q in dict.fromkeys(protective))
            out[at] = f"{out[at].rstrip()} {conf['protective_sentence'].format(his=his, quotes=quotes)}"
        if not filed:
            return out
        order = ["History of present illness", *sections]
        for heading in order:
            items = filed.get(heading)
            if not items:
                continue
            own = [q for q in items if not q.startswith('"')  and not q.endswith(")")]
            said = [q for q in items if q not in own]
            addition = " ".join(filter(None, [conf["sentence"].format(quotes="; ".join(said)) if said else "", *own]))
            at = next((i for i, line in enumerate(out) if line.startswith(heading + ":")), None)
            if at is not None:
                out[at] = f"{out[at].rstrip()} {addition}"
                continue
            # a heading with no line yet goes after the last heading before it in the note's order
            before = order[: order.index(heading)]
            at = max((i for i, line in enumerate(out) if any(line.startswith(h + ":") for h in before)), default=2)
            alone = " ".join(filter(None, ["; ".join(said), *own]))  # the heading's only words: no "Also said"
            out.insert(at + 1, f"{heading}: {alone}" + ("." if said and not own else ""))
        return out

    @staticmethod
    def _one_per_disorder(hyps: list[Hypothesis], named: set[str], rule: dict[str, Any]) -> list[Hypothesis]:
        """Of ``hyps`` (in rank order) one of each disorder (``differential_therapy.same_disorder``: names alike up to
        ``name_up_to``): the one the note names as a diagnosis (``named``), else the most severe by the grade its code
        states (``specifiers``), else the first ranked."""
        order = {g: n for n, g in enumerate(rule["grade_order"])}
        spec = load_specifiers()

        def disorder(h: Hypothesis) -> str:
            return h.name.split(rule["name_up_to"])[0].strip().lower()

        def weight(h: Hypothesis) -> tuple[bool, int]:
            graded = spec.grade(h.code)
            return h.code in named, order.get(graded[1], -1) if graded else -1

        kept: dict[str, Hypothesis] = {}
        for h in hyps:  # rank order: a later one replaces the kept only when it weighs more
            if disorder(h) not in kept or weight(h) > weight(kept[disorder(h)]):
                kept[disorder(h)] = h
        return list(kept.values())

    def _note_name(self, h: Hypothesis) -> str:
        """``h``'s name as the note writes it: without a word the history contradicts ("uncomplicated" beside a
        withdrawal fit told, test-v2-0233; ``note_writing.names_when_heard``)."""
        heard = set(self.findings.present) - self.findings.contradicted
        rule = next((r for r in self.script["note_writing"]["names_when_heard"]["rules"]
                     if r["code"] == h.code and set(r["findings"]) & heard), None)
        if not rule:
            return h.name
        said = " ".join(self.findings.present[c] for c in rule["findings"] if c in heard)
        return next((t["name"] for t in rule.get("told", []) if re.search(t["says"], said, re.I)), rule["name"])

    def _comorbid(self, lead: list[tuple[Hypothesis, float]]) -> tuple[list[tuple[Hypothesis, float]], list[Hypothesis]]:
        """The ranked list with any dependent drinking told added, and the disorders the note names as diagnoses
        beside the principal (``note_writing.comorbid``); the rest of the list is the differential."""
        co = self.script["note_writing"]["comorbid"]
        believed = set(self.profile(believed_only=True).codes)
        principal = lead[0][0]
        drinking = self._with_dependent_drinking(lead)[len(lead):]  # told, not ranked: a diagnosis beside the principal
        lead = lead + drinking
        if self.heavy_drinking(dependent=True):  # dependent drinking told: its first disorder is a diagnosis
            family = self.script["exams_when_dependent_drinking"]["code"][:3]
            believed |= {next(h.code for h, _ in lead if h.code[:3] == family)}
        for code in self._drug_dependence_told():  # a drug's dependence told: a diagnosis beside the principal too
            believed |= {h.code for h, _ in lead if h.code[:3] == code[:3]}
        comorbid: list[Hypothesis] = []
        for h, _ in lead[1:]:
            if (
                h.code in believed
                and not h.code.startswith(tuple(co["never_prefixes"]))
                and h.code[:3] != principal.code[:3]
                and all(h.code[:3] != c.code[:3] for c in comorbid)
                and h.category in co["categories"]
            ):
                comorbid.append(h)
        return lead, comorbid

    def _note(self) -> str:
        """A sectioned note in prose: what the patient said, in clinical terms, with their own words quoted."""
        f = self.findings
        lex = self.lexicon
        sections = self.script["note_sections"]

        def term(c: str) -> str:
            return self._term(c)

        quoted: dict[str, str] = {}
        used: set[str] = set()

        def said(key: str) -> str:
            if key not in quoted:  # in the note's order: a sentence already quoted is not quoted again
                quoted[key] = self._quote(key, used)
            return quoted[key]

        # only what the patient affirmed is reported, denials are recorded as denials, the rest is left out
        pattern = self.script["substance_pattern"]
        using = self.heavy_drinking() or bool(set(pattern["substances"]) & set(f.present))
        evidence = self._evidence()
        findings = [
            c
            for c in f.present
            if c in evidence and c in lex and lex.get(c).kind in ("symptom", "sign") and (using or c not in pattern["findings"])
        ]
        writing = self.script["note_writing"]
        # a finding heard only beside a history finding ("There was a lot of fighting at home till they split" read as
        # unstable relationships) is the history's, under its own heading, not the present illness's
        findings = [c for c in findings if not self._history_only(c, writing["history_kinds"])]
        symptoms = [c for c in findings if c not in f.contradicted]
        mixed = [c for c in findings if c in f.contradicted]
        # a finding that clashes with a denial or with an opposite finding is written in the patient's words, and so is
        # one whose clinical term says more than the sentence shows ("I'm not myself" is no personality change)
        clashing = self._clashing(symptoms) | (set(symptoms) & set(writing["own_words_only"]))
        clashing |= {c for c in symptoms if self._loose_only(c)}
        symptoms = [c for c in symptoms if c not in clashing]
        # a denial is not recorded when the patient affirmed a finding that implies it ("I wash my hands forty
        # times a day" is contamination fear, so "denies obsessions" would misstate them)
        implied = {b for a, b in lexicon_relations("implies") if a in f.present}
        # only the pertinent negatives: denials of what the differential expects, not every screening question
        # ("Denies repeated unlawful acts" in a depressed woman reads as a checklist); risk and hallucinations have
        # their own sections
        conf = self.script["pertinent_negatives"]
        expected = {c for h, _ in self._ranked()[: conf["hypotheses"]] for c, p in h.symptoms if p >= conf["min_p"]}
        expected |= {c for cs in self.script["evidence"]["ruled_out_by_denial"].values() if isinstance(cs, list) for c in cs}
        # nor a denial the results on file contradict ("Denies low body weight" beside a BMI of 15)
        shown = {c for _, result in f.exam_results for c, negated in patient_findings(result) if not negated}
        negatives = sorted(
            c
            # nor a denial beside the same finding told in the first person by an informant of their own life ("I had
            # depression after the youngest was born", the mother's): the encounter holds both, so neither is written
            # nor a denial that the clinician's own reading of another answer contradicts ("Fantastic, I suppose" as
            # the mood beside "I haven't been on a high": no 'denies elevated mood', test-v2-0201)
            for c in f.denied - set(f.present) - implied - shown - set(conf["said_elsewhere"]) - f.informant_own - f.inferred
            if c in lex and lex.get(c).kind in ("symptom", "sign") and c in expected
        )
        lines = [f"Identifying data: {f.walk_in.splitlines()[0] if f.walk_in else 'not recorded'}"]
        complaint = said("hpi:complaint")
        if not complaint and symptoms:  # the reply was no complaint in the patient's words: the findings it came with
            complaint = f"{'; '.join(dict.fromkeys(term(c) for c in symptoms[:3]))} (not in the patient's own words)"
        lines.append(_end(f"Chief complaint: {complaint or 'not stated'}"))
        hpi = self._present_illness(symptoms, mixed, negatives, [c for c in findings if c in clashing], said, used)
        explored = self._follow_up_lines("hpi", used)  # what the follow-up of a disclosure drew out, on its subject
        if explored:
            hpi = " ".join(filter(None, [hpi, *explored]))
        unread = self._answers_unread(used)  # answered on the subject, in words no finding was read in
        if unread:
            hpi = " ".join(filter(None, [hpi, unread]))
        lines.append("History of present illness: " + (hpi or "not obtained."))
        for heading, concepts in sections.items():
            parts = []
            for c in concepts:
                if c in lex and lex.get(c).kind in ("symptom", "sign") and (c not in f.present or c in f.denied):
                    # "Self-harm: \"I've cut myself off\"" asserts the finding: a symptom's label only over an
                    # answer that affirmed it (the denial has its own line)
                    continue
                if c in f.answers and (reacted := self._drug_reactions(c, used)):
                    # a drug that disagrees with the patient: the drug and the reaction, an allergy or an intolerance
                    # (note_writing.drug_reactions), not a quote that a subject cue may miss
                    parts.append(_end(reacted))
                elif (c in f.answers or c in f.present) and c in lex and said(c):
                    label = term(c)
                    plain = label.lower() == heading.lower() or c in writing["unlabelled"]
                    parts.append(_end(said(c) if plain else f"{label.capitalize()}: {said(c)}"))
                elif c in f.answers and c in lex and (unquoted := self._unquoted_answer(c, used)):
                    parts.append(_end(unquoted))  # "Not that I know of.": none known, not a question never asked
                elif c in f.answers and c in lex and (none := self._denied_history(c, used)):
                    # asked and answered with a denial the quote keeps nothing of ("None.", "Not that I know of."):
                    # a denial is recorded as a denial, not left out as if never asked (stop 46: the allergy answer
                    # missing from notes that asked it)
                    label = term(c)
                    # a label that only repeats its heading ("Allergies: Drug allergies: none reported") is left out
                    plain = heading.lower().rstrip("s") in label.lower() or c in writing["unlabelled"]
                    parts.append(_end(none[:1].upper() + none[1:] if plain else f"{label.capitalize()}: {none}"))
                elif c in f.answers and c in lex and self._repeat_only(c):
                    # asked, and the reply only said an earlier answer again: asked and not answered, not left out as if
                    # never asked ("As I said, I stopped smoking three years ago" asked about physical health, hw-019)
                    label = term(c)
                    unanswered = self.script["risk_follow_up"]["no_answer"]
                    plain = label.lower() == heading.lower() or c in writing["unlabelled"]
                    parts.append(_end(unanswered.capitalize() if plain else f"{label.capitalize()}: {unanswered}"))
            for rule in writing["to_reconcile"]["rules"]:
                clauses = re.split(r"[.,;!?]\s*", f.answers.get(rule["key"], "").lower())
                claimed = any(
                    re.search(rule["pattern"], c) and not any(re.search(rf"\b{re.escape(n)}\b", c) for n in rule["negations"])
                    for c in clauses
                )
                if rule["key"] in concepts and parts and claimed \
                        and re.search(rule["against"], f.answers.get(rule["against_key"], ""), re.IGNORECASE):
                    parts.append(rule["sentence"])  # two answers that cannot both be true: said, not copied as fact
            stopped_since = writing["to_reconcile"]["stopped_since"]
            if "medications_current" in concepts and parts:
                # a drug named among the current medicines whose latest word, later in the interview, is that it was
                # stopped ("I take lithium" then "Lithium helped. I stopped it a few weeks ago", test-v2-0201)
                # (read as taken there: "I used to take aripiprazole" in that answer already says it is not current)
                for drug in [d for d in self._drugs_taken() if d in self._drugs_stopped()]:
                    parts.append(stopped_since.format(drug=drug[:1].upper() + drug[1:]))
            if parts:
                # the same answer said twice, the second time with a hedge at its end ("My father has bipolar disorder
                # and takes lithium" and "..., I reckon", hw-003): written once under its heading
                closers = writing["narrative"]["closers"]

                def bare(part: str) -> str:
                    low = part.lower()
                    for closer in closers:
                        low = low.replace(closer + '"', '"')
                    return low

                parts = [p for k, p in enumerate(parts) if bare(p) not in {bare(q) for q in parts[:k]}]
                lines.append(f"{heading}: {' '.join(parts)}")
        # the first sentence of the mood answers that speaks of a mood: an answer drifting elsewhere is no mood
        # a mood already quoted in the present illness ("Over about three months I've been sad all the time") is
        # still the mood the patient gave: quoted again here rather than written "Mood not described" (stop 32)
        # (quoted again only with a word that names a mood: "they feel so real" is no mood, test-v2-0002)
        mood = next(
            (
                f'"{sentence.strip(chr(34)).rstrip(".")}"'
                for quote, words in ((said, writing["mood_words"]), (lambda key: self._quote(key, set()), writing["mood_words_again"]))
                for key in writing["mood_said"]
                for sentence in re.split(r'(?<=[.!?])\s+|(?<=[.!?]")\s+', quote(key))
                if re.search(words, sentence, re.IGNORECASE) and not self._mood_not_now(sentence)
            ),
            "",
        )
        if not mood:
            # the answer about mood that a quote leaves out because it names another finding ("I've been feeling
            # worried" is the excessive worry's too): its first sentence that names a mood is still the mood given
            # (stop 35's consultant: "'mood not described' when he said he feels worried", test-v2-0404)
            openers = self.script["quotes"]["openers"]
            mood = next(
                (
                    f'"{_without_opener(sentence.strip(), openers).rstrip(".")}"'
                    for key in writing["mood_said"]
                    for sentence in split_sentences(f.answers.get(key, ""))
                    if sentence.strip() and self._plain(sentence) and not self._non_answer(sentence)
                    and f.told_by.get(key) is None and re.search(writing["mood_words_again"], sentence, re.IGNORECASE)
                    and re.search(writing["mood_frame"], sentence, re.IGNORECASE) and not self._mood_not_now(sentence)
                ),
                "",
            )
        if not mood:
            # the reply to the mental state's own mood question is the mood the patient gave, in whatever word
            # ("I feel tired", "Ashamed", "Okay, I suppose"), when it is short, speaks to the subject and answers
            # (stop 42's consultants: "Mood not described" though she twice said "okay, I suppose", test-v2-0215)
            openers = self.script["quotes"]["openers"]
            # a word of the subject, not only its frame ("I feel fat" names no mood)
            cues = [c for c in self.script["quotes"]["subject_cues"].get("mse:mood", ()) if c not in writing["mood_answer_frames"]]
            limit = writing["mood_answer_max_words"]

            def names_mood(text: str) -> bool:
                return any(re.search(rf"\b{re.escape(c)}", " ".join(tokenize(text))) for c in cues)

            mood = next(
                (
                    # without its opener ("Like I mentioned, "), unless the opener was the mood ("Okay, I suppose")
                    f'"{(bare if names_mood(bare) else self._mood_word(bare) or sentence.strip()).rstrip(".")}"'
                    for sentence in split_sentences(f.answers.get("mse:mood", ""))[:1]
                    if (bare := _without_opener(sentence.strip(), openers).strip())
                    and "mse:mood" not in f.told_by and not self._non_answer(sentence) and not self._mood_not_now(bare)
                    and len(tokenize(sentence)) <= limit and (names_mood(sentence) or self._one_word_mood(bare))
                ),
                "",
            )
        mse = self._mental_state(mood, symptoms, expected)
        if said("mse:insight"):
            mse.append(_end(f"Insight: on what is happening, says {said('mse:insight')}"))
        lines.append("Mental status examination: " + " ".join(mse))
        risk = []
        on_file = self._risk_results()
        dropped = set(self.script["risk_results"]["denials_dropped"]) if on_file else set()
        for c in ("suicidal_ideation", "self_harm", "homicidal_ideation"):
            if c in f.present:
                quoted = self._risk_quote(c)
                risk.append(f'Reports {term(c)} ("{quoted}").')
            elif c == "suicidal_ideation" and (act := next(
                    (s for _, reply in f.replies if (s := self._act_told(reply))), None)):
                # a preparatory act told in any reply ("I took my father's handgun from his nightstand drawer") beside
                # words that deny the thoughts ("I don't want to die") is no denial (risk_follow_up.acts)
                risk.append(self.script["risk_follow_up"]["acts"]["denial_line"].format(quote=act.rstrip(". ")))
            elif c == "suicidal_ideation" and (act := self._means_answered()):
                # a means of the act's kinds named in reply to the question on plans or past attempts ("I confirm the
                # handgun episode of 26 November", uw-020) answers it: no denial either (acts._means_answers_about)
                risk.append(self.script["risk_follow_up"]["acts"]["means_line"].format(quote=act.rstrip(". ")))
            elif c in f.denied and c not in dropped:
                risk.append(f"Denies {term(c)}.")
            elif c in f.answers and c in self.script["risk_unread"]["labels"]:
                # asked, and the answer neither affirms nor denies as read ("The thought crosses my mind, but I wouldn't
                # act on it", test-v2-0054): written in the patient's words, not left out as if never asked
                quote = self._quote(c, used) if self._unread_on_subject(c) else ""
                if not quote and (bare := self._bare_answer(c)):
                    quote = f'"{bare}"'  # its "no" quoted though the rest was quoted above
                risk.append(_end(f"{self.script['risk_unread']['labels'][c]}: {quote or self.script['risk_unread']['no_answer']}"))
        risk.extend(self._risk_follow_up_lines(used))
        risk.extend(on_file)
        risk.extend(line for c, line in self.script["risk_from_findings"]["findings"].items() if line and c in f.present)
        risk.extend(self._risk_disclosures())
        risk.extend(self._follow_up_lines("risk", used))
        care = self.script["self_care"]
        if care["key"] in self.findings.answers:  # self-neglect, asked of everyone: the reply filed, or its absence said
            quote = self._quote(care["key"], used)
            label = care["label"].format(self={"her": "herself", "him": "himself"}.get(self._object(), "themselves"))
            if quote:
                risk.append(_end(f"{label}: {quote}"))
            elif not any(line.startswith(care["kind"]) for line in risk):  # told already as a disclosure: said once
                risk.append(f"{label}: {self.script['risk_follow_up']['no_answer']}.")
        lines.append("Risk assessment: " + (" ".join(risk) or "risk not assessed."))
        if f.exam_results:
            # a result is written only when one is on file; a test with none is requested, never "unremarkable"
            # (a supervisor reads "TSH: unremarkable (not on file)" as a normal result that was never done)
            house = self.script["exam_names"]  # the results come back under the catalog's names (CBC, BMP)
            # vital signs out of range carry their band word, as every other result does ("pulse 44/min (low)")
            on_file = [
                f"{house.get(n, n)}: {r}" + (f" ({_join(out)})" if (out := self._vitals_out_of_range(n, r)) else "")
                for n, r in f.exam_results if r != UNREMARKABLE
            ]
            awaited = [house.get(n, n) for n, r in f.exam_results if r == UNREMARKABLE]
            parts = on_file + ([f"{_join(awaited)} requested, no result on file"] if awaited else [])
            lines.append("Investigations: " + "; ".join(parts) + ".")
        lead = self._leading()
        evidence = _join(term(c) for c in symptoms[:6]) or "the history"
        assessment = f"Assessment: the presentation, with {evidence}, is most consistent with {self._note_name(lead[0][0])}."
        if self._unsupported(lead[0][0]):  # nothing of it heard: provisional, and said so (test-v2-0151)
            assessment = self.script["plan"]["unsupported_principal"]["assessment"].format(name=self._note_name(lead[0][0]))
        # a disorder it believes beside the principal one, of another kind, is a diagnosis too, not a differential
        # (stop 33's consultant: alcohol dependence with AUDIT 38 beside a cannabis dependence, test-v2-0302; a
        # moderate depression beside health anxiety, test-v2-0430, each left "only a differential")
        co = writing["comorbid"]
        lead, comorbid = self._comorbid(lead)
        if comorbid:
            assessment = assessment.rstrip(".") + co["sentence"].format(names=_join(self._note_name(h) for h in comorbid))
        assessment += self._provisional(lead[0][0])
        rest = [h for h, _ in lead[1:] if h not in comorbid]
        if rest:
            assessment += f" Differential diagnosis includes {_join(self._note_name(h) for h in rest)}."
        assessment += "".join(f" {line}" for line in self._results_to_read())
        weighed = self._results_weighed()
        if weighed:  # a scale's band or a single flagged value read in the formulation too, not only listed
            assessment += " " + self.script["results_weighed"]["sentence"].format(results="; ".join(weighed))
        unstable = self._instability(self.safety_profile(believed_only=True))
        if unstable:  # the danger the plan acts on, named in the assessment too (test-v2-0465)
            assessment += f" {unstable[0]}: {self.script['plan']['medical_instability']['note_danger']}"
        lines.append(assessment)
        lines = self._filed_clauses(lines, used)  # what was said and not yet written, under its own section
        lines.append("Plan: see treatment plan; review risk at each visit.")
        return "\n".join(lines)


_DRUG_SENTENCES = ("Medication:", "With it, start")


def _cue_said(text: str, cues: Any, friends: dict[str, Any]) -> bool | None:
    """Whether ``text`` names one of ``cues`` (word starts) outside the phrases that only look like it (``friends``, by
    cue: "firefighters cut me out" is no cut): True when one is named, False when each cue word heard sits inside a
    false friend, None when no cue word is heard at all."""
    words = " ".join(tokenize(text))
    heard = [c for c in cues if re.search(rf"\b{re.escape(c)}", words)]
    if not heard:
        return None
    return any(re.search(rf"\b{re.escape(c)}", _without_matches(words, friends.get(c, ()))) for c in heard)


def _without_matches(text: str, patterns: Any) -> str:
    """``text`` without what any of ``patterns`` matches (each match made a space)."""
    for pattern in patterns:
        text = re.sub(pattern, " ", text)
    return text


def _days(n: float) -> str:
    """A number of days as a person says it: "4 days", "2 weeks", "6 months", "2 years"."""
    for size, unit in ((365, "year"), (30, "month"), (7, "week"), (1, "day")):
        if n >= size and (n % size == 0 or size == 1 or n >= 2 * size):
            k = round(n / size)
            return f"{k} {unit}{'s' if k != 1 else ''}"
    return f"{n:g} days"


def _end(sentence: str) -> str:
    """``sentence`` ending once: a closing quotation mark takes the full stop outside, as British notes write it
    ('"... off work".', not '"... off work.".'), so that the sentence still ends where a reader splits sentences."""
    sentence = sentence.strip()
    if re.search(r"\b[a-z]\.[a-z]\.\"$", sentence):
        return sentence  # '"I wake at 3 a.m."': the abbreviation's stop ends the sentence too
    if sentence.endswith('."'):
        return sentence[:-2] + '".'
    if sentence.endswith(('!"', '?"', ".", "!", "?")):
        return sentence
    return sentence + "."


def _without_pseudo_negations(tokens: list[str]) -> list[str]:
    """``tokens`` less the phrases that hold a negation word and negate nothing (language.json
    ``pseudo_negation_cues``: "not long after physical abuse at home" tells the abuse, "can't stop" denies nothing)."""
    cues = load_cues().pseudo_negation
    drop: set[int] = set()
    for i in range(len(tokens)):
        for cue in cues:
            if tuple(tokens[i : i + len(cue)]) == cue:
                drop.update(range(i, i + len(cue)))
    return [t for i, t in enumerate(tokens) if i not in drop]


def _without_opener(sentence: str, openers: list[str]) -> str:
    """``sentence`` without the words it opens with that say nothing ("Like I said, ", "Okay, well, "), capitalised."""
    pattern = r"^(?:(?:" + "|".join(re.escape(o) for o in sorted(openers, key=len, reverse=True)) + r")\s*)+"
    rest = re.sub(pattern, "", sentence, flags=re.IGNORECASE)
    return rest[:1].upper() + rest[1:] if rest else sentence


def _join(items: Any, conjunction: str = "and") -> str:
    """``items`` (repeats dropped) as an English list: "a, b and c", or with ``conjunction`` "or" a list of
    alternatives ("suicidal ideation, homicidal ideation or obsessions")."""
    items = list(dict.fromkeys(items))
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def _parse_results(text: str) -> list[tuple[str, str]]:
    """(exam, result) pairs from an exam-results observation (``NAME: result`` lines)."""
    out = []
    for line in text.splitlines():
        name, sep, result = line.partition(":")
        name = name.strip(" -*\t")
        if sep and name and len(name) < 60 and result.strip():  # "Exam results:" heads the list, no result
            out.append((name, result.strip()))
    return out


def _reads_abnormal(result: str) -> bool:
    words = " ".join(tokenize(result))
    if "within reference range" in result.lower() or "unremarkable" in result.lower() or "normal" == words.strip():
        return False
    return any(w in words for w in clinician_script()["abnormal_result_words"])


def make(argument: str | None = None) -> ScriptedClinician:
    """Roster factory: ``scripted``."""
    if argument:
        raise ValueError(f"the scripted clinician takes no argument, got {argument!r}")
    return ScriptedClinician()
