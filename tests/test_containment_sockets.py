"""No way out through Unix sockets (issue row 6), and a private temp directory.

Real sockets: a listener in the host's temp directory, one in the project, one in a runtime folder the
environment names, and a real tmux server (`tmux send-keys` is a shell outside the sandbox). A project
script tries each from `run` and from the test command; none may connect, and the control shows the same
script does connect without the sandbox. The seccomp program is also checked instruction by instruction on
every ABI it knows, with a small BPF interpreter.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import plan

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.contract import Action
from glmagent.planners.scripted import ScriptedPlanner
from glmagent.tools.sandbox import bwrap_problem

needs_bwrap = pytest.mark.skipif(
    bwrap_problem() is not None, reason=f"no usable bubblewrap: {bwrap_problem()}"
)

PROBE = r"""
import json, os, socket, subprocess, sys
targets = json.loads(sys.argv[1])
results = {}
for name, path in targets.items():
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.settimeout(3)
        client.connect(path)
        client.sendall(b"escaped " + name.encode())
        client.close()
        results[name] = "connected"
    except OSError as error:
        results[name] = f"failed: {type(error).__name__}"
tmux = os.environ.get("PROBE_TMUX_SOCKET") or (sys.argv[2] if len(sys.argv) > 2 else "")
if tmux:
    done = subprocess.run(["tmux", "-S", tmux, "send-keys", "-t", "victim", "touch " + sys.argv[3], "Enter"],
                          capture_output=True)
    results["tmux"] = "sent" if done.returncode == 0 else "failed"
print(json.dumps(results))
"""


class Listener:
    """A Unix socket server that records what reaches it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.received: list[bytes] = []
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(str(path))
        self.server.listen(8)
        self.server.settimeout(0.2)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1)
                with contextlib.suppress(OSError):
                    self.received.append(conn.recv(1024))

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.server.close()


@pytest.fixture
def listeners(
    tmp_path: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, Listener]]:
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    agent_dir = tmp_path / "agent"
    agent_dir.mkdir()
    monkeypatch.setenv("SSH_AUTH_SOCK", str(agent_dir / "ssh.sock"))
    made = {
        "temp": Listener(tmp_path / "session.sock"),
        "project": Listener(project / "service.sock"),
        "runtime": Listener(runtime / "bus"),
        "ssh_agent": Listener(agent_dir / "ssh.sock"),
    }
    yield made
    for listener in made.values():
        listener.close()


@pytest.fixture
def tmux_server(tmp_path: Path) -> Iterator[Path]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    sock = tmp_path / "tmux.sock"
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    subprocess.run(
        ["tmux", "-S", str(sock), "new-session", "-d", "-s", "victim", "sh"], check=True, env=env, timeout=30
    )
    yield sock
    subprocess.run(["tmux", "-S", str(sock), "kill-server"], check=False, timeout=30)


def targets(listeners: dict[str, Listener]) -> str:
    return json.dumps({name: str(listener.path) for name, listener in listeners.items()})


def probe_command(listeners: dict[str, Listener], tmux: Path, marker: Path) -> str:
    return f"python3 probe.py '{targets(listeners)}' {tmux} {marker}"


@needs_bwrap
def test_no_socket_of_the_session_is_reachable_from_a_command(
    project: Path, listeners: dict[str, Listener], tmux_server: Path, tmp_path: Path
) -> None:
    (project / "probe.py").write_text(PROBE, encoding="utf-8")
    marker = tmp_path / "PWNED"
    agent = CodingAgent(settings=Settings(sandbox="bwrap"))
    observation = agent.act(
        Action(tool="run", command=probe_command(listeners, tmux_server, marker)), project
    )
    results = json.loads(observation.output.split("--- stdout ---\n", 1)[1].splitlines()[0])
    assert all(outcome != "connected" for outcome in results.values()), results
    assert results["tmux"] == "failed"
    assert all(listener.received == [] for listener in listeners.values())
    subprocess.run(["tmux", "-S", str(tmux_server), "list-sessions"], capture_output=True, timeout=30)
    assert not marker.exists()


@needs_bwrap
def test_the_test_command_cannot_reach_them_either(
    project: Path, listeners: dict[str, Listener], tmux_server: Path, tmp_path: Path
) -> None:
    (project / "probe.py").write_text(PROBE, encoding="utf-8")
    marker = tmp_path / "PWNED"
    planner = ScriptedPlanner([plan()])
    agent = CodingAgent(planner=planner, settings=Settings(sandbox="bwrap"))
    task = CodingAgent.create_task(
        "probe", project, max_iterations=1, test_command=probe_command(listeners, tmux_server, marker)
    )
    agent.run(task)
    assert all(listener.received == [] for listener in listeners.values())
    assert not marker.exists()


def test_without_the_sandbox_the_probe_connects(
    project: Path, listeners: dict[str, Listener], tmux_server: Path, tmp_path: Path
) -> None:
    """The control: the same script reaches every socket when nothing contains it (the variables naming
    session sockets are still dropped, so the probe names the paths itself)."""
    (project / "probe.py").write_text(PROBE, encoding="utf-8")
    agent = CodingAgent(settings=Settings(sandbox="none"))
    marker = tmp_path / "PWNED"
    observation = agent.act(
        Action(tool="run", command=probe_command(listeners, tmux_server, marker)), project
    )
    results = json.loads(observation.output.split("--- stdout ---\n", 1)[1].splitlines()[0])
    assert {name for name, outcome in results.items() if outcome in ("connected", "sent")} == {
        *listeners,
        "tmux",
    }


