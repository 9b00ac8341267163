"""Turn game.yaml's token components (shape, size, face and back templates, counts) into tokens
ready to lay out: each with its faces drawn by the card templates' machinery from the token's own
values, and every finding about them at its line."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

from ..core.errors import Finding, Severity
from ..core.paths import workspace_file
from ..core.units import PT_PER_UNIT
from ..load.card import Card
from ..model.collation import players_for
from ..model.game import Component, FieldSpec, GameModel
from ..project.studio import Studio
from ..render.face import FaceRenderer
from ..render.prepared import PreparedFace
from ..render.template import Template, load_template

MM = PT_PER_UNIT["mm"]
DEFAULT_SIZE = 25 * MM
TOKEN_BLEED = 1.5 * MM  # a token's art reaches this far past its cut line
TOKEN_KEYS = ("name", "count", "per_player", "shape", "copies")  # what every token's faces see


@dataclass
class Token:
    """One kind of token: how many, its shape and size (points: the box it fills; a hex across its
    flats is its height), its faces (None: a plain face with its name) and whether it folds."""

    component: Component
    copies: int
    shape: str
    size: tuple[float, float]
    front: PreparedFace | None = None
    back: PreparedFace | None = None
    fold: bool = False
    card: Card | None = None

    @property
    def name(self) -> str:
        return self.component.name

    @property
    def cell(self) -> tuple[float, float]:
        """The rectangle the token's shape fills: a hex is wider than its flats."""
        w, h = self.size
        return (h * 2 / math.sqrt(3), h) if self.shape == "hex" else (w, h)

    def outline(self, x: float, y: float) -> list[tuple[float, float]]:
        """The cut line (points, from the cell's bottom-left corner at x, y): a hexagon's corners,
        a rectangle's; a circle is drawn as one."""
        w, h = self.cell
        if self.shape == "hex":  # flat top and bottom
            r = w / 2
            return [
                (x + r + r * math.cos(math.radians(a)), y + h / 2 + r * math.sin(math.radians(a)))
                for a in range(0, 360, 60)
            ]
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


@dataclass
class TokenSet:
    tokens: list[Token] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    renderer: FaceRenderer | None = None
    model: GameModel | None = None


def token_model(model: GameModel) -> GameModel:
    """The model token faces are drawn with: the game's fields (so `attr()` reads their
    vocabularies), every token key, and every key a token's `data:` writes."""
    fields = dict(model.fields)
    keys = list(TOKEN_KEYS) + [k for c in model.components for k in c.data]
    for key in keys:
        fields.setdefault(key, FieldSpec(key, "text"))
    return replace(model, fields=fields, digest=f"{model.digest}:tokens:{','.join(sorted(fields))}")


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "token"


def _finding(model: GameModel, loc: tuple[int, int], code: str, message: str, hint: str) -> Finding:
    return Finding(
        model.file, loc[0], loc[1], Severity.ERROR, code, None, message, hint, about="components"
    )


def load_tokens(studio: Studio, players: int | None = None) -> TokenSet:
    """The model's components that have a shape, as tokens for `players` players (default: the
    model's draft.players, else game.players' most, else 1), their faces prepared."""
    model = studio.model
    shaped = [c for c in model.components if c.shape]
    if not shaped:
        return TokenSet()
    seats = players_for(model, players)
    tmodel = token_model(model)
    renderer = FaceRenderer(studio.ws.root, tmodel, studio.fonts)
    found = TokenSet(renderer=renderer, model=tmodel)
    folder = studio.ws.templates_dir(studio.game)
    for component in shaped:
        loc = component.loc
        templates: dict[str, Template | None] = {}
        for key in ("template", "back"):
            name = getattr(component, key)
            if not name:
                continue
            path, problem = workspace_file(studio.ws.root, folder, name)
            at = component.key_locs.get(key, loc)
            if path is None:
                found.findings.append(
                    _finding(
                        model,
                        at,
                        "template-missing",
                        f"token '{component.name}': template '{name[:80]}' {problem} (templates "
                        f"are read from {studio.ws.shown(folder)})",
                        "write the template, or leave the key out for a plain face with the name",
                    )
                )
                continue
            template, more = load_template(path, studio.ws.shown, tmodel, root=studio.ws.root)
            found.findings += more
            templates[key] = template
        card = Card(
            f"token-{_slug(component.name)}",
            {
                "name": component.name,
                "count": component.count,
                "per_player": component.per_player,
                "shape": component.shape,
                "copies": component.copies(seats),
                **component.data,
            },
            model.file,
            loc[0],
            loc[1],
        )
        front_t, back_t = templates.get("template"), templates.get("back")
        if component.fold and back_t is None:
            back_t = front_t  # folded over, the same face on both sides
        size = component.size or (front_t.size if front_t else (DEFAULT_SIZE, DEFAULT_SIZE))
        if component.shape in ("round", "hex") and component.size is None:
            size = (min(size), min(size))
        token = Token(
            component,
            component.copies(seats),
            str(component.shape),
            size,
            fold=component.fold,
            card=card,
        )
        for key, template in (("template", front_t), ("back", back_t)):
            if template is not None and not template.guessed:
                found.findings += _size_finding(model, component, key, template, token.cell)
        if front_t is not None:
            token.front = renderer.prepare(card, front_t, TOKEN_BLEED)
            found.findings += token.front.findings
        if back_t is not None:
            token.back = renderer.prepare(card, back_t, TOKEN_BLEED)
            found.findings += token.back.findings
        if token.copies:
            found.tokens.append(token)
    return found


def _size_finding(
    model: GameModel, component: Component, key: str, template: Template, cell: tuple[float, float]
) -> list[Finding]:
    """A template of another size than its token is drawn scaled to fit it: a warning, since its
    type and lines change size with it."""
    (tw, th), (w, h) = template.size, cell
    if abs(tw - w) <= 0.5 * MM and abs(th - h) <= 0.5 * MM:
        return []
    scale = min(w / tw, h / th)
    loc = component.key_locs.get(key, component.loc)
    return [
        Finding(
            model.file,
            loc[0],
            loc[1],
            Severity.WARNING,
            "token-size",
            None,
            f"token '{component.name}': template '{template.name}' is {tw / MM:.1f} x "
            f"{th / MM:.1f} mm, the token {w / MM:.1f} x {h / MM:.1f} mm: it is drawn at "
            f"{scale:.0%}",
            f"give the template 'size: {w / MM:.2f}mm x {h / MM:.2f}mm' (a hex is wider than it "
            "is across its flats)",
            about="components",
        )
    ]


def token_findings(studio: Studio) -> list[Finding]:
    """What validate reports of the tokens: their templates and faces."""
    if not any(c.shape for c in studio.model.components):
        return []
    return load_tokens(studio).findings
