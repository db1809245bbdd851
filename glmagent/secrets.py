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
"""

from __future__ import annotations

import re

_STRONG = (
    r"(?:[a-z]*(?:secret|password|passwd|passphrase|credential|cookie|webhook)s?"
    r"|[a-z]*(?:token|apikey|accesskey|secretkey|privatekey|authkey|masterkey|signingkey|clientsecret)"
    r"|creds?|auth|oauth|bearer|sessionid|jwt|otp|totp|mfa|dsn|privkey|keyfile|keystore|keychain|keyring"
    r"|private|pem|pfx|connectionstring|connstr|hmac|salt)"
)
"""Words that name a secret on their own; `[a-z]*` lets `GITHUBTOKEN` or `APIKEY` end in one."""

_WEAK = r"(?:keys?|pass|pwd|pat|pw)"
"""Words with everyday meanings too: a secret only as one part of a longer name (`API_KEY`, `DB_PASS`)."""

_SEP = r"[_\-.\d]"
# Where a part starts and ends: the name's edge, a separator or digit, or a camelCase hump. The humps are
# case-sensitive even though the pattern as a whole ignores case.
_HUMP = r"(?<=(?-i:[a-z]))(?=(?-i:[A-Z]))|(?<=(?-i:[A-Z]))(?=(?-i:[A-Z][a-z]))"
_START = rf"(?:(?<={_SEP})|{_HUMP})"
_END = rf"(?:$|(?={_SEP})|{_HUMP})"

SECRET_NAME_PATTERN = (
    rf"(?:(?:.*?{_START})?{_STRONG}{_END}.*)"  # a secret word anywhere
    rf"|(?:.*?[^\W_].*?{_START}{_WEAK}{_END}.*)"  # a short word after another part: API_KEY, dbPass
    rf"|(?:{_WEAK}{_END}.*[^\W\d_].*)"  # a short word before another part: KEY_FILE, passWord
    r"|(?:(?:.*_)?(?:DATABASE|DB|REDIS|MONGO(?:DB)?|AMQP|RABBITMQ|POSTGRES(?:QL)?|PG|MYSQL)_(?:URL|URI))"
)
"""`is_secret_name` as a regular expression: a full, case-insensitive match means "secret"."""

_SECRET_NAME = re.compile(SECRET_NAME_PATTERN, re.IGNORECASE | re.DOTALL)


def is_secret_name(name: str) -> bool:
    """True for variable names that look like they hold a key, token or password."""
    return _SECRET_NAME.fullmatch(name) is not None
