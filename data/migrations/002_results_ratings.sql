-- 002: match results per human seat and ratings per server and game.

CREATE TABLE results (
    game_id       INTEGER NOT NULL REFERENCES games (game_id),
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    guild_id      INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    points        INTEGER NOT NULL,
    outcome       TEXT    NOT NULL CHECK (outcome IN ('won', 'lost', 'draw')),
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),   -- 0: no other human to rate against
    rating_before REAL,
    rating_after  REAL,
    finished_at   INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK ((rated = 1) = (rating_before IS NOT NULL AND rating_after IS NOT NULL))
) STRICT;

CREATE INDEX results_board ON results (guild_id, game, finished_at);
CREATE INDEX results_user ON results (guild_id, user_id, finished_at);

CREATE TRIGGER results_immutable_u BEFORE UPDATE ON results
BEGIN SELECT RAISE(ABORT, 'results are immutable'); END;
CREATE TRIGGER results_immutable_d BEFORE DELETE ON results
BEGIN SELECT RAISE(ABORT, 'results are immutable'); END;

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    rating     REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins       INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses     INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    draws      INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX ratings_board ON ratings (guild_id, game, rating DESC);
