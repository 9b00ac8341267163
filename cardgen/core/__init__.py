"""Core: errors, units, paths, atomic output, the template sandbox: nothing of cardgen's
pipeline."""
