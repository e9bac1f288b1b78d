"""The guard's rules, as data: what each one matches in a parsed command, and what to do instead.

Copied into every project with the runtime, so `hookwrap sync` brings new and fixed rules to a
repo; the rendered guard.py holds only its user's policy (which packs are on, rules switched
off, commands and paths allowed, rules of their own). The engine is guard_engine.py; the shell
is read by shell.py. Every rule has an id (named by every block and by
`hookwrap test guard --explain`), a category, and a message that names the safer way.

A command rule matches a command (after its wrappers: `sudo`, `env`, `bash -c`...) when every
field it sets matches:

- ``program``: the program's name (``/usr/bin/git`` is ``git``); ``mkfs*`` is a glob.
- ``sub``: the first operands after the program's own global options (``git -C dir push``):
  one alternative list per position, ``"drop|clear"``; ``*`` globs.
- ``options``: option groups that must all be present, each ``"-f|--force"``: a short letter
  also counts inside a cluster (``-uf``), and a long option also as a prefix GNU accepts
  (``--forc``).
- ``unless``: options that make it safe (``-n|--dry-run``).
- ``args``: globs, one of which some operand matches (``+*`` for a forced refspec).
- ``check``: a named test in guard_checks.py for what the fields above cannot say (where an
  ``rm -rf`` lands, which SQL a client runs).
- ``pattern``: a glob over the whole command as `--explain` shows it (rules of your own).

A file rule (``files``/``dirs`` set) matches a change to a path: ``edit`` (the write and edit
tools, a patch), ``write`` (a shell redirection, tee, cp...), ``remove`` (rm, mv away),
``copy`` (cp, scp... of it) or ``read``. A pattern with a ``/`` is a path from the project root
or from your home directory (a trailing ``/`` covers everything under it), with ``~/`` from
your home directory only; one without is a file name; ``dirs`` match any directory on the path.
"""

from __future__ import annotations

import functools
import re

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Dict, Iterable, List, Tuple

    from .shell import Command


_NO_CHANGES: frozenset[str] = frozenset()


class Rule:
    """One rule; see the module docstring for what each field matches."""

    __slots__ = (
        "args",
        "asks",
        "category",
        "changes",
        "check",
        "dirs",
        "files",
        "id",
        "instead",
        "options",
        "pack",
        "pattern",
        "program",
        "sub",
        "unless",
        "what",
    )

    def __init__(self, id: str, what: str, instead: str, *, category: str = "custom",
                 program: Iterable[str] | str = (), sub: Iterable[str] = (),
                 options: Iterable[str] = (), unless: str = "", args: Iterable[str] = (),
                 check: str = "", pattern: str = "", files: Iterable[str] = (),
                 dirs: Iterable[str] = (), changes: Iterable[str] | str = (),
                 pack: str = "", asks: bool = False) -> None:
        self.id = id
        self.what = what
        self.instead = instead
        self.category = category
        self.program: Tuple[str, ...] = (program,) if isinstance(program, str) else tuple(program)
        self.sub = tuple(sub)
        self.options = tuple(options)
        self.unless = unless
        self.args = tuple(args)
        self.check = check
        self.pattern = " ".join(pattern.split()) if pattern else ""
        self.files = tuple(files)
        self.dirs = tuple(dirs)
        self.changes = frozenset(changes.split() if isinstance(changes, str) else changes) \
            if changes else _NO_CHANGES
        self.pack = pack  # "" = on by default; else the opt-in pack it belongs to
        self.asks = asks  # the guard cannot know (a word made when it runs): ask the user
        if self.pattern and not self.program:
            first = self.pattern.split(" ", 1)[0]
            if not any(c in first for c in "*?["):
                self.program = (first,)

    def __repr__(self) -> str:
        return f"Rule({self.id!r})"


PACKS = ("infrastructure", "databases", "backups")

