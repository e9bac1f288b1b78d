"""Loopback mock of the OpenAI chat-completions API (``POST …/chat/completions``), scripted per test.

Qwen Code and GitHub Copilot CLI (BYOK mode) both talk to it. Both stream (``"stream": true``,
server-sent ``data:`` chunks ending with ``data: [DONE]``); a non-streaming request gets one
``chat.completion`` object. A scripted ``ToolCall`` becomes one ``tool_calls`` entry
(``finish_reason: "tool_calls"``), a ``Reply`` a text answer (``finish_reason: "stop"``).

The step is picked by counting ``assistant`` messages already in the conversation. Requests that
are not part of the scripted conversation (Qwen Code's auto-memory agent after the answer, any
other helper call) are recognised by ``side_request`` and answered with text without touching the
script; they are still recorded (``Recorded.step`` stays None).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from .mockmodel import Recorded, Reply, ScriptedModelServer, Step, ToolCall, json_bytes

SIDE_ANSWER = "OK."
# Text found in the system prompt of side requests that must not consume a scripted step.
SIDE_REQUEST_MARKERS = (
    "Managed memory has TWO directories",  # Qwen Code 0.24.4: auto-memory agent after the final answer
)


def default_side_request(body: dict[str, Any]) -> str | None:
    """The answer for a helper request outside the scripted conversation, or None for a scripted one.

    A request is a side request when its system message carries one of ``SIDE_REQUEST_MARKERS``.
    """
    system = "\n".join(_flatten(m.get("content")) for m in body.get("messages", [])
                       if isinstance(m, dict) and m.get("role") == "system")
    if any(marker in system for marker in SIDE_REQUEST_MARKERS):
        return SIDE_ANSWER
    return None


class OpenAIChatMock(ScriptedModelServer):
    """Answers ``/chat/completions`` (any prefix, e.g. ``/v1``) from the script; ``GET /models`` lists
    one model. Point the CLI's base URL at ``server.url + "/v1"``."""

    api_name = "openai-chat"

    def __init__(self, *, max_requests: int | None = None,
                 side_request: Callable[[dict[str, Any]], str | None] = default_side_request) -> None:
        super().__init__(**({} if max_requests is None else {"max_requests": max_requests}))
        self.side_request = side_request

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (``http://127.0.0.1:<port>/v1``)."""
        return self.url + "/v1"

    def dispatch(self, method: str, path: str, body: Any, rec: Recorded) -> tuple[int, str, bytes]:
        if method == "GET" and path.rstrip("/").endswith("/models"):
            return 200, "application/json", json_bytes(
                {"object": "list", "data": [{"id": "mock-model", "object": "model", "created": 0,
                                             "owned_by": "mock"}]})
        if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
            return 404, "application/json", _error(404, f"{method} {path}")
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return 400, "application/json", _error(400, "mock: body has no messages")
        model = str(body.get("model") or "mock-model")
        stream = bool(body.get("stream"))
        usage = bool((body.get("stream_options") or {}).get("include_usage"))
        side = self.side_request(body)
        if side is not None:
            return _answer(Reply(side), model, self._next_id(), stream, usage)
        turn = sum(1 for m in body["messages"] if isinstance(m, dict) and m.get("role") == "assistant")
        step = self._next_step(turn)
        if step is None:
            return 400, "application/json", _error(400, "mock: request budget spent")
        rec.turn, rec.step = turn, step
        return _answer(step, model, self._next_id(), stream, usage)


_USAGE = {"prompt_tokens": 12, "completion_tokens": 8, "total_tokens": 20}


def _answer(step: Step, model: str, n: int, stream: bool, usage: bool) -> tuple[int, str, bytes]:
    completion_id = f"chatcmpl-mock-{n:04d}"
    created = int(time.time())
    if isinstance(step, ToolCall):
        call = {"id": f"call_mock_{n}", "type": "function",
                "function": {"name": step.name, "arguments": json.dumps(step.input)}}
        message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
        finish = "tool_calls"
    else:
        assert isinstance(step, Reply)
        message = {"role": "assistant", "content": step.text}
        finish = "stop"
    if not stream:
        return 200, "application/json", json_bytes({
            "id": completion_id, "object": "chat.completion", "created": created, "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": _USAGE,
        })

    def chunk(delta: dict[str, Any], finish_reason: str | None) -> dict[str, Any]:
        return {"id": completion_id, "object": "chat.completion.chunk", "created": created, "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}]}

    if isinstance(step, ToolCall):
        call = message["tool_calls"][0]
        chunks = [
            chunk({"role": "assistant", "content": None,
                   "tool_calls": [{"index": 0, "id": call["id"], "type": "function",
                                   "function": {"name": call["function"]["name"], "arguments": ""}}]}, None),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": call["function"]["arguments"]}}]}, None),
        ]
    else:
        chunks = [chunk({"role": "assistant", "content": ""}, None), chunk({"content": step.text}, None)]
    chunks.append(chunk({}, finish))
    if usage:
        chunks.append({"id": completion_id, "object": "chat.completion.chunk", "created": created,
                       "model": model, "choices": [], "usage": _USAGE})
    data = "".join(f"data: {json.dumps(c, separators=(',', ':'))}\n\n" for c in chunks) + "data: [DONE]\n\n"
    return 200, "text/event-stream", data.encode()


def _error(code: int, message: str) -> bytes:
    kind = "invalid_request_error" if code == 400 else "not_found_error"
    return json_bytes({"error": {"message": message, "type": kind, "code": code}})


# Reading what the CLI sent ---------------------------------------------------------------------


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every ``role: "tool"`` message, oldest first, as {text, is_error, id, name}.

    The chat-completions format has no error flag: ``is_error`` is None, look at the text.
    ``name`` is the function the matching assistant ``tool_calls`` entry named.
    """
    names: dict[str, str] = {}
    out = []
    for msg in body.get("messages", []):
        if not isinstance(msg, dict):
            continue
        for call in msg.get("tool_calls") or []:
            names[str(call.get("id"))] = str((call.get("function") or {}).get("name"))
        if msg.get("role") == "tool":
            call_id = msg.get("tool_call_id")
            out.append({"text": _flatten(msg.get("content")), "is_error": None, "id": call_id,
                        "name": names.get(str(call_id))})
    return out


def conversation_text(body: dict[str, Any], *, include_system: bool = False) -> str:
    """All text the messages carry (tool results and tool-call arguments included).

    System messages are left out unless ``include_system``: Qwen Code puts SessionStart context into
    the system prompt, Copilot CLI sends hook context as user messages.
    """
    chunks = []
    for msg in body.get("messages", []):
        if not isinstance(msg, dict) or (msg.get("role") == "system" and not include_system):
            continue
        chunks.append(_flatten(msg.get("content")))
        for call in msg.get("tool_calls") or []:
            chunks.append(str((call.get("function") or {}).get("arguments", "")))
    return "\n".join(c for c in chunks if c)


def system_text(body: dict[str, Any]) -> str:
    """The text of the ``system`` messages only."""
    return "\n".join(_flatten(m.get("content")) for m in body.get("messages", [])
                     if isinstance(m, dict) and m.get("role") == "system")


def user_texts(body: dict[str, Any]) -> list[str]:
    """The text of each ``user`` message, in order."""
    return [_flatten(m.get("content")) for m in body.get("messages", [])
            if isinstance(m, dict) and m.get("role") == "user"]


def tool_names(body: dict[str, Any]) -> list[str]:
    """The function names offered to the model in ``tools``."""
    return [str((t.get("function") or {}).get("name")) for t in body.get("tools") or [] if isinstance(t, dict)]


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
    return ""
