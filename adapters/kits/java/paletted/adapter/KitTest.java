package paletted.adapter;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** The Java kit's loop, on a toy subject: {@code java paletted.adapter.KitTest}. */
public final class KitTest {
    static final Kit.Adapter TOY = new Kit.Adapter() {
        @Override
        public Map<String, Object> handshake() {
            return Map.of("implementation", "toy");
        }

        @Override
        public Kit.Subject subject(Map<String, Object> spec) {
            if (spec.get("kind").equals("container")) {
                throw new Kit.Unsupported("no containers");
            }
            long size = Kit.integer(spec, "size");
            if (size < 0) {
                throw new NegativeArraySizeException("negative size");
            }
            return op -> switch ((String) op.get("op")) {
                case "size" -> size;
                case "get" -> {
                    long i = Kit.integer(op, "index");
                    if (i >= size) {
                        throw new Kit.Thrown("IllegalArgumentException", "index " + i);
                    }
                    yield i % 2 == 0 ? 1 : null;
                }
                case "set" -> throw new ArithmeticException("bad " + op.get("index"));
                case "longs" -> new long[] {Long.MIN_VALUE, 1};
                case "unpack" -> Kit.error("Missing values");
                case "boom" -> throw new StackOverflowError();
                default -> throw new Kit.Unsupported("no " + op.get("op"));
            };
        }

        @Override
        public Kit.Outcome errors(Throwable t) {
            return t instanceof ArithmeticException
                    ? Kit.thrown("IndexOutOfBoundsException", t.getMessage())
                    : null;
        }
    };

    static int failed;
    static int passed;

    static void same(String what, String want, String got) {
        if (want.equals(got)) {
            passed++;
        } else {
            failed++;
            System.out.println(what + ":\n  want " + want + "\n  got  " + got);
        }
    }

    static List<String> exchange(String... cases) throws Exception {
        StringBuilder in = new StringBuilder("\n");
        for (String c : cases) {
            in.append("{\"case\":").append(c).append("}\n");
        }
        in.append("not json\n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Kit.serve(TOY, new BufferedReader(new StringReader(in.toString())),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    static String storage(long size, String ops) {
        return "{\"format\":1,\"name\":\"t\",\"subject\":{\"kind\":\"storage\",\"bits\":1,\"size\":"
                + size + "},\"ops\":[" + ops + "]}";
    }

    public static void main(String[] args) throws Exception {
        List<String> out = exchange(
                storage(4, "{\"op\":\"size\"},{\"op\":\"get\",\"index\":1},{\"op\":\"get\",\"index\":9},"
                        + "{\"op\":\"set\",\"index\":2},{\"op\":\"boom\"},{\"op\":\"unpack\"},"
                        + "{\"op\":\"longs\"}"),
                storage(4, "{\"op\":\"counts\"},{\"op\":\"size\"},{\"op\":\"fill\",\"value\":0},"
                        + "{\"op\":\"size\"}"),
                "{\"format\":1,\"name\":\"c\",\"subject\":{\"kind\":\"container\"},\"ops\":[]}",
                storage(-1, "{\"op\":\"size\"},{\"op\":\"size\"}"));
        same("handshake", "{\"protocol\":1,\"implementation\":\"toy\"}", out.get(0));
        same("values, errors, exceptions", "{\"results\":[{\"ok\":4},{\"ok\":null},"
                + "{\"throws\":\"IllegalArgumentException\",\"message\":\"index 9\"},"
                + "{\"throws\":\"IndexOutOfBoundsException\",\"message\":\"bad 2\"},"
                + "{\"throws\":\"StackOverflowError\",\"message\":null},"
                + "{\"error\":\"Missing values\"},{\"ok\":[-9223372036854775808,1]}]}", out.get(1));
        same("an unsupported state change stops the case", "{\"results\":[{\"unsupported\":\"no counts\"},"
                + "{\"ok\":4},{\"unsupported\":\"no fill\"},"
                + "{\"unsupported\":\"after an unsupported op (no fill)\"}]}", out.get(2));
        same("whole-case unsupported", "{\"unsupported\":\"no containers\"}", out.get(3));
        same("a subject it cannot make", "{\"results\":[{\"throws\":\"NegativeArraySizeException\","
                + "\"message\":\"negative size\"},{\"unsupported\":\"the subject could not be made\"}]}",
                out.get(4));
        same("a line that is not JSON", true, out.get(5).startsWith("{\"unsupported\":\"not a JSON request"));
        same("longs parse exact", "[-9223372036854775808,\"a\\\"b\",9223372036854775808,true]",
                Kit.json(Kit.parse("[-9223372036854775808, \"a\\\"b\", 9223372036854775808, true]")));
        same("answers", "6", String.valueOf(out.size()));
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }

    static void same(String what, boolean want, boolean got) {
        same(what, String.valueOf(want), String.valueOf(got));
    }
}
