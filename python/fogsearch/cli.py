"""The ``fogsearch`` command line."""

from __future__ import annotations

import argparse
import sys

from fogsearch import benchmarks, play, tracking
from fogsearch.tournament import command as tournament_command
from fogsearch.ttcg.match import command as cards_command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fogsearch", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True)
    tracking.add_parsers(subparsers)
    play.add_parser(subparsers)
    tournament_command.add_parser(subparsers)
    benchmarks.add_parser(subparsers)
    cards_command.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    passthrough: list[str] = []
    if "--" in argv:  # everything after `--` goes to the scripts `fogsearch bench` runs
        split = argv.index("--")
        argv, passthrough = argv[:split], argv[split + 1 :]
    parser = build_parser()
    args = parser.parse_args(argv)
    if passthrough and not getattr(args, "accepts_passthrough", False):
        parser.error(f"arguments after -- are only for `fogsearch bench`: {passthrough}")
    args.passthrough = passthrough
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
