"""Pack formats, seeded dealing (exhaust and slots), draft simulation, and fairness statistics."""
