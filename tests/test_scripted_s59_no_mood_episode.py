"""Stop 59 (s59-clin): hw-024, an 82-year-old who said 'I'm not depressed, I'm angry', denied losing interest, tiredness
and poor concentration, and heard banging and whispering through the wall, was called a severe depression with
psychotic features (F32.3) and started on sertraline with olanzapine: no group of a depressive episode was heard, but
every psychotic disorder ranked below 0 on what was heard and the rule's min_score kept the depression leading. With no
group heard at all, the psychosis that explains the voices leads; with some groups heard, min_score still holds."""

from __future__ import annotations

from scripted_encounters import ask as _ask
from scripted_encounters import start


def _leading_after(replies):
    doctor = start("Outpatient clinic. An 82-year-old man is here to see you, alone.")
    for reply in replies:
        _ask(doctor, reply)
    return doctor


def test_voices_with_every_mood_symptom_denied_are_no_psychotic_depression():
    doctor = _leading_after([
        "Patient: They're coming through the loft, and nobody will do a thing about it.",
        "Patient: I'm not depressed, I'm angry.",
        "Patient: I haven't lost interest in things.",
        "Patient: No problems there, really. I'm not tired all the time.",
        "Patient: No problems there, really. I don't have trouble concentrating.",
        "Patient: I suppose I hear banging and whispering through the wall at night.",
    ])
    assert doctor._mood_groups_heard("F32") == 0
    lead = doctor._leading()
    assert lead[0][0].category == "schizophrenia_spectrum", [(h.code, s) for h, s in lead]
    assert not lead[0][0].code.startswith(("F32", "F33")), [(h.code, s) for h, s in lead]
    assert not any(h.code.startswith(("F32", "F33")) for h, _ in lead), [(h.code, s) for h, s in lead]
