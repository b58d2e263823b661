package io.coordinate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcStatusTest {

    private static final List<String> STATUS = List.of(
            "Name:\tjava",
            "VmPeak:\t 4530412 kB",
            "VmHWM:\t  812344 kB",
            "VmRSS:\t  702464 kB",
            "RssAnon:\t  650240 kB",
            "RssFile:\t   52224 kB",
            "Threads:\t57");

    @Test
    void memoryLinesAreReadInBytes() {
        assertThat(ProcStatus.field(STATUS, "VmRSS")).isEqualTo(702_464L * 1024);
        assertThat(ProcStatus.field(STATUS, "VmHWM")).isEqualTo(812_344L * 1024);
        assertThat(ProcStatus.field(STATUS, "RssAnon")).isEqualTo(650_240L * 1024);
        assertThat(ProcStatus.field(STATUS, "RssFile")).isEqualTo(52_224L * 1024);
    }

    @Test
    void aFieldIsMatchedWholeAndMissingOnesAreMinusOne() {
        assertThat(ProcStatus.field(STATUS, "Vm")).isEqualTo(-1);
        assertThat(ProcStatus.field(STATUS, "VmSwap")).isEqualTo(-1);
        assertThat(ProcStatus.field(STATUS, "Threads")).isEqualTo(57); // no unit: the number itself
        assertThat(ProcStatus.field(STATUS, "Name")).isEqualTo(-1); // not a number
        assertThat(ProcStatus.field(List.of(), "VmRSS")).isEqualTo(-1);
    }

    @Test
    void cpuTicksAreUtimePlusStimeCountedAfterTheCommandName() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        String stat = "4242 (java) S 1 4242 4242 0 -1 4194560 91234 0 12 0 1534 287 0 0 20 0 57 0 123456 4639019008";
        assertThat(ProcStatus.cpuTicks(stat)).isEqualTo(1534 + 287);
        String odd = "4242 (a (b) c) R 1 4242 4242 0 -1 4194560 91234 0 12 0 10 5 0 0 20 0 57 0 123456 4639019008";
        assertThat(ProcStatus.cpuTicks(odd)).isEqualTo(15);
        assertThat(ProcStatus.cpuTicks("4242 (java) S 1 2")).isEqualTo(-1);
        assertThat(ProcStatus.cpuTicks("garbage")).isEqualTo(-1);
    }
}
