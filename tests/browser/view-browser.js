// view-browser.js: drive the `scorch view` explorer in headless chromium
// (playwright-core) and print TAP lines for tests/t6910. Expected values
// come from the shell (awk over `scorch fold` output) in a JSON file.
//   node view-browser.js EXPECT.json
// EXPECT: { main: {html, total, regex, matched, topself, path:[...]},
//           deep: {html, total, depth}, diff: {html, before, after},
//           perf: {html, total} (optional),
//           sources: [{name, html, want: {frame: {line: "work.c:N", path}}}] }
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { execFileSync } = require("child_process");
const { chromium } = require("playwright-core");

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
	"--no-first-run", "--disable-background-networking",
	"--disable-component-update", "--disable-sync"];

// folded text as sorted "stack N" lines, equal stacks summed
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
function sameLines(a, b) {
	if (a.length !== b.length)
		return { lengths: [a.length, b.length] };
	for (let i = 0; i < a.length; i++)
		if (a[i] !== b[i])
			return { at: i, page: a[i].slice(0, 200), want: b[i].slice(0, 200) };
	return null;
}

// a PNG's pixels (8-bit RGB or RGBA, not interlaced: what chromium's
// screenshots are) -> { w, h, colors: distinct colours, bg: the share of
// the commonest colour }
function pngStats(buf) {
	const zlib = require("zlib");
	let w = 0, h = 0, type = 0;
	const idat = [];
	for (let at = 8; at + 8 <= buf.length;) {
		const len = buf.readUInt32BE(at), kind = buf.toString("latin1", at + 4, at + 8);
		const body = buf.subarray(at + 8, at + 8 + len);
		if (kind === "IHDR") {
			w = body.readUInt32BE(0);
			h = body.readUInt32BE(4);
			if (body[8] !== 8 || (body[9] !== 2 && body[9] !== 6) || body[12] !== 0)
				throw new Error("png: not 8-bit RGB(A) non-interlaced");
			type = body[9];
		} else if (kind === "IDAT") {
			idat.push(body);
		}
		at += 12 + len;
	}
	const raw = zlib.inflateSync(Buffer.concat(idat)), bpp = type === 6 ? 4 : 3, stride = w * bpp;
	const px = Buffer.alloc(h * stride), count = new Map();
	for (let y = 0; y < h; y++) {
		const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1, row = y * stride;
		for (let x = 0; x < stride; x++) {
			const a = x >= bpp ? px[row + x - bpp] : 0, b = y ? px[row - stride + x] : 0;
			const c = x >= bpp && y ? px[row - stride + x - bpp] : 0, v = raw[src + x];
			let p = 0;
			if (f === 1) p = a;
			else if (f === 2) p = b;
			else if (f === 3) p = (a + b) >> 1;
			else if (f === 4) {
				const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c);
				p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
			}
			px[row + x] = (v + p) & 255;
		}
		for (let x = 0; x < w; x++) {
			const k = (px[row + x * bpp] << 16) | (px[row + x * bpp + 1] << 8) | px[row + x * bpp + 2];
			count.set(k, (count.get(k) || 0) + 1);
		}
	}
	const top = Math.max(...count.values());
	return { w, h, colors: count.size, bg: top / (w * h) };
}
// a screenshot of the panel of the current view, saved as NAME.png; not
// blank: at least 4 colours and 2% of its pixels off the background
async function screenshotNotBlank(page, name, what) {
	const view = (await hook(page, () => scorchView.state())).view;
	const buf = await page.locator("#p-" + view).screenshot({ path: name + ".png" });
	const st = pngStats(buf);
	ok(st.colors >= 4 && st.bg <= 0.98, "screenshot of " + what + " is not blank", st);
	return st;
}

let failures = 0;
function ok(cond, what, detail) {
	if (cond) {
		console.log("ok - " + what);
	} else {
		failures++;
		console.log("not ok - " + what);
		if (detail !== undefined)
			console.log("#   " + JSON.stringify(detail));
	}
}
function near(a, b) { return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)); }

// A page that fails every request that is not a file: URL and records
// page errors and console errors.
async function open(ctx, html) {
	const page = await ctx.newPage();
	const bad = { requests: [], errors: [] };
	await page.route("**/*", (r) => {
		const u = r.request().url();
		if (u.startsWith("file:"))
			return r.continue();
		bad.requests.push(u);
		return r.abort();
	});
	page.on("pageerror", (e) => bad.errors.push(String(e)));
	page.on("console", (m) => { if (m.type() === "error") bad.errors.push(m.text()); });
	await page.goto("file://" + path.resolve(html));
	await page.waitForSelector("body[data-ready]", { timeout: 15000 });
	return { page, bad };
}

const hook = (page, fn, arg) => page.evaluate(fn, arg);

