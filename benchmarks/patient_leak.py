"""Does the patient's uncertainty leak the hidden diagnosis? (issue 13, stop 45)

Every case is asked the same battery of screening questions, one per core feature of the common disorders
(``benchmarks/data/patient_leak/core_features.json``), each in a fresh encounter. Each reply is classed affirm / hedge /
deny / other from what the patient says (the text a doctor policy sees, with the reply's own marks). Only the
pairs (case, feature) where the record says nothing either way are counted: the feature is neither stated,
nor ruled out, nor implied by what the record states of the patient (its own sentences, tests or plan). There
a patient whose uncertainty does not depend on the diagnosis hedges as often on the reference disorder's
features as on any other's. Reported: the hedge rate on silent features that are core to the reference
diagnosis vs on silent features that are not, their ratio, and how often "the disorder whose features were
hedged" names the reference diagnosis (a one-line classifier a policy could learn).

    python benchmarks/patient_leak.py --suites test-v2,dev-v2,handwritten --sample 120 --seed 7
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
from collections import Counter
from pathlib import Path

CORE = Path(__file__).resolve().parent / "data" / "patient_leak" / "core_features.json"

# one screening question per core feature (plain words, as a doctor asks them)
BATTERY = {
    "low_mood": "Have you been feeling low or down?",
    "anhedonia": "Have you lost interest in things you used to enjoy?",
    "fatigue": "Have you been feeling tired or short of energy?",
    "poor_concentration": "Have you had trouble concentrating?",
    "elevated_mood": "Have you been feeling unusually high or on top of the world lately?",
    "hypomanic_episodes": "Have you ever had spells of feeling very high, full of energy and needing little sleep?",
    "alcohol_use": "Do you drink alcohol?",
    "opioid_use": "Have you used heroin or other opioids?",
    "drug_use": "Do you use any street drugs?",
    "cannabis_use": "Do you smoke cannabis?",
    "sedative_use": "Do you take sleeping tablets or diazepam that weren't prescribed for you?",
    "stimulant_use": "Have you used cocaine or speed?",
    "agoraphobic_avoidance": "Do you avoid crowded places, shops or buses?",
    "anticipatory_anxiety": "Do you dread situations for days before they happen?",
    "social_anxiety": "Do you get very anxious around people, worried they'll judge you?",
    "social_avoidance": "Do you avoid social situations?",
    "panic_attacks": "Have you had panic attacks?",
    "excessive_worry": "Do you worry a lot about everyday things?",
    "obsessions": "Do you get unwanted thoughts that keep coming back into your mind?",
    "intrusive_memories": "Do memories of something terrible keep coming back to you?",
    "trauma_history": "Has anything traumatic happened to you?",
    "food_restriction": "Have you been cutting down on what you eat?",
    "fear_of_weight_gain": "Are you afraid of putting on weight?",
    "binge_eating": "Do you ever eat a very large amount in one go and feel you can't stop?",
    "gambling": "Do you gamble?",
    "inattention": "Do you find it hard to pay attention?",
    "hyperactivity": "Are you restless, always on the go?",
    "memory_loss": "Have you had problems with your memory?",
    "disorientation": "Do you get confused about where you are or what day it is?",
    "fluctuating_attention": "Does your attention come and go during the day?",
}
HEDGE = re.compile(
    r"\b(?:not sure|don't know|hard to say|hard to put|haven't really thought|how to describe|how to put it|"
    r"rather not|don't (?:really )?want to (?:go into|talk)|something else|come back to it|no idea)\b",
    re.IGNORECASE,
)
DENY = re.compile(r"^(?:\W*(?:no|nope|never|not really)\b|i (?:don't|haven't|do not|have not|never|wouldn't)\b)",
                  re.IGNORECASE)


def half_of(case_id: str) -> int:
    return int(hashlib.md5(case_id.encode()).hexdigest(), 16) % 2


def reply_class(reply) -> str:
    """affirm (a concept asked affirmed), deny, hedge (not sure, kept back), other (some other fact told)."""
    text = reply.text.strip()
    if reply.affirmed:
        return "affirm"
    if reply.denied or (DENY.search(text) and not re.match(r"\W*no idea", text, re.IGNORECASE)):
        return "deny"
    if reply.withheld or reply.unknown or HEDGE.search(text):
        return "hedge"
    return "other"


def core_features(codes, by_code) -> set[str]:
    out: set[str] = set()
    for prefix, concepts in by_code.items():
        if any(c.upper().startswith(prefix) for c in codes):
            out.update(concepts)
    return out


def silent_features(case, index) -> set[str]:
    """Battery features the record says nothing of, either way (no sentence, test or plan implies them)."""
    from dataclasses import replace

    from mentalhospital_env.patient.implied import implied_findings

    own = [f for f in index.facts if f.section != "family_history"]
    no_dx = replace(case, diagnosis=None)
    justified = implied_findings(no_dx, (c for f in own for c in f.affirms))
    said = index.supported_present | index.supported_absent | set(index.denied_by_meaning) | set(index.ruling_out)
    return {c for c in BATTERY if c not in said and c not in justified}


def main(argv=None) -> int:
    from mentalhospital_env.cases import load_suite
    from mentalhospital_env.patient import make_patient

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suites", default="test-v2,dev-v2,handwritten")
    ap.add_argument("--sample", type=int, default=120, help="cases drawn per generated suite (0: all)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--half", type=int, choices=(0, 1), help="only cases of this half (md5 of the id, mod 2)")
    ap.add_argument("--show", type=int, default=0, help="print this many hedged silent pairs")
    args = ap.parse_args(argv)
    by_code = {k.upper(): tuple(v) for k, v in json.loads(CORE.read_text("utf-8")).items() if not k.startswith("_")}
    rng = random.Random(args.seed)
    cases = []
    for suite in [s.strip() for s in args.suites.split(",") if s.strip()]:
        pool = list(load_suite(suite).cases)
        if args.sample and suite != "handwritten" and len(pool) > args.sample:
            pool = rng.sample(pool, args.sample)
        cases += [c for c in pool if args.half is None or half_of(c.case_id) == args.half]
    print(f"patient leak: {len(cases)} cases ({args.suites}, {args.sample or 'all'} drawn per generated suite, "
          f"seed {args.seed}{'' if args.half is None else f', half {args.half}'}); {len(BATTERY)} screening questions")
    table = Counter()  # (core to reference?, class) over silent pairs
    allpairs = Counter()
    guesses = Counter()
    shown = 0
    for case in cases:
        codes = [d.code for d in (case.diagnosis.disorders if case.diagnosis else ())]
        core = core_features(codes, by_code)
        patient = make_patient(case, "full", seed=0)
        silent = silent_features(case, patient.index)
        hedged = set()
        for concept, ask in BATTERY.items():
            patient.reset(0)
            reply = patient.respond(ask)
            cls = reply_class(reply)
            allpairs[cls] += 1
            if concept not in silent:
                continue
            table[(concept in core, cls)] += 1
            if cls == "hedge":
                hedged.add(concept)
                if shown < args.show:
                    shown += 1
                    print(f"  {case.case_id} {codes} {concept}: {ask} -> {reply.text}")
        # the classifier: does a disorder whose core features were hedged include the reference?
        if hedged:
            named = {prefix for prefix, cs in by_code.items() if hedged & set(cs)}
            hit = any(any(c.upper().startswith(p) for c in codes) for p in named)
            guesses["hit" if hit else "miss"] += 1
        else:
            guesses["no hedge"] += 1
    print("\nsilent (case, feature) pairs by reply class")
    print(f"{'':<26}{'affirm':>8}{'hedge':>8}{'deny':>8}{'other':>8}{'n':>8}{'hedge %':>9}")
    rates = {}
    for is_core, label in ((True, "core to reference dx"), (False, "not core to reference")):
        row = [table[(is_core, k)] for k in ("affirm", "hedge", "deny", "other")]
        n = sum(row)
        rates[is_core] = 100 * row[1] / n if n else 0.0
        print(f"{label:<26}" + "".join(f"{v:>8}" for v in row) + f"{n:>8}{rates[is_core]:>9.1f}")
    ratio = rates[True] / rates[False] if rates[False] else float("inf") if rates[True] else 1.0
    print(f"\nhedge rate ratio (core / not core): {ratio:.2f}   (no leak: about 1)")
    n_h = guesses["hit"] + guesses["miss"]
    print(f"cases with a hedged silent feature: {n_h}; the hedged features' disorder includes the reference dx in "
          f"{guesses['hit']} ({100 * guesses['hit'] / n_h if n_h else 0:.1f} %)")
    print("all battery replies by class:", dict(allpairs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
