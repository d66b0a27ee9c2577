"""A user's narrative record compiles into what the patient would say (issue 13, stop 37): the faults read
on uw-010's whole scripted episode (a 68-year-old with Lewy body dementia referred as depression), each
written here by reading the record's sentence as a clinician would, in sentences of the same shape but
not uw-010's words where a general rule is meant."""

from __future__ import annotations

from mentalhospital_env.cases.compile import compile_facts, voiced
from mentalhospital_env.cases.model import EHR
from mentalhospital_env.patient.timeline import Timeline, timeline


def _facts(sex: str = "male", **sections: str):
    cc = sections.pop("chief_complaint", "")
    hpi = sections.pop("history_of_present_illness", "")
    return compile_facts(EHR(chief_complaint=cc, history_of_present_illness=hpi, **sections), sex)


def _told(facts) -> list:
    return [f for f in facts if f.told and f.patient_says]


def test_own_words_label_is_the_patients_quotation() -> None:
    # was "In my own words, Everyone says I'm depressed."
    facts = _facts(chief_complaint='Referred by his GP with low mood. In his own words: "Everyone says I\'m depressed. I\'m not sad, I\'m muddled."')
    said = " ".join(f.patient_says for f in _told(facts))
    assert "own words" not in said.lower()
    assert "Everyone says I'm depressed. I'm not sad, I'm muddled." in said


def test_do_not_give_allergy_names_the_drug() -> None:
    # was "I'm allergic to documented by the surgical team as don't give." with the reaction untold
    facts = _facts(allergies='Haloperidol: severe adverse reaction in June 2024 after a single 2 mg dose, with rigidity and fever; '
                             'documented by the surgical team as "do not give". Penicillin: hives as a child. '
                             'Lisinopril: dry cough (intolerance, not allergy).')
    said = [f.patient_says for f in _told(facts)]
    assert "I had a severe reaction to haloperidol in June 2024." in said
    assert any("never" in s and "haloperidol" in s for s in said)
    assert not any("allergic to documented" in s for s in said)
    assert any("penicillin" in s and "hives" in s for s in said)
    lisinopril = next(s for s in said if "isinopril" in s)
    assert "allergic to lisinopril" not in lisinopril and "not an allergy" in lisinopril


def test_passive_death_wish_is_told_and_filed_under_suicide() -> None:
    # was "... after reading about my father's last illness, he has had passing thoughts that if he is going
    # the way Dad went." (the wish cut off, the patient left "he", filed under onset only): the episode's
    # suicide screen then got a stock denial
    facts = _facts(history_of_present_illness=(
        "Since the summer, after reading about his father's last illness, he has had passing thoughts that if he "
        'is "going the way Dad went" he would rather not last long; he describes no wish to die now and no plan.'))
    told = _told(facts)
    wish = next(f for f in told if "rather not last long" in f.patient_says)
    assert "suicide" in wish.topics
    assert " he " not in f" {wish.patient_says} "
    assert "I'd rather not last long" in wish.patient_says or "I would rather not last long" in wish.patient_says
    assert any(f.patient_says.startswith("I have no wish to die") for f in told)


def test_not_described_is_not_affirmed() -> None:
    # "He does not describe guilt or worthlessness." was said "I've had guilt or worthlessness."
    assert voiced("history_of_present_illness", "He does not describe guilt or worthlessness.", "male") == "I haven't had guilt or worthlessness."
    assert voiced("history_of_present_illness", "He does not describe sadness as the main problem.", "male") == "Sadness isn't the main problem."


def test_accident_is_not_self_harm() -> None:
    facts = _facts(history_of_present_illness="In January he misjudged a cut on his table saw and nicked his left thumb.")
    assert not any("self_harm" in f.topics for f in facts)


def test_no_self_harm_before_this_referral_is_told() -> None:
    # the denial of attempts and self-harm was untold ("referral"): the patient had no answer of his own
    facts = _facts(past_psychiatric_history="No psychiatric admissions, no suicide attempts or self-harm, and no contact with psychiatric services before this referral.")
    f = _told(facts)[0]
    assert f.polarity == "absent" and "self_harm" in f.topics and "referral" not in f.patient_says


def test_ex_smoker_heading_dropped() -> None:
    # was "Tobacco, smoked about 15 cigarettes a day ..." (and a reply "Tobacco." to "Do you smoke?")
    facts = _facts(substance_use="Tobacco: smoked about 15 cigarettes a day from 17 until 40 and quit in 1998. Cannabis: tried it twice in college, none since.")
    said = [f.patient_says for f in _told(facts)]
    assert said[0].startswith("I smoked about 15 cigarettes a day") and "quit in 1998" in said[0]
    assert any("cannabis" in s for s in said)
    assert not any(s.lower().startswith(("tobacco", "cannabis")) for s in said)


def test_appetite_normal_is_the_patients_answer() -> None:
    facts = _facts(history_of_present_illness="Appetite is normal. His weight is 84 kg today.")
    appetite = next(f for f in facts if "ppetite" in f.text)
    assert appetite.told and appetite.patient_says == "My appetite is normal."


def test_by_both_accounts_is_not_said() -> None:
    said = voiced("history_of_present_illness", "By both accounts he was well and sharp through his working life.", "male")
    assert said == "I was well and sharp through my working life."


def test_fluctuation_is_course() -> None:
    facts = _facts(history_of_present_illness="His wife confirms that he varies a great deal from day to day and within a day.")
    assert "course" in facts[0].topics


