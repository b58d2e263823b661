package io.coordinate.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.coordinate.protocol.Json;
import java.net.http.HttpResponse;

/** Exact JSON assertions on HTTP answers; expected JSON is written with single quotes for readability. */
final class QueryTestSupport {

    private QueryTestSupport() {}

    static JsonNode json(String singleQuoted) {
        return Json.parse(singleQuoted.replace('\'', '"'));
    }

    /** The parsed body of an answer. */
    static JsonNode body(HttpResponse<String> response) {
        return Json.parse(response.body());
    }

    /** The answer has exactly this status and this JSON body (object fields in any order, arrays in order). */
    static void assertAnswer(HttpResponse<String> response, int status, String expectedJson) {
        assertThat(response.statusCode())
                .as("status of %s, body %s", response.uri(), response.body())
                .isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(Json.parse(response.body())).as("body of %s", response.uri()).isEqualTo(json(expectedJson));
    }

    static void assertError(HttpResponse<String> response, int status, String code, String message) {
        assertThat(response.statusCode())
                .as("status of %s, body %s", response.uri(), response.body())
                .isEqualTo(status);
        assertThat(Json.parse(response.body())).isEqualTo(Responses.error(code, message));
    }

    /** A 503 that tells the client to come back: {@code Retry-After: 1} and code {@code unavailable}. */
    static void assertRetryLater(HttpResponse<String> response, String message) {
        assertError(response, 503, "unavailable", message);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
    }
}
