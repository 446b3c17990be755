"""The ``klaverjas`` command line. Each subcommand imports its module only when it runs, so
``klaverjas score`` does not pay for discord.py or Pillow."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="klaverjas", description="Klaverjas: engine, AI players, images, bot")
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser("score", help="replay game records (JSON Lines) and print each one's result")
    score.add_argument("file", nargs="?", default="-", help="records file, or - for standard input")

    bench = sub.add_parser("bench", help="print benchmark figures as JSON")
    bench.add_argument("what", choices=["engine", "ai", "render"])
    bench.add_argument("--seconds", type=float, default=None, help="time budget per measurement")

    render = sub.add_parser("render", help="write one example of every image to a folder")
    render.add_argument("--out", required=True, help="output folder")

    play = sub.add_parser("play", help="play a match in the terminal against AI players")
    add_play_arguments(play)

    duel = sub.add_parser("duel", help="duplicate matches between two AI players")
    duel.add_argument("a")
    duel.add_argument("b")
    duel.add_argument("--deals", type=int, default=200)
    duel.add_argument("--seed", type=int, default=1)
    duel.add_argument("--json", action="store_true")
    duel.add_argument("--rules", default="rotterdam")
    duel.add_argument("--bidding", default="vrij")
    duel.add_argument("--workers", type=int, default=None, help="processes (default: one per core)")

    sub.add_parser("bot", help="run the Discord bot (needs DISCORD_TOKEN)")
    return parser


def add_play_arguments(play: argparse.ArgumentParser) -> None:
    play.add_argument("--rules", default="rotterdam", help="rotterdam or amsterdam")
    play.add_argument("--undertrump", default=None, help="forced or forbidden")
    play.add_argument("--bidding", default="vrij", help="vrij, verplicht or draaien")
    play.add_argument("--forced", default="elder", help="vrij: who must play after four passes (elder, dealer)")
    play.add_argument("--roem", default="auto", help="auto or declared")
    play.add_argument("--stuk", default="trick", help="trick or held")
    play.add_argument("--length", default="16", help="hands (16, 8) or a target (to1001)")
    play.add_argument("--level", default="hard", help="easy, normal or hard")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--lang", default="en", help="en or nl")
    play.add_argument("--hint", action="store_true", help="show the hint before each of your turns")
    play.add_argument("--auto", action="store_true", help="four AI players play a whole match")
    play.add_argument("--record", default=None, metavar="FILE",
                      help="write the match's record (klaverjas-record/1) to FILE when it ends or is left")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    command: str = args.command
    if command == "score":
        from bot.cli.score import run_score

        return run_score(args.file)
    if command == "bench":
        return run_bench(args.what, args.seconds)
    if command == "render":
        from bot.texts.labels import image_labels
        from rendering.examples import write_examples

        for path in write_examples(args.out, image_labels("en"), image_labels("nl")):
            print(path)
        return 0
    if command == "play":
        from bot.terminal.game import run_play

        return run_play(args)
    if command == "duel":
        from bot.cli.duel import run_duel

        return run_duel(args)
    if command == "bot":
        from bot.discord_app.main import run_bot

        return run_bot()
    raise AssertionError(command)


def run_bench(what: str, seconds: float | None) -> int:
    import json

    result: dict[str, object]
    if what == "engine":
        import random

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


if __name__ == "__main__":
    sys.exit(main())
