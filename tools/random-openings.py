#!/usr/bin/env python3
"""random-openings.py SEED COUNT [MIN_PLIES [MAX_PLIES]]: COUNT openings of random legal
moves from the standard start, one transcript per line (f5d6c3...), for self-play data
(tools/eval-selfplay.sh, chunks past the XOT file).

Each opening has a length drawn uniformly from MIN_PLIES..MAX_PLIES (default 10..20) and
no pass; openings whose final positions are equal under the 8 symmetries of the board are
kept once (the first).  The same SEED gives the same openings on every machine."""
import importlib.util
import os
import random
import sys

# the move rules of bench/scripts/wthor-positions.py (flips, has_move)
_spec = importlib.util.spec_from_file_location(
    'wthor_positions', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bench', 'scripts', 'wthor-positions.py'))
_rules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_rules)
flips = _rules.flips
has_move = _rules.has_move


def square_name(sq):
    return 'abcdefgh'[sq % 8] + str(sq // 8 + 1)


def transform(b, s):
    """Board b (bit a1 = 0, h8 = 63) under symmetry s (0..7)."""
    out = 0
    while b:
        sq = (b & -b).bit_length() - 1
        b &= b - 1
        r, c = divmod(sq, 8)
        if s & 1:
            c = 7 - c
        if s & 2:
            r = 7 - r
        if s & 4:
            r, c = c, r
        out |= 1 << (r * 8 + c)
    return out


def canonical(black, white):
    return min((transform(black, s), transform(white, s)) for s in range(8))


def one_opening(rng, plies):
    """A random opening of `plies` moves without a pass, or None."""
    black, white = 1 << 28 | 1 << 35, 1 << 27 | 1 << 36
    me, opp = black, white
    moves = []
    for _ in range(plies):
        empty = ~(me | opp) & (2 ** 64 - 1)
        legal = [s for s in range(64) if empty >> s & 1 and flips(me, opp, s)]
        if not legal:
            return None
        sq = rng.choice(legal)
        f = flips(me, opp, sq)
        me |= f | 1 << sq
        opp &= ~f
        me, opp = opp, me
        moves.append(sq)
    if not has_move(me, opp):
        return None  # the side to move would have to pass
    # me is the side to move: black when the number of moves is even
    black, white = (me, opp) if plies % 2 == 0 else (opp, me)
    return ''.join(square_name(s) for s in moves), canonical(black, white) + (plies % 2,)


def main():
    if len(sys.argv) not in (3, 4, 5):
        sys.exit('usage: random-openings.py SEED COUNT [MIN_PLIES [MAX_PLIES]]')
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    lo = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    hi = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    if count < 0 or lo < 1 or hi < lo or hi > 50:
        sys.exit('random-openings.py: need COUNT >= 0 and 1 <= MIN_PLIES <= MAX_PLIES <= 50')
    rng = random.Random(seed)
    seen = set()
    made = tries = 0
    while made < count:
        tries += 1
        if tries > 100 * count + 1000:
            sys.exit('random-openings.py: too many repeated openings; widen the plies')
        got = one_opening(rng, rng.randint(lo, hi))
        if got is None or got[1] in seen:
            continue
        seen.add(got[1])
        print(got[0])
        made += 1


if __name__ == '__main__':
    main()
