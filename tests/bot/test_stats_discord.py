"""/stats, /leaderboard and /klaverjas history through the offline harness: real payloads in, the requests the
bot makes checked (ephemeral flags, buttons, attachments), in English and Dutch; hostile input and Discord
failures (10062 on the answer, 50013 on sharing)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from harness import CHANNEL_ID, EPHEMERAL, GUILD_ID, Harness, Request, StoredMessage, User
from test_stats import ANNA, DORA, THREAD, scripted_match

from bot.discord_app.stats_messages import stats_card, stats_text
from bot.stats import ratings
from bot.stats.facts import human_key
from bot.stats.figures import PartnerRecord, PlayerStats
from bot.texts.language import Language

ANNA_EN = User(ANNA, "Anna")
ANNA_NL = User(ANNA, "Anna", locale="nl")
NOBODY = User(1099, "Nobody")
DM_CHANNEL = 940000000000000001
NOT_HERE = "Use this in a server channel."
INVALID = "This button is no longer valid: use the buttons on the table's latest messages."


def callbacks(h: Harness, token: str) -> list[Request]:
    return [r for r in h.responses_to(token) if r.path.endswith("/callback")]


def followups(h: Harness, token: str) -> list[Request]:
    return [r for r in h.responses_to(token) if r.method == "POST" and not r.path.endswith("/callback")]


def user_option(name: str, user: User, *, bot: bool = False) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A user option as Discord sends it: the id, and the user (and member) in ``resolved``."""
    payload = {**user.payload(), "bot": bot}
    resolved = {"users": {str(user.id): payload},
                "members": {str(user.id): {"roles": [], "joined_at": "2025-01-01T12:00:00.000000+00:00",
                                           "deaf": False, "mute": False, "flags": 0, "permissions": "0"}}}
    return [{"name": name, "type": 6, "value": str(user.id)}], resolved


async def filled(h: Harness) -> None:
    assert h.bot is not None
    await scripted_match(h.bot.store)


def message_of(h: Harness, request: Request) -> StoredMessage:
    return max((m for m in h.fake.messages.values() if m.content == request.content), key=lambda m: m.id)


@pytest.mark.parametrize(("user", "words"), [
    (ANNA_EN, ("**Statistics of Anna**", "Matches: 1 (won 1, drawn 0, lost 0, abandoned 0) · win rate 100%",
               "Hands: 2 · chose trump 1: made 1 (100%), nat 0 (0%) · pits 2", "Per hand: 272.0 points, 10.0 roem",
               "Accuracy: not reviewed yet", f"Partner most often: <@{DORA}>", "Favourite trump: hearts",
               "Share in the channel")),
    (ANNA_NL, ("**Statistieken van Anna**", "Partijen: 1 (gewonnen 1, gelijk 0, verloren 0, afgebroken 0)",
               "Per ronde: 272,0 punten, 10,0 roem", "Nauwkeurigheid: nog niet beoordeeld",
               f"Vaakst je maat: <@{DORA}>", "Favoriete troef: harten", "Delen in het kanaal")),
], ids=["en", "nl"])
async def test_stats_is_private_with_an_image_and_a_share_button_that_posts_it(
        tmp_path: Path, user: User, words: tuple[str, ...]) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        await filled(h)
        token = await h.slash(user, "stats")
        [defer] = callbacks(h, token)
        assert defer.json is not None and defer.json["type"] == 5 and defer.ephemeral
        [answer] = followups(h, token)
        assert answer.ephemeral and answer.files == ["stats.png"]
        assert answer.custom_ids() == [f"kj:ss:u:{ANNA}"]
        labels = [c["label"] for row in answer.data["components"] for c in row["components"]]
        for word in words:
            assert word in answer.content + "".join(labels), word
        # Share: the same figures, in the channel, for everyone; pinging nobody.
        private = message_of(h, answer)
        shared = await h.click(user, private, f"kj:ss:u:{ANNA}")
        [post] = callbacks(h, shared)
        assert post.json is not None and post.json["type"] == 4 and not post.ephemeral
        assert post.files == ["stats.png"] and post.custom_ids() == []
        assert words[0] in post.content and f"<@{ANNA}>" in post.content
        assert post.data["allowed_mentions"] == {"parse": []}


