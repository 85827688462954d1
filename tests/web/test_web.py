#!/usr/bin/env python3
"""The web page (make web) in headless Chromium, driven by Selenium (make test-web).

Every test checks what the page shows against Emilia's own rules code: the native library
through the Python binding (python/emilia.py) replays the page's transcript and gives the
board, the side to move and the legal moves, and the native `emilia review` the review.

Environment (set by web/web.mk): EMILIA_WEB the built page (build/web), EMILIA_LIB the native
libemilia.so.0, EMILIA_BIN the native emilia, EMILIA_SHOTS the folder for the screenshots,
CHROMIUM and CHROMEDRIVER the browser and its driver (Debian's chromium, chromium-driver).
"""
import functools
import http.server
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import emilia  # noqa: E402  (the native library: EMILIA_LIB)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

WEB = os.environ.get("EMILIA_WEB", os.path.join(ROOT, "build", "web"))
BIN = os.environ.get("EMILIA_BIN", os.path.join(ROOT, "emilia"))
SHOTS = os.environ.get("EMILIA_SHOTS", os.path.join(ROOT, "build", "web-shots"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
# the page's review settings (web/ui.js REVIEW)
REVIEW_DEPTH, REVIEW_EXACT, REVIEW_HASH = 10, 16, 16
KINDS = {"8x8": (8, False), "6x6": (6, False), "anti": (8, True)}

# What the page shows, read in one call: every square (name, disc, legal), the board's state,
# the message, the status, the scores.
STATE_JS = """
const b = document.getElementById('board'), m = document.getElementById('message');
const o = document.getElementById('official');
return {
  cells: Array.from(b.querySelectorAll('[data-square]')).map(
    (e) => [e.dataset.square, e.dataset.disc || '', e.hasAttribute('data-legal'), e.hasAttribute('data-last')]),
  toMove: b.dataset.toMove, thinking: b.dataset.thinking === 'true', over: b.dataset.over === 'true',
  moves: b.dataset.moves, message: m.hidden ? '' : m.textContent, kind: m.dataset.kind || '',
  status: document.getElementById('status').textContent,
  counts: [Number(document.getElementById('count-black').textContent),
           Number(document.getElementById('count-white').textContent)],
  official: o.hidden ? null : [Number(o.dataset.black), Number(o.dataset.white)],
  plies: Array.from(document.querySelectorAll('#moves li')).map((e) => e.textContent),
  share: document.getElementById('transcript').value,
  flipped: Array.from(b.querySelectorAll('.disc.flipped')).map((e) => e.parentNode.dataset.square),
  ready: document.body.dataset.ready === 'true',
};
"""


# Page scripts that run only while Emilia thinks (null when she does not).
GUARD_JS = "if (document.getElementById('board').dataset.thinking !== 'true') return null;\n"
# Click a button; how long its handler took (ms) and whether Emilia still thinks after it.
CLICK_JS = """
const t = performance.now();
document.getElementById(arguments[0]).click();
return [performance.now() - t, document.getElementById('board').dataset.thinking === 'true'];
"""


# Click squares; the page's state before and after.
REFUSE_JS = ("const before = (function () {" + STATE_JS + "})();\n"
             "for (const sq of arguments[0]) document.querySelector('#board [data-square=\"' + sq + '\"]').click();\n"
             "return [before, (function () {" + STATE_JS + "})()];")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".wasm": "application/wasm", ".js": "text/javascript", ".gz": "application/gzip"})

    def log_message(self, *args):
        pass


class Ref:
    """Emilia's rules (the native library): the position a page's game leads to."""

    def __init__(self, kind):
        size, anti = KINDS[kind]
        self.size = size
        self.e = emilia.Engine(hash_mb=1, board_size=size, anti=anti, use_book=False)

    def close(self):
        self.e.close()

    def settle(self):
        """Make the passes the page makes by itself."""
        while not self.e.is_game_over() and self.e.legal_moves() == ["pass"]:
            self.e.play("pass")

    def at(self, moves, start=None):
        """The position after `moves` (a transcript, passes implied) from the standard start or
        the OBF line `start`, passes made."""
        if start:
            self.e.set_obf(start)
            for i in range(0, len(moves), 2):
                self.settle()
                self.e.play(moves[i:i + 2])
        else:
            self.e.set_transcript(moves)
        self.settle()
        return self.snapshot()

    def snapshot(self):
        obf = self.e.obf
        cells = {}
        for r in range(self.size):
            for c in range(self.size):
                ch = obf[r * self.size + c]
                cells["abcdefgh"[c] + str(r + 1)] = {"X": "black", "O": "white"}.get(ch, "")
        over = self.e.is_game_over()
        legal = set() if over else set(m for m in self.e.legal_moves() if m != "pass")
        return {"cells": cells, "legal": legal, "toMove": "none" if over else ("black", "white")[self.e.side_to_move],
                "over": over, "discs": self.e.discs()}


