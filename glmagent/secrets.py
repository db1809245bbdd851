"""Which environment variables hold secrets: one rule for command scrubbing, log redaction and the guard.

A name is split into parts at `_`, `-`, `.`, digits and camelCase humps (`OPENAI_API_KEY` -> openai, api,
key; `githubToken` -> github, token), and a part must be a whole secret word: `TOKENIZERS_PARALLELISM`,
`KEYBOARD_LAYOUT` and `MONKEY` are not secrets, `GITHUB_TOKEN`, `DB_PASSWORD` and `apiKey` are.

Words that name a secret on their own (token, secret, password, credentials, ...) count anywhere, also as the
end of a run-together part (`GITHUBTOKEN`, `APIKEY`). Short words that also have harmless meanings (key, pass,
pwd, pat, pin) count only in a name of several parts: `$key` is a loop variable and `$PWD` the working
directory, while `STRIPE_KEY`, `DB_PASS`, `MYSQL_PWD` and `GH_PAT` are secrets.

`SECRET_NAME_PATTERN` is the same rule as one regular expression, matched in full and ignoring case, so the
guard's variable rules (`names = ["<secret-name>"]` in the policy) use exactly this definition.

A provider's key may sit in a variable whose name looks like nothing (`--api-key-env LLMKEY`): whoever picks
that variable declares it with `declare_secret_variable`, and from then on, in this process, it is kept out
of every command's environment (`is_hidden_variable`) and its value is redacted by every `Redactor`.
"""

from __future__ import annotations

import base64
import os
import re
import urllib.parse
from collections.abc import Iterable, Mapping

_SEP = r"[_\-.\d]"
_ERLANG_OTP = (
    r"(?<!erlang[_.-])(?<!erl[_.-])(?<!for[_.-])(?<!dir[_.-])(?<!path[_.-])(?<!root[_.-])"
    rf"otp(?!{_SEP}(?:versions?|vsn|releases?|rel|root|dir|path|home|src|bin|lib|apps?)(?:$|{_SEP}))"
)
"""`otp` (a one-time password, `NPM_OTP`), except as Erlang/OTP's name in its versions and folders
(`OTP_VERSION`, `OTP_ROOT`, `INSTALL_DIR_FOR_OTP`, `ERLANG_OTP`), which CI sets everywhere."""

_STRONG_ENDS = (
    r"(?:(?:secret|password|passwd|passphrase|credential|cookie|webhook)s?"
    r"|token|apikey|accesskey|secretkey|privatekey|authkey|masterkey|signingkey|clientsecret)"
)
"""Words that name a secret on their own, also as the end of a run of letters (`GITHUBTOKEN`, `APIKEY`)."""

_STRONG_WORDS = (
    rf"(?:creds?|auth|oauth|bearer|sessionid|jwt|{_ERLANG_OTP}|totp|mfa|dsn|privkey|keyfile|keystore|keychain"
    r"|keyring|private|pem|pfx|connectionstring|connstr|hmac|salt)"
)
"""Words that name a secret on their own, as a whole part only."""

_WEAK = r"(?:keys?|pass|pwd|pat|pw)"
"""Words with everyday meanings too: a secret only as one part of a longer name (`API_KEY`, `DB_PASS`)."""

# Where a part starts and ends: the name's edge, a separator or digit, or a camelCase hump. The humps are
# case-sensitive even though the pattern as a whole ignores case.
_HUMP = r"(?<=(?-i:[a-z]))(?=(?-i:[A-Z]))|(?<=(?-i:[A-Z]))(?=(?-i:[A-Z][a-z]))"
_START = rf"(?:(?<={_SEP})|{_HUMP})"
_END = rf"(?:$|(?={_SEP})|{_HUMP})"

# A run of letters that ends in a secret word starts at a part's start: at the name's start or a separator
# (each run is scanned once from there), or at the run's first hump, which the atomic group commits to
# (starting again at every later hump of `aAaA…` would scan the rest of the run once per hump).
_RUN_START = rf"(?:(?:.*?(?<={_SEP}))?|.*?(?<![a-z])(?>[a-z]*?(?:{_HUMP})))"