async def test_stats_of_another_player_an_ai_level_a_bot_and_someone_without_matches(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        await filled(h)
        options, resolved = user_option("player", User(DORA, "Dora"))
        token = await h.slash(ANNA_EN, "stats", options=options, resolved=resolved)
        [answer] = followups(h, token)
        assert "Statistics of Dora" in answer.content and "abandoned 1" in answer.content
        assert answer.custom_ids() == [f"kj:ss:u:{DORA}"]
        token = await h.slash(ANNA_EN, "stats", options=[{"name": "ai", "type": 3, "value": "easy"}])
        [answer] = followups(h, token)
        assert "Statistics of AI easy" in answer.content and "nat 1 (100%)" in answer.content
        assert answer.custom_ids() == ["kj:ss:ai:easy"]
        requests = len(h.fake.requests)
        options, resolved = user_option("player", User(900000000000000001, "Klaverjas"), bot=True)
        token = await h.slash(ANNA_EN, "stats", options=options, resolved=resolved)
        [refusal] = h.responses_to(token)
        assert refusal.ephemeral and refusal.content.startswith("Bots have no statistics")
        assert len(h.fake.requests) == requests + 1
        options, resolved = user_option("player", NOBODY)
        token = await h.slash(ANNA_EN, "stats", options=options, resolved=resolved)
        assert [r.content for r in followups(h, token)] == ["Nobody has not played a match yet."]


async def test_hostile_stats_input_changes_nothing(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        assert h.bot is not None
        await filled(h)
        # From a DM: refused before anything is read.
        for name, sub in (("stats", None), ("leaderboard", None), ("klaverjas", "history")):
            token = await h.slash(ANNA_EN, name, DM_CHANNEL, sub=sub, dm=True)
            assert [(r.content, r.ephemeral) for r in h.responses_to(token)] == [(NOT_HERE, True)], name
        # A forged option value (not one of the choices): refused privately, no traceback.
        token = await h.slash(ANNA_EN, "leaderboard", options=[{"name": "scope", "type": 3, "value": "x" * 500}])
        [refusal] = h.responses_to(token)
        assert refusal.ephemeral and "x" * 100 not in refusal.content
        # Forged button ids on the private answer: answered as invalid buttons, nothing posted.
        token = await h.slash(ANNA_EN, "stats")
        private = message_of(h, followups(h, token)[0])
        before = len(h.fake.messages)
        for forged in ("kj:ss:u:0", "kj:ss:u:01001", "kj:ss:ai:expert", f"kj:ss:u:{ANNA}:x", "kj:lb:s:all:999999",
                       "kj:lb:x:all:0", "kj:ss:u:" + "9" * 30):
            token = await h.click(ANNA_EN, private, forged)
            assert [(r.content, r.ephemeral) for r in h.responses_to(token)] == [(INVALID, True)], forged
        assert len(h.fake.messages) == before + 7  # the seven private refusals only


async def test_discord_failures_on_the_answer_and_on_sharing(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        await filled(h)
        # The interaction expired before the answer (10062): logged, nothing else sent, the bot goes on.
        h.fake.fail_next(lambda r: r.path.endswith("/callback"), 404, 10062, "Unknown interaction")
        with caplog.at_level(logging.ERROR):
            token = await h.slash(ANNA_EN, "stats")
        assert followups(h, token) == [] and len(callbacks(h, token)) == 1
        assert any("Discord refused" in r.message for r in caplog.records)
        # Sharing where the bot may not post (50013): the sharer is told privately.
        token = await h.slash(ANNA_NL, "stats")
        private = message_of(h, followups(h, token)[0])
        h.fake.fail_next(lambda r: r.path.endswith("/callback") and not (r.json or {}).get("data", {}).get("flags"),
                         403, 50013, "Missing Permissions")
        shared = await h.click(ANNA_NL, private, f"kj:ss:u:{ANNA}")
        answers = callbacks(h, shared)
        assert [a.ephemeral for a in answers] == [False, True]
        assert answers[-1].content == "Ik mag in dit kanaal niets plaatsen, dus de statistieken blijven privé."
        assert not any(m.flags & EPHEMERAL == 0 and "Gedeeld door" in m.content for m in h.fake.messages.values())


async def seed_ratings(h: Harness, players: int) -> None:
    assert h.bot is not None
    db = h.bot.store.db
    for i in range(players):
        for scope in (0, GUILD_ID):
            mu, sigma = 30.0 - i, 2.0
            await db.execute("INSERT INTO ratings (scope, player, mu, sigma, conservative, matches, updated_at) "
                             "VALUES (?, ?, ?, ?, ?, ?, '2025-01-01T00:00:00.000Z')",
                             (scope, human_key(5000 + i), mu, sigma, mu - 3 * sigma, 5 + i))


@pytest.mark.parametrize(("user", "title", "line"), [
    (ANNA_EN, "**Leaderboard: all servers, all time** (page 1 of 2)", "1. <@5000> — 24.0 (5 matches)"),
    (ANNA_NL, "**Ranglijst: alle servers, aller tijden** (pagina 1 van 2)", "1. <@5000> — 24,0 (5 partijen)"),
], ids=["en", "nl"])
async def test_leaderboard_pages_with_buttons(tmp_path: Path, user: User, title: str, line: str) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        await seed_ratings(h, 12)
        token = await h.slash(user, "leaderboard", options=[{"name": "scope", "type": 3, "value": "g"}])
        [answer] = callbacks(h, token)
        assert answer.ephemeral and answer.content.startswith(title) and line in answer.content
        assert answer.custom_ids() == ["kj:lb:g:all:0", "kj:lb:g:all:1"]
        first = h.fake.messages[h.fake.originals[token]]
        assert [b.get("disabled", False) for b in first.buttons()] == [True, False]
        token = await h.click(user, first, "kj:lb:g:all:1")
        [edit] = callbacks(h, token)
        assert edit.json is not None and edit.json["type"] == 7
        assert "11. <@5010>" in edit.content and "12. <@5011>" in edit.content and "<@5000>" not in edit.content
        assert [b.get("disabled", False) for b in first.buttons()] == [False, True]


async def test_leaderboard_minimum_matches_is_settable_and_lists_ai_levels(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        await filled(h)
        token = await h.slash(ANNA_EN, "leaderboard")
        assert "Nobody has 5 rated matches here yet." in callbacks(h, token)[0].content
        monkeypatch.setattr(ratings, "MIN_MATCHES", 1)
        token = await h.slash(ANNA_EN, "leaderboard", options=[{"name": "period", "type": 3, "value": "week"}])
        [answer] = callbacks(h, token)
        assert f"1. <@{ANNA}>" in answer.content and "AI easy" in answer.content
        assert answer.custom_ids() == []  # one page: no buttons


async def test_history_lists_recent_matches_with_a_link_to_the_thread(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        await filled(h)
        for user, words in ((ANNA_EN, ("**Recent matches of Anna in this server**", f"<@{ANNA}>, <@{DORA}> 544 –",
                                       "AI easy", " · won · rotterdam", f"<#{THREAD}>")),
                            (ANNA_NL, ("**Recente partijen van Anna op deze server**", " · gewonnen · rotterdams",
                                       "AI makkelijk"))):
            token = await h.slash(user, "klaverjas", sub="history")
            [answer] = h.responses_to(token)
            assert answer.ephemeral
            for word in words:
                assert word in answer.content, word
        options, resolved = user_option("player", NOBODY)
        token = await h.slash(ANNA_EN, "klaverjas", CHANNEL_ID, sub="history", options=options, resolved=resolved)
        assert [r.content for r in h.responses_to(token)] == ["Nobody has no matches in this server yet."]


@pytest.mark.parametrize(("lang", "expected"), [("en", "Accuracy: 60% (last matches: 50%, 75%)"),
                                                ("nl", "Nauwkeurigheid: 60% (laatste partijen: 50%, 75%)")])
def test_stats_show_accuracy_over_the_last_reviewed_matches(lang: str, expected: str) -> None:
    stats = PlayerStats("u:1", accuracy=0.6, accuracy_recent=(0.5, 0.75))
    assert expected in stats_text(stats, "Anna", Language(lang))
    one = PlayerStats("u:1", accuracy=0.6, accuracy_recent=(0.6,))
    assert "(" not in next(x for x in stats_text(one, "Anna", Language(lang)).splitlines() if "60%" in x)


@pytest.mark.parametrize(("lang", "month", "partner"), [
    ("en", "Dec 2026", "Partner most often: <@2>, 1 match (1 won, 0 drawn, 0 lost)"),
    ("nl", "dec 2026", "Vaakst je maat: <@2>, 1 partij (1 gewonnen, 0 gelijk, ")])
def test_one_match_reads_in_the_singular_with_month_names_and_the_first_rating_point(
        lang: str, month: str, partner: str) -> None:
    stats = PlayerStats("u:1", won=1, partner=PartnerRecord("u:2", 1, 1, 0, 0),
                        rating_history=[("2026-12-01T20:00:00.000Z", 25.0, 8.0)], monthly=[("2026-12", 84.25, 16)])
    card = stats_card(stats, "Anna", {2: "Bert"}, Language(lang))
    assert [label for label, _ in card.months] == [month]  # "26/12" read as the 26th of December
    assert card.ratings == [1.0]  # one point, drawn as a point rather than "not enough matches"
    assert partner in stats_text(stats, "Anna", Language(lang))
