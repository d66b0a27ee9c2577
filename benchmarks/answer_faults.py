"""Count faults of WHAT the patient answers over whole scripted encounters (issue 13, reader of stop 21).

    python benchmarks/answer_faults.py [--suite handwritten] [--seed 0] [--save T.json | --load T.json] [--show 5]

Plays the scripted clinician on every case of the suite (through the evaluation harness, as
``reading_sample.py`` does) and counts, per encounter, over the patient's replies:

* **verbatim repeats**: a reply identical to an earlier reply of the encounter (case and spacing
  aside), and a sentence of five or more words said before, not marked as said before ("Like I
  said, ...");
* **chief-complaint appends**: a sentence of the patient's answer to the opening "what brings you"
  question said again to a question that is not about the complaint (bedtime, getting on with people);
* **don't know about a known fact**: a reply that opens "I'm not sure" / "I don't know" to a question
  (its last question sentence) whose subject the record covers (rules in ``data/answer_faults.json``, written by reading records:
  "Who do you live with?" when the record says "Married 20 yrs, 2 children");
* **"no" to a wh-question**: a reply opening "No"/"Nope" to a what/how/who question;
* **affirm then deny**: a reply opening "Yes" / "Sort of, yes" / "I think so" whose next sentence
  denies ("... I haven't had any ...").

It imports nothing from the patient: its rules read the doctor's words, the reply and the record.
The counts are a reader's aid; each printed example is to be read, and the reading wins.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

RULES_FILE = Path(__file__).resolve().parent / "data" / "answer_faults.json"
_SENTENCE = re.compile(r"(?<=[.?!])\s+")
_WORD = re.compile(r"[a-z0-9']+")
_OPENING = re.compile(r"\b(brought you|brings you|bring you|what's been happening|what has been happening|"
                      r"how can I help|what can I do for you)\b", re.IGNORECASE)
_WH = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|right|well|now)\b,?\s*)?(?:what|how|who|where|which|tell me|describe)\b",
                 re.IGNORECASE)
_YES_NO_START = re.compile(r"^\W*(?:do|does|did|have|has|had|are|is|was|were|can|could|would|will|any)\b", re.IGNORECASE)
_NO = re.compile(r"^\W*(?:no|nope|nah)(?:[,.!]|\s*$)", re.IGNORECASE)  # "No, ...", "Nope.", not "No problems there"
_YES = re.compile(r"^\W*(?:(?:sort of|kind of|i think so|i suppose),?\s*)?(?:yes|yeah|yep|i think so)\b", re.IGNORECASE)
_DENIAL = re.compile(r"^\W*(?:no\b|i haven'?t\b|i have not\b|i'?ve never\b|i don'?t\b|i do not\b|i never\b|not really\b)",
                     re.IGNORECASE)


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text.strip()) if s]


def _record_text(case: dict, fields: list[str]) -> str:
    out = []
    ehr = case.get("ehr", {})
    for name in fields:
        if name.startswith("demographics."):
            out.append(str(case.get("demographics", {}).get(name.split(".", 1)[1]) or ""))
            continue
        value = ehr.get(name)
        if isinstance(value, dict):
            out.extend(str(v) for v in value.values())
        elif value:
            out.append(str(value))
    return " ".join(out)


class Faults:
    """The counting rules, loaded from ``data/answer_faults.json``."""

    def __init__(self, path: Path = RULES_FILE):
        raw = json.loads(path.read_text("utf-8"))
        self.dont_know = re.compile(raw["dont_know"], re.IGNORECASE)
        self.complaint_question = re.compile(raw["complaint_question"], re.IGNORECASE)
        self.like_i_said = re.compile(raw["like_i_said"], re.IGNORECASE)
        self.rules = [
            (r["name"], re.compile(r["question"], re.IGNORECASE), r["fields"], re.compile(r["record"], re.IGNORECASE),
             re.compile(r["unless"], re.IGNORECASE) if r.get("unless") else None)
            for r in raw["rules"]
        ]

    def known(self, question: str, case: dict) -> str | None:
        """The rule under which the record covers what the question asks, or ``None``."""
        for name, asks, fields, record, unless in self.rules:
            if asks.search(question):
                text = _record_text(case, fields)
                if record.search(text) and not (unless and unless.search(text)):
                    return name
        return None

    def encounter(self, case: dict, turns: list[tuple[str, str]]) -> dict[str, list[tuple[str, str, str]]]:
        """The faults of one encounter: kind -> [(question, reply, note)]."""
        found: dict[str, list[tuple[str, str, str]]] = {k: [] for k in KINDS}
        said: set[str] = set()
        said_sentences: set[str] = set()
        complaint: set[str] = set()
        for doctor, patient in turns:
            asked = _sentences(doctor)
            last = next((s for s in reversed(asked) if s.endswith("?")), asked[-1] if asked else "")
            norm = _norm(patient)
            sentences = [_norm(s) for s in _sentences(patient)]
            if not norm:
                continue
            marked = self.like_i_said.search(patient) is not None
            if norm in said and len(norm.split()) >= 3:
                found["verbatim_reply"].append((doctor, patient, "whole reply said before"))
            elif not marked:
                again = [s for s in sentences if len(s.split()) >= 5 and s in said_sentences]
                if again:
                    found["verbatim_sentence"].append((doctor, patient, again[0]))
            if complaint and not self.complaint_question.search(last) and not _OPENING.search(doctor):
                back = [s for s in sentences if s in complaint and len(s.split()) >= 3]
                if back:
                    found["complaint_append"].append((doctor, patient, back[0]))
            if _OPENING.search(doctor) and not complaint:
                complaint = {s for s in sentences if len(s.split()) >= 3 and not self.dont_know.search(s)}
            if self.dont_know.search(patient):
                rule = self.known(last, case)
                if rule:
                    found["dont_know_known"].append((doctor, patient, rule))
            if _WH.match(last) and not _YES_NO_START.match(last) and _NO.match(patient):
                found["no_to_wh"].append((doctor, patient, ""))
            parts = _sentences(patient)
            if len(parts) >= 2 and _YES.match(parts[0]) and _DENIAL.match(parts[1]):
                found["affirm_then_deny"].append((doctor, patient, ""))
            said.add(norm)
            said_sentences.update(s for s in sentences if len(s.split()) >= 5)
        return found


KINDS = ("verbatim_reply", "verbatim_sentence", "complaint_append", "dont_know_known", "no_to_wh", "affirm_then_deny")


def play(suite: str, seed: int) -> tuple[dict[str, dict], dict[str, list[tuple[str, str]]]]:
    from reading_sample import turns_of

    from mentalhospital_env.cases import load_suite

    loaded = load_suite(suite)
    cases = {c.case_id: c.to_dict() for c in loaded.cases}
    turns: dict[str, list[tuple[str, str]]] = {}
    for case_id, doctor, patient, _mark, _added in turns_of(suite, list(cases), "full", seed):
        turns.setdefault(case_id, []).append((doctor, patient))
    return cases, turns


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", default="handwritten")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", type=Path, help="write the played transcripts here")
    ap.add_argument("--load", type=Path, help="count over transcripts saved by --save instead of playing")
    ap.add_argument("--show", type=int, default=3, help="examples printed per kind")
    args = ap.parse_args(argv)
    if args.load:
        saved = json.loads(args.load.read_text("utf-8"))
        cases, turns = saved["cases"], {k: [tuple(t) for t in v] for k, v in saved["turns"].items()}
    else:
        cases, turns = play(args.suite, args.seed)
        if args.save:
            args.save.write_text(json.dumps({"cases": cases, "turns": turns}, indent=1), "utf-8")
    faults = Faults()
    totals: Counter[str] = Counter()
    examples: dict[str, list[tuple[str, str, str, str]]] = {k: [] for k in KINDS}
    n_replies = 0
    for case_id in sorted(turns):
        n_replies += len(turns[case_id])
        for kind, items in faults.encounter(cases[case_id], turns[case_id]).items():
            totals[kind] += len(items)
            examples[kind].extend((case_id, *item) for item in items)
    print(f"answer faults: {len(turns)} scripted encounters, {n_replies} replies ({args.suite}, seed {args.seed})")
    for kind in KINDS:
        print(f"  {kind:20s} {totals[kind]:4d}  ({100 * totals[kind] / max(1, n_replies):.1f}% of replies)")
    for kind in KINDS:
        for case_id, doctor, patient, note in examples[kind][: args.show]:
            print(f"\n[{kind}] {case_id}" + (f" ({note})" if note else "") + f"\n  D: {doctor}\n  P: {patient}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
