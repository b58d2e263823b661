# Coordinate Streams app image: `docker build -t coordinate-streams .` (see docker-compose.yml).

# Build stage: compile and gather the runtime dependencies (no fat jar: classes + lib/). The compile also builds the
# development tools (src/dev, src/bench) into target/dev-classes, and the broker's jars and Scala are provided-scope:
# the run stage takes neither (RuntimeOutputTest checks it).
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
# Dependencies in their own layer, so a source change does not download them again.
RUN mvn -B -q dependency:go-offline
COPY src ./src
COPY topics ./topics
RUN mvn -B -q -DskipTests compile dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory=/src/target/lib

# Run stage: JRE only, unprivileged user, state on a volume.
FROM eclipse-temurin:17-jre
RUN useradd --system --create-home --home-dir /var/lib/coordinate coordinate
WORKDIR /opt/coordinate
COPY --from=build /src/target/classes ./classes
COPY --from=build /src/target/lib ./lib
USER coordinate
VOLUME /var/lib/coordinate
EXPOSE 8080
# The heap: at most half the container's memory limit. The rest is for RocksDB's block cache (256 MiB, off the heap)
# and the JVM's own memory (docs/operations.md, "Memory"): give the container 1 GiB or more. JAVA_TOOL_OPTIONS set
# at run time replaces this, e.g. with -Xmx512m.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=50"
# Liveness, not readiness: an orchestrator may restart an unhealthy container, and a rebalance or a restore must not
# cause that. bash's /dev/tcp rather than curl, which the JRE image need not have. HTTP serves a few seconds
# after the start, during the restore too: the start period covers only the JVM's start and the topic checks.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /health/live HTTP/1.0\\r\\n\\r\\n' >&3 && read -r _ code _ <&3 && [ \"$code\" = 200 ]"]
# Exec form: java is PID 1 and gets SIGTERM, so the shutdown hook closes the app cleanly. The heap in transparent
# huge pages, as bin/coordinate does (docs/operations.md, "Memory"); on a host whose kernel has them off the JVM
# says so once at start and goes on without.
ENTRYPOINT ["java", "-XX:+UseTransparentHugePages", "-cp", "/opt/coordinate/classes:/opt/coordinate/lib/*", "io.coordinate.cli.CoordinateCli"]
# --http-host 0.0.0.0: the app's default, 127.0.0.1, is the container's own loopback, which no one outside reaches.
CMD ["run", "--bootstrap-servers", "kafka:9092", "--http-host", "0.0.0.0", "--http-port", "8080", "--data-dir", "/var/lib/coordinate"]
