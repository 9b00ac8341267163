"""cardgen: print-and-play card production from YAML — validator, print sheets, packs and
rulebooks."""

__version__ = "0.1.0"
