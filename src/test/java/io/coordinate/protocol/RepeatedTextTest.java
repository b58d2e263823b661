package io.coordinate.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.SerializableString;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RepeatedTextTest {

    @Test
    void keepsTheEncodedFormWhileTheTextRepeatsAndQuotesAsTheGeneratorWould() {
        RepeatedText text = new RepeatedText();
        SerializableString first = text.of("spec \"é\"\n");
        assertThat(text.of(new String("spec \"é\"\n"))).isSameAs(first);
        assertThat(new String(first.asQuotedUTF8(), StandardCharsets.UTF_8)).isEqualTo("spec \\\"é\\\"\\n");
        assertThat(text.of("other").getValue()).isEqualTo("other");
        assertThat(text.of(null)).isNull();
    }
}
