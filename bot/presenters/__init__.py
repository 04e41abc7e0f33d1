"""Per-game presenters; use them through :mod:`bot.presenter`."""
