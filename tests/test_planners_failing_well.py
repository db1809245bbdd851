"""OpenAICompatiblePlanner against httpx.MockTransport: every row of the error map (retry, stop, shrink,
filter, step down, adjust), backoff with Retry-After inside a deadline, the structured-output step-down,
usage and cost, and that the key shows up nowhere."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from structlog.testing import capture_logs

from glmagent.errors import ContentFilteredError, ContextTooLongError, PlannerError
from glmagent.planners.base import ChatMessage
from glmagent.planners.failures import HINT_CONTEXT, HINT_OTHER, classify
from glmagent.planners.openai_compat import OpenAICompatiblePlanner
from glmagent.planners.pricing import Price
from glmagent.planners.retry import RateLimiter, RetryPolicy, parse_retry_after
from glmagent.strict_schema import strict_planner_schema
from tests.test_planners_openai_compat import BASE, MESSAGES
from tests.test_planners_openai_compat import PLAN_TEXT as PLAN

KEY = "zk-77e1c0ffee.Rg9SecretPart"


def ok(content: Any = PLAN, usage: dict[str, Any] | None = None, **choice: Any) -> httpx.Response:
    body = {
        "model": "glm-5",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
        ],
        "usage": usage or {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    body["choices"][0].update(choice)
    return httpx.Response(200, json=body)


def api_error(status: int, message: str, **fields: object) -> httpx.Response:
    """An OpenAI-shaped error body: `{"error": {"message": ..., **fields}}`."""
    return httpx.Response(status, json={"error": {"message": message, **fields}})


def glm_error(status: int, code: str, message: str = "provider says no", **headers: str) -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": code, "message": message}}, headers=headers)


class Script:
    """An httpx handler answering with prepared responses (or raising prepared errors), in order; it
    records every request and the key must never appear in anything it is asked to return."""

    def __init__(
        self, *steps: httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]
    ) -> None:
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        step = self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
        if isinstance(step, Exception):
            raise step
        if callable(step) and not isinstance(step, httpx.Response):
            return step(request)
        return step

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests]


class Sleeps(list[float]):
    """A `sleep` that records the waits instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


class Clock:
    """A monotonic clock that only its own `sleep` moves: deadlines and waits without waiting."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps = Sleeps()

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps(seconds)
        self.now += seconds


def returns_within(seconds: float, call: Callable[[], object]) -> BaseException | None:
    """Run `call` on a daemon thread and return what it raised (None if nothing). Fails when it has not
    returned after `seconds`: a generous bound that only a call which never returns can miss."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert outcome, f"still running after {seconds:g}s"
    return outcome[0]


def planner(script: Script, sleeps: Sleeps | None = None, **kwargs: Any) -> OpenAICompatiblePlanner:
    options: dict[str, Any] = {
        "base_url": BASE,
        "model": "glm-5",
        "api_key": KEY,
        "name": "glm:glm-5",
        # No jitter: the upper end of each backoff range, so waits can be asserted exactly.
        "retry": RetryPolicy(max_retries=3, backoff_s=1.0, jitter=lambda low, high: high),
        "sleep": sleeps if sleeps is not None else Sleeps(),
    }
    options.update(kwargs)
    return OpenAICompatiblePlanner(transport=httpx.MockTransport(script), **options)


def fails(script: Script, kind: type[PlannerError] = PlannerError, **kwargs: Any) -> str:
    """Run one plan() that must raise `kind`; check the key leaked nowhere; return the message."""
    subject = planner(script, **kwargs)
    with capture_logs() as logs, pytest.raises(PlannerError) as caught:
        subject.plan(MESSAGES)
    assert type(caught.value) is kind, caught.value
    message = str(caught.value)
    for text in (message, repr(caught.value), repr(subject), json.dumps(logs, default=str)):
        assert KEY not in text
    assert caught.value.__cause__ is None and (
        caught.value.__context__ is None or caught.value.__suppress_context__
    )
    return message


