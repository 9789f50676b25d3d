"""Accounts of a ``hexkit serve`` server: passwords, sessions, one-time links, sign-in limits.

- passwords are hashed with argon2id (argon2-cffi, the ``web`` extra), or with the
  standard library's scrypt where argon2-cffi is missing; a stored hash says which;
- a session is a random key in a signed, HttpOnly, SameSite=Strict cookie; the server
  keeps only its hash, so signing out (or removing the account) ends it at once;
- a one-time link lets a person choose their first password (it works once, for 7 days);
- failed sign-ins are limited per address and per name.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from hexkit.errors import HexkitError
from hexkit.web.storage import Account, Storage

#: The cookie that carries a session.
COOKIE = "hexkit_session"
#: How long a session lasts (seconds).
SESSION_SECONDS = 14 * 24 * 3600
#: How long a one-time link lasts (seconds).
LINK_SECONDS = 7 * 24 * 3600
#: An account's name: what a person types to sign in and what the board shows.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}\Z")
#: The shortest password accepted.
MIN_PASSWORD = 8
#: Failed sign-ins allowed per address or per name in :data:`FAILURE_WINDOW` seconds.
MAX_FAILURES = 5
FAILURE_WINDOW = 60.0


class AccountError(HexkitError):
    """A refused account operation, in one line; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def check_name(name: Any) -> str:
    """An account name as stored (NFKC, ASCII letters, digits and ``._@-``)."""
    if not isinstance(name, str):
        raise AccountError("a name is a text")
    text = unicodedata.normalize("NFKC", name).strip()
    if not NAME.match(text):
        shown = text if len(text) <= 40 else text[:30] + "..."
        raise AccountError(f"{shown!r} is not a name: 1 to 64 letters, digits or ._@- "
                           "(starting with a letter or digit)")
    return text


# -- passwords -------------------------------------------------------------------------------
def hash_password(password: str) -> str:
    """The stored form of ``password`` (argon2id, or ``scrypt$...`` without argon2-cffi)."""
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > 1024:
        raise AccountError("a password has at most 1024 characters")
    try:
        from argon2 import PasswordHasher
    except ImportError:
        salt = secrets.token_bytes(16)
        digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=2**14, r=8, p=1)
        return "scrypt$" + base64.b64encode(salt + digest).decode("ascii")
    return str(PasswordHasher().hash(password))


def verify_password(stored: str, password: str) -> bool:
    """True if ``password`` matches the stored hash (False for an unset one)."""
    if not stored or not isinstance(password, str) or len(password) > 1024:
        return False
    if stored.startswith("scrypt$"):
        raw = base64.b64decode(stored[7:])
        salt, digest = raw[:16], raw[16:]
        again = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=2**14, r=8, p=1)
        return hmac.compare_digest(digest, again)
    try:
        from argon2 import PasswordHasher
        from argon2.exceptions import InvalidHashError, VerificationError
    except ImportError:
        return False
    try:
        return bool(PasswordHasher().verify(stored, password))
    except (VerificationError, InvalidHashError):
        return False


#: Verified when a name is unknown, so that a wrong name costs as long as a wrong password.
_DUMMY: list[str] = []


def _dummy_hash() -> str:
    if not _DUMMY:
        _DUMMY.append(hash_password(secrets.token_urlsafe(12)))
    return _DUMMY[0]


