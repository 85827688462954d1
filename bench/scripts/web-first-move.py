#!/usr/bin/env python3
"""bench/scripts/web-first-move.py WEB_DIR [RUNS]: cold loads of the page in headless Chromium.

Each run starts a new browser (an empty profile: nothing cached) on a static server on
127.0.0.1 and opens a game where Emilia moves first (color=white, level=normal): the time
from the navigation's start to a board that takes clicks, and to Emilia's first move on the
board (the compiled module, the game's data fetched and gunzipped, the worker started, the
search).  Twice: on the loopback as it is, and with the network slowed down to a phone's
(CDP: 10 Mbit/s down, 40 ms latency; the server does not compress).  Then `emilia bench` in
the page's worker, and the bytes each file takes gzipped.  Prints Markdown.
"""
import functools
import gzip
import http.server
import os
import statistics
import sys
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

WEB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/web")
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
SLOW = {"offline": False, "latency": 40, "downloadThroughput": 10e6 / 8, "uploadThroughput": 5e6 / 8}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".wasm": "application/wasm", ".js": "text/javascript", ".gz": "application/gzip"})

    def log_message(self, *args):
        pass


def browser():
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              "--window-size=1100,900", "--no-first-run"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)
    d.set_script_timeout(120)
    return d


def cold_load(base, query, network=None):
    d = browser()
    try:
        if network:
            d.execute_cdp_cmd("Network.enable", {})
            d.execute_cdp_cmd("Network.emulateNetworkConditions", network)
        d.get(base + "?" + query)
        # wait in the page for Emilia's first move
        return d.execute_async_script("""
            const done = arguments[arguments.length - 1], t0 = Date.now();
            (function poll() {
              const t = window.EmiliaUI && EmiliaUI.timings;
              if (t && t.firstMove) return done([t.board, t.firstMove]);
              if (Date.now() - t0 > 100000) return done(null);
              setTimeout(poll, 5);
            })();""")
    finally:
        d.quit()


def page_bench(base):
    d = browser()
    try:
        d.get(base + "?players=2")
        return d.execute_async_script("""
            const done = arguments[arguments.length - 1], lines = [];
            (function wait() {
              if (!(window.EmiliaUI && EmiliaUI.cpu && document.body.dataset.ready)) return setTimeout(wait, 20);
              EmiliaUI.cpu.use('8x8');
              EmiliaUI.cpu.bench((l) => lines.push(l)).then(() => done(lines), (e) => done(['error ' + e]));
            })();""")
    finally:
        d.quit()


def main():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=WEB))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/index.html" % srv.server_address[1]
    print("| load | game | board ready ms (median of %d) | Emilia's first move ms | runs (ms) |" % RUNS)
    print("|---|---|---|---|---|")
    for name, network in (("loopback", None), ("10 Mbit/s, 40 ms", SLOW)):
        for game in ("8x8", "anti"):
            runs = [cold_load(base, "game=%s&color=white&level=normal" % game, network) for _ in range(RUNS)]
            runs = [r for r in runs if r]
            board = statistics.median(r[0] for r in runs)
            first = statistics.median(r[1] for r in runs)
            print("| %s | %s | %.0f | %.0f | %s |" % (name, game, board, first,
                                                     " ".join("%.0f" % r[1] for r in runs)))
    print()
    lines = page_bench(base)
    for line in lines:
        if line.startswith(("Nodes searched", "Nodes/second", "Total time")):
            print("page worker bench: " + line)
    print()
    print("| file | bytes | gzipped |")
    print("|---|---|---|")
    total = {"page": [0, 0]}
    for root, _, files in os.walk(WEB):
        for f in sorted(files):
            path = os.path.join(root, f)
            rel = os.path.relpath(path, WEB)
            raw = open(path, "rb").read()
            gz = len(raw) if f.endswith(".gz") else len(gzip.compress(raw, 9))
            print("| %s | %d | %d |" % (rel, len(raw), gz))
            if not rel.startswith("data"):
                total["page"][0] += len(raw)
                total["page"][1] += gz
    print("| page (all but data/) | %d | %d |" % tuple(total["page"]))
    srv.shutdown()


if __name__ == "__main__":
    main()
