"""Sentence reuse across the records of a suite: the stock lines a reader spots from one record to the next.

    python benchmarks/record_reuse.py test-v2
    python benchmarks/record_reuse.py path/to/suite.jsonl --top 30 --json out.json

Reads the suite's JSON Lines file itself and imports nothing from the generator or the audit, so it
cannot agree with them by construction. Each record's text is cut into sentences; a sentence counts
once per record, after lower-casing and writing every personal pronoun as ``P`` (so "he says" and
"she says" are the same line) and every number as ``N``. Quotations of the patient's own words are
counted on their own as well. Reported, per group of sections:

* the 20 sentences (and quotes) held by the most records;
* ``share_over_5pct``: the share of records that carry at least one sentence that more than 5% of the
  suite's records carry (a reader who reads twenty records meets it again);
* ``sentences_over_5pct``: how many distinct sentences are that common;
* ``story_share_over_5pct``: the same share over the story alone (chief complaint, present illness and
  past history sentences, and the patient's quotes), where a reader meets a person rather than a form;
* ``sections``: per record section (each risk and mental-state heading on its own), how many records
  carry a common sentence, how many common sentences it has, and its worst frame (``--sections``).

* ``clauses``: the same counts over clause frames (``--clauses``), which catch a stock clause inside
  sentences that otherwise differ ("...; limit quantities of medication dispensed if risk is raised,
  his wife to hold the supply"). The clause rule (:func:`clauses`): a sentence is cut at ``;`` ``:``,
  a dash, a bracket, and at a comma or ``but``/``whereas``/``although`` that opens a new clause;
  a clause of fewer than ``--clause-words`` words (a list item, "sooner if worse") is not counted.
  A clause frame is the clause lower-cased with pronouns written ``P``, numbers and number words
  ``N``, drug names (``knowledge/data/drugs.json``, names only) ``D``, relatives and carers ``R``,
  and capitalised words inside the sentence (names, places) ``X``.

* ``on_file`` (``--on-file``): reference-plan sentences that ask for what the record already holds or
  that do not apply to the patient, counted by rules of this file's own (:func:`plan_asks`): a test
  requested ("check", "baseline", "screen for", "request" ...) whose result is in the exams, unless the
  sentence repeats or monitors it ("repeat", "recheck", "every", "in 4 weeks"); "screen for
  depression" with a depression scale on file or a depressive diagnosis; the Mental Health Act to be
  "considered" for a patient the history says is detained; children's safeguarding for an adult
  whose record names no child, pregnancy or dependant (a line that asks whether there are children
  presumes none and is not counted).

``--threshold`` sets "common" (the issue's rule is 3%: ``--threshold 0.03``); the keys keep their
historical ``_5pct`` names whatever the threshold.

Short sentences (fewer than ``--min-words`` words, e.g. "No known drug allergies.") are charting
convention, not a story, and are left out of the sentence counts; quotes need two words.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

GROUPS = {
    "history": ("chief_complaint", "history_of_present_illness", "past_psychiatric_history"),
    "background": ("personal_history", "family_history", "substance_use", "medical_history"),
    "mental_state": ("mental_status_exam",),
    "risk": ("risk_assessment",),
    "plan": ("treatment",),
}
_PRONOUNS = {"he", "she", "they", "his", "her", "their", "him", "them", "hers", "himself", "herself", "themselves", "theirs"}
_QUOTE = re.compile(r"\"([^\"]+)\"|“([^”]+)”")
_NUMBER_WORDS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "twenty", "thirty", "forty", "fifty", "hundred", "once", "twice", "first", "second", "third", "half", "few", "several"}
_RELATIVES = {"wife", "husband", "partner", "mother", "father", "mum", "dad", "parents", "parent", "son", "daughter", "sister", "brother",
              "friend", "girlfriend", "boyfriend", "grandmother", "grandfather", "aunt", "uncle", "carer", "carers", "children", "child",
              "stepfather", "stepmother", "fiance", "fiancee", "flatmate", "neighbour", "cousin", "grandparents", "foster"}
_CLAUSE_CUT = re.compile(r"\s*[;:()\u2013\u2014]\s*|\s+-\s+|,\s+|\s+(?=(?:but|whereas|although|though)\b)")
_SPLIT = re.compile(r"(?<=[.!?])[\"”]?\s+(?=[A-Z\"“(])")


def suite_path(name: str) -> Path:
    p = Path(name)
    if p.exists():
        return p
    here = Path(__file__).resolve().parent.parent / "mentalhospital_env" / "cases" / "suites" / f"{name}.jsonl"
    if here.exists():
        return here
    raise SystemExit(f"record_reuse: no suite file {name!r} (a path, or a bundled suite name)")


def _texts(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def section_parts(case: dict) -> dict[str, str]:
    """Every section's text, the mental state and risk by heading ("mental_status_exam.affect")."""
    out = {}
    ehr = case.get("ehr") or {}
    for sections in GROUPS.values():
        for s in sections:
            value = ehr.get(s) if s != "treatment" else None
            if isinstance(value, dict):
                for k, v in value.items():
                    out[f"{s}.{k}"] = " ".join(_texts(v))
            else:
                out[s] = section_text(case, s)
    return out


