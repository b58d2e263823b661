package io.coordinate.query;

import io.coordinate.protocol.Json;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Jetty's own error answers, for what never reaches a route (a malformed request line or URI, headers over the
 * limit, an unsupported HTTP version), in the API's shape {@code {"error": {"code", "message"}}} rather than HTML.
 */
final class JsonErrorHandler extends ErrorHandler {

    /** The request could not be parsed: no dispatch, only a status, its reason and the answer's headers. */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, Responses.JSON);
        return ByteBuffer.wrap(body(status, reason));
    }

    @Override
    protected void generateAcceptableResponse(
            Request baseRequest, HttpServletRequest request, HttpServletResponse response, int code, String message)
            throws IOException {
        byte[] body = body(code, message);
        response.setContentType(Responses.JSON);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    private static byte[] body(int status, String reason) {
        String message = reason == null || reason.isBlank() ? HttpStatus.getMessage(status) : reason;
        return Json.bytes(Responses.error(Responses.codeFor(status), message));
    }
}
