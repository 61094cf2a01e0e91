package dev.tiprobe.ids;

/**
 * Interns tokens to compact ints, for a recording to carry instead of names.
 *
 * <p>Equal tokens get the same int: an int handed out stays valid after its class unloads (deferred
 * symbolic lookup, names resolved late) until its owner {@link #retire}s it, once nothing can ask
 * for it any more. Because equal tokens share an int, and {@link LoaderRef} reuses loader
 * ordinals, reloading the same classes again and again adds nothing. Ints are never handed out
 * twice. Interning takes a lock; looking an int up does not.
 *
 * @param <T> {@link ClassToken} or {@link MethodToken}
 */
public final class TokenTable<T> {
    private final TokenIds<T> ids = new TokenIds<>();
    /** Tokens by int: pages that go once their ints are all retired, since ints are never handed out again. */
    private final IdPages<T> byId = new IdPages<>();
    private int next = 1;
    private int retired;

    /** An empty table. */
    public TokenTable() {
        // Ints start at 1, so 0 can mean "none".
    }

    /** The int of {@code token}, assigned on first sight; never 0. */
    public synchronized int intern(T token) {
        int id = ids.get(token);
        if (id != 0) return id;
        int assigned = next++;
        byId.set(assigned, token);
        ids.put(token, assigned);
        return assigned;
    }

    /** The token of {@code id}, or null for an int this table never handed out. Lock-free. */
    public T get(int id) {
        return id > 0 ? byId.get(id) : null;
    }

    /**
     * Forgets the token of {@code id}: {@link #get} answers null from now on, and the token, if
     * interned again, gets a new int. Returns the token forgotten, or null.
     */
    public synchronized T retire(int id) {
        T token = get(id);
        if (token == null) return null;
        byId.set(id, null);
        ids.remove(token);
        retired++;
        return token;
    }

    /** The int of {@code token} if it was interned, else 0. */
    public synchronized int find(T token) {
        return ids.get(token);
    }

    /** How many tokens the table holds (those retired not counted). */
    public synchronized int size() {
        return next - 1 - retired;
    }
}
