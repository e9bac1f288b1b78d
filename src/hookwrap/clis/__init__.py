"""One module per agent CLI: everything hookwrap knows about that CLI, in one place.

``platforms.cli(platform)`` returns a module's ``CLI`` (an ``AgentCLI``). docs/internals.md
says step by step how to add a CLI.
"""
