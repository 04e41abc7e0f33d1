-- 017: the places where the app plays as a guest (a DM, a group DM, a server that never added
-- the bot). Their games are kept under the channel's id instead of a server's (the place's
-- scope); this table says which scopes those are, so a player's own record can add up their
-- games in every such place and never read a server's. A row is written as a guest table
-- starts; kind is NULL for the places of games stored before, where no one noted it.

CREATE TABLE guest_scopes (
    scope_id   INTEGER NOT NULL PRIMARY KEY CHECK (scope_id > 0),
    kind       TEXT    CHECK (kind IS NULL OR kind IN ('dm', 'group_dm', 'server')),
    first_seen INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- The guest places of the games already stored: a guest table keeps "home": "guest" in its
-- state, and its scope is the channel it was played in.
INSERT INTO guest_scopes (scope_id, kind, first_seen)
SELECT guild_id, NULL, MIN(created_at) FROM games
WHERE json_extract(state, '$.home') = 'guest' AND guild_id = channel_id
GROUP BY guild_id;

-- A player's own record reads their results in every guest place at once: by player first.
CREATE INDEX results_by_user ON results (user_id, finished_at);
