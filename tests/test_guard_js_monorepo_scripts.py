"""Clean and build steps of JavaScript and TypeScript monorepos: what their package scripts delete and run.

- A recursive delete (`rimraf`, `del-cli`, `rm -rf`) of a path whose name carries an extension only files
  carry (`rimraf mocha.js mocha.js.map`, `del-cli "lib/**/*.d.ts"`, `rm -rf *.tgz`) deletes that file, as
  `rm -f` would: allowed in the project, unless a folder there really is so named. Logs and notes
  (`rm -rf scan.log session.txt`: how tracks are covered), paths outside the project and a name the line
  moved something to first stay blocked.
- JavaScript builds' variants of `dist` and `lib` are named as build output (`dist-electron`, `.dist`,
  `test-dist`, `lib-esm`, `es`, `distribution`, `bundle`, the declarations `tsc --outDir types` emits,
  Playwright's reports, codegen's `__generated__`, frameworks' and deploy tools' folders such as `.solid`,
  `.expo`, `cdk.out`): git must still ignore them and track nothing in them. `**/node_modules/.cache/x`
  deletes inside the trees `**/node_modules` would.
- A workspace selector's delete (`pnpm -r exec rimraf dist`) runs in some of the project's folders, which
  ones unknown: a plain relative path named as build output or as a file is judged as the sweep of that
  name through the whole project (`**/dist`: git tracks nothing and keeps nothing untracked so named);
  anything else, a climb out or a run-time word still blocks.
- `$(yarn bin)/jest`, `"$(npm bin)/eslint"`, `$(npm root)/.bin/tsc` run the project's own programs: judged
  as `./node_modules/.bin/jest` is, by what the program does.
- Cloudflare's `wrangler types` writes types from the project's configuration, `--dry-run` bundles and
  uploads nothing, and `--local` works on the local stores `wrangler dev` uses; `--remote`, deploys and a
  database or bucket deleted whole reach the account. The Vercel and Netlify CLIs' short names (`vc`, `ntl`)
  are those CLIs.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import TEST_GIT, decide_in, guard_allows, guard_blocks

ALLOWED = [
    # files named by a recursive delete
    ("posix", "rimraf index.js index.js.map && tsc -p tsconfig.build.json"),
    ("powershell", "npx rimraf index.js.map dist-electron"),
    ("posix", "rm -rf ./*.d.ts ./*.d.ts.map"),
    ("posix", 'del-cli "esm/**/*.d.ts" "types/**/*.d.ts.map"'),
    ("posix", "rimraf my-widget.{js,js.map,d.ts} test/my-widget_test.{js,d.ts}"),
    ("posix", "rm -rf node_modules package-lock.json && echo cleaned"),
    ("posix", "rm -rf ./packages/*/*.tgz"),
    # JavaScript builds' output folders
    ("posix", "rimraf dist-electron release"),
    ("posix", "rm -rf .dist && rimraf tsconfig.tsbuildinfo"),
    ("posix", "rimraf lib-esm lib-cjs lib-es5 && babel src -d lib-esm"),
    ("posix", "rm -rf test-dist dist_tests && tsc -p tsconfig.test.json"),
    ("posix", "rimraf types && tsc --emitDeclarationOnly --outDir types"),
    ("posix", "del-cli distribution bundle"),
    ("posix", "rm -rf playwright-report blob-report test-results"),
    ("posix", "rimraf web-ext-artifacts component-built type-artefacts"),
    ("posix", "rimraf lib es dist && father build"),
    ("posix", "rm -rf .next .source .solid .nitro .expo && next build"),
    ("posix", "find src -name __generated__ -type d -prune -exec rm -rf {} +"),
    ("posix", "rm -rf cdk.out .aws-sam .serverless .webpack .rollup.cache"),
    ("posix", "rm -rf **/node_modules/.cache/babel-loader && vite build"),
    # a workspace selector's delete of build output
    ("posix", "pnpm -r exec rimraf dist .turbo"),
    ("posix", "pnpm --filter './packages/**' exec rm -rf node_modules"),
    ("posix", "yarn workspaces foreach -A exec rm -rf lib"),
    ("posix", "pnpm -r exec sh -c 'rm -rf dist .next'"),
    ("posix", "pnpm -r exec rm -rf *.tgz"),
    # the project's own programs
    ("posix", '"$(yarn bin)/tsc" -p .'),
    ("posix", "$(npm bin)/mocha --reporter dot test"),
    ("posix", '"$(npm root)/.bin/eslint" --ext .ts src'),
    ("posix", "$(pnpm bin)/vitest run"),
    # wrangler on the project alone
    ("posix", "wrangler types"),
    ("posix", "pnpm wrangler types --env-interface Env worker-configuration.d.ts && tsc --noEmit"),
    ("posix", "wrangler deploy --dry-run --outdir=dist"),
    ("posix", "npx wrangler d1 migrations apply DB --local"),
    ("posix", "wrangler d1 execute DB --local --file=./schema.sql"),
    ("posix", "vc --version"),
    ("posix", "ntl --help"),
]

BLOCKED = [
    # not a named file, or not in the project
    ("posix", "rimraf src index.js", "destructive.recursive-delete"),
    ("posix", "rm -rf ../other/index.js", "destructive.recursive-delete"),
    ("posix", "rimraf ~/.config/app/settings.json", "destructive.recursive-delete"),
    ("posix", "rm -rf scan.log session.txt", "destructive.recursive-delete"),
    ("posix", "mv src app.js && rimraf app.js", "destructive.recursive-delete"),
    ("posix", "rimraf Demo.app", "destructive.recursive-delete"),
    ("powershell", "rmdir /s /q vendor.js", "destructive.recursive-delete"),  # removes folders only
    # named like output, but no output name
    ("posix", "rimraf distro", "destructive.recursive-delete"),
    ("posix", "rm -rf lib-utils typescript", "destructive.recursive-delete"),
    ("posix", "rm -rf **/src/components", "destructive.recursive-delete"),
    ("posix", "rm -rf **/node_modules/../src", "destructive.recursive-delete"),
    ("posix", "rm -rf ~/.nx ~/.expo", "destructive.recursive-delete"),
    # a workspace selector's delete of anything else
    ("posix", "pnpm -r exec rm -rf src", "destructive.recursive-delete"),
    ("posix", "pnpm -r exec rimraf dist docs", "destructive.recursive-delete"),
    ("posix", "pnpm -r exec rm -rf ../../src", "destructive.recursive-delete"),
    ("posix", "pnpm -r exec rm -rf dist/../src", "destructive.recursive-delete"),
    ("posix", "yarn workspaces foreach -A exec rm -rf ~/dist", "destructive.recursive-delete"),
    # the project's own programs, judged by what they do
    ("posix", "$(npm bin)/lerna publish from-package --yes", "network.publish"),
    ("posix", '"$(yarn bin)/rimraf" src', "destructive.recursive-delete"),
    ("posix", "$(cat .bindir)/jest", "dynamic.command-name"),
    ("posix", "bash -c '$(npm bin)/eslint .'", "dynamic.command-name"),
    # wrangler reaching the account
    ("posix", "wrangler types --remote", "network.remote-service"),
    ("posix", "pnpm wrangler deploy", "network.remote-service"),
    ("posix", "wrangler d1 delete dev-db --local", "network.remote-service"),
    ("posix", "wrangler d1 execute DB --local --remote --command 'DROP TABLE x'", "network.remote-service"),
    ("posix", "wrangler kv key put k v --binding CACHE", "network.remote-service"),
    # the Vercel and Netlify CLIs by their short names
    ("posix", "npm run build && vc --prod --yes", "network.remote-service"),
    ("posix", "pnpm vc deploy --prebuilt", "network.remote-service"),
    ("posix", "ntl deploy --prod --dir=dist", "network.remote-service"),
]


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_monorepo_clean_and_build_steps_are_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(("shell", "command", "rule"), BLOCKED)
def test_their_twins_stay_blocked(shell: str, command: str, rule: str) -> None:
    guard_blocks(shell, command, rule)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git project with a tracked `types/` folder, a folder named like a file, and ignored output."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("mono")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("dist-electron/\n*.tgz\nvendor.js/\n")
    (root / "types").mkdir()
    (root / "types" / "globals.d.ts").write_text("declare const VERSION: string;\n")  # hand-written
    (root / "index.js").write_text("module.exports = 1;\n")
    (root / "actions" / "dist").mkdir(parents=True)
    (root / "actions" / "dist" / "index.js").write_text("bundled\n")  # a GitHub Action commits its build
    subprocess.run([*TEST_GIT, "add", ".gitignore", "types", "index.js", "actions"], cwd=root, check=True)
    subprocess.run([*TEST_GIT, "commit", "-qm", "init"], cwd=root, check=True)
    (root / "dist-electron").mkdir()
    (root / "dist-electron" / "main.js").write_text("built\n")
    (root / "app-1.0.0.tgz").write_text("packed\n")
    (root / "vendor.js").mkdir()  # a folder named like a file, holding work
    (root / "vendor.js" / "notes.md").write_text("the user's notes\n")
    return root


@pytest.mark.parametrize(
    "command",
    [
        "rimraf dist-electron",
        "rm -rf *.tgz app-1.0.0.tgz",
        "rimraf index.js.map",
        "rm -rf index.js",  # a tracked file deleted by name: git has it, as after `rm index.js`
        "pnpm -r exec rimraf lib .turbo",  # in some of the project's folders: no `lib` or `.turbo` kept
        "pnpm --filter web exec rm -rf node_modules *.tgz",
        "yarn workspaces foreach -A exec rm -rf lib dist-electron",
    ],
)
def test_in_a_project_output_and_named_files_are_spared(repo: Path, command: str) -> None:
    decision = decide_in(command, repo)
    assert decision.allowed, f"{command}: {decision.rule_id} ({decision.reason})"


@pytest.mark.parametrize(
    "command",
    [
        "rimraf types",  # named as output, but tracked: the user's declarations
        "rimraf vendor.js",  # a folder, whatever its name says
        "rm -rf ./vendor.js dist-electron",
        "pnpm -r exec rm -rf src",
        "pnpm -r exec rimraf dist",  # one of the folders it runs in may be `actions`: its `dist` is tracked
        "pnpm -r exec rm -rf ../../types",  # a climb out counts from the root: the tracked `types/`
    ],
)
def test_in_a_project_tracked_trees_and_folders_named_like_files_are_kept(repo: Path, command: str) -> None:
    decision = decide_in(command, repo)
    assert not decision.allowed and decision.rule_id == "destructive.recursive-delete", command