def section_text(case: dict, section: str) -> str:
    if section == "treatment":
        t = case.get("treatment") or {}
        return " ".join(_texts({k: t.get(k) for k in ("plan", "follow_up")}))
    return " ".join(_texts((case.get("ehr") or {}).get(section)))


def normalise(sentence: str) -> str:
    words = re.findall(r"[A-Za-z][A-Za-z'-]*|\d+(?:\.\d+)?", sentence.lower())
    return " ".join("P" if w in _PRONOUNS else "N" if w[0].isdigit() else w for w in words)


def _drugs() -> frozenset[str]:
    """Drug names (each word of each name) from the knowledge base, for normalising only."""
    path = Path(__file__).resolve().parent.parent / "mentalhospital_env" / "knowledge" / "data" / "drugs.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))["drugs"]
    except (OSError, KeyError, ValueError):
        return frozenset()
    names = [d.get("name", "") for d in (data.values() if isinstance(data, dict) else data)]
    return frozenset(w for n in names for w in re.findall(r"[a-z][a-z-]+", n.lower()) if len(w) > 3)


_DRUG_WORDS: frozenset[str] | None = None


def clause_frame(clause: str) -> str:
    """A clause's frame: lower case, pronouns ``P``, numbers ``N``, drugs ``D``, relatives ``R``, names ``X``."""
    global _DRUG_WORDS
    if _DRUG_WORDS is None:
        _DRUG_WORDS = _drugs()
    out = []
    for i, w in enumerate(re.findall(r"[A-Za-z][A-Za-z'-]*|\d+(?:\.\d+)?", clause)):
        low = w.lower()
        if low in _PRONOUNS:
            out.append("P")
        elif w[0].isdigit() or low in _NUMBER_WORDS:
            out.append("N")
        elif low in _DRUG_WORDS:
            out.append("D")
        elif low in _RELATIVES or low.rstrip("s") in _RELATIVES:
            out.append("R")
        elif i > 0 and w[0].isupper() and not w.isupper() and low not in ("i",):
            out.append("X")
        else:
            out.append(low)
    return " ".join(out)


def clauses(text: str, min_words: int = 4) -> set[str]:
    """The frames of the clauses of ``text`` (the rule in the module's docstring), each once."""
    out = set()
    for s in _SPLIT.split(text.strip()):
        for c in _CLAUSE_CUT.split(s):
            c = c.strip(" .,!?\"'\u201c\u201d")
            c = re.sub(r"^(?:and|but|or|whereas|although|though|then|so)\s+", "", c, flags=re.IGNORECASE)
            key = clause_frame(c)
            if len(key.split()) >= min_words:
                out.add(key)
    return out


