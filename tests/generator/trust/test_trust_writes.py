"""What `hookwrap trust` writes: only the trust files it names (and their lock files), through
a symlinked config to its target, keeping each file's mode; `--dry-run` writes nothing."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest
from support.trust import ALL_CLIS, TRUST_FILES, hw, make_project, qwen_folder_trust_on, snapshot


@pytest.fixture
def project(tmp_path: Path, isolated_home: Path) -> Path:
    qwen_folder_trust_on(isolated_home)
    return make_project(tmp_path / "my project")


# What `trust` could write to: the test's folder (the project's parent) and HOME, where every
# CLI's config lives (the CLIs' own overrides, CODEX_HOME and the like, are unset). The rest of
# the run's temp tree holds other tests' files, which grow with the run: not walked.

def test_dry_run_writes_nothing(project: Path, isolated_home: Path, tmp_path: Path) -> None:
    before = snapshot(tmp_path, isolated_home)
    dry = hw(project, "trust", "--dry-run")
    assert dry.code == 0, dry.err
    assert len(re.findall(r"^would create ", dry.out, re.M)) == 5  # codex twice, gemini, qwen, copilot
    assert snapshot(tmp_path, isolated_home) == before


def test_trust_writes_only_the_files_it_names(project: Path, isolated_home: Path, tmp_path: Path) -> None:
    before = snapshot(tmp_path, isolated_home)
    done = hw(project, "trust")
    assert done.code == 0, done.err
    named = {line.split(": ")[0].split(maxsplit=1)[1] for line in done.out_lines if line.startswith("create ")}
    assert named == {str(isolated_home / rel) for rel in TRUST_FILES.values()}
    after = snapshot(tmp_path, isolated_home)
    changed = {path for path in set(before) | set(after) if before.get(path) != after.get(path)}
    locks = {str(Path(p).parent / f".{Path(p).name}.hookwrap-lock") for p in named}
    folders = {str(Path(p).parent) for p in named if str(Path(p).parent) not in before}
    assert changed == named | locks | folders
    for path in named:  # a new trust file is the user's alone, as the CLIs write theirs
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_symlinked_config_is_written_through_and_keeps_its_mode(
        project: Path, isolated_home: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    contents = {"codex": '# mine\nmodel = "m"\n', "copilot": '// mine\n{"theme": "dark"}\n',
                "gemini": '// mine\n{"/elsewhere": "TRUST_FOLDER"}\n',
                "qwen": '/* mine */\n{"/elsewhere": "DO_NOT_TRUST"}\n'}
    for cli, rel in TRUST_FILES.items():
        target = dotfiles / cli
        target.write_text(contents[cli])
        target.chmod(0o640)
        link = isolated_home / rel
        link.parent.mkdir(exist_ok=True)
        link.symlink_to(target)

    done = hw(project, "trust")
    assert done.code == 0, done.err
    for cli, rel in TRUST_FILES.items():
        link, target = isolated_home / rel, dotfiles / cli
        assert link.is_symlink() and link.resolve() == target
        text = target.read_text()
        assert "mine" in text and str(project.resolve()) in text, (cli, text)
        assert stat.S_IMODE(target.stat().st_mode) == 0o640
        assert (dotfiles / f".{cli}.hookwrap-lock").exists()  # beside the file, not the link
        assert not (link.parent / f".{link.name}.hookwrap-lock").exists()
    assert json.loads(text.split("\n", 1)[1]) == {"/elsewhere": "DO_NOT_TRUST",
                                                  str(project.resolve()): "TRUST_FOLDER"}


def test_a_dangling_symlink_is_refused(project: Path, isolated_home: Path, tmp_path: Path) -> None:
    link = isolated_home / TRUST_FILES["codex"]
    link.parent.mkdir()
    link.symlink_to(tmp_path / "gone" / "config.toml")
    done = hw(project, "trust", "--platform", "codex")
    assert done.code == 1
    assert "is a symlink to" in done.err and "which does not exist" in done.err
    assert not (tmp_path / "gone").exists()


@pytest.mark.parametrize("cli", ALL_CLIS)
def test_each_cli_trusts_only_its_own_file(project: Path, isolated_home: Path, cli: str) -> None:
    done = hw(project, "trust", "--platform", cli)
    assert done.code == 0, done.err
    written = {str(p.relative_to(isolated_home)) for p in isolated_home.rglob("*")
               if p.is_file() and not p.name.endswith(".hookwrap-lock")}
    assert written == {".qwen/settings.json"} | ({TRUST_FILES[cli]} if cli in TRUST_FILES else set())


def test_only_trust_writes_outside_the_project(tmp_path: Path, isolated_home: Path,
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    """`add` and `sync` only note what is untrusted, doctor only reads the trust files: the
    user's files change only when `hookwrap trust` runs."""
    qwen_folder_trust_on(isolated_home)
    before = snapshot(isolated_home)
    root = make_project(tmp_path / "project")
    for args in (["sync"], ["doctor"], ["list"], ["trust", "--dry-run"], ["add", "session_start", "context"],
                 ["test", "guard", "--tool", "shell", "--input", '{"command": "ls"}']):
        hw(root, *args)
    assert snapshot(isolated_home) == before


def test_a_lock_that_cannot_be_taken_is_an_error_not_a_traceback(project: Path, isolated_home: Path) -> None:
    (isolated_home / ".codex" / ".config.toml.hookwrap-lock").mkdir(parents=True)
    done = hw(project, "trust", "--platform", "codex")
    assert done.code == 1, done.err
    assert done.err.startswith(f"error: {isolated_home / '.codex' / '.config.toml.hookwrap-lock'}: ")
    assert f"cannot lock config.toml with it (Is a directory); {isolated_home / '.codex' / 'config.toml'} " \
        "is unchanged" in done.err and "Traceback" not in done.err
    assert not (isolated_home / ".codex" / "config.toml").exists()
