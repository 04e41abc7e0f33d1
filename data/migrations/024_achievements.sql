-- 024: achievements. A member earns each at most once per server, with the game or the
-- tournament that earned it, in the transaction that stores that game's results or the
-- tournament's places (bot/store/achievements.py). Kept like results: a server's purge removes
-- them, and a member who asks to be forgotten loses theirs.

CREATE TABLE achievements (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    code          TEXT    NOT NULL CHECK (length(code) BETWEEN 1 AND 32),
    game_id       INTEGER REFERENCES games (game_id),              -- the game that earned it
    tournament_id INTEGER REFERENCES tournaments (tournament_id),  -- or the tournament won
    earned_at     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, code),
    CHECK ((game_id IS NULL) <> (tournament_id IS NULL))
) STRICT, WITHOUT ROWID;

CREATE INDEX achievements_game ON achievements (game_id);

-- What a finish counts for them: a member's games, wins and kinds of game on a server, read from
-- the index alone (bounded counts, bot/store/achievements.py).
CREATE INDEX results_achieved ON results (guild_id, user_id, game, outcome);
