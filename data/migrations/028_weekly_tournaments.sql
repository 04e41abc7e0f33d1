-- 028: tournaments that come back every week. Staff set one per channel: its game, format,
-- match length, entry fee and rule set, the weekday and hour (UTC) it starts, and how long
-- before that its sign-up opens. Each week the bot opens that week's tournament (keyed by the
-- channel and its start, so once however often it looks) and posts its sign-up message; the
-- tournament then starts by itself (tournaments.starts_at). No member's id is kept here.

CREATE TABLE tournament_schedules (
    channel_id  INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL CHECK (length(game) BETWEEN 1 AND 32),
    format      TEXT    NOT NULL CHECK (format IN ('swiss', 'single_elimination', 'round_robin')),
    rounds      INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 1000),
    fee         INTEGER NOT NULL DEFAULT 0 CHECK (fee >= 0),
    preset      TEXT    CHECK (preset IS NULL OR length(preset) BETWEEN 1 AND 32),
    weekday     INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),   -- 0: Monday
    hour        INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),     -- UTC
    signup_min  INTEGER NOT NULL CHECK (signup_min BETWEEN 1 AND 10080),
    set_at      INTEGER NOT NULL
) STRICT;

CREATE INDEX tournament_schedules_guild ON tournament_schedules (guild_id);
