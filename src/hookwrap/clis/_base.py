"""AgentCLI: a CLI's runtime description, built from its record; the rules every CLI shares.

``clis/<platform>.py`` holds the CLI's record (``CLIRecord``: its facts as data). The record
names its protocol family, a subclass of AgentCLI in ``clis/_<family>_protocol.py`` that
overrides only the answers that family writes differently; this class holds what every CLI does
the same way, reading each difference from the record. Everything here is stdlib only, copied
into every project and imported on every hook call. Generic runtime code asks
``platforms.runtime_of(platform)``, the command's modules ``generator.clis.setup_of(platform)``;
neither branches on which CLI it is.
"""

from __future__ import annotations

import json
import os

from ..names import MCP_PREFIX, NormalizedEvent, mcp_tool, split_mcp_tool
from ._record import RUNTIME_FACTS, CLIRecord

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping

    from ._views import InputView, OutputView

# The launcher every registered command runs (vendor.LAUNCHER: launcher_stub.py, which imports
# launcher.py beside it): it runs .hookwrap/hooks/<name>.py from cached bytecode.
LAUNCHER = ".hookwrap/lib/run.py"
# What a fail-closed hook's registered command carries after the hook's name, with the seconds
# it has to answer (``run.py guard --fail-closed=7 --platform gemini``): the launcher then blocks
# the call, as every CLI reads a block, when the hook cannot start, crashes or has not answered
# by then (launcher.py), and the runtime blocks a call it cannot read (runner.py).
FAIL_CLOSED_FLAG = "--fail-closed"

BLOCKING = frozenset({"block", "deny"})
ALLOWING = frozenset({"allow", "approve"})


def json_kind(value: object) -> str:
    """A JSON value's kind, as a message names it ("a list")."""
    if value is None:
        return "null"
    for kind, words in ((bool, "a boolean"), (str, "a string"), (list, "a list"),
                        (dict, "an object")):
        if isinstance(value, kind):
            return words
    return "a number"


# Type checkers see a record's facts on AgentCLI (its __init__ copies them from the record);
# at run time it is a plain class.
if TYPE_CHECKING:
    _Facts = CLIRecord
else:
    _Facts = object


