// check.js FILE.pb.gz FOLDED-OUT: decode a pprof file with the
// pprof-format package (an independent decoder), check its structure
// (string_table[0] is "", every string index in range, ids unique and
// non-zero, every referenced id present, one value per sample type),
// print "total TYPE/UNIT N" per sample type and "labels K=V,..." per
// distinct label set, and write the samples as folded lines (root first,
// inline lines outermost first, value of the last sample type) to
// FOLDED-OUT. Exit 1 with "error: ..." lines when the structure is bad.
'use strict';
const fs = require('fs');
const zlib = require('zlib');
const { Profile } = require('pprof-format');

const [file, foldedOut] = process.argv.slice(2);
let buf = fs.readFileSync(file);
if (buf[0] === 0x1f && buf[1] === 0x8b) buf = zlib.gunzipSync(buf);
const p = Profile.decode(buf);
const S = p.stringTable.strings;
const errors = [];
const err = (m) => errors.push(m);
const str = (i, what) => {
	const n = Number(i);
	if (!(n >= 0 && n < S.length)) { err(`${what}: string index ${n} out of range`); return ''; }
	return S[n];
};
if (S[0] !== '') err('string_table[0] is not ""');

function byId(list, what) {
	const m = new Map();
	for (const x of list) {
		const id = Number(x.id);
		if (!id) err(`${what} with id 0`);
		if (m.has(id)) err(`${what} id ${id} twice`);
		m.set(id, x);
	}
	return m;
}
const maps = byId(p.mapping, 'mapping');
const funcs = byId(p.function, 'function');
const locs = byId(p.location, 'location');
const types = p.sampleType.map((t) => `${str(t.type, 'sample_type')}/${str(t.unit, 'sample_type')}`);
for (const m of p.mapping) { str(m.filename, 'mapping'); str(m.buildId, 'mapping'); }
for (const f of p.function) { str(f.name, 'function'); str(f.systemName, 'function'); str(f.filename, 'function'); }
for (const l of p.location) {
	const mid = Number(l.mappingId);
	if (mid && !maps.has(mid)) err(`location ${l.id}: no mapping ${mid}`);
	for (const ln of l.line)
		if (!funcs.has(Number(ln.functionId))) err(`location ${l.id}: no function ${ln.functionId}`);
}
const totals = types.map(() => 0n);
const folded = new Map();
const labelSets = new Set();
for (const s of p.sample) {
	if (s.value.length !== types.length) err(`a sample has ${s.value.length} values for ${types.length} types`);
	s.value.forEach((v, i) => { totals[i] += BigInt(v); });
	const names = [];
	for (const id of s.locationId) {
		const l = locs.get(Number(id));
		if (!l) { err(`sample: no location ${id}`); continue; }
		for (const ln of l.line) names.push(str(funcs.get(Number(ln.functionId))?.name ?? 0, 'line'));
	}
	const key = names.reverse().join(';');
	folded.set(key, (folded.get(key) ?? 0n) + BigInt(s.value[s.value.length - 1] ?? 0));
	labelSets.add(s.label.map((l) => `${str(l.key, 'label')}=${Number(l.str) ? str(l.str, 'label') : String(l.num)}`).join(','));
}
types.forEach((t, i) => console.log(`total ${t} ${totals[i]}`));
console.log(`duration ${p.durationNanos}`);
console.log(`time ${p.timeNanos}`);
for (const l of [...labelSets].sort()) console.log(`labels ${l}`);
for (const m of p.mapping) console.log(`mapping ${str(m.filename, 'mapping')} ${str(m.buildId, 'mapping')}`);
const lines = [...folded].filter(([, v]) => v > 0n).map(([k, v]) => `${k} ${v}`);
fs.writeFileSync(foldedOut, lines.length ? lines.join('\n') + '\n' : '');
for (const e of errors.slice(0, 10)) console.log(`error: ${e}`);
process.exit(errors.length ? 1 : 0);
