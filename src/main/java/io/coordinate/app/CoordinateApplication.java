package io.coordinate.app;

/** Placeholder: replaced by the real application (streams + HTTP) in the engine work. */
public final class CoordinateApplication implements AutoCloseable {
  private final AppConfig config;

  public CoordinateApplication(AppConfig config) {
    this.config = config;
  }

  /** Creates missing topics, starts Kafka Streams and the HTTP API; returns once both serve. */
  public void start() throws InterruptedException {
    throw new UnsupportedOperationException("not yet wired");
  }

  /** The actual HTTP port (useful when 0 was configured). */
  public int httpPort() {
    return config.httpPort();
  }

  @Override
  public void close() {}
}
