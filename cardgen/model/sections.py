"""Turn the checked fields, vocabularies, cost and keywords sections of game.yaml into the
GameModel's typed parts."""

from __future__ import annotations

import difflib
import re

from ..core.errors import did_you_mean
from ..load.yamlio import LocDict
from .editions import local_values
from .game import COST_ROLE_TYPES, FIELD_TYPES, ROLES, FieldSpec, GameModel, Role
from .reader import Reader, entries_of
from .specs import HEX
from .words import CostGrammar, CostSymbol, Keyword, Term, Vocabulary

# roles several fields may share: a type line lists every kind field ('Feat — Attack')
SHARED_ROLES = ("kind",)


def _repeated(r: Reader, names: list[tuple[str, tuple[int, int]]], where: str) -> None:
    """model-duplicate-value for each value (or alias) written twice, case aside."""
    seen: dict[str, int] = {}
    for value, loc in names:
        folded = value.strip().lower()
        if folded in seen:
            r.error(
                loc,
                "model-duplicate-value",
                f"'{value}' is defined twice in {where} (first at line {seen[folded]}); "
                "the first is used",
                "delete one of them",
            )
        else:
            seen[folded] = loc[0]


def _first(terms: list[Term]) -> list[Term]:
    """The terms without those that repeat an earlier one's name (case aside)."""
    seen: set[str] = set()
    out = []
    for t in terms:
        if t.name.strip().lower() not in seen:
            seen.add(t.name.strip().lower())
            out.append(t)
    return out


def build_fields(r: Reader, raw: LocDict, model: GameModel) -> None:
    claimed: dict[str, str] = {}  # role -> the first field that has it
    for item, loc in entries_of(r, raw.get("fields"), "fields", raw.key_loc("fields")):
        name = r.get(item, "name", str, "a field", required=True)
        ftype = r.get(item, "type", str, f"field '{name}'", default="text")
        if ftype not in FIELD_TYPES:
            r.error(
                item.key_loc("type"),
                "model-field-type",
                f"field '{name}' has unknown type '{ftype}'; its cards' values are not checked "
                "against a type",
                did_you_mean(ftype, FIELD_TYPES) or f"one of {', '.join(FIELD_TYPES)}",
            )
            ftype = "unknown"  # its cards are not checked against a type the model did not mean
        vocab = r.get(item, "vocab", str, f"field '{name}'")
        values = r.strings(item, "values", f"field '{name}'")
        if values and vocab:
            r.error(
                item.key_loc("values"),
                "model-exclusive",
                f"field '{name}' has both 'vocab' and 'values': vocabulary '{vocab}' is used, "
                "'values' is ignored",
                "keep one of them",
            )
        elif values and name in model.vocabularies:
            r.error(
                item.key_loc("values"),
                "model-exclusive",
                f"field '{name}' lists 'values', but a vocabulary '{name}' is declared too: the "
                "vocabulary is used, 'values' is ignored",
                f"write 'vocab: {name}', or rename one of them",
            )
            vocab = name
        elif values:  # inline vocabulary
            vocab = f"{name}"
            _repeated(r, [(v, item.key_loc("values")) for v in values], f"field '{name}'")
            model.inline_vocabs.add(vocab)
            model.vocabularies[vocab] = Vocabulary(
                vocab, _first([Term(v) for v in values]), loc=item.key_loc("values")
            )
        if ftype in ("enum", "list") and not vocab:
            r.error(
                loc, "model-missing", f"field '{name}' of type {ftype} needs 'vocab' or 'values'"
            )
        role = r.get(item, "role", str, f"field '{name}'")
        if role is not None and role not in ROLES:
            r.error(
                item.key_loc("role"),
                "model-value",
                f"field '{name}' has unknown role '{role}'; the field has no role",
                did_you_mean(role, ROLES) or f"roles: {', '.join(ROLES)}",
            )
            close = difflib.get_close_matches(role.lower(), ROLES, n=1, cutoff=0.6)
            if close and name:
                model.near_roles.setdefault(close[0], name)  # its checks are this typo's doing
            role = None
        if role == Role.COST and ftype not in COST_ROLE_TYPES:
            r.error(
                item.key_loc("role"),
                "model-role-type",
                f"field '{name}' has role: cost but is of type {ftype}; a cost is a whole number "
                "(type: integer or int-or-x) or a cost of symbols (type: cost), so no tool reads "
                "it as the cost",
                "make it type: integer (or int-or-x), or type: cost with the game's costs: grammar",
            )
            role = None
        if role is not None and name:
            first = claimed.get(role)
            if first is not None and role not in SHARED_ROLES:
                r.error(
                    item.key_loc("role"),
                    "model-role-twice",
                    f"fields '{first}' and '{name}' both have role: {role}; tools read only "
                    f"'{first}', so '{name}' is shown as a {role} nowhere it should be",
                    f"give '{name}' another role, or none",
                )
                role = None
            else:
                claimed.setdefault(role, name)
        if name:
            low, high = r.get(item, "min", int, name), r.get(item, "max", int, name)
            if low is not None and high is not None and low > high:
                r.error(
                    item.key_loc("max"),
                    "model-bounds-reversed",
                    f"field '{name}' has min {low} above its max {high}: no value fits, so its "
                    "cards' values are not range-checked until the bounds are in order",
                    "swap them",
                )
            model.fields[name] = FieldSpec(
                name,
                ftype,
                vocab,
                bool(r.get(item, "required", bool, name, default=False)),
                low,
                high,
                r.get(item, "max_length", int, name),
                r.get(item, "label", str, name),
                role,
                loc,
            )


