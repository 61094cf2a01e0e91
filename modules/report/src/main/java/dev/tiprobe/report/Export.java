package dev.tiprobe.report;

import dev.tiprobe.ids.HumanNames.FrameStyle;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Predicate;

/**
 * The files a recording becomes, each told by how its name ends: the one place that knows which
 * formats there are, what each draws and whether it compares two recordings. The command and the
 * agent's recording loop both find a format here by the file's name.
 */
public enum Export {
    /** Everything the recording holds, for scripts. */
    JSON(".json", false, false) {
        @Override
        void writeText(Recording r, Options o, Writer out) throws IOException {
            RecordingJson.write(r, out);
        }
    },
    /** The text report: each view's top methods, then the traced methods and calls. */
    TEXT(".txt", false, false) {
        @Override
        void writeText(Recording r, Options o, Writer out) throws IOException {
            PrintWriter printer = new PrintWriter(out);
            TextReport.write(r, o.view(), printer, TOP_ROWS, o.calls());
            printer.flush();
            if (printer.checkError()) throw new IOException("write failed");  // a PrintWriter keeps its errors to itself
        }
    },
    /** A flame graph page holding every view, opening on the one asked for, and the traced methods' tables. */
    FLAME_GRAPH(".html", false, true) {
        @Override
        void writeText(Recording r, Options o, Writer out) throws IOException {
            FlameGraphHtml.write(r, o.view(), o.frames(), out, o.title());
        }

        @Override
        void writeTextDiff(Recording base, Recording now, View view, Options o, Writer out) throws IOException {
            Diff.flameGraph(base, now, view, o.frames(), out, o.title());
        }
    },
    /** Folded stacks of one view, as async-profiler's collapsed output. */
    FOLDED(".collapsed", true, true) {
        @Override
        void writeText(Recording r, Options o, Writer out) throws IOException {
            FoldedStacks.write(o.drawn(r).of(r), out, false, o.frames());
        }

        @Override
        void writeTextDiff(Recording base, Recording now, View view, Options o, Writer out) throws IOException {
            Diff.folded(base, now, view, o.frames(), out);
        }
    },
    /** A pprof profile of one view. */
    PPROF(".pb.gz", true, false) {
        @Override
        public void write(Recording r, Options o, OutputStream out) throws IOException {
            Pprof.write(o.drawn(r).of(r), o.frames(), out);
        }
    },
    /** Every view's events as a JFR file: the view and the frames' spelling are the reader's, and each frame keeps its line. */
    JFR(".jfr", false, false) {
        @Override
        public void write(Recording r, Options o, OutputStream out) throws IOException {
            JfrExport.write(r, out);
        }

        @Override
        public boolean keepsLines() {
            return true;
        }
    };

    /** Rows in each of the text report's tables. */
    public static final int TOP_ROWS = 20;

    /** The names files take, for messages: {@code .json, .txt, ...}. */
    public static final String NAMES = joined(e -> true, ", ");

    /** Why a file of the formats that {@link #holdsOnlyStacks hold only stacks} needs stacks, for messages. */
    public static final String HOLD_ONLY_STACKS = joined(Export::holdsOnlyStacks, " and ") + " files hold only stacks";
    /** The other formats, which show what a recording holds besides stacks, for messages: {@code .json, … or .jfr}. */
    public static final String NOT_ONLY_STACKS = joined(e -> !e.holdsOnlyStacks(), ", ").replaceFirst(", ([^,]*)$", " or $1");
    /** Why a session that only traces cannot make a file of those formats, and which to ask for instead. */
    public static final String ONLY_STACKS_FOR_TRACING = HOLD_ONLY_STACKS + " (" + NOT_ONLY_STACKS + " show traced methods)";

    /** How a file of this format's name ends. */
    public final String extension;
    private final boolean onlyStacks;
    private final boolean diffs;

    Export(String extension, boolean onlyStacks, boolean diffs) {
        this.extension = extension;
        this.onlyStacks = onlyStacks;
        this.diffs = diffs;
    }

