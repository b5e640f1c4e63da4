package paletted.probe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.minecraft.util.BitStorage;
import net.minecraft.world.level.chunk.PalettedContainer;

/**
 * Runs one case per call (see PROTOCOL.md, "The probe (JVM side)"): the subject and its ops as
 * lines of text in, one JSON array of results out. Every op is run in its own try: any
 * Throwable becomes {"throws": SimpleName, "message": ...}; nothing escapes into the caller.
 * Minecraft's API is reached only through {@link Minecraft}.
 */
public final class Probe {
    private Probe() {}

    static {
        // Standard output is the probe server's protocol channel: keep library chatter off it.
        System.setOut(System.err);
    }

    /** One registry per size, so each id has exactly one canonical object for the whole run. */
    private static final Map<Integer, Registry> REGISTRIES = new HashMap<>();
    private static final Map<String, Minecraft.Kind> KINDS = new HashMap<>();

    /**
     * The JNI entry point: a whole case in, its results (or {"probe_error": ...}) out; or a
     * timing request ({@link Bench}), or the empty request "ping".
     */
    public static String run(String request) {
        try {
            // The empty request: its round trip is JNI's cost, reported beside the timings.
            if (request.equals("ping")) {
                return "{}";
            }
            if (request.startsWith("bench ")) {
                return Bench.run(request.split("\n", -1));
            }
            return runCase(request);
        } catch (Throwable t) {
            StringBuilder out = new StringBuilder("{\"probe_error\":");
            string(out, t.getClass().getName() + ": " + t.getMessage());
            return out.append('}').toString();
        }
    }

    static Registry registry(int size) {
        return REGISTRIES.computeIfAbsent(size, Registry::new);
    }

    /** A container kind (its strategy, with the registry where the shape holds it apart), made once. */
    static Minecraft.Kind kind(String kind, int size) {
        boolean blocks;
        if (kind.equals("block_states")) {
            blocks = true;
        } else if (kind.equals("biomes")) {
            blocks = false;
        } else {
            throw new IllegalArgumentException("unknown strategy " + kind);
        }
        return KINDS.computeIfAbsent(kind + "/" + size, k -> Minecraft.kind(blocks, registry(size)));
    }

    private static String runCase(String request) {
        String[] lines = request.split("\n", -1);
        String[] subject = lines[0].split(" ");
        StringBuilder out = new StringBuilder("[");
        int ops = lines.length - 1;
        if (subject[0].equals("container")) {
            Container c = new Container(subject[1], Integer.parseInt(subject[2]), Integer.parseInt(subject[3]));
            for (int i = 1; i <= ops; i++) {
                if (i > 1) {
                    out.append(',');
                }
                c.op(lines[i].split(" "), out);
            }
        } else if (subject[0].equals("storage")) {
            Storage s = new Storage(Integer.parseInt(subject[1]), Integer.parseInt(subject[2]));
            for (int i = 1; i <= ops; i++) {
                if (i > 1) {
                    out.append(',');
                }
                s.op(lines[i].split(" "), out);
            }
        } else {
            throw new IllegalArgumentException("unknown subject " + subject[0]);
        }
        return out.append(']').toString();
    }

    /** A container subject. Its construction failing makes every op report that failure. */
    private static final class Container {
        private final Registry registry;
        private final Minecraft.Kind kind;
        private PalettedContainer<Entry> c;
        private final Throwable broken;

        Container(String kind, int size, int initial) {
            Registry r = null;
            Minecraft.Kind k = null;
            Throwable failure = null;
            try {
                r = registry(size);
                k = kind(kind, size);
                c = Minecraft.container(r.entry(initial), k);
            } catch (Throwable t) {
                failure = t;
            }
            registry = r;
            this.kind = k;
            broken = failure;
        }

        void op(String[] op, StringBuilder out) {
            int mark = out.length();
            try {
                if (broken != null) {
                    throw broken;
                }
                out.append("{\"ok\":");
                apply(op, out);
                out.append('}');
            } catch (Throwable t) {
                out.setLength(mark);
                thrown(t, out);
            }
        }

        private Entry entry(String id) {
            return registry.entry(i(id));
        }

