"""Words that point where the policy cannot look: another machine (a URL, a UNC path, an scp-style
`user@host:path`, a `host:port`, a login at a host: `user@10.0.0.1`, `corp/user:password@dc01.corp.local`, an
IP address, the value of an option that names a machine: `-ComputerName dc01`, `--dc-ip 10.0.0.1`,
`/node:srv`, `--host db.corp.local`) or an NTFS alternate data stream (`notes.txt:evil.exe`).

A program the policy knows nothing about may still reach the network: `restic -r rest:http://…`,
`certutil -URL http://…`, `msxsl http://…/x.xsl`, `sqlcmd -i https://…`, `plink host:22`. What gives it
away is an argument naming another machine. Each kind is read from one word (a word holding blanks is a
message or a script, never a locator), anywhere after an option prefix such as `--url=`, `/format:` or
`rest:`, so that `TRANSFORMS=http://…` and `/i:http://…` count too.

Every expression here is searched, never backtracked over a whole word: a locator starts at the start of
the word or right after a separator, and the runs it is made of are matched possessively, so a 100 kB word
costs one pass per kind of locator whose needle it holds (`_NEEDLES`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ._lazy import compile_once, lazy_re
from ._syntax import Arg

_AFTER_SEPARATOR = r"(?:^|(?<=[=:,@/\\(\"']))"
"""Where a locator may start: the word's start, or after an option name and `=` or `:`, a quote, a slash."""

_NOT_AFTER_DRIVE = r"(?<!^[A-Za-z]:)(?<!^[\"'][A-Za-z]:)"
"""Not right after a drive letter that starts the word (`D:`, `"D:`), which Windows reads as a folder."""

_TOP_LEVEL = (
    "com|net|org|io|dev|app|ai|co|me|us|uk|de|fr|nl|ru|cn|jp|info|biz|xyz|cloud|example|test|local|"
    "localhost|internal|lan|corp|home|arpa|onion|edu|gov|mil|site|online|tech|ly|gl|gg|to|tv|ca|au|eu|"
    "ch|se|no|fi|pl|br|es|it|kr|tw|hk|sg|za|nz|ie|at|be|dk|cz|pt|gr|tr|il|ir|mx|ar|cl|vn|th|id|ph|ua|kz|ws|"
    "su|pw|top|live|link|news|space|website|store|shop|network|systems|services|host|server|"
    "pro|name|mobi|club|vip|icu|cyou|buzz|fun|work|zone|world|today|ovh|tk|ga|gq|cf|ninja|rocks|is|im|fm|"
    "nu|lol|tel|asia|one|wiki|page|digital|email|lat|ro|hu|sk|bg|lt|lv|ee|by|ge|az|uz|kg|pk|bd"
)
"""Endings of host names. File extensions that are also country codes (`.py`, `.rs`, `.sh`, `.md`, `.cc`,
`.am`, `.in`…) are left out where a file name is far likelier (`setup.py:12`, `src/x.cc:42` and
`README.md:12` are lines, `--target README.md` a file, not hosts); `.pl` stays: Perl scripts are rarely
given with a line number."""

# Labels may hold `_` (`attacker_c2.example.com`): DNS forbids it in host names, but resolvers and the
# tools that take a `host:port` accept it.
_PLACEHOLDER_LABEL = r"\{[A-Za-z_][\w-]*+\}|<[A-Za-z_][\w-]*+>|\[[A-Za-z_][\w-]*+\]"
"""A host name's label written as a reference's placeholder (`{server}.database.windows.net`,
`<tenant>.example.com`): the rest of the name says the machine is another one whatever fills it in."""
_ATTACKER_HOST = (
    r"(?i:(?:attacker|attacking|attack|kali|lhost|rhost|vps|c2|evil|listener|tun0|attackbox)"
    r"(?:[_-]?(?:ip|host|server|box|machine|addr|address|vm))?"
    r"|(?:your|my)[_-]?(?:ip|host|server|machine|addr|address|vps|kali|box))"
)
"""A one-label host that a write-up puts for the attacker's own machine (`kali_ip:11601`, `ATTACKER:8080`,
`lhost:443`, `your_ip:4444`): whatever fills it in is another machine. Everyday one-label names (`redis:6379`,
`db:5432`, `app:8000`) name a container or service and stay no locator."""
_HOST = (
    r"(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9A-Fa-f:.]++\]"
    rf"|(?:(?:[A-Za-z0-9_-]++|{_PLACEHOLDER_LABEL})\.)++(?:{_TOP_LEVEL})|{_ATTACKER_HOST})"
)

