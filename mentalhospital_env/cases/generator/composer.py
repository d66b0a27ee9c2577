"""Compose one synthetic psychiatric record from the clinical reference and the generator's own material.

Clinical content (which disorders, how they present, what the work-up shows, what treats them) comes
from the knowledge base through :class:`~mentalhospital_env.cases.reference.ClinicalReference`;
non-clinical content (occupations, households, sentence frames) from ``generator/data/*.json``.

The record is written as atomic facts, section by section; the narrative sections are the facts'
texts joined, so the facts and the narrative always say the same thing. Every fact is read through
the lexicon as it is added: the concepts it asserts and the concepts it denies are tracked, and a
text that would contradict what the record already says (a denial of a symptom the patient has, a
symptom the record has denied) is never chosen.
"""

from __future__ import annotations

import json
import random
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

from mentalhospital_env.knowledge import resolve_exam
from mentalhospital_env.knowledge.codes import category_of_code, code_family
from mentalhospital_env.knowledge.language import memo_size

from ..model import MSE_KEYS, ExamRecord, Fact
from ..reference import ClinicalReference, Entry
from .results import Expectation, band_of, exam_result, is_normal_band

T = TypeVar("T")
_DURATION = re.compile(r"\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d+|a few|a couple of|several)\s+(day|week|month|year)s?\b")

GENERATOR_NAME = "mentalhospital_env.cases.generator"
GENERATOR_VERSION = 1
MAX_COMORBIDITIES = 2
# Short fact id prefixes per section ("hpi-3", "mse.mood-1"): ids are repeated in every derived
# checkpoint, so short ones keep suite files small.
FACT_ID_PREFIX = {
    "chief_complaint": "cc", "history_of_present_illness": "hpi", "past_psychiatric_history": "pph",
    "medical_history": "pmh", "medications": "meds", "allergies": "allergy", "substance_use": "sub",
    "family_history": "fh", "personal_history": "ph",
}
# Sections whose statements are about other people; they neither assert nor deny the patient's symptoms.
OTHER_PEOPLE_SECTIONS = frozenset({"family_history"})
# Exams a hospital commonly has on file whatever the complaint; the ones not indicated for a case are
# added to it as not indicated, with unremarkable results.
ROUTINE_EXAMS = (
    "CBC", "BMP", "LFT", "TSH", "Vital signs", "Weight and BMI", "ECG", "Urinalysis", "HbA1c",
    "Lipid panel", "Vitamin B12", "Folate", "PHQ-9", "GAD-7", "AUDIT", "Urine drug screen",
)


