"""Exports to where designers playtest and print: Tabletop Simulator, Cockatrice, Draftmancer, print
on demand."""

TARGETS = ("tts", "cockatrice", "draftmancer", "tgc", "mpc", "dtc")
