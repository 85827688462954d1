// bench/scripts/web-node.js DIR [bench | levels [N] | review TRANSCRIPT DEPTH EXACT]: the WebAssembly
// build of `make web` (DIR, default build/web) run by node: `emilia bench` (its lines, then
// "Wall seconds: S"); the time of a move at each level in N positions of random games; or
// a review as JSON.  Used by bench/scripts/web.sh.
'use strict';
const fs = require('fs'), path = require('path'), zlib = require('zlib');
const dir = path.resolve(process.argv[2] || 'build/web');
const what = process.argv[3] || 'bench';
const L = require(path.join(dir, 'wasm.js'));

(async () => {
	const module = await L.compile(fs.readFileSync(path.join(dir, 'emilia.wasm')));
	const lib = await L.instantiate(module, { print: (s) => console.log(s), printErr: (s) => console.error(s) });
	const blob = (name, file) => lib.setBlob(name, zlib.gunzipSync(fs.readFileSync(path.join(dir, 'data', file))));
	blob('eval', 'eval.bin.gz');
	blob('book', 'book.bin.gz');
	blob('anti', 'eval-anti.bin.gz');
	blob('6x6', 'eval-6x6.bin.gz');
	if (what === 'bench') {
		const t0 = process.hrtime.bigint();
		const status = lib.bench();
		console.log('Wall seconds: ' + (Number(process.hrtime.bigint() - t0) / 1e9).toFixed(3));
		process.exit(status);
	} else if (what === 'review') {
		const [moves, depth, exact] = process.argv.slice(4);
		console.log(JSON.stringify(lib.review({ moves, depth: Number(depth), exactFrom: Number(exact), hash: 16 })));
	} else if (what === 'levels') {
		// each level's time for one move (engine.js's caps) in positions of random games
		const caps = { easy: 5, normal: 10, hard: 3 };
		const count = Number(process.argv[4] || 12);
		let seed = 12345;
		const rand = (n) => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed % n;
		};
		const rules = lib.create({ size: 8, hash: 1 });
		const engine = lib.create({ size: 8, hash: 32, book: true, seed: 7 });
		const times = { easy: [], normal: [], hard: [] };
		for (let i = 0; i < count; i++) {
			rules.newGame();
			const plies = 8 + (i * 44) / (count - 1);
			for (let k = 0; k < plies && !rules.isOver(); k++) {
				const m = rules.legalMoves();
				rules.play(m[rand(m.length)]);
			}
			if (rules.isOver())
				continue;
			if (rules.legalMoves()[0] === L.PASS)
				rules.play(L.PASS);
			const obf = rules.obf();
			const empties = (obf.match(/-/g) || []).length;
			const line = [empties + ' empties'];
			for (const level of Object.keys(caps)) {
				engine.setObf(obf);
				const r = engine.search(level, caps[level]);
				times[level].push(r.seconds);
				line.push(level + ' ' + r.seconds.toFixed(3) + ' s (depth ' + r.depth + (r.exact ? ' exact' : '') +
				          (r.book ? ' book' : '') + ')');
			}
			console.log(line.join('  '));
		}
		for (const level of Object.keys(times)) {
			const t = times[level].slice().sort((a, b) => a - b);
			console.log(level + ': median ' + t[t.length >> 1].toFixed(3) + ' s, max ' + t[t.length - 1].toFixed(3) + ' s');
		}
	} else {
		console.error('web-node.js: unknown command ' + what);
		process.exit(2);
	}
})().catch((e) => {
	console.error('web-node.js: ' + (e && e.stack || e));
	process.exit(1);
});
