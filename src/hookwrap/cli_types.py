"""Option value types shared by the CLI's command modules."""

from __future__ import annotations

from enum import Enum


class PlatformChoice(str, Enum):
    """Values of --platform."""

    claude = "claude"
    gemini = "gemini"
    all = "all"