        private void apply(String[] op, StringBuilder out) {
            arity(op, true);
            switch (op[0]) {
                case "set":
                    Minecraft.set(c, i(op[1]), i(op[2]), i(op[3]), entry(op[4]));
                    out.append("null");
                    break;
                case "get":
                    id(Minecraft.get(c, i(op[1]), i(op[2]), i(op[3])), out);
                    break;
                case "get_and_set":
                    id(Minecraft.getAndSet(c, i(op[1]), i(op[2]), i(op[3]), entry(op[4])), out);
                    break;
                case "bits":
                    out.append(Minecraft.bits(c));
                    break;
                case "palette": {
                    List<Entry> seen = new ArrayList<>();
                    Minecraft.palette(c, seen::add);
                    ids(seen, out);
                    break;
                }
                case "counts": {
                    StringBuilder pairs = new StringBuilder("[");
                    Minecraft.counts(c, (v, n) -> {
                        if (pairs.length() > 1) {
                            pairs.append(',');
                        }
                        pairs.append('[');
                        id(v, pairs);
                        pairs.append(',').append(n).append(']');
                    });
                    out.append(pairs).append(']');
                    break;
                }
                case "get_all": {
                    List<Entry> seen = new ArrayList<>();
                    Minecraft.getAll(c, seen::add);
                    ids(seen, out);
                    break;
                }
                case "maybe_has": {
                    Entry wanted = entry(op[1]);
                    out.append(Minecraft.maybeHas(c, e -> e == wanted));
                    break;
                }
                case "write":
                    hex(Minecraft.write(c), out);
                    break;
                case "serialized_size":
                    out.append(Minecraft.serializedSize(c));
                    break;
                case "pack": {
                    Packed p = Minecraft.pack(c, kind);
                    out.append("{\"palette\":");
                    ids(p.palette, out);
                    out.append(",\"data\":");
                    longs(p.data, out);
                    out.append(",\"bits\":").append(p.bits).append('}');
                    break;
                }
                case "unpack": {
                    // unpack BITS N id... (- | M long...)
                    int bits = i(op[1]);
                    int n = i(op[2]);
                    if (n < 0 || op.length < 4 + n) {
                        throw new ProbeRefusal("malformed request: " + String.join(" ", op));
                    }
                    List<Entry> palette = new ArrayList<>(n);
                    for (int k = 0; k < n; k++) {
                        palette.add(entry(op[3 + k]));
                    }
                    long[] data = parseLongs(op, 3 + n);
                    Object result = Minecraft.unpack(kind, palette, data, bits);
                    if (result instanceof String) {
                        out.setLength(out.length() - "{\"ok\":".length());
                        out.append("{\"error\":");
                        string(out, (String) result);
                    } else {
                        @SuppressWarnings("unchecked")
                        PalettedContainer<Entry> unpacked = (PalettedContainer<Entry>) result;
                        c = unpacked;
                        out.append("null");
                    }
                    break;
                }
                case "read":
                    out.append(Minecraft.read(c, unhex(op.length > 1 ? op[1] : "")));
                    break;
                default:
                    throw new ProbeRefusal("unknown container op " + op[0]);
            }
        }
    }

    /** A bit storage subject. */
    private static final class Storage {
        private BitStorage s;
        private final Throwable broken;

        Storage(int bits, int size) {
            Throwable failure = null;
            try {
                s = Minecraft.storage(bits, size);
            } catch (Throwable t) {
                failure = t;
            }
            broken = failure;
        }

        void op(String[] op, StringBuilder out) {
            int mark = out.length();
            try {
                if (broken != null && !op[0].equals("load")) {
                    throw broken;
                }
                out.append("{\"ok\":");
                apply(op, out);
                out.append('}');
            } catch (Throwable t) {
                out.setLength(mark);
                thrown(t, out);
            }
        }

        private void apply(String[] op, StringBuilder out) {
            arity(op, false);
            switch (op[0]) {
                case "load":
                    // load BITS SIZE M long...
                    s = Minecraft.load(i(op[1]), i(op[2]), parseLongs(op, 3));
                    out.append("null");
                    break;
                case "get":
                    out.append(Minecraft.get(s, i(op[1])));
                    break;
                case "set":
                    Minecraft.set(s, i(op[1]), i(op[2]));
                    out.append("null");
                    break;
                case "get_and_set":
                    out.append(Minecraft.getAndSet(s, i(op[1]), i(op[2])));
                    break;
                case "fill":
                    Minecraft.fill(s, i(op[1]));
                    out.append("null");
                    break;
                case "values": {
                    int[] values = Minecraft.values(s);
                    out.append('[');
                    for (int k = 0; k < values.length; k++) {
                        if (k > 0) {
                            out.append(',');
                        }
                        out.append(values[k]);
                    }
                    out.append(']');
                    break;
                }
                case "longs":
                    longs(Minecraft.longs(s), out);
                    break;
                case "bits":
                    out.append(Minecraft.bits(s));
                    break;
                case "size":
                    out.append(Minecraft.size(s));
                    break;
                default:
                    throw new ProbeRefusal("unknown storage op " + op[0]);
            }
        }
    }

