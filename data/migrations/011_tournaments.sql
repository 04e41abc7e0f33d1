-- 011: tournaments. A tournament is signed up for by button until staff start it, then played in
-- rounds of pairings, each pairing a game the bot opens (games.game_id). Entry fees go from the
-- entrant to the house, which holds the pot for the tournament (tournaments.pot) until it pays
-- the prizes or refunds the fees; every such transfer's key names the tournament.

CREATE TABLE tournaments (
    tournament_id INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,                      -- the sign-up and standings message
    created_by    INTEGER NOT NULL,
    game          TEXT    NOT NULL CHECK (length(game) BETWEEN 1 AND 32),
    format        TEXT    NOT NULL CHECK (format IN ('swiss', 'single_elimination', 'round_robin')),
    rules         TEXT    NOT NULL CHECK (json_valid(rules)),
    fee           INTEGER NOT NULL DEFAULT 0 CHECK (fee >= 0),
    pot           INTEGER NOT NULL DEFAULT 0 CHECK (pot >= 0),
    status        TEXT    NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round         INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),   -- the round being played
    rounds        INTEGER NOT NULL DEFAULT 0 CHECK (rounds >= 0),  -- planned, fixed at the start
    idem_key      TEXT    NOT NULL UNIQUE,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    ended_at      INTEGER
) STRICT;

CREATE INDEX tournaments_live ON tournaments (status) WHERE status IN ('open', 'running');

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    entrant       INTEGER NOT NULL CHECK (entrant >= 1),  -- sign-up order
    user_id       INTEGER,                                -- NULL: an AI entrant
    ai_level      TEXT    CHECK (ai_level IS NULL OR length(ai_level) BETWEEN 1 AND 16),
    name          TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    status        TEXT    NOT NULL DEFAULT 'in' CHECK (status IN ('in', 'left', 'dropped')),
    seed          INTEGER CHECK (seed IS NULL OR seed >= 1),  -- given at the start
    joins         INTEGER NOT NULL DEFAULT 1 CHECK (joins >= 1),  -- names each fee's transfer
    paid          INTEGER NOT NULL DEFAULT 0 CHECK (paid >= 0),   -- fee held in the pot now
    place         INTEGER CHECK (place IS NULL OR place >= 1),
    prize         INTEGER NOT NULL DEFAULT 0 CHECK (prize >= 0),
    joined_at     INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, entrant),
    CHECK ((user_id IS NULL) = (ai_level IS NOT NULL))
) STRICT;

CREATE UNIQUE INDEX tournament_entrants_user ON tournament_entrants (tournament_id, user_id)
    WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX tournament_entrants_seed ON tournament_entrants (tournament_id, seed)
    WHERE seed IS NOT NULL;

CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    status        TEXT    NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'done')),
    announced     INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1)),  -- standings posted
    started_at    INTEGER NOT NULL,
    ended_at      INTEGER,
    PRIMARY KEY (tournament_id, round)
) STRICT;

-- One row per table of a round; entrants are their seeds. b NULL: a bye for a (scored as a win).
CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    board         INTEGER NOT NULL CHECK (board >= 1),
    a             INTEGER NOT NULL,
    b             INTEGER,
    game_id       INTEGER REFERENCES games (game_id),
    status        TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
    winner        INTEGER,                       -- a seed; NULL with status done: a draw
    PRIMARY KEY (tournament_id, round, board),
    CHECK (b IS NOT NULL OR (status = 'done' AND winner = a)),
    CHECK (winner IS NULL OR winner = a OR winner = b)
) STRICT;

CREATE UNIQUE INDEX tournament_pairings_game ON tournament_pairings (game_id)
    WHERE game_id IS NOT NULL;
