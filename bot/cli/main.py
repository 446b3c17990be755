"""The ``klaverjas`` command line. Each subcommand imports its module only when it runs, so
``klaverjas score`` does not pay for discord.py or Pillow.

Options are checked while parsing, so a bad value is reported with the option's own name, on standard
error, before anything else is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from bot.cli import words
from engine.settings import SETTINGS

DOCS = "engine/docs"  # the rule book and the record format, in the repository

SCORE_EPILOG = f"""\
input: klaverjas-record/1 game records in UTF-8 (a byte order mark is fine), one JSON object per line.
output: one JSON object per input line, in order: {{"ok": true, ...}} with each hand's tricks, points,
  roem, nat, pit and score, the totals and whose turn is next; or {{"ok": false, "error": {{...}}}} with
  the hand, play index, card and seat where they apply and always a reason. A bad line never stops the run.
exit status:
  0  every line was a valid record
  1  at least one line was not
  2  the input could not be read (missing, a folder, binary or not UTF-8); nothing is printed then
The format: {DOCS}/record-format.md"""

BENCH_EPILOG = """\
review prints review_hand_s (seconds to review one hand of four humans on one core), the samples it
rests on and the settings; see engine/ai/review.py. review --levels plays matches between the AI levels
random, easy, normal and hard (untimed; seats rotated), reviews every call and card as a person's, and
prints per level: decisions, cost_per_card, cost_per_call and accuracy (the review's headline), each
figure with a 95% interval, and ahead_of: its accuracy above the level before it, with a 95% interval
paired by match; see engine/ai/review_levels.py.
load prints tables, interactions_per_s, p50_ms and p99_ms (an interaction's arrival to its first answer),
loop_lag_p99_ms (event-loop lag while AI players think), mb_per_table, db_kb_per_match,
requests_per_trick, global_requests_per_trick (those that count against Discord's global limit of 50 a
second), tables_per_token (busy tables one bot token carries within it) and requests_by_route, then the
conditions; see bot/cli/bench_load.py.
stats prints stats_query_ms, leaderboard_query_ms (the slowest scope and period) and history_query_ms, the
median of a few runs each, then the generated database's size; see bot/cli/bench_stats.py.
web --clients N prints clients, click_p50_ms and click_p99_ms (a page's card or call to the state showing it
applied; the AI seats choose their first legal action, so no AI time is in it), mb_per_client,
discord_requests_per_trick (0: no Discord front end), clicks, tricks and errors, server_cpu_ms_per_click (the
server's process: web server, table service, AI seats, store) and cpu_ms_per_click (with the pages' process),
then what held the server up (loop_lag_p99_ms, loop_lag_max_ms, gc_pauses, gc_pause_max_ms) and the clicks over
50 ms (slow_clicks) with how many waited through a collector pause or a loop stall; see bot/cli/bench_web.py."""

RENDER_EPILOG = """\
exit status: 0 when every image was written; 2 when the folder cannot be created or written to."""

PLAY_EPILOG = f"""\
Dutch words work too, as listed in brackets. At the table type a card (JH, 10s) or its number, or a
call (pass, play, H); ? asks for a hint; q, Ctrl-C or Ctrl-D leave.
The rules of every setting: {DOCS}/rules.md"""

DUEL_EPILOG = """\
Every deal is played twice with the seats swapped, so the luck of the cards cancels out. Prints A's
points per hand minus B's with a 95% confidence interval, and the nat and play rates.
--paired-with V also plays V against B on the same deals, every player made afresh for each decision
and seeded by what its seat sees, so A and V (and B) decide alike wherever they face the same
situation (the strong player with --untimed: its time cap follows the clock); prints both duels and
A minus V, paired, with its interval.
A player may be a variant of a kind, kind:setting=value,...: pimc:prune=off,stop_from=0 is the strong player
without its pruning and sequential stop (a setting is a field of the player's class; a wrong one is named).
exit status: 0, or 2 for a bad option."""


def bot_epilog() -> str:
    from bot.discord_app.config import VARIABLES
    from bot.discord_app.main import EXIT_CONFIG, EXIT_FAILED

    width = max(len(variable.name) for variable in VARIABLES)
    lines = ["environment (or a .env file in the folder the bot is started in; the environment wins):"]
    for variable in VARIABLES:
        text = variable.meaning + (f" (default: {variable.default})" if variable.default is not None else "")
        lines += textwrap.wrap(text, 100, initial_indent=f"  {variable.name:<{width}}  ",
                               subsequent_indent=" " * (width + 4))
    lines += [
        "exit status:",
        "  0  stopped (Ctrl-C)",
        f"  {EXIT_FAILED}  could not start: the token was refused, Discord cannot be reached, or the database",
        "     cannot be opened",
        f"  {EXIT_CONFIG}  no DISCORD_TOKEN, or a variable with a value it does not take",
    ]
    return "\n".join(lines)


class CommandParser(argparse.ArgumentParser):
    """A command's parser: an option it does not know is refused with this command's usage, not the top level's
    (argparse leaves unknown arguments to the top-level parser)."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="klaverjas", description="Klaverjas: engine, AI players, images, bot")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=CommandParser)

    def command(name: str, help_text: str, epilog: str | None = None) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_text, description=help_text, epilog=epilog,
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    score = command("score", "replay game records (JSON Lines) and print each one's result", SCORE_EPILOG)
    score.add_argument("file", nargs="?", default="-", metavar="FILE",
                       help="records file (default: -, standard input)")

    bench = command("bench", "print benchmark figures as JSON", BENCH_EPILOG)
    bench.add_argument("what", choices=["engine", "ai", "render", "load", "stats", "review", "web"],
                       metavar="BENCHMARK",
                       help="engine: hands per second; ai: decision times; render: image times and sizes; "
                            "load: many tables at once in one bot process, against a fake Discord; "
                            "stats: the statistics queries on a generated database; "
                            "review: the match review's time per hand of four humans; "
                            "web: many browser-less pages playing by WebSocket against the server in this process")
    timed = bench.add_argument_group("engine, ai and render")
    timed.add_argument("--seconds", type=words.seconds, default=None, metavar="S",
                       help="time budget per measurement, above 0 (default: each benchmark's own)")
    load = bench.add_argument_group("load")
    load.add_argument("--tables", type=words.whole_number(1), default=20, metavar="N",
                      help="tables playing at once (default: %(default)s)")
    load.add_argument("--humans-per-table", type=words.whole_number(1), default=1, metavar="K",
                      help="scripted humans per table, 1 to 4; AI players take the other seats (default: %(default)s)")
    load.add_argument("--discord-delay-ms", type=words.at_least_zero("milliseconds"), default=20.0, metavar="MS",
                      help="how long the fake Discord takes to answer each request (default: %(default)s)")
    load.add_argument("--ai-level", type=words.word_type(words.LEVEL), default="hard", metavar="LEVEL",
                      help="the AI players' level (default: %(default)s)")
    load.add_argument("--ai-workers", type=words.whole_number(0), default=1, metavar="N",
                      help="AI worker processes, 0 for threads (default: %(default)s, as the bot's own default)")
    load.add_argument("--think-ms", type=words.at_least_zero("milliseconds"), default=None, metavar="MS",
                      help="load and web: a scripted human's pause before each click (default: load 0, web 500)")
    load.add_argument("--ramp-seconds", type=words.at_least_zero("seconds"), default=2.0, metavar="S",
                      help="table starts are spread over this long (default: %(default)s)")
    web = bench.add_argument_group("web")
    web.add_argument("--clients", type=words.whole_number(1), default=100, metavar="N",
                     help="pages, each at a table of its own with three AI seats (default: %(default)s)")
    shared = bench.add_argument_group("load, stats and review")
    shared.add_argument("--hands", type=words.whole_number(1), default=None, metavar="N",
                        help="load: hands per match (default: 1); review: hands reviewed (default: 4); "
                             "review --levels: hands per match (default: 4)")
    shared.add_argument("--db", default=None, metavar="FILE",
                        help="load and stats: keep the SQLite database in FILE, which must not exist yet (default: "
                             "for load, DATABASE_URL, a PostgreSQL database, when it is set; else a temporary file, "
                             "removed afterwards)")
    review = bench.add_argument_group("review")
    review.add_argument("--levels", action="store_true",
                        help="measure how the review tells the AI levels apart instead of its time per hand")
    review.add_argument("--matches", type=words.whole_number(1), default=16, metavar="N",
                        help="review --levels: matches played, each level in every seat (default: %(default)s)")
    review.add_argument("--seed", type=int, default=1, metavar="S",
                        help="review --levels: seed of the deals and the players (default: %(default)s)")
    stats = bench.add_argument_group("stats")
    stats.add_argument("--total-hands", type=words.whole_number(16), default=1_000_000, metavar="N",
                       help="hands to generate, in matches of 16; one player plays in every hundredth match "
                            "(default: %(default)s)")

    render = command("render", "write one example of every image to a folder", RENDER_EPILOG)
    render.add_argument("--out", required=True, metavar="DIR", help="output folder, created if missing (required)")

    play = command("play", "play a match in the terminal against AI players", PLAY_EPILOG)
    add_play_arguments(play)

    duel = command("duel", "duplicate matches between two AI players", DUEL_EPILOG)
    players = words.player_type
    duel.add_argument("a", type=players, metavar="A", help=f"the first player: {words.described(words.PLAYERS)}")
    duel.add_argument("b", type=players, metavar="B", help="the second player, from the same list")
    duel.add_argument("--deals", type=words.whole_number(1), default=200, metavar="N",
                      help="deals, each played twice, at least 1 (default: %(default)s)")
    duel.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the deals (default: %(default)s)")
    duel.add_argument("--json", action="store_true", help="print the result as one JSON object")
    duel.add_argument("--rules", type=words.word_type(words.RULES), default="rotterdam", metavar="RULES",
                      help=f"{words.listing(words.RULES)} (default: %(default)s)")
    duel.add_argument("--bidding", type=words.word_type(words.BIDDING), default="vrij", metavar="MODE",
                      help=f"{words.listing(words.BIDDING)} (default: %(default)s)")
    duel.add_argument("--workers", type=words.whole_number(1), default=None, metavar="N",
                      help="processes, at least 1 (default: one per core)")
    duel.add_argument("--untimed", action="store_true",
                      help="the strong player without its time cap, its node budgets alone: the same result on "
                           "any machine, however busy")
    duel.add_argument("--rollouts", type=words.whole_number(1), default=None, metavar="N",
                      help="mc's roll-outs a card, at least 1 (default: 1000)")
    duel.add_argument("--paired-with", type=players, default=None, metavar="V",
                      help="compare A with V, each against B on the same deals and decision seeds (see below; "
                           "default: no comparison)")

    bot = command("bot", "run the Discord bot (needs DISCORD_TOKEN)", bot_epilog())
    bot.add_argument("--shards", default=None, metavar="IDS",
                     help="the shards this process runs, such as 0-3 or 0,2,4-5, of --shard-count (default: all); "
                          "several processes need DATABASE_URL (PostgreSQL), each its own shards")
    bot.add_argument("--shard-count", type=words.whole_number(1), default=None, metavar="N",
                     help="how many shards the whole bot runs, over all its processes (default: 1, or what "
                          "--shards needs)")
    return parser


# The terminal's own defaults, where they are not a table's: a match at the keyboard is against the strong player.
PLAY_DEFAULTS = {"ai": "hard"}
LENGTH_HELP = ("N hands (16 is a boompje, 8 a short match; up to 64) or toN, a race to N points (to1001, to1601; a "
               "bare number above 64 is a target too)")
UNDERTRUMP_DEFAULT = "follows --rules: forced with rotterdam, forbidden with amsterdam"


def add_play_arguments(play: argparse.ArgumentParser) -> None:
    """Every setting of ``engine.settings.SETTINGS`` that a terminal table takes, as ``--name WORD``."""
    for setting in SETTINGS:
        if not setting.on_command_line:
            continue
        flags = [f"--{setting.name}", *([words.OLDER_FLAGS[setting.name]] if setting.name in words.OLDER_FLAGS else [])]
        default = PLAY_DEFAULTS.get(setting.name, setting.default)
        if setting.values:
            choices = words.SETTING_CHOICES[setting.name]
            # A setting without a default of its own follows another one: only undertrump does (the rules').
            default_text = "%(default)s" if default is not None else UNDERTRUMP_DEFAULT
            play.add_argument(*flags, type=words.word_type(choices), default=default, metavar=setting.name.upper(),
                              help=f"{words.described(choices)} (default: {default_text})")
        else:
            play.add_argument(*flags, type=words.length_type, default=default, metavar=setting.name.upper(),
                              help=f"{LENGTH_HELP} (default: %(default)s)")
    play.add_argument("--seed", type=int, default=None, metavar="N",
                      help="seed of the deals and the AI players, to replay a match (default: a random one)")
    play.add_argument("--hint", action="store_true", help="show the strong player's advice before each of your turns")
    play.add_argument("--auto", action="store_true", help="four AI players play a whole match and it is printed")
    play.add_argument("--record", default=None, metavar="FILE",
                      help="write the match's record (klaverjas-record/1) to FILE when it ends or is left "
                           "(default: no record)")


# The options each benchmark reads; any other one given is refused rather than silently ignored.
BENCH_OPTIONS = {
    "engine": {"seconds"}, "ai": {"seconds"}, "render": {"seconds"}, "review": {"hands", "levels", "matches", "seed"},
    "stats": {"total_hands", "db"},
    "load": {"tables", "humans_per_table", "discord_delay_ms", "hands", "ai_level", "ai_workers", "think_ms",
             "ramp_seconds", "db"},
    "web": {"clients", "hands", "think_ms", "ramp_seconds", "db"},
}

LEVELS_OPTIONS = ("matches", "seed")  # of bench review, read with --levels only


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "bench":
        check_bench_options(parser, args)
    try:
        return dispatch(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130  # the shell's status for a run ended by Ctrl-C
    except BrokenPipeError:
        # The reader went away (`klaverjas score ... | head`): nothing more to say, and nowhere to say it.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def check_bench_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Exit (status 2, naming the option) when an option of another benchmark was given."""
    defaults = parser.parse_args(["bench", args.what])
    for dest in sorted(set().union(*BENCH_OPTIONS.values()) - BENCH_OPTIONS[args.what]):
        if getattr(args, dest) != getattr(defaults, dest):
            takers = " and ".join(what for what, options in BENCH_OPTIONS.items() if dest in options)
            parser.exit(2, f"klaverjas bench: error: argument --{dest.replace('_', '-')}: only for bench {takers}, "
                           f"not {args.what}\n")
    if args.what == "review" and not args.levels:
        for dest in LEVELS_OPTIONS:
            if getattr(args, dest) != getattr(defaults, dest):
                parser.exit(2, f"klaverjas bench: error: argument --{dest}: only for bench review --levels\n")


def dispatch(args: argparse.Namespace) -> int:
    command: str = args.command
    if command == "score":
        from bot.cli.score import run_score

        return run_score(args.file)
    if command == "bench":
        if args.what == "load":
            return run_bench_load(args)
        if args.what == "stats":
            return run_bench_stats(args)
        if args.what == "web":
            return run_bench_web(args)
        if args.what == "review":
            if args.levels:
                from engine.ai.review_levels import review_levels

                print(json.dumps(review_levels(args.matches, args.hands or 4, args.seed)))
                return 0
            from engine.ai.bench import bench_review

            print(json.dumps(bench_review(args.hands)))
            return 0
        return run_bench(args.what, args.seconds)
    if command == "render":
        return run_render(args.out)
    if command == "play":
        problem = record_problem(Path(args.record)) if args.record is not None else None
        if problem:
            print(f"klaverjas play: --record {args.record}: {problem}", file=sys.stderr)
            return 2
        from bot.terminal.game import run_play

        return run_play(args)
    if command == "duel":
        from bot.cli.duel import run_duel

        return run_duel(args)
    if command == "bot":
        from bot.discord_app.main import run_bot

        return run_bot(args.shards, args.shard_count)
    raise AssertionError(command)


def record_problem(path: Path) -> str | None:
    """Why the match's record could not be written to ``path`` when it ends, found before the first deal."""
    if path.is_dir():
        return "it is a folder; give a file name"
    if not path.parent.is_dir():
        return f"the folder {path.parent} does not exist"
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        return error.strerror or str(error)
    if not existed:
        path.unlink()  # only a probe: the file is written when the match ends
    return None


def run_render(out: str) -> int:
    if not out.strip():
        print("klaverjas render: --out: give a folder name (it is made if missing)", file=sys.stderr)
        return 2
    folder = Path(out)
    problem = unwritable(folder)
    if problem is None:
        from bot.texts.labels import image_labels
        from rendering.examples import write_examples

        try:
            paths = write_examples(out, image_labels("en"), image_labels("nl"))
        except OSError as error:
            problem = error.strerror or str(error)
        else:
            for path in paths:
                print(path)
            return 0
    print(f"klaverjas render: cannot write to {out}: {problem}", file=sys.stderr)
    return 2


def unwritable(folder: Path) -> str | None:
    """Why images cannot be written into ``folder`` (created if missing), or None; found before any rendering."""
    if folder.exists() and not folder.is_dir():
        return "it is a file, not a folder"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".klaverjas-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        return error.strerror or str(error)
    return None


def run_bench(what: str, seconds: float | None) -> int:
    result: dict[str, object]
    if what == "engine":
        from engine.bench import bench_engine

        result = bench_engine(random.Random, seconds or 3.0)
    elif what == "ai":
        from engine.ai.bench import bench_ai

        result = bench_ai(seconds)
    else:
        from bot.texts.labels import image_labels
        from rendering.bench import bench_render

        result = bench_render(seconds, image_labels("en"))
    print(json.dumps(result))
    return 0


def new_db_file(db: str | None) -> bool:
    """Whether ``--db`` names a new file in a folder that exists (or is not given); if not, says why."""
    from bot.store.sqlite import path_problem

    if db is None:
        return True
    problem = "it exists; give a new file" if Path(db).exists() else path_problem(Path(db))
    if problem is not None:
        print(f"klaverjas bench: --db: {problem}", file=sys.stderr)
    return problem is None


def run_bench_load(args: argparse.Namespace) -> int:
    import json

    from bot.cli.bench_load import LoadOptions, bench_load
    from bot.collector import quiet_collector
    from engine.ai.players import Level

    if args.humans_per_table > 4:
        print("klaverjas bench: --humans-per-table: a table has 4 seats", file=sys.stderr)
        return 2
    if not new_db_file(args.db):
        return 2
    options = LoadOptions(tables=args.tables, humans_per_table=args.humans_per_table,
                          discord_delay_ms=args.discord_delay_ms, hands=args.hands or 1, ai_level=Level(args.ai_level),
                          ai_workers=args.ai_workers, think_ms=args.think_ms or 0.0, ramp_s=args.ramp_seconds,
                          db=Path(args.db) if args.db is not None else os.environ.get("DATABASE_URL") or None)
    quiet_collector()  # as the bot's process does
    print(json.dumps(bench_load(options)))
    return 0


def run_bench_web(args: argparse.Namespace) -> int:
    from bot.cli.bench_web import WebLoadOptions, bench_web
    from bot.collector import quiet_collector

    if not new_db_file(args.db):
        return 2
    defaults = WebLoadOptions()
    think = args.think_ms if args.think_ms is not None else defaults.think_ms
    options = WebLoadOptions(clients=args.clients, hands=args.hands or 1, think_ms=think, ramp_s=args.ramp_seconds,
                             db=Path(args.db) if args.db is not None else None)
    quiet_collector()  # as the bot's process does
    print(json.dumps(bench_web(options)))
    return 0


def run_bench_stats(args: argparse.Namespace) -> int:
    from bot.cli.bench_stats import bench_stats

    if not new_db_file(args.db):
        return 2
    from engine.ai.bench import bench_review

    figures = bench_stats(args.total_hands, Path(args.db) if args.db is not None else None)
    # And what one hand of four humans costs to review, as `bench review` measures it.
    figures["review_hand_s"] = bench_review(1)["review_hand_s"]
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