# Files that define which hooks run, from the project root or your home directory. An agent
# that could edit them could switch the guard off.
HOOK_FILES = (
    ".hookwrap/", "./hookwrap.toml",
    ".claude/settings.json", ".claude/settings.local.json", ".gemini/settings.json",
    ".codex/hooks.json", ".codex/config.toml", ".qwen/settings.json", ".github/hooks/",
    ".factory/settings.json", ".opencode/plugins/", ".kilo/plugins/", ".clinerules/hooks/",
    ".cline/hooks/",
    # pi runs every extension in these folders, and those its settings.json lists (0.73.1).
    ".pi/extensions/", ".pi/settings.json", ".pi/agent/extensions/", ".pi/agent/settings.json",
)
ENV_FILES = (".env", ".env.*")
# Names the secret rules let through: templates that hold no secrets by convention.
NOT_SECRETS = (".env.example", ".env.sample", ".env.template")
# What reading counts as reading a secret: .env files, private keys, credentials.
SECRET_FILES = (
    *ENV_FILES, "*.pem", "*.key", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "*.p12",
    "*.pfx", "*.jks", "*.keystore", ".netrc", ".pgpass", ".git-credentials",
    "credentials.json", "service-account*.json",
    ".ssh/", ".aws/credentials", ".aws/config", ".azure/", ".config/gcloud/", ".kube/config",
    ".docker/config.json", ".gnupg/", ".npmrc", ".pypirc", ".vault-token",
    ".config/gh/hosts.yml", ".terraform.d/credentials.tfrc.json", "/etc/shadow",
    "/etc/gshadow", "/etc/master.passwd", "/etc/sudoers", "/etc/ssh/ssh_host_*_key",
    "credentials",  # ~/.gem/credentials, ~/.aws/credentials...
    # The logins coding agents' CLIs keep in your home directory (a project's .claude/ or
    # .gemini/ holds its settings only).
    "~/.codex/auth.json", "~/.claude/.credentials.json", "~/.gemini/oauth_creds.json",
    "~/.qwen/oauth_creds.json", "~/.local/share/opencode/auth.json", "~/.copilot/config.json",
)
NOT_SECRET_FILES = ("*.pub", "known_hosts", "authorized_keys")
# Credentials in your home directory, and private keys: changing, deleting or moving them
# loses a login or plants a key (`rm ~/.ssh/id_rsa`, `echo KEY >> ~/.ssh/authorized_keys`).
CREDENTIAL_FILES = (
    ".ssh/", ".aws/", ".azure/", ".config/gcloud/", ".kube/", ".gnupg/", ".docker/config.json",
    ".netrc", ".pgpass", ".git-credentials", ".vault-token", ".config/gh/hosts.yml",
    "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "~/.codex/auth.json",
    "~/.claude/.credentials.json", "~/.gemini/oauth_creds.json", "~/.qwen/oauth_creds.json",
    "~/.local/share/opencode/auth.json",
)
# What the credential rule lets through: public keys, and the hosts ssh has seen.
NOT_CREDENTIAL_FILES = ("*.pub", "known_hosts", "known_hosts.old")
# Files that run code later, on their own: shell start-up files (from your home directory),
# cron tables, launch agents and daemons, autostart entries and services.
STARTUP_FILES = (
    "./.bashrc", "./.bash_profile", "./.bash_login", "./.bash_logout", "./.profile",
    "./.zshrc", "./.zshenv", "./.zprofile", "./.zlogin", "./.zlogout", "./.kshrc", "./.mkshrc",
    "./.cshrc", "./.tcshrc", "./.config/fish/", "./.config/autostart/", "./.config/systemd/",
    "./.config/environment.d/", "./.xinitrc", "./.xprofile", "./.xsessionrc", "./.ssh/rc",
    "./Library/LaunchAgents/", "/Library/LaunchAgents/", "/Library/LaunchDaemons/",
    "/etc/profile", "/etc/profile.d/", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zshrc",
    "/etc/zsh/", "/etc/environment", "/etc/crontab", "/etc/cron.d/", "/etc/cron.hourly/",
    "/etc/cron.daily/", "/etc/cron.weekly/", "/etc/cron.monthly/", "/var/spool/cron/",
    "/etc/systemd/", "/etc/init.d/", "/etc/rc.local", "/usr/lib/systemd/", "/lib/systemd/",
)
# The operating system's own files: changing, replacing or deleting them breaks the machine
# (/usr/local is yours: `install tool /usr/local/bin` is not in it).
SYSTEM_FILES = (
    "/etc/", "/bin/", "/sbin/", "/lib/", "/lib32/", "/lib64/", "/libx32/", "/boot/",
    "/usr/bin/", "/usr/sbin/", "/usr/lib/", "/usr/lib32/", "/usr/lib64/", "/usr/libexec/",
    "/usr/share/", "/usr/include/", "/System/", "/private/etc/", "/proc/sys/",
    "/proc/sysrq-trigger", "/sys/", "/var/log/",
)

_STASH = "run `git stash` first to keep the changes, or ask the user to run it"
_ASK = "ask the user to run it"
_PUSH = "Push without force, or use `git push --force-with-lease` (it refuses to overwrite " \
        "commits you have not seen); if the remote history must be rewritten, ask the user."
_RM = "Delete only the specific paths you mean, inside the project (e.g. `rm -rf build`)"

