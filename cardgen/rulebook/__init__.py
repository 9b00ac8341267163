"""Rulebook: Markdown chapters + the game model + card faces -> HTML (Jinja2) -> PDF (WeasyPrint)."""

# the pages a rulebook is laid out on: its CSS @page size and its width and height in mm
PAGES: dict[str, tuple[str, tuple[float, float]]] = {
    "a4": ("A4", (210, 297)), "letter": ("letter", (215.9, 279.4)), "a5": ("A5", (148, 210))}
