-- How many times the table's row, seats or actions were written: a bot process sharing the database with others
-- (PostgreSQL, bot.tables.shared) compares it with the copy it holds, and reloads the table when it differs.
ALTER TABLE tables ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