# The rules on by default (RULES has every rule: these, then the packs' rules).
DEFAULT_RULES: Tuple[Rule, ...] = (
    # --- deletes: rm -rf, find -delete, and what a shell line holds too deep to read ---------
    Rule("fs.rm-root-or-home", "recursive delete of /, your home directory or what holds them",
         _RM + ".", category="delete", program="rm", options=("-r|-R|--recursive",),
         check="rm_root_or_home"),
    Rule("fs.rm-project-root", "recursive forced delete of the whole project", _RM + ".",
         category="delete", program="rm", options=("-r|-R|--recursive", "-f|--force"),
         check="rm_project_root"),
    Rule("fs.rm-outside-project", "recursive delete outside the project",
         _RM + "; temporary files under /tmp or $TMPDIR are fine, and the guard's "
         "ALLOWED_PATHS setting adds others.", category="delete", program="rm",
         options=("-r|-R|--recursive",), check="rm_outside"),
    Rule("fs.rm-found-outside", "deleting every file that find or fd finds outside the "
         "project", "Run find on the directory you mean, inside the project (e.g. `find build "
         "-name '*.o' -delete`).", category="delete", program=("rm", "unlink", "shred"),
         check="rm_found_outside"),
    Rule("fs.rm-git-dir", "deleting a .git directory: the repository's whole history",
         "Leave .git alone; to start over, ask the user.", category="delete", program="rm",
         options=("-r|-R|--recursive",), check="rm_git_dir"),
    Rule("fs.rsync-delete", "rsync --delete into your home directory, / or outside the "
         "project: it deletes what the source lacks", "Sync into a folder inside the project, "
         "or run it with --dry-run and ask the user.", category="delete", program="rsync",
         check="rsync_delete"),
    Rule("fs.rm-unknown-targets", "recursive forced delete of paths only known when it runs "
         "(xargs, parallel)", "List the paths you mean and delete them by name, inside the "
         "project (e.g. `rm -rf build dist`).", category="delete", program="rm",
         options=("-r|-R|--recursive", "-f|--force"), check="rm_dynamic"),
    Rule("fs.find-delete", "find that deletes outside the project, or the whole project",
         "Run find on the directory you mean, inside the project (e.g. `find build -name "
         "'*.o' -delete`).", category="delete", program="find", check="find_delete"),
    Rule("fs.move-root-or-home", "moving /, your home directory or what holds them",
         "Move only the specific paths you mean, inside the project.", category="delete",
         program="mv", check="mv_root_or_home"),
    Rule("fs.chmod-root-or-home", "recursive permission or owner change of /, your home "
         "directory or what holds them", "Change only the files you mean, inside the "
         "project.", category="delete", program=("chmod", "chown", "chgrp"),
         options=("-R|--recursive",), check="recursive_root_or_home"),
    Rule("fs.rm-unknown-target", "recursive delete of a path only known when it runs (a "
         "variable or a command's output)", "Write the path out (e.g. `rm -rf build`), or "
         "ask the user to run it.", category="delete", program="rm",
         options=("-r|-R|--recursive",), check="rm_unknown", asks=True),
    Rule("code.unknown-program", "a command whose program is only known when it runs, with "
         "arguments that would destroy data for rm, git, dd or find", "Name the program (e.g. "
         "`rm -rf build`), or ask the user to run it.", category="code",
         check="unknown_program", asks=True),
    Rule("code.reverse-shell", "a shell wired to a network connection (`bash -i >& "
         "/dev/tcp/...`, `nc -e /bin/sh`, `socat exec:`): whoever is at the other end runs "
         "commands here", "Do not run it; ask the user.", category="code",
         check="reverse_shell"),
    Rule("code.fork-bomb", "a fork bomb: a function or loop that starts copies of itself "
         "until the machine stops", "Do not run it.", category="code", check="fork_bomb"),
    # --- local git data loss ---------------------------------------------------------------
    Rule("git.reset-hard", "git reset --hard / --merge throws away uncommitted changes",
         f"Use `git reset --soft` or `git reset` (they keep your files), or {_STASH}.",
         category="git", program="git", sub=("reset",), options=("--hard|--merge",)),
    Rule("git.checkout-discard", "git checkout that overwrites files in the work tree (`-- "
         "<paths>`, `.`, `-f`)", f"Check out a branch without paths, or {_STASH}.",
         category="git", program="git", sub=("checkout",), check="checkout_discards"),
    Rule("git.restore-worktree", "git restore of work-tree files throws away their changes",
         f"`git restore --staged <paths>` only unstages; or {_STASH}.", category="git",
         program="git", sub=("restore",), check="restore_discards"),
    Rule("git.clean-force", "git clean -f deletes untracked files for good",
         "Run `git clean -n` to see what it would delete, and ask the user.", category="git",
         program="git", sub=("clean",), options=("-f|--force",),
         unless="-n|--dry-run|-i|--interactive"),
    Rule("git.stash-drop", "git stash drop / clear deletes stashed changes for good",
         "Keep the stash (`git stash list` shows it), or ask the user.", category="git",
         program="git", sub=("stash", "drop|clear")),
    Rule("git.branch-force-delete", "git branch -D deletes a branch whether merged or not",
         "Use `git branch -d` (it refuses to delete unmerged work), or ask the user.",
         category="git", program="git", sub=("branch",), check="branch_force_delete"),
    Rule("git.switch-discard", "git switch / checkout --force or --discard-changes throws "
         "away local changes", f"Switch without --force, or {_STASH}.", category="git",
         program="git", sub=("switch|checkout",), check="switch_discards"),
    Rule("git.worktree-remove-force", "git worktree remove --force deletes a work tree with "
         "its uncommitted changes", "Remove it without --force (git refuses while it has "
         "changes), or ask the user.", category="git", program="git",
         sub=("worktree", "remove"), options=("-f|--force",)),
    Rule("git.rm-force", "git rm -f deletes files along with changes git has not stored",
         f"Use `git rm --cached` to stop tracking a file and keep it, or {_STASH}.",
         category="git", program="git", sub=("rm",), check="git_rm_force"),
    Rule("git.update-ref-delete", "git update-ref -d deletes a branch or ref without checks",
         "Use `git branch -d` (it refuses to delete unmerged work), or ask the user.",
         category="git", program="git", sub=("update-ref",), check="update_ref_delete"),
    Rule("git.reflog-expire", "expiring the reflog or pruning now deletes the last way back "
         "to lost commits", f"Leave the reflog alone, or {_ASK}.", category="git",
         program="git", sub=("reflog|gc|prune",), check="reflog_expire"),
    Rule("git.tag-delete", "git tag -d deletes a tag (a release's name for a commit)",
         f"Leave the tag, or {_ASK}.", category="git", program="git", sub=("tag",),
         options=("-d|--delete",)),
    Rule("git.history-rewrite", "git filter-branch / filter-repo / replace rewrites or "
         "replaces the repository's history", f"Leave the history as it is, or {_ASK}.",
         category="git", program="git", sub=("filter-branch|filter-repo|replace",),
         unless="--analyze|-l|--list|-h|--help|--dry-run"),
    Rule("git.config-runs-code", "git config that makes git run a program later (core."
         "hooksPath, core.fsmonitor, diff.external, a filter's clean/smudge)",
         f"Tell the user what to set, or {_ASK}.", category="persistence", program="git",
         sub=("config",), check="config_runs_code"),
    Rule("git.abort-discard", "git merge / rebase / cherry-pick --abort throws away the "
         "conflict resolutions made so far", "Run `git status` to see where things stand, "
         "finish or stash the resolution, or ask the user.", category="git", program="git",
         sub=("merge|rebase|cherry-pick|revert|am",), options=("--abort",)),
    # --- remote loss -------------------------------------------------------------------------
    Rule("git.push-force", "git push --force / -f / +refspec overwrites the remote history",
         _PUSH, category="remote", program="git", sub=("push",), unless="-n|--dry-run",
         check="push_force"),
    Rule("git.push-force-with-lease", "git push --force-with-lease rewrites the remote history",
         "Push without force; if the remote history must be rewritten, ask the user (this "
         "rule is on because BLOCK_FORCE_WITH_LEASE is set).", category="remote",
         program="git", sub=("push",), unless="-n|--dry-run", check="push_lease"),
    Rule("git.push-delete", "git push --delete / :branch / --mirror / --prune deletes branches "
         "or tags on the remote", f"Push the branches you mean by name, or {_ASK}.",
         category="remote", program="git", sub=("push",), unless="-n|--dry-run",
         check="push_deletes"),
    Rule("gh.repo-delete", "gh repo delete deletes a repository and its history",
         "Ask the user to delete it.", category="remote", program="gh",
         sub=("repo", "delete")),
    Rule("gh.repo-sync-force", "gh repo sync --force hard-resets the destination branch to "
         "its source: the commits only it has are lost (the fork's on GitHub, or your local "
         "branch's)", f"Sync without --force (it stops where the branches have diverged), or "
         f"{_ASK}.", category="remote", program="gh", sub=("repo", "sync"),
         options=("--force",)),
    # --- code run from a download or hidden from the guard -----------------------------------
    Rule("code.download-to-shell", "a download piped into a shell or an interpreter",
         "Download the script to a file, read it, and ask the user before running it.",
         category="code", check="download_piped"),
    Rule("code.download-run", "a download run as code (`bash <(curl ..)`, `sh -c \"$(curl "
         "..)\"`, `eval \"$(wget ..)\"`)", "Download the script to a file, read it, and ask "
         "the user before running it.", category="code", check="download_substituted"),
    Rule("code.decoded-to-shell", "decoded or unpacked text piped into a shell or an "
         "interpreter", "Write the script to a file, read it, and run it only if it is what "
         "you meant.", category="code", check="decoded_piped"),
    Rule("code.unreadable", "a command nested too deep for the guard to read",
         "Write the command plainly, without dozens of nested $( ) levels or shells inside "
         "shells (`bash -c \"bash -c ...\"`); run a script file instead.",
         category="code", check="unreadable"),
    # --- disks and devices ---------------------------------------------------------------------
    Rule("disk.dd-device", "dd writing to a device", f"Write to a file instead, or {_ASK}.",
         category="disk", program="dd", check="dd_device"),
    Rule("disk.format", "formatting or repartitioning a disk", _ASK[0].upper() + _ASK[1:] + ".",
         category="disk", program=("mkfs", "mkfs.*", "mke2fs", "mkswap", "mkntfs", "mkdosfs",
                                   "newfs", "newfs_*", "blkdiscard", "cfdisk", "mkfs.btrfs",
                                   "mkfs.xfs"),
         unless="--help", check="formats_device"),
    Rule("disk.volume-destroy", "destroying a volume, a pool or a disk's encryption header",
         _ASK[0].upper() + _ASK[1:] + ".", category="disk",
         program=("lvremove", "vgremove", "pvremove", "zpool", "zfs", "cryptsetup", "mdadm",
                  "hdparm", "nvme"), check="volume_destroy"),
    Rule("disk.partition", "changing a disk's partition table", _ASK[0].upper() + _ASK[1:] + ".",
         category="disk", program=("fdisk", "sfdisk", "gdisk", "sgdisk", "parted"),
         check="partition_edit"),
    Rule("disk.wipe", "wiping a disk, or files outside the project, beyond recovery (shred, "
         "wipefs)", "Delete the file normally (`rm FILE`), or ask the user.", category="disk",
         program=("shred", "wipefs", "srm", "wipe"), unless="--help|--version", check="wipes"),
    Rule("disk.diskutil-erase", "diskutil erasing or repartitioning a disk",
         _ASK[0].upper() + _ASK[1:] + ".", category="disk", program="diskutil",
         sub=("erase*|zeroDisk|randomDisk|secureErase|partitionDisk|reformat|apfs",),
         check="diskutil_erase"),
    Rule("disk.write-device", "writing onto a block device", f"Write to a file instead, or "
         f"{_ASK}.", category="disk", check="device_write"),
    # --- files: secrets, hook files, .git internals ------------------------------------------
    Rule("secrets.env-write", "writing a .env file, which holds secrets", "Edit .env.example "
         "instead and tell the user which values to set in their .env.", category="secrets",
         files=ENV_FILES, changes="edit write"),
    Rule("secrets.env-remove", "deleting or moving a .env file, which holds secrets",
         f"Leave .env in place, or {_ASK}.", category="secrets", files=ENV_FILES,
         changes="remove"),
    Rule("secrets.env-copy", "copying a .env file, which holds secrets", "Copy .env.example "
         "instead, or ask the user.", category="secrets", files=ENV_FILES, changes="copy"),
    Rule("secrets.env-commit", "adding a .env file to git: its secrets would be in the "
         "history", "Keep .env out of git (it belongs in .gitignore); commit .env.example.",
         category="secrets", files=ENV_FILES, changes="commit"),
    Rule("secrets.print-credentials", "printing stored credentials (tokens, keys, kubeconfig)",
         "Use the CLI without printing its credentials, or ask the user for what you need "
         "(ALLOW_SECRET_READS lets this through).", category="secrets",
         program=("kubectl", "gh", "aws", "gcloud", "az", "heroku", "doctl", "vault",
                  "security", "npm", "op"), check="prints_credentials"),
    Rule("secrets.read", "reading a secret (.env, a private key, credentials)",
         "Read .env.example, or ask the user for the value you need (ALLOW_SECRET_READS in "
         ".hookwrap/hooks/<guard>.py lets reads through).", category="secrets",
         files=SECRET_FILES, changes="read copy"),
    Rule("hooks.files", "a file that defines which hooks run",
         "Hooks are changed by the user with the `hookwrap` command (hookwrap add, hookwrap "
         "remove, hookwrap sync); ask the user to make this change.", category="hooks",
         files=HOOK_FILES, changes="edit write remove"),
    Rule("secrets.credentials-change", "changing, deleting or moving credentials (~/.ssh, "
         "cloud and cluster logins, private keys)", "Leave them as they are, and ask the user "
         "to make the change.", category="secrets", files=CREDENTIAL_FILES,
         changes="edit write remove"),
    Rule("persist.startup-files", "writing a shell start-up file, a cron table, a launch "
         "agent or a service: it runs code later, on its own",
         f"Tell the user what to add and where, or {_ASK}.", category="persistence",
         files=STARTUP_FILES, changes="edit write remove"),
    Rule("persist.scheduler", "installing or removing scheduled or launched jobs (crontab, "
         "launchctl load)", f"Show the job to the user, or {_ASK}.", category="persistence",
         program=("crontab", "launchctl"), check="schedules"),
    Rule("system.power", "shutting down or rebooting the machine, or killing every process",
         f"{_ASK[0].upper() + _ASK[1:]}.", category="system",
         program=("shutdown", "reboot", "halt", "poweroff", "init", "telinit", "systemctl",
                  "kill", "loginctl"), check="power"),
    Rule("system.accounts", "adding, removing or changing user accounts, groups, passwords "
         "or sudo rights", f"{_ASK[0].upper() + _ASK[1:]}.", category="system",
         program=("useradd", "userdel", "usermod", "adduser", "deluser", "groupadd", "groupdel",
                  "groupmod", "addgroup", "delgroup", "passwd", "chpasswd", "chsh", "chfn",
                  "visudo", "gpasswd", "dscl", "sysadminctl", "pw"),
         unless="-h|--help|-S|--status|-l|--list|read|-read|list|-list"),
    Rule("system.security-off", "switching off the firewall or the system's security checks "
         "(iptables -F, ufw disable, setenforce 0, spctl --master-disable)",
         f"{_ASK[0].upper() + _ASK[1:]}.", category="system",
         program=("iptables", "ip6tables", "nft", "ufw", "setenforce", "spctl", "csrutil",
                  "systemctl", "service", "aa-teardown", "auditctl"), check="security_off"),
    Rule("fs.system-file", "changing, replacing or deleting the system's own files (/etc, "
         "/usr/bin, /boot...)", f"Work on a copy inside the project, or {_ASK}.",
         category="system", files=SYSTEM_FILES, changes="edit write remove mode"),
    Rule("secrets.dns-exfiltration", "a DNS lookup of a name built from a variable or a "
         "command's output: it can carry a secret out", "Look up the literal name you mean "
         "(e.g. `dig example.com`).", category="secrets",
         program=("dig", "nslookup", "host", "drill", "kdig", "delv", "ping", "ping6",
                  "resolvectl", "getent"), check="dns_exfiltration"),
    Rule("git.internals", "a file inside .git/", "Use git commands (git add, git commit, git "
         "config) instead of editing .git/ directly.", category="git", dirs=(".git",),
         changes="edit"),
    Rule("git.hooks-write", "writing a git hook (.git/hooks/): it runs code on the next commit, "
         "checkout or push", "Ask the user to install git hooks, or use the project's hook "
         "manager (e.g. `pre-commit install`).", category="hooks", files=(".git/hooks/",),
         changes="write remove"),
)


