package paletted.probe;

import net.minecraft.util.BitStorage;
import net.minecraft.world.level.chunk.PalettedContainer;

/**
 * Times one benchmark workload inside the JVM (PROTOCOL.md, "The probe (JVM side)"), so that
 * neither JNI nor the pipe is counted against Java. The request names the workload and carries
 * the section it runs on (its written bytes, read into a fresh container, so palette order and
 * storage are the Rust side's exactly); the workloads mirror benches/shared/workloads.rs. The
 * answer is the median time of one pass, after JIT warm-up, in the same way rig bench times
 * the Rust side: batches of about 1 ms, median of the batches.
 */
final class Bench {
    private Bench() {}

    /** Where checksums go, so the JIT cannot drop the work. */
    static volatile long sink;

    /** One pass of a workload; returns a checksum. */
    interface Pass {
        long run();
    }

    /**
     * bench GROUP TARGET_MS, then one subject line:
     * container KIND REGISTRY HEX | ladder KIND REGISTRY N | storage BITS SIZE M LONG*M.
     */
    static String run(String[] lines) {
        String[] head = lines[0].split(" ");
        if (head.length < 3 || lines.length < 2) {
            throw new ProbeRefusal("malformed bench request: " + lines[0]);
        }
        String group = head[1];
        int targetMs = Probe.i(head[2]);
        String[] subject = lines[1].split(" ");
        Pass pass;
        switch (subject[0]) {
            case "container":
                if (subject.length < 4) {
                    throw new ProbeRefusal("malformed bench request: " + lines[1]);
                }
                pass = container(group, subject[1], Probe.i(subject[2]), Probe.unhex(subject[3]));
                break;
            case "ladder":
                if (subject.length < 4 || !group.equals("ladder")) {
                    throw new ProbeRefusal("malformed bench request: " + lines[1]);
                }
                pass = ladder(subject[1], Probe.i(subject[2]), Probe.i(subject[3]));
                break;
            case "storage":
                if (subject.length < 4) {
                    throw new ProbeRefusal("malformed bench request: " + lines[1]);
                }
                pass = storage(group, Probe.i(subject[1]), Probe.i(subject[2]), Probe.parseLongs(subject, 3));
                break;
            default:
                throw new ProbeRefusal("unknown bench subject " + subject[0]);
        }
        return time(pass, targetMs);
    }

    private static int axis(String kind) {
        return kind.equals("block_states") ? 16 : 4;
    }

    private static Pass container(String group, String kind, int size, byte[] bytes) {
        Registry registry = Probe.registry(size);
        Minecraft.Kind strategy = Probe.kind(kind, size);
        PalettedContainer<Entry> c = Minecraft.container(registry.entry(0), strategy);
        Minecraft.read(c, bytes);
        int axis = axis(kind);
        int n = axis * axis * axis;
        // The values in index order (y, z, x), and each moved along by one: setting index i to
        // the value at i + 1 keeps the palette's set of values, so no resize.
        Entry[] at = new Entry[n];
        int k = 0;
        for (int y = 0; y < axis; y++) {
            for (int z = 0; z < axis; z++) {
                for (int x = 0; x < axis; x++) {
                    at[k++] = Minecraft.get(c, x, y, z);
                }
            }
        }
        Entry[] shifted = new Entry[n];
        for (int i = 0; i < n; i++) {
            shifted[i] = at[(i + 1) % n];
        }
        switch (group) {
            case "get":
                return () -> {
                    long sum = 0;
                    for (int y = 0; y < axis; y++) {
                        for (int z = 0; z < axis; z++) {
                            for (int x = 0; x < axis; x++) {
                                sum += Minecraft.get(c, x, y, z).id;
                            }
                        }
                    }
                    return sum;
                };
            case "set":
                return () -> {
                    int i = 0;
                    for (int y = 0; y < axis; y++) {
                        for (int z = 0; z < axis; z++) {
                            for (int x = 0; x < axis; x++) {
                                Minecraft.set(c, x, y, z, shifted[i++]);
                            }
                        }
                    }
                    return Minecraft.bits(c);
                };
            case "get_and_set":
                return () -> {
                    long sum = 0;
                    int i = 0;
                    for (int y = 0; y < axis; y++) {
                        for (int z = 0; z < axis; z++) {
                            for (int x = 0; x < axis; x++) {
                                sum += Minecraft.getAndSet(c, x, y, z, shifted[i++]).id;
                            }
                        }
                    }
                    return sum;
                };
            case "write":
                return () -> Minecraft.writtenLength(c);
            case "serialized_size":
                return () -> Minecraft.serializedSize(c);
            case "read":
                // A client loading a chunk: a fresh container, then read.
                return () -> Minecraft.read(Minecraft.container(registry.entry(0), strategy), bytes);
            case "read_in_place":
                return () -> Minecraft.read(c, bytes);
            case "pack":
                return () -> Minecraft.pack(c, strategy).palette.size();
            case "unpack": {
                Packed p = Minecraft.pack(c, strategy);
                return () -> {
                    Object out = Minecraft.unpack(strategy, p.palette, p.data, p.bits);
                    if (out instanceof String) {
                        throw new IllegalStateException("unpack of its own pack failed: " + out);
                    }
                    @SuppressWarnings("unchecked")
                    PalettedContainer<Entry> unpacked = (PalettedContainer<Entry>) out;
                    return Minecraft.bits(unpacked);
                };
            }
            case "counts": {
                long[] tally = new long[1];
                return () -> {
                    tally[0] = 0;
                    Minecraft.counts(c, (v, count) -> tally[0] += count);
                    return tally[0];
                };
            }
            default:
                throw new ProbeRefusal("no Java counterpart for container workload " + group);
        }
    }

