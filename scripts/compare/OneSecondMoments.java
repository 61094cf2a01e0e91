import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sampling moments (whole milliseconds) of thread main from {@code mainAt} on: in JFR's own
 * recording and in tiprobe's JSON report of the same run. Prints
 * {@code tiprobe <n> jfr <n> missing <n> coverage <percent of the 100 10-ms periods of one second>}.
 * Usage: java OneSecondMoments.java <mainAt epoch ms> <recording.jfr> <tiprobe.json>
 */
public class OneSecondMoments {
    public static void main(String[] args) throws Exception {
        long mainAt = Long.parseLong(args[0]);
        TreeSet<Long> jfr = new TreeSet<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[1]))) {
            if (e.getEventType().getName().equals("jdk.ExecutionSample") && "main".equals(e.getThread("sampledThread").getJavaName())
                    && e.getStartTime().toEpochMilli() >= mainAt) {
                jfr.add(e.getStartTime().toEpochMilli());
            }
        }
        String json = Files.readString(Path.of(args[2]));
        Matcher id = Pattern.compile("\"(\\d+)\": \"main\"").matcher(json);
        TreeSet<Long> tiprobe = new TreeSet<>();
        if (id.find()) {
            Matcher s = Pattern.compile("\"epochNanos\": (\\d+), \"thread\": " + id.group(1) + ",").matcher(json);
            while (s.find()) {
                long ms = Long.parseLong(s.group(1)) / 1_000_000;
                if (ms >= mainAt) tiprobe.add(ms);
            }
        }
        TreeSet<Long> missing = new TreeSet<>(jfr);
        missing.removeAll(tiprobe);
        System.out.printf("tiprobe %d jfr %d missing %d coverage %d%%%n", tiprobe.size(), jfr.size(), missing.size(), tiprobe.size());
    }
}
