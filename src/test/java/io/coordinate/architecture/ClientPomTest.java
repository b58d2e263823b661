package io.coordinate.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The client's artifact pins the same versions as the app, so both speak to Kafka with the same client. */
class ClientPomTest {

    private static String property(Path pom, String name) throws Exception {
        Matcher matcher =
                Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(Files.readString(pom));
        assertThat(matcher.find()).as("%s in %s", name, pom).isTrue();
        return matcher.group(1);
    }

    @Test
    void versionsMatchTheApps() throws Exception {
        for (String name : new String[] {"kafka.version", "jackson.version", "slf4j.version", "version"}) {
            assertThat(property(Path.of("client/pom.xml"), name))
                    .as(name)
                    .isEqualTo(property(Path.of("pom.xml"), name));
        }
    }
}
