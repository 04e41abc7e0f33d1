-- 004: open lobbies and challenges. Their buttons carry only the opaque lobby_id, so nothing a
-- crafted interaction sends can change who hosts, what is staked or who is seated: every press is
-- checked against this row. Starting moves status open -> starting in one transaction, so of
-- several presses at once exactly one starts the game.

CREATE TABLE lobbies (
    lobby_id    TEXT    PRIMARY KEY CHECK (length(lobby_id) BETWEEN 16 AND 64),
    kind        TEXT    NOT NULL CHECK (kind IN ('lobby', 'challenge')),
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
    CHECK ((kind = 'challenge') = (opponent_id IS NOT NULL)),
    CHECK ((status = 'started') = (game_id IS NOT NULL)),
    CHECK (json_array_length(humans) + json_array_length(ais) <= max_seats)
) STRICT;

-- Restart recovery and the challenge expiry timers look only at unfinished rows.
CREATE INDEX lobbies_pending ON lobbies (status, expires_at) WHERE status IN ('open', 'starting');
