package io.coordinate.engine.state;

import io.coordinate.engine.state.model.WorkerRecord;

public interface MutableWorkerState extends WorkerState {

    void write(String ns, WorkerRecord before, WorkerRecord after);
}
