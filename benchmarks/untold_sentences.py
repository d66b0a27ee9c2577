"""Record sentences a narrative record's compiled patient cannot say, coded by why (issue 13, stop 42).

    python benchmarks/untold_sentences.py                      # counts per half, per cause
    python benchmarks/untold_sentences.py --half even --list   # every such sentence, with its cause
    python benchmarks/untold_sentences.py --said               # told facts that look wrong, by kind

The narrative records are the ``handwritten`` suite and ``benchmarks/data/patient_exam/unseen/uw-*.json``;
the halves are even and odd record numbers. A fact of a history section (the examination and risk
formulation are the clinician's by design and not counted) that the compiler marks ``told: false`` is
coded by the first step that kept it from the patient:

* ``clinician_cue``: ``clinician_only`` (a ``not_told_cues`` / ``not_told_patterns`` match);
* ``clinician_voice``: the writer speaks in the first person outside a quotation;
* ``heading``: read as a document heading or a paragraph title;
* ``other_speaker``: a relative's or informant's labelled quotation (the informant's, by design);
* ``letter``: a referrer's letter's own voice;
* ``render``: no first-person rendering (``first_person``/repair/shape gave nothing);
* ``gate``: the wording gate (``_gate``) left no sentence;
* ``speakable``: the rendering failed the sounds-like-the-patient test (``_speakable``);
* ``other``: none of these (another step: a pronoun for someone unnamed, a cut).

``--said`` flags told renderings by kind: a writer's disclosure annotation said aloud, a chart value
(units, reference ranges, scores), another person's words (a relative's "states"/"says" with the patient
as "I"), a slashed date.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent
UNSEEN = ROOT / "data" / "patient_exam" / "unseen"
sys.path.insert(0, str(ROOT.parent))


def records():
    from mentalhospital_env.cases import load_suite

    out = list(load_suite("handwritten").cases)
    for path in sorted(UNSEEN.glob("uw-*.json")):
        out.extend(load_suite(path).cases)
    return out


def half_of(case_id: str) -> str:
    return "even" if int(re.sub(r"\D", "", case_id)) % 2 == 0 else "odd"


def cause(fact, case) -> str:
    from mentalhospital_env.cases import compile as c

    data = c._data()
    section, text = fact.section, fact.text
    if re.match(r"^[A-Z][\w ]*: '", text) and "patient_says" not in fact.to_dict():
        return "other_speaker"
    if re.search(data["letter_voice_pattern"], text, re.IGNORECASE) and section == "chief_complaint":
        return "letter"
    if c.clinician_only(section, text):
        return "clinician_cue"
    if c._clinician_voice(text):
        return "clinician_voice"
    if section not in ("medications", "allergies", "family_history") and not c._NEGATIVE_START.match(text) and c.heading(text):
        return "heading"
    sex = case.demographics.sex
    names = c._patient_names(case.ehr, sex)
    person = c._Person.of(sex)
    clean = c._clean(c._named_as_patient(text, names, person), data)
    says = c._medicines(clean, data) if section == "medications" else c.first_person(clean, section, sex)
    if says:
        says = c._repair(says, section, data) or None
    if says:
        says = c._whole(says, section, person, data, [])
    if says:
        says = c._spoken_shape(says, section, data)
    if not says:
        return "render"
    if c._gate(says, section, data) is None:
        return "gate"
    if not c._speakable(c._gate(says, section, data), section, person, data):
        return "speakable"
    return "other"


SAID_KINDS = {
    "annotation": re.compile(r"\b(?:told|disclosed|said|mentioned|raised)\b[^.]{0,20}\b(?:only|when|if)\b[^.]{0,12}\basked\b|\bnot raised by\b|\bon direct (?:questioning|questions)\b", re.I),
    "chart_value": re.compile(r"\b\d+(?:\.\d+)?\s*(?:mg|mmol|ng|u/l|g/l|mcg|bpm|mmhg|%|/10)\b|\bref(?:erence)? \d|\bscore[sd]? \d", re.I),
    "slashed_date": re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b"),
    "another_speaks": re.compile(r"^(?:My \w+|[A-Z][a-z]+) (?:states|says|said|reports|describes)\b.*\bI\b"),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--half", choices=("even", "odd", "both"), default="both")
    ap.add_argument("--list", action="store_true", help="print every untold sentence with its cause")
    ap.add_argument("--said", action="store_true", help="print told renderings that look wrong")
    args = ap.parse_args(argv)
    counts: dict[str, Counter] = {"even": Counter(), "odd": Counter()}
    said: dict[str, Counter] = {"even": Counter(), "odd": Counter()}
    totals: Counter = Counter()
    from mentalhospital_env.cases import compile as c

    clinician_sections = tuple(c._data()["not_told_sections"])
    for case in records():
        half = half_of(case.case_id)
        if args.half != "both" and half != args.half:
            continue
        for f in case.facts:
            if f.section.startswith(("mental_status_exam", "risk_assessment")) or f.section in clinician_sections:
                continue
            totals[half] += 1
            if not f.told or not f.patient_says:
                why = cause(f, case)
                counts[half][why] += 1
                if args.list:
                    print(f"{case.case_id}\t{why}\t{f.section}\t{f.text}")
                continue
            for kind, pattern in SAID_KINDS.items():
                if pattern.search(f.patient_says):
                    said[half][kind] += 1
                    if args.said:
                        print(f"{case.case_id}\tSAID:{kind}\t{f.section}\t{f.text}\n\t-> {f.patient_says}")
    for half in ("even", "odd"):
        if args.half not in ("both", half):
            continue
        n = sum(counts[half].values())
        print(f"{half}: {totals[half]} history facts, {n} given no words: "
              + ", ".join(f"{k} {v}" for k, v in counts[half].most_common())
              + " | told but looks wrong: " + (", ".join(f"{k} {v}" for k, v in said[half].most_common()) or "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
