"""The `workbench` command: one sub-command per module, each with `add_parser` and `run`."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO, cast

from app.workers import checked_workers
from workbench.content.printable import PrintableStream

COMMANDS: dict[str, str] = {
    "validate": "app.cmd_validate",
    "simulate": "app.cmd_simulate",
    "report": "app.cmd_report",
    "compare": "app.cmd_compare",
    "demo": "app.cmd_demo",
    "sweep": "app.cmd_sweep",
    "tune": "app.cmd_tune",
    "ablate": "app.cmd_ablate",
    "skill": "app.cmd_skill",
    "ab": "app.cmd_ab",
    "replay": "app.cmd_replay",
    "play": "app.cmd_play",
    "check": "app.cmd_check",
    "fuzz": "app.cmd_fuzz",
    "train-agent": "app.cmd_train_agent",
}
"""Sub-command name -> module defining `add_parser(subparsers)` and `run(args) -> int`."""

REPORT_FOLDER = "the report is a folder (index.html and tables/)"
OUT_FOLDERS: dict[str, str] = {
    "report": REPORT_FOLDER,
    "compare": REPORT_FOLDER,
    "sweep": REPORT_FOLDER,
    "ablate": REPORT_FOLDER,
    "skill": REPORT_FOLDER,
    "tune": "the report is a folder (index.html, tables/, proposals.csv, the marked copy)",
    "demo": "the demo writes a folder (demo.duckdb and report/)",
    "replay": "the page goes into a folder (game-ID.html)",
}
"""Commands whose --out is a folder, and what goes into it (said when --out names a file)."""
ROOT = Path(__file__).resolve().parent.parent


def stale_build_note(root: Path) -> str | None:
    """Why the engine runs its sources though a compiled build is there: the build is older
    than the sources it was made from (engine/compiled.py runs a build only when every hash in
    its mark matches), so every game is 2-3x slower until it is built again. None when there
    is no build, the build is current, or WORKBENCH_ENGINE=source asked for the sources."""
    from engine.compiled import BUILD, engine_sources, source_hashes

    mark = root / "engine" / BUILD.name
    if os.environ.get("WORKBENCH_ENGINE") == "source" or not mark.is_file():
        return None
    try:
        kept: dict[str, str] = json.loads(mark.read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        kept = {}
    now = source_hashes(root, engine_sources(root))
    changed = sorted(s for s in kept.keys() | now.keys() if kept.get(s) != now.get(s))
    if not changed:
        return None
    more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
    return (
        f"note: the compiled engine was built before {changed[0]}{more} changed, so the "
        "engine's sources run, 2-3x slower; `pip install -e .` builds it again "
        "(docs/compiled.md)"
    )


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or with `command` (a name of COMMANDS) of that command
    alone: a run imports only its own module, not the others' plotting and statistics
    libraries (matplotlib, scipy: most of a second); the listing of every command needs all."""
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="Balance workbench for muhq's game: validate card sets and boards, simulate "
        "drafts and matches into DuckDB, and report on balance.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    names = [command] if command is not None and command in COMMANDS else list(COMMANDS)
    for name in names:
        importlib.import_module(COMMANDS[name]).add_parser(sub)
    return parser


NEGATIVE = re.compile(r"-\.?\d")
"""A word that starts like a negative number (`-0.05,0.05`, `-1`, `-.5`)."""


def attach_negative_values(argv: Sequence[str]) -> list[str]:
    """`--band -0.05,0.05` -> `--band=-0.05,0.05`. argparse takes a word that starts with `-`
    for an option unless it is one plain number, so a list like `-0.05,0.05` would be refused;
    no option of the workbench looks like a number, so such a word is the value of the option
    before it (a flag that takes no value still says so). Words after `--` stay as they are."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":
            return out + list(argv[i:])
        prev = out[-1] if out else ""
        if NEGATIVE.match(arg) and prev.startswith("--") and len(prev) > 2 and "=" not in prev:
            out[-1] = f"{prev}={arg}"
        else:
            out.append(arg)
    return out


@contextlib.contextmanager
def printable_output() -> Iterator[None]:
    """stdout and stderr through the one sanitiser while a command runs, so that nothing it
    prints from content (names, sheet names, messages quoting a cell), argparse's messages and
    warnings included, can carry a terminal escape or a bidi control
    (workbench.content.printable)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = cast(TextIO, PrintableStream(out))
    sys.stderr = cast(TextIO, PrintableStream(err))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (2 for bad input, as argparse does)."""
    with printable_output():
        return _run(argv)


def not_utf8(args: argparse.Namespace) -> str | None:
    """The first argument that is not UTF-8 text, as `--name VALUE`: Python reads bytes it
    cannot decode as lone surrogates, which a file name passes on to libraries that refuse
    them (polars could not write the report's tables under such an --out, after the folder
    was made)."""
    for name, value in vars(args).items():
        for item in value if isinstance(value, list) else [value]:
            text = str(item) if isinstance(item, (str, Path)) else ""
            if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
                return f"{'--' + name.replace('_', '-') if name != 'paths' else 'PATH'} {text}"
    return None


def _run(argv: Sequence[str] | None) -> int:
    """Parse and run. An argument that is not UTF-8 text, or an --out that must be a folder
    but names a file, is refused here, before any command writes anything."""
    words = attach_negative_values(sys.argv[1:] if argv is None else argv)
    # the first word, when it names a command, is the command (the one option before it, -h,
    # asks for the listing of all of them)
    args = build_parser(words[0] if words else None).parse_args(words)
    bad = not_utf8(args)
    if bad is not None:
        print(
            f"workbench {args.command}: error: {bad}: not UTF-8 text (a byte the file system "
            "gives no character for); name files and folders in UTF-8",
            file=sys.stderr,
        )
        return 2
    out = getattr(args, "out", None)
    if (
        args.command in OUT_FOLDERS
        and out is not None
        and Path(out).exists()
        and not Path(out).is_dir()
    ):
        print(
            f"workbench {args.command}: --out {out} is a file; "
            f"{OUT_FOLDERS[args.command]}: name a folder",
            file=sys.stderr,
        )
        return 2
    error, note = checked_workers(args)
    if error is not None:
        print(f"workbench {args.command}: error: {error}", file=sys.stderr)
        return 2
    for text in (note, stale_build_note(ROOT)):
        if text is not None:
            print(f"workbench {args.command}: {text}", file=sys.stderr)
    module = importlib.import_module(COMMANDS[args.command])
    code: int = module.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
