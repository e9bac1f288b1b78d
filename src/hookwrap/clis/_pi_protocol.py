"""The plugin protocol as pi 0.73.1's extension speaks it: the same flat answers, and pi's
``edit`` input, one file with an ``edits`` array of ``{oldText, newText}`` replacements, which
an external hook of Claude's protocol reads as Edit's ``old_string`` / ``new_string`` (bridge.py).
"""

from __future__ import annotations

from ._base import TYPE_CHECKING
from ._plugin_protocol import PluginProtocol

if TYPE_CHECKING:
    from typing import Any


class PiProtocol(PluginProtocol):
    """Answers in the words of hookwrap's generated pi extension."""

    def common_tool_input(self, tool: str, tool_input: Any) -> dict[str, Any]:
        """An edit with one replacement is Claude's Edit (``old_string``, ``new_string``);
        one with several keeps ``edits``, each entry in Claude's words."""
        common = super().common_tool_input(tool, tool_input)
        edits = common.pop("edits", None) if tool == "edit_file" else None
        if not isinstance(edits, list):
            return common if edits is None else {**common, "edits": edits}
        shaped = [{"old_string": e.get("oldText"), "new_string": e.get("newText")}
                  if isinstance(e, dict) else e for e in edits]
        if len(shaped) == 1 and isinstance(shaped[0], dict):
            return {**common, **shaped[0]}
        return {**common, "edits": shaped}

    def own_tool_input(self, tool: str, common: Any) -> dict[str, Any]:
        """The inverse: Claude's Edit (an external hook's ``updatedInput``) back to pi's
        ``edits`` array."""
        own = super().own_tool_input(tool, common)
        if tool != "edit_file":
            return own
        edits = own.pop("edits", None)
        entries = [{"oldText": e.get("old_string"), "newText": e.get("new_string")}
                   if isinstance(e, dict) else e for e in edits] if isinstance(edits, list) else []
        if "old_string" in own or "new_string" in own:
            entries.append({"oldText": own.pop("old_string", ""),
                            "newText": own.pop("new_string", "")})
        own.pop("replace_all", None)  # pi replaces exactly one unique match per entry
        return {**own, "edits": entries} if entries or edits is not None else own
