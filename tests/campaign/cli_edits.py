"""The campaign's command-line mistakes: --only expressions, paper, pack format and card names,
seeds, numbers and files that do not exist. `old` is what the designer meant, `new` what they
typed; a usage error is exit 2 with one line that says what is wrong (and what was meant)."""

from __future__ import annotations

from .harness import Edit


def u(name: str, old: str, new: str, args: tuple[str, ...], **kw: object) -> Edit:
    kw.setdefault("exit", 2)
    return Edit(name, "cli", "fixture", None, old, new, None, game="clean", args=args, **kw)  # type: ignore[arg-type]


EDITS = [
    u(
        "only-unknown-field",
        "card.name",
        "card.nam",
        ("sheets", "GAME", "--only", "card.nam == 'Firestorm'"),
        owner="lead",
        message="did you mean",
    ),
    u(
        "only-unknown-field-export",
        "card.rarity",
        "card.rarty",
        ("export", "GAME", "--png", "--only", "card.rarty == 'rare'"),
        owner="lead",
        message="did you mean",
    ),
    u(
        "only-matches-nothing",
        "Firestorm",
        "Firestrom",
        ("sheets", "GAME", "--only", "card.name == 'Firestrom'"),
        owner="lead",
        exit=0,
        message="matches none",
    ),
    u(
        "only-syntax",
        "==",
        "=",
        ("sheets", "GAME", "--only", "card.rarity = 'rare'"),
        message="--only",
    ),
    u("paper-typo", "a4", "a44", ("sheets", "GAME", "--paper", "a44"), message="'a4'"),
    u(
        "paper-letter-typo",
        "letter",
        "leter",
        ("sheets", "GAME", "--paper", "leter"),
        message="'letter'",
    ),
    u("rulebook-paper-typo", "a5", "a55", ("rulebook", "GAME", "--paper", "a55"), message="a5"),
    u("duplex-typo", "long", "lng", ("sheets", "GAME", "--duplex", "lng"), message="long"),
    u(
        "back-offset-one-number",
        "0.5,-1",
        "0.5",
        ("sheets", "GAME", "--back-offset", "0.5"),
        message="--back-offset",
    ),
    u(
        "pack-format-typo",
        "booster",
        "boster",
        ("packs", "GAME", "--pack-format", "boster"),
        message="did you mean 'booster'",
    ),
    u(
        "draft-format-typo",
        "pod",
        "pood",
        ("draft", "GAME", "--pack-format", "pood"),
        message="did you mean 'pod'",
    ),
    u("seed-word", "7", "seven", ("packs", "GAME", "--seed", "seven"), message="--seed"),
    u("players-zero", "4", "0", ("packs", "GAME", "--players", "0"), message="--players"),
    u("game-typo", "clean", "clen", ("validate", "clen"), message="did you mean 'clean'"),
    u(
        "show-card-typo",
        "Firestorm",
        "Firestrom",
        ("show", "GAME", "Firestrom"),
        message="did you mean 'Firestorm'?",
    ),
    u(
        "deck-file-missing",
        "court.txt",
        "curt.txt",
        ("deck", "check", "GAME", "ROOT/decks/curt.txt"),
        message="no deck list",
    ),
    u("export-target-typo", "tts", "ttss", ("export", "GAME", "--to", "ttss"), message="tts"),
    u(
        "draft-out-quiet",
        "",
        "--out",
        ("draft", "GAME", "--out", "ROOT/output/night"),
        exit=0,
        owner="lead",
        absent='"seats"',
        note="draft --out writes only to the folder",
    ),
]
