"""Local clusters, remote container daemons, Salt keys, local group policy, log rotation and VM disks.

A local Kubernetes cluster made, started or stopped pulls node images and runs the cluster's containers or
VM on the machine, as `docker compose up` does; listing clusters stays allowed. Another machine's daemon
added as a podman connection and a Salt master accepting minion keys act beyond the project. Windows' local
group policy applied from a `.pol` file, the system's logs rotated by hand and a VM snapshot popped change the
machine; a virtual machine given a disk of the host writes to it as the guest pleases.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "minikube start --driver=docker --kubernetes-version=v1.30.0", "network.remote-service"),
    ("posix", "minikube stop", "network.remote-service"),
    ("posix", "kind create cluster --name e2e --config hack/kind.yaml", "network.remote-service"),
    ("posix", "kind load docker-image app:dev --name e2e", "network.remote-service"),
    ("posix", "k3d cluster create dev --agents 2", "network.remote-service"),
    (
        "posix",
        "podman system connection add prod ssh://root@prod.example.com",
        "network.remote-service",
    ),
    ("posix", "salt-key --accept-all -y", "network.remote-service"),
    ("posix", "pulumi install", "network"),
    ("posix", "vagrant snapshot pop", "destructive.machine-state"),
    ("posix", "logrotate -f /etc/logrotate.conf", "destructive.machine-state"),
    ("powershell", ".\\LGPO.exe /m .\\machine.pol", "destructive.machine-state"),
    ("powershell", "LGPO.exe /g .\\gpo-backup", "destructive.machine-state"),
    ("posix", "qemu-system-x86_64 -m 2G -hda /dev/sdb", "destructive.raw-disk-write"),
    (
        "posix",
        "qemu-system-aarch64 -drive file=/dev/nvme1n1,format=raw",
        "destructive.raw-disk-write",
    ),
]

ALLOWED = [
    ("posix", "minikube status"),
    ("posix", "kind get clusters"),
    ("posix", "k3d cluster list"),
    ("posix", "podman system connection list"),
    ("posix", "salt-key -L"),
    ("posix", "vagrant snapshot list"),
    ("posix", "logrotate -d build/logrotate.conf"),
    ("powershell", "LGPO.exe /parse /m .\\machine.pol"),
    ("posix", "qemu-system-x86_64 -m 512 -hda build/disk.img -nographic"),
    ("posix", "qemu-img create -f qcow2 build/vm.qcow2 8G"),
]


def test_local_clusters_remote_daemons_policy_tools_and_host_disks_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_listing_them_and_project_disk_images_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)


TRUST_AND_TRACING = [
    (
        "posix",
        "keytool -importcert -file ca.crt -keystore /usr/lib/jvm/default/lib/security/cacerts",
        "destructive",
    ),
    ("posix", "keytool -import -trustcacerts -cacerts -file corp-ca.crt", "destructive"),
    ("posix", "keytool -importcert -file corp-ca.crt -alias corp", "destructive"),  # the user's ~/.keystore
    ("posix", "export NODE_EXTRA_CA_CERTS=certs/corp-root.pem", "network.package-source"),
    ("powershell", "makecert -r -n 'CN=Dev CA' -ss Root -sr LocalMachine root.cer", "destructive"),
    ("powershell", "wecutil cs subscription.xml", "destructive.machine-state"),
    ("powershell", "Remove-EtwTraceSession -Name Diagtrack-Listener", "destructive.machine-state"),
    ("powershell", "Set-AutologgerConfig -Name EventLog-Application -Start 0", "destructive.machine-state"),
]

TRUST_AND_TRACING_ALLOWED = [
    ("posix", "keytool -list -cacerts"),
    ("posix", "keytool -printcert -file build/server.crt"),
    ("powershell", "makecert -r -n CN=Test build\\test.cer"),
    ("powershell", "wecutil es"),
    ("powershell", "Get-EtwTraceSession"),
    ("posix", "find . -name '*.hie' -type f -delete"),  # GHC's extended interfaces: build output
    ("posix", "rm -rf .hpc coverage"),
]


def test_trust_stores_ca_variables_and_event_tracing_are_blocked() -> None:
    every_case(TRUST_AND_TRACING, guard_blocks)


def test_listing_them_and_sweeping_ghc_output_stay_allowed() -> None:
    every_case(TRUST_AND_TRACING_ALLOWED, guard_allows)


MORE_BLOCKED = [
    ("posix", "gh auth refresh -h github.com -s delete_repo", "network"),  # `-h` names the host, not help
    ("posix", "ansible-playbook -i inventory/production site.yml --limit web", "network.remote-service"),
    ("posix", "wrmsr -a 0x620 0x3f3f", "destructive.machine-state"),
    ("posix", "x86_energy_perf_policy performance", "destructive.machine-state"),
    ("powershell", "Set-AppLockerPolicy -XmlPolicy .\\policy.xml -Merge", "destructive.machine-state"),
]

MORE_ALLOWED = [
    ("posix", "gh --help"),
    ("posix", "ansible-playbook site.yml --syntax-check"),
    ("posix", "ansible-playbook -i inventory/production site.yml --list-tasks --tags ntp"),
    ("posix", "terraform show -json tfplan.binary | jq . > tfplan.json"),
    ("posix", "x86_energy_perf_policy -r"),
]


def test_host_runs_register_and_policy_writes_are_blocked() -> None:
    every_case(MORE_BLOCKED, guard_blocks)


def test_syntax_checks_listings_and_saved_plans_stay_allowed() -> None:
    every_case(MORE_ALLOWED, guard_allows)


def test_tls_checks_turned_off_in_powershell_and_an_upload_server_are_network() -> None:
    guard_blocks(
        "powershell",
        "[System.Net.ServicePointManager]::ServerCertificateValidationCallback = {$true}",
        "network.package-source",
    )
    guard_allows("powershell", "[Net.ServicePointManager]::SecurityProtocol = 'Tls12'")
    guard_blocks("posix", "python3 -m uploadserver 8000", "network.local-server")
