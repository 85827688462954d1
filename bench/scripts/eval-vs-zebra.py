#!/usr/bin/env python3
"""Error of Emilia's and Zebra's evaluations on the same held-out positions.

    python3 bench/scripts/eval-vs-zebra.py DATA LABELS EMILIA [ZEBRA_DRIVER]
        [--empties 12,16,18,20,22] [--per 200] [--depths 1,2,4,8]

DATA is ../shared/data/games, LABELS the label directory (data/labels),
EMILIA the engine binary, ZEBRA_DRIVER the zebra-driver that
../shared/tools/zebra/build.sh makes (optional; it is run from its own
directory, where coeffs2.bin lies).  The positions are the first PER
positions with an exact label at each empties count in the hold-out years
(WTHOR 2015-2017, label files WTH_<year>.*.exact.lab.gz), in game order.
Each engine searches every position to each fixed depth with no exact
solving (Emilia: `emilia eval --depth D`, depth 0 is the static
evaluation; Zebra: `go ... depth D 0 0`, its midgame search with exact
and WLD solving switched off).  Prints the mean absolute error in discs
against the exact score, by empties count.
"""
import collections
import glob
import gzip
import os
import re
import subprocess
import sys
import tempfile

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
HOLDOUT = (2015, 2016, 2017)


def flips(b, me, r, c):
    if b[r][c]:
        return []
    out = []
    for dr, dc in DIRS:
        rr, cc, line = r + dr, c + dc, []
        while 0 <= rr < 8 and 0 <= cc < 8 and b[rr][cc] == -me:
            line.append((rr, cc))
            rr += dr
            cc += dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and b[rr][cc] == me:
            out += line
    return out


def wthor_games(path):
    with open(path, 'rb') as f:
        d = f.read()
    for g in range((len(d) - 16) // 68):
        yield d[16 + 68 * g + 8:16 + 68 * (g + 1)]


def exact_labels(labels, year):
    """{(game, empties): score} from the year's exact label files."""
    res = {}
    for path in sorted(glob.glob(f'{labels}/WTH_{year}.*.exact.lab.gz')):
        raw = gzip.open(path).read()
        nl = raw.index(b'\n')
        h = raw[:nl].split()
        first, count, lo, hi = int(h[3]), int(h[4]), int(h[5]), int(h[6])
        body, w = raw[nl + 1:], hi - lo + 1
        for i in range(count):
            for k in range(w):
                v = body[i * w + k]
                if v != 255:
                    res[(first + i, hi - k)] = v - 64
    return res


def positions(data, labels, want, per):
    """[(obf, moves, colour, label, empties)] in game order."""
    out, cnt = [], collections.Counter()
    for year in HOLDOUT:
        lab = exact_labels(labels, year)
        for g, mv in enumerate(wthor_games(f'{data}/wthor/WTH_{year}.wtb')):
            b = [[0] * 8 for _ in range(8)]
            b[3][3] = b[4][4] = -1
            b[3][4] = b[4][3] = 1
            me, seq = 1, []
            for m in mv:
                if m == 0:
                    break
                r, c = m // 10 - 1, m % 10 - 1
                if not flips(b, me, r, c):
                    me = -me
                    if not flips(b, me, r, c):
                        break
                e = sum(row.count(0) for row in b)
                if e in want and cnt[e] < per and (g, e) in lab:
                    cnt[e] += 1
                    board = ''.join('X' if x == 1 else 'O' if x == -1 else '-' for row in b for x in row)
                    out.append((f"{board} {'X' if me == 1 else 'O'};", ''.join(seq) or '-',
                                'b' if me == 1 else 'w', lab[(g, e)], e))
                for rr, cc in flips(b, me, r, c):
                    b[rr][cc] = me
                b[r][c] = me
                seq.append('abcdefgh'[c] + str(r + 1))
                me = -me
    return out


def report(name, pos, vals):
    by = collections.defaultdict(list)
    for p, v in zip(pos, vals):
        by[p[4]].append(abs(v - p[3]))
    print(f"{name:12s}", '  '.join(f"{e}: {sum(x) / len(x):5.2f}" for e, x in sorted(by.items())),
          flush=True)


def main():
    args, opt = [], {'--empties': '12,16,18,20,22', '--per': '200', '--depths': '0,1,2,4,8'}
    it = iter(sys.argv[1:])
    for a in it:
        if a in opt:
            opt[a] = next(it)
        else:
            args.append(a)
    if len(args) not in (3, 4):
        sys.exit(__doc__)
    data, labels, emilia = args[:3]
    zebra = args[3] if len(args) == 4 else None
    want = {int(x) for x in opt['--empties'].split(',')}
    pos = positions(data, labels, want, int(opt['--per']))
    counts = collections.Counter(p[4] for p in pos)
    print('positions:', ', '.join(f'{e} empties {n}' for e, n in sorted(counts.items())))
    depths = [int(x) for x in opt['--depths'].split(',')]
    with tempfile.NamedTemporaryFile('w', suffix='.obf') as f:
        f.write(''.join(p[0] + '\n' for p in pos))
        f.flush()
        for d in depths:
            out = subprocess.run([emilia, 'eval', f.name, '--depth', str(d)], capture_output=True,
                                 text=True, check=True).stdout
            vals = [int(v) for v in re.findall(r'eval +([+-]?\d+)', out)]
            assert len(vals) == len(pos), out[-500:]
            report(f'emilia d{d}', pos, vals)
    if not zebra:
        return
    for d in depths:
        if d == 0:
            continue   # Zebra's driver has no static evaluation
        z = subprocess.Popen([os.path.abspath(zebra)], cwd=os.path.dirname(os.path.abspath(zebra)),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
        vals = []
        for p in pos:
            z.stdin.write(f'go {p[1]} {p[2]} depth {d} 0 0\n')
            z.stdin.flush()
            r = z.stdout.readline().split()
            while r and r[0] in ('ok', 'ready'):
                r = z.stdout.readline().split()
            if not r or r[0] != 'move':
                sys.exit(f'zebra-driver: unexpected reply {r}')
            vals.append(int(r[3]) / 128)
        z.stdin.write('quit\n')
        z.stdin.flush()
        z.wait()
        report(f'zebra d{d}', pos, vals)


if __name__ == '__main__':
    main()
