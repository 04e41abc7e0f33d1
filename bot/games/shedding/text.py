"""The rules as the bot shows them in /rules (Markdown, under Discord's 4096-character embed):
one text per paragraph in the catalogs, so that each language has its own."""

from __future__ import annotations

from bot.i18n import N_

NAME = "First Bloom"

RULES_PARAGRAPHS: tuple[str, ...] = (
    N_("**First Bloom** - a shedding game for 2 to 5 players on the Hanafuda deck.\n"
       "A fan-made game in the spirit of UNO: be the first to empty your hand."),
    N_("**Deal.** 5 cards each (4 each with 4-5 players) and 4 cards face up: the *field*. "
       "Three cards of one month on the field: deal again. The rest is the face-down *draw "
       "pile*; discards go face up beside it. The dealer moves first, then each next seat in "
       "turn."),
    N_("**Your move** (one of):\n"
       "1. *Hand-field*: a hand card on a field card of its month; both go to the discard "
       "pile.\n"
       "2. *Field hiki*: three hand cards of a month on the field card of that month; all "
       "four go.\n"
       "3. *Hand-hand*: two hand cards of a month to the discard pile.\n"
       "4. *Hand hiki*: all four hand cards of a month to the discard pile.\n"
       "5. *Field-field*: two field cards of a month to the discard pile, then one hand card "
       "onto the field.\n"
       "6. *Struggle*: draw a card. If it matches a field card you may discard both (6A) or "
       "keep it (6B); a card that matches nothing is kept.\n"
       "After every move the field is topped up to 4 from the draw pile. You choose the order "
       "of the cards you discard: the last one is on top."),
    N_("**Effects** of the top discard after moves 1-4, on the next player:\n"
       "- Bright: they draw a card and lose their turn.\n"
       "- Poetry ribbon: they draw a card, then play.\n"
       '- Blue ("purple") ribbon: they lose their turn.\n'
       "Field-field, struggle and effects themselves trigger nothing."),
    N_("An empty draw pile is replaced by the shuffled discard pile."),
    N_('**Winning.** Empty your hand: "First!". Every other player pays you 5 per bright and '
       "1 per other card in hand. With 3+ players the others race to press **Slap!**: the "
       "first to slap pays nothing; a seat that never slaps pays. Variant (*batsu*): the last "
       "to slap (or every seat that never slaps) also pays a penalty, 5 by default."),
    N_("**Fine points** (where the rule could be read another way, a table option offers it):\n"
       '- "Purple ribbon" = the three blue ribbons (June, September, October), violet in many '
       "decks (`purple_ribbon`: `non_poetry` adds the plain red ribbons, `none` turns the "
       "skip off).\n"
       '- "If necessary" does not restrict the struggle: you may draw any time (`struggle`: '
       "`only_if_stuck`).\n"
       "- A drawn card that matches may be kept, as 6B says (`struggle_keep_match`: off "
       "forces 6A).\n"
       "- In the batsu variant the first slapper is still excused (`race_exempt_first`: off "
       "makes everyone pay).\n"
       '- "Left" and "counter-clockwise" both mean the next seat in the bot\'s seat order.\n'
       "- Moves 5, 6A and 6B, a pass and the effects trigger no effect: only moves 1-4 do.\n"
       "- With no card to draw anywhere, a draw is skipped and the field refills later; a "
       "player who can do nothing passes.\n"
       "- A round that reaches the turn limit (400 turns by default) ends with no winner and "
       "no payment. The winner deals the next round (`next_dealer`: `rotate`)."),
)

#: The rules in English (the catalogs' key; :func:`bot.rules_text.how_to_play` shows them in
#: the reader's language).
RULES_TEXT = "\n\n".join(RULES_PARAGRAPHS) + "\n"
