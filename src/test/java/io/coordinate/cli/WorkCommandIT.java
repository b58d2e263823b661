package io.coordinate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coordinate.client.CoordinateClient;
import io.coordinate.client.WorkSpec;
import io.coordinate.client.WorkUnit;
import io.coordinate.testing.RunningApp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coordinate work --until-idle} against a real broker and app, run as the CLI runs it. */
class WorkCommandIT {

  @TempDir static Path dataDir;
  private static RunningApp app;

  @BeforeAll
  static void start() throws Exception {
    app = RunningApp.start(dataDir);
  }

  @AfterAll
  static void stop() {
    app.close();
  }

  private static int work(String ns, String spec, String exec) {
    return CoordinateCli.commandLine().execute("work", "--bootstrap-servers", app.env().bootstrapServers(),
        "--http-url", "http://127.0.0.1:" + app.env().httpPort(), "--namespace", ns, "--spec", spec, "--exec", exec,
        "--concurrency", "4", "--until-idle");
  }

  private static void addUnits(String ns, String spec, int n) {
    try (CoordinateClient client = CoordinateClient.builder().bootstrapServers(app.env().bootstrapServers())
        .namespace(ns).build()) {
      client.setWorkSpec(WorkSpec.named(spec).build()).join();
      List<WorkUnit> units = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        units.add(WorkUnit.named("u" + i).data(Map.of("n", i)).build());
      }
      client.addWorkUnits(spec, units).join();
    }
  }

  @Test
  void finishesEveryUnitWithTheCommandsOutputThenExits() {
    addUnits("work-ok", "s", 20);
    assertThat(work("work-ok", "s", "cat; echo \" $COORDINATE_UNIT\"")).isEqualTo(ExitCodes.OK);
    assertThat(app.client().get("/api/namespaces/work-ok/work-specs/s").body().get("counts").toString())
        .isEqualTo("{\"finished\":20}");
    assertThat(app.client().get("/api/namespaces/work-ok/work-specs/s/work-units/u7").body().get("data").toString())
        .isEqualTo("{\"stdout\":\"{\\\"n\\\":7} u7\\n\"}");
  }

  @Test
  void aFailingCommandFailsItsUnitWithStderr() {
    addUnits("work-fail", "s", 3);
    assertThat(work("work-fail", "s", "echo \"no $COORDINATE_UNIT\" >&2; exit 2")).isEqualTo(ExitCodes.OK);
    assertThat(app.client().get("/api/namespaces/work-fail/work-specs/s").body().get("counts").toString())
        .isEqualTo("{\"failed\":3}");
    assertThat(app.client().get("/api/namespaces/work-fail/work-specs/s/work-units/u1").body().get("data").toString())
        .isEqualTo("{\"traceback\":\"exit status 2\\nno u1\\n\",\"exit_status\":2}");
  }
}