    /** From one value to N distinct values set one at a time (index k gets value k). */
    private static Pass ladder(String kind, int size, int n) {
        Registry registry = Probe.registry(size);
        Minecraft.Kind strategy = Probe.kind(kind, size);
        int axis = axis(kind);
        return () -> {
            PalettedContainer<Entry> c = Minecraft.container(registry.entry(0), strategy);
            for (int k = 1; k < n; k++) {
                Minecraft.set(c, k % axis, k / (axis * axis), (k / axis) % axis, registry.entry(k));
            }
            return Minecraft.bits(c);
        };
    }

    private static Pass storage(String group, int bits, int size, long[] longs) {
        BitStorage s = Minecraft.load(bits, size, longs);
        switch (group) {
            case "storage_get":
                return () -> {
                    long sum = 0;
                    for (int i = 0; i < size; i++) {
                        sum += Minecraft.get(s, i);
                    }
                    return sum;
                };
            case "storage_set": {
                int[] initial = Minecraft.values(s);
                int[] values = new int[size];
                for (int i = 0; i < size; i++) {
                    values[i] = initial[size - 1 - i];
                }
                return () -> {
                    for (int i = 0; i < size; i++) {
                        Minecraft.set(s, i, values[i]);
                    }
                    return Minecraft.longs(s)[0];
                };
            }
            case "storage_fill": {
                int value = (int) (((1L << bits) - 1) / 3);
                return () -> {
                    Minecraft.fill(s, value);
                    return Minecraft.longs(s)[0];
                };
            }
            default:
                throw new ProbeRefusal("no Java counterpart for storage workload " + group);
        }
    }

    /** Warms up for at least 300 ms (and TARGET_MS), then times batches of about 1 ms. */
    private static String time(Pass pass, int targetMs) {
        long sum = 0;
        long warmEnd = System.nanoTime() + Math.max(300, targetMs) * 1_000_000L;
        long warmPasses = 0;
        while (System.nanoTime() < warmEnd) {
            sum += pass.run();
            warmPasses++;
        }
        long perBatch = 1;
        while (true) {
            long t = System.nanoTime();
            for (long k = 0; k < perBatch; k++) {
                sum += pass.run();
            }
            if (System.nanoTime() - t >= 1_000_000L || perBatch >= 1L << 30) {
                break;
            }
            perBatch *= 2;
        }
        double[] batches = new double[16];
        int count = 0;
        long start = System.nanoTime();
        long budget = Math.max(1, targetMs) * 1_000_000L;
        while (System.nanoTime() - start < budget || count < 5) {
            long t = System.nanoTime();
            for (long k = 0; k < perBatch; k++) {
                sum += pass.run();
            }
            long took = System.nanoTime() - t;
            if (count == batches.length) {
                batches = java.util.Arrays.copyOf(batches, count * 2);
            }
            batches[count++] = (double) took / perBatch;
        }
        sink = sum;
        double[] sorted = java.util.Arrays.copyOf(batches, count);
        java.util.Arrays.sort(sorted);
        return "{\"ns_per_pass\":" + sorted[count / 2] + ",\"batches\":" + count + ",\"passes_per_batch\":"
                + perBatch + ",\"warmup_passes\":" + warmPasses + "}";
    }
}
