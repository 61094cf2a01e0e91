package dev.tiprobe.options;

/**
 * What the command tells the agent it loads, beside a session's settings ({@link AgentOptions}):
 * what to do, where to write the reply, where {@code collect} reads the session's progress, and
 * which command process owns the session (the session stops when it is gone). Both sides use this
 * grammar: the command writes these keys with {@link #option}, the agent takes them off with {@link #of}.
 *
 * @param command  start (the default), status, dump or stop
 * @param reply    the file for the agent's reply; null: errors go to the target's stderr
 * @param progress the file for the session's status line, while it runs; or null
 * @param owner    the owning command process ({@code <pid>:<start millis>}); or null
 * @param settings the rest: the session's settings, for start
 */
public record AgentControl(String command, String reply, String progress, String owner, String settings) {
    public static final String COMMAND = "command";
    public static final String REPLY = "reply";
    public static final String PROGRESS = "progress";
    public static final String OWNER = "owner";

    /** The control keys of the agent's arguments, and the rest as the session's settings. */
    public static AgentControl of(String args) {
        String command = "start";
        String reply = null;
        String progress = null;
        String owner = null;
        StringBuilder settings = new StringBuilder();
        for (String option : AgentOptions.split(args == null ? "" : args)) {
            int eq = option.indexOf('=');
            String key = eq < 0 ? option.strip() : option.substring(0, eq).strip();
            String value = eq < 0 ? "" : option.substring(eq + 1).strip();
            switch (key) {
                case COMMAND -> command = value;
                case REPLY -> reply = value;
                case PROGRESS -> progress = value;
                case OWNER -> owner = value;
                default -> {
                    if (!option.isBlank()) settings.append(settings.isEmpty() ? "" : ",").append(option);
                }
            }
        }
        return new AgentControl(command, reply, progress, owner, settings.toString());
    }

    /** {@code key=value}, to join to the agent's arguments with a comma. */
    public static String option(String key, Object value) {
        return key + "=" + value;
    }
}
