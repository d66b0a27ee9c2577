"""The persons a record names, and reading a statement with a named person's role in the name's place.

A checkpoint that names a person by first name ("Rachel had panic attacks in her twenties", "Sana is a pharmacist")
cannot be read as the patient's or a relative's without the case's people: the record names them with their roles
("seen with her mother, Rachel"; "his wife (Claire)"). :func:`case_persons` reads them once per case (the role words
are ``language.json``'s kinship table, its other-subject cues and its ``persons`` table); :meth:`Persons.read` puts
the role in a name's place ("Rachel had panic attacks" -> "Her mother had panic attacks"; "Daniel estimates" -> "He
estimates"), so the matcher's subject rules read a named relative as that relative and the patient's own name as
the patient.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from typing import Any

from .language import memo_size

_NAME = r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?"
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|my|me|myself)\b", re.I)
# a quotation inside a note ("he said it would be 'better for her if I went'"): its first person is not the writer's
_QUOTED = re.compile(r"(?:^|(?<=[\s(:]))['\"\u2018\u201c].*?['\"\u2019\u201d](?=[\s.,;:)!?]|$)")


@dataclass(frozen=True)
class _PersonCues:
    role_words: tuple[str, ...]  # longest first
    group_roles: tuple[tuple[str, str], ...]
    titles: dict[str, str]
    addressing: frozenset[str]
    pronouns: dict[str, tuple[str, str, str]]
    object_before: frozenset[str]
    not_names: frozenset[str]


@lru_cache(maxsize=1)
def _cues() -> _PersonCues:
    raw = json.loads(resources.files(__package__).joinpath("data/language.json").read_text("utf-8"))
    table = raw["persons"]
    kin = raw.get("kinship", {})
    words = {w for ws in kin.get("roles", {}).values() for w in ws}
    words |= {w for w in raw.get("other_subject_cues", ()) if w.isalpha() or "-" in w}
    words |= set(table["roles"])
    return _PersonCues(
        role_words=tuple(sorted(words, key=len, reverse=True)),
        group_roles=tuple(table.get("group_roles", {}).items()),
        titles={k.lower(): v for k, v in table["titles"].items()},
        addressing=frozenset(w.lower() for w in table["addressing_words"]),
        pronouns={k: tuple(v) for k, v in table["pronouns"].items()},  # type: ignore[misc]
        object_before=frozenset(table["object_before"]),
        not_names=frozenset(w.lower() for w in table["not_names"]),
    )


@dataclass(frozen=True)
class Persons:
    """The persons of one case: ``roles`` maps a name to its role word ("Rachel" -> "mother"), the patient's names
    to ``"patient"``; ``sex`` chooses the patient's pronouns."""

    roles: tuple[tuple[str, str], ...] = ()
    sex: str = "other"
    _pattern: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        names = sorted({n for n, _ in self.roles}, key=len, reverse=True)
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")('s)?\b") if names else None
        object.__setattr__(self, "_pattern", pattern)

    def role_of(self, name: str) -> str | None:
        return dict(self.roles).get(name)

    def __bool__(self) -> bool:
        return bool(self.roles)

    def read(self, text: str, speaker: str = "patient", relation: str | None = None) -> str:
        """``text`` with each named person's role in the name's place (the text itself when it names nobody).

        ``speaker``: who said it; ``"informant"`` when the relative or carer present did (``relation``: theirs to
        the patient, "mother", "wife"; ``None`` when not known): the names are then read as said of the patient in
        the third person and the whole put in the patient's frame (:func:`~.voice.in_patient_frame`: the
        informant's "I" is the informant, the patient's "he" is "I", the informant's relatives the patient's)."""
        if speaker == "informant":
            from .voice import in_patient_frame

            named = _read(self, text, third_person=True) if self._pattern is not None and self._pattern.search(text) else text
            return in_patient_frame(named, relation, self.sex)
        if self._pattern is None or not self._pattern.search(text):
            return text
        return _read(self, text)


def _read(persons: Persons, text: str, third_person: bool = False) -> str:
    cues = _cues()
    roles = dict(persons.roles)
    subject, obj, poss = cues.pronouns.get(persons.sex, cues.pronouns["other"])
    # a patient speaking names a relative as "my" relative ("Ewa and I" -> "my wife and I"); an informant's words
    # are read in the third person (``third_person``), then put in the patient's frame
    speaking = not third_person and bool(_FIRST_PERSON.search(_QUOTED.sub(" ", text)))
    kin_poss = "my" if speaking else poss
    relatives = {n: r for n, r in roles.items() if r != "patient"}
    # the apposition first: "her mother, Rachel, had" -> "her mother had"; "wife (Claire)" -> "wife"
    for name, role in relatives.items():
        text = re.sub(rf"\b({re.escape(role)})\s*\({re.escape(name)}\)", r"\1", text, flags=re.I)
        text = re.sub(rf"\b({re.escape(role)})\s*\({re.escape(name)},\s*", r"\1 (", text, flags=re.I)
        text = re.sub(rf"\b({re.escape(role)}),\s*{re.escape(name)}\b(?:,(?=\s))?", r"\1", text, flags=re.I)
        text = re.sub(rf"\b({re.escape(role)})\s+{re.escape(name)}\b", r"\1", text, flags=re.I)
    patient = [n for n, r in roles.items() if r == "patient"]
    titled = [t for t in cues.titles]
    if patient:
        names = "|".join(map(re.escape, sorted(patient, key=len, reverse=True)))
        # "Mr Daniel Reeve" and "Daniel Reeve" are one mention
        text = re.sub(
            rf"\b(?:(?:{'|'.join(titled)})\.?\s+)?(?:{names})(?:\s+(?:{names}))?\b",
            lambda m: m.group(0).split()[-1],
            text,
            flags=0,
        )
        text = re.sub(rf"\b(?i:{'|'.join(titled)})\.?\s+(?=(?:{names})\b)", "", text)

    def put(match: re.Match) -> str:
        name, genitive = match.group(1), match.group(2)
        role = roles.get(name)
        if role is None:
            return match.group(0)
        before = text[: match.start()]
        opening = not before.strip() or before.rstrip()[-1] in ".!?:;'\"(" or before.rstrip().endswith("--")
        if role == "patient":
            if genitive:
                word = poss
            else:
                previous = re.findall(r"[A-Za-z']+", before[-30:])
                word = obj if previous and previous[-1].lower() in cues.object_before else subject
        else:
            word = f"{kin_poss} {role}" + ("'s" if genitive else "")
        return word[0].upper() + word[1:] if opening else word

    pattern = persons._pattern
    out: list[str] = []
    last = 0
    for match in pattern.finditer(text):  # type: ignore[union-attr]
        out.append(text[last : match.start()])
        out.append(put(match))
        last = match.end()
    out.append(text[last:])
    return "".join(out)