_PATTERNS = {
    # A scheme starts where no scheme character precedes it (`rest:http://`, `/zhttp://`, `git+https://`).
    "url": r"(?<![A-Za-z0-9+.-])(?!(?:{local})://)[A-Za-z][A-Za-z0-9+.-]*+://",
    # (not after a drive at the word's start: `D:\\src\\x` is a folder with its separator doubled)
    "unc": rf"{_AFTER_SEPARATOR}{_NOT_AFTER_DRIVE}\\\\(?![.?]\\)[A-Za-z0-9_$-][^\\/\s]*+[\\/][^\\/\s]",
    # `user@host:path`; a one-label name followed by a bare version (`node@runtime:26.7.0`, `pkg@tag:1.2`) is
    # a package specification, not a copy to a machine.
    "scp": rf"{_AFTER_SEPARATOR}(?<![A-Za-z0-9_.+-])[A-Za-z0-9_.+-]++@"
    r"(?:[A-Za-z0-9][A-Za-z0-9-]*+:(?!//|\d++(?:\.\d++)++(?![\w/.-]))|[A-Za-z0-9][A-Za-z0-9-]*+\.[A-Za-z0-9.-]*+:(?!//))",
    "host-port": rf"{_AFTER_SEPARATOR}{_HOST}:\d{{1,5}}(?:[/?#]\S*+)?$",
}
_WINDOWS_UNC = (
    rf"(?:(?<=[Ff][Ii][Ll][Ee]:)|{_AFTER_SEPARATOR}(?<![A-Za-z0-9+.-]:))"
    r"//(?![.?]/)[A-Za-z0-9_$-][^\\/\s:*?\[\]()=<>|\"]*+/[^\\/\s]"
)
"""PowerShell and Windows programs also take `//server/share` (kind `unc-slash`); on POSIX `//etc` is just
`/etc`. A server's name holds no `:`, `[`, `(` or `=`: `//t:Counters/x` and `//book[@id]/x` are XPath. After a
scheme (`https://host/x`) it is a URL, found as one (a site's own address given to a naming option is
none), except after `file:`, which names the share itself."""

_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_ADDRESS_IN_WORD = lazy_re(rf"{_AFTER_SEPARATOR}({_OCTET}(?:\.{_OCTET}){{3}})(?![\w.])")
"""An IPv4 address at the start of a word or after a separator (`--dc-ip=10.0.0.1`, `/dc:10.0.0.1`), ending
where the word or a `:port`, `/prefix` or list goes on."""
_LOCAL_ADDRESS = lazy_re(r"127\.|0\.0\.0\.0$|255\.")
"""Loopback, the unspecified address (`--host 0.0.0.0` binds this machine) and netmasks."""
_VERSION = lazy_re(r"version", re.IGNORECASE)
_RANGE = lazy_re(r"/(?:[12]?\d|3[01])(?![\w.])")
"""`/16` after an address: a network range, not a machine (`/32` is one machine)."""
_LOCAL_HOST_NAMES = frozenset(
    {
        "localhost",
        ".",
        "::1",
        "[::1]",
        "::",
        "[::]",
        "%computername%",
        "ip6-localhost",
        "(local)",
        "(localdb)",
    },
)
_SQL_PROTOCOL = lazy_re(r"^(?:tcp|np|lpc|admin):")
_HOST_WORD = lazy_re(
    rf"(?:\\\\)?(?:{_OCTET}(?:\.{_OCTET}){{3}}|\[[0-9A-Fa-f:.]++\]"
    rf"|(?:(?:[A-Za-z0-9-]++|{_PLACEHOLDER_LABEL})\.)++(?:{_TOP_LEVEL}))"
    r"(?::\d{1,5})?\.?",
    re.IGNORECASE,
)
"""A value that can only be a host: an address, or a name ending in a top-level domain (`dc01.corp.local`)."""
_UNC_HOST = lazy_re(r"\\\\[A-Za-z0-9][A-Za-z0-9_.$-]*+\\?")
"""`\\\\W10.corp.local`, `\\\\srv`: a machine named the Windows way, without a share."""

