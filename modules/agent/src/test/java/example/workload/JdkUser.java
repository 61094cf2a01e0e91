package example.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Calls JDK methods a known number of times: tracing java.base classes, loaded before any agent. */
public class JdkUser {
    public static void main(String[] args) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < 1000; i++) list.add(i);
        Map<String, Integer> map = new HashMap<>();
        for (int i = 0; i < 500; i++) map.put("k" + i, i);
        System.out.println(list.size() + " " + map.size());
    }
}