@functools.cache
def pack_rules() -> Tuple[Rule, ...]:
    """The opt-in packs' rules (each with its ``pack``): made only when asked for (every pack
    is off by default), then the same objects on every call."""
    return (
        # --- opt-in pack: infrastructure ---------------------------------------------------------
        Rule("infra.terraform-destroy", "terraform / tofu destroy deletes managed infrastructure",
             "Run `terraform plan -destroy` to show what it would delete, and ask the user.",
             category="infrastructure", pack="infrastructure", program=("terraform", "tofu"),
             check="terraform_destroy"),
        Rule("infra.terragrunt-destroy", "terragrunt destroy deletes managed infrastructure",
             "Run `terragrunt plan -destroy`, and ask the user.", category="infrastructure",
             pack="infrastructure", program="terragrunt", check="terragrunt_destroy"),
        Rule("infra.pulumi-destroy", "pulumi destroy / stack rm deletes a stack's resources",
             "Run `pulumi preview --destroy`, and ask the user.", category="infrastructure",
             pack="infrastructure", program="pulumi", sub=("destroy|down|stack",),
             check="pulumi_destroy"),
        Rule("infra.cdk-destroy", "cdk destroy deletes a stack", _ASK[0].upper() + _ASK[1:] + ".",
             category="infrastructure", pack="infrastructure", program=("cdk", "cdktf"),
             sub=("destroy",)),
        Rule("infra.kubectl-delete", "kubectl delete / drain removes cluster resources",
             "Run it with `--dry-run=client` to see what it would do, and ask the user.",
             category="infrastructure", pack="infrastructure", program=("kubectl", "oc"),
             sub=("delete|drain|replace",), unless="--help|-h", check="kubectl_delete"),
        Rule("infra.kubectl-scale-zero", "kubectl scale --replicas=0 takes a workload down",
             "Ask the user to scale it down.", category="infrastructure", pack="infrastructure",
             program=("kubectl", "oc"), check="kubectl_scale_zero"),
        Rule("infra.ansible-shell", "an ad-hoc ansible shell command that deletes on every host",
             "Ask the user to run it.", category="infrastructure", pack="infrastructure",
             program="ansible", check="ansible_shell"),
        Rule("infra.helm-uninstall", "helm uninstall removes a release", _ASK[0].upper() +
             _ASK[1:] + ".", category="infrastructure", pack="infrastructure", program="helm",
             sub=("uninstall|delete|del|un",), unless="--dry-run|--help|-h"),
        Rule("infra.container-prune", "docker / podman prune or volume rm deletes containers, "
             "images or volumes with their data", "Remove the one container or image you mean by "
             "name, or ask the user.", category="infrastructure", pack="infrastructure",
             program=("docker", "podman", "nerdctl", "docker-compose", "podman-compose"),
             check="container_prune"),
        Rule("infra.cloud-delete", "a cloud CLI deleting resources", "Show the resources with the "
             "CLI's list or describe command, and ask the user to delete them.",
             category="infrastructure", pack="infrastructure",
             program=("aws", "gcloud", "gsutil", "az", "doctl", "heroku", "fly", "flyctl",
                      "vercel", "netlify", "eksctl", "linode-cli", "hcloud", "scw", "oci",
                      "ibmcloud", "firebase", "serverless", "sls", "vagrant", "gh", "nomad"),
             check="cloud_delete"),
        # --- opt-in pack: databases --------------------------------------------------------------
        Rule("db.sql-drop", "SQL that drops or empties tables or databases (DROP, TRUNCATE, DELETE "
             "without WHERE)", "Run a SELECT to show what it would remove, and ask the user.",
             category="databases", pack="databases",
             program=("psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb",
                      "clickhouse-client", "clickhouse", "cockroach", "sqlcmd", "bq", "snowsql",
                      "pgcli", "mycli", "litecli", "usql", "trino", "cqlsh"),
             check="sql_destroys"),
        Rule("db.redis-flush", "redis FLUSHALL / FLUSHDB deletes every key", "Delete the keys you "
             "mean by name, or ask the user.", category="databases", pack="databases",
             program=("redis-cli", "valkey-cli", "keydb-cli"), check="redis_flush"),
        Rule("db.mongo-drop", "MongoDB dropDatabase / drop / deleteMany({}) deletes data",
             _ASK[0].upper() + _ASK[1:] + ".", category="databases", pack="databases",
             program=("mongosh", "mongo"), check="mongo_drop"),
        Rule("db.http-delete", "an HTTP DELETE (a database's or search index's API)",
             "Ask the user to delete it.", category="databases", pack="databases",
             program=("curl", "http", "https", "xh", "wget"), check="http_delete"),
        Rule("db.drop-tool", "a tool that drops a database or resets it",
             "Ask the user to reset the database.", category="databases", pack="databases",
             check="database_reset"),
        # --- opt-in pack: backups and secret managers --------------------------------------------
        Rule("backup.delete-snapshots", "deleting backups or snapshots (restic forget/prune, borg "
             "delete/prune, zfs destroy, ...)", _ASK[0].upper() + _ASK[1:] + ".",
             category="backups", pack="backups", check="backup_delete"),
        Rule("backup.secret-delete", "deleting secrets from a secret manager (vault, aws "
             "secretsmanager, op, doppler, ...)", _ASK[0].upper() + _ASK[1:] + ".",
             category="backups", pack="backups", check="secret_manager_delete"),
    )


