-- 008: seasons. Staff start a new season by name; every finished game belongs to the season it
-- finished in (0: before the server's first season), and ratings are kept per season, starting
-- afresh in each. Seasons are never changed or removed: a past season's boards stay as they were.

CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL CHECK (season >= 1),
    name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    started_at INTEGER NOT NULL,
    started_by INTEGER NOT NULL,
    idem_key   TEXT    NOT NULL UNIQUE,
    PRIMARY KEY (guild_id, season)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER seasons_immutable_u BEFORE UPDATE ON seasons
BEGIN SELECT RAISE(ABORT, 'seasons are immutable'); END;
CREATE TRIGGER seasons_immutable_d BEFORE DELETE ON seasons
BEGIN SELECT RAISE(ABORT, 'seasons are immutable'); END;

ALTER TABLE results ADD COLUMN season INTEGER NOT NULL DEFAULT 0 CHECK (season >= 0);

CREATE INDEX results_season ON results (guild_id, season, game);

CREATE TABLE season_ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    season     INTEGER NOT NULL CHECK (season >= 0),
    user_id    INTEGER NOT NULL,
    rating     REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins       INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses     INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    draws      INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, season, user_id)
) STRICT, WITHOUT ROWID;

INSERT INTO season_ratings (guild_id, game, season, user_id, rating, games, wins, losses, draws,
                            updated_at)
SELECT guild_id, game, 0, user_id, rating, games, wins, losses, draws, updated_at FROM ratings;

DROP TABLE ratings;

ALTER TABLE season_ratings RENAME TO ratings;

CREATE INDEX ratings_board ON ratings (guild_id, game, season, rating DESC);
