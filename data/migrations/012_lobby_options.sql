-- 012: a lobby's game options beyond the common columns (rounds, target, preset, teams), as a
-- JSON object of rule names to values: Seotda's per-table ante and raise limit. They override
-- the server's house rules for that table only; '{}' (every older row) means none.

ALTER TABLE lobbies ADD COLUMN options TEXT NOT NULL DEFAULT '{}'
    CHECK (json_valid(options) AND json_type(options) = 'object');