# -- the error map, row by row ------------------------------------------------------------------------------

RETRIED = {
    "GLM 1302 rate limit": glm_error(429, "1302"),
    "GLM 1303 rate limit": glm_error(429, "1303"),
    "GLM 1305 overloaded": glm_error(429, "1305"),
    "GLM 1312": glm_error(429, "1312"),
    "429 without a code": httpx.Response(429, text="slow down"),
    "408 request timeout": httpx.Response(408),
    "409 conflict": httpx.Response(409),
    "425 too early": httpx.Response(425),
    "500": httpx.Response(500, text="Internal Server Error"),
    "502 HTML page": httpx.Response(502, html="<html><body>Bad Gateway</body></html>"),
    "503 JSON": httpx.Response(503, json={"error": {"message": "overloaded", "type": "server_error"}}),
    "529 overloaded": httpx.Response(529),
    "connection refused": httpx.ConnectError("[Errno 111] Connection refused"),
    "connect timeout": httpx.ConnectTimeout("timed out"),
    "read timeout": httpx.ReadTimeout("timed out"),
    "dropped connection": httpx.RemoteProtocolError("Server disconnected without sending a response."),
    "reset mid-body": httpx.ReadError("[Errno 104] Connection reset by peer"),
    "200 with a body that is not JSON": httpx.Response(200, text='{"choices": [{"mess'),
    "200 with a GLM rate-limit error inside": httpx.Response(
        200, json={"error": {"code": "1302", "message": "m"}}
    ),
    "GLM finish_reason network_error": ok(None, finish_reason="network_error"),
}


@pytest.mark.parametrize("first", RETRIED.values(), ids=RETRIED.keys())
def test_transient_failures_are_retried_with_backoff_and_the_next_answer_is_used(first: Any) -> None:
    script, sleeps = Script(first, ok()), Sleeps()

    reply = planner(script, sleeps).plan(MESSAGES)

    assert reply.text == PLAN
    assert reply.attempts == 2 and len(script.requests) == 2
    assert sleeps == [1.0]  # the first backoff step (1 s, jitter pinned to the top of its range)


STOPPED = {
    "GLM 1113 empty balance (HTTP 429)": (glm_error(429, "1113", "Insufficient balance"), "balance"),
    "OpenAI insufficient_quota (HTTP 429)": (
        httpx.Response(
            429, json={"error": {"code": "insufficient_quota", "message": "You exceeded your quota"}}
        ),
        "balance",
    ),
    "GLM 1000 auth": (glm_error(401, "1000", "Authentication failed"), "check your key"),
    "GLM 1001 auth": (glm_error(401, "1001"), "check your key"),
    "GLM 1002 auth": (glm_error(401, "1002", "Invalid API key"), "check your key"),
    "GLM 1003 auth": (glm_error(401, "1003"), "check your key"),
    "GLM 1004 auth": (glm_error(401, "1004"), "check your key"),
    "401 without a code": (
        httpx.Response(401, json={"error": {"message": "Invalid API Key"}}),
        "check your key",
    ),
    "403": (httpx.Response(403, text="forbidden"), "check your key"),
    "GLM 1211 unknown model": (glm_error(400, "1211", "Model does not exist"), "model name"),
    "404": (httpx.Response(404, json={"error": "model 'glm-9' not found"}), "model name"),
    "402 payment required": (
        httpx.Response(402, json={"error": {"message": "Insufficient credits"}}),
        HINT_OTHER,
    ),
    "400 about something else": (
        httpx.Response(400, json={"error": {"message": "bad messages"}}),
        HINT_OTHER,
    ),
    **{
        f"GLM {code} account or plan": (glm_error(429, code, f"plan problem {code}"), "account or plan")
        for code in [*map(str, range(1110, 1122)), "1304", "1308", "1309", "1310", "1311", "1313"]
        if code != "1113"  # the empty balance, above
    },
}


