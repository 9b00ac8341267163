"""Turn matplotlib figures into PNG bytes, with the bundled fonts and one house style (report and pack statistics)."""
from __future__ import annotations

import io
from pathlib import Path


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