    /** The extensions of the formats {@code which} takes, in order, joined by {@code separator}. */
    private static String joined(Predicate<Export> which, String separator) {
        StringJoiner all = new StringJoiner(separator);
        for (Export e : values()) if (which.test(e)) all.add(e.extension);
        return all.toString();
    }

    /** Whether a file of this name is written in this format. */
    public boolean names(String fileName) {
        return fileName.endsWith(extension);  // no format's ending ends another's
    }

    /** The format a file of this name is written in, if tiprobe writes it. */
    public static Optional<Export> forFile(String name) {
        for (Export e : values()) {
            if (e.names(name)) return Optional.of(e);
        }
        return Optional.empty();
    }

    /**
     * Whether the file holds only what stacks draw (folded stacks, a pprof profile): from a session
     * that took no stacks, only traced calls, it would be empty. A flame graph page shows the
     * traced methods too.
     */
    public boolean holdsOnlyStacks() {
        return onlyStacks;
    }

    /** Whether a file of this name is written in a format that {@link #holdsOnlyStacks holds only stacks}. */
    public static boolean holdsOnlyStacks(String fileName) {
        return forFile(fileName).map(Export::holdsOnlyStacks).orElse(false);
    }

    /** Whether it compares two recordings ({@link #writeDiff}). */
    public boolean diffs() {
        return diffs;
    }

    /** Whether each frame keeps its source line of itself, so that naming frames by line adds nothing. */
    public boolean keepsLines() {
        return false;
    }

    /**
     * What an export draws: {@code view}, null for the recording's natural one ({@link View#natural});
     * frames named in {@code frames}; at most {@code calls} traced calls listed in text; and the
     * page's {@code title}.
     */
    public record Options(View view, FrameStyle frames, int calls, String title) {
        /** The view a one-view format (and a diff) draws of {@code r}. */
        public View drawn(Recording r) {
            return view != null ? view : View.natural(r);
        }

        /** {@code frames} named as async-profiler names them; the title from the recording's program, else {@code source}. */
        public static Options of(Recording r, String source) {
            return new Options(null, FrameStyle.SLASH, CALLS_IN_FILES,
                    "tiprobe: " + r.info().getOrDefault(dev.tiprobe.recording.RecordingFormat.INFO_PROGRAM, source));
        }

        public Options withView(View v) {
            return new Options(v, frames, calls, title);
        }

        public Options withFrames(FrameStyle f) {
            return new Options(view, f, calls, title);
        }

        public Options withCalls(int n) {
            return new Options(view, frames, n, title);
        }

        public Options withTitle(String t) {
            return new Options(view, frames, calls, t);
        }
    }

    /** Traced calls a text file lists unless told otherwise. */
    public static final int CALLS_IN_FILES = 200;

    /** Traced calls a text report printed to the terminal lists unless told otherwise. */
    public static final int CALLS_PRINTED = 50;

    /**
     * Whether a file of this format says the recording's caveats to its reader (the text report
     * and the page do); where it does not, the command that writes it says them.
     */
    public boolean holdsCaveats() {
        return this == TEXT || this == FLAME_GRAPH;
    }

    /** Writes {@code r} in this format to {@code out}, which it leaves open. */
    public void write(Recording r, Options o, OutputStream out) throws IOException {
        inUtf8(out, w -> writeText(r, o, w));
    }

    /** One view of {@code now} against {@code base}; only where {@link #diffs()}. */
    public void writeDiff(Recording base, Recording now, View view, Options o, OutputStream out) throws IOException {
        if (!diffs) throw new UnsupportedOperationException(this + " compares no recordings");
        inUtf8(out, w -> writeTextDiff(base, now, view, o, w));
    }

    private interface TextWrite {
        void to(Writer w) throws IOException;
    }

    /** A text format's writing into {@code out} as UTF-8, flushed and left open; a binary one writes to {@code out} itself. */
    private static void inUtf8(OutputStream out, TextWrite write) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
        write.to(w);
        w.flush();
    }

    void writeText(Recording r, Options o, Writer out) throws IOException {
        throw new UnsupportedOperationException(this + " is binary");
    }

    void writeTextDiff(Recording base, Recording now, View view, Options o, Writer out) throws IOException {
        throw new UnsupportedOperationException(this + " compares no recordings");
    }
}
