"""The five doctor actions and the parser of the text protocol (../shared/DESIGN.md).

One action per turn, written as a tag or as a JSON object::

    <ask>How have you been sleeping?</ask>
    <order_exams>PHQ-9; TSH</order_exams>
    <write_note>...</write_note>
    <diagnose>categories: depressive, anxiety | disorders: 1. F32.1; 2. F41.1</diagnose>
    <treat>...</treat>
    {"action": "order_exams", "exams": ["PHQ-9", "TSH"]}

:func:`parse_action` is tolerant of what language models emit (prose around the tag, code fences,
``<think>`` blocks, a missing closing tag, odd case and spacing in tag names, exam names by their
common aliases, disorders by name or ICD-10-CM code, categories by id or name) and strict about
meaning: an empty, ambiguous, unknown or out-of-stage action comes back as an :class:`ActionError`
whose message says what is wrong and what is allowed now. It never raises on any input.
"""

from __future__ import annotations

import json
from mentalhospital_env.knowledge import rx as re  # re with its compiled patterns kept (the data hold more than re caches)
from bisect import bisect_left
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from .stages import ACTION_NAMES, ACTION_STAGE, ALL_STAGES, allowed_actions, describe_allowed

# ------------------------------------------------------------------------------------------ actions


@dataclass(frozen=True)
class Ask:
    """Say one thing to the patient (a question or a remark)."""

    utterance: str
    name: ClassVar[str] = "ask"

    def to_text(self) -> str:
        return f"<ask>{self.utterance}</ask>"

    def to_dict(self) -> dict[str, Any]:
        return {"action": "ask", "utterance": self.utterance}


@dataclass(frozen=True)
class OrderExams:
    """Order exams by name; names are canonical catalog names where the knowledge base knows them."""

    exams: tuple[str, ...]
    name: ClassVar[str] = "order_exams"

    def to_text(self) -> str:
        return f"<order_exams>{'; '.join(self.exams)}</order_exams>"

    def to_dict(self) -> dict[str, Any]:
        return {"action": "order_exams", "exams": list(self.exams)}


@dataclass(frozen=True)
class WriteNote:
    """Write the clinical note."""

    note: str
    name: ClassVar[str] = "write_note"

    def to_text(self) -> str:
        return f"<write_note>{self.note}</write_note>"

    def to_dict(self) -> dict[str, Any]:
        return {"action": "write_note", "note": self.note}


@dataclass(frozen=True)
class Diagnose:
    """Name the diagnostic categories (ids) and rank the disorders (ICD-10-CM codes, best first)."""

    categories: tuple[str, ...]
    disorders: tuple[str, ...]
    name: ClassVar[str] = "diagnose"

    def to_text(self) -> str:
        ranked = "; ".join(f"{i}. {code}" for i, code in enumerate(self.disorders, 1))
        return f"<diagnose>categories: {', '.join(self.categories)} | disorders: {ranked}</diagnose>"

    def to_dict(self) -> dict[str, Any]:
        return {"action": "diagnose", "categories": list(self.categories), "disorders": list(self.disorders)}


@dataclass(frozen=True)
class Treat:
    """Propose the treatment plan; this ends the encounter."""

    plan: str
    name: ClassVar[str] = "treat"

    def to_text(self) -> str:
        return f"<treat>{self.plan}</treat>"

    def to_dict(self) -> dict[str, Any]:
        return {"action": "treat", "plan": self.plan}


Action = Ask | OrderExams | WriteNote | Diagnose | Treat
ACTION_TYPES: dict[str, type] = {
    "ask": Ask,
    "order_exams": OrderExams,
    "write_note": WriteNote,
    "diagnose": Diagnose,
    "treat": Treat,
}


@dataclass(frozen=True)
class ActionError:
    """Why a doctor's action was not accepted.

    ``problem`` is a short kind (``no_action``, ``empty``, ``ambiguous``, ``out_of_stage``,
    ``unknown_exam``, ``unknown_disorder``, ``unknown_category``, ``bad_field``, ``bad_type``,
    ``too_long``, ``ended``); ``message`` says what is wrong and what is allowed at ``stage``; ``allowed`` names
    the actions allowed there.
    """

    problem: str
    message: str
    stage: str
    allowed: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.message


