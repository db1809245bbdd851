"""The policy in the shape an evaluation reads it: rule clauses indexed by command name, what each name means
(wrapper, shell, interpreter, writer, special handler), and the tables of variables, options and locators."""

from __future__ import annotations

import posixpath
import re
from fnmatch import fnmatch
from fnmatch import translate as fnmatch_translate

from ._editors import EDITORS
from ._handed import globs, required_mark
from ._lazy import compile_once, lazy_re
from ._models import Dialect, ExecutorSpec, PolicyFile, Rule, ShellSpec, WrapperSpec
from ._normalise import command_key
from ._paths import CHANGE_DIRECTORY, WRITERS
from ._rules import CommandView, CompiledCommand, RuleIndex, SyntaxInfo, build_index
from ._screens import trie_alternation
from ._shape import record
from ._syntax import DYN, Arg

_EXTENSION = lazy_re(r"\.(?:exe|com|cmd|bat)$", re.IGNORECASE)

_DIALECTS: tuple[Dialect, ...] = ("posix", "powershell", "cmd")


MEMO_WORDS_CHARS = 4096
"""Longest command (its words' characters) whose clause verdicts are remembered (`clause_results`)."""


@record(frozen=True)
class NameInfo:
    """What a command name means to the policy: its rule clauses and how it runs other code."""

    names: tuple[str, ...]
    """The normalised command word and, on PowerShell, the cmdlet an alias stands for (rules name either)."""
    clauses: tuple[CompiledCommand, ...]
    wrappers: tuple[WrapperSpec, ...]
    shell: ShellSpec | None
    executor: ExecutorSpec | None
    special: tuple[str, str] | None
    writes_files: str
    """"all": every operand is a file it writes (`tee`); "first": the first one (`Set-Content`); "": none."""
    inert: bool
    """No rule names it and it runs nothing else, so only argument-wide rules apply (`ls`, `pytest`)."""
    syntax: SyntaxInfo
    """Where its operands start (value-taking global options, `kill`'s single option word)."""
    acts: bool
    """It wraps another command, writes files, or runs code (a shell, an interpreter, `eval` ...)."""
    paths: str = ""
    """"cd" when it changes the working directory, "write" when `_paths.write_targets` can name what it
    writes, "" otherwise: either way its words are judged against the working directory."""
    clause_table: dict[str, tuple[CompiledCommand, ...]] | None = None
    """`clause_table(clauses)`: the clauses worth trying per first operand."""
    fed_clauses: tuple[CompiledCommand, ...] = ()
    """The clauses that also ask what feeds the command (`fed_by`): the only ones its words alone cannot
    decide, so a fed command's other verdicts are the remembered `clause_hits`."""


_WRITERS = {
    # "copy": the last operand becomes a copy of another file, maybe a program (`cp /bin/rm ./x; ./x -rf y`).
    "cp": "copy",
    "mv": "copy",
    "ln": "copy",
    "install": "copy",
    "copy-item": "copy",
    "move-item": "copy",
    "tee": "all",
    "tee-object": "first",
    "out-file": "first",
    "set-content": "first",
    "add-content": "first",
}


SPECIAL = {
    "eval": "_eval",
    "source": "_source",
    ".": "_source",
    "alias": "_alias",
    "trap": "_trap",
    "find": "_find",
    "fd": "_fd",
    "fdfind": "_fd",
    "jq": "_json_query",
    "gojq": "_json_query",
    "jaq": "_json_query",
    "yq": "_json_query",
    "printenv": "_printenv",
    "coproc": "_coproc",
    "invoke-expression": "_invoke_expression",
    "start-process": "_start_process",
    "invoke-externalcommand": "_start_process",
    "set-alias": "_set_alias",
    "new-alias": "_set_alias",
    "new-object": "_new_object",
    "import-module": "_import_module",
    "dotnet": "_dotnet",
    "mix": "_task_chain",
    "lein": "_task_chain",
    "rebar3": "_task_chain",
    "dub": "_dub",
    **dict.fromkeys(EDITORS, "_editor"),
}

HANDED_AS_ANY = frozenset({"dotnet", "mix", "lein", "rebar3", "dub"})
"""Special commands whose words are otherwise checked as any program's (`dotnet`'s handler only looks for the
assembly it runs: `dotnet add reference ../x.csproj` still hands it code from outside the project)."""

# PowerShell cmdlet handlers do not apply to POSIX programs that happen to share the name.
POWERSHELL_ONLY = frozenset({
    "invoke-expression", "start-process", "invoke-externalcommand", "set-alias", "new-alias", "new-object",
    "import-module",
})  # fmt: skip