async function mainChecks(ctx, e) {
	const { page, bad } = await open(ctx, e.html);
	const total = await hook(page, () => scorchView.total());
	ok(total === e.total, "flame graph total equals scorch fold's", { total, want: e.total });
	const diffMain = sameLines(await hook(page, () => scorchView.folded()),
		foldedLines(fs.readFileSync(e.folded, "utf8")));
	ok(diffMain === null, "the page's stacks read back equal the input's", diffMain);
	const ink = await hook(page, () => scorchView.inked());
	ok(ink > 0.005, "the flame graph's canvas is not blank", ink);

	// screenshots of each view, and one of a canvas cleared (the check
	// must call that blank)
	for (const v of ["flame", "icicle", "table", "sandwich"]) {
		if (v === "sandwich")
			await hook(page, () => scorchView.act("fn", scorchView.frameOf(scorchView.find(["main", "a"]))));
		await page.click(`button[data-view="${v}"]`);
		await screenshotNotBlank(page, "shot-" + v, "the " + v + " view");
	}
	await page.click('button[data-view="flame"]');
	await page.$eval("#v-flame canvas", (cv) => cv.getContext("2d").clearRect(0, 0, cv.width, cv.height));
	const blank = pngStats(await page.locator("#p-flame").screenshot({ path: "shot-cleared.png" }));
	ok(blank.colors < 4 || blank.bg > 0.98, "a cleared canvas's screenshot counts as blank", blank);
	await hook(page, () => scorchView.act("zoom", 0)); // draw again

	// colours: scorch flame's for the same names, in the data and on screen
	const fr = await hook(page, () => scorchView.frames());
	const bad2 = Object.keys(e.colors).filter((k) => !fr.some((f) => f.name === k && f.color === e.colors[k]));
	ok(bad2.length === 0, "frames have scorch flame's colours", { bad2, want: e.colors });
	ok(fr.length > 0 && fr.every((f) => f.source === ""), "folded input: no frame has a source",
		fr.filter((f) => f.source !== "").slice(0, 3));
	const dn = await hook(page, (p) => scorchView.find(p), ["main", "d"]);
	const dr = await hook(page, (i) => scorchView.rectOf(i), dn);
	const px = await hook(page, (a) => scorchView.pixel(a[0], a[1]), [dr.x + dr.w - 4, dr.y + dr.h - 3]);
	ok("rgb(" + px.join(",") + ")" === e.colors.d, "and draws them", { px, want: e.colors.d });

	// click a frame: it zooms, and the breadcrumbs end with its name
	const node = await hook(page, (p) => scorchView.find(p), e.path);
	const r = await hook(page, (i) => scorchView.rectOf(i), node);
	await page.mouse.click(r.x + Math.min(5, r.w / 2), r.y + r.h / 2);
	const st = await hook(page, () => scorchView.state());
	const crumb = await page.$eval("#crumbs .crumb.current", (b) => b.textContent);
	ok(node > 0 && st.zoom === node, "clicking a frame zooms to it", { node, st });
	ok(crumb === e.path[e.path.length - 1], "the breadcrumbs show the zoomed frame", crumb);
	// hover: the tooltip names the frame as text with its samples
	await page.mouse.move(r.x + Math.min(5, r.w / 2), r.y + r.h / 2);
	const tip = await page.$eval("#tip", (t) => t.textContent);
	ok(tip.startsWith(e.path[e.path.length - 1] + "\n") && /of total/.test(tip) && /of zoom/.test(tip),
		"the tooltip gives name, % of total and % of zoom", tip);

	// keys (zoomed on main;a;b): Down goes to the parent (flame graph),
	// Up to the widest child: b (37 samples) rather than c (10)
	await page.keyboard.press("ArrowDown");
	const up1 = (await hook(page, () => scorchView.state())).zoom;
	await page.keyboard.press("ArrowUp");
	const down1 = (await hook(page, () => scorchView.state())).zoom;
	const aNode = await hook(page, (p) => scorchView.find(p), ["main", "a"]);
	ok(up1 === aNode && down1 === node, "arrow keys: Down to the parent, Up to the widest child",
		{ up1, aNode, down1, node });

	// the icicle: a click zooms there too
	await page.keyboard.press("Escape");
	await page.keyboard.press("2");
	const dn2 = await hook(page, (p) => scorchView.find(p), ["main", "d"]);
	const ir = await hook(page, (i) => scorchView.rectOf(i), dn2);
	await page.mouse.click(ir.x + ir.w / 2, ir.y + ir.h / 2);
	const ist = await hook(page, () => scorchView.state());
	ok(ist.view === "icicle" && ist.zoom === dn2, "key 2 opens the icicle, where a click zooms", ist);
	await page.keyboard.press("1");

	// search by regex: Matched % counts each sample once
	await page.keyboard.press("Escape");
	ok((await hook(page, () => scorchView.state())).zoom === 0, "Esc resets the zoom");
	await page.keyboard.press("/");
	await page.keyboard.type(e.regex);
	const matched = await hook(page, () => scorchView.matched());
	const text = await page.textContent("#matched");
	ok(matched === e.matched, "search matches the samples awk counts (nested frames once)",
		{ matched, want: e.matched });
	ok(text.includes((100 * e.matched / e.total).toFixed(2) + "%"), "Matched % shown", text);
	await page.keyboard.press("Enter");
	const z1 = (await hook(page, () => scorchView.state())).zoom;
	ok(z1 > 0, "Enter jumps to the next match", z1);

	// URL state survives a reload
	const before = await hook(page, () => scorchView.state());
	await page.reload();
	await page.waitForSelector("body[data-ready]", { timeout: 15000 });
	const after = await hook(page, () => scorchView.state());
	ok(JSON.stringify(before) === JSON.stringify(after), "the URL hash restores zoom and search",
		{ before, after });
	ok(await hook(page, () => scorchView.matched()) === e.matched, "the search is run again after reload");

	// top functions: the first row's self value, and sorting by a header
	await page.keyboard.press("Escape");
	await page.fill("#search", "");
	await page.click('button[data-view="table"]');
	const first = await page.$eval("#fn-rows tr td", (td) => parseFloat(td.getAttribute("data-value")));
	ok(first === e.topself, "top functions' first row self equals awk's largest self",
		{ first, want: e.topself });
	await page.click('#fn-table th[data-key="total"]');
	const totals = await page.$$eval("#fn-rows tr", (rows) =>
		rows.map((tr) => parseFloat(tr.children[2].getAttribute("data-value"))));
	ok(totals.length > 1 && totals.every((v, i) => i === 0 || totals[i - 1] >= v),
		"clicking the Total header sorts by total", totals.slice(0, 5));
	// a row opens the sandwich of that function
	await page.click("#fn-rows tr");
	const sw = await page.textContent("#sw-name");
	const sst = await hook(page, () => scorchView.state());
	ok(sst.view === "sandwich" && sw.length > 0, "a table row opens its sandwich view", { sw, sst });
	const ink2 = await hook(page, () => scorchView.inked());
	ok(ink2 > 0.005, "the sandwich view's canvas is not blank", ink2);

	// the sandwich of a and of b: callers are the stacks up from their
	// first (outermost) call, reversed; callees the stacks from it
	for (const fn of ["a", "b"]) {
		const lines = foldedLines(fs.readFileSync(e.folded, "utf8"));
		const up = new Map(), down = new Map();
		for (const l of lines) {
			const at = l.lastIndexOf(" "), fr = l.slice(0, at).split(";"), n = Number(l.slice(at + 1));
			const j = fr.indexOf(fn);
			if (j < 0)
				continue;
			const u = fr.slice(0, j + 1).reverse().join(";"), d = fr.slice(j).join(";");
			up.set(u, (up.get(u) || 0) + n);
			down.set(d, (down.get(d) || 0) + n);
		}
		const asLines = (m) => Array.from(m, ([k, v]) => k + " " + v).sort();
		const node = await hook(page, (p) => scorchView.find(p), ["main", fn === "a" ? "a" : "a", "b"].slice(0, fn === "a" ? 2 : 3));
		await hook(page, (i) => { scorchView.act("zoom", i); scorchView.act("view", "sandwich"); }, node);
		const sw = await hook(page, () => scorchView.sandwich());
		const dc = sw && sameLines(sw.callers, asLines(up)), dd = sw && sameLines(sw.callees, asLines(down));
		ok(sw && dc === null, "the sandwich of " + fn + ": its callers' stacks equal the input's, reversed", dc);
		ok(sw && dd === null, "the sandwich of " + fn + ": its callees' stacks equal the input's from " + fn, dd);
		await hook(page, () => { scorchView.act("zoom", 0); scorchView.act("view", "flame"); });
	}

	// transforms: focus (from the UI), hide, merge, recursion, [unknown]
	await page.click('button[data-view="flame"]');
	await page.keyboard.press("Escape");
	const an = await hook(page, (p) => scorchView.find(p), ["main", "a"]);
	const ar = await hook(page, (i) => scorchView.rectOf(i), an);
	await page.mouse.click(ar.x + 3, ar.y + ar.h / 2);
	await page.click("#tx-focus");
	const ft = await hook(page, () => scorchView.total());
	const fa = await hook(page, (p) => scorchView.find(p), ["a", "b"]);
	ok(ft === e.withA && fa > 0, "Focus on a: the stacks through a, from a", { ft, want: e.withA, fa });
	await page.reload();
	await page.waitForSelector("body[data-ready]", { timeout: 15000 });
	ok(await hook(page, () => scorchView.total()) === e.withA, "the transform survives a reload (URL)");
	const fOf = (names) => hook(page, (p) => scorchView.find(p), names);
	const aFrame = await hook(page, (i) => scorchView.state().fn, 0);
	await hook(page, (f) => scorchView.act("tx", [["h", f]]), aFrame);
	ok(await hook(page, () => scorchView.total()) === e.total - e.withA, "Hide a: the other stacks");
	const inLines = foldedLines(fs.readFileSync(e.folded, "utf8"));
	const restack = (fn) => foldedLines(inLines.map((l) => {
		const at = l.lastIndexOf(" "), fr = fn(l.slice(0, at).split(";"));
		return fr && fr.length ? fr.join(";") + l.slice(at) : "";
	}).join("\n"));
	const dh = sameLines(await hook(page, () => scorchView.folded()), restack((fr) => fr.includes("a") ? null : fr));
	ok(dh === null, "Hide a: the stacks are the input's without a", dh);
	await hook(page, (f) => scorchView.act("tx", [["m", f]]), aFrame);
	ok(await hook(page, () => scorchView.total()) === e.total && await fOf(["main", "a"]) < 0 &&
		await fOf(["main", "b"]) > 0, "Merge a: same total, a gone, its callees under main");
	const dm = sameLines(await hook(page, () => scorchView.folded()), restack((fr) => fr.filter((x) => x !== "a")));
	ok(dm === null, "Merge a: the stacks are the input's with a left out", dm);
	await hook(page, (f) => scorchView.act("tx", [["f", f]]), aFrame);
	const df = sameLines(await hook(page, () => scorchView.folded()),
		restack((fr) => fr.includes("a") ? fr.slice(fr.indexOf("a")) : null));
	ok(df === null, "Focus a: the stacks are the input's from their first a", df);
	await hook(page, () => scorchView.act("tx", [["r", 0], ["u", 0]]));
	ok(await fOf(["main", "r", "x"]) > 0 && await fOf(["main", "r", "r"]) < 0 &&
		await fOf(["main", "[unknown]", "y"]) > 0 && await fOf(["main", "a", "b", "a", "b"]) > 0,
		"collapse direct recursion and [unknown] runs (a;b;a;b is not direct)");
	await page.click("#tx-reset");
	ok(await hook(page, () => scorchView.total()) === e.total && await fOf(["main", "r", "r", "r", "x"]) > 0,
		"Undo transforms gives the profile back");
	// drafted merges one after the other (one rewrite when no "m" follows
	// an "r"): merging b makes a;b;a;b into a;a, which a later collapse sees
	const bF = await hook(page, (p) => scorchView.frameOf(scorchView.find(p)), ["main", "a", "b"]);
	const collapse = (fr) => fr.filter((x, k) => k === 0 || x !== fr[k - 1]);
	for (const [tx, fn] of [[[["m", bF], ["r", 0]], (fr) => collapse(fr.filter((x) => x !== "b"))],
		[[["r", 0], ["m", bF]], (fr) => collapse(fr).filter((x) => x !== "b")]]) {
		const got = await hook(page, (tx) => {
			scorchView.act("search", "");
			scorchView.act("view", "flame");
			scorchView.act("tx", []);
			for (let k = 1; k <= tx.length; k++)
				scorchView.act("tx", tx.slice(0, k));
			return scorchView.folded();
		}, tx);
		const d = sameLines(got, restack(fn));
		ok(d === null, JSON.stringify(tx) + " one by one in the flame graph: the input's stacks so transformed", d);
	}
	await hook(page, () => scorchView.act("tx", []));

	// hostile names are text
	await page.click('button[data-view="flame"]');
	await page.fill("#search", "onerror");
	const hm = await hook(page, () => scorchView.matched());
	const pwned = await page.evaluate(() => window.__pwned === 1 || document.querySelectorAll("img").length);
	ok(hm > 0 && !pwned, "a name holding <img onerror> is searchable text, never markup", { hm, pwned });
	const hn = await hook(page, (p) => scorchView.find(p), e.hostile);
	ok(hn > 0 && (await hook(page, (i) => scorchView.name(i), hn)) === e.hostile[e.hostile.length - 1],
		"names with <>&\"' and </script> decode unchanged", hn);
	const bu = await hook(page, (p) => scorchView.find(p), e.badUtf8);
	ok(bu > 0, "invalid UTF-8 in a name shows as U+FFFD", bu);
	const ln = await hook(page, (p) => scorchView.find(p), e.long);
	const lr = ln > 0 ? await hook(page, (i) => scorchView.rectOf(i), ln) : null;
	ok(lr && lr.w > 0, "a 10 KB name decodes and draws", lr);
	ok(bad.requests.length === 0, "no request leaves file://", bad.requests);
	ok(bad.errors.length === 0, "no page or console errors", bad.errors);
	await page.close();
}

