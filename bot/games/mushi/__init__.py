"""Mushi: the two-player Osaka fishing game with the 40-card deck and the wild lightning
(docs/rules/mushi.md)."""

from ..descriptor import lazy_engine
from .descriptor import DESCRIPTOR

# The engine's names (``Rules``, ``new_match``...) load from .engine when first read, so the
# descriptor costs no engine import.
__getattr__ = lazy_engine(__name__, f"{__name__}.engine")

__all__ = ["DESCRIPTOR"]
