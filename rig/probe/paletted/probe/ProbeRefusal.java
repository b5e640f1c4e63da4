package paletted.probe;

/** An op the probe cannot express in Minecraft's API (say, a value outside the registry). */
final class ProbeRefusal extends RuntimeException {
    ProbeRefusal(String message) {
        super(message);
    }
}
