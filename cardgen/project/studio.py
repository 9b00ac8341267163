"""Turn a workspace and a game into a Studio (the loaded project): model, cards, findings,
templates, fonts, renderer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from jinja2 import TemplateError, nodes

from ..core.errors import CardgenError, Finding, ModelUnusable, Severity, sort_findings, suggest
from ..core.sandbox import LimitedSandbox
from ..core.workspace import Workspace
from ..load.card import Card, Catalog
from ..model.packs import dealt_cards
from ..render.context import card_view
from ..render.face import FaceRenderer
from ..render.facecards import undrawn_art, unmatched_where
from ..render.faces import FaceSet, load_faces
from ..render.fonts import FALLBACK, FontSet, game_fallback, stand_in_fonts
from ..render.prepared import PreparedFace
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
    def catalog(self) -> Catalog:
        return self.check.catalog

    @property
    def findings(self) -> list[Finding]:
        """The game's data findings (model, cards, collation): jobs.findings adds faces and the
        rulebook's."""
        return self.check.findings

    @property
    def cards(self) -> list[Card]:
        return self.check.catalog.cards

    def designs(self, printable: bool = False) -> list[Card]:
        """Each design once (the first card of each id); with `printable`, only those a template
        applies to."""
        found = self.check.catalog.designs()
        return [c for c in found if self.faces.for_card(c) is not None] if printable else found

    def prepare(
        self, card: Card, bleed: float | None = None
    ) -> tuple[PreparedFace, PreparedFace | None]:
        rule = self.faces.for_card(card)
        if rule is None:
            raise CardgenError(
                f"no template in faces.yaml applies to card '{card.id}' ({card.where()})"
            )
        front = self.renderer.prepare(card, rule.front, bleed)
        back = (
            self.renderer.prepare(card if rule.second else _BLANK, rule.back, bleed)
            if rule.back is not None
            else None
        )
        return front, back

    def other_faces(
        self, card: Card, bleed: float | None = None
    ) -> list[tuple[PreparedFace, PreparedFace | None]]:
        """The card's other faces (faces.yaml `also:`: its randomizer, a reference version), each
        with its shared back: printed as cards of their own, counted as no design of their own."""
        rule = self.faces.for_card(card)
        if rule is None or not rule.also:
            return []
        return [
            (
                self.renderer.prepare(card, front, bleed),
                self.renderer.prepare(_BLANK, back, bleed) if back is not None else None,
            )
            for front, back in self.faces.others(rule)
        ]

    def own_back(self, card: Card) -> bool:
        """Whether the card's back is its own second face (faces.yaml `second:`), not a shared
        back."""
        rule = self.faces.for_card(card)
        return rule is not None and rule.second and rule.back is not None

    def prefetch(
        self,
        cards: list[Card],
        bleed: float | None = None,
        record: bool = True,
        judge: bool = True,
    ) -> int:
        """Lay out (and draw) the faces of many cards on all cores when the face cache lacks them
        (render.prefetch), with `judge` measuring them for the contrast guard as they are made; a
        no-op without a disk cache or with few faces to make."""
        from ..render.prefetch import prefetch

        jobs = []
        backs = set()
        for card in cards:
            rule = self.faces.for_card(card)
            if rule is not None:
                jobs.append((card, rule.front, rule.front.bleed if bleed is None else bleed))
                if rule.back is not None and rule.second:  # the card's own second face
                    jobs.append((card, rule.back, rule.back.bleed if bleed is None else bleed))
                elif (
                    rule.back is not None and rule.back.file not in backs
                ):  # one back serves every card
                    backs.add(rule.back.file)
                    jobs.append((_BLANK, rule.back, rule.back.bleed if bleed is None else bleed))
                for front, back in self.faces.others(rule):
                    jobs.append((card, front, front.bleed if bleed is None else bleed))
                    if back is not None and back.file not in backs:
                        backs.add(back.file)
                        jobs.append((_BLANK, back, back.bleed if bleed is None else bleed))
        return prefetch(self.renderer, jobs, record, judge=judge)

    def face_findings(self, cards: list[Card] | None = None) -> list[Finding]:
        out = list(self.template_findings)
        self.prefetch(cards if cards is not None else self.cards, record=False)
        from ..render.contrast import contrast_findings  # rasterising: only where faces are judged

        # each face handed to the contrast guard as it is made, not all held first (a run of
        # 100,000 cards: the guard judges a window of faces at a time and lets them go)
        judged = self._judged(cards if cards is not None else self.cards, out)
        out += contrast_findings(judged, self.fonts, self.model, self.renderer.contrast)
        return sort_findings(set(out))

    def _judged(self, cards: list[Card], out: list[Finding]) -> Iterator[tuple[Card, PreparedFace]]:
        """Each card's faces (front, back, other faces) for the contrast guard, in order, their
        findings (and a card no template applies to) added to `out` as they are made."""
        for card in cards:
            if self.faces.for_card(card) is None:
                out.append(
                    Finding(
                        card.file,
                        card.line,
                        card.column,
                        Severity.WARNING,
                        "not-in-print-run",
                        card.id,
                        "no template in faces.yaml applies to this card, so it cannot be printed",
                        "add a faces.yaml entry whose 'where' selects it",
                        about=self.faces.manifest or None,
                    )
                )
                continue
            front, back = self.prepare(card)
            out += front.findings + (back.findings if back else [])
            yield card, front
            if back:
                yield card, back
            for other, other_back in self.other_faces(card):
                out += other.findings + (other_back.findings if other_back else [])
                yield card, other
                if other_back:
                    yield card, other_back

    def selector(self, expr: str | None) -> Callable[[Card], bool]:
        """--only EXPR: a Jinja2 expression over `card`, e.g. "card.rarity == 'rare'"."""
        if not expr:
            return lambda card: True
        shown = expr if len(expr) <= 80 else expr[:77] + "..."
        try:
            test = _ONLY.compile_expression(expr)
            tree = _ONLY.parse("{{ (" + expr + ") }}")
        except (TemplateError, ValueError, OverflowError, RecursionError) as exc:
            raise CardgenError(f"--only '{shown}' is not a valid expression: {exc}") from exc
        self._check_names(tree, shown)

        def keep(card: Card) -> bool:  # each card's test on a budget of its own (sandbox.CARD)
            try:
                return bool(test(card=card_view(card, self.model)))
            except Exception as exc:
                raise CardgenError(f"--only '{shown}' failed on card '{card.id}': {exc}") from exc

        return keep

    def _check_names(self, tree: nodes.Template, shown: str) -> None:
        """--only names only `card` and the model's fields: 'card.nam' would match nothing, silently
        (a usage error, with did-you-mean)."""
        fields = ["id", *self.model.fields]
        for node in tree.find_all((nodes.Name, nodes.Getattr, nodes.Getitem)):
            if isinstance(node, nodes.Name) and node.ctx == "load" and node.name != "card":
                if node.name in fields:
                    raise CardgenError(
                        f"--only '{shown}' names '{node.name}' alone: write card.{node.name}"
                    )
                if node.name not in _ONLY.globals and node.name not in (
                    "true",
                    "false",
                    "none",
                    "True",
                    "False",
                    "None",
                ):
                    raise CardgenError(
                        suggest(
                            f"--only '{shown}' names '{node.name}', which is nothing: write "
                            f"card.FIELD (fields: {', '.join(fields)})",
                            node.name,
                            fields,
                        )
                    )
            if isinstance(node, (nodes.Getattr, nodes.Getitem)):
                inner = node.node
                if not (isinstance(inner, nodes.Name) and inner.name == "card"):
                    continue
                if isinstance(node, nodes.Getattr):
                    name = node.attr
                elif isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
                    name = node.arg.value
                else:
                    continue
                if name not in fields:
                    raise CardgenError(
                        suggest(
                            f"--only '{shown}': the model of '{self.game}' has no field '{name}' "
                            f"(fields: {', '.join(fields)})",
                            name,
                            fields,
                        )
                    )


