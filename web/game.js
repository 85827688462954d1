/*
 * game.js - one game of Reversi, Reversi 6x6 or Anti Reversi, with no
 * page and no opponent in it: the position, the plies with their flips,
 * undo, the reasons a move is refused, the score by the official count,
 * and loading and writing a game as text.  Every rule is Emilia's own:
 * the legal moves, the flips and the end come from the engine's library
 * (wasm.js), run on the caller's thread.
 *
 * The page (ui.js) drives it against the computer (engine.js) or for two
 * players on one screen; a network mode would drive the same object with
 * the moves a server sends.
 */
(function (root) {
	'use strict';

	const L = root.EmiliaLib;
	const PASS = L.PASS;
	const BLACK = 0, WHITE = 1;
	const COLOUR = ['black', 'white'];
	const KINDS = {
		'8x8': { size: 8, anti: false, title: 'Reversi 8x8' },
		'6x6': { size: 6, anti: false, title: 'Reversi 6x6' },
		anti: { size: 8, anti: true, title: 'Anti Reversi' },
	};

	function capital(s) {
		return s.charAt(0).toUpperCase() + s.slice(1);
	}

	class ReversiGame {
		/* lib: an instance of EmiliaLib; kind: '8x8', '6x6' or 'anti' */
		constructor(lib, kind) {
			if (!KINDS[kind])
				throw new Error('unknown game ' + kind);
			this.lib = lib;
			this.kind = kind;
			this.size = KINDS[kind].size;
			this.anti = KINDS[kind].anti;
			this.title = KINDS[kind].title;
			this.rules = lib.create({ size: this.size, anti: this.anti, hash: 1, book: false });
			this.start = null; /* the OBF line the game began from; null: the standard start */
			this.plies = [];   /* { side, move, flips: [squares] } in order, passes included */
		}

		destroy() {
			this.rules.destroy();
		}

		/* ---- the position ---- */

		/* Every square of the board (row * 8 + column) as 'black', 'white'
		 * or '' (empty). */
		board() {
			const obf = this.rules.obf(), cells = {};
			for (let r = 0, k = 0; r < this.size; r++)
				for (let c = 0; c < this.size; c++, k++) {
					const ch = obf[k];
					cells[r * 8 + c] = ch === 'X' ? 'black' : ch === 'O' ? 'white' : '';
				}
			return cells;
		}

		squares() {
			const list = [];
			for (let r = 0; r < this.size; r++)
				for (let c = 0; c < this.size; c++)
					list.push(r * 8 + c);
			return list;
		}

		/* 'black' or 'white' */
		toMove() {
			return COLOUR[this.rules.sideToMove()];
		}

		isOver() {
			return this.rules.isOver();
		}

		/* the squares the side to move may play ([] when it must pass) */
		legalMoves() {
			return this.rules.legalMoves().filter((m) => m !== PASS);
		}

		mustPass() {
			const m = this.rules.legalMoves();
			return m.length === 1 && m[0] === PASS;
		}

		discs() {
			return this.rules.discs();
		}

		empties() {
			const d = this.discs();
			return this.size * this.size - d.black - d.white;
		}

		/* The result of a finished game: { winner: 'black'|'white'|null,
		 * black, white } by the official count: empty squares go to the
		 * winner and a draw splits them (32-32, 18-18); Anti counts the
		 * discs as they stand, fewer wins.  null while the game goes on. */
		result() {
			if (!this.isOver())
				return null;
			const d = this.discs(), e = this.empties();
			let winner = d.black === d.white ? null : (d.black > d.white) !== this.anti ? 'black' : 'white';
			let black = d.black, white = d.white;
			if (!this.anti) {
				if (winner === 'black')
					black += e;
				else if (winner === 'white')
					white += e;
				else
					black = white = (this.size * this.size) / 2;
			}
			return { winner, black, white };
		}

		/* the last ply that placed a disc, or null */
		lastMove() {
			for (let i = this.plies.length - 1; i >= 0; i--)
				if (this.plies[i].move !== PASS)
					return this.plies[i];
			return null;
		}

		/* ---- moves ---- */

		/* Why `sq` cannot be played by the side to move, or null if it can. */
		whyNot(sq) {
			const name = L.squareName(sq);
			if (this.isOver())
				return 'The game is over: start a new game, or undo.';
			if (!this.squares().includes(sq))
				return name + ' is not on the ' + this.size + 'x' + this.size + ' board.';
			const cells = this.board();
			if (cells[sq])
				return name + ' is taken: a disc goes on an empty square.';
			if (this.legalMoves().includes(sq))
				return null;
			const other = this.toMove() === 'black' ? 'white' : 'black';
			if (this.mustPass())
				return capital(this.toMove()) + ' has no legal move and must pass.';
			return 'No disc placed: ' + name + ' would flip no ' + other +
			       ' disc. A move must outflank at least one; the dots show the legal moves.';
		}

		/* Play a square for the side to move: { ply } with its flips, or
		 * { error } (nothing changed). */
		play(sq) {
			const why = this.whyNot(sq);
			if (why)
				return { error: why };
			return { ply: this.apply(sq) };
		}

		/* The side to move passes (only when it must). */
		pass() {
			if (!this.mustPass())
				return { error: 'A pass is only allowed with no legal move.' };
			return { ply: this.apply(PASS) };
		}

		apply(move) {
			const side = this.toMove(), before = this.board();
			const err = this.rules.play(move);
			if (err)
				throw new Error(err);
			const after = this.board(), flips = [];
			for (const sq of this.squares())
				if (before[sq] && before[sq] !== after[sq])
					flips.push(sq);
			const ply = { side, move, flips };
			this.plies.push(ply);
			return ply;
		}

		/* Take back the last ply; false at the start. */
		undoPly() {
			if (!this.plies.length)
				return false;
			this.rules.undo();
			this.plies.pop();
			return true;
		}

		/* Take back the last move of `side` (any side when null) and every
		 * ply after it: the position where that player moved.  The number
		 * of plies taken back (0: none to take back). */
		undoMove(side) {
			let k = this.plies.length - 1;
			while (k >= 0 && (this.plies[k].move === PASS || (side && this.plies[k].side !== side)))
				k--;
			if (k < 0)
				return 0;
			const n = this.plies.length - k;
			while (this.plies.length > k)
				this.undoPly();
			return n;
		}

		/* ---- text ---- */

		/* the moves from the start position, passes left out ("f5d6c3") */
		transcript() {
			return this.rules.transcript();
		}

		/* The game as one line to share: the transcript, or for a game that
		 * began from a pasted position that position's OBF line, then ';'
		 * and the moves. */
		shareText() {
			return this.start ? this.start + ' ; ' + this.transcript() : this.transcript();
		}

		/* the current position as an OBF line ("--XO... X") */
		obf() {
			return this.rules.obf();
		}

		/* Load what a player pasted: a transcript ("f5d6c3", passes implied
		 * or written), an OBF position ("---...XO-- X", size * size
		 * squares and the side to move), or an OBF position, ';' and the
		 * moves played from it.  On success the game is that one (its start
		 * is the position given, or the standard one) and null is returned;
		 * on failure a message, and the game is unchanged. */
		load(text) {
			const t = String(text).trim();
			if (!t)
				return 'Nothing to load: paste a transcript such as f5d6c3 or a position.';
			if (t.length > 2000)
				return 'That is too long for a game (' + t.length + ' characters).';
			let start = null, moves = t;
			const semi = t.indexOf(';');
			const head = (semi >= 0 ? t.slice(0, semi) : t).trim();
			if (/^[-.xXoO*_bBwW]{16,}(\s+\S*)?$/.test(head)) {
				start = head;
				moves = semi >= 0 ? t.slice(semi + 1).trim() : '';
			} else if (semi >= 0) {
				return 'Before the ";" should be a position (' + this.size * this.size + ' squares of X, O and -, then X or O to move).';
			}
			const trial = this.lib.create({ size: this.size, anti: this.anti, hash: 1, book: false });
			try {
				if (start) {
					const squares = start.split(/\s+/)[0].length;
					if (squares !== this.size * this.size)
						return 'That position has ' + squares + ' squares; ' + this.title + ' has ' + this.size * this.size + '.';
					const err = trial.setObf(start);
					if (err)
						return 'Not a position: ' + err.replace(/^OBF: /, '') + '.';
					start = trial.obf(); /* the engine's spelling of it */
				}
				const list = this.parseMoves(moves);
				if (typeof list === 'string')
					return list;
				/* replay the moves, passes made where a side has no move */
				for (let i = 0; i < list.length; i++) {
					const m = list[i];
					if (m !== PASS && trial.legalMoves().length === 1 && trial.legalMoves()[0] === PASS)
						trial.play(PASS);
					if (trial.isOver())
						return 'The game is over before move ' + (i + 1) + ' (' + L.squareName(m) + ').';
					const err = trial.play(m);
					if (err)
						return 'Move ' + (i + 1) + ', ' + L.squareName(m) + ', is illegal for ' +
						       COLOUR[trial.sideToMove()] + ': nothing was loaded.';
				}
			} finally {
				trial.destroy();
			}
			this.reset(start);
			for (const m of this.parseMoves(moves)) {
				if (m !== PASS && this.mustPass())
					this.apply(PASS);
				this.apply(m);
			}
			return null;
		}

		/* A transcript as a list of squares and passes, or a message. */
		parseMoves(text) {
			const s = text.replace(/\s+/g, '').toLowerCase();
			const list = [];
			const re = /pass|pa|--|[a-z][0-9]/g;
			let pos = 0, m;
			while ((m = re.exec(s)) !== null) {
				if (m.index !== pos)
					break;
				pos = re.lastIndex;
				if (m[0] === 'pass' || m[0] === 'pa' || m[0] === '--') {
					list.push(PASS);
					continue;
				}
				const sq = L.parseSquare(m[0], this.size);
				if (sq < 0)
					return 'Move ' + (list.length + 1) + ', ' + m[0] + ', is not a square of the ' + this.size + 'x' +
					       this.size + ' board: nothing was loaded.';
				list.push(sq);
			}
			if (pos !== s.length)
				return 'Not a transcript: "' + s.slice(pos, pos + 12) + '" at character ' + (pos + 1) +
				       ' is no move. A transcript is squares such as f5d6c3.';
			if (list.length > 2 * 64)
				return 'Too many moves for one game.';
			return list;
		}

		/* Back to the start: the standard one, or the OBF line `start`. */
		reset(start) {
			if (start)
				this.rules.setObf(start);
			else
				this.rules.newGame();
			this.start = start || null;
			this.plies = [];
		}
	}

	const api = { ReversiGame, KINDS, PASS, BLACK, WHITE, COLOUR };
	root.EmiliaGame = api;
	if (typeof module === 'object' && module.exports)
		module.exports = api;
})(typeof self !== 'undefined' ? self : globalThis);
