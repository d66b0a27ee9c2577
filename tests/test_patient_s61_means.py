"""Means of harm that a record marks told only when asked directly are told to the direct question (stop 61, uw-034):
asked about plans or preparations, about access to means and about stored tablets, Adriano said "No. I don't have a
plan to end it.", "I take fluoxetine, thiamine and dipyrone." and "Better to sleep and not wake up." while the record
keeps, for a direct question, the ~150 amitriptyline in a tin in his motorbike's top box and the night he sat with it
meaning to take them all. The record's words for these acts are read by meaning (``data/recall.json``: tablets kept
in number are access to means; the tablets in hand meaning to take them all is a plan acted on), and the question's
words for stored tablets ask the means at hand.

A short record written for the test, read through the public API."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from mentalhospital_env.cases import load_case
from mentalhospital_env.patient import make_patient

sys.path.insert(0, str(Path(__file__).parent))
from test_compile_s61_told_when_asked import RECORD as _BASE  # noqa: E402

RECORD = json.loads(json.dumps(_BASE))
RECORD["case_id"] = "s61-means"
RECORD["ehr"]["history_of_present_illness"] += (
    " On the night of his wedding anniversary he took the box down and sat with it in his hands, meaning to take them "
    "all with whisky; he stopped when his son rang (told only when asked directly).")


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    path = tmp_path_factory.mktemp("s61") / "means.json"
    path.write_text(json.dumps(RECORD))
    return load_case(str(path))


def _ask(case, *questions: str) -> str:
    patient = make_patient(case, "full", seed=13)
    return [patient.respond(q).text for q in questions][-1]


def test_asked_about_plans_or_preparations_he_tells_the_night_with_the_box(case) -> None:
    reply = _ask(case, "Have you made any plans or preparations to end your life?")
    assert re.search(r"\bmeaning to take them all\b", reply), reply
    assert "don't have a plan" not in reply, reply


def test_asked_about_access_to_means_he_tells_the_stored_tablets(case) -> None:
    reply = _ask(case, "Do you have access to anything you could use to harm yourself, such as medicines or weapons?")
    assert re.search(r"\b200 tablets\b", reply), reply


def test_asked_about_stored_tablets_he_tells_them(case) -> None:
    reply = _ask(case, "At home, are there stored tablets, or anything else you have thought of using?")
    assert re.search(r"\b200 tablets\b", reply), reply


def test_asked_about_guns_he_tells_his_uncles_rifles(case) -> None:
    reply = _ask(case, "Do you have access to any guns, at home or anywhere else?")
    assert re.search(r"\bhunting rifles at his house\b", reply), reply
