package dev.tiprobe.probe;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Objects captured by their fields, without running any of their code. */
class CapturedTest {
    static TraceSettings depth(int maxDepth, int maxFields) {
        return new TraceSettings(true, 0, 1, 10, 4, false, maxDepth, maxFields, 0);
    }

    static final class Account {
        private final String owner = "ann";
        private long cents = 1250;
        private final List<String> tags = new ArrayList<>(List.of("a", "b"));
        int toStrings;

        @Override
        public String toString() {
            toStrings++;
            throw new IllegalStateException("never called");
        }
    }

    record Pair(int left, String right) {}

    static final class Node {
        Node next;
    }

    @Test
    void aPlainObjectIsShownByItsFieldsAndNoneOfItsCodeRuns() {
        Account account = new Account();
        Captured.ObjectValue v = (Captured.ObjectValue) Captured.of(account, depth(1, 8));
        assertEquals(CapturedTest.Account.class.getName(), v.type());
        assertEquals(List.of(new Captured.FieldValue("owner", "ann"), new Captured.FieldValue("cents", 1250L),
                new Captured.FieldValue("tags", new Captured.Sized("java.util.ArrayList", 2)), new Captured.FieldValue("toStrings", 0)),
                v.fields());
        assertEquals(0, account.toStrings, "toString() never ran");
        Captured.ObjectValue two = (Captured.ObjectValue) Captured.of(account, depth(1, 2));
        assertEquals(2, two.fields().size());
        assertEquals(2, two.moreFields(), "fields past maxfields are counted");
        Captured.ObjectValue none = (Captured.ObjectValue) Captured.of(account, depth(0, 8));
        assertNull(none.fields(), "depth 0: class and identity only");
    }

    @Test
    void aRecordByItsComponentsAndACycleNamedNotFollowed() {
        Captured.ObjectValue pair = (Captured.ObjectValue) Captured.of(new Pair(1, "x"), depth(1, 8));
        assertEquals(List.of(new Captured.FieldValue("left", 1), new Captured.FieldValue("right", "x")), pair.fields());
        Node a = new Node();
        a.next = a;
        Captured.ObjectValue node = (Captured.ObjectValue) Captured.of(a, depth(5, 8));
        assertEquals(new Captured.Seen(Node.class.getName(), System.identityHashCode(a)), node.fields().getFirst().value());
    }

    @Test
    void aClosedPackageWithoutAnOpenerIsUnreadableNotAnError() {
        Captured.ObjectValue v = (Captured.ObjectValue) Captured.of(new AtomicInteger(3), depth(1, 8));
        assertInstanceOf(Captured.Unreadable.class, v.fields().getFirst().value(), v.toString());
    }
}