SECRET_NAME_PATTERN = (
    rf"(?:(?:.*?{_START})?{_STRONG_WORDS}{_END}.*)"  # a secret word anywhere
    rf"|(?:{_RUN_START}[a-z]*{_STRONG_ENDS}{_END}.*)"  # or ending a run of letters: GITHUBTOKEN, myApiKey
    # The first letter or digit, found once, must come before the short word (`.*?[^\W_].*?` is quadratic).
    rf"|(?:[\W_]*+[^\W_].*?{_START}{_WEAK}{_END}.*)"  # a short word after another part: API_KEY, dbPass
    rf"|(?:{_WEAK}{_END}.*[^\W\d_].*)"  # a short word before another part: KEY_FILE, passWord
    r"|(?:(?:.*_)?(?:DATABASE|DB|REDIS|MONGO(?:DB)?|AMQP|RABBITMQ|POSTGRES(?:QL)?|PG|MYSQL)_(?:URL|URI))"
    r"|(?:IDENTITY_HEADER)"  # Azure's managed identity: the header that unlocks its token endpoint
)
"""`is_secret_name` as a regular expression: a full, case-insensitive match means "secret"."""

_SECRET_NAME = re.compile(SECRET_NAME_PATTERN, re.IGNORECASE | re.DOTALL)


def is_secret_name(name: str) -> bool:
    """True for variable names that look like they hold a key, token or password."""
    return _SECRET_NAME.fullmatch(name) is not None


_DECLARED: set[str] = set()


def declare_secret_variable(name: str | None) -> None:
    """Treat the variable `name` as a secret from now on in this process, whatever its name looks like (the
    provider's key variable): no command sees it, and its value is redacted everywhere."""
    if name and name.strip():
        _DECLARED.add(name.strip())


def declared_secret_variables() -> frozenset[str]:
    """The variables declared with `declare_secret_variable`."""
    return frozenset(_DECLARED)


def is_hidden_variable(name: str) -> bool:
    """True for variables no command may see: secret-looking names and declared key variables."""
    return name in _DECLARED or is_secret_name(name)


#: Values shorter than this are not redacted: one to three characters (`1`, `on`, `dev`) occur everywhere
#: in ordinary output, so replacing them would garble observations without protecting anything real.
MIN_SECRET_LENGTH = 4

#: Values that are settings, not secrets, even under a secret-looking name (`AUTH_ENABLED=true`).
_HARMLESS_VALUES = frozenset(
    {"true", "false", "yes", "no", "none", "null", "nil", "on", "off", "enabled", "disabled"}
    | {"auto", "default"}
)

_PROXY_PASSWORD = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?[^/@:\s]*:(?P<password>[^/@\s]+)@", re.IGNORECASE)

REDACTED = "[REDACTED]"

_SHAPE_MIN = 16
"""Characters a credential written in a telltale place must have before it is hidden: tokens are long, while
the passwords of test fixtures (`postgres://postgres:postgres@localhost`, `Basic dXNlcjpwYXNz`) are short and
stay readable, so the model can still edit the files that hold them."""
_URL_CREDENTIAL = re.compile(
    # the password in a URL (`https://x-access-token:ghs_…@github.com`), or a token as its user
    rf"://(?:(?P<user>[^/\s:@]*:)[^/\s@'\"]{{{_SHAPE_MIN},}}|[A-Za-z0-9_-]{{30,}})(?=@)"
)
_HEADER_CREDENTIAL = re.compile(
    # an HTTP credential as git keeps it for a CI checkout (`extraheader = AUTHORIZATION: basic …`)
    rf"(?P<scheme>authorization:[ \t]*(?:basic|bearer|token)[ \t]+)[A-Za-z0-9+/._~-]{{{_SHAPE_MIN},}}=*",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"g(?:h[opusr]_[A-Za-z0-9]{36,}|ithub_pat_[A-Za-z0-9_]{22,}|lpat-[A-Za-z0-9_-]{20})")