@pytest.mark.parametrize(("response", "hint"), STOPPED.values(), ids=STOPPED.keys())
def test_hopeless_failures_stop_at_once_with_the_providers_message_and_a_hint(
    response: httpx.Response, hint: str
) -> None:
    script, sleeps = Script(response, ok()), Sleeps()

    message = fails(script, sleeps=sleeps)

    assert len(script.requests) == 1 and sleeps == []
    assert hint in message
    assert f"HTTP {response.status_code}" in message
    said = (response.json() if response.headers.get("content-type") == "application/json" else {}).get(
        "error"
    )
    if isinstance(said, dict) and said.get("message"):
        assert said["message"] in message  # the provider's own words
    if isinstance(said, dict) and said.get("code", "").isdigit():
        assert f"code {said['code']}" in message


def test_an_account_limit_keeps_the_reset_time_the_provider_gives() -> None:
    response = glm_error(
        429,
        "1308",
        "Usage limit reached for 5 hour. Your limit will reset at 2026-11-25 14:00:00",
        **{"Retry-After": "3600"},
    )

    message = fails(Script(response))

    assert "Your limit will reset at 2026-11-25 14:00:00" in message
    assert "try again in 3600s" in message


def test_an_auth_failure_names_the_variable_the_key_came_from_or_how_to_give_one() -> None:
    assert "ZAI_API_KEY" in fails(Script(glm_error(401, "1001")), key_env="ZAI_API_KEY")
    assert "--api-key-env" in fails(Script(httpx.Response(401)), api_key=None)


def test_glm_1301_content_filter_fails_the_iteration_not_the_task() -> None:
    message = fails(Script(glm_error(400, "1301", "unsafe content")), ContentFilteredError)
    assert "unsafe content" in message


@pytest.mark.parametrize("finish", ["content_filter", "sensitive"])
def test_a_reply_stopped_by_the_filter_is_a_filtered_iteration(finish: str) -> None:
    assert finish in fails(Script(ok("", finish_reason=finish)), ContentFilteredError)


CONTEXT = {
    "GLM 1261": glm_error(400, "1261", "Prompt exceeds max length"),
    "llama.cpp exceed_context_size_error": httpx.Response(
        400,
        json={
            "error": {
                "code": 400,
                "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error",
                "n_prompt_tokens": 40000,
                "n_ctx": 32768,
            }
        },
    ),
    "OpenAI context_length_exceeded": api_error(
        400,
        "This model's maximum context length is 128000 tokens. However, your messages "
        "resulted in 130000 tokens.",
        type="invalid_request_error",
        code="context_length_exceeded",
    ),
    "vLLM maximum context length": httpx.Response(
        400, json={"object": "error", "message": "This model's maximum context length is 4096 tokens."}
    ),
    "413 prompt is too long": httpx.Response(413, json={"error": {"message": "prompt is too long"}}),
}


@pytest.mark.parametrize("response", CONTEXT.values(), ids=CONTEXT.keys())
def test_context_length_errors_raise_for_the_loop_to_shrink_with_a_specific_hint(
    response: httpx.Response,
) -> None:
    script = Script(response, ok())

    message = fails(script, ContextTooLongError)

    assert len(script.requests) == 1
    assert HINT_CONTEXT in message
    assert "check the model name" not in message and HINT_OTHER not in message


def test_glm_context_window_finish_reason_is_a_context_error() -> None:
    assert HINT_CONTEXT in fails(
        Script(ok("{", finish_reason="model_context_window_exceeded")), ContextTooLongError
    )


