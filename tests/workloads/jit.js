// jit.js: the JIT workload of t3301, run as
// `node --perf-basic-prof jit.js [SECONDS]` (default 0.8): node compiles
// fib and mix to machine code and names them in /tmp/perf-PID.map.
'use strict';

function fib(n) {
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function mix(rounds) {
	let h = 0;
	for (let i = 0; i < rounds; i++)
		h = (h * 31 + i) | 0;
	return h;
}

const seconds = Number(process.argv[2] || 0.8);
const end = Date.now() + seconds * 1000;
let total = 0;
while (Date.now() < end)
	total += fib(24) + mix(20000);
console.log(total);
