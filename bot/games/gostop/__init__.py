"""Go-Stop (Matgo for two players, and three players): the Korean fishing game
(docs/rules/gostop.md).

For the table and the cogs (everything below is plain JSON):

Phases (``observation["phase"]``) and the action texts of each (``str(action)``):

* ``chongtong``: a holder of four of a month decides: ``chongtong`` (reveal and win) or ``pass``;
* ``play``: ``play:<card>`` or ``play:<card>><field card>`` (two field cards match: the target),
  ``shake:<card>[><field card>]`` (reveal the triplet and play that card), ``bomb:<card>``
  (three of a month in hand, the fourth on the field; two and two with ``small_bomb``),
  ``draw`` (a draw-only turn after a bomb), ``joker:<joker id>``;
* ``choose_draw``: ``choose:<turned card>><field card>``;
* ``decide``: ``go`` (only while the player has a turn left) or ``stop``;
* ``reading``: ``sake_animal`` or ``sake_pi`` (the holder of the sake cup, when its reading
  changes the payments; ``observation["reading_options"]`` shows both settlements);
* ``over``.

Events (``apply`` returns them in order; none reveals a hidden card): ``deal``, ``misdeal``,
``joker_to_dealer``, ``field_four``, ``chongtong``, ``chongtong_pass``, ``shake``, ``play``,
``bomb``, ``bomb_turn``, ``joker``, ``draw`` (with ``choose`` when two field cards match),
``capture`` (``event``: ppeok_capture, triplet_capture, jjok, ttadak, bomb, joker),
``ppeok``, ``ppeok_taken``, ``jjok``, ``ttadak``, ``sseul``, ``final_turn``, ``steal``,
``score``, ``go``, ``stop``, ``reading_choice``, ``reading``, ``round_end``. Cards are
canonical ids; events and observations also give ``korean_month`` numbers (willow 12,
paulownia 11) for the screen. Jokers are ``joker_1``, ``joker_2`` (2 pi) and ``joker_3`` (3 pi).

The observation adds to the shared piles: ``korean_month`` (id -> Korean month of every visible
card), ``stop_minimum``, per seat ``scores``, ``yaku``, ``pi``, ``brights``, ``animals``,
``ribbons``, ``progress``, ``goes``, ``shakes``, ``bombs``, ``bomb_turns``, ``ppeoks`` and
``revealed`` (shaken cards still in that hand), ``stacks`` (stacks of three on the field),
``nagari`` and ``nagari_multiplier``, ``mission_month`` and ``outcome``.

``RoundResult.detail`` of a won round is :func:`settle`'s dict: ``base``, ``yaku``, ``goes``,
``bonus`` and ``multipliers`` (name, value), ``score``, one ``payments`` entry per loser
(``amount`` paid, ``owed`` before liability, ``penalties``, ``extra``, ``exempt``,
``pays_for``), ``liable``, ``points`` (zero-sum per seat) and ``carry`` (the nagari count the
next round doubles by).
"""

from ..descriptor import lazy_engine
from .descriptor import DESCRIPTOR

# The engine's names (``Rules``, ``new_match``...) load from .engine when first read, so the
# descriptor costs no engine import.
__getattr__ = lazy_engine(__name__, f"{__name__}.engine")

__all__ = ["DESCRIPTOR"]
