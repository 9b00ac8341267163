"""Rulebook: Markdown chapters + the game model + card faces -> HTML (Jinja2) -> PDF (WeasyPrint)."""
