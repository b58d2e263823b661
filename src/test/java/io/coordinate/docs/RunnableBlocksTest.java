package io.coordinate.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coordinate.docs.RunnableBlocks.Block;
import io.coordinate.docs.RunnableBlocks.Kind;
import io.coordinate.docs.RunnableBlocks.Step;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunnableBlocksTest {

    @Test
    void anEllipsisLineMatchesAnyNumberOfLinesAndAnEllipsisInALineAnyText() {
        List<String> expected = List.of("first", "...", "... @... done", "last");
        assertThat(RunnableBlocks.matches(expected, List.of("first", "2026 @4 done", "last")))
                .isTrue();
        assertThat(RunnableBlocks.matches(expected, List.of("first", "a", "b", "2026 @4 done", "last")))
                .isTrue();
        assertThat(RunnableBlocks.matches(expected, List.of("first", " @ done", "last")))
                .isTrue();
        assertThat(RunnableBlocks.matches(expected, List.of("first", "2026 @4 done", "last", "more")))
                .isFalse();
        assertThat(RunnableBlocks.matches(expected, List.of("first", "2026 @4 undone", "last")))
                .isFalse();
        assertThat(RunnableBlocks.matches(expected, List.of("first", "last"))).isFalse();
    }

    @Test
    void outputIsComparedWithoutTrailingBlanksAndEmptyLastLines() {
        assertThat(RunnableBlocks.lines("a  \n\nb\n\n")).containsExactly("a", "", "b");
        assertThat(RunnableBlocks.matches(List.of("a", "b"), RunnableBlocks.lines("a \nb\n")))
                .isTrue();
        assertThat(RunnableBlocks.matches(List.of("a", "b"), List.of("a", "", "b")))
                .isFalse();
        assertThat(RunnableBlocks.matches(List.of(), RunnableBlocks.lines(""))).isTrue();
        assertThat(RunnableBlocks.matches(List.of(), List.of("error"))).isFalse();
        assertThat(RunnableBlocks.matches(List.of("(.*)"), List.of("x"))).isFalse();
    }

    @Test
    void marksMakeScriptsTranscriptsFilesAndOutputs() {
        List<Block> blocks = RunnableBlocks.parse("""
        Text.

        <!-- doc-test file: units.jsonl -->
        ```json
        {"name": "a"}
        ```

        <!-- doc-test -->
        ```sh
        B=1
        echo $B
        ```

        <!-- doc-test output -->
        ```
        1
        ```

        <!-- doc-test retry -->
        ```
        $ echo a; echo $?
        a
        0
        $ long \\
          line
        ```

        ```sh
        not marked
        ```

        <!-- doc-test skip -->
        ```
        $ tail --follow
        ```
        """.lines().toList());
        assertThat(blocks)
                .extracting(Block::kind)
                .containsExactly(Kind.FILE, Kind.SCRIPT, Kind.OUTPUT, Kind.TRANSCRIPT);
        assertThat(blocks.get(0).file()).isEqualTo("units.jsonl");
        assertThat(blocks.get(0).text()).isEqualTo("{\"name\": \"a\"}\n");
        assertThat(blocks.get(1).text()).isEqualTo("B=1\necho $B\n");
        assertThat(blocks.get(1).line()).isEqualTo(9);
        assertThat(blocks.get(3).retry()).isTrue();
        assertThat(blocks.get(3).steps())
                .containsExactly(
                        new Step(21, "echo a; echo $?", List.of("a", "0")), new Step(24, "long \\\n  line", List.of()));
    }

    @Test
    void anUnmarkedTranscriptOrAStrayMarkerIsAnError() {
        assertThatThrownBy(() -> RunnableBlocks.parse(List.of("```", "$ ls", "```")))
                .hasMessageContaining("line 1: a transcript not marked runnable");
        assertThatThrownBy(() -> RunnableBlocks.parse(List.of("<!-- doc-test -->", "", "```sh", "ls", "```")))
                .hasMessageContaining("line 1: a doc-test marker must be the line right before a code fence");
        assertThatThrownBy(() -> RunnableBlocks.parse(List.of("<!-- doc-test output -->", "```", "x", "```")))
                .hasMessageContaining("an output block must follow a sh block");
        assertThatThrownBy(() -> RunnableBlocks.parse(List.of("<!-- doc-test -->", "```", "plain", "```")))
                .hasMessageContaining("line 2: a marked block must be");
    }
}
