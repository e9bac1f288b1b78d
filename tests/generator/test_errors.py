"""The error hierarchy: one base, builtin-compatible subclasses, hints."""

import pytest

from hookwrap.generator import errors


@pytest.mark.parametrize("cls", [errors.UsageError, errors.ManifestError,
                                 errors.SettingsError, errors.TemplateError])
def test_value_errors_carry_a_hint(cls):
    error = cls("x.json: broken", hint="fix it")
    assert isinstance(error, errors.HookwrapError)
    assert isinstance(error, ValueError)
    assert (str(error), error.hint) == ("x.json: broken", "fix it")


def test_hint_defaults_to_empty():
    assert errors.ProjectError("no manifest").hint == ""
