package io.coordinate.client;

/** Something a {@link CoordinateClient} call could not do. */
public class CoordinateException extends RuntimeException {

    public CoordinateException(String message) {
        super(message);
    }

    public CoordinateException(String message, Throwable cause) {
        super(message, cause);
    }
}
