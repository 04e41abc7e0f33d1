"""Hana-Awase: the classic fishing game for two to four players (docs/rules/hana-awase.md;
seed 004)."""

from ..descriptor import lazy_engine
from .descriptor import DESCRIPTOR

# The engine's names (``Rules``, ``new_match``...) load from .engine when first read, so the
# descriptor costs no engine import.
__getattr__ = lazy_engine(__name__, f"{__name__}.engine")

__all__ = ["DESCRIPTOR"]
