"""The checks of the guard's opt-in packs (infrastructure, databases, backups): loaded by
guard_engine.py only when a pack is on, so that a hook process does not pay for them otherwise.
Each takes a command (after its wrappers) and the line's state, and says whether it matches.

Stdlib only, Python 3.9+.
"""

from __future__ import annotations

import posixpath
import re

from .guard_rules import VALUE_OPTIONS, looks_destructive
from .shell import Command
from .shell import has_option as _has_option
from .shell import one_of as _one_of
from .shell import operands as _operands
from .shell import option_values as _option_values

# For type checkers only: importing typing costs ~5 ms (see hookinput.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List


def _terraform_destroy(command: Command, state: object) -> bool:
    if _has_option(command.args, "-h|--help") or "-help" in command.args:
        return False
    operands = [w for w in _operands(command.args) if not w.startswith("-chdir")]
    if not operands:
        return False
    sub = operands[0]
    if sub == "destroy":
        return True
    if sub == "apply":
        return "-destroy" in command.args or "--destroy" in command.args
    return (sub == "state" and operands[1:2] == ["rm"]) or \
        (sub == "workspace" and operands[1:2] == ["delete"])


def _terragrunt_destroy(command: Command, state: object) -> bool:
    operands = _operands(command.args)
    if "-help" in command.args or "--help" in command.args:
        return False
    return "destroy" in operands[:3] or ("-destroy" in command.args and "apply" in operands[:3])


def _pulumi_destroy(command: Command, state: object) -> bool:
    if _has_option(command.args, "--preview-only|-h|--help"):
        return False  # pulumi destroy --preview-only shows what it would delete
    operands = _operands(command.args, VALUE_OPTIONS["pulumi"])
    return operands[:1] in (["destroy"], ["down"]) or operands[:2] == ["stack", "rm"]


def _container_prune(command: Command, state: object) -> bool:
    if "--help" in command.args:
        return False
    operands = _operands(command.args, VALUE_OPTIONS.get(command.program, ()))
    if "prune" in operands[:3]:
        return True
    if operands[:2] in (["volume", "rm"], ["volume", "remove"]):
        return True
    if operands[:2] == ["compose", "down"] or operands[:1] == ["down"]:
        return _has_option(command.args, "-v|--volumes")
    if operands[:1] in (["rm"], ["rmi"]) or operands[:2] in (["container", "rm"],
                                                             ["image", "rm"]):
        return _has_option(command.args, "-f|--force|-v|--volumes")
    return False


def _kubectl_dry_run(args: List[str]) -> bool:
    """--dry-run, --dry-run=client or =server: kubectl only shows what it would do
    (--dry-run=none runs it)."""
    return any(word in ("--dry-run", "--dry-run=client", "--dry-run=server") for word in args)


def _kubectl_delete(command: Command, state: object) -> bool:
    return not _kubectl_dry_run(command.args)


def _kubectl_scale_zero(command: Command, state: object) -> bool:
    return not _kubectl_dry_run(command.args) and _operands(command.args, VALUE_OPTIONS["kubectl"])[:1] == ["scale"] and \
        any(word in ("--replicas=0", "0") for word in command.args)


def _ansible_shell(command: Command, state: object) -> bool:
    """An ad-hoc `ansible HOSTS -m shell -a 'rm -rf ...'` run on every host."""
    args = command.args
    module = next((args[i + 1] for i in range(len(args) - 1) if args[i] in ("-m", "--module-name")),
                  "")
    given = [args[i + 1] for i in range(len(args) - 1) if args[i] in ("-a", "--args")]
    return module in ("shell", "command", "raw", "ansible.builtin.shell",
                      "ansible.builtin.command") and looks_destructive(given)


_CLOUD_DELETE_WORDS = {
    "gcloud": ("delete",), "az": ("delete", "purge", "delete-batch"), "nomad": ("-purge",), "doctl": ("delete", "rm"),
    "eksctl": ("delete",), "linode-cli": ("delete",), "hcloud": ("delete",), "scw": ("delete",),
    "oci": ("delete", "terminate"), "ibmcloud": ("delete",), "vagrant": ("destroy",),
    "serverless": ("remove",), "sls": ("remove",), "vercel": ("remove", "rm"),
    "fly": ("destroy",), "flyctl": ("destroy",),
}


