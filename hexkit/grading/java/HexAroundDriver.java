/*
 * hexkit's driver for a WPI CS4233 HexAround project (Java), shipped with hexkit as source.
 *
 * It finds the course's HexAroundGameBuilder among the compiled classes, builds a game
 * manager with buildGameManager(configurationFile) and answers one line per request.
 * Everything is found by name and signature (reflection), since students keep the course's
 * enums and MoveResponse in packages of their own.
 *
 * Usage: java hexkitdriver.HexAroundDriver REQUESTS ANSWERS CLASSES...
 * REQUESTS and ANSWERS are files to read requests from and write answers to (pipes the
 * grader passes, such as /dev/fd/3 and /dev/fd/4), so that nothing the student's code does
 * with standard input and output can reach the protocol; CLASSES are the folders of the
 * project's compiled classes.
 *
 * Requests (fields separated by one tab):
 *   build <configuration file>
 *   place <CREATURE> <x> <y>
 *   move <CREATURE> <fromX> <fromY> <toX> <toY>
 *   quit
 * Answers: "<RESULT>\t<message>", the message with \\, \n, \r and \t escaped. RESULT is the
 * name the student's code returned (OK, MOVE_ERROR, BLUE_WON, RED_WON, DRAW, or whatever
 * else it named), or the driver's own: EXCEPTION (the student's code threw; the message
 * names the throwable and the student's frame), NULL (it returned null), UNREADABLE (the
 * response has no result the driver can read), NO_GAME (no game was built), UNKNOWN_CREATURE
 * (the student's creature enum has no such name), BAD_REQUEST (a malformed request line).
 * The first line is "READY\t<builder class>" or "MISSING\t<what is missing>" (then exit 3).
 */
package hexkitdriver;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

public final class HexAroundDriver {
    private static final String BUILDER = "HexAroundGameBuilder";
    private static final int MESSAGE_LIMIT = 2000;
    /** What {@link #invoke} returns when the student's code threw. */
    private static final Object THREW = new Object();

    private final Writer out;
    private final Method builder;
    private Object manager;
    private Method place;
    private Method move;

