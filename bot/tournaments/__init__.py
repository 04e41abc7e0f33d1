"""Tournaments: pure pairing and standings (:mod:`.pairing`), prizes (:mod:`.prizes`); the store
keeps their state (:mod:`bot.store.tournaments`) and ``cogs.tournaments`` runs them on Discord."""