async function deepChecks(ctx, e) {
	const { page, bad } = await open(ctx, e.html);
	const info = await hook(page, () => ({ t: scorchView.total(), d: scorchView.maxDepth(),
		c: scorchView.canvasSize(), vh: window.innerHeight, dpr: devicePixelRatio,
		drawn: scorchView.drawn() }));
	ok(info.t === e.total && info.d === e.depth, "a 5000-frame stack decodes whole", info);
	ok(info.c.h <= info.vh * info.dpr && info.drawn > 0, "the canvas stays the viewport's size", info);
	// scroll to the top: the deepest frames are drawn
	await page.$eval("#v-flame", (v) => { v.scrollTop = 0; });
	await page.waitForTimeout(50);
	const deepest = await hook(page, () => scorchView.drawn());
	const node = await hook(page, (p) => scorchView.find(p), e.deepPath);
	const r = await hook(page, (i) => scorchView.rectOf(i), node);
	ok(deepest > 0 && r.y >= 0 && r.y < info.vh, "the top of the deep stack can be scrolled to", { deepest, r });
	await page.mouse.click(r.x + 3, r.y + r.h / 2);
	ok((await hook(page, () => scorchView.state())).zoom === node, "a frame 5000 deep zooms on click");
	// a hand-made hash: unknown view, zoom past the end, bad regex, bad frame
	await page.goto("file://" + path.resolve(e.html) + "#v=nope&z=99999999&s=%28&f=-5&r=5-1&th=x");
	await page.reload();
	await page.waitForSelector("body[data-ready]", { timeout: 15000 });
	const st = await hook(page, () => scorchView.state());
	ok(st.view === "flame" && st.zoom === 0 && st.fn === -1 && st.range === null,
		"a malformed URL hash falls back to the defaults", st);
	ok(bad.errors.length === 0 && bad.requests.length === 0, "deep stack: no errors, no requests", bad);
	await page.close();
}