def test_commands_never_see_the_variables_that_lead_to_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    from glmagent.tools.shell import child_environment

    session = {
        "SSH_AUTH_SOCK": "/tmp/ssh-x/agent.1",
        "TMUX": "/tmp/tmux-0/default,1,0",
        "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/0/bus",
        "DISPLAY": ":0",
        "DOCKER_HOST": "unix:///var/run/docker.sock",
    }
    env = child_environment({"PATH": "/bin", **session})
    assert set(env) & set(session) == set()


@needs_bwrap
def test_the_temp_directory_is_private(project: Path, tmp_path: Path) -> None:
    """Files the command writes to /tmp stay in the sandbox; the host's temp files are not visible."""
    host_file = Path("/tmp") / f"glmagent-host-{os.getpid()}-{id(tmp_path)}.txt"
    host_file.write_text("host secret\n", encoding="utf-8")
    inside = f"/tmp/glmagent-inside-{os.getpid()}-{id(tmp_path)}.txt"
    try:
        agent = CodingAgent(settings=Settings(sandbox="bwrap"))
        observation = agent.act(
            Action(
                tool="run", command=f"echo made >> {inside}; cat {inside}; cat {host_file} || echo hidden"
            ),
            project,
        )
        assert "made" in observation.output and "hidden" in observation.output
        assert "host secret" not in observation.output
        assert not Path(inside).exists()
    finally:
        host_file.unlink()


@needs_bwrap
def test_loopback_tcp_stays_closed_and_socket_pairs_still_work(project: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    code = (
        "import socket\n"
        "a, b = socket.socketpair(); a.sendall(b'pair'); print(b.recv(4).decode())\n"
        "try:\n"
        f"    socket.create_connection(('127.0.0.1', {port}), timeout=3); print('tcp connected')\n"
        "except OSError as e:\n"
        "    print('tcp failed')\n"
    )
    (project / "pair.py").write_text(code, encoding="utf-8")
    try:
        agent = CodingAgent(settings=Settings(sandbox="bwrap"))
        observation = agent.act(Action(tool="run", command="python3 pair.py"), project)
    finally:
        server.close()
    assert "pair" in observation.output and "tcp failed" in observation.output


# -- the seccomp program, instruction by instruction --------------------------------------------------------


def run_bpf(program: bytes, nr: int, arch: int, arg0: int = 0) -> int:
    """Interpret a classic BPF seccomp program over one `struct seccomp_data`."""
    data = struct.pack("<iIQ6Q", nr, arch, 0, arg0, 0, 0, 0, 0, 0)
    code = [struct.unpack_from("<HBBI", program, offset) for offset in range(0, len(program), 8)]
    pc, accumulator = 0, 0
    for _ in range(len(code) + 1):
        op, jt, jf, k = code[pc]
        if op == 0x20:
            accumulator = struct.unpack_from("<I", data, k)[0]
            pc += 1
        elif op in (0x15, 0x35):
            taken = accumulator == k if op == 0x15 else accumulator >= k
            pc += 1 + (jt if taken else jf)
        elif op == 0x06:
            return k
        else:
            raise AssertionError(f"unexpected instruction {op:#x}")
    raise AssertionError("the program did not return")


def test_the_filter_refuses_unix_sockets_on_every_abi_it_knows() -> None:
    from glmagent.tools import _seccomp as sc

    allow, deny = sc.RET_ALLOW, sc.RET_ERRNO | 1
    x86 = sc.filter_for(sc.X86_64, sc.I386)
    assert run_bpf(x86, 41, sc.X86_64.arch, sc.AF_UNIX) == deny
    assert run_bpf(x86, 41, sc.X86_64.arch, 2) == allow  # AF_INET
    assert run_bpf(x86, 53, sc.X86_64.arch, sc.AF_UNIX) == allow  # socketpair
    assert run_bpf(x86, 425, sc.X86_64.arch) == deny  # io_uring_setup
    assert run_bpf(x86, 41 | 0x40000000, sc.X86_64.arch, sc.AF_UNIX) == deny  # x32
    assert run_bpf(x86, 0, sc.X86_64.arch) == allow  # read
    assert run_bpf(x86, 359, sc.I386.arch, sc.AF_UNIX) == deny  # socket on 32-bit x86
    assert run_bpf(x86, 359, sc.I386.arch, 2) == allow
    assert run_bpf(x86, 102, sc.I386.arch, 1) == deny  # socketcall(SYS_SOCKET, ...)
    assert run_bpf(x86, 102, sc.I386.arch, 3) == allow  # socketcall(SYS_CONNECT, ...): needs a socket first
    assert run_bpf(x86, 3, 0x12345678) == deny  # an ABI the filter does not know
    arm = sc.filter_for(sc.AARCH64, sc.ARM)
    assert run_bpf(arm, 198, sc.AARCH64.arch, sc.AF_UNIX) == deny
    assert run_bpf(arm, 198, sc.AARCH64.arch, 10) == allow  # AF_INET6
    assert run_bpf(arm, 281, sc.ARM.arch, sc.AF_UNIX) == deny
    assert run_bpf(arm, 425, sc.ARM.arch) == deny


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="seccomp is Linux only")
def test_this_machine_has_a_filter() -> None:
    import platform

    from glmagent.tools._seccomp import unix_socket_filter

    if platform.machine().lower() not in ("x86_64", "amd64", "aarch64", "arm64"):
        pytest.skip(f"no filter written for {platform.machine()}")
    assert unix_socket_filter()
