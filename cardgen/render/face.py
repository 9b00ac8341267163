"""Turn one card and one template into a prepared face: resolved elements, fitted text, findings."""

from __future__ import annotations

import hashlib
from functools import partial
from pathlib import Path
from typing import Any

from ..core.errors import Finding, Severity
from ..core.paths import file_stamp, workspace_file
from ..load.card import Card
from ..model.game import GameModel, Role
from ..speed.live import is_live
from ..speed.memo import Memo
from . import geometry, imagefile
from . import richtext as rt
from .context import context, is_true
from .facetext import missing_glyphs, text_findings, text_where
from .fonts import FontSet, font_digest
from .guards import art_guards, badge_guards, cost_row_guards, text_guards, unprinted_clauses
from .pen import Recordings
from .placing import face_frame, place_element
from .prepared import FaceStore, Op, PreparedFace, anchor_of
from .template import Element, Template, as_length
from .values import cost_sequence, typed

FITS_KEPT = 20_000  # texts a renderer keeps fitted (the most recently used)
FITS_KEPT_ONCE = 4_000  # in a one-off run: the texts that repeat stay, the rest need not
# laid-out elements by (element as written, what it reads): a template saved with one element
# changed lays out only that element again on every face it draws (a live rebuild's template loop)
_ELEMENTS: Memo[tuple[Op | None, tuple[Finding, ...]]] = Memo(20_000)
# a template var's value by (its expression as written, the card and model it reads): a var reads
# nothing else (not the face's bleed, not the other vars), so a face laid out again (another bleed,
# a template saved with another var changed) renders none of its vars again
_VARS: Memo[Any] = Memo(50_000)


