package io.coordinate.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A table for people: columns aligned, two spaces apart, numbers right-aligned, no trailing spaces. A column is
 * numeric when its cells are {@link Number}s, nulls (shown as {@code -}) aside.
 *
 * <pre>
 * NAME  STATUS     PRIORITY
 * a     available        10
 * </pre>
 */
final class Table {

    private final List<String> headers;
    private final List<String[]> rows = new ArrayList<>();
    /** Per column: whether a number was seen, and whether anything else was. */
    private final List<Boolean> hasNumber = new ArrayList<>();

    private final List<Boolean> hasText = new ArrayList<>();

    /** A table with a header line; none when no headers are given. */
    Table(String... headers) {
        this.headers = List.of(headers);
    }

    Table row(Object... cells) {
        String[] texts = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            while (hasNumber.size() <= i) {
                hasNumber.add(false);
                hasText.add(false);
            }
            if (cells[i] instanceof Number) {
                hasNumber.set(i, true);
            } else if (cells[i] != null) {
                hasText.set(i, true);
            }
            texts[i] = cells[i] == null ? "-" : String.valueOf(cells[i]);
        }
        rows.add(texts);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(PrintWriter out) {
        out.print(this);
        out.flush();
    }

    @Override
    public String toString() {
        List<String[]> lines = new ArrayList<>();
        if (!headers.isEmpty()) {
            lines.add(headers.toArray(String[]::new));
        }
        lines.addAll(rows);
        int columns = lines.stream().mapToInt(line -> line.length).max().orElse(0);
        int[] widths = new int[columns];
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] line : lines) {
            StringBuilder row = new StringBuilder();
            for (int i = 0; i < line.length; i++) {
                if (i > 0) {
                    row.append("  ");
                }
                String pad = " ".repeat(widths[i] - line[i].length());
                boolean right = i < hasNumber.size() && hasNumber.get(i) && !hasText.get(i);
                row.append(right ? pad + line[i] : line[i] + pad);
            }
            text.append(row.toString().stripTrailing()).append(System.lineSeparator());
        }
        return text.toString();
    }
}
