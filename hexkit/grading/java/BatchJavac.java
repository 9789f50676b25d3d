/*
 * hexkit's batch compiler: runs javac (the JDK's javax.tools compiler) once per request in one
 * JVM, so a class of projects pays the compiler's start-up once, not once per project.
 *
 * Each request on standard input is one line: the path of a javac argument file (the same
 * options and sources the javac command takes). Each answer is one line: the exit code
 * (0: compiled), a tab, and javac's diagnostics with \\, \n, \r and \t escaped.
 */
package hexkitdriver;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

public final class BatchJavac {
    private BatchJavac() {
    }

    public static void main(String[] args) throws Exception {
        Writer out = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            out.write("-1\tthis Java runtime has no compiler (a JDK is needed, not a JRE)\n");
            out.flush();
            System.exit(3);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
            int code;
            try {
                code = javac.run(null, diagnostics, diagnostics, "@" + line);
            } catch (RuntimeException | Error e) {
                code = -2;
                diagnostics.write(("javac failed: " + e).getBytes(StandardCharsets.UTF_8));
            }
            StringBuilder answer = new StringBuilder().append(code).append('\t')
                .append(Lines.escape(diagnostics.toString(StandardCharsets.UTF_8)));
            out.write(answer.append('\n').toString());
            out.flush();
        }
    }
}
