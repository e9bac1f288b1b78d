"""End-to-end tests: hookwrap hooks inside the real Claude Code and Gemini CLI."""
