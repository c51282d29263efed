// view-firefox.js: open `scorch view` pages from disk in Firefox
// (Debian's firefox-esr, driven over WebDriver BiDi by puppeteer-core)
// and print TAP lines for tests/t6913: the page gets ready with no page
// error, its total and stacks read back through the test hook equal the
// folded input's, and every view, a search, a focus and (for a diff)
// Swap run without error.
//   node view-firefox.js FIREFOX EXPECT.json
// EXPECT: [{ name, html, folded (the stacks' folded text file), total, diff }]
"use strict";
const fs = require("fs");
const path = require("path");
const puppeteer = require("puppeteer-core");

let failures = 0;
function ok(cond, what, detail) {
	console.log((cond ? "ok" : "not ok") + " - firefox: " + what);
	if (!cond) {
		failures++;
		if (detail !== undefined)
			console.log("#   " + JSON.stringify(detail).slice(0, 600));
	}
}
function foldedLines(text) {
	const m = new Map();
	for (const l of text.split("\n")) {
		if (!l)
			continue;
		const at = l.lastIndexOf(" ");
		m.set(l.slice(0, at), (m.get(l.slice(0, at)) || 0) + Number(l.slice(at + 1)));
	}
	return Array.from(m, ([k, v]) => k + " " + v).sort();
}

async function check(browser, e) {
	const page = await browser.newPage();
	const errors = [];
	page.on("pageerror", (err) => errors.push(String(err)));
	page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
	await page.goto("file://" + path.resolve(e.html));
	await page.waitForSelector("body[data-ready]", { timeout: 30000 });
	const total = await page.evaluate(() => scorchView.total());
	ok(total === e.total, e.name + ": the total equals scorch fold's", { total, want: e.total });
	const got = await page.evaluate(() => scorchView.folded());
	const want = foldedLines(fs.readFileSync(e.folded, "utf8"));
	ok(JSON.stringify(got) === JSON.stringify(want), e.name + ": the stacks read back equal the input's",
		{ got: got.slice(0, 3), want: want.slice(0, 3), n: [got.length, want.length] });
	const ink = await page.evaluate(() => scorchView.inked());
	ok(ink > 0.005, e.name + ": the flame graph's canvas is not blank", ink);
	const st = await page.evaluate(() => {
		const v = scorchView;
		v.act("view", "icicle");
		v.act("view", "table");
		v.act("fn", v.frameOf(v.find([v.name(1)])));
		v.act("view", "sandwich");
		const sw = v.sandwich();
		v.act("search", "[a-z]");
		v.act("tx", [["f", v.state().fn]]);
		const focused = v.total();
		v.act("tx", []);
		v.act("search", "");
		v.act("view", "flame");
		return { sw: !!sw && sw.callers.length > 0, focused, total: v.total() };
	});
	ok(st.sw && st.focused > 0 && st.total === e.total, e.name + ": views, sandwich, search and focus run", st);
	if (e.diff) {
		await page.click("#swap");
		const before = await page.evaluate(() => scorchView.total());
		ok(before === e.before, e.name + ": Swap shows before's total", { before, want: e.before });
	}
	ok(errors.length === 0, e.name + ": no page or console errors", errors);
	await page.close();
}

(async () => {
	const list = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
	let browser;
	try {
		browser = await puppeteer.launch({ browser: "firefox", executablePath: process.argv[2],
			headless: true, timeout: 60000 });
	} catch (err) {
		console.log("ok - firefox: launch # SKIP firefox does not start: " + String(err).split("\n")[0]);
		process.exit(0);
	}
	ok(true, "starts (" + (await browser.version()) + ")");
	try {
		for (const e of list)
			await check(browser, e);
	} catch (err) {
		ok(false, "run", String(err && err.stack || err));
	}
	await browser.close();
	process.exit(failures ? 1 : 0);
})();
