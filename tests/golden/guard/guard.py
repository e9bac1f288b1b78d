#!/usr/bin/env python3
"""guard: stops dangerous shell commands, and edits to secrets and hook files, before they run.

Rendered once by `hookwrap add` from the guard template; it is yours now. It holds only your
policy: the settings below. The rules themselves (git data loss, force pushes, `rm -rf` outside
the project, code piped into a shell, disks, secrets...) live in the hookwrap runtime
(.hookwrap/lib/hookwrap/guard_rules.py), which `hookwrap sync` keeps up to date; every block
names its rule id. `hookwrap test guard --explain 'CMD'` shows how a command is read and
which rule matches. The same settings may also go in this hook's [hooks.guard] table of
hookwrap.toml (lists there add to these). It is a seat belt against mistakes, not a sandbox.
"""

from __future__ import annotations  # annotations stay text: the hook runs on Python 3.9+

import os
import sys

# The hookwrap runtime travels with the repo in .hookwrap/lib, so a plain python3 runs this
# script on a machine where hookwrap is not installed. (os.path rather than pathlib: this
# runs as a new process on every event, and start-up time counts.)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

from hookwrap import HookInput, HookOutput, main  # noqa: E402
from hookwrap.guard_engine import Guard, Rule  # noqa: E402

# Opt-in rule packs, off by default: "infrastructure" (terraform/pulumi destroy, kubectl
# delete, helm uninstall, docker prune, cloud CLIs' deletes), "databases" (DROP/TRUNCATE
# through psql/mysql/sqlite3, redis FLUSHALL, db:drop tasks), "backups" (restic/borg prune,
# zfs destroy, secret managers' deletes).
PACKS = {"infrastructure": False, "databases": False, "backups": False}
# `git push --force-with-lease` refuses to overwrite commits it has not seen: it is allowed
# unless this is True (plain --force is always blocked).
BLOCK_FORCE_WITH_LEASE = False
# Reading secrets (.env, private keys, ~/.ssh, cloud and cluster credentials) is blocked
# unless this is True. Writing, deleting, moving or copying .env stays blocked.
ALLOW_SECRET_READS = False
# Commands never blocked: globs over one command as `--explain` shows it (after sudo, env,
# bash -c...), e.g. "git push --force origin my-scratch-branch".
ALLOWED_COMMANDS: list[str] = []
# Directories outside the project where recursive deletes are fine, as under /tmp,
# e.g. "~/scratch".
ALLOWED_PATHS: list[str] = []
# File names that hold no secrets, besides .env.example, .env.sample and .env.template.
NOT_SECRETS: list[str] = []
# Rules switched off, by the id a block names, e.g. "git.branch-force-delete".
DISABLED_RULES: list[str] = []
# Rules of your own: Rule(id, what it is, what to do instead, pattern=GLOB) blocks a command
# matching the glob; guard_rules.py shows the other fields (program, sub, options, files...).
EXTRA_RULES: list[Rule] = [
    # Rule("team.no-publish", "publishing a package", "Ask the user to publish.",
    #      pattern="npm publish*"),
]

GUARD = Guard(__file__, packs=PACKS, block_force_with_lease=BLOCK_FORCE_WITH_LEASE,
              allow_secret_reads=ALLOW_SECRET_READS, allowed_commands=ALLOWED_COMMANDS,
              allowed_paths=ALLOWED_PATHS, not_secrets=NOT_SECRETS,
              disabled_rules=DISABLED_RULES, extra_rules=EXTRA_RULES)


def hook(event: HookInput) -> HookOutput | None:
    """Block the call when a rule matches; otherwise no opinion (None)."""
    return GUARD.check(event)


if __name__ == "__main__":
    raise SystemExit(main(hook))
