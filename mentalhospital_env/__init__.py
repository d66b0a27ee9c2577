"""MentalHospital: a simulated psychiatric clinic for training and evaluating doctor agents.

Cases are synthetic psychiatric EHRs (see ../shared/CASES.md); a skill-augmented simulated patient
answers the doctor; coverage, nDCG and MentalEval rubric judges score the encounter.
"""

__version__ = "0.1.0"
