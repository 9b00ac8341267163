"""Turn a sheet's header row into card fields, and cell values into field values (and back) as a
designer means them: empty is unset, numbers typed by the model, a bare number in the cost column is
the generic cost, lists joined by the separator."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from ..core.errors import Finding, Severity, did_you_mean
from ..load.yamlemit import double_quoted, flow_list, yaml_float
from ..load.yamlio import plain
from ..load.yamlscalar import _scalar
from ..model.collation import count_field
from ..model.game import FieldSpec, GameModel, Role
from .grid import Cell, Table, Value
from .settings import SheetSettings

ID, FIELD, COPIES, FILE, EDITION, NOTE = "id", "field", "copies", "file", "edition", "note"
COPIES_HEADERS = {"copies", "quantity", "qty", "count", "amount", "number_of_copies", "#"}
FILE_HEADERS = {"file", "card_file", "yaml_file"}
UNSET = object()  # a cell that unsets its field
_EDITION = re.compile(r"^(?P<base>.*?)\s*[\(\[](?P<lang>[A-Za-z]{2,3}(?:[-_][A-Za-z]{2})?)[\)\]]$")
# characters a workbook cannot hold (XML 1.0 forbids them): such a value is written escaped
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
MAX_CELL = 32_767  # the most characters an XLSX cell holds


@dataclass(frozen=True)
class Column:
    index: int
    kind: str  # ID, FIELD, COPIES, FILE, EDITION, NOTE
    field: str | None
    header: Cell


def fold(text: str) -> str:
    """'Card Name' -> 'card_name'; a required column's ' *' dropped."""
    return re.sub(r"[\s_\-]+", "_", text.strip().removesuffix("*").strip().lower()).strip("_")


def map_header(
    table: Table, model: GameModel, used: list[str], settings: SheetSettings
) -> tuple[list[Column], list[Finding]]:
    """The columns of a table, each mapped to what it holds; findings for headers that map to
    nothing (with a did-you-mean), repeated fields, and data under an empty header."""
    names = header_names(model, used, settings)
    holder = copies_holder(model)
    key = fold(settings.key)
    columns: list[Column] = []
    findings: list[Finding] = []
    seen: dict[str, Cell] = {}
    for index, cell in enumerate(table.header):
        raw = "" if cell.value is None else str(cell.value)
        folded = fold(raw)
        column: Column | None = None
        if not folded or index in table.merged:
            continue  # values under no header, a merged header: the reader reports them
        if raw.strip().startswith("#") and folded != "#":
            columns.append(Column(index, NOTE, None, cell))
            continue
        if folded == key or (key == "id" and folded in ("id", "card_id")):
            column = Column(index, ID, settings.key if key != "id" else None, cell)
        elif folded in names:
            column = Column(index, FIELD, names[folded], cell)
        elif folded in COPIES_HEADERS:  # the copies: a field's, else the print run's (read only)
            column = (
                Column(index, FIELD, holder, cell) if holder else Column(index, COPIES, None, cell)
            )
        elif folded in FILE_HEADERS:
            column = Column(index, FILE, None, cell)
        else:
            guess = _loose(folded, names)
            edition = _EDITION.match(raw.strip())
            language = _language_column(raw.strip(), model, names)
            shown = _shown_names(raw.strip(), model, names)
            if shown is not None:  # 'Type (DE)': the vocabulary's German names, not read
                findings.append(
                    _finding(
                        "sheet-vocab-column",
                        f"'{raw.strip()}' shows the {shown[1]} names of '{shown[0]}' values, "
                        f"which game.yaml's vocabulary gives (name@{shown[1]}); it is not read: "
                        f"a card's '{shown[0]}' is its own column's",
                        cell.ref,
                        "rename a value per language in game.yaml's vocabularies",
                        Severity.INFO,
                    )
                )
                columns.append(Column(index, EDITION, None, cell))
                continue
            if language is not None:  # 'name@de', 'Card Name@de', 'Name (DE)': a language's
                if isinstance(language, tuple):
                    problem, hint = language
                    findings.append(_finding("sheet-unknown-column", problem, cell.ref, hint))
                    continue
                column = Column(index, FIELD, language, cell)
            elif guess:
                column = Column(index, FIELD, guess, cell)
            elif edition and _loose(fold(edition.group("base")), names):
                findings.append(
                    _finding(
                        "sheet-edition-column",
                        f"'{raw.strip()}' is a column for one language; columns per language are "
                        "read once the model declares editions, so it is not read now",
                        cell.ref,
                        None,
                        Severity.WARNING,
                    )
                )
                columns.append(Column(index, EDITION, None, cell))
                continue
            else:
                findings.append(
                    _finding(
                        "sheet-unknown-column",
                        f"column '{raw.strip()}' is not a field of the model, so its values "
                        "would be lost",
                        cell.ref,
                        did_you_mean(raw.strip(), list(model.fields) + ["id", "copies"])
                        or "rename it to a field, or start the header with '#' for a notes column",
                    )
                )
                continue
        what = column.field or column.kind
        if what in seen:
            findings.append(
                _finding(
                    "sheet-duplicate-column",
                    f"two columns hold '{what}' (the other is {seen[what].ref})",
                    cell.ref,
                    "delete or rename one of them",
                )
            )
            continue
        seen[what] = cell
        columns.append(column)
    return columns, findings


