/*
 * ui.js - the page: the board, the controls, the messages and the
 * keyboard, for a game (game.js) against Emilia (engine.js) or between two
 * players on one screen.  review.js draws the review.
 *
 * URL parameters start a game: game=8x8|6x6|anti, level=easy|normal|hard,
 * color=black|white (the player's colour against Emilia; random without
 * it), players=2 (two players on one screen), seed=N (the same random
 * choices of Easy and Normal every time).
 *
 * online.js shows a table of `emilia serve` on the same board: while it
 * does (ui.remote, set by setRemote), this game waits, drawn by nobody,
 * and the board's clicks go to online.js; reviewGame() opens a saved game
 * of the server in the review.
 */
(function () {
	'use strict';

	const L = EmiliaLib, G = EmiliaGame, E = EmiliaEngine;
	const PASS = L.PASS;
	const $ = (id) => document.getElementById(id);
	/* Emilia's moves are shown no sooner than this after the player's (ms),
	 * so that both moves' flips can be seen */
	const MIN_REPLY_MS = 350;
	/* the review's search (`emilia review --level 10 --exact-from 16`) */
	const REVIEW = { depth: 10, exactFrom: 16, hash: 16 };
	const LEVEL_TEXT = { easy: 'Easy', normal: 'Normal', hard: 'Hard' };
	/* what each level's move takes here (bench/results/web-results.md); the caps are engine.js's */
	const LEVEL_TIME = { easy: 'instant', normal: 'under a second', hard: 'about 3 s a move' };

	const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
	const other = (c) => (c === 'black' ? 'white' : 'black');

	const ui = {
		lib: null,
		cpu: null,
		game: null,
		kind: '8x8',
		players: 1,          /* 1: against Emilia, 2: two players */
		level: 'easy',
		colourChoice: 'random',
		human: 'black',
		thinking: false,
		token: 0,            /* bumped when a pending engine move must be ignored */
		cursor: 19,          /* the keyboard's square */
		viewing: null,       /* the review's move shown on the board, or null */
		reviewDoc: null,
		reviewing: false,
		typed: '',
		remote: null,        /* online.js's table while one is shown: { size, click(sq) } */
		reviewNames: null,   /* the players' names of a game loaded for its review */
		/* performance.now() when the board first took clicks and when Emilia's first
		 * move was shown (bench/scripts/web-first-move.py reads them) */
		timings: { board: 0, firstMove: 0 },
	};

	/* ---- set-up ---- */

	function readParams() {
		const p = new URLSearchParams(location.search);
		const pick = (name, allowed, fallback) => (allowed.includes(p.get(name)) ? p.get(name) : fallback);
		ui.kind = pick('game', ['8x8', '6x6', 'anti'], '8x8');
		ui.level = pick('level', ['easy', 'normal', 'hard'], 'easy');
		ui.colourChoice = pick('color', ['black', 'white'], 'random');
		ui.players = p.get('players') === '2' ? 2 : 1;
		/* seed=N: Easy's and Normal's random choices the same every time (tests) */
		ui.seed = /^[1-9][0-9]{0,14}$/.test(p.get('seed') || '') ? Number(p.get('seed')) : 0;
		$('game').value = ui.kind;
		$('level').value = ui.level;
		$('color').value = ui.colourChoice;
		$('players').value = String(ui.players);
	}

	async function start() {
		readParams();
		bindControls();
		setStatus('Loading Emilia…');
		try {
			const module = L.compile('emilia.wasm');
			ui.cpu = new E.EngineClient({ module });
			ui.cpu.onInfo = showInfo;
			ui.cpu.onError = (msg) => say('Emilia cannot play: ' + msg, 'error');
			ui.lib = await L.instantiate(await module);
			newGame();
			ui.timings.board = performance.now();
			document.body.dataset.ready = 'true';
		} catch (e) {
			setStatus('Emilia could not start: ' + (e.message || e));
			say('This browser could not run Emilia (' + (e.message || e) + ').', 'error');
		}
	}

	function bindControls() {
		$('new').addEventListener('click', () => newGame());
		$('undo').addEventListener('click', () => undo());
		$('game').addEventListener('change', () => { ui.kind = $('game').value; newGame(); });
		$('players').addEventListener('change', () => { ui.players = Number($('players').value); newGame(); });
		$('color').addEventListener('change', () => { ui.colourChoice = $('color').value; newGame(); });
		$('level').addEventListener('change', () => {
			ui.level = $('level').value;
			say('Level ' + LEVEL_TEXT[ui.level] + ' from Emilia\'s next move.');
		});
		$('copy').addEventListener('click', copyTranscript);
		$('load').addEventListener('click', () => loadText($('paste').value));
		$('paste').addEventListener('keydown', (ev) => {
			if (ev.key === 'Enter' && !ev.shiftKey) {
				ev.preventDefault();
				loadText($('paste').value);
			}
		});
		$('review-button').addEventListener('click', () => startReview());
		$('back').addEventListener('click', () => view(null));
		$('board').addEventListener('click', (ev) => {
			const cell = ev.target.closest('[data-square]');
			if (cell)
				clickSquare(Number(cell.dataset.sq));
		});
		$('board').addEventListener('keydown', boardKey);
		document.addEventListener('keydown', pageKey);
	}

	/* ---- the game ---- */

	function newGame() {
		if (!ui.lib)
			return;
		stopThinking();
		ui.reviewDoc = null;
		ui.reviewing = false;
		ui.viewing = null;
		ui.reviewNames = null;
		if (ui.game)
			ui.game.destroy();
		ui.game = new G.ReversiGame(ui.lib, ui.kind);
		ui.human = ui.colourChoice === 'random' ? (Math.random() < 0.5 ? 'black' : 'white') : ui.colourChoice;
		ui.cursor = ui.game.size === 8 ? 19 : 9; /* d3 / b2 */
		buildBoard();
		$('review').hidden = true;
		if (ui.players === 1) {
			ui.cpu.use(ui.kind);
			ui.cpu.newGame(ui.seed);
			say('New game of ' + ui.game.title + ': you play ' + capital(ui.human) +
			    (ui.colourChoice === 'random' ? ' (drawn at random)' : '') + ', Emilia ' + capital(other(ui.human)) +
			    ' at level ' + LEVEL_TEXT[ui.level] + '.');
		} else {
			say('New game of ' + ui.game.title + ' for two players: Black begins.');
		}
		advance();
	}

	/* Whose turn is it to do what: passes, Emilia's move, or a player's. */
	function advance() {
		const g = ui.game;
		if (ui.remote)
			return; /* an online table is shown: this game goes on when it is left */
		const notices = [];
		while (!g.isOver() && g.mustPass()) {
			const who = g.toMove();
			g.pass();
			notices.push(capital(who) + ' has no legal move and passes; ' + capital(other(who)) + ' plays again.');
		}
		if (notices.length)
			say(notices.join(' '), 'pass');
		if (g.isOver()) {
			render();
			gameOver();
			return;
		}
		if (ui.players === 1 && g.toMove() !== ui.human) {
			think();
			return;
		}
		render();
	}

	function think() {
		const g = ui.game, token = ++ui.token, t0 = performance.now();
		ui.thinking = true;
		render();
		showInfo(null);
		ui.cpu.move(g.obf(), ui.level).then((r) => {
			if (token !== ui.token)
				return;
			const wait = Math.max(0, MIN_REPLY_MS - (performance.now() - t0));
			setTimeout(() => {
				if (token !== ui.token)
					return;
				ui.thinking = false;
				const res = g.play(r.move);
				if (res.error) {
					say('Emilia chose ' + L.squareName(r.move) + ', which is not legal: ' + res.error, 'error');
					render();
					return;
				}
				if (!ui.timings.firstMove)
					ui.timings.firstMove = performance.now();
				advance();
			}, wait);
		}, (e) => {
			if (token !== ui.token || e.stopped)
				return;
			ui.thinking = false;
			say('Emilia could not move: ' + (e.message || e), 'error');
			render();
		});
	}

	/* End Emilia's search at once, and forget its move. */
	function stopThinking() {
		ui.token++;
		if (ui.thinking || (ui.cpu && ui.cpu.busy))
			ui.cpu.stop();
		ui.thinking = false;
		ui.reviewing = false;
	}

	function clickSquare(sq) {
		if (ui.remote) {
			ui.cursor = sq;
			ui.remote.click(sq);
			return;
		}
		const g = ui.game;
		if (!g)
			return;
		ui.cursor = sq;
		if (ui.viewing !== null) {
			say('You are looking at the review: press "Back to the game" to play.', 'refused');
			return;
		}
		if (ui.thinking) {
			say('Emilia is thinking: nothing placed on ' + L.squareName(sq) +
			    '. Wait for her move, or press Undo or New game.', 'refused');
			return;
		}
		if (ui.players === 1 && g.toMove() !== ui.human && !g.isOver()) {
			say('It is Emilia\'s turn: nothing placed.', 'refused');
			return;
		}
		const res = g.play(sq);
		if (res.error) {
			say(res.error, 'refused');
			renderCursor();
			return;
		}
		say('');
		advance();
	}

	function undo() {
		const g = ui.game;
		if (!g || ui.remote)
			return;
		const wasThinking = ui.thinking;
		stopThinking();
		view(null, true);
		const n = g.undoMove(ui.players === 1 ? ui.human : null);
		ui.reviewDoc = null;
		$('review').hidden = true;
		if (n === 0) {
			say(ui.players === 1 ? 'Nothing to undo: you have not moved yet.' : 'Nothing to undo.', 'refused');
		} else if (ui.players === 1) {
			say((wasThinking ? 'Emilia\'s search was stopped. ' : '') + 'Took back your move' +
			    (n > 1 ? ' and Emilia\'s reply' : '') + '.');
		} else {
			say('Took back ' + capital(g.toMove()) + '\'s move.');
		}
		advance();
	}

	function gameOver() {
		const g = ui.game, r = g.result();
		/* a pass always comes before the last move: its notice is stale now */
		if ($('message').dataset.kind === 'pass')
			say('');
		const score = r.black + '-' + r.white;
		let text;
		if (!r.winner)
			text = 'Game over: a draw, ' + score + '.';
		else if (ui.players === 1)
			text = 'Game over: ' + (r.winner === ui.human ? 'you win' : 'Emilia wins') + ', ' + score +
			       (g.anti ? ' (Anti: fewer discs wins).' : '.');
		else
			text = 'Game over: ' + capital(r.winner) + ' wins, ' + score + (g.anti ? ' (fewer discs wins).' : '.');
		const e = g.empties();
		if (!g.anti && e > 0)
			text += ' The ' + e + ' empty square' + (e > 1 ? 's go' : ' goes') + (r.winner ? ' to the winner.' : ' are shared.');
		setStatus(text);
		$('status').classList.add('over');
	}

	/* ---- loading and sharing ---- */

	function loadText(text) {
		const g = ui.game;
		if (!g)
			return;
		view(null, true);
		const err = g.load(text);
		if (err) {
			say('Nothing loaded: ' + err, 'error');
			$('paste').setAttribute('aria-invalid', 'true');
			return;
		}
		$('paste').removeAttribute('aria-invalid');
		stopThinking();
		ui.reviewDoc = null;
		$('review').hidden = true;
		say('Loaded ' + (g.start ? 'a position' : 'a game') + ' of ' + g.plies.filter((p) => p.move !== PASS).length +
		    ' moves; ' + capital(g.toMove()) + ' to move.');
		advance();
	}

	function copyTranscript() {
		const text = ui.game.shareText();
		if (!text) {
			say('No moves yet: the transcript is empty.');
			return;
		}
		const done = () => say('Copied the transcript: ' + text);
		const manual = () => say('The transcript is selected; copy it with Ctrl+C: ' + text);
		/* the synchronous copy of the selected text works in the click's own turn; the
		   asynchronous clipboard is the fallback, and a clipboard that never answers
		   leaves the selected text and this message */
		if (selectTranscript()) {
			done();
		} else if (navigator.clipboard && window.isSecureContext) {
			manual();
			navigator.clipboard.writeText(text).then(done, manual);
		} else {
			manual();
		}
	}

	function selectTranscript() {
		const t = $('transcript');
		t.focus();
		t.select();
		try {
			return document.execCommand('copy');
		} catch (e) {
			return false; /* the text stays selected for the player to copy */
		}
	}

	/* ---- review ---- */

	function startReview() {
		const g = ui.game;
		if (!g.isOver()) {
			say('The review is for a finished game.', 'refused');
			return;
		}
		if (ui.reviewing)
			return;
		ui.reviewing = true;
		const names = ui.reviewNames ? ui.reviewNames : ui.players === 1
			? { black: ui.human === 'black' ? 'You' : 'Emilia ' + LEVEL_TEXT[ui.level], white: ui.human === 'white' ? 'You' : 'Emilia ' + LEVEL_TEXT[ui.level] }
			: { black: 'Black', white: 'White' };
		$('review').hidden = false;
		EmiliaReview.progress($('review'), 0, 1);
		ui.cpu.use(ui.kind);
		ui.cpu.review(Object.assign({ start: g.start || '', moves: g.transcript(), size: g.size, anti: g.anti },
		                            names, REVIEW), (p) => EmiliaReview.progress($('review'), p.done, p.total))
			.then((doc) => {
				if (!ui.reviewing)
					return;
				ui.reviewing = false;
				ui.reviewDoc = doc;
				EmiliaReview.render($('review'), doc, REVIEW, (n) => view(n));
				say('The review is below the board: click a move to see its position.');
			}, (e) => {
				ui.reviewing = false;
				if (!e.stopped)
					say('The review failed: ' + (e.message || e), 'error');
			});
	}

	/* Show the position before move n of the review (null: the game). */
	function view(n, quiet) {
		ui.viewing = n;
		$('viewing').hidden = n === null;
		if (n !== null) {
			const m = ui.reviewDoc.moves[n - 1];
			$('viewing-text').textContent = 'Move ' + n + ': ' + capital(m.player) + ' played ' + m.move +
				(m.best !== m.move ? ', best was ' + m.best + ' (' + m.loss + ' disc' + (m.loss === 1 ? '' : 's') + ' lost)' : ', the best move') + '.';
		}
		if (!quiet)
			render();
	}

	/* the board before move n of the game (1-based, passes not counted) */
	function positionBefore(n) {
		const g = ui.game, t = new G.ReversiGame(ui.lib, g.kind);
		t.reset(g.start);
		let count = 0;
		for (const p of g.plies) {
			if (p.move !== PASS && ++count === n)
				break;
			t.apply(p.move);
		}
		const cells = t.board();
		const last = t.lastMove();
		t.destroy();
		return { cells, last };
	}

	/* ---- drawing ---- */

	function buildBoard() {
		const g = ui.game, board = $('board');
		if (ui.remote)
			return;
		delete board.dataset.remote;
		board.innerHTML = '';
		board.style.setProperty('--n', g.size);
		board.dataset.size = g.size;
		const cols = 'abcdefgh'.slice(0, g.size);
		$('cols').innerHTML = cols.split('').map((c) => '<span>' + c + '</span>').join('');
		$('rows').innerHTML = Array.from({ length: g.size }, (_, i) => '<span>' + (i + 1) + '</span>').join('');
		$('cols').style.setProperty('--n', g.size);
		$('rows').style.setProperty('--n', g.size);
		for (const sq of g.squares()) {
			const cell = document.createElement('div');
			cell.className = 'sq';
			cell.dataset.square = L.squareName(sq);
			cell.dataset.sq = sq;
			cell.setAttribute('role', 'gridcell');
			cell.tabIndex = -1;
			cell.innerHTML = '<span class="disc"></span>';
			board.appendChild(cell);
		}
	}

	function render() {
		const g = ui.game, board = $('board');
		if (ui.remote || !g)
			return;
		const viewing = ui.viewing !== null;
		const shown = viewing ? positionBefore(ui.viewing) : { cells: g.board(), last: g.lastMove() };
		const legal = viewing || g.isOver() ? [] : g.legalMoves();
		const humanTurn = !viewing && !ui.thinking && !g.isOver() && (ui.players === 2 || g.toMove() === ui.human);
		/* the discs the last move flipped turn over once, when it is new */
		const lastPly = g.lastMove();
		const fresh = new Set(viewing || !lastPly || ui.flipSeen === g.plies.length ? [] : lastPly.flips);
		const rm = viewing ? ui.reviewDoc.moves[ui.viewing - 1] : null;
		board.dataset.toMove = g.isOver() ? 'none' : g.toMove();
		board.dataset.thinking = ui.thinking ? 'true' : 'false';
		board.dataset.over = g.isOver() ? 'true' : 'false';
		board.dataset.moves = g.transcript();
		board.classList.toggle('human-turn', humanTurn);
		board.classList.toggle('thinking', ui.thinking);
		board.classList.toggle('viewing', viewing);
		for (const cell of board.children) {
			const sq = Number(cell.dataset.sq), disc = shown.cells[sq];
			const name = cell.dataset.square;
			cell.dataset.disc = disc;
			cell.firstChild.className = 'disc' + (disc ? ' ' + disc : '') +
				(fresh.has(sq) ? ' flipped' : '');
			toggleAttr(cell, 'data-legal', legal.includes(sq));
			toggleAttr(cell, 'data-last', !!shown.last && shown.last.move === sq);
			toggleAttr(cell, 'data-played', !!rm && rm.move === name);
			toggleAttr(cell, 'data-best', !!rm && rm.best === name && rm.best !== rm.move);
			cell.setAttribute('aria-label', name + ', ' + (disc || 'empty') + (legal.includes(sq) ? ', legal move' : '') +
			                  (shown.last && shown.last.move === sq ? ', last move' : ''));
		}
		ui.flipSeen = g.plies.length;
		renderCursor();
		renderScore();
		renderMoves();
		delete $('moves').dataset.remote;
		$('transcript').value = g.shareText();
		$('thinking').hidden = !ui.thinking;
		$('undo').disabled = false;
		$('review-button').hidden = !g.isOver();
		if (!g.isOver()) {
			$('status').classList.remove('over');
			if (ui.thinking)
				setStatus(capital(g.toMove()) + ' to move: Emilia\'s turn.');
			else if (ui.players === 1)
				setStatus('Your move: you play ' + capital(ui.human) + '.');
			else
				setStatus(capital(g.toMove()) + ' to move.');
		}
	}

	function toggleAttr(el, name, on) {
		if (on)
			el.setAttribute(name, '');
		else
			el.removeAttribute(name);
	}

	function renderCursor() {
		for (const cell of $('board').children) {
			const on = Number(cell.dataset.sq) === ui.cursor;
			cell.tabIndex = on ? 0 : -1;
			cell.classList.toggle('cursor', on && ui.keyboard === true);
		}
	}

	function renderScore() {
		const g = ui.game, d = g.discs(), over = g.isOver();
		$('count-black').textContent = d.black;
		$('count-white').textContent = d.white;
		const name = (c) => (ui.players === 2 ? capital(c) : c === ui.human ? 'You' : 'Emilia');
		$('name-black').textContent = name('black');
		$('name-white').textContent = name('white');
		$('side-black').classList.toggle('to-move', !over && g.toMove() === 'black');
		$('side-white').classList.toggle('to-move', !over && g.toMove() === 'white');
		const r = g.result();
		$('official').hidden = !r;
		if (r)
			$('official').textContent = (g.anti ? 'Final score (discs as they stand): ' : 'Final score (empty squares to the winner): ') +
				'Black ' + r.black + ' - White ' + r.white;
		$('official').dataset.black = r ? r.black : '';
		$('official').dataset.white = r ? r.white : '';
	}

	function renderMoves() {
		const g = ui.game, list = $('moves');
		list.innerHTML = '';
		let n = 0;
		for (const p of g.plies) {
			const li = document.createElement('li');
			li.className = p.side + (p.move === PASS ? ' pass' : '');
			li.textContent = p.move === PASS ? 'pass' : (++n) + '. ' + L.squareName(p.move);
			list.appendChild(li);
		}
		list.scrollTop = list.scrollHeight;
	}

	function setStatus(text) {
		$('status').textContent = text;
	}

	/* A message for the player (kind: '' / 'refused' / 'pass' / 'error'). */
	function say(text, kind) {
		const m = $('message');
		m.textContent = text;
		m.dataset.kind = kind || '';
		m.hidden = !text;
	}

	function showInfo(info) {
		const t = $('thinking-detail');
		if (!info) {
			t.textContent = '(' + LEVEL_TEXT[ui.level] + ': ' + LEVEL_TIME[ui.level] + ')';
			return;
		}
		t.textContent = '(' + LEVEL_TEXT[ui.level] + ', depth ' + info.depth + (info.exact ? ', solved' : '') + ', ' +
		                info.seconds.toFixed(1) + ' s)';
	}

	/* ---- keyboard ---- */

	function boardKey(ev) {
		const g = ui.remote || ui.game;
		if (!g)
			return;
		const r = ui.cursor >> 3, c = ui.cursor & 7;
		const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
		if (moves[ev.key]) {
			const nr = Math.min(g.size - 1, Math.max(0, r + moves[ev.key][0]));
			const nc = Math.min(g.size - 1, Math.max(0, c + moves[ev.key][1]));
			ui.cursor = nr * 8 + nc;
			ui.keyboard = true;
			renderCursor();
			const cell = $('board').querySelector('[data-sq="' + ui.cursor + '"]');
			if (cell)
				cell.focus();
			ev.preventDefault();
		} else if (ev.key === 'Enter' || ev.key === ' ') {
			ui.keyboard = true;
			clickSquare(ui.cursor);
			ev.preventDefault();
		}
	}

	function pageKey(ev) {
		const tag = (ev.target.tagName || '').toLowerCase();
		if (tag === 'input' || tag === 'textarea' || tag === 'select' || ev.ctrlKey || ev.metaKey || ev.altKey)
			return;
		const k = ev.key.toLowerCase();
		if (ui.remote && !/^[a-h1-8]$/.test(k))
			return; /* an online table: squares only */
		if (/^[a-h]$/.test(k)) {
			ui.typed = k;
			return;
		}
		if (/^[1-8]$/.test(k) && ui.typed) {
			const sq = L.parseSquare(ui.typed + k, (ui.remote || ui.game).size);
			ui.typed = '';
			if (sq >= 0) {
				ui.keyboard = true;
				clickSquare(sq);
			}
			return;
		}
		ui.typed = '';
		if (k === 'u')
			undo();
		else if (k === 'n')
			newGame();
		else if (k === 'r' && ui.game && ui.game.isOver())
			startReview();
	}

	/* ---- online.js's hooks ---- */

	/* remote: { size, click(sq) } while online.js shows a table on the board
	 * (this game waits, and its search is stopped); null gives the board
	 * back to this game. */
	function setRemote(remote) {
		const was = ui.remote;
		if (remote && !was) {
			stopThinking();
			view(null, true);
			$('review').hidden = true;
		}
		ui.remote = remote;
		document.querySelector('.controls').hidden = !!remote;
		$('share').hidden = !!remote;
		$('review-button').hidden = true;
		$('thinking').hidden = true;
		document.body.dataset.remote = remote ? 'true' : 'false';
		if (!remote && was && ui.game) {
			say('');
			$('status').classList.remove('over');
			buildBoard();
			advance();
		}
	}

	/* Review a game saved by the server: kind '8x8' / '6x6' / 'anti', the
	 * game as game.js loads it (transcript, or OBF ; moves), the players'
	 * names.  null, or why it could not be loaded. */
	function reviewGame(kind, text, names) {
		if (!ui.lib)
			return 'Emilia has not started yet.';
		setRemote(null);
		ui.kind = kind;
		ui.players = 2;
		$('game').value = kind;
		$('players').value = '2';
		newGame();
		const err = ui.game.load(text);
		if (err) {
			newGame();
			return err;
		}
		ui.reviewNames = names || null;
		advance();
		if (!ui.game.isOver())
			return 'the saved game is not finished.';
		startReview();
		return null;
	}

	ui.setRemote = setRemote;
	ui.reviewGame = reviewGame;

	window.addEventListener('DOMContentLoaded', start);
	window.EmiliaUI = ui;
})();
