-- 030: reminders of the deal of the day. A member who asks on a server is sent a DM each day at
-- the hour they chose (UTC, by default 20:00: four hours before the day's deals end), while they
-- have not played that server's deal of the day yet. The day whose reminder is done (sent, or refused by Discord for good, which stops them
-- until the member asks again) is noted, so each day's goes out once across restarts; the DM's
-- Stop button names the reminder by a random key, never by the member's or the server's id.

CREATE TABLE daily_reminders (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    stop_key     TEXT    NOT NULL UNIQUE CHECK (length(stop_key) = 16),
    hour         INTEGER NOT NULL DEFAULT 20 CHECK (hour BETWEEN 0 AND 23),  -- UTC
    set_at       INTEGER NOT NULL,
    reminded_day TEXT    NOT NULL CHECK (length(reminded_day) = 10),  -- the last day done
    refused_day  TEXT    CHECK (refused_day IS NULL OR length(refused_day) = 10),
    PRIMARY KEY (guild_id, user_id)
) STRICT;

CREATE INDEX daily_reminders_due ON daily_reminders (reminded_day);