_BLANK = lazy_re(r"\s")
_ADDRESS = lazy_re(r"(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]++\])(?:[:/]\S*+)?")
_AT_ADDRESS = lazy_re(r"@[\d\[]")
"""Without `:` (a password, a port, a scheme), only `user@ADDRESS` can name another machine."""
_HOST_NAME = lazy_re(rf"{_HOST}(?:[:/]\S*+)?", re.IGNORECASE)
_DOMAIN_LOGIN = lazy_re(r"[\w.-]+/[^/:@\s]+:(?!\d+$)[^@\s]+")
"""`corp/alice:Passw0rd`: a domain, an account and its password (not `src/a.py:12`, a file and a line)."""
_BARE_HOST = lazy_re(r"[A-Za-z0-9][\w.-]*+")
_OPTION_KEY = lazy_re(r"[^=:]*")
"""The name of an option given its value in the same word (`--baseURL=URL`, Nim's `--git.url:URL`)."""
_MSBUILD_PROPERTY = lazy_re(r"[-/](?:p|property):(\w+)=[^;,]*+$", re.IGNORECASE)
"""One MSBuild property set on the command line (`/p:RepositoryUrl=…`, `-property:PackageProjectUrl=…`)."""
_PLAIN_LOGIN = lazy_re(r"[\w$][\w.$-]*+:[^/@\s:]++")
"""`Administrator:Passw0rd`: an account and its password with no domain (no `/`, no leading `-`)."""
_CASED_OR_DIGIT = lazy_re(r"[A-Z0-9]")
_NAMED_HOST = lazy_re(r"[A-Za-z][\w-]*+")
_RELEASE_TAGS = frozenset(
    {"latest", "next", "beta", "alpha", "canary", "stable", "main", "master", "dev", "rc", "nightly", "lts",
     "head", "edge", "preview", "experimental", "insiders", "release"}
)  # fmt: skip
"""Words after `@` that name a release of a package, not a machine (`app.py:12@main`, `npm:pkg@latest`)."""
_MACHINE_VARIABLE = lazy_re(
    r"\$(?:env:)?\{?(?=[A-Za-z0-9])(?:(?:[A-Za-z0-9]++_)++(?:HOST|HOSTNAME|K?DC)"
    r"|(?:[A-Za-z0-9]++_)*+(?:IP|IPS|IPV4|IPV6|IPADDR|FQDN|URL|URLS|URI|ENDPOINT|SERVER|SERVERS|RHOST"
    r"|RHOSTS|LHOST|ATTACKER|VICTIM|DOMAINCONTROLLER|DOMAIN_CONTROLLER"
    r"|(?:API|DB|TARGET|REMOTE|SERVER|MASTER|PROXY|KUBE|K8S)(?:SERVER|HOST|HOSTNAME|IP|URL|ADDR))|K?DC(?=_))"
    r"(?:_(?:NAME|HOST|HOSTNAME|IP|IPS|ADDR|ADDRESS|FQDN|PORT|URL|URI|[0-9]++))*+\}?(?![A-Za-z0-9_])"
    r"(?!:?[-=](?:true|false|on|off|yes|no|[0-9]++)\})",
    re.IGNORECASE,
)
"""A variable whose name says it holds another machine: `$TARGET_IP`, `${DC_HOST}`, `$DC_NAME`, `$URL`,
`$env:API_URL`, and a few such words run together (`$APISERVER`, `${DBHOST}`, `$TARGETIP`; not any name
ending in one, as `$CURL` and `$SHIP` do). A shell's own `$HOST`/`$HOSTNAME` name this machine, a bare
`$TARGET` is as often a build target, and a bare `$dc` as often anything else; a name going on to say what
else it holds (`$dc_output_file`, `$URL_PREFIX`, `$SERVER_LOG_DIR`) is no machine, and neither is one whose
default is a switch's or a number (`${BUILD_SERVER:-TRUE}`, `${USE_URL:-0}`: a flag named after what it
builds)."""
_MACHINE_VARIABLE_PARTS = (
    "host", "dc", "ip", "fqdn", "url", "uri", "endpoint", "server", "attacker", "victim", "domain", "addr",
)  # fmt: skip
"""A piece of every name `_MACHINE_VARIABLE` matches (lower case)."""


def _names_login(word: str) -> bool:
    """A login at another machine: `user@ADDRESS`, or `[domain/]user:password@HOST` (a password before the
    last `@`). An e-mail address (`dev@example.com`) is neither."""
    user, _, host = word.rpartition("@")
    if not user or not host:
        return False
    user = user.lstrip("'\"")
    host = host.rstrip("'\"")
    if _ADDRESS.fullmatch(host) is not None:
        return True
    if ":" not in user:
        return False
    # `domain/user:password@TARGET` names a domain account and its password: the host is another machine
    # whatever it is called (`dc01`, `target_dc_ip`), while a package or image reference puts its `:` first
    # (`pkg:npm/x@1.0`) or after the `@` (`img:tag@sha256:…`), and a release names no machine (`@latest`).
    if _HOST_NAME.fullmatch(host) is not None:
        return True
    if _DOMAIN_LOGIN.fullmatch(user) is not None:
        return _BARE_HOST.fullmatch(host) is not None
    # `Administrator:Passw0rd@targetMachine`: a password for an account at a machine named by one label.
    # Maven's `plugin:goal@execution` (`exec:java@run`, `animal-sniffer:check@check-android`) has the same
    # shape, written in lower case without digits, as a login seldom is.
    return (
        _PLAIN_LOGIN.fullmatch(user) is not None
        and _NAMED_HOST.fullmatch(host) is not None
        and host.lower() not in _RELEASE_TAGS
        and _CASED_OR_DIGIT.search(word) is not None
    )


