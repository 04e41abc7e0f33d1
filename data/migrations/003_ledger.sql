-- 003: the double-entry chip ledger. Balances move only together with an immutable transfer and
-- its two entries; the per-server house account is the issuer and the only one allowed below zero.

CREATE TABLE accounts (
    account_id INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('user', 'house', 'escrow')),
    user_id    INTEGER,
    game_id    INTEGER REFERENCES games (game_id),
    balance    INTEGER NOT NULL DEFAULT 0
               CHECK (balance BETWEEN -1000000000000000 AND 1000000000000000),
    created_at INTEGER NOT NULL,
    CHECK (kind = 'house' OR balance >= 0),
    CHECK ((kind = 'user') = (user_id IS NOT NULL)),
    CHECK ((kind = 'escrow') = (game_id IS NOT NULL))
) STRICT;

CREATE UNIQUE INDEX accounts_user ON accounts (guild_id, user_id) WHERE kind = 'user';
CREATE UNIQUE INDEX accounts_house ON accounts (guild_id) WHERE kind = 'house';
CREATE UNIQUE INDEX accounts_escrow ON accounts (game_id) WHERE kind = 'escrow';
CREATE INDEX accounts_board ON accounts (guild_id, kind, balance DESC);

CREATE TRIGGER accounts_never_deleted BEFORE DELETE ON accounts
BEGIN SELECT RAISE(ABORT, 'accounts are never deleted'); END;
CREATE TRIGGER accounts_fixed_identity BEFORE UPDATE OF account_id, guild_id, kind, user_id, game_id
ON accounts BEGIN SELECT RAISE(ABORT, 'an account keeps its owner'); END;

CREATE TABLE transfers (
    transfer_id  INTEGER PRIMARY KEY,
    idem_key     TEXT    NOT NULL UNIQUE,
    guild_id     INTEGER NOT NULL,
    kind         TEXT    NOT NULL
                 CHECK (kind IN ('open', 'daily', 'transfer', 'grant', 'revoke', 'stake', 'payout', 'refund')),
    from_account INTEGER NOT NULL REFERENCES accounts (account_id),
    to_account   INTEGER NOT NULL REFERENCES accounts (account_id),
    amount       INTEGER NOT NULL CHECK (amount > 0),
    actor        INTEGER NOT NULL,   -- Discord user id of whoever caused it; 0 for the bot itself
    reason       TEXT    NOT NULL,
    game_id      INTEGER REFERENCES games (game_id),
    created_at   INTEGER NOT NULL,
    CHECK (from_account <> to_account)
) STRICT;

CREATE INDEX transfers_game ON transfers (game_id, kind) WHERE game_id IS NOT NULL;

CREATE TABLE entries (
    entry_id      INTEGER PRIMARY KEY,
    transfer_id   INTEGER NOT NULL REFERENCES transfers (transfer_id),
    account_id    INTEGER NOT NULL REFERENCES accounts (account_id),
    amount        INTEGER NOT NULL CHECK (amount <> 0),   -- signed: negative leaves the account
    balance_after INTEGER NOT NULL,
    created_at    INTEGER NOT NULL
) STRICT;

CREATE INDEX entries_account ON entries (account_id, created_at, entry_id);
CREATE INDEX entries_transfer ON entries (transfer_id);

-- The entries of a transfer are written by the database itself, from the balances the debit and
-- credit just produced: no code path can insert a transfer without its two entries.
-- dialect: sqlite
CREATE TRIGGER transfers_write_entries AFTER INSERT ON transfers
BEGIN
    INSERT INTO entries (transfer_id, account_id, amount, balance_after, created_at)
    SELECT NEW.transfer_id, NEW.from_account, -NEW.amount, balance, NEW.created_at
    FROM accounts WHERE account_id = NEW.from_account;
    INSERT INTO entries (transfer_id, account_id, amount, balance_after, created_at)
    SELECT NEW.transfer_id, NEW.to_account, NEW.amount, balance, NEW.created_at
    FROM accounts WHERE account_id = NEW.to_account;
END;
-- dialect: postgresql
CREATE FUNCTION hf_transfer_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO entries (transfer_id, account_id, amount, balance_after, created_at)
    SELECT NEW.transfer_id, NEW.from_account, -NEW.amount, balance, NEW.created_at
    FROM accounts WHERE account_id = NEW.from_account;
    INSERT INTO entries (transfer_id, account_id, amount, balance_after, created_at)
    SELECT NEW.transfer_id, NEW.to_account, NEW.amount, balance, NEW.created_at
    FROM accounts WHERE account_id = NEW.to_account;
    RETURN NULL;
END $$;
CREATE TRIGGER transfers_write_entries AFTER INSERT ON transfers
FOR EACH ROW EXECUTE FUNCTION hf_transfer_entries();
-- dialect: both

CREATE TRIGGER transfers_immutable_u BEFORE UPDATE ON transfers
BEGIN SELECT RAISE(ABORT, 'transfers are immutable'); END;
CREATE TRIGGER transfers_immutable_d BEFORE DELETE ON transfers
BEGIN SELECT RAISE(ABORT, 'transfers are immutable'); END;
CREATE TRIGGER entries_immutable_u BEFORE UPDATE ON entries
BEGIN SELECT RAISE(ABORT, 'entries are immutable'); END;
CREATE TRIGGER entries_immutable_d BEFORE DELETE ON entries
BEGIN SELECT RAISE(ABORT, 'entries are immutable'); END;
