"""The timeline reads an amount spelled out in two words (stop 52): "about twenty-one days ago" was read from its last
word ("one days": the patient would say "It started about one days ago") and "for twenty-four years" not at all."""

from mentalhospital_env.patient.timeline import timeline


def test_a_two_word_number_is_one_number():
    assert timeline("Panic attacks started about twenty-one days ago.").onset_ago == "about twenty-one days"
    assert timeline("He has been drinking heavily for twenty-four years.").duration == "twenty-four years"
    assert timeline("Low mood for the last thirty six months.").duration == "thirty six months"


def test_single_numbers_read_as_before():
    assert timeline("Started twenty years ago.").onset_ago == "twenty years"
    assert timeline("Low mood for the last two months.").duration == "two months"
    assert timeline("Started 3 weeks ago.").onset_ago == "3 weeks"
