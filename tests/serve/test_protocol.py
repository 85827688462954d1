"""emilia-serve's protocol (docs/serve.md) on 127.0.0.1: whole games, the move
clock, leaving, reconnecting, undo, bad clients, limits and restarts.
Run by `make test-serve`; needs python3-websocket and python3-pytest."""
import json
import os
import random
import re
import signal
import socket
import time
import urllib.request

import pytest

from serveutil import SERVE, Client, Server, open_pair, play_random, sync

pytestmark = pytest.mark.skipif(not os.path.exists(SERVE), reason="no emilia-serve: make serve")


@pytest.fixture
def server(tmp_path):
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>Emilia</title>\n")
    (web / "emilia.wasm").write_bytes(b"\0asm\1\0\0\0")
    s = Server(tmp_path / "data", "--grace", "2", web=web).start()
    yield s
    s.stop()


def http_get(server, path):
    with urllib.request.urlopen(server.url(path), timeout=10) as r:
        return r.status, r.headers.get("Content-Type"), r.read()


def watch(server, code):
    w = Client(server)
    w.send(t="watch", code=code)
    return w, w.until(lambda m: m["t"] == "watching", what="watching")["table"]


def count_discs(board):
    return board.count("X"), board.count("O")


def check_game(t):
    """A finished table's result agrees with its board."""
    r = t["result"]
    assert r is not None and t["to_move"] == "none" and t["legal"] == []
    black, white = count_discs(t["board"])
    assert (r["black"], r["white"]) == (black, white)
    assert black + white <= t["size"] * t["size"]
    return r


@pytest.mark.parametrize("game,size", [("reversi", 8), ("6x6", 6), ("anti", 8)])
def test_whole_game(server, game, size):
    rng = random.Random(size * 7 + len(game))
    a, b = open_pair(server, game=game)
    assert a.color == "black" and b.color == "white" and len(a.token) == 32 and a.token != b.token
    assert a.table["size"] == size and len(a.table["board"]) == size * size
    t = play_random([a, b], rng)
    r = check_game(t)
    black, white = r["black"], r["white"]
    if black == white:
        assert r["winner"] == "draw"
    else:
        fewer_wins = game == "anti"
        assert r["winner"] == ("black" if (black > white) != fewer_wins else "white")
    assert r["reason"] == "end" and r["loser"] in ("black", "white", None)
    # both players saw every ply once, in order
    for c in (a, b):
        plies = [m["table"]["ply"] for m in c.seen if m["t"] == "state"]
        assert plies == sorted(plies)
    assert a.table["moves"] == b.table["moves"] == t["moves"]
    # the saved game, served at its review address
    status, ctype, body = http_get(server, r["review"])
    text = body.decode()
    assert status == 200 and text.startswith("(;GM[Othello]")
    played = [m for m in t["moves"] if m != "pass"]
    ggf_moves = re.findall(r";?[BW]\[([A-H][1-8])\]", text)
    assert [m.lower() for m in ggf_moves] == played
    assert ("TY[%d%s]" % (size, "a" if game == "anti" else "")) in text


def test_page_is_served(server):
    status, ctype, body = http_get(server, "/")
    assert status == 200 and b"<title>Emilia</title>" in body and ctype.startswith("text/html")
    status, ctype, body = http_get(server, "/emilia.wasm")
    assert status == 200 and ctype == "application/wasm"


def test_move_clock(server):
    """seconds 2: a player who does not move gets Emilia's move and keeps the seat."""
    a, b = Client(server), Client(server)
    a.send(t="open", game="reversi", seconds=2, color="black")
    a.until(lambda m: m["t"] == "seated")
    b.send(t="join", code=a.code)
    b.until(lambda m: m["t"] == "seated")
    t = a.state(lambda t: t["seats"]["white"]["state"] == "here")
    assert 1000 <= t["deadline_ms"] <= 2000
    start = time.time()
    t = b.state(lambda t: t["ply"] == 1, timeout=10, what="Emilia's move for black")
    assert time.time() - start >= 1.5
    assert t["last"]["by"] == "timeout" and t["last"]["color"] == "black"
    assert t["seats"]["black"]["state"] == "here" and t["to_move"] == "white"
    # white moves in time: the clock restarts for black
    b.send(t="move", move=t["legal"][0], ply=1)
    t = b.state(lambda t: t["ply"] == 2)
    assert t["last"]["by"] == "player" and t["deadline_ms"] > 1000