@lru_cache(maxsize=None)
def load_material(name: str) -> Mapping[str, Any]:
    """One of the generator's own data files (``people``, ``frames``, ``substances``, ``medical``)."""
    text = resources.files(__package__).joinpath(f"data/{name}.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=memo_size(1024))
def _word_pattern(word: str) -> re.Pattern[str]:
    """``word`` as a whole word (compiled once: the substance frames ask for the same words in every draft)."""
    return re.compile(rf"\b{re.escape(word)}\b")


# --------------------------------------------------------------------------------------- wording


class _Fields(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(template: str, fields: Mapping[str, Any]) -> str:
    """``template`` with ``{placeholders}`` from ``fields``; unknown ones stay as written."""
    return template.format_map(_Fields(fields))


def cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def sentence(text: str) -> str:
    """A capitalised sentence ending in a full stop (or the end punctuation it has)."""
    text = cap(text.strip())
    if text[-1:] in ".!?\"'":
        return text
    return text + "."


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


_THIRD_PERSON = re.compile(r"\b(his|her|their)\b")


def first_person(phrase: str) -> str | None:
    """A third-person impact phrase as the patient would say it (``has stopped seeing friends`` ->
    ``I've stopped seeing friends.``), or ``None`` when there is no safe rewording."""
    words = phrase.strip().split()
    if not words:
        return None
    head, rest = words[0].lower(), " ".join(words[1:])
    if head == "has" and rest.startswith("been "):
        out = "I've " + rest
    elif head == "has":
        out = "I've " + rest
    elif head == "is":
        out = "I'm " + rest
    elif head.endswith("ing"):
        out = "I'm " + phrase.strip()
    elif head.endswith("ed") and head not in ("need", "bed", "red"):
        out = "I've " + phrase.strip()
    else:
        return None
    out = _THIRD_PERSON.sub("my", out)
    out = re.sub(r"\b(on|to|with|from|by) partner\b", r"\1 my partner", out)
    return sentence(out.strip())


# ---------------------------------------------------------------------------------------- people


@dataclass(frozen=True)
class Household:
    """Who the patient is and lives with: decides which quotes and phrases fit them."""

    age: int
    sex: str
    occupation: str
    marital_status: str
    partner: str | None  # "wife", "husband", "partner" or None
    children: bool
    grandchildren: bool
    employed: bool
    student: bool
    drug_history: bool = False
    shift_worker: bool = False  # an occupation worked in shifts (people.json shift_occupations)

    def allows(self, requirement: str) -> bool:
        if requirement == "children":
            return self.children
        if requirement == "grandchildren":
            return self.grandchildren
        if requirement in ("wife", "husband"):
            return self.partner == requirement
        if requirement == "partner":
            return self.partner is not None
        if requirement == "no_partner":
            return self.partner is None  # 'left by their partner' is not said of someone living with one
        if requirement == "employed":
            return self.employed
        if requirement == "student":
            return self.student
        if requirement == "school_age":
            return self.age < 19
        if requirement == "adult":
            return self.age >= 18
        if requirement == "adult_or_older_teen":
            return self.age >= 16
        if requirement == "older":
            return self.age >= 60
        if requirement == "drug_history":
            return self.drug_history
        if requirement == "shift_worker":
            return self.shift_worker
        if requirement == "not_employed":
            return not self.employed
        if requirement == "not_male":
            return self.sex != "male"
        if requirement == "out_of_work":  # a working life that has not held: someone of working age, not retired (stop 44: 'unable to hold a job' at 72, retired)
            return not self.employed and not self.occupation.startswith("retired") and self.age < 67
        if requirement == "secondary_age":
            return self.age >= 11
        if requirement == "older_parent":
            return self.age >= 45
        if requirement == "parent_alive":
            return self.age < 70
        if requirement == "female_adolescent_or_adult":
            return self.sex == "female" and self.age >= 12
        return True


class FitRules:
    """The word rules of ``people.json``: a phrase fits a household when every rule it triggers allows it."""

    def __init__(self, rules: Iterable[Mapping[str, Any]]):
        self._single: dict[str, set[str]] = {}
        self._multi: list[tuple[tuple[str, ...], str]] = []
        self._overrides: dict[str, set[str]] = {}
        for rule in rules:
            for word in rule["words"]:
                parts = tuple(word.lower().split())
                if len(parts) == 1:
                    self._single.setdefault(parts[0], set()).add(rule["requires"])
                else:
                    self._multi.append((parts, rule["requires"]))
                    if rule.get("overrides"):
                        self._overrides.setdefault(" " + " ".join(parts) + " ", set()).update(rule["overrides"])
        self._needles = [(" " + " ".join(parts) + " ", r) for parts, r in self._multi]  # joined once, not per text
        # a phrase whose sense turns a word's requirement round ('unable to hold a job' is said of someone out of
        # work, though 'job' alone asks for work) takes that requirement off: its rule's 'overrides' (_overrides)
        self._cache: dict[str, frozenset[str]] = {}

    def requirements(self, text: str) -> frozenset[str]:
        found = self._cache.get(text)
        if found is None:
            words = re.findall(r"[a-z']+(?:-[a-z]+)?", text.lower())
            req: set[str] = set()
            for w in words:
                req |= self._single.get(w, set())
                if w.endswith("'s"):
                    req |= self._single.get(w[:-2], set())
            joined = " " + " ".join(words) + " "
            lifted: set[str] = set()
            for needle, r in self._needles:
                if needle in joined:
                    req.add(r)
                    lifted |= self._overrides.get(needle, set())
            found = frozenset(req - lifted)
            self._cache[text] = found
        return found

    def fits(self, text: str, household: Household) -> bool:
        return all(household.allows(r) for r in self.requirements(text))


# ------------------------------------------------------------------------------------ the chart


@dataclass
class DraftFact:
    section: str
    text: str
    says: str | None
    sensitive: bool
    shown: bool = True  # False: the patient's fact, left to the interview (not written in the record's text)


@lru_cache(maxsize=65536)
def _work_states(text: str) -> frozenset[str]:
    """The states of work (story.json ``work_states``: at work, or off it) a text tells."""
    states = load_material("story")["work_states"]["states"]
    return frozenset(name for name, pattern in states.items() if re.search(pattern, text, re.I))


@dataclass
class Chart:
    """The facts written so far, with the lexicon concepts they assert and deny."""

    reference: ClinicalReference
    facts: list[DraftFact] = field(default_factory=list)
    asserted: set[str] = field(default_factory=set)
    denied: set[str] = field(default_factory=set)
    work_state: set[str] = field(default_factory=set)  # story.json work_states told so far (one per record)

    def readings(self, text: str) -> tuple[frozenset[str], frozenset[str]]:
        return self.reference.readings(text)

    def compatible(self, *texts: str | None, section: str = "") -> bool:
        """Whether texts can join the record without contradicting it."""
        if section in OTHER_PEOPLE_SECTIONS:
            return True
        for text in texts:
            if not text:
                continue
            pos, neg = self.readings(text)
            if pos & self.denied or neg & self.asserted or pos & neg:
                return False
            state = _work_states(text)
            if state and (len(state) > 1 or (self.work_state and state != self.work_state)):
                return False  # 'signed off work' beside 'struggling at work' (story.json work_states)
        return True

    def add(self, section: str, text: str, says: str | None = None, sensitive: bool | None = None,
            readings: tuple[frozenset[str], frozenset[str]] | None = None, shown: bool = True) -> DraftFact:
        """Add a fact; ``readings`` (asserted, denied) when the caller already knows them; ``shown``
        False keeps it among the case's facts (the patient can tell it, the interview can find it)
        without writing it into the record's text."""
        text = sentence(text)
        pos, neg = readings if readings is not None else self.readings(text)
        if section not in OTHER_PEOPLE_SECTIONS:
            self.asserted |= pos
            self.denied |= neg
            self.work_state |= _work_states(text) | (_work_states(says) if says else frozenset())
        if sensitive is None:
            sensitive = any(self.reference.concept_sensitive(c) for c in pos)
        fact = DraftFact(section, text, says, bool(sensitive), shown)
        self.facts.append(fact)
        return fact

    def sections(self) -> dict[str, list[DraftFact]]:
        out: dict[str, list[DraftFact]] = {}
        for f in self.facts:
            out.setdefault(f.section, []).append(f)
        return out


# ------------------------------------------------------------------------------------- composer


class CompositionError(RuntimeError):
    """The composer could not write a record for this draw (the caller redraws)."""


@dataclass
class _Patient:
    age: int
    sex: str
    setting: str
    household: Household
    demographics: dict[str, Any]
    pron: Mapping[str, str]
    informant: str | None


class CaseComposer:
    """Writes one case mapping (CASES.md) per call of :meth:`compose` (generator version 1; version 2
    in ``v2.py`` changes how the story is told, not who the patient is)."""

    version = GENERATOR_VERSION

    def __init__(self, reference: ClinicalReference):
        self.ref = reference
        self.people = load_material("people")
        self.frames = load_material("frames")
        self.substances = load_material("substances")
        self.medical = load_material("medical")
        self.fit = FitRules(self.people["fit_rules"]["rules"])
        self.codes = tuple(c for c in sorted(reference.disorders) if c in reference.presentations)
        if not self.codes:
            raise CompositionError("the clinical reference has no disorder with a presentation")
        self.weights = tuple(float(reference.disorders[c].get("service_weight", 1.0)) for c in self.codes)

    # ------------------------------------------------------------------------------ entry point

    def compose(self, rng: random.Random, case_id: str, principal: str | None = None) -> dict[str, Any]:
        """A case mapping; ``principal`` fixes the principal disorder's code, else it is drawn by service weight."""
        code = principal or rng.choices(self.codes, weights=self.weights)[0]
        if code not in self.ref.disorders or code not in self.ref.presentations:
            raise CompositionError(f"no disorder and presentation for {code!r} in the knowledge base")
        disorder = self.ref.disorders[code]
        patient = self._patient(rng, disorder)
        disorders = [disorder] + self._comorbidities(rng, disorder, patient)
        codes = [d["code"] for d in disorders]
        if any(code_family(c) in ("F11", "F12", "F14") for c in codes):
            patient.household = replace(patient.household, drug_history=True)
        chart = Chart(self.ref)
        story = self.story_class(self, rng, chart, patient, disorders)
        story.write()
        exams = story.exams()
        treatment = story.treatment()
        persona = story.persona()
        case = self._assemble(case_id, patient, disorders, codes, chart, exams, treatment, persona)
        extra = story.extra()
        if extra:
            case["extra"] = extra
        return case

    # ---------------------------------------------------------------------------------- patient

    def _patient(self, rng: random.Random, disorder: Entry) -> _Patient:
        low, high = disorder.get("age_range", (18, 90))
        t_low, t_high = disorder.get("typical_age", (low, high))
        t_low, t_high = max(low, t_low), min(high, t_high)
        # most patients fall in the typical range; the rest anywhere in the plausible range, thinning
        # towards its ends
        age = rng.randint(t_low, t_high) if rng.random() < 0.8 else round(rng.triangular(low, high, (t_low + t_high) / 2))
        age = max(3, min(110, age))
        sexes = [s for s, w in sorted(disorder.get("sex_weights", {}).items()) if w > 0] or ["female", "male"]
        sex = rng.choices(sexes, weights=[disorder["sex_weights"][s] if "sex_weights" in disorder else 1.0 for s in sexes])[0]
        settings = disorder.get("settings") or {"outpatient": 1.0}
        names = [s for s in ("outpatient", "inpatient", "emergency") if settings.get(s, 0) > 0]
        setting = rng.choices(names, weights=[settings[s] for s in names])[0]
        stage = life_stage(age)
        people = self.people
        category = disorder.get("category") or category_of_code(disorder["code"])
        occupation = fill(rng.choice(people["occupations"][stage]), {"school_year": max(1, min(6 if stage == "child" else 13, age - 5))})
        out_of_work = people["out_of_work"]
        if stage == "adult" and rng.random() < out_of_work["share"].get(category, 0.0):
            occupation = rng.choice(out_of_work["occupations"])
        marital_key = "young_adult" if stage == "adult" and age < 26 else stage
        marital = rng.choice(people["marital_status"][marital_key])
        living_key = "young_adult" if stage == "adult" and age < 26 else stage
        partnered = marital in ("married", "cohabiting", "in a relationship")
        living_options = [
            x for x in people["living_situation"][living_key]
            if (partnered == any(w in x for w in ("spouse", "partner")) or stage in ("child", "adolescent"))
            and ("spouse" not in x or marital == "married")
            and ("adult son" not in x or age >= 45)
        ] or people["living_situation"][living_key]
        living = rng.choice(living_options)
        partner = None
        if partnered:
            if marital == "married":
                partner = {"female": "husband", "male": "wife"}.get(sex, "partner")
                if rng.random() < 0.08:
                    partner = {"female": "wife", "male": "husband"}.get(sex, "partner")
            else:
                partner = "partner"
        children = stage == "older" or (stage == "adult" and age >= 26 and (("children" in living or "child" in living or "son" in living) or (partnered and rng.random() < 0.55) or rng.random() < 0.25))
        if "children" in living or "child" in living or "son" in living:
            children = True
        student = "student" in occupation and age >= 17
        employed = stage == "adult" and not any(w in occupation for w in ("unemployed", "student", "benefit", "carer", "stay-at-home", "between jobs"))
        drug_history = category == "substance_related" and any(
            code_family(disorder["code"]) == f for f in ("F11", "F12", "F14")
        )
        shifts = self.people["shift_occupations"]
        household = Household(
            shift_worker=employed and bool(re.search(shifts["pattern"], occupation, re.I)),
            age=age, sex=sex, occupation=occupation, marital_status=marital, partner=partner,
            children=children, grandchildren=children and age >= 58, employed=employed, student=student,
            drug_history=drug_history,
        )
        if not self.fit.fits(living, household):
            living = next((x for x in living_options if self.fit.fits(x, household)), living)
        education = rng.choice(people["education"][stage if stage in people["education"] else "adult"])
        if occupation in people["graduate_occupations"]:
            education = rng.choice(["undergraduate degree", "undergraduate degree", "postgraduate degree"])
        demographics: dict[str, Any] = {"age": age, "sex": sex, "occupation": occupation}
        if stage not in ("child",):
            demographics["marital_status"] = marital
        demographics["education"] = education
        demographics["living_situation"] = living
        informant = self._informant(rng, stage, category, setting, household)
        pron = self.frames["pronouns"][sex]
        return _Patient(age, sex, setting, household, demographics, pron, informant)

    def _informant(self, rng: random.Random, stage: str, category: str | None, setting: str, household: Household) -> str | None:
        """Who comes along: a parent for a child, family for a confused older person, sometimes a partner."""
        informants = self.people["informants"]

        def pick(key: str) -> str | None:
            fitting = [x for x in informants[key] if self.fit.fits(x, household)]
            return rng.choice(fitting) if fitting else None

        if stage in ("child", "adolescent"):
            return pick(stage)
        if category == "neurocognitive":
            return pick("cognitive")
        if setting == "emergency" and category in ("schizophrenia_spectrum", "bipolar") and rng.random() < 0.6:
            return pick("psychosis_emergency")
        if stage == "older" and rng.random() < 0.4:
            return pick("older")
        if rng.random() < 0.15:
            return pick("adult")
        return None

    def _comorbidities(self, rng: random.Random, principal: Entry, patient: _Patient) -> list[Entry]:
        chosen: list[tuple[float, Entry]] = []
        families = {code_family(principal["code"])}
        for item in principal.get("comorbidities", ()):
            p = float(item.get("p", 0))
            if rng.random() >= p:
                continue
            other = self.ref.disorders.get(item["code"])
            if other is None or item["code"] not in self.ref.presentations:
                continue
            if code_family(other["code"]) in families or not fits_patient(other, patient.age, patient.sex):
                continue
            families.add(code_family(other["code"]))
            chosen.append((p, other))
        chosen.sort(key=lambda pc: -pc[0])
        return [d for _, d in chosen[:MAX_COMORBIDITIES]]

    # --------------------------------------------------------------------------------- assembly

    def _assemble(
        self,
        case_id: str,
        patient: _Patient,
        disorders: list[Entry],
        codes: list[str],
        chart: Chart,
        exams: list[ExamRecord],
        treatment: dict[str, Any],
        persona: dict[str, Any],
    ) -> dict[str, Any]:
        by_section = chart.sections()
        ehr: dict[str, Any] = {}
        facts: list[Fact] = []
        mse: dict[str, str] = {}
        risk: dict[str, str] = {}
        order = [
            "chief_complaint", "history_of_present_illness", "past_psychiatric_history", "medical_history",
            "medications", "allergies", "substance_use", "family_history", "personal_history",
        ]
        order += [f"mental_status_exam.{k}" for k in MSE_KEYS]
        order += [f"risk_assessment.{k}" for k in ("suicide", "violence", "self_neglect")]
        for section in order:
            items = by_section.get(section)
            if not items:
                continue
            text = " ".join(f.text for f in items if f.shown)
            head, _, key = section.partition(".")
            if head == "mental_status_exam":
                mse[key] = text
            elif head == "risk_assessment":
                risk[key] = text
            else:
                ehr[section] = text
            prefix = FACT_ID_PREFIX.get(section) or section.replace("mental_status_exam.", "mse.").replace("risk_assessment.", "risk.")
            for n, f in enumerate(items, 1):
                facts.append(Fact(f"{prefix}-{n}", section, f.text, f.says, f.sensitive))
        if mse:
            ehr["mental_status_exam"] = mse
        if risk:
            ehr["risk_assessment"] = risk
        categories = list(dict.fromkeys(d.get("category") or category_of_code(d["code"]) for d in disorders))
        return {
            "case_id": case_id,
            "language": "en",
            "demographics": patient.demographics,
            "setting": patient.setting,
            "ehr": ehr,
            "exams": [e.to_dict() for e in exams],
            "diagnosis": {"categories": categories, "disorders": [{"name": d["name"], "code": d["code"]} for d in disorders]},
            "treatment": treatment,
            "persona": persona,
            "facts": [f.to_dict() for f in facts],
            "source": {"generator": GENERATOR_NAME, "version": self.version, "synthetic": True},
        }


_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "eighteen": 18, "several": 3, "a few": 3,
}


def duration_days(duration: str) -> int:
    """Approximate days in a duration phrase (``"three weeks"`` -> 21); 0 when it names none."""
    m = re.search(r"(\d+|[a-z]+(?: few)?)\s+(year|month|week|day|hour)s?", duration.lower())
    if not m:
        return 0
    n = int(m.group(1)) if m.group(1).isdigit() else _NUMBER_WORDS.get(m.group(1), 1)
    return n * {"year": 365, "month": 30, "week": 7, "day": 1, "hour": 0}[m.group(2)]


def duration_years(duration: str) -> int:
    """Whole years in a duration phrase (``"two years"`` -> 2, ``"six months"`` -> 0)."""
    m = re.search(r"(\d+|[a-z]+(?: few)?)\s+(year|month|week|day|hour)s?", duration.lower())
    if not m:
        return 0
    n = int(m.group(1)) if m.group(1).isdigit() else _NUMBER_WORDS.get(m.group(1), 1)
    if m.group(2) == "year":
        return n
    if m.group(2) == "month":
        return n // 12
    return 0


def life_stage(age: int) -> str:
    if age < 12:
        return "child"
    if age < 18:
        return "adolescent"
    if age < 65:
        return "adult"
    return "older"


def fits_patient(disorder: Entry, age: int, sex: str) -> bool:
    """Whether a disorder's age range and sex weights allow this patient."""
    low, high = disorder.get("age_range", (3, 110))
    weights = disorder.get("sex_weights") or {}
    return low <= age <= high and weights.get(sex, 1.0) > 0


def _choose(rng: random.Random, options: Sequence[T], ok: Callable[[T], bool]) -> T | None:
    """A random option that passes ``ok``, or ``None`` when none does (order-stable, seeded)."""
    good = [o for o in options if ok(o)]
    return rng.choice(good) if good else None


# ----------------------------------------------------------------------------------- the story


class _Story:
    """Writes the record of one patient into a chart, section by section, in an order that lets each
    section see what the earlier ones assert and deny."""

    def __init__(self, composer: CaseComposer, rng: random.Random, chart: Chart, patient: _Patient, disorders: list[Entry]):
        self.c = composer
        self.ref = composer.ref
        self.rng = rng
        self.chart = chart
        self.p = patient
        self.disorders = disorders
        self.principal = disorders[0]
        self.codes = [d["code"] for d in disorders]
        self.categories = {d.get("category") or category_of_code(d["code"]) for d in disorders}
        self.presentation = self.ref.presentations[self.principal["code"]]
        self.frames = composer.frames
        self.fields: dict[str, Any] = dict(patient.pron)
        self.symptoms: list[Mapping[str, Any]] = []  # principal's, then comorbid, as drawn
        self.comorbid_symptoms: list[Mapping[str, Any]] = []
        self.maintenance: tuple[Entry, str] | None = None  # (drug, dose) the patient is prescribed
        self.nonadherent = False
        self.risk_level = "none"
        self.prior_episode = False
        self.medical_drugs: list[str] = []
        self.used_quotes: set[str] = set()
        self.medical_exams: set[str] = set()  # exams a medical condition of the patient would make abnormal

    def extra(self) -> dict[str, Any]:
        """What the case file keeps under ``extra`` (nothing in version 1)."""
        return {}

    # ------------------------------------------------------------------------------- helpers

    def fits(self, *texts: str | None) -> bool:
        return all(t is None or self.c.fit.fits(t, self.p.household) for t in texts)

    def ok(self, section: str, text: str, says: str | None = None) -> bool:
        return self.fits(text, says) and self.chart.compatible(text, says, section=section)

    def fill(self, template: str, **extra: Any) -> str:
        return fill(template, {**self.fields, **extra})

    def add_frame(self, section: str, options: Sequence[Sequence[Any]], *, fit: bool = True, **extra: Any) -> bool:
        """Add one of ``[text, says]`` frames that fits the patient (unless ``fit`` is False, for
        denials that name what the household rules guard) and the record; False when none does."""
        rendered = []
        for o in options:
            text = self.fill(o[0], **extra)
            says = o[1] if len(o) > 1 else None
            if isinstance(says, list):
                says = self.rng.choice(says) if says else None
            says = self.fill(says, **extra) if says else None
            rendered.append((text, says))
        pick = _choose(
            self.rng, rendered,
            lambda ts: (self.fits(ts[0], ts[1]) or not fit) and self.chart.compatible(ts[0], ts[1], section=section),
        )
        if pick is None:
            return False
        self.chart.add(section, pick[0], pick[1])
        return True

    def says_for(self, symptom: Mapping[str, Any]) -> str | None:
        """A quote for the symptom that fits the patient and has not been used in this record yet."""
        quotes = [q for q in symptom.get("patient_says", ()) if q not in self.used_quotes and self.fits(q) and self.fits_duration(q)]
        if not quotes:
            return None
        quote = self.rng.choice(quotes)
        self.used_quotes.add(quote)
        return quote

    def fits_duration(self, text: str) -> bool:
        """A quote that says how long something has lasted ("two weeks ago") must agree with the case."""
        duration = self.fields.get("duration")
        spans = _DURATION.findall(text.lower())
        return not spans or (duration is not None and all(duration.lower().startswith(n) and u in duration.lower() for n, u in spans))

    # ------------------------------------------------------------------------------- writing

    def write(self) -> None:
        self._draw_symptoms()
        self._timeframe()
        self._chief_complaint()
        self._present_illness()
        self._past_psychiatric()
        self._mental_status()
        self._risk()
        self._plan_exams()
        self._substances()
        self._medical()
        self._medications()
        self._allergies()
        self._family()
        self._personal()
        self._pertinent_negatives()

    def _timeframe(self) -> None:
        """When the illness began and how long it has lasted, drawn before the history is written: version 1
        draws its spans as it writes each sentence (this does nothing); version 2 fixes them here."""

    def _draw_symptoms(self) -> None:
        rng = self.rng
        items = [s for s in self.presentation["symptoms"]]
        drawn = [s for s in items if rng.random() < float(s.get("p", 0.5))]
        if len(drawn) < 3:
            for s in sorted(items, key=lambda s: -float(s.get("p", 0))):
                if s not in drawn:
                    drawn.append(s)
                if len(drawn) >= 3:
                    break
        drawn.sort(key=lambda s: items.index(s))
        seen = {s["concept"] for s in drawn}
        comorbid: list[Mapping[str, Any]] = []
        for d in self.disorders[1:]:
            pres = self.ref.presentations[d["code"]]
            own = [s for s in pres["symptoms"] if s["concept"] not in seen]
            picked = [s for s in own if rng.random() < float(s.get("p", 0.5))]
            picked = sorted(picked, key=lambda s: -float(s.get("p", 0)))[:3] or sorted(own, key=lambda s: -float(s.get("p", 0)))[:1]
            for s in picked:
                seen.add(s["concept"])
            comorbid.extend(picked)
        self.symptoms = drawn
        self.comorbid_symptoms = comorbid
        concepts = {s["concept"] for s in drawn + comorbid}
        if "suicide_plan" in concepts:
            self.risk_level = "active"
        elif "suicidal_ideation" in concepts:
            self.risk_level = "passive"

    def _chief_complaint(self) -> None:
        rng = self.rng
        # patients present with what they can admit to: a concealed behaviour (falsifying symptoms,
        # purging) is not the chief complaint when anything else is there
        complaints = [s for s in self.symptoms if self._is_complaint(s["concept"])] or self.symptoms
        openly = [s for s in complaints if not (s.get("sensitive") or self.ref.concept_sensitive(s["concept"]))]
        complaints = openly or complaints
        first, second = complaints[0], complaints[1] if len(complaints) > 1 else complaints[0]
        duration = rng.choice(self.presentation.get("durations") or ["some weeks"])
        self.fields["duration"] = duration
        term = self.ref.concept_term(first["concept"])
        term2 = self.ref.concept_term(second["concept"])
        quote = self.says_for(first)
        options = []
        for text, _ in self.frames["chief_complaint"]:
            if "{quote" in text and not quote:
                continue
            if "{term2}" in text and term2 == term:
                continue
            options.append(
                [fill(text, {"Term": cap(term), "term": term, "term2": term2, "duration": duration, "quote_inner": (quote or "").rstrip("."), **self.fields}), quote]
            )
        if not self.add_frame("chief_complaint", options):
            self.chart.add("chief_complaint", f"{cap(term)} for {duration}", quote)

    def _is_complaint(self, concept: str) -> bool:
        """A symptom or sign (not a history item such as alcohol use) can be a chief complaint."""
        return concept not in self.ref.lexicon or self.ref.lexicon.get(concept).kind != "history"

    def _referrer_key(self) -> str:
        """Which referrers' list fits this patient: the setting's, with children's and older adults'
        outpatient clinics apart."""
        stage = life_stage(self.p.age)
        key = self.p.setting
        if key == "outpatient" and stage in ("child", "adolescent"):
            return "outpatient_child"
        if key == "outpatient" and stage == "older":
            return "outpatient_older"
        return key

    def _present_illness(self) -> None:
        rng, f = self.rng, self.frames
        section = "history_of_present_illness"
        key = self._referrer_key()
        referrers = self.c.people["referrers"][key]
        if "neurocognitive" in self.categories:  # confusion is managed under capacity law, not detention, on a medical ward
            referrers = [r for r in referrers if not re.search(r"Mental Health Act|crisis team|informally", r[0])] or referrers
        self.add_frame(section, referrers)
        complaints = [s for s in self.symptoms if self._is_complaint(s["concept"])] or self.symptoms
        term = self.ref.concept_term(complaints[0]["concept"])
        onsets = [o for o in self.presentation.get("onset_phrases", ()) if self._onset_fits(o)]
        onset = rng.choice(onsets or ["over the past {duration}"])
        onset = fill(onset, {"duration": self.fields["duration"]})
        trimmed = re.sub(r"^(starting|beginning|began)\s+", "", onset)
        self.add_frame(section, f["onset"], Term=cap(term), term=term, onset=onset, onset_trim=trimmed)
        precipitants = [
            x for x in self.presentation.get("precipitants", ())
            if self.fits(x) and not re.match(r"(no|none|nothing)\b", x.strip(), re.I)
        ]
        if precipitants and rng.random() < 0.75:
            self.add_frame(section, f["precipitant"], precipitant=rng.choice(precipitants))
        elif rng.random() < 0.4:
            self.add_frame(section, f["no_precipitant"])
        for s in self.symptoms + self.comorbid_symptoms:
            text = s["text"]
            says = self.says_for(s)
            if not self.chart.compatible(text, section=section):
                continue
            sensitive = bool(s.get("sensitive")) or self.ref.concept_sensitive(s["concept"])
            self.chart.add(section, text, says if says and self.chart.compatible(says) else None, sensitive)
        if self.maintenance is None:
            self._maintenance_drug()
        if self.maintenance is not None and self.nonadherent:
            drug, _ = self.maintenance
            weeks = rng.choice(["two", "three", "four", "six"])
            self.chart.add(section, f"Stopped taking {drug['name']} about {weeks} weeks before this presentation", f"I stopped the {drug['name']} a few weeks ago. I felt fine, so I didn't see the point.")
        days = duration_days(self.fields["duration"])
        if days >= 14:
            # a course "over the past month" needs an illness longer than a month
            courses = [c for c in f["course"] if ("month" not in c[0] or days >= 45) and ("two weeks" not in c[0] or days >= 21)]
            self.add_frame(section, courses)
        impacts = [x for x in self.presentation.get("impact", ()) if self.fits(x)]
        if impacts:
            impact = _THIRD_PERSON.sub(self.p.pron["poss"], rng.choice(impacts))
            says = first_person(impact) or rng.choice(f["impact_says_fallback"])
            prefix = rng.choice(["Impact: ", "Functional impact: ", "Functioning: "])
            if self.ok(section, impact, says):
                self.chart.add(section, prefix + impact, says)

    def _onset_fits(self, phrase: str) -> bool:
        """An onset phrase that names a life stage ("in adolescence") must fit the age at onset."""
        years = duration_years(self.fields.get("duration", ""))
        onset_age = self.p.age - years
        low = phrase.lower()
        if "childhood" in low and onset_age >= 13:
            return False
        if "adolescence" in low and not 11 <= onset_age <= 20:
            return False
        if "early adulthood" in low and not 17 <= onset_age <= 30:
            return False
        return True

    def _maintenance_drug(self) -> None:
        """Whether the patient is already prescribed a drug whose level the hospital would check.

        A relapsing illness with a first-line drug that has a serum level exam (lithium, valproate)
        is often on it already; relapse often follows stopping it, which the level then shows.
        """
        rng = self.rng
        if self._prior_episode_chance() < 0.6:
            return
        options = []
        for m in self.principal.get("treatment", {}).get("medications", ()):
            drug = self.ref.drug(m["drug"])
            if drug is not None and self.ref.exam(f"{drug['name']} level") is not None and self._drug_safe(drug):
                options.append((drug, m.get("starting_dose") or drug.get("starting_dose", "")))
        if not options or rng.random() < 0.4:
            return
        self.maintenance = rng.choice(options)
        self.prior_episode = True
        self.nonadherent = self.p.setting != "outpatient" and rng.random() < 0.6

    def _prior_episode_chance(self) -> float:
        d = self.principal
        name = d["name"].lower()
        category = d.get("category")
        if "recurrent" in name:
            return 1.0
        if "single episode" in name or category in ("trauma_stressor",) or d["code"] in ("F23", "F05"):
            return 0.0
        if category == "bipolar" and d["code"] != "F34.0":
            return 0.85
        if category in ("schizophrenia_spectrum", "personality"):
            return 0.7
        course = str(d.get("course", "")).lower()
        if any(w in course for w in ("relaps", "recurr", "episodic", "chronic")):
            return 0.4
        return 0.2

    def _past_psychiatric(self) -> None:
        rng, f = self.rng, self.frames["past_psychiatric"]
        section = "past_psychiatric_history"
        d = self.principal
        if not self.prior_episode:
            self.prior_episode = rng.random() < self._prior_episode_chance()
        min_onset = max(5, int(d.get("age_range", (5, 90))[0]))
        if self.prior_episode and self.p.age - 1 > min_onset:
            onset_age = rng.randint(min_onset, self.p.age - 1)
            illness = lay_name(d)
            meds = [m for m in d.get("treatment", {}).get("medications", ()) if self.ref.drug(m["drug"]) is not None]
            if self.maintenance is not None:
                drug_name = self.maintenance[0]["name"]
            elif meds:
                drug_name = rng.choice(meds)["drug"]
            else:
                drug_name = None
            treaters = self.frames["treaters"]
            if onset_age < 18:
                treater = treaters["child"]
            elif d.get("category") in treaters["specialist_categories"]:
                treater = treaters["specialist"]
            else:
                treater = treaters["default"]
            therapies = [t for t in d.get("treatment", {}).get("psychotherapy", ()) if self.fits(t)]
            if d.get("category") in ("personality", "neurodevelopmental"):
                # lifelong conditions have contact with services, not "episodes"
                self.add_frame(section, f["prior_contact"], onset_age=onset_age, treater=treater, therapy=therapies[0] if therapies else "talking therapy")
            elif drug_name:
                frames = f["prior_episode"]
                if d.get("category") not in self.frames["episodic_categories"]:
                    frames = [x for x in frames if "episode" not in x[0]]  # "a previous episode" of a chronic condition reads wrong
                self.add_frame(section, frames, illness=illness, onset_age=onset_age, drug=drug_name, treater=treater)
            else:
                self.add_frame(section, f["prior_episode_no_drug"], illness=illness, onset_age=onset_age)
            inpatient = float(d.get("settings", {}).get("inpatient", 0))
            if inpatient >= 0.3 and rng.random() < 0.6 and self.p.age >= 16:
                years = rng.randint(1, max(1, min(10, self.p.age - onset_age)))
                self.add_frame(section, f["admissions"], n_admissions=rng.choice(["Two", "Three", "Four"]), years=years)
        else:
            self.add_frame(section, f["none"])
        if self.risk_level != "none" and self.p.age >= 14 and rng.random() < 0.2:
            self.add_frame(section, f["attempt"], attempt_age=rng.randint(max(12, self.p.age - 10), self.p.age))
        self_harming = any(s["concept"] == "self_harm" for s in self.presentation["symptoms"])
        if self_harming and rng.random() < 0.5 and self.p.age >= 14:
            self.add_frame(section, f["self_harm"], weeks=rng.randint(2, 10))

    def _mental_status(self) -> None:
        rng = self.rng
        mse = self.presentation.get("mse", {})
        for key in MSE_KEYS:
            variants = [v for v in mse.get(key, ()) if v and v.strip()]
            section = f"mental_status_exam.{key}"
            fitting = [v for v in variants if self.ok(section, v)]
            if not fitting:
                continue
            # prefer descriptors whose symptoms the history already states (a jealous delusion in the
            # mental state of a patient whose history describes persecution reads wrong)
            extra = [len(self._unstated_symptoms(v)) for v in fitting]
            pick = self._pick_descriptor([v for v, e in zip(fitting, extra) if e == min(extra)])
            says = None
            if key == "mood":
                word = pick.strip().strip("'\"").rstrip(".")
                if word and len(word.split()) <= 4:
                    says = fill(rng.choice(self.frames["mood_says"]), {"mood": cap(word) if False else word})
                    says = sentence(says)
            self.chart.add(section, pick, says)

    def _pick_descriptor(self, options: list[str]) -> str:
        """One of equally fitting mental-state descriptors (version 2 weighs them by how few of the suite hold them)."""
        return self.rng.choice(options)

    def _unstated_symptoms(self, text: str) -> set[str]:
        pos, _ = self.chart.readings(text)
        lex = self.ref.lexicon
        return {c for c in pos - self.chart.asserted if c in lex and lex.get(c).kind != "history"}

    def _risk(self) -> None:
        rng, r = self.rng, self.frames["risk"]
        concepts = self.chart.asserted
        rc = self.frames["risk_concepts"]
        if concepts & set(rc["suicide_active"]):
            self.risk_level = "active"
        elif concepts & set(rc["suicide_passive"]) and self.risk_level == "none":
            self.risk_level = "passive"
        protective, protective_lay = rng.choice(r["protective"])
        if self.p.age < 16:
            protective, protective_lay = rng.choice([["{poss} family", "my family"], ["{poss} pets", "my dog"]])
        elif "children" in protective and not self.p.household.children or "partner" in protective and self.p.household.partner is None or "job" in protective and not self.p.household.employed:
            protective, protective_lay = "{poss} family", "my family"
        fields = {"protective": self.fill(protective), "protective_lay": protective_lay}
        level_key = {"none": "suicide_low", "passive": "suicide_passive", "active": "suicide_active"}[self.risk_level]
        if level_key == "suicide_low" and concepts & set(rc["self_harm"]):
            level_key = "suicide_self_harm"
        if not self.add_frame("risk_assessment.suicide", r[level_key], **fields) and self.risk_level == "none":
            self.add_frame("risk_assessment.suicide", [["No current suicidal ideation reported", "No."]])
        violent = bool(concepts & set(rc["violence"]))
        self.add_frame("risk_assessment.violence", r["violence_raised" if violent else "violence_low"])
        neglect = self.p.age >= 16 and (bool(concepts & set(rc["self_neglect"])) or ("neurocognitive" in self.categories and self.p.age >= 70 and rng.random() < 0.5))
        if neglect or rng.random() < 0.5:
            self.add_frame("risk_assessment.self_neglect", r["neglect_raised" if neglect else "neglect_low"])

    def _substances(self) -> None:
        rng, s = self.rng, self.c.substances
        section = "substance_use"
        if self.p.age < 13:
            self.add_frame(section, s["child"], fit=False)
            return
        heavy: list[str] = []
        for code in self.codes:
            for family, substance in s["families"].items():
                if code == family or code_family(code) == family:
                    heavy.append(substance)
        drink, drink_lay = rng.choice(s["drinks"])
        said = " ".join(f.says or "" for f in self.chart.facts).lower()
        said += " " + " ".join(f.text for f in self.chart.facts).lower()
        for candidate, lay in s["drinks"]:  # keep the drink the patient already named
            word = lay.split()[0]
            if word in said and _word_pattern(word).search(said):  # the plain test first: most drinks are not named
                drink, drink_lay = candidate, lay
                break
        numbers = {
            "units": rng.randint(9, 17), "months": rng.randint(2, 24), "years": rng.randint(2, 20),
            "bags": rng.randint(2, 6), "mg": rng.choice([60, 80, 120, 160, 240]), "grams": rng.randint(1, 5),
            "sessions": rng.randint(2, 5), "debt": f"{rng.randint(2, 40) * 1000:,}", "drink": drink,
            "drink_lay": drink_lay, "drink_lay_cap": cap(drink_lay), "light_units": rng.randint(2, 10),
            "cigarettes": rng.choice([5, 10, 15, 20]), "binge_units": rng.randint(10, 20),
        }
        for substance in heavy:
            frames = s["heavy"][substance]
            tied = [fr for fr in frames if len(fr) > 2 and any(w in said and _word_pattern(w).search(said) for w in fr[2])]
            self.add_frame(section, [fr[:2] for fr in (tied or frames)], **numbers)
        if "alcohol" not in heavy and self.p.age >= 16:
            if self.screens_positive("alcohol"):
                self.add_frame(section, s["hazardous"]["alcohol"], **numbers)
            else:
                key = "alcohol" if rng.random() < 0.6 else "alcohol_none"
                if not self.add_frame(section, s["light"][key], **numbers):
                    self.add_frame(section, s["light"]["alcohol_none" if key == "alcohol" else "alcohol"], **numbers)
        if self.p.age >= 16:
            self.add_frame(section, s["light"]["tobacco"], **numbers)
        if not any(x in heavy for x in ("opioids", "cannabis", "cocaine")):
            if self.screens_positive("drugs"):
                self.add_frame(section, s["hazardous"]["drugs"], **numbers)
            else:
                key = "drugs_past" if self.p.age >= 25 and rng.random() < 0.15 else "drugs_none"
                self.add_frame(section, s["light"][key], fit=False)
        elif self.p.age < 16:
            pass

    def _medical(self) -> None:
        rng = self.rng
        section = "medical_history"
        conditions = []
        for cond in self.c.medical["conditions"]:
            if self.p.age < cond["min_age"] or cond.get("sex", self.p.sex) != self.p.sex:
                continue
            p = float(cond["p"]) * (1.6 if self.p.age >= 60 else 1.0)
            if rng.random() < p:
                conditions.append(cond)
        conditions = conditions[:3]
        if not conditions:
            self.add_frame(section, self.frames["medical_none"])
            return
        for cond in conditions:
            template = rng.choice(self.frames["medical"])
            text = fill(template, {"Condition": cond["name"], "control": rng.choice(self.frames["medical_control"])})
            self.chart.add(section, text, cond.get("says"))
            if cond.get("drug"):
                self.medical_drugs.append(f"{cond['drug']} {cond['dose']}")
            self.medical_exams.update(cond.get("affects_exams", ()))

    def _medications(self) -> None:
        rng = self.rng
        section = "medications"
        items = list(self.medical_drugs)
        if self.maintenance is not None:
            drug, dose = self.maintenance
            if self.nonadherent:
                items.append(f"{drug['name']} (prescribed, not taken for several weeks)")
            else:
                items.append(f"{drug['name']} {maintenance_dose(drug, dose)}")
        if not items:
            self.add_frame(section, self.frames["medications_none"])
            return
        listing = "; ".join(items)
        text = fill(rng.choice(self.frames["medications_list"]), {"list": listing})
        self.chart.add(section, text, f"I take {' and '.join(i.split(' (')[0] for i in items)}.")

    def _allergies(self) -> None:
        self.add_frame("allergies", self.frames["allergies"])

    def _family(self) -> None:
        rng, f = self.rng, self.frames
        section = "family_history"
        relatives = self.c.people["relatives"]
        stage = life_stage(self.p.age)
        pool = relatives["parent"] + relatives["sibling"] + relatives["aunt_uncle"]
        if stage in ("child", "adolescent"):
            pool = relatives["parent"] + relatives["sibling"] + relatives["grandparent"] + relatives["aunt_uncle"]
        elif stage == "older":
            pool = relatives["sibling"] + relatives["parent"] + (relatives["child"] if self.p.household.children else [])
        wrote = False
        excluded = set(self.c.people["family_history_exclude"]["codes"])
        if rng.random() < 0.5:
            same = [
                d for d in self.ref.disorders.values()
                if d.get("category") == self.principal.get("category") and d.get("age_range", (0, 99))[1] >= 40 and d["code"] not in excluded
            ]
            if same and rng.random() < 0.6:
                illness_d = rng.choice(same)
            else:
                common = [self.ref.disorders[c] for c in ("F32.1", "F33.1", "F10.20", "F41.1", "F20.9", "F31.81") if c in self.ref.disorders]
                illness_d = rng.choice(common) if common else self.principal
            relative = rng.choice(pool)
            wrote = self.add_frame(section, f["family"], Relative=cap(relative), relative=relative, illness=lay_name(illness_d))
        if rng.random() < 0.05 and stage != "child":
            relative = rng.choice(relatives["aunt_uncle"] + relatives["grandparent"])
            wrote = self.add_frame(section, f["family_suicide"], Relative=cap(relative), relative=relative) or wrote
        if rng.random() < 0.3:
            relative = rng.choice(relatives["parent"] if self.p.age < 60 else relatives["sibling"])
            self.add_frame(section, f["family_medical"], Relative=cap(relative), relative=relative, relative_age=rng.randint(52, 78))
        if not wrote:
            self.add_frame(section, f["family_none"])

    def _personal(self) -> None:
        rng, f = self.rng, self.frames
        section = "personal_history"
        stage = life_stage(self.p.age)
        category = self.principal.get("category")
        code = self.principal["code"]
        if stage in ("child", "adolescent") or category == "neurodevelopmental" or (self.p.age < 40 and rng.random() < 0.35):
            delayed = code in ("F84.0", "F70") or (category == "neurodevelopmental" and rng.random() < 0.3)
            self.add_frame(section, f["development"]["delayed" if delayed else "typical"])
        adverse_p = 0.7 if category in ("trauma_stressor", "personality", "dissociative", "disruptive_impulse_conduct") else 0.2
        if stage != "child" or rng.random() < 0.5:
            self.add_frame(section, f["childhood"]["adverse" if rng.random() < adverse_p else "stable"])
        if stage in ("child", "adolescent") or rng.random() < 0.3:
            if code in ("F70", "F84.0") and rng.random() < 0.7:
                kind = "learning"
            elif category in ("disruptive_impulse_conduct",) or code.startswith("F90") and rng.random() < 0.6:
                kind = "difficult"
            else:
                kind = "typical"
            self.add_frame(section, f["school"][kind])
        occupation = self.p.household.occupation
        if stage in ("adult", "older"):
            if self.p.household.employed and not occupation.startswith(("retired", "self-employed", "part-time")):
                if self.p.age >= 21 and category not in ("personality", "substance_related"):
                    self.add_frame(section, f["work"], article=article(occupation), occupation=occupation, years=rng.randint(2, min(30, self.p.age - 19)))
                else:
                    self.add_frame(section, f["work"][:1], article=article(occupation), occupation=occupation)
            else:
                self.add_frame(section, f["work_other"], occupation=occupation)
            marital = self.p.household.marital_status
            if marital == "married":
                key = "married"
            elif marital in ("cohabiting", "in a relationship"):
                key = "partnered"
            elif marital in ("divorced", "separated"):
                key = "separated"
            elif marital == "widowed":
                key = "widowed"
            else:
                key = "single"
            spouse = {"female": "husband", "male": "wife"}.get(self.p.sex, "partner")
            options = self.frames["relationships"][key]
            if self.chart.asserted & {"unstable_relationships", "fear_of_abandonment", "callousness"}:
                options = [o for o in options if "supportive" not in o[0]] or options
            if key == "married" and not self.p.household.children:
                options = [o for o in options if "{n_children}" not in o[0]]
            if key == "separated" and not self.p.household.children:
                options = [o for o in options if "children" not in o[0]] or [["Recently separated from {poss} partner.", "We split up recently."]]
            most = max(2, min(40, self.p.age - 20))
            couple = self.c.people["couple_years"]  # a couple with children at home has been together long enough to have them
            least = couple["min_with_children"] if self.p.household.children and not re.search(couple["young_child_pattern"], str(self.p.demographics.get("living_situation", "")), re.I) else 2
            least = max(least, int(getattr(self, "couple_min_years", 0)))  # a partner who saw the illness begin (v2: StoryV2._witness)
            years = rng.randint(min(least, most), most)
            share = couple.get("adult_life_share", {}).get(key) if self.c.version >= 2 else None
            if share is not None:  # version 2: a share of the adult life (people.json couple_years.adult_life_share, stop 47),
                # the same draw placed in the wider span, so that the case's stream draws as before
                adult = max(2, self.p.age - couple["witness"]["from_age"])
                low = min(max(least, round(share * adult)), adult)
                u = (years - min(least, most)) / max(1, most - min(least, most))
                years = round(low + u * (adult - low))
            self.add_frame(section, options, years=years, n_children=rng.choice(["two", "three", "one"]) , spouse=spouse)
        living = self.p.demographics["living_situation"]
        self.chart.add(section, cap(fill(living, self.fields)), None)
        if stage in ("adult", "older"):
            offending = bool(self.chart.asserted & {"antisocial_acts", "aggression", "rule_violations", "deceitfulness"})
            forensic = offending or (category in ("disruptive_impulse_conduct", "substance_related") and rng.random() < 0.4)
            self.add_frame(section, f["forensic"]["some" if forensic else "none"], teen_age=rng.randint(14, 17))

    def _pertinent_negatives(self) -> None:
        rng = self.rng
        section = "history_of_present_illness"
        negatives = list(self.presentation.get("pertinent_negatives", ()))
        rng.shuffle(negatives)
        written = 0
        for concept in negatives:
            if written >= 4:
                break
            if concept in self.chart.asserted:
                continue
            term = self.ref.concept_term(concept)
            is_sign = concept in self.ref.lexicon and self.ref.lexicon.get(concept).kind == "sign"
            frame = rng.choice(self.frames["denial_sign" if is_sign else "denial"])
            text = self.fill(frame[0], term=term, Term=cap(term))
            says = rng.choice(frame[1])
            # the denial must read as a denial of this concept, and must not deny anything the record asserts
            pos, neg = self.chart.readings(text)
            if concept not in neg or neg & self.chart.asserted or pos:
                continue
            self.chart.add(section, text, says, False)
            written += 1

    # ------------------------------------------------------------------------------- exams

    def _plan_exams(self) -> None:
        """What each exam of the work-up will show (results are written later, in :meth:`exams`)."""
        rng = self.rng
        expectations: dict[str, tuple[Expectation, Entry]] = {}
        order: list[str] = []
        self.planned = (expectations, order)

        def consider(exp: Expectation, comorbid: bool) -> None:
            entry = self.ref.exam(exp.exam)
            if entry is None or not self._exam_fits(entry):
                return
            level_drug = self.ref.level_exam_drug(entry["name"])
            if level_drug is not None:
                if self.maintenance is None or self.maintenance[0]["name"] != level_drug["name"]:
                    return
                exp = Expectation(entry["name"], "abnormal" if self.nonadherent else "normal", direction="low" if self.nonadherent else None)
            name = entry["name"]
            if name in expectations:
                old, _ = expectations[name]
                expectations[name] = (stronger(entry, old, exp), entry)
                return
            if comorbid and not exp.abnormal and rng.random() < 0.5:
                return
            expectations[name] = (exp, entry)
            order.append(name)

        for i, d in enumerate(self.disorders):
            specs = [Expectation.from_spec(s) for s in d.get("exams", ())]
            if i > 0:
                specs = [s for s in specs if s.abnormal][:3] + [s for s in specs if not s.abnormal][:1]
            for exp in specs:
                consider(exp, i > 0)
        if self.maintenance is not None:
            entry = self.ref.exam(f"{self.maintenance[0]['name']} level")
            if entry is not None and entry["name"] not in expectations:
                consider(Expectation(entry["name"], "normal"), False)
        # risk scales follow the risk narrative
        for name, bands in self.frames.get("risk_scales", {}).items():
            if name.startswith("_") or name not in expectations:
                continue
            exp, entry = expectations[name]
            label = bands.get({"none": "none", "passive": "passive", "active": "active"}[self.risk_level])
            if label is None:
                normal = next((b for b in entry.get("bands", ()) if is_normal_band(entry, b)), None)
                expectations[name] = (Expectation(name, "normal", band=normal["label"] if normal else None), entry)
            else:
                expectations[name] = (Expectation(name, "abnormal", band=label), entry)

    def screens_positive(self, substance: str) -> bool:
        """Whether a planned screening exam (AUDIT for alcohol, DAST-10 or a drug screen for drugs) reads abnormal."""
        expectations, _ = self.planned
        for name in self.c.substances["screens"].get(substance, ()):
            planned = expectations.get(name)
            if planned is not None and planned[0].abnormal:
                return True
        return False

    def exams(self) -> list[ExamRecord]:
        rng = self.rng
        expectations, order = self.planned
        records: list[ExamRecord] = []
        for n in order:
            exp, entry = expectations[n]
            records.append(ExamRecord(entry["name"], entry["kind"], self._result(entry, exp, self._severity(entry, records)), True))
        records += self._exams_on_file(set(order))
        return records

    def _severity(self, entry: Entry, done: list[ExamRecord]) -> float | None:
        """Where a report's measures sit between mild and severe: the position of the case's score on
        the exam's ``measures.severity_scale`` across that scale's abnormal bands, when it is on file."""
        scale_name = (entry.get("measures") or {}).get("severity_scale")
        scale = self.ref.exam(scale_name) if scale_name else None
        record = next((r for r in done if scale is not None and r.name == scale["name"]), None)
        m = re.search(r"(\d+(?:\.\d+)?)\s*/", record.result) if record is not None else None
        if m is None:
            return None
        abnormal = [b for b in scale.get("bands", ()) if not is_normal_band(scale, b)]
        if not abnormal:
            return None
        low, high = min(b["min"] for b in abnormal), max(b["max"] for b in abnormal)
        return (float(m.group(1)) - low) / (high - low) if high > low else None

    def _exam_fits(self, entry: Entry) -> bool:
        """Whether an exam is one for this patient (``fits`` in exams.json: no pregnancy test for a man, no adult
        self-report scale for a child, no parent-and-teacher screen for an adult)."""
        exam = resolve_exam(entry["name"])
        return exam is None or exam.fits(self.p.age, self.p.sex)

    def _exams_on_file(self, taken: set[str]) -> list[ExamRecord]:
        """A few routine exams that are on file but not indicated for this case, with unremarkable results."""
        rng = self.rng
        keys = set(self.codes) | self.categories
        concept_categories: set[str] = set()
        for concept in self.chart.asserted:
            if concept in self.ref.lexicon:
                concept_categories |= set(self.ref.lexicon.get(concept).categories)
        candidates = []
        for name in ROUTINE_EXAMS:
            entry = self.ref.exam(name)
            if entry is None or entry["name"] in taken or not self._exam_fits(entry) or entry["name"] in self.medical_exams:
                continue
            indicated_for = set(entry.get("indicated_for", ()))
            if indicated_for & keys:
                continue
            if entry.get("kind") == "scale" and indicated_for & concept_categories:
                continue
            if "neurocognitive" in self.categories and "self-report" in str(entry.get("description", "")):
                continue  # a confused patient does not fill in a questionnaire
            if entry["name"] == "Urine drug screen" and (self.chart.asserted & {"drug_use", "cannabis_use"} or self.p.age < 13):
                continue
            candidates.append(entry)
        n = min(len(candidates), rng.choice([1, 1, 2, 2, 3]))
        chosen = rng.sample(candidates, n) if n else []
        return [ExamRecord(e["name"], e["kind"], self._result(e, Expectation(e["name"], "normal")), False) for e in chosen]

    def _result(self, entry: Entry, expectation: Expectation, severity: float | None = None) -> str:
        """The exam's result; a child's weight is reported as a centile, not an adult BMI."""
        if self.p.age < 16 and entry["name"] == "Weight and BMI" and not expectation.abnormal:
            return f"weight and BMI on the {self.rng.choice([25, 50, 50, 75])}th centile for age"
        return exam_result(entry, expectation, self.rng, severity)

    # ---------------------------------------------------------------------------- treatment

    def _treated_already(self, disorder: Entry, medications: list[dict[str, str]]) -> bool:
        """Whether a drug already in the plan is also first-line for this (comorbid) disorder."""
        in_plan = {m["name"] for m in medications}
        for m in disorder.get("treatment", {}).get("medications", ()):
            drug = self.ref.drug(m["drug"])
            if drug is not None and drug["name"] in in_plan:
                return True
        return False

    def _drug_safe(self, drug: Entry) -> bool:
        if set(drug.get("unsafe_with", ())) & set(self.codes):
            return False
        for d in self.disorders:
            for c in d.get("contraindicated_drugs", ()):
                if self.ref.drug(c["drug"]) is drug:
                    return False
        return True

    def treatment(self) -> dict[str, Any]:
        rng, plan = self.rng, self.frames["plan"]
        sentences = [rng.choice(plan["setting"][self.p.setting])]
        medications: list[dict[str, str]] = []
        classes: set[str] = set()
        if self.maintenance is not None:
            drug, dose = self.maintenance
            dose = maintenance_dose(drug, dose)
            medications.append({"name": drug["name"], "dose": dose})
            classes.add(drug.get("class", ""))
            key = "continue" if self.nonadherent else "continue_adherent"
            sentences.append(fill(rng.choice(plan[key]), {"drug": drug["name"], "dose": dose}))
        for i, d in enumerate(self.disorders):
            # a comorbid disorder adds its own drug only when it is a substance disorder (relapse
            # prevention, withdrawal) or the principal has none: no doubling of antidepressants
            if i > 0 and d.get("category") != "substance_related" and medications:
                continue
            options = []
            for m in d.get("treatment", {}).get("medications", ()):
                drug = self.ref.drug(m["drug"])
                if drug is None or not self._drug_safe(drug) or drug.get("class") in classes:
                    continue
                if any(x["name"] == drug["name"] for x in medications):
                    continue
                if i > 0 and self._treated_already(d, medications):
                    break
                options.append((drug, m.get("starting_dose") or drug.get("starting_dose", "")))
            if i == 0 and self.maintenance is not None:
                continue
            if not options:
                continue
            drug, dose = options[0] if rng.random() < 0.6 else rng.choice(options)
            medications.append({"name": drug["name"], "dose": dose})
            classes.add(drug.get("class", ""))
            sentences.append(fill(rng.choice(plan["start"]), {"drug": drug["name"], "dose": dose}))
        if not medications:
            sentences.append(rng.choice(plan["no_drug"]))
        therapies: list[str] = []
        from mentalhospital_env.knowledge.critical import load_critical_actions

        actions = load_critical_actions()  # a treatment made for other ages (family-based treatment at 24) is left out
        for i, d in enumerate(self.disorders):
            options = [
                t
                for t in d.get("treatment", {}).get("psychotherapy", ())
                if self.fits(t) and not actions.made_for_other_ages(t, self.p.age)
            ]
            take = options[:2] if i == 0 else options[:1]
            for t in take:
                if not any(t.lower() in x.lower() or x.lower() in t.lower() for x in therapies):
                    therapies.append(t)
        if therapies:
            sentences.append(fill(rng.choice(plan["therapy"]), {"therapy": join_words(therapies)}))
        others = [o for o in self.principal.get("treatment", {}).get("other", ()) if self.fits(o)]
        if others:
            chosen = others[: rng.randint(1, min(3, len(others)))]
            sentences.append(cap("; ".join(chosen)) + ".")
        safety = [x for x in self.principal.get("safety", ()) if self.fits(x)]
        if self.risk_level != "none" and not any("suicid" in s.lower() for s in safety):
            for d in self.disorders[1:]:
                safety += [s for s in d.get("safety", ()) if "suicid" in s.lower() and s not in safety][:1]
        if safety:
            sentences.append(cap("; ".join(safety)) + ".")
        follow_up = self.principal.get("treatment", {}).get("follow_up")
        if follow_up:
            sentences.append(fill(rng.choice(plan["follow_up"]), {"follow_up": follow_up, "Follow_up_cap": cap(follow_up)}))
        out: dict[str, Any] = {"plan": " ".join(sentence(s) for s in sentences)}
        out["medications"] = medications
        if therapies:
            out["psychotherapy"] = therapies
        if safety:
            out["safety"] = safety
        if follow_up:
            out["follow_up"] = follow_up
        return out

    # ------------------------------------------------------------------------------ persona

    def persona(self) -> dict[str, Any]:
        rng = self.rng
        hints = self.presentation.get("persona", {})
        out: dict[str, Any] = {}
        verbosity = hints.get("verbosity") or ["average"]
        out["verbosity"] = rng.choice(verbosity)
        g = hints.get("guardedness") or [0.2, 0.5]
        out["guardedness"] = round(rng.uniform(float(g[0]), float(g[-1])), 2)
        out["insight"] = rng.choice(hints.get("insight") or ["partial"])
        styles = [s for s in hints.get("speech_style", ()) if self.fits(s)]
        if styles:
            out["speech_style"] = rng.choice(styles)
        if self.p.informant:
            out["informant"] = self.p.informant
        return out


def stronger(entry: Entry, old: Expectation, new: Expectation) -> Expectation:
    """Of two expectations for the same exam, the one a combined picture shows: abnormal over normal,
    and for scales the more severe band."""
    if new.abnormal and not old.abnormal:
        return new
    if old.abnormal and not new.abnormal:
        return old
    bands = [b["label"].lower() for b in entry.get("bands", ())]
    if old.band and new.band and old.band.lower() in bands and new.band.lower() in bands:
        return new if bands.index(new.band.lower()) > bands.index(old.band.lower()) and old.band.lower() != "normal" else old
    return old


def maintenance_dose(drug: Entry, dose: str) -> str:
    """A maintenance dose phrase: the first dose of a starting regimen (``"400 mg at night"``)."""
    text = dose.split(",")[0].split("(")[0].strip()
    return text or drug.get("starting_dose", "")


def join_words(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def lay_name(disorder: Entry) -> str:
    """A name for the disorder as people say it: the first plain lower-case synonym, else the name."""
    for s in disorder.get("synonyms", ()):
        if s and s == s.lower() and s.replace(" ", "").replace("-", "").replace("'", "").isalpha():
            return s
    return disorder["name"][:1].lower() + disorder["name"][1:]


CaseComposer.story_class = _Story
