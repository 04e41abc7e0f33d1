"""The Discord side's shared parts, which the extensions under ``cogs/`` build on: how a command
answers in time (:mod:`.answer`). Nothing here imports a cog."""
