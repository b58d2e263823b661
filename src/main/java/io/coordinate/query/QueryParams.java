package io.coordinate.query;

import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;

/** Query-string parsing shared by the list routes: page size and cursor, and multi-valued filters. */
final class QueryParams {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    private QueryParams() {}

    /** {@code limit}: default 100; above 1000 is capped (a page is bounded whatever is asked); below 1 is an error. */
    static int limit(Context ctx) {
        String text = ctx.queryParam("limit");
        if (text == null || text.isEmpty()) {
            return DEFAULT_LIMIT;
        }
        int limit;
        try {
            limit = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            limit = 0;
        }
        if (limit < 1) {
            throw QueryError.badRequest("bad_request", "\"limit\" must be a positive integer, got \"" + text + "\"");
        }
        return Math.min(limit, MAX_LIMIT);
    }

    /** {@code previous}: the cursor (the {@code next} of the last page); the page starts strictly after it. */
    static String previous(Context ctx) {
        return ctx.queryParam("previous");
    }

    /** A filter given as repeated parameters, comma-separated values, or both; null when absent. */
    static List<String> list(Context ctx, String name) {
        List<String> raw = ctx.queryParams(name);
        if (raw.isEmpty()) {
            return null;
        }
        List<String> values = new ArrayList<>();
        for (String value : raw) {
            for (String part : value.split(",", -1)) {
                if (!part.isEmpty()) {
                    values.add(part);
                }
            }
        }
        return values;
    }
}
