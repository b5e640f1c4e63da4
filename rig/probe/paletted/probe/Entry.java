package paletted.probe;

/** One registry value; the probe makes exactly one per id, so identity stands for the id. */
final class Entry {
    final int id;

    Entry(int id) {
        this.id = id;
    }

    @Override
    public String toString() {
        return "entry#" + id;
    }
}
