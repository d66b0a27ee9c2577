"""Stop 49 (issue 13): an investigation's or a measurement's result line is the chart's, never the patient's speech.

uw-019 and uw-022 had "Weight 68.4 kg, height 1.77 m." said "I have weight 68.4 kg, height 1.77 m." and "TFTs normal
April 2026." said "I had tFTs normal April 2026." (a possession lead put before a result line). What the patient has
changed ("weight loss") and a result told with its verb stay the patient's.
"""

from mentalhospital_env.cases.compile import voiced


def test_result_lines_are_not_said():
    assert voiced("medical_history", "Weight 68.4 kg, height 1.77 m.", "male") is None
    assert voiced("medical_history", "TFTs normal April 2026.", "female") is None


def test_the_patients_own_change_is_still_said():
    said = voiced("medical_history", "Weight loss of 5 kg over two months.", "female")
    assert said and "weight loss" in said.lower()
    assert voiced("personal_history", "Left school at 16.", "male") == "I left school at 16."


def test_a_role_is_said_with_be_not_had():
    # uw-018's "smoker" was said "I have smoker."
    assert voiced("substance_use", "Smoker.", "female") == "I'm a smoker."
    assert voiced("substance_use", "Current smoker, 10 cigarettes a day.", "male") == "I'm a current smoker, 10 cigarettes a day."
    assert voiced("substance_use", "Heavy drinker since 2015.", "male") == "I've been a heavy drinker since 2015."
    # a noun after the role word is a thing had, not a role
    assert "student loans" in (voiced("social_history", "Student loans of 20000 pounds.", "female") or "")
