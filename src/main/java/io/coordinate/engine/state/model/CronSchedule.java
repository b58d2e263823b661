package io.coordinate.engine.state.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * A work spec's cron schedule (docs/reference.md#schedules): the unit it adds at each fire time, and what it does
 * about fire times it missed. Every field holds its default when the spec's data did not give it.
 *
 * @param cron a Unix cron expression of five fields
 * @param timezone the IANA zone the expression's times are read in
 * @param nameTemplate the added unit's name: {@code {spec}}, {@code {fire_time}} and {@code {fire_epoch}} replaced
 * @param unitData the added unit's data
 * @param priority the added unit's priority
 * @param catchUp what a time step that finds fire times already past adds for them
 */
public record CronSchedule(
        String cron, String timezone, String nameTemplate, ObjectNode unitData, double priority, CatchUp catchUp) {

    public static final String DEFAULT_TIMEZONE = "UTC";
    public static final String DEFAULT_NAME_TEMPLATE = "{spec}-{fire_time}";

    /** What a time step adds for fire times it finds already past (after downtime). */
    public enum CatchUp {
        @JsonProperty("none")
        NONE,
        @JsonProperty("one")
        ONE,
        @JsonProperty("all")
        ALL;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The placeholders of {@link #nameTemplate}. */
    public static final java.util.List<String> PLACEHOLDERS =
            java.util.List.of("{spec}", "{fire_time}", "{fire_epoch}");

    /**
     * The name of the unit of the fire at {@code fireMillis}: the same for the same fire, so a replay adds it once.
     * One pass over the template, so that a spec name holding a placeholder's text stays as it is.
     */
    public String unitName(String spec, long fireMillis) {
        Instant fire = Instant.ofEpochMilli(fireMillis).truncatedTo(ChronoUnit.SECONDS);
        StringBuilder name = new StringBuilder();
        int at = 0;
        while (at < nameTemplate.length()) {
            String placeholder = placeholderAt(nameTemplate, at);
            if (placeholder == null) {
                name.append(nameTemplate.charAt(at++));
                continue;
            }
            name.append(
                    switch (placeholder) {
                        case "{spec}" -> spec;
                        case "{fire_time}" -> fire.toString();
                        default -> Long.toString(fire.getEpochSecond());
                    });
            at += placeholder.length();
        }
        return name.toString();
    }

    /** The placeholder that starts at {@code at} in {@code template}; null when none does. */
    public static String placeholderAt(String template, int at) {
        for (String placeholder : PLACEHOLDERS) {
            if (template.startsWith(placeholder, at)) {
                return placeholder;
            }
        }
        return null;
    }
}
