package dev.tiprobe.cli;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.Comparator;
import java.util.concurrent.Callable;

/** {@code tiprobe list}: running JVMs of this user as {@code <pid> <main class or jar>}. */
@Command(name = "list", description = "List the running JVMs of this user: <pid> <main class or jar>.",
        footerHeading = "%nExample:%n", footer = {"  tiprobe list"})
final class ListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        long self = ProcessHandle.current().pid();
        VirtualMachine.list().stream()
                .filter(d -> !d.id().equals(Long.toString(self)))
                .sorted(Comparator.comparingLong(ListCommand::pid))
                .forEach(d -> spec.commandLine().getOut().println(d.id() + " " + main(d)));
        return Main.OK;
    }

    private static long pid(VirtualMachineDescriptor d) {
        try {
            return Long.parseLong(d.id());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    /** The display name without the program's arguments; "?" when the JVM did not say. */
    private static String main(VirtualMachineDescriptor d) {
        String name = d.displayName().strip();
        if (name.isEmpty()) return "?";
        int space = name.indexOf(' ');
        return space < 0 ? name : name.substring(0, space);
    }
}
