"""The terminal table, driven through its input with scripted games."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from bot.cli.main import build_parser
from bot.terminal.game import TerminalGame, run_play, score_sheet
from engine.cards import Seat, Suit, Team
from engine.events import HandResult
from engine.record import score_record


def args(*extra: str) -> object:
    return build_parser().parse_args(["play", "--level", "normal", "--seed", "7", *extra])


class Script:
    """Answers prompts: first the scripted lines, then the first legal number or the first call."""

    def __init__(self, lines: list[str] | None = None, claim: str = "r") -> None:
        self.lines = list(lines or [])
        self.prompts: list[str] = []
        self.claim = claim
        self.tried_illegal = False

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        assert len(self.prompts) < 3000, "the table keeps asking: " + prompt
        if self.lines:
            return self.lines.pop(0)
        if "roem" in prompt:
            return self.claim
        match = re.search(r"\[([\d ]+)\]: $", prompt)
        if match:
            legal = match.group(1).split()
            if not self.tried_illegal and len(legal) < 8:
                # Type a card number that is in the hand but not playable: the rules explain why.
                for number in range(1, 9):
                    if str(number) not in legal:
                        self.tried_illegal = True
                        self.lines.append(legal[0])
                        return str(number)
            return legal[0]
        return "1"  # the first call


def run(ask: Callable[[str], str], *extra: str) -> tuple[int, list[str]]:
    out: list[str] = []
    code = run_play(args(*extra), ask, out.append)  # type: ignore[arg-type]
    return code, out


def test_a_scripted_match_to_the_end_with_bad_input() -> None:
    script = Script(["", "banana", "99"])
    code, out = run(script, "--length", "2", "--bidding", "draaien", "--hint")
    text = "\n".join(out)
    assert code == 0
    assert "Score sheet:" in text and "total" in text
    assert re.search(r"(Wij|Zij) win \d+ – \d+ after 2 hands\.|A draw", text)
    assert "Not understood: 'banana'" in text or "Not a call here: 'banana'" in text
    assert "Hint: " in text
    assert "Your hand (* = you may play it):" in text
    assert "Trick 8:" in text and "Hand 2/2" in text
    assert script.tried_illegal and re.search(r"You must (follow suit \([♣♦♥♠]\)|overtrump|trump)|You may not", text)


def test_auto_plays_a_whole_match_and_prints_it() -> None:
    code, out = run(lambda prompt: (_ for _ in ()).throw(AssertionError(prompt)), "--auto", "--length", "2")
    text = "\n".join(out)
    assert code == 0 and "Trick 8:" in text and "after 2 hands" in text.replace("A draw", "after 2 hands")
    assert "North: " in text and "West: " in text  # the four hands are shown


def test_dutch_texts_and_declared_roem() -> None:
    script = Script(claim="r")
    code, out = run(script, "--length", "3", "--lang", "nl", "--roem", "declared", "--rules", "amsterdam")
    text = "\n".join(out)
    assert code == 0
    assert "Boompje:" in text and "Wij" in text and "Zij" in text
    assert "Je kaarten" in text and "troef" in text
    assert "Tot ziens" not in text
    # Dutch words: rondes, the dealer (deler), passen/spelen, rank letters B V H on the cards.
    assert "Ronde 1/3, deler:" in text and "Jouw keuze [1=passen" in " ".join(script.prompts)
    assert re.search(r"\d [BVH][♣♦♥♠]", text) and not re.search(r"\d [JQK][♣♦♥♠]", text)
    # Melden: every claim is the player's own (r after a trick of ours); nobody says roem is there first.
    assert "Jullie slag: r om roem te melden" in " ".join(script.prompts)
    assert "Jij meldt roem" in text and "Roem in deze slag" not in text


def test_end_of_input_and_ctrl_c_leave_cleanly() -> None:
    def eof(prompt: str) -> str:
        raise EOFError

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    for ask in (eof, interrupt):
        code, out = run(ask)
        assert code == 0 and out[-1] == "Goodbye!"
    code, out = run(Script(["q"]))
    assert code == 0 and out[-1] == "Goodbye!"


def test_typing_a_card_by_name_and_bidding_by_word() -> None:
    script = Script()
    seen: list[str] = []

    def ask(prompt: str) -> str:
        seen.append(prompt)
        if "call" in prompt:
            return "harten" if "pass" not in prompt else "pass"
        if len(seen) < 3:
            return "kh" if "KH" not in prompt else "xx"
        return script(prompt)

    code, out = run(ask, "--length", "1")
    assert code == 0
    assert any("You do not hold K♥" in line or "Not understood" in line or "Must" in line for line in out)


def test_bad_settings_are_reported() -> None:
    # The command line refuses "utrecht" itself (tests/cli); run_play still guards its other callers.
    bad = args()
    bad.rules = "utrecht"  # type: ignore[attr-defined]
    out: list[str] = []
    code = run_play(bad, Script(), out.append)  # type: ignore[arg-type]
    assert code == 2 and "play must be one of" in out[0]


def test_score_sheet_marks_nat_and_pit() -> None:
    nat = HandResult(0, Seat.N, Suit.H, Seat.E, (110, 52), (0, 70), None, True, (232, 0))
    pit = HandResult(1, Seat.E, Suit.C, Seat.S, (162, 0), (120, 0), Team.NS, False, (282, 0))
    lines = score_sheet([nat, pit])
    assert "nat (Zij)" in lines[2] and "pit (Wij)" in lines[3]
    assert lines[-1].split()[-2:] == ["514", "0"]


def test_a_card_number_plays_the_card_shown_with_that_number() -> None:
    out: list[str] = []
    expected: list[str] = []

    def ask(prompt: str) -> str:
        match = re.search(r"\[([\d ]+)\]: $", prompt)
        if not match:
            return "1"  # a call
        start = max(i for i, line in enumerate(out) if line.startswith("Your hand"))
        shown: dict[str, str] = {}
        for line in out[start + 1:]:
            shown.update(re.findall(r"(\d+) (\S+?)\*?(?=\s|$)", line.split(":", 1)[1]))
        number = match.group(1).split()[-1]  # the last legal number: not simply the first card
        expected.append(shown[number])
        return number

    code = run_play(args("--length", "1", "--bidding", "verplicht"), ask, out.append)  # type: ignore[arg-type]
    assert code == 0
    played = [line.removeprefix("  You: ") for line in out if line.startswith("  You: ")]
    assert len(expected) == 8 and played == expected


def test_play_runs_without_discord() -> None:
    # discord.py is the bot's; the terminal must start and finish a match with it missing.
    script = ("import sys; sys.modules['discord'] = None; from bot.cli.main import main; "
              "sys.exit(main(['play', '--auto', '--length', '1', '--level', 'normal', '--seed', '1']))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert "Trick 8:" in done.stdout


def test_english_grammar_for_the_player_at_the_keyboard() -> None:
    script = Script(claim="")
    code, out = run(script, "--length", "4", "--bidding", "verplicht")  # the 4th hand is South's to choose
    text = "\n".join(out)
    assert code == 0
    assert "You plays" not in text and "You wins" not in text and "You is" not in text
    assert re.search(r"You play [♣♦♥♠] \(\w+\) as trump", text) and "You bid first." in text
    assert re.search(r"Trump [♣♦♥♠] \(\w+\) \((You play|\w+ plays)\) · trick \d/8\nThis hand: Wij \d+ – Zij \d+ · "
                     r"match: Wij \d+ – Zij \d+", text)
    hand = HandResult(0, Seat.N, Suit.H, Seat.S, (60, 102), (0, 0), None, True, (0, 162))
    said: list[str] = []
    TerminalGame(args(), Script(), said.append).show_settlement(hand)
    assert said[0] == "Hand 1: Wij 0 – Zij 162. You are nat (60 points + 0 roem against 102 + 0)."


def test_bidding_shows_the_hand_without_play_marks_and_an_empty_line_asks_again() -> None:
    script = Script(["", ""])
    code, out = run(script, "--length", "4", "--bidding", "verplicht")
    text = "\n".join(out)
    assert code == 0
    assert "Your hand:" in text and "Not understood: ''" not in text
    first = script.prompts[0]
    assert script.prompts[1] == first and script.prompts[2] == first  # asked again
    assert "Not understood: ''" not in text


def test_declared_roem_is_claimed_by_the_player_without_being_told() -> None:
    script = Script(claim="r")
    code, out = run(script, "--length", "2", "--roem", "declared")
    text = "\n".join(out)
    ours = len(re.findall(r"Trick \d: (You win|North wins)", text))
    claims = [p for p in script.prompts if "claim roem" in p]
    assert code == 0 and ours and len(claims) == ours
    # Nothing says a trick of ours holds roem before the claim; a claim on a trick without roem scores nothing.
    assert "if they claim" not in text and "Roem in this trick" not in text
    assert "You claim roem: there is none, so it scores nothing." in text and "roem for Zij" not in text
    ours_won = re.compile(r"Trick \d: (You win|North wins)")
    after_our_tricks = [out[i + 1] for i, line in enumerate(out[:-1]) if ours_won.match(line)]
    assert not any(line.startswith("  Roem") for line in after_our_tricks)


def test_auto_names_the_teams_by_seat_and_explains_the_sheet() -> None:
    code, out = run(lambda prompt: (_ for _ in ()).throw(AssertionError(prompt)), "--auto", "--length", "1")
    text = "\n".join(out)
    assert code == 0 and "Wij" not in text and "Zij" not in text
    assert re.search(r"#\s+NS\s+EW", text) and "* = NS played the hand" in text


def test_dutch_input_for_cards_and_suits() -> None:
    script = Script(["ruiten", "passen"])
    code, out = run(script, "--length", "1", "--lang", "nl", "--bidding", "vrij")
    assert code == 0
    assert any(line.endswith(": ♦ (ruiten)") or line.endswith(": Passen") for line in out)


def test_record_is_written_when_the_player_leaves(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    code, out = run(Script(["1", "q"]), "--length", "2", "--record", str(path))
    assert code == 0 and out[-1].startswith("The match's record is in")
    record = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert record["format"] == "klaverjas-record/1"
    assert score_record(record)["ok"] is True


def test_the_last_tricks_roem_is_asked_before_the_hand_is_settled_once() -> None:
    # Seed 4: a last trick of ours holds roem, so the engine's claim phase asks the player (for their partner
    # too: melding is the player's, not the AI partner's).
    for answer in ("", "r"):
        script = Script(claim=answer)
        code, out = run(script, "--length", "8", "--roem", "declared", "--stuk", "held", "--seed", "4")
        asked = [p for p in script.prompts if p.startswith("Last trick: r to claim roem")]
        settled = [line.split(":")[0] for line in out if re.match(r"Hand \d+: ", line)]
        assert code == 0 and asked
        assert len(settled) == len(set(settled)) == 8, settled  # every hand settled exactly once


def test_every_line_fits_80_columns_and_says_each_thing_once() -> None:
    for lang, bidding in (("en", "draaien"), ("nl", "draaien"), ("en", "vrij")):
        code, out = run(Script(claim=""), "--length", "4", "--bidding", bidding, "--lang", lang, "--forced", "dealer",
                        "--hint")
        lines = "\n".join(out).splitlines()
        assert code == 0
        assert [line for line in lines if len(line) > 80] == [], lang
        welcome = " ".join(line.strip() for line in lines[:4])  # folded at 80 columns
        assert "AI: normal" in welcome or "AI: normaal" in welcome
        if bidding == "draaien":  # each turned card is said once, not again at the player's call
            turned = [n for n, line in enumerate(lines) if line.startswith(("Turned:", "Gedraaid:"))]
            assert turned
            assert not any(lines[n] in lines[n + 1:n + 4] for n in turned)
        else:
            assert "four passes: the dealer must play" in welcome
        if lang == "nl":
            assert "troef kiezen" not in "\n".join(lines)  # under draaien nobody chooses a suit
            assert not [line for line in lines if ", deler: Jij." in line]  # "deler: jij" mid-sentence
        else:
            assert "Wij (we) are" in welcome  # the English player is told what Wij and Zij are


def test_the_score_sheet_rows_line_up_under_the_header() -> None:
    hands = [HandResult(0, Seat.N, Suit.H, Seat.S, (60, 102), (20, 0), None, True, (0, 182)),
             HandResult(1, Seat.E, Suit.C, Seat.E, (100, 62), (0, 0), None, False, (100, 62))]
    header, *rows = score_sheet(hands)[1:]
    columns = [header.index("Wij") + len("Wij"), header.index("Zij") + len("Zij")]
    for line in rows:  # each team's figure (and its roem in brackets) ends under the team's name
        figures = re.findall(r" +(\d+(?: \(\d+\))?)", line[7:])[:2]
        ends = [line.index(figure, 7) + len(figure) for figure in figures]
        assert ends == columns, (line, header)


def test_the_last_trick_question_is_asked_every_hand_our_side_wins_it_whether_or_not_it_holds_roem() -> None:
    # Asked only when the trick held roem, the question would tell the player there is some to claim.
    script = Script(claim="")
    code, out = run(script, "--length", "4", "--roem", "declared")
    ours_last = [line for line in out if re.match(r"Trick 8: (You win|North wins)", line)]
    asked = [p for p in script.prompts if p.startswith("Last trick: r to claim roem")]
    assert code == 0 and ours_last and len(asked) == len(ours_last)
    assert not any(line.lstrip().startswith("Roem") for line in out)  # no trick's roem told unclaimed


def test_the_claim_prompt_answers_a_hint_or_an_unknown_word_instead_of_asking_silently_again() -> None:
    answers = ["?", "x", "r"]

    class Claiming(Script):
        def __call__(self, prompt: str) -> str:
            if "claim roem" in prompt and answers:
                self.prompts.append(prompt)
                return answers.pop(0)
            return super().__call__(prompt)

    code, out = run(Claiming(claim=""), "--length", "1", "--roem", "declared")
    text = "\n".join(out)
    assert code == 0 and not answers
    assert "Spotting roem is up to you: there is no hint for a claim." in text
    assert "Not understood: 'x'. Type r to claim roem, or press Enter to go on." in text
