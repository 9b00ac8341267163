"""The print-and-play kit: boxes sized from the decks, token sheets, the sleeves cards fit, and the
publishing check of a game's PDFs."""
