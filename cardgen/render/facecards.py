"""Turn a game's faces and its cards together into findings: a faces.yaml `where` no card matches,
and pictures in the art field that no template draws."""

from __future__ import annotations

from ..core.errors import Finding, Severity
from ..load.card import Card
from ..model.game import GameModel, Role, matches
from .elements import CARD_FIELD
from .faces import FaceSet, _value_problem


def undrawn_art(faces: FaceSet, cards: list[Card], model: GameModel) -> list[Finding]:
    """A warning at the art field (role: art) when cards give pictures and no template's image
    names the field: the pictures are not printed, nor checked for resolution or crop."""
    name = model.role_field(Role.ART)
    if name is None or not any(card.data.get(name) for card in cards):
        return []
    for template in faces.templates.values():
        for e in template.elements:
            src = e.props.get("src")
            raw = str(src.raw) if e.type == "image" and src is not None else ""
            if name in CARD_FIELD.findall(raw) or any(
                f"card[{q}{name}{q}]" in raw.replace(" ", "") for q in "'\""
            ):
                return []
    spec = model.fields[name]
    return [
        Finding(
            model.file,
            spec.loc[0],
            spec.loc[1],
            Severity.WARNING,
            "art-not-drawn",
            None,
            f"cards give pictures in '{name}' (role: art), but no template draws it: they are "
            "not printed, nor checked for resolution",
            f'add an image element to the front: {{id: art, type: image, src: "{{{{ card.{name} '
            '}}", x: …, y: …, w: …, h: …, fit: cover, when: "card.' + name + '"}}',
            about=f"fields.{name}",
        )
    ]


def unmatched_where(faces: FaceSet, cards: list[Card], model: GameModel) -> list[Finding]:
    """A `where` value its field can take but no card has: the rule selects nothing (a warning; a
    value the field cannot take is an error when faces.yaml is read)."""
    out = []
    for rule in faces.rules:
        for key, want in rule.where.items():
            field_name = str(key)[4:] if str(key).startswith("not ") else str(key)
            if field_name not in model.fields:
                continue
            wanted = want if isinstance(want, list) else [want]
            if any(_value_problem(model, field_name, v)[0] for v in wanted):
                continue  # an error already
            if any(matches({field_name: want}, c.data) for c in cards):
                continue
            line, column = rule.where_at.get(str(key), rule.at)
            out.append(
                Finding(
                    faces.manifest,
                    line,
                    column,
                    Severity.WARNING,
                    "faces-where-unmatched",
                    None,
                    f"'where' selects {field_name} {want!r}, which no card has",
                    "check the value against the cards, or remove the rule",
                    about=faces.manifest,
                )
            )
    return out
