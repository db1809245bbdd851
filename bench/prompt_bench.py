"""Benchmark the prompt's growth at the wire over a long task, and what the audit log keeps.

    python bench/prompt_bench.py [--iterations N]

A loopback HTTP server speaks the OpenAI chat-completions API, records every request body it receives, and
answers as a model would: each iteration appends one line to notes.txt with `apply_diff` and runs a
command; the test command passes once all N lines are there, so the task runs N iterations (default 40).
The real agent (`--provider openai-compatible`) talks to it over TCP.

Printed: the prompt size (characters of all messages, and request body bytes) of iteration 2 and of the
last iteration, and their ratios. Target: last <= 1.3x second in request bytes, which hold the reply schema
either way (written into the system prompt, or as the `json_schema` format the server enforces: the prompt's
characters then lack those 2,802, and the same growth is a larger share of them). The same task with every
earlier summary sent in full (how glmagent built prompts before, measured in the same run) is the baseline.
Also printed: the audit log's size, and how big it would be with the system prompt repeated in every request.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import shlex
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import structlog  # noqa: E402

from glmagent.agent import CodingAgent, planner_from_settings  # noqa: E402
from glmagent.audit import iter_records  # noqa: E402
from glmagent.config import Settings  # noqa: E402
from glmagent.prompt import ContextBuilder  # noqa: E402

_ITERATION = re.compile(r"Iteration (\d+) of at most")


class _ModelServer(BaseHTTPRequestHandler):
    """Answers chat completions with the next step of the scripted task; keeps every request body."""

    bodies: ClassVar[list[bytes]] = []

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        type(self).bodies.append(body)
        messages = json.loads(body)["messages"]
        found = _ITERATION.search(messages[-1]["content"])
        step = int(found.group(1)) if found else 1
        reply = json.dumps(_plan(step))
        answer = {
            "id": f"bench-{step}",
            "object": "chat.completion",
            "model": "bench",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": len(body) // 4, "completion_tokens": len(reply) // 4},
        }
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _plan(step: int) -> dict[str, Any]:
    if step == 1:
        diff = "--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1 @@\n+step 1\n"
    else:
        diff = f"--- a/notes.txt\n+++ b/notes.txt\n@@\n step {step - 1}\n+step {step}\n"
    return {
        "thought": f"Add line {step} to notes.txt, then look at the file.",
        "plan": ["append the next line", "check the file"],
        "actions": [
            {"tool": "apply_diff", "path": "notes.txt", "diff": diff},
            {"tool": "run", "command": "wc -l notes.txt"},
        ],
    }


def run_task(iterations: int, context: ContextBuilder) -> tuple[list[bytes], Path]:
    """Run the scripted task against a fresh loopback server; returns the request bodies and the audit log."""
    _ModelServer.bodies = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _ModelServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        project = Path(tempfile.mkdtemp(prefix="glmagent-prompt-bench-"))
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        settings = Settings(
            provider="openai-compatible", base_url=url, model="bench", shell="posix", sandbox="none"
        )
        check = f"import sys; sys.exit(0 if len(open('notes.txt').read().split()) >= {2 * iterations} else 1)"
        test = f"{shlex.quote(sys.executable)} -c {shlex.quote(check)}"
        planner = planner_from_settings(settings)
        try:
            agent = CodingAgent(planner=planner, settings=settings, context=context)
            task = CodingAgent.create_task(
                "write notes.txt, one step per line", project, iterations, test, task_id="bench"
            )
            result = agent.run(task)
        finally:
            close = getattr(planner, "close", None)
            if callable(close):
                close()
        if result.iterations != iterations:
            raise SystemExit(f"the task ran {result.iterations} iterations, not {iterations}: {result.error}")
        return list(_ModelServer.bodies), project / ".hazina" / "agent-memory" / "bench.jsonl"
    finally:
        server.shutdown()
        server.server_close()


def prompt_chars(body: bytes) -> int:
    return sum(len(m["content"]) for m in json.loads(body)["messages"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=40, help="iterations of the task (default 40)")
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    n = args.iterations
    print(f"a {n}-iteration task against a loopback OpenAI-compatible server (requests recorded at the wire)")
    bounded, log = run_task(n, ContextBuilder())
    full, _ = run_task(n, ContextBuilder(recent_iterations=None, memory_cap=10**9))
    for label, bodies in (("bounded memory (glmagent)", bounded), ("every summary in full (before)", full)):
        second, last = prompt_chars(bodies[1]), prompt_chars(bodies[-1])
        target = "   target <= 1.3x body" if bodies is bounded else ""
        print(
            f"{label + ':':<32} iteration 2: {second:>6,} chars ({len(bodies[1]):>6,} B body)   "
            f"iteration {n}: {last:>6,} chars ({len(bodies[-1]):>6,} B body)   "
            f"last/second: {last / second:.2f}x chars, {len(bodies[-1]) / len(bodies[1]):.2f}x body{target}"
        )
    records = list(iter_records(log))
    parts = sum(len(r["text"]) for r in records if r["event"] == "prompt_part")
    requests = sum(1 for r in records if r["event"] == "planner_request")
    size = log.stat().st_size
    repeated = (size + parts * (requests - 1)) / 1024
    print(
        f"audit log of the bounded run:    {size / 1024:,.1f} KB, {len(records)} records; with the system "
        f"prompt repeated in each of the {requests} requests it would be {repeated:,.1f} KB"
    )


if __name__ == "__main__":
    main()
