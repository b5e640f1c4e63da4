package paletted.probe;

import com.mojang.serialization.DataResult;
import io.netty.buffer.Unpooled;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import net.minecraft.network.FriendlyByteBuf;
import net.minecraft.util.BitStorage;
import net.minecraft.util.SimpleBitStorage;
import net.minecraft.util.ZeroBitStorage;
import net.minecraft.world.level.chunk.PalettedContainer;

/**
 * The calls into Minecraft's API that are the same in every API shape the probe knows (1.18.2
 * to 26.x), and the reflection the older shapes need. Each shape's {@code Minecraft} extends
 * this class and adds what differs (PROTOCOL.md, "The probe (JVM side)"); together they are
 * every call the probe makes into Minecraft. If javac names a line here, the signature changed
 * in every shape at once; fix it here.
 */
class MinecraftCommon {
    MinecraftCommon() {}

    // ---- Containers ----------------------------------------------------------------------------

    static Entry get(PalettedContainer<Entry> c, int x, int y, int z) {
        return c.get(x, y, z);
    }

    static void set(PalettedContainer<Entry> c, int x, int y, int z, Entry value) {
        c.set(x, y, z, value);
    }

    static Entry getAndSet(PalettedContainer<Entry> c, int x, int y, int z, Entry value) {
        return c.getAndSet(x, y, z, value);
    }

    interface CountSink {
        void accept(Entry value, int count);
    }

    static void counts(PalettedContainer<Entry> c, CountSink out) {
        c.count(out::accept);
    }

    static void getAll(PalettedContainer<Entry> c, Consumer<Entry> out) {
        c.getAll(out);
    }

    static boolean maybeHas(PalettedContainer<Entry> c, Predicate<Entry> predicate) {
        return c.maybeHas(predicate);
    }

    /** Every byte write(buf) puts into a fresh buffer. */
    static byte[] write(PalettedContainer<Entry> c) {
        FriendlyByteBuf buf = new FriendlyByteBuf(Unpooled.buffer());
        c.write(buf);
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        return out;
    }

    /** write(buf) into a fresh buffer, as a chunk packet would; returns the bytes written. */
    static int writtenLength(PalettedContainer<Entry> c) {
        FriendlyByteBuf buf = new FriendlyByteBuf(Unpooled.buffer());
        c.write(buf);
        return buf.writerIndex();
    }

    /**
     * The bits byte, the first byte write(buf) puts out, for the shapes without a public
     * bitsPerEntry(). It is written before the palette, so a write that then fails (an
     * uninitialised single value) has still said it.
     */
    static int bitsFromWrite(PalettedContainer<Entry> c) {
        FriendlyByteBuf buf = new FriendlyByteBuf(Unpooled.buffer());
        try {
            c.write(buf);
        } catch (RuntimeException e) {
            if (buf.readableBytes() == 0) {
                throw e;
            }
        }
        return buf.readByte();
    }

    static int serializedSize(PalettedContainer<Entry> c) {
        return c.getSerializedSize();
    }

    /** read(buf) from a buffer holding bytes; returns how many bytes it consumed. */
    static int read(PalettedContainer<Entry> c, byte[] bytes) {
        FriendlyByteBuf buf = new FriendlyByteBuf(Unpooled.wrappedBuffer(bytes));
        c.read(buf);
        return buf.readerIndex();
    }

    /** The container of a DataResult, or its error message as a String. */
    static Object resultOrMessage(DataResult<?> result) {
        Optional<?> ok = result.result();
        if (ok.isPresent()) {
            return ok.get();
        }
        return result.error().get().message();
    }

    // ---- Bit storage ---------------------------------------------------------------------------

    static BitStorage storage(int bits, int size) {
        return bits == 0 ? new ZeroBitStorage(size) : new SimpleBitStorage(bits, size);
    }

    static BitStorage load(int bits, int size, long[] longs) {
        return bits == 0 ? new ZeroBitStorage(size) : new SimpleBitStorage(bits, size, longs);
    }

    static int get(BitStorage s, int index) {
        return s.get(index);
    }

    static void set(BitStorage s, int index, int value) {
        s.set(index, value);
    }

    static int getAndSet(BitStorage s, int index, int value) {
        return s.getAndSet(index, value);
    }

    static int[] values(BitStorage s) {
        int[] out = new int[s.getSize()];
        s.unpack(out);
        return out;
    }

    static long[] longs(BitStorage s) {
        return s.getRaw();
    }

    static int bits(BitStorage s) {
        return s.getBits();
    }

    static int size(BitStorage s) {
        return s.getSize();
    }

    // ---- Reflection, for what the older shapes keep private -------------------------------------

    /**
     * Each entry of the container's palette, in id order, for the shapes without a public
     * forEachInPalette(): the private field {@code data} (a record of configuration, storage and
     * palette), its {@code palette()}, and that palette's public getSize() and valueFor(id).
     */
    static void paletteByReflection(PalettedContainer<Entry> c, String shape, Consumer<Entry> out) {
        Object data = field(c, "data", shape);
        Object palette = call(method(data.getClass(), "palette", shape), data);
        int size = (Integer) call(method(palette.getClass(), "getSize", shape), palette);
        Method valueFor = method(palette.getClass(), "valueFor", shape, int.class);
        for (int id = 0; id < size; id++) {
            @SuppressWarnings("unchecked")
            Entry e = (Entry) call(valueFor, palette, id);
            out.accept(e);
        }
    }

    /** The value of a declared field of the object's class or one above it. */
    static Object field(Object target, String name, String shape) {
        for (Class<?> k = target.getClass(); k != null; k = k.getSuperclass()) {
            try {
                Field f = k.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // look further up
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw absent(target.getClass(), "field " + name + " (" + e + ")", shape);
            }
        }
        throw absent(target.getClass(), "field " + name, shape);
    }

    /** A method declared by the class, a class above it, or an interface of either; made callable. */
    static Method method(Class<?> start, String name, String shape, Class<?>... params) {
        Method m = find(start, name, params);
        if (m == null) {
            throw absent(start, "method " + name + "(" + params.length + " parameters)", shape);
        }
        try {
            m.setAccessible(true);
        } catch (RuntimeException e) {
            throw absent(start, "accessible method " + name + " (" + e + ")", shape);
        }
        return m;
    }

    private static Method find(Class<?> k, String name, Class<?>[] params) {
        if (k == null) {
            return null;
        }
        try {
            return k.getDeclaredMethod(name, params);
        } catch (NoSuchMethodException e) {
            Method m = find(k.getSuperclass(), name, params);
            for (Class<?> i : k.getInterfaces()) {
                if (m == null) {
                    m = find(i, name, params);
                }
            }
            return m;
        }
    }

    /** The refusal of an op whose private member the classes lack: not this shape, or renamed. */
    static ProbeRefusal absent(Class<?> k, String what, String shape) {
        return new ProbeRefusal("the classes have no " + what + " in " + k.getName() + ", which the probe's "
                + shape + " API shape reaches by reflection: these classes are not of that shape "
                + "(or not remapped with Mojang's names)");
    }

    /** Invokes m; what it throws is rethrown as it is, as a direct call would throw it. */
    static Object call(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw MinecraftCommon.<RuntimeException>rethrow(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot call " + m + ": " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    static <E extends Throwable> E rethrow(Throwable t) throws E {
        throw (E) t;
    }
}
