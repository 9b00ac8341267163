"""Print run: which cards, how many, on what paper; print sheets and PNG faces."""
