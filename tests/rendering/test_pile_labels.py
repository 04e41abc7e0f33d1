"""The labels above the piles and the field keep their descenders (issue 45, item 4): the top
card of the stock, drawn a few pixels higher than the pile, never covers "Draw pile"'s p."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from bot.i18n import speaking, t
from rendering.canvas import text
from rendering.table import LABEL_Y, PILE_Y

STACK_LIFT = 4  # the third card of a pile is drawn this much above the pile


@pytest.mark.parametrize("language", ["en", "ja", "ko"])
def test_pile_labels_end_above_the_top_card(language):
    with speaking(language):
        for label in (t("Draw pile"), t("Stock"), t("Discard"), t("Drawn"), t("Field ({cards})", cards=8)):
            image = Image.new("L", (400, 60))
            text(ImageDraw.Draw(image), (0, LABEL_Y), label, 15, fill=255)
            bottom = image.getbbox()[3]
            assert bottom <= PILE_Y - STACK_LIFT, (language, label, bottom)