def language_header(raw: str) -> tuple[str, str] | None:
    """(base, language) for a header naming a column in one language: 'Name (DE)' and 'Name [de]'
    give ('Name', 'de'), 'Card Name@de' ('Card Name', 'de'); None for any other header."""
    edition = _EDITION.match(raw)
    if edition is not None:
        return edition.group("base"), edition.group("lang").lower().replace("_", "-")
    if "@" in raw:
        base, _, lang = raw.rpartition("@")
        return base, lang
    return None


def _shown_names(raw: str, model: GameModel, names: dict[str, str]) -> tuple[str, str] | None:
    """(field, language) for a header that names an enumeration in one of the game's languages
    ('Type (DE)') whose vocabulary names its values in that language (`name@de`); else None."""
    eds, edition = model.editions, _EDITION.match(raw)
    if eds is None or edition is None:
        return None
    base, lang = language_header(raw) or ("", "")
    name = names.get(fold(base))
    vocab = model.vocab_for(name) if name is not None and lang in eds.others() else None
    if vocab is None or not any(f"name@{lang}" in t.attrs for t in vocab.terms):
        return None
    return str(name), lang


def _language_column(
    raw: str, model: GameModel, names: dict[str, str]
) -> str | tuple[str, str | None] | None:
    """The per-language key a header names in a game with editions ('name@de' for `name@de`,
    `Card Name@de` or `Name (DE)`); (problem, hint) for a language or field it cannot be; None for
    a header that names no language."""
    eds, said = model.editions, language_header(raw)
    if eds is None or said is None:
        return None
    base, lang = said
    name = names.get(fold(base)) or _loose(fold(base), names)
    if name is None:
        return None  # no field's: the header is reported as any unknown one
    if lang in eds.others() and name in eds.translate:
        return f"{name}@{lang}"
    if name not in eds.translate:
        problem, hint = (
            f"column '{raw}' is for '{name}' in language '{lang}', and '{name}' is not translated",
            f"translated fields: {', '.join(eds.translate) or 'none'} (editions.translate)",
        )
    else:
        problem = f"column '{raw}' is for language '{lang}', which the game has no edition in"
        hint = did_you_mean(lang, eds.others()) or f"languages: {', '.join(eds.others())}"
    return problem + ", so its values would be lost", hint


def field_spec(model: GameModel, name: str | None) -> FieldSpec | None:
    """The declared field a column holds: its own, or for a translation (`text@de`) its field's."""
    if name is None:
        return None
    return model.fields.get(name) or model.fields.get(name.split("@", 1)[0] if "@" in name else "")


def field_order(model: GameModel) -> list[str]:
    """The order of a card's keys: the model's fields, each translated one followed by its values
    per language (name, name@de, name@fr)."""
    eds = model.editions
    out: list[str] = []
    for name in model.fields:
        out.append(name)
        if eds is not None and name in eds.translate:
            out += [f"{name}@{lang}" for lang in eds.others()]
    return out


def copies_holder(model: GameModel) -> str | None:
    """The field that is a sheet's copies column: the whole-number field with `role: copies` (a
    card's own count in one print run), else the field an older collation reads the copies from
    (every group `where: {F: n}` printing n copies); None when the copies are the collation's."""
    name = count_field(model, Role.COPIES)
    if name is not None:
        return name
    groups = model.collation
    keys = {next(iter(g.where)) for g in groups if len(g.where) == 1}
    if not groups or len(keys) != 1:
        return None
    name = keys.pop()
    spec = model.fields.get(name)
    if spec is None or spec.type != "integer":
        return None
    if all(len(g.where) == 1 and g.where[name] == g.copies and not g.rarities for g in groups):
        return name
    return None


def header_names(model: GameModel, used: list[str], settings: SheetSettings) -> dict[str, str]:
    """Folded headers and the field each names: the fields, the other keys cards use, the
    fields' labels, the declared `sheet: columns:`."""
    names: dict[str, str] = {}
    for name in [*model.fields, *used]:
        names.setdefault(fold(name), name)
    for spec in model.fields.values():
        if spec.label:
            names.setdefault(fold(spec.label), spec.name)
    for header, name in settings.columns.items():
        names[fold(header)] = name
    return names


