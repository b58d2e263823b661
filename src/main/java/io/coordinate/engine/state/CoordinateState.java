package io.coordinate.engine.state;

/**
 * The state as a command changes it: each module's transition methods keep every index and counter of its
 * aggregate right for the change and tell the {@link StateListener}; nothing else writes to the store.
 */
public interface CoordinateState extends StateReader {

  @Override
  MutableNamespaceState namespaces();

  @Override
  MutableSpecState specs();

  @Override
  MutableUnitState units();

  @Override
  MutableAttemptState attempts();

  @Override
  MutableWorkerState workers();

  @Override
  MutableTimeIndexState timeIndexes();

  @Override
  MutableAnswerState answers();

  /** Who hears of every change from now on (the engine's event recorder). */
  void setListener(StateListener listener);

  /**
   * Writes what the modules keep in memory until then (the attempt indexes' blocks, the counts' moves): before a
   * command's writes are committed, and after each chunk of a rebuild.
   */
  void flush();
}
