"""The card gallery (a static page with every face and its findings), its live server, and the set
report."""
