/*
 * engine.js - the computer player: Emilia in a Web Worker (worker.js).
 *
 *   const cpu = new EngineClient({ module });   // the compiled emilia.wasm
 *   cpu.use('8x8');                             // fetch that game's data, start the worker
 *   const r = await cpu.move(obf, 'hard');      // { move, score, depth, ... }
 *   cpu.stop();                                 // end a search at once
 *
 * The data a game needs (its weights, and the book for 8x8) is fetched
 * gzipped when that game is first played and gunzipped here, once a page
 * load; the worker gets a copy.  One thread and no shared memory: the only
 * way to end a search at once is to end its worker, so stop() terminates
 * it and starts a fresh one at once (the compiled module and the data are
 * kept); the promise of the stopped request is rejected with an
 * EngineStopped error.
 */
(function (root) {
	'use strict';

	/* Each level's cap on the time of one move, in seconds: Easy and Normal
	 * search to a fixed depth (2 and 8 plies, solving the last 6 and 16
	 * empties) and use a small part of it; Hard searches as deep as its
	 * time allows. */
	const LEVEL_SECONDS = { easy: 5, normal: 10, hard: 3 };
	/* web/blobs.c's names and the files of build/web/data/ */
	const DATA = {
		'8x8': { eval: 'eval.bin.gz', book: 'book.bin.gz' },
		'6x6': { '6x6': 'eval-6x6.bin.gz' },
		anti: { anti: 'eval-anti.bin.gz' },
	};
	const KIND = {
		'8x8': { size: 8, anti: false, book: true },
		'6x6': { size: 6, anti: false, book: false },
		anti: { size: 8, anti: true, book: false },
	};

	class EngineStopped extends Error {
		constructor() {
			super('the search was stopped');
			this.stopped = true;
		}
	}

	/* gzip bytes gunzipped (a server may have done it: then they are
	 * returned as they are) */
	async function gunzip(bytes) {
		if (bytes[0] !== 0x1f || bytes[1] !== 0x8b)
			return bytes;
		if (typeof DecompressionStream === 'undefined')
			throw new Error('this browser has no DecompressionStream to unpack the engine\'s data');
		const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
		return new Uint8Array(await new Response(stream).arrayBuffer());
	}

	function randomSeed() {
		const a = new Uint32Array(2);
		(root.crypto || crypto).getRandomValues(a);
		return (a[0] % 0x1fffff) * 0x100000000 + a[1] + 1; /* below 2^53 */
	}

	class EngineClient {
		/* o: { module: Promise of the compiled WebAssembly.Module, base: URL
		 * of the folder (default ''), hash: MiB (default 32) } */
		constructor(o) {
			this.module = Promise.resolve(o.module);
			this.base = o.base || '';
			this.hash = o.hash || 32;
			this.files = new Map();   /* file -> Promise of its gunzipped bytes */
			this.kind = null;
			this.worker = null;
			this.ready = null;
			this.pending = new Map(); /* id -> { resolve, reject, onProgress } */
			this.nextId = 1;
			this.onInfo = null;       /* (info) after each completed iteration */
			this.onError = null;      /* (message) when the worker cannot start */
			this.bytesLoaded = 0;     /* gzipped bytes of data fetched */
		}

		file(name) {
			if (!this.files.has(name)) {
				const p = fetch(this.base + 'data/' + name).then((r) => {
					if (!r.ok)
						throw new Error('data/' + name + ': HTTP ' + r.status);
					return r.arrayBuffer();
				}).then((buf) => {
					this.bytesLoaded += buf.byteLength;
					return gunzip(new Uint8Array(buf));
				});
				p.catch(() => this.files.delete(name));
				this.files.set(name, p);
			}
			return this.files.get(name);
		}

		/* Play `kind` ('8x8', '6x6', 'anti') from now on: its data is
		 * fetched and a worker started for it (a no-op when it is already
		 * the kind). */
		use(kind) {
			if (kind !== this.kind || !this.worker)
				this.restart(kind);
			return this.ready;
		}

		/* the data of `kind` and the compiled module, for a worker */
		async prepare(kind) {
			const names = Object.keys(DATA[kind]);
			const bytes = await Promise.all(names.map((n) => this.file(DATA[kind][n])));
			const blobs = {};
			names.forEach((n, i) => { blobs[n] = bytes[i]; });
			return { module: await this.module, blobs };
		}

		restart(kind) {
			if (this.worker)
				this.worker.terminate();
			for (const p of this.pending.values())
				p.reject(new EngineStopped());
			this.pending.clear();
			this.kind = kind;
			const w = new Worker(this.base + 'worker.js');
			this.worker = w;
			w.onmessage = (ev) => this.receive(w, ev.data);
			w.onerror = (ev) => {
				if (this.onError)
					this.onError('the engine failed: ' + (ev.message || 'worker error'));
			};
			this.ready = this.prepare(kind).then((d) => new Promise((resolve, reject) => {
				if (this.worker !== w)
					return reject(new EngineStopped());
				w.readyResolve = resolve;
				w.readyReject = reject;
				w.postMessage({ type: 'init', module: d.module, blobs: d.blobs, kind: KIND[kind], hash: this.hash,
				                seed: randomSeed() });
			}));
			this.ready.catch((e) => {
				if (!e.stopped && this.onError)
					this.onError(String(e.message || e));
			});
		}

		receive(w, m) {
			if (w !== this.worker)
				return; /* a worker that was ended */
			if (m.type === 'ready')
				return w.readyResolve();
			if (m.type === 'error')
				return w.readyReject ? w.readyReject(new Error(m.message)) : undefined;
			const p = this.pending.get(m.id);
			if (!p)
				return;
			if (m.type === 'info') {
				if (this.onInfo)
					this.onInfo(m);
			} else if (m.type === 'progress') {
				if (p.onProgress)
					p.onProgress(m);
			} else if (m.type === 'print') {
				if (p.onPrint)
					p.onPrint(m.line);
			} else {
				this.pending.delete(m.id);
				if (m.type === 'done')
					p.resolve(m.result);
				else
					p.reject(new Error(m.message));
			}
		}

		async request(msg, hooks) {
			const w = this.worker;
			await this.ready;
			if (w !== this.worker)
				throw new EngineStopped();
			const id = this.nextId++;
			return new Promise((resolve, reject) => {
				this.pending.set(id, Object.assign({ resolve, reject }, hooks || {}));
				w.postMessage(Object.assign({ id }, msg));
			});
		}

		/* true while a request runs or waits */
		get busy() {
			return this.pending.size > 0;
		}

		/* A new game: a fresh engine (cleared tables, a new random seed, or
		 * `seed` when given). */
		async newGame(seed) {
			const w = this.worker;
			await this.ready;
			if (w === this.worker)
				w.postMessage({ type: 'new', seed: seed || randomSeed() });
		}

		/* The engine's move in a position (an OBF line) at a level. */
		move(obf, level) {
			return this.request({ type: 'search', obf, level, seconds: LEVEL_SECONDS[level] });
		}

		/* `emilia review --json` of a game (wasm.js's review()) */
		review(game, onProgress) {
			return this.request({ type: 'review', game }, { onProgress });
		}

		/* `emilia bench`: its lines to onPrint, its exit status */
		bench(onPrint) {
			return this.request({ type: 'bench' }, { onPrint });
		}

		/* End what the worker does, at once. */
		stop() {
			if (this.busy)
				this.restart(this.kind);
		}
	}

	const api = { EngineClient, EngineStopped, LEVEL_SECONDS };
	root.EmiliaEngine = api;
})(typeof self !== 'undefined' ? self : globalThis);
