/*
 * review.js - the review of a finished game on the page: the JSON
 * document of `emilia review --json` (docs/review.md; made in the worker
 * by the same code, web/glue.c) as a score graph, each player's summary
 * and the table of moves classed best, inaccuracy, mistake or blunder.
 */
(function (root) {
	'use strict';

	const CLASS_TEXT = { best: 'best', inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder' };

	function el(tag, attrs, text) {
		const e = document.createElement(tag);
		for (const k of Object.keys(attrs || {}))
			e.setAttribute(k, attrs[k]);
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	function svg(tag, attrs) {
		const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
		for (const k of Object.keys(attrs || {}))
			e.setAttribute(k, attrs[k]);
		return e;
	}

	/* "Reviewing: done of total positions" while it runs */
	function progress(box, done, total) {
		box.innerHTML = '';
		box.appendChild(el('h2', {}, 'Review'));
		const p = el('p', { class: 'review-progress' });
		p.appendChild(el('span', { class: 'spinner', 'aria-hidden': 'true' }));
		p.appendChild(document.createTextNode(' Emilia is reviewing the game: ' + done + ' of ' + total + ' positions…'));
		box.appendChild(p);
		const bar = el('progress', { max: String(total), value: String(done) });
		box.appendChild(bar);
	}

	/* The score graph: Black's expected margin before each move (the
	 * engine's value, empties to the winner), the final margin at the end;
	 * mistakes and blunders dotted. */
	function graph(doc) {
		const moves = doc.moves, n = moves.length;
		const W = 600, H = 180, pad = 24;
		const values = moves.map((m) => m.black_score);
		if (doc.game.finished)
			values.push(doc.game.black_margin);
		const top = Math.max(8, ...values.map((v) => Math.abs(v)));
		const x = (i) => pad + (i * (W - 2 * pad)) / Math.max(1, values.length - 1);
		const y = (v) => H / 2 - (v * (H / 2 - 12)) / top;
		const s = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'graph', role: 'img',
		                       'aria-label': 'Score graph: Black\'s expected margin move by move' });
		s.appendChild(svg('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'graph-black' }));
		s.appendChild(svg('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'graph-white' }));
		s.appendChild(svg('line', { x1: pad, y1: H / 2, x2: W - pad, y2: H / 2, class: 'graph-axis' }));
		const lab = (t, yy) => {
			const e = svg('text', { x: 4, y: yy, class: 'graph-label' });
			e.textContent = t;
			s.appendChild(e);
		};
		lab('Black +' + top, 12);
		lab('White +' + top, H - 4);
		const pts = values.map((v, i) => x(i).toFixed(1) + ',' + y(v).toFixed(1)).join(' ');
		s.appendChild(svg('polyline', { points: pts, class: 'graph-line' }));
		moves.forEach((m, i) => {
			if (m.class === 'mistake' || m.class === 'blunder') {
				const c = svg('circle', { cx: x(i + 1).toFixed(1), cy: y(values[i + 1] === undefined ? values[i] : values[i + 1]).toFixed(1),
				                          r: m.class === 'blunder' ? 5 : 4, class: 'graph-' + m.class });
				const t = svg('title');
				t.textContent = m.n + '. ' + m.move + ': ' + m.class + ' (' + m.loss + ')';
				c.appendChild(t);
				s.appendChild(c);
			}
		});
		return s;
	}

	function summary(doc) {
		const t = el('table', { class: 'review-summary' });
		const head = el('tr');
		['', 'moves', 'best', 'inaccuracies', 'mistakes', 'blunders', 'mean loss'].forEach((h) => head.appendChild(el('th', {}, h)));
		t.appendChild(head);
		for (const side of ['black', 'white']) {
			const p = doc.players[side], tr = el('tr', { 'data-player': side });
			const given = doc.game[side];
			const name = given && given.toLowerCase() !== side ? given + ' (' + side + ')' : side.charAt(0).toUpperCase() + side.slice(1);
			[name, p.moves, p.best, p.inaccuracies, p.mistakes, p.blunders, p.mean_loss.toFixed(2)]
				.forEach((v) => tr.appendChild(el('td', {}, String(v))));
			t.appendChild(tr);
		}
		return t;
	}

	/* The whole review into box; onSelect(n) when move n is clicked. */
	function render(box, doc, settings, onSelect) {
		box.innerHTML = '';
		box.appendChild(el('h2', {}, 'Review'));
		const g = doc.game;
		const result = g.finished ? (g.black_margin > 0 ? 'Black won by ' + g.black_margin : g.black_margin < 0
			? 'White won by ' + -g.black_margin : 'a draw') : 'unfinished';
		box.appendChild(el('p', { class: 'review-about' },
			g.moves + ' moves, ' + result + '. Every position searched ' + doc.settings.depth + ' plies deep, solved exactly from ' +
			doc.settings.exact_from + ' empty squares, in ' + doc.seconds.toFixed(1) + ' s (as emilia review --level ' +
			settings.depth + ' --exact-from ' + settings.exactFrom + '). Loss in discs: best 0, inaccuracy ' +
			doc.thresholds.inaccuracy + '-' + (doc.thresholds.mistake - 1) + ', mistake ' + doc.thresholds.mistake + '-' +
			(doc.thresholds.blunder - 1) + ', blunder ' + doc.thresholds.blunder + ' or more.'));
		box.appendChild(graph(doc));
		box.appendChild(summary(doc));
		const t = el('table', { class: 'review-moves' });
		const head = el('tr');
		['#', 'player', 'played', 'best', 'loss', 'class'].forEach((h) => head.appendChild(el('th', {}, h)));
		t.appendChild(head);
		for (const m of doc.moves) {
			const tr = el('tr', { 'data-n': m.n, 'data-move': m.move, 'data-best': m.best, 'data-loss': m.loss,
			                      'data-class': m.class, class: 'cls-' + m.class, tabindex: '0' });
			[m.n, m.player, m.move, m.best, m.loss, CLASS_TEXT[m.class] + (m.legal_moves === 1 ? ' (forced)' : '')]
				.forEach((v) => tr.appendChild(el('td', {}, String(v))));
			tr.addEventListener('click', () => onSelect(m.n));
			tr.addEventListener('keydown', (ev) => {
				if (ev.key === 'Enter' || ev.key === ' ') {
					ev.preventDefault();
					onSelect(m.n);
				}
			});
			t.appendChild(tr);
		}
		const wrap = el('div', { class: 'review-table' });
		wrap.appendChild(t);
		box.appendChild(wrap);
		box.dataset.done = 'true';
	}

	root.EmiliaReview = { render, progress };
})(typeof self !== 'undefined' ? self : globalThis);
