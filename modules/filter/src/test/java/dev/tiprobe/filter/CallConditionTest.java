package dev.tiprobe.filter;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CallConditionTest {
    /** A call of {@code checkout(Order order, int tries)} on clerk-1 that took 3 ms, with the order shown by its fields. */
    private static CallCondition.Facts call(long qty, String thrown) {
        Map<String, Object> customer = new LinkedHashMap<>();
        customer.put("name", "Ada");
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("qty", qty);
        order.put("price", 9.5);
        order.put("customer", new CallCondition.Fields("demo.Customer", customer));
        order.put("tags", new CallCondition.Elements(2, List.of("gift", "express")));
        CallCondition.Fields orderFields = new CallCondition.Fields("demo.Order", order);
        return new CallCondition.Facts() {
            public Object argument(String name) {
                return switch (name) {
                    case "order" -> orderFields;
                    case "tries" -> 2L;
                    default -> CallCondition.MISSING;
                };
            }

            public Object argument(int index) {
                return index == 0 ? orderFields : index == 1 ? (Object) 2L : CallCondition.MISSING;
            }

            public Object returned() {
                return thrown == null ? (Object) 1250L : CallCondition.MISSING;
            }

            public String thrown() {
                return thrown;
            }

            public long durationNanos() {
                return 3_000_000L;
            }

            public String thread() {
                return "clerk-1";
            }
        };
    }

    private static boolean test(String condition, CallCondition.Facts call) {
        return CallCondition.parse(condition).test(call, missing -> { });
    }

    @Test
    void comparesFieldsOfArgumentsDurationsAndThreads() {
        CallCondition.Facts three = call(3, null);
        CallCondition.Facts one = call(1, null);
        assertTrue(test("order.qty > 2 && duration > 1ms", three));
        assertFalse(test("order.qty > 2 && duration > 1ms", one));
        assertFalse(test("order.qty > 2 && duration > 5ms", three));
        assertTrue(test("args[0].qty >= 3 && args[1] == 2", three));
        assertTrue(test("order.price < 10 && order.price > 9.4", three));
        assertTrue(test("order.customer.name == 'Ada' && order.tags[1] == \"express\" && order.tags.length == 2", three));
        assertTrue(test("thread ~ 'clerk-*' && !(thread ~ 'main')", three));
        assertTrue(test("returned == 1250 || order.qty == 1", one));
        assertTrue(test("duration >= 3000us && duration <= 0.003s && duration < 1m", three));
    }

    @Test
    void threwMatchesTheSimpleOrTheBinaryName() {
        CallCondition.Facts threw = call(3, "demo.shop.Inventory$SoldOut");
        assertTrue(test("threw", threw));
        assertTrue(test("threw SoldOut", threw));
        assertTrue(test("threw demo.shop.Inventory$SoldOut && order.qty == 3", threw));
        assertFalse(test("threw IllegalStateException", threw));
        assertFalse(test("threw", call(3, null)));
        assertFalse(test("returned == 1250", threw), "a call that threw returned nothing");
    }

    @Test
    void aPathThatLeadsNowhereIsFalseAndSaysWhy() {
        List<String> told = new ArrayList<>();
        CallCondition c = CallCondition.parse("order.qtyy > 2 || customer.name == 'x' || order.tags[5] == 'y'");
        assertFalse(c.test(call(3, null), told::add));
        assertEquals(List.of("order.qtyy: no field qtyy in demo.Order", "customer.name: no parameter customer",
                "order.tags[5]: no element [5] in an array of 2"), told);
    }

    @Test
    void malformedConditionsAreRefusedWithTheirPosition() {
        var e = assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse("order.qty > "));
        assertEquals(12, e.position(), e.getMessage());
        assertTrue(e.getMessage().startsWith("a value is missing at position 12"), e.getMessage());
        assertEquals(10, assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse("order.qty = 2")).position());
        var bare = assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse("duration > 10 && threw"));
        assertTrue(bare.getMessage().contains("unit"), bare.getMessage());
        assertEquals(11, bare.position(), "at the number without a unit");
        assertEquals(0, assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse("5 < duration")).position());
        var huge = assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse("args[99999999999] == 1"));
        assertEquals(5, huge.position(), huge.getMessage());
        assertTrue(assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse("order.qty > 10 parsecs"))
                .getMessage().startsWith("unexpected 'parsecs'"));
        assertTrue(assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse("duration > 10xs"))
                .getMessage().startsWith("unknown unit 'xs'"));
        assertTrue(assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse("(order.qty > 2"))
                .getMessage().startsWith("')' is missing"));
        assertTrue(assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse("thread ~ 'clerk"))
                .getMessage().startsWith("the string is not closed at position 9"));
        assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse(""));
        assertThrows(CallCondition.ConditionSyntaxException.class, () -> CallCondition.parse("args[x] > 1"));
    }
}
