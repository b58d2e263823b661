package io.coordinate.engine;

import com.fasterxml.jackson.databind.JsonNode;

/** One record the engine wants written: its key and JSON value; the topic is given by the list it is in. */
public record OutRecord(String key, JsonNode value) {}