_NOT_IN_NAMES = lazy_re(r'["<>|?*]')
"""Characters Windows refuses in a file or stream name."""


def _names_stream(word: str) -> bool:
    """Does the last part of a path name a stream: a file name with an extension (or a folder named by dots
    alone, `.:x.exe`), `:`, and a stream name that is no line number (`app.py:12`)? A second colon
    (`Registry::HKLM`, `test_x.py::test_y`) makes it something else, and so does a character no Windows name
    may hold (`"`, `<`, `>`, `|`, `?`, `*`): JSON text (`{"path":".\\x.dll","v":"1.3"}`) is no path."""
    last = word[max(word.rfind("/"), word.rfind("\\")) + 1 :]
    name, _, stream = last.partition(":")
    return (
        bool(stream)
        and ":" not in stream
        and not stream[0].isdigit()
        and bool(name)
        and ("." in name.strip(".") or not name.strip("."))
        and _NOT_IN_NAMES.search(last) is None
    )


def names_address(word: str) -> bool:
    """Does a blank-free word hold an IP address of another machine? Loopback, `0.0.0.0`, netmasks, a network
    (`10.0.0.0`, a range `172.28.0.0/16`) and a dotted version (`1.0.0.0`, `/p:Version=1.2.3.4`,
    `AssemblyVersion=2.1.0.7`) are not one."""
    for m in _ADDRESS_IN_WORD.finditer(word):
        address = m.group(1)
        if (
            _LOCAL_ADDRESS.match(address) is None
            and not address.endswith(".0")
            and _RANGE.match(word, m.end()) is None
            and _VERSION.search(word, 0, m.start()) is None
        ):
            return True
    return False


def is_local_host(value: str) -> bool:
    """A value naming this machine: `localhost`, loopback, the unspecified address, `.`."""
    v = value.strip("\"'").lower().rstrip("\\")
    if v.startswith("\\\\"):
        v = v[2:]
    # SQL Server's spellings of a server: `tcp:host,1433`, `host\\INSTANCE`, `(local)`, `(localdb)\\name`.
    v = _SQL_PROTOCOL.sub("", v).split("\\", 1)[0].split(",", 1)[0]
    host = v.rsplit(":", 1)[0] if v.count(":") == 1 else v
    return host in _LOCAL_HOST_NAMES or _LOCAL_ADDRESS.match(host) is not None


_SERVICE_URL = lazy_re(
    r"(?:-{0,2}[\w.-]*+=)?(?:jdbc:|r2dbc:)?([A-Za-z][A-Za-z0-9.-]*+)(?:\+[\w-]++)?://"
    r"(?:[^\s/@]*+@)?(\[[0-9A-Fa-f:.]++\]|[^\s/:?#@\[\],;]++)(?::\d{1,5})?(?:[/?#;]\S*+)?"
)
"""A server's URL, after an option's `name=` (`-Dflyway.url=jdbc:postgresql://localhost:5432/app`): the
scheme (without a driver's `+asyncpg`), then the host after any login."""
_SERVICE_NAME = lazy_re(r"[a-z][a-z_-]*+")
"""A one-label host in lower case without digits: a service's name on a CI or compose network (`postgres`,
`db`, `redis`), as `psql -h postgres` names one."""


_ORACLE_THIN = lazy_re(
    r"(?:-{0,2}[\w.-]*+=)?jdbc:oracle:thin:(?:[\w$-]*+/[^\s@/]*+)?@(?://)?([^\s/:?#@\[\],;]++)(?::\d{1,5})?"
    r"(?:[/:][\w.$-]*+)?",
    re.IGNORECASE,
)
"""Oracle's thin driver's URL, `jdbc:oracle:thin:@HOST:PORT:SID` or `…:@//HOST:PORT/SERVICE`, with an
optional `user/password` before the `@`."""


