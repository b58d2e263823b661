package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseParserTest {

    private static List<SseParser.Message> parse(String... lines) {
        SseParser parser = new SseParser();
        List<SseParser.Message> messages = new ArrayList<>();
        for (String line : lines) {
            SseParser.Message message = parser.line(line);
            if (message != null) {
                messages.add(message);
            }
        }
        return messages;
    }

    @Test
    void eachBlankLineEndsAMessageWithItsOwnFields() {
        assertThat(parse(
                        "id: 4",
                        "event: batch",
                        "data: {\"a\":1}",
                        "",
                        ": keep-alive",
                        "event: caught_up",
                        "data:{\"end_offset\":6}",
                        "retry: 10",
                        ""))
                .containsExactly(
                        new SseParser.Message("batch", "4", "{\"a\":1}"),
                        new SseParser.Message("caught_up", null, "{\"end_offset\":6}"));
    }

    @Test
    void dataLinesJoinWithNewlinesAndAnUnnamedEventIsAMessage() {
        assertThat(parse("data: one", "data:  two", "data", ""))
                .containsExactly(new SseParser.Message("message", null, "one\n two\n"));
        assertThat(SseParser.isComment(": keep-alive")).isTrue();
        assertThat(SseParser.isComment("data: :")).isFalse();
    }
}
