package io.coordinate.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WorkUnitTest {

    @Test
    void aUnitsGroupGoesOutAsItsGroupField() {
        WorkUnit unit = WorkUnit.named("u").priority(2).group("customer-7").build();

        assertThat(unit.json().toString()).isEqualTo("{\"name\":\"u\",\"priority\":2.0,\"group\":\"customer-7\"}");
    }
}
