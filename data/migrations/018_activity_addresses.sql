-- 018: where each process of a sharded bot serves the Activity. A page may reach any process's
-- port; the process that does not drive the page's table passes the socket on to the one that
-- does, found here by the table's shard. Each process writes its shards' rows as it starts.

CREATE TABLE activity_addresses (
    shard      INTEGER NOT NULL PRIMARY KEY CHECK (shard >= 0),
    address    TEXT    NOT NULL CHECK (length(address) BETWEEN 3 AND 300),
    updated_at INTEGER NOT NULL
) STRICT;
