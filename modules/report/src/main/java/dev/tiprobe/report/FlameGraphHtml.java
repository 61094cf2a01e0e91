package dev.tiprobe.report;

import dev.tiprobe.ids.HumanNames;

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

    /** A node of the merged stack tree: children by name, root first. */
    private static final class Node {
        final int name;
        long weight;
        long events;
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
        List<String> names = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        List<View> views = new ArrayList<>(View.in(r));
        if (first != null) {
            views.remove(first);
            views.addFirst(first);
        }
        int all = intern("all", names, index);  // index 0, also for a page with no view
        StringBuilder data = new StringBuilder("{\"views\":[");
        for (int v = 0; v < views.size(); v++) {
            Profile p = views.get(v).of(r);
            Node root = new Node(all);
            for (Profile.Stack s : p.stacks()) {
                Node n = root;
                n.weight += s.weight();
                n.events++;
                for (int i = s.frames().length - 1; i >= 0; i--) {
                    int name = intern(HumanNames.frame(r.methodName(s.frames()[i]), style), names, index);
                    n = n.children.computeIfAbsent(name, Node::new);
                    n.weight += s.weight();
                    n.events++;
                }
            }
            data.append(v > 0 ? "," : "").append("{\"id\":");
            JsonText.quote(data, p.view().id());
            data.append(",\"weighs\":");
            JsonText.quote(data, p.view().weighs());
            data.append(",\"unit\":");
            JsonText.quote(data, p.view().unit());
            data.append(",\"root\":");
            node(data, root);
            data.append('}');
        }
        data.append("],\"names\":[");
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) data.append(',');
            JsonText.quote(data, names.get(i));
        }
        data.append(']');
        data.append(",\"timeline\":");
        timeline(data, r);
        data.append(",\"traced\":[");
        List<TracedText.Method> traced = TracedText.methods(r);
        for (int i = 0; i < traced.size(); i++) {
            TracedText.Method m = traced.get(i);
            data.append(i > 0 ? "," : "").append('[');
            JsonText.quote(data, m.name());
            data.append(',').append(m.calls()).append(',').append(m.timed() ? m.totalNanos() : -1).append(']');
        }
        data.append("],\"calls\":[");
        List<Recording.Call> calls = TracedText.callsByStart(r);
        for (int i = 0; i < Math.min(calls.size(), MAX_CALLS_SHOWN); i++) {
            if (i > 0) data.append(',');
            JsonText.quote(data, TracedText.call(r, calls.get(i)));
        }
        data.append("],\"callCount\":").append(calls.size());
        data.append(",\"caveats\":[");
        List<String> caveats = r.caveats();
        for (int i = 0; i < caveats.size(); i++) {
            if (i > 0) data.append(',');
            JsonText.quote(data, caveats.get(i));
        }
        data.append("],\"samplesNote\":");
        JsonText.quote(data, r.samplesNote());
        data.append(",\"title\":");
        JsonText.quote(data, title);
        data.append('}');
        out.write(fill(PAGE, Map.of(DATA_MARK, data.toString().replace("</", "<\\/"), TITLE_MARK, escape(title))));
        out.flush();
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

    private static int intern(String name, List<String> names, Map<String, Integer> index) {
        return index.computeIfAbsent(name, n -> {
            names.add(n);
            return names.size() - 1;
        });
    }

    /** [name, weight, events, [children...]] */
    private static void node(StringBuilder b, Node n) {
        b.append('[').append(n.name).append(',').append(n.weight).append(',').append(n.events).append(",[");
        boolean first = true;
        for (Node c : n.children.values()) {
            if (!first) b.append(',');
            first = false;
            node(b, c);
        }
        b.append("]]");
    }

    /** Class loads and unloads per second since the start: [[second, loads, unloads], ...]. */
    private static void timeline(StringBuilder b, Recording r) {
        Map<Long, long[]> perSecond = new java.util.TreeMap<>();
        for (Recording.ClassEvent e : r.classEvents()) {
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
              lock: "Waits to enter a monitor another thread held, weighted by the time waited; the monitor's class is the top frame.",
              wait: "Object.wait calls, weighted by the time waited; the monitor's class is the top frame."
            };

            function amount(w) {
              if (view.unit === "nanoseconds") return (w / 1e6).toFixed(1) + " ms";
              if (view.unit === "bytes") return w >= 1048576 ? (w / 1048576).toFixed(1) + " MiB" : (w / 1024).toFixed(1) + " KiB";
              return w + " samples";
            }

            function color(name) {
              let h = 0;
              for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
              const java = name.indexOf("java.") >= 0 || name.indexOf("jdk.") >= 0 || name.indexOf("sun.") >= 0;
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
                div.style.background = color(name);
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
                      + pct + "% of the " + view.weighs;
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
