package io.coordinate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reading Linux's /proc files for memory and CPU figures; every method answers -1 where there is no figure. */
final class ProcStatus {

    private ProcStatus() {}

    /** A memory line ({@code VmRSS:    123456 kB}) of a /proc/.../status file, in bytes, or -1. */
    static long read(Path statusFile, String field) {
        try {
            return field(Files.readAllLines(statusFile), field);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The value of {@code field} among the lines of a /proc/.../status file, in bytes, or -1. */
    static long field(List<String> lines, String field) {
        for (String line : lines) {
            if (line.startsWith(field + ":")) {
                String value = line.substring(field.length() + 1).trim();
                try {
                    return value.endsWith(" kB")
                            ? Long.parseLong(value.substring(0, value.length() - 3)
                                            .trim())
                                    * 1024
                            : Long.parseLong(value);
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /**
     * utime + stime (fields 14 and 15, in clock ticks) of a /proc/<pid>/stat line, or -1. The command name (field 2)
     * is in parentheses and may hold spaces and parentheses itself, so fields are counted after its last ')'.
     */
    static long cpuTicks(String statLine) {
        int end = statLine.lastIndexOf(')');
        if (end < 0) {
            return -1;
        }
        String[] f = statLine.substring(end + 1).trim().split("\\s+");
        // f[0] is field 3 (state): utime is field 14 = f[11], stime field 15 = f[12].
        if (f.length < 13) {
            return -1;
        }
        try {
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