def _name_matcher(names: list[str]) -> re.Pattern[str]:
    """Variable names (`*` globs allowed) as one case-insensitive full-match expression."""
    body = "|".join(fnmatch_translate(n) for n in names) or "(?!)"
    return compile_once(body, re.IGNORECASE)


def _option_matcher(globs: list[str]) -> re.Pattern[str] | None:
    return compile_once("|".join(fnmatch_translate(g) for g in globs), re.IGNORECASE) if globs else None


_OPTION_WORDS = frozenset({"--", "--recursive", "--quiet", "-q", "{"})


def _runner_names(data: PolicyFile) -> tuple[frozenset[str], re.Pattern[str] | None]:
    names: set[str] = set()
    patterns: list[str] = []
    # A wrapper counts only when it wraps by its name alone (`sudo`, `nice`), not through a subcommand or a
    # program it runs by name: `git` or `npm` at the start of a message (`--title "npm install fails"`) is a
    # mention, not a command line.
    runners = [w for w in data.wrappers.values() if w.subcommand is None and not w.runs_bins]
    for spec in [*data.shells.values(), *data.executors.values(), *runners]:
        for name in spec.names:
            name = name.lower()
            if any(ch in name for ch in "*?["):
                patterns.append(name)
            elif name not in _OPTION_WORDS:
                names.add(name)
    return frozenset(names), globs(patterns)


def _extensions(patterns: list[str]) -> set[str]:
    return {p[2:].split(".", 1)[0].lower() for p in patterns if p.startswith("*.")}


_PIECE_END = r"[\n,;=:\"' ]|\Z"
"""What ends a piece of a word that may name a file (`a.dll,b.dll`, `--lib=x.so`, `k:v.py`)."""


def _suffix(extensions: list[str]) -> str:
    """A dot and one of `extensions` (none empty) ending a piece of a word. The lookahead for their first
    letters turns away a dot followed by anything else at once: a word of dots each entering the trie
    took 19 ms a search at 100 kB."""
    firsts = re.escape("".join(sorted({e[0] for e in extensions})))
    ahead = f"(?=[{firsts}])" if firsts else ""  # (a policy may list none)
    return rf"\.{ahead}(?:{trie_alternation(extensions)})(?={_PIECE_END})"


_CONSOLE_WORDS = frozenset({"shell", "console", "repl"})
_PLAIN_PATH = lazy_re(r"[\w.][\w.+@-]*(?:/[\w.+@-]+)*")
"""A relative path of plain names (`tests/test_x.py`, `./lib/x.so.1`): no root, home, drive, option,
response file (`@x.rsp`), separator of a list or run-time part."""


def _plain_relative(word: str) -> bool:
    """Is `word` a relative path of plain names that does not climb out (`..`) of where it starts?"""
    return _PLAIN_PATH.fullmatch(word) is not None and ".." not in word.split("/")


_PATH_SEPARATORS = lazy_re(r"[/\\]")
_PROGRAM_FOLDERS = frozenset({"bin", "sbin", "libexec", "system32", "syswow64"})


