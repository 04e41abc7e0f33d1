"""Discord's rules for laid-out messages (Components V2), as the stand-in enforces them.

A message sent or edited with the IS_COMPONENTS_V2 flag is made of components alone: no content,
no embeds, at most 40 components counted through every level of nesting, at most 4000
characters across its text displays, and every ``attachment://name`` it shows must name one of
its attachments. Once set, the flag stays for the message's life. Without it, a message's
components are action rows only (at most five). The request's shape is checked against the
OpenAPI description as every request is; these are the rules the schema cannot say.
"""

from __future__ import annotations

import copy
from typing import Any

MESSAGE_FLAG_COMPONENTS_V2 = 1 << 15
COMPONENT_LIMIT = 40
TEXT_LIMIT = 4000
ACTION_ROWS = 5
TYPE_ACTION_ROW = 1
TYPE_TEXT_DISPLAY = 10
TYPE_THUMBNAIL = 11
TYPE_MEDIA_GALLERY = 12
TYPE_FILE = 13
ATTACHMENT = "attachment://"


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        out.extend(_walk(comp.get("components") or []))
        if isinstance(comp.get("accessory"), dict):
            out.extend(_walk([comp["accessory"]]))
    return out


def media_urls(components: list[dict[str, Any]]) -> list[str]:
    """Every media URL a message's components show (galleries, thumbnails, files)."""
    urls: list[str] = []
    for comp in _walk(components):
        if comp.get("type") == TYPE_MEDIA_GALLERY:
            urls += [(item.get("media") or {}).get("url", "") for item in comp.get("items") or []]
        elif comp.get("type") in (TYPE_THUMBNAIL, TYPE_FILE):
            urls.append((comp.get("media") or comp.get("file") or {}).get("url", ""))
    return urls


def text_length(components: list[dict[str, Any]]) -> int:
    return sum(len(c.get("content") or "") for c in _walk(components) if c.get("type") == TYPE_TEXT_DISPLAY)


def problem(
    *,
    flags: int,
    content: str,
    embeds: list[Any],
    components: list[dict[str, Any]],
    attachment_names: list[str],
    was_v2: bool = False,
) -> str | None:
    """What Discord would refuse in a message that would look like this after the request; None
    when it accepts it. ``was_v2``: the message had the flag before an edit."""
    v2 = bool(flags & MESSAGE_FLAG_COMPONENTS_V2)
    if was_v2 and not v2:
        return "IS_COMPONENTS_V2 cannot be removed from a message"
    if not v2:
        if any(c.get("type") != TYPE_ACTION_ROW for c in components):
            return "components other than action rows need the IS_COMPONENTS_V2 flag"
        if len(components) > ACTION_ROWS:
            return f"{len(components)} action rows (at most {ACTION_ROWS})"
        return None
    if content:
        return "content cannot be used with the IS_COMPONENTS_V2 flag"
    if embeds:
        return "embeds cannot be used with the IS_COMPONENTS_V2 flag"
    count = len(_walk(components))
    if count > COMPONENT_LIMIT:
        return f"{count} components (at most {COMPONENT_LIMIT}, counting nested ones)"
    chars = text_length(components)
    if chars > TEXT_LIMIT:
        return f"{chars} characters of text displays (at most {TEXT_LIMIT})"
    names = set(attachment_names)
    for url in media_urls(components):
        if url.startswith(ATTACHMENT) and url[len(ATTACHMENT):] not in names:
            return f"{url} names no attachment of the message"
    return None


def resolved(components: list[dict[str, Any]], attachments: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The components as Discord returns them: each ``attachment://name`` replaced by the
    unfurled attachment (``attachments``: file name -> its attachment payload)."""
    out = copy.deepcopy(components)
    for comp in _walk(out):
        media_items = comp.get("items") if comp.get("type") == TYPE_MEDIA_GALLERY else None
        for item in media_items or []:
            item.setdefault("description", None)
            item.setdefault("spoiler", False)
            media = item.get("media") or {}
            url = media.get("url", "")
            found = attachments.get(url[len(ATTACHMENT):]) if url.startswith(ATTACHMENT) else None
            if found is not None:
                item["media"] = {
                    "id": found["id"],
                    "url": found["url"],
                    "proxy_url": found["proxy_url"],
                    "content_type": found.get("content_type"),
                    "attachment_id": found["id"],
                }
    return out
