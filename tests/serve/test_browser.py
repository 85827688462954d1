"""The page's online tables (web/online.js) against a real `emilia serve`, in headless Chromium.

Two (or one) real browser sessions play through the page at a table of the server: they open a
table, join it by its code or its #table= link, click random legal squares when it is their turn,
reload, close; the server (docs/serve.md) holds the game.

    python3 -m pytest -x -q tests/serve/test_browser.py

Environment: EMILIA_SERVE the server binary (./emilia-serve), EMILIA_WEB the built page
(build/web), CHROMIUM and CHROMEDRIVER (Debian's chromium and chromium-driver; no browser is
ever downloaded), EMILIA_SERVE_SHOT where the screenshot of a game in progress goes
(build/serve-shots/serve-page.png; docs/serve-page.png is one of them).  Missing pieces skip the
tests with the reason.
"""
import os
import random
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVE = os.environ.get("EMILIA_SERVE", os.path.join(ROOT, "emilia-serve"))
WEB = os.environ.get("EMILIA_WEB", os.path.join(ROOT, "build", "web"))
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver")
SHOT = os.environ.get("EMILIA_SERVE_SHOT", os.path.join(ROOT, "build", "serve-shots", "serve-page.png"))
GRACE = 2

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:  # pragma: no cover
    webdriver = None

# What a page shows, read in one call.
STATE_JS = """
const b = document.getElementById('board'), on = window.EmiliaOnline ? EmiliaOnline.state : {};
const res = document.getElementById('online-result'), rv = document.getElementById('online-review');
const seat = (c) => document.getElementById('online-seat-' + c);
const msg = document.getElementById(on.code ? 'message' : 'online-message');
return {
  ready: document.body.dataset.ready === 'true',
  online: document.body.dataset.online || '',
  cells: Array.from(b.querySelectorAll('[data-square]')).map(
    (e) => [e.dataset.square, e.dataset.disc || '', e.hasAttribute('data-legal')]),
  remote: b.dataset.remote || '', toMove: b.dataset.toMove, over: b.dataset.over === 'true',
  ply: b.dataset.ply === undefined ? -1 : Number(b.dataset.ply), moves: b.dataset.moves || '',
  myTurn: b.classList.contains('human-turn'),
  code: on.code || null, color: on.color || null, role: on.role || null, connected: !!on.connected,
  result: res.hidden ? null : {text: document.getElementById('online-result-text').textContent,
                               black: Number(res.dataset.black), white: Number(res.dataset.white),
                               winner: res.dataset.winner, reason: res.dataset.reason, loser: res.dataset.loser,
                               review: rv.hidden ? null : rv.getAttribute('href')},
  seats: {black: seat('black').dataset.state || '', white: seat('white').dataset.state || ''},
  seatText: {black: seat('black').textContent, white: seat('white').textContent},
  clocks: {black: document.getElementById('online-clock-black').textContent,
           white: document.getElementById('online-clock-white').textContent},
  message: msg.hidden ? '' : msg.textContent, status: document.getElementById('status').textContent,
  onlineStatus: document.getElementById('online-status').textContent,
  counts: [Number(document.getElementById('count-black').textContent),
           Number(document.getElementById('count-white').textContent)],
};
"""


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.fixture(scope="module")
def server():
    if webdriver is None:
        pytest.skip("python3-selenium is not installed (sudo apt-get install python3-selenium)")
    for path, what in ((CHROMIUM, "chromium (sudo apt-get install chromium)"),
                       (CHROMEDRIVER, "chromedriver (sudo apt-get install chromium-driver)"),
                       (SERVE, "the server binary (make serve; or set EMILIA_SERVE)")):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            pytest.skip("%s is missing: %s" % (path, what))
    for f in ("index.html", "online.js", "emilia.wasm"):
        if not os.path.isfile(os.path.join(WEB, f)):
            pytest.skip("%s is missing: make web (or set EMILIA_WEB)" % os.path.join(WEB, f))
    data = tempfile.mkdtemp(prefix="emilia-serve-test-")
    port = free_port()
    log = []
    srv = {"base": "http://127.0.0.1:%d/" % port, "data": data, "log": log, "proc": None}

    def start(grace):
        proc = subprocess.Popen([SERVE, "--port", str(port), "--bind", "127.0.0.1", "--data", data,
                                 "--web", WEB, "--grace", str(grace)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        srv["proc"] = proc
        ready = threading.Event()

        def read():
            for line in proc.stderr:
                log.append(line)
                if "listening" in line:
                    ready.set()
        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(20):
            proc.kill()
            pytest.fail("the server did not say 'listening' in 20 s: %s" % "".join(log[-20:]))

    def stop():
        proc = srv["proc"]
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        time.sleep(0.2)  # the last of its stderr
        bad = [line for line in log if "Sanitizer" in line or "runtime error" in line]
        assert proc.returncode == 0 and not bad, "the server exited with %s on SIGTERM: %s" % (
            proc.returncode, "".join((bad or log)[-20:]))

    srv["start"], srv["stop"] = start, stop
    start(GRACE)
    yield srv
    try:
        stop()
    finally:
        shutil.rmtree(data, ignore_errors=True)


class Page:
    """One headless Chromium session on the page."""

    def __init__(self, base):
        o = webdriver.ChromeOptions()
        o.binary_location = CHROMIUM
        for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                  "--window-size=1100,1000", "--disable-extensions", "--no-first-run"):
            o.add_argument(a)
        o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)
        self.d.set_script_timeout(20)
        self.base = base
        self.closed = False

    def open(self, fragment=""):
        self.d.get(self.base + "index.html" + fragment)
        self.wait(lambda s: s["ready"], 30, "the page did not start")

    def state(self):
        return self.d.execute_script(STATE_JS)

    def wait(self, cond, timeout=20, what="the page"):
        end = time.time() + timeout
        while True:
            s = self.state()
            if cond(s):
                return s
            if time.time() > end:
                s.pop("cells", None)
                pytest.fail("%s: timed out after %s s; state %s" % (what, timeout, s))
            time.sleep(0.05)

    def by_id(self, i):
        return self.d.find_element(By.ID, i)

    def panel(self):
        self.d.execute_script("document.getElementById('online-box').open = true;")

    def open_table(self, game="reversi", vs="", seconds=60, public=True, color="black"):
        self.panel()
        Select(self.by_id("online-game")).select_by_value(game)
        Select(self.by_id("online-vs")).select_by_value(vs)
        Select(self.by_id("online-color")).select_by_value(color)
        box = self.by_id("online-seconds")
        box.clear()
        box.send_keys(str(seconds))
        if self.by_id("online-public").is_selected() != public:
            self.by_id("online-public").click()
        self.wait(lambda s: s["connected"], 10, "no connection to the server")
        self.by_id("online-open").click()
        return self.wait(lambda s: s["code"] and s["role"] == "seat" and s["remote"], 10, "the table did not open")

    def join(self, code):
        self.panel()
        self.wait(lambda s: s["connected"], 10, "no connection to the server")
        self.by_id("online-join-code").send_keys(code)
        self.by_id("online-join").click()
        return self.wait(lambda s: s["code"] == code and s["role"] == "seat" and s["remote"], 10,
                         "joining %s" % code)

    def click(self, square):
        self.d.find_element(By.CSS_SELECTOR, '#board [data-square="%s"]' % square).click()

    def errors(self):
        """the page's own errors (a socket the test closed may log its own)"""
        return [e for e in self.d.get_log("browser") if e["level"] == "SEVERE" and "WebSocket" not in e["message"]]

    def quit(self):
        if not self.closed:
            self.closed = True
            self.d.quit()


