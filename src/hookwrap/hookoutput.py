"""HookOutput and its translation into the JSON each CLI reads (REQ-006.5-7)."""

from __future__ import annotations

import json

from .names import NormalizedEvent, Platform
from .platforms import runtime_of

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from dataclasses import dataclass as lazy_dataclass
    from dataclasses import field
    from typing import Any

    from .clis._base import AgentCLI
else:  # no dataclass machinery at import: see _dataclasses.py
    from ._dataclasses import field, lazy_dataclass

_DICT: Any = field(default_factory=dict)  # the __init__ default of such a field


_DECISIONS = ("", "block", "deny", "allow", "approve", "ask")


@lazy_dataclass
class HookOutput:
    """What a hook decides, in platform-neutral terms.

    Attributes:
        decision: one of these, compared case-insensitively and without surrounding spaces;
            any other value makes building the output raise ValueError, which run_hook
            reports as the hook's error (fail closed):

            - "": no opinion.
            - "block" or "deny": block the action, or keep the agent working (after_agent).
            - "allow" or "approve": allow explicitly. On Claude this skips the permission
              prompt (before_tool) or grants the permission (permission_request).
            - "ask": ask the user to confirm (before_tool). On Claude's permission_request
              nothing is decided (nor is updated_input sent), so the dialog shows as usual.
        reason: why; for a block it reaches the model (before_tool) or becomes the agent's next
            instruction (after_agent).
        context: text for the model.
        continue_loop: False stops the agent entirely after this hook.
        stop_reason: shown to the user when continue_loop is False.
        suppress_output: hide this hook's output from the transcript.
        raw_output: extra platform fields, merged without overriding what hookwrap sets.
        updated_input: the complete replacement tool input (before_tool); both CLIs replace
            the whole object, so merge the original with your changes.
        system_message: a notice shown to the user, distinct from context.
    """

    decision: str = ""
    reason: str = ""
    context: str = ""
    continue_loop: bool = True
    stop_reason: str = ""
    suppress_output: bool = False
    raw_output: dict[str, Any] = field(default_factory=dict)
    updated_input: dict[str, Any] | None = None
    system_message: str = ""

    def __init__(
        self,
        decision: str = "",
        reason: str = "",
        context: str = "",
        continue_loop: bool = True,
        stop_reason: str = "",
        suppress_output: bool = False,
        raw_output: dict[str, Any] = _DICT,
        updated_input: dict[str, Any] | None = None,
        system_message: str = "",
    ) -> None:
        self.decision = decision
        self.reason = reason
        self.context = context
        self.continue_loop = continue_loop
        self.stop_reason = stop_reason
        self.suppress_output = suppress_output
        self.raw_output = {} if raw_output is _DICT else raw_output
        self.updated_input = updated_input
        self.system_message = system_message

    @classmethod
    def block(cls, reason: str, **fields: Any) -> HookOutput:
        """Block the action (before_tool, before_prompt) or keep the agent working (after_agent)."""
        return cls(decision="block", reason=reason, **fields)

    @classmethod
    def allow(cls, **fields: Any) -> HookOutput:
        """Allow explicitly (on Claude this also skips the permission prompt)."""
        return cls(decision="allow", **fields)

    @classmethod
    def ask(cls, reason: str = "", **fields: Any) -> HookOutput:
        """Ask the user to confirm the tool call (before_tool)."""
        return cls(decision="ask", reason=reason, **fields)


def _decision(output: HookOutput) -> str:
    """The decision, lower-cased and stripped; ValueError for a value no CLI would read as meant.

    A typo such as "reject" must not pass for an allow, so it fails the hook instead.
    """
    value = output.decision
    decision = value.strip().lower() if isinstance(value, str) else None
    if decision not in _DECISIONS:
        allowed = ", ".join(repr(known) for known in _DECISIONS)
        raise ValueError(f"HookOutput.decision is {value!r}; expected one of {allowed}")
    return decision


def _common(output: HookOutput, agent: AgentCLI, decision: str) -> dict[str, Any]:
    """The seed's top-level fields (REQ-006.5)."""
    result: dict[str, Any] = {}
    top = agent.top_decision(decision) if decision else ""
    if top:
        result["decision"] = top
    if output.reason:
        result["reason"] = output.reason
    if not output.continue_loop:
        result["continue"] = False
        if output.stop_reason:
            result["stopReason"] = output.stop_reason
    if output.suppress_output:
        result["suppressOutput"] = True
    return result


def _system_message(output: HookOutput, agent: AgentCLI, event: NormalizedEvent) -> str:
    # REQ-006.6.2: some CLIs also show context to the user, combined with the user notice as
    # the multi-CLI seed does.
    parts = []
    if output.context and event in agent.context_to_user:
        parts.append(output.context)
    if output.system_message:
        parts.append(output.system_message)
    return "\n\n".join(parts)


def _merge_raw(result: dict[str, Any], raw: dict[str, Any]) -> None:
    """REQ-006.7.3: raw fields fill gaps and never override; hookSpecificOutput merges one level."""
    for key, value in raw.items():
        if key not in result:
            result[key] = value
        elif key == "hookSpecificOutput" and isinstance(value, dict):
            mine = result[key]
            if isinstance(mine, dict):
                for sub_key, sub_value in value.items():
                    mine.setdefault(sub_key, sub_value)


def build_output(
    output: HookOutput,
    platform: Platform,
    event: NormalizedEvent,
    raw_event: str | None = None,
) -> dict[str, Any]:
    """The platform JSON object for ``output`` (see denormalize_output)."""
    agent = runtime_of(platform)
    event = NormalizedEvent(event)
    name = agent.reply_event_name(event, raw_event)
    decision = _decision(output)
    result = _common(output, agent, decision)
    message = _system_message(output, agent, event)
    if message:
        result["systemMessage"] = message
    specific = agent.specific_output(output, event, name, decision)
    if specific and name:
        result["hookSpecificOutput"] = {"hookEventName": name, **specific}
    if isinstance(output.raw_output, dict):
        _merge_raw(result, output.raw_output)
    return agent.finish_output(result, output, event, name, decision)


def denormalize_output(
    output: HookOutput,
    platform: Platform,
    event: NormalizedEvent,
    raw_event: str | None = None,
) -> str:
    """Serialize a HookOutput to the JSON string ``platform`` reads for ``event``.

    Args:
        output: what the hook decided.
        platform: the CLI that runs the hook.
        event: the normalized event being answered.
        raw_event: the platform event name as received (``SubagentStop``); Claude requires
            ``hookSpecificOutput.hookEventName`` to equal it. Defaults to the reverse map.

    Returns:
        One JSON object; ``"{}"`` when the hook expressed nothing (REQ-006.7.2).

    Raises:
        ValueError: a value is NaN or infinite (JSON has no such number).
    """
    result = build_output(output, platform, event, raw_event)
    # NaN/Infinity are not JSON: ValueError here, so the hook's error document goes out instead.
    return json.dumps(result, allow_nan=False) if result else "{}"
