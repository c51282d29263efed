// speedscope-check.js: checks of scorch's speedscope export against the
// speedscope npm package (tests/t762x).
//   node speedscope-check.js validate SCHEMA FILE.json...
//     each FILE.json is UTF-8 and JSON, valid under SCHEMA (ajv), frame
//     indexes in range, one weight per sample, evented events ordered,
//     nested and closed; writes FILE.val: "ok" or "error: ..." lines,
//     then one line per profile: "profile<TAB>NAME<TAB>TYPE<TAB>TOTAL"
//     (sampled: the sum of the weights; evented: the time some frame is
//     open), and the active one's again as "active<TAB>NAME<TAB>...".
//   node speedscope-check.js fold FILE
//     the sampled profiles' stacks as folded lines "a;b;c WEIGHT" (names
//     joined root first, equal stacks summed), sorted bytewise.
//   node speedscope-check.js browser INDEX_HTML LIST
//     LIST: lines "LABEL<TAB>FILE<TAB>UNIT<TAB>TOTAL<TAB>WANT"; in one
//     chromium, each FILE is loaded into the offline app as its command
//     line tool does
//     (#localProfilePath= a script calling speedscope.loadFileFromBase64),
//     in headless chromium; TAP lines "LABEL: ...": the page shows WANT,
//     no import error, page error or alert, and the sandwich view gives
//     back TOTAL (in UNIT, none or nanoseconds, from the app's rounded
//     "1.23ms" within 1%): the total of a function in every sample
//     ("(100%)"), else the sum of every function's self; TOTAL - skips
//     that check.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");

function validate(check, file, out) {
	const console = { log: (l) => out.push(l) };
	const errors = [];
	const bytes = fs.readFileSync(file);
	let text, doc;
	try {
		text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
	} catch (e) {
		console.log("error: not UTF-8: " + e.message);
		return 1;
	}
	try {
		doc = JSON.parse(text);
	} catch (e) {
		console.log("error: not JSON: " + e.message);
		return 1;
	}
	if (!check(doc))
		for (const e of check.errors.slice(0, 10))
			errors.push("schema: " + e.instancePath + " " + e.message);
	const nframes = doc.shared && doc.shared.frames ? doc.shared.frames.length : 0;
	const frameOk = (f) => Number.isInteger(f) && f >= 0 && f < nframes;
	const lines = [];
	(doc.profiles || []).forEach((p, i) => {
		const where = "profile " + i + " (" + p.name + ")";
		let total = 0;
		if (p.type === "sampled") {
			if (p.samples.length !== p.weights.length)
				errors.push(where + ": " + p.samples.length + " samples, " +
					    p.weights.length + " weights");
			p.samples.forEach((s) => s.forEach((f) => {
				if (!frameOk(f)) errors.push(where + ": frame " + f + " out of range");
			}));
			total = p.weights.reduce((a, b) => a + b, 0);
			if (p.endValue - p.startValue !== total)
				errors.push(where + ": endValue - startValue " +
					    (p.endValue - p.startValue) + " != weights " + total);
		} else {
			const open = [];
			let last = p.startValue, since = 0;
			for (const e of p.events) {
				if (!frameOk(e.frame)) errors.push(where + ": frame " + e.frame + " out of range");
				if (e.at < last) errors.push(where + ": event at " + e.at + " before " + last);
				if (e.at > p.endValue) errors.push(where + ": event at " + e.at + " after endValue");
				last = e.at;
				if (e.type === "O") {
					if (!open.length) since = e.at;
					open.push(e.frame);
				} else if (open.pop() !== e.frame) {
					errors.push(where + ": close of frame " + e.frame + " not innermost");
					break;
				} else if (!open.length) {
					total += e.at - since;
				}
			}
			if (open.length) errors.push(where + ": " + open.length + " frames left open");
		}
		lines.push("profile\t" + p.name + "\t" + p.type + "\t" + total);
	});
	if (!Number.isInteger(doc.activeProfileIndex) || doc.activeProfileIndex < 0 ||
	    doc.activeProfileIndex >= Math.max(1, (doc.profiles || []).length))
		errors.push("activeProfileIndex " + doc.activeProfileIndex + " out of range");
	for (const e of errors.slice(0, 20))
		console.log("error: " + e);
	if (!errors.length)
		console.log("ok");
	for (const l of lines)
		console.log(l);
	const a = lines[doc.activeProfileIndex];
	if (a)
		console.log("active" + a.slice(a.indexOf("\t")));
	return errors.length ? 1 : 0;
}

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
	"--no-first-run", "--disable-background-networking",
	"--disable-component-update", "--disable-sync"];

let failures = 0;
function ok(cond, what, detail) {
	console.log((cond ? "ok - " : "not ok - ") + what);
	if (!cond) {
		failures++;
		if (detail !== undefined)
			console.log("#   " + JSON.stringify(detail).slice(0, 500));
	}
}

// A value as the app prints it ("80", "1,234", "397.19ms") in unit.
function readValue(num, suffix, unit) {
	const v = Number(num.replace(/,/g, ""));
	const ns = { ns: 1, "µs": 1e3, us: 1e3, ms: 1e6, s: 1e9, min: 60e9, h: 3600e9 };
	if (unit === "nanoseconds")
		return suffix in ns ? v * ns[suffix] : NaN;
	return suffix === "" ? v : NaN;
}