// a profile of 1000 functions: the table's first 200 rows by self, then
// by total, are python's largest, and the rest are counted
async function tableChecks(ctx, e) {
	const { page, bad } = await open(ctx, e.html);
	await page.click('button[data-view="table"]');
	const col = (j) => page.$$eval("#fn-rows tr[data-frame]", (rows, j) =>
		rows.map((tr) => parseFloat(tr.children[j].getAttribute("data-value"))), j);
	const selfs = await col(0);
	ok(JSON.stringify(selfs) === JSON.stringify(e.self), "table: the first 200 rows by self are the largest selfs",
		{ page: selfs.slice(0, 5), want: e.self.slice(0, 5), n: selfs.length });
	await page.click('#fn-table th[data-key="total"]');
	const totals = await col(2);
	ok(JSON.stringify(totals) === JSON.stringify(e.total), "table: and by total, the largest totals",
		{ page: totals.slice(0, 5), want: e.total.slice(0, 5), n: totals.length });
	const more = await page.textContent("#fn-rows td.more");
	ok(more.startsWith((e.nfun - 200) + " more"), "table: the rows not shown are counted", { more, nfun: e.nfun });
	ok(bad.errors.length === 0, "table: no page errors", bad.errors);
	await page.close();
}

// a merge or hide drawn unzoomed is first a draft of the nodes that draw: its
// picture (and count of frames drawn) equals the whole tree's
// a regex matching one function's nodes, ten's, a third's: the nodes
// by function (made after the first paint) or one pass over the tree;
// the samples matched and their share of a zoom are python's
async function searchChecks(ctx, e) {
	const { page, bad } = await open(ctx, e.html);
	await page.waitForTimeout(300); // the page's work after the first paint
	const zoom = await hook(page, () => scorchView.find(["proc-3"]));
	for (const [rx, m, zm, zt] of e.searches) {
		const got = await hook(page, (rx) => { scorchView.act("search", rx); return scorchView.matched(); }, rx);
		ok(got === m, "search " + rx + ": the samples python counts", { got, want: m });
		await hook(page, (z) => scorchView.act("zoom", z), zoom);
		const text = await page.textContent("#matched");
		const want = "(" + (100 * zm / zt).toFixed(2) + "% of zoom)";
		ok(text.includes(want), "search " + rx + ": its share of a zoom", { text, want });
		await hook(page, () => scorchView.act("zoom", 0));
	}
	// n steps through the matches in order (a zoom keeps the place)
	await hook(page, (rx) => scorchView.act("search", rx), e.searches[1][0]);
	const zs = [];
	for (let k = 0; k < 3; k++) {
		await page.keyboard.press("n");
		zs.push((await hook(page, () => scorchView.state())).zoom);
	}
	ok(zs[0] > 0 && zs[0] < zs[1] && zs[1] < zs[2], "search: n goes to the next match each time", zs);
	ok(bad.errors.length === 0, "search: no page errors", bad.errors);
	await page.close();
}

