"""Load: located YAML, card files into a Catalog, and their plain-data form for the caches."""