def test_leaving_after_grace(server):
    """A player who closes the connection is away for the grace period, then
    has lost, and Emilia plays the seat to the end."""
    rng = random.Random(3)
    a, b = open_pair(server)
    play_random([a, b], rng, until_ply=4)
    b.close()
    t = a.state(lambda t: t["seats"]["white"]["state"] == "away", what="white away")
    assert 0 < t["seats"]["white"]["grace_ms"] <= 2000
    t = a.state(lambda t: t["seats"]["white"]["state"] == "gone", timeout=6, what="white gone")
    assert t["seats"]["white"]["by"] == "emilia"
    t = play_random([a], rng, timeout=120)
    r = check_game(t)
    assert r["reason"] == "left" and r["loser"] == "white" and r["winner"] == "black"
    assert any(m["t"] == "state" and m["table"]["last"] and m["table"]["last"]["by"] == "emilia" and
               m["table"]["last"]["color"] == "white" for m in a.seen)


def test_leave_message(server):
    """leave: the player loses at once; Emilia plays for them."""
    a, b = open_pair(server)
    a.send(t="leave")
    t = b.state(lambda t: t["seats"]["black"]["state"] == "gone")
    assert t["result"] is None
    t = play_random([b], random.Random(5), timeout=120)
    r = check_game(t)
    assert r["reason"] == "left" and r["loser"] == "black" and r["winner"] == "white"


def test_reconnect_keeps_seat(server):
    rng = random.Random(4)
    a, b = open_pair(server)
    play_random([a, b], rng, until_ply=3)
    code, token, colour = b.code, b.token, b.color
    b.close()
    a.state(lambda t: t["seats"]["white"]["state"] == "away")
    b2 = Client(server)
    b2.send(t="resume", code=code, token=token)
    m = b2.until(lambda m: m["t"] == "seated")
    assert m["color"] == colour and m["token"] == token
    t = a.state(lambda t: t["seats"]["white"]["state"] == "here")
    b2.color, b2.code = colour, code
    time.sleep(2.5)  # past the grace period: the seat is still held
    t = play_random([a, b2], rng, timeout=60)
    assert check_game(t)["reason"] == "end"


def test_undo_by_agreement(server):
    rng = random.Random(6)
    a, b = open_pair(server)
    play_random([a, b], rng, until_ply=4)
    t = a.table
    assert t["to_move"] == "black"
    moves_before = t["moves"]
    # black asks to take back its last move (ply 2) and what followed
    a.send(t="undo", ply=4)
    t = b.state(lambda t: t["undo_offer"] is not None)
    assert t["undo_offer"] == {"by": "black", "ply": 4}
    a.send(t="undo", ply=4)
    assert a.error()["error"] == "undo"
    b.send(t="decline")
    t = a.state(lambda t: t["undo_offer"] is None)
    assert t["moves"] == moves_before
    a.send(t="undo", ply=4)
    b.state(lambda t: t["undo_offer"] is not None)
    b.send(t="undo", ply=4)
    t = a.state(lambda t: t["ply"] == 2)
    assert t["moves"] == moves_before[:2] and t["to_move"] == "black" and t["undo_offer"] is None
    # one side alone cannot take a move back: an offer ends with a move
    a.send(t="move", move=t["legal"][0], ply=2)
    t = b.state(lambda t: t["ply"] == 3)
    b.send(t="undo", ply=3)
    a.state(lambda t: t["undo_offer"] is not None)
    b.send(t="move", move=t["legal"][0], ply=3)
    t = a.state(lambda t: t["ply"] >= 4)
    assert t["undo_offer"] is None and len(t["moves"]) == t["ply"]


def test_undo_against_emilia_refused(server):
    a = Client(server)
    a.send(t="open", game="reversi", vs="normal", color="black")
    a.until(lambda m: m["t"] == "seated")
    a.send(t="move", move="f5", ply=0)
    t = a.state(lambda t: t["ply"] == 2, what="Emilia's reply")
    assert t["last"]["by"] == "emilia" and t["seats"]["white"]["state"] == "emilia"
    a.send(t="undo", ply=2)
    e = a.error()
    assert e["error"] == "undo" and "Emilia" in e["message"]