def test_classify_reads_code_type_and_message_of_every_error_shape() -> None:
    assert classify(429, {"error": {"code": 1113, "message": "m"}}, "").kind == "stop"  # numeric code too
    assert (
        classify(200, {"error": {"code": 503, "message": "busy"}}, "").kind == "retry"
    )  # status inside a 200
    assert classify(400, {"detail": "response_format is not supported"}, "").kind == "step_down"  # FastAPI
    assert classify(400, None, "grammar error: unrecognized type strin").kind == "step_down"
    assert classify(422, {"error": "json_schema unsupported"}, "").kind == "step_down"  # Ollama's shape


# -- backoff, Retry-After, retry count and deadline ---------------------------------------------------------


def test_waits_double_up_to_the_cap_and_the_retry_count_ends_it() -> None:
    script, sleeps = Script(httpx.Response(500)), Sleeps()
    retry = RetryPolicy(max_retries=5, backoff_s=1.0, backoff_cap_s=4.0, jitter=lambda low, high: high)

    message = fails(script, sleeps=sleeps, retry=retry)

    assert sleeps == [1.0, 2.0, 4.0, 4.0, 4.0]
    assert len(script.requests) == 6 and "gave up after 6 attempts" in message


def test_jitter_spreads_each_wait_within_its_half_range() -> None:
    policy = RetryPolicy(backoff_s=2.0)
    waits = [policy.delay(3, None) for _ in range(200)]
    assert all(4.0 <= w <= 8.0 for w in waits) and len({round(w, 3) for w in waits}) > 50


def test_retry_after_seconds_and_dates_are_honoured() -> None:
    script, sleeps = Script(glm_error(429, "1302", **{"Retry-After": "7"}), ok()), Sleeps()
    planner(script, sleeps, retry=RetryPolicy(jitter=lambda low, high: low)).plan(MESSAGES)
    assert sleeps == [7.0]

    assert parse_retry_after("Wed, 25 Nov 2026 10:00:30 GMT", now=1795600800.0) == pytest.approx(30.0)
    assert parse_retry_after("soon") is None and parse_retry_after("-3") == 0.0


def test_a_retry_after_past_the_deadline_stops_at_once_and_says_why() -> None:
    script, sleeps = Script(glm_error(429, "1302", **{"Retry-After": "600"}), ok()), Sleeps()

    message = fails(script, sleeps=sleeps, retry=RetryPolicy(total_deadline_s=60))

    assert sleeps == [] and len(script.requests) == 1
    assert "asked to wait 600s, past the 60s retry deadline" in message


def test_the_total_deadline_bounds_a_call_however_many_retries_are_allowed() -> None:
    script, clock = Script(httpx.Response(503)), Clock()
    retry = RetryPolicy(max_retries=50, backoff_s=1.0, total_deadline_s=60, jitter=lambda low, high: high)

    message = fails(script, sleeps=clock.sleep, clock=clock, retry=retry)

    # 1+2+4+8+16 = 31 s waited; the next wait (30 s, the cap) would end past the 60 s deadline.
    assert clock.sleeps == [1.0, 2.0, 4.0, 8.0, 16.0]
    assert len(script.requests) == 6 and "gave up after 6 attempts" in message


def test_a_request_is_cut_off_at_the_total_deadline_when_that_comes_before_its_own_timeout() -> None:
    release, answered = threading.Event(), threading.Event()

    def slow(request: httpx.Request) -> httpx.Response:
        release.wait(300)
        answered.set()
        return ok()

    retry = RetryPolicy(max_retries=3, total_deadline_s=0.5)
    subject = planner(Script(slow), timeout=600, retry=retry, clock=Clock())
    try:
        # The bound is generous: the call must end at its 0.5 s deadline, not at the 600 s request timeout.
        error = returns_within(60, lambda: subject.plan(MESSAGES))
        assert not answered.is_set(), "plan() waited for the server past its deadline"
    finally:
        release.set()
        subject.close()
    assert isinstance(error, PlannerError) and "within 0.5s" in str(error), error