def _common(per_case: list[set[str]], limit: float) -> tuple[Counter, set[str], float]:
    """How often each key occurs over the records, the keys in more than ``limit`` records, and the share of
    records that carry one of them (the one count every reuse measure here makes)."""
    counts = Counter(k for keys in per_case for k in keys)
    common = {k for k, c in counts.items() if c > limit}
    return counts, common, round(sum(1 for keys in per_case if keys & common) / max(len(per_case), 1), 3)


def clause_measure(cases: list[dict], min_words: int = 4, threshold: float = 0.03, top: int = 10) -> dict:
    """Clause frames per section (mental state and risk by heading): records carrying a common frame,
    how many frames are common, the commonest frames; and over the whole record."""
    n = len(cases)
    limit = threshold * n
    parts = [section_parts(case) for case in cases]
    names = sorted({k for p in parts for k in p})
    report: dict = {"records": n, "threshold": threshold, "sections": {}}
    every: list[set[str]] = [set() for _ in cases]
    for name in names:
        keyed = [clauses(p.get(name, ""), min_words) for p in parts]
        for i, keys in enumerate(keyed):
            every[i] |= {f"{name}: {k}" for k in keys}
        counts, common, share = _common(keyed, limit)
        report["sections"][name] = {
            "share_over": share,
            "clauses_over": len(common),
            "top": [[c, k] for k, c in counts.most_common(top) if c > limit],
        }
    counts, common, share = _common(every, limit)
    report["share_over"] = share
    report["clauses_over"] = len(common)
    report["worst"] = [[c, k] for k, c in counts.most_common(top)]
    return report


_TESTS = {  # plan words -> the exam names that hold the result
    r"thyroid|\bTSH\b|\bTFTs?\b": ("TSH", "Thyroid function"),
    r"\bB12\b": ("Vitamin B12",),
    r"\bfolate\b": ("Folate",),
    r"\bECG\b": ("ECG",),
    r"drug screen": ("Urine drug screen",),
    r"full blood count|\bFBC\b|blood count": ("CBC",),
    r"liver function|\bLFTs?\b": ("LFT",),
    r"renal function|\beGFR\b|urea and electrolytes|\bU&Es?\b": ("BMP",),
    r"\bHbA1c\b": ("HbA1c",),
    r"\blipids?\b|lipid profile": ("Lipid panel",),
    r"pregnancy test": ("Pregnancy test",),
    r"brain imaging|\bMRI\b|\bCT head\b|neuroimaging": ("MRI brain", "CT head"),
}
_ASK = re.compile(r"\b(check|checks|checked|baseline|request|order|arrange|send|obtain|measure|screen for|test for|do an?)\b", re.IGNORECASE)
_MONITOR = re.compile(r"\b(repeat|repeated|recheck|re-check|again|every|monthly|yearly|annual|annually|months?|weeks?|days|until|trend|follow-up|on file|already|result|results|is|was|were|after|post-dose|with the level)\b", re.IGNORECASE)
_DEPRESSION_SCALES = ("PHQ-9", "HAM-D", "MADRS", "BDI", "BDI-II", "EPDS", "GDS", "HADS")
_DETAINED = re.compile(r"\b(?:under (?:a )?section|detained|sectioned|on a section)\b", re.IGNORECASE)
_CHILDREN = re.compile(r"\b(?:sons?|daughters?|child|children|kids|baby|babies|stepsons?|stepdaughters?|toddler|infant|twins|pregnant|pregnancy|weeks pregnant|dependants?)\b", re.IGNORECASE)
_CHILD_LINE = re.compile(r"\bchildren\b|\bchild(?:'s)?\b(?!hood)|\bdependants\b", re.IGNORECASE)
_ASKS = re.compile(r"\b(?:ask|asks|asked|whether|if any|any children)\b", re.IGNORECASE)  # a question about children presumes none