@pytest.fixture
def pages(server):
    made = []

    def make():
        p = Page(server["base"])
        made.append(p)
        return p
    yield make
    for p in made:
        if not p.closed:
            errs = p.errors()
            p.quit()
            assert errs == [], "the page logged errors: %s" % errs


def discs(s):
    b = sum(1 for _, d, _ in s["cells"] if d == "black")
    w = sum(1 for _, d, _ in s["cells"] if d == "white")
    return b, w


def move_one(rng, p, s):
    """p's random legal click, if it is p's turn (returns True if one was made)."""
    if not s["myTurn"] or s["over"]:
        return False
    legal = sorted(n for n, _, ok in s["cells"] if ok)
    assert legal, "no legal square shown on the player's turn: %s" % s["moves"]
    ply = s["ply"]
    p.click(rng.choice(legal))
    p.wait(lambda t: t["ply"] != ply or t["result"], 10, "the server did not answer a move")
    return True


def play(rng, players, until, limit=90, shot=None):
    """Random legal clicks by each page on its turn until until(states) is true."""
    end = time.time() + limit
    while time.time() < end:
        states = [p.state() for p in players]
        if until(states):
            return states
        moved = False
        for p, s in zip(players, states):
            if shot and s["myTurn"] and s["ply"] >= 20 and not os.path.exists(shot):
                # a game in progress as the player to move sees it: the dots, the clock running
                os.makedirs(os.path.dirname(shot), exist_ok=True)
                time.sleep(1.5)
                p.d.save_screenshot(shot)
            if move_one(rng, p, s):
                moved = True
                break
        if not moved:
            time.sleep(0.05)
    pytest.fail("the game did not get there in %d s: %s" % (limit, [{k: v for k, v in s.items() if k != "cells"}
                                                                 for s in states]))


