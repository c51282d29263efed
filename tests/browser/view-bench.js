// view-bench.js: time a `scorch view` page in headless chromium (for
// bench/view.sh, not a test): load to first paint, decode, JS heap, and
// interactions (zoom, search, views) measured in the page.
//   node view-bench.js PAGE.html [RUNS]
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");

(async () => {
	const runs = parseInt(process.argv[3] || "3", 10);
	const b = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--enable-precise-memory-info"] });
	const url = "file://" + path.resolve(process.argv[2]);
	const res = [];
	for (let r = 0; r < runs; r++) {
		const page = await b.newPage({ viewport: { width: 1200, height: 800 } });
		await page.goto(url, { timeout: 120000 });
		await page.waitForSelector("body[data-ready]", { timeout: 120000 });
		await page.waitForTimeout(1000); // as a user would: after the first paint
		const m = await page.evaluate(() => {
			const v = scorchView, out = { ready: v.readyAt, firstPaint: v.firstPaintMs, decode: v.decodeMs, nodes: v.nodes };
			// the widest child of the root's widest child, then a search and views
			const kid = v.find([v.name(1)]);
			out.zoom = v.act("zoom", kid);
			out.unzoom = v.act("zoom", 0);
			out.search = v.act("search", "method_1[0-9]$");
			out.searchOff = v.act("search", "");
			out.icicle = v.act("view", "icicle");
			out.table = v.act("view", "table");
			out.tableAgain = v.act("view", "table");
			out.flame = v.act("view", "flame");
			out.pick = v.act("fn", 5);
			out.sandwich = v.act("view", "sandwich");
			out.flameBack = v.act("view", "flame");
			out.focus = v.act("tx", [["f", 5]]);
			out.unfocus = v.act("tx", []);
			out.merge = v.act("tx", [["m", 5]]);
			out.mergeRec = v.act("tx", [["m", 5], ["r", 0]]);
			out.unmerge = v.act("tx", []);
			out.hide = v.act("tx", [["h", 5]]);
			out.unhide = v.act("tx", []);
			// the function of the root's widest child: the most nodes under it
			const top = (v.act("zoom", kid), v.state().fn);
			v.act("zoom", 0);
			out.pickTop = v.act("fn", top);
			out.sandwichTop = v.act("view", "sandwich");
			out.focusTop = v.act("tx", [["f", top]]);
			out.flameTop = v.act("view", "flame");
			out.unfocusTop = v.act("tx", []);
			const tm = v.times();
			if (tm) { // a recording: a range of its middle half, one thread
				const q = (tm.max - tm.min) / 4;
				out.range = v.act("range", [tm.min + q, tm.max - q]);
				out.rangeOff = v.act("range", null);
				const th = v.timeline().rows;
				out.thread = v.act("threads", [th[0]]);
				out.thread2 = v.act("threads", [th[0], th[1] === undefined ? th[0] : th[1]]);
				out.threadOff = v.act("threads", null);
			}
			out.heapMB = v.heap() / 1048576;
			return out;
		});
		res.push(m);
		await page.close();
	}
	const med = (k) => res.map((x) => x[k]).sort((a, b) => a - b)[Math.floor(res.length / 2)];
	const keys = Object.keys(res[0]);
	for (const k of keys)
		console.log(k + " " + (typeof res[0][k] === "number" ? med(k).toFixed(1) : res[0][k]));
	await b.close();
})();