def field_header(spec: FieldSpec, names: dict[str, str], settings: SheetSettings) -> str:
    """The header a push writes for a field: its label (the designer's own header, as `new --from`
    recorded it) when a pull reads that label as this field again, else its name."""
    label = (spec.label or "").strip()
    folded = fold(label)
    if (
        not label
        or label.startswith("#")
        or names.get(folded) != spec.name
        or folded in ("id", "card_id", fold(settings.key), *FILE_HEADERS)
        or _EDITION.match(label)
    ):
        return spec.name
    return label.removesuffix("*").strip()


def _loose(folded: str, names: dict[str, str]) -> str | None:
    """'card_name' -> name, 'factions' for 'faction' and back: what designers' headers say."""
    for candidate in (
        folded.removeprefix("card_"),
        folded + "s",
        folded.removesuffix("s"),
        folded.replace("_", ""),
    ):
        if candidate in names:
            return names[candidate]
    squashed = {k.replace("_", ""): v for k, v in names.items()}
    return squashed.get(folded.replace("_", ""))


def _finding(
    code: str, message: str, ref: str, hint: str | None, severity: Severity = Severity.ERROR
) -> Finding:
    return Finding(ref.rsplit(":", 1)[0], 0, 0, severity, code, None, message, hint, cell=ref)


def _blank(value: Value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def canon(value: Value) -> str:
    """A cell value as text, for comparing what a sheet holds with what a push would write."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 2**53 else yaml_float(value)
    return value.replace("\r\n", "\n").replace("\r", "\n")


def to_cell(value: Any, separator: str) -> tuple[Value, str | None]:
    """What a push writes for a field's value, and why it is not the value itself (a nested value,
    a list item holding the separator): such a cell is written as YAML and left as it is on pull."""
    if value is None:
        return None, None
    if isinstance(value, (bool, int, float)):
        return value, None
    if isinstance(value, str):
        if _ILLEGAL.search(value) or len(value) > MAX_CELL:
            return double_quoted(value)[:MAX_CELL], "it holds characters a workbook cannot hold"
        return value, None
    if isinstance(value, list) and all(isinstance(v, (str, int, float, bool)) for v in value):
        sep = separator.strip() or separator
        items = [canon(v) for v in value]
        if all(i and i == i.strip() and sep not in i and "\n" not in i for i in items):
            return separator.join(items) or None, None
        return flow_list(value), f"a list item holds '{sep}', a line break or is empty"
    if isinstance(value, list):
        return _yaml_text(value), "it is a list of nested values"
    return _yaml_text(value), "it is a nested value (a mapping)"


def _yaml_text(value: Any) -> str:
    text = yaml.safe_dump(plain(value), default_flow_style=True, width=10_000, sort_keys=False)
    return text.strip().removesuffix("...").strip()


def from_cell(
    value: Value, spec: FieldSpec | None, model: GameModel, separator: str, existing: Any
) -> Any:
    """The field value a cell means (UNSET for an empty cell)."""
    if _blank(value):
        return UNSET
    text = canon(value)
    kind = spec.type if spec else None
    if kind == "list":
        sep = separator.strip() or separator
        if sep == "," and ";" in text and "," not in text:
            sep = ";"  # 'Dark; Light' means two values too
        return [part.strip() for part in text.split(sep) if part.strip()]
    if kind == "integer" or kind == "int-or-x":
        if re.fullmatch(r"[-+]?\d{1,15}", text.strip()):
            return int(text.strip())
        return text
    if kind == "cost":
        if re.fullmatch(r"\d{1,15}", text.strip()):
            return "{" + text.strip() + "}"  # a bare number is the generic cost
        return text
    if kind in ("text", "enum", "number", "image"):
        return text
    # a column the model does not declare: typed as the value it replaces, else as YAML reads it
    if isinstance(existing, str):
        return text
    if isinstance(value, (bool, int, float)):
        return value
    if "\n" in text or text != text.strip():
        return text
    return _scalar(yaml.ScalarNode("tag:yaml.org,2002:str", text))


def same(a: Any, b: Any) -> bool:
    """Equal values of the same types (3 is not '3', True is not 1)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def changed(cell: Value, existing: Any, new: Any, separator: str) -> bool:
    """Whether a cell differs from the value it stands for: not when it shows what a push writes,
    nor when it means the same value."""
    shown, _ = to_cell(existing, separator)
    if canon(shown) == canon(cell):
        # the same as shown, yet a whole number the card file keeps as text ('2') where the model
        # now declares the field a whole number: the value's type changes
        return isinstance(new, int) and not isinstance(new, bool) and isinstance(existing, str)
    if new is UNSET:
        return existing is not None
    return not same(new, existing)