def ggf_moves(text):
    return [m.group(2).split("/")[0].lower()
            for m in re.finditer(r"(?<=[\];(])\s*([BW])\[([^\]]*)\]", text)]


def test_a_whole_game_for_two(server, pages):
    """Browser 1 opens a public Reversi table, browser 3 watches it from the lobby, browser 2
    sees it there and joins by its code; both players click random legal squares on their turn
    until all three show the result, which agrees with the final discs; the saved game's link
    gives the game, and opens in the page's review."""
    rng = random.Random(1)
    if os.path.exists(SHOT):
        os.remove(SHOT)
    p1, p2 = pages(), pages()
    p1.open()
    p2.open()
    s1 = p1.open_table("reversi", color="black")
    code = s1["code"]
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{6}", code), code
    assert p1.by_id("online-link").get_attribute("value").endswith("#table=" + code)
    assert s1["seats"]["white"] == "free"
    # the lobby of browsers 2 and 3 lists it: browser 3 watches, browser 2 joins by the code
    p3 = pages()
    p3.open()
    p3.panel()
    p3.wait(lambda s: p3.d.find_elements(By.ID, "online-lobby-watch-" + code), 10, "the lobby")
    p3.by_id("online-lobby-watch-" + code).click()
    p3.wait(lambda s: s["code"] == code and s["role"] == "watch" and s["remote"], 10, "watching")
    p3.click("d3")
    s3 = p3.state()
    assert "watching" in s3["message"] and s3["ply"] == 0, s3["message"]
    p2.panel()
    p2.wait(lambda s: p2.d.find_elements(By.ID, "online-lobby-join-" + code), 10, "the lobby")
    s2 = p2.join(code)
    assert s2["color"] == "white"
    p1.wait(lambda s: s["seats"]["white"] == "here", 5, "browser 1 did not see the second player")
    states = play(rng, [p1, p2], lambda st: all(s["result"] for s in st), 100, shot=SHOT)
    for s in states:
        r = s["result"]
        b, w = discs(s)
        assert s["over"] and s["toMove"] == "none"
        assert (r["black"], r["white"]) == (b, w), "result %s against the discs %s" % (r, (b, w))
        winner = "draw" if b == w else "black" if b > w else "white"
        assert r["winner"] == winner
        assert "%d-%d" % (b, w) in r["text"], r["text"]
        if winner != "draw":
            assert ("you win" if s["color"] == winner else "you lose") in r["text"], r["text"]
        assert s["counts"] == [b, w]
    assert states[0]["moves"] == states[1]["moves"]
    # the watcher saw the same game end, and cannot play
    s3 = p3.wait(lambda s: s["result"], 10, "the watcher's result")
    assert s3["moves"] == states[0]["moves"] and s3["result"]["winner"] == states[0]["result"]["winner"]
    assert (s3["result"]["black"], s3["result"]["white"]) == discs(s3)
    # the saved game
    href = states[0]["result"]["review"]
    assert href and href == states[1]["result"]["review"]
    with urllib.request.urlopen(server["base"].rstrip("/") + href, timeout=10) as f:
        ggf = f.read().decode()
    assert ggf.startswith("(;GM[Othello]"), ggf[:80]
    assert "".join(m for m in ggf_moves(ggf) if m not in ("pa", "pass")) == states[0]["moves"]
    # ... and in the page's review: the local board shows that game, finished, and the review runs
    p1.by_id("online-review").click()
    s = p1.wait(lambda s: not s["remote"] and s["moves"] == states[0]["moves"] and s["over"], 15,
                "the saved game did not open in the review")
    p1.wait(lambda s: p1.d.execute_script("return document.getElementById('review').dataset.done === 'true'"), 60,
            "the review of the saved game did not finish")
    rows = p1.d.find_elements(By.CSS_SELECTOR, "#review .review-moves tr[data-n]")
    assert len(rows) == len(states[0]["moves"]) // 2
    assert os.path.exists(SHOT), "no screenshot of the game in progress"


