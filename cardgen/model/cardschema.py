"""Turn a game model into a JSON Schema for its card files, so YAML editors flag mistakes while
typing.

The schema says what the validator says at error level: known fields only (and a translated field's
values per language, `name@de`), their types and ranges, the vocabulary values (any case, aliases
included: those are warnings, not errors), placeholders allowed anywhere, required fields unless the
card is marked as a draft. Checks the schema cannot
express (costs, numbering, kind rules, text fitting) stay with `cardgen validate`.
"""

from __future__ import annotations

from typing import Any

from .game import FieldSpec, GameModel

DRAFT_NOTE = "cards marked as drafts may leave required fields out"


def _any_case(word: str) -> str:
    return "".join(
        f"[{c.upper()}{c.lower()}]" if c.upper() != c.lower() else _escape(c) for c in word
    )


def _escape(ch: str) -> str:
    return "\\" + ch if ch in r"\^$.|?*+()[]{}/-" else ch


def _words(model: GameModel, spec: FieldSpec) -> dict[str, Any]:
    vocab = model.vocabularies.get(spec.vocab or "")
    if vocab is None or vocab.open:
        return {"type": "string"}
    words = [t.name for t in vocab.terms] + [a for t in vocab.terms for a in t.aliases]
    return {
        "type": "string",
        "pattern": "^(?:" + "|".join(_any_case(w) for w in words) + ")$",
        "examples": [t.name for t in vocab.terms],
    }


def field_schema(model: GameModel, spec: FieldSpec) -> dict[str, Any]:
    if spec.type in ("text", "number", "image"):
        out: dict[str, Any] = {"type": "string"}
    elif spec.type in ("integer", "int-or-x"):
        out = {"type": "integer"}
        low, high = spec.minimum, spec.maximum
        if low is not None and high is not None and low > high:
            low = high = None  # reversed bounds are the model's error (model-bounds-reversed)
        if low is not None:
            out["minimum"] = low
        if high is not None:
            out["maximum"] = high
        if spec.type == "int-or-x":
            out = {"anyOf": [out, {"type": "string", "pattern": "^\\s*[Xx]\\s*$"}]}
    elif spec.type == "enum":
        out = _words(model, spec)
    elif spec.type == "list":
        item = _words(model, spec)
        if model.placeholders:
            item = {"anyOf": [item, {"enum": list(model.placeholders)}]}
        out = {"anyOf": [item, {"type": "array", "items": item}]}
    elif spec.type == "cost":
        out = {"type": ["string", "integer"] if model.cost.generic else "string"}
    else:
        out = {}
    if spec.label:
        out["title"] = spec.label
    choices = [out, {"type": "null"}]  # 'field:' with nothing after it is the field left out
    if model.placeholders:  # "not written yet" is a warning, never an error
        choices.append({"enum": list(model.placeholders)})
    return {"anyOf": choices}


def card_schema(model: GameModel, url: str = "") -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) for one card file: a list of cards."""
    properties: dict[str, Any] = {
        "id": {"type": "string", "pattern": '^[^/\\\\<>:"|?*\\x00-\\x1f]+$'}
    }
    properties.update({name: field_schema(model, spec) for name, spec in model.fields.items()})
    if model.editions is not None:  # a translated field's values per language: name@de
        properties.update(
            {
                f"{name}@{lang}": field_schema(model, model.fields[name])
                for name in model.editions.translate
                if name in model.fields
                for lang in model.editions.others()
            }
        )
    required = [name for name, spec in model.fields.items() if spec.required]
    card: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        if model.draft_field and model.draft_field in model.fields:
            card["if"] = {
                "properties": {model.draft_field: {"enum": list(model.draft_values)}},
                "required": [model.draft_field],
            }
            card["else"] = {"required": required}
            card["$comment"] = DRAFT_NOTE
        else:
            card["required"] = required
    out: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{model.name} card file",
        "type": "array",
        "items": card,
    }
    if url:
        out["$id"] = url
    return out
