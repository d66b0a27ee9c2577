"""Stop 53 (s53-pat): the patient answers the question asked, and its hedges do not follow the diagnosis."""

from __future__ import annotations

from mentalhospital_env.patient.understanding import cue_topics_of_fact


def test_a_bill_that_is_no_money_matter_files_no_money_and_savings_spent_do():
    # uw-024 (a US VA chart): 'money or debts?' was answered with the dozing-off sentence because the record cue
    # 'bills' read 'a rolled-up dollar bill'; the sentence that says money ('$1,800 gone from savings') read nothing
    hpi = "history_of_present_illness"
    assert "money" not in cue_topics_of_fact(hpi, "Pill halves and a rolled-up dollar bill in the console")[1]
    assert "money" not in cue_topics_of_fact("personal_history", "GI Bill trade certificate 2015.")[1]
    assert "money" in cue_topics_of_fact(hpi, "about $1,800 gone from savings since July")[1]
    assert "money" in cue_topics_of_fact(hpi, "She spent her life savings on the flat")[1]
    # bills to pay are still money
    assert "money" in cue_topics_of_fact(hpi, "Behind on bills and the rent since March")[1]