def test_b_reload_keeps_the_seat(server, pages):
    """A player reloads the page mid-game (browser 2, which came by the #table= link): the same
    seat comes back (resume with the token of sessionStorage), and plays on."""
    rng = random.Random(2)
    p1, p2 = pages(), pages()
    p1.open()
    s1 = p1.open_table("reversi", color="random", public=False)
    code = s1["code"]
    p2.open("#table=" + code)
    s2 = p2.wait(lambda s: s["code"] == code and s["role"] == "seat", 10, "joining by the link")
    assert {s1["color"], s2["color"]} == {"black", "white"}
    play(rng, [p1, p2], lambda st: min(s["ply"] for s in st) >= 6 and st[0]["ply"] == st[1]["ply"], 30)
    before = p2.state()
    p2.d.refresh()
    s = p2.wait(lambda s: s["ready"] and s["code"] == code and s["role"] == "seat" and s["remote"], 15,
                "the reload did not take the seat back")
    assert s["color"] == before["color"]
    assert s["ply"] == before["ply"] and s["moves"] == before["moves"]
    p1.wait(lambda s: s["seats"][before["color"]] == "here", 10, "browser 1 did not see the player back")
    # the seat plays on: two more moves of each
    ply = s["ply"]
    states = play(rng, [p1, p2], lambda st: (min(x["ply"] for x in st) >= ply + 4 and st[0]["ply"] == st[1]["ply"] and
                                             st[0]["toMove"] != st[0]["color"]) or any(x["result"] for x in st), 30)
    if any(x["result"] for x in states):
        return
    # undo: browser 1 asks to take back its last move, browser 2 declines, then agrees
    moves = states[0]["moves"]
    p1.by_id("online-undo").click()
    p2.wait(lambda s: p2.by_id("online-offer").is_displayed(), 10, "the undo request did not arrive")
    p2.by_id("online-decline").click()
    p1.wait(lambda s: "declined" in s["message"], 10, "the decline did not arrive")
    p1.wait(lambda s: p1.by_id("online-undo").is_enabled(), 10, "undo not offered again")
    p1.by_id("online-undo").click()
    p2.wait(lambda s: p2.by_id("online-offer").is_displayed(), 10, "the second undo request did not arrive")
    p2.by_id("online-agree").click()
    for p in (p1, p2):
        s = p.wait(lambda s: s["ply"] < states[0]["ply"], 10, "the undo was not made")
        assert moves.startswith(s["moves"]) and s["toMove"] == states[0]["color"], (moves, s["moves"])


def test_c_closed_browser_loses(server, pages):
    """A player closes its browser: after the grace period the other page shows that seat gone
    and its player lost, and Emilia plays it to the end of the game."""
    rng = random.Random(3)
    p1, p2 = pages(), pages()
    p1.open()
    s1 = p1.open_table("6x6", color="black", public=False)
    code = s1["code"]
    p2.open()
    p2.join(code)
    play(rng, [p1, p2], lambda st: min(s["ply"] for s in st) >= 4 and st[0]["toMove"] == "white", 30)
    p2.quit()
    s = p1.wait(lambda s: s["seats"]["white"] in ("away", "gone"), 10, "the closed browser's seat")
    if s["seats"]["white"] == "away":
        assert "away" in s["seatText"]["white"]
    t0 = time.time()
    s = p1.wait(lambda s: s["seats"]["white"] == "gone", GRACE + 8, "the seat did not go after the grace")
    assert time.time() - t0 <= GRACE + 8
    assert "gone" in s["seatText"]["white"]
    states = play(rng, [p1], lambda st: st[0]["result"] is not None, 60)
    r = states[0]["result"]
    assert (r["reason"], r["loser"]) == ("left", "white"), r
    assert "White left" in r["text"], r["text"]
    assert "you win" in r["text"], r["text"]
    assert states[0]["over"]


def test_d_server_restart_reconnects(server, pages):
    """The server stops (SIGTERM: its tables saved) and starts again on the same --data: both
    pages notice the lost connection, connect again by themselves and take their seats back
    with their tokens; the game goes on where it was. (Last: it restarts the server, with a
    grace long enough for the pages' backoff.)"""
    rng = random.Random(4)
    p1, p2 = pages(), pages()
    p1.open()
    s1 = p1.open_table("reversi", color="black", public=False)
    code = s1["code"]
    p2.open("#table=" + code)
    p2.wait(lambda s: s["code"] == code and s["role"] == "seat", 10, "joining by the link")
    states = play(rng, [p1, p2], lambda st: min(s["ply"] for s in st) >= 4 and st[0]["ply"] == st[1]["ply"], 30)
    moves = states[0]["moves"]
    server["stop"]()
    for p in (p1, p2):
        s = p.wait(lambda s: not s["connected"], 10, "the page did not notice the server stop")
        assert "reconnecting" in s["onlineStatus"], s["onlineStatus"]
    server["start"](15)
    for p, c in ((p1, "black"), (p2, "white")):
        s = p.wait(lambda s: s["connected"] and s["role"] == "seat" and s["seats"][c] == "here", 20,
                   "the page did not take its seat back after the restart")
        assert s["code"] == code and s["color"] == c and s["moves"] == moves
    ply = states[0]["ply"]
    play(rng, [p1, p2], lambda st: min(x["ply"] for x in st) >= ply + 2 or any(x["result"] for x in st), 30)