_GEN = {}


def random_game(rng, kind, plies, stop=None):
    """A random game of Emilia's rules: its transcript after at most `plies` plies, or at the
    first position where stop(ref) holds, and the Ref holding it (one per kind, reused)."""
    if kind not in _GEN:
        _GEN[kind] = Ref(kind)
    ref = _GEN[kind]
    ref.e.new_game()
    for _ in range(plies):
        if ref.e.is_game_over() or (stop and stop(ref)):
            break
        ref.e.play(rng.choice(ref.e.legal_moves()))
    return ref.e.transcript, ref


class WebTest(unittest.TestCase):
    driver = None
    server = None
    times = {}

    @classmethod
    def setUpClass(cls):
        os.makedirs(SHOTS, exist_ok=True)
        for f in os.listdir(SHOTS):
            if f.endswith(".png"):
                os.remove(os.path.join(SHOTS, f))
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=WEB))
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.base = "http://127.0.0.1:%d/index.html" % cls.server.server_address[1]
        o = webdriver.ChromeOptions()
        o.binary_location = CHROMIUM
        for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                  "--window-size=1100,900", "--disable-extensions", "--no-first-run"):
            o.add_argument(a)
        o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        cls.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)
        cls.driver.set_script_timeout(30)

    @classmethod
    def tearDownClass(cls):
        if cls.driver:
            cls.driver.quit()
        if cls.server:
            cls.server.shutdown()

    def setUp(self):
        self.t0 = time.time()
        self.refs = []

    def tearDown(self):
        for r in self.refs:
            r.close()
        WebTest.times[self._testMethodName] = time.time() - self.t0
        # the page must not have logged an error
        errors = [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
        self.assertEqual(errors, [], "the page logged errors: %s" % errors)

    # ---- the page ----

    def open(self, query):
        self.driver.get(self.base + "?" + query)
        self.wait(lambda s: s["ready"], 30, "the page did not start")
        return self.state()

    def state(self):
        return self.driver.execute_script(STATE_JS)

    def wait(self, cond, timeout=20, what="the page"):
        end = time.time() + timeout
        while True:
            s = self.state()
            if cond(s):
                return s
            if time.time() > end:
                self.fail("%s: timed out after %s s; state %s" % (what, timeout,
                                                                   {k: v for k, v in s.items() if k != "cells"}))
            time.sleep(0.03)

    def idle(self, s):
        return s["ready"] and not s["thinking"]

    def click(self, square):
        self.driver.find_element(By.CSS_SELECTOR, '#board [data-square="%s"]' % square).click()

    def shot(self, name):
        time.sleep(0.6)  # the flips' animation
        self.driver.save_screenshot(os.path.join(SHOTS, name + ".png"))

    def paste(self, text):
        box = self.driver.find_element(By.ID, "paste")
        self.driver.execute_script("arguments[0].value = arguments[1];", box, text)
        self.driver.find_element(By.ID, "load").click()
        return self.state()

    def ref(self, kind):
        r = Ref(kind)
        self.refs.append(r)
        return r

    def assertBoard(self, s, ref, start=None, what=""):
        """The page's board, side to move and legal squares are those of Emilia's rules after
        the page's moves."""
        want = ref.at(s["moves"], start)
        got = {name: disc for name, disc, _, _ in s["cells"]}
        self.assertEqual(got, want["cells"], "%s: board after %s" % (what, s["moves"]))
        self.assertEqual(s["toMove"], want["toMove"], "%s: side to move after %s" % (what, s["moves"]))
        legal = set(name for name, _, is_legal, _ in s["cells"] if is_legal)
        self.assertEqual(legal, want["legal"], "%s: legal squares after %s" % (what, s["moves"]))
        self.assertEqual(tuple(s["counts"]), want["discs"], "%s: disc counts" % what)
        return want

    def assertOfficial(self, s, ref, anti=False, size=8):
        """The final score shown is the official one: empties to the winner, 32-32 or 18-18 on a
        draw; Anti counts the discs as they stand."""
        b, w = ref.e.discs()
        self.assertTrue(ref.e.is_game_over())
        empties = size * size - b - w
        if anti:
            want = (b, w)
        elif b > w:
            want = (b + empties, w)
        elif w > b:
            want = (b, w + empties)
        else:
            want = (size * size // 2, size * size // 2)
        self.assertEqual(tuple(s["official"]), want, "official score of %s" % s["moves"])
        return want

    def play_against(self, kind, colour, level="easy", seed=7, shots=False):
        """A whole game against Emilia: random legal clicks for the player, every position
        checked against the rules; the final state."""
        rng = random.Random(seed)
        ref = self.ref(kind)
        s = self.open("game=%s&level=%s&color=%s&seed=%d" % (kind, level, colour, seed))
        if shots:
            self.shot("start")
        replies = 0
        for ply in range(200):
            s = self.wait(lambda s: self.idle(s) and (s["over"] or s["toMove"] == colour), 30, "Emilia's reply")
            self.assertBoard(s, ref, what="%s ply %d" % (kind, ply))
            if s["over"]:
                break
            legal = sorted(name for name, _, is_legal, _ in s["cells"] if is_legal)
            self.assertTrue(legal, "no legal square shown for the player")
            if shots and len(s["moves"]) // 2 >= 20 and not os.path.exists(os.path.join(SHOTS, "midgame.png")):
                self.shot("midgame")
            before = s["moves"]
            self.click(rng.choice(legal))
            s = self.wait(lambda s: s["moves"] != before, 10, "the click")
            replies += 1
        self.assertTrue(s["over"], "the game did not end")
        self.assertGreater(replies, 5)
        self.assertOfficial(s, ref, anti=kind == "anti", size=ref.size)
        self.assertIn("Game over", s["status"])
        return s, ref

    # ---- the tests ----

    def test_01_game_easy_8x8(self):
        s, ref = self.play_against("8x8", "black", "easy", seed=11, shots=True)
        self.shot("end")

    def test_02_game_6x6(self):
        s, ref = self.play_against("6x6", "white", "easy", seed=5)
        self.assertEqual(len(s["cells"]), 36)

    def test_03_game_anti(self):
        self.play_against("anti", "black", "easy", seed=3)

    def test_04_legal_dots_50_positions(self):
        """The dots of 50 random positions (30 of 8x8, 10 of 6x6, 10 of Anti), loaded as a
        transcript or as an OBF position, are the engine's legal moves."""
        rng = random.Random(2024)
        checked = 0
        for kind, count in (("8x8", 30), ("6x6", 10), ("anti", 10)):
            self.open("game=%s&players=2" % kind)
            ref = self.ref(kind)
            for i in range(count):
                limit = 60 if kind != "6x6" else 32
                moves, gen = random_game(rng, kind, rng.randrange(1, limit))
                if i % 3 == 2:
                    start = gen.e.obf
                    s = self.paste(start)
                    self.assertEqual(s["kind"], "", s["message"])
                    got = set(n for n, _, legal, _ in s["cells"] if legal)
                    gen.settle()
                    want = gen.snapshot()
                    self.assertEqual(got, want["legal"], "legal squares of %s" % start)
                    self.assertEqual({n: d for n, d, _, _ in s["cells"]}, want["cells"])
                else:
                    s = self.paste(moves)
                    self.assertEqual(s["kind"], "" if "passes" not in s["message"] else "pass", s["message"])
                    self.assertEqual(s["moves"], moves)
                    self.assertBoard(s, ref, what="%s position %d" % (kind, i))
                checked += 1
        self.assertEqual(checked, 50)

    def test_05_undo_two_plies(self):
        ref = self.ref("8x8")
        s = self.open("game=8x8&level=easy&color=black&seed=4")
        self.click("f5")
        s = self.wait(lambda s: self.idle(s) and len(s["moves"]) == 4, 10, "Emilia's first reply")
        first = s["moves"]
        legal = sorted(n for n, _, is_legal, _ in s["cells"] if is_legal)
        self.click(legal[0])
        s = self.wait(lambda s: self.idle(s) and len(s["moves"]) == 8, 10, "Emilia's second reply")
        self.driver.find_element(By.ID, "undo").click()
        s = self.wait(lambda s: len(s["moves"]) == 4, 5, "undo")
        self.assertEqual(s["moves"], first, "undo takes back the player's move and the reply")
        self.assertBoard(s, ref, what="after one undo")
        self.assertEqual(s["toMove"], "black")
        self.driver.find_element(By.ID, "undo").click()
        s = self.wait(lambda s: s["moves"] == "", 5, "second undo")
        self.assertBoard(s, ref, what="after two undos")
        self.driver.find_element(By.ID, "undo").click()
        s = self.state()
        self.assertEqual(s["moves"], "")
        self.assertEqual(s["kind"], "refused")
        self.assertIn("Nothing to undo", s["message"])

    def test_06_forced_pass(self):
        """A position where the side to move has no move: the page passes by itself, says so,
        and the other side plays on (two players, and against Emilia)."""
        rng = random.Random(99)
        for _ in range(3000):
            moves, gen = random_game(rng, "8x8", 60, stop=lambda r: r.e.legal_moves() == ["pass"])
            must_pass = not gen.e.is_game_over() and gen.e.legal_moves() == ["pass"]
            passer = ("black", "white")[gen.e.side_to_move]
            if must_pass:
                break
        self.assertTrue(must_pass, "no random game with a pass")
        ref = self.ref("8x8")
        self.open("game=8x8&players=2")
        s = self.paste(moves)
        self.assertEqual(s["kind"], "pass", s["message"])
        self.assertIn("%s has no legal move and passes" % passer.capitalize(), s["message"])
        self.assertEqual(s["plies"][-1], "pass")
        self.assertNotEqual(s["toMove"], passer)
        self.assertBoard(s, ref, what="after the pass")
        self.shot("pass")
        # against Emilia, with the player the side that passes: Emilia moves again
        other = "white" if passer == "black" else "black"
        self.open("game=8x8&level=easy&color=%s&seed=2" % passer)
        s = self.paste(moves)
        self.assertEqual(s["kind"], "pass", s["message"])
        s = self.wait(lambda s: self.idle(s) and (s["over"] or s["toMove"] == passer) and s["moves"] != moves, 10,
                      "Emilia's move after the pass")
        self.assertGreater(len(s["moves"]), len(moves), "%s plays once more after %s's pass" % (other, passer))
        self.assertBoard(s, ref, what="Emilia after the pass")

    def test_07_final_score_with_empties(self):
        """A game that ends with empty squares, its last moves clicked: the final score gives them
        to the winner; a position with no move for either side and equal discs is a draw,
        32-32 (18-18 on 6x6); Anti counts the discs as they stand."""
        rng = random.Random(5)
        for _ in range(5000):
            moves, gen = random_game(rng, "8x8", 60)
            b, w = gen.e.discs()
            over = gen.e.is_game_over()
            if over and b + w < 64 and b != w:
                break
        self.assertLess(b + w, 64, "no random game ending with empties")
        ref = self.ref("8x8")
        s = self.open("game=8x8&players=2")
        s = self.paste(moves[:-12])  # the last 6 moves by clicks
        for i in range(len(moves) - 12, len(moves), 2):
            before = s["moves"]
            self.click(moves[i:i + 2])
            s = self.wait(lambda s: s["moves"] != before, 5, "click %s" % moves[i:i + 2])
        self.assertTrue(s["over"])
        self.assertBoard(s, ref, what="final position")
        want = self.assertOfficial(s, ref)
        self.assertIn("%d-%d" % want, s["status"])
        self.assertRegex(s["status"], r"The \d+ empty squares? goes? to the winner")
        # a wipe-out in 10 moves (tests/data/short-games.tsv): 14-0 on the board, 64-0 by the count
        with open(os.path.join(ROOT, "tests", "data", "short-games.tsv")) as f:
            short = [line.split("\t")[1] for line in f if line.startswith("10\t")][0]
        s = self.open("game=8x8&players=2")
        for i in range(0, len(short), 2):
            before = s["moves"]
            self.click(short[i:i + 2])
            s = self.wait(lambda s: s["moves"] != before, 5, "click %s" % short[i:i + 2])
        self.assertBoard(s, ref, what="the wipe-out")
        self.assertEqual(sorted(s["counts"]), [0, 14])
        self.assertEqual(sorted(self.assertOfficial(s, ref)), [0, 64])
        self.assertIn("The 50 empty squares go to the winner", s["status"])
        # equal discs with empties: a draw split in two
        self.paste("X------O" + "-" * 48 + "O------X X")
        s = self.state()
        self.assertTrue(s["over"])
        self.assertEqual(s["official"], [32, 32])
        self.assertIn("a draw, 32-32", s["status"])
        self.open("game=6x6&players=2")
        s = self.paste("X----O" + "-" * 24 + "O----X O")
        self.assertEqual(s["official"], [18, 18])
        # Anti: as the discs stand, fewer wins
        self.open("game=anti&players=2")
        s = self.paste("XX-----O" + "-" * 48 + "O------X X")
        self.assertEqual(s["official"], [3, 2])
        self.assertIn("White wins, 3-2", s["status"])

    def test_08_two_players(self):
        """A whole game for two on one screen, every ply checked; undo takes back one move."""
        rng = random.Random(8)
        ref = self.ref("8x8")
        s = self.open("game=8x8&players=2")
        for ply in range(130):
            self.assertBoard(s, ref, what="ply %d" % ply)
            if s["over"]:
                break
            legal = sorted(n for n, _, is_legal, _ in s["cells"] if is_legal)
            before, cells = s["moves"], {n: d for n, d, _, _ in s["cells"]}
            square = rng.choice(legal)
            self.click(square)
            s = self.wait(lambda s: s["moves"] != before, 5, "the click")
            self.assertFalse(s["thinking"])
            # the last move is marked, the discs it turned over are shown turning
            self.assertEqual([n for n, _, _, last in s["cells"] if last], [square])
            turned = sorted(n for n, d, _, _ in s["cells"] if cells[n] and d != cells[n])
            self.assertTrue(turned)
            self.assertEqual(sorted(s["flipped"]), turned)
            if ply == 30:
                self.driver.find_element(By.ID, "undo").click()
                s = self.wait(lambda s: s["moves"] == before, 5, "two-player undo")
                self.assertBoard(s, ref, what="after a two-player undo")
        self.assertTrue(s["over"])
        self.assertOfficial(s, ref)

    def test_09_review(self):
        """A game for two played to its end, then its review: every move's best move, loss and
        class, and each player's summary, equal to `emilia review --json` with the page's
        settings."""
        rng = random.Random(9)
        s = self.open("game=8x8&players=2")
        while not s["over"]:
            legal = sorted(n for n, _, is_legal, _ in s["cells"] if is_legal)
            before = s["moves"]
            self.click(rng.choice(legal))
            s = self.wait(lambda s: s["moves"] != before, 5, "the click")
        self.driver.find_element(By.ID, "review-button").click()
        self.wait(lambda s: self.driver.execute_script(
            "return document.getElementById('review').dataset.done === 'true'"), 120, "the review")
        rows = self.driver.execute_script("""
            return Array.from(document.querySelectorAll('#review tr[data-n]')).map((r) =>
              ({n: Number(r.dataset.n), move: r.dataset.move, best: r.dataset.best,
                loss: Number(r.dataset.loss), class: r.dataset.class}));""")
        summary = self.driver.execute_script("""
            return Array.from(document.querySelectorAll('#review tr[data-player]')).map((r) =>
              Array.from(r.children).slice(1).map((c) => c.textContent));""")
        out = subprocess.run([BIN, "review", s["moves"], "--json", "--quiet", "--level", str(REVIEW_DEPTH),
                              "--exact-from", str(REVIEW_EXACT), "--hash", str(REVIEW_HASH), "--threads", "1"],
                             check=True, capture_output=True, text=True).stdout
        doc = json.loads(out)
        want = [{"n": m["n"], "move": m["move"], "best": m["best"], "loss": m["loss"], "class": m["class"]}
                for m in doc["moves"]]
        self.assertEqual(rows, want)
        for side, got in zip(("black", "white"), summary):
            p = doc["players"][side]
            self.assertEqual(got, [str(p["moves"]), str(p["best"]), str(p["inaccuracies"]), str(p["mistakes"]),
                                   str(p["blunders"]), "%.2f" % p["mean_loss"]])
        self.assertTrue(any(m["class"] == "blunder" for m in want), "a random game without a blunder?")
        # the score graph: Black's value before each move and the final margin; a dot on each
        # mistake and blunder
        points, dots = self.driver.execute_script("""
            return [document.querySelector('#review .graph-line').getAttribute('points').trim().split(' ').length,
                    document.querySelectorAll('#review .graph-mistake, #review .graph-blunder').length];""")
        self.assertEqual(points, len(want) + 1)
        self.assertEqual(dots, sum(m["class"] in ("mistake", "blunder") for m in want))
        self.driver.execute_script("document.getElementById('review').scrollIntoView()")
        self.shot("review")
        # a move of the review shows its position, with the best move
        worst = max(want, key=lambda m: m["loss"])
        size = "return document.getElementById('board').getBoundingClientRect().height"
        height = self.driver.execute_script(size)
        self.driver.find_element(By.CSS_SELECTOR, '#review tr[data-n="%d"]' % worst["n"]).click()
        self.assertEqual(self.driver.execute_script(size), height, "the board changed its size")
        played = self.driver.execute_script("return Array.from(document.querySelectorAll('#board [data-played]'))"
                                            ".map((e) => e.dataset.square)")
        best = self.driver.execute_script("return Array.from(document.querySelectorAll('#board [data-best]'))"
                                          ".map((e) => e.dataset.square)")
        self.assertEqual(played, [worst["move"]])
        self.assertEqual(best, [worst["best"]])
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.shot("review-move")
        # its board: the position before that move, by the rules
        s = self.state()
        n = worst["n"]
        moves = s["moves"][:2 * (n - 1)]
        self.assertEqual({c: d for c, d, _, _ in s["cells"]}, self.ref("8x8").at(moves)["cells"])
        self.click(worst["move"])
        self.assertIn("looking at the review", self.state()["message"])
        self.driver.find_element(By.ID, "back").click()
        s = self.state()
        self.assertEqual({c: d for c, d, _, _ in s["cells"]}, self.ref("8x8").at(s["moves"])["cells"])

    def test_10_bad_paste(self):
        """Bad text to load: a clear message, and the game as it was."""
        ref = self.ref("8x8")
        s = self.open("game=8x8&players=2")
        for sq in ("f5", "d6", "c3"):
            before = self.state()["moves"]
            self.click(sq)
            self.wait(lambda s: s["moves"] != before, 5)
        good = self.state()
        bad = {
            "": "Nothing to load",
            "f5d6zz": "Not a transcript",
            "hello world": "Not a transcript",
            "e3": "Move 1, e3, is illegal",
            "f5f5": "Move 2, f5, is illegal",
            "f5d6c3d3c4f4f6f3e6e7 a9": "a9, is not a square",
            "-" * 63 + " X": "63 squares",
            "-" * 27 + "OX------XO" + "-" * 27 + " Z": "Not a position",
            "------XO----OX------" + "-" * 16 + " X": "36 squares",
            "f5" * 1100: "too long",
            "X" * 64 + " O ; f5": "The game is over before move 1",
            "d3 ; f5": "Before the",
        }
        for text, words in bad.items():
            s = self.paste(text)
            self.assertEqual(s["kind"], "error", "%r: %s" % (text, s["message"]))
            self.assertIn("Nothing loaded", s["message"])
            self.assertIn(words, s["message"], repr(text))
            for key in ("cells", "moves", "toMove", "share", "plies"):
                self.assertEqual(s[key], good[key], "%r changed %s" % (text, key))
        self.assertBoard(s, ref, what="after the bad pastes")
        invalid = self.driver.find_element(By.ID, "paste").get_attribute("aria-invalid")
        self.assertEqual(invalid, "true")
        # the game goes on
        legal = sorted(n for n, _, is_legal, _ in s["cells"] if is_legal)
        self.click(legal[0])
        s = self.wait(lambda s: s["moves"] != good["moves"], 5)
        self.assertBoard(s, ref, what="a move after the bad pastes")
        # sharing: Copy gives the transcript, which loads the same game in a new page; a
        # position with moves after it (OBF ; moves) too
        self.driver.find_element(By.ID, "copy").click()
        # the clipboard is the browser's: copied, or (where it is refused) the transcript
        # selected for the player, with the text in the message either way
        s = self.wait(lambda s: "Copied the transcript" in s["message"] or "Ctrl+C" in s["message"], 5,
                      "the copy's message")
        self.assertEqual(s["share"], s["moves"])
        self.assertRegex(s["message"], r"^(Copied the transcript|The transcript is selected; copy it with Ctrl\+C): "
                         + re.escape(s["moves"]) + "$")
        shared = s
        self.open("game=8x8&players=2")
        s = self.paste(shared["share"])
        self.assertEqual((s["cells"], s["moves"], s["toMove"]), (shared["cells"], shared["moves"], shared["toMove"]))
        start = ref.at("f5d6")["cells"]
        obf = "".join({"black": "X", "white": "O", "": "-"}[start[c + r]] for r in "12345678" for c in "abcdefgh") + " X"
        s = self.paste(obf + " ; c3d3")
        self.assertEqual(s["kind"], "", s["message"])
        self.assertEqual(s["share"], obf + " ; c3d3")
        self.assertEqual({n: d for n, d, _, _ in s["cells"]}, ref.at("f5d6c3d3")["cells"])
        self.driver.find_element(By.ID, "undo").click()
        self.driver.find_element(By.ID, "undo").click()
        s = self.state()
        self.assertEqual({n: d for n, d, _, _ in s["cells"]}, start, "undo back to the pasted position")
        self.driver.find_element(By.ID, "undo").click()
        self.assertIn("Nothing to undo", self.state()["message"])

    def while_thinking(self, square, script, *args):
        """Play `square` for the player and, while Emilia thinks about her reply, run `script`
        (guarded by GUARD_JS): its result, or None when she answered first (then her move is
        taken back)."""
        before = self.state()["moves"]
        self.click(square)
        self.wait(lambda s: s["thinking"] or (self.idle(s) and s["moves"] != before), 5, "Emilia starts")
        r = self.driver.execute_script(GUARD_JS + script, *args)
        if r is None:
            s = self.wait(self.idle, 10)
            if s["moves"] != before:
                self.driver.find_element(By.ID, "undo").click()
                self.wait(lambda s: self.idle(s) and s["moves"] == before, 5, "undo")
        return r

    def test_11_clicks_while_thinking(self):
        """Hard thinks about 3 s: clicks meanwhile place nothing and say why; Undo and New
        game stop the search at once, and no move of it comes later.  (Each check runs in the
        page while Emilia thinks; on a loaded machine she may answer first: then it is tried
        again.)"""
        ref = self.ref("8x8")
        rng = random.Random(31)
        moves, gen = random_game(rng, "8x8", 24, stop=None)
        gen.settle()
        human = ("black", "white")[gen.e.side_to_move]
        s = self.open("game=8x8&level=hard&color=%s&seed=1" % human)
        s = self.paste(moves)
        s = self.wait(self.idle, 10)
        loaded = s["moves"]
        self.assertEqual(s["toMove"], human)
        legal = sorted(n for n, _, is_legal, _ in s["cells"] if is_legal)
        empty = [n for n, d, _, _ in s["cells"] if not d and n != legal[0]]
        # clicks while Emilia thinks
        for _ in range(4):
            r = self.while_thinking(legal[0], REFUSE_JS, empty[:3])
            if r is not None:
                break
        self.assertIsNotNone(r, "Emilia always answered before the clicks")
        before, after = r
        self.assertTrue(after["thinking"])
        self.assertEqual(after["kind"], "refused")
        self.assertIn("Emilia is thinking", after["message"])
        self.assertEqual(after["cells"], before["cells"], "a click while Emilia thinks changed the board")
        self.assertEqual(after["moves"], before["moves"])
        self.assertTrue(self.driver.find_element(By.ID, "thinking").is_displayed())
        self.shot("thinking")
        # Undo: the search stops at once (the click's own handler ends it) and the player's
        # move is taken back
        r = self.driver.execute_script(GUARD_JS + CLICK_JS, "undo")
        for _ in range(4):
            if r is not None:
                break
            r = self.while_thinking(legal[0], CLICK_JS, "undo")
        self.assertIsNotNone(r, "Emilia always answered before Undo")
        ms, still = r
        self.assertFalse(still, "Emilia still thinks after Undo")
        self.assertLess(ms, 500)
        s = self.state()
        self.assertEqual(s["moves"], loaded)
        self.assertIn("stopped", s["message"])
        time.sleep(3.5)
        s = self.state()
        self.assertEqual(s["moves"], loaded, "a stopped search's move arrived")
        self.assertEqual(s["toMove"], human)
        self.assertBoard(s, ref, what="after undo while thinking")
        # New game while thinking
        for _ in range(4):
            r = self.while_thinking(legal[0], CLICK_JS, "new")
            if r is not None:
                break
        self.assertIsNotNone(r, "Emilia always answered before New game")
        ms, still = r
        self.assertLess(ms, 500)
        s = self.state()
        self.assertIn(s["moves"], ("", "f5", "d3", "c4", "e6"))
        time.sleep(3.5)
        s = self.wait(self.idle, 10)
        self.assertIn(s["moves"], ("", "f5", "d3", "c4", "e6"), "the old game's move arrived: %s" % s["moves"])
        self.assertBoard(s, ref, what="new game after a stopped search")
        # the engine still plays, at Easy
        Select(self.driver.find_element(By.ID, "level")).select_by_value("easy")
        s = self.wait(lambda s: self.idle(s) and s["toMove"] == human, 10)
        before = s["moves"]
        legal = sorted(n for n, _, is_legal, _ in s["cells"] if is_legal)
        self.click(legal[0])
        s = self.wait(lambda s: self.idle(s) and len(s["moves"]) == len(before) + 4, 10, "Emilia's reply")
        self.assertBoard(s, ref, what="the reply after the stops")

    def test_12_keyboard(self):
        """Arrow keys and Enter on the board, a typed square, U for undo."""
        ref = self.ref("8x8")
        self.open("game=8x8&players=2")
        cell = self.driver.find_element(By.CSS_SELECTOR, '#board [data-square="d3"]')
        self.driver.execute_script("arguments[0].focus()", cell)
        cell.send_keys(Keys.ENTER)  # the keyboard's square starts on d3, legal for Black
        s = self.wait(lambda s: s["moves"] == "d3", 5, "Enter")
        active = self.driver.switch_to.active_element
        active.send_keys(Keys.ARROW_LEFT)  # c3: legal for White
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        s = self.wait(lambda s: s["moves"] == "d3c3", 5, "arrow and Enter")
        body = self.driver.find_element(By.TAG_NAME, "body")
        body.send_keys("c4")
        s = self.wait(lambda s: s["moves"] == "d3c3c4", 5, "typed square")
        self.assertBoard(s, ref, what="keyboard moves")
        body.send_keys("a1")
        s = self.state()
        self.assertEqual(s["kind"], "refused")
        self.assertIn("a1 would flip no black disc", s["message"])
        # a click on a taken square or one that flips nothing: nothing placed, and why
        self.click("d4")
        s = self.state()
        self.assertEqual((s["kind"], s["moves"]), ("refused", "d3c3c4"))
        self.assertIn("d4 is taken", s["message"])
        self.click("h8")
        s = self.state()
        self.assertEqual((s["kind"], s["moves"]), ("refused", "d3c3c4"))
        self.assertIn("No disc placed: h8 would flip no black disc", s["message"])
        body.send_keys("u")
        s = self.wait(lambda s: s["moves"] == "d3c3", 5, "u undoes")
        self.assertBoard(s, ref, what="keyboard undo")

    def test_13_phone_layout(self):
        """A phone's screen (390 x 844): the board and the controls fit its width, the squares
        are big enough to touch."""
        self.driver.set_window_size(390, 844)
        try:
            self.open("game=8x8&level=easy&color=black&seed=3")
            self.click("f5")
            self.wait(lambda s: self.idle(s) and len(s["moves"]) == 4, 10)
            m = self.driver.execute_script("""
                const r = document.getElementById('board').getBoundingClientRect();
                const sq = document.querySelector('[data-square="a1"]').getBoundingClientRect();
                return {width: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth,
                        left: r.left, right: r.right, square: sq.width,
                        controls: document.querySelector('.controls').getBoundingClientRect().right};""")
            self.assertLessEqual(m["scroll"], m["width"], "the page scrolls sideways: %s" % m)
            self.assertGreaterEqual(m["left"], 0)
            self.assertLessEqual(m["right"], m["width"])
            self.assertLessEqual(m["controls"], m["width"])
            self.assertGreaterEqual(m["square"], 36, "squares too small to touch: %s" % m)
            self.shot("phone")
        finally:
            self.driver.set_window_size(1100, 900)

    def test_14_online_needs_emilia_serve(self):
        """Served by a plain static server (or from file://), the Online panel says online play
        needs `emilia serve`, and the game on the page goes on as before."""
        ref = self.ref("8x8")
        self.open("game=8x8&level=easy&color=black&seed=3")
        self.driver.execute_script("document.getElementById('online-box').open = true;")
        WAIT = "return [document.body.dataset.online || '', document.getElementById('online-status').textContent];"
        end = time.time() + 10
        while self.driver.execute_script(WAIT)[0] != "unavailable" and time.time() < end:
            time.sleep(0.05)
        online, text = self.driver.execute_script(WAIT)
        self.assertEqual(online, "unavailable")
        self.assertIn("needs `emilia serve`", text)
        self.click("f5")
        s = self.wait(lambda s: self.idle(s) and len(s["moves"]) == 4, 10, "Emilia's reply")
        self.assertBoard(s, ref, what="a game beside the Online panel")
        # from file:// the panel says so at once (the page itself cannot fetch its engine there)
        self.driver.get("file://" + os.path.join(WEB, "index.html") + "#table=ABCDEF")
        end = time.time() + 5
        while self.driver.execute_script(WAIT)[0] != "unavailable" and time.time() < end:
            time.sleep(0.05)
        online, text = self.driver.execute_script(WAIT)
        self.assertEqual(online, "unavailable")
        self.assertIn("needs `emilia serve`", text)
        # the refused WebSocket and the file:// fetches log errors of the browser's: not the page's
        self.driver.get("about:blank")
        left = [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE" and
                "WebSocket" not in e["message"] and not e["message"].startswith("file://")]
        self.assertEqual(left, [], "the page logged errors: %s" % left)


if __name__ == "__main__":
    t0 = time.time()
    result = unittest.main(exit=False, verbosity=2).result
    for name, secs in sorted(WebTest.times.items()):
        print("%-36s %6.1f s" % (name, secs))
    print("web tests: %.1f s" % (time.time() - t0))
    sys.exit(0 if result.wasSuccessful() else 1)