class HandedScreen:
    """A cheap test that finds every word `_words.WordChecks._handed_code` could act on: a word holding a
    blank (a possible command line), a console word first, a path after `--`, a program folder or shell path,
    a code or program file's extension, a library option. Linear in the words with a small constant, so a
    100 kB word costs about a millisecond (one alternation over every position would cost tens).

    A source or script named by a plain relative path (`tests/test_x.py`) is judged only by where it lies:
    inside the project while the line has not left the working directory, so `search(…, moved=False)` passes
    over it; a code host's file or a Windows program is acted on wherever it is."""

    __slots__ = (
        "anywhere_suffix", "extensions", "file_suffix", "library_options", "lowered_suffixes",
        "option_prefixes", "shells",
    )  # fmt: skip

    def __init__(self, data: PolicyFile, library_options: re.Pattern[str] | None) -> None:
        self.extensions = frozenset(_extensions(data.code_host_files + data.code_files + data.program_files))
        # One search for a piece (text between separators) whose last dot starts one of the extensions, or
        # a versioned library (`lib.so.1`): a word of thousands of pieces is one pass, not a loop over them.
        # IGNORECASE folds at least what `str.lower` does, so it finds every piece the loop would.
        self.file_suffix = lazy_re(rf"(?i){_suffix(sorted(self.extensions))}|(?-i:\.so\.)")
        # (flags inline: the load cache's unpickler rebuilds no `re.RegexFlag`)
        anywhere = sorted(_extensions(data.code_host_files + data.program_files))
        self.anywhere_suffix = lazy_re(rf"(?i){_suffix(anywhere)}")
        # The same without IGNORECASE, for ASCII text lower-cased (the extensions are): several times
        # faster on a long word of dots (`--lua-filter a.rts.rts…`: 18 ms a search at 100 kB).
        self.lowered_suffixes = (
            (lazy_re(_suffix(sorted(self.extensions))), lazy_re(_suffix(anywhere)))
            if all(e.isascii() for e in self.extensions.union(anywhere))
            else None
        )
        self.shells = frozenset(n.lower() for s in data.shells.values() for n in s.names)
        self.library_options = library_options
        self.option_prefixes = tuple({g.split("*", 1)[0] for g in data.library_options})

    def _names_file(self, text: str, code: bool) -> bool:
        """`file_suffix` (`code`) or `anywhere_suffix` finds a piece of `text`."""
        lowered = self.lowered_suffixes
        if lowered is not None and text.isascii():
            if lowered[0 if code else 1].search(text.lower()) is not None:
                return True
            return code and ".so." in text  # (case-sensitive: `lib.so.1`)
        return (self.file_suffix if code else self.anywhere_suffix).search(text) is not None

    def search(self, texts: str, moved: bool = True) -> bool:
        """Could `_handed_code` act on one of the words (joined by newlines)? `moved`: whether the line may
        have left the working directory (a `cd`), where a relative path may lead outside the project."""
        if " " in texts or "\t" in texts:
            return True
        first = texts.partition("\n")[0].lower()
        if first in _CONSOLE_WORDS or texts.startswith("--\n") or "\n--\n" in texts:
            return True
        if "/" in texts or "\\" in texts:
            for word in texts.split("\n"):
                if "/" not in word and "\\" not in word:
                    continue
                parts = _PATH_SEPARATORS.split(word.lower())
                if not _PROGRAM_FOLDERS.isdisjoint(parts[:-1]):
                    return True  # `/usr/bin/id`, `C:\Windows\System32\cmd.exe`
                last = parts[-1][:-4] if parts[-1].endswith(".exe") else parts[-1]
                if last in self.shells:
                    return True  # `/bin/sh`
        if "." in texts and self._names_file(texts, code=True):
            if moved or self._names_file(texts, code=False):
                return True  # `x.py`, `C:\\a\\b.exe,c.dll`, `lib.so.1`, `x.inf`
            for word in texts.split("\n"):
                if self._names_file(word, code=True) and not _plain_relative(word):
                    return True  # `../x.py`, `/tmp/x.py`, `--rcfile=~/x.py`
        if self.library_options is not None and ("-" in texts or "/" in texts):
            prefixes = self.option_prefixes
            for word in texts.lower().split("\n"):  # (the options' own case varies: `-TestAdapterPath:`)
                if word.startswith(prefixes) and self.library_options.fullmatch(
                    re.split(r"[=:]", word, maxsplit=1)[0]
                ):
                    return True
        return False


def clause_table(clauses: tuple[CompiledCommand, ...]) -> dict[str, tuple[CompiledCommand, ...]] | None:
    """Per lower-case first operand, the clauses a command with that first operand may match, in rule order:
    those without a subcommand test and those with one that begins with the word (`git status` tries none
    of git's thirty subcommand clauses); "" for any other word, or none. None when no clause has a
    subcommand test."""
    if not any(c.by_first_word for c in clauses):
        return None
    words = {w for c in clauses for w in c.by_first_word}
    table = {w: tuple(c for c in clauses if not c.by_first_word or w in c.by_first_word) for w in words}
    table[""] = tuple(c for c in clauses if not c.by_first_word)
    return table


