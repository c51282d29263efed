// scorch flame graph viewer: zoom, search, hover details, URL state.
// Written for scorch (not derived from flamegraph.pl). Frames are the
// children of #frames in depth-first pre-order, so a frame's subtree is
// the index range [i, end[i]). A zoom is one transform on #frames (the
// clip around it hides what falls outside), a class on each ancestor, and
// a redraw of the labels in #labels for the frames wide enough to hold
// one, skipping every subtree too narrow for a label. So its cost does
// not grow with the number of frames; labels are cut by character count,
// never by measuring text.
"use strict";
(function () {
	var NS = "http://www.w3.org/2000/svg";
	var doc = document, frames = doc.getElementById("frames");
	if (!frames)
		return;
	var labelGroup = doc.getElementById("labels");
	var details = doc.getElementById("details");
	var matchedText = doc.getElementById("matched");
	var unzoomBtn = doc.getElementById("unzoom");
	var searchBtn = doc.getElementById("search");
	var icBtn = doc.getElementById("ignorecase");
	function num(name, def) {
		var v = parseFloat(frames.getAttribute(name));
		return isNaN(v) ? def : v;
	}
	var fontsize = num("data-fontsize", 12), fontwidth = num("data-fontwidth", 0.59);
	var xpad = num("data-xpad", 10), width = num("data-width", 1200);
	var inverted = frames.getAttribute("data-inverted") === "1";
	var truncLeft = frames.getAttribute("data-truncate") === "left";
	var searchColor = frames.getAttribute("data-searchcolor") || "rgb(230,0,230)";
	var nametype = frames.getAttribute("data-nametype") || "Function:";

	var els = Array.prototype.slice.call(frames.children), n = els.length;
	var xs = new Float64Array(n), ws = new Float64Array(n), ys = new Float64Array(n);
	var ends = new Int32Array(n), parents = new Int32Array(n);
	var rects = new Array(n), names = new Array(n);
	var rectH = 15, textDy = 10.5;

	// ---- geometry and tree shape from the rects ----
	(function () {
		var stack = [], depth = new Int32Array(n), fh = 16;
		for (var i = 0; i < n; i++) {
			var r = els[i].getElementsByTagName("rect")[0];
			rects[i] = r;
			xs[i] = parseFloat(r.getAttribute("x"));
			ws[i] = parseFloat(r.getAttribute("width"));
			ys[i] = parseFloat(r.getAttribute("y"));
			els[i]._fi = i;
		}
		if (n) {
			rectH = parseFloat(rects[0].getAttribute("height")) || 15;
			fh = num("data-frameheight", rectH + 1);
			textDy = rectH / 2 + 3;
		}
		for (i = 0; i < n; i++) {
			var d = Math.round((inverted ? ys[i] - ys[0] : ys[0] - ys[i]) / fh);
			depth[i] = d;
			while (stack.length && depth[stack[stack.length - 1]] >= d)
				ends[stack.pop()] = i;
			parents[i] = stack.length ? stack[stack.length - 1] : -1;
			stack.push(i);
		}
		while (stack.length)
			ends[stack.pop()] = n;
	})();

	function title(i) {
		var t = els[i].getElementsByTagName("title")[0];
		return t ? t.textContent : "";
	}
	function name(i) {
		var s = names[i];
		if (s === undefined) {
			s = title(i);
			var k = s.lastIndexOf(" (");
			if (k >= 0 && s.charAt(s.length - 1) === ")")
				s = s.substring(0, k);
			names[i] = s;
		}
		return s;
	}

	// ---- labels: as many characters as fit, by count, no measuring ----
	function fit(i, w) {
		var chars = Math.floor(w / (fontsize * fontwidth));
		if (chars < 3)
			return ""; // most frames: no need to read the name
		var s = name(i);
		if (s.length <= chars)
			return s;
		var keep = chars - 2, c;
		if (truncLeft) {
			var from = s.length - keep;
			c = s.charCodeAt(from);
			if (c >= 0xdc00 && c <= 0xdfff)
				from++; // do not split a surrogate pair
			return ".." + s.substring(from);
		}
		c = s.charCodeAt(keep - 1);
		if (c >= 0xd800 && c <= 0xdbff)
			keep--;
		return s.substring(0, keep) + "..";
	}
	// ---- labels: a pool of <text> in #labels, reused on every redraw ----
	var pool = labelGroup ? Array.prototype.slice.call(labelGroup.children) : [];
	var minLabel = 3 * fontsize * fontwidth;
	function drawLabels(z, tx, ratio) {
		if (!labelGroup)
			return;
		var used = 0;
		function put(j, x, w) {
			var s = fit(j, w);
			if (!s)
				return;
			var t = pool[used];
			if (!t) {
				t = doc.createElementNS(NS, "text");
				labelGroup.appendChild(t);
				pool.push(t);
			}
			t.setAttribute("x", (x + 3).toFixed(2));
			t.setAttribute("y", (ys[j] + textDy).toFixed(1));
			if (t.textContent !== s)
				t.textContent = s;
			used++;
		}
		for (var p = parents[z]; p >= 0; p = parents[p])
			put(p, xpad, width - 2 * xpad);
		for (var j = z, e = ends[z]; j < e; j++) {
			var w = ws[j] * ratio;
			if (w < minLabel) {
				j = ends[j] - 1; // its children are narrower still
				continue;
			}
			put(j, xs[j] * ratio + tx, w);
		}
		while (pool.length > used)
			labelGroup.removeChild(pool.pop());
	}

	// ---- zoom ----
	var zoomed = -1, parentsShown = [];
	function clearParents() {
		for (var k = 0; k < parentsShown.length; k++)
			els[parentsShown[k]].classList.remove("p");
		parentsShown = [];
	}
	function zoom(i) {
		if (i <= 0 || i >= n)
			return unzoom();
		clearParents();
		var ratio = (width - 2 * xpad) / ws[i], tx = xpad - xs[i] * ratio;
		frames.setAttribute("transform", "translate(" + tx + ",0) scale(" + ratio + ",1)");
		for (var p = parents[i]; p >= 0; p = parents[p]) {
			els[p].classList.add("p");
			parentsShown.push(p);
		}
		drawLabels(i, tx, ratio);
		zoomed = i;
		unzoomBtn.classList.remove("hide");
		if (term !== null)
			match();
		saveState();
	}
	function unzoom() {
		clearParents();
		frames.removeAttribute("transform");
		if (zoomed > 0 && n)
			drawLabels(0, 0, 1);
		zoomed = -1;
		unzoomBtn.classList.add("hide");
		if (term !== null)
			match();
		saveState();
	}

	// ---- search ----
	var term = null, ignoreCase = false, re = null, hits = [], hitSet = null;
	function pct(v) {
		return v >= 0.99995 ? "100" : (100 * v).toFixed(1);
	}
	function clearColors() {
		for (var k = 0; k < hits.length; k++) {
			var r = rects[hits[k]];
			r.setAttribute("fill", r.getAttribute("data-fill") || r.getAttribute("fill"));
		}
		hits = [];
		hitSet = null;
	}
	function match() {
		// Matched width without double counting: a match's subtree is
		// skipped once counted, so nested matches add nothing.
		var total = 0, end = -1;
		for (var k = 0; k < hits.length; k++) {
			var i = hits[k];
			if (i >= end) {
				total += ws[i];
				end = ends[i];
			}
		}
		var s = "Matched: " + pct(n ? total / ws[0] : 0) + "%";
		if (zoomed > 0) {
			var z = zoomed, inz = 0;
			for (var p = z; p >= 0 && !inz; p = parents[p])
				if (hitSet[p])
					inz = ws[z];
			end = -1;
			for (k = 0; k < hits.length && !inz; k++) {
				i = hits[k];
				if (i >= z && i < ends[z] && i >= end) {
					inz += ws[i];
					end = ends[i];
				}
			}
			s += " (" + pct(inz / ws[z]) + "% of zoom)";
		}
		matchedText.textContent = s;
	}
	function search(t) {
		if (t === null || t === undefined || t === "")
			return clearSearch();
		try {
			re = new RegExp(t, ignoreCase ? "i" : "");
		} catch (e) {
			matchedText.textContent = "Bad regexp: " + e.message;
			return;
		}
		clearColors();
		term = t;
		hitSet = new Uint8Array(n);
		for (var i = 0; i < n; i++) {
			if (re.test(name(i))) {
				var r = rects[i];
				if (!r.hasAttribute("data-fill"))
					r.setAttribute("data-fill", r.getAttribute("fill"));
				r.setAttribute("fill", searchColor);
				hits.push(i);
				hitSet[i] = 1;
			}
		}
		searchBtn.textContent = "Reset Search";
		searchBtn.classList.add("show");
		match();
		saveState();
	}
	function clearSearch() {
		clearColors();
		term = null;
		re = null;
		searchBtn.textContent = "Search";
		searchBtn.classList.remove("show");
		matchedText.textContent = " ";
		saveState();
	}
	function askSearch() {
		var t = prompt("Enter a search term (regexp allowed, eg: ^ext4_)" +
			(ignoreCase ? ", ignoring case" : "") +
			"\nPress Ctrl-i to toggle case sensitivity", term === null ? "" : term);
		if (t !== null)
			search(t);
	}
	function toggleCase() {
		ignoreCase = !ignoreCase;
		icBtn.classList.toggle("show", ignoreCase);
		if (term !== null)
			search(term);
		else
			saveState();
	}

	// ---- URL state: #z=FRAME&s=REGEXP&ic=1 ----
	function saveState() {
		var parts = [];
		if (zoomed > 0)
			parts.push("z=" + zoomed);
		if (term !== null)
			parts.push("s=" + encodeURIComponent(term));
		if (ignoreCase)
			parts.push("ic=1");
		var h = parts.length ? "#" + parts.join("&") : "";
		var url = location.href.replace(/#.*$/, "") + h;
		try {
			history.replaceState(history.state, "", url);
		} catch (e) {
			if (location.hash !== h)
				location.hash = h;
		}
	}
	function loadState() {
		var h = location.hash.replace(/^#/, ""), st = {};
		h.split("&").forEach(function (kv) {
			var k = kv.indexOf("=");
			if (k > 0)
				st[kv.substring(0, k)] = kv.substring(k + 1);
		});
		ignoreCase = st.ic === "1";
		icBtn.classList.toggle("show", ignoreCase);
		var z = parseInt(st.z, 10);
		if (z > 0 && z < n) {
			if (z !== zoomed)
				zoom(z);
		} else if (zoomed > 0) {
			unzoom();
		}
		var s = null;
		try {
			if (st.s !== undefined)
				s = decodeURIComponent(st.s);
		} catch (e) { /* malformed escape: ignore */ }
		if (s !== null)
			search(s);
		else if (term !== null)
			clearSearch();
	}

	// ---- events ----
	function frameOf(node) {
		while (node && node.parentNode !== frames)
			node = node.parentNode;
		return node && node._fi !== undefined ? node._fi : -1;
	}
	frames.addEventListener("click", function (ev) {
		var i = frameOf(ev.target);
		if (i < 0)
			return;
		if (els[i].tagName.toLowerCase() === "a" && !ev.ctrlKey)
			return; // --nameattr link: follow it; Ctrl-click zooms
		ev.preventDefault();
		zoom(i);
	});
	frames.addEventListener("mouseover", function (ev) {
		var i = frameOf(ev.target);
		if (i < 0)
			return;
		var s = nametype + " " + title(i);
		if (zoomed > 0 && i >= zoomed && i < ends[zoomed])
			s += " [" + pct(ws[i] / ws[zoomed]) + "% of zoom]";
		var b = els[i].getAttribute("data-before");
		if (b !== null) { // differential: the frame's own before and after
			var a = parseFloat(els[i].getAttribute("data-after")), bn = parseFloat(b);
			s += " [before " + b + ", after " + a +
				(bn > 0 ? ", " + (a >= bn ? "+" : "") + (100 * (a - bn) / bn).toFixed(1) + "%" : ", new") + "]";
		}
		details.textContent = s;
	});
	frames.addEventListener("mouseout", function () {
		details.textContent = " ";
	});
	unzoomBtn.addEventListener("click", unzoom);
	searchBtn.addEventListener("click", function () {
		if (term !== null)
			clearSearch();
		else
			askSearch();
	});
	icBtn.addEventListener("click", toggleCase);
	window.addEventListener("keydown", function (ev) {
		var k = ev.key;
		if (k === "F3" || ((ev.ctrlKey || ev.metaKey) && (k === "f" || k === "F"))) {
			ev.preventDefault();
			askSearch();
		} else if ((ev.ctrlKey || ev.metaKey) && (k === "i" || k === "I")) {
			ev.preventDefault();
			toggleCase();
		} else if (k === "Escape") {
			if (term !== null)
				clearSearch();
			else if (zoomed > 0)
				unzoom();
		}
	});
	window.addEventListener("hashchange", function () {
		loadState();
	});

	// For tests and embedding pages.
	window.scorch = {
		zoom: zoom, unzoom: unzoom, search: search, clearSearch: clearSearch,
		toggleCase: toggleCase,
		state: function () {
			return { zoomed: zoomed, term: term, ignoreCase: ignoreCase,
				 matched: matchedText.textContent, frames: n };
		}
	};
	loadState();
})();
