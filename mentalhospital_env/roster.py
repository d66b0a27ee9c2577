"""The roster of doctors: find a doctor policy by name.

Doctors are plugins: a package lists a factory under the ``mentalhospital.doctors`` entry-point
group, and ``make_doctor("NAME")`` or ``make_doctor("NAME:ARGUMENT")`` calls it with the argument
(or ``None``). This package registers ``random``, ``scripted``, ``llm``, ``human`` and ``ppo`` (see
pyproject.toml); ``module.path:attribute`` works too, for a factory that is not registered. The
library itself never imports ``mentalhospital_env.agents`` directly, so the arrows of the house
point one way.
"""

from __future__ import annotations

import importlib
from importlib import metadata
from typing import Any, Callable

GROUP = "mentalhospital.doctors"


class DoctorNotFound(LookupError):
    """No doctor of that name: the message lists the registered names."""


def registered_doctors() -> dict[str, metadata.EntryPoint]:
    """The doctors registered by installed packages, by name."""
    return {ep.name: ep for ep in metadata.entry_points(group=GROUP)}


def doctor_factory(spec: str) -> tuple[Callable[[str | None], Any], str | None]:
    """The factory for ``spec`` and the argument to pass it."""
    name, _, argument = spec.partition(":")
    registered = registered_doctors()
    if name in registered:
        return registered[name].load(), (argument or None)
    if "." in name and argument:
        module_name, _, rest = spec.partition(":")
        attr, _, argument = rest.partition(":")
        try:
            module = importlib.import_module(module_name)
            return getattr(module, attr), (argument or None)
        except (ImportError, AttributeError) as e:
            raise DoctorNotFound(f"cannot load doctor factory {module_name}:{attr}: {e}") from e
    known = ", ".join(sorted(registered)) or "none (is the package installed?)"
    raise DoctorNotFound(f"no doctor named {name!r}; registered doctors: {known}; or give module.path:factory")


def doctor_identity(spec: str) -> str:
    """What a doctor is, for results and resuming: its factory's ``identity(argument)`` when it has one
    (the ``llm`` doctor: model name and generation settings, never the server's URL), else ``spec``."""
    factory, argument = doctor_factory(spec)
    identify = getattr(factory, "identity", None)
    return identify(argument) if callable(identify) else spec


def make_doctor(spec: str) -> Any:
    """A new doctor instance for ``spec`` (one per episode slot: doctors keep per-episode state)."""
    factory, argument = doctor_factory(spec)
    return factory(argument)