def build_vocabularies(r: Reader, raw: LocDict, model: GameModel) -> None:
    m = r.section(raw, "vocabularies")
    if m is None:
        return
    for vname, body in m.items():
        is_open = False
        entries = body
        if isinstance(body, LocDict) and "terms" in body:
            is_open = bool(r.get(body, "open", bool, vname, default=False))
            entries = body["terms"]
        terms = []
        for item, loc in entries_of(r, entries, f"vocabulary '{vname}'", m.key_loc(vname)):
            tname = r.get(item, "name", str, f"an entry of vocabulary '{vname}'", required=True)
            if not tname:
                continue
            term = Term(
                tname,
                r.strings(item, "aliases", tname),
                r.strings(item, "requires", tname),
                r.strings(item, "forbids", tname),
                r.get(item, "warn", str, tname),
                r.get(item, "note", str, tname),
                {
                    k: v
                    for k, v in item.items()
                    if k not in {"name", "aliases", "requires", "forbids", "warn", "note"}
                },
                loc,
            )
            terms.append(term)
        _repeated(
            r,
            [(t.name, t.loc) for t in terms] + [(a, t.loc) for t in terms for a in t.aliases],
            f"vocabulary '{vname}'",
        )
        model.vocabularies[vname] = Vocabulary(vname, _first(terms), is_open, m.key_loc(vname))


def build_cost(r: Reader, raw: LocDict, model: GameModel) -> None:
    m = r.section(raw, "cost")
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
        r.error(
            m.key_loc("clauses"),
            "model-value",
            "cost.clauses must be info, warning or error; info is used",
        )
        grammar.clauses = "info"
    for item, loc in entries_of(r, m.get("symbols"), "cost.symbols", m.key_loc("symbols")):
        letter = r.get(item, "letter", str, "a cost symbol", required=True)
        if letter and not re.fullmatch(r"[A-Z][A-Za-z0-9]{0,2}", letter):
            r.error(
                item.key_loc("letter"),
                "model-value",
                f"cost symbol '{letter}' must be a capital letter, "
                "optionally followed by up to two letters or digits (written in braces: '{Sh}'); "
                "the symbol is left out",
            )
            continue
        if letter and grammar.symbol(letter) is not None:
            r.error(
                item.key_loc("letter"),
                "model-duplicate",
                f"cost symbol '{letter}' is defined twice; the first is used",
            )
            continue
        if letter:
            colours = [
                _colour(r, item, key, letter, default)
                for key, default in (("color", "#444444"), ("text_color", "#ffffff"))
            ]
            grammar.symbols.append(
                CostSymbol(
                    letter,
                    r.get(item, "name", str, letter, default=letter),
                    r.get(item, "icon", str, letter, default=""),
                    colours[0],
                    colours[1],
                    r.get(item, "rules", str, letter, default=""),
                    loc,
                    r.get(item, "faction", str, letter),
                    local_values(item, ("name", "rules")),
                )
            )
    faction_field = model.role_field(Role.FACTION)
    vocab = model.vocab_for(faction_field) if faction_field else None
    # a misspelt role ('role: fction') is reported once, at the field, not again at every symbol
    broken = faction_field is None and Role.FACTION in model.near_roles
    for symbol in grammar.symbols:
        if (
            symbol.faction is not None
            and not broken
            and (vocab is None or vocab.lookup(symbol.faction)[0] is None)
        ):
            r.error(
                symbol.loc,
                "model-value",
                f"cost symbol '{symbol.letter}' belongs to faction "
                f"'{symbol.faction}', which the model does not have; it is taken as belonging to "
                "no faction",
                did_you_mean(symbol.faction, vocab.names())
                if vocab
                else "no field has role: faction",
            )
            symbol.faction = None
    if grammar.match_factions and not any(s.faction for s in grammar.symbols):
        r.error(
            m.key_loc("match_factions"),
            "model-missing",
            "cost.match_factions needs symbols with 'faction'; no cost is checked against factions",
        )
    model.cost = grammar


def _colour(r: Reader, item: LocDict, key: str, owner: str, default: str) -> str:
    """A colour as '#rgb' or '#rrggbb' (a typo such as '#d8b24' would otherwise print some other
    colour)."""
    value = r.get(item, key, str, owner, default=default).strip()  # as the schema reads it
    if not HEX.fullmatch(value):
        r.error(
            item.key_loc(key),
            "model-colour",
            f"'{key}' of '{owner}' is '{value}', not a colour; {default} is used",
            "write '#rrggbb' or '#rgb'",
        )
        return default
    return value


def build_keywords(r: Reader, raw: LocDict, model: GameModel) -> None:
    seen: dict[str, int] = {}
    for item, loc in entries_of(r, raw.get("keywords"), "keywords", raw.key_loc("keywords")):
        name = r.get(item, "name", str, "a keyword", required=True)
        if not name:
            continue
        if name.lower() in seen:
            r.error(
                loc,
                "model-duplicate",
                f"keyword '{name}' is defined twice (first at line {seen[name.lower()]}); the "
                "first is used",
            )
            continue
        seen[name.lower()] = loc[0]
        model.keywords.append(
            Keyword(
                name,
                r.get(item, "reminder", str, name),
                r.get(item, "rules", str, name),
                r.get(item, "note", str, name),
                loc,
                bool(r.get(item, "parameter", bool, name, default=False)),
                local_values(item, ("name", "reminder", "rules")),
            )
        )