def test_levels_against_emilia(server):
    """vs: a named level or a depth 1..60; Emilia opens when she is black."""
    for vs, shown in [("easy", "easy"), (3, 3), ("hard", "hard")]:
        a = Client(server)
        a.send(t="open", game="6x6", vs=vs, color="white", public=False)
        m = a.until(lambda m: m["t"] == "seated")
        assert m["table"]["vs"] == shown and m["table"]["seats"]["black"]["state"] == "emilia"
        t = a.state(lambda t: t["ply"] >= 1, what="Emilia's first move")
        assert t["last"]["by"] == "emilia" and t["last"]["color"] == "black" and t["to_move"] == "white"
        a.send(t="leave")
    for vs in [0, 61, 2.5, "expert", True]:
        a.send(t="open", game="reversi", vs=vs)
        assert a.error()["error"] == "bad", vs


def test_bad_clients(server):
    a, b = open_pair(server)
    w, before = watch(server, a.code)
    refusals = [
        (b, {"t": "move", "move": "d3", "ply": 0}, "turn"),         # out of turn
        (a, {"t": "move", "move": "a1", "ply": 0}, "illegal"),      # illegal
        (a, {"t": "move", "move": "pass", "ply": 0}, "illegal"),    # a pass with moves
        (a, {"t": "move", "move": "z9", "ply": 0}, "illegal"),      # no such square
        (a, {"t": "move", "move": "d3", "ply": 5}, "ply"),          # a stale or future move
        (a, {"t": "move", "move": 7, "ply": 0}, "bad"),             # wrong type
        (a, {"t": "move", "ply": 0}, "bad"),                        # missing member
        (w, {"t": "move", "move": "d3", "ply": 0}, "turn"),         # a watcher
        (a, {"t": "launch"}, "unknown"),
        (a, {"t": "join", "code": "ZZZZZZ"}, "no-table"),
        (a, {"t": "open", "game": "chess"}, "bad"),
        (a, {"t": "open", "game": "reversi", "seconds": 0}, "bad"),
    ]
    for c, msg, code in refusals:
        c.send(**msg)
        assert c.error()["error"] == code, msg
    # forged seat tokens
    f = Client(server)
    for tok in ["0" * 32, a.token[:-1] + ("0" if a.token[-1] != "0" else "1"), "x", b.token + "0"]:
        f.send(t="resume", code=a.code, token=tok)
        assert f.error()["error"] == "token"
    # raw frames
    for raw, code in [("garbage", "bad"), ("{\"t\":", "bad"), ("[1,2]", "bad"), ("{\"t\":\"move\",\"x\":{}}", "bad"),
                      ("{\"t\":\"ping\"} x", "bad"), ("{\"t\":\"ping\",\"t\":\"ping\"}", "bad"),
                      ("x" * 5000, "size"), ("{\"t\":\"ping\",\"pad\":\"" + "x" * 4100 + "\"}", "size")]:
        a.send_raw(raw)
        assert a.error()["error"] == code, raw[:40]
    a.ws.send_binary(b"\x00\xff{\"t\":\"move\"}")
    assert a.error()["error"] == "bad"
    # a connection speaking no WebSocket at all, and one sending garbage bytes
    for junk in [b"\x16\x03\x01\x00\xa5garbage\r\n\r\n", b"GET /ws HTTP/1.1\r\nHost: x\r\n\r\n" + os.urandom(200)]:
        s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        s.sendall(junk)
        try:
            s.recv(4096)
        except (socket.timeout, ConnectionResetError):
            pass
        s.close()
    assert server.alive()
    # nothing changed: the watcher sees the same table, and play goes on
    w2, after = watch(server, a.code)
    for k in ("moves", "ply", "board", "to_move", "seats", "undo_offer", "result"):
        assert after[k] == before[k], k
    a.send(t="move", move="d3", ply=0)
    assert b.state(lambda t: t["ply"] == 1)["moves"] == ["d3"]


