package paletted.adapter.minestom;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import net.minestom.server.instance.palette.Palette;
import net.minestom.server.network.NetworkBuffer;
import paletted.adapter.Kit;

/**
 * Conformance adapter for Minestom (PROTOCOL.md, "Adapters"), on the Java kit: every op through
 * Minestom's public palette API ({@code Palette.blocks()}, {@code Palette.biomes()}, {@code
 * fill}, {@code get}, {@code set}, {@code bitsPerEntry}, {@code getAll}, {@code any}, {@code
 * load}, and the wire serializers {@code Palette.BLOCK_SERIALIZER} and {@code
 * Palette.biomeSerializer(count)} with {@code NetworkBuffer}). Its {@code @ApiStatus.Internal}
 * calls are not used.
 */
public final class Adapter implements Kit.Adapter {
    static final String VERSION = Palette.class.getPackage().getImplementationVersion();

    @Override
    public Map<String, Object> handshake() {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("implementation", "minestom");
        h.put("version", version());
        h.put("minecraft", "26.1");
        h.put("ops", Map.of("container", List.of("set", "get", "bits", "get_all", "maybe_has",
                "write", "serialized_size", "read", "unpack")));
        h.put("notes", "Minestom " + version() + "'s Palette, made as its sections make it "
                + "(Palette.blocks() / Palette.biomes(), then fill(initial)); positions are "
                + "coordinates; get_all is the distinct values of getAll in its order; maybe_has is "
                + "any(value); write, read and serialized_size go through Palette.BLOCK_SERIALIZER "
                + "(direct width fixed at its 26.1 registry) or Palette.biomeSerializer(registry "
                + "size); read makes a new palette from the bytes; unpack is load(palette, longs) "
                + "(no declared width). No palette listing, counts or pack outside its internal "
                + "API, and no bit storage class. Exceptions keep their Java class and message "
                + "(identity hashes in it written @<identity>).");
        return h;
    }

    /** An object's identity hash in a message ({@code [B@1b6d3586}): it changes every run. */
    static final Pattern IDENTITY = Pattern.compile("@[0-9a-f]+\\b");

    /** Exceptions keep their class and message, less identity hashes. */
    @Override
    public Kit.Outcome errors(Throwable t) {
        String m = t.getMessage();
        return m == null
                ? null
                : Kit.thrown(t.getClass().getSimpleName(), IDENTITY.matcher(m).replaceAll("@<identity>"));
    }

    static String version() {
        return VERSION != null ? VERSION : System.getProperty("minestom.version", "unknown");
    }

    @Override
    public Kit.Subject subject(Map<String, Object> spec) {
        if (!"container".equals(spec.get("kind"))) {
            throw new Kit.Unsupported("Minestom has no bit storage class (Palettes works on raw arrays)");
        }
        boolean blocks = "block_states".equals(spec.get("strategy"));
        int registry = Kit.javaInt(spec, "registry");
        Palette p = blocks ? Palette.blocks() : Palette.biomes();
        p.fill(Kit.javaInt(spec, "initial"));
        return new Container(blocks, registry, p);
    }

    static final class Container implements Kit.Subject {
        final boolean blocks;
        final NetworkBuffer.Type<Palette> wire;
        Palette p;

        Container(boolean blocks, int registry, Palette p) {
            this.blocks = blocks;
            this.wire = blocks ? Palette.BLOCK_SERIALIZER : Palette.biomeSerializer(registry);
            this.p = p;
        }

        @Override
        public Object run(Map<String, Object> op) {
            return switch ((String) op.get("op")) {
                case "set" -> {
                    p.set(Kit.javaInt(op, "x"), Kit.javaInt(op, "y"), Kit.javaInt(op, "z"),
                            Kit.javaInt(op, "value"));
                    yield null;
                }
                case "get" -> p.get(Kit.javaInt(op, "x"), Kit.javaInt(op, "y"), Kit.javaInt(op, "z"));
                case "bits" -> p.bitsPerEntry();
                case "get_all" -> {
                    Set<Integer> seen = new LinkedHashSet<>();
                    p.getAll((x, y, z, v) -> seen.add(v));
                    yield new ArrayList<>(seen);
                }
                case "maybe_has" -> p.any(Kit.javaInt(op, "value"));
                case "write" -> Kit.hex(NetworkBuffer.makeArray(b -> wire.write(b, p)));
                case "serialized_size" -> wire.sizeOf(p);
                case "read" -> {
                    byte[] bytes = Kit.fromHex((String) op.get("bytes"));
                    NetworkBuffer b = NetworkBuffer.wrap(bytes, 0, bytes.length);
                    Palette read = wire.read(b);
                    p = read;
                    yield b.readIndex();
                }
                case "unpack" -> {
                    List<Object> palette = Kit.list(op, "palette");
                    List<Object> data = Kit.list(op, "data");
                    int[] ids = new int[palette.size()];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = Math.toIntExact((Long) palette.get(i));
                    }
                    long[] longs = new long[data == null ? 0 : data.size()];
                    for (int i = 0; i < longs.length; i++) {
                        longs[i] = (Long) data.get(i);
                    }
                    p.load(ids, longs);
                    yield null;
                }
                default -> throw new Kit.Unsupported("Minestom's Palette has no public `" + op.get("op") + "`");
            };
        }
    }

    public static void main(String[] args) throws Exception {
        Kit.serve(new Adapter());
    }
}
