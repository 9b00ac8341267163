"""Turn a font whose default figures are old-style into one whose digits are its lining figures (the
'lnum' feature frozen into the character map), for tools such as reportlab that cannot apply
OpenType features.

    python tools/lining_figures.py cardgen/data/fonts/Vollkorn-Bold.ttf

Rewrites the file in place; run once per font, by hand (the bundled Vollkorn files have been).
"""

from __future__ import annotations

import sys

from fontTools.ttLib import TTFont


def freeze_lining(path: str) -> int:
    font = TTFont(path)
    mapping: dict[str, str] = {}
    gsub = font["GSUB"].table
    for record in gsub.FeatureList.FeatureRecord:
        if record.FeatureTag == "lnum":
            for index in record.Feature.LookupListIndex:
                for sub in gsub.LookupList.Lookup[index].SubTable:
                    mapping.update(getattr(sub, "mapping", {}) or {})
    changed = 0
    for table in font["cmap"].tables:
        for code, glyph in list(table.cmap.items()):
            if glyph in mapping and chr(code).isdigit():
                table.cmap[code] = mapping[glyph]
                changed += 1
    font.save(path)
    return changed


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(f"{name}: {freeze_lining(name)} digits now lining")
