"""One process of a sharded bot for the end-to-end tests: run it as ``python -m tests.e2e.shardbot``
(see ``__main__.py``). The code lives in ``__main__.py`` so that the worker processes the bot
spawns do not import it again: ``multiprocessing`` re-imports a main module in each spawned child,
except a package's ``__main__``, as for ``python -m bot`` in production."""
