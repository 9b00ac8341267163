"""Deck lists: reading the formats designers write, and checking them against a game's deck rules."""