def action_from_dict(raw: Mapping[str, Any]) -> Action:
    """Rebuild an action from its canonical ``to_dict()`` form (records read back from JSON).

    Unlike :func:`parse_action` this resolves nothing and checks no stage: it is the inverse of
    ``to_dict`` only. ``ValueError`` when the mapping is not one.
    """
    kind = raw.get("action")
    if kind == "ask":
        return Ask(str(raw["utterance"]))
    if kind == "order_exams":
        return OrderExams(tuple(str(x) for x in raw["exams"]))
    if kind == "write_note":
        return WriteNote(str(raw["note"]))
    if kind == "diagnose":
        return Diagnose(tuple(str(x) for x in raw["categories"]), tuple(str(x) for x in raw["disorders"]))
    if kind == "treat":
        return Treat(str(raw["plan"]))
    raise ValueError(f"not an action mapping: {dict(raw)!r}")


# ----------------------------------------------------------------------------------- vocabulary


class NameAmbiguity(ValueError):
    """A name matches several catalog entries; the message lists them."""


@dataclass(frozen=True)
class Vocabulary:
    """How the parser turns names into canonical values.

    ``exam`` maps an exam name or alias to its canonical catalog name (``None`` when the catalog
    does not know it: the parser then keeps the name as written, since a case may list exams the
    catalog lacks); ``disorder`` maps a disorder name or code to its ICD-10-CM code (``None`` when
    unknown); ``categories`` maps lower-case category ids and names to ids. A resolver raises
    :class:`NameAmbiguity` when a name matches several entries.
    """

    exam: Callable[[str], str | None]
    disorder: Callable[[str], str | None]
    categories: Mapping[str, str]

    def category(self, text: str) -> str | None:
        key = _norm_label(text)
        if key in self.categories:
            return self.categories[key]
        for suffix in (" disorders", " disorder", " and related disorders", " and related"):
            if key.endswith(suffix) and key[: -len(suffix)] in self.categories:
                return self.categories[key[: -len(suffix)]]
        return None


def _norm_label(text: str) -> str:
    """Lower case, ``_`` and ``-`` as spaces, single spaces: ``Obsessive-Compulsive`` -> ``obsessive compulsive``."""
    return " ".join(re.sub(r"[_\-]+", " ", text.lower()).split())


def category_aliases(categories: Any) -> dict[str, str]:
    """Lower-case aliases (id, name, name without "disorders") of each category, for :class:`Vocabulary`."""
    out: dict[str, str] = {}
    for c in categories:
        for label in (c.id, c.name):
            key = _norm_label(label)
            out[key] = c.id
            for suffix in (
                " and related disorders",
                " and other psychotic disorders",
                " and addictive disorders",
                " disorders",
            ):
                if key.endswith(suffix):
                    out.setdefault(key[: -len(suffix)], c.id)
    return out


@lru_cache(maxsize=1)
def default_vocabulary() -> Vocabulary:
    """The vocabulary of the bundled knowledge base (exam catalog, disorders, categories).

    The knowledge base's resolvers return an entry or ``None`` and never call a name ambiguous; a
    knowledge base that fails to load raises its own error here (a broken installation, not bad input).
    """
    from mentalhospital_env.knowledge import load_knowledge
    from mentalhospital_env.knowledge.language import memo_size

    kb = load_knowledge()

    @lru_cache(maxsize=memo_size(8192))
    def exam(name: str) -> str | None:
        return _resolved_name(kb.resolve_exam, name)

    @lru_cache(maxsize=memo_size(8192))
    def disorder(name: str) -> str | None:
        return _resolved_code(kb.resolve_disorder, name)

    return Vocabulary(exam, disorder, category_aliases(kb.categories))


