"""A reply spoken by the informant, read in the patient's frame.

The matcher reads a reply as the patient's: "I" is the patient, "he" or "she" is somebody else, "my mum" is the
patient's mother. When the relative or carer present answers (the environment knows who spoke: the reply's
``speaker``), those readings are wrong: the mother's "He's been lying to me" says the patient lied to his mother,
and her "My dad took his own life" is the patient's maternal grandfather's suicide. :func:`in_patient_frame` puts the
informant's words where the patient's would stand: the informant's "I" becomes the informant named by relation
("my mother"), the patient spoken of in the third person becomes "I", and the informant's relatives become the
patient's by the relation between them (``data/informant_voice.json``): "my husband" said by the mother is "my
father", "my sister" is "my mother's sister" (the kinship table reads a maternal aunt), "my son" said by the mother
of a boy is the patient himself. The rest of the matcher reads the result as it reads any reply.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .language import memo_size

_TOKEN = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)?")
_CLAUSE_OPENERS = frozenset({"and", "but", "so", "that", "when", "because", "if", "then", "while", "since", "till", "until", "or", "now", "cos", "as"})
_AGE = frozenset({"little", "older", "younger", "big", "eldest", "oldest", "youngest", "baby", "kid", "own", "other", "step", "late", "poor", "old"})


@dataclass(frozen=True)
class _Voice:
    relations: dict
    aliases: dict
    bare_kin: frozenset
    kin_words: frozenset
    first_person: dict
    patient_forms: dict
    her_not_before: frozenset
    perfect_after: frozenset
    agreement: tuple
    verb_irregular: dict
    verb_adverbs: frozenset
    negation_between: frozenset


@lru_cache(maxsize=1)
def _voice() -> _Voice:
    raw = json.loads(resources.files(__package__).joinpath("data/informant_voice.json").read_text("utf-8"))
    return _Voice(
        relations=raw["relations"],
        aliases=raw["aliases"],
        bare_kin=frozenset(raw["bare_kin"]),
        kin_words=frozenset(raw["kin_words"]),
        first_person=raw["first_person"],
        patient_forms=raw["patient_forms"],
        her_not_before=frozenset(raw["possessive_her_not_before"]),
        perfect_after=frozenset(raw["perfect_after"]),
        agreement=tuple((re.compile(a), b) for a, b in raw["agreement"]),
        verb_irregular=raw["verb_after_i"]["irregular"],
        verb_adverbs=frozenset(raw["verb_after_i"]["adverbs"]),
        negation_between=frozenset(raw["negation_between"]),
    )


def informant_relation(text: str | None) -> str | None:
    """The informant's relation to the patient as the voice table knows it ("her mother" -> "mother"), from a
    relation phrase such as :func:`~mentalhospital_env.hospital.encounter.who_is_present` gives; ``None`` when it
    names no relation the table has."""
    if not text:
        return None
    v = _voice()
    words = re.findall(r"[a-z]+", text.lower())
    for i in range(len(words)):
        for n in (2, 1):
            key = " ".join(words[i : i + n])
            key = v.aliases.get(key, key)
            if key in v.relations:
                return key
    return None


@lru_cache(maxsize=memo_size(4096))
def in_patient_frame(text: str, relation: str | None, sex: str) -> str:
    """``text``, said by the informant whose relation to the patient is ``relation`` ("mother", "wife"; ``None``
    when not known: the informant is then "my relative"), with its persons put as the patient would say them.
    ``sex``: the patient's ("female", "male"; anything else leaves the third person as it is)."""
    v = _voice()
    table = v.relations.get(relation or "", {})
    role = table.get("role_word", "relative")
    who = f"my {role}"
    self_words = frozenset(table.get("self", {}).get(sex, ()))
    kin = table.get("kin", {})
    forms = v.patient_forms.get(sex, {})
    tokens = list(_TOKEN.finditer(text))
    out: list[str] = []
    last = 0
    skip_to = -1
    fixes: dict[int, str] = {}

    def opening(i: int) -> bool:
        before = text[: tokens[i].start()].rstrip()
        if not before or before[-1] in ".!?;:\"'(\u2018\u201c-\u2013\u2014,":
            return True
        return i > 0 and tokens[i - 1].group(0).lower() in _CLAUSE_OPENERS

    def sentence_start(i: int) -> bool:
        before = text[: tokens[i].start()].rstrip()
        return not before or before[-1] in ".!?\"'\u2018\u201c"

    def kin_phrase(word: str, genitive: bool, i: int) -> str:
        base = word.lower()
        if base in self_words:
            return "my" if genitive else ("I" if opening(i) else "me")
        mapped = kin.get(base)
        if isinstance(mapped, dict):
            mapped = mapped.get(sex)
        if mapped:
            return f"my {mapped}" + ("'s" if genitive else "")
        return f"{who}'s {word}" + ("'s" if genitive else "")

    for i, m in enumerate(tokens):
        if i <= skip_to:
            continue
        word = m.group(0).replace("\u2019", "'")
        low = word.lower()
        replacement: str | None = None
        end = m.end()
        nxt = tokens[i + 1].group(0).replace("\u2019", "'").lower() if i + 1 < len(tokens) else ""
        if low == "my" and i + 1 < len(tokens):
            j = i + 1
            adjective = ""
            if tokens[j].group(0).lower() in _AGE and j + 1 < len(tokens):
                adjective = tokens[j].group(0) + " "
                j += 1
            head = tokens[j].group(0).replace("\u2019", "'")
            genitive = head.lower().endswith("'s")
            base = head[:-2] if genitive else head
            if base.lower() in v.kin_words and not adjective:
                replacement, end, skip_to = kin_phrase(base, genitive, i), tokens[j].end(), j
            elif base.lower() in v.kin_words:
                phrase = kin_phrase(base, genitive, i)
                if phrase.startswith(f"{who}'s "):
                    phrase = f"{who}'s {adjective}{phrase[len(who) + 3:]}"
                elif phrase.startswith("my "):
                    phrase = f"my {adjective}{phrase[3:]}"
                replacement, end, skip_to = phrase, tokens[j].end(), j
            else:
                replacement = f"{who}'s"
        elif low in v.bare_kin and word[0].isupper() and not (i > 0 and tokens[i - 1].group(0).lower() in ("my", "his", "her", "your", "our", "their", "the", "a")):
            replacement = kin_phrase(word, False, i)
        elif low.endswith("'s") and low[:-2] in v.bare_kin and word[0].isupper():
            replacement = kin_phrase(word[:-2], True, i)
        elif low in v.first_person:
            replacement = v.first_person[low].format(who=who)
        elif low in forms:
            if low == "her":
                replacement = "my" if nxt and nxt not in v.her_not_before else "me"
            elif low in ("he's", "she's"):
                # "he's not had" / "she's never been": the word after "not" or "never" says has or is
                k = i + 1
                while k < len(tokens) - 1 and tokens[k].group(0).lower() in v.negation_between:
                    k += 1
                after = tokens[k].group(0).replace("\u2019", "'").lower() if k < len(tokens) else ""
                perfect = after in v.perfect_after or (after.endswith("ed") and len(after) > 4)
                replacement = "I've" if perfect else "I'm"
            else:
                replacement = forms[low]
                if replacement == "I":
                    verb_at = _verb_after(tokens, i + 1, v)
                    if verb_at is not None:
                        fixes[verb_at] = _base_form(tokens[verb_at].group(0), v)
        if i in fixes:
            replacement = fixes.pop(i)
        if replacement is None:
            continue
        if sentence_start(i) and replacement[:1].islower():
            replacement = replacement[0].upper() + replacement[1:]
        elif not re.match(r"I\b", replacement):
            replacement = replacement[0].lower() + replacement[1:]
        out.append(text[last : m.start()])
        out.append(replacement)
        last = end
    out.append(text[last:])
    said = "".join(out)
    for pattern, right in v.agreement:
        said = pattern.sub(right, said)
    return said


def _verb_after(tokens: list, j: int, v: _Voice) -> int | None:
    """The index of the -s verb that follows a patient's "he" / "she" now read as "I" (an adverb passed over)."""
    while j < len(tokens) and tokens[j].group(0).lower() in v.verb_adverbs:
        j += 1
    if j >= len(tokens):
        return None
    word = tokens[j].group(0).lower()
    if word in v.verb_irregular or (word.endswith("s") and not word.endswith("ss") and len(word) > 3 and "'" not in word):
        return j
    return None


def _base_form(word: str, v: _Voice) -> str:
    low = word.lower()
    if low in v.verb_irregular:
        return v.verb_irregular[low]
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + "y"
    if low.endswith(("ches", "shes", "xes", "sses", "oes")):
        return word[:-2]
    return word[:-1]
