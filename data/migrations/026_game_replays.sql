-- 026: a game played again names the game before it (a rematch on Discord, the Activity's
-- Play again): a chain of them is a series, whose tally the final table shows. Set when the game
-- is created, never changed; the game before is of the same server.

ALTER TABLE games ADD COLUMN replays_game_id INTEGER REFERENCES games (game_id);
