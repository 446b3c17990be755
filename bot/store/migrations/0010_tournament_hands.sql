-- A tournament's hands count in the statistics only once it is closed (bot.access.counts_in_stats): its closing
-- writes them (bot.store.stats.count_tournament). Rows written earlier for a tournament not yet closed go.
DELETE FROM hand_stats WHERE table_id IN (SELECT t.id FROM tables t JOIN tournaments r ON r.id = t.tournament_id
                                          WHERE r.status != 'closed');
