"""An interaction's token, kept to edit its answer and send follow-ups for up to 15 minutes.

The publisher keeps one token per table and one per player's hand for as long as Discord
accepts them. Keeping the ``discord.Interaction`` itself would keep everything discord.py read
with the press (the user and member, the payload, the app's context and permissions): some
twenty objects each, which every full pass of the garbage collector walks for the token's whole
life (issue 49). A :class:`Token` keeps what its uses read (the interaction's id, who pressed,
whether its answers may be public) and the follow-up webhook, which holds only the
application's id, the token and the client's shared state.

A token that is the only way to a message (a private hand's copy, a table where the app is a
guest) is also kept in the store for its 15 minutes (:meth:`Token.note`, :meth:`Token.kept`), so
that a start after a crash brings that message up to date as it does every other.
"""

from __future__ import annotations

from typing import Any

import discord

ORIGINAL = "@original"
"""The message id Discord's webhook routes take for an interaction's answer."""


def answers_publicly(interaction: discord.Interaction) -> bool:
    """Whether an answer to ``interaction`` may be seen by everyone there."""
    return bool(interaction.context.dm_channel) or interaction.app_permissions.use_external_apps


def followup_webhook(bot: discord.Client, application_id: int, token: str) -> discord.Webhook:
    """An interaction's follow-up webhook from its application's id and token, as discord.py
    builds ``interaction.followup`` (an application webhook: it may answer privately)."""
    return discord.Webhook.from_state(
        {"id": application_id, "type": 3, "token": token},
        state=bot._connection)  # type: ignore[attr-defined]


class Token:
    """What a kept interaction is used for after its press was handled."""

    __slots__ = ("id", "user_id", "public", "followup")

    def __init__(self, interaction: discord.Interaction) -> None:
        self.id: int = interaction.id
        self.user_id: int = interaction.user.id
        self.public: bool = answers_publicly(interaction)
        # The same webhook discord.py answers follow-ups with: no link back to the interaction.
        self.followup: discord.Webhook = interaction.followup

    def note(self) -> dict[str, Any]:
        """What the store keeps of the token (:meth:`kept` builds it again)."""
        return {"interaction": self.id, "user": self.user_id, "public": self.public,
                "application": self.followup.id, "token": self.followup.token}

    @classmethod
    def kept(cls, bot: discord.Client, note: dict[str, Any]) -> Token:
        """The token a :meth:`note` was taken of, after a restart."""
        token = cls.__new__(cls)
        token.id, token.user_id = int(note["interaction"]), int(note["user"])
        token.public = bool(note["public"])
        token.followup = followup_webhook(bot, int(note["application"]), str(note["token"]))
        return token

    async def edit_original_response(self, **fields: Any) -> discord.WebhookMessage:
        """Edit the interaction's answer (what ``Interaction.edit_original_response`` sends)."""
        return await self.followup.edit_message(ORIGINAL, **fields)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"<Token of interaction {self.id} by {self.user_id}>"