def plan_asks(case: dict) -> list[tuple[str, str]]:
    """(kind, plan sentence) for each plan sentence that asks for what the record already holds or
    that does not apply to the patient (the rules in the module's docstring)."""
    plan = section_text(case, "treatment")
    exams = {e.get("name", ""): e.get("result", "") for e in case.get("exams") or ()}
    ehr = case.get("ehr") or {}
    story = " ".join(_texts({k: ehr.get(k) for k in ("history_of_present_illness", "past_psychiatric_history", "chief_complaint")}))
    own = " ".join(_texts({k: ehr.get(k) for k in ("personal_history", "family_history", "history_of_present_illness", "medical_history")}))
    own += " " + " ".join(_texts(case.get("demographics") or {}))
    own = re.sub(r"\b(?:as a|only|of (?:\w+ )?)child(?:ren)?\b|\bchildhood\b", "", own, flags=re.IGNORECASE)
    codes = [str(d.get("code", "")) for d in (case.get("diagnosis") or {}).get("disorders") or ()]
    age = (case.get("demographics") or {}).get("age", 99)
    out = []
    for sent in _SPLIT.split(plan):
        for clause in re.split(r";\s*", sent):
            if re.search(r"screen(?:ing)? for depression|depression screen", clause, re.IGNORECASE) and (
                    any(n in exams for n in _DEPRESSION_SCALES) or any(c.startswith(("F32", "F33")) for c in codes)):
                out.append(("depression screen with a depression scale or diagnosis on file", clause))
                continue
            if re.search(r"(?:consider|use|otherwise assessment under) the Mental Health Act", clause) and _DETAINED.search(story):
                out.append(("Mental Health Act for a patient already detained", clause))
                continue
            if isinstance(age, int) and age >= 18 and _CHILD_LINE.search(clause) and not _ASKS.search(clause) and not _CHILDREN.search(own):
                out.append(("children's safeguarding with no child in the record", clause))
                continue
            if _MONITOR.search(clause):
                continue
            for words, names in _TESTS.items():
                held = [n for n in names if n in exams]
                if held and re.search(words, clause, re.IGNORECASE) and (_ASK.search(clause) or _ASK.search(sent)):
                    out.append((f"test on file: {held[0]}", clause))
                    break
    return out


def sentences(text: str, min_words: int) -> set[str]:
    out = set()
    for s in _SPLIT.split(text.strip()):
        key = normalise(s)
        if len(key.split()) >= min_words:
            out.add(key)
    return out


def quotes(text: str) -> set[str]:
    out = set()
    for m in _QUOTE.finditer(text):
        key = normalise(m.group(1) or m.group(2))
        if len(key.split()) >= 2:
            out.add(key)
    return out


