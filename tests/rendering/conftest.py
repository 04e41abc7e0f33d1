"""Shared helpers for the rendering tests."""

from __future__ import annotations

import io

from PIL import Image


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image
