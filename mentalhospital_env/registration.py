"""Registers the Gymnasium ids when ``mentalhospital_env`` is imported.

Entry points are strings, so registering imports nothing of the environments themselves:
``import mentalhospital_env`` stays fast and ``gymnasium.make`` imports ``mentalhospital_env.env``
on first use.
"""

from __future__ import annotations

ENV_IDS: tuple[str, ...] = ("MentalHospital-v0", "MentalHospitalDiscrete-v0")
_ENTRY_POINTS = {
    "MentalHospital-v0": "mentalhospital_env.env:MentalHospitalEnv",
    "MentalHospitalDiscrete-v0": "mentalhospital_env.env:MentalHospitalDiscreteEnv",
}

_VECTOR_ENTRY_POINTS = {
    "MentalHospital-v0": "mentalhospital_env.env:make_text_vector_env",
    "MentalHospitalDiscrete-v0": "mentalhospital_env.env:make_discrete_vector_env",
}


def register_envs() -> None:
    """Register both ids with Gymnasium (once; importing again does nothing)."""
    from gymnasium.envs.registration import register, registry

    for env_id, entry_point in _ENTRY_POINTS.items():
        if env_id not in registry:
            register(
                id=env_id,
                entry_point=entry_point,
                vector_entry_point=_VECTOR_ENTRY_POINTS[env_id],
                disable_env_checker=False,
            )
