// scorch view: the single-file profile explorer. Written for scorch.
// The profile arrives base64 in #scv-data (format: src/render/view_data.h)
// and is decoded once into typed arrays: a call tree in preorder, so a
// node's subtree is the index range [i, end[i]) and x[i] is its absolute
// start in weight units. Every view draws on a canvas of the viewport's
// size only, walking the tree and skipping any subtree narrower than a
// pixel or below the visible rows, so neither the depth nor the number
// of nodes sets the canvas size. Names are only ever drawn with
// fillText or set as textContent: never parsed as markup.
"use strict";
(function () {
	var doc = document;
	var RH = 18; // row height, CSS px

	// ---- decoding ----
	function b64bytes(s) {
		if (typeof Uint8Array.fromBase64 === "function")
			return Uint8Array.fromBase64(s);
		var bin = atob(s), n = bin.length, u = new Uint8Array(n);
		for (var i = 0; i < n; i++)
			u[i] = bin.charCodeAt(i);
		return u;
	}

	function decode(u) {
		var p = 4;
		function v() {
			var x = 0, m = 1, b;
			do {
				b = u[p++];
				x += (b & 127) * m;
				m *= 128;
			} while (b & 128);
			return x;
		}
		if (u.length < 5 || u[0] !== 83 || u[1] !== 67 || u[2] !== 86 || u[3] !== 49)
			throw new Error("not scorch view data");
		var ncols = v(), ns = v(), strs = new Array(ns);
		var td = new TextDecoder("utf-8");
		for (var i = 0; i < ns; i++) {
			var len = v(), ascii = true;
			for (var k = p; k < p + len && ascii; k++)
				ascii = u[k] < 128;
			strs[i] = ascii && len < 4096 ? String.fromCharCode.apply(null, u.subarray(p, p + len))
				: td.decode(u.subarray(p, p + len));
			p += len;
		}
		var nf = v(), fname = new Array(nf + 1), fmod = new Array(nf + 1);
		var fflags = new Uint8Array(nf + 1), fcolor = new Array(nf + 1), fsrc = new Array(nf + 1);
		for (i = 0; i < nf; i++) {
			fname[i] = strs[v()];
			var m = v();
			fmod[i] = m ? strs[m - 1] : "";
			fflags[i] = v();
			var rgb = v();
			fcolor[i] = "rgb(" + (rgb >> 16) + "," + ((rgb >> 8) & 255) + "," + (rgb & 255) + ")";
			var sf = v(); // source file + 1, then its line (0: unknown)
			fsrc[i] = sf ? strs[sf - 1] : "";
			if (sf) {
				var ln = v();
				if (ln)
					fsrc[i] += ":" + ln;
			}
		}
		fname[nf] = "all";
		fmod[nf] = "";
		fsrc[nf] = "";
		var nn = v(), n = nn + 1;
		var parent = new Int32Array(n), depth = new Int32Array(n);
		var frame = new Uint32Array(n), self = [];
		for (var c = 0; c < ncols; c++)
			self.push(new Float64Array(n));
		var path = [0], d = 0;
		parent[0] = -1;
		frame[0] = nf;
		for (i = 1; i < n; i++) {
			var up2 = v();
			d = d + 1 - Math.floor(up2 / 2);
			parent[i] = path[d - 1];
			path[d] = i;
			depth[i] = d;
			frame[i] = v();
			if (up2 & 1)
				for (c = 0; c < ncols; c++)
					self[c][i] = v();
		}
		var unzig = function (x) { return x % 2 ? -(x + 1) / 2 : x / 2; };
		var threads = [], rows = null, tag;
		while (p < u.length && (tag = v()) !== 0) {
			var slen = v(), send = p + slen, k2, cnt;
			if (tag === 1) {
				cnt = v();
				for (k2 = 0; k2 < cnt; k2++)
					threads.push({ pid: unzig(v()), tid: unzig(v()), comm: strs[v()] });
			} else if (tag === 2) {
				cnt = v();
				rows = { n: cnt, time: new Float64Array(cnt), thread: new Uint32Array(cnt),
					node: new Int32Array(cnt), weight: new Float64Array(cnt) };
				var tprev = 0;
				for (k2 = 0; k2 < cnt; k2++) {
					tprev += unzig(v());
					rows.time[k2] = tprev;
					rows.thread[k2] = v();
					rows.node[k2] = v();
					rows.weight[k2] = v();
				}
			}
			p = send; // sections this reader does not know are skipped
		}
		return { ncols: ncols, nframes: nf, fname: fname, fmod: fmod, fflags: fflags, fcolor: fcolor,
			fsrc: fsrc, threads: threads, rows: rows,
			tree: shape({ n: n, parent: parent, depth: depth, frame: frame, self: self }) };
	}

	// node i's start in weight units (column tot): its ancestors' earlier
	// siblings' totals. Views place nodes as they walk the tree (a start
	// per depth), so no tree keeps an array of starts: a transform or a
	// filter changes only totals
	function xOf(t, tot, i) {
		var path = [];
		for (var a = i; a > 0; a = t.parent[a])
			path.push(a);
		var x = 0;
		for (var k = path.length - 1; k >= 0; k--)
			for (var j = t.parent[path[k]] + 1; j < path[k]; j = t.end[j])
				x += tot[j];
		return x;
	}
	// total of column c from self, each node's self plus its children's
	function sumUp(n, parent, tot) {
		for (var i = n - 1; i > 0; i--)
			tot[parent[i]] += tot[i];
	}

	// totals of column c again, after its self weights changed
	function reweigh(t, c) {
		var tot = t.total[c];
		tot.set(t.self[c]);
		sumUp(t.n, t.parent, tot);
	}

	// subtree ends, deepest depth, totals (per column)
	function shape(t) {
		var n = t.n, parent = t.parent, depth = t.depth, end = new Int32Array(n), i, c, maxd = 0;
		for (i = n - 1; i >= 0; i--) {
			var e = end[i] < i + 1 ? i + 1 : end[i], d = depth[i];
			end[i] = e;
			if (i > 0 && end[parent[i]] < e)
				end[parent[i]] = e;
			if (d > maxd)
				maxd = d;
		}
		t.end = end;
		t.maxDepth = maxd;
		t.total = [];
		for (c = 0; c < t.self.length; c++) {
			var tot = new Float64Array(t.self[c]);
			sumUp(n, parent, tot);
			t.total.push(tot);
		}
		return t;
	}

	// ---- the data: base64, gzip'd when data-enc says so ----
	var el = doc.getElementById("scv-data");
	var t0 = performance.now();
	function bytesOf() {
		var u = b64bytes(el.textContent.replace(/\s+/g, ""));
		if (el.getAttribute("data-enc") !== "gzip")
			return Promise.resolve(u);
		var s = new Blob([u]).stream().pipeThrough(new DecompressionStream("gzip"));
		return new Response(s).arrayBuffer().then(function (b) { return new Uint8Array(b); });
	}
	bytesOf().then(start, function (e) {
		doc.getElementById("title").textContent = "cannot read the profile: " + e;
		throw e;
	});

	function start(bytes) {
	var D = decode(bytes);
	var decodeMs = performance.now() - t0;
	var T = D.tree, diff = D.ncols === 2;
	var unit = doc.body.getAttribute("data-unit") || "samples";

	// ---- state (mirrored in the URL hash) ----
	var S = { view: "flame", zoom: 0, search: "", icase: false, fn: -1, col: diff ? 1 : 0,
		range: null, threads: null, tx: [], abs: false };
	var match = null, matchList = [], matchAt = -1;

	function W(i) { return T.total[S.col][i]; }
	function total() { return T.total[S.col][0]; }

	// ---- colours ----
	// the frame's colour: `scorch flame`'s for its name (from the file)
	function hot(f) {
		return D.fcolor[f];
	}
	function diffColor(i) {
		// normalised: shares of each total; absolute: the counts
		var a = T.total[0][i] / (S.abs ? 1 : T.total[0][0] || 1);
		var b = T.total[1][i] / (S.abs ? 1 : T.total[1][0] || 1);
		if (S.col === 0) { var s = a; a = b; b = s; }
		var d = b - a, m = Math.max(a, b) || 1, k = Math.min(1, Math.abs(d) / m);
		var v = Math.round(255 - 200 * k);
		return d > 0 ? "rgb(255," + v + "," + v + ")" : d < 0 ? "rgb(" + v + "," + v + ",255)" : "rgb(235,235,235)";
	}

	// the names' colour (the style's --frame-text): read once, and again
	// when the colour scheme changes (reading a style makes the browser
	// recompute the page's style then and there)
	var textColor = null;
	function frameText() {
		if (textColor === null)
			textColor = (getComputedStyle(doc.body).getPropertyValue("--frame-text") || "").trim() || "#000";
		return textColor;
	}
	if (window.matchMedia)
		window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function () {
			textColor = null;
			update();
		});

	// ---- a canvas flame/icicle view over any tree ----
	function FlameView(box, getTree, inverted, getZoom, onZoom) {
		this.box = box;
		this.getTree = getTree;
		this.inverted = inverted;
		this.getZoom = getZoom;
		this.onZoom = onZoom;
		this.spacer = doc.createElement("div");
		this.spacer.className = "spacer";
		this.canvas = doc.createElement("canvas");
		this.spacer.appendChild(this.canvas);
		box.appendChild(this.spacer);
		this.ctx = this.canvas.getContext("2d");
		var me = this;
		box.addEventListener("scroll", function () { me.draw(); });
		this.canvas.addEventListener("mousemove", function (e) { me.hover(e); });
		this.canvas.addEventListener("mouseleave", function () { tip.style.display = "none"; });
		this.canvas.addEventListener("click", function (e) {
			var i = me.at(e);
			if (i >= 0)
				me.onZoom(i);
		});
		this.placed = false;
	}
	// the spacer's height: every row, at least the viewport (a flame
	// graph's root row sits at its bottom)
	FlameView.prototype.height = function () {
		return Math.max((this.getTree().maxDepth + 1) * RH, this.box.clientHeight);
	};
	FlameView.prototype.rowY = function (d) {
		var y = this.inverted ? d * RH : this.height() - (d + 1) * RH;
		return y - this.box.scrollTop;
	};
	FlameView.prototype.range = function () {
		var t = this.getTree(), z = this.getZoom(), c = t.total.length > 1 ? S.col : 0;
		return { x0: xOf(t, t.total[c], z), w: t.total[c][z] || 1, c: c, z: z };
	};
	FlameView.prototype.draw = function () {
		var t = this.getTree();
		if (!t || this.box.offsetParent === null)
			return;
		var cw = this.box.clientWidth, ch = this.box.clientHeight;
		var H = this.height();
		this.spacer.style.height = H + "px";
		if (!this.placed && !this.inverted) {
			this.box.scrollTop = H;
			this.placed = true;
		}
		var dpr = window.devicePixelRatio || 1;
		var cv = this.canvas;
		if (cv.width !== Math.round(cw * dpr) || cv.height !== Math.round(ch * dpr)) {
			cv.width = Math.round(cw * dpr);
			cv.height = Math.round(ch * dpr);
			cv.style.width = cw + "px";
			cv.style.height = ch + "px";
		}
		cv.style.top = "0px";
		var ctx = this.ctx;
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, cw, ch);
		ctx.font = "12px ui-monospace, Menlo, Consolas, monospace";
		ctx.textBaseline = "middle";
		var charW = ctx.measureText("m").width || 7;
		var r = this.range(), c = r.c, tot = t.total[c];
		var scale = cw / r.w, depth = t.depth, frame = t.frame;
		var sTop = this.box.scrollTop;
		var dLo, dHi;
		if (this.inverted) {
			dLo = Math.floor(sTop / RH);
			dHi = Math.ceil((sTop + ch) / RH);
		} else {
			dLo = Math.floor((H - sTop - ch) / RH) - 1;
			dHi = Math.ceil((H - sTop) / RH);
		}
		var onZoomPath = new Set();
		for (var a = r.z; a >= 0; a = t.parent[a])
			onZoomPath.add(a);
		var isMain = t === T, drawn = 0, inv = this.inverted, names = D.fname;
		var fgc = frameText();
		// gathered first, then drawn a colour at a time: setting the fill
		// is what costs, and frames never overlap
		var fills = new Map(), faded = [], marks = [], strokes = [], texts = [], k;
		var other = isMain && diff ? T.total[S.col ? 0 : 1] : null;
		var m = drawable(t, tot, r.x0, scale, cw, dLo, dHi), on = onScreen.node, onX = onScreen.x;
		for (var q = 0; q < m; q++) {
			var i = on[q], x = onX[q], w = tot[i] * scale;
			var y = (inv ? depth[i] * RH : H - (depth[i] + 1) * RH) - sTop;
			var x1 = Math.max(x, 0), x2 = Math.min(x + w, cw), rw = Math.max(x2 - x1 - 0.5, 0.5);
			var f = frame[i];
			var fill = i === 0 && isMain ? "#c8c8c8" : isMain && diff ? diffColor(i) : hot(f);
			if (isMain && match && match[f])
				fill = "#e040e0";
			if (i !== r.z && onZoomPath.has(i)) {
				faded.push(fill, x1, y, rw);
			} else {
				var b = fills.get(fill);
				if (!b)
					fills.set(fill, b = []);
				b.push(x1, y, rw);
			}
			if (f === S.fn && i !== 0)
				strokes.push(x1, y, x2);
			if (other && other[i] === 0 && i !== 0)
				marks.push(x1, y, rw); // new frame
			var room = Math.floor((x2 - x1 - 6) / charW);
			if (room >= 3) {
				var name = names[f];
				if (name.length > room)
					name = name.slice(0, room - 2) + "..";
				texts.push(name, x1 + 3, y + RH / 2);
			}
			drawn++;
		}
		fills.forEach(function (b, fill) {
			ctx.fillStyle = fill;
			for (var j = 0; j < b.length; j += 3)
				ctx.fillRect(b[j], b[j + 1], b[j + 2], RH - 1);
		});
		ctx.globalAlpha = 0.55;
		for (k = 0; k < faded.length; k += 4) {
			ctx.fillStyle = faded[k];
			ctx.fillRect(faded[k + 1], faded[k + 2], faded[k + 3], RH - 1);
		}
		ctx.globalAlpha = 1;
		ctx.fillStyle = "#000";
		for (k = 0; k < marks.length; k += 3)
			ctx.fillRect(marks[k], marks[k + 1], marks[k + 2], 3);
		ctx.strokeStyle = "#000";
		ctx.lineWidth = 2;
		for (k = 0; k < strokes.length; k += 3)
			ctx.strokeRect(strokes[k] + 1, strokes[k + 1] + 1, Math.max(strokes[k + 2] - strokes[k] - 2, 1), RH - 3);
		ctx.fillStyle = fgc;
		for (k = 0; k < texts.length; k += 3)
			ctx.fillText(texts[k], texts[k + 1], texts[k + 2]);
		this.drawn = drawn;
	};
	// the nodes of t that draw, in preorder, and their x (px): a walk of
	// the tree from the root, jumping over any subtree narrower than half
	// a pixel, off the screen's columns, or below row dHi; a node's start
	// is after its earlier siblings (a running start per depth)
	var onScreen = { node: new Int32Array(1024), x: new Float64Array(1024) };
	function drawable(t, tot, x0, scale, cw, dLo, dHi) {
		var depth = t.depth, end = t.end, frame = t.frame, n = t.n, m = 0;
		var next = new Float64Array(t.maxDepth + 2), on = onScreen.node, onX = onScreen.x;
		for (var i = 0; i < n;) {
			var d = depth[i], xi = next[d], ti = tot[i];
			next[d] = xi + ti;
			next[d + 1] = xi;
			var w = ti * scale, x = (xi - x0) * scale;
			if (w < 0.5 || x >= cw || x + w <= 0 || d > dHi || frame[i] === FILL) {
				i = end[i];
				continue;
			}
			if (d >= dLo) {
				if (m === on.length) {
					growScreen();
					on = onScreen.node;
					onX = onScreen.x;
				}
				on[m] = i;
				onX[m++] = x;
			}
			i++;
		}
		return m;
	}
	function growScreen() {
		var node = new Int32Array(onScreen.node.length * 2), x = new Float64Array(node.length);
		node.set(onScreen.node);
		x.set(onScreen.x);
		onScreen = { node: node, x: x };
	}
	// node under the mouse, or -1
	FlameView.prototype.at = function (e) {
		var t = this.getTree(), rect = this.canvas.getBoundingClientRect();
		var px = e.clientX - rect.left, py = e.clientY - rect.top;
		return this.nodeAt(px, py);
	};
	FlameView.prototype.nodeAt = function (px, py) {
		whole();
		var t = this.getTree(), sTop = this.box.scrollTop;
		var d = this.inverted ? Math.floor((py + sTop) / RH)
			: Math.floor((this.height() - py - sTop) / RH);
		if (d < 0 || d > t.maxDepth)
			return -1;
		var r = this.range(), c = r.c, tot = t.total[c];
		var wx = r.x0 + px * r.w / this.box.clientWidth;
		var cur = 0, x = 0;
		while (t.depth[cur] < d) {
			var j = cur + 1, found = -1;
			while (j < t.end[cur]) {
				if (wx >= x && wx < x + tot[j]) {
					found = j;
					break;
				}
				x += tot[j];
				j = t.end[j];
			}
			if (found < 0)
				return -1;
			cur = found;
		}
		return cur;
	};
	// where node i is drawn (test hook), or null
	FlameView.prototype.rectOf = function (i) {
		whole();
		var t = this.getTree(), r = this.range(), cw = this.box.clientWidth;
		var scale = cw / r.w, x = (xOf(t, t.total[r.c], i) - r.x0) * scale, w = t.total[r.c][i] * scale;
		var br = this.canvas.getBoundingClientRect();
		return { x: br.left + Math.max(x, 0), y: br.top + this.rowY(t.depth[i]),
			w: Math.min(x + w, cw) - Math.max(x, 0), h: RH - 1 };
	};
	FlameView.prototype.hover = function (e) {
		whole();
		var i = this.at(e), t = this.getTree();
		if (i < 0) {
			tip.style.display = "none";
			return;
		}
		var c = t.total.length > 1 ? S.col : 0, f = t.frame[i];
		var tot = t.total[c][i], root = t.total[c][0], z = t.total[c][this.getZoom()] || 1;
		var lines = [D.fname[f]];
		lines.push(fmt(tot) + " " + unit + " (" + pct(tot, root) + " of total, " +
			pct(tot, z) + " of zoom)");
		lines.push("self " + fmt(t.self[c][i]) + " (" + pct(t.self[c][i], root) + "), total " + fmt(tot));
		if (D.fmod[f])
			lines.push("module " + D.fmod[f]);
		if (D.fsrc[f])
			lines.push("source: " + D.fsrc[f]);
		var fl = D.fflags[f], kinds = [];
		if (fl & 1) kinds.push("kernel");
		if (fl & 2) kinds.push("inlined");
		if (fl & 4) kinds.push("JIT");
		if (kinds.length)
			lines.push(kinds.join(", "));
		if (t === T && diff) {
			var a = T.total[0][i], b = T.total[1][i];
			lines.push("before " + fmt(a) + " (" + pct(a, T.total[0][0]) + "), after " + fmt(b) +
				" (" + pct(b, T.total[1][0]) + ")" + (a === 0 ? " NEW" : b === 0 ? " REMOVED" : ""));
		}
		tip.textContent = lines.join("\n");
		tip.style.display = "block";
		var tx = Math.min(e.clientX + 12, window.innerWidth - tip.offsetWidth - 4);
		var ty = e.clientY + 16 + tip.offsetHeight > window.innerHeight ? e.clientY - tip.offsetHeight - 8 : e.clientY + 16;
		tip.style.left = Math.max(tx, 0) + "px";
		tip.style.top = Math.max(ty, 0) + "px";
	};

	var factor = parseFloat(doc.body.getAttribute("data-factor")) || 1;
	function fmt(x) { // 1234567 -> "1,234,567" (toLocaleString is slow)
		return String(Math.round(x * factor)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
	}
	function pct(a, b) { return b > 0 ? (100 * a / b).toFixed(2) + "%" : "0%"; }

	// ---- page parts ----
	var tip = doc.getElementById("tip");
	var crumbs = doc.getElementById("crumbs");
	var searchBox = doc.getElementById("search");
	var icaseBox = doc.getElementById("icase");
	// the state is the URL hash's: the browser neither keeps nor restores
	// the inputs' (with it, each history.replaceState collects every
	// input's state: 12 ms for the thousand thread boxes, 1 without)
	searchBox.autocomplete = "off";
	icaseBox.autocomplete = "off";
	var matchedEl = doc.getElementById("matched");
	var views = {
		flame: new FlameView(doc.getElementById("v-flame"), function () { return T; }, false,
			function () { return S.zoom; }, zoomTo),
		icicle: new FlameView(doc.getElementById("v-icicle"), function () { return T; }, true,
			function () { return S.zoom; }, zoomTo),
	};
	var sand = { callers: null, callees: null };
	views.callers = new FlameView(doc.getElementById("v-callers"), function () { return sand.callers; },
		false, function () { return 0; }, function (i) { selectFn(sand.callers.frame[i]); });
	views.callees = new FlameView(doc.getElementById("v-callees"), function () { return sand.callees; },
		true, function () { return 0; }, function (i) { selectFn(sand.callees.frame[i]); });

	function zoomTo(i) {
		whole();
		S.zoom = i >= 0 && i < T.n && W(i) > 0 ? i : 0;
		if (S.zoom)
			S.fn = T.frame[S.zoom];
		update();
	}

	function drawCrumbs() {
		crumbs.textContent = "";
		var path = [];
		for (var a = S.zoom; a >= 0; a = T.parent[a])
			path.unshift(a);
		path.forEach(function (n, k) {
			var b = doc.createElement("button");
			b.textContent = D.fname[T.frame[n]];
			b.className = "crumb" + (n === S.zoom ? " current" : "");
			b.addEventListener("click", function () { zoomTo(n); });
			if (k)
				crumbs.appendChild(doc.createTextNode(" \u203a "));
			crumbs.appendChild(b);
		});
	}

	// ---- search ----
	// The regex is tried once per frame name (match: frame -> 1), only
	// when the search text changes; the matched nodes are the outermost
	// nodes of matched frames with weight (matchList, in preorder), made
	// again when the tree, its weights or the column change; a zoom only
	// sums the part of matchList under the zoomed node
	var matchKey = null, matchSum = 0;
	function frameMatches() {
		var key = S.search + "\u0000" + S.icase;
		if (key === matchKey)
			return;
		matchKey = key;
		match = null;
		var re = null;
		if (S.search) {
			try {
				re = new RegExp(S.search, S.icase ? "i" : "");
				searchBox.classList.remove("bad");
			} catch (e) {
				searchBox.classList.add("bad");
			}
		} else {
			searchBox.classList.remove("bad");
		}
		if (!re)
			return;
		match = new Uint8Array(D.nframes + 1);
		for (var f = 0; f < D.nframes; f++)
			match[f] = re.test(D.fname[f]) ? 1 : 0;
	}
	function runSearch() {
		frameMatches();
		matchList = [];
		matchSum = 0;
		matchAt = -1;
		if (!match)
			return;
		var tot = T.total[S.col], list = matchedNodes(T, match);
		if (list === null) { // one pass over the tree, skipping under each match
			var frame = T.frame, end = T.end, n = T.n, out = [];
			for (var i = 1; i < n;) {
				if (match[frame[i]] === 1) {
					if (tot[i] > 0)
						out.push(i);
					i = end[i];
				} else {
					i++;
				}
			}
			list = out;
		} else {
			list = outermost(T, list, tot);
		}
		var sum = 0;
		for (var k = 0; k < list.length; k++)
			sum += tot[list[k]];
		matchList = list;
		matchSum = sum;
	}
	// the nodes of s of the frames matched, sorted, from byFrame when
	// they are few (and byFrame is made); else null
	function matchedNodes(s, match) {
		var bf = s.byFrame, cnt = 0, nm = 0, f;
		if (!bf)
			return null;
		for (f = 0; f < D.nframes; f++)
			if (match[f] === 1) {
				cnt += bf.start[f + 1] - bf.start[f];
				nm++;
			}
		if (cnt > s.n >> 5)
			return null;
		var all = new Int32Array(cnt), m = 0;
		for (f = 0; f < D.nframes && m < cnt; f++)
			if (match[f] === 1 && bf.start[f + 1] > bf.start[f]) {
				all.set(bf.list.subarray(bf.start[f], bf.start[f + 1]), m);
				m += bf.start[f + 1] - bf.start[f];
			}
		if (nm > 1)
			all.sort();
		return all;
	}
	// of sorted nodes, those under none of the others, with weight
	function outermost(s, all, tot) {
		var end = s.end, out = [], last = 0;
		for (var k = 0; k < all.length; k++) {
			var i = all[k];
			if (i < last)
				continue;
			last = end[i]; // zero weight: so is everything under it
			if (tot[i] > 0)
				out.push(i);
		}
		return out;
	}
	// the Matched line: of the total, and of the zoomed node's (the
	// matched nodes in its range, found by binary search)
	function showMatched() {
		if (!match) {
			matchedEl.textContent = "";
			return;
		}
		var zsum = 0, tot = T.total[S.col], zEnd = T.end[S.zoom], lo = 0, hi = matchList.length;
		if (S.zoom) {
			while (lo < hi) {
				var mid = (lo + hi) >> 1;
				if (matchList[mid] < S.zoom)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (var k = lo; k < matchList.length && matchList[k] < zEnd; k++)
				zsum += tot[matchList[k]];
		}
		matchedEl.textContent = "Matched: " + pct(matchSum, total()) +
			(S.zoom ? " (" + pct(zsum, W(S.zoom)) + " of zoom)" : "");
		matchedEl.setAttribute("data-matched", String(matchSum));
	}
	function stepMatch(dir) {
		if (!matchList.length)
			return;
		matchAt = (matchAt + dir + matchList.length) % matchList.length;
		zoomTo(matchList[matchAt]);
	}

	// ---- top functions ----
	var fnSelf = null, fnTotal = null, sortKey = "self", sortDesc = true, tableRows = 200;
	function computeFunctions() {
		var nf = D.nframes, self = new Float64Array(nf + 1), tot = new Float64Array(nf + 1);
		var on = new Int32Array(nf + 1), c = S.col;
		var ts = T.self[c], tt = T.total[c], depth = T.depth, frame = T.frame, end = T.end;
		var path = new Int32Array(T.maxDepth + 2), top = 0; // frames on the path
		for (var i = 1, n = T.n; i < n;) {
			if (tt[i] === 0) { // nothing under it (a range or thread filter)
				i = end[i];
				continue;
			}
			var d = depth[i];
			while (top >= d)
				on[path[--top]]--;
			var f = frame[i];
			self[f] += ts[i];
			if (on[f] === 0)
				tot[f] += tt[i];
			on[f]++;
			path[top++] = f;
			i++;
		}
		fnSelf = self;
		fnTotal = tot;
	}
	// the k-th smallest of v (from 0; v is reordered): quickselect
	function kth(v, k) {
		var lo = 0, hi = v.length - 1;
		while (lo < hi) {
			var pivot = v[(lo + hi) >> 1], i = lo, j = hi;
			while (i <= j) {
				while (v[i] < pivot)
					i++;
				while (v[j] > pivot)
					j--;
				if (i <= j) {
					var t = v[i];
					v[i++] = v[j];
					v[j--] = t;
				}
			}
			if (k <= j)
				hi = j;
			else if (k >= i)
				lo = i;
			else
				break;
		}
		return v[k];
	}
	// the first lim of ids in cmp's order, which sorts by val (either
	// way) first: only the ids at or past the lim-th value (selected in
	// linear time) are sorted with cmp
	function topRows(ids, val, lim, cmp) {
		if (ids.length > 2 * lim) {
			var v = new Float64Array(ids.length), k;
			for (k = 0; k < ids.length; k++)
				v[k] = val[ids[k]];
			var cut = kth(v, sortDesc ? v.length - lim : lim - 1);
			ids = ids.filter(function (f) { return sortDesc ? val[f] >= cut : val[f] <= cut; });
		}
		return ids.sort(cmp).slice(0, lim);
	}
	var tableCache = null;
	function drawTable() {
		if (!fnSelf)
			computeFunctions();
		var c0 = tableCache, ids, count;
		if (c0 && c0.fnSelf === fnSelf && c0.match === match && c0.key === sortKey &&
		    c0.desc === sortDesc && c0.rows === tableRows) { // the same rows again
			ids = c0.ids;
			count = c0.count;
		} else {
			var nf = D.nframes, rank = frameRank();
			var key = sortKey === "self" ? fnSelf : sortKey === "total" ? fnTotal : rank;
			ids = [];
			for (var f = 0; f < nf; f++)
				if (fnTotal[f] > 0 && (!match || match[f]))
					ids.push(f);
			count = ids.length;
			ids = topRows(ids, key, tableRows, function (a, b) {
				var r = key[a] - key[b];
				if (r === 0)
					r = rank[a] - rank[b];
				return sortDesc ? -r : r;
			});
			tableCache = { fnSelf: fnSelf, match: match, key: sortKey, desc: sortDesc, rows: tableRows,
				ids: ids, count: count };
		}
		var body = doc.getElementById("fn-rows"), root = total();
		var frag = doc.createDocumentFragment();
		body.textContent = "";
		var lim = Math.min(ids.length, tableRows);
		for (var k = 0; k < lim; k++) {
			var tr = doc.createElement("tr"), id = ids[k];
			tr.setAttribute("data-frame", String(id));
			if (id === S.fn)
				tr.className = "sel";
			[fmt(fnSelf[id]), pct(fnSelf[id], root), fmt(fnTotal[id]), pct(fnTotal[id], root),
				D.fname[id]].forEach(function (txt, j) {
				var td = doc.createElement("td");
				td.textContent = txt;
				if (j === 0)
					td.setAttribute("data-value", String(fnSelf[id]));
				if (j === 2)
					td.setAttribute("data-value", String(fnTotal[id]));
				tr.appendChild(td);
			});
			tr.addEventListener("click", (function (f) { return function () { selectFn(f); setView("sandwich"); }; })(id));
			frag.appendChild(tr);
		}
		if (count > lim) { // more on demand: the DOM is the cost
			var more = doc.createElement("tr"), td = doc.createElement("td");
			td.colSpan = 5;
			td.className = "more";
			td.textContent = (count - lim) + " more functions: show 500 more";
			td.addEventListener("click", function (ev) {
				ev.stopPropagation();
				tableRows += 500;
				drawTable();
			});
			more.appendChild(td);
			frag.appendChild(more);
		}
		body.appendChild(frag);
		doc.querySelectorAll("#fn-table th").forEach(function (th) {
			th.classList.toggle("sorted", th.getAttribute("data-key") === sortKey);
			th.setAttribute("data-dir", th.getAttribute("data-key") === sortKey ? (sortDesc ? "desc" : "asc") : "");
		});
	}

	// ---- sandwich ----
	// callers: the paths up from each outermost node of the function,
	// reversed, merged; callees: everything under those nodes, merged
	// (rewrite's focus); both visit only the function's nodes (byFrame)
	// and the nodes above or below them
	function buildSandwich() {
		var F = S.fn;
		sand.callers = sand.callees = null;
		sand.fn = F;
		if (F < 0 || F >= D.nframes)
			return;
		var c = S.col;
		sand.callers = callersTree(T, F, T.total[c]);
		sand.callees = rewrite(T, [T.self[c]], "f", F, true, false).tree;
	}
	// the tree of s's paths from F's outermost nodes up to the root, F
	// first, weighed by those nodes' totals (tot), built depth first
	function callersTree(s, F, tot) {
		var bf = byFrame(s), parent = s.parent, frame = s.frame, rank = frameRank();
		var srcs = [], ws = [], cap = 1, k, i, a;
		for (k = bf.start[F]; k < bf.start[F + 1]; k++) {
			i = bf.list[k];
			if (tot[i] <= 0)
				continue;
			for (a = parent[i]; a > 0 && frame[a] !== F; a = parent[a])
				;
			if (a > 0)
				continue; // not outermost
			srcs.push(i);
			ws.push(tot[i]);
			cap += s.depth[i];
		}
		var np = new Int32Array(cap), nfr = new Uint32Array(cap), nd = new Int32Array(cap);
		var self = new Float64Array(cap), m = 0, stack = [];
		function node(fr, p, d) {
			np[m] = p;
			nfr[m] = fr;
			nd[m] = d;
			return m++;
		}
		// node t stands for the nodes srcs (weights ws); its children are
		// their parents, by frame
		function take(t, srcs, ws) {
			if (srcs.length === 1) { // one path: straight up to the root
				for (a = parent[srcs[0]]; a > 0; a = parent[a])
					t = node(frame[a], t, nd[t] + 1);
				self[t] += ws[0];
				return;
			}
			var groups = new Map(), order = [];
			for (var q = 0; q < srcs.length; q++) {
				a = parent[srcs[q]];
				if (a <= 0) {
					self[t] += ws[q];
					continue;
				}
				var g = groups.get(frame[a]);
				if (!g) {
					groups.set(frame[a], g = { s: [], w: [] });
					order.push(frame[a]);
				}
				g.s.push(a);
				g.w.push(ws[q]);
			}
			order.sort(function (x, y) { return rank[x] - rank[y]; });
			for (q = order.length - 1; q >= 0; q--)
				stack.push({ fr: order[q], g: groups.get(order[q]), p: t, d: nd[t] + 1 });
		}
		take(node(F, -1, 0), srcs, ws);
		while (stack.length) {
			var e = stack.pop();
			take(node(e.fr, e.p, e.d), e.g.s, e.g.w);
		}
		return shape({ n: m, parent: np.subarray(0, m), depth: nd.subarray(0, m),
			frame: nfr.subarray(0, m), self: [self.subarray(0, m)] });
	}
	function selectFn(f) {
		S.fn = f;
		sand.callers = sand.callees = null;
		update();
	}

	// ---- transforms: focus, merge, hide a function; collapse recursion
	// and [unknown] runs. S.tx is a list of [op, frame]: "f" focus (keep
	// the stacks through the frame, from its first call), "m" merge (drop
	// the frame from stacks, its time goes to its caller), "h" hide (drop
	// the stacks through it), "r" collapse direct recursion, "u" collapse
	// runs of [unknown].
	// Each transform rewrites the tree before it (rewrite above); the
	// trees of the list's prefixes are kept, so adding one costs one
	// rewrite and undoing all costs nothing. chain[k].map takes an
	// original node to the node of chain[k].tree its self went to.
	var T0 = T, nodeMap = null, txKey = "", chain = [{ key: "", tree: T0, map: null }];
	var unknownName = "[unknown]";
	T0.self0 = T0.self.slice();
	T0.filterKey = "|";
	function applyTransforms() {
		var keys = S.tx.map(function (t) { return t.join(""); }), key = keys.join(".");
		if (key === txKey)
			return false;
		txKey = key;
		var k = 0;
		while (k < keys.length && k + 1 < chain.length && chain[k + 1].key === keys[k])
			k++;
		chain.length = k + 1;
		for (; k < keys.length; k++) {
			var op = S.tx[k][0], draftW = k === keys.length - 1 ? draftable(op) : 0, base = k, list = [S.tx[k]];
			if (chain[k].draft) { // a draft of merges: this one too, from its tree, or its whole tree first
				if (draftW && mergesAtOnce(chain[k].ops.concat(list))) {
					base = chain[k].base;
					list = chain[k].ops.concat(list);
				} else {
					whole(k);
				}
			}
			var prev = chain[base].tree, r = list.length > 1 ? rewrite(prev, prev.self0, "c", list, false, !!R, draftW)
				: rewrite(prev, prev.self0, op, S.tx[k][1], false, !!R, draftW);
			var map = r.map, pm = chain[k].map;
			if (pm) {
				map = new Int32Array(pm.length);
				for (var i = 0; i < pm.length; i++)
					map[i] = pm[i] >= 0 ? r.map[pm[i]] : -1;
			}
			r.tree.filterKey = "|";
			r.tree.draftW = draftW;
			chain.push({ key: keys[k], tree: r.tree, map: map, draft: !!draftW, base: base, ops: list });
		}
		T = chain[chain.length - 1].tree;
		nodeMap = chain[chain.length - 1].map;
		fnSelf = null;
		sand.callers = null;
		lastSearch = null;
		if (!(S.zoom < T.n))
			S.zoom = 0;
		return true;
	}
	// A merge (of a function, recursion, [unknown] runs) or a hide shown
	// in the unzoomed flame graph or icicle, with no search, is first
	// built as a draft of only the nodes that draw (rewrite's draftW); the whole
	// tree replaces it when anything else needs the tree (whole(), called
	// by update and every other reader) or when the page is idle.
	// draftable(op): the width a draft of op would be drawn at, or 0
	function draftable(op) {
		var v = views[S.view];
		if (R || diff || S.zoom !== 0 || S.search || "mruh".indexOf(op) < 0 ||
				!(S.view === "flame" || S.view === "icicle") || v.box.offsetParent === null)
			return 0;
		return v.box.clientWidth;
	}
	// the whole tree for chain[k] (default: the last) when it is a draft
	function whole(k) {
		if (k === undefined)
			k = chain.length - 1;
		var e = chain[k];
		if (!e || !e.draft)
			return;
		var prev = chain[e.base].tree, o = e.ops;
		e.tree = (o.length > 1 ? rewrite(prev, prev.self0, "c", o, false, !!R)
			: rewrite(prev, prev.self0, o[0][0], o[0][1], false, !!R)).tree;
		e.tree.filterKey = "|";
		e.draft = false;
		if (k === chain.length - 1 && T !== e.tree) {
			T = e.tree;
			fnSelf = null;
			sand.callers = null;
			lastSearch = null;
		}
	}
	function drafted() { return chain[chain.length - 1].draft; }
	// whether the merges of list (several in a row) can be made in one
	// rewrite: merging a function drops nodes and all of them together
	// do the same, and collapsing recursion or [unknown] runs looks at
	// the parent in the new tree, so it sees what earlier merges made
	// adjacent; but not what later ones do, so no "m" after "r" or "u"
	function mergesAtOnce(list) {
		var ru = false;
		return list.every(function (o) {
			if (o[0] === "m")
				return !ru;
			if (o[0] !== "r" && o[0] !== "u")
				return false;
			ru = true;
			return true;
		});
	}
	var idleAsked = false;
	function wholeWhenIdle() {
		if (idleAsked || !drafted())
			return;
		idleAsked = true;
		var later = function () {
			idleAsked = false;
			whole();
		};
		if (window.requestIdleCallback)
			window.requestIdleCallback(later);
		else
			setTimeout(later, 0);
	}
	// ---- rewriting a tree by one transform, in one preorder pass ----
	// rewrite(s, selfCols, op, f, asRoot, wantMap) is the tree of s's
	// stacks after op (see S.tx below; asRoot: focus's f is the root)
	// with the self weights selfCols, and when wantMap, map: s's node ->
	// the new node its self went to (-1: dropped). It is built
	// in preorder, depth first: a new node takes its children from the
	// nodes of s it stands for (several where nodes merge: into their
	// parent, or focus's outermost nodes of f into one; then children
	// of one frame merge and come in name order); a subtree of s that
	// op leaves alone and that merges with nothing is copied whole
	// (typed array copies). So the cost is the nodes op touches and
	// their ancestors, plus copying: focus and a function's callees
	// visit only the subtrees under f.
	var rankOf = null, unkOf = null;
	function frameRank() { // frame -> its place among the names, sorted
		if (!rankOf) {
			var ids = [];
			for (var f = 0; f <= D.nframes; f++)
				ids.push(f);
			ids.sort(function (a, b) {
				var x = D.fname[a], y = D.fname[b];
				return x < y ? -1 : x > y ? 1 : a - b;
			});
			rankOf = new Int32Array(ids.length);
			ids.forEach(function (f, k) { rankOf[f] = k; });
		}
		return rankOf;
	}
	function unknownFrames() {
		if (!unkOf) {
			unkOf = new Uint8Array(D.nframes + 1);
			for (var f = 0; f < D.nframes; f++)
				unkOf[f] = D.fname[f] === unknownName ? 1 : 0;
		}
		return unkOf;
	}
	// s's nodes by frame, in preorder: nodes of f are list[start[f] ..
	// start[f + 1]); kept on s
	function byFrame(s) {
		if (s.byFrame)
			return s.byFrame;
		var nf = D.nframes + 1, start = new Int32Array(nf + 1), list = new Int32Array(s.n);
		var fr = s.frame, n = s.n, i;
		for (i = 0; i < n; i++)
			start[fr[i] + 1]++;
		for (i = 0; i < nf; i++)
			start[i + 1] += start[i];
		var at = start.slice(0, nf);
		for (i = 0; i < n; i++)
			list[at[fr[i]]++] = i;
		s.byFrame = { start: start, list: list };
		return s.byFrame;
	}
	// hide f: the same tree with no weight under f's outermost nodes;
	// only the weights are copied (zero-weight nodes are neither drawn
	// nor counted), and the totals change on the paths above them
	function hide(s, selfCols, f, wantMap) {
		var bf = byFrame(s), nc = selfCols.length, ns = [], nt = [], c, k, a;
		var same = (!R || s.filterKey === "|") && selfCols === s.self0;
		for (c = 0; c < nc; c++) {
			ns.push(new Float64Array(selfCols[c]));
			if (same) {
				nt.push(new Float64Array(s.total[c]));
			} else {
				nt.push(new Float64Array(selfCols[c]));
				sumUp(s.n, s.parent, nt[c]);
			}
		}
		var map = wantMap ? new Int32Array(s.n) : null, last = 0;
		if (map)
			for (k = 0; k < s.n; k++)
				map[k] = k;
		for (k = bf.start[f]; k < bf.start[f + 1]; k++) {
			var i = bf.list[k], e = s.end[i];
			if (i < last)
				continue; // under an earlier one
			last = e;
			for (c = 0; c < nc; c++) {
				var gone = nt[c][i];
				ns[c].fill(0, i, e);
				nt[c].fill(0, i, e);
				for (a = s.parent[i]; a >= 0; a = s.parent[a])
					nt[c][a] -= gone;
			}
			if (map)
				map.fill(-1, i, e);
		}
		var out = { n: s.n, parent: s.parent, depth: s.depth, frame: s.frame, end: s.end,
			maxDepth: s.maxDepth, byFrame: s.byFrame, self: ns, total: nt };
		out.self0 = ns.slice();
		return { tree: out, map: map };
	}
	// hide's draft (see rewrite): the nodes that draw of s with no weight
	// under f's outermost nodes, a FILL node in place of each dropped one;
	// the new totals are s's less what is hidden below (summed on the
	// paths above f's outermost nodes only)
	function hideDraft(s, f, cw) {
		var bf = byFrame(s), end = s.end, parent = s.parent, depth = s.depth, frame = s.frame;
		var tot = s.total[0], self = s.self0[0], less = new Map(), last = 0, k, a, j;
		for (k = bf.start[f]; k < bf.start[f + 1]; k++) {
			var i = bf.list[k];
			if (i < last)
				continue; // under an earlier one
			last = end[i];
			less.set(i, tot[i]);
			for (a = parent[i]; a >= 0; a = parent[a])
				less.set(a, (less.get(a) || 0) + tot[i]);
		}
		var scale = cw / ((tot[0] - (less.get(0) || 0)) || 1), cap = 4096, m = 0, up = [], sp = 0;
		var np = new Int32Array(cap), nfr = new Uint32Array(cap), nd = new Int32Array(cap);
		var ne = new Int32Array(cap), ns = new Float64Array(cap), nt = new Float64Array(cap);
		function grown(x) {
			var y = new x.constructor(cap * 2);
			y.set(x);
			return y;
		}
		for (j = 0; j < s.n;) {
			var d = depth[j], id = m++;
			if (id >= cap) {
				np = grown(np); nfr = grown(nfr); nd = grown(nd); ne = grown(ne); ns = grown(ns); nt = grown(nt);
				cap *= 2;
			}
			while (sp > d)
				ne[up[--sp]] = id;
			np[id] = d ? up[d - 1] : -1;
			nd[id] = d;
			nt[id] = tot[j] - (less.get(j) || 0);
			if (j > 0 && nt[id] * scale < 0.5) { // dropped: a filler
				nfr[id] = FILL;
				ne[id] = id + 1;
				j = end[j];
				continue;
			}
			nfr[id] = frame[j];
			ns[id] = self[j];
			up[sp++] = id;
			j++;
		}
		while (sp > 0)
			ne[up[--sp]] = m;
		var out = { n: m, parent: np.subarray(0, m), depth: nd.subarray(0, m), frame: nfr.subarray(0, m),
			end: ne.subarray(0, m), self: [ns.subarray(0, m)], total: [nt.subarray(0, m)], maxDepth: s.maxDepth };
		out.self0 = out.self.slice();
		return { tree: out, map: null };
	}
	// to[at..at+len) = from[a..a+len): small runs by hand (a subarray
	// view costs more than they do)
	function put(from, to, a, len, at) {
		if (len > 32) {
			to.set(from.subarray(a, a + len), at);
			return;
		}
		for (var j = 0; j < len; j++)
			to[at + j] = from[a + j];
	}
	// to[j + off] = from[j] + add for j in [a, b); the largest value
	function shift(from, to, a, b, off, add) {
		var most = -Infinity;
		for (var j = a; j < b; j++) {
			var v = from[j] + add;
			to[j + off] = v;
			if (v > most)
				most = v;
		}
		return most;
	}
	// s's nodes of the frame of their parent (kind "r"), or both
	// [unknown] ("u"), in preorder (kept on s)
	function likeParent(s, kind) {
		var key = "like" + kind;
		if (!s[key]) {
			var fr = s.frame, pa = s.parent, unk = unknownFrames(), out = [], i;
			for (i = 1; i < s.n; i++) {
				var a = fr[i], b = fr[pa[i]];
				if (kind === "r" ? a === b : (unk[a] & unk[b]) === 1)
					out.push(i);
			}
			s[key] = Int32Array.from(out);
		}
		return s[key];
	}
	// the deepest depth in each node's subtree (kept on s)
	function deepest(s) {
		if (!s.deep) {
			var deep = new Int32Array(s.depth), parent = s.parent;
			for (var i = s.n - 1; i > 0; i--)
				if (deep[parent[i]] < deep[i])
					deep[parent[i]] = deep[i];
			s.deep = deep;
		}
		return s.deep;
	}
	// rewrite(..., draftW): a draft for the unzoomed flame graph only (see
	// draftable below): a copied subtree keeps only the nodes that draw
	// (total * scale >= 0.5 px, the drawer's test, at its scale: draftW
	// px over the root's total); each node it
	// drops leaves a FILL node of the same total in its place, so the
	// later siblings are placed where they are in the whole tree, and the
	// drawer skips it. Built nodes, totals and maxDepth are the whole
	// tree's, so the picture is the same.
	var FILL = 4294967295;
	function rewrite(s, selfCols, op, f, asRoot, wantMap, draftW) {
		if (op === "h")
			return draftW ? hideDraft(s, f, draftW) : hide(s, selfCols, f, wantMap);
		var scale = draftW ? draftW / (s.total[0][0] || 1) : 0; // a merge keeps the root's total
		var n = s.n, parent = s.parent, frame = s.frame, depth = s.depth, end = s.end;
		// op "c": the merges of the list f at once (see mergesAtOnce)
		var nc = selfCols.length, merges = "mruc".indexOf(op) >= 0, ops = op === "c" ? f : [[op, f]];
		var isM = null, hasR = false, hasU = false, rank = frameRank(), i, k, bf;
		ops.forEach(function (o) {
			if (o[0] === "m")
				(isM = isM || new Uint8Array(D.nframes + 1))[o[1]] = 1;
			hasR = hasR || o[0] === "r";
			hasU = hasU || o[0] === "u";
		});
		var unk = hasU ? unknownFrames() : null;
		// j goes into its parent, of frame pf
		function mergedIn(j, pf) {
			var fj = frame[j];
			return (isM !== null && isM[fj] === 1) || (hasR && fj === pf) || (hasU && (unk[fj] & unk[pf]) === 1);
		}
		// touched(a, b): whether op changes any node of [a, b): whether
		// a list of the nodes it may change (sorted) has one there
		var lists = [], outer = [];
		ops.forEach(function (o) {
			if (o[0] === "m") {
				bf = byFrame(s);
				lists.push(bf.list.subarray(bf.start[o[1]], bf.start[o[1] + 1]));
			} else if (o[0] === "r" || o[0] === "u") {
				lists.push(likeParent(s, o[0]));
			}
		});
		function touched(a, b) {
			for (var q = 0; q < lists.length && b > a; q++) {
				var occ = lists[q], lo = 0, hi = occ.length;
				while (lo < hi) {
					var mid = (lo + hi) >> 1;
					if (occ[mid] < a)
						lo = mid + 1;
					else
						hi = mid;
				}
				if (lo < occ.length && occ[lo] < b)
					return true;
			}
			return false;
		}
		var cap = scale ? 4096 : n + 1; // a draft's arrays grow
		if (op === "f") { // f's outermost nodes
			bf = byFrame(s);
			cap = 2;
			for (k = bf.start[f]; k < bf.start[f + 1]; k++) {
				i = bf.list[k];
				if (!outer.length || i >= end[outer[outer.length - 1]]) {
					outer.push(i);
					cap += end[i] - i;
				}
			}
		}
		var np = new Int32Array(cap), nfr = new Uint32Array(cap), nd = new Int32Array(cap), ns = [];
		var tgt = wantMap ? new Int32Array(n).fill(-1) : null, m = 0, c, stack = [];
		for (c = 0; c < nc; c++)
			ns.push(new Float64Array(cap));
		// s's totals and ends hold for what is copied when they are of
		// these weights; then only the items (the nodes built one by one,
		// ~id, and the copies' tops, in order) are summed
		var same = (!R || s.filterKey === "|") && selfCols === s.self0;
		var ne = same ? new Int32Array(cap) : null, nt = [], items = [], maxd = 0;
		for (c = 0; same && c < nc; c++)
			nt.push(new Float64Array(cap));
		function more(to) { // twice the room, or to
			function grown(a) {
				var b = new a.constructor(to);
				b.set(a.subarray(0, m));
				return b;
			}
			to = Math.max(to, cap * 2);
			np = grown(np);
			nfr = grown(nfr);
			nd = grown(nd);
			ne = grown(ne);
			ns = ns.map(grown);
			nt = nt.map(grown);
			cap = to;
		}
		function node(fr, p, d) {
			if (m >= cap)
				more(m + 1);
			np[m] = p;
			nfr[m] = fr;
			nd[m] = d;
			if (d > maxd)
				maxd = d;
			items.push(~m); // built one by one
			return m++;
		}
		// the drawn part of s's subtree at src, as the child of p at
		// depth d (a draft: same is true, no map)
		var deep = scale ? deepest(s) : null, tot0 = s.total[0], up = [];
		function copyDrawn(src, p, d) {
			var e = end[src], d0 = depth[src], dd = d - d0, j = src, top = m, sp = 0;
			while (j < e) {
				if (m >= cap)
					more(m + 1);
				var rd = depth[j] - d0, id = m++;
				while (sp > rd) // close the nodes this one is not under
					ne[up[--sp]] = id;
				np[id] = rd ? up[rd - 1] : p;
				nd[id] = depth[j] + dd;
				for (c = 0; c < nc; c++)
					nt[c][id] = s.total[c][j];
				if (tot0[j] * scale < 0.5) { // dropped: a filler
					nfr[id] = FILL;
					ne[id] = id + 1;
					if (deep[j] + dd > maxd)
						maxd = deep[j] + dd;
					j = end[j];
					continue;
				}
				nfr[id] = frame[j];
				for (c = 0; c < nc; c++)
					ns[c][id] = selfCols[c][j];
				if (nd[id] > maxd)
					maxd = nd[id];
				up[sp++] = id;
				j++;
			}
			while (sp > 0)
				ne[up[--sp]] = m;
			items.push(top);
		}
		// s's subtree at src, unchanged, as the child of p at depth d
		function copy(src, p, d) {
			if (scale)
				return copyDrawn(src, p, d);
			var len = end[src] - src, off = m - src, dd = d - depth[src];
			put(frame, nfr, src, len, m);
			for (c = 0; c < nc; c++)
				put(selfCols[c], ns[c], src, len, m);
			np[m] = p;
			nd[m] = d;
			shift(parent, np, src + 1, src + len, off, off);
			var deepest = shift(depth, nd, src + 1, src + len, off, dd);
			if (deepest > maxd)
				maxd = deepest;
			if (same) {
				for (c = 0; c < nc; c++)
					put(s.total[c], nt[c], src, len, m);
				shift(end, ne, src, src + len, off, off);
				items.push(m);
			}
			if (tgt)
				for (var j = src; j < src + len; j++)
					tgt[j] = j + off;
			m += len;
		}
		// node t takes the self of srcs and their children as its own
		// (a merged child's too); its children wait on the stack
		function take(t, srcs) {
			var kids = [], multi = srcs.length > 1, q;
			for (q = 0; q < srcs.length; q++) {
				var sv = srcs[q];
				if (tgt)
					tgt[sv] = t;
				for (c = 0; c < nc; c++)
					ns[c][t] += selfCols[c][sv];
				for (var ch = sv + 1; ch < end[sv]; ch = end[ch]) {
					if (op === "h" && frame[ch] === f)
						continue;
					if (merges && mergedIn(ch, nfr[t])) {
						srcs.push(ch);
						multi = true;
					} else {
						kids.push(ch);
					}
				}
			}
			var d = nd[t] + 1;
			if (!multi) {
				for (q = kids.length - 1; q >= 0; q--)
					stack.push({ fr: frame[kids[q]], srcs: [kids[q]], p: t, d: d });
				return;
			}
			var groups = new Map(), order = [];
			for (q = 0; q < kids.length; q++) {
				var fr = frame[kids[q]], g = groups.get(fr);
				if (!g) {
					groups.set(fr, g = []);
					order.push(fr);
				}
				g.push(kids[q]);
			}
			order.sort(function (x, y) { return rank[x] - rank[y]; });
			for (q = order.length - 1; q >= 0; q--)
				stack.push({ fr: order[q], srcs: groups.get(order[q]), p: t, d: d });
		}
		if (op !== "f") {
			take(node(frame[0], -1, 0), [0]);
		} else if (asRoot) {
			take(node(f, -1, 0), outer);
		} else {
			node(frame[0], -1, 0);
			if (outer.length)
				stack.push({ fr: f, srcs: outer, p: 0, d: 1 });
		}
		while (stack.length) {
			var e = stack.pop(), s0 = e.srcs[0];
			if (e.srcs.length === 1 && !touched(s0 + 1, end[s0]))
				copy(s0, e.p, e.d);
			else
				take(node(e.fr, e.p, e.d), e.srcs);
		}
		for (c = 0; c < nc; c++)
			ns[c] = ns[c].subarray(0, m);
		var out = { n: m, parent: np.subarray(0, m), depth: nd.subarray(0, m),
			frame: nfr.subarray(0, m), self: ns };
		if (!same) {
			shape(out);
		} else { // sum the items up, children (later) first
			for (k = items.length - 1; k >= 0; k--) {
				var t = items[k] < 0 ? ~items[k] : items[k], pt = np[t];
				if (items[k] < 0) { // built: its own self and end too
					if (ne[t] < t + 1)
						ne[t] = t + 1;
					for (c = 0; c < nc; c++)
						nt[c][t] += ns[c][t];
				}
				if (pt >= 0) {
					if (ne[pt] < ne[t])
						ne[pt] = ne[t];
					for (c = 0; c < nc; c++)
						nt[c][pt] += nt[c][t];
				}
			}
			out.end = ne.subarray(0, m);
			out.total = nt.map(function (x) { return x.subarray(0, m); });
			out.maxDepth = maxd;
		}
		out.self0 = ns.slice();
		return { tree: out, map: tgt };
	}
	function addTransform(op, f) {
		S.tx = S.tx.concat([[op, f]]);
		S.zoom = 0;
		update();
	}
	function drawTx() {
		var el = doc.getElementById("tx"), names = { f: "focus", m: "merge", h: "hide" };
		el.textContent = "";
		S.tx.forEach(function (t) {
			var span = doc.createElement("span");
			span.className = "chip";
			span.textContent = t[0] === "r" ? "recursion collapsed" : t[0] === "u" ? "[unknown] runs collapsed"
				: names[t[0]] + " " + D.fname[t[1]];
			el.appendChild(span);
		});
		doc.getElementById("tx-reset").hidden = !S.tx.length;
		var has = S.fn >= 0;
		["focus", "merge", "hide"].forEach(function (id) {
			doc.getElementById("tx-" + id).disabled = !has;
		});
	}

	// ---- time: sub-second heat map, a range, threads ----
	var R = diff ? null : D.rows, tmin = 0, tmax = 0;
	var HEAT_ROWS = 50, CELL_NS = 1e9 / HEAT_ROWS;
	if (R && R.n) {
		tmin = Infinity;
		tmax = -Infinity;
		for (var ri = 0; ri < R.n; ri++) {
			if (R.time[ri] < tmin) tmin = R.time[ri];
			if (R.time[ri] > tmax) tmax = R.time[ri];
		}
	} else {
		R = null;
	}
	function threadMask() {
		if (!S.threads)
			return null;
		var want = new Uint8Array(D.threads.length);
		S.threads.forEach(function (t) { want[t] = 1; });
		return want;
	}
	// the self weights of the samples in the range and threads picked
	// (a tree's filterKey: what its weights are now)
	function applyFilter() {
		var key = (S.range ? S.range.join("-") : "") + "|" + (S.threads ? S.threads.join(".") : "");
		if (!R || key === T.filterKey)
			return;
		T.filterKey = key;
		if (!S.range && !S.threads) {
			T.self[0] = T.self0[0];
		} else {
			var sel = new Float64Array(T.n);
			var a = S.range ? tmin + S.range[0] : -Infinity, b = S.range ? tmin + S.range[1] : Infinity;
			sumRows(sel, a, b, threadMask(), nodeMap);
			T.self[0] = sel;
		}
		reweigh(T, 0);
		fnSelf = null;
		sand.callers = null;
		lastSearch = null;
		if (S.zoom && W(S.zoom) <= 0)
			S.zoom = 0;
	}
	// sel[node] += the weights of the samples of times a..b (inclusive)
	// of the threads wanted (all when null), through map (an original
	// node -> the tree's, or none): binary searches in each thread's rows
	function sumRows(sel, a, b, want, map) {
		var ix = rowIndex(), start = ix.start, tm = ix.time, nd = ix.node, wt = ix.weight;
		for (var t = 0; t + 1 < start.length; t++) {
			var lo = start[t], hi = start[t + 1];
			if (lo === hi || (want && want[t] !== 1))
				continue;
			if (tm[lo] < a)
				lo = firstAbove(tm, lo, hi, a, false);
			if (tm[hi - 1] > b)
				hi = firstAbove(tm, lo, hi, b, true);
			if (map) {
				for (var k = lo; k < hi; k++) {
					var n = map[nd[k]];
					if (n >= 0)
						sel[n] += wt[k];
				}
			} else {
				for (k = lo; k < hi; k++)
					sel[nd[k]] += wt[k];
			}
		}
	}
	// the first k in [lo, hi) with v[k] >= x (or > x when past), v sorted
	function firstAbove(v, lo, hi, x, past) {
		while (lo < hi) {
			var mid = (lo + hi) >> 1;
			if (past ? v[mid] <= x : v[mid] < x)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}
	// the sample rows by thread, each thread's in time order (time,
	// node, weight; a thread's are [start[t], start[t + 1]); rows of no
	// known thread come last); made once, after the first paint
	var rowIdx = null;
	function rowIndex() {
		if (rowIdx)
			return rowIdx;
		var nt = D.threads.length, start = new Int32Array(nt + 2), order = new Int32Array(R.n);
		var th = R.thread, time = R.time, n = R.n, i, t;
		var bucket = function (k) { return th[k] < nt ? th[k] : nt; };
		for (i = 0; i < n; i++)
			start[bucket(i) + 1]++;
		for (t = 0; t <= nt; t++)
			start[t + 1] += start[t];
		var at = start.slice(0, nt + 1);
		for (i = 0; i < n; i++)
			order[at[bucket(i)]++] = i;
		for (t = 0; t <= nt; t++) {
			var lo = start[t], hi = start[t + 1];
			for (i = lo + 1; i < hi && time[order[i - 1]] <= time[order[i]]; i++)
				;
			if (i < hi)
				order.set(Array.from(order.subarray(lo, hi)).sort(function (x, y) {
					return time[x] - time[y] || x - y;
				}), lo);
		}
		var tm = new Float64Array(n), nd = new Int32Array(n), wt = new Float64Array(n);
		for (i = 0; i < n; i++) {
			tm[i] = time[order[i]];
			nd[i] = R.node[order[i]];
			wt[i] = R.weight[order[i]];
		}
		rowIdx = { start: start, time: tm, node: nd, weight: wt };
		return rowIdx;
	}
	var heat = { cv: null, ncol: 1, cw: 8, ch: 8, left: 44, drag: null };
	function cellAt(e) {
		var r = heat.cv.getBoundingClientRect();
		var c = Math.floor((e.clientX - r.left - heat.left) / heat.cw);
		var row = Math.floor((e.clientY - r.top - 16) / heat.ch);
		if (c < 0 || c >= heat.ncol || row < 0 || row >= HEAT_ROWS)
			return -1;
		return c * HEAT_ROWS + row;
	}
	function cellRange(a, b) {
		var lo = Math.min(a, b), hi = Math.max(a, b);
		var start = Math.floor(lo / HEAT_ROWS) * 1e9 + (lo % HEAT_ROWS) * CELL_NS;
		var end = Math.floor(hi / HEAT_ROWS) * 1e9 + (hi % HEAT_ROWS + 1) * CELL_NS - 1;
		return [Math.round(start), Math.round(end)];
	}
	function initTime() {
		if (!R)
			return;
		doc.querySelector('#tabs button[data-view="time"]').hidden = false;
		heat.cv = doc.createElement("canvas");
		doc.getElementById("v-time").appendChild(heat.cv);
		heat.cv.addEventListener("mousedown", function (e) {
			var c = cellAt(e);
			if (c >= 0) {
				heat.drag = [c, c];
				e.preventDefault();
			}
		});
		heat.cv.addEventListener("mousemove", function (e) {
			var c = cellAt(e);
			if (heat.drag && c >= 0 && c !== heat.drag[1]) {
				heat.drag[1] = c;
				drawTime();
			}
		});
		window.addEventListener("mouseup", function () {
			if (!heat.drag)
				return;
			S.range = cellRange(heat.drag[0], heat.drag[1]);
			heat.drag = null;
			update();
		});
		initTimeline();
		doc.getElementById("clear-range").addEventListener("click", function () {
			S.range = null;
			update();
		});
		var list = doc.getElementById("threads"), counts = new Float64Array(D.threads.length);
		for (var i = 0; i < R.n; i++)
			counts[R.thread[i]] += R.weight[i];
		var order = D.threads.map(function (t, k) { return k; });
		order.sort(function (a, b) { return counts[b] - counts[a] || a - b; });
		order.slice(0, 1000).forEach(function (k) {
			var th = D.threads[k], lab = doc.createElement("label"), box = doc.createElement("input");
			box.type = "checkbox";
			box.autocomplete = "off"; // see searchBox
			box.value = String(k);
			box.addEventListener("change", function () {
				var on = [];
				list.querySelectorAll("input:checked").forEach(function (b) { on.push(+b.value); });
				S.threads = on.length ? on.sort(function (a, b) { return a - b; }) : null;
				update();
			});
			lab.style.color = threadColor(k);
			lab.appendChild(box);
			lab.appendChild(doc.createTextNode(" " + th.comm + " " + th.pid + "/" + th.tid +
				" (" + fmt(counts[k]) + ")"));
			list.appendChild(lab);
		});
	}
	// the thread list's boxes show S.threads (a pick on the timeline, or
	// from the URL)
	var boxesFor = "";
	function tickThreads() {
		var key = S.threads ? S.threads.join(".") : "";
		if (!R || key === boxesFor)
			return;
		boxesFor = key;
		doc.querySelectorAll("#threads input").forEach(function (b) {
			b.checked = !!S.threads && S.threads.indexOf(+b.value) >= 0;
		});
	}
	function drawTime() {
		var box = doc.getElementById("v-time"), cv = heat.cv;
		if (!cv || box.offsetParent === null)
			return;
		var ncol = Math.max(1, Math.ceil((tmax - tmin + 1) / 1e9)), want = threadMask();
		var counts = new Float64Array(ncol * HEAT_ROWS), max = 0, i;
		for (i = 0; i < R.n; i++) {
			if (want && !want[R.thread[i]])
				continue;
			var rel = R.time[i] - tmin, c = Math.floor(rel / 1e9);
			var k = c * HEAT_ROWS + Math.min(HEAT_ROWS - 1, Math.floor((rel - c * 1e9) / CELL_NS));
			counts[k] += R.weight[i];
			if (counts[k] > max)
				max = counts[k];
		}
		heat.ncol = ncol;
		heat.ch = Math.max(6, Math.floor((box.clientHeight - 24) / HEAT_ROWS));
		heat.cw = Math.max(1, Math.min(40, Math.floor(30000 / ncol),
			Math.floor((box.clientWidth - heat.left - 8) / ncol)));
		if (heat.cw < 6 && ncol * 6 + heat.left <= 30000)
			heat.cw = 6; // scroll sideways rather than draw slivers
		var w = heat.left + ncol * heat.cw + 4, h = 16 + HEAT_ROWS * heat.ch + 4;
		var dpr = window.devicePixelRatio || 1;
		cv.width = Math.round(w * dpr);
		cv.height = Math.round(h * dpr);
		cv.style.width = w + "px";
		cv.style.height = h + "px";
		var ctx = cv.getContext("2d");
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, w, h);
		var sel = heat.drag ? cellRange(heat.drag[0], heat.drag[1]) : S.range;
		for (i = 0; i < counts.length; i++) {
			var col = Math.floor(i / HEAT_ROWS), row = i % HEAT_ROWS;
			var v = max ? counts[i] / max : 0, g = Math.round(255 - 225 * v);
			ctx.fillStyle = counts[i] ? "rgb(255," + g + "," + Math.round(g * 0.8) + ")" : "#f4f4f4";
			var x = heat.left + col * heat.cw, y = 16 + row * heat.ch;
			ctx.fillRect(x, y, heat.cw - (heat.cw > 3 ? 1 : 0), heat.ch - 1);
			var t0c = col * 1e9 + row * CELL_NS;
			if (sel && t0c + CELL_NS - 1 >= sel[0] && t0c <= sel[1]) {
				ctx.strokeStyle = "#0050c8";
				ctx.lineWidth = 2;
				ctx.strokeRect(x + 1, y + 1, heat.cw - 3, heat.ch - 3);
			}
		}
		ctx.fillStyle = getComputedStyle(doc.body).color;
		ctx.font = "11px sans-serif";
		ctx.textBaseline = "top";
		ctx.fillText("ms", 4, 2);
		for (var r2 = 0; r2 < HEAT_ROWS; r2 += 10)
			ctx.fillText(String(r2 * 20), 4, 16 + r2 * heat.ch);
		for (var c2 = 0; c2 < ncol; c2 += Math.max(1, Math.ceil(40 / heat.cw)))
			ctx.fillText(c2 + "s", heat.left + c2 * heat.cw, 2);
	}
	// the per-thread timeline: a row per busiest thread (up to 30), its
	// samples per pixel of time in the thread's colour; drag for a range,
	// click a name to pick the thread
	var line = { cv: null, x0: 170, rows: [], drag: null };
	function threadColor(k) {
		return "hsl(" + Math.round((k * 137.508) % 360) + ",70%,42%)";
	}
	function lineNs(px) { // page x -> time from tmin
		var r = line.cv.getBoundingClientRect(), w = r.width - line.x0 - 8;
		var f = Math.min(1, Math.max(0, (px - r.left - line.x0) / w));
		return Math.round(f * (tmax - tmin));
	}
	function initTimeline() {
		line.cv = doc.createElement("canvas");
		doc.getElementById("v-timeline").appendChild(line.cv);
		var counts = new Float64Array(D.threads.length);
		for (var i = 0; i < R.n; i++)
			counts[R.thread[i]] += R.weight[i];
		line.rows = D.threads.map(function (t, k) { return k; })
			.sort(function (a, b) { return counts[b] - counts[a] || a - b; }).slice(0, 30);
		line.cv.addEventListener("mousedown", function (e) {
			var r = line.cv.getBoundingClientRect();
			if (e.clientX - r.left < line.x0) { // a thread's name: pick it
				var row = Math.floor((e.clientY - r.top - 4) / 14), k = line.rows[row];
				if (k === undefined)
					return;
				var on = S.threads ? S.threads.slice() : [], at = on.indexOf(k);
				if (at >= 0)
					on.splice(at, 1);
				else
					on.push(k);
				S.threads = on.length ? on.sort(function (a, b) { return a - b; }) : null;
				update();
				return;
			}
			line.drag = [lineNs(e.clientX), lineNs(e.clientX)];
			e.preventDefault();
		});
		line.cv.addEventListener("mousemove", function (e) {
			if (line.drag) {
				line.drag[1] = lineNs(e.clientX);
				drawTimeline();
			}
		});
		window.addEventListener("mouseup", function () {
			if (!line.drag)
				return;
			var a = Math.min(line.drag[0], line.drag[1]), b = Math.max(line.drag[0], line.drag[1]);
			line.drag = null;
			S.range = [a, b];
			update();
		});
	}
	function drawTimeline() {
		var box = doc.getElementById("v-timeline"), cv = line.cv;
		if (!cv || box.offsetParent === null)
			return;
		var w = Math.max(box.clientWidth, line.x0 + 50), h = 8 + line.rows.length * 14;
		var pw = Math.max(1, Math.floor(w - line.x0 - 8)), span = tmax - tmin + 1;
		var dpr = window.devicePixelRatio || 1;
		cv.width = Math.round(w * dpr);
		cv.height = Math.round(h * dpr);
		cv.style.width = w + "px";
		cv.style.height = h + "px";
		var ctx = cv.getContext("2d"), rowOf = new Int32Array(D.threads.length).fill(-1), i;
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, w, h);
		line.rows.forEach(function (k, j) { rowOf[k] = j; });
		var counts = new Float64Array(line.rows.length * pw), max = new Float64Array(line.rows.length);
		for (i = 0; i < R.n; i++) {
			var j = rowOf[R.thread[i]];
			if (j < 0)
				continue;
			var x = Math.min(pw - 1, Math.floor((R.time[i] - tmin) / span * pw)), at = j * pw + x;
			counts[at] += R.weight[i];
			if (counts[at] > max[j])
				max[j] = counts[at];
		}
		ctx.font = "11px sans-serif";
		ctx.textBaseline = "middle";
		line.rows.forEach(function (k, j) {
			var th = D.threads[k], y = 4 + j * 14, picked = S.threads && S.threads.indexOf(k) >= 0;
			ctx.fillStyle = threadColor(k);
			ctx.globalAlpha = picked || !S.threads ? 1 : 0.35;
			var label = th.comm + " " + th.pid + "/" + th.tid;
			ctx.fillText(label.length > 26 ? label.slice(0, 25) + ".." : label, 2, y + 6);
			for (var x2 = 0; x2 < pw; x2++) {
				var c = counts[j * pw + x2];
				if (!c)
					continue;
				ctx.globalAlpha = (0.25 + 0.75 * c / max[j]) * (picked || !S.threads ? 1 : 0.35);
				ctx.fillRect(line.x0 + x2, y, 1, 12);
			}
		});
		ctx.globalAlpha = 1;
		var sel = line.drag ? [Math.min(line.drag[0], line.drag[1]), Math.max(line.drag[0], line.drag[1])] : S.range;
		if (sel) {
			ctx.fillStyle = "rgba(0,80,200,0.18)";
			var xa = line.x0 + sel[0] / span * pw, xb = line.x0 + (sel[1] + 1) / span * pw;
			ctx.fillRect(xa, 0, Math.max(xb - xa, 1), h);
		}
	}

	function rangeText() {
		var el = doc.getElementById("range");
		if (!R) {
			el.textContent = "";
			return;
		}
		var parts = [];
		if (S.range)
			parts.push("time " + (S.range[0] / 1e6).toFixed(1) + "-" + (S.range[1] / 1e6).toFixed(1) + " ms");
		if (S.threads)
			parts.push(S.threads.length + " thread" + (S.threads.length > 1 ? "s" : ""));
		el.textContent = parts.length ? "Showing " + parts.join(", ") + " (" + fmt(total()) + " " + unit + ")" : "";
	}

	// ---- views, URL state, keys ----
	function setView(v) {
		if (!doc.getElementById("p-" + v) || (v === "time" && !R))
			v = "flame";
		S.view = v;
		update();
	}
	function writeHash() {
		var parts = ["v=" + S.view];
		if (S.zoom)
			parts.push("z=" + S.zoom);
		if (S.search)
			parts.push("s=" + encodeURIComponent(S.search));
		if (S.icase)
			parts.push("i=1");
		if (S.fn >= 0)
			parts.push("f=" + S.fn);
		if (diff && S.col === 0)
			parts.push("swap=1");
		if (diff && S.abs)
			parts.push("abs=1");
		if (S.range)
			parts.push("r=" + S.range[0] + "-" + S.range[1]);
		if (S.threads)
			parts.push("th=" + S.threads.join("."));
		if (S.tx.length)
			parts.push("tx=" + S.tx.map(function (t) { return t[0] + (t[0] === "r" || t[0] === "u" ? "" : t[1]); }).join("."));
		var h = "#" + parts.join("&");
		if (location.hash !== h)
			history.replaceState(null, "", h);
	}
	function readHash() {
		var h = location.hash.replace(/^#/, "");
		h.split("&").forEach(function (kv) {
			var k = kv.split("=")[0], v = kv.slice(k.length + 1);
			if (k === "v") S.view = v;
			if (k === "z") S.zoom = parseInt(v, 10) || 0;
			if (k === "s") { try { S.search = decodeURIComponent(v); } catch (e) { S.search = ""; } }
			if (k === "i") S.icase = v === "1";
			if (k === "f") S.fn = parseInt(v, 10);
			if (k === "swap" && diff) S.col = 0;
			if (k === "abs" && diff) S.abs = v === "1";
			if (k === "r") {
				var ab = v.split("-").map(Number);
				S.range = ab.length === 2 && ab[0] >= 0 && ab[1] >= ab[0] ? ab : null;
			}
			if (k === "tx") {
				S.tx = [];
				v.split(".").forEach(function (t) {
					var op = t.charAt(0), f = parseInt(t.slice(1), 10);
					if (op === "r" || op === "u")
						S.tx.push([op, 0]);
					else if ("fmh".indexOf(op) >= 0 && op && f >= 0 && f < D.nframes)
						S.tx.push([op, f]);
				});
			}
			if (k === "th") {
				var ts = v.split(".").map(Number).filter(function (x) {
					return x >= 0 && x < D.threads.length && Math.floor(x) === x;
				});
				S.threads = ts.length ? ts : null;
			}
		});
		if (!R) {
			S.range = null;
			S.threads = null;
		}
		if (!/^[a-z]+$/.test(S.view) || !doc.getElementById("p-" + S.view) || (S.view === "time" && !R))
			S.view = "flame";
		if (!(S.zoom >= 0 && S.zoom < T.n))
			S.zoom = 0;
		if (!(S.fn >= 0 && S.fn < D.nframes))
			S.fn = -1;
	}
	var lastSearch = null;
	function update() {
		if (drafted() && (S.tx.map(function (t) { return t.join(""); }).join(".") !== txKey ? false
				: !(draftable(S.tx[S.tx.length - 1][0]) && views[S.view].box.clientWidth === T.draftW)))
			whole();
		applyTransforms();
		applyFilter();
		var key = S.search + "\u0000" + S.icase + "\u0000" + S.col;
		if (key !== lastSearch) {
			runSearch();
			lastSearch = key;
		}
		showMatched();
		doc.querySelectorAll(".panel").forEach(function (p) {
			p.hidden = p.id !== "p-" + S.view;
		});
		doc.querySelectorAll("#tabs button").forEach(function (b) {
			b.classList.toggle("on", b.getAttribute("data-view") === S.view);
		});
		if (searchBox.value !== S.search)
			searchBox.value = S.search;
		icaseBox.checked = S.icase;
		drawCrumbs();
		if (S.view === "flame" || S.view === "icicle")
			views[S.view].draw();
		if (S.view === "table")
			drawTable();
		if (S.view === "time") {
			drawTimeline(); // first: its height sets the heat map's room
			drawTime();
		}
		rangeText();
		tickThreads();
		drawTx();
		if (diff)
			doc.getElementById("diffmode").textContent = S.abs ? "Colours: absolute" : "Colours: normalised";
		if (S.view === "sandwich") {
			if (!sand.callers || sand.fn !== S.fn)
				buildSandwich();
			var name = S.fn >= 0 ? D.fname[S.fn] : "(pick a function in the table or a graph)";
			doc.getElementById("sw-name").textContent = name;
			views.callers.placed = false;
			views.callers.draw();
			views.callees.draw();
		}
		writeHash();
		wholeWhenIdle();
	}

	doc.querySelectorAll("#tabs button").forEach(function (b) {
		b.addEventListener("click", function () { setView(b.getAttribute("data-view")); });
	});
	doc.querySelectorAll("#fn-table th").forEach(function (th) {
		th.addEventListener("click", function () {
			var k = th.getAttribute("data-key");
			if (k === sortKey)
				sortDesc = !sortDesc;
			else {
				sortKey = k;
				sortDesc = k !== "name";
			}
			drawTable();
		});
	});
	searchBox.addEventListener("input", function () {
		S.search = searchBox.value;
		update();
	});
	icaseBox.addEventListener("change", function () {
		S.icase = icaseBox.checked;
		update();
	});
	doc.getElementById("next").addEventListener("click", function () { stepMatch(1); });
	doc.getElementById("prev").addEventListener("click", function () { stepMatch(-1); });
	doc.getElementById("reset").addEventListener("click", function () { zoomTo(0); });
	var swapBtn = doc.getElementById("swap");
	if (diff) {
		var absBtn = doc.getElementById("diffmode");
		absBtn.hidden = false;
		absBtn.addEventListener("click", function () {
			S.abs = !S.abs;
			update();
		});
		swapBtn.hidden = false;
		swapBtn.addEventListener("click", function () {
			S.col = 1 - S.col;
			fnSelf = null;
			sand.callers = null;
			if (W(S.zoom) <= 0)
				S.zoom = 0;
			update();
		});
	}
	["focus", "merge", "hide"].forEach(function (id) {
		doc.getElementById("tx-" + id).addEventListener("click", function () {
			if (S.fn >= 0)
				addTransform(id.charAt(0), S.fn);
		});
	});
	doc.getElementById("tx-rec").addEventListener("click", function () { addTransform("r", 0); });
	doc.getElementById("tx-unk").addEventListener("click", function () { addTransform("u", 0); });
	doc.getElementById("tx-reset").addEventListener("click", function () {
		S.tx = [];
		S.zoom = 0;
		update();
	});
	doc.addEventListener("keydown", function (e) {
		whole();
		var inInput = e.target === searchBox;
		if (e.key === "/" && !inInput) {
			e.preventDefault();
			searchBox.focus();
			searchBox.select();
			return;
		}
		if (e.key === "Escape") {
			if (inInput)
				searchBox.blur();
			zoomTo(0);
			return;
		}
		if (inInput) {
			if (e.key === "Enter")
				stepMatch(e.shiftKey ? -1 : 1);
			return;
		}
		var z = S.zoom, k = e.key;
		if (k === "n" || k === "N") stepMatch(k === "n" ? 1 : -1);
		else if (k === "ArrowUp" || k === "ArrowDown") {
			var toParent = (k === "ArrowDown") !== (S.view === "icicle");
			if (toParent && z > 0) zoomTo(T.parent[z]);
			if (!toParent) { // widest child
				var best = -1;
				for (var j = z + 1; j < T.end[z]; j = T.end[j])
					if (best < 0 || W(j) > W(best)) best = j;
				if (best > 0) zoomTo(best);
			}
		} else if ((k === "ArrowLeft" || k === "ArrowRight") && z > 0) {
			var p = T.parent[z], sib = [];
			for (var s = p + 1; s < T.end[p]; s = T.end[s])
				if (W(s) > 0) sib.push(s);
			var at = sib.indexOf(z) + (k === "ArrowRight" ? 1 : -1);
			if (at >= 0 && at < sib.length) zoomTo(sib[at]);
		} else if (k >= "1" && k <= "5") setView(["flame", "icicle", "table", "sandwich", "time"][+k - 1]);
		else return;
		e.preventDefault();
	});
	window.addEventListener("resize", function () { update(); });
	window.addEventListener("hashchange", function () { whole(); readHash(); update(); });

	// ---- test hook (read-only views of the state) ----
	window.scorchView = {
		decodeMs: decodeMs,
		nodes: T.n,
		total: function () { return total(); },
		state: function () { return JSON.parse(JSON.stringify(S)); },
		matched: function () { return parseFloat(matchedEl.getAttribute("data-matched") || "0"); },
		name: function (i) { return D.fname[T.frame[i]]; },
		frameOf: function (i) { return T.frame[i]; },
		find: function (names) { // node of a root-first path of names, or -1
			var cur = 0;
			for (var k = 0; k < names.length; k++) {
				var nx = -1;
				for (var j = cur + 1; j < T.end[cur]; j = T.end[j])
					if (D.fname[T.frame[j]] === names[k]) { nx = j; break; }
				if (nx < 0) return -1;
				cur = nx;
			}
			return cur;
		},
		rectOf: function (i) { return views[S.view].rectOf(i); },
		drawn: function () { return views[S.view].drawn; },
		canvasSize: function () {
			var c = views[S.view].canvas;
			return { w: c.width, h: c.height };
		},
		maxDepth: function () { return T.maxDepth; },
		// run one interaction as the UI does; returns its milliseconds
		act: function (kind, arg) {
			var a = performance.now();
			if (kind === "zoom") zoomTo(arg);
			if (kind === "search") { S.search = arg; update(); }
			if (kind === "view") setView(arg);
			if (kind === "fn") selectFn(arg);
			if (kind === "range") { // absolute ns, inclusive; null: all
				S.range = arg ? [arg[0] - tmin, arg[1] - tmin] : null;
				update();
			}
			if (kind === "threads") { S.threads = arg; update(); }
			if (kind === "tx") { S.tx = arg; S.zoom = 0; update(); }
			return performance.now() - a;
		},
		// the colour drawn at page coordinates (x, y) of the current view
		pixel: function (x, y) {
			var v = views[S.view], r = v.canvas.getBoundingClientRect(), d = window.devicePixelRatio || 1;
			var px = v.ctx.getImageData(Math.round((x - r.left) * d), Math.round((y - r.top) * d), 1, 1).data;
			return [px[0], px[1], px[2]];
		},
		// share of the current view's canvas pixels drawn (not blank)
		inked: function () {
			var c = S.view === "sandwich" ? views.callees.canvas : S.view === "time" ? heat.cv
				: views[S.view] ? views[S.view].canvas : null;
			if (!c || !c.width || !c.height)
				return 0;
			var px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data, n = 0;
			for (var i = 3; i < px.length; i += 4)
				n += px[i] > 0 ? 1 : 0;
			return n / (c.width * c.height);
		},
		// before and after of node i (a diff)
		diffOf: function (i) { return diff ? [T.total[0][i], T.total[1][i]] : null; },
		// the stacks of the current tree (filters and transforms applied)
		// as folded lines "a;b;c N", sorted
		folded: function () {
			var out = [], path = [], c = S.col;
			for (var i = 1; i < T.n; i++) {
				path.length = T.depth[i] - 1;
				path.push(D.fname[T.frame[i]]);
				if (T.self[c][i] > 0)
					out.push(path.join(";") + " " + T.self[c][i]);
			}
			return out.sort();
		},
		// the sandwich's callers and callees trees as folded lines, the
		// function first, sorted
		sandwich: function () {
			var lines = function (t) {
				var out = [], path = [];
				for (var i = 0; i < t.n; i++) {
					path.length = t.depth[i];
					path.push(D.fname[t.frame[i]]);
					if (t.self[0][i] > 0)
						out.push(path.join(";") + " " + t.self[0][i]);
				}
				return out.sort();
			};
			return sand.callers ? { callers: lines(sand.callers), callees: lines(sand.callees) } : null;
		},
		frames: function () {
			var out = [];
			for (var f = 0; f < D.nframes; f++)
				out.push({ name: D.fname[f], module: D.fmod[f], flags: D.fflags[f], color: D.fcolor[f],
					source: D.fsrc[f] });
			return out;
		},
		// the timeline's plot: page x of its start and its width
		timeline: function () {
			var r = line.cv.getBoundingClientRect();
			return { x0: r.left + line.x0, w: r.width - line.x0 - 8, y: r.top, rows: line.rows };
		},
		times: function () { return R ? { min: tmin, max: tmax, n: R.n } : null; },
		threads: function () { return D.threads; },
		heap: function () { return performance.memory ? performance.memory.usedJSHeapSize : 0; },
		// whether the tree is still a draft (a merge drawn before it is whole)
		// (its node count, 0 when whole), and the whole tree's node count
		draft: function () { return drafted() ? T.n : 0; },
		size: function () { return T.n; },
	};
	// the readers of the tree see the whole one
	Object.keys(window.scorchView).forEach(function (k) {
		var fn = window.scorchView[k];
		if (typeof fn === "function" && ["act", "draft", "pixel", "inked", "canvasSize", "drawn", "state", "heap"].indexOf(k) < 0)
			window.scorchView[k] = function () { whole(); return fn.apply(null, arguments); };
	});
	initTime();
	readHash();
	update();
	window.scorchView.firstPaintMs = performance.now() - t0;
	setTimeout(function () { // the table's sums, ahead of the first look
		if (!fnSelf)
			computeFunctions();
		byFrame(T); // for the sandwich and focus
		deepest(T); // for drafts of merges
		likeParent(T, "r"); // for collapsing recursion
		frameRank(); // names in order: the table, merged children
		if (R)
			rowIndex(); // for a range or a thread pick
	}, 0);
	window.scorchView.readyAt = performance.now(); // since navigation start
	doc.body.setAttribute("data-ready", "1");
	}
})();
