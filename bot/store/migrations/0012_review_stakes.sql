-- A review's accuracy is the share of the points at stake that a person's decisions kept, counting only the
-- decisions that were a real choice (engine/ai/review_summary.py). Each decision keeps its spread (the mean of
-- its best option minus that of its worst), each person's summary the points at stake and kept; the count of
-- decisions within a few points of the best, the accuracy before, goes. Reviews made before hold no spread: they
-- are removed, and the next start reviews again every finished match that has none (bot/tables/reviews.py).
DELETE FROM review_decisions;
DELETE FROM review_players;
DELETE FROM reviews WHERE status = 'done';
ALTER TABLE review_decisions ADD COLUMN spread {float64} NOT NULL DEFAULT 0;
ALTER TABLE review_players ADD COLUMN stake {float64} NOT NULL DEFAULT 0;
ALTER TABLE review_players ADD COLUMN kept {float64} NOT NULL DEFAULT 0;
ALTER TABLE review_players DROP COLUMN accurate;