def test_helping_with_dishes_is_not_support() -> None:
    facts = _facts(history_of_present_illness="On good days he finishes the crossword, talks with his son on the phone, and helps with the dishes.")
    assert not any("social_support" in f.topics for f in facts)


def test_onset_keeps_its_year_and_retirement_is_no_onset() -> None:
    # "It started in September." (the month he retired in 2023; the first change was June 2024)
    t = timeline("He was well through his working life and at his planned retirement in September 2023. "
                 "The first change his wife dates is June 2024. After a knee replacement he became confused.")
    assert t.say("onset") == "It started in June 2024."
    assert Timeline(well_until="January").say("onset") == "It started in January."


def test_uw010_tells_his_passive_death_wish() -> None:
    # the whole chain on the user's record: asked plainly, he tells the passing thoughts (was the stock "I've
    # never had thoughts of ending my life.", then "... Since the summer of 2026." after a terse speaker's cut)
    from pathlib import Path

    from mentalhospital_env.cases import load_case
    from mentalhospital_env.patient import make_patient

    case = load_case(Path(__file__).resolve().parents[1] / "benchmarks/data/patient_exam/unseen/uw-010.json")
    reply = make_patient(case, "full", seed=0).respond("Have you had thoughts that life isn't worth living?").text
    assert "rather not last long" in reply
    assert "never had thoughts" not in reply


def test_someone_elses_pronoun_is_named_or_unsaid() -> None:
    # "She is now tired and worried, ..." (his wife, split from the sentence before) was said with no one to
    # take "she" for, to questions about medicines and allergies
    rest = "she is now tired and worried, sleeping in the spare room because of his night-time movements, and doing the driving, cooking, money and medicines."
    facts = _facts(personal_history="He met Margaret at church in 1982. They describe a close marriage; " + rest)
    assert not any((f.patient_says or "").startswith("She ") for f in facts)
    facts = _facts(personal_history="He lives with his wife. They describe a close marriage; " + rest)
    assert any((f.patient_says or "").startswith("My wife is now tired") for f in facts)


def test_a_framing_not_never_turns_into_a_claim() -> None:
    for sentence in ("She has never been admitted or lost a job because of them.", "He could not say why this year was different.",
                     "He cannot say the thoughts will not come back."):
        said = voiced("history_of_present_illness", sentence, "female" if sentence.startswith("She") else "male")
        assert said is None or "won't come back" not in said and "haven't had or" not in said and not said.startswith("Why")


def test_the_couple_is_we_and_a_weight_in_pounds_is_weight() -> None:
    # "They live on my public-employees pension ..." (now "We get by on my ...", never answering "Who do you live with?") (uw-010) said of himself and his wife; "is 184 lb today"
    # filed under no topic at all was told to "How has your thinking been today?"
    facts = _facts(history_of_present_illness="Home: they live on his pension and savings. He met Margaret in 1982 and they married in 1984. "
                                              "His weight was 186 lb before the surgery; is 184 lb today.")
    said = [f.patient_says for f in _told(facts)]
    assert "We get by on my pension and savings." in said
    assert "I met Margaret in 1982 and we married in 1984." in said
    assert all("weight" in f.topics for f in facts if "lb" in f.text)


def test_alcohol_heading_never_said() -> None:
    # uw-009's 'Alcohol: for most of his adult life 15-20 units a week, ...' was said "Alcohol, for most of ..."
    facts = _facts(substance_use="Alcohol: for most of his adult life 15-20 units a week, mainly at weekends, with heavier drinking when he is high.")
    assert not any((f.patient_says or "").startswith("Alcohol") for f in facts)


def test_other_passive_death_wishes_file_under_suicide() -> None:
    # the same class on the other users' records: uw-005's "the family would be better off with the life
    # insurance" was filed under onset, course and money; uw-003's text "You'll all be better off." under
    # relationships only - neither answered the suicide screen
    facts = _facts("female", history_of_present_illness="Since then she has had thoughts that the family would be better off with the life insurance, two or three times a week.")
    assert any("suicide" in f.topics for f in facts)
    facts = _facts(history_of_present_illness="At about 22:30 he texted his daughter 'sorry for everything love. You'll all be better off.'")
    assert any("suicide" in f.topics for f in facts)


def test_what_a_relative_raised_about_the_patient_is_his_to_tell() -> None:
    # uw-003: his wife "raised, without being asked" the guns at home; the rendering opened on her "She" and was
    # left unsaid, so the patient lost the two shotguns in the house (the means question's key fact)
    facts = _facts(history_of_present_illness=(
        "She raised, without being asked, that he holds a shotgun certificate and keeps two shotguns in a locked "
        "cabinet in the back bedroom."))
    said = " ".join(f.patient_says for f in _told(facts))
    assert "I keep two shotguns in a locked cabinet" in said and "raised" not in said
    # someone else's own matter stays hers: no 'that' clause about the patient, nothing turned into his words
    other = _facts(history_of_present_illness="She raised her concerns with the school last year.")
    assert not any("I raised" in (f.patient_says or "") for f in other)


def test_an_allergy_heading_is_no_drug() -> None:
    # review of stop 37: 'NKDA: confirmed with GP.' was said 'I'm allergic to NKDA, it gives me a confirmed.'
    nkda = _facts(allergies="NKDA: confirmed with GP.")
    assert not any("allergic to NKDA" in (f.patient_says or "") for f in nkda)
    assert any(f.section == "allergies" and f.polarity == "absent" for f in nkda)
    named = " ".join(f.patient_says or "" for f in _facts(allergies="Penicillin allergy: rash."))
    assert "allergic to penicillin," in named and "penicillin allergy" not in named