def _cloud_delete(command: Command, state: object) -> bool:
    program, args = command.program, command.args
    operands = _operands(args, VALUE_OPTIONS.get(program, ()))
    if program == "aws":
        if len(operands) < 2 or "--dryrun" in args or "--dry-run" in args:
            return False
        service, action = operands[0], operands[1]
        if service == "s3":
            return (action == "rm" and _has_option(args, "--recursive")) or \
                (action == "rb" and _has_option(args, "--force")) or \
                (action == "sync" and _has_option(args, "--delete"))
        return action.startswith(("delete-", "terminate-", "remove-", "deregister-", "purge-",
                                  "destroy-"))
    if program == "gsutil":
        return bool(operands) and (operands[0] == "rb" or (operands[0] == "rm" and
                                                           _has_option(args, "-r|-R|-a")))
    if program == "gh":
        return operands[:2] == ["release", "delete"]
    if program == "heroku":
        return any(o in ("apps:destroy", "apps:delete", "pg:reset", "destroy") for o in operands)
    if program == "netlify":
        return "sites:delete" in operands
    if program == "firebase":
        return any(o.endswith(":delete") for o in operands)
    if program == "gcloud" and operands[:2] in (["storage", "rm"],):
        return _has_option(args, "-r|--recursive")
    words = _CLOUD_DELETE_WORDS.get(program, ())
    if program == "nomad":
        return "stop" in operands[:2] and "-purge" in args
    return any(o in words for o in operands[:6])


def _sql_texts(command: Command) -> List[str]:
    """The SQL a database client is given: -c/-e/--command/--execute/-q/-Q, operands after
    the database (sqlite3, duckdb, bq query), or text on stdin."""
    args = command.args
    texts = _option_values(args, ("-c", "--command", "-e", "--execute", "-q", "--query", "-Q"))
    if command.program in ("sqlite3", "sqlite", "duckdb", "bq", "litecli", "usql", "trino",
                           "cqlsh"):
        texts.extend(_operands(args)[1:])
    if command.input_text:
        texts.append(command.input_text)
    return texts


def _sql_destroys(command: Command, state: object) -> bool:
    if any(_destructive_sql(text) for text in _sql_texts(command)):
        return True
    # A script whose name says what it does: `psql -f drop_all.sql`.
    scripts = [command.args[i + 1] for i in range(len(command.args) - 1)
               if command.args[i] in ("-f", "--file", "-i", "--init")]
    return any(word in posixpath.basename(script).lower() for script in scripts
               for word in ("drop", "truncate", "wipe", "destroy", "reset", "purge"))


def _http_delete(command: Command, state: object) -> bool:
    """curl -X DELETE / --request DELETE (a database's HTTP API: Elasticsearch, CouchDB...)."""
    args = command.args
    return any((word in ("-X", "--request") and i + 1 < len(args) and args[i + 1].upper() ==
                "DELETE") or word.upper() in ("-XDELETE", "--REQUEST=DELETE")
               for i, word in enumerate(args))


def _destructive_sql(text: str) -> bool:
    """DROP TABLE/DATABASE/SCHEMA/..., TRUNCATE, DELETE FROM without WHERE, ALTER ... DROP."""
    words = re.findall(r"\w+|;", text.upper())  # (\w: a letter, digit or _, as str.isalnum)
    for index, current in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        if current == "DROP" and following in ("TABLE", "DATABASE", "SCHEMA", "VIEW", "INDEX",
                                                "USER", "ROLE", "COLLECTION", "KEYSPACE",
                                                "OWNED", "COLUMN", "TABLESPACE", "MATERIALIZED"):
            return True
        if current == "TRUNCATE":
            return True
        if current == "DELETE" and following == "FROM":
            rest = words[index + 2:]
            end = rest.index(";") if ";" in rest else len(rest)
            if "WHERE" not in rest[:end]:
                return True
        if current in ("FLUSHALL", "FLUSHDB", "DROPDB"):
            return True
    return False


def _redis_flush(command: Command, state: object) -> bool:
    words = [word.upper() for word in command.args]
    text = (command.input_text or "").upper()
    return any(word in ("FLUSHALL", "FLUSHDB") for word in words) or "FLUSHALL" in text or \
        "FLUSHDB" in text


def _mongo_drop(command: Command, state: object) -> bool:
    code = " ".join(command.args) + (command.input_text or "")
    return "dropDatabase(" in code or ".drop(" in code or "deleteMany({})" in code or \
        "remove({})" in code


_RESET_TASKS = {"db:drop", "db:reset", "db:purge", "db:schema:load", "db:migrate:reset",
                "migrate:fresh", "migrate:reset", "db:wipe", "migrate:refresh"}


