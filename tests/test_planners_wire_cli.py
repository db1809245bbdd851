"""The real `glmagent task` command (a subprocess) against a real HTTP server on 127.0.0.1 that misbehaves
the way providers do: rate limits with Retry-After, server errors, dropped connections, garbage bodies,
trickling replies, schema-violating answers, refused response formats, no answer at all."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from glmagent.strict_schema import strict_planner_schema
from tests.conftest import python_check
from tests.wire_server import (
    GOOD,
    KEY,
    KEY_VAR,
    MODEL,
    NO_PATH,
    ScriptedServer,
    Step,
    audit_records,
    completion,
    drop,
    environment,
    error,
    garbage,
    glmagent,
    hang,
    make_project,
    trickle,
)


@pytest.fixture
def wire_project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def assert_key_nowhere(project: Path, *outputs: str) -> None:
    for text in outputs:
        assert KEY not in text
    for path in (project / ".hazina").rglob("*"):
        if path.is_file():
            assert KEY not in path.read_text(encoding="utf-8", errors="replace")


def test_a_task_survives_a_misbehaving_server_and_completes(wire_project: Path) -> None:
    (Path(os.environ["GLMAGENT_CONFIG_DIR"])).mkdir(parents=True, exist_ok=True)
    (Path(os.environ["GLMAGENT_CONFIG_DIR"]) / "config.toml").write_text(
        f'[glmagent]\nmax_iterations = 3\n\n[prices."{MODEL}"]\ninput = 1.0\noutput = 2.0\n', encoding="utf-8"
    )
    steps: list[Step] = [
        error(429, {"error": {"code": "1302", "message": "rate limit"}}, Retry_After="1"),
        error(500, {"error": {"message": "internal"}}),
        drop,
        garbage,
        trickle,
        completion(json.dumps(NO_PATH), 100, 10),  # schema-violating: read_file without a path
        completion(json.dumps(GOOD), 300, 40),
    ]
    with ScriptedServer(steps) as server:
        done = subprocess.run(
            glmagent(
                server.base_url,
                wire_project,
                "--test",
                python_check("'Hello' in open('app.py').read()"),
                "--request-timeout",
                "1.5",
                "--max-retries",
                "5",
                "--max-tokens",
                "777",
                "--json",
            ),
            env=environment(),
            capture_output=True,
            text=True,
            timeout=300,
        )

    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    result = json.loads(done.stdout)
    assert result["success"] and result["stop_reason"] == "tests_passed"
    assert "Hello" in (wire_project / "app.py").read_text()

    seen = server.seen
    assert len(seen) == 7
    for request in seen:
        assert request.path == "/v1/chat/completions"
        assert request.headers["authorization"] == f"Bearer {KEY}"  # from the variable --api-key-env names
        assert request.headers["content-type"] == "application/json"
        assert request.body["model"] == MODEL and request.body["max_tokens"] == 777
        assert request.body["stream"] is True and request.body["stream_options"] == {"include_usage": True}
        assert request.body["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "planner_output", "strict": True, "schema": strict_planner_schema()},
        }
    # Retry-After: 1 was honoured; the trickle (40 s of bytes) was cut at the 1.5 s request deadline: the
    # next request came while it would still have been sending.
    assert seen[1].at - seen[0].at >= 1.0
    assert seen[5].at - seen[4].at < 40.0
    # The first prompt carries the project map; the retry after the invalid reply quotes what was wrong.
    first_user = seen[0].body["messages"][1]["content"]
    assert "# Project files" in first_user and "app.py" in first_user and "README.md" in first_user
    retry_messages = seen[6].body["messages"]
    assert [m["role"] for m in retry_messages] == ["system", "user", "assistant", "user"]
    assert json.loads(retry_messages[2]["content"]) == NO_PATH
    assert "rejected" in retry_messages[3]["content"] and "path" in retry_messages[3]["content"]

    # Usage and cost: per call in the audit log, totals in the result and on screen.
    assert result["usage"]["prompt_tokens"] == 400 and result["usage"]["completion_tokens"] == 50
    assert result["cost_usd"] == pytest.approx((400 * 1.0 + 50 * 2.0) / 1e6)
    records = audit_records(wire_project)
    replies = [r for r in records if r["event"] == "planner_reply"]
    assert [r["attempts"] for r in replies] == [6, 1]
    assert all(r["response_format"] == "json_schema" for r in replies)
    summary = next((wire_project / ".hazina" / "agent-memory").glob("*.txt")).read_text(encoding="utf-8")
    assert "Planner used 450 tokens (400 in, 50 out, $0.0005)" in summary  # the invalid reply counts too
    assert_key_nowhere(wire_project, done.stdout, done.stderr)


def test_a_refused_json_schema_steps_down_once_for_the_run_and_is_recorded(wire_project: Path) -> None:
    refusal = error(
        400,
        {
            "error": {
                "code": 400,
                "message": 'response_format type must be one of "text" or "json_object", '
                "but got: json_schema",
                "type": "invalid_request_error",
            }
        },
    )
    read = {"thought": "look", "plan": [], "actions": [{"tool": "read_file", "path": "app.py"}]}
    with ScriptedServer([refusal, completion(json.dumps(read)), completion(json.dumps(GOOD))]) as server:
        done = subprocess.run(
            glmagent(
                server.base_url, wire_project, "--test", python_check("'Hello' in open('app.py').read()")
            ),
            env=environment(),
            capture_output=True,
            text=True,
            timeout=60,
        )

    assert done.returncode == 0, done.stderr + done.stdout
    sent = [r.body.get("response_format", {}).get("type") for r in server.seen]
    assert sent == ["json_schema", "json_object", "json_object"]  # remembered for the second iteration
    replies = [r for r in audit_records(wire_project) if r["event"] == "planner_reply"]
    assert replies[0]["response_format"] == "json_object"
    assert replies[0]["response_format_refused"][0]["response_format"] == "json_schema"
    assert "json_object" in replies[0]["response_format_refused"][0]["error"]
    assert replies[1]["response_format_refused"] == []
    # Totals on screen, in the summary; no price configured.
    assert "tokens      240 tokens (200 in, 40 out) · cost unknown" in done.stdout


def test_an_empty_balance_ends_the_task_at_once_with_one_line_and_exit_3(wire_project: Path) -> None:
    balance = error(
        429, {"error": {"code": "1113", "message": "Insufficient balance or no resource package"}}
    )
    with ScriptedServer([balance]) as server:
        done = subprocess.run(
            glmagent(server.base_url, wire_project),
            env=environment(),
            capture_output=True,
            text=True,
            timeout=60,
        )

    assert done.returncode == 3 and len(server.seen) == 1
    assert "Traceback" not in done.stderr
    assert "Insufficient balance" in done.stdout and "top it up" in done.stdout
    records = audit_records(wire_project)
    assert records[-1]["event"] == "task_end" and records[-1]["stop_reason"] == "planner_error"
    assert (wire_project / ".hazina" / "agent-memory").glob("*.txt")
    assert_key_nowhere(wire_project, done.stdout, done.stderr)


def test_a_base_url_with_a_query_keeps_it_after_the_path_and_in_the_message(wire_project: Path) -> None:
    with ScriptedServer([error(401, {"error": {"message": "Invalid API Key"}})]) as server:
        done = subprocess.run(
            glmagent(server.base_url + "?api-version=2024-06-01", wire_project),
            env=environment(),
            capture_output=True,
            text=True,
            timeout=60,
        )

    assert server.seen[0].path == "/v1/chat/completions?api-version=2024-06-01"
    assert done.returncode == 3
    assert "/v1/chat/completions?api-version=2024-06-01" in done.stdout
    assert "check your key" in done.stdout and KEY_VAR in done.stdout


@pytest.mark.parametrize("url", ["http://127.0.0.1:99999/v1", "http://[::1/v1", "http://exa mple.com/v1"])
def test_a_malformed_base_url_is_a_configuration_error(wire_project: Path, url: str) -> None:
    done = subprocess.run(
        glmagent(url, wire_project), env=environment(), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "invalid base URL" in done.stderr and "Traceback" not in done.stderr


def test_ctrl_c_while_waiting_for_the_model_stops_cleanly(wire_project: Path) -> None:
    with ScriptedServer([hang]) as server:
        process = subprocess.Popen(
            glmagent(server.base_url, wire_project, "--request-timeout", "300"),
            env=environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.arrived.wait(120), "the request never arrived"
            process.send_signal(signal.SIGINT)
            # The server never answers and the request may take 300 s: ending at all is stopping at once.
            _, err = process.communicate(timeout=120)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()

    assert process.returncode == 130, err
    assert "Traceback" not in err
    records = audit_records(wire_project)
    assert records[-1]["event"] == "task_end" and records[-1]["stop_reason"] == "interrupted"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_server_is_retried_then_reported_in_one_line(wire_project: Path) -> None:
    url = f"http://127.0.0.1:{_free_port()}/v1"
    done = subprocess.run(
        glmagent(url, wire_project, "--max-retries", "2"),
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3
    assert "unreachable" in done.stdout and "gave up after 3 attempts" in done.stdout