class FaceRenderer:
    """Prepares and draws faces for one game; prepared faces are memoised by content."""

    def __init__(self, root: Path, model: GameModel, fonts: FontSet) -> None:
        self.root, self.model, self.fonts = root, model, fonts
        self.rules = rt.RichRules.from_model(model)
        self._measurers: dict[rt.Family, rt.Measurer] = {}
        self._prepared: dict[str, PreparedFace] = {}
        self._font_prints: dict[str, str] = {}
        self._keys: dict[tuple[int, str, float], tuple[Card | None, str]] = {}
        # fitting is the costly part and does not depend on the bleed: faces drawn with another
        # bleed reuse it. The renderer's own (with --no-cache too, as its dictionary was), bounded:
        # a run of 100,000 cards does not hold every card's rules text fitted
        self._fits: Memo[tuple[rt.Fit, tuple[list[str], tuple[str, ...]]]]
        self._fits = Memo(FITS_KEPT if is_live() else FITS_KEPT_ONCE, always=True)
        self.store: FaceStore | None = None  # an optional cache on disk (render.facecache)
        self.contrast: Any = None  # the contrast guard's measures on disk (render.contrast)
        self.recordings = Recordings(fonts)  # each face's drawing, replayed into every document
        self._art: dict[tuple[Path, str], str | None] = {}  # a picture decoded once for all cards
        self._pixels: dict[Path, tuple[int, int]] = {}  # its size in pixels, read once

    def measurer(self, family: rt.Family) -> rt.Measurer:
        if family not in self._measurers:
            self._measurers[family] = rt.Measurer(self.fonts, family)
        return self._measurers[family]

    def fonts_print(self, template: Template) -> str:
        """The template's font files by content (a replaced font changes every layout; a font only
        touched or reinstalled, same bytes, changes nothing: face keys are in the PDF, whose bytes
        must not follow a file's time)."""
        if template.file not in self._font_prints:
            stems = sorted({stem for family in template.fonts.values() for stem in family.values()})
            found = "|".join(
                f"{s}:{font_digest(self.fonts.file(s))}" for s in stems if self.fonts.exists(s)
            )
            chained = {s for chain in template.fallbacks.values() for s in chain}
            chained |= set(self.fonts.fallback)
            if chained:  # the fallback fonts, and the bold and italic files each may have
                styled = sorted({self.fonts.styled(s, n) for s in chained for n in range(4)})
                found += "|fallback|" + "|".join(
                    f"{s}:{font_digest(self.fonts.file(s))}" for s in styled if self.fonts.exists(s)
                )
            self._font_prints[template.file] = found
        return self._font_prints[template.file]

    def key(self, card: Card | None, template: Template, bleed: float) -> str:
        """The face's cache key: memoised per card object (a run asks for it several times per
        card)."""
        memo = (id(card), template.file, bleed)
        found = self._keys.get(memo)
        if found is not None and found[0] is card:
            return found[1]
        key = self._key(card, template, bleed)
        self._keys[memo] = (card, key)  # holding the card keeps its id from being reused
        return key

    def _key(self, card: Card | None, template: Template, bleed: float) -> str:
        h = hashlib.sha1(template.digest.encode())
        h.update(self.fonts_print(template).encode())
        h.update(repr(sorted((card.data if card else {}).items(), key=lambda kv: kv[0])).encode())
        h.update(f"{bleed:.4f}|{self.model.digest}".encode())
        return h.hexdigest()[:20]

    def prepare(self, card: Card, template: Template, bleed: float | None = None) -> PreparedFace:
        """The card's face: laid out once per content (memoised, and kept by the face cache), its
        findings at the card's places as they are now."""
        bleed = template.bleed if bleed is None else bleed
        key = self.key(card, template, bleed)
        if key in self._prepared:
            return self._prepared[key].moved_to(self.anchor(card))
        if self.store is not None:
            cached = self.store.get(
                key, template, lambda: self._lay_out(key, card, template, bleed).ops
            )
            if cached is not None:
                if is_live():  # a one-off run asks the store again: 100,000 faces are not held
                    self._prepared[key] = cached
                return cached.moved_to(self.anchor(card))
        face = self._lay_out(key, card, template, bleed)
        self._prepared[key] = face
        if self.store is not None:
            self.store.put(face)
        return face

    def anchor(self, card: Card) -> tuple:
        """anchor_of(card), worked out each time it is asked for (a few tuples: remembering it for
        every card of a run of 100,000 cost more memory than the time it saved)."""
        return anchor_of(card)

    def settle(self, key: str) -> None:
        """Let go of a face's layout once its recording is in the face store: the store's light
        face stands for it from now on (a cold run of 100,000 faces holds no layouts). A live
        process keeps them for the rest of the rebuild: its guards read each face's layout next,
        which would otherwise be laid out a second time (speed.live)."""
        if is_live():
            return
        if self.store is not None and self.store.holds(key, drawn=True):
            self.store.settle(key)
            self._prepared.pop(key, None)

    def _lay_out(self, key: str, card: Card, template: Template, bleed: float) -> PreparedFace:
        w, h = template.size
        face = PreparedFace(key, template, w, h, bleed, anchor=self.anchor(card))
        # a live rebuild remembers each var by what it reads; a one-off run renders them (the memo's
        # key, the card's data written out, would cost more than it saves)
        ctx = context(card, self.model, template, self._var_of(card) if is_live() else None)
        frame = face_frame(template, ctx, face, card)
        given = self._given(card, template, ctx, frame)
        values = ctx["vars"]
        for n, element in enumerate(template.elements):
            if given is None or element.type == "image":  # a picture is read anew: not kept
                op, found = self._element(element, ctx, face, card, frame)
            else:
                read = element.vars_read()
                used = repr(
                    sorted(values.items()) if read is None else [values.get(v) for v in read]
                )
                memo_key = (element.signature(), given, used)
                make = partial(self._element, element, ctx, face, card, frame)
                # a one-off run lays each face out once: remembering its elements only costs
                op, found = _ELEMENTS.get(memo_key, make) if is_live() else make()
            face.findings.extend(found)
            if op is not None:  # which element drew it: the layout inspector's map
                op_key = op.key
                if given is not None and element.type != "image" and op_key is None:
                    op_key = op.key = hashlib.sha1(repr(memo_key).encode()).hexdigest()
                face.ops.append(
                    Op(op.type, op.box, {**op.props, "_n": n}, op.fit, op.family, op_key)
                )
        face.findings += unprinted_clauses(face.ops, self.model, card, template.name)
        return face

    def _var_of(self, card: Card) -> Any:
        """How `context` works out the card's vars: each rendered once per expression and card."""
        read = (
            card.id,
            repr(sorted((card.data or {}).items(), key=lambda kv: kv[0])),
            self.model.digest,
        )

        def var(name: str, value: Any, ctx: dict[str, Any]) -> Any:
            if value.compiled is None or value.lookup is not None:  # a constant, a plain lookup
                return value.get(ctx)
            return _VARS.get((repr(value.raw), read), lambda: value.get(ctx))

        return var

    def _given(
        self, card: Card, template: Template, ctx: dict[str, Any], frame: geometry.Frame
    ) -> str | None:
        """Everything an element's layout reads besides the element itself and the vars it names:
        the card, the face's geometry, the fonts and the model. None when a var failed (its
        finding names the element that reads it: laid out afresh)."""
        values = ctx["vars"]
        if getattr(values, "failed", None):
            return None
        return repr(
            (
                sorted((card.data or {}).items(), key=lambda kv: kv[0]),
                card.id,
                self.anchor(card),  # where its findings stand
                sorted(frame.boxes.items()),
                (frame.width, frame.height, frame.bleed, frame.safe),
                sorted(template.fonts.items()),
                sorted(template.fallbacks.items()),
                self.fonts_print(template),
                self.model.digest,
            )
        )

    def _element(
        self,
        element: Element,
        ctx: dict[str, Any],
        face: PreparedFace,
        card: Card,
        frame: geometry.Frame,
    ) -> tuple[Op | None, tuple[Finding, ...]]:
        """One element laid out on one face, with the findings it gives there."""
        before = len(face.findings)
        op: Op | None = None
        try:
            if is_true(element, ctx):
                op = self._op(element, ctx, face, card, frame)
        except Exception as exc:  # a template that fails on one card is a finding, never a crash
            face.findings.append(
                Finding(
                    element.file,
                    element.line,
                    element.column,
                    Severity.ERROR,
                    getattr(exc, "finding_code", "template-error"),
                    card.id,
                    f"element '{element.id or element.type}' failed: {exc}",
                )
            )
        found = tuple(face.findings[before:])
        del face.findings[before:]
        return op, found

    def _op(
        self,
        element: Element,
        ctx: dict[str, Any],
        face: PreparedFace,
        card: Card,
        frame: geometry.Frame,
    ) -> Op | None:
        props = {k: v.get(ctx) for k, v in element.props.items()}
        for key, problem in typed(
            props, face.template
        ):  # painting reads only values that are known good
            self._bad_value(element, key, problem, face, card)
        props["_id"] = element.id
        try:
            box = place_element(element, props, frame)
        except geometry.GeometryError as exc:
            self._bad_value(element, exc.key or "", str(exc), face, card)
            return None
        if element.type == "text":
            return self._text_op(element, props, box, face, card)
        if element.type == "image":
            return self._image_op(element, props, box, face, card)
        name, op = face.template.name, Op(element.type, box, props)
        if element.type == "badge":
            face.findings += badge_guards(self.model.guards, element, op, face, self.fonts, name)
        elif element.type == "icons":
            count = len(cost_sequence(self.model, str(props.get("cost") or "")))
            face.findings += cost_row_guards(element, props, box, count, name)
        return op

    def _bad_value(
        self, element: Element, key: str, problem: str, face: PreparedFace, card: Card
    ) -> None:
        line, column = element.at.get(key, (element.line, element.column))
        face.findings.append(
            Finding(
                element.file,
                line,
                column,
                Severity.ERROR,
                "template-value",
                card.id,
                f"element '{element.id or element.type}': {key} {problem}",
            )
        )

    def _family(self, props: dict[str, Any], template: Template) -> rt.Family:
        """The text's font family, its fallback chain its own and then the game's."""
        name = props.get("font") or next(iter(template.fonts))
        spec = template.fonts[name]
        chain = tuple(dict.fromkeys((*template.fallbacks.get(name, ()), *self.fonts.fallback)))
        return rt.Family(spec["regular"], spec["bold"], spec["italic"], spec["bolditalic"], chain)

    def _text_op(
        self, element: Element, props: dict[str, Any], box, face: PreparedFace, card: Card
    ) -> Op | None:
        text = str(props.get("text") or "").strip("\n")
        flavor = str(props.get("flavor") or "").strip("\n")
        if not text and not flavor:
            return None
        family = self._family(props, face.template)
        rich = str(props.get("rich", False)).lower() in ("true", "1", "yes")
        size = as_length(props.get("size"), 9.0)
        max_lines = (
            int(props["max_lines"]) if props.get("max_lines") not in (None, "") else None
        )  # checked by typed()
        spec = rt.FitSpec(
            size,
            as_length(props.get("min_size"), size),
            float(props.get("leading") or 1.18),
            float(props.get("min_leading") or 1.0),
            max_lines=max_lines,
        )
        fit_key = (
            face.template.digest,
            text,
            flavor,
            rich,
            family,
            spec.size,
            spec.min_size,
            spec.leading,
            spec.min_leading,
            max_lines,
            round(box[2], 3),
            round(box[3], 3),
        )

        def fitted() -> tuple[rt.Fit, tuple[list[str], tuple[str, ...]]]:
            rules = self.rules if rich else rt.RichRules()
            blocks = [rt.parse(text, rules)] if text else [[]]
            if flavor:
                blocks.append(rt.parse(flavor, rt.RichRules(), base_style=rt.ITALIC))
            return (
                rt.fit(blocks, self.measurer(family), spec, box[2], box[3]),
                missing_glyphs(self.fonts, blocks, family),
            )

        # texts repeat from card to card: parsed, fitted and checked once
        known = self._fits.get(fit_key, fitted)
        fit, missing = known
        face.findings += text_findings(
            self.fonts, self.model.file, element, props, face, card, fit, missing, spec, box
        )
        face.findings += text_guards(
            self.model.guards,
            element,
            face.template.name,
            card,
            text_where(element, card),
            spec,
            fit,
            rich,
        )
        return Op("text", box, props, fit, family)

    def _image_op(
        self, element: Element, props: dict[str, Any], box, face: PreparedFace, card: Card
    ) -> Op | None:
        src = str(props.get("src") or "").strip()
        if not src:
            return None
        found, why = workspace_file(self.root, self.root, src)
        face.images.append(
            file_stamp(found if found is not None else self.root / src)
        )  # a cached face is
        # only good while its pictures are the same files (a new aspect ratio changes the drawing)
        art = self.model.role_field(Role.ART)
        line, col = card.loc(art) if art and art in card.data else (card.line, card.column)
        code, problem = "image-missing", f"image '{src[:80]}' {why}" if why else None
        if found is not None:
            if (found, src) not in self._art:
                self._art[found, src] = imagefile.art_problem(found, src)
            code, problem = "image-unreadable", self._art[found, src]
        if problem:
            # a constant src that names no file is one warning at the template's `src`
            # (render.templatecheck), not one on every card
            # a file given but unusable prints a placeholder: an error; art not made yet, a warning
            worst = Severity.ERROR if code == "image-unreadable" else Severity.WARNING
            if code != "image-missing" or element.props["src"].compiled is not None:
                face.findings.append(Finding(card.file, line, col, worst, code, card.id, problem))
            props = {**props, "missing": src, **({"unusable": True} if found else {})}
        else:
            props = {**props, "path": str(found)}
        if not problem and found is not None:
            pixels = self._pixels.get(found)
            if pixels is None:
                pixels = self._pixels[found] = imagefile.picture_size(found)
            fit = "cover" if (props.get("fit") or "cover") == "cover" else "contain"
            face.findings += art_guards(self.model.guards, src, pixels, box, fit, card, (line, col))
        return Op("image", box, props)
