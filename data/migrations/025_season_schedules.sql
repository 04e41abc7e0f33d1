-- 025: seasons that start by themselves. Staff choose a cadence in a channel; at the start of
-- every week or month (UTC) the bot starts the next season and announces it there, with the
-- honours of the season that ended. ``owed`` is the season whose announcement is still to be
-- posted (kept across restarts until it is); ``undelivered`` the last one Discord refused for
-- good (the channel gone or closed to the bot), shown to staff on /season list.

CREATE TABLE season_schedules (
    guild_id    INTEGER PRIMARY KEY,
    cadence     TEXT    CHECK (cadence IN ('weekly', 'monthly')),  -- NULL: turned off
    channel_id  INTEGER NOT NULL,
    set_at      INTEGER NOT NULL,
    owed        INTEGER CHECK (owed >= 1),
    undelivered INTEGER CHECK (undelivered >= 1)
) STRICT;
