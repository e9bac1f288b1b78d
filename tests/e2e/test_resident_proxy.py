"""A resident hook with an HTTP proxy set, in the real Kilo CLI 7.7.9, OpenCode 1.18.33 and pi
0.73.1. Bun (inside OpenCode and Kilo) sends even a request for 127.0.0.1 to ``HTTP_PROXY`` /
``http_proxy``, with ``fetch`` and with ``node:http``, and no fetch option turns that off: the
plugin's post to `hookwrap serve` must not go there, or a fail-closed guard blocks every call.
A dummy proxy on loopback (``loopback_proxy.py``) relays the CLI's own traffic to the mock model
and records what it got: the model's requests, never the hook's. pi's model client tunnels
through the proxy (``CONNECT``); its extension's ``node:http`` post never goes there (Node
20 reads no proxy variable)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .chat_harness import ChatAgent
from .loopback_proxy import LoopbackProxy
from .mockmodel import Reply
from .qwen_copilot_support import FORCED_PUSH, hookwrap_repo
from .test_resident import Server, _free_port, _use_port

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(("cli", "variable"), [("kilo", "HTTP_PROXY"), ("kilo", "http_proxy"),
                                                ("opencode", "HTTP_PROXY"), ("pi", "HTTP_PROXY")])
def test_a_resident_guard_is_answered_by_the_server_past_a_proxy(
        cli: str, variable: str, request: pytest.FixtureRequest, git_project: Path) -> None:
    agent: ChatAgent = request.getfixturevalue(cli)
    repo = hookwrap_repo(agent, git_project, cli)
    port = _free_port()
    _use_port(repo, port)
    repo.hookwrap("add", "before_tool", "guard", "--resident")
    assert f"http://127.0.0.1:{port}/hookwrap/{cli}/guard" in (git_project / agent.settings_file).read_text()

    proxy = LoopbackProxy().start()
    server = Server(repo, port).start()
    try:
        steps = [agent.shell("echo ok > up.txt"), agent.shell(FORCED_PUSH), Reply("Finished.")]
        result = agent.run(git_project, steps, env={variable: proxy.url})
    finally:
        server.stop()
        proxy.stop()
    assert result.rc == 0, result.describe()
    texts = [r["text"] for r in result.tool_results()]
    # The guard answered: a harmless call ran, the forced push was blocked, no hook process.
    assert (git_project / "up.txt").read_text() == "ok\n", (texts, proxy.requests)
    assert "Blocked by the guard hook" in texts[1], texts
    assert result.hooks == [], result.describe()
    # The proxy was in force for the CLI's own traffic, and got nothing of the hook's.
    assert not [line for line in proxy.requests if "/hookwrap/" in line], proxy.requests
    # (OpenCode and Kilo: "POST http://127.0.0.1:<mock>/v1/..."; pi: "CONNECT 127.0.0.1:<mock>")
    mock = agent.server.base_url.split("//")[1].split("/")[0]
    assert any(mock in line for line in proxy.requests), proxy.requests
