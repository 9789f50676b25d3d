"""``hexkit users``: the accounts of a ``hexkit serve`` server (see docs/web.md).

    hexkit users add alice                 # prints a one-time link for alice
    hexkit users add teacher --admin --password
    hexkit users import roster.csv         # one account per row, a link each
    hexkit users list | remove NAME | reset NAME | admin NAME [--off]

Accounts live in the server's folder (``--games-dir``, the same as ``hexkit serve``'s), or
in its database (``--storage postgresql://...``, the same as ``hexkit serve``'s).
A one-time link lets its person choose a password; it works once, within 7 days.
"""

from __future__ import annotations

import argparse
import csv
import io
import secrets
import sys
from pathlib import Path
from typing import IO, Any

from hexkit.errors import ConfigError, OptionError

#: Roster columns, by the names a spreadsheet may give them.
COLUMNS = {
    "name": ("name", "username", "user", "login", "account"),
    "email": ("email", "e-mail", "mail", "email address"),
    "student_id": ("student id", "student_id", "studentid", "id", "student number"),
    "display": ("display", "display name", "full name", "fullname", "student"),
}


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit users``."""
    from hexkit.commands.serve import add_folder_argument

    add_folder_argument(parser)
    parser.add_argument("--storage", default=None, metavar="URL",
                        help="the servers' database (postgresql://...), as given to "
                             "hexkit serve --storage (default: the folder)")
    parser.add_argument("--url", default="http://localhost:8000",
                        help="the server's address as students type it, for the one-time "
                             "links (default http://localhost:8000)")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    add = verbs.add_parser("add", help="add an account (prints its one-time link)")
    add.add_argument("name")
    add.add_argument("--admin", action="store_true",
                     help="may stop and delete any game")
    add.add_argument("--email", default="")
    add.add_argument("--student-id", default="")
    add.add_argument("--display", default="", help="the name shown on the board")
    add.add_argument("--password", action="store_true",
                     help="type a password now instead of printing a one-time link")
    roster = verbs.add_parser("import", help="add an account for each row of a CSV roster "
                                             "(name, e-mail or student id)")
    roster.add_argument("file")
    roster.add_argument("--passwords", action="store_true",
                        help="print a first password for each instead of a one-time link")
    verbs.add_parser("list", help="list the accounts")
    remove = verbs.add_parser("remove", help="remove an account (and sign it out)")
    remove.add_argument("name")
    reset = verbs.add_parser("reset", help="sign an account out and print a new one-time "
                                           "link to choose a password")
    reset.add_argument("name")
    admin = verbs.add_parser("admin", help="make an account an admin (or not, with --off)")
    admin.add_argument("name")
    admin.add_argument("--off", action="store_true")


def open_accounts(args: argparse.Namespace) -> Any:
    from hexkit.commands.serve import default_folder
    from hexkit.errors import HexkitError
    from hexkit.web.accounts import Accounts
    from hexkit.web.backends import open_storage

    folder = Path(args.games_dir) if args.games_dir else default_folder()
    url = getattr(args, "storage", None)
    try:
        return Accounts(open_storage(url, None if url else folder, serving=False)), folder
    except HexkitError as exc:
        if isinstance(exc, OptionError):
            raise
        raise OptionError(str(exc)) from None
    except OSError as exc:
        raise OptionError(f"cannot open the accounts in {folder}: "
                          f"{exc.strerror or exc}") from None


def run(args: argparse.Namespace, stdin: IO[str] | None = None,
        stdout: IO[str] | None = None) -> int:
    """Run ``hexkit users``."""
    from hexkit.web.accounts import AccountError

    out = stdout or sys.stdout
    accounts, folder = open_accounts(args)
    url = args.url.rstrip("/")
    try:
        if args.verb == "add":
            password = _typed_password(stdin or sys.stdin) if args.password else None
            account = accounts.add(args.name, password=password, admin=args.admin,
                                   email=args.email, student_id=args.student_id,
                                   display=args.display)
            role = " (admin)" if account.admin else ""
            if password:
                print(f"added {account.name}{role}", file=out)
            else:
                link = f"{url}/welcome#{accounts.one_time_link(account.name)}"
                print(f"added {account.name}{role}: one-time link {link}", file=out)
        elif args.verb == "import":
            return _import(accounts, args.file, args.passwords, url, out)
        elif args.verb == "list":
            rows = accounts.storage.accounts()
            if not rows:
                print(f"no accounts in {folder} (hexkit users add NAME)", file=out)
            for a in rows:
                extra = ", ".join(x for x in (a.email, a.student_id) if x)
                state = "password set" if a.password else "waiting for its link"
                admin = ", admin" if a.admin else ""
                print(f"{a.name}  ({state}{admin}){'  ' + extra if extra else ''}", file=out)
        elif args.verb == "remove":
            accounts.remove(args.name)
            print(f"removed {args.name}", file=out)
        elif args.verb == "reset":
            found = accounts.storage.account(args.name)
            if found is None:
                raise AccountError(f"there is no account {args.name!r}")
            found.password = ""
            accounts.storage.put_account(found)
            accounts.storage.drop_sessions_of(found.name)
            link = f"{url}/welcome#{accounts.one_time_link(found.name)}"
            print(f"{found.name} is signed out; one-time link {link}", file=out)
        elif args.verb == "admin":
            accounts.set_admin(args.name, not args.off)
            print(f"{args.name} is {'no longer ' if args.off else ''}an admin", file=out)
    except AccountError as exc:
        raise OptionError(str(exc)) from None
    return 0


def _typed_password(stdin: IO[str]) -> str:
    import getpass

    if stdin.isatty():
        first = getpass.getpass("password: ")
        if getpass.getpass("again: ") != first:
            raise OptionError("the two passwords differ")
        return first
    return stdin.readline().rstrip("\r\n")


def read_roster(path: str) -> list[tuple[int, dict[str, str]]]:
    """The rows of a CSV roster as ``(line, {name, email, student_id, display})``;
    ConfigError (file:line) if it cannot be read."""
    from hexkit.files.fileio import read_text_bounded

    text = read_text_bounded(path, 4 << 20)
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows:
        raise ConfigError("the roster is empty", path)
    header = [h.strip().lower() for h in rows[0]]
    columns: dict[str, int] = {}
    for key, names in COLUMNS.items():
        for i, h in enumerate(header):
            if h in names and key not in columns and i not in columns.values():
                columns[key] = i
    start = 1
    if "name" not in columns:
        if any(h in sum(COLUMNS.values(), ()) for h in header):
            raise ConfigError("the roster has no name column (name, username or login)",
                              path, 1)
        columns, start = {"name": 0}, 0  # no header: name, then e-mail or student id
    out = []
    for number, row in enumerate(rows[start:], start=start + 1):
        if not any(cell.strip() for cell in row):
            continue
        entry = {key: row[i].strip() if i < len(row) else "" for key, i in columns.items()}
        if start == 0 and len(row) > 1:
            second = row[1].strip()
            entry["email" if "@" in second else "student_id"] = second
        out.append((number, entry))
    return out


def _import(accounts: Any, path: str, passwords: bool, url: str, out: IO[str]) -> int:
    from hexkit.web.accounts import AccountError, check_name

    rows = read_roster(path)
    problems = 0
    added = 0
    for line, entry in rows:
        try:
            name = check_name(entry.get("name", ""))
            password = secrets.token_urlsafe(9) if passwords else None
            accounts.add(name, password=password, email=entry.get("email", ""),
                         student_id=entry.get("student_id", ""),
                         display=entry.get("display", ""))
        except AccountError as exc:
            print(f"{path}:{line}: skipped: {exc}", file=out)
            problems += 1
            continue
        added += 1
        if password:
            print(f"{name}  first password: {password}", file=out)
        else:
            print(f"{name}  {url}/welcome#{accounts.one_time_link(name)}", file=out)
    print(f"{added} accounts added from {path}"
          + (f"; {problems} rows skipped" if problems else ""), file=out)
    return 1 if problems and not added else 0
