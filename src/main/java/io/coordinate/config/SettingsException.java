package io.coordinate.config;

/**
 * A setting the operator gave that cannot be used (a file that cannot be read, a value out of range): its message
 * is one line saying which and why, for the command line to print as it is.
 */
public final class SettingsException extends RuntimeException {

    public SettingsException(String message) {
        super(message, null, false, false);
    }
}
