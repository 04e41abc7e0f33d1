-- 023: seats opened from an Activity's page to play a finished game again. They are a lobby
-- (each of that game's players takes a seat; the last seat starts it), not a rematch, whose
-- players confirm on a message; the game they replay (a lobby's only) gives its rules and who
-- may sit, and the store checks both.

ALTER TABLE lobbies ADD COLUMN replays_game_id INTEGER REFERENCES games (game_id);
