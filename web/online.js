/*
 * online.js - the page's online tables: a table for two (or against
 * Emilia) held by `emilia serve` (docs/serve.md, the protocol), over one
 * WebSocket at /ws of the page's own host.
 *
 * The server holds the game: the board, the legal moves, the side to move
 * and the clocks are drawn from its `state` messages as they come, and a
 * click on a legal square sends {"t":"move","move":"d3","ply":N}.  While a
 * table is shown, ui.js's own game waits (EmiliaUI.setRemote); leaving the
 * table gives the board back to it.
 *
 * The seat token is kept in sessionStorage per table code, and the page's
 * address carries #table=CODE, so a reload takes the seat back ({"t":
 * "resume"}); the same address in another browser joins the table.  The
 * socket is opened when the Online panel is opened (or the address names a
 * table), so that a page served by a plain static server logs nothing;
 * there, or from file://, the panel says online play needs `emilia serve`.
 */
(function () {
	'use strict';

	const $ = (id) => document.getElementById(id);
	const GAME_TEXT = { reversi: 'Reversi', '6x6': 'Reversi 6x6', anti: 'Anti Reversi' };
	const GAME_KIND = { reversi: '8x8', '6x6': '6x6', anti: 'anti' }; /* ui.js's names */
	const VS_TEXT = { easy: 'Emilia Easy', normal: 'Emilia Normal', hard: 'Emilia Hard' };
	const PING_MS = 30000;
	const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000, 30000];
	const CODE_RE = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}$/;
	const NEEDS_SERVER = 'Online play needs `emilia serve`: this page was not served by it ' +
		'(start it with `emilia serve` and open the address it prints). Play on this page is unaffected.';

	const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
	const other = (c) => (c === 'black' ? 'white' : 'black');
	const squareName = (r, c) => 'abcdefgh'[c] + (r + 1);

	const on = {
		ws: null,
		connected: false,
		everConnected: false,
		failures: 0,        /* connection attempts that failed in a row */
		retryTimer: 0,
		pingTimer: 0,
		queue: [],          /* messages waiting for the connection */
		wantLobby: false,
		code: null,         /* the table shown, or null */
		color: null,        /* our seat's colour; null when watching */
		role: null,         /* 'seat' or 'watch' */
		table: null,        /* the last table object */
		received: 0,        /* performance.now() when `table` came */
		sentPly: -1,        /* the ply of a move sent and not yet answered */
		pending: null,      /* what we asked that an error would answer: 'resume', 'join', ... */
		tickTimer: 0,
		size: 8,
		lastSeen: -1,       /* the ply last drawn (flip animation, notices) */
		leaveArmed: 0,
	};

	/* ---- storage: the seat token per code ---- */

	function seatKey(code) {
		return 'emilia-seat-' + code;
	}
	function savedSeat(code) {
		try {
			const v = JSON.parse(sessionStorage.getItem(seatKey(code)) || 'null');
			return v && typeof v.token === 'string' ? v : null;
		} catch (e) {
			return null;
		}
	}
	function saveSeat(code, token, color) {
		try {
			sessionStorage.setItem(seatKey(code), JSON.stringify({ token, color }));
		} catch (e) { /* private mode: a reload will join as a watcher */ }
	}
	function forgetSeat(code) {
		try {
			sessionStorage.removeItem(seatKey(code));
		} catch (e) { /* nothing kept */ }
	}

	function hashCode() {
		const m = /(?:^#|&)table=([A-Za-z0-9]{6})(?:&|$)/.exec(location.hash);
		return m ? m[1].toUpperCase() : null;
	}
	function setHash(code) {
		const url = location.pathname + location.search + (code ? '#table=' + code : '');
		try {
			history.replaceState(null, '', url);
		} catch (e) {
			location.hash = code ? 'table=' + code : '';
		}
	}
	function tableLink(code) {
		return location.origin + location.pathname + location.search + '#table=' + code;
	}

	/* ---- the connection ---- */

	function available() {
		return location.protocol === 'http:' || location.protocol === 'https:';
	}

	function connect() {
		if (on.ws || !available())
			return;
		clearTimeout(on.retryTimer);
		on.retryTimer = 0;
		const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
		let ws;
		try {
			ws = new WebSocket(url);
		} catch (e) {
			unavailable();
			return;
		}
		on.ws = ws;
		if (!on.everConnected)
			status('Connecting to the server…');
		ws.onopen = () => {
			if (on.ws !== ws)
				return;
			on.connected = true;
			on.everConnected = true;
			on.failures = 0;
			document.body.dataset.online = 'connected';
			delete $('online-box').dataset.unavailable;
			status(on.code ? '' : 'Connected: open a table, join one by its code, or pick one below.');
			/* take back what we had: the seat, the watched table, the lobby */
			if (on.code) {
				const seat = savedSeat(on.code);
				if (seat)
					request({ t: 'resume', code: on.code, token: seat.token }, 'resume');
				else
					request({ t: on.role === 'watch' ? 'watch' : 'join', code: on.code }, 'join');
			}
			if (on.wantLobby && !on.code)
				send({ t: 'lobby', on: true });
			const q = on.queue;
			on.queue = [];
			for (const m of q)
				send(m);
			clearInterval(on.pingTimer);
			on.pingTimer = setInterval(() => send({ t: 'ping' }), PING_MS);
		};
		ws.onmessage = (ev) => {
			if (on.ws !== ws)
				return;
			let m;
			try {
				m = JSON.parse(ev.data);
			} catch (e) {
				return;
			}
			if (m && typeof m.t === 'string')
				receive(m);
		};
		ws.onclose = () => {
			if (on.ws !== ws)
				return;
			on.ws = null;
			on.connected = false;
			clearInterval(on.pingTimer);
			on.sentPly = -1;
			on.failures++;
			if (!on.everConnected) {
				unavailable();
			} else {
				document.body.dataset.online = 'reconnecting';
				const wait = BACKOFF_MS[Math.min(on.failures - 1, BACKOFF_MS.length - 1)];
				status('The connection to the server was lost: reconnecting in ' + Math.ceil(wait / 1000) + ' s…');
				retry(wait);
			}
			render();
		};
	}

	function retry(wait) {
		clearTimeout(on.retryTimer);
		on.retryTimer = setTimeout(() => {
			on.retryTimer = 0;
			if (on.code || on.wantLobby || on.queue.length)
				connect();
		}, wait + Math.floor(Math.random() * 250));
	}

	/* No server for online tables here: say so; try again now and then while
	 * the panel is open (a server that was starting). */
	function unavailable() {
		document.body.dataset.online = 'unavailable';
		status(NEEDS_SERVER);
		$('online-box').dataset.unavailable = 'true';
		if (available() && on.failures < 4)
			retry(BACKOFF_MS[Math.min(on.failures + 2, BACKOFF_MS.length - 1)]);
	}

	function send(m) {
		if (on.connected && on.ws && on.ws.readyState === 1) {
			on.ws.send(JSON.stringify(m));
			return true;
		}
		if (m.t !== 'ping' && m.t !== 'lobby') {
			on.queue.push(m);
			if (!available()) {
				unavailable();
				on.queue = [];
			} else {
				connect();
			}
		}
		return false;
	}

	function request(m, what) {
		on.pending = what;
		send(m);
	}

	/* ---- messages from the server ---- */

	function receive(m) {
		switch (m.t) {
		case 'seated':
			on.pending = null;
			if (typeof m.token === 'string')
				saveSeat(m.code, m.token, m.color);
			showTable(m.code, 'seat', m.color, m.table);
			break;
		case 'watching':
			on.pending = null;
			showTable(m.code, 'watch', null, m.table);
			break;
		case 'state':
			if (m.table && m.table.code === on.code)
				update(m.table);
			break;
		case 'lobby':
			renderLobby(Array.isArray(m.tables) ? m.tables : []);
			break;
		case 'error':
			failed(m);
			break;
		default: /* pong */
			break;
		}
	}

	function failed(m) {
		const text = typeof m.message === 'string' && m.message ? m.message : 'The server refused: ' + m.error + '.';
		const what = on.pending;
		on.pending = null;
		on.sentPly = -1;
		if (what === 'resume' && on.code) {
			/* the seat is no longer ours: look on as a watcher (or take a free seat) */
			forgetSeat(on.code);
			request({ t: 'join', code: on.code }, 'join');
			say('Your seat could not be taken back (' + text + ') You are watching.', 'error');
			return;
		}
		if ((what === 'join' || what === 'watch') && on.code && !on.table) {
			/* a code with no table (or one of the address that is no more) */
			on.code = null;
			on.role = null;
			on.color = null;
			setHash(null);
			status('');
		}
		say(text, 'error');
		render();
	}

	function showTable(code, role, color, table) {
		const first = on.code !== code || !on.table;
		on.code = code;
		on.role = role;
		on.color = color;
		on.sentPly = -1;
		setHash(code);
		if (on.wantLobby)
			send({ t: 'lobby', on: false });
		if (first) {
			on.lastSeen = -1;
			$('online-box').open = true;
			say(role === 'seat' ? 'You play ' + capital(color) + ' at table ' + code + '.' :
				'You are watching table ' + code + '.');
		}
		update(table);
	}

	function update(table) {
		if (!table || typeof table !== 'object')
			return;
		const prev = on.table;
		on.table = table;
		on.received = performance.now();
		on.size = table.size === 6 || table.game === '6x6' ? 6 : 8;
		const sent = on.sentPly;
		if (typeof table.ply === 'number' && table.ply !== on.sentPly)
			on.sentPly = -1;
		notices(prev, table, sent);
		if (window.EmiliaUI && window.EmiliaUI.setRemote)
			window.EmiliaUI.setRemote({ size: on.size, click });
		render();
	}

	/* what a new state means for the player: a move Emilia made for a
	 * player whose time ran out, an undo, the end */
	function notices(prev, t, sent) {
		if (!prev || prev.code !== t.code)
			return;
		const last = t.last;
		/* a forced pass comes in the same state as the move before it */
		const passed = t.ply > prev.ply && last && last.by === 'auto' && last.move === 'pass';
		if (passed && t.ply - prev.ply >= 2 && prev.to_move === on.color && sent !== prev.ply && !t.result) {
			say('Your time ran out: Emilia moved for you (' + t.moves[t.ply - 2] + '); ' + capital(last.color) +
			    ' has no legal move and passes.', 'pass');
		} else if (passed && !t.result) {
			say(capital(last.color) + ' has no legal move and passes; ' + capital(other(last.color)) + ' plays again.', 'pass');
		} else if (t.ply > prev.ply && last && last.by === 'timeout') {
			if (last.color === on.color)
				say('Your time ran out: Emilia moved for you (' + last.move + ').', 'pass');
			else
				say(capital(last.color) + '\'s time ran out: Emilia moved for them (' + last.move + ').', 'pass');
		} else if (t.ply < prev.ply) {
			say('Moves taken back: ' + capital(t.to_move) + ' to move.');
		} else if (t.undo_offer && !prev.undo_offer && t.undo_offer.by !== on.color) {
			say(capital(t.undo_offer.by) + ' asks to take back their last move.');
		} else if (prev.undo_offer && !t.undo_offer && t.ply === prev.ply && prev.undo_offer.by === on.color) {
			say('Your request to take back a move was declined.', 'refused');
		} else if (t.ply > prev.ply && last && last.color === on.color && last.by === 'player' &&
		           on.message && on.message.kind !== 'error') {
			say(''); /* our own move arrived: the notices before it are old */
		}
		for (const c of ['black', 'white'])
			if (prev.seats && t.seats && prev.seats[c] && t.seats[c] && prev.seats[c].state !== t.seats[c].state &&
			    t.seats[c].state === 'gone' && c !== on.color && !(t.result && prev.result))
				say(capital(c) + ' left the table: Emilia plays ' + capital(c) + ' to the end.', 'pass');
	}

	/* ---- what the player does ---- */

	function click(sq) {
		const t = on.table;
		if (!t)
			return;
		const name = 'abcdefgh'[sq & 7] + ((sq >> 3) + 1);
		if (on.role !== 'seat') {
			say('You are watching: nothing placed.', 'refused');
			return;
		}
		if (t.result || t.to_move === 'none') {
			say('The game is over.', 'refused');
			return;
		}
		if (t.to_move !== on.color) {
			say('It is ' + capital(t.to_move) + '\'s turn: nothing placed.', 'refused');
			return;
		}
		if (on.sentPly === t.ply)
			return; /* a move is on its way */
		if (!(t.legal || []).includes(name)) {
			say('No disc placed: ' + name + ' is not a legal move; the dots show them.', 'refused');
			return;
		}
		if (!on.connected) {
			say('Not connected to the server: wait for the connection to come back.', 'refused');
			return;
		}
		on.sentPly = t.ply;
		say('');
		send({ t: 'move', move: name, ply: t.ply });
		render();
	}

	function openTable() {
		const vs = $('online-vs').value;
		const secs = Math.round(Number($('online-seconds').value));
		if (!(secs >= 1 && secs <= 3600)) {
			say('Seconds per move: a number from 1 to 3600.', 'error');
			return;
		}
		request({
			t: 'open', game: $('online-game').value, seconds: secs, public: $('online-public').checked,
			vs: vs || null, color: $('online-color').value,
		}, 'open');
	}

	function joinCode(code, watch) {
		code = String(code || '').trim().toUpperCase().replace(/^.*#TABLE=/, '');
		if (!CODE_RE.test(code)) {
			say('A table code is 6 letters and digits, such as K7QX2M.', 'error');
			return;
		}
		if (on.code && on.code !== code)
			leave(true);
		on.code = code;
		on.table = null;
		on.role = watch ? 'watch' : 'seat';
		if (!on.connected) {
			/* the connection's opening takes the table (resume, join or watch) */
			if (!available())
				unavailable();
			else
				connect();
			render();
			return;
		}
		const seat = savedSeat(code);
		if (seat && !watch)
			request({ t: 'resume', code, token: seat.token }, 'resume');
		else
			request({ t: watch ? 'watch' : 'join', code }, watch ? 'watch' : 'join');
		render();
	}

	function leave(quiet) {
		const t = on.table;
		if (!quiet && on.role === 'seat' && t && !t.result && on.leaveArmed < performance.now()) {
			/* leaving a game in progress loses it: a second click within 5 s */
			on.leaveArmed = performance.now() + 5000;
			$('online-leave').textContent = 'Leave and lose the game?';
			setTimeout(() => render(), 5100);
			return;
		}
		on.leaveArmed = 0;
		if (on.code) {
			/* without a connection the seat goes when its grace runs out */
			if (on.connected)
				send({ t: 'leave' });
			forgetSeat(on.code);
		}
		on.code = null;
		on.table = null;
		on.role = null;
		on.color = null;
		on.queue = on.queue.filter((m) => m.t !== 'resume' && m.t !== 'join' && m.t !== 'watch' && m.t !== 'move');
		setHash(null);
		if (window.EmiliaUI && window.EmiliaUI.setRemote)
			window.EmiliaUI.setRemote(null);
		if (!quiet)
			say('You left the table.');
		if (on.wantLobby)
			send({ t: 'lobby', on: true });
		render();
	}

	/* ---- the saved game, in the page's review ---- */

	/* A GGF game (as src/front/gamefile.c writes it) as what ui.js loads: the
	 * kind, a transcript (passes written) or an OBF start ; moves, the names. */
	function parseGGF(text) {
		const prop = (id) => {
			const m = new RegExp('(?:^|[\\];(])\\s*' + id + '\\[([^\\]]*)\\]').exec(text);
			return m ? m[1] : null;
		};
		const ty = (prop('TY') || '8').trim().toLowerCase();
		const size = parseInt(ty, 10) === 6 ? 6 : 8;
		const kind = size === 6 ? '6x6' : /a/.test(ty.replace(/^\d+/, '')) ? 'anti' : '8x8';
		let start = null;
		const bo = prop('BO');
		if (bo) {
			const parts = bo.trim().split(/\s+/);
			if (parts.length >= 3) {
				const squares = parts.slice(1, -1).join('').replace(/\*/g, 'X').replace(/[^XO-]/g, '-');
				const side = parts[parts.length - 1] === 'O' ? 'O' : 'X';
				const std = size === 6 ? '--------------OX----XO--------------' :
					'---------------------------OX------XO---------------------------';
				if (squares.length === size * size && (squares !== std || side !== 'X'))
					start = squares + ' ' + side;
			}
		}
		const moves = [];
		const re = /(?:^|[\];(])\s*([BW])\[([^\]]*)\]/g;
		let m;
		while ((m = re.exec(text)) !== null) {
			re.lastIndex--; /* the ']' may open the next property */
			const v = m[2].split('/')[0].trim().toLowerCase();
			moves.push(v === 'pa' || v === 'pass' ? 'pass' : v);
		}
		const t = moves.join(' ');
		return { kind, text: start ? start + ' ; ' + t : t, black: prop('PB') || 'Black', white: prop('PW') || 'White' };
	}

	function openReview(href) {
		say('Fetching the saved game…');
		fetch(href, { cache: 'no-store' }).then((r) => {
			if (!r.ok)
				throw new Error('the server answered ' + r.status);
			return r.text();
		}).then((text) => {
			const g = parseGGF(text);
			if (on.table && on.table.result)
				leave(true);
			const err = window.EmiliaUI.reviewGame(g.kind, g.text, { black: g.black, white: g.white });
			if (err)
				say('The saved game could not be loaded: ' + err, 'error');
		}).catch((e) => say('The saved game could not be fetched: ' + (e.message || e), 'error'));
	}

	/* ---- drawing ---- */

	function status(text) {
		$('online-status').textContent = text;
		$('online-status').hidden = !text;
	}

	/* a message on the page (kind: '' / 'refused' / 'pass' / 'error'),
	 * in the Online panel and, while a table is shown, under the score */
	function say(text, kind) {
		on.message = { text, kind: kind || '' };
		const box = $('online-message');
		box.textContent = text;
		box.dataset.kind = kind || '';
		box.hidden = !text || !!on.code; /* at a table: under the score only */
		if (on.code) {
			const m = $('message');
			m.textContent = text;
			m.dataset.kind = kind || '';
			m.hidden = !text;
		}
	}

	function secondsText(ms) {
		const s = Math.max(0, Math.ceil(ms / 1000));
		return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
	}

	function seatText(c, seat, t) {
		if (!seat)
			return '';
		const you = c === on.color ? 'you, ' : '';
		switch (seat.state) {
		case 'here':
			return you + 'here';
		case 'away': {
			const left = (seat.grace_ms || 0) - (performance.now() - on.received);
			return you + 'away: back within ' + Math.max(0, Math.ceil(left / 1000)) + ' s or Emilia takes over';
		}
		case 'gone':
			return 'gone: lost, Emilia plays ' + capital(c);
		case 'free':
			return 'waiting for a player';
		case 'emilia':
			return 'Emilia' + (!t || t.vs === null || t.vs === undefined ? '' :
				typeof t.vs === 'number' ? ' at level ' + t.vs : ' ' + capital(String(t.vs)));
		default:
			return seat.state;
		}
	}

	function playerName(c, t) {
		const seat = t.seats && t.seats[c];
		if (c === on.color)
			return 'You';
		if (seat && seat.state === 'emilia')
			return 'Emilia';
		if (seat && seat.state === 'free')
			return '(free)';
		return capital(c);
	}

	function resultText(r) {
		const score = r.black + '-' + r.white;
		/* a player who left lost whatever the discs */
		const winner = r.reason === 'left' && (r.loser === 'black' || r.loser === 'white') ? other(r.loser) : r.winner;
		let text;
		if (winner === 'draw')
			text = 'Game over: a draw, ' + score + '.';
		else if (on.color)
			text = 'Game over: ' + (winner === on.color ? 'you win' : 'you lose') + ', ' + score + '.';
		else
			text = 'Game over: ' + capital(winner) + ' wins, ' + score + '.';
		if (r.reason === 'left' && r.loser)
			text += ' ' + (r.loser === on.color ? 'You' : capital(r.loser)) + ' left the table and ' +
				(r.loser === on.color ? 'lose' : 'loses') + ' whatever the discs.';
		return text;
	}

	function render() {
		const box = $('online-box');
		const t = on.table;
		$('online-start').hidden = !!on.code;
		$('online-at').hidden = !on.code;
		box.dataset.state = on.code ? (t ? on.role : 'joining') : 'none';
		for (const c of ['black', 'white'])
			$('online-clock-' + c).hidden = !t;
		if (!on.code || !t) {
			if (on.code)
				status(on.connected ? 'Joining table ' + on.code + '…' : $('online-status').textContent);
			return;
		}
		if (on.connected)
			status('');
		const over = !!t.result || t.to_move === 'none';
		$('online-code').textContent = t.code;
		$('online-link').value = tableLink(t.code);
		$('online-about').textContent = (GAME_TEXT[t.game] || t.game) + ', ' + t.seconds + ' s a move, ' +
			(t.public ? 'public' : 'private') + (t.watchers ? ', ' + t.watchers + ' watching' : '') +
			(on.role === 'watch' ? ' (you watch)' : '');
		drawBoard(t);
		drawSides(t, over);
		drawMoves(t);
		/* the seats */
		for (const c of ['black', 'white']) {
			const seat = t.seats ? t.seats[c] : null, e = $('online-seat-' + c);
			e.textContent = capital(c) + ': ' + seatText(c, seat, t);
			e.dataset.state = seat ? seat.state : '';
		}
		/* undo: ask, or answer the other's request */
		const offer = t.undo_offer;
		const theirs = offer && on.color && offer.by !== on.color;
		const mine = offer && offer.by === on.color;
		const opp = on.color && t.seats && t.seats[other(on.color)];
		const alone = !opp || opp.state === 'emilia' || opp.state === 'gone' || opp.state === 'free';
		const moved = on.color && (t.moves || []).some((mv, i) => mv !== 'pass' && (i % 2 === 0 ? 'black' : 'white') === on.color);
		$('online-undo').hidden = on.role !== 'seat' || over;
		$('online-undo').disabled = alone || !moved || !!offer || !on.connected;
		$('online-undo').title = alone ? 'No one to agree: undo needs a second player' : '';
		$('online-offer').hidden = !theirs || over;
		if (theirs)
			$('online-offer-text').textContent = capital(offer.by) + ' asks to take back their last move.';
		$('online-waiting').hidden = !mine || over;
		/* the end */
		$('online-result').hidden = !t.result;
		if (t.result) {
			$('online-result-text').textContent = resultText(t.result);
			$('online-result').dataset.black = t.result.black;
			$('online-result').dataset.white = t.result.white;
			$('online-result').dataset.winner = t.result.winner;
			$('online-result').dataset.reason = t.result.reason || '';
			$('online-result').dataset.loser = t.result.loser || '';
			$('online-review').hidden = !t.result.review;
			if (t.result.review)
				$('online-review').href = t.result.review;
		}
		$('online-leave').textContent = on.leaveArmed > performance.now() ? 'Leave and lose the game?' :
			on.role === 'seat' && !over ? 'Leave the table' : 'Close the table';
		/* the status line */
		const st = $('status');
		st.classList.toggle('over', over);
		if (t.result)
			st.textContent = resultText(t.result);
		else if (over)
			st.textContent = 'Game over.';
		else if (t.to_move === on.color)
			st.textContent = 'Your move: you play ' + capital(on.color) + '.';
		else if (on.role === 'seat') {
			const seat = t.seats && t.seats[t.to_move];
			const emilia = seat && (seat.state === 'emilia' || seat.state === 'gone');
			st.textContent = capital(t.to_move) + ' to move: ' + (emilia ? 'Emilia\'s' : 'your opponent\'s') + ' turn.';
		} else
			st.textContent = capital(t.to_move) + ' to move.';
		tick();
	}

	function drawBoard(t) {
		const board = $('board'), n = on.size;
		if (board.dataset.remote !== t.code || Number(board.dataset.size) !== n) {
			board.innerHTML = '';
			board.style.setProperty('--n', n);
			board.dataset.size = n;
			board.dataset.remote = t.code;
			$('cols').innerHTML = 'abcdefgh'.slice(0, n).split('').map((c) => '<span>' + c + '</span>').join('');
			$('rows').innerHTML = Array.from({ length: n }, (_, i) => '<span>' + (i + 1) + '</span>').join('');
			$('cols').style.setProperty('--n', n);
			$('rows').style.setProperty('--n', n);
			for (let r = 0; r < n; r++)
				for (let c = 0; c < n; c++) {
					const cell = document.createElement('div');
					cell.className = 'sq';
					cell.dataset.square = squareName(r, c);
					cell.dataset.sq = r * 8 + c;
					cell.setAttribute('role', 'gridcell');
					cell.tabIndex = r * 8 + c === 19 ? 0 : -1;
					cell.innerHTML = '<span class="disc"></span>';
					board.appendChild(cell);
				}
		}
		const s = String(t.board || ''), wide = s.length !== n * n;
		const legal = new Set(t.legal || []);
		const last = t.last && t.last.move !== 'pass' ? t.last.move : null;
		const over = !!t.result || t.to_move === 'none';
		const myTurn = on.role === 'seat' && !over && t.to_move === on.color && on.sentPly !== t.ply;
		const fresh = on.lastSeen >= 0 && on.lastSeen !== t.ply;
		board.dataset.toMove = over ? 'none' : t.to_move;
		board.dataset.over = over ? 'true' : 'false';
		board.dataset.thinking = 'false';
		board.dataset.moves = (t.moves || []).filter((m) => m !== 'pass').join('');
		board.dataset.ply = t.ply;
		board.classList.toggle('human-turn', myTurn);
		board.classList.remove('thinking', 'viewing');
		for (const cell of board.children) {
			const sq = Number(cell.dataset.sq), r = sq >> 3, c = sq & 7;
			const ch = s[wide ? sq : r * n + c];
			const disc = ch === 'X' ? 'black' : ch === 'O' ? 'white' : '';
			const was = cell.dataset.disc || '';
			cell.dataset.disc = disc;
			cell.firstChild.className = 'disc' + (disc ? ' ' + disc : '') +
				(fresh && was && disc && was !== disc ? ' flipped' : '');
			const name = cell.dataset.square;
			toggle(cell, 'data-legal', !over && legal.has(name));
			toggle(cell, 'data-last', name === last);
			toggle(cell, 'data-played', false);
			toggle(cell, 'data-best', false);
			cell.setAttribute('aria-label', name + ', ' + (disc || 'empty') + (legal.has(name) ? ', legal move' : '') +
				(name === last ? ', last move' : ''));
		}
		on.lastSeen = t.ply;
	}

	function toggle(el, name, yes) {
		if (yes)
			el.setAttribute(name, '');
		else
			el.removeAttribute(name);
	}

	function drawSides(t, over) {
		const d = t.discs || {};
		$('count-black').textContent = d.black === undefined ? '' : d.black;
		$('count-white').textContent = d.white === undefined ? '' : d.white;
		$('name-black').textContent = playerName('black', t);
		$('name-white').textContent = playerName('white', t);
		$('side-black').classList.toggle('to-move', !over && t.to_move === 'black');
		$('side-white').classList.toggle('to-move', !over && t.to_move === 'white');
		const o = $('official');
		o.hidden = !t.result;
		if (t.result)
			o.textContent = 'Final score: Black ' + t.result.black + ' - White ' + t.result.white;
		o.dataset.black = t.result ? t.result.black : '';
		o.dataset.white = t.result ? t.result.white : '';
	}

	function drawMoves(t) {
		const list = $('moves'), moves = t.moves || [];
		if (list.dataset.remote === t.code + ':' + moves.length)
			return;
		list.dataset.remote = t.code + ':' + moves.length;
		list.innerHTML = '';
		let n = 0;
		moves.forEach((m, i) => {
			const li = document.createElement('li');
			li.className = (i % 2 === 0 ? 'black' : 'white') + (m === 'pass' ? ' pass' : '');
			li.textContent = m === 'pass' ? 'pass' : (++n) + '. ' + m;
			list.appendChild(li);
		});
		list.scrollTop = list.scrollHeight;
	}

	/* the clocks and the grace periods, counted down between states */
	function tick() {
		const t = on.table;
		clearTimeout(on.tickTimer);
		if (!t || !on.code)
			return;
		const over = !!t.result || t.to_move === 'none';
		const gone = performance.now() - on.received;
		for (const c of ['black', 'white']) {
			const e = $('online-clock-' + c);
			let text = '', ms = null;
			if (!over && t.to_move === c && typeof t.deadline_ms === 'number') {
				ms = Math.max(0, t.deadline_ms - gone);
				text = secondsText(ms);
			} else if (!over && t.to_move === c) {
				text = '…';
			} else if (!over) {
				text = secondsText(t.seconds * 1000);
			}
			e.textContent = text;
			e.dataset.ms = ms === null ? '' : Math.round(ms);
			e.classList.toggle('running', ms !== null);
			e.classList.toggle('low', ms !== null && ms < 10000);
			const seat = t.seats ? t.seats[c] : null;
			if (seat && seat.state === 'away')
				$('online-seat-' + c).textContent = capital(c) + ': ' + seatText(c, seat, t);
		}
		if (!over)
			on.tickTimer = setTimeout(tick, 250);
	}

	function renderLobby(tables) {
		const list = $('online-lobby');
		list.innerHTML = '';
		list.dataset.count = tables.length;
		if (!tables.length) {
			const li = document.createElement('li');
			li.className = 'empty';
			li.textContent = 'No open public table right now.';
			list.appendChild(li);
			return;
		}
		for (const t of tables) {
			const li = document.createElement('li');
			li.dataset.code = t.code;
			const seats = t.seats || {};
			const free = seats.black === 'free' || seats.white === 'free';
			const seatWord = (c) => capital(c) + ' ' + (seats[c] === 'emilia' ? 'Emilia' : seats[c] || '?');
			const about = document.createElement('span');
			about.textContent = t.code + ' · ' + (GAME_TEXT[t.game] || t.game) + ' · ' + t.seconds + ' s · ' +
				seatWord('black') + ', ' + seatWord('white');
			li.appendChild(about);
			const join = document.createElement('button');
			join.type = 'button';
			join.className = 'join';
			join.id = 'online-lobby-join-' + t.code;
			join.textContent = 'Join';
			join.disabled = !free;
			join.addEventListener('click', () => joinCode(t.code, false));
			const watch = document.createElement('button');
			watch.type = 'button';
			watch.className = 'watch';
			watch.id = 'online-lobby-watch-' + t.code;
			watch.textContent = 'Watch';
			watch.addEventListener('click', () => joinCode(t.code, true));
			li.appendChild(join);
			li.appendChild(watch);
			list.appendChild(li);
		}
	}

	/* ---- set-up ---- */

	function panelOpened() {
		if (!available()) {
			unavailable();
			return;
		}
		on.wantLobby = true;
		if (on.connected) {
			if (!on.code)
				send({ t: 'lobby', on: true });
		} else {
			on.failures = Math.min(on.failures, 1);
			connect();
		}
	}

	function start() {
		const box = $('online-box');
		if (!box)
			return;
		box.addEventListener('toggle', () => {
			if (box.open)
				panelOpened();
			else if (on.wantLobby && !on.code) {
				on.wantLobby = false;
				send({ t: 'lobby', on: false });
			}
		});
		$('online-open').addEventListener('click', openTable);
		$('online-join').addEventListener('click', () => joinCode($('online-join-code').value, false));
		$('online-join-code').addEventListener('keydown', (ev) => {
			if (ev.key === 'Enter') {
				ev.preventDefault();
				joinCode($('online-join-code').value, false);
			}
		});
		$('online-leave').addEventListener('click', () => leave(false));
		$('online-undo').addEventListener('click', () => {
			if (on.table)
				send({ t: 'undo', ply: on.table.ply });
		});
		$('online-agree').addEventListener('click', () => {
			if (on.table && on.table.undo_offer)
				send({ t: 'undo', ply: on.table.undo_offer.ply });
		});
		$('online-decline').addEventListener('click', () => send({ t: 'decline' }));
		$('online-copy').addEventListener('click', () => {
			const l = $('online-link');
			l.focus();
			l.select();
			let ok = false;
			try {
				ok = document.execCommand('copy');
			} catch (e) { /* left selected */ }
			say(ok ? 'Copied the link: send it to the other player.' : 'The link is selected: copy it with Ctrl+C.');
		});
		$('online-review').addEventListener('click', (ev) => {
			ev.preventDefault();
			openReview($('online-review').getAttribute('href'));
		});
		window.addEventListener('hashchange', () => {
			const code = hashCode();
			if (code && code !== on.code)
				joinCode(code, false);
		});
		if (!available())
			$('online-box').dataset.unavailable = 'true';
		const code = hashCode();
		if (code) {
			box.open = true;
			if (!available())
				unavailable();
			else
				joinCode(code, false);
		}
		render();
	}

	window.addEventListener('DOMContentLoaded', start);
	window.EmiliaOnline = { state: on, parseGGF, connect, leave };
})();
