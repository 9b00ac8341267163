"""Exports to where designers playtest and print: Tabletop Simulator, Cockatrice, Draftmancer, print on demand."""
