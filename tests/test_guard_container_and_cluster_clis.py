"""Container and cluster command lines, as Makefiles, justfiles and CI steps write them and as cloud-native
attack write-ups do.

A container exec is judged by what it runs also when the program's own options come before `exec`
(`docker compose -f ci.yml exec api sh`) or it is spelled `docker container exec`. Helm's short names
(`helm dep up`, `helm un`) act as the long ones. Cluster deploy tools given global options before their
command still deploy (`tilt --port 10351 up`). Local cluster managers, kubeconfigs printed or merged, image
builds and pod runs that pull, and the companion clients of the live cluster are blocked; rendering,
linting files on disk, listing and printing a bake definition stay allowed.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    # container exec reached past the program's own options before its subcommand, and the management
    # command's spelling of it: what runs inside is judged (an interactive shell, a dump of the environment)
    ("posix", "docker compose -f docker-compose.ci.yml exec api sh", "unverifiable.terminal-program"),
    (
        "posix",
        "docker compose --profile dev -f compose.yaml exec worker bash",
        "unverifiable.terminal-program",
    ),
    ("posix", "docker-compose -f compose.prod.yml exec web bash -il", "unverifiable.terminal-program"),
    ("posix", "podman compose --env-file .env.test exec db bash", "unverifiable.terminal-program"),
    ("posix", "docker --log-level error exec -it api sh", "unverifiable.terminal-program"),
    ("posix", "docker container exec -it api bash", "unverifiable.terminal-program"),
    ("posix", "podman container exec -it db sh", "unverifiable.terminal-program"),
    ("posix", "nerdctl container exec -it web sh", "unverifiable.terminal-program"),
    (
        "posix",
        "docker compose -f ci.yml exec -T db psql -U app -c 'DROP SCHEMA public CASCADE'",
        "destructive.data-store",
    ),
    ("posix", "docker compose -f ci.yml exec api printenv", "env.print-environment"),
    ("posix", "docker container exec api cat /proc/1/environ", "env.proc-environ"),
    # helm's short names for the dependency, repository and plugin updates, uninstall, and the helm-secrets
    # plugin's release commands and decryption
    ("posix", "helm dep up charts/api", "network.package-install"),
    ("posix", "helm dep build ./deploy/chart", "network.package-install"),
    ("posix", "helm dependencies update charts/web", "network.package-install"),
    ("posix", "helm repo up", "network.package-install"),
    ("posix", "helm un api -n staging", "network.remote-service"),
    ("posix", "helm plugin update secrets", "network.package-install"),
    ("posix", "helm secrets upgrade api ./chart -f secrets.prod.yaml", "network.remote-service"),
    ("posix", "helm secrets decrypt charts/api/secrets.yaml", "env.credential-store"),
    ("posix", "helm secrets view secrets.enc.yaml", "env.credential-store"),
    # cluster deploy tools given their own options before the command, and their image builds
    ("posix", "tilt --port 10351 up", "network.remote-service"),
    ("posix", "tilt --file Tiltfile.e2e ci", "network.remote-service"),
    ("posix", "skaffold --kube-context kind-e2e run", "network.remote-service"),
    ("posix", "skaffold -p staging deploy", "network.remote-service"),
    ("posix", "devspace -n api deploy", "network.remote-service"),
    ("posix", "skaffold build --file-output=build.json", "network.remote-service"),
    ("posix", "werf build", "network.remote-service"),
    # local clusters: ctlptl's clusters and registries, a kubeconfig printed or written, minikube's node
    ("posix", "ctlptl create cluster kind --registry=ctlptl-registry", "network.remote-service"),
    ("posix", "ctlptl delete cluster kind-kind", "network.remote-service"),
    ("posix", "ctlptl create registry ctlptl-registry --port=5005", "network.remote-service"),
    ("posix", "kind get kubeconfig --name e2e > kubeconfig", "network.remote-service"),
    ("posix", "k3d kubeconfig get e2e", "network.remote-service"),
    ("posix", "k3d kubeconfig write e2e", "network.remote-service"),
    ("posix", "minikube cp ./seed.sql minikube:/data/seed.sql", "network.remote-service"),
    ("posix", "minikube update-context", "network.remote-service"),
    # builds, runs and publishes that pull or push images; podman's API service
    ("posix", "buildah bud --format docker -t api:dev .", "network.remote-service"),
    ("posix", "buildah build -f Containerfile -t api:dev .", "network.remote-service"),
    ("posix", "buildah from docker.io/library/alpine:3.20", "network.remote-service"),
    ("posix", "docker compose watch", "network.remote-service"),
    ("posix", "docker compose -f compose.dev.yml watch --no-up", "network.remote-service"),
    ("posix", "docker compose publish myorg/stack:1.0", "network.remote-service"),
    ("posix", "podman kube play deploy/pod.yaml", "network.remote-service"),
    ("posix", "podman play kube deploy/pod.yaml", "network.remote-service"),
    (
        "posix",
        "docker manifest create ghcr.io/org/api:1.0 ghcr.io/org/api:1.0-amd64 ghcr.io/org/api:1.0-arm64",
        "network.remote-service",
    ),
    ("posix", "docker buildx bake --push", "network.remote-service"),
    ("posix", "docker buildx bake -f docker-bake.hcl release", "network.remote-service"),
    ("posix", "podman system service --time=0 tcp://0.0.0.0:8888", "network.local-server"),
    # companion clients and auditors of the live cluster
    ("posix", "stern -n api web", "network.remote-service"),
    ("posix", "kubetail api -n staging", "network.remote-service"),
    ("posix", "kubefwd svc -n api", "network.remote-service"),
    ("posix", "telepresence intercept api --port 8080", "network.remote-service"),
    ("posix", "popeye -n api", "network.remote-service"),
    ("posix", "polaris audit --format score", "network.remote-service"),
    ("posix", "polaris dashboard --port 8080", "network.remote-service"),
    ("posix", "kubescape scan framework nsa --exclude-namespaces kube-system", "network.remote-service"),
    ("posix", "kubescape scan deploy/*.yaml", "network.remote-service"),
    ("posix", "kube-bench run --targets master", "env.machine-discovery"),
]

ALLOWED = [
    # what runs inside the container is the project's work
    ("posix", "docker compose -f docker-compose.ci.yml exec api pytest -q"),
    ("posix", "docker compose --profile dev exec -T worker ruff check ."),
    ("posix", "docker-compose -f compose.test.yml exec web python -m pytest tests/unit"),
    ("posix", "docker --log-level error exec api ls /app"),
    ("posix", "docker container exec api python manage.py check"),
    ("posix", "docker compose -f ci.yml exec db pg_isready -U app"),
    # listing and encrypting stay local
    ("posix", "helm dep list charts/api"),
    ("posix", "helm dependency list ./deploy/chart"),
    ("posix", "helm repo list"),
    ("posix", "helm secrets encrypt secrets.yaml"),
    # deploy tools rendering, diagnosing or answering a local question
    ("posix", "tilt --port 10351 get uiresources"),
    ("posix", "tilt version"),
    ("posix", "skaffold -p staging render --output rendered.yaml"),
    ("posix", "skaffold --kube-context kind-e2e diagnose"),
    # listing local clusters, and help
    ("posix", "ctlptl get clusters"),
    ("posix", "ctlptl get registries"),
    ("posix", "kind get clusters"),
    ("posix", "kind get nodes --name e2e"),
    ("posix", "k3d cluster list"),
    ("posix", "k3d kubeconfig --help"),
    # local images and containers, compose's checks, a manifest list edited, bake's resolved definition
    ("posix", "buildah images"),
    ("posix", "buildah from scratch"),
    ("posix", "buildah containers"),
    ("posix", "docker compose -f compose.dev.yml config --quiet"),
    ("posix", "docker compose ps"),
    ("posix", "docker manifest annotate ghcr.io/org/api:1.0 ghcr.io/org/api:1.0-arm64 --arch arm64"),
    ("posix", "docker buildx bake --print"),
    ("posix", "docker buildx bake -f docker-bake.hcl --print release"),
    ("posix", "docker buildx bake --list targets"),
    ("posix", "podman system df"),
    # linters given the manifests or controls on disk
    ("posix", "polaris audit --audit-path deploy/ --format score"),
    ("posix", "kubescape scan --use-from controls/nsa.json deploy/"),
    ("posix", "kube-score score deploy/api.yaml"),
]


def test_container_and_cluster_lines_that_reach_out_or_open_a_shell_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_their_local_counterparts_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
