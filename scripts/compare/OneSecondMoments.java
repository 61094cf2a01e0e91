import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The samples of thread main from {@code mainAt} on: in JFR's own
 * recording and in tiprobe's JSON report of the same run. Prints
 * {@code tiprobe <n> jfr <n> missing <n> coverage <percent of the program's 10-ms periods (100 in one second)>},
 * and where the missing samples are, in milliseconds after main began.
 * Usage: java OneSecondMoments.java <mainAt epoch ms> <recording.jfr> <tiprobe.json> [<milliseconds the program ran, 1000>]
 */
public class OneSecondMoments {
    public static void main(String[] args) throws Exception {
        long mainAt = Long.parseLong(args[0]);
        TreeSet<Long> jfr = new TreeSet<>();  // epoch nanoseconds
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[1]))) {
            long taken = e.getStartTime().getEpochSecond() * 1_000_000_000L + e.getStartTime().getNano();
            if (e.getEventType().getName().equals("jdk.ExecutionSample") && "main".equals(e.getThread("sampledThread").getJavaName())
                    && taken >= mainAt * 1_000_000) {
                jfr.add(taken);
            }
        }
        String json = Files.readString(Path.of(args[2]));
        Matcher id = Pattern.compile("\"(\\d+)\": \"main\"").matcher(json);
        TreeSet<Long> tiprobe = new TreeSet<>();
        if (id.find()) {
            Matcher s = Pattern.compile("\"epochNanos\": (\\d+), \"thread\": " + id.group(1) + ",").matcher(json);
            while (s.find()) {
                long taken = Long.parseLong(s.group(1));
                if (taken >= mainAt * 1_000_000 - 20_000) tiprobe.add(taken);
            }
        }
        // The same sample as two recordings of one JVM convert its ticks to the epoch: a microsecond apart at most.
        List<Long> missing = jfr.stream().filter(t -> {
            Long near = tiprobe.ceiling(t - 20_000);
            return near == null || near > t + 20_000;
        }).map(t -> t / 1_000_000 - mainAt).toList();
        long periods = args.length > 3 ? Long.parseLong(args[3]) / 10 : 100;
        System.out.printf("tiprobe %d jfr %d missing %d coverage %d%%%s%n", tiprobe.size(), jfr.size(), missing.size(),
                tiprobe.size() * 100 / periods,
                missing.isEmpty() ? "" : " (missing at " + missing + " ms after main began; JFR's last at "
                        + (jfr.last() / 1_000_000 - mainAt) + " ms)");
    }
}
