// flame-browser.js: drive scorch's flame graph viewer in headless
// chromium (playwright-core) and check it behaves: click zoom, hover
// details, reset, regex search with the match percentage (nested matches
// counted once), the ignore-case toggle, Esc, and the URL state.
//   node flame-browser.js test SVG [DIFF_SVG]   TAP lines for tests/t6901
//   node flame-browser.js bench SVG     zoom-click timings on a big graph
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { chromium } = require("playwright-core");

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
	"--no-first-run", "--disable-background-networking",
	"--disable-component-update", "--disable-sync"];

async function open(svg) {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), "scorch-chromium-"));
	const ctx = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
		headless: true, args: FLAGS,
	});
	const page = ctx.pages()[0] || await ctx.newPage();
	const close = async () => {
		await ctx.close();
		fs.rmSync(profile, { recursive: true, force: true });
	};
	return { page, close, url: "file://" + path.resolve(svg) };
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

// Index of the frame whose title starts with "NAME (".
function indexOf(page, name) {
	return page.evaluate((n) => {
		const els = document.getElementById("frames").children;
		for (let i = 0; i < els.length; i++) {
			const t = els[i].getElementsByTagName("title")[0].textContent;
			if (t.startsWith(n + " ("))
				return i;
		}
		return -1;
	}, name);
}

// Where a frame is on screen (zooming transforms #frames; a clip keeps
// what falls outside the plot area out of view).
function frameInfo(page, i) {
	return page.evaluate((i) => {
		const el = document.getElementById("frames").children[i];
		const r = el.getElementsByTagName("rect")[0].getBoundingClientRect();
		const s = document.documentElement.getBoundingClientRect();
		const x = r.left - s.left, right = r.right - s.left;
		const lo = Math.max(x, 10), hi = Math.min(right, 1190);
		return { x: x, w: r.width, cls: el.getAttribute("class") || "", shown: hi - lo > 0.5 };
	}, i);
}

function labels(page) {
	return page.evaluate(() => Array.from(document.getElementById("labels").children)
		.map((t) => t.textContent));
}

