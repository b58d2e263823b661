package io.coordinate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * How busy the machine was with other work while the benchmark ran: the CPU time the whole machine spent
 * (/proc/stat) minus what this process spent, in cores. On a shared 2-core machine a figure measured while
 * something else took a core is not comparable to one measured alone; the report carries this so that it is never
 * read without it. NaN where /proc is missing.
 */
final class CpuMeter {

    /** USER_HZ, the unit of /proc/stat; 100 on every Linux this runs on. */
    private static final double TICKS_PER_SECOND = 100.0;

    private final LongSupplier alsoOursTicks;
    private final long alsoOursStarted;
    private final long wallStarted = System.nanoTime();
    private final long machineBusyStarted = machineBusyTicks();
    private final long processStarted = LifecycleLoad.processCpuNanos();

    CpuMeter() {
        this(() -> 0);
    }

    /** @param alsoOursTicks CPU ticks of a process of the benchmark's own (the app in a child JVM), not counted */
    CpuMeter(LongSupplier alsoOursTicks) {
        this.alsoOursTicks = alsoOursTicks;
        this.alsoOursStarted = alsoOursTicks.getAsLong();
    }

    /** Cores' worth of CPU used by other processes since this meter was created. */
    double otherProcessesCores() {
        long busy = machineBusyTicks();
        if (busy < 0 || machineBusyStarted < 0) {
            return Double.NaN;
        }
        double wall = (System.nanoTime() - wallStarted) / 1e9;
        double machine = (busy - machineBusyStarted) / TICKS_PER_SECOND;
        long alsoOurs = alsoOursTicks.getAsLong();
        double own = (LifecycleLoad.processCpuNanos() - processStarted) / 1e9
                + (alsoOurs < 0 || alsoOursStarted < 0 ? 0 : (alsoOurs - alsoOursStarted) / TICKS_PER_SECOND);
        return Math.max(0, (machine - own) / wall);
    }

    /** The 1-minute load average, or NaN. */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** user + nice + system + irq + softirq + steal ticks of all CPUs, or -1. */
    private static long machineBusyTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal ...
            return Long.parseLong(f[1])
                    + Long.parseLong(f[2])
                    + Long.parseLong(f[3])
                    + Long.parseLong(f[6])
                    + Long.parseLong(f[7])
                    + (f.length > 8 ? Long.parseLong(f[8]) : 0);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