def _resolved_name(resolve: Callable[[str], Any], name: str) -> str | None:
    found = resolve(name)
    if found is None:
        return None
    return found if isinstance(found, str) else str(found.name)


def _resolved_code(resolve: Callable[[str], Any], name: str) -> str | None:
    found = resolve(name)
    if found is None:
        return None
    return found if isinstance(found, str) else str(found.code)


# --------------------------------------------------------------------------------------- parsing

#: Tag names (lower case, spaces, hyphens and underscores removed) that mean each action.
_TAG_ALIASES: dict[str, str] = {
    "ask": "ask",
    "question": "ask",
    "say": "ask",
    "orderexams": "order_exams",
    "orderexam": "order_exams",
    "exams": "order_exams",
    "order": "order_exams",
    "writenote": "write_note",
    "note": "write_note",
    "diagnose": "diagnose",
    "diagnosis": "diagnose",
    "treat": "treat",
    "treatment": "treat",
    "plan": "treat",
}
_JSON_KIND_KEYS = ("action", "type", "tool", "name", "function")
_JSON_ARG_KEYS = ("arguments", "args", "parameters", "input")
_FIELDS: dict[str, tuple[str, ...]] = {
    "ask": ("utterance", "text", "question", "content", "message"),
    "order_exams": ("exams", "exam", "names", "tests", "text", "content"),
    "write_note": ("note", "text", "content"),
    "diagnose": (
        "categories",
        "category",
        "disorders",
        "diagnoses",
        "ranking",
        "differential",
        "text",
        "content",
    ),
    "treat": ("plan", "treatment", "text", "content"),
}

_OPEN_TAG = re.compile(r"<\s*([A-Za-z][A-Za-z _\-]{0,30}?)\s*>")
_THINK = re.compile(r"<\s*(think|thinking|reasoning)\s*>.*?(<\s*/\s*\1\s*>|$)", re.IGNORECASE | re.DOTALL)
_FENCE = re.compile(r"```[A-Za-z0-9_-]*")
_CODE = re.compile(
    r"(?<![A-Za-z0-9.])([A-TV-Za-tv-z][0-9][0-9A-Za-z](?:\.?[0-9A-Za-z]{1,4})?)(?![A-Za-z0-9])"
)
_NUMBERING = re.compile(
    r"^\s*(?:[-*\u2022]+|\(?\d{1,3}\s*[.):]|#\d{1,3}\.?|[a-z][.)](?=\s))\s*", re.IGNORECASE
)
_LABEL = re.compile(
    r"(?:^|[|\n;]|(?<=\s))\s*(categories|category|disorders|disorder|diagnoses|ranking|differential)\s*[:=]",
    re.IGNORECASE,
)


def _tag_action(raw_name: str) -> str | None:
    return _TAG_ALIASES.get(re.sub(r"[\s_\-]+", "", raw_name.lower()))


def _closing(name: str) -> re.Pattern[str]:
    aliases = [a for a, n in _TAG_ALIASES.items() if n == name]
    # a closing tag of any alias of the same action, with any spacing, underscores or hyphens
    alt = "|".join(r"[\s_\-]*".join(map(re.escape, a)) for a in sorted(aliases, key=len, reverse=True))
    return re.compile(r"<\s*/\s*(?:" + alt + r")\s*>", re.IGNORECASE)


_CLOSING: dict[str, re.Pattern[str]] = {n: _closing(n) for n in ACTION_NAMES}


