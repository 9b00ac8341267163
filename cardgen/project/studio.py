"""Turn a workspace and a game into a Studio (the loaded project): model, cards, findings, templates, fonts, renderer."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from jinja2 import TemplateError

from ..core.errors import CardgenError, Finding, Severity, sort_findings
from ..core.sandbox import LimitedSandbox
from ..core.workspace import Workspace
from ..load.card import Card
from ..render.context import card_view
from ..render.face import FaceRenderer, PreparedFace
from ..render.faces import FaceSet, load_faces
from ..render.fonts import FontSet
from .check import CheckResult, check_game


@dataclass
class Studio:
    ws: Workspace
    game: str
    check: CheckResult
    faces: FaceSet
    fonts: FontSet
    renderer: FaceRenderer
    template_findings: list[Finding] = field(default_factory=list)

    @property
    def model(self):  # type: ignore[no-untyped-def]
        assert self.check.model is not None
        return self.check.model

    @property
    def cards(self) -> list[Card]:
        return self.check.catalog.cards

    def designs(self, printable: bool = False) -> list[Card]:
        """Each design once (the first card of each id); with `printable`, only those a template applies to."""
        found = self.check.catalog.designs()
        return [c for c in found if self.faces.for_card(c) is not None] if printable else found

    def prepare(self, card: Card, bleed: float | None = None) -> tuple[PreparedFace, PreparedFace | None]:
        rule = self.faces.for_card(card)
        if rule is None:
            raise CardgenError(f"no template in faces.yaml applies to card '{card.id}' ({card.where()})")
        front = self.renderer.prepare(card, rule.front, bleed)
        back = self.renderer.prepare(_BLANK, rule.back, bleed) if rule.back is not None else None
        return front, back

    def prefetch(self, cards: list[Card], bleed: float | None = None, record: bool = True) -> int:
        """Lay out (and draw) the faces of many cards on all cores when the face cache lacks them
        (render.prefetch); a no-op without a disk cache or with few faces to make."""
        from ..render.prefetch import prefetch

        jobs = []
        backs = set()
        for card in cards:
            rule = self.faces.for_card(card)
            if rule is not None:
                jobs.append((card, rule.front, rule.front.bleed if bleed is None else bleed))
                if rule.back is not None and rule.back.file not in backs:  # one back serves every card
                    backs.add(rule.back.file)
                    jobs.append((_BLANK, rule.back, rule.back.bleed if bleed is None else bleed))
        return prefetch(self.renderer, jobs, record)

    def face_findings(self, cards: list[Card] | None = None) -> list[Finding]:
        out = list(self.template_findings)
        self.prefetch(cards if cards is not None else self.cards, record=False)
        for card in cards if cards is not None else self.cards:
            if self.faces.for_card(card) is None:
                out.append(Finding(card.file, card.line, card.column, Severity.WARNING, "not-in-print-run", card.id,
                                   "no template in faces.yaml applies to this card, so it cannot be printed",
                                   "add a faces.yaml entry whose 'where' selects it"))
                continue
            front, back = self.prepare(card)
            out += front.findings + (back.findings if back else [])
        return sort_findings(set(out))

    def selector(self, expr: str | None) -> Callable[[Card], bool]:
        """--only EXPR: a Jinja2 expression over `card`, e.g. "card.rarity == 'rare'"."""
        if not expr:
            return lambda card: True
        shown = expr if len(expr) <= 80 else expr[:77] + "..."
        try:
            test = _ONLY.compile_expression(expr)
        except (TemplateError, ValueError, OverflowError, RecursionError) as exc:
            raise CardgenError(f"--only '{shown}' is not a valid expression: {exc}") from exc

        def keep(card: Card) -> bool:  # each card's test on a budget of its own (sandbox.CARD)
            try:
                return bool(test(card=card_view(card, self.model)))
            except Exception as exc:
                raise CardgenError(f"--only '{shown}' failed on card '{card.id}': {exc}") from exc
        return keep


_ONLY = LimitedSandbox()
_BLANK = Card("back", {}, "", 0, 0)


def open_studio(ws: Workspace, game: str, check: CheckResult | None = None,
                prepared: dict[str, PreparedFace] | None = None) -> Studio:
    """Load everything a render needs. A model that cannot be used or a missing template is an error."""
    check = check or check_game(ws, game)
    if check.model is None:
        raise CardgenError(f"the model of '{game}' has errors; run 'cardgen validate {game}'",
                           file=ws.shown(ws.model_path(game)))
    faces, findings = load_faces(ws, game, check.model)
    if not faces.rules:
        details = "; ".join(f.format() for f in findings[:3])
        raise CardgenError(f"no usable templates for '{game}': {details}")
    fonts = FontSet(ws.fonts_dir())
    needed = {stem for t in faces.templates.values() for fam in t.fonts.values() for stem in fam.values()}
    missing = sorted(stem for stem in needed | {"Lato-Regular"} if not fonts.exists(stem))
    if missing:  # fonts are parsed lazily; only their presence is checked up front
        raise CardgenError(f"font file(s) {', '.join(m + '.ttf' for m in missing)} not in {ws.shown(ws.fonts_dir())} "
                           f"(needed by the templates of '{game}')")
    renderer = FaceRenderer(ws.root, check.model, fonts)
    if prepared is not None:  # faces are keyed by content: a cache may outlive one studio (live rebuilds)
        renderer._prepared = prepared
    return Studio(ws, game, check, faces, fonts, renderer, findings)


def with_disk_cache(studio: Studio) -> Studio:
    """Let the studio's renderer read and write prepared faces in output/GAME/.cache/ (see render.facecache)."""
    from ..render.facecache import FaceCache

    cache = FaceCache(studio.ws.output_dir(studio.game) / ".cache")
    studio.renderer.store = cache
    studio.renderer.recordings.stored = cache.recordings
    return studio


def save_disk_cache(studio: Studio) -> None:
    if studio.renderer.store is not None:
        studio.renderer.store.save()
