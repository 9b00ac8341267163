"""The contents' second column begins where WeasyPrint would begin it when balancing the columns
(rulebook.contents_break), so the contents page is laid out once instead of balanced."""

from __future__ import annotations

import pytest

from cardgen.rulebook import contents_break


@pytest.mark.parametrize(
    ("sections", "paper", "second"),
    [
        # Power Trip: half-lines 7 5 3 3 3 3 3 3 5 3, the columns 17 and 19 high
        ([2, 1, 0, 0, 0, 0, 0, 0, 1, 0], "a4", 4),
        ([0, 0], "letter", 1),
        ([6, 0, 0], "a4", 1),  # a long chapter alone in the first column
        ([0, 0, 6], "a4", 2),
        ([3], "a4", None),  # one chapter: nothing to break
        ([1, 1, 1, 1], "a5", None),  # one column
        ([1, 1, 1, 1], "half-letter", None),
    ],
)
def test_the_contents_break_where_weasyprint_would_balance(
    sections: list[int], paper: str, second: int | None
) -> None:
    assert contents_break(sections, paper) == second
