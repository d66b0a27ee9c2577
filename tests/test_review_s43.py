"""Review of the s43 merge (M6): a question about a topic the record is silent on is answered with a denial.

test-v2-0090 (social phobia; nothing in the record of attacks, and the MSE's "distractible by worry"):
"How much do you worry about having another episode?" after a question about the body in those situations is
answered "No problems there, really. I'm not scared of having another attack." The previous-turn carry of s43-topics
is not the cause (with ``add_before`` off the reply is the same); the refitted topic model no longer misreads the
question as money, and the reply it got at s43-sets ("Hard to say. I'm not sure.") was that misreading's. The denial
is recall's closed world for symptom concepts (anticipatory_anxiety, excessive_worry denied at both builds), which
DESIGN.md's "a denial only where the record rules the thing out" does not allow here. Mended at s44 (s44-recall): what
the record implies (patient/data/implied.json) is never denied by the closed world."""

from __future__ import annotations

from mentalhospital_env.cases.loader import bundled_suite_path, load_suite
from mentalhospital_env.patient import make_patient


def test_a_worry_the_record_is_silent_on_is_not_denied():
    # s44-recall: the record implies the dread (a diagnosis of social phobia, the nerves in company it states), so the
    # closed world no longer denies it (data/implied.json); the patient answers from what they said of it
    case = next(c for c in load_suite(bundled_suite_path("test-v2")).cases if c.case_id == "test-v2-0090")
    patient = make_patient(case, variant="full", seed=0)
    patient.respond("What happens in your body in those situations?")
    reply = patient.respond("How much do you worry about having another episode?")
    assert "anticipatory_anxiety" not in reply.denied