def all_rules() -> Tuple[Rule, ...]:
    """Every rule: the ones on by default, then the packs'."""
    return DEFAULT_RULES + pack_rules()


def __getattr__(name: str) -> Tuple[Rule, ...]:
    """``RULES``: all_rules(), as a name."""
    if name == "RULES":
        return all_rules()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def rule_ids() -> Tuple[str, ...]:
    return tuple(rule.id for rule in all_rules())


# Options that take the next word as their value, per program (so its subcommand is found):
# `git -C repo push`, `kubectl -n ns delete`. Tuples: a tuple of strings is a constant of the
# compiled module, where a set is built at every import (in every hook process).
VALUE_OPTIONS: Dict[str, Tuple[str, ...]] = {
    "git": ("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
            "--super-prefix"),
    "docker": ("-c", "--context", "-H", "--host", "--config", "-l", "--log-level",
               "--tlscacert", "--tlscert", "--tlskey", "-f", "--file", "-p", "--project-name"),
    "podman": ("-c", "--connection", "--url", "--identity", "--root", "--runroot",
               "--log-level", "--storage-driver"),
    "kubectl": ("-n", "--namespace", "--context", "--cluster", "--kubeconfig", "--user", "-s",
                "--server", "--token", "-l", "--selector", "-o", "--output", "--as",
                "--request-timeout", "-f", "--filename"),
    "helm": ("-n", "--namespace", "--kube-context", "--kubeconfig"),
    "gh": ("-R", "--repo"),
    "aws": ("--region", "--profile", "--output", "--endpoint-url", "--query", "--color",
            "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout"),
    "gcloud": ("--project", "--account", "--configuration", "--format", "--verbosity",
               "--impersonate-service-account", "--zone", "--region", "--billing-project"),
    "az": ("--subscription", "-g", "--resource-group", "-o", "--output", "--query"),
    "pulumi": ("-s", "--stack", "-C", "--cwd"),
    "redis-cli": ("-h", "-p", "-a", "-n", "-u", "--user", "--pass", "-s"),
    "restic": ("-r", "--repo", "--password-file", "--cache-dir", "-p"),
    "borg": ("--remote-path", "--lock-wait"),
    "vault": ("-address", "-namespace", "-mount"),
    "op": ("--account", "--vault"),
    "doppler": ("-p", "--project", "-c", "--config"),
}