async function draftChecks(ctx, e) {
	const { page, bad } = await open(ctx, e.html);
	const shot = (v) => page.evaluate((v) => document.querySelector("#v-" + v + " canvas").toDataURL(), v);
	const f = await hook(page, () => scorchView.frameOf(scorchView.find([scorchView.name(1)])));
	const g = await hook(page, () => scorchView.frameOf(2));
	for (const [v, tx] of [["flame", [["m", f]]], ["icicle", [["m", f], ["m", g]]], ["flame", [["r", 0]]],
		["flame", [["h", f]]], ["icicle", [["m", g], ["h", f]]]]) {
		await hook(page, (v) => scorchView.act("view", v), v);
		// in one go: the page makes the tree whole when idle
		const { dn, a, ad } = await hook(page, (x) => {
			scorchView.act("tx", x[1]);
			scorchView.act("view", x[0]); // again, in the layout the transform bar settled
			return { dn: scorchView.draft(), ad: scorchView.drawn(),
				a: document.querySelector("#v-" + x[0] + " canvas").toDataURL() };
		}, [v, tx]);
		const wn = await hook(page, () => scorchView.size()); // makes the tree whole
		const wd = await hook(page, () => scorchView.draft());
		await hook(page, (v) => scorchView.act("view", v), v);
		const b = await shot(v), bd = await hook(page, () => scorchView.drawn());
		ok(dn > 0 && dn < wn && wd === 0, v + " " + JSON.stringify(tx) + ": a draft of fewer nodes first, then the whole tree",
			{ dn, wn, wd });
		ok(a === b && ad === bd && ad > 0, v + " " + JSON.stringify(tx) + ": the draft draws what the whole tree draws",
			{ ad, bd, same: a === b });
		await hook(page, () => scorchView.act("tx", []));
	}
	// merges after a drafted one are made with it at once: the same
	// stacks as one after the other (made with the table shown, no draft)
	for (const tx of [[["m", f], ["m", g]], [["m", f], ["r", 0]], [["r", 0], ["m", f]], [["m", g], ["u", 0], ["r", 0]]]) {
		const once = await hook(page, (tx) => {
			scorchView.act("view", "flame");
			scorchView.act("tx", []);
			for (let k = 1; k <= tx.length; k++)
				scorchView.act("tx", tx.slice(0, k));
			return scorchView.folded();
		}, tx);
		const steps = await hook(page, (tx) => {
			scorchView.act("tx", []);
			scorchView.act("view", "table");
			for (let k = 1; k <= tx.length; k++)
				scorchView.act("tx", tx.slice(0, k));
			return scorchView.folded();
		}, tx);
		const dc = sameLines(once, steps);
		ok(dc === null && once.length > 0, JSON.stringify(tx) + " drafted one by one: the stacks of one transform after the other", dc);
	}
	await hook(page, () => { scorchView.act("tx", []); scorchView.act("view", "flame"); });
	const drafted = await hook(page, (f) => { scorchView.act("tx", [["m", f]]); return scorchView.draft(); }, f);
	const idle = await page.waitForFunction(() => scorchView.draft() === 0, null, { timeout: 20000 })
		.then(() => true, () => false);
	ok(drafted > 0 && idle, "the page makes a draft whole when idle", { drafted, idle });
	await hook(page, (f) => scorchView.act("tx", [["m", f]]), f);
	await hook(page, () => scorchView.act("search", "method_1"));
	ok(await hook(page, () => scorchView.draft()) === 0, "a search makes the draft whole");
	ok(bad.errors.length === 0, "drafts: no page errors", bad.errors);
	await page.close();
}

