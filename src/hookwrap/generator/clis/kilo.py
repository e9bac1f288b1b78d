"""Kilo CLI: what the hookwrap command needs to know about it (a hook process needs only
``kilo.py`` of the runtime). Kilo loads OpenCode's plugin API, so its half is OpenCode's
behaviours with Kilo's record: the plugin ``.kilo/plugins/hookwrap.js``, rendered from the same
template with Kilo's words and settings (``KILO`` says what differs).
"""

from __future__ import annotations

from ...clis.kilo import KILO
from .opencode import plugin_setup

SETUP = plugin_setup(KILO)
