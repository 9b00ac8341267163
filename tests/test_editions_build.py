"""The editions fixture game (tests/fixtures/editions, sample content written for the tests) built
as a designer would: `cardgen build` writes the English edition into output/editions/ and the German
one into output/editions@de/, both with zero findings; here the German faces, version marks, print
sheets, Tabletop Simulator save, Cockatrice database, rulebook and set report are read back."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardgen.core.workspace import Workspace
from cardgen.model.text import BOLD
from cardgen.project.changes import card_version
from cardgen.project.editions import with_edition
from cardgen.project.studio import Studio, open_studio

from .conftest import TESTS

EDITIONS = TESTS / "fixtures" / "editions"
GERMAN = {
    "Ember Warden": "Glutwächter",
    "Cinder Scout": "Aschenspäher",
    "Kindle": "Entfachen",
    "Ash Hound": "Aschehund",
    "Wildfire": "Flächenbrand",
    "Tide Caller": "Flutruferin",
    "Harbour Guard": "Hafenwache",
    "Undertow": "Sog",
    "Mist Runner": "Nebelläuferin",
    "Great Wave": "Große Welle",
}


@dataclass
class Built:
    root: Path
    stdout: str

    def out(self, edition: str = "") -> Path:
        return self.root / "output" / ("editions" + (f"@{edition}" if edition else ""))


def cardgen(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardgen", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("editions") / "ws"
    shutil.copytree(EDITIONS, root)
    done = cardgen(root, "build", "editions", "--exports", "tts,cockatrice")
    assert done.returncode == 0, done.stdout + done.stderr
    return Built(root, done.stdout)


def studio(root: Path, edition: str = "") -> Studio:
    return open_studio(with_edition(Workspace.find(root), "editions", edition or None), "editions")


def test_the_build_writes_both_editions_with_zero_findings(built: Built) -> None:
    for edition in ("", "de"):
        out = built.out(edition)
        report = (out / "validation.txt").read_text(encoding="utf-8")
        assert report.strip() == "editions: 10 designs in 2 files: 0 errors, 0 warnings, 0 info"
        for name in ("sheets.pdf", "rulebook.pdf", "report/index.html", "png/back-back.png"):
            assert (out / name).is_file(), (edition, name)
    shown = built.stdout
    assert "output/editions/sheets.pdf" in shown and "output/editions@de/sheets.pdf" in shown
    assert "findings:" not in shown  # none to count


def test_the_german_faces_say_everything_in_german(built: Built) -> None:
    page = PdfReader(built.out("de") / "sheets.pdf").pages[0].extract_text()
    for german in ("Glutwächter", "Glut · Einheit", "Wache", "KRA", "Beispielkarte"):
        assert german in page
    english = PdfReader(built.out() / "sheets.pdf").pages[0].extract_text()
    for word in ("Ember Warden", "Ember · Unit", "Guard", "POW", "Sample card"):
        assert word in english and word not in page
    backs = PdfReader(built.out("de") / "sheets.pdf").pages[1].extract_text()
    assert "HAUPTDECK" in backs and "MAIN DECK" not in backs


def test_the_german_keyword_is_bolded(built: Built) -> None:
    for edition, keyword, rest in (("de", "Wache", "Wenn"), ("", "Guard", "When")):
        opened = studio(built.root, edition)
        front, _ = opened.prepare(opened.catalog.find("ember-warden"))  # type: ignore[arg-type]
        (rules,) = [op for op in front.ops if op.props.get("_id") == "rules"]
        assert rules.fit is not None
        atoms = [a for line in rules.fit.layout.lines for word in line.words for a in word]
        styles = {a.text: a.style for a in atoms}
        assert styles[keyword] == BOLD and styles[rest] == 0, (edition, styles)


def test_version_marks_name_the_edition(built: Built) -> None:
    english, german = studio(built.root), studio(built.root, "de")
    card = english.catalog.find("kindle")
    assert card is not None
    mark = card_version(card, english.model)
    assert mark.startswith("#") and " " not in mark
    german_mark = card_version(german.catalog.find("kindle"), german.model)  # type: ignore[arg-type]
    assert german_mark.endswith(" DE") and german_mark != f"{mark} DE"  # its own hash
    page = PdfReader(built.out("de") / "sheets.pdf").pages[0].extract_text()
    assert german_mark.split()[0] in page and " DE" in page


def test_tabletop_simulator_and_cockatrice_get_german_names(built: Built) -> None:
    (save,) = (built.out("de") / "export" / "tts").glob("*.json")
    objects = json.loads(save.read_text(encoding="utf-8"))["ObjectStates"]
    cards = [c for o in objects for c in o.get("ContainedObjects", [o])]
    assert {c["Nickname"] for c in cards} == set(GERMAN.values())
    warden = next(c for c in cards if c["Nickname"] == "Glutwächter")
    assert "Glut Einheit" in warden["Description"] and "Wache" in warden["Description"]
    (english,) = (built.out() / "export" / "tts").glob("*.json")
    assert "Ember Warden" in english.read_text(encoding="utf-8")
    (database,) = (built.out("de") / "export" / "cockatrice").glob("*.xml")
    xml = database.read_text(encoding="utf-8")
    assert "<name>Glutwächter</name>" in xml and "<type>Glut Einheit</type>" in xml


def test_the_german_rulebook_reads_its_chapters_and_falls_back(built: Built) -> None:
    german = "\n".join(p.extract_text() for p in PdfReader(built.out("de") / "rulebook.pdf").pages)
    for text in ("Glut und Flut", "Inhalt", "Grundlagen", "Schlüsselwörter", "Tarnung"):
        assert text in german, text
    assert "Kann im Zug des Ausspielens nicht geblockt werden." in german  # the German reminder
    assert "12 Glutmarker" in german and "Einheit" in german  # components by German names
    assert "12 Einheit-Karten: 6 Glut, 6 Flut" in german  # in the book's own German words
    assert "ANMERKUNG DES AUTORS · OFFENE FRAGE" in german  # a designer note's label (words:)
    # credits.md has no German version: the German book prints the default's
    assert "Sample content written for cardgen’s tests." in german
    assert "Basics" not in german and "Stealth" not in german
    english = "\n".join(p.extract_text() for p in PdfReader(built.out() / "rulebook.pdf").pages)
    assert "Basics" in english and "Stealth" in english and "Grundlagen" not in english


def test_the_set_report_lists_each_editions_smallest_texts(built: Built) -> None:
    page = (built.out() / "report" / "index.html").read_text(encoding="utf-8")
    assert "Texts set smallest, by edition" in page
    assert "<h3>English (en)</h3>" in page and "<h3>Deutsch (de)</h3>" in page
    german = page[page.index("<h3>Deutsch (de)</h3>") :]
    assert "Große Welle <code>great-wave</code></td><td>front</td><td><code>rules</code>" in german
    assert "<td>8.5 pt</td><td>9 pt</td><td>94%</td>" in german
    own = (built.out("de") / "report" / "index.html").read_text(encoding="utf-8")
    assert "<h3>Deutsch (de)</h3>" in own and "<h3>English (en)</h3>" not in own


def test_one_edition_alone_and_changes_per_edition(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(EDITIONS, root)
    done = cardgen(root, "build", "editions", "--edition", "de", "--no-rulebook", "--no-png")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (root / "output").iterdir()) == ["editions@de"]
    git = ["git", "-C", str(root)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run(
        [*git, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "cards"], check=True
    )
    cards = root / "cards" / "editions" / "tide.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(
        text.replace(
            "  text: Return a unit to its owner's hand.", "  text: Return a unit."
        ).replace("  text@de: Tarnung\n", "  text@de: Tarnung.\n"),
        encoding="utf-8",
    )
    english = cardgen(root, "changes", "editions", "HEAD", "--format", "json")
    german = cardgen(root, "changes", "editions", "HEAD", "--edition", "de", "--format", "json")
    assert english.returncode == 0 and german.returncode == 0, english.stderr + german.stderr
    # the English text of Undertow changed (the German edition prints its own); the German text
    # of Mist Runner changed (the English edition does not print it)
    assert [c["id"] for c in json.loads(english.stdout)["changes"]] == ["undertow"]
    (change,) = json.loads(german.stdout)["changes"]
    assert change["id"] == "mist-runner" and change["new_version"].endswith(" DE")
    assert change["fields"] == [{"field": "text", "old": "Tarnung", "new": "Tarnung."}]
    reprint = cardgen(root, "sheets", "editions", "--changed-since", "HEAD", "--edition", "de")
    assert reprint.returncode == 0, reprint.stderr
    assert "output/editions@de/sheets-since-HEAD.pdf" in reprint.stdout
    assert "change log of 1 card since HEAD, 2 copies of 1 design" in reprint.stdout
