"""Turn templates/<game>/ into a FaceSet: each card's front and back (shared, or its own second
face) and its other faces (`also:`), all loaded and checked."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..core.errors import Finding, Severity, did_you_mean
from ..core.paths import workspace_file
from ..core.units import size_name
from ..core.workspace import Workspace
from ..load.card import Card
from ..load.yamlio import LocDict, LocList, load_yaml
from ..model.game import GameModel, matches
from .colouronly import colour_only
from .facechecks import drift_borders as _drift_borders
from .facechecks import safe_zone as _safe_zone
from .stamp import stamp_findings
from .template import Template, load_template

MANIFEST = "faces.yaml"


@dataclass
class FaceRule:
    where: dict[str, Any]
    front: Template
    back: Template | None
    # where the rule is written in faces.yaml: each `where` key's (line, column), the entry's
    where_at: dict[str, tuple[int, int]] = field(default_factory=dict)
    at: tuple[int, int] = (0, 0)
    # `second:` instead of `back:`: the back is the card's own second face (it sees `card.*`)
    second: bool = False
    # `also:` the card's other faces (a randomizer, a reference version): (front, shared back) by
    # template name in FaceSet.templates, each printed as a card of its own
    also: list[tuple[str, str | None]] = field(default_factory=list)


@dataclass
class FaceSet:
    rules: list[FaceRule] = field(default_factory=list)
    templates: dict[str, Template] = field(default_factory=dict)
    manifest: str = ""  # faces.yaml as findings show it ('' for a lone front.yaml)
    # the pack code's place on each back template (file: findings), for the backs packs deal
    back_stamps: dict[str, list[Finding]] = field(default_factory=dict)
    _chosen: dict[int, tuple[Card, FaceRule | None]] = field(default_factory=dict, repr=False)

    def pack_code_findings(self, cards: list[Card]) -> list[Finding]:
        """`stamp-placement` of the pack code on the backs of `cards` (the cards a pack deals): a
        back no pack deals never shows one."""
        files: set[str] = set()
        for card in cards:
            rule = self.for_card(card)
            if rule is None:
                continue
            if rule.back is not None and not rule.second:
                files.add(rule.back.file)
            files.update(self.templates[b].file for _, b in rule.also if b in self.templates)
        return [f for file, found in self.back_stamps.items() if file in files for f in found]

    def for_card(self, card: Card) -> FaceRule | None:
        """The first rule whose `where` the card matches; memoised per card object (asked several
        times)."""
        found = self._chosen.get(id(card))
        if found is not None and found[0] is card:
            return found[1]
        rule = next((r for r in self.rules if matches(r.where, card.data)), None)
        self._chosen[id(card)] = (card, rule)
        return rule

    def backs(self) -> list[Template]:
        """The shared backs (a card's own second face is not one)."""
        seen: dict[str, Template] = {}
        for rule in self.rules:
            if rule.back is not None and not rule.second:
                seen.setdefault(rule.back.file, rule.back)
            for _, back in rule.also:
                if back is not None and back in self.templates:
                    seen.setdefault(self.templates[back].file, self.templates[back])
        return list(seen.values())

    def others(self, rule: FaceRule) -> list[tuple[Template, Template | None]]:
        """A rule's `also:` faces as templates (looked up by name: a stand-in font replaces a
        template in `templates`)."""
        out = []
        for front, back in rule.also:
            if front in self.templates:
                out.append((self.templates[front], self.templates.get(back) if back else None))
        return out


def load_faces(ws: Workspace, game: str, model: GameModel) -> tuple[FaceSet, list[Finding]]:
    """Read templates/<game>/faces.yaml (or a lone front.yaml) and every template it names."""
    folder = ws.templates_dir(game)
    findings: list[Finding] = []
    faces = FaceSet()
    manifest = folder / MANIFEST
    entries: list[tuple[dict[str, Any], str, str | None, tuple[int, int]]] = []
    extras: list[tuple[bool, list[tuple[str, str | None, tuple[int, int]]]]] = []
    where_at: list[dict[str, tuple[int, int]]] = []
    shown_manifest = ws.shown(manifest)
    if manifest.is_file():
        faces.manifest = shown_manifest
        doc = load_yaml(manifest, shown_manifest)
        findings.extend(replace(f, about=shown_manifest) for f in doc.findings)
        data = doc.data if isinstance(doc.data, LocList) else LocList()
        if doc.data is not None and not isinstance(doc.data, LocList):
            findings.append(
                _entry_finding(
                    shown_manifest, (1, 1), "faces.yaml must be a list of {where, front, back}"
                )
            )
        for i, item in enumerate(data):
            loc = data.item_loc(i)
            if (
                not isinstance(item, LocDict)
                or not isinstance(item.get("front"), str)
                or not isinstance(item.get("back") or "", str)
                or not isinstance(item.get("second") or "", str)
                or not isinstance(item.get("where") or {}, dict)
            ):
                findings.append(
                    _entry_finding(
                        shown_manifest,
                        loc,
                        "each entry is {where: {field: value}, front: FILE, back: FILE} (or "
                        "second: FILE, the card's own back; also: [FILE, ...])",
                    )
                )
                continue
            where = dict(item.get("where") or {})
            written = item.get("where")
            at = {
                str(k): written.key_loc(k) if isinstance(written, LocDict) else loc for k in where
            }
            findings.extend(_where_findings(where, at, model, shown_manifest))
            back_name, second = item.get("back"), False
            if item.get("second"):
                if back_name:
                    findings.append(
                        _entry_finding(
                            shown_manifest,
                            item.key_loc("second"),
                            "an entry has either a shared 'back:' or the card's own 'second:' "
                            "face, not both: the second face is used",
                        )
                    )
                back_name, second = item["second"], True
            key = "second" if second else "back"
            back_at = item.key_loc(key) if key in item else loc
            also, more = _also(item, loc, shown_manifest, None if second else back_name)
            findings.extend(more)
            entries.append((where, item["front"], back_name, loc))
            where_at.append({**at, "": loc, "\0back": back_at})
            extras.append((second, also))
    elif (folder / "front.yaml").is_file():
        back = "back.yaml" if (folder / "back.yaml").is_file() else None
        entries.append(({}, "front.yaml", back, (0, 0)))
        where_at.append({"": (0, 0), "\0back": (0, 0)})
        extras.append((False, []))
    else:
        findings.append(
            Finding(
                ws.shown(folder),
                0,
                0,
                Severity.ERROR,
                "template-missing",
                None,
                f"no templates for {game}: expected {ws.shown(manifest)} or front.yaml",
                "cardgen new can scaffold one",
            )
        )
        return faces, findings

    def get(name: str, loc: tuple[int, int]) -> Template | None:
        if name in faces.templates:
            return faces.templates[name]
        path, problem = workspace_file(ws.root, folder, name)
        if path is None:
            findings.append(
                Finding(
                    shown_manifest,
                    loc[0],
                    loc[1],
                    Severity.ERROR,
                    "template-missing",
                    None,
                    f"template '{name[:80]}' {problem} (templates are read from "
                    f"{ws.shown(folder)})",
                    about=shown_manifest,
                )
            )
            return None
        template, more = load_template(path, ws.shown, model, root=ws.root)
        findings.extend(more)
        if template is not None:
            faces.templates[name] = template
            if not template.guessed:  # a stand-in size would give warnings of its own
                findings.extend(_safe_zone(template))
        return template

    checked_backs: set[str] = set()
    stamped: set[str] = set()  # fronts whose stamp place was checked
    pins: dict[str, dict[str, Any]] = {}  # what every rule drawing a front fixes to one value
    for (where, front_name, _, _), (_, also) in zip(entries, extras):
        fixed = {k: v for k, v in where.items() if isinstance(v, (str, int, float, bool))}
        for name in [front_name, *(o for o, _, _ in also)]:
            was = pins.setdefault(name, fixed)
            pins[name] = {k: v for k, v in was.items() if k in fixed and fixed[k] == v}
    for (where, front_name, back_name, loc), at, (second, also) in zip(entries, where_at, extras):
        front_template = get(front_name, loc)
        back_template = get(str(back_name), loc) if back_name else None
        shared: list[Template] = [] if second or back_template is None else [back_template]
        others: list[tuple[str, str | None]] = []
        for other, other_back, other_at in also:
            other_template = get(other, other_at)
            other_back_template = get(other_back, other_at) if other_back else None
            if other_template is None:
                continue
            others.append((other, other_back if other_back_template is not None else None))
            if other_back_template is not None:
                shared.append(other_back_template)
                findings.extend(
                    _size_mismatch(other_template, other_back_template, shown_manifest, other_at)
                )
        for name in [front_name, *(o for o, _ in others)]:
            front = faces.templates.get(name)
            if front is not None and front.file not in stamped and not front.guessed:
                stamped.add(front.file)
                pinned = frozenset(pins[name])
                findings.extend(stamp_findings(front) + colour_only(front, model, pinned))
        for coded in [back_template, *shared] if model.packs else []:  # a pack's code, behind
            if coded is not None and "\0" + coded.file not in stamped and not coded.guessed:
                stamped.add("\0" + coded.file)
                faces.back_stamps[coded.file] = stamp_findings(coded, back=True)
        if front_template is not None:
            entry, back_at = at.pop(""), at.pop("\0back")
            faces.rules.append(
                FaceRule(where, front_template, back_template, at, entry, second, others)
            )
            if back_template is not None:
                findings.extend(
                    _size_mismatch(front_template, back_template, shown_manifest, back_at, second)
                )
        for one in shared:  # a card's own second face is a face like its front: no drift check
            if one.file not in checked_backs:
                checked_backs.add(one.file)
                if not one.guessed:
                    findings.extend(_drift_borders(one))
    return faces, findings


def _entry_finding(shown: str, loc: tuple[int, int], message: str) -> Finding:
    return Finding(
        shown, loc[0], loc[1], Severity.ERROR, "template-type", None, message, about=shown
    )


def _also(
    item: LocDict, loc: tuple[int, int], shown: str, back: str | None
) -> tuple[list[tuple[str, str | None, tuple[int, int]]], list[Finding]]:
    """An entry's `also:` faces as (front, back, where written): each a template name (with the
    entry's shared back) or {front: FILE, back: FILE}."""
    written = item.get("also")
    if written is None:
        return [], []
    if not isinstance(written, list):
        at = item.key_loc("also")
        return [], [_entry_finding(shown, at, "'also' is a list of templates: also: [FILE, ...]")]
    out: list[tuple[str, str | None, tuple[int, int]]] = []
    findings = []
    for i, other in enumerate(written):
        at = written.item_loc(i) if isinstance(written, LocList) else loc
        if isinstance(other, str) and other:
            out.append((other, back, at))
        elif (
            isinstance(other, dict)
            and isinstance(other.get("front"), str)
            and isinstance(other.get("back") or "", str)
            and not set(other) - {"front", "back"}
        ):
            out.append((other["front"], other.get("back") or None, at))
        else:
            findings.append(
                _entry_finding(
                    shown, at, "each 'also' face is a template FILE or {front: FILE, back: FILE}"
                )
            )
    return out, findings


def _where_findings(
    where: dict[str, Any], at: dict[str, tuple[int, int]], model: GameModel, shown: str
) -> list[Finding]:
    """A `where` on an unknown field, or a value its field cannot take (a typo: the cards it meant
    drop out of the print run)."""
    out = []
    for key, want in where.items():
        field_name = str(key)[4:] if str(key).startswith("not ") else str(key)
        line, column = at[str(key)]
        if field_name not in model.fields:
            out.append(
                Finding(
                    shown,
                    line,
                    column,
                    Severity.ERROR,
                    "template-where",
                    None,
                    f"'where' selects on unknown field '{field_name}'",
                    did_you_mean(field_name, list(model.fields)),
                    about=shown,
                )
            )
            continue
        for value in want if isinstance(want, list) else [want]:
            problem, hint = _value_problem(model, field_name, value)
            if problem:
                out.append(
                    Finding(
                        shown,
                        line,
                        column,
                        Severity.ERROR,
                        "faces-where-unmatched",
                        None,
                        f"'where' selects {field_name} {str(value)[:60]!r}, {problem}: no card "
                        "can match it",
                        hint,
                        about=shown,
                    )
                )
    return out


def _value_problem(model: GameModel, field_name: str, value: Any) -> tuple[str | None, str | None]:
    """Why a value is none its field can take (with a did-you-mean), or (None, None)."""
    spec = model.fields[field_name]
    vocab = model.vocab_for(field_name)
    if vocab is not None:
        if isinstance(value, str) and vocab.lookup(value)[0] is not None:
            return None, None
        names = vocab.names()
        return (
            f"which is no value of {field_name}",
            did_you_mean(str(value), names) or f"its values: {', '.join(names[:12])}",
        )
    if spec.type == "integer" and (isinstance(value, bool) or not isinstance(value, int)):
        return f"but {field_name} is a whole number", None
    return None, None


def _size_mismatch(
    front: Template, back: Template, shown: str, loc: tuple[int, int], second: bool = False
) -> list[Finding]:
    """A back of another size than its front is printed behind it misaligned (poker backs behind
    tarot fronts)."""
    if front.guessed or back.guessed:
        return []  # an invalid size is reported at its template; this would judge its stand-in
    if all(abs(a - b) < 0.2 for a, b in zip(front.size, back.size)):
        return []
    return [
        Finding(
            shown,
            loc[0],
            loc[1],
            Severity.ERROR,
            "back-size-mismatch",
            None,
            f"{'second face' if second else 'back'} '{back.name}' is {size_name(back.size)}, "
            f"its front '{front.name}' {size_name(front.size)}: the "
            f"{'second face' if second else 'back'} would not cover the front",
            f"make a {'second face' if second else 'back'} template of the front's size",
            about=shown,
        )
    ]