    // ---- encoding ----------------------------------------------------------------------------

    /** An int field of the request; a malformed one is refused, never run. */
    static int i(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new ProbeRefusal("malformed request: " + s + " is not an int");
        }
    }

    /** Refuses an op line with fewer fields than its op takes. */
    private static void arity(String[] op, boolean container) {
        int want = 1;
        switch (op[0]) {
            case "set":
            case "get_and_set":
                want = container ? 5 : 3;
                break;
            case "get":
                want = container ? 4 : 2;
                break;
            case "maybe_has":
            case "fill":
                want = 2;
                break;
            case "unpack":
            case "load":
                want = 4;
                break;
            default:
                break;
        }
        if (op.length < want) {
            throw new ProbeRefusal("malformed request: " + String.join(" ", op));
        }
    }

    /** "-" for no data, else a count then that many longs, from op[at]. */
    static long[] parseLongs(String[] op, int at) {
        if (op[at].equals("-")) {
            return null;
        }
        int m = i(op[at]);
        if (m < 0 || op.length < at + 1 + m) {
            throw new ProbeRefusal("malformed request: bad long list");
        }
        long[] data = new long[m];
        for (int k = 0; k < m; k++) {
            try {
                data[k] = Long.parseLong(op[at + 1 + k]);
            } catch (NumberFormatException e) {
                throw new ProbeRefusal("malformed request: bad long list");
            }
        }
        return data;
    }

    private static void thrown(Throwable t, StringBuilder out) {
        out.append("{\"throws\":");
        string(out, t.getClass().getSimpleName());
        out.append(",\"message\":");
        if (t.getMessage() == null) {
            out.append("null");
        } else {
            string(out, t.getMessage());
        }
        out.append('}');
    }

    private static void ids(List<Entry> entries, StringBuilder out) {
        out.append('[');
        for (int k = 0; k < entries.size(); k++) {
            if (k > 0) {
                out.append(',');
            }
            id(entries.get(k), out);
        }
        out.append(']');
    }

    /**
     * An entry's id, or JSON null where Minecraft handed back null (a never-written slot of a
     * linear palette): a result of Minecraft's, not a NullPointerException of the probe's.
     */
    private static void id(Entry e, StringBuilder out) {
        if (e == null) {
            out.append("null");
        } else {
            out.append(e.id);
        }
    }

    private static void longs(long[] values, StringBuilder out) {
        if (values == null) {
            out.append("null");
            return;
        }
        out.append('[');
        for (int k = 0; k < values.length; k++) {
            if (k > 0) {
                out.append(',');
            }
            out.append(values[k]);
        }
        out.append(']');
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Lowercase hex in quotes, built in one array: a `write` result is 2-8 KB. */
    private static void hex(byte[] bytes, StringBuilder out) {
        char[] digits = new char[2 * bytes.length + 2];
        digits[0] = '"';
        for (int k = 0; k < bytes.length; k++) {
            digits[1 + 2 * k] = HEX[(bytes[k] >> 4) & 15];
            digits[2 + 2 * k] = HEX[bytes[k] & 15];
        }
        digits[digits.length - 1] = '"';
        out.append(digits);
    }

    /** The request's hex digits as bytes; anything but pairs of hex digits is refused. */
    static byte[] unhex(String s) {
        if (s.length() % 2 != 0) {
            throw new ProbeRefusal("malformed request: odd hex " + s.length());
        }
        byte[] out = new byte[s.length() / 2];
        for (int k = 0; k < out.length; k++) {
            int high = Character.digit(s.charAt(2 * k), 16);
            int low = Character.digit(s.charAt(2 * k + 1), 16);
            if (high < 0 || low < 0) {
                throw new ProbeRefusal("malformed request: " + s.substring(2 * k, 2 * k + 2) + " is not hex");
            }
            out[k] = (byte) (high << 4 | low);
        }
        return out;
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int k = 0; k < s.length(); k++) {
            char ch = s.charAt(k);
            switch (ch) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (ch < 0x20) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
            }
        }
        out.append('"');
    }
}