def _find_tagged(text: str) -> list[tuple[str, str]]:
    """``(action name, body)`` for each action tag in the text; tags inside a body belong to the body.

    Every tag is found in one pass over the text, so even a long run of unclosed tags costs linear time.
    """
    opens = [(m.start(), m.end(), _tag_action(m.group(1))) for m in _OPEN_TAG.finditer(text)]
    action_opens = [o for o in opens if o[2] is not None]
    if not action_opens:
        return []
    closes: dict[str, list[tuple[int, int]]] = {}
    fences = [m.start() for m in re.finditer("```", text)]
    found: list[tuple[str, str]] = []
    pos = 0
    for k, (start, end, name) in enumerate(action_opens):
        if start < pos or name is None:
            continue  # inside the body of an earlier action
        if name not in closes:
            closes[name] = [(m.start(), m.end()) for m in _CLOSING[name].finditer(text)]
        spots = closes[name]
        i = bisect_left(spots, (end, -1))
        if i < len(spots):
            body, pos = text[end : spots[i][0]], spots[i][1]
        else:  # missing closing tag: the body runs to the next action tag, code fence or the end
            stop = action_opens[k + 1][0] if k + 1 < len(action_opens) else len(text)
            f = bisect_left(fences, end)
            if f < len(fences) and fences[f] < stop:  # a fence closes the block the tag was written in
                stop = fences[f]
            body, pos = text[end:stop], stop
        found.append((name, body))
    return found


def _strip_fences(text: str) -> str:
    return _FENCE.sub("", text)


#: A ``{`` that can open a JSON object: an object's first token after the brace is a key or its end.
_OBJECT_START = re.compile(r"\{\s*[\"}]")
#: Candidate objects tried per action; each try reads at most the rest of the text, so parsing an
#: action costs linear time in its length whatever it holds.
MAX_JSON_TRIES = 16


def _json_object(text: str) -> Any:
    """The first JSON object in the text (fences and prose around it allowed), or ``None``.

    Only a ``{`` followed by a key or ``}`` is tried, and at most :data:`MAX_JSON_TRIES` of them: a run
    of braces is skipped in one regular-expression pass instead of a decode attempt per brace (each
    failed attempt counts lines from the start of the text, which made the old loop quadratic).
    """
    decoder = json.JSONDecoder()
    for tries, match in enumerate(_OBJECT_START.finditer(text)):
        if tries >= MAX_JSON_TRIES:
            return None
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except (json.JSONDecodeError, RecursionError, ValueError):
            continue
        return value
    return None


def _error(problem: str, what: str, stage: str) -> ActionError:
    return ActionError(problem, f"{what} {describe_allowed(stage)}", stage, allowed_actions(stage))


#: The longest action accepted, in characters (a mapping counts its strings plus one per item). A longer
#: action is refused at once as an invalid action (``too_long``) before any parsing: a doctor's turn is a
#: question, an exam order, a note, a diagnosis or a plan, which fit in a small fraction of this even
#: with a model's reasoning around them.
MAX_ACTION_TEXT = 65_536
#: The deepest nesting of lists and objects accepted in a mapping action (an action needs three levels).
MAX_ACTION_DEPTH = 32


class _Unreadable(Exception):
    """An action that cannot be read as plain data: ``problem`` and ``message`` of its ActionError."""

    def __init__(self, problem: str, message: str):
        super().__init__(problem, message)
        self.problem, self.message = problem, message


def readable_action(source: Any) -> Any:
    """The action as plain data, read once: text as it is, an :class:`Action` as it is, bytes decoded,
    and a mapping copied into plain ``dict``/``list``/scalars (so a mapping whose methods raise, or one
    nested deeper than :data:`MAX_ACTION_DEPTH`, or bigger than :data:`MAX_ACTION_TEXT`, is found out
    here, before anything is applied). Anything unreadable comes back as an :class:`ActionError`
    whose stage is empty (the caller fills it in); never raises.
    """
    try:
        return _readable(source)
    except _Unreadable as e:
        return ActionError(e.problem, e.message, "", ())
    except RecursionError:
        return ActionError("bad_type", "The action is nested too deeply to read.", "", ())
    except Exception as e:  # noqa: BLE001  (a hostile mapping: its own methods raise)
        return ActionError("bad_type", f"The action could not be read: {type(e).__name__}: {_safe_text(e)}.", "", ())


def _safe_text(e: BaseException) -> str:
    try:
        return str(e)[:200]
    except Exception:  # noqa: BLE001
        return "(no message)"


