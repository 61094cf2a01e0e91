package dev.tiprobe.recording;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplyTest {
    @Test
    void aReplyComesBackWithItsTextAndFactsWhateverCharactersTheyHold() {
        Reply sent = Reply.ok("stopped", "stopped: 3 methods\tand a tab, a \\ and\na newline")
                .with(Reply.RECORDING, Path.of("/tmp/odd\tdir/x=y.tpr")).with(Reply.CALLS, 42L).with(Reply.OUTPUT, null);
        String line = sent.encode();
        assertFalse(line.contains("\n"), "one line: " + line);
        Reply read = Reply.decode(line + "\n");
        assertEquals(sent, read);
        assertTrue(read.ok());
        assertEquals("stopped", read.kind());
        assertEquals(Path.of("/tmp/odd\tdir/x=y.tpr"), read.path(Reply.RECORDING));
        assertEquals(42, read.count(Reply.CALLS));
        assertEquals(-1, read.count(Reply.SAMPLES), "a fact the reply lacks");
        assertEquals(null, read.fact(Reply.OUTPUT), "a null value sets nothing");
    }

    @Test
    void anErrorSaysWhyAndCarriesNoKind() {
        Reply read = Reply.decode(Reply.error("no session is running").encode());
        assertFalse(read.ok());
        assertEquals("no session is running", read.text());
        assertEquals("", read.kind());
    }

    @Test
    void anAnswerOfAnotherReleaseOrNoReplyAtAllIsRefusedInOneSentence() {
        IllegalArgumentException older = assertThrows(IllegalArgumentException.class, () -> Reply.decode("ok stopped: 1 methods\t/tmp/x.tpr\t/tmp/x.json"));
        assertTrue(older.getMessage().startsWith("the agent in the target answers as another release of tiprobe does"), older.getMessage());
        IllegalArgumentException newer = assertThrows(IllegalArgumentException.class, () -> Reply.decode("tiprobe-reply/2\tok\tstopped"));
        assertTrue(newer.getMessage().startsWith("the agent in the target answers as another release"), newer.getMessage());
        IllegalArgumentException garbage = assertThrows(IllegalArgumentException.class, () -> Reply.decode("HTTP/1.1 400"));
        assertEquals("the agent's answer is not tiprobe's: HTTP/1.1 400", garbage.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Reply.decode("tiprobe-reply/1\tok\ttext\tnoequals"));
        assertThrows(IllegalArgumentException.class, () -> Reply.ok("x", "y").with("two words", 1));
    }
}