def names_local_service(word: str, schemes: frozenset[str]) -> bool:
    """Is `word` one URL of a server whose scheme is in `schemes` (a database's: `postgres://`,
    `jdbc:mysql://`, Oracle's `jdbc:oracle:thin:@localhost:1521:XE`) at this machine or at a service's
    one-label name (`postgresql://u:pw@127.0.0.1:5432/app`, `mysql://root@db:3306/x`)? Any other host, a
    second URL or a second login is not."""
    if "oracle" in schemes and (m := _ORACLE_THIN.fullmatch(word)) is not None:
        return is_local_host(m.group(1)) or _SERVICE_NAME.fullmatch(m.group(1)) is not None
    if word.count("://") != 1 or word.count("@") > 1:
        return False
    m = _SERVICE_URL.fullmatch(word)
    if m is None or m.group(1).lower() not in schemes:
        return False
    host = m.group(2)
    return is_local_host(host) or _SERVICE_NAME.fullmatch(host) is not None


_CONNECTION_HOST = lazy_re(
    r"(?:^|[;\s:])\s*+(?:server|data\s*+source|host|hostname|hostaddr|address|addr|network\s*+address)"
    r"\s*+=\s*+([^;\s]++)",
    re.IGNORECASE,
)
"""A server named in a keyword connection string: ADO.NET's and ODBC's `Server=`, `Data Source=`, `Host=`
(pairs cut by `;`) and libpq's `host=`, `hostaddr=` (pairs cut by blanks)."""
_CONNECTION_KEY = lazy_re(
    r"(?:^|[;\s])\s*+(?:database|initial\s*+catalog|dbname|user\s*+id|uid|user(?:name)?|password|pwd|port"
    r"|integrated\s*+security|trusted_connection|encrypt|ssl\s*+mode|sslmode|driver|authentication)\s*+=",
    re.IGNORECASE,
)
"""Another key of a connection string: a lone `host=x` is an option's value, not a connection."""
_CONNECTION_SCREEN = lazy_re(r"(?:server|source|host|hostaddr|addr|address)\s*+=", re.IGNORECASE)
_CONNECTION_STEMS = ("server", "source", "host", "addr")
"""What every key `_CONNECTION_SCREEN` finds holds."""
_RUN_TIME_LABEL = lazy_re(r"\$\{?\w++\}?")


def names_connection_host(word: str) -> bool:
    """Does `word` hold a keyword connection string whose server is another machine
    (`Server=tcp:db.example.com,1433;Database=app`, `Host=ep-x.neon.tech;Database=app`, `host=10.0.0.5
    dbname=app`, `host=$DB_HOST dbname=app`)? This machine (`Server=localhost`, `(localdb)\\x`,
    `.\\SQLEXPRESS`, `host=/var/run/postgresql`), a service's one-label name (`Server=mssql,1433`,
    `Host=postgres`) and a database file (`Data Source=app.db`) are not; a host is one only when it can be
    nothing else, as a `host` option's value."""
    if "=" not in word or _CONNECTION_KEY.search(word) is None:
        return False
    for m in _CONNECTION_HOST.finditer(word):
        host = m.group(1).strip("\"'")
        if not host or is_local_host(host):
            continue
        bare = _SQL_PROTOCOL.sub("", host.lower()).split("\\", 1)[0].split(",", 1)[0]
        if "$" in bare:
            if _may_name_machine_variable(bare):
                return True  # `host=$DB_HOST`: named for a machine
            bare = _RUN_TIME_LABEL.sub("x", bare)  # `Server=tcp:$NAME.database.windows.net`
        if _HOST_WORD.fullmatch(bare) is not None:
            return True
    return False


_SERVER_ADDRESS = lazy_re(
    r"(?:[A-Za-z][A-Za-z0-9+.-]*+://|tcp:)?(\[[0-9A-Fa-f:.]++\]|[^\s/:?#@\[\]\\]++)(?::\d{1,5})?(?:[/?#]\S*+)?"
)
"""A server's address: an optional scheme (`http-get://`, wait-on's `tcp:`), a host, a port, a path."""


def names_this_machine(word: str) -> bool:
    """Does a word name only a server on this machine (`http://localhost:3000/x`, `tcp:127.0.0.1:5000`,
    `http://[::1]:8080`)? A login (`user@host`) or any other host does not."""
    m = _SERVER_ADDRESS.fullmatch(word)
    return m is not None and is_local_host(m.group(1))


_FILE_LIKE = lazy_re(r"[/\\]|\.\w+$")
"""A word that reads as a path or a file name (`data/x.bz2`, `x.gz`)."""


