"""Dataclasses that cost nothing to import: their metadata is built on first use.

The @dataclass decorator writes __init__, __repr__ and __eq__ as source text and compiles it
(exec) on every import: for HookInput's 32 fields and HookOutput's 9, with the dataclasses
module itself, about 6 ms of CPU paid by every hook process on every tool call. So
`lazy_dataclass` adds ``__init__``, ``__repr__``, ``__eq__``, ``__hash__ = None`` and
``__match_args__`` (plain functions over the field names, with @dataclass's output), and
``__dataclass_fields__`` and ``__dataclass_params__`` as placeholders that, the first time
anything reads them (``dataclasses.fields()``, ``asdict()``, ``replace()``, ``is_dataclass()``,
a subclass decorated with @dataclass), build the real ones: @dataclass applied to a stand-in
class with the same annotations and defaults. That stand-in also gives ``__init__`` its
signature (``inspect.signature``, ``help()``) and its TypeError for arguments that do not fit,
when one is asked for. tests/runtime/test_dataclass_parity.py checks the result against it.

A field with a default factory is declared with this module's `field(default_factory=...)`.

dataclasses itself, when it is imported, is imported without paying for inspect (ast, dis,
tokenize, linecache, about 10 ms): dataclasses only calls inspect for classes without a
docstring, so while it is imported `inspect` is a placeholder module that loads the real one
the first time anything reads an attribute from it; it is taken out of sys.modules right after,
so everyone else's `import inspect` gets the real module as usual.
"""

from __future__ import annotations

import sys
from types import ModuleType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar

    _T = TypeVar("_T", bound=type)

__all__ = ["Factory", "field", "lazy_dataclass", "stand_in"]


def _import_dataclasses() -> ModuleType:
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        import dataclasses

        return dataclasses

    class _DeferredInspect(ModuleType):  # made here: a class costs a hook ~0.1 M instructions
        """Stands in for inspect inside dataclasses until an attribute is needed."""

        def __getattr__(self, name: str) -> object:
            import importlib

            return getattr(importlib.import_module("inspect"), name)

    placeholder = _DeferredInspect("inspect")
    sys.modules["inspect"] = placeholder
    try:
        import dataclasses
    finally:
        if sys.modules.get("inspect") is placeholder:
            del sys.modules["inspect"]
    return dataclasses


class Factory:
    """The default of a field with a default factory, as declared."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A field with a default factory, in the class body (where @dataclass would take it)."""
    return Factory(default_factory)


_DEFAULTS: dict[type, dict[str, Any]] = {}  # each lazy dataclass's field defaults, as declared
_STAND_INS: dict[type, type] = {}


def stand_in(cls: type) -> type:
    """What @dataclass makes of ``cls``'s annotations and defaults: a separate class, made once."""
    made: type | None = _STAND_INS.get(cls)
    if made is not None:
        return made
    dc = _import_dataclasses()
    namespace: dict[str, Any] = {"__module__": cls.__module__, "__qualname__": cls.__qualname__,
                                 "__doc__": cls.__doc__, "__annotations__": dict(cls.__annotations__)}
    for name, default in _DEFAULTS[cls].items():
        namespace[name] = dc.field(default_factory=default.make) if isinstance(default, Factory) else default
    made = _STAND_INS[cls] = dc.dataclass(type(cls.__name__, (), namespace))
    return made


class _Metadata:
    """What a lazy dataclass takes from its stand-in on first use: ``__dataclass_fields__`` /
    ``__dataclass_params__`` until first read, then the real one; as ``__init__.__wrapped__``,
    the signature inspect.signature reads."""

    def __init__(self, owner: type, name: str) -> None:
        self.owner, self.name = owner, name

    @property
    def __signature__(self) -> Any:
        import inspect

        return inspect.signature(stand_in(self.owner).__init__)  # type: ignore[misc]

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        cls = self.owner
        if isinstance(cls.__dict__.get(self.name), _Metadata):
            real = stand_in(cls)
            for name in ("__dataclass_fields__", "__dataclass_params__"):
                type.__setattr__(cls, name, real.__dict__[name])
        return cls.__dict__[self.name]


def lazy_dataclass(cls: _T) -> _T:
    """Make ``cls`` a dataclass whose metadata is built on demand; ``__init__``, ``__repr__``,
    ``__eq__``, ``__hash__``, ``__match_args__`` and ``__replace__`` are added as
    @dataclass(eq=True) adds them on this Python."""
    names = tuple(cls.__annotations__)  # its own: both classes declare fields
    _DEFAULTS[cls] = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
    for name, default in _DEFAULTS[cls].items():
        if isinstance(default, Factory):  # @dataclass keeps no class attribute for these
            type.__delattr__(cls, name)
    attrs: dict[str, Any] = {"__dataclass_fields__": _Metadata(cls, "__dataclass_fields__"),
                             "__dataclass_params__": _Metadata(cls, "__dataclass_params__"),
                             "__init__": _init(cls, names), "__repr__": _repr(names),
                             "__eq__": _eq(names), "__hash__": None}
    if sys.version_info >= (3, 10):
        attrs["__match_args__"] = names
    if sys.version_info >= (3, 13):
        attrs["__replace__"] = _replace
    for name, value in attrs.items():
        if name not in cls.__dict__:
            type.__setattr__(cls, name, value)
    return cls


def _init(cls: type, names: tuple[str, ...]) -> Callable[..., None]:
    defaults = _DEFAULTS[cls]
    required = frozenset(names).difference(defaults)
    template = dict.fromkeys(names)  # field order, as @dataclass sets them
    template.update(defaults)
    factories = [(name, made.make) for name, made in defaults.items() if type(made) is Factory]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        given = kwargs
        if args:
            given = dict(zip(names, args))
            given.update(kwargs)
        values = {**template, **given}
        if type(self) is not cls or len(values) != len(template) or \
                len(given) != len(args) + len(kwargs) or not required <= given.keys():
            # A subclass may set attributes its own way; arguments that do not fit (unknown,
            # given twice, too many, missing) raise the TypeError of @dataclass's __init__.
            stand_in(cls).__init__(self, *args, **kwargs)  # type: ignore[misc]
            return
        for name, make in factories:
            if name not in given:
                values[name] = make()
        self.__dict__.update(values)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__wrapped__ = _Metadata(cls, "__init__")  # type: ignore[attr-defined]
    return __init__


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    import _thread

    running: set[tuple[int, int]] = set()

    def __repr__(self: Any) -> str:
        key = id(self), _thread.get_ident()
        if key in running:  # a field that holds the object itself, as @dataclass shows it
            return "..."
        running.add(key)
        try:
            shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        finally:
            running.discard(key)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(names: tuple[str, ...]) -> Callable[[Any, object], Any]:
    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)
        return NotImplemented

    return __eq__


def _replace(self: Any, /, **changes: Any) -> Any:
    """copy.replace() support, as @dataclass gives it on Python 3.13 and later."""
    return _import_dataclasses().replace(self, **changes)
