"""Turn matplotlib figures into PNG bytes, with the bundled fonts and one house style (report and
pack statistics)."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any, Callable


def pyplot():  # type: ignore[no-untyped-def]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    bundled = Path(__file__).resolve().parents[1] / "data" / "fonts"
    for name in ("Lato-Regular", "Lato-Bold"):
        if (bundled / f"{name}.ttf").is_file():
            font_manager.fontManager.addfont(str(bundled / f"{name}.ttf"))
    plt.rcParams.update(
        {
            "font.family": "Lato",
            "font.size": 9,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "svg.hashsalt": "cardgen",
        }
    )
    return plt


def figure_png(fig) -> bytes:  # type: ignore[no-untyped-def]
    buf = io.BytesIO()
    fig.savefig(
        buf,
        format="png",
        dpi=110,
        bbox_inches="tight",
        metadata={"Software": None},
        pil_kwargs={"compress_level": 1},  # the same pixels; level 6 took a tenth of the save
    )
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


class Figures:
    """Figures drawn only when what they show changed: each PNG is kept in `folder` under a digest
    of its name, its data and the drawing code (matplotlib's version included); when every figure is
    kept, matplotlib is not even imported. A set report's six plots took 1.3 s of every build."""

    def __init__(self, folder: Path | None, code: Path) -> None:
        from importlib.metadata import version

        from ..core.paths import content_digest
        from ..speed.cache import Store

        self.store, self.used = Store(folder), set[str]()
        self.salt = content_digest([code, Path(__file__)], version("matplotlib"))
        self._plt: Any = None

    def png(self, name: str, data: object, draw: Callable[[Any], Any]) -> bytes:
        """The figure's PNG: kept, or drawn by `draw(pyplot)` (which returns the figure) and
        kept."""
        key = hashlib.sha1(f"{self.salt}|{name}|{data!r}".encode()).hexdigest()[:16]
        kept_as = f"{name}-{key}.png"
        self.used.add(kept_as)
        png = self.store.get_bytes(kept_as)
        if png is not None:
            return png
        if self._plt is None:
            self._plt = pyplot()
        png = figure_png(draw(self._plt))
        self.store.put_bytes(kept_as, png)  # a workspace we cannot write: drawn again next time
        return png

    def prune(self) -> None:
        """Drop kept figures this report did not use."""
        self.store.prune("*.png", self.used)
