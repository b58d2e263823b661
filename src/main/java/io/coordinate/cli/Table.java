package io.coordinate.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A table for people: columns aligned, two spaces apart, numbers right-aligned, no trailing spaces. A column is
 * numeric when every cell given to it is a {@link Number} (or null, shown as {@code -}).
 *
 * <pre>
 * NAME  STATUS     PRIORITY
 * a     available        10
 * </pre>
 */
final class Table {

  private final List<String> headers;
  private final List<String[]> rows = new ArrayList<>();
  private final List<Boolean> numeric = new ArrayList<>();

  /** A table with a header line; none when no headers are given. */
  Table(String... headers) {
    this.headers = List.of(headers);
  }

  Table row(Object... cells) {
    String[] texts = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      while (numeric.size() <= i) {
        numeric.add(true);
      }
      if (cells[i] != null && !(cells[i] instanceof Number)) {
        numeric.set(i, false);
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
        boolean right = i < numeric.size() && numeric.get(i);
        row.append(right ? pad + line[i] : line[i] + pad);
      }
      text.append(row.toString().stripTrailing()).append(System.lineSeparator());
    }
    return text.toString();
  }
}
