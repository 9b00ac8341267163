"""Turn matplotlib figures into PNG bytes, with the bundled fonts and one house style (report and pack statistics)."""
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

    bundled = Path(__file__).resolve().parent / "data" / "fonts"
    for name in ("Lato-Regular", "Lato-Bold"):
        if (bundled / f"{name}.ttf").is_file():
            font_manager.fontManager.addfont(str(bundled / f"{name}.ttf"))
    plt.rcParams.update({"font.family": "Lato", "font.size": 9, "axes.spines.top": False,
                         "axes.spines.right": False, "svg.hashsalt": "cardgen"})
    return plt


def figure_png(fig) -> bytes:  # type: ignore[no-untyped-def]
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


class Figures:
    """Figures drawn only when what they show changed: each PNG is kept in `folder` under a digest of its name,
    its data and the drawing code (matplotlib's version included); when every figure is kept, matplotlib is
    not even imported. A set report's six plots took 1.3 s of every build."""

    def __init__(self, folder: Path | None, code: Path) -> None:
        from importlib.metadata import version

        from .paths import content_digest

        self.folder, self.used = folder, set[str]()
        self.salt = content_digest([code, Path(__file__)], version("matplotlib"))
        self._plt: Any = None

    def png(self, name: str, data: object, draw: Callable[[Any], Any]) -> bytes:
        """The figure's PNG: kept, or drawn by `draw(pyplot)` (which returns the figure) and kept."""
        key = hashlib.sha1(f"{self.salt}|{name}|{data!r}".encode()).hexdigest()[:16]
        path = self.folder / f"{name}-{key}.png" if self.folder is not None else None
        if path is not None:
            self.used.add(path.name)
            if path.is_file():
                return path.read_bytes()
        if self._plt is None:
            self._plt = pyplot()
        png = figure_png(draw(self._plt))
        if path is not None:
            from .output import write_cache

            write_cache(path, png)  # a workspace we cannot write: drawn again next time
        return png

    def prune(self) -> None:
        """Drop kept figures this report did not use."""
        if self.folder is not None and self.folder.is_dir():
            for old in self.folder.glob("*.png"):
                if old.name not in self.used:
                    old.unlink(missing_ok=True)
