"""Turn the heights a column balancing has tried into the next one to try: the smallest height at
which the columns take everything, found by growing the step and then halving the bracket
(WeasyPrint grows the height one pixel at a time when it cannot tell what the next box needs, and
lays the columns out again at each pixel)."""

from __future__ import annotations

import math


class Search:
    """The search for the smallest column height (CSS px) that takes a column box's whole content,
    between the balanced average WeasyPrint starts from and `most` (the height left on the page).
    Each height tried reports whether everything fit, and the space a column lost below its last
    box (`lost`: inf when WeasyPrint cannot tell), which WeasyPrint itself steps by."""

    GIVE_UP = -1.0  # nothing fits even at `most`: the columns go on to the next page

    def __init__(self, most: float) -> None:
        self.most = most
        self.fits: float | None = None  # the smallest height tried that took everything
        self.short: float | None = None  # the largest height tried that did not
        self.step = 1.0  # the next unknown step: doubled after each miss

    def next(self, height: float, fitted: bool, lost: float) -> float | None:
        """The next height to try after `height`, None when the search is over (the answer is
        `fits`), or GIVE_UP."""
        if fitted:
            self.fits = height if self.fits is None else min(self.fits, height)
        else:  # nothing changes below what was lost: as short as this height
            short = height + (0.0 if math.isinf(lost) else lost - 1)
            self.short = short if self.short is None else max(self.short, short)
        if self.fits is None:  # still short: grow, by what was lost, or by a doubling step
            if height >= self.most:
                return self.GIVE_UP
            if math.isinf(lost):
                grow, self.step = self.step, self.step * 2
            else:
                grow, self.step = lost, 1.0
            return min(height + grow, self.most)
        if self.short is None or self.fits - self.short <= 1:
            return None  # to the pixel, as WeasyPrint's own search ends
        return self.short + math.ceil((self.fits - self.short) / 2)
