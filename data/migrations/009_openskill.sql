-- 009: ratings from OpenSkill (Plackett-Luce) instead of pairwise Elo. Each player has a skill
-- mu and an uncertainty sigma per server, game and season; `rating` is what boards show and rank
-- by, the conservative mu - 3 sigma. Every server's ratings are computed again from its stored
-- results, in the order the games finished, and each result's rating before and after with them
-- (the step below; the results stay immutable outside this migration).

ALTER TABLE ratings ADD COLUMN mu REAL NOT NULL DEFAULT 1500;
ALTER TABLE ratings ADD COLUMN sigma REAL NOT NULL DEFAULT 500 CHECK (sigma > 0);

-- dialect: sqlite
DROP TRIGGER results_immutable_u;
-- dialect: postgresql
DROP TRIGGER results_immutable_u ON results;
-- dialect: both

-- step: openskill_ratings

CREATE TRIGGER results_immutable_u BEFORE UPDATE ON results
BEGIN SELECT RAISE(ABORT, 'results are immutable'); END;
