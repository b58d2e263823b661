package io.coordinate.engine.handlers;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.coordinate.engine.state.model.CronSchedule;
import io.coordinate.engine.state.model.SpecSchedule;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * The fire times of a cron schedule, as cron-utils computes them for a Unix expression in the schedule's zone: a pure
 * function of the schedule and the time given, so that a replay computes the same fires.
 */
final class FireTimes {

    /** One parser per thread: the stream threads compute fires at once, and the parser's thread safety is unsaid. */
    private static final ThreadLocal<CronParser> PARSER =
            ThreadLocal.withInitial(() -> new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX)));

    private FireTimes() {}

    /** The expression's execution times; throws IllegalArgumentException for an expression it cannot read. */
    static ExecutionTime of(String cron) {
        Cron parsed = PARSER.get().parse(cron);
        parsed.validate();
        return ExecutionTime.forCron(parsed);
    }

    /** The first fire strictly after {@code time} (epoch millis); {@link SpecSchedule#NEVER} when none comes. */
    static long after(CronSchedule schedule, long time) {
        return millis(of(schedule.cron()).nextExecution(at(schedule, time)));
    }

    /** The last fire at or before {@code time}; {@link SpecSchedule#NEVER} when none was. */
    static long latestUpTo(CronSchedule schedule, long time) {
        return millis(of(schedule.cron()).lastExecution(at(schedule, time + 1)));
    }

    private static ZonedDateTime at(CronSchedule schedule, long time) {
        return Instant.ofEpochMilli(time).atZone(ZoneId.of(schedule.timezone()));
    }

    private static long millis(Optional<ZonedDateTime> fire) {
        return fire.map(t -> t.toInstant().toEpochMilli()).orElse(SpecSchedule.NEVER);
    }
}