def test_one_request_is_cut_off_at_its_deadline_even_when_the_server_never_stops_sending() -> None:
    def endless(request: httpx.Request) -> httpx.Response:
        def trickle() -> Iterator[bytes]:
            while True:  # a byte at a time: a read timeout alone would never fire
                time.sleep(0.05)
                yield b" "

        return httpx.Response(200, content=trickle())

    # The trickle never ends: returning at all (within a generous bound) is the cut-off.
    error = returns_within(
        60, lambda: planner(Script(endless), timeout=0.5, retry=RetryPolicy(max_retries=0)).plan(MESSAGES)
    )
    assert isinstance(error, PlannerError), error
    assert "within 0.5s" in str(error) and "--request-timeout" in str(error)


def test_ctrl_c_during_a_request_stops_the_call_at_once() -> None:
    release, answered = threading.Event(), threading.Event()

    def hang(request: httpx.Request) -> httpx.Response:
        release.wait(300)
        answered.set()
        return ok()

    subject = planner(Script(hang), timeout=600)
    # A real SIGINT, as Ctrl-C sends: it must interrupt the wait, not only set a flag.
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        with pytest.raises(KeyboardInterrupt):
            subject.plan(MESSAGES)
        assert not answered.is_set(), "the call waited for the server instead of stopping"
        # The abandoned request runs on a daemon thread: it cannot keep the process from exiting.
        assert all(t.daemon for t in threading.enumerate() if t.name == "glmagent-planner-request")
        assert subject.plan is not None and subject._client is not None
    finally:
        release.set()
        subject.close()


def test_requests_per_minute_spaces_request_starts() -> None:
    now = [100.0]
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    limiter = RateLimiter(30, clock=lambda: now[0], sleep=sleep)
    for _ in range(3):
        limiter.wait()
        now[0] += 0.5  # the request itself
    assert waits == [pytest.approx(1.5), pytest.approx(1.5)]
    assert RateLimiter(None, sleep=sleep).interval == 0


def test_the_rate_limit_applies_to_every_request_of_the_planner() -> None:
    script, sleeps = Script(ok()), Sleeps()
    subject = planner(script, sleeps, requests_per_minute=10)  # 6 s apart; the recorded sleeps take no time
    for _ in range(3):
        subject.plan(MESSAGES)
    assert len(script.requests) == 3 and len(sleeps) == 2 and all(3.0 < s <= 6.0 for s in sleeps)


# -- structured output: ask for the strictest, step down, remember, record ----------------------------------

SCHEMA = strict_planner_schema()
LADDER = ("json_schema", "json_object", "none")


def formats_sent(script: Script) -> list[str]:
    return [b.get("response_format", {}).get("type", "none") for b in script.bodies]


@pytest.mark.parametrize(
    "refusal",
    [
        httpx.Response(400, json={"error": {"message": "response_format json_schema is not supported"}}),
        httpx.Response(422, json={"detail": "Unsupported response_format type"}),
        httpx.Response(
            400,
            json={
                "error": {
                    "code": 400,
                    "message": 'response_format type must be one of "text" or "json_object", '
                    "but got: json_schema",
                    "type": "invalid_request_error",
                }
            },
        ),
    ],
    ids=["openai-style", "fastapi-422", "llama.cpp-style"],
)
def test_a_refused_json_schema_steps_down_to_json_object_and_is_remembered(refusal: httpx.Response) -> None:
    script = Script(refusal, ok())
    subject = planner(script, formats=LADDER, schema=SCHEMA)

    first = subject.plan(MESSAGES)
    second = subject.plan(MESSAGES)

    assert formats_sent(script) == ["json_schema", "json_object", "json_object"]
    assert first.response_format == "json_object" and second.response_format == "json_object"
    assert [r["response_format"] for r in first.response_format_refused] == ["json_schema"]
    assert first.response_format_refused[0]["next"] == "json_object"
    assert "HTTP" in first.response_format_refused[0]["error"]
    assert second.response_format_refused == []  # remembered: not asked again this run
    assert subject.response_format == "json_object"