async function test(svg, diffSvg) {
	const { page, close, url } = await open(svg);
	const errors = [];
	page.on("pageerror", (e) => errors.push(String(e)));
	let answer = null;
	page.on("dialog", (d) => d.accept(answer === null ? undefined : answer));
	await page.goto(url);
	const st = () => page.evaluate(() => window.scorch.state());
	const s0 = await st();
	ok(s0.frames >= 7 && s0.zoomed === -1, "viewer loaded, not zoomed", s0);

	const a = await indexOf(page, "a"), b = await indexOf(page, "b");
	const d = await indexOf(page, "d"), main = await indexOf(page, "main");
	const before = await frameInfo(page, b);
	await page.click(`#frames > :nth-child(${a + 1}) > rect`);
	let s = await st();
	ok(s.zoomed === a, "click zooms into the frame", s);
	const fa = await frameInfo(page, a), fb = await frameInfo(page, b);
	ok(Math.abs(fa.w - 1180) < 0.5 && Math.abs(fa.x - 10) < 0.5, "zoomed frame fills the width", fa);
	ok(Math.abs(fb.w - 885) < 0.5, "child rescaled (30 of 40 -> 885px)", fb);
	ok(!(await frameInfo(page, d)).shown, "frames outside the zoom are hidden");
	const fm = await frameInfo(page, main);
	ok(fm.shown && /\bp\b/.test(fm.cls), "ancestors stay visible, greyed", fm);
	ok(/z=\d+/.test(page.url()), "zoom is in the URL", page.url());
	const lz = await labels(page);
	ok(lz.includes("b") && lz.includes("c") && lz.includes("main") && !lz.includes("d"),
	   "labels redrawn for the zoomed view", lz);
	const unzoomShown = await page.evaluate(() => !document.getElementById("unzoom").classList.contains("hide"));
	ok(unzoomShown, "Reset Zoom appears");

	await page.hover(`#frames > :nth-child(${b + 1}) > rect`);
	const det = await page.evaluate(() => document.getElementById("details").textContent);
	ok(det === "Function: b (30 samples, 30.00%) [75.0% of zoom]", "hover: name, samples, % of total and of zoom", det);

	await page.click("#unzoom");
	s = await st();
	const after = await frameInfo(page, b);
	ok(s.zoomed === -1 && Math.abs(after.x - before.x) < 0.01 && Math.abs(after.w - before.w) < 0.01,
	   "Reset Zoom restores every frame", { s, before, after });
	ok((await frameInfo(page, d)).shown, "hidden frames come back");
	const lu = await labels(page);
	ok(lu.includes("d") && lu.includes("x"), "labels restored", lu);
	ok(!/z=/.test(page.url()), "reset drops the zoom from the URL", page.url());

	answer = "^[ab]$";
	await page.keyboard.press("Control+f");
	s = await st();
	ok(s.term === "^[ab]$", "Ctrl-F opens the search prompt", s);
	ok(s.matched === "Matched: 40.0%", "match % counts nested matches once (a 40 + b 30 inside a)", s.matched);
	const fill = await page.evaluate((i) => document.getElementById("frames").children[i]
		.getElementsByTagName("rect")[0].getAttribute("fill"), b);
	ok(fill === "rgb(230,0,230)", "matches are highlighted", fill);
	ok(/s=%5E%5Bab%5D%24/.test(page.url()), "search term is in the URL", page.url());

	await page.keyboard.press("Control+i");
	s = await st();
	ok(s.ignoreCase && s.matched === "Matched: 60.0%", "Ctrl-I: ignore case also matches A (20)", s);
	ok(/ic=1/.test(page.url()), "ignore-case is in the URL", page.url());

	await page.click(`#frames > :nth-child(${a + 1}) > rect`);
	s = await st();
	ok(s.matched === "Matched: 60.0% (100% of zoom)", "match % of the zoomed frame", s.matched);

	// a link reproduces the view
	const link = page.url();
	await page.goto("about:blank");
	await page.goto(link);
	s = await st();
	ok(s.zoomed === a && s.term === "^[ab]$" && s.ignoreCase && s.matched === "Matched: 60.0% (100% of zoom)",
	   "URL state restores zoom, search and case", { link, s });

	await page.keyboard.press("Escape");
	s = await st();
	ok(s.term === null && s.matched === " ", "Esc clears the search", s);
	await page.keyboard.press("Escape");
	s = await st();
	ok(s.zoomed === -1, "Esc again resets the zoom", s);

	answer = "(";
	await page.keyboard.press("Control+f");
	const m = await page.evaluate(() => document.getElementById("matched").textContent);
	ok(/^Bad regexp/.test(m), "an invalid regexp is reported, not thrown", m);
	if (diffSvg) {
		await page.goto("file://" + path.resolve(diffSvg));
		const g = await indexOf(page, "grow");
		await page.hover(`#frames > :nth-child(${g + 1}) > rect`);
		const dd = await page.evaluate(() => document.getElementById("details").textContent);
		ok(/\[before 1, after 10, \+900\.0%\]$/.test(dd), "differential hover: before, after and change", dd);
	}
	ok(errors.length === 0, "no script errors", errors);
	await close();
}

async function bench(svg) {
	const { page, close, url } = await open(svg);
	const t0 = Date.now();
	await page.goto(url);
	const load = Date.now() - t0;
	const r = await page.evaluate(async () => {
		const els = document.getElementById("frames").children;
		const frame = () => new Promise((res) => requestAnimationFrame(() => res()));
		// the widest child of the root and a small frame deep down
		const pick = [1, Math.floor(els.length / 2)];
		const out = { frames: els.length };
		for (const i of pick) {
			await frame();
			const t = performance.now();
			els[i].getElementsByTagName("rect")[0].dispatchEvent(new MouseEvent("click", { bubbles: true }));
			out["zoom" + i + "_script_ms"] = +(performance.now() - t).toFixed(1);
			document.documentElement.getBoundingClientRect();
			out["zoom" + i + "_layout_ms"] = +(performance.now() - t).toFixed(1);
			await frame();
			out["zoom" + i + "_painted_ms"] = +(performance.now() - t).toFixed(1);
			const u = performance.now();
			window.scorch.unzoom();
			await frame();
			out["unzoom" + i + "_ms"] = +(performance.now() - u).toFixed(1);
		}
		const s = performance.now();
		window.scorch.search("^func_1");
		await frame();
		out.search_ms = +(performance.now() - s).toFixed(1);
		return out;
	});
	r.load_ms = load;
	console.log(JSON.stringify(r));
	await close();
}

const [mode, svg, diffSvg] = process.argv.slice(2);
(mode === "bench" ? bench(svg) : test(svg, diffSvg)).then(() => {
	process.exit(failures ? 1 : 0);
}, (e) => {
	console.log("not ok - browser run: " + String(e).split("\n")[0]);
	process.exit(1);
});
