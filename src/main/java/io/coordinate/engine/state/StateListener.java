package io.coordinate.engine.state;

import io.coordinate.engine.state.model.AttemptRecord;
import io.coordinate.engine.state.model.WorkSpecRecord;
import io.coordinate.engine.state.model.WorkUnitRecord;
import io.coordinate.engine.state.model.WorkerRecord;

/**
 * Told of every change made through {@link CoordinateState}'s transition methods, after the write. The
 * engine turns these into events, so that every state change has its event and no handler can forget one.
 * {@code before == null} means created, {@code after == null} deleted.
 */
public interface StateListener {

  void specChanged(String ns, WorkSpecRecord before, WorkSpecRecord after);

  void unitChanged(String ns, WorkUnitRecord before, WorkUnitRecord after);

  void attemptChanged(String ns, AttemptRecord before, AttemptRecord after);

  void workerChanged(String ns, WorkerRecord before, WorkerRecord after);

  void namespaceDestroyed(String ns);

  StateListener NONE =
      new StateListener() {
        @Override
        public void specChanged(String ns, WorkSpecRecord before, WorkSpecRecord after) {}

        @Override
        public void unitChanged(String ns, WorkUnitRecord before, WorkUnitRecord after) {}

        @Override
        public void attemptChanged(String ns, AttemptRecord before, AttemptRecord after) {}

        @Override
        public void workerChanged(String ns, WorkerRecord before, WorkerRecord after) {}

        @Override
        public void namespaceDestroyed(String ns) {}
      };
}
