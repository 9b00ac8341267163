"""The mistake campaign's data: literal edits of every input kind, each with its finding."""
