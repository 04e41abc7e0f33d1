-- 015: what a surface that shows games keeps about each one (the Discord surface: the table's
-- message, each hand's direct message, who reads their hand privately, the turn alert), in rows
-- of its own: a table's state holds the game alone, and each surface owns its notes. A seat of
-- -1 is the table's own row; a member who is forgotten takes their seat's rows with them.

CREATE TABLE surface_notes (
    game_id    INTEGER NOT NULL REFERENCES games (game_id),
    surface    TEXT    NOT NULL CHECK (length(surface) BETWEEN 1 AND 32),
    seat       INTEGER NOT NULL CHECK (seat >= -1),
    notes      TEXT    NOT NULL CHECK (json_valid(notes)),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, surface, seat)
) STRICT, WITHOUT ROWID;

-- The notes the Discord surface kept inside the state of games that still need them.
-- step: surface_notes