def matching_clauses(
    clauses: tuple[CompiledCommand, ...],
    view: CommandView,
    table: dict[str, tuple[CompiledCommand, ...]] | None = None,
) -> tuple[tuple[CompiledCommand, int, str], ...]:
    """The clauses that match `view` or may match it, in rule order, with their verdicts; for a Windows
    program written in a POSIX shell, also as Windows reads its unquoted backslashes (`windows_words`).
    `table` (`clause_table` of `clauses`) skips the clauses whose subcommand test the first operand fails."""
    hits = []
    tried = clauses
    if table is not None:
        operands = view.positionals()
        if not operands:
            tried = table[""]
        elif DYN not in operands[0].text:
            first = operands[0].text.lower()
            tried = table.get(first, table[""])
    for compiled in tried:
        state, detail = compiled.check(view)
        if state:
            hits.append((compiled, state, detail))
    if view.windows_program:
        windows = windows_words(view.argv)
        if windows is not None:
            seen = {id(h[0]) for h in hits}
            other = CommandView(view.names, windows, view.dialect, view.syntax)
            other.windows_program = True
            other.has_command = view.has_command
            other.producers_of = view.producers_of
            for compiled in clauses:
                if id(compiled) not in seen:
                    state, detail = compiled.check(other)
                    if state:
                        hits.append((compiled, state, detail))
    return tuple(hits)


def with_fed_hits(
    hits: tuple[tuple[CompiledCommand, int, str], ...], info: NameInfo, view: CommandView
) -> tuple[tuple[CompiledCommand, int, str], ...]:
    """`matching_clauses(info.clauses, view, …)` for a fed `view`, given `hits`, the verdicts of its words
    alone (`clause_hits`): only the `fed_by` clauses are tried again, and their hits join in rule order."""
    if view.windows_program:
        return matching_clauses(info.clauses, view, info.clause_table)  # two passes, each in its own order
    fed = matching_clauses(info.fed_clauses, view)
    if not fed:
        return hits
    if not hits:
        return fed
    rank = {id(c): i for i, c in enumerate(info.clauses)}
    return tuple(sorted((*hits, *fed), key=lambda hit: rank[id(hit[0])]))


def windows_words(argv: list[Arg]) -> list[Arg] | None:
    """The words of a Windows program written in a POSIX shell as the cheat sheet that wrote them means them:
    an unquoted backslash is a path separator, not bash's escape (`reg save HKLM\\SAM x`, which bash passes as
    `HKLMSAM`). None when no word reads differently."""
    out = None
    for i, a in enumerate(argv):
        raw = a.raw
        if "\\" in raw and raw != a.text and DYN not in a.text and not any(q in raw for q in "'\"$`"):
            if out is None:
                out = list(argv)
            out[i] = Arg(raw, raw, a.param, a.block, a.splat)
    return out


_OPTION_HEAD = 128
"""How much of a word the machine-option screens read: more than any option's name and its `=` or `:` (a
word cut shorter than its name could only be screened in, never out)."""
_OPTION_HEADS_FROM = 4096
"""Words joined longer than this are cut to their heads first."""


