"""The provider failures a new user hit against real servers on 127.0.0.1, one test each.

They use only the command line and library calls that existed before the provider layer was hardened
(`--provider openai` with a loopback `--base-url`, which needs no key), so each can be run against the older
code to see it fail there.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.wire_server import GOOD, ScriptedServer, Step, completion, environment, error, make_project


@pytest.fixture
def wire_project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


DONE = {"thought": "nothing left to do", "plan": [], "actions": []}


def run(base_url: str, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "glmagent", "task", "make greet say Hello", "-C", str(project)]
    command += ["--provider", "openai", "--base-url", base_url, "--model", "m", "--sandbox", "none", *args]
    return subprocess.run(command, env=environment(), capture_output=True, text=True, timeout=120)


def records(project: Path) -> list[dict[str, Any]]:
    (log,) = (project / ".hazina" / "agent-memory").glob("*.jsonl")
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_one_429_with_retry_after_is_waited_out_not_the_end_of_the_task(wire_project: Path) -> None:
    steps = [
        error(429, {"error": {"message": "rate limited"}}, Retry_After="1"),
        completion(json.dumps(DONE)),
    ]
    with ScriptedServer(steps) as server:
        done = run(server.base_url, wire_project, "--json")

    assert done.returncode != 3, done.stdout + done.stderr
    assert json.loads(done.stdout)["stop_reason"] == "no_actions"  # the planner's answer arrived
    assert len(server.seen) == 2 and server.seen[1].at - server.seen[0].at >= 1.0


def test_a_server_trickling_bytes_cannot_hold_a_request_past_its_deadline() -> None:
    from glmagent.errors import PlannerError
    from glmagent.planners import ChatMessage, OpenAICompatiblePlanner

    def trickle(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", "1000")
        handler.end_headers()
        for _ in range(600):  # 180 s in all, a byte every 0.3 s: the read timeout (1 s) never fires
            handler.wfile.write(b" ")
            handler.wfile.flush()
            time.sleep(0.3)

    outcome: list[BaseException | None] = []
    with ScriptedServer([trickle]) as server:
        planner = OpenAICompatiblePlanner(base_url=server.base_url, model="m", api_key=None, timeout=1.0)
        planner.retry.max_retries = 0

        def ask() -> None:
            try:
                planner.plan([ChatMessage(role="user", content="hi")])
                outcome.append(None)
            except BaseException as exc:
                outcome.append(exc)

        worker = threading.Thread(target=ask, daemon=True)
        worker.start()
        worker.join(60)  # generous, and still far short of the trickle's 180 s

    assert not worker.is_alive(), "the request was still running after 60 s against a 1 s timeout"
    assert isinstance(outcome[0], PlannerError) and "within 1s" in str(outcome[0])


def test_max_tokens_is_sent_and_a_strict_per_tool_schema_is_asked_for(wire_project: Path) -> None:
    with ScriptedServer([completion(json.dumps(DONE))]) as server:
        done = run(server.base_url, wire_project)

    assert done.returncode != 3, done.stdout + done.stderr
    body = server.seen[0].body
    assert isinstance(body.get("max_tokens"), int) and body["max_tokens"] > 0
    assert body["response_format"]["type"] == "json_schema"
    strict = jsonschema.Draft202012Validator(body["response_format"]["json_schema"]["schema"])
    # What a grammar-constrained decoder enforces must rule out an action without its required fields.
    assert not strict.is_valid({"thought": "", "plan": [], "actions": [{"tool": "read_file"}]})
    assert strict.is_valid({"thought": "", "plan": [], "actions": [{"tool": "read_file", "path": "app.py"}]})


def test_a_reply_cut_off_at_max_tokens_is_reported_as_such_and_recorded(wire_project: Path) -> None:
    def cut(handler: BaseHTTPRequestHandler) -> None:
        payload = {
            "choices": [{"message": {"role": "assistant", "content": '{"tho'}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 50, "completion_tokens": 4096},
        }
        body = json.dumps(payload).encode()
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    with ScriptedServer([cut]) as server:
        done = run(server.base_url, wire_project, "--json")

    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert result["stop_reason"] == "invalid_output" and "max_tokens" in result["error"]
    assert "no JSON object found" not in result["error"]
    assert "(4,096)" in result["error"] and "--max-tokens" in result["error"]
    retry_prompt = server.seen[1].body["messages"][-1]["content"]
    assert "cut off" in retry_prompt and "max_tokens" in retry_prompt
    replies = [r for r in records(wire_project) if r["event"] == "planner_reply"]
    assert [r["finish_reason"] for r in replies] == ["length", "length"]


def test_a_base_url_with_a_query_gets_the_path_before_the_query(wire_project: Path) -> None:
    with ScriptedServer([error(404, {"error": {"message": "File Not Found"}})]) as server:
        done = run(server.base_url + "?api-version=2024-06-01", wire_project, "--json")

    assert server.seen[0].path == "/v1/chat/completions?api-version=2024-06-01"
    assert done.returncode == 3
    assert "/v1/chat/completions?api-version=2024-06-01" in json.loads(done.stdout)["error"]


def test_a_port_out_of_range_is_a_configuration_error(wire_project: Path) -> None:
    done = run("http://127.0.0.1:99999/v1", wire_project)
    assert done.returncode == 2 and "Port out of range" in done.stderr


def test_a_context_length_error_shrinks_the_prompt_once_with_a_specific_hint(wire_project: Path) -> None:
    too_long = error(
        400,
        {
            "error": {
                "code": 400,
                "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error",
                "n_prompt_tokens": 9000,
                "n_ctx": 4096,
            }
        },
    )
    (wire_project / "big.log").write_text("x" * 50_000 + "\n", encoding="utf-8")
    read = {"thought": "look", "plan": [], "actions": [{"tool": "read_file", "path": "big.log"}]}
    steps: list[Step] = [completion(json.dumps(read)), too_long, completion(json.dumps(DONE))]
    with ScriptedServer(steps) as server:
        done = run(server.base_url, wire_project, "--json")

    assert done.returncode == 0, done.stdout + done.stderr
    # the user message is cut to about a quarter (the rules stay whole)
    second, third = (len(r.body["messages"][-1]["content"]) for r in server.seen[1:3])
    assert third < second / 3
    shrunk = [r for r in records(wire_project) if r["event"] == "context_shrunk"]
    assert len(shrunk) == 1
    assert (
        "context window" in shrunk[0]["error"]
        and "check the model name and parameters" not in shrunk[0]["error"]
    )


def test_twice_too_long_ends_the_task_with_exit_3_and_no_traceback(wire_project: Path) -> None:
    too_long = error(400, {"error": {"message": "This model's maximum context length is 4096 tokens."}})
    with ScriptedServer([too_long]) as server:
        done = run(server.base_url, wire_project, "--json")

    assert len(server.seen) == 2
    assert done.returncode == 3 and "Traceback" not in done.stderr
    assert "context window" in json.loads(done.stdout)["error"]


@pytest.mark.parametrize("code", ["1302", "1303", "1305"])
def test_glm_rate_limit_codes_are_retried_but_an_empty_balance_is_not(wire_project: Path, code: str) -> None:
    steps = [error(429, {"error": {"code": code, "message": "slow down"}}), completion(json.dumps(GOOD))]
    with ScriptedServer(steps) as server:
        run(server.base_url, wire_project, "--max-iterations", "1")
    assert len(server.seen) == 2

    balance = [error(429, {"error": {"code": "1113", "message": "Insufficient balance"}}), completion("{}")]
    with ScriptedServer(balance) as server:
        done = run(server.base_url, wire_project, "--max-iterations", "1")
    assert len(server.seen) == 1 and done.returncode == 3
