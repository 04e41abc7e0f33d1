-- 032: the id whose shard drives a game, fixed when the game is created. In a bot run as several
-- processes a game is driven, and taken up after a restart, by the process of one shard for its
-- whole life: its server's (a guest channel's server), or shard 0's for a DM or a group DM
-- (NULL). Read from its place when the game starts, so that a place whose server is noted later
-- (031) never moves a game already running there to a process that has not taken it up.
--
-- The games stored before take the home their place has now: its server if known, NULL for a
-- private channel, and, for a server's guest place whose server was never noted, the channel's
-- own id: the shard that took its games up until now.

ALTER TABLE games ADD COLUMN shard_key INTEGER CHECK (shard_key IS NULL OR shard_key > 0);

UPDATE games SET shard_key = guild_id
WHERE guild_id NOT IN (SELECT scope_id FROM guest_scopes);

UPDATE games SET shard_key = (
    SELECT COALESCE(g.guild_id, CASE WHEN g.kind = 'server' THEN g.scope_id END)
    FROM guest_scopes g WHERE g.scope_id = games.guild_id)
WHERE guild_id IN (SELECT scope_id FROM guest_scopes);
