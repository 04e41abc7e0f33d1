-- 029: the deal of the day. Each server has, per game and UTC day, one secret server seed that
-- deals every member's game of that game that day against the AI (the same cards for all), with
-- the rules fixed at the day's first look; its SHA-256 is shown all day and the seed is revealed
-- once the day has ended. A member has one entry per game and day, claimed before its game
-- starts (under the start key of that game, so a retried start finds it) and scored in the
-- transaction that finishes the game: the margin over the AI, if it ended within its day. A
-- member may share a scored result with the channel once.

CREATE TABLE daily_deals (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL CHECK (length(game) BETWEEN 1 AND 32),
    day         TEXT    NOT NULL CHECK (length(day) = 10),          -- YYYY-MM-DD, UTC
    server_seed TEXT    NOT NULL CHECK (length(server_seed) = 64),
    commitment  TEXT    NOT NULL CHECK (length(commitment) = 64),
    rules       TEXT    NOT NULL CHECK (json_valid(rules)),
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, day)
) STRICT;

CREATE TABLE daily_entries (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    day         TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    start_key   TEXT    NOT NULL UNIQUE,                            -- games.start_key of its game
    margin      INTEGER,                                            -- set by the game's finish
    finished_at INTEGER,
    claimed_at  INTEGER NOT NULL,
    shared_at   INTEGER,                                            -- its result posted to the channel
    PRIMARY KEY (guild_id, game, day, user_id),
    FOREIGN KEY (guild_id, game, day) REFERENCES daily_deals (guild_id, game, day),
    CHECK ((margin IS NULL) = (finished_at IS NULL))
) STRICT;

CREATE INDEX daily_entries_board ON daily_entries (guild_id, game, day, margin);

-- Where a server's new deals are announced each day, if staff chose a channel: the day whose
-- post went out (or was refused for good), so that each day's is posted once, across restarts.
-- No member's id is kept here.
CREATE TABLE daily_posts (
    guild_id    INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL,
    set_at      INTEGER NOT NULL,
    posted_day  TEXT    NOT NULL CHECK (length(posted_day) = 10),   -- the last day done
    refused_day TEXT    CHECK (refused_day IS NULL OR length(refused_day) = 10)
) STRICT;