// The sandwich table's rows: "TOTAL (P%)", tab, "SELF (P%)", tab, name.
function tableRows(table, unit) {
	const rows = [];
	const re = /([0-9.,]+) ?([a-zµ]*) \(([<>]?[0-9.]+)%\)\n\t([0-9.,]+) ?([a-zµ]*) \([<>]?[0-9.]+%\)\n\t/g;
	for (let m; (m = re.exec(table)); )
		rows.push({ total: readValue(m[1], m[2], unit), pct: m[3],
			    self: readValue(m[4], m[5], unit) });
	return rows;
}

// How many distinct frames the active profile of file uses.
function activeFunctions(file) {
	const doc = JSON.parse(fs.readFileSync(file, "utf-8"));
	const p = doc.profiles[doc.activeProfileIndex || 0];
	const seen = new Set();
	if (p.type === "sampled")
		p.samples.forEach((s) => s.forEach((f) => seen.add(f)));
	else
		p.events.forEach((e) => seen.add(e.frame));
	return seen.size;
}

async function loadOne(ctx, tmp, indexHtml, label, file, unit, total, want) {
	const b64 = fs.readFileSync(file).toString("base64");
	const js = path.join(tmp, "load-" + path.basename(file) + ".js");
	fs.writeFileSync(js, "speedscope.loadFileFromBase64(" +
		JSON.stringify(path.basename(file)) + ", " + JSON.stringify(b64) + ")");
	const page = await ctx.newPage();
	const problems = [];
	page.on("pageerror", (e) => problems.push("pageerror: " + e.message));
	page.on("console", (m) => {
		if (m.type() === "error") problems.push("console: " + m.text());
	});
	page.on("dialog", (d) => { problems.push("dialog: " + d.message()); d.dismiss(); });
	const t0 = Date.now();
	await page.goto("file://" + path.resolve(indexHtml) + "#localProfilePath=" + js);
	let shown = false;
	try {
		await page.waitForFunction((w) => document.body &&
			document.body.innerText.includes(w), want, { timeout: 20000 });
		shown = true;
	} catch (e) { /* reported below */ }
	console.log("# " + label + ": loaded in " + (Date.now() - t0) + " ms");
	const t1 = Date.now();
	const body = await page.evaluate(() => document.body.innerText);
	ok(shown, label + ": the app shows " + JSON.stringify(want), body.slice(0, 300));
	ok(!/something went wrong|unrecognized format|error/i.test(body),
	   label + ": no import error on the page", body.slice(0, 300));
	ok(problems.length === 0, label + ": no page error, console error or alert", problems);
	// the sandwich view lists every function with its total and self
	// (a page tall enough for every row of its table draws them all)
	const funcs = activeFunctions(file);
	await page.setViewportSize({ width: 1280, height: Math.max(800, 400 + 30 * funcs) });
	await page.keyboard.press("3");
	let table = "", rows = [];
	for (let i = 0; i < 100; i++) {
		await page.waitForTimeout(50);
		table = await page.evaluate(() => document.body.innerText);
		rows = tableRows(table, unit);
		if (rows.length >= funcs || rows.some((r) => r.pct === "100"))
			break;
	}
	if (total !== "-") {
		const full = rows.find((r) => r.pct === "100");
		const got = full ? full.total : rows.reduce((a, r) => a + r.self, 0);
		const how = full ? "a function in every sample" : "the sum of " + rows.length +
			" functions' self";
		ok(rows.length && (full || rows.length === funcs) &&
		   Math.abs(got - Number(total)) <= Number(total) * 0.01,
		   label + ": the app's total (" + how + ") is " + total + " " + unit,
		   { got, rows: rows.length, functions: funcs, table: table.slice(0, 300) });
	}
	console.log("# " + label + ": sandwich checked in " + (Date.now() - t1) + " ms");
	await page.close();
}

async function browser(indexHtml, list) {
	const { chromium } = require("playwright-core");
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "scorch-speedscope-"));
	const t0 = Date.now();
	const ctx = await chromium.launchPersistentContext(path.join(tmp, "profile"), {
		executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
		headless: true, args: FLAGS,
	});
	console.log("# chromium started in " + (Date.now() - t0) + " ms");
	try {
		for (const line of fs.readFileSync(list, "utf-8").split("\n")) {
			if (!line)
				continue;
			const [label, file, unit, total, want] = line.split("\t");
			await loadOne(ctx, tmp, indexHtml, label, file, unit, total, want);
		}
	} finally {
		await ctx.close();
		fs.rmSync(tmp, { recursive: true, force: true });
	}
	return failures ? 1 : 0;
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "validate") {
	const Ajv = require("ajv");
	const ajv = new Ajv({ allErrors: true, strict: false });
	const check = ajv.compile(JSON.parse(fs.readFileSync(args[0], "utf-8")));
	for (const file of args.slice(1)) {
		const out = [];
		if (validate(check, file, out))
			process.exitCode = 1;
		fs.writeFileSync(file.replace(/\.json$/, "") + ".val", out.join("\n") + "\n");
	}
} else if (mode === "fold") {
	const doc = JSON.parse(fs.readFileSync(args[0], "utf-8"));
	const sums = new Map();
	for (const p of doc.profiles)
		p.samples.forEach((st, i) => {
			const k = st.map((f) => doc.shared.frames[f].name).join(";");
			sums.set(k, (sums.get(k) || 0) + p.weights[i]);
		});
	const keys = [...sums.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
	process.stdout.write(keys.map((k) => k + " " + sums.get(k) + "\n").join(""));
} else if (mode === "browser") {
	browser(args[0], args[1]).then((rc) => { process.exitCode = rc; },
		(e) => { console.log("not ok - browser run: " + e.message); process.exitCode = 1; });
} else {
	console.error("usage: speedscope-check.js validate SCHEMA FILE | browser INDEX LIST");
	process.exitCode = 2;
}
