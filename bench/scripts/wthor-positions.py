#!/usr/bin/env python3
"""wthor-positions.py WTB LO HI COUNT [SEED] - OBF positions from a WTHOR file.

Replays the games of a WTHOR archive and prints COUNT positions (one per game,
at a number of empties drawn from LO..HI with the given seed) in OBF form,
side to move first, for benchmarks such as bench/scripts/mpi.sh.  Games whose position
at that many empties has no legal move for the side to move are skipped."""
import random
import struct
import sys

DIRS = [-9, -8, -7, -1, 1, 7, 8, 9]


def flips(me, opp, sq):
    out = 0
    r0, c0 = divmod(sq, 8)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if not dr and not dc:
                continue
            r, c, line = r0 + dr, c0 + dc, 0
            while 0 <= r < 8 and 0 <= c < 8 and opp >> (r * 8 + c) & 1:
                line |= 1 << (r * 8 + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < 8 and 0 <= c < 8 and me >> (r * 8 + c) & 1:
                out |= line
    return out


def has_move(me, opp):
    empty = ~(me | opp) & (2**64 - 1)
    return any(empty >> s & 1 and flips(me, opp, s) for s in range(64))


def main():
    path, lo, hi, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    data = open(path, 'rb').read()
    n = struct.unpack_from('<I', data, 4)[0]
    made = 0
    for g in range(n):
        if made >= count:
            break
        rec = data[16 + 68 * g: 16 + 68 * (g + 1)]
        moves = [m for m in rec[8:68] if m]
        want = rng.randint(lo, hi)
        black, white = (1 << 28) | (1 << 35), (1 << 27) | (1 << 36)
        side = 0  # 0 black to move
        for mv in moves:
            me, opp = (black, white) if side == 0 else (white, black)
            if not has_move(me, opp):
                side ^= 1
                me, opp = opp, me
            empties = 64 - bin(black | white).count('1')
            if empties == want:
                sq = ''.join('X' if black >> s & 1 else 'O' if white >> s & 1 else '-' for s in range(64))
                print(f"{sq} {'X' if side == 0 else 'O'};")
                made += 1
                break
            sq = (mv // 10 - 1) * 8 + (mv % 10 - 1)
            f = flips(me, opp, sq)
            if not f:
                break
            me |= f | (1 << sq)
            opp &= ~f
            black, white = (me, opp) if side == 0 else (opp, me)
            side ^= 1


if __name__ == '__main__':
    main()
