/*
 * worker.js - Emilia's engine in a Web Worker (engine.js starts it), so
 * that the page never waits on a search.  Messages in:
 *   { type: 'init', module, kind: { size, anti, book }, blobs: { name: bytes }, hash }
 *   { type: 'new', seed }                       a fresh engine for a new game
 *   { type: 'search', id, obf, level, seconds }  the move for a position
 *   { type: 'review', id, game }                 web_review() of a game (wasm.js)
 *   { type: 'bench', id }                        `emilia bench`
 * and out: { type: 'ready' }, { type: 'info', id, ... } after each
 * iteration, { type: 'progress', id, done, total }, { type: 'done', id,
 * result } or { type: 'failed', id, message }.  A search cannot be
 * interrupted from here (one thread, no shared memory): engine.js ends it
 * by terminating this worker and starting another.
 */
'use strict';
importScripts('emilia.js', 'wasm.js');

let lib = null, engine = null, kind = null, hash = 32, current = 0;

function fail(id, e) {
	postMessage({ type: 'failed', id, message: String(e && e.message || e) });
}

function newEngine(seed) {
	if (engine)
		engine.destroy();
	engine = lib.create({ size: kind.size, anti: kind.anti, hash, book: kind.book, seed });
}

const handlers = {
	async init(m) {
		lib = await EmiliaLib.instantiate(m.module, {
			onInfo: (info) => postMessage(Object.assign({ type: 'info', id: current }, info)),
			onProgress: (p) => postMessage(Object.assign({ type: 'progress', id: current }, p)),
			print: (line) => postMessage({ type: 'print', id: current, line }),
			printErr: (line) => postMessage({ type: 'print', id: current, line, stderr: true }),
		});
		for (const name of Object.keys(m.blobs))
			lib.setBlob(name, m.blobs[name]);
		kind = m.kind;
		hash = m.hash || hash;
		newEngine(m.seed);
		postMessage({ type: 'ready' });
	},
	new(m) {
		newEngine(m.seed);
	},
	search(m) {
		const err = engine.setObf(m.obf);
		if (err)
			throw new Error(err);
		return engine.search(m.level, m.seconds);
	},
	review(m) {
		return lib.review(m.game);
	},
	bench() {
		return lib.bench();
	},
};

/* messages are handled one at a time, in order */
let queue = Promise.resolve();
onmessage = (ev) => {
	const m = ev.data;
	queue = queue.then(async () => {
		current = m.id || 0;
		try {
			const result = await handlers[m.type](m);
			if (m.id)
				postMessage({ type: 'done', id: m.id, result });
		} catch (e) {
			if (m.id)
				fail(m.id, e);
			else
				postMessage({ type: 'error', message: String(e && e.message || e) });
		}
	});
};
