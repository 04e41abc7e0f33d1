"""The table as a Discord Activity: a web page inside Discord that shows a running table and
takes its presses, the third surface of the same tables (docs/activity.md).

:mod:`bot.activity.server` serves the page, the OAuth2 sign-in and one WebSocket per open page;
:mod:`bot.activity.surface` is the :class:`bot.tables.surface.TableSurface` that pushes each table's
state to those sockets; :mod:`bot.activity.state` says what a viewer sees of a table.
"""