class PolicyTables:
    """Rules and command tables in the shape the evaluation needs (built once per `Policy`)."""

    def __init__(self, data: PolicyFile, rules: list[Rule]) -> None:
        self.rules = rules
        self.index: RuleIndex = build_index(rules, data.syntax)
        self.max_depth = data.max_depth
        self.aliases = {k.lower(): v.lower() for k, v in data.powershell_aliases.items()}
        self.command_valued = _name_matcher(data.command_valued_variables)
        self.code_loading = _name_matcher(data.code_loading_variables)
        self.credential_variables = _name_matcher(data.credential_variables)
        self.search_path = _name_matcher(data.search_path_variables)
        self.package_sources = _name_matcher(data.package_source_variables)
        self.package_source_defaults = frozenset(v.lower() for v in data.package_source_defaults)
        self.program_variables = _name_matcher(data.program_variables)
        self.options_variables = {k.upper(): v for k, v in data.options_variables.items()}
        self.connection_variables = _name_matcher(data.connection_variables)
        self.command_options = _option_matcher(data.command_options)
        """Options whose value a program runs as a command line (`--rsh`, `--*-cmd-prefix`), or None."""
        self.text_tools = frozenset(v.lower() for v in data.text_tools)
        self.file_tools = frozenset(v.lower() for v in data.file_tools) | self.text_tools
        """Programs whose words are data to them: neither code they run nor a command line (see `_handed`)."""
        self.code_host_files = globs(data.code_host_files)
        self.code_files = globs(data.code_files)
        self.program_files = globs(data.program_files)
        self.file_mark = required_mark([*data.code_host_files, *data.code_files, *data.program_files])
        """A character every name the three file lists match holds (see `required_mark`), or None."""
        self.library_options = _option_matcher(data.library_options)
        self.windows_programs = frozenset(n.lower() for n in data.windows_programs)
        self.runner_names, self.runner_globs = _runner_names(data)
        """Programs that run a command line or program given to them: shells, interpreters, wrappers."""
        self.handed_screen = HandedScreen(data, self.library_options)
        """A cheap search that finds every word `_words.WordChecks._handed_code` could act on."""
        self.locators = {
            d: [
                (rule, regex, spared | self.text_tools)
                for rule, regex, spared in self.index.locators.get(d, ())
            ]
            for d in _DIALECTS
        }
        """Per dialect, the locator rules with the programs each spares (its own list and the text tools)."""
        self._machine_options = {
            d: [regex.options for _, regex, _ in self.locators[d] if regex.options is not None]
            for d in _DIALECTS
        }
        self._machine_switches = {d: any(o.switches for o in self._machine_options[d]) for d in _DIALECTS}
        """Per dialect, whether an option of `_machine_options` is a Windows switch (`/node:srv`)."""
        self.pass_through = frozenset(v.lower() for v in data.pass_through)
        self.service_folders = frozenset(posixpath.normpath(f).casefold() for f in data.service_scripts)
        """Folders of init scripts (see `service_script`)."""
        self.argument_rules = {
            d: (self.index.arguments.get(d, []), self.index.argument_screen.get(d))
            for d in ("posix", "powershell", "cmd")
        }
        """Per dialect, the argument-wide rules and the screen their literal fragments make."""
        self.glob_paths = self.index.glob_paths
        """Per dialect, the path rules' globs that glob words are expanded against (see `_globbed`)."""
        self.wrappers: dict[str, list[WrapperSpec]] = {}
        for spec in data.wrappers.values():
            for name in spec.names:
                self.wrappers.setdefault(name.lower(), []).append(spec)
        self._info: dict[tuple[str, ...], NameInfo] = {}
        self.memo_limit = 4096
        """Bound on `clause_results` (words come from untrusted text); 0 turns the memo off."""
        self.clause_results: dict[tuple[object, ...], tuple[tuple[CompiledCommand, int, str], ...]] = {}
        """(dialect, names, *argv) of a command that no wrapper, pipe or `-exec` touches -> the clauses it
        hits. A clause sees only its `CommandView` (names, words, dialect and the names' syntax), so with
        nothing else set on the view its verdict is a pure function of this key; findings, events and the
        rest of the walk still run for every command."""
        self.word_screens: dict[tuple[object, ...], tuple[bool, tuple[str, ...]]] = {}
        """(dialect, names, *arguments) of a top-level command of literal words -> whether a word may
        matter beyond the program's clauses, and the joined words in which no argument-wide rule's fragment
        is (see `CompiledPolicy._word_screens`). Pure like `clause_results`, bounded and switched the same
        way: a dozen screens over the words cost a literal command more than its clauses."""
        self.payload_results: dict[tuple[str, str], tuple[str | None, tuple[str | None, ...]]] = {}
        """(language, payload) -> the text the payload patterns read (None: the screen rules them all out)
        and, per payload rule in order, the words its patterns hit (None: no hit), as far as a walk needed
        them. A pure function of the key like `clause_results`, bounded by `memo_limit` (and read only
        while it is on); python -c payloads cost a third of their check in these searches."""
        self.words: dict[str, dict[str, NameInfo]] = {"posix": {}, "powershell": {}, "cmd": {}}
        """Command word as written -> its `NameInfo`, per dialect: the hot path's single lookup."""
        self.shells: dict[str, ShellSpec] = {n.lower(): s for s in data.shells.values() for n in s.names}
        self.executors: dict[str, ExecutorSpec] = {}
        self.executor_globs: list[tuple[str, ExecutorSpec]] = []
        for spec in data.executors.values():
            for name in spec.names:
                if any(ch in name for ch in "*?["):
                    self.executor_globs.append((name.lower(), spec))
                else:
                    self.executors[name.lower()] = spec

    def machine_options(self, dialect: Dialect, texts: str) -> bool:
        """Could one of the words (joined by newlines) be an option whose value names a machine?"""
        if "-" not in texts and ("/" not in texts or not self._machine_switches[dialect]):
            return False  # no word written as an option: every screen below would say so
        if len(texts) > _OPTION_HEADS_FROM:
            # The screens read an option's name at the start of a word: a dozen of them each scanning a
            # long word that is no option cost more than the whole check of an everyday line.
            texts = "\n".join([w[:_OPTION_HEAD] for w in texts.split("\n") if w[:1] in ("-", "/")])
        return any(options.screen(texts) for options in self._machine_options[dialect])

    def is_runner(self, word: str) -> bool:
        """Is `word` (a name or a path) a shell, an interpreter or a wrapper, which runs what follows it?"""
        key = command_key(word)
        return key in self.runner_names or (
            self.runner_globs is not None and self.runner_globs.fullmatch(key) is not None
        )

    def word_info(self, word: str, dialect: Dialect, aliases: dict[str, str]) -> NameInfo:
        """`NameInfo` of a literal command word; `aliases` are the script's own `Set-Alias` definitions."""
        if aliases and dialect == "powershell":
            name = command_key(word)
            target = None if _EXTENSION.search(word) else aliases.get(name) or self.aliases.get(name)
            return self.info((name, target) if target else (name,))
        cache = self.words[dialect]
        found = cache.get(word)
        if found is None:
            name = command_key(word)
            # `sc.exe` names the program; only a bare `sc` is PowerShell's alias of Set-Content.
            aliased = dialect == "powershell" and not _EXTENSION.search(word)
            target = self.aliases.get(name) if aliased else None
            found = self.info((name, target) if target else (name,))
            if len(cache) < 65536:  # bounded: words come from untrusted text
                cache[word] = found
        return found

    def info(self, names: tuple[str, ...]) -> NameInfo:
        """Everything the policy knows about a command name (and its alias target), computed once per name."""
        found = self._info.get(names)
        if found is None:
            special = next(((n, SPECIAL[n]) for n in names if n in SPECIAL), None)
            clauses = tuple(self.index.commands_for(names))
            wrappers = tuple(spec for n in names for spec in self.wrappers.get(n, ()))
            shell = self.shells.get(names[0])
            executor = self.executor_for(names[0])
            writes = next((_WRITERS[n] for n in names if n in _WRITERS), "")
            paths = next(
                (
                    "cd" if n in CHANGE_DIRECTORY else "write"
                    for n in names
                    if n in CHANGE_DIRECTORY or n in WRITERS
                ),
                "",
            )
            found = NameInfo(
                names=names,
                clauses=clauses,
                wrappers=wrappers,
                shell=shell,
                executor=executor,
                special=special,
                writes_files=writes,
                inert=not (clauses or wrappers or shell or executor or special or writes or paths),
                syntax=self.index.syntax_for(names),
                acts=bool(wrappers or shell or executor or special or writes or paths),
                paths=paths,
                clause_table=clause_table(clauses),
                fed_clauses=tuple(c for c in clauses if c.fed_by),
            )
            if len(self._info) < 65536:  # bounded: names come from untrusted text
                self._info[names] = found
        return found

    def clause_hits(
        self, dialect: Dialect, info: NameInfo, argv: list[Arg]
    ) -> tuple[tuple[CompiledCommand, int, str], ...]:
        """The clauses `argv` hits when nothing but its words decides them (see `clause_results`)."""
        key = (dialect, info.names, *argv)
        hits = self.clause_results.get(key)
        if hits is None:
            view = CommandView(info.names, argv, dialect, info.syntax)
            view.windows_program = self.windows_program(dialect, argv[0].text, info.names)
            hits = matching_clauses(info.clauses, view, info.clause_table)
            # Bounded in size as in number: a few thousand long command lines would otherwise be kept whole.
            size = sum(len(a.raw) for a in argv)
            if len(self.clause_results) < self.memo_limit and size <= MEMO_WORDS_CHARS:
                self.clause_results[key] = hits
        return hits

    def service_script(self, word: str) -> str | None:
        """The service a program path names when it is an init script (`/etc/init.d/ssh` -> `ssh`), else
        None. Case is folded (stricter, as for command names) and the path normalised, so `/etc//init.d/./ssh`
        is one and `/etc/init.d/../../bin/rm` is not."""
        if word[:1] != "/" or DYN in word:
            return None
        path = "/" + posixpath.normpath(word.replace("\\", "/")).lstrip("/")  # `//etc` is `/etc` on Linux
        folder, _, name = path.rpartition("/")
        return name if name and folder.casefold() in self.service_folders else None

    def windows_program(self, dialect: Dialect, word: str, names: tuple[str, ...]) -> bool:
        """Is `word`, written in a POSIX shell, a program only Windows has (see `windows_programs`)?"""
        return dialect == "posix" and (names[0] in self.windows_programs or word[-4:].lower() == ".exe")

    def executor_for(self, name: str) -> ExecutorSpec | None:
        spec = self.executors.get(name)
        if spec is None and self.executor_globs:
            spec = next((s for pattern, s in self.executor_globs if fnmatch(name, pattern)), None)
        return spec
