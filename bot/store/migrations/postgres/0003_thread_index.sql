-- "/klaverjas start" asks whether a thread already belongs to a table, also one that ended long ago.
CREATE INDEX tables_thread ON tables (thread_id);