def test_the_ladder_ends_at_the_prompt_alone_and_fails_below_it() -> None:
    refusal = httpx.Response(
        400, json={"error": {"message": "structured output unsupported: response_format"}}
    )
    script = Script(refusal, refusal, ok())
    reply = planner(script, formats=LADDER, schema=SCHEMA).plan(MESSAGES)
    assert formats_sent(script) == ["json_schema", "json_object", "none"] and reply.response_format == "none"

    message = fails(Script(refusal), formats=("none",))
    assert "structured-output" in message


def test_the_strict_schema_is_sent_whole_and_without_length_keywords_when_those_are_refused() -> None:
    refusal = api_error(
        400,
        "Invalid schema for response_format 'planner_output': In context=('properties', "
        "'thought'), 'maxLength' is not permitted.",
        type="invalid_request_error",
    )
    script = Script(refusal, ok())

    reply = planner(script, formats=LADDER, schema=SCHEMA).plan(MESSAGES)

    assert reply.response_format_refused[0]["next"] == "json_schema without minLength/maxLength"
    first, second = (b["response_format"] for b in script.bodies)
    assert first == {
        "type": "json_schema",
        "json_schema": {"name": "planner_output", "strict": True, "schema": SCHEMA},
    }
    assert second["type"] == "json_schema" and reply.response_format == "json_schema"
    sent = json.dumps(second["json_schema"]["schema"])
    assert "maxLength" not in sent and "minLength" not in sent and '"anyOf"' in sent and "maxItems" in sent
    assert "maxLength" in json.dumps(SCHEMA)  # the shared schema object was not changed


def test_the_schema_is_written_into_the_prompt_only_where_the_request_does_not_enforce_it() -> None:
    rules = ChatMessage(role="system", content="RULES", schema_text="\nSCHEMA WRITTEN OUT")
    task = ChatMessage(role="user", content="TASK")
    refusal = httpx.Response(400, json={"error": {"message": "response_format json_schema is not supported"}})
    script = Script(refusal, ok())

    planner(script, formats=LADDER, schema=SCHEMA).plan([rules, task])
    planner(script, formats=("json_schema",)).plan([rules, task])  # no schema given: nothing enforces it

    sent = [[m["content"] for m in body["messages"]] for body in script.bodies]
    assert formats_sent(script) == ["json_schema", "json_object", "none"]
    assert sent == [
        ["RULES", "TASK"],
        ["RULES\nSCHEMA WRITTEN OUT", "TASK"],  # stepped down: the prompt carries it again
        ["RULES\nSCHEMA WRITTEN OUT", "TASK"],
    ]


def test_without_a_schema_no_json_schema_is_asked_for() -> None:
    script = Script(ok())
    planner(script, formats=LADDER).plan(MESSAGES)
    assert formats_sent(script) == ["json_object"]


def test_a_step_down_is_recorded_in_the_audit_log(tmp_path: Any) -> None:
    from glmagent.loop import AgentLoop, Task
    from glmagent.memory import AgentSummaryStore

    refusal = httpx.Response(400, json={"error": {"message": "json_schema not supported"}})
    memory = AgentSummaryStore(tmp_path, "t1")
    loop = AgentLoop(
        planner=planner(Script(refusal, ok()), formats=LADDER, schema=SCHEMA),
        executor=None,  # type: ignore[arg-type]  # the reply has no actions
        memory=memory,
    )
    loop.run(Task(description="d", working_directory=tmp_path, task_id="t1"))

    records = [json.loads(line) for line in memory.audit_path.read_text().splitlines()]
    (reply,) = [r for r in records if r["event"] == "planner_reply"]
    assert reply["response_format"] == "json_object"
    assert reply["response_format_refused"][0]["response_format"] == "json_schema"


# -- parameters a model does not take -----------------------------------------------------------------------


