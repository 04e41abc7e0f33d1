"""Discord helpers shared by every cog: how a command answers in time, and nothing else yet that
belongs to one cog."""
