"""`cardgen new GAME --from SHEET`: the messy 200-card sheet (tests/fixtures/sheets/, sample
content) becomes a game that validates and builds, in XLSX, ODS and CSV; and inference's edge
cases."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pytest
import yaml
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.errors import CardgenError
from cardgen.jobs.new import scaffold_from_sheet
from cardgen.load.card import slug
from cardgen.sheet.infer import infer
from cardgen.sheet.infer_yaml import _spec, cards_yaml
from cardgen.sheet.read import Cell, Table, Value, read_tables

from ..placed import placed_faces

SHEETS = Path(__file__).resolve().parents[1] / "fixtures" / "sheets"

# What the messy sheet's columns must become, exactly (game.yaml's `fields`).
MESSY_FIELDS = {
    "name": {"type": "text", "required": True, "label": "Card Name"},
    "cost": {
        "type": "integer",
        "min": 0,
        "max": 7,
        "required": True,
        "label": "COST",
        "role": "cost",
    },
    "type": {"type": "enum", "vocab": "type", "required": True, "label": "Type", "role": "kind"},
    "faction": {"type": "enum", "vocab": "faction", "required": True, "role": "faction"},
    "rarity": {
        "type": "enum",
        "vocab": "rarity",
        "required": True,
        "label": "Rarity",  # the header's trailing space dropped
        "role": "rarity",
    },
    "keywords": {"type": "list", "vocab": "keywords", "label": "Keywords"},
    "rules_text": {"type": "text", "required": True, "label": "Rules Text", "role": "text"},
    "flavor_text": {"type": "text", "label": "flavor text", "role": "flavor"},
    "atk": {"type": "integer", "min": 0, "max": 6, "label": "ATK", "role": "attack"},
    "hp": {"type": "integer", "min": 1, "max": 7, "label": "HP", "role": "health"},
    # no most: a print run may grow (the designer's trial #4 could not print a fourth copy)
    "copies": {"type": "integer", "min": 0, "label": "Qty", "role": "copies"},
    "power_level": {
        "type": "integer",
        "min": 0,
        "max": 19,
        "required": True,
        "label": "Power Level",
    },
}
MESSY_VOCABULARIES = {
    "type": ["Creature", "Spell", "Location", "Artifact"],
    "faction": ["Ember", "Tide", "Stone", "Grove"],
    "rarity": ["common", "uncommon", "rare"],
    "keywords": ["Drain", "Flying", "Swift", "Guard", "Stealth"],
}
MESSY_COPIES = 481  # the sum of the Qty column: 31 cards x 1, 57 x 2, 112 x 3


def run(root: Path, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["--root", str(root), *args])


def new_game(tmp_path: Path, sheet: str, game: str = "messy") -> Path:
    root = tmp_path / "studio"
    root.mkdir(parents=True)
    result = scaffold_from_sheet(root, game, SHEETS / sheet)
    assert result.findings == []
    assert [o.path.relative_to(root).as_posix() for o in result.outputs] == [
        f"rules/{game}/game.yaml",
        f"cards/{game}/cards.yaml"
        if sheet.endswith("xlsx") or sheet.endswith("ods")
        else f"cards/{game}/messy.yaml",
        f"templates/{game}/faces.yaml",
        f"templates/{game}/front.yaml",
        f"templates/{game}/back.yaml",
        "templates/_shared/card.yaml",
    ]
    return root


@pytest.mark.parametrize("sheet", ["messy.xlsx", "messy.ods", "messy.csv"])
def test_the_messy_sheet_becomes_a_game_that_validates_clean(tmp_path: Path, sheet: str) -> None:
    root = new_game(tmp_path, sheet)
    model = yaml.safe_load((root / "rules/messy/game.yaml").read_text(encoding="utf-8"))
    assert model["fields"] == MESSY_FIELDS
    vocabularies = {
        k: [v["name"] if isinstance(v, dict) else v for v in vs]
        for k, vs in model["vocabularies"].items()
    }
    assert vocabularies == MESSY_VOCABULARIES
    assert "collation" not in model  # each card's own count (role: copies) is its copies
    (cards_file,) = (root / "cards/messy").iterdir()
    cards = yaml.safe_load(cards_file.read_text(encoding="utf-8"))
    assert len(cards) == 200 and [c["id"] for c in cards] == [slug(c["name"]) for c in cards]
    assert sum(c["copies"] for c in cards) == MESSY_COPIES
    assert all(list(c)[-1] == "copies" for c in cards)  # the count last, after the card's own
    assert cards[0]["rules_text"] == (
        "Destroy an artifact.\nLook at the top three cards of your deck; put one in your hand."
    )  # a multi-line cell, its CRLF (in the CSV) read as one line break
    assert not any(v != v.strip() for c in cards for v in c.values() if isinstance(v, str))
    valid = run(root, "validate", "messy")
    assert valid.exit_code == 0, valid.output
    # the one warning: 481 cards are more than one tuck box on A4 holds (build makes no box)
    assert "200 designs in 1 file: 0 errors, 1 warning, 0 info" in valid.output
    assert "warning[box-too-large] the deck box (481 cards" in valid.output
    printed = run(root, "sheets", "messy")
    assert printed.exit_code == 0 and f"{MESSY_COPIES} copies of 200 designs" in printed.output


def test_the_three_formats_infer_the_same_game(tmp_path: Path) -> None:
    made = {}
    for sheet in ("messy.xlsx", "messy.ods", "messy.csv"):
        root = new_game(tmp_path / sheet, sheet)
        game = (root / "rules/messy/game.yaml").read_text(encoding="utf-8")
        (cards,) = (root / "cards/messy").iterdir()
        model = yaml.safe_load(game)
        assert model["game"].pop("description") == f"Cards from {sheet}."
        made[sheet] = (
            model,
            cards.read_text(encoding="utf-8").split("\n", 1)[1],  # below the comment naming it
            (root / "templates/messy/front.yaml").read_bytes(),
        )
    assert made["messy.xlsx"] == made["messy.ods"] == made["messy.csv"]


def test_the_same_sheet_makes_the_same_bytes(tmp_path: Path) -> None:
    one, two = new_game(tmp_path / "a", "messy.xlsx"), new_game(tmp_path / "b", "messy.xlsx")
    files = sorted(p.relative_to(one) for p in one.rglob("*.yaml"))
    assert len(files) == 6
    assert all((one / f).read_bytes() == (two / f).read_bytes() for f in files)


def _box(element: dict) -> tuple[float, float, float, float]:
    x, y, w, h = (float(str(element[k]).removesuffix("mm")) for k in ("x", "y", "w", "h"))
    return x, y, x + w, y + h


def _placed(page: object) -> int:
    """How many faces a page of the print sheets draws (forms, or drawn on the page)."""
    return len(placed_faces(page))


def test_the_messy_game_builds_with_a_readable_front(tmp_path: Path) -> None:
    import pypdf
    import pypdfium2

    root = new_game(tmp_path, "messy.xlsx")
    front = yaml.safe_load((root / "templates/messy/front.yaml").read_text(encoding="utf-8"))
    shown = {e["id"]: _box(e) for e in front["elements"] if "x" in e}
    content = ["name", "cost", "facts", "rules", "atk", "hp", "power_level", "footer"]
    assert set(content) <= set(shown)
    for i, a in enumerate(content):  # nothing that carries a value overlaps anything else
        for b in content[i + 1 :]:
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = shown[a], shown[b]
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (a, b)
        x0, y0, x1, y1 = shown[a]
        assert 3 <= x0 and x1 <= 60 and 3 <= y0 and y1 <= 85, a  # inside the safe zone
    built = run(root, "build", "messy", "--no-png")
    assert built.exit_code == 0, built.output
    pdf = root / "output/messy/sheets.pdf"
    reader = pypdf.PdfReader(pdf)
    placed = [_placed(p) for p in reader.pages]
    assert len(reader.pages) == 108 and sum(placed[0::2]) == sum(placed[1::2]) == MESSY_COPIES
    first = reader.pages[0].extract_text()
    assert "Dusk Lancer" in first and "Keywords: Flying" in first and "ATK" in first
    page = pypdfium2.PdfDocument(str(pdf))[0].render(scale=0.5).to_pil().convert("L")
    ink = sum(page.histogram()[:128]) / (page.width * page.height)
    assert 0.05 < ink < 0.6  # cards are printed, not a blank or solid page


def table(name: str, header: Sequence[Value], rows: Sequence[Sequence[Value]]) -> Table:
    def cells(r: int, values: Sequence[Value]) -> list[Cell]:
        return [Cell(f"t.csv:{chr(65 + c)}{r}", v) for c, v in enumerate(values)]

    return Table(name, cells(1, header), [cells(r, row) for r, row in enumerate(rows, 2)])


def test_an_all_empty_column_is_a_text_field_and_a_number_among_text_stays_text() -> None:
    rows = [[f"Card {n}", None, "A quiet night." if n != 3 else 42, "x"] for n in range(6)]
    made = infer([table("Cards", ["Name", "Notes", "Flavor", "Tag"], rows)])
    kinds = {c.field: (c.kind, c.why) for c in made.columns}
    assert kinds == {
        "name": ("name", "the card's name"),
        "notes": ("text", "empty in the sheet: kept as text, so the column has a field"),
        "flavor": ("enum", "2 values repeated over 6 cards: an enumeration"),
        "tag": ("enum", "1 value repeated over 6 cards: an enumeration"),
    }
    rows = [[f"Card {n}", f"Line {n} of a longer story." if n != 3 else 42] for n in range(6)]
    made = infer([table("Cards", ["Name", "Story"], rows)])
    (story,) = [c for c in made.columns if c.field == "story"]
    assert (story.kind, story.why) == ("text", "text (1 of 6 values are numbers)")
    assert made.tables[0][1][3] == {"id": "card-3", "name": "Card 3", "story": "42"}


def test_a_header_of_duplicates_gets_numbered_fields() -> None:
    made = infer([table("Cards", ["Name", "Text", "Text", "text "], [["A", "x", "y", "z"]] * 2)])
    assert [c.field for c in made.columns] == ["name", "text", "text_2", "text_3"]
    assert made.notes == [
        "Cards: column C repeats the header 'Text': field 'text_2'",
        "Cards: column D repeats the header 'text': field 'text_3'",
    ]
    assert [c["id"] for c in made.tables[0][1]] == ["a", "a-2"]  # one id each, for `sheet pull`


def test_a_sheet_with_only_a_header_writes_nothing(tmp_path: Path) -> None:
    sheet = tmp_path / "empty.csv"
    sheet.write_text("Card Name,Cost,Rules Text\r\n,,\r\n", encoding="utf-8")
    root = tmp_path / "studio"
    root.mkdir()
    with pytest.raises(CardgenError, match="no cards"):
        scaffold_from_sheet(root, "empty", sheet)
    assert not any(root.iterdir())


def test_edge_columns_still_make_a_game_that_validates_clean(tmp_path: Path) -> None:
    sheet = tmp_path / "odd.csv"
    sheet.write_text(
        "Title,Notes,Flavor,Text,Text,Qty,Code\r\n"
        + "".join(
            f"Odd {n},,{'Said once.' if n != 2 else '42'},Rule {n}.,{n},{n % 2},00{n}\r\n"
            for n in range(5)
        ),
        encoding="utf-8",
    )
    root = tmp_path / "studio"
    root.mkdir()
    result = scaffold_from_sheet(root, "odd", sheet)
    model = yaml.safe_load((root / "rules/odd/game.yaml").read_text(encoding="utf-8"))
    assert {k: v["type"] for k, v in model["fields"].items()} == {
        "name": "text",
        "notes": "text",
        "flavor": "enum",  # 'Said once.' four times and '42' once
        "text": "text",
        "text_2": "integer",
        "copies": "integer",
        "code": "text",  # '001': a leading zero is meant, so text
    }
    assert model["fields"]["copies"] == {
        "type": "integer",
        "min": 0,
        "label": "Qty",
        "role": "copies",
    }
    assert "collation" not in model
    assert "odd: column E repeats the header 'Text': field 'text_2'" in result.notes
    valid = run(root, "validate", "odd", "--format", "json")
    assert valid.exit_code == 0 and yaml.safe_load(valid.output)["findings"] == []
    printed = run(root, "sheets", "odd")  # 'copies: 0' on three cards: they are not printed
    assert printed.exit_code == 0 and "2 copies of 2 designs" in printed.output, printed.output


def test_several_sheets_make_one_card_file_each() -> None:
    made = infer(
        [
            table("Creatures", ["Name", "Power"], [["Wolf", 2], ["Bear", 4]]),
            table("Spells", ["Name", "Rules"], [["Zap", "Deal 1."], ["Wolf", "Howl."]]),
        ]
    )
    assert [(name, [c["id"] for c in cards]) for name, cards in made.tables] == [
        ("Creatures", ["wolf", "bear"]),
        ("Spells", ["zap", "wolf-2"]),
    ]
    # a column of one tab is on that tab's cards only: not required of all four (the designer's
    # trial #4: five tabs of their own columns, 154 missing-field errors)
    assert [(c.field, c.kind, c.filled, c.rows, c.required) for c in made.columns] == [
        ("name", "name", 4, 4, True),
        ("power", "integer", 2, 4, False),
        ("rules", "text", 2, 4, False),
    ]


def test_a_cost_column_and_bracketed_symbols_make_a_cost_grammar(tmp_path: Path) -> None:
    sheet = tmp_path / "costs.csv"
    rows = [
        ("Ember Guard", "RR", "Guard. Pay [R]: +1 power.", "2"),
        ("Tide Caller", "{2}{U}", "Draw a card.", "x"),
        ("Firestorm", "R, Discard a card", "Deal 3 damage.", ""),
        ("Still Water", "U", "Return a creature. Costs {U} less.", "1"),
        ("Tidal Surge", "Tap two creatures", "Draw two cards.", "3"),
    ]
    sheet.write_text(
        "Name,Cost,Rules Text,Power\n" + "".join(f'{n},"{c}","{t}",{p}\n' for n, c, t, p in rows),
        encoding="utf-8",
    )
    root = tmp_path / "studio"
    root.mkdir()
    scaffold_from_sheet(root, "costs", sheet)
    model = yaml.safe_load((root / "rules/costs/game.yaml").read_text(encoding="utf-8"))
    assert model["fields"]["cost"] == {"type": "cost", "required": True, "label": "Cost"}
    power = {"type": "int-or-x", "min": 1, "max": 3, "label": "Power", "role": "attack"}
    assert model["fields"]["power"] == power
    assert [s["letter"] for s in model["cost"]["symbols"]] == ["R", "U"]
    assert model["cost"]["generic"] is True and model["text"]["fields"] == ["rules_text"]
    front = (root / "templates/costs/front.yaml").read_text(encoding="utf-8")
    assert "type: icons" in front and "cost().clauses" in front
    valid = run(root, "validate", "costs", "--format", "json")
    found = [(f["code"], f["card"]) for f in yaml.safe_load(valid.output)["findings"]]
    assert valid.exit_code == 0 and found == [  # free-text costs, as the grammar reports them
        ("cost-clause", "firestorm"),
        ("cost-clause", "tidal-surge"),
    ]


def test_a_formula_without_a_saved_value_is_an_error_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Cards"
    for row in (["Name", "Cost", "Score"], ["Alpha", 1, "=B2*2"], ["Beta", 2, "=B3*2"]):
        sheet.append(row)
    book.save(tmp_path / "fresh.xlsx")  # as openpyxl writes it: formulas with no saved values
    root = tmp_path / "studio"
    root.mkdir()
    result = scaffold_from_sheet(root, "fresh", tmp_path / "fresh.xlsx")
    assert [(f.code, f.cell) for f in result.findings] == [
        ("sheet-formula-no-value", "fresh.xlsx:Cards!C2"),
        ("sheet-formula-no-value", "fresh.xlsx:Cards!C3"),
    ]
    assert result.failed() and result.outputs == [] and not any(root.iterdir())


def test_card_files_read_back_as_exactly_the_values_of_the_cells(tmp_path: Path) -> None:
    from cardgen.load.yamlio import load_yaml

    odd = [
        "yes", "No", "42", "a: b", "#tag", "- dash", "[x]", "{y}", "ends:", "it's", 'say "hi"',
        "Ünïcode ✓", "tab\there", " lead\nnext", "two\nlines", "x # y", "null", "1e3", "0x1F",
    ]  # fmt: skip
    cards: list[dict[str, object]] = [
        {"id": f"c{n}", "name": f"Card {n}", "text": v, "tags": ["a, b" if n == 0 else v]}
        for n, v in enumerate(odd)
    ]
    text = cards_yaml(cards, "Cards", "odd.csv")
    assert yaml.safe_load(text) == cards
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    doc = load_yaml(path, "cards/odd/cards.yaml")  # as cardgen itself reads it
    assert doc.findings == [] and [{k: v for k, v in c.items()} for c in doc.data] == cards


def test_costs_like_2r_are_costs_and_symbols_take_their_factions_colours(tmp_path: Path) -> None:
    sheet = tmp_path / "mixed.csv"
    rows = [
        ("Ember Guard", "2R", "Red"),
        ("Tide Caller", "4UU", "Blue"),
        ("Firestorm", "RR", "Red"),
        ("Still Water", "1U", "Blue"),
        ("Grove Keeper", "3G", "Green"),
        ("Old Oak", "G", "Green"),
    ]
    sheet.write_text(
        "Name,Cost,Faction\n" + "".join(f"{n},{c},{f}\n" for n, c, f in rows), encoding="utf-8"
    )
    root = tmp_path / "studio"
    root.mkdir()
    scaffold_from_sheet(root, "mixed", sheet)
    model = yaml.safe_load((root / "rules/mixed/game.yaml").read_text(encoding="utf-8"))
    assert model["fields"]["cost"]["type"] == "cost" and model["cost"]["generic"] is True
    frames = {v["name"]: v["color"] for v in model["vocabularies"]["faction"]}
    symbols = {s["letter"]: s["color"] for s in model["cost"]["symbols"]}
    assert symbols["R"] == frames["Red"] and symbols["G"] == frames["Green"]
    assert symbols["U"] not in frames.values()  # no faction starts with U: a colour of its own
    valid = run(root, "validate", "mixed", "--format", "json")
    assert valid.exit_code == 0 and yaml.safe_load(valid.output)["findings"] == []


def test_push_writes_the_sheets_own_headers_and_one_copies_column(tmp_path: Path) -> None:
    from cardgen.core.workspace import Workspace
    from cardgen.jobs.sheet import pull_sheet, push_sheet

    root = new_game(tmp_path, "messy.csv")
    ws = Workspace(root)
    for suffix in ("csv", "xlsx", "ods"):
        out = root / f"pushed.{suffix}"
        push_sheet(ws, "messy", out)
        if suffix == "csv":
            header = out.read_text(encoding="utf-8-sig").splitlines()[0].split(",")
            assert header == [
                "id",
                "file",
                "Card Name *",
                "COST *",
                "Type *",
                "faction *",  # no label: the header folds to the field's name
                "Rarity *",
                "Keywords",
                "Rules Text *",
                "flavor text",
                "ATK",
                "HP",
                "Qty",  # the copies, once
                "Power Level *",
            ]
        before = {p: p.read_bytes() for p in sorted((root / "cards").rglob("*.yaml"))}
        result, plan = pull_sheet(ws, "messy", str(out))
        assert plan.changes == [] and not result.failed()
        assert [f.code for f in result.findings if f.code.startswith("sheet-")] == []
        assert {p: p.read_bytes() for p in before} == before


def test_a_copies_header_keeps_its_own_spelling_in_a_push(tmp_path: Path) -> None:
    """'Copies' stays 'Copies' (the designer's trial #3: a push wrote 'copies')."""
    from cardgen.core.workspace import Workspace
    from cardgen.jobs.sheet import pull_sheet, push_sheet

    sheet = tmp_path / "piles.csv"
    sheet.write_text(
        "Name,Text,Copies\r\n" + "".join(f"Pile {n},Gain {n}.,{n + 1}\r\n" for n in range(4)),
        encoding="utf-8",
    )
    root = tmp_path / "studio"
    root.mkdir()
    scaffold_from_sheet(root, "piles", sheet)
    model = yaml.safe_load((root / "rules/piles/game.yaml").read_text(encoding="utf-8"))
    assert model["fields"]["copies"]["label"] == "Copies"
    ws = Workspace(root)
    out = root / "pushed.csv"
    push_sheet(ws, "piles", out)
    assert out.read_text(encoding="utf-8-sig").splitlines()[0].split(",")[-1] == "Copies"
    result, plan = pull_sheet(ws, "piles", str(out))
    assert plan.changes == [] and not result.failed()


def test_a_title_row_and_a_merged_header_in_new_and_pull(tmp_path: Path) -> None:
    import openpyxl

    from cardgen.core.workspace import Workspace
    from cardgen.jobs.sheet import pull_sheet

    def book(name: str, rows: list[list[object]], merged: str) -> Path:
        wb = openpyxl.Workbook()
        page = wb.active
        page.title = "Cards"
        for row in rows:
            page.append(row)
        page.merge_cells(merged)
        wb.save(root / name)
        return root / name

    root = tmp_path / "studio"
    root.mkdir()
    cards = [["Orb", "Spell", 2, 3], ["Rune", "Unit", 1, 1], ["Gem", "Unit", 2, 2]]
    titled = book(
        "t.xlsx", [["Mygame card list v3"], ["Name", "Type", "Attack", "Health"], *cards], "A1:D1"
    )
    made = scaffold_from_sheet(root, "titled", titled)
    assert [(f.code, f.cell) for f in made.findings] == [("sheet-title-row", "t.xlsx:Cards!A1")]
    assert (root / "cards/titled/cards.yaml").is_file()
    _, plan = pull_sheet(Workspace(root), "titled", str(titled))
    assert plan.changes == [] and not plan.failed
    merged = book("m.xlsx", [["Name", "Type", "Attack / Health", None], *cards], "C1:D1")
    made = scaffold_from_sheet(root, "merged", merged)
    said = [(f.code, f.cell, f.message) for f in made.findings]
    assert [s[:2] for s in said] == [("sheet-merged-header", "m.xlsx:Cards!C1")]
    assert not (root / "rules/merged").exists()
    result, _ = pull_sheet(Workspace(root), "titled", str(merged))
    assert [
        (f.code, f.cell, f.message) for f in result.findings if f.code.startswith("sheet-")
    ] == said


def _from_csv(tmp_path: Path, game: str, text: str) -> Path:
    """A workspace with GAME made by `new --from` a CSV of `text` (no finding): its root."""
    root = tmp_path / "studio"
    root.mkdir(exist_ok=True)
    sheet = tmp_path / f"{game}.csv"
    sheet.write_text(text)
    assert scaffold_from_sheet(root, game, sheet).findings == []
    return root


def test_stat_badges_grow_to_hold_their_labels(tmp_path: Path) -> None:
    """Headers whose labels would cross an 8.2 mm circle's edge ('COÛT', 'POW'): the foot's
    badges grow together (up to 10 mm) and the game validates with no finding; a label too wide
    even for 10 mm is cut short."""
    from cardgen.sheet.infer_face import foot_badges

    root = _from_csv(
        tmp_path, "stats", "Name,Coût,Rules,Power,ATK,HP\nAlpha,2,Draw.,3,1,2\nBeta,1,Hit.,2,2,2\n"
    )
    front = (root / "templates" / "stats" / "front.yaml").read_text()
    assert front.count("w: 9.5mm, h: 9.5mm") == 4 and "w: 8.2mm" not in front
    valid = run(root, "validate", "stats", "--format", "json")
    assert valid.exit_code == 0 and yaml.safe_load(valid.output)["findings"] == []
    assert foot_badges(["HP", "ATK"]) == (8.2, ["HP", "ATK"])  # they fit: as before
    size, labels = foot_badges(["WWWW"])
    assert size <= 10.0 and labels[0] in ("W", "WW", "WWW")


def test_the_rules_columns_are_where_keywords_are_read(tmp_path: Path) -> None:
    """The model names the columns the front prints as rules text in `text.fields`, so a
    glossary added afterwards finds its keywords there (it read only a field named 'text')."""
    root = _from_csv(
        tmp_path,
        "harbour",
        "Name,Cost,Rules Text (EN)\n"
        "Cutter,2,Sail 2. Then draw a card and keep it until the end of your turn.\n"
        "Hulk,1,Moor. Gain a coin for each ship you have moored this round.\n",
    )
    model = root / "rules" / "harbour" / "game.yaml"
    assert "  fields: [rules_text_en]  # the rules text: keywords are read here\n" in (
        model.read_text()
    )
    with model.open("a") as f:
        f.write(
            "keywords:\n  - {name: Sail, reminder: Move.}\n  - {name: Moor, reminder: Stop.}\n"
            "  - {name: Guide, reminder: Help.}\n"
        )
    valid = run(root, "validate", "harbour", "--format", "json")
    found = yaml.safe_load(valid.output)["findings"]
    assert [(f["code"], f["message"]) for f in found] == [
        ("keyword-unused", "no card uses the keyword 'Guide'")
    ]


def test_a_column_of_picture_files_is_the_cards_art(tmp_path: Path) -> None:
    """An 'Art' column of PNG paths becomes an image field with role art, drawn in the front's art
    place (it was printed as the words 'Art: art/low.png'); a picture too coarse for its box is
    an error located at the art's own cell."""
    from PIL import Image

    root = _from_csv(
        tmp_path,
        "art",
        "Name,Cost,Rules,Art\n"
        "Alpha,2,Draw a card and then discard a card at random from your hand.,art/low.png\n"
        "Beta,1,Gain two coins and then lose one coin at the end of the turn.,\n",
    )
    sheet = tmp_path / "art.csv"
    (root / "art").mkdir()
    Image.new("RGB", (60, 40), (100, 50, 20)).save(root / "art" / "low.png")
    model = (root / "rules" / "art" / "game.yaml").read_text()
    assert "  art: {type: image, label: Art, role: art}\n" in model
    front = (root / "templates" / "art" / "front.yaml").read_text()
    assert 'type: image, x: 4.4mm, y: 12.5mm, w: 54.2mm, h: 36.5mm, src: "{{ card.art }}"' in front
    assert "**Art:**" not in front
    assert run(root, "sheet", "pull", "art", str(sheet)).exit_code == 1  # the coarse picture
    valid = run(root, "validate", "art", "--format", "json")
    found = yaml.safe_load(valid.output)["findings"]
    assert [(f["code"], f["card"], f["cell"]) for f in found] == [
        ("art-low-resolution", "alpha", f"{sheet}:D2")  # the art's cell, not the row's first
    ]


def test_an_enumeration_prints_its_name_in_the_edition_built(tmp_path: Path) -> None:
    """The front prints an enumeration's value by its vocabulary name: a German edition shows
    `name@de` ('Schiff'), not the cards' own 'Ship'."""
    from cardgen.core.workspace import Workspace
    from cardgen.project.studio import open_studio

    root = _from_csv(
        tmp_path, "ships", "Name,Type\nCutter,Ship\nHulk,Ship\nLamp,Tower\nBeacon,Tower\n"
    )
    front = (root / "templates" / "ships" / "front.yaml").read_text()
    assert "{{ attr('type', 'name', card.type) }}" in front
    model = root / "rules" / "ships" / "game.yaml"
    text = model.read_text().replace("    - {name: Ship, ", "    - {name: Ship, name@de: Schiff, ")
    assert "Schiff" in text
    model.write_text(
        text + "editions:\n  default: en\n  languages:\n    en: {name: English}\n"
        "    de: {name: Deutsch}\n"
    )
    words = []
    for edition in ("", "de"):
        studio = open_studio(Workspace(root, edition=edition), "ships")
        card = studio.catalog.by_id()["cutter"]
        face, _ = studio.prepare(card)
        words.append(" ".join(str(op.props.get("text", "")) for op in face.ops))
    assert "Ship" in words[0] and "Schiff" not in words[0]
    assert "Schiff" in words[1]


def test_a_slip_in_the_sheet_stays_a_slip_the_validator_reports(tmp_path: Path) -> None:
    """'Acton' once beside ten 'Action' is left out of the vocabulary, and 'two' in a column of
    whole numbers keeps the column a whole number: both are errors at their cells, not new
    values of the game."""
    sheet = tmp_path / "hearth.csv"
    rows = ["Name,Type,Cost,Text"]
    for n in range(14):
        kind = "Treasure" if n < 3 else "Acton" if n == 7 else "Action"
        cost = "two" if n == 9 else str(n % 5 + 1)
        rows.append(f"Card {n},{kind},{cost},Gain {n} coins.")
    sheet.write_text("\n".join(rows) + "\n")
    made = infer(read_tables(sheet, sheet.name)[0])
    kinds = {c.field: (c.kind, c.vocab, c.why) for c in made.columns if c.field in ("type", "cost")}
    assert kinds == {
        "type": (
            "enum",
            ["Action", "Treasure"],
            "2 values repeated over 14 cards: an enumeration; 'Acton' looks like a slip for "
            "'Action': left out",
        ),
        "cost": (
            "integer",
            [],
            "every value a whole number, 1 to 5; not 'two': kept as written, an error to fix",
        ),
    }
    root = tmp_path / "studio"
    root.mkdir()
    assert scaffold_from_sheet(root, "hearth", sheet).findings == []
    done = run(root, "validate", "hearth")
    assert done.exit_code == 1
    errors = [line for line in done.output.splitlines() if ": error[" in line]
    assert errors == [
        "cards/hearth/hearth.yaml:47:3: error[unknown-value] card-7: unknown type 'Acton' (did "
        "you mean 'Action'?)",
        "cards/hearth/hearth.yaml:60:3: error[wrong-type] card-9: 'cost' must be a whole number, "
        "got 'two'",
    ], done.output


def test_only_a_typing_slip_is_taken_for_one() -> None:
    """A value one slip from a common one is a slip; a value of its own that merely looks alike
    (Uncommon beside Common, Tier 2 beside Tier 1, Set B beside Set A) is kept; a decimal or a
    sign in a column of numbers is no stray word."""
    from cardgen.sheet.infer_values import misspelt, stray_words

    assert misspelt(["Action"] * 10 + ["Acton", "Treasrue"] + ["Treasure"] * 3) == {
        "Acton": "Action",
        "Treasrue": "Treasure",
    }
    for common, rare in (("Common", "Uncommon"), ("Tier 1", "Tier 2"), ("Set A", "Set B")):
        assert misspelt([common] * 6 + [rare]) == {}, rare
    numbers = [str(n % 5) for n in range(20)]
    assert stray_words([*numbers, "two"], [*map(int, numbers), None]) == ["two"]
    for other in ("2.5", "-", "*"):
        assert stray_words([*numbers, other], [*map(int, numbers), None]) is None, other


def test_a_start_column_is_each_players_starting_copies() -> None:
    """'Start' (the designer's trial #4): role per-player, 0 at least, never required; the copies
    column has no most, so a print run may grow."""
    made = infer(
        [
            table(
                "Cards",
                ["Name", "Qty", "Start"],
                [["Copper", 12, 7], ["Estate", 8, 3], ["Market", 10, None]],
            )
        ]
    )
    start = next(c for c in made.columns if c.field == "start")
    assert (start.kind, start.role, start.minimum, start.required) == (
        "integer",
        "per-player",
        0,
        False,
    )
    copies = next(c for c in made.columns if c.role == "copies")
    assert copies.minimum == 0 and "max: " not in " ".join(_spec(copies))
