-- Reserved take-overs of AI seats, the bidding prompt's message, rematches, and per-user preferences.
ALTER TABLE seats ADD COLUMN pending_user_id {int64};
ALTER TABLE seats ADD COLUMN pending_name TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN pending_delivery TEXT NOT NULL DEFAULT 'dm';
ALTER TABLE tables ADD COLUMN prompt_message_id {int64};
ALTER TABLE tables ADD COLUMN prompt_version INTEGER;
ALTER TABLE tables ADD COLUMN rematch_id {int64};

CREATE TABLE user_prefs (
    user_id {int64} PRIMARY KEY,
    delivery TEXT NOT NULL DEFAULT 'dm' CHECK (delivery IN ('dm', 'thread'))
);
