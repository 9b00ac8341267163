"""Turn WeasyPrint's multi-column layout into one whose balancing search takes a few layouts
instead of one per pixel: WeasyPrint 70's columns_layout (BSD 3-Clause, Copyright (c) 2011-2021,
Simon Sapin and contributors; weasyprint/layout/column.py), with its balancing loop's next height
chosen by balance.Search. Everything else is WeasyPrint's own code, unchanged."""

# mypy: ignore-errors

from math import floor, inf

from .balance import Search

# WeasyPrint's releases whose columns_layout this copies (its version's first number)
COPIED_FROM = ("70",)


def use_faster_balancing() -> None:
    """WeasyPrint lays out columns with columns_layout from now on (once per process; only the
    rulebook uses WeasyPrint) when its version is one this copies; any other lays them out its own
    way: the same pages, more slowly."""
    import weasyprint
    from weasyprint.layout import block

    if weasyprint.__version__.split(".")[0] in COPIED_FROM:
        block.columns_layout = columns_layout


def columns_layout(
    context,
    box,
    bottom_space,
    skip_stack,
    containing_block,
    page_is_empty,
    absolute_boxes,
    fixed_boxes,
    adjoining_margins,
    first_letter_style,
    first_line_style,
):
    """Lay out a multi-column ``box``."""
    from weasyprint.layout.absolute import absolute_layout
    from weasyprint.layout.block import (
        block_box_layout,
        block_level_layout,
        block_level_width,
        collapse_margin,
        remove_placeholders,
    )
    from weasyprint.layout.column import _create_column_box, _report_footnotes
    from weasyprint.layout.percent import percentage, resolve_percentages

    style = box.style
    width = style["column_width"]
    count = style["column_count"]
    height = style["height"]
    original_bottom_space = bottom_space
    context.in_column = True

    if style["position"] == "relative":
        absolute_boxes = []

    box = box.copy_with_children(box.children)
    box.position_y += collapse_margin(adjoining_margins)

    if height != "auto" and height.unit != "%":
        assert height.unit.lower() == "px"
        height_defined = True
        empty_space = context.page_bottom - box.content_box_y() - height.value
        bottom_space = max(bottom_space, empty_space)
    else:
        height_defined = False

    # TODO: the columns container width can be unknown if the containing block
    # needs the size of this block to know its own size
    block_level_width(box, containing_block)

    if style["column_gap"] == "normal":
        gap = style["font_size"]
    else:
        gap = percentage(style["column_gap"], box.style, box.width)

    if width == "auto" and count != "auto":
        width = max(0, box.width - (count - 1) * gap) / count
    elif width != "auto" and count == "auto":
        count = max(1, floor((box.width + gap) / (width + gap)))
        width = (box.width + gap) / count - gap
    else:  # overconstrained, with width != 'auto' and count != 'auto'
        count = max(1, min(count, floor((box.width + gap) / (width + gap))))
        width = (box.width + gap) / count - gap

    # column-span: lists of column children, and the spanning blocks between them
    columns_and_blocks = []
    column_children = []
    (skip,) = skip_stack.keys() if skip_stack else (0,)
    for i, child in enumerate(box.children[skip:], start=skip):
        if child.style["column_span"] == "all":
            if column_children:
                columns_and_blocks.append((i - len(column_children), column_children))
            columns_and_blocks.append((i, child.copy()))
            column_children = []
            continue
        column_children.append(child.copy())
    if column_children:
        columns_and_blocks.append((i + 1 - len(column_children), column_children))

    if skip_stack:
        skip_stack = {0: skip_stack[skip]}

    if not box.children:
        next_page = {"break": "any", "page": None}
        skip_stack = None

    # Find height and balance: lay the columns out at the height left on the page; when everything
    # fits, balance them (the height chosen by balance.Search, cardgen's one change), else let them
    # go on to the next page.

    adjoining_margins = []
    current_position_y = box.content_box_y()
    new_children = []
    column_skip_stack = None
    last_loop = False
    break_page = False
    footnote_area_heights = [
        0
        if context.current_footnote_area.height == "auto"
        else context.current_footnote_area.margin_height()
    ]
    last_footnotes_height = 0
    for index, column_children_or_block in columns_and_blocks:
        if not isinstance(column_children_or_block, list):
            # We have a spanning block, we display it like other blocks
            block = column_children_or_block
            resolve_percentages(block, containing_block)
            block.position_x = box.content_box_x()
            block.position_y = current_position_y
            new_child, resume_at, next_page, adjoining_margins, _, _ = block_level_layout(
                context,
                block,
                original_bottom_space,
                skip_stack,
                containing_block,
                page_is_empty,
                absolute_boxes,
                fixed_boxes,
                adjoining_margins,
                first_letter_style,
                first_line_style,
            )
            skip_stack = None
            if new_child is None:
                last_loop = True
                break_page = True
                break
            new_children.append(new_child)
            current_position_y = new_child.border_height() + new_child.border_box_y()
            adjoining_margins.append(new_child.margin_bottom)
            if resume_at:
                last_loop = True
                break_page = True
                column_skip_stack = resume_at
                break
            page_is_empty = False
            continue

        column_children = column_children_or_block

        # Find the total height available for the first run
        current_position_y += collapse_margin(adjoining_margins)
        adjoining_margins = []
        column_box = _create_column_box(
            box, containing_block, column_children, width, current_position_y
        )
        height = max_height = context.page_bottom - current_position_y - original_bottom_space

        # Try to render columns until the content fits, increase the column
        # height step by step
        column_skip_stack = skip_stack
        lost_space = inf
        search = Search(max_height)
        original_excluded_shapes = context.excluded_shapes[:]
        original_page_is_empty = page_is_empty
        page_is_empty = stop_rendering = balancing = False
        while True:
            while len(context.excluded_shapes) > len(original_excluded_shapes):
                context.excluded_shapes.pop()

            column_skip_stack = skip_stack
            consumed_heights = []
            new_boxes = []
            for _ in range(count):
                new_box, resume_at, next_page, _, _, _ = block_box_layout(
                    context,
                    column_box,
                    context.page_bottom - current_position_y - height,
                    column_skip_stack,
                    containing_block,
                    page_is_empty or not balancing,
                    [],
                    [],
                    [],
                    first_letter_style,
                    first_line_style,
                    discard=False,
                    max_lines=None,
                )
                if new_box is None:
                    column_skip_stack = {0: None}
                    break
                new_boxes.append(new_box)
                column_skip_stack = resume_at

                in_flow_children = [
                    child for child in new_box.children if child.is_in_normal_flow()
                ]
                if in_flow_children:
                    consumed_height = (
                        in_flow_children[-1].margin_height()
                        + in_flow_children[-1].position_y
                        - current_position_y
                    )
                    empty_space = height - consumed_height
                    consumed_height -= in_flow_children[-1].margin_bottom

                    next_box_height = 0
                    if column_skip_stack:
                        next_box = block_box_layout(
                            context,
                            column_box,
                            inf,
                            column_skip_stack,
                            containing_block,
                            True,
                            [],
                            [],
                            [],
                            first_letter_style,
                            first_line_style,
                            discard=False,
                            max_lines=None,
                        )[0]
                        for child in next_box.children:
                            if child.is_in_normal_flow():
                                next_box_height = child.margin_height()
                                break
                        remove_placeholders(context, [next_box], [], [])
                else:
                    consumed_height = empty_space = next_box_height = 0

                consumed_heights.append(consumed_height)

                # What the next box needs beyond this column's empty space (under 1 px: none)
                if next_box_height - empty_space > 1:
                    lost_space = min(lost_space, next_box_height - empty_space)

                if resume_at is None:
                    break

            last_footnotes_height = (
                0
                if context.current_footnote_area.height == "auto"
                else context.current_footnote_area.margin_height()
            )
            remove_placeholders(context, new_boxes, [], [])

            if last_loop:
                break

            if balancing:
                # cardgen: the next height to try comes from the search (the smallest height
                # that takes everything, found in a few layouts rather than one per pixel)
                following = search.next(height, column_skip_stack is None, lost_space)
                if following is None:
                    height = search.fits if search.fits is not None else max_height
                    break
                if following == Search.GIVE_UP:
                    # We reached max height, stop rendering
                    height = max_height
                    stop_rendering = True
                    break
                height = following
                continue
            else:
                if last_footnotes_height not in footnote_area_heights:
                    height -= last_footnotes_height - footnote_area_heights[-1]
                    footnote_area_heights.append(last_footnotes_height)
                    continue

                everything_fits = not column_skip_stack and max(consumed_heights) <= max_height
                if everything_fits:
                    # Everything fits, start expanding columns at the average
                    # of the column heights
                    if style["column_fill"] == "balance" or index < columns_and_blocks[-1][0]:
                        balancing = True
                        height = sum(consumed_heights) / count
                    else:
                        break
                else:
                    # Content overflows even at maximum height, stop now and
                    # let the columns continue on the next page
                    stop_rendering = True
                    break

        bottom_space = max(bottom_space, context.page_bottom - current_position_y - height)

        i = 0
        max_column_height = 0
        columns = []
        while True:
            column_box = _create_column_box(
                box, containing_block, column_children, width, current_position_y
            )
            if style["direction"] == "rtl":
                column_box.position_x += box.width - (i + 1) * width - i * gap
            else:
                column_box.position_x += i * (width + gap)
            new_child, column_skip_stack, column_next_page, _, _, _ = block_box_layout(
                context,
                column_box,
                bottom_space,
                skip_stack,
                containing_block,
                original_page_is_empty,
                absolute_boxes,
                fixed_boxes,
                None,
                first_letter_style,
                first_line_style,
                discard=False,
                max_lines=None,
            )
            if new_child is None:
                columns = []
                break_page = True
                break
            next_page = column_next_page
            skip_stack = column_skip_stack
            columns.append(new_child)
            max_column_height = max(max_column_height, new_child.margin_height())
            if skip_stack is None:
                bottom_space = original_bottom_space
                break
            i += 1
            if i == count and not height_defined:
                # with a defined height, more columns go on in the inline direction
                break

        current_position_y += min(max_height, max_column_height)
        for column in columns:
            column.height = max_column_height
            new_children.append(column)

        skip_stack = None
        page_is_empty = False

        if stop_rendering:
            break

    _report_footnotes(context, footnote_area_heights[-1])

    if box.children and not new_children:
        context.in_column = False
        return None, (0, None), {"break": "any", "page": None}, [], False

    box.children = new_children
    current_position_y += collapse_margin(adjoining_margins)
    height = current_position_y - box.content_box_y()
    if box.height == "auto":
        box.height = height
        height_difference = 0
    else:
        height_difference = box.height - height

    if box.min_height != "auto" and box.min_height > box.height:
        height_difference += box.min_height - box.height
        box.height = box.min_height
    for child in new_children[::-1]:
        if child.is_column:
            child.height += height_difference
        else:
            break

    if style["position"] == "relative":
        # New containing block, resolve the layout of the absolute descendants
        for absolute_box in absolute_boxes:
            absolute_layout(context, absolute_box, box, fixed_boxes, bottom_space, skip_stack=None)

    if column_skip_stack:
        (skip,) = column_skip_stack.keys()
        skip_stack = {index + skip: column_skip_stack[skip]}
    elif break_page:
        skip_stack = {index: None}

    # Update page bottom according to the new footnotes
    if context.current_footnote_area.height != "auto":
        context.page_bottom += footnote_area_heights[0]
        context.page_bottom -= context.current_footnote_area.margin_height()

    context.in_column = False
    return box, skip_stack, next_page, [], False