class AgentCLI(_Facts):
    """One agent CLI as a hook process sees it: its record's facts, and the rules every CLI
    shares. A protocol family subclasses it and overrides what its CLIs answer differently."""

    def __init__(self, record: CLIRecord) -> None:
        self.record = record
        for name in RUNTIME_FACTS:  # cli.events, cli.ask_note
            setattr(self, name, getattr(record, name))

    def event_names(self) -> dict[NormalizedEvent, str]:
        """NORMALIZED_TO_EVENT for this CLI: each normalized event's preferred name."""
        reverse: dict[NormalizedEvent, str] = {}
        for name, event in self.events.items():
            reverse.setdefault(event, self.preferred_events.get(event, name))
        return reverse

    def tool_names(self) -> dict[str, str]:
        """NORMALIZED_TO_TOOL for this CLI: each normalized tool's preferred name."""
        reverse: dict[str, str] = {}
        for name, normalized in self.tools.items():
            reverse.setdefault(normalized, self.preferred_tools.get(normalized, name))
        return reverse

    def canonical_event_name(self, raw: str) -> str:
        """The CLI's spelling of ``raw`` (``pre-tool-use`` -> ``PreToolUse``), or ``raw``.

        Payloads sometimes carry kebab-case names (the multi-CLI daemon seed).
        """
        if raw in self.events:
            return raw
        folded = raw.replace("-", "").replace("_", "").lower()
        return next((name for name in self.events if name.lower() == folded), raw)

    def knows_event(self, raw: str) -> bool:
        """True when ``raw`` (in any spelling) is one of this CLI's events."""
        return self.canonical_event_name(raw) in self.events

    def normalize_event(self, raw: str) -> NormalizedEvent:
        """The normalized event; an unknown name gives AFTER_AGENT (REQ-006.4.4)."""
        return self.events.get(self.canonical_event_name(raw), NormalizedEvent.AFTER_AGENT)

    def normalize_tool(self, name: str) -> str:
        """The normalized tool name; a name the table does not know is lower-cased, and an MCP
        tool becomes ``mcp__<server>__<tool>`` whatever the CLI calls it."""
        if name in self.tools:
            return self.tools[name]
        mcp = self.mcp_split(name)
        return mcp_tool(*mcp) if mcp else name.lower()

    def normalize_call(self, name: str, tool_input: Any) -> str:
        """The normalized tool of one call: the patch tool (Codex's and OpenCode's apply_patch)
        is write_file when its patch only adds files, else edit_file."""
        if name and name == self.patch_tool:
            from ._patch import parse_patch

            files = parse_patch(self.patch_text(tool_input))
            if files and all(f["action"] == "add" for f in files):
                return "write_file"
        return self.normalize_tool(name)

    def patch_text(self, tool_input: Any) -> str:
        """The patch a call carries: the first string under one of ``patch_keys``."""
        if not isinstance(tool_input, dict):
            return tool_input if isinstance(tool_input, str) and self.patch_keys else ""
        text = next((tool_input[k] for k in self.patch_keys if k in tool_input), "")
        return text if isinstance(text, str) else ""

    def tool_files(self, tool: str, raw_tool: str, tool_input: Any) -> list[dict[str, Any]]:
        """The files a call writes, ``{"path", "action", "move_to"}`` each (InputView.files):
        every file a patch adds, updates, deletes or moves (also one the shell tool applies
        with ``apply_patch <<'EOF'``, where ``patch_in_shell``), else write_file / edit_file's
        path under the first of ``file_path_keys`` (action ``write`` or ``update``)."""
        if self.patch_tool:
            text = self.patch_text(tool_input)
            if raw_tool == self.patch_tool or (
                    self.patch_in_shell and tool == "shell" and "apply_patch" in text):
                from ._patch import parse_patch

                files = parse_patch(text)
                if files or raw_tool == self.patch_tool:
                    return files
        if not isinstance(tool_input, dict) or tool not in ("write_file", "edit_file"):
            return []
        path = next((tool_input[k] for k in self.file_path_keys if k in tool_input), None)
        if not isinstance(path, str) or not path:
            return []
        return [{"path": path, "action": "write" if tool == "write_file" else "update",
                 "move_to": None}]

    def payload_fields(self, data: dict[str, Any]) -> dict[str, Any]:
        """The payload in the keys HookInput reads (Claude Code's snake_case); a CLI with a
        payload of its own (Cline) maps it. Default: as it is."""
        return data

    def shell_lines(self, tool_input: Any) -> list[str]:
        """The shell lines a shell call runs, each on its own: ``command`` on every CLI but
        Cline, whose run_commands carries a list."""
        line = tool_input.get("command") if isinstance(tool_input, dict) else None
        return [line] if isinstance(line, str) else []

    def unreadable_shell_input(self, tool_input: dict[str, Any]) -> str:
        """Why ``shell_lines`` cannot read a shell call's input ("" when it can): its
        ``command`` is not a string (a fail-closed hook blocks such a call, runner.py)."""
        command = tool_input.get("command")
        return "" if isinstance(command, str) else f"its command is {json_kind(command)}, not a string"

    def platform_tool_names(self, tool: str) -> list[str]:
        """Every name this CLI uses for the normalized ``tool``, preferred first (then the tools
        that also do its job, ``extra_tool_names``); an MCP tool in this CLI's spelling; an
        unknown name (a tool newer than the table) as given."""
        names = [n for n, normalized in self.tools.items() if normalized == tool]
        extra = list(self.extra_tool_names.get(tool, ()))
        if not names:
            return extra or [self.mcp_pattern(tool) if tool.startswith(MCP_PREFIX) else tool]
        preferred = self.tool_names()[tool]
        return [preferred] + [n for n in names if n != preferred] + extra

    def mcp_split(self, name: str) -> tuple[str, str] | None:
        """(server, tool) of this CLI's name for an MCP tool (``mcp__github__create_issue``;
        Gemini's ``mcp_github_create_issue``, split at the first separator as Gemini does)."""
        prefix = self.mcp_prefix
        if not prefix or not name.startswith(prefix):
            return None
        if prefix != MCP_PREFIX and name.startswith(MCP_PREFIX):
            return None  # the normalized spelling, not this CLI's
        server, found, tool = name[len(prefix):].partition(self.mcp_separator)
        return (server, tool) if found and server and tool else None

    def mcp_pattern(self, pattern: str) -> str:
        """A normalized MCP name or pattern (``mcp__github__.*``, ``mcp__.*``) in this CLI's
        spelling (Gemini: ``mcp_github_.*``, ``mcp_.*``)."""
        mcp = split_mcp_tool(pattern)
        if mcp:  # either part may be a regex, spelled as given (matchers are case-sensitive)
            return f"{self.mcp_prefix}{mcp[0]}{self.mcp_separator}{mcp[1]}"
        return self.mcp_prefix + pattern[len(MCP_PREFIX):]

    # --- runtime: which runs call the hook ---------------------------------------------------
    def guest_host(self, env: Mapping[str, str]) -> str | None:
        """The guest CLI (``guest_clis``) that runs this process, or None when this CLI does.

        Only what the host itself sets for its hook processes tells who it is: a variable a
        guest sets for its hooks alone. What a CLI exports to its shell tool is inherited by
        any CLI started from there (Claude Code's CLAUDECODE reaches a Copilot CLI started from
        its Bash tool), so it never decides. Only env lookups: no guest's module is imported
        unless its variable is set.
        """
        return next((name for name, variable in self.guest_clis.items() if env.get(variable)), None)

    def runs_own_registration(self, env: Mapping[str, str]) -> bool:
        """Running another CLI's registration: True when this CLI runs hookwrap's hooks from its
        own registration file (``own_registration``), so this run answers ``{}`` without
        calling the hook; False to call it, answered in this CLI's terms."""
        if not self.own_registration or not self.project_dir_vars:
            return False
        return os.path.isfile(os.path.join(env.get(self.project_dir_vars[0], ""),
                                           self.own_registration))

    def answers_without_hook(self, hook_input: InputView) -> bool:
        """True for a payload that is not the event a hook was written for (Qwen's
        UserPromptSubmit with an empty prompt after a tool result): answered ``{}``."""
        if not self.empty_prompt_is_no_prompt or hook_input.event is not NormalizedEvent.BEFORE_PROMPT:
            return False
        prompt = hook_input.get("prompt")
        return isinstance(prompt, str) and not prompt.strip()

    def error_output(self, document: dict[str, Any], event: NormalizedEvent | None) -> dict[str, Any]:
        """The error document of a failed hook (``format_hook_error``), fitted to what this CLI
        reads as a block. Default: as it is."""
        return document

    # --- runtime: answers ------------------------------------------------------------------
    def reply_event_name(self, event: NormalizedEvent, raw_event: str | None) -> str:
        """The event name a reply names: the running event's own one when it maps to ``event``."""
        if raw_event and self.events.get(raw_event) == event:
            return raw_event
        return self.event_names().get(event, "")

    def top_decision(self, decision: str) -> str:
        """The top-level ``decision`` value for a normalized decision ("" = none)."""
        return decision

    def specific_output(self, output: OutputView, event: NormalizedEvent, name: str,
                        decision: str) -> dict[str, Any]:
        """The body of ``hookSpecificOutput`` (without hookEventName); {} for none."""
        return {}

    def finish_output(self, result: dict[str, Any], output: OutputView, event: NormalizedEvent,
                      name: str, decision: str) -> dict[str, Any]:
        """The last word on an answer (after raw_output is merged): a CLI with a strict schema
        drops or maps what it cannot read. Default: ``result`` as it is."""
        return result

    # --- runtime: speaking this CLI's protocol to an external hook (bridge.py) -------------

    def common_tool_input(self, tool: str, tool_input: Any) -> dict[str, Any]:
        """This CLI's tool input with Claude Code's key names (the bridge's common form)."""
        keys, own_only = self.tool_input_keys.get(tool, {}), self.own_only_keys.get(tool, ())
        if not isinstance(tool_input, dict):
            return {}
        return {keys.get(key, str(key)): value for key, value in tool_input.items()
                if key not in own_only}

    def own_tool_input(self, tool: str, common: Any) -> dict[str, Any]:
        """The inverse of ``common_tool_input``: Claude Code's keys back to this CLI's."""
        keys = {theirs: mine for mine, theirs in self.tool_input_keys.get(tool, {}).items()}
        if not isinstance(common, dict):
            return {}
        return {keys.get(key, str(key)): value for key, value in common.items()}

    def own_tool_name(self, tool: str, raw_tool: str) -> str:
        """This CLI's name for the normalized ``tool`` (``raw_tool`` when it has none)."""
        name = self.tool_names().get(tool)
        if name is not None:
            return name
        if split_mcp_tool(tool):
            return self.mcp_pattern(tool)
        return raw_tool or tool

    def payload_for(self, hook_input: InputView, source: AgentCLI) -> dict[str, Any] | None:
        """The payload this CLI would send a command hook for ``hook_input`` (received from
        ``source``), or None when this CLI has no such event. Every CLI hookwrap supports
        sends Claude Code's snake_case fields, less the record's ``payload_drops``."""
        name = self.event_names().get(hook_input.event)
        if name is None:
            return None
        payload: dict[str, Any] = {"session_id": hook_input.session_id,
                                   "transcript_path": hook_input.transcript_path,
                                   "cwd": hook_input.cwd, "hook_event_name": name}
        for key in ("permission_mode", "prompt_id", "source", "reason", "trigger", "message",
                    "notification_type", "last_assistant_message", "agent_id", "agent_type"):
            value = getattr(hook_input, key)
            if value:
                payload[key] = value
        if hook_input.tool_name:
            common = source.common_tool_input(hook_input.tool_name, hook_input.tool_input)
            payload["tool_name"] = self.own_tool_name(hook_input.tool_name,
                                                      hook_input.raw_tool_name)
            payload["tool_input"] = self.own_tool_input(hook_input.tool_name, common)
            if hook_input.tool_use_id:
                payload["tool_use_id"] = hook_input.tool_use_id
            if hook_input.tool_response is not None:
                payload["tool_response"] = hook_input.tool_response
        if hook_input.event is NormalizedEvent.BEFORE_PROMPT:
            payload["prompt"] = hook_input.prompt
        if hook_input.event is NormalizedEvent.AFTER_AGENT:
            payload["stop_hook_active"] = hook_input.stop_hook_active
        if hook_input.error is not None:
            payload["error"] = hook_input.error
        for key in self.payload_drops:
            payload.pop(key, None)
        if self.payload_worktree:  # the git root: the call's own when it came from this CLI
            worktree = hook_input.get("worktree")
            payload["worktree"] = worktree if isinstance(worktree, str) and worktree \
                else hook_input.cwd
        return payload

    def read_answer(self, event: NormalizedEvent, exit_code: int, stdout: str,
                    stderr: str) -> dict[str, Any]:
        """What a command hook speaking this CLI's protocol answered, as OutputView fields.

        The rules every supported CLI shares (Claude Code's): exit 2 blocks with stderr as the
        reason; at exit 0 a JSON object's decision, reason, continue/stopReason, systemMessage
        and hookSpecificOutput (permissionDecision, additionalContext, updatedInput) count;
        any other exit code is a non-blocking error: no opinion ({}).
        """
        if exit_code == 2:
            if event not in self.exit2_blocks:
                return {"system_message": stderr.strip()} if stderr.strip() else {}
            return {"decision": "block", "reason": stderr.strip() or "blocked by hook"}
        if exit_code != 0:
            return {}
        text = stdout.strip()
        data = json_object(text) if text.startswith("{") else None
        if data is None:
            return {"context": text} if text and event in self.text_is_context else {}
        return answer_fields(data)


