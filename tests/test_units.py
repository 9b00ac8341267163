"""Units are parsed in one place and a bare number is refused."""

import pytest

from cardgen.core.units import UnitError, length, size, size_name


def test_lengths() -> None:
    assert length("25.4mm") == pytest.approx(72)
    assert length("0.125in") == 9
    assert length("9pt") == 9
    assert length(0) == 0


@pytest.mark.parametrize("bad", ["3", 3, "3 furlongs", None, True])
def test_bad_lengths(bad: object) -> None:
    with pytest.raises(UnitError):
        length(bad)


def test_sizes() -> None:
    assert size("poker") == (180, 252)
    assert size("landscape") == size("88mm x 63mm") == size("poker-eu")[::-1]
    assert size_name(size("88mm x 63mm")) == "landscape (88 x 63 mm)"
    w, h = size("63mm x 88mm")
    assert (round(w, 2), round(h, 2)) == (178.58, 249.45)
    with pytest.raises(UnitError):
        size("63 x 88")
