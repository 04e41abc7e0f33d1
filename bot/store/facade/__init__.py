"""The calls of :class:`~bot.store.store.Store`, grouped by concern: each module is one mixin
that checks a call's arguments and runs its concern module's work in a transaction or a
snapshot; :mod:`bot.store.store` assembles them around the database and the settings cache.
"""
