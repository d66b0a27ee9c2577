"""The scripted clinician over stop 41's development halves (issue 15): uw-001..014, the 40 handwritten records and a
draw of 40 test-v2 records (random.Random(41)), each source split alternately into half A (started from) and half B (shown on).
Per record: note-precision errors (rewards.mentaleval.precision.check_note), critical actions missing from the plan and
contraindications (knowledge.critical.check_case), the principal diagnosis against the record's (3-character family).

    .venv/bin/python benchmarks/clinician_halves.py A OUT.json      # or B, or "suite:case,suite:case"

Writes OUT.json (every row, with note, plan and transcript) and OUT.jsonl as it goes."""
import json, sys, random, os
os.environ.setdefault("OMP_NUM_THREADS","1")
import gymnasium
import mentalhospital_env  # noqa
from mentalhospital_env.agents.scripted import ScriptedClinician
from mentalhospital_env.cases import load_suite
from mentalhospital_env.knowledge.critical import load_critical_actions
from mentalhospital_env.rewards.mentaleval.precision import check_note

UW = "benchmarks/data/patient_exam/unseen"
def sets():
    uw = sorted(f for f in os.listdir(UW) if f.endswith(".json"))
    hw = [c.case_id for c in load_suite("handwritten").cases]
    tv = [c.case_id for c in load_suite("test-v2").cases]
    rnd = random.Random(41); draw = sorted(rnd.sample(tv, 40))
    items = [(f"{UW}/{f}", f[:-5]) for f in uw] + [("handwritten", c) for c in hw] + [("test-v2", c) for c in draw]
    # halves: alternate within each source
    out = {"A": [], "B": []}
    for src in ("uw", "hw", "tv"):
        grp = [i for i in items if (i[0].startswith(UW) if src=="uw" else i[0]==("handwritten" if src=="hw" else "test-v2"))]
        for k, it in enumerate(grp):
            out["A" if k % 2 == 0 else "B"].append(it)
    import itertools
    for h in out:  # interleave the sources, so that a partial run covers each
        groups = [[i for i in out[h] if i[0].startswith(UW)], [i for i in out[h] if i[0] == "handwritten"], [i for i in out[h] if i[0] == "test-v2"]]
        out[h] = [i for t in itertools.zip_longest(*groups) for i in t if i]
    return out

def play(suite, cid, envs={}):
    if suite not in envs:
        envs[suite] = gymnasium.make("MentalHospital-v0", suite=suite, turn_budget=40)
    env = envs[suite]
    doc = ScriptedClinician()
    obs, info = env.reset(seed=0, options={"case_id": cid})
    doc.reset(obs, info)
    for _ in range(400):
        obs, _, term, trunc, info = env.step(doc.act(obs, info))
        if term or trunc: break
    return env.unwrapped.episode_record().chart

def main():
    half = sys.argv[1]; outp = sys.argv[2]
    acts = load_critical_actions()
    rows = []
    suites = {}
    for suite, cid in sets()[half] if half in "AB" else [(s, c) for s, c in (x.split(":") for x in half.split(","))]:
        if suite not in suites: suites[suite] = load_suite(suite)
        case = suites[suite][cid]
        ch = play(suite, cid)
        plan = ch.treatment or ""
        chk = acts.check_case(case, plan)
        prec = check_note(case, ch) if (ch.note or "").strip() else None
        ref = case.diagnosis.principal.code
        got = (ch.disorders or [None])[0]
        rows.append(dict(suite=suite, case=cid, required=sorted({r.action for r in chk.required}),
                         missing=sorted({r.action for r in chk.missing}), contra=sorted({c.action for c in chk.contraindicated}),
                         errors=[(e.concept, e.asserted, e.why) for e in prec.errors] if prec else None,
                         ref=ref, got=got, wrong_dx=(str(got or "")[:3] != ref[:3]),
                         note=ch.note, plan=plan, dis=list(ch.disorders or []), transcript=[(t.doctor, t.patient) for t in ch.turns]))
        r = rows[-1]
        with open(outp + "l", "a") as fh: fh.write(json.dumps(r) + "\n")
        print(f"{cid:14s} err={len(r['errors'] or [])} miss={r['missing']} contra={r['contra']} ref={ref} got={got}", flush=True)
    json.dump(rows, open(outp, "w"), indent=1)
    n = len(rows)
    print(f"TOTAL {n}: note errors {sum(len(r['errors'] or []) for r in rows)} in {sum(bool(r['errors']) for r in rows)} notes; "
          f"cases w/ critical {sum(bool(r['required']) for r in rows)}, incomplete {sum(bool(r['missing']) for r in rows)}, "
          f"missing actions {sum(len(r['missing']) for r in rows)}; contra {sum(bool(r['contra']) for r in rows)}; wrong principal (3-char) {sum(r['wrong_dx'] for r in rows)}")
main()