def _too_long(size: int) -> _Unreadable:
    return _Unreadable(
        "too_long", f"The action is longer than {MAX_ACTION_TEXT} characters ({size} or more); write one short action."
    )


def _readable(source: Any) -> Any:
    if isinstance(source, (Ask, OrderExams, WriteNote, Diagnose, Treat, ActionError)):
        return source
    if isinstance(source, (bytes, bytearray)):
        if len(source) > 4 * MAX_ACTION_TEXT:
            raise _too_long(len(source) // 4)
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError:
            raise _Unreadable("bad_type", "The action is bytes that are not UTF-8 text.") from None
    if isinstance(source, str):
        if len(source) > MAX_ACTION_TEXT:
            raise _too_long(len(source))
        return str(source)
    if isinstance(source, Mapping):
        budget = [MAX_ACTION_TEXT]
        return _plain(source, 0, budget)
    return source  # any other type: the parser refuses it by type


_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any, depth: int, budget: list[int]) -> Any:
    """A plain copy of a mapping/list tree, within the depth and size limits (iteration happens once)."""
    if isinstance(value, str):
        budget[0] -= len(value) + 1
        if budget[0] < 0:
            raise _too_long(MAX_ACTION_TEXT - budget[0])
        return str(value)
    if isinstance(value, _SCALARS):
        budget[0] -= 1
        return value
    if isinstance(value, (Mapping, list, tuple)):
        if depth >= MAX_ACTION_DEPTH:
            raise _Unreadable("bad_type", f"The action is nested more than {MAX_ACTION_DEPTH} levels deep.")
        budget[0] -= 1
        if isinstance(value, Mapping):
            out: dict[Any, Any] = {}
            for key, item in list(value.items()):
                if not isinstance(key, _SCALARS):
                    raise _Unreadable("bad_type", f"The action's object has a key of type {type(key).__name__}; keys are text.")
                out[_plain(key, depth + 1, budget)] = _plain(item, depth + 1, budget)
            return out
        return [_plain(item, depth + 1, budget) for item in value]
    budget[0] -= 1
    if budget[0] < 0:
        raise _too_long(MAX_ACTION_TEXT - budget[0])
    return value  # another type inside a mapping: the field checks name it by type


def parse_action(source: Any, stage: str, vocabulary: Vocabulary | None = None) -> Action | ActionError:
    """Parse one doctor action (protocol text or a mapping) for an encounter at ``stage``.

    Never raises for any ``source``: anything that is not exactly one well-formed action allowed at
    ``stage`` comes back as an :class:`ActionError` saying what is wrong and what is allowed now.
    ``vocabulary`` defaults to the bundled knowledge base. An action longer than
    :data:`MAX_ACTION_TEXT` characters, or a mapping nested deeper than :data:`MAX_ACTION_DEPTH`, is
    refused before it is parsed; parsing is linear in the action's length.
    """
    if stage not in ALL_STAGES:
        raise ValueError(f"unknown stage {stage!r}; stages are {', '.join(ALL_STAGES)}")
    if not allowed_actions(stage):
        return ActionError(
            "ended",
            "The encounter has ended; no further action is accepted (reset to start a new one).",
            stage,
            (),
        )
    source = readable_action(source)
    if isinstance(source, ActionError):
        return _error(source.problem, source.message, stage)
    try:
        return _parse(source, stage, vocabulary)
    except RecursionError:
        return _error("bad_type", "The action is nested too deeply to read.", stage)