def _database_reset(command: Command, state: object) -> bool:
    program, args = command.program, command.args
    if program in ("dropdb", "dropuser"):
        return True
    if program == "mysqladmin":
        return "drop" in args
    words = _operands(args)
    if any(word in _RESET_TASKS for word in words):
        return True
    if program == "alembic":
        return words[:2] == ["downgrade", "base"]
    if program == "influx":
        return words[:2] in (["bucket", "delete"], ["delete"]) or words[:1] == ["delete"]
    if program in ("prisma", "npx", "bunx", "pnpx", "yarn", "pnpm"):
        if "migrate" in words and "reset" in words:
            return True
        if "db" in words and "push" in words and _has_option(args, "--force-reset"):
            return True
    if program == "supabase":
        return words[:2] == ["db", "reset"]
    if program in ("python", "django-admin") or program.endswith("manage.py"):
        names = [posixpath.basename(w) for w in words]
        if program == "python" and not any(n == "manage.py" for n in names[:1]):
            return False
        return any(w in ("flush", "reset_db", "sqlflush") for w in words)
    return False


_BACKUP_DELETES = {
    "restic": (("forget",), ("prune",), ("key", "remove")),
    "borg": (("delete",), ("prune",), ("compact",)),
    "rclone": (("purge",), ("delete",), ("deletefile",), ("rmdirs",), ("sync",)),
    "duplicity": (("remove-older-than",), ("remove-all-but-n-full",),
                  ("remove-all-inc-of-but-n-full",), ("cleanup",)),
    "btrfs": (("subvolume", "delete"),),
    "snapper": (("delete",),), "tmutil": (("delete",), ("deletelocalsnapshots",)),
    "velero": (("backup", "delete"), ("delete", "backup"), ("schedule", "delete")),
    "kopia": (("snapshot", "delete"), ("snapshot", "expire")),
    "aws": (("backup", "delete-*"),), "tarsnap": (), "vzdump": (),
    "bacula": (), "pgbackrest": (("expire",), ("stanza-delete",)),
}


def _backup_delete(command: Command, state: object) -> bool:
    program = command.program
    if program == "tarsnap":
        return _has_option(command.args, "-d|--nuke")
    return _starts_as(command, _BACKUP_DELETES.get(program))


def _starts_as(command: Command, shapes: Any) -> bool:
    """Whether the command's operands start with one of ``shapes`` (words, globs, `a|b`)."""
    if not shapes:
        return False
    operands = _operands(command.args, VALUE_OPTIONS.get(command.program, ()))
    return any(len(operands) >= len(shape) and
               all(_one_of(word, want) for word, want in zip(operands, shape))
               for shape in shapes)


_SECRET_DELETES = {
    "vault": (("kv", "delete"), ("kv", "destroy"), ("kv", "metadata", "delete"),
              ("secrets", "disable"), ("delete",)),
    "aws": (("secretsmanager", "delete-secret"), ("ssm", "delete-parameter*"),
            ("kms", "schedule-key-deletion")),
    "gcloud": (("secrets", "delete"), ("secrets", "versions", "destroy"),
               ("kms", "keys", "versions", "destroy")),
    "az": (("keyvault", "delete"), ("keyvault", "purge"), ("keyvault", "secret", "delete"),
           ("keyvault", "secret", "purge"), ("keyvault", "key", "delete")),
    "op": (("item", "delete"), ("vault", "delete"), ("document", "delete")),
    "doppler": (("secrets", "delete"), ("projects", "delete"), ("configs", "delete")),
    "bw": (("delete",),), "infisical": (("secrets", "delete"),),
    "kubectl": (("delete", "secret*"),), "gopass": (("rm",), ("delete",)), "pass": (("rm",),),
    "security": (("delete-generic-password",), ("delete-internet-password",),
                 ("delete-keychain",)),
}


def _secret_manager_delete(command: Command, state: object) -> bool:
    if command.program in ("gpg", "gpg2"):
        return any(word.startswith(("--delete-secret-key", "--delete-key",
                                    "--delete-secret-and-public-key")) for word in command.args)
    return _starts_as(command, _SECRET_DELETES.get(command.program))


# The packs' checks by the name their rules give, where the engine looks them up: ``_<name>``.
PACK_CHECKS: Dict[str, Callable[[Command, Any], bool]] = {name: globals()["_" + name] for name in (
    "terraform_destroy", "pulumi_destroy", "container_prune", "cloud_delete", "sql_destroys",
    "redis_flush", "mongo_drop", "database_reset", "backup_delete", "secret_manager_delete",
    "terragrunt_destroy", "kubectl_scale_zero", "kubectl_delete", "ansible_shell", "http_delete",
)}
