package dev.tiprobe.report;

import dev.tiprobe.recording.CapturedValue;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ValueTextTest {
    /**
     * A captured string shows as a Java literal: its quotes, backslashes and line breaks escaped,
     * so a JSON body passed as an argument reads as one value, and a call stays on its line of
     * the text report.
     */
    @Test
    void capturedTextReadsAsAJavaLiteral() {
        assertEquals("\"{\\\"key\\\":\\\"item857\\\"}\"", ValueText.of(new CapturedValue.Str("{\"key\":\"item857\"}")));
        assertEquals("\"a\\\\b\\nc\\td\\u0001\"", ValueText.of(new CapturedValue.Str("a\\b\nc\td\u0001")));
        assertEquals("'\\''", ValueText.of(new CapturedValue.Char('\'')));
        assertEquals("'\"'", ValueText.of(new CapturedValue.Char('"')), "a double quote needs no escape between single ones");
        assertEquals("\"line\\n\"... (900 chars)", ValueText.of(new CapturedValue.Text("line\n", 900)));
        assertEquals("\"plain, as it was\"", ValueText.of(new CapturedValue.Str("plain, as it was")));
        assertEquals("\"a\ud83d\ude00b, cut \\ud83d\"", ValueText.of(new CapturedValue.Str("a\ud83d\ude00b, cut \ud83d")),
                "a whole pair is kept, half of one written as its code");
        assertEquals("IllegalStateException: two\\nlines", ValueText.of(new CapturedValue.Thrown("java.lang.IllegalStateException", "two\nlines")));
        assertEquals("String[2] {\"a\\\"\", null}", ValueText.of(new CapturedValue.Array("java.lang.String", 2,
                List.of(new CapturedValue.Str("a\""), CapturedValue.NULL))));
    }
}
