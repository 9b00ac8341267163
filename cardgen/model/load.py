"""Turn rules/<game>/game.yaml into a GameModel, reporting every problem in it as a located finding."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Callable

from ..core.errors import Finding, Severity, did_you_mean, sort_findings
from ..core.units import UnitError, bleed, card_size, length, safe
from ..load.yamlio import LocDict, LocList, load_yaml
from .deckrules import deck_rules
from .game import (
    FIELD_TYPES,
    ROLES,
    CollationGroup,
    CostGrammar,
    CostSymbol,
    DraftSettings,
    FieldSpec,
    GameModel,
    Keyword,
    Numbering,
    NumberPrefix,
    RarityCount,
    Role,
    Term,
    Vocabulary,
)
from .schema import SECTIONS as SCHEMA
from .schema import check_section
from .specs import HEX

SECTIONS = set(SCHEMA)  # every section is declared in model/schema.py
REQUIRED_SECTIONS = ("game", "fields")


class _Reader:
    """Typed access to located mappings that records a finding instead of raising."""

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self.findings: list[Finding] = []

    def error(self, loc: tuple[int, int], code: str, message: str, hint: str | None = None,
              severity: Severity = Severity.ERROR) -> None:
        self.findings.append(Finding(self.shown, loc[0], loc[1], severity, code, None, message, hint))

    def mapping(self, value: Any, where: str, loc: tuple[int, int]) -> LocDict | None:
        if isinstance(value, LocDict):
            return value
        self.error(getattr(value, "loc", loc), "model-type", f"{where} must be a mapping")
        return None

    def keys(self, m: LocDict, allowed: set[str], where: str) -> None:
        for key in m:
            if key not in allowed:
                self.error(m.key_loc(key), "model-unknown-key", f"unknown key '{key}' in {where}",
                           did_you_mean(key, sorted(allowed)))

    def get(self, m: LocDict, key: str, kind: type | tuple[type, ...], where: str, *,
            required: bool = False, default: Any = None) -> Any:
        if key not in m or m[key] is None:
            if required:
                self.error(m.loc, "model-missing", f"{where} needs '{key}'")
            return default
        value = m[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            self.error(m.key_loc(key), "model-type", f"'{key}' in {where} must be {_article(names)}")
            return default
        return value

    def strings(self, m: LocDict, key: str, where: str) -> list[str]:
        value = m.get(key)
        if value is None:
            return []
        if isinstance(value, str):
            return [value]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
        self.error(m.key_loc(key), "model-type", f"'{key}' in {where} must be a list of text")
        return []


def _article(names: str) -> str:
    return {"str": "text", "int": "a whole number", "bool": "true or false", "LocDict": "a mapping",
            "LocList": "a list", "list": "a list", "dict": "a mapping"}.get(names, names)


def _items(r: _Reader, value: Any, where: str, loc: tuple[int, int]) -> list[tuple[LocDict, tuple[int, int]]]:
    """A list of mappings (or a mapping of name -> mapping, the name becoming 'name')."""
    out: list[tuple[LocDict, tuple[int, int]]] = []
    if isinstance(value, LocList):
        for i, item in enumerate(value):
            if isinstance(item, str):
                item = LocDict.at(value.item_loc(i))
                item.put("name", value[i], value.item_loc(i))
            if isinstance(item, LocDict):
                out.append((item, value.item_loc(i)))
            else:
                r.error(value.item_loc(i), "model-type", f"each entry of {where} must be a mapping")
    elif isinstance(value, LocDict):
        for name, item in value.items():
            if item is None:
                item = LocDict.at(value.key_loc(name))
            if isinstance(item, LocDict):
                item = LocDict(item, name=name) if "name" not in item else item
                item.loc = value.key_loc(name)
                item.key_locs = {**getattr(value[name], "key_locs", {}), "name": value.key_loc(name)}
                out.append((item, value.key_loc(name)))
            else:
                r.error(value.key_loc(name), "model-type", f"entry '{name}' of {where} must be a mapping")
    elif value is not None:
        r.error(loc, "model-type", f"{where} must be a list")
    return out


def _fields(r: _Reader, raw: LocDict, model: GameModel) -> None:
    for item, loc in _items(r, raw.get("fields"), "fields", raw.key_loc("fields")):
        name = r.get(item, "name", str, "a field", required=True)
        ftype = r.get(item, "type", str, f"field '{name}'", default="text")
        if ftype not in FIELD_TYPES:
            r.error(item.key_loc("type"), "model-field-type", f"field '{name}' has unknown type '{ftype}'",
                    did_you_mean(ftype, FIELD_TYPES) or f"one of {', '.join(FIELD_TYPES)}")
            ftype = "unknown"  # its cards are not checked against a type the model did not mean
        vocab = r.get(item, "vocab", str, f"field '{name}'")
        values = r.strings(item, "values", f"field '{name}'")
        if values and not vocab:  # inline vocabulary
            vocab = f"{name}"
            model.vocabularies.setdefault(vocab, Vocabulary(vocab, [Term(v) for v in values], loc=item.key_loc("values")))
        if ftype in ("enum", "list") and not vocab:
            r.error(loc, "model-missing", f"field '{name}' of type {ftype} needs 'vocab' or 'values'")
        role = r.get(item, "role", str, f"field '{name}'")
        if role is not None and role not in ROLES:
            r.error(item.key_loc("role"), "model-value", f"field '{name}' has unknown role '{role}'",
                    did_you_mean(role, ROLES) or f"roles: {', '.join(ROLES)}")
            role = None
        if name:
            model.fields[name] = FieldSpec(
                name, ftype, vocab, bool(r.get(item, "required", bool, name, default=False)),
                r.get(item, "min", int, name), r.get(item, "max", int, name),
                r.get(item, "max_length", int, name), r.get(item, "label", str, name), role, loc,
            )


def _vocabularies(r: _Reader, raw: LocDict, model: GameModel) -> None:
    vocabs = raw.get("vocabularies")
    if vocabs is None:
        return
    m = r.mapping(vocabs, "vocabularies", raw.key_loc("vocabularies"))
    if m is None:
        return
    for vname, body in m.items():
        is_open = False
        entries = body
        if isinstance(body, LocDict) and "terms" in body:
            is_open = bool(r.get(body, "open", bool, vname, default=False))
            entries = body["terms"]
        terms = []
        for item, loc in _items(r, entries, f"vocabulary '{vname}'", m.key_loc(vname)):
            tname = r.get(item, "name", str, f"an entry of vocabulary '{vname}'", required=True)
            if not tname:
                continue
            term = Term(
                tname, r.strings(item, "aliases", tname), r.strings(item, "requires", tname),
                r.strings(item, "forbids", tname), r.get(item, "warn", str, tname), r.get(item, "note", str, tname),
                {k: v for k, v in item.items() if k not in {"name", "aliases", "requires", "forbids", "warn", "note"}},
                loc,
            )
            terms.append(term)
        model.vocabularies[vname] = Vocabulary(vname, terms, is_open, m.key_loc(vname))


def _cost(r: _Reader, raw: LocDict, model: GameModel) -> None:
    c = raw.get("cost")
    if c is None:
        return
    m = r.mapping(c, "cost", raw.key_loc("cost"))
    if m is None:
        return
    grammar = CostGrammar(
        generic=bool(r.get(m, "generic", bool, "cost", default=False)),
        x=bool(r.get(m, "x", bool, "cost", default=True)),
        clauses=r.get(m, "clauses", str, "cost", default="info"),
        separator=r.get(m, "separator", str, "cost", default=","),
        hybrid=bool(r.get(m, "hybrid", bool, "cost", default=True)),
        match_factions=bool(r.get(m, "match_factions", bool, "cost", default=False)),
    )
    if grammar.clauses not in ("info", "warning", "error"):
        r.error(m.key_loc("clauses"), "model-value", "cost.clauses must be info, warning or error")
        grammar.clauses = "info"
    for item, loc in _items(r, m.get("symbols"), "cost.symbols", m.key_loc("symbols")):
        letter = r.get(item, "letter", str, "a cost symbol", required=True)
        if letter and not re.fullmatch(r"[A-Z][A-Za-z0-9]{0,2}", letter):
            r.error(item.key_loc("letter"), "model-value", f"cost symbol '{letter}' must be a capital letter, "
                    "optionally followed by up to two letters or digits (written in braces: '{Sh}')")
            continue
        if letter and grammar.symbol(letter) is not None:
            r.error(item.key_loc("letter"), "model-duplicate", f"cost symbol '{letter}' is defined twice")
            continue
        if letter:
            colours = [_colour(r, item, key, letter, default) for key, default in
                       (("color", "#444444"), ("text_color", "#ffffff"))]
            grammar.symbols.append(CostSymbol(
                letter, r.get(item, "name", str, letter, default=letter), r.get(item, "icon", str, letter, default=""),
                colours[0], colours[1], r.get(item, "rules", str, letter, default=""), loc,
                r.get(item, "faction", str, letter),
            ))
    faction_field = model.role_field(Role.FACTION)
    vocab = model.vocab_for(faction_field) if faction_field else None
    for symbol in grammar.symbols:
        if symbol.faction is not None and (vocab is None or vocab.lookup(symbol.faction)[0] is None):
            r.error(symbol.loc, "model-value", f"cost symbol '{symbol.letter}' belongs to faction "
                    f"'{symbol.faction}', which the model does not have",
                    did_you_mean(symbol.faction, vocab.names()) if vocab else "no field has role: faction")
    if grammar.match_factions and not any(s.faction for s in grammar.symbols):
        r.error(m.key_loc("match_factions"), "model-missing", "cost.match_factions needs symbols with 'faction'")
    model.cost = grammar


def _colour(r: _Reader, item: LocDict, key: str, owner: str, default: str) -> str:
    """A colour as '#rgb' or '#rrggbb' (a typo such as '#d8b24' would otherwise print some other colour)."""
    value = r.get(item, key, str, owner, default=default)
    if not HEX.fullmatch(value):
        r.error(item.key_loc(key), "model-colour", f"'{key}' of '{owner}' is '{value}', not a colour",
                "write '#rrggbb' or '#rgb'")
        return default
    return value


def _keywords(r: _Reader, raw: LocDict, model: GameModel) -> None:
    seen: dict[str, int] = {}
    for item, loc in _items(r, raw.get("keywords"), "keywords", raw.key_loc("keywords")):
        name = r.get(item, "name", str, "a keyword", required=True)
        if not name:
            continue
        if name.lower() in seen:
            r.error(loc, "model-duplicate", f"keyword '{name}' is defined twice (first at line {seen[name.lower()]})")
            continue
        seen[name.lower()] = loc[0]
        model.keywords.append(Keyword(name, r.get(item, "reminder", str, name), r.get(item, "rules", str, name),
                                      r.get(item, "note", str, name), loc))


def _where(r: _Reader, item: LocDict, owner: str) -> dict[str, Any]:
    """A checked selection: schema.Where has already reported and dropped unknown fields and values."""
    return dict(r.get(item, "where", LocDict, owner, default=LocDict()))


def _count(r: _Reader, m: LocDict, key: str, where: str) -> int | None:
    """A collation count (its type and range are declared in schema.py); 0 copies prints none: a warning."""
    value = r.get(m, key, int, f"collation group '{where}'")
    if value == 0 and key == "copies":
        r.error(m.key_loc(key), "model-value", f"'{where}' has 0 copies: its designs are not printed",
                "leave them out of the collation, or give them copies", severity=Severity.WARNING)
    return value


def _collation(r: _Reader, raw: LocDict, model: GameModel) -> None:
    for item, loc in _items(r, raw.get("collation"), "collation", raw.key_loc("collation")):
        name = r.get(item, "name", str, "a collation group", required=True) or "?"
        group = CollationGroup(name, _where(r, item, f"collation group '{name}'"),
                               _count(r, item, "cards", name), _count(r, item, "copies", name), loc=loc)
        rar = r.get(item, "rarities", LocDict, name, default=LocDict())
        rfield = model.role_field(Role.RARITY)
        rvocab = model.vocab_for(rfield) if rfield else None
        if rar and rfield is None:
            r.error(item.key_loc("rarities"), "model-missing",
                    f"collation group '{name}' counts rarities, but no field has role: rarity",
                    "add 'role: rarity' to the field that holds a card's rarity")
        for rname, counts in rar.items():
            if rvocab and rvocab.lookup(rname)[1] == "unknown":
                r.error(rar.key_loc(rname), "model-value", f"collation group '{name}' names unknown rarity '{rname}'",
                        did_you_mean(rname, rvocab.names()))
            if not isinstance(counts, LocDict):
                r.error(rar.key_loc(rname), "model-type", f"rarity '{rname}' of '{name}' must map designs/copies")
                continue
            group.rarities[rname] = RarityCount(_count(r, counts, "designs", f"{name} {rname}"),
                                                _count(r, counts, "copies", f"{name} {rname}"))
        model.collation.append(group)


def _numbering(r: _Reader, raw: LocDict, model: GameModel) -> None:
    n = raw.get("numbering")
    if n is None:
        return
    m = r.mapping(n, "numbering", raw.key_loc("numbering"))
    if m is None:
        return
    scheme = Numbering(loc=raw.key_loc("numbering"))
    scheme.key = r.get(m, "field", str, "numbering", default=scheme.key)
    scheme.pattern = r.get(m, "pattern", str, "numbering", default=scheme.pattern)
    scheme.unassigned = r.get(m, "unassigned", str, "numbering", default=scheme.unassigned)
    scheme.case_sensitive = r.get(m, "case_sensitive", bool, "numbering", default=True)
    scheme.required = r.get(m, "required", bool, "numbering", default=False)
    import regex  # here: only a model with numbering loads the pattern engine

    try:
        groups = regex.compile(scheme.pattern).groupindex
        if "index" not in groups:
            r.error(m.key_loc("pattern"), "model-value", "numbering.pattern needs a named group 'index' "
                    "(and may have 'prefix' and 'total'), e.g. '^(?P<prefix>[A-Z]+)-(?P<index>\\d+)$'")
            scheme.pattern = Numbering.pattern
    except (regex.error, TypeError, ValueError) as exc:
        r.error(m.key_loc("pattern"), "model-value", f"numbering.pattern is not a valid regular expression: {exc}")
        scheme.pattern = Numbering.pattern
    for item, loc in _items(r, m.get("prefixes"), "numbering.prefixes", m.key_loc("prefixes")):
        prefix = r.get(item, "prefix", str, "a numbering prefix", required=True)
        if prefix is not None:
            scheme.prefixes.append(NumberPrefix(prefix, _where(r, item, f"prefix '{prefix}'"),
                                                r.get(item, "total", int, prefix), loc))
    model.numbering = scheme


def _card(r: _Reader, raw: LocDict, model: GameModel) -> None:
    c = raw.get("card")
    if c is None:
        return
    m = r.mapping(c, "card", raw.key_loc("card"))
    if m is None:
        return
    checks: dict[str, Callable[[Any], Any]] = {"size": card_size, "bleed": bleed, "safe": safe,
                                               "corner_radius": length}
    for key, parse in checks.items():
        if key in m:
            try:
                parse(m[key])
            except UnitError as exc:
                r.error(m.key_loc(key), "model-unit", str(exc))
                continue
            model.card[key] = m[key]


def load_model(path: Path, shown: str, game_id: str) -> tuple[GameModel | None, list[Finding]]:
    """Read one game model. Returns (None, findings) only when the file cannot be used at all."""
    doc = load_yaml(path, shown)
    if doc.data is None:
        if not any(f.severity is Severity.ERROR for f in doc.findings):
            doc.findings = [f for f in doc.findings if f.code != "empty-file"]
            doc.findings.append(Finding(shown, 1, 1, Severity.ERROR, "model-empty", None, "game model is empty",
                                        "start from 'cardgen new', or see docs/model.md"))
        return None, doc.findings
    r = _Reader(shown)
    r.findings.extend(doc.findings)
    raw = doc.data
    if not isinstance(raw, LocDict):
        r.error(getattr(raw, "loc", (1, 1)), "model-type", "game.yaml must be a mapping of sections")
        return None, r.findings
    r.keys(raw, SECTIONS, "game.yaml")
    for section in REQUIRED_SECTIONS:
        if section not in raw:
            r.error((1, 1), "model-missing-section", f"game.yaml has no '{section}' section")
    # every section is walked once through its declaration (model/schema.py): unknown keys, types, ranges,
    # units and colours become findings here, and the builders below read only what is valid
    clean = LocDict.at(raw.loc, raw.key_locs)
    source = raw

    def walk(section: str, model: Any) -> None:
        if source.get(section) is not None:
            value = check_section(section, source[section], source.key_loc(section),
                                  lambda loc, code, message, hint: r.error(loc, code, message, hint), model)
            if value is not None:
                clean[section] = value

    for section in ("game", "card", "fields", "vocabularies", "cost", "text", "keywords", "placeholders"):
        walk(section, None)
    game = clean.get("game") or LocDict()
    model = GameModel(
        id=game_id, name=str(game.get("name") or game_id), file=shown,
        version=str(game.get("version") or ""), description=str(game.get("description") or ""),
        info=dict(game), section_locs={k: raw.key_loc(k) for k in raw},
        digest=hashlib.sha1(doc.text.encode("utf-8")).hexdigest(),
    )
    raw = clean
    _vocabularies(r, raw, model)
    _fields(r, raw, model)
    for spec in model.fields.values():
        if spec.vocab and spec.vocab not in model.vocabularies:
            r.error(spec.loc, "model-unknown-vocab", f"field '{spec.name}' uses unknown vocabulary '{spec.vocab}'",
                    did_you_mean(spec.vocab, list(model.vocabularies)))
    for vocab in model.vocabularies.values():
        for term in vocab.terms:
            for f in term.requires + term.forbids:
                if f not in model.fields:
                    r.error(term.loc, "model-unknown-field", f"'{term.name}' requires or forbids unknown field '{f}'",
                            did_you_mean(f, list(model.fields)))
    _cost(r, raw, model)
    _keywords(r, raw, model)
    text = r.get(raw, "text", LocDict, "game.yaml", default=LocDict())
    model.keyword_lines = bool(r.get(text, "keyword_lines", bool, "text", default=False))
    model.bare_symbols = bool(r.get(text, "bare_symbols", bool, "text", default=False))
    model.text_fields = r.strings(text, "fields", "text") or [f for f in ("text",) if f in model.fields]
    model.text_labels = r.strings(text, "labels", "text")
    model.reminder_text = str(r.get(text, "reminder", str, "text", default="after-keyword"))
    model.placeholders = r.strings(raw, "placeholders", "game.yaml")
    for section in ("collation", "numbering", "limits", "deck", "draft", "packs", "cockatrice", "draftmancer"):
        walk(section, model)  # these select cards by field: checked once the fields are known
    _collation(r, raw, model)
    _numbering(r, raw, model)
    _card(r, raw, model)
    for key in ("limits", "packs", "cockatrice", "draftmancer"):
        if raw.get(key) is not None:
            setattr(model, key, raw[key])
    model.deck = deck_rules(raw.get("deck"))
    draft = raw.get("draft") or {}
    model.draft = DraftSettings(draft.get("pack_size"), draft.get("packs_per_player"),
                                list(draft["passes"]) if draft.get("passes") else None,
                                dict((draft.get("pool") or {}).get("where") or {}), draft.get("players"),
                                draft.get("seed"))
    return model, sort_findings(r.findings)
