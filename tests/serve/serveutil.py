"""Shared by the tests of emilia-serve (tests/serve/): start a server on a free
loopback port with a scratch --data, and a small WebSocket client."""
import json
import os
import random
import re
import signal
import subprocess
import time

import websocket

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SERVE = os.environ.get("EMILIA_SERVE", os.path.join(ROOT, "emilia-serve"))


class Server:
    """One emilia-serve process; `port` once it listens."""

    def __init__(self, data, *args, web=None):
        self.data = str(data)
        self.args = list(args)
        self.web = web
        self.proc = None
        self.port = None
        self.log = []

    def start(self):
        cmd = [SERVE, "--port", "0", "--bind", "127.0.0.1", "--data", self.data] + self.args
        if self.web:
            cmd += ["--web", str(self.web)]
        self.proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 10
        while time.time() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            self.log.append(line)
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
                return self
        raise RuntimeError("emilia-serve did not start: " + "".join(self.log))

    def url(self, path="/ws"):
        scheme = "ws" if path == "/ws" else "http"
        return "%s://127.0.0.1:%d%s" % (scheme, self.port, path)

    def stop(self, sig=signal.SIGTERM):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                rest = self.proc.communicate(timeout=10)[1]
            except subprocess.TimeoutExpired:
                self.proc.kill()
                rest = self.proc.communicate()[1]
            self.log.append(rest or "")
        return self.proc.returncode if self.proc else None

    def alive(self):
        return self.proc.poll() is None


class Client:
    """A WebSocket connection that keeps every message it was sent."""

    def __init__(self, server):
        self.ws = websocket.create_connection(server.url(), timeout=10)
        self.seen = []
        self.code = None
        self.color = None
        self.token = None
        self.table = None

    def send(self, **msg):
        self.ws.send(json.dumps(msg))

    def send_raw(self, text):
        self.ws.send(text)

    def recv(self, timeout=10):
        self.ws.settimeout(timeout)
        m = json.loads(self.ws.recv())
        self.seen.append(m)
        if m.get("t") in ("seated", "watching", "state"):
            self.table = m["table"]
        if m.get("t") == "seated":
            self.code, self.color, self.token = m["code"], m["color"], m["token"]
        return m

    def until(self, pred, timeout=10, what="a message"):
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise AssertionError("no %s within %s s; last: %s" % (what, timeout, self.seen[-3:]))
            try:
                m = self.recv(left)
            except websocket.WebSocketTimeoutException:
                continue
            if pred(m):
                return m

    def error(self, timeout=10):
        return self.until(lambda m: m["t"] == "error", timeout, "error")

    def state(self, pred=lambda t: True, timeout=10, what="state"):
        m = self.until(lambda m: m["t"] in ("state", "seated", "watching") and pred(m["table"]), timeout, what)
        return m["table"]

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass


def open_pair(server, game="reversi", seconds=60, public=True):
    """A table for two: a (black) opened it, b (white) joined."""
    a, b = Client(server), Client(server)
    a.send(t="open", game=game, seconds=seconds, public=public, color="black")
    a.until(lambda m: m["t"] == "seated", what="seated")
    b.send(t="join", code=a.code)
    b.until(lambda m: m["t"] == "seated", what="seated")
    a.state(lambda t: t["seats"]["white"]["state"] == "here", what="the other seat taken")
    return a, b


def sync(clients, ply, timeout=30):
    """Every client has seen the table at `ply` or later."""
    for c in clients:
        if c.table is None or c.table["ply"] < ply:
            c.state(lambda x: x["ply"] >= ply, timeout=timeout, what="ply %d" % ply)


def play_random(clients, rng, until_ply=None, timeout=60):
    """The clients (seated, by colour) play random legal moves until the
    game ends (or the ply reaches until_ply); Emilia's moves are waited
    for.  Returns the last table."""
    end = time.time() + timeout
    by_colour = {c.color: c for c in clients if c.color}
    while time.time() < end:
        sync(clients, max(c.table["ply"] for c in clients))
        t = max((c.table for c in clients), key=lambda x: (x["ply"], x["result"] is not None))
        if t["result"] is not None or (until_ply is not None and t["ply"] >= until_ply):
            return t
        mover = by_colour.get(t["to_move"])
        if mover is None or t["seats"][t["to_move"]]["by"] == "emilia":
            p = t["ply"]
            clients[0].state(lambda x: x["ply"] > p or x["result"] is not None, timeout=30, what="Emilia's move")
            continue
        move = rng.choice(t["legal"]) if t["legal"] else "pass"
        mover.send(t="move", move=move, ply=t["ply"])
        ack = mover.state(lambda x, p=t["ply"]: x["ply"] > p, what="the move acknowledged")
        sync(clients, ack["ply"])
    raise AssertionError("the game did not end in %s s" % timeout)
