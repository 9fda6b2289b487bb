"""The ``fogsearch`` command line.

A mistake in what was asked (an unknown player, a bad setting, a count or clock out of bounds, a
missing file) prints one line to stderr and exits 2, before any game is played; an unexpected
failure prints one line and exits 1. ``fogsearch --debug ...`` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import sys
import traceback

from fogsearch import benchmarks, play, tracking
from fogsearch.analysis import command as losses_command
from fogsearch.arguments import UsageError
from fogsearch.jps import command as jps_command
from fogsearch.replay import command as replay_command
from fogsearch.server import command as server_command
from fogsearch.tournament import command as tournament_command
from fogsearch.ttcg.match import command as cards_command

USAGE_EXIT = 2
"""argparse's own exit code for a bad command line; every user error exits with it."""
INTERRUPTED_EXIT = 130
"""The shell's code for a job ended by an interrupt (128 + SIGINT)."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (what was wrong, and where to read what is
    allowed) instead of the usage block and the error."""

    def error(self, message: str):
        raise UsageError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="fogsearch", description=__doc__)
    parser.add_argument(
        "--debug", action="store_true", help="show tracebacks instead of one-line errors"
    )
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    tracking.add_parsers(subparsers)
    play.add_parser(subparsers)
    replay_command.add_parser(subparsers)
    tournament_command.add_parser(subparsers)
    benchmarks.add_parser(subparsers)
    cards_command.add_parser(subparsers)
    jps_command.add_parser(subparsers)
    server_command.add_parsers(subparsers)
    losses_command.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Runs the command line on ``argv`` (``sys.argv[1:]`` by default); returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv[: argv.index("--") if "--" in argv else len(argv)]
    try:
        return _run(argv)
    except UsageError as exc:
        if debug:
            traceback.print_exc()
        print(f"fogsearch: error: {exc}", file=sys.stderr)
        return USAGE_EXIT
    except KeyboardInterrupt:
        if debug:
            traceback.print_exc()
        print("fogsearch: interrupted", file=sys.stderr)
        return INTERRUPTED_EXIT
    except SystemExit as exc:  # --help and --version: argparse exits after printing
        return exc.code if isinstance(exc.code, int) else 0
    except Exception as exc:  # noqa: BLE001 - one line unless --debug; a bug, not a user error
        if debug:
            traceback.print_exc()
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        print(
            f"fogsearch: failed: {type(exc).__name__}: {first} (run `fogsearch --debug ...` for "
            "the traceback)",
            file=sys.stderr,
        )
        return 1


def _run(argv: list[str]) -> int:
    passthrough: list[str] = []
    if "--" in argv:  # everything after `--` goes to the scripts `fogsearch bench` runs
        split = argv.index("--")
        argv, passthrough = argv[:split], argv[split + 1 :]
    parser = build_parser()
    args = parser.parse_args(argv)
    if passthrough and not getattr(args, "accepts_passthrough", False):
        raise UsageError(f"arguments after -- are only for `fogsearch bench`: {passthrough}")
    args.passthrough = passthrough
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
