"""Stop 48: chief complaints and care home households a psychiatrist believes in generated records.

Records read by hand at stop 47 scored 3.67 and 3.58 of 5; the largest fault was the chief complaint: half the
records of a draw opened with one of a few vacuous lines whatever the illness ('Family worried about her', 'GP
referral: asked to be seen', 'Unwell, the GP thinks': 99 of 200 at seed 47001). A care home resident's history had
a relative settle her at night and ring the crisis line, and the police refer her. These tests draw cases through
the public generator and read the record as written.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from importlib import resources

from mentalhospital_env.cases.generator import generate_case, generate_cases


def _story() -> dict:
    return json.loads(resources.files("mentalhospital_env.cases.generator").joinpath("data/story.json").read_text("utf-8"))


def _vacuous(cc: str) -> bool:
    """Whether the chief complaint is one of story.json's cc_plain cores (what brings anyone, whatever the illness)."""
    cores = _story()["record_story"]["cc_plain"]["core"]
    low = cc.lower()
    return any(re.sub(r"\{[^}]+\}", "", c).split(",")[0].strip() in low for c in cores if len(c) > 8)


def test_chief_complaints_are_this_patients_not_a_stock_line():
    cases = generate_cases(60, seed=4801, prefix="s48", version=2)
    ccs = [c["ehr"]["chief_complaint"] for c in cases]
    vacuous = [cc for cc in ccs if _vacuous(cc)]
    assert len(vacuous) <= 12, vacuous  # 99 of 200 (about 30 of 60) before stop 48
    common = Counter(ccs).most_common(1)[0]
    assert common[1] <= 2, common


def test_chief_complaint_never_names_the_diagnosis():
    cases = generate_cases(60, seed=4802, prefix="s48n", version=2)
    for case in cases:
        cc = case["ehr"]["chief_complaint"].lower()
        for d in case["diagnosis"]["disorders"]:
            name = re.split(r",| \(| with| without| due| in | of ", d["name"].lower())[0]
            assert name not in cc, (case["case_id"], name, cc)
        assert not re.search(r"\b(depression|anxiety disorder|psychosis|schizophreni\w*|bipolar|ocd|ptsd|adhd|autism|dementia|delirium|anorexia|bulimia|personality disorder)\b", cc), (case["case_id"], cc)


def test_lifelong_complaint_reads_as_sentences():
    rng = random.Random(4803)
    for i in range(12):
        case = generate_case(rng, f"s48-ppd-{i:02d}", principal="F60.0", version=2)
        cc = case["ehr"]["chief_complaint"]
        assert not re.search(r"[a-z] (?:Harder|Worse) over the last", cc), cc  # 'asks for an opinion Harder over the last five years'


def test_care_home_residents_are_looked_after_by_the_staff():
    rng = random.Random(4804)
    seen = 0
    for i in range(90):
        case = generate_case(rng, f"s48-ch-{i:03d}", principal=("F05", "F03.90")[i % 2], version=2)
        if not re.search(r"care home|nursing home", case["demographics"]["living_situation"]):
            continue
        seen += 1
        hpi = case["ehr"]["history_of_present_illness"]
        cc = case["ehr"]["chief_complaint"]
        for text in (cc, hpi):
            m = re.search(r"\b(?:son|daughter|husband|wife|partner|family|niece)\b[^.]*\b(?:could not settle|rang|called|settle)\b", text)
            assert m is None, (case["case_id"], m.group(0))
        assert not re.search(r"referred by the police|\bthe police\b.*\breferred\b", hpi), (case["case_id"], hpi[:200])
        assert not re.search(r"\blives with (?:his|her|their) (?:husband|wife|spouse|partner)\b", " ".join(str(v) for v in case["ehr"].values())), case["case_id"]
    assert seen, "no care home resident drawn: the test reads nothing"
