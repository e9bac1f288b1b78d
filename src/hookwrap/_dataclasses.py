"""dataclasses, imported without paying for inspect on every hook call.

Importing dataclasses imports inspect (with ast, dis, tokenize, linecache): about 10 ms, half
of hookwrap's import time, paid by every hook process on every tool call. dataclasses only
calls inspect for classes without a docstring, and hookwrap's all have one. So while
dataclasses is imported, `inspect` is a placeholder module that loads the real one the first
time anything reads an attribute from it; it is taken out of sys.modules right after, so
everyone else's `import inspect` gets the real module as usual.
"""

from __future__ import annotations

import sys
from types import ModuleType

__all__ = ["dataclass", "field"]  # what type checkers see as this module's exports


class _DeferredInspect(ModuleType):
    """Stands in for inspect inside dataclasses until an attribute is needed."""

    def __getattr__(self, name: str) -> object:
        import importlib

        return getattr(importlib.import_module("inspect"), name)


def _import_dataclasses() -> ModuleType:
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        import dataclasses

        return dataclasses
    placeholder = _DeferredInspect("inspect")
    sys.modules["inspect"] = placeholder
    try:
        import dataclasses
    finally:
        if sys.modules.get("inspect") is placeholder:
            del sys.modules["inspect"]
    return dataclasses


# Type checkers see the real decorator, so they check HookOutput(...) calls like any dataclass.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from dataclasses import dataclass, field
else:
    _dc = _import_dataclasses()
    dataclass = _dc.dataclass
    field = _dc.field
