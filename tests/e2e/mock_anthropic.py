"""Loopback mock of the Anthropic Messages API (``POST /v1/messages``, SSE), scripted per test."""

from __future__ import annotations

import json
from typing import Any

from .mockmodel import Recorded, Reply, ScriptedModelServer, Step, ToolCall, json_bytes, sse

_USAGE = {"input_tokens": 12, "output_tokens": 1, "cache_creation_input_tokens": 0,
          "cache_read_input_tokens": 0}


class AnthropicMock(ScriptedModelServer):
    """Answers ``/v1/messages`` from the script; counts ``assistant`` messages to pick the step."""

    api_name = "anthropic"

    def dispatch(self, method: str, path: str, body: Any, rec: Recorded) -> tuple[int, str, bytes]:
        if method != "POST" or not isinstance(body, dict):
            return 404, "application/json", _error("not_found_error", f"{method} {path}")
        if path.endswith("/count_tokens"):
            return 200, "application/json", json_bytes({"input_tokens": 12})
        if not path.endswith("/v1/messages"):
            return 404, "application/json", _error("not_found_error", path)
        turn = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
        step = self._next_step(turn)
        if step is None:
            return 400, "application/json", _error("invalid_request_error", "mock: request budget spent")
        rec.turn, rec.step = turn, step
        message_id = f"msg_mock_{self._next_id():04d}"
        model = body.get("model", "claude-mock")
        if body.get("stream"):
            return 200, "text/event-stream", _stream(step, message_id, model, self._next_id())
        return 200, "application/json", json_bytes(_message(step, message_id, model, self._next_id()))


def _tool_use_id(n: int) -> str:
    return f"toolu_mock_{n:04d}"


def _message(step: Step, message_id: str, model: str, n: int) -> dict[str, Any]:
    if isinstance(step, ToolCall):
        content = [{"type": "tool_use", "id": _tool_use_id(n), "name": step.name, "input": step.input}]
        stop = "tool_use"
    else:
        content = [{"type": "text", "text": step.text}]
        stop = "end_turn"
    return {
        "id": message_id, "type": "message", "role": "assistant", "model": model, "content": content,
        "stop_reason": stop, "stop_sequence": None, "usage": _USAGE,
    }


def _stream(step: Step, message_id: str, model: str, n: int) -> bytes:
    start = {
        "id": message_id, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": _USAGE,
    }
    if isinstance(step, ToolCall):
        block = {"type": "tool_use", "id": _tool_use_id(n), "name": step.name, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(step.input)}
        stop = "tool_use"
    else:
        assert isinstance(step, Reply)
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": step.text}
        stop = "end_turn"
    return sse([
        ("message_start", {"type": "message_start", "message": start}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                           "usage": {"output_tokens": 8}}),
        ("message_stop", {"type": "message_stop"}),
    ])


def _error(kind: str, message: str) -> bytes:
    return json_bytes({"type": "error", "error": {"type": kind, "message": message}})


# Reading what Claude Code sent -----------------------------------------------------------------


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every ``tool_result`` block in the conversation, oldest first, as {text, is_error, id}."""
    out = []
    for msg in body.get("messages", []):
        content = msg.get("content")
        if msg.get("role") != "user" or not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                out.append({"text": _flatten(block.get("content")), "is_error": bool(block.get("is_error")),
                            "id": block.get("tool_use_id")})
    return out


def conversation_text(body: dict[str, Any]) -> str:
    """All text the conversation carries (messages only: not the system prompt, not the tools)."""
    return "\n".join(_flatten(m.get("content")) for m in body.get("messages", []))


def _flatten(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_flatten(c) for c in content)
    if isinstance(content, dict):
        if "text" in content:
            return str(content["text"])
        if "content" in content:
            return _flatten(content["content"])
        if content.get("type") == "tool_use":
            return json.dumps(content.get("input"))
    return ""
