"""Small synthetic cases built from the lexicon, for the patient's tests and fidelity benchmark.

The bundled suites are the project's real corpus; these cases exist so that the patient can be
tested on many generated records whatever the suites hold: each case has a principal disorder of one
category (``data/casebook.json``), symptoms of that category from the lexicon (clinical wording in
the record, lay wording in ``patient_says`` for some), pertinent negatives from other categories, a
relative's illness, a history item, sometimes suicidal thoughts (sensitive), and a random persona.
Deterministic under the seed; every case passes the case loader.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from importlib import resources

from mentalhospital_env.cases import Case, load_case
from mentalhospital_env.knowledge.lexicon import Lexicon, load_lexicon

from .representation import lay_renderer


@lru_cache(maxsize=1)
def _ingredients() -> dict:
    return json.loads(resources.files(__package__).joinpath("data/casebook.json").read_text("utf-8"))


def _term(lexicon: Lexicon, concept_id: str, rng: random.Random) -> str | None:
    """A clinical term of the concept that the lexicon finds back as that concept, not negated."""
    concept = lexicon.get(concept_id)
    terms = list(concept.clinical_terms) or list(concept.lay_phrases)
    rng.shuffle(terms)
    for term in terms:
        found = lexicon.find(f"Reports {term}.")
        if any(m.concept_id == concept_id and not m.negated for m in found) and len(found) == 1:
            return term
    return None


def lexicon_case(seed: int, lexicon: Lexicon | None = None) -> Case:
    """One generated case (id ``lex-<seed>``)."""
    lex = lexicon or load_lexicon()
    lay = lay_renderer(lex)
    rng = random.Random(seed)
    book = _ingredients()
    by_category: dict[str, list[str]] = {}
    for c in lex.concepts:
        if c.kind != "history" and not c.sensitive:
            for cat in c.categories:
                by_category.setdefault(cat, []).append(c.id)
    categories = sorted(cat for cat in book["disorders"] if len(by_category.get(cat, ())) >= 4)
    category = rng.choice(categories)
    code, name = book["disorders"][category]
    duration = rng.choice(book["durations"])
    own = sorted(by_category[category])
    positives = rng.sample(own, min(len(own), rng.randint(3, 6)))
    others = sorted({cid for cat, ids in by_category.items() if cat != category for cid in ids} - set(own))
    negatives = rng.sample(others, 3)
    facts: list[dict] = []
    frames = book["frames"]

    def add(section: str, text: str, says: str | None = None, sensitive: bool = False) -> None:
        n = sum(1 for f in facts if f["section"] == section) + 1
        fact = {"id": f"{section}-{n}", "section": section, "text": text}
        if says:
            fact["patient_says"] = says
        if sensitive:
            fact["sensitive"] = True
        facts.append(fact)

    described = []
    for i, cid in enumerate(positives):
        term = _term(lex, cid, rng)
        if term is None:
            continue
        text = rng.choice(frames["symptom"]).format(
            Term=term[0].upper() + term[1:], term=term, duration=duration
        )
        section = "chief_complaint" if not described else "history_of_present_illness"
        says = lay.clause(cid) if rng.random() < 0.6 else None
        add(section, text, says)
        described.append(cid)
    for cid in negatives:
        term = _term(lex, cid, rng)
        if term is not None:
            add("history_of_present_illness", rng.choice(frames["negative"]).format(term=term))
    if rng.random() < 0.5:
        term = _term(lex, rng.choice(own), rng)
        if term is not None:
            add(
                "family_history",
                frames["family"][0].format(relative=rng.choice(book["relatives"]), term=term),
            )
    if rng.random() < 0.4 and "suicidal_ideation" in lex:
        term = _term(lex, "suicidal_ideation", rng)
        if term is not None:
            add(
                "risk_assessment.suicide",
                f"{term[0].upper() + term[1:]}, no plan or intent.",
                lay.clause("suicidal_ideation"),
                True,
            )
    if "alcohol_use" in lex and rng.random() < 0.5:
        add(
            "substance_use",
            "Drinks two glasses of wine at weekends.",
            "I have a couple of glasses of wine at the weekend.",
            True,
        )
    add("mental_status_exam.mood", rng.choice(["'Low'", "'Worried'", "'Fine'", "'Up and down'"]))
    add("mental_status_exam.affect", rng.choice(["Constricted", "Anxious", "Reactive", "Blunted"]))
    by_section: dict[str, list[str]] = {}
    for f in facts:
        by_section.setdefault(f["section"], []).append(f["text"])
    ehr: dict = {}
    mse: dict = {}
    risk: dict = {}
    for section, texts in by_section.items():
        text = " ".join(texts)
        if section.startswith("mental_status_exam."):
            mse[section.split(".", 1)[1]] = text
        elif section.startswith("risk_assessment."):
            risk[section.split(".", 1)[1]] = text
        else:
            ehr[section] = text
    ehr.setdefault("chief_complaint", "Feeling unwell.")
    ehr.setdefault("history_of_present_illness", "Symptoms for " + duration + ".")
    ehr["mental_status_exam"] = mse
    if risk:
        ehr["risk_assessment"] = risk
    raw = {
        "case_id": f"lex-{seed}",
        "language": "en",
        "demographics": {"age": rng.randint(18, 80), "sex": rng.choice(["female", "male"])},
        "setting": rng.choice(["outpatient", "inpatient", "emergency"]),
        "ehr": ehr,
        "exams": [{"name": "PHQ-9", "kind": "scale", "result": f"{rng.randint(5, 27)}/27"}],
        "diagnosis": {"categories": [category], "disorders": [{"name": name, "code": code}]},
        "treatment": {"plan": "Follow-up in two weeks."},
        "persona": {
            "verbosity": rng.choice(["terse", "average", "talkative"]),
            "guardedness": round(rng.uniform(0.1, 0.9), 2),
            "insight": rng.choice(["full", "partial", "none"]),
            "speech_style": rng.choice(book["speech_styles"]),
        },
        "facts": facts,
        "source": {"generator": "mentalhospital_env.patient.casebook", "seed": seed},
    }
    return load_case(raw)


def lexicon_cases(n: int, seed: int = 0, lexicon: Lexicon | None = None) -> list[Case]:
    """``n`` generated cases with seeds ``seed .. seed+n-1``."""
    return [lexicon_case(seed + i, lexicon) for i in range(n)]
