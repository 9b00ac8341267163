"""Turn rules/<game>/game.yaml into a GameModel, reporting every problem in it as a located
finding."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ..core.errors import Finding, Severity, did_you_mean, sort_findings
from ..load.yamlio import LocDict, load_yaml
from .about import tag_about
from .consistency import consistency
from .deckrules import deck_rules
from .editions import build_editions, local_values
from .game import DraftSettings, GameModel
from .guards import read_guards
from .palette import palette_findings
from .reader import Reader
from .runsections import build_card, build_collation, build_components, build_numbering
from .schema import SECTIONS as SCHEMA
from .schema import check_section
from .sections import build_cost, build_fields, build_keywords, build_vocabularies

SECTIONS = set(SCHEMA)  # every section is declared in model/schema.py
REQUIRED_SECTIONS = ("game", "fields")


def load_model(
    path: Path, shown: str, game_id: str, cache: Path | None = None
) -> tuple[GameModel | None, list[Finding]]:
    """Read one game model. Returns (None, findings) only when the file cannot be used at all.
    `cache`: the folder where the colour-blind guard keeps its measures (model.palette)."""
    doc = load_yaml(path, shown)
    if doc.data is None:
        if not any(f.severity is Severity.ERROR for f in doc.findings):
            doc.findings = [f for f in doc.findings if f.code != "empty-file"]
            doc.findings.append(
                Finding(
                    shown,
                    1,
                    1,
                    Severity.ERROR,
                    "model-empty",
                    None,
                    "game model is empty",
                    "start from 'cardgen new', or see docs/model.md",
                )
            )
        return None, doc.findings
    r = Reader(shown)
    r.findings.extend(doc.findings)
    raw = doc.data
    if not isinstance(raw, LocDict):
        r.error(
            getattr(raw, "loc", (1, 1)), "model-type", "game.yaml must be a mapping of sections"
        )
        return None, r.findings
    r.keys(raw, SECTIONS, "game.yaml")
    for section in REQUIRED_SECTIONS:
        if section not in raw:
            r.error((1, 1), "model-missing-section", f"game.yaml has no '{section}' section")
    # every section is walked once through its declaration (model/schema.py): unknown keys, types,
    # ranges, units and colours become findings here, and the builders below read only what is valid
    clean = LocDict.at(raw.loc, raw.key_locs)
    source = raw

    def walk(section: str, model: Any) -> None:
        if source.get(section) is not None:
            value = check_section(
                section,
                source[section],
                source.key_loc(section),
                lambda loc, code, message, hint: r.error(loc, code, message, hint),
                model,
            )
            if value is not None:
                clean[section] = value

    for section in (
        "game",
        "card",
        "fields",
        "vocabularies",
        "cost",
        "text",
        "keywords",
        "placeholders",
        "reading",
        "components",
        "editions",
        "box",
        "guards",
    ):
        walk(section, None)
    game = clean.get("game") or LocDict()
    model = GameModel(
        id=game_id,
        name=str(game.get("name") or game_id),
        file=shown,
        version=str(game.get("version") or ""),
        description=str(game.get("description") or ""),
        info=dict(game),
        section_locs={k: raw.key_loc(k) for k in raw},
        digest=hashlib.sha1(doc.text.encode("utf-8")).hexdigest(),
    )
    raw = clean
    build_vocabularies(r, raw, model)
    build_fields(r, raw, model)
    for spec in model.fields.values():
        if spec.vocab and spec.vocab not in model.vocabularies:
            r.error(
                spec.loc,
                "model-unknown-vocab",
                f"field '{spec.name}' uses unknown vocabulary '{spec.vocab}'; its values are not "
                "checked",
                did_you_mean(spec.vocab, list(model.vocabularies)),
            )
    for vocab in model.vocabularies.values():
        for term in vocab.terms:
            both = [f for f in term.requires if f in term.forbids]
            if both:  # no card could satisfy both: neither rule is checked for those fields
                shown = ", ".join(f"'{f}'" for f in both)
                r.error(
                    term.loc,
                    "model-exclusive",
                    f"'{term.name}' both requires and forbids {shown}; neither rule is checked "
                    f"for {'it' if len(both) == 1 else 'them'}",
                    "keep it in requires or in forbids, not both",
                )
                term.requires = [f for f in term.requires if f not in both]
                term.forbids = [f for f in term.forbids if f not in both]
            for f in term.requires + term.forbids:
                if f not in model.fields:
                    r.error(
                        term.loc,
                        "model-unknown-field",
                        f"'{term.name}' requires or forbids unknown field '{f}'; that rule is not "
                        "checked",
                        did_you_mean(f, list(model.fields)),
                    )
    build_cost(r, raw, model)
    build_keywords(r, raw, model)
    text = r.get(raw, "text", LocDict, "game.yaml", default=LocDict())
    model.keyword_lines = bool(r.get(text, "keyword_lines", bool, "text", default=False))
    model.bare_symbols = bool(r.get(text, "bare_symbols", bool, "text", default=False))
    model.text_fields = r.strings(text, "fields", "text") or [  # a field named or marked text
        f.name for f in model.fields.values() if f.name == "text" or f.role == "text"
    ]
    model.text_labels = r.strings(text, "labels", "text")
    model.reminder_text = str(r.get(text, "reminder", str, "text", default="after-keyword"))
    model.editions = build_editions(r, raw)
    model.edition = model.editions.default if model.editions else ""
    for lang, values in local_values(game, ("name", "description")).items():
        model.local.setdefault(lang, {}).update(values)
    for lang, values in local_values(text, ("labels",)).items():
        model.local.setdefault(lang, {})["labels"] = [str(v) for v in values["labels"]]
    model.placeholders = r.strings(raw, "placeholders", "game.yaml")
    model.card_file_mb = (raw.get("reading") or {}).get("card_file_mb")
    for section in ("collation", "numbering", "limits", "deck", "draft"):
        walk(section, model)  # these select cards by field: checked once the fields are known
    draft = raw.get("draft") or {}
    model.draft = DraftSettings(  # before the pack formats, whose fallbacks it gives
        draft.get("pack_size"),
        draft.get("packs_per_player"),
        list(draft["passes"]) if draft.get("passes") else None,
        dict((draft.get("pool") or {}).get("where") or {}),
        draft.get("players"),
        draft.get("seed"),
    )
    for section in ("packs", "cockatrice", "draftmancer", "sheet", "tts", "fonts"):
        walk(section, model)
    build_collation(r, raw, model)
    build_numbering(r, raw, model)
    build_card(r, raw, model)
    build_components(r, raw, model)
    for key in ("limits", "packs", "cockatrice", "draftmancer", "sheet", "tts", "fonts", "box"):
        if raw.get(key) is not None:
            setattr(model, key, raw[key])
    model.deck = deck_rules(raw.get("deck"))
    model.guards, problems = read_guards(clean.get("guards"))
    for problem in problems:
        r.error(raw.key_loc("guards"), "model-value", problem)
    findings = r.findings + _meaning(model, raw, cache)
    return model, sort_findings(tag_about(findings, source, shown, list(SCHEMA)))


def _meaning(model: GameModel, raw: LocDict, cache: Path | None) -> list[Finding]:
    """The consistency pass; a bug in it is a finding, never a traceback."""
    try:
        return consistency(model, raw) + palette_findings(model, cache)
    except Exception as exc:  # a bug in one check must not hide the model's other findings
        return [
            Finding(
                model.file,
                1,
                1,
                Severity.ERROR,
                "check-crashed",
                None,
                f"the model's consistency check failed: {exc!r}",
                "please report it",
            )
        ]
