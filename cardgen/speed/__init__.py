"""Speed machinery beside the pipeline: the one disk cache (signed plain data), cache keys from the
import graph, the one bounded memo, the one pool policy (with its one fallback) and the twin.

Nothing here changes what cardgen makes, only how fast: with `--no-cache` (or CARDGEN_NO_CACHE=1)
every store, memo and helper process is off and the plain pipeline runs, writing the same bytes.
"""