def looks_destructive(texts: List[str]) -> bool:
    """Whether text the guard could not read names a program a rule is about, or a shell, an
    interpreter or a wrapper that runs a string (which could run anything: `python3`,
    `/bin/bash`, `su -c`)."""
    from .shell import INTERPRETERS, SHELLS, program_name, string_runners

    programs = {program for rule in all_rules() for program in rule.program if "*" not in program}
    programs |= {"curl", "wget", "eval", "sudo", "exec", "source", *SHELLS, *INTERPRETERS,
                 *string_runners()}
    return any(word in programs or program_name(word) in programs or word.startswith("mkfs")
               for text in texts for word in re.findall(r"[\w.-]+", text))  # \w: isalnum, _


_SAFE_DEVICES = ("/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin",
                 "/dev/tty", "/dev/random", "/dev/urandom", "/dev/full")
_BLOCK_DEVICES = ("sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "loop", "md",
                  "dm-", "mapper/", "sr", "nbd", "zd", "ram", "mtd", "bcache")


def is_block_device(path: str) -> bool:
    return path.startswith("/dev/") and path not in _SAFE_DEVICES and \
        path[5:].startswith(_BLOCK_DEVICES)


def git_subcommand(command: Command) -> Tuple[str, List[str]]:
    """(the git subcommand, its arguments) after git's own options."""
    args = command.args
    index = 0
    values = VALUE_OPTIONS["git"]
    while index < len(args) and args[index].startswith("-"):
        index += 2 if args[index] in values else 1
    if index >= len(args):
        return "", []
    return args[index], args[index + 1:]


