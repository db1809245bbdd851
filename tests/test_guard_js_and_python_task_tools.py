"""Lines from JS monorepos' package.json scripts and Python task files (tox, nox, Makefiles).

- A test runner's or bundler's config outside the project is code nobody has reviewed, whatever its
  JavaScript/TypeScript extension: `.mts`, `.cts`, `.tsx`, `.jsx` and `.coffee` as `.ts` and `.js`
  (`vitest --config ../../e2e-common/vitest.config.mts`); a config inside the project stays allowed.
- Chromatic and Percy upload the Storybook or page snapshots to their hosted visual-review service.
  A package manager's `run SCRIPT WORDS` hands the words to the script: `npm run changeset publish`
  publishes as `pnpm changeset publish` does (`npm run changeset version` stays allowed).
- `pnpx` is `pnpm dlx`; Vite+'s `vp` runs a command (`vp exec`), fetches (`vp dlx`) and installs
  (`vp install`, `vp add`) as pnpm does; tachometer's `--force-clean-npm-install` installs.
- Python ASGI/WSGI development servers beside uvicorn: sanic, granian, litestar, `fastapi dev/run`,
  `quart run`.
- `wrangler dev` and `wrangler pages dev` run the worker on this machine unless told `--remote`.
- Pollers that only wait for a server on this machine (`wait-on http://localhost:3000`,
  `start-server-and-test dev http://127.0.0.1:3000 test`); typedoc's source-link template is link text,
  as hugo's `--baseURL` is.
- Publishing stays blocked whatever the registry, one on this machine too (`npm publish --registry
  http://localhost:4873`): a labelled attack sample publishes a compromised package to a local Verdaccio
  exactly so.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

OUTSIDE = "unverifiable.outside-program"
BLOCKED = [
    # 1. configs outside the project, every JS/TS extension
    ("posix", "cross-env PACKAGE=core vitest --config ../../e2e-common/vitest.config.mts --run", OUTSIDE),
    ("posix", "vitest --config ../x.cts", OUTSIDE),
    ("posix", "vite build --config ../x.mts", OUTSIDE),
    ("posix", "vite build --config ../x.cts", OUTSIDE),
    ("posix", "vitest -c ../utils/vitest.config.tsx", OUTSIDE),
    ("posix", "jest --config ../shared/jest.config.jsx", OUTSIDE),
    ("posix", "vitest --config ../x.ts", OUTSIDE),
    ("posix", "jest --config ../../e2e-common/jest-config.js", OUTSIDE),
    # 2. visual-review uploaders and publishing through `run SCRIPT`
    ("posix", "chromatic --exit-zero-on-changes", "network.remote-service"),
    ("posix", "npx chromatic", "network.remote-service"),
    ("posix", "yarn chromatic --project-token=x", "network.remote-service"),
    ("posix", "pnpm chromatic", "network.remote-service"),
    ("posix", "chromatic --project-token=x", "network.remote-service"),
    ("posix", "percy exec -- cypress run", "network.remote-service"),
    ("posix", "npx percy snapshot ./public", "network.remote-service"),
    ("posix", "npm run build && npm run changeset publish", "network.publish"),
    ("posix", "yarn run changeset publish", "network.publish"),
    ("posix", "pnpm run changeset publish", "network.publish"),
    ("posix", "npm run lerna publish from-package", "network.publish"),
    ("posix", "pnpm changeset publish", "network.publish"),
    # 3. fetching and installing spellings
    ("posix", "pnpx @better-auth/cli migrate", "network.package-install"),
    ("posix", "pnpx prettier --write .", "network.package-install"),
    ("posix", "cd tests && vp exec playwright install --with-deps", "network.package-install"),
    ("posix", "vp dlx sherif", "network.package-install"),
    ("posix", "vp install", "network.package-install"),
    ("posix", "vp i", "network.package-install"),
    ("posix", "vp add react", "network.package-install"),
    ("posix", "tach --force-clean-npm-install --config=test/benchmarks/scrollingBenchmarks.json",
     "network.package-install"),
    # 5. Python development servers
    ("posix", "cd guide && sanic server:app -r -R ./content -R ./style", "network.local-server"),
    ("posix", "sanic server.app --dev", "network.local-server"),
    ("posix", "python -m sanic x:app", "network.local-server"),
    ("posix", "granian --interface asgi app:app", "network.local-server"),
    ("posix", "litestar run", "network.local-server"),
    ("posix", "fastapi dev main.py", "network.local-server"),
    ("posix", "fastapi run", "network.local-server"),
    ("posix", "quart run", "network.local-server"),
    ("posix", "uvicorn app:app", "network.local-server"),
    # 6b. wrangler against the account
    ("posix", "wrangler dev --remote", "network.remote-service"),
    ("posix", "wrangler deploy", "network.remote-service"),
    ("posix", "wrangler pages deploy public", "network.remote-service"),
    # 7. pollers of another machine
    ("posix", "wait-on http://example.com", "network.locator"),
    ("posix", "start-server-and-test dev http://example.com:3000 test", "network.locator"),
    ("posix", "curl http://localhost:3000", "network"),
    # 9. publishing, a local registry too
    ("posix", "npm publish --registry https://registry.example.com", "network.publish"),
    ("posix", "npm publish --registry=http://localhost:4873", "network"),
    ("posix", "npm publish", "network.publish"),
    ("posix", "pnpm publish --registry=https://npm.example.com", "network.publish"),
]  # fmt: skip

ALLOWED = [
    # 1. configs inside the project
    ("posix", "vitest --config ./vitest.config.mts"),
    ("posix", "vitest --config vitest.config.cts --run"),
    ("posix", "vite build --config config/vite.config.mts"),
    # 2. versioning without publishing
    ("posix", "npm run changeset version"),
    ("posix", "npm run lerna version --no-push"),
    ("posix", "pnpm run changeset"),
    ("posix", "npm run build publish"),
    ("posix", "chromatic --version"),
    # 3. vp's local commands
    ("posix", "vp run build"),
    ("posix", "vp test"),
    ("posix", "vp build"),
    ("posix", "vp dev"),
    ("posix", "vp exec vitest run"),
    ("posix", "tach --config=test/benchmarks/scrollingBenchmarks.json"),
    # 5. server tools' information
    ("posix", "sanic --version"),
    ("posix", "fastapi --help"),
    ("posix", "granian --version"),
    # 6b. the worker run locally
    ("posix", "wrangler dev"),
    ("posix", "wrangler dev src/index.ts --port 8787"),
    ("posix", "wrangler pages dev public --port 3000 --kv CACHE -b ENVIRONMENT=development"),
    # 7. pollers of this machine, link templates
    ("posix", "wait-on http://localhost:3000"),
    ("posix", "wait-on tcp:3000"),
    ("posix", "wait-on http://127.0.0.1:8080/health && npm test"),
    ("posix", "start-server-and-test demo:serve http-get://localhost:5000 cypress:run"),
    ("posix", "start-server-and-test dev http://127.0.0.1:3000 test"),
    ("posix", "start-server-and-test dev 3000 test"),
    ("posix", "typedoc --sourceLinkTemplate https://github.com/o/r/blob/{gitRevision}/{path}#L{line}"),
    ("posix", "hugo --baseURL https://example.org/"),
    ("posix", "npm publish --dry-run"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_outside_configs_uploads_installs_and_servers_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_local_configs_servers_pollers_and_registries_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
