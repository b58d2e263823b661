package io.coordinate.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.cli.DevEnvironment;
import io.coordinate.protocol.Json;
import io.coordinate.protocol.TopicNames;
import io.coordinate.testing.KafkaTestClient;
import io.coordinate.testing.KafkaTestClient.HttpAnswer;
import io.coordinate.testing.Poll;
import io.coordinate.testing.RefusingConsumerInterceptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream thread that dies and cannot be replaced (issue 35: a process out of file descriptors could not build the
 * new one) leaves Kafka Streams saying RUNNING with nothing processed: liveness must fail, readiness too, and the app
 * says it stopped (the CLI then exits with code 5). The thread is made to die by a command whose output the producer
 * refuses (a lower {@code max.request.size} than the engine's limit), and its replacement by a main consumer that
 * cannot be built ({@link RefusingConsumerInterceptor}).
 */
class StreamThreadLossIT {

  private static final TopicNames TOPICS = TopicNames.unprefixed();

  @TempDir Path dataDir;

  @AfterEach
  void stopRefusing() {
    RefusingConsumerInterceptor.refuse = false;
  }

  @Test
  void aStreamThreadThatCannotBeReplacedFailsLivenessAndReadiness() throws Exception {
    try (DevEnvironment env = DevEnvironment.start(0, 0, dataDir,
        c -> c.withKafkaProperties(Map.of("producer.max.request.size", "200000",
            "main.consumer.interceptor.classes", RefusingConsumerInterceptor.class.getName())));
        KafkaTestClient client = new KafkaTestClient(env.bootstrapServers(), env.httpPort())) {
      assertThat(client.get("/health/live")).isEqualTo(answer(200, "{'status':'UP','streams':'RUNNING'}"));

      RefusingConsumerInterceptor.refuse = true;
      client.send(TOPICS.commands(), "lost", "{\"command\":\"set_work_spec\",\"namespace\":\"lost\","
          + "\"work_spec\":{\"name\":\"s\"}}");
      client.send(TOPICS.commands(), "lost", "{\"command\":\"add_work_units\",\"namespace\":\"lost\","
          + "\"work_spec_name\":\"s\",\"work_units\":[{\"name\":\"big\",\"data\":{\"b\":\"" + "x".repeat(250_000)
          + "\"}}]}");

      HttpAnswer live = Poll.until("liveness to fail", Duration.ofSeconds(60), () -> client.get("/health/live"),
          a -> a.status() != 200);
      String reason = env.application().stopped().get();
      assertThat(reason).startsWith("no stream thread has been alive for 10 s, and none was started in place of "
          + "the failed one (the last failure: org.apache.kafka.streams.errors.StreamsException: ");
      assertThat(live).isEqualTo(new HttpAnswer(503,
          Json.object().put("status", "DOWN").put("streams", "RUNNING").put("error", reason)));
      assertThat(client.get("/health/ready"))
          .isEqualTo(new HttpAnswer(503, Json.object().put("status", "FAILING").put("error", reason)));
    }
  }

  private static HttpAnswer answer(int status, String singleQuotedJson) {
    return new HttpAnswer(status, Json.parse(singleQuotedJson.replace('\'', '"')));
  }
}