"""The token formats of GitHub and GitLab, wherever they stand (written as one literal first letter, which
`re` finds fast)."""


def _hide_credentials(text: str) -> tuple[str, int]:
    """Credentials recognised by where they stand rather than by a variable's value: what a clone or
    checkout leaves in `.git/config` or a remote's URL (`cat .git/config`, `git remote -v`) holds a token
    no variable of this process may hold. (A pattern runs only where its literal occurs: outputs are large,
    and most hold none.)"""
    count = 0
    if "://" in text:
        text, n = _URL_CREDENTIAL.subn(lambda m: "://" + (m.group("user") or "") + REDACTED, text)
        count += n
    if "uthorization" in text or "UTHORIZATION" in text:
        text, n = _HEADER_CREDENTIAL.subn(lambda m: m.group("scheme") + REDACTED, text)
        count += n
    text, n = _TOKEN.subn(REDACTED, text)
    return text, count + n


def secret_values(environ: Mapping[str, str], extra_names: Iterable[str] = ()) -> list[str]:
    """The values to hide: every secret-looking variable, the names in `extra_names` (e.g. the provider's
    key variable), and passwords inside proxy URLs; longest first so overlapping values are hidden whole."""
    extra = set(extra_names)
    found: set[str] = set()
    for name, value in environ.items():
        if name.casefold().endswith("_proxy"):
            match = _PROXY_PASSWORD.match(value.strip())
            if match:
                found.add(urllib.parse.unquote(match.group("password")))
                found.add(match.group("password"))
            continue
        if name in extra or is_secret_name(name):
            found.add(value.strip())
            found.add(value)
    usable = {v for v in found if len(v) >= MIN_SECRET_LENGTH and v.casefold() not in _HARMLESS_VALUES}
    return sorted(usable, key=len, reverse=True)


def _encodings(value: str) -> set[str]:
    """Common ways a value shows up in output besides verbatim: URL-encoded and base64 (as in `user:key`)."""
    forms = {urllib.parse.quote(value, safe=""), urllib.parse.quote_plus(value)}
    raw = value.encode("utf-8", "surrogatepass")
    if len(raw) >= 8:
        forms.add(base64.b64encode(raw).decode("ascii").rstrip("="))
    forms.discard(value)
    return {form for form in forms if len(form) >= MIN_SECRET_LENGTH}


class Redactor:
    """Replaces secret values — verbatim, URL-encoded or base64 — and credentials in telltale places (an
    `Authorization` header, a URL's password, GitHub and GitLab tokens) in text, and counts what it replaced.

    One instance serves the observation boundary (before anything reaches the model, the screen, the memory
    file or the audit log) and the memory writer.
    """

    def __init__(self, environ: Mapping[str, str] | None = None, extra_names: Iterable[str] = ()) -> None:
        self.names = frozenset(extra_names) | declared_secret_variables()
        """The variables redacted besides the secret-looking ones."""
        values = secret_values(os.environ if environ is None else environ, self.names)
        forms = set(values)
        for value in values:
            forms |= _encodings(value)
        self._forms = sorted(forms, key=len, reverse=True)
        self._pattern = re.compile("|".join(re.escape(f) for f in self._forms)) if self._forms else None

    def redact(self, text: str) -> tuple[str, int]:
        """`text` with every secret replaced by `[REDACTED]`, and how many replacements were made."""
        if not text:
            return text, 0
        count = 0
        if self._pattern is not None:
            text, count = self._pattern.subn(REDACTED, text)
        text, shapes = _hide_credentials(text)
        return text, count + shapes

    def __call__(self, text: str) -> str:
        return self.redact(text)[0]


_shared: Redactor | None = None


def shared_redactor() -> Redactor:
    """One `Redactor` for this process's environment, rebuilt when a key variable is declared later."""
    global _shared
    if _shared is None or _shared.names != declared_secret_variables():
        _shared = Redactor()
    return _shared
