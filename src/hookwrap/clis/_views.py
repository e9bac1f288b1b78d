"""What a CLI's description reads of a HookInput and a HookOutput, as structural types.

``hookinput`` and ``hookoutput`` ask the CLI descriptions (through ``platforms.runtime_of``), so
the descriptions must not import them back, not even for annotations: they are annotated with
these protocols instead, which HookInput and HookOutput satisfy (mypy checks it where the
runtime hands them over). Type checkers only: at run time this module defines nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    from ..names import NormalizedEvent

    class InputView(Protocol):
        """The fields of a HookInput that the CLI descriptions read."""

        event: NormalizedEvent
        session_id: str
        transcript_path: str
        cwd: str
        tool_name: str
        raw_tool_name: str
        tool_input: dict[str, Any]
        tool_use_id: str
        tool_response: Any
        prompt: str
        stop_hook_active: bool
        error: Any

        def get(self, key: str, default: Any = None) -> Any: ...

    class OutputView(Protocol):
        """The fields of a HookOutput that the CLI descriptions read."""

        decision: str
        reason: str
        context: str
        continue_loop: bool
        stop_reason: str
        raw_output: dict[str, Any]
        updated_input: dict[str, Any] | None
        system_message: str
