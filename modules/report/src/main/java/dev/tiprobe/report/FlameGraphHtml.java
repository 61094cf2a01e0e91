package dev.tiprobe.report;

import dev.tiprobe.ids.HumanNames;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.ClassEvent;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A self-contained, interactive flame graph of a recording (drawn root on top, so that deep
 * stacks grow down the page): one HTML file with its data, styles and script inline, no network.
 * Click a frame to zoom into it (click the root to zoom out), type in the search box to highlight
 * matching frames and see their share, hover for the weight, event count and percentage. One view
 * per kind of event the recording holds ({@link View}: cpu, wall, alloc, live, lock, wait), picked
 * from a menu; a timeline of class loads and unloads per second; and the counts, times and calls of
 * methods traced in the same session.
 */
public final class FlameGraphHtml {
    private FlameGraphHtml() {}

    /** Traced calls listed on the page at most (the .txt and .json reports have them all). */
    static final int MAX_CALLS_SHOWN = 500;

    /** A node of the merged stack tree: children by name, root first; {@code base}: a diff's weight in the base recording. */
    private static final class Node {
        final int name;
        long weight;
        long events;
        long base;
        final Map<Integer, Node> children = new LinkedHashMap<>();

        Node(int name) {
            this.name = name;
        }
    }

    /** The page with the views {@code r} holds, its natural view shown first, frames named as async-profiler names them. */
    public static void write(Recording r, Writer out, String title) throws IOException {
        write(r, null, HumanNames.FrameStyle.SLASH, out, title);
    }

    /**
     * The page with every view {@code r} holds (cpu, wall, alloc, live, lock, wait), a menu to
     * switch between them, {@code first} shown first (null: the recording's natural view), frames
     * named in {@code style}, as folded stacks name them.
     */
    public static void write(Recording r, View first, HumanNames.FrameStyle style, Writer out, String title) throws IOException {
        List<View> views = new ArrayList<>(View.in(r));
        if (first != null) {
            views.remove(first);
            views.addFirst(first);
        }
        Data data = new Data(style);
        for (View v : views) data.view(v.of(r), null);
        data.rest(r, r.samplesNote());
        page(data, out, title);
    }

    static void page(Data data, Writer out, String title) throws IOException {
        StringBuilder b = data.json.append(",\"title\":");
        JsonText.quote(b, title);
        b.append('}');
        out.write(fill(PAGE, Map.of(DATA_MARK, b.toString().replace("</", "<\\/"), TITLE_MARK, escape(title))));
        out.flush();
    }

    /** The page's data, as JSON, built view by view. */
    static final class Data {
        final HumanNames.FrameStyle style;
        final List<String> names = new ArrayList<>();
        final Map<String, Integer> index = new HashMap<>();
        final StringBuilder json = new StringBuilder("{\"views\":[");
        final int all = intern("all");  // index 0, also for a page with no view
        boolean anyView;

        Data(HumanNames.FrameStyle style) {
            this.style = style;
        }

        int intern(String name) {
            return index.computeIfAbsent(name, n -> {
                names.add(n);
                return names.size() - 1;
            });
        }

        /** One view's tree; with {@code base}, a diff: each node also gets its weight there, and the view the base's total. */
        void view(Profile p, Profile base) {
            Recording r = p.recording();
            Node root = new Node(all);
            for (Profile.Stack s : p.stacks()) {
                Node n = root;
                n.weight += s.weight();
                n.events++;
                for (int i = s.frames().length - 1; i >= 0; i--) {
                    n = n.children.computeIfAbsent(intern(HumanNames.frame(r.methodName(s.frames()[i]), style)), Node::new);
                    n.weight += s.weight();
                    n.events++;
                }
            }
            if (base != null) {
                for (Profile.Stack s : base.stacks()) {
                    // Down the new tree as far as the stack's frames are in it: frames gone since the base have no width to colour.
                    Node n = root;
                    n.base += s.weight();
                    for (int i = s.frames().length - 1; i >= 0 && n != null; i--) {
                        Integer name = index.get(HumanNames.frame(base.recording().methodName(s.frames()[i]), style));
                        n = name == null ? null : n.children.get(name);
                        if (n != null) n.base += s.weight();
                    }
                }
            }
            json.append(anyView ? "," : "").append("{\"id\":");
            anyView = true;
            JsonText.quote(json, p.view().id());
            json.append(",\"weighs\":");
            JsonText.quote(json, p.view().weighs());
            json.append(",\"unit\":");
            JsonText.quote(json, p.view().unit());
            if (base != null) json.append(",\"baseTotal\":").append(root.base);
            json.append(",\"root\":");
            node(json, root, base != null);
            json.append('}');
        }

