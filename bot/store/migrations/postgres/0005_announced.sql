-- How many of a table's actions the front end finished announcing. After a crash, the actions from there on
-- are announced again (the announcements run behind the actions, in their own task). NULL (a table from
-- before this column): only its last action is announced again.
ALTER TABLE tables ADD COLUMN announced INTEGER;
