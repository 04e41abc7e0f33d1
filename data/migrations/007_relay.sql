-- 007: presses relayed between the processes of a sharded bot. Discord sends every direct
-- message to shard 0, the controls on the hands among them; a press whose game another process
-- drives waits here until that process takes it (at once when told, or when it starts again).

CREATE TABLE relayed_presses (
    press_id   INTEGER PRIMARY KEY AUTOINCREMENT,
    shard      INTEGER NOT NULL CHECK (shard >= 0),
    game_id    INTEGER NOT NULL,
    press      TEXT    NOT NULL CHECK (json_valid(press)),
    created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX relayed_presses_by_shard ON relayed_presses (shard, press_id);
