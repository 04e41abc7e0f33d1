-- 001: per-server settings, games and their append-only action log.
-- Times are INTEGER milliseconds since the Unix epoch (UTC). Discord snowflakes are INTEGER.

CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    house_rules    TEXT    NOT NULL DEFAULT '{}'
                   CHECK (json_valid(house_rules) AND json_type(house_rules) = 'object'),
    turn_timeout_s INTEGER NOT NULL DEFAULT 120 CHECK (turn_timeout_s BETWEEN 10 AND 86400),
    hand_delivery  TEXT    NOT NULL DEFAULT 'dm' CHECK (hand_delivery IN ('dm', 'ephemeral')),
    starting_chips INTEGER NOT NULL DEFAULT 1000 CHECK (starting_chips BETWEEN 0 AND 1000000000000),
    daily_amount   INTEGER NOT NULL DEFAULT 100 CHECK (daily_amount BETWEEN 0 AND 1000000000000),
    currency_name  TEXT    NOT NULL DEFAULT 'chips' CHECK (length(currency_name) BETWEEN 1 AND 32),
    stake_policy   TEXT    NOT NULL DEFAULT 'everyone'
                   CHECK (stake_policy IN ('everyone', 'managers', 'role', 'nobody')),
    stake_role_id  INTEGER,
    updated_at     INTEGER NOT NULL,
    CHECK ((stake_policy = 'role') = (stake_role_id IS NOT NULL))
) STRICT;

CREATE TABLE games (
    game_id       INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: escrow and results point here
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,                            -- the table message, known after posting
    game          TEXT    NOT NULL,
    rules         TEXT    NOT NULL CHECK (json_valid(rules)),
    players       TEXT    NOT NULL CHECK (json_valid(players) AND json_type(players) = 'array'),
    stake         INTEGER NOT NULL DEFAULT 0 CHECK (stake >= 0),
    status        TEXT    NOT NULL DEFAULT 'running'
                  CHECK (status IN ('running', 'finished', 'cancelled')),
    state         TEXT    NOT NULL CHECK (json_valid(state)),
    state_version INTEGER NOT NULL,
    last_seq      INTEGER NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
    seed          TEXT    NOT NULL CHECK (json_valid(seed)),  -- JSON: seeds may be 64-bit unsigned or text
    start_key     TEXT    UNIQUE,                     -- idempotency of "start game" retries
    payouts       TEXT    CHECK (payouts IS NULL OR json_valid(payouts)),
    end_reason    TEXT,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    CHECK ((status = 'running') = (ended_at IS NULL))
) STRICT;

CREATE INDEX games_by_guild ON games (guild_id, status, game_id);
CREATE INDEX games_running ON games (game_id) WHERE status = 'running';

-- Enough to replay a game from its seed: the ordered actions with who took them.
CREATE TABLE game_events (
    game_id    INTEGER NOT NULL REFERENCES games (game_id),
    seq        INTEGER NOT NULL CHECK (seq > 0),
    actor      ANY     NOT NULL CHECK (typeof(actor) IN ('integer', 'text')),  -- user id or 'ai', 'timeout'...
    action     TEXT    NOT NULL,
    events     TEXT    NOT NULL CHECK (json_valid(events)),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER game_events_append_only_u BEFORE UPDATE ON game_events
BEGIN SELECT RAISE(ABORT, 'game_events is append-only'); END;
CREATE TRIGGER game_events_append_only_d BEFORE DELETE ON game_events
BEGIN SELECT RAISE(ABORT, 'game_events is append-only'); END;
