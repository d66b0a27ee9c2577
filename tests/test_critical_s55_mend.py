"""Stop 55 review of the critical-action changes (m55-judge): the safeguarding screen and the dependants reading,
through the public API (``CriticalActions.check`` of a violent parent's profile; ``mentions_dependants``)."""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import Profile, load_critical_actions

CORE = ("Commence aripiprazole 10 mg once daily. Arrange cognitive behavioural therapy for psychosis. Ask about command "
        "hallucinations; assess risk to named others; agree a risk management plan. Review weekly.")


@pytest.fixture(scope="module")
def ca():
    return load_critical_actions()


def _parent(**kw):
    """A violent mother with psychosis and a young child at home: the screen is a must (dependants_violence)."""
    base = dict(codes=("F20.0",), setting="outpatient", age=32, sex="female", pregnant=False,
                risks=frozenset({"violence"}), medications="", dependants=True)
    base.update(kw)
    return Profile(**base)


def _screened(ca, sentence):
    check = ca.check(_parent(), CORE + " " + sentence)
    assert "safeguarding" in {r.action for r in check.required}
    return "safeguarding" not in {m.action for m in check.missing}


@pytest.mark.parametrize("sentence", [
    # declined, left to someone else, optional, deferred or conditional: no enquiry made now
    "Screening for domestic violence was declined.",
    "The GP may wish to ask about domestic violence.",
    "Ask about domestic violence only if she raises it.",
    "Could ask about domestic violence once she is more settled.",
    "Optional: ask about the risk to the children if time permits.",
    "Discuss with her partner the risk to the children; he thinks there is none.",
    # a record, a conviction or a perpetrator's course is no enquiry whether violence happens at home
    "Check the notes for a history of domestic violence.",
    "Refer to a domestic violence perpetrator programme.",
    "Check her history of domestic violence convictions.",
    # the patient as the victim, nothing of the child
    "Ask about domestic violence.",
    # a relative as the one who checks; the patient's own safety
    "Her mother will check whether the children are safe.",
    "Her sister will ask whether the child is safe at home.",
    "Check whether he is safe at home.",
])
def test_a_non_enquiry_is_not_the_safeguarding_screen(ca, sentence):
    assert not _screened(ca, sentence)


@pytest.mark.parametrize("sentence", [
    "Is the child safe at home? Ask her.",
    "Check that her daughter is safe at home with her partner.",
    "Ask who else lives at home and whether the children have been hurt or frightened.",
    "Check with her whether the baby is safe with her.",
    "Ask whether the children have been harmed.",
    "Check whether the baby is safe and who is caring for the baby.",
    # still credited (stop 55, dev-v2-0177's words; domestic violence asked about at home)
    "Screen for risk to children or domestic violence.",
    "Ask whether there is domestic violence at home.",
    "Screen for risk to the child and for domestic violence today.",
])
def test_a_real_enquiry_about_the_child_is_the_screen(ca, sentence):
    assert _screened(ca, sentence)


@pytest.mark.parametrize("text, at_home", [
    # an away word about someone else, or a minor placed by the sentence: the child is still a dependant
    ("Single mother of a 3-year-old; her own mother phones daily.", True),
    ("Daughter, 6, described by school as withdrawn.", True),
    ("Her children, 7 and 9, are described by the school as often hungry.", True),
    ("Married with a baby, and her mother-in-law lives nearby and helps.", True),
    ("She has a 6-month-old baby and her sister calls in daily.", True),
    ("Has a 4-year-old son and her parents live abroad.", True),
    ("Her 16-year-old son from a previous relationship visits most weekends and stays over.", True),
    # a grandchild in the patient's care
    ("She looks after her grandson three days a week.", True),
    ("Lives with her grandson, aged 6, whom she has raised since birth.", True),
    # grown children away stay no dependants (uw-010's words, and the stop-55 cases)
    ("Their daughter Claire, 40, lives in the next county with her husband and their children Ethan, 12, and Lily, 9, "
     "and visits most weekends.", False),
    ("His daughter Karen, who lives ten minutes away, calls in every day.", False),
    ("Divorced; one son, 35, who lives nearby.", False),
    ("Her daughter lives in the next county and phones weekly.", False),
    ("Married 51 years; three children and five grandchildren.", False),
    ("Has grandchildren who visit.", False),
    ("Lives with her husband and has four grandchildren.", False),
])
def test_an_away_word_places_only_the_person_it_is_said_of(ca, text, at_home):
    assert ca.mentions_dependants(text) is at_home
