"""Checks of the clinical presentation data: data/presentations.json and data/lexicon/symptoms.json.

These are the files the case generator builds every case from and the simulated patient speaks from,
so the checks are about contract (every code of the fixed list, every concept defined, the shape the
generator expects) and about clinical language (lay words in patient speech, no diagnosis names,
sensitive concepts flagged, MSE descriptors for all eleven domains).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from mentalhospital_env.knowledge import load_knowledge
from mentalhospital_env.knowledge.codes import category_ids, category_of_code
from mentalhospital_env.knowledge.language import tokenize
from mentalhospital_env.knowledge.lexicon import Lexicon

DATA = Path(str(resources.files("mentalhospital_env.knowledge").joinpath("data")))

FIXED_CODES = [
    "F05",
    "F03.90",
    "F06.70",
    "F10.20",
    "F10.230",
    "F11.20",
    "F12.20",
    "F14.20",
    "F63.0",
    "F20.9",
    "F20.0",
    "F25.0",
    "F22",
    "F23",
    "F31.2",
    "F31.12",
    "F31.4",
    "F31.81",
    "F34.0",
    "F32.1",
    "F32.2",
    "F32.3",
    "F33.1",
    "F34.1",
    "F32.81",
    "F41.1",
    "F41.0",
    "F40.10",
    "F40.00",
    "F93.0",
    "F42.2",
    "F45.22",
    "F63.3",
    "F42.3",
    "F43.10",
    "F43.21",
    "F43.22",
    "F43.0",
    "F44.81",
    "F48.1",
    "F44.4",
    "F45.1",
    "F45.21",
    "F68.10",
    "F50.01",
    "F50.2",
    "F50.81",
    "F50.82",
    "F51.01",
    "G47.33",
    "G47.411",
    "F51.5",
    "F60.3",
    "F60.2",
    "F60.0",
    "F60.6",
    "F91.3",
    "F91.1",
    "F63.81",
    "F90.2",
    "F90.0",
    "F84.0",
    "F70",
    "F95.2",
]

MSE_KEYS = (
    "appearance",
    "behavior",
    "speech",
    "mood",
    "affect",
    "thought_process",
    "thought_content",
    "perception",
    "cognition",
    "insight",
    "judgment",
)

# Words a patient would not use about themselves: clinical register, and diagnosis names the patient
# must never say (the doctor has to infer them).
JARGON = (
    "anhedonia",
    "ideation",
    "psychomotor",
    "dysphori",
    "euthymi",
    "hallucinat",
    "delusion",
    "grandios",
    "tangential",
    "derailment",
    "alogia",
    "avolition",
    "catatoni",
    "depersonali",
    "derealis",
    "dissociat",
    "hypervigilan",
    "cataplex",
    "apnoea",
    "apnea",
    "hypersomnia",
    "insomnia",
    "somati",
    "comorbid",
    "diagnos",
    "disorder",
    "dsm",
    "icd",
    "affect ",
    "congruent",
    "neologism",
    "bipolar",
    "schizo",
    "ptsd",
    "ocd",
    "adhd",
    "anorexi",
    "bulimi",
    "autis",
    "asperger",
    "tourette",
    "narcolep",
    "dementia",
    "delirium",
    "hypochondria",
    "trichotillomania",
    "dysmorphi",
    "borderline",
    "antisocial",
    "agoraphobi",
    "mania",
    "manic",
    "hypomani",
    "psychosis",
    "psychotic",
    "cyclothymi",
    "dysthymi",
    "factitious",
    "conversion",
    "intellectual disab",
    "oppositional",
    "conduct disorder",
    "premenstrual dysphoric",
    "pmdd",
    "gad",
    "the patient",
    "patient reports",
)
FIRST_PERSON = {"i", "i'm", "i've", "i'd", "i'll", "me", "my", "myself", "we", "we're", "our", "us", "mine"}
SENSITIVE_CONCEPTS = {
    "suicidal_ideation",
    "suicide_plan",
    "self_harm",
    "homicidal_ideation",
    "aggression",
    "sexual_disinhibition",
    "reduced_libido",
    "intrusive_harm_thoughts",
    "purging",
    "symptom_fabrication",
    "deceitfulness",
    "antisocial_acts",
    "cruelty",
    "property_destruction",
    "rule_violations",
    "craving",
    "tolerance",
    "loss_of_control_use",
    "use_despite_harm",
    "withdrawal_tremor",
    "withdrawal_sweats",
    "withdrawal_nausea",
    "withdrawal_anxiety",
    "relief_drinking",
    "blackouts",
    "withdrawal_seizure_risk",
    "opioid_withdrawal",
    "drug_seeking",
    "stimulant_crash",
    "stimulant_effects",
    "cannabis_effects",
    "gambling_preoccupation",
    "chasing_losses",
    "gambling_concealment",
    "intrusive_memories",
    "flashbacks",
    "trauma_related_guilt",
}


def _read(path: Path) -> dict:
    return json.loads(path.read_text("utf-8"))


@pytest.fixture(scope="module")
def presentations() -> list[dict]:
    return _read(DATA / "presentations.json")["presentations"]


@pytest.fixture(scope="module")
def symptom_concepts() -> list[dict]:
    return _read(DATA / "lexicon" / "symptoms.json")["concepts"]


@pytest.fixture(scope="module")
def all_concepts() -> dict[str, dict]:
    """Every concept of the lexicon folder (symptoms.json and the knowledge engineer's files), raw."""
    out: dict[str, dict] = {}
    for path in sorted((DATA / "lexicon").glob("*.json")):
        for c in _read(path)["concepts"]:
            out.setdefault(c["id"], c)
    return out


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    """The lexicon as the library loads it (validated by load_knowledge)."""
    return load_knowledge().lexicon


def _jargon_in(text: str) -> list[str]:
    low = " " + text.lower() + " "
    return [j for j in JARGON if re.search(r"(?<![a-z])" + re.escape(j), low)]


# ---------------------------------------------------------------- lexicon/symptoms.json


def test_symptom_lexicon_has_enough_concepts_with_unique_ids(symptom_concepts):
    ids = [c["id"] for c in symptom_concepts]
    assert len(ids) >= 120
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    assert not dupes, f"duplicate concept ids in symptoms.json: {dupes}"
    for starter in ("low_mood", "suicidal_ideation", "auditory_hallucinations"):
        assert starter in ids


def test_concept_ids_unique_across_lexicon_folder():
    seen: dict[str, str] = {}
    clashes = []
    for path in sorted((DATA / "lexicon").glob("*.json")):
        for c in _read(path)["concepts"]:
            if c["id"] in seen:
                clashes.append(f"{c['id']} in {seen[c['id']]} and {path.name}")
            seen[c["id"]] = path.name
    assert not clashes, clashes


def test_symptom_concepts_are_well_formed(symptom_concepts):
    cats = set(category_ids())
    for c in symptom_concepts:
        where = f"symptoms.json concept {c['id']!r}"
        assert re.fullmatch(r"[a-z][a-z0-9_]*", c["id"]), where
        assert c["kind"] in ("symptom", "sign"), where
        assert c["domain"], where
        assert len(c["clinical_terms"]) >= 1, where
        assert len(c["lay_phrases"]) >= 3, where
        assert 1 <= len(c["questions"]) <= 3, where
        assert all(q.strip()[-1] in "?." and len(tokenize(q)) >= 4 for q in c["questions"]), where
        assert isinstance(c["sensitive"], bool), where
        assert c["categories"] and set(c["categories"]) <= cats, where
        terms = [t.lower() for t in c["clinical_terms"] + c["lay_phrases"]]
        assert len(terms) == len(set(terms)), f"{where}: a term is listed twice"
        assert all(tokenize(t) for t in terms), f"{where}: a term has no word"


def test_questions_are_mostly_open(symptom_concepts):
    """Open questions first (a direct screening question may follow for risk and specific signs)."""
    open_start = re.compile(
        r"(How|What|Tell|Can you|Could you|Where|When|Walk|Which|Who|Sometimes|Some people)\b"
    )
    closed = [c["id"] for c in symptom_concepts if not open_start.match(c["questions"][0])]
    assert len(closed) <= len(symptom_concepts) // 20, closed


def test_lay_phrases_are_lay(symptom_concepts):
    bad = [(c["id"], p) for c in symptom_concepts for p in c["lay_phrases"] if _jargon_in(p)]
    assert not bad, bad


DIAGNOSIS_WORDS = (
    "bipolar",
    "schizo",
    "ptsd",
    "ocd",
    "adhd",
    "anorexia nervosa",
    "bulimi",
    "autis",
    "tourette",
    "narcolep",
    "dementia",
    "delirium",
    "hypochondria",
    "trichotillomania",
    "dysmorphi",
    "borderline",
    "antisocial",
    "agoraphobi",
    "cyclothymi",
    "dysthymi",
    "factitious",
    "disorder",
)


def test_first_clinical_term_is_a_symptom_not_a_diagnosis(symptom_concepts):
    """Records write a concept's first clinical term ("{term} for three weeks", "denies {term}")."""
    bad = [
        (c["id"], c["clinical_terms"][0])
        for c in symptom_concepts
        if any(w in c["clinical_terms"][0].lower() for w in DIAGNOSIS_WORDS)
    ]
    assert not bad, bad


def test_sensitive_concepts_are_flagged(symptom_concepts):
    flags = {c["id"]: c["sensitive"] for c in symptom_concepts}
    missing = sorted(cid for cid in SENSITIVE_CONCEPTS if cid in flags and not flags[cid])
    assert not missing, f"concepts that need rapport but are not flagged sensitive: {missing}"
    assert {"suicidal_ideation", "suicide_plan", "self_harm", "homicidal_ideation"} <= {
        k for k, v in flags.items() if v
    }


def test_clinical_terms_find_their_own_concept(symptom_concepts, lexicon):
    """Record text that uses a concept's first clinical term is recognised as that concept."""
    missed = [c["id"] for c in symptom_concepts if c["id"] not in lexicon.concepts_in(c["clinical_terms"][0])]
    assert not missed, missed


# ---------------------------------------------------------------- presentations.json


def test_every_fixed_code_has_exactly_one_presentation(presentations):
    codes = [p["code"] for p in presentations]
    assert sorted(codes) == sorted(FIXED_CODES), (
        f"missing {sorted(set(FIXED_CODES) - set(codes))}, unexpected {sorted(set(codes) - set(FIXED_CODES))}, "
        f"duplicated {[c for c, n in Counter(codes).items() if n > 1]}"
    )
    assert all(category_of_code(c) is not None for c in codes)


def test_presentation_keys_are_those_of_the_schema(presentations):
    keys = {
        "code",
        "symptoms",
        "pertinent_negatives",
        "onset_phrases",
        "durations",
        "precipitants",
        "impact",
        "mse",
        "persona",
    }
    for p in presentations:
        assert set(p) == keys, (p["code"], set(p) ^ keys)


def test_symptoms_reference_defined_concepts(presentations, all_concepts):
    for p in presentations:
        concepts = [s["concept"] for s in p["symptoms"]]
        assert 6 <= len(concepts) <= 12, (p["code"], len(concepts))
        assert len(concepts) == len(set(concepts)), (p["code"], "a concept listed twice")
        undefined = [c for c in concepts + p["pertinent_negatives"] if c not in all_concepts]
        assert not undefined, (p["code"], undefined)
        clash = set(concepts) & set(p["pertinent_negatives"])
        assert not clash, (p["code"], "both present and absent", clash)
        assert p["pertinent_negatives"], p["code"]


def test_symptom_entries_are_well_formed(presentations, all_concepts):
    for p in presentations:
        for s in p["symptoms"]:
            where = f"{p['code']} {s['concept']}"
            assert set(s) <= {"concept", "p", "text", "patient_says", "sensitive"}, where
            assert 0 < s["p"] <= 1, where
            assert s["text"].strip(), where
            assert bool(s.get("sensitive", False)) == bool(all_concepts[s["concept"]]["sensitive"]), (
                f"{where}: the sensitive flag must follow the concept's"
            )
        # the first symptom is the defining feature of the disorder, present in (nearly) every case
        assert p["symptoms"][0]["p"] >= 0.8, p["code"]


def test_patient_says_are_varied_first_person_lay_speech(presentations):
    n_first = n_all = 0
    for p in presentations:
        for s in p["symptoms"]:
            where = f"{p['code']} {s['concept']}"
            says = s["patient_says"]
            assert len(says) >= 3, where
            assert len({x.strip().lower() for x in says}) == len(says), f"{where}: repeated variant"
            first = [x for x in says if FIRST_PERSON & set(tokenize(x))]
            assert first, f"{where}: the patient speaks about themselves, in the first person"
            n_first += len(first)
            n_all += len(says)
            for x in says:
                assert not _jargon_in(x), f"{where}: clinical word {_jargon_in(x)} in {x!r}"
            lengths = [len(tokenize(x)) for x in says]
            assert max(lengths) >= 1.3 * min(lengths), f"{where}: variants all the same length"
    assert n_first >= 0.8 * n_all, f"only {n_first}/{n_all} variants are in the first person"


def test_patient_says_mostly_name_their_concept(presentations, lexicon):
    """The lexicon reads most lay variants as their own concept, so patient speech can be checked against the record."""
    total = found = 0
    for p in presentations:
        for s in p["symptoms"]:
            for x in s["patient_says"]:
                total += 1
                found += s["concept"] in lexicon.concepts_in(x)
    assert found / total >= 0.8, f"only {found}/{total} patient_says variants are found by the lexicon"


def test_patient_says_name_no_other_symptom(presentations, lexicon):
    """A variant must not state another symptom or sign: a case may lack it, and the patient would then say
    something the record does not support (a hallucination by the fidelity measure)."""
    strays = []
    for p in presentations:
        for s in p["symptoms"]:
            for x in s["patient_says"]:
                for m in lexicon.find(x):
                    other = lexicon.get(m.concept_id)
                    if m.concept_id != s["concept"] and not m.negated and other.kind != "history":
                        strays.append(f"{p['code']} {s['concept']}: {x!r} also names {m.concept_id}")
    total = sum(len(s["patient_says"]) for p in presentations for s in p["symptoms"])
    assert len(strays) <= total // 500, strays


def test_knowledge_loader_accepts_the_presentations():
    kb = load_knowledge()
    assert {p.code for p in kb.presentations} == set(FIXED_CODES)
    for code in FIXED_CODES:
        pres = kb.presentation(code)
        assert pres is not None and pres.symptoms and set(pres.mse) == set(MSE_KEYS)


def test_mse_has_every_domain_with_variants(presentations):
    for p in presentations:
        assert set(p["mse"]) == set(MSE_KEYS), (p["code"], set(p["mse"]) ^ set(MSE_KEYS))
        for key in MSE_KEYS:
            variants = p["mse"][key]
            # at least two ways to chart each domain; more for disorders with few lines elsewhere, so that two patients of
            # one suite are not charted in the same words (the audit's template.clone rule, stop 31)
            assert 2 <= len(variants) <= 8, (p["code"], key, len(variants))
            assert all(v.strip() for v in variants), (p["code"], key)
            assert len(set(variants)) == len(variants), (p["code"], key)
        assert all(v.startswith("'") and v.endswith("'") for v in p["mse"]["mood"]), (
            p["code"],
            "mood is the patient's own word, in quotes",
        )


def test_mse_is_consistent_with_the_disorder(presentations):
    by_code = {p["code"]: p["mse"] for p in presentations}

    def joined(code: str, key: str) -> str:
        return " ".join(by_code[code][key]).lower()

    for code in ("F31.2", "F31.12"):
        assert "pressured" in joined(code, "speech"), code
        assert "flight of ideas" in joined(code, "thought_process"), code
    assert "fluctuat" in joined("F05", "cognition") and "disorient" in joined("F05", "cognition")
    assert "blunt" in joined("F20.9", "affect") or "flat" in joined("F20.9", "affect")
    assert "hallucinat" in joined("F20.9", "perception")
    for code in ("F32.1", "F41.1", "F43.21"):
        assert "hallucinat" not in joined(code, "perception").replace("denies hallucinations", ""), code


def test_onset_duration_precipitant_impact_persona(presentations):
    for p in presentations:
        code = p["code"]
        assert p["onset_phrases"] and all("{duration}" in o for o in p["onset_phrases"]), code
        assert all(o.count("{") == 1 for o in p["onset_phrases"]), code
        assert p["durations"] and all(d.strip() for d in p["durations"]), code
        for d in p["durations"]:  # a span of time that reads well in every onset phrase ("over {duration}")
            assert re.fullmatch(
                r"(one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|eighteen|twenty-four|"
                r"thirty-six) (hours?|days?|weeks?|months?|years?)",
                d,
            ), (code, d)
        for o in p[
            "onset_phrases"
        ]:  # read after "Symptoms came on", "The current difficulties developed", "{Term}, "
            assert re.match(
                r"(gradually|insidiously|slowly|suddenly|abruptly|acutely|cyclically|over|about|within|in|by|after|"
                r"immediately|some|on and off)\b|\{duration\} ",
                o,
            ), (code, o)
        assert isinstance(p["precipitants"], list), code
        for x in p[
            "precipitants"
        ]:  # read after "Precipitated by", "Onset followed", "The recent stressor was"
            assert not re.match(r"(after|following|since|to|first|when)\b", x), (code, x)
        assert len(p["impact"]) >= 2, code
        for x in p[
            "impact"
        ]:  # a verb phrase, so the patient can say it in the first person ("I've stopped ...")
            head = x.split()[0]
            assert (
                head in ("has", "is")
                or head.endswith("ing")
                or (head.endswith("ed") and head not in ("need", "bed", "red"))
            ), (code, x)
            assert not re.search(r"\b(they|them|themselves|he|she|him|himself|herself)\b", x), (
                code,
                x,
                "reads wrong in the first person",
            )
        persona = p["persona"]
        assert set(persona) == {"verbosity", "insight", "guardedness", "speech_style"}, code
        assert persona["verbosity"] and set(persona["verbosity"]) <= {"terse", "average", "talkative"}, code
        assert persona["insight"] and set(persona["insight"]) <= {"full", "partial", "none"}, code
        lo, hi = persona["guardedness"]
        assert 0 <= lo <= hi <= 1, code
        assert len(persona["speech_style"]) >= 2, code


def test_every_symptom_concept_is_used(presentations, symptom_concepts):
    used = {s["concept"] for p in presentations for s in p["symptoms"]}
    used |= {c for p in presentations for c in p["pertinent_negatives"]}
    unused = sorted(c["id"] for c in symptom_concepts if c["id"] not in used)
    assert len(unused) <= len(symptom_concepts) // 10, f"lexicon concepts no presentation uses: {unused}"