def _parse(source: Any, stage: str, vocabulary: Vocabulary | None) -> Action | ActionError:
    if isinstance(source, (Ask, OrderExams, WriteNote, Diagnose, Treat)):
        return _in_stage(source.name, stage) or source
    if isinstance(source, Mapping):
        return _from_mapping(source, stage, vocabulary)
    if isinstance(source, (bytes, bytearray)):
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError:
            return _error("bad_type", "The action is bytes that are not UTF-8 text.", stage)
    if not isinstance(source, str):
        return _error(
            "bad_type",
            f"The action must be text in the protocol or a JSON object, got {type(source).__name__}.",
            stage,
        )
    text = _THINK.sub(" ", source.replace("\x00", ""))
    tagged = _find_tagged(text)
    if not tagged:
        obj = _json_object(_strip_fences(text))
        if isinstance(obj, Mapping):
            return _from_mapping(obj, stage, vocabulary)
        if not text.strip():
            return _error("empty", "The action is empty: write one action per turn.", stage)
        return _error(
            "no_action",
            'No action found: write exactly one action tag (or a JSON object with an "action" field).',
            stage,
        )
    distinct = list(dict.fromkeys((n, b.strip()) for n, b in tagged))
    if len(distinct) > 1:
        names = ", ".join(n for n, _ in distinct)
        return _error(
            "ambiguous", f"Found {len(distinct)} actions ({names}); write exactly one action per turn.", stage
        )
    name, body = distinct[0]
    return _in_stage(name, stage) or _build(name, _strip_fences(body).strip(), stage, vocabulary)


def _in_stage(name: str, stage: str) -> ActionError | None:
    if name in allowed_actions(stage):
        return None
    belongs = ACTION_STAGE[name]
    return _error(
        "out_of_stage",
        f"'{name}' belongs to the {belongs} stage, which is over: the encounter is at the {stage} stage and stages are never revisited.",
        stage,
    )


def _from_mapping(raw: Mapping[str, Any], stage: str, vocabulary: Vocabulary | None) -> Action | ActionError:
    name: str | None = None
    payload: Any = None
    for key in _JSON_KIND_KEYS:
        value = raw.get(key)
        if isinstance(value, str) and _tag_action(value) is not None:
            name = _tag_action(value)
            payload = dict(raw)
            for arg_key in _JSON_ARG_KEYS:
                args = raw.get(arg_key)
                if isinstance(args, str) and args.strip().startswith("{"):
                    args = _json_object(args)
                if isinstance(args, Mapping):
                    payload = {**payload, **args}
            break
    declared = raw.get("action", raw.get("type"))
    if name is None and isinstance(declared, str):
        return _error(
            "no_action", f"Unknown action {declared!r}; actions are {', '.join(ACTION_NAMES)}.", stage
        )
    if (
        name is None
        and not any(isinstance(k, str) and _tag_action(k) for k in raw)
        and ("categories" in raw or "disorders" in raw)
    ):
        name, payload = "diagnose", raw
    if name is None:
        keyed = [(k, v) for k, v in raw.items() if isinstance(k, str) and _tag_action(k) is not None]
        names = list(dict.fromkeys(_tag_action(k) for k, _ in keyed))
        if len(names) > 1:
            return _error(
                "ambiguous",
                f"The object names {len(names)} actions ({', '.join(n for n in names if n)}); send exactly one.",
                stage,
            )
        if not names:
            keys = ", ".join(repr(k) for k in list(raw)[:8]) or "none"
            return _error(
                "no_action",
                f'The object names no action (keys: {keys}); give "action" as one of {", ".join(ACTION_NAMES)}.',
                stage,
            )
        name = names[0]
        assert name is not None
        value = keyed[0][1]
        payload = value if isinstance(value, Mapping) else {_FIELDS[name][0]: value}
    problem = _in_stage(name, stage)
    if problem is not None:
        return problem
    return _build_from_fields(name, payload, stage, vocabulary)


def _field(payload: Mapping[str, Any], name: str) -> tuple[str | None, Any]:
    for key in _FIELDS[name]:
        if key in payload and payload[key] is not None:
            return key, payload[key]
    return None, None


