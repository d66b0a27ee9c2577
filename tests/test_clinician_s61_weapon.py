"""Stop 61 (s61-clin): uw-034, a man of 36 after a shooting in which his brother died, feels hunted, has nightmares
in which he grips his ex-partner's neck, and keeps a kitchen knife under his pillow; he was asked about the voice and
about means of suicide, never whether he keeps a weapon to hand. A person who feels under threat (a persecutory
belief), who has thoughts of harming someone, or who tells of violence in sleep is asked whether they
keep a weapon to hand (disclosure_follow_up 'weapon_to_hand'); a weapon told reaches the plan, removed or locked away,
as a risk to others (plan.weapon_to_hand)."""

from __future__ import annotations

from tests.scripted_encounters import opening_reply, questions, with_findings, write

WEAPON = "weapon by your bed, at home or on you"


def test_being_on_guard_alone_is_no_call_for_the_weapon_question():
    asked = questions("Outpatient clinic. A 36-year-old woman is here to see you, alone.",
                      opening_reply("Since the crash I'm always on guard, I jump at any bang."))
    assert not any(WEAPON in q for q in asked), asked


def test_violence_in_sleep_is_followed_by_the_weapon_question():
    asked = questions("Outpatient clinic. A 36-year-old man is here to see you, alone.",
                      opening_reply("I grabbed my partner by the neck in my sleep, and she left."))
    assert any(WEAPON in q for q in asked), asked


def test_no_weapon_question_for_a_low_mood_alone():
    asked = questions("Outpatient clinic. A 40-year-old man is here to see you, alone.",
                      opening_reply("I've been feeling low and I can't sleep."))
    assert not any(WEAPON in q for q in asked), asked


def _after_weapon_reply(reply: str):
    doctor = with_findings(
        "Outpatient clinic. A 36-year-old man is here to see you, alone.",
        present={"hypervigilance": "I'm always on guard."},
        answers={"follow:weapon_to_hand": reply},
    )
    doctor.findings.replies.append(("Do you keep a knife or any other weapon by your bed, at home or on you, to protect yourself?", reply))
    return doctor


def test_a_knife_under_the_pillow_is_removed_in_the_plan_as_a_risk_to_others():
    plan = write(_after_weapon_reply("I keep a kitchen knife under my pillow, for if they come."), "treat")
    assert "A weapon kept to hand" in plan and "knives" in plan, plan
    assert "Risk to others" in plan, plan


def test_no_weapon_denied_plans_nothing_about_one():
    plan = write(_after_weapon_reply("No, I don't keep any knife or weapon."), "treat")
    assert "A weapon kept to hand" not in plan, plan
    assert "Risk to others" not in plan, plan


def test_the_note_files_the_weapon_in_the_risk_assessment():
    note = write(_after_weapon_reply("I keep a kitchen knife under my pillow, for if they come."), "write_note")
    assert "A weapon kept to hand" in note, note


def test_a_persecutor_is_followed_by_the_belief_what_was_done_then_the_weapon_question():
    asked = questions("Outpatient clinic. A 36-year-old man is here to see you, alone.",
                      opening_reply("Some men in the area are watching me and they want to hurt me."))
    done = next(i for i, q in enumerate(asked) if "What have you done about it so far?" in q)
    weapon = [i for i, q in enumerate(asked) if WEAPON in q]
    assert weapon and weapon[0] == done + 1 and len(weapon) == 1, asked


def test_the_weapon_question_two_rules_share_is_filed_once():
    doctor = _after_weapon_reply("Not really.")
    doctor.findings.present["persecutory_delusions"] = "Some men are watching me."
    note = write(doctor, "write_note")
    assert note.count("A weapon kept to hand") == 1, note
