"""Turn one card file, however large within its bounds, into a located document: a large file is
parsed in runs of whole cards, so memory holds one run's parse tree at a time; a file past a bound
(its size, or the values it holds) is one finding on that file saying the bound and how to raise it
or split the file."""

from __future__ import annotations

import math
from pathlib import Path

import yaml

from ..core.errors import Finding, Severity
from .yamlio import LocList, YamlDoc, _BaseLoader, parse_into, read_text
from .yamltext import sequence_pieces

CARD_FILE_MB = 64  # a card file larger than this is refused, unless game.yaml's reading: raises it
MOST_CARD_FILE_MB = 512  # what `reading: card_file_mb` may raise it to
MAX_VALUES = 6_000_000  # values (mappings, lists, scalars) in one card file: 64 MB of terse cards
PIECE_BYTES = 1 << 20  # a large file is parsed in runs of whole cards of about this size


def card_file_bytes(mb: int | None) -> int:
    """The card-file size bound in bytes for a `reading: card_file_mb` (None: the default)."""
    return (mb or CARD_FILE_MB) * 1024 * 1024


def load_card_file(path: Path, shown: str, max_bytes: int = card_file_bytes(None)) -> YamlDoc:
    """One card file's document; bad content and passed bounds are findings, never raised. A file
    of up to two pieces is parsed whole; a larger one in runs of whole cards, the same parse."""
    doc, text = read_text(
        path,
        shown,
        max_bytes,
        limit="card files are limited to {mb} MB (game.yaml `reading: card_file_mb`)",
        hint=f"split the cards into several files, or raise `card_file_mb` under `reading:` in "
        f"game.yaml, up to {MOST_CARD_FILE_MB}",
    )
    if text is None:
        return doc
    if len(text) <= 2 * PIECE_BYTES:
        return parse_into(doc, text)
    pieces = sequence_pieces(text, math.ceil(len(text) / PIECE_BYTES))
    if pieces:
        parsed, values = [], 0
        for line, piece in pieces:
            part = parse_into(YamlDoc(path=path, shown=shown), piece, line)
            part.text = ""  # the whole text is kept once, on the joined document
            values += part.values
            if part.findings or not isinstance(part.data, list):
                break  # parsed whole below, which reports the mistake as it stands in the file
            if values > MAX_VALUES:
                return _too_many(doc, line)
            parsed.append(part)
        else:
            joined = join_pieces(path, shown, text, parsed)
            if joined is not None:
                joined.values = values
                return joined
    if _values_past(text, MAX_VALUES):  # before a whole-file parse tree is built
        return _too_many(doc, 1)
    return parse_into(doc, text)


def join_pieces(path: Path, shown: str, text: str, docs: list[YamlDoc]) -> YamlDoc | None:
    """The file's parse from its pieces' (sequence_pieces), or None when one of them is not a clean
    list."""
    if any(d.findings or not isinstance(d.data, list) for d in docs):
        return None
    data = LocList.at(docs[0].data.loc)
    for d in docs:
        for index, value in enumerate(d.data):
            data.put(value, d.data.item_loc(index))
    return YamlDoc(path=path, shown=shown, data=data, text=text)


def _values_past(text: str, limit: int) -> bool:
    """Whether the text holds more than `limit` values, counted from the parser's events (nothing
    is kept); a syntax error is not this question's: the parse reports it."""
    loader = _BaseLoader(text)
    count = 0
    starts = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)
    try:
        while loader.check_event():
            if isinstance(loader.get_event(), starts):
                count += 1
                if count > limit:
                    return True
    except yaml.YAMLError:
        return False
    finally:
        loader.dispose()
    return False


def _too_many(doc: YamlDoc, line: int) -> YamlDoc:
    doc.findings.append(
        Finding(
            doc.shown,
            line,
            1,
            Severity.ERROR,
            "file-too-many-values",
            None,
            f"file holds more than {MAX_VALUES:,} values (fields, list items and cards); a card "
            f"file is limited to that many, whatever its size, so that reading it stays within "
            f"memory",
            "split the cards into several files",
        )
    )
    doc.text = ""
    return doc
