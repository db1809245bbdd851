"""Text that becomes code: what a pipe stage prints, encoded PowerShell, and string literals in a payload."""

from __future__ import annotations

import base64
import binascii
import re
import shlex

from ._lazy import lazy_re
from ._models import Dialect
from ._normalise import ansi_c_unescape, command_key
from ._syntax import DYN, Arg, Stdin


def decode_powershell_b64(text: str) -> str | None:
    """Decode `-EncodedCommand` text (base64 of UTF-16LE); None if it is not that."""
    data = "".join(text.split())
    try:
        raw = base64.b64decode(data + "=" * (-len(data) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(raw) % 2:
        return None
    try:
        return raw.decode("utf-16-le")
    except UnicodeDecodeError:
        return None


def _b64_text(text: str) -> str | None:
    data = "".join(text.split())
    try:
        raw = base64.b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        return None
    return raw.decode("utf-8", "replace")


def _printf(fmt: str, args: list[str]) -> str:
    """Enough of printf(1) to read `printf 'rm -rf %s' ~` and `printf '%b' '\\x72m'`."""
    out: list[str] = []
    queue = list(args)
    spec = re.compile(r"%(%|[-+ #0]*\d*(?:\.\d+)?[a-zA-Z])")
    while True:
        pos = 0
        for m in spec.finditer(fmt):
            out.append(ansi_c_unescape(fmt[pos : m.start()]))
            pos = m.end()
            if m.group(1) == "%":
                out.append("%")
                continue
            value = queue.pop(0) if queue else ""
            out.append(ansi_c_unescape(value) if m.group(1).endswith("b") else value)
        out.append(ansi_c_unescape(fmt[pos:]))
        if not queue or not spec.search(fmt):
            return "".join(out)


_LANGUAGE_OF_EXTENSION = {
    "sh": "posix", "bash": "posix", "zsh": "posix", "ksh": "posix", "command": "posix", "ps1": "powershell",
    "psm1": "powershell", "py": "python", "rb": "ruby", "pl": "perl", "js": "node", "mjs": "node",
    "cjs": "node", "php": "php", "lua": "lua", "bat": "cmd", "cmd": "cmd",
}  # fmt: skip
_SHEBANG = lazy_re(r"#!\s*(?:\S*/)?(?:env\s+(?:-\S+\s+)*)?([a-z]+)")
_LANGUAGE_OF_INTERPRETER = {
    "sh": "posix", "bash": "posix", "zsh": "posix", "dash": "posix", "ksh": "posix", "pwsh": "powershell",
    "python": "python", "ruby": "ruby", "perl": "perl", "node": "node", "php": "php", "lua": "lua",
}  # fmt: skip


_SHELL_STARTUP = frozenset(
    {
        ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile", ".zshrc",
        ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".envrc", "bash.bashrc",
    }
)  # fmt: skip
"""Files a shell (or direnv: `.envrc`) runs as it starts or enters a folder: shell code whatever they hold."""
_RUNS_PROGRAM = lazy_re(r"\s*+(?:exec\s|/(?:usr/)?(?:local/)?s?bin/[\w.+-])")
"""Text that starts by running an installed program (`/bin/sh`, `/usr/bin/python3 -c …`) or by `exec`."""


def script_language(name: str, text: str) -> str | None:
    """The language a file named `name` holding `text` runs in when run as a program: its extension's
    (`x.sh`, `x.py`, `x.ps1`), else its `#!` line's (`#!/usr/bin/env python3`), else the shell's for a
    file without an extension that starts by running an installed program (`echo '/bin/sh' > cat`,
    `echo 'exec /bin/sh' >> sshd`: a shell runs a file without `#!` itself), and the shell's for its
    start-up files (`.bashrc`, `.zshenv`, direnv's `.envrc`); None for any other file."""
    base = name.rpartition("/")[2]
    if base.lower() in _SHELL_STARTUP:
        return "posix"
    ext = base.rpartition(".")[2].lower() if "." in base else ""
    if ext in _LANGUAGE_OF_EXTENSION:
        return _LANGUAGE_OF_EXTENSION[ext]
    found = _SHEBANG.match(text.lstrip())
    if found is None:
        return "posix" if not ext and _RUNS_PROGRAM.match(text) else None
    return _LANGUAGE_OF_INTERPRETER.get(found.group(1).rstrip("0123456789."))


def static_output(argv: list[Arg], stdin: Stdin | None, dialect: Dialect) -> str | None:
    """What a producer in a pipe prints, when it is knowable from the words alone; else None."""
    if not argv or any(DYN in a.text for a in argv):
        return None
    name = command_key(argv[0].text)
    words = [a.text for a in argv[1:]]
    if name in ("write-output", "write") or (name == "echo" and dialect == "powershell"):
        return "\n".join(a.text for a in argv[1:] if not a.param) + "\n"
    if name == "echo" and dialect == "cmd":
        return " ".join(words) + "\n"
    if name == "echo":
        escapes = False
        while words and re.fullmatch(r"-[neE]+", words[0]):
            escapes = escapes or "e" in words[0]
            words.pop(0)
        text = " ".join(words)
        return (ansi_c_unescape(text) if escapes else text) + "\n"
    if name == "printf":
        if words and words[0] == "--":
            words.pop(0)
        return _printf(words[0], words[1:]) if words else None
    upstream = stdin.text() if stdin is not None and not stdin.is_file else None
    if name in ("cat", "tac", "type", "get-content") and not [w for w in words if w != "-"]:
        return upstream
    if upstream is None:
        return None
    if name == "base64" and any(
        w in ("-d", "-D", "--decode") or re.fullmatch(r"-[a-z]*d[a-z]*", w) for w in words
    ):
        return _b64_text(upstream)
    if name == "xxd" and "-r" in words:
        try:
            return binascii.unhexlify("".join(upstream.split())).decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            return None
    if name == "rev":
        return "\n".join(line[::-1] for line in upstream.split("\n"))
    return None


_STRING = lazy_re(r"""(?s)(?:[rRbBuUfF]{0,2})("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)""")


_BASE64 = lazy_re(r"[A-Za-z0-9+/]+={0,2}")
_LIST_GAP = lazy_re(r"\s*+(?:[\])]\s*+)?,\s*+(?:[\[(]\s*+)?")
"""What separates the words of an argument list: `'rm', '-rf'`, `'rm', ['-rf', 'x']`, `"rm", "-rf"`. Each
blank run is taken whole (no way of cutting it is tried twice: 30 kB of blanks between two strings took a
second)."""


_CLEAN_WORDS = {
    "python": frozenset(
        {
            "import", "from", "as", "shutil", "os", "pathlib", "Path", "rmtree", "remove", "unlink", "rmdir",
            "ignore_errors", "missing_ok", "True", "False", "path", "exists", "isdir", "isfile", "if", "not",
            "and", "or",
        }
    ),
    "node": frozenset(
        {
            "require", "fs", "rmSync", "rmdirSync", "unlinkSync", "recursive", "force", "true", "false",
            "const", "let", "var", "existsSync", "if", "await", "promises", "rm", "maxRetries", "retryDelay",
            "import", "from", "then",
        }
    ),
}  # fmt: skip
"""Every name a one-line clean step may use (`shutil.rmtree('dist', ignore_errors=True)`, `require('fs')
.rmSync('dist', {recursive: true})`, or as an ES module: `import fs from 'fs'; fs.rmSync(…)`): code holding
any other name may compute what it deletes."""
_MODULE_NAMES = frozenset({"fs", "node:fs", "fs/promises", "node:fs/promises"})
_NAME = lazy_re(r"[A-Za-z_$][\w$]*")
_PLAIN_RELATIVE = lazy_re(r"(?!-)[\w.\-]+(?:/[\w.\-]+)*/?")


def deleted_literals(language: str, payload: str) -> list[str] | None:
    """The paths a one-line clean step in Python or Node deletes (`python -c "import shutil;
    shutil.rmtree('dist', ignore_errors=True)"`): its string literals, when every name in the code is one
    such a step uses and every literal is a plain relative path; None for any other code."""
    words = _CLEAN_WORDS.get(language)
    if words is None:
        return None
    code = _STRING.sub(" ", payload)
    if any(m.group(0) not in words for m in _NAME.finditer(code)) or "\\" in payload or "`" in payload:
        return None
    found = [ansi_c_unescape(m.group(1)[1:-1]) for m in _STRING.finditer(payload)]
    paths = [f for f in found if f not in _MODULE_NAMES]
    if not paths or not all(_PLAIN_RELATIVE.fullmatch(f) and ".." not in f.split("/") for f in paths):
        return None
    return paths


_QUOTED_PATH = r"""[rRbBuU]?(?P<q>['"`])(?P<p>[^'"`\n{}$]++)(?P=q)"""
"""A string literal holding a plain path (no interpolation: `{x}`, `${x}`, `$x`)."""
_WRITE_MODE = r"""\s*+,\s*+(?:mode\s*+=\s*+|flags\s*+:\s*+)?['"`][rbts]*+[awx+]"""
"""A second argument opening the file to write: `'a'`, `'ab'`, `'r+'` (`'w'` empties it: payload-write's)."""
_WRITE_CALLS: dict[str, tuple[str, ...]] = {
    "python": (rf"\bopen\(\s*+Q{_WRITE_MODE}",),
    "node": (r"\bappendFile(?:Sync)?\(\s*+Q", rf"\bopen(?:Sync)?\(\s*+Q{_WRITE_MODE}"),
    "ruby": (rf"\b(?:File|IO)\.(?:open|new)\(\s*+Q{_WRITE_MODE}",),
    # the two-argument open, its mode in the path (`open(F, ">>/etc/x")`), and the three-argument one
    "perl": (
        r"""\bopen\s*+\(?\s*+(?:my\s+)?[$\w]++\s*+,\s*+(?P<q>['"])\s*+\+?>>\s*+(?P<p>[^'"\n{}$]++)(?P=q)""",
        r"""\bopen\s*+\(?\s*+(?:my\s+)?[$\w]++\s*+,\s*+['"]\+?>>['"]\s*+,\s*+Q""",
    ),
    "php": (rf"\bfopen\(\s*+Q{_WRITE_MODE}", r"\bfile_put_contents\(\s*+Q\s*+,[^;]{0,200}?\bFILE_APPEND\b"),
}
"""Per language, calls adding to the file a literal names: appending, or opening it to write without emptying
it (one emptying it is destructive.payload-write's, wherever the file is)."""
_COPY_NAMES = {
    "python": "copy|copy2|copyfile|copytree|move|rename|replace|symlink|link",
    "node": "copyFile|copyFileSync|cp|cpSync|rename|renameSync|symlink|symlinkSync|link|linkSync",
    "ruby": "cp|cp_r|mv|ln|ln_s|ln_sf|install|copy|move|copy_file|rename|symlink|link",
    "perl": "copy|move|rename|symlink|link",
    "php": "copy|rename|symlink|link",
}
"""Per language, calls copying, moving or linking onto the place their second argument names."""
_FIRST_ARGUMENT = r"""(?:[rRbBuU]?'[^'\n]*+'|[rRbBuU]?"[^"\n]*+"|`[^`\n]*+`|[^,()'"`]++)\s*+"""
"""A first argument, a string or a name (`'x.sh'`, `src`), before the one the call writes."""
_WRITTEN_BY: dict[str, tuple[re.Pattern[str], ...]] = {
    language: tuple(
        lazy_re(call.replace("Q", _QUOTED_PATH))
        for call in (*calls, rf"\b(?:{_COPY_NAMES[language]})\(\s*+{_FIRST_ARGUMENT},\s*+Q")
    )
    for language, calls in _WRITE_CALLS.items()
}


def written_literals(language: str, payload: str) -> list[str]:
    """The literal paths an interpreter's code adds to, or copies, moves or links onto (`open('/etc/hosts',
    'a')`, `shutil.copy('x', '/etc/profile.d/x.sh')`, perl's `open(F, ">>/etc/crontab")`): places it
    writes, to be judged as any write is. Paths built at run time are not followed."""
    patterns = _WRITTEN_BY.get(language)
    if patterns is None or "(" not in payload:
        return []
    found = (m.group("p").strip() for pattern in patterns for m in pattern.finditer(payload))
    return [path for path in found if path]


def awk_prints_to_file(program: str) -> bool:
    """Does awk code send `print`/`printf` output into a file (`print > "out"`, `printf … > $2`)? Each print
    statement (up to `;`, `}`, a newline or a `|` outside its strings) is read with its strings skipped, so a
    `>` inside one (`printf "make <target>\\n"`) is text. `>>` (appending) and `/dev/stderr`, `/dev/stdout`,
    `/dev/null` write no file. Whatever cannot be read so counts as a write: a `/` in the statement (a regular
    expression may hold a quote) or a string left open. One pass over the code, jumping between the
    characters that matter."""
    i = 0
    steps = 0
    while (start := _AWK_PRINT.search(program, i)) is not None:
        j = start.end()
        quoted = unsure = False
        while True:
            m = (_AWK_IN_STRING if quoted else _AWK_IN_STATEMENT).search(program, j)
            if m is None:
                # a string left open: where it ends is not known
                return quoted and ">" in program[start.end() :]
            steps += 1
            if steps > AWK_STEPS:
                return True  # too much code to read this way: as the pattern found it
            c = m.group(0)
            j = m.end()
            if quoted:
                if c == "\\":
                    j += 1
                elif c == '"':
                    quoted = False
                elif unsure:
                    return True  # `>` in what may be no string at all
            elif c == '"':
                quoted = True
            elif c == "/":
                unsure = True
            elif c == ">":
                if program[j : j + 1] == ">":
                    j += 1
                elif not _STANDARD_STREAM.match(program, j):
                    return True
            else:
                break  # the statement ends
        i = j
    return False


AWK_STEPS = 2000
"""Quotes, slashes and statement ends read in one awk program at most (an awk one-liner has dozens)."""
_AWK_PRINT = lazy_re(r"\bprintf?\b")
_AWK_IN_STATEMENT = lazy_re(r'["/>;}\n|]')
_AWK_IN_STRING = lazy_re(r'["\\>]')
_STANDARD_STREAM = lazy_re(r'\s*"/dev/(?:stderr|stdout|null)"')


_EXEC_LITERAL = lazy_re(
    r"""(?s)\s*+(?:exec|eval)\s*+\(\s*+[uU]?("(?:[^"\\\n]|\\.)*+"|'(?:[^'\\\n]|\\.)*+')\s*+\)\s*+;?\s*+"""
)


def exec_literal_code(payload: str) -> str | None:
    """The code a Python payload runs when all it does is `exec` (or `eval`) one plain string literal
    (`exec("import base64\\nprint(1)")`), escapes undone: that code is known, and is judged as if written
    bare; None for anything else (`exec(input())`, `exec('im' + 'port os')`, an f-string)."""
    m = _EXEC_LITERAL.fullmatch(payload)
    return None if m is None else ansi_c_unescape(m.group(1)[1:-1])


def string_literals(payload: str) -> list[str]:
    """Quoted strings in an interpreter payload (escapes undone), e.g. the command in `os.system("...")`.

    A run of literals separated only by commas (and list brackets) is also given joined into one command
    line, quoted for `sh`: `subprocess.run(['rm', '-rf', 'x'])`, `execFileSync('rm', ['-rf', 'x'])` and
    `system("rm", "-rf", "x")` run `rm -rf x`, which no single literal shows. A literal that is base64 of
    printable text is also given decoded.
    """
    out: list[str] = []
    run: list[str] = []
    end = -1
    for m in _STRING.finditer(payload):
        body = ansi_c_unescape(m.group(1)[1:-1])
        if run and not _LIST_GAP.fullmatch(payload, end, m.start()):
            if len(run) > 1:
                out.append(" ".join(shlex.quote(w) for w in run))
            run = []
        run.append(body)
        end = m.end()
        if body.strip():
            out.append(body)
            if len(body) >= 8 and _BASE64.fullmatch(body):
                decoded = _b64_text(body)
                if decoded is not None and decoded.replace("\n", " ").replace("\t", " ").isprintable():
                    out.append(decoded)  # `os.system(b64decode('cm0gLXJmIH4='))` runs `rm -rf ~`
    if len(run) > 1:
        out.append(" ".join(shlex.quote(w) for w in run))
    return out


# -- reading a payload as its interpreter would --
_SED_TEXT = lazy_re(r"(?<![A-Za-z_])([sy])([^\w\s\\;{}])((?:(?!\2)[^\\\n]|\\.)*)\2((?:(?!\2)[^\\\n]|\\.)*)\2")
_SED_ADDRESS = lazy_re(r"(^|[;\n{}!,]\s*)/((?:[^/\\\n]|\\.)*)/")
_LITERAL_GETATTR = lazy_re(r"""\bgetattr\s*\(\s*([\w.]+)\s*,\s*(['"])(\w+)\2\s*([,)])""")


def _blank(text: str) -> str:
    return " " * len(text)


def sed_commands(script: str) -> str:
    """A sed script with the text of its `s`/`y` patterns and replacements and of its `/regex/` addresses
    blanked: what is left are its commands and flags (`s/a = { w/b/` holds no `w` command, `s/a/b/w f` does).
    """
    script = _SED_TEXT.sub(lambda m: f"{m[1]}{m[2]}{_blank(m[3])}{m[2]}{_blank(m[4])}{m[2]}", script)
    return _SED_ADDRESS.sub(lambda m: f"{m[1]}/{_blank(m[2])}/", script)


_SED_WRITES = lazy_re(
    r"(?:^|[;\n{}])\s*+(?:[0-9$,~+]+|/[^/\n]*/[IM]*)?\s*+!?\s*+[wW]\s*([^\n]*)"
    r"|(?<![A-Za-z_])s(.)(?:(?!\2)[^\\]|\\.)*\2(?:(?!\2)[^\\]|\\.)*\2[gpiImMe0-9]*w\s*([^\n]*)"
)


def sed_write_targets(commands: str) -> list[str] | None:
    """The files a sed script's `w FILE` commands and `s///w FILE` flags write, given its commands
    (`sed_commands`): the name runs to the end of the line, blanks and `;` included, as sed reads it. None
    when one has no name."""
    targets = []
    for found in _SED_WRITES.finditer(commands):
        name = (found.group(1) if found.group(1) is not None else found.group(3) or "").rstrip()
        if not name:
            return None
        if name not in ("/dev/stdout", "/dev/stderr"):
            targets.append(name)
    return targets


def python_attributes(code: str) -> str:
    """Python code with `getattr(obj, 'name')` written as `(obj.name)` (and `getattr(obj, 'name', d)` as
    `(obj.name, d)`), which is what it reads: the patterns that look for `os.system` then see it, and a
    `getattr` left over takes its name from run-time data."""
    return _LITERAL_GETATTR.sub(r"(\1.\3\4", code)


_PHP_COPY_IF_ABSENT = lazy_re(
    r"""(?:file_exists\(\s*(['"])(?P<a>[^'"\\]+)\1\s*\)\s*(?:\|\||\bor\b)"""
    r"""|if\s*\(\s*!\s*file_exists\(\s*(['"])(?P<b>[^'"\\]+)\3\s*\)\s*\))"""
    r"""\s*(?:\{\s*)?copy\(\s*(['"])[^'"\\]+\5\s*,\s*(['"])(?:(?P=a)|(?P=b))\6\s*\)"""
)


def php_copies_if_absent(code: str) -> str:
    """PHP code with `file_exists('.env') || copy('.env.example', '.env')` (or `if (!file_exists(…)) copy(…)`)
    blanked: a file made from its template only when it is not there reads and replaces nothing, like
    `cp -n .env.example .env` (Laravel's composer scripts run it). A copy not guarded by that test stays."""
    return _PHP_COPY_IF_ABSENT.sub(lambda m: _blank(m.group(0)), code)


PREPARE = {"sed": sed_commands, "python": python_attributes, "php": php_copies_if_absent}
"""Per payload language, the reading of a program that the payload patterns are written for."""

_MODULE = r"[\w.]+(?:\s+as\s+\w+)?"
_IMPORT = rf"(?>import\s+{_MODULE}(?:\s*,\s*{_MODULE})*|from\s+[\w.]+\s+import\s+\w+(?:\s*,\s*\w+)*)"
_SHOWN = r"(?>[\w.]+\.(?:__file__|\w*[Vv][Ee][Rr][Ss][Ii][Oo][Nn]\w*)|'[^'\\{}]*'|\"[^\"\\{}]*\")"
_PRINT = rf"print\(\s*{_SHOWN}(?:\s*,\s*{_SHOWN})*+\s*\)"
_VERSION_PROBE = lazy_re(rf"\s*{_IMPORT}(?:\s*[;\n]\s*{_IMPORT})*+(?:\s*[;\n]\s*{_PRINT})*+\s*;?\s*")
"""Atomic groups and possessive repeats: each piece has one reading, so a long program that is no probe is
refused in one pass instead of trying every way to split it."""


def python_version_probe(text: str) -> bool:
    """Is this Python program only imports, and prints of their versions or files (`import requests`,
    `import urllib3; print(urllib3.__version__)`, `import ssl; print(ssl.OPENSSL_VERSION)`)? Importing a
    network library opens no connection; a probe calls nothing but `print`."""
    return _VERSION_PROBE.fullmatch(text) is not None


_PERL_VERSION = r"\$(?:[A-Za-z_]\w*(?:::\w+)*::VERSION|\{[A-Za-z_]\w*(?:::\w+)*::VERSION\})"
_PERL_SHOWN = (
    rf"(?>{_PERL_VERSION}|\"(?:[^\"\\$@]|\\[nt]|{_PERL_VERSION})*+\"|'[^'\\]*'"
    rf"|qq?\((?:[^()\\$@]|\\[nt]|{_PERL_VERSION})*+\)|\d+)"
)
_PERL_STATEMENT = (
    rf"(?>(?:print|say)\s*+(?:\(\s*+)?{_PERL_SHOWN}(?:\s*+[,.]\s*+{_PERL_SHOWN})*+\s*+\)?"
    r"|use\s++[A-Za-z_]\w*(?:::\w+)*|exit(?:\s*+\(?\s*+\d*\s*+\)?)?|\d+)"
)
_RUBY_VERSION = r"[A-Z]\w*(?:::[A-Z]\w*)*::[A-Z_]*VERSION[A-Z_]*"
_RUBY_SHOWN = rf"(?>{_RUBY_VERSION}|\"(?:[^\"\\#]|\\[nt]|#\{{{_RUBY_VERSION}\}})*+\"|'[^'\\]*')"
_RUBY_STATEMENT = (
    rf"(?>(?:puts|print|p)\s*+(?:\(\s*+)?{_RUBY_SHOWN}(?:\s*+[,+]\s*+{_RUBY_SHOWN})*+\s*+\)?"
    r"""|require\s*+\(?\s*+(?:"[\w/.-]+"|'[\w/.-]+')\s*+\)?|exit(?:\s*+\(?\s*+\d*\s*+\)?)?)"""
)
_LANGUAGE_PROBES = {
    "perl": lazy_re(rf"\s*+(?:{_PERL_STATEMENT}\s*+(?:;\s*+)?)++"),
    "ruby": lazy_re(rf"\s*+(?:{_RUBY_STATEMENT}\s*+(?:[;\n]\s*+)?)++"),
}
"""Per language besides Python, a program that only prints module versions and text, or exits: `print
$IO::Socket::SSL::VERSION`, `print "$Net::SSLeay::VERSION\\n"`, `exit 0`, `puts Net::HTTP::VERSION`."""
_PROBE_LOADS = {
    "perl": lazy_re(r"-[mM]-?[A-Za-z_]\w*(?:::\w+)*|-[wWl]"),
    "ruby": lazy_re(r"-r[\w/.-]+|-[wW]\d?"),
}
"""The options a probe may load modules with (`-MIO::Socket::SSL`, `-mLWP::Simple`, `-rnet/http`): a module
by its plain name, never `-MX=…` or `-M'X;code'`, which hand the module words or run code of their own."""


def version_probe(language: str, text: str) -> bool:
    """Is this program of `language` only a look at what is installed: Python's imports and prints of their
    versions (`python_version_probe`), Perl's or Ruby's prints of module versions and plain text, or an exit
    (`print $IO::Socket::SSL::VERSION`, `exit 0`, `puts Net::HTTP::VERSION`)? It calls no network API."""
    if language == "python":
        return python_version_probe(text)
    probe = _LANGUAGE_PROBES.get(language)
    return probe is not None and probe.fullmatch(text) is not None


def module_version_probe(language: str, words: list[str]) -> bool:
    """Does an interpreter's command line (the words after its name) only load modules by name and run a
    version probe (`perl -MIO::Socket::SSL -e 'print $IO::Socket::SSL::VERSION'`, `perl -mLWP::Simple -e1`,
    `ruby -rnet/http -e 'puts Net::HTTP::VERSION'`)? Loading a network library opens no connection."""
    loads = _PROBE_LOADS.get(language)
    if loads is None:
        return False
    programs: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-e", "-E"):
            if i + 1 >= len(words):
                return False
            programs.append(words[i + 1])
            i += 2
            continue
        if word[:2] in ("-e", "-E") and len(word) > 2:
            programs.append(word[2:])
        elif loads.fullmatch(word) is None:
            return False
        i += 1
    return bool(programs) and all(version_probe(language, p) for p in programs)


_VAR_NAME = r"(?P<name>[A-Za-z_]\w*)"
_QUOTED_NAME = rf"""(?P<q>['"]){_VAR_NAME}(?P=q)"""
_NAMED_ENV_READS: dict[str, tuple[re.Pattern[str], ...]] = {
    "python": (
        lazy_re(rf"\b(?:os\s*\.\s*)?(?:environ\s*\.\s*get|getenv)\s*\(\s*{_QUOTED_NAME}"),
        lazy_re(rf"\b(?:os\s*\.\s*)?environ\s*\[\s*{_QUOTED_NAME}\s*\]"),
        lazy_re(r"\bfrom\s+os\s+import\s+(?:environ|getenv)\b(?:\s*,\s*(?:environ|getenv)\b)*"),
    ),
    "node": (
        lazy_re(rf"\b(?:process|Bun)\s*\.\s*env\s*\.\s*{_VAR_NAME}"),
        lazy_re(rf"""\b(?:process|Bun)\s*\.\s*env\s*\[\s*(?P<q>['"`]){_VAR_NAME}(?P=q)\s*\]"""),
        lazy_re(rf"\bDeno\s*\.\s*env\s*\.\s*get\s*\(\s*{_QUOTED_NAME}\s*\)"),
    ),
    "perl": (lazy_re(rf"\$ENV\s*\{{\s*{_VAR_NAME}\s*\}}"), lazy_re(rf"\$ENV\s*\{{\s*{_QUOTED_NAME}\s*\}}")),
    "ruby": (lazy_re(rf"\bENV\s*(?:\[|\.\s*fetch\s*\()\s*{_QUOTED_NAME}"),),
    "php": (
        lazy_re(rf"\bgetenv\s*\(\s*{_QUOTED_NAME}\s*\)"),
        lazy_re(rf"\$_ENV\s*\[\s*{_QUOTED_NAME}\s*\]"),
    ),
    "awk": (lazy_re(rf"""\bENVIRON\s*\[\s*"{_VAR_NAME}"\s*\]"""),),
    "lua": (lazy_re(rf"\bos\s*\.\s*getenv\s*\(\s*{_QUOTED_NAME}\s*\)"),),
    "r": (lazy_re(rf"\bSys\s*\.\s*getenv\s*\(\s*{_QUOTED_NAME}"),),
    "julia": (
        lazy_re(rf'\bENV\s*\[\s*"{_VAR_NAME}"\s*\]'),
        lazy_re(rf'\bget\s*\(\s*ENV\s*,\s*"{_VAR_NAME}"'),
    ),
}
"""Per payload language, the spellings of one variable read by its literal name (`os.environ.get('CI')`,
`process.env.npm_package_version`, `$ENV{HOME}`, `getenv("X")`, R's `Sys.getenv("CI")`, Julia's
`ENV["CI"]`), and Python's import of the reading functions (which reads nothing)."""


def named_env_reads(language: str, program: str) -> tuple[list[tuple[str, str]], str] | None:
    """The environment variables `program` reads by literal name, each with the code that reads it, and the
    program with those reads blanked (what else of it may touch the environment); None when it reads none
    that way. Each name is then judged like the shell's own reading of that variable: one named setting
    (`SOURCE_DATE_EPOCH`, `npm_package_version`) is no dump of the environment, a secret's name is."""
    patterns = _NAMED_ENV_READS.get(language)
    if not patterns:
        return None
    reads: list[tuple[str, str]] = []

    def blank(m: re.Match[str]) -> str:
        name = m.groupdict().get("name")
        if name:
            reads.append((name, " ".join(m.group(0).split())))
        return _blank(m.group(0))

    for pattern in patterns:
        program = pattern.sub(blank, program)
    return (reads, program) if reads else None


_SUBSTITUTION = lazy_re(r"\$\(([^()$`]*)\)|`([^`$()]*)`")
_DATE_CALL = lazy_re(
    r"\s*date(?:\s+(?:-u|--utc|-I(?:date|seconds|minutes|hours)?|--iso-8601(?:=\w+)?"
    r"|'\+[^']*'|\"\+[^\"]*\"|\+[^\s'\"]+))*\s*"
)
_NUMERIC_FORMAT = lazy_re(r"(?:%[YymdeHMSjuwsFTRGgVUWklICN]|[-_:.,+T ]|[0-9])*")
"""A `date +FORMAT` whose output is digits and separators only (`+%Y-%m-%d`, `+%s`): no letter a sed script
could read as a command (`e`, `w`, `r`), no newline, no `/`."""


def dated(word: Arg) -> str | None:
    """`word`'s text with each run-time part filled in when every one is a `date` that prints digits and
    separators only (`"s|<date>|$(date '+%Y-%m-%d')|"`): a script that stays the same kind of script
    whatever the date; else None."""
    raw = word.raw
    calls = list(_SUBSTITUTION.finditer(raw))
    if not calls or raw.count("$") != raw.count("$("):
        return None
    spelled = _SUBSTITUTION.sub(DYN, raw)
    if len(spelled) > 1 and spelled[0] == spelled[-1] == '"':
        spelled = spelled[1:-1]
    if spelled != word.text or "\\" in spelled or '"' in spelled:
        return None  # the word's text is not the raw word with its substitutions marked: not read alike
    for call in calls:
        inner = call.group(1) if call.group(1) is not None else call.group(2)
        if _DATE_CALL.fullmatch(inner) is None:
            return None
        formats = re.findall(r"\+([^\s'\"]*)", inner)
        if not formats and "-I" not in inner and "--iso" not in inner:
            return None  # `date` alone prints day and month names
        if not all(_NUMERIC_FORMAT.fullmatch(f) for f in formats):
            return None
    return word.text.replace(DYN, "1")