def _build_from_fields(
    name: str, payload: Mapping[str, Any], stage: str, vocabulary: Vocabulary | None
) -> Action | ActionError:
    if name == "diagnose":
        cats = next((payload[k] for k in ("categories", "category") if payload.get(k) is not None), None)
        dis = next(
            (
                payload[k]
                for k in ("disorders", "diagnoses", "ranking", "differential")
                if payload.get(k) is not None
            ),
            None,
        )
        if cats is None and dis is None:
            text = next((payload[k] for k in ("text", "content") if isinstance(payload.get(k), str)), None)
            if text is not None:
                return _build(name, text.strip(), stage, vocabulary)
        return _diagnose(_items(cats, "categories"), _items(dis, "disorders"), stage, vocabulary)
    key, value = _field(payload, name)
    if key is None:
        fields = ", ".join(f'"{k}"' for k in _FIELDS[name][:3])
        return _error("bad_field", f"'{name}' needs its content in one of the fields {fields}.", stage)
    if name == "order_exams":
        items = _items(value, key)
        if isinstance(items, ActionError):
            return _error(items.problem, items.message, stage)
        return _order_exams(items, stage, vocabulary)
    if not isinstance(value, str):
        return _error(
            "bad_type", f"'{name}' field \"{key}\" must be text, got {type(value).__name__}.", stage
        )
    return _build(name, value.strip(), stage, vocabulary)


