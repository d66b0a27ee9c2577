"""MentalHospital: a simulated psychiatric clinic for training and evaluating doctor agents.

Cases are synthetic psychiatric EHRs (see docs/cases.md); a skill-augmented simulated patient
answers the doctor; coverage, nDCG and MentalEval rubric judges score the encounter.
"""

__version__ = "0.1.0"

from mentalhospital_env.registration import register_envs as _register_envs

_register_envs()  # MentalHospital-v0 and MentalHospitalDiscrete-v0; entry points are imported on first make
