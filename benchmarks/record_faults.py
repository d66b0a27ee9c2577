"""Faults a psychiatrist reading generated records notices, counted from the record text alone.

    python benchmarks/record_faults.py test-v2                 # a bundled suite
    python benchmarks/record_faults.py path/to/suite.jsonl     # JSON Lines or a JSON list
    python benchmarks/record_faults.py --draw 200 --seed 4101  # a fresh draw of generator v2
    python benchmarks/record_faults.py --draw 200 --seed 4101 --show child,plan

Imports nothing from the generator's audit, so it cannot agree with it by construction: it reads
each record as text. Counts, per record (a record counts once per rule):

* ``repeat8``: sentences of 8 or more words (lower-cased, numbers as ``N``, pronouns as ``P``) held by
  3 or more records; reported as the number of such sentences, the share of records carrying one held
  by more than 3% of the draw, and the top sentences with their record counts;
* ``mse_paste``: a record of the same principal diagnosis as an earlier one whose mental-state
  examination repeats 4 or more of its 9 descriptive headings word for word (headings of 3+ words;
  insight and judgment left out): a pasted examination;
* ``child``: in a record of a patient under 13 (or under 16 for work, partners and marriage), text a
  child's chart does not hold: marital status, spouse or partner, a job, work or colleagues, bills or
  rent, driving, pubs and drinking, threats to neighbours, punching walls, returning calls, adult
  doses;
* ``plan``: a plan that arranges an admission and also sends the patient home, books outpatient care
  or still asks to consider admission;
* ``drug``: a drug in the plan whose indication is not among the record's diagnoses (stimulants
  without ADHD, lithium without a mood disorder, clozapine without psychosis, cholinesterase
  inhibitors without dementia, alcohol/opioid relapse drugs without that use disorder);
* ``life``: an adult's (or anyone's) life that contradicts itself in the record's text: a job held for years
  (or a present job) beside a history of being unable to hold one (``job``); shift work for an occupation
  that has no shifts (``shift``); a family that agrees, notices or brings in a patient who lives alone and
  has no informant (``family_alone``); married or together under 4 years with two or more children of
  "their" own, or under 5 with school-age ones (``married_children``); a plan that restarts a drug the
  record never names before (``restart``); one clause of the plan that says the same content word twice
  (``echo``: 'therapy with parent involvement, with her parents involved');
* ``named``: the present illness or chief complaint naming a diagnosis (unless the record is marked as
  a known, relapsing illness).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

PRON = re.compile(r"\b(he|she|him|her|his|hers|himself|herself|they|them|their|theirs)\b")
NUM = re.compile(r"\d+(?:[.,]\d+)?")
SPLIT = re.compile(r"(?<=[.!?])[\"']?\s+(?=[\"'A-Z])")

# the descriptive headings (insight and judgment are one or two words in most charts)
MSE_FIELDS = ("appearance", "behavior", "speech", "mood", "affect", "thought_process", "thought_content", "perception", "cognition")

CHILD_RULES: list[tuple[str, int, re.Pattern[str]]] = [
    ("marital status", 16, re.compile(r"\b(married|divorced|widowed|separated from (his|her) (wife|husband|partner)|engaged to)\b", re.I)),
    ("spouse/partner", 16, re.compile(r"\b(his|her) (wife|husband|partner|fianc[eé]e?)\b", re.I)),
    ("job/work", 16, re.compile(r"\b(at work|(his|her) (job|boss|manager|employer|colleagues?|shifts?)|sick leave|sick note|off work|workplace|payslip|promotion)\b", re.I)),
    ("bills/rent", 16, re.compile(r"\b(mortgage|rent arrears|(the|his|her) rent|bills|debts?|overdraft|benefits)\b", re.I)),
    ("driving", 16, re.compile(r"\b(drove|driving|driver'?s? licen[cs]e|(his|her) car)\b", re.I)),
    ("pub/drinking", 13, re.compile(r"\b(pub|pints?|units a week|drinks? (a|every) (day|night)|hangover|cannabis|cigarettes?|vap(es|ing))\b", re.I)),
    ("adult violence", 13, re.compile(r"\b(punched (a|the) wall|threatened (a|the|his|her) neighbou?r|assault(ed)?|police|arrested|court)\b", re.I)),
    ("adult contact", 11, re.compile(r"\b(returning (calls|texts|messages)|answer(ing)? (the|her|his) phone|emails?|stopped returning)\b", re.I)),
    ("adult dose", 12, re.compile(r"\((?:[^()]*\bin )?(adults?|adolescents?)\)", re.I)),
    ("adult dose", 18, re.compile(r"\((?:[^()]*\bin )?adults?\)", re.I)),
]

DRUGS: list[tuple[re.Pattern[str], tuple[str, ...], str]] = [
    (re.compile(r"\b(methylphenidate|dexamfetamine|atomoxetine|guanfacine)\b", re.I), ("F90",), "ADHD drug"),
    (re.compile(r"\blisdexamfetamine\b", re.I), ("F90", "F50.81"), "lisdexamfetamine"),
    (re.compile(r"\blithium\b", re.I), ("F30", "F31", "F32", "F33", "F34", "F25"), "lithium"),
    (re.compile(r"\bclozapine\b", re.I), ("F20", "F25"), "clozapine"),
    (re.compile(r"\b(donepezil|rivastigmine|galantamine|memantine)\b", re.I), ("F00", "F01", "F02", "F03", "F06.7", "G30"), "dementia drug"),
    (re.compile(r"\b(acamprosate|disulfiram|chlordiazepoxide|thiamine)\b", re.I), ("F10",), "alcohol drug"),
    (re.compile(r"\b(buprenorphine|methadone|naloxone)\b", re.I), ("F11",), "opioid drug"),
    (re.compile(r"\bvarenicline\b", re.I), ("F17",), "smoking drug"),
]
# a plan that names a drug only to rule it out or to caution is not prescribing it
NOT_PRESCRIBED = re.compile(r"\b(avoid|not|no|without|stop|stopped|discontinue|withdraw|taper|instead of|rather than|review the need|caution)\b", re.I)

NAMES = re.compile(
    r"\b(depression|depressive|bipolar|mania|manic|hypomani[ac]|schizophreni\w*|schizoaffective|psychosis|psychotic|"
    r"PTSD|post-?traumatic|OCD|obsessive[- ]compulsive|panic disorder|agoraphobi\w*|social anxiety|generali[sz]ed anxiety|"
    r"ADHD|attention[- ]deficit|autis\w*|anorexia|bulimi\w*|binge[- ]eating disorder|insomnia|dementia|delirium|"
    r"personality disorder|borderline|conduct disorder|oppositional|Tourette\w*|tic disorder|gambling disorder|"
    r"alcohol dependence|use disorder|hoarding|trichotillomania|dissociative|somati[cs]\w* (symptom )?disorder|"
    r"illness anxiety|hypochondri\w*|separation anxiety|selective mutism|adjustment disorder|dysthymi\w*)\b", re.I)


# life contradictions, read from the text (and the demographics' words, which are text too)
NO_JOB = re.compile(r"\b(unable to (hold|keep) (down )?a job|can'?t (hold|keep) (down )?a job|lost (several|many) jobs|lost job after job|never (held|kept) a job)\b", re.I)
HAS_JOB = re.compile(r"\b(\d+ years in the job|with the same employer|(works|is working|has worked|has been working|currently working|employed) as an? |by trade\b)", re.I)
SHIFT = re.compile(r"\b(shift work|night shifts?|shift pattern|on shifts|(his|her|their) shifts?|rotating shifts)\b", re.I)
SHIFT_JOBS = re.compile(r"\b(nurse|paramedic|care worker|carer|chef|cook|police|security|warehouse|driver|bar worker|barmaid|barman|call-centre|cleaner|factory|porter|retail|shop|doctor|midwife|firefighter|prison|labourer|operative|hospital)\b", re.I)
ALONE = re.compile(r"\b(lives|living) alone\b", re.I)
FAMILY_WITNESS = re.compile(r"\b(?:his|her|their) family (?:agrees|says|adds|puts|noticed|first noticed|brought|rang|called|remembers|dates|has|tried|hid|took|saw)\b|\bby (?:his|her|their) own account and the family's\b", re.I)
MARRIED = re.compile(r"\b(?:married|together)(?: for)? (\d+) years?\b|\b(?:spouse|wife|husband|partner) of (\d+) years?\b", re.I)
KIDS = re.compile(r"\btheir (?:two |three |four )?(?:young |teenage |school-age )?(?:children|kids)\b|\b(?:and|with) (?:two|three|four) (?:young |teenage |school-age )?children\b", re.I)  # not 'youngest of three children'
SCHOOL_KIDS = re.compile(r"\b(?:school-age|teenage|grown-up|adult) (?:children|kids|sons|daughters|son|daughter)\b|\bchildren at (?:secondary|primary) school\b", re.I)
RESTART = re.compile(r"\b(?:Restart|Resume|Restarted) (\w+)", re.I)
# a plan clause given the same tail twice: a setting or timing said again ('to start on the ward on the ward and after
# discharge', 'phone contact in between, with her GP in between'), a party involved twice ('with parent involvement, with
# her parents involved'), or two tails that say one time ('after the emergency has passed once the crisis has settled')
ECHO = [re.compile(p, re.I) for p in (r"\bafter discharge\b", r"\bon the ward\b", r"\bin between\b", r"\bat first\b",
                                      r"\binvolve(?:d|ment)\b", r"\bonce (?:he|she|they) (?:is|are) ready\b")]
SAME_TIME = (r"\bafter the emergency has passed\b", r"\bonce the crisis has settled\b", r"\bwhen the crisis has passed\b")
STOP = set("which where there their about after again other would could should being these those while under because before through person people record".split())


def life_faults(case: dict) -> list[str]:
    d = case["demographics"]
    texts = dict(sections(case))
    allt = " ".join(texts.values())
    occ = str(d.get("occupation") or "")
    out = []
    personal = texts.get("personal_history", "")
    m = NO_JOB.search(allt)
    if m and (HAS_JOB.search(personal)):
        out.append(f"job: '{m.group(0)}' beside '{HAS_JOB.search(personal).group(0)}'")
    m = SHIFT.search(allt)
    if m and not SHIFT_JOBS.search(occ + " " + personal):
        out.append(f"shift: '{m.group(0)}' for a {occ}")
    living = str(d.get("living_situation") or "") + " " + texts.get("social_history", "") + " " + personal
    m = FAMILY_WITNESS.search(allt)
    if m and ALONE.search(living) and not (case.get("persona") or {}).get("informant"):
        out.append(f"family_alone: '{m.group(0)}' of a patient who lives alone")
    for mm in MARRIED.finditer(personal + " " + texts.get("social_history", "")):
        years = int(mm.group(1) or mm.group(2))
        k, s = KIDS.search(personal), SCHOOL_KIDS.search(allt)
        if (years < 4 and k and not re.search(r"\b(her|his|one) (child|son|daughter)\b", k.group(0))) or (years < 5 and s):
            out.append(f"married_children: '{mm.group(0)}' with '{(k or s).group(0)}'")
            break
    plan = case["treatment"]["plan"]
    before = " ".join(v for k, v in texts.items() if k != "plan")
    for mm in RESTART.finditer(plan):
        if not re.search(rf"\b{re.escape(mm.group(1))}\b", before, re.I):
            out.append(f"restart: '{mm.group(0)}' of a drug the record never names")
    for clause in re.split(r"[.;:]\s+", plan):
        twice = [rx.pattern for rx in ECHO if len(rx.findall(clause)) > 1]
        tags = [t for t in SAME_TIME if re.search(t, clause, re.I)]
        if twice or len(tags) > 1:
            out.append(f"echo: {twice or tags} in '{clause[:160]}'")
            break
    return out


def load(source: str, draw: int | None, seed: int | None) -> list[dict]:
    if draw:
        from mentalhospital_env.cases.generator import generate_cases

        return generate_cases(draw, seed or 0, prefix=f"draw{seed}", version=2)
    path = Path(source)
    if not path.exists():
        from mentalhospital_env.cases.loader import bundled_suite_path

        path = bundled_suite_path(source)
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def sections(case: dict) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key, value in case["ehr"].items():
        if isinstance(value, str):
            out.append((key, value))
        elif isinstance(value, dict):
            out.extend((f"{key}.{k}", v) for k, v in value.items() if isinstance(v, str))
    out.append(("plan", case["treatment"]["plan"]))
    return out


def norm(sentence: str) -> str:
    s = sentence.strip().strip("\"'").lower()
    return NUM.sub("N", PRON.sub("P", s))


def codes(case: dict) -> list[str]:
    return [d["code"] for d in case["diagnosis"]["disorders"]]


def count(cases: list[dict], threshold: float = 0.03) -> dict:
    n = len(cases)
    holders: dict[str, set[str]] = defaultdict(set)
    for c in cases:
        for _, text in sections(c):
            for s in SPLIT.split(text):
                if len(s.split()) >= 8:
                    holders[norm(s)].add(c["case_id"])
    repeated = {s: ids for s, ids in holders.items() if len(ids) >= 3}
    common = {s: ids for s, ids in holders.items() if len(ids) > threshold * n}
    carrying = set().union(*common.values()) if common else set()

    faults: dict[str, list[tuple[str, str]]] = defaultdict(list)
    # pasted mental-state examinations
    by_dx: dict[str, list[dict]] = defaultdict(list)
    for c in cases:
        by_dx[codes(c)[0]].append(c)
    for dx, group in by_dx.items():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                ma, mb = a["ehr"].get("mental_status_exam", {}), b["ehr"].get("mental_status_exam", {})
                same = [k for k in MSE_FIELDS if k in ma and k in mb and ma[k] == mb[k] and len(ma[k].split()) >= 3]
                if len(same) >= 4:
                    faults["mse_paste"].append((b["case_id"], f"{dx}: same as {a['case_id']} in {', '.join(same)}"))
    for c in cases:
        cid, age = c["case_id"], c["demographics"]["age"]
        text = " ".join(t for _, t in sections(c))
        if age < 16 and c["demographics"].get("marital_status"):
            faults["child"].append((cid, f"age {age}: marital status {c['demographics']['marital_status']!r}"))
        for label, below, rx in CHILD_RULES:
            if age < below:
                for key, t in sections(c):
                    if key == "plan" and label != "adult dose":
                        continue
                    m = rx.search(t)
                    if m and not (label == "pub/drinking" and re.search(r"\b(no|denies|never)\b[^.]*" + re.escape(m.group(0)), t, re.I)):
                        faults["child"].append((cid, f"age {age}: {label}: {key}: ...{t[max(0, m.start() - 50):m.end() + 40]}..."))
                        break
        plan = c["treatment"]["plan"]
        low = plan.lower()
        admitted = re.search(r"\b(admission arranged|admitted (today|yesterday|informally|under)|a bed (is )?requested|until the bed|admit (today|to the|informally)|inpatient admission (today|arranged|agreed))\b", low)
        home = re.search(r"\b(consider (an? )?(informal )?admission|safe to go home|discharged? home (today|from the department)|outpatient (care|management|treatment)|next appointment booked|seen in clinic|home treatment team will|continue as an outpatient)\b", low)
        if admitted and home:
            faults["plan"].append((cid, f"{c['setting']}: '{admitted.group(0)}' and '{home.group(0)}': {plan[:300]}"))
        for rx, need, label in DRUGS:
            for s in SPLIT.split(plan):
                m = rx.search(s)
                if m and not NOT_PRESCRIBED.search(s[:m.start()]) and not any(code.startswith(need) for code in codes(c)):
                    faults["drug"].append((cid, f"{label} without its indication ({', '.join(codes(c))}): {s[:200]}"))
                    break
        for msg in life_faults(c):
            faults["life"].append((cid, f"age {age}: {msg}"))
        if not (c.get("extra") or {}).get("known_diagnosis"):
            for key in ("chief_complaint", "history_of_present_illness"):
                m = NAMES.search(c["ehr"].get(key, ""))
                if m:
                    t = c["ehr"][key]
                    faults["named"].append((cid, f"{key}: ...{t[max(0, m.start() - 60):m.end() + 40]}..."))
                    break
    records = {k: len({cid for cid, _ in v}) for k, v in faults.items()}
    top = sorted(repeated.items(), key=lambda kv: -len(kv[1]))
    return {
        "records": n,
        "repeat8_sentences_in_3plus_records": len(repeated),
        "repeat8_sentences_over_threshold": len(common),
        "repeat8_share_records_carrying_common": round(len(carrying) / max(n, 1), 3),
        "repeat8_top": [(len(ids), s) for s, ids in top[:25]],
        "fault_records": {k: records.get(k, 0) for k in ("mse_paste", "child", "plan", "drug", "named", "life")},
        "life_kinds": dict(Counter(msg.split(":")[0].split(": ", 1)[-1] for _, m in faults.get("life", []) for msg in [m.split("age ", 1)[-1].split(": ", 1)[-1]])),
        "faults": {k: v for k, v in faults.items()},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", nargs="?", default="")
    ap.add_argument("--draw", type=int)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--threshold", type=float, default=0.03)
    ap.add_argument("--show", default="", help="comma-separated rules whose findings to print (or 'all')")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--json", help="write the counts to this path")
    args = ap.parse_args(argv)
    cases = load(args.source, args.draw, args.seed)
    out = count(cases, args.threshold)
    print(f"records {out['records']}")
    print(f"sentences of 8+ words held by 3+ records: {out['repeat8_sentences_in_3plus_records']}; "
          f"held by >{args.threshold:.0%}: {out['repeat8_sentences_over_threshold']}; "
          f"records carrying one of those: {out['repeat8_share_records_carrying_common']:.1%}")
    for k, s in out["repeat8_top"][: args.top]:
        print(f"  {k:4d}  {s}")
    print("records with a fault, by rule: " + ", ".join(f"{k} {v}" for k, v in out["fault_records"].items()))
    print("life contradictions, by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(out["life_kinds"].items())))
    show = set(out["faults"]) if args.show == "all" else {x for x in args.show.split(",") if x}
    for rule in sorted(show):
        for cid, msg in out["faults"].get(rule, []):
            print(f"[{rule}] {cid}: {msg}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