        /**
         * The names, then what the page shows beside the graph: {@code r}'s class timeline, traced
         * methods and calls, and caveats (none for a diff, {@code r} null), and the note on the samples.
         */
        void rest(Recording r, String samplesNote) {
            json.append("],\"names\":[");
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) json.append(',');
                JsonText.quote(json, names.get(i));
            }
            json.append("],\"timeline\":");
            if (r == null) json.append("[]");
            else timeline(json, r);
            json.append(",\"traced\":[");
            List<TracedText.Method> traced = r == null ? List.of() : TracedText.methods(r);
            for (int i = 0; i < traced.size(); i++) {
                TracedText.Method m = traced.get(i);
                json.append(i > 0 ? "," : "").append('[');
                JsonText.quote(json, m.name());
                json.append(',').append(m.calls()).append(',').append(m.timed() ? m.totalNanos() : -1).append(']');
            }
            json.append("],\"calls\":[");
            List<Call> calls = r == null ? List.of() : TracedText.callsByStart(r);
            for (int i = 0; i < Math.min(calls.size(), MAX_CALLS_SHOWN); i++) {
                if (i > 0) json.append(',');
                JsonText.quote(json, TracedText.call(r, calls.get(i)));
            }
            json.append("],\"callCount\":").append(calls.size());
            json.append(",\"caveats\":[");
            List<String> caveats = r == null ? List.of() : r.caveats();
            for (int i = 0; i < caveats.size(); i++) {
                if (i > 0) json.append(',');
                JsonText.quote(json, caveats.get(i));
            }
            json.append("],\"samplesNote\":");
            JsonText.quote(json, samplesNote);
        }
    }

    private static final String DATA_MARK = "/*DATA*/null";
    private static final String TITLE_MARK = "TITLE";

    /**
     * The page template with each of its marks replaced by its value, in one pass from the start:
     * a value is never searched again, so a method or file named TITLE stays as it is.
     */
    static String fill(String template, Map<String, String> values) {
        StringBuilder out = new StringBuilder(template.length());
        int at = 0;
        while (true) {
            int next = -1;
            String mark = null;
            for (String m : values.keySet()) {
                int i = template.indexOf(m, at);
                if (i >= 0 && (next < 0 || i < next)) {
                    next = i;
                    mark = m;
                }
            }
            if (mark == null) return out.append(template, at, template.length()).toString();
            out.append(template, at, next).append(values.get(mark));
            at = next + mark.length();
        }
    }

    /** [name, weight, events, [children...]], and the base's weight after them in a diff. */
    private static void node(StringBuilder b, Node n, boolean diff) {
        b.append('[').append(n.name).append(',').append(n.weight).append(',').append(n.events).append(",[");
        boolean first = true;
        for (Node c : n.children.values()) {
            if (!first) b.append(',');
            first = false;
            node(b, c, diff);
        }
        b.append(']');
        if (diff) b.append(',').append(n.base);
        b.append(']');
    }

    /** Class loads and unloads per second since the start: [[second, loads, unloads], ...]. */
    private static void timeline(StringBuilder b, Recording r) {
        Map<Long, long[]> perSecond = new java.util.TreeMap<>();
        for (ClassEvent e : r.classEvents()) {
            long second = Math.max(0, (e.epochNanos() - r.startEpochNanos()) / 1_000_000_000L);
            perSecond.computeIfAbsent(second, k -> new long[2])[e.load() ? 0 : 1]++;
        }
        b.append('[');
        boolean first = true;
        for (Map.Entry<Long, long[]> e : perSecond.entrySet()) {
            if (!first) b.append(',');
            first = false;
            b.append('[').append(e.getKey()).append(',').append(e.getValue()[0]).append(',').append(e.getValue()[1]).append(']');
        }
        b.append(']');
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static final String PAGE = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>TITLE</title>
            <style>
              body { font: 12px system-ui, sans-serif; margin: 12px; color: #222; }
              h1 { font-size: 16px; margin: 0 0 8px; }
              #bar { display: flex; gap: 12px; align-items: center; margin-bottom: 8px; }
              #graph { position: relative; width: 100%; border-top: 1px solid #ccc; }
              .f { position: absolute; height: 17px; line-height: 17px; overflow: hidden; white-space: nowrap;
                   font-size: 11px; padding-left: 2px; box-sizing: border-box; border-right: 1px solid #fff;
                   cursor: pointer; }
              .f.hit { background: #e040fb !important; }
              #tip { position: fixed; display: none; background: #fffbe6; border: 1px solid #999; padding: 4px 6px;
                     pointer-events: none; max-width: 60%; }
              #timeline { margin-top: 16px; }
              #timeline .b { display: inline-block; width: 8px; margin-right: 1px; vertical-align: bottom; }
            </style>
            </head>
            <body>
            <h1>TITLE</h1>
            <div id="bar">
              <label>view <select id="view"></select></label>
              <input id="search" placeholder="search frames" size="30">
              <span id="matched"></span>
              <span id="total"></span>
            </div>
            <div id="note"></div>
            <div id="caveats"></div>
            <div id="graph"></div>
            <div id="tip"></div>
            <div id="timeline"><b>Class loads (green) and unloads (red) per second</b><div id="bars"></div></div>
            <div id="traced" style="display:none; margin-top: 16px"><b>Traced methods</b>
              <table><thead><tr><th align="right">calls</th><th align="right">total ms</th><th align="right">mean ns</th><th align="left">method</th></tr></thead>
              <tbody id="rows"></tbody></table>
              <div id="callsbox" style="display:none"><b id="callstitle">Traced calls</b><pre id="calls"></pre></div></div>
            <script>
            "use strict";
            const data = /*DATA*/null;
            const graph = document.getElementById("graph");
            const tip = document.getElementById("tip");
            const rowHeight = 18;
            let view = data.views.length > 0 ? data.views[0] : {id: "none", weighs: "nothing", unit: "samples", root: [0, 0, 0, []]};
            let zoomed = view.root;
            let query = "";
            const notes = {
              cpu: data.samplesNote,
              wall: data.samplesNote,
              alloc: "Sampled allocations, weighted by the bytes each sample stands for; the allocated class is the top frame.",
              live: "Sampled objects not collected when the recording ended, weighted by the bytes each stands for; the class is the top frame.",
              lock: "Waits to enter a monitor or take a java.util.concurrent lock another thread held, weighted by the time waited; the lock's class is the top frame.",
              wait: "Object.wait calls and parks for a condition or an event, weighted by the time waited; the monitor's or condition's class is the top frame."
            };

            function amount(w) {
              if (view.unit === "nanoseconds") return (w / 1e6).toFixed(1) + " ms";
              if (view.unit === "bytes") return w >= 1048576 ? (w / 1048576).toFixed(1) + " MiB" : (w / 1024).toFixed(1) + " KiB";
              return w + " samples";
            }

            // A diff (the view has the base's total): how many points of the total a frame's share gained since the base.
            function gained(node) {
              const now = view.root[1] > 0 ? node[1] / view.root[1] : 0;
              const then = view.baseTotal > 0 ? node[4] / view.baseTotal : 0;
              return 100 * (now - then);
            }

            function diffColor(node) {
              const d = gained(node);
              const c = Math.round(235 - 175 * Math.min(1, Math.abs(d) / 10));  // ten points and over: the deepest
              return Math.abs(d) < 0.1 ? "rgb(235,235,235)" : d > 0 ? "rgb(255," + c + "," + c + ")" : "rgb(" + c + "," + c + ",255)";
            }

            function color(name) {
              let h = 0;
              for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
              const java = /(^|[\\/!])(java|jdk|sun)[.\\/]/.test(name);  // java/lang/..., java.base/java.lang..., jdk.internal...
              return java ? "hsl(" + (190 + h % 30) + ",60%," + (60 + h % 15) + "%)"
                          : "hsl(" + (20 + h % 35) + ",85%," + (55 + h % 15) + "%)";
            }

            function depth(node) {
              let d = 0;
              for (const c of node[3]) d = Math.max(d, depth(c));
              return d + 1;
            }

            function render() {
              graph.textContent = "";
              const total = zoomed[1];
              const width = graph.clientWidth || 1000;
              const rows = depth(zoomed);
              graph.style.height = (rows * rowHeight) + "px";
              let matched = 0;
              function place(node, x, level, w, counted) {
                if (w < 1) return;
                const name = data.names[node[0]];
                const div = document.createElement("div");
                div.className = "f";
                div.style.left = x + "px";
                div.style.width = w + "px";
                div.style.top = (level * rowHeight) + "px";  // root on top: deep stacks grow down the page
                div.style.background = view.baseTotal === undefined ? color(name) : diffColor(node);
                div.textContent = name;
                const hit = query !== "" && name.indexOf(query) >= 0;
                if (hit) {
                  div.classList.add("hit");
                  if (!counted) matched += node[1];
                }
                div.onclick = () => { zoomed = (node === zoomed) ? view.root : node; render(); };
                div.onmousemove = (e) => {
                  const pct = total > 0 ? (100 * node[1] / total).toFixed(2) : "0";
                  tip.textContent = name + " \\u2014 " + amount(node[1]) + " in " + node[2] + " events, "
                      + pct + "% of the " + view.weighs + (view.baseTotal === undefined ? "" : "; of the whole, "
                      + (view.root[1] > 0 ? (100 * node[1] / view.root[1]).toFixed(2) : "0") + "% now, "
                      + (view.baseTotal > 0 ? (100 * node[4] / view.baseTotal).toFixed(2) : "0") + "% in the base ("
                      + (gained(node) >= 0 ? "+" : "") + gained(node).toFixed(2) + " points)");
                  tip.style.display = "block";
                  tip.style.left = (e.clientX + 12) + "px";
                  tip.style.top = (e.clientY + 12) + "px";
                };
                div.onmouseleave = () => { tip.style.display = "none"; };
                graph.appendChild(div);
                let cx = x;
                for (const c of node[3]) {
                  const cw = node[1] > 0 ? w * c[1] / node[1] : 0;
                  place(c, cx, level + 1, cw, counted || hit);
                  cx += cw;
                }
              }
              place(zoomed, 0, 0, width, false);
              document.getElementById("matched").textContent = query === "" ? ""
                  : "matched: " + (total > 0 ? (100 * matched / total).toFixed(2) : "0") + "%";
              document.getElementById("total").textContent = amount(view.root[1]) + " of " + view.weighs + " in "
                  + view.root[2] + " events";
              document.getElementById("note").textContent = notes[view.id] || "";
            }

            function timeline() {
              if (data.timeline.length === 0) {  // no class loaded or unloaded (and a diff page has none)
                document.getElementById("timeline").style.display = "none";
                return;
              }
              const bars = document.getElementById("bars");
              let max = 1;
              for (const t of data.timeline) max = Math.max(max, t[1], t[2]);
              for (const t of data.timeline) {
                for (const [i, c] of [[1, "#4caf50"], [2, "#e53935"]]) {
                  const b = document.createElement("span");
                  b.className = "b";
                  b.style.height = Math.max(1, Math.round(60 * t[i] / max)) + "px";
                  b.style.background = c;
                  b.title = "second " + t[0] + ": " + t[1] + " loads, " + t[2] + " unloads";
                  bars.appendChild(b);
                }
              }
            }

            function caveats() {
              for (const text of data.caveats) {
                const p = document.createElement("p");
                p.className = "caveat";
                p.textContent = text;
                document.getElementById("caveats").appendChild(p);
              }
            }

            function traced() {
              if (data.traced.length === 0) return;
              document.getElementById("traced").style.display = "block";
              const rows = document.getElementById("rows");
              for (const [name, calls, total] of data.traced) {
                const tr = document.createElement("tr");
                const cells = [String(calls), total < 0 ? "" : (total / 1e6).toFixed(3),
                               total < 0 || calls === 0 ? "" : String(Math.round(total / calls)), name];
                cells.forEach((text, i) => {
                  const td = document.createElement("td");
                  td.textContent = text;
                  td.align = i < 3 ? "right" : "left";
                  tr.appendChild(td);
                });
                rows.appendChild(tr);
              }
              if (data.calls.length === 0) return;
              document.getElementById("callsbox").style.display = "block";
              document.getElementById("callstitle").textContent = "Traced calls (" + data.calls.length + " of "
                  + data.callCount + ", in the order they started)";
              document.getElementById("calls").textContent = data.calls.join("\\n");
            }

            const menu = document.getElementById("view");
            data.views.forEach((v, i) => {
              const o = document.createElement("option");
              o.value = String(i);
              o.textContent = v.id + " (" + v.weighs + ")";
              menu.appendChild(o);
            });
            menu.onchange = (e) => { view = data.views[Number(e.target.value)]; zoomed = view.root; render(); };
            document.getElementById("search").oninput = (e) => { query = e.target.value; render(); };
            window.onresize = render;
            render();
            timeline();
            traced();
            caveats();
            </script>
            </body>
            </html>
            """;
}