def digest(key: str) -> str:
    """What is stored of a session key or one-time link."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


# -- the accounts of a server ----------------------------------------------------------------
@dataclass(frozen=True)
class Person:
    """Who a request comes from: a signed-in account, or nobody (``name`` None)."""

    name: str | None = None
    admin: bool = False
    display: str = ""

    @property
    def signed_in(self) -> bool:
        return self.name is not None


NOBODY = Person()


class Accounts:
    """Accounts, sessions and links over a :class:`~hexkit.web.storage.Storage`."""

    def __init__(self, storage: Storage):
        self.storage = storage
        self._secret: bytes | None = None
        self.failures: dict[str, list[float]] = {}

    @property
    def secret(self) -> bytes:
        if self._secret is None:
            self._secret = self.storage.secret()
        return self._secret

    # -- managing (hexkit users) ---------------------------------------------------------
    def add(self, name: str, *, password: str | None = None, admin: bool = False,
            email: str = "", student_id: str = "", display: str = "",
            replace: bool = False) -> Account:
        """A new account (AccountError if the name is taken, unless ``replace``)."""
        name = check_name(name)
        if not replace and self.storage.account(name) is not None:
            raise AccountError(f"there is already an account {name!r}", 409)
        account = Account(name, hash_password(password) if password else "", admin,
                          email.strip()[:200], student_id.strip()[:100],
                          (display.strip() or name)[:100], time.time())
        self.storage.put_account(account)
        return account

    def set_password(self, name: str, password: str) -> None:
        account = self._existing(name)
        account.password = hash_password(password)
        self.storage.put_account(account)
        self.storage.drop_sessions_of(account.name)

    def set_admin(self, name: str, admin: bool) -> None:
        account = self._existing(name)
        account.admin = admin
        self.storage.put_account(account)

    def remove(self, name: str) -> None:
        if not self.storage.remove_account(check_name(name)):
            raise AccountError(f"there is no account {name!r}", 404)

    def _existing(self, name: str) -> Account:
        account = self.storage.account(check_name(name))
        if account is None:
            raise AccountError(f"there is no account {name!r}", 404)
        return account

    def one_time_link(self, name: str) -> str:
        """A new one-time key for ``name`` to choose a password (the old one stops working);
        the page is ``/welcome#KEY``."""
        account = self._existing(name)
        key = secrets.token_urlsafe(24)
        self.storage.put_link(digest(key), account.name, time.time() + LINK_SECONDS)
        return key

    # -- signing in ----------------------------------------------------------------------
    def _limited(self, *keys: str) -> float:
        now = time.monotonic()
        wait = 0.0
        for key in keys:
            recent = [t for t in self.failures.get(key, []) if now - t < FAILURE_WINDOW]
            if recent:
                self.failures[key] = recent
            else:
                self.failures.pop(key, None)
            if len(recent) >= MAX_FAILURES:
                wait = max(wait, FAILURE_WINDOW - (now - recent[0]))
        if len(self.failures) > 10000:
            self.failures.clear()
        return wait

    def sign_in(self, name: Any, password: Any, address: str) -> str:
        """A new session key for a correct name and password; AccountError (401, or 429
        after too many failures from this address or for this name) otherwise."""
        shown = name if isinstance(name, str) else ""
        wait = self._limited(f"ip:{address}", f"name:{shown.lower()[:64]}")
        if wait:
            raise AccountError(f"too many failed sign-ins: try again in {int(wait) + 1} s", 429)
        account = None
        try:
            account = self.storage.account(check_name(name))
        except AccountError:
            pass
        stored = account.password if account is not None else _dummy_hash()
        if account is None or not verify_password(stored, password):
            now = time.monotonic()
            for key in (f"ip:{address}", f"name:{shown.lower()[:64]}"):
                self.failures.setdefault(key, []).append(now)
            raise AccountError("wrong name or password", 401)
        return self.new_session(account.name)

    def new_session(self, name: str) -> str:
        key = secrets.token_urlsafe(32)
        self.storage.put_session(digest(key), name, time.time() + SESSION_SECONDS)
        return key

    def welcome(self, key: Any, password: Any) -> str:
        """Use a one-time link: set the password, return a new session key."""
        if not isinstance(key, str) or not isinstance(password, str) or len(key) > 100:
            raise AccountError("this link is not valid", 404)
        hash_password(password)  # too short: said before the link is used up
        name = self.storage.take_link(digest(key))
        if name is None:
            raise AccountError("this link has been used or has expired: ask for a new one",
                               404)
        self.set_password(name, password)
        return self.new_session(name)

    # -- cookies -------------------------------------------------------------------------
    def cookie_value(self, key: str) -> str:
        """The session key, signed with the server's secret."""
        mac = hmac.new(self.secret, key.encode("ascii"), hashlib.sha256).hexdigest()[:32]
        return f"{key}.{mac}"

    def _key_of(self, cookie: str | None) -> str | None:
        if not cookie or len(cookie) > 200 or "." not in cookie:
            return None
        key, _, mac = cookie.rpartition(".")
        good = hmac.new(self.secret, key.encode("ascii", "replace"),
                        hashlib.sha256).hexdigest()[:32]
        return key if hmac.compare_digest(mac, good) else None

    def person(self, cookie: str | None) -> Person:
        """Who the session cookie belongs to (:data:`NOBODY` if none or not valid)."""
        key = self._key_of(cookie)
        if key is None:
            return NOBODY
        name = self.storage.session(digest(key))
        if name is None:
            return NOBODY
        account = self.storage.account(name)
        if account is None:
            return NOBODY
        return Person(account.name, account.admin, account.display or account.name)

    def sign_out(self, cookie: str | None) -> None:
        key = self._key_of(cookie)
        if key is not None:
            self.storage.drop_session(digest(key))
