"""Stop 56 integration: a grandchild said to be absent is no dependant in care. The s56-judge fixer's count of
dependants readings over every bundled record found hw-026 read as having dependants by 'No grandchildren living
with them.' (the grandchild-in-care rule of stop 55 saw 'living with' beside 'grandchildren' and not the 'No' before
it). Through the public API (``load_critical_actions().mentions_dependants``)."""

from __future__ import annotations

import pytest

from mentalhospital_env.knowledge.critical import load_critical_actions


@pytest.mark.parametrize(
    ("text", "at_home"),
    [
        ("Married 40 years. No grandchildren living with them.", False),
        ("They have no grandchildren.", False),
        ("She looks after her grandson three days a week.", True),
        ("Lives with her grandson, aged 6.", True),
    ],
)
def test_a_grandchild_said_to_be_absent_is_no_dependant(text, at_home):
    assert load_critical_actions().mentions_dependants(text) is at_home
