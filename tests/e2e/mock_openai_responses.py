"""Loopback mock of the OpenAI Responses API (``POST <base>/responses``, SSE), scripted per test.

Codex CLI talks to it through a custom model provider (``wire_api = "responses"``); see
``codex_harness.py`` for the config. The script is the shared one of ``mockmodel``: a list of
``ToolCall`` / ``Reply`` steps. A ``ToolCall`` is sent in the shape the request's own ``tools`` list
asks for:

* a ``"type": "function"`` tool (Codex's shell tool ``exec_command``) becomes a ``function_call``
  item whose ``arguments`` are the JSON of ``ToolCall.input``;
* a ``"type": "custom"`` (freeform) tool (``apply_patch``) becomes a ``custom_tool_call`` item whose
  ``input`` is ``ToolCall.input["input"]`` (the raw patch text);
* a tool the request does not offer is answered as a ``function_call`` anyway (Codex then reports
  an unknown tool to the model, which a test can see).

The step is picked by counting the items the model itself produced that the request's ``input``
carries back (tool calls and assistant messages): Codex inserts ``developer`` messages (hook
context), ``user`` messages (a Stop hook's reason) and tool outputs between them, so neither the
request count nor the number of tool outputs tells where the agent is after a Stop hook block.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .mockmodel import Recorded, Reply, ScriptedModelServer, Step, ToolCall, json_bytes, sse

# Input item types that are the model's own output, echoed back by the client.
MODEL_ITEM_TYPES = frozenset({"function_call", "custom_tool_call", "local_shell_call", "web_search_call"})
# Input item types that carry a tool's result back to the model.
OUTPUT_ITEM_TYPES = frozenset({"function_call_output", "custom_tool_call_output", "local_shell_call_output"})
DEFAULT_TOTAL_TOKENS = 120


class ResponsesMock(ScriptedModelServer):
    """Answers ``POST …/responses`` from the script; anything else gets a 404 (and is recorded).

    ``total_tokens`` is what ``response.completed`` reports as usage; raise it past the CLI's
    ``model_auto_compact_token_limit`` to make it compact.
    """

    api_name = "openai-responses"

    def __init__(self, *, total_tokens: int = DEFAULT_TOTAL_TOKENS, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.total_tokens = total_tokens

    def dispatch(self, method: str, path: str, body: Any, rec: Recorded) -> tuple[int, str, bytes]:
        if method != "POST" or not path.rstrip("/").endswith("/responses"):
            return 404, "application/json", _error("not_found", f"mock: no route for {method} {path}")
        if not isinstance(body, dict) or not isinstance(body.get("input"), list):
            return 400, "application/json", _error("invalid_request_error", "mock: body has no input list")
        turn = model_turns(body)
        step = self._next_step(turn)
        if step is None:
            return 400, "application/json", _error("invalid_request_error", "mock: request budget spent")
        rec.turn, rec.step = turn, step
        n = self._next_id()
        item = _output_item(step, _tool_kinds(body), n)
        return 200, "text/event-stream", _stream(item, str(body.get("model", "mock")), n, self.total_tokens)


def model_turns(body: dict[str, Any]) -> int:
    """How many model outputs (tool calls, assistant messages) the request's input carries back."""
    count = 0
    for item in body.get("input", []):
        if not isinstance(item, dict):
            continue
        kind = item.get("type", "message")
        if kind in MODEL_ITEM_TYPES or (kind == "message" and item.get("role") == "assistant"):
            count += 1
    return count


def _tool_kinds(body: dict[str, Any]) -> dict[str, str]:
    """Tool name → ``function`` / ``custom`` / … as offered in the request's ``tools``."""
    kinds = {}
    for tool in body.get("tools") or []:
        if isinstance(tool, dict) and tool.get("name"):
            kinds[str(tool["name"])] = str(tool.get("type", "function"))
    return kinds


