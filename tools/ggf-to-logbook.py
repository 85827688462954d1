#!/usr/bin/env python3
"""ggf-to-logbook.py GGF: each 8x8 game of a GGF file (as emilia-match --out writes them)
as one line of Logistello's logbook format, the format emilia-train reads for self-play
games: the moves with their colour ('+' Black, '-' White; passes are implied), then ': '
and the final disc difference for Black as the board stands (no empties to the winner).

Games from the standard start position only; a game that is not complete, has an illegal
move or another start is reported on stderr and skipped."""
import importlib.util
import os
import re
import sys

# the move rules of bench/scripts/wthor-positions.py (flips, has_move)
_spec = importlib.util.spec_from_file_location(
    'wthor_positions', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bench', 'scripts', 'wthor-positions.py'))
_rules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_rules)
flips, has_move = _rules.flips, _rules.has_move


START = '-' * 27 + 'O*' + '-' * 6 + '*O' + '-' * 27


def convert(line):
    bo = re.search(r'BO\[8 ([-O*]{64}) ([*O])\]', line)
    if not bo or bo.group(1) != START or bo.group(2) != '*':
        return None, 'not from the standard start position'
    black, white = 1 << 28 | 1 << 35, 1 << 27 | 1 << 36
    out = []
    for col, mv in re.findall(r'\b([BW])\[([A-Ha-h][1-8]|PA|pa)', line):
        if mv.upper() == 'PA':
            continue
        sq = (int(mv[1]) - 1) * 8 + ord(mv[0].upper()) - ord('A')
        me, opp = (black, white) if col == 'B' else (white, black)
        f = flips(me, opp, sq)
        if not f:
            return None, 'illegal move %s[%s]' % (col, mv)
        me |= f | 1 << sq
        opp &= ~f
        black, white = (me, opp) if col == 'B' else (opp, me)
        out.append(('+' if col == 'B' else '-') + mv.lower())
    if has_move(black, white) or has_move(white, black):
        return None, 'the game is not over'
    d = bin(black).count('1') - bin(white).count('1')
    return '%s: %+03d' % (''.join(out), d), None


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: ggf-to-logbook.py GGF')
    for n, line in enumerate(open(sys.argv[1]), 1):
        if not line.strip():
            continue
        text, err = convert(line)
        if err:
            print('%s:%d: %s (skipped)' % (sys.argv[1], n, err), file=sys.stderr)
        else:
            print(text)


if __name__ == '__main__':
    main()