# --- words the engine and the checks both read -----------------------------------------------

_SECRET_PARTS = ("/.ssh", ".ssh/", ".aws/", "/.aws", ".azure", "gcloud", ".kube", ".docker/",
                 ".gnupg", "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "master.passwd",
                 "ssh_host_", ".codex/auth", ".credentials.json", "oauth_creds",
                 "opencode/auth", ".copilot/", ".terraform.d/", "gh/hosts", "credentials")
_SECRET_NAMES = (".env", ".netrc", ".pgpass", ".git-credentials", ".npmrc", ".pypirc",
                 ".vault-token", "id_", "service-account")
_SECRET_ENDINGS = (".pem", ".key", ".p12", ".pfx", ".jks", ".keystore")


def secret_words(args: List[str]) -> List[str]:
    """The words (or `--opt=` values) that may name a protected path: a cheap first look, so
    that only those go on to the secret rules. A bare word must look like a path (a `/`,
    a leading `.` or `~`, a key's ending): `make credentials` names a target, not a file."""
    found: List[str] = []
    for given in args:
        word = given.split("=", 1)[1] if "=" in given and given.startswith("-") else given
        if not word or word.startswith("-") or len(word) > 300:
            continue
        lowered = word.lower()
        name = lowered.rstrip("/").rpartition("/")[2]
        pathlike = "/" in word or word[:1] in ".~$"
        if (pathlike and any(part in lowered for part in _SECRET_PARTS)) or \
                name.startswith(_SECRET_NAMES) or name.endswith(_SECRET_ENDINGS):
            found.append(word)
    return found


def find_own(args: List[str]) -> List[str]:
    """find's own words: not those of the commands its -exec, -execdir, -ok run."""
    own: List[str] = []
    inside = False
    for word in args:
        if inside:
            inside = word not in (";", "+")
        elif word in ("-exec", "-execdir", "-ok", "-okdir"):
            inside = True
        else:
            own.append(word)
    return own