def measure(cases: list[dict], min_words: int = 5, top: int = 20, threshold: float = 0.05) -> dict:
    n = len(cases)
    limit = threshold * n
    report: dict = {"records": n, "threshold": threshold, "groups": {}}
    every: list[set[str]] = [set() for _ in cases]
    for group, sections in {**GROUPS, "quotes": GROUPS["history"]}.items():
        per_case = []
        for i, case in enumerate(cases):
            text = " ".join(section_text(case, s) for s in sections)
            keys = quotes(text) if group == "quotes" else sentences(text, min_words)
            per_case.append(keys)
            every[i] |= {f"{group}: {k}" for k in keys}
        counts, common, share = _common(per_case, limit)
        report["groups"][group] = {
            "share_over_5pct": share,
            "sentences_over_5pct": len(common),
            "top": [[c, k] for k, c in counts.most_common(top)],
        }
    story = [{k for k in keys if k.startswith(("history: ", "quotes: "))} for keys in every]
    counts, common, share = _common(story, limit)
    report["story_share_over_5pct"] = share
    counts, common, share = _common(every, limit)
    report["share_over_5pct"] = share
    report["sentences_over_5pct"] = len(common)
    report["top"] = [[c, k] for k, c in counts.most_common(top)]
    parts = [section_parts(case) for case in cases]
    names = sorted({k for p in parts for k in p})
    report["sections"] = {}
    for name in names:
        keyed = [sentences(p.get(name, ""), min_words) for p in parts]
        counts, common, share = _common(keyed, limit)
        worst = counts.most_common(1)
        report["sections"][name] = {
            "share_over_5pct": share,
            "sentences_over_5pct": len(common),
            "worst": [worst[0][1], worst[0][0]] if worst else [0, ""],
        }
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suites", nargs="+", help="bundled suite names or JSON Lines paths")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--min-words", type=int, default=5)
    ap.add_argument("--threshold", type=float, default=0.05, help="share of records that makes a sentence common (default 0.05)")
    ap.add_argument("--sections", action="store_true", help="print each section's share and worst frame")
    ap.add_argument("--clauses", action="store_true", help="also count clause frames per section (see the module's docstring)")
    ap.add_argument("--on-file", action="store_true", help="count plan sentences asking for what is on file or not applying (see the docstring)")
    ap.add_argument("--clause-words", type=int, default=4, help="shortest clause counted, in words (default 4)")
    ap.add_argument("--json", help="write the full report here")
    args = ap.parse_args(argv)
    reports = {}
    for name in args.suites:
        path = suite_path(name)
        cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        r = measure(cases, args.min_words, args.top, args.threshold)
        reports[name] = r
        print(f"== {name}: {r['records']} records; {r['sentences_over_5pct']} sentences in more than {args.threshold:.0%} of records; "
              f"{r['share_over_5pct']:.1%} of records carry one")
        print(f"  story (history sentences and quotes): {r['story_share_over_5pct']:.1%} of records carry one in more than {args.threshold:.0%}")
        for group, g in r["groups"].items():
            print(f"  {group:13s} {g['sentences_over_5pct']:4d} common sentences, in {g['share_over_5pct']:.1%} of records")
        if args.sections:
            print("  per section (records carrying a common sentence; common sentences; worst frame and its records):")
            for name, g in r["sections"].items():
                print(f"    {name:34s} {g['share_over_5pct']:6.1%} {g['sentences_over_5pct']:4d}  {g['worst'][0]:4d}  {g['worst'][1][:70]}")
        print(f"  top {args.top} (records holding it):")
        for c, k in r["top"]:
            print(f"    {c:4d}  {k[:110]}")
        print(f"  top {args.top} quotes:")
        for c, k in r["groups"]["quotes"]["top"]:
            print(f"    {c:4d}  {k[:110]}")
        if args.on_file:
            found = [(case.get("case_id"), kind, clause) for case in cases for kind, clause in plan_asks(case)]
            kinds = Counter(k for _, k, _ in found)
            r["on_file"] = {"records": len({c for c, _, _ in found}), "kinds": dict(kinds), "examples": found[:40]}
            print(f"  plan asks for what is on file or does not apply: {len(found)} sentences in {r['on_file']['records']} records")
            for k, c in kinds.most_common():
                ex = next(f"{cid}: {cl.strip()[:90]}" for cid, kk, cl in found if kk == k)
                print(f"    {c:4d}  {k}  (e.g. {ex})")
        if args.clauses:
            cl = clause_measure(cases, args.clause_words, args.threshold, args.top)
            r["clauses"] = cl
            print(f"  clauses: {cl['clauses_over']} clause frames in more than {args.threshold:.0%} of records (limit {int(args.threshold * cl['records'])}); "
                  f"{cl['share_over']:.1%} of records carry one")
            for sec, g in cl["sections"].items():
                if g["clauses_over"]:
                    print(f"    {sec:34s} {g['share_over']:6.1%} {g['clauses_over']:4d}")
                    for c, k in g["top"]:
                        print(f"        {c:4d}  {k[:100]}")
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