async function emptyChecks(ctx, html) {
	const { page, bad } = await open(ctx, html);
	for (const v of ["icicle", "table", "sandwich", "flame"])
		await page.click(`button[data-view="${v}"]`);
	await page.fill("#search", "x");
	ok(await hook(page, () => scorchView.total()) === 0 && bad.errors.length === 0,
		"an empty profile opens, and every view and a search work on it", bad.errors);
	await page.close();
}

async function diffChecks(ctx, e) {
	const { page, bad } = await open(ctx, e.html);
	const after = await hook(page, () => scorchView.total());
	await page.click("#swap");
	const before = await hook(page, () => scorchView.total());
	ok(after === e.after && before === e.before, "diff: after's total, and before's after Swap",
		{ after, before, e });
	const ink = await hook(page, () => scorchView.inked());
	ok(ink > 0.005, "the diff view's canvas is not blank", ink);
	await screenshotNotBlank(page, "shot-diff", "the diff view");
	// after Swap back: colours and numbers per frame, against scorch diff
	await page.click("#swap");
	const colorOf = async (name) => {
		const i = await hook(page, (p) => scorchView.find(p), ["m", name]);
		const r = await hook(page, (i) => scorchView.rectOf(i), i);
		if (i < 0 || !(r.w > 10))
			return { i, rgb: null };
		return { i, r, rgb: await hook(page, (a) => scorchView.pixel(a[0], a[1]), [r.x + r.w - 4, r.y + r.h - 3]) };
	};
	const grew = await colorOf(e.grew), shrank = await colorOf(e.shrank);
	ok(grew.rgb && grew.rgb[0] > grew.rgb[2] + 40, "a frame that grew is red", grew);
	ok(shrank.rgb && shrank.rgb[2] > shrank.rgb[0] + 40, "a frame that shrank (normalised) is blue", shrank);
	let same = true;
	const detail = [];
	for (const [name, a, b] of e.lines) {
		const i = await hook(page, (p) => scorchView.find(p), ["m", name]);
		const got = await hook(page, (i) => scorchView.diffOf(i), i);
		if (!got || got[0] !== a || got[1] !== b) {
			same = false;
			detail.push({ name, got, a, b });
		}
	}
	ok(same, "every frame's before and after equal scorch diff's", detail);
	// absolute colours: "same" grew in counts (5 -> 6) though its share shrank
	await page.click("#diffmode");
	const absSame = await colorOf(e.shrank);
	ok(absSame.rgb && absSame.rgb[0] > absSame.rgb[2] + 20, "absolute colours: a frame with more samples is red",
		absSame);
	await page.click("#diffmode");
	const nr = await colorOf(e.grew);
	await page.mouse.move(nr.r.x + nr.r.w / 2, nr.r.y + nr.r.h / 2);
	const tip = await page.$eval("#tip", (t) => t.textContent);
	ok(/ NEW$/m.test(tip), "a new frame is marked NEW", tip);
	ok(bad.errors.length === 0 && bad.requests.length === 0, "diff: no errors, no requests", bad);
	await page.close();
}