    private HexAroundDriver(Writer out, Method builder) {
        this.out = out;
        this.builder = builder;
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: HexAroundDriver REQUESTS ANSWERS CLASSES...");
            System.exit(2);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(args[0]),
            StandardCharsets.UTF_8));
        Writer out = new OutputStreamWriter(new FileOutputStream(args[1]), StandardCharsets.UTF_8);
        Object found;
        try {
            found = findBuilder(Arrays.copyOfRange(args, 2, args.length));
        } catch (Throwable t) {
            found = "cannot load " + BUILDER + ": " + describe(t);
        }
        if (found instanceof String missing) {
            answer(out, "MISSING", missing);
            System.exit(3);
        }
        Method builder = (Method) found;
        answer(out, "READY", builder.getDeclaringClass().getName());
        HexAroundDriver driver = new HexAroundDriver(out, builder);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("quit")) {
                break;
            }
            driver.request(line);
        }
        out.flush();
        System.exit(0);
    }

    // ---- finding the course's classes ----------------------------------------------------

    /** The static buildGameManager(String) of the project's HexAroundGameBuilder, or why not. */
    private static Object findBuilder(String[] roots) throws IOException, ClassNotFoundException {
        List<String> names = new ArrayList<>();
        for (String root : roots) {
            Path base = Path.of(root);
            if (!Files.isDirectory(base)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(base)) {
                files.filter(p -> p.getFileName().toString().equals(BUILDER + ".class"))
                    .map(p -> base.relativize(p).toString().replace('\\', '/'))
                    .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.'))
                    .sorted()
                    .forEach(names::add);
            }
        }
        if (names.isEmpty()) {
            return "no class " + BUILDER + " in the project";
        }
        String name = names.contains("hexaround.game." + BUILDER) ? "hexaround.game." + BUILDER : names.get(0);
        if (names.size() > 1 && !name.equals("hexaround.game." + BUILDER)) {
            return "several classes named " + BUILDER + ": " + String.join(", ", names);
        }
        Class<?> type = Class.forName(name, false, HexAroundDriver.class.getClassLoader());
        for (Method m : type.getDeclaredMethods()) {
            if (m.getName().equals("buildGameManager") && Modifier.isStatic(m.getModifiers())
                    && m.getParameterCount() == 1 && m.getParameterTypes()[0] == String.class) {
                m.setAccessible(true);
                return m;
            }
        }
        return name + " has no static buildGameManager(String configurationFile)";
    }

    /** placeCreature(enum, int, int) or moveCreature(enum, int, int, int, int) of the manager. */
    private static Method findRequest(Object manager, Class<?> declared, String name, int ints) {
        List<Class<?>> types = new ArrayList<>();
        types.add(declared);
        types.add(manager.getClass());
        for (Class<?> type : types) {
            for (Method m : type.getMethods()) {
                if (m.getName().equals(name) && isRequest(m, ints)) {
                    try {
                        m.setAccessible(true);
                    } catch (RuntimeException e) {
                        // a public method of a public type needs no access override
                    }
                    return m;
                }
            }
        }
        return null;
    }

    private static boolean isRequest(Method m, int ints) {
        Class<?>[] params = m.getParameterTypes();
        if (params.length != ints + 1 || !params[0].isEnum()) {
            return false;
        }
        for (int i = 1; i < params.length; i++) {
            if (params[i] != int.class) {
                return false;
            }
        }
        return true;
    }

    // ---- requests ------------------------------------------------------------------------

    private void request(String line) throws IOException {
        String[] f = line.split("\t", -1);
        try {
            switch (f[0]) {
                case "build" -> build(f);
                case "place" -> call(place, "placeCreature", f, 3);
                case "move" -> call(move, "moveCreature", f, 5);
                default -> answer(out, "BAD_REQUEST", "unknown request " + f[0]);
            }
        } catch (NumberFormatException e) {
            answer(out, "BAD_REQUEST", "a coordinate is not a 32-bit integer: " + line);
        }
    }

    private void build(String[] f) throws IOException {
        if (f.length != 2) {
            answer(out, "BAD_REQUEST", "build takes one configuration file");
            return;
        }
        manager = null;
        Object made = invoke(builder, null, f[1]);
        if (made == THREW) {
            return;
        }
        if (made == null) {
            answer(out, "NULL", "buildGameManager returned null");
            return;
        }
        Class<?> declared = builder.getReturnType();
        place = findRequest(made, declared, "placeCreature", 2);
        move = findRequest(made, declared, "moveCreature", 4);
        manager = made;
        List<String> missing = new ArrayList<>();
        if (place == null) {
            missing.add("placeCreature(CreatureName, int, int)");
        }
        if (move == null) {
            missing.add("moveCreature(CreatureName, int, int, int, int)");
        }
        if (!missing.isEmpty()) {
            answer(out, "MISSING", made.getClass().getName() + " has no " + String.join(" and no ", missing));
            return;
        }
        answer(out, "OK", made.getClass().getName());
    }

    private void call(Method method, String name, String[] f, int arguments) throws IOException {
        if (f.length != arguments + 1) {
            answer(out, "BAD_REQUEST", f[0] + " takes " + arguments + " fields");
            return;
        }
        if (manager == null) {
            answer(out, "NO_GAME", "no game has been built");
            return;
        }
        if (method == null) {
            answer(out, "MISSING", manager.getClass().getName() + " has no " + name);
            return;
        }
        Object creature = creature(method.getParameterTypes()[0], f[1]);
        if (creature == null) {
            answer(out, "UNKNOWN_CREATURE", method.getParameterTypes()[0].getName() + " has no constant " + f[1]);
            return;
        }
        Object[] args = new Object[arguments];
        args[0] = creature;
        for (int i = 2; i <= arguments; i++) {
            args[i - 1] = Integer.parseInt(f[i]);
        }
        Object response = invoke(method, manager, args);
        if (response == THREW) {
            return;
        }
        try {
            String[] read = readResponse(response);
            answer(out, read[0], read[1]);
        } catch (Throwable t) {
            answer(out, "EXCEPTION", "reading the response: " + describe(t));
        }
    }

    /** Calls the student's code; if it throws, answers EXCEPTION and returns THREW. */
    private Object invoke(Method method, Object target, Object... args) throws IOException {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            answer(out, "EXCEPTION", describe(e.getCause()));
        } catch (Throwable t) {
            answer(out, "EXCEPTION", describe(t));
        }
        return THREW;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object creature(Class<?> type, String name) {
        for (Object constant : type.getEnumConstants()) {
            if (((Enum) constant).name().equals(name)) {
                return constant;
            }
        }
        return null;
    }

    // ---- reading a MoveResponse ------------------------------------------------------------

    /** {result name, message} of whatever the student's method returned. */
    private static String[] readResponse(Object response) throws ReflectiveOperationException {
        if (response == null) {
            return new String[] {"NULL", "the call returned null"};
        }
        if (response instanceof Enum<?> e) {
            return new String[] {e.name(), ""};
        }
        Class<?> type = response.getClass();
        Object result = null;
        Object message = null;
        if (type.isRecord()) {
            for (RecordComponent c : type.getRecordComponents()) {
                Method accessor = c.getAccessor();
                accessor.setAccessible(true);
                if (result == null && c.getType().isEnum()) {
                    result = accessor.invoke(response);
                    if (result == null) {
                        return new String[] {"NULL", type.getName() + "." + c.getName() + " is null"};
                    }
                } else if (message == null && c.getType() == String.class) {
                    message = accessor.invoke(response);
                }
            }
        }
        if (result == null) {
            for (String name : new String[] {"moveResult", "getMoveResult", "result", "getResult"}) {
                Method m = noArgument(type, name);
                if (m != null && m.getReturnType().isEnum()) {
                    result = m.invoke(response);
                    break;
                }
            }
            for (String name : new String[] {"message", "getMessage"}) {
                Method m = noArgument(type, name);
                if (m != null && m.getReturnType() == String.class) {
                    message = m.invoke(response);
                    break;
                }
            }
        }
        if (result == null) {
            for (Class<?> t = type; t != null && t != Object.class; t = t.getSuperclass()) {
                for (Field field : t.getDeclaredFields()) {
                    if (Modifier.isStatic(field.getModifiers())) {
                        continue;
                    }
                    field.setAccessible(true);
                    if (result == null && field.getType().isEnum()) {
                        result = field.get(response);
                    } else if (message == null && field.getType() == String.class) {
                        message = field.get(response);
                    }
                }
            }
        }
        if (!(result instanceof Enum<?> e)) {
            return new String[] {"UNREADABLE", type.getName() + " has no move result the driver can read"};
        }
        return new String[] {e.name(), message == null ? "" : message.toString()};
    }

    private static Method noArgument(Class<?> type, String name) {
        for (Class<?> t = type; t != null; t = t.getSuperclass()) {
            try {
                Method m = t.getDeclaredMethod(name);
                m.setAccessible(true);
                return m;
            } catch (NoSuchMethodException | RuntimeException e) {
                // look further up
            }
        }
        return null;
    }

    // ---- answering -----------------------------------------------------------------------

    /** The throwable and the first frame of the student's code where it happened. */
    private static String describe(Throwable t) {
        if (t == null) {
            return "an unknown error";
        }
        String text = t.toString();
        for (StackTraceElement frame : t.getStackTrace()) {
            String c = frame.getClassName();
            if (!(c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.")
                    || c.startsWith("hexkitdriver."))) {
                return text + " at " + frame;
            }
        }
        return text;
    }

    private static void answer(Writer out, String result, String message) throws IOException {
        String text = message == null ? "" : message;
        if (text.length() > MESSAGE_LIMIT) {
            text = text.substring(0, MESSAGE_LIMIT) + "...";
        }
        StringBuilder line = new StringBuilder(result).append('\t').append(Lines.escape(text));
        out.write(line.append('\n').toString());
        out.flush();
    }
}