def test_a_model_that_wants_max_completion_tokens_gets_it_from_then_on() -> None:
    refusal = api_error(
        400,
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
        "'max_completion_tokens' instead.",
        type="invalid_request_error",
        code="unsupported_parameter",
    )
    script = Script(refusal, ok())
    subject = planner(script, max_tokens=900)

    subject.plan(MESSAGES)
    subject.plan(MESSAGES)

    first, second, third = script.bodies
    assert first["max_tokens"] == 900 and "max_completion_tokens" not in first
    assert second["max_completion_tokens"] == 900 and "max_tokens" not in second
    assert third["max_completion_tokens"] == 900


def test_a_model_that_only_takes_its_default_temperature_gets_none_sent() -> None:
    refusal = api_error(
        400,
        "Unsupported value: 'temperature' does not support 0 with this model. Only the "
        "default (1) value is supported.",
        code="unsupported_value",
    )
    script = Script(refusal, refusal, ok())

    message = fails(script)  # adjusted once; the same refusal again is not adjusted twice

    assert "temperature" in script.bodies[0] and "temperature" not in script.bodies[1]
    assert len(script.requests) == 2 and "temperature" in message


def test_max_tokens_is_always_sent() -> None:
    script = Script(ok())
    planner(script).plan(MESSAGES)
    assert script.bodies[0]["max_tokens"] == 4096


# -- usage and cost -----------------------------------------------------------------------------------------

USAGES = {
    "OpenAI details": (
        {
            "prompt_tokens": 1000,
            "completion_tokens": 300,
            "total_tokens": 1300,
            "prompt_tokens_details": {"cached_tokens": 400},
            "completion_tokens_details": {"reasoning_tokens": 200},
        },
        (1000, 300, 1300, 200, 400),
    ),
    "top-level counts": (
        {"prompt_tokens": 50, "completion_tokens": 20, "reasoning_tokens": 5, "cached_tokens": 10},
        (50, 20, 70, 5, 10),
    ),
    "llama.cpp (no reasoning)": (
        {
            "completion_tokens": 4,
            "prompt_tokens": 9,
            "total_tokens": 13,
            "prompt_tokens_details": {"cached_tokens": 0},
        },
        (9, 4, 13, 0, 0),
    ),
    "odd values ignored, details bounded by their totals": (
        {
            "prompt_tokens": "many",
            "completion_tokens": 3,
            "completion_tokens_details": {"reasoning_tokens": 99},
        },
        (0, 3, 3, 3, 0),
    ),
}


@pytest.mark.parametrize(("usage", "expected"), USAGES.values(), ids=USAGES.keys())
def test_usage_reads_prompt_completion_reasoning_and_cached_tokens(
    usage: dict[str, Any], expected: tuple[int, ...]
) -> None:
    reply = planner(Script(ok(usage=usage))).plan(MESSAGES)
    assert reply.usage is not None
    counts = reply.usage
    got = (counts.prompt_tokens, counts.completion_tokens, counts.total_tokens)
    assert (*got, counts.reasoning_tokens, counts.cached_tokens) == expected


def test_reasoning_content_is_ignored_but_its_tokens_are_counted() -> None:
    response = ok(
        PLAN,
        usage={
            "prompt_tokens": 10,
            "completion_tokens": 250,
            "completion_tokens_details": {"reasoning_tokens": 240},
        },
    )
    body = response.json()
    body["choices"][0]["message"]["reasoning_content"] = "Let me think about the parser at length..."

    reply = planner(Script(httpx.Response(200, json=body))).plan(MESSAGES)

    assert reply.text == PLAN
    assert reply.usage is not None and (reply.usage.completion_tokens, reply.usage.reasoning_tokens) == (
        250,
        240,
    )


