-- 013: whether an ended game's messages were brought to their end: the final table, the hands
-- without controls. A game that ends just before the process stops is shown at the next start;
-- every game that ended before this column existed counts as shown.

ALTER TABLE games ADD COLUMN final_shown INTEGER NOT NULL DEFAULT 1 CHECK (final_shown IN (0, 1));

CREATE INDEX games_unshown ON games (game_id) WHERE final_shown = 0;