def test_rate_limit(server):
    c = Client(server)
    for _ in range(60):
        c.send(t="ping")
    got = [c.until(lambda m: m["t"] in ("pong", "error"))["t"] for _ in range(60)]
    assert got.count("pong") == 40 and got.count("error") == 20
    assert all(m["error"] == "rate" for m in c.seen if m["t"] == "error")
    time.sleep(1.1)
    c.send(t="ping")
    assert c.until(lambda m: True)["t"] == "pong"


def test_lobby_and_watchers(server):
    lobby = Client(server)
    lobby.send(t="lobby", on=True)
    assert lobby.until(lambda m: m["t"] == "lobby")["tables"] == []
    a = Client(server)
    a.send(t="open", game="6x6", seconds=30, public=True, color="white")
    a.until(lambda m: m["t"] == "seated")
    p = Client(server)
    p.send(t="open", game="reversi", public=False)
    p.until(lambda m: m["t"] == "seated")
    m = lobby.until(lambda m: m["t"] == "lobby" and m["tables"])
    assert m["tables"] == [{"code": a.code, "game": "6x6", "seconds": 30,
                            "seats": {"black": "free", "white": "taken"}}]
    # a third comer to a full table watches
    b = Client(server)
    b.send(t="join", code=a.code.lower())
    assert b.until(lambda m: m["t"] == "seated")["color"] == "black"
    c = Client(server)
    c.send(t="join", code=a.code)
    assert c.until(lambda m: m["t"] == "watching")["table"]["watchers"] == 1
    m = lobby.until(lambda m: m["t"] == "lobby" and m["tables"] and m["tables"][0]["seats"]["black"] == "taken")
    assert [t["code"] for t in m["tables"]] == [a.code]


def test_limits(tmp_path):
    s = Server(tmp_path / "data", "--max-tables", "2", "--max-connections", "3").start()
    try:
        cs = [Client(s) for _ in range(3)]
        for c in cs[:2]:
            c.send(t="open", game="reversi")
            c.until(lambda m: m["t"] == "seated")
        cs[2].send(t="open", game="reversi")
        assert cs[2].error()["error"] == "limit"
        with pytest.raises(Exception):
            Client(s).recv(timeout=3)
        assert s.alive()
    finally:
        s.stop()


def test_idle_connection_closed(tmp_path):
    s = Server(tmp_path / "data", "--idle", "1").start()
    try:
        c = Client(s)
        time.sleep(2.5)
        with pytest.raises(Exception):
            c.send(t="ping")
            c.recv(timeout=2)
    finally:
        s.stop()


def test_restart_restores_tables(tmp_path):
    data = tmp_path / "data"
    s = Server(data, "--grace", "5").start()
    rng = random.Random(8)
    a, b = open_pair(s)
    t = play_random([a, b], rng, until_ply=6)
    code, ta, tb = a.code, a.token, b.token
    assert s.stop() == 0
    assert (data / "tables" / (code + ".json")).exists()
    s2 = Server(data, "--grace", "5").start()
    try:
        w, seen = watch(s2, code)
        assert seen["moves"] == t["moves"] and seen["ply"] == t["ply"]
        assert seen["seats"]["black"]["state"] == "away" and seen["seats"]["white"]["state"] == "away"
        a2, b2 = Client(s2), Client(s2)
        a2.send(t="resume", code=code, token=ta)
        assert a2.until(lambda m: m["t"] == "seated")["color"] == "black"
        b2.send(t="resume", code=code, token=tb)
        assert b2.until(lambda m: m["t"] == "seated")["color"] == "white"
        sync([a2, b2], t["ply"])
        a2.state(lambda x: x["seats"]["white"]["state"] == "here")
        t2 = play_random([a2, b2], rng, timeout=60)
        assert check_game(t2)["reason"] == "end" and t2["moves"][:len(t["moves"])] == t["moves"]
    finally:
        s2.stop()
    # a broken table file is set aside, and the server starts
    (data / "tables" / "BROKEN.json").write_text("{\"v\":1,")
    s3 = Server(data).start()
    try:
        assert (data / "tables" / "BROKEN.json.bad").exists()
    finally:
        s3.stop()
