-- 027: a tournament may start by itself. Staff who create one may name when sign-up closes;
-- then the bot starts it (two entrants or more) or calls it off, fees refunded, without anyone
-- pressing Start, after a restart too. NULL: staff press Start, as before.

ALTER TABLE tournaments ADD COLUMN starts_at INTEGER CHECK (starts_at IS NULL OR starts_at > 0);

CREATE INDEX tournaments_timed ON tournaments (starts_at) WHERE status = 'open' AND starts_at IS NOT NULL;
