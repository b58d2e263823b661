package io.coordinate.docs;

import java.util.ArrayList;
import java.util.List;

/** The comment text of a Java source, line by line: what {@code //}, {@code /*} and Javadoc hold, never code. */
final class JavaComments {

    /** One line of a comment: its 1-based line number in the file and its text. */
    record Line(int number, String text) {}

    private JavaComments() {}

    static List<Line> of(String source) {
        List<Line> lines = new ArrayList<>();
        int i = 0;
        int line = 1;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (source.startsWith("//", i)) {
                int end = endOfLine(source, i);
                lines.add(new Line(line, source.substring(i + 2, end)));
                i = end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? source.length() : end;
                for (String text : source.substring(i + 2, end).split("\n", -1)) {
                    lines.add(new Line(line++, text));
                }
                line--;
                i = end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                end = end < 0 ? source.length() : end + 3;
                line += (int) source.substring(i, end)
                        .chars()
                        .filter(ch -> ch == '\n')
                        .count();
                i = end;
            } else if (c == '"' || c == '\'') {
                i = endOfLiteral(source, i, c);
            } else {
                i++;
            }
        }
        return lines;
    }

    private static int endOfLine(String source, int from) {
        int end = source.indexOf('\n', from);
        return end < 0 ? source.length() : end;
    }

    /** Just after the literal that opens at {@code from}; a literal never spans lines. */
    private static int endOfLiteral(String source, int from, char quote) {
        int i = from + 1;
        while (i < source.length() && source.charAt(i) != quote && source.charAt(i) != '\n') {
            i += source.charAt(i) == '\\' ? 2 : 1;
        }
        return i < source.length() && source.charAt(i) == quote ? i + 1 : i;
    }
}
