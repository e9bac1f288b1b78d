"""HookInput and HookOutput carry their dataclass methods written out (no @dataclass at import:
see hookwrap/_dataclasses.py); they must behave exactly as @dataclass would make them."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pydoc
import sys

import pytest

from hookwrap import HookInput, HookOutput, NormalizedEvent, Platform
from hookwrap._dataclasses import stand_in

SAMPLES = {
    HookInput: {"platform": Platform.CLAUDE, "event": NormalizedEvent.BEFORE_TOOL, "tool_name": "shell",
                "tool_input": {"command": "ls"}, "stop_hook_active": True, "error": [1]},
    HookOutput: {"decision": "block", "reason": "no", "raw_output": {"a": 1}, "updated_input": {"b": 2}},
}
CLASSES = pytest.mark.parametrize("cls", [HookInput, HookOutput], ids=lambda c: c.__name__)


def _params(cls: type) -> list[tuple[str, object, str]]:
    return [(p.name, p.kind, repr(p.default)) for p in inspect.signature(cls).parameters.values()]


@CLASSES
def test_init_takes_what_the_dataclass_takes(cls: type) -> None:
    ref = stand_in(cls)
    assert _params(cls) == _params(ref)
    assert str(inspect.signature(cls.__init__)) == str(inspect.signature(ref.__init__))
    if sys.version_info >= (3, 10):  # 3.9's @dataclass leaves it __create_fn__.<locals>.__init__
        assert cls.__init__.__qualname__ == ref.__init__.__qualname__
    assert f"__init__{inspect.signature(ref.__init__)}" in pydoc.render_doc(cls, renderer=pydoc.plaintext)


def _outcome(make: type, args: tuple[object, ...], kwargs: dict[str, object]) -> object:
    try:
        return repr(make(*args, **kwargs))
    except TypeError as error:
        return ("TypeError", str(error))


@CLASSES
@pytest.mark.parametrize("call", ["positional", "mixed", "missing", "unknown", "twice", "too many"])
def test_arguments_are_taken_and_refused_as_the_dataclass_does(cls: type, call: str) -> None:
    names = [f.name for f in dataclasses.fields(cls)]
    values = [f"v{i}" for i in range(len(names))]
    args, kwargs = {
        "positional": (values[:3], {}),
        "mixed": (values[:2], {names[-1]: "last", names[3]: {}}),
        "missing": ((), {names[-1]: "last"} if cls is HookInput else {"nope": 1}),
        "unknown": (values[:2], {"nope": 1}),
        "twice": (values[:2], {names[1]: "again"}),
        "too many": ([*values, "extra"], {}),
    }[call]
    mine = _outcome(cls, tuple(args), kwargs)
    assert mine == _outcome(stand_in(cls), tuple(args), kwargs)
    assert isinstance(mine, tuple) == (call not in ("positional", "mixed"))


@CLASSES
def test_fields_and_class_attributes_are_the_dataclass_ones(cls: type) -> None:
    ref = stand_in(cls)
    assert dataclasses.is_dataclass(cls) and dataclasses.is_dataclass(cls(**SAMPLES[cls]))
    mine = [(f.name, f.type, f.default, f.default_factory) for f in dataclasses.fields(cls)]
    assert mine == [(f.name, f.type, f.default, f.default_factory) for f in dataclasses.fields(ref)]
    assert repr(cls.__dataclass_params__) == repr(ref.__dataclass_params__)
    for name in ref.__dataclass_fields__:
        assert (name in vars(cls)) == (name in vars(ref)), name
        assert vars(cls).get(name) == vars(ref).get(name), name
    assert cls.__hash__ is None and ref.__hash__ is None
    assert getattr(cls, "__match_args__", None) == getattr(ref, "__match_args__", None)


@CLASSES
def test_repr_eq_and_defaults_match(cls: type) -> None:
    ref = stand_in(cls)
    kwargs = SAMPLES[cls]
    assert repr(cls(**kwargs)) == repr(ref(**kwargs))
    assert cls(**kwargs) == cls(**copy.deepcopy(kwargs))
    first = next(iter(kwargs))
    assert cls(**kwargs) != cls(**{**kwargs, first: "other"})
    assert cls(**kwargs).__eq__(ref(**kwargs)) is NotImplemented
    required = {k: v for k, v in kwargs.items() if k in ("platform", "event")}
    assert repr(cls(**required)) == repr(ref(**required))
    one, two = cls(**required), cls(**required)
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(one, f.name) == f.default_factory()
            assert getattr(one, f.name) is not getattr(two, f.name)  # a fresh one each time


def test_replace_asdict_and_a_recursive_repr() -> None:
    out = HookOutput.block("x")
    assert dataclasses.replace(out, reason="y") == HookOutput.block("y")
    assert dataclasses.asdict(out)["decision"] == "block"
    out.raw_output["self"] = out
    assert repr(out).endswith("raw_output={'self': ...}, updated_input=None, system_message='')")
    if sys.version_info >= (3, 13):
        assert copy.replace(HookOutput.block("x"), reason="z") == HookOutput.block("z")  # type: ignore[attr-defined]


def test_a_user_dataclass_can_extend_them() -> None:
    @dataclasses.dataclass
    class Mine(HookOutput):
        """A hook's own output type."""

        extra: int = 0

    assert [f.name for f in dataclasses.fields(Mine)][-2:] == ["system_message", "extra"]
    assert Mine(decision="block", extra=2).extra == 2


def test_a_plain_subclass_sets_each_field_as_the_dataclass_would() -> None:
    seen: list[str] = []

    class Noting(HookOutput):
        def __setattr__(self, name: str, value: object) -> None:
            seen.append(name)
            super().__setattr__(name, value)

    assert Noting(reason="x").reason == "x"
    assert seen == [f.name for f in dataclasses.fields(HookOutput)]
