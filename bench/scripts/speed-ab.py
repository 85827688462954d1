#!/usr/bin/env python3
"""Two Emilia binaries side by side on the same work, for a shared, noisy machine.

    python3 bench/scripts/speed-ab.py [-n ROUNDS] A B [NAME=VALUE ...]

Runs `emilia bench`, `emilia perft 11` and `emilia solve` of FFO #40-#42
(examples/ffo-40-49.obf, one thread) with binary A and binary B in turn,
ROUNDS times, alternating which goes first, and prints for each workload
the median CPU seconds (user + system of the child: a process waiting for
a core is not charged, so this is steadier than the wall time when other
jobs share the machine), the median of the per-round ratios B/A, and the
wall-clock figures.  NAME=VALUE pairs go into B's environment only, e.g.
`python3 bench/scripts/speed-ab.py ./emilia ./emilia EMILIA_KERNEL=portable`
(docs/build.md).  Exit status 1 when a run fails.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(binary, args, env):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run([binary] + args, stdout=subprocess.DEVNULL, env=env, check=True)
    t1 = time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, t1 - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=10, help="rounds (default 10)")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("env", nargs="*", help="NAME=VALUE for B's environment")
    o = ap.parse_args()
    env_a = dict(os.environ)
    env_b = dict(os.environ)
    for kv in o.env:
        k, _, v = kv.partition("=")
        env_b[k] = v
    with open(os.path.join(ROOT, "examples", "ffo-40-49.obf")) as f:
        ffo = [line for line in f if line.strip() and not line.startswith(("#", "%"))][:3]
    with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as f:
        f.writelines(ffo)
        obf = f.name
    work = [("bench", ["bench"]), ("perft 11", ["perft", "11"]),
            ("solve FFO #40-#42", ["solve", obf, "--threads", "1", "--quiet"])]
    res = {w: ([], []) for w, _ in work}
    try:
        for i in range(o.n):
            for w, args in work:
                order = [(0, o.a, env_a), (1, o.b, env_b)]
                if i % 2:
                    order.reverse()
                for side, binary, env in order:
                    res[w][side].append(run(binary, args, env))
    except subprocess.CalledProcessError as e:
        print("speed-ab: %s failed" % " ".join(e.cmd), file=sys.stderr)
        return 1
    finally:
        os.unlink(obf)
    med = statistics.median
    print("%d rounds, A = %s, B = %s%s" % (o.n, o.a, o.b, (" with " + " ".join(o.env)) if o.env else ""))
    for w, _ in work:
        a, b = res[w]
        ca, cb = [x[0] for x in a], [x[0] for x in b]
        wa, wb = [x[1] for x in a], [x[1] for x in b]
        print("%-18s CPU s: A %.3f  B %.3f  B/A %.4f (per-round median; min A %.3f B %.3f)   "
              "wall s: A %.3f  B %.3f  B/A %.4f" %
              (w, med(ca), med(cb), med([y / x for x, y in zip(ca, cb)]), min(ca), min(cb),
               med(wa), med(wb), med([y / x for x, y in zip(wa, wb)])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
