-- 016: deals anyone can verify (docs/fair-deals.md). A lobby, challenge or rematch draws a
-- secret server seed as it opens and shows only its SHA-256 commitment; the presses that seat a
-- member after that are noted with it ([user id, interaction id] pairs, in order). A game keeps
-- the server seed it was dealt from, the commitment and the presses mixed in, in a row of its
-- own that only its server reads and that reveals the seed once the game has ended. Lobbies and
-- games from before have none: they are shown as not committed.

ALTER TABLE lobbies ADD COLUMN server_seed TEXT
    CHECK (server_seed IS NULL OR length(server_seed) = 64);

ALTER TABLE lobbies ADD COLUMN commitment TEXT
    CHECK (commitment IS NULL OR length(commitment) = 64);

ALTER TABLE lobbies ADD COLUMN seat_presses TEXT NOT NULL DEFAULT '[]'
    CHECK (json_valid(seat_presses) AND json_type(seat_presses) = 'array');

CREATE TABLE game_deals (
    game_id     INTEGER NOT NULL PRIMARY KEY REFERENCES games (game_id),
    server_seed TEXT    NOT NULL CHECK (length(server_seed) = 64),
    commitment  TEXT    NOT NULL CHECK (length(commitment) = 64),
    -- what seated the players after the commitment: [{"role": ..., "id": "<decimal>"}, ...]
    inputs      TEXT    NOT NULL CHECK (json_valid(inputs) AND json_type(inputs) = 'array'),
    derivation  INTEGER NOT NULL CHECK (derivation >= 1),
    created_at  INTEGER NOT NULL
) STRICT;
