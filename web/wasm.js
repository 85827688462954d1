/*
 * wasm.js - Emilia's WebAssembly module (emilia.js + emilia.wasm, built by
 * web/web.mk from the engine's library and web/glue.c) as JavaScript
 * objects.  Used by the page (the rules, on the main thread), by its Web
 * Worker (the search) and by node (bench/scripts/web-node.js).
 *
 *   const module = await EmiliaLib.compile('emilia.wasm');   // once
 *   const lib = await EmiliaLib.instantiate(module);         // per thread
 *   const e = lib.create({ size: 8 });                       // an engine
 *   e.legalMoves(); e.play(19); e.obf(); e.destroy();
 *
 * Squares are numbers row * 8 + column (a1 = 0, h8 = 63; 6x6 boards use
 * the same numbers), EmiliaLib.PASS (64) is a pass: as in emilia.h.
 */
(function (root) {
	'use strict';

	const PASS = 64;
	const LEVELS = { easy: -1, normal: -2, hard: -3 };
	/* web/blobs.c's ids */
	const BLOB = { eval: 0, anti: 1, '6x6': 2, '6x6-anti': 3, book: 4 };

	function squareName(sq) {
		if (sq === PASS)
			return 'pass';
		return String.fromCharCode(97 + (sq & 7)) + String(1 + (sq >> 3));
	}

	/* A square name ("d3", any case) on a board of `size`; -1 if none. */
	function parseSquare(text, size) {
		const m = /^([a-h])([1-8])$/i.exec(text);
		if (!m)
			return -1;
		const col = m[1].toLowerCase().charCodeAt(0) - 97, row = Number(m[2]) - 1;
		return col < size && row < size ? row * 8 + col : -1;
	}

	class Engine {
		constructor(lib, handle, size, anti) {
			this.lib = lib;
			this.M = lib.M;
			this.h = handle;
			this.size = size;
			this.anti = anti;
		}
		/* the last failure's message */
		error() {
			return this.M.UTF8ToString(this.M._emilia_last_error(this.h));
		}
		/* a status as null (success) or the engine's message */
		check(status) {
			return status === 0 ? null : this.error();
		}
		destroy() {
			if (this.h)
				this.M._emilia_destroy(this.h);
			this.h = 0;
		}
		newGame() {
			return this.check(this.M._emilia_new_game(this.h));
		}
		setTranscript(text) {
			return this.lib.withString(text, (p) => this.check(this.M._emilia_set_transcript(this.h, p)));
		}
		setObf(text) {
			return this.lib.withString(text, (p) => this.check(this.M._emilia_set_obf(this.h, p)));
		}
		obf() {
			return this.lib.text((p, n) => this.M._emilia_get_obf(this.h, p, n));
		}
		transcript() {
			return this.lib.text((p, n) => this.M._emilia_get_transcript(this.h, p, n));
		}
		sideToMove() {
			return this.M._emilia_side_to_move(this.h);
		}
		isOver() {
			return this.M._emilia_is_game_over(this.h) === 1;
		}
		discs() {
			const s = this.lib.scratch;
			this.M._emilia_discs(this.h, s, s + 4);
			return { black: this.M.HEAP32[s >> 2], white: this.M.HEAP32[(s >> 2) + 1] };
		}
		/* the legal moves in square order; [PASS] when the side must pass,
		 * [] when the game is over */
		legalMoves() {
			const s = this.lib.scratch;
			this.M._emilia_legal_moves(this.h, s + 8, s);
			const n = this.M.HEAP32[s >> 2];
			return Array.from(this.M.HEAP32.subarray((s + 8) >> 2, ((s + 8) >> 2) + n));
		}
		/* null, or why the move was refused */
		play(move) {
			return this.check(this.M._emilia_play(this.h, move));
		}
		undo() {
			return this.check(this.M._emilia_undo(this.h));
		}
		/* Search the position at a level ("easy", "normal", "hard") with at
		 * most `seconds`: { move, score, depth, exact, book, nodes,
		 * seconds }, the move a square number or PASS. */
		search(level, seconds) {
			const r = JSON.parse(this.M.UTF8ToString(this.M._web_search(this.h, LEVELS[level], seconds)));
			if (r.error)
				throw new Error(r.error);
			r.move = r.move === 'pass' ? PASS : parseSquare(r.move, 8);
			return r;
		}
	}

	class Lib {
		constructor(M) {
			this.M = M;
			this.scratch = M._malloc(16 + 4 * 64);
		}
		/* fn(pointer) with text as a C string */
		withString(text, fn) {
			const n = this.M.lengthBytesUTF8(text) + 1;
			const p = this.M._malloc(n);
			try {
				this.M.stringToUTF8(text, p, n);
				return fn(p);
			} finally {
				this.M._free(p);
			}
		}
		/* fn(buffer, length) fills a buffer with a C string */
		text(fn) {
			const n = 512, p = this.M._malloc(n);
			try {
				if (fn(p, n) !== 0)
					throw new Error('emilia: buffer');
				return this.M.UTF8ToString(p);
			} finally {
				this.M._free(p);
			}
		}
		version() {
			return this.M.UTF8ToString(this.M._emilia_version());
		}
		/* Give the engine one of its data files (gunzipped bytes): name is
		 * a key of EmiliaLib.BLOB. */
		setBlob(name, bytes) {
			const p = this.M._web_blob_alloc(BLOB[name], bytes.length);
			if (!p)
				throw new Error('cannot store ' + name + ' (' + bytes.length + ' bytes)');
			this.M.HEAPU8.set(bytes, p);
		}
		/* An engine: { size: 8|6, anti, hash (MiB), book, seed } */
		create(o) {
			const size = o.size || 8, anti = !!o.anti;
			const h = this.M._web_create(size, anti ? 1 : 0, o.hash || 1, o.book ? 1 : 0, o.seed || 0);
			if (!h)
				throw new Error(this.M.UTF8ToString(this.M._web_error()));
			return new Engine(this, h, size, anti);
		}
		/* `emilia review --json` of a game (web/glue.c's web_review): the
		 * parsed document; throws with the engine's message */
		review(g) {
			const args = [g.start || '', g.moves || '', g.black || '', g.white || ''];
			const ptrs = args.map((a) => {
				const n = this.M.lengthBytesUTF8(a) + 1, p = this.M._malloc(n);
				this.M.stringToUTF8(a, p, n);
				return p;
			});
			try {
				const r = this.M._web_review(ptrs[0], ptrs[1], g.size || 8, g.anti ? 1 : 0, g.depth, g.exactFrom,
				                             g.hash || 16, ptrs[2], ptrs[3]);
				if (!r)
					throw new Error(this.M.UTF8ToString(this.M._web_error()));
				return JSON.parse(this.M.UTF8ToString(r));
			} finally {
				ptrs.forEach((p) => this.M._free(p));
			}
		}
		/* `emilia bench`: its exit status; its lines go to the print hook */
		bench() {
			return this.M._web_bench();
		}
	}

	/* The compiled module from the .wasm's URL (or its bytes). */
	async function compile(source) {
		if (typeof source !== 'string')
			return WebAssembly.compile(source);
		const r = await fetch(source);
		if (!r.ok)
			throw new Error(source + ': HTTP ' + r.status);
		return WebAssembly.compile(await r.arrayBuffer());
	}

	/* An instance of the compiled module; hooks: { print, printErr, onInfo,
	 * onProgress } (the last two: web/glue.c's reports). */
	async function instantiate(module, hooks) {
		const factory = root.EmiliaWasm || (typeof require === 'function' && require('./emilia.js'));
		const M = await factory(Object.assign({
			instantiateWasm(imports, receive) {
				WebAssembly.instantiate(module, imports).then((inst) => receive(inst, module));
				return {};
			},
		}, hooks || {}));
		return new Lib(M);
	}

	const api = { PASS, LEVELS, BLOB, squareName, parseSquare, compile, instantiate };
	root.EmiliaLib = api;
	if (typeof module === 'object' && module.exports)
		module.exports = api;
})(typeof self !== 'undefined' ? self : globalThis);
