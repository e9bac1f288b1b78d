"""The mock model servers on their own (no CLI needed, so these also run in a fast ``-m "not e2e"`` run)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from .mock_anthropic import AnthropicMock
from .mock_anthropic import tool_results as claude_tool_results
from .mock_gemini import GeminiMock
from .mock_gemini import tool_results as gemini_tool_results
from .mockmodel import Reply, ToolCall


def post(url: str, body: dict[str, Any]) -> tuple[int, str, str]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.headers["Content-Type"], resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.headers["Content-Type"], err.read().decode()


def sse_data(text: str) -> list[tuple[str | None, dict[str, Any]]]:
    events, name = [], None
    for line in text.splitlines():
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            events.append((name, json.loads(line[6:])))
            name = None
    return events


@pytest.fixture
def anthropic_mock() -> Iterator[AnthropicMock]:
    with AnthropicMock(max_requests=3) as server:
        yield server  # type: ignore[misc]


@pytest.fixture
def gemini_mock() -> Iterator[GeminiMock]:
    with GeminiMock(max_requests=3) as server:
        yield server  # type: ignore[misc]


def test_anthropic_streams_the_step_chosen_by_assistant_turns(anthropic_mock: AnthropicMock) -> None:
    anthropic_mock.script([ToolCall("Bash", {"command": "ls"}), Reply("bye")])
    status, ctype, text = post(anthropic_mock.url + "/v1/messages?beta=true", {"stream": True, "messages": [
        {"role": "user", "content": "hi"}, {"role": "system", "content": "hook context"}]})
    assert (status, ctype) == (200, "text/event-stream")
    events = sse_data(text)
    assert [n for n, _ in events] == ["message_start", "content_block_start", "content_block_delta",
                                      "content_block_stop", "message_delta", "message_stop"]
    assert events[1][1]["content_block"]["name"] == "Bash"
    assert json.loads(events[2][1]["delta"]["partial_json"]) == {"command": "ls"}
    assert events[4][1]["delta"]["stop_reason"] == "tool_use"

    history = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": []},
               {"role": "system", "content": "x"},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "no",
                                             "is_error": True}]}]
    _, _, text = post(anthropic_mock.url + "/v1/messages", {"stream": True, "messages": history})
    assert sse_data(text)[2][1]["delta"] == {"type": "text_delta", "text": "bye"}
    assert [r.turn for r in anthropic_mock.requests] == [0, 1]
    assert anthropic_mock.requests[0].query == "beta=true"
    assert claude_tool_results(anthropic_mock.requests[1].body) == [{"text": "no", "is_error": True, "id": "t"}]


def test_anthropic_keeps_answering_text_past_the_script_then_stops(anthropic_mock: AnthropicMock) -> None:
    anthropic_mock.script([Reply("first")], final="unused")
    bodies = [{"messages": [{"role": "assistant", "content": "a"}] * n} for n in range(4)]
    answers = [post(anthropic_mock.url + "/v1/messages", b) for b in bodies]
    assert [json.loads(t)["content"][0]["text"] for _, _, t in answers[:3]] == ["first"] * 3
    assert answers[3][0] == 400  # request budget spent: non-retryable, ends the run
    assert post(anthropic_mock.url + "/v1/other", {})[0] == 404
    assert len(anthropic_mock.requests) == 5 and len(anthropic_mock.model_requests) == 3


def test_gemini_answers_tool_calls_and_side_requests(gemini_mock: GeminiMock) -> None:
    gemini_mock.script([ToolCall("run_shell_command", {"command": "ls"}), Reply("bye")])
    url = gemini_mock.url + "/v1beta/models/gemini-2.5-flash"
    status, ctype, text = post(url + ":streamGenerateContent?alt=sse", {"contents": [
        {"role": "user", "parts": [{"text": "hi"}]}]})
    assert (status, ctype) == (200, "text/event-stream")
    [(_, chunk)] = sse_data(text)
    assert chunk["candidates"][0]["content"]["parts"] == [
        {"functionCall": {"name": "run_shell_command", "args": {"command": "ls"}}}]

    # A schema-constrained side request is answered without moving the script.
    _, _, text = post(url + ":generateContent", {"generationConfig": {"responseMimeType": "application/json"}})
    answer = json.loads(text)["candidates"][0]["content"]["parts"][0]["text"]
    assert json.loads(answer)["complexity_score"] == 1

    history = [{"role": "user", "parts": [{"text": "hi"}]}, {"role": "model", "parts": []},
               {"role": "user", "parts": [{"functionResponse": {"name": "run_shell_command",
                                                                "response": {"error": "blocked"}}}]}]
    _, _, text = post(url + ":streamGenerateContent?alt=sse", {"contents": history})
    assert sse_data(text)[0][1]["candidates"][0]["content"]["parts"] == [{"text": "bye"}]
    assert [r.turn for r in gemini_mock.model_requests] == [0, 1]
    assert gemini_tool_results(gemini_mock.model_requests[1].body) == [
        {"text": "blocked", "is_error": True, "name": "run_shell_command"}]