class MachineOptions:
    """Options whose value names another machine, whatever the program.

    - `machine` options (`--dc-ip`, `-ComputerName`, `-rhost`) name one with any value but this machine's own
      (a number is a count, not a machine); a value known only at run time counts.
    - `host` options (`--host`, `--server`, `--domain`) only with a value that can be nothing but a host: an
      address or a name with a top-level domain (`--host db.corp.local`, never `--target x86_64-linux-gnu`).
    - `parameters` hold a machine or a connection to one, like `machine` options, but only written their
      own way: `-CimSession $s` as a PowerShell parameter, `/node:srv` as a Windows switch (the entry's
      first character says which). A build script's `-Node 18` is neither.
    """

    __slots__ = ("_screen", "host", "machine", "parameters", "switches")

    def __init__(
        self, machine: Iterable[str], host: Iterable[str], parameters: Iterable[str], windows: bool
    ) -> None:
        self.machine = frozenset(n.lower().lstrip("-/") for n in machine)
        self.host = frozenset(n.lower().lstrip("-/") for n in host)
        parameters = [n.lower() for n in parameters] if windows else []
        self.parameters = frozenset(n.lstrip("-") for n in parameters if n[:1] == "-")
        self.switches = frozenset(n.lstrip("/") for n in parameters if n[:1] == "/")
        """Windows switches (`/node:srv`, `/S srv`): not on POSIX, where `/node` is a path."""
        dashed = "|".join(
            re.escape(n) for n in sorted(self.machine | self.host | self.parameters, key=len)[::-1]
        )
        slashed = "|".join(re.escape(n) for n in sorted(self.switches, key=len)[::-1])
        alternatives = [f"--?(?:{dashed})" if dashed else "", f"/(?:{slashed})" if slashed else ""]
        body = "|".join(a for a in alternatives if a) or "(?!)"
        self._screen = compile_once(rf"^(?:{body})(?:[=:]|$)", re.IGNORECASE | re.MULTILINE)
        """One search over the words joined by newlines finds any of the options, as `_name` reads them."""

    def __bool__(self) -> bool:
        return bool(self.machine or self.host or self.parameters or self.switches)

    def screen(self, texts: str) -> bool:
        """Could one of the words (joined by newlines) be one of these options? Linear in the words."""
        if "-" not in texts and not (self.switches and "/" in texts):
            return False
        return self._screen.search(texts) is not None

    def _name(self, word: str) -> tuple[str, str | None] | None:
        """(option name, attached value or None) when `word` is written as an option."""
        if word[:1] == "-":
            body = word[2:] if word[:2] == "--" else word[1:]
        elif word[:1] == "/" and self.switches:
            body = word[1:]
        else:
            return None
        cut = min((i for i in (body.find("="), body.find(":")) if i >= 0), default=-1)
        if cut >= 0:
            return body[:cut].lower(), body[cut + 1 :]
        return body.lower(), None

    def hit(self, texts: list[str], params: list[bool], dyn: str) -> str | None:
        """The first `option value` naming another machine among a command's words (texts, with `dyn` where
        a run-time part sits; `params`: which words are PowerShell parameters), or None."""
        n = len(texts)
        for i, word in enumerate(texts):
            if not word or word[:1] == dyn:
                continue
            named = self._name(word)
            if named is None:
                continue
            name, value = named
            # `-dc` may also be a cluster of one-letter flags before a file (`bzip2 -dc data/x.bz2`): a value
            # that reads as a path or a file name, and not as a host, is that file.
            if (
                word[0] == "-"
                and word[1:2] != "-"
                and len(name) <= 2
                and value is None
                and not params[i]
                and i + 1 < n
                and _FILE_LIKE.search(texts[i + 1])
                and _HOST_WORD.fullmatch(texts[i + 1]) is None
            ):
                continue
            if word[0] == "/":
                strong = name in self.switches
            else:
                # PowerShell binds a parameter written with one dash: `--session` is a native program's
                # option (`nox --session tests`), never `-Session`.
                strong = name in self.machine or (params[i] and word[1:2] != "-" and name in self.parameters)
            if not strong and (word[0] == "/" or name not in self.host):
                continue
            shown = word
            if value is None:
                if i + 1 >= n:
                    continue
                value = texts[i + 1]
                if value[:1] == "-" or (self.switches and value[:1] == "/" and len(value) < 4):
                    continue  # another option: this one took no value (`vite --host --port 3000`)
                shown = f"{word} {value}"
            if not value or value.isdigit():
                continue
            if dyn in value:
                if strong:
                    return shown.replace(dyn, "$…")
                continue
            if len(value) <= 2 and not value.isalnum():
                continue  # a separator (`sqlcmd -s ,`, `-s "\\t"`): no machine
            if is_local_host(value):
                continue
            if strong or _HOST_WORD.fullmatch(value) is not None or _UNC_HOST.fullmatch(value) is not None:
                return shown
        return None


