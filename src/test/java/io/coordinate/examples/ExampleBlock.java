package io.coordinate.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** The code of an example between its {@code // begin example} and {@code // end example} lines, as docs show it. */
final class ExampleBlock {

    private ExampleBlock() {}

    /** The block of {@code source}, unindented, as a fenced Java block of a doc. */
    static String fenced(String source) throws IOException {
        String text = Files.readString(Path.of(source));
        String block = text.substring(
                text.indexOf("// begin example\n") + "// begin example\n".length(), text.indexOf("    // end example"));
        int indent = block.lines()
                .filter(line -> !line.isBlank())
                .mapToInt(line -> line.length() - line.stripLeading().length())
                .min()
                .orElse(0);
        String unindented = block.lines()
                .map(line -> line.isBlank() ? "" : line.substring(indent))
                .collect(Collectors.joining("\n"));
        return "```java\n" + unindented + "\n```";
    }
}
