"""Jobs: one module per command, saying what it makes, in order."""