_SPACED_PLACEHOLDER = lazy_re(r"<[A-Za-z_][\w-]*(?: [\w-]+){1,3}>")
"""A reference's placeholder of a few words (`<your cluster>`)."""


class LocatorMatcher:
    """Does one blank-free word hold a locator of the given kinds? (`match`, like a compiled pattern's.)
    `options` finds option values that name a machine among a command's words."""

    __slots__ = (
        "address", "connection", "local", "login", "machine", "naming", "only", "options", "services",
        "stream", "unc_host", "variable",
    )  # fmt: skip

    def __init__(
        self,
        machine: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...],
        stream: bool,
        login: bool = False,
        address: bool = False,
        unc_host: bool = False,
        options: MachineOptions | None = None,
        variable: bool = False,
        connection: bool = False,
    ) -> None:
        self.machine = machine
        self.connection = connection
        """Also a keyword connection string naming another machine's server (`Server=db.example.com;…`)."""
        """(needle, expression) per kind of locator: a word holds one when it holds the needle and the
        expression finds it."""
        self.variable = variable
        """Also a run-time word whose variable names a machine (`$DC_IP`), in its raw spelling."""
        self.stream = stream
        self.login = login
        self.address = address
        self.unc_host = unc_host
        self.options = options if options else None
        self.only: frozenset[str] = frozenset()
        """The programs this matcher is for (`sqlcmd -S`); empty: any program."""
        self.naming: frozenset[str] = frozenset()
        """Lower-case long options whose value only names an address (`--baseurl`): no machine to reach."""
        self.local: frozenset[str] = frozenset()
        """Programs to which an address of this machine is no other machine (`wait-on http://localhost`)."""
        self.services: frozenset[str] = frozenset()
        """Lower-case schemes of servers (`postgres`, `mysql`) whose URL at this machine or at a service's
        one-label name names no other machine (`postgres://localhost:5432/app`, `redis://redis:6379`)."""

    def names_only(self, args: list[Arg], i: int, program: str) -> bool:
        """Is `args[i]` the value of a `naming` option (`--baseURL URL`, `--baseURL=URL`), of any program
        or of `program` (`hugo -b URL`)?"""
        if not self.naming:
            return False
        t = args[i].text
        if t[:2] == "--" and ("=" in t or ":" in t):
            # `--baseURL=URL`, and Nim's `--git.url:URL`
            return self._naming(_OPTION_KEY.match(t)[0].lower(), program)  # type: ignore[index]
        if t[:1] in "-/" and (prop := _MSBUILD_PROPERTY.match(t)) is not None:
            return prop.group(1).lower() in self.naming  # `/p:RepositoryUrl=URL`: the package's metadata
        return i > 0 and self._naming(args[i - 1].text.lower(), program)

    def this_machine(self, word: str, names: Iterable[str]) -> bool:
        """Is `word` an address of this machine given to a `local` program, one that only waits for a
        server to answer (`wait-on http://localhost:3000`, `start-server-and-test dev http://127.0.0.1:3000
        test`)?"""
        return bool(self.local) and not self.local.isdisjoint(names) and names_this_machine(word)

    def local_service(self, word: str) -> bool:
        """Is `word` a URL of a server of a `services` scheme on this machine or a service's network?"""
        if not self.services or ("://" not in word and "@" not in word):
            return False  # (Oracle's thin URL has no `://`: `jdbc:oracle:thin:@localhost:1521:XE`)
        return names_local_service(word, self.services)

    def _naming(self, option: str, program: str) -> bool:
        return option in self.naming or f"{program} {option}" in self.naming

    def match(self, word: str) -> bool:
        if not word:
            return False
        if self.connection and "=" in word and names_connection_host(word):
            return True
        if _BLANK.search(word) is not None:
            if "<" not in word:
                return False
            # `mongodb+srv://<your username>:<pw>@<your cluster>.mongodb.net`: a reference's placeholders
            # of several words are one value each, not a blank in text
            word = _SPACED_PLACEHOLDER.sub(lambda m: _BLANK.sub("_", m[0]), word)
            if _BLANK.search(word) is not None:
                return False
        for needle, kind in self.machine:
            if needle.search(word) is not None and kind.search(word) is not None:
                return True
        if self.login and "@" in word and _names_login(word):
            return True
        if self.address and "." in word and names_address(word):
            return True
        if self.unc_host and word[:2] == "\\\\" and _UNC_HOST.fullmatch(word) and not is_local_host(word):
            return True
        return self.stream and ":" in word and _names_stream(word)

    def match_raw(self, raw: str) -> bool:
        """Does the raw spelling of a word known only at run time name a machine: a locator around the
        run-time part (`http://$h/x`, `\\\\$srv\\share`) or a variable named for one (`$TARGET_IP`)?"""
        if self.match(raw):
            return True
        return self.variable and "$" in raw and _may_name_machine_variable(raw)


