-- 005: rematches are lobbies too. A rematch names the finished game it repeats (source_game_id);
-- its humans are the players who confirmed so far, and it starts through the same
-- open -> starting transaction as a lobby, so however many presses arrive, one match starts.
-- SQLite cannot widen a CHECK constraint in place: the table is rebuilt with its rows.

CREATE TABLE lobbies_v5 (
    lobby_id    TEXT    PRIMARY KEY CHECK (length(lobby_id) BETWEEN 16 AND 64),
    kind        TEXT    NOT NULL CHECK (kind IN ('lobby', 'challenge', 'rematch')),
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,                       -- the lobby message, known after posting
    host_id     INTEGER NOT NULL,
    opponent_id INTEGER,                       -- the challenged member
    game        TEXT    NOT NULL CHECK (length(game) BETWEEN 1 AND 32),
    stake       INTEGER NOT NULL DEFAULT 0 CHECK (stake >= 0),
    rounds      INTEGER CHECK (rounds IS NULL OR rounds > 0),
    target      INTEGER CHECK (target IS NULL OR target > 0),
    preset      TEXT    CHECK (preset IS NULL OR length(preset) BETWEEN 1 AND 32),
    teams       TEXT    CHECK (teams IS NULL OR teams IN ('off', 'pairs', 'triples')),
    min_seats   INTEGER NOT NULL CHECK (min_seats >= 1),
    max_seats   INTEGER NOT NULL CHECK (max_seats >= min_seats),
    -- seats in the order they were taken: user ids (JSON numbers) and AI levels (JSON strings)
    humans      TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(humans) AND json_type(humans) = 'array'),
    ais         TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(ais) AND json_type(ais) = 'array'),
    status      TEXT    NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'starting', 'started', 'closed', 'expired')),
    game_id     INTEGER REFERENCES games (game_id),
    expires_at  INTEGER,                       -- ms since the epoch; NULL: open until closed
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    source_game_id INTEGER REFERENCES games (game_id),  -- the finished game a rematch repeats
    CHECK ((kind = 'challenge') = (opponent_id IS NOT NULL)),
    CHECK ((kind = 'rematch') = (source_game_id IS NOT NULL)),
    CHECK ((status = 'started') = (game_id IS NOT NULL)),
    CHECK (json_array_length(humans) + json_array_length(ais) <= max_seats)
) STRICT;

INSERT INTO lobbies_v5 (lobby_id, kind, guild_id, channel_id, message_id, host_id, opponent_id,
                        game, stake, rounds, target, preset, teams, min_seats, max_seats, humans,
                        ais, status, game_id, expires_at, created_at, updated_at)
SELECT lobby_id, kind, guild_id, channel_id, message_id, host_id, opponent_id, game, stake, rounds,
       target, preset, teams, min_seats, max_seats, humans, ais, status, game_id, expires_at,
       created_at, updated_at
FROM lobbies;

DROP TABLE lobbies;

ALTER TABLE lobbies_v5 RENAME TO lobbies;

CREATE INDEX lobbies_pending ON lobbies (status, expires_at) WHERE status IN ('open', 'starting');

-- One live rematch per finished game: concurrent first presses find the same row. An expired
-- or declined rematch leaves room for a new one.
CREATE UNIQUE INDEX lobbies_live_rematch ON lobbies (source_game_id)
    WHERE kind = 'rematch' AND status IN ('open', 'starting', 'started');
