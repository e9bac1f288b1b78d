"""Qwen Code: its command half, composed from Claude-dialect behaviours (a hook process needs only
``clis/qwen.py``, whose record holds every fact read here)."""

from __future__ import annotations

from ...clis.qwen import QWEN
from ._answers import read_qwen
from ._base import AgentSetup
from ._handlers import NamedHandlers
from ._matchers import NameAliasOrSearch
from ._trust_stores import FolderRules

SETUP = AgentSetup(
    QWEN, matchers=NameAliasOrSearch(), handlers=NamedHandlers(), answers=read_qwen,
    # With folder trust on, Qwen drops the project's hooks in an untrusted folder (0.24.4).
    trust=FolderRules(file="${QWEN_HOME:-~/.qwen}/trustedFolders.json",
                      file_var="QWEN_CODE_TRUSTED_FOLDERS_PATH",
                      shown="~/.qwen/trustedFolders.json",
                      switch=("security", "folderTrust", "enabled"),
                      untrusted="(and refuses the shell tool)"))
