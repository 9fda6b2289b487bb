"""The ``fogsearch`` command line."""

from __future__ import annotations

import argparse
import sys

from fogsearch import benchmarks, play, tracking
from fogsearch.tournament import command as tournament_command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fogsearch", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True)
    tracking.add_parsers(subparsers)
    play.add_parser(subparsers)
    tournament_command.add_parser(subparsers)
    benchmarks.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
