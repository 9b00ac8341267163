"""Turn templates/<game>/ into a FaceSet: which front and back template each card gets, all loaded and checked."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import Finding, Severity, did_you_mean
from ..core.paths import workspace_file
from ..core.workspace import Workspace
from ..load.card import Card
from ..load.yamlio import LocDict, LocList, load_yaml
from ..model.game import GameModel, matches
from .template import Template, load_template

MANIFEST = "faces.yaml"


@dataclass
class FaceRule:
    where: dict[str, Any]
    front: Template
    back: Template | None


@dataclass
class FaceSet:
    rules: list[FaceRule] = field(default_factory=list)
    templates: dict[str, Template] = field(default_factory=dict)
    _chosen: dict[int, tuple[Card, FaceRule | None]] = field(default_factory=dict, repr=False)

    def for_card(self, card: Card) -> FaceRule | None:
        """The first rule whose `where` the card matches; memoised per card object (asked several times)."""
        found = self._chosen.get(id(card))
        if found is not None and found[0] is card:
            return found[1]
        rule = next((r for r in self.rules if matches(r.where, card.data)), None)
        self._chosen[id(card)] = (card, rule)
        return rule

    def backs(self) -> list[Template]:
        seen: dict[str, Template] = {}
        for rule in self.rules:
            if rule.back is not None:
                seen.setdefault(rule.back.file, rule.back)
        return list(seen.values())


def load_faces(ws: Workspace, game: str, model: GameModel) -> tuple[FaceSet, list[Finding]]:
    """Read templates/<game>/faces.yaml (or a lone front.yaml) and every template it names."""
    folder = ws.templates_dir(game)
    findings: list[Finding] = []
    faces = FaceSet()
    manifest = folder / MANIFEST
    entries: list[tuple[dict[str, Any], str, str | None, tuple[int, int]]] = []
    shown_manifest = ws.shown(manifest)
    if manifest.is_file():
        doc = load_yaml(manifest, shown_manifest)
        findings.extend(doc.findings)
        data = doc.data if isinstance(doc.data, LocList) else LocList()
        if doc.data is not None and not isinstance(doc.data, LocList):
            findings.append(Finding(shown_manifest, 1, 1, Severity.ERROR, "template-type",
                                    None, "faces.yaml must be a list of {where, front, back}"))
        for i, item in enumerate(data):
            loc = data.item_loc(i)
            if not isinstance(item, LocDict) or not isinstance(item.get("front"), str) or \
                    not isinstance(item.get("back") or "", str) or not isinstance(item.get("where") or {}, dict):
                findings.append(Finding(shown_manifest, loc[0], loc[1], Severity.ERROR, "template-type", None,
                                        "each entry is {where: {field: value}, front: FILE, back: FILE}"))
                continue
            where = dict(item.get("where") or {})
            for key in where:
                field_name = str(key)[4:] if str(key).startswith("not ") else str(key)
                if field_name not in model.fields:
                    at = item["where"].key_loc(key) if isinstance(item["where"], LocDict) else loc
                    findings.append(Finding(shown_manifest, at[0], at[1], Severity.ERROR, "template-where", None,
                                            f"'where' selects on unknown field '{field_name}'",
                                            did_you_mean(field_name, list(model.fields))))
            entries.append((where, item["front"], item.get("back"), loc))
    elif (folder / "front.yaml").is_file():
        back = "back.yaml" if (folder / "back.yaml").is_file() else None
        entries.append(({}, "front.yaml", back, (0, 0)))
    else:
        findings.append(Finding(ws.shown(folder), 0, 0, Severity.ERROR, "template-missing", None,
                                f"no templates for {game}: expected {ws.shown(manifest)} or front.yaml",
                                "cardgen new can scaffold one"))
        return faces, findings

    def get(name: str, loc: tuple[int, int]) -> Template | None:
        if name in faces.templates:
            return faces.templates[name]
        path, problem = workspace_file(ws.root, folder, name)
        if path is None:
            findings.append(Finding(shown_manifest, loc[0], loc[1], Severity.ERROR, "template-missing", None,
                                    f"template '{name[:80]}' {problem} (templates are read from "
                                    f"{ws.shown(folder)})"))
            return None
        template, more = load_template(path, ws.shown, model, root=ws.root)
        findings.extend(more)
        if template is not None:
            faces.templates[name] = template
            findings.extend(_safe_zone(template))
        return template

    checked_backs: set[str] = set()
    for where, front_name, back_name, loc in entries:
        front_template = get(front_name, loc)
        back_template = get(str(back_name), loc) if back_name else None
        if front_template is not None:
            faces.rules.append(FaceRule(where, front_template, back_template))
        if back_template is not None and back_template.file not in checked_backs:
            checked_backs.add(back_template.file)
            findings.extend(_drift_borders(back_template))
    return faces, findings


BORDER_ZONE = 10 * 72 / 25.4


def _drift_borders(template: Template) -> list[Finding]:
    """A back's line or box edge running along the trim a few mm inside it turns duplex drift into uneven
    borders (4.5 mm on one side, 1.5 mm on the other): cards become recognisable from the back."""
    from .template import as_length

    out = []
    w, h = template.size
    for e in template.elements:
        if e.type not in ("rect", "line") or "box" in e.props:
            continue
        keys = ("x", "y", "w", "h") if e.type == "rect" else ("x1", "y1", "x2", "y2")
        if any(e.props.get(k) is None or e.props[k].compiled is not None for k in keys):
            continue
        a, b, c, d = (as_length(e.props[k].raw) for k in keys)
        x1, y1, x2, y2 = (a, b, a + c, b + d) if e.type == "rect" else (min(a, c), min(b, d), max(a, c), max(b, d))
        edges = [(x1, y2 - y1, h), (w - x2, y2 - y1, h), (y1, x2 - x1, w), (h - y2, x2 - x1, w)]
        near = [dist for dist, span, side in edges if 0.3 < dist < BORDER_ZONE and span >= side / 2]
        if near:
            mm = min(near) * 25.4 / 72
            out.append(Finding(e.file, e.line, e.column, Severity.WARNING, "back-border", None,
                               f"back '{template.name}': '{e.id or e.type}' runs {mm:.1f} mm inside the trim; a "
                               f"back printed 1.5 mm off its front shows it {mm - 1.5:.1f} mm from one edge and "
                               f"{mm + 1.5:.1f} mm from the other, so cards can be told apart from the back",
                               "let the back's design reach the cut, or keep lines 10 mm or more inside it"))
    return out


SAFE_TYPES = {"text": "text", "badge": "stat", "icons": "cost"}


def _safe_zone(template: Template) -> list[Finding]:
    """Text, stat and cost elements reaching closer to the trim than the safe zone risk being cut (a 1 mm
    miscut at home, a vendor's safe line)."""
    from .template import as_length

    out = []
    w, h = template.size
    s = template.safe
    for e in template.elements:
        if e.type not in SAFE_TYPES or any(e.props.get(k) is None or e.props[k].compiled is not None for k in "xywh"):
            continue
        x, y = as_length(e.props["x"].raw), as_length(e.props["y"].raw)
        ew, eh = as_length(e.props["w"].raw), as_length(e.props["h"].raw)
        if x < s - 0.01 or y < s - 0.01 or x + ew > w - s + 0.01 or y + eh > h - s + 0.01:
            gap = min(x, y, w - x - ew, h - y - eh) / 72 * 25.4
            out.append(Finding(e.file, e.line, e.column, Severity.WARNING, "outside-safe-zone", None,
                               f"{SAFE_TYPES[e.type]} element '{e.id or e.type}' is {gap:.1f} mm from the trim, "
                               f"inside the {s / 72 * 25.4:.1f} mm safe zone: a miscut or a vendor's safe line "
                               f"can cut it"))
    return out

