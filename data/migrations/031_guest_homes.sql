-- 031: the server a guest place is in. A guest place keeps its games under its channel's id,
-- but Discord sends its interactions to the shard of the server it is in (a DM's or a group
-- DM's to shard 0): in a bot run as several processes, the process that receives a place's
-- presses drives its games and takes them up after a restart, and the channel's id cannot say
-- which that is. NULL for a private channel, and for a server's place noted before this column,
-- until its next table, challenge or lobby notes it again.

ALTER TABLE guest_scopes ADD COLUMN guild_id INTEGER CHECK (guild_id IS NULL OR guild_id > 0);
