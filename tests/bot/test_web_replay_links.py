"""The replay and the review on the web table: `/klaverjas replay` and `/klaverjas review` carry an Open in browser
link signed for that person and match, when the web table is set up and only where the match's record may be seen
(``bot.access.record_refusal``): never for a running match nor a sealed tournament's table."""

from __future__ import annotations

from pathlib import Path

from harness import Harness, Request
from test_discord import ANNA, BERT, open_table
from test_replay import finished_match, press
from test_scenarios import bot_of, lobby
from test_tournaments import DORA, create, play, table_of
from test_web_links import WEB, link_buttons, token_of

from bot.tables.model import TableStatus
from bot.web.tokens import TokenKind, verify


def links(answers: list[Request]) -> list[str]:
    return [url for r in answers for url in link_buttons(r.data.get("components") or [])]


def replay_person(url: str, table_id: int) -> int:
    return verify(WEB.secret, token_of(url, "replay"), TokenKind.REPLAY, table_id).person


async def test_replay_and_review_of_a_finished_match_link_to_it_for_the_asker(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", web=WEB) as h:
        table_id = await finished_match(h, ANNA, [])
        for command in ("replay", "review"):
            token = await h.command(BERT, command, match=str(table_id))  # an onlooker of this server may see it
            [url] = links(h.responses_to(token))
            assert replay_person(url, table_id) == BERT.id, command
        # A replay's step keeps the link.
        token = await h.command(ANNA, "replay", match=str(table_id))
        [made] = [r for r in h.responses_to(token) if r.method == "POST" and "/webhooks/" in r.url]
        message = [m for m in h.fake.messages.values() if m.content == made.content][-1]
        await press(h, ANNA, message, "nt")
        [url] = link_buttons(message.components)
        assert replay_person(url, table_id) == ANNA.id


async def test_no_link_without_the_web_table(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3") as h:
        table_id = await finished_match(h, ANNA, [])
        for command in ("replay", "review"):
            token = await h.command(ANNA, command, match=str(table_id))
            assert h.responses_to(token) and links(h.responses_to(token)) == [], command


async def test_no_link_to_a_running_match(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", web=WEB) as h:
        running = await open_table(h, ANNA)
        await h.click(ANNA, lobby(h), f"kj:l:{running}:start")
        assert bot_of(h).service.get(running).running
        for command in ("replay", "review"):
            token = await h.command(ANNA, command, match=str(running))
            assert h.private_replies(token) and links(h.responses_to(token)) == [], command


async def test_a_sealed_tournament_table_links_only_for_who_played_it_to_its_end(tmp_path: Path) -> None:
    async with Harness(tmp_path / "k.sqlite3", web=WEB) as h:
        tournament = await create(h, hands=1)
        await h.command(BERT, "tournament join")
        await h.command(DORA, "tournament join")
        bert = await table_of(h, tournament, BERT)
        await play(h, bert, BERT, 0)
        assert bert.status is TableStatus.FINISHED
        for command in ("replay", "review"):
            token = await h.command(DORA, command, match=str(bert.id))  # has the same deal still to play
            assert links(h.responses_to(token)) == [], command
            token = await h.command(BERT, command, match=str(bert.id))
            [url] = links(h.responses_to(token))
            assert replay_person(url, bert.id) == BERT.id, command