def _may_name_machine_variable(raw: str) -> bool:
    """`_MACHINE_VARIABLE` finds a variable in `raw`. Every name it matches holds one of
    `_MACHINE_VARIABLE_PARTS`: an ASCII word without one is ruled out by a few substring tests, where the
    expression itself tries its alternatives at every `$` (milliseconds in a 100 kB word of variables)."""
    return _search_by_stems(_MACHINE_VARIABLE, _MACHINE_VARIABLE_PARTS, raw)


def _search_by_stems(pattern: re.Pattern[str], stems: tuple[str, ...], text: str) -> bool:
    """Does `pattern` find something in `text`, given `stems` (in lower case), one of which every match
    holds? An ASCII text holding none is ruled out by substring tests, before the expression runs."""
    if text.isascii():
        lowered = text.lower()
        if not any(stem in lowered for stem in stems):
            return False
    return pattern.search(text) is not None


_NEEDLES = {"url": "://", "unc": r"\\\\", "scp": "@", "host-port": r":\d"}
"""What every match of a kind holds: a word without it skips that kind's expression. Each expression costs a
pass over the word, and a 100 kB word of `u:` pairs made the four kinds' joint pass take 40 ms."""


def locator_regex(
    kinds: Iterable[str],
    local_schemes: Iterable[str],
    dialect: str,
    machine_options: Iterable[str] = (),
    host_options: Iterable[str] = (),
    machine_parameters: Iterable[str] = (),
) -> LocatorMatcher:
    """The matcher of a `locator` clause: `match(word)` tells whether a word holds a locator of `kinds`;
    `options` (when the clause names any) finds option values naming a machine."""
    kinds = list(kinds)
    machine = []
    for kind in kinds:
        if kind in ("stream", "user-host", "address", "variable", "connection"):
            continue
        if kind == "unc-slash":
            if dialect != "posix":
                machine.append((compile_once("//"), compile_once(_WINDOWS_UNC, re.IGNORECASE)))
            continue
        body = _PATTERNS[kind]
        if kind == "url":
            local = "|".join(re.escape(s) for s in local_schemes) or "(?!)"
            body = body.replace("{local}", local)
        machine.append((compile_once(_NEEDLES[kind]), compile_once(body, re.IGNORECASE)))
    windows = dialect != "posix"
    options = MachineOptions(machine_options, host_options, machine_parameters if windows else (), windows)
    return LocatorMatcher(
        tuple(machine),
        "stream" in kinds,
        "user-host" in kinds,
        address="address" in kinds,
        unc_host="unc" in kinds and windows,
        options=options,
        variable="variable" in kinds,
        connection="connection" in kinds,
    )


_BASH_UNC = lazy_re(r"\\\\[A-Za-z0-9_$-][^\\/\s'\"]*+\\[A-Za-z0-9_$]")
"""`\\\\host\\share` as a cheat sheet writes it for a POSIX shell, which reads it as `\\hostshare`."""


def bash_unc(words: list[Arg]) -> list[Arg]:
    """Words written in a POSIX shell as an unquoted UNC path (`\\\\host\\share\\x.dll`), read as Windows
    reads them: on Windows (Git Bash, WSL interop) that spelling means the share, whatever bash makes of
    it."""
    return [Arg(w.raw, w.raw) for w in words if w.text[:1] == "\\" and _BASH_UNC.match(w.raw)]


_DOTTED = lazy_re(r"\d\.\d{1,3}\.\d{1,3}\.\d")


def screen(text: str) -> bool:
    """Could `text` (words joined by newlines) hold a locator at all? One cheap test before the regex."""
    return (
        ":" in text
        or "\\\\" in text
        or "//" in text
        or _AT_ADDRESS.search(text) is not None
        or ("." in text and _DOTTED.search(text) is not None)
        or ("=" in text and _may_hold_connection(text))
    )


def _may_hold_connection(text: str) -> bool:
    """Could `text` hold a keyword connection string's host (`Server=…`, `host=…`)? An ASCII text without
    one of the keys' stems is ruled out by substring tests, where the case-blind expression costs
    milliseconds in a long word of `=`."""
    return _search_by_stems(_CONNECTION_SCREEN, _CONNECTION_STEMS, text)
