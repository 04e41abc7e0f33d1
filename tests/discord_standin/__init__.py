"""A local Discord stand-in for end-to-end tests of the bot with the unmodified discord.py client.

`StandIn` serves REST and the gateway on 127.0.0.1, validates every request body against
Discord's OpenAPI spec and records what each simulated user would see. See `tests/e2e/conftest.py`
for the fixtures that start it and connect a bot.
"""

from .server import CommandHidden, StandIn, WaitTimeout
from .spec import SpecIndex, SpecMissing, load_spec, spec_path
from .state import Channel, Guild, InteractionRecord, Member, Message, Role, User, Violation
from .testing import BotRunner, spec_or_skip
from .users import SimUser

__all__ = [
    "BotRunner",
    "CommandHidden",
    "Channel",
    "Guild",
    "InteractionRecord",
    "Member",
    "Message",
    "Role",
    "SimUser",
    "SpecIndex",
    "SpecMissing",
    "StandIn",
    "User",
    "Violation",
    "WaitTimeout",
    "load_spec",
    "spec_or_skip",
    "spec_path",
]