async function perfChecks(ctx, e) {
	const { page, bad } = await open(ctx, e.html);
	const total = await hook(page, () => scorchView.total());
	ok(total === e.total, "perf.data " + e.name + ": the total equals scorch fold's", { total, want: e.total });
	const dp = sameLines(await hook(page, () => scorchView.folded()),
		foldedLines(fs.readFileSync(e.folded, "utf8")));
	ok(dp === null, "perf.data " + e.name + ": the page's stacks read back equal scorch fold's", dp);
	await page.fill("#search", e.regex);
	const matched = await hook(page, () => scorchView.matched());
	ok(matched === e.matched, "perf.data " + e.name + ": a regex matches the samples python counts in scorch fold's output",
		{ matched, want: e.matched });
	await page.fill("#search", "");
	await page.click('button[data-view="table"]');
	const first = await page.$eval("#fn-rows tr td", (td) => parseFloat(td.getAttribute("data-value")));
	ok(first === e.topself, "perf.data " + e.name + ": top functions' first self equals python's largest self",
		{ first, want: e.topself });
	// modules: a frame perf script names has one of the objects perf
	// script gives that symbol; kernel objects are flagged kernel
	const frames = await hook(page, () => scorchView.frames());
	let known = 0;
	const wrong = [];
	for (const f of frames) {
		const want = e.dsos[f.name];
		if (!want || !f.module)
			continue;
		known++;
		if (!want.includes(f.module) || (f.module === "[kernel.kallsyms]" && !(f.flags & 1)))
			wrong.push({ f, want });
	}
	ok(known > 0 && wrong.length === 0, "perf.data " + e.name + ": frame modules (and kernel flags) as perf script shows them",
		{ known, wrong: wrong.slice(0, 5) });

	// time range: the page's total for [a, b] (µs bounds, inclusive) is
	// what scorch fold --time a,b folds
	const tm = await hook(page, () => scorchView.times());
	ok(tm && tm.n > 0 && tm.max >= tm.min, "perf.data " + e.name + ": the page has sample times", tm);
	if (tm && tm.n > 0) {
		const a = Math.ceil((tm.min + (tm.max - tm.min) / 4) / 1000) * 1000;
		const b = Math.max(a, Math.floor((tm.min + 3 * (tm.max - tm.min) / 4) / 1000) * 1000);
		const secs = (ns) => Math.floor(ns / 1e9) + "." + String((ns % 1e9) / 1000).padStart(6, "0");
		const out = execFileSync(e.scorch, ["fold", "--time", secs(a) + "," + secs(b),
			...e.foldArgs], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
		const want = out.split("\n").filter(Boolean).reduce((s, l) => s + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
		const ms = await hook(page, (r) => scorchView.act("range", r), [a, b]);
		const got = await hook(page, () => scorchView.total());
		ok(got === want, "perf.data " + e.name + ": a time range's total equals scorch fold --time's", { got, want, a, b });
		const dr = sameLines(await hook(page, () => scorchView.folded()), foldedLines(out));
		ok(dr === null, "perf.data " + e.name + ": and its stacks equal scorch fold --time's", dr);
		console.log("# range redraw " + ms.toFixed(1) + " ms");
		await hook(page, () => scorchView.act("tx", [["r", 0]]));
		const got2 = await hook(page, () => scorchView.total());
		ok(got2 === want, "perf.data " + e.name + ": the range holds through a transform (rows follow the rebuilt tree)",
			{ got2, want });
		await hook(page, () => scorchView.act("tx", []));
		await hook(page, () => scorchView.act("range", null));
		// drag across three cells of the heat map: the range is their 60 ms
		await page.click('button[data-view="time"]');
		const hink = await hook(page, () => scorchView.inked());
		ok(hink > 0.05, "perf.data " + e.name + ": the heat map is not blank", hink);
		await screenshotNotBlank(page, "shot-time-" + e.name, "perf.data " + e.name + ": the time view");
		const c = await page.$eval("#v-time canvas", (cv) => {
			const r = cv.getBoundingClientRect();
			return { x: r.left, y: r.top };
		});
		const cell = await page.evaluate(() => document.querySelector("#v-time canvas").height /
			(window.devicePixelRatio || 1));
		const ch = Math.floor((cell - 20) / 50);
		await page.mouse.move(c.x + 48, c.y + 16 + ch / 2);
		await page.mouse.down();
		await page.mouse.move(c.x + 48, c.y + 16 + 2 * ch + ch / 2, { steps: 4 });
		await page.mouse.up();
		const st = await hook(page, () => scorchView.state());
		ok(st.range && st.range[0] === 0 && st.range[1] === 60e6 - 1,
			"perf.data " + e.name + ": dragging over three heat map cells picks their 60 ms", st.range);
		await page.reload();
		await page.waitForSelector("body[data-ready]", { timeout: 15000 });
		const st2 = await hook(page, () => scorchView.state());
		ok(JSON.stringify(st2.range) === JSON.stringify(st.range), "perf.data " + e.name + ": the range survives a reload (URL)", st2);
		await hook(page, () => scorchView.act("range", null));
		// drag across the middle half of the per-thread timeline: the range
		// (ns) holds what scorch fold --time folds for it
		const tl = await hook(page, () => scorchView.timeline());
		await page.mouse.move(tl.x0 + tl.w * 0.25, tl.y + 8);
		await page.mouse.down();
		await page.mouse.move(tl.x0 + tl.w * 0.75, tl.y + 8, { steps: 4 });
		await page.mouse.up();
		const lr = (await hook(page, () => scorchView.state())).range;
		const ns9 = (ns) => Math.floor(ns / 1e9) + "." + String(ns % 1e9).padStart(9, "0");
		let lwant = -1;
		if (lr) {
			const o2 = execFileSync(e.scorch, ["fold", "--time", ns9(tm.min + lr[0]) + "," + ns9(tm.min + lr[1]),
				...e.foldArgs], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
			lwant = o2.split("\n").filter(Boolean).reduce((s, l) => s + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
		}
		const lgot = await hook(page, () => scorchView.total());
		ok(lr && lr[1] > lr[0] && lgot === lwant,
			"perf.data " + e.name + ": a range dragged on the thread timeline holds scorch fold --time's samples",
			{ lr, lgot, lwant });
		// a click on the first thread's name picks it
		await page.mouse.click(tl.x0 - 100, tl.y + 4 + 7);
		const pst = await hook(page, () => scorchView.state());
		ok(pst.threads && pst.threads.length === 1 && pst.threads[0] === tl.rows[0],
			"perf.data " + e.name + ": clicking a thread's name in the timeline picks it", pst.threads);
		await hook(page, () => { scorchView.act("threads", null); scorchView.act("range", null); });
	}
	// threads: the total of each thread is what scorch fold --tid gives it
	const ths = await hook(page, () => scorchView.threads());
	let same = ths.length > 0, detail = [];
	for (let k = 0; k < ths.length && k < 20; k++) {
		const got = await hook(page, (k) => { scorchView.act("threads", [k]); return scorchView.total(); }, k);
		const want = e.tids[String(ths[k].tid)] || 0;
		if (got !== want) {
			same = false;
			detail.push({ tid: ths[k].tid, got, want });
		}
	}
	ok(same, "perf.data " + e.name + ": each thread's total equals scorch fold --tid's for it", detail);
	ok(bad.errors.length === 0 && bad.requests.length === 0, "perf.data " + e.name + ": no errors, no requests", bad);
	await page.close();
}

// perf.data with DWARF: each wanted frame's source (the data, and the
// tooltip over its widest node) ends with "work.c:N", N the line of its
// definition; an inlined frame's tooltip also says "inlined"
async function sourceChecks(ctx, e) {
	const { page, bad } = await open(ctx, e.html);
	const frames = await hook(page, () => scorchView.frames());
	const names = Object.keys(e.want);
	ok(names.includes("spin"), "perf.data " + e.name + ": the folded stacks hold spin", names);
	for (const name of names) {
		const w = e.want[name];
		const fr = frames.filter((f) => f.name === name);
		const src = fr.map((f) => f.source);
		ok(fr.length > 0 && src.every((s) => s === w.line || s.endsWith("/" + w.line)),
			"perf.data " + e.name + ": " + name + "'s source is " + w.line, src);
		const node = await hook(page, (p) => scorchView.find(p), w.path);
		const r = node > 0 ? await hook(page, (i) => scorchView.rectOf(i), node) : null;
		let tip = "";
		if (r && r.w >= 1) {
			await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
			tip = await page.$eval("#tip", (t) => t.textContent);
		}
		const inl = fr.some((f) => f.flags & 2);
		const want = new RegExp("^source: (.*/)?" + w.line.replace(".", "\\.") + "$", "m");
		ok(tip.startsWith(name + "\n") && want.test(tip) && (!inl || /^(.*, )?inlined(,.*)?$/m.test(tip)),
			"perf.data " + e.name + ": the tooltip of " + name + " gives its source" +
			(inl ? " and says inlined" : ""), { tip, want: w.line, node, r });
	}
	if (e.name === "dwarf")
		ok(frames.some((f) => (f.flags & 2) && f.source), "perf.data dwarf: an inlined frame has a source",
			frames.filter((f) => f.flags & 2));
	ok(bad.errors.length === 0 && bad.requests.length === 0, "perf.data " + e.name + " sources: no errors, no requests", bad);
	await page.close();
}

(async () => {
	const e = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), "scorch-view-"));
	const ctx = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
		headless: true, args: FLAGS, viewport: { width: 1200, height: 700 },
	});
	try {
		await mainChecks(ctx, e.main);
		await deepChecks(ctx, e.deep);
		await diffChecks(ctx, e.diff);
		await emptyChecks(ctx, e.empty);
		await tableChecks(ctx, e.gen);
		await searchChecks(ctx, e.gen);
		await draftChecks(ctx, e.gen);
		for (const p of e.perf)
			await perfChecks(ctx, p);
		for (const p of e.sources)
			await sourceChecks(ctx, p);
	} catch (err) {
		ok(false, "browser run", String(err && err.stack || err));
	}
	await ctx.close();
	fs.rmSync(profile, { recursive: true, force: true });
	process.exit(failures ? 1 : 0);
})();
