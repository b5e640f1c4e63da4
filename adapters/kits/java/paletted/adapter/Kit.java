package paletted.adapter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Java adapter kit: the protocol loop of PROTOCOL.md, "Adapters", once. An adapter gives
 * {@link #serve} its handshake and a way to make a subject; a subject's {@code run(op)} maps one
 * op to the library's call and returns its value (the {@code ok} result). Everything else is
 * here: the handshake line, one answer per request line, errors as results, every exception
 * caught, and no op run on a state the implementation could not reach. No dependencies: it
 * carries its own JSON.
 *
 * <p>{@code run} may also return an {@link Outcome} ({@link #ok}, {@link #thrown}, {@link
 * #error}, {@link #unsupported}) or throw {@link Thrown} or {@link Unsupported}. Any other
 * throwable is the implementation's own: {@link Adapter#errors} may name the Java class
 * Minecraft throws for the same condition, else it is reported under its own simple class name
 * and message (a Java library's exceptions compare as they are).
 */
public final class Kit {
    private Kit() {}

    /** A case's subject, made by the adapter; one op at a time. */
    public interface Subject {
        Object run(Map<String, Object> op) throws Exception;
    }

    public interface Adapter {
        /** The handshake without {@code protocol}: implementation, version, minecraft, ops. */
        Map<String, Object> handshake();

        /** The subject; throw {@link Unsupported} for a case it cannot take at all. */
        Subject subject(Map<String, Object> spec) throws Exception;

        /** The outcome for an implementation's throwable, or null for its own class. */
        default Outcome errors(Throwable t) {
            return null;
        }
    }

    /** One op's result in PROTOCOL.md's encoding. */
    public static final class Outcome {
        final Map<String, Object> fields = new LinkedHashMap<>();

        Outcome(String key, Object value) {
            fields.put(key, value);
        }

        boolean unsupported() {
            return fields.containsKey("unsupported");
        }
    }

    public static Outcome ok(Object value) {
        return new Outcome("ok", value);
    }

    /** {@code cls}: the Java exception Minecraft throws for the same condition. */
    public static Outcome thrown(String cls, String message) {
        Outcome o = new Outcome("throws", cls);
        o.fields.put("message", message);
        return o;
    }

    /** A {@code DataResult} error ({@code unpack}). */
    public static Outcome error(String message) {
        return new Outcome("error", message);
    }

    public static Outcome unsupported(String why) {
        return new Outcome("unsupported", why);
    }

    /** Throw to report {@code thrown(cls, message)} from deep inside an op. */
    public static final class Thrown extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Outcome outcome;

        public Thrown(String cls, String message) {
            super(message);
            outcome = thrown(cls, message);
        }
    }

    /** Throw when the implementation has no call for an op (or a value). */
    public static final class Unsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient Outcome outcome;

        public Unsupported(String why) {
            super(why);
            outcome = unsupported(why);
        }
    }

    /**
     * Ops that leave Minecraft's subject as it was: after one of these is unsupported the state
     * is still known, so later ops still run. After an unsupported op that changes state, every
     * later op is unsupported.
     */
    public static final Set<String> READ_ONLY = Set.of("get", "bits", "palette", "counts",
            "get_all", "maybe_has", "write", "serialized_size", "pack", "values", "longs", "size");

    /** An integer field of an op or subject. */
    public static long integer(Map<String, Object> m, String field) {
        Object v = m.get(field);
        if (v instanceof Long l) {
            return l;
        }
        throw new Unsupported("malformed case: no integer `" + field + "`");
    }

    /** An integer field that must fit a Java int (else the op is unsupported). */
    public static int javaInt(Map<String, Object> m, String field) {
        long v = integer(m, field);
        if (v != (int) v) {
            throw new Unsupported(field + " " + v + " is not a Java int");
        }
        return (int) v;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> list(Map<String, Object> m, String field) {
        return m.get(field) instanceof List<?> l ? (List<Object>) l : null;
    }

    public static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            s.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
        }
        return s.toString();
    }

    public static byte[] fromHex(String text) {
        if (text.length() % 2 != 0) {
            throw new Unsupported("malformed case: odd hex length");
        }
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(text.charAt(2 * i), 16);
            int lo = Character.digit(text.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new Unsupported("malformed case: bad hex");
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }

    private static Outcome caught(Adapter adapter, Throwable t) {
        if (t instanceof Thrown th) {
            return th.outcome;
        }
        if (t instanceof Unsupported u) {
            return u.outcome;
        }
        Outcome mapped = null;
        try {
            mapped = adapter.errors(t);
        } catch (RuntimeException e) {
            // A broken mapping must not hide the implementation's error.
        }
        return mapped != null ? mapped : thrown(t.getClass().getSimpleName(), t.getMessage());
    }

    private static Outcome result(Object value) {
        return value instanceof Outcome o ? o : ok(value);
    }

    /** The answer to one case: {@code {"results": [...]}}, or a whole-case unsupported. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> runCase(Adapter adapter, Map<String, Object> c) {
        List<Object> ops = (List<Object>) c.get("ops");
        List<Object> results = new ArrayList<>();
        Subject subject;
        try {
            subject = adapter.subject((Map<String, Object>) c.get("subject"));
        } catch (Unsupported u) {
            return u.outcome.fields;
        } catch (Throwable t) {
            results.add(caught(adapter, t).fields);
            while (results.size() < ops.size()) {
                results.add(unsupported("the subject could not be made").fields);
            }
            return Map.of("results", results);
        }
        String after = null;
        for (Object o : ops) {
            Map<String, Object> op = (Map<String, Object>) o;
            if (after != null) {
                results.add(unsupported(after).fields);
                continue;
            }
            Outcome r;
            try {
                r = result(subject.run(op));
            } catch (Throwable t) {
                r = caught(adapter, t);
            }
            if (r.unsupported() && !READ_ONLY.contains(op.get("op"))) {
                after = "after an unsupported op (" + r.fields.get("unsupported") + ")";
            }
            results.add(r.fields);
        }
        return Map.of("results", results);
    }

    /** The line loop on stdin and stdout; library output on stdout goes to stderr. */
    public static void serve(Adapter adapter) throws IOException {
        PrintStream out = System.out;
        System.setOut(System.err);
        serve(adapter, new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                out);
    }

    /** The handshake ({@code protocol} added), then one answer per {@code {"case": ...}} line. */
    @SuppressWarnings("unchecked")
    public static void serve(Adapter adapter, BufferedReader in, PrintStream out) throws IOException {
        Map<String, Object> hs = new LinkedHashMap<>();
        hs.put("protocol", 1L);
        hs.putAll(adapter.handshake());
        out.println(json(hs));
        out.flush();
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) {
                continue;
            }
            Object answer;
            try {
                Object request = parse(line);
                if (!(request instanceof Map<?, ?> m) || !(m.get("case") instanceof Map<?, ?> c)) {
                    throw new IllegalArgumentException("no case");
                }
                answer = runCase(adapter, (Map<String, Object>) c);
            } catch (RuntimeException e) {
                answer = unsupported("not a JSON request: " + e.getMessage()).fields;
            }
            out.println(json(answer));
            out.flush();
        }
    }

    // JSON: objects are LinkedHashMaps, arrays Lists, integers Longs (BigIntegers past a
    // long), other numbers Doubles.

    public static String json(Object v) {
        StringBuilder s = new StringBuilder();
        write(s, v);
        return s.toString();
    }

    private static void write(StringBuilder s, Object v) {
        if (v == null) {
            s.append("null");
        } else if (v instanceof Outcome o) {
            write(s, o.fields);
        } else if (v instanceof String str) {
            s.append('"');
            for (char ch : str.toCharArray()) {
                switch (ch) {
                    case '"' -> s.append("\\\"");
                    case '\\' -> s.append("\\\\");
                    case '\n' -> s.append("\\n");
                    case '\r' -> s.append("\\r");
                    case '\t' -> s.append("\\t");
                    default -> {
                        if (ch < 0x20) {
                            s.append(String.format("\\u%04x", (int) ch));
                        } else {
                            s.append(ch);
                        }
                    }
                }
            }
            s.append('"');
        } else if (v instanceof Map<?, ?> m) {
            s.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                s.append(first ? "" : ",");
                first = false;
                write(s, String.valueOf(e.getKey()));
                s.append(':');
                write(s, e.getValue());
            }
            s.append('}');
        } else if (v instanceof Iterable<?> it) {
            s.append('[');
            boolean first = true;
            for (Object e : it) {
                s.append(first ? "" : ",");
                first = false;
                write(s, e);
            }
            s.append(']');
        } else if (v instanceof int[] a) {
            List<Object> l = new ArrayList<>();
            for (int x : a) {
                l.add(x);
            }
            write(s, l);
        } else if (v instanceof long[] a) {
            List<Object> l = new ArrayList<>();
            for (long x : a) {
                l.add(x);
            }
            write(s, l);
        } else if (v instanceof Number || v instanceof Boolean) {
            s.append(v);
        } else {
            throw new IllegalArgumentException("not JSON: " + v.getClass().getName());
        }
    }

    public static Object parse(String text) {
        Parser p = new Parser(text);
        Object v = p.value();
        p.space();
        if (p.i != text.length()) {
            throw p.fail("trailing text");
        }
        return v;
    }

    private static final class Parser {
        final String t;
        int i;

        Parser(String t) {
            this.t = t;
        }

        IllegalArgumentException fail(String what) {
            return new IllegalArgumentException(what + " at " + i);
        }

        void space() {
            while (i < t.length() && " \t\r\n".indexOf(t.charAt(i)) >= 0) {
                i++;
            }
        }

        void expect(char c) {
            space();
            if (i >= t.length() || t.charAt(i) != c) {
                throw fail("expected `" + c + "`");
            }
            i++;
        }

        boolean word(String w) {
            if (t.startsWith(w, i)) {
                i += w.length();
                return true;
            }
            return false;
        }

        Object value() {
            space();
            if (i >= t.length()) {
                throw fail("unexpected end");
            }
            char c = t.charAt(i);
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                space();
                if (i < t.length() && t.charAt(i) == '}') {
                    i++;
                    return m;
                }
                do {
                    space();
                    String k = string();
                    expect(':');
                    m.put(k, value());
                    space();
                } while (i < t.length() && t.charAt(i) == ',' && ++i > 0);
                expect('}');
                return m;
            }
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                space();
                if (i < t.length() && t.charAt(i) == ']') {
                    i++;
                    return l;
                }
                do {
                    l.add(value());
                    space();
                } while (i < t.length() && t.charAt(i) == ',' && ++i > 0);
                expect(']');
                return l;
            }
            if (c == '"') {
                return string();
            }
            if (word("true")) {
                return true;
            }
            if (word("false")) {
                return false;
            }
            if (word("null")) {
                return null;
            }
            return number();
        }

        String string() {
            if (i >= t.length() || t.charAt(i) != '"') {
                throw fail("expected a string");
            }
            i++;
            StringBuilder s = new StringBuilder();
            while (true) {
                if (i >= t.length()) {
                    throw fail("unterminated string");
                }
                char c = t.charAt(i++);
                if (c == '"') {
                    return s.toString();
                }
                if (c != '\\') {
                    s.append(c);
                    continue;
                }
                char e = t.charAt(i++);
                switch (e) {
                    case 'n' -> s.append('\n');
                    case 't' -> s.append('\t');
                    case 'r' -> s.append('\r');
                    case 'b' -> s.append('\b');
                    case 'f' -> s.append('\f');
                    case 'u' -> {
                        s.append((char) Integer.parseInt(t.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> s.append(e);
                }
            }
        }

        Object number() {
            int start = i;
            while (i < t.length() && "+-0123456789.eE".indexOf(t.charAt(i)) >= 0) {
                i++;
            }
            String n = t.substring(start, i);
            if (n.isEmpty()) {
                throw fail("unexpected `" + t.charAt(i) + "`");
            }
            if (n.matches("-?\\d+")) {
                BigInteger b = new BigInteger(n);
                return b.bitLength() < 64 ? (Object) b.longValue() : b;
            }
            return Double.parseDouble(n);
        }
    }
}
