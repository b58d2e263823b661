package io.coordinate.engine.state;

import io.coordinate.engine.state.model.WorkerRecord;
import java.util.List;

/** Workers and their parent/child tree. */
public interface WorkerState {

    WorkerRecord get(String ns, String name);

    List<WorkerRecord> list(String ns);

    /** Workers in name order, strictly after {@code afterName} (null = from the start), at most {@code limit}. */
    List<WorkerRecord> list(String ns, String afterName, int limit);

    List<String> children(String ns, String parent);
}