def test_a_priced_model_costs_its_tokens_and_an_unpriced_one_costs_null() -> None:
    usage = {
        "prompt_tokens": 1_000_000,
        "completion_tokens": 100_000,
        "prompt_tokens_details": {"cached_tokens": 500_000},
    }
    price = Price(input=1.0, output=3.2, cached_input=0.2)

    priced = planner(Script(ok(usage=usage)), price=price).plan(MESSAGES)
    unpriced = planner(Script(ok(usage=usage))).plan(MESSAGES)
    no_usage = planner(
        Script(httpx.Response(200, json={"choices": [{"message": {"content": PLAN}}]})), price=price
    )

    assert priced.cost_usd == pytest.approx(0.5 + 0.1 + 0.32)
    assert unpriced.cost_usd is None
    assert no_usage.plan(MESSAGES).cost_usd is None


def test_task_totals_add_up_usage_and_cost_and_one_unknown_price_makes_the_cost_unknown(
    tmp_path: Any,
) -> None:
    from glmagent.loop import AgentLoop, Task
    from glmagent.memory import AgentSummaryStore

    bad = ok(
        "not json",
        usage={"prompt_tokens": 100, "completion_tokens": 10, "prompt_tokens_details": {"cached_tokens": 40}},
    )
    good = ok(
        PLAN,
        usage={
            "prompt_tokens": 200,
            "completion_tokens": 20,
            "completion_tokens_details": {"reasoning_tokens": 5},
        },
    )
    memory = AgentSummaryStore(tmp_path, "t2")
    price = Price(input=2.0, output=10.0)
    loop = AgentLoop(planner=planner(Script(bad, good), price=price), executor=None, memory=memory)  # type: ignore[arg-type]

    result = loop.run(Task(description="d", working_directory=tmp_path, task_id="t2"))

    usage = result.usage
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (300, 30, 330)
    assert (usage.reasoning_tokens, usage.cached_tokens) == (5, 40)
    assert result.cost_usd == pytest.approx((300 * 2.0 + 30 * 10.0) / 1e6)
    summary = memory.summary_path.read_text()
    assert (
        "Planner used 330 tokens (300 in of which 40 cached, 30 out of which 5 reasoning, $0.0009)" in summary
    )
    records = [json.loads(line) for line in memory.audit_path.read_text().splitlines()]
    (end,) = [r for r in records if r["event"] == "task_end"]
    assert end["usage"]["total_tokens"] == 330 and end["cost_usd"] == pytest.approx(0.0009)

    unpriced = AgentLoop(
        planner=planner(Script(good)), executor=None, memory=AgentSummaryStore(tmp_path, "t3")
    )  # type: ignore[arg-type]
    assert unpriced.run(Task(description="d", working_directory=tmp_path, task_id="t3")).cost_usd is None


# -- the key is nowhere -------------------------------------------------------------------------------------


def test_a_provider_echoing_the_key_never_gets_it_into_messages_logs_or_records(tmp_path: Any) -> None:
    from glmagent.loop import AgentLoop, Task
    from glmagent.memory import AgentSummaryStore

    echo = httpx.Response(401, json={"error": {"code": "1002", "message": f"Invalid API key {KEY}"}})
    memory = AgentSummaryStore(tmp_path, "t4")
    subject = planner(Script(echo))
    with capture_logs() as logs:
        result = AgentLoop(planner=subject, executor=None, memory=memory).run(  # type: ignore[arg-type]
            Task(description="d", working_directory=tmp_path, task_id="t4")
        )

    assert result.stop_reason == "planner_error" and "**********" in (result.error or "")
    for text in (
        result.model_dump_json(),
        memory.summary_path.read_text(),
        memory.audit_path.read_text(),
        json.dumps(logs, default=str),
        repr(subject),
        repr(subject._client.auth),
    ):
        assert KEY not in text


def test_text_utf8_cannot_carry_is_sent_as_a_replacement_character() -> None:
    script = Script(ok())
    planner(script).plan([ChatMessage(role="user", content="file \udcff name")])
    assert script.bodies[0]["messages"][0]["content"] == "file \ufffd name"