def _items(value: Any, key: str) -> list[str] | ActionError | None:
    """A JSON field that may be a list of strings (or of ``{"code"|"name"|"id": ...}``) or one string."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        out = []
        for i, item in enumerate(value):
            if isinstance(item, Mapping):
                item = next((item[k] for k in ("code", "name", "id") if isinstance(item.get(k), str)), None)
            if not isinstance(item, str):
                return ActionError(
                    "bad_type", f'Field "{key}" item {i} must be text, got {type(item).__name__}.', "", ()
                )
            out.append(item)
        return out
    return ActionError(
        "bad_type", f'Field "{key}" must be text or a list of text, got {type(value).__name__}.', "", ()
    )


def _build(name: str, body: str, stage: str, vocabulary: Vocabulary | None) -> Action | ActionError:
    if name in ("ask", "write_note", "treat"):
        if not body:
            return _error("empty", f"'{name}' is empty: {_empty_hint(name)}", stage)
        if name == "ask":
            return Ask(body)
        return WriteNote(body) if name == "write_note" else Treat(body)
    if name == "order_exams":
        return _order_exams([body], stage, vocabulary)
    return _diagnose_text(body, stage, vocabulary)


def _empty_hint(name: str) -> str:
    return {
        "ask": "say something to the patient.",
        "write_note": "write the note inside the tag.",
        "treat": "write the plan inside the tag.",
    }[name]


def _split_list(text: str) -> list[str]:
    """Items of a written list: split on ``;`` and new lines, numbering and bullets removed."""
    out = []
    for part in re.split(r"[;\n]+", text):
        part = _NUMBERING.sub("", part).strip().strip(",").strip()
        if part:
            out.append(part)
    return out


def _order_exams(items: list[str], stage: str, vocabulary: Vocabulary | None) -> Action | ActionError:
    vocab = vocabulary or default_vocabulary()
    names: list[str] = []
    for chunk in items:
        for item in _split_list(chunk):
            try:
                resolved = vocab.exam(item)
                if resolved is None and "," in item:
                    parts = [" ".join(p.split()) for p in item.split(",") if p.strip()]
                    resolved_parts = [vocab.exam(p) or p for p in parts]
                    names.extend(resolved_parts)
                    continue
            except NameAmbiguity as e:
                return _error("ambiguous", f"Exam name {item!r} is ambiguous: {e}.", stage)
            names.append(resolved or " ".join(item.split()))
    names = list(dict.fromkeys(n for n in names if n))
    if not names:
        return _error("empty", "'order_exams' names no exam: list exam names separated by ';'.", stage)
    return OrderExams(tuple(names))


def _diagnose_text(body: str, stage: str, vocabulary: Vocabulary | None) -> Action | ActionError:
    sections: dict[str, str] = {}
    marks = list(_LABEL.finditer(body))
    if not marks:
        return _error(
            "bad_field",
            "'diagnose' needs both parts, labelled: 'categories: <ids> | disorders: 1. <code or name>; 2. ...'.",
            stage,
        )
    for i, m in enumerate(marks):
        label = m.group(1).lower()
        key = "categories" if label.startswith("categor") else "disorders"
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        part = body[m.end() : end].strip().strip("|").strip()
        if key in sections:
            return _error("ambiguous", f"'diagnose' gives the {key} twice; give each part once.", stage)
        sections[key] = part
    cats = sections.get("categories")
    dis = sections.get("disorders")
    return _diagnose(
        re.split(r"[,;\n/]+", cats) if cats is not None else None,
        _split_list(dis) if dis is not None else None,
        stage,
        vocabulary,
    )


def _diagnose(cats: Any, dis: Any, stage: str, vocabulary: Vocabulary | None) -> Action | ActionError:
    if isinstance(cats, ActionError):
        return _error(cats.problem, cats.message, stage)
    if isinstance(dis, ActionError):
        return _error(dis.problem, dis.message, stage)
    vocab = vocabulary or default_vocabulary()
    categories: list[str] = []
    for raw in cats or ():
        for item in raw.split(",") if isinstance(raw, str) else [raw]:
            item = _NUMBERING.sub("", item).strip().strip(".")
            if not item:
                continue
            cid = vocab.category(item)
            if cid is None:
                return _error(
                    "unknown_category",
                    f"Unknown diagnostic category {item!r}: name each category by the id or the name of one of "
                    "the 15 diagnostic categories of the case format.",
                    stage,
                )
            categories.append(cid)
    codes: list[str] = []
    for raw in dis or ():
        for item in _split_list(raw) if isinstance(raw, str) else []:
            found = _disorder_codes(item, vocab)
            if isinstance(found, str):
                return _error(*_disorder_problem(found, item), stage)
            codes.extend(found)
    categories = list(dict.fromkeys(categories))
    codes = list(dict.fromkeys(codes))
    if not categories or not codes:
        missing = " and ".join(p for p, v in (("categories", categories), ("disorders", codes)) if not v)
        return _error(
            "empty",
            f"'diagnose' has no {missing}: give 'categories: <ids> | disorders: 1. <code or name>; 2. ...'.",
            stage,
        )
    return Diagnose(tuple(categories), tuple(codes))


def _disorder_problem(kind: str, item: str) -> tuple[str, str]:
    if kind.startswith("ambiguous:"):
        return (
            "ambiguous",
            f"Disorder {item!r} is ambiguous: {kind.split(':', 1)[1].strip()}; give its ICD-10-CM code.",
        )
    return (
        "unknown_disorder",
        f"Unknown disorder {item!r}: give an ICD-10-CM code (such as F32.1) or a disorder name the knowledge base knows.",
    )


def _disorder_codes(item: str, vocab: Vocabulary) -> list[str] | str:
    """The ICD-10-CM code(s) an item of a ranking names, or a problem kind (``unknown``, ``ambiguous: ...``)."""
    from mentalhospital_env.knowledge.codes import normalize_code

    codes = [normalize_code(c) for c in _CODE.findall(item)]
    if len(codes) > 1:
        parts = [p for p in re.split(r"[,/]", item) if p.strip()]
        if len(parts) == len(codes) and all(len(_CODE.findall(p)) == 1 for p in parts):
            return codes  # "F32.1, F41.1": a ranking written on one line
    lead = _CODE.match(item.strip())
    if lead is not None:
        return [normalize_code(lead.group(1))]
    candidates = [item, re.sub(r"\([^)]*\)", " ", item), re.split(r"\s[-\u2013\u2014:]\s|:", item)[0]]
    for cand in candidates:
        cand = " ".join(cand.split()).strip(" .,")
        if not cand:
            continue
        try:
            code = vocab.disorder(cand)
        except NameAmbiguity as e:
            return f"ambiguous: {e}"
        if code is not None:
            return [normalize_code(code)]
    if len(codes) == 1:
        return codes
    if len(codes) > 1:
        return "ambiguous: it holds several codes"
    return "unknown"
