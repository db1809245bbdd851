"""Whether a file a command would overwrite, or a tree it would delete, holds anything nobody can get back:
read from the disk and git.

`> file`, `tee file` and `Out-File file` replace what the file held. That destroys work only when the file
holds something: a file that does not exist yet, an empty one, or generated output git is told to ignore (and
does not track) can be written again without loss. Anything else, in particular a tracked file with content
or an untracked one that may be the user's unsaved work, is kept. Every doubt keeps the file: a link on the
way, a folder that leads outside the working directory, a special file, git missing or slow.

`rm -rf build`, `rimraf coverage` and `Remove-Item .\bin -Recurse` delete a whole tree. That loses nothing
only for build output, which needs two signs: git ignores the tree and tracks nothing in it, and it lies in a
folder named as build output (`build/`, `dist/`, `bin/`, `obj/`, `coverage/`, `*.egg-info`). Ignored alone is
not enough: `.env`, a local database or a downloaded data set are ignored too, and nobody can rebuild them.
A tree named as build output that does not exist yet (`rm -rf htmlcov` on a fresh checkout) loses nothing. A
glob (`rm -rf *.egg-info`) loses what the files it names now would, and nothing when it names none.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Collection
from typing import Protocol

from ._globbed import NAME_MAX, glob_regex_source, glob_units, maybe_glob
from ._handed import last_part
from ._lazy import lazy_re
from ._syntax import Arg

GIT_LOOKUPS = 4
"""Files of one command line git is asked about at most; later ones are kept (a check stays fast)."""
GIT_TIMEOUT = 2.0
"""Seconds one git call may take before the file is kept."""
GLOB_MATCHES = 8
"""Files a glob target (`> dist/*.sha256`, `rm -rf *.egg-info`) may match; past it every one is kept."""
GLOB_ENTRIES = 2000
"""Entries of a folder read to match a glob target; a larger folder keeps every file."""
GLOB_FOLLOWED = 64
"""Folders a wildcard folder of a glob target names (`packages/*/dist`) looked into; past it every file is
kept."""
GLOB_FOLDERS = 4
"""Folders one command line may have read for its glob targets; past it every file is kept."""
GLOB_TARGETS = 8
"""Glob targets of one command line matched against a folder; past it every file is kept."""

OUTPUT_FOLDERS = frozenset(
    {
        "build", "builds", "dist", "out", "output", "bin", "obj", "target", "coverage", "htmlcov",
        ".nyc_output", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox", ".nox",
        "node_modules", ".next", ".nuxt", ".turbo", ".parcel-cache", ".svelte-kit", "_build", "site",
        "testresults", "test-results", "test_results", "artifacts", "release", "debug", "cmake-build-debug",
        "cmake-build-release", ".gradle", ".eggs", "wheelhouse", "_site", "public", "lib", "tmp", "temp",
        "_tmp", ".tmp",
        "zig-out", ".zig-cache", "zig-cache", "dist-newstyle", ".stack-work", ".hpc", ".build", ".dart_tool",
        ".angular", ".cache", ".godot", "out-tsc", "ipch", ".venv", "venv", ".hypothesis",
        "cache", ".jekyll-cache", ".sass-cache", ".swc", ".docusaurus", ".vite", "storybook-static",
        "generated", "gen", "_install", "dev-dist", "elm-stuff", "benchmarkdotnet.artifacts", ".open-next",
        ".quarto", ".coverage", ".terraform", "packer_cache", ".yardoc", ".phpunit.cache", "coverage.out",
        "cover.out", "auto_examples", "gen_modules", "_autosummary", "esm", "cjs", "umd", "_esm", "_cjs",
        "compiled", "_output", "built",
        "pip-wheel-metadata", "publish", ".cask", ".eask", ".eldev", ".deps", ".cpcache", "coverage.json",
        "coverage.xml", "coverage-final.json", "lcov.info", "coverage.lcov", "cobertura.xml", ".tmp_versions",
        "module.symvers", "modules.order", "module.markers", ".eslintcache", ".stylelintcache",
        ".prettiercache", ".ipynb_checkpoints", ".vs", ".react-router", ".output", ".astro", ".contentlayer",
        ".vinxi", ".tanstack", "dbt_packages", "cmakefiles", "cmakecache.txt", "__pypackages__", "reports",
        "test-reports", "nimcache", "deriveddata", "_esy", "_opam", "cover", "_minted", "_bookdown_files",
        "_book", "jupyter_execute", "svg-inkscape", ".dist", "distribution", "bundle", "bundles", "types",
        "es", "playwright-report", "blob-report", "__generated__", ".solid", ".source", ".nitro", ".expo",
        ".vercel", ".netlify", ".wrangler", ".webpack", ".serverless", ".aws-sam", "cdk.out",
        ".rollup.cache", ".pnpm-store", ".nx", "pkg", "blib", "cover_db", "nytprof", "deps", "vendor",
        "lua_modules", "doc", ".elixir_ls", ".php-cs-fixer.cache", ".php_cs.cache", ".phpunit.result.cache",
        ".spago", ".psci_modules", "output-es", ".dub", "pods", "ebin", "_coverage", "htmldocs",
    }
)  # fmt: skip
"""Folder names build tools write their output to (compared in lower case); with `.egg-info` names and built
`.egg`s, coverage.py's `.coverage` data file (and its parallel runs' `.coverage.HOST.PID…`), the coverage
profiles Go's and LLVM's test runs write (`coverage.out`, `*.coverprofile`, `*.profraw`), the debug symbols
a macOS link writes (`x.dSYM`), and the output folders of one configuration, sanitizer, toolchain or target
(`build-debug`, `build-asan`, `build_clang`, `out_x64`, `cmake-build-asan`, Meson's `builddir`), what
`R CMD check` writes (`pkg.Rcheck`), Visual Studio's per-solution state (`.vs`: user options and caches,
never committed), what web frameworks generate into the project (React Router's and Astro's types,
Nitro's `.output`, Contentlayer's, Vinxi's and TanStack's caches), dbt's installed `dbt_packages`, what CMake
configures in the folder it is run from (`CMakeFiles`, `CMakeCache.txt`), PDM's local packages
(`__pypackages__`, as `node_modules`), the folders test runs write reports to (`reports`, `test-reports`),
TypeScript's and bundlers' `compiled`, `_esm` and `_cjs`, Nim's `nimcache`, Xcode's `DerivedData`, esy's
`_esy` and an opam local switch's `_opam` (installed packages, as `node_modules`), Elixir's `cover` (what `mix
test --cover` writes), minted's `_minted` (and one job's `_minted-main`), bookdown's `_bookdown_files` and
`_book`, myst-nb's `jupyter_execute`, LaTeX's `svg-inkscape` (what the svg package has Inkscape convert),
Ruby's, Perl's, Elixir's, PHP's and Lua's build and install output (Bundler's gem `pkg`, MakeMaker's `blib`,
Devel::Cover's `cover_db`, NYTProf's `nytprof`, Mix's `deps`, Composer's and Bundler's `vendor`, LuaRocks'
`lua_modules`, the `doc` YARD, RDoc and ExDoc generate, ElixirLS's `.elixir_ls`, PHP CS Fixer's and
PHPUnit's result caches), PureScript's installed `.spago`, its REPL's `.psci_modules` and the `output-es` of
its ES backend, D's `.dub`, CocoaPods' installed `Pods`, Erlang's compiled `ebin`, bisect_ppx's `_coverage`
and the `htmldocs` `nim doc` writes;
the `gen` folder code generators write to (`buf generate`, `protoc --go_out=gen`, `openapi-generator -o gen`);
protoc's and jsonnet's `*_out` output folders (`js_out`, `dashboards_out`: the `--js_out=` convention), the
coverage and JUnit reports test runs write (`coverage-unit.xml`, `junit.xml`, `junit-py312.xml`), and
JavaScript builds' variants of `dist` and `lib` (`.dist`, `dist-electron`, `dist_tests`, `test-dist`,
`component-built`, `web-ext-artifacts`, `lib-es5`, `lib-esm`, the `es` modules beside `lib`;
`distribution`, `bundle`, the declarations `tsc --outDir types` emits), Playwright's `playwright-report`
and `blob-report`, GraphQL and Relay codegen's `__generated__`, what JavaScript frameworks, deploy tools
and caches keep in the project (SolidStart's `.solid`, Fumadocs' `.source`, Nitro's `.nitro`, Expo's
`.expo`, Vercel's, Netlify's and wrangler's local state, Electron Forge's `.webpack`, Serverless' and SAM's
packages, `cdk.out`, Rollup's `.rollup.cache`, a local `.pnpm-store`, Nx's `.nx`) and any `*.cache` file."""
_CONFIGURED_OUTPUT = lazy_re(
    r"(?:(?:build|out|bin|obj)[-_.](?:debug|release|relwithdebinfo|minsizerel|x64|x86|arm64|win32|win64|dbg|rel"
    r"|(?:[almt]|ub)san|sanitize|coverage|cov|gcc|clang|msvc|mingw|ninja|static|shared|wasm|emscripten|aarch64"
    r"|i386|amd64|linux|macos|windows|win|ios|android)|_?builddir"
    r"|cmake-build-[\w.-]+|_minted-[\w.-]+|\.coverage\..+|[\w.-]+\.rcheck|[a-z0-9]+(?:[-.][a-z0-9]+)*_out"
    r"|coverage[-_.][\w.-]+\.(?:xml|json|lcov|info)|junit(?:[-_.][\w.-]+)?\.xml"
    r"|(?:mac|macos|osx|linux|win|win32|win64|windows|ios|android|wasm|web|arm64|x64|x86)[-_]build"
    r"|dist[-_][\w.-]+|[\w.-]+[-_](?:dist|built|artifacts|artefacts)|lib[-_](?:es\d*|esm|cjs|umd|commonjs|module))\Z"
)


_OUTPUT_SUFFIXES = (
    ".egg-info", ".egg", ".tsbuildinfo", ".dsym", ".coverprofile", ".profraw", "_cache", "-cache", "-tmp",
    "_tmp", ".cache",
)  # fmt: skip
"""Endings of output folder and file names (see `is_output_folder`)."""
_OUTPUT_PREFIXES = ("tmp_", "tmp-")
"""Beginnings of scratch folder names (`tmp_sphinx`, `tmp-build`; see `is_output_folder`)."""


def is_output_folder(name: str) -> bool:
    """Is a folder name (in lower case) one build tools write their output to (see `OUTPUT_FOLDERS`), a
    tool's cache (`.mypy_cache`, `.parcel-cache`: any `*_cache` or `*-cache`, so `rm -rf .*_cache` too) or
    scratch folder (`ffmpeg-tmp`, `tmp_sphinx`: any `*-tmp`, `*_tmp`, `tmp-*` or `tmp_*`), or a file only a
    build writes (`tsconfig.tsbuildinfo`, TypeScript's incremental state)?"""
    return (
        name in OUTPUT_FOLDERS
        or name.endswith(_OUTPUT_SUFFIXES)
        or name.startswith(_OUTPUT_PREFIXES)
        or _CONFIGURED_OUTPUT.match(name) is not None
    )


_FILE_NAMED = lazy_re(
    r"[^/\\]*[^/\\.]\.(?:[cm]?[jt]sx?|map|json5?|jsonc|html?|css|s[ac]ss|less|styl|svg|png"
    r"|jpe?g|gif|webp|ico|ya?ml|toml|lock|wasm|node|tgz|gz|tar|zip|xpi|vsix|crx|snap|pyc|o|a|so"
    r"|dylib|dll|exe|pdb|class|jar|whl|tsbuildinfo)",
    re.IGNORECASE,
)
"""A path whose last name has an extension only files carry (`mocha.js.map`, `index.d.ts`, `*.tgz`): what a
recursive delete of it removes is that file, as `rm -f` would, unless a folder is really so named. Extensions
folders carry (`x.app`, `conf.d`, `x.xcodeproj`, `x.egg-info`) are not among them, nor those of logs and
notes (`scan.log`, `session.txt`: a recursive delete of those is how tracks are covered)."""


def names_a_file(text: str) -> bool:
    """Does a delete's target name a file by its extension (see `_FILE_NAMED`), not a folder (`dist/`)?"""
    # The last name only: searching the whole path tried each of its folders (thousands in a long word).
    return _FILE_NAMED.fullmatch(last_part(text)) is not None


SWEPT_PATTERNS = 16
"""Start folders times names one `find` sweep of build output may have for git to be asked about it."""


def _glob_escaped(path: str) -> str:
    """A literal folder path as a git glob pathspec matches it (its wildcards escaped)."""
    return re.sub(r"([*?\\[\]])", r"\\\1", path)


class ProjectFiles(Protocol):
    """What overwriting a file, or deleting a tree, in the working directory would lose."""

    def state(self, relative: str) -> str | None: ...

    def removable(self, relatives: list[str]) -> bool: ...

    def matching(self, pattern: str) -> list[str] | None:
        """The files a glob names now (None: unknown, so every one is kept)."""
        ...

    def swept(self, starts: list[str], names: list[str], icase: bool) -> bool:
        """Whether deleting every file or tree called one of `names` (`find` patterns, of build output)
        below each of `starts` (folders, "" for the working directory) loses nothing: git tracks nothing
        so named there and keeps nothing untracked (not ignored) under such a name."""
        ...

    def folder(self, relative: str) -> bool:
        """Whether `relative` is a folder in the working directory, reached through no link (False when
        not known: it may then be a file)."""
        ...

    def no_folder(self, relative: str) -> bool:
        """Whether a recursive delete of `relative` (named as a file, `names_a_file`) removes at most that one
        file: nothing is there, or a file or link is (not a folder), below folders inside the working
        directory."""
        ...


def distinct(parts: list[str]) -> Collection[str]:
    """`parts`, each once when they are many (a path thousands of folders deep, `a/b/a/b/…`)."""
    return parts if len(parts) < 16 else set(parts)


def _output_path(parts: list[str]) -> bool:
    """Does a path (its parts, `.`/`..` refused) lie in a folder named as build output?"""
    if not parts or "." in parts or ".." in parts:
        return False  # `dist/../src`: Windows resolves it by its text, whatever exists
    return any(is_output_folder(p.lower()) for p in distinct(parts))


def names_workspace_output(text: str, files: bool = True) -> bool:
    """Is `text` a plain relative path (no `..`, no run-time word) named as build output or as a file
    (`dist`, `node_modules`, `./packages/*/lib`, `x.tgz`; not as a file with `files` False, for a delete of
    folders only)? What a workspace selector's delete of one removes is judged as the sweep of that name
    through the whole project: which of the project's folders it runs in is unknown."""
    path = text.replace("\\", "/")
    if not path or path[0] in "/~$%" or "\x00" in path or ":" in path:
        return False
    parts = [p for p in path.split("/") if p not in ("", ".")]
    return _output_path(parts) or (files and ".." not in parts and names_a_file(path))


def names_output(argv: list[Arg]) -> bool:
    """Does any word of a command name a folder as build output (`build`, `./dist/*`)? Without one, no
    delete it makes can be spared in a fresh checkout."""
    for a in argv[1:]:
        for part in distinct(a.text.lower().replace("\\", "/").split("/")):
            if is_output_folder(part):
                return True
    return False


class FreshCheckout:
    """The working directory when the caller did not say which (`Policy.check(cmd, shell)`): a fresh checkout
    of a project, where nothing a command line names exists yet. A file written there is new, and a tree
    named as build output is not there to lose; the disk and git are never asked (the place is unknown).
    Everything else is judged as anywhere: a tree not named as output, a file the line reads or writes
    first, a statement that writes nothing, anything outside."""

    __slots__ = ()

    def state(self, relative: str) -> str | None:
        return "new"

    def removable(self, relatives: list[str]) -> bool:
        return bool(relatives) and all(_output_path([p for p in r.split("/") if p]) for r in relatives)

    def matching(self, pattern: str) -> list[str] | None:
        # A checkout holds the project's files, which a glob names; only build output is not there yet.
        return [] if _output_path([p for p in pattern.split("/") if p]) else None

    def swept(self, starts: list[str], names: list[str], icase: bool) -> bool:
        return True  # every name is build output's, which a fresh checkout does not hold yet

    def folder(self, relative: str) -> bool:
        return False

    def no_folder(self, relative: str) -> bool:
        return True  # a name only files carry names a file of the checkout, or nothing


class KeptFiles:
    """A working directory where every file holds work and no tree is build output: what a rule's examples
    are proven in, so that an example shows what the rule reaches, not what some project would spare."""

    __slots__ = ()

    def state(self, relative: str) -> str | None:
        return None

    def removable(self, relatives: list[str]) -> bool:
        return False

    def matching(self, pattern: str) -> list[str] | None:
        return None

    def swept(self, starts: list[str], names: list[str], icase: bool) -> bool:
        return False

    def folder(self, relative: str) -> bool:
        return False

    def no_folder(self, relative: str) -> bool:
        return False


_SHALLOW_PARTS = 32
"""Paths of up to this many parts are resolved by `os.path.realpath` as they are."""


def real_path(path: str) -> str:
    """`os.path.realpath(path)` for an absolute `path`, without a lookup per part below the first part that
    does not exist when it and all after it are plain names (no `.`, `..` or empty part): nothing below a
    missing folder exists, so realpath would find each missing and keep its name, one system call each
    (30,000 parts took 200 ms)."""
    parts = path.split("/")
    if os.name != "posix" or len(parts) <= _SHALLOW_PARTS or parts[0]:
        return os.path.realpath(path)
    for end in range(2, len(parts) + 1):
        if not os.path.lexists("/".join(parts[:end])):
            break
    else:
        return os.path.realpath(path)
    rest = parts[end - 1 :]  # (the missing name too: realpath reads `..` after a file as a step back)
    if any(p in ("", ".", "..") for p in rest):
        return os.path.realpath(path)
    return "/".join([os.path.realpath("/".join(parts[:end])), *rest[1:]])


class ReplaceableFiles:
    """The files under one working directory that a command line may overwrite without loss."""

    __slots__ = ("_asked", "_folders", "_globs", "_listed", "_real_root", "_removable", "root")

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        self._real_root = os.path.realpath(self.root)
        self._asked = 0
        self._removable: dict[tuple[str, ...], bool] = {}  # asked again by each clause of a rule it matches
        self._folders: dict[str, bool] = {}
        """Folder -> whether it really lies in the working directory (links resolved), asked once each."""
        self._listed: dict[str, tuple[str, ...] | None] = {}
        """Folder -> its names, for glob targets (see `matching`)."""
        self._globs = 0

    def state(self, relative: str) -> str | None:
        """What overwriting the file at `relative` (inside the working directory, `/`-separated) loses:
        nothing, because it is "new", "empty" or "ignored" output; None when it must be kept."""
        path = os.path.join(self.root, *[p for p in relative.split("/") if p])
        folder = os.path.dirname(path)
        inside = self._folders.get(folder)
        if inside is None:
            real, root = real_path(folder), self._real_root
            inside = real == root or real.startswith(root.rstrip(os.sep) + os.sep)
            self._folders[folder] = inside
        if not inside:
            return None  # a link on the way leads out of the working directory
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return "new"
        except OSError:
            return None
        if not stat.S_ISREG(info.st_mode):
            return None  # a link, a folder, a device: keep it
        if info.st_size == 0:
            return "empty"
        return "ignored" if self._ignored(relative) else None

    def folder(self, relative: str) -> bool:
        path = os.path.join(self.root, *[p for p in relative.split("/") if p])
        real = real_path(path)
        expected = os.path.join(self._real_root, *[p for p in relative.split("/") if p])
        return real == expected and os.path.isdir(real)

    def no_folder(self, relative: str) -> bool:
        path = os.path.join(self.root, *[p for p in relative.split("/") if p])
        real = real_path(os.path.dirname(path))
        if real != self._real_root and not real.startswith(self._real_root.rstrip(os.sep) + os.sep):
            return False  # a link on the way leads out of the working directory
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return True
        except OSError:
            return False
        return stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode)

    def matching(self, pattern: str) -> list[str] | None:
        """The files a glob that a line writes or deletes (`dist/*.tar.gz.sha256`, relative, `/`-separated)
        names now, as the shell expands it (a leading wildcard skips dot-files; case is ignored, as Windows
        and macOS do, which can only name more; one wildcard folder before literal names, `packages/*/dist`,
        is followed into the folders it names; with more wildcards after it, `packages/*/*.tgz`, it names
        nothing when that folder names none); None when that is not known cheaply: more wildcards than
        that, `**`, a folder too large, or too many matches."""
        folder, _, last = pattern.rpartition("/")
        if not last or self._globs >= GLOB_TARGETS:
            return None
        rest = ""
        deeper = False
        if maybe_glob(folder):
            # `packages/*/dist`, `*/node_modules`: one wildcard folder, then literal names; what each folder
            # it names holds there (`**`, which globstar makes any depth, is not followed)
            parts = folder.split("/")
            at = next(i for i, part in enumerate(parts) if maybe_glob(part))
            if "**" in parts[at]:
                return None
            deeper = maybe_glob("/".join(parts[at + 1 :])) or maybe_glob(last)
            folder, last, rest = "/".join(parts[:at]), parts[at], "/".join([*parts[at + 1 :], last])
        self._globs += 1
        names = self._listing(folder)
        if names is None:
            return None
        if glob_units(last) > NAME_MAX:
            return []  # longer than any name a folder holds: no expression is made of it
        match = re.compile(glob_regex_source(last), re.IGNORECASE).match
        hidden = last[:1] == "."
        found = [
            f"{folder}/{name}" if folder else name
            for name in names
            if (hidden or name[:1] != ".") and match(name)
        ]
        if deeper:
            return [] if not found else None  # `packages/*/*.tgz` with no folder `packages/*` names: nothing
        if rest:
            if len(found) > GLOB_FOLLOWED:
                return None
            found = [f"{f}/{rest}" for f in found if os.path.lexists(os.path.join(self.root, f, rest))]
        return found if len(found) <= GLOB_MATCHES else None

    def _listing(self, folder: str) -> tuple[str, ...] | None:
        """The names in a project folder (none when it does not exist), read once a line; None when it is
        too large, unreadable, or one folder too many."""
        if folder in self._listed:
            return self._listed[folder]
        names: tuple[str, ...] | None = None
        if len(self._listed) < GLOB_FOLDERS:
            path = os.path.join(self.root, *[p for p in folder.split("/") if p])
            try:
                with os.scandir(path) as entries:
                    found = []
                    for entry in entries:
                        if len(found) >= GLOB_ENTRIES:
                            break
                        found.append(entry.name)
                    else:
                        names = tuple(found)
            except FileNotFoundError:
                names = ()
            except OSError:
                pass
        self._listed[folder] = names
        return names

    def _ignored(self, relative: str) -> bool:
        """Does git ignore the file and not track it (generated output: `coverage.lcov`, `build/`)?"""
        if self._asked >= GIT_LOOKUPS:
            return False
        self._asked += 1
        done = self._git(["check-ignore", "-q", "--", relative])
        return done is not None and done[0] == 0

    def removable(self, relatives: list[str]) -> bool:
        """Whether deleting each file or tree at `relatives` (inside the working directory, `/`-separated)
        loses nothing: build output git ignores and tracks nothing in (see the module). A path that does
        not exist loses nothing (a clean step run twice, or on a fresh checkout)."""
        key = tuple(relatives)
        known = self._removable.get(key)
        if known is None:
            known = self._removable[key] = self._removable_now(relatives)
        return known

    def _removable_now(self, relatives: list[str]) -> bool:
        existing: list[str] = []
        asked: list[str] = []
        for relative in relatives:
            parts = [p for p in relative.split("/") if p]
            if not _output_path(parts):
                return False
            path = os.path.join(self.root, *parts)
            real = real_path(path)
            if real != os.path.abspath(path) or not real.startswith(self._real_root.rstrip(os.sep) + os.sep):
                return False  # a link on the way or at the end: what it leads to is not judged here
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                continue
            except OSError:
                return False
            name = "/".join(parts)
            if stat.S_ISDIR(info.st_mode):
                asked.append(name + "/")
            elif stat.S_ISREG(info.st_mode):
                asked.append(name)
            else:
                return False
            existing.append(name)
        if not relatives:
            return False
        if not existing:
            return True
        if self._asked + 2 > GIT_LOOKUPS:
            return False
        self._asked += 2
        ignored = self._git(["check-ignore", "-z", "--stdin"], "\0".join(asked))
        if ignored is None:
            return False
        shown = {p.rstrip("/") for p in ignored[1].split("\0") if p}
        if any(p not in shown for p in existing):
            return False
        tracked = self._git(["ls-files", "-z", "--", *existing])
        return tracked is not None and tracked == (0, "")

    def swept(self, starts: list[str], names: list[str], icase: bool) -> bool:
        """See `ProjectFiles.swept`: two questions to git, each a pathspec per start and name (`dist`
        anywhere below `packages`: `packages/**/dist` and what is under it)."""
        if not starts or len(starts) * len(names) > SWEPT_PATTERNS or self._asked + 2 > GIT_LOOKUPS:
            return False
        magic = ":(glob,icase)" if icase else ":(glob)"
        specs: list[str] = []
        for start in starts:
            path = os.path.join(self.root, *[p for p in start.split("/") if p])
            real = real_path(path)
            if real != os.path.abspath(path) or not (real + os.sep).startswith(
                self._real_root.rstrip(os.sep) + os.sep
            ):
                return False  # a link on the way: what it leads to is not judged here
            top = f"{_glob_escaped(start.strip('/'))}/" if start.strip("/") else ""
            for name in names:
                specs += [f"{magic}{top}**/{name}", f"{magic}{top}**/{name}/**"]
        self._asked += 2
        for extra in ([], ["--others", "--exclude-standard"]):
            listed = self._git(["ls-files", "-z", *extra, "--", *specs])
            if listed is None or listed != (0, ""):
                return False
        return True

    def _git(self, args: list[str], given: str | None = None) -> tuple[int, str] | None:
        """(exit status 0 or 1, output) of `git ARGS` in the working directory, `given` on its input; None
        when it failed. git gets glmagent's own git environment: no secrets, no global config, no program a
        repository names."""
        # Only here: a check that asks git nothing does not pay for these imports.
        import subprocess

        from glmagent.tools.git import git_environment

        try:
            done = subprocess.run(
                ["git", *args],
                cwd=self.root,
                env=git_environment(()),
                input=(given or "").encode("utf-8", "surrogateescape"),
                capture_output=True,
                timeout=GIT_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        if done.returncode not in (0, 1):
            return None
        return done.returncode, done.stdout.decode("utf-8", "replace")
