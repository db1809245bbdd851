"""Cloud, cluster and container tools the policy did not know, and the downloads of everyday infrastructure
tools. Each acts outside the project when it runs:

- helmfile applies a set of helm releases to the current kube context or compares them with it (`helmfile
  sync`, `destroy`, `diff`), and fetches the repositories and charts it names (`deps`, and `template`/`lint`
  unless `--skip-deps`); the helm-diff plugin reads the release (`helm diff upgrade`); chart-testing installs
  every chart into the cluster (`ct install`) and its lint asks GitHub for the maintainers; the Operator SDK's
  cluster commands (`olm install`, `run bundle`, `scorecard`); `kind export kubeconfig` writes
  `~/.kube/config`.
- The low-level OCI runtimes run a container from a bundle as root (`runc run`, `runc exec`, `crun create`),
  as `ctr run` and `nerdctl run` do; `runc list` reads the node's containers, as `crictl ps` does, and `runc
  kill` changes them, as `docker kill` does.
- Alibaba Cloud's CLI (`aliyun`), and the credential helpers `saml2aws` and Granted's `granted`.
- Fetchers: `tflint --init`, `jb install`, `setup-envtest use`, `docker buildx create`, a kustomize remote
  base; vulnerability scanners that download their database or pull the image (`trivy image`, `trivy fs`
  without `--skip-db-update`, `grype`); helm rendering or showing a repository's chart (`helm template x
  jetstack/x`), as `helm pull` is. (MSBuild's `-restore` before a build, like `dotnet build`'s own restore,
  and `ct lint` stay allowed: CI files use them as the build and lint steps.)
- Publishing: node-pre-gyp's `publish`/`unpublish` (the package's S3 bucket), `node-pre-gyp-github publish`,
  `prebuild --upload`.
- Machine state: `apt-get clean`/`autoclean` empty the system's package cache, as `apt-get autoremove`
  changes the system's packages.

Beside each, the same programs used locally stay allowed: rendering with local charts, scaffolding, linting,
listing, version and help, scans told to keep the database they have."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # helmfile applies, compares or fetches a set of helm releases; helm-diff reads the cluster
    ("posix", "helmfile sync", "network.remote-service"),
    ("posix", "helmfile sync -e localhost", "network.remote-service"),
    ("posix", "helmfile -e localhost sync", "network.remote-service"),
    ("posix", "helmfile delete -e localhost", "network.remote-service"),
    ("posix", "helmfile apply", "network.remote-service"),
    ("posix", "helmfile destroy", "network.remote-service"),
    ("posix", "helmfile diff", "network.remote-service"),
    ("posix", "helmfile deps", "network.remote-service"),
    ("posix", "helmfile template", "network.remote-service"),
    ("posix", "helmfile lint", "network.remote-service"),
    ("posix", "helm diff upgrade x .", "network.remote-service"),
    # chart-testing installs charts into the cluster; its lint asks GitHub and adds chart repositories
    ("posix", "ct install --all", "network.remote-service"),
    (
        "posix",
        "ct install --config scripts/ct.yaml --debug --print-config --upgrade --helm-extra-args "
        '"--timeout 600s"',
        "network.remote-service",
    ),
    ("posix", "ct lint-and-install", "network.remote-service"),
    # the Operator SDK's cluster commands
    (
        "posix",
        "bin/operator-sdk scorecard ghcr.io/cloudnative-pg/cloudnative-pg-testing:bundle --wait-time "
        "60s --verbose",
        "network.remote-service",
    ),
    ("posix", "operator-sdk olm install", "network.remote-service"),
    ("posix", "operator-sdk run bundle quay.io/x/b:v1", "network.remote-service"),
    ("posix", "operator-sdk run bundle-upgrade quay.io/x/b:v2", "network.remote-service"),
    ("posix", "operator-sdk cleanup memcached-operator", "network.remote-service"),
    # kind writes the cluster's credentials into the user's kubeconfig
    ("posix", "kind export kubeconfig --name x", "network.remote-service"),
    # low-level OCI runtimes run, list and kill the node's containers
    ("posix", "runc run mycontainer", "network.remote-service"),
    ("posix", "runc exec -t mycontainer sh", "network.remote-service"),
    ("posix", "runc run -b /tmp/bundle x", "network.remote-service"),
    ("posix", "runc --root /run/runc run x", "network.remote-service"),
    ("posix", "crun run x", "network.remote-service"),
    ("posix", "crun create x", "network.remote-service"),
    ("posix", "runc list", "env.machine-discovery"),
    ("posix", "runc --root /run/containerd/runc/k8s.io list", "env.machine-discovery"),
    ("posix", "runc state x", "env.machine-discovery"),
    ("posix", "runc kill x KILL", "destructive.machine-state"),
    ("posix", "runc delete -f x", "destructive.machine-state"),
    # cloud CLIs and credential helpers
    ("posix", "aliyun ecs DescribeInstances", "network.remote-service"),
    ("posix", "aliyun ram CreateAccessKey --UserName x", "network.remote-service"),
    ("posix", "aliyun configure", "network.remote-service"),
    ("posix", "saml2aws login", "network.remote-service"),
    ("posix", "saml2aws exec -- aws s3 ls", "network.remote-service"),
    ("posix", "granted sso login", "network.remote-service"),
    ("posix", "granted assume prod", "network.remote-service"),
    # plugin, dependency and tool fetchers
    ("posix", "tflint --init", "network.package-install"),
    ("posix", "tflint --init --recursive", "network.package-install"),
    ("posix", "cd scripts/generate; ../../tmp/bin/jb install;", "network.package-install"),
    ("posix", "jb update", "network.package-install"),
    ("posix", "jb install github.com/x/y@main", "network.package-install"),
    ("posix", "bin/setup-envtest use 1.35.0 --arch=amd64 --bin-dir=build/testbin", "network.package-install"),
    ("posix", "setup-envtest use 1.30.0 -p path", "network.package-install"),
    ("posix", "setup-envtest list", "network.package-install"),
    ("posix", "docker buildx create --name ingress-nginx --bootstrap --use", "network.package-install"),
    ("posix", "docker buildx create --use", "network.package-install"),
    ("posix", "docker buildx inspect --bootstrap", "network.package-install"),
    (
        "posix",
        "kustomize build github.com/kubernetes-sigs/kustomize//examples/multibases?ref=v1.0.6",
        "network.package-install",
    ),
    ("posix", "kubectl kustomize github.com/x/y//deploy?ref=v1", "network.package-install"),
    # vulnerability scanners download their database and pull images
    ("posix", "trivy image --severity CRITICAL,HIGH --exit-code 1 auth-web:scan", "network.package-install"),
    ("posix", "trivy --exit-code 1 --severity CRITICAL costs-to-metrics:latest", "network.package-install"),
    ("posix", 'trivy image --exit-code 1 --severity HIGH,CRITICAL "$IMAGE"', "network.package-install"),
    ("posix", "trivy image --skip-db-update alpine:3", "network.package-install"),
    ("posix", "trivy fs .", "network.package-install"),
    ("posix", "trivy config .", "network.package-install"),
    ("posix", "trivy k8s --report summary cluster", "network.package-install"),
    ("posix", "trivy repo .", "network.package-install"),
    ("posix", "trivy sbom sbom.json", "network.package-install"),
    ("posix", "trivy plugin install referrer@v0.3.0", "network.package-install"),
    ("posix", "grype dir:.", "network.package-install"),
    ("posix", "grype alpine:3", "network.package-install"),
    ("posix", "grype db update", "network.package-install"),
    ("posix", "grype db check", "network.package-install"),
    ("posix", "syft registry:alpine:3", "network.package-install"),
    # prebuilt native binaries published
    (
        "posix",
        "node-pre-gyp unpublish publish --runtime=node-webkit --target=${NODE_WEBKIT_VERSION}",
        "network.publish",
    ),
    ("posix", "node-pre-gyp publish", "network.publish"),
    ("posix", "node-pre-gyp package publish", "network.publish"),
    ("posix", "node-pre-gyp info", "network.remote-service"),
    ("posix", "node-pre-gyp-github publish --release", "network.publish"),
    ("posix", "prebuild --upload", "network.publish"),
    ("posix", "prebuild -r napi -u", "network.publish"),
    ("posix", "prebuild --all --strip --upload-all", "network.publish"),
    # helm fetching a repository's chart to render or show it
    (
        "posix",
        "helm template -n cert-manager cert-manager jetstack/trust-manager --create-namespace "
        '--version "${v}" --set crds.enabled=true',
        "network.package-install",
    ),
    ("posix", "helm template x bitnami/nginx", "network.package-install"),
    ("posix", "helm show values jetstack/cert-manager", "network.package-install"),
    ("posix", "helm show chart bitnami/nginx", "network.package-install"),
    ("posix", "helm template x mychart --version 1.2.3", "network.package-install"),
    # the system package cache emptied
    ("posix", "apt-get -y autoclean", "destructive.machine-state"),
    ("posix", "apt-get clean", "destructive.machine-state"),
    ("posix", "apt clean", "destructive.machine-state"),
    ("posix", "dnf clean all", "destructive.machine-state"),
]

ALLOWED = [
    # helmfile applies, compares or fetches a set of helm releases; helm-diff reads the cluster: local use
    ("posix", "helmfile template --skip-deps"),
    ("posix", "helmfile build"),
    ("posix", "helmfile list"),
    ("posix", "helmfile --version"),
    ("posix", "helm diff version"),
    # chart-testing: listing changed charts asks only git
    ("posix", "ct list-changed --target-branch main"),
    ("posix", "ct version"),
    # the Operator SDK's cluster commands: local use
    ("posix", "operator-sdk create webhook --group cache --version v1 --kind Memcached --defaulting"),
    ("posix", "operator-sdk create api --group cache --version v1 --kind Memcached"),
    ("posix", "operator-sdk generate kustomize manifests -q"),
    ("posix", "operator-sdk bundle validate ./bundle"),
    ("posix", "operator-sdk version"),
    # kind writes the cluster's credentials into the user's kubeconfig: local use
    ("posix", "kind export logs ./logs"),
    ("posix", "kind get clusters"),
    # low-level OCI runtimes run, list and kill the node's containers: local use
    ("posix", "runc --version"),
    ("posix", "runc spec"),
    ("posix", "runc --help"),
    ("posix", "crun --version"),
    # cloud CLIs and credential helpers: local use
    ("posix", "aliyun --version"),
    ("posix", "aliyun version"),
    ("posix", "saml2aws --version"),
    ("posix", "granted --version"),
    ("posix", "assume --help"),
    # plugin, dependency and tool fetchers: local use
    ("posix", "tflint"),
    ("posix", "tflint --chdir ./terraform --recursive"),
    ("posix", "tflint --chdir=terraform"),
    ("posix", "jb init"),
    ("posix", "setup-envtest use -i 1.30.0 -p path"),
    ("posix", "setup-envtest cleanup"),
    ("posix", "docker buildx inspect"),
    ("posix", "docker buildx ls"),
    ("posix", "docker buildx use x"),
    ("posix", "kustomize build config/default"),
    ("posix", "kustomize build ."),
    ("posix", "kubectl kustomize overlays/dev"),
    # vulnerability scanners download their database and pull images: local use
    ("posix", "trivy fs --skip-db-update ."),
    ("posix", "trivy fs --skip-db-update --severity HIGH ."),
    ("posix", "trivy config --skip-check-update ."),
    ("posix", "trivy image --input img.tar --skip-db-update"),
    ("posix", "trivy --version"),
    ("posix", "trivy version"),
    ("posix", "trivy clean --all"),
    ("posix", "trivy convert --format table result.json"),
    ("posix", "trivy plugin list"),
    ("posix", "grype db status"),
    ("posix", "grype version"),
    ("posix", "grype --version"),
    ("posix", "grype db import db.tar.gz"),
    ("posix", "syft dir:."),
    ("posix", "syft ."),
    ("posix", "syft scan dir:. -o json"),
    # prebuilt native binaries published: local use
    ("posix", "prebuild --all --strip"),
    ("posix", "prebuildify --napi --strip"),
    ("posix", "node-pre-gyp package --runtime=node-webkit --target=${NODE_WEBKIT_VERSION}"),
    ("posix", "node-pre-gyp clean"),
    ("posix", "node-pre-gyp package --target_arch=x64"),
    # helm fetching a repository's chart to render or show it: local use
    ("posix", "helm template ./charts/x"),
    ("posix", "helm template x ."),
    ("posix", "helm template -f values.debug.yaml ."),
    (
        "posix",
        "helm template example charts/opentelemetry-collector --namespace default --values "
        "charts/opentelemetry-collector/examples/daemonset-only/values.yaml --kube-version 1.30 "
        '--output-dir "charts/opentelemetry-collector/examples/daemonset-only/rendered"',
    ),
    (
        "posix",
        "helm template ingress-nginx ./charts/ingress-nginx --values values.yaml --namespace "
        "ingress-nginx --kube-version 1.22",
    ),
    ("posix", "helm template k8smon . -f docs/examples/metrics-tuning/values.yaml"),
    ("posix", "helm show values ./chart"),
    ("posix", "helm show values charts/app"),
    ("posix", "helm template x chart --api-versions monitoring.coreos.com/v1"),
    ("posix", "helm template x ./chart -f values/prod.yaml"),
    ("posix", "helm template x ./chart --set image.repository=foo/bar"),
    (
        "posix",
        ".tools/helm template kyverno --kube-version v1.25.0 --namespace kyverno --skip-tests "
        "./charts/kyverno --set global.templating.enabled=true",
    ),
    # MSBuild's restore before a build is the build's own, as `dotnet build` restores (`dotnet restore`
    # alone still blocks); chart-testing's lint is the chart's lint step
    ("powershell", "msbuild -restore x.sln"),
    ("powershell", "msbuild x.sln /t:Restore;Build"),
    ("posix", "ct lint --all"),
    ("powershell", "msbuild x.sln /p:Configuration=Release"),
    ("powershell", "msbuild x.sln /t:Build"),
    (
        "powershell",
        'msbuild /m:4 /p:"Configuration=$env:Config;Platform=$env:Platform" sassc\\win\\sassc.sln',
    ),
    ("powershell", "msbuild x.sln /restore:false"),
    ("powershell", "msbuild x.sln /t:RestoreTools"),
    ("powershell", "dotnet msbuild x.sln -t:Build"),
    ("powershell", "exec { MSBuild FarNetAPI.shfbproj /p:Configuration=Release }"),
    # the system package cache emptied: local use
    ("posix", "apt-cache policy curl"),
    ("posix", "apt list --installed"),
    ("posix", "make clean"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_cloud_cluster_and_fetching_tools_are_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_tools_used_locally_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
