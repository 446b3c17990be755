-- The tables' locks among the processes sharing a PostgreSQL database (bot.tables.shared), taken or released
-- in order, one row each: (held, revision). ``held``: the lock was taken (tried, never waited for), or was held
-- until now and is released. ``revision``: the table's revision read once its lock was taken (NULL: no such table,
-- or the lock not taken). VOLATILE, so in READ COMMITTED that read is a query of its own with a snapshot of its own,
-- taken after the lock: it sees every write committed before the lock's last holder released it, which a read in
-- the calling statement (its snapshot taken before the lock) could miss. One round trip for both, not two.
-- only postgres:
CREATE FUNCTION klaverjas_table_locks(lock_class INTEGER, ids INTEGER[], takes BOOLEAN[])
RETURNS TABLE (held BOOLEAN, revision INTEGER) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    FOR i IN 1 .. coalesce(array_length(ids, 1), 0) LOOP
        revision := NULL;
        IF takes[i] THEN
            held := pg_try_advisory_lock(lock_class, ids[i]);
            IF held THEN
                SELECT t.revision INTO revision FROM tables AS t WHERE t.id = ids[i];
            END IF;
        ELSE
            held := pg_advisory_unlock(lock_class, ids[i]);
        END IF;
        RETURN NEXT;
    END LOOP;
END $$;

-- The same for a table another process holds: wait for its lock (on a connection of its own), then read.
CREATE FUNCTION klaverjas_wait_table(lock_class INTEGER, table_id INTEGER) RETURNS INTEGER LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    found INTEGER;
BEGIN
    PERFORM pg_advisory_lock(lock_class, table_id);
    SELECT t.revision INTO found FROM tables AS t WHERE t.id = table_id;
    RETURN found;
END $$;
-- both:
