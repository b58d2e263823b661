package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ListBatchesTest {

    private static JsonNode text(String s) {
        return Json.MAPPER.getNodeFactory().textNode(s);
    }

    @Test
    void slicesHoldAtMostAThousandItemsInOrder() {
        List<Integer> items = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            items.add(i);
        }
        List<List<Integer>> batches = ListBatches.split(items, i -> text("x"));
        assertThat(batches).extracting(List::size).containsExactly(1_000, 1_000, 500);
        assertThat(batches.stream().flatMap(List::stream).toList()).isEqualTo(items);
    }

    @Test
    void slicesHoldAtMostTheirBytes() {
        // Each item is 64 KiB of JSON text (with its quotes): four fit in 256 KiB, and the fifth starts a slice.
        String big = "y".repeat(64 * 1024 - 2);
        List<String> items = List.of(big, big, big, big, big, big);
        assertThat(ListBatches.split(items, ListBatchesTest::text))
                .extracting(List::size)
                .containsExactly(4, 2);
    }

    @Test
    void anItemOverTheBytesAloneMakesASliceAndAnEmptyListOne() {
        String huge = "z".repeat(ListBatches.MAX_BYTES + 10);
        assertThat(ListBatches.split(List.of("a", huge, "b"), ListBatchesTest::text))
                .extracting(List::size)
                .containsExactly(1, 1, 1);
        assertThat(ListBatches.split(List.<String>of(), ListBatchesTest::text)).containsExactly(List.of());
    }

    @Test
    void eachSliceIsSentOnceTheOneBeforeItWasAnswered() {
        List<String> sent = new ArrayList<>();
        List<CompletableFuture<Integer>> answers = new ArrayList<>();
        CompletableFuture<Integer> total = ListBatches.inOrder(
                List.of(List.of("a"), List.of("b", "c"), List.of("d")),
                batch -> {
                    sent.add(String.join("", batch));
                    CompletableFuture<Integer> answer = new CompletableFuture<>();
                    answers.add(answer);
                    return answer;
                },
                Integer::sum);
        assertThat(sent).containsExactly("a");
        answers.get(0).complete(1);
        assertThat(sent).containsExactly("a", "bc");
        answers.get(1).complete(2);
        answers.get(2).complete(1);
        assertThat(total.join()).isEqualTo(4);
        assertThat(sent).containsExactly("a", "bc", "d");
    }
}
