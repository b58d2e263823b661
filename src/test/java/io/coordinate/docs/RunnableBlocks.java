package io.coordinate.docs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The blocks of a Markdown page marked runnable, and how an output is compared with the one the page prints.
 *
 * <p>A block is runnable when the line before its fence is {@code <!-- doc-test -->}, with options after
 * {@code doc-test}: {@code file: NAME} (the block is written as that file), {@code output} (the block is the
 * expected output of the {@code sh} block before it), {@code retry} (the transcript's commands read what an earlier
 * one sent without waiting for it: each is run again until its output matches), {@code skip} (the block is not
 * run). A {@code sh} block is a script; any other block whose first line starts with {@code $ } is a transcript:
 * commands, each followed by its expected output. Expected output follows doctest's ELLIPSIS: a line {@code ...}
 * matches any number of lines, and {@code ...} inside a line any text.
 */
final class RunnableBlocks {

    static final String MARKER = "doc-test";
    private static final Pattern MARKER_LINE = Pattern.compile("^\\s*<!--\\s*doc-test\\b(.*?)-->\\s*$");
    private static final Pattern FENCE = Pattern.compile("^(\\s*)```\\s*([\\w-]*)\\s*$");
    private static final Pattern FILE_OPTION = Pattern.compile("\\bfile:\\s*(\\S+)");
    private static final String ELLIPSIS = "...";

    private RunnableBlocks() {}

    enum Kind {
        SCRIPT,
        TRANSCRIPT,
        FILE,
        OUTPUT
    }

    /** A command of a transcript and the output it must print; {@code line} is its line in the page (from 1). */
    record Step(int line, String command, List<String> expected) {}

    /**
     * A runnable block: {@code line} is its opening fence's line (from 1), {@code text} its content, {@code file} the
     * name to write it as ({@link Kind#FILE}), {@code steps} its commands ({@link Kind#TRANSCRIPT}).
     */
    record Block(Kind kind, int line, String text, String file, boolean retry, List<Step> steps) {}

    /** The page's runnable blocks, in order; an unmarked transcript or a marker without a block is an error. */
    static List<Block> parse(List<String> page) {
        List<Block> blocks = new ArrayList<>();
        String options = null;
        int markerLine = 0;
        for (int i = 0; i < page.size(); i++) {
            Matcher marker = MARKER_LINE.matcher(page.get(i));
            if (marker.matches()) {
                options = marker.group(1).strip();
                markerLine = i + 1;
                continue;
            }
            Matcher fence = FENCE.matcher(page.get(i));
            if (!fence.matches()) {
                if (options != null) {
                    throw new IllegalArgumentException("line " + markerLine + ": a " + MARKER
                            + " marker must be the line " + "right before a code fence");
                }
                continue;
            }
            int start = i;
            List<String> content = new ArrayList<>();
            String indent = fence.group(1);
            for (i++; i < page.size() && !page.get(i).strip().equals("```"); i++) {
                String line = page.get(i);
                content.add(line.startsWith(indent) ? line.substring(indent.length()) : line.strip());
            }
            if (i == page.size()) {
                throw new IllegalArgumentException("line " + (start + 1) + ": the code block is not closed");
            }
            boolean transcript = !content.isEmpty() && content.get(0).startsWith("$ ");
            if (options == null) {
                if (transcript) {
                    throw new IllegalArgumentException(
                            "line " + (start + 1) + ": a transcript not marked runnable: put <!-- " + MARKER
                                    + " --> on the line before it (or <!-- " + MARKER + " skip --> if it cannot run)");
                }
                continue;
            }
            String opts = options;
            options = null;
            if (opts.matches(".*\\bskip\\b.*")) {
                continue;
            }
            String text = String.join("\n", content) + "\n";
            boolean retry = opts.matches(".*\\bretry\\b.*");
            Matcher file = FILE_OPTION.matcher(opts);
            if (file.find()) {
                blocks.add(new Block(Kind.FILE, start + 1, text, file.group(1), false, List.of()));
            } else if (opts.matches(".*\\boutput\\b.*")) {
                if (blocks.isEmpty() || blocks.get(blocks.size() - 1).kind() != Kind.SCRIPT) {
                    throw new IllegalArgumentException(
                            "line " + (start + 1) + ": an output block must follow a sh block");
                }
                blocks.add(new Block(Kind.OUTPUT, start + 1, text, null, false, List.of()));
            } else if (fence.group(2).equals("sh") || fence.group(2).equals("bash")) {
                blocks.add(new Block(Kind.SCRIPT, start + 1, text, null, false, List.of()));
            } else if (transcript) {
                blocks.add(new Block(Kind.TRANSCRIPT, start + 1, text, null, retry, steps(content, start + 2)));
            } else {
                throw new IllegalArgumentException("line " + (start + 1) + ": a marked block must be a sh block, a "
                        + "transcript ($ lines), or have the option file: NAME or output");
            }
        }
        if (options != null) {
            throw new IllegalArgumentException("line " + markerLine + ": a " + MARKER + " marker without a code block");
        }
        return blocks;
    }

    /** A transcript's commands; a command line ending in a backslash goes on on the next line. */
    private static List<Step> steps(List<String> content, int firstLine) {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < content.size(); ) {
            int line = firstLine + i;
            StringBuilder command = new StringBuilder(content.get(i).substring(2));
            while (command.toString().endsWith("\\") && i + 1 < content.size()) {
                command.append('\n').append(content.get(++i));
            }
            List<String> expected = new ArrayList<>();
            for (i++; i < content.size() && !content.get(i).startsWith("$ "); i++) {
                expected.add(content.get(i));
            }
            steps.add(new Step(line, command.toString(), expected));
        }
        return steps;
    }

    /** The lines of an output as a terminal shows them: without trailing blanks, nor empty lines at the end. */
    static List<String> lines(String output) {
        List<String> lines = new ArrayList<>();
        for (String line : output.split("\r?\n", -1)) {
            lines.add(line.stripTrailing());
        }
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    /** Whether {@code actual} is {@code expected} where a line {@code ...} is any lines, {@code ...} any text. */
    static boolean matches(List<String> expected, List<String> actual) {
        return matches(lines(String.join("\n", expected)), lines(String.join("\n", actual)), 0, 0, new HashMap<>());
    }

    private static boolean matches(List<String> expected, List<String> actual, int e, int a, Map<Long, Boolean> memo) {
        if (e == expected.size()) {
            return a == actual.size();
        }
        long key = ((long) e << 32) | a;
        Boolean known = memo.get(key);
        if (known != null) {
            return known;
        }
        boolean result;
        if (expected.get(e).strip().equals(ELLIPSIS)) {
            result = false;
            for (int next = a; next <= actual.size() && !result; next++) {
                result = matches(expected, actual, e + 1, next, memo);
            }
        } else {
            result = a < actual.size()
                    && lineMatches(expected.get(e), actual.get(a))
                    && matches(expected, actual, e + 1, a + 1, memo);
        }
        memo.put(key, result);
        return result;
    }

    private static boolean lineMatches(String expected, String actual) {
        StringBuilder regex = new StringBuilder();
        int from = 0;
        for (int at = expected.indexOf(ELLIPSIS); at >= 0; at = expected.indexOf(ELLIPSIS, from)) {
            regex.append(Pattern.quote(expected.substring(from, at))).append(".*");
            from = at + ELLIPSIS.length();
        }
        regex.append(Pattern.quote(expected.substring(from)));
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(actual).matches();
    }
}