_ONLY = LimitedSandbox()
_BLANK = Card("back", {}, "", 0, 0)


def open_studio(
    ws: Workspace,
    game: str,
    check: CheckResult | None = None,
    prepared: dict[str, PreparedFace] | None = None,
) -> Studio:
    """Load everything a render needs. A model that cannot be used or a missing template is an
    error."""
    check = check or check_game(ws, game)
    if check.model is None:
        raise ModelUnusable(game, check.findings, ws.shown(ws.model_path(game)))
    faces, findings = load_faces(ws, game, check.model)
    findings += unmatched_where(faces, check.catalog.cards, check.model)
    findings += undrawn_art(faces, check.catalog.cards, check.model)
    if faces.back_stamps:  # the pack code's place, on the backs a pack deals
        findings += faces.pack_code_findings(dealt_cards(check.model, check.catalog))
    if not faces.rules:
        details = "; ".join(f.format() for f in findings[:3])
        raise CardgenError(f"no usable templates for '{game}': {details}")
    fonts = FontSet(ws.fonts_dir())
    # fonts are parsed lazily; only their presence is checked up front. One a template names that
    # does not exist is a finding where it is named, and a stand-in draws its text
    findings += stand_in_fonts(faces, fonts, ws.shown(ws.fonts_dir()))
    findings += game_fallback(check.model, fonts, ws.shown(ws.fonts_dir()))
    missing = [stem for stem in ("Lato-Regular", FALLBACK) if not fonts.exists(stem)]
    if missing:  # cardgen's own fonts: an installation without them cannot draw a face
        raise CardgenError(
            f"font file(s) {', '.join(m + '.ttf' for m in missing)} are missing from cardgen's "
            "installation (reinstall it)"
        )
    renderer = FaceRenderer(ws.root, check.model, fonts)
    if (
        prepared is not None
    ):  # faces are keyed by content: a cache may outlive one studio (live rebuilds)
        renderer._prepared = prepared
    return Studio(ws, game, check, faces, fonts, renderer, findings)


def with_disk_cache(studio: Studio) -> Studio:
    """Let the studio's renderer read and write prepared faces in output/GAME/.cache/ (see
    render.facecache)."""
    from ..render.contrastcache import ContrastCache
    from ..render.facecache import FaceCache

    cache = FaceCache(studio.ws.output_dir(studio.game) / ".cache")
    studio.renderer.store = cache
    studio.renderer.recordings.stored = cache.recordings
    studio.renderer.contrast = ContrastCache(studio.ws.output_dir(studio.game) / ".cache")
    return studio


def save_disk_cache(studio: Studio) -> None:
    if studio.renderer.store is not None:
        studio.renderer.store.save()
    if studio.renderer.contrast is not None:
        studio.renderer.contrast.save()