def _output_item(step: Step, kinds: dict[str, str], n: int) -> dict[str, Any]:
    if isinstance(step, ToolCall):
        call_id = f"call_mock_{n:04d}"
        if kinds.get(step.name) == "custom":
            return {"type": "custom_tool_call", "id": f"ctc_mock_{n:04d}", "status": "completed",
                    "call_id": call_id, "name": step.name, "input": str(step.input.get("input", ""))}
        return {"type": "function_call", "id": f"fc_mock_{n:04d}", "status": "completed", "call_id": call_id,
                "name": step.name, "arguments": json.dumps(step.input)}
    assert isinstance(step, Reply)
    return {"type": "message", "id": f"msg_mock_{n:04d}", "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": step.text, "annotations": []}]}


def _stream(item: dict[str, Any], model: str, n: int, total_tokens: int) -> bytes:
    response_id = f"resp_mock_{n:04d}"
    base = {"id": response_id, "object": "response", "created_at": int(time.time()), "model": model}
    usage = {"input_tokens": max(total_tokens - 8, 0), "input_tokens_details": {"cached_tokens": 0},
             "output_tokens": min(8, total_tokens), "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": total_tokens}
    events: list[tuple[str | None, Any]] = [
        ("response.created", {"type": "response.created",
                              "response": {**base, "status": "in_progress", "output": []}}),
        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                        "item": {**item, "status": "in_progress"}}),
    ]
    if item["type"] == "message":
        text = item["content"][0]["text"]
        events.append(("response.output_text.delta", {"type": "response.output_text.delta", "item_id": item["id"],
                                                      "output_index": 0, "content_index": 0, "delta": text}))
    events += [
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed",
                                "response": {**base, "status": "completed", "output": [item], "usage": usage}}),
    ]
    return sse(events)


def _error(kind: str, message: str) -> bytes:
    return json_bytes({"error": {"type": kind, "code": kind, "message": message, "param": None}})


# Reading what Codex sent -----------------------------------------------------------------------


def item_text(item: dict[str, Any]) -> str:
    """The text of one input item: a message's text parts, a tool call's arguments, a tool's output."""
    kind = item.get("type", "message")
    if kind == "message":
        content = item.get("content")
        if isinstance(content, str):
            return content
        return "\n".join(str(c.get("text", "")) for c in content or [] if isinstance(c, dict))
    if kind == "function_call":
        return str(item.get("arguments", ""))
    if kind == "custom_tool_call":
        return str(item.get("input", ""))
    if kind in OUTPUT_ITEM_TYPES:
        output = item.get("output")
        if isinstance(output, list):  # content parts
            return "\n".join(str(c.get("text", "")) for c in output if isinstance(c, dict))
        return output if isinstance(output, str) else json.dumps(output)
    return ""


def messages(body: dict[str, Any], role: str | None = None) -> list[dict[str, str]]:
    """The ``message`` items of the input as {role, text}, oldest first; only ``role`` if given."""
    out = []
    for item in body.get("input", []):
        if isinstance(item, dict) and item.get("type", "message") == "message":
            if role is None or item.get("role") == role:
                out.append({"role": str(item.get("role")), "text": item_text(item)})
    return out


def tool_calls(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The model's tool calls the input carries back, as {name, call_id, input (str)}, oldest first."""
    return [{"name": item.get("name"), "call_id": item.get("call_id"), "input": item_text(item)}
            for item in body.get("input", []) if isinstance(item, dict) and item.get("type") in MODEL_ITEM_TYPES]


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every tool output in the input, oldest first, as {text, is_error, id, name}.

    The Responses API has no error flag; ``is_error`` is always False (a hook's deny shows up in the
    text: ``Command blocked by PreToolUse hook: <reason>. Command: <cmd>``).
    """
    names = {c["call_id"]: c["name"] for c in tool_calls(body)}
    return [{"text": item_text(item), "is_error": False, "id": item.get("call_id"),
             "name": names.get(item.get("call_id"))}
            for item in body.get("input", []) if isinstance(item, dict) and item.get("type") in OUTPUT_ITEM_TYPES]


def conversation_text(body: dict[str, Any]) -> str:
    """All text the input carries (messages, tool calls, tool outputs), not the instructions or tools."""
    return "\n".join(item_text(i) for i in body.get("input", []) if isinstance(i, dict))
