// bench/web-node.js DIR [bench|review TRANSCRIPT DEPTH EXACT]: the WebAssembly build of
// `make web` (DIR, default build/web) run by node: `emilia bench` (its lines, then
// "Wall seconds: S"), or a review as JSON.  Used by bench/web.sh and tests/web/.
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
	} else {
		console.error('web-node.js: unknown command ' + what);
		process.exit(2);
	}
})().catch((e) => {
	console.error('web-node.js: ' + (e && e.stack || e));
	process.exit(1);
});
