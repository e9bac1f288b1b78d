"""Loopback mock of the Gemini API (``models/<m>:streamGenerateContent?alt=sse``), scripted per test."""

from __future__ import annotations

import json
from typing import Any

from .mockmodel import Recorded, ScriptedModelServer, Step, ToolCall, json_bytes, sse

_USAGE = {"promptTokenCount": 12, "candidatesTokenCount": 8, "totalTokenCount": 20}


class GeminiMock(ScriptedModelServer):
    """Answers ``streamGenerateContent`` from the script; counts ``model`` turns to pick the step."""

    api_name = "gemini"

    def dispatch(self, method: str, path: str, body: Any, rec: Recorded) -> tuple[int, str, bytes]:
        if method != "POST" or not isinstance(body, dict) or ":" not in path:
            return 404, "application/json", _error(404, f"{method} {path}")
        model_path, action = path.rsplit(":", 1)
        model = model_path.rsplit("/", 1)[-1]
        if action == "countTokens":
            return 200, "application/json", json_bytes({"totalTokens": 12})
        if action == "generateContent" and _wants_json(body):
            # Side requests with a response schema (model router, next-speaker check): answer them
            # without touching the script, so they never shift the scripted turns.
            answer = {"complexity_score": 1, "reasoning": "mock", "next_speaker": "user"}
            return 200, "application/json", json_bytes(_response(_text_parts(json.dumps(answer)), model))
        if action not in ("streamGenerateContent", "generateContent"):
            return 404, "application/json", _error(404, path)
        turn = sum(1 for c in body.get("contents", []) if c.get("role") == "model")
        step = self._next_step(turn)
        if step is None:
            return 400, "application/json", _error(400, "mock: request budget spent")
        rec.turn, rec.step = turn, step
        chunk = _response(_parts(step), model)
        if action == "streamGenerateContent":
            return 200, "text/event-stream", sse([(None, chunk)])
        return 200, "application/json", json_bytes(chunk)


def _wants_json(body: dict[str, Any]) -> bool:
    config = body.get("generationConfig") or body.get("config") or {}
    return config.get("responseMimeType") == "application/json"


def _parts(step: Step) -> list[dict[str, Any]]:
    if isinstance(step, ToolCall):
        return [{"functionCall": {"name": step.name, "args": step.input}}]
    return _text_parts(step.text)


def _text_parts(text: str) -> list[dict[str, Any]]:
    return [{"text": text}]


def _response(parts: list[dict[str, Any]], model: str) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": _USAGE,
        "modelVersion": model,
    }


def _error(code: int, message: str) -> bytes:
    status = "INVALID_ARGUMENT" if code == 400 else "NOT_FOUND"
    return json_bytes({"error": {"code": code, "message": message, "status": status}})


# Reading what Gemini CLI sent ------------------------------------------------------------------


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every ``functionResponse`` part in the conversation, oldest first, as {text, is_error, name}."""
    out = []
    for content in body.get("contents", []):
        for part in content.get("parts", []) or []:
            fr = part.get("functionResponse") if isinstance(part, dict) else None
            if fr is None:
                continue
            response = fr.get("response") or {}
            is_error = "error" in response
            text = response.get("error") if is_error else response.get("output", response)
            out.append({"text": text if isinstance(text, str) else json.dumps(text), "is_error": is_error,
                        "name": fr.get("name")})
    return out


def conversation_text(body: dict[str, Any]) -> str:
    """All text parts and function responses in ``contents`` (not the system instruction or tools)."""
    chunks = []
    for content in body.get("contents", []):
        for part in content.get("parts", []) or []:
            if not isinstance(part, dict):
                continue
            if "text" in part:
                chunks.append(str(part["text"]))
            elif "functionResponse" in part:
                chunks.append(json.dumps(part["functionResponse"].get("response"), ensure_ascii=False))
    return "\n".join(chunks)
