"""Phrase variety (generator/variety.py, data/variety.json): every rewording says what the stock line
said, as the lexicon reads it, and the regenerated suites share few sentences."""

from __future__ import annotations

import json
import random
import re

import pytest

from mentalhospital_env.cases.generator import variety
from mentalhospital_env.cases.generator.composer import load_material
from mentalhospital_env.cases.reference import ClinicalReference

_ALT = re.compile(r"\[\[([^\[\]]*)\]\]")
PRONOUNS = load_material("frames")["pronouns"]
FIELDS = {
    "pastime": "going to the football", "future": "a holiday in the summer", "age": "40",
    "safety_people": "[[ shared with {poss} partner|]]", "means_holder": "[[, {poss} partner to hold the supply|]]",
    "no_drug_reason": "[[; psychological treatment first|]]", "outpatient_detail": "[[, GP kept informed|]]",
    "start_detail": "[[| in the morning]]", "ward_detail": "[[| with daily medical review]]", "ed_detail": "[[| today]]",
    "followup_detail": "[[| in clinic|, sooner if worse]]", "therapy_detail": "[[|, once {subj} is ready]]",
}


def render(template: str, groups: dict[str, str], sex: str, rng: random.Random) -> str:
    fields = {**PRONOUNS[sex], **FIELDS, **groups}
    text = template
    for _ in range(2):  # fields carry their own parts
        text = _ALT.sub(lambda m: rng.choice(m.group(1).split("|")), text).format_map(fields)
    return text


@pytest.fixture(scope="module")
def ref() -> ClinicalReference:
    return ClinicalReference.bundled()


def test_every_rule_matches_the_lines_it_was_written_for():
    for r, data in zip(variety.rules(), load_material("variety")["rules"]):
        assert data["was"], data["match"]
        for line in data["was"]:
            assert r.pattern.match(line.strip()), (data["match"], line)


@pytest.mark.parametrize("index", range(len(load_material("variety")["rules"])))
def test_a_rewording_asserts_and_denies_what_the_stock_line_did(ref, index):
    """Read through the lexicon, a rewording asserts no symptom the line did not, and denies none the
    line did not (a denial of a symptom the patient has would contradict the record), apart from the
    rule's reviewed ``also_denies``."""
    lex = ref.lexicon

    def symptoms(found):  # history concepts (living situation, relationships) are facts, not symptoms
        return frozenset(c for c in found if c in lex and lex.get(c).kind != "history")

    rule = variety.rules()[index]
    data = load_material("variety")["rules"][index]
    rng = random.Random(index)
    # a risk line chosen only when the record holds none of these (composer._risk) may also deny them
    allowed = frozenset(data.get("also_denies", ()))
    for line in data["was"]:
        pos, neg = map(symptoms, ref.readings(line))
        m = rule.pattern.match(line.strip())
        groups = {f"g{i}": g or "" for i, g in enumerate(m.groups(), 1)}
        sex = "female" if re.search(r"\b(she|her)\b", line, re.I) else "male"
        for template in rule.templates:
            for _ in range(12):
                new = render(template, groups, sex, rng)
                assert "{" not in new and "[[" not in new, new
                npos, nneg = map(symptoms, ref.readings(new))
                assert npos <= pos, (line, new, sorted(npos - pos))
                assert nneg <= neg | allowed, (line, new, sorted(nneg - neg))


def test_each_wording_of_a_rule_is_as_likely_as_another():
    """A template is drawn in proportion to the sentences it writes (a rule of a 40-sentence template
    and a 4-sentence one would otherwise write the small one's four sentences half the time)."""
    rule = next(r for r in variety.rules() if len(r.templates) > 1 and len(set(r.weights)) > 1)
    assert rule.weights == tuple(variety.sentences_in(t) for t in rule.templates)
    rng = random.Random(1)
    text = next(line for line in load_material("variety")["rules"][variety.rules().index(rule)]["was"])
    picks = [variety.reword(rule.sections[0], text, rng, lambda t, **g: t) for _ in range(2000)]
    share = sum(p.rstrip(".") == rule.templates[0].rstrip(".") for p in picks) / len(picks)
    expected = rule.weights[0] / sum(rule.weights)
    assert abs(share - expected) < 0.05, (share, expected)


def test_additions_name_their_conditions():
    for a in variety.additions():
        assert set(a.when) <= {"min_age", "max_age", "setting", "plan_has", "plan_lacks", "living", "codes"}, a.when
        assert a.templates
