package io.coordinate.client;

/** Kafka could not be reached, or its topics for Coordinate were missing, within the client's timeout. */
public final class CoordinateUnreachableException extends CoordinateException {

    public CoordinateUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}
