"""Korean particles chosen by the word before them.

A Korean particle has two forms, chosen by whether the word before it ends in a final consonant
(batchim): 을/를, 이/가, 은/는, 과/와, and 으로/로 (where a final ㄹ takes 로). A translation does
not know the name, card or number that will stand before the particle, so the catalogs write
both forms, the consonant form first with the other in parentheses ("{card}을(를)"), and
:func:`particles` picks the one that fits once the text is filled in. A number is judged as it
is read in Korean (3 삼, 10 십), a Latin name by its last letter as Korean writes English
names, and a mention by the honorific 님 it is read with.
"""

from __future__ import annotations

import re

__all__ = ["final_consonant", "particles"]

# Both forms as the catalogs write them: consonant form, then the vowel form in parentheses
# (either order is accepted: "를(을)" too).
PAIRS = {("을", "를"), ("이", "가"), ("은", "는"), ("과", "와"), ("으로", "로"), ("아", "야"),
         ("이나", "나"), ("이랑", "랑"), ("이에요", "예요")}
_FORMS = sorted({f for pair in PAIRS for f in pair}, key=len, reverse=True)
_PAIR = re.compile("(" + "|".join(_FORMS) + r")\((" + "|".join(_FORMS) + r")\)")
NONE, RIEUL, OTHER = 0, 8, 1  # no final consonant; a final ㄹ (its jongseong index); another one

# The final sound of each digit as read in Sino-Korean: 영 일 이 삼 사 오 육 칠 팔 구.
_DIGIT = {"0": OTHER, "1": RIEUL, "2": NONE, "3": OTHER, "4": NONE, "5": NONE, "6": OTHER,
          "7": RIEUL, "8": RIEUL, "9": NONE}
# English names as Korean writes them: a final l reads ㄹ (앨), m n ng and the stops k p t b d g
# read as a final consonant (샘, 잭); the other letters end in a vowel (스, 즈, 프, 리).
_LATIN = {**{c: OTHER for c in "mnkptbdgcq"}, "l": RIEUL}
_MARKUP = set("*_`~|\"'”’」』)]")  # markdown and closing quotes or brackets around a word


def final_consonant(word: str) -> int:
    """NONE, RIEUL or OTHER for the sound ``word`` ends in (NONE when it cannot be told)."""
    end = len(word)
    while end and word[end - 1] in _MARKUP:
        end -= 1
    if not end:
        return NONE
    last = word[end - 1]
    if "가" <= last <= "힣":
        jong = (ord(last) - 0xAC00) % 28
        return NONE if jong == 0 else RIEUL if jong == RIEUL else OTHER
    if last.isdigit():
        digits = word[:end].rstrip().rsplit(None, 1)[-1].replace(",", "")
        if last == "0" and digits.strip("0"):  # 십, 백, 천, 만: each ends in a consonant
            return OTHER
        return _DIGIT.get(last, NONE)
    if last == ">" and re.search(r"<@!?[0-9]+>$", word[:end]):
        return OTHER  # a mention is read with 님
    return _LATIN.get(last.lower(), NONE)


def _choose(consonant: str, vowel: str, before: int) -> str:
    if (consonant, vowel) not in PAIRS:
        consonant, vowel = vowel, consonant
    if consonant == "으로":  # a final ㄹ takes 로, as a vowel does
        return vowel if before in (NONE, RIEUL) else consonant
    return vowel if before == NONE else consonant


def particles(text: str) -> str:
    """``text`` with each two-form particle resolved by the word before it."""
    if "(" not in text:
        return text
    out, at = [], 0
    for m in _PAIR.finditer(text):
        if (m[1], m[2]) not in PAIRS and (m[2], m[1]) not in PAIRS:
            continue
        before = text[:m.start()]
        mention = re.search(r"<@!?[0-9]+>$", before)
        out.append(text[at:m.start()])
        if mention:
            out.append("님")
        out.append(_choose(m[1], m[2], final_consonant(before)))
        at = m.end()
    out.append(text[at:])
    return "".join(out)
