#!/usr/bin/env python3
"""Does a non-linear model find more in the evaluation's training data?

    python3 bench/scripts/eval-nonlinear.py DUMP MODE [EPOCHS] [HIDDEN] [EMILIA]

DUMP is the file of `emilia-train ... --game-dump DUMP` (docs/evaluation.md).
Trains on its training positions with 18-26 empties (the trainer's sample
weights: exact labels 5, sqrt of the games reaching a position) and reports
the mean absolute error on its held-out exact positions with 20-24 empties,
by empties, after every epoch.  MODE:
  link   the linear evaluation passed through a learned f(evaluation, empties)
  board  the linear evaluation plus a learned correction from the 128
         square bits, the evaluation and the empties
The linear evaluation is that of EMILIA (default ./emilia, `emilia eval`).
Needs PyTorch (Debian: apt-get install python3-torch); not part of the
build or the tests.  bench/results/eval-results.md has the figures."""
import json, os, subprocess, sys, tempfile, time
import numpy as np
import torch
import torch.nn as nn

if len(sys.argv) < 3 or sys.argv[2] not in ("link", "board"):
    sys.exit(__doc__)
DUMP, MODE = sys.argv[1], sys.argv[2]
EPOCHS = int(sys.argv[3]) if len(sys.argv) > 3 else 8
H = int(sys.argv[4]) if len(sys.argv) > 4 else 256
EMILIA = sys.argv[5] if len(sys.argv) > 5 else "./emilia"
torch.set_num_threads(os.cpu_count() or 1)
torch.manual_seed(1)
np.random.seed(1)

rows = []
with open(DUMP) as f:
    for line in f:
        a = line.split()
        e = int(a[2])
        if (a[5] == "-" and 18 <= e <= 26) or (a[5] == "t" and a[4] == "e" and 20 <= e <= 24):
            rows.append(a)
P = np.array([int(a[0], 16) for a in rows], dtype=np.uint64)
O = np.array([int(a[1], 16) for a in rows], dtype=np.uint64)
bits = np.arange(64, dtype=np.uint64)
unpack = lambda x: ((x[:, None] >> bits[None, :]) & np.uint64(1)).astype(np.float32)
X = np.concatenate([unpack(P), unpack(O)], 1)

# the linear evaluation of every position, side to move = X
with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as obf:
    for x in X:
        obf.write("".join("X" if x[i] else "O" if x[64 + i] else "-" for i in range(64)) + " X;\n")
out = subprocess.run([EMILIA, "eval", obf.name, "--json"], capture_output=True, text=True, check=True).stdout
os.unlink(obf.name)
ev = np.array([json.loads(l)["eval"] for l in out.splitlines() if l.startswith('{"n"')], dtype=np.float32)
assert len(ev) == len(rows)

E = np.array([int(a[2]) for a in rows], dtype=np.float32)
L = np.array([float(a[3]) for a in rows], dtype=np.float32)
W = np.array([(5.0 if a[4] == "e" else 1.0) * min(int(a[6]), 1024) ** 0.5 for a in rows], dtype=np.float32)
T = np.array([a[5] == "t" for a in rows])

def perm(f):
    return np.array([f(s // 8, s % 8) for s in range(64)])
SYMS = [perm(f) for f in (lambda r, c: 8 * r + c, lambda r, c: 8 * r + 7 - c, lambda r, c: 8 * (7 - r) + c,
                          lambda r, c: 8 * (7 - r) + 7 - c, lambda r, c: 8 * c + r, lambda r, c: 8 * c + 7 - r,
                          lambda r, c: 8 * (7 - c) + r, lambda r, c: 8 * (7 - c) + 7 - r)]
SYMS = [torch.tensor(np.concatenate([s, s + 64])) for s in SYMS]
Xt, Lt, Wt, Et, Vt = map(torch.tensor, (X, L, W, E, ev))
tr, te = torch.tensor(np.where(~T)[0]), torch.tensor(np.where(T)[0])

def by_empties(err):
    return " ".join(f"{e}:{float(err[Et[te] == e].mean()):.2f}" for e in range(20, 25))
print(f"training positions {len(tr)}, held-out {len(te)}; linear evaluation: "
      f"{float((Vt[te] - Lt[te]).abs().mean()):.3f} ({by_empties((Vt[te] - Lt[te]).abs())})", flush=True)

net = nn.Sequential(nn.Linear(2 if MODE == "link" else 130, H), nn.ReLU(), nn.Linear(H, 32), nn.ReLU(),
                    nn.Linear(32, 1))

def predict(j, sym):
    e, v = (Et[j][:, None] - 22) / 4, Vt[j][:, None] / 32
    x = torch.cat([v, e], 1) if MODE == "link" else torch.cat([Xt[j][:, sym], v, e], 1)
    return Vt[j] + net(x).squeeze(1)

BS = 1024
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, EPOCHS * (len(tr) // BS))
t0 = time.time()
for ep in range(EPOCHS):
    idx, total = tr[torch.randperm(len(tr))], 0.0
    for b in range(len(idx) // BS):
        j = idx[b * BS:(b + 1) * BS]
        w = Wt[j]
        loss = (w * (predict(j, SYMS[np.random.randint(8)]) - Lt[j]).abs()).sum() / w.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += float(loss)
    with torch.no_grad():   # the mean over the 8 symmetries
        err = (sum(predict(te, s) for s in SYMS) / 8 - Lt[te]).abs()
    print(f"epoch {ep + 1}: training {total / (len(idx) // BS):.3f}, held-out {float(err.mean()):.3f} "
          f"({by_empties(err)}), {time.time() - t0:.0f} s", flush=True)
