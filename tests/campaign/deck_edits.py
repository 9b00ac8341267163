"""The campaign's deck-list mistakes: too many copies, unknown cards, sections the format does not
declare, counts and signatures, group and suit limits, a format name that does not exist."""

from __future__ import annotations

from .harness import Edit, workspace_of

AD = "decks/aether-duel/chaos-burn.txt"
PT = "decks/power-trip/dark-sacrifice.txt"
IV = "decks/ivion/steward.txt"
LAN = "decks/lantern/court.txt"


def d(name: str, file: str, old: str, new: str, code: str | None, **kw: object) -> Edit:
    ws = workspace_of(file)
    return Edit(name, "deck", ws, file, old, new, code, **kw)  # type: ignore[arg-type]


EDITS = [
    d("ad-too-many-copies", AD, "- 5x Wildfire", "- 6x Wildfire", "deck-copies"),
    d("ad-unknown-card", AD, "- 5x Insight", "- 5x Insigt", "deck-unknown-card"),
    d("ad-sideboard-typo", AD, "Sideboard:", "Side board:", "deck-unknown-section", owner="B"),
    d("ad-undeclared-section", AD, "Sideboard:", "Maybeboard:", "deck-unknown-section", owner="B"),
    d("ad-card-list-renamed", AD, "Card List:", "Cards:", "deck-unknown-section", owner="B"),
    d("ad-monster-missing", AD, "Monster: Ember Wyrm\n", "", "deck-section", line=1, also=(2, 0)),
    d(
        "ad-monster-not-monster",
        AD,
        "Monster: Ember Wyrm",
        "Monster: Cinder Burst",
        "deck-wrong-section",
    ),
    d(
        "ad-sideboard-short",
        AD,
        "- 4x Aether Siphon",
        "- 3x Aether Siphon",
        "deck-section",
        line=15,
        also=(16, 20),
    ),
    d(
        "ad-monster-in-main",
        AD,
        "- 5x Quick Study",
        "- 4x Quick Study\n- 1x Hollow Shade",
        "deck-wrong-section",
        dline=1,
        also=(14,),
    ),
    d("ad-count-as-word", AD, "- 5x Backfire", "- five Backfire", "deck-unknown-card|deck-line"),
    d("pt-too-few", PT, "2 Die!", "1 Die!", "deck-size", line=1, also=(0, 3, 4)),
    d("pt-unknown-card", PT, "2 Ghoul", "2 Goul", "deck-unknown-card"),
    d("pt-count-after-name", PT, "2 Ghoul", "Ghoul 2", "deck-unknown-card|deck-line"),
    d("iv-unknown-card", IV, "3 Hammer Strike", "3 Hammer Strik", "deck-unknown-card"),
    d("iv-signature", IV, "Ultimate - Shield Slam.", "Ultimate - Strike.", "deck-signature"),
    d(
        "iv-class-typo",
        IV,
        "Warrior Cards:",
        "Warior Cards:",
        "deck-group",
        message="did you mean 'Warrior'?",
    ),
    d(
        "lan-three-suits",
        LAN,
        "4 Ashgrove Warden\n",
        "4 Ashgrove Warden\n1 Tidecaller\n",
        "deck-distinct",
        dline=1,
        also=(1, 2, 3),
    ),
    d(
        "lan-relic-twice",
        LAN,
        "4 Ashgrove Warden\n",
        "2 Ashgrove Warden\n2 Stone Idol\n",
        "deck-copies",
        dline=1,
    ),
    d("lan-too-few", LAN, "4 Ashgrove Warden\n", "3 Ashgrove Warden\n", "deck-size", also=(1, 2)),
    d(
        "lan-rules-typo",
        LAN,
        "# rules: draft",
        "# rules: draf",
        None,
        exit=2,
        message="did you mean 'draft'?",
    ),
]