def _text_of(value: Any) -> str:
    return value if isinstance(value, str) else ""


def json_object(text: str) -> dict[str, Any] | None:
    """``text`` (trimmed) as a JSON object, else None; a JSON string holding an object is read
    twice (Gemini CLI and Qwen Code accept double-encoded answers)."""
    try:
        data = json.loads(text.strip()) if text.strip() else None
        if isinstance(data, str):
            data = json.loads(data)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def answer_fields(data: dict[str, Any]) -> dict[str, Any]:
    """OutputView fields from a Claude-style JSON answer (unknown or mistyped keys ignored)."""
    fields: dict[str, Any] = {}
    decisions = {"block": "block", "deny": "deny", "approve": "allow", "allow": "allow",
                 "ask": "ask"}
    top = data.get("decision")
    if isinstance(top, str) and top.lower() in decisions:
        fields["decision"] = decisions[top.lower()]
    reason = _text_of(data.get("reason"))
    if data.get("continue") is False:
        fields["continue_loop"] = False
        fields["stop_reason"] = _text_of(data.get("stopReason"))
    if _text_of(data.get("systemMessage")):
        fields["system_message"] = data["systemMessage"]
    if data.get("suppressOutput") is True:
        fields["suppress_output"] = True
    context = [_text_of(data.get("additionalContext"))]
    specific = data.get("hookSpecificOutput")
    if isinstance(specific, dict):
        permission = specific.get("permissionDecision")
        if isinstance(permission, str) and permission.lower() in decisions:
            fields["decision"] = decisions[permission.lower()]
            reason = _text_of(specific.get("permissionDecisionReason")) or reason
        behavior = specific.get("decision")  # PermissionRequest: {"behavior": ..., "message"}
        if isinstance(behavior, dict) and behavior.get("behavior") in ("allow", "deny"):
            fields["decision"] = behavior["behavior"]
            reason = _text_of(behavior.get("message")) or reason
            if isinstance(behavior.get("updatedInput"), dict):
                fields["updated_input"] = behavior["updatedInput"]
        context.append(_text_of(specific.get("additionalContext")))
        if isinstance(specific.get("updatedInput"), dict):
            fields["updated_input"] = specific["updatedInput"]
    if reason:
        fields["reason"] = reason
    joined = "\n\n".join(part for part in context if part)
    if joined:
        fields["context"] = joined
    return fields