def _record_text(case: Any) -> tuple[str, str, str]:
    """(the chief complaint, the history of present illness, the rest of the record's text)."""
    ehr = case.ehr
    rest = []
    for key in ("past_psychiatric_history", "medical_history", "substance_use", "family_history", "personal_history"):
        value = getattr(ehr, key, None)
        if value:
            rest.append(value)
    for part in (ehr.mental_status_exam, ehr.risk_assessment):
        if part is not None:
            rest.extend(v for v in vars(part).values() if isinstance(v, str))
    return ehr.chief_complaint or "", ehr.history_of_present_illness or "", "\n".join(rest)


def case_persons(case: Any) -> Persons:
    """The persons ``case``'s record names with their roles (parsed once per case and remembered)."""
    complaint, present, rest = _record_text(case)
    sex = str(getattr(case.demographics, "sex", "") or "").lower()
    return _persons(complaint, present, rest, sex if sex in ("female", "male") else "other")


@lru_cache(maxsize=memo_size(1024))
def _persons(complaint: str, present: str, rest: str, sex: str) -> Persons:
    cues = _cues()
    whole = "\n".join((complaint, present, rest))
    own = {"female": "her", "male": "his"}.get(sex, "their")
    roles: dict[str, str] = {}
    role_alt = "|".join(re.escape(w) for w in cues.role_words)
    groups = dict(cues.group_roles)

    def take(name: str, role: str) -> None:
        if name.lower() in cues.not_names or name.lower() in cues.titles or name in roles:
            return
        if name.lower() in {w.lower() for w in cues.role_words}:
            return
        roles[name] = role

    # "her mother, Rachel" / "his wife Margaret" / "Brother Oliver" / "a daughter, Lily": the possessive, when there
    # is one, must be the patient's ("her mother, Chloe" in a man's record is his daughter's mother)
    for m in re.finditer(
        rf"(?:\b(my|his|her|their|the patient's|a|an|the)\s+)?\b({role_alt})(?:,\s*|\s+)({_NAME})\b",
        whole,
        flags=re.I,
    ):
        possessive, role, name = (m.group(1) or "").lower(), groups.get(m.group(2).lower(), m.group(2).lower()), m.group(3)
        if not name[0].isupper() or possessive in ("his", "her", "their") and possessive != own:
            continue
        take(name, role)
    # "mother (Helen)", "Wife (Anne, by phone)", "care coordinator (Jo, EIP team)"
    for m in re.finditer(rf"(?:\b(his|her|their)\s+)?\b({role_alt})\s*\(({_NAME})[,)]", whole, flags=re.I):
        possessive = (m.group(1) or "").lower()
        if possessive and possessive != own:
            continue
        take(m.group(3), groups.get(m.group(2).lower(), m.group(2).lower()))
    # "both parents, Sana and Imran"
    for phrase, role in cues.group_roles:
        for m in re.finditer(rf"\b{re.escape(phrase)},?\s+({_NAME})\s+and\s+({_NAME})\b", whole, flags=re.I):
            take(m.group(1), role)
            take(m.group(2), role)
    patient: set[str] = set()
    # a title that agrees with the patient's sex, not after a greeting ("Dear Dr Okafor"), in the history
    for m in re.finditer(rf"(\b[A-Za-z]+\s+)?\b((?i:{'|'.join(cues.titles)}))\.?\s+({_NAME})(?:\s+({_NAME}))?", present):
        before = (m.group(1) or "").strip().lower()
        if before in cues.addressing or cues.titles[m.group(2).lower()] != sex or not m.group(2)[0].isupper():
            continue
        patient.update(n for n in (m.group(3), m.group(4)) if n)
    # a speaker label of the chief complaint ("Amelia: 'I just want...'") the record also writes inside a sentence
    for m in re.finditer(rf"(?:^|[.!?'\"]\s+)({_NAME}):\s", complaint):
        name = m.group(1)
        if name.lower() in cues.not_names or name in roles:
            continue
        if re.search(rf"[a-z,]\s+{re.escape(name)}\b", whole):
            patient.add(name)
    for name in patient:
        if name.lower() not in cues.not_names and name not in roles:
            roles[name] = "patient"
    return Persons(tuple(sorted(roles.items())), sex)
